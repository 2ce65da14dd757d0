import Kcert.Rules.Field
import Kcert.ExtSem

/-!
# `FieldNormalize` with infinities

Rust: `checker/src/rules/field.rs`, `Value::NegInf`/`Value::PosInf` and their folding in
`add`, `neg`, `mul`, `ex2`, `lattice` and the final comparison.  The model `normX` returns an
extended normal form `XV` (a quotient `frac v`, `ninf` or `pinf`); on quotients it is `norm`.
Its meaning is the extended-value semantics `Term.evalE` (`Kcert/ExtSem.lean`).

* `ShapeX`: a quotient is a finite value, `ninf` is `-inf`, `pinf` is `+inf`;
* `InvX`: what normalization preserves, given that the table it starts from is `OK` for the
  valuation `evF t = finOf (evalE t)`: the table grows and stays `OK`, the extended value has
  the shape of the normal form, and a quotient represents the finite value (`Rep`) under every
  valuation `Good` for the final table;
* per operation, `OpOK`: for every environment where the operands are represented, the shape
  and the representation of the result.  `c · inf` (`xMul`, `xDiv` through `infScale`) folds by
  the sign of a constant quotient (`constSign`: constant numerator of known sign, `positive`
  denominator), which `constSign_sound` reads off the quotient's representation (this needs
  `pos_inv`), and `SignOf sg` turns into the sign of the finite value;
* `normX_sound` (induction over terms; `xMax_inv`/`xMin_inv` for the lattices, `normApp_inv`
  for functions of a quotient, `inv_quad_atom` for selects) and `fieldNormalizeX_sound`: an
  accepted pair has equal, defined extended values, for every sign function with `SignOf`.

Where the model accepts less than the Rust: an infinity times anything but a constant quotient
of known sign over a `positive` denominator (Rust: any nonzero constant over a nonzero constant
denominator), and infinities as operands of functions other than `ex2` are refused (see the
README).
-/

namespace Kcert
namespace Rules

open ExpField EVal

/-- An extended normal form (Rust `Value`). -/
inductive XV (C : Type) where
  | frac : NF C → XV C
  | ninf : XV C
  | pinf : XV C

section XModel

variable {K C : Type} (ops : FieldCoeffOps K C)

def xNeg : XV C → XV C
  | XV.frac v => XV.frac (nfNeg ops v)
  | XV.ninf => XV.pinf
  | XV.pinf => XV.ninf

/-- Rust `add`: `-inf + +inf` fails, an infinity absorbs a finite value. -/
def xAdd : XV C → XV C → Option (XV C)
  | XV.frac a, XV.frac b => some (XV.frac (nfAdd ops a b))
  | XV.frac _, XV.ninf => some XV.ninf
  | XV.frac _, XV.pinf => some XV.pinf
  | XV.ninf, XV.frac _ => some XV.ninf
  | XV.ninf, XV.ninf => some XV.ninf
  | XV.pinf, XV.frac _ => some XV.pinf
  | XV.pinf, XV.pinf => some XV.pinf
  | _, _ => none

/-- The sign of the numerator constant `n` (Rust `const_sign`, numerator part): `some true`
if `n` passes the positivity test, `some false` if `-n` does, else `none` (zero or unknown). -/
def numSign : Option C → Option Bool
  | some n => cond (ops.isPos n) (some true) (cond (ops.isPos (ops.neg n)) (some false) none)
  | none => none

/-- The sign of a nonzero constant quotient (Rust `const_sign`): the numerator a constant of
known sign, the denominator `positive` (Rust: a nonzero constant of either sign). -/
def constSign (P : Nat → Bool) (v : NF C) : Option Bool :=
  cond (positive ops P v.2) (numSign ops (constOf ops v.1)) none

/-- An infinity `s` times (or divided by) a quotient of sign `b` (Rust `mul`). -/
def infScale (s : XV C) : Option Bool → Option (XV C)
  | some true => some s
  | some false => some (xNeg ops s)
  | none => none

/-- Rust `mul`: quotients multiply; an infinity times a nonzero constant folds by the
constant's sign; anything else with an infinity is refused. -/
def xMul (P : Nat → Bool) : XV C → XV C → Option (XV C)
  | XV.frac a, XV.frac b => some (XV.frac (nfMul ops a b))
  | XV.ninf, XV.frac b => infScale ops XV.ninf (constSign ops P b)
  | XV.pinf, XV.frac b => infScale ops XV.pinf (constSign ops P b)
  | XV.frac a, XV.ninf => infScale ops XV.ninf (constSign ops P a)
  | XV.frac a, XV.pinf => infScale ops XV.pinf (constSign ops P a)
  | _, _ => none

/-- Rust `div`, with the model's positive divisor denominator: an infinity divided by a nonzero
constant folds by its sign; a division by an infinity is refused. -/
def xDiv (P : Nat → Bool) : XV C → XV C → Option (XV C)
  | XV.frac a, XV.frac b => cond (positive ops P b.2) (some (XV.frac (nfDiv ops a b))) none
  | XV.ninf, XV.frac b => infScale ops XV.ninf (constSign ops P b)
  | XV.pinf, XV.frac b => infScale ops XV.pinf (constSign ops P b)
  | _, _ => none

def liftF {K : Type} : Option (NF C × Tab K C) → Option (XV C × Tab K C)
  | some p => some (XV.frac p.1, p.2)
  | none => none

def withT {K : Type} (T : Tab K C) : Option (XV C) → Option (XV C × Tab K C)
  | some v => some (v, T)
  | none => none

def andThenX {K : Type} (r : Option (XV C × Tab K C))
    (f : XV C → Tab K C → Option (XV C × Tab K C)) : Option (XV C × Tab K C) :=
  match r with
  | some p => f p.1 p.2
  | none => none

/-- The zero quotient `0 / 1` (Rust: `ex2(-inf)`). -/
def nfZero : NF C := ([], fpolyOne ops)

/-- Rust `lattice` for `max`: `-inf` is the identity, `+inf` fails. -/
def xMax (src : Term K) : XV C → XV C → Tab K C → Option (XV C × Tab K C)
  | XV.frac a, XV.frac b, T => liftF (lattice ops Tag.max a b src T)
  | XV.ninf, XV.frac b, T => some (XV.frac b, T)
  | XV.frac a, XV.ninf, T => some (XV.frac a, T)
  | XV.ninf, XV.ninf, T => some (XV.ninf, T)
  | _, _, _ => none

/-- Rust `lattice` for `min`: `+inf` is the identity, `-inf` fails. -/
def xMin (src : Term K) : XV C → XV C → Tab K C → Option (XV C × Tab K C)
  | XV.frac a, XV.frac b, T => liftF (lattice ops Tag.min a b src T)
  | XV.pinf, XV.frac b, T => some (XV.frac b, T)
  | XV.frac a, XV.pinf, T => some (XV.frac a, T)
  | XV.pinf, XV.pinf, T => some (XV.pinf, T)
  | _, _, _ => none

