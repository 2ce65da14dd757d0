import Kcert.Compat
import Kcert.Semantics
import Kcert.Clocks
import Kcert.ClocksKeep

/-!
# Named barriers, partial thread counts and `bar.arrive`: the clocks decide happens-before

Rust: `checker/src/exec/race.rs` (`Clocks::{row, arrive, barrier, ordered}`), `exec/step.rs`
(`Op::Bar { id, count, wait }`: the arriving thread's row is `clocks.row(t)` for `bar.sync`
and `clocks.arrive(t)` for `bar.arrive`, pushed as an `Arrival` on `cta.bars[id]`; a
`bar.sync` thread then blocks), `exec/mod.rs` (`resolve_barriers`: when barrier `id` has its
count `m` of arrivals, the first `m` are drained, and `clocks.barrier(rows, waiters)` joins all
their rows into the rows of the drained arrivals that wait, each of which then starts a new
epoch; arrive-only threads learn nothing).

`Clocks.lean` models whole-CTA barriers only (`Event.barrier`, `Clocks.barrierAll`); its
histories and theorems are unchanged.  This file has its own history type `EventN`:

* `EventN.act t A`: thread `t` performs `A` (reads, writes and atomic additions touch the
  shadow records as in `ClocksKeep.lean`);
* `EventN.bar t b wait`: thread `t` executes `bar.sync b` (`wait = true`) or `bar.arrive b`
  (`wait = false`): an `Arrival` with its row is pushed on barrier `b`'s list;
* `EventN.complete b m`: `resolve_barriers` completes barrier `b` with its count `m`: the first
  `m` arrivals are drained and joined into the waiters.  (Which `m` the executor uses, the
  first arrival's count or the CTA size, and the divergence findings are not modelled: every
  `m` is allowed, so the theorems hold for each.)

A whole-CTA `bar.sync` is the special case of `n` events `bar t b true` (`t < n`) followed by
`complete b n`.

Happens-before (`hbRun`, `HB`) is defined on the history alone, without clocks: each thread
`j` has a set of known events (`know j k`: the event with index `k`, counted from the oldest,
happens before the current point of `j`).  A thread's own event is known to it from then on
(program order); an arrival records what its thread knows at the arrival (`HArr.know`), and a
completion adds to every *waiting* participant's set everything each drained arrival knew
(barrier edges, transitively since the sets only grow).

Theorems (`NotBlocked`: a thread whose `bar.sync` arrival is pending does nothing, as in the
executor):

* `ordered_hb`: under `NotBlocked`, if the clocks say the epoch of an event of thread `u` is
  `ordered` before the current point of `j`, that event happens before `j`'s current point;
  `hb_ordered`: the converse, for every history; `ordered_iff_hb`: both.
* `hb_trans`: happens-before is transitive.
* `checkN_sound`: under `NotBlocked`, if the shadow records (`Shadow.accessK`,
  `Shadow.atomic`, every write with `same_value = false`) report nothing over the history, no
  action conflicts with an earlier action of another thread that does not happen before it
  (`UnorderedConflict`); `checkN_complete`: every report is such a conflict; `checkN_iff`.
* `checkNB_sound`: the same for every `same_value` decision, except for the exempted pairs of
  writes (`BenignW`).
* `wholeSync_barrierAll`: a whole-CTA `bar.sync` as `bar` events and a completion gives
  `Clocks.barrierAll`.
* Examples: `exProdCons` (safe), `exArriveRace` (reported, really unordered), and the
  over-full barrier of the README's finding (`overfullExec` not reported, `overfullAlt`
  reported and really unordered: the executor's matching of arrivals to barrier instances is
  one of several).

Not here: the link to `Sem` (that every schedule's race is an `UnorderedConflict` of the
executor's history); it needs the matching of arrivals to instances to be the same in every
schedule, which `overfullAlt` shows is not always so.
-/

namespace Kcert
namespace Race

open Sem (Act)

/-! ## Lists -/

/-- The length of a list (structural, so that `lenL (e :: h)` is `lenL h + 1` by definition). -/
def lenL {α : Type} : List α → Nat
  | [] => 0
  | _ :: l => lenL l + 1

/-- Rust `Vec::drain(..m)`: the first `m` elements. -/
def takeL {α : Type} : Nat → List α → List α
  | 0, _ => []
  | _ + 1, [] => []
  | m + 1, x :: l => x :: takeL m l

/-- What `drain(..m)` leaves. -/
def dropL {α : Type} : Nat → List α → List α
  | 0, l => l
  | _ + 1, [] => []
  | m + 1, _ :: l => dropL m l

/-- Two lists of equal length, related elementwise. -/
def Rel2 {α β : Type} (R : α → β → Prop) : List α → List β → Prop
  | [], [] => True
  | a :: l, x :: r => R a x ∧ Rel2 R l r
  | [], _ :: _ => False
  | _ :: _, [] => False

theorem rel2_snoc {α β : Type} {R : α → β → Prop} {a : α} {x : β} (hax : R a x) :
    ∀ {l : List α} {r : List β}, Rel2 R l r → Rel2 R (snocL l a) (snocL r x) := by
  intro l
  induction l with
  | nil =>
    intro r h
    cases r with
    | nil => exact ⟨hax, trivial⟩
    | cons y r => exact False.elim h
  | cons b l ih =>
    intro r h
    cases r with
    | nil => exact False.elim h
    | cons y r => exact ⟨h.1, ih h.2⟩

theorem rel2_take {α β : Type} {R : α → β → Prop} :
    ∀ (m : Nat) {l : List α} {r : List β}, Rel2 R l r → Rel2 R (takeL m l) (takeL m r) := by
  intro m
  induction m with
  | zero => intro l r _; exact trivial
  | succ m ih =>
    intro l r h
    cases l with
    | nil =>
      cases r with
      | nil => exact trivial
      | cons y r => exact False.elim h
    | cons a l =>
      cases r with
      | nil => exact False.elim h
      | cons y r => exact ⟨h.1, ih h.2⟩

theorem rel2_drop {α β : Type} {R : α → β → Prop} :
    ∀ (m : Nat) {l : List α} {r : List β}, Rel2 R l r → Rel2 R (dropL m l) (dropL m r) := by
  intro m
  induction m with
  | zero => intro l r h; exact h
  | succ m ih =>
    intro l r h
    cases l with
    | nil =>
      cases r with
      | nil => exact trivial
      | cons y r => exact False.elim h
    | cons a l =>
      cases r with
      | nil => exact False.elim h
      | cons y r => exact ih h.2

theorem rel2_mono {α β : Type} {R S : α → β → Prop} :
    ∀ {l : List α} {r : List β}, (∀ a x, In a l → R a x → S a x) → Rel2 R l r → Rel2 S l r := by
  intro l
  induction l with
  | nil =>
    intro r _ h
    cases r with
    | nil => exact trivial
    | cons y r => exact False.elim h
  | cons a l ih =>
    intro r hRS h
    cases r with
    | nil => exact False.elim h
    | cons y r =>
      exact ⟨hRS a y (Or.inl rfl) h.1, ih (fun a' x' ha' hr => hRS a' x' (Or.inr ha') hr) h.2⟩

theorem rel2_inL {α β : Type} {R : α → β → Prop} {a : α} :
    ∀ {l : List α} {r : List β}, Rel2 R l r → In a l → ∃ x, In x r ∧ R a x := by
  intro l
  induction l with
  | nil => intro r _ ha; exact False.elim ha
  | cons b l ih =>
    intro r h ha
    cases r with
    | nil => exact False.elim h
    | cons y r =>
      cases ha with
      | inl e => rw [← e]; exact ⟨y, Or.inl rfl, h.1⟩
      | inr ha =>
        match ih h.2 ha with
        | ⟨x, hx, hR⟩ => exact ⟨x, Or.inr hx, hR⟩

theorem rel2_inR {α β : Type} {R : α → β → Prop} {x : β} :
    ∀ {l : List α} {r : List β}, Rel2 R l r → In x r → ∃ a, In a l ∧ R a x := by
  intro l
  induction l with
  | nil =>
    intro r h hx
    cases r with
    | nil => exact False.elim hx
    | cons y r => exact False.elim h
  | cons b l ih =>
    intro r h hx
    cases r with
    | nil => exact False.elim h
    | cons y r =>
      cases hx with
      | inl e => rw [← e]; exact ⟨b, Or.inl rfl, h.1⟩
      | inr hx =>
        match ih h.2 hx with
        | ⟨a, ha, hR⟩ => exact ⟨a, Or.inr ha, hR⟩

theorem in_takeL {α : Type} {x : α} : ∀ (m : Nat) {l : List α}, In x (takeL m l) → In x l := by
  intro m
  induction m with
  | zero => intro l h; exact False.elim h
  | succ m ih =>
    intro l h
    cases l with
    | nil => exact h
    | cons y l =>
      cases h with
      | inl e => exact Or.inl e
      | inr h => exact Or.inr (ih h)

theorem in_dropL {α : Type} {x : α} : ∀ (m : Nat) {l : List α}, In x (dropL m l) → In x l := by
  intro m
  induction m with
  | zero => intro l h; exact h
  | succ m ih =>
    intro l h
    cases l with
    | nil => exact h
    | cons y l => exact Or.inr (ih h)

/-! ## Numbers -/

