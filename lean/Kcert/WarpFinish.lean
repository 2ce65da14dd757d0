import Kcert.CheckWarp
import Kcert.CheckWarpLift

/-!
# No stuck schedule with warp collectives, given a finishing execution

`CheckWarp.lean`'s `CtaSafeW` has a CONDITIONAL no-stuck part ("if one execution finishes, none
gets stuck", the form of `Warp.wno_stuck`).  Here:

* `CtaSafeW'`, `KernelSafeW'`: the UNCONDITIONAL form (every reachable state where no thread can
  step has every thread exited).
* `WFinishes c`: from every launch memory some `WSem` execution of `c` reaches a state with
  every thread exited.
* `ctaSafeW'_of_fin`: `CtaSafeW c` and `WFinishes c` give `CtaSafeW' c` (by `wno_stuck`'s
  conditional part, fed with the finishing execution).
* `FinishesW X wsem`: every CTA of every side that `runPair` returns complete with no finding
  has a finishing `WSem` execution.  This is a HYPOTHESIS here: that the executor's finished run
  `canonRunW` (checked by `WRunClean`) replays as such an execution is NOT proved.
* `check_safe_warp'`: `check_safe_warp` with `KernelSafeW'` under `FinishesW` in addition.
* Restricted shape, programs without collectives (`liftW`): `unlift_stepN`, `unlift_reach`,
  `ctaSafeW'_of_liftW` (`CtaSafeW` of the lift and `Sem`'s unconditional no-stuck give
  `CtaSafeW'`), `ctaSafeW'_of_liftW_N` (from `CheckNamed.CtaSafeN`).
* Not vacuous: `Ex.progS` (the `bar.warp.sync` example) finishes from every launch memory, by a
  schedule of eight steps checked by evaluation (`exS_finishes`); so `exW_safe'`: the example
  certificate's reference kernel is `KernelSafeW'` through `check_safe_warp'`.
-/

namespace Kcert

open Sem
open Warp
open WarpRace

section Defs

variable {T D S K F V : Type} [AccAdd V]

/-- `CtaSafeW` with the no-stuck part unconditional: every reachable state where no thread can
step has every thread exited. -/
def CtaSafeW' (c : WCta V) : Prop :=
  ∀ m1 : Nat → V,
    WRaceFree c.memb c.prog c.N (winit c.regs0 m1) ∧
    WBarriersFit c.memb c.prog c.N (winit c.regs0 m1) ∧
    CollOwnR c.memb c.prog c.N (winit c.regs0 m1) ∧
    (∀ t1 t2, WReach c.memb c.prog c.N (winit c.regs0 m1) t1 →
      WReach c.memb c.prog c.N (winit c.regs0 m1) t2 →
      WFinal c.N t1 → WFinal c.N t2 → WSame t1 t2) ∧
    (∀ t2, WReach c.memb c.prog c.N (winit c.regs0 m1) t2 →
      (∀ v, WStep c.memb c.prog c.N t2 v → False) → WFinal c.N t2)

def KernelSafeW' (ks : WKernelSem V) : Prop := ∀ c, c < ks.ctas → CtaSafeW' (ks.cta c)

/-- From every launch memory, some `WSem` execution of the CTA finishes. -/
def WFinishes (c : WCta V) : Prop :=
  ∀ m1 : Nat → V, ∃ t, WReach c.memb c.prog c.N (winit c.regs0 m1) t ∧ WFinal c.N t

