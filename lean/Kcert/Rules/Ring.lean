import Kcert.Rules.Congruence

/-!
# The rule `RingNormalize`

Rust: `checker/src/rules/ring.rs`, function `ring_normalize`.  Both sides are expanded into
polynomials over the pair's input variables (sums of coefficient × monomial) using only the
commutative-ring laws, `fma a b c = a * b + c`, `a - b = a + (-1) * b` and exact coefficient
arithmetic; the rule accepts when the difference of the two expansions, with like monomials
collected, has only zero coefficients.

This file is the Lean model of that rule and its soundness proof:

* `monoEval_mul`, `polyEval_add`, `polyEval_mul`, ...: every polynomial operation denotes
  the corresponding operation on values;
* `expand_sound`: a successful expansion denotes the value of the term;
* `ringNormalize_sound`: if `ringNormalize ops ml mr s t = true`, then `s` and `t` have the
  same value for all inputs (every pair environment and side environments agreeing with it).

Coefficients are abstract: the model computes with any `CoeffOps K C` (a type `C` with
`+ * -`, a zero test and a conversion of constants), and the soundness proof reads them
through any `CoeffCast ops α`, a map `cast : C → α` respecting those operations.  In the checker
`C` is `Coef` (exact dyadics) and `cast` is the inclusion of the dyadics into the reals; that
this instance satisfies the `CoeffCast` laws, and that Rust's overflow-checked `Coef`
arithmetic agrees with them when it succeeds, is not proved here.

The model composes polynomials (`polyAdd`, `polyMul`) where the Rust code accumulates
`scale · term` into one hash map; both denote the same polynomial, but the Rust code is not
proved to follow the model.  The Rust rule also fails on budget, depth and degree limits; the
model has none (failing more often cannot make a rule unsound).
-/

namespace Kcert

open ExpField

/-- Exact coefficients: what the model computes with (Rust: `Coef`). -/
structure CoeffOps (K C : Type) where
  one : C
  add : C → C → C
  mul : C → C → C
  neg : C → C
  isZero : C → Bool
  ofConst : K → C

/-- The meaning of coefficients in `α`: a map respecting the operations, sending every
coefficient that passes the zero test to `0`. -/
structure CoeffCast {K C : Type} (ops : CoeffOps K C) (α : Type) [ExpField α] where
  cast : C → α
  cast_one : cast ops.one = 1
  cast_add : ∀ a b : C, cast (ops.add a b) = cast a + cast b
  cast_mul : ∀ a b : C, cast (ops.mul a b) = cast a * cast b
  cast_neg : ∀ a : C, cast (ops.neg a) = -cast a
  isZero_sound : ∀ c : C, ops.isZero c = true → cast c = 0

namespace Rules

section Model

/-! ## The model of the rule (computational, no `α`) -/

variable {K C : Type}

/-- A pair-level variable: (pair input, element index).  Rust packs it as `(input << 40) | index`. -/
abbrev Var : Type := Nat × Nat

/-- A monomial: a list of variables, kept sorted by `monoInsert` so that equal products are
equal lists.  Soundness never depends on the order. -/
abbrev Mono : Type := List Var

/-- A polynomial: a list of (coefficient, monomial), read as their sum. -/
abbrev Poly (C : Type) : Type := List (C × Mono)

/-- The order of variables in a monomial (lexicographic). -/
def varLe (v w : Var) : Bool :=
  decide (v.1 < w.1) || (decide (v.1 = w.1) && decide (v.2 ≤ w.2))

/-- Inserts a variable before the first one it does not exceed. -/
def monoInsert (v : Var) : Mono → Mono
  | [] => [v]
  | w :: m => cond (varLe v w) (v :: w :: m) (w :: monoInsert v m)

def monoMul : Mono → Mono → Mono
  | [], n => n
  | v :: m, n => monoInsert v (monoMul m n)

/-! ### Polynomials -/

variable (ops : CoeffOps K C)

