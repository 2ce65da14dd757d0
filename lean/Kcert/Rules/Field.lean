import Kcert.Rules.FieldMono

/-!
# The rule `FieldNormalize`

Rust: `checker/src/rules/field.rs`, function `field_normalize`.  Both sides are normalized into
quotients `num / den` of exponential polynomials (sums of coefficient × monomial × `2^E`, `E` a
polynomial), with an atom for each `max`/`min` (flattened, compared as sets), opaque function,
select, or `ex2` that is not exact; the rule accepts when both denominators are `positive`
(every monomial a positive constant times `2^E` times a product where every variable that is
not a positive atom occurs to an even power, and one monomial of positive atoms only; the
positive atoms, `tabPos`, are `ex2` atoms and `sqrt` atoms of provably positive arguments) and
the numerators agree after cross-multiplication or after shifting out a power of two
(`nfFinal`).  `rsqrt x` of a provably positive `x` is `1 / sqrt x`.

* `div_eq_div_of_cross`, `posSum_ne_zero`, `positive_pos`, `positive_ne_zero`: the field facts
  it rests on (`positive_pos` through the law `nn` of `ExpField`);
* `fpolyEval_add`, `fpolyEval_mul`, ...: exponential polynomials denote sums;
* `Rep`, `rep_add`, `rep_div`, `rep_ex2`, ...: normal-form operations represent the value
  operations wherever the resulting denominator is not zero;
* `Good`, `OK`, `nuOf`, `atom_inv`, `lattice_inv`: the atom table, valued consistently;
  `good_pos`: under a consistent valuation the atoms `tabPos` marks are positive;
  `rsqrt_inv`, `normApp_inv`: functions, with the `rsqrt` law;
  `nfFinal_sound`: the final comparison;
* `norm_sound`: normalization represents the value of the term;
* `fieldNormalize_sound`: the rule is sound in every `ExpField`.

Where the model differs from the Rust (infinities, positivity of divisors' and atom arguments'
denominators, nested exponentials), it accepts less; `lean/README.md` lists each difference.
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

/-- `a * b ≠ 0` gives `a ≠ 0`. -/
theorem ne_zero_left {a b : α} (h : a * b ≠ 0) : a ≠ 0 := by
  intro h0
  apply h
  rw [h0, zero_mul]

/-- `a * b ≠ 0` gives `b ≠ 0`. -/
theorem ne_zero_right {a b : α} (h : a * b ≠ 0) : b ≠ 0 := by
  intro h0
  apply h
  rw [h0, mul_zero]

theorem mul_mul_mul_comm' (a b c d : α) : a * b * (c * d) = a * c * (b * d) := by
  rw [mul_assoc, mul_assoc, ← mul_assoc b c d, mul_comm b c, mul_assoc c b d]

end Rules

open ExpField

/-! ## The rule `FieldNormalize`: coefficients -/

/-- Coefficients of normal forms (Rust: `Coef`): those of `RingNormalize`, plus a test for
positive coefficients (`c.parts().0 > 0`) and the exact inverse of a coefficient `±2^k`, which
is again a coefficient (Rust: the `inv` of `Normalizer::ex2`). -/
structure FieldCoeffOps (K C : Type) extends CoeffOps K C where
  isPos : C → Bool
  invExact : C → Option C

/-- The meaning of field coefficients: a `CoeffCast`, sending coefficients that pass the
positivity test to positive elements, and `invExact` to inverses. -/
structure FieldCoeffCast {K C : Type} (ops : FieldCoeffOps K C) (α : Type) [ExpField α]
    extends CoeffCast ops.toCoeffOps α where
  isPos_sound : ∀ c : C, ops.isPos c = true → pos (cast c)
  invExact_sound : ∀ c k : C, ops.invExact c = some k → cast k * cast c = 1

namespace Rules

section FieldModel

/-! ## The model of `FieldNormalize` (computational, no `α`)

Variables are the `Var = Nat × Nat` of `RingNormalize`, shifted: pair input `p`, element `i`
is `(p + 1, i)`, and atom number `n` is `(0, n)` (Rust: `(link << 40) | index` and the `ATOM`
bit). -/

variable {K C : Type} (ops : FieldCoeffOps K C)

/-- An exponential monomial: variables times `2^E`, `E` a polynomial (Rust: `Mono { vars, exp }`,
where `exp` indexes the table of exponent polynomials). -/
abbrev FMono (C : Type) : Type := Mono × Poly C

/-- An exponential polynomial: a sum of coefficient × exponential monomial (Rust: `Poly`). -/
abbrev FPoly (C : Type) : Type := List (C × FMono C)

/-- A normal form `num / den` (Rust: `Value::Frac { num, den }`). -/
abbrev NF (C : Type) : Type := FPoly C × FPoly C

/-- A ring polynomial is zero once like monomials are collected. -/
def polyIsZero (p : Poly C) : Bool := polyAllZero ops.toCoeffOps (polyCollect ops.toCoeffOps p)

/-- Two exponential monomials are the same: equal variables, equal exponents (Rust compares
canonical forms, and so does this model: exponents are built canonical by `polyMerge`,
`polySubC` and `polyScaleC` (`Rules/FieldMono.lean`) and compared syntactically by `monoBeq` and
`polyBeq`; a `false` only leaves two monomials unmerged). -/
def fmonoEq (a b : FMono C) : Bool :=
  monoBeq a.1 b.1 && polyBeq ops.toCoeffOps a.2 b.2

/-- `x·2^E · y·2^F = xy·2^(E+F)` (Rust: `mul_poly`'s `exp_sum`). -/
def fmonoMul (a b : FMono C) : FMono C := (monoMul a.1 b.1, polyMerge ops.toCoeffOps a.2 b.2)

def fpolyAddTerm (c : C) (m : FMono C) : FPoly C → FPoly C
  | [] => [(c, m)]
  | e :: p => cond (fmonoEq ops m e.2) ((ops.add c e.1, e.2) :: p) (e :: fpolyAddTerm c m p)

def fpolyAdd : FPoly C → FPoly C → FPoly C
  | [], q => q
  | e :: p, q => fpolyAddTerm ops e.1 e.2 (fpolyAdd p q)

def fpolyScale (s : C) : FPoly C → FPoly C
  | [] => []
  | e :: p => (ops.mul s e.1, e.2) :: fpolyScale s p

def fpolyMulTerm (c : C) (m : FMono C) : FPoly C → FPoly C
  | [] => []
  | e :: q => (ops.mul c e.1, fmonoMul ops m e.2) :: fpolyMulTerm c m q

def fpolyMul : FPoly C → FPoly C → FPoly C
  | [], q => []
  | e :: p, q => fpolyAdd ops (fpolyMulTerm ops e.1 e.2 q) (fpolyMul p q)

def fpolyNeg (p : FPoly C) : FPoly C := fpolyScale ops (ops.neg ops.one) p

def fpolySub (p q : FPoly C) : FPoly C := fpolyAdd ops p (fpolyNeg ops q)

def fpolyAllZero : FPoly C → Bool
  | [] => true
  | e :: p => ops.isZero e.1 && fpolyAllZero p

/-! ### Sorted collection (for the zero test) -/

/-- `p ++ q`, structurally. -/
def fpolyApp : FPoly C → FPoly C → FPoly C
  | [], q => q
  | e :: p, q => e :: fpolyApp p q

/-- `p · q` term by term, like monomials not collected. -/
def fpolyMulR : FPoly C → FPoly C → FPoly C
  | [], q => []
  | e :: p, q => fpolyApp (fpolyMulTerm ops e.1 e.2 q) (fpolyMulR p q)

/-- `p - q`, like monomials not collected. -/
def fpolySubR (p q : FPoly C) : FPoly C := fpolyApp p (fpolyNeg ops q)

/-- The lexicographic order of exponents by their monomials only (coefficients have no order). -/
def expKeyLt : Poly C → Poly C → Bool
  | [], [] => false
  | [], _ :: _ => true
  | _ :: _, [] => false
  | a :: p, b :: q => monoLt a.2 b.2 || (monoBeq a.2 b.2 && expKeyLt p q)

/-- Exponents with the same monomials in the same order. -/
def expKeyEq : Poly C → Poly C → Bool
  | [], [] => true
  | a :: p, b :: q => monoBeq a.2 b.2 && expKeyEq p q
  | [], _ :: _ => false
  | _ :: _, [] => false

/-- The sort key of an exponential monomial: its variables, then its exponent's monomials. -/
def fkeyLt (a b : FMono C) : Bool := monoLt a.1 b.1 || (monoBeq a.1 b.1 && expKeyLt a.2 b.2)

def fkeyEq (a b : FMono C) : Bool := monoBeq a.1 b.1 && expKeyEq a.2 b.2

/-- Alternate entries into two halves. -/
def fsplitCons (a b : C × FMono C) (r : FPoly C × FPoly C) : FPoly C × FPoly C :=
  (a :: r.1, b :: r.2)

def fsplit : FPoly C → FPoly C × FPoly C
  | [] => ([], [])
  | [a] => ([a], [])
  | a :: b :: p => fsplitCons a b (fsplit p)

/-- Merges two lists sorted by `fkeyLt` (no collecting); `n` is fuel. -/
def fmergeK : Nat → FPoly C → FPoly C → FPoly C
  | 0, p, q => fpolyApp p q
  | n + 1, [], q => q
  | n + 1, a :: p, [] => a :: p
  | n + 1, a :: p, b :: q =>
    cond (fkeyLt b.2 a.2) (b :: fmergeK n (a :: p) q) (a :: fmergeK n p (b :: q))

def fmerge (p q : FPoly C) : FPoly C := fmergeK (p.length + q.length) p q

/-- Merge sort by `fkeyLt`; `n` is fuel. -/
def fsortN : Nat → FPoly C → FPoly C
  | 0, p => p
  | n + 1, [] => []
  | n + 1, [a] => [a]
  | n + 1, a :: b :: p =>
    fmerge (fsortN n (fsplit (a :: b :: p)).1) (fsortN n (fsplit (a :: b :: p)).2)

def fsort (p : FPoly C) : FPoly C := fsortN p.length p

/-- Adds `c · m` into a list sorted by key whose keys are at least `m`'s: merged into an equal
monomial among the entries of `m`'s key, which come first. -/
def fpolyAddTermS (c : C) (m : FMono C) : FPoly C → FPoly C
  | [] => [(c, m)]
  | e :: p => cond (fmonoEq ops m e.2) ((ops.add c e.1, e.2) :: p)
      (cond (fkeyEq m e.2) (e :: fpolyAddTermS c m p) ((c, m) :: e :: p))

def fcollectS : FPoly C → FPoly C
  | [] => []
  | e :: p => fpolyAddTermS ops e.1 e.2 (fcollectS p)

/-- Zero once like monomials are collected (Rust: canonical `Poly` equality with the empty one):
sorted by key (`fsort`), then collected within runs of equal keys (`fcollectS`). -/
def fpolyIsZero (p : FPoly C) : Bool := fpolyAllZero ops (fcollectS ops (fsort p))

/-- Variable `v` is an atom that `P` marks positive (Rust: the `ATOM` bit and `atom_pos`). -/
def varPos (P : Nat → Bool) (v : Var) : Bool :=
  match v.1 with
  | 0 => P v.2
  | _ + 1 => false

/-- Every variable that is not a positive atom occurs to an even power (Rust `positive`: a run
of equal variables of odd length is refused; monomials are sorted by `monoInsert`, so equal
variables are adjacent). -/
def monoNN (P : Nat → Bool) : Mono → Bool
  | [] => true
  | [v] => varPos P v
  | v :: w :: m => cond (varPos P v) (monoNN P (w :: m)) (decide (v = w) && monoNN P m)

/-- Every variable of the monomial is a positive atom. -/
def monoAllPos (P : Nat → Bool) : Mono → Bool
  | [] => true
  | v :: m => varPos P v && monoAllPos P m

/-- Every coefficient positive and every monomial nonnegative (`monoNN`). -/
def positiveAll (P : Nat → Bool) : FPoly C → Bool
  | [] => true
  | e :: p => ops.isPos e.1 && monoNN P e.2.1 && positiveAll P p

/-- Some monomial consists of positive atoms only (times `2^E`). -/
def anyStrict (P : Nat → Bool) : FPoly C → Bool
  | [] => false
  | e :: p => monoAllPos P e.2.1 || anyStrict P p

/-- The monomials whose coefficient is not zero-tested (Rust: a canonical `Poly` has no zero
terms; the model's collected polynomials keep a monomial whose coefficients cancelled, and the
constant `0` is the monomial `0·1`). -/
def dropZero : FPoly C → FPoly C
  | [] => []
  | e :: p => cond (ops.isZero e.1) (dropZero p) (e :: dropZero p)

/-- Rust `positive`, given the positive atoms `P` (Rust `atom_pos`): every monomial a positive
coefficient times `2^E` times a product in which every variable that is not a positive atom
occurs to an even power, and some monomial of positive atoms only; monomials with a
zero-tested coefficient are left out first (`dropZero`), as the Rust's canonical polynomials
have none. -/
def positive (P : Nat → Bool) (p : FPoly C) : Bool :=
  positiveAll ops P (dropZero ops p) && anyStrict P (dropZero ops p)

end FieldModel

section FieldPolySound

/-! ## Exponential polynomials denote sums -/

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)

def fmonoEval (σ : Env α) (m : FMono C) : α :=
  monoEval σ m.1 * pow2 (polyEval cc.toCoeffCast σ m.2)

def fpolyEval (σ : Env α) : FPoly C → α
  | [] => 0
  | e :: p => cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval σ p

theorem polyIsZero_sound (σ : Env α) (p : Poly C) (h : polyIsZero ops p = true) :
    polyEval cc.toCoeffCast σ p = 0 := by
  have z := polyEval_allZero cc.toCoeffCast σ _ h
  rw [polyEval_collect] at z
  exact z

