import Kcert.Check
import Kcert.Rules.FieldInf

/-!
# Examples

The Lean models of the rules, run on the examples of the Rust unit tests
(`checker/src/rules/congruence.rs`, `checker/src/rules/ring.rs`, `checker/src/rules/field.rs`), with integer constants and
coefficients.  Each `example` is checked by evaluation (`rfl`): the models are executable and
accept and reject what the Rust rules accept and reject on these inputs.
-/

namespace Kcert.Examples

open Term Rules

/-- Integer coefficients, constants read as themselves. -/
def intOps : CoeffOps Int Int where
  one := 1
  add := fun a b => a + b
  mul := fun a b => a * b
  neg := fun a => -a
  isZero := fun c => decide (c = 0)
  ofConst := fun k => k

/-- Input `index` of tensor `tensor`. -/
def x (tensor index : Nat) : Term Int := input tensor index

/-- One side: tensor 0 is pair input 0. -/
def one : Nat → Option Nat := fun t => if t = 0 then some 0 else none

-- ring.rs `reassociated_and_distributed_sums_are_equal`: (x + y)·z = fma(z, y, x·z) ...
example :
    ringNormalize intOps one one (mul (add (x 0 0) (x 0 1)) (x 0 2))
      (fma (x 0 2) (x 0 1) (mul (x 0 0) (x 0 2))) = true := rfl

-- ... but not x·z + y·y.
example :
    ringNormalize intOps one one (mul (add (x 0 0) (x 0 1)) (x 0 2))
      (add (mul (x 0 0) (x 0 2)) (mul (x 0 1) (x 0 1))) = false := rfl

-- Constants are exact: 2·(3·x) = 6·x, and x - x = 0.
example :
    ringNormalize intOps one one (mul (const 2) (mul (const 3) (x 0 0)))
      (mul (x 0 0) (const 6)) = true := rfl
example : ringNormalize intOps one one (sub (x 0 0) (x 0 0)) (const 0) = true := rfl

-- Opaque nodes fail closed: ex2 is not a ring operation.
example : ringNormalize intOps one one (app Func.ex2 (x 0 0)) (app Func.ex2 (x 0 0)) = false :=
  rfl

-- ring.rs `inputs_are_compared_through_the_pairing`: tensor 1 on the left and tensor 0 on the
-- right are both pair input 0.
example :
    ringNormalize intOps (fun t => if t = 1 then some 0 else none) one (x 1 5) (x 0 5) = true :=
  rfl
example :
    ringNormalize intOps (fun t => if t = 1 then some 0 else none)
      (fun t => if t = 0 then some 1 else none) (x 1 5) (x 0 5) = false := rfl

-- congruence.rs `same_tree_up_to_renaming`: tensors numbered the other way round.
def lm : Nat → Option Nat := fun t => if t = 0 then some 0 else if t = 1 then some 1 else none
def rm : Nat → Option Nat := fun t => if t = 0 then some 1 else if t = 1 then some 0 else none

example : congruent lm rm (fma (x 0 1) (x 1 2) (const 3)) (fma (x 1 1) (x 0 2) (const 3)) = true :=
  rfl
-- Swapped operands are a different tree (RingNormalize's job, not this rule's).
example :
    congruent lm rm (fma (x 0 1) (x 1 2) (const 3)) (fma (x 0 2) (x 1 1) (const 3)) = false :=
  rfl
-- Unpaired inputs never match, even with equal numbers.
example : congruent (fun _ => none) (fun _ => none) (x 0 1) (x 0 1) = false := rfl

/-! ### FieldNormalize (`checker/src/rules/field.rs`) -/

/-- Integer coefficients for `FieldNormalize`: positive means `> 0`, and only `±1` have an exact
(integer) inverse. -/
def intFieldOps : FieldCoeffOps Int Int where
  one := 1
  add := fun a b => a + b
  mul := fun a b => a * b
  neg := fun a => -a
  isZero := fun c => decide (c = 0)
  ofConst := fun k => k
  isPos := fun c => decide (c > 0)
  invExact := fun c => if c = 1 then some 1 else if c = -1 then some (-1) else none

