import Kcert.Checker
import Kcert.NamedSound

/-!
# `check::check` is sound with named barriers, partial counts and `bar.arrive`

`Checker.lean`'s `check_safe` / `check_sound` conclude `KernelSafe`, whose `CtaSafe` speaks only
of CTAs whose barriers are all whole-CTA `bar.sync` (`SyncAll c.prog c.N → ...`), from the
hypotheses `RaceCheckComplete` / `DeadlockCheckComplete` on the executor's traces.  Here the
`SyncAll` premise is dropped: `CtaSafeN` is `CtaSafe`'s four conclusions for every CTA (named
barriers `bar.sync b, n` / `bar.arrive b, n` with partial counts), and the executor hypothesis
is `CanonCleanN`, read off the Rust like `Race.CanonClean` (`Schedule.lean`): a run without
findings is, per CTA, the executor's finished named-barrier run `Race.canonRunN` of the CTA's
program with every check of `run_cta` / `resolve_barriers` / `exec/race.rs` passed.  The
composition goes through `Race.canonicalN_check_sound_counts` (`NamedSound.lean`).

* `CtaSafeN`, `KernelSafeN`: what a `Safe` claim means, for every CTA.
* `CtasFaithful`: the part of `ExecFaithful` used here (CTA count, data independence);
  `ctasFaithful_of_execFaithful`.
* `CanonCleanN`: the executor hypothesis.
* `check_safe_named`, `check_sound_named`: the theorems; `check_safe_named_of_execFaithful`.
* `exN_safe`: not vacuous, `Checker.lean`'s example oracle and certificate with the
  producer/consumer `Race.prodCons` (`ScheduleNamed.lean`) as the CTA program of both kernels.
-/

namespace Kcert

open Sem

section Hyps

variable {T D S K F V : Type} [AccAdd V]

/-- What a `Safe` claim means for one CTA, for any barriers (named ids, partial counts,
`bar.arrive`): for every initial shared memory, race freedom, fitting barriers, one final state
for all complete schedules, and no schedule stuck before every thread exited.  `CtaSafe` without
its `SyncAll` premise. -/
def CtaSafeN (c : Cta V) : Prop :=
  ∀ m0 : Nat → V,
    RaceFree c.prog c.N (init c.regs0 m0) ∧ BarriersFit c.prog c.N (init c.regs0 m0) ∧
    (∀ t1 t2, Reach c.prog c.N (init c.regs0 m0) t1 → Reach c.prog c.N (init c.regs0 m0) t2 →
      Final c.N t1 → Final c.N t2 → Same t1 t2) ∧
    (∀ r, Reach c.prog c.N (init c.regs0 m0) r → (∀ v, Sem.Step c.prog c.N r v → False) →
      Final c.N r)

def KernelSafeN (ks : KernelSem V) : Prop := ∀ c, c < ks.ctas → CtaSafeN (ks.cta c)

/-- `CtaSafeN` gives `CtaSafe` (the premise `SyncAll` is not used). -/
theorem ctaSafe_of_ctaSafeN {c : Cta V} (h : CtaSafeN c) : CtaSafe c := fun _ m0 => h m0

theorem kernelSafe_of_kernelSafeN {ks : KernelSem V} (h : KernelSafeN ks) : KernelSafe ks :=
  fun c hc => ctaSafe_of_ctaSafeN (h c hc)

/-- The part of `SideFaithful` used with named barriers: a run that covered the grid has the
semantics' CTA count, and each CTA's program is data independent (`DataIndep`, with a relation
holding of the launch registers). -/
def CtasFaithfulSide (ks : KernelSem V) {F : Type} (sr : SideRun F) : Prop :=
  sr.complete = true →
    sr.ctas = ks.ctas ∧ ∀ c, c < ks.ctas →
      ∃ R, DataIndep (ks.cta c).prog R ∧ ∀ i, R i 0 ((ks.cta c).regs0 i) ((ks.cta c).regs0 i)

