import Kcert.CheckNamed
import Kcert.SegClocks

/-!
# `check::check` with named barriers across one clearing of the members record

`CheckNamed.lean`'s executor hypothesis `CanonCleanN` fixes one member set `Sb b` per id for the
whole run (`Drain2 Sb` over the run).  The Rust clears its members record after a whole-CTA
instance where every thread waits and nothing else is pending (`exec/mod.rs`
`resolve_barriers`), so an id may join other threads after it.  `CanonCleanSegs` allows, per CTA,
either `CanonCleanN`'s facts (`CleanFacts`) or the run split at one clearing (`SegRun`: the
hypotheses of `Members.canonicalN_segs_sound`); `canonCleanSegs_of_canonCleanN`: it is implied by
`CanonCleanN`.  `check_safe_named_segs`: `check_safe_named`'s conclusion under it.
-/

namespace Kcert

open Sem

section Hyps

variable {T D S K F V : Type} [AccAdd V]

/-- `CanonCleanN`'s facts about one CTA's run (one member set per id). -/
def CleanFacts (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) : Prop :=
  ∃ (mb : Nat → Nat) (Sb : Nat → List Nat),
    (∀ b, 0 < mb b) ∧ Members.Sized mb Sb ∧
    Race.FinishedN cta.prog cta.regs0 m0 cta.N B Fu = true ∧
    Members.Drain2 Sb (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) ∧
    (∀ b, Members.pendI (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) b = []) ∧
    Race.CountsOK cta.prog cta.regs0 m0 (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) ∧
    Members.RustCheck3 cta.N (Race.soloEvB cta.prog cta.regs0 m0 cta.N)
      (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) ∧
    Race.checkN Race.noSameN cta.N (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) = false

/-- One CTA's run with one clearing of the members record (the hypotheses of
`Members.canonicalN_segs_sound`): one positive count per id; a whole-CTA instance of `W` (the
`k`-th; every arrival at `W` waits; members `SW`, their arrivals there `c u`; every arriving
thread in `SW`); the run finished and split at that instance's completion (`appE H2 H1`), with
each member's actions up to its cut in `H1` and none past it, nothing pending at the clearing
nor at the end; check (2) with `S1` on `H1` and with `S2` on `H2`; check (3) on each part; no
race report. -/
structure SegRunAt (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) (mb : Nat → Nat) (W k : Nat)
    (SW : List Nat) (c : Nat → Nat) (S1 S2 : Nat → List Nat)
    (H1 H2 : List (Race.EventN V)) : Prop where
  hpos : ∀ b, 0 < mb b
  hcnt : ∀ t i b n w pc, t < cta.N →
    Sem.soloAct cta.prog cta.regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b
  hW : ∀ t i wt, Race.soloEvB cta.prog cta.regs0 m0 cta.N t i = Members.Ev.arr W wt → wt = true
  hMW : ∀ t i wt, Race.soloEvB cta.prog cta.regs0 m0 cta.N t i = Members.Ev.arr W wt →
    Members.Mem t SW
  hm : Members.len SW = mb W
  hS : Members.Nodup SW
  hcW : ∀ u, Members.Mem u SW →
    Race.soloEvB cta.prog cta.regs0 m0 cta.N u (c u) = Members.Ev.arr W true ∧
      Members.ac (Race.soloEvB cta.prog cta.regs0 m0 cta.N) W u (c u) = k
  hB : ∀ u i b' wt, Race.soloEvB cta.prog cta.regs0 m0 cta.N u i = Members.Ev.arr b' wt →
    Members.Mem u SW
  hfin : Race.FinishedN cta.prog cta.regs0 m0 cta.N B Fu = true
  hsplit : Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu = Members.appE H2 H1
  hcut : ∀ u, Members.Mem u SW → Members.nEv u H1 = c u + 1
  hn : ∀ t, Members.nEv t H1 ≤ c t + 1
  hd1 : Members.Drain2 S1 H1
  hend1 : ∀ b, Members.pendI H1 b = []
  hr1 : Members.RustCheck3 cta.N
    (Members.restr (Race.soloEvB cta.prog cta.regs0 m0 cta.N) (Members.preF c)) H1
  hd2 : Members.Drain2 S2 H2
  hend2 : ∀ b, Members.pendI H2 b = []
  hr2 : Members.RustCheck3 cta.N (Members.shiftA (Race.soloEvB cta.prog cta.regs0 m0 cta.N) H1) H2
  hSz1 : Members.Sized mb S1
  hSz2 : Members.Sized mb S2
  hc : Race.checkN Race.noSameN cta.N (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) = false

