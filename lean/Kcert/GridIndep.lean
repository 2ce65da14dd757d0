import Kcert.Compat
import Kcert.RaceCheck
import Kcert.Checker
import Kcert.Grid
import Kcert.GridRace

/-!
# Data independence across CTAs: every schedule of the grid does the solo accesses

Rust: `checker/src/exec/mod.rs` (`run`: the CTAs one after another), `exec/race.rs` (the check
across CTAs on that one run), `lower/` and `exec/step.rs` (a branch or an address that depends
on a loaded value is refused: `Val::Unordered`).

`Grid.GFootprint` says that every global access of every schedule of the grid is one the
footprints allow; the executor sees only the accesses of its one sequential run.  Here:

* `GDataIndep gp C R regs0`: every CTA's program is `Sem.DataIndep` (with relation `R c`), and
  its launch registers are related to themselves: the shapes of actions (kind, address,
  barrier) do not depend on values read, from whichever memory (shared or global) they come.
* `GLaunch N C R regs0 s0`: `s0` is a launch: in every CTA no arrivals at a barrier, every
  thread running at `pc` 0 with registers related to `regs0 c i` (`ginit` is one:
  `glaunch_ginit`).
* `gind_reach`: in every state reachable from a launch by any schedule of the grid, every thread
  `i` of every CTA `c` is related (`Sem.TRel`: same `pc`, related registers) to some state of
  its solo trace (`Sem.solo (gp c) (regs0 c) m0 i k`, for any memory `m0` the solo reads see).
  `gact_solo`: so the next action of a thread is related (`Sem.ActRel`) to one of its solo
  actions, and `gact_shape`: it has the same shape (`Kcert.shape`: kind, address, barrier).
* `gfootprint_solo`: `Grid.GFootprint` holds for the solo footprints (`SoloRd`, `SoloWr`,
  `SoloAt`: a thread of CTA `c` has, in its solo trace, a read, write, atomic addition at
  the global address `a`), and `gfootprint_hist`: for the histories' footprints (`GRace.RdH`
  ...) whenever the histories hold every global solo access (`HistHoldsSolo`: the
  executor-faithfulness hypothesis for the histories).
* `seq_representative_indep`: `GRace.seq_representative_check` with its `GFootprint`
  hypothesis replaced by `GDataIndep`, `GLaunch` and `HistHoldsSolo`.
-/

namespace Kcert
namespace Grid

open Sem

section Defs

variable {V : Type} [AccAdd V]