theorem lt_vmax_of {a b v : Nat} (ha : a < v) (hb : b < v) : vmax a b < v := by
  cases Nat.decLe a b with
  | isTrue h => show (if a ≤ b then b else a) < v; rw [if_pos' h]; exact hb
  | isFalse h => show (if a ≤ b then b else a) < v; rw [if_neg' h]; exact ha

theorem le_vmax_cases {a b c : Nat} (h : c ≤ vmax a b) : c ≤ a ∨ c ≤ b := by
  cases Nat.decLe a b with
  | isTrue hab =>
    have e : vmax a b = b := if_pos' hab
    rw [e] at h; exact Or.inr h
  | isFalse hab =>
    have e : vmax a b = a := if_neg' hab
    rw [e] at h; exact Or.inl h

theorem vmax_mono_left {a a' b : Nat} (h : a ≤ a') : vmax a b ≤ vmax a' b :=
  vmax_le (Nat.leTrans h (le_vmax_left a' b)) (le_vmax_right a' b)

/-- Every row contributes at most what the join says, and the join is one of them or 0. -/
theorem joinRows_cases {u c : Nat} :
    ∀ {rows : List (Nat → Nat)}, c ≤ joinRows rows u → c = 0 ∨ ∃ r, In r rows ∧ c ≤ r u := by
  intro rows
  induction rows with
  | nil =>
    intro h
    exact Or.inl (Nat.leAntisymm h (Nat.zeroLe c))
  | cons r rows ih =>
    intro h
    cases le_vmax_cases h with
    | inl h =>
      cases ih h with
      | inl h0 => exact Or.inl h0
      | inr hx =>
        match hx with
        | ⟨r', hr', hc⟩ => exact Or.inr ⟨r', Or.inr hr', hc⟩
    | inr h => exact Or.inr ⟨r, Or.inl rfl, h⟩

theorem joinRows_lt {u v : Nat} (hv : 0 < v) :
    ∀ {rows : List (Nat → Nat)}, (∀ r, In r rows → r u < v) → joinRows rows u < v := by
  intro rows
  induction rows with
  | nil => intro _; exact hv
  | cons r rows ih =>
    intro h
    exact lt_vmax_of (ih (fun r' hr' => h r' (Or.inr hr'))) (h r (Or.inl rfl))

/-! ## The executor's barrier state -/

/-- Rust `Clocks::arrive`: the row the thread contributes (its row now), then its own clock
goes up by one (it keeps running, in a new epoch). -/
def Clocks.arrive (c : Clocks) (t : Nat) : (Nat → Nat) × Clocks :=
  (c.row t, ⟨c.n, Sem.upd c.vc t (Sem.upd (c.vc t) t (c.vc t t + 1))⟩)

/-- Rust `exec::Arrival` (`pc` and `count` left out: they are read only by the findings). -/
structure Arrival where
  tid : Nat
  wait : Bool
  row : Nat → Nat

/-- Rust `done.iter().map(|a| a.row)`. -/
def rowsOf : List Arrival → List (Nat → Nat)
  | [] => []
  | a :: l => a.row :: rowsOf l

/-- Whether `w` is among the waiters of the drained arrivals (Rust `waiters`: the arrivals
with `wait`).  `Clocks.barrier` takes the waiters as a predicate, so a thread listed twice
counts once; a waiting thread is blocked, so it cannot arrive twice (`NotBlocked`). -/
def waiterIn : List Arrival → Nat → Bool
  | [], _ => false
  | a :: l, w => (a.wait && decide (a.tid = w)) || waiterIn l w

/-- The clocks and the barriers' arrival lists (Rust `Cta::clocks`, `Cta::bars`). -/
structure BarState where
  clocks : Clocks
  bars : Nat → List Arrival

/-- The history of the executor, with named barriers: an action, a barrier instruction
(`bar.sync` with `wait`, `bar.arrive` without), or the completion of the first `m` arrivals of
barrier `b` (`resolve_barriers`). -/
inductive EventN (V : Type) where
  | act (t : Nat) (A : Act V)
  | bar (t b : Nat) (wait : Bool)
  | complete (b m : Nat)

section Run

variable {V : Type}

/-- The clocks and barrier lists after one event (`step.rs` `Op::Bar`, `resolve_barriers`). -/
def bstep (s : BarState) : EventN V → BarState
  | EventN.act _ _ => s
  | EventN.bar t b w =>
    cond w ⟨s.clocks, Sem.upd s.bars b (snocL (s.bars b) ⟨t, true, s.clocks.row t⟩)⟩
      ⟨(s.clocks.arrive t).2,
        Sem.upd s.bars b (snocL (s.bars b) ⟨t, false, (s.clocks.arrive t).1⟩)⟩
  | EventN.complete b m =>
    ⟨s.clocks.barrier (rowsOf (takeL m (s.bars b))) (waiterIn (takeL m (s.bars b))),
      Sem.upd s.bars b (dropL m (s.bars b))⟩

/-- The clocks and barrier lists after a history (latest event first). -/
def brun (N : Nat) : List (EventN V) → BarState
  | [] => ⟨Clocks.new N, fun _ => []⟩
  | e :: h => bstep (brun N h) e

/-- The thread that performs an event (completions have none). -/
def Actor : EventN V → Nat → Prop
  | EventN.act t _, u => t = u
  | EventN.bar t _ _, u => t = u
  | EventN.complete _ _, _ => False

/-- Thread `t` has a pending `bar.sync` arrival: it is blocked (Rust `Status::Bar`). -/
def Blocked (s : BarState) (t : Nat) : Prop :=
  ∃ b a, In a (s.bars b) ∧ a.tid = t ∧ a.wait = true

/-- The executor's discipline: a blocked thread performs no event. -/
def NotBlocked (N : Nat) : List (EventN V) → Prop
  | [] => True
  | e :: h => NotBlocked N h ∧ ∀ t, Actor e t → ¬ Blocked (brun N h) t

/-- `Seg N h k u c`: the event with index `k` (counted from the oldest, from 0) is performed
by thread `u` whose own clock is then `c`: the epoch `clocks.epoch(u)` the executor takes for
it. -/
def Seg (N : Nat) : List (EventN V) → Nat → Nat → Nat → Prop
  | [], _, _, _ => False
  | e :: h, k, u, c => (k = lenL h ∧ Actor e u ∧ c = (brun N h).clocks.vc u u) ∨ Seg N h k u c

/-! ## Happens-before -/

/-- An arrival as happens-before sees it: its thread, whether it waits, and what the thread
knew when it arrived. -/
structure HArr where
  tid : Nat
  wait : Bool
  know : Nat → Prop

/-- Happens-before state: `know j k` says the event with index `k` happens before the current
point of thread `j`; `pend b` the arrivals at barrier `b` not yet completed. -/
structure HBS where
  know : Nat → Nat → Prop
  pend : Nat → List HArr

/-- Some drained arrival of `j` waits. -/
def WaitsIn (j : Nat) (l : List HArr) : Prop := ∃ x, In x l ∧ x.tid = j ∧ x.wait = true

/-- Happens-before, one event at a time.  An event of thread `t` is known to `t` (program
order); an arrival records what its thread knows, itself included; a completion of the first
`m` arrivals of `b` gives each waiting participant everything each of them knew. -/
def hbStep (h : List (EventN V)) (s : HBS) : EventN V → HBS
  | EventN.act t _ => ⟨fun j k => (j = t ∧ k = lenL h) ∨ s.know j k, s.pend⟩
  | EventN.bar t b w =>
    ⟨fun j k => (j = t ∧ k = lenL h) ∨ s.know j k,
      Sem.upd s.pend b (snocL (s.pend b) ⟨t, w, fun k => k = lenL h ∨ s.know t k⟩)⟩
  | EventN.complete b m =>
    ⟨fun j k => s.know j k ∨
        (WaitsIn j (takeL m (s.pend b)) ∧ ∃ x, In x (takeL m (s.pend b)) ∧ x.know k),
      Sem.upd s.pend b (dropL m (s.pend b))⟩

def hbRun : List (EventN V) → HBS
  | [] => ⟨fun _ _ => False, fun _ => []⟩
  | e :: h => hbStep h (hbRun h) e

/-- Event `k` of the history happens before the current point of thread `j`. -/
def HB (h : List (EventN V)) (k j : Nat) : Prop := (hbRun h).know j k

end Run

/-! ## Lemmas on the steps -/

section Lemmas

variable {V : Type}

theorem know_mono (h : List (EventN V)) (e : EventN V) {j k : Nat} (hk : (hbRun h).know j k) :
    (hbRun (e :: h)).know j k := by
  cases e with
  | act t A => exact Or.inr hk
  | bar t b w => exact Or.inr hk
  | complete b m => exact Or.inl hk

/-- A thread knows its own events. -/
theorem seg_own {N : Nat} : ∀ {h : List (EventN V)} {k u c : Nat}, Seg N h k u c →
    (hbRun h).know u k := by
  intro h
  induction h with
  | nil => intro k u c hs; exact False.elim hs
  | cons e h ih =>
    intro k u c hs
    cases hs with
    | inr hs => exact know_mono h e (ih hs)
    | inl hs =>
      cases e with
      | act t A =>
        have ht : t = u := hs.2.1
        exact Or.inl ⟨Eq.symm ht, hs.1⟩
      | bar t b w =>
        have ht : t = u := hs.2.1
        exact Or.inl ⟨Eq.symm ht, hs.1⟩
      | complete b m => exact False.elim hs.2.1

theorem seg_complete {N : Nat} {h : List (EventN V)} {b m k u c : Nat}
    (hs : Seg N (EventN.complete b m :: h) k u c) : Seg N h k u c := by
  cases hs with
  | inl hs => exact False.elim hs.2.1
  | inr hs => exact hs

theorem brun_act (N : Nat) (h : List (EventN V)) (t : Nat) (A : Act V) :
    brun N (EventN.act t A :: h) = brun N h := rfl

theorem waiterIn_of {l : List Arrival} {w : Nat} (hw : waiterIn l w = true) :
    ∃ a, In a l ∧ a.tid = w ∧ a.wait = true := by
  induction l with
  | nil => cases hw
  | cons a l ih =>
    have e : waiterIn (a :: l) w = ((a.wait && decide (a.tid = w)) || waiterIn l w) := rfl
    rw [e] at hw
    cases ha : a.wait && decide (a.tid = w) with
    | true => exact ⟨a, Or.inl rfl, of_decide_eq_true' (and_right' ha), and_left' ha⟩
    | false =>
      rw [ha] at hw
      match ih hw with
      | ⟨a', ha', h1, h2⟩ => exact ⟨a', Or.inr ha', h1, h2⟩

theorem waiterIn_false {l : List Arrival} {w : Nat} (hw : waiterIn l w = false) {a : Arrival}
    (ha : In a l) (ht : a.tid = w) : a.wait = false := by
  induction l with
  | nil => exact False.elim ha
  | cons b l ih =>
    have e : waiterIn (b :: l) w = ((b.wait && decide (b.tid = w)) || waiterIn l w) := rfl
    rw [e] at hw
    cases hb : b.wait && decide (b.tid = w) with
    | true => rw [hb] at hw; cases hw
    | false =>
      rw [hb] at hw
      cases ha with
      | inr ha => exact ih hw ha
      | inl ea =>
        rw [← ea]
        cases hbw : b.wait with
        | false => rfl
        | true =>
          have hbt : b.tid = w := by rw [ea]; exact ht
          rw [hbw, hbt, decide_eq_true' rfl] at hb
          cases hb

theorem in_rowsOf {r : Nat → Nat} : ∀ {l : List Arrival}, In r (rowsOf l) →
    ∃ a, In a l ∧ a.row = r := by
  intro l
  induction l with
  | nil => intro h; exact False.elim h
  | cons a l ih =>
    intro h
    cases h with
    | inl e => exact ⟨a, Or.inl rfl, e⟩
    | inr h =>
      match ih h with
      | ⟨a', ha', e⟩ => exact ⟨a', Or.inr ha', e⟩

end Lemmas

/-! ## The invariant: the clocks under-approximate happens-before -/

section Inv

variable {V : Type}

/-- An arrival of the executor (`a`) and of happens-before (`x`) agree, and the row `a` carries
covers only events that `x` knows; its entries for other threads are below their own clocks,
and its own entry too unless it waits. -/
def EntryOK (N : Nat) (h : List (EventN V)) (c : Clocks) (a : Arrival) (x : HArr) : Prop :=
  a.tid = x.tid ∧ a.wait = x.wait ∧
  (∀ u k cl, Seg N h k u cl → cl ≤ a.row u → x.know k) ∧
  (∀ u, u ≠ a.tid → a.row u < c.vc u u) ∧
  a.row a.tid ≤ c.vc a.tid a.tid ∧
  (a.wait = false → a.row a.tid < c.vc a.tid a.tid)

/-- The invariant: (1) a clock entry covers only events that happen before, (2) a thread's
knowledge of another's clock is below that thread's own clock, (3) the arrival lists agree
with happens-before's. -/
def CInv (N : Nat) (h : List (EventN V)) : Prop :=
  (∀ j u k c, Seg N h k u c → c ≤ (brun N h).clocks.vc j u → (hbRun h).know j k) ∧
  (∀ j t, j ≠ t → (brun N h).clocks.vc j t < (brun N h).clocks.vc t t) ∧
  (∀ b, Rel2 (EntryOK N h (brun N h).clocks) ((brun N h).bars b) ((hbRun h).pend b))

theorem cInv_nil (N : Nat) : CInv N ([] : List (EventN V)) := by
  refine ⟨fun j u k c hs _ => False.elim hs, fun j t hjt => ?_, fun b => trivial⟩
  show (if j = t then 1 else 0) < (if t = t then 1 else 0)
  rw [if_neg' hjt, if_pos' rfl]
  exact Nat.ltSuccSelf 0

theorem own_pos {c : Clocks} (h2 : ∀ j t, j ≠ t → c.vc j t < c.vc t t) (t : Nat) :
    0 < c.vc t t :=
  Nat.ltOfLeOfLt (Nat.zeroLe _) (h2 (t + 1) t (fun e => Nat.ltIrrefl t (by
    have l : t < t + 1 := Nat.ltSuccSelf t
    rw [e] at l; exact l)))

/-- An event of a thread that is not blocked: the new clocks differ from the old only in that
thread's own clock, which does not go down. -/
theorem entryOK_actor {N : Nat} {h : List (EventN V)} {e : EventN V} {c c' : Clocks} {t : Nat}
    (hact : Actor e t)
    (hseg : ∀ k u cl, Seg N (e :: h) k u cl → Seg N h k u cl ∨ (k = lenL h ∧ u = t ∧ cl = c.vc t t))
    (hown : ∀ u, c.vc u u ≤ c'.vc u u)
    {a : Arrival} {x : HArr} (hnb : a.tid = t → a.wait = false)
    (ok : EntryOK N h c a x) : EntryOK N (e :: h) c' a x := by
  refine ⟨ok.1, ok.2.1, fun u k cl hs hle => ?_, fun u hu => Nat.ltOfLtOfLe (ok.2.2.2.1 u hu) (hown u),
    Nat.leTrans ok.2.2.2.2.1 (hown _), fun hw => Nat.ltOfLtOfLe (ok.2.2.2.2.2 hw) (hown _)⟩
  cases hseg k u cl hs with
  | inl hs => exact ok.2.2.1 u k cl hs hle
  | inr hs =>
    have hlt : a.row t < c.vc t t := by
      cases Nat.decEq a.tid t with
      | isTrue ht =>
        have hw := hnb ht
        have l := ok.2.2.2.2.2 hw
        rw [ht] at l; exact l
      | isFalse ht => exact ok.2.2.2.1 t (fun e' => ht (Eq.symm e'))
    rw [hs.2.1, hs.2.2] at hle
    exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLeOfLt hle hlt))

/-- The clock entries of an actor's event: the new event's clock covers it only for its own
thread. -/
theorem i1_actor {N : Nat} {h : List (EventN V)} {e : EventN V} {c' : Clocks} {t : Nat}
    (hI : CInv N h)
    (hseg : ∀ k u cl, Seg N (e :: h) k u cl →
      Seg N h k u cl ∨ (k = lenL h ∧ u = t ∧ cl = (brun N h).clocks.vc t t))
    (hne : ∀ j u, j ≠ u → c'.vc j u = (brun N h).clocks.vc j u) :
    ∀ j u k cl, Seg N (e :: h) k u cl → cl ≤ c'.vc j u → (hbRun (e :: h)).know j k := by
  intro j u k cl hs hle
  cases Nat.decEq j u with
  | isTrue eju => rw [eju]; exact seg_own hs
  | isFalse eju =>
    rw [hne j u eju] at hle
    cases hseg k u cl hs with
    | inl hs => exact know_mono h e (hI.1 j u k cl hs hle)
    | inr hs =>
      rw [hs.2.1, hs.2.2] at hle
      rw [hs.2.1] at eju
      exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLeOfLt hle (hI.2.1 j t eju)))

theorem i2_actor {c c' : Clocks} (h2 : ∀ j t, j ≠ t → c.vc j t < c.vc t t)
    (hne : ∀ j u, j ≠ u → c'.vc j u = c.vc j u) (hown : ∀ u, c.vc u u ≤ c'.vc u u) :
    ∀ j t, j ≠ t → c'.vc j t < c'.vc t t := by
  intro j t hjt
  rw [hne j t hjt]
  exact Nat.ltOfLtOfLe (h2 j t hjt) (hown t)

theorem arrive_ne (c : Clocks) (t : Nat) {j u : Nat} (hju : j ≠ u) :
    (c.arrive t).2.vc j u = c.vc j u := by
  show (if j = t then Sem.upd (c.vc t) t (c.vc t t + 1) else c.vc j) u = c.vc j u
  cases Nat.decEq j t with
  | isFalse hj => rw [if_neg' hj]
  | isTrue hj =>
    rw [if_pos' hj]
    show (if u = t then c.vc t t + 1 else c.vc t u) = c.vc j u
    have hu : ¬ u = t := fun e => hju (Eq.trans hj (Eq.symm e))
    rw [if_neg' hu, hj]

theorem arrive_self (c : Clocks) (t : Nat) : (c.arrive t).2.vc t t = c.vc t t + 1 := by
  show (if t = t then Sem.upd (c.vc t) t (c.vc t t + 1) else c.vc t) t = c.vc t t + 1
  rw [if_pos' rfl]
  show (if t = t then c.vc t t + 1 else c.vc t t) = c.vc t t + 1
  rw [if_pos' rfl]

theorem arrive_own (c : Clocks) (t u : Nat) : c.vc u u ≤ (c.arrive t).2.vc u u := by
  cases Nat.decEq u t with
  | isTrue e => rw [e, arrive_self]; exact Nat.leSucc _
  | isFalse e =>
    show c.vc u u ≤ (if u = t then Sem.upd (c.vc t) t (c.vc t t + 1) else c.vc u) u
    rw [if_neg' e]; exact Nat.leRefl _

theorem upd_same {α : Type} (f : Nat → α) (b : Nat) (x : α) : Sem.upd f b x b = x := by
  show (if b = b then x else f b) = x
  rw [if_pos' rfl]

theorem upd_other {α : Type} (f : Nat → α) {b b' : Nat} (x : α) (hb : ¬ b' = b) :
    Sem.upd f b x b' = f b' := by
  show (if b' = b then x else f b') = f b'
  rw [if_neg' hb]

/-- The arrival lists of the other barriers, and the old entries of this one, stay right
after an event of a thread that is not blocked. -/
theorem rel2_actor {N : Nat} {h : List (EventN V)} {e : EventN V} {c' : Clocks} {t : Nat}
    (hact : Actor e t) (hnb : ¬ Blocked (brun N h) t)
    (hseg : ∀ k u cl, Seg N (e :: h) k u cl →
      Seg N h k u cl ∨ (k = lenL h ∧ u = t ∧ cl = (brun N h).clocks.vc t t))
    (hown : ∀ u, (brun N h).clocks.vc u u ≤ c'.vc u u) (b : Nat) {r : List HArr}
    (hr : Rel2 (EntryOK N h (brun N h).clocks) ((brun N h).bars b) r) :
    Rel2 (EntryOK N (e :: h) c') ((brun N h).bars b) r := by
  refine rel2_mono (fun a x ha ok => entryOK_actor hact hseg hown ?_ ok) hr
  intro ht
  cases hw : a.wait with
  | false => rfl
  | true => exact False.elim (hnb ⟨b, a, ha, ht, hw⟩)

theorem seg_act {N : Nat} {h : List (EventN V)} {t : Nat} {A : Act V} :
    ∀ k u cl, Seg N (EventN.act t A :: h) k u cl →
      Seg N h k u cl ∨ (k = lenL h ∧ u = t ∧ cl = (brun N h).clocks.vc t t) := by
  intro k u cl hs
  cases hs with
  | inr hs => exact Or.inl hs
  | inl hs =>
    have ht : t = u := hs.2.1
    rw [← ht] at hs
    exact Or.inr ⟨hs.1, Eq.symm ht, hs.2.2⟩

theorem seg_bar {N : Nat} {h : List (EventN V)} {t b : Nat} {w : Bool} :
    ∀ k u cl, Seg N (EventN.bar t b w :: h) k u cl →
      Seg N h k u cl ∨ (k = lenL h ∧ u = t ∧ cl = (brun N h).clocks.vc t t) := by
  intro k u cl hs
  cases hs with
  | inr hs => exact Or.inl hs
  | inl hs =>
    have ht : t = u := hs.2.1
    rw [← ht] at hs
    exact Or.inr ⟨hs.1, Eq.symm ht, hs.2.2⟩

theorem cInv_act {N : Nat} {h : List (EventN V)} {t : Nat} {A : Act V} (hI : CInv N h)
    (hnb : ¬ Blocked (brun N h) t) : CInv N (EventN.act t A :: h) := by
  have hne : ∀ j u, j ≠ u → (brun N (EventN.act t A :: h)).clocks.vc j u =
      (brun N h).clocks.vc j u := fun j u _ => rfl
  have hown : ∀ u, (brun N h).clocks.vc u u ≤ (brun N (EventN.act t A :: h)).clocks.vc u u :=
    fun u => Nat.leRefl _
  exact ⟨i1_actor hI seg_act hne, i2_actor hI.2.1 hne hown,
    fun b => rel2_actor (rfl : Actor (EventN.act t A) t) hnb seg_act hown b (hI.2.2 b)⟩

/-- The entry a barrier instruction pushes. -/
theorem entryOK_new {N : Nat} {h : List (EventN V)} {t b : Nat} {w : Bool} {c' : Clocks}
    (hI : CInv N h) (hown : ∀ u, (brun N h).clocks.vc u u ≤ c'.vc u u)
    (hstrict : w = false → (brun N h).clocks.vc t t < c'.vc t t) :
    EntryOK N (EventN.bar t b w :: h) c' ⟨t, w, (brun N h).clocks.vc t⟩
      ⟨t, w, fun k => k = lenL h ∨ (hbRun h).know t k⟩ := by
  refine ⟨rfl, rfl, fun u k cl hs hle => ?_,
    fun u hu => Nat.ltOfLtOfLe (hI.2.1 t u (fun e => hu (Eq.symm e))) (hown u), hown t, hstrict⟩
  cases seg_bar k u cl hs with
  | inl hs => exact Or.inr (hI.1 t u k cl hs hle)
  | inr hs => exact Or.inl hs.1

theorem cInv_bar {N : Nat} {h : List (EventN V)} {t b : Nat} {w : Bool} (hI : CInv N h)
    (hnb : ¬ Blocked (brun N h) t) : CInv N (EventN.bar t b w :: h) := by
  have hact : Actor (EventN.bar t b w : EventN V) t := rfl
  cases w with
  | true =>
    have hne : ∀ j u, j ≠ u → (brun N (EventN.bar t b true :: h)).clocks.vc j u =
        (brun N h).clocks.vc j u := fun j u _ => rfl
    have hown : ∀ u, (brun N h).clocks.vc u u ≤
        (brun N (EventN.bar t b true :: h)).clocks.vc u u := fun u => Nat.leRefl _
    refine ⟨i1_actor hI seg_bar hne, i2_actor hI.2.1 hne hown, fun b' => ?_⟩
    cases Nat.decEq b' b with
    | isTrue eb =>
      rw [eb]
      show Rel2 _ (Sem.upd (brun N h).bars b (snocL ((brun N h).bars b) ⟨t, true, (brun N h).clocks.vc t⟩) b)
        (Sem.upd (hbRun h).pend b (snocL ((hbRun h).pend b)
          ⟨t, true, fun k => k = lenL h ∨ (hbRun h).know t k⟩) b)
      rw [upd_same, upd_same]
      exact rel2_snoc (entryOK_new hI hown (fun e => Bool.noConfusion e))
        (rel2_actor hact hnb seg_bar hown b (hI.2.2 b))
    | isFalse eb =>
      show Rel2 _ (Sem.upd (brun N h).bars b _ b') (Sem.upd (hbRun h).pend b _ b')
      rw [upd_other _ _ eb, upd_other _ _ eb]
      exact rel2_actor hact hnb seg_bar hown b' (hI.2.2 b')
  | false =>
    have hne : ∀ j u, j ≠ u → (brun N (EventN.bar t b false :: h)).clocks.vc j u =
        (brun N h).clocks.vc j u := fun j u hju => arrive_ne (brun N h).clocks t hju
    have hown : ∀ u, (brun N h).clocks.vc u u ≤
        (brun N (EventN.bar t b false :: h)).clocks.vc u u :=
      fun u => arrive_own (brun N h).clocks t u
    have hstrict : (brun N h).clocks.vc t t < (brun N (EventN.bar t b false :: h)).clocks.vc t t := by
      show (brun N h).clocks.vc t t < ((brun N h).clocks.arrive t).2.vc t t
      rw [arrive_self]; exact Nat.ltSuccSelf _
    refine ⟨i1_actor hI seg_bar hne, i2_actor hI.2.1 hne hown, fun b' => ?_⟩
    cases Nat.decEq b' b with
    | isTrue eb =>
      rw [eb]
      show Rel2 _ (Sem.upd (brun N h).bars b (snocL ((brun N h).bars b) ⟨t, false, (brun N h).clocks.vc t⟩) b)
        (Sem.upd (hbRun h).pend b (snocL ((hbRun h).pend b)
          ⟨t, false, fun k => k = lenL h ∨ (hbRun h).know t k⟩) b)
      rw [upd_same, upd_same]
      exact rel2_snoc (entryOK_new hI hown (fun _ => hstrict))
        (rel2_actor hact hnb seg_bar hown b (hI.2.2 b))
    | isFalse eb =>
      show Rel2 _ (Sem.upd (brun N h).bars b _ b') (Sem.upd (hbRun h).pend b _ b')
      rw [upd_other _ _ eb, upd_other _ _ eb]
      exact rel2_actor hact hnb seg_bar hown b' (hI.2.2 b')

theorem barrier_notW {c : Clocks} {rows : List (Nat → Nat)} {W : Nat → Bool} {w : Nat}
    (hw : W w = false) (j : Nat) : (c.barrier rows W).vc w j = c.vc w j := by
  show cond (W w) _ (c.vc w j) = c.vc w j
  rw [hw]; rfl

theorem barrier_W {c : Clocks} {rows : List (Nat → Nat)} {W : Nat → Bool} {w : Nat}
    (hw : W w = true) (j : Nat) :
    (c.barrier rows W).vc w j = vmax (c.vc w j) (joinRows rows j) + (if j = w then 1 else 0) := by
  show cond (W w) _ (c.vc w j) = _
  rw [hw]; rfl

theorem barrier_own (c : Clocks) (rows : List (Nat → Nat)) (W : Nat → Bool) (u : Nat) :
    c.vc u u ≤ (c.barrier rows W).vc u u := by
  cases hw : W u with
  | false => rw [barrier_notW hw]; exact Nat.leRefl _
  | true =>
    rw [barrier_W hw]
    exact Nat.leTrans (le_vmax_left _ _) (Nat.leAddRight _ _)

theorem entryOK_complete {N : Nat} {h : List (EventN V)} {b m : Nat} {c c' : Clocks}
    (hown : ∀ u, c.vc u u ≤ c'.vc u u) {a : Arrival} {x : HArr} (ok : EntryOK N h c a x) :
    EntryOK N (EventN.complete b m :: h) c' a x :=
  ⟨ok.1, ok.2.1, fun u k cl hs hle => ok.2.2.1 u k cl (seg_complete hs) hle,
    fun u hu => Nat.ltOfLtOfLe (ok.2.2.2.1 u hu) (hown u),
    Nat.leTrans ok.2.2.2.2.1 (hown _), fun hw => Nat.ltOfLtOfLe (ok.2.2.2.2.2 hw) (hown _)⟩

theorem cInv_complete {N : Nat} {h : List (EventN V)} {b m : Nat} (hI : CInv N h) :
    CInv N (EventN.complete b m :: h) := by
  have hA : Rel2 (EntryOK N h (brun N h).clocks) (takeL m ((brun N h).bars b))
      (takeL m ((hbRun h).pend b)) := rel2_take m (hI.2.2 b)
  have hvc : (brun N (EventN.complete b m :: h)).clocks = (brun N h).clocks.barrier
      (rowsOf (takeL m ((brun N h).bars b))) (waiterIn (takeL m ((brun N h).bars b))) := rfl
  have hown : ∀ u, (brun N h).clocks.vc u u ≤ (brun N (EventN.complete b m :: h)).clocks.vc u u := by
    intro u; rw [hvc]; exact barrier_own _ _ _ u
  refine ⟨fun j u k cl hs hle => ?_, fun j t hjt => ?_, fun b' => ?_⟩
  · cases Nat.decEq j u with
    | isTrue eju => rw [eju]; exact seg_own hs
    | isFalse eju =>
      have hs' := seg_complete hs
      rw [hvc] at hle
      cases hw : waiterIn (takeL m ((brun N h).bars b)) j with
      | false =>
        rw [barrier_notW hw] at hle
        exact Or.inl (hI.1 j u k cl hs' hle)
      | true =>
        rw [barrier_W hw, if_neg' (fun e => eju (Eq.symm e)), Nat.add_zero] at hle
        cases le_vmax_cases hle with
        | inl hle => exact Or.inl (hI.1 j u k cl hs' hle)
        | inr hle =>
          cases joinRows_cases hle with
          | inl h0 =>
            rw [h0] at hs'
            exact Or.inl (hI.1 j u k 0 hs' (Nat.zeroLe _))
          | inr hr =>
            match hr with
            | ⟨r, hr, hcl⟩ =>
              match in_rowsOf hr with
              | ⟨a, ha, ea⟩ =>
                match rel2_inL hA ha with
                | ⟨x, hx, ok⟩ =>
                  rw [← ea] at hcl
                  match waiterIn_of hw with
                  | ⟨a', ha', ht', hw'⟩ =>
                    match rel2_inL hA ha' with
                    | ⟨x', hx', ok'⟩ =>
                      refine Or.inr ⟨⟨x', hx', ?_, ?_⟩, ⟨x, hx, ok.2.2.1 u k cl hs' hcl⟩⟩
                      · rw [← ok'.1]; exact ht'
                      · rw [← ok'.2.1]; exact hw'
  · have h2 := hI.2.1
    rw [hvc]
    cases hwt : waiterIn (takeL m ((brun N h).bars b)) t with
    | true =>
      rw [barrier_W hwt t, if_pos' rfl]
      cases hwj : waiterIn (takeL m ((brun N h).bars b)) j with
      | true =>
        rw [barrier_W hwj t, if_neg' (fun e => hjt (Eq.symm e)), Nat.add_zero]
        exact Nat.succLeSucc (vmax_mono_left (Nat.leOfLt (h2 j t hjt)))
      | false =>
        rw [barrier_notW hwj t]
        exact Nat.ltOfLtOfLe (h2 j t hjt) (Nat.leTrans (le_vmax_left _ _) (Nat.leAddRight _ _))
    | false =>
      rw [barrier_notW hwt t]
      have hJ : joinRows (rowsOf (takeL m ((brun N h).bars b))) t < (brun N h).clocks.vc t t := by
        refine joinRows_lt (own_pos h2 t) (fun r hr => ?_)
        match in_rowsOf hr with
        | ⟨a, ha, ea⟩ =>
          rw [← ea]
          match rel2_inL hA ha with
          | ⟨x, _, ok⟩ =>
            cases Nat.decEq a.tid t with
            | isTrue et =>
              have l := ok.2.2.2.2.2 (waiterIn_false hwt ha et)
              rw [et] at l; exact l
            | isFalse et => exact ok.2.2.2.1 t (fun e => et (Eq.symm e))
      cases hwj : waiterIn (takeL m ((brun N h).bars b)) j with
      | true =>
        rw [barrier_W hwj t, if_neg' (fun e => hjt (Eq.symm e)), Nat.add_zero]
        exact lt_vmax_of (h2 j t hjt) hJ
      | false =>
        rw [barrier_notW hwj t]
        exact h2 j t hjt
  · have hmono := fun (l : List Arrival) (r : List HArr)
        (hr : Rel2 (EntryOK N h (brun N h).clocks) l r) =>
      rel2_mono (fun a x _ ok => entryOK_complete (b := b) (m := m) hown ok) hr
    cases Nat.decEq b' b with
    | isTrue eb =>
      rw [eb]
      show Rel2 _ (Sem.upd (brun N h).bars b (dropL m ((brun N h).bars b)) b)
        (Sem.upd (hbRun h).pend b (dropL m ((hbRun h).pend b)) b)
      rw [upd_same, upd_same]
      exact hmono _ _ (rel2_drop m (hI.2.2 b))
    | isFalse eb =>
      show Rel2 _ (Sem.upd (brun N h).bars b _ b') (Sem.upd (hbRun h).pend b _ b')
      rw [upd_other _ _ eb, upd_other _ _ eb]
      exact hmono _ _ (hI.2.2 b')

/-- The invariant holds along every history in which blocked threads do nothing. -/
theorem cInv_run {N : Nat} : ∀ {h : List (EventN V)}, NotBlocked N h → CInv N h := by
  intro h
  induction h with
  | nil => intro _; exact cInv_nil N
  | cons e h ih =>
    intro hw
    have hI := ih hw.1
    cases e with
    | act t A => exact cInv_act hI (hw.2 t rfl)
    | bar t b w => exact cInv_bar hI (hw.2 t rfl)
    | complete b m => exact cInv_complete hI

/-- **The clocks decide happens-before (soundness direction).**  In a history where blocked
threads do nothing, if the epoch of event `k` (thread `u`, own clock `c`: what
`clocks.epoch(u)` was when `u` performed it) is `ordered` before the current point of thread
`j`, then event `k` happens before the current point of `j`. -/
theorem ordered_hb {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) {k u c j : Nat}
    (hs : Seg N h k u c) (ho : (brun N h).clocks.ordered ⟨u, c⟩ j = true) : HB h k j := by
  have d : (brun N h).clocks.ordered ⟨u, c⟩ j =
      (decide (u = j) || decide (c ≤ (brun N h).clocks.vc j u)) := rfl
  rw [d] at ho
  cases Nat.decEq u j with
  | isTrue e => rw [← e]; exact seg_own hs
  | isFalse e =>
    rw [decide_eq_false' e] at ho
    exact (cInv_run hw).1 j u k c hs (of_decide_eq_true' ho)

end Inv

end Race
end Kcert

/-! ## Happens-before is transitive -/

namespace Kcert
namespace Race

open Sem (Act)

section Trans

variable {V : Type}

/-- `KAt h ke k`: right after event `ke`, its thread knows event `k` (so `k` happens before
`ke`, or is `ke`). -/
def KAt : List (EventN V) → Nat → Nat → Prop
  | [], _, _ => False
  | e :: h, ke, k => (ke = lenL h ∧ ∃ t, Actor e t ∧ (hbRun (e :: h)).know t k) ∨ KAt h ke k

/-- Knowledge is about events of the history. -/
def Bound (h : List (EventN V)) : Prop :=
  (∀ j k, (hbRun h).know j k → k < lenL h) ∧
  (∀ b x, In x ((hbRun h).pend b) → ∀ k, x.know k → k < lenL h)

/-- What is known of an event is known with it: knowledge is closed under `KAt`. -/
def TInv (h : List (EventN V)) : Prop :=
  (∀ j ke k, (hbRun h).know j ke → KAt h ke k → (hbRun h).know j k) ∧
  (∀ b x, In x ((hbRun h).pend b) → ∀ ke k, x.know ke → KAt h ke k → x.know k)

theorem kat_lt : ∀ {h : List (EventN V)} {ke k : Nat}, KAt h ke k → ke < lenL h := by
  intro h
  induction h with
  | nil => intro ke k hk; exact False.elim hk
  | cons e h ih =>
    intro ke k hk
    cases hk with
    | inl hk => rw [hk.1]; exact Nat.ltSuccSelf _
    | inr hk => exact Nat.leStep (ih hk)

theorem in_upd_snoc {x y : HArr} {p : Nat → List HArr} {b b' : Nat}
    (hx : In x (Sem.upd p b (snocL (p b) y) b')) : In x (p b') ∨ x = y := by
  cases Nat.decEq b' b with
  | isTrue eb =>
    rw [eb, upd_same] at hx
    cases in_snocL hx with
    | inl h => rw [eb]; exact Or.inl h
    | inr h => exact Or.inr (Eq.symm h)
  | isFalse eb =>
    rw [upd_other _ _ eb] at hx
    exact Or.inl hx

theorem in_upd_drop {x : HArr} {p : Nat → List HArr} {b b' m : Nat}
    (hx : In x (Sem.upd p b (dropL m (p b)) b')) : In x (p b') := by
  cases Nat.decEq b' b with
  | isTrue eb =>
    rw [eb, upd_same] at hx
    rw [eb]; exact in_dropL m hx
  | isFalse eb =>
    rw [upd_other _ _ eb] at hx
    exact hx

theorem bound_run : ∀ (h : List (EventN V)), Bound h := by
  intro h
  induction h with
  | nil => exact ⟨fun j k hk => False.elim hk, fun b x hx => False.elim hx⟩
  | cons e h ih =>
    have up : ∀ {k}, k < lenL h → k < lenL (e :: h) := fun hk => Nat.leStep hk
    have new : ∀ {k}, k = lenL h → k < lenL (e :: h) := by
      intro k hk; rw [hk]; exact Nat.ltSuccSelf _
    cases e with
    | act t A =>
      refine ⟨fun j k hk => ?_, fun b x hx k hk => up (ih.2 b x hx k hk)⟩
      cases hk with
      | inl hk => exact new hk.2
      | inr hk => exact up (ih.1 j k hk)
    | bar t b w =>
      refine ⟨fun j k hk => ?_, fun b' x hx k hk => ?_⟩
      · cases hk with
        | inl hk => exact new hk.2
        | inr hk => exact up (ih.1 j k hk)
      · cases in_upd_snoc hx with
        | inl hx => exact up (ih.2 b' x hx k hk)
        | inr ex =>
          rw [ex] at hk
          cases hk with
          | inl hk => exact new hk
          | inr hk => exact up (ih.1 t k hk)
    | complete b m =>
      refine ⟨fun j k hk => ?_, fun b' x hx k hk => up (ih.2 b' x (in_upd_drop hx) k hk)⟩
      cases hk with
      | inl hk => exact up (ih.1 j k hk)
      | inr hk =>
        match hk.2 with
        | ⟨x, hx, hxk⟩ => exact up (ih.2 b x (in_takeL m hx) k hxk)

theorem not_know_new {h : List (EventN V)} {j : Nat} (hk : (hbRun h).know j (lenL h)) : False :=
  Nat.ltIrrefl _ ((bound_run h).1 j _ hk)

theorem tInv_run : ∀ (h : List (EventN V)), TInv h := by
  intro h
  induction h with
  | nil => exact ⟨fun j ke k hk => False.elim hk, fun b x hx => False.elim hx⟩
  | cons e h ih =>
    have hB := bound_run h
    cases e with
    | act t A =>
      refine ⟨fun j ke k hk hat => ?_, fun b x hx ke k hxk hat => ?_⟩
      · cases hat with
        | inl hat =>
          match hat.2 with
          | ⟨t', ht', hkt⟩ =>
            cases hk with
            | inl hk =>
              have et : t = t' := ht'
              rw [hk.1]; rw [← et] at hkt; exact hkt
            | inr hk => rw [hat.1] at hk; exact False.elim (not_know_new hk)
        | inr hat =>
          cases hk with
          | inl hk => exact False.elim (Nat.ltIrrefl _ (by have l := kat_lt hat; rw [← hk.2] at l; exact l))
          | inr hk => exact Or.inr (ih.1 j ke k hk hat)
      · cases hat with
        | inl hat =>
          rw [hat.1] at hxk
          exact False.elim (Nat.ltIrrefl _ (hB.2 b x hx _ hxk))
        | inr hat => exact ih.2 b x hx ke k hxk hat
    | bar t b w =>
      refine ⟨fun j ke k hk hat => ?_, fun b' x hx ke k hxk hat => ?_⟩
      · cases hat with
        | inl hat =>
          match hat.2 with
          | ⟨t', ht', hkt⟩ =>
            cases hk with
            | inl hk =>
              have et : t = t' := ht'
              rw [hk.1]; rw [← et] at hkt; exact hkt
            | inr hk => rw [hat.1] at hk; exact False.elim (not_know_new hk)
        | inr hat =>
          cases hk with
          | inl hk => exact False.elim (Nat.ltIrrefl _ (by have l := kat_lt hat; rw [← hk.2] at l; exact l))
          | inr hk => exact Or.inr (ih.1 j ke k hk hat)
      · cases in_upd_snoc hx with
        | inl hx =>
          cases hat with
          | inl hat =>
            rw [hat.1] at hxk
            exact False.elim (Nat.ltIrrefl _ (hB.2 b' x hx _ hxk))
          | inr hat => exact ih.2 b' x hx ke k hxk hat
        | inr ex =>
          rw [ex]
          rw [ex] at hxk
          cases hat with
          | inl hat =>
            match hat.2 with
            | ⟨t', ht', hkt⟩ =>
              have et : t = t' := ht'
              rw [← et] at hkt
              cases hkt with
              | inl hkt => exact Or.inl hkt.2
              | inr hkt => exact Or.inr hkt
          | inr hat =>
            cases hxk with
            | inl hxk => exact False.elim (Nat.ltIrrefl _ (by have l := kat_lt hat; rw [hxk] at l; exact l))
            | inr hxk => exact Or.inr (ih.1 t ke k hxk hat)
    | complete b m =>
      refine ⟨fun j ke k hk hat => ?_, fun b' x hx ke k hxk hat => ?_⟩
      · cases hat with
        | inl hat => match hat.2 with
          | ⟨t', ht', _⟩ => exact False.elim ht'
        | inr hat =>
          cases hk with
          | inl hk => exact Or.inl (ih.1 j ke k hk hat)
          | inr hk =>
            match hk.2 with
            | ⟨x, hx, hxk⟩ =>
              exact Or.inr ⟨hk.1, x, hx, ih.2 b x (in_takeL m hx) ke k hxk hat⟩
      · cases hat with
        | inl hat => match hat.2 with
          | ⟨t', ht', _⟩ => exact False.elim ht'
        | inr hat => exact ih.2 b' x (in_upd_drop hx) ke k hxk hat

/-- Happens-before is transitive through `KAt`. -/
theorem hb_trans {h : List (EventN V)} {j ke k : Nat} (h1 : HB h ke j) (h2 : KAt h ke k) :
    HB h k j :=
  (tInv_run h).1 j ke k h1 h2

end Trans

end Race
end Kcert

/-! ## The shadow records over named-barrier histories: no report, no unordered conflict -/

namespace Kcert
namespace Race

open Sem (Act)

/-- The shadow part of the race state: a record per address, and whether a race was found. -/
structure ShState where
  shadow : Nat → Shadow
  found : Bool

def ShState.record (s : ShState) (a : Nat) (r : Option (Epoch × Bool) × Shadow) : ShState :=
  ⟨Sem.upd s.shadow a r.2, s.found || r.1.isSome⟩

section Shadow

variable {V : Type}

/-- One event: a memory action calls `Shadow::access` (`accessK`, the Rust since the
benign-write repair) or `Shadow::atomic` at the thread's current epoch; barrier events leave
the records alone.  `sv` is `same_value`, as in `ClocksKeep.lean`. -/
def shstep (sv : List (EventN V) → Nat → Nat → V → Bool) (h : List (EventN V)) (c : Clocks)
    (s : ShState) : EventN V → ShState
  | EventN.act t (Act.read a _ _) => s.record a ((s.shadow a).accessK c (c.epoch t) false false)
  | EventN.act t (Act.write a v _) =>
    s.record a ((s.shadow a).accessK c (c.epoch t) true (sv h t a v))
  | EventN.act t (Act.atomAdd a _ _) => s.record a ((s.shadow a).atomic c (c.epoch t))
  | EventN.act _ (Act.compute _ _) => s
  | EventN.act _ (Act.arrive _ _ _ _) => s
  | EventN.act _ Act.exit => s
  | EventN.bar _ _ _ => s
  | EventN.complete _ _ => s

/-- The shadow state after a history, with the clocks of `brun`. -/
def nrun (sv : List (EventN V) → Nat → Nat → V → Bool) (N : Nat) : List (EventN V) → ShState
  | [] => ⟨fun _ => Shadow.empty, false⟩
  | e :: h => shstep sv h (brun N h).clocks (nrun sv N h) e

/-- Whether the run over the history reported a race. -/
def checkN (sv : List (EventN V) → Nat → Nat → V → Bool) (N : Nat) (h : List (EventN V)) : Bool :=
  (nrun sv N h).found

/-- Every write taken as `same_value = false`. -/
def noSameN : List (EventN V) → Nat → Nat → V → Bool := fun _ _ _ _ => false

/-- Event `k` of the history is thread `i` performing `A`. -/
def ActAt : List (EventN V) → Nat → Nat → Act V → Prop
  | [], _, _, _ => False
  | EventN.act t B :: h, k, i, A => (k = lenL h ∧ t = i ∧ B = A) ∨ ActAt h k i A
  | EventN.bar _ _ _ :: h, k, i, A => ActAt h k i A
  | EventN.complete _ _ :: h, k, i, A => ActAt h k i A

/-- Some action conflicts with an earlier action of another thread that does not happen
before it. -/
def UnorderedConflict : List (EventN V) → Prop
  | [] => False
  | EventN.act j B :: h =>
    UnorderedConflict h ∨ ∃ i A k, ActAt h k i A ∧ i ≠ j ∧ Sem.Conflict A B ∧ ¬ HB h k j
  | EventN.bar _ _ _ :: h => UnorderedConflict h
  | EventN.complete _ _ :: h => UnorderedConflict h

/-- Entry `x` stands for event `k`: some event of `x`'s thread at `x`'s clock knew `k`. -/
def Cov (N : Nat) (h : List (EventN V)) (x : Epoch) (k : Nat) : Prop :=
  ∃ ke, Seg N h ke x.tid x.clock ∧ KAt h ke k

/-- Every access of the history to `a` is stood for by an entry of its kind. -/
def ShInvN (N : Nat) (h : List (EventN V)) (a : Nat) (s : Shadow) : Prop :=
  (∀ k i A, ActAt h k i A → IsW a A → ∃ x, s.write = some x ∧ Cov N h x k) ∧
  (∀ k i A, ActAt h k i A → IsR a A → ∃ x, In x s.reads ∧ Cov N h x k) ∧
  (∀ k i A, ActAt h k i A → IsA a A → ∃ x, In x s.atomics ∧ Cov N h x k)

theorem cov_mono {N : Nat} {h : List (EventN V)} (e : EventN V) {x : Epoch} {k : Nat}
    (hc : Cov N h x k) : Cov N (e :: h) x k :=
  match hc with
  | ⟨ke, hs, hk⟩ => ⟨ke, Or.inr hs, Or.inr hk⟩

theorem cov_own {N : Nat} {h : List (EventN V)} {x : Epoch} {k : Nat} (hc : Cov N h x k) :
    HB h k x.tid :=
  match hc with
  | ⟨_, hs, hk⟩ => hb_trans (seg_own hs) hk

/-- The entry of the new access stands for everything its thread knew, and for itself. -/
theorem cov_new {N : Nat} {h : List (EventN V)} {j : Nat} {B : Act V} {k : Nat}
    (hk : HB h k j ∨ k = lenL h) :
    Cov N (EventN.act j B :: h) ((brun N h).clocks.epoch j) k := by
  refine ⟨lenL h, Or.inl ⟨rfl, rfl, rfl⟩, Or.inl ⟨rfl, j, rfl, ?_⟩⟩
  cases hk with
  | inl hk => exact Or.inr hk
  | inr hk => exact Or.inl ⟨rfl, hk⟩

theorem ordered_cov {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) {x : Epoch} {k j : Nat}
    (hc : Cov N h x k) (ho : (brun N h).clocks.ordered x j = true) : HB h k j := by
  match hc with
  | ⟨ke, hs, hk⟩ =>
    have d : (brun N h).clocks.ordered x j =
        (decide (x.tid = j) || decide (x.clock ≤ (brun N h).clocks.vc j x.tid)) := rfl
    rw [d] at ho
    refine hb_trans ?_ hk
    cases Nat.decEq x.tid j with
    | isTrue e => rw [← e]; exact seg_own hs
    | isFalse e =>
      rw [decide_eq_false' e] at ho
      exact (cInv_run hw).1 j x.tid ke x.clock hs (of_decide_eq_true' ho)

theorem ord_of_unord {c : Clocks} {u : Nat} {x : Epoch} (h : unord c u x = false) :
    c.ordered x u = true := by
  have d : unord c u x = !(c.ordered x u) := rfl
  rw [d] at h
  cases ho : c.ordered x u with
  | true => rfl
  | false => rw [ho] at h; cases h

theorem findL_none {α : Type} {p : α → Bool} {x : α} {l : List α} (h : findL p l = none)
    (hx : In x l) : p x = false := by
  cases hp : p x with
  | false => rfl
  | true =>
    match findL_of hx hp with
    | ⟨y, hy⟩ => rw [h] at hy; cases hy

theorem findO_none {α : Type} {p : α → Bool} {x : α} {o : Option α} (h : findO p o = none)
    (hx : o = some x) : p x = false := by
  cases hp : p x with
  | false => rfl
  | true => rw [findO_of hx hp] at h; cases h

theorem orOpt_none {α : Type} {x y : Option α} (h : orOpt x y = none) : x = none ∧ y = none := by
  cases x with
  | some z => cases h
  | none => exact ⟨rfl, h⟩

theorem tag_none {α : Type} {w : Bool} {o : Option α} (h : tag w o = none) : o = none := by
  cases o with
  | none => rfl
  | some z => cases h

theorem isSome_false {α : Type} {o : Option α} (h : o.isSome = false) : o = none := by
  cases o with
  | none => rfl
  | some z => cases h

theorem or_false_right {a b : Bool} (h : (a || b) = false) : b = false := by
  cases a with
  | true => cases h
  | false => exact h

theorem or_false_left {a b : Bool} (h : (a || b) = false) : a = false := by
  cases a with
  | true => cases h
  | false => rfl

/-- No unordered write: every `write` entry is ordered. -/
theorem uw_none {s : Shadow} {c : Clocks} {u : Nat} (h : s.unorderedWrite c u = none) {x : Epoch}
    (hx : s.write = some x) : c.ordered x u = true :=
  ord_of_unord (findO_none (orOpt_none h).1 hx)

theorem list_none {l : List Epoch} {c : Clocks} {u : Nat} (h : findL (unord c u) l = none)
    {x : Epoch} (hx : In x l) : c.ordered x u = true :=
  ord_of_unord (findL_none h hx)

/-- The thread's entry of a per-thread list, after `setFor`, still stands for what the old
entries stood for. -/
theorem setFor_cov {N : Nat} {h : List (EventN V)} {j : Nat} {B : Act V} {l : List Epoch}
    {x : Epoch} {k : Nat} (hx : In x l) (hc : Cov N h x k) :
    ∃ y, In y (setFor ((brun N h).clocks.epoch j) l) ∧ Cov N (EventN.act j B :: h) y k := by
  cases Nat.decEq x.tid j with
  | isTrue e =>
    have hk := cov_own hc
    rw [e] at hk
    exact ⟨_, in_setFor_now _ l, cov_new (Or.inl hk)⟩
  | isFalse e => exact ⟨x, in_setFor_other _ e l hx, cov_mono _ hc⟩

theorem conflict_read {A : Act V} {a r pc : Nat} (h : Sem.Conflict A (Act.read a r pc)) :
    IsW a A ∨ IsA a A := by
  cases A with
  | write b v p => exact Or.inl h
  | atomAdd b v p => exact Or.inr h
  | read b r' p => exact False.elim h
  | compute p g => exact False.elim h
  | arrive b n w p => exact False.elim h
  | exit => exact False.elim h

theorem conflict_write {A : Act V} {a : Nat} {v : V} {pc : Nat}
    (h : Sem.Conflict A (Act.write a v pc)) : IsW a A ∨ IsR a A ∨ IsA a A := by
  cases A with
  | write b v' p => exact Or.inl h
  | read b r' p => exact Or.inr (Or.inl h)
  | atomAdd b v' p => exact Or.inr (Or.inr h)
  | compute p g => exact False.elim h
  | arrive b n w p => exact False.elim h
  | exit => exact False.elim h

theorem conflict_atom {A : Act V} {a : Nat} {v : V} {pc : Nat}
    (h : Sem.Conflict A (Act.atomAdd a v pc)) : IsW a A ∨ IsR a A := by
  cases A with
  | write b v' p => exact Or.inl h
  | read b r' p => exact Or.inr h
  | atomAdd b v' p => exact False.elim h
  | compute p g => exact False.elim h
  | arrive b n w p => exact False.elim h
  | exit => exact False.elim h

/-- The invariant after an access, field by field. -/
theorem shInv_act {N : Nat} {h : List (EventN V)} {j : Nat} {B : Act V} {a : Nat} {s s' : Shadow}
    (hS : ShInvN N h a s)
    (hW : IsW a B → ∃ x, s'.write = some x ∧ Cov N (EventN.act j B :: h) x (lenL h))
    (hWo : ∀ k x, s.write = some x → Cov N h x k →
      ∃ y, s'.write = some y ∧ Cov N (EventN.act j B :: h) y k)
    (hR : IsR a B → ∃ x, In x s'.reads ∧ Cov N (EventN.act j B :: h) x (lenL h))
    (hRo : ∀ k x, In x s.reads → Cov N h x k →
      ∃ y, In y s'.reads ∧ Cov N (EventN.act j B :: h) y k)
    (hA : IsA a B → ∃ x, In x s'.atomics ∧ Cov N (EventN.act j B :: h) x (lenL h))
    (hAo : ∀ k x, In x s.atomics → Cov N h x k →
      ∃ y, In y s'.atomics ∧ Cov N (EventN.act j B :: h) y k) :
    ShInvN N (EventN.act j B :: h) a s' := by
  refine ⟨fun k i A hk hK => ?_, fun k i A hk hK => ?_, fun k i A hk hK => ?_⟩
  · cases hk with
    | inl hk => rw [← hk.2.2] at hK; rw [hk.1]; exact hW hK
    | inr hk =>
      match hS.1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact hWo k x hx hc
  · cases hk with
    | inl hk => rw [← hk.2.2] at hK; rw [hk.1]; exact hR hK
    | inr hk =>
      match hS.2.1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact hRo k x hx hc
  · cases hk with
    | inl hk => rw [← hk.2.2] at hK; rw [hk.1]; exact hA hK
    | inr hk =>
      match hS.2.2 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact hAo k x hx hc

/-- An address the access does not touch keeps its record. -/
theorem shInvN_other {N : Nat} {h : List (EventN V)} {j : Nat} {B : Act V} {a : Nat} {s : Shadow}
    (hS : ShInvN N h a s) (hW : ¬ IsW a B) (hR : ¬ IsR a B) (hA : ¬ IsA a B) :
    ShInvN N (EventN.act j B :: h) a s :=
  shInv_act hS (fun hK => False.elim (hW hK)) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
    (fun hK => False.elim (hR hK)) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
    (fun hK => False.elim (hA hK)) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)

theorem ne_symm' {a b : Nat} (h : ¬ a = b) : ¬ b = a := fun e => h (Eq.symm e)

/-- A read with no report: every earlier conflicting access happens before it, and the
records stay right. -/
theorem step_read {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) {j a r pc : Nat}
    (hS : ∀ a', ShInvN N h a' ((nrun noSameN N h).shadow a'))
    (hf : (nrun noSameN N (EventN.act j (Act.read a r pc) :: h)).found = false) :
    (∀ a', ShInvN N (EventN.act j (Act.read a r pc) :: h) a'
      ((nrun noSameN N (EventN.act j (Act.read a r pc) :: h)).shadow a')) ∧
    (∀ k i A, ActAt h k i A → Sem.Conflict A (Act.read a r pc) → HB h k j) := by
  have hf' : ((nrun noSameN N h).found ||
      (((nrun noSameN N h).shadow a).accessK (brun N h).clocks ((brun N h).clocks.epoch j)
        false false).1.isSome) = false := hf
  have hr := isSome_false (or_false_right hf')
  have e1 : (((nrun noSameN N h).shadow a).accessK (brun N h).clocks
      ((brun N h).clocks.epoch j) false false).1 =
      orOpt (tag true (((nrun noSameN N h).shadow a).unorderedWrite (brun N h).clocks j))
        (tag true (findL (unord (brun N h).clocks j) ((nrun noSameN N h).shadow a).atomics)) := rfl
  rw [e1] at hr
  have uw := tag_none (orOpt_none hr).1
  have ua := tag_none (orOpt_none hr).2
  refine ⟨fun a' => ?_, fun k i A hk hcf => ?_⟩
  · cases Nat.decEq a' a with
    | isTrue ea =>
      rw [ea]
      have e2 : (nrun noSameN N (EventN.act j (Act.read a r pc) :: h)).shadow a =
          ⟨((nrun noSameN N h).shadow a).write, ((nrun noSameN N h).shadow a).same_writes,
            setFor ((brun N h).clocks.epoch j) ((nrun noSameN N h).shadow a).reads,
            ((nrun noSameN N h).shadow a).atomics⟩ := upd_same _ _ _
      rw [e2]
      exact shInv_act (hS a) (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
        (fun _ => ⟨_, in_setFor_now _ _, cov_new (Or.inr rfl)⟩)
        (fun k x hx hc => setFor_cov hx hc)
        (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
    | isFalse ea =>
      have e2 : (nrun noSameN N (EventN.act j (Act.read a r pc) :: h)).shadow a' =
          (nrun noSameN N h).shadow a' := upd_other _ _ ea
      rw [e2]
      exact shInvN_other (hS a') (fun hK => hK) (fun hK => ea (Eq.symm hK)) (fun hK => hK)
  · cases conflict_read hcf with
    | inl hK =>
      match (hS a).1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (uw_none uw hx)
    | inr hK =>
      match (hS a).2.2 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none ua hx)

/-- A write (`same_value` false) with no report. -/
theorem step_write {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) {j a : Nat} {v : V}
    {pc : Nat} (hS : ∀ a', ShInvN N h a' ((nrun noSameN N h).shadow a'))
    (hf : (nrun noSameN N (EventN.act j (Act.write a v pc) :: h)).found = false) :
    (∀ a', ShInvN N (EventN.act j (Act.write a v pc) :: h) a'
      ((nrun noSameN N (EventN.act j (Act.write a v pc) :: h)).shadow a')) ∧
    (∀ k i A, ActAt h k i A → Sem.Conflict A (Act.write a v pc) → HB h k j) := by
  have hf' : ((nrun noSameN N h).found ||
      (((nrun noSameN N h).shadow a).accessK (brun N h).clocks ((brun N h).clocks.epoch j)
        true false).1.isSome) = false := hf
  have hr := isSome_false (or_false_right hf')
  have e1 : (((nrun noSameN N h).shadow a).accessK (brun N h).clocks
      ((brun N h).clocks.epoch j) true false).1 =
      orOpt (orOpt (tag true (((nrun noSameN N h).shadow a).unorderedWrite (brun N h).clocks j))
        (tag true (findL (unord (brun N h).clocks j) ((nrun noSameN N h).shadow a).atomics)))
        (tag false (findL (unord (brun N h).clocks j) ((nrun noSameN N h).shadow a).reads)) := rfl
  rw [e1] at hr
  have uw := tag_none (orOpt_none (orOpt_none hr).1).1
  have ua := tag_none (orOpt_none (orOpt_none hr).1).2
  have ur := tag_none (orOpt_none hr).2
  refine ⟨fun a' => ?_, fun k i A hk hcf => ?_⟩
  · cases Nat.decEq a' a with
    | isTrue ea =>
      rw [ea]
      have e2 : (nrun noSameN N (EventN.act j (Act.write a v pc) :: h)).shadow a =
          ⟨some ((brun N h).clocks.epoch j), [],
            ((nrun noSameN N h).shadow a).reads, ((nrun noSameN N h).shadow a).atomics⟩ :=
        upd_same _ _ _
      rw [e2]
      exact shInv_act (hS a) (fun _ => ⟨_, rfl, cov_new (Or.inr rfl)⟩)
        (fun k x hx hc => ⟨_, rfl, cov_new (Or.inl (ordered_cov hw hc (uw_none uw hx)))⟩)
        (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
        (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
    | isFalse ea =>
      have e2 : (nrun noSameN N (EventN.act j (Act.write a v pc) :: h)).shadow a' =
          (nrun noSameN N h).shadow a' := upd_other _ _ ea
      rw [e2]
      exact shInvN_other (hS a') (fun hK => ea (Eq.symm hK)) (fun hK => hK) (fun hK => hK)
  · cases conflict_write hcf with
    | inl hK =>
      match (hS a).1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (uw_none uw hx)
    | inr hK =>
      cases hK with
      | inl hK =>
        match (hS a).2.1 k i A hk hK with
        | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none ur hx)
      | inr hK =>
        match (hS a).2.2 k i A hk hK with
        | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none ua hx)

/-- An atomic addition with no report. -/
theorem step_atom {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) {j a : Nat} {v : V}
    {pc : Nat} (hS : ∀ a', ShInvN N h a' ((nrun noSameN N h).shadow a'))
    (hf : (nrun noSameN N (EventN.act j (Act.atomAdd a v pc) :: h)).found = false) :
    (∀ a', ShInvN N (EventN.act j (Act.atomAdd a v pc) :: h) a'
      ((nrun noSameN N (EventN.act j (Act.atomAdd a v pc) :: h)).shadow a')) ∧
    (∀ k i A, ActAt h k i A → Sem.Conflict A (Act.atomAdd a v pc) → HB h k j) := by
  have hf' : ((nrun noSameN N h).found ||
      (((nrun noSameN N h).shadow a).atomic (brun N h).clocks
        ((brun N h).clocks.epoch j)).1.isSome) = false := hf
  have hr := isSome_false (or_false_right hf')
  have e1 : (((nrun noSameN N h).shadow a).atomic (brun N h).clocks
      ((brun N h).clocks.epoch j)).1 =
      orOpt (tag true (((nrun noSameN N h).shadow a).unorderedWrite (brun N h).clocks j))
        (tag false (findL (unord (brun N h).clocks j) ((nrun noSameN N h).shadow a).reads)) := rfl
  rw [e1] at hr
  have uw := tag_none (orOpt_none hr).1
  have ur := tag_none (orOpt_none hr).2
  refine ⟨fun a' => ?_, fun k i A hk hcf => ?_⟩
  · cases Nat.decEq a' a with
    | isTrue ea =>
      rw [ea]
      have e2 : (nrun noSameN N (EventN.act j (Act.atomAdd a v pc) :: h)).shadow a =
          ⟨((nrun noSameN N h).shadow a).write, ((nrun noSameN N h).shadow a).same_writes,
            ((nrun noSameN N h).shadow a).reads,
            setFor ((brun N h).clocks.epoch j) ((nrun noSameN N h).shadow a).atomics⟩ :=
        upd_same _ _ _
      rw [e2]
      exact shInv_act (hS a) (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
        (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
        (fun _ => ⟨_, in_setFor_now _ _, cov_new (Or.inr rfl)⟩)
        (fun k x hx hc => setFor_cov hx hc)
    | isFalse ea =>
      have e2 : (nrun noSameN N (EventN.act j (Act.atomAdd a v pc) :: h)).shadow a' =
          (nrun noSameN N h).shadow a' := upd_other _ _ ea
      rw [e2]
      exact shInvN_other (hS a') (fun hK => hK) (fun hK => hK) (fun hK => ea (Eq.symm hK))
  · cases conflict_atom hcf with
    | inl hK =>
      match (hS a).1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (uw_none uw hx)
    | inr hK =>
      match (hS a).2.1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none ur hx)

theorem found_prefix {sv : List (EventN V) → Nat → Nat → V → Bool} {N : Nat} {h : List (EventN V)} :
    ∀ (e : EventN V), (nrun sv N (e :: h)).found = false → (nrun sv N h).found = false := by
  intro e
  cases e with
  | bar t b w => exact fun x => x
  | complete b m => exact fun x => x
  | act t B =>
    cases B with
    | read a r pc => exact or_false_left
    | write a v pc => exact or_false_left
    | atomAdd a v pc => exact or_false_left
    | compute pc g => exact fun x => x
    | arrive b n w pc => exact fun x => x
    | exit => exact fun x => x

theorem shInvN_nonact {N : Nat} {h : List (EventN V)} {e : EventN V} {a : Nat} {s : Shadow}
    (hS : ShInvN N h a s) (he : ∀ k i A, ActAt (e :: h) k i A → ActAt h k i A) :
    ShInvN N (e :: h) a s := by
  refine ⟨fun k i A hk hK => ?_, fun k i A hk hK => ?_, fun k i A hk hK => ?_⟩
  · match hS.1 k i A (he k i A hk) hK with
    | ⟨x, hx, hc⟩ => exact ⟨x, hx, cov_mono e hc⟩
  · match hS.2.1 k i A (he k i A hk) hK with
    | ⟨x, hx, hc⟩ => exact ⟨x, hx, cov_mono e hc⟩
  · match hS.2.2 k i A (he k i A hk) hK with
    | ⟨x, hx, hc⟩ => exact ⟨x, hx, cov_mono e hc⟩

theorem conflict_compute {A : Act V} {pc : Nat} {g : Nat → V}
    (h : Sem.Conflict A (Act.compute pc g)) : False := by
  cases A with
  | write b v' p => exact h
  | read b r' p => exact h
  | atomAdd b v' p => exact h
  | compute p g' => exact h
  | arrive b n w p => exact h
  | exit => exact h

theorem conflict_arrive {A : Act V} {b n : Nat} {w : Bool} {pc : Nat}
    (h : Sem.Conflict A (Act.arrive b n w pc)) : False := by
  cases A with
  | write b v' p => exact h
  | read b r' p => exact h
  | atomAdd b v' p => exact h
  | compute p g' => exact h
  | arrive b n w p => exact h
  | exit => exact h

theorem conflict_exit {A : Act V} (h : Sem.Conflict A (Act.exit : Act V)) : False := by
  cases A with
  | write b v' p => exact h
  | read b r' p => exact h
  | atomAdd b v' p => exact h
  | compute p g' => exact h
  | arrive b n w p => exact h
  | exit => exact h

/-- The shadow invariant along a history without report, and no unordered conflict. -/
theorem checkN_run {N : Nat} : ∀ (h : List (EventN V)), NotBlocked N h →
    (nrun noSameN N h).found = false →
    (∀ a, ShInvN N h a ((nrun noSameN N h).shadow a)) ∧ ¬ UnorderedConflict h := by
  intro h
  induction h with
  | nil =>
    intro _ _
    exact ⟨fun a => ⟨fun k i A hk => False.elim hk, fun k i A hk => False.elim hk,
      fun k i A hk => False.elim hk⟩, fun hu => hu⟩
  | cons e h ih =>
    intro hw hf
    match ih hw.1 (found_prefix e hf) with
    | ⟨hS, hU⟩ =>
      cases e with
      | bar t b w => exact ⟨fun a => shInvN_nonact (hS a) (fun k i A hk => hk), hU⟩
      | complete b m => exact ⟨fun a => shInvN_nonact (hS a) (fun k i A hk => hk), hU⟩
      | act j B =>
        have fin : (∀ k i A, ActAt h k i A → Sem.Conflict A B → HB h k j) →
            ¬ UnorderedConflict (EventN.act j B :: h) := by
          intro hC hu
          cases hu with
          | inl hu => exact hU hu
          | inr hu =>
            match hu with
            | ⟨i, A, k, hk, _, hcf, hnot⟩ => exact hnot (hC k i A hk hcf)
        cases B with
        | read a r pc =>
          match step_read hw.1 hS hf with
          | ⟨hS', hC⟩ => exact ⟨hS', fin hC⟩
        | write a v pc =>
          match step_write hw.1 hS hf with
          | ⟨hS', hC⟩ => exact ⟨hS', fin hC⟩
        | atomAdd a v pc =>
          match step_atom hw.1 hS hf with
          | ⟨hS', hC⟩ => exact ⟨hS', fin hC⟩
        | compute pc g =>
          exact ⟨fun a => shInvN_other (hS a) (fun hK => hK) (fun hK => hK) (fun hK => hK),
            fin (fun k i A _ hcf => False.elim (conflict_compute hcf))⟩
        | arrive b n w pc =>
          exact ⟨fun a => shInvN_other (hS a) (fun hK => hK) (fun hK => hK) (fun hK => hK),
            fin (fun k i A _ hcf => False.elim (conflict_arrive hcf))⟩
        | exit =>
          exact ⟨fun a => shInvN_other (hS a) (fun hK => hK) (fun hK => hK) (fun hK => hK),
            fin (fun k i A _ hcf => False.elim (conflict_exit hcf))⟩

/-- **Soundness of the check over named-barrier histories.**  If blocked threads do nothing
and the run (without benign writes) reports no race, then every action that conflicts with an
earlier action of another thread has that action happen before it (`HB`): no two conflicting
accesses of different threads are unordered by happens-before. -/
theorem checkN_sound {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h)
    (hc : checkN noSameN N h = false) : ¬ UnorderedConflict h :=
  (checkN_run h hw hc).2

end Shadow

end Race
end Kcert

/-! ## The converse: happens-before implies ordered clocks -/

namespace Kcert
namespace Race

open Sem (Act)

section Conv

variable {V : Type}

theorem seg_lt {N : Nat} : ∀ {h : List (EventN V)} {k u c : Nat}, Seg N h k u c → k < lenL h := by
  intro h
  induction h with
  | nil => intro k u c hs; exact False.elim hs
  | cons e h ih =>
    intro k u c hs
    cases hs with
    | inl hs => rw [hs.1]; exact Nat.ltSuccSelf _
    | inr hs => exact Nat.leStep (ih hs)

theorem barrier_mono (c : Clocks) (rows : List (Nat → Nat)) (W : Nat → Bool) (j u : Nat) :
    c.vc j u ≤ (c.barrier rows W).vc j u := by
  cases hw : W j with
  | false => rw [barrier_notW hw]; exact Nat.leRefl _
  | true =>
    rw [barrier_W hw]
    exact Nat.leTrans (le_vmax_left _ _) (Nat.leAddRight _ _)

theorem le_joinRows_of {r : Nat → Nat} {u : Nat} :
    ∀ {rows : List (Nat → Nat)}, In r rows → r u ≤ joinRows rows u := by
  intro rows
  induction rows with
  | nil => intro h; exact False.elim h
  | cons r' rows ih =>
    intro h
    cases h with
    | inl e => rw [← e]; exact le_vmax_right _ _
    | inr h => exact Nat.leTrans (ih h) (le_vmax_left _ _)

theorem in_rowsOf_of {a : Arrival} : ∀ {l : List Arrival}, In a l → In a.row (rowsOf l) := by
  intro l
  induction l with
  | nil => intro h; exact h
  | cons b l ih =>
    intro h
    cases h with
    | inl e => rw [← e]; exact Or.inl rfl
    | inr h => exact Or.inr (ih h)

theorem waiterIn_of_in {a : Arrival} {w : Nat} (ht : a.tid = w) (hw : a.wait = true) :
    ∀ {l : List Arrival}, In a l → waiterIn l w = true := by
  intro l
  induction l with
  | nil => intro h; exact False.elim h
  | cons b l ih =>
    intro h
    have e : waiterIn (b :: l) w = ((b.wait && decide (b.tid = w)) || waiterIn l w) := rfl
    rw [e]
    cases h with
    | inl eb => rw [eb, hw, ht, decide_eq_true' rfl]; rfl
    | inr h =>
      rw [ih h]
      cases (b.wait && decide (b.tid = w)) with
      | true => rfl
      | false => rfl

/-- An executor arrival and a happens-before arrival agree, and the row covers what the
arrival knew. -/
def EntryGE (N : Nat) (h : List (EventN V)) (a : Arrival) (x : HArr) : Prop :=
  a.tid = x.tid ∧ a.wait = x.wait ∧ ∀ u k c, Seg N h k u c → x.know k → c ≤ a.row u

/-- The invariant of the converse: the clocks cover what is known. -/
def DInv (N : Nat) (h : List (EventN V)) : Prop :=
  (∀ j u k c, Seg N h k u c → (hbRun h).know j k → j ≠ u → c ≤ (brun N h).clocks.vc j u) ∧
  (∀ u k c, Seg N h k u c → c ≤ (brun N h).clocks.vc u u) ∧
  (∀ b, Rel2 (EntryGE N h) ((brun N h).bars b) ((hbRun h).pend b))

/-- For an actor's event whose clocks change only on the diagonal, upwards. -/
theorem dInv_actor {N : Nat} {h : List (EventN V)} {e : EventN V} {t : Nat} (hD : DInv N h)
    (hseg : ∀ k u cl, Seg N (e :: h) k u cl →
      Seg N h k u cl ∨ (k = lenL h ∧ u = t ∧ cl = (brun N h).clocks.vc t t))
    (hknow : ∀ j k, (hbRun (e :: h)).know j k → (j = t ∧ k = lenL h) ∨ (hbRun h).know j k)
    (hne : ∀ j u, j ≠ u → (brun N (e :: h)).clocks.vc j u = (brun N h).clocks.vc j u)
    (hown : ∀ u, (brun N h).clocks.vc u u ≤ (brun N (e :: h)).clocks.vc u u) :
    (∀ j u k c, Seg N (e :: h) k u c → (hbRun (e :: h)).know j k → j ≠ u →
      c ≤ (brun N (e :: h)).clocks.vc j u) ∧
    (∀ u k c, Seg N (e :: h) k u c → c ≤ (brun N (e :: h)).clocks.vc u u) := by
  refine ⟨fun j u k c hs hk hju => ?_, fun u k c hs => ?_⟩
  · rw [hne j u hju]
    cases hknow j k hk with
    | inl hk =>
      cases hseg k u c hs with
      | inl hs =>
        have l := seg_lt hs
        rw [hk.2] at l
        exact False.elim (Nat.ltIrrefl _ l)
      | inr hs => exact False.elim (hju (Eq.trans hk.1 (Eq.symm hs.2.1)))
    | inr hk =>
      cases hseg k u c hs with
      | inl hs => exact hD.1 j u k c hs hk hju
      | inr hs => rw [hs.1] at hk; exact False.elim (not_know_new hk)
  · cases hseg k u c hs with
    | inl hs => exact Nat.leTrans (hD.2.1 u k c hs) (hown u)
    | inr hs => rw [hs.2.1, hs.2.2]; exact hown t

theorem entryGE_actor {N : Nat} {h : List (EventN V)} {e : EventN V} {t : Nat}
    (hseg : ∀ k u cl, Seg N (e :: h) k u cl →
      Seg N h k u cl ∨ (k = lenL h ∧ u = t ∧ cl = (brun N h).clocks.vc t t))
    (b : Nat) {a : Arrival} {x : HArr} (hx : In x ((hbRun h).pend b)) (ok : EntryGE N h a x) :
    EntryGE N (e :: h) a x := by
  refine ⟨ok.1, ok.2.1, fun u k c hs hk => ?_⟩
  cases hseg k u c hs with
  | inl hs => exact ok.2.2 u k c hs hk
  | inr hs =>
    rw [hs.1] at hk
    exact False.elim (Nat.ltIrrefl _ ((bound_run h).2 b x hx _ hk))

theorem rel2_memR {α β : Type} {R S : α → β → Prop} :
    ∀ {l : List α} {r : List β}, (∀ a x, In x r → R a x → S a x) → Rel2 R l r → Rel2 S l r := by
  intro l
  induction l with
  | nil =>
    intro r _ h
    cases r with
    | nil => exact trivial
    | cons y r => exact False.elim h
  | cons a l ih =>
    intro r hRS h
    cases r with
    | nil => exact False.elim h
    | cons y r =>
      exact ⟨hRS a y (Or.inl rfl) h.1, ih (fun a' x' hx' hr => hRS a' x' (Or.inr hx') hr) h.2⟩

theorem dInv_step {N : Nat} {h : List (EventN V)} (hD : DInv N h) :
    ∀ (e : EventN V), DInv N (e :: h) := by
  intro e
  cases e with
  | act t A =>
    have hk : ∀ j k, (hbRun (EventN.act t A :: h)).know j k →
        (j = t ∧ k = lenL h) ∨ (hbRun h).know j k := fun j k x => x
    match dInv_actor hD seg_act hk (fun j u _ => rfl) (fun u => Nat.leRefl _) with
    | ⟨d1, d2⟩ =>
      exact ⟨d1, d2, fun b => rel2_memR (fun a x hx ok => entryGE_actor seg_act b hx ok)
        (hD.2.2 b)⟩
  | bar t b w =>
    have hk : ∀ j k, (hbRun (EventN.bar t b w :: h)).know j k →
        (j = t ∧ k = lenL h) ∨ (hbRun h).know j k := fun j k x => x
    have hne : ∀ j u, j ≠ u → (brun N (EventN.bar t b w :: h)).clocks.vc j u =
        (brun N h).clocks.vc j u := by
      intro j u hju
      cases w with
      | true => rfl
      | false => exact arrive_ne (brun N h).clocks t hju
    have hown : ∀ u, (brun N h).clocks.vc u u ≤ (brun N (EventN.bar t b w :: h)).clocks.vc u u := by
      intro u
      cases w with
      | true => exact Nat.leRefl _
      | false => exact arrive_own (brun N h).clocks t u
    match dInv_actor hD seg_bar hk hne hown with
    | ⟨d1, d2⟩ =>
      refine ⟨d1, d2, fun b' => ?_⟩
      have hnew : EntryGE N (EventN.bar t b w :: h) ⟨t, w, (brun N h).clocks.vc t⟩
          ⟨t, w, fun k => k = lenL h ∨ (hbRun h).know t k⟩ := by
        refine ⟨rfl, rfl, fun u k c hs hk => ?_⟩
        show c ≤ (brun N h).clocks.vc t u
        cases seg_bar k u c hs with
        | inr hs => rw [hs.2.1, hs.2.2]; exact Nat.leRefl _
        | inl hs =>
          cases hk with
          | inl hk =>
            have l := seg_lt hs
            rw [hk] at l
            exact False.elim (Nat.ltIrrefl _ l)
          | inr hk =>
            cases Nat.decEq t u with
            | isTrue etu => rw [etu]; exact hD.2.1 u k c hs
            | isFalse etu => exact hD.1 t u k c hs hk etu
      have hold := fun b'' => rel2_memR (fun a x hx ok => entryGE_actor seg_bar (e := EventN.bar t b w) b'' hx ok)
        (hD.2.2 b'')
      cases w with
      | true =>
        cases Nat.decEq b' b with
        | isTrue eb =>
          rw [eb]
          show Rel2 _ (Sem.upd (brun N h).bars b (snocL ((brun N h).bars b) ⟨t, true, (brun N h).clocks.vc t⟩) b)
            (Sem.upd (hbRun h).pend b (snocL ((hbRun h).pend b)
              ⟨t, true, fun k => k = lenL h ∨ (hbRun h).know t k⟩) b)
          rw [upd_same, upd_same]
          exact rel2_snoc hnew (hold b)
        | isFalse eb =>
          show Rel2 _ (Sem.upd (brun N h).bars b _ b') (Sem.upd (hbRun h).pend b _ b')
          rw [upd_other _ _ eb, upd_other _ _ eb]
          exact hold b'
      | false =>
        cases Nat.decEq b' b with
        | isTrue eb =>
          rw [eb]
          show Rel2 _ (Sem.upd (brun N h).bars b (snocL ((brun N h).bars b) ⟨t, false, (brun N h).clocks.vc t⟩) b)
            (Sem.upd (hbRun h).pend b (snocL ((hbRun h).pend b)
              ⟨t, false, fun k => k = lenL h ∨ (hbRun h).know t k⟩) b)
          rw [upd_same, upd_same]
          exact rel2_snoc hnew (hold b)
        | isFalse eb =>
          show Rel2 _ (Sem.upd (brun N h).bars b _ b') (Sem.upd (hbRun h).pend b _ b')
          rw [upd_other _ _ eb, upd_other _ _ eb]
          exact hold b'
  | complete b m =>
    have hA : Rel2 (EntryGE N h) (takeL m ((brun N h).bars b)) (takeL m ((hbRun h).pend b)) :=
      rel2_take m (hD.2.2 b)
    have hvc : (brun N (EventN.complete b m :: h)).clocks = (brun N h).clocks.barrier
        (rowsOf (takeL m ((brun N h).bars b))) (waiterIn (takeL m ((brun N h).bars b))) := rfl
    have hmono : ∀ j u, (brun N h).clocks.vc j u ≤ (brun N (EventN.complete b m :: h)).clocks.vc j u := by
      intro j u; rw [hvc]; exact barrier_mono _ _ _ j u
    have hge : ∀ {a : Arrival} {x : HArr}, EntryGE N h a x → EntryGE N (EventN.complete b m :: h) a x :=
      fun ok => ⟨ok.1, ok.2.1, fun u k c hs hk => ok.2.2 u k c (seg_complete hs) hk⟩
    refine ⟨fun j u k c hs hk hju => ?_, fun u k c hs => Nat.leTrans (hD.2.1 u k c (seg_complete hs)) (hmono u u),
      fun b' => ?_⟩
    · have hs' := seg_complete hs
      cases hk with
      | inl hk => exact Nat.leTrans (hD.1 j u k c hs' hk hju) (hmono j u)
      | inr hk =>
        match hk with
        | ⟨⟨x', hx', ht', hw'⟩, ⟨x, hx, hxk⟩⟩ =>
          match rel2_inR hA hx with
          | ⟨a, ha, ok⟩ =>
            match rel2_inR hA hx' with
            | ⟨a', ha', ok'⟩ =>
              have hW : waiterIn (takeL m ((brun N h).bars b)) j = true :=
                waiterIn_of_in (Eq.trans ok'.1 ht') (Eq.trans ok'.2.1 hw') ha'
              rw [hvc, barrier_W hW, if_neg' (fun e => hju (Eq.symm e)), Nat.add_zero]
              exact Nat.leTrans (ok.2.2 u k c hs' hxk)
                (Nat.leTrans (le_joinRows_of (in_rowsOf_of ha)) (le_vmax_right _ _))
    · cases Nat.decEq b' b with
      | isTrue eb =>
        rw [eb]
        show Rel2 _ (Sem.upd (brun N h).bars b (dropL m ((brun N h).bars b)) b)
          (Sem.upd (hbRun h).pend b (dropL m ((hbRun h).pend b)) b)
        rw [upd_same, upd_same]
        exact rel2_mono (fun a x _ ok => hge ok) (rel2_drop m (hD.2.2 b))
      | isFalse eb =>
        show Rel2 _ (Sem.upd (brun N h).bars b _ b') (Sem.upd (hbRun h).pend b _ b')
        rw [upd_other _ _ eb, upd_other _ _ eb]
        exact rel2_mono (fun a x _ ok => hge ok) (hD.2.2 b')

theorem dInv_run {N : Nat} : ∀ (h : List (EventN V)), DInv N h := by
  intro h
  induction h with
  | nil => exact ⟨fun j u k c hs => False.elim hs, fun u k c hs => False.elim hs, fun b => trivial⟩
  | cons e h ih => exact dInv_step ih e

/-- **Happens-before implies ordered clocks** (for every history, no hypothesis). -/
theorem hb_ordered {N : Nat} {h : List (EventN V)} {k u c j : Nat} (hs : Seg N h k u c)
    (hb : HB h k j) : (brun N h).clocks.ordered ⟨u, c⟩ j = true := by
  have d : (brun N h).clocks.ordered ⟨u, c⟩ j =
      (decide (u = j) || decide (c ≤ (brun N h).clocks.vc j u)) := rfl
  rw [d]
  cases Nat.decEq u j with
  | isTrue e => rw [decide_eq_true' e]; rfl
  | isFalse e =>
    rw [decide_eq_false' e, decide_eq_true' ((dInv_run h).1 j u k c hs hb (fun x => e (Eq.symm x)))]
    rfl

/-- **The clocks decide happens-before** (the analogue of `ordered_iff`): in a history where
blocked threads do nothing, the epoch of event `k` (thread `u`, own clock `c`) is `ordered`
before the current point of thread `j` iff event `k` happens before it. -/
theorem ordered_iff_hb {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) {k u c j : Nat}
    (hs : Seg N h k u c) : (brun N h).clocks.ordered ⟨u, c⟩ j = true ↔ HB h k j :=
  ⟨ordered_hb hw hs, hb_ordered hs⟩

end Conv

end Race
end Kcert

/-! ## Examples: producer and consumer (`bar.arrive` / `bar.sync` on barrier 1, count 2) -/

namespace Kcert
namespace Race

open Sem (Act)

/-- Thread 0 stores to address 0 and `bar.arrive 1, 2`; thread 1 `bar.sync 1, 2`; the barrier
completes; thread 1 loads address 0.  (Latest event first.) -/
def exProdCons : List (EventN Nat) :=
  [EventN.act 1 (Act.read 0 0 0), EventN.complete 1 2, EventN.bar 1 1 true,
    EventN.bar 0 1 false, EventN.act 0 (Act.write 0 5 0)]

/-- The roles swapped: thread 1 stores and waits, thread 0 only arrives and then loads: the
arriving thread learns nothing, so its load races with the store. -/
def exArriveRace : List (EventN Nat) :=
  [EventN.act 0 (Act.read 0 0 0), EventN.complete 1 2, EventN.bar 0 1 false,
    EventN.bar 1 1 true, EventN.act 1 (Act.write 0 5 0)]

theorem exProdCons_check : checkN noSameN 2 exProdCons = false := rfl

theorem exArriveRace_check : checkN noSameN 2 exArriveRace = true := rfl

theorem in_upd_nil {a : Arrival} {l : List Arrival} {b b' : Nat}
    (ha : In a (Sem.upd (fun _ => ([] : List Arrival)) b l b')) : In a l := by
  cases Nat.decEq b' b with
  | isTrue e => rw [e, upd_same] at ha; exact ha
  | isFalse e => rw [upd_other _ _ e] at ha; exact False.elim ha

theorem exProdCons_notBlocked : NotBlocked 2 exProdCons := by
  refine ⟨⟨⟨⟨⟨trivial, ?_⟩, ?_⟩, ?_⟩, ?_⟩, ?_⟩
  · intro t _ hb
    match hb with
    | ⟨b, a, ha, _, _⟩ => exact ha
  · intro t _ hb
    match hb with
    | ⟨b, a, ha, _, _⟩ => exact ha
  · intro t ht hb
    match hb with
    | ⟨b, a, ha, hat, _⟩ =>
      have ha' := in_upd_nil ha
      cases ha' with
      | inl e => rw [← e] at hat; have h1 : (1 : Nat) = t := ht; rw [← h1] at hat; cases hat
      | inr e => exact e
  · intro t ht; exact False.elim ht
  · intro t ht hb
    match hb with
    | ⟨b, a, ha, _, hw⟩ =>
      cases Nat.decEq b 1 with
      | isTrue e =>
        rw [e] at ha
        exact ha
      | isFalse e =>
        have ha' : In a ((brun 2 (([EventN.complete 1 2, EventN.bar 1 1 true, EventN.bar 0 1 false, EventN.act 0 (Act.write 0 5 0)] : List (EventN Nat)))).bars b) := ha
        exact False.elim (by
          have e2 : (brun 2 (([EventN.complete 1 2, EventN.bar 1 1 true, EventN.bar 0 1 false, EventN.act 0 (Act.write 0 5 0)] : List (EventN Nat)))).bars b = [] := by
            show Sem.upd _ 1 (dropL 2 _) b = []
            rw [upd_other _ _ e]
            show Sem.upd _ 1 _ b = []
            rw [upd_other _ _ e]
            show Sem.upd _ 1 _ b = []
            rw [upd_other _ _ e]
            rfl
          rw [e2] at ha'
          exact ha')

/-- The race that `exArriveRace_check` reports is real: thread 0's load conflicts with thread
1's earlier store and does not happen after it. -/
theorem exArriveRace_unordered : UnorderedConflict exArriveRace := by
  refine Or.inr ⟨1, Act.write 0 5 0, 0, ?_, fun e => Nat.noConfusion e, rfl, ?_⟩
  · exact Or.inl ⟨rfl, rfl, rfl⟩
  · intro h
    cases h with
    | inl h =>
      cases h with
      | inl h => exact Nat.noConfusion h.2
      | inr h =>
        cases h with
        | inl h => exact Nat.noConfusion h.1
        | inr h =>
          cases h with
          | inl h => exact Nat.noConfusion h.1
          | inr h => exact h
    | inr h =>
      match h.1 with
      | ⟨x, hx, ht, hw⟩ =>
        cases hx with
        | inl e => rw [← e] at ht; exact Nat.noConfusion ht
        | inr hx =>
          cases hx with
          | inl e => rw [← e] at hw; cases hw
          | inr hx => exact hx

/-- Hence, by `checkN_sound`, no conflicting pair of `exProdCons` is unordered. -/
theorem exProdCons_safe : ¬ UnorderedConflict exProdCons :=
  checkN_sound exProdCons_notBlocked exProdCons_check

end Race
end Kcert

/-! ## Whole-CTA `bar.sync` as a special case -/

namespace Kcert
namespace Race

open Sem (Act)

section Whole

variable {V : Type}

/-- Threads `i .. i+m-1` execute `bar.sync b`, thread `i + m - 1` first (latest event first:
thread `i`'s arrival is the latest). -/
def downEvs (b : Nat) (h0 : List (EventN V)) : Nat → Nat → List (EventN V)
  | _, 0 => h0
  | i, m + 1 => EventN.bar i b true :: downEvs b h0 (i + 1) m

/-- The arrival list they leave on a barrier that had none: thread `i + m - 1` first. -/
def arrsFrom (c : Clocks) : Nat → Nat → List Arrival
  | _, 0 => []
  | i, m + 1 => snocL (arrsFrom c (i + 1) m) ⟨i, true, c.vc i⟩

theorem snocL_cons {α : Type} (x y : α) (l : List α) : snocL (x :: l) y = x :: snocL l y := rfl

theorem arrsFrom_succ (c : Clocks) : ∀ (m i : Nat),
    arrsFrom c i (m + 1) = ⟨i + m, true, c.vc (i + m)⟩ :: arrsFrom c i m := by
  intro m
  induction m with
  | zero => intro i; rfl
  | succ m ih =>
    intro i
    show snocL (arrsFrom c (i + 1) (m + 1)) ⟨i, true, c.vc i⟩ = _
    rw [ih (i + 1)]
    show (⟨i + 1 + m, true, c.vc (i + 1 + m)⟩ : Arrival) :: snocL (arrsFrom c (i + 1) m) ⟨i, true, c.vc i⟩ = _
    have e : i + 1 + m = i + Nat.succ m := by
      rw [Nat.add_assoc, Nat.add_comm 1 m]
    rw [e]
    rfl

theorem downEvs_brun (N b : Nat) (h0 : List (EventN V)) (hb : (brun N h0).bars b = []) :
    ∀ (m i : Nat), (brun N (downEvs b h0 i m)).clocks = (brun N h0).clocks ∧
      (brun N (downEvs b h0 i m)).bars b = arrsFrom (brun N h0).clocks i m := by
  intro m
  induction m with
  | zero => intro i; exact ⟨rfl, hb⟩
  | succ m ih =>
    intro i
    have ih' := ih (i + 1)
    show (brun N (EventN.bar i b true :: (downEvs b h0 (i + 1) m))).clocks = _ ∧
      (brun N (EventN.bar i b true :: (downEvs b h0 (i + 1) m))).bars b = _
    refine ⟨ih'.1, ?_⟩
    show Sem.upd (brun N (downEvs b h0 (i + 1) m)).bars b
      (snocL ((brun N (downEvs b h0 (i + 1) m)).bars b)
        ⟨i, true, (brun N (downEvs b h0 (i + 1) m)).clocks.row i⟩) b = _
    rw [upd_same, ih'.2, ih'.1]
    rfl

theorem rowsOf_arrsFrom (c : Clocks) : ∀ n, rowsOf (arrsFrom c 0 n) = c.rowsBelow n := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    rw [arrsFrom_succ c n 0, Nat.zero_add]
    show c.vc n :: rowsOf (arrsFrom c 0 n) = c.row n :: c.rowsBelow n
    rw [ih]; rfl

theorem waiterIn_arrsFrom (c : Clocks) (w : Nat) : ∀ n,
    (waiterIn (arrsFrom c 0 n) w = true ↔ w < n) := by
  intro n
  induction n with
  | zero =>
    exact ⟨fun h => Bool.noConfusion h, fun h => False.elim (Nat.notLtZero w h)⟩
  | succ n ih =>
    rw [arrsFrom_succ c n 0, Nat.zero_add]
    show ((true && decide (n = w)) || waiterIn (arrsFrom c 0 n) w) = true ↔ w < n + 1
    cases Nat.decEq n w with
    | isTrue e =>
      rw [decide_eq_true' e, e]
      exact ⟨fun _ => Nat.ltSuccSelf w, fun _ => rfl⟩
    | isFalse e =>
      rw [decide_eq_false' e]
      show waiterIn (arrsFrom c 0 n) w = true ↔ w < n + 1
      refine ⟨fun h => Nat.leStep (ih.1 h), fun h => ih.2 ?_⟩
      match Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
      | Or.inl x => exact False.elim (e (Eq.symm x))
      | Or.inr x => exact x

/-- **A whole-CTA `bar.sync` is a special case**: from a state where barrier `b` has no
arrivals, the `n = c.n` threads executing `bar.sync b` (any thread first, thread 0 last) and
the completion of `b` with count `n` give, entry by entry, the clocks `Clocks.barrierAll` of
`Clocks.lean`. -/
theorem wholeSync_barrierAll (N b : Nat) (h0 : List (EventN V)) (hb : (brun N h0).bars b = [])
    (t u : Nat) :
    (brun N (EventN.complete b (brun N h0).clocks.n :: (downEvs b h0 0 (brun N h0).clocks.n))).clocks.vc t u =
      (brun N h0).clocks.barrierAll.vc t u := by
  have hd := downEvs_brun N b h0 hb (brun N h0).clocks.n 0
  have e1 : (brun N (EventN.complete b (brun N h0).clocks.n ::
      (downEvs b h0 0 (brun N h0).clocks.n))).clocks =
      (brun N (downEvs b h0 0 (brun N h0).clocks.n)).clocks.barrier
        (rowsOf (takeL (brun N h0).clocks.n ((brun N (downEvs b h0 0 (brun N h0).clocks.n)).bars b)))
        (waiterIn (takeL (brun N h0).clocks.n ((brun N (downEvs b h0 0 (brun N h0).clocks.n)).bars b))) := rfl
  have htake : ∀ (m : Nat) (l : List Arrival), lenL l = m → takeL m l = l := by
    intro m
    induction m with
    | zero => intro l hl; cases l with
      | nil => rfl
      | cons a l => exact Nat.noConfusion hl
    | succ m ih => intro l hl; cases l with
      | nil => exact Nat.noConfusion hl
      | cons a l =>
        show a :: takeL m l = a :: l
        rw [ih l (Nat.succ.inj hl)]
  have hlen : ∀ (c : Clocks) (m i : Nat), lenL (arrsFrom c i m) = m := by
    intro c m
    induction m with
    | zero => intro i; rfl
    | succ m ih =>
      intro i
      rw [arrsFrom_succ c m i]
      show lenL (arrsFrom c i m) + 1 = m + 1
      rw [ih i]
  rw [e1, hd.1, hd.2, htake _ _ (hlen _ _ 0), rowsOf_arrsFrom]
  show cond (waiterIn (arrsFrom (brun N h0).clocks 0 (brun N h0).clocks.n) t) _ _ =
    cond (decide (t < (brun N h0).clocks.n)) _ _
  cases Nat.decLt t (brun N h0).clocks.n with
  | isTrue ht =>
    rw [(waiterIn_arrsFrom _ t _).2 ht]
    exact rfl
  | isFalse ht =>
    have hw : waiterIn (arrsFrom (brun N h0).clocks 0 (brun N h0).clocks.n) t = false := by
      cases hw : waiterIn (arrsFrom (brun N h0).clocks 0 (brun N h0).clocks.n) t with
      | false => rfl
      | true => exact False.elim (ht ((waiterIn_arrsFrom _ t _).1 hw))
    rw [hw]
    exact rfl

end Whole

end Race
end Kcert

/-! ## With benign writes (`same_value`) -/

namespace Kcert
namespace Race

open Sem (Act)

section Benign

variable {V : Type}

/-- The pair the check exempts: an earlier write and a later write of thread `j` that
`same_value` accepts (`sv h j a v`, after the history `h` before it). -/
def BenignW (sv : List (EventN V) → Nat → Nat → V → Bool) (h : List (EventN V)) (j : Nat) :
    Act V → Act V → Prop
  | Act.write _ _ _, Act.write a v _ => sv h j a v = true
  | _, _ => False

/-- Some action conflicts with an earlier action of another thread that does not happen
before it, and the pair is not an exempted pair of writes. -/
def UnorderedConflictB (sv : List (EventN V) → Nat → Nat → V → Bool) : List (EventN V) → Prop
  | [] => False
  | EventN.act j B :: h =>
    UnorderedConflictB sv h ∨
      ∃ i A k, ActAt h k i A ∧ i ≠ j ∧ Sem.Conflict A B ∧ ¬ BenignW sv h j A B ∧ ¬ HB h k j
  | EventN.bar _ _ _ :: h => UnorderedConflictB sv h
  | EventN.complete _ _ :: h => UnorderedConflictB sv h

/-- As `ShInvN`, a write being stood for by `write` or by an entry of `same_writes`. -/
def ShInvB (N : Nat) (h : List (EventN V)) (a : Nat) (s : Shadow) : Prop :=
  (∀ k i A, ActAt h k i A → IsW a A →
    (∃ x, s.write = some x ∧ Cov N h x k) ∨ (∃ x, In x s.same_writes ∧ Cov N h x k)) ∧
  (∀ k i A, ActAt h k i A → IsR a A → ∃ x, In x s.reads ∧ Cov N h x k) ∧
  (∀ k i A, ActAt h k i A → IsA a A → ∃ x, In x s.atomics ∧ Cov N h x k)

theorem shInvB_act {N : Nat} {h : List (EventN V)} {j : Nat} {B : Act V} {a : Nat} {s s' : Shadow}
    (hS : ShInvB N h a s)
    (hW : IsW a B → ∃ x, s'.write = some x ∧ Cov N (EventN.act j B :: h) x (lenL h))
    (hWo : ∀ k, ((∃ x, s.write = some x ∧ Cov N h x k) ∨ (∃ x, In x s.same_writes ∧ Cov N h x k)) →
      (∃ y, s'.write = some y ∧ Cov N (EventN.act j B :: h) y k) ∨
        (∃ y, In y s'.same_writes ∧ Cov N (EventN.act j B :: h) y k))
    (hR : IsR a B → ∃ x, In x s'.reads ∧ Cov N (EventN.act j B :: h) x (lenL h))
    (hRo : ∀ k x, In x s.reads → Cov N h x k →
      ∃ y, In y s'.reads ∧ Cov N (EventN.act j B :: h) y k)
    (hA : IsA a B → ∃ x, In x s'.atomics ∧ Cov N (EventN.act j B :: h) x (lenL h))
    (hAo : ∀ k x, In x s.atomics → Cov N h x k →
      ∃ y, In y s'.atomics ∧ Cov N (EventN.act j B :: h) y k) :
    ShInvB N (EventN.act j B :: h) a s' := by
  refine ⟨fun k i A hk hK => ?_, fun k i A hk hK => ?_, fun k i A hk hK => ?_⟩
  · cases hk with
    | inl hk => rw [← hk.2.2] at hK; rw [hk.1]; exact Or.inl (hW hK)
    | inr hk => exact hWo k (hS.1 k i A hk hK)
  · cases hk with
    | inl hk => rw [← hk.2.2] at hK; rw [hk.1]; exact hR hK
    | inr hk =>
      match hS.2.1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact hRo k x hx hc
  · cases hk with
    | inl hk => rw [← hk.2.2] at hK; rw [hk.1]; exact hA hK
    | inr hk =>
      match hS.2.2 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact hAo k x hx hc

theorem wo_keep {N : Nat} {h : List (EventN V)} {e : EventN V} {s s' : Shadow} {k : Nat}
    (hw : s'.write = s.write) (hsw : s'.same_writes = s.same_writes)
    (hk : (∃ x, s.write = some x ∧ Cov N h x k) ∨ (∃ x, In x s.same_writes ∧ Cov N h x k)) :
    (∃ y, s'.write = some y ∧ Cov N (e :: h) y k) ∨ (∃ y, In y s'.same_writes ∧ Cov N (e :: h) y k) := by
  rw [hw, hsw]
  cases hk with
  | inl hk =>
    match hk with
    | ⟨x, hx, hc⟩ => exact Or.inl ⟨x, hx, cov_mono e hc⟩
  | inr hk =>
    match hk with
    | ⟨x, hx, hc⟩ => exact Or.inr ⟨x, hx, cov_mono e hc⟩

theorem shInvB_other {N : Nat} {h : List (EventN V)} {j : Nat} {B : Act V} {a : Nat} {s : Shadow}
    (hS : ShInvB N h a s) (hW : ¬ IsW a B) (hR : ¬ IsR a B) (hA : ¬ IsA a B) :
    ShInvB N (EventN.act j B :: h) a s :=
  shInvB_act hS (fun hK => False.elim (hW hK)) (fun k hk => wo_keep rfl rfl hk)
    (fun hK => False.elim (hR hK)) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
    (fun hK => False.elim (hA hK)) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)

/-- No unordered write at all: every earlier write stood for is ordered. -/
theorem uw_none_all {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) {s : Shadow} {j k : Nat}
    (huw : s.unorderedWrite (brun N h).clocks j = none)
    (hk : (∃ x, s.write = some x ∧ Cov N h x k) ∨ (∃ x, In x s.same_writes ∧ Cov N h x k)) :
    HB h k j := by
  cases hk with
  | inl hk =>
    match hk with
    | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (uw_none huw hx)
  | inr hk =>
    match hk with
    | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none (orOpt_none huw).2 hx)

theorem stepB_read {sv : List (EventN V) → Nat → Nat → V → Bool} {N : Nat} {h : List (EventN V)}
    (hw : NotBlocked N h) {j a r pc : Nat}
    (hS : ∀ a', ShInvB N h a' ((nrun sv N h).shadow a'))
    (hf : (nrun sv N (EventN.act j (Act.read a r pc) :: h)).found = false) :
    (∀ a', ShInvB N (EventN.act j (Act.read a r pc) :: h) a'
      ((nrun sv N (EventN.act j (Act.read a r pc) :: h)).shadow a')) ∧
    (∀ k i A, ActAt h k i A → Sem.Conflict A (Act.read a r pc) → HB h k j) := by
  have hf' : ((nrun sv N h).found ||
      (((nrun sv N h).shadow a).accessK (brun N h).clocks ((brun N h).clocks.epoch j)
        false false).1.isSome) = false := hf
  have hr := isSome_false (or_false_right hf')
  have e1 : (((nrun sv N h).shadow a).accessK (brun N h).clocks
      ((brun N h).clocks.epoch j) false false).1 =
      orOpt (tag true (((nrun sv N h).shadow a).unorderedWrite (brun N h).clocks j))
        (tag true (findL (unord (brun N h).clocks j) ((nrun sv N h).shadow a).atomics)) := rfl
  rw [e1] at hr
  have uw := tag_none (orOpt_none hr).1
  have ua := tag_none (orOpt_none hr).2
  refine ⟨fun a' => ?_, fun k i A hk hcf => ?_⟩
  · cases Nat.decEq a' a with
    | isTrue ea =>
      rw [ea]
      have e2 : (nrun sv N (EventN.act j (Act.read a r pc) :: h)).shadow a =
          ⟨((nrun sv N h).shadow a).write, ((nrun sv N h).shadow a).same_writes,
            setFor ((brun N h).clocks.epoch j) ((nrun sv N h).shadow a).reads,
            ((nrun sv N h).shadow a).atomics⟩ := upd_same _ _ _
      rw [e2]
      exact shInvB_act (hS a) (fun hK => False.elim hK) (fun k hk => wo_keep rfl rfl hk)
        (fun _ => ⟨_, in_setFor_now _ _, cov_new (Or.inr rfl)⟩)
        (fun k x hx hc => setFor_cov hx hc)
        (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
    | isFalse ea =>
      have e2 : (nrun sv N (EventN.act j (Act.read a r pc) :: h)).shadow a' =
          (nrun sv N h).shadow a' := upd_other _ _ ea
      rw [e2]
      exact shInvB_other (hS a') (fun hK => hK) (fun hK => ea (Eq.symm hK)) (fun hK => hK)
  · cases conflict_read hcf with
    | inl hK => exact uw_none_all hw uw ((hS a).1 k i A hk hK)
    | inr hK =>
      match (hS a).2.2 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none ua hx)

theorem stepB_atom {sv : List (EventN V) → Nat → Nat → V → Bool} {N : Nat} {h : List (EventN V)}
    (hw : NotBlocked N h) {j a : Nat} {v : V} {pc : Nat}
    (hS : ∀ a', ShInvB N h a' ((nrun sv N h).shadow a'))
    (hf : (nrun sv N (EventN.act j (Act.atomAdd a v pc) :: h)).found = false) :
    (∀ a', ShInvB N (EventN.act j (Act.atomAdd a v pc) :: h) a'
      ((nrun sv N (EventN.act j (Act.atomAdd a v pc) :: h)).shadow a')) ∧
    (∀ k i A, ActAt h k i A → Sem.Conflict A (Act.atomAdd a v pc) → HB h k j) := by
  have hf' : ((nrun sv N h).found ||
      (((nrun sv N h).shadow a).atomic (brun N h).clocks
        ((brun N h).clocks.epoch j)).1.isSome) = false := hf
  have hr := isSome_false (or_false_right hf')
  have e1 : (((nrun sv N h).shadow a).atomic (brun N h).clocks
      ((brun N h).clocks.epoch j)).1 =
      orOpt (tag true (((nrun sv N h).shadow a).unorderedWrite (brun N h).clocks j))
        (tag false (findL (unord (brun N h).clocks j) ((nrun sv N h).shadow a).reads)) := rfl
  rw [e1] at hr
  have uw := tag_none (orOpt_none hr).1
  have ur := tag_none (orOpt_none hr).2
  refine ⟨fun a' => ?_, fun k i A hk hcf => ?_⟩
  · cases Nat.decEq a' a with
    | isTrue ea =>
      rw [ea]
      have e2 : (nrun sv N (EventN.act j (Act.atomAdd a v pc) :: h)).shadow a =
          ⟨((nrun sv N h).shadow a).write, ((nrun sv N h).shadow a).same_writes,
            ((nrun sv N h).shadow a).reads,
            setFor ((brun N h).clocks.epoch j) ((nrun sv N h).shadow a).atomics⟩ :=
        upd_same _ _ _
      rw [e2]
      exact shInvB_act (hS a) (fun hK => False.elim hK) (fun k hk => wo_keep rfl rfl hk)
        (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
        (fun _ => ⟨_, in_setFor_now _ _, cov_new (Or.inr rfl)⟩)
        (fun k x hx hc => setFor_cov hx hc)
    | isFalse ea =>
      have e2 : (nrun sv N (EventN.act j (Act.atomAdd a v pc) :: h)).shadow a' =
          (nrun sv N h).shadow a' := upd_other _ _ ea
      rw [e2]
      exact shInvB_other (hS a') (fun hK => hK) (fun hK => hK) (fun hK => ea (Eq.symm hK))
  · cases conflict_atom hcf with
    | inl hK => exact uw_none_all hw uw ((hS a).1 k i A hk hK)
    | inr hK =>
      match (hS a).2.1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none ur hx)

/-- An earlier write stood for by `x`, and `x` not ordered before `j` now, or ordered. -/
theorem cov_or_keep {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) {j : Nat} {B : Act V}
    {x : Epoch} {k : Nat} (hc : Cov N h x k) :
    unord (brun N h).clocks j x = true ∨
      Cov N (EventN.act j B :: h) ((brun N h).clocks.epoch j) k := by
  cases hu : unord (brun N h).clocks j x with
  | true => exact Or.inl rfl
  | false => exact Or.inr (cov_new (Or.inl (ordered_cov hw hc (ord_of_unord hu))))

theorem stepB_write {sv : List (EventN V) → Nat → Nat → V → Bool} {N : Nat} {h : List (EventN V)}
    (hw : NotBlocked N h) {j a : Nat} {v : V} {pc : Nat}
    (hS : ∀ a', ShInvB N h a' ((nrun sv N h).shadow a'))
    (hf : (nrun sv N (EventN.act j (Act.write a v pc) :: h)).found = false) :
    (∀ a', ShInvB N (EventN.act j (Act.write a v pc) :: h) a'
      ((nrun sv N (EventN.act j (Act.write a v pc) :: h)).shadow a')) ∧
    (∀ k i A, ActAt h k i A → Sem.Conflict A (Act.write a v pc) →
      ¬ BenignW sv h j A (Act.write a v pc) → HB h k j) := by
  have hf' : ((nrun sv N h).found ||
      (((nrun sv N h).shadow a).accessK (brun N h).clocks ((brun N h).clocks.epoch j)
        true (sv h j a v)).1.isSome) = false := hf
  have hr := isSome_false (or_false_right hf')
  have e1 : (((nrun sv N h).shadow a).accessK (brun N h).clocks
      ((brun N h).clocks.epoch j) true (sv h j a v)).1 =
      orOpt (orOpt (cond (true && sv h j a v) none
          (tag true (((nrun sv N h).shadow a).unorderedWrite (brun N h).clocks j)))
        (tag true (findL (unord (brun N h).clocks j) ((nrun sv N h).shadow a).atomics)))
        (tag false (findL (unord (brun N h).clocks j) ((nrun sv N h).shadow a).reads)) := rfl
  rw [e1] at hr
  have ua := tag_none (orOpt_none (orOpt_none hr).1).2
  have ur := tag_none (orOpt_none hr).2
  have e2 : (nrun sv N (EventN.act j (Act.write a v pc) :: h)).shadow a =
      ⟨some ((brun N h).clocks.epoch j),
        cond (true && sv h j a v)
          (pushO (filterL (unord (brun N h).clocks j) ((nrun sv N h).shadow a).same_writes)
            (findO (unord (brun N h).clocks j) ((nrun sv N h).shadow a).write)) [],
        ((nrun sv N h).shadow a).reads, ((nrun sv N h).shadow a).atomics⟩ :=
    upd_same _ _ _
  have other : ∀ a', ¬ a' = a → ShInvB N (EventN.act j (Act.write a v pc) :: h) a'
      ((nrun sv N (EventN.act j (Act.write a v pc) :: h)).shadow a') := by
    intro a' ea
    have e3 : (nrun sv N (EventN.act j (Act.write a v pc) :: h)).shadow a' =
        (nrun sv N h).shadow a' := upd_other _ _ ea
    rw [e3]
    exact shInvB_other (hS a') (fun hK => ea (Eq.symm hK)) (fun hK => hK) (fun hK => hK)
  have rest : ∀ k i A, ActAt h k i A → IsR a A ∨ IsA a A → HB h k j := by
    intro k i A hk hK
    cases hK with
    | inl hK =>
      match (hS a).2.1 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none ur hx)
    | inr hK =>
      match (hS a).2.2 k i A hk hK with
      | ⟨x, hx, hc⟩ => exact ordered_cov hw hc (list_none ua hx)
  cases hb : sv h j a v with
  | false =>
    rw [hb] at hr e2
    have uw : ((nrun sv N h).shadow a).unorderedWrite (brun N h).clocks j = none :=
      tag_none (orOpt_none (orOpt_none hr).1).1
    refine ⟨fun a' => ?_, fun k i A hk hcf _ => ?_⟩
    · cases Nat.decEq a' a with
      | isFalse ea => exact other a' ea
      | isTrue ea =>
        rw [ea, e2]
        exact shInvB_act (hS a) (fun _ => ⟨_, rfl, cov_new (Or.inr rfl)⟩)
          (fun k hk => Or.inl ⟨_, rfl, cov_new (Or.inl (uw_none_all hw uw hk))⟩)
          (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
          (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
    · cases conflict_write hcf with
      | inl hK => exact uw_none_all hw uw ((hS a).1 k i A hk hK)
      | inr hK => exact rest k i A hk hK
  | true =>
    rw [hb] at e2
    refine ⟨fun a' => ?_, fun k i A hk hcf hnb => ?_⟩
    · cases Nat.decEq a' a with
      | isFalse ea => exact other a' ea
      | isTrue ea =>
        rw [ea, e2]
        refine shInvB_act (hS a) (fun _ => ⟨_, rfl, cov_new (Or.inr rfl)⟩) (fun k hk => ?_)
          (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
          (fun hK => False.elim hK) (fun k x hx hc => ⟨x, hx, cov_mono _ hc⟩)
        cases hk with
        | inl hk =>
          match hk with
          | ⟨x, hx, hc⟩ =>
            cases cov_or_keep hw (B := Act.write a v pc) hc with
            | inr hc' => exact Or.inl ⟨_, rfl, hc'⟩
            | inl hu =>
              refine Or.inr ⟨x, ?_, cov_mono _ hc⟩
              show In x (pushO _ (findO (unord (brun N h).clocks j) ((nrun sv N h).shadow a).write))
              rw [findO_of hx hu]
              exact in_pushO_some _
        | inr hk =>
          match hk with
          | ⟨x, hx, hc⟩ =>
            cases cov_or_keep hw (B := Act.write a v pc) hc with
            | inr hc' => exact Or.inl ⟨_, rfl, hc'⟩
            | inl hu =>
              exact Or.inr ⟨x, in_pushO_left _ (in_filterL_of hu hx), cov_mono _ hc⟩
    · cases conflict_write hcf with
      | inl hK =>
        cases A with
        | write b' v' p' => exact False.elim (hnb hb)
        | read b' r' p' => exact False.elim hK
        | atomAdd b' v' p' => exact False.elim hK
        | compute p' g => exact False.elim hK
        | arrive b' n w p' => exact False.elim hK
        | exit => exact False.elim hK
      | inr hK => exact rest k i A hk hK

theorem shInvB_nonact {N : Nat} {h : List (EventN V)} {e : EventN V} {a : Nat} {s : Shadow}
    (hS : ShInvB N h a s) (he : ∀ k i A, ActAt (e :: h) k i A → ActAt h k i A) :
    ShInvB N (e :: h) a s := by
  refine ⟨fun k i A hk hK => wo_keep rfl rfl (hS.1 k i A (he k i A hk) hK),
    fun k i A hk hK => ?_, fun k i A hk hK => ?_⟩
  · match hS.2.1 k i A (he k i A hk) hK with
    | ⟨x, hx, hc⟩ => exact ⟨x, hx, cov_mono e hc⟩
  · match hS.2.2 k i A (he k i A hk) hK with
    | ⟨x, hx, hc⟩ => exact ⟨x, hx, cov_mono e hc⟩

theorem checkNB_run {sv : List (EventN V) → Nat → Nat → V → Bool} {N : Nat} :
    ∀ (h : List (EventN V)), NotBlocked N h → (nrun sv N h).found = false →
    (∀ a, ShInvB N h a ((nrun sv N h).shadow a)) ∧ ¬ UnorderedConflictB sv h := by
  intro h
  induction h with
  | nil =>
    intro _ _
    exact ⟨fun a => ⟨fun k i A hk => False.elim hk, fun k i A hk => False.elim hk,
      fun k i A hk => False.elim hk⟩, fun hu => hu⟩
  | cons e h ih =>
    intro hw hf
    match ih hw.1 (found_prefix e hf) with
    | ⟨hS, hU⟩ =>
      cases e with
      | bar t b w => exact ⟨fun a => shInvB_nonact (hS a) (fun k i A hk => hk), hU⟩
      | complete b m => exact ⟨fun a => shInvB_nonact (hS a) (fun k i A hk => hk), hU⟩
      | act j B =>
        have fin : (∀ k i A, ActAt h k i A → Sem.Conflict A B → ¬ BenignW sv h j A B →
            HB h k j) → ¬ UnorderedConflictB sv (EventN.act j B :: h) := by
          intro hC hu
          cases hu with
          | inl hu => exact hU hu
          | inr hu =>
            match hu with
            | ⟨i, A, k, hk, _, hcf, hnb, hnot⟩ => exact hnot (hC k i A hk hcf hnb)
        cases B with
        | read a r pc =>
          match stepB_read hw.1 hS hf with
          | ⟨hS', hC⟩ => exact ⟨hS', fin (fun k i A hk hcf _ => hC k i A hk hcf)⟩
        | write a v pc =>
          match stepB_write hw.1 hS hf with
          | ⟨hS', hC⟩ => exact ⟨hS', fin hC⟩
        | atomAdd a v pc =>
          match stepB_atom hw.1 hS hf with
          | ⟨hS', hC⟩ => exact ⟨hS', fin (fun k i A hk hcf _ => hC k i A hk hcf)⟩
        | compute pc g =>
          exact ⟨fun a => shInvB_other (hS a) (fun hK => hK) (fun hK => hK) (fun hK => hK),
            fin (fun k i A _ hcf _ => False.elim (conflict_compute hcf))⟩
        | arrive b n w pc =>
          exact ⟨fun a => shInvB_other (hS a) (fun hK => hK) (fun hK => hK) (fun hK => hK),
            fin (fun k i A _ hcf _ => False.elim (conflict_arrive hcf))⟩
        | exit =>
          exact ⟨fun a => shInvB_other (hS a) (fun hK => hK) (fun hK => hK) (fun hK => hK),
            fin (fun k i A _ hcf _ => False.elim (conflict_exit hcf))⟩

/-- **Soundness of the check with benign writes.**  For every `same_value` decision `sv`: if
blocked threads do nothing and the run reports no race, then every action that conflicts with
an earlier action of another thread has that action happen before it, except when both are
writes and the later one is taken as `same_value` (`BenignW`): the pairs the Rust exempts. -/
theorem checkNB_sound {sv : List (EventN V) → Nat → Nat → V → Bool} {N : Nat}
    {h : List (EventN V)} (hw : NotBlocked N h) (hc : checkN sv N h = false) :
    ¬ UnorderedConflictB sv h :=
  (checkNB_run h hw hc).2

end Benign

end Race
end Kcert

/-! ## The over-full barrier (README, "Finding: over-full named barriers") -/

namespace Kcert
namespace Race

open Sem (Act)

/-- Four threads stand for the four warps of the finding, barrier 1 has count 2 (for 64).
The executor's history: thread 0 stores to address 0 and `bar.sync 1`; threads 1, 2, 3
`bar.sync 1`; the first two arrivals (threads 0 and 1) complete; thread 1 loads address 0;
the next two (threads 2 and 3) complete. -/
def overfullExec : List (EventN Nat) :=
  [EventN.complete 1 2, EventN.act 1 (Act.read 0 0 0), EventN.complete 1 2,
    EventN.bar 3 1 true, EventN.bar 2 1 true, EventN.bar 1 1 true, EventN.bar 0 1 true,
    EventN.act 0 (Act.write 0 5 0)]

/-- Another schedule of the same program: threads 1 and 2 arrive first and complete the first
instance, thread 1 loads, then thread 0 stores and arrives with thread 3. -/
def overfullAlt : List (EventN Nat) :=
  [EventN.complete 1 2, EventN.bar 3 1 true, EventN.bar 0 1 true,
    EventN.act 0 (Act.write 0 5 0), EventN.act 1 (Act.read 0 0 0), EventN.complete 1 2,
    EventN.bar 2 1 true, EventN.bar 1 1 true]

/-- The executor's run reports nothing. -/
theorem overfullExec_check : checkN noSameN 4 overfullExec = false := rfl

/-- The other schedule's history is reported. -/
theorem overfullAlt_check : checkN noSameN 4 overfullAlt = true := rfl

/-- And its load and store are really unordered by happens-before. -/
theorem overfullAlt_unordered : UnorderedConflict overfullAlt := by
  refine Or.inr ⟨1, Act.read 0 0 0, 3, Or.inl ⟨rfl, rfl, rfl⟩, fun e => Nat.noConfusion e, rfl, ?_⟩
  intro h
  cases h with
  | inl h => exact Nat.noConfusion h.1
  | inr h =>
    cases h with
    | inl h =>
      cases h with
      | inl h => exact Nat.noConfusion h.1
      | inr h =>
        cases h with
        | inl h => exact Nat.noConfusion h.1
        | inr h => exact h
    | inr h =>
      match h.1 with
      | ⟨x, hx, ht, hw⟩ =>
        cases hx with
        | inl e => rw [← e] at ht; exact Nat.noConfusion ht
        | inr hx =>
          cases hx with
          | inl e => rw [← e] at ht; exact Nat.noConfusion ht
          | inr hx => exact hx

end Race
end Kcert

/-! ## The converse of `checkN_sound`: every report is an unordered conflict -/

namespace Kcert
namespace Race

open Sem (Act)

section Reports

variable {V : Type}

/-- Entry `x` is the epoch of a real access of kind `K` of the history. -/
def Real (N : Nat) (h : List (EventN V)) (K : Act V → Prop) (x : Epoch) : Prop :=
  ∃ ke A, Seg N h ke x.tid x.clock ∧ ActAt h ke x.tid A ∧ K A

/-- Every entry of the record of `a` is a real access of its kind. -/
def EInv (N : Nat) (h : List (EventN V)) (a : Nat) (s : Shadow) : Prop :=
  (∀ x, s.write = some x → Real N h (IsW a) x) ∧
  (∀ x, In x s.same_writes → Real N h (IsW a) x) ∧
  (∀ x, In x s.reads → Real N h (IsR a) x) ∧
  (∀ x, In x s.atomics → Real N h (IsA a) x)

theorem real_mono {N : Nat} {h : List (EventN V)} {K : Act V → Prop} {x : Epoch}
    (e : EventN V) (hx : Real N h K x) : Real N (e :: h) K x := by
  match hx with
  | ⟨ke, A, hs, ha, hK⟩ =>
    refine ⟨ke, A, Or.inr hs, ?_, hK⟩
    cases e with
    | act t B => exact Or.inr ha
    | bar t b w => exact ha
    | complete b m => exact ha

theorem real_new {N : Nat} {h : List (EventN V)} {j : Nat} {B : Act V} {K : Act V → Prop}
    (hK : K B) : Real N (EventN.act j B :: h) K ((brun N h).clocks.epoch j) :=
  ⟨lenL h, B, Or.inl ⟨rfl, rfl, rfl⟩, Or.inl ⟨rfl, rfl, rfl⟩, hK⟩

/-- A reported entry: a real conflicting access of another thread that does not happen
before. -/
theorem report_entry {N : Nat} {h : List (EventN V)} {j : Nat} {B : Act V} {K : Act V → Prop}
    {x : Epoch} (hx : Real N h K x) (hu : unord (brun N h).clocks j x = true)
    (hcf : ∀ A, K A → Sem.Conflict A B) : UnorderedConflict (EventN.act j B :: h) := by
  match hx with
  | ⟨ke, A, hs, ha, hK⟩ =>
    have d : unord (brun N h).clocks j x =
        !(decide (x.tid = j) || decide (x.clock ≤ (brun N h).clocks.vc j x.tid)) := rfl
    have hne : x.tid ≠ j := by
      intro e
      rw [d, decide_eq_true' e] at hu
      cases hu
    refine Or.inr ⟨x.tid, A, ke, ha, hne, hcf A hK, fun hb => ?_⟩
    have ho := hb_ordered hs hb
    have d2 : unord (brun N h).clocks j x = !((brun N h).clocks.ordered ⟨x.tid, x.clock⟩ j) := rfl
    rw [d2, ho] at hu
    cases hu

theorem unorderedConflict_mono {h : List (EventN V)} (hu : UnorderedConflict h) :
    ∀ (e : EventN V), UnorderedConflict (e :: h) := by
  intro e
  cases e with
  | act t B => exact Or.inl hu
  | bar t b w => exact hu
  | complete b m => exact hu

theorem uw_someN {N : Nat} {h : List (EventN V)} {a j : Nat} {s : Shadow} (hE : EInv N h a s)
    {y : Epoch} (hy : s.unorderedWrite (brun N h).clocks j = some y) :
    Real N h (IsW a) y ∧ unord (brun N h).clocks j y = true := by
  cases orOpt_some hy with
  | inl h1 =>
    have h2 := findO_some h1
    exact ⟨hE.1 y h2.1, h2.2⟩
  | inr h1 =>
    have h2 := findL_some h1
    exact ⟨hE.2.1 y h2.1, h2.2⟩

theorem conflict_w_read {a : Nat} {A : Act V} {r pc : Nat} (hK : IsW a A) :
    Sem.Conflict A (Act.read a r pc) := by
  cases A with
  | write b v p => exact hK
  | read b r' p => exact False.elim hK
  | atomAdd b v p => exact False.elim hK
  | compute p g => exact False.elim hK
  | arrive b n w p => exact False.elim hK
  | exit => exact False.elim hK

theorem conflict_a_read {a : Nat} {A : Act V} {r pc : Nat} (hK : IsA a A) :
    Sem.Conflict A (Act.read a r pc) := by
  cases A with
  | write b v p => exact False.elim hK
  | read b r' p => exact False.elim hK
  | atomAdd b v p => exact hK
  | compute p g => exact False.elim hK
  | arrive b n w p => exact False.elim hK
  | exit => exact False.elim hK

theorem conflict_any_write {a : Nat} {A : Act V} {v : V} {pc : Nat}
    (hK : IsW a A ∨ IsR a A ∨ IsA a A) : Sem.Conflict A (Act.write a v pc) := by
  cases A with
  | write b v' p => cases hK with
    | inl hK => exact hK
    | inr hK => cases hK with
      | inl hK => exact False.elim hK
      | inr hK => exact False.elim hK
  | read b r' p => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => cases hK with
      | inl hK => exact hK
      | inr hK => exact False.elim hK
  | atomAdd b v' p => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => cases hK with
      | inl hK => exact False.elim hK
      | inr hK => exact hK
  | compute p g => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => cases hK with
      | inl hK => exact False.elim hK
      | inr hK => exact False.elim hK
  | arrive b n w p => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => cases hK with
      | inl hK => exact False.elim hK
      | inr hK => exact False.elim hK
  | exit => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => cases hK with
      | inl hK => exact False.elim hK
      | inr hK => exact False.elim hK

theorem conflict_wr_atom {a : Nat} {A : Act V} {v : V} {pc : Nat}
    (hK : IsW a A ∨ IsR a A) : Sem.Conflict A (Act.atomAdd a v pc) := by
  cases A with
  | write b v' p => cases hK with
    | inl hK => exact hK
    | inr hK => exact False.elim hK
  | read b r' p => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => exact hK
  | atomAdd b v' p => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => exact False.elim hK
  | compute p g => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => exact False.elim hK
  | arrive b n w p => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => exact False.elim hK
  | exit => cases hK with
    | inl hK => exact False.elim hK
    | inr hK => exact False.elim hK

theorem isSome_true {α : Type} {o : Option α} (h : o.isSome = true) : ∃ y, o = some y := by
  cases o with
  | none => cases h
  | some y => exact ⟨y, rfl⟩

theorem or_true_cases {a b : Bool} (h : (a || b) = true) : a = true ∨ b = true := by
  cases a with
  | true => exact Or.inl rfl
  | false => exact Or.inr h

theorem eInv_keep {N : Nat} {h : List (EventN V)} {e : EventN V} {a : Nat} {s : Shadow}
    (hE : EInv N h a s) : EInv N (e :: h) a s :=
  ⟨fun x hx => real_mono e (hE.1 x hx), fun x hx => real_mono e (hE.2.1 x hx),
    fun x hx => real_mono e (hE.2.2.1 x hx), fun x hx => real_mono e (hE.2.2.2 x hx)⟩

theorem eInv_other {N : Nat} {h : List (EventN V)} {e : EventN V} {a a' : Nat} {f : Nat → Shadow}
    {s' : Shadow} (hE : EInv N h a' (f a')) (ea : ¬ a' = a) : EInv N (e :: h) a' (Sem.upd f a s' a') := by
  rw [upd_other _ _ ea]; exact eInv_keep hE

theorem checkN_complete_run {N : Nat} : ∀ (h : List (EventN V)),
    (∀ a, EInv N h a ((nrun noSameN N h).shadow a)) ∧
    ((nrun noSameN N h).found = true → UnorderedConflict h) := by
  intro h
  induction h with
  | nil =>
    exact ⟨fun a => ⟨fun x hx => Option.noConfusion hx, fun x hx => False.elim hx,
      fun x hx => False.elim hx, fun x hx => False.elim hx⟩, fun hf => Bool.noConfusion hf⟩
  | cons e h ih =>
    match ih with
    | ⟨hE, hF⟩ =>
      cases e with
      | bar t b w => exact ⟨fun a => eInv_keep (hE a), fun hf => hF hf⟩
      | complete b m => exact ⟨fun a => eInv_keep (hE a), fun hf => hF hf⟩
      | act j B =>
        cases B with
        | compute pc g =>
          exact ⟨fun a => eInv_keep (hE a), fun hf => unorderedConflict_mono (hF hf) _⟩
        | arrive b n w pc =>
          exact ⟨fun a => eInv_keep (hE a), fun hf => unorderedConflict_mono (hF hf) _⟩
        | exit =>
          exact ⟨fun a => eInv_keep (hE a), fun hf => unorderedConflict_mono (hF hf) _⟩
        | read a r pc =>
          refine ⟨fun a' => ?_, fun hf => ?_⟩
          · cases Nat.decEq a' a with
            | isFalse ea => exact eInv_other (hE a') ea
            | isTrue ea =>
              rw [ea]
              show EInv N _ a (Sem.upd _ a _ a)
              rw [upd_same]
              refine ⟨fun x hx => real_mono _ ((hE a).1 x hx),
                fun x hx => real_mono _ ((hE a).2.1 x hx), fun x hx => ?_,
                fun x hx => real_mono _ ((hE a).2.2.2 x hx)⟩
              cases in_setFor _ hx with
              | inl e => rw [e]; exact real_new (rfl : a = a)
              | inr hx => exact real_mono _ ((hE a).2.2.1 x hx)
          · have hf' : ((nrun noSameN N h).found ||
                (((nrun noSameN N h).shadow a).accessK (brun N h).clocks
                  ((brun N h).clocks.epoch j) false false).1.isSome) = true := hf
            cases or_true_cases hf' with
            | inl h0 => exact unorderedConflict_mono (hF h0) _
            | inr h1 =>
              match isSome_true h1 with
              | ⟨y, hy⟩ =>
                cases orOpt_some hy with
                | inl h2 =>
                  have h3 := uw_someN (hE a) (tag_some h2)
                  exact report_entry h3.1 h3.2 (fun A hK => conflict_w_read hK)
                | inr h2 =>
                  have h3 := findL_some (tag_some h2)
                  exact report_entry ((hE a).2.2.2 _ h3.1) h3.2 (fun A hK => conflict_a_read hK)
        | write a v pc =>
          refine ⟨fun a' => ?_, fun hf => ?_⟩
          · cases Nat.decEq a' a with
            | isFalse ea => exact eInv_other (hE a') ea
            | isTrue ea =>
              rw [ea]
              show EInv N _ a (Sem.upd _ a _ a)
              rw [upd_same]
              refine ⟨fun x hx => ?_, fun x hx => False.elim hx,
                fun x hx => real_mono _ ((hE a).2.2.1 x hx),
                fun x hx => real_mono _ ((hE a).2.2.2 x hx)⟩
              cases hx
              exact real_new (rfl : a = a)
          · have hf' : ((nrun noSameN N h).found ||
                (((nrun noSameN N h).shadow a).accessK (brun N h).clocks
                  ((brun N h).clocks.epoch j) true false).1.isSome) = true := hf
            cases or_true_cases hf' with
            | inl h0 => exact unorderedConflict_mono (hF h0) _
            | inr h1 =>
              match isSome_true h1 with
              | ⟨y, hy⟩ =>
                cases orOpt_some hy with
                | inl h2 =>
                  cases orOpt_some h2 with
                  | inl h3 =>
                    have h4 := uw_someN (hE a) (tag_some h3)
                    exact report_entry h4.1 h4.2 (fun A hK => conflict_any_write (Or.inl hK))
                  | inr h3 =>
                    have h4 := findL_some (tag_some h3)
                    exact report_entry ((hE a).2.2.2 _ h4.1) h4.2
                      (fun A hK => conflict_any_write (Or.inr (Or.inr hK)))
                | inr h2 =>
                  have h4 := findL_some (tag_some h2)
                  exact report_entry ((hE a).2.2.1 _ h4.1) h4.2
                    (fun A hK => conflict_any_write (Or.inr (Or.inl hK)))
        | atomAdd a v pc =>
          refine ⟨fun a' => ?_, fun hf => ?_⟩
          · cases Nat.decEq a' a with
            | isFalse ea => exact eInv_other (hE a') ea
            | isTrue ea =>
              rw [ea]
              show EInv N _ a (Sem.upd _ a _ a)
              rw [upd_same]
              refine ⟨fun x hx => real_mono _ ((hE a).1 x hx),
                fun x hx => real_mono _ ((hE a).2.1 x hx),
                fun x hx => real_mono _ ((hE a).2.2.1 x hx), fun x hx => ?_⟩
              cases in_setFor _ hx with
              | inl e => rw [e]; exact real_new (rfl : a = a)
              | inr hx => exact real_mono _ ((hE a).2.2.2 x hx)
          · have hf' : ((nrun noSameN N h).found ||
                (((nrun noSameN N h).shadow a).atomic (brun N h).clocks
                  ((brun N h).clocks.epoch j)).1.isSome) = true := hf
            cases or_true_cases hf' with
            | inl h0 => exact unorderedConflict_mono (hF h0) _
            | inr h1 =>
              match isSome_true h1 with
              | ⟨y, hy⟩ =>
                cases orOpt_some hy with
                | inl h2 =>
                  have h3 := uw_someN (hE a) (tag_some h2)
                  exact report_entry h3.1 h3.2 (fun A hK => conflict_wr_atom (Or.inl hK))
                | inr h2 =>
                  have h3 := findL_some (tag_some h2)
                  exact report_entry ((hE a).2.2.1 _ h3.1) h3.2
                    (fun A hK => conflict_wr_atom (Or.inr hK))

/-- **Every report is an unordered conflict** (without benign writes, for every history, no
hypothesis): if the run reports a race, some action conflicts with an earlier action of
another thread that does not happen before it. -/
theorem checkN_complete {N : Nat} {h : List (EventN V)} (hc : checkN noSameN N h = true) :
    UnorderedConflict h :=
  (checkN_complete_run h).2 hc

/-- With `checkN_sound`: under `NotBlocked`, the check reports iff the history has an
unordered conflict. -/
theorem checkN_iff {N : Nat} {h : List (EventN V)} (hw : NotBlocked N h) :
    checkN noSameN N h = true ↔ UnorderedConflict h := by
  refine ⟨checkN_complete, fun hu => ?_⟩
  cases hc : checkN noSameN N h with
  | true => rfl
  | false => exact False.elim (checkN_sound hw hc hu)

end Reports

end Race
end Kcert
