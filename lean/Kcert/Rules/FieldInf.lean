import Kcert.Rules.Field
import Kcert.ExtSem

/-!
# `FieldNormalize` with infinities

Rust: `checker/src/rules/field.rs`, `Value::NegInf`/`Value::PosInf` and their folding in
`add`, `neg`, `mul`, `ex2`, `lattice` and the final comparison.  The model `normX` returns an
extended normal form `XV` (a quotient `frac v`, `ninf` or `pinf`); on quotients it is `norm`.
Its meaning is the extended-value semantics `Term.evalE` (`Kcert/ExtSem.lean`).

* `ShapeX`: a quotient is a finite value, `ninf` is `-inf`, `pinf` is `+inf`;
* `InvX`: what normalization preserves (table grows and stays `OK` for the valuation
  `evT t = finOf (evalE t)`, the shape of the extended value, and `Rep` of the quotient);
* `normX_sound`, `fieldNormalizeX_sound`.

Where the model accepts less than the Rust: an infinity times or divided by anything, and
infinities as operands of functions other than `ex2` or of selects, are refused (see the README).
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

/-- Rust `mul` on quotients (an infinity times anything is refused). -/
def xMul : XV C → XV C → Option (XV C)
  | XV.frac a, XV.frac b => some (XV.frac (nfMul ops a b))
  | _, _ => none

/-- Rust `div`, with the model's positive divisor denominator (infinities refused). -/
def xDiv : XV C → XV C → Option (XV C)
  | XV.frac a, XV.frac b => cond (positive ops b.2) (some (XV.frac (nfDiv ops a b))) none
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
def xApp (src : Term K) : XV C → Tab K C → Func → Option (XV C × Tab K C)
  | XV.frac v, T, f => liftF (normApp ops src v T f)
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
      andThenX (normX m b T1) fun vb T2 => withT T2 (xMul ops va vb)
  | Term.div a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => withT T2 (xDiv ops va vb)
  | Term.fma a b c, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 =>
        andThenX (withT T2 (xMul ops va vb)) fun vab _ =>
          andThenX (normX m c T2) fun vc T3 => withT T3 (xAdd ops vab vc)
  | Term.neg a, T => andThenX (normX m a T) fun va T1 => some (xNeg ops va, T1)
  | Term.max a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => xMax ops (Term.max a b) va vb T2
  | Term.min a b, T => andThenX (normX m a T) fun va T1 =>
      andThenX (normX m b T1) fun vb T2 => xMin ops (Term.min a b) va vb T2
  | Term.app f a, T => andThenX (normX m a T) fun va T1 => xApp ops (Term.app f a) va T1 f
  | Term.select (Term.cmp op l r) a b, T => andThenX (normX m l T) fun vl T1 =>
      andThenX (normX m r T1) fun vr T2 => andThenX (normX m a T2) fun va T3 =>
        andThenX (normX m b T3) fun vb T4 =>
          xSel ops (Term.select (Term.cmp op l r) a b) op vl vr va vb T4
  | _, _ => none

/-- The final comparison (Rust `field_normalize_in`): equal infinities, or equivalent
quotients over positive denominators. -/
def xCheck : XV C → XV C → Bool
  | XV.frac a, XV.frac b => nfEquiv ops a b
  | XV.ninf, XV.ninf => true
  | XV.pinf, XV.pinf => true
  | _, _ => false

def xCheckPair (vs : XV C) : Option (XV C × Tab K C) → Bool
  | some p => xCheck ops vs p.1
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

/-- What a per-operation lemma proves: the shape, and the representation. -/
def OpOK (xv : XV C) (e : EVal α) (pre : Env α → Prop) : Prop :=
  ShapeX xv e ∧ ∀ σ, pre σ → RepF cc σ xv (finOf e)

