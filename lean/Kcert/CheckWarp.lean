import Kcert.CheckNamed
import Kcert.WarpRaceExec2

/-!
# `check::check` is sound with warp collectives

`CheckNamed.lean`'s `check_safe_named` / `check_sound_named` conclude `KernelSafeN` for the `Sem`
semantics of each CTA, which has no warp collectives.  Here each CTA is given a warp semantics
(`Warp.WProg` with the lanes `memb` of each collective instance, `sync` saying which keys are
`bar.warp.sync`, and the base `B` of the ids the executor gives the collectives' instances),
as a parameter `wsem` of the theorem, as `CheckNamed.lean` did with `sem`.  The executor
hypothesis `CanonCleanW` is read off the Rust like `CanonCleanN`: a run without findings is, per
CTA, the executor's finished run with collectives `WarpRace.canonRunW` (`run_cta` with
`resolve_warps`) whose checks at the program's own barrier ids pass and whose race check is
silent; the composition goes through `WarpRace.warp_run_sound_lo2`.

* `WCta`, `WKernelSem`: the warp semantics of a CTA and of a kernel.
* `CtaSafeW`, `KernelSafeW`: what a `Safe` claim means, for every CTA, with collectives.
* `CtasFaithfulW`: CTA count, `WDataIndep`, `BaseIds`.
* `CanonCleanW`: the executor hypothesis.
* `ctaSafeW_of_canonW`, `canonCleanW_of_fixed`, `check_safe_warp`, `check_sound_warp`.
* `exW_safe`: not vacuous, `Checker.lean`'s example oracle and certificate with the
  `bar.warp.sync` program `WarpRace.Ex.progS` as the CTA of both kernels.
-/

namespace Kcert

open Sem
open Warp
open WarpRace

section Defs

/-- The warp semantics of one CTA: its program with collectives `prog`, the lanes `memb g k` of
each collective instance `g`, `sync g` (the instance is a `bar.warp.sync`, which orders memory;
any other collective changes registers only), `N` threads, the launch registers `regs0`, and
`B`: the program's own barrier ids are below `B`, the executor's instance `g` is id `B + g` in
the race check's history. -/
structure WCta (V : Type) where
  memb : Nat → Nat → Bool
  sync : Nat → Bool
  prog : WProg V
  N : Nat
  regs0 : Nat → Nat → V
  B : Nat

/-- The warp semantics of a kernel: the number of CTAs and each CTA. -/
structure WKernelSem (V : Type) where
  ctas : Nat
  cta : Nat → WCta V

variable {T D S K F V : Type} [AccAdd V]

/-- What a `Safe` claim means for one CTA with warp collectives: for every initial shared
memory, `WSem` has no race (`WRaceFree`), its barriers fit (`WBarriersFit`), every lane arriving
at a collective is one of its lanes (`CollOwnR`), any two final states of complete executions are
equal (`WSame`), and, if one execution finishes, no reachable state where no thread can step has
a thread not exited (no execution gets stuck). -/
def CtaSafeW (c : WCta V) : Prop :=
  ∀ m1 : Nat → V,
    WRaceFree c.memb c.prog c.N (winit c.regs0 m1) ∧
    WBarriersFit c.memb c.prog c.N (winit c.regs0 m1) ∧
    CollOwnR c.memb c.prog c.N (winit c.regs0 m1) ∧
    (∀ t1 t2, WReach c.memb c.prog c.N (winit c.regs0 m1) t1 →
      WReach c.memb c.prog c.N (winit c.regs0 m1) t2 →
      WFinal c.N t1 → WFinal c.N t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach c.memb c.prog c.N (winit c.regs0 m1) t1 → WFinal c.N t1 →
      WReach c.memb c.prog c.N (winit c.regs0 m1) t2 →
      (∀ v, WStep c.memb c.prog c.N t2 v → False) → WFinal c.N t2)

def KernelSafeW (ks : WKernelSem V) : Prop := ∀ c, c < ks.ctas → CtaSafeW (ks.cta c)

/-- The part of `SideFaithful` used with collectives: a run that covered the grid has the warp
semantics' CTA count, and each CTA's program is data independent with collectives
(`WDataIndep`, with a relation holding of the launch registers) and uses barrier ids below its
`B` (`BaseIds`). -/
def CtasFaithfulSideW (ks : WKernelSem V) {F : Type} (sr : SideRun F) : Prop :=
  sr.complete = true →
    sr.ctas = ks.ctas ∧ ∀ c, c < ks.ctas →
      ∃ R, WDataIndep (ks.cta c).sync (ks.cta c).prog R ∧
        (∀ i, R i 0 ((ks.cta c).regs0 i) ((ks.cta c).regs0 i)) ∧
        BaseIds (ks.cta c).prog (ks.cta c).B

