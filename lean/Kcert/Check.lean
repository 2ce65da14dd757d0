import Kcert.Rules.FieldInf

/-!
# Replaying the equivalence steps of a certificate

Rust: `checker/src/check.rs` (function `check`, step 4 "Equivalence", and `apply`),
`checker/src/cert/mod.rs` (`Step`, `Rule`), `checker/src/equiv.rs` (footprints, `element_term`).

This file models only the part of `check` that replays proof steps.  What execution produced
is taken as given (`Run`): for each output link and element, the term each kernel wrote (or
none), each kernel's footprint (the elements it wrote) and the input naming of the shared
arena.  That execution computes these correctly is **not** modelled here (see the README).

* `checkEquiv run equiv steps`: for every output link `o` claimed equivalent (`equiv`), both
  footprints are equal and every element of it is covered by a step; every step cites a claimed
  output and its rule accepts each element of its range.
* `checkEquiv_sound`: if `checkEquiv` accepts, then for every claimed output link, both kernels
  write the same elements, and for each written element both terms exist and have the same
  extended value (`Term.evalE`, with `-inf`, `+inf`; the rule `FieldNormalize` is
  `fieldNormalizeX`, which folds infinities) in every `ExpField`, for every input environment,
  under every interpretation satisfying `FieldInterp` (`rcp x = 1/x`; `max`, `min`
  associative, commutative and idempotent; for positive `x`, `sqrt x` positive and
  `rsqrt x = 1 / sqrt x`) and every sign function with `SignOf`.
  `checkEquiv_sound_noInf`: for terms without infinities, the same value `Term.eval`.

The Rust code also rejects a step range that overflows `u64` ("range overflows"), is empty
("empty range"), reaches an element outside the footprint ("element is not written by the
kernels") or covers an element an earlier step covered ("element already covered by an earlier
step").  `checkStepRanges` models these checks one by one (`rangeFits`, `nonEmptyRange`,
`rangeWritten`, `noEarlierOverlap`); they guard resources and diagnostics, not soundness, so
`checkEquiv_sound` does not use them.
-/

namespace Kcert

open ExpField Rules

/-- Rust `cert::Rule`. -/
inductive Rule where
  | congruent
  | ringNormalize
  | fieldNormalize

/-- Rust `cert::Step`: elements `first .. first + count` of output link `output`, by `rule`. -/
structure Step where
  output : Nat
  first : Nat
  count : Nat
  rule : Rule

/-- What running both kernels gave the equivalence check (Rust `PairRun`): the term written by
each kernel at (output link, element) (`element_term`; `none` for an element not written or
not a number), the footprints (`SideRun::footprint`), and the input naming of the one shared
arena (`PairRun::inputs`). -/
structure Run (K : Type) where
  ref : Nat → Nat → Option (Term K)
  opt : Nat → Nat → Option (Term K)
  refFootprint : Nat → List Nat
  optFootprint : Nat → List Nat
  inputs : Nat → Option Nat

section Model

variable {K C : Type} [DecidableEq K] (ops : FieldCoeffOps K C)

/-- Rust `check::apply`: the one `match` from rule name to rule, on one side for both terms. -/
def applyRule (m : Nat → Option Nat) (lt ot : Term K) : Rule → Bool
  | Rule.congruent => congruent m m lt ot
  | Rule.ringNormalize => ringNormalize ops.toCoeffOps m m lt ot
  | Rule.fieldNormalize => fieldNormalizeX ops m lt ot

def checkTerms (m : Nat → Option Nat) (rule : Rule) : Option (Term K) → Option (Term K) → Bool
  | some lt, some ot => applyRule ops m lt ot rule
  | _, _ => false

/-- One element: both kernels wrote a term there and the rule accepts the pair. -/
def checkElem (run : Run K) (rule : Rule) (o e : Nat) : Bool :=
  checkTerms ops run.inputs rule (run.ref o e) (run.opt o e)

/-- Every element `first, first + 1, ..., first + count - 1`. -/
def checkRange (run : Run K) (rule : Rule) (o : Nat) : Nat → Nat → Bool
  | _, 0 => true
  | first, n + 1 => checkElem ops run rule o first && checkRange run rule o (first + 1) n

def natMem (n : Nat) : List Nat → Bool
  | [] => false
  | k :: l => decide (n = k) || natMem n l

