import Kcert.Compat
import Kcert.Semantics
import Kcert.RaceCheck

/-!
# The executor's vector clocks and shadow records decide the epoch race predicate

Rust: `checker/src/exec/race.rs` (`Epoch`, `Clocks::{new, epoch, ordered, row, barrier}`,
`Shadow::{access, atomic}`), and the places that call them: `exec/access.rs` (each load, store
and atomic of shared memory takes `clocks.epoch(t, pc)` and calls `Shadow::access` or
`Shadow::atomic` on the granule's record), `exec/step.rs` (`bar.sync` arrival: `clocks.row(t)`),
`exec/mod.rs` (`resolve_barriers`: `clocks.barrier(rows, waiters)` when a barrier has its count).

The model keeps the Rust names in the namespace `Kcert.Race`:

* `Epoch`: `tid` and `clock`.  (Rust also stores `cta`, always the running CTA here, and `pc`,
  used only in the report.)
* `Clocks`: `n` threads and the matrix `vc` (row `t`, column `u`: thread `t`'s knowledge of
  `u`'s clock), as a function.  `Clocks.new`, `Clocks.epoch`, `Clocks.ordered`, `Clocks.row`,
  `Clocks.barrier` are the Rust functions (`barrier` with the arrivals' rows as a list and the
  waiters as a predicate, each waiter once).  `Clocks.barrierAll`: a barrier whose arrivals
  and waiters are all `n` threads, each contributing its current row: what `resolve_barriers`
  does for a whole-CTA `bar.sync`.  `Clocks::arrive` (`bar.arrive`) is not modelled.
* `Shadow`: `write`, `same_writes`, `reads`, `atomics`, and `Shadow.access` (with `write` and
  `same_value`), `Shadow.atomic` with the Rust control flow: the unordered write is searched in
  `write` then `same_writes` (`Shadow.unorderedWrite`); a `benign` write
  (`write && same_value`) skips it; then atomics, then, for a write, reads; the record updates:
  a write clears `reads` and `atomics`, and `same_writes` unless benign, when it keeps the
  entries of `same_writes` not ordered before it (`retain`, `filterL`) and pushes the old
  `write` if not ordered before it (`pushO`); a read or atomic replaces the thread's entry or
  appends one.  `Shadow.atomic` checks `write` and `same_writes`, then reads.  Left out:
  `reads_cta`, `foreign_read`, `settle_cta` and the atomics' scope flag (other CTAs, global
  memory).
* `RaceState`, `step`, `runB`, `checkB`: the race part of the executor's state (`Cta::clocks`,
  the shadow record of each shared-memory address (one element per address, as in
  `Semantics.lean`), and whether a `DataRace` was reported) and its update on each event
  (`Event.act t A`: thread `t` performs action `A`; `Event.barrier`: a whole-CTA barrier
  completes).  A run is given by its history `h`, latest event first (`runB sv N (e :: h)` is
  `step sv h (runB sv N h) e`).  `same_value` is a parameter `sv h t a v` (thread `t` stores
  `v` at `a` after the history `h`); `cellSame m0` is the exact comparison with the value the
  cell holds (`cellVal`).  `runH`, `check` are `runB`, `checkB` with `noSame` (every write
  `same_value = false`): the statements below about `check` are those of the model before
  `same_writes` was added.

Theorems:

* `atCount_runH`: after `k` whole-CTA barriers, `vc t u = k + [t = u]` for `t, u < N`.
* `ordered_iff`: for whole-CTA barriers, an epoch taken by thread `i` after `k` barriers is
  `ordered` before the current point of thread `j` (after `k'` barriers) iff `i = j` or
  `k < k'`.
* `check_iff`: `check N h = true` (some access of the history was reported) iff the history
  has two conflicting actions (`Sem.Conflict`) of different threads after the same number of
  barriers (`SameEpochRace`), for histories whose threads are below `N`.
* `check_iff_epochRace`: for a history made of the solo traces (each action is the trace's,
  at its epoch `bars`) that holds every memory access of every thread's trace, `check` is
  `EpochRace`.  Any order of the traces' actions that puts each action after as many barrier
  events as its epoch qualifies; the canonical schedule is one.
* `raceFree_of_check`: no report over such a history gives `Sem.RaceFree` (through
  `raceFree_of_noEpochRace`, for `SyncAll` and `DataIndep` programs).
* With benign writes (any `sv`): `inv_runB` (the invariant, now with `SwInv`: each entry of
  `same_writes` is a write at its epoch), `check_iff_gen` (if `sameFlag sv` is always `false`,
  `checkB` decides `SameEpochRace`), `checkB_sound`: every report is a `SameEpochRaceB` (two
  conflicting actions of different threads in one epoch, the later not a benign write meeting
  a plain write), hence (`checkB_epochRace`) an `EpochRace` over a history of the solo traces.
* `benign_gap`: the converse fails: over `gapHist` (thread 0 reads, then stores 1 over 0;
  thread 1 stores 1, benign) `SameEpochRaceB` holds but `checkB (cellSame _)` is `false`.
  Thread 0's store cleared `reads`, and thread 1's benign store skips the writes that stood for
  that read.  In `Schedule.lean`, `gapProg_canon_checkB` and `gapProg_not_raceFreeB`: the same
  program's canonical run is not reported although it is not even relaxed race free
  (`Sem.RaceFreeB`, `Benign.lean`).  This is a gap in `race.rs`, found by this model.

The canonical schedule (`run_cta`) as a function that produces such a history from the solo
traces, with the proofs that it satisfies `FromTraces` and, when every thread exits,
`HoldsAccesses`, is in `Schedule.lean` (`canonRun`, `canon_fromTraces`, `canon_holdsAccesses`,
`canonical_check_sound`).

Found while modelling (1, open): `benign_gap` above: a benign write is not checked against the
reads (and atomics) that an unordered earlier write of the same value cleared.

Found while modelling (2, fixed in the Rust since: `Shadow::atomic` now chains `same_writes`,
unit test `atomics_race_with_every_unordered_same_value_write`, replayed below):
Rust `Shadow::atomic` checked `self.write` but not `self.same_writes`, where `Shadow::access` checks both.  After thread 0 and
thread 1 write one value to an address in one epoch (thread 1's write is `write`, thread 0's is
in `same_writes`), an atomic addition by thread 1 in that epoch is not reported against thread
0's write, although the result depends on their order.
-/

namespace Kcert
namespace Race

open Sem (Act)

/-! ## Lists and options -/

/-- Membership in a list, as a proposition. -/
def In {α : Type} (x : α) : List α → Prop
  | [] => False
  | y :: l => y = x ∨ In x l

/-- Rust `Option::or`. -/
def orOpt {α : Type} : Option α → Option α → Option α
  | some x, _ => some x
  | none, y => y

/-- Rust `iter().find(p)`. -/
def findL {α : Type} (p : α → Bool) : List α → Option α
  | [] => none
  | x :: l => cond (p x) (some x) (findL p l)

/-- Rust `Option::filter(p)` (and `iter().find(p)` on an option). -/
def findO {α : Type} (p : α → Bool) : Option α → Option α
  | none => none
  | some x => cond (p x) (some x) none

/-- Rust `.map(|e| (e, w))`. -/
def tag {α : Type} (w : Bool) : Option α → Option (α × Bool)
  | none => none
  | some x => some (x, w)

theorem orOpt_some {α : Type} {x y : Option α} {z : α} (h : orOpt x y = some z) :
    x = some z ∨ y = some z := by
  cases x with
  | some x' => exact Or.inl h
  | none => exact Or.inr h

theorem orOpt_left {α : Type} {x : Option α} (y : Option α) {z : α} (h : x = some z) :
    ∃ z', orOpt x y = some z' := by
  rw [h]; exact ⟨z, rfl⟩

theorem orOpt_right {α : Type} (x : Option α) {y : Option α} {z : α} (h : y = some z) :
    ∃ z', orOpt x y = some z' := by
  cases x with
  | some x' => exact ⟨x', rfl⟩
  | none => exact ⟨z, h⟩

theorem orOpt_left2 {α : Type} {x y w : Option α} {z : α} (h : x = some z) :
    ∃ z', orOpt (orOpt x y) w = some z' := by
  rw [h]; exact ⟨z, rfl⟩

theorem orOpt_mid {α : Type} {x y w : Option α} {z : α} (h : y = some z) :
    ∃ z', orOpt (orOpt x y) w = some z' := by
  cases x with
  | some x' => exact ⟨x', rfl⟩
  | none =>
    show ∃ z', orOpt y w = some z'
    rw [h]; exact ⟨z, rfl⟩

theorem tag_some {α : Type} {w : Bool} {o : Option α} {z : α × Bool} (h : tag w o = some z) :
    o = some z.1 := by
  cases o with
  | none => cases h
  | some x => cases h; rfl

theorem tag_of {α : Type} (w : Bool) {o : Option α} {x : α} (h : o = some x) :
    tag w o = some (x, w) := by
  rw [h]; rfl

theorem findL_some {α : Type} {p : α → Bool} {x : α} :
    ∀ {l : List α}, findL p l = some x → In x l ∧ p x = true := by
  intro l
  induction l with
  | nil => intro h; cases h
  | cons y l ih =>
    intro h
    cases hp : p y with
    | true =>
      have h' : some y = some x := by
        have e : findL p (y :: l) = cond (p y) (some y) (findL p l) := rfl
        rw [e, hp] at h; exact h
      cases h'
      exact ⟨Or.inl rfl, hp⟩
    | false =>
      have h' : findL p l = some x := by
        have e : findL p (y :: l) = cond (p y) (some y) (findL p l) := rfl
        rw [e, hp] at h; exact h
      match ih h' with
      | ⟨hin, hx⟩ => exact ⟨Or.inr hin, hx⟩

theorem findL_of {α : Type} {p : α → Bool} {x : α} :
    ∀ {l : List α}, In x l → p x = true → ∃ y, findL p l = some y := by
  intro l
  induction l with
  | nil => intro h; exact False.elim h
  | cons y l ih =>
    intro hin hx
    have e : findL p (y :: l) = cond (p y) (some y) (findL p l) := rfl
    cases hp : p y with
    | true => rw [e, hp]; exact ⟨y, rfl⟩
    | false =>
      rw [e, hp]
      cases hin with
      | inl hy => rw [hy, hx] at hp; cases hp
      | inr hin => exact ih hin hx

theorem findO_some {α : Type} {p : α → Bool} {x : α} :
    ∀ {o : Option α}, findO p o = some x → o = some x ∧ p x = true := by
  intro o
  cases o with
  | none => intro h; cases h
  | some y =>
    intro h
    have e : findO p (some y) = cond (p y) (some y) none := rfl
    cases hp : p y with
    | true => rw [e, hp] at h; cases h; exact ⟨rfl, hp⟩
    | false => rw [e, hp] at h; cases h

theorem findO_of {α : Type} {p : α → Bool} {x : α} {o : Option α} (h : o = some x)
    (hx : p x = true) : findO p o = some x := by
  rw [h]
  show cond (p x) (some x) none = some x
  rw [hx]; rfl

/-! ## Vector clocks (`Clocks`) -/

/-- Rust `u32::max`. -/
def vmax (a b : Nat) : Nat := if a ≤ b then b else a