/-- Rust `Node::Apply`: `ex2(-inf) = 0`; any other function of an infinity fails. -/
def xApp (a : Term K) : XV C → Tab K C → Func → Option (XV C × Tab K C)
  | XV.frac v, T, f => liftF (normApp ops a v T f)
  | XV.ninf, T, Func.ex2 => some (XV.frac (nfZero ops), T)
  | _, _, _ => none

/-- A select atom, of finite operands only (the Rust also admits infinities). -/
def xSel (src : Term K) (op : CmpOp) : XV C → XV C → XV C → XV C → Tab K C →
    Option (XV C × Tab K C)
  | XV.frac l, XV.frac r, XV.frac a, XV.frac b, T =>
    liftF (atom ops (Tag.select op) [l, r, a, b] src T)
  | _, _, _, _, _ => none

/-- The extended normal form of a term (Rust `Normalizer::value`, with infinities). -/
def normX (m : Nat → Option Nat) : Term K → Tab K C → Option (XV C × Tab K C)
  | Term.const k, T => some (XV.frac (nfConst ops k), T)
  | Term.negInf, T => some (XV.ninf, T)
  | Term.posInf, T => some (XV.pinf, T)
  | Term.input t i, T => liftF (inputNF ops i T (m t))
  | Term.add a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => withT T2 (xAdd ops va vb)
  | Term.sub a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => withT T2 (xAdd ops va (xNeg ops vb))
  | Term.mul a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => withT T2 (xMul ops (tabPos ops T2) va vb)
  | Term.div a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => withT T2 (xDiv ops (tabPos ops T2) va vb)
  | Term.fma a b c, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 =>
        andThenX (withT T2 (xMul ops (tabPos ops T2) va vb)) fun vab _ =>
          andThenX (normX m c T2) fun vc T3 => withT T3 (xAdd ops vab vc)
  | Term.neg a, T => andThenX (normX m a T) fun va T1 => some (xNeg ops va, T1)
  | Term.max a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => xMax ops (Term.max a b) va vb T2
  | Term.min a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => xMin ops (Term.min a b) va vb T2
  | Term.app f a, T => andThenX (normX m a T) fun va T1 => xApp ops a va T1 f
  | Term.select (Term.cmp op l r) a b, T => andThenX (normX m l T) fun vl T1 =>
      andThenX (normX m r T1) fun vr T2 => andThenX (normX m a T2) fun va T3 =>
        andThenX (normX m b T3) fun vb T4 =>
          xSel ops (Term.select (Term.cmp op l r) a b) op vl vr va vb T4
  | _, _ => none

/-- The final comparison (Rust `field_normalize_in`): equal infinities, or equivalent
quotients over positive denominators. -/
def xCheck (P : Nat → Bool) : XV C → XV C → Bool
  | XV.frac a, XV.frac b => nfFinal ops P a b
  | XV.ninf, XV.ninf => true
  | XV.pinf, XV.pinf => true
  | _, _ => false

def xCheckPair (vs : XV C) : Option (XV C × Tab K C) → Bool
  | some p => xCheck ops (tabPos ops p.2) vs p.1
  | none => false

def fieldNormalizeXOf (m : Nat → Option Nat) (t : Term K) : Option (XV C × Tab K C) → Bool
  | some p => xCheckPair ops p.1 (normX ops m t p.2)
  | none => false

/-- The rule `FieldNormalize` with infinities. -/
def fieldNormalizeX (m : Nat → Option Nat) (s t : Term K) : Bool :=
  fieldNormalizeXOf ops m t (normX ops m s [])

end XModel

section XSound

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)

def finOf : EVal α → α
  | EVal.fin x => x
  | _ => 0

/-- The shape of an extended value: a quotient is finite, `ninf` is `-inf`, `pinf` is `+inf`. -/
def ShapeX : XV C → EVal α → Prop
  | XV.frac _, e => ∃ x, e = EVal.fin x
  | XV.ninf, e => e = EVal.ninf
  | XV.pinf, e => e = EVal.pinf

/-- A quotient represents the finite value. -/
def RepF (σ : Env α) : XV C → α → Prop
  | XV.frac v, x => Rep cc σ v x
  | _, _ => True

/-- What a per-operation lemma proves: for every environment where the operands are
represented (`pre`), the shape of the result, and the representation.  The shape is proved
under such an environment because the sign of a constant quotient (`c · inf`) is read off its
representation. -/
def OpOK (xv : XV C) (e : EVal α) (pre : Env α → Prop) : Prop :=
  ∀ σ, pre σ → ShapeX xv e ∧ RepF cc σ xv (finOf e)

theorem xNeg_shape (xa : XV C) (ea : EVal α) (sa : ShapeX xa ea) :
    ShapeX (xNeg ops xa) (negE ea) := by
  cases xa with
  | frac va =>
    match sa with
    | ⟨x, ex⟩ =>
      rw [ex]
      exact ⟨-x, rfl⟩
  | ninf =>
    have e : ea = EVal.ninf := sa
    rw [e]
    exact rfl
  | pinf =>
    have e : ea = EVal.pinf := sa
    rw [e]
    exact rfl

theorem xNeg_ok (xa : XV C) (ea : EVal α) (sa : ShapeX xa ea) :
    OpOK cc (xNeg ops xa) (negE ea) (fun σ => RepF cc σ xa (finOf ea)) := by
  intro σ r
  refine ⟨xNeg_shape xa ea sa, ?_⟩
  cases xa with
  | frac va =>
    match sa with
    | ⟨x, ex⟩ =>
      rw [ex] at r
      rw [ex]
      exact rep_neg cc σ va x r
  | ninf => exact True.intro
  | pinf => exact True.intro

theorem xAdd_ok (xa xb xv : XV C) (h : xAdd ops xa xb = some xv) (ea eb : EVal α)
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
          have e : XV.frac (nfAdd ops va vb) = xv := Option.noConfusion h id
          rw [← e]
          exact fun σ r => ⟨⟨x + y, rfl⟩, rep_add cc σ va vb x y r.1 r.2⟩
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

