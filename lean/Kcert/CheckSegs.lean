import Kcert.CheckNamed
import Kcert.SegClocks

/-!
# `check::check` with named barriers across one clearing of the members record

`CheckNamed.lean`'s executor hypothesis `CanonCleanN` fixes one member set `Sb b` per id for the
whole run (`Drain2 Sb` over the run).  The Rust clears its members record after a whole-CTA
instance where every thread waits and nothing else is pending (`exec/mod.rs`
`resolve_barriers`), so an id may join other threads after it.  `CanonCleanSegs` allows, per CTA,
either `CanonCleanN`'s facts (`CleanFacts`) or the run split at one clearing (`SegRun`: the
hypotheses of `Members.canonicalN_segs_sound`; `ClearRun`: those of
`Members.canonicalN_clear_sound`, the cut read off the run); `canonCleanSegs_of_canonCleanN`: it
is implied by `CanonCleanN`.  `check_safe_named_segs`: `check_safe_named`'s conclusion under it.
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
`Members.canonicalN_segs_sound`, with one count per id from the count check `CountsOK`,
`Members.canonN_counts_segs`): positive counts `mb`; a whole-CTA instance of `W` (the
`k`-th; every arrival at `W` waits; members `SW`, their arrivals there `c u`; every arriving
thread in `SW`); the run finished and split at that instance's completion (`appE H2 H1`), with
each member's actions up to its cut in `H1` and none past it, nothing pending at the clearing
nor at the end; check (2) with `S1` on `H1` and with `S2` on `H2`; check (3) over the whole run
(as in `CanonCleanN`); no race report. -/
structure SegRunAt (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) (mb : Nat → Nat) (W k : Nat)
    (SW : List Nat) (c : Nat → Nat) (S1 S2 : Nat → List Nat)
    (H1 H2 : List (Race.EventN V)) : Prop where
  hpos : ∀ b, 0 < mb b
  hco : Race.CountsOK cta.prog cta.regs0 m0 (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu)
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
  hd2 : Members.Drain2 S2 H2
  hend2 : ∀ b, Members.pendI H2 b = []
  hr : Members.RustCheck3 cta.N (Race.soloEvB cta.prog cta.regs0 m0 cta.N)
    (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu)
  hSz1 : Members.Sized mb S1
  hSz2 : Members.Sized mb S2
  hc : Race.checkN Race.noSameN cta.N (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) = false

def SegRun (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) : Prop :=
  ∃ (mb : Nat → Nat) (W k : Nat) (SW : List Nat) (c : Nat → Nat) (S1 S2 : Nat → List Nat)
    (H1 H2 : List (Race.EventN V)), SegRunAt cta m0 B Fu mb W k SW c S1 S2 H1 H2

/-- One CTA's run with one clearing, the cut read off the run (the hypotheses of
`Members.canonicalN_clear_sound`): positive counts `mb`; every arrival at `W` waits and every
arriving thread is a member of `W` in check (2)'s first record (`S1 W`); the run finished and
split right after the clearing completion of `W` (`appE H2 (complete W n :: H1')`), nothing
pending there nor at the end; check (2) with `S1` before and `S2` after (`Sized mb`); the count
check; check (3) over the whole run; no race report. -/
structure ClearRunAt (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) (mb : Nat → Nat) (W n : Nat)
    (S1 S2 : Nat → List Nat) (H1 H2 : List (Race.EventN V)) : Prop where
  hpos : ∀ b, 0 < mb b
  hW : ∀ t i wt, Race.soloEvB cta.prog cta.regs0 m0 cta.N t i = Members.Ev.arr W wt → wt = true
  hB : ∀ u i b' wt, Race.soloEvB cta.prog cta.regs0 m0 cta.N u i = Members.Ev.arr b' wt →
    Members.Mem u (S1 W)
  hfin : Race.FinishedN cta.prog cta.regs0 m0 cta.N B Fu = true
  hsplit : Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu =
    Members.appE H2 (Race.EventN.complete W n :: H1)
  hd1 : Members.Drain2 S1 (Race.EventN.complete W n :: H1)
  hend1 : ∀ b, Members.pendI (Race.EventN.complete W n :: H1) b = []
  hd2 : Members.Drain2 S2 H2
  hend2 : ∀ b, Members.pendI H2 b = []
  hr : Members.RustCheck3 cta.N (Race.soloEvB cta.prog cta.regs0 m0 cta.N)
    (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu)
  hSz1 : Members.Sized mb S1
  hSz2 : Members.Sized mb S2
  hco : Race.CountsOK cta.prog cta.regs0 m0 (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu)
  hc : Race.checkN Race.noSameN cta.N (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) = false

