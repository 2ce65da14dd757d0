import Kcert.Compat
import Kcert.Semantics
import Kcert.Clocks
import Kcert.Benign
import Kcert.Schedule

/-!
# A repair of the benign-write gap (the Rust's check since session 5)

`Race.benign_gap` (`Clocks.lean`) shows that `race.rs`'s `Shadow::access`, with benign
equal-value writes, misses a read (or an atomic) that a write of the same value cleared from
`reads` (`atomics`).  This file models one repair, `Shadow.accessK`: a write keeps `reads` and
`atomics` (each holds one entry per thread; entries ordered before an access are never
reported), and is otherwise `Shadow.access`.  `exec/race.rs` was changed to this in session 5
(unit test `a_same_value_write_still_meets_reads_ordered_before_the_write_it_skips`).

* `checkK_iff`: for every `same_value` decision `sv`, over a history whose threads are below
  `N`, the repaired check reports iff `SameEpochRaceB sv h` (some access meets an earlier
  conflicting access of another thread in its epoch, not a plain write if the later access is
  a benign write).  The old check has only the direction `checkB_sound`; `benign_gap` is the
  counterexample to the other, and `gapHist_checkK` shows the repair reports it;
  `checkK_of_checkB`: the repair only adds reports.
* `raceFreeB_of_checkK`, `canonical_checkK_sound`: end to end, under the hypothesis
  `FlagSound`: every pair of writes the check exempted (`Exempt`: the later of two writes of
  one epoch was benign) stores one value in every schedule that brings both threads to them.
  Then no report over a history of the solo traces holding all their accesses (the finished
  canonical run's) gives `Sem.RaceFreeB`, and with it `Sem.confluenceB`, `Sem.no_stuckB`.
  `FlagSound` is an assumption, and `race.rs`'s decision (equal to the value the cell holds,
  `cellSame`) does not give it in general: when thread 0 stores 1 then 2 and thread 1 stores 2,
  the pair (thread 0's first store, thread 1's store) is exempted with different values.
-/

namespace Kcert
namespace Race

open Sem (Act)

/-- `Shadow.access` with `reads` and `atomics` kept by a write. -/
def Shadow.accessK (s : Shadow) (c : Clocks) (now : Epoch) (write same_value : Bool) :
    Option (Epoch × Bool) × Shadow :=
  cond write
    (orOpt (orOpt (cond (write && same_value) none (tag true (s.unorderedWrite c now.tid)))
        (tag true (findL (unord c now.tid) s.atomics)))
      (tag false (findL (unord c now.tid) s.reads)),
      ⟨some now,
        cond (write && same_value)
          (pushO (filterL (unord c now.tid) s.same_writes) (findO (unord c now.tid) s.write)) [],
        s.reads, s.atomics⟩)
    (orOpt (cond (write && same_value) none (tag true (s.unorderedWrite c now.tid)))
        (tag true (findL (unord c now.tid) s.atomics)),
      ⟨s.write, s.same_writes, setFor now s.reads, s.atomics⟩)

section Run

variable {V : Type}

/-- `step` with `Shadow.accessK`. -/
def stepK (sv : List (Event V) → Nat → Nat → V → Bool) (h : List (Event V)) (s : RaceState) :
    Event V → RaceState
  | Event.barrier => ⟨s.clocks.barrierAll, s.shadow, s.found⟩
  | Event.act t (Act.read a _ _) =>
    s.record a ((s.shadow a).accessK s.clocks (s.clocks.epoch t) false false)
  | Event.act t (Act.write a v _) =>
    s.record a ((s.shadow a).accessK s.clocks (s.clocks.epoch t) true (sv h t a v))
  | Event.act t (Act.atomAdd a _ _) => s.record a ((s.shadow a).atomic s.clocks (s.clocks.epoch t))
  | Event.act _ (Act.compute _ _) => s
  | Event.act _ (Act.arrive _ _ _ _) => s
  | Event.act _ Act.exit => s

def runK (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) : List (Event V) → RaceState
  | [] => ⟨Clocks.new N, fun _ => Shadow.empty, false⟩
  | e :: h => stepK sv h (runK sv N h) e

def checkK (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) (h : List (Event V)) : Bool :=
  (runK sv N h).found

end Run

/-! ## Lists -/

theorem in_filterL_of {α : Type} {p : α → Bool} {x : α} (hx : p x = true) :
    ∀ {l : List α}, In x l → In x (filterL p l) := by
  intro l
  induction l with
  | nil => intro h; exact h
  | cons y l ih =>
    intro h
    have e : filterL p (y :: l) = cond (p y) (y :: filterL p l) (filterL p l) := rfl
    rw [e]
    cases h with
    | inl h => rw [h, hx]; exact Or.inl rfl
    | inr h =>
      cases p y with
      | true => exact Or.inr (ih h)
      | false => exact ih h

theorem in_snocL_left {α : Type} {x z : α} : ∀ {l : List α}, In x l → In x (snocL l z) := by
  intro l
  induction l with
  | nil => intro h; exact False.elim h
  | cons y l ih =>
    intro h
    show y = x ∨ In x (snocL l z)
    cases h with
    | inl h => exact Or.inl h
    | inr h => exact Or.inr (ih h)

theorem in_snocL_self {α : Type} (x : α) : ∀ l : List α, In x (snocL l x) := by
  intro l
  induction l with
  | nil => exact Or.inl rfl
  | cons y l ih => exact Or.inr ih

theorem in_pushO_left {α : Type} {x : α} {l : List α} (o : Option α) (h : In x l) :
    In x (pushO l o) := by
  cases o with
  | none => exact h
  | some y => exact in_snocL_left h

theorem in_pushO_some {α : Type} {x : α} (l : List α) : In x (pushO l (some x)) :=
  in_snocL_self x l

/-! ## The invariant -/

section Inv

variable {V : Type}

/-- The shadow record of `a` after `h` for the repaired check: each entry is an access of its
kind at its epoch; each read and atomic is represented by its thread's entry; and, as long as
no race was there (`¬SameEpochRaceB`), each write of the current epoch by its thread's entry
in `write` or `same_writes`. -/
def KInv (sv : List (Event V) → Nat → Nat → V → Bool) (h : List (Event V)) (a : Nat)
    (s : Shadow) : Prop :=
  (∀ e, s.write = some e → ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ IsW a A) ∧
  (∀ e, In e s.same_writes → ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ IsW a A) ∧
  (∀ e, In e s.reads → ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ IsR a A) ∧
  (∀ e, In e s.atomics → ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ IsA a A) ∧
  (∀ t A c, Occurs h t A c → IsR a A → ∃ e, In e s.reads ∧ e.tid = t ∧ c < e.clock) ∧
  (∀ t A c, Occurs h t A c → IsA a A → ∃ e, In e s.atomics ∧ e.tid = t ∧ c < e.clock) ∧
  (¬SameEpochRaceB sv h → ∀ t A, Occurs h t A (nbars h) → IsW a A →
    ∃ e, (s.write = some e ∨ In e s.same_writes) ∧ e.tid = t ∧ nbars h < e.clock)