/-- A quotient `v` whose sign `constSign` finds: the value it represents is positive (sign
`some true`) or has a positive negation (`some false`). -/
theorem constSign_sound (σ : Env α) (P : Nat → Bool) (hP : PosEnv P σ) (v : NF C) (y : α)
    (r : Rep cc σ v y) :
    (constSign ops P v = some true → pos y) ∧ (constSign ops P v = some false → pos (-y)) := by
  have key : ∀ b, constSign ops P v = some b → ∃ n, constOf ops v.1 = some n ∧
      positive ops P v.2 = true ∧ numSign ops (some n) = some b := by
    intro b h
    have h1 : cond (positive ops P v.2) (numSign ops (constOf ops v.1)) none = some b := h
    cases hp : positive ops P v.2
    · rw [hp] at h1
      cases h1
    · rw [hp] at h1
      cases hc : constOf ops v.1 with
      | none =>
        rw [hc] at h1
        cases h1
      | some n =>
        rw [hc] at h1
        exact ⟨n, rfl, rfl, h1⟩
  -- `y = N · inv D` with `D` the positive denominator and `N` the constant numerator.
  have val : ∀ n, constOf ops v.1 = some n → positive ops P v.2 = true →
      y = cc.cast n * inv (fpolyEval cc σ v.2) ∧ pos (fpolyEval cc σ v.2) := by
    intro n hc hp
    have hD : pos (fpolyEval cc σ v.2) := positive_pos cc P σ hP v.2 hp
    have hD0 := pos_ne_zero _ hD
    have e1 : y * fpolyEval cc σ v.2 = cc.cast n := by
      rw [r hD0, constOf_sound cc σ v.1 n hc]
    refine ⟨?_, hD⟩
    rw [← e1, mul_mul_inv_cancel y _ hD0]
  refine ⟨?_, ?_⟩
  · intro h
    match key true h with
    | ⟨n, hc, hp, hs⟩ =>
      have hs' : cond (ops.isPos n) (some true)
          (cond (ops.isPos (ops.neg n)) (some false) none) = some true := hs
      match val n hc hp with
      | ⟨ey, hD⟩ =>
        rw [ey]
        cases hn : ops.isPos n
        · rw [hn] at hs'
          cases hn2 : ops.isPos (ops.neg n)
          · rw [hn2] at hs'
            cases hs'
          · rw [hn2] at hs'
            cases hs'
        · exact pos_mul _ _ (cc.isPos_sound n hn) (pos_inv _ hD)
  · intro h
    match key false h with
    | ⟨n, hc, hp, hs⟩ =>
      have hs' : cond (ops.isPos n) (some true)
          (cond (ops.isPos (ops.neg n)) (some false) none) = some false := hs
      match val n hc hp with
      | ⟨ey, hD⟩ =>
        rw [ey, ← neg_mul]
        cases hn : ops.isPos n
        · rw [hn] at hs'
          cases hn2 : ops.isPos (ops.neg n)
          · rw [hn2] at hs'
            cases hs'
          · have p := cc.isPos_sound _ hn2
            rw [cc.cast_neg] at p
            exact pos_mul _ _ p (pos_inv _ hD)
        · rw [hn] at hs'
          cases hs'

theorem scaleInf_true (sg : α → Option Bool) (s : EVal α) (y : α) (h : sg y = some true) :
    scaleInf sg s y = s := by
  show (match sg y with
    | some true => s
    | some false => negE s
    | none => EVal.bot) = s
  rw [h]

theorem scaleInf_false (sg : α → Option Bool) (s : EVal α) (y : α) (h : sg y = some false) :
    scaleInf sg s y = negE s := by
  show (match sg y with
    | some true => s
    | some false => negE s
    | none => EVal.bot) = negE s
  rw [h]

/-- An infinity `s` (extended value `es`) scaled by a quotient `v` representing `y`. -/
theorem infScale_ok (sg : α → Option Bool) (hsg : SignOf sg) (s xv : XV C) (es : EVal α)
    (v : NF C) (P : Nat → Bool) (hs : (s = XV.ninf ∧ es = EVal.ninf) ∨ (s = XV.pinf ∧ es = EVal.pinf))
    (h : infScale ops s (constSign ops P v) = some xv) (σ : Env α) (hP : PosEnv P σ) (y z : α)
    (r : Rep cc σ v y) : ShapeX xv (scaleInf sg es y) ∧ RepF cc σ xv z := by
  have sh : ShapeX s es := by
    cases hs with
    | inl e =>
      rw [e.1, e.2]
      exact rfl
    | inr e =>
      rw [e.1, e.2]
      exact rfl
  have rf : ∀ w : XV C, (w = XV.ninf ∨ w = XV.pinf) → RepF cc σ w z := by
    intro w hw
    cases hw with
    | inl e =>
      rw [e]
      exact True.intro
    | inr e =>
      rw [e]
      exact True.intro
  cases hc : constSign ops P v with
  | none =>
    rw [hc] at h
    cases h
  | some b =>
    rw [hc] at h
    cases b with
    | true =>
      have e : s = xv := Option.noConfusion h id
      rw [← e, scaleInf_true sg es y (hsg.pos_sg y ((constSign_sound cc σ P hP v y r).1 hc))]
      refine ⟨sh, rf s ?_⟩
      cases hs with
      | inl e1 => exact Or.inl e1.1
      | inr e1 => exact Or.inr e1.1
    | false =>
      have e : xNeg ops s = xv := Option.noConfusion h id
      rw [← e, scaleInf_false sg es y (hsg.neg_sg y ((constSign_sound cc σ P hP v y r).2 hc))]
      refine ⟨xNeg_shape s es sh, rf _ ?_⟩
      cases hs with
      | inl e1 =>
        rw [e1.1]
        exact Or.inr rfl
      | inr e1 =>
        rw [e1.1]
        exact Or.inl rfl

theorem xMul_ok (sg : α → Option Bool) (hsg : SignOf sg) (P : Nat → Bool) (xa xb xv : XV C)
    (h : xMul ops P xa xb = some xv)
    (ea eb : EVal α) (sa : ShapeX xa ea) (sb : ShapeX xb eb) :
    OpOK cc xv (mulE sg ea eb)
      (fun σ => PosEnv P σ ∧ RepF cc σ xa (finOf ea) ∧ RepF cc σ xb (finOf eb)) := by
  intro σ pr
  have hP := pr.1
  have r := pr.2
  cases xa with
  | frac va =>
    match sa with
    | ⟨x, ex⟩ =>
      rw [ex] at r
      rw [ex]
      cases xb with
      | frac vb =>
        match sb with
        | ⟨y, ey⟩ =>
          rw [ey] at r
          rw [ey]
          have e : XV.frac (nfMul ops va vb) = xv := Option.noConfusion h id
          rw [← e]
          exact ⟨⟨x * y, rfl⟩, rep_mul cc σ va vb x y r.1 r.2⟩
      | ninf =>
        have e1 : eb = EVal.ninf := sb
        rw [e1]
        exact infScale_ok cc sg hsg XV.ninf xv EVal.ninf va P (Or.inl ⟨rfl, rfl⟩) h σ hP x _ r.1
      | pinf =>
        have e1 : eb = EVal.pinf := sb
        rw [e1]
        exact infScale_ok cc sg hsg XV.pinf xv EVal.pinf va P (Or.inr ⟨rfl, rfl⟩) h σ hP x _ r.1
  | ninf =>
    have e0 : ea = EVal.ninf := sa
    rw [e0]
    cases xb with
    | frac vb =>
      match sb with
      | ⟨y, ey⟩ =>
        rw [ey] at r
        rw [ey]
        exact infScale_ok cc sg hsg XV.ninf xv EVal.ninf vb P (Or.inl ⟨rfl, rfl⟩) h σ hP y _ r.2
    | ninf => cases h
    | pinf => cases h
  | pinf =>
    have e0 : ea = EVal.pinf := sa
    rw [e0]
    cases xb with
    | frac vb =>
      match sb with
      | ⟨y, ey⟩ =>
        rw [ey] at r
        rw [ey]
        exact infScale_ok cc sg hsg XV.pinf xv EVal.pinf vb P (Or.inr ⟨rfl, rfl⟩) h σ hP y _ r.2
    | ninf => cases h
    | pinf => cases h