def fn (s t : Term Int) : Bool := fieldNormalize intFieldOps one s t

def e2 (a : Term Int) : Term Int := app Func.ex2 a

-- field.rs `softmax_rescaling_identities`, without the `-inf` the Rust test starts the running
-- max from (infinities are outside `fieldNormalize`; see `fieldNormalizeX` below): reference
--   m = max(x0, x1), out0 = e(x0 - m) / (e(x0 - m) + e(x1 - m))
-- against the online form
--   m1 = x0, s1 = e(x0 - m1), m2 = max(m1, x1), s2 = s1·e(m1 - m2) + e(x1 - m2), out0 = e(x0 - m2)/s2.
def smM : Term Int := Term.max (x 0 0) (x 0 1)
def smRef : Term Int :=
  div (e2 (sub (x 0 0) smM)) (add (e2 (sub (x 0 0) smM)) (e2 (sub (x 0 1) smM)))
def smS1 : Term Int := e2 (sub (x 0 0) (x 0 0))
def smOnline : Term Int :=
  div (e2 (sub (x 0 0) smM)) (add (mul smS1 (e2 (sub (x 0 0) smM))) (e2 (sub (x 0 1) smM)))
example : fn smRef smOnline = true := rfl
-- Missing the rescale: not equal.
def smBad : Term Int := div (e2 (sub (x 0 0) smM)) (add smS1 (e2 (sub (x 0 1) smM)))
example : fn smRef smBad = false := rfl
-- A tree max and a chain max are one atom (the Rust test starts the chain at `-inf`):
-- arguments are flattened and compared as sets.
example : fn smM (Term.max (x 0 1) (x 0 0)) = true := rfl
example : fn (Term.max (Term.max (x 0 0) (x 0 1)) (x 0 2))
    (Term.max (x 0 2) (Term.max (x 0 1) (x 0 0))) = true := rfl
-- max(x, x) = x, and max(max(x0, x1), x1) = max(x0, x1).
example : fn (Term.max (x 0 0) (x 0 0)) (x 0 0) = true := rfl
example : fn (Term.max smM (x 0 1)) smM = true := rfl
-- max and min are different atoms, and max(x0, x1) is not max(x0, x2).
example : fn smM (Term.min (x 0 0) (x 0 1)) = false := rfl
example : fn smM (Term.max (x 0 0) (x 0 2)) = false := rfl

-- field.rs `exponent_arithmetic_is_exact`: ex2(x0 + x1) = ex2(x0)·ex2(x1) ...
example : fn (e2 (add (x 0 0) (x 0 1))) (mul (e2 (x 0 0)) (e2 (x 0 1))) = true := rfl
-- ... and two different literals in the exponent stay different (the Rust test uses the f32
-- literals 0f3FB8AA3B and 0f3FB8AA3C; integers 3 and 4 here).
example : fn (e2 (mul (x 0 0) (const 3))) (e2 (mul (x 0 0) (const 4))) = false := rfl
-- 2^(x/2)·2^(x/2) = 2^x is not in the integer instance (1/2 has no integer inverse), so
-- `ex2` of a non-integral exponent is an atom here; with dyadic coefficients it is exact.
example : fn (mul (e2 (div (x 0 0) (const 2))) (e2 (div (x 0 0) (const 2)))) (e2 (x 0 0))
    = false := rfl
-- Exponents of exponents are atoms: equal arguments, one atom.
example : fn (e2 (e2 (x 0 0))) (e2 (e2 (x 0 0))) = true := rfl

-- field.rs `denominators_must_be_provably_positive`: x0·x1 / x1 is not x0 (x1 may be 0) ...
example : fn (div (mul (x 0 0) (x 0 1)) (x 0 1)) (x 0 0) = false := rfl
-- ... and ex2(+inf) is rejected (`fieldNormalize` rejects every infinity).
example : fn (e2 posInf) (e2 posInf) = false := rfl
-- Dividing by a sum of exponentials is fine: x0 / (2^x1 + 1) · (2^x1 + 1) = x0.
example : fn (mul (div (x 0 0) (add (e2 (x 0 1)) (const 1))) (add (e2 (x 0 1)) (const 1)))
    (x 0 0) = true := rfl