def InvK (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) (h : List (Event V)) : Prop :=
  AtCount (runK sv N h).clocks N (nbars h) ∧ ∀ a, KInv sv h a ((runK sv N h).shadow a)

theorem lift_entry {h : List (Event V)} {u : Nat} {B : Act V} {P : Act V → Prop} {e : Epoch}
    (x : ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ P A) :
    ∃ c A, e.clock = c + 1 ∧ Occurs (Event.act u B :: h) e.tid A c ∧ P A :=
  match x with
  | ⟨c, A, hc, ho, hk⟩ => ⟨c, A, hc, Or.inr ho, hk⟩

theorem kInv_empty (sv : List (Event V) → Nat → Nat → V → Bool) (a : Nat) :
    KInv sv ([] : List (Event V)) a Shadow.empty := by
  refine ⟨?_, ?_, ?_, ?_, ?_, ?_, ?_⟩
  · intro e h; cases h
  · intro e h; exact False.elim h
  · intro e h; exact False.elim h
  · intro e h; exact False.elim h
  · intro t A c h; exact False.elim h
  · intro t A c h; exact False.elim h
  · intro _ t A h; exact False.elim h

theorem kInv_bar {sv : List (Event V) → Nat → Nat → V → Bool} {h : List (Event V)} {a : Nat}
    {s : Shadow} (hs : KInv sv h a s) : KInv sv (Event.barrier :: h) a s := by
  match hs with
  | ⟨h1, h2, h3, h4, h5, h6, _⟩ =>
    refine ⟨h1, h2, h3, h4, h5, h6, ?_⟩
    intro _ t A ho _
    have hl : nbars h + 1 ≤ nbars h := occurs_le (ho : Occurs h t A (nbars h + 1))
    exact False.elim (Nat.notSuccLeSelf _ hl)

theorem noRace_tail {sv : List (Event V) → Nat → Nat → V → Bool} {h : List (Event V)} {u : Nat}
    {B : Act V} (hno : ¬SameEpochRaceB sv (Event.act u B :: h)) : ¬SameEpochRaceB sv h :=
  fun r => hno (Or.inl r)

/-- An event that is no access to `a` keeps the invariant of `a`'s record. -/
theorem kInv_other {sv : List (Event V) → Nat → Nat → V → Bool} {h : List (Event V)} {a u : Nat}
    {B : Act V} {s : Shadow} (hs : KInv sv h a s) (hW : ¬IsW a B) (hR : ¬IsR a B)
    (hA : ¬IsA a B) : KInv sv (Event.act u B :: h) a s := by
  match hs with
  | ⟨h1, h2, h3, h4, h5, h6, h7⟩ =>
    refine ⟨fun e he => lift_entry (h1 e he), fun e he => lift_entry (h2 e he),
      fun e he => lift_entry (h3 e he), fun e he => lift_entry (h4 e he), ?_, ?_, ?_⟩
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim (hR hk)
      | inr ho => exact h5 t A c ho hk
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim (hA hk)
      | inr ho => exact h6 t A c ho hk
    · intro hno t A ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim (hW hk)
      | inr ho => exact h7 (noRace_tail hno) t A ho hk

theorem kInv_read {sv : List (Event V) → Nat → Nat → V → Bool} {h : List (Event V)}
    {a u r pc : Nat} {s : Shadow} {now : Epoch} (hnow : now = ⟨u, nbars h + 1⟩)
    (hs : KInv sv h a s) :
    KInv sv (Event.act u (Act.read a r pc) :: h) a
      ⟨s.write, s.same_writes, setFor now s.reads, s.atomics⟩ := by
  match hs with
  | ⟨h1, h2, h3, h4, h5, h6, h7⟩ =>
    refine ⟨fun e he => lift_entry (h1 e he), fun e he => lift_entry (h2 e he), ?_,
      fun e he => lift_entry (h4 e he), ?_, ?_, ?_⟩
    · intro e he
      cases in_setFor s.reads he with
      | inl he =>
        rw [he, hnow]
        exact ⟨nbars h, Act.read a r pc, rfl, Or.inl ⟨rfl, rfl, rfl⟩, (rfl : a = a)⟩
      | inr he => exact lift_entry (h3 e he)
    · intro t A c ho hk
      cases ho with
      | inl ho =>
        refine ⟨now, in_setFor_now now s.reads, by rw [hnow]; exact ho.1, ?_⟩
        rw [hnow, ← ho.2.2]; exact Nat.ltSuccSelf _
      | inr ho =>
        match h5 t A c ho hk with
        | ⟨e, hin, het, hlt⟩ =>
          cases Nat.decEq t u with
          | isTrue etu =>
            refine ⟨now, in_setFor_now now s.reads, by rw [hnow, etu], ?_⟩
            rw [hnow]; exact lt_succ_of_occurs ho
          | isFalse etu =>
            refine ⟨e, in_setFor_other now ?_ s.reads hin, het, hlt⟩
            rw [het, hnow]; exact etu
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h6 t A c ho hk
    · intro hno t A ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h7 (noRace_tail hno) t A ho hk

theorem kInv_atomic {sv : List (Event V) → Nat → Nat → V → Bool} {h : List (Event V)}
    {a u : Nat} {v : V} {pc : Nat} {s : Shadow} {now : Epoch} (hnow : now = ⟨u, nbars h + 1⟩)
    (hs : KInv sv h a s) :
    KInv sv (Event.act u (Act.atomAdd a v pc) :: h) a
      ⟨s.write, s.same_writes, s.reads, setFor now s.atomics⟩ := by
  match hs with
  | ⟨h1, h2, h3, h4, h5, h6, h7⟩ =>
    refine ⟨fun e he => lift_entry (h1 e he), fun e he => lift_entry (h2 e he),
      fun e he => lift_entry (h3 e he), ?_, ?_, ?_, ?_⟩
    · intro e he
      cases in_setFor s.atomics he with
      | inl he =>
        rw [he, hnow]
        exact ⟨nbars h, Act.atomAdd a v pc, rfl, Or.inl ⟨rfl, rfl, rfl⟩, (rfl : a = a)⟩
      | inr he => exact lift_entry (h4 e he)
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h5 t A c ho hk
    · intro t A c ho hk
      cases ho with
      | inl ho =>
        refine ⟨now, in_setFor_now now s.atomics, by rw [hnow]; exact ho.1, ?_⟩
        rw [hnow, ← ho.2.2]; exact Nat.ltSuccSelf _
      | inr ho =>
        match h6 t A c ho hk with
        | ⟨e, hin, het, hlt⟩ =>
          cases Nat.decEq t u with
          | isTrue etu =>
            refine ⟨now, in_setFor_now now s.atomics, by rw [hnow, etu], ?_⟩
            rw [hnow]; exact lt_succ_of_occurs ho
          | isFalse etu =>
            refine ⟨e, in_setFor_other now ?_ s.atomics hin, het, hlt⟩
            rw [het, hnow]; exact etu
    · intro hno t A ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h7 (noRace_tail hno) t A ho hk