def SegRun (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) : Prop :=
  ∃ (mb : Nat → Nat) (W k : Nat) (SW : List Nat) (c : Nat → Nat) (S1 S2 : Nat → List Nat)
    (H1 H2 : List (Race.EventN V)), SegRunAt cta m0 B Fu mb W k SW c S1 S2 H1 H2

/-- **The executor hypothesis with one clearing of the members record per CTA**: as
`CanonCleanN`, but each CTA's run may instead be split at one clearing, with check (2) under
its own member sets on each part (`SegRun`). -/
def CanonCleanSegs (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (sem : S → Kernel → T → KernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      ∃ (m0 : Nat → V) (B Fu : Nat),
        CleanFacts ((sem pair k (pick r o k)).cta c) m0 B Fu ∨
          SegRun ((sem pair k (pick r o k)).cta c) m0 B Fu

/-- **`CanonCleanSegs` is no stronger than `CanonCleanN`.** -/
theorem canonCleanSegs_of_canonCleanN {X : Oracle T D S K F} {sem : S → Kernel → T → KernelSem V}
    (h : CanonCleanN V X sem) : CanonCleanSegs V X sem := by
  intro pair r o wr wo pr k sr hr hs hf hc c hcc
  match h pair r o wr wo pr k sr hr hs hf hc c hcc with
  | ⟨m0, B, Fu, mb, Sb, rest⟩ => exact ⟨m0, B, Fu, Or.inl ⟨mb, Sb, rest⟩⟩

end Hyps

section Cta

variable {V : Type} [AccAdd V]

/-- One CTA with one clearing: `Members.canonicalN_segs_sound`. -/
theorem ctaSafeN_of_segRun (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat) (h : SegRun c m0 B Fu) : CtaSafeN c := fun m1 =>
  match h with
  | ⟨mb, W, k, SW, cc, S1, S2, H1, H2, G⟩ =>
    Members.canonicalN_segs_sound c.prog c.N B Fu c.regs0 m0 m1 R hind hR0 mb G.hpos G.hcnt
      G.hW G.hMW G.hm G.hS G.hcW G.hB G.hfin G.hsplit G.hcut G.hn G.hd1 G.hend1 G.hr1 G.hd2
      G.hend2 G.hr2 G.hSz1 G.hSz2 G.hc

theorem ctaSafeN_of_either (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat) (h : CleanFacts c m0 B Fu ∨ SegRun c m0 B Fu) : CtaSafeN c := by
  cases h with
  | inl h =>
    match h with
    | ⟨mb, Sb, hpos, hSz, hfin, hd, hend, hco, hr3, hck⟩ =>
      exact ctaSafeN_of_canonN c R hind hR0 m0 B Fu mb Sb hpos hSz hfin hd hend hco hr3 hck
  | inr h => exact ctaSafeN_of_segRun c R hind hR0 m0 B Fu h

/-- `CanonCleanSegs` for a semantics whose every CTA is one `cta`. -/
theorem canonCleanSegs_of_fixed {T D S K F : Type} {X : Oracle T D S K F}
    {sem : S → Kernel → T → KernelSem V} (cta : Cta V)
    (hsem : ∀ pair k t c, (sem pair k t).cta c = cta)
    (h : ∃ (m0 : Nat → V) (B Fu : Nat), CleanFacts cta m0 B Fu ∨ SegRun cta m0 B Fu) :
    CanonCleanSegs V X sem := by
  intro pair r o wr wo pr k sr _ _ _ _ c _
  rw [hsem pair k (pick r o k) c]
  exact h

end Cta

section Soundness

variable {T D S K F C V α : Type} [DecidableEq D] [DecidableEq K] [AccAdd V] [ExpField α]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- **Safety claims with named barriers, across a clearing of the members record.**
`check_safe_named` with `CanonCleanSegs` (each CTA's run with one member set per id, or split at
one clearing with a member set per id on each side) in place of `CanonCleanN`. -/
theorem check_safe_named_segs (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithful X sem) (hclean : CanonCleanSegs V X sem)
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
            | ⟨m0, B, Fu, he⟩ => exact ctaSafeN_of_either _ R hind hR0 m0 B Fu he

end Soundness

end Kcert