-- rcp(rcp(x0)) = x0 is accepted by the Rust rule; the model refuses to divide by a quotient
-- whose denominator (here x0) is not positive, since 1/(1/0) is not 0 in every `ExpField`.
example : fn (app Func.rcp (app Func.rcp (x 0 0))) (x 0 0) = false := rfl
-- Opaque functions are atoms keyed by the normal form of their argument.
example : fn (app Func.sqrt (add (x 0 0) (x 0 1))) (app Func.sqrt (add (x 0 1) (x 0 0))) = true :=
  rfl
-- A select on a data comparison is an atom keyed by the normal forms of its four operands ...
example : fn (select (cmp CmpOp.lt (x 0 0) (x 0 1)) (add (x 0 0) (x 0 1)) (x 0 1))
    (select (cmp CmpOp.lt (x 0 0) (x 0 1)) (add (x 0 1) (x 0 0)) (x 0 1)) = true := rfl
example : fn (select (cmp CmpOp.lt (x 0 0) (x 0 1)) (x 0 0) (x 0 1))
    (select (cmp CmpOp.le (x 0 0) (x 0 1)) (x 0 0) (x 0 1)) = false := rfl
-- ... and a select on a combined condition is rejected, as in the Rust.
example : fn (select (not (cmp CmpOp.lt (x 0 0) (x 0 1))) (x 0 0) (x 0 1))
    (select (not (cmp CmpOp.lt (x 0 0) (x 0 1))) (x 0 0) (x 0 1)) = false := rfl
-- Unpaired inputs are rejected.
example : fieldNormalize intFieldOps (fun _ => none) (x 0 0) (x 0 0) = false := rfl

-- field.rs `rsqrt_is_a_reciprocal_root_of_provably_positive_arguments` (the Rust test's `eps` is
-- an f32 constant; 1 here): v = x0·x0 + x1·x1 + eps is provably positive, so rsqrt v = 1/sqrt v
-- and x0·rsqrt v = x0 / sqrt v.
def rsV : Term Int := add (fma (x 0 1) (x 0 1) (mul (x 0 0) (x 0 0))) (const 1)
def rsRoot : Term Int := app Func.sqrt rsV
def rsInv : Term Int := app Func.rcp rsRoot
example : fn (app Func.rsqrt rsV) rsInv = true := rfl
example : fn (mul (x 0 0) (app Func.rsqrt rsV)) (div (x 0 0) rsRoot) = true := rfl
-- Negative twins: the root itself is not its reciprocal, nor is a different argument's.
example : fn (app Func.rsqrt rsV) rsRoot = false := rfl
example : fn (app Func.rsqrt (add (mul (x 0 0) (x 0 0)) (const 1))) rsInv = false := rfl
-- Without the constant the argument may be 0: 1 / sqrt(x0^2 + x1^2) has no provably nonzero
-- denominator, and rsqrt stays opaque.
def rsMs : Term Int := fma (x 0 1) (x 0 1) (mul (x 0 0) (x 0 0))
example : fn (app Func.rsqrt rsMs) (app Func.rcp (app Func.sqrt rsMs)) = false := rfl
-- An odd power of an input is not a square: x0·x1 + eps may be negative.
def rsW : Term Int := add (mul (x 0 0) (x 0 1)) (const 1)
example : fn (app Func.rsqrt rsW) (app Func.rcp (app Func.sqrt rsW)) = false := rfl

