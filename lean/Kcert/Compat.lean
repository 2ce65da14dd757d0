/-!
# Compatibility shims

The toolchain of this package is a Lean 4 pre-release of July 2021, whose core library names
theorems in camelCase (`ifPos`, `ofDecideEqTrue`).  Every core lemma the development uses goes
through this file under a stable name, so moving to a current Lean means editing only here.
-/

universe u

namespace Kcert

theorem of_decide_eq_true' {p : Prop} [Decidable p] (h : decide p = true) : p :=
  ofDecideEqTrue h

theorem decide_eq_false' {p : Prop} [Decidable p] (h : ¬p) : decide p = false :=
  decideEqFalse h

theorem decide_eq_true' {p : Prop} [Decidable p] (h : p) : decide p = true :=
  decideEqTrue h

theorem of_decide_eq_false' {p : Prop} [Decidable p] (h : decide p = false) : ¬p :=
  ofDecideEqFalse h

theorem if_pos' {c : Prop} [Decidable c] (hc : c) {β : Sort u} {t e : β} :
    (if c then t else e) = t :=
  ifPos hc

theorem if_neg' {c : Prop} [Decidable c] (hnc : ¬c) {β : Sort u} {t e : β} :
    (if c then t else e) = e :=
  ifNeg hnc

theorem and_left' {a b : Bool} (h : (a && b) = true) : a = true := by
  cases a
  · cases h
  · rfl

theorem and_right' {a b : Bool} (h : (a && b) = true) : b = true := by
  cases a
  · cases h
  · exact h

theorem cond_true' {β : Type u} (t e : β) : cond true t e = t := rfl
theorem cond_false' {β : Type u} (t e : β) : cond false t e = e := rfl

end Kcert