/-- Adds `c · m`, merging it into the first entry with the same monomial. -/
def polyAddTerm (c : C) (m : Mono) : Poly C → Poly C
  | [] => [(c, m)]
  | e :: p => if m = e.2 then (ops.add c e.1, e.2) :: p else e :: polyAddTerm c m p

def polyAdd : Poly C → Poly C → Poly C
  | [], q => q
  | e :: p, q => polyAddTerm ops e.1 e.2 (polyAdd p q)

def polyScale (s : C) : Poly C → Poly C
  | [] => []
  | e :: p => (ops.mul s e.1, e.2) :: polyScale s p

/-- `c · m · q`. -/
def polyMulTerm (c : C) (m : Mono) : Poly C → Poly C
  | [] => []
  | e :: q => (ops.mul c e.1, monoMul m e.2) :: polyMulTerm c m q

def polyMul : Poly C → Poly C → Poly C
  | [], q => []
  | e :: p, q => polyAdd ops (polyMulTerm ops e.1 e.2 q) (polyMul p q)

/-- Collects like monomials (adding into an empty polynomial merges every entry). -/
def polyCollect (p : Poly C) : Poly C := polyAdd ops p []

def polyAllZero : Poly C → Bool
  | [] => true
  | e :: p => ops.isZero e.1 && polyAllZero p

def lift1 (f : Poly C → Poly C) : Option (Poly C) → Option (Poly C)
  | some p => some (f p)
  | none => none

def lift2 (f : Poly C → Poly C → Poly C) : Option (Poly C) → Option (Poly C) → Option (Poly C)
  | some p, some q => some (f p q)
  | _, _ => none

/-- `p - q`, as `p + (-1) · q` (Rust: the scale `-1` on the right-hand side). -/
def polySub (p q : Poly C) : Poly C := polyAdd ops p (polyScale ops (ops.neg ops.one) q)

/-- `-p`, as `(-1) · p`. -/
def polyNeg (p : Poly C) : Poly C := polyScale ops (ops.neg ops.one) p

/-- An input leaf: one variable, if the side maps its tensor (Rust: `atom`). -/
def inputPoly (i : Nat) : Option Nat → Option (Poly C)
  | some q => some [(ops.one, [(q, i)])]
  | none => none

/-- The expansion of a term on one side, its input tensors mapped by `m` (Rust:
`expand_into`).  `none` where Rust fails: a non-ring node or an unmapped input. -/
def expand (m : Nat → Option Nat) : Term K → Option (Poly C)
  | Term.const k => some [(ops.ofConst k, [])]
  | Term.input t i => inputPoly ops i (m t)
  | Term.add a b => lift2 (polyAdd ops) (expand m a) (expand m b)
  | Term.sub a b => lift2 (polySub ops) (expand m a) (expand m b)
  | Term.mul a b => lift2 (polyMul ops) (expand m a) (expand m b)
  | Term.fma a b c => lift2 (polyAdd ops) (lift2 (polyMul ops) (expand m a) (expand m b)) (expand m c)
  | Term.neg a => lift1 (polyNeg ops) (expand m a)
  | _ => none

/-- Both expansions exist and their difference collects to zero. -/
def checkDiff : Option (Poly C) → Option (Poly C) → Bool
  | some p, some q => polyAllZero ops (polyCollect ops (polySub ops p q))
  | _, _ => false

/-- The rule (Rust: `ring_normalize`): expand both sides, subtract, collect, all zero. -/
def ringNormalize (m1 m2 : Nat → Option Nat) (s t : Term K) : Bool :=
  checkDiff ops (expand ops m1 s) (expand ops m2 t)

end Model

section Soundness

/-! ## Soundness -/

variable {K C α : Type} [ExpField α]

def monoEval (ρ : Env α) : Mono → α
  | [] => 1
  | v :: m => ρ v.1 v.2 * monoEval ρ m

theorem mul_left_comm (a b c : α) : a * (b * c) = b * (a * c) := by
  rw [← mul_assoc, mul_comm a b, mul_assoc]

