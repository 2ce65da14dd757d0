import Kcert.ExpField

/-!
# Building blocks for `FieldNormalize`

Rust: `checker/src/rules/field.rs`.  The rule itself (normal forms as quotients of exponential
polynomials, atoms for `max`/`min`/opaque functions, infinities that fold away) is **not**
modelled or proved yet.  This file proves the two facts of `ExpField` that its soundness
argument rests on:

* `div_eq_div_of_cross`: cross-multiplication, `a * d = c * b` with `b ≠ 0`, `d ≠ 0` gives
  `a / b = c / d`;
* `posSum_ne_zero`: a nonempty sum of positive coefficients times powers of two (the only
  denominators the rule admits) is not zero.
-/

namespace Kcert
namespace Rules

open ExpField

variable {α : Type} [ExpField α]

theorem mul_right_comm' (a b c : α) : a * b * c = a * c * b := by
  rw [mul_assoc, mul_comm b c, ← mul_assoc]

/-- `a = a * d * inv d` for `d ≠ 0`. -/
theorem mul_mul_inv_cancel (a d : α) (hd : d ≠ 0) : a * d * inv d = a := by
  rw [mul_assoc, mul_inv d hd, mul_one]

/-- Cross-multiplication: if `a * d = c * b` and both denominators are nonzero, the quotients
are equal. -/
theorem div_eq_div_of_cross (a b c d : α) (hb : b ≠ 0) (hd : d ≠ 0) (h : a * d = c * b) :
    a / b = c / d := by
  rw [div_def, div_def]
  have e1 : a * inv b = a * d * inv d * inv b := by rw [mul_mul_inv_cancel a d hd]
  have e2 : c * inv d = c * b * inv b * inv d := by rw [mul_mul_inv_cancel c b hb]
  rw [e1, e2, h, mul_right_comm' (c * b)]

/-- A sum `Σ c · 2^e` over a list of (coefficient, exponent) pairs. -/
def posSum : List (α × α) → α
  | [] => 0
  | e :: l => e.1 * pow2 e.2 + posSum l

/-- Every coefficient is positive. -/
def allPos : List (α × α) → Prop
  | [] => True
  | e :: l => pos e.1 ∧ allPos l

/-- A nonempty sum of positive multiples of powers of two is positive. -/
theorem posSum_pos (e : α × α) (l : List (α × α)) (h : allPos (e :: l)) :
    pos (posSum (e :: l)) := by
  induction l generalizing e with
  | nil =>
    show pos (e.1 * pow2 e.2 + 0)
    rw [add_zero]
    exact pos_mul _ _ h.1 (pos_pow2 _)
  | cons f l ih =>
    show pos (e.1 * pow2 e.2 + posSum (f :: l))
    exact pos_add _ _ (pos_mul _ _ h.1 (pos_pow2 _)) (ih f h.2)

/-- ... hence nonzero: such a denominator never divides by zero. -/
theorem posSum_ne_zero (e : α × α) (l : List (α × α)) (h : allPos (e :: l)) :
    posSum (e :: l) ≠ 0 :=
  pos_ne_zero _ (posSum_pos e l h)

end Rules
end Kcert
