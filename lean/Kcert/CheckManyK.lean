import Kcert.CheckMany
import Kcert.SegManyK

/-!
# `check::check` with named barriers across any number of clearings

`CheckMany.lean`'s `CanonCleanMany` allows per CTA up to two clearings.  `CanonCleanK` adds a
run with any number of clearings (`KRun`: the hypotheses of `Members.canonicalN_many_sound4`,
the clearings as a `Members.Chain`); `canonCleanK_of_canonCleanMany`: it is implied by
`CanonCleanMany`; `check_safe_named_k`: `check_safe_named`'s conclusion under it.
-/

namespace Kcert

open Sem

section Hyps

variable {T D S K F V : Type} [AccAdd V]

/-- One CTA's run with any number of clearings of the members record (the hypotheses of
`Members.canonicalN_many_sound4`): positive counts `mb`, one per id in the solo traces below
`N`; the run's parts `Hs` a `Chain` of the solo sequences of the threads below `N`, the latest
segment `s` under its own member sets `SL`; the run finished, equal to `joinE Hs` with
`ManyOK`; no race report; nothing pending at the end. -/
structure KRunAt (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) (mb : Nat → Nat)
    (Hs : List (List (Race.EventN V))) (s : Nat → Nat → Members.Ev) (SL : Nat → List Nat) : Prop where
  hpos : ∀ b, 0 < mb b
  hcnt : ∀ t i b n w pc, t < cta.N → Sem.soloAct cta.prog cta.regs0 m0 t i =
    Sem.Act.arrive b n w pc → n = mb b
  ch : Members.Chain (Members.soloEv (Race.progN cta.prog cta.N) cta.regs0 m0) mb Hs s
  hM : Members.Memb s SL
  hSz : Members.Sized mb SL
  h3 : Members.Check3 s
  hfin : Race.FinishedN cta.prog cta.regs0 m0 cta.N B Fu = true
  hsplit : Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu = Members.joinE Hs
  hok : Members.ManyOK (Race.soloEvB cta.prog cta.regs0 m0 cta.N) Hs
  hc : Race.checkN Race.noSameN cta.N (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) = false
  hend : ∀ b, Members.pendI (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) b = []

def KRun (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) : Prop :=
  ∃ (mb : Nat → Nat) (Hs : List (List (Race.EventN V))) (s : Nat → Nat → Members.Ev)
    (SL : Nat → List Nat), KRunAt cta m0 B Fu mb Hs s SL

