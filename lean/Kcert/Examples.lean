import Kcert.Rules.Ring

/-!
# Examples

The Lean models of the rules, run on the examples of the Rust unit tests
(`checker/src/rules/congruence.rs`, `checker/src/rules/ring.rs`), with integer constants and
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

end Kcert.Examples
