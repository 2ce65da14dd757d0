import Kcert.WarpFinish

/-!
# Replaying a schedule as a `WSem` execution (first step towards `FinishesW`)

The executor's finished run gives an ORDER of threads; a `WSem` execution that replays it is a
list of thread ids each of which, at its turn, is a thread `< N`, running and not waiting at a
collective.  Here, for any program with collectives:

* `wrun l s`: the state after the threads of `l` do their next actions in turn (`wnext`);
* `WSchedOK l s`: at each turn the thread is `< N`, running and not waiting (a Prop, checked
  along the replay);
* `wreach_wrun`: a schedule that is OK is a `WSem` execution from `s` to `wrun l s`;
* `wrun_congr`, `wschedOK_congr`: both respect `WSame` (so a replay can be checked from any
  pointwise-equal state);
* `wrun_append`, `wschedOK_append`: schedules compose;
* `wfinishes_of_sched`: if from every launch memory some OK schedule ends with every thread
  exited, the CTA `WFinishes`; `ctaSafeW'_of_sched`: with `CtaSafeW` this gives `CtaSafeW'`.
* `wschedOK_distinct`: any list of pairwise distinct threads, each `< N`, running and not
  waiting, is an OK schedule, whatever their actions.
* One arrival at a collective: `doneW_of_waiting`, `doneW_false_of`, `wnext_arrive_wait` (it
  waits: nothing else changes), `wnext_arrive_done` (it completes: every waiting lane released).
* A whole instance: `wrun_wait` (arrivals before the last wait), `wrun_instance` (the last one
  releases every lane to its continuation with its result of the one vector of contributions),
  `wschedOK_instance` (the replay is an OK schedule), `allRun_instance` (its lanes are runnable
  again afterwards, so replays chain).
* Solo segments: `wnext_local`, `wschedOK_solo` (a thread doing thread-local base actions, no
  barrier and no exit, in turn).
* Not vacuous: `exSched_finishes`: the `bar.warp.sync` example through `wfinishes_of_sched`
  (schedule `[0, 0, 1, 1]` then, from the equal state `exM`, `[0, 0, 1, 1]`); `exInst`:
  `wrun_instance` on it.

NOT DONE here: that `canonRunW`'s order (with `FinishedW` and the checks of
`warp_run_sound_lo2`) is such a schedule from EVERY launch memory.
-/

namespace Kcert

open Sem
open Warp
open WarpRace

section Replay

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)

/-- The state after the threads of `l` do their next actions in turn. -/
def wrun : List Nat → WState V → WState V
  | [], s => s
  | i :: l, s => wrun l (wnext memb wp N i s)

/-- At each turn of `l` from `s`, the thread is `< N`, running, and not waiting. -/
def WSchedOK : List Nat → WState V → Prop
  | [], _ => True
  | i :: l, s => (i < N ∧ (s.s.th i).status = Status.run ∧ s.cw i = none) ∧
      WSchedOK l (wnext memb wp N i s)

theorem wreach_wrun : ∀ (l : List Nat) (s : WState V), WSchedOK memb wp N l s →
    WReach memb wp N s (wrun memb wp N l s)
  | [], s, _ => WReach.refl s
  | i :: l, s, h =>
    WReach.step ⟨i, ⟨h.1.1, h.1.2.1, h.1.2.2, wsame_refl _⟩⟩ (wreach_wrun l _ h.2)

theorem wrun_congr : ∀ (l : List Nat) {a b : WState V}, WSame a b →
    WSame (wrun memb wp N l a) (wrun memb wp N l b)
  | [], _, _, h => h
  | i :: l, _, _, h => wrun_congr l (wnext_congr memb wp N i h)

theorem wschedOK_congr : ∀ (l : List Nat) {a b : WState V}, WSame a b →
    WSchedOK memb wp N l a → WSchedOK memb wp N l b
  | [], _, _, _, _ => True.intro
  | i :: l, a, b, h, hok =>
    have hr : (b.s.th i).status = Status.run := by
      rw [Eq.symm (h.1.1 i)]
      exact hok.1.2.1
    have hn : b.cw i = none := by
      rw [Eq.symm (h.2 i)]
      exact hok.1.2.2
    ⟨⟨hok.1.1, hr, hn⟩, wschedOK_congr l (wnext_congr memb wp N i h) hok.2⟩

