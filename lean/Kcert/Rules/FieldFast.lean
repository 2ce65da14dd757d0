import Kcert.Rules.FieldInf

/-!
# Faster sums of normal forms for the DAG pass

`nfAdd` forms `a.1·b.2 + b.1·a.2` over `a.2·b.2` with `fpolyMul`, which collects like
monomials by insertion: multiplying a polynomial of `n` monomials by the one-monomial
denominator `1` costs `n²/2` monomial comparisons.  `fpolyMulF` multiplies by a one-monomial
factor term by term (`fpolyMulTerm`, no collecting), which denotes the same product
(`fpolyEval_mulF`); `nfAddF` is `nfAdd` with it and represents the sum (`rep_addF`); `xAddF`
is `xAdd` with `nfAddF` (`xAddF_ok`, the statement of `xAdd_ok`).  The DAG pass
(`Kcert/Rules/FieldDag.lean`) adds with `xAddF`.
-/

namespace Kcert
namespace Rules

open ExpField EVal

section FastModel

variable {K C : Type} (ops : FieldCoeffOps K C)

/-- The only monomial of a one-monomial polynomial. -/
def fpolySingle : FPoly C → Option (C × FMono C)
  | [(c, m)] => some (c, m)
  | _ => none

/-- The product, given `fpolySingle q` and `fpolySingle p`. -/
def fpolyMulOpt (p q : FPoly C) : Option (C × FMono C) → Option (C × FMono C) → FPoly C
  | some (c, m), _ => fpolyMulTerm ops c m p
  | none, some (c, m) => fpolyMulTerm ops c m q
  | none, none => fcollectS ops (fsort (fpolyMulR ops p q))

/-- `p · q`: term by term where one factor has one monomial, else the products term by term,
sorted by key and collected (`fsort`, `fcollectS`; branch `fmono`: before, `fpolyMul`, which
collects by insertion, quadratic in the size of the product). -/
def fpolyMulF (p q : FPoly C) : FPoly C := fpolyMulOpt ops p q (fpolySingle q) (fpolySingle p)

/-- `p + q`, sorted by key and collected (branch `fmono`: `fpolyAdd` collects by insertion,
quadratic; on mla_absorbed one `fma` of an 8772-monomial sum took 20 s). -/
def fpolyAddS (p q : FPoly C) : FPoly C := fcollectS ops (fsort (fpolyApp p q))

/-- `nfAdd` with `fpolyMulF` and `fpolyAddS`. -/
def nfAddF (a b : NF C) : NF C :=
  (fpolyAddS ops (fpolyMulF ops a.1 b.2) (fpolyMulF ops b.1 a.2), fpolyMulF ops a.2 b.2)

/-- `xAdd` with `nfAddF`. -/
def xAddF : XV C → XV C → Option (XV C)
  | XV.frac a, XV.frac b => some (XV.frac (nfAddF ops a b))
  | XV.frac _, XV.ninf => some XV.ninf
  | XV.frac _, XV.pinf => some XV.pinf
  | XV.ninf, XV.frac _ => some XV.ninf
  | XV.ninf, XV.ninf => some XV.ninf
  | XV.pinf, XV.frac _ => some XV.pinf
  | XV.pinf, XV.pinf => some XV.pinf
  | _, _ => none

end FastModel

section FastSound

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)

theorem fpolySingle_some : ∀ (p : FPoly C) (c : C) (m : FMono C),
    fpolySingle p = some (c, m) → p = [(c, m)]
  | [], c, m, h => Option.noConfusion h
  | [(c', m')], c, m, h => by
    have e : (c', m') = (c, m) := Option.noConfusion h id
    rw [e]
  | (c', m') :: _ :: _, c, m, h => Option.noConfusion h

theorem fpolyEval_mulOpt (σ : Env α) (p q : FPoly C) :
    ∀ o1 o2, fpolySingle q = o1 → fpolySingle p = o2 →
      fpolyEval cc σ (fpolyMulOpt ops p q o1 o2) = fpolyEval cc σ p * fpolyEval cc σ q
  | some (c, m), _, h1, _ => by
    rw [fpolySingle_some q c m h1]
    show fpolyEval cc σ (fpolyMulTerm ops c m p) = fpolyEval cc σ p * fpolyEval cc σ [(c, m)]
    rw [fpolyEval_mulTerm, fpolyEval_single, mul_comm]
  | none, some (c, m), _, h2 => by
    rw [fpolySingle_some p c m h2]
    show fpolyEval cc σ (fpolyMulTerm ops c m q) = fpolyEval cc σ [(c, m)] * fpolyEval cc σ q
    rw [fpolyEval_mulTerm, fpolyEval_single]
  | none, none, _, _ => by
    show fpolyEval cc σ (fcollectS ops (fsortN _ (fpolyMulR ops p q))) = _
    rw [fpolyEval_collectS, fpolyEval_sortN, fpolyEval_mulR]

