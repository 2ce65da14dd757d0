import Kcert.Compat
import Kcert.Semantics
import Kcert.RaceCheck

/-!
# Benign equal-value writes

Rust: `checker/src/exec/race.rs` (`Shadow::access` with `same_value`, `Shadow::same_writes`),
`checker/src/exec/access.rs` (`same_value`: a store of exactly the value the cell holds).

The executor does not report two writes to one address that no barrier orders when the later
stores the value the cell already holds: whichever order they happen in, the memory ends with
that value.  This file states that relaxation in the semantics of `Semantics.lean` and proves
that confluence survives it.

* `EqWrites A B`: `A` and `B` are writes of one value to one address.
* `Compatible A B`: `A` and `B` do not conflict (`Conflict`), or they are such writes.
  `ConflictB A B` (a conflict that is not such a pair) is its negation up to double negation
  (`not_conflictB_of_compatible`); `Compatible` is used since it is the positive statement
  the proofs need without deciding equality of values.
* `memEff_commB`, `next_commB`, `next_comm_genB`, `diamondB`, `diamond_genB`: the diamond
  holds for two compatible actions; for two writes of `v` to one address both orders leave
  `v` there (`memEff_eqWrites`).
* `RaceFreeB`: in every reachable state two different running threads have compatible next
  actions.  `confluenceB`, `no_stuckB`: with `BarriersFit`, all complete schedules end in the
  same state, and if one finishes none gets stuck.  `raceFreeB_of_raceFree`: the relaxed
  notion is weaker.