/-- Every CTA of every side `runPair` returns complete and without findings has a finishing
`WSem` execution (a hypothesis: the replay of `canonRunW` is not proved). -/
def FinishesW (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (wsem : S → Kernel → T → WKernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      WFinishes ((wsem pair k (pick r o k)).cta c)

end Defs

section Cta

variable {V : Type} [AccAdd V]

/-- **Unconditional no stuck from a finishing execution.** -/
theorem ctaSafeW'_of_fin (c : WCta V) (h : CtaSafeW c) (hf : WFinishes c) : CtaSafeW' c := by
  intro m1
  match h m1, hf m1 with
  | ⟨h1, h2, h3, h4, h5⟩, ⟨t1, ht1, hf1⟩ =>
    exact ⟨h1, h2, h3, h4, fun t2 r2 hs => h5 t1 t2 ht1 hf1 r2 hs⟩

/-- One CTA: `ctaSafeW_of_canonW` with a finishing execution gives `CtaSafeW'`. -/
theorem ctaSafeW'_of_canonW (c : WCta V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : WDataIndep c.sync c.prog R) (hR0 : ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (hB : BaseIds c.prog c.B) (hrun : WRunClean c) (hf : WFinishes c) : CtaSafeW' c :=
  ctaSafeW'_of_fin c (ctaSafeW_of_canonW c R hind hR0 hB hrun) hf

/-- `KernelSafeW` and a finishing execution for every CTA give `KernelSafeW'`. -/
theorem kernelSafeW'_of_fin (ks : WKernelSem V) (h : KernelSafeW ks)
    (hf : ∀ c, c < ks.ctas → WFinishes (ks.cta c)) : KernelSafeW' ks :=
  fun c hc => ctaSafeW'_of_fin (ks.cta c) (h c hc) (hf c hc)

end Cta

section Soundness

variable {T D S K F C V : Type} [DecidableEq D] [DecidableEq K] [AccAdd V]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- **Safety claims with warp collectives, no stuck schedule unconditionally**, under
`RunsWanted`, `CtasFaithfulW`, `CanonCleanW` and the hypothesis `FinishesW` (every CTA the
clean run executed has a finishing `WSem` execution). -/
theorem check_safe_warp' (wsem : S → Kernel → T → WKernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithfulW X wsem) (hclean : CanonCleanW V X wsem)
    (hfin : FinishesW V X wsem)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeW' (wsem pair k (pick refPtx optPtx k)) := by
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
            exact ctaSafeW'_of_canonW _ R hind hR0 hB
              (hclean _ _ _ _ _ _ k sr hr hsr hfind hcomp c hc')
              (hfin _ _ _ _ _ _ k sr hr hsr hfind hcomp c hc')

end Soundness

/-! ### A restricted shape: programs without collectives

For a `Sem` program lifted to `WSem` (`liftW`, no collectives), the unconditional no-stuck
conclusion of `Sem` (as in `CheckNamed.CtaSafeN`, proved from the named-barrier executor's run by
`canonicalN_noStuck`) carries over: nobody ever waits at a collective, so a reachable `WSem`
state without a step is a reachable `Sem` state without a step. -/

section Lift

variable {V : Type} [AccAdd V]

/-- A `WSem` step of a lift from a state where nobody waits is a `Sem` step, nobody waiting
after. -/
theorem unlift_stepN (memb : Nat → Nat → Bool) (prog : Sem.Prog V) (N : Nat) {a b : WState V}
    (hn : ∀ k, a.cw k = none) (h : WStep memb (liftW prog) N a b) :
    Sem.Step prog N a.s b.s ∧ ∀ k, b.cw k = none :=
  match h with
  | ⟨i, hi⟩ =>
    have h2 := (wstepT_base_iff memb (liftW prog) N i a b
      (A := prog i (a.s.th i).pc (a.s.th i).regs) rfl).1 hi
    ⟨⟨i, h2.1⟩, fun k => Eq.trans (h2.2.2 k) (hn k)⟩

/-- Every `WSem` state of a lift reachable from a state where nobody waits is a reachable `Sem`
state where nobody waits. -/
theorem unlift_reach (memb : Nat → Nat → Bool) (prog : Sem.Prog V) (N : Nat) {s t : WState V}
    (h : WReach memb (liftW prog) N s t) :
    (∀ k, s.cw k = none) → Sem.Reach prog N s.s t.s ∧ ∀ k, t.cw k = none := by
  induction h with
  | refl s => intro hn; exact ⟨Sem.Reach.refl _, hn⟩
  | step hst _ ih =>
    intro hn
    have h1 := unlift_stepN memb prog N hn hst
    have h2 := ih h1.2
    exact ⟨Sem.Reach.step h1.1 h2.1, h2.2⟩

/-- **Unconditional no stuck for a lifted program without collectives**: `CtaSafeW` of the lift
and `Sem`'s unconditional no-stuck conclusion for the `Sem` CTA give `CtaSafeW'` of the lift. -/
theorem ctaSafeW'_of_liftW (memb : Nat → Nat → Bool) (sync : Nat → Bool) (B : Nat) (c : Cta V)
    (h : CtaSafeW ⟨memb, sync, liftW c.prog, c.N, c.regs0, B⟩)
    (hns : ∀ m1 r, Sem.Reach c.prog c.N (Sem.init c.regs0 m1) r →
      (∀ v, Sem.Step c.prog c.N r v → False) → Sem.Final c.N r) :
    CtaSafeW' ⟨memb, sync, liftW c.prog, c.N, c.regs0, B⟩ := by
  intro m1
  match h m1 with
  | ⟨h1, h2, h3, h4, _⟩ =>
    refine ⟨h1, h2, h3, h4, ?_⟩
    intro t2 r2 hs
    have hu := unlift_reach memb c.prog c.N r2 (fun _ => rfl)
    exact hns m1 t2.s hu.1 (fun v hv =>
      match lift_step memb c.prog c.N hv with
      | ⟨i, hi⟩ =>
        hs _ ⟨i, wstepT_left memb (liftW c.prog) c.N i
          (show WSame ⟨t2.s, fun _ => none⟩ t2 from ⟨same_refl t2.s, fun k => Eq.symm (hu.2 k)⟩)
          hi⟩)

/-- The same with `CheckNamed.CtaSafeN` of the `Sem` CTA. -/
theorem ctaSafeW'_of_liftW_N (memb : Nat → Nat → Bool) (sync : Nat → Bool) (B : Nat) (c : Cta V)
    (h : CtaSafeW ⟨memb, sync, liftW c.prog, c.N, c.regs0, B⟩) (hN : CtaSafeN c) :
    CtaSafeW' ⟨memb, sync, liftW c.prog, c.N, c.regs0, B⟩ :=
  ctaSafeW'_of_liftW memb sync B c h (fun m1 => (hN m1).2.2.2)

end Lift

/-! ### Not vacuous: the `bar.warp.sync` example finishes from every launch memory -/

section Example

open Examples
open Ex

/-- The eight-step schedule: lane 0 stores, lane 0 arrives (waits), lane 1 computes, lane 1
arrives (completes the instance); then (from the equal state `exM`, to keep evaluation short)
lane 0 computes, lane 0 exits, lane 1 loads, lane 1 exits. -/
def exS1 (m1 : Nat → Nat) : WState Nat := wnext memb2 progS 2 0 (winit regs0 m1)
def exS2 (m1 : Nat → Nat) : WState Nat := wnext memb2 progS 2 0 (exS1 m1)
def exS3 (m1 : Nat → Nat) : WState Nat := wnext memb2 progS 2 1 (exS2 m1)
def exS4 (m1 : Nat → Nat) : WState Nat := wnext memb2 progS 2 1 (exS3 m1)
theorem exS_reach4 (m1 : Nat → Nat) : WReach memb2 progS 2 (winit regs0 m1) (exS4 m1) := by
  refine WReach.step ⟨0, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
  refine WReach.step ⟨0, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
  refine WReach.step ⟨1, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
  exact WReach.step ⟨1, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ (WReach.refl _)
/-- The state after the first four steps, threads written out. -/
def exMth : Nat → TState Nat
  | 0 => ⟨2, fun _ => 0, Status.run⟩
  | 1 => ⟨2, fun _ => 0, Status.run⟩
  | k + 2 => ⟨0, regs0 (k + 2), Status.run⟩
def exM (m1 : Nat → Nat) : WState Nat :=
  ⟨⟨exMth, (exS4 m1).s.mem, (exS4 m1).s.arr⟩, fun _ => none⟩
/-- A state equal to `x` given its threads and waiting records. -/
theorem wsame_of_th {V : Type} (x : WState V) (th : Nat → TState V) (cw : Nat → Option (Wait V))
    (h1 : ∀ k, x.s.th k = th k) (h2 : ∀ k, x.cw k = cw k) :
    WSame x ⟨⟨th, x.s.mem, x.s.arr⟩, cw⟩ :=
  ⟨⟨h1, fun _ => rfl, fun _ => rfl⟩, h2⟩
theorem exM_same (m1 : Nat → Nat) : WSame (exS4 m1) (exM m1) := by
  refine wsame_of_th (exS4 m1) _ _ ?_ ?_
  · intro k
    cases k with
    | zero => rfl
    | succ k => cases k with
      | zero => rfl
      | succ k => rfl
  · intro k
    cases k with
    | zero => rfl
    | succ k => cases k with
      | zero => rfl
      | succ k => rfl
def exT5 (m1 : Nat → Nat) : WState Nat := wnext memb2 progS 2 0 (exM m1)
def exT6 (m1 : Nat → Nat) : WState Nat := wnext memb2 progS 2 0 (exT5 m1)
def exT7 (m1 : Nat → Nat) : WState Nat := wnext memb2 progS 2 1 (exT6 m1)
def exT8 (m1 : Nat → Nat) : WState Nat := wnext memb2 progS 2 1 (exT7 m1)
theorem exT_reach (m1 : Nat → Nat) : WReach memb2 progS 2 (exM m1) (exT8 m1) := by
  refine WReach.step ⟨0, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
  refine WReach.step ⟨0, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
  refine WReach.step ⟨1, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
  exact WReach.step ⟨1, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ (WReach.refl _)
theorem exT_final (m1 : Nat → Nat) : WFinal 2 (exT8 m1) := by
  intro k hk
  cases k with
  | zero => rfl
  | succ k =>
    cases k with
    | zero => rfl
    | succ k => exact False.elim (Nat.notSuccLeZero k (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hk)))
theorem exS_reach (m1 : Nat → Nat) : ∃ t, WReach memb2 progS 2 (winit regs0 m1) t ∧ WFinal 2 t :=
  match wreach_left memb2 progS 2 (wsame_symm (exM_same m1)) (exT_reach m1) with
  | ⟨u, hu, e⟩ =>
    ⟨u, wreach_trans memb2 progS 2 (exS_reach4 m1) hu, fun k hk => by
      rw [Eq.symm (e.1.1 k)]
      exact exT_final m1 k hk⟩

/-- `Ex.progS` finishes from every launch memory. -/
theorem exS_finishes : WFinishes exWCta := exS_reach

theorem exW_finishesW : FinishesW Nat exOracle exSemW := by
  intro _ _ _ _ _ _ _ _ _ _ _ _ _ _
  exact exS_finishes

/-- `check_safe_warp'` applied to the accepted example certificate: the reference kernel, the
`bar.warp.sync` program, is `KernelSafeW'` (no schedule gets stuck, unconditionally). -/
theorem exW_safe' : KernelSafeW' (exSemW () Kernel.reference 1) :=
  match check_safe_warp' (ops := intFieldOps) exSemW ex_runsWanted exW_ctasFaithful
      exW_canonCleanW exW_finishesW exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end Example

end Kcert