def ClearRun (cta : Cta V) (m0 : Nat → V) (B Fu : Nat) : Prop :=
  ∃ (mb : Nat → Nat) (W n : Nat) (S1 S2 : Nat → List Nat) (H1 H2 : List (Race.EventN V)),
    ClearRunAt cta m0 B Fu mb W n S1 S2 H1 H2

/-- **The executor hypothesis with one clearing of the members record per CTA**: as
`CanonCleanN`, but each CTA's run may instead be split at one clearing, with check (2) under
its own member sets on each part (`SegRun`, or `ClearRun` with the cut read off the run). -/
def CanonCleanSegs (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (sem : S → Kernel → T → KernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      ∃ (m0 : Nat → V) (B Fu : Nat),
        CleanFacts ((sem pair k (pick r o k)).cta c) m0 B Fu ∨
          SegRun ((sem pair k (pick r o k)).cta c) m0 B Fu ∨
          ClearRun ((sem pair k (pick r o k)).cta c) m0 B Fu

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
    Members.canonicalN_segs_sound c.prog c.N B Fu c.regs0 m0 m1 R hind hR0 mb G.hpos
      (Members.canonN_counts_segs G.hSz1 G.hSz2 G.hfin G.hsplit G.hd1 G.hend1 G.hd2 G.hend2 G.hco)
      G.hW G.hMW G.hm G.hS G.hcW G.hB G.hfin G.hsplit G.hcut G.hn G.hd1 G.hend1 G.hd2
      G.hend2 G.hr G.hSz1 G.hSz2 G.hc

/-- One CTA with one clearing, the cut read off the run: `Members.canonicalN_clear_sound`. -/
theorem ctaSafeN_of_clearRun (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat) (h : ClearRun c m0 B Fu) : CtaSafeN c := fun m1 =>
  match h with
  | ⟨mb, W, n, S1, S2, H1, H2, G⟩ =>
    Members.canonicalN_clear_sound c.prog c.N B Fu c.regs0 m0 m1 R hind hR0 mb G.hpos G.hW G.hB
      G.hfin G.hsplit G.hd1 G.hend1 G.hd2 G.hend2 G.hr G.hSz1 G.hSz2 G.hco G.hc

theorem ctaSafeN_of_either (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat)
    (h : CleanFacts c m0 B Fu ∨ SegRun c m0 B Fu ∨ ClearRun c m0 B Fu) : CtaSafeN c := by
  cases h with
  | inl h =>
    match h with
    | ⟨mb, Sb, hpos, hSz, hfin, hd, hend, hco, hr3, hck⟩ =>
      exact ctaSafeN_of_canonN c R hind hR0 m0 B Fu mb Sb hpos hSz hfin hd hend hco hr3 hck
  | inr h =>
    cases h with
    | inl h => exact ctaSafeN_of_segRun c R hind hR0 m0 B Fu h
    | inr h => exact ctaSafeN_of_clearRun c R hind hR0 m0 B Fu h

/-- `CanonCleanSegs` for a semantics whose every CTA is one `cta`. -/
theorem canonCleanSegs_of_fixed {T D S K F : Type} {X : Oracle T D S K F}
    {sem : S → Kernel → T → KernelSem V} (cta : Cta V)
    (hsem : ∀ pair k t c, (sem pair k t).cta c = cta)
    (h : ∃ (m0 : Nat → V) (B Fu : Nat),
      CleanFacts cta m0 B Fu ∨ SegRun cta m0 B Fu ∨ ClearRun cta m0 B Fu) :
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

/-- **Soundness of `check`, named barriers across a clearing.**  `check_sound_named` with
`CanonCleanSegs` in place of `CanonCleanN`. -/
theorem check_sound_named_segs (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithful X sem) (hclean : CanonCleanSegs V X sem)
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
  match check_safe_named_segs sem hwant hfaith hclean cert refPtx optPtx h,
    check_equiv cc I hI hconst cert refPtx optPtx h with
  | ⟨pair, hp, hsafe⟩, ⟨pair', pr, hp', hr, hequiv⟩ =>
    have e : some pair' = some pair := Eq.trans (Eq.symm hp') hp
    cases e
    exact ⟨_, pr, hp', hr, hsafe, hequiv⟩

end Soundness

/-! ### Not vacuous: `segAct` as a program, its run split at the clearing

`segProg` (four threads): thread 0 `st [0]; bar.sync 1, 2; st [1]; bar.sync 0, 4`; thread 1
`bar.sync 1, 2; ld [0]; bar.sync 0, 4`; thread 2 `bar.sync 0, 4; ld [1]; st [2]; bar.sync 1, 2`;
thread 3 `bar.sync 0, 4; bar.sync 1, 2; ld [2]`.  Id 1 joins {0, 1} before the whole-CTA
barrier 0 and {2, 3} after it (`OnceCheck.lean`'s `segAct` with memory accesses): the three
conflicting pairs are ordered inside the segment up to the cut (`st [0]`/`ld [0]`), across the
cut (`st [1]`/`ld [1]`) and inside the segment after it (`st [2]`/`ld [2]`). -/

section SegExample

open Sem (Act)
open Members (Ev evOf soloEv Mem appE nEv pendI restr preF shiftA segM segS1 segS2)

def spT0 : Nat → Act Nat
  | 0 => Act.write 0 5 1
  | 1 => Act.arrive 1 2 true 2
  | 2 => Act.write 1 5 3
  | 3 => Act.arrive 0 4 true 4
  | _ => Act.exit

def spT1 : Nat → Act Nat
  | 0 => Act.arrive 1 2 true 1
  | 1 => Act.read 0 0 2
  | 2 => Act.arrive 0 4 true 3
  | _ => Act.exit

def spT2 : Nat → Act Nat
  | 0 => Act.arrive 0 4 true 1
  | 1 => Act.read 1 0 2
  | 2 => Act.write 2 7 3
  | 3 => Act.arrive 1 2 true 4
  | _ => Act.exit

def spT3 : Nat → Act Nat
  | 0 => Act.arrive 0 4 true 1
  | 1 => Act.arrive 1 2 true 2
  | 2 => Act.read 2 0 3
  | _ => Act.exit

def segProg : Sem.Prog Nat := fun i pc _ =>
  match i with
  | 0 => spT0 pc
  | 1 => spT1 pc
  | 2 => spT2 pc
  | _ => spT3 pc

/-- The run up to and including the completion of the whole-CTA instance (latest first). -/
def spH1 : List (Race.EventN Nat) :=
  [Race.EventN.complete 0 4, Race.EventN.bar 1 0 true, Race.EventN.act 1 (Act.read 0 0 2),
   Race.EventN.bar 0 0 true, Race.EventN.act 0 (Act.write 1 5 3), Race.EventN.complete 1 2,
   Race.EventN.bar 3 0 true, Race.EventN.bar 2 0 true, Race.EventN.bar 1 1 true,
   Race.EventN.bar 0 1 true, Race.EventN.act 0 (Act.write 0 5 1)]

/-- The run after the clearing. -/
def spH2 : List (Race.EventN Nat) :=
  [Race.EventN.act 3 (Act.read 2 0 3), Race.EventN.complete 1 2, Race.EventN.bar 3 1 true,
   Race.EventN.bar 2 1 true, Race.EventN.act 2 (Act.write 2 7 3), Race.EventN.act 2 (Act.read 1 0 2)]

/-- The cut: each thread's arrival at barrier 0. -/
def spC : Nat → Nat
  | 0 => 3
  | 1 => 2
  | _ => 0

set_option maxHeartbeats 2000000 in
theorem sp_split :
    Race.canonRunN segProg (fun _ _ => 0) (fun _ => 0) 4 2 8 = appE spH2 spH1 := rfl

set_option maxHeartbeats 2000000 in
theorem sp_finished : Race.FinishedN segProg (fun _ _ => 0) (fun _ => 0) 4 2 8 = true := rfl

set_option maxHeartbeats 2000000 in
theorem sp_check :
    Race.checkN Race.noSameN 4 (Race.canonRunN segProg (fun _ _ => 0) (fun _ => 0) 4 2 8) = false :=
  rfl

theorem arrive_inj {b n p b' n' p' : Nat} {w w' : Bool}
    (h : (Act.arrive b n w p : Act Nat) = Act.arrive b' n' w' p') : b = b' ∧ n = n' ∧ w = w' := by
  injection h with e1 e2 e3 e4
  exact ⟨e1, e2, e3⟩

theorem segM_zero : segM 0 = 4 := rfl
theorem segM_one : segM 1 = 2 := rfl

/-- Every arrival of the program waits and has its id's count. -/
theorem sp_arr : ∀ {t pc : Nat} {regs : Nat → Nat} {b n : Nat} {w : Bool} {p : Nat},
    segProg t pc regs = Act.arrive b n w p → n = segM b ∧ w = true
  | 0, 0, _, _, _, _, _, h => Act.noConfusion h
  | 0, 1, _, _, _, _, _, h => match arrive_inj h with
    | ⟨e1, e2, e3⟩ => by rw [← e1, ← e2, ← e3]; exact ⟨rfl, rfl⟩
  | 0, 2, _, _, _, _, _, h => Act.noConfusion h
  | 0, 3, _, _, _, _, _, h => match arrive_inj h with
    | ⟨e1, e2, e3⟩ => by rw [← e1, ← e2, ← e3]; exact ⟨rfl, rfl⟩
  | 0, _ + 4, _, _, _, _, _, h => Act.noConfusion h
  | 1, 0, _, _, _, _, _, h => match arrive_inj h with
    | ⟨e1, e2, e3⟩ => by rw [← e1, ← e2, ← e3]; exact ⟨rfl, rfl⟩
  | 1, 1, _, _, _, _, _, h => Act.noConfusion h
  | 1, 2, _, _, _, _, _, h => match arrive_inj h with
    | ⟨e1, e2, e3⟩ => by rw [← e1, ← e2, ← e3]; exact ⟨rfl, rfl⟩
  | 1, _ + 3, _, _, _, _, _, h => Act.noConfusion h
  | 2, 0, _, _, _, _, _, h => match arrive_inj h with
    | ⟨e1, e2, e3⟩ => by rw [← e1, ← e2, ← e3]; exact ⟨rfl, rfl⟩
  | 2, 1, _, _, _, _, _, h => Act.noConfusion h
  | 2, 2, _, _, _, _, _, h => Act.noConfusion h
  | 2, 3, _, _, _, _, _, h => match arrive_inj h with
    | ⟨e1, e2, e3⟩ => by rw [← e1, ← e2, ← e3]; exact ⟨rfl, rfl⟩
  | 2, _ + 4, _, _, _, _, _, h => Act.noConfusion h
  | _ + 3, 0, _, _, _, _, _, h => match arrive_inj h with
    | ⟨e1, e2, e3⟩ => by rw [← e1, ← e2, ← e3]; exact ⟨rfl, rfl⟩
  | _ + 3, 1, _, _, _, _, _, h => match arrive_inj h with
    | ⟨e1, e2, e3⟩ => by rw [← e1, ← e2, ← e3]; exact ⟨rfl, rfl⟩
  | _ + 3, 2, _, _, _, _, _, h => Act.noConfusion h
  | _ + 3, _ + 3, _, _, _, _, _, h => Act.noConfusion h

theorem evOf_arr_inv {A : Act Nat} {b : Nat} {w : Bool} (h : evOf A = Ev.arr b w) :
    ∃ n p, A = Act.arrive b n w p := by
  cases A with
  | arrive b' n w' p =>
    have h' : Ev.arr b' w' = Ev.arr b w := h
    injection h' with e1 e2
    rw [e1, e2]; exact ⟨n, p, rfl⟩
  | compute pc g => exact Ev.noConfusion h
  | read a r pc => exact Ev.noConfusion h
  | write a v pc => exact Ev.noConfusion h
  | atomAdd a v pc => exact Ev.noConfusion h
  | exit => exact Ev.noConfusion h

theorem sp_soloArr {t i b : Nat} {w : Bool}
    (h : Race.soloEvB segProg (fun _ _ => 0) (fun _ => 0) 4 t i = Ev.arr b w) :
    t < 4 ∧ w = true := by
  have ht := Race.lt_of_soloEvB_arr h
  rw [Race.soloEvB_lt ht] at h
  match evOf_arr_inv h with
  | ⟨n, p, e⟩ => exact ⟨ht, (sp_arr e).2⟩

theorem sp_nosync (t i b : Nat) :
    ¬ Race.soloEvB segProg (fun _ _ => 0) (fun _ => 0) 4 t i = Ev.arr b false := by
  intro h
  exact Bool.noConfusion (sp_soloArr h).2

theorem mem4 : ∀ {t : Nat}, t < 4 → Mem t [0, 1, 2, 3]
  | 0, _ => Or.inl rfl
  | 1, _ => Or.inr (Or.inl rfl)
  | 2, _ => Or.inr (Or.inr (Or.inl rfl))
  | 3, _ => Or.inr (Or.inr (Or.inr (Or.inl rfl)))
  | t + 4, h => False.elim (Nat.ltIrrefl _ (Nat.ltOfLeOfLt (Nat.leAddLeft 4 t) h))

theorem sp_pos : ∀ b, 0 < segM b := by
  intro b
  cases Nat.decEq b 0 with
  | isTrue e =>
    show 0 < (if b = 0 then 4 else 2)
    rw [if_pos' e]; exact Nat.zeroLtSucc _
  | isFalse e =>
    show 0 < (if b = 0 then 4 else 2)
    rw [if_neg' e]; exact Nat.zeroLtSucc _

theorem sp_hcW : ∀ u, Mem u [0, 1, 2, 3] →
    Race.soloEvB segProg (fun _ _ => 0) (fun _ => 0) 4 u (spC u) = Ev.arr 0 true ∧
      Members.ac (Race.soloEvB segProg (fun _ _ => 0) (fun _ => 0) 4) 0 u (spC u) = 0 := by
  intro u hu
  cases hu with
  | inl e => rw [← e]; exact ⟨rfl, rfl⟩
  | inr hu =>
    cases hu with
    | inl e => rw [← e]; exact ⟨rfl, rfl⟩
    | inr hu =>
      cases hu with
      | inl e => rw [← e]; exact ⟨rfl, rfl⟩
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; exact ⟨rfl, rfl⟩
        | inr hu => exact False.elim hu

theorem sp_cut : ∀ u, Mem u [0, 1, 2, 3] → nEv u spH1 = spC u + 1 := by
  intro u hu
  cases hu with
  | inl e => rw [← e]; rfl
  | inr hu =>
    cases hu with
    | inl e => rw [← e]; rfl
    | inr hu =>
      cases hu with
      | inl e => rw [← e]; rfl
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; rfl
        | inr hu => exact False.elim hu

theorem sp_le : ∀ t, nEv t spH1 ≤ spC t + 1
  | 0 => Nat.leRefl _
  | 1 => Nat.leRefl _
  | 2 => Nat.leRefl _
  | 3 => Nat.leRefl _
  | t + 4 => by
    have e : nEv (t + 4) spH1 = 0 := rfl
    rw [e]; exact Nat.zeroLe _

theorem sp_end1 : ∀ b, pendI spH1 b = []
  | 0 => rfl
  | 1 => rfl
  | b + 2 => rfl

theorem sp_end2 : ∀ b, pendI spH2 b = []
  | 0 => rfl
  | 1 => rfl
  | b + 2 => rfl

/-- **The example's run, split at the clearing, meets every hypothesis of
`canonicalN_segs_sound`** (by evaluation, and the per-thread facts of the program). -/
theorem sp_segRunAt : SegRunAt (⟨segProg, 4, fun _ _ => 0⟩ : Cta Nat) (fun _ => 0) 2 8 segM 0 0
    [0, 1, 2, 3] spC segS1 segS2 spH1 spH2 :=
  { hpos := sp_pos
    hco := Race.countsOK_of_cnt (N := 4) (B := 2) (F := 8) (mb := segM)
      (fun t i b n w pc _ h => (sp_arr (t := t)
        (pc := (Sem.solo segProg (fun _ _ => 0) (fun _ => 0) t i).pc)
        (regs := (Sem.solo segProg (fun _ _ => 0) (fun _ => 0) t i).regs) h).1)
    hW := fun t i wt h => (sp_soloArr h).2
    hMW := fun t i wt h => mem4 (sp_soloArr h).1
    hm := rfl
    hS := Members.seg_nodup4
    hcW := sp_hcW
    hB := fun u i b' wt h => mem4 (sp_soloArr h).1
    hfin := sp_finished
    hsplit := sp_split
    hcut := sp_cut
    hn := sp_le
    hd1 := Members.drain2_of _ _ rfl
    hend1 := sp_end1
    hd2 := Members.drain2_of _ _ rfl
    hend2 := sp_end2
    hr := Members.rust3_sync (fun t i b h => sp_nosync t i b h)
    hSz1 := Members.seg_sized1
    hSz2 := Members.seg_sized2
    hc := sp_check }

theorem sp_segRun : SegRun (⟨segProg, 4, fun _ _ => 0⟩ : Cta Nat) (fun _ => 0) 2 8 :=
  ⟨segM, 0, 0, [0, 1, 2, 3], spC, segS1, segS2, spH1, spH2, sp_segRunAt⟩

theorem sp_dataIndep : Sem.DataIndep segProg (fun _ _ _ _ => True) := by
  intro i pc regs regs' _
  exact Race.actRel_self (fun _ _ _ => trivial) regs regs' (segProg i pc regs)

/-- **The example is safe**: from its executor run alone, through the clearing: for every
initial memory, no race, barriers fit, confluence, no stuck state but final ones. -/
theorem sp_safe : CtaSafeN (⟨segProg, 4, fun _ _ => 0⟩ : Cta Nat) :=
  ctaSafeN_of_segRun _ (fun _ _ _ _ => True) sp_dataIndep (fun _ => trivial) (fun _ => 0) 2 8
    sp_segRun

/-- **`CanonCleanN`'s check (2) with one member set per id fails on this run**: no `S` has
`Drain2 S` over the whole run (id 1 drains {0, 1}, then {2, 3}). -/
theorem sp_not_drain (S : Nat → List Nat) :
    ¬ Members.Drain2 S (Race.canonRunN segProg (fun _ _ => 0) (fun _ => 0) 4 2 8) := by
  intro hd
  rw [sp_split] at hd
  -- the second instance of id 1 (after the clearing) drains thread 2 once
  have h2 := hd.2 2
  -- the first instance of id 1 (before it) drains thread 2 not at all
  have h1 := hd.1.1.2 2
  cases hm : Members.memB 2 (S 1) with
  | true =>
    rw [hm] at h1
    exact Nat.noConfusion h1
  | false =>
    rw [hm] at h2
    exact Nat.noConfusion h2

/-- `spH1` ends with the clearing completion. -/
def spH1t : List (Race.EventN Nat) :=
  [Race.EventN.bar 1 0 true, Race.EventN.act 1 (Act.read 0 0 2),
   Race.EventN.bar 0 0 true, Race.EventN.act 0 (Act.write 1 5 3), Race.EventN.complete 1 2,
   Race.EventN.bar 3 0 true, Race.EventN.bar 2 0 true, Race.EventN.bar 1 1 true,
   Race.EventN.bar 0 1 true, Race.EventN.act 0 (Act.write 0 5 1)]

theorem spH1_eq : spH1 = Race.EventN.complete 0 4 :: spH1t := rfl

theorem sp_members : segS1 0 = [0, 1, 2, 3] := rfl

/-- **`canonicalN_clear_sound` applies to the example** (the cut, members and instance number
read off the run): for every initial memory, no race, barriers fit, confluence, no stuck
state but final ones. -/
theorem sp_clear_sound (m1 : Nat → Nat) :
    Sem.RaceFree segProg 4 (Sem.init (fun _ _ => 0) m1) ∧
    Sem.BarriersFit segProg 4 (Sem.init (fun _ _ => 0) m1) ∧
    (∀ t1 t2, Sem.Reach segProg 4 (Sem.init (fun _ _ => 0) m1) t1 →
      Sem.Reach segProg 4 (Sem.init (fun _ _ => 0) m1) t2 →
      Sem.Final 4 t1 → Sem.Final 4 t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach segProg 4 (Sem.init (fun _ _ => 0) m1) r →
      (∀ v, Sem.Step segProg 4 r v → False) → Sem.Final 4 r) := by
  have hsplit : Race.canonRunN segProg (fun _ _ => 0) (fun _ => 0) 4 2 8 =
      appE spH2 (Race.EventN.complete 0 4 :: spH1t) := by rw [← spH1_eq]; exact sp_split
  have hd1 : Members.Drain2 segS1 (Race.EventN.complete 0 4 :: spH1t) := by
    rw [← spH1_eq]; exact Members.drain2_of _ _ rfl
  have hend1 : ∀ b, pendI (Race.EventN.complete 0 4 :: spH1t) b = [] := by
    rw [← spH1_eq]; exact sp_end1
  have hB : ∀ u i b' wt, Race.soloEvB segProg (fun _ _ => 0) (fun _ => 0) 4 u i = Ev.arr b' wt →
      Mem u (segS1 0) := by
    intro u i b' wt h
    rw [sp_members]
    exact mem4 (sp_soloArr h).1
  exact Members.canonicalN_clear_sound segProg 4 2 8 (fun _ _ => 0) (fun _ => 0) m1
    (fun _ _ _ _ => True) sp_dataIndep (fun _ => trivial) segM sp_pos
    (fun t i wt h => (sp_soloArr h).2) hB sp_finished hsplit hd1 hend1
    (Members.drain2_of segS2 spH2 rfl) sp_end2 (Members.rust3_sync (fun t i b h => sp_nosync t i b h))
    Members.seg_sized1 Members.seg_sized2
    (Race.countsOK_of_cnt (N := 4) (B := 2) (F := 8) (mb := segM)
      (fun t i b n w pc _ h => (sp_arr (t := t)
        (pc := (Sem.solo segProg (fun _ _ => 0) (fun _ => 0) t i).pc)
        (regs := (Sem.solo segProg (fun _ _ => 0) (fun _ => 0) t i).regs) h).1)) sp_check

/-- The example's run as a `ClearRun` (the cut read off the run). -/
theorem sp_clearRun : ClearRun (⟨segProg, 4, fun _ _ => 0⟩ : Cta Nat) (fun _ => 0) 2 8 :=
  ⟨segM, 0, 4, segS1, segS2, spH1t, spH2,
    { hpos := sp_pos
      hW := fun t i wt h => (sp_soloArr h).2
      hB := fun u i b' wt h => by rw [sp_members]; exact mem4 (sp_soloArr h).1
      hfin := sp_finished
      hsplit := by rw [← spH1_eq]; exact sp_split
      hd1 := by rw [← spH1_eq]; exact Members.drain2_of segS1 spH1 rfl
      hend1 := by rw [← spH1_eq]; exact sp_end1
      hd2 := Members.drain2_of segS2 spH2 rfl
      hend2 := sp_end2
      hr := Members.rust3_sync (fun t i b h => sp_nosync t i b h)
      hSz1 := Members.seg_sized1
      hSz2 := Members.seg_sized2
      hco := Race.countsOK_of_cnt (N := 4) (B := 2) (F := 8) (mb := segM)
        (fun t i b n w pc _ h => (sp_arr (t := t)
          (pc := (Sem.solo segProg (fun _ _ => 0) (fun _ => 0) t i).pc)
          (regs := (Sem.solo segProg (fun _ _ => 0) (fun _ => 0) t i).regs) h).1)
      hc := sp_check }⟩

end SegExample

/-! ### Not vacuous at the checker: the example certificate with `segProg` -/

section ExampleCheck

open Examples

/-- The semantics: every kernel is one CTA of `segProg`, four threads, zero launch registers. -/
def exSemS : Unit → Kernel → Nat → KernelSem Nat :=
  fun _ _ _ => ⟨1, fun _ => ⟨segProg, 4, fun _ _ => 0⟩⟩

theorem exS_ctasFaithful : CtasFaithful exOracle exSemS := by
  intro _ _ _ wr wo pr k sr h hs
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  rw [ex_side hs]
  intro _
  refine ⟨rfl, ?_⟩
  intro c _
  exact ⟨fun _ _ _ _ => True, sp_dataIndep, fun _ => True.intro⟩

/-- The example oracle's runs meet `CanonCleanSegs` for `exSemS` (through the clearing, the cut
read off the run, `sp_clearRun`; `sp_segRun` would do too); they do not meet `CanonCleanN`'s check (2) with one member set (`sp_not_drain`). -/
theorem exS_canonCleanSegs : CanonCleanSegs Nat exOracle exSemS :=
  canonCleanSegs_of_fixed ⟨segProg, 4, fun _ _ => 0⟩ (fun _ _ _ _ => rfl)
    ⟨fun _ => 0, 2, 8, Or.inr (Or.inr sp_clearRun)⟩

/-- `check_safe_named_segs` applied to the accepted example certificate: the reference kernel,
`segProg` (id 1 joining other threads after the clearing), is `KernelSafeN`. -/
theorem exS_safe : KernelSafeN (exSemS () Kernel.reference 1) :=
  match check_safe_named_segs (ops := intFieldOps) exSemS ex_runsWanted exS_ctasFaithful
      exS_canonCleanSegs exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end ExampleCheck

end Kcert
