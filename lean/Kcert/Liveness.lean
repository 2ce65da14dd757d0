import Kcert.IfConv

/-!
# `live_at` (`checker/src/exec/ifconv.rs`): a register it calls dead is never read

`if_convert` leaves a register that it cannot merge undefined when `live_at(prog, L, r)` is
false.  This file models `live_at` and proves what that relies on: if `liveAt` says `false`,
no instruction reachable from `L` along the control-flow graph without passing an unguarded
write of `r` reads `r` (its guard, a source, or an operation `uses` does not describe).

The model (Rust names in brackets): an instruction `LInst` has a guard register `guard`
[`inst.guard`], `uses` (`some (reads, writes)` or `none`) [`uses`], and its control `ctrl`
(`Ctrl.bra t` [`Op::Bra`], `Ctrl.exit` [`Op::Exit`], `Ctrl.other`).  The program is
`P : Nat → Option LInst` (`none` past the end [`pc >= n`]).  `readsR` [the three `return
true`], `kills` [unguarded write], `succ` [the final `match`; the top of the stack is the head
of the list].  `dfs` is the Rust loop with a `seen` function and a stack; it has fuel (Lean
needs a measure; the Rust loop ends because each `pc` is seen once), and runs out of fuel
answering `true` (live), the safe side.  `liveAt P r start fuel`.

`liveAt_sound`: `liveAt P r start fuel = false` and `ReachNoKill P r start pc` (a path of
`succ` edges from `start` to `pc` through instructions none of which kills `r`) give: the
instruction at `pc`, if any, does not read `r`.  `ifConvert_liveAt`: `ifConvert_sound` with
`live r = liveAt P r L fuel`.
-/

namespace Kcert
namespace IfConv

/-- Control of an instruction. -/
inductive Ctrl where
  | bra : Nat → Ctrl
  | exit : Ctrl
  | other : Ctrl

/-- What liveness reads of an instruction. -/
structure LInst where
  guard : Option Nat
  uses : Option (List Nat × List Nat)
  ctrl : Ctrl

/-- `l.contains r`. -/
def memN (r : Nat) : List Nat → Bool
  | [] => false
  | x :: l => (x == r) || memN r l

/-- The guard is `r`. -/
def guardIs (r : Nat) : Option Nat → Bool
  | some g => g == r
  | none => false

/-- `reads` or an operation `uses` does not describe. -/
def usesRead (r : Nat) : Option (List Nat × List Nat) → Bool
  | some (rd, _) => memN r rd
  | none => true

/-- The instruction may read `r` (guard, source, or unknown operation). -/
def readsR (r : Nat) (i : LInst) : Bool := guardIs r i.guard || usesRead r i.uses

/-- An unguarded write of `r`. -/
def killsU (r : Nat) : Option Nat → Option (List Nat × List Nat) → Bool
  | none, some (_, wr) => memN r wr
  | _, _ => false

def kills (r : Nat) (i : LInst) : Bool := killsU r i.guard i.uses

/-- Successors, in the order the Rust pushes them (head: top of the stack). -/
def succG (pc : Nat) : Ctrl → Option Nat → List Nat
  | Ctrl.bra t, none => [t]
  | Ctrl.bra t, some _ => [pc + 1, t]
  | Ctrl.exit, none => []
  | _, _ => [pc + 1]

def succ (i : LInst) (pc : Nat) : List Nat := succG pc i.ctrl i.guard

/-- `seen[pc] = true`. -/
def mark (seen : Nat → Bool) (pc : Nat) : Nat → Bool :=
  fun q => if q = pc then true else seen q