-- field.rs `squares_are_nonnegative_not_positive`: dividing by x0^2 alone stays refused, while
-- x0^2 + 1 and 2^x1 · (x0^2 + 1) are positive denominators.
def sqSq : Term Int := mul (x 0 0) (x 0 0)
example : fn (mul (div (x 0 1) sqSq) sqSq) (x 0 1) = false := rfl
def sqD : Term Int := add sqSq (const 1)
def sqDE : Term Int := mul (e2 (x 0 1)) sqD
example : fn (mul (div (x 0 1) sqDE) sqDE) (x 0 1) = true := rfl
example : fn (mul (div (x 0 1) sqDE) sqD) (x 0 1) = false := rfl
-- An `ex2` atom (here 2^(x0/3), not exact with integer coefficients) is a positive atom.
def sqE3 : Term Int := e2 (div (x 0 0) (const 3))
example : fn (mul (div (x 0 1) sqE3) sqE3) (x 0 1) = true := rfl
-- The shifted comparison (field.rs `shifted`, `different_stabilizers_meet_after_the_shift`
-- in miniature): 2^x0 / (2^x0 + 2^(x0+x1)) and 1 / (1 + 2^x1) coincide after shifting the
-- first by 2^(-x0); a numerator 2 instead of 1 does not.
def shA : NF Int := ([(1, ([], [(1, [(1, 0)])]))],
  [(1, ([], [(1, [(1, 0)])])), (1, ([], [(1, [(1, 0)]), (1, [(1, 1)])]))])
def shB : NF Int := ([(1, ([], []))], [(1, ([], [])), (1, ([], [(1, [(1, 1)])]))])
example : shiftedEq intFieldOps (fun _ => false) shA shB = true := rfl
example : shiftedEq intFieldOps (fun _ => false) shA ([(2, ([], []))], shB.2) = false := rfl
-- The same with infinities around (`fieldNormalizeX`): x1 / (x0^2 + 1) · (x0^2 + 1) = x1 and
-- rsqrt v = 1 / sqrt v.
example : fieldNormalizeX intFieldOps one (mul (div (x 0 1) sqD) sqD) (x 0 1) = true := rfl
example : fieldNormalizeX intFieldOps one (app Func.rsqrt rsV) rsInv = true := rfl


/-! ### FieldNormalize with infinities (`fieldNormalizeX`) -/

def fx (s t : Term Int) : Bool := fieldNormalizeX intFieldOps one s t

-- field.rs `softmax_rescaling_identities`, with the `-inf` of the Rust test: reference
--   m = max(max(-inf, x0), x1), out0 = e(x0 - m) / (e(x0 - m) + e(x1 - m))
-- against the online form
--   m1 = max(-inf, x0), s1 = 0·e(-inf - m1) + e(x0 - m1),
--   m2 = max(m1, x1),   s2 = s1·e(m1 - m2) + e(x1 - m2), out0 = e(x0 - m2)/s2.
def smM1 : Term Int := Term.max negInf (x 0 0)
def smMI : Term Int := Term.max smM1 (x 0 1)
def smRefI : Term Int :=
  div (e2 (sub (x 0 0) smMI)) (add (e2 (sub (x 0 0) smMI)) (e2 (sub (x 0 1) smMI)))
def smS1I : Term Int := add (mul (const 0) (e2 (sub negInf smM1))) (e2 (sub (x 0 0) smM1))
def smOnlineI : Term Int :=
  div (e2 (sub (x 0 0) smMI)) (add (mul smS1I (e2 (sub smM1 smMI))) (e2 (sub (x 0 1) smMI)))
example : fx smRefI smOnlineI = true := rfl
-- Missing the rescale: not equal.
def smBadI : Term Int := div (e2 (sub (x 0 0) smMI)) (add smS1I (e2 (sub (x 0 1) smMI)))
example : fx smRefI smBadI = false := rfl
-- A tree max and a chain max from -inf are one atom.
example : fx smMI (Term.max (x 0 1) (x 0 0)) = true := rfl
-- The folding laws: max(-inf, x) = x, ex2(-inf) = 0, -inf + x = -inf, min(+inf, x) = x.
example : fx smM1 (x 0 0) = true := rfl
example : fx (e2 negInf) (const 0) = true := rfl
example : fx (add negInf (x 0 0)) negInf = true := rfl
example : fx (Term.min posInf (x 0 0)) (x 0 0) = true := rfl
-- Refused, as in the Rust: -inf + +inf, ex2(+inf), max(+inf, x), -inf against +inf.
example : fx (add negInf posInf) (add negInf posInf) = false := rfl
example : fx (e2 posInf) (e2 posInf) = false := rfl
example : fx (Term.max posInf (x 0 0)) (Term.max posInf (x 0 0)) = false := rfl
example : fx negInf posInf = false := rfl
-- `c · inf` for a nonzero constant `c`, by its sign (Rust `mul`, `const_sign`): the corpus'
-- `ex2((-inf - m1)·c)` is 0, `-inf · (-2) = +inf`, `-inf / 3 = -inf`, `2 · +inf = +inf`.
example : fx (e2 (mul (sub negInf smM1) (const 3))) (const 0) = true := rfl
example : fx (mul negInf (const (-2))) posInf = true := rfl
example : fx (div negInf (const 3)) negInf = true := rfl
example : fx (mul (const 2) posInf) posInf = true := rfl
-- Refused: an infinity times zero or a non-constant, a division by an infinity.
example : fx (mul negInf (const 0)) (mul negInf (const 0)) = false := rfl
example : fx (mul negInf (x 0 0)) (mul negInf (x 0 0)) = false := rfl
example : fx (div (x 0 0) negInf) (div (x 0 0) negInf) = false := rfl