theorem monoEval_insert (ρ : Env α) (v : Var) (m : Mono) :
    monoEval ρ (monoInsert v m) = ρ v.1 v.2 * monoEval ρ m := by
  induction m with
  | nil => rfl
  | cons w m ih =>
    cases h : varLe v w
    · have e : monoInsert v (w :: m) = w :: monoInsert v m := by
        show cond (varLe v w) (v :: w :: m) (w :: monoInsert v m) = _
        rw [h]
        rfl
      rw [e]
      show ρ w.1 w.2 * monoEval ρ (monoInsert v m) = ρ v.1 v.2 * (ρ w.1 w.2 * monoEval ρ m)
      rw [ih, mul_left_comm]
    · have e : monoInsert v (w :: m) = v :: w :: m := by
        show cond (varLe v w) (v :: w :: m) (w :: monoInsert v m) = _
        rw [h]
        rfl
      rw [e]
      rfl

theorem monoEval_mul (ρ : Env α) (m n : Mono) :
    monoEval ρ (monoMul m n) = monoEval ρ m * monoEval ρ n := by
  induction m with
  | nil => exact (one_mul _).symm
  | cons v m ih =>
    show monoEval ρ (monoInsert v (monoMul m n)) = ρ v.1 v.2 * monoEval ρ m * monoEval ρ n
    rw [monoEval_insert, ih, mul_assoc]

variable {ops : CoeffOps K C} (cc : CoeffCast ops α)

/-- The value of a polynomial: the sum of its entries. -/
def polyEval (ρ : Env α) : Poly C → α
  | [] => 0
  | e :: p => cc.cast e.1 * monoEval ρ e.2 + polyEval ρ p

theorem polyEval_addTerm (ρ : Env α) (c : C) (m : Mono) (p : Poly C) :
    polyEval cc ρ (polyAddTerm ops c m p) = cc.cast c * monoEval ρ m + polyEval cc ρ p := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    cases (inferInstance : Decidable (m = e.2)) with
    | isTrue h =>
      have r : polyAddTerm ops c m (e :: p) = (ops.add c e.1, e.2) :: p := if_pos' h
      rw [r]
      show cc.cast (ops.add c e.1) * monoEval ρ e.2 + polyEval cc ρ p
        = cc.cast c * monoEval ρ m + (cc.cast e.1 * monoEval ρ e.2 + polyEval cc ρ p)
      rw [cc.cast_add, h, add_mul, add_assoc]
    | isFalse h =>
      have r : polyAddTerm ops c m (e :: p) = e :: polyAddTerm ops c m p := if_neg' h
      rw [r]
      show cc.cast e.1 * monoEval ρ e.2 + polyEval cc ρ (polyAddTerm ops c m p)
        = cc.cast c * monoEval ρ m + (cc.cast e.1 * monoEval ρ e.2 + polyEval cc ρ p)
      rw [ih, ← add_assoc, ← add_assoc, add_comm (cc.cast e.1 * monoEval ρ e.2)]

theorem polyEval_add (ρ : Env α) (p q : Poly C) :
    polyEval cc ρ (polyAdd ops p q) = polyEval cc ρ p + polyEval cc ρ q := by
  induction p with
  | nil => exact (zero_add _).symm
  | cons e p ih =>
    show polyEval cc ρ (polyAddTerm ops e.1 e.2 (polyAdd ops p q))
      = cc.cast e.1 * monoEval ρ e.2 + polyEval cc ρ p + polyEval cc ρ q
    rw [polyEval_addTerm, ih, add_assoc]

theorem polyEval_scale (ρ : Env α) (s : C) (p : Poly C) :
    polyEval cc ρ (polyScale ops s p) = cc.cast s * polyEval cc ρ p := by
  induction p with
  | nil => exact (mul_zero _).symm
  | cons e p ih =>
    show cc.cast (ops.mul s e.1) * monoEval ρ e.2 + polyEval cc ρ (polyScale ops s p)
      = cc.cast s * (cc.cast e.1 * monoEval ρ e.2 + polyEval cc ρ p)
    rw [ih, cc.cast_mul, mul_add, mul_assoc]

