import Kcert.Term

/-!
# The rule `Congruent`

Rust: `checker/src/rules/congruence.rs`, function `congruent`.  Two terms, each on its own side
of a kernel pair, are equal when they are the same tree once each side's input tensors are
mapped to the pair's shared inputs (`Side::inputs`, here `ml` and `mr : Nat → Option Nat`),
constants compared by exact value, and every input tensor met is mapped.

Two statements:

* `evalP_rename`: evaluation commutes with renaming input tensors:
  `evalP I ρ (rename σ t) = evalP I (fun t i => ρ (σ t) i) t`;
* `congruent_sound`: if `congruent ml mr s t = true`, then for every pair environment `ρ` and
  side environments `ρl`, `ρr` that agree with `ρ` through `ml`, `mr` (`Agrees`), the two terms
  have the same value (and the same truth value).
-/

namespace Kcert
namespace Term

open ExpField

variable {K α : Type} [ExpField α]

/-- Renames input tensors by `σ`. -/
def rename (σ : Nat → Nat) : Term K → Term K
  | const c => const c
  | negInf => negInf
  | posInf => posInf
  | input t i => input (σ t) i
  | add a b => add (rename σ a) (rename σ b)
  | sub a b => sub (rename σ a) (rename σ b)
  | mul a b => mul (rename σ a) (rename σ b)
  | div a b => div (rename σ a) (rename σ b)
  | fma a b c => fma (rename σ a) (rename σ b) (rename σ c)
  | neg a => neg (rename σ a)
  | Term.max a b => max (rename σ a) (rename σ b)
  | Term.min a b => min (rename σ a) (rename σ b)
  | app f a => app f (rename σ a)
  | cmp op a b => cmp op (rename σ a) (rename σ b)
  | select c a b => select (rename σ c) (rename σ a) (rename σ b)
  | Term.and a b => and (rename σ a) (rename σ b)
  | Term.or a b => or (rename σ a) (rename σ b)
  | Term.not a => not (rename σ a)

/-- Evaluating a renamed term is evaluating the term in the renamed environment. -/
theorem evalP_rename (I : Interp K α) (ρ : Env α) (σ : Nat → Nat) (t : Term K) :
    evalP I ρ (rename σ t) = evalP I (fun t i => ρ (σ t) i) t := by
  induction t with
  | const c => rfl
  | negInf => rfl
  | posInf => rfl
  | input t i => rfl
  | add a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | sub a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | mul a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | div a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | fma a b c iha ihb ihc => simp only [rename, evalP, iha, ihb, ihc] <;> rfl
  | neg a iha => simp only [rename, evalP, iha] <;> rfl
  | max a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | min a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | app f a iha => simp only [rename, evalP, iha] <;> rfl
  | cmp op a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | select c a b ihc iha ihb => simp only [rename, evalP, iha, ihb, ihc] <;> rfl
  | and a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | or a b iha ihb => simp only [rename, evalP, iha, ihb] <;> rfl
  | not a iha => simp only [rename, evalP, iha] <;> rfl

/-- `evalP_rename` for real values: renaming input tensors by `σ` and evaluating is evaluating
in the environment read through `σ`. -/
theorem eval_rename (I : Interp K α) (ρ : Env α) (σ : Nat → Nat) (t : Term K) :
    eval I ρ (rename σ t) = eval I (fun t i => ρ (σ t) i) t :=
  congrArg Prod.fst (evalP_rename I ρ σ t)

end Term

namespace Rules

open Term

variable {K α : Type} [ExpField α]

/-- The rule (Rust: `congruent`): the same tree up to the input maps `ml`, `mr` of the two
sides.  Constants are compared by value; an input matches only when its tensor is mapped and
both sides map to the same pair input, at the same element index. -/
def congruent [DecidableEq K] (ml mr : Nat → Option Nat) : Term K → Term K → Bool
  | const x, const y => decide (x = y)
  | negInf, negInf => true
  | posInf, posInf => true
  | input ta ia, input tb ib => decide (ia = ib) && (ml ta).isSome && decide (ml ta = mr tb)
  | add a b, add c d => congruent ml mr a c && congruent ml mr b d
  | sub a b, sub c d => congruent ml mr a c && congruent ml mr b d
  | mul a b, mul c d => congruent ml mr a c && congruent ml mr b d
  | div a b, div c d => congruent ml mr a c && congruent ml mr b d
  | fma a b c, fma d e f =>
    congruent ml mr a d && congruent ml mr b e && congruent ml mr c f
  | neg a, neg b => congruent ml mr a b
  | Term.max a b, Term.max c d => congruent ml mr a c && congruent ml mr b d
  | Term.min a b, Term.min c d => congruent ml mr a c && congruent ml mr b d
  | app f a, app g b => decide (f = g) && congruent ml mr a b
  | cmp p a b, cmp q c d => decide (p = q) && congruent ml mr a c && congruent ml mr b d
  | select a b c, select d e f =>
    congruent ml mr a d && congruent ml mr b e && congruent ml mr c f
  | Term.and a b, Term.and c d => congruent ml mr a c && congruent ml mr b d
  | Term.or a b, Term.or c d => congruent ml mr a c && congruent ml mr b d
  | Term.not a, Term.not b => congruent ml mr a b
  | _, _ => false