/-- Every side `runPair` returns has the CTA count of its kernel's warp semantics, and data
independent CTA programs with their barrier ids below `B`. -/
def CtasFaithfulW (X : Oracle T D S K F) (wsem : S → Kernel → T → WKernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    CtasFaithfulSideW (wsem pair k (pick r o k)) sr

/-- What the executor's run of one warp CTA `c` passes (the hypotheses of
`WarpRace.warp_run_sound_lo2` about the run), for some memory `m0`, number `G` of collective
keys, number `Bb ≤ B` of program barrier ids, fuel `Fu`, counts `mb` and member sets `Sb`:

* `0 < mb b`, `Sized mb Sb`; at the program's ids `b < B` every arrival of the view's solo
  traces has count `mb b` (the count check of `resolve_barriers`, "barrier used with different
  thread counts"); at the ids `B + g` of instances with lanes, `mb` is the number of lanes and
  `Sb` the lanes (what `resolve_warps` / `all_here` drain, no check of the Rust consulted);
* `FinishedW`: the run ended with every lane at its exit (else `report_stuck` records a
  `Deadlock`, or a `CollectiveMismatch` for an instance that never completes);
* `DrainLo`: check (2) of `resolve_barriers` at the program's ids; nothing pending at the end at
  the program's ids; `RustCheck3Below`: check (3) at the program's ids;
* `checkN noSameN`: the vector-clock race check of `exec/race.rs` on the run (only
  `bar.warp.sync` completions add clock edges) reports nothing. -/
def WRunClean (c : WCta V) : Prop :=
  ∃ (m0 : Nat → V) (G Bb Fu : Nat) (mb : Nat → Nat) (Sb : Nat → List Nat),
    Bb ≤ c.B ∧ (∀ b, 0 < mb b) ∧
    (∀ t i b n w pc, t < c.N → b < c.B →
      soloAct (view c.memb c.sync c.N c.B c.prog) c.regs0 m0 t i = Act.arrive b n w pc →
        n = mb b) ∧
    (∀ g, 0 < nLanes c.memb c.N g → mb (c.B + g) = nLanes c.memb c.N g) ∧
    Members.Sized mb Sb ∧
    (∀ g u, 0 < nLanes c.memb c.N g →
      Members.memB u (Sb (c.B + g)) = (c.memb g u && decide (u < c.N))) ∧
    FinishedW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0 = true ∧
    Race.DrainLo c.B Sb (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0) ∧
    (∀ b, b < c.B →
      Members.pendI (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0) b = []) ∧
    RustCheck3Below c.N c.B (Race.soloEvB (view c.memb c.sync c.N c.B c.prog) c.regs0 m0 c.N)
      (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0) ∧
    Race.checkN Race.noSameN c.N (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0)
      = false

/-- **What the executor is assumed to do, with warp collectives** (compare `CanonCleanN`).  For
every side `sr` that `runPair` returns with no finding (no finding, every CTA executed), every
CTA `c` of the run: the executor's run of the CTA of `wsem pair k text` is `canonRunW` (Rust
`Machine::run_cta`: run every ready thread, `resolve_warps`, `resolve_barriers`, repeat) over the
solo traces of its view from its launch registers and some memory, and it passes the checks of
`WRunClean`. -/
def CanonCleanW (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (wsem : S → Kernel → T → WKernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      WRunClean ((wsem pair k (pick r o k)).cta c)

end Defs

/-! ### One CTA -/

section Cta

variable {V : Type} [AccAdd V]

/-- One CTA: a data independent program with collectives, barrier ids below `B`, whose
executor run with collectives finishes and passes the checks, is `CtaSafeW`
(`WarpRace.warp_run_sound_lo2`). -/
theorem ctaSafeW_of_canonW (c : WCta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : WDataIndep c.sync c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (hB : BaseIds c.prog c.B) (hrun : WRunClean c) : CtaSafeW c := by
  intro m1
  match hrun with
  | ⟨m0, G, Bb, Fu, mb, Sb, hBb, hpos, hcntLo, hmbW, hSz, hS, hfin, hd, hend, hr, hc⟩ =>
    exact warp_run_sound_lo2 c.memb c.sync R c.N c.B G Bb Fu c.prog c.regs0 m0 m1 hind hR0 hB
      hBb mb Sb hpos hcntLo hmbW hSz hS hfin hd hend hr hc

/-- `CanonCleanW` for a warp semantics whose every CTA is one `cta`: `WRunClean cta`. -/
theorem canonCleanW_of_fixed {T D S K F : Type} {X : Oracle T D S K F}
    {wsem : S → Kernel → T → WKernelSem V} (cta : WCta V)
    (hsem : ∀ pair k t c, (wsem pair k t).cta c = cta) (h : WRunClean cta) :
    CanonCleanW V X wsem := by
  intro pair r o wr wo pr k sr _ _ _ _ c _
  rw [hsem pair k (pick r o k) c]
  exact h

end Cta

/-! ### The checker -/

section Soundness

variable {T D S K F C V α : Type} [DecidableEq D] [DecidableEq K] [AccAdd V] [ExpField α]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- **Safety claims with warp collectives.**  Under `RunsWanted`, `CtasFaithfulW` and
`CanonCleanW`, if `check` accepts, every kernel with a `Safe` claim is `KernelSafeW` in the warp
semantics of its text under the parsed pair spec: every CTA, with its collectives
(`shfl.sync`, `vote.sync`, `bar.warp.sync`, `mma.sync` as register-only rendezvous, in
`Warp.WSem`), is race free, its barriers fit, its lanes arrive only at their own instances, all
complete executions end in the same state and, if one finishes, none gets stuck, for every
initial shared memory. -/
theorem check_safe_warp (wsem : S → Kernel → T → WKernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithfulW X wsem) (hclean : CanonCleanW V X wsem)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeW (wsem pair k (pick refPtx optPtx k)) := by
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
          | ⟨R, hind, hR0, hB⟩ =>
            have hc' : c < sr.ctas := by rw [hctas]; exact hc
            exact ctaSafeW_of_canonW _ R hind hR0 hB
              (hclean _ _ _ _ _ _ k sr hr hsr hfind hcomp c hc')

/-- **Soundness of `check`, warp collectives.**  `check_sound_named` with `KernelSafeW` (every
CTA, with its collectives) in place of `KernelSafeN`, under `RunsWanted`, `CtasFaithfulW` and
`CanonCleanW`; the binding and equivalence parts unchanged. -/
theorem check_sound_warp (wsem : S → Kernel → T → WKernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithfulW X wsem) (hclean : CanonCleanW V X wsem)
    (cc : FieldCoeffCast ops α) (I : Interp K α) (hI : Rules.FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    X.sha256 refPtx = cert.refPtxSha256 ∧ X.sha256 optPtx = cert.optPtxSha256 ∧
    X.specDigest cert.pairSpec cert.refSpec cert.optSpec = cert.specSha256 ∧
    ∃ pair pr, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      X.runPair pair refPtx optPtx (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims) = some pr ∧
      (∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeW (wsem pair k (pick refPtx optPtx k))) ∧
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
  match check_safe_warp wsem hwant hfaith hclean cert refPtx optPtx h,
    check_equiv cc I hI hconst cert refPtx optPtx h with
  | ⟨pair, hp, hsafe⟩, ⟨pair', pr, hp', hr, hequiv⟩ =>
    have e : some pair' = some pair := Eq.trans (Eq.symm hp') hp
    cases e
    exact ⟨_, pr, hp', hr, hsafe, hequiv⟩

end Soundness

/-! ### Not vacuous: the example certificate with the `bar.warp.sync` program -/

section Example

open Examples

/-- The warp CTA: `WarpRace.Ex.progS` (lane 0 `st.shared [0]`, both lanes at `bar.warp.sync`
(key 0, lanes 0 and 1), lane 1 `ld.shared [0]`), two lanes, no program barrier (`B = 0`). -/
def exWCta : WCta Nat := ⟨Ex.memb2, Ex.syncAll, Ex.progS, 2, Ex.regs0, 0⟩

/-- The warp semantics: every kernel is one CTA `exWCta`. -/
def exSemW : Unit → Kernel → Nat → WKernelSem Nat :=
  fun _ _ _ => ⟨1, fun _ => exWCta⟩

theorem exW_ctasFaithful : CtasFaithfulW exOracle exSemW := by
  intro _ _ _ wr wo pr k sr h hs
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  rw [ex_side hs]
  intro _
  refine ⟨rfl, ?_⟩
  intro c _
  exact ⟨fun _ _ _ _ => True, Ex.ex_indep, fun _ => True.intro, Ex.ex_baseIds⟩

/-- The executor's run with collectives of `exWCta` passes every check, by evaluation
(`WarpRace.ExW`). -/
theorem exW_runClean : WRunClean exWCta :=
  ⟨Ex.m0, 1, 0, 6, fun _ => 2, fun _ => [0, 1], Nat.leRefl 0, fun _ => Nat.zeroLtSucc 1,
    fun _ _ b _ _ _ _ hb _ => False.elim (Nat.notLtZero b hb),
    ExW.exw_mbW, Members.pc_sized, ExW.exw_hS, ExW.exw_accepted.1,
    Race.drainLo_of_drain2 0 _ _ ExW.exw_drain,
    fun b hb => False.elim (Nat.notLtZero b hb),
    fun _ b _ _ hb => False.elim (Nat.notLtZero b hb),
    ExW.exw_accepted.2⟩

/-- The example oracle's runs meet `CanonCleanW` for `exSemW`. -/
theorem exW_canonCleanW : CanonCleanW Nat exOracle exSemW :=
  canonCleanW_of_fixed exWCta (fun _ _ _ _ => rfl) exW_runClean

/-- `check_safe_warp` applied to the accepted example certificate: the reference kernel, the
`bar.warp.sync` program, is `KernelSafeW`. -/
theorem exW_safe : KernelSafeW (exSemW () Kernel.reference 1) :=
  match check_safe_warp (ops := intFieldOps) exSemW ex_runsWanted exW_ctasFaithful
      exW_canonCleanW exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end Example

end Kcert
