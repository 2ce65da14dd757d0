import Kcert.Term

/-!
# `copysign` as a select term (`checker/src/exec/step.rs`, `Machine::copysign`)

PTX `copysign.f32 d, a, b` is `|b|` with the sign bit of `a`.  The symbolic executor makes
of it the term `select(a >= 0, abs(b), -abs(b))` (`Node::Select`, `Node::Cmp(Ge, x, 0)`,
`Node::Apply(Abs, y)`, `Node::Neg`); when `b` is a concrete pattern the two magnitudes are the
constants of `b` with its sign bit cleared and set, and when `a` is a concrete pattern its sign
bit chooses, with no comparison.

Floats are modelled by what copysign reads and writes: a sign bit and a magnitude
(`Flt M`: `sign`, `mag`), with the real value `fval f = ±mval mag` (`mval` nonnegative:
`FloatModel`).  The IEEE operation is `ieee a b = ⟨a.sign, b.mag⟩`.  NaN and infinities are
not modelled (values are reals).  A symbolic operand (`Opnd`) is a concrete pattern `bits f`
or a term `term t`; `Rep ρ o f` says that operand `o` holds the float `f` in environment
`ρ` (a term's value is the real value of the float).

The term is read with the project's semantics (`Term.evalP`): `cmp`, `abs` and constants are
opaque in an `Interp`; `RealLaws` states what the proof needs of them, all true of the reals
with `nn x` meaning `0 ≤ x`: `x >= y` is `nn (x - y)`, `nn` is antisymmetric, `abs x = x` for
`nn x` and `abs x = -x` for `nn (-x)`.

Theorems: `copysign_sound`: the term's value is the real value of the IEEE result, for every
pair of floats except a symbolic `a` that is `-0.0`; `copysign_concrete_sign`: with a concrete
`a` the term is exact, `-0.0` included; `copysign_negZero`: for a symbolic `a = -0.0` the term
gives `|b|` where IEEE gives `-|b|` (they differ unless `b` is a zero).
-/

namespace Kcert
namespace Copysign

open ExpField

variable {K α M : Type} [ExpField α]

/-- A float: sign bit and magnitude. -/
structure Flt (M : Type) where
  sign : Bool
  mag : M

/-- The real value of magnitudes (nonnegative). -/
structure FloatModel (M α : Type) [ExpField α] where
  mval : M → α
  mval_nn : ∀ m, nn (mval m)

/-- The real value of a float: `-m` when the sign bit is set, `m` otherwise. -/
def fval (F : FloatModel M α) (f : Flt M) : α :=
  if f.sign = true then -(F.mval f.mag) else F.mval f.mag

/-- IEEE `copysign(a, b)` (PTX operand order: sign from `a`, magnitude from `b`). -/
def ieee (a b : Flt M) : Flt M := ⟨a.sign, b.mag⟩

/-- An operand of the symbolic executor: a concrete pattern or a term. -/
inductive Opnd (K M : Type) where
  | bits : Flt M → Opnd K M
  | term : Term K → Opnd K M

/-- The two magnitudes: for a concrete `b` the constants of its pattern with the sign bit
cleared and set (`kOf`: Rust `term_of`), for a term `y` the terms `abs(y)` and `-abs(y)`. -/
def mags (kOf : Flt M → K) : Opnd K M → Term K × Term K
  | Opnd.bits f => (Term.const (kOf ⟨false, f.mag⟩), Term.const (kOf ⟨true, f.mag⟩))
  | Opnd.term y => (Term.app Func.abs y, Term.neg (Term.app Func.abs y))

/-- `Machine::copysign`: a concrete `a` chooses by its sign bit, otherwise
`select(cmp(ge, x, 0), pos, neg)` (`zeroK`: the constant `Dyadic::ZERO`). -/
def copysignTerm (kOf : Flt M → K) (zeroK : K) (a b : Opnd K M) : Term K :=
  match a with
  | Opnd.bits f => if f.sign = true then (mags kOf b).2 else (mags kOf b).1
  | Opnd.term x => Term.select (Term.cmp CmpOp.ge x (Term.const zeroK))
      (mags kOf b).1 (mags kOf b).2

/-- What the proof needs of the interpretation (true of the reals, `nn x` as `0 ≤ x`). -/
structure RealLaws (I : Interp K α) : Prop where
  ge_iff : ∀ x y : α, I.cmp CmpOp.ge x y = true ↔ nn (x - y)
  nn_antisymm : ∀ x : α, nn x → nn (-x) → x = 0
  abs_nn : ∀ x : α, nn x → I.func Func.abs x = x
  abs_nonpos : ∀ x : α, nn (-x) → I.func Func.abs x = -x

/-- Operand `o` holds the float `f` in environment `ρ`. -/
def Rep (F : FloatModel M α) (I : Interp K α) (ρ : Env α) : Opnd K M → Flt M → Prop
  | Opnd.bits g, f => g = f
  | Opnd.term t, f => Term.eval I ρ t = fval F f

theorem neg_neg' (a : α) : -(-a) = a :=
  neg_eq_of_add_eq_zero (neg_add_self a)

theorem neg_zero' : -(0 : α) = 0 :=
  neg_eq_of_add_eq_zero (add_zero 0)

theorem sub_zero' (a : α) : a - 0 = a := by
  rw [sub_def, neg_zero', add_zero]

theorem fval_false (F : FloatModel M α) (m : M) : fval F ⟨false, m⟩ = F.mval m :=
  if_neg' (fun e => by cases e)

theorem fval_true (F : FloatModel M α) (m : M) : fval F ⟨true, m⟩ = -(F.mval m) :=
  if_pos' rfl

/-- `abs` of a float's value is its magnitude. -/
theorem abs_fval (F : FloatModel M α) {I : Interp K α} (L : RealLaws I) (f : Flt M) :
    I.func Func.abs (fval F f) = F.mval f.mag := by
  cases f with
  | mk s m =>
    cases s with
    | false =>
      rw [fval_false]
      exact L.abs_nn _ (F.mval_nn m)
    | true =>
      rw [fval_true]
      have h : nn (-(-(F.mval m))) := by rw [neg_neg']; exact F.mval_nn m
      rw [L.abs_nonpos _ h, neg_neg']

/-- The two magnitudes denote `|b|` and `-|b|`. -/
theorem mags_eval (F : FloatModel M α) {I : Interp K α} (L : RealLaws I) (ρ : Env α)
    (kOf : Flt M → K) (hk : ∀ f, I.const (kOf f) = fval F f) {b : Opnd K M} {fb : Flt M}
    (hb : Rep F I ρ b fb) :
    Term.eval I ρ (mags kOf b).1 = F.mval fb.mag ∧
      Term.eval I ρ (mags kOf b).2 = -(F.mval fb.mag) := by
  cases b with
  | bits g =>
    have e : g = fb := hb
    rw [e]
    exact ⟨(hk _).trans (fval_false F fb.mag), (hk _).trans (fval_true F fb.mag)⟩
  | term y =>
    have e : Term.eval I ρ y = fval F fb := hb
    have h1 : Term.eval I ρ (Term.app Func.abs y) = F.mval fb.mag := by
      show I.func Func.abs (Term.eval I ρ y) = _
      rw [e, abs_fval F L]
    refine ⟨h1, ?_⟩
    show -(Term.eval I ρ (Term.app Func.abs y)) = _
    rw [h1]

/-- `x >= 0` on a float's value: true for a clear sign bit, false for a set one on a nonzero
magnitude. -/
theorem ge_zero_fval (F : FloatModel M α) {I : Interp K α} (L : RealLaws I) (f : Flt M)
    (hnz : f.sign = true → F.mval f.mag ≠ 0) :
    I.cmp CmpOp.ge (fval F f) 0 = !f.sign := by
  cases f with
  | mk s m =>
    cases s with
    | false =>
      rw [fval_false]
      apply (L.ge_iff _ _).2
      rw [sub_zero']
      exact F.mval_nn m
    | true =>
      rw [fval_true]
      cases h : I.cmp CmpOp.ge (-(F.mval m)) 0 with
      | false => rfl
      | true =>
        have h1 := (L.ge_iff _ _).1 h
        rw [sub_zero'] at h1
        exact absurd (L.nn_antisymm _ (F.mval_nn m) h1) (hnz rfl)

/-- **copysign is sound** except at `a = -0.0` symbolic: for floats `fa`, `fb` held by the
operands, if `fa` is not `-0.0`, the term's value is the real value of IEEE `copysign`. -/
theorem copysign_sound (F : FloatModel M α) {I : Interp K α} (L : RealLaws I) (ρ : Env α)
    (kOf : Flt M → K) (hk : ∀ f, I.const (kOf f) = fval F f) (zeroK : K)
    (hz : I.const zeroK = 0) {a b : Opnd K M} {fa fb : Flt M}
    (ha : Rep F I ρ a fa) (hb : Rep F I ρ b fb) (hnz : fa.sign = true → F.mval fa.mag ≠ 0) :
    Term.eval I ρ (copysignTerm kOf zeroK a b) = fval F (ieee fa fb) := by
  have ⟨hp, hn⟩ := mags_eval F L ρ kOf hk hb
  cases a with
  | bits g =>
    have e : g = fa := ha
    rw [e]
    cases hs : fa.sign with
    | true =>
      have e2 : copysignTerm kOf zeroK (Opnd.bits fa) b = (mags kOf b).2 := if_pos' hs
      rw [e2, hn]
      show _ = fval F ⟨fa.sign, fb.mag⟩
      rw [hs, fval_true]
    | false =>
      have e2 : copysignTerm kOf zeroK (Opnd.bits fa) b = (mags kOf b).1 :=
        if_neg' (fun h => by rw [hs] at h; cases h)
      rw [e2, hp]
      show _ = fval F ⟨fa.sign, fb.mag⟩
      rw [hs, fval_false]
  | term x =>
    have e : Term.eval I ρ x = fval F fa := ha
    show (if I.cmp CmpOp.ge (Term.eval I ρ x) (I.const zeroK) = true then
      Term.eval I ρ (mags kOf b).1 else Term.eval I ρ (mags kOf b).2) = fval F ⟨fa.sign, fb.mag⟩
    rw [e, hz, ge_zero_fval F L fa hnz, hp, hn]
    cases fa.sign with
    | true => rw [fval_true]; rfl
    | false => rw [fval_false]; rfl

/-- With a concrete `a` (a bit pattern), the term is exact for every `a`, `-0.0` included. -/
theorem copysign_concrete_sign (F : FloatModel M α) {I : Interp K α} (L : RealLaws I)
    (ρ : Env α) (kOf : Flt M → K) (hk : ∀ f, I.const (kOf f) = fval F f) (zeroK : K)
    (fa : Flt M) {b : Opnd K M} {fb : Flt M} (hb : Rep F I ρ b fb) :
    Term.eval I ρ (copysignTerm kOf zeroK (Opnd.bits fa) b) = fval F (ieee fa fb) := by
  have ⟨hp, hn⟩ := mags_eval F L ρ kOf hk hb
  cases hs : fa.sign with
  | true =>
    have e2 : copysignTerm kOf zeroK (Opnd.bits fa) b = (mags kOf b).2 := if_pos' hs
    rw [e2, hn]
    show _ = fval F ⟨fa.sign, fb.mag⟩
    rw [hs, fval_true]
  | false =>
    have e2 : copysignTerm kOf zeroK (Opnd.bits fa) b = (mags kOf b).1 :=
      if_neg' (fun h => by rw [hs] at h; cases h)
    rw [e2, hp]
    show _ = fval F ⟨fa.sign, fb.mag⟩
    rw [hs, fval_false]

/-- The exception: a symbolic `a` holding `-0.0` (sign bit set, magnitude 0) gives `|b|`,
while IEEE gives `-|b|`. -/
theorem copysign_negZero (F : FloatModel M α) {I : Interp K α} (L : RealLaws I) (ρ : Env α)
    (kOf : Flt M → K) (hk : ∀ f, I.const (kOf f) = fval F f) (zeroK : K)
    (hz : I.const zeroK = 0) (x : Term K) {b : Opnd K M} {fa fb : Flt M}
    (ha : Term.eval I ρ x = fval F fa) (hs : fa.sign = true) (hm : F.mval fa.mag = 0)
    (hb : Rep F I ρ b fb) :
    Term.eval I ρ (copysignTerm kOf zeroK (Opnd.term x) b) = F.mval fb.mag ∧
      fval F (ieee fa fb) = -(F.mval fb.mag) := by
  have ⟨hp, _⟩ := mags_eval F L ρ kOf hk hb
  refine ⟨?_, ?_⟩
  · show (if I.cmp CmpOp.ge (Term.eval I ρ x) (I.const zeroK) = true then
      Term.eval I ρ (mags kOf b).1 else Term.eval I ρ (mags kOf b).2) = _
    have hge : I.cmp CmpOp.ge (Term.eval I ρ x) (I.const zeroK) = true := by
      apply (L.ge_iff _ _).2
      rw [ha, hz, sub_zero']
      show nn (if fa.sign = true then -(F.mval fa.mag) else F.mval fa.mag)
      rw [if_pos' hs, hm, neg_zero']
      exact nn_zero
    rw [if_pos' hge, hp]
  · show fval F ⟨fa.sign, fb.mag⟩ = _
    rw [hs, fval_true]

end Copysign
end Kcert