theorem kInv_write {sv : List (Event V) → Nat → Nat → V → Bool} {N : Nat} {h : List (Event V)}
    {a u : Nat} {v : V} {pc : Nat} {s : Shadow} {c : Clocks} (hc : AtCount c N (nbars h))
    (hT : TidsBelow N h) (hu : u < N) (hs : KInv sv h a s) :
    KInv sv (Event.act u (Act.write a v pc) :: h) a
      ⟨some (c.epoch u),
        cond (sv h u a v)
          (pushO (filterL (unord c u) s.same_writes) (findO (unord c u) s.write)) [],
        s.reads, s.atomics⟩ := by
  have hnow : c.epoch u = ⟨u, nbars h + 1⟩ := epoch_clock hc hu
  match hs with
  | ⟨h1, h2, h3, h4, h5, h6, h7⟩ =>
    refine ⟨?_, ?_, fun e he => lift_entry (h3 e he), fun e he => lift_entry (h4 e he),
      ?_, ?_, ?_⟩
    · intro e he
      cases he
      rw [hnow]
      exact ⟨nbars h, Act.write a v pc, rfl, Or.inl ⟨rfl, rfl, rfl⟩, (rfl : a = a)⟩
    · intro e hin
      cases hb : sv h u a v with
      | false => rw [hb] at hin; exact False.elim hin
      | true =>
        rw [hb] at hin
        have hin' : In e (pushO (filterL (unord c u) s.same_writes) (findO (unord c u) s.write)) :=
          hin
        cases in_pushO hin' with
        | inl hl => exact lift_entry (h2 e (in_filterL hl))
        | inr ho => exact lift_entry (h1 e (findO_some ho).1)
    · intro t A c' ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h5 t A c' ho hk
    · intro t A c' ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h6 t A c' ho hk
    · intro hno t A ho hk
      have hme : ∃ e, (some (c.epoch u) = some e ∨ In e (cond (sv h u a v)
          (pushO (filterL (unord c u) s.same_writes) (findO (unord c u) s.write)) [])) ∧
          e.tid = u ∧ nbars h < e.clock :=
        ⟨c.epoch u, Or.inl rfl, by rw [hnow], by rw [hnow]; exact Nat.ltSuccSelf _⟩
      cases ho with
      | inl ho => rw [← ho.1]; exact hme
      | inr ho =>
        cases Nat.decEq t u with
        | isTrue etu => rw [etu]; exact hme
        | isFalse etu =>
          match h7 (noRace_tail hno) t A ho hk with
          | ⟨e, hin, het, hlt⟩ =>
            cases hb : sv h u a v with
            | false =>
              exact False.elim (hno (Or.inr ⟨t, A, etu, ho, conf_W hk (Or.inl rfl),
                fun hf => by
                  have hf' : sv h u a v = true := hf
                  rw [hb] at hf'
                  cases hf'⟩))
            | true =>
              have hent : ∃ c0 A', e.clock = c0 + 1 ∧ Occurs h e.tid A' c0 ∧ IsW a A' := by
                cases hin with
                | inl hw => exact h1 e hw
                | inr hw => exact h2 e hw
              match hent with
              | ⟨c0, A', _, ho', _⟩ =>
                have hun : unord c u e = true :=
                  unord_of hc (hT _ _ _ ho') hu (by rw [het]; exact etu) hlt
                refine ⟨e, Or.inr ?_, het, hlt⟩
                show In e (pushO (filterL (unord c u) s.same_writes) (findO (unord c u) s.write))
                cases hin with
                | inl hw => rw [findO_of hw hun]; exact in_pushO_some _
                | inr hw => exact in_pushO_left _ (in_filterL_of hun hw)

theorem inv_stepK {sv : List (Event V) → Nat → Nat → V → Bool} {N : Nat} {h : List (Event V)}
    (e : Event V) (hI : InvK sv N h) (hT : TidsBelow N (e :: h)) : InvK sv N (e :: h) := by
  match hI with
  | ⟨hc, hs⟩ =>
    cases e with
    | barrier => exact ⟨atCount_barrierAll hc, fun a => kInv_bar (hs a)⟩
    | act u B =>
      have hu : u < N := hT u B (nbars h) (Or.inl ⟨rfl, rfl, rfl⟩)
      have hT' : TidsBelow N h := tidsBelow_tail hT
      have hnow : (runK sv N h).clocks.epoch u = ⟨u, nbars h + 1⟩ := epoch_clock hc hu
      cases B with
      | compute pc r =>
        exact ⟨hc, fun a => kInv_other (hs a) (fun x => x) (fun x => x) (fun x => x)⟩
      | arrive b n w pc =>
        exact ⟨hc, fun a => kInv_other (hs a) (fun x => x) (fun x => x) (fun x => x)⟩
      | exit =>
        exact ⟨hc, fun a => kInv_other (hs a) (fun x => x) (fun x => x) (fun x => x)⟩
      | read x r pc =>
        refine ⟨hc, fun a => ?_⟩
        have e1 : (runK sv N (Event.act u (Act.read x r pc) :: h)).shadow a =
            Sem.upd (runK sv N h).shadow x (((runK sv N h).shadow x).accessK (runK sv N h).clocks
              ((runK sv N h).clocks.epoch u) false false).2 a := rfl
        rw [e1]
        cases Nat.decEq a x with
        | isTrue e => rw [e, Sem.upd_same]; exact kInv_read hnow (hs x)
        | isFalse e =>
          rw [Sem.upd_other _ _ e]
          exact kInv_other (hs a) (fun x => x) (fun hh => e (Eq.symm hh)) (fun x => x)
      | write x v pc =>
        refine ⟨hc, fun a => ?_⟩
        have e1 : (runK sv N (Event.act u (Act.write x v pc) :: h)).shadow a =
            Sem.upd (runK sv N h).shadow x (((runK sv N h).shadow x).accessK (runK sv N h).clocks
              ((runK sv N h).clocks.epoch u) true (sv h u x v)).2 a := rfl
        rw [e1]
        cases Nat.decEq a x with
        | isTrue e => rw [e, Sem.upd_same]; exact kInv_write hc hT' hu (hs x)
        | isFalse e =>
          rw [Sem.upd_other _ _ e]
          exact kInv_other (hs a) (fun hh => e (Eq.symm hh)) (fun x => x) (fun x => x)
      | atomAdd x v pc =>
        refine ⟨hc, fun a => ?_⟩
        have e1 : (runK sv N (Event.act u (Act.atomAdd x v pc) :: h)).shadow a =
            Sem.upd (runK sv N h).shadow x (((runK sv N h).shadow x).atomic (runK sv N h).clocks
              ((runK sv N h).clocks.epoch u)).2 a := rfl
        rw [e1]
        cases Nat.decEq a x with
        | isTrue e => rw [e, Sem.upd_same]; exact kInv_atomic hnow (hs x)
        | isFalse e =>
          rw [Sem.upd_other _ _ e]
          exact kInv_other (hs a) (fun x => x) (fun x => x) (fun hh => e (Eq.symm hh))

end Inv

/-! ## The repaired check decides `SameEpochRaceB` -/

section Decide

variable {V : Type}

theorem uw_of_entry {s : Shadow} {c : Clocks} {u : Nat} {e : Epoch}
    (hin : s.write = some e ∨ In e s.same_writes) (hun : unord c u e = true) :
    ∃ e', s.unorderedWrite c u = some e' := by
  cases hin with
  | inl hw => exact orOpt_left _ (findO_of hw hun)
  | inr hw =>
    match findL_of hw hun with
    | ⟨y, hy⟩ => exact orOpt_right _ hy

/-- Without an earlier race, an access of another thread in the current epoch is found by the
search that its kind calls for. -/
theorem completeK {sv : List (Event V) → Nat → Nat → V → Bool} {N : Nat} {h : List (Event V)}
    {a : Nat} {s : Shadow} {c : Clocks} {u j : Nat} {A : Act V} (hsh : KInv sv h a s)
    (hc : AtCount c N (nbars h)) (hT : TidsBelow N h) (hu : u < N)
    (hno : ¬SameEpochRaceB sv h) (hju : j ≠ u) (ho : Occurs h j A (nbars h)) :
    (IsW a A → ∃ e, s.unorderedWrite c u = some e) ∧
    (IsR a A → ∃ e, findL (unord c u) s.reads = some e) ∧
    (IsA a A → ∃ e, findL (unord c u) s.atomics = some e) := by
  have hj : j < N := hT _ _ _ ho
  refine ⟨fun hW => ?_, fun hR => ?_, fun hA => ?_⟩
  · match hsh.2.2.2.2.2.2 hno j A ho hW with
    | ⟨e, hin, het, hlt⟩ =>
      exact uw_of_entry hin (unord_of hc (by rw [het]; exact hj) hu (by rw [het]; exact hju) hlt)
  · match hsh.2.2.2.2.1 j A (nbars h) ho hR with
    | ⟨e, hin, het, hlt⟩ =>
      exact findL_of hin (unord_of hc (by rw [het]; exact hj) hu (by rw [het]; exact hju) hlt)
  · match hsh.2.2.2.2.2.1 j A (nbars h) ho hA with
    | ⟨e, hin, het, hlt⟩ =>
      exact findL_of hin (unord_of hc (by rw [het]; exact hj) hu (by rw [het]; exact hju) hlt)

/-- One access event of the repaired check: it reports iff it did already or `NewPairB`
(the latter needed only when no race was there before). -/
theorem found_consK {sv : List (Event V) → Nat → Nat → V → Bool} {N : Nat} {h : List (Event V)}
    {u : Nat} {B : Act V} (hI : InvK sv N h) (hT : TidsBelow N (Event.act u B :: h)) :
    (checkK sv N (Event.act u B :: h) = true → checkK sv N h = true ∨ NewPairB sv h u B) ∧
    (¬SameEpochRaceB sv h → NewPairB sv h u B → checkK sv N (Event.act u B :: h) = true) := by
  match hI with
  | ⟨hc, hs⟩ =>
    have hu : u < N := hT u B (nbars h) (Or.inl ⟨rfl, rfl, rfl⟩)
    have hT' : TidsBelow N h := tidsBelow_tail hT
    have wfound : ∀ x e, ((runK sv N h).shadow x).unorderedWrite (runK sv N h).clocks u = some e →
        e.tid ≠ u ∧ ∃ A', Occurs h e.tid A' (nbars h) ∧ IsW x A' := by
      intro x e he
      match uw_some he with
      | ⟨hin, hun⟩ =>
        have hwr : ∃ c0 A', e.clock = c0 + 1 ∧ Occurs h e.tid A' c0 ∧ IsW x A' := by
          cases hin with
          | inl h1 => exact (hs x).1 e h1
          | inr h1 => exact (hs x).2.1 e h1
        match hwr with
        | ⟨c0, A', hcl, ho', hW'⟩ =>
          match sound_entry hc hT' hu hcl ho' hun with
          | ⟨hne, ho''⟩ => exact ⟨hne, A', ho'', hW'⟩
    have rfound : ∀ x (e : Epoch × Bool),
        tag false (findL (unord (runK sv N h).clocks u) ((runK sv N h).shadow x).reads) = some e →
        e.1.tid ≠ u ∧ ∃ A', Occurs h e.1.tid A' (nbars h) ∧ IsR x A' := by
      intro x e he
      match findL_some (tag_some he) with
      | ⟨hin, hun⟩ =>
        match (hs x).2.2.1 e.1 hin with
        | ⟨c0, A', hcl, ho', hR'⟩ =>
          match sound_entry hc hT' hu hcl ho' hun with
          | ⟨hne, ho''⟩ => exact ⟨hne, A', ho'', hR'⟩
    have afound : ∀ x (e : Epoch × Bool),
        tag true (findL (unord (runK sv N h).clocks u) ((runK sv N h).shadow x).atomics) = some e →
        e.1.tid ≠ u ∧ ∃ A', Occurs h e.1.tid A' (nbars h) ∧ IsA x A' := by
      intro x e he
      match findL_some (tag_some he) with
      | ⟨hin, hun⟩ =>
        match (hs x).2.2.2.1 e.1 hin with
        | ⟨c0, A', hcl, ho', hA'⟩ =>
          match sound_entry hc hT' hu hcl ho' hun with
          | ⟨hne, ho''⟩ => exact ⟨hne, A', ho'', hA'⟩
    cases B with
    | compute pc r =>
      exact ⟨fun hx => Or.inl hx, fun _ np => match np with
        | ⟨_, _, _, _, hcf, _⟩ => False.elim (not_conf_compute hcf)⟩
    | arrive b n w pc =>
      exact ⟨fun hx => Or.inl hx, fun _ np => match np with
        | ⟨_, _, _, _, hcf, _⟩ => False.elim (not_conf_arrive hcf)⟩
    | exit =>
      exact ⟨fun hx => Or.inl hx, fun _ np => match np with
        | ⟨_, _, _, _, hcf, _⟩ => False.elim (not_conf_exit hcf)⟩
    | read x r pc =>
      have ec : checkK sv N (Event.act u (Act.read x r pc) :: h) = ((runK sv N h).found ||
          (orOpt (tag true (((runK sv N h).shadow x).unorderedWrite (runK sv N h).clocks u))
            (tag true (findL (unord (runK sv N h).clocks u) ((runK sv N h).shadow x).atomics))).isSome) :=
        rfl
      rw [ec]
      refine ⟨fun hx => ?_, fun hno np => ?_⟩
      · cases or_cases' hx with
        | inl hx => exact Or.inl hx
        | inr hx =>
          match isSome_cases hx with
          | ⟨p, hp⟩ =>
            cases orOpt_some hp with
            | inl hp =>
              match wfound x p.1 (tag_some hp) with
              | ⟨hne, A', ho'', hW'⟩ =>
                exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_W hW' (Or.inr (Or.inl rfl)),
                  fun hf => by cases hf⟩
            | inr hp =>
              match afound x p hp with
              | ⟨hne, A', ho'', hA'⟩ =>
                exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_A hA' (Or.inr rfl),
                  fun hf => by cases hf⟩
      · match np with
        | ⟨j, A, hju, hoj, hcf, _⟩ =>
          have hk := completeK (hs x) hc hT' hu hno hju hoj
          apply or_isSome
          cases kinds_read hcf with
          | inl hW =>
            match hk.1 hW with
            | ⟨e, he⟩ => exact orOpt_left _ (tag_of true he)
          | inr hA =>
            match hk.2.2 hA with
            | ⟨e, he⟩ => exact orOpt_right _ (tag_of true he)
    | write x v pc =>
      have ec : checkK sv N (Event.act u (Act.write x v pc) :: h) = ((runK sv N h).found ||
          (orOpt (orOpt (cond (sv h u x v) none
                (tag true (((runK sv N h).shadow x).unorderedWrite (runK sv N h).clocks u)))
              (tag true (findL (unord (runK sv N h).clocks u) ((runK sv N h).shadow x).atomics)))
            (tag false (findL (unord (runK sv N h).clocks u) ((runK sv N h).shadow x).reads))).isSome) :=
        rfl
      rw [ec]
      have hB : IsW x (Act.write x v pc) ∨ IsR x (Act.write x v pc) ∨ IsA x (Act.write x v pc) :=
        Or.inl (rfl : x = x)
      refine ⟨fun hx => ?_, fun hno np => ?_⟩
      · cases or_cases' hx with
        | inl hx => exact Or.inl hx
        | inr hx =>
          match isSome_cases hx with
          | ⟨p, hp⟩ =>
            cases orOpt_some hp with
            | inl hp =>
              cases orOpt_some hp with
              | inl hp =>
                cases hb : sv h u x v with
                | true =>
                  have hp' : (none : Option (Epoch × Bool)) = some p := by rw [hb] at hp; exact hp
                  cases hp'
                | false =>
                  have hp' : tag true (((runK sv N h).shadow x).unorderedWrite
                      (runK sv N h).clocks u) = some p := by rw [hb] at hp; exact hp
                  match wfound x p.1 (tag_some hp') with
                  | ⟨hne, A', ho'', hW'⟩ =>
                    refine Or.inr ⟨p.1.tid, A', hne, ho'', conf_W hW' hB, fun hf => ?_⟩
                    have hf' : sv h u x v = true := hf
                    rw [hb] at hf'
                    cases hf'
              | inr hp =>
                match afound x p hp with
                | ⟨hne, A', ho'', hA'⟩ =>
                  exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_A hA' (Or.inl rfl),
                    fun _ b => notW_of_A hA'⟩
            | inr hp =>
              match rfound x p hp with
              | ⟨hne, A', ho'', hR'⟩ =>
                exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_R hR' (Or.inl rfl),
                  fun _ b => notW_of_R hR'⟩
      · match np with
        | ⟨j, A, hju, hoj, hcf, hfl⟩ =>
          have hk := completeK (hs x) hc hT' hu hno hju hoj
          cases kinds_write hcf with
          | inl hW =>
            cases hb : sv h u x v with
            | true => exact False.elim (hfl hb x hW)
            | false =>
              apply or_isSome
              match hk.1 hW with
              | ⟨e, he⟩ => exact orOpt_left2 (tag_of true he)
          | inr hk2 =>
            apply or_isSome
            cases hk2 with
            | inl hR =>
              match hk.2.1 hR with
              | ⟨e, he⟩ => exact orOpt_right _ (tag_of false he)
            | inr hA =>
              match hk.2.2 hA with
              | ⟨e, he⟩ => exact orOpt_mid (tag_of true he)
    | atomAdd x v pc =>
      have ec : checkK sv N (Event.act u (Act.atomAdd x v pc) :: h) = ((runK sv N h).found ||
          (orOpt (tag true (((runK sv N h).shadow x).unorderedWrite (runK sv N h).clocks u))
            (tag false (findL (unord (runK sv N h).clocks u) ((runK sv N h).shadow x).reads))).isSome) :=
        rfl
      rw [ec]
      have hB : IsW x (Act.atomAdd x v pc) ∨ IsR x (Act.atomAdd x v pc) ∨
          IsA x (Act.atomAdd x v pc) := Or.inr (Or.inr (rfl : x = x))
      refine ⟨fun hx => ?_, fun hno np => ?_⟩
      · cases or_cases' hx with
        | inl hx => exact Or.inl hx
        | inr hx =>
          match isSome_cases hx with
          | ⟨p, hp⟩ =>
            cases orOpt_some hp with
            | inl hp =>
              match wfound x p.1 (tag_some hp) with
              | ⟨hne, A', ho'', hW'⟩ =>
                exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_W hW' hB, fun hf => by cases hf⟩
            | inr hp =>
              match rfound x p hp with
              | ⟨hne, A', ho'', hR'⟩ =>
                exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_R hR' (Or.inr rfl),
                  fun hf => by cases hf⟩
      · match np with
        | ⟨j, A, hju, hoj, hcf, _⟩ =>
          have hk := completeK (hs x) hc hT' hu hno hju hoj
          apply or_isSome
          cases kinds_atomic hcf with
          | inl hW =>
            match hk.1 hW with
            | ⟨e, he⟩ => exact orOpt_left _ (tag_of true he)
          | inr hR =>
            match hk.2.1 hR with
            | ⟨e, he⟩ => exact orOpt_right _ (tag_of false he)

theorem checkK_mono {sv : List (Event V) → Nat → Nat → V → Bool} {N : Nat} {h : List (Event V)}
    (e : Event V) (hc : checkK sv N h = true) : checkK sv N (e :: h) = true := by
  cases e with
  | barrier => exact hc
  | act u B =>
    cases B with
    | compute pc r => exact hc
    | arrive b n w pc => exact hc
    | exit => exact hc
    | read x r pc => exact or_left' _ hc
    | write x v pc => exact or_left' _ hc
    | atomAdd x v pc => exact or_left' _ hc

theorem checkK_iff_gen (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) :
    ∀ h : List (Event V), TidsBelow N h →
      InvK sv N h ∧ (checkK sv N h = true ↔ SameEpochRaceB sv h) := by
  intro h
  induction h with
  | nil =>
    intro _
    refine ⟨⟨atCount_new N, fun a => kInv_empty sv a⟩, fun hx => ?_, fun hr => False.elim hr⟩
    cases hx
  | cons e h ih =>
    intro hT
    match ih (tidsBelow_tail hT) with
    | ⟨hI, hiff⟩ =>
      refine ⟨inv_stepK e hI hT, ?_⟩
      cases e with
      | barrier => exact hiff
      | act u B =>
        refine ⟨fun hx => ?_, fun hr => ?_⟩
        · cases (found_consK hI hT).1 hx with
          | inl hx => exact Or.inl (hiff.1 hx)
          | inr np => exact Or.inr np
        · cases hr with
          | inl hr => exact checkK_mono _ (hiff.2 hr)
          | inr np =>
            cases hf : checkK sv N h with
            | true => exact checkK_mono _ hf
            | false =>
              have hno : ¬SameEpochRaceB sv h := fun r => by
                have e' := Eq.trans (Eq.symm (hiff.2 r)) hf
                cases e'
              exact (found_consK hI hT).2 hno np

/-- The repaired check decides its race: for every `same_value` decision `sv`, over a history
whose threads are below `N`, it reports iff some access meets an earlier conflicting access of
another thread in its epoch that is not a plain write when the later access is a benign
write. -/
theorem checkK_iff (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) (h : List (Event V))
    (hT : TidsBelow N h) : checkK sv N h = true ↔ SameEpochRaceB sv h :=
  (checkK_iff_gen sv N h hT).2

/-- The repair only adds reports: whatever `race.rs`'s check reports, the repaired one does. -/
theorem checkK_of_checkB (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat)
    (h : List (Event V)) (hT : TidsBelow N h) (hc : checkB sv N h = true) :
    checkK sv N h = true :=
  (checkK_iff sv N h hT).2 (checkB_sound sv N h hT hc)

end Decide


/-! ## End to end, under a hypothesis on the `same_value` decisions -/

section EndToEnd

variable {V : Type} [Sem.AccAdd V]

/-- In history `h`, thread `i`'s action `A` and thread `j`'s action `B` are a pair of writes in
one epoch that the check exempted: the later one was a benign write (`sameFlag`), the earlier a
plain write of the same epoch. -/
def Exempt (sv : List (Event V) → Nat → Nat → V → Bool) :
    List (Event V) → Nat → Act V → Nat → Act V → Prop
  | [], _, _, _, _ => False
  | Event.barrier :: h, i, A, j, B => Exempt sv h i A j B
  | Event.act u C :: h, i, A, j, B => Exempt sv h i A j B ∨
      (u = j ∧ C = B ∧ Occurs h i A (nbars h) ∧ (∃ a, IsW a A) ∧ sameFlag sv h u C = true) ∨
      (u = i ∧ C = A ∧ Occurs h j B (nbars h) ∧ (∃ a, IsW a B) ∧ sameFlag sv h u C = true)

theorem addr_dec (a c : Nat) : a = c ∨ ¬a = c :=
  match Nat.decEq a c with
  | isTrue e => Or.inl e
  | isFalse e => Or.inr e

/-- Whether two actions conflict is decided by their kinds and addresses. -/
theorem conflict_dec (A B : Act V) : Sem.Conflict A B ∨ ¬Sem.Conflict A B := by
  cases A with
  | compute _ _ => exact Or.inr (fun h => h)
  | arrive _ _ _ _ => exact Or.inr (fun h => h)
  | exit => exact Or.inr (fun h => h)
  | read a _ _ =>
    cases B with
    | write c _ _ => exact addr_dec a c
    | atomAdd c _ _ => exact addr_dec a c
    | read _ _ _ => exact Or.inr (fun h => h)
    | compute _ _ => exact Or.inr (fun h => h)
    | arrive _ _ _ _ => exact Or.inr (fun h => h)
    | exit => exact Or.inr (fun h => h)
  | write a _ _ =>
    cases B with
    | write c _ _ => exact addr_dec a c
    | atomAdd c _ _ => exact addr_dec a c
    | read c _ _ => exact addr_dec a c
    | compute _ _ => exact Or.inr (fun h => h)
    | arrive _ _ _ _ => exact Or.inr (fun h => h)
    | exit => exact Or.inr (fun h => h)
  | atomAdd a _ _ =>
    cases B with
    | write c _ _ => exact addr_dec a c
    | read c _ _ => exact addr_dec a c
    | atomAdd _ _ _ => exact Or.inr (fun h => h)
    | compute _ _ => exact Or.inr (fun h => h)
    | arrive _ _ _ _ => exact Or.inr (fun h => h)
    | exit => exact Or.inr (fun h => h)

theorem isW_dec (B : Act V) : (∃ a, IsW a B) ∨ ∀ a, IsW a B → False := by
  cases B with
  | write a _ _ => exact Or.inl ⟨a, rfl⟩
  | read _ _ _ => exact Or.inr (fun _ h => h)
  | atomAdd _ _ _ => exact Or.inr (fun _ h => h)
  | compute _ _ => exact Or.inr (fun _ h => h)
  | arrive _ _ _ _ => exact Or.inr (fun _ h => h)
  | exit => exact Or.inr (fun _ h => h)

/-- The later action `C` of thread `u` against an earlier conflicting action `B` of thread
`j ≠ u` in the current epoch: a `NewPairB`, or an exempted pair of writes. -/
theorem newPair_or_exempt (sv : List (Event V) → Nat → Nat → V → Bool) {h : List (Event V)}
    {u j : Nat} {B C : Act V} (hju : j ≠ u) (ho : Occurs h j B (nbars h))
    (hcf : Sem.Conflict B C) :
    NewPairB sv h u C ∨ ((∃ a, IsW a B) ∧ sameFlag sv h u C = true) := by
  cases hf : sameFlag sv h u C with
  | false => exact Or.inl ⟨j, B, hju, ho, hcf, fun hf' => by rw [hf] at hf'; cases hf'⟩
  | true =>
    cases isW_dec B with
    | inl hw => exact Or.inr ⟨hw, rfl⟩
    | inr hn => exact Or.inl ⟨j, B, hju, ho, hcf, fun _ a hW => hn a hW⟩

/-- Two conflicting actions of different threads in one epoch of a history: a race the check
decides (`SameEpochRaceB`), or a pair of writes it exempted. -/
theorem pair_cases (sv : List (Event V) → Nat → Nat → V → Bool) {i j : Nat} {A B : Act V}
    {c : Nat} (hij : i ≠ j) (hcf : Sem.Conflict A B) :
    ∀ h : List (Event V), Occurs h i A c → Occurs h j B c →
      SameEpochRaceB sv h ∨ Exempt sv h i A j B := by
  intro h
  induction h with
  | nil => intro ho; exact False.elim ho
  | cons e h ih =>
    cases e with
    | barrier => exact ih
    | act u C =>
      intro hoi hoj
      cases hoi with
      | inl hi =>
        cases hoj with
        | inl hj => exact False.elim (hij (Eq.trans (Eq.symm hi.1) hj.1))
        | inr hj =>
          -- the later action is `A`, by `i = u`
          have hj' : Occurs h j B (nbars h) := by rw [hi.2.2]; exact hj
          have hju : j ≠ u := fun e => hij (Eq.trans (Eq.symm hi.1) (Eq.symm e))
          have hcf' : Sem.Conflict B C := by rw [hi.2.1]; exact Sem.conflict_symm _ _ hcf
          cases newPair_or_exempt sv hju hj' hcf' with
          | inl np => exact Or.inl (Or.inr np)
          | inr ex => exact Or.inr (Or.inr (Or.inr ⟨hi.1, hi.2.1, hj', ex.1, ex.2⟩))
      | inr hi =>
        cases hoj with
        | inl hj =>
          -- the later action is `B`, by `j = u`
          have hi' : Occurs h i A (nbars h) := by rw [hj.2.2]; exact hi
          have hiu : i ≠ u := fun e => hij (Eq.trans e hj.1)
          have hcf' : Sem.Conflict A C := by rw [hj.2.1]; exact hcf
          cases newPair_or_exempt sv hiu hi' hcf' with
          | inl np => exact Or.inl (Or.inr np)
          | inr ex => exact Or.inr (Or.inr (Or.inl ⟨hj.1, hj.2.1, hi', ex.1, ex.2⟩))
        | inr hj =>
          cases ih hi hj with
          | inl r => exact Or.inl (Or.inl r)
          | inr ex => exact Or.inr (Or.inl ex)

/-- The hypothesis on the `same_value` decisions: every pair of writes of the solo traces that
the check exempted over the history `h` (the later a benign write) stores one value whenever a
schedule brings both threads to those actions (states matching the solo states, one epoch,
both running).  `race.rs`'s decision (equal to the value the cell holds, `cellSame`) does not
guarantee it in general: see the README (thread 0 stores 1 then 2, thread 1 stores 2). -/
def FlagSound (sv : List (Event V) → Nat → Nat → V → Bool) (prog : Sem.Prog V) (N : Nat)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (h : List (Event V)) : Prop :=
  ∀ i j ki kj, Exempt sv h i (Sem.soloAct prog regs0 m0 i ki) j (Sem.soloAct prog regs0 m0 j kj) →
    ∀ r, Sem.Reach prog N (Sem.init regs0 m0) r → i ≠ j → i < N → j < N →
      (r.th i).status = Sem.Status.run → (r.th j).status = Sem.Status.run →
      Sem.TRel R i (r.th i) (Sem.solo prog regs0 m0 i ki) →
      Sem.TRel R j (r.th j) (Sem.solo prog regs0 m0 j kj) →
      Sem.bars prog regs0 m0 i ki = Sem.bars prog regs0 m0 j kj →
      Sem.EqWrites (Sem.act prog i r) (Sem.act prog j r)

/-- End to end for the repaired check: over a history of the solo traces holding all their
accesses, no report and sound `same_value` decisions (`FlagSound`) give relaxed race freedom
(`Sem.RaceFreeB`) in every schedule of a `SyncAll`, `DataIndep` program. -/
theorem raceFreeB_of_checkK (sv : List (Event V) → Nat → Nat → V → Bool) (prog : Sem.Prog V)
    (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : Sem.SyncAll prog N)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (h : List (Event V))
    (hF : FromTraces prog N regs0 m0 h) (hH : HoldsAccesses prog N regs0 m0 h)
    (hfl : FlagSound sv prog N regs0 m0 R h) (hc : checkK sv N h = false) :
    Sem.RaceFreeB prog N (Sem.init regs0 m0) := by
  have hT : TidsBelow N h := fun t A c ho => (hF t A c ho).1
  intro r hr i j hij hi hj hri hrj
  match Sem.inv_reach prog N regs0 m0 R hsync hind hR0 hr with
  | ⟨_, _, c, hth⟩ =>
    match (hth i hi).1 hri, (hth j hj).1 hrj with
    | ⟨ki, htri, hbi⟩, ⟨kj, htrj, hbj⟩ =>
      have hb : Sem.bars prog regs0 m0 i ki = Sem.bars prog regs0 m0 j kj :=
        Eq.trans hbi (Eq.symm hbj)
      cases conflict_dec (Sem.soloAct prog regs0 m0 i ki) (Sem.soloAct prog regs0 m0 j kj) with
      | inr hn =>
        exact Or.inl (fun hc' => hn (Sem.conflict_rel (Sem.actRel_of_trel prog hind htri)
          (Sem.actRel_of_trel prog hind htrj) hc'))
      | inl hcf =>
        have hoi := hH i ki hi (isMem_left hcf)
        have hoj := hH j kj hj (isMem_left (Sem.conflict_symm _ _ hcf))
        rw [← hb] at hoj
        cases pair_cases sv hij hcf h hoi hoj with
        | inl hrace =>
          have e' := Eq.trans (Eq.symm ((checkK_iff sv N h hT).2 hrace)) hc
          cases e'
        | inr hex => exact Or.inr (hfl i j ki kj hex r hr hij hi hj hri hrj htri htrj hb)

/-- The canonical schedule with the repaired check: if the canonical run finishes, the repaired
check reports nothing over its history and the `same_value` decisions are sound (`FlagSound`),
then every schedule is relaxed race free, the barriers fit, all complete schedules end in the
same state, and if one finishes none gets stuck. -/
theorem canonical_checkK_sound (sv : List (Event V) → Nat → Nat → V → Bool)
    (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : Sem.SyncAll prog N)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hfin : Finished N (canonRun prog regs0 m0 N F) = true)
    (hfl : FlagSound sv prog N regs0 m0 R (canonRun prog regs0 m0 N F).hist)
    (hc : checkK sv N (canonRun prog regs0 m0 N F).hist = false) :
    Sem.RaceFreeB prog N (Sem.init regs0 m0) ∧ Sem.BarriersFit prog N (Sem.init regs0 m0) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m0) t1 → Sem.Reach prog N (Sem.init regs0 m0) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m0) t1 → Sem.Final N t1 →
      Sem.Reach prog N (Sem.init regs0 m0) t2 → (∀ v, Sem.Step prog N t2 v → False) →
      Sem.Final N t2) := by
  have hrf := raceFreeB_of_checkK sv prog N regs0 m0 R hsync hind hR0 _
    (canon_fromTraces prog N F regs0 m0) (canon_holdsAccesses prog N F regs0 m0 hfin) hfl hc
  have hfit := Sem.barriersFit_of_syncAll prog N (Sem.init regs0 m0) hsync (fun _ => rfl)
  exact ⟨hrf, hfit, fun _ _ h1 h2 f1 f2 => Sem.confluenceB prog N hrf hfit h1 h2 f1 f2,
    fun _ _ h1 f1 h2 hs => Sem.no_stuckB prog N hrf hfit h1 f1 h2 hs⟩

end EndToEnd

section Examples

open Sem.Act

/-- The repaired check reports the race `benign_gap` exhibits. -/
theorem gapHist_checkK : checkK (cellSame (fun _ => (0 : Nat))) 2 gapHist = true := rfl

/-- It still takes two unordered stores of one value as benign. -/
example : checkK (cellSame (fun _ => (0 : Nat))) 3
  [Event.act 1 (write 0 (1 : Nat) 1), Event.act 0 (write 0 (1 : Nat) 1)] = false := rfl

/-- And reports an atomic beside an unordered benign write's predecessor, as `race.rs`. -/
example : checkK (cellSame (fun _ => (0 : Nat))) 2
  [Event.act 1 (atomAdd 0 (1 : Nat) 2), Event.act 1 (write 0 (1 : Nat) 1),
    Event.act 0 (write 0 (1 : Nat) 1)] = true := rfl


/-- Every thread stores 1 at address 0, then exits: unordered writes of one value. -/
def sameProg : Sem.Prog Nat := fun _ pc _ =>
  match pc with
  | 0 => Act.write 0 1 1
  | _ => Act.exit

theorem sameProg_syncAll (N : Nat) : Sem.SyncAll sameProg N := by
  intro i pc regs b n w pc' h
  cases pc with
  | zero => cases h
  | succ pc => cases h

theorem sameProg_dataIndep : Sem.DataIndep sameProg (fun _ _ _ _ => True) := by
  intro i pc regs regs' _
  cases pc with
  | zero => exact ⟨rfl, rfl, True.intro⟩
  | succ pc => exact True.intro

theorem sameProg_canon_finished :
    Finished 2 (canonRun sameProg (fun _ _ => 0) (fun _ => 0) 2 4) = true := rfl

/-- The check without benign writes reports the two stores. -/
theorem sameProg_canon_check :
    check 2 (canonRun sameProg (fun _ _ => 0) (fun _ => 0) 2 4).hist = true := rfl

/-- The repaired check with `same_value` by exact comparison takes them as benign. -/
theorem sameProg_canon_checkK :
    checkK (cellSame (fun _ => 0)) 2 (canonRun sameProg (fun _ _ => 0) (fun _ => 0) 2 4).hist =
      false := rfl

theorem sameFlag_write {V : Type} {sv : List (Event V) → Nat → Nat → V → Bool}
    {h : List (Event V)} {u : Nat} {C : Act V} (hf : sameFlag sv h u C = true) :
    ∃ a, IsW a C := by
  cases C with
  | write a _ _ => exact ⟨a, rfl⟩
  | read _ _ _ => cases hf
  | atomAdd _ _ _ => cases hf
  | compute _ _ => cases hf
  | arrive _ _ _ _ => cases hf
  | exit => cases hf

/-- Both actions of an exempted pair are writes. -/
theorem exempt_writes {V : Type} {sv : List (Event V) → Nat → Nat → V → Bool} {i j : Nat}
    {A B : Act V} : ∀ {h : List (Event V)}, Exempt sv h i A j B →
      (∃ a, IsW a A) ∧ ∃ a, IsW a B := by
  intro h
  induction h with
  | nil => intro hx; exact False.elim hx
  | cons e h ih =>
    cases e with
    | barrier => exact ih
    | act u C =>
      intro hx
      cases hx with
      | inl hx => exact ih hx
      | inr hx =>
        cases hx with
        | inl hx =>
          have hC : ∃ a, IsW a C := sameFlag_write hx.2.2.2.2
          rw [hx.2.1] at hC
          exact ⟨hx.2.2.2.1, hC⟩
        | inr hx =>
          have hC : ∃ a, IsW a C := sameFlag_write hx.2.2.2.2
          rw [hx.2.1] at hC
          exact ⟨hC, hx.2.2.2.1⟩

theorem sameProg_write {i pc : Nat} {regs : Nat → Nat} {a : Nat}
    (h : IsW a (sameProg i pc regs)) : sameProg i pc regs = Act.write 0 1 1 := by
  cases pc with
  | zero => rfl
  | succ pc => exact False.elim h

/-- `FlagSound` holds for `sameProg` with any `same_value` decision: every write it does stores
1 at address 0. -/
theorem sameProg_flagSound (sv : List (Event Nat) → Nat → Nat → Nat → Bool) (N : Nat)
    (h : List (Event Nat)) :
    FlagSound sv sameProg N (fun _ _ => 0) (fun _ => 0) (fun _ _ _ _ => True) h := by
  intro i j ki kj hex r _ _ _ _ _ _ htri htrj _
  match exempt_writes hex with
  | ⟨⟨a1, hw1⟩, ⟨a2, hw2⟩⟩ =>
    have e1 : Sem.act sameProg i r = Sem.soloAct sameProg (fun _ _ => 0) (fun _ => 0) i ki := by
      show sameProg i (r.th i).pc (r.th i).regs =
        sameProg i (Sem.solo sameProg (fun _ _ => 0) (fun _ => 0) i ki).pc
          (Sem.solo sameProg (fun _ _ => 0) (fun _ => 0) i ki).regs
      rw [htri.1]
      rfl
    have e2 : Sem.act sameProg j r = Sem.soloAct sameProg (fun _ _ => 0) (fun _ => 0) j kj := by
      show sameProg j (r.th j).pc (r.th j).regs =
        sameProg j (Sem.solo sameProg (fun _ _ => 0) (fun _ => 0) j kj).pc
          (Sem.solo sameProg (fun _ _ => 0) (fun _ => 0) j kj).regs
      rw [htrj.1]
      rfl
    have w1 : Sem.soloAct sameProg (fun _ _ => 0) (fun _ => 0) i ki = Act.write 0 1 1 :=
      sameProg_write hw1
    have w2 : Sem.soloAct sameProg (fun _ _ => 0) (fun _ => 0) j kj = Act.write 0 1 1 :=
      sameProg_write hw2
    rw [e1, e2, w1, w2]
    exact ⟨rfl, rfl⟩

/-- So `canonical_checkK_sound` applies: `sameProg` with two threads is relaxed race free and
has one final state, although it is not `RaceFree` (the old check reports it). -/
theorem sameProg_safeB :
    Sem.RaceFreeB sameProg 2 (Sem.init (fun _ _ => 0) (fun _ => 0)) ∧
    (∀ t1 t2, Sem.Reach sameProg 2 (Sem.init (fun _ _ => 0) (fun _ => 0)) t1 →
      Sem.Reach sameProg 2 (Sem.init (fun _ _ => 0) (fun _ => 0)) t2 →
      Sem.Final 2 t1 → Sem.Final 2 t2 → Sem.Same t1 t2) :=
  match canonical_checkK_sound (cellSame (fun _ => 0)) sameProg 2 4 (fun _ _ => 0) (fun _ => 0)
    (fun _ _ _ _ => True) (sameProg_syncAll 2) sameProg_dataIndep (fun _ => True.intro)
    sameProg_canon_finished (sameProg_flagSound _ 2 _) sameProg_canon_checkK with
  | ⟨hrf, _, hsame, _⟩ => ⟨hrf, hsame⟩

end Examples

end Race
end Kcert