Epochs (the executor's view, for `SyncAll` and `DataIndep` programs, as in `RaceCheck.lean`):

* `Ben i ki j kj : Bool` is a given marking of pairs of trace positions (thread `i`'s `ki`-th
  action, thread `j`'s `kj`-th action) as benign.  The hypothesis `BenSound` says what
  "benign" must mean: whenever a schedule brings thread `i` to a state that matches (`TRel`)
  its solo state `ki` and thread `j` to one that matches `kj`, both running, the two threads'
  next actions are writes of one value to one address.  The solo traces cannot decide this by
  themselves: a solo trace reads the initial memory, so its written values are not those of a
  schedule in general; `BenSound` is the statement that the marked pairs write equal values in
  every schedule (the executor's `same_value` compares symbolic terms, which is meant to give
  exactly that).  `valueIndep_benSound`: one sufficient condition, `ValueIndep`, every write's
  value is a fixed function `den (term i k)` of the thread and its trace position in every
  schedule, with `Ben` comparing the terms (`benOfTerms`).
* `EpochRaceB`: two different threads have conflicting actions in one epoch and the pair is
  not marked benign.  `raceFreeB_of_noEpochRaceB`: without it (and `BenSound`),
  `RaceFreeB`.  `confluence_epochB`, `no_stuck_epochB`: the confluence corollaries.
  `epochRaceB_false`: with nothing marked benign, `EpochRaceB` is `EpochRace`.
-/

namespace Kcert
namespace Sem

section Relaxed

variable {V : Type} [AccAdd V]

/-- Two writes of one value to one address. -/
def EqWrites : Act V → Act V → Prop
  | Act.write a v _, Act.write c w _ => a = c ∧ v = w
  | Act.write _ _ _, Act.compute _ _ => False
  | Act.write _ _ _, Act.read _ _ _ => False
  | Act.write _ _ _, Act.atomAdd _ _ _ => False
  | Act.write _ _ _, Act.arrive _ _ _ _ => False
  | Act.write _ _ _, Act.exit => False
  | Act.compute _ _, _ => False
  | Act.read _ _ _, _ => False
  | Act.atomAdd _ _ _, _ => False
  | Act.arrive _ _ _ _, _ => False
  | Act.exit, _ => False

/-- Two actions that may run in either order: they do not conflict, or they are writes of
one value to one address. -/
def Compatible (A B : Act V) : Prop := ¬Conflict A B ∨ EqWrites A B

/-- The relaxed conflict: a conflict that is not a pair of writes of one value to one
address. -/
def ConflictB (A B : Act V) : Prop := Conflict A B ∧ ¬EqWrites A B

theorem not_conflictB_of_compatible {A B : Act V} (h : Compatible A B) : ¬ConflictB A B := by
  intro hc
  cases h with
  | inl h => exact h hc.1
  | inr h => exact hc.2 h

/-- The shape of two writes of one value to one address. -/
theorem eqWrites_cases {A B : Act V} (h : EqWrites A B) :
    ∃ a v pa pc, A = Act.write a v pa ∧ B = Act.write a v pc := by
  cases A with
  | write a v pa =>
    cases B with
    | write c w pc =>
      have e : a = c ∧ v = w := h
      rw [e.1, e.2]
      exact ⟨c, w, pa, pc, rfl, rfl⟩
    | compute _ _ => exact False.elim h
    | read _ _ _ => exact False.elim h
    | atomAdd _ _ _ => exact False.elim h
    | arrive _ _ _ _ => exact False.elim h
    | exit => exact False.elim h
  | compute _ _ => exact False.elim h
  | read _ _ _ => exact False.elim h
  | atomAdd _ _ _ => exact False.elim h
  | arrive _ _ _ _ => exact False.elim h
  | exit => exact False.elim h

theorem eqWrites_symm (A B : Act V) (h : EqWrites A B) : EqWrites B A := by
  match eqWrites_cases h with
  | ⟨a, v, pa, pc, hA, hB⟩ =>
    rw [hA, hB]
    exact (⟨rfl, rfl⟩ : a = a ∧ v = v)

theorem compatible_symm (A B : Act V) (h : Compatible A B) : Compatible B A := by
  cases h with
  | inl h => exact Or.inl (fun e => h (conflict_symm _ _ e))
  | inr h => exact Or.inr (eqWrites_symm _ _ h)

theorem compatible_of_not_conflict {A B : Act V} (h : ¬Conflict A B) : Compatible A B :=
  Or.inl h

theorem newT_memB (A B : Act V) (g : Bool) (t : TState V) (m : Nat → V)
    (h : Compatible A B) : newT B g t (memEff A m) = newT B g t m := by
  cases h with
  | inl h => exact newT_mem A B g t m h
  | inr h =>
    match eqWrites_cases h with
    | ⟨a, v, pa, pc, hA, hB⟩ => rw [hA, hB]; rfl

/-- Writing `v` to `a` twice in either order: the same memory. -/
theorem memEff_eqWrites (a c : Nat) (v w : V) (pa pc : Nat) (m : Nat → V) (x : Nat)
    (h : a = c ∧ v = w) :
    memEff (Act.write a v pa) (memEff (Act.write c w pc) m) x =
      memEff (Act.write c w pc) (memEff (Act.write a v pa) m) x := by
  show upd (upd m c w) a v x = upd (upd m a v) c w x
  rw [h.1, h.2]

theorem memEff_commB (A B : Act V) (m : Nat → V) (h : Compatible A B) (x : Nat) :
    memEff A (memEff B m) x = memEff B (memEff A m) x := by
  cases h with
  | inl h => exact memEff_comm A B m h x
  | inr h =>
    match eqWrites_cases h with
    | ⟨a, v, pa, pc, hA, hB⟩ =>
      rw [hA, hB]
      exact memEff_eqWrites a a v v pa pc m x ⟨rfl, rfl⟩

/-- `next_comm` for compatible actions: two writes of one value to one address commute. -/
theorem next_commB (prog : Prog V) (N : Nat) (s : CState V) {i j : Nat} (hij : i ≠ j)
    (hri : (s.th i).status = Status.run) (hrj : (s.th j).status = Status.run)
    (hc : Compatible (act prog i s) (act prog j s))
    (hb : ¬SameBar (act prog i s) (act prog j s)) :
    Same (next prog N j (next prog N i s)) (next prog N i (next prog N j s)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have hc' : Compatible (act prog j s) (act prog i s) := compatible_symm _ _ hc
  have hb' : ¬SameBar (act prog j s) (act prog i s) := fun e => hb (sameBar_symm _ _ e)
  have hB : act prog j (next prog N i s) = act prog j s := act_next prog N i s hji hrj
  have hA : act prog i (next prog N j s) = act prog i s := act_next prog N j s hij hri
  have hfB : firesA N (act prog j s) (next prog N i s) = firesA N (act prog j s) s :=
    firesA_next prog N i s (act prog j s) hb hri
  have hfA : firesA N (act prog i s) (next prog N j s) = firesA N (act prog i s) s :=
    firesA_next prog N j s (act prog i s) hb' hrj
  refine ⟨?_, ?_, ?_⟩
  · intro k
    cases Nat.decEq k j with
    | isTrue hk =>
      rw [hk, next_th_self prog N j (next prog N i s), hB, hfB, next_th_run prog N i s hji hrj,
        next_mem, newT_memB _ _ _ _ _ hc, next_th_other prog N i (next prog N j s) hji, hA, hfA,
        next_th_self prog N j s, effOther_newT _ _ _ _ _ _ hb]
    | isFalse hkj =>
      cases Nat.decEq k i with
      | isTrue hk =>
        rw [hk, next_th_self prog N i (next prog N j s), hA, hfA, next_th_run prog N j s hij hri,
          next_mem prog N j s, newT_memB _ _ _ _ _ hc', next_th_other prog N j (next prog N i s) hij,
          hB, hfB, next_th_self prog N i s, effOther_newT _ _ _ _ _ _ hb']
      | isFalse hki =>
        rw [next_th_other prog N j (next prog N i s) hkj, hB, hfB, next_th_other prog N i s hki,
          next_th_other prog N i (next prog N j s) hki, hA, hfA, next_th_other prog N j s hkj]
        exact effOther_comm _ _ _ _ _ hb'
  · intro x
    rw [next_mem prog N j (next prog N i s), next_mem prog N i s, hB,
      next_mem prog N i (next prog N j s), next_mem prog N j s, hA]
    exact memEff_commB _ _ _ hc' x
  · intro x
    rw [next_arr prog N j (next prog N i s), next_arr prog N i s, hB, hfB,
      next_arr prog N i (next prog N j s), next_arr prog N j s, hA, hfA]
    exact arrEff_comm _ _ _ _ _ hb' x

/-- The diamond for two compatible actions of different threads that do not arrive at one
barrier. -/
theorem diamondB (prog : Prog V) (N : Nat) {s s1 s2 : CState V} {i j : Nat} (hij : i ≠ j)
    (h1 : StepT prog N i s s1) (h2 : StepT prog N j s s2)
    (hc : Compatible (act prog i s) (act prog j s))
    (hb : ¬SameBar (act prog i s) (act prog j s)) :
    ∃ s3, StepT prog N j s1 s3 ∧ StepT prog N i s2 s3 :=
  diamond_of_comm prog N hij h1 h2 (next_commB prog N s hij h1.2.1 h2.2.1 hc hb)

/-- The diamond for two writes of one value to one address by different threads. -/
theorem diamond_eqWrites (prog : Prog V) (N : Nat) {s s1 s2 : CState V} {i j a : Nat} {v : V}
    {pa pc : Nat} (hij : i ≠ j) (h1 : StepT prog N i s s1) (h2 : StepT prog N j s s2)
    (hA : act prog i s = Act.write a v pa) (hB : act prog j s = Act.write a v pc) :
    ∃ s3, StepT prog N j s1 s3 ∧ StepT prog N i s2 s3 := by
  have hc : Compatible (act prog i s) (act prog j s) := by
    rw [hA, hB]; exact Or.inr ⟨rfl, rfl⟩
  have hb : ¬SameBar (act prog i s) (act prog j s) := by rw [hA]; exact fun h => h
  exact diamondB prog N hij h1 h2 hc hb

theorem next_comm_genB (prog : Prog V) (N : Nat) (s : CState V) {i j : Nat} (hij : i ≠ j)
    (hi : i < N) (hj : j < N)
    (hri : (s.th i).status = Status.run) (hrj : (s.th j).status = Status.run)
    (hc : Compatible (act prog i s) (act prog j s))
    (hb : BarFits N s (act prog i s) (act prog j s)) :
    Same (next prog N j (next prog N i s)) (next prog N i (next prog N j s)) := by
  cases sameBar_or (act prog i s) (act prog j s) with
  | inl h => exact next_commB prog N s hij hri hrj hc h
  | inr ex =>
    match ex with
    | ⟨b, n, wa, pa, m, wb, pb, hA, hB⟩ =>
      rw [hA, hB] at hb
      match hb rfl with
      | ⟨hnm, hroom⟩ =>
        rw [← hnm] at hB
        exact next_comm_bar prog N s hij hi hj hri hrj hA hB hroom

/-- `diamond_gen` for compatible actions. -/
theorem diamond_genB (prog : Prog V) (N : Nat) {s s1 s2 : CState V} {i j : Nat} (hij : i ≠ j)
    (h1 : StepT prog N i s s1) (h2 : StepT prog N j s s2)
    (hc : Compatible (act prog i s) (act prog j s))
    (hb : BarFits N s (act prog i s) (act prog j s)) :
    ∃ s3, StepT prog N j s1 s3 ∧ StepT prog N i s2 s3 :=
  diamond_of_comm prog N hij h1 h2 (next_comm_genB prog N s hij h1.1 h2.1 h1.2.1 h2.2.1 hc hb)

/-- Relaxed race freedom: in no state reachable from `s0` do two different running threads
have next actions that conflict, unless they are writes of one value to one address. -/
def RaceFreeB (prog : Prog V) (N : Nat) (s0 : CState V) : Prop :=
  ∀ r, Reach prog N s0 r → ∀ i j, i ≠ j → i < N → j < N →
    (r.th i).status = Status.run → (r.th j).status = Status.run →
      Compatible (act prog i r) (act prog j r)

theorem raceFreeB_of_raceFree (prog : Prog V) (N : Nat) (s0 : CState V)
    (h : RaceFree prog N s0) : RaceFreeB prog N s0 :=
  fun r hr i j hij hi hj hri hrj => Or.inl (h r hr i j hij hi hj hri hrj)

theorem diamond_of_raceFreeB_fit (prog : Prog V) (N : Nat) (s0 : CState V)
    (hrf : RaceFreeB prog N s0) (hfit : BarriersFit prog N s0) : Diamond prog N s0 := by
  intro r hr i j r1 r2 hij h1 h2
  exact diamond_genB prog N hij h1 h2 (hrf r hr i j hij h1.1 h2.1 h1.2.1 h2.2.1)
    (hfit r hr i j hij h1.1 h2.1 h1.2.1 h2.2.1)

/-- Confluence with benign equal-value writes: if no reachable state has two running threads
about to do conflicting actions other than two writes of one value to one address
(`RaceFreeB`), and barriers fit, any two complete executions from `s0` end in the same state,
in particular the same memory. -/
theorem confluenceB (prog : Prog V) (N : Nat) {s0 t1 t2 : CState V}
    (hrf : RaceFreeB prog N s0) (hfit : BarriersFit prog N s0)
    (h1 : Reach prog N s0 t1) (h2 : Reach prog N s0 t2) (f1 : Final N t1) (f2 : Final N t2) :
    Same t1 t2 :=
  final_unique prog N (diamond_of_raceFreeB_fit prog N s0 hrf hfit) h1 h2 f1 f2

/-- `no_stuck` under `RaceFreeB`: if one execution finishes, no execution gets stuck. -/
theorem no_stuckB (prog : Prog V) (N : Nat) {s0 t1 t2 : CState V}
    (hrf : RaceFreeB prog N s0) (hfit : BarriersFit prog N s0)
    (h1 : Reach prog N s0 t1) (f1 : Final N t1) (h2 : Reach prog N s0 t2)
    (hs : ∀ v, Step prog N t2 v → False) : Final N t2 := by
  match confluent prog N (diamond_of_raceFreeB_fit prog N s0 hrf hfit) h1 t2 (Reach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    have e' : Same t1 t2 := same_trans (final_reach prog N f1 hu1)
      (same_trans e (same_symm (stuck_reach prog N hs hu2)))
    intro k hk
    rw [Eq.symm (e'.1 k)]
    exact f1 k hk

end Relaxed

section Epochs

variable {V : Type} [AccAdd V]

/-- `Ben` marks pairs of trace positions as benign; `BenSound` says what that must mean:
whenever some schedule brings thread `i` to a state matching its solo state `ki` and thread
`j` to one matching `kj`, in one epoch, both running, their next actions are writes of one
value to one address.  (The solo traces alone cannot tell: they read the initial memory.) -/
def BenSound (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (Ben : Nat → Nat → Nat → Nat → Bool) :
    Prop :=
  ∀ r, Reach prog N (init regs0 m0) r → ∀ i j ki kj, i ≠ j → i < N → j < N →
    (r.th i).status = Status.run → (r.th j).status = Status.run →
    TRel R i (r.th i) (solo prog regs0 m0 i ki) → TRel R j (r.th j) (solo prog regs0 m0 j kj) →
    bars prog regs0 m0 i ki = bars prog regs0 m0 j kj →
    Ben i ki j kj = true → EqWrites (act prog i r) (act prog j r)

/-- The relaxed epoch race: two different threads have conflicting actions in one epoch, and
the pair is not marked benign. -/
def EpochRaceB (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (Ben : Nat → Nat → Nat → Nat → Bool) : Prop :=
  ∃ i j ki kj, i ≠ j ∧ i < N ∧ j < N ∧
    Conflict (soloAct prog regs0 m0 i ki) (soloAct prog regs0 m0 j kj) ∧
    bars prog regs0 m0 i ki = bars prog regs0 m0 j kj ∧ Ben i ki j kj = false

/-- With nothing marked benign, the relaxed epoch race is `EpochRace`. -/
theorem epochRaceB_false (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    EpochRaceB prog N regs0 m0 (fun _ _ _ _ => false) ↔ EpochRace prog N regs0 m0 := by
  refine ⟨fun h => ?_, fun h => ?_⟩
  · match h with
    | ⟨i, j, ki, kj, hij, hi, hj, hc, hb, _⟩ => exact ⟨i, j, ki, kj, hij, hi, hj, hc, hb⟩
  · match h with
    | ⟨i, j, ki, kj, hij, hi, hj, hc, hb⟩ => exact ⟨i, j, ki, kj, hij, hi, hj, hc, hb, rfl⟩

/-- Nothing marked benign is trivially sound. -/
theorem benSound_false (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) :
    BenSound prog N regs0 m0 R (fun _ _ _ _ => false) :=
  fun _ _ _ _ _ _ _ _ _ _ _ _ _ _ hb => by cases hb

/-- A program whose traces have no relaxed race in one epoch, with a sound marking, is
relaxed race free in every schedule. -/
theorem raceFreeB_of_noEpochRaceB (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (Ben : Nat → Nat → Nat → Nat → Bool) (hben : BenSound prog N regs0 m0 R Ben)
    (hno : ¬EpochRaceB prog N regs0 m0 Ben) : RaceFreeB prog N (init regs0 m0) := by
  intro r hr i j hij hi hj hri hrj
  match inv_reach prog N regs0 m0 R hsync hind hR0 hr with
  | ⟨_, _, c, hth⟩ =>
    match (hth i hi).1 hri, (hth j hj).1 hrj with
    | ⟨ki, htri, hbi⟩, ⟨kj, htrj, hbj⟩ =>
      have hb : bars prog regs0 m0 i ki = bars prog regs0 m0 j kj := Eq.trans hbi (Eq.symm hbj)
      cases hB : Ben i ki j kj with
      | true => exact Or.inr (hben r hr i j ki kj hij hi hj hri hrj htri htrj hb hB)
      | false =>
        exact Or.inl (fun hc => hno ⟨i, j, ki, kj, hij, hi, hj,
          conflict_rel (actRel_of_trel prog hind htri) (actRel_of_trel prog hind htrj) hc, hb, hB⟩)

/-- `confluence` from the relaxed trace check: without a relaxed race in one epoch (with a
sound marking), any two complete executions from the launch end in the same state. -/
theorem confluence_epochB (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (Ben : Nat → Nat → Nat → Nat → Bool) (hben : BenSound prog N regs0 m0 R Ben)
    (hno : ¬EpochRaceB prog N regs0 m0 Ben) {t1 t2 : CState V}
    (h1 : Reach prog N (init regs0 m0) t1) (h2 : Reach prog N (init regs0 m0) t2)
    (f1 : Final N t1) (f2 : Final N t2) : Same t1 t2 :=
  confluenceB prog N (raceFreeB_of_noEpochRaceB prog N regs0 m0 R hsync hind hR0 Ben hben hno)
    (barriersFit_of_syncAll prog N _ hsync (fun _ => rfl)) h1 h2 f1 f2

/-- `no_stuck` from the relaxed trace check. -/
theorem no_stuck_epochB (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (Ben : Nat → Nat → Nat → Nat → Bool) (hben : BenSound prog N regs0 m0 R Ben)
    (hno : ¬EpochRaceB prog N regs0 m0 Ben) {t1 t2 : CState V}
    (h1 : Reach prog N (init regs0 m0) t1) (f1 : Final N t1)
    (h2 : Reach prog N (init regs0 m0) t2) (hs : ∀ v, Step prog N t2 v → False) : Final N t2 :=
  no_stuckB prog N (raceFreeB_of_noEpochRaceB prog N regs0 m0 R hsync hind hR0 Ben hben hno)
    (barriersFit_of_syncAll prog N _ hsync (fun _ => rfl)) h1 f1 h2 hs

/-- Both solo actions are writes to one address. -/
def sameAddrW : Act V → Act V → Bool
  | Act.write a _ _, Act.write c _ _ => decide (a = c)
  | Act.write _ _ _, Act.compute _ _ => false
  | Act.write _ _ _, Act.read _ _ _ => false
  | Act.write _ _ _, Act.atomAdd _ _ _ => false
  | Act.write _ _ _, Act.arrive _ _ _ _ => false
  | Act.write _ _ _, Act.exit => false
  | Act.compute _ _, _ => false
  | Act.read _ _ _, _ => false
  | Act.atomAdd _ _ _, _ => false
  | Act.arrive _ _ _ _, _ => false
  | Act.exit, _ => false

theorem sameAddrW_true {A B : Act V} (h : sameAddrW A B = true) :
    ∃ a v pa w pb, A = Act.write a v pa ∧ B = Act.write a w pb := by
  cases A with
  | write a v pa =>
    cases B with
    | write c w pb =>
      have e : a = c := of_decide_eq_true' h
      rw [e]
      exact ⟨c, v, pa, w, pb, rfl, rfl⟩
    | compute _ _ => cases h
    | read _ _ _ => cases h
    | atomAdd _ _ _ => cases h
    | arrive _ _ _ _ => cases h
    | exit => cases h
  | compute _ _ => cases h
  | read _ _ _ => cases h
  | atomAdd _ _ _ => cases h
  | arrive _ _ _ _ => cases h
  | exit => cases h

/-- An action related to a write is a write to the same address (the value may differ). -/
theorem actRel_write_right {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V}
    {A : Act V} {a : Nat} {v : V} {pc : Nat} (h : ActRel R r r' A (Act.write a v pc)) :
    ∃ v' pc', A = Act.write a v' pc' := by
  cases A with
  | write a' v' pc' =>
    have e : a' = a ∧ pc' = pc ∧ R pc' r r' := h
    rw [e.1]
    exact ⟨v', pc', rfl⟩
  | compute _ _ => exact False.elim h
  | read _ _ _ => exact False.elim h
  | atomAdd _ _ _ => exact False.elim h
  | arrive _ _ _ _ => exact False.elim h
  | exit => exact False.elim h

variable {W : Type} [DecidableEq W]

/-- One sufficient condition for a sound marking: every write stores, in every schedule, the
value `den (term i k)` fixed by the thread `i` and the trace position `k` its state matches
(for the executor, `term i k` would be the hash-consed term it computes). -/
def ValueIndep (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (term : Nat → Nat → W) (den : W → V) :
    Prop :=
  ∀ r, Reach prog N (init regs0 m0) r → ∀ i k a v pc, i < N → (r.th i).status = Status.run →
    TRel R i (r.th i) (solo prog regs0 m0 i k) → act prog i r = Act.write a v pc →
    v = den (term i k)

/-- The marking from terms: two solo writes to one address with equal terms. -/
def benOfTerms (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (term : Nat → Nat → W)
    (i ki j kj : Nat) : Bool :=
  sameAddrW (soloAct prog regs0 m0 i ki) (soloAct prog regs0 m0 j kj) &&
    decide (term i ki = term j kj)

/-- `ValueIndep` makes the marking by equal terms sound. -/
theorem valueIndep_benSound (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hind : DataIndep prog R)
    (term : Nat → Nat → W) (den : W → V) (hv : ValueIndep prog N regs0 m0 R term den) :
    BenSound prog N regs0 m0 R (benOfTerms prog regs0 m0 term) := by
  intro r hr i j ki kj _ hi hj hri hrj htri htrj _ hB
  match sameAddrW_true (and_left' hB) with
  | ⟨a, v1, p1, v2, p2, h1, h2⟩ =>
    have ri := actRel_of_trel prog hind htri
    have rj := actRel_of_trel prog hind htrj
    have ri' : ActRel (R i) (r.th i).regs (solo prog regs0 m0 i ki).regs (act prog i r)
        (Act.write a v1 p1) := by
      have e : soloAct prog regs0 m0 i ki = Act.write a v1 p1 := h1
      rw [← e]; exact ri
    have rj' : ActRel (R j) (r.th j).regs (solo prog regs0 m0 j kj).regs (act prog j r)
        (Act.write a v2 p2) := by
      have e : soloAct prog regs0 m0 j kj = Act.write a v2 p2 := h2
      rw [← e]; exact rj
    match actRel_write_right ri', actRel_write_right rj' with
    | ⟨u1, q1, e1⟩, ⟨u2, q2, e2⟩ =>
      have hu1 := hv r hr i ki a u1 q1 hi hri htri e1
      have hu2 := hv r hr j kj a u2 q2 hj hrj htrj e2
      have ht : term i ki = term j kj := of_decide_eq_true' (and_right' hB)
      rw [e1, e2]
      show a = a ∧ u1 = u2
      rw [hu1, hu2, ht]
      exact ⟨rfl, rfl⟩

end Epochs

end Sem
end Kcert