theorem xDiv_ok (sg : α → Option Bool) (hsg : SignOf sg) (P : Nat → Bool) (xa xb xv : XV C)
    (h : xDiv ops P xa xb = some xv)
    (ea eb : EVal α) (sa : ShapeX xa ea) (sb : ShapeX xb eb) :
    OpOK cc xv (divE sg ea eb)
      (fun σ => PosEnv P σ ∧ RepF cc σ xa (finOf ea) ∧ RepF cc σ xb (finOf eb)) := by
  intro σ pr
  have hP := pr.1
  have r := pr.2
  cases xa with
  | frac va =>
    cases xb with
    | frac vb =>
      match sa, sb with
      | ⟨x, ex⟩, ⟨y, ey⟩ =>
        rw [ex, ey] at r
        rw [ex, ey]
        have h' : cond (positive ops P vb.2) (some (XV.frac (nfDiv ops va vb))) none = some xv := h
        cases hp : positive ops P vb.2
        · rw [hp] at h'
          cases h'
        · rw [hp] at h'
          have e : XV.frac (nfDiv ops va vb) = xv := Option.noConfusion h' id
          rw [← e]
          exact ⟨⟨x / y, rfl⟩, rep_div cc σ va vb x y r.1 r.2 (positive_ne_zero cc σ P hP vb.2 hp)⟩
    | ninf => cases h
    | pinf => cases h
  | ninf =>
    have e0 : ea = EVal.ninf := sa
    rw [e0]
    cases xb with
    | frac vb =>
      match sb with
      | ⟨y, ey⟩ =>
        rw [ey] at r
        rw [ey]
        exact infScale_ok cc sg hsg XV.ninf xv EVal.ninf vb P (Or.inl ⟨rfl, rfl⟩) h σ hP y _ r.2
    | ninf => cases h
    | pinf => cases h
  | pinf =>
    have e0 : ea = EVal.pinf := sa
    rw [e0]
    cases xb with
    | frac vb =>
      match sb with
      | ⟨y, ey⟩ =>
        rw [ey] at r
        rw [ey]
        exact infScale_ok cc sg hsg XV.pinf xv EVal.pinf vb P (Or.inr ⟨rfl, rfl⟩) h σ hP y _ r.2
    | ninf => cases h
    | pinf => cases h

theorem some_pairX {K : Type} {a v : XV C} {T T' : Tab K C} (h : some (a, T) = some (v, T')) :
    a = v ∧ T = T' :=
  Option.noConfusion h fun e => ⟨congrArg Prod.fst e, congrArg Prod.snd e⟩

theorem andThenX_eq_some {K : Type} {r : Option (XV C × Tab K C)}
    {f : XV C → Tab K C → Option (XV C × Tab K C)} {x : XV C × Tab K C}
    (h : andThenX r f = some x) : ∃ v T, r = some (v, T) ∧ f v T = some x := by
  cases r with
  | none => cases h
  | some p =>
    cases p with
    | mk v T => exact ⟨v, T, rfl, h⟩

