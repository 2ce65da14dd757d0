import Kcert.ExpField
import Kcert.Compat

/-!
# Terms

The term language of the checker (`checker/src/term/mod.rs`, enum `Node`), as a tree.

The Rust checker stores terms as a hash-consed DAG in an arena (`TermArena`), children before
parents; a `TermId` denotes the tree obtained by unfolding the DAG.  This file models the trees
only; that the arena's interning preserves the unfolded tree is *not* proved here.

Constants are kept abstract: `Term K` has constants of any type `K` (in the checker, exact
dyadic rationals `Dyadic`), and an interpretation says which element each denotes.
Inputs are `input tensor index`, exactly like `Node::Input { tensor, index }`.

Values live in any `ExpField α`.  `ex2` is `ExpField.pow2` (exactly `2^x`).  What the checker
keeps opaque is opaque here too, given by an `Interp`: `max`, `min`, the functions `rcp`, `sqrt`,
`rsqrt`, `lg2`, `sin`, `cos`, `tanh`, `abs`, the values standing for `±inf`, and the
comparisons used by `select`.  Boolean nodes (`cmp`, `and`, `or`, `not`) only ever occur as the
condition of a `select`; `evalP` returns a pair (real value, truth value), and real nodes have
truth value `false`, boolean nodes real value `0`.
-/

namespace Kcert

/-- `Func` of the checker: unary functions kept opaque except for their argument
(`ex2` is the exception: it is `pow2`). -/
inductive Func where
  | ex2 | rcp | sqrt | rsqrt | lg2 | sin | cos | tanh | abs
  deriving DecidableEq

/-- `CmpOp` of the checker: comparisons of `setp` on data. -/
inductive CmpOp where
  | eq | ne | lt | le | gt | ge
  deriving DecidableEq

/-- `Node` of the checker, as a tree.  Constructor for constructor:
`Const, NegInf, PosInf, Input, Add, Sub, Mul, Div, Fma, Neg, Max, Min, Apply, Cmp, Select,
And, Or, Not`. -/
inductive Term (K : Type) where
  | const : K → Term K
  | negInf : Term K
  | posInf : Term K
  | input : Nat → Nat → Term K
  | add : Term K → Term K → Term K
  | sub : Term K → Term K → Term K
  | mul : Term K → Term K → Term K
  | div : Term K → Term K → Term K
  -- `fma a b c = a * b + c`, over the reals.
  | fma : Term K → Term K → Term K → Term K
  | neg : Term K → Term K
  | max : Term K → Term K → Term K
  | min : Term K → Term K → Term K
  | app : Func → Term K → Term K
  | cmp : CmpOp → Term K → Term K → Term K
  -- `select c a b = if c then a else b`.
  | select : Term K → Term K → Term K → Term K
  | and : Term K → Term K → Term K
  | or : Term K → Term K → Term K
  | not : Term K → Term K

/-- What the semantics leaves open: the value of each constant, and the operations the checker
treats as opaque. -/
structure Interp (K α : Type) where
  const : K → α
  max : α → α → α
  min : α → α → α
  /-- Used for every `Func` except `ex2`. -/
  func : Func → α → α
  negInf : α
  posInf : α
  cmp : CmpOp → α → α → Bool

/-- An environment: the value of element `index` of input tensor `tensor` is `ρ tensor index`. -/
def Env (α : Type) : Type := Nat → Nat → α

namespace Term

open ExpField

variable {K α : Type} [ExpField α]

/-- A unary function: `ex2` is `pow2`, every other one is opaque. -/
def applyFunc (I : Interp K α) : Func → α → α
  | Func.ex2, x => pow2 x
  | f, x => I.func f x

/-- Evaluation: the pair (real value, truth value) of a term. -/
def evalP (I : Interp K α) (ρ : Env α) : Term K → α × Bool
  | const c => (I.const c, false)
  | negInf => (I.negInf, false)
  | posInf => (I.posInf, false)
  | input t i => (ρ t i, false)
  | add a b => ((evalP I ρ a).1 + (evalP I ρ b).1, false)
  | sub a b => ((evalP I ρ a).1 - (evalP I ρ b).1, false)
  | mul a b => ((evalP I ρ a).1 * (evalP I ρ b).1, false)
  | div a b => ((evalP I ρ a).1 / (evalP I ρ b).1, false)
  | fma a b c => ((evalP I ρ a).1 * (evalP I ρ b).1 + (evalP I ρ c).1, false)
  | neg a => (-(evalP I ρ a).1, false)
  | Term.max a b => (I.max (evalP I ρ a).1 (evalP I ρ b).1, false)
  | Term.min a b => (I.min (evalP I ρ a).1 (evalP I ρ b).1, false)
  | app f a => (applyFunc I f (evalP I ρ a).1, false)
  | cmp op a b => (0, I.cmp op (evalP I ρ a).1 (evalP I ρ b).1)
  | select c a b => (if (evalP I ρ c).2 then (evalP I ρ a).1 else (evalP I ρ b).1, false)
  | Term.and a b => (0, (evalP I ρ a).2 && (evalP I ρ b).2)
  | Term.or a b => (0, (evalP I ρ a).2 || (evalP I ρ b).2)
  | Term.not a => (0, !(evalP I ρ a).2)

/-- The real value of a term. -/
def eval (I : Interp K α) (ρ : Env α) (t : Term K) : α := (evalP I ρ t).1

end Term
end Kcert

namespace Kcert

/-- A side's environment `ρs` agrees with the pair's environment `ρ` through the side's input
map `m` (Rust: `Side::inputs`): every mapped tensor `t ↦ p` has the values of pair input `p`. -/
def Agrees {α : Type} (m : Nat → Option Nat) (ρs ρ : Env α) : Prop :=
  ∀ (t p i : Nat), m t = some p → ρs t i = ρ p i

end Kcert