/-- Soundness of `Congruent`: congruent terms have equal values (and truth values) whenever the
two sides' environments agree with one pair environment through the input maps. -/
theorem congruent_sound [DecidableEq K] (I : Interp K α) (ml mr : Nat → Option Nat)
    (ρ ρl ρr : Env α) (hl : Agrees ml ρl ρ) (hr : Agrees mr ρr ρ) :
    ∀ (s t : Term K), congruent ml mr s t = true → evalP I ρl s = evalP I ρr t := by
  intro s
  induction s with
  | const x =>
    intro t h
    cases t with
    | const y =>
      have e : x = y := of_decide_eq_true' h
      rw [e] <;> rfl
    | _ => cases h
  | negInf =>
    intro t h
    cases t with
    | negInf => rfl
    | _ => cases h
  | posInf =>
    intro t h
    cases t with
    | posInf => rfl
    | _ => cases h
  | input ta ia =>
    intro t h
    cases t with
    | input tb ib =>
      have hi : ia = ib := of_decide_eq_true' (and_left' (and_left' h))
      have hs : (ml ta).isSome = true := and_right' (and_left' h)
      have he : ml ta = mr tb := of_decide_eq_true' (and_right' h)
      cases hm : ml ta with
      | none =>
        rw [hm] at hs
        cases hs
      | some p =>
        have hm' : mr tb = some p := by rw [← he, hm]
        show (ρl ta ia, false) = (ρr tb ib, false)
        rw [hl ta p ia hm, hr tb p ib hm', hi]
    | _ => cases h
  | add a b iha ihb =>
    intro t h
    cases t with
    | add c d =>
      simp only [evalP, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | sub a b iha ihb =>
    intro t h
    cases t with
    | sub c d =>
      simp only [evalP, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | mul a b iha ihb =>
    intro t h
    cases t with
    | mul c d =>
      simp only [evalP, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | div a b iha ihb =>
    intro t h
    cases t with
    | div c d =>
      simp only [evalP, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | fma a b c iha ihb ihc =>
    intro t h
    cases t with
    | fma d e f =>
      simp only [evalP, iha d (and_left' (and_left' h)), ihb e (and_right' (and_left' h)),
        ihc f (and_right' h)] <;> rfl
    | _ => cases h
  | neg a iha =>
    intro t h
    cases t with
    | neg b => simp only [evalP, iha b h] <;> rfl
    | _ => cases h
  | max a b iha ihb =>
    intro t h
    cases t with
    | max c d =>
      simp only [evalP, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | min a b iha ihb =>
    intro t h
    cases t with
    | min c d =>
      simp only [evalP, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | app f a iha =>
    intro t h
    cases t with
    | app g b =>
      have e : f = g := of_decide_eq_true' (and_left' h)
      rw [e]
      simp only [evalP, iha b (and_right' h)] <;> rfl
    | _ => cases h
  | cmp op a b iha ihb =>
    intro t h
    cases t with
    | cmp op' c d =>
      have e : op = op' := of_decide_eq_true' (and_left' (and_left' h))
      rw [e]
      simp only [evalP, iha c (and_right' (and_left' h)), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | select a b c iha ihb ihc =>
    intro t h
    cases t with
    | select d e f =>
      simp only [evalP, iha d (and_left' (and_left' h)), ihb e (and_right' (and_left' h)),
        ihc f (and_right' h)] <;> rfl
    | _ => cases h
  | and a b iha ihb =>
    intro t h
    cases t with
    | and c d =>
      simp only [evalP, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | or a b iha ihb =>
    intro t h
    cases t with
    | or c d =>
      simp only [evalP, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | not a iha =>
    intro t h
    cases t with
    | not b => simp only [evalP, iha b h] <;> rfl
    | _ => cases h

/-- The corollary the checker uses: congruent terms have equal real values. -/
theorem congruent_eval [DecidableEq K] (I : Interp K α) (ml mr : Nat → Option Nat)
    (ρ ρl ρr : Env α) (hl : Agrees ml ρl ρ) (hr : Agrees mr ρr ρ) (s t : Term K)
    (h : congruent ml mr s t = true) : eval I ρl s = eval I ρr t :=
  congrArg Prod.fst (congruent_sound I ml mr ρ ρl ρr hl hr s t h)

end Rules
end Kcert
