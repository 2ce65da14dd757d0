import Kcert.Compat
import Kcert.Semantics
import Kcert.RaceCheck
import Kcert.Clocks
import Kcert.Schedule
import Kcert.Checker

/-!
# Bounds in the semantics

Rust: `checker/src/exec/access.rs` (`Machine::access_general`: an access of `width` bytes at
`offset` of its region is in bounds iff `offset + width <= bytes` of that region, else the
finding `OutOfBounds`; `input_leaf` applies the same test on its shortcut).

The model has one shared memory of one-element cells (`Sem`), so "in bounds" is a predicate
`inb : Nat → Bool` on addresses (for the executor: the CTA's shared window, `cta.shared.bytes`
from the kernel's `.shared` declarations).  An action is in bounds (`Sem.accIn`) when it is not
a memory access, or when its address satisfies `inb`.

* `Sem.BoundsSafe prog N inb s0`: in every state reachable from `s0`, every running thread's
  next action is in bounds: no schedule performs an access outside `inb`.
* `Sem.soloRel_reach`: for a data-independent program (`DataIndep`), every thread of every
  state reachable from the launch `init regs0 m1` is related (`TRel`: same `pc`, related
  registers) to some state of its solo trace from `init regs0 m0`, for ANY two initial memories
  `m0`, `m1`.  No barrier hypothesis: unlike `RaceCheck.inv_reach` this holds for `bar.arrive`
  and counted barriers too (another thread's step changes only a thread's status).
* `Sem.boundsSafe_of_solo`: if every access of the solo traces (from one memory `m0`) is in
  bounds, `BoundsSafe` holds from the launch with every initial memory.
* `Race.histInB`: the executor's check over a history (every access event in bounds), and
  `Race.canonical_bounds_sound`: if the canonical run (`Race.canonRun`) finishes (every thread
  exited) and every access of its history is in bounds, `BoundsSafe` holds for every initial
  memory (through `canon_holdsAccesses`: the finished run holds every solo access).
* Checker level (namespace `Kcert`): `BoundsCheckComplete X bnd` (a run without findings has
  every traced access in bounds, `bnd pair k text c` being CTA `c`'s in-bounds predicate),
  `CtaSafeB`/`KernelSafeB` (`CtaSafe` plus `BoundsSafe` for every initial memory; the bounds part
  does not need `SyncAll`), `check_safe_bounds`, `check_sound_bounds` (`check_sound` with
  `KernelSafeB` in place of `KernelSafe`, under the extra hypothesis `BoundsCheckComplete`).
  `boundsCheckComplete_of_canonBounds` derives `BoundsCheckComplete` from `CanonBounds` (a run
  without findings is a finished canonical run whose history passes `histInB`), as
  `raceCheckComplete_of_canonClean` does for the race check.

Not modelled: global memory (tensors), local memory, accesses wider than one element (the Rust
tests `offset + width <= bytes`; here one address), alignment (`Unsupported` in the Rust),
and that the executor's `bytes` are the sizes the hardware allocates.
-/

namespace Kcert
namespace Sem

section Defs

variable {V : Type} [AccAdd V]

/-- Action `A` is in bounds: a read, plain write or atomic addition at an address that `inb`
accepts, or any other action. -/
def accIn (inb : Nat → Bool) : Act V → Bool
  | Act.read a _ _ => inb a
  | Act.write a _ _ => inb a
  | Act.atomAdd a _ _ => inb a
  | Act.compute _ _ => true
  | Act.arrive _ _ _ _ => true
  | Act.exit => true

/-- No schedule from `s0` performs an access outside `inb`: in every reachable state, every
running thread's next action is in bounds. -/
def BoundsSafe (prog : Prog V) (N : Nat) (inb : Nat → Bool) (s0 : CState V) : Prop :=
  ∀ r, Reach prog N s0 r → ∀ i, i < N → (r.th i).status = Status.run →
    accIn inb (act prog i r) = true

/-- Every thread below `N` is related (same `pc`, related registers) to a state of its solo
trace from memory `m0`. -/
def SoloRel (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (s : CState V) : Prop :=
  ∀ i, i < N → ∃ k, TRel R i (s.th i) (solo prog regs0 m0 i k)

end Defs

section Lemmas

variable {V : Type} [AccAdd V]

/-- Related actions are in bounds alike: `accIn` reads kinds and addresses only. -/
theorem accIn_rel (inb : Nat → Bool) {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V}
    {A A' : Act V} (h : ActRel R r r' A A') : accIn inb A = accIn inb A' := by
  cases A <;> cases A' <;> first | contradiction | rfl | (show inb _ = inb _; rw [h.1])

theorem relAt_pc_regs (b : Nat) (t : TState V) :
    (relAt b t).pc = t.pc ∧ (relAt b t).regs = t.regs := by
  show (cond (waiting b t.status) { t with status := Status.run } t).pc = t.pc ∧
    (cond (waiting b t.status) { t with status := Status.run } t).regs = t.regs
  cases waiting b t.status <;> exact ⟨rfl, rfl⟩

/-- Another thread's action changes at most a thread's status. -/
theorem effOther_pc_regs (A : Act V) (f : Bool) (t : TState V) :
    (effOther A f t).pc = t.pc ∧ (effOther A f t).regs = t.regs := by
  cases A with
  | compute pc r => exact ⟨rfl, rfl⟩
  | read a r pc => exact ⟨rfl, rfl⟩
  | write a v pc => exact ⟨rfl, rfl⟩
  | atomAdd a v pc => exact ⟨rfl, rfl⟩
  | exit => exact ⟨rfl, rfl⟩
  | arrive b n w pc =>
    cases f with
    | false => exact ⟨rfl, rfl⟩
    | true => exact relAt_pc_regs b t

theorem trel_effOther {R : Nat → Nat → (Nat → V) → (Nat → V) → Prop} {i : Nat} (A : Act V)
    (f : Bool) {t u : TState V} (h : TRel R i t u) : TRel R i (effOther A f t) u := by
  match effOther_pc_regs A f t with
  | ⟨hp, hr⟩ =>
    refine ⟨Eq.trans hp h.1, ?_⟩
    rw [hp, hr]
    exact h.2

theorem soloRel_init (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) :
    SoloRel prog N regs0 m0 R (init regs0 m1) :=
  fun i _ => ⟨0, rfl, hR0 i⟩

theorem soloRel_same (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {s t : CState V} (hs : Same s t)
    (h : SoloRel prog N regs0 m0 R s) : SoloRel prog N regs0 m0 R t := by
  intro i hi
  match h i hi with
  | ⟨k, hk⟩ =>
    refine ⟨k, ?_⟩
    rw [← hs.1 i]
    exact hk

/-- One step of any thread keeps `SoloRel`: the stepping thread moves one action along its
solo trace (`trel_newT`, whatever memory each reads), the others keep `pc` and registers. -/
theorem soloRel_next (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hind : DataIndep prog R) (s : CState V)
    (j : Nat) (h : SoloRel prog N regs0 m0 R s) : SoloRel prog N regs0 m0 R (next prog N j s) := by
  intro i hi
  match h i hi with
  | ⟨k, hk⟩ =>
    cases Nat.decEq i j with
    | isTrue e =>
      subst e
      refine ⟨k + 1, ?_⟩
      rw [next_th_self prog N i s]
      exact trel_newT _ false s.mem m0 (actRel_of_trel prog hind hk) hk
    | isFalse e =>
      refine ⟨k, ?_⟩
      rw [next_th_other prog N j s e]
      exact trel_effOther _ _ hk

theorem soloRel_reach (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hind : DataIndep prog R) {s r : CState V}
    (hs : Reach prog N s r) : SoloRel prog N regs0 m0 R s → SoloRel prog N regs0 m0 R r := by
  induction hs with
  | refl s => exact fun h => h
  | step hst _ ih =>
    intro h
    match hst with
    | ⟨j, _, _, hsame⟩ =>
      exact ih (soloRel_same prog N regs0 m0 R (same_symm hsame)
        (soloRel_next prog N regs0 m0 R hind _ j h))

/-- Bounds from the solo traces: for a data-independent program, if every action of every solo
trace from memory `m0` is in bounds, then from the launch with ANY initial memory `m1` no
schedule performs an access outside `inb`.  No barrier hypothesis. -/
theorem boundsSafe_of_solo (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hind : DataIndep prog R)
    (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (inb : Nat → Bool)
    (hsolo : ∀ i k, i < N → accIn inb (soloAct prog regs0 m0 i k) = true) (m1 : Nat → V) :
    BoundsSafe prog N inb (init regs0 m1) := by
  intro r hr i hi _
  match soloRel_reach prog N regs0 m0 R hind hr (soloRel_init prog N regs0 m0 m1 R hR0) i hi with
  | ⟨k, hk⟩ => exact Eq.trans (accIn_rel inb (actRel_of_trel prog hind hk)) (hsolo i k hi)

end Lemmas

end Sem

namespace Race

open Sem (Act)

section Canon

variable {V : Type} [Sem.AccAdd V]

/-- The executor's bounds check over a history: every access event is in bounds
(`access.rs`: `OutOfBounds` unless `offset + width <= bytes`; the executor tests each access
as it performs it, so a run without that finding has this for its history). -/
def histInB (inb : Nat → Bool) : List (Event V) → Bool
  | [] => true
  | Event.barrier :: h => histInB inb h
  | Event.act _ A :: h => Sem.accIn inb A && histInB inb h

theorem histInB_occurs (inb : Nat → Bool) :
    ∀ {h : List (Event V)}, histInB inb h = true →
      ∀ {t : Nat} {A : Act V} {c : Nat}, Occurs h t A c → Sem.accIn inb A = true := by
  intro h
  induction h with
  | nil => intro _ t A c ho; exact False.elim ho
  | cons e h ih =>
    intro hb t A c ho
    cases e with
    | barrier => exact ih hb ho
    | act u B =>
      cases ho with
      | inl hh =>
        match hh with
        | ⟨_, e, _⟩ =>
          rw [← e]
          exact and_left' hb
      | inr ho' => exact ih (and_right' hb) ho'

/-- An action that is not a memory access is in bounds. -/
theorem accIn_of_mem (inb : Nat → Bool) (A : Act V) (h : IsMem A → Sem.accIn inb A = true) :
    Sem.accIn inb A = true := by
  cases A with
  | read a r pc => exact h ⟨a, Or.inr (Or.inl rfl)⟩
  | write a v pc => exact h ⟨a, Or.inl rfl⟩
  | atomAdd a v pc => exact h ⟨a, Or.inr (Or.inr rfl)⟩
  | compute _ _ => rfl
  | arrive _ _ _ _ => rfl
  | exit => rfl

/-- A finished canonical run whose history is in bounds: every solo access is in bounds. -/
theorem canon_solo_inB (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (inb : Nat → Bool) (hfin : Finished N (canonRun prog regs0 m0 N F) = true)
    (hb : histInB inb (canonRun prog regs0 m0 N F).hist = true) :
    ∀ i k, i < N → Sem.accIn inb (Sem.soloAct prog regs0 m0 i k) = true :=
  fun i k hi => accIn_of_mem inb _ (fun hm =>
    histInB_occurs inb hb (canon_holdsAccesses prog N F regs0 m0 hfin i k hi hm))

/-- **Bounds from the executor's run.**  For a data-independent program, if the canonical run
from memory `m0` finishes (every thread exited) and every access in its history is in bounds,
then for EVERY initial memory `m1` no schedule performs an access outside `inb`.  No barrier
hypothesis (`SyncAll` is not needed). -/
theorem canonical_bounds_sound (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (inb : Nat → Bool)
    (hfin : Finished N (canonRun prog regs0 m0 N F) = true)
    (hb : histInB inb (canonRun prog regs0 m0 N F).hist = true) :
    ∀ m1 : Nat → V, Sem.BoundsSafe prog N inb (Sem.init regs0 m1) :=
  Sem.boundsSafe_of_solo prog N regs0 m0 R hind hR0 inb
    (canon_solo_inB prog N F regs0 m0 inb hfin hb)

end Canon

section Examples

/-- `exampleProg 2` reads `0, 1` and writes `100, 101`. -/
def exInB : Nat → Bool := fun a => decide (a < 2) || (decide (100 ≤ a) && decide (a < 102))

theorem exampleProg_canon_inB :
    histInB exInB (canonRun (Sem.exampleProg 2 : Sem.Prog Nat) (fun _ _ => 0) (fun _ => 0) 2 8).hist =
      true := rfl

/-- So `canonical_bounds_sound` applies: no schedule from any initial memory leaves `exInB`. -/
theorem exampleProg_boundsSafe (m1 : Nat → Nat) :
    Sem.BoundsSafe (Sem.exampleProg 2 : Sem.Prog Nat) 2 exInB (Sem.init (fun _ _ => 0) m1) :=
  canonical_bounds_sound (Sem.exampleProg 2) 2 8 (fun _ _ => 0) (fun _ => 0)
    (fun _ _ _ _ => True) (Sem.exampleProg_dataIndep 2) (fun _ => True.intro) exInB
    exampleProg_canon_finished exampleProg_canon_inB m1

/-- With the write window one element short, the check fails (thread 1 writes 101). -/
theorem exampleProg_canon_outOfBounds :
    histInB (fun a => decide (a < 2) || (decide (100 ≤ a) && decide (a < 101)))
      (canonRun (Sem.exampleProg 2 : Sem.Prog Nat) (fun _ _ => 0) (fun _ => 0) 2 8).hist =
      false := rfl

end Examples

end Race

/-! ## The bounds clause of the checker model -/

open Sem

section Hyps

variable {T D S K F V : Type} [AccAdd V]

/-- `Sem.accIn` on shapes. -/
def sInB (inb : Nat → Bool) : AShape → Bool
  | AShape.read a => inb a
  | AShape.write a => inb a
  | AShape.atomAdd a => inb a
  | AShape.compute => true
  | AShape.arrive _ _ _ => true
  | AShape.exit => true

/-- The bounds check misses nothing on its own traces: in a run without findings, every access
of every thread's trace in every CTA is in bounds.  `bnd pair k text c` is the in-bounds
predicate of CTA `c` of kernel `k` (for the executor: the shared window of its `.shared`
declarations, `cta.shared.bytes`; `access.rs` reports `OutOfBounds` outside it). -/
def BoundsCheckComplete (X : Oracle T D S K F) (bnd : S → Kernel → T → Nat → Nat → Bool) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → ∀ c, c < sr.ctas → ∀ i kk, i < sr.threads c →
      sInB (bnd pair k (pick r o k) c) (sr.trace c i kk) = true

/-- `CtaSafe` (under `SyncAll`) and, for every initial shared memory, no schedule accesses
outside `inb` (with any barriers: the bounds part does not need `SyncAll`). -/
def CtaSafeB (c : Cta V) (inb : Nat → Bool) : Prop :=
  CtaSafe c ∧ ∀ m0 : Nat → V, BoundsSafe c.prog c.N inb (init c.regs0 m0)

def KernelSafeB (ks : KernelSem V) (inb : Nat → Nat → Bool) : Prop :=
  ∀ c, c < ks.ctas → CtaSafeB (ks.cta c) (inb c)

end Hyps

section Lemmas

variable {V : Type} [AccAdd V]

theorem sInB_shape (inb : Nat → Bool) (A : Act V) : sInB inb (shape A) = accIn inb A := by
  cases A <;> rfl

/-- `ctaSafe_of_traces` with bounds: traces in bounds give `CtaSafeB`. -/
theorem ctaSafeB_of_traces (c : Cta V) (tr : Trace) (inb : Nat → Bool)
    (hind : ∃ R, DataIndep c.prog R ∧ ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (htr : ∀ (m0 : Nat → V) i k, i < c.N → tr i k = shape (soloAct c.prog c.regs0 m0 i k))
    (hnr : ¬TraceRace tr c.N) (hnd : ¬TraceDeadlock tr c.N)
    (hbnd : ∀ i k, i < c.N → sInB inb (tr i k) = true) : CtaSafeB c inb := by
  refine ⟨ctaSafe_of_traces c tr hind htr hnr hnd, ?_⟩
  intro m0
  match hind with
  | ⟨R, hR, hR0⟩ =>
    exact boundsSafe_of_solo c.prog c.N c.regs0 m0 R hR hR0 inb (fun i k hi => by
      rw [← sInB_shape inb, ← htr m0 i k hi]
      exact hbnd i k hi) m0

end Lemmas

section Soundness

variable {T D S K F C V α : Type} [DecidableEq D] [DecidableEq K] [AccAdd V] [ExpField α]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- `check_safe` with bounds: under the same hypotheses and `BoundsCheckComplete X bnd`, if
`check` accepts, every kernel with a `Safe` claim is `KernelSafeB` for its bounds `bnd`. -/
theorem check_safe_bounds (sem : S → Kernel → T → KernelSem V)
    (bnd : S → Kernel → T → Nat → Nat → Bool)
    (hwant : RunsWanted X) (hfaith : ExecFaithful X sem)
    (hrace : RaceCheckComplete X) (hdead : DeadlockCheckComplete X)
    (hbnd : BoundsCheckComplete X bnd)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeB (sem pair k (pick refPtx optPtx k)) (bnd pair k (pick refPtx optPtx k)) := by
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
          | ⟨hthr, hind, htr⟩ =>
            have hc' : c < sr.ctas := by rw [hctas]; exact hc
            have hnr := hrace _ _ _ _ _ _ k sr hr hsr hfind c hc'
            have hnd := hdead _ _ _ _ _ _ k sr hr hsr hfind c hc'
            have hb := hbnd _ _ _ _ _ _ k sr hr hsr hfind c hc'
            rw [hthr] at hnr hnd hb
            exact ctaSafeB_of_traces _ (sr.trace c) _ hind htr hnr hnd
              (fun i kk hi => hb i kk hi)

/-- **Soundness of `check`, with bounds.**  `check_sound` with `KernelSafeB` (race freedom,
fitting barriers, one final state, no stuck schedule, and no access outside the kernel's
bounds `bnd` in any schedule from any initial shared memory) in place of `KernelSafe`, under the
extra hypothesis `BoundsCheckComplete X bnd`. -/
theorem check_sound_bounds (sem : S → Kernel → T → KernelSem V)
    (bnd : S → Kernel → T → Nat → Nat → Bool)
    (hwant : RunsWanted X) (hfaith : ExecFaithful X sem)
    (hrace : RaceCheckComplete X) (hdead : DeadlockCheckComplete X)
    (hbnd : BoundsCheckComplete X bnd)
    (cc : FieldCoeffCast ops α) (I : Interp K α) (hI : Rules.FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    X.sha256 refPtx = cert.refPtxSha256 ∧ X.sha256 optPtx = cert.optPtxSha256 ∧
    X.specDigest cert.pairSpec cert.refSpec cert.optSpec = cert.specSha256 ∧
    ∃ pair pr, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      X.runPair pair refPtx optPtx (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims) = some pr ∧
      (∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeB (sem pair k (pick refPtx optPtx k)) (bnd pair k (pick refPtx optPtx k))) ∧
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
  match check_safe_bounds sem bnd hwant hfaith hrace hdead hbnd cert refPtx optPtx h,
    check_equiv cc I hI hconst cert refPtx optPtx h with
  | ⟨pair, hp, hsafe⟩, ⟨pair', pr, hp', hr, hequiv⟩ =>
    have e : some pair' = some pair := Eq.trans (Eq.symm hp') hp
    cases e
    exact ⟨_, pr, hp', hr, hsafe, hequiv⟩

end Soundness

/-! ## `BoundsCheckComplete` from the canonical run -/

section Bridge

variable {V : Type} [AccAdd V]

/-- What the executor is assumed to do for bounds (compare `Race.CanonClean`): in a run without
findings, each CTA's traces are the shapes of the solo traces of some program over `V` whose
canonical run (`Race.canonRun`) finishes with every thread exited, and every access in that
run's history is in the CTA's bounds (`Race.histInB`: the executor tests every access it
performs). -/
def CanonBounds (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (bnd : S → Kernel → T → Nat → Nat → Bool) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → ∀ c, c < sr.ctas →
      ∃ (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (Fu : Nat),
        (∀ i k, i < sr.threads c →
          sr.trace c i k = shape (Sem.soloAct prog regs0 m0 i k)) ∧
        Race.Finished (sr.threads c) (Race.canonRun prog regs0 m0 (sr.threads c) Fu) = true ∧
        Race.histInB (bnd pair k (pick r o k) c)
          (Race.canonRun prog regs0 m0 (sr.threads c) Fu).hist = true

/-- `CanonBounds` discharges `BoundsCheckComplete`. -/
theorem boundsCheckComplete_of_canonBounds {T D S K F : Type} (X : Oracle T D S K F)
    (bnd : S → Kernel → T → Nat → Nat → Bool) (h : CanonBounds V X bnd) :
    BoundsCheckComplete X bnd := by
  intro pair r o wr wo pr k sr hrun hside hfind c hc i kk hi
  match h pair r o wr wo pr k sr hrun hside hfind c hc with
  | ⟨prog, regs0, m0, Fu, htr, hfin, hb⟩ =>
    rw [htr i kk hi, sInB_shape]
    exact Race.canon_solo_inB prog _ Fu regs0 m0 _ hfin hb i kk hi

end Bridge

/-! ## The checker-level example of `Checker.lean` meets `BoundsCheckComplete` -/

section Example

/-- `exTrace 2` reads `0, 1` and writes `100, 101`: all inside `Race.exInB`. -/
theorem exTrace_inB (i k : Nat) (hi : i < 2) : sInB Race.exInB (exTrace 2 i k) = true := by
  cases i with
  | zero =>
    cases k with
    | zero => rfl
    | succ k => cases k with
      | zero => rfl
      | succ k => cases k with
        | zero => rfl
        | succ k => rfl
  | succ i =>
    cases i with
    | zero =>
      cases k with
      | zero => rfl
      | succ k => cases k with
        | zero => rfl
        | succ k => cases k with
          | zero => rfl
          | succ k => rfl
    | succ i => exact False.elim (Nat.notSuccLeZero i (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hi)))

theorem ex_boundsCheckComplete : BoundsCheckComplete exOracle (fun _ _ _ _ => Race.exInB) := by
  intro _ _ _ wr wo pr k sr h hs _ c _ i kk hi
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  rw [ex_side hs] at hi ⊢
  exact exTrace_inB i kk hi

/-- `check_safe_bounds` applied to the accepted example certificate: the reference kernel is
safe and, from every initial shared memory, accesses only `Race.exInB` in every schedule. -/
theorem ex_safeB {V : Type} [AccAdd V] (regs0 : Nat → Nat → V) :
    KernelSafeB ((exSem regs0) () Kernel.reference 1) (fun _ => Race.exInB) :=
  match check_safe_bounds (exSem regs0) (fun _ _ _ _ => Race.exInB) ex_runsWanted
      (ex_execFaithful regs0) ex_raceCheckComplete ex_deadlockCheckComplete ex_boundsCheckComplete
      exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end Example

/-! ## Global memory: the executor's layout decides which tensor an address is in

`exec/memory.rs` `TENSOR_STRIDE = 1 << 36`; `exec/mod.rs` puts tensor `k` (its ordinal among the
tensor parameters) at `(k + 1) * TENSOR_STRIDE`; `exec/access.rs` `resolve` takes a global
address `a` to tensor `a / TENSOR_STRIDE - 1` at offset `a % TENSOR_STRIDE`, and
`access_general` tests `offset + width <= bytes` of THAT tensor.  The address alone decides the
tensor, not the pointer it was computed from: an access through tensor `x`'s pointer at a byte
offset of `TENSOR_STRIDE` or more lands in another tensor's region for the executor, and is in
bounds if that tensor is large enough, while on the hardware it is outside `x`'s allocation
(and the allocations are wherever the driver put them).  This is a gap of the Rust bounds check
(see the README, "Finding: a global offset of 2^36 bytes or more hops to another tensor"). -/

namespace GlobalBounds

/-- `memory.rs` `TENSOR_STRIDE` (`1 << 36`). -/
def stride : Nat := 68719476736

/-- The executor's base address of the tensor of ordinal `k`. -/
def execBase (k : Nat) : Nat := (k + 1) * stride

/-- `resolve` and `inside` of `access.rs` for a global access of `w` bytes at address `a`, with
`n` tensors of `size k` bytes. -/
def execInside (n : Nat) (size : Nat → Nat) (a w : Nat) : Bool :=
  decide (1 ≤ a / stride) && decide (a / stride - 1 < n) &&
    decide (a % stride + w ≤ size (a / stride - 1))

/-- On the hardware, an access through the pointer of tensor `p` at byte offset `o` is in
bounds iff it stays inside `p`'s allocation, `o + w ≤ size p`. -/
def hwInside (size : Nat → Nat) (p o w : Nat) : Bool := decide (o + w ≤ size p)

/-- Three tensors of 32 `f32` (128 bytes): `x`, `y`, `out`. -/
def exSize : Nat → Nat := fun _ => 128

/-- A 4-byte read through `x`'s pointer (ordinal 0) at byte offset `2^36` is `y[0]` for the
executor (in bounds), and outside `x` on the hardware. -/
theorem stride_gap :
    execInside 3 exSize (execBase 0 + stride) 4 = true ∧ hwInside exSize 0 stride 4 = false :=
  ⟨rfl, rfl⟩

/-- Below the stride the two agree on this example: offset `124` is inside, `128` outside. -/
theorem stride_ok :
    execInside 3 exSize (execBase 0 + 124) 4 = hwInside exSize 0 124 4 ∧
      execInside 3 exSize (execBase 0 + 128) 4 = hwInside exSize 0 128 4 :=
  ⟨rfl, rfl⟩

theorem add_sub_cancel' (n : Nat) : ∀ m : Nat, n + m - m = n
  | 0 => rfl
  | m + 1 => Eq.trans (Nat.succ_sub_succ (n + m) m) (add_sub_cancel' n m)

theorem mul_add_div (S r : Nat) (hr : r < S) : ∀ q : Nat, (q * S + r) / S = q
  | 0 => by
    rw [Nat.zero_mul, Nat.zero_add, Nat.div_eq]
    exact if_neg' (fun h => Nat.ltIrrefl r (Nat.ltOfLtOfLe hr h.2))
  | q + 1 => by
    have hS : 0 < S := Nat.ltOfLeOfLt (Nat.zeroLe r) hr
    have e : (q + 1) * S + r = q * S + r + S := by
      rw [Nat.succ_mul, Nat.add_right_comm]
    rw [e, Nat.div_eq, if_pos' ⟨hS, Nat.leAddLeft S (q * S + r)⟩, add_sub_cancel',
      mul_add_div S r hr q]

theorem mul_add_mod (S r : Nat) (hr : r < S) : ∀ q : Nat, (q * S + r) % S = r
  | 0 => by
    rw [Nat.zero_mul, Nat.zero_add]
    exact Nat.mod_eq_of_lt hr
  | q + 1 => by
    have e : (q + 1) * S + r = q * S + r + S := by
      rw [Nat.succ_mul, Nat.add_right_comm]
    rw [e, Nat.mod_eq_sub_mod (Nat.leAddLeft S (q * S + r)), add_sub_cancel',
      mul_add_mod S r hr q]

/-- Where the executor is exact: an access through the pointer of tensor `p` (one of the `n`)
at a byte offset `o` below `2^36` is in bounds for the executor iff it is inside `p`'s
allocation.  So the Rust bounds check is sound for kernels whose accesses stay within `2^36`
bytes of the tensor they go through; it cannot test that itself (the address does not say
which pointer it came from), which is the gap `stride_gap` exhibits. -/
theorem exec_eq_hw (n : Nat) (size : Nat → Nat) (p o w : Nat) (hp : p < n) (ho : o < stride) :
    execInside n size (execBase p + o) w = hwInside size p o w := by
  have hd : (execBase p + o) / stride = p + 1 := mul_add_div stride o ho (p + 1)
  have hm : (execBase p + o) % stride = o := mul_add_mod stride o ho (p + 1)
  show (decide (1 ≤ (execBase p + o) / stride) && decide ((execBase p + o) / stride - 1 < n) &&
      decide ((execBase p + o) % stride + w ≤ size ((execBase p + o) / stride - 1))) =
    decide (o + w ≤ size p)
  rw [hd, hm, add_sub_cancel' p 1, decide_eq_true' (Nat.succLeSucc (Nat.zeroLe p)),
    decide_eq_true' hp]
  rfl

end GlobalBounds

end Kcert
