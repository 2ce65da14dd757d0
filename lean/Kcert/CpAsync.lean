import Kcert.Compat

/-!
# `cp.async`: a copy that lands somewhere between its issue and its wait

Rust: `checker/src/exec/tensor_core.rs` (`cp_async_issue`, `cp_async_commit`, `cp_async_wait`),
`checker/src/exec/access.rs` (a read of `Val::Pending`: "a cp.async is still copying here").

The executor performs a `cp.async` in two parts: at the issue it reads the source (value `v`)
and stores `Val::Pending` in the destination (a write for the race check; a later read of it is
an `UninitializedRead`); at the `cp.async.wait_group` that completes the copy's group it reads
the source again (an error "the source of a cp.async changed while the copy was in flight"
unless the value is still `v`), reports a `DataRace` if the destination no longer holds
`Pending` (it was written meanwhile), and stores `v` there.  So for the executor the copy takes
effect in one step at the wait.

On the hardware the copy reads the source and writes the destination at times of its own
between the issue and the completion.  This file models one copy of one element against the
sequence of the other memory events between the issue and the wait (of any thread, in the
order of one schedule): the events are `l1 ++ l2 ++ l3`, the copy reads `src` after `l1` and
writes what it read to `dst` after `l1 ++ l2` (`hw`); every pair "read time no later than write
time" is one such split.  `atWait` is the executor's copy at the wait.

* `hw_eq_atWait`: if no event between issue and wait writes the source and none reads or writes
  the destination (`Clean`), then for every split the values read by the events and the memory
  after them, and after any continuation `post`, are those of `atWait`.
