import Kcert.Rules.Congruence

/-!
# The rule `RingNormalize`

Rust: `checker/src/rules/ring.rs`, function `ring_normalize`.  Both sides are expanded into
polynomials over the pair's input variables (sums of coefficient × monomial) using only the
commutative-ring laws, `fma a b c = a * b + c`, `a - b = a + (-1) * b` and exact coefficient
arithmetic; the rule accepts when the difference of the two expansions, with like monomials
collected, has only zero coefficients.

This file is the Lean model of that rule and its soundness proof:

* `Mono.eval_mul`, `Poly.eval_add`, `Poly.eval_mul`, ...: every polynomial operation denotes
  the corresponding operation on values;
* `expand_sound`: a successful expansion denotes the value of the term;
* `ringNormalize_sound`: if `ringNormalize cs ml mr s t = true`, then `s` and `t` have the
  same value for all inputs (every pair environment and side environments agreeing with it).

Coefficients are abstract (`Coeffs`): any type `C` with `+ * -`, a zero test, a conversion of
constants, and a map `cast : C → α` respecting them.  In the checker `C` is `Coef` (exact
dyadics) and `cast` is the inclusion of the dyadics into the reals; that this instance satisfies
the `Coeffs` laws, and that Rust's overflow-checked `Coef` arithmetic agrees with them when it
succeeds, is not proved here.

The model composes polynomials (`Poly.add`, `Poly.mul`) where the Rust code accumulates
`scale · term` into one hash map; both denote the same polynomial, but the Rust code is not
proved to follow the model.  The Rust rule also fails on budget, depth and degree limits; the
model has none (failing more often cannot make a rule unsound).
-/

namespace Kcert

open ExpField

/-- Exact coefficients and their meaning in `α`. -/
structure Coeffs (K C α : Type) [ExpField α] where
  one : C
  add : C → C → C
  mul : C → C → C
  neg : C → C
  isZero : C → Bool
  ofConst : K → C
  cast : C → α
  cast_one : cast one = 1
  cast_add : ∀ a b : C, cast (add a b) = cast a + cast b
  cast_mul : ∀ a b : C, cast (mul a b) = cast a * cast b
  cast_neg : ∀ a : C, cast (neg a) = -cast a
  isZero_sound : ∀ c : C, isZero c = true → cast c = 0

namespace Ring

variable {K C α : Type} [ExpField α]

/-- A pair-level variable: (pair input, element index).  Rust packs it as `(input << 40) | index`. -/
def Var : Type := Nat × Nat

/-- A monomial: a list of variables, kept sorted by `Mono.insert` so that equal products are
equal lists.  Soundness never depends on the order. -/
def Mono : Type := List Var

/-- A polynomial: a list of (coefficient, monomial), read as their sum. -/
def Poly (C : Type) : Type := List (C × Mono)

instance : DecidableEq Var := fun a b => (inferInstance : DecidableEq (Nat × Nat)) a b
instance : DecidableEq Mono := fun a b => (inferInstance : DecidableEq (List (Nat × Nat))) a b

/-- The order of variables in a monomial (lexicographic). -/
def varLe (v w : Var) : Bool :=
  decide (v.1 < w.1) || (decide (v.1 = w.1) && decide (v.2 ≤ w.2))

/-! ### Monomials -/

def Mono.eval (ρ : Env α) : Mono → α
  | [] => 1
  | v :: m => ρ v.1 v.2 * Mono.eval ρ m

/-- Inserts a variable before the first one it does not exceed. -/
def Mono.insert (v : Var) : Mono → Mono
  | [] => [v]
  | w :: m => cond (varLe v w) (v :: w :: m) (w :: Mono.insert v m)

def Mono.mul : Mono → Mono → Mono
  | [], n => n
  | v :: m, n => Mono.insert v (Mono.mul m n)

theorem mul_left_comm (a b c : α) : a * (b * c) = b * (a * c) := by
  rw [← mul_assoc, mul_comm a b, mul_assoc]

theorem Mono.eval_insert (ρ : Env α) (v : Var) (m : Mono) :
    Mono.eval ρ (Mono.insert v m) = ρ v.1 v.2 * Mono.eval ρ m := by
  induction m with
  | nil => rfl
  | cons w m ih =>
    cases h : varLe v w
    · have e : Mono.insert v (w :: m) = w :: Mono.insert v m := by
        show cond (varLe v w) (v :: w :: m) (w :: Mono.insert v m) = _
        rw [h]
        rfl
      rw [e]
      show ρ w.1 w.2 * Mono.eval ρ (Mono.insert v m) = ρ v.1 v.2 * (ρ w.1 w.2 * Mono.eval ρ m)
      rw [ih, mul_left_comm]
    · have e : Mono.insert v (w :: m) = v :: w :: m := by
        show cond (varLe v w) (v :: w :: m) (w :: Mono.insert v m) = _
        rw [h]
        rfl
      rw [e]
      rfl

