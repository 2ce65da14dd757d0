import Kcert.CheckWarpCounts

/-!
# A program without collectives: `CtaSafeW` of its lift gives `Sem`'s conclusions

For a `Sem` program `prog`, `liftW prog` (`CheckWarpCounts.lean`) is the program with
collectives that has none.  Every `Sem` step is a `WSem` step of the lift with nobody waiting
(`Warp.wstepT_base_iff`), and conversely; so `CtaSafeW` of the lifted CTA gives, for the `Sem`
CTA, race freedom, barrier fit, confluence, and the conditional no-stuck conclusion
(`Warp.wno_stuck`'s form).

* `lift_step`, `lift_reach`, `unlift_step`, `ctaSafe_of_liftW`; example `pcW_sem`.
-/

namespace Kcert

open Sem
open Warp
open WarpRace

section Lift

variable {V : Type} [AccAdd V]

/-- A `Sem` step is a `WSem` step of the lift, nobody waiting before or after. -/
theorem lift_step (memb : Nat → Nat → Bool) (prog : Sem.Prog V) (N : Nat) {s t : Sem.CState V}
    (h : Sem.Step prog N s t) :
    WStep memb (liftW prog) N ⟨s, fun _ => none⟩ ⟨t, fun _ => none⟩ :=
  match h with
  | ⟨i, hi⟩ =>
    ⟨i, (wstepT_base_iff memb (liftW prog) N i ⟨s, fun _ => none⟩ ⟨t, fun _ => none⟩
      (A := prog i (s.th i).pc (s.th i).regs) rfl).2 ⟨hi, rfl, fun _ => rfl⟩⟩

theorem lift_reach (memb : Nat → Nat → Bool) (prog : Sem.Prog V) (N : Nat) {s t : Sem.CState V}
    (h : Sem.Reach prog N s t) :
    WReach memb (liftW prog) N ⟨s, fun _ => none⟩ ⟨t, fun _ => none⟩ := by
  induction h with
  | refl s => exact WReach.refl _
  | step hst _ ih => exact WReach.step (lift_step memb prog N hst) ih

/-- A `WSem` step of the lift from a state where nobody waits is a `Sem` step. -/
theorem unlift_step (memb : Nat → Nat → Bool) (prog : Sem.Prog V) (N : Nat) {r : Sem.CState V}
    {v : WState V} (h : WStep memb (liftW prog) N ⟨r, fun _ => none⟩ v) : Sem.Step prog N r v.s :=
  match h with
  | ⟨i, hi⟩ =>
    ⟨i, ((wstepT_base_iff memb (liftW prog) N i ⟨r, fun _ => none⟩ v
      (A := prog i (r.th i).pc (r.th i).regs) rfl).1 hi).1⟩

/-- **`CtaSafeW` of a lifted program without collectives gives `Sem`'s conclusions** for the
`Sem` CTA: for every initial memory, race freedom, barrier fit, any two final states `Same`,
and, if one execution finishes, no reachable state without a step has a thread not exited. -/
theorem ctaSafe_of_liftW (memb : Nat → Nat → Bool) (sync : Nat → Bool) (B : Nat) (c : Cta V)
    (h : CtaSafeW ⟨memb, sync, liftW c.prog, c.N, c.regs0, B⟩) (m1 : Nat → V) :
    Sem.RaceFree c.prog c.N (Sem.init c.regs0 m1) ∧ Sem.BarriersFit c.prog c.N (Sem.init c.regs0 m1) ∧
    (∀ t1 t2, Sem.Reach c.prog c.N (Sem.init c.regs0 m1) t1 → Sem.Reach c.prog c.N (Sem.init c.regs0 m1) t2 →
      Sem.Final c.N t1 → Sem.Final c.N t2 → Sem.Same t1 t2) ∧
    (∀ t1 r, Sem.Reach c.prog c.N (Sem.init c.regs0 m1) t1 → Sem.Final c.N t1 →
      Sem.Reach c.prog c.N (Sem.init c.regs0 m1) r → (∀ v, Sem.Step c.prog c.N r v → False) →
      Sem.Final c.N r) :=
  match h m1 with
  | ⟨hrf, hfit, _, hconf, hns⟩ =>
    ⟨fun r hr i j hij hi hj hsi hsj =>
        hrf ⟨r, fun _ => none⟩ (lift_reach memb c.prog c.N hr) i j hij hi hj hsi hsj rfl rfl,
     fun r hr i j hij hi hj hsi hsj =>
        hfit ⟨r, fun _ => none⟩ (lift_reach memb c.prog c.N hr) i j hij hi hj hsi hsj rfl rfl,
     fun t1 t2 h1 h2 f1 f2 =>
        (hconf ⟨t1, fun _ => none⟩ ⟨t2, fun _ => none⟩ (lift_reach memb c.prog c.N h1)
          (lift_reach memb c.prog c.N h2) f1 f2).1,
     fun t1 r h1 f1 hr hstuck =>
        hns ⟨t1, fun _ => none⟩ ⟨r, fun _ => none⟩ (lift_reach memb c.prog c.N h1) f1
          (lift_reach memb c.prog c.N hr) (fun v hv => hstuck v.s (unlift_step memb c.prog c.N hv))⟩

/-- Not vacuous: through `check_safe_warp_c` (`exWP_safe_c`) and `ctaSafe_of_liftW`, the
producer/consumer's `Sem` CTA is race free, its barriers fit and it is confluent. -/
theorem pcW_sem (m1 : Nat → Nat) :
    Sem.RaceFree Race.prodCons 2 (Sem.init (fun _ _ => 0) m1) ∧
    Sem.BarriersFit Race.prodCons 2 (Sem.init (fun _ _ => 0) m1) ∧
    (∀ t1 t2, Sem.Reach Race.prodCons 2 (Sem.init (fun _ _ => 0) m1) t1 →
      Sem.Reach Race.prodCons 2 (Sem.init (fun _ _ => 0) m1) t2 →
      Sem.Final 2 t1 → Sem.Final 2 t2 → Sem.Same t1 t2) ∧
    (∀ t1 r, Sem.Reach Race.prodCons 2 (Sem.init (fun _ _ => 0) m1) t1 → Sem.Final 2 t1 →
      Sem.Reach Race.prodCons 2 (Sem.init (fun _ _ => 0) m1) r →
      (∀ v, Sem.Step Race.prodCons 2 r v → False) → Sem.Final 2 r) :=
  ctaSafe_of_liftW pcMemb pcSync 3 ⟨Race.prodCons, 2, fun _ _ => 0⟩
    (exWP_safe_c 0 (Nat.zeroLtSucc 0)) m1

end Lift

end Kcert