/-- `a` pushed onto `b` (`a`'s head on top). -/
def app : List Nat → List Nat → List Nat
  | [], b => b
  | x :: a, b => x :: app a b

/-- The body of the loop for an instruction `i` at `pc` not yet seen. -/
def dfsInst (dfs : List Nat → (Nat → Bool) → Bool) (r pc : Nat) (st : List Nat)
    (seen : Nat → Bool) (i : LInst) : Bool :=
  if readsR r i = true then true
  else if kills r i = true then dfs st (mark seen pc)
  else dfs (app (succ i pc) st) (mark seen pc)

def dfsAt (P : Nat → Option LInst) (dfs : List Nat → (Nat → Bool) → Bool) (r pc : Nat)
    (st : List Nat) (seen : Nat → Bool) : Option LInst → Bool
  | none => dfs st seen
  | some i => dfsInst dfs r pc st seen i

/-- The loop of `live_at`, with fuel. -/
def dfs (P : Nat → Option LInst) (r : Nat) : Nat → List Nat → (Nat → Bool) → Bool
  | 0, _, _ => true
  | _ + 1, [], _ => false
  | f + 1, pc :: st, seen =>
    if seen pc = true then dfs P r f st seen
    else dfsAt P (dfs P r f) r pc st seen (P pc)

/-- `live_at(prog, start, r)`. -/
def liveAt (P : Nat → Option LInst) (r start fuel : Nat) : Bool :=
  dfs P r fuel [start] (fun _ => false)

/-- Membership. -/
def InL (q : Nat) : List Nat → Prop
  | [] => False
  | a :: l => q = a ∨ InL q l

theorem inL_append (q : Nat) : ∀ (a b : List Nat), InL q (app a b) → InL q a ∨ InL q b
  | [], b, h => Or.inr h
  | x :: a, b, h => by
    have h0 : q = x ∨ InL q (app a b) := h
    cases h0 with
    | inl e => exact Or.inl (Or.inl e)
    | inr h' =>
      cases inL_append q a b h' with
      | inl h2 => exact Or.inl (Or.inr h2)
      | inr h2 => exact Or.inr h2

theorem inL_append_left (q : Nat) : ∀ (a b : List Nat), InL q a → InL q (app a b)
  | [], b, h => False.elim h
  | x :: a, b, h => by
    show q = x ∨ InL q (app a b)
    cases h with
    | inl e => exact Or.inl e
    | inr h' => exact Or.inr (inL_append_left q a b h')

theorem inL_append_right (q : Nat) : ∀ (a b : List Nat), InL q b → InL q (app a b)
  | [], b, h => h
  | x :: a, b, h => by
    show q = x ∨ InL q (app a b)
    exact Or.inr (inL_append_right q a b h)

