import Kcert.CheckSegs
import Kcert.SegMany

/-!
# `check::check` with named barriers across two clearings of the members record

`CheckSegs.lean`'s `CanonCleanSegs` allows per CTA one member set per id or one clearing.
`CanonCleanMany` adds a run with two clearings (`TwoRun`: the hypotheses of
`Members.canonicalN_two_sound4`); `canonCleanMany_of_canonCleanSegs`: it is implied by
`CanonCleanSegs`; `check_safe_named_many`: `check_safe_named`'s conclusion under it.
-/

namespace Kcert

open Sem

section Hyps

variable {T D S K F V : Type} [AccAdd V]

/-- One CTA's run with two clearings of the members record (the hypotheses of
`Members.canonicalN_two_sound4`, over the solo sequences of the threads below `N`): positive
counts `mb`, one per id in the solo traces; the first clearing a `Cut` at `c1`, the second a
`Cut` of the segment after it at `c2`; the three segments under their own member sets
(`Memb`, `Sized`, `Check3`); the run finished, in three parts `joinE [H3, H2, H1]` with
`ManyOK` (nothing pending before each part, check (2)'s `KthInst` per part), each member's
actions up to `c1` in `H1` and up to `c2` in `appE H2 H1`, none past; no race report; nothing
pending at the end. -/
structure TwoRunAt (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) (mb : Nat → Nat)
    (W1 k1 W2 k2 : Nat) (SW1 SW2 : List Nat) (c1 c2 : Nat → Nat) (E1 E2 : List Nat)
    (SA SB SC : Nat → List Nat) (H1 H2 H3 : List (Race.EventN V)) : Prop where
  hpos : ∀ b, 0 < mb b
  hcnt : ∀ t i b n w pc, t < cta.N → Sem.soloAct cta.prog cta.regs0 m0 t i =
    Sem.Act.arrive b n w pc → n = mb b
  C1 : Members.Cut (Members.soloEv (Race.progN cta.prog cta.N) cta.regs0 m0) mb W1 k1 SW1 c1 E1
  C2 : Members.Cut (Members.restr (Members.soloEv (Race.progN cta.prog cta.N) cta.regs0 m0)
    (Members.postF c1)) mb W2 k2 SW2 c2 E2
  hMA : Members.Memb (Members.restr (Members.soloEv (Race.progN cta.prog cta.N) cta.regs0 m0)
    (Members.preF c1)) SA
  hSzA : Members.Sized mb SA
  h3A : Members.Check3 (Members.restr (Members.soloEv (Race.progN cta.prog cta.N) cta.regs0 m0)
    (Members.preF c1))
  G : Members.Segs (Members.restr (Members.soloEv (Race.progN cta.prog cta.N) cta.regs0 m0)
    (Members.postF c1)) mb c2 SB SC
  hfin : Race.FinishedN cta.prog cta.regs0 m0 cta.N B Fu = true
  hsplit : Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu = Members.joinE [H3, H2, H1]
  hok : Members.ManyOK (Race.soloEvB cta.prog cta.regs0 m0 cta.N) [H3, H2, H1]
  hcut1 : ∀ u, Members.Mem u SW1 → Members.nEv u H1 = c1 u + 1
  hn1 : ∀ t, Members.nEv t H1 ≤ c1 t + 1
  hcut2 : ∀ u, Members.Mem u SW2 → Members.nEv u (Members.appE H2 H1) = c2 u + 1
  hn2 : ∀ t, Members.nEv t (Members.appE H2 H1) ≤ c2 t + 1
  hc : Race.checkN Race.noSameN cta.N (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) = false
  hend : ∀ b, Members.pendI (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) b = []

def TwoRun (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) : Prop :=
  ∃ (mb : Nat → Nat) (W1 k1 W2 k2 : Nat) (SW1 SW2 : List Nat) (c1 c2 : Nat → Nat)
    (E1 E2 : List Nat) (SA SB SC : Nat → List Nat) (H1 H2 H3 : List (Race.EventN V)),
    TwoRunAt cta m0 B Fu mb W1 k1 W2 k2 SW1 SW2 c1 c2 E1 E2 SA SB SC H1 H2 H3

/-- **The executor hypothesis with up to two clearings of the members record per CTA**: as
`CanonCleanSegs`, or the CTA's run split at two clearings (`TwoRun`). -/
def CanonCleanMany (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (sem : S → Kernel → T → KernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      ∃ (m0 : Nat → V) (B Fu : Nat),
        (CleanFacts ((sem pair k (pick r o k)).cta c) m0 B Fu ∨
          SegRun ((sem pair k (pick r o k)).cta c) m0 B Fu ∨
          ClearRun ((sem pair k (pick r o k)).cta c) m0 B Fu) ∨
        TwoRun ((sem pair k (pick r o k)).cta c) m0 B Fu

/-- **`CanonCleanMany` is no stronger than `CanonCleanSegs`.** -/
theorem canonCleanMany_of_canonCleanSegs {X : Oracle T D S K F}
    {sem : S → Kernel → T → KernelSem V} (h : CanonCleanSegs V X sem) : CanonCleanMany V X sem := by
  intro pair r o wr wo pr k sr hr hs hf hc c hcc
  match h pair r o wr wo pr k sr hr hs hf hc c hcc with
  | ⟨m0, B, Fu, he⟩ => exact ⟨m0, B, Fu, Or.inl he⟩

end Hyps

section Cta

variable {V : Type} [AccAdd V]

/-- One CTA with two clearings: `Members.canonicalN_two_sound4`. -/
theorem ctaSafeN_of_twoRun (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat) (h : TwoRun c m0 B Fu) : CtaSafeN c := fun m1 =>
  match h with
  | ⟨mb, W1, k1, W2, k2, SW1, SW2, c1, c2, E1, E2, SA, SB, SC, H1, H2, H3, G⟩ =>
    Members.canonicalN_two_sound4 c.prog c.N B Fu c.regs0 m0 m1 R hind hR0 mb G.hpos G.hcnt
      G.C1 G.C2 G.hMA G.hSzA G.h3A G.G G.hfin G.hsplit G.hok G.hcut1 G.hn1 G.hcut2 G.hn2 G.hc
      G.hend

theorem ctaSafeN_of_many (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat)
    (h : (CleanFacts c m0 B Fu ∨ SegRun c m0 B Fu ∨ ClearRun c m0 B Fu) ∨ TwoRun c m0 B Fu) :
    CtaSafeN c := by
  cases h with
  | inl h => exact ctaSafeN_of_either c R hind hR0 m0 B Fu h
  | inr h => exact ctaSafeN_of_twoRun c R hind hR0 m0 B Fu h

end Cta

section Soundness

variable {T D S K F C V α : Type} [DecidableEq D] [DecidableEq K] [AccAdd V] [ExpField α]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- **Safety claims with named barriers, across up to two clearings of the members record.**
`check_safe_named_segs` with `CanonCleanMany` in place of `CanonCleanSegs`. -/
theorem check_safe_named_many (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithful X sem) (hclean : CanonCleanMany V X sem)
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
            | ⟨m0, B, Fu, he⟩ => exact ctaSafeN_of_many _ R hind hR0 m0 B Fu he

/-- **Soundness of `check`, named barriers across up to two clearings.**  `check_sound_named`
with `CanonCleanMany` in place of `CanonCleanN`. -/
theorem check_sound_named_many (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithful X sem) (hclean : CanonCleanMany V X sem)
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
  match check_safe_named_many sem hwant hfaith hclean cert refPtx optPtx h,
    check_equiv cc I hI hconst cert refPtx optPtx h with
  | ⟨pair, hp, hsafe⟩, ⟨pair', pr, hp', hr, hequiv⟩ =>
    have e : some pair' = some pair := Eq.trans (Eq.symm hp') hp
    cases e
    exact ⟨_, pr, hp', hr, hsafe, hequiv⟩

end Soundness

end Kcert
