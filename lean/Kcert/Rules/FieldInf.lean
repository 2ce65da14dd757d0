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
end Rules
end Kcert