/-- A path from `pc` to `pc'` along `succ` through instructions that do not kill `r`. -/
inductive ReachNoKill (P : Nat → Option LInst) (r : Nat) : Nat → Nat → Prop
  | refl (pc : Nat) : ReachNoKill P r pc pc
  | step (pc q pc' : Nat) (i : LInst) : P pc = some i → kills r i = false →
      InL q (succ i pc) → ReachNoKill P r q pc' → ReachNoKill P r pc pc'

/-- The search invariant: a seen instruction does not read `r`, and unless it kills `r` its
successors are seen, on the stack, or past the end. -/
def Inv (P : Nat → Option LInst) (r : Nat) (seen : Nat → Bool) (st : List Nat) : Prop :=
  ∀ pc i, seen pc = true → P pc = some i → readsR r i = false ∧
    (kills r i = false → ∀ q, InL q (succ i pc) → seen q = true ∨ InL q st ∨ P q = none)

theorem bool_false_of_ne_true {b : Bool} (h : ¬ b = true) : b = false := by
  cases b with
  | false => rfl
  | true => exact absurd rfl h

theorem mark_self (seen : Nat → Bool) (pc : Nat) : mark seen pc pc = true := if_pos' rfl

theorem mark_mono (seen : Nat → Bool) (pc q : Nat) (h : seen q = true) :
    mark seen pc q = true := by
  cases Nat.decEq q pc with
  | isTrue e => exact if_pos' e
  | isFalse e => exact (if_neg' e).trans h

/-- What a search that answers `false` leaves: a closed set of seen instructions holding the
stack. -/
theorem dfs_false (P : Nat → Option LInst) (r : Nat) : ∀ (f : Nat) (st : List Nat)
    (seen : Nat → Bool), dfs P r f st seen = false → Inv P r seen st →
    ∃ seen' : Nat → Bool, (∀ q, seen q = true → seen' q = true) ∧
      (∀ q, InL q st → seen' q = true ∨ P q = none) ∧ Inv P r seen' []
  | 0, st, seen, h, _ => by cases h
  | f + 1, [], seen, _, hi =>
    ⟨seen, fun _ h => h, fun _ h => False.elim h, hi⟩
  | f + 1, pc :: st, seen, h, hi => by
    cases hs : seen pc with
    | true =>
      have h1 : dfs P r f st seen = false := by
        have h0 : (if seen pc = true then dfs P r f st seen
          else dfsAt P (dfs P r f) r pc st seen (P pc)) = false := h
        rw [if_pos' hs] at h0
        exact h0
      have hi' : Inv P r seen st := by
        intro p i hp hP
        have ⟨hr, hk⟩ := hi p i hp hP
        refine ⟨hr, fun hk0 q hq => ?_⟩
        cases hk hk0 q hq with
        | inl e => exact Or.inl e
        | inr e =>
          cases e with
          | inl e2 =>
            cases e2 with
            | inl e3 => rw [e3]; exact Or.inl hs
            | inr e3 => exact Or.inr (Or.inl e3)
          | inr e2 => exact Or.inr (Or.inr e2)
      have ⟨seen', hm, hst, hinv⟩ := dfs_false P r f st seen h1 hi'
      refine ⟨seen', hm, fun q hq => ?_, hinv⟩
      cases hq with
      | inl e => rw [e]; exact Or.inl (hm pc hs)
      | inr e => exact hst q e
    | false =>
      have h0 : (if seen pc = true then dfs P r f st seen
          else dfsAt P (dfs P r f) r pc st seen (P pc)) = false := h
      rw [if_neg' (ne_true_of_eq_false hs)] at h0
      -- the entries of `seen` that pointed at `pc` now point at a stack entry or a mark
      cases hP : P pc with
      | none =>
        rw [hP] at h0
        have h1 : dfs P r f st seen = false := h0
        have hi' : Inv P r seen st := by
          intro p i hp hPp
          have ⟨hr, hk⟩ := hi p i hp hPp
          refine ⟨hr, fun hk0 q hq => ?_⟩
          cases hk hk0 q hq with
          | inl e => exact Or.inl e
          | inr e =>
            cases e with
            | inl e2 =>
              cases e2 with
              | inl e3 => rw [e3]; exact Or.inr (Or.inr hP)
              | inr e3 => exact Or.inr (Or.inl e3)
            | inr e2 => exact Or.inr (Or.inr e2)
        have ⟨seen', hm, hst, hinv⟩ := dfs_false P r f st seen h1 hi'
        refine ⟨seen', hm, fun q hq => ?_, hinv⟩
        cases hq with
        | inl e => rw [e]; exact Or.inr hP
        | inr e => exact hst q e
      | some i =>
        rw [hP] at h0
        have h0' : dfsInst (dfs P r f) r pc st seen i = false := h0
        cases hr : readsR r i with
        | true =>
          have e : dfsInst (dfs P r f) r pc st seen i = true := if_pos' hr
          rw [e] at h0'
          cases h0'
        | false =>
          have e1 : dfsInst (dfs P r f) r pc st seen i =
              (if kills r i = true then dfs P r f st (mark seen pc)
                else dfs P r f (app (succ i pc) st) (mark seen pc)) :=
            if_neg' (ne_true_of_eq_false hr)
          rw [e1] at h0'
          -- the old entries keep their successors: seen now, or on the stack
          have old : ∀ (st' : List Nat), (∀ q, InL q st → InL q st') →
              ∀ p j, seen p = true → P p = some j → readsR r j = false ∧
                (kills r j = false → ∀ q, InL q (succ j p) →
                  mark seen pc q = true ∨ InL q st' ∨ P q = none) := by
            intro st' hsub p j hp hPp
            have ⟨hr', hk⟩ := hi p j hp hPp
            refine ⟨hr', fun hk0 q hq => ?_⟩
            cases hk hk0 q hq with
            | inl e => exact Or.inl (mark_mono seen pc q e)
            | inr e =>
              cases e with
              | inl e2 =>
                cases e2 with
                | inl e3 => rw [e3]; exact Or.inl (mark_self seen pc)
                | inr e3 => exact Or.inr (Or.inl (hsub q e3))
              | inr e2 => exact Or.inr (Or.inr e2)
          cases hk : kills r i with
          | true =>
            rw [if_pos' hk] at h0'
            have hi' : Inv P r (mark seen pc) st := by
              intro p j hp hPp
              cases Nat.decEq p pc with
              | isTrue e =>
                rw [e, hP] at hPp
                cases hPp
                refine ⟨hr, fun hk0 => ?_⟩
                rw [hk] at hk0
                cases hk0
              | isFalse e =>
                have hp' : seen p = true := by
                  have e' : mark seen pc p = seen p := if_neg' e
                  rw [← e']; exact hp
                exact old st (fun _ h => h) p j hp' hPp
            have ⟨seen', hm, hst, hinv⟩ := dfs_false P r f st (mark seen pc) h0' hi'
            refine ⟨seen', fun q hq => hm q (mark_mono seen pc q hq), fun q hq => ?_, hinv⟩
            cases hq with
            | inl e => rw [e]; exact Or.inl (hm pc (mark_self seen pc))
            | inr e => exact hst q e
          | false =>
            rw [if_neg' (ne_true_of_eq_false hk)] at h0'
            have hi' : Inv P r (mark seen pc) (app (succ i pc) st) := by
              intro p j hp hPp
              cases Nat.decEq p pc with
              | isTrue e =>
                rw [e, hP] at hPp
                cases hPp
                refine ⟨hr, fun _ q hq => ?_⟩
                rw [e] at hq
                exact Or.inr (Or.inl (inL_append_left q _ _ hq))
              | isFalse e =>
                have hp' : seen p = true := by
                  have e' : mark seen pc p = seen p := if_neg' e
                  rw [← e']; exact hp
                exact old (app (succ i pc) st) (fun q h => inL_append_right q _ _ h) p j hp' hPp
            have ⟨seen', hm, hst, hinv⟩ :=
              dfs_false P r f (app (succ i pc) st) (mark seen pc) h0' hi'
            refine ⟨seen', fun q hq => hm q (mark_mono seen pc q hq), fun q hq => ?_, hinv⟩
            cases hq with
            | inl e => rw [e]; exact Or.inl (hm pc (mark_self seen pc))
            | inr e => exact hst q (inL_append_right q _ _ e)

/-- Along a path that does not kill `r`, a closed seen set keeps holding the instructions. -/
theorem closed_reach (P : Nat → Option LInst) (r : Nat) (seen : Nat → Bool)
    (hinv : Inv P r seen []) {pc pc' : Nat} (hreach : ReachNoKill P r pc pc') :
    (seen pc = true ∨ P pc = none) → (seen pc' = true ∨ P pc' = none) := by
  induction hreach with
  | refl p => exact fun h => h
  | step p q p' i hP hk hq _ ih =>
    intro h
    cases h with
    | inr e => rw [hP] at e; cases e
    | inl e =>
      have ⟨_, hs⟩ := hinv p i e hP
      cases hs hk q hq with
      | inl e2 => exact ih (Or.inl e2)
      | inr e2 =>
        cases e2 with
        | inl e3 => exact False.elim e3
        | inr e3 => exact ih (Or.inr e3)

/-- **`live_at` is sound**: if it answers `false` for `r` from `start`, every instruction
reachable from `start` without passing an unguarded write of `r` does not read `r`. -/
theorem liveAt_sound (P : Nat → Option LInst) (r start fuel : Nat)
    (h : liveAt P r start fuel = false) {pc : Nat} (hreach : ReachNoKill P r start pc)
    {i : LInst} (hi : P pc = some i) : readsR r i = false := by
  have hinv0 : Inv P r (fun _ => false) [start] := by
    intro p j hp _
    cases hp
  have ⟨seen', _, hst, hinv⟩ := dfs_false P r fuel [start] (fun _ => false) h hinv0
  cases closed_reach P r seen' hinv hreach (hst start (Or.inl rfl)) with
  | inl e => exact (hinv pc i e hi).1
  | inr e => rw [hi] at e; cases e

/-- `0: @%p5 bra 2; 1: mov r1, r0; 2: add r3, r1, r2; 3: exit`. -/
def exProg : Nat → Option LInst
  | 0 => some ⟨some 5, some ([], []), Ctrl.bra 2⟩
  | 1 => some ⟨none, some ([0], [1]), Ctrl.other⟩
  | 2 => some ⟨none, some ([1, 2], [3]), Ctrl.other⟩
  | 3 => some ⟨none, some ([], []), Ctrl.exit⟩
  | _ => none

/-- From 0, `r1` is read at 2 on the taken path: live.  From 1 it is written first: dead.
`r3` is only written: dead.  `r5`, the guard: live. -/
theorem exLive : liveAt exProg 1 0 20 = true ∧ liveAt exProg 1 1 20 = false ∧
    liveAt exProg 3 0 20 = false ∧ liveAt exProg 5 0 20 = true :=
  ⟨rfl, rfl, rfl, rfl⟩

section
variable {K α : Type} [ExpField α] {R : Regs K} {I : Interp K α}

/-- `ifConvert_sound` with the liveness of the Rust: a register left `undef` is read by no
instruction reachable from the join `L` before an unguarded write of it. -/
theorem ifConvert_liveAt (ρ : Env α) (same : SVal K → SVal K → Bool)
    (same_sound : ∀ a b, same a b = true → a = b) (P : Nat → Option LInst) (L fuel n : Nat)
    (s : Nat → SVal K) (g : Nat) (neg : Bool) (blk : List (Inst K α R I))
    {s' : Nat → SVal K}
    (h : ifConvert R same (fun r => liveAt P r L fuel) n s g neg blk = some s')
    {r : Nat} (hr : r < n) :
    den R I ρ r (s' r) = branchC ρ (fun x => den R I ρ x (s x)) g neg blk r ∨
      (s' r = SVal.undef ∧ ∀ pc i, ReachNoKill P r L pc → P pc = some i →
        readsR r i = false) := by
  cases ifConvert_sound ρ same same_sound (fun r => liveAt P r L fuel) n s g neg blk h hr with
  | inl e => exact Or.inl e
  | inr e => exact Or.inr ⟨e.1, fun pc i hp hi => liveAt_sound P r L fuel e.2 hp hi⟩

end

end IfConv
end Kcert