/-- Every step cites an output link claimed equivalent, and its rule accepts its range. -/
def checkSteps (run : Run K) (equiv : List Nat) : List Step → Bool
  | [] => true
  | s :: ss => natMem s.output equiv && checkRange ops run s.rule s.output s.first s.count &&
      checkSteps run equiv ss

/-- `first ≤ e < first + count`, by recursion on `count`. -/
def inRange (e : Nat) : Nat → Nat → Bool
  | _, 0 => false
  | first, n + 1 => decide (e = first) || inRange e (first + 1) n

def coveredBy (o e : Nat) : List Step → Bool
  | [] => false
  | s :: ss => (decide (s.output = o) && inRange e s.first s.count) || coveredBy o e ss

def allCovered (steps : List Step) (o : Nat) : List Nat → Bool
  | [] => true
  | e :: l => coveredBy o e steps && allCovered steps o l

/-- One claimed output: equal footprints (Rust `footprint_mismatch`), every element covered
(Rust: the final coverage loop). -/
def checkOutput (run : Run K) (steps : List Step) (o : Nat) : Bool :=
  decide (run.refFootprint o = run.optFootprint o) && allCovered steps o (run.refFootprint o)

def checkOutputs (run : Run K) (steps : List Step) : List Nat → Bool
  | [] => true
  | o :: os => checkOutput run steps o && checkOutputs run steps os

/-! ### The Rust checker's range checks (`check::check`, step 4, the loop over steps) -/

/-- One more than Rust `u64::MAX`: step bounds are `u64`. -/
def u64Size : Nat := 18446744073709551616

/-- Rust `step.first.checked_add(step.count)` succeeds (else "range overflows"). -/
def rangeFits (s : Step) : Bool := decide (s.first + s.count < u64Size)

/-- Rust `step.count == 0` is rejected ("empty range"). -/
def nonEmptyRange (s : Step) : Bool := decide (s.count ≠ 0)

/-- Every element `first, ..., first + count - 1` is in the footprint (Rust:
`footprints[out].binary_search(&e)` succeeds, else "element is not written by the kernels"). -/
def rangeWritten (fp : List Nat) : Nat → Nat → Bool
  | _, 0 => true
  | first, n + 1 => natMem first fp && rangeWritten fp (first + 1) n

/-- Two steps of one output link whose ranges share an element. -/
def overlaps (s t : Step) : Bool :=
  decide (s.output = t.output) && decide (s.first < t.first + t.count) &&
    decide (t.first < s.first + s.count)

/-- No earlier step covers an element of `s` (Rust: `covered[out][slot]` is not yet set, else
"element already covered by an earlier step"). -/
def noEarlierOverlap (s : Step) : List Step → Bool
  | [] => true
  | t :: ts => !overlaps s t && noEarlierOverlap s ts