theorem xNeg_ok (xa : XV C) (ea : EVal α) (sa : ShapeX xa ea) :
    OpOK cc (xNeg ops xa) (negE ea) (fun σ => RepF cc σ xa (finOf ea)) := by
  cases xa with
  | frac va =>
    match sa with
    | ⟨x, ex⟩ =>
      rw [ex]
      exact ⟨⟨-x, rfl⟩, fun σ r => rep_neg cc σ va x r⟩
  | ninf =>
    have e : ea = EVal.ninf := sa
    rw [e]
    exact ⟨rfl, fun _ _ => True.intro⟩
  | pinf =>
    have e : ea = EVal.pinf := sa
    rw [e]
    exact ⟨rfl, fun _ _ => True.intro⟩

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
          exact ⟨⟨x + y, rfl⟩, fun σ r => rep_add cc σ va vb x y r.1 r.2⟩
      | ninf =>
        have e1 : eb = EVal.ninf := sb
        have e : XV.ninf = xv := Option.noConfusion h id
        rw [e1, ← e]
        exact ⟨rfl, fun _ _ => True.intro⟩
      | pinf =>
        have e1 : eb = EVal.pinf := sb
        have e : XV.pinf = xv := Option.noConfusion h id
        rw [e1, ← e]
        exact ⟨rfl, fun _ _ => True.intro⟩
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
        exact ⟨rfl, fun _ _ => True.intro⟩
    | ninf =>
      have e1 : eb = EVal.ninf := sb
      have e : XV.ninf = xv := Option.noConfusion h id
      rw [e1, ← e]
      exact ⟨rfl, fun _ _ => True.intro⟩
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
        exact ⟨rfl, fun _ _ => True.intro⟩
    | ninf => cases h
    | pinf =>
      have e1 : eb = EVal.pinf := sb
      have e : XV.pinf = xv := Option.noConfusion h id
      rw [e1, ← e]
      exact ⟨rfl, fun _ _ => True.intro⟩

theorem xMul_ok (sg : α → Option Bool) (xa xb xv : XV C) (h : xMul ops xa xb = some xv)
    (ea eb : EVal α) (sa : ShapeX xa ea) (sb : ShapeX xb eb) :
    OpOK cc xv (mulE sg ea eb) (fun σ => RepF cc σ xa (finOf ea) ∧ RepF cc σ xb (finOf eb)) := by
  cases xa with
  | frac va =>
    cases xb with
    | frac vb =>
      match sa, sb with
      | ⟨x, ex⟩, ⟨y, ey⟩ =>
        rw [ex, ey]
        have e : XV.frac (nfMul ops va vb) = xv := Option.noConfusion h id
        rw [← e]
        exact ⟨⟨x * y, rfl⟩, fun σ r => rep_mul cc σ va vb x y r.1 r.2⟩
    | ninf => cases h
    | pinf => cases h
  | ninf => cases h
  | pinf => cases h

theorem xDiv_ok (sg : α → Option Bool) (xa xb xv : XV C) (h : xDiv ops xa xb = some xv)
    (ea eb : EVal α) (sa : ShapeX xa ea) (sb : ShapeX xb eb) :
    OpOK cc xv (divE sg ea eb) (fun σ => RepF cc σ xa (finOf ea) ∧ RepF cc σ xb (finOf eb)) := by
  cases xa with
  | frac va =>
    cases xb with
    | frac vb =>
      match sa, sb with
      | ⟨x, ex⟩, ⟨y, ey⟩ =>
        rw [ex, ey]
        have h' : cond (positive ops vb.2) (some (XV.frac (nfDiv ops va vb))) none = some xv := h
        cases hp : positive ops vb.2
        · rw [hp] at h'
          cases h'
        · rw [hp] at h'
          have e : XV.frac (nfDiv ops va vb) = xv := Option.noConfusion h' id
          rw [← e]
          exact ⟨⟨x / y, rfl⟩, fun σ r => rep_div cc σ va vb x y r.1 r.2
            (positive_ne_zero cc σ vb.2 hp)⟩
    | ninf => cases h
    | pinf => cases h
  | ninf => cases h
  | pinf => cases h

variable (I : Interp K α) (sg : α → Option Bool) (ρ ρs : Env α)

/-- The finite value of a term (`0` if it has none): how atoms are valued. -/
def evF (t : Term K) : α := finOf (Term.evalE I sg ρs t)