theorem Mono.eval_mul (ρ : Env α) (m n : Mono) :
    Mono.eval ρ (Mono.mul m n) = Mono.eval ρ m * Mono.eval ρ n := by
  induction m with
  | nil => exact (one_mul _).symm
  | cons v m ih =>
    show Mono.eval ρ (Mono.insert v (Mono.mul m n)) = ρ v.1 v.2 * Mono.eval ρ m * Mono.eval ρ n
    rw [Mono.eval_insert, ih, mul_assoc]

/-! ### Polynomials -/

variable (cs : Coeffs K C α)

def Poly.eval (ρ : Env α) : Poly C → α
  | [] => 0
  | e :: p => cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval ρ p

/-- Adds `c · m`, merging it into the first entry with the same monomial. -/
def Poly.addTerm (c : C) (m : Mono) : Poly C → Poly C
  | [] => [(c, m)]
  | e :: p => if m = e.2 then (cs.add c e.1, e.2) :: p else e :: Poly.addTerm c m p

def Poly.add : Poly C → Poly C → Poly C
  | [], q => q
  | e :: p, q => Poly.addTerm cs e.1 e.2 (Poly.add p q)

def Poly.scale (s : C) : Poly C → Poly C
  | [] => []
  | e :: p => (cs.mul s e.1, e.2) :: Poly.scale s p

/-- `c · m · q`. -/
def Poly.mulTerm (c : C) (m : Mono) : Poly C → Poly C
  | [] => []
  | e :: q => (cs.mul c e.1, Mono.mul m e.2) :: Poly.mulTerm c m q

def Poly.mul : Poly C → Poly C → Poly C
  | [], q => []
  | e :: p, q => Poly.add cs (Poly.mulTerm cs e.1 e.2 q) (Poly.mul p q)

/-- Collects like monomials (adding into an empty polynomial merges every entry). -/
def Poly.collect (p : Poly C) : Poly C := Poly.add cs p []

def Poly.allZero : Poly C → Bool
  | [] => true
  | e :: p => cs.isZero e.1 && Poly.allZero p

theorem Poly.eval_addTerm (ρ : Env α) (c : C) (m : Mono) (p : Poly C) :
    Poly.eval cs ρ (Poly.addTerm cs c m p) = cs.cast c * Mono.eval ρ m + Poly.eval cs ρ p := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    byCases h : m = e.2
    · have r : Poly.addTerm cs c m (e :: p) = (cs.add c e.1, e.2) :: p := if_pos' h
      rw [r]
      show cs.cast (cs.add c e.1) * Mono.eval ρ e.2 + Poly.eval cs ρ p
        = cs.cast c * Mono.eval ρ m + (cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ p)
      rw [cs.cast_add, h, add_mul, add_assoc]
    · have r : Poly.addTerm cs c m (e :: p) = e :: Poly.addTerm cs c m p := if_neg' h
      rw [r]
      show cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ (Poly.addTerm cs c m p)
        = cs.cast c * Mono.eval ρ m + (cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ p)
      rw [ih, ← add_assoc, ← add_assoc, add_comm (cs.cast e.1 * Mono.eval ρ e.2)]

theorem Poly.eval_add (ρ : Env α) (p q : Poly C) :
    Poly.eval cs ρ (Poly.add cs p q) = Poly.eval cs ρ p + Poly.eval cs ρ q := by
  induction p with
  | nil => exact (zero_add _).symm
  | cons e p ih =>
    show Poly.eval cs ρ (Poly.addTerm cs e.1 e.2 (Poly.add cs p q))
      = cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ p + Poly.eval cs ρ q
    rw [Poly.eval_addTerm, ih, add_assoc]

theorem Poly.eval_scale (ρ : Env α) (s : C) (p : Poly C) :
    Poly.eval cs ρ (Poly.scale cs s p) = cs.cast s * Poly.eval cs ρ p := by
  induction p with
  | nil => exact (mul_zero _).symm
  | cons e p ih =>
    show cs.cast (cs.mul s e.1) * Mono.eval ρ e.2 + Poly.eval cs ρ (Poly.scale cs s p)
      = cs.cast s * (cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ p)
    rw [ih, cs.cast_mul, mul_add, mul_assoc]

theorem Poly.eval_mulTerm (ρ : Env α) (c : C) (m : Mono) (q : Poly C) :
    Poly.eval cs ρ (Poly.mulTerm cs c m q) = cs.cast c * Mono.eval ρ m * Poly.eval cs ρ q := by
  induction q with
  | nil => exact (mul_zero _).symm
  | cons e q ih =>
    show cs.cast (cs.mul c e.1) * Mono.eval ρ (Mono.mul m e.2) + Poly.eval cs ρ (Poly.mulTerm cs c m q)
      = cs.cast c * Mono.eval ρ m * (cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ q)
    rw [ih, cs.cast_mul, Mono.eval_mul, mul_add]
    apply congrArg (fun x => x + cs.cast c * Mono.eval ρ m * Poly.eval cs ρ q)
    rw [mul_assoc, mul_assoc, mul_assoc, mul_left_comm (cs.cast e.1)]