/-- The range checks of one step, given the steps before it (Rust: the checks of `check`'s
loop over steps before the element terms are taken).  The reference footprint is the one the
Rust searches (`footprints[out]`, the reference kernel's). -/
def stepRangeOk (run : Run K) (earlier : List Step) (s : Step) : Bool :=
  rangeFits s && nonEmptyRange s && rangeWritten (run.refFootprint s.output) s.first s.count &&
    noEarlierOverlap s earlier

/-- Every step passes its range checks; `earlier` holds the steps before (newest first). -/
def checkStepRanges (run : Run K) : List Step → List Step → Bool
  | _, [] => true
  | earlier, s :: ss => stepRangeOk run earlier s && checkStepRanges run (s :: earlier) ss

/-- The equivalence part of `check::check`: footprints and coverage, the range checks, and the
rules. -/
def checkEquiv (run : Run K) (equiv : List Nat) (steps : List Step) : Bool :=
  checkOutputs run steps equiv && checkStepRanges run [] steps && checkSteps ops run equiv steps

end Model

section Soundness

variable {K C α : Type} [DecidableEq K] [ExpField α] {ops : FieldCoeffOps K C}
  (cc : FieldCoeffCast ops α)

/-- A term `RingNormalize` expands has no infinities. -/
theorem expand_noInf (ops : CoeffOps K C) (m : Nat → Option Nat) (t : Term K) :
    ∀ p, expand ops m t = some p → Term.noInf t = true := by
  induction t with
  | const k => intro _ _; rfl
  | input t i => intro _ _; rfl
  | add a b iha ihb =>
    intro p h
    match lift2_eq_some h with
    | ⟨pa, pb, ha, hb, _⟩ =>
      show (Term.noInf a && Term.noInf b) = true
      rw [iha pa ha, ihb pb hb]
      rfl
  | sub a b iha ihb =>
    intro p h
    match lift2_eq_some h with
    | ⟨pa, pb, ha, hb, _⟩ =>
      show (Term.noInf a && Term.noInf b) = true
      rw [iha pa ha, ihb pb hb]
      rfl
  | mul a b iha ihb =>
    intro p h
    match lift2_eq_some h with
    | ⟨pa, pb, ha, hb, _⟩ =>
      show (Term.noInf a && Term.noInf b) = true
      rw [iha pa ha, ihb pb hb]
      rfl
  | fma a b c iha ihb ihc =>
    intro p h
    match lift2_eq_some h with
    | ⟨pab, pc, hab, hc, _⟩ =>
      match lift2_eq_some hab with
      | ⟨pa, pb, ha, hb, _⟩ =>
        show (Term.noInf a && Term.noInf b && Term.noInf c) = true
        rw [iha pa ha, ihb pb hb, ihc pc hc]
        rfl
  | neg a iha =>
    intro p h
    match lift1_eq_some h with
    | ⟨pa, ha, _⟩ => exact iha pa ha
  | _ =>
    intro p h
    cases h

/-- Congruent terms (one input map, as `applyRule` calls it) have equal extended values and
truth values: the proof of `congruent_sound`, for `evalX`. -/
theorem congruent_evalX (I : Interp K α) (sg : α → Option Bool) (m : Nat → Option Nat)
    (ρ ρs : Env α) (hag : Agrees m ρs ρ) :
    ∀ (s t : Term K), congruent m m s t = true → Term.evalX I sg ρs s = Term.evalX I sg ρs t := by
  intro s
  induction s with
  | const x =>
    intro t h
    cases t with
    | const y =>
      have e : x = y := of_decide_eq_true' h
      rw [e]
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
      have hs : (m ta).isSome = true := and_right' (and_left' h)
      have he : m ta = m tb := of_decide_eq_true' (and_right' h)
      cases hm : m ta with
      | none =>
        rw [hm] at hs
        cases hs
      | some p =>
        have hm' : m tb = some p := by rw [← he, hm]
        show (EVal.fin (ρs ta ia), some false) = (EVal.fin (ρs tb ib), some false)
        rw [hag ta p ia hm, hag tb p ib hm', hi]
    | _ => cases h
  | add a b iha ihb =>
    intro t h
    cases t with
    | add c d =>
      simp only [Term.evalX, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | sub a b iha ihb =>
    intro t h
    cases t with
    | sub c d =>
      simp only [Term.evalX, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | mul a b iha ihb =>
    intro t h
    cases t with
    | mul c d =>
      simp only [Term.evalX, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | div a b iha ihb =>
    intro t h
    cases t with
    | div c d =>
      simp only [Term.evalX, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | fma a b c iha ihb ihc =>
    intro t h
    cases t with
    | fma d e f =>
      simp only [Term.evalX, iha d (and_left' (and_left' h)), ihb e (and_right' (and_left' h)),
        ihc f (and_right' h)] <;> rfl
    | _ => cases h
  | neg a iha =>
    intro t h
    cases t with
    | neg b => simp only [Term.evalX, iha b h] <;> rfl
    | _ => cases h
  | max a b iha ihb =>
    intro t h
    cases t with
    | max c d =>
      simp only [Term.evalX, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | min a b iha ihb =>
    intro t h
    cases t with
    | min c d =>
      simp only [Term.evalX, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | app f a iha =>
    intro t h
    cases t with
    | app g b =>
      have e : f = g := of_decide_eq_true' (and_left' h)
      rw [e]
      simp only [Term.evalX, iha b (and_right' h)] <;> rfl
    | _ => cases h
  | cmp op a b iha ihb =>
    intro t h
    cases t with
    | cmp op' c d =>
      have e : op = op' := of_decide_eq_true' (and_left' (and_left' h))
      rw [e]
      simp only [Term.evalX, iha c (and_right' (and_left' h)), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | select a b c iha ihb ihc =>
    intro t h
    cases t with
    | select d e f =>
      simp only [Term.evalX, iha d (and_left' (and_left' h)), ihb e (and_right' (and_left' h)),
        ihc f (and_right' h)] <;> rfl
    | _ => cases h
  | and a b iha ihb =>
    intro t h
    cases t with
    | and c d =>
      simp only [Term.evalX, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | or a b iha ihb =>
    intro t h
    cases t with
    | or c d =>
      simp only [Term.evalX, iha c (and_left' h), ihb d (and_right' h)] <;> rfl
    | _ => cases h
  | not a iha =>
    intro t h
    cases t with
    | not b => simp only [Term.evalX, iha b h] <;> rfl
    | _ => cases h

/-- An accepting rule means equal extended values (`Term.evalE`), for every sign function with
`SignOf`.  `RingNormalize` accepts only terms without infinities, where the extended value is
the finite `Term.eval` (`evalE_noInf`); `Congruent` terms have equal extended values (both may
be undefined, e.g. `-inf + +inf` against itself); `FieldNormalize` is `fieldNormalizeX_sound`
(whose values are moreover defined). -/
theorem applyRule_sound (I : Interp K α) (hI : FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (sg : α → Option Bool) (hsg : EVal.SignOf sg)
    (m : Nat → Option Nat) (ρ ρs : Env α) (hag : Agrees m ρs ρ) (lt ot : Term K) (r : Rule)
    (h : applyRule ops m lt ot r = true) : Term.evalE I sg ρs lt = Term.evalE I sg ρs ot := by
  cases r with
  | congruent => exact congrArg Prod.fst (congruent_evalX I sg m ρ ρs hag lt ot h)
  | ringNormalize =>
    have h' : checkDiff ops.toCoeffOps (expand ops.toCoeffOps m lt) (expand ops.toCoeffOps m ot)
      = true := h
    cases hl : expand ops.toCoeffOps m lt with
    | none =>
      rw [hl] at h'
      cases h'
    | some p =>
      cases ho : expand ops.toCoeffOps m ot with
      | none =>
        rw [hl, ho] at h'
        cases h'
      | some q =>
        rw [Term.evalE_noInf I sg ρs lt (expand_noInf ops.toCoeffOps m lt p hl),
          Term.evalE_noInf I sg ρs ot (expand_noInf ops.toCoeffOps m ot q ho),
          ringNormalize_sound cc.toCoeffCast I hconst m m ρ ρs ρs hag hag lt ot h]
  | fieldNormalize => exact (fieldNormalizeX_sound cc I hI hconst sg hsg m ρ ρs hag lt ot h).1

theorem checkRange_sound (run : Run K) (rule : Rule) (o : Nat) (count : Nat) :
    ∀ first e, checkRange ops run rule o first count = true → inRange e first count = true →
      checkElem ops run rule o e = true := by
  induction count with
  | zero =>
    intro first e _ hr
    cases hr
  | succ n ih =>
    intro first e h hr
    cases he : decide (e = first)
    · have hr' : inRange e (first + 1) n = true := by
        have hr2 : (decide (e = first) || inRange e (first + 1) n) = true := hr
        rw [he] at hr2
        exact hr2
      exact ih (first + 1) e (and_right' h) hr'
    · rw [of_decide_eq_true' he]
      exact and_left' h

theorem coveredBy_sound (run : Run K) (equiv : List Nat) (o e : Nat) (steps : List Step) :
    checkSteps ops run equiv steps = true → coveredBy o e steps = true →
      ∃ rule, checkElem ops run rule o e = true := by
  induction steps with
  | nil =>
    intro _ hc
    cases hc
  | cons s ss ih =>
    intro h hc
    have hc' : ((decide (s.output = o) && inRange e s.first s.count) || coveredBy o e ss)
      = true := hc
    cases hs : (decide (s.output = o) && inRange e s.first s.count)
    · rw [hs] at hc'
      exact ih (and_right' h) hc'
    · have ho : s.output = o := of_decide_eq_true' (and_left' hs)
      have hr := checkRange_sound run s.rule s.output s.count s.first e
        (and_right' (and_left' h)) (and_right' hs)
      rw [ho] at hr
      exact ⟨s.rule, hr⟩

theorem allCovered_sound (steps : List Step) (o : Nat) (l : List Nat) :
    allCovered steps o l = true → ∀ e, natMem e l = true → coveredBy o e steps = true := by
  induction l with
  | nil =>
    intro _ e he
    cases he
  | cons k l ih =>
    intro h e he
    have he' : (decide (e = k) || natMem e l) = true := he
    cases hk : decide (e = k)
    · rw [hk] at he'
      exact ih (and_right' h) e he'
    · rw [of_decide_eq_true' hk]
      exact and_left' h

theorem checkOutputs_sound (run : Run K) (steps : List Step) (os : List Nat) :
    checkOutputs run steps os = true → ∀ o, natMem o os = true → checkOutput run steps o = true := by
  induction os with
  | nil =>
    intro _ o ho
    cases ho
  | cons k os ih =>
    intro h o ho
    have ho' : (decide (o = k) || natMem o os) = true := ho
    cases hk : decide (o = k)
    · rw [hk] at ho'
      exact ih (and_right' h) o ho'
    · rw [of_decide_eq_true' hk]
      exact and_left' h

/-- Soundness of the equivalence check: if `checkEquiv` accepts, then for every output link `o`
claimed equivalent, both kernels write the same elements, and at each element `e` they write,
both kernels' terms exist and have the same extended value (`Term.evalE`: finite, `-inf`,
`+inf` or undefined), in every `ExpField`, for every pair input environment `ρ` and arena
environment `ρs` agreeing with it through the input naming, under every interpretation
satisfying `FieldInterp` and every sign function with `SignOf`, given coefficients whose `cast`
respects the operations and tests and sends each constant to its value.  For terms without
infinities the extended value is `fin (Term.eval ...)` (`checkEquiv_sound_noInf`). -/
theorem checkEquiv_sound (I : Interp K α) (hI : FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (sg : α → Option Bool) (hsg : EVal.SignOf sg)
    (run : Run K) (ρ ρs : Env α) (hag : Agrees run.inputs ρs ρ)
    (equiv : List Nat) (steps : List Step) (h : checkEquiv ops run equiv steps = true) :
    ∀ o, natMem o equiv = true →
      run.refFootprint o = run.optFootprint o ∧
      ∀ e, natMem e (run.refFootprint o) = true →
        ∃ lt ot, run.ref o e = some lt ∧ run.opt o e = some ot ∧
          Term.evalE I sg ρs lt = Term.evalE I sg ρs ot := by
  intro o ho
  have hout := checkOutputs_sound run steps equiv (and_left' (and_left' h)) o ho
  refine ⟨of_decide_eq_true' (and_left' hout), ?_⟩
  intro e he
  have hc := allCovered_sound steps o _ (and_right' hout) e he
  match coveredBy_sound run equiv o e steps (and_right' h) hc with
  | ⟨rule, hr⟩ =>
    have hr' : checkTerms ops run.inputs rule (run.ref o e) (run.opt o e) = true := hr
    cases hl : run.ref o e with
    | none =>
      rw [hl] at hr'
      cases hr'
    | some lt =>
      cases hot : run.opt o e with
      | none =>
        rw [hl, hot] at hr'
        cases hr'
      | some ot =>
        rw [hl, hot] at hr'
        exact ⟨lt, ot, rfl, rfl,
          applyRule_sound cc I hI hconst sg hsg run.inputs ρ ρs hag lt ot rule hr'⟩

/-- The finite reading of `checkEquiv_sound`: at an element whose two terms have no infinities,
they have the same value `Term.eval`. -/
theorem checkEquiv_sound_noInf (I : Interp K α) (hI : FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (sg : α → Option Bool) (hsg : EVal.SignOf sg)
    (run : Run K) (ρ ρs : Env α) (hag : Agrees run.inputs ρs ρ)
    (equiv : List Nat) (steps : List Step) (h : checkEquiv ops run equiv steps = true)
    (o e : Nat) (ho : natMem o equiv = true) (he : natMem e (run.refFootprint o) = true)
    (lt ot : Term K) (hl : run.ref o e = some lt) (hot : run.opt o e = some ot)
    (nl : Term.noInf lt = true) (no : Term.noInf ot = true) :
    Term.eval I ρs lt = Term.eval I ρs ot := by
  match (checkEquiv_sound cc I hI hconst sg hsg run ρ ρs hag equiv steps h o ho).2 e he with
  | ⟨lt', ot', hl', hot', hv⟩ =>
    have e1 : lt' = lt := Option.noConfusion (hl'.symm.trans hl) id
    have e2 : ot' = ot := Option.noConfusion (hot'.symm.trans hot) id
    rw [e1, e2, Term.evalE_noInf I sg ρs lt nl, Term.evalE_noInf I sg ρs ot no] at hv
    exact EVal.noConfusion hv id

end Soundness

end Kcert