theorem withT_eq_some {K : Type} {T T' : Tab K C} {r : Option (XV C)} {xv : XV C}
    (h : withT T r = some (xv, T')) : r = some xv ∧ T = T' := by
  cases r with
  | none => cases h
  | some v =>
    match some_pairX h with
    | ⟨e1, e2⟩ => rw [e1, e2]; exact ⟨rfl, rfl⟩

theorem rep_zero (σ : Env α) : Rep cc σ (nfZero ops) 0 := by
  intro _
  show 0 * fpolyEval cc σ (fpolyOne ops) = 0
  rw [zero_mul]

variable (I : Interp K α) (sg : α → Option Bool) (ρ ρs : Env α)

/-- The finite value of a term (`0` if it has none): how atoms are valued. -/
def evF (t : Term K) : α := finOf (Term.evalE I sg ρs t)

/-- What `normX` preserves, from table `T` to `T'`, for `t` and its extended normal form `xv`,
provided `T` is `OK` (atoms valued by `evF`): the table grows and stays `OK`, `xv` has the shape
of the extended value of `t`, and a quotient represents the finite value under every valuation
`Good` for `T'`.  (Everything is under `OK T`: the shape of `c · inf` needs the sign of `c`,
read from its representation under one good valuation, `nuOf`.) -/
def InvX (T : Tab K C) (t : Term K) (xv : XV C) (T' : Tab K C) : Prop :=
  OK cc I ρ (evF I sg ρs) T →
    (∃ l, T' = prepend l T) ∧ OK cc I ρ (evF I sg ρs) T' ∧
    ShapeX xv (Term.evalE I sg ρs t) ∧
    ∀ ν, Good cc I ρ ν T' → RepF cc (envOf ρ ν) xv (evF I sg ρs t)

theorem evF_of (t : Term K) (x : α) (h : Term.evalE I sg ρs t = EVal.fin x) :
    evF I sg ρs t = x := by
  show finOf (Term.evalE I sg ρs t) = x
  rw [h]
  rfl

theorem inv_of_invX (T T' : Tab K C) (t : Term K) (v : NF C)
    (h : InvX cc I sg ρ ρs T t (XV.frac v) T') (o : OK cc I ρ (evF I sg ρs) T) :
    Inv cc I ρ (evF I sg ρs) T t v T' :=
  match h o with
  | ⟨e, ok, _, r⟩ => ⟨e, fun _ => ok, r⟩

theorem invX_of_inv (T T' : Tab K C) (t : Term K) (v : NF C)
    (h : OK cc I ρ (evF I sg ρs) T →
      Inv cc I ρ (evF I sg ρs) T t v T' ∧ ∃ x, Term.evalE I sg ρs t = EVal.fin x) :
    InvX cc I sg ρ ρs T t (XV.frac v) T' := fun o =>
  match h o with
  | ⟨⟨e, ok, r⟩, hs⟩ => ⟨e, ok o, hs, r⟩

theorem invX_un (T T1 : Tab K C) (a t : Term K) (xa xv : XV C) (g : EVal α → EVal α)
    (ha : InvX cc I sg ρ ρs T a xa T1)
    (hs : ∀ ea, ShapeX xa ea → OpOK cc xv (g ea) (fun σ => RepF cc σ xa (finOf ea)))
    (he : Term.evalE I sg ρs t = g (Term.evalE I sg ρs a)) : InvX cc I sg ρ ρs T t xv T1 := by
  intro o
  match ha o with
  | ⟨hx, ok1, sa, ra⟩ =>
    have k := hs _ sa
    have g0 := good_nuOf cc I ρ (evF I sg ρs) T1 ok1
    refine ⟨hx, ok1, ?_, ?_⟩
    · rw [he]
      exact (k _ (ra _ g0)).1
    · intro ν hg
      have r := (k (envOf ρ ν) (ra ν hg)).2
      show RepF cc _ xv (finOf (Term.evalE I sg ρs t))
      rw [he]
      exact r

theorem invX_bin (T T1 T2 : Tab K C) (a b t : Term K) (xa xb xv : XV C)
    (g : EVal α → EVal α → EVal α)
    (ha : InvX cc I sg ρ ρs T a xa T1) (hb : InvX cc I sg ρ ρs T1 b xb T2)
    (hs : ∀ ea eb, ShapeX xa ea → ShapeX xb eb →
      OpOK cc xv (g ea eb) (fun σ => RepF cc σ xa (finOf ea) ∧ RepF cc σ xb (finOf eb)))
    (he : Term.evalE I sg ρs t = g (Term.evalE I sg ρs a) (Term.evalE I sg ρs b)) :
    InvX cc I sg ρ ρs T t xv T2 := by
  intro o
  match ha o with
  | ⟨⟨l1, h1⟩, ok1, sa, ra⟩ =>
    match hb ok1 with
    | ⟨⟨l2, h2⟩, ok2, sb, rb⟩ =>
      have k := hs _ _ sa sb
      have pre : ∀ ν, Good cc I ρ ν T2 → RepF cc (envOf ρ ν) xa (finOf (Term.evalE I sg ρs a)) ∧
          RepF cc (envOf ρ ν) xb (finOf (Term.evalE I sg ρs b)) :=
        fun ν hg => ⟨ra ν (good_ext cc I ρ ν l2 T1 T2 h2 hg), rb ν hg⟩
      have g0 := good_nuOf cc I ρ (evF I sg ρs) T2 ok2
      refine ⟨⟨prepend l2 l1, by rw [h2, h1, prepend_assoc]⟩, ok2, ?_, ?_⟩
      · rw [he]
        exact (k _ (pre _ g0)).1
      · intro ν hg
        have r := (k (envOf ρ ν) (pre ν hg)).2
        show RepF cc _ xv (finOf (Term.evalE I sg ρs t))
        rw [he]
        exact r

/-- `invX_bin` for operations that need the positive atoms of the table (`xMul`, `xDiv`: the
sign of a constant quotient, a divisor's denominator). -/
theorem invX_binP (hI : FieldInterp I) (T T1 T2 : Tab K C) (a b t : Term K) (xa xb xv : XV C)
    (g : EVal α → EVal α → EVal α)
    (ha : InvX cc I sg ρ ρs T a xa T1) (hb : InvX cc I sg ρ ρs T1 b xb T2)
    (hs : ∀ ea eb, ShapeX xa ea → ShapeX xb eb →
      OpOK cc xv (g ea eb) (fun σ => PosEnv (tabPos ops T2) σ ∧ RepF cc σ xa (finOf ea) ∧
        RepF cc σ xb (finOf eb)))
    (he : Term.evalE I sg ρs t = g (Term.evalE I sg ρs a) (Term.evalE I sg ρs b)) :
    InvX cc I sg ρ ρs T t xv T2 := by
  intro o
  match ha o with
  | ⟨⟨l1, h1⟩, ok1, sa, ra⟩ =>
    match hb ok1 with
    | ⟨⟨l2, h2⟩, ok2, sb, rb⟩ =>
      have k := hs _ _ sa sb
      have pre : ∀ ν, Good cc I ρ ν T2 → PosEnv (tabPos ops T2) (envOf ρ ν) ∧
          RepF cc (envOf ρ ν) xa (finOf (Term.evalE I sg ρs a)) ∧
          RepF cc (envOf ρ ν) xb (finOf (Term.evalE I sg ρs b)) :=
        fun ν hg => ⟨good_pos cc I ρ hI T2 ν hg, ra ν (good_ext cc I ρ ν l2 T1 T2 h2 hg), rb ν hg⟩
      have g0 := good_nuOf cc I ρ (evF I sg ρs) T2 ok2
      refine ⟨⟨prepend l2 l1, by rw [h2, h1, prepend_assoc]⟩, ok2, ?_, ?_⟩
      · rw [he]
        exact (k _ (pre _ g0)).1
      · intro ν hg
        have r := (k (envOf ρ ν) (pre ν hg)).2
        show RepF cc _ xv (finOf (Term.evalE I sg ρs t))
        rw [he]
        exact r

theorem liftF_eq_some {K : Type} {r : Option (NF C × Tab K C)} {xv : XV C} {T' : Tab K C}
    (h : liftF r = some (xv, T')) : ∃ v, r = some (v, T') ∧ xv = XV.frac v := by
  cases r with
  | none => cases h
  | some p =>
    cases p with
    | mk v T =>
      have e : (XV.frac v, T) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac v = xv := congrArg Prod.fst e
      have e2 : T = T' := congrArg Prod.snd e
      rw [← e2]
      exact ⟨v, rfl, e1.symm⟩

/-- `max(a, b)` with infinities: `-inf` dropped, two quotients through `lattice_inv`. -/
theorem xMax_inv (hI : FieldInterp I) (T T1 T2 T' : Tab K C) (a b : Term K) (xa xb xv : XV C)
    (ha : InvX cc I sg ρ ρs T a xa T1) (hb : InvX cc I sg ρ ρs T1 b xb T2)
    (h : xMax ops (Term.max a b) xa xb T2 = some (xv, T')) :
    InvX cc I sg ρ ρs T (Term.max a b) xv T' := by
  cases xa with
  | frac va =>
    cases xb with
    | frac vb =>
      intro o
      match liftF_eq_some h, ha o with
      | ⟨v, hl, hv⟩, ⟨_, ok1, ⟨x, ex⟩, _⟩ =>
        match hb ok1 with
        | ⟨_, _, ⟨y, ey⟩, _⟩ =>
          rw [hv]
          have hsem : I.max (evF I sg ρs a) (evF I sg ρs b) = evF I sg ρs (Term.max a b) := by
            rw [evF_of I sg ρs a x ex, evF_of I sg ρs b y ey]
            show _ = finOf (maxE I.max (Term.evalE I sg ρs a) (Term.evalE I sg ρs b))
            rw [ex, ey]
            rfl
          have es : Term.evalE I sg ρs (Term.max a b) = EVal.fin (I.max x y) := by
            show maxE I.max (Term.evalE I sg ρs a) (Term.evalE I sg ρs b) = _
            rw [ex, ey]
            rfl
          apply invX_of_inv cc I sg ρ ρs T T' (Term.max a b) v _ o
          intro o'
          exact ⟨lattice_inv cc I ρ (evF I sg ρs) hI Tag.max I.max (fun xs => rfl) hI.max_assoc
            hI.max_idem T T1 T2 T' a b _ va vb v (inv_of_invX cc I sg ρ ρs T T1 a va ha o')
            (inv_of_invX cc I sg ρ ρs T1 T2 b vb hb ok1) hl hsem, ⟨_, es⟩⟩
    | ninf =>
      have e : (XV.frac va, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac va = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.max a b) _ _ _ (maxE I.max) ha hb _ rfl
      intro ea eb sa sb
      have e1 : eb = EVal.ninf := sb
      match sa with
      | ⟨x, ex⟩ =>
        rw [e1, ex]
        exact fun σ r => ⟨⟨x, rfl⟩, r.1⟩
    | pinf => cases h
  | ninf =>
    cases xb with
    | frac vb =>
      have e : (XV.frac vb, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac vb = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.max a b) _ _ _ (maxE I.max) ha hb _ rfl
      intro ea eb sa sb
      have e1 : ea = EVal.ninf := sa
      match sb with
      | ⟨y, ey⟩ =>
        rw [e1, ey]
        exact fun σ r => ⟨⟨y, rfl⟩, r.2⟩
    | ninf =>
      have e : (XV.ninf, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.ninf = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.max a b) _ _ _ (maxE I.max) ha hb _ rfl
      intro ea eb sa sb
      have e1 : ea = EVal.ninf := sa
      have e2 : eb = EVal.ninf := sb
      rw [e1, e2]
      exact fun _ _ => ⟨rfl, True.intro⟩
    | pinf => cases h
  | pinf => cases h

/-- `min(a, b)` with infinities: `+inf` dropped, two quotients through `lattice_inv`. -/
theorem xMin_inv (hI : FieldInterp I) (T T1 T2 T' : Tab K C) (a b : Term K) (xa xb xv : XV C)
    (ha : InvX cc I sg ρ ρs T a xa T1) (hb : InvX cc I sg ρ ρs T1 b xb T2)
    (h : xMin ops (Term.min a b) xa xb T2 = some (xv, T')) :
    InvX cc I sg ρ ρs T (Term.min a b) xv T' := by
  cases xa with
  | frac va =>
    cases xb with
    | frac vb =>
      intro o
      match liftF_eq_some h, ha o with
      | ⟨v, hl, hv⟩, ⟨_, ok1, ⟨x, ex⟩, _⟩ =>
        match hb ok1 with
        | ⟨_, _, ⟨y, ey⟩, _⟩ =>
          rw [hv]
          have hsem : I.min (evF I sg ρs a) (evF I sg ρs b) = evF I sg ρs (Term.min a b) := by
            rw [evF_of I sg ρs a x ex, evF_of I sg ρs b y ey]
            show _ = finOf (minE I.min (Term.evalE I sg ρs a) (Term.evalE I sg ρs b))
            rw [ex, ey]
            rfl
          have es : Term.evalE I sg ρs (Term.min a b) = EVal.fin (I.min x y) := by
            show minE I.min (Term.evalE I sg ρs a) (Term.evalE I sg ρs b) = _
            rw [ex, ey]
            rfl
          apply invX_of_inv cc I sg ρ ρs T T' (Term.min a b) v _ o
          intro o'
          exact ⟨lattice_inv cc I ρ (evF I sg ρs) hI Tag.min I.min (fun xs => rfl) hI.min_assoc
            hI.min_idem T T1 T2 T' a b _ va vb v (inv_of_invX cc I sg ρ ρs T T1 a va ha o')
            (inv_of_invX cc I sg ρ ρs T1 T2 b vb hb ok1) hl hsem, ⟨_, es⟩⟩
    | pinf =>
      have e : (XV.frac va, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac va = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.min a b) _ _ _ (minE I.min) ha hb _ rfl
      intro ea eb sa sb
      have e1 : eb = EVal.pinf := sb
      match sa with
      | ⟨x, ex⟩ =>
        rw [e1, ex]
        exact fun σ r => ⟨⟨x, rfl⟩, r.1⟩
    | ninf => cases h
  | pinf =>
    cases xb with
    | frac vb =>
      have e : (XV.frac vb, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac vb = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.min a b) _ _ _ (minE I.min) ha hb _ rfl
      intro ea eb sa sb
      have e1 : ea = EVal.pinf := sa
      match sb with
      | ⟨y, ey⟩ =>
        rw [e1, ey]
        exact fun σ r => ⟨⟨y, rfl⟩, r.2⟩
    | pinf =>
      have e : (XV.pinf, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.pinf = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.min a b) _ _ _ (minE I.min) ha hb _ rfl
      intro ea eb sa sb
      have e1 : ea = EVal.pinf := sa
      have e2 : eb = EVal.pinf := sb
      rw [e1, e2]
      exact fun _ _ => ⟨rfl, True.intro⟩
    | ninf => cases h
  | ninf => cases h

theorem evalE_select_fin (op : CmpOp) (l r a b : Term K) (xl xr xa xb : α)
    (el : Term.evalE I sg ρs l = EVal.fin xl) (er : Term.evalE I sg ρs r = EVal.fin xr)
    (ea : Term.evalE I sg ρs a = EVal.fin xa) (eb : Term.evalE I sg ρs b = EVal.fin xb) :
    Term.evalE I sg ρs (Term.select (Term.cmp op l r) a b)
      = EVal.fin (if I.cmp op xl xr then xa else xb) := by
  show selE (cmpE I op (Term.evalE I sg ρs l) (Term.evalE I sg ρs r)) (Term.evalE I sg ρs a)
    (Term.evalE I sg ρs b) = _
  rw [el, er, ea, eb]
  exact Term.selE_some _ xa xb

/-- What `normX_sound` states of `t`. -/
def NormXP (m : Nat → Option Nat) (t : Term K) : Prop :=
  ∀ T xv T', normX ops m t T = some (xv, T') → InvX cc I sg ρ ρs T t xv T'

theorem normX_sound_aux (hI : FieldInterp I) (hsg : SignOf sg)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (hag : Agrees m ρs ρ) (t : Term K) :
    NormXP cc I sg ρ ρs m t ∧ cmpArgs (NormXP cc I sg ρ ρs m) t := by
  induction t with
  | const k =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match some_pairX h with
    | ⟨e1, e2⟩ =>
      rw [← e1, ← e2]
      exact invX_of_inv cc I sg ρ ρs T T (Term.const k) _ (fun _ =>
        ⟨inv_pure cc I ρ (evF I sg ρs) T (Term.const k) _ (fun ν _ => rep_const cc I hconst _ k),
          ⟨I.const k, rfl⟩⟩)
  | negInf =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match some_pairX h with
    | ⟨e1, e2⟩ =>
      rw [← e1, ← e2]
      exact fun o => ⟨⟨[], rfl⟩, o, rfl, fun _ _ => True.intro⟩
  | posInf =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match some_pairX h with
    | ⟨e1, e2⟩ =>
      rw [← e1, ← e2]
      exact fun o => ⟨⟨[], rfl⟩, o, rfl, fun _ _ => True.intro⟩
  | input t i =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match liftF_eq_some h with
    | ⟨v, h1, hv⟩ =>
      rw [hv]
      cases hm : m t with
      | none =>
        rw [hm] at h1
        cases h1
      | some p =>
        rw [hm] at h1
        match some_pair h1 with
        | ⟨e1, e2⟩ =>
          rw [← e1, ← e2]
          apply invX_of_inv cc I sg ρ ρs T T (Term.input t i) _ (fun _ => ⟨?_, ⟨ρs t i, rfl⟩⟩)
          apply inv_pure
          intro ν _
          have r := rep_var cc (envOf ρ ν) (p + 1, i)
          have e : evF I sg ρs (Term.input t i) = ρ p i := hag t p i hm
          rw [e]
          exact r
  | add a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThenX_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        match withT_eq_some h4 with
        | ⟨hx, eT⟩ =>
          rw [← eT]
          exact invX_bin cc I sg ρ ρs T T1 T2 a b _ va vb xv addE (iha.1 T va T1 h1)
            (ihb.1 T1 vb T2 h3) (fun ea eb sa sb => xAdd_ok cc va vb xv hx ea eb sa sb) rfl
  | sub a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThenX_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        match withT_eq_some h4 with
        | ⟨hx, eT⟩ =>
          rw [← eT]
          apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.sub a b) va vb xv (fun ea eb => addE ea (negE eb))
            (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3) _ rfl
          intro ea eb sa sb σ r
          have n := xNeg_ok cc vb eb sb σ r.2
          exact xAdd_ok cc va (xNeg ops vb) xv hx ea (negE eb) sa (xNeg_shape vb eb sb) σ
            ⟨r.1, n.2⟩
  | mul a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThenX_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        match withT_eq_some h4 with
        | ⟨hx, eT⟩ =>
          rw [← eT]
          exact invX_binP cc I sg ρ ρs hI T T1 T2 a b _ va vb xv (mulE sg) (iha.1 T va T1 h1)
            (ihb.1 T1 vb T2 h3) (fun ea eb sa sb => xMul_ok cc sg hsg _ va vb xv hx ea eb sa sb) rfl
  | div a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThenX_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        match withT_eq_some h4 with
        | ⟨hx, eT⟩ =>
          rw [← eT]
          exact invX_binP cc I sg ρ ρs hI T T1 T2 a b _ va vb xv (divE sg) (iha.1 T va T1 h1)
            (ihb.1 T1 vb T2 h3) (fun ea eb sa sb => xDiv_ok cc sg hsg _ va vb xv hx ea eb sa sb) rfl
  | fma a b c iha ihb ihc =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThenX_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        match andThenX_eq_some h4 with
        | ⟨vab, Tx, h5, h6⟩ =>
          match withT_eq_some h5, andThenX_eq_some h6 with
          | ⟨hab, _⟩, ⟨vc, T3, h7, h8⟩ =>
            match withT_eq_some h8 with
            | ⟨hx, eT⟩ =>
              rw [← eT]
              have iab := invX_binP cc I sg ρ ρs hI T T1 T2 a b (Term.mul a b) va vb vab (mulE sg)
                (iha.1 T va T1 h1) (ihb.1 T1 vb T2 h3)
                (fun ea eb sa sb => xMul_ok cc sg hsg _ va vb vab hab ea eb sa sb) rfl
              exact invX_bin cc I sg ρ ρs T T2 T3 (Term.mul a b) c _ vab vc xv addE iab
                (ihc.1 T2 vc T3 h7) (fun ea eb sa sb => xAdd_ok cc vab vc xv hx ea eb sa sb) rfl
  | neg a iha =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match some_pairX h2 with
      | ⟨e1, e2⟩ =>
        rw [← e1, ← e2]
        exact invX_un cc I sg ρ ρs T T1 a _ va _ negE (iha.1 T va T1 h1)
          (fun ea sa => xNeg_ok cc va ea sa) rfl
  | max a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThenX_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        exact xMax_inv cc I sg ρ ρs hI T T1 T2 T' a b va vb xv (iha.1 T va T1 h1)
          (ihb.1 T1 vb T2 h3) h4
  | min a b iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      match andThenX_eq_some h2 with
      | ⟨vb, T2, h3, h4⟩ =>
        exact xMin_inv cc I sg ρ ρs hI T T1 T2 T' a b va vb xv (iha.1 T va T1 h1)
          (ihb.1 T1 vb T2 h3) h4
  | app f a iha =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    match andThenX_eq_some h with
    | ⟨va, T1, h1, h2⟩ =>
      have ia := iha.1 T va T1 h1
      cases va with
      | frac v0 =>
        intro o
        match liftF_eq_some h2, ia o with
        | ⟨v, hl, hv⟩, ⟨_, _, ⟨x, ex⟩, _⟩ =>
          rw [hv]
          have ef : Term.evalE I sg ρs (Term.app f a) = EVal.fin (Term.applyFunc I f x) := by
            show applyE I f (Term.evalE I sg ρs a) = _
            rw [ex]
            exact Term.applyE_fin I f x
          have hsem : ∀ g, Term.applyFunc I g (evF I sg ρs a) = evF I sg ρs (Term.app g a) := by
            intro g
            have eg : Term.evalE I sg ρs (Term.app g a) = EVal.fin (Term.applyFunc I g x) := by
              show applyE I g (Term.evalE I sg ρs a) = _
              rw [ex]
              exact Term.applyE_fin I g x
            rw [evF_of I sg ρs a x ex, evF_of I sg ρs _ _ eg]
          exact invX_of_inv cc I sg ρ ρs T T' _ v (fun o' =>
            ⟨normApp_inv cc I ρ (evF I sg ρs) hI T T1 T' a v0 v f
              (inv_of_invX cc I sg ρ ρs T T1 a v0 ia o') hl hsem, ⟨_, ef⟩⟩) o
      | ninf =>
        cases f with
        | ex2 =>
          match some_pairX h2 with
          | ⟨e1, e2⟩ =>
            rw [← e1, ← e2]
            apply invX_un cc I sg ρ ρs T T1 a (Term.app Func.ex2 a) XV.ninf _ ex2E ia _ rfl
            intro ea sa
            have e0 : ea = EVal.ninf := sa
            rw [e0]
            exact fun σ _ => ⟨⟨0, rfl⟩, rep_zero cc σ⟩
        | _ => cases h2
      | pinf => cases h2
  | cmp op l r ihl ihr =>
    refine ⟨?_, ⟨ihl.1, ihr.1⟩⟩
    intro T xv T' h
    cases h
  | select c a b ihc iha ihb =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    cases c with
    | cmp op l r =>
      match andThenX_eq_some h with
      | ⟨vl, T1, h1, h2⟩ =>
        match andThenX_eq_some h2 with
        | ⟨vr, T2, h3, h4⟩ =>
          match andThenX_eq_some h4 with
          | ⟨va, T3, h5, h6⟩ =>
            match andThenX_eq_some h6 with
            | ⟨vb, T4, h7, h8⟩ =>
              have il := ihc.2.1 T vl T1 h1
              have ir := ihc.2.2 T1 vr T2 h3
              have ia := iha.1 T2 va T3 h5
              have ib := ihb.1 T3 vb T4 h7
              cases vl with
              | frac l0 =>
                cases vr with
                | frac r0 =>
                  cases va with
                  | frac a0 =>
                    cases vb with
                    | frac b0 =>
                      intro o
                      match liftF_eq_some h8, il o with
                      | ⟨v, hl, hv⟩, ⟨_, ok1, ⟨xl, el⟩, _⟩ =>
                      match ir ok1 with
                      | ⟨_, ok2, ⟨xr, er⟩, _⟩ =>
                      match ia ok2 with
                      | ⟨_, ok3, ⟨xa, ea⟩, _⟩ =>
                      match ib ok3 with
                      | ⟨_, _, ⟨xb, eb⟩, _⟩ =>
                        rw [hv]
                        have es := evalE_select_fin I sg ρs op l r a b xl xr xa xb el er ea eb
                        have hsem : tagSem I (Tag.select op)
                            [evF I sg ρs l, evF I sg ρs r, evF I sg ρs a, evF I sg ρs b]
                            = evF I sg ρs (Term.select (Term.cmp op l r) a b) := by
                          rw [evF_of I sg ρs l xl el, evF_of I sg ρs r xr er,
                            evF_of I sg ρs a xa ea, evF_of I sg ρs b xb eb,
                            evF_of I sg ρs _ _ es]
                          rfl
                        exact invX_of_inv cc I sg ρ ρs T T' _ v (fun o' =>
                          ⟨inv_quad_atom cc I ρ (evF I sg ρs) hI T T1 T2 T3 T4 T' l r a b _
                            l0 r0 a0 b0 v (Tag.select op)
                            (inv_of_invX cc I sg ρ ρs T T1 l l0 il o')
                            (inv_of_invX cc I sg ρ ρs T1 T2 r r0 ir ok1)
                            (inv_of_invX cc I sg ρ ρs T2 T3 a a0 ia ok2)
                            (inv_of_invX cc I sg ρ ρs T3 T4 b b0 ib ok3) hl hsem, ⟨_, es⟩⟩) o
                    | ninf => cases h8
                    | pinf => cases h8
                  | ninf => cases h8
                  | pinf => cases h8
                | ninf => cases h8
                | pinf => cases h8
              | ninf => cases h8
              | pinf => cases h8
    | _ => cases h
  | _ =>
    refine ⟨?_, True.intro⟩
    intro T xv T' h
    cases h

/-- Soundness of extended normalization: for an extended normal form computed for `t`, the
table grows and stays `OK` (atoms valued by the finite values of their terms), the extended
value of `t` has the shape of the normal form (finite for a quotient, `-inf`, `+inf`), and a
quotient represents the finite value under every valuation `Good` for the final table. -/
theorem normX_sound (hI : FieldInterp I) (hsg : SignOf sg) (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (hag : Agrees m ρs ρ) (t : Term K) :
    ∀ T xv T', normX ops m t T = some (xv, T') → InvX cc I sg ρ ρs T t xv T' :=
  (normX_sound_aux cc I sg ρ ρs hI hsg hconst m hag t).1

end XSound

section FieldXSound

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)

/-- Soundness of `FieldNormalize` with infinities: if the rule accepts `s` and `t` (input map
`m`), then, in every `ExpField`, for every pair environment `ρ` and side environment `ρs`
agreeing with it, under every interpretation with `FieldInterp`, for every sign function `sg`,
the extended values of `s` and `t` are equal and defined (not `bot`): both finite with equal
values, or both `-inf`, or both `+inf`.  Coefficients as in `fieldNormalize_sound`. -/
theorem fieldNormalizeX_sound (I : Interp K α) (hI : FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (sg : α → Option Bool) (hsg : SignOf sg) (m : Nat → Option Nat) (ρ ρs : Env α) (hag : Agrees m ρs ρ)
    (s t : Term K) (h : fieldNormalizeX ops m s t = true) :
    Term.evalE I sg ρs s = Term.evalE I sg ρs t ∧ Term.evalE I sg ρs s ≠ EVal.bot := by
  have h1 : fieldNormalizeXOf ops m t (normX ops m s []) = true := h
  cases hs : normX ops m s [] with
  | none =>
    rw [hs] at h1
    cases h1
  | some p =>
    cases p with
    | mk xs T1 =>
      rw [hs] at h1
      have h2 : xCheckPair ops xs (normX ops m t T1) = true := h1
      cases ht : normX ops m t T1 with
      | none =>
        rw [ht] at h2
        cases h2
      | some q =>
        cases q with
        | mk xt T2 =>
          rw [ht] at h2
          have h3 : xCheck ops (tabPos ops T2) xs xt = true := h2
          match normX_sound cc I sg ρ ρs hI hsg hconst m hag s [] xs T1 hs,
            normX_sound cc I sg ρ ρs hI hsg hconst m hag t T1 xt T2 ht with
          | is, it =>
            match is True.intro with
            | ⟨_, ok1, ss, r1⟩ =>
            match it ok1 with
            | ⟨⟨l2, e2⟩, ok2, st, r2⟩ =>
            cases xs with
            | frac vs =>
              cases xt with
              | frac vt =>
                match ss, st with
                | ⟨x, ex⟩, ⟨y, ey⟩ =>
                  have he : nfFinal ops (tabPos ops T2) vs vt = true := h3
                  have okT2 : OK cc I ρ (evF I sg ρs) T2 := ok2
                  have g2 := good_nuOf cc I ρ (evF I sg ρs) T2 okT2
                  have g1 := good_ext cc I ρ (nuOf (evF I sg ρs) T2) l2 T1 T2 e2 g2
                  have hP := good_pos cc I ρ hI T2 _ g2
                  have hf := nfFinal_sound cc _ _ hP vs vt he
                  have vs_val := rep_val cc _ vs _ (r1 _ g1) (positive_ne_zero cc _ _ hP vs.2 hf.1)
                  have vt_val := rep_val cc _ vt _ (r2 _ g2)
                    (positive_ne_zero cc _ _ hP vt.2 hf.2.1)
                  have xy : x = y :=
                    (evF_of I sg ρs s x ex).symm.trans (vs_val.symm.trans
                      (hf.2.2.trans (vt_val.trans (evF_of I sg ρs t y ey))))
                  rw [ex, ey, xy]
                  exact ⟨rfl, fun e => EVal.noConfusion e⟩
              | ninf => cases h3
              | pinf => cases h3
            | ninf =>
              cases xt with
              | ninf =>
                have es : Term.evalE I sg ρs s = EVal.ninf := ss
                have et : Term.evalE I sg ρs t = EVal.ninf := st
                rw [es, et]
                exact ⟨rfl, fun e => EVal.noConfusion e⟩
              | frac _ => cases h3
              | pinf => cases h3
            | pinf =>
              cases xt with
              | pinf =>
                have es : Term.evalE I sg ρs s = EVal.pinf := ss
                have et : Term.evalE I sg ρs t = EVal.pinf := st
                rw [es, et]
                exact ⟨rfl, fun e => EVal.noConfusion e⟩
              | frac _ => cases h3
              | ninf => cases h3

end FieldXSound

end Rules
end Kcert
