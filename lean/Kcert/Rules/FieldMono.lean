import Kcert.Rules.Ring

/-!
# Canonical exponent polynomials, compared syntactically

The exponents `E` of the exponential monomials `x·2^E` of `FieldNormalize` (`Rules/Field.lean`)
were compared by `polyIsZero (polySub E F)`: a subtraction and a collection by insertion with
the generic `DecidableEq` of `List (Nat × Nat)`, quadratic in the length of the exponents, for
every pair of monomials with the same variables.  Here exponents are kept canonical when they
are built (sorted by `monoLt`, equal monomials merged, zero-tested coefficients dropped), so
that two exponents are equal polynomials exactly when they are equal lists, and are compared by
`polyBeq`, a syntactic test with `Nat.beq` on the variables and the coefficients' zero test on
their difference, which stops at the first difference.

Soundness needs none of the canonicity: `polyBeq_sound` (a `true` means equal values) holds for
any two lists, `polyEval_merge` (`polyMerge p q` denotes `p + q`) and `polyEval_canon`
(`polyCanon p` denotes `p`) for any inputs.  Canonicity only makes the test find more equalities
(a `false` merely leaves two monomials unmerged).

* `natBeq_eq`, `monoBeq_eq`: the syntactic tests on variables and monomials are equality;
* `polyBeq_sound`, `polyEval_merge`, `polyEval_canon`, `polyEval_scaleC`.
-/

namespace Kcert
namespace Rules

open ExpField

section MonoModel

variable {K C : Type}

/-- Equal monomials, with `Nat.beq` (no generic decidable equality). -/
def monoBeq : Mono → Mono → Bool
  | [], [] => true
  | v :: m, w :: n => Nat.beq v.1 w.1 && (Nat.beq v.2 w.2 && monoBeq m n)
  | [], _ :: _ => false
  | _ :: _, [] => false

/-- `a < b` on `Nat`, with `Nat.ble`. -/
def natLt (a b : Nat) : Bool := not (Nat.ble b a)

/-- The lexicographic order of monomials (only its use for sorting depends on it being an
order; soundness does not). -/
def monoLt : Mono → Mono → Bool
  | [], [] => false
  | [], _ :: _ => true
  | _ :: _, [] => false
  | v :: m, w :: n =>
    natLt v.1 w.1 || (Nat.beq v.1 w.1 && (natLt v.2 w.2 || (Nat.beq v.2 w.2 && monoLt m n)))

variable (ops : CoeffOps K C)

/-- Merges two polynomials sorted by `monoLt`, adding the coefficients of equal monomials and
dropping a sum that passes the zero test; `n` is fuel (`polyMerge` gives enough), past it the
plain `polyAdd`. -/
def polyMergeN : Nat → Poly C → Poly C → Poly C
  | 0, p, q => polyAdd ops p q
  | n + 1, [], q => q
  | n + 1, a :: p, [] => a :: p
  | n + 1, a :: p, b :: q =>
    cond (monoBeq a.2 b.2)
      (cond (ops.isZero (ops.add a.1 b.1)) (polyMergeN n p q)
        ((ops.add a.1 b.1, a.2) :: polyMergeN n p q))
      (cond (monoLt a.2 b.2) (a :: polyMergeN n p (b :: q)) (b :: polyMergeN n (a :: p) q))

/-- The sum of two canonical polynomials, canonical. -/
def polyMerge (p q : Poly C) : Poly C := polyMergeN ops (p.length + q.length) p q

/-- A polynomial made canonical: sorted, collected, zero-tested coefficients dropped. -/
def polyCanon : Poly C → Poly C
  | [] => []
  | a :: p => cond (ops.isZero a.1) (polyCanon p) (polyMerge ops [a] (polyCanon p))

/-- `s · p`, made canonical. -/
def polyScaleC (s : C) (p : Poly C) : Poly C := polyCanon ops (polyScale ops s p)

