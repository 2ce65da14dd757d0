import Kcert.Rules.Field
import Kcert.Check

/-!
# Exact dyadic coefficients

The checker's coefficients (`checker/src/rules/coef.rs`, `Coef`: `mant · 2^exp`, normalized
to an odd mantissa or `(0, 0)`) and constants (`checker/src/term/dyadic.rs`, `Dyadic`), as one
type `Dyadic = Int × Int`: the pair `(m, e)` is `m · 2^e`.  Mantissa and exponent are
unbounded.  The Rust fails with `Overflow` when a result needs more than 127 bits of mantissa
or leaves the `i32` exponent range; these operations then still compute the exact result, so
the Rust accepts no more than the model does (failing more often cannot make a rule unsound),
provided its overflow checks are complete (lean/README.md lists two unchecked `i32` steps).

`Dyadic.ops` is the `FieldCoeffOps` of the rules: `add`, `mul` (both normalized, as
`Coef::checked_add`/`checked_mul`), `neg`, the zero test (`is_zero`), the positivity test
(`parts().0 > 0`), the exact inverse (`±2^e ↦ ±2^-e`, the only inverses the Rust computes, in
`ex2` of a quotient with constant denominator), and `ofConst` the identity (constants are
already dyadics; Rust `Coef::from_dyadic` only renormalizes).

The meaning of `(m, e)` in any `ExpField α` (`val`): `m · (1+1)^e` for `e ≥ 0` and
`m · inv(1+1)^(-e)` for `e < 0`, where the integer `m` is `1 + ... + 1` or its negation.
`1 + 1 ≠ 0` because `pos` is true of `1` and closed under `+`.  Proved: `val` respects
`1 + * -` and sends zero-tested coefficients to `0` (`castCoeff`, a `CoeffCast`), and
`invExact` gives inverses (`invExact_sound`).  Positive-tested coefficients are `pos`
(`isPos_sound`) because `pos (inv (1+1))` (`pos_half`), from the law `pos_inv` of `ExpField`
(`pos` is closed under `inv`; true in the reals).  So `fieldCast α` is a `FieldCoeffCast` in
every `ExpField`, and `ringNormalize_sound_dyadic`, `fieldNormalize_sound_dyadic` and
`checkEquiv_sound_dyadic` have no hypothesis on the coefficients.

Int lemmas are not in the core library of this toolchain: the casts are proved to be
homomorphisms by cases on `Int.ofNat`/`Int.negSucc` along the definitions of `Int.add`,
`Int.mul`, `Int.neg` and `Int.subNatNat`.
-/

namespace Kcert

open ExpField

/-- `m · 2^e` as `(m, e)`. -/
abbrev Dyadic : Type := Int × Int

namespace Dyadic

/-! ## Nat facts -/

theorem nat_zero_sub : ∀ n : Nat, 0 - n = 0
  | 0 => rfl
  | n + 1 => by
    rw [Nat.sub_succ, nat_zero_sub n]
    rfl

theorem nat_two_not_le_zero : ¬ (2 ≤ 0) := Nat.notSuccLeZero 1

theorem nat_two_not_le_one : ¬ (2 ≤ 1) := Nat.notSuccLeSelf 1

theorem nat_two_pos : 0 < 2 := Nat.zeroLtSucc 1

theorem nat_two_le (n : Nat) : 2 ≤ n + 2 :=
  Nat.succLeSucc (Nat.succLeSucc (Nat.zeroLe n))