theorem fmonoEq_sound (σ : Env α) (a b : FMono C) (h : fmonoEq ops a b = true) :
    fmonoEval cc σ a = fmonoEval cc σ b := by
  have h1 : a.1 = b.1 := monoBeq_eq _ _ (and_left' h)
  have h2 := polyBeq_sound cc.toCoeffCast σ _ _ (and_right' h)
  show monoEval σ a.1 * pow2 (polyEval cc.toCoeffCast σ a.2)
    = monoEval σ b.1 * pow2 (polyEval cc.toCoeffCast σ b.2)
  rw [h1, h2]

theorem fmonoEval_mul (σ : Env α) (a b : FMono C) :
    fmonoEval cc σ (fmonoMul ops a b) = fmonoEval cc σ a * fmonoEval cc σ b := by
  show monoEval σ (monoMul a.1 b.1) * pow2 (polyEval cc.toCoeffCast σ (polyMerge ops.toCoeffOps a.2 b.2))
    = monoEval σ a.1 * pow2 (polyEval cc.toCoeffCast σ a.2)
      * (monoEval σ b.1 * pow2 (polyEval cc.toCoeffCast σ b.2))
  rw [monoEval_mul, polyEval_merge, pow2_add, mul_mul_mul_comm']

theorem fpolyEval_addTerm (σ : Env α) (c : C) (m : FMono C) (p : FPoly C) :
    fpolyEval cc σ (fpolyAddTerm ops c m p) = cc.cast c * fmonoEval cc σ m + fpolyEval cc σ p := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    cases h : fmonoEq ops m e.2
    · have r : fpolyAddTerm ops c m (e :: p) = e :: fpolyAddTerm ops c m p := by
        show cond (fmonoEq ops m e.2) ((ops.add c e.1, e.2) :: p) (e :: fpolyAddTerm ops c m p) = _
        rw [h]
        rfl
      rw [r]
      show cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ (fpolyAddTerm ops c m p)
        = cc.cast c * fmonoEval cc σ m + (cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p)
      rw [ih, ← add_assoc, ← add_assoc, add_comm (cc.cast e.1 * fmonoEval cc σ e.2)]
    · have r : fpolyAddTerm ops c m (e :: p) = (ops.add c e.1, e.2) :: p := by
        show cond (fmonoEq ops m e.2) ((ops.add c e.1, e.2) :: p) (e :: fpolyAddTerm ops c m p) = _
        rw [h]
        rfl
      rw [r]
      show cc.cast (ops.add c e.1) * fmonoEval cc σ e.2 + fpolyEval cc σ p
        = cc.cast c * fmonoEval cc σ m + (cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p)
      rw [cc.cast_add, fmonoEq_sound cc σ m e.2 h, add_mul, add_assoc]

theorem fpolyEval_add (σ : Env α) (p q : FPoly C) :
    fpolyEval cc σ (fpolyAdd ops p q) = fpolyEval cc σ p + fpolyEval cc σ q := by
  induction p with
  | nil => exact (zero_add _).symm
  | cons e p ih =>
    show fpolyEval cc σ (fpolyAddTerm ops e.1 e.2 (fpolyAdd ops p q))
      = cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p + fpolyEval cc σ q
    rw [fpolyEval_addTerm, ih, add_assoc]

theorem fpolyEval_scale (σ : Env α) (s : C) (p : FPoly C) :
    fpolyEval cc σ (fpolyScale ops s p) = cc.cast s * fpolyEval cc σ p := by
  induction p with
  | nil => exact (mul_zero _).symm
  | cons e p ih =>
    show cc.cast (ops.mul s e.1) * fmonoEval cc σ e.2 + fpolyEval cc σ (fpolyScale ops s p)
      = cc.cast s * (cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p)
    rw [ih, cc.cast_mul, mul_add, mul_assoc]

theorem fpolyEval_mulTerm (σ : Env α) (c : C) (m : FMono C) (q : FPoly C) :
    fpolyEval cc σ (fpolyMulTerm ops c m q) = cc.cast c * fmonoEval cc σ m * fpolyEval cc σ q := by
  induction q with
  | nil => exact (mul_zero _).symm
  | cons e q ih =>
    show cc.cast (ops.mul c e.1) * fmonoEval cc σ (fmonoMul ops m e.2)
        + fpolyEval cc σ (fpolyMulTerm ops c m q)
      = cc.cast c * fmonoEval cc σ m * (cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ q)
    rw [ih, cc.cast_mul, fmonoEval_mul, mul_add, mul_mul_mul_comm']

theorem fpolyEval_mul (σ : Env α) (p q : FPoly C) :
    fpolyEval cc σ (fpolyMul ops p q) = fpolyEval cc σ p * fpolyEval cc σ q := by
  induction p with
  | nil => exact (zero_mul _).symm
  | cons e p ih =>
    show fpolyEval cc σ (fpolyAdd ops (fpolyMulTerm ops e.1 e.2 q) (fpolyMul ops p q))
      = (cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p) * fpolyEval cc σ q
    rw [fpolyEval_add, fpolyEval_mulTerm, ih, add_mul]

theorem fpolyEval_neg (σ : Env α) (p : FPoly C) :
    fpolyEval cc σ (fpolyNeg ops p) = -fpolyEval cc σ p := by
  show fpolyEval cc σ (fpolyScale ops (ops.neg ops.one) p) = _
  rw [fpolyEval_scale, cc.cast_neg, cc.cast_one, neg_one_mul]

theorem fpolyEval_sub (σ : Env α) (p q : FPoly C) :
    fpolyEval cc σ (fpolySub ops p q) = fpolyEval cc σ p - fpolyEval cc σ q := by
  show fpolyEval cc σ (fpolyAdd ops p (fpolyNeg ops q)) = _
  rw [fpolyEval_add, fpolyEval_neg]
  rfl

theorem fpolyEval_allZero (σ : Env α) (p : FPoly C) (h : fpolyAllZero ops p = true) :
    fpolyEval cc σ p = 0 := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    show cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p = 0
    rw [cc.isZero_sound e.1 (and_left' h), ih (and_right' h), zero_mul, add_zero]

theorem fpolyEval_app (σ : Env α) (p q : FPoly C) :
    fpolyEval cc σ (fpolyApp p q) = fpolyEval cc σ p + fpolyEval cc σ q := by
  induction p with
  | nil => exact (zero_add _).symm
  | cons e p ih =>
    show cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ (fpolyApp p q)
      = cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p + fpolyEval cc σ q
    rw [ih, add_assoc]

theorem fpolyEval_mulR (σ : Env α) (p q : FPoly C) :
    fpolyEval cc σ (fpolyMulR ops p q) = fpolyEval cc σ p * fpolyEval cc σ q := by
  induction p with
  | nil => exact (zero_mul _).symm
  | cons e p ih =>
    show fpolyEval cc σ (fpolyApp (fpolyMulTerm ops e.1 e.2 q) (fpolyMulR ops p q))
      = (cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p) * fpolyEval cc σ q
    rw [fpolyEval_app, fpolyEval_mulTerm, ih, add_mul]

theorem fpolyEval_subR (σ : Env α) (p q : FPoly C) :
    fpolyEval cc σ (fpolySubR ops p q) = fpolyEval cc σ p - fpolyEval cc σ q := by
  show fpolyEval cc σ (fpolyApp p (fpolyNeg ops q)) = _
  rw [fpolyEval_app, fpolyEval_neg]
  rfl

theorem fpolyEval_split (σ : Env α) : (p : FPoly C) →
    fpolyEval cc σ (fsplit p).1 + fpolyEval cc σ (fsplit p).2 = fpolyEval cc σ p
  | [] => add_zero _
  | [a] => add_zero _
  | a :: b :: p => by
    have ih := fpolyEval_split σ p
    show cc.cast a.1 * fmonoEval cc σ a.2 + fpolyEval cc σ (fsplit p).1
        + (cc.cast b.1 * fmonoEval cc σ b.2 + fpolyEval cc σ (fsplit p).2)
      = cc.cast a.1 * fmonoEval cc σ a.2 + (cc.cast b.1 * fmonoEval cc σ b.2 + fpolyEval cc σ p)
    rw [← ih, add_assoc, ← add_assoc (fpolyEval cc σ (fsplit p).1),
      add_comm (fpolyEval cc σ (fsplit p).1) (cc.cast b.1 * fmonoEval cc σ b.2), add_assoc]

theorem fpolyEval_mergeK (σ : Env α) (n : Nat) : (p q : FPoly C) →
    fpolyEval cc σ (fmergeK n p q) = fpolyEval cc σ p + fpolyEval cc σ q := by
  induction n with
  | zero => intro p q; exact fpolyEval_app cc σ p q
  | succ n ih =>
    intro p q
    cases p with
    | nil => exact (zero_add _).symm
    | cons a p =>
      cases q with
      | nil => exact (add_zero _).symm
      | cons b q =>
        show fpolyEval cc σ (cond (fkeyLt b.2 a.2) (b :: fmergeK n (a :: p) q)
            (a :: fmergeK n p (b :: q)))
          = cc.cast a.1 * fmonoEval cc σ a.2 + fpolyEval cc σ p
            + (cc.cast b.1 * fmonoEval cc σ b.2 + fpolyEval cc σ q)
        cases fkeyLt b.2 a.2 with
        | true =>
          show cc.cast b.1 * fmonoEval cc σ b.2 + fpolyEval cc σ (fmergeK n (a :: p) q) = _
          rw [ih]
          show cc.cast b.1 * fmonoEval cc σ b.2 + (cc.cast a.1 * fmonoEval cc σ a.2
              + fpolyEval cc σ p + fpolyEval cc σ q) = _
          rw [← add_assoc, add_comm (cc.cast b.1 * fmonoEval cc σ b.2), add_assoc, add_assoc,
            add_comm (cc.cast b.1 * fmonoEval cc σ b.2) (fpolyEval cc σ q)]
        | false =>
          show cc.cast a.1 * fmonoEval cc σ a.2 + fpolyEval cc σ (fmergeK n p (b :: q)) = _
          rw [ih, add_assoc]
          rfl

theorem fpolyEval_sortN (σ : Env α) (n : Nat) : (p : FPoly C) →
    fpolyEval cc σ (fsortN n p) = fpolyEval cc σ p := by
  induction n with
  | zero => intro p; rfl
  | succ n ih =>
    intro p
    match p with
    | [] => rfl
    | [a] => rfl
    | a :: b :: p =>
      show fpolyEval cc σ (fmergeK _ (fsortN n (fsplit (a :: b :: p)).1)
          (fsortN n (fsplit (a :: b :: p)).2)) = _
      rw [fpolyEval_mergeK, ih, ih, fpolyEval_split]

theorem fpolyEval_addTermS (σ : Env α) (c : C) (m : FMono C) (p : FPoly C) :
    fpolyEval cc σ (fpolyAddTermS ops c m p) = cc.cast c * fmonoEval cc σ m + fpolyEval cc σ p := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    show fpolyEval cc σ (cond (fmonoEq ops m e.2) ((ops.add c e.1, e.2) :: p)
        (cond (fkeyEq m e.2) (e :: fpolyAddTermS ops c m p) ((c, m) :: e :: p)))
      = cc.cast c * fmonoEval cc σ m + (cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p)
    cases h : fmonoEq ops m e.2 with
    | true =>
      show cc.cast (ops.add c e.1) * fmonoEval cc σ e.2 + fpolyEval cc σ p = _
      rw [cc.cast_add, fmonoEq_sound cc σ m e.2 h, add_mul, add_assoc]
    | false =>
      cases fkeyEq m e.2 with
      | true =>
        show cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ (fpolyAddTermS ops c m p) = _
        rw [ih, ← add_assoc, ← add_assoc, add_comm (cc.cast e.1 * fmonoEval cc σ e.2)]
      | false => rfl

theorem fpolyEval_collectS (σ : Env α) (p : FPoly C) :
    fpolyEval cc σ (fcollectS ops p) = fpolyEval cc σ p := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    show fpolyEval cc σ (fpolyAddTermS ops e.1 e.2 (fcollectS ops p)) = _
    rw [fpolyEval_addTermS, ih]
    rfl

theorem fpolyIsZero_sound (σ : Env α) (p : FPoly C) (h : fpolyIsZero ops p = true) :
    fpolyEval cc σ p = 0 := by
  have z := fpolyEval_allZero cc σ _ h
  rw [fpolyEval_collectS] at z
  have e : fpolyEval cc σ (fsortN p.length p) = fpolyEval cc σ p := fpolyEval_sortN cc σ _ p
  exact e ▸ z

/-- The atoms `P` marks positive are positive in `σ` (atom `n` is the variable `(0, n)`). -/
def PosEnv (P : Nat → Bool) (σ : Env α) : Prop := ∀ n, P n = true → pos (σ 0 n)

theorem varPos_pos (P : Nat → Bool) (σ : Env α) (hP : PosEnv P σ) (v : Var)
    (h : varPos P v = true) : pos (σ v.1 v.2) := by
  cases v with
  | mk a n =>
    cases a with
    | zero => exact hP n h
    | succ a => cases h

/-- A monomial whose variables that are not positive atoms occur to even powers is `nn`. -/
theorem monoNN_nn (P : Nat → Bool) (σ : Env α) (hP : PosEnv P σ) (m : Mono) :
    (monoNN P m = true → nn (monoEval σ m)) ∧
      ∀ v, monoNN P (v :: m) = true → nn (monoEval σ (v :: m)) := by
  induction m with
  | nil =>
    refine ⟨fun _ => pos_nn _ pos_one, ?_⟩
    intro v h
    show nn (σ v.1 v.2 * 1)
    rw [mul_one]
    exact pos_nn _ (varPos_pos P σ hP v h)
  | cons w m ih =>
    refine ⟨ih.2 w, ?_⟩
    intro v h
    have h' : cond (varPos P v) (monoNN P (w :: m)) (decide (v = w) && monoNN P m) = true := h
    cases hv : varPos P v
    · rw [hv] at h'
      have e : v = w := of_decide_eq_true' (and_left' h')
      show nn (σ v.1 v.2 * (σ w.1 w.2 * monoEval σ m))
      rw [← e, ← mul_assoc]
      exact nn_mul _ _ (nn_mul_self _) (ih.1 (and_right' h'))
    · rw [hv] at h'
      exact nn_mul _ _ (pos_nn _ (varPos_pos P σ hP v hv)) (ih.2 w h')

/-- A monomial of positive atoms only is positive. -/
theorem monoAllPos_pos (P : Nat → Bool) (σ : Env α) (hP : PosEnv P σ) (m : Mono)
    (h : monoAllPos P m = true) : pos (monoEval σ m) := by
  induction m with
  | nil => exact pos_one
  | cons v m ih => exact pos_mul _ _ (varPos_pos P σ hP v (and_left' h)) (ih (and_right' h))

/-- Leaving out zero-tested monomials does not change the value. -/
theorem fpolyEval_dropZero (σ : Env α) (p : FPoly C) :
    fpolyEval cc σ (dropZero ops p) = fpolyEval cc σ p := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    have h1 : dropZero ops (e :: p) = cond (ops.isZero e.1) (dropZero ops p)
        (e :: dropZero ops p) := rfl
    have h2 : fpolyEval cc σ (e :: p) = cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p := rfl
    rw [h1, h2]
    cases hz : ops.isZero e.1
    · rw [cond_false']
      show cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ (dropZero ops p) = _
      rw [ih]
    · rw [cond_true', ih, cc.isZero_sound e.1 hz, zero_mul, zero_add]

/-- A polynomial passing `positiveAll` is `nn` (each term: a positive coefficient, an `nn`
monomial, a positive power of two), and `pos` if moreover some monomial is of positive atoms
only (that term is `pos`, the others `nn`). -/
theorem positiveAll_sound (P : Nat → Bool) (σ : Env α) (hP : PosEnv P σ) (p : FPoly C)
    (h : positiveAll ops P p = true) :
    nn (fpolyEval cc σ p) ∧ (anyStrict P p = true → pos (fpolyEval cc σ p)) := by
  induction p with
  | nil => exact ⟨nn_zero, fun h' => by cases h'⟩
  | cons e p ih =>
    have hc := cc.isPos_sound _ (and_left' (and_left' h))
    have hm := (monoNN_nn P σ hP e.2.1).1 (and_right' (and_left' h))
    have r := ih (and_right' h)
    have hpow := pos_pow2 (polyEval cc.toCoeffCast σ e.2.2)
    have tn : nn (cc.cast e.1 * fmonoEval cc σ e.2) :=
      nn_mul _ _ (pos_nn _ hc) (nn_mul _ _ hm (pos_nn _ hpow))
    refine ⟨nn_add _ _ tn r.1, ?_⟩
    intro hs
    show pos (cc.cast e.1 * fmonoEval cc σ e.2 + fpolyEval cc σ p)
    have hs' : (monoAllPos P e.2.1 || anyStrict P p) = true := hs
    cases ha : monoAllPos P e.2.1
    · rw [ha] at hs'
      rw [add_comm]
      exact pos_add_nn _ _ (r.2 hs') tn
    · exact pos_add_nn _ _ (pos_mul _ _ hc (pos_mul _ _ (monoAllPos_pos P σ hP _ ha) hpow)) r.1

/-- A `positive` polynomial denotes a positive element, wherever the atoms `P` marks are
positive. -/
theorem positive_pos (P : Nat → Bool) (σ : Env α) (hP : PosEnv P σ) (p : FPoly C)
    (h : positive ops P p = true) : pos (fpolyEval cc σ p) := by
  rw [← fpolyEval_dropZero cc σ p]
  exact (positiveAll_sound cc P σ hP (dropZero ops p) (and_left' h)).2 (and_right' h)

/-- ... hence never zero: a denominator that passes the test never divides by zero. -/
theorem positive_ne_zero (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (p : FPoly C)
    (h : positive ops P p = true) : fpolyEval cc σ p ≠ 0 :=
  pos_ne_zero _ (positive_pos cc P σ hP p h)

end FieldPolySound

/-- `l ++ T`, structurally (core's `++` is tail-recursive and its lemmas use `propext`). -/
def prepend {β : Type} : List β → List β → List β
  | [], T => T
  | e :: l, T => e :: prepend l T

section NFModel

/-! ## Normal forms and the atom table (model) -/

variable {K C : Type} (ops : FieldCoeffOps K C)

def fpolyOne : FPoly C := [(ops.one, ([], []))]

def nfOne : NF C := (fpolyOne ops, fpolyOne ops)

def nfConst (k : K) : NF C := ([(ops.ofConst k, ([], []))], fpolyOne ops)

def nfVar (v : Var) : NF C := ([(ops.one, ([v], []))], fpolyOne ops)

/-- `2^E` (Rust: the monomial with `exp: id`). -/
def nfExp (E : Poly C) : NF C := ([(ops.one, ([], E))], fpolyOne ops)

/-- `a/b + c/d = (a·d + c·b) / (b·d)` (Rust `add`; its shortcut for equal denominators is not
modelled, see the README). -/
def nfAdd (a b : NF C) : NF C :=
  (fpolyAdd ops (fpolyMul ops a.1 b.2) (fpolyMul ops b.1 a.2), fpolyMul ops a.2 b.2)

def nfNeg (a : NF C) : NF C := (fpolyNeg ops a.1, a.2)

def nfSub (a b : NF C) : NF C := nfAdd ops a (nfNeg ops b)

def nfMul (a b : NF C) : NF C := (fpolyMul ops a.1 b.1, fpolyMul ops a.2 b.2)

/-- `(a/b) / (c/d) = (a·d) / (b·c)` (Rust `div`). -/
def nfDiv (a b : NF C) : NF C := (fpolyMul ops a.1 b.2, fpolyMul ops a.2 b.1)

/-- Both denominators positive (the positive atoms `P`) and the cross-multiplied numerators
equal (Rust: the final test of `field_normalize`, also used here to recognise an atom already
in the table). -/
def nfEquiv (P : Nat → Bool) (a b : NF C) : Bool :=
  positive ops P a.2 && positive ops P b.2 &&
    fpolyIsZero ops (fpolySubR ops (fpolyMulR ops a.1 b.2) (fpolyMulR ops b.1 a.2))

/-- `p · 2^(-E)`: every monomial's exponent minus `E` (Rust `shifted`, its closure `shift`). -/
def fpolyShift (E : Poly C) : FPoly C → FPoly C
  | [] => []
  | e :: p => (e.1, (e.2.1, polySubC ops.toCoeffOps e.2.2 E)) :: fpolyShift E p

/-- The exponents of the monomials of a polynomial. -/
def fpolyExps : FPoly C → List (Poly C)
  | [] => []
  | e :: p => e.2.2 :: fpolyExps p

/-- `a` shifted by `2^(-E)` and `b` by `2^(-F)` coincide, numerators and denominators. -/
def shiftPairEq (a b : NF C) (E F : Poly C) : Bool :=
  fpolyIsZero ops (fpolySubR ops (fpolyShift ops E a.1) (fpolyShift ops F b.1)) &&
    fpolyIsZero ops (fpolySubR ops (fpolyShift ops E a.2) (fpolyShift ops F b.2))

def anyShiftF (a b : NF C) (E : Poly C) : List (Poly C) → Bool
  | [] => false
  | F :: l => shiftPairEq ops a b E F || anyShiftF a b E l

def anyShift (a b : NF C) (Fs : List (Poly C)) : List (Poly C) → Bool
  | [] => false
  | E :: l => anyShiftF ops a b E Fs || anyShift a b Fs l

/-- The shifted comparison (Rust `shifted` in `field_normalize_in`): both denominators
positive, and for some exponent `E` of `a`'s denominator and `F` of `b`'s, `a · 2^(-E)` and
`b · 2^(-F)` coincide.  The Rust takes for `E` (`F`) the least exponent under `exp_cmp`, one of
the pairs tried here. -/
def shiftedEq (P : Nat → Bool) (a b : NF C) : Bool :=
  positive ops P a.2 && positive ops P b.2 && anyShift ops a b (fpolyExps b.2) (fpolyExps a.2)

/-- The final comparison of the rule (Rust `field_normalize_in`): cross-multiplication
(`nfEquiv`; the Rust's first test, equal forms, is a case of it) or the shifted forms. -/
def nfFinal (P : Nat → Bool) (a b : NF C) : Bool := nfEquiv ops P a b || shiftedEq ops P a b

/-- The constant a polynomial is, if it is one coefficient times `2^0` (Rust `as_constant`,
nonzero case). -/
def constOf : FPoly C → Option C
  | [(c, ([], e))] => cond (polyIsZero ops e) (some c) none
  | _ => none

/-- An exponential polynomial without exponentials, as a ring polynomial. -/
def toRing : FPoly C → Option (Poly C)
  | [] => some []
  | e :: p => cond (polyIsZero ops e.2.2) (lift1 (fun q => (e.1, e.2.1) :: q) (toRing p)) none

def nfEx2Inv (n : FPoly C) : Option C → Option (Poly C)
  | some k => lift1 (polyScaleC ops.toCoeffOps k) (toRing ops n)
  | none => none

def nfEx2Of (n : FPoly C) : Option C → Option (Poly C)
  | some c => nfEx2Inv ops n (ops.invExact c)
  | none => none

/-- The exponent `E` with `ex2 (P / c) = 2^E`, when the denominator is a constant `c` with an
exact inverse and `P` has no exponentials (Rust `ex2`: `2^(P·(1/c))`; Rust also admits nested
exponentials in `P`, this model makes them an atom). -/
def nfEx2 (v : NF C) : Option (Poly C) := nfEx2Of ops v.1 (constOf ops v.2)

/-- What an atom is: an opaque function of its arguments (Rust `Atom`). -/
inductive Tag where
  | func (f : Func)
  | max
  | min
  | select (op : CmpOp)
  deriving DecidableEq

/-- An atom of the table: its kind and the normal forms of its arguments (Rust `Atom`), and,
for the proof only, the term it was made for (`src`; nothing in the rule reads it). -/
structure Entry (K C : Type) where
  tag : Tag
  args : List (NF C)
  src : Term K

/-- The atom table, newest first: the atom of entry `e :: T` is number `T.length` (Rust:
`atoms`, appended to, indexed from the first). -/
abbrev Tab (K C : Type) : Type := List (Entry K C)

/-- Whether an atom of this kind and these arguments is positive at every input, given the
positive atoms `P` of the older table (Rust `atom_pos`): `2^x`, and `sqrt x` of an argument
whose numerator and denominator are `positive` (Rust `positive_value`). -/
def entryPosOf (P : Nat → Bool) : Tag → List (NF C) → Bool
  | Tag.func Func.ex2, [_] => true
  | Tag.func Func.sqrt, [a] => positive ops P a.1 && positive ops P a.2
  | _, _ => false

def entryPos (P : Nat → Bool) (e : Entry K C) : Bool := entryPosOf ops P e.tag e.args

/-- The positive atoms of a table (Rust `atom_pos`, computed from each entry and the entries
older than it). -/
def tabPos : Tab K C → Nat → Bool
  | [] => fun _ => false
  | e :: T => fun n => if n = T.length then entryPos ops (tabPos T) e else tabPos T n

variable (P : Nat → Bool)

/-- Arguments pairwise equivalent (Rust: equal canonical normal forms). -/
def argsMatch : List (NF C) → List (NF C) → Bool
  | [], [] => true
  | a :: l, b :: l' => nfEquiv ops P a b && argsMatch l l'
  | _, _ => false

def anyEquiv (a : NF C) : List (NF C) → Bool
  | [] => false
  | b :: l => nfEquiv ops P a b || anyEquiv a l

/-- Every element of the first list is equivalent to one of the second. -/
def subsetB : List (NF C) → List (NF C) → Bool
  | [], _ => true
  | a :: l, l' => anyEquiv ops P a l' && subsetB l l'

def isLattice : Tag → Bool
  | Tag.max => true
  | Tag.min => true
  | _ => false

/-- Arguments of the same atom: as sets for `max`/`min` (Rust: sorted, deduplicated), pairwise
otherwise. -/
def argsMatchTag (tag : Tag) (l l' : List (NF C)) : Bool :=
  cond (isLattice tag) (subsetB ops P l l' && subsetB ops P l' l) (argsMatch ops P l l')

/-- The number of an atom of the table with this kind and these arguments (Rust `atom_ids`). -/
def findAtom (tag : Tag) (args : List (NF C)) : Tab K C → Option Nat
  | [] => none
  | e :: T => cond (decide (e.tag = tag) && argsMatchTag ops P tag e.args args) (some T.length)
      (findAtom tag args T)

def allPosDen : List (NF C) → Bool
  | [] => true
  | a :: l => positive ops P a.2 && allPosDen l

def allEquivTo (v0 : NF C) : List (NF C) → Bool
  | [] => true
  | b :: l => nfEquiv ops P b v0 && allEquivTo v0 l

/-- The normal form of atom number `n`: the variable `(0, n)`. -/
def atomNF (n : Nat) : NF C := nfVar ops (0, n)

def mkAtomAt (tag : Tag) (args : List (NF C)) (src : Term K) (T : Tab K C) :
    Option Nat → NF C × Tab K C
  | some n => (atomNF ops n, T)
  | none => (atomNF ops T.length, ⟨tag, args, src⟩ :: T)

/-- The atom for `tag args`: the one in the table, or a new one (Rust `atom`). -/
def mkAtom (tag : Tag) (args : List (NF C)) (src : Term K) (T : Tab K C) : NF C × Tab K C :=
  mkAtomAt ops tag args src T (findAtom ops (tabPos ops T) tag args T)

/-- An atom, provided every argument has a positive denominator (Rust `atom`). -/
def atom (tag : Tag) (args : List (NF C)) (src : Term K) (T : Tab K C) :
    Option (NF C × Tab K C) :=
  cond (allPosDen ops (tabPos ops T) args) (some (mkAtom ops tag args src T)) none

/-- The atom number of a normal form `c · (0, n) · 2^E / d`, a candidate for being exactly atom
`n` (`latticeArgs` checks it). -/
def atomNum : FPoly C → Option Nat
  | [(_, ([(0, n)], _))] => some n
  | _ => none

def lookupEntry : Tab K C → Nat → Option (Entry K C)
  | [], _ => none
  | e :: T, n => if n = T.length then some e else lookupEntry T n

def nonEmpty {β : Type} : List β → Bool
  | [] => false
  | _ :: _ => true

def entryArgs (tag : Tag) (v : NF C) : Option (Entry K C) → List (NF C)
  | some e => cond (decide (e.tag = tag) && nonEmpty e.args) e.args [v]
  | none => [v]

def latticeArgsOf (tag : Tag) (T : Tab K C) (v : NF C) : Option Nat → List (NF C)
  | some n => cond (nfEquiv ops (tabPos ops T) v (atomNF ops n)) (entryArgs tag v (lookupEntry T n)) [v]
  | none => [v]

/-- The arguments of a `max` (`min`) atom, when `v` is exactly one, else `[v]` (Rust
`lattice_args`). -/
def latticeArgs (tag : Tag) (T : Tab K C) (v : NF C) : List (NF C) :=
  latticeArgsOf ops tag T v (atomNum v.1)

def latticeOf (tag : Tag) (src : Term K) (T : Tab K C) : List (NF C) → Option (NF C × Tab K C)
  | [] => none
  | v0 :: rest => cond (allPosDen ops (tabPos ops T) (v0 :: rest)
      && allEquivTo ops (tabPos ops T) v0 rest) (some (v0, T))
      (atom ops tag (v0 :: rest) src T)

/-- `max(a, b)` (`min`): the arguments of both sides flattened; one argument up to equivalence is
that argument, otherwise an atom matched as a set (Rust `lattice`, without infinities). -/
def lattice (tag : Tag) (va vb : NF C) (src : Term K) (T : Tab K C) : Option (NF C × Tab K C) :=
  latticeOf ops tag src T (prepend (latticeArgs ops tag T va) (latticeArgs ops tag T vb))

def andThen (r : Option (NF C × Tab K C)) (f : NF C → Tab K C → Option (NF C × Tab K C)) :
    Option (NF C × Tab K C) :=
  match r with
  | some p => f p.1 p.2
  | none => none

def inputNF (i : Nat) (T : Tab K C) : Option Nat → Option (NF C × Tab K C)
  | some p => some (nfVar ops (p + 1, i), T)
  | none => none

def ex2Of (src : Term K) (va : NF C) (T : Tab K C) : Option (Poly C) → Option (NF C × Tab K C)
  | some E => some (nfExp ops E, T)
  | none => atom ops (Tag.func Func.ex2) [va] src T

/-- `rsqrt a`, given the normal form `va` of `a` and whether it is provably positive: then
`1 / s` for the atom `s = sqrt a` (Rust: `rsqrt x = 1 / sqrt x` for a provably positive `x`,
through `div`), otherwise an atom of its own. -/
def rsqrtOf (a : Term K) (va : NF C) (T : Tab K C) : Bool → Option (NF C × Tab K C)
  | true => andThen (atom ops (Tag.func Func.sqrt) [va] (Term.app Func.sqrt a) T) fun s T2 =>
      cond (positive ops (tabPos ops T2) s.2) (some (nfDiv ops (nfOne ops) s, T2)) none
  | false => atom ops (Tag.func Func.rsqrt) [va] (Term.app Func.rsqrt a) T

/-- `f a`, given the normal form `va` of `a`: `ex2` exactly where it can, `rcp` as `1/a`,
`rsqrt` as `1 / sqrt a` where `a` is provably positive, any other function an atom (Rust
`value_at`, `Node::Apply`). -/
def normApp (a : Term K) (va : NF C) (T : Tab K C) : Func → Option (NF C × Tab K C)
  | Func.ex2 => ex2Of ops (Term.app Func.ex2 a) va T (nfEx2 ops va)
  | Func.rcp => cond (positive ops (tabPos ops T) va.2) (some (nfDiv ops (nfOne ops) va, T)) none
  | Func.rsqrt => rsqrtOf ops a va T
      (positive ops (tabPos ops T) va.1 && positive ops (tabPos ops T) va.2)
  | f => atom ops (Tag.func f) [va] (Term.app f a) T

/-- The normal form of a term (Rust `Normalizer::value`), threading the atom table. `none`
where the Rust rule fails, and also on infinities and on divisions by a quotient
whose denominator is not positive (see the README). -/
def norm (m : Nat → Option Nat) : Term K → Tab K C → Option (NF C × Tab K C)
  | Term.const k, T => some (nfConst ops k, T)
  | Term.input t i, T => inputNF ops i T (m t)
  | Term.add a b, T => andThen (norm m a T) fun va T1 =>
      andThen (norm m b T1) fun vb T2 => some (nfAdd ops va vb, T2)
  | Term.sub a b, T => andThen (norm m a T) fun va T1 =>
      andThen (norm m b T1) fun vb T2 => some (nfSub ops va vb, T2)
  | Term.mul a b, T => andThen (norm m a T) fun va T1 =>
      andThen (norm m b T1) fun vb T2 => some (nfMul ops va vb, T2)
  | Term.div a b, T => andThen (norm m a T) fun va T1 =>
      andThen (norm m b T1) fun vb T2 =>
        cond (positive ops (tabPos ops T2) vb.2) (some (nfDiv ops va vb, T2)) none
  | Term.fma a b c, T => andThen (norm m a T) fun va T1 =>
      andThen (norm m b T1) fun vb T2 =>
        andThen (norm m c T2) fun vc T3 => some (nfAdd ops (nfMul ops va vb) vc, T3)
  | Term.neg a, T => andThen (norm m a T) fun va T1 => some (nfNeg ops va, T1)
  | Term.max a b, T => andThen (norm m a T) fun va T1 =>
      andThen (norm m b T1) fun vb T2 => lattice ops Tag.max va vb (Term.max a b) T2
  | Term.min a b, T => andThen (norm m a T) fun va T1 =>
      andThen (norm m b T1) fun vb T2 => lattice ops Tag.min va vb (Term.min a b) T2
  | Term.app f a, T => andThen (norm m a T) fun va T1 => normApp ops a va T1 f
  | Term.select (Term.cmp op l r) a b, T => andThen (norm m l T) fun vl T1 =>
      andThen (norm m r T1) fun vr T2 => andThen (norm m a T2) fun va T3 =>
        andThen (norm m b T3) fun vb T4 =>
          atom ops (Tag.select op) [vl, vr, va, vb] (Term.select (Term.cmp op l r) a b) T4
  | _, _ => none

end NFModel

section NFSound

/-! ## Normal forms denote quotients

`Rep σ v x`: if the denominator of `v` is not zero, `x · den = num` (in the environment `σ`).
This is what normalization preserves; the final positivity test makes the hypothesis hold. -/

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)

def Rep (σ : Env α) (v : NF C) (x : α) : Prop :=
  fpolyEval cc σ v.2 ≠ 0 → x * fpolyEval cc σ v.2 = fpolyEval cc σ v.1

/-- The quotient a normal form denotes. -/
def nfVal (σ : Env α) (v : NF C) : α := fpolyEval cc σ v.1 / fpolyEval cc σ v.2

theorem fpolyEval_single (σ : Env α) (c : C) (m : FMono C) :
    fpolyEval cc σ [(c, m)] = cc.cast c * fmonoEval cc σ m :=
  add_zero _

theorem fpolyEval_one (σ : Env α) : fpolyEval cc σ (fpolyOne ops) = 1 := by
  show cc.cast ops.one * (1 * pow2 0) + 0 = 1
  rw [cc.cast_one, pow2_zero, one_mul, one_mul, add_zero]

theorem rep_var (σ : Env α) (v : Var) : Rep cc σ (nfVar ops v) (σ v.1 v.2) := by
  intro _
  show σ v.1 v.2 * fpolyEval cc σ (fpolyOne ops) = cc.cast ops.one * (σ v.1 v.2 * 1 * pow2 0) + 0
  simp only [fpolyEval_one, cc.cast_one, pow2_zero, mul_one, one_mul, add_zero]
  rfl

theorem rep_const (I : Interp K α) (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (σ : Env α) (k : K) : Rep cc σ (nfConst ops k) (I.const k) := by
  intro _
  show I.const k * fpolyEval cc σ (fpolyOne ops) = cc.cast (ops.ofConst k) * (1 * pow2 0) + 0
  simp only [fpolyEval_one, hconst, pow2_zero, mul_one, add_zero]
  rfl

theorem rep_exp (σ : Env α) (E : Poly C) :
    Rep cc σ (nfExp ops E) (pow2 (polyEval cc.toCoeffCast σ E)) := by
  intro _
  show pow2 (polyEval cc.toCoeffCast σ E) * fpolyEval cc σ (fpolyOne ops)
    = cc.cast ops.one * (1 * pow2 (polyEval cc.toCoeffCast σ E)) + 0
  rw [fpolyEval_one, cc.cast_one, mul_one, one_mul, one_mul, add_zero]

theorem rep_one (σ : Env α) : Rep cc σ (nfOne ops) 1 := by
  intro _
  show 1 * fpolyEval cc σ (fpolyOne ops) = fpolyEval cc σ (fpolyOne ops)
  rw [one_mul]

theorem rep_add (σ : Env α) (a b : NF C) (x y : α) (ha : Rep cc σ a x) (hb : Rep cc σ b y) :
    Rep cc σ (nfAdd ops a b) (x + y) := by
  intro hD
  have hD' : fpolyEval cc σ a.2 * fpolyEval cc σ b.2 ≠ 0 := by
    rw [← fpolyEval_mul]
    exact hD
  show (x + y) * fpolyEval cc σ (fpolyMul ops a.2 b.2)
    = fpolyEval cc σ (fpolyAdd ops (fpolyMul ops a.1 b.2) (fpolyMul ops b.1 a.2))
  rw [fpolyEval_add, fpolyEval_mul, fpolyEval_mul, fpolyEval_mul, ← ha (ne_zero_left hD'),
    ← hb (ne_zero_right hD'), add_mul, mul_assoc, mul_assoc y, mul_comm (fpolyEval cc σ b.2)]

theorem rep_neg (σ : Env α) (a : NF C) (x : α) (ha : Rep cc σ a x) :
    Rep cc σ (nfNeg ops a) (-x) := by
  intro hD
  show -x * fpolyEval cc σ a.2 = fpolyEval cc σ (fpolyNeg ops a.1)
  rw [fpolyEval_neg, neg_mul, ha hD]

theorem rep_sub (σ : Env α) (a b : NF C) (x y : α) (ha : Rep cc σ a x) (hb : Rep cc σ b y) :
    Rep cc σ (nfSub ops a b) (x - y) :=
  rep_add cc σ a (nfNeg ops b) x (-y) ha (rep_neg cc σ b y hb)

theorem rep_mul (σ : Env α) (a b : NF C) (x y : α) (ha : Rep cc σ a x) (hb : Rep cc σ b y) :
    Rep cc σ (nfMul ops a b) (x * y) := by
  intro hD
  have hD' : fpolyEval cc σ a.2 * fpolyEval cc σ b.2 ≠ 0 := by
    rw [← fpolyEval_mul]
    exact hD
  show x * y * fpolyEval cc σ (fpolyMul ops a.2 b.2) = fpolyEval cc σ (fpolyMul ops a.1 b.1)
  rw [fpolyEval_mul, fpolyEval_mul, ← ha (ne_zero_left hD'), ← hb (ne_zero_right hD'),
    mul_mul_mul_comm']

/-- Division, when the divisor's denominator is not zero (the model checks it is positive). -/
theorem rep_div (σ : Env α) (a b : NF C) (x y : α) (ha : Rep cc σ a x) (hb : Rep cc σ b y)
    (hbd : fpolyEval cc σ b.2 ≠ 0) : Rep cc σ (nfDiv ops a b) (x / y) := by
  intro hD
  have hD' : fpolyEval cc σ a.2 * fpolyEval cc σ b.1 ≠ 0 := by
    rw [← fpolyEval_mul]
    exact hD
  have ey : y * fpolyEval cc σ b.2 = fpolyEval cc σ b.1 := hb hbd
  have hy : y ≠ 0 := by
    intro h0
    apply ne_zero_right hD'
    rw [← ey, h0, zero_mul]
  show x / y * fpolyEval cc σ (fpolyMul ops a.2 b.1) = fpolyEval cc σ (fpolyMul ops a.1 b.2)
  rw [fpolyEval_mul, fpolyEval_mul, ← ha (ne_zero_left hD'), ← ey, div_def,
    mul_left_comm (fpolyEval cc σ a.2) y, mul_assoc x (inv y), ← mul_assoc (inv y) y,
    mul_comm (inv y) y, mul_inv y hy, one_mul, ← mul_assoc]

/-- Over a nonzero denominator, the represented value is the quotient. -/
theorem rep_val (σ : Env α) (v : NF C) (x : α) (h : Rep cc σ v x)
    (hD : fpolyEval cc σ v.2 ≠ 0) : nfVal cc σ v = x := by
  show fpolyEval cc σ v.1 / fpolyEval cc σ v.2 = x
  rw [div_def, ← h hD, mul_assoc, mul_inv _ hD, mul_one]

/-- Equivalent normal forms denote the same quotient. -/
theorem nfEquiv_sound (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (a b : NF C)
    (h : nfEquiv ops P a b = true) : nfVal cc σ a = nfVal cc σ b := by
  have ha := positive_ne_zero cc σ P hP a.2 (and_left' (and_left' h))
  have hb := positive_ne_zero cc σ P hP b.2 (and_right' (and_left' h))
  have z := fpolyIsZero_sound cc σ _ (and_right' h)
  rw [fpolyEval_subR, fpolyEval_mulR, fpolyEval_mulR] at z
  exact div_eq_div_of_cross _ _ _ _ ha hb (eq_of_sub_eq_zero z)

theorem fpolyEval_shift (σ : Env α) (E : Poly C) (p : FPoly C) :
    fpolyEval cc σ (fpolyShift ops E p)
      = fpolyEval cc σ p * pow2 (-polyEval cc.toCoeffCast σ E) := by
  induction p with
  | nil => exact (zero_mul _).symm
  | cons e p ih =>
    show cc.cast e.1 * (monoEval σ e.2.1
        * pow2 (polyEval cc.toCoeffCast σ (polySubC ops.toCoeffOps e.2.2 E)))
        + fpolyEval cc σ (fpolyShift ops E p)
      = (cc.cast e.1 * (monoEval σ e.2.1 * pow2 (polyEval cc.toCoeffCast σ e.2.2))
        + fpolyEval cc σ p) * pow2 (-polyEval cc.toCoeffCast σ E)
    rw [ih, polyEval_subC, sub_def, pow2_add, add_mul, ← mul_assoc, ← mul_assoc, ← mul_assoc]

/-- `x · k = y · k` with `k ≠ 0` gives `x = y`. -/
theorem mul_right_cancel' {x y k : α} (hk : k ≠ 0) (h : x * k = y * k) : x = y := by
  rw [← mul_mul_inv_cancel x k hk, h, mul_mul_inv_cancel y k hk]

/-- Equal shifted forms denote the same quotient: `N1 2^(-E) = N2 2^(-F)` and
`D1 2^(-E) = D2 2^(-F)` give `N1 D2 = N2 D1`. -/
theorem shiftPairEq_sound (σ : Env α) (a b : NF C) (E F : Poly C)
    (h : shiftPairEq ops a b E F = true) (ha : fpolyEval cc σ a.2 ≠ 0)
    (hb : fpolyEval cc σ b.2 ≠ 0) : nfVal cc σ a = nfVal cc σ b := by
  have z1 := fpolyIsZero_sound cc σ _ (and_left' h)
  have z2 := fpolyIsZero_sound cc σ _ (and_right' h)
  rw [fpolyEval_subR, fpolyEval_shift, fpolyEval_shift] at z1 z2
  have e1 := eq_of_sub_eq_zero z1
  have e2 := eq_of_sub_eq_zero z2
  apply div_eq_div_of_cross _ _ _ _ ha hb
  have hk : pow2 (-polyEval cc.toCoeffCast σ E) * pow2 (-polyEval cc.toCoeffCast σ F) ≠ 0 :=
    pos_ne_zero _ (pos_mul _ _ (pos_pow2 _) (pos_pow2 _))
  apply mul_right_cancel' hk
  rw [mul_mul_mul_comm', e1, ← e2, mul_mul_mul_comm', mul_comm (pow2 _) (pow2 _)]

theorem anyShiftF_sound (σ : Env α) (a b : NF C) (E : Poly C) (ha : fpolyEval cc σ a.2 ≠ 0)
    (hb : fpolyEval cc σ b.2 ≠ 0) (l : List (Poly C)) (h : anyShiftF ops a b E l = true) :
    nfVal cc σ a = nfVal cc σ b := by
  induction l with
  | nil => cases h
  | cons F l ih =>
    have h' : (shiftPairEq ops a b E F || anyShiftF ops a b E l) = true := h
    cases hs : shiftPairEq ops a b E F
    · rw [hs] at h'
      exact ih h'
    · exact shiftPairEq_sound cc σ a b E F hs ha hb

theorem anyShift_sound (σ : Env α) (a b : NF C) (Fs : List (Poly C))
    (ha : fpolyEval cc σ a.2 ≠ 0) (hb : fpolyEval cc σ b.2 ≠ 0) (l : List (Poly C))
    (h : anyShift ops a b Fs l = true) : nfVal cc σ a = nfVal cc σ b := by
  induction l with
  | nil => cases h
  | cons E l ih =>
    have h' : (anyShiftF ops a b E Fs || anyShift ops a b Fs l) = true := h
    cases hs : anyShiftF ops a b E Fs
    · rw [hs] at h'
      exact ih h'
    · exact anyShiftF_sound cc σ a b E ha hb Fs hs

/-- The final comparison: both denominators positive, and the two quotients equal. -/
theorem nfFinal_sound (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (a b : NF C)
    (h : nfFinal ops P a b = true) :
    positive ops P a.2 = true ∧ positive ops P b.2 = true ∧ nfVal cc σ a = nfVal cc σ b := by
  have h' : (nfEquiv ops P a b || shiftedEq ops P a b) = true := h
  cases he : nfEquiv ops P a b
  · rw [he] at h'
    have ha := and_left' (and_left' h')
    have hb := and_right' (and_left' h')
    exact ⟨ha, hb, anyShift_sound cc σ a b _ (positive_ne_zero cc σ P hP a.2 ha)
      (positive_ne_zero cc σ P hP b.2 hb) _ (and_right' h')⟩
  · exact ⟨and_left' (and_left' he), and_right' (and_left' he), nfEquiv_sound cc σ P hP a b he⟩

theorem constOf_sound (σ : Env α) (P : FPoly C) (c : C) (h : constOf ops P = some c) :
    fpolyEval cc σ P = cc.cast c := by
  cases P with
  | nil => cases h
  | cons e p =>
    cases e with
    | mk c' mono =>
      cases mono with
      | mk vs E =>
        cases vs with
        | cons v vs => cases h
        | nil =>
          cases p with
          | cons f p => cases h
          | nil =>
            have h' : cond (polyIsZero ops E) (some c') none = some c := h
            cases hz : polyIsZero ops E
            · rw [hz] at h'
              cases h'
            · rw [hz] at h'
              have e : c' = c := Option.noConfusion h' id
              show cc.cast c' * (1 * pow2 (polyEval cc.toCoeffCast σ E)) + 0 = cc.cast c
              rw [polyIsZero_sound cc σ E hz, pow2_zero, one_mul, mul_one, add_zero, e]

theorem toRing_sound (σ : Env α) (P : FPoly C) :
    ∀ q : Poly C, toRing ops P = some q → polyEval cc.toCoeffCast σ q = fpolyEval cc σ P := by
  induction P with
  | nil =>
    intro q h
    have e : ([] : Poly C) = q := Option.noConfusion h id
    rw [← e]
    rfl
  | cons e p ih =>
    intro q h
    have h' : cond (polyIsZero ops e.2.2) (lift1 (fun q => (e.1, e.2.1) :: q) (toRing ops p))
      none = some q := h
    cases hz : polyIsZero ops e.2.2
    · rw [hz] at h'
      cases h'
    · rw [hz] at h'
      match lift1_eq_some h' with
      | ⟨q', hq', hr⟩ =>
        rw [← hr]
        show cc.cast e.1 * monoEval σ e.2.1 + polyEval cc.toCoeffCast σ q'
          = cc.cast e.1 * (monoEval σ e.2.1 * pow2 (polyEval cc.toCoeffCast σ e.2.2))
            + fpolyEval cc σ p
        rw [polyIsZero_sound cc σ _ hz, pow2_zero, mul_one, ih q' hq']

/-- Exact `ex2`: if `nfEx2 v = some E` then `2^E` represents `2^x` wherever `v` represents `x`. -/
theorem rep_ex2 (σ : Env α) (v : NF C) (x : α) (E : Poly C) (h : nfEx2 ops v = some E)
    (hv : Rep cc σ v x) : Rep cc σ (nfExp ops E) (pow2 x) := by
  have h1 : nfEx2Of ops v.1 (constOf ops v.2) = some E := h
  cases hc : constOf ops v.2 with
  | none =>
    rw [hc] at h1
    cases h1
  | some c =>
    rw [hc] at h1
    have h2 : nfEx2Inv ops v.1 (ops.invExact c) = some E := h1
    cases hk : ops.invExact c with
    | none =>
      rw [hk] at h2
      cases h2
    | some k =>
      rw [hk] at h2
      have h3 : lift1 (polyScaleC ops.toCoeffOps k) (toRing ops v.1) = some E := h2
      match lift1_eq_some h3 with
      | ⟨q, hq, hr⟩ =>
        have hkc := cc.invExact_sound c k hk
        have hD : fpolyEval cc σ v.2 = cc.cast c := constOf_sound cc σ v.2 c hc
        have hc0 : cc.cast c ≠ 0 := by
          intro h0
          apply zero_ne_one (α := α)
          rw [← hkc, h0, mul_zero]
        have ex : x * cc.cast c = fpolyEval cc σ v.1 := by
          rw [← hD]
          exact hv (by rw [hD]; exact hc0)
        have hE : polyEval cc.toCoeffCast σ E = x := by
          rw [← hr, polyEval_scaleC, toRing_sound cc σ v.1 q hq, ← ex, mul_left_comm, hkc, mul_one]
        have r := rep_exp cc σ E
        rw [hE] at r
        exact r

end NFSound

/-- What the Rust rule assumes of the opaque operations: `rcp x = 1/x` (PTX `rcp` over the
reals), `max`, `min` associative, commutative and idempotent (it flattens, sorts and
deduplicates their arguments), and, for positive `x`, `sqrt x` positive and
`rsqrt x = 1 / sqrt x` (positive `sqrt` atoms, the `rsqrt` law).  The reals are a model. -/
structure FieldInterp {K α : Type} [ExpField α] (I : Interp K α) : Prop where
  rcp : ∀ x : α, I.func Func.rcp x = 1 / x
  sqrt_pos : ∀ x : α, pos x → pos (I.func Func.sqrt x)
  rsqrt_sqrt : ∀ x : α, pos x → I.func Func.rsqrt x = 1 / I.func Func.sqrt x
  max_assoc : ∀ a b c : α, I.max (I.max a b) c = I.max a (I.max b c)
  max_comm : ∀ a b : α, I.max a b = I.max b a
  max_idem : ∀ a : α, I.max a a = a
  min_assoc : ∀ a b c : α, I.min (I.min a b) c = I.min a (I.min b c)
  min_comm : ∀ a b : α, I.min a b = I.min b a
  min_idem : ∀ a : α, I.min a a = a

section Semilattice

/-! ## Folding an associative, commutative, idempotent operation -/

variable {α : Type} [ExpField α] (op : α → α → α)

/-- `op x1 (op x2 (... xn))` (`0` for the empty list, never used). -/
def foldOp : List α → α
  | [] => 0
  | [x] => x
  | x :: y :: l => op x (foldOp (y :: l))

def memV (x : α) : List α → Prop
  | [] => False
  | y :: l => x = y ∨ memV x l

def subsetV (L : List α) : List α → Prop
  | [] => True
  | x :: l => memV x L ∧ subsetV L l

def allEqV (x : α) : List α → Prop
  | [] => True
  | y :: l => y = x ∧ allEqV x l

variable (hA : ∀ a b c, op (op a b) c = op a (op b c)) (hC : ∀ a b, op a b = op b a)
  (hI : ∀ a, op a a = a)

theorem foldOp_absorb (x : α) (L : List α) (h : memV x L) : op x (foldOp op L) = foldOp op L := by
  induction L with
  | nil => exact False.elim h
  | cons y L ih =>
    cases L with
    | nil =>
      cases h with
      | inl e =>
        rw [e]
        exact hI y
      | inr f => exact False.elim f
    | cons z l =>
      show op x (op y (foldOp op (z :: l))) = op y (foldOp op (z :: l))
      cases h with
      | inl e => rw [e, ← hA, hI]
      | inr h' => rw [← hA, hC x y, hA, ih h']

theorem foldOp_absorbAll (L : List α) (l : List α) :
    ∀ x, subsetV L (x :: l) → op (foldOp op (x :: l)) (foldOp op L) = foldOp op L := by
  induction l with
  | nil =>
    intro x h
    exact foldOp_absorb op hA hC hI x L h.1
  | cons z l ih =>
    intro x h
    show op (op x (foldOp op (z :: l))) (foldOp op L) = foldOp op L
    rw [hA, ih z h.2, foldOp_absorb op hA hC hI x L h.1]

/-- Lists with the same elements fold to the same value. -/
theorem foldOp_setEq (x : α) (l : List α) (y : α) (l' : List α) (h1 : subsetV (y :: l') (x :: l))
    (h2 : subsetV (x :: l) (y :: l')) : foldOp op (x :: l) = foldOp op (y :: l') := by
  rw [← foldOp_absorbAll op hA hC hI (x :: l) l' y h2, hC,
    foldOp_absorbAll op hA hC hI (y :: l') l x h1]

theorem foldOp_prepend (y : α) (l' : List α) (l : List α) :
    ∀ x, foldOp op (prepend (x :: l) (y :: l')) = op (foldOp op (x :: l)) (foldOp op (y :: l')) := by
  induction l with
  | nil => intro x; rfl
  | cons z l ih =>
    intro x
    show op x (foldOp op (prepend (z :: l) (y :: l')))
      = op (op x (foldOp op (z :: l))) (foldOp op (y :: l'))
    rw [ih z, hA]

theorem foldOp_allEq (x : α) (l : List α) (h : allEqV x l) : foldOp op (x :: l) = x := by
  induction l with
  | nil => rfl
  | cons y l ih =>
    show op x (foldOp op (y :: l)) = x
    rw [h.1, ih h.2, hI]

end Semilattice

section TableSound

/-! ## The atom table

A valuation `ν` of atom numbers is `Good` for a table when each atom's value is its kind applied
to the values of its arguments.  `OK` says each entry's kind applied to its arguments is the
value of the term it was made for, whenever the older entries are `Good`.  `nuOf` (each atom
valued as its term) is `Good` for an `OK` table. -/

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)
variable (I : Interp K α) (ρ : Env α) (evT : Term K → α)

/-- The environment of normal forms: variable `(0, n)` is atom `n`, `(p + 1, i)` is pair input
`p`, element `i`. -/
def envOf (ν : Nat → α) : Env α := fun p i =>
  match p with
  | 0 => ν i
  | p + 1 => ρ p i

def tagSem : Tag → List α → α
  | Tag.func f, [x] => Term.applyFunc I f x
  | Tag.max, xs => foldOp I.max xs
  | Tag.min, xs => foldOp I.min xs
  | Tag.select op, [l, r, a, b] => if I.cmp op l r then a else b
  | _, _ => 0

def entrySem (ν : Nat → α) (e : Entry K C) : α :=
  tagSem I e.tag (e.args.map (nfVal cc (envOf ρ ν)))

def Good (ν : Nat → α) : Tab K C → Prop
  | [] => True
  | e :: T => ν T.length = entrySem cc I ρ ν e ∧ Good ν T

def OK : Tab K C → Prop
  | [] => True
  | e :: T => (∀ ν, Good cc I ρ ν T → entrySem cc I ρ ν e = evT e.src) ∧ OK T

def lookupSrc : Tab K C → Nat → Option (Term K)
  | [], n => none
  | e :: T, n => if n = T.length then some e.src else lookupSrc T n

def valOf : Option (Term K) → α
  | some t => evT t
  | none => 0

/-- Each atom valued as the term it was made for. -/
def nuOf (T : Tab K C) (n : Nat) : α := valOf evT (lookupSrc T n)

theorem prepend_assoc {β : Type} (a b c : List β) :
    prepend a (prepend b c) = prepend (prepend a b) c := by
  induction a with
  | nil => rfl
  | cons e a ih =>
    show e :: prepend a (prepend b c) = e :: prepend (prepend a b) c
    rw [ih]

theorem good_append (ν : Nat → α) (l T : Tab K C) (h : Good cc I ρ ν (prepend l T)) : Good cc I ρ ν T := by
  induction l with
  | nil => exact h
  | cons e l ih => exact ih h.2

theorem lookupSrc_lt (T : Tab K C) : ∀ (n : Nat) (t : Term K), lookupSrc T n = some t → n < T.length := by
  induction T with
  | nil =>
    intro n t h
    cases h
  | cons e T ih =>
    intro n t h
    cases (inferInstance : Decidable (n = T.length)) with
    | isTrue hn =>
      rw [hn, List.length_cons]
      exact Nat.ltSuccSelf _
    | isFalse hn =>
      have h' : lookupSrc T n = some t := by
        rw [← h]
        exact (if_neg' hn).symm
      rw [List.length_cons]
      exact Nat.ltTrans (ih n t h') (Nat.ltSuccSelf _)

theorem good_of_ok (T : Tab K C) : OK cc I ρ evT T → ∀ ν : Nat → α,
    (∀ n t, lookupSrc T n = some t → ν n = evT t) → Good cc I ρ ν T := by
  induction T with
  | nil =>
    intro _ _ _
    exact True.intro
  | cons e T ih =>
    intro hok ν hν
    have g : Good cc I ρ ν T := by
      apply ih hok.2 ν
      intro n t hl
      apply hν n t
      have hn : n ≠ T.length := fun h => Nat.ltIrrefl n (by
        have := lookupSrc_lt T n t hl
        rw [h] at this
        rw [h]
        exact this)
      rw [← hl]
      exact if_neg' hn
    have h1 : ν T.length = evT e.src := hν T.length e.src (if_pos' rfl)
    exact ⟨h1.trans (hok.1 ν g).symm, g⟩

theorem good_nuOf (T : Tab K C) (h : OK cc I ρ evT T) : Good cc I ρ (nuOf evT T) T := by
  apply good_of_ok cc I ρ evT T h
  intro n t hl
  show valOf evT (lookupSrc T n) = _
  rw [hl]
  rfl

/-- A quotient of two positive polynomials is positive. -/
theorem nfVal_pos (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (a : NF C)
    (h1 : positive ops P a.1 = true) (h2 : positive ops P a.2 = true) : pos (nfVal cc σ a) :=
  pos_mul _ _ (positive_pos cc P σ hP a.1 h1) (pos_inv _ (positive_pos cc P σ hP a.2 h2))

/-- An atom that `entryPosOf` marks positive has a positive value: `2^x`, or `sqrt x` of a
positive quotient (`FieldInterp.sqrt_pos`). -/
theorem entryPosOf_sound (hI : FieldInterp I) (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ)
    (tag : Tag) (args : List (NF C)) (h : entryPosOf ops P tag args = true) :
    pos (tagSem I tag (args.map (nfVal cc σ))) := by
  cases tag with
  | func f =>
    cases f with
    | ex2 =>
      cases args with
      | nil => cases h
      | cons a l =>
        cases l with
        | nil =>
          show pos (pow2 (nfVal cc σ a))
          exact pos_pow2 _
        | cons b l => cases h
    | sqrt =>
      cases args with
      | nil => cases h
      | cons a l =>
        cases l with
        | nil =>
          show pos (I.func Func.sqrt (nfVal cc σ a))
          exact hI.sqrt_pos _ (nfVal_pos cc σ P hP a (and_left' h) (and_right' h))
        | cons b l => cases h
    | rcp => cases h
    | rsqrt => cases h
    | lg2 => cases h
    | sin => cases h
    | cos => cases h
    | tanh => cases h
    | abs => cases h
  | max => cases h
  | min => cases h
  | select op => cases h

/-- Under every valuation `Good` for a table, the atoms `tabPos` marks are positive: each
atom's value is its kind applied to its arguments, positive by `entryPosOf_sound` given the
older atoms' positivity. -/
theorem good_pos (hI : FieldInterp I) (T : Tab K C) :
    ∀ ν, Good cc I ρ ν T → PosEnv (tabPos ops T) (envOf ρ ν) := by
  induction T with
  | nil =>
    intro ν _ n h
    cases h
  | cons e T ih =>
    intro ν hg n h
    have hP := ih ν hg.2
    have h' : (if n = T.length then entryPos ops (tabPos ops T) e else tabPos ops T n) = true := h
    cases (inferInstance : Decidable (n = T.length)) with
    | isTrue hn =>
      rw [if_pos' hn] at h'
      show pos (ν n)
      rw [hn, hg.1]
      exact entryPosOf_sound cc I hI (envOf ρ ν) (tabPos ops T) hP e.tag e.args h'
    | isFalse hn =>
      rw [if_neg' hn] at h'
      exact hP n h'

theorem argsMatch_vals (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (l : List (NF C)) :
    ∀ l', argsMatch ops P l l' = true → l.map (nfVal cc σ) = l'.map (nfVal cc σ) := by
  induction l with
  | nil =>
    intro l' h
    cases l' with
    | nil => rfl
    | cons b l' => cases h
  | cons a l ih =>
    intro l' h
    cases l' with
    | nil => cases h
    | cons b l' =>
      show nfVal cc σ a :: l.map (nfVal cc σ) = nfVal cc σ b :: l'.map (nfVal cc σ)
      rw [nfEquiv_sound cc σ P hP a b (and_left' h), ih l' (and_right' h)]

theorem findAtom_sound (ν : Nat → α) (P : Nat → Bool) (tag : Tag) (args : List (NF C))
    (T : Tab K C) (hg : Good cc I ρ ν T) :
    ∀ n, findAtom ops P tag args T = some n →
      ∃ e : Entry K C, e.tag = tag ∧ argsMatchTag ops P tag e.args args = true ∧
        ν n = entrySem cc I ρ ν e := by
  induction T with
  | nil =>
    intro n h
    cases h
  | cons e T ih =>
    intro n h
    cases hc : (decide (e.tag = tag) && argsMatchTag ops P tag e.args args)
    · have h' : findAtom ops P tag args T = some n := by
        rw [← h]
        show _ = cond (decide (e.tag = tag) && argsMatchTag ops P tag e.args args) (some T.length)
          (findAtom ops P tag args T)
        rw [hc]
        rfl
      exact ih hg.2 n h'
    · have h' : some T.length = some n := by
        rw [← h]
        show _ = cond (decide (e.tag = tag) && argsMatchTag ops P tag e.args args) (some T.length)
          (findAtom ops P tag args T)
        rw [hc]
        rfl
      have hn : T.length = n := Option.noConfusion h' id
      rw [← hn]
      exact ⟨e, of_decide_eq_true' (and_left' hc), and_right' hc, hg.1⟩

/-- The arguments represent the listed values. -/
def RepList (σ : Env α) : List (NF C) → List α → Prop
  | [], [] => True
  | a :: l, x :: xs => Rep cc σ a x ∧ RepList σ l xs
  | _, _ => False

theorem repList_vals (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (l : List (NF C)) :
    ∀ xs, allPosDen ops P l = true → RepList cc σ l xs → l.map (nfVal cc σ) = xs := by
  induction l with
  | nil =>
    intro xs _ h
    cases xs with
    | nil => rfl
    | cons x xs => exact False.elim h
  | cons a l ih =>
    intro xs hp h
    cases xs with
    | nil => exact False.elim h
    | cons x xs =>
      show nfVal cc σ a :: l.map (nfVal cc σ) = x :: xs
      rw [rep_val cc σ a x h.1 (positive_ne_zero cc σ P hP a.2 (and_left' hp)),
        ih xs (and_right' hp) h.2]

theorem rep_atom (ν : Nat → α) (n : Nat) : Rep cc (envOf ρ ν) (atomNF ops n) (ν n) :=
  rep_var cc (envOf ρ ν) (0, n)

/-- What normalization preserves, from table `T` to table `T'`, for the term `t` and its normal
form `v`: the table only grows, stays `OK`, and `v` represents the value of `t` under every
valuation `Good` for the new table. -/
def Inv (T : Tab K C) (t : Term K) (v : NF C) (T' : Tab K C) : Prop :=
  (∃ l, T' = prepend l T) ∧ (OK cc I ρ evT T → OK cc I ρ evT T') ∧
    ∀ ν, Good cc I ρ ν T' → Rep cc (envOf ρ ν) v (evT t)

theorem inv_pure (T : Tab K C) (t : Term K) (v : NF C)
    (h : ∀ ν, Good cc I ρ ν T → Rep cc (envOf ρ ν) v (evT t)) :
    Inv cc I ρ evT T t v T :=
  ⟨⟨[], rfl⟩, id, h⟩

theorem inv_after (T T1 T' : Tab K C) (t : Term K) (v : NF C) (he : ∃ l, T1 = prepend l T)
    (hok : OK cc I ρ evT T → OK cc I ρ evT T1) (h : Inv cc I ρ evT T1 t v T') :
    Inv cc I ρ evT T t v T' := by
  match he, h with
  | ⟨l, hl⟩, ⟨⟨l', hl'⟩, hok', hr⟩ =>
    exact ⟨⟨prepend l' l, by rw [hl', hl, prepend_assoc]⟩, fun o => hok' (hok o), hr⟩

theorem inv_un (T T1 : Tab K C) (a t : Term K) (va v : NF C) (g : α → α)
    (ha : Inv cc I ρ evT T a va T1)
    (hr : ∀ ν, Good cc I ρ ν T1 → ∀ x, Rep cc (envOf ρ ν) va x → Rep cc (envOf ρ ν) v (g x))
    (he : evT t = g (evT a)) : Inv cc I ρ evT T t v T1 := by
  match ha with
  | ⟨hx, hok, hra⟩ =>
    refine ⟨hx, hok, ?_⟩
    intro ν hg
    rw [he]
    exact hr ν hg _ (hra ν hg)

theorem inv_bin (T T1 T2 : Tab K C) (a b t : Term K) (va vb v : NF C) (g : α → α → α)
    (ha : Inv cc I ρ evT T a va T1) (hb : Inv cc I ρ evT T1 b vb T2)
    (hr : ∀ ν, Good cc I ρ ν T2 → ∀ x y, Rep cc (envOf ρ ν) va x → Rep cc (envOf ρ ν) vb y →
      Rep cc (envOf ρ ν) v (g x y))
    (he : evT t = g (evT a) (evT b)) :
    Inv cc I ρ evT T t v T2 := by
  match ha, hb with
  | ⟨⟨l1, h1⟩, hok1, hra⟩, ⟨⟨l2, h2⟩, hok2, hrb⟩ =>
    refine ⟨⟨prepend l2 l1, by rw [h2, h1, prepend_assoc]⟩, fun o => hok2 (hok1 o), ?_⟩
    intro ν hg
    rw [he]
    have hg1 : Good cc I ρ ν T1 := by
      rw [h2] at hg
      exact good_append cc I ρ ν l2 T1 hg
    exact hr ν hg _ _ (hra ν hg1) (hrb ν hg)

theorem anyEquiv_sound (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (a : NF C)
    (l : List (NF C)) (h : anyEquiv ops P a l = true) :
    memV (nfVal cc σ a) (l.map (nfVal cc σ)) := by
  induction l with
  | nil => cases h
  | cons b l ih =>
    have h' : (nfEquiv ops P a b || anyEquiv ops P a l) = true := h
    cases hb : nfEquiv ops P a b
    · rw [hb] at h'
      exact Or.inr (ih h')
    · exact Or.inl (nfEquiv_sound cc σ P hP a b hb)

theorem subsetB_sound (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (l l' : List (NF C))
    (h : subsetB ops P l l' = true) :
    subsetV (l'.map (nfVal cc σ)) (l.map (nfVal cc σ)) := by
  induction l with
  | nil => exact True.intro
  | cons a l ih => exact ⟨anyEquiv_sound cc σ P hP a l' (and_left' h), ih (and_right' h)⟩

theorem argsMatchTag_sound (hI : FieldInterp I) (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ)
    (tag : Tag) (l l' : List (NF C)) (h : argsMatchTag ops P tag l l' = true) :
    tagSem I tag (l.map (nfVal cc σ)) = tagSem I tag (l'.map (nfVal cc σ)) := by
  have lat : ∀ op : α → α → α, (∀ a b c, op (op a b) c = op a (op b c)) →
      (∀ a b, op a b = op b a) → (∀ a, op a a = a) →
      (subsetB ops P l l' && subsetB ops P l' l) = true →
      foldOp op (l.map (nfVal cc σ)) = foldOp op (l'.map (nfVal cc σ)) := by
    intro op hA hC hId hs
    have s1 := subsetB_sound cc σ P hP l l' (and_left' hs)
    have s2 := subsetB_sound cc σ P hP l' l (and_right' hs)
    cases l with
    | nil =>
      cases l' with
      | nil => rfl
      | cons b l' => exact False.elim (s2.1)
    | cons a l =>
      cases l' with
      | nil => exact False.elim (s1.1)
      | cons b l' => exact foldOp_setEq op hA hC hId _ _ _ _ s1 s2
  cases tag with
  | max => exact lat I.max hI.max_assoc hI.max_comm hI.max_idem h
  | min => exact lat I.min hI.min_assoc hI.min_comm hI.min_idem h
  | func f =>
    have h' : argsMatch ops P l l' = true := h
    rw [argsMatch_vals cc σ P hP l l' h']
  | select op =>
    have h' : argsMatch ops P l l' = true := h
    rw [argsMatch_vals cc σ P hP l l' h']

/-- An atom made (or found) for `src`, where the kind applied to the arguments' values is the
value of `src`. -/
theorem atom_inv' (hI : FieldInterp I) (tag : Tag) (args : List (NF C)) (src : Term K)
    (T T' : Tab K C) (v : NF C)
    (hval' : ∀ ν, Good cc I ρ ν T → allPosDen ops (tabPos ops T) args = true →
      tagSem I tag (args.map (nfVal cc (envOf ρ ν))) = evT src)
    (h : atom ops tag args src T = some (v, T')) : Inv cc I ρ evT T src v T' := by
  have h1 : cond (allPosDen ops (tabPos ops T) args) (some (mkAtom ops tag args src T)) none
    = some (v, T') := h
  cases hp : allPosDen ops (tabPos ops T) args
  · rw [hp] at h1
    cases h1
  · rw [hp] at h1
    have h2 : mkAtomAt ops tag args src T (findAtom ops (tabPos ops T) tag args T) = (v, T') :=
      Option.noConfusion h1 id
    have hval : ∀ ν, Good cc I ρ ν T →
        tagSem I tag (args.map (nfVal cc (envOf ρ ν))) = evT src :=
      fun ν hg => hval' ν hg hp
    cases hf : findAtom ops (tabPos ops T) tag args T with
    | none =>
      rw [hf] at h2
      have hv : atomNF ops T.length = v := congrArg Prod.fst h2
      have hT : ⟨tag, args, src⟩ :: T = T' := congrArg Prod.snd h2
      rw [← hv, ← hT]
      refine ⟨⟨[⟨tag, args, src⟩], rfl⟩, fun o => ⟨fun ν hg => hval ν hg, o⟩, ?_⟩
      intro ν hg
      have e : ν T.length = evT src := hg.1.trans (hval ν hg.2)
      have r := rep_atom cc ρ ν T.length
      rw [e] at r
      exact r
    | some n =>
      rw [hf] at h2
      have hv : atomNF ops n = v := congrArg Prod.fst h2
      have hT : T = T' := congrArg Prod.snd h2
      rw [← hv, ← hT]
      apply inv_pure
      intro ν hg
      match findAtom_sound cc I ρ ν (tabPos ops T) tag args T hg n hf with
      | ⟨e, het, hm, hn⟩ =>
        have ev : ν n = evT src := by
          rw [hn]
          show tagSem I e.tag (e.args.map (nfVal cc (envOf ρ ν))) = _
          rw [het, argsMatchTag_sound cc I hI (envOf ρ ν) (tabPos ops T)
            (good_pos cc I ρ hI T ν hg) tag e.args args hm, hval ν hg]
        have r := rep_atom cc ρ ν n
        rw [ev] at r
        exact r

/-- An atom made (or found) for `src` from arguments representing `xs`, where the kind applied
to `xs` is the value of `src`. -/
theorem atom_inv (hI : FieldInterp I) (tag : Tag) (args : List (NF C)) (src : Term K)
    (T T' : Tab K C) (v : NF C)
    (xs : List α) (hreps : ∀ ν, Good cc I ρ ν T → RepList cc (envOf ρ ν) args xs)
    (hsem : tagSem I tag xs = evT src)
    (h : atom ops tag args src T = some (v, T')) : Inv cc I ρ evT T src v T' := by
  apply atom_inv' cc I ρ evT hI tag args src T T' v _ h
  intro ν hg hp
  rw [repList_vals cc (envOf ρ ν) (tabPos ops T) (good_pos cc I ρ hI T ν hg) args xs hp
    (hreps ν hg), hsem]

end TableSound

section LatticeModel

/-! ## Facts about the flattening of `max`/`min` (model only) -/

variable {K C : Type} (ops : FieldCoeffOps K C)

theorem latticeArgs_cases (tag : Tag) (T : Tab K C) (v : NF C) :
    latticeArgs ops tag T v = [v] ∨
      ∃ n e, nfEquiv ops (tabPos ops T) v (atomNF ops n) = true ∧ lookupEntry T n = some e ∧ e.tag = tag ∧
        latticeArgs ops tag T v = e.args ∧ nonEmpty e.args = true := by
  cases hn : atomNum v.1 with
  | none =>
    apply Or.inl
    show latticeArgsOf ops tag T v (atomNum v.1) = [v]
    rw [hn]
    rfl
  | some n =>
    have d : latticeArgs ops tag T v
        = cond (nfEquiv ops (tabPos ops T) v (atomNF ops n)) (entryArgs tag v (lookupEntry T n))
          [v] := by
      show latticeArgsOf ops tag T v (atomNum v.1) = _
      rw [hn]
      rfl
    rw [d]
    cases he : nfEquiv ops (tabPos ops T) v (atomNF ops n)
    · exact Or.inl rfl
    · cases hl : lookupEntry T n with
      | none => exact Or.inl rfl
      | some e =>
        cases hc : (decide (e.tag = tag) && nonEmpty e.args)
        · apply Or.inl
          show cond (decide (e.tag = tag) && nonEmpty e.args) e.args [v] = [v]
          rw [hc]
          rfl
        · apply Or.inr
          refine ⟨n, e, he, hl, of_decide_eq_true' (and_left' hc), ?_, and_right' hc⟩
          show cond (decide (e.tag = tag) && nonEmpty e.args) e.args [v] = e.args
          rw [hc]
          rfl

theorem latticeArgs_cons (tag : Tag) (T : Tab K C) (v : NF C) :
    ∃ y l, latticeArgs ops tag T v = y :: l := by
  cases latticeArgs_cases ops tag T v with
  | inl h => exact ⟨v, [], h⟩
  | inr h =>
    match h with
    | ⟨_, e, _, _, _, hL, hne⟩ =>
      cases ha : e.args with
      | nil =>
        rw [ha] at hne
        cases hne
      | cons y l =>
        rw [ha] at hL
        exact ⟨y, l, hL⟩

theorem allPosDen_prepend (P : Nat → Bool) (l1 l2 : List (NF C))
    (h : allPosDen ops P (prepend l1 l2) = true) :
    allPosDen ops P l1 = true ∧ allPosDen ops P l2 = true := by
  induction l1 with
  | nil => exact ⟨rfl, h⟩
  | cons a l ih =>
    have h' : (positive ops P a.2 && allPosDen ops P (prepend l l2)) = true := h
    have r := ih (and_right' h')
    refine ⟨?_, r.2⟩
    show (positive ops P a.2 && allPosDen ops P l) = true
    rw [and_left' h', r.1]
    rfl

end LatticeModel

section NormSound

/-! ## Normalization is sound -/

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)
variable (I : Interp K α) (ρ : Env α) (evT : Term K → α)

theorem andThen_eq_some {r : Option (NF C × Tab K C)}
    {f : NF C → Tab K C → Option (NF C × Tab K C)} {x : NF C × Tab K C}
    (h : andThen r f = some x) : ∃ v T, r = some (v, T) ∧ f v T = some x := by
  cases r with
  | none => cases h
  | some p =>
    cases p with
    | mk v T => exact ⟨v, T, rfl, h⟩

theorem some_pair {a v : NF C} {T T' : Tab K C} (h : some (a, T) = some (v, T')) :
    a = v ∧ T = T' :=
  Option.noConfusion h fun e => ⟨congrArg Prod.fst e, congrArg Prod.snd e⟩

theorem good_ext (ν : Nat → α) (l T1 T2 : Tab K C) (he : T2 = prepend l T1)
    (g : Good cc I ρ ν T2) : Good cc I ρ ν T1 := by
  rw [he] at g
  exact good_append cc I ρ ν l T1 g

theorem inv_un_atom (hI : FieldInterp I) (T T1 T' : Tab K C) (a src : Term K) (va v : NF C) (tag : Tag)
    (ha : Inv cc I ρ evT T a va T1) (h : atom ops tag [va] src T1 = some (v, T'))
    (hsem : tagSem I tag [evT a] = evT src) :
    Inv cc I ρ evT T src v T' := by
  match ha with
  | ⟨he, hok, hra⟩ =>
    apply inv_after cc I ρ evT T T1 T' src v he hok
    exact atom_inv cc I ρ evT hI tag [va] src T1 T' v [evT a]
      (fun ν hg => ⟨hra ν hg, True.intro⟩) hsem h

theorem inv_bin_atom (hI : FieldInterp I) (T T1 T2 T' : Tab K C) (a b src : Term K) (va vb v : NF C) (tag : Tag)
    (ha : Inv cc I ρ evT T a va T1) (hb : Inv cc I ρ evT T1 b vb T2)
    (h : atom ops tag [va, vb] src T2 = some (v, T'))
    (hsem : tagSem I tag [evT a, evT b] = evT src) :
    Inv cc I ρ evT T src v T' := by
  match ha, hb with
  | ⟨⟨l1, h1⟩, hok1, hra⟩, ⟨⟨l2, h2⟩, hok2, hrb⟩ =>
    apply inv_after cc I ρ evT T T2 T' src v ⟨prepend l2 l1, by rw [h2, h1, prepend_assoc]⟩
      (fun o => hok2 (hok1 o))
    exact atom_inv cc I ρ evT hI tag [va, vb] src T2 T' v [evT a, evT b]
      (fun ν hg => ⟨hra ν (good_ext cc I ρ ν l2 T1 T2 h2 hg), hrb ν hg, True.intro⟩) hsem h

/-- Soundness of normalization: a normal form computed for `t` represents the value of `t`
(under every valuation of atoms `Good` for the final table), and the table stays `OK`. -/
theorem ext_trans {β : Type} (T T1 T2 : List β) (h1 : ∃ l, T1 = prepend l T)
    (h2 : ∃ l, T2 = prepend l T1) : ∃ l, T2 = prepend l T := by
  match h1, h2 with
  | ⟨l1, e1⟩, ⟨l2, e2⟩ => exact ⟨prepend l2 l1, by rw [e2, e1, prepend_assoc]⟩

theorem inv_quad_atom (hI : FieldInterp I) (T T1 T2 T3 T4 T' : Tab K C) (l r a b src : Term K) (vl vr va vb v : NF C)
    (tag : Tag) (hl : Inv cc I ρ evT T l vl T1) (hr : Inv cc I ρ evT T1 r vr T2)
    (ha : Inv cc I ρ evT T2 a va T3) (hb : Inv cc I ρ evT T3 b vb T4)
    (h : atom ops tag [vl, vr, va, vb] src T4 = some (v, T'))
    (hsem : tagSem I tag [evT l, evT r, evT a, evT b]
      = evT src) :
    Inv cc I ρ evT T src v T' := by
  match hl, hr, ha, hb with
  | ⟨⟨l1, h1⟩, hok1, hrl⟩, ⟨⟨l2, h2⟩, hok2, hrr⟩, ⟨⟨l3, h3⟩, hok3, hra⟩, ⟨⟨l4, h4⟩, hok4, hrb⟩ =>
    apply inv_after cc I ρ evT T T4 T' src v
      (ext_trans T T3 T4 (ext_trans T T2 T3 (ext_trans T T1 T2 ⟨l1, h1⟩ ⟨l2, h2⟩) ⟨l3, h3⟩)
        ⟨l4, h4⟩)
      (fun o => hok4 (hok3 (hok2 (hok1 o))))
    apply atom_inv cc I ρ evT hI tag [vl, vr, va, vb] src T4 T' v _ _ hsem h
    intro ν g4
    have g3 := good_ext cc I ρ ν l4 T3 T4 h4 g4
    have g2 := good_ext cc I ρ ν l3 T2 T3 h3 g3
    have g1 := good_ext cc I ρ ν l2 T1 T2 h2 g2
    exact ⟨hrl ν g1, hrr ν g2, hra ν g3, hrb ν g4, True.intro⟩

theorem map_prepend {β γ : Type} (f : β → γ) (l1 l2 : List β) :
    (prepend l1 l2).map f = prepend (l1.map f) (l2.map f) := by
  induction l1 with
  | nil => rfl
  | cons a l ih =>
    show f a :: (prepend l l2).map f = f a :: prepend (l.map f) (l2.map f)
    rw [ih]

theorem allEquivTo_sound (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (v0 : NF C)
    (l : List (NF C)) (h : allEquivTo ops P v0 l = true) :
    allEqV (nfVal cc σ v0) (l.map (nfVal cc σ)) := by
  induction l with
  | nil => exact True.intro
  | cons b l ih => exact ⟨nfEquiv_sound cc σ P hP b v0 (and_left' h), ih (and_right' h)⟩

theorem rep_of_val (σ : Env α) (v : NF C) : Rep cc σ v (nfVal cc σ v) := by
  intro hD
  show fpolyEval cc σ v.1 * inv (fpolyEval cc σ v.2) * fpolyEval cc σ v.2 = fpolyEval cc σ v.1
  rw [mul_assoc, mul_comm (inv _), mul_inv _ hD, mul_one]

theorem nfVal_atom (ν : Nat → α) (n : Nat) : nfVal cc (envOf ρ ν) (atomNF ops n) = ν n := by
  apply rep_val cc _ _ _ (rep_atom cc ρ ν n)
  show fpolyEval cc (envOf ρ ν) (fpolyOne ops) ≠ 0
  rw [fpolyEval_one]
  exact fun h => zero_ne_one h.symm

theorem lookupEntry_good (ν : Nat → α) (T : Tab K C) (hg : Good cc I ρ ν T) :
    ∀ n e, lookupEntry T n = some e → ν n = entrySem cc I ρ ν e := by
  induction T with
  | nil =>
    intro n e h
    cases h
  | cons e' T ih =>
    intro n e h
    cases (inferInstance : Decidable (n = T.length)) with
    | isTrue hn =>
      have h' : some e' = some e := by
        rw [← h]
        exact (if_pos' hn).symm
      have ee : e' = e := Option.noConfusion h' id
      rw [hn, ← ee]
      exact hg.1
    | isFalse hn =>
      have h' : lookupEntry T n = some e := by
        rw [← h]
        exact (if_neg' hn).symm
      exact ih hg.2 n e h'

theorem latticeArgs_sound (hI : FieldInterp I) (tag : Tag) (op : α → α → α)
    (hop : ∀ xs, tagSem I tag xs = foldOp op xs)
    (T : Tab K C) (v : NF C) (x : α) (ν : Nat → α) (hg : Good cc I ρ ν T)
    (hv : Rep cc (envOf ρ ν) v x)
    (hp : allPosDen ops (tabPos ops T) (latticeArgs ops tag T v) = true) :
    foldOp op ((latticeArgs ops tag T v).map (nfVal cc (envOf ρ ν))) = x := by
  have hP := good_pos cc I ρ hI T ν hg
  cases latticeArgs_cases ops tag T v with
  | inl h =>
    rw [h] at hp
    rw [h]
    exact rep_val cc _ v x hv (positive_ne_zero cc _ _ hP v.2 (and_left' hp))
  | inr h =>
    match h with
    | ⟨n, e, he, hl, ht, hL, _⟩ =>
      rw [hL]
      have e1 : ν n = entrySem cc I ρ ν e := lookupEntry_good cc I ρ ν T hg n e hl
      have e2 : nfVal cc (envOf ρ ν) v = ν n :=
        (nfEquiv_sound cc _ _ hP v (atomNF ops n) he).trans (nfVal_atom cc ρ ν n)
      have e3 : nfVal cc (envOf ρ ν) v = x :=
        rep_val cc _ v x hv (positive_ne_zero cc _ _ hP v.2 (and_left' (and_left' he)))
      rw [← e3, e2, e1]
      show foldOp op (e.args.map (nfVal cc (envOf ρ ν)))
        = tagSem I e.tag (e.args.map (nfVal cc (envOf ρ ν)))
      rw [ht, hop]

/-- `max(a, b)` (`min`): flattened arguments, collapsed to one argument or made an atom. -/
theorem lattice_inv (hI : FieldInterp I) (tag : Tag) (op : α → α → α)
    (hop : ∀ xs, tagSem I tag xs = foldOp op xs)
    (hA : ∀ a b c, op (op a b) c = op a (op b c)) (hId : ∀ a, op a a = a)
    (T T1 T2 T' : Tab K C) (a b src : Term K) (va vb v : NF C)
    (ha : Inv cc I ρ evT T a va T1) (hb : Inv cc I ρ evT T1 b vb T2)
    (h : lattice ops tag va vb src T2 = some (v, T'))
    (hsem : op (evT a) (evT b) = evT src) :
    Inv cc I ρ evT T src v T' := by
  match ha, hb with
  | ⟨⟨l1, h1⟩, hok1, hra⟩, ⟨⟨l2, h2⟩, hok2, hrb⟩ =>
    apply inv_after cc I ρ evT T T2 T' src v (ext_trans T T1 T2 ⟨l1, h1⟩ ⟨l2, h2⟩)
      (fun o => hok2 (hok1 o))
    match latticeArgs_cons ops tag T2 va, latticeArgs_cons ops tag T2 vb with
    | ⟨y1, r1, e1⟩, ⟨y2, r2, e2⟩ =>
      have key : ∀ ν, Good cc I ρ ν T2 →
          allPosDen ops (tabPos ops T2) (prepend (y1 :: r1) (y2 :: r2)) = true →
          foldOp op ((prepend (y1 :: r1) (y2 :: r2)).map (nfVal cc (envOf ρ ν)))
            = evT src := by
        intro ν hg hp
        have hp2 := allPosDen_prepend ops _ _ _ hp
        have f1 := latticeArgs_sound cc I ρ hI tag op hop T2 va (evT a) ν hg
          (hra ν (good_ext cc I ρ ν l2 T1 T2 h2 hg)) (by rw [e1]; exact hp2.1)
        have f2 := latticeArgs_sound cc I ρ hI tag op hop T2 vb (evT b) ν hg
          (hrb ν hg) (by rw [e2]; exact hp2.2)
        rw [e1] at f1
        rw [e2] at f2
        have f1' : foldOp op (nfVal cc (envOf ρ ν) y1 :: r1.map (nfVal cc (envOf ρ ν)))
          = evT a := f1
        have f2' : foldOp op (nfVal cc (envOf ρ ν) y2 :: r2.map (nfVal cc (envOf ρ ν)))
          = evT b := f2
        have mp : (prepend (y1 :: r1) (y2 :: r2)).map (nfVal cc (envOf ρ ν))
          = prepend (nfVal cc (envOf ρ ν) y1 :: r1.map (nfVal cc (envOf ρ ν)))
              (nfVal cc (envOf ρ ν) y2 :: r2.map (nfVal cc (envOf ρ ν))) :=
          map_prepend _ _ _
        rw [mp, foldOp_prepend op hA, f1', f2', hsem]
      have hL : lattice ops tag va vb src T2
          = latticeOf ops tag src T2 (prepend (y1 :: r1) (y2 :: r2)) := by
        show latticeOf ops tag src T2
          (prepend (latticeArgs ops tag T2 va) (latticeArgs ops tag T2 vb)) = _
        rw [e1, e2]
      rw [hL] at h
      have h' : cond (allPosDen ops (tabPos ops T2) (y1 :: prepend r1 (y2 :: r2))
          && allEquivTo ops (tabPos ops T2) y1 (prepend r1 (y2 :: r2))) (some (y1, T2))
          (atom ops tag (y1 :: prepend r1 (y2 :: r2)) src T2) = some (v, T') := h
      cases hc : (allPosDen ops (tabPos ops T2) (y1 :: prepend r1 (y2 :: r2))
          && allEquivTo ops (tabPos ops T2) y1 (prepend r1 (y2 :: r2)))
      · rw [hc] at h'
        apply atom_inv' cc I ρ evT hI tag _ src T2 T' v _ h'
        intro ν hg hp
        rw [hop]
        exact key ν hg hp
      · rw [hc] at h'
        match some_pair h' with
        | ⟨ev, eT⟩ =>
          rw [← ev, ← eT]
          apply inv_pure
          intro ν hg
          have k : foldOp op (nfVal cc (envOf ρ ν) y1
              :: (prepend r1 (y2 :: r2)).map (nfVal cc (envOf ρ ν))) = evT src :=
            key ν hg (and_left' hc)
          have col := foldOp_allEq op hId (nfVal cc (envOf ρ ν) y1) _
            (allEquivTo_sound cc (envOf ρ ν) _ (good_pos cc I ρ hI T2 ν hg) y1 _ (and_right' hc))
          rw [col] at k
          rw [← k]
          exact rep_of_val cc _ y1

/-- `rsqrt a` where the normal form `va` of `a` has positive numerator and denominator:
`1 / s` for the `sqrt` atom `s`.  Under a good valuation `a` is positive (`good_pos`), so
`rsqrt a = 1 / sqrt a` (`FieldInterp.rsqrt_sqrt`). -/
theorem rsqrt_inv (hI : FieldInterp I) (T T1 T' : Tab K C) (a : Term K) (va v : NF C)
    (ia : Inv cc I ρ evT T a va T1)
    (hq : (positive ops (tabPos ops T1) va.1 && positive ops (tabPos ops T1) va.2) = true)
    (h : andThen (atom ops (Tag.func Func.sqrt) [va] (Term.app Func.sqrt a) T1) (fun s T2 =>
      cond (positive ops (tabPos ops T2) s.2) (some (nfDiv ops (nfOne ops) s, T2)) none)
      = some (v, T'))
    (hsem : ∀ g : Func, Term.applyFunc I g (evT a) = evT (Term.app g a)) :
    Inv cc I ρ evT T (Term.app Func.rsqrt a) v T' := by
  match andThen_eq_some h with
  | ⟨s, T2, h1, h2⟩ =>
    cases hp : positive ops (tabPos ops T2) s.2
    · rw [hp] at h2
      cases h2
    · rw [hp] at h2
      match some_pair h2, ia with
      | ⟨e1, e2⟩, ⟨ext1, ok1, ra⟩ =>
        rw [← e1, ← e2]
        have is : Inv cc I ρ evT T1 (Term.app Func.sqrt a) s T2 :=
          atom_inv cc I ρ evT hI (Tag.func Func.sqrt) [va] (Term.app Func.sqrt a) T1 T2 s
            [evT a] (fun ν hg => ⟨ra ν hg, True.intro⟩) (hsem Func.sqrt) h1
        match is with
        | ⟨⟨l2, el2⟩, ok2, rs⟩ =>
          apply inv_after cc I ρ evT T T1 T2 _ _ ext1 ok1
          refine ⟨⟨l2, el2⟩, ok2, ?_⟩
          intro ν hg
          have g1 := good_ext cc I ρ ν l2 T1 T2 el2 hg
          have hP1 := good_pos cc I ρ hI T1 ν g1
          have hN := positive_pos cc _ _ hP1 va.1 (and_left' hq)
          have hD := positive_pos cc _ _ hP1 va.2 (and_right' hq)
          have ex : evT a * fpolyEval cc (envOf ρ ν) va.2 = fpolyEval cc (envOf ρ ν) va.1 :=
            ra ν g1 (pos_ne_zero _ hD)
          have hx : pos (evT a) := by
            rw [← mul_mul_inv_cancel (evT a) _ (pos_ne_zero _ hD), ex]
            exact pos_mul _ _ hN (pos_inv _ hD)
          rw [← hsem Func.rsqrt]
          show Rep cc _ _ (I.func Func.rsqrt (evT a))
          rw [hI.rsqrt_sqrt _ hx]
          have esq : I.func Func.sqrt (evT a) = evT (Term.app Func.sqrt a) := hsem Func.sqrt
          rw [esq]
          exact rep_div cc _ (nfOne ops) s 1 _ (rep_one cc _) (rs ν hg)
            (positive_ne_zero cc _ _ (good_pos cc I ρ hI T2 ν hg) s.2 hp)

/-- `f a` for a quotient `va` of `a` (the `app` case of `norm_sound_aux` and of
`normX_sound_aux`, for any valuation of terms that applies `f` to the value of `a`). -/
theorem normApp_inv (hI : FieldInterp I) (T T1 T' : Tab K C) (a : Term K) (va v : NF C)
    (f : Func) (ia : Inv cc I ρ evT T a va T1) (h : normApp ops a va T1 f = some (v, T'))
    (hsem : ∀ g : Func, Term.applyFunc I g (evT a) = evT (Term.app g a)) :
    Inv cc I ρ evT T (Term.app f a) v T' := by
  cases f with
  | ex2 =>
    have h3 : ex2Of ops (Term.app Func.ex2 a) va T1 (nfEx2 ops va) = some (v, T') := h
    cases hE : nfEx2 ops va with
    | none =>
      rw [hE] at h3
      exact inv_un_atom cc I ρ evT hI T T1 T' a _ va v (Tag.func Func.ex2) ia h3 (hsem Func.ex2)
    | some E =>
      rw [hE] at h3
      match some_pair h3 with
      | ⟨e1, e2⟩ =>
        rw [← e1, ← e2]
        exact inv_un cc I ρ evT T T1 a _ va _ pow2 ia
          (fun ν _ x r => rep_ex2 cc _ va x E hE r) (hsem Func.ex2).symm
  | rcp =>
    have h3 : cond (positive ops (tabPos ops T1) va.2) (some (nfDiv ops (nfOne ops) va, T1)) none
      = some (v, T') := h
    cases hp : positive ops (tabPos ops T1) va.2
    · rw [hp] at h3
      cases h3
    · rw [hp] at h3
      match some_pair h3 with
      | ⟨e1, e2⟩ =>
        rw [← e1, ← e2]
        exact inv_un cc I ρ evT T T1 a _ va _ (fun x => 1 / x) ia
          (fun ν hg x r => rep_div cc _ (nfOne ops) va 1 x (rep_one cc _) r
            (positive_ne_zero cc _ _ (good_pos cc I ρ hI T1 ν hg) va.2 hp))
          ((hsem Func.rcp).symm.trans (hI.rcp _))
  | rsqrt =>
    have h3 : rsqrtOf ops a va T1
        (positive ops (tabPos ops T1) va.1 && positive ops (tabPos ops T1) va.2)
      = some (v, T') := h
    cases hq : (positive ops (tabPos ops T1) va.1 && positive ops (tabPos ops T1) va.2)
    · rw [hq] at h3
      exact inv_un_atom cc I ρ evT hI T T1 T' a _ va v (Tag.func Func.rsqrt) ia h3
        (hsem Func.rsqrt)
    · rw [hq] at h3
      exact rsqrt_inv cc I ρ evT hI T T1 T' a va v ia hq h3 hsem
  | sqrt => exact inv_un_atom cc I ρ evT hI T T1 T' a _ va v (Tag.func Func.sqrt) ia h (hsem _)
  | lg2 => exact inv_un_atom cc I ρ evT hI T T1 T' a _ va v (Tag.func Func.lg2) ia h (hsem _)
  | sin => exact inv_un_atom cc I ρ evT hI T T1 T' a _ va v (Tag.func Func.sin) ia h (hsem _)
  | cos => exact inv_un_atom cc I ρ evT hI T T1 T' a _ va v (Tag.func Func.cos) ia h (hsem _)
  | tanh => exact inv_un_atom cc I ρ evT hI T T1 T' a _ va v (Tag.func Func.tanh) ia h (hsem _)
  | abs => exact inv_un_atom cc I ρ evT hI T T1 T' a _ va v (Tag.func Func.abs) ia h (hsem _)

end NormSound

section NormSound2

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)
variable (I : Interp K α) (ρ ρs : Env α)

/-- What `norm_sound` states of `t`. -/
def NormP (m : Nat → Option Nat) (t : Term K) : Prop :=
  ∀ T v T', norm ops m t T = some (v, T') → Inv cc I ρ (Term.eval I ρs) T t v T'

/-- `P` of both operands of a comparison (the condition of a select is normalized operand by
operand, one level below the select). -/
def cmpArgs (P : Term K → Prop) : Term K → Prop
  | Term.cmp _ l r => P l ∧ P r
  | _ => True

theorem norm_sound_aux (hI : FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (hag : Agrees m ρs ρ) (t : Term K) :
    NormP cc I ρ ρs m t ∧ cmpArgs (NormP cc I ρ ρs m) t := by
  induction t with
  | const k =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match some_pair h with
    | ⟨e1, e2⟩ =>
      rw [← e1, ← e2]
      apply inv_pure
      intro ν _
      exact rep_const cc I hconst _ k
  | input t i =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    have h1 : inputNF ops i T (m t) = some (v, T') := h
    cases hm : m t with
    | none =>
      rw [hm] at h1
      cases h1
    | some p =>
      rw [hm] at h1
      match some_pair h1 with
      | ⟨e1, e2⟩ =>
        rw [← e1, ← e2]
        apply inv_pure
        intro ν _
        have r := rep_var cc (envOf ρ ν) (p + 1, i)
        have e : Term.eval I ρs (Term.input t i) = ρ p i := hag t p i hm
        rw [e]
        exact r
  | add a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThen_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        have h5 : some (nfAdd ops va vb, T2) = some (v, T') := h4
        match some_pair h5 with
        | ⟨e1, e2⟩ =>
          rw [← e1, ← e2]
          exact inv_bin cc I ρ (Term.eval I ρs) T T1 T2 a b _ va vb _ (fun x y => x + y)
            (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3) (fun ν _ x y => rep_add cc _ va vb x y) rfl
  | sub a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThen_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        have h5 : some (nfSub ops va vb, T2) = some (v, T') := h4
        match some_pair h5 with
        | ⟨e1, e2⟩ =>
          rw [← e1, ← e2]
          exact inv_bin cc I ρ (Term.eval I ρs) T T1 T2 a b _ va vb _ (fun x y => x - y)
            (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3) (fun ν _ x y => rep_sub cc _ va vb x y) rfl
  | mul a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThen_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        have h5 : some (nfMul ops va vb, T2) = some (v, T') := h4
        match some_pair h5 with
        | ⟨e1, e2⟩ =>
          rw [← e1, ← e2]
          exact inv_bin cc I ρ (Term.eval I ρs) T T1 T2 a b _ va vb _ (fun x y => x * y)
            (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3) (fun ν _ x y => rep_mul cc _ va vb x y) rfl
  | div a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThen_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        have h5 : cond (positive ops (tabPos ops T2) vb.2) (some (nfDiv ops va vb, T2)) none
          = some (v, T') := h4
        cases hp : positive ops (tabPos ops T2) vb.2
        · rw [hp] at h5
          cases h5
        · rw [hp] at h5
          match some_pair h5 with
          | ⟨e1, e2⟩ =>
            rw [← e1, ← e2]
            exact inv_bin cc I ρ (Term.eval I ρs) T T1 T2 a b _ va vb _ (fun x y => x / y)
              (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3)
              (fun ν hg x y ra rb => rep_div cc _ va vb x y ra rb
                (positive_ne_zero cc _ _ (good_pos cc I ρ hI T2 ν hg) vb.2 hp)) rfl
  | fma a b c iha ihb ihc =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThen_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        match andThen_eq_some h4 with
        | ⟨vc, T3, h5, h6⟩ =>
          have h7 : some (nfAdd ops (nfMul ops va vb) vc, T3) = some (v, T') := h6
          match some_pair h7 with
          | ⟨e1, e2⟩ =>
            rw [← e1, ← e2]
            have iab := inv_bin cc I ρ (Term.eval I ρs) T T1 T2 a b (Term.mul a b) va vb (nfMul ops va vb)
              (fun x y => x * y) (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3) (fun ν _ x y => rep_mul cc _ va vb x y) rfl
            exact inv_bin cc I ρ (Term.eval I ρs) T T2 T3 (Term.mul a b) c _ (nfMul ops va vb) vc _
              (fun x y => x + y) iab (ihc.1 T2 vc T3 h5)
              (fun ν _ x y => rep_add cc _ (nfMul ops va vb) vc x y) rfl
  | neg a iha =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      have h3 : some (nfNeg ops va, T1) = some (v, T') := h2
      match some_pair h3 with
      | ⟨e1, e2⟩ =>
        rw [← e1, ← e2]
        exact inv_un cc I ρ (Term.eval I ρs) T T1 a _ va _ (fun x => -x) (iha.1 T va T1 h1)
          (fun ν _ x => rep_neg cc _ va x) rfl
  | max a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThen_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        exact lattice_inv cc I ρ (Term.eval I ρs) hI Tag.max I.max (fun xs => rfl) hI.max_assoc hI.max_idem
          T T1 T2 T' a b _ va vb v (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3) h4 rfl
  | min a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThen_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        exact lattice_inv cc I ρ (Term.eval I ρs) hI Tag.min I.min (fun xs => rfl) hI.min_assoc hI.min_idem
          T T1 T2 T' a b _ va vb v (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3) h4 rfl
  | app f a iha =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    match andThen_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      exact normApp_inv cc I ρ (Term.eval I ρs) hI T T1 T' a va v f (iha.1 T va T1 h1) h2
        (fun g => rfl)
  | cmp op l r ihl ihr =>
    refine ⟨?_, ⟨ihl.1, ihr.1⟩⟩
    intro T v T' h
    cases h
  | select c a b ihc iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    cases c with
    | cmp op l r =>
      match andThen_eq_some h with
      | ⟨vl, T1, h1, h2⟩ =>
        match andThen_eq_some h2 with
        | ⟨vr, T2, h3, h4⟩ =>
          match andThen_eq_some h4 with
          | ⟨va, T3, h5, h6⟩ =>
            match andThen_eq_some h6 with
            | ⟨vb, T4, h7, h8⟩ =>
              exact inv_quad_atom cc I ρ (Term.eval I ρs) hI T T1 T2 T3 T4 T' l r a b _ vl vr va vb v
                (Tag.select op) (ihc.2.1 T vl T1 h1) (ihc.2.2 T1 vr T2 h3) (iha.1 T2 va T3 h5)
                (ihb.1 T3 vb T4 h7) h8 rfl
    | _ => cases h
  | _ =>
    refine ⟨?_, True.intro⟩
    intro T v T' h
    cases h


/-- Soundness of normalization: a normal form computed for `t` represents the value of `t`
(under every valuation of atoms `Good` for the final table), and the table stays `OK`. -/
theorem norm_sound (hI : FieldInterp I) (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (hag : Agrees m ρs ρ) (t : Term K) :
    ∀ T v T', norm ops m t T = some (v, T') → Inv cc I ρ (Term.eval I ρs) T t v T' :=
  (norm_sound_aux cc I ρ ρs hI hconst m hag t).1

end NormSound2

section FieldRule

/-! ## The rule -/

variable {K C : Type} (ops : FieldCoeffOps K C)

def checkPair (vs : NF C) : Option (NF C × Tab K C) → Bool
  | some p => nfFinal ops (tabPos ops p.2) vs p.1
  | none => false

def fieldNormalizeOf (m : Nat → Option Nat) (t : Term K) : Option (NF C × Tab K C) → Bool
  | some p => checkPair ops p.1 (norm ops m t p.2)
  | none => false

/-- The rule (Rust `field_normalize`): normal forms of both sides, one atom table, both
denominators positive, numerators equal after cross-multiplication. -/
def fieldNormalize (m : Nat → Option Nat) (s t : Term K) : Bool :=
  fieldNormalizeOf ops m t (norm ops m s [])

end FieldRule

section FieldSound

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)

/-- Soundness of `FieldNormalize`: if the rule accepts `s` and `t` (one side's input map `m`,
as in the checker, where both terms live in one arena with one input naming), they have the
same value in every `ExpField`, for every pair environment `ρ` and side environment `ρs`
agreeing with it, under every interpretation where `rcp x = 1/x`, `max`, `min` are
associative, commutative and idempotent, and `sqrt x` is positive and `rsqrt x = 1 / sqrt x`
for positive `x` (`FieldInterp`), given coefficients whose
`cast` respects the operations and tests and sends each constant to its value. -/
theorem fieldNormalize_sound (I : Interp K α) (hI : FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (ρ ρs : Env α) (hag : Agrees m ρs ρ)
    (s t : Term K) (h : fieldNormalize ops m s t = true) :
    Term.eval I ρs s = Term.eval I ρs t := by
  have h1 : fieldNormalizeOf ops m t (norm ops m s []) = true := h
  cases hs : norm ops m s [] with
  | none =>
    rw [hs] at h1
    cases h1
  | some p =>
    cases p with
    | mk vs T1 =>
      rw [hs] at h1
      have h2 : checkPair ops vs (norm ops m t T1) = true := h1
      cases ht : norm ops m t T1 with
      | none =>
        rw [ht] at h2
        cases h2
      | some q =>
        cases q with
        | mk vt T2 =>
          rw [ht] at h2
          have he : nfFinal ops (tabPos ops T2) vs vt = true := h2
          match norm_sound cc I ρ ρs hI hconst m hag s [] vs T1 hs,
            norm_sound cc I ρ ρs hI hconst m hag t T1 vt T2 ht with
          | ⟨_, ok1, r1⟩, ⟨⟨l2, e2⟩, ok2, r2⟩ =>
            have okT2 : OK cc I ρ (Term.eval I ρs) T2 := ok2 (ok1 True.intro)
            have g2 := good_nuOf cc I ρ (Term.eval I ρs) T2 okT2
            have g1 := good_ext cc I ρ (nuOf (Term.eval I ρs) T2) l2 T1 T2 e2 g2
            have hP := good_pos cc I ρ hI T2 _ g2
            have hf := nfFinal_sound cc _ _ hP vs vt he
            have vs_val := rep_val cc _ vs _ (r1 _ g1) (positive_ne_zero cc _ _ hP vs.2 hf.1)
            have vt_val := rep_val cc _ vt _ (r2 _ g2) (positive_ne_zero cc _ _ hP vt.2 hf.2.1)
            rw [← vs_val, ← vt_val]
            exact hf.2.2

end FieldSound

end Rules
end Kcert
