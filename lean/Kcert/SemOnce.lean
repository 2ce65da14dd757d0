import Kcert.SoloEv
import Kcert.Bounds

/-!
# Named barriers, `Sem` side: every schedule is a valid history of the solo sequences

The link between `Semantics.lean`'s interleavings (`Sem.StepT`, any barrier ids, counts, and
`bar.arrive`) and `OnceCheck.lean`'s valid histories of fixed per-thread sequences, the
sequences being the solo traces' barrier views `SoloEv.soloEv` (namespace `Kcert.Members`).

* `Sched prog N s0 h s`: `s` is reached from `s0` by steps of the threads `h` (latest first);
  `sched_of_reach`, `reach_of_sched`: the same as `Sem.Reach`.
* Hypotheses: `Sem.DataIndep prog R` with `R i 0 (regs0 i) (regs0 i)`; `CountsAt` (every solo
  arrival at `b` has count `m b > 0`); for the race and barrier theorems also `Memb`, `Sized`,
  `Check3` of `soloEv` (what the Rust's barrier checks give, derived elsewhere).
* `valid_of_reach` (invariant `HInv`, `hinv_sched`): every reachable state from the launch has a
  schedule `h` that is `Valid`; `Sem.arrivals` at each id is the number of pending arrivals of
  `OnceCheck` (`pendAt`: both complete an instance eagerly at its count); thread `t < N` has
  done `cnt t h` actions and is `TRel`-related to its solo state `cnt t h`; waiting at `b` is
  having a still pending waiting arrival at `b` as last action (`ThOk`); a running `t` has
  `t :: h` valid.
* `race_unordered`: conflicting next actions of two running threads are conflicting solo actions
  `(x, cnt x h)`, `(y, cnt y h)` that `HB` does not order either way; `raceFree_of_ordered`: if
  `HB` orders every two conflicting solo actions (`Ordered`), `Sem.RaceFree`;
  `raceFree_of_orderedTo`: enough for the actions before each thread's exit (`OrderedTo`).
* `barriersFit_of_once`: `Sem.BarriersFit` (`two_places`: two running threads about to arrive
  at one id leave two free places, from `Once` and `pend`); `confluence_of_once`.
* Not vacuous (`SemOnceEx`): a producer and a consumer with `bar.arrive`/`bar.sync` at ids 1
  and 2, two stores and two loads of one address, meet every hypothesis (`ex_check3` is
  consulted at the producer's second `bar.arrive 1`); `ex_raceFree`, `ex_fit`, `ex_confluence`.
-/

namespace Kcert
namespace Members

/-! ## Lists -/

theorem left_sn (m t : Nat) : ∀ (w : List Nat) (c : Nat → Nat) (p : List Arr),
    ∃ x, left m c p (sn w t) =
      (if len ((t, x) :: left m c p w) = m then [] else (t, x) :: left m c p w)
  | [], c, p => by
    refine ⟨c t, ?_⟩
    show (if len ((t, c t) :: p) = m then left m (upd c t) [] []
      else left m (upd c t) ((t, c t) :: p) []) =
      (if len ((t, c t) :: p) = m then [] else (t, c t) :: p)
    cases Nat.decEq (len ((t, c t) :: p)) m with
    | isTrue e => rw [if_pos' e]; rw [if_pos' e]; rfl
    | isFalse e => rw [if_neg' e]; rw [if_neg' e]; rfl
  | v :: w, c, p => by
    show ∃ x, (if len ((v, c v) :: p) = m then left m (upd c v) [] (sn w t)
      else left m (upd c v) ((v, c v) :: p) (sn w t)) =
      (if len ((t, x) :: (if len ((v, c v) :: p) = m then left m (upd c v) [] w
        else left m (upd c v) ((v, c v) :: p) w)) = m then []
       else (t, x) :: (if len ((v, c v) :: p) = m then left m (upd c v) [] w
        else left m (upd c v) ((v, c v) :: p) w))
    cases Nat.decEq (len ((v, c v) :: p)) m with
    | isTrue e =>
      rw [if_pos' e, if_pos' e]
      exact left_sn m t w (upd c v) []
    | isFalse e =>
      rw [if_neg' e, if_neg' e]
      exact left_sn m t w (upd c v) ((v, c v) :: p)

theorem len_left_lt {m : Nat} (h0 : 0 < m) : ∀ (w : List Nat) (c : Nat → Nat) (p : List Arr),
    len p < m → len (left m c p w) < m
  | [], c, p, hp => hp
  | v :: w, c, p, hp => by
    show len (if len ((v, c v) :: p) = m then left m (upd c v) [] w
      else left m (upd c v) ((v, c v) :: p) w) < m
    cases Nat.decEq (len ((v, c v) :: p)) m with
    | isTrue e =>
      rw [if_pos' e]
      exact len_left_lt h0 w (upd c v) [] h0
    | isFalse e =>
      rw [if_neg' e]
      exact len_left_lt h0 w (upd c v) ((v, c v) :: p) (Nat.ltOfLeOfNe hp e)

theorem not_pending_nil (t : Nat) : ¬ Pending t [] := fun h => match h with | ⟨_, ha, _⟩ => ha

theorem pending_cons {t : Nat} (a : Arr) {p : List Arr} (h : Pending t p) : Pending t (a :: p) :=
  match h with
  | ⟨b, hb, e⟩ => ⟨b, Or.inr hb, e⟩

theorem pending_cons_ne {t u x : Nat} {p : List Arr} (h : Pending t ((u, x) :: p))
    (hne : ¬ u = t) : Pending t p :=
  match h with
  | ⟨b, hb, e⟩ => by
    cases hb with
    | inl e' => rw [← e'] at e; exact False.elim (hne e)
    | inr hb' => exact ⟨b, hb', e⟩

theorem pending_self (u x : Nat) (p : List Arr) : Pending u ((u, x) :: p) :=
  ⟨(u, x), Or.inl rfl, rfl⟩

theorem cnt_cons_self (u : Nat) (h : List Nat) : cnt u (u :: h) = cnt u h + 1 := by
  show (if u = u then cnt u h + 1 else cnt u h) = cnt u h + 1
  rw [if_pos' rfl]

theorem cnt_cons_ne {u t : Nat} (h : List Nat) (hne : ¬ u = t) : cnt t (u :: h) = cnt t h := by
  show (if u = t then cnt t h + 1 else cnt t h) = cnt t h
  rw [if_neg' hne]

theorem arrs_loc (act : Nat → Nat → Ev) (b u : Nat) (h : List Nat)
    (e : act u (cnt u h) = Ev.loc) : arrs act b (u :: h) = arrs act b h := by
  show cond (arrAt b (act u (cnt u h))) (sn (arrs act b h) u) (arrs act b h) = arrs act b h
  rw [e]
  rfl

theorem arrs_other (act : Nat → Nat → Ev) {b c u : Nat} {w : Bool} (h : List Nat)
    (e : act u (cnt u h) = Ev.arr c w) (hcb : ¬ c = b) : arrs act b (u :: h) = arrs act b h := by
  show cond (arrAt b (act u (cnt u h))) (sn (arrs act b h) u) (arrs act b h) = arrs act b h
  rw [e]
  show cond (decide (c = b)) (sn (arrs act b h) u) (arrs act b h) = arrs act b h
  rw [decide_eq_false' hcb]
  rfl

theorem arrs_same (act : Nat → Nat → Ev) {b u : Nat} {w : Bool} (h : List Nat)
    (e : act u (cnt u h) = Ev.arr b w) : arrs act b (u :: h) = sn (arrs act b h) u := by
  show cond (arrAt b (act u (cnt u h))) (sn (arrs act b h) u) (arrs act b h) = _
  rw [e, arrAt_arr]
  rfl

/-- A thread that arrives at the end of a `Once` schedule had nothing pending before. -/
theorem once_sn_np {m t : Nat} : ∀ (w : List Nat) (c : Nat → Nat) (p : List Arr),
    OnceG m c p (sn w t) → ¬ Pending t (left m c p w)
  | [], c, p, h => h.1
  | v :: w, c, p, h => by
    have h' : ¬ Pending v p ∧
        (if len ((v, c v) :: p) = m then OnceG m (upd c v) [] (sn w t)
         else OnceG m (upd c v) ((v, c v) :: p) (sn w t)) := h
    show ¬ Pending t (if len ((v, c v) :: p) = m then left m (upd c v) [] w
      else left m (upd c v) ((v, c v) :: p) w)
    have h2 := h'.2
    cases Nat.decEq (len ((v, c v) :: p)) m with
    | isTrue e =>
      rw [if_pos' e] at h2
      rw [if_pos' e]
      exact once_sn_np w (upd c v) [] h2
    | isFalse e =>
      rw [if_neg' e] at h2
      rw [if_neg' e]
      exact once_sn_np w (upd c v) ((v, c v) :: p) h2


/-! ## Schedules of `Sem` and the invariant -/

section Sched

variable {V : Type} [Sem.AccAdd V]

/-- A schedule of `Sem` from `s0`: the thread ids of the steps, latest first, and the state
reached. -/
inductive Sched (prog : Sem.Prog V) (N : Nat) (s0 : Sem.CState V) :
    List Nat → Sem.CState V → Prop where
  | nil : Sched prog N s0 [] s0
  | cons {h : List Nat} {s s' : Sem.CState V} (t : Nat) :
      Sched prog N s0 h s → Sem.StepT prog N t s s' → Sched prog N s0 (t :: h) s'

theorem sched_of_reach_gen (prog : Sem.Prog V) (N : Nat) (s0 : Sem.CState V) {s u : Sem.CState V}
    (hr : Sem.Reach prog N s u) : ∀ h, Sched prog N s0 h s → ∃ h', Sched prog N s0 h' u := by
  induction hr with
  | refl s => intro h hs; exact ⟨h, hs⟩
  | step hst _ ih =>
    intro h hs
    match hst with
    | ⟨t, ht⟩ => exact ih (t :: h) (Sched.cons t hs ht)

/-- **Every reachable state comes with a schedule.** -/
theorem sched_of_reach (prog : Sem.Prog V) (N : Nat) {s0 s : Sem.CState V}
    (hr : Sem.Reach prog N s0 s) : ∃ h, Sched prog N s0 h s :=
  sched_of_reach_gen prog N s0 hr [] Sched.nil

/-- And every schedule reaches its state. -/
theorem reach_of_sched (prog : Sem.Prog V) (N : Nat) {s0 : Sem.CState V} {h : List Nat}
    {s : Sem.CState V} (hs : Sched prog N s0 h s) : Sem.Reach prog N s0 s := by
  induction hs with
  | nil => exact Sem.Reach.refl s0
  | cons t _ hst ih => exact Sem.reach_snoc prog N ih ⟨t, hst⟩

/-- Every solo arrival at `b` has count `m b`, and `0 < m b`. -/
def CountsAt (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (m : Nat → Nat) : Prop :=
  ∀ t i b n w pc, Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = m b ∧ 0 < m b

end Sched

/-- The arrivals pending at `b` after the history `h`. -/
def pendAt (act : Nat → Nat → Ev) (m : Nat → Nat) (b : Nat) (h : List Nat) : List Arr :=
  left (m b) (fun _ => 0) [] (arrs act b h)

/-- What a thread's status says about its arrivals: waiting at `b` exactly when its last action
was a waiting arrival at `b` still pending; running, with nothing pending of its last action if
that was a waiting arrival. -/
def ThOk (act : Nat → Nat → Ev) (m : Nat → Nat) (h : List Nat) (t : Nat) (st : Sem.Status) :
    Prop :=
  (∀ b, st = Sem.Status.bar b →
    ∃ j, cnt t h = j + 1 ∧ act t j = Ev.arr b true ∧ Pending t (pendAt act m b h)) ∧
  (st = Sem.Status.run → ∀ j b, cnt t h = j + 1 → act t j = Ev.arr b true →
    ¬ Pending t (pendAt act m b h))

section Inv

variable {V : Type} [Sem.AccAdd V]

/-- The invariant of a schedule `h` reaching `s`: `h` is a valid history of the solo sequences;
at every barrier the arrivals of `Sem` are the pending ones of `OnceCheck`; every thread
`t < N` has done `cnt t h` actions, its state is related to its solo state number `cnt t h`,
and its status is as `ThOk` says. -/
def HInv (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat) (h : List Nat)
    (s : Sem.CState V) : Prop :=
  Valid (soloEv prog regs0 m0) m h ∧
  (∀ b, Sem.arrivals N b s = len (pendAt (soloEv prog regs0 m0) m b h)) ∧
  ∀ t, t < N → Sem.TRel R t (s.th t) (Sem.solo prog regs0 m0 t (cnt t h)) ∧
    ThOk (soloEv prog regs0 m0) m h t (s.th t).status

theorem effOther_na (A : Sem.Act V) (f : Bool) (t : Sem.TState V)
    (hna : ∀ b n w pc, A = Sem.Act.arrive b n w pc → False) : Sem.effOther A f t = t := by
  cases A with
  | arrive b n w pc => exact False.elim (hna b n w pc rfl)
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl

theorem newT_na (A : Sem.Act V) (f : Bool) (t : Sem.TState V) (mem : Nat → V)
    (hna : ∀ b n w pc, A = Sem.Act.arrive b n w pc → False) (b : Nat)
    (e : (Sem.newT A f t mem).status = Sem.Status.bar b) : False := by
  cases A with
  | arrive b' n w pc => exact hna b' n w pc rfl
  | compute pc r => cases e
  | read a r pc => cases e
  | write a v pc => cases e
  | atomAdd a v pc => cases e
  | exit => cases e

theorem evOf_na (A : Sem.Act V) (hna : ∀ b n w pc, A = Sem.Act.arrive b n w pc → False) :
    evOf A = Ev.loc := by
  cases A with
  | arrive b n w pc => exact False.elim (hna b n w pc rfl)
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl

theorem na_of_rel {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A A' : Sem.Act V}
    (hrel : Sem.ActRel R r r' A A') (hna : ∀ b n w pc, A = Sem.Act.arrive b n w pc → False) :
    ∀ b n w pc, A' = Sem.Act.arrive b n w pc → False := by
  intro b n w pc e
  rw [e] at hrel
  cases A with
  | arrive b' n' w' pc' => exact hna b' n' w' pc' rfl
  | compute pc r => exact hrel
  | read a r pc => exact hrel
  | write a v pc => exact hrel
  | atomAdd a v pc => exact hrel
  | exit => exact hrel

theorem waiting_relAt_self (b : Nat) (t : Sem.TState V) :
    Sem.waiting b (Sem.relAt b t).status = false := by
  show Sem.waiting b (cond (Sem.waiting b t.status) { t with status := Sem.Status.run } t).status
    = false
  cases hw : Sem.waiting b t.status with
  | true => rfl
  | false => exact hw

theorem relAt_cases (b : Nat) (t : Sem.TState V) :
    (Sem.relAt b t = t ∧ Sem.waiting b t.status = false) ∨
      (t.status = Sem.Status.bar b ∧ (Sem.relAt b t).status = Sem.Status.run) := by
  cases hw : Sem.waiting b t.status with
  | false =>
    refine Or.inl ⟨?_, rfl⟩
    show cond (Sem.waiting b t.status) { t with status := Sem.Status.run } t = t
    rw [hw]
    rfl
  | true =>
    refine Or.inr ⟨Sem.status_of_waiting hw, ?_⟩
    show (cond (Sem.waiting b t.status) { t with status := Sem.Status.run } t).status = _
    rw [hw]
    rfl

theorem countAt_zero (b : Nat) (th : Nat → Sem.TState V) :
    ∀ N, (∀ k, k < N → Sem.waiting b (th k).status = false) → Sem.countAt b th N = 0 := by
  intro N
  induction N with
  | zero => intro _; rfl
  | succ N ih =>
    intro h
    show Sem.countAt b th N + cond (Sem.waiting b (th N).status) 1 0 = 0
    rw [ih (fun k hk => h k (Nat.leStep hk)), h N (Nat.leRefl (N + 1))]
    rfl

theorem arrivals_same (N b : Nat) {s s' : Sem.CState V} (hs : Sem.Same s s') :
    Sem.arrivals N b s = Sem.arrivals N b s' := by
  show Sem.countAt b s.th N + s.arr b = Sem.countAt b s'.th N + s'.arr b
  rw [Sem.countAt_congr b s.th s'.th (fun k => by rw [hs.1 k]) N, hs.2.2 b]

theorem thOk_step {act : Nat → Nat → Ev} {m : Nat → Nat} {h h' : List Nat} {t b : Nat}
    {st : Sem.Status} (hT : ThOk act m h t st) (hc : cnt t h' = cnt t h)
    (hother : ∀ c, ¬ c = b → pendAt act m c h' = pendAt act m c h)
    (hbar : st = Sem.Status.bar b → Pending t (pendAt act m b h) → Pending t (pendAt act m b h'))
    (hrun : st = Sem.Status.run → ¬ Pending t (pendAt act m b h) →
      ¬ Pending t (pendAt act m b h')) :
    ThOk act m h' t st := by
  refine ⟨?_, ?_⟩
  · intro c hst
    match hT.1 c hst with
    | ⟨j, hj, ha, hp⟩ =>
      refine ⟨j, by rw [hc]; exact hj, ha, ?_⟩
      cases Nat.decEq c b with
      | isTrue e => rw [e]; rw [e] at hp; rw [e] at hst; exact hbar hst hp
      | isFalse e => rw [hother c e]; exact hp
  · intro hst j c hj ha
    rw [hc] at hj
    have hnp := hT.2 hst j c hj ha
    cases Nat.decEq c b with
    | isTrue e => rw [e]; rw [e] at hnp; exact hrun hst hnp
    | isFalse e => rw [hother c e]; exact hnp

end Inv


/-! ## One step keeps the invariant -/

section Step

variable {V : Type} [Sem.AccAdd V]

theorem hinv_common (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) {h : List Nat} {s : Sem.CState V} {u : Nat} (hu : u < N)
    (hr : (s.th u).status = Sem.Status.run) (H : HInv prog N regs0 m0 R m h s) :
    Valid (soloEv prog regs0 m0) m (u :: h) ∧
    Sem.ActRel (R u) (s.th u).regs (Sem.solo prog regs0 m0 u (cnt u h)).regs
      (Sem.act prog u s) (Sem.soloAct prog regs0 m0 u (cnt u h)) ∧
    ∀ t, t < N → Sem.TRel R t ((Sem.next prog N u s).th t)
      (Sem.solo prog regs0 m0 t (cnt t (u :: h))) := by
  have hT : Sem.TRel R u (s.th u) (Sem.solo prog regs0 m0 u (cnt u h)) := (H.2.2 u hu).1
  have hrel : Sem.ActRel (R u) (s.th u).regs (Sem.solo prog regs0 m0 u (cnt u h)).regs
      (Sem.act prog u s) (Sem.soloAct prog regs0 m0 u (cnt u h)) :=
    Sem.actRel_of_trel prog hind hT
  refine ⟨⟨H.1, (H.2.2 u hu).2.2 hr⟩, hrel, ?_⟩
  intro t ht
  cases Nat.decEq u t with
  | isTrue e =>
    rw [← e, cnt_cons_self, Sem.next_th_self]
    exact Sem.trel_newT _ false s.mem m0 hrel hT
  | isFalse e =>
    rw [cnt_cons_ne h e, Sem.next_th_other prog N u s (fun e' => e (Eq.symm e'))]
    exact Sem.trel_effOther _ _ (H.2.2 t ht).1

theorem hinv_next_na (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) {h : List Nat} {s : Sem.CState V} {u : Nat} (hu : u < N)
    (hr : (s.th u).status = Sem.Status.run) (H : HInv prog N regs0 m0 R m h s)
    (hna : ∀ b n w pc, Sem.act prog u s = Sem.Act.arrive b n w pc → False) :
    HInv prog N regs0 m0 R m (u :: h) (Sem.next prog N u s) := by
  match hinv_common prog N regs0 m0 R m hind hu hr H with
  | ⟨hvalid, hrel, htrel⟩ =>
    have hev : soloEv prog regs0 m0 u (cnt u h) = Ev.loc := evOf_na _ (na_of_rel hrel hna)
    have hpend : ∀ c, pendAt (soloEv prog regs0 m0) m c (u :: h) =
        pendAt (soloEv prog regs0 m0) m c h := by
      intro c
      show left (m c) (fun _ => 0) [] (arrs (soloEv prog regs0 m0) c (u :: h)) =
        left (m c) (fun _ => 0) [] (arrs (soloEv prog regs0 m0) c h)
      rw [arrs_loc _ c u h hev]
    refine ⟨hvalid, ?_, ?_⟩
    · intro b
      rw [hpend b, ← H.2.1 b]
      have hsb : ¬ Sem.SameBar (Sem.act prog u s) (Sem.Act.arrive b 0 false 0 : Sem.Act V) :=
        Sem.not_sameBar_na _ _ hna
      show Sem.countAt b (Sem.next prog N u s).th N + (Sem.next prog N u s).arr b =
        Sem.countAt b s.th N + s.arr b
      rw [Sem.countAt_next prog N u s hsb hr, Sem.next_arr, Sem.arrEff_other _ _ _ hsb]
    · intro t ht
      refine ⟨htrel t ht, ?_⟩
      cases Nat.decEq u t with
      | isTrue e =>
        rw [← e, Sem.next_th_self]
        refine ⟨fun b hb => False.elim (newT_na _ _ _ _ hna b hb), ?_⟩
        intro _ j b hj ha
        rw [cnt_cons_self] at hj
        have ej : cnt u h = j := Nat.succ.inj hj
        rw [← ej, hev] at ha
        exact Ev.noConfusion ha
      | isFalse e =>
        rw [Sem.next_th_other prog N u s (fun e' => e (Eq.symm e')), effOther_na _ _ _ hna]
        exact thOk_step (b := 0) (H.2.2 t ht).2 (cnt_cons_ne h e) (fun c _ => hpend c)
          (fun _ hp => by rw [hpend 0]; exact hp) (fun _ hp => by rw [hpend 0]; exact hp)


theorem hinv_next_arr (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hC : CountsAt prog regs0 m0 m) {h : List Nat}
    {s : Sem.CState V} {u : Nat} (hu : u < N)
    (hr : (s.th u).status = Sem.Status.run) (H : HInv prog N regs0 m0 R m h s)
    {b n : Nat} {w : Bool} {pc : Nat} (hA : Sem.act prog u s = Sem.Act.arrive b n w pc) :
    HInv prog N regs0 m0 R m (u :: h) (Sem.next prog N u s) := by
  match hinv_common prog N regs0 m0 R m hind hu hr H with
  | ⟨hvalid, hrel, htrel⟩ =>
    have hA0 : Sem.soloAct prog regs0 m0 u (cnt u h) = Sem.Act.arrive b n w pc := by
      rw [hA] at hrel
      exact Sem.actRel_arrive hrel
    have hev : soloEv prog regs0 m0 u (cnt u h) = Ev.arr b w := by
      show evOf (Sem.soloAct prog regs0 m0 u (cnt u h)) = Ev.arr b w
      rw [hA0]
      rfl
    have hcm := hC u (cnt u h) b n w pc hA0
    have hlt : len (pendAt (soloEv prog regs0 m0) m b h) < m b :=
      len_left_lt hcm.2 _ _ _ hcm.2
    have harr : Sem.arrivals N b s = len (pendAt (soloEv prog regs0 m0) m b h) := H.2.1 b
    have hpb : ∃ x, pendAt (soloEv prog regs0 m0) m b (u :: h) =
        (if len ((u, x) :: pendAt (soloEv prog regs0 m0) m b h) = m b then []
         else (u, x) :: pendAt (soloEv prog regs0 m0) m b h) := by
      show ∃ x, left (m b) (fun _ => 0) [] (arrs (soloEv prog regs0 m0) b (u :: h)) = _
      rw [arrs_same _ h hev]
      exact left_sn (m b) u _ _ _
    have hpc : ∀ c, ¬ c = b → pendAt (soloEv prog regs0 m0) m c (u :: h) =
        pendAt (soloEv prog regs0 m0) m c h := by
      intro c hc
      show left (m c) (fun _ => 0) [] (arrs (soloEv prog regs0 m0) c (u :: h)) =
        left (m c) (fun _ => 0) [] (arrs (soloEv prog regs0 m0) c h)
      rw [arrs_other _ h hev (fun e => hc (Eq.symm e))]
    have harrc : ∀ c, ¬ c = b →
        Sem.arrivals N c (Sem.next prog N u s) = Sem.arrivals N c s := by
      intro c hc
      have hsb : ¬ Sem.SameBar (Sem.act prog u s) (Sem.Act.arrive c 0 false 0 : Sem.Act V) := by
        rw [hA]
        exact fun e => hc (Eq.symm e)
      show Sem.countAt c (Sem.next prog N u s).th N + (Sem.next prog N u s).arr c =
        Sem.countAt c s.th N + s.arr c
      rw [Sem.countAt_next prog N u s hsb hr, Sem.next_arr, Sem.arrEff_other _ _ _ hsb]
    have hf : Sem.firesA N (Sem.act prog u s) s =
        decide (m b ≤ len (pendAt (soloEv prog regs0 m0) m b h) + 1) := by
      rw [hA]
      show decide (n ≤ Sem.arrivals N b s + 1) = _
      rw [harr, hcm.1]
    match hpb with
    | ⟨x, hx⟩ =>
      cases Nat.decEq (len (pendAt (soloEv prog regs0 m0) m b h) + 1) (m b) with
      | isTrue efull =>
        have hP' : pendAt (soloEv prog regs0 m0) m b (u :: h) = [] := by
          rw [hx]
          exact if_pos' efull
        have hf1 : Sem.firesA N (Sem.act prog u s) s = true := by
          rw [hf]
          apply decide_eq_true'
          rw [efull]
          exact Nat.leRefl _
        refine ⟨hvalid, ?_, ?_⟩
        · intro c
          cases Nat.decEq c b with
          | isFalse hc => rw [harrc c hc, hpc c hc]; exact H.2.1 c
          | isTrue hc =>
            rw [hc, hP']
            have h1 : Sem.countAt b (Sem.next prog N u s).th N = 0 := by
              apply countAt_zero b _ N
              intro k _
              cases Nat.decEq k u with
              | isTrue ek => rw [ek, Sem.next_th_self, hf1, hA]; rfl
              | isFalse ek =>
                rw [Sem.next_th_other prog N u s ek, hf1, hA]
                exact waiting_relAt_self b _
            have h2 : (Sem.next prog N u s).arr b = 0 := by
              rw [Sem.next_arr, hf1, hA]
              show Sem.upd s.arr b (Sem.arrNew true w (s.arr b)) b = 0
              rw [Sem.upd_same]
              rfl
            show Sem.countAt b (Sem.next prog N u s).th N + (Sem.next prog N u s).arr b = 0
            rw [h1, h2]
        · intro t ht
          refine ⟨htrel t ht, ?_⟩
          cases Nat.decEq u t with
          | isTrue e =>
            rw [← e, Sem.next_th_self, hf1, hA]
            refine ⟨fun c hc => False.elim (Sem.run_ne_bar hc), fun _ j c hj ha => ?_⟩
            rw [cnt_cons_self] at hj
            have ej : cnt u h = j := Nat.succ.inj hj
            rw [← ej, hev] at ha
            have ecb : b = c := arr_b ha
            rw [← ecb, hP']
            exact not_pending_nil u
          | isFalse e =>
            have e' : ¬ t = u := fun e' => e (Eq.symm e')
            rw [Sem.next_th_other prog N u s e', hf1, hA]
            show ThOk (soloEv prog regs0 m0) m (u :: h) t (Sem.relAt b (s.th t)).status
            cases relAt_cases b (s.th t) with
            | inl hk =>
              rw [hk.1]
              apply thOk_step (b := b) (H.2.2 t ht).2 (cnt_cons_ne h e) hpc
              · intro hst _
                have h3 := hk.2
                rw [hst] at h3
                have h4 : decide (b = b) = false := h3
                exact False.elim (of_decide_eq_false' h4 rfl)
              · intro _ _
                rw [hP']
                exact not_pending_nil t
            | inr hk =>
              rw [hk.2]
              refine ⟨fun c hc => False.elim (Sem.run_ne_bar hc), fun _ j c hj ha => ?_⟩
              rw [cnt_cons_ne h e] at hj
              cases Nat.decEq c b with
              | isTrue ec => rw [ec, hP']; exact not_pending_nil t
              | isFalse ec =>
                match (H.2.2 t ht).2.1 b hk.1 with
                | ⟨j', hj', ha', _⟩ =>
                  have ejj : j' = j := Nat.succ.inj (Eq.trans (Eq.symm hj') hj)
                  rw [ejj, ha] at ha'
                  exact False.elim (ec (arr_b ha'))
      | isFalse enf =>
        have hP' : pendAt (soloEv prog regs0 m0) m b (u :: h) =
            (u, x) :: pendAt (soloEv prog regs0 m0) m b h := by
          rw [hx]
          exact if_neg' enf
        have hf0 : Sem.firesA N (Sem.act prog u s) s = false := by
          rw [hf]
          exact decide_eq_false' (fun hle => enf (Nat.leAntisymm hlt hle))
        refine ⟨hvalid, ?_, ?_⟩
        · intro c
          cases Nat.decEq c b with
          | isFalse hc => rw [harrc c hc, hpc c hc]; exact H.2.1 c
          | isTrue hc =>
            rw [hc, hP', Sem.arrivals_arrive prog N u s hu hr hA hf0, harr]
            rfl
        · intro t ht
          refine ⟨htrel t ht, ?_⟩
          cases Nat.decEq u t with
          | isTrue e =>
            rw [← e, Sem.next_th_self, hf0, hA]
            cases w with
            | true =>
              refine ⟨fun c hc => ?_, fun hc => False.elim (Sem.run_ne_bar (Eq.symm hc))⟩
              have bi : b = c := Sem.bar_inj hc
              refine ⟨cnt u h, cnt_cons_self u h, ?_, ?_⟩
              · rw [← bi]; exact hev
              · rw [← bi, hP']; exact pending_self u x _
            | false =>
              refine ⟨fun c hc => False.elim (Sem.run_ne_bar hc), fun _ j c hj ha => ?_⟩
              rw [cnt_cons_self] at hj
              have ej : cnt u h = j := Nat.succ.inj hj
              rw [← ej, hev] at ha
              exact False.elim (Bool.noConfusion (arr_w ha))
          | isFalse e =>
            have e' : ¬ t = u := fun e' => e (Eq.symm e')
            rw [Sem.next_th_other prog N u s e', hf0, Sem.effOther_false]
            apply thOk_step (b := b) (H.2.2 t ht).2 (cnt_cons_ne h e) hpc
            · intro _ hp
              rw [hP']
              exact pending_cons _ hp
            · intro _ hnp
              rw [hP']
              exact fun hp => hnp (pending_cons_ne hp e)


theorem hinv_next (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hC : CountsAt prog regs0 m0 m) {h : List Nat}
    {s : Sem.CState V} {u : Nat} (hu : u < N)
    (hr : (s.th u).status = Sem.Status.run) (H : HInv prog N regs0 m0 R m h s) :
    HInv prog N regs0 m0 R m (u :: h) (Sem.next prog N u s) := by
  cases hA : Sem.act prog u s with
  | arrive b n w pc => exact hinv_next_arr prog N regs0 m0 R m hind hC hu hr H hA
  | compute pc r =>
    exact hinv_next_na prog N regs0 m0 R m hind hu hr H
      (fun b' n' w' pc' e => Sem.Act.noConfusion (Eq.trans (Eq.symm hA) e))
  | read a r pc =>
    exact hinv_next_na prog N regs0 m0 R m hind hu hr H
      (fun b' n' w' pc' e => Sem.Act.noConfusion (Eq.trans (Eq.symm hA) e))
  | write a v pc =>
    exact hinv_next_na prog N regs0 m0 R m hind hu hr H
      (fun b' n' w' pc' e => Sem.Act.noConfusion (Eq.trans (Eq.symm hA) e))
  | atomAdd a v pc =>
    exact hinv_next_na prog N regs0 m0 R m hind hu hr H
      (fun b' n' w' pc' e => Sem.Act.noConfusion (Eq.trans (Eq.symm hA) e))
  | exit =>
    exact hinv_next_na prog N regs0 m0 R m hind hu hr H
      (fun b' n' w' pc' e => Sem.Act.noConfusion (Eq.trans (Eq.symm hA) e))

theorem hinv_same (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat) {h : List Nat}
    {s s' : Sem.CState V} (hs : Sem.Same s s') (H : HInv prog N regs0 m0 R m h s) :
    HInv prog N regs0 m0 R m h s' := by
  refine ⟨H.1, fun b => by rw [← arrivals_same N b hs]; exact H.2.1 b, ?_⟩
  intro t ht
  rw [← hs.1 t]
  exact H.2.2 t ht

theorem hinv_init (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) :
    HInv prog N regs0 m0 R m [] (Sem.init regs0 m1) := by
  refine ⟨trivial, ?_, ?_⟩
  · intro b
    show Sem.countAt b (Sem.init regs0 m1).th N + 0 = 0
    rw [countAt_zero b (Sem.init regs0 m1).th N (fun k _ => rfl)]
  · intro t _
    refine ⟨⟨rfl, hR0 t⟩, fun c hc => False.elim (Sem.run_ne_bar hc), ?_⟩
    intro _ j c hj
    exact False.elim (Nat.noConfusion hj)

/-- **Every schedule of `Sem` from the launch keeps the invariant** (data independence,
one count `m b > 0` per barrier id in the solo traces). -/
theorem hinv_sched (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) {h : List Nat} {s : Sem.CState V}
    (hs : Sched prog N (Sem.init regs0 m1) h s) : HInv prog N regs0 m0 R m h s := by
  induction hs with
  | nil => exact hinv_init prog N regs0 m0 m1 R m hR0
  | cons t _ hst ih =>
    exact hinv_same prog N regs0 m0 R m (Sem.same_symm hst.2.2)
      (hinv_next prog N regs0 m0 R m hind hC hst.1 hst.2.1 ih)

/-- **Every `Sem` schedule is a valid history of the solo sequences.**  From the launch (any
initial memory `m1`; the solo traces read `m0`), every reachable state `s` is reached by a
schedule `h` (thread ids, latest first) such that: `h` is `Valid` for `soloEv`; at every
barrier id the arrivals of `Sem` are as many as `OnceCheck`'s pending ones; every thread
`t < N` has done `cnt t h` actions, its state is related (same `pc`, related registers) to its
solo state number `cnt t h`; it waits at `b` exactly when its last action was a waiting arrival
at `b` still pending; and if it runs, `t :: h` is valid too. -/
theorem valid_of_reach (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) {s : Sem.CState V}
    (hr : Sem.Reach prog N (Sem.init regs0 m1) s) :
    ∃ h, Sched prog N (Sem.init regs0 m1) h s ∧
      Valid (soloEv prog regs0 m0) m h ∧
      (∀ b, Sem.arrivals N b s = len (pendAt (soloEv prog regs0 m0) m b h)) ∧
      ∀ t, t < N → Sem.TRel R t (s.th t) (Sem.solo prog regs0 m0 t (cnt t h)) ∧
        (∀ b, (s.th t).status = Sem.Status.bar b →
          ∃ j, cnt t h = j + 1 ∧ soloEv prog regs0 m0 t j = Ev.arr b true ∧
            Pending t (left (m b) (fun _ => 0) [] (arrs (soloEv prog regs0 m0) b h))) ∧
        ((s.th t).status = Sem.Status.run → Valid (soloEv prog regs0 m0) m (t :: h)) := by
  match sched_of_reach prog N hr with
  | ⟨h, hs⟩ =>
    have H := hinv_sched prog N regs0 m0 m1 R m hind hR0 hC hs
    refine ⟨h, hs, H.1, H.2.1, fun t ht => ⟨(H.2.2 t ht).1, (H.2.2 t ht).2.1,
      fun hrun => ⟨H.1, (H.2.2 t ht).2.2 hrun⟩⟩⟩


/-- **Waiting is exactly a pending waiting arrival**: in a state reached by a schedule keeping
the invariant, a thread `t < N` that has not exited waits at `b` iff its last action was a
waiting arrival at `b` still pending in `OnceCheck`'s sense. -/
theorem bar_iff (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat) {h : List Nat}
    {s : Sem.CState V} (H : HInv prog N regs0 m0 R m h s) {t : Nat} (ht : t < N) (b : Nat)
    (hne : (s.th t).status = Sem.Status.exited → False) :
    (s.th t).status = Sem.Status.bar b ↔
      ∃ j, cnt t h = j + 1 ∧ soloEv prog regs0 m0 t j = Ev.arr b true ∧
        Pending t (left (m b) (fun _ => 0) [] (arrs (soloEv prog regs0 m0) b h)) := by
  have T := (H.2.2 t ht).2
  refine ⟨T.1 b, ?_⟩
  intro ex
  match ex with
  | ⟨j, hj, ha, hp⟩ =>
    cases hs : (s.th t).status with
    | run => exact False.elim (T.2 hs j b hj ha hp)
    | exited => exact False.elim (hne hs)
    | bar c =>
      match T.1 c hs with
      | ⟨j', hj', ha', _⟩ =>
        have ejj : j' = j := Nat.succ.inj (Eq.trans (Eq.symm hj') hj)
        rw [ejj, ha] at ha'
        rw [arr_b ha']

end Step

/-! ## Races: conflicting next actions are unordered by happens-before -/

section Race

variable {V : Type} [Sem.AccAdd V]

/-- In a schedule keeping the invariant, nothing that has not happened happens before the next
action of a running thread: if `y` runs and `x ≠ y`, then `(x, cnt x h)` (not yet done) does not
happen before `(y, cnt y h)` (done in `y :: h`, which is valid). -/
theorem not_hb_next (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb (soloEv prog regs0 m0) S) (hSz : Sized m S) (h3 : Check3 (soloEv prog regs0 m0))
    {h : List Nat} {s : Sem.CState V} (H : HInv prog N regs0 m0 R m h s) {x y : Nat}
    (hxy : ¬ y = x) (hy : y < N) (hry : (s.th y).status = Sem.Status.run) :
    ¬ HB (soloEv prog regs0 m0) (x, cnt x h) (y, cnt y h) := by
  intro hb
  have hv : Valid (soloEv prog regs0 m0) m (y :: h) := ⟨H.1, (H.2.2 y hy).2.2 hry⟩
  have ho := once_all (soloEv prog regs0 m0) m S hM hSz h3 (y :: h) hv
  have hdone : cnt y h < cnt y (y :: h) := by
    rw [cnt_cons_self]
    exact Nat.ltSuccSelf _
  have r : cnt x h < cnt x (y :: h) := hb_done (soloEv prog regs0 m0) m S hM hSz hv ho hb hdone
  rw [cnt_cons_ne h hxy] at r
  exact Nat.ltIrrefl _ r

/-- **Conflicting next actions of two running threads are conflicting solo actions that
happens-before does not order.**  With `i = cnt x h`, `j = cnt y h` (how many actions each has
done): `Conflict (soloAct x i) (soloAct y j)` (data independence: same kinds and addresses),
and neither `HB (x, i) (y, j)` nor `HB (y, j) (x, i)`. -/
theorem race_unordered (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat) (S : Nat → List Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (hM : Memb (soloEv prog regs0 m0) S) (hSz : Sized m S) (h3 : Check3 (soloEv prog regs0 m0))
    {h : List Nat} {s : Sem.CState V} (hs : Sched prog N (Sem.init regs0 m1) h s) {x y : Nat}
    (hxy : x ≠ y) (hx : x < N) (hy : y < N) (hrx : (s.th x).status = Sem.Status.run)
    (hry : (s.th y).status = Sem.Status.run)
    (hc : Sem.Conflict (Sem.act prog x s) (Sem.act prog y s)) :
    Sem.Conflict (Sem.soloAct prog regs0 m0 x (cnt x h)) (Sem.soloAct prog regs0 m0 y (cnt y h)) ∧
    ¬ HB (soloEv prog regs0 m0) (x, cnt x h) (y, cnt y h) ∧
    ¬ HB (soloEv prog regs0 m0) (y, cnt y h) (x, cnt x h) := by
  have H := hinv_sched prog N regs0 m0 m1 R m hind hR0 hC hs
  have rx := Sem.actRel_of_trel prog hind (H.2.2 x hx).1
  have ry := Sem.actRel_of_trel prog hind (H.2.2 y hy).1
  exact ⟨Sem.conflict_rel rx ry hc,
    not_hb_next prog N regs0 m0 R m S hM hSz h3 H (fun e => hxy (Eq.symm e)) hy hry,
    not_hb_next prog N regs0 m0 R m S hM hSz h3 H hxy hx hrx⟩

/-- Every two conflicting solo actions of different threads below `N` are ordered by
happens-before, one way or the other. -/
def Ordered (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∀ x y i j, x ≠ y → x < N → y < N →
    Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j) →
    HB (soloEv prog regs0 m0) (x, i) (y, j) ∨ HB (soloEv prog regs0 m0) (y, j) (x, i)

/-- **Race freedom of every schedule from the happens-before order of the solo sequences.**
Under data independence, one count `m b > 0` per barrier id (`CountsAt`), the Rust's barrier
checks (`Memb`, `Sized`, `Check3`), if every two conflicting solo actions of different threads
are HB-ordered, no reachable state of `Sem` from the launch (any initial memory) has a race. -/
theorem raceFree_of_ordered (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (S : Nat → List Nat) (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (hM : Memb (soloEv prog regs0 m0) S) (hSz : Sized m S) (h3 : Check3 (soloEv prog regs0 m0))
    (hord : Ordered prog N regs0 m0) : Sem.RaceFree prog N (Sem.init regs0 m1) := by
  intro r hr i j hij hi hj hri hrj hc
  match sched_of_reach prog N hr with
  | ⟨h, hs⟩ =>
    match race_unordered prog N regs0 m0 m1 R m S hind hR0 hC hM hSz h3 hs hij hi hj hri hrj hc with
    | ⟨hc', n1, n2⟩ =>
      cases hord i j (cnt i h) (cnt j h) hij hi hj hc' with
      | inl e => exact n1 e
      | inr e => exact n2 e


/-- The same for the actions before the threads' exits: thread `t`'s solo action `E t` is its
`exit`, and every two conflicting solo actions of different threads below `N`, each before its
thread's exit, are HB-ordered (what the race check covers on a run where every thread exits). -/
def OrderedTo (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (E : Nat → Nat) : Prop :=
  ∀ x y i j, x ≠ y → x < N → y < N → i < E x → j < E y →
    Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j) →
    HB (soloEv prog regs0 m0) (x, i) (y, j) ∨ HB (soloEv prog regs0 m0) (y, j) (x, i)

theorem conflict_exit_left (B : Sem.Act V) (h : Sem.Conflict (Sem.Act.exit : Sem.Act V) B) :
    False := h

/-- Past its exit a thread's solo actions conflict with nothing, so `OrderedTo` gives
`Ordered`. -/
theorem ordered_of_exits (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (E : Nat → Nat) (hE : ∀ t, t < N → Sem.soloAct prog regs0 m0 t (E t) = Sem.Act.exit)
    (h : OrderedTo prog N regs0 m0 E) : Ordered prog N regs0 m0 := by
  intro x y i j hxy hx hy hc
  cases Nat.ltOrGe i (E x) with
  | inr hi =>
    match Nat.le.dest hi with
    | ⟨d, e⟩ =>
      rw [← e, Race.soloAct_exit prog regs0 m0 x (E x) (hE x hx) d] at hc
      exact False.elim (conflict_exit_left _ hc)
  | inl hi =>
    cases Nat.ltOrGe j (E y) with
    | inr hj =>
      match Nat.le.dest hj with
      | ⟨d, e⟩ =>
        rw [← e, Race.soloAct_exit prog regs0 m0 y (E y) (hE y hy) d] at hc
        exact False.elim (conflict_exit_left _ (Sem.conflict_symm _ _ hc))
    | inl hj => exact h x y i j hxy hx hy hi hj hc

/-- `raceFree_of_ordered` with the order demanded only before the exits. -/
theorem raceFree_of_orderedTo (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (S : Nat → List Nat) (E : Nat → Nat) (hind : Sem.DataIndep prog R)
    (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hC : CountsAt prog regs0 m0 m)
    (hM : Memb (soloEv prog regs0 m0) S) (hSz : Sized m S) (h3 : Check3 (soloEv prog regs0 m0))
    (hE : ∀ t, t < N → Sem.soloAct prog regs0 m0 t (E t) = Sem.Act.exit)
    (hord : OrderedTo prog N regs0 m0 E) : Sem.RaceFree prog N (Sem.init regs0 m1) :=
  raceFree_of_ordered prog N regs0 m0 m1 R m S hind hR0 hC hM hSz h3
    (ordered_of_exits prog N regs0 m0 E hE hord)

end Race

/-! ## Barriers fit: one count per id, two free places -/

section Fit

variable {V : Type} [Sem.AccAdd V]

theorem barFits_of (N : Nat) (r : Sem.CState V) (A B : Sem.Act V)
    (H : ∀ b n wa pa n' wb pb, A = Sem.Act.arrive b n wa pa → B = Sem.Act.arrive b n' wb pb →
      n = n' ∧ Sem.arrivals N b r + 2 ≤ n) :
    Sem.BarFits N r A B := by
  cases A with
  | arrive b n wa pa =>
    cases B with
    | arrive c n' wb pb =>
      intro e
      exact H b n wa pa n' wb pb rfl (by rw [e])
    | compute _ _ => trivial
    | read _ _ _ => trivial
    | write _ _ _ => trivial
    | atomAdd _ _ _ => trivial
    | exit => trivial
  | compute _ _ => trivial
  | read _ _ _ => trivial
  | write _ _ _ => trivial
  | atomAdd _ _ _ => trivial
  | exit => trivial

/-- **Two running threads about to arrive at one id leave two free places.**  If only one were
free (`m b - 1` arrivals pending), the first of the two to arrive would complete the instance;
before it, neither had an arrival pending (`Once` in `i :: h` and `j :: h`), so both had
arrived `K` times (`pend`); after it every member has arrived equally often (`pend`, nothing
pending), yet `i` has `K + 1` arrivals and `j` still `K`. -/
theorem two_places (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb (soloEv prog regs0 m0) S) (hSz : Sized m S) (h3 : Check3 (soloEv prog regs0 m0))
    {h : List Nat} {s : Sem.CState V} (H : HInv prog N regs0 m0 R m h s) {i j b : Nat}
    {wa wb : Bool} (hij : ¬ i = j) (hi : i < N) (hj : j < N)
    (hri : (s.th i).status = Sem.Status.run) (hrj : (s.th j).status = Sem.Status.run)
    (hei : soloEv prog regs0 m0 i (cnt i h) = Ev.arr b wa)
    (hej : soloEv prog regs0 m0 j (cnt j h) = Ev.arr b wb) :
    len (pendAt (soloEv prog regs0 m0) m b h) + 2 ≤ m b := by
  have hiS : Mem i (S b) := hM i (cnt i h) b wa hei
  have hjS : Mem j (S b) := hM j (cnt j h) b wb hej
  have hsz := hSz b
  have h0 : 0 < m b := by rw [← hsz.1]; exact len_pos hiS
  have hvi : Valid (soloEv prog regs0 m0) m (i :: h) := ⟨H.1, (H.2.2 i hi).2.2 hri⟩
  have hvj : Valid (soloEv prog regs0 m0) m (j :: h) := ⟨H.1, (H.2.2 j hj).2.2 hrj⟩
  have hoi : Once (m b) (sn (arrs (soloEv prog regs0 m0) b h) i) := by
    have t := once_all (soloEv prog regs0 m0) m S hM hSz h3 (i :: h) hvi b
    rw [arrs_same (soloEv prog regs0 m0) h hei] at t
    exact t
  have hoj : Once (m b) (sn (arrs (soloEv prog regs0 m0) b h) j) := by
    have t := once_all (soloEv prog regs0 m0) m S hM hSz h3 (j :: h) hvj b
    rw [arrs_same (soloEv prog regs0 m0) h hej] at t
    exact t
  have ho : Once (m b) (arrs (soloEv prog regs0 m0) b h) :=
    once_all (soloEv prog regs0 m0) m S hM hSz h3 h H.1 b
  have npi : ¬ Pending i (pendAt (soloEv prog regs0 m0) m b h) := once_sn_np _ _ _ hoi
  have npj : ¬ Pending j (pendAt (soloEv prog regs0 m0) m b h) := once_sn_np _ _ _ hoj
  have hlt : len (pendAt (soloEv prog regs0 m0) m b h) < m b := len_left_lt h0 _ _ _ h0
  cases Nat.decEq (len (pendAt (soloEv prog regs0 m0) m b h) + 1) (m b) with
  | isFalse enf => exact Nat.ltOfLeOfNe hlt enf
  | isTrue efull =>
    apply False.elim
    match pend hsz.1 hsz.2 h0 (only_arrs (soloEv prog regs0 m0) S hM b h) ho with
    | ⟨K, _, _, _, hN⟩ =>
      have ci : cnt i (arrs (soloEv prog regs0 m0) b h) = K := hN i hiS npi
      have cj : cnt j (arrs (soloEv prog regs0 m0) b h) = K := hN j hjS npj
      match left_sn (m b) i (arrs (soloEv prog regs0 m0) b h) (fun _ => 0) [] with
      | ⟨x, hx⟩ =>
        have hl0 : left (m b) (fun _ => 0) [] (sn (arrs (soloEv prog regs0 m0) b h) i) = [] := by
          rw [hx]
          exact if_pos' efull
        have hw' : ∀ t, Mem t (sn (arrs (soloEv prog regs0 m0) b h) i) → Mem t (S b) := by
          have t := only_arrs (soloEv prog regs0 m0) S hM b (i :: h)
          rw [arrs_same (soloEv prog regs0 m0) h hei] at t
          exact t
        match pend hsz.1 hsz.2 h0 hw' hoi with
        | ⟨K', _, _, _, hN'⟩ =>
          have ci' := hN' i hiS (by rw [hl0]; exact not_pending_nil i)
          have cj' := hN' j hjS (by rw [hl0]; exact not_pending_nil j)
          rw [cnt_sn_eq, ci] at ci'
          rw [cnt_sn_ne hij, cj] at cj'
          rw [← cj'] at ci'
          have e2 : K + 1 ≤ K := by rw [ci']; exact Nat.leRefl K
          exact Nat.notSuccLeSelf K e2

/-- **Barriers fit in every schedule.**  Under data independence, one count `m b > 0` per
barrier id in the solo traces (`CountsAt`), and the Rust's barrier checks (`Memb`, `Sized`,
`Check3`), `Sem.BarriersFit` holds from the launch (any initial memory): two running threads
about to arrive at one id use the same count `m b`, and at least two places are free there. -/
theorem barriersFit_of_once (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (S : Nat → List Nat) (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (hM : Memb (soloEv prog regs0 m0) S) (hSz : Sized m S) (h3 : Check3 (soloEv prog regs0 m0)) :
    Sem.BarriersFit prog N (Sem.init regs0 m1) := by
  intro r hr i j hij hi hj hri hrj
  match sched_of_reach prog N hr with
  | ⟨h, hs⟩ =>
    have H := hinv_sched prog N regs0 m0 m1 R m hind hR0 hC hs
    apply barFits_of
    intro b n wa pa n' wb pb hA hB
    have rx := (hinv_common prog N regs0 m0 R m hind hi hri H).2.1
    have ry := (hinv_common prog N regs0 m0 R m hind hj hrj H).2.1
    rw [hA] at rx
    rw [hB] at ry
    have hA0 := Sem.actRel_arrive rx
    have hB0 := Sem.actRel_arrive ry
    have c1 := hC _ _ _ _ _ _ hA0
    have c2 := hC _ _ _ _ _ _ hB0
    have hei : soloEv prog regs0 m0 i (cnt i h) = Ev.arr b wa := by
      show evOf (Sem.soloAct prog regs0 m0 i (cnt i h)) = Ev.arr b wa
      rw [hA0]
      rfl
    have hej : soloEv prog regs0 m0 j (cnt j h) = Ev.arr b wb := by
      show evOf (Sem.soloAct prog regs0 m0 j (cnt j h)) = Ev.arr b wb
      rw [hB0]
      rfl
    refine ⟨Eq.trans c1.1 (Eq.symm c2.1), ?_⟩
    rw [H.2.1 b, c1.1]
    exact two_places prog N regs0 m0 R m S hM hSz h3 H hij hi hj hri hrj hei hej

/-- **Confluence from the named-barrier checks**: under the hypotheses of
`barriersFit_of_once` and `Ordered` (every two conflicting solo actions of different threads
are HB-ordered), any two complete executions from the launch end in the same state. -/
theorem confluence_of_once (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (S : Nat → List Nat) (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (hM : Memb (soloEv prog regs0 m0) S) (hSz : Sized m S) (h3 : Check3 (soloEv prog regs0 m0))
    (hord : Ordered prog N regs0 m0) {t1 t2 : Sem.CState V}
    (h1 : Sem.Reach prog N (Sem.init regs0 m1) t1) (h2 : Sem.Reach prog N (Sem.init regs0 m1) t2)
    (f1 : Sem.Final N t1) (f2 : Sem.Final N t2) : Sem.Same t1 t2 :=
  Sem.confluence prog N
    (raceFree_of_ordered prog N regs0 m0 m1 R m S hind hR0 hC hM hSz h3 hord)
    (barriersFit_of_once prog N regs0 m0 m1 R m S hind hR0 hC hM hSz h3) h1 h2 f1 f2

end Fit

/-! ## Not vacuous: a producer and a consumer with `bar.arrive`

Thread 0: store to 0; `bar.arrive 1, 2`; `bar.sync 2, 2`; store to 0; `bar.arrive 1, 2`; exit.
Thread 1: `bar.sync 1, 2`; load from 0; `bar.arrive 2, 2`; `bar.sync 1, 2`; load from 0; exit.
Every hypothesis is proved (`ex_dataIndep`, `ex_counts`, `ex_memb`, `pc_sized`, `ex_check3`,
`ex_ordered`), so `raceFree_of_ordered`, `barriersFit_of_once`, `confluence_of_once` apply. -/

namespace SemOnceEx

variable {V : Type} [Sem.AccAdd V]

def exProg : Sem.Prog V := fun t pc regs =>
  match t, pc with
  | 0, 0 => Sem.Act.write 0 (regs 0) 1
  | 0, 1 => Sem.Act.arrive 1 2 false 2
  | 0, 2 => Sem.Act.arrive 2 2 true 3
  | 0, 3 => Sem.Act.write 0 (regs 0) 4
  | 0, 4 => Sem.Act.arrive 1 2 false 5
  | 1, 0 => Sem.Act.arrive 1 2 true 1
  | 1, 1 => Sem.Act.read 0 0 2
  | 1, 2 => Sem.Act.arrive 2 2 false 3
  | 1, 3 => Sem.Act.arrive 1 2 true 4
  | 1, 4 => Sem.Act.read 0 0 5
  | _, _ => Sem.Act.exit

def exR : Nat → Nat → (Nat → V) → (Nat → V) → Prop := fun _ _ _ _ => True

theorem ex_dataIndep : Sem.DataIndep (exProg : Sem.Prog V) exR := by
  intro i pc regs regs' _
  match i, pc with
  | 0, 0 => exact ⟨rfl, rfl, trivial⟩
  | 0, 1 => exact ⟨rfl, rfl, rfl, rfl, trivial⟩
  | 0, 2 => exact ⟨rfl, rfl, rfl, rfl, trivial⟩
  | 0, 3 => exact ⟨rfl, rfl, trivial⟩
  | 0, 4 => exact ⟨rfl, rfl, rfl, rfl, trivial⟩
  | 0, k + 5 => exact trivial
  | 1, 0 => exact ⟨rfl, rfl, rfl, rfl, trivial⟩
  | 1, 1 => exact ⟨rfl, rfl, rfl, fun _ _ => trivial⟩
  | 1, 2 => exact ⟨rfl, rfl, rfl, rfl, trivial⟩
  | 1, 3 => exact ⟨rfl, rfl, rfl, rfl, trivial⟩
  | 1, 4 => exact ⟨rfl, rfl, rfl, fun _ _ => trivial⟩
  | 1, k + 5 => exact trivial
  | t + 2, pc => exact trivial

theorem ex_counts_prog : ∀ (t pc : Nat) (regs : Nat → V) (b n : Nat) (w : Bool) (pc' : Nat),
    (exProg : Sem.Prog V) t pc regs = Sem.Act.arrive b n w pc' → n = 2
  | 0, 0, _, _, _, _, _, h => Sem.Act.noConfusion h
  | 0, 1, _, _, _, _, _, h => Sem.Act.noConfusion h (fun _ e _ _ => Eq.symm e)
  | 0, 2, _, _, _, _, _, h => Sem.Act.noConfusion h (fun _ e _ _ => Eq.symm e)
  | 0, 3, _, _, _, _, _, h => Sem.Act.noConfusion h
  | 0, 4, _, _, _, _, _, h => Sem.Act.noConfusion h (fun _ e _ _ => Eq.symm e)
  | 0, k + 5, _, _, _, _, _, h => Sem.Act.noConfusion h
  | 1, 0, _, _, _, _, _, h => Sem.Act.noConfusion h (fun _ e _ _ => Eq.symm e)
  | 1, 1, _, _, _, _, _, h => Sem.Act.noConfusion h
  | 1, 2, _, _, _, _, _, h => Sem.Act.noConfusion h (fun _ e _ _ => Eq.symm e)
  | 1, 3, _, _, _, _, _, h => Sem.Act.noConfusion h (fun _ e _ _ => Eq.symm e)
  | 1, 4, _, _, _, _, _, h => Sem.Act.noConfusion h
  | 1, k + 5, _, _, _, _, _, h => Sem.Act.noConfusion h
  | t + 2, _, _, _, _, _, _, h => Sem.Act.noConfusion h


theorem ex_counts (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    CountsAt (exProg : Sem.Prog V) regs0 m0 (fun _ => 2) :=
  fun t _ b n w pc h => ⟨ex_counts_prog t _ _ b n w pc h, Nat.zeroLtSucc 1⟩

theorem pc_step (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat)
    (h : (Sem.solo (exProg : Sem.Prog V) regs0 m0 i k).pc = k)
    (hA : ∀ regs, (Sem.newT ((exProg : Sem.Prog V) i k regs) false
      (Sem.solo exProg regs0 m0 i k) m0).pc = k + 1) :
    (Sem.solo (exProg : Sem.Prog V) regs0 m0 i (k + 1)).pc = k + 1 := by
  show (Sem.newT ((exProg : Sem.Prog V) i (Sem.solo exProg regs0 m0 i k).pc
    (Sem.solo exProg regs0 m0 i k).regs) false (Sem.solo exProg regs0 m0 i k) m0).pc = k + 1
  rw [h]
  exact hA _

theorem pc05 (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    (Sem.solo (exProg : Sem.Prog V) regs0 m0 0 5).pc = 5 :=
  pc_step regs0 m0 0 4 (pc_step regs0 m0 0 3 (pc_step regs0 m0 0 2 (pc_step regs0 m0 0 1
    (pc_step regs0 m0 0 0 rfl (fun _ => rfl)) (fun _ => rfl)) (fun _ => rfl)) (fun _ => rfl))
    (fun _ => rfl)

theorem pc15 (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    (Sem.solo (exProg : Sem.Prog V) regs0 m0 1 5).pc = 5 :=
  pc_step regs0 m0 1 4 (pc_step regs0 m0 1 3 (pc_step regs0 m0 1 2 (pc_step regs0 m0 1 1
    (pc_step regs0 m0 1 0 rfl (fun _ => rfl)) (fun _ => rfl)) (fun _ => rfl)) (fun _ => rfl))
    (fun _ => rfl)

/-- Past `pc` 5 a solo trace of thread 0 or 1 stays at its `exit`. -/
theorem solo_end (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat)
    (h5 : (Sem.solo (exProg : Sem.Prog V) regs0 m0 i 5).pc = 5)
    (hx : ∀ regs, (exProg : Sem.Prog V) i 5 regs = Sem.Act.exit) :
    ∀ k, (Sem.solo (exProg : Sem.Prog V) regs0 m0 i (5 + k)).pc = 5
  | 0 => h5
  | k + 1 => by
    show (Sem.newT ((exProg : Sem.Prog V) i (Sem.solo exProg regs0 m0 i (5 + k)).pc
      (Sem.solo exProg regs0 m0 i (5 + k)).regs) false (Sem.solo exProg regs0 m0 i (5 + k)) m0).pc = 5
    rw [solo_end regs0 m0 i h5 hx k, hx]
    exact solo_end regs0 m0 i h5 hx k

theorem act_end (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat)
    (h5 : (Sem.solo (exProg : Sem.Prog V) regs0 m0 i 5).pc = 5)
    (hx : ∀ regs, (exProg : Sem.Prog V) i 5 regs = Sem.Act.exit) (k : Nat) :
    Sem.soloAct (exProg : Sem.Prog V) regs0 m0 i (5 + k) = Sem.Act.exit := by
  show (exProg : Sem.Prog V) i (Sem.solo exProg regs0 m0 i (5 + k)).pc
    (Sem.solo exProg regs0 m0 i (5 + k)).regs = Sem.Act.exit
  rw [solo_end regs0 m0 i h5 hx k]
  exact hx _

theorem act0_end (regs0 : Nat → Nat → V) (m0 : Nat → V) (k : Nat) :
    Sem.soloAct (exProg : Sem.Prog V) regs0 m0 0 (5 + k) = Sem.Act.exit :=
  act_end regs0 m0 0 (pc05 regs0 m0) (fun _ => rfl) k

theorem act1_end (regs0 : Nat → Nat → V) (m0 : Nat → V) (k : Nat) :
    Sem.soloAct (exProg : Sem.Prog V) regs0 m0 1 (5 + k) = Sem.Act.exit :=
  act_end regs0 m0 1 (pc15 regs0 m0) (fun _ => rfl) k

theorem lt5_false {k : Nat} (hi : k + 5 < 5) : False :=
  Nat.notSuccLeSelf 4 (Nat.leTrans (Nat.leAddLeft 5 k) (Nat.leOfLtSucc hi))

theorem ev0_lt (regs0 : Nat → Nat → V) (m0 : Nat → V) : ∀ i, i < 5 → ∀ b w,
    soloEv (exProg : Sem.Prog V) regs0 m0 0 i = Ev.arr b w →
    (i = 1 ∧ b = 1 ∧ w = false) ∨ (i = 2 ∧ b = 2 ∧ w = true) ∨ (i = 4 ∧ b = 1 ∧ w = false)
  | 0, _, b, w, h => Ev.noConfusion h
  | 1, _, b, w, h => Or.inl ⟨rfl, Eq.symm (arr_b h), Eq.symm (arr_w h)⟩
  | 2, _, b, w, h => Or.inr (Or.inl ⟨rfl, Eq.symm (arr_b h), Eq.symm (arr_w h)⟩)
  | 3, _, b, w, h => Ev.noConfusion h
  | 4, _, b, w, h => Or.inr (Or.inr ⟨rfl, Eq.symm (arr_b h), Eq.symm (arr_w h)⟩)
  | k + 5, hi, _, _, _ => False.elim (lt5_false hi)

theorem ev1_lt (regs0 : Nat → Nat → V) (m0 : Nat → V) : ∀ i, i < 5 → ∀ b w,
    soloEv (exProg : Sem.Prog V) regs0 m0 1 i = Ev.arr b w →
    (i = 0 ∧ b = 1 ∧ w = true) ∨ (i = 2 ∧ b = 2 ∧ w = false) ∨ (i = 3 ∧ b = 1 ∧ w = true)
  | 0, _, b, w, h => Or.inl ⟨rfl, Eq.symm (arr_b h), Eq.symm (arr_w h)⟩
  | 1, _, b, w, h => Ev.noConfusion h
  | 2, _, b, w, h => Or.inr (Or.inl ⟨rfl, Eq.symm (arr_b h), Eq.symm (arr_w h)⟩)
  | 3, _, b, w, h => Or.inr (Or.inr ⟨rfl, Eq.symm (arr_b h), Eq.symm (arr_w h)⟩)
  | 4, _, b, w, h => Ev.noConfusion h
  | k + 5, hi, _, _, _ => False.elim (lt5_false hi)

/-- Past its exit, thread `i`'s solo barrier view is `loc`. -/
theorem ev_end {regs0 : Nat → Nat → V} {m0 : Nat → V} {i j : Nat} (hj : 5 ≤ j)
    (hend : ∀ k, Sem.soloAct (exProg : Sem.Prog V) regs0 m0 i (5 + k) = Sem.Act.exit) :
    soloEv (exProg : Sem.Prog V) regs0 m0 i j = Ev.loc := by
  match Nat.le.dest hj with
  | ⟨k, e⟩ =>
    rw [← e]
    show evOf (Sem.soloAct (exProg : Sem.Prog V) regs0 m0 i (5 + k)) = Ev.loc
    rw [hend k]
    rfl

theorem ev0 (regs0 : Nat → Nat → V) (m0 : Nat → V) (i b : Nat) (w : Bool)
    (h : soloEv (exProg : Sem.Prog V) regs0 m0 0 i = Ev.arr b w) :
    (i = 1 ∧ b = 1 ∧ w = false) ∨ (i = 2 ∧ b = 2 ∧ w = true) ∨ (i = 4 ∧ b = 1 ∧ w = false) := by
  cases Nat.ltOrGe i 5 with
  | inl hi => exact ev0_lt regs0 m0 i hi b w h
  | inr hi =>
    rw [ev_end hi (act0_end regs0 m0)] at h
    exact Ev.noConfusion h

theorem ev1 (regs0 : Nat → Nat → V) (m0 : Nat → V) (i b : Nat) (w : Bool)
    (h : soloEv (exProg : Sem.Prog V) regs0 m0 1 i = Ev.arr b w) :
    (i = 0 ∧ b = 1 ∧ w = true) ∨ (i = 2 ∧ b = 2 ∧ w = false) ∨ (i = 3 ∧ b = 1 ∧ w = true) := by
  cases Nat.ltOrGe i 5 with
  | inl hi => exact ev1_lt regs0 m0 i hi b w h
  | inr hi =>
    rw [ev_end hi (act1_end regs0 m0)] at h
    exact Ev.noConfusion h

/-- A memory access. -/
def isMem : Sem.Act V → Bool
  | Sem.Act.read _ _ _ => true
  | Sem.Act.write _ _ _ => true
  | Sem.Act.atomAdd _ _ _ => true
  | Sem.Act.compute _ _ => false
  | Sem.Act.arrive _ _ _ _ => false
  | Sem.Act.exit => false

theorem conflict_memL {A B : Sem.Act V} (hc : Sem.Conflict A B) : isMem A = true := by
  cases A with
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | compute pc r => exact False.elim hc
  | arrive b n w pc => exact False.elim hc
  | exit => exact False.elim hc

theorem conflict_mem {A B : Sem.Act V} (hc : Sem.Conflict A B) :
    isMem A = true ∧ isMem B = true :=
  ⟨conflict_memL hc, conflict_memL (Sem.conflict_symm _ _ hc)⟩

theorem mem_end {regs0 : Nat → Nat → V} {m0 : Nat → V} {i j : Nat} (hj : 5 ≤ j)
    (hend : ∀ k, Sem.soloAct (exProg : Sem.Prog V) regs0 m0 i (5 + k) = Sem.Act.exit)
    (h : isMem (Sem.soloAct (exProg : Sem.Prog V) regs0 m0 i j) = true) : False := by
  match Nat.le.dest hj with
  | ⟨k, e⟩ =>
    rw [← e, hend k] at h
    exact Bool.noConfusion h

theorem mem0_lt (regs0 : Nat → Nat → V) (m0 : Nat → V) : ∀ i, i < 5 →
    isMem (Sem.soloAct (exProg : Sem.Prog V) regs0 m0 0 i) = true → i = 0 ∨ i = 3
  | 0, _, _ => Or.inl rfl
  | 1, _, h => Bool.noConfusion h
  | 2, _, h => Bool.noConfusion h
  | 3, _, _ => Or.inr rfl
  | 4, _, h => Bool.noConfusion h
  | k + 5, hi, _ => False.elim (lt5_false hi)

theorem mem1_lt (regs0 : Nat → Nat → V) (m0 : Nat → V) : ∀ i, i < 5 →
    isMem (Sem.soloAct (exProg : Sem.Prog V) regs0 m0 1 i) = true → i = 1 ∨ i = 4
  | 0, _, h => Bool.noConfusion h
  | 1, _, _ => Or.inl rfl
  | 2, _, h => Bool.noConfusion h
  | 3, _, h => Bool.noConfusion h
  | 4, _, _ => Or.inr rfl
  | k + 5, hi, _ => False.elim (lt5_false hi)

theorem mem0 (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat)
    (h : isMem (Sem.soloAct (exProg : Sem.Prog V) regs0 m0 0 i) = true) : i = 0 ∨ i = 3 := by
  cases Nat.ltOrGe i 5 with
  | inl hi => exact mem0_lt regs0 m0 i hi h
  | inr hi => exact False.elim (mem_end hi (act0_end regs0 m0) h)

theorem mem1 (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat)
    (h : isMem (Sem.soloAct (exProg : Sem.Prog V) regs0 m0 1 i) = true) : i = 1 ∨ i = 4 := by
  cases Nat.ltOrGe i 5 with
  | inl hi => exact mem1_lt regs0 m0 i hi h
  | inr hi => exact False.elim (mem_end hi (act1_end regs0 m0) h)

theorem hbA (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    HB (soloEv (exProg : Sem.Prog V) regs0 m0) (0, 0) (1, 1) :=
  HB.step (HB.edge (Edge.po 0 0)) (Edge.bar 0 1 1 0 1 false rfl rfl rfl)

theorem hbB (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    HB (soloEv (exProg : Sem.Prog V) regs0 m0) (1, 1) (0, 3) :=
  HB.step (HB.edge (Edge.po 1 1)) (Edge.bar 1 2 0 2 2 false rfl rfl rfl)

theorem hbC (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    HB (soloEv (exProg : Sem.Prog V) regs0 m0) (0, 3) (1, 4) :=
  HB.step (HB.edge (Edge.po 0 3)) (Edge.bar 0 4 1 3 1 false rfl rfl rfl)

theorem hbD (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    HB (soloEv (exProg : Sem.Prog V) regs0 m0) (0, 0) (1, 4) :=
  HB.step (HB.step (HB.step (hbA regs0 m0) (Edge.po 1 1)) (Edge.po 1 2)) (Edge.po 1 3)

theorem hbE (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    HB (soloEv (exProg : Sem.Prog V) regs0 m0) (1, 1) (0, 4) :=
  HB.step (hbB regs0 m0) (Edge.po 0 3)

theorem two_lt_false {x : Nat} (h : x + 2 < 2) : False :=
  Nat.notSuccLeSelf 1 (Nat.leTrans (Nat.leAddLeft 2 x) (Nat.leOfLtSucc h))

theorem ex_memb (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Memb (soloEv (exProg : Sem.Prog V) regs0 m0) (fun _ => [0, 1]) := by
  intro t i b wt h
  match t, h with
  | 0, _ => exact Or.inl rfl
  | 1, _ => exact Or.inr (Or.inl rfl)
  | t + 2, h => exact Ev.noConfusion h

theorem ex_check3 (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Check3 (soloEv (exProg : Sem.Prog V) regs0 m0) := by
  intro t i i' b wt' h1 h2 hlt _
  match t, h1, h2 with
  | 0, h1, h2 =>
    cases ev0 regs0 m0 i b false h1 with
    | inl c1 =>
      cases ev0 regs0 m0 i' b wt' h2 with
      | inl c2 =>
        rw [c1.1, c2.1] at hlt
        exact False.elim (Nat.ltIrrefl 1 hlt)
      | inr c2 =>
        cases c2 with
        | inl c2 =>
          rw [c1.2.1] at c2
          exact False.elim (one_ne_two c2.2.1)
        | inr c2 =>
          rw [c2.1, c1.2.1, c1.1]
          exact ⟨1, 0, rfl, rfl, hbE regs0 m0⟩
    | inr c1 =>
      cases c1 with
      | inl c1 => exact False.elim (Bool.noConfusion c1.2.2)
      | inr c1 =>
        cases ev0 regs0 m0 i' b wt' h2 with
        | inl c2 =>
          rw [c1.1, c2.1] at hlt
          exact False.elim ((by decide : ¬ (4 < 1)) hlt)
        | inr c2 =>
          cases c2 with
          | inl c2 =>
            rw [c1.2.1] at c2
            exact False.elim (one_ne_two c2.2.1)
          | inr c2 =>
            rw [c1.1, c2.1] at hlt
            exact False.elim (Nat.ltIrrefl 4 hlt)
  | 1, h1, h2 =>
    cases ev1 regs0 m0 i b false h1 with
    | inl c1 => exact False.elim (Bool.noConfusion c1.2.2)
    | inr c1 =>
      cases c1 with
      | inl c1 =>
        cases ev1 regs0 m0 i' b wt' h2 with
        | inl c2 =>
          rw [c1.2.1] at c2
          exact False.elim (two_ne_one c2.2.1)
        | inr c2 =>
          cases c2 with
          | inl c2 =>
            rw [c1.1, c2.1] at hlt
            exact False.elim (Nat.ltIrrefl 2 hlt)
          | inr c2 =>
            rw [c1.2.1] at c2
            exact False.elim (two_ne_one c2.2.1)
      | inr c1 => exact False.elim (Bool.noConfusion c1.2.2)
  | t + 2, h1, _ => exact Ev.noConfusion h1

theorem ex_ordered (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Ordered (exProg : Sem.Prog V) 2 regs0 m0 := by
  intro x y i j hxy hx hy hc
  have hm := conflict_mem hc
  match x, y, hxy, hx, hy, hm with
  | 0, 0, hxy, _, _, _ => exact False.elim (hxy rfl)
  | 1, 1, hxy, _, _, _ => exact False.elim (hxy rfl)
  | 0, 1, _, _, _, hm =>
    cases mem0 regs0 m0 i hm.1 with
    | inl ei =>
      cases mem1 regs0 m0 j hm.2 with
      | inl ej => rw [ei, ej]; exact Or.inl (hbA regs0 m0)
      | inr ej => rw [ei, ej]; exact Or.inl (hbD regs0 m0)
    | inr ei =>
      cases mem1 regs0 m0 j hm.2 with
      | inl ej => rw [ei, ej]; exact Or.inr (hbB regs0 m0)
      | inr ej => rw [ei, ej]; exact Or.inl (hbC regs0 m0)
  | 1, 0, _, _, _, hm =>
    cases mem1 regs0 m0 i hm.1 with
    | inl ei =>
      cases mem0 regs0 m0 j hm.2 with
      | inl ej => rw [ei, ej]; exact Or.inr (hbA regs0 m0)
      | inr ej => rw [ei, ej]; exact Or.inl (hbB regs0 m0)
    | inr ei =>
      cases mem0 regs0 m0 j hm.2 with
      | inl ej => rw [ei, ej]; exact Or.inr (hbD regs0 m0)
      | inr ej => rw [ei, ej]; exact Or.inr (hbC regs0 m0)
  | x + 2, _, _, hx, _, _ => exact False.elim (two_lt_false hx)
  | _, y + 2, _, _, hy, _ => exact False.elim (two_lt_false hy)

/-- **Not vacuous.**  A producer (thread 0: store to 0; `bar.arrive 1, 2`; `bar.sync 2, 2`; store
to 0; `bar.arrive 1, 2`; exit) and a consumer (thread 1: `bar.sync 1, 2`; load from 0;
`bar.arrive 2, 2`; `bar.sync 1, 2`; load from 0; exit), any values, registers and memory: every
schedule from the launch is race free, barriers fit, and any two complete executions end in
the same state.  The producer's second store is ordered after the consumer's first load through
id 2, and `Check3` holds at the producer's second `bar.arrive 1` through the consumer's wait
(`hbE`). -/
theorem ex_raceFree (regs0 : Nat → Nat → V) (m1 : Nat → V) :
    Sem.RaceFree (exProg : Sem.Prog V) 2 (Sem.init regs0 m1) :=
  raceFree_of_ordered exProg 2 regs0 m1 m1 exR (fun _ => 2) (fun _ => [0, 1]) ex_dataIndep
    (fun _ => trivial) (ex_counts regs0 m1) (ex_memb regs0 m1) pc_sized (ex_check3 regs0 m1)
    (ex_ordered regs0 m1)

theorem ex_fit (regs0 : Nat → Nat → V) (m1 : Nat → V) :
    Sem.BarriersFit (exProg : Sem.Prog V) 2 (Sem.init regs0 m1) :=
  barriersFit_of_once exProg 2 regs0 m1 m1 exR (fun _ => 2) (fun _ => [0, 1]) ex_dataIndep
    (fun _ => trivial) (ex_counts regs0 m1) (ex_memb regs0 m1) pc_sized (ex_check3 regs0 m1)

theorem ex_confluence (regs0 : Nat → Nat → V) (m1 : Nat → V) {t1 t2 : Sem.CState V}
    (h1 : Sem.Reach (exProg : Sem.Prog V) 2 (Sem.init regs0 m1) t1)
    (h2 : Sem.Reach (exProg : Sem.Prog V) 2 (Sem.init regs0 m1) t2)
    (f1 : Sem.Final 2 t1) (f2 : Sem.Final 2 t2) : Sem.Same t1 t2 :=
  confluence_of_once exProg 2 regs0 m1 m1 exR (fun _ => 2) (fun _ => [0, 1]) ex_dataIndep
    (fun _ => trivial) (ex_counts regs0 m1) (ex_memb regs0 m1) pc_sized (ex_check3 regs0 m1)
    (ex_ordered regs0 m1) h1 h2 f1 f2

end SemOnceEx

end Members
end Kcert