* `valueCheck_gap`: the executor's test on the source is weaker than "not written": it compares
  the VALUE at the wait with the value at the issue (`valueCheck`).  A source written with
  another value and then restored passes it (and the destination is untouched), yet the
  hardware copy may read the intermediate value: `hw` puts `2` in the destination where
  `atWait` puts `1`.  This is a soundness gap of the Rust executor (see the README, "Finding:
  cp.async source changed and restored").

Not modelled: the link to `Sem` (the interval's events as a schedule of `Sem.Step`; the race
check's part: that every access of the destination, and every write of the source by another
thread, between issue and wait is either reported by the shadow records or ordered, so that it
lands in `l`), several elements or copies per group, `src_bytes < bytes` (zero fill), and the
`Pending` marker itself.
-/

namespace Kcert
namespace CpAsync

/-- A memory event between the issue and the wait: a plain write or read of one address. -/
inductive Ev (V : Type) where
  | wr (a : Nat) (v : V)
  | rd (a : Nat)

/-- Memory, and the values read so far (latest first). -/
structure St (V : Type) where
  mem : Nat → V
  out : List V

section Defs

variable {V : Type}

/-- `s` with `a` set to `v`. -/
def put (s : St V) (a : Nat) (v : V) : St V :=
  ⟨fun k => if k = a then v else s.mem k, s.out⟩

def step (s : St V) : Ev V → St V
  | Ev.wr a v => put s a v
  | Ev.rd a => ⟨s.mem, s.mem a :: s.out⟩

/-- List append, by structural recursion (core's `++` goes through `reverseAux`, whose
`cons_append` rests on `propext`). -/
def app : List (Ev V) → List (Ev V) → List (Ev V)
  | [], l => l
  | e :: l1, l2 => e :: app l1 l2

def run (s : St V) : List (Ev V) → St V
  | [] => s
  | e :: l => run (step s e) l

/-- The hardware: the copy reads `src` after `l1` and writes that value to `dst` after
`l1 ++ l2`; then `l3` until the wait. -/
def hw (s : St V) (src dst : Nat) (l1 l2 l3 : List (Ev V)) : St V :=
  run (put (run s (app l1 l2)) dst ((run s l1).mem src)) l3

/-- The executor: the events `l` between issue and wait, then the copy in one step at the
wait. -/
def atWait (s : St V) (src dst : Nat) (l : List (Ev V)) : St V :=
  put (run s l) dst ((run s l).mem src)

def writes (a : Nat) : Ev V → Bool
  | Ev.wr b _ => decide (b = a)
  | Ev.rd _ => false

def touches (a : Nat) : Ev V → Bool
  | Ev.wr b _ => decide (b = a)
  | Ev.rd b => decide (b = a)

/-- No event of the list satisfies `p`. -/
def noneB (p : Ev V → Bool) : List (Ev V) → Bool
  | [] => true
  | e :: l => !p e && noneB p l

/-- No event between issue and wait writes the source, and none reads or writes the
destination. -/
def Clean (src dst : Nat) (l : List (Ev V)) : Bool :=
  noneB (writes src) l && noneB (touches dst) l

/-- The executor's test (`cp_async_wait`): the source holds at the wait the value it held at
the issue, and no event reads or writes the destination (every such access is a finding: a
read of `Pending`, or a destination that no longer holds `Pending`, or a race). -/
def valueCheck [DecidableEq V] (s : St V) (src dst : Nat) (l : List (Ev V)) : Bool :=
  decide ((run s l).mem src = s.mem src) && noneB (touches dst) l

/-- Same values read, same memory at every address. -/
def SameSt (s t : St V) : Prop := s.out = t.out ∧ ∀ a, s.mem a = t.mem a

end Defs

section Proofs

variable {V : Type}

theorem sameSt_refl (s : St V) : SameSt s s := ⟨rfl, fun _ => rfl⟩

theorem sameSt_trans {s t u : St V} (h1 : SameSt s t) (h2 : SameSt t u) : SameSt s u :=
  ⟨Eq.trans h1.1 h2.1, fun a => Eq.trans (h1.2 a) (h2.2 a)⟩

theorem put_congr {s t : St V} (h : SameSt s t) (d : Nat) {x y : V} (hxy : x = y) :
    SameSt (put s d x) (put t d y) := by
  refine ⟨h.1, fun k => ?_⟩
  show (if k = d then x else s.mem k) = (if k = d then y else t.mem k)
  cases Nat.decEq k d with
  | isTrue e => rw [if_pos' e, if_pos' e]; exact hxy
  | isFalse e => rw [if_neg' e, if_neg' e]; exact h.2 k

theorem step_congr {s t : St V} (h : SameSt s t) (e : Ev V) : SameSt (step s e) (step t e) := by
  cases e with
  | wr a v => exact put_congr h a rfl
  | rd a =>
    refine ⟨?_, h.2⟩
    show s.mem a :: s.out = t.mem a :: t.out
    rw [h.1, h.2 a]

theorem run_congr : ∀ (l : List (Ev V)) {s t : St V}, SameSt s t → SameSt (run s l) (run t l)
  | [], _, _, h => h
  | e :: l, _, _, h => run_congr l (step_congr h e)

theorem run_append : ∀ (s : St V) (l1 l2 : List (Ev V)), run s (app l1 l2) = run (run s l1) l2
  | s, [], l2 => rfl
  | s, e :: l1, l2 => run_append (step s e) l1 l2

theorem noneB_append (p : Ev V → Bool) :
    ∀ (l1 l2 : List (Ev V)), noneB p (app l1 l2) = true → noneB p l1 = true ∧ noneB p l2 = true
  | [], l2, h => ⟨rfl, h⟩
  | e :: l1, l2, h =>
    have h' : (!p e && noneB p (app l1 l2)) = true := h
    match noneB_append p l1 l2 (and_right' h') with
    | ⟨h1, h2⟩ => ⟨show (!p e && noneB p l1) = true by rw [and_left' h', h1]; rfl, h2⟩

theorem not_true_false {b : Bool} (h : (!b) = true) : b = false := by
  cases b
  · rfl
  · cases h

/-- Events that do not write `a` leave it alone. -/
theorem run_mem_nowrite (a : Nat) :
    ∀ (l : List (Ev V)) (s : St V), noneB (writes a) l = true → (run s l).mem a = s.mem a
  | [], _, _ => rfl
  | Ev.rd b :: l, s, h => run_mem_nowrite a l _ (and_right' h)
  | Ev.wr b v :: l, s, h => by
    have hb : b ≠ a := of_decide_eq_false' (not_true_false (and_left' h))
    have hab : a ≠ b := fun e => hb (Eq.symm e)
    show (run (step s (Ev.wr b v)) l).mem a = s.mem a
    rw [run_mem_nowrite a l _ (and_right' h)]
    show (if a = b then v else s.mem a) = s.mem a
    rw [if_neg' hab]

/-- One event that does not touch `d` commutes with setting `d`. -/
theorem step_put (d : Nat) (x : V) (s : St V) (e : Ev V) (h : touches d e = false) :
    SameSt (step (put s d x) e) (put (step s e) d x) := by
  cases e with
  | wr b v =>
    have hb : b ≠ d := of_decide_eq_false' h
    refine ⟨rfl, fun k => ?_⟩
    show (if k = b then v else (if k = d then x else s.mem k)) =
      (if k = d then x else (if k = b then v else s.mem k))
    cases Nat.decEq k b with
    | isTrue eb =>
      have hkd : k ≠ d := fun e => hb (Eq.trans (Eq.symm eb) e)
      rw [if_pos' eb, if_neg' hkd, if_pos' eb]
    | isFalse eb =>
      rw [if_neg' eb, if_neg' eb]
  | rd b =>
    have hb : b ≠ d := of_decide_eq_false' h
    refine ⟨?_, fun _ => rfl⟩
    show (if b = d then x else s.mem b) :: s.out = s.mem b :: s.out
    rw [if_neg' hb]

/-- Events that do not touch `d` commute with setting `d`. -/
theorem run_put (d : Nat) (x : V) :
    ∀ (l : List (Ev V)) (s : St V), noneB (touches d) l = true →
      SameSt (run (put s d x) l) (put (run s l) d x)
  | [], s, _ => sameSt_refl _
  | e :: l, s, h =>
    sameSt_trans (run_congr l (step_put d x s e (not_true_false (and_left' h))))
      (run_put d x l (step s e) (and_right' h))

/-- **The executor's copy at the wait is the hardware's copy**, when nothing between issue and
wait writes the source or accesses the destination: for every choice of the copy's read and
write times (`l1`, `l2`, `l3`), the values read and the memory, after the wait and after any
continuation `post`, are the same. -/
theorem hw_eq_atWait (s : St V) (src dst : Nat) (l1 l2 l3 : List (Ev V))
    (hc : Clean src dst (app l1 (app l2 l3)) = true) (post : List (Ev V)) :
    SameSt (run (hw s src dst l1 l2 l3) post) (run (atWait s src dst (app l1 (app l2 l3))) post) := by
  have hw1 := and_left' hc
  have ht1 := and_right' hc
  match noneB_append (writes src) l1 (app l2 l3) hw1, noneB_append (touches dst) l1 (app l2 l3) ht1 with
  | ⟨hw1a, _⟩, ⟨_, ht23⟩ =>
    match noneB_append (touches dst) l2 l3 ht23 with
    | ⟨_, ht3⟩ =>
      apply run_congr post
      have e1 : run s (app l1 (app l2 l3)) = run (run s (app l1 l2)) l3 := by
        rw [run_append s l1 (app l2 l3), run_append (run s l1) l2 l3, run_append s l1 l2]
      have hsrc : (run s (app l1 (app l2 l3))).mem src = (run s l1).mem src :=
        Eq.trans (run_mem_nowrite src _ s hw1) (Eq.symm (run_mem_nowrite src l1 s hw1a))
      show SameSt (run (put (run s (app l1 l2)) dst ((run s l1).mem src)) l3)
        (put (run s (app l1 (app l2 l3))) dst ((run s (app l1 (app l2 l3))).mem src))
      rw [hsrc, e1]
      exact run_put dst _ l3 _ ht3

end Proofs

/-! ## The executor's value test is weaker than "the source is not written" -/

section Gap

/-- Source `0` holds `1`; between issue and wait it is written `2` and then `1` again (by the
issuing thread, in program order, or by threads ordered by barriers); the destination `1` is
not touched. -/
def gapS : St Nat := ⟨fun _ => 1, []⟩

def gapL1 : List (Ev Nat) := [Ev.wr 0 2]
def gapL3 : List (Ev Nat) := [Ev.wr 0 1]

/-- The executor's tests pass (the source holds `1` again at the wait), `Clean` does not. -/
theorem gap_valueCheck : valueCheck gapS 0 1 (app gapL1 (app [] gapL3)) = true := rfl

theorem gap_not_clean : Clean 0 1 (app gapL1 (app [] gapL3)) = false := rfl

/-- The executor's copy puts `1` in the destination; the hardware copy that reads the source
while it holds `2` (after `gapL1`) puts `2` there. -/
theorem gap_atWait : (atWait gapS 0 1 (app gapL1 (app [] gapL3))).mem 1 = 1 := rfl

theorem gap_hw : (hw gapS 0 1 gapL1 [] gapL3).mem 1 = 2 := rfl

/-- So the conclusion of `hw_eq_atWait` fails under the executor's tests. -/
theorem valueCheck_gap :
    valueCheck gapS 0 1 (app gapL1 (app [] gapL3)) = true ∧
      ¬SameSt (hw gapS 0 1 gapL1 [] gapL3) (atWait gapS 0 1 (app gapL1 (app [] gapL3))) :=
  ⟨rfl, fun h => by
    have e := h.2 1
    rw [gap_hw, gap_atWait] at e
    cases e⟩

end Gap

end CpAsync
end Kcert
