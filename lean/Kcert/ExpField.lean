/-!
# Exponential fields

`ExpField α` bundles exactly what the certificate rules of the checker rely on:

* the commutative-ring operations `0 1 + * -` with their axioms,
* a multiplicative inverse `inv` with `a * inv a = 1` for `a ≠ 0` (so `α` is a field;
  `inv 0` is unconstrained, as in the usual total-division convention),
* `exp` with `exp (a + b) = exp a * exp b` and `exp 0 = 1`,
* `pow2`, the same laws again: the checker reads PTX `ex2` as *exactly* `2^x`
  (never as `exp (x * ln 2)` with a rounded `ln 2`), so it gets a function of its own,
* an order-free positivity predicate `pos`, closed under `+`, `*` and `inv`, true of `1`, of
  every `exp x` and every `pow2 x`, and never true of `0`.  Only the rule `FieldNormalize`
  needs it (its denominators are sums of positive constants times exponentials, hence
  nonzero; `pos_inv` gives the sign of a constant quotient, by which `c · inf` folds),
* a nonnegativity predicate `nn`: true of every square `a * a`, closed under `+` and `*`,
  implied by `pos`, and `pos a → nn b → pos (a + b)`.  `FieldNormalize` needs it for
  denominators like `x^2 + 1`: a product of squares and positive factors is `nn`, a sum of
  `nn` terms with one `pos` term is `pos`.

The real numbers with `Real.exp`, `fun x => 2 ^ x`, `0 < ·` and `0 ≤ ·` are a model.  No Mathlib is
needed: everything below is proved from the fields of the class.

The class uses plain fields (`add`, `mul`, ...) and the notations `+ * - / 0 1` come from the
instances declared after it; each axiom is restated in notation form (`add_assoc` etc.) so that
proofs never mention the raw fields.
-/

namespace Kcert

class ExpField (α : Type) where
  zero : α
  one : α
  add : α → α → α
  mul : α → α → α
  neg : α → α
  inv : α → α
  exp : α → α
  pow2 : α → α
  pos : α → Prop
  add_assoc' : ∀ a b c : α, add (add a b) c = add a (add b c)
  add_comm' : ∀ a b : α, add a b = add b a
  zero_add' : ∀ a : α, add zero a = a
  neg_add_self' : ∀ a : α, add (neg a) a = zero
  mul_assoc' : ∀ a b c : α, mul (mul a b) c = mul a (mul b c)
  mul_comm' : ∀ a b : α, mul a b = mul b a
  one_mul' : ∀ a : α, mul one a = a
  mul_add' : ∀ a b c : α, mul a (add b c) = add (mul a b) (mul a c)
  zero_ne_one' : zero ≠ one
  mul_inv' : ∀ a : α, a ≠ zero → mul a (inv a) = one
  exp_add' : ∀ a b : α, exp (add a b) = mul (exp a) (exp b)
  exp_zero' : exp zero = one
  pow2_add' : ∀ a b : α, pow2 (add a b) = mul (pow2 a) (pow2 b)
  pow2_zero' : pow2 zero = one
  pos_one' : pos one
  pos_add' : ∀ a b : α, pos a → pos b → pos (add a b)
  pos_mul' : ∀ a b : α, pos a → pos b → pos (mul a b)
  pos_exp' : ∀ a : α, pos (exp a)
  pos_pow2' : ∀ a : α, pos (pow2 a)
  pos_ne_zero' : ∀ a : α, pos a → a ≠ zero
  pos_inv' : ∀ a : α, pos a → pos (inv a)
  nn : α → Prop
  nn_mul_self' : ∀ a : α, nn (mul a a)
  nn_add' : ∀ a b : α, nn a → nn b → nn (add a b)
  nn_mul' : ∀ a b : α, nn a → nn b → nn (mul a b)
  pos_nn' : ∀ a : α, pos a → nn a
  pos_add_nn' : ∀ a b : α, pos a → nn b → pos (add a b)

namespace ExpField

variable {α : Type} [ExpField α]

instance : OfNat α (nat_lit 0) := ⟨ExpField.zero⟩
instance : OfNat α (nat_lit 1) := ⟨ExpField.one⟩
instance : Add α := ⟨ExpField.add⟩
instance : Mul α := ⟨ExpField.mul⟩
instance : Neg α := ⟨ExpField.neg⟩
/-- Subtraction is addition of the negation (PTX `sub` over the reals). -/
instance : Sub α := ⟨fun a b => ExpField.add a (ExpField.neg b)⟩
/-- Division is multiplication by the inverse (PTX `div` over the reals). -/
instance : Div α := ⟨fun a b => ExpField.mul a (ExpField.inv b)⟩

/-! ### The axioms in notation form -/

