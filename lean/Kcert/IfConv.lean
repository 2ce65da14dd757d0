import Kcert.Term

/-!
# If-conversion of a forward branch on data (`checker/src/exec/ifconv.rs`)

The symbolic executor meets `@p bra L` (or `@!p bra L`) where `p` holds a condition term
(`Val::Cond`), a predicate that depends on tensor data.  When the instructions between the
branch and `L` only compute registers, it runs them (the fall-through path) and then merges,
register by register, the value before them (branch taken: the taken path is empty) and the
value after them (branch not taken): `select(cond, before, after)` for a float register,
`(cond && before) || (!cond && after)` for a predicate register, kept as is when both are the
same value, and otherwise left undefined when the register is not live at `L`, or refused.

This file models that, over the project's terms (`Term`, `evalP`), and proves it against the
branching semantics: for every input environment, the register file the executor produces
denotes, at every register that is live at `L`, what the branch produces; at a register that is
not live it is that or `undef`.

The model (Rust names in brackets):

* `SVal` [`Val`]: symbolic register values `bits` [`Bits`], `cond` [`Cond`], `term` [`Term`],
  `undef` [`Undef`], and `opaque n` for every other `Val` (`Pair`, `Word`, `Frag`, ...), which
  no select merges.
* `Kind` [`RegInfo`]: `pred` (`bits == 1`), `float` (`float == Some(_)`), `other`.
  `Regs.fk r b` is the constant that `term_of(Bits(b), ty)` makes of a float pattern.
* `CVal`, `den`: what a symbolic value denotes in one run, over the reals: `bits b` in a
  predicate register is the truth value of its low bit, in a float register the real value
  of the pattern, otherwise the integer; a `cond` is its truth value, a `term` its real value.
* `Op`: an instruction of the skipped path, abstract: its symbolic effect `sym` [`pure`] and
  its concrete effect `conc` on the register file, with the hypothesis `sound` that `sym`
  follows `conc` (the per-operation semantics is not modelled here, as in `Semantics.lean`),
  and `fdst`, the one destination of the operations `guarded_by_data` accepts (`Float`,
  `Fma`, `FloatUn`, float `Mov`), which then write nothing else (`frame`).  That every
  operation listed in `register_only` only reads and writes registers is what lets a path be
  a list of such `Op`s; it is read off the Rust, not proved.
* `Inst`: an `Op` with an optional guard `(g, neg)` [`inst.guard`].
* `sstep` [the loop body of `if_convert`], `runSym`, `mergeReg` [`merge`], `bAnd`/`bOr`
  [`bool_op`], `finalReg`/`regOk` [the merge loop], `ifConvert` [`if_convert` entered from the
  guard `Val::Cond(c)` with `neg`]; `cstep`, `runConc`, `branchC`: the branching semantics.
-/

namespace Kcert
namespace IfConv

/-- Register classes, as `merge` distinguishes them. -/
inductive Kind where
  | pred | float | other

/-- Symbolic register values (Rust `Val`). -/
inductive SVal (K : Type) where
  | bits : Nat → SVal K
  | cond : Term K → SVal K
  | term : Term K → SVal K
  | opaque : Nat → SVal K
  | undef : SVal K

/-- Concrete register values of one run (over the reals). -/
inductive CVal (α : Type) where
  | bits : Nat → CVal α
  | bool : Bool → CVal α
  | real : α → CVal α
  | opaque : Nat → CVal α
  | undef : CVal α

/-- `b & 1 == 1`. -/
def lsb (b : Nat) : Bool := b % 2 == 1

/-- The register table: each register's class and the constant of a float bit pattern. -/
structure Regs (K : Type) where
  kind : Nat → Kind
  fk : Nat → Nat → K

variable {K α : Type} [ExpField α]

section
variable (R : Regs K) (I : Interp K α) (ρ : Env α)

/-- What a bit pattern `b` in register `r` of class `k` denotes. -/
def denBits (r b : Nat) : Kind → CVal α
  | Kind.pred => CVal.bool (lsb b)
  | Kind.float => CVal.real (I.const (R.fk r b))
  | Kind.other => CVal.bits b

/-- What symbolic value `v` of register `r` denotes in environment `ρ`. -/
def den (r : Nat) : SVal K → CVal α
  | SVal.bits b => denBits R I r b (R.kind r)
  | SVal.cond c => CVal.bool (Term.evalP I ρ c).2
  | SVal.term t => CVal.real (Term.eval I ρ t)
  | SVal.opaque n => CVal.opaque n
  | SVal.undef => CVal.undef

end