/-- List append by structural recursion (core's `++` goes through `reverseAux`). -/
def schedApp : List Nat → List Nat → List Nat
  | [], l2 => l2
  | i :: l1, l2 => i :: schedApp l1 l2

theorem wrun_append : ∀ (l1 l2 : List Nat) (s : WState V),
    wrun memb wp N (schedApp l1 l2) s = wrun memb wp N l2 (wrun memb wp N l1 s)
  | [], _, _ => rfl
  | i :: l1, l2, s => wrun_append l1 l2 (wnext memb wp N i s)

theorem wschedOK_append : ∀ (l1 l2 : List Nat) (s : WState V),
    WSchedOK memb wp N l1 s → WSchedOK memb wp N l2 (wrun memb wp N l1 s) →
    WSchedOK memb wp N (schedApp l1 l2) s
  | [], _, _, _, h2 => h2
  | i :: l1, l2, s, h1, h2 => ⟨h1.1, wschedOK_append l1 l2 _ h1.2 h2⟩

/-- A final state pointwise equal to another makes that one final. -/
theorem wfinal_congr {a b : WState V} (h : WSame a b) (hf : WFinal N a) : WFinal N b := by
  intro k hk
  rw [Eq.symm (h.1.1 k)]
  exact hf k hk

/-- `i` is not in `l` (structural). -/
def NotIn (i : Nat) : List Nat → Prop
  | [] => True
  | k :: l => k ≠ i ∧ NotIn i l

/-- The threads of `l` are pairwise distinct. -/
def Distinct : List Nat → Prop
  | [] => True
  | i :: l => NotIn i l ∧ Distinct l

/-- Every thread of `l` is `< N`, running and not waiting in `s`. -/
def AllRun (s : WState V) : List Nat → Prop
  | [] => True
  | i :: l => (i < N ∧ (s.s.th i).status = Status.run ∧ s.cw i = none) ∧ AllRun s l

/-- A step of a thread not in `l` keeps every thread of `l` runnable. -/
theorem allRun_next (j : Nat) : ∀ (l : List Nat) (s : WState V), NotIn j l → AllRun N s l →
    AllRun N (wnext memb wp N j s) l
  | [], _, _, _ => True.intro
  | k :: l, s, hn, ha =>
    have e := wnext_other memb wp N j s hn.1 ha.1.2.1 ha.1.2.2
    have hr : ((wnext memb wp N j s).s.th k).status = Status.run := by
      rw [e.1]
      exact ha.1.2.1
    ⟨⟨ha.1.1, hr, e.2⟩, allRun_next j l s hn.2 ha.2⟩

/-- Any list of pairwise distinct threads, each `< N`, running and not waiting, is an OK
schedule, whatever their next actions (an arrival at a collective never makes another
non-waiting thread wait). -/
theorem wschedOK_distinct : ∀ (l : List Nat) (s : WState V), Distinct l → AllRun N s l →
    WSchedOK memb wp N l s
  | [], _, _, _ => True.intro
  | i :: l, s, hd, ha =>
    ⟨ha.1, wschedOK_distinct l _ hd.2 (allRun_next memb wp N i l s hd.1 ha.2)⟩

/-- `allW` of a test true below `n`. -/
theorem allW_true (ok : Nat → Bool) : ∀ n, (∀ k, k < n → ok k = true) → allW ok n = true
  | 0, _ => rfl
  | n + 1, h => by
    show (allW ok n && ok n) = true
    rw [allW_true ok n (fun k hk => h k (Nat.leStep hk)), h n (Nat.leRefl (n + 1))]
    rfl

/-- The arrival of `i` at `g` completes the instance when every other lane below `N` waits at
`g` (the last arrival of a collective instance). -/
theorem doneW_of_waiting (g i : Nat) (cw : Nat → Option (Wait V))
    (h : ∀ k, k < N → memb g k = true → k ≠ i → waitsAt g (cw k) = true) :
    doneW memb N g i cw = true := by
  apply allW_true
  intro k hk
  show (!memb g k || decide (k = i) || waitsAt g (cw k)) = true
  cases hm : memb g k with
  | false => rfl
  | true =>
    cases Nat.decEq k i with
    | isTrue e =>
      rw [decide_eq_true' e]
      rfl
    | isFalse e =>
      rw [decide_eq_false' e, h k hk hm e]
      rfl

/-- Conversely, a lane below `N` other than `i` that does not wait at `g` keeps the arrival of
`i` from completing it (an arrival before the last waits). -/
theorem doneW_false_of (g i : Nat) (cw : Nat → Option (Wait V)) {k : Nat} (hk : k < N)
    (hm : memb g k = true) (hki : k ≠ i) (hw : waitsAt g (cw k) = false) :
    doneW memb N g i cw = false := by
  cases hd : doneW memb N g i cw with
  | false => rfl
  | true =>
    have hok := allW_get (okW memb g i cw) N hd k hk
    have e : okW memb g i cw k = false := by
      show (!memb g k || decide (k = i) || waitsAt g (cw k)) = false
      rw [hm, decide_eq_false' hki, hw]
      rfl
    rw [e] at hok
    exact Bool.noConfusion hok

/-- An arrival that does not complete (`doneW` false) changes no thread. -/
theorem collTh_wait (g i pc : Nat) (res : ExtFun V) (cv : Nat → Option (Nat → V))
    (th : Nat → TState V) (cw : Nat → Option (Wait V)) (k : Nat) :
    collTh memb false g i pc res cv th cw k = th k := by
  cases Nat.decEq k i with
  | isTrue e =>
    rw [e, collTh_self]
    rfl
  | isFalse e =>
    rw [collTh_other _ _ _ _ _ _ _ _ _ e]
    rfl

/-- The arrival of `i` at `g` that does not complete it: no thread, memory or arrival record
changes; `i` now waits at `g` (with its contribution, result and continuation); nobody else's
waiting record changes. -/
theorem wnext_arrive_wait (i : Nat) (s : WState V) {g : Nat} {v : Nat → V} {res : ExtFun V}
    {pc : Nat} (ha : wact wp i s = WAct.coll g v res pc) (hd : doneW memb N g i s.cw = false) :
    (∀ k, (wnext memb wp N i s).s.th k = s.s.th k) ∧ (wnext memb wp N i s).s.mem = s.s.mem ∧
    (wnext memb wp N i s).s.arr = s.s.arr ∧
    (wnext memb wp N i s).cw i = some ⟨g, v, res, pc⟩ ∧
    (∀ k, k ≠ i → (wnext memb wp N i s).cw k = s.cw k) := by
  rw [wnext_coll memb wp N i s ha, hd]
  refine ⟨fun k => collTh_wait memb g i pc res _ s.s.th s.cw k, rfl, rfl, ?_, ?_⟩
  · exact collCw_self memb false g i _ s.cw
  · intro k hk
    show collCw memb false g i _ s.cw k = s.cw k
    rw [collCw_other memb false g i _ s.cw hk]
    rfl

/-- The arrival of `i` at `g` that completes it: `i` goes on at `pc` with `res` of the vector
of contributions, no longer waiting; memory and arrival records unchanged; every other lane of
`g` waiting there is released to its own continuation with its own result of the same vector
and no longer waits; every other thread is unchanged. -/
theorem wnext_arrive_done (i : Nat) (s : WState V) {g : Nat} {v : Nat → V} {res : ExtFun V}
    {pc : Nat} (ha : wact wp i s = WAct.coll g v res pc) (hd : doneW memb N g i s.cw = true) :
    (wnext memb wp N i s).s.th i =
      ⟨pc, res.f (cvec memb g i v s.cw), (s.s.th i).status⟩ ∧
    (wnext memb wp N i s).cw i = none ∧
    (wnext memb wp N i s).s.mem = s.s.mem ∧ (wnext memb wp N i s).s.arr = s.s.arr ∧
    (∀ k, k ≠ i → (wnext memb wp N i s).s.th k =
      cond (relB memb true g k (s.cw k)) (relW (cvec memb g i v s.cw) (s.cw k) (s.s.th k))
        (s.s.th k)) ∧
    (∀ k, k ≠ i → (wnext memb wp N i s).cw k = cond (relB memb true g k (s.cw k)) none (s.cw k))
    := by
  rw [wnext_coll memb wp N i s ha, hd]
  refine ⟨?_, ?_, rfl, rfl, ?_, ?_⟩
  · exact collTh_self memb true g i pc res _ s.s.th s.cw
  · exact collCw_self memb true g i _ s.cw
  · intro k hk
    exact collTh_other memb true g i pc res _ s.s.th s.cw hk
  · intro k hk
    exact collCw_other memb true g i _ s.cw hk

/-- Whether `k` is in `l` (structural). -/
def inB (k : Nat) : List Nat → Bool
  | [] => false
  | j :: l => decide (k = j) || inB k l

theorem inB_notIn (k : Nat) : ∀ (l : List Nat), NotIn k l → inB k l = false
  | [], _ => rfl
  | j :: l, h => by
    show (decide (k = j) || inB k l) = false
    rw [decide_eq_false' (fun e => h.1 (Eq.symm e)), inB_notIn k l h.2]
    rfl

/-- Every thread of `l` is about to arrive at `g` (contribution `vv k`, result `rr k`,
continuation `pp k`). -/
def ArrAll (g : Nat) (vv : Nat → Nat → V) (rr : Nat → ExtFun V) (pp : Nat → Nat)
    (s : WState V) : List Nat → Prop
  | [] => True
  | k :: l => wact wp k s = WAct.coll g (vv k) (rr k) (pp k) ∧ ArrAll g vv rr pp s l

theorem arrAll_th (g : Nat) (vv : Nat → Nat → V) (rr : Nat → ExtFun V) (pp : Nat → Nat)
    {s t : WState V} (h : ∀ k, t.s.th k = s.s.th k) :
    ∀ (l : List Nat), ArrAll wp g vv rr pp s l → ArrAll wp g vv rr pp t l
  | [], _ => True.intro
  | k :: l, ha => by
    have e : wact wp k t = wact wp k s := by
      show wp k _ _ = wp k _ _
      rw [h k]
    exact ⟨Eq.trans e ha.1, arrAll_th g vv rr pp h l ha.2⟩

/-- Lanes of a collective instance `g` arriving one after another while some lane `z` of `g`
(below `N`) has not arrived: nobody is released; no thread changes, and afterwards each of the
arrived lanes waits at `g` with its own contribution, result and continuation, every other
waiting record unchanged. -/
theorem wrun_wait (g z : Nat) (vv : Nat → Nat → V) (rr : Nat → ExtFun V) (pp : Nat → Nat)
    (hz : z < N) (hmz : memb g z = true) :
    ∀ (P : List Nat) (s : WState V), Distinct P → ArrAll wp g vv rr pp s P → NotIn z P →
      s.cw z = none →
      (∀ k, (wrun memb wp N P s).s.th k = s.s.th k) ∧
      (∀ k, (wrun memb wp N P s).cw k = cond (inB k P) (some ⟨g, vv k, rr k, pp k⟩) (s.cw k))
  | [], s, _, _, _, _ => ⟨fun _ => rfl, fun _ => rfl⟩
  | i :: P, s, hd, ha, hn, hcz => by
    have hzi : z ≠ i := fun e => hn.1 (Eq.symm e)
    have hw : waitsAt g (s.cw z) = false := by
      rw [hcz]
      rfl
    have hdn := doneW_false_of memb N g i s.cw hz hmz hzi hw
    have e := wnext_arrive_wait memb wp N i s ha.1 hdn
    have ha' := arrAll_th wp g vv rr pp e.1 P ha.2
    have hcz' : (wnext memb wp N i s).cw z = none := by
      rw [e.2.2.2.2 z hzi]
      exact hcz
    have ih := wrun_wait g z vv rr pp hz hmz P (wnext memb wp N i s) hd.2 ha' hn.2 hcz'
    refine ⟨fun k => Eq.trans (ih.1 k) (e.1 k), ?_⟩
    intro k
    show (wrun memb wp N P (wnext memb wp N i s)).cw k =
      cond (decide (k = i) || inB k P) (some ⟨g, vv k, rr k, pp k⟩) (s.cw k)
    rw [ih.2 k]
    cases Nat.decEq k i with
    | isTrue eki =>
      rw [eki, inB_notIn i P hd.1, decide_eq_true' (rfl : i = i), e.2.2.2.1]
      rfl
    | isFalse eki =>
      rw [decide_eq_false' eki, e.2.2.2.2 k eki]
      rfl

/-- A collective instance `g` replayed whole: the lanes `P` arrive one after another, then the
last lane `z`; every lane of `g` below `N` other than `z` is in `P`.  Then the last arrival
completes the instance: with `cv` the vector of contributions, `z` and every lane of `P` go on
at their own continuation with their own result of `cv` and no longer wait; a thread that did
not wait and is neither `z` nor in `P` is unchanged. -/
theorem wrun_instance (g z : Nat) (vv : Nat → Nat → V) (rr : Nat → ExtFun V) (pp : Nat → Nat)
    (hz : z < N) (hmz : memb g z = true) (P : List Nat) (s : WState V) (hd : Distinct P)
    (ha : ArrAll wp g vv rr pp s P) (hn : NotIn z P) (hcz : s.cw z = none)
    (haz : wact wp z s = WAct.coll g (vv z) (rr z) (pp z))
    (hall : ∀ k, k < N → memb g k = true → k ≠ z → inB k P = true) :
    (wrun memb wp N (schedApp P [z]) s).s.th z =
        ⟨pp z, (rr z).f (cvec memb g z (vv z) (wrun memb wp N P s).cw), (s.s.th z).status⟩ ∧
    (wrun memb wp N (schedApp P [z]) s).cw z = none ∧
    (∀ k, inB k P = true → memb g k = true → k ≠ z →
      (wrun memb wp N (schedApp P [z]) s).s.th k =
        ⟨pp k, (rr k).f (cvec memb g z (vv z) (wrun memb wp N P s).cw), (s.s.th k).status⟩ ∧
      (wrun memb wp N (schedApp P [z]) s).cw k = none) ∧
    (∀ k, inB k P = false → k ≠ z → s.cw k = none →
      (wrun memb wp N (schedApp P [z]) s).s.th k = s.s.th k ∧
      (wrun memb wp N (schedApp P [z]) s).cw k = none) := by
  have hw := wrun_wait memb wp N g z vv rr pp hz hmz P s hd ha hn hcz
  rw [wrun_append]
  show (wnext memb wp N z (wrun memb wp N P s)).s.th z = _ ∧ _
  have haz' : wact wp z (wrun memb wp N P s) = WAct.coll g (vv z) (rr z) (pp z) := by
    have e : wact wp z (wrun memb wp N P s) = wact wp z s := by
      show wp z _ _ = wp z _ _
      rw [hw.1 z]
    exact Eq.trans e haz
  have hcwP : ∀ k, inB k P = true → (wrun memb wp N P s).cw k = some ⟨g, vv k, rr k, pp k⟩ := by
    intro k hk
    rw [hw.2 k, hk]
    rfl
  have hdone : doneW memb N g z (wrun memb wp N P s).cw = true := by
    apply doneW_of_waiting
    intro k hk hm hkz
    rw [hcwP k (hall k hk hm hkz)]
    show decide (g = g) = true
    exact decide_eq_true' rfl
  have e := wnext_arrive_done memb wp N z (wrun memb wp N P s) haz' hdone
  refine ⟨?_, e.2.1, ?_, ?_⟩
  · rw [e.1, hw.1 z]
  · intro k hk hm hkz
    have hwk : waitsAt g ((wrun memb wp N P s).cw k) = true := by
      rw [hcwP k hk]
      exact decide_eq_true' rfl
    have hrel : relB memb true g k ((wrun memb wp N P s).cw k) = true := by
      show (true && memb g k && waitsAt g ((wrun memb wp N P s).cw k)) = true
      rw [hm, hwk]
      rfl
    refine ⟨?_, ?_⟩
    · show (wnext memb wp N z (wrun memb wp N P s)).s.th k = _
      rw [e.2.2.2.2.1 k hkz, hrel, hcwP k hk, hw.1 k]
      rfl
    · show (wnext memb wp N z (wrun memb wp N P s)).cw k = _
      rw [e.2.2.2.2.2 k hkz, hrel]
      rfl
  · intro k hk hkz hn0
    have hcw0 : (wrun memb wp N P s).cw k = none := by
      rw [hw.2 k, hk]
      exact hn0
    have hrel : relB memb true g k ((wrun memb wp N P s).cw k) = false := by
      rw [hcw0]
      show (true && memb g k && false) = false
      exact and_false' _
    refine ⟨?_, ?_⟩
    · show (wnext memb wp N z (wrun memb wp N P s)).s.th k = _
      rw [e.2.2.2.2.1 k hkz, hrel]
      exact hw.1 k
    · show (wnext memb wp N z (wrun memb wp N P s)).cw k = _
      rw [e.2.2.2.2.2 k hkz, hrel]
      exact hcw0

/-- The replay of a whole instance is an OK schedule: the lanes of `P` and `z` are runnable and
not waiting at the start. -/
theorem wschedOK_instance (g z : Nat) (vv : Nat → Nat → V) (rr : Nat → ExtFun V)
    (pp : Nat → Nat) (hz : z < N) (hmz : memb g z = true) (P : List Nat) (s : WState V)
    (hd : Distinct P) (ha : ArrAll wp g vv rr pp s P) (hn : NotIn z P)
    (hrun : AllRun N s (z :: P)) : WSchedOK memb wp N (schedApp P [z]) s := by
  have hw := wrun_wait memb wp N g z vv rr pp hz hmz P s hd ha hn hrun.1.2.2
  apply wschedOK_append memb wp N P [z] s (wschedOK_distinct memb wp N P s hd hrun.2)
  have h1 : ((wrun memb wp N P s).s.th z).status = Status.run := by
    rw [hw.1 z]
    exact hrun.1.2.1
  have h2 : (wrun memb wp N P s).cw z = none := by
    rw [hw.2 z, inB_notIn z P hn]
    exact hrun.1.2.2
  exact ⟨⟨hz, h1, h2⟩, True.intro⟩

theorem allRun_of (t : WState V) : ∀ (Q : List Nat),
    (∀ k, inB k Q = true → k < N ∧ (t.s.th k).status = Status.run ∧ t.cw k = none) →
    AllRun N t Q
  | [], _ => True.intro
  | k :: Q, h =>
    ⟨h k (by
        show (decide (k = k) || inB k Q) = true
        rw [decide_eq_true' (rfl : k = k)]
        rfl),
     allRun_of t Q (fun j hj => h j (by
        show (decide (j = k) || inB j Q) = true
        rw [hj]
        exact or_true' _))⟩

theorem allRun_get (t : WState V) : ∀ (Q : List Nat), AllRun N t Q → ∀ k, inB k Q = true →
    k < N ∧ (t.s.th k).status = Status.run ∧ t.cw k = none
  | [], _, _, hk => Bool.noConfusion hk
  | j :: Q, h, k, hk => by
    cases Nat.decEq k j with
    | isTrue e => rw [e]; exact h.1
    | isFalse e =>
      have hk' : inB k Q = true := by
        have hk2 : (decide (k = j) || inB k Q) = true := hk
        rw [decide_eq_false' e] at hk2
        exact hk2
      exact allRun_get t Q h.2 k hk'

theorem ne_of_notIn (z : Nat) : ∀ (Q : List Nat), NotIn z Q → ∀ k, inB k Q = true → k ≠ z
  | [], _, _, hk => Bool.noConfusion hk
  | j :: Q, h, k, hk => by
    cases Nat.decEq k j with
    | isTrue e => rw [e]; exact h.1
    | isFalse e =>
      have hk' : inB k Q = true := by
        have hk2 : (decide (k = j) || inB k Q) = true := hk
        rw [decide_eq_false' e] at hk2
        exact hk2
      exact ne_of_notIn z Q h.2 k hk'

/-- After a whole instance, its lanes are again runnable and not waiting (so replays of
instances and distinct threads chain). -/
theorem allRun_instance (g z : Nat) (vv : Nat → Nat → V) (rr : Nat → ExtFun V)
    (pp : Nat → Nat) (hz : z < N) (hmz : memb g z = true) (P : List Nat) (s : WState V)
    (hd : Distinct P) (ha : ArrAll wp g vv rr pp s P) (hn : NotIn z P)
    (hrun : AllRun N s (z :: P)) (haz : wact wp z s = WAct.coll g (vv z) (rr z) (pp z))
    (hall : ∀ k, k < N → memb g k = true → k ≠ z → inB k P = true)
    (hmem : ∀ k, inB k P = true → memb g k = true) :
    AllRun N (wrun memb wp N (schedApp P [z]) s) (z :: P) := by
  have h := wrun_instance memb wp N g z vv rr pp hz hmz P s hd ha hn hrun.1.2.2 haz hall
  have hzs : ((wrun memb wp N (schedApp P [z]) s).s.th z).status = Status.run := by
    rw [h.1]
    exact hrun.1.2.1
  refine ⟨⟨hz, hzs, h.2.1⟩, ?_⟩
  apply allRun_of
  intro k hk
  have hkz := ne_of_notIn z P hn k hk
  have hg := allRun_get N s P hrun.2 k hk
  have hi := h.2.2.1 k hk (hmem k hk) hkz
  have hks : ((wrun memb wp N (schedApp P [z]) s).s.th k).status = Status.run := by
    rw [hi.1]
    exact hg.2.1
  exact ⟨hg.1, hks, hi.2⟩

/-- A thread-local `Sem` action: no barrier, no exit. -/
def LocalA : Act V → Bool
  | Act.compute _ _ => true
  | Act.read _ _ _ => true
  | Act.write _ _ _ => true
  | Act.atomAdd _ _ _ => true
  | Act.arrive _ _ _ _ => false
  | Act.exit => false

theorem newT_local (A : Act V) (f : Bool) (t : TState V) (m : Nat → V) (h : LocalA A = true) :
    (newT A f t m).status = Status.run := by
  cases A with
  | compute _ _ => rfl
  | read _ _ _ => rfl
  | write _ _ _ => rfl
  | atomAdd _ _ _ => rfl
  | arrive _ _ _ _ => exact Bool.noConfusion h
  | exit => exact Bool.noConfusion h

/-- A thread doing a thread-local base action stays running and does not wait, so it can step
again (solo segments of the replay). -/
theorem wnext_local (i : Nat) (s : WState V) {A : Act V} (ha : wact wp i s = WAct.base A)
    (hl : LocalA A = true) (hn : s.cw i = none) :
    ((wnext memb wp N i s).s.th i).status = Status.run ∧ (wnext memb wp N i s).cw i = none := by
  rw [wnext_base memb wp N i s ha]
  refine ⟨?_, hn⟩
  show ((next (baseProg wp) N i s.s).th i).status = Status.run
  rw [next_th_self, act_baseProg wp i s ha]
  exact newT_local A _ _ _ hl

/-- `n` turns of thread `i`. -/
def rep (i : Nat) : Nat → List Nat
  | 0 => []
  | n + 1 => i :: rep i n

/-- Thread `i`'s next `n` actions, done in turn, are thread-local base actions. -/
def SoloLocal (i : Nat) : Nat → WState V → Prop
  | 0, _ => True
  | n + 1, s => (∃ A, wact wp i s = WAct.base A ∧ LocalA A = true) ∧
      SoloLocal i n (wnext memb wp N i s)

/-- A solo segment: thread `i`, `< N`, running and not waiting, doing `n` thread-local base
actions in turn, is an OK schedule. -/
theorem wschedOK_solo (i : Nat) (hi : i < N) : ∀ (n : Nat) (s : WState V),
    (s.s.th i).status = Status.run → s.cw i = none → SoloLocal memb wp N i n s →
    WSchedOK memb wp N (rep i n) s
  | 0, _, _, _, _ => True.intro
  | n + 1, s, hr, hn, hsl =>
    match hsl.1 with
    | ⟨A, ha, hl⟩ =>
      have e := wnext_local memb wp N i s ha hl hn
      ⟨⟨hi, hr, hn⟩, wschedOK_solo i hi n _ e.1 e.2 hsl.2⟩

end Replay

/-- If from every launch memory some OK schedule ends with every thread exited, the CTA
finishes. -/
theorem wfinishes_of_sched {V : Type} [AccAdd V] (c : WCta V)
    (h : ∀ m1 : Nat → V, ∃ l : List Nat, WSchedOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
      WFinal c.N (wrun c.memb c.prog c.N l (winit c.regs0 m1))) : WFinishes c := by
  intro m1
  match h m1 with
  | ⟨l, hok, hf⟩ => exact ⟨_, wreach_wrun c.memb c.prog c.N l _ hok, hf⟩

/-- `CtaSafeW` and finishing schedules give the unconditional `CtaSafeW'`. -/
theorem ctaSafeW'_of_sched {V : Type} [AccAdd V] (c : WCta V) (hs : CtaSafeW c)
    (h : ∀ m1 : Nat → V, ∃ l : List Nat, WSchedOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
      WFinal c.N (wrun c.memb c.prog c.N l (winit c.regs0 m1))) : CtaSafeW' c :=
  ctaSafeW'_of_fin c hs (wfinishes_of_sched c h)

section Example

open Examples
open Ex

theorem exSched_ok1 (m1 : Nat → Nat) :
    WSchedOK memb2 progS 2 [0, 0, 1, 1] (winit regs0 m1) :=
  ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩,
    ⟨⟨by decide, rfl, rfl⟩, True.intro⟩⟩⟩⟩

theorem exSched_ok2 (m1 : Nat → Nat) : WSchedOK memb2 progS 2 [0, 0, 1, 1] (exM m1) :=
  ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩,
    ⟨⟨by decide, rfl, rfl⟩, True.intro⟩⟩⟩⟩

theorem exSched_final (m1 : Nat → Nat) :
    WFinal 2 (wrun memb2 progS 2 [0, 0, 1, 1] (wrun memb2 progS 2 [0, 0, 1, 1] (winit regs0 m1))) :=
  have e : WSame (wrun memb2 progS 2 [0, 0, 1, 1] (exM m1))
      (wrun memb2 progS 2 [0, 0, 1, 1] (exS4 m1)) :=
    wrun_congr memb2 progS 2 [0, 0, 1, 1] (wsame_symm (exM_same m1))
  have hf : WFinal 2 (wrun memb2 progS 2 [0, 0, 1, 1] (exM m1)) := exT_final m1
  wfinal_congr 2 e hf

/-- The example finishes through `wfinishes_of_sched`, by the schedule `[0, 0, 1, 1, 0, 0, 1, 1]`
(the second half checked from the equal state `exM`). -/
theorem exSched_finishes : WFinishes exWCta :=
  wfinishes_of_sched exWCta (fun m1 =>
    ⟨schedApp [0, 0, 1, 1] [0, 0, 1, 1],
     wschedOK_append memb2 progS 2 [0, 0, 1, 1] [0, 0, 1, 1] (winit regs0 m1) (exSched_ok1 m1)
       (wschedOK_congr memb2 progS 2 [0, 0, 1, 1] (wsame_symm (exM_same m1)) (exSched_ok2 m1)),
     by
       rw [wrun_append]
       exact exSched_final m1⟩)

/-- The state after lane 0's store and lane 1's computation: both lanes at the
`bar.warp.sync`. -/
def exPre (m1 : Nat → Nat) : WState Nat :=
  wnext memb2 progS 2 1 (wnext memb2 progS 2 0 (winit regs0 m1))

theorem exPre_hall (k : Nat) (hk : k < 2) (_ : memb2 0 k = true) (hkz : k ≠ 1) :
    inB k [0] = true := by
  cases k with
  | zero => rfl
  | succ k =>
    cases k with
    | zero => exact False.elim (hkz rfl)
    | succ k => exact False.elim (Nat.notSuccLeZero k (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hk)))

/-- `wrun_instance` on the example (lane 0 arrives, then lane 1 completes): both lanes go on at
`pc` 2 and no longer wait, from every launch memory; the replay is an OK schedule. -/
theorem exInst (m1 : Nat → Nat) :
    ((wrun memb2 progS 2 (schedApp [0] [1]) (exPre m1)).s.th 1).pc = 2 ∧
    (wrun memb2 progS 2 (schedApp [0] [1]) (exPre m1)).cw 1 = none ∧
    ((wrun memb2 progS 2 (schedApp [0] [1]) (exPre m1)).s.th 0).pc = 2 ∧
    (wrun memb2 progS 2 (schedApp [0] [1]) (exPre m1)).cw 0 = none ∧
    WSchedOK memb2 progS 2 (schedApp [0] [1]) (exPre m1) := by
  have h := wrun_instance memb2 progS 2 0 1 (fun _ _ => 0) (fun _ => syncRes (fun _ => 0))
    (fun _ => 2) (by decide) rfl [0] (exPre m1) ⟨True.intro, True.intro⟩ ⟨rfl, True.intro⟩
    ⟨by decide, True.intro⟩ rfl rfl exPre_hall
  have h0 := h.2.2.1 0 rfl rfl (by decide)
  refine ⟨?_, h.2.1, ?_, h0.2, ?_⟩
  · rw [h.1]
  · rw [h0.1]
  · exact wschedOK_instance memb2 progS 2 0 1 (fun _ _ => 0) (fun _ => syncRes (fun _ => 0))
      (fun _ => 2) (by decide) rfl [0] (exPre m1) ⟨True.intro, True.intro⟩ ⟨rfl, True.intro⟩
      ⟨by decide, True.intro⟩ ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩, True.intro⟩⟩

end Example

end Kcert