/-- `p - q` for canonical `p`, `q`: a merge with `(-1) · q` (same order). -/
def polySubC (p q : Poly C) : Poly C := polyMerge ops p (polyNeg ops q)

/-- The syntactic equality of (canonical) polynomials: equal monomials in the same order, with
coefficients whose difference passes the zero test. -/
def polyBeq : Poly C → Poly C → Bool
  | [], [] => true
  | a :: p, b :: q => monoBeq a.2 b.2 && (ops.isZero (ops.add a.1 (ops.neg b.1)) && polyBeq p q)
  | [], _ :: _ => false
  | _ :: _, [] => false

end MonoModel

theorem natBeq_eq : (a b : Nat) → Nat.beq a b = true → a = b
  | 0, 0, _ => rfl
  | 0, _ + 1, h => Bool.noConfusion h
  | _ + 1, 0, h => Bool.noConfusion h
  | a + 1, b + 1, h => congrArg Nat.succ (natBeq_eq a b h)

theorem monoBeq_eq : (m n : Mono) → monoBeq m n = true → m = n
  | [], [], _ => rfl
  | [], _ :: _, h => Bool.noConfusion h
  | _ :: _, [], h => Bool.noConfusion h
  | v :: m, w :: n, h => by
    have h' : (Nat.beq v.1 w.1 && (Nat.beq v.2 w.2 && monoBeq m n)) = true := h
    have e1 := natBeq_eq _ _ (and_left' h')
    have e2 := natBeq_eq _ _ (and_left' (and_right' h'))
    have e3 := monoBeq_eq m n (and_right' (and_right' h'))
    cases v with
    | mk v1 v2 =>
      cases w with
      | mk w1 w2 =>
        have e1' : v1 = w1 := e1
        have e2' : v2 = w2 := e2
        rw [e1', e2', e3]

section MonoSound

variable {K C α : Type} [ExpField α] {ops : CoeffOps K C} (cc : CoeffCast ops α)

theorem add_add_add_comm' (x y z w : α) : x + y + (z + w) = x + z + (y + w) := by
  rw [add_assoc, add_assoc, ← add_assoc y z w, add_comm y z, add_assoc z y w]

theorem polyEval_mergeN (ρ : Env α) (n : Nat) : (p q : Poly C) →
    polyEval cc ρ (polyMergeN ops n p q) = polyEval cc ρ p + polyEval cc ρ q := by
  induction n with
  | zero => intro p q; exact polyEval_add cc ρ p q
  | succ n ih =>
    intro p q
    cases p with
    | nil => exact (zero_add _).symm
    | cons a p =>
      cases q with
      | nil => exact (add_zero _).symm
      | cons b q =>
        show polyEval cc ρ (cond (monoBeq a.2 b.2)
            (cond (ops.isZero (ops.add a.1 b.1)) (polyMergeN ops n p q)
              ((ops.add a.1 b.1, a.2) :: polyMergeN ops n p q))
            (cond (monoLt a.2 b.2) (a :: polyMergeN ops n p (b :: q))
              (b :: polyMergeN ops n (a :: p) q)))
          = cc.cast a.1 * monoEval ρ a.2 + polyEval cc ρ p
            + (cc.cast b.1 * monoEval ρ b.2 + polyEval cc ρ q)
        cases hb : monoBeq a.2 b.2 with
        | true =>
          have e := monoBeq_eq a.2 b.2 hb
          rw [add_add_add_comm', ← e, ← add_mul, ← cc.cast_add]
          cases hz : ops.isZero (ops.add a.1 b.1) with
          | true =>
            show polyEval cc ρ (polyMergeN ops n p q) = _
            rw [ih, cc.isZero_sound _ hz, zero_mul, zero_add]
          | false =>
            show cc.cast (ops.add a.1 b.1) * monoEval ρ a.2 + polyEval cc ρ (polyMergeN ops n p q) = _
            rw [ih]
        | false =>
          cases hl : monoLt a.2 b.2 with
          | true =>
            show cc.cast a.1 * monoEval ρ a.2 + polyEval cc ρ (polyMergeN ops n p (b :: q)) = _
            rw [ih, add_assoc]
            rfl
          | false =>
            show cc.cast b.1 * monoEval ρ b.2 + polyEval cc ρ (polyMergeN ops n (a :: p) q) = _
            rw [ih]
            show cc.cast b.1 * monoEval ρ b.2 + (cc.cast a.1 * monoEval ρ a.2 + polyEval cc ρ p
                + polyEval cc ρ q)
              = cc.cast a.1 * monoEval ρ a.2 + polyEval cc ρ p
                + (cc.cast b.1 * monoEval ρ b.2 + polyEval cc ρ q)
            rw [← add_assoc, add_comm (cc.cast b.1 * monoEval ρ b.2), add_assoc, add_assoc,
              add_comm (cc.cast b.1 * monoEval ρ b.2) (polyEval cc ρ q)]

theorem polyEval_merge (ρ : Env α) (p q : Poly C) :
    polyEval cc ρ (polyMerge ops p q) = polyEval cc ρ p + polyEval cc ρ q :=
  polyEval_mergeN cc ρ _ p q

theorem polyEval_canon (ρ : Env α) (p : Poly C) :
    polyEval cc ρ (polyCanon ops p) = polyEval cc ρ p := by
  induction p with
  | nil => rfl
  | cons a p ih =>
    show polyEval cc ρ (cond (ops.isZero a.1) (polyCanon ops p) (polyMerge ops [a] (polyCanon ops p)))
      = cc.cast a.1 * monoEval ρ a.2 + polyEval cc ρ p
    cases hz : ops.isZero a.1 with
    | true =>
      show polyEval cc ρ (polyCanon ops p) = _
      rw [ih, cc.isZero_sound _ hz, zero_mul, zero_add]
    | false =>
      show polyEval cc ρ (polyMerge ops [a] (polyCanon ops p)) = _
      rw [polyEval_merge, ih]
      show cc.cast a.1 * monoEval ρ a.2 + 0 + polyEval cc ρ p = _
      rw [add_zero]

theorem polyEval_scaleC (ρ : Env α) (s : C) (p : Poly C) :
    polyEval cc ρ (polyScaleC ops s p) = cc.cast s * polyEval cc ρ p := by
  show polyEval cc ρ (polyCanon ops (polyScale ops s p)) = _
  rw [polyEval_canon, polyEval_scale]

theorem polyEval_subC (ρ : Env α) (p q : Poly C) :
    polyEval cc ρ (polySubC ops p q) = polyEval cc ρ p - polyEval cc ρ q := by
  show polyEval cc ρ (polyMerge ops p (polyNeg ops q)) = _
  rw [polyEval_merge, polyEval_neg]
  rfl

theorem polyBeq_sound (ρ : Env α) : (p q : Poly C) → polyBeq ops p q = true →
    polyEval cc ρ p = polyEval cc ρ q
  | [], [], _ => rfl
  | [], _ :: _, h => Bool.noConfusion h
  | _ :: _, [], h => Bool.noConfusion h
  | a :: p, b :: q, h => by
    have h' : (monoBeq a.2 b.2 && (ops.isZero (ops.add a.1 (ops.neg b.1)) && polyBeq ops p q))
      = true := h
    have e1 := monoBeq_eq a.2 b.2 (and_left' h')
    have z := cc.isZero_sound _ (and_left' (and_right' h'))
    rw [cc.cast_add, cc.cast_neg] at z
    have e2 : cc.cast a.1 = cc.cast b.1 := eq_of_sub_eq_zero z
    have e3 := polyBeq_sound ρ p q (and_right' (and_right' h'))
    show cc.cast a.1 * monoEval ρ a.2 + polyEval cc ρ p = cc.cast b.1 * monoEval ρ b.2 + polyEval cc ρ q
    rw [e1, e2, e3]

end MonoSound

end Rules
end Kcert