/-- An instruction of the skipped path (abstract; see the module comment). -/
structure Op (K α : Type) [ExpField α] (R : Regs K) (I : Interp K α) where
  sym : (Nat → SVal K) → Option (Nat → SVal K)
  conc : Env α → (Nat → CVal α) → Nat → CVal α
  fdst : Option Nat
  conc_congr : ∀ (ρ : Env α) (f g : Nat → CVal α), (∀ r, f r = g r) →
    ∀ r, conc ρ f r = conc ρ g r
  sound : ∀ (ρ : Env α) (s s' : Nat → SVal K), sym s = some s' →
    ∀ r, conc ρ (fun x => den R I ρ x (s x)) r = den R I ρ r (s' r)
  frame : ∀ (d : Nat) (s s' : Nat → SVal K), fdst = some d → sym s = some s' →
    ∀ r, r ≠ d → s' r = s r

/-- An instruction: an operation and an optional guard `@g` (`neg = false`) or `@!g`. -/
structure Inst (K α : Type) [ExpField α] (R : Regs K) (I : Interp K α) where
  guard : Option (Nat × Bool)
  op : Op K α R I

section
variable {R : Regs K} {I : Interp K α}

/-! ### The executor (symbolic) -/

/-- `term_of(Bits(b), ty)` in register `r` of class `k`. -/
def termOfBits (R : Regs K) (r b : Nat) : Kind → Option (Term K)
  | Kind.float => some (Term.const (R.fk r b))
  | _ => none

/-- `term_of(v, ty)` for register `r`: a term is itself, a float pattern its constant. -/
def termOf (R : Regs K) (r : Nat) : SVal K → Option (Term K)
  | SVal.term t => some t
  | SVal.bits b => termOfBits R r b (R.kind r)
  | _ => none

/-- `s` with register `d` set to `v`. -/
def update (s : Nat → SVal K) (d : Nat) (v : SVal K) : Nat → SVal K :=
  fun r => if r = d then v else s r

/-- `o >>= f` (written out, so that proofs can rewrite `o`). -/
def optBind {β γ : Type} : Option β → (β → Option γ) → Option γ
  | none, _ => none
  | some x, f => f x

/-- Both terms present: the destination becomes `select(c, new, old)`. -/
def gbdMerge (d : Nat) (c : Term K) (s1 : Nat → SVal K) :
    Option (Term K) → Option (Term K) → Option (Nat → SVal K)
  | some a, some b => some (update s1 d (SVal.term (Term.select c a b)))
  | _, _ => none

/-- `guarded_by_data` with destination `d`, after `pure` produced `s1`. -/
def gbdRun (R : Regs K) (d : Nat) (c : Term K) (s s1 : Nat → SVal K) : Option (Nat → SVal K) :=
  gbdMerge d c s1 (termOf R d (s1 d)) (termOf R d (s d))

/-- `guarded_by_data`: run the operation, then its destination is `select(c, new, old)`;
any operation without a float destination (`fdst = none`) is refused. -/
def guardedByData (op : Op K α R I) (c : Term K) (s : Nat → SVal K) :
    Option (Nat → SVal K) :=
  optBind op.fdst (fun d => optBind (op.sym s) (gbdRun R d c s))

/-- A concrete guard reading `b` in a register of class `k`. -/
def guardBits (op : Op K α R I) (b : Nat) (neg : Bool) (s : Nat → SVal K) :
    Kind → Option (Nat → SVal K)
  | Kind.float => none
  | _ => if (lsb b == neg) = true then some s else op.sym s

/-- The guard `(g, neg)` reads the value `v`. -/
def guardVal (op : Op K α R I) (g : Nat) (neg : Bool) (s : Nat → SVal K) :
    SVal K → Option (Nat → SVal K)
  | SVal.bits b => guardBits op b neg s (R.kind g)
  | SVal.cond c => guardedByData op (cond neg (Term.not c) c) s
  | _ => none

/-- One instruction of the path (the loop body of `if_convert`): a concrete guard skips or
runs, a data guard goes through `guardedByData`, any other guard value is refused.  (The
model also refuses a concrete guard in a float register; PTX guards are predicates.) -/
def sstepG (op : Op K α R I) (s : Nat → SVal K) : Option (Nat × Bool) → Option (Nat → SVal K)
  | none => op.sym s
  | some (g, neg) => guardVal op g neg s (s g)

def sstep (i : Inst K α R I) (s : Nat → SVal K) : Option (Nat → SVal K) :=
  sstepG i.op s i.guard

def runSym : List (Inst K α R I) → (Nat → SVal K) → Option (Nat → SVal K)
  | [], s => some s
  | i :: is, s => optBind (sstep i s) (runSym is)

/-- `bool_op(And, a, b)` on the values a predicate merge meets (`x & y & 1` is written
`if lsb x && lsb y then 1 else 0`). -/
def bAnd : SVal K → SVal K → Option (SVal K)
  | SVal.bits x, SVal.bits y => some (SVal.bits (if (lsb x && lsb y) = true then 1 else 0))
  | SVal.bits x, SVal.cond c => some (if lsb x = true then SVal.cond c else SVal.bits 0)
  | SVal.cond c, SVal.bits x => some (if lsb x = true then SVal.cond c else SVal.bits 0)
  | SVal.cond a, SVal.cond b => some (SVal.cond (Term.and a b))
  | _, _ => none

/-- `bool_op(Or, a, b)`. -/
def bOr : SVal K → SVal K → Option (SVal K)
  | SVal.bits x, SVal.bits y => some (SVal.bits (if (lsb x || lsb y) = true then 1 else 0))
  | SVal.bits x, SVal.cond c => some (if lsb x = true then SVal.bits 1 else SVal.cond c)
  | SVal.cond c, SVal.bits x => some (if lsb x = true then SVal.bits 1 else SVal.cond c)
  | SVal.cond a, SVal.cond b => some (SVal.cond (Term.or a b))
  | _, _ => none

/-- The predicate merge `(c && taken) || (!c && fallen)`. -/
def mergePred (c : Term K) (taken fallen : SVal K) : Option (SVal K) :=
  optBind (bAnd (SVal.cond c) taken) (fun a =>
    optBind (bAnd (SVal.cond (Term.not c)) fallen) (fun b => bOr a b))

/-- Both operands as terms: `select(c, a, b)`. -/
def selOf (c : Term K) : Option (Term K) → Option (Term K) → Option (SVal K)
  | some a, some b => some (SVal.term (Term.select c a b))
  | _, _ => none

/-- `merge` for a register of class `k`. -/
def mergeK (R : Regs K) (c : Term K) (r : Nat) (taken fallen : SVal K) : Kind → Option (SVal K)
  | Kind.pred => mergePred c taken fallen
  | _ => selOf c (termOf R r taken) (termOf R r fallen)

/-- `merge`: `c ? taken : fallen` for register `r`, or `none` when they cannot be merged. -/
def mergeReg (R : Regs K) (c : Term K) (r : Nat) (taken fallen : SVal K) : Option (SVal K) :=
  mergeK R c r taken fallen (R.kind r)

def isSomeB {β : Type} : Option β → Bool
  | some _ => true
  | none => false

/-- The value of a merge that succeeded, `undef` otherwise. -/
def orUndef : Option (SVal K) → SVal K
  | some v => v
  | none => SVal.undef

/-- The merged value of register `r` (`same` is the Rust `fallen == taken`). -/
def finalReg (R : Regs K) (same : SVal K → SVal K → Bool) (c : Term K)
    (before after : Nat → SVal K) (r : Nat) : SVal K :=
  if same (before r) (after r) = true then after r else
    orUndef (mergeReg R c r (before r) (after r))

/-- Register `r` is accepted: the same value on both paths, or mergeable, or not live. -/
def regOk (R : Regs K) (same : SVal K → SVal K → Bool) (live : Nat → Bool) (c : Term K)
    (before after : Nat → SVal K) (r : Nat) : Bool :=
  same (before r) (after r) || isSomeB (mergeReg R c r (before r) (after r)) || !live r

/-- `p r` for every `r < n`. -/
def allBelow : Nat → (Nat → Bool) → Bool
  | 0, _ => true
  | n + 1, p => p n && allBelow n p

/-- After the path ran (`after`): check every register, then merge. -/
def ifConvAfter (R : Regs K) (same : SVal K → SVal K → Bool) (live : Nat → Bool) (n : Nat)
    (c : Term K) (s after : Nat → SVal K) : Option (Nat → SVal K) :=
  if allBelow n (regOk R same live c s after) = true then
    some (finalReg R same c s after)
  else none

/-- The branch's guard register holds `v`: only a condition is if-converted. -/
def ifConvG (R : Regs K) (same : SVal K → SVal K → Bool) (live : Nat → Bool) (n : Nat)
    (s : Nat → SVal K) (neg : Bool) (blk : List (Inst K α R I)) :
    SVal K → Option (Nat → SVal K)
  | SVal.cond c0 => optBind (runSym blk s) (ifConvAfter R same live n (cond neg (Term.not c0) c0) s)
  | _ => none

/-- `if_convert` for `@g bra L` (`neg = false`) or `@!g bra L` (`neg = true`) where register
`g` holds a condition, over the path `blk`, with `n` registers and liveness `live` at `L`. -/
def ifConvert (R : Regs K) (same : SVal K → SVal K → Bool) (live : Nat → Bool) (n : Nat)
    (s : Nat → SVal K) (g : Nat) (neg : Bool) (blk : List (Inst K α R I)) :
    Option (Nat → SVal K) :=
  ifConvG R same live n s neg blk (s g)

/-! ### The branching semantics (concrete) -/

/-- The truth value a guard reads. -/
def cguard : CVal α → Bool
  | CVal.bool b => b
  | CVal.bits b => lsb b
  | _ => false

/-- One instruction: skipped when the guard reads `neg`. -/
def cstepG (ρ : Env α) (op : Op K α R I) (s : Nat → CVal α) :
    Option (Nat × Bool) → Nat → CVal α
  | none => op.conc ρ s
  | some (g, neg) => fun r => if (cguard (s g) == neg) = true then s r else op.conc ρ s r

def cstep (ρ : Env α) (i : Inst K α R I) (s : Nat → CVal α) : Nat → CVal α :=
  cstepG ρ i.op s i.guard

def runConc (ρ : Env α) : List (Inst K α R I) → (Nat → CVal α) → (Nat → CVal α)
  | [], s => s
  | i :: is, s => runConc ρ is (cstep ρ i s)

/-- `@g bra L` / `@!g bra L` over the path `blk`: taken (registers unchanged) when the guard
does not read `neg`, otherwise the path runs. -/
def branchC (ρ : Env α) (s : Nat → CVal α) (g : Nat) (neg : Bool)
    (blk : List (Inst K α R I)) : Nat → CVal α :=
  fun r => if (cguard (s g) == neg) = true then runConc ρ blk s r else s r

/-! ### Proofs -/

theorem termOf_den (ρ : Env α) {r : Nat} {v : SVal K} {t : Term K}
    (h : termOf R r v = some t) : den R I ρ r v = CVal.real (Term.eval I ρ t) := by
  cases v with
  | term t' =>
    cases h
    rfl
  | bits b =>
    show denBits R I r b (R.kind r) = _
    have h' : termOfBits R r b (R.kind r) = some t := h
    cases hk : R.kind r with
    | float =>
      rw [hk] at h'
      cases h'
      rfl
    | pred => rw [hk] at h'; cases h'
    | other => rw [hk] at h'; cases h'
  | cond c => cases h
  | opaque n => cases h
  | undef => cases h

/-- The condition `if_convert` uses (`Not(c)` for `@!g`) is true iff the guard does not read
`neg`, that is iff the branch is taken. -/
theorem evalP_cond_neg (ρ : Env α) (c : Term K) (neg : Bool) :
    (Term.evalP I ρ (cond neg (Term.not c) c)).2 = !((Term.evalP I ρ c).2 == neg) := by
  cases neg with
  | true =>
    show (!(Term.evalP I ρ c).2) = !((Term.evalP I ρ c).2 == true)
    cases (Term.evalP I ρ c).2 <;> rfl
  | false =>
    show (Term.evalP I ρ c).2 = !((Term.evalP I ρ c).2 == false)
    cases (Term.evalP I ρ c).2 <;> rfl

theorem cguard_bits (ρ : Env α) {r b : Nat} {k : Kind} (hk : R.kind r = k)
    (hf : k = Kind.pred ∨ k = Kind.other) : cguard (den R I ρ r (SVal.bits b)) = lsb b := by
  show cguard (denBits R I r b (R.kind r)) = lsb b
  rw [hk]
  cases hf with
  | inl h => rw [h]; rfl
  | inr h => rw [h]; rfl

/-- `guardedByData` follows the guarded instruction: `select(c, new, old)` is the new value
where the guard holds, the old one elsewhere. -/
theorem guardedByData_sound (ρ : Env α) (op : Op K α R I) (c : Term K) (gv : Bool)
    (hc : (Term.evalP I ρ c).2 = !gv) {s s' : Nat → SVal K}
    (h : guardedByData op c s = some s') (r : Nat) :
    (if gv = true then den R I ρ r (s r) else op.conc ρ (fun x => den R I ρ x (s x)) r) =
      den R I ρ r (s' r) := by
  have h0 : optBind op.fdst (fun d => optBind (op.sym s) (gbdRun R d c s)) = some s' := h
  cases hd : op.fdst with
  | none => rw [hd] at h0; cases h0
  | some d =>
    rw [hd] at h0
    have h1 : optBind (op.sym s) (gbdRun R d c s) = some s' := h0
    cases hs : op.sym s with
    | none => rw [hs] at h1; cases h1
    | some s1 =>
      rw [hs] at h1
      have h2 : gbdMerge d c s1 (termOf R d (s1 d)) (termOf R d (s d)) = some s' := h1
      cases ha : termOf R d (s1 d) with
      | none => rw [ha] at h2; cases h2
      | some a =>
        cases hb : termOf R d (s d) with
        | none => rw [ha, hb] at h2; cases h2
        | some b =>
          rw [ha, hb] at h2
          cases h2
          have hsnd := op.sound ρ s s1 hs
          cases Nat.decEq r d with
          | isTrue e =>
            rw [e]
            have hu : update s1 d (SVal.term (Term.select c a b)) d =
                SVal.term (Term.select c a b) := if_pos' rfl
            rw [hu, hsnd d, termOf_den ρ ha, termOf_den ρ hb]
            show _ = CVal.real (if (Term.evalP I ρ c).2 = true then Term.eval I ρ a
              else Term.eval I ρ b)
            rw [hc]
            cases gv <;> rfl
          | isFalse e =>
            have hu : update s1 d (SVal.term (Term.select c a b)) r = s1 r := if_neg' e
            rw [hu, hsnd r, op.frame d s s1 hd hs r e]
            cases gv <;> rfl

theorem ne_true_of_eq_false {b : Bool} (h : b = false) : ¬ b = true := by
  intro e
  rw [h] at e
  cases e

/-- A concrete guard: skip (registers unchanged) or run the operation. -/
theorem guardIte_sound (ρ : Env α) (op : Op K α R I) {gv : Bool} {s s' : Nat → SVal K}
    (h : (if gv = true then some s else op.sym s) = some s') (r : Nat) :
    (if gv = true then den R I ρ r (s r) else op.conc ρ (fun x => den R I ρ x (s x)) r) =
      den R I ρ r (s' r) := by
  cases hb : gv with
  | true =>
    rw [if_pos' hb] at h
    rw [if_pos' rfl]
    cases h
    rfl
  | false =>
    rw [if_neg' (ne_true_of_eq_false hb)] at h
    rw [if_neg' (ne_true_of_eq_false rfl)]
    exact op.sound ρ s s' h r

/-- One instruction of the path: the executor's step follows the concrete step, whatever the
guard (none, concrete, or on data). -/
theorem sstep_sound (ρ : Env α) (i : Inst K α R I) {s s' : Nat → SVal K}
    (h : sstep i s = some s') (r : Nat) :
    cstep ρ i (fun x => den R I ρ x (s x)) r = den R I ρ r (s' r) := by
  cases i with
  | mk guard op =>
  cases guard with
  | none => exact op.sound ρ s s' h r
  | some gn =>
    cases gn with
    | mk g neg =>
    have h0 : guardVal op g neg s (s g) = some s' := h
    show (if (cguard (den R I ρ g (s g)) == neg) = true then den R I ρ r (s r)
      else op.conc ρ (fun x => den R I ρ x (s x)) r) = _
    cases hg : s g with
    | bits b =>
      rw [hg] at h0
      have h1 : guardBits op b neg s (R.kind g) = some s' := h0
      cases hk : R.kind g with
      | float => rw [hk] at h1; cases h1
      | pred =>
        rw [hk] at h1
        rw [cguard_bits ρ hk (Or.inl rfl)]
        exact guardIte_sound ρ op h1 r
      | other =>
        rw [hk] at h1
        rw [cguard_bits ρ hk (Or.inr rfl)]
        exact guardIte_sound ρ op h1 r
    | cond c =>
      rw [hg] at h0
      have h1 : guardedByData op (cond neg (Term.not c) c) s = some s' := h0
      exact guardedByData_sound ρ op (cond neg (Term.not c) c) _
        (evalP_cond_neg ρ c neg) h1 r
    | term t => rw [hg] at h0; cases h0
    | opaque n => rw [hg] at h0; cases h0
    | undef => rw [hg] at h0; cases h0

theorem cstep_congr (ρ : Env α) (i : Inst K α R I) {f f' : Nat → CVal α}
    (h : ∀ r, f r = f' r) (r : Nat) : cstep ρ i f r = cstep ρ i f' r := by
  cases i with
  | mk guard op =>
  cases guard with
  | none => exact op.conc_congr ρ f f' h r
  | some gn =>
    cases gn with
    | mk g neg =>
    show (if (cguard (f g) == neg) = true then f r else op.conc ρ f r) =
      (if (cguard (f' g) == neg) = true then f' r else op.conc ρ f' r)
    rw [h g, h r, op.conc_congr ρ f f' h r]

theorem runConc_congr (ρ : Env α) : ∀ (blk : List (Inst K α R I)) {f f' : Nat → CVal α},
    (∀ r, f r = f' r) → ∀ r, runConc ρ blk f r = runConc ρ blk f' r
  | [], f, f', h, r => h r
  | i :: is, f, f', h, r => runConc_congr ρ is (cstep_congr ρ i h) r

/-- The path, run by the executor, follows the path run concretely. -/
theorem runSym_sound (ρ : Env α) : ∀ (blk : List (Inst K α R I)) {s s' : Nat → SVal K},
    runSym blk s = some s' →
    ∀ r, runConc ρ blk (fun x => den R I ρ x (s x)) r = den R I ρ r (s' r)
  | [], s, s', h, r => by
    have h0 : some s = some s' := h
    cases h0
    rfl
  | i :: is, s, s', h, r => by
    have h0 : optBind (sstep i s) (runSym is) = some s' := h
    cases hs : sstep i s with
    | none => rw [hs] at h0; cases h0
    | some s1 =>
      rw [hs] at h0
      have ih := runSym_sound ρ is h0 r
      show runConc ρ is (cstep ρ i (fun x => den R I ρ x (s x))) r = _
      rw [runConc_congr ρ is (sstep_sound ρ i hs) r]
      exact ih

/-! #### The predicate merge -/

/-- A predicate value: concrete bits or a condition. -/
def isP : SVal K → Bool
  | SVal.bits _ => true
  | SVal.cond _ => true
  | _ => false

/-- The truth value of a predicate value. -/
def pden (ρ : Env α) : SVal K → Bool
  | SVal.bits b => lsb b
  | SVal.cond c => (Term.evalP I ρ c).2
  | _ => false

theorem den_pred (ρ : Env α) {r : Nat} (hk : R.kind r = Kind.pred) :
    ∀ {v : SVal K}, isP v = true → den R I ρ r v = CVal.bool (pden (I := I) ρ v)
  | SVal.bits b, _ => by
    show denBits R I r b (R.kind r) = _
    rw [hk]
    rfl
  | SVal.cond c, _ => rfl
  | SVal.term t, h => by cases h
  | SVal.opaque n, h => by cases h
  | SVal.undef, h => by cases h

theorem bAnd_sound (ρ : Env α) : ∀ {x y z : SVal K}, bAnd x y = some z →
    isP x = true ∧ isP y = true ∧ isP z = true ∧
      pden (I := I) ρ z = (pden (I := I) ρ x && pden (I := I) ρ y)
  | SVal.bits a, SVal.bits b, z, h => by
    cases h
    show true = true ∧ true = true ∧ true = true ∧
      lsb (if (lsb a && lsb b) = true then 1 else 0) = (lsb a && lsb b)
    cases lsb a <;> cases lsb b <;> exact ⟨rfl, rfl, rfl, rfl⟩
  | SVal.bits a, SVal.cond c, z, h => by
    cases h
    show true = true ∧ true = true ∧
      isP (if lsb a = true then SVal.cond c else SVal.bits 0) = true ∧
      pden ρ (if lsb a = true then SVal.cond c else SVal.bits 0) =
        (lsb a && (Term.evalP I ρ c).2)
    cases lsb a <;> exact ⟨rfl, rfl, rfl, rfl⟩
  | SVal.cond c, SVal.bits a, z, h => by
    cases h
    show true = true ∧ true = true ∧
      isP (if lsb a = true then SVal.cond c else SVal.bits 0) = true ∧
      pden ρ (if lsb a = true then SVal.cond c else SVal.bits 0) =
        ((Term.evalP I ρ c).2 && lsb a)
    cases lsb a with
    | true =>
      show true = true ∧ true = true ∧ true = true ∧
        (Term.evalP I ρ c).2 = ((Term.evalP I ρ c).2 && true)
      cases (Term.evalP I ρ c).2 <;> exact ⟨rfl, rfl, rfl, rfl⟩
    | false =>
      show true = true ∧ true = true ∧ true = true ∧
        lsb 0 = ((Term.evalP I ρ c).2 && false)
      cases (Term.evalP I ρ c).2 <;> exact ⟨rfl, rfl, rfl, rfl⟩
  | SVal.cond a, SVal.cond b, z, h => by
    cases h
    exact ⟨rfl, rfl, rfl, rfl⟩
  | SVal.bits _, SVal.term _, _, h => by cases h
  | SVal.bits _, SVal.opaque _, _, h => by cases h
  | SVal.bits _, SVal.undef, _, h => by cases h
  | SVal.cond _, SVal.term _, _, h => by cases h
  | SVal.cond _, SVal.opaque _, _, h => by cases h
  | SVal.cond _, SVal.undef, _, h => by cases h
  | SVal.term _, _, _, h => by cases h
  | SVal.opaque _, _, _, h => by cases h
  | SVal.undef, _, _, h => by cases h

theorem bOr_sound (ρ : Env α) : ∀ {x y z : SVal K}, bOr x y = some z →
    isP z = true ∧ pden (I := I) ρ z = (pden (I := I) ρ x || pden (I := I) ρ y)
  | SVal.bits a, SVal.bits b, z, h => by
    cases h
    show true = true ∧
      lsb (if (lsb a || lsb b) = true then 1 else 0) = (lsb a || lsb b)
    cases lsb a <;> cases lsb b <;> exact ⟨rfl, rfl⟩
  | SVal.bits a, SVal.cond c, z, h => by
    cases h
    show isP (if lsb a = true then SVal.bits 1 else SVal.cond c) = true ∧
      pden ρ (if lsb a = true then SVal.bits 1 else SVal.cond c) =
        (lsb a || (Term.evalP I ρ c).2)
    cases lsb a <;> exact ⟨rfl, rfl⟩
  | SVal.cond c, SVal.bits a, z, h => by
    cases h
    show isP (if lsb a = true then SVal.bits 1 else SVal.cond c) = true ∧
      pden ρ (if lsb a = true then SVal.bits 1 else SVal.cond c) =
        ((Term.evalP I ρ c).2 || lsb a)
    cases lsb a with
    | true =>
      show true = true ∧ lsb 1 = ((Term.evalP I ρ c).2 || true)
      cases (Term.evalP I ρ c).2 <;> exact ⟨rfl, rfl⟩
    | false =>
      show true = true ∧ (Term.evalP I ρ c).2 = ((Term.evalP I ρ c).2 || false)
      cases (Term.evalP I ρ c).2 <;> exact ⟨rfl, rfl⟩
  | SVal.cond a, SVal.cond b, z, h => by
    cases h
    exact ⟨rfl, rfl⟩
  | SVal.bits _, SVal.term _, _, h => by cases h
  | SVal.bits _, SVal.opaque _, _, h => by cases h
  | SVal.bits _, SVal.undef, _, h => by cases h
  | SVal.cond _, SVal.term _, _, h => by cases h
  | SVal.cond _, SVal.opaque _, _, h => by cases h
  | SVal.cond _, SVal.undef, _, h => by cases h
  | SVal.term _, _, _, h => by cases h
  | SVal.opaque _, _, _, h => by cases h
  | SVal.undef, _, _, h => by cases h

theorem mergePred_sound (ρ : Env α) {c : Term K} {taken fallen v : SVal K}
    (h : mergePred c taken fallen = some v) :
    isP taken = true ∧ isP fallen = true ∧ isP v = true ∧
      pden (I := I) ρ v = (if (Term.evalP I ρ c).2 = true then pden (I := I) ρ taken
        else pden (I := I) ρ fallen) := by
  have h0 : optBind (bAnd (SVal.cond c) taken) (fun a =>
      optBind (bAnd (SVal.cond (Term.not c)) fallen) (fun b => bOr a b)) = some v := h
  cases ha : bAnd (SVal.cond c) taken with
  | none => rw [ha] at h0; cases h0
  | some a =>
    rw [ha] at h0
    have h1 : optBind (bAnd (SVal.cond (Term.not c)) fallen) (fun b => bOr a b) = some v := h0
    cases hb : bAnd (SVal.cond (Term.not c)) fallen with
    | none => rw [hb] at h1; cases h1
    | some b =>
      rw [hb] at h1
      have h2 : bOr a b = some v := h1
      have ⟨_, ht, _, ea⟩ := bAnd_sound (I := I) ρ ha
      have ⟨_, hf, _, eb⟩ := bAnd_sound (I := I) ρ hb
      have ⟨hv, ev⟩ := bOr_sound (I := I) ρ h2
      refine ⟨ht, hf, hv, ?_⟩
      rw [ev, ea, eb]
      show (((Term.evalP I ρ c).2 && pden ρ taken) ||
        (!(Term.evalP I ρ c).2 && pden ρ fallen)) = _
      cases (Term.evalP I ρ c).2 <;> cases pden (I := I) ρ taken <;>
        cases pden (I := I) ρ fallen <;> rfl

/-- `merge`: the merged value denotes `c ? taken : fallen`. -/
theorem mergeReg_sound (ρ : Env α) {c : Term K} {r : Nat} {taken fallen v : SVal K}
    (h : mergeReg R c r taken fallen = some v) :
    den R I ρ r v = (if (Term.evalP I ρ c).2 = true then den R I ρ r taken
      else den R I ρ r fallen) := by
  have h0 : mergeK R c r taken fallen (R.kind r) = some v := h
  have hsel : ∀ k, R.kind r = k → k ≠ Kind.pred →
      den R I ρ r v = (if (Term.evalP I ρ c).2 = true then den R I ρ r taken
        else den R I ρ r fallen) := by
    intro k hk hkp
    rw [hk] at h0
    have h1 : selOf c (termOf R r taken) (termOf R r fallen) = some v := by
      cases k with
      | pred => exact absurd rfl hkp
      | float => exact h0
      | other => exact h0
    cases ha : termOf R r taken with
    | none => rw [ha] at h1; cases h1
    | some a =>
      cases hb : termOf R r fallen with
      | none => rw [ha, hb] at h1; cases h1
      | some b =>
        rw [ha, hb] at h1
        cases h1
        rw [termOf_den ρ ha, termOf_den ρ hb]
        show CVal.real (if (Term.evalP I ρ c).2 = true then Term.eval I ρ a
          else Term.eval I ρ b) = _
        cases (Term.evalP I ρ c).2 <;> rfl
  cases hk : R.kind r with
  | pred =>
    rw [hk] at h0
    have h1 : mergePred c taken fallen = some v := h0
    have ⟨ht, hf, hv, ev⟩ := mergePred_sound (I := I) ρ h1
    rw [den_pred ρ hk hv, den_pred ρ hk ht, den_pred ρ hk hf, ev]
    cases (Term.evalP I ρ c).2 <;> rfl
  | float => exact hsel Kind.float hk (fun e => by cases e)
  | other => exact hsel Kind.other hk (fun e => by cases e)

theorem allBelow_spec : ∀ (n : Nat) (p : Nat → Bool), allBelow n p = true →
    ∀ r, r < n → p r = true
  | 0, p, h, r, hr => absurd hr (Nat.notLtZero r)
  | n + 1, p, h, r, hr => by
    have h1 : (p n && allBelow n p) = true := h
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc hr) with
    | inl e => rw [e]; exact and_left' h1
    | inr lt => exact allBelow_spec n p (and_right' h1) r lt

/-! #### The if-conversion -/

/-- **If-conversion is sound.**  If `ifConvert` accepts the branch `@g bra L` (`neg = false`)
or `@!g bra L` (`neg = true`) over the path `blk` and produces the register file `s'`, then
for every input environment `ρ` and every register `r < n`: either `s'` at `r` denotes what
the branch produces there (taken: the value before the path; not taken: the value after it),
or `s'` at `r` is `undef` and `r` is not live at `L`.  This holds for every path the executor
runs without error, so for every start state and every truth value of the guard, whatever
the path does: registers written twice, read after being written, the guard register `g`
itself overwritten (the condition is read once, before the path), guards inside the path. -/
theorem ifConvert_sound (ρ : Env α) (same : SVal K → SVal K → Bool)
    (same_sound : ∀ a b, same a b = true → a = b) (live : Nat → Bool) (n : Nat)
    (s : Nat → SVal K) (g : Nat) (neg : Bool) (blk : List (Inst K α R I))
    {s' : Nat → SVal K} (h : ifConvert R same live n s g neg blk = some s')
    {r : Nat} (hr : r < n) :
    den R I ρ r (s' r) = branchC ρ (fun x => den R I ρ x (s x)) g neg blk r ∨
      (s' r = SVal.undef ∧ live r = false) := by
  have h0 : ifConvG R same live n s neg blk (s g) = some s' := h
  cases hg : s g with
  | cond c0 =>
    rw [hg] at h0
    have h1 : optBind (runSym blk s)
        (ifConvAfter R same live n (cond neg (Term.not c0) c0) s) = some s' := h0
    cases hs : runSym blk s with
    | none => rw [hs] at h1; cases h1
    | some after =>
      rw [hs] at h1
      have hrun := runSym_sound ρ blk hs r
      have hc := evalP_cond_neg (I := I) ρ c0 neg
      have hb : branchC ρ (fun x => den R I ρ x (s x)) g neg blk r =
          (if ((Term.evalP I ρ c0).2 == neg) = true then den R I ρ r (after r)
            else den R I ρ r (s r)) := by
        show (if (cguard (den R I ρ g (s g)) == neg) = true then
          runConc ρ blk (fun x => den R I ρ x (s x)) r else den R I ρ r (s r)) = _
        rw [hrun, hg]
        rfl
      rw [hb]
      cases hall : allBelow n (regOk R same live (cond neg (Term.not c0) c0) s after) with
      | false =>
        have h2 : (if allBelow n (regOk R same live (cond neg (Term.not c0) c0) s after) = true
          then some (finalReg R same (cond neg (Term.not c0) c0) s after) else none) =
            some s' := h1
        rw [if_neg' (ne_true_of_eq_false hall)] at h2
        cases h2
      | true =>
        have h2 : (if allBelow n (regOk R same live (cond neg (Term.not c0) c0) s after) = true
          then some (finalReg R same (cond neg (Term.not c0) c0) s after) else none) =
            some s' := h1
        rw [if_pos' hall] at h2
        cases h2
        have hok := allBelow_spec n _ hall r hr
        cases hsame : same (s r) (after r) with
        | true =>
          apply Or.inl
          have e : finalReg R same (cond neg (Term.not c0) c0) s after r = after r :=
            if_pos' hsame
          rw [e, same_sound _ _ hsame]
          cases ((Term.evalP I ρ c0).2 == neg) <;> rfl
        | false =>
          have e : finalReg R same (cond neg (Term.not c0) c0) s after r =
              orUndef (mergeReg R (cond neg (Term.not c0) c0) r (s r) (after r)) :=
            if_neg' (ne_true_of_eq_false hsame)
          rw [e]
          cases hm : mergeReg R (cond neg (Term.not c0) c0) r (s r) (after r) with
          | some v =>
            apply Or.inl
            show den R I ρ r v = _
            rw [mergeReg_sound ρ hm, hc]
            cases ((Term.evalP I ρ c0).2 == neg) <;> rfl
          | none =>
            apply Or.inr
            refine ⟨rfl, ?_⟩
            have hok' : (same (s r) (after r) ||
                isSomeB (mergeReg R (cond neg (Term.not c0) c0) r (s r) (after r)) ||
                !live r) = true := hok
            rw [hsame, hm] at hok'
            cases hl : live r with
            | false => rfl
            | true => rw [hl] at hok'; cases hok'
  | bits b => rw [hg] at h0; cases h0
  | term t => rw [hg] at h0; cases h0
  | opaque k => rw [hg] at h0; cases h0
  | undef => rw [hg] at h0; cases h0

/-- At every register live at the join, the if-converted register file denotes exactly what
the branch produces. -/
theorem ifConvert_live (ρ : Env α) (same : SVal K → SVal K → Bool)
    (same_sound : ∀ a b, same a b = true → a = b) (live : Nat → Bool) (n : Nat)
    (s : Nat → SVal K) (g : Nat) (neg : Bool) (blk : List (Inst K α R I))
    {s' : Nat → SVal K} (h : ifConvert R same live n s g neg blk = some s')
    {r : Nat} (hr : r < n) (hl : live r = true) :
    den R I ρ r (s' r) = branchC ρ (fun x => den R I ρ x (s x)) g neg blk r := by
  cases ifConvert_sound ρ same same_sound live n s g neg blk h hr with
  | inl e => exact e
  | inr e =>
    rw [hl] at e
    cases e.2

end

/-! ### Two concrete operations and an example

Non-vacuity: `Op` has instances (a float addition `fadd d a b` and a comparison
`flt p a b`, both on terms), and `ifConvert` accepts a path with the cases of the module
comment: `@!p bra L; add r1, r1, r2; setp.lt p, r1, r2; add r1, r1, r1; L:` (register 1
written twice and read after it is written, the guard register 0 overwritten). -/

section Example
variable (R : Regs K) (I : Interp K α)

def toTerm : SVal K → Option (Term K)
  | SVal.term t => some t
  | _ => none

theorem toTerm_some : ∀ {v : SVal K} {t : Term K}, toTerm v = some t → v = SVal.term t
  | SVal.term _, _, h => by cases h; rfl
  | SVal.bits _, _, h => by cases h
  | SVal.cond _, _, h => by cases h
  | SVal.opaque _, _, h => by cases h
  | SVal.undef, _, h => by cases h

def addC : CVal α → CVal α → CVal α
  | CVal.real x, CVal.real y => CVal.real (x + y)
  | _, _ => CVal.undef

def ltC (I : Interp K α) : CVal α → CVal α → CVal α
  | CVal.real x, CVal.real y => CVal.bool (I.cmp CmpOp.lt x y)
  | _, _ => CVal.undef

/-- `s` with `d` set to `f x y`, when registers `a`, `b` hold terms `x`, `y`. -/
def symBin (f : Term K → Term K → SVal K) (d a b : Nat) (s : Nat → SVal K) :
    Option (Nat → SVal K) :=
  optBind (toTerm (s a)) (fun x => optBind (toTerm (s b)) (fun y => some (update s d (f x y))))

theorem symBin_some {f : Term K → Term K → SVal K} {d a b : Nat} {s s' : Nat → SVal K}
    (h : symBin f d a b s = some s') :
    ∃ x y, s a = SVal.term x ∧ s b = SVal.term y ∧ s' = update s d (f x y) := by
  have h0 : optBind (toTerm (s a)) (fun x => optBind (toTerm (s b))
      (fun y => some (update s d (f x y)))) = some s' := h
  cases ha : toTerm (s a) with
  | none => rw [ha] at h0; cases h0
  | some x =>
    rw [ha] at h0
    have h1 : optBind (toTerm (s b)) (fun y => some (update s d (f x y))) = some s' := h0
    cases hb : toTerm (s b) with
    | none => rw [hb] at h1; cases h1
    | some y =>
      rw [hb] at h1
      cases h1
      exact ⟨x, y, toTerm_some ha, toTerm_some hb, rfl⟩

/-- `add.f32 d, a, b` on terms. -/
def fadd (d a b : Nat) : Op K α R I :=
  { sym := symBin (fun x y => SVal.term (Term.add x y)) d a b
    conc := fun _ f r => if r = d then addC (f a) (f b) else f r
    fdst := some d
    conc_congr := fun ρ f g h r => by
      show (if r = d then addC (f a) (f b) else f r) = (if r = d then addC (g a) (g b) else g r)
      rw [h a, h b, h r]
    sound := fun ρ s s' h r => by
      have ⟨x, y, hx, hy, e⟩ := symBin_some h
      rw [e]
      show (if r = d then addC (den R I ρ a (s a)) (den R I ρ b (s b)) else den R I ρ r (s r)) =
        den R I ρ r (if r = d then SVal.term (Term.add x y) else s r)
      rw [hx, hy]
      cases Nat.decEq r d with
      | isTrue e1 => rw [if_pos' e1, if_pos' e1]; rfl
      | isFalse e1 => rw [if_neg' e1, if_neg' e1]
    frame := fun d' s s' hd h r hr => by
      cases hd
      have ⟨x, y, _, _, e⟩ := symBin_some h
      rw [e]
      exact if_neg' hr }

/-- `setp.lt.f32 p, a, b` on terms (no float destination: refused under a data guard). -/
def flt (p a b : Nat) : Op K α R I :=
  { sym := symBin (fun x y => SVal.cond (Term.cmp CmpOp.lt x y)) p a b
    conc := fun _ f r => if r = p then ltC I (f a) (f b) else f r
    fdst := none
    conc_congr := fun ρ f g h r => by
      show (if r = p then ltC I (f a) (f b) else f r) =
        (if r = p then ltC I (g a) (g b) else g r)
      rw [h a, h b, h r]
    sound := fun ρ s s' h r => by
      have ⟨x, y, hx, hy, e⟩ := symBin_some h
      rw [e]
      show (if r = p then ltC I (den R I ρ a (s a)) (den R I ρ b (s b)) else den R I ρ r (s r)) =
        den R I ρ r (if r = p then SVal.cond (Term.cmp CmpOp.lt x y) else s r)
      rw [hx, hy]
      cases Nat.decEq r p with
      | isTrue e1 => rw [if_pos' e1, if_pos' e1]; rfl
      | isFalse e1 => rw [if_neg' e1, if_neg' e1]
    frame := fun d s s' hd _ _ _ => by cases hd }

/-- Register 0 is a predicate, the others floats. -/
def exRegs (k0 : K) : Regs K :=
  { kind := fun r => if r = 0 then Kind.pred else Kind.float, fk := fun _ _ => k0 }

/-- `add r1, r1, r2; setp.lt p, r1, r2; add r1, r1, r1`. -/
def exBlk (k0 : K) : List (Inst K α (exRegs k0) I) :=
  [⟨none, fadd (exRegs k0) I 1 1 2⟩, ⟨none, flt (exRegs k0) I 0 1 2⟩,
    ⟨none, fadd (exRegs k0) I 1 1 1⟩]

/-- `p = c`, `r1 = x`, `r2 = y`. -/
def exStart (c x y : Term K) : Nat → SVal K :=
  fun r => if r = 0 then SVal.cond c else if r = 1 then SVal.term x
    else if r = 2 then SVal.term y else SVal.undef

/-- `@!p bra L` over `exBlk` (every register live, `same` never true): accepted, register 1 is
`select(!c, x, (x + y) + (x + y))` and the guard register `p` is
`(!c && c) || (!!c && (x + y < y))`. -/
theorem exIfConvert (k0 : K) (c x y : Term K) :
    ∃ s', ifConvert (exRegs k0) (fun _ _ => false) (fun _ => true) 3 (exStart c x y) 0 true
        (exBlk I k0) = some s' ∧
      s' 1 = SVal.term (Term.select (Term.not c) x
        (Term.add (Term.add x y) (Term.add x y))) ∧
      s' 0 = SVal.cond (Term.or (Term.and (Term.not c) c)
        (Term.and (Term.not (Term.not c)) (Term.cmp CmpOp.lt (Term.add x y) y))) :=
  ⟨_, rfl, rfl, rfl⟩

end Example

end IfConv
end Kcert