theorem polyEval_mulTerm (ρ : Env α) (c : C) (m : Mono) (q : Poly C) :
    polyEval cc ρ (polyMulTerm ops c m q) = cc.cast c * monoEval ρ m * polyEval cc ρ q := by
  induction q with
  | nil => exact (mul_zero _).symm
  | cons e q ih =>
    show cc.cast (ops.mul c e.1) * monoEval ρ (monoMul m e.2) + polyEval cc ρ (polyMulTerm ops c m q)
      = cc.cast c * monoEval ρ m * (cc.cast e.1 * monoEval ρ e.2 + polyEval cc ρ q)
    rw [ih, cc.cast_mul, monoEval_mul, mul_add]
    apply congrArg (fun x => x + cc.cast c * monoEval ρ m * polyEval cc ρ q)
    rw [mul_assoc, mul_assoc, mul_left_comm (cc.cast e.1)]

theorem polyEval_mul (ρ : Env α) (p q : Poly C) :
    polyEval cc ρ (polyMul ops p q) = polyEval cc ρ p * polyEval cc ρ q := by
  induction p with
  | nil => exact (zero_mul _).symm
  | cons e p ih =>
    show polyEval cc ρ (polyAdd ops (polyMulTerm ops e.1 e.2 q) (polyMul ops p q))
      = (cc.cast e.1 * monoEval ρ e.2 + polyEval cc ρ p) * polyEval cc ρ q
    rw [polyEval_add, polyEval_mulTerm, ih, add_mul]

theorem polyEval_collect (ρ : Env α) (p : Poly C) :
    polyEval cc ρ (polyCollect ops p) = polyEval cc ρ p := by
  show polyEval cc ρ (polyAdd ops p []) = _
  rw [polyEval_add]
  exact add_zero _

theorem polyEval_allZero (ρ : Env α) (p : Poly C) (h : polyAllZero ops p = true) :
    polyEval cc ρ p = 0 := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    show cc.cast e.1 * monoEval ρ e.2 + polyEval cc ρ p = 0
    rw [cc.isZero_sound e.1 (and_left' h), ih (and_right' h), zero_mul, add_zero]

theorem lift1_eq_some {f : Poly C → Poly C} {o : Option (Poly C)} {r : Poly C}
    (h : lift1 f o = some r) : ∃ p, o = some p ∧ f p = r := by
  cases o with
  | none => cases h
  | some p => exact ⟨p, rfl, Option.noConfusion h id⟩

theorem lift2_eq_some {f : Poly C → Poly C → Poly C} {o1 o2 : Option (Poly C)} {r : Poly C}
    (h : lift2 f o1 o2 = some r) : ∃ p q, o1 = some p ∧ o2 = some q ∧ f p q = r := by
  cases o1 with
  | none => cases h
  | some p =>
    cases o2 with
    | none => cases h
    | some q => exact ⟨p, q, rfl, rfl, Option.noConfusion h id⟩

theorem polyEval_neg (ρ : Env α) (p : Poly C) :
    polyEval cc ρ (polyNeg ops p) = -polyEval cc ρ p := by
  show polyEval cc ρ (polyScale ops (ops.neg ops.one) p) = _
  rw [polyEval_scale, cc.cast_neg, cc.cast_one, neg_one_mul]

theorem polyEval_sub (ρ : Env α) (p q : Poly C) :
    polyEval cc ρ (polySub ops p q) = polyEval cc ρ p - polyEval cc ρ q := by
  show polyEval cc ρ (polyAdd ops p (polyNeg ops q)) = _
  rw [polyEval_add, polyEval_neg]
  rfl