/-- Every side `runPair` returns has the CTA count of its kernel's semantics and data
independent CTA programs.  Implied by `ExecFaithful` (`ctasFaithful_of_execFaithful`), which
also asks for the traces, not needed here. -/
def CtasFaithful (X : Oracle T D S K F) (sem : S → Kernel → T → KernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    CtasFaithfulSide (sem pair k (pick r o k)) sr

theorem ctasFaithful_of_execFaithful {X : Oracle T D S K F} {sem : S → Kernel → T → KernelSem V}
    (h : ExecFaithful X sem) : CtasFaithful X sem := by
  intro pair r o wr wo pr k sr hr hs hcomp
  match h pair r o wr wo pr k sr hr hs hcomp with
  | ⟨hctas, hcta⟩ =>
    exact ⟨hctas, fun c hc => (hcta c hc).2.1⟩

/-- **What the executor is assumed to do, with named barriers** (compare `Race.CanonClean`).
For every side `sr` that `runPair` returns with no finding (`SideRun::unsafety` is `None`: no
finding, every CTA executed), every CTA `c` of the run, with `cta` the CTA of the semantics
`sem pair k text`: the executor's run of `cta` is the named-barrier run `Race.canonRunN` over the
solo traces of `cta.prog` from `cta.regs0` and some memory `m0` (Rust `Machine::run_cta`: run
every ready thread, then `resolve_warps`, then `resolve_barriers`, repeat; `B`, `F` are the
model's fuel), and

* `FinishedN`: the loop ended with every thread exited (else `report_stuck` records a
  `Deadlock` finding);
* `Drain2 S`, `Sized mb S`, `0 < mb b`: check (2) of `resolve_barriers`: every instance of id
  `b` joins the same set of threads `S b` (the `members` entry, "joins other threads than its
  first instance (or one thread twice)"), each once, `mb b` of them;
* `CountsOK`: the count check of `resolve_barriers` ("barrier used with different thread
  counts"): every arrival an instance drains has the instance's count;
* `RustCheck3`: check (3) (`completed`, the arrive-only threads' next arrival ordered after a
  waiter's first step past the instance: `exec/race.rs` clocks, `cta.completed`);
* nothing pending at the end: no `pendI` arrival left (the end-of-run finding "bar.arrive on a
  barrier that never completes before every thread exits");
* `checkN noSameN`: the vector-clock race check of `exec/race.rs` on the run reports nothing. -/
def CanonCleanN (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (sem : S → Kernel → T → KernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      ∃ (m0 : Nat → V) (B Fu : Nat) (mb : Nat → Nat) (Sb : Nat → List Nat),
        (∀ b, 0 < mb b) ∧ Members.Sized mb Sb ∧
        Race.FinishedN ((sem pair k (pick r o k)).cta c).prog ((sem pair k (pick r o k)).cta c).regs0
          m0 ((sem pair k (pick r o k)).cta c).N B Fu = true ∧
        Members.Drain2 Sb (Race.canonRunN ((sem pair k (pick r o k)).cta c).prog
          ((sem pair k (pick r o k)).cta c).regs0 m0 ((sem pair k (pick r o k)).cta c).N B Fu) ∧
        (∀ b, Members.pendI (Race.canonRunN ((sem pair k (pick r o k)).cta c).prog
          ((sem pair k (pick r o k)).cta c).regs0 m0 ((sem pair k (pick r o k)).cta c).N B Fu) b
          = []) ∧
        Race.CountsOK ((sem pair k (pick r o k)).cta c).prog ((sem pair k (pick r o k)).cta c).regs0
          m0 (Race.canonRunN ((sem pair k (pick r o k)).cta c).prog
            ((sem pair k (pick r o k)).cta c).regs0 m0 ((sem pair k (pick r o k)).cta c).N B Fu) ∧
        Members.RustCheck3 ((sem pair k (pick r o k)).cta c).N
          (Race.soloEvB ((sem pair k (pick r o k)).cta c).prog ((sem pair k (pick r o k)).cta c).regs0
            m0 ((sem pair k (pick r o k)).cta c).N)
          (Race.canonRunN ((sem pair k (pick r o k)).cta c).prog
            ((sem pair k (pick r o k)).cta c).regs0 m0 ((sem pair k (pick r o k)).cta c).N B Fu) ∧
        Race.checkN Race.noSameN ((sem pair k (pick r o k)).cta c).N
          (Race.canonRunN ((sem pair k (pick r o k)).cta c).prog
            ((sem pair k (pick r o k)).cta c).regs0 m0 ((sem pair k (pick r o k)).cta c).N B Fu)
          = false

end Hyps

/-! ### One CTA -/

section Cta

variable {V : Type} [AccAdd V]

/-- One CTA: a data independent program whose executor run finishes and passes the checks is
`CtaSafeN` (`Race.canonicalN_check_sound_counts`). -/
theorem ctaSafeN_of_canonN (c : Cta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : DataIndep c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (m0 : Nat → V) (B Fu : Nat) (mb : Nat → Nat) (Sb : Nat → List Nat)
    (hpos : ∀ b, 0 < mb b) (hSz : Members.Sized mb Sb)
    (hfin : Race.FinishedN c.prog c.regs0 m0 c.N B Fu = true)
    (hd : Members.Drain2 Sb (Race.canonRunN c.prog c.regs0 m0 c.N B Fu))
    (hend : ∀ b, Members.pendI (Race.canonRunN c.prog c.regs0 m0 c.N B Fu) b = [])
    (hco : Race.CountsOK c.prog c.regs0 m0 (Race.canonRunN c.prog c.regs0 m0 c.N B Fu))
    (hr : Members.RustCheck3 c.N (Race.soloEvB c.prog c.regs0 m0 c.N)
      (Race.canonRunN c.prog c.regs0 m0 c.N B Fu))
    (hc : Race.checkN Race.noSameN c.N (Race.canonRunN c.prog c.regs0 m0 c.N B Fu) = false) :
    CtaSafeN c := fun m1 =>
  Race.canonicalN_check_sound_counts c.prog c.N B Fu c.regs0 m0 m1 R hind hR0 mb Sb hpos hSz
    hfin hd hend hco hr hc

/-- `CanonCleanN` for a semantics whose every CTA is one `cta`: the facts about `cta`'s run. -/
theorem canonCleanN_of_fixed {T D S K F : Type} {X : Oracle T D S K F}
    {sem : S → Kernel → T → KernelSem V} (cta : Cta V)
    (hsem : ∀ pair k t c, (sem pair k t).cta c = cta)
    (h : ∃ (m0 : Nat → V) (B Fu : Nat) (mb : Nat → Nat) (Sb : Nat → List Nat),
        (∀ b, 0 < mb b) ∧ Members.Sized mb Sb ∧
        Race.FinishedN cta.prog cta.regs0 m0 cta.N B Fu = true ∧
        Members.Drain2 Sb (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) ∧
        (∀ b, Members.pendI (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) b = []) ∧
        Race.CountsOK cta.prog cta.regs0 m0 (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) ∧
        Members.RustCheck3 cta.N (Race.soloEvB cta.prog cta.regs0 m0 cta.N)
          (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) ∧
        Race.checkN Race.noSameN cta.N (Race.canonRunN cta.prog cta.regs0 m0 cta.N B Fu) = false) :
    CanonCleanN V X sem := by
  intro pair r o wr wo pr k sr _ _ _ _ c _
  rw [hsem pair k (pick r o k) c]
  exact h

end Cta

/-! ### The checker -/

section Soundness

variable {T D S K F C V α : Type} [DecidableEq D] [DecidableEq K] [AccAdd V] [ExpField α]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- **Safety claims with named barriers.**  Under `RunsWanted`, `CtasFaithful` (implied by
`ExecFaithful`) and `CanonCleanN`, if `check` accepts, every kernel with a `Safe` claim is
`KernelSafeN` in the semantics of its text under the parsed pair spec: every CTA, whatever its
barriers (named ids, partial counts, `bar.arrive`), is race free, its barriers fit, all complete
schedules end in the same state and no schedule gets stuck, for every initial shared memory. -/
theorem check_safe_named (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithful X sem) (hclean : CanonCleanN V X sem)
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
            | ⟨m0, B, Fu, mb, Sb, hpos, hSz, hfin, hd, hend, hco, hr3, hck⟩ =>
              exact ctaSafeN_of_canonN _ R hind hR0 m0 B Fu mb Sb hpos hSz hfin hd hend hco hr3 hck

/-- `check_safe_named` with `Checker.lean`'s `ExecFaithful` in place of `CtasFaithful`. -/
theorem check_safe_named_of_execFaithful (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : ExecFaithful X sem) (hclean : CanonCleanN V X sem)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeN (sem pair k (pick refPtx optPtx k)) :=
  check_safe_named sem hwant (ctasFaithful_of_execFaithful hfaith) hclean cert refPtx optPtx h

/-- **Soundness of `check`, named barriers.**  `check_sound` with `KernelSafeN` (every CTA,
any barriers) in place of `KernelSafe`, under `RunsWanted`, `CtasFaithful` and `CanonCleanN`
in place of `ExecFaithful`, `RaceCheckComplete` and `DeadlockCheckComplete`; the binding and
equivalence parts unchanged. -/
theorem check_sound_named (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithful X sem) (hclean : CanonCleanN V X sem)
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
  match check_safe_named sem hwant hfaith hclean cert refPtx optPtx h,
    check_equiv cc I hI hconst cert refPtx optPtx h with
  | ⟨pair, hp, hsafe⟩, ⟨pair', pr, hp', hr, hequiv⟩ =>
    have e : some pair' = some pair := Eq.trans (Eq.symm hp') hp
    cases e
    exact ⟨_, pr, hp', hr, hsafe, hequiv⟩

end Soundness

/-! ### Not vacuous: the example certificate with the producer/consumer -/

section Example

open Examples

/-- The semantics: every kernel is one CTA of the producer/consumer `Race.prodCons` (thread 0:
`st [0]; bar.arrive 1, 2; bar.sync 2, 2; ld [1]; exit`, thread 1: `bar.sync 1, 2; ld [0];
st [1]; bar.arrive 2, 2; exit`), two threads, zero launch registers. -/
def exSemN : Unit → Kernel → Nat → KernelSem Nat :=
  fun _ _ _ => ⟨1, fun _ => ⟨Race.prodCons, 2, fun _ _ => 0⟩⟩

theorem exN_ctasFaithful : CtasFaithful exOracle exSemN := by
  intro _ _ _ wr wo pr k sr h hs
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  rw [ex_side hs]
  intro _
  refine ⟨rfl, ?_⟩
  intro c _
  exact ⟨fun _ _ _ _ => True, Race.prodCons_dataIndep, fun _ => True.intro⟩

/-- The example oracle's runs meet `CanonCleanN` for `exSemN`: every hypothesis is the evaluated
fact about the producer/consumer's run (`ScheduleNamed.lean`, `NamedSound.lean`). -/
theorem exN_canonCleanN : CanonCleanN Nat exOracle exSemN :=
  canonCleanN_of_fixed ⟨Race.prodCons, 2, fun _ _ => 0⟩ (fun _ _ _ _ => rfl)
    ⟨fun _ => 0, 3, 8, fun _ => 2, fun _ => [0, 1], fun _ => Nat.zeroLtSucc 1,
      Members.pc_sized, Race.prodCons_finished, Race.prodCons_drain, Race.prodCons_end,
      Race.prodCons_countsOK, Race.prodCons_rust3, Race.prodCons_check⟩

/-- `check_safe_named` applied to the accepted example certificate: the reference kernel, the
producer/consumer with named barriers and `bar.arrive`, is `KernelSafeN`. -/
theorem exN_safe : KernelSafeN (exSemN () Kernel.reference 1) :=
  match check_safe_named (ops := intFieldOps) exSemN ex_runsWanted exN_ctasFaithful
      exN_canonCleanN exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end Example

end Kcert
