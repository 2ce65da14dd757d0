import Kcert.Term

/-!
# Extended values: terms with `-inf` and `+inf`

`Term.eval` reads `±inf` as opaque elements of a field, where the laws the rule
`FieldNormalize` folds with (`max(-inf, x) = x`, `ex2(-inf) = 0`, `-inf + x = -inf`, ...)
cannot hold.  Here terms are evaluated into `EVal α`: a finite value `fin x`, `ninf`, `pinf`,
or `bot` (undefined).  Operations on infinities follow the extended reals where they are
defined there, and are `bot` where they are not (`-inf + +inf`, `inf · 0`, `inf / inf`) or
where the function is opaque (`sqrt(+inf)`, ...):

* `-inf + x = -inf`, `+inf + x = +inf` for `x` finite or of the same sign, `-inf + +inf = bot`;
* `inf · y` is `inf` when `y` is positive, the opposite infinity when `y` is negative,
  `bot` otherwise; the sign of a finite value is given by a function `sg`
  (`SignOf sg`: positive elements have sign `some true`, elements with positive negation
  `some false`; the reals' sign function is one);
* `max(-inf, x) = x`, `max(+inf, x) = +inf`, `min(+inf, x) = x`, `min(-inf, x) = -inf`;
* `ex2(-inf) = 0`, `ex2(+inf) = +inf`; other functions of an infinity are `bot`;
* comparisons involving an infinity or `bot` are undefined (`none`), and a select on an
  undefined condition is `bot`;
* `bot` is absorbing.

`evalX_noInf`: on a term without infinities, `evalX` is `Term.evalP` (finite value, defined
truth value).
-/

namespace Kcert

inductive EVal (α : Type) where
  | fin : α → EVal α
  | ninf : EVal α
  | pinf : EVal α
  | bot : EVal α

namespace EVal

open ExpField

variable {α : Type} [ExpField α]

/-- What the sign function must satisfy: positive elements are positive, elements with a
positive negation are negative. -/
structure SignOf (sg : α → Option Bool) : Prop where
  pos_sg : ∀ y : α, pos y → sg y = some true
  neg_sg : ∀ y : α, pos (-y) → sg y = some false

def negE : EVal α → EVal α
  | fin x => fin (-x)
  | ninf => pinf
  | pinf => ninf
  | bot => bot

def addE : EVal α → EVal α → EVal α
  | fin x, fin y => fin (x + y)
  | fin _, ninf => ninf
  | fin _, pinf => pinf
  | ninf, fin _ => ninf
  | ninf, ninf => ninf
  | pinf, fin _ => pinf
  | pinf, pinf => pinf
  | _, _ => bot

/-- An infinity `s` times a finite `y`, by the sign of `y`. -/
def scaleInf (sg : α → Option Bool) (s : EVal α) (y : α) : EVal α :=
  match sg y with
  | some true => s
  | some false => negE s
  | none => bot

def mulE (sg : α → Option Bool) : EVal α → EVal α → EVal α
  | fin x, fin y => fin (x * y)
  | ninf, fin y => scaleInf sg ninf y
  | pinf, fin y => scaleInf sg pinf y
  | fin x, ninf => scaleInf sg ninf x
  | fin x, pinf => scaleInf sg pinf x
  | ninf, ninf => pinf
  | ninf, pinf => ninf
  | pinf, ninf => ninf
  | pinf, pinf => pinf
  | _, _ => bot

def divE (sg : α → Option Bool) : EVal α → EVal α → EVal α
  | fin x, fin y => fin (x / y)
  | ninf, fin y => scaleInf sg ninf y
  | pinf, fin y => scaleInf sg pinf y
  | fin _, ninf => fin 0
  | fin _, pinf => fin 0
  | _, _ => bot

/-- `max` (`op`) with `-inf` as identity and `+inf` absorbing. -/
def maxE (op : α → α → α) : EVal α → EVal α → EVal α
  | fin x, fin y => fin (op x y)
  | ninf, b => b
  | a, ninf => a
  | pinf, fin _ => pinf
  | fin _, pinf => pinf
  | pinf, pinf => pinf
  | _, _ => bot

/-- `min` (`op`) with `+inf` as identity and `-inf` absorbing. -/
def minE (op : α → α → α) : EVal α → EVal α → EVal α
  | fin x, fin y => fin (op x y)
  | pinf, b => b
  | a, pinf => a
  | ninf, fin _ => ninf
  | fin _, ninf => ninf
  | ninf, ninf => ninf
  | _, _ => bot

def ex2E : EVal α → EVal α
  | fin x => fin (pow2 x)
  | ninf => fin 0
  | pinf => pinf
  | bot => bot

def funcE (g : α → α) : EVal α → EVal α
  | fin x => fin (g x)
  | _ => bot

def applyE {K : Type} (I : Interp K α) : Func → EVal α → EVal α
  | Func.ex2, v => ex2E v
  | f, v => funcE (I.func f) v

def cmpE {K : Type} (I : Interp K α) (op : CmpOp) : EVal α → EVal α → Option Bool
  | fin x, fin y => some (I.cmp op x y)
  | _, _ => none

def selE : Option Bool → EVal α → EVal α → EVal α
  | some true, a, _ => a
  | some false, _, b => b
  | none, _, _ => bot

end EVal

def andO : Option Bool → Option Bool → Option Bool
  | some a, some b => some (a && b)
  | _, _ => none

def orO : Option Bool → Option Bool → Option Bool
  | some a, some b => some (a || b)
  | _, _ => none

def notO : Option Bool → Option Bool
  | some a => some (!a)
  | none => none

namespace Term

open ExpField EVal

variable {K α : Type} [ExpField α]

/-- Extended evaluation: (extended value, truth value or `none` if undefined). Real nodes have
truth value `some false`, boolean nodes value `fin 0`, as in `evalP`. -/
def evalX (I : Interp K α) (sg : α → Option Bool) (ρ : Env α) : Term K → EVal α × Option Bool
  | const c => (fin (I.const c), some false)
  | negInf => (ninf, some false)
  | posInf => (pinf, some false)
  | input t i => (fin (ρ t i), some false)
  | add a b => (addE (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false)
  | sub a b => (addE (evalX I sg ρ a).1 (negE (evalX I sg ρ b).1), some false)
  | mul a b => (mulE sg (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false)
  | div a b => (divE sg (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false)
  | fma a b c =>
    (addE (mulE sg (evalX I sg ρ a).1 (evalX I sg ρ b).1) (evalX I sg ρ c).1, some false)
  | neg a => (negE (evalX I sg ρ a).1, some false)
  | Term.max a b => (maxE I.max (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false)
  | Term.min a b => (minE I.min (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false)
  | app f a => (applyE I f (evalX I sg ρ a).1, some false)
  | cmp op a b => (fin 0, cmpE I op (evalX I sg ρ a).1 (evalX I sg ρ b).1)
  | select c a b => (selE (evalX I sg ρ c).2 (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false)
  | Term.and a b => (fin 0, andO (evalX I sg ρ a).2 (evalX I sg ρ b).2)
  | Term.or a b => (fin 0, orO (evalX I sg ρ a).2 (evalX I sg ρ b).2)
  | Term.not a => (fin 0, notO (evalX I sg ρ a).2)

/-- The extended value of a term. -/
def evalE (I : Interp K α) (sg : α → Option Bool) (ρ : Env α) (t : Term K) : EVal α :=
  (evalX I sg ρ t).1

/-- The term contains no `negInf`, `posInf`. -/
def noInf : Term K → Bool
  | const _ => true
  | negInf => false
  | posInf => false
  | input _ _ => true
  | add a b => noInf a && noInf b
  | sub a b => noInf a && noInf b
  | mul a b => noInf a && noInf b
  | div a b => noInf a && noInf b
  | fma a b c => noInf a && noInf b && noInf c
  | neg a => noInf a
  | Term.max a b => noInf a && noInf b
  | Term.min a b => noInf a && noInf b
  | app _ a => noInf a
  | cmp _ a b => noInf a && noInf b
  | select c a b => noInf c && noInf a && noInf b
  | Term.and a b => noInf a && noInf b
  | Term.or a b => noInf a && noInf b
  | Term.not a => noInf a

theorem selE_some (c : Bool) (a b : α) :
    selE (some c) (fin a) (fin b) = fin (if c then a else b) := by
  cases c
  · rfl
  · rfl

theorem applyE_fin (I : Interp K α) (f : Func) (x : α) :
    applyE I f (fin x) = fin (applyFunc I f x) := by
  cases f
  repeat rfl

/-- On a term without infinities, extended evaluation is `evalP`: the value is finite and
the truth value defined, and both are those of `evalP`, for every sign function. -/
theorem evalX_noInf (I : Interp K α) (sg : α → Option Bool) (ρ : Env α) (t : Term K)
    (h : noInf t = true) :
    evalX I sg ρ t = (fin (evalP I ρ t).1, some (evalP I ρ t).2) := by
  induction t with
  | const c => rfl
  | negInf => cases h
  | posInf => cases h
  | input t i => rfl
  | add a b iha ihb =>
    show (addE (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | sub a b iha ihb =>
    show (addE (evalX I sg ρ a).1 (negE (evalX I sg ρ b).1), some false) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | mul a b iha ihb =>
    show (mulE sg (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | div a b iha ihb =>
    show (divE sg (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | fma a b c iha ihb ihc =>
    show (addE (mulE sg (evalX I sg ρ a).1 (evalX I sg ρ b).1) (evalX I sg ρ c).1, some false) = _
    rw [iha (and_left' (and_left' h)), ihb (and_right' (and_left' h)), ihc (and_right' h)]
    rfl
  | neg a iha =>
    show (negE (evalX I sg ρ a).1, some false) = _
    rw [iha h]
    rfl
  | max a b iha ihb =>
    show (maxE I.max (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | min a b iha ihb =>
    show (minE I.min (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | app f a iha =>
    show (applyE I f (evalX I sg ρ a).1, some false) = _
    rw [iha h, applyE_fin]
    rfl
  | cmp op a b iha ihb =>
    show (fin (0 : α), cmpE I op (evalX I sg ρ a).1 (evalX I sg ρ b).1) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | select c a b ihc iha ihb =>
    show (selE (evalX I sg ρ c).2 (evalX I sg ρ a).1 (evalX I sg ρ b).1, some false) = _
    rw [ihc (and_left' (and_left' h)), iha (and_right' (and_left' h)), ihb (and_right' h)]
    show (selE (some (evalP I ρ c).2) (fin (evalP I ρ a).1) (fin (evalP I ρ b).1), some false) = _
    rw [selE_some]
    rfl
  | and a b iha ihb =>
    show (fin (0 : α), andO (evalX I sg ρ a).2 (evalX I sg ρ b).2) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | or a b iha ihb =>
    show (fin (0 : α), orO (evalX I sg ρ a).2 (evalX I sg ρ b).2) = _
    rw [iha (and_left' h), ihb (and_right' h)]
    rfl
  | not a iha =>
    show (fin (0 : α), notO (evalX I sg ρ a).2) = _
    rw [iha h]
    rfl

/-- On a term without infinities, the extended value is the finite value `Term.eval`. -/
theorem evalE_noInf (I : Interp K α) (sg : α → Option Bool) (ρ : Env α) (t : Term K)
    (h : noInf t = true) : evalE I sg ρ t = fin (eval I ρ t) := by
  show (evalX I sg ρ t).1 = _
  rw [evalX_noInf I sg ρ t h]
  rfl

end Term
end Kcert