theorem Poly.eval_mul (ρ : Env α) (p q : Poly C) :
    Poly.eval cs ρ (Poly.mul cs p q) = Poly.eval cs ρ p * Poly.eval cs ρ q := by
  induction p with
  | nil => exact (zero_mul _).symm
  | cons e p ih =>
    show Poly.eval cs ρ (Poly.add cs (Poly.mulTerm cs e.1 e.2 q) (Poly.mul cs p q))
      = (cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ p) * Poly.eval cs ρ q
    rw [Poly.eval_add, Poly.eval_mulTerm, ih, add_mul]

theorem Poly.eval_collect (ρ : Env α) (p : Poly C) :
    Poly.eval cs ρ (Poly.collect cs p) = Poly.eval cs ρ p := by
  show Poly.eval cs ρ (Poly.add cs p []) = _
  rw [Poly.eval_add]
  exact add_zero _

theorem Poly.eval_append (ρ : Env α) (p q : Poly C) :
    Poly.eval cs ρ (p ++ q) = Poly.eval cs ρ p + Poly.eval cs ρ q := by
  induction p with
  | nil => exact (zero_add _).symm
  | cons e p ih =>
    show cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ (p ++ q)
      = cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ p + Poly.eval cs ρ q
    rw [ih, add_assoc]

theorem Poly.eval_allZero (ρ : Env α) (p : Poly C) (h : Poly.allZero cs p = true) :
    Poly.eval cs ρ p = 0 := by
  induction p with
  | nil => rfl
  | cons e p ih =>
    show cs.cast e.1 * Mono.eval ρ e.2 + Poly.eval cs ρ p = 0
    rw [cs.isZero_sound e.1 (and_left' h), ih (and_right' h), zero_mul, add_zero]

/-! ### Expansion of terms -/

def lift1 (f : Poly C → Poly C) : Option (Poly C) → Option (Poly C)
  | some p => some (f p)
  | none => none

def lift2 (f : Poly C → Poly C → Poly C) : Option (Poly C) → Option (Poly C) → Option (Poly C)
  | some p, some q => some (f p q)
  | _, _ => none

theorem lift1_eq_some {f : Poly C → Poly C} {o : Option (Poly C)} {r : Poly C}
    (h : lift1 f o = some r) : ∃ p, o = some p ∧ f p = r := by
  cases o with
  | none => cases h
  | some p => exact ⟨p, rfl, Option.noConfusion h id⟩

theorem lift2_eq_some {f : Poly C → Poly C → Poly C} {o1 o2 : Option (Poly C)} {r : Poly C}
    (h : lift2 f o1 o2 = some r) : ∃ p q, o1 = some p ∧ o2 = some q ∧ f p q = r := by
  cases o1 with
  | none => cases h
  | some p =>
    cases o2 with
    | none => cases h
    | some q => exact ⟨p, q, rfl, rfl, Option.noConfusion h id⟩

/-- The expansion of a term on one side, its input tensors mapped by `m` (Rust:
`expand_into`).  `none` where Rust fails: a non-ring node or an unmapped input. -/
def expand (m : Nat → Option Nat) : Term K → Option (Poly C)
  | Term.const k => some [(cs.ofConst k, [])]
  | Term.input t i =>
    match m t with
    | some p => some [(cs.one, [(p, i)])]
    | none => none
  | Term.add a b => lift2 (Poly.add cs) (expand m a) (expand m b)
  | Term.sub a b =>
    lift2 (fun p q => Poly.add cs p (Poly.scale cs (cs.neg cs.one) q)) (expand m a) (expand m b)
  | Term.mul a b => lift2 (Poly.mul cs) (expand m a) (expand m b)
  | Term.fma a b c => lift2 (Poly.add cs) (lift2 (Poly.mul cs) (expand m a) (expand m b)) (expand m c)
  | Term.neg a => lift1 (Poly.scale cs (cs.neg cs.one)) (expand m a)
  | _ => none

/-- The rule (Rust: `ring_normalize`): expand both sides, subtract, collect, all zero. -/
def ringNormalize (m1 m2 : Nat → Option Nat) (s t : Term K) : Bool :=
  match expand cs m1 s, expand cs m2 t with
  | some p, some q => Poly.allZero cs (Poly.collect cs (p ++ Poly.scale cs (cs.neg cs.one) q))
  | _, _ => false

end Ring
end Kcert