theorem fpolyEval_addS (σ : Env α) (p q : FPoly C) :
    fpolyEval cc σ (fpolyAddS ops p q) = fpolyEval cc σ p + fpolyEval cc σ q := by
  show fpolyEval cc σ (fcollectS ops (fsortN _ (fpolyApp p q))) = _
  rw [fpolyEval_collectS, fpolyEval_sortN, fpolyEval_app]

/-- `fpolyMulF` denotes the product. -/
theorem fpolyEval_mulF (σ : Env α) (p q : FPoly C) :
    fpolyEval cc σ (fpolyMulF ops p q) = fpolyEval cc σ p * fpolyEval cc σ q :=
  fpolyEval_mulOpt cc σ p q _ _ rfl rfl

/-- `nfAddF` represents the sum (`rep_add`). -/
theorem rep_addF (σ : Env α) (a b : NF C) (x y : α) (ha : Rep cc σ a x) (hb : Rep cc σ b y) :
    Rep cc σ (nfAddF ops a b) (x + y) := by
  intro hD
  have hD' : fpolyEval cc σ a.2 * fpolyEval cc σ b.2 ≠ 0 := by
    rw [← fpolyEval_mulF]
    exact hD
  show (x + y) * fpolyEval cc σ (fpolyMulF ops a.2 b.2)
    = fpolyEval cc σ (fpolyAddS ops (fpolyMulF ops a.1 b.2) (fpolyMulF ops b.1 a.2))
  rw [fpolyEval_addS, fpolyEval_mulF, fpolyEval_mulF, fpolyEval_mulF, ← ha (ne_zero_left hD'),
    ← hb (ne_zero_right hD'), add_mul, mul_assoc, mul_assoc y, mul_comm (fpolyEval cc σ b.2)]

/-- `xAddF` has the property `xAdd_ok` states of `xAdd`. -/
theorem xAddF_ok (xa xb xv : XV C) (h : xAddF ops xa xb = some xv) (ea eb : EVal α)
    (sa : ShapeX xa ea) (sb : ShapeX xb eb) :
    OpOK cc xv (addE ea eb) (fun σ => RepF cc σ xa (finOf ea) ∧ RepF cc σ xb (finOf eb)) := by
  cases xa with
  | frac va =>
    match sa with
    | ⟨x, ex⟩ =>
      rw [ex]
      cases xb with
      | frac vb =>
        match sb with
        | ⟨y, ey⟩ =>
          rw [ey]
          have e : XV.frac (nfAddF ops va vb) = xv := Option.noConfusion h id
          rw [← e]
          exact fun σ r => ⟨⟨x + y, rfl⟩, rep_addF cc σ va vb x y r.1 r.2⟩
      | ninf =>
        have e1 : eb = EVal.ninf := sb
        have e : XV.ninf = xv := Option.noConfusion h id
        rw [e1, ← e]
        exact fun _ _ => ⟨rfl, True.intro⟩
      | pinf =>
        have e1 : eb = EVal.pinf := sb
        have e : XV.pinf = xv := Option.noConfusion h id
        rw [e1, ← e]
        exact fun _ _ => ⟨rfl, True.intro⟩
  | ninf =>
    have e0 : ea = EVal.ninf := sa
    rw [e0]
    cases xb with
    | frac vb =>
      match sb with
      | ⟨y, ey⟩ =>
        rw [ey]
        have e : XV.ninf = xv := Option.noConfusion h id
        rw [← e]
        exact fun _ _ => ⟨rfl, True.intro⟩
    | ninf =>
      have e1 : eb = EVal.ninf := sb
      have e : XV.ninf = xv := Option.noConfusion h id
      rw [e1, ← e]
      exact fun _ _ => ⟨rfl, True.intro⟩
    | pinf => cases h
  | pinf =>
    have e0 : ea = EVal.pinf := sa
    rw [e0]
    cases xb with
    | frac vb =>
      match sb with
      | ⟨y, ey⟩ =>
        rw [ey]
        have e : XV.pinf = xv := Option.noConfusion h id
        rw [← e]
        exact fun _ _ => ⟨rfl, True.intro⟩
    | ninf => cases h
    | pinf =>
      have e1 : eb = EVal.pinf := sb
      have e : XV.pinf = xv := Option.noConfusion h id
      rw [e1, ← e]
      exact fun _ _ => ⟨rfl, True.intro⟩

end FastSound

end Rules
end Kcert