/-- `n % 2 + (n / 2) * 2 = n`, by two-step induction from `Nat.div_eq` and `Nat.mod_eq`. -/
theorem nat_mod_two_add : ∀ n : Nat, n % 2 + (n / 2) * 2 = n ∧ (n + 1) % 2 + ((n + 1) / 2) * 2 = n + 1
  | 0 => by
    have h0 : ¬ (0 < 2 ∧ 2 ≤ 0) := fun h => nat_two_not_le_zero h.2
    have h1 : ¬ (0 < 2 ∧ 2 ≤ 1) := fun h => nat_two_not_le_one h.2
    apply And.intro
    · rw [Nat.mod_eq, Nat.div_eq, if_neg' h0, if_neg' h0]
    · rw [Nat.mod_eq, Nat.div_eq, if_neg' h1, if_neg' h1]
  | n + 1 => by
    have ih := (nat_mod_two_add n).1
    apply And.intro
    · exact (nat_mod_two_add n).2
    · have h2 : 0 < 2 ∧ 2 ≤ n + 2 := ⟨nat_two_pos, nat_two_le n⟩
      have hm : (n + 2) % 2 = n % 2 := by
        rw [Nat.mod_eq, if_pos' h2]
        rfl
      have hd : (n + 2) / 2 = n / 2 + 1 := by
        rw [Nat.div_eq, if_pos' h2]
        rfl
      show (n + 2) % 2 + ((n + 2) / 2) * 2 = n + 2
      rw [hm, hd, Nat.right_distrib, Nat.one_mul, ← Nat.add_assoc, ih]

theorem nat_even (n : Nat) (h : n % 2 = 0) : n = (n / 2) * 2 := by
  have h2 := (nat_mod_two_add n).1
  rw [h, Nat.zero_add] at h2
  exact h2.symm

/-! ## Integers and powers of two in an `ExpField` -/

section Casts

variable {α : Type} [ExpField α]

theorem neg_zero' : -(0 : α) = 0 :=
  neg_eq_of_add_eq_zero (zero_add 0)

theorem neg_neg' (a : α) : -(-a) = a :=
  neg_eq_of_add_eq_zero (neg_add_self a)

theorem mul_neg' (a b : α) : a * -b = -(a * b) := by
  rw [mul_comm, neg_mul, mul_comm]

theorem mul_left_comm' (a b c : α) : a * (b * c) = b * (a * c) := by
  rw [← mul_assoc, mul_comm a b, mul_assoc]

theorem add_left_comm' (a b c : α) : a + (b + c) = b + (a + c) := by
  rw [← add_assoc, add_comm a b, add_assoc]

/-- `1 + ... + 1` (`n` ones). -/
def natCast : Nat → α
  | 0 => 0
  | n + 1 => natCast n + 1

theorem natCast_add (m : Nat) : ∀ n : Nat, (natCast (m + n) : α) = natCast m + natCast n
  | 0 => by
    show (natCast m : α) = natCast m + 0
    rw [add_zero]
  | n + 1 => by
    show (natCast (m + n) : α) + 1 = natCast m + (natCast n + 1)
    rw [natCast_add m n, add_assoc]

theorem natCast_mul (m : Nat) : ∀ n : Nat, (natCast (m * n) : α) = natCast m * natCast n
  | 0 => by
    show (0 : α) = natCast m * 0
    rw [mul_zero]
  | n + 1 => by
    show (natCast (m * n + m) : α) = natCast m * (natCast n + 1)
    rw [natCast_add, natCast_mul m n, mul_add, mul_one]

/-- An integer: `natCast n` or its negation. -/
def intCast : Int → α
  | Int.ofNat n => natCast n
  | Int.negSucc n => -(natCast (n + 1))

/-- `2 = 1 + 1` and `1/2`. -/
def two : α := 1 + 1
def half : α := inv (two : α)

theorem pos_two : pos (two : α) := pos_add 1 1 pos_one pos_one

theorem two_ne_zero : (two : α) ≠ 0 := pos_ne_zero two pos_two

theorem two_mul_half : (two : α) * half = 1 := mul_inv two two_ne_zero

theorem natCast_two : (natCast 2 : α) = two := by
  show (0 : α) + 1 + 1 = 1 + 1
  rw [zero_add]

def twoPow : Nat → α
  | 0 => 1
  | n + 1 => twoPow n * two

def halfPow : Nat → α
  | 0 => 1
  | n + 1 => halfPow n * half

theorem twoPow_add (m : Nat) : ∀ n : Nat, (twoPow (m + n) : α) = twoPow m * twoPow n
  | 0 => by
    show (twoPow m : α) = twoPow m * 1
    rw [mul_one]
  | n + 1 => by
    show (twoPow (m + n) : α) * two = twoPow m * (twoPow n * two)
    rw [twoPow_add m n, mul_assoc]

theorem halfPow_add (m : Nat) : ∀ n : Nat, (halfPow (m + n) : α) = halfPow m * halfPow n
  | 0 => by
    show (halfPow m : α) = halfPow m * 1
    rw [mul_one]
  | n + 1 => by
    show (halfPow (m + n) : α) * half = halfPow m * (halfPow n * half)
    rw [halfPow_add m n, mul_assoc]

theorem twoPow_mul_halfPow : ∀ n : Nat, (twoPow n : α) * halfPow n = 1
  | 0 => by
    show (1 : α) * 1 = 1
    rw [one_mul]
  | n + 1 => by
    show (twoPow n : α) * two * (halfPow n * half) = 1
    rw [mul_assoc, mul_left_comm' two, ← mul_assoc, twoPow_mul_halfPow n, one_mul,
      two_mul_half]

theorem natCast_pow2 : ∀ k : Nat, (natCast (Nat.pow 2 k) : α) = twoPow k
  | 0 => by
    show (0 : α) + 1 = 1
    rw [zero_add]
  | k + 1 => by
    show (natCast (Nat.pow 2 k * 2) : α) = twoPow k * two
    rw [natCast_mul, natCast_pow2 k, natCast_two]

theorem pos_natCast_succ : ∀ n : Nat, pos (natCast (n + 1) : α)
  | 0 => by
    show pos ((0 : α) + 1)
    rw [zero_add]
    exact pos_one
  | n + 1 => pos_add _ 1 (pos_natCast_succ n) pos_one

theorem pos_twoPow : ∀ n : Nat, pos (twoPow n : α)
  | 0 => pos_one
  | n + 1 => pos_mul _ _ (pos_twoPow n) pos_two

theorem pos_halfPow (h : pos (half : α)) : ∀ n : Nat, pos (halfPow n : α)
  | 0 => pos_one
  | n + 1 => pos_mul _ _ (pos_halfPow h n) h

/-- `2^e` for an integer `e`. -/
def pow2i : Int → α
  | Int.ofNat n => twoPow n
  | Int.negSucc n => halfPow (n + 1)

/-! ### `Int.subNatNat`, the core of `Int.add` -/

theorem subNatNat_zero (m : Nat) : Int.subNatNat m 0 = Int.ofNat m := by
  show (match 0 - m with
    | 0 => Int.ofNat (m - 0)
    | Nat.succ k => Int.negSucc k) = Int.ofNat m
  rw [nat_zero_sub]
  rfl

theorem subNatNat_zero_succ (n : Nat) : Int.subNatNat 0 (n + 1) = Int.negSucc n := rfl

theorem subNatNat_succ_succ (m n : Nat) :
    Int.subNatNat (m + 1) (n + 1) = Int.subNatNat m n := by
  show (match (n + 1) - (m + 1) with
    | 0 => Int.ofNat ((m + 1) - (n + 1))
    | Nat.succ k => Int.negSucc k) = (match n - m with
    | 0 => Int.ofNat (m - n)
    | Nat.succ k => Int.negSucc k)
  rw [Nat.succ_sub_succ, Nat.succ_sub_succ]

theorem intCast_subNatNat : ∀ m n : Nat,
    (intCast (Int.subNatNat m n) : α) = natCast m + -(natCast n : α)
  | m, 0 => by
    rw [subNatNat_zero]
    show (natCast m : α) = (natCast m : α) + -(0 : α)
    rw [neg_zero', add_zero]
  | 0, n + 1 => by
    rw [subNatNat_zero_succ]
    show -(natCast (n + 1) : α) = (0 : α) + -(natCast (n + 1) : α)
    rw [zero_add]
  | m + 1, n + 1 => by
    rw [subNatNat_succ_succ, intCast_subNatNat m n]
    show (natCast m : α) + -(natCast n : α) = (natCast m : α) + 1 + -((natCast n : α) + 1)
    rw [neg_add, add_assoc, add_left_comm' 1, add_neg_self, add_zero]

theorem pow2i_subNatNat : ∀ m n : Nat,
    (pow2i (Int.subNatNat m n) : α) = twoPow m * halfPow n
  | m, 0 => by
    rw [subNatNat_zero]
    show (twoPow m : α) = twoPow m * 1
    rw [mul_one]
  | 0, n + 1 => by
    rw [subNatNat_zero_succ]
    show (halfPow (n + 1) : α) = 1 * halfPow (n + 1)
    rw [one_mul]
  | m + 1, n + 1 => by
    rw [subNatNat_succ_succ, pow2i_subNatNat m n]
    show (twoPow m : α) * halfPow n = twoPow m * two * (halfPow n * half)
    rw [mul_assoc, mul_left_comm' two, two_mul_half, mul_one]

/-! ### The casts are homomorphisms -/

theorem intCast_add : ∀ a b : Int, (intCast (a + b) : α) = intCast a + intCast b
  | Int.ofNat m, Int.ofNat n => natCast_add m n
  | Int.ofNat m, Int.negSucc n => intCast_subNatNat m (n + 1)
  | Int.negSucc m, Int.ofNat n => by
    show (intCast (Int.subNatNat n (m + 1)) : α) = -(natCast (m + 1)) + natCast n
    rw [intCast_subNatNat, add_comm]
  | Int.negSucc m, Int.negSucc n => by
    show -(natCast (Nat.succ (Nat.succ (m + n))) : α) = -(natCast (m + 1)) + -(natCast (n + 1))
    rw [← neg_add, ← natCast_add, Nat.add_succ, Nat.succ_add]

theorem intCast_negOfNat : ∀ n : Nat, (intCast (Int.negOfNat n) : α) = -(natCast n)
  | 0 => by
    show (0 : α) = -0
    rw [neg_zero']
  | n + 1 => rfl

theorem intCast_neg : ∀ a : Int, (intCast (-a) : α) = -(intCast a)
  | Int.ofNat n => intCast_negOfNat n
  | Int.negSucc n => by
    show (natCast (n + 1) : α) = -(-(natCast (n + 1)))
    rw [neg_neg']

theorem intCast_mul : ∀ a b : Int, (intCast (a * b) : α) = intCast a * intCast b
  | Int.ofNat m, Int.ofNat n => natCast_mul m n
  | Int.ofNat m, Int.negSucc n => by
    show (intCast (Int.negOfNat (m * (n + 1))) : α) = natCast m * -(natCast (n + 1))
    rw [intCast_negOfNat, natCast_mul, mul_neg']
  | Int.negSucc m, Int.ofNat n => by
    show (intCast (Int.negOfNat ((m + 1) * n)) : α) = -(natCast (m + 1)) * natCast n
    rw [intCast_negOfNat, natCast_mul, neg_mul]
  | Int.negSucc m, Int.negSucc n => by
    show (natCast ((m + 1) * (n + 1)) : α) = -(natCast (m + 1)) * -(natCast (n + 1))
    rw [natCast_mul, neg_mul, mul_neg', neg_neg']

theorem intCast_one : (intCast 1 : α) = 1 := by
  show (0 : α) + 1 = 1
  rw [zero_add]

theorem pow2i_add : ∀ a b : Int, (pow2i (a + b) : α) = pow2i a * pow2i b
  | Int.ofNat m, Int.ofNat n => twoPow_add m n
  | Int.ofNat m, Int.negSucc n => pow2i_subNatNat m (n + 1)
  | Int.negSucc m, Int.ofNat n => by
    show (pow2i (Int.subNatNat n (m + 1)) : α) = halfPow (m + 1) * twoPow n
    rw [pow2i_subNatNat, mul_comm]
  | Int.negSucc m, Int.negSucc n => by
    show (halfPow (Nat.succ (Nat.succ (m + n))) : α) = halfPow (m + 1) * halfPow (n + 1)
    rw [← halfPow_add, Nat.add_succ, Nat.succ_add]

theorem pow2i_neg_mul : ∀ e : Int, (pow2i (-e) : α) * pow2i e = 1
  | Int.ofNat 0 => by
    show (1 : α) * 1 = 1
    rw [one_mul]
  | Int.ofNat (n + 1) => by
    show (halfPow (n + 1) : α) * twoPow (n + 1) = 1
    rw [mul_comm, twoPow_mul_halfPow]
  | Int.negSucc n => twoPow_mul_halfPow (n + 1)

/-- `2^a = 2^(a-b) · 2^b`. -/
theorem pow2i_sub (a b : Int) : (pow2i a : α) = pow2i (a - b) * pow2i b := by
  show (pow2i a : α) = pow2i (a + -b) * pow2i b
  rw [pow2i_add, mul_assoc, pow2i_neg_mul, mul_one]

theorem pos_pow2i (h : pos (half : α)) : ∀ e : Int, pos (pow2i e : α)
  | Int.ofNat n => pos_twoPow n
  | Int.negSucc n => pos_halfPow h (n + 1)

end Casts

/-! ## The operations (Rust `Coef`) -/

/-- Strips factors of two: `strip f n = (o, k)` with `n = o · 2^k` (`strip_val`).  With fuel
`f ≥ log2 n` (`norm` passes `n` itself) `o` is odd or `0`, as the Rust `Coef::norm`. -/
def strip : Nat → Nat → Nat × Nat
  | 0, n => (n, 0)
  | f + 1, n =>
    if n = 0 then (0, 0)
    else if n % 2 = 0 then
      let r := strip f (n / 2)
      (r.1, r.2 + 1)
    else (n, 0)

/-- Rust `Coef::norm`: `m · 2^e` with factors of two moved from `m` to `e`. -/
def norm : Int → Int → Dyadic
  | Int.ofNat 0, _ => (0, 0)
  | Int.ofNat (n + 1), e =>
    let r := strip (n + 1) (n + 1)
    (Int.ofNat r.1, e + Int.ofNat r.2)
  | Int.negSucc n, e =>
    let r := strip (n + 1) (n + 1)
    (-(Int.ofNat r.1), e + Int.ofNat r.2)

/-- The sum, given `d = e1 - e2`: the mantissa with the larger exponent is shifted onto the
smaller one (Rust `Coef::checked_add`, without its 127-bit limit). -/
def addAux (m1 e1 m2 e2 : Int) : Int → Dyadic
  | Int.ofNat k => norm (m1 * Int.ofNat (Nat.pow 2 k) + m2) e2
  | Int.negSucc k => norm (m1 + m2 * Int.ofNat (Nat.pow 2 (k + 1))) e1

/-- Rust `Coef::checked_add`. -/
def add (a b : Dyadic) : Dyadic := addAux a.1 a.2 b.1 b.2 (a.2 - b.2)

/-- Rust `Coef::checked_mul`. -/
def mul (a b : Dyadic) : Dyadic := norm (a.1 * b.1) (a.2 + b.2)

/-- Rust `Coef::negated`. -/
def neg (a : Dyadic) : Dyadic := (-a.1, a.2)

def sub (a b : Dyadic) : Dyadic := add a (neg b)

/-- Rust `Coef::is_zero`. -/
def isZero (a : Dyadic) : Bool :=
  match a.1 with
  | Int.ofNat 0 => true
  | _ => false

/-- Rust `c.parts().0 > 0` (`positive`, `const_sign`). -/
def isPos (a : Dyadic) : Bool :=
  match a.1 with
  | Int.ofNat (Nat.succ _) => true
  | _ => false

/-- Rust `ex2` of a quotient with constant denominator `c = (m, e)`: when `m = ±1`, the inverse
`Dyadic::new(m < 0, 1, -e)`; otherwise none. -/
def invExact (a : Dyadic) : Option Dyadic :=
  match a.1 with
  | Int.ofNat (Nat.succ Nat.zero) => some (1, -a.2)
  | Int.negSucc Nat.zero => some (-1, -a.2)
  | _ => none

/-- The coefficient operations of the rules, with dyadic constants (`ofConst` the identity). -/
def ops : FieldCoeffOps Dyadic Dyadic where
  one := (1, 0)
  add := add
  mul := mul
  neg := neg
  isZero := isZero
  ofConst := fun k => k
  isPos := isPos
  invExact := invExact

/-! ## The meaning of a dyadic, and the cast laws -/

section Val

variable {α : Type} [ExpField α]

/-- `m · 2^e` in `α`. -/
def val (d : Dyadic) : α := intCast d.1 * pow2i d.2

theorem strip_zero (f : Nat) : strip (f + 1) 0 = (0, 0) := if_pos' rfl

theorem strip_even (f n : Nat) (h0 : ¬ n = 0) (h2 : n % 2 = 0) :
    strip (f + 1) n = ((strip f (n / 2)).1, (strip f (n / 2)).2 + 1) :=
  Eq.trans (if_neg' h0) (if_pos' h2)

theorem strip_odd (f n : Nat) (h0 : ¬ n = 0) (h2 : ¬ n % 2 = 0) : strip (f + 1) n = (n, 0) :=
  Eq.trans (if_neg' h0) (if_neg' h2)

theorem strip_val : ∀ f n : Nat, (natCast n : α) = natCast (strip f n).1 * twoPow (strip f n).2
  | 0, n => by
    show (natCast n : α) = natCast n * 1
    rw [mul_one]
  | f + 1, n => by
    cases (inferInstance : Decidable (n = 0)) with
    | isTrue h0 =>
      rw [h0, strip_zero]
      show (natCast 0 : α) = natCast 0 * 1
      rw [mul_one]
    | isFalse h0 =>
      cases (inferInstance : Decidable (n % 2 = 0)) with
      | isTrue h2 =>
        rw [strip_even f n h0 h2]
        show (natCast n : α) = natCast (strip f (n / 2)).1 * (twoPow (strip f (n / 2)).2 * two)
        rw [← mul_assoc, ← strip_val f (n / 2), ← natCast_two, ← natCast_mul, ← nat_even n h2]
      | isFalse h2 =>
        rw [strip_odd f n h0 h2]
        show (natCast n : α) = natCast n * 1
        rw [mul_one]

theorem val_norm : ∀ m e : Int, (val (norm m e) : α) = intCast m * pow2i e
  | Int.ofNat 0, e => by
    show (0 : α) * pow2i 0 = 0 * pow2i e
    rw [zero_mul, zero_mul]
  | Int.ofNat (n + 1), e => by
    show (natCast (strip (n + 1) (n + 1)).1 : α) * pow2i (e + Int.ofNat (strip (n + 1) (n + 1)).2)
      = natCast (n + 1) * pow2i e
    rw [pow2i_add, strip_val (n + 1) (n + 1)]
    show (natCast (strip (n + 1) (n + 1)).1 : α) * (pow2i e * twoPow (strip (n + 1) (n + 1)).2)
      = natCast (strip (n + 1) (n + 1)).1 * twoPow (strip (n + 1) (n + 1)).2 * pow2i e
    rw [mul_comm (pow2i e), mul_assoc]
  | Int.negSucc n, e => by
    show (intCast (-(Int.ofNat (strip (n + 1) (n + 1)).1)) : α)
        * pow2i (e + Int.ofNat (strip (n + 1) (n + 1)).2)
      = -(natCast (n + 1) : α) * pow2i e
    rw [intCast_neg, pow2i_add, strip_val (n + 1) (n + 1)]
    show -(natCast (strip (n + 1) (n + 1)).1 : α) * (pow2i e * twoPow (strip (n + 1) (n + 1)).2)
      = -((natCast (strip (n + 1) (n + 1)).1 : α) * twoPow (strip (n + 1) (n + 1)).2) * pow2i e
    rw [neg_mul, neg_mul, mul_comm (pow2i e), mul_assoc]

theorem val_addAux (m1 e1 m2 e2 : Int) : ∀ d : Int, d = e1 - e2 →
    (val (addAux m1 e1 m2 e2 d) : α) = intCast m1 * pow2i e1 + intCast m2 * pow2i e2
  | Int.ofNat k, h => by
    have he : (pow2i e1 : α) = twoPow k * pow2i e2 := by
      rw [pow2i_sub e1 e2, ← h]
      rfl
    show (val (norm (m1 * Int.ofNat (Nat.pow 2 k) + m2) e2) : α) = _
    rw [val_norm, intCast_add, intCast_mul, he]
    show ((intCast m1 : α) * natCast (Nat.pow 2 k) + intCast m2) * pow2i e2
      = intCast m1 * (twoPow k * pow2i e2) + intCast m2 * pow2i e2
    rw [natCast_pow2, add_mul, mul_assoc]
  | Int.negSucc k, h => by
    have he : (pow2i e1 : α) = halfPow (k + 1) * pow2i e2 := by
      rw [pow2i_sub e1 e2, ← h]
      rfl
    show (val (norm (m1 + m2 * Int.ofNat (Nat.pow 2 (k + 1))) e1) : α) = _
    rw [val_norm, intCast_add, intCast_mul]
    show ((intCast m1 : α) + intCast m2 * natCast (Nat.pow 2 (k + 1))) * pow2i e1
      = intCast m1 * pow2i e1 + intCast m2 * pow2i e2
    rw [natCast_pow2, add_mul, mul_assoc, he, ← mul_assoc (twoPow (k + 1)), twoPow_mul_halfPow,
      one_mul]

theorem val_add (a b : Dyadic) : (val (add a b) : α) = val a + val b :=
  val_addAux a.1 a.2 b.1 b.2 (a.2 - b.2) rfl

theorem val_mul (a b : Dyadic) : (val (mul a b) : α) = val a * val b := by
  show (val (norm (a.1 * b.1) (a.2 + b.2)) : α) = intCast a.1 * pow2i a.2 * (intCast b.1 * pow2i b.2)
  rw [val_norm, intCast_mul, pow2i_add, mul_assoc, mul_assoc, mul_left_comm' (pow2i a.2)]

theorem val_neg (a : Dyadic) : (val (neg a) : α) = -(val a) := by
  show (intCast (-a.1) : α) * pow2i a.2 = -(intCast a.1 * pow2i a.2)
  rw [intCast_neg, neg_mul]

theorem val_sub (a b : Dyadic) : (val (sub a b) : α) = val a - val b := by
  show (val (add a (neg b)) : α) = val a + -(val b : α)
  rw [val_add, val_neg]

theorem val_one : (val ((1, 0) : Dyadic) : α) = 1 := by
  show (intCast 1 : α) * 1 = 1
  rw [intCast_one, one_mul]

theorem natCast_one : (natCast 1 : α) = 1 := by
  show (0 : α) + 1 = 1
  rw [zero_add]

theorem isZero_sound (a : Dyadic) (h : isZero a = true) : (val a : α) = 0 := by
  cases a with
  | mk m e =>
    cases m with
    | ofNat n =>
      cases n with
      | zero =>
        show (0 : α) * pow2i e = 0
        rw [zero_mul]
      | succ n =>
        have h' : false = true := h
        cases h'
    | negSucc n =>
      have h' : false = true := h
      cases h'

theorem isPos_sound (hh : pos (half : α)) (a : Dyadic) (h : isPos a = true) : pos (val a : α) := by
  cases a with
  | mk m e =>
    cases m with
    | ofNat n =>
      cases n with
      | zero =>
        have h' : false = true := h
        cases h'
      | succ n => exact pos_mul _ _ (pos_natCast_succ n) (pos_pow2i hh e)
    | negSucc n =>
      have h' : false = true := h
      cases h'

theorem invExact_sound (a k : Dyadic) (h : invExact a = some k) : (val k : α) * val a = 1 := by
  cases a with
  | mk m e =>
    cases m with
    | ofNat n =>
      cases n with
      | zero =>
        have h' : (none : Option Dyadic) = some k := h
        cases h'
      | succ n =>
        cases n with
        | zero =>
          have h' : some ((1, -e) : Dyadic) = some k := h
          cases h'
          show (intCast 1 : α) * pow2i (-e) * (natCast 1 * pow2i e) = 1
          rw [intCast_one, natCast_one, one_mul, one_mul, pow2i_neg_mul]
        | succ n =>
          have h' : (none : Option Dyadic) = some k := h
          cases h'
    | negSucc n =>
      cases n with
      | zero =>
        have h' : some ((-1, -e) : Dyadic) = some k := h
        cases h'
        show -(natCast 1 : α) * pow2i (-e) * (-(natCast 1 : α) * pow2i e) = 1
        rw [natCast_one, neg_mul 1 (pow2i (-e)), neg_mul 1 (pow2i e), one_mul, one_mul, neg_mul,
          mul_neg', neg_neg', pow2i_neg_mul]
      | succ n =>
        have h' : (none : Option Dyadic) = some k := h
        cases h'

end Val

/-- The dyadic cast as a `CoeffCast` (what `Rules.ringNormalize_sound` takes), in every
`ExpField`. -/
def castCoeff (α : Type) [ExpField α] : CoeffCast ops.toCoeffOps α where
  cast := val
  cast_one := val_one
  cast_add := val_add
  cast_mul := val_mul
  cast_neg := val_neg
  isZero_sound := isZero_sound

/-- `inv (1+1)` is `pos`: `1+1` is, and `pos` is closed under `inv` (`ExpField.pos_inv`). -/
theorem pos_half {α : Type} [ExpField α] : pos (half : α) := pos_inv two pos_two

/-- The dyadic cast as a `FieldCoeffCast` (what `Rules.fieldNormalize_sound` takes), in every
`ExpField`. -/
def fieldCast (α : Type) [ExpField α] : FieldCoeffCast ops α where
  cast := val
  cast_one := val_one
  cast_add := val_add
  cast_mul := val_mul
  cast_neg := val_neg
  isZero_sound := isZero_sound
  isPos_sound := isPos_sound pos_half
  invExact_sound := invExact_sound

/-! ## The rules with dyadic coefficients

Constants are dyadics and mean their value: the interpretation `I` has `I.const k = val k`. -/

section Sound

variable {α : Type} [ExpField α]

/-- `Rules.ringNormalize_sound` with dyadic coefficients: if `ringNormalize` with `Dyadic.ops`
accepts `s` and `t`, they have the same value in every `ExpField`, for all inputs. -/
theorem ringNormalize_sound_dyadic (I : Interp Dyadic α) (hc : ∀ k : Dyadic, I.const k = val k)
    (m1 m2 : Nat → Option Nat) (ρ ρ1 ρ2 : Env α) (h1 : Agrees m1 ρ1 ρ) (h2 : Agrees m2 ρ2 ρ)
    (s t : Term Dyadic) (h : Rules.ringNormalize ops.toCoeffOps m1 m2 s t = true) :
    Term.eval I ρ1 s = Term.eval I ρ2 t :=
  Rules.ringNormalize_sound (castCoeff α) I (fun k => (hc k).symm) m1 m2 ρ ρ1 ρ2 h1 h2 s t h

/-- `Rules.fieldNormalize_sound` with dyadic coefficients, in every `ExpField` (no hypothesis
on `pos`): if `fieldNormalize` with `Dyadic.ops` accepts `s` and `t`, they have the same
value for every side environment agreeing with a pair environment, under every interpretation
satisfying `FieldInterp` whose constants are their dyadic values. -/
theorem fieldNormalize_sound_dyadic (I : Interp Dyadic α) (hI : Rules.FieldInterp I)
    (hc : ∀ k : Dyadic, I.const k = val k)
    (m : Nat → Option Nat) (ρ ρs : Env α) (hag : Agrees m ρs ρ)
    (s t : Term Dyadic) (h : Rules.fieldNormalize ops m s t = true) :
    Term.eval I ρs s = Term.eval I ρs t :=
  Rules.fieldNormalize_sound (fieldCast α) I hI (fun k => (hc k).symm) m ρ ρs hag s t h

/-- `Kcert.checkEquiv_sound` with dyadic coefficients, in every `ExpField`: if the replay
`checkEquiv Dyadic.ops` accepts, then for every claimed output link both kernels write the same
elements, and at each written element both terms exist and have the same extended value
(`Term.evalE`), for every sign function with `SignOf`, every input environment and every
interpretation satisfying `FieldInterp` whose constants are their dyadic values. No hypothesis
on the coefficients remains. -/
theorem checkEquiv_sound_dyadic (I : Interp Dyadic α)
    (hI : Rules.FieldInterp I) (hc : ∀ k : Dyadic, I.const k = val k)
    (sg : α → Option Bool) (hsg : EVal.SignOf sg)
    (run : Run Dyadic) (ρ ρs : Env α) (hag : Agrees run.inputs ρs ρ)
    (equiv : List Nat) (steps : List Step) (h : checkEquiv ops run equiv steps = true) :
    ∀ o, natMem o equiv = true →
      run.refFootprint o = run.optFootprint o ∧
      ∀ e, natMem e (run.refFootprint o) = true →
        ∃ lt ot, run.ref o e = some lt ∧ run.opt o e = some ot ∧
          Term.evalE I sg ρs lt = Term.evalE I sg ρs ot :=
  checkEquiv_sound (fieldCast α) I hI (fun k => (hc k).symm) sg hsg run ρ ρs hag equiv steps h

end Sound

end Dyadic
end Kcert