theorem add_assoc (a b c : α) : a + b + c = a + (b + c) := ExpField.add_assoc' a b c
theorem add_comm (a b : α) : a + b = b + a := ExpField.add_comm' a b
theorem zero_add (a : α) : 0 + a = a := ExpField.zero_add' a
theorem neg_add_self (a : α) : -a + a = 0 := ExpField.neg_add_self' a
theorem mul_assoc (a b c : α) : a * b * c = a * (b * c) := ExpField.mul_assoc' a b c
theorem mul_comm (a b : α) : a * b = b * a := ExpField.mul_comm' a b
theorem one_mul (a : α) : 1 * a = a := ExpField.one_mul' a
theorem mul_add (a b c : α) : a * (b + c) = a * b + a * c := ExpField.mul_add' a b c
theorem zero_ne_one : (0 : α) ≠ 1 := ExpField.zero_ne_one'
theorem mul_inv (a : α) (h : a ≠ 0) : a * inv a = 1 := ExpField.mul_inv' a h
theorem exp_add (a b : α) : exp (a + b) = exp a * exp b := ExpField.exp_add' a b
theorem exp_zero : exp (0 : α) = 1 := ExpField.exp_zero'
theorem pow2_add (a b : α) : pow2 (a + b) = pow2 a * pow2 b := ExpField.pow2_add' a b
theorem pow2_zero : pow2 (0 : α) = 1 := ExpField.pow2_zero'
theorem pos_one : pos (1 : α) := ExpField.pos_one'
theorem pos_add (a b : α) (ha : pos a) (hb : pos b) : pos (a + b) := ExpField.pos_add' a b ha hb
theorem pos_mul (a b : α) (ha : pos a) (hb : pos b) : pos (a * b) := ExpField.pos_mul' a b ha hb
theorem pos_exp (a : α) : pos (exp a) := ExpField.pos_exp' a
theorem pos_pow2 (a : α) : pos (pow2 a) := ExpField.pos_pow2' a
theorem pos_ne_zero (a : α) (h : pos a) : a ≠ 0 := ExpField.pos_ne_zero' a h
theorem pos_inv (a : α) (h : pos a) : pos (inv a) := ExpField.pos_inv' a h
theorem nn_mul_self (a : α) : nn (a * a) := ExpField.nn_mul_self' a
theorem nn_add (a b : α) (ha : nn a) (hb : nn b) : nn (a + b) := ExpField.nn_add' a b ha hb
theorem nn_mul (a b : α) (ha : nn a) (hb : nn b) : nn (a * b) := ExpField.nn_mul' a b ha hb
theorem pos_nn (a : α) (h : pos a) : nn a := ExpField.pos_nn' a h
theorem pos_add_nn (a b : α) (ha : pos a) (hb : nn b) : pos (a + b) :=
  ExpField.pos_add_nn' a b ha hb
theorem sub_def (a b : α) : a - b = a + -b := rfl
theorem div_def (a b : α) : a / b = a * inv b := rfl

/-! ### Derived ring laws -/

theorem add_zero (a : α) : a + 0 = a := by
  rw [add_comm, zero_add]

theorem add_neg_self (a : α) : a + -a = 0 := by
  rw [add_comm, neg_add_self]

theorem mul_one (a : α) : a * 1 = a := by
  rw [mul_comm, one_mul]

theorem add_mul (a b c : α) : (a + b) * c = a * c + b * c := by
  rw [mul_comm, mul_add, mul_comm c a, mul_comm c b]

theorem add_left_cancel {a b c : α} (h : a + b = a + c) : b = c := by
  have h2 : -a + (a + b) = -a + (a + c) := by rw [h]
  rw [← add_assoc, ← add_assoc, neg_add_self, zero_add, zero_add] at h2
  exact h2

theorem mul_zero (a : α) : a * 0 = 0 := by
  have h : a * 0 + a * 0 = a * 0 + 0 := by
    rw [← mul_add, add_zero, add_zero]
  exact add_left_cancel h

theorem zero_mul (a : α) : 0 * a = 0 := by
  rw [mul_comm, mul_zero]

/-- Additive inverses are unique. -/
theorem neg_eq_of_add_eq_zero {a b : α} (h : a + b = 0) : -a = b := by
  have h2 : -a + (a + b) = -a + 0 := by rw [h]
  rw [← add_assoc, neg_add_self, zero_add, add_zero] at h2
  exact h2.symm

theorem eq_of_sub_eq_zero {a b : α} (h : a - b = 0) : a = b := by
  rw [sub_def] at h
  have h2 : -(-b) = a := neg_eq_of_add_eq_zero (by rw [add_comm]; exact h)
  have h3 : -(-b) = b := neg_eq_of_add_eq_zero (neg_add_self b)
  rw [← h2, h3]

theorem neg_mul (a b : α) : -a * b = -(a * b) := by
  apply Eq.symm
  apply neg_eq_of_add_eq_zero
  rw [← add_mul, add_neg_self, zero_mul]

theorem neg_add (a b : α) : -(a + b) = -a + -b := by
  apply neg_eq_of_add_eq_zero
  rw [add_assoc, ← add_assoc b, add_comm b (-a), add_assoc, add_neg_self, add_zero,
    add_neg_self]

theorem neg_one_mul (a : α) : -(1 : α) * a = -a := by
  rw [neg_mul, one_mul]

/-! ### Exponentials never vanish -/

theorem exp_ne_zero (a : α) : exp a ≠ 0 := by
  intro h
  have h2 : exp (a + -a) = exp a * exp (-a) := exp_add a (-a)
  rw [add_neg_self, exp_zero, h, zero_mul] at h2
  exact zero_ne_one h2.symm

theorem pow2_ne_zero (a : α) : pow2 a ≠ 0 := by
  intro h
  have h2 : pow2 (a + -a) = pow2 a * pow2 (-a) := pow2_add a (-a)
  rw [add_neg_self, pow2_zero, h, zero_mul] at h2
  exact zero_ne_one h2.symm

/-! ### Nonnegativity -/

theorem nn_zero : nn (0 : α) := by
  have h := nn_mul_self (0 : α)
  rw [mul_zero] at h
  exact h

end ExpField
end Kcert