/-! ### Replaying steps (`checker/src/check.rs`) -/

-- One output link (0), two written elements: element 0 is x0·(x1 + x2) in the reference and
-- x0·x1 + x0·x2 in the optimized kernel (RingNormalize); element 1 is a softmax output
-- (FieldNormalize).
def demoRun : Run Int where
  ref := fun o e => if o = 0 then (if e = 0 then some (mul (x 0 0) (add (x 0 1) (x 0 2)))
    else if e = 1 then some smRef else none) else none
  opt := fun o e => if o = 0 then (if e = 0 then some (add (mul (x 0 0) (x 0 1)) (mul (x 0 0) (x 0 2)))
    else if e = 1 then some smOnline else none) else none
  refFootprint := fun o => if o = 0 then [0, 1] else []
  optFootprint := fun o => if o = 0 then [0, 1] else []
  inputs := one

example : checkEquiv intFieldOps demoRun [0]
    [⟨0, 0, 1, Rule.ringNormalize⟩, ⟨0, 1, 1, Rule.fieldNormalize⟩] = true := rfl
-- RingNormalize cannot prove the softmax element.
example : checkEquiv intFieldOps demoRun [0] [⟨0, 0, 2, Rule.ringNormalize⟩] = false := rfl
-- Element 1 left uncovered.
example : checkEquiv intFieldOps demoRun [0] [⟨0, 0, 1, Rule.ringNormalize⟩] = false := rfl
-- A step citing an output without an equivalence claim.
example : checkEquiv intFieldOps demoRun [0]
    [⟨0, 0, 1, Rule.ringNormalize⟩, ⟨0, 1, 1, Rule.fieldNormalize⟩,
      ⟨1, 0, 1, Rule.congruent⟩] = false := rfl
-- The Rust range checks: an element covered twice, an empty step, an element outside the
-- footprint, a range past `u64::MAX`.
example : checkEquiv intFieldOps demoRun [0]
    [⟨0, 0, 1, Rule.ringNormalize⟩, ⟨0, 1, 1, Rule.fieldNormalize⟩,
      ⟨0, 0, 1, Rule.ringNormalize⟩] = false := rfl
example : checkEquiv intFieldOps demoRun [0]
    [⟨0, 0, 1, Rule.ringNormalize⟩, ⟨0, 1, 1, Rule.fieldNormalize⟩,
      ⟨0, 0, 0, Rule.ringNormalize⟩] = false := rfl
example : checkEquiv intFieldOps demoRun [0]
    [⟨0, 0, 1, Rule.ringNormalize⟩, ⟨0, 1, 1, Rule.fieldNormalize⟩,
      ⟨0, 2, 1, Rule.ringNormalize⟩] = false := rfl
example : checkEquiv intFieldOps demoRun [0]
    [⟨0, 0, 1, Rule.ringNormalize⟩, ⟨0, 1, 1, Rule.fieldNormalize⟩,
      ⟨0, 18446744073709551615, 1, Rule.ringNormalize⟩] = false := rfl

end Kcert.Examples