/-- Data independence of a grid: CTA `c`'s program is `DataIndep` with relation `R c` (control
flow, addresses, barriers do not depend on loaded values, whatever memory they come from), and
its launch registers are related. -/
def GDataIndep (gp : GProg V) (C : Nat) (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (regs0 : Nat → Nat → Nat → V) : Prop :=
  ∀ c, c < C → DataIndep (gp c) (R c) ∧ ∀ i, R c i 0 (regs0 c i) (regs0 c i)

/-- `s0` is a launch with the registers `regs0` (up to `R`): in every CTA, no arrivals at any
barrier, every thread running at `pc` 0. -/
def GLaunch (N C : Nat) (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (regs0 : Nat → Nat → Nat → V) (s0 : GState V) : Prop :=
  ∀ c, c < C → (∀ b, (s0.cs c).arr b = 0) ∧ ∀ i, i < N →
    ((s0.cs c).th i).status = Status.run ∧ ((s0.cs c).th i).pc = 0 ∧
      R c i 0 ((s0.cs c).th i).regs (regs0 c i)

/-- The launch of a grid: CTA `c` is `Sem.init (regs0 c) (sm c)`, global memory `gm`. -/
def ginit (regs0 : Nat → Nat → Nat → V) (sm : Nat → Nat → V) (gm : Nat → V) : GState V :=
  { cs := fun c => init (regs0 c) (sm c), gmem := gm }

/-- The invariant: every thread of every CTA is related to a state of its solo trace. -/
def GIndInv (gp : GProg V) (N C : Nat) (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (regs0 : Nat → Nat → Nat → V) (m0 : Nat → V) (s : GState V) : Prop :=
  ∀ c, c < C → ∀ i, i < N → ∃ k, TRel (R c) i ((s.cs c).th i) (solo (gp c) (regs0 c) m0 i k)

/-- The solo footprints: some thread of CTA `c` reads (writes, atomically adds to) the global
address `a` in its solo trace. -/
def SoloRd (gp : GProg V) (G : Nat → Bool) (N : Nat) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (c a : Nat) : Prop :=
  G a = true ∧ ∃ i k, i < N ∧ shape (soloAct (gp c) (regs0 c) m0 i k) = AShape.read a
def SoloWr (gp : GProg V) (G : Nat → Bool) (N : Nat) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (c a : Nat) : Prop :=
  G a = true ∧ ∃ i k, i < N ∧ shape (soloAct (gp c) (regs0 c) m0 i k) = AShape.write a
def SoloAt (gp : GProg V) (G : Nat → Bool) (N : Nat) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (c a : Nat) : Prop :=
  G a = true ∧ ∃ i k, i < N ∧ shape (soloAct (gp c) (regs0 c) m0 i k) = AShape.atomAdd a

end Defs

section Lemmas

variable {V : Type} [AccAdd V]

theorem relAt_pc (b : Nat) (t : TState V) : (relAt b t).pc = t.pc ∧ (relAt b t).regs = t.regs := by
  show (cond (waiting b t.status) { t with status := Status.run } t).pc = t.pc ∧
    (cond (waiting b t.status) { t with status := Status.run } t).regs = t.regs
  cases waiting b t.status <;> exact ⟨rfl, rfl⟩

/-- Another thread's action changes at most the status of a thread. -/
theorem effOther_pc (A : Act V) (f : Bool) (t : TState V) :
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
    | true => exact relAt_pc b t

theorem trel_of_pc {R : Nat → Nat → (Nat → V) → (Nat → V) → Prop} {i : Nat} {t t' u : TState V}
    (hp : t'.pc = t.pc) (hr : t'.regs = t.regs) (h : TRel R i t u) : TRel R i t' u := by
  refine ⟨Eq.trans hp h.1, ?_⟩
  rw [hp, hr]
  exact h.2

/-- Related actions have the same shape (kind, address, barrier, count). -/
theorem shape_of_actRel {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V}
    {A A' : Act V} (h : ActRel R r r' A A') : shape A = shape A' := by
  cases A <;> cases A' <;> (first | contradiction | skip)
  · rfl
  · show AShape.read _ = AShape.read _; rw [h.1]
  · show AShape.write _ = AShape.write _; rw [h.1]
  · show AShape.atomAdd _ = AShape.atomAdd _; rw [h.1]
  · show AShape.arrive _ _ _ = AShape.arrive _ _ _; rw [h.1, h.2.1, h.2.2.1]
  · rfl

theorem gind_launch (gp : GProg V) (N C : Nat) (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (regs0 : Nat → Nat → Nat → V) (m0 : Nat → V) {s0 : GState V}
    (hl : GLaunch N C R regs0 s0) : GIndInv gp N C R regs0 m0 s0 := by
  intro c hc i hi
  match (hl c hc).2 i hi with
  | ⟨_, hpc, hR⟩ =>
    refine ⟨0, hpc, ?_⟩
    rw [hpc]
    exact hR

theorem gind_same {gp : GProg V} {G : Nat → Bool} {N C : Nat}
    {R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop}
    {regs0 : Nat → Nat → Nat → V} {m0 : Nat → V} {s t : GState V} (h : GSame G s t)
    (hi : GIndInv gp N C R regs0 m0 s) : GIndInv gp N C R regs0 m0 t := by
  intro c hc i hin
  rw [← h.1 c i]
  exact hi c hc i hin

/-- One step of any thread of any CTA keeps the invariant. -/
theorem gind_gnext (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hind : GDataIndep gp C R regs0) {s : GState V} {d j : Nat} (hd : d < C)
    (hj : j < N) (hinv : GIndInv gp N C R regs0 m0 s) :
    GIndInv gp N C R regs0 m0 (gnext gp G N d j s) := by
  intro c hc i hi
  cases Nat.decEq c d with
  | isFalse hcd =>
    rw [gnext_cs_other gp G N d j s hcd]
    exact hinv c hc i hi
  | isTrue hcd =>
    rw [hcd, gnext_cs_self]
    cases Nat.decEq i j with
    | isTrue hij =>
      rw [hij, next_th_self]
      match hinv d hd j hj with
      | ⟨k, htr⟩ =>
        have hrel := actRel_of_trel (gp d) (hind d hd).1 htr
        exact ⟨k + 1, trel_newT _ false _ m0 hrel htr⟩
    | isFalse hij =>
      rw [next_th_other (gp d) N j (view G s d) hij]
      match hinv d hd i hi with
      | ⟨k, htr⟩ =>
        have e := effOther_pc (act (gp d) j (view G s d))
          (firesA N (act (gp d) j (view G s d)) (view G s d)) ((view G s d).th i)
        exact ⟨k, trel_of_pc e.1 e.2 htr⟩

theorem gind_reach_gen (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hind : GDataIndep gp C R regs0) {s r : GState V}
    (hs : GReach gp G N C s r) : GIndInv gp N C R regs0 m0 s → GIndInv gp N C R regs0 m0 r := by
  induction hs with
  | refl s => exact fun h => h
  | step hst _ ih =>
    intro h
    match hst with
    | ⟨d, j, hd, hj, _, hsame⟩ =>
      exact ih (gind_same (gsame_symm hsame) (gind_gnext gp G N C R regs0 m0 hind hd hj h))

/-- In every state that a schedule of the grid reaches from a launch, every thread of every CTA
is related to a state of its solo trace. -/
theorem gind_reach (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hind : GDataIndep gp C R regs0) {s0 r : GState V}
    (hl : GLaunch N C R regs0 s0) (hr : GReach gp G N C s0 r) : GIndInv gp N C R regs0 m0 r :=
  gind_reach_gen gp G N C R regs0 m0 hind hr (gind_launch gp N C R regs0 m0 hl)

/-- The next action of every thread of every CTA in every reachable state is related to one of
its solo actions. -/
theorem gact_solo (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hind : GDataIndep gp C R regs0) {s0 r : GState V}
    (hl : GLaunch N C R regs0 s0) (hr : GReach gp G N C s0 r) {c i : Nat} (hc : c < C)
    (hi : i < N) : ∃ k, ActRel (R c i) ((r.cs c).th i).regs (solo (gp c) (regs0 c) m0 i k).regs
      (gact gp G c i r) (soloAct (gp c) (regs0 c) m0 i k) :=
  match gind_reach gp G N C R regs0 m0 hind hl hr c hc i hi with
  | ⟨k, htr⟩ => ⟨k, actRel_of_trel (gp c) (hind c hc).1 htr⟩

/-- The grid analogue of `Race.FromTraces`: every action of every thread in every reachable
state of the grid has the shape of one of that thread's solo actions. -/
theorem gact_shape (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hind : GDataIndep gp C R regs0) {s0 r : GState V}
    (hl : GLaunch N C R regs0 s0) (hr : GReach gp G N C s0 r) {c i : Nat} (hc : c < C)
    (hi : i < N) : ∃ k, shape (gact gp G c i r) = shape (soloAct (gp c) (regs0 c) m0 i k) :=
  match gact_solo gp G N C R regs0 m0 hind hl hr hc hi with
  | ⟨k, h⟩ => ⟨k, shape_of_actRel h⟩

/-- Data independence gives the footprints: every global access of every schedule of the grid
is one of the solo accesses of its thread. -/
theorem gfootprint_solo (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hind : GDataIndep gp C R regs0) {s0 : GState V}
    (hl : GLaunch N C R regs0 s0) :
    GFootprint gp G N C s0 (SoloRd gp G N regs0 m0) (SoloWr gp G N regs0 m0)
      (SoloAt gp G N regs0 m0) := by
  intro r hr c hc i hi _
  match gact_shape gp G N C R regs0 m0 hind hl hr hc hi with
  | ⟨k, hk⟩ =>
    refine ⟨?_, ?_, ?_⟩
    · intro a x pc hA hG
      rw [hA] at hk
      exact ⟨hG, i, k, hi, Eq.symm hk⟩
    · intro a v pc hA hG
      rw [hA] at hk
      exact ⟨hG, i, k, hi, Eq.symm hk⟩
    · intro a v pc hA hG
      rw [hA] at hk
      exact ⟨hG, i, k, hi, Eq.symm hk⟩

/-- Footprints can be enlarged. -/
theorem gfootprint_mono {gp : GProg V} {G : Nat → Bool} {N C : Nat} {s0 : GState V}
    {Rd Wr At Rd' Wr' At' : Nat → Nat → Prop} (h : GFootprint gp G N C s0 Rd Wr At)
    (hr : ∀ c a, c < C → Rd c a → Rd' c a) (hw : ∀ c a, c < C → Wr c a → Wr' c a)
    (ha : ∀ c a, c < C → At c a → At' c a) : GFootprint gp G N C s0 Rd' Wr' At' := by
  intro r hreach c hc i hi hrun
  match h r hreach c hc i hi hrun with
  | ⟨h1, h2, h3⟩ =>
    exact ⟨fun a x pc hA hG => hr c a hc (h1 a x pc hA hG),
      fun a v pc hA hG => hw c a hc (h2 a v pc hA hG),
      fun a v pc hA hG => ha c a hc (h3 a v pc hA hG)⟩

/-- Disjointness survives shrinking the footprints. -/
theorem xdisjoint_mono {C : Nat} {Rd Wr At Rd' Wr' At' : Nat → Nat → Prop}
    (h : XDisjointSeq C Rd' Wr' At')
    (hr : ∀ c a, c < C → Rd c a → Rd' c a) (hw : ∀ c a, c < C → Wr c a → Wr' c a)
    (ha : ∀ c a, c < C → At c a → At' c a) : XDisjointSeq C Rd Wr At := by
  intro c d hcd hd a
  have hc : c < C := Nat.ltTrans hcd hd
  match h c d hcd hd a with
  | ⟨k1, k2, k3, k4, k5, k6, k7⟩ =>
    exact ⟨fun x y => k1 (hr c a hc x) (hw d a hd y), fun x y => k2 (hr c a hc x) (ha d a hd y),
      fun x y => k3 (hw c a hc x) (hr d a hd y), fun x y => k4 (hw c a hc x) (hw d a hd y),
      fun x y => k5 (hw c a hc x) (ha d a hd y), fun x y => k6 (ha c a hc x) (hr d a hd y),
      fun x y => k7 (ha c a hc x) (hw d a hd y)⟩

end Lemmas

end Grid

namespace GRace

open Sem Grid

section Indep

variable {V : Type} [AccAdd V]

/-- The executor-faithfulness hypothesis for the histories: every global access of every solo
trace of every thread of every CTA is in the history of its address, as an access of its CTA
and kind (`RdH`, `WrH`, `AtH`).  (In the style of `SideFaithful`'s trace clause: the executor's
sequential run performs the solo accesses and `access.rs` records each in its granule's
shadow.) -/
def HistHoldsSolo (gp : GProg V) (G : Nat → Bool) (N C : Nat) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hist : Nat → List XEv) : Prop :=
  ∀ c a, c < C →
    (SoloRd gp G N regs0 m0 c a → RdH hist c a) ∧ (SoloWr gp G N regs0 m0 c a → WrH hist c a) ∧
      (SoloAt gp G N regs0 m0 c a → AtH hist c a)

/-- `Grid.GFootprint` for the histories' footprints, from data independence across CTAs and
histories that hold every solo access. -/
theorem gfootprint_hist (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hist : Nat → List XEv) (hind : GDataIndep gp C R regs0) {s0 : GState V}
    (hl : GLaunch N C R regs0 s0) (hh : HistHoldsSolo gp G N C regs0 m0 hist) :
    GFootprint gp G N C s0 (RdH hist) (WrH hist) (AtH hist) :=
  gfootprint_mono (gfootprint_solo gp G N C R regs0 m0 hind hl)
    (fun c a hc h => (hh c a hc).1 h) (fun c a hc h => (hh c a hc).2.1 h)
    (fun c a hc h => (hh c a hc).2.2 h)

/-- `seq_representative_check` without the footprint hypothesis: if every CTA's program is data
independent (`GDataIndep`), `s0` is a launch (`GLaunch`), the histories of the global
addresses hold every solo access (`HistHoldsSolo`), are in the executor's order, have no benign
store, and the shadow check reports nothing on them, then, with race freedom within each CTA
and fitting barriers, the sequential run's final state is the final state of every schedule. -/
theorem seq_representative_indep (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) {s0 u t : GState V} (hist : Nat → List XEv)
    (hind : GDataIndep gp C R regs0) (hl : GLaunch N C R regs0 s0)
    (hh : HistHoldsSolo gp G N C regs0 m0 hist)
    (hso : ∀ a, Sorted 0 (hist a)) (hr : ∀ a, Resp (hist a))
    (hnb : ∀ a e, Race.In e (hist a) → e.kind = XKind.store true → False)
    (hno : ∀ a, reportsX XSh.empty (hist a) = false)
    (hin : GridRaceFreeIn gp G N C s0) (hfit : GBarriersFit gp G N C s0)
    (hseq : SeqRun gp G N C s0 u) (ht : GReach gp G N C s0 t)
    (ft : GFinal N C t) : GSame G t u :=
  seq_representative_check gp G N C hist hso hr hnb hno
    (gfootprint_hist gp G N C R regs0 m0 hist hind hl hh) hin hfit hseq ht ft

end Indep

end GRace
end Kcert