/-- What `normX` preserves, from table `T` to `T'`, for `t` and its extended normal form `xv`:
the table grows and stays `OK` (atoms valued by `evF`), `xv` has the shape of the extended value
of `t`, and a quotient represents the finite value under every valuation `Good` for `T'`. -/
def InvX (T : Tab K C) (t : Term K) (xv : XV C) (T' : Tab K C) : Prop :=
  (∃ l, T' = prepend l T) ∧ (OK cc I ρ (evF I sg ρs) T → OK cc I ρ (evF I sg ρs) T') ∧
    ShapeX xv (Term.evalE I sg ρs t) ∧
    ∀ ν, Good cc I ρ ν T' → RepF cc (envOf ρ ν) xv (evF I sg ρs t)

theorem evF_of (t : Term K) (x : α) (h : Term.evalE I sg ρs t = EVal.fin x) :
    evF I sg ρs t = x := by
  show finOf (Term.evalE I sg ρs t) = x
  rw [h]
  rfl

theorem inv_of_invX (T T' : Tab K C) (t : Term K) (v : NF C) (h : InvX cc I sg ρ ρs T t (XV.frac v) T') :
    Inv cc I ρ (evF I sg ρs) T t v T' :=
  ⟨h.1, h.2.1, h.2.2.2⟩

theorem invX_of_inv (T T' : Tab K C) (t : Term K) (v : NF C) (h : Inv cc I ρ (evF I sg ρs) T t v T')
    (hs : ∃ x, Term.evalE I sg ρs t = EVal.fin x) : InvX cc I sg ρ ρs T t (XV.frac v) T' :=
  ⟨h.1, h.2.1, hs, h.2.2⟩

theorem invX_un (T T1 : Tab K C) (a t : Term K) (xa xv : XV C) (g : EVal α → EVal α)
    (ha : InvX cc I sg ρ ρs T a xa T1)
    (hs : ∀ ea, ShapeX xa ea → OpOK cc xv (g ea) (fun σ => RepF cc σ xa (finOf ea)))
    (he : Term.evalE I sg ρs t = g (Term.evalE I sg ρs a)) : InvX cc I sg ρ ρs T t xv T1 := by
  match ha with
  | ⟨hx, hok, sa, ra⟩ =>
    have k := hs _ sa
    refine ⟨hx, hok, ?_, ?_⟩
    · rw [he]
      exact k.1
    · intro ν hg
      have r := k.2 (envOf ρ ν) (ra ν hg)
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
  match ha, hb with
  | ⟨⟨l1, h1⟩, ok1, sa, ra⟩, ⟨⟨l2, h2⟩, ok2, sb, rb⟩ =>
    have k := hs _ _ sa sb
    refine ⟨⟨prepend l2 l1, by rw [h2, h1, prepend_assoc]⟩, fun o => ok2 (ok1 o), ?_, ?_⟩
    · rw [he]
      exact k.1
    · intro ν hg
      have r := k.2 (envOf ρ ν) ⟨ra ν (good_ext cc I ρ ν l2 T1 T2 h2 hg), rb ν hg⟩
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
      match liftF_eq_some h, ha.2.2.1, hb.2.2.1 with
      | ⟨v, hl, hv⟩, ⟨x, ex⟩, ⟨y, ey⟩ =>
        rw [hv]
        have hsem : I.max (evF I sg ρs a) (evF I sg ρs b) = evF I sg ρs (Term.max a b) := by
          rw [evF_of I sg ρs a x ex, evF_of I sg ρs b y ey]
          show _ = finOf (maxE I.max (Term.evalE I sg ρs a) (Term.evalE I sg ρs b))
          rw [ex, ey]
          rfl
        apply invX_of_inv cc I sg ρ ρs T T' _ v
          (lattice_inv cc I ρ (evF I sg ρs) hI Tag.max I.max (fun xs => rfl) hI.max_assoc
            hI.max_idem T T1 T2 T' a b _ va vb v (inv_of_invX cc I sg ρ ρs T T1 a va ha)
            (inv_of_invX cc I sg ρ ρs T1 T2 b vb hb) hl hsem)
        refine ⟨I.max x y, ?_⟩
        show maxE I.max (Term.evalE I sg ρs a) (Term.evalE I sg ρs b) = _
        rw [ex, ey]
        rfl
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
        exact ⟨⟨x, rfl⟩, fun σ r => r.1⟩
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
        exact ⟨⟨y, rfl⟩, fun σ r => r.2⟩
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
      exact ⟨rfl, fun _ _ => True.intro⟩
    | pinf => cases h
  | pinf => cases h

end XSound

end Rules
end Kcert