/-- **The executor hypothesis with any number of clearings of the members record per CTA**: as
`CanonCleanMany`, or the CTA's run split at any number of clearings (`KRun`). -/
def CanonCleanK (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (sem : S → Kernel → T → KernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      ∃ (m0 : Nat → V) (B Fu : Nat),
        ((CleanFacts ((sem pair k (pick r o k)).cta c) m0 B Fu ∨
          SegRun ((sem pair k (pick r o k)).cta c) m0 B Fu ∨
          ClearRun ((sem pair k (pick r o k)).cta c) m0 B Fu) ∨
        TwoRun ((sem pair k (pick r o k)).cta c) m0 B Fu) ∨
        KRun ((sem pair k (pick r o k)).cta c) m0 B Fu

/-- **`CanonCleanK` is no stronger than `CanonCleanMany`.** -/
theorem canonCleanK_of_canonCleanMany {X : Oracle T D S K F}
    {sem : S → Kernel → T → KernelSem V} (h : CanonCleanMany V X sem) : CanonCleanK V X sem := by
  intro pair r o wr wo pr k sr hr hs hf hc c hcc
  match h pair r o wr wo pr k sr hr hs hf hc c hcc with
  | ⟨m0, B, Fu, he⟩ => exact ⟨m0, B, Fu, Or.inl he⟩

end Hyps

section Cta

variable {V : Type} [AccAdd V]

/-- One CTA with any number of clearings: `Members.canonicalN_many_sound4`. -/
theorem ctaSafeN_of_kRun (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat) (h : KRun c m0 B Fu) : CtaSafeN c := fun m1 =>
  match h with
  | ⟨mb, Hs, s, SL, G⟩ =>
    Members.canonicalN_many_sound4 c.prog c.N B Fu c.regs0 m0 m1 R hind hR0 mb G.hpos G.hcnt
      G.ch G.hM G.hSz G.h3 G.hfin G.hsplit G.hok G.hc G.hend

theorem ctaSafeN_of_k (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat)
    (h : ((CleanFacts c m0 B Fu ∨ SegRun c m0 B Fu ∨ ClearRun c m0 B Fu) ∨ TwoRun c m0 B Fu) ∨
      KRun c m0 B Fu) :
    CtaSafeN c := by
  cases h with
  | inl h => exact ctaSafeN_of_many c R hind hR0 m0 B Fu h
  | inr h => exact ctaSafeN_of_kRun c R hind hR0 m0 B Fu h

end Cta

section Soundness

variable {T D S K F C V α : Type} [DecidableEq D] [DecidableEq K] [AccAdd V] [ExpField α]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- **Safety claims with named barriers, across any number of clearings of the members
record.** `check_safe_named_many` with `CanonCleanK` in place of `CanonCleanMany`. -/
theorem check_safe_named_k (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithful X sem) (hclean : CanonCleanK V X sem)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeN (sem pair k (pick refPtx optPtx k)) := by
  match check_parts h with
  | ⟨_, pair, pr, hp, hr, _, hsideOk, _⟩ =>
    refine ⟨pair, hp, ?_⟩
    intro k hk c hc
    match hwant _ _ _ _ _ _ hr k (pick_claimed cert k hk) with
    | ⟨sr, hsr⟩ =>
      have hok : sideOk (some sr) = true := by rw [← hsr]; exact hsideOk k
      match sideOk_some hok with
      | ⟨hfind, hcomp⟩ =>
        match hfaith _ _ _ _ _ _ k sr hr hsr hcomp with
        | ⟨hctas, hcta⟩ =>
          match hcta c hc with
          | ⟨R, hind, hR0⟩ =>
            have hc' : c < sr.ctas := by rw [hctas]; exact hc
            match hclean _ _ _ _ _ _ k sr hr hsr hfind hcomp c hc' with
            | ⟨m0, B, Fu, he⟩ => exact ctaSafeN_of_k _ R hind hR0 m0 B Fu he

/-- **Soundness of `check`, named barriers across any number of clearings.**
`check_sound_named` with `CanonCleanK` in place of `CanonCleanN`. -/
theorem check_sound_named_k (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithful X sem) (hclean : CanonCleanK V X sem)
    (cc : FieldCoeffCast ops α) (I : Interp K α) (hI : Rules.FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    X.sha256 refPtx = cert.refPtxSha256 ∧ X.sha256 optPtx = cert.optPtxSha256 ∧
    X.specDigest cert.pairSpec cert.refSpec cert.optSpec = cert.specSha256 ∧
    ∃ pair pr, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      X.runPair pair refPtx optPtx (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims) = some pr ∧
      (∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeN (sem pair k (pick refPtx optPtx k))) ∧
      (∀ o, natMem o (equivOf cert.claims) = true →
        o < X.outputs pair ∧
        pr.terms.refFootprint o = pr.terms.optFootprint o ∧
        ∀ e, natMem e (pr.terms.refFootprint o) = true →
          ∃ lt ot, pr.terms.ref o e = some lt ∧ pr.terms.opt o e = some ot ∧
            ∀ sg : α → Option Bool, EVal.SignOf sg →
              ∀ ρ ρs : Env α, Agrees pr.terms.inputs ρs ρ →
                Term.evalE I sg ρs lt = Term.evalE I sg ρs ot) := by
  have hb := bindingOk_sound (and_left' h)
  refine ⟨hb.1, hb.2.1, hb.2.2, ?_⟩
  match check_safe_named_k sem hwant hfaith hclean cert refPtx optPtx h,
    check_equiv cc I hI hconst cert refPtx optPtx h with
  | ⟨pair, hp, hsafe⟩, ⟨pair', pr, hp', hr, hequiv⟩ =>
    have e : some pair' = some pair := Eq.trans (Eq.symm hp') hp
    cases e
    exact ⟨_, pr, hp', hr, hsafe, hequiv⟩

end Soundness

end Kcert