theorem le_vmax_left (a b : Nat) : a ≤ vmax a b := by
  cases Nat.decLe a b with
  | isTrue h => show a ≤ (if a ≤ b then b else a); rw [if_pos' h]; exact h
  | isFalse h => show a ≤ (if a ≤ b then b else a); rw [if_neg' h]; exact Nat.leRefl a

theorem le_vmax_right (a b : Nat) : b ≤ vmax a b := by
  cases Nat.decLe a b with
  | isTrue h => show b ≤ (if a ≤ b then b else a); rw [if_pos' h]; exact Nat.leRefl b
  | isFalse h =>
    show b ≤ (if a ≤ b then b else a); rw [if_neg' h]
    exact Nat.leOfLt (Nat.gtOfNotLe h)

theorem vmax_le {a b m : Nat} (ha : a ≤ m) (hb : b ≤ m) : vmax a b ≤ m := by
  cases Nat.decLe a b with
  | isTrue h => show (if a ≤ b then b else a) ≤ m; rw [if_pos' h]; exact hb
  | isFalse h => show (if a ≤ b then b else a) ≤ m; rw [if_neg' h]; exact ha

/-- Rust `race::Epoch`: the thread and its own clock at the access (`cta` and `pc` left out). -/
structure Epoch where
  tid : Nat
  clock : Nat

/-- Rust `race::Clocks` of one CTA: `vc t u` is thread `t`'s knowledge of thread `u`'s clock. -/
structure Clocks where
  n : Nat
  vc : Nat → Nat → Nat

/-- Rust `Clocks::new`: every thread's own clock is 1, the rest 0. -/
def Clocks.new (n : Nat) : Clocks := ⟨n, fun t u => if t = u then 1 else 0⟩

/-- Rust `Clocks::epoch`: thread `t`'s current epoch. -/
def Clocks.epoch (c : Clocks) (t : Nat) : Epoch := ⟨t, c.vc t t⟩

/-- Rust `Clocks::ordered`: whether `e` happens before the current point of thread `u`. -/
def Clocks.ordered (c : Clocks) (e : Epoch) (u : Nat) : Bool :=
  decide (e.tid = u) || decide (e.clock ≤ c.vc u e.tid)

/-- Rust `Clocks::row`. -/
def Clocks.row (c : Clocks) (t : Nat) : Nat → Nat := c.vc t

/-- The join of the arrivals' rows (Rust: the `join` loop of `Clocks::barrier`). -/
def joinRows : List (Nat → Nat) → Nat → Nat
  | [], _ => 0
  | r :: rs, j => vmax (joinRows rs j) (r j)

/-- Rust `Clocks::barrier`: every waiter's row becomes its join with the arrivals' rows, then
the waiter's own clock goes up by one. -/
def Clocks.barrier (c : Clocks) (rows : List (Nat → Nat)) (waiter : Nat → Bool) : Clocks :=
  ⟨c.n, fun w j => cond (waiter w) (vmax (c.vc w j) (joinRows rows j) + (if j = w then 1 else 0))
    (c.vc w j)⟩

/-- The rows of threads `0 .. k-1`. -/
def Clocks.rowsBelow (c : Clocks) : Nat → List (Nat → Nat)
  | 0 => []
  | k + 1 => c.row k :: c.rowsBelow k

/-- A whole-CTA `bar.sync` completes: all `n` threads arrive with their current rows and all
wait (`resolve_barriers` on a barrier without count). -/
def Clocks.barrierAll (c : Clocks) : Clocks :=
  c.barrier (c.rowsBelow c.n) (fun w => decide (w < c.n))

/-- The clocks after `k` whole-CTA barriers: thread `t` knows `k` of every other thread, and
its own clock is `k + 1`. -/
def AtCount (c : Clocks) (n k : Nat) : Prop :=
  c.n = n ∧ ∀ t u, t < n → u < n → c.vc t u = k + (if t = u then 1 else 0)

theorem atCount_new (n : Nat) : AtCount (Clocks.new n) n 0 := by
  refine ⟨rfl, fun t u _ _ => ?_⟩
  show (if t = u then 1 else 0) = 0 + (if t = u then 1 else 0)
  rw [Nat.zero_add]

theorem ite_le_one (p : Prop) [Decidable p] : (if p then 1 else 0) ≤ 1 := by
  cases (inferInstance : Decidable p) with
  | isTrue h => rw [if_pos' h]; exact Nat.leRefl 1
  | isFalse h => rw [if_neg' h]; exact Nat.zeroLe 1

theorem joinRows_le (c : Clocks) {n k : Nat} (hc : AtCount c n k) {j : Nat} (hj : j < n) :
    ∀ m, m ≤ n → joinRows (c.rowsBelow m) j ≤ k + 1 := by
  intro m
  induction m with
  | zero => intro _; exact Nat.zeroLe _
  | succ m ih =>
    intro hm
    show vmax (joinRows (c.rowsBelow m) j) (c.vc m j) ≤ k + 1
    refine vmax_le (ih (Nat.leTrans (Nat.leSucc m) hm)) ?_
    rw [hc.2 m j hm hj]
    exact Nat.addLeAddLeft (ite_le_one _) k

theorem le_joinRows (c : Clocks) {n k : Nat} (hc : AtCount c n k) {j : Nat} (hj : j < n) :
    ∀ m, j < m → m ≤ n → k + 1 ≤ joinRows (c.rowsBelow m) j := by
  intro m
  induction m with
  | zero => intro h; exact False.elim (Nat.notLtZero j h)
  | succ m ih =>
    intro hjm hm
    show k + 1 ≤ vmax (joinRows (c.rowsBelow m) j) (c.vc m j)
    cases Nat.decEq j m with
    | isTrue e =>
      have hv : c.vc m j = k + 1 := by
        rw [hc.2 m j hm hj, e, if_pos' rfl]
      rw [← hv]
      exact le_vmax_right _ _
    | isFalse e =>
      have hjm' : j < m := Nat.ltOfLeOfNe (Nat.leOfLtSucc hjm) e
      exact Nat.leTrans (ih hjm' (Nat.leTrans (Nat.leSucc m) hm)) (le_vmax_left _ _)

/-- A whole-CTA barrier takes the clocks after `k` barriers to the clocks after `k + 1`. -/
theorem atCount_barrierAll {c : Clocks} {n k : Nat} (hc : AtCount c n k) :
    AtCount c.barrierAll n (k + 1) := by
  refine ⟨hc.1, fun t u ht hu => ?_⟩
  have hn : c.n = n := hc.1
  show cond (decide (t < c.n))
      (vmax (c.vc t u) (joinRows (c.rowsBelow c.n) u) + (if u = t then 1 else 0)) (c.vc t u) =
    k + 1 + (if t = u then 1 else 0)
  rw [hn, decide_eq_true' ht]
  have hj : joinRows (c.rowsBelow n) u = k + 1 :=
    Nat.leAntisymm (joinRows_le c hc hu n (Nat.leRefl n)) (le_joinRows c hc hu n hu (Nat.leRefl n))
  have hv : c.vc t u ≤ k + 1 := by
    rw [hc.2 t u ht hu]; exact Nat.addLeAddLeft (ite_le_one _) k
  have hm : vmax (c.vc t u) (joinRows (c.rowsBelow n) u) = k + 1 := by
    rw [hj]; exact Nat.leAntisymm (vmax_le hv (Nat.leRefl _)) (le_vmax_right _ _)
  show vmax (c.vc t u) (joinRows (c.rowsBelow n) u) + (if u = t then 1 else 0) =
    k + 1 + (if t = u then 1 else 0)
  rw [hm]
  cases Nat.decEq t u with
  | isTrue e => rw [if_pos' e, if_pos' (Eq.symm e)]
  | isFalse e => rw [if_neg' e, if_neg' (fun h => e (Eq.symm h))]

theorem epoch_clock {c : Clocks} {n k t : Nat} (hc : AtCount c n k) (ht : t < n) :
    c.epoch t = ⟨t, k + 1⟩ := by
  have e : c.epoch t = ⟨t, c.vc t t⟩ := rfl
  rw [e, hc.2 t t ht ht, if_pos' rfl]

/-- For whole-CTA barriers, `ordered` compares epochs: an epoch of thread `i` taken after `k`
barriers happens before the current point of thread `j`, `k'` barriers having completed, iff
`i = j` or `k < k'`. -/
theorem ordered_iff {c0 c : Clocks} {n k k' i j : Nat} (h0 : AtCount c0 n k)
    (hc : AtCount c n k') (hi : i < n) (hj : j < n) :
    c.ordered (c0.epoch i) j = true ↔ (i = j ∨ k < k') := by
  rw [epoch_clock h0 hi]
  show (decide (i = j) || decide (k + 1 ≤ c.vc j i)) = true ↔ (i = j ∨ k < k')
  cases Nat.decEq i j with
  | isTrue e =>
    rw [decide_eq_true' e]
    exact ⟨fun _ => Or.inl e, fun _ => rfl⟩
  | isFalse e =>
    rw [decide_eq_false' e, hc.2 j i hj hi, if_neg' (fun h => e (Eq.symm h)), Nat.add_zero]
    show decide (k + 1 ≤ k') = true ↔ (i = j ∨ k < k')
    refine ⟨fun h => Or.inr (of_decide_eq_true' h), fun h => ?_⟩
    cases h with
    | inl h => exact False.elim (e h)
    | inr h => exact decide_eq_true' h

/-! ## Shadow records (`Shadow`) -/

/-- Rust `race::Shadow` of one address, without `reads_cta`, `foreign_read`
and the atomics' scope flags. -/
structure Shadow where
  write : Option Epoch
  same_writes : List Epoch
  reads : List Epoch
  atomics : List Epoch

def Shadow.empty : Shadow := ⟨none, [], [], []⟩

/-- Rust `Vec::retain(p)`. -/
def filterL {α : Type} (p : α → Bool) : List α → List α
  | [] => []
  | x :: l => cond (p x) (x :: filterL p l) (filterL p l)

/-- Rust `Vec::push`. -/
def snocL {α : Type} : List α → α → List α
  | [], x => [x]
  | y :: l, x => y :: snocL l x

/-- Rust `if let Some(w) = o { l.push(w) }`. -/
def pushO {α : Type} (l : List α) : Option α → List α
  | none => l
  | some x => snocL l x

theorem in_filterL {α : Type} {p : α → Bool} {x : α} : ∀ {l : List α}, In x (filterL p l) → In x l := by
  intro l
  induction l with
  | nil => intro h; exact h
  | cons y l ih =>
    intro h
    cases hp : p y with
    | true =>
      have h' : In x (y :: filterL p l) := by
        have e : filterL p (y :: l) = cond (p y) (y :: filterL p l) (filterL p l) := rfl
        rw [e, hp] at h; exact h
      cases h' with
      | inl h' => exact Or.inl h'
      | inr h' => exact Or.inr (ih h')
    | false =>
      have h' : In x (filterL p l) := by
        have e : filterL p (y :: l) = cond (p y) (y :: filterL p l) (filterL p l) := rfl
        rw [e, hp] at h; exact h
      exact Or.inr (ih h')

theorem in_snocL {α : Type} {x z : α} : ∀ {l : List α}, In x (snocL l z) → In x l ∨ z = x := by
  intro l
  induction l with
  | nil => intro h; cases h with
    | inl h => exact Or.inr h
    | inr h => exact False.elim h
  | cons y l ih =>
    intro h
    have h' : y = x ∨ In x (snocL l z) := h
    cases h' with
    | inl h => exact Or.inl (Or.inl h)
    | inr h =>
      cases ih h with
      | inl h => exact Or.inl (Or.inr h)
      | inr h => exact Or.inr h

theorem in_pushO {α : Type} {x : α} {l : List α} : ∀ {o : Option α}, In x (pushO l o) → In x l ∨ o = some x := by
  intro o
  cases o with
  | none => intro h; exact Or.inl h
  | some y =>
    intro h
    have h' : In x (snocL l y) := h
    cases in_snocL h' with
    | inl h => exact Or.inl h
    | inr h => rw [h]; exact Or.inr rfl

/-- Replace the entry of `now.tid` by `now`, or append `now` (Rust: `iter_mut().find(..)`,
then `*r = now` or `push(now)`). -/
def setFor (now : Epoch) : List Epoch → List Epoch
  | [] => [now]
  | e :: l => if e.tid = now.tid then now :: l else e :: setFor now l

theorem in_setFor_now (now : Epoch) : ∀ l, In now (setFor now l) := by
  intro l
  induction l with
  | nil => exact Or.inl rfl
  | cons e l ih =>
    cases Nat.decEq e.tid now.tid with
    | isTrue h =>
      show In now (if e.tid = now.tid then now :: l else e :: setFor now l)
      rw [if_pos' h]; exact Or.inl rfl
    | isFalse h =>
      show In now (if e.tid = now.tid then now :: l else e :: setFor now l)
      rw [if_neg' h]; exact Or.inr ih

theorem in_setFor_other (now : Epoch) {x : Epoch} (hx : x.tid ≠ now.tid) :
    ∀ l, In x l → In x (setFor now l) := by
  intro l
  induction l with
  | nil => intro h; exact False.elim h
  | cons e l ih =>
    intro h
    show In x (if e.tid = now.tid then now :: l else e :: setFor now l)
    cases Nat.decEq e.tid now.tid with
    | isTrue he =>
      rw [if_pos' he]
      cases h with
      | inl h => rw [← h] at hx; exact False.elim (hx he)
      | inr h => exact Or.inr h
    | isFalse he =>
      rw [if_neg' he]
      cases h with
      | inl h => exact Or.inl h
      | inr h => exact Or.inr (ih h)

theorem in_setFor {now x : Epoch} : ∀ l, In x (setFor now l) → x = now ∨ In x l := by
  intro l
  induction l with
  | nil => intro h; cases h with
    | inl h => exact Or.inl (Eq.symm h)
    | inr h => exact False.elim h
  | cons e l ih =>
    intro h
    cases Nat.decEq e.tid now.tid with
    | isTrue he =>
      have h' : In x (now :: l) := by
        have e' : setFor now (e :: l) = if e.tid = now.tid then now :: l else e :: setFor now l :=
          rfl
        rw [e', if_pos' he] at h; exact h
      cases h' with
      | inl h => exact Or.inl (Eq.symm h)
      | inr h => exact Or.inr (Or.inr h)
    | isFalse he =>
      have h' : In x (e :: setFor now l) := by
        have e' : setFor now (e :: l) = if e.tid = now.tid then now :: l else e :: setFor now l :=
          rfl
        rw [e', if_neg' he] at h; exact h
      cases h' with
      | inl h => exact Or.inr (Or.inl h)
      | inr h =>
        cases ih h with
        | inl h => exact Or.inl h
        | inr h => exact Or.inr (Or.inr h)

/-- `!clocks.ordered(e, u)`: the closure the Rust passes to `find`/`filter`. -/
def unord (c : Clocks) (u : Nat) (e : Epoch) : Bool := !(c.ordered e u)

/-- Rust `self.write.iter().chain(&self.same_writes).find(|w| !clocks.ordered(w, u))`. -/
def Shadow.unorderedWrite (s : Shadow) (c : Clocks) (u : Nat) : Option Epoch :=
  orOpt (findO (unord c u) s.write) (findL (unord c u) s.same_writes)

/-- Rust `Shadow::access`: records an access by `now.tid` (a write iff `write`; `same_value`: a
write that stores exactly the value the cell holds) and returns the first earlier access it
races with (the earlier access, and whether it was a write or atomic).  A `benign` write
(`write && same_value`) is not checked against the unordered writes (`write` and
`same_writes`); the earlier ones it is not ordered with are kept in `same_writes`. -/
def Shadow.access (s : Shadow) (c : Clocks) (now : Epoch) (write same_value : Bool) :
    Option (Epoch × Bool) × Shadow :=
  cond write
    (orOpt (orOpt (cond (write && same_value) none (tag true (s.unorderedWrite c now.tid)))
        (tag true (findL (unord c now.tid) s.atomics)))
      (tag false (findL (unord c now.tid) s.reads)),
      ⟨some now,
        cond (write && same_value)
          (pushO (filterL (unord c now.tid) s.same_writes) (findO (unord c now.tid) s.write)) [],
        [], []⟩)
    (orOpt (cond (write && same_value) none (tag true (s.unorderedWrite c now.tid)))
        (tag true (findL (unord c now.tid) s.atomics)),
      ⟨s.write, s.same_writes, setFor now s.reads, s.atomics⟩)

/-- Rust `Shadow::atomic` within one CTA: races with an unordered plain write (`write` or
`same_writes`) or read; atomics of one CTA never race with each other. -/
def Shadow.atomic (s : Shadow) (c : Clocks) (now : Epoch) : Option (Epoch × Bool) × Shadow :=
  (orOpt (tag true (s.unorderedWrite c now.tid)) (tag false (findL (unord c now.tid) s.reads)),
    ⟨s.write, s.same_writes, s.reads, setFor now s.atomics⟩)

/-! ## Events and the run -/

/-- What the canonical schedule does, as seen by the race check: thread `t` performs action `A`
(only reads, writes and atomic additions touch the shadow records), or a whole-CTA barrier
completes. -/
inductive Event (V : Type) where
  | act (t : Nat) (A : Act V)
  | barrier

/-- The race part of the executor's state: `Cta::clocks`, the shadow record of every
shared-memory address, and whether a `DataRace` finding was reported. -/
structure RaceState where
  clocks : Clocks
  shadow : Nat → Shadow
  found : Bool

section Run

variable {V : Type}

/-- Record an access's outcome at address `a`. -/
def RaceState.record (s : RaceState) (a : Nat) (r : Option (Epoch × Bool) × Shadow) :
    RaceState :=
  ⟨s.clocks, Sem.upd s.shadow a r.2, s.found || r.1.isSome⟩

/-- One event (`access::access` for a memory action, `resolve_barriers` for a barrier), after
the history `h`.  `sv h t a v` is `access.rs`'s `same_value` for thread `t` storing `v` at `a`
after `h`: whether `v` is exactly the value the cell holds (a parameter: the model does not say
how the executor compares values). -/
def step (sv : List (Event V) → Nat → Nat → V → Bool) (h : List (Event V)) (s : RaceState) :
    Event V → RaceState
  | Event.barrier => ⟨s.clocks.barrierAll, s.shadow, s.found⟩
  | Event.act t (Act.read a _ _) =>
    s.record a ((s.shadow a).access s.clocks (s.clocks.epoch t) false false)
  | Event.act t (Act.write a v _) =>
    s.record a ((s.shadow a).access s.clocks (s.clocks.epoch t) true (sv h t a v))
  | Event.act t (Act.atomAdd a _ _) => s.record a ((s.shadow a).atomic s.clocks (s.clocks.epoch t))
  | Event.act _ (Act.compute _ _) => s
  | Event.act _ (Act.arrive _ _ _ _) => s
  | Event.act _ Act.exit => s

/-- The state after a history (latest event first), `N` threads, `same_value` given by `sv`. -/
def runB (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) : List (Event V) → RaceState
  | [] => ⟨Clocks.new N, fun _ => Shadow.empty, false⟩
  | e :: h => step sv h (runB sv N h) e

/-- Whether the run over the history reported a race. -/
def checkB (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) (h : List (Event V)) : Bool :=
  (runB sv N h).found

/-- Every write taken as `same_value = false` (no benign writes). -/
def noSame : List (Event V) → Nat → Nat → V → Bool := fun _ _ _ _ => false

/-- The run without benign writes. -/
def runH (N : Nat) (h : List (Event V)) : RaceState := runB noSame N h

/-- Whether the run without benign writes reported a race. -/
def check (N : Nat) (h : List (Event V)) : Bool := checkB noSame N h

/-- The number of barrier completions in a history. -/
def nbars : List (Event V) → Nat
  | [] => 0
  | Event.barrier :: h => nbars h + 1
  | Event.act _ _ :: h => nbars h

/-- Thread `t` performed `A` in the history after `c` barriers. -/
def Occurs : List (Event V) → Nat → Act V → Nat → Prop
  | [], _, _, _ => False
  | Event.barrier :: h, t, A, c => Occurs h t A c
  | Event.act u B :: h, t, A, c => (u = t ∧ B = A ∧ nbars h = c) ∨ Occurs h t A c

/-- Two conflicting actions of different threads after the same number of barriers. -/
def SameEpochRace (h : List (Event V)) : Prop :=
  ∃ i j A B c, i ≠ j ∧ Occurs h i A c ∧ Occurs h j B c ∧ Sem.Conflict A B

/-- Every thread of the history is below `N`. -/
def TidsBelow (N : Nat) (h : List (Event V)) : Prop := ∀ t A c, Occurs h t A c → t < N

theorem occurs_le : ∀ {h : List (Event V)} {t : Nat} {A : Act V} {c : Nat},
    Occurs h t A c → c ≤ nbars h := by
  intro h
  induction h with
  | nil => intro _ _ _ h; exact False.elim h
  | cons e h ih =>
    intro t A c ho
    cases e with
    | barrier => exact Nat.leStep (ih ho)
    | act u B =>
      cases ho with
      | inl ho => show c ≤ nbars h; rw [ho.2.2]; exact Nat.leRefl c
      | inr ho => exact (ih ho : c ≤ nbars h)

theorem tidsBelow_tail {N : Nat} {e : Event V} {h : List (Event V)} (hT : TidsBelow N (e :: h)) :
    TidsBelow N h := by
  intro t A c ho
  cases e with
  | barrier => exact hT t A c ho
  | act u B => exact hT t A c (Or.inr ho)

/-! ## Kinds of memory actions -/

/-- A plain write to `a`. -/
def IsW (a : Nat) : Act V → Prop
  | Act.write b _ _ => b = a
  | _ => False

/-- A plain read of `a`. -/
def IsR (a : Nat) : Act V → Prop
  | Act.read b _ _ => b = a
  | _ => False

/-- An atomic addition to `a`. -/
def IsA (a : Nat) : Act V → Prop
  | Act.atomAdd b _ _ => b = a
  | _ => False

end Run

/-! ## The invariant -/

section Inv

variable {V : Type}

theorem unord_true {c : Clocks} {N k u : Nat} {e : Epoch} (hc : AtCount c N k) (he : e.tid < N)
    (hu : u < N) (h : unord c u e = true) : e.tid ≠ u ∧ k < e.clock := by
  have d : unord c u e = !(decide (e.tid = u) || decide (e.clock ≤ c.vc u e.tid)) := rfl
  cases Nat.decEq e.tid u with
  | isTrue et => rw [d, decide_eq_true' et] at h; cases h
  | isFalse et =>
    rw [d, decide_eq_false' et, hc.2 u e.tid hu he, if_neg' (fun x => et (Eq.symm x)),
      Nat.add_zero] at h
    cases Nat.decLe e.clock k with
    | isTrue hl => rw [decide_eq_true' hl] at h; cases h
    | isFalse hl => exact ⟨et, Nat.gtOfNotLe hl⟩

theorem unord_of {c : Clocks} {N k u : Nat} {e : Epoch} (hc : AtCount c N k) (he : e.tid < N)
    (hu : u < N) (hne : e.tid ≠ u) (hk : k < e.clock) : unord c u e = true := by
  have d : unord c u e = !(decide (e.tid = u) || decide (e.clock ≤ c.vc u e.tid)) := rfl
  rw [d, decide_eq_false' hne, hc.2 u e.tid hu he, if_neg' (fun x => hne (Eq.symm x)),
    Nat.add_zero, decide_eq_false' (Nat.notLeOfGt hk)]
  rfl

/-- The shadow record of `a` summarizes the history: each entry is an access of its kind to
`a` at its epoch, and the latest access of each kind is represented (a read or an atomic
either by its thread's entry or by a later write). -/
def ShInv (h : List (Event V)) (a : Nat) (s : Shadow) : Prop :=
  (∀ e, s.write = some e → ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ IsW a A) ∧
  (∀ e, In e s.reads → ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ IsR a A) ∧
  (∀ e, In e s.atomics → ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ IsA a A) ∧
  (∀ t A c, Occurs h t A c → IsW a A → ∃ e, s.write = some e ∧ c < e.clock) ∧
  (∀ t A c, Occurs h t A c → IsR a A →
    (∃ e, s.write = some e ∧ c < e.clock) ∨ ∃ e, In e s.reads ∧ e.tid = t ∧ c < e.clock) ∧
  (∀ t A c, Occurs h t A c → IsA a A →
    (∃ e, s.write = some e ∧ c < e.clock) ∨ ∃ e, In e s.atomics ∧ e.tid = t ∧ c < e.clock)

/-- Each entry of `same_writes` is a write to `a` at its epoch. -/
def SwInv (h : List (Event V)) (a : Nat) (s : Shadow) : Prop :=
  ∀ e, In e s.same_writes → ∃ c A, e.clock = c + 1 ∧ Occurs h e.tid A c ∧ IsW a A

/-- The invariant of a run: the clocks are those after `nbars h` whole-CTA barriers, and every
shadow record summarizes the history. -/
def Inv (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) (h : List (Event V)) : Prop :=
  AtCount (runB sv N h).clocks N (nbars h) ∧ (∀ a, ShInv h a ((runB sv N h).shadow a)) ∧
    ∀ a, SwInv h a ((runB sv N h).shadow a)

theorem swInv_empty (a : Nat) : SwInv ([] : List (Event V)) a Shadow.empty :=
  fun _ h => False.elim h

/-- An action keeps the entries of `same_writes` valid. -/
theorem swInv_lift {h : List (Event V)} {a u : Nat} {B : Act V} {s s' : Shadow} (hw : SwInv h a s)
    (he : ∀ e, In e s'.same_writes → In e s.same_writes) : SwInv (Event.act u B :: h) a s' := by
  intro e hin
  match hw e (he e hin) with
  | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩

/-- After a write, `same_writes` holds earlier entries of `same_writes` and possibly the earlier
`write`. -/
theorem swInv_write {h : List (Event V)} {a u : Nat} {v : V} {pc : Nat} {s : Shadow}
    {now : Epoch} (p : Epoch → Bool) (b : Bool) (hs : ShInv h a s) (hw : SwInv h a s) :
    SwInv (Event.act u (Act.write a v pc) :: h) a
      ⟨some now, cond b (pushO (filterL p s.same_writes) (findO p s.write)) [], [], []⟩ := by
  intro e hin
  cases b with
  | false => exact False.elim hin
  | true =>
    have hin' : In e (pushO (filterL p s.same_writes) (findO p s.write)) := hin
    cases in_pushO hin' with
    | inl hl =>
      match hw e (in_filterL hl) with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    | inr ho =>
      match hs.1 e (findO_some ho).1 with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩

theorem shInv_empty (a : Nat) : ShInv ([] : List (Event V)) a Shadow.empty := by
  refine ⟨?_, ?_, ?_, ?_, ?_, ?_⟩
  · intro e h; cases h
  · intro e h; exact False.elim h
  · intro e h; exact False.elim h
  · intro t A c h; exact False.elim h
  · intro t A c h; exact False.elim h
  · intro t A c h; exact False.elim h

theorem shInv_bar {h : List (Event V)} {a : Nat} {s : Shadow} (hs : ShInv h a s) :
    ShInv (Event.barrier :: h) a s := hs

theorem shInv_other {h : List (Event V)} {a u : Nat} {B : Act V} {s : Shadow} (hs : ShInv h a s)
    (hW : ¬IsW a B) (hR : ¬IsR a B) (hA : ¬IsA a B) : ShInv (Event.act u B :: h) a s := by
  match hs with
  | ⟨h1, h2, h3, h4, h5, h6⟩ =>
    refine ⟨?_, ?_, ?_, ?_, ?_, ?_⟩
    · intro e he
      match h1 e he with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro e he
      match h2 e he with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro e he
      match h3 e he with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim (hW hk)
      | inr ho => exact h4 t A c ho hk
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim (hR hk)
      | inr ho => exact h5 t A c ho hk
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim (hA hk)
      | inr ho => exact h6 t A c ho hk

theorem lt_succ_of_occurs {h : List (Event V)} {t : Nat} {A : Act V} {c : Nat}
    (ho : Occurs h t A c) : c < nbars h + 1 :=
  Nat.succLeSucc (occurs_le ho)

theorem lt_succ_of_occurs_cons {h : List (Event V)} {u t : Nat} {B A : Act V} {c : Nat}
    (ho : Occurs (Event.act u B :: h) t A c) : c < nbars h + 1 := by
  have hl : c ≤ nbars (Event.act u B :: h) := occurs_le ho
  exact Nat.succLeSucc hl

theorem shInv_write {h : List (Event V)} {a u : Nat} {v : V} {pc : Nat} {now : Epoch}
    {sw : List Epoch} (hnow : now = ⟨u, nbars h + 1⟩) :
    ShInv (Event.act u (Act.write a v pc) :: h) a ⟨some now, sw, [], []⟩ := by
  refine ⟨?_, fun _ h => False.elim h, fun _ h => False.elim h, ?_, ?_, ?_⟩
  · intro e he
    cases he
    rw [hnow]
    exact ⟨nbars h, Act.write a v pc, rfl, Or.inl ⟨rfl, rfl, rfl⟩, (rfl : a = a)⟩
  · intro t A c ho _
    exact ⟨now, rfl, by rw [hnow]; exact lt_succ_of_occurs_cons ho⟩
  · intro t A c ho _
    exact Or.inl ⟨now, rfl, by rw [hnow]; exact lt_succ_of_occurs_cons ho⟩
  · intro t A c ho _
    exact Or.inl ⟨now, rfl, by rw [hnow]; exact lt_succ_of_occurs_cons ho⟩

theorem shInv_read {h : List (Event V)} {a u r pc : Nat} {s : Shadow} {now : Epoch}
    (hnow : now = ⟨u, nbars h + 1⟩) (hs : ShInv h a s) :
    ShInv (Event.act u (Act.read a r pc) :: h) a
      ⟨s.write, s.same_writes, setFor now s.reads, s.atomics⟩ := by
  match hs with
  | ⟨h1, h2, h3, h4, h5, h6⟩ =>
    refine ⟨?_, ?_, ?_, ?_, ?_, ?_⟩
    · intro e he
      match h1 e he with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro e he
      cases in_setFor s.reads he with
      | inl he =>
        rw [he, hnow]
        exact ⟨nbars h, Act.read a r pc, rfl, Or.inl ⟨rfl, rfl, rfl⟩, (rfl : a = a)⟩
      | inr he =>
        match h2 e he with
        | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro e he
      match h3 e he with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h4 t A c ho hk
    · intro t A c ho hk
      cases ho with
      | inl ho =>
        refine Or.inr ⟨now, in_setFor_now now s.reads, by rw [hnow]; exact ho.1, ?_⟩
        rw [hnow, ← ho.2.2]; exact Nat.ltSuccSelf _
      | inr ho =>
        cases h5 t A c ho hk with
        | inl hw => exact Or.inl hw
        | inr hr =>
          match hr with
          | ⟨e, hin, het, hlt⟩ =>
            cases Nat.decEq t u with
            | isTrue etu =>
              refine Or.inr ⟨now, in_setFor_now now s.reads, by rw [hnow, etu], ?_⟩
              rw [hnow]; exact lt_succ_of_occurs ho
            | isFalse etu =>
              refine Or.inr ⟨e, in_setFor_other now ?_ s.reads hin, het, hlt⟩
              rw [het, hnow]; exact etu
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h6 t A c ho hk

theorem shInv_atomic {h : List (Event V)} {a u : Nat} {v : V} {pc : Nat} {s : Shadow} {now : Epoch}
    (hnow : now = ⟨u, nbars h + 1⟩) (hs : ShInv h a s) :
    ShInv (Event.act u (Act.atomAdd a v pc) :: h) a
      ⟨s.write, s.same_writes, s.reads, setFor now s.atomics⟩ := by
  match hs with
  | ⟨h1, h2, h3, h4, h5, h6⟩ =>
    refine ⟨?_, ?_, ?_, ?_, ?_, ?_⟩
    · intro e he
      match h1 e he with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro e he
      match h2 e he with
      | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro e he
      cases in_setFor s.atomics he with
      | inl he =>
        rw [he, hnow]
        exact ⟨nbars h, Act.atomAdd a v pc, rfl, Or.inl ⟨rfl, rfl, rfl⟩, (rfl : a = a)⟩
      | inr he =>
        match h3 e he with
        | ⟨c, A, hc, ho, hk⟩ => exact ⟨c, A, hc, Or.inr ho, hk⟩
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h4 t A c ho hk
    · intro t A c ho hk
      cases ho with
      | inl ho => rw [← ho.2.1] at hk; exact False.elim hk
      | inr ho => exact h5 t A c ho hk
    · intro t A c ho hk
      cases ho with
      | inl ho =>
        refine Or.inr ⟨now, in_setFor_now now s.atomics, by rw [hnow]; exact ho.1, ?_⟩
        rw [hnow, ← ho.2.2]; exact Nat.ltSuccSelf _
      | inr ho =>
        cases h6 t A c ho hk with
        | inl hw => exact Or.inl hw
        | inr hr =>
          match hr with
          | ⟨e, hin, het, hlt⟩ =>
            cases Nat.decEq t u with
            | isTrue etu =>
              refine Or.inr ⟨now, in_setFor_now now s.atomics, by rw [hnow, etu], ?_⟩
              rw [hnow]; exact lt_succ_of_occurs ho
            | isFalse etu =>
              refine Or.inr ⟨e, in_setFor_other now ?_ s.atomics hin, het, hlt⟩
              rw [het, hnow]; exact etu

end Inv

/-! ## Conflicts by kind -/

section Kinds

variable {V : Type}

theorem conf_W {a : Nat} {A B : Act V} (hA : IsW a A) (hB : IsW a B ∨ IsR a B ∨ IsA a B) :
    Sem.Conflict A B := by
  cases A with
  | write x v pc =>
    have hx : x = a := hA
    cases B with
    | write y v' pc' =>
      have hy : y = a := match hB with
        | Or.inl h => h
        | Or.inr (Or.inl h) => False.elim h
        | Or.inr (Or.inr h) => False.elim h
      show x = y; rw [hx, hy]
    | read y r pc' =>
      have hy : y = a := match hB with
        | Or.inl h => False.elim h
        | Or.inr (Or.inl h) => h
        | Or.inr (Or.inr h) => False.elim h
      show x = y; rw [hx, hy]
    | atomAdd y v' pc' =>
      have hy : y = a := match hB with
        | Or.inl h => False.elim h
        | Or.inr (Or.inl h) => False.elim h
        | Or.inr (Or.inr h) => h
      show x = y; rw [hx, hy]
    | compute _ _ => exact False.elim (match hB with
        | Or.inl h => h
        | Or.inr (Or.inl h) => h
        | Or.inr (Or.inr h) => h)
    | arrive _ _ _ _ => exact False.elim (match hB with
        | Or.inl h => h
        | Or.inr (Or.inl h) => h
        | Or.inr (Or.inr h) => h)
    | exit => exact False.elim (match hB with
        | Or.inl h => h
        | Or.inr (Or.inl h) => h
        | Or.inr (Or.inr h) => h)
  | read _ _ _ => exact False.elim hA
  | atomAdd _ _ _ => exact False.elim hA
  | compute _ _ => exact False.elim hA
  | arrive _ _ _ _ => exact False.elim hA
  | exit => exact False.elim hA

/-- A read of `a` conflicts with a write or an atomic addition to `a`. -/
theorem conf_R {a : Nat} {A B : Act V} (hA : IsR a A) (hB : IsW a B ∨ IsA a B) :
    Sem.Conflict A B := by
  cases A with
  | read x r pc =>
    have hx : x = a := hA
    cases B with
    | write y v' pc' =>
      have hy : y = a := match hB with
        | Or.inl h => h
        | Or.inr h => False.elim h
      show x = y; rw [hx, hy]
    | atomAdd y v' pc' =>
      have hy : y = a := match hB with
        | Or.inl h => False.elim h
        | Or.inr h => h
      show x = y; rw [hx, hy]
    | read _ _ _ => exact False.elim (match hB with | Or.inl h => h | Or.inr h => h)
    | compute _ _ => exact False.elim (match hB with | Or.inl h => h | Or.inr h => h)
    | arrive _ _ _ _ => exact False.elim (match hB with | Or.inl h => h | Or.inr h => h)
    | exit => exact False.elim (match hB with | Or.inl h => h | Or.inr h => h)
  | write _ _ _ => exact False.elim hA
  | atomAdd _ _ _ => exact False.elim hA
  | compute _ _ => exact False.elim hA
  | arrive _ _ _ _ => exact False.elim hA
  | exit => exact False.elim hA

/-- An atomic addition to `a` conflicts with a plain write or read of `a`. -/
theorem conf_A {a : Nat} {A B : Act V} (hA : IsA a A) (hB : IsW a B ∨ IsR a B) :
    Sem.Conflict A B := by
  cases A with
  | atomAdd x v pc =>
    have hx : x = a := hA
    cases B with
    | write y v' pc' =>
      have hy : y = a := match hB with
        | Or.inl h => h
        | Or.inr h => False.elim h
      show x = y; rw [hx, hy]
    | read y r pc' =>
      have hy : y = a := match hB with
        | Or.inl h => False.elim h
        | Or.inr h => h
      show x = y; rw [hx, hy]
    | atomAdd _ _ _ => exact False.elim (match hB with | Or.inl h => h | Or.inr h => h)
    | compute _ _ => exact False.elim (match hB with | Or.inl h => h | Or.inr h => h)
    | arrive _ _ _ _ => exact False.elim (match hB with | Or.inl h => h | Or.inr h => h)
    | exit => exact False.elim (match hB with | Or.inl h => h | Or.inr h => h)
  | write _ _ _ => exact False.elim hA
  | read _ _ _ => exact False.elim hA
  | compute _ _ => exact False.elim hA
  | arrive _ _ _ _ => exact False.elim hA
  | exit => exact False.elim hA

/-- What conflicts with a read of `a`: a write or an atomic addition to `a`. -/
theorem kinds_read {a r pc : Nat} {A : Act V} (h : Sem.Conflict A (Act.read a r pc)) :
    IsW a A ∨ IsA a A := by
  cases A with
  | write x _ _ => exact Or.inl h
  | atomAdd x _ _ => exact Or.inr h
  | read _ _ _ => exact False.elim h
  | compute _ _ => exact False.elim h
  | arrive _ _ _ _ => exact False.elim h
  | exit => exact False.elim h

/-- What conflicts with a write to `a`: any access to `a`. -/
theorem kinds_write {a : Nat} {v : V} {pc : Nat} {A : Act V}
    (h : Sem.Conflict A (Act.write a v pc)) : IsW a A ∨ IsR a A ∨ IsA a A := by
  cases A with
  | write x _ _ => exact Or.inl h
  | read x _ _ => exact Or.inr (Or.inl h)
  | atomAdd x _ _ => exact Or.inr (Or.inr h)
  | compute _ _ => exact False.elim h
  | arrive _ _ _ _ => exact False.elim h
  | exit => exact False.elim h

/-- What conflicts with an atomic addition to `a`: a plain write or read of `a`. -/
theorem kinds_atomic {a : Nat} {v : V} {pc : Nat} {A : Act V}
    (h : Sem.Conflict A (Act.atomAdd a v pc)) : IsW a A ∨ IsR a A := by
  cases A with
  | write x _ _ => exact Or.inl h
  | read x _ _ => exact Or.inr h
  | atomAdd _ _ _ => exact False.elim h
  | compute _ _ => exact False.elim h
  | arrive _ _ _ _ => exact False.elim h
  | exit => exact False.elim h

theorem not_RW {a : Nat} {A : Act V} (h1 : IsR a A) (h2 : IsW a A) : False := by
  cases A with
  | write _ _ _ => exact h1
  | read _ _ _ => exact h2
  | atomAdd _ _ _ => exact h1
  | compute _ _ => exact h1
  | arrive _ _ _ _ => exact h1
  | exit => exact h1

theorem not_RA {a : Nat} {A : Act V} (h1 : IsR a A) (h2 : IsA a A) : False := by
  cases A with
  | write _ _ _ => exact h1
  | read _ _ _ => exact h2
  | atomAdd _ _ _ => exact h1
  | compute _ _ => exact h1
  | arrive _ _ _ _ => exact h1
  | exit => exact h1

theorem not_AW {a : Nat} {A : Act V} (h1 : IsA a A) (h2 : IsW a A) : False := by
  cases A with
  | write _ _ _ => exact h1
  | read _ _ _ => exact h1
  | atomAdd _ _ _ => exact h2
  | compute _ _ => exact h1
  | arrive _ _ _ _ => exact h1
  | exit => exact h1

end Kinds

/-! ## The run decides `SameEpochRace` -/

section Decide

variable {V : Type}

theorem inv_step {sv : List (Event V) → Nat → Nat → V → Bool} {N : Nat} {h : List (Event V)}
    (e : Event V) (hI : Inv sv N h) (hT : TidsBelow N (e :: h)) : Inv sv N (e :: h) := by
  match hI with
  | ⟨hc, hs, hw⟩ =>
    cases e with
    | barrier => exact ⟨atCount_barrierAll hc, fun a => shInv_bar (hs a), fun a => hw a⟩
    | act u B =>
      have hu : u < N := hT u B (nbars h) (Or.inl ⟨rfl, rfl, rfl⟩)
      have hnow : (runB sv N h).clocks.epoch u = ⟨u, nbars h + 1⟩ := epoch_clock hc hu
      cases B with
      | compute pc r =>
        exact ⟨hc, fun a => shInv_other (hs a) (fun x => x) (fun x => x) (fun x => x),
          fun a => swInv_lift (hw a) (fun _ x => x)⟩
      | arrive b n w pc =>
        exact ⟨hc, fun a => shInv_other (hs a) (fun x => x) (fun x => x) (fun x => x),
          fun a => swInv_lift (hw a) (fun _ x => x)⟩
      | exit =>
        exact ⟨hc, fun a => shInv_other (hs a) (fun x => x) (fun x => x) (fun x => x),
          fun a => swInv_lift (hw a) (fun _ x => x)⟩
      | read x r pc =>
        have e1 : ∀ a, (runB sv N (Event.act u (Act.read x r pc) :: h)).shadow a =
            Sem.upd (runB sv N h).shadow x (((runB sv N h).shadow x).access (runB sv N h).clocks
              ((runB sv N h).clocks.epoch u) false false).2 a := fun _ => rfl
        refine ⟨hc, fun a => ?_, fun a => ?_⟩
        · rw [e1]
          cases Nat.decEq a x with
          | isTrue e => rw [e, Sem.upd_same]; exact shInv_read hnow (hs x)
          | isFalse e =>
            rw [Sem.upd_other _ _ e]
            exact shInv_other (hs a) (fun x => x) (fun hh => e (Eq.symm hh)) (fun x => x)
        · rw [e1]
          cases Nat.decEq a x with
          | isTrue e => rw [e, Sem.upd_same]; exact swInv_lift (hw x) (fun _ x => x)
          | isFalse e => rw [Sem.upd_other _ _ e]; exact swInv_lift (hw a) (fun _ x => x)
      | write x v pc =>
        have e1 : ∀ a, (runB sv N (Event.act u (Act.write x v pc) :: h)).shadow a =
            Sem.upd (runB sv N h).shadow x (((runB sv N h).shadow x).access (runB sv N h).clocks
              ((runB sv N h).clocks.epoch u) true (sv h u x v)).2 a := fun _ => rfl
        refine ⟨hc, fun a => ?_, fun a => ?_⟩
        · rw [e1]
          cases Nat.decEq a x with
          | isTrue e => rw [e, Sem.upd_same]; exact shInv_write hnow
          | isFalse e =>
            rw [Sem.upd_other _ _ e]
            exact shInv_other (hs a) (fun hh => e (Eq.symm hh)) (fun x => x) (fun x => x)
        · rw [e1]
          cases Nat.decEq a x with
          | isTrue e =>
            rw [e, Sem.upd_same]
            exact swInv_write _ (true && sv h u x v) (hs x) (hw x)
          | isFalse e => rw [Sem.upd_other _ _ e]; exact swInv_lift (hw a) (fun _ x => x)
      | atomAdd x v pc =>
        have e1 : ∀ a, (runB sv N (Event.act u (Act.atomAdd x v pc) :: h)).shadow a =
            Sem.upd (runB sv N h).shadow x (((runB sv N h).shadow x).atomic (runB sv N h).clocks
              ((runB sv N h).clocks.epoch u)).2 a := fun _ => rfl
        refine ⟨hc, fun a => ?_, fun a => ?_⟩
        · rw [e1]
          cases Nat.decEq a x with
          | isTrue e => rw [e, Sem.upd_same]; exact shInv_atomic hnow (hs x)
          | isFalse e =>
            rw [Sem.upd_other _ _ e]
            exact shInv_other (hs a) (fun x => x) (fun x => x) (fun hh => e (Eq.symm hh))
        · rw [e1]
          cases Nat.decEq a x with
          | isTrue e => rw [e, Sem.upd_same]; exact swInv_lift (hw x) (fun _ x => x)
          | isFalse e => rw [Sem.upd_other _ _ e]; exact swInv_lift (hw a) (fun _ x => x)

/-- A new action `B` of thread `u` and an earlier conflicting action of another thread in the
current epoch. -/
def NewPair (h : List (Event V)) (u : Nat) (B : Act V) : Prop :=
  ∃ j A, j ≠ u ∧ Occurs h j A (nbars h) ∧ Sem.Conflict A B

/-- `same_value` for action `B` of thread `u` after `h`: only a write may store the value the
cell holds. -/
def sameFlag (sv : List (Event V) → Nat → Nat → V → Bool) (h : List (Event V)) (u : Nat) :
    Act V → Bool
  | Act.write a v _ => sv h u a v
  | Act.read _ _ _ => false
  | Act.atomAdd _ _ _ => false
  | Act.compute _ _ => false
  | Act.arrive _ _ _ _ => false
  | Act.exit => false

/-- `NewPair` as the executor with benign writes sees it: an earlier conflicting action of
another thread in the current epoch, which is not a plain write if `B` is a benign write. -/
def NewPairB (sv : List (Event V) → Nat → Nat → V → Bool) (h : List (Event V)) (u : Nat)
    (B : Act V) : Prop :=
  ∃ j A, j ≠ u ∧ Occurs h j A (nbars h) ∧ Sem.Conflict A B ∧
    (sameFlag sv h u B = true → ∀ a, IsW a A → False)

theorem newPair_of_B {sv : List (Event V) → Nat → Nat → V → Bool} {h : List (Event V)} {u : Nat}
    {B : Act V} (np : NewPairB sv h u B) : NewPair h u B :=
  match np with
  | ⟨j, A, hju, ho, hcf, _⟩ => ⟨j, A, hju, ho, hcf⟩

theorem notW_of_R {a b : Nat} {A : Act V} (h : IsR a A) : IsW b A → False := by
  cases A with
  | read _ _ _ => exact fun x => x
  | write _ _ _ => exact False.elim h
  | atomAdd _ _ _ => exact False.elim h
  | compute _ _ => exact False.elim h
  | arrive _ _ _ _ => exact False.elim h
  | exit => exact False.elim h

theorem notW_of_A {a b : Nat} {A : Act V} (h : IsA a A) : IsW b A → False := by
  cases A with
  | atomAdd _ _ _ => exact fun x => x
  | write _ _ _ => exact False.elim h
  | read _ _ _ => exact False.elim h
  | compute _ _ => exact False.elim h
  | arrive _ _ _ _ => exact False.elim h
  | exit => exact False.elim h

/-- An unordered `write` makes the chained search find something. -/
theorem uw_of_write {s : Shadow} {c : Clocks} {u : Nat} {e : Epoch}
    (he : findO (unord c u) s.write = some e) : ∃ e', s.unorderedWrite c u = some e' :=
  orOpt_left _ he

/-- What the chained search finds is `write` or an entry of `same_writes`, unordered. -/
theorem uw_some {s : Shadow} {c : Clocks} {u : Nat} {e : Epoch}
    (he : s.unorderedWrite c u = some e) :
    (s.write = some e ∨ In e s.same_writes) ∧ unord c u e = true := by
  cases orOpt_some he with
  | inl h => match findO_some h with
    | ⟨h1, h2⟩ => exact ⟨Or.inl h1, h2⟩
  | inr h => match findL_some h with
    | ⟨h1, h2⟩ => exact ⟨Or.inr h1, h2⟩

theorem sound_entry {N : Nat} {h : List (Event V)} {c : Clocks} {u : Nat} {e : Epoch}
    {A : Act V} {c0 : Nat} (hc : AtCount c N (nbars h)) (hT : TidsBelow N h) (hu : u < N)
    (hcl : e.clock = c0 + 1) (ho : Occurs h e.tid A c0) (hun : unord c u e = true) :
    e.tid ≠ u ∧ Occurs h e.tid A (nbars h) := by
  match unord_true hc (hT _ _ _ ho) hu hun with
  | ⟨hne, hlt⟩ =>
    rw [hcl] at hlt
    have e0 : c0 = nbars h := Nat.leAntisymm (occurs_le ho) (Nat.leOfLtSucc hlt)
    rw [e0] at ho
    exact ⟨hne, ho⟩

theorem complete_core {N : Nat} {h : List (Event V)} {a : Nat} {s : Shadow} {c : Clocks}
    {u i : Nat} {A : Act V} (hsh : ShInv h a s) (hc : AtCount c N (nbars h))
    (hT : TidsBelow N h) (hu : u < N) (hno : ¬SameEpochRace h) (hiu : i ≠ u)
    (ho : Occurs h i A (nbars h)) (hk : IsW a A ∨ IsR a A ∨ IsA a A) :
    (∃ e, findO (unord c u) s.write = some e) ∨
      (IsR a A ∧ ∃ e, findL (unord c u) s.reads = some e) ∨
      (IsA a A ∧ ∃ e, findL (unord c u) s.atomics = some e) := by
  have wcase : (∃ e, s.write = some e ∧ nbars h < e.clock) →
      ∃ e, findO (unord c u) s.write = some e := by
    intro hw
    match hw with
    | ⟨e, hwe, hlt⟩ =>
      match hsh.1 e hwe with
      | ⟨c0, A', hcl, ho', hW'⟩ =>
        cases Nat.decEq e.tid u with
        | isTrue et =>
          have hlt' : nbars h < c0 + 1 := by rw [← hcl]; exact hlt
          have e0 : c0 = nbars h := Nat.leAntisymm (occurs_le ho') (Nat.leOfLtSucc hlt')
          rw [e0] at ho'
          exact False.elim (hno ⟨e.tid, i, A', A, nbars h,
            fun x => hiu (Eq.trans (Eq.symm x) et), ho', ho, conf_W hW' hk⟩)
        | isFalse et =>
          exact ⟨e, findO_of hwe (unord_of hc (hT _ _ _ ho') hu et hlt)⟩
  have hi : i < N := hT _ _ _ ho
  cases hk with
  | inl hW => exact Or.inl (wcase (hsh.2.2.2.1 i A (nbars h) ho hW))
  | inr hk =>
    cases hk with
    | inl hR =>
      cases hsh.2.2.2.2.1 i A (nbars h) ho hR with
      | inl hw => exact Or.inl (wcase hw)
      | inr hr =>
        match hr with
        | ⟨e, hin, het, hlt⟩ =>
          have he : e.tid < N := by rw [het]; exact hi
          have hne : e.tid ≠ u := by rw [het]; exact hiu
          match findL_of hin (unord_of hc he hu hne hlt) with
          | ⟨e', hf⟩ => exact Or.inr (Or.inl ⟨hR, e', hf⟩)
    | inr hA =>
      cases hsh.2.2.2.2.2 i A (nbars h) ho hA with
      | inl hw => exact Or.inl (wcase hw)
      | inr hr =>
        match hr with
        | ⟨e, hin, het, hlt⟩ =>
          have he : e.tid < N := by rw [het]; exact hi
          have hne : e.tid ≠ u := by rw [het]; exact hiu
          match findL_of hin (unord_of hc he hu hne hlt) with
          | ⟨e', hf⟩ => exact Or.inr (Or.inr ⟨hA, e', hf⟩)

theorem or_cases' {x y : Bool} (h : (x || y) = true) : x = true ∨ y = true := by
  cases x
  · exact Or.inr h
  · exact Or.inl rfl

theorem isSome_cases {α : Type} {o : Option α} (h : o.isSome = true) : ∃ p, o = some p := by
  cases o with
  | none => cases h
  | some p => exact ⟨p, rfl⟩

theorem or_isSome {α : Type} (x : Bool) {o : Option α} (h : ∃ p, o = some p) :
    (x || o.isSome) = true := by
  match h with
  | ⟨p, hp⟩ => rw [hp]; cases x <;> rfl

theorem or_left' (x : Bool) {y : Bool} (h : y = true) : (y || x) = true := by
  rw [h]; rfl

theorem not_conf_compute {A : Act V} {pc : Nat} {r : Nat → V}
    (h : Sem.Conflict A (Act.compute pc r)) : False := by
  cases A <;> exact h

theorem not_conf_arrive {A : Act V} {b n : Nat} {w : Bool} {pc : Nat}
    (h : Sem.Conflict A (Act.arrive b n w pc)) : False := by
  cases A <;> exact h

theorem not_conf_exit {A : Act V} (h : Sem.Conflict A Act.exit) : False := by
  cases A <;> exact h

/-- One access event: the check reports iff it did already, or the new access meets an
earlier conflicting access of another thread in the current epoch, not a plain write if the new
access is a benign write (`NewPairB`); conversely such a pair is reported when no race was
there before and the new access is not a benign write. -/
theorem found_cons {sv : List (Event V) → Nat → Nat → V → Bool} {N : Nat} {h : List (Event V)}
    {u : Nat} {B : Act V} (hI : Inv sv N h) (hT : TidsBelow N (Event.act u B :: h)) :
    (checkB sv N (Event.act u B :: h) = true → checkB sv N h = true ∨ NewPairB sv h u B) ∧
    (sameFlag sv h u B = false → ¬SameEpochRace h → NewPair h u B →
      checkB sv N (Event.act u B :: h) = true) := by
  match hI with
  | ⟨hc, hs, hw⟩ =>
    have hu : u < N := hT u B (nbars h) (Or.inl ⟨rfl, rfl, rfl⟩)
    have hT' : TidsBelow N h := tidsBelow_tail hT
    -- an unordered write found by the chained search is a write of another thread in this epoch
    have wfound : ∀ x e, ((runB sv N h).shadow x).unorderedWrite (runB sv N h).clocks u = some e →
        e.tid ≠ u ∧ ∃ A', Occurs h e.tid A' (nbars h) ∧ IsW x A' := by
      intro x e he
      match uw_some he with
      | ⟨hin, hun⟩ =>
        have hwr : ∃ c0 A', e.clock = c0 + 1 ∧ Occurs h e.tid A' c0 ∧ IsW x A' := by
          cases hin with
          | inl h1 => exact (hs x).1 e h1
          | inr h1 => exact hw x e h1
        match hwr with
        | ⟨c0, A', hcl, ho', hW'⟩ =>
          match sound_entry hc hT' hu hcl ho' hun with
          | ⟨hne, ho''⟩ => exact ⟨hne, A', ho'', hW'⟩
    cases B with
    | compute pc r =>
      exact ⟨fun hx => Or.inl hx, fun _ _ np => match np with
        | ⟨_, _, _, _, hcf⟩ => False.elim (not_conf_compute hcf)⟩
    | arrive b n w pc =>
      exact ⟨fun hx => Or.inl hx, fun _ _ np => match np with
        | ⟨_, _, _, _, hcf⟩ => False.elim (not_conf_arrive hcf)⟩
    | exit =>
      exact ⟨fun hx => Or.inl hx, fun _ _ np => match np with
        | ⟨_, _, _, _, hcf⟩ => False.elim (not_conf_exit hcf)⟩
    | read x r pc =>
      have ec : checkB sv N (Event.act u (Act.read x r pc) :: h) = ((runB sv N h).found ||
          (orOpt (tag true (((runB sv N h).shadow x).unorderedWrite (runB sv N h).clocks u))
            (tag true (findL (unord (runB sv N h).clocks u) ((runB sv N h).shadow x).atomics))).isSome) :=
        rfl
      rw [ec]
      refine ⟨fun hx => ?_, fun _ hno np => ?_⟩
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
              match findL_some (tag_some hp) with
              | ⟨hin, hun⟩ =>
                match (hs x).2.2.1 p.1 hin with
                | ⟨c0, A', hcl, ho', hA'⟩ =>
                  match sound_entry hc hT' hu hcl ho' hun with
                  | ⟨hne, ho''⟩ =>
                    exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_A hA' (Or.inr rfl),
                      fun hf => by cases hf⟩
      · match np with
        | ⟨j, A, hju, hoj, hcf⟩ =>
          have hk : IsW x A ∨ IsR x A ∨ IsA x A := match kinds_read hcf with
            | Or.inl h => Or.inl h
            | Or.inr h => Or.inr (Or.inr h)
          apply or_isSome
          cases complete_core (hs x) hc hT' hu hno hju hoj hk with
          | inl hw =>
            match hw with
            | ⟨e, he⟩ =>
              match uw_of_write he with
              | ⟨e', he'⟩ => exact orOpt_left _ (tag_of true he')
          | inr hw =>
            cases hw with
            | inl hr =>
              exact False.elim (match kinds_read hcf with
                | Or.inl h => not_RW hr.1 h
                | Or.inr h => not_RA hr.1 h)
            | inr ha =>
              match ha.2 with
              | ⟨e, he⟩ => exact orOpt_right _ (tag_of true he)
    | write x v pc =>
      have ec : checkB sv N (Event.act u (Act.write x v pc) :: h) = ((runB sv N h).found ||
          (orOpt (orOpt (cond (sv h u x v) none
                (tag true (((runB sv N h).shadow x).unorderedWrite (runB sv N h).clocks u)))
              (tag true (findL (unord (runB sv N h).clocks u) ((runB sv N h).shadow x).atomics)))
            (tag false (findL (unord (runB sv N h).clocks u) ((runB sv N h).shadow x).reads))).isSome) :=
        rfl
      rw [ec]
      have hB : IsW x (Act.write x v pc) ∨ IsR x (Act.write x v pc) ∨ IsA x (Act.write x v pc) :=
        Or.inl (rfl : x = x)
      refine ⟨fun hx => ?_, fun hsv hno np => ?_⟩
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
                  have hp' : tag true (((runB sv N h).shadow x).unorderedWrite
                      (runB sv N h).clocks u) = some p := by rw [hb] at hp; exact hp
                  match wfound x p.1 (tag_some hp') with
                  | ⟨hne, A', ho'', hW'⟩ =>
                    refine Or.inr ⟨p.1.tid, A', hne, ho'', conf_W hW' hB, fun hf => ?_⟩
                    have hf' : sv h u x v = true := hf
                    rw [hb] at hf'
                    cases hf'
              | inr hp =>
                match findL_some (tag_some hp) with
                | ⟨hin, hun⟩ =>
                  match (hs x).2.2.1 p.1 hin with
                  | ⟨c0, A', hcl, ho', hA'⟩ =>
                    match sound_entry hc hT' hu hcl ho' hun with
                    | ⟨hne, ho''⟩ =>
                      exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_A hA' (Or.inl rfl),
                        fun _ b => notW_of_A hA'⟩
            | inr hp =>
              match findL_some (tag_some hp) with
              | ⟨hin, hun⟩ =>
                match (hs x).2.1 p.1 hin with
                | ⟨c0, A', hcl, ho', hR'⟩ =>
                  match sound_entry hc hT' hu hcl ho' hun with
                  | ⟨hne, ho''⟩ =>
                    exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_R hR' (Or.inl rfl),
                      fun _ b => notW_of_R hR'⟩
      · have hb : sv h u x v = false := hsv
        rw [hb]
        match np with
        | ⟨j, A, hju, hoj, hcf⟩ =>
          apply or_isSome
          cases complete_core (hs x) hc hT' hu hno hju hoj (kinds_write hcf) with
          | inl hw =>
            match hw with
            | ⟨e, he⟩ =>
              match uw_of_write he with
              | ⟨e', he'⟩ => exact orOpt_left2 (tag_of true he')
          | inr hw =>
            cases hw with
            | inl hr =>
              match hr.2 with
              | ⟨e, he⟩ => exact orOpt_right _ (tag_of false he)
            | inr ha =>
              match ha.2 with
              | ⟨e, he⟩ => exact orOpt_mid (tag_of true he)
    | atomAdd x v pc =>
      have ec : checkB sv N (Event.act u (Act.atomAdd x v pc) :: h) = ((runB sv N h).found ||
          (orOpt (tag true (((runB sv N h).shadow x).unorderedWrite (runB sv N h).clocks u))
            (tag false (findL (unord (runB sv N h).clocks u) ((runB sv N h).shadow x).reads))).isSome) :=
        rfl
      rw [ec]
      have hB : IsW x (Act.atomAdd x v pc) ∨ IsR x (Act.atomAdd x v pc) ∨
          IsA x (Act.atomAdd x v pc) := Or.inr (Or.inr (rfl : x = x))
      refine ⟨fun hx => ?_, fun _ hno np => ?_⟩
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
              match findL_some (tag_some hp) with
              | ⟨hin, hun⟩ =>
                match (hs x).2.1 p.1 hin with
                | ⟨c0, A', hcl, ho', hR'⟩ =>
                  match sound_entry hc hT' hu hcl ho' hun with
                  | ⟨hne, ho''⟩ =>
                    exact Or.inr ⟨p.1.tid, A', hne, ho'', conf_R hR' (Or.inr rfl),
                      fun hf => by cases hf⟩
      · match np with
        | ⟨j, A, hju, hoj, hcf⟩ =>
          have hk : IsW x A ∨ IsR x A ∨ IsA x A := match kinds_atomic hcf with
            | Or.inl h => Or.inl h
            | Or.inr h => Or.inr (Or.inl h)
          apply or_isSome
          cases complete_core (hs x) hc hT' hu hno hju hoj hk with
          | inl hw =>
            match hw with
            | ⟨e, he⟩ =>
              match uw_of_write he with
              | ⟨e', he'⟩ => exact orOpt_left _ (tag_of true he')
          | inr hw =>
            cases hw with
            | inl hr =>
              match hr.2 with
              | ⟨e, he⟩ => exact orOpt_right _ (tag_of false he)
            | inr ha =>
              exact False.elim (match kinds_atomic hcf with
                | Or.inl h => not_AW ha.1 h
                | Or.inr h => not_RA h ha.1)

end Decide

/-! ## Main theorems -/

section Main

variable {V : Type}

theorem sameEpochRace_lift {h : List (Event V)} {u : Nat} {B : Act V}
    (hr : SameEpochRace h) : SameEpochRace (Event.act u B :: h) :=
  match hr with
  | ⟨i, j, A, A', c, hij, hoi, hoj, hcf⟩ => ⟨i, j, A, A', c, hij, Or.inr hoi, Or.inr hoj, hcf⟩

theorem newPair_race {h : List (Event V)} {u : Nat} {B : Act V} (np : NewPair h u B) :
    SameEpochRace (Event.act u B :: h) :=
  match np with
  | ⟨j, A, hju, hoj, hcf⟩ => ⟨j, u, A, B, nbars h, hju, Or.inr hoj, Or.inl ⟨rfl, rfl, rfl⟩, hcf⟩

theorem sameEpochRace_cons {h : List (Event V)} {u : Nat} {B : Act V}
    (hr : SameEpochRace (Event.act u B :: h)) : SameEpochRace h ∨ NewPair h u B := by
  match hr with
  | ⟨i, j, A, A', c, hij, hoi, hoj, hcf⟩ =>
    cases hoi with
    | inl hi =>
      match hi with
      | ⟨hui, hBA, hc⟩ =>
        cases hoj with
        | inl hj => exact False.elim (hij (Eq.trans (Eq.symm hui) hj.1))
        | inr hj =>
          rw [← hc] at hj
          rw [← hBA] at hcf
          exact Or.inr ⟨j, A', fun x => hij (Eq.trans (Eq.symm hui) (Eq.symm x)), hj,
            Sem.conflict_symm _ _ hcf⟩
    | inr hi =>
      cases hoj with
      | inl hj =>
        match hj with
        | ⟨huj, hBA, hc⟩ =>
          rw [← hc] at hi
          rw [← hBA] at hcf
          exact Or.inr ⟨i, A, fun x => hij (Eq.trans x huj), hi, hcf⟩
      | inr hj => exact Or.inl ⟨i, j, A, A', c, hij, hi, hj, hcf⟩

theorem check_mono {sv : List (Event V) → Nat → Nat → V → Bool} {N : Nat} {h : List (Event V)}
    (e : Event V) (hc : checkB sv N h = true) : checkB sv N (e :: h) = true := by
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

/-- The invariant holds after every history whose threads are below `N`, whatever `sv` says
and whether or not races were reported. -/
theorem inv_runB (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) :
    ∀ h : List (Event V), TidsBelow N h → Inv sv N h := by
  intro h
  induction h with
  | nil => intro _; exact ⟨atCount_new N, fun a => shInv_empty a, fun a => swInv_empty a⟩
  | cons e h ih => intro hT; exact inv_step e (ih (tidsBelow_tail hT)) hT

/-- With no write taken as benign (`sameFlag` always `false`), the check decides
`SameEpochRace`. -/
theorem check_iff_gen (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat)
    (hsv : ∀ h u B, sameFlag sv h u B = false) :
    ∀ h : List (Event V), TidsBelow N h → Inv sv N h ∧ (checkB sv N h = true ↔ SameEpochRace h) := by
  intro h
  induction h with
  | nil =>
    intro _
    refine ⟨⟨atCount_new N, fun a => shInv_empty a, fun a => swInv_empty a⟩, fun hx => ?_,
      fun hr => ?_⟩
    · cases hx
    · match hr with
      | ⟨_, _, _, _, _, _, ho, _⟩ => exact False.elim ho
  | cons e h ih =>
    intro hT
    match ih (tidsBelow_tail hT) with
    | ⟨hI, hiff⟩ =>
      refine ⟨inv_step e hI hT, ?_⟩
      cases e with
      | barrier => exact hiff
      | act u B =>
        refine ⟨fun hx => ?_, fun hr => ?_⟩
        · cases (found_cons hI hT).1 hx with
          | inl hx => exact sameEpochRace_lift (hiff.1 hx)
          | inr np => exact newPair_race (newPair_of_B np)
        · cases sameEpochRace_cons hr with
          | inl hr => exact check_mono _ (hiff.2 hr)
          | inr np =>
            cases hf : checkB sv N h with
            | true => exact check_mono _ hf
            | false =>
              have hno : ¬SameEpochRace h := fun r => by
                have e' := Eq.trans (Eq.symm (hiff.2 r)) hf
                cases e'
              exact (found_cons hI hT).2 (hsv h u B) hno np

theorem sameFlag_noSame (h : List (Event V)) (u : Nat) (B : Act V) :
    sameFlag noSame h u B = false := by
  cases B <;> rfl

/-- The clocks after a history are those after its whole-CTA barriers: `vc t u = k + [t = u]`
for `t, u < N`, `k` the number of barriers. -/
theorem atCount_runH (N : Nat) (h : List (Event V)) (hT : TidsBelow N h) :
    AtCount (runH N h).clocks N (nbars h) :=
  (inv_runB noSame N h hT).1

/-- The vector clocks and shadow records decide the same-epoch race: over a history whose
threads are below `N`, some access is reported iff two different threads performed conflicting
actions after the same number of whole-CTA barriers (every write taken as
`same_value = false`). -/
theorem check_iff (N : Nat) (h : List (Event V)) (hT : TidsBelow N h) :
    check N h = true ↔ SameEpochRace h :=
  (check_iff_gen noSame N sameFlag_noSame h hT).2

/-- The race as the check with benign writes sees it: some access meets an earlier
conflicting access of another thread in its epoch, not a plain write when the access is a
benign write (`NewPairB`). -/
def SameEpochRaceB (sv : List (Event V) → Nat → Nat → V → Bool) : List (Event V) → Prop
  | [] => False
  | Event.barrier :: h => SameEpochRaceB sv h
  | Event.act u B :: h => SameEpochRaceB sv h ∨ NewPairB sv h u B

theorem sameEpochRace_of_B (sv : List (Event V) → Nat → Nat → V → Bool) :
    ∀ h : List (Event V), SameEpochRaceB sv h → SameEpochRace h := by
  intro h
  induction h with
  | nil => intro hr; exact False.elim hr
  | cons e h ih =>
    cases e with
    | barrier => exact ih
    | act u B =>
      intro hr
      cases hr with
      | inl hr => exact sameEpochRace_lift (ih hr)
      | inr np => exact newPair_race (newPair_of_B np)

/-- Every report of the check with benign writes (any `sv`) is a race it is meant to report:
two conflicting accesses of different threads in one epoch, the later not a benign write
meeting a plain write. -/
theorem checkB_sound (sv : List (Event V) → Nat → Nat → V → Bool) (N : Nat) :
    ∀ h : List (Event V), TidsBelow N h → checkB sv N h = true → SameEpochRaceB sv h := by
  intro h
  induction h with
  | nil => intro _ hx; cases hx
  | cons e h ih =>
    intro hT hx
    cases e with
    | barrier => exact ih (tidsBelow_tail hT) hx
    | act u B =>
      cases (found_cons (inv_runB sv N h (tidsBelow_tail hT)) hT).1 hx with
      | inl hx => exact Or.inl (ih (tidsBelow_tail hT) hx)
      | inr np => exact Or.inr np

/-- The actions of `A` that touch memory. -/
def IsMem (A : Act V) : Prop := ∃ a, IsW a A ∨ IsR a A ∨ IsA a A

theorem isMem_left {A B : Act V} (h : Sem.Conflict A B) : IsMem A := by
  cases A with
  | write x _ _ => exact ⟨x, Or.inl rfl⟩
  | read x _ _ => exact ⟨x, Or.inr (Or.inl rfl)⟩
  | atomAdd x _ _ => exact ⟨x, Or.inr (Or.inr rfl)⟩
  | compute _ _ => exact False.elim h
  | arrive _ _ _ _ => exact False.elim h
  | exit => exact False.elim h

section Traces

variable [Sem.AccAdd V]

/-- The history is made of the solo traces: each action of thread `t` after `c` barriers is
`t < N` and the action `soloAct t k` of its trace for some `k` of epoch `bars t k = c`. -/
def FromTraces (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (h : List (Event V)) : Prop :=
  ∀ t A c, Occurs h t A c → t < N ∧
    ∃ k, Sem.soloAct prog regs0 m0 t k = A ∧ Sem.bars prog regs0 m0 t k = c

/-- The history holds every memory access of every trace of a thread below `N`, after as many
barriers as its epoch. -/
def HoldsAccesses (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (h : List (Event V)) : Prop :=
  ∀ t k, t < N → IsMem (Sem.soloAct prog regs0 m0 t k) →
    Occurs h t (Sem.soloAct prog regs0 m0 t k) (Sem.bars prog regs0 m0 t k)

/-- The vector-clock check decides `EpochRace`: over a history of the solo traces' actions
that holds all their memory accesses, each after as many whole-CTA barrier completions as its
epoch (in any order of the threads within an epoch), the clocks report a race iff the traces
have two conflicting actions of different threads in the same epoch. -/
theorem check_iff_epochRace (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (h : List (Event V)) (hF : FromTraces prog N regs0 m0 h)
    (hH : HoldsAccesses prog N regs0 m0 h) :
    check N h = true ↔ Sem.EpochRace prog N regs0 m0 := by
  have hT : TidsBelow N h := fun t A c ho => (hF t A c ho).1
  refine Iff.trans (check_iff N h hT) ⟨fun hr => ?_, fun hr => ?_⟩
  · match hr with
    | ⟨i, j, A, B, c, hij, hoi, hoj, hcf⟩ =>
      match hF i A c hoi, hF j B c hoj with
      | ⟨hi, ki, hai, hbi⟩, ⟨hj, kj, haj, hbj⟩ =>
        refine ⟨i, j, ki, kj, hij, hi, hj, ?_, Eq.trans hbi (Eq.symm hbj)⟩
        rw [hai, haj]; exact hcf
  · match hr with
    | ⟨i, j, ki, kj, hij, hi, hj, hcf, hb⟩ =>
      have hoi := hH i ki hi (isMem_left hcf)
      have hoj := hH j kj hj (isMem_left (Sem.conflict_symm _ _ hcf))
      rw [← hb] at hoj
      exact ⟨i, j, _, _, _, hij, hoi, hoj, hcf⟩

/-- With `raceFree_of_noEpochRace`: if the clocks report nothing over such a history, every
schedule of a whole-CTA `bar.sync`, data-independent program is race free. -/
theorem raceFree_of_check (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : Sem.SyncAll prog N)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (h : List (Event V))
    (hF : FromTraces prog N regs0 m0 h) (hH : HoldsAccesses prog N regs0 m0 h)
    (hc : check N h = false) : Sem.RaceFree prog N (Sem.init regs0 m0) :=
  Sem.raceFree_of_noEpochRace prog N regs0 m0 R hsync hind hR0 (fun r => by
    have e' := Eq.trans (Eq.symm ((check_iff_epochRace prog N regs0 m0 h hF hH).2 r)) hc
    cases e')

/-- Every report of the check with benign writes, over a history of the solo traces, is an
`EpochRace` (any `sv`). -/
theorem checkB_epochRace (sv : List (Event V) → Nat → Nat → V → Bool) (prog : Sem.Prog V)
    (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (h : List (Event V))
    (hF : FromTraces prog N regs0 m0 h) (hc : checkB sv N h = true) :
    Sem.EpochRace prog N regs0 m0 := by
  have hT : TidsBelow N h := fun t A c ho => (hF t A c ho).1
  match sameEpochRace_of_B sv h (checkB_sound sv N h hT hc) with
  | ⟨i, j, A, B, c, hij, hoi, hoj, hcf⟩ =>
    match hF i A c hoi, hF j B c hoj with
    | ⟨hi, ki, hai, hbi⟩, ⟨hj, kj, haj, hbj⟩ =>
      refine ⟨i, j, ki, kj, hij, hi, hj, ?_, Eq.trans hbi (Eq.symm hbj)⟩
      rw [hai, haj]; exact hcf

/-- The value the cell at `a` holds after the history `h`, from the initial memory `m0`: the
last write, plus the atomic additions since. -/
def cellVal (m0 : Nat → V) : List (Event V) → Nat → V
  | [], a => m0 a
  | Event.barrier :: h, a => cellVal m0 h a
  | Event.act _ (Act.write b w _) :: h, a => if a = b then w else cellVal m0 h a
  | Event.act _ (Act.atomAdd b w _) :: h, a =>
    if a = b then Sem.AccAdd.add (cellVal m0 h a) w else cellVal m0 h a
  | Event.act _ (Act.read _ _ _) :: h, a => cellVal m0 h a
  | Event.act _ (Act.compute _ _) :: h, a => cellVal m0 h a
  | Event.act _ (Act.arrive _ _ _ _) :: h, a => cellVal m0 h a
  | Event.act _ Act.exit :: h, a => cellVal m0 h a

/-- `access.rs`'s `same_value` when values are compared exactly (`old == v`): the value written
equals the value the cell holds. -/
def cellSame [DecidableEq V] (m0 : Nat → V) : List (Event V) → Nat → Nat → V → Bool :=
  fun h _ a v => decide (v = cellVal m0 h a)

end Traces

end Main

/-! ## The Rust unit tests of `race.rs`, replayed (histories latest first) -/

section Examples

open Sem.Act

/-- Natural numbers with `+`, for examples. -/
instance accAddNat : Sem.AccAdd Nat := ⟨Nat.add, Nat.add_comm, Nat.add_assoc⟩

/-- `same_value_writes_are_benign_but_stay_on_record` (the part with whole-CTA barriers only):
thread 0 stores 1 over 0, thread 1 stores 1 unordered: benign, no report. -/
example : checkB (cellSame (fun _ => (0 : Nat))) 3
  [Event.act 1 (write 0 (1 : Nat) 1), Event.act 0 (write 0 (1 : Nat) 1)] = false := rfl

/-- A different value, unordered, is a race as always. -/
example : checkB (cellSame (fun _ => (0 : Nat))) 2
  [Event.act 1 (write 0 (2 : Nat) 1), Event.act 0 (write 0 (1 : Nat) 1)] = true := rfl

/-- After the benign write, thread 0's write stays on record (`same_writes`): a write of another
value by thread 2 in the same epoch is reported. -/
example : checkB (cellSame (fun _ => (0 : Nat))) 3
  [Event.act 2 (write 0 (5 : Nat) 1), Event.act 1 (write 0 (1 : Nat) 1),
    Event.act 0 (write 0 (1 : Nat) 1)] = true := rfl

/-- `atomics_race_with_every_unordered_same_value_write`: thread 1's atomic after the two
writes races with thread 0's, which is in `same_writes`. -/
example : checkB (cellSame (fun _ => (0 : Nat))) 2
  [Event.act 1 (atomAdd 0 (1 : Nat) 2), Event.act 1 (write 0 (1 : Nat) 1),
    Event.act 0 (write 0 (1 : Nat) 1)] = true := rfl

/-- The history of `benign_gap`, latest first: thread 0 reads address 0, then writes 1 there
(the cell held 0: not benign); thread 1 writes 1 there (the cell holds 1: benign). -/
def gapHist : List (Event Nat) :=
  [Event.act 1 (write 0 1 2), Event.act 0 (write 0 1 1), Event.act 0 (read 0 0 0)]

/-- `same_value` compares with the cell, not with every unordered write: thread 0 stores 1 then
2, thread 1 stores 2 (benign: the cell holds 2); thread 0's first store and thread 1's are
unordered writes of different values, not reported (every order ends with 2). -/
example : checkB (cellSame (fun _ => (0 : Nat))) 2
  [Event.act 1 (write 0 (2 : Nat) 1), Event.act 0 (write 0 (2 : Nat) 2),
    Event.act 0 (write 0 (1 : Nat) 1)] = false := rfl

theorem zero_ne_one' : (0 : Nat) ≠ 1 := by
  intro h; cases h

/-- The check with benign writes misses a race (a gap in `race.rs`, not in the model): thread
0's write cleared `reads`, so thread 1's benign write is checked against neither thread 0's
write (benign) nor its read (gone), although thread 1's write and thread 0's read are
unordered and the read returns 0 or 1 depending on the order.  `SameEpochRaceB` holds (the
pair is a read and a write, which no benign exemption covers) and `checkB` is `false`: the
converse of `checkB_sound` fails once a write is benign. -/
theorem benign_gap :
    SameEpochRaceB (cellSame (fun _ => (0 : Nat))) gapHist ∧
      checkB (cellSame (fun _ => (0 : Nat))) 2 gapHist = false :=
  ⟨Or.inr ⟨0, read 0 0 0, zero_ne_one', Or.inr (Or.inl ⟨rfl, rfl, rfl⟩),
    (rfl : (0 : Nat) = 0), fun _ _ hW => hW⟩, rfl⟩

/-- `barrier_orders_and_its_absence_races`: thread 1 reads what thread 0 wrote without a
barrier: race. -/
example : check 2 [Event.act 1 (read 0 0 2), Event.act 0 (write 0 (7 : Nat) 1)] = true := rfl

/-- The same with a barrier between: no race. -/
example : check 2 [Event.act 1 (read 0 0 2), Event.barrier, Event.act 0 (write 0 (7 : Nat) 1)] =
  false := rfl

/-- Then thread 0 writes again after the barrier while thread 1's read is unordered: race. -/
example : check 2 [Event.act 0 (write 0 (8 : Nat) 3), Event.act 1 (read 0 0 2), Event.barrier,
  Event.act 0 (write 0 (7 : Nat) 1)] = true := rfl

/-- `atomics_commute_but_not_with_plain_accesses` (one CTA): two atomics do not race, a plain
read beside an atomic does, an atomic beside a plain write does. -/
example : check 2 [Event.act 1 (atomAdd 0 (1 : Nat) 0), Event.act 0 (atomAdd 0 (1 : Nat) 0)] =
  false := rfl
example : check 2 [Event.act 1 (read 0 0 1), Event.act 0 (atomAdd 0 (1 : Nat) 0)] = true := rfl
example : check 2 [Event.act 0 (atomAdd 0 (1 : Nat) 0), Event.act 1 (write 0 (1 : Nat) 1)] =
  true := rfl

/-- One thread's own accesses never race, and a barrier orders the next epoch. -/
example : check 2 [Event.act 1 (write 0 (2 : Nat) 4), Event.barrier, Event.act 0 (read 0 0 3),
  Event.act 0 (write 0 (1 : Nat) 2), Event.act 0 (atomAdd 0 (1 : Nat) 1)] = false := rfl

end Examples

end Race
end Kcert