/-- Soundness of expansion: a successful expansion denotes the value of the term, reading each
variable `(p, i)` in the pair environment `ρ` with which the side's environment agrees. -/
theorem expand_sound (I : Interp K α) (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (ρs ρ : Env α) (hag : Agrees m ρs ρ) :
    ∀ (t : Term K) (p : Poly C), expand ops m t = some p → polyEval cc ρ p = Term.eval I ρs t := by
  intro t
  induction t with
  | const k =>
    intro p h
    have e : [(ops.ofConst k, ([] : Mono))] = p := Option.noConfusion h id
    rw [← e]
    show cc.cast (ops.ofConst k) * 1 + 0 = I.const k
    rw [mul_one, add_zero, hconst]
  | input t i =>
    intro p h
    have h' : inputPoly ops i (m t) = some p := h
    cases hm : m t with
    | none =>
      rw [hm] at h'
      cases h'
    | some q =>
      rw [hm] at h'
      have e : [(ops.one, [(q, i)])] = p := Option.noConfusion h' id
      rw [← e]
      show cc.cast ops.one * (ρ q i * 1) + 0 = ρs t i
      rw [cc.cast_one, one_mul, mul_one, add_zero, hag t q i hm]
  | add a b iha ihb =>
    intro p h
    match lift2_eq_some h with
    | ⟨pa, pb, ha, hb, hr⟩ =>
      rw [← hr, polyEval_add, iha pa ha, ihb pb hb]
      rfl
  | sub a b iha ihb =>
    intro p h
    match lift2_eq_some h with
    | ⟨pa, pb, ha, hb, hr⟩ =>
      rw [← hr, polyEval_sub, iha pa ha, ihb pb hb]
      rfl
  | mul a b iha ihb =>
    intro p h
    match lift2_eq_some h with
    | ⟨pa, pb, ha, hb, hr⟩ =>
      rw [← hr, polyEval_mul, iha pa ha, ihb pb hb]
      rfl
  | fma a b c iha ihb ihc =>
    intro p h
    match lift2_eq_some h with
    | ⟨pab, pc, hab, hc, hr⟩ =>
      match lift2_eq_some hab with
      | ⟨pa, pb, ha, hb, hr'⟩ =>
        rw [← hr, polyEval_add, ← hr', polyEval_mul, iha pa ha, ihb pb hb, ihc pc hc]
        rfl
  | neg a iha =>
    intro p h
    match lift1_eq_some h with
    | ⟨pa, ha, hr⟩ =>
      rw [← hr, polyEval_neg, iha pa ha]
      rfl
  | _ =>
    intro p h
    cases h

/-- Soundness of `RingNormalize`: if the rule accepts `s` (left side, input map `m1`) and `t`
(right side, input map `m2`), the two terms have the same value in every `ExpField`, for every
pair environment `ρ` and side environments agreeing with it, provided the coefficients' `cast`
sends each constant to its value. -/
theorem ringNormalize_sound (I : Interp K α)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m1 m2 : Nat → Option Nat) (ρ ρ1 ρ2 : Env α) (h1 : Agrees m1 ρ1 ρ) (h2 : Agrees m2 ρ2 ρ)
    (s t : Term K) (h : ringNormalize ops m1 m2 s t = true) :
    Term.eval I ρ1 s = Term.eval I ρ2 t := by
  have h' : checkDiff ops (expand ops m1 s) (expand ops m2 t) = true := h
  cases hs : expand ops m1 s with
  | none =>
    rw [hs] at h'
    cases h'
  | some p =>
    cases ht : expand ops m2 t with
    | none =>
      rw [hs, ht] at h'
      cases h'
    | some q =>
      rw [hs, ht] at h'
      have z := polyEval_allZero cc ρ _ h'
      rw [polyEval_collect, polyEval_sub, expand_sound cc I hconst m1 ρ1 ρ h1 s p hs,
        expand_sound cc I hconst m2 ρ2 ρ h2 t q ht] at z
      exact eq_of_sub_eq_zero z

end Soundness

end Rules
end Kcert
