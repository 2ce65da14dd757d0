import Kcert.Compat
import Kcert.RaceCheck
import Kcert.Checker
import Kcert.Grid
import Kcert.GridIndep

/-!
# A `Safe` claim for the whole grid (global memory, all CTAs)

Rust: `checker/src/exec/mod.rs` (`run`: every CTA, one after another, over one global memory),
`exec/race.rs` (the check within a CTA and across CTAs), `check.rs` (a `Safe` claim passes when
the run has no finding and covered the grid).

`Checker.CtaSafe` speaks of one CTA alone, with its own memory.  Here the grid model of
`Grid.lean` (all CTAs interleaved over one global memory):

* `GInv`: the invariant of `RaceCheck.lean` (`Sem.Inv`: every thread matches its solo trace at
  the number of completed barriers of its CTA, no arrivals without waiting, no barrier with all
  threads waiting) holds in every CTA's view of every state reachable in the grid
  (`ginv_reach`): other CTAs change only global memory, which `Sem.Inv` does not look at.
* `gepochRace_of_conflict`, `gridRaceFreeIn_of_noEpochRace`: a conflict of two threads of one
  CTA in a reachable grid state is an `EpochRace` of that CTA's solo traces, so without one
  the grid is race free within each CTA (`Grid.GridRaceFreeIn`).
  `gBarriersFit_of_syncAll`: whole-CTA `bar.sync` barriers fit in every grid state.
  `gfinal_of_stuck`: without `EpochDeadlock` in any CTA, a reachable grid state where no thread
  of any CTA can step has every thread exited.
* `gridSafe_of_checks`: with disjoint solo footprints across CTAs (`XDisjointSeq` of `SoloRd`,
  `SoloWr`, `SoloAt`), `GridSafe`: race freedom within and across CTAs (`GridRaceFree`), fitting
  barriers, one final state for all complete schedules (`GSame`: same global memory), and no
  schedule stuck before every thread of every CTA exited.
  `seq_representative_epoch`: `GRace.seq_representative_indep` with `GridRaceFreeIn` and
  `GBarriersFit` discharged so (the sequential run's final state is every schedule's).
* Not vacuous: `xProg_gridSafe` (two CTAs of one thread: load global address 10, store the
  value at global address `c`, exit); at the checker level `xOracle`, accepted with `exCert`
  (`xCert_accepted`), meets every hypothesis, and `x_gridSafe` applies `check_grid_safe`.
* Checker level: `KernelGridSafe G ks` (for one thread count `N` shared by all CTAs and
  whole-CTA `bar.sync` barriers: `GridSafe` from every launch `ginit`); `XRaceCheckComplete X G`
  (a run without findings has footprints of its traces disjoint across CTAs at global
  addresses, in the sense of `XDisjointSeq`: the check across CTAs of `race.rs`);
  `check_grid_safe`: under `RunsWanted`, `ExecFaithful`, `RaceCheckComplete`,
  `DeadlockCheckComplete` and `XRaceCheckComplete`, every kernel with an accepted `Safe`
  claim is `KernelGridSafe`.  `xdisjoint_traces_of_hist`: `XRaceCheckComplete`'s conclusion
  follows from the shadow model of `GridRace.lean` (`GRace.reportsX`) over histories that hold
  the traces' global accesses, are in the executor's order and have no benign store.

Not covered: benign equal-value stores across CTAs (the Rust exempts a later CTA's store of the
value the cell holds; `XDisjointSeq` does not, so `XRaceCheckComplete` is false of a run that
has one, and no theorem here speaks of such kernels); `.cta`-scope atomics (every atomic is
grid-wide here); `bar.arrive` and partial barrier counts (`SyncAll`); a thread count that
differs between CTAs.
-/

namespace Kcert
namespace Grid

open Sem

section Defs

variable {V : Type} [AccAdd V]

/-- `Sem.Inv` in every CTA's view. -/
def GInv (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (s : GState V) : Prop :=
  ∀ c, c < C → Inv (gp c) N (regs0 c) m0 (R c) (view G s c)

/-- What a `Safe` claim means for the grid from `s0`: race freedom within and across CTAs,
fitting barriers, one final state (global memory and every CTA) for all complete schedules, and
no schedule stuck before every thread of every CTA exited. -/
def GridSafe (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s0 : GState V) : Prop :=
  GridRaceFree gp G N C s0 ∧ GBarriersFit gp G N C s0 ∧
  (∀ t1 t2, GReach gp G N C s0 t1 → GReach gp G N C s0 t2 → GFinal N C t1 → GFinal N C t2 →
    GSame G t1 t2) ∧
  (∀ r, GReach gp G N C s0 r → (∀ v, GStep gp G N C r v → False) → GFinal N C r)

/-- The union of all relations that witness `DataIndep` for CTA `c` with its launch registers:
one relation per CTA without choosing among witnesses. -/
def RU (gp : GProg V) (regs0 : Nat → Nat → Nat → V) (c i pc : Nat) (r r' : Nat → V) : Prop :=
  ∃ R : Nat → Nat → (Nat → V) → (Nat → V) → Prop,
    DataIndep (gp c) R ∧ (∀ j, R j 0 (regs0 c j) (regs0 c j)) ∧ R i pc r r'

end Defs

section Lemmas

variable {V : Type} [AccAdd V]

/-- `Sem.Inv` reads only threads and arrival counts. -/
theorem inv_thArr {prog : Prog V} {N : Nat} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {R : Nat → Nat → (Nat → V) → (Nat → V) → Prop} {s t : CState V}
    (hth : ∀ k, s.th k = t.th k) (har : ∀ b, s.arr b = t.arr b)
    (hinv : Inv prog N regs0 m0 R s) : Inv prog N regs0 m0 R t := by
  match hinv with
  | ⟨h0, hwit, c, hti⟩ =>
    refine ⟨fun b => by rw [← har b]; exact h0 b, ?_, c, fun i hi => by rw [← hth i]; exact hti i hi⟩
    intro hN b
    match hwit hN b with
    | ⟨i, hi, hw⟩ => exact ⟨i, hi, by rw [← hth i]; exact hw⟩

theorem ginv_launch (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) {s0 : GState V} (hl : GLaunch N C R regs0 s0) :
    GInv gp G N C R regs0 m0 s0 := by
  intro c hc
  refine ⟨(hl c hc).1, ?_, 0, ?_⟩
  · intro hN b
    refine ⟨0, hN, ?_⟩
    show waiting b ((s0.cs c).th 0).status = false
    rw [((hl c hc).2 0 hN).1]
    rfl
  · intro i hi
    match (hl c hc).2 i hi with
    | ⟨hs, hpc, hR⟩ =>
      have ht : TRel (R c) i ((view G s0 c).th i) (solo (gp c) (regs0 c) m0 i 0) := by
        refine ⟨hpc, ?_⟩
        show R c i ((s0.cs c).th i).pc ((s0.cs c).th i).regs (regs0 c i)
        rw [hpc]
        exact hR
      exact thInv_run (gp c) (regs0 c) m0 (R c) (k := 0) hs ht rfl

theorem ginv_same {gp : GProg V} {G : Nat → Bool} {N C : Nat}
    {R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop} {regs0 : Nat → Nat → Nat → V}
    {m0 : Nat → V} {s t : GState V} (h : GSame G s t) (hi : GInv gp G N C R regs0 m0 s) :
    GInv gp G N C R regs0 m0 t :=
  fun c hc => inv_same (gp c) N (regs0 c) m0 (R c) (view_same h c) (hi c hc)

/-- A step of a running thread of any CTA keeps the invariant in every CTA. -/
theorem ginv_gnext (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    {s : GState V} {d j : Nat} (hd : d < C) (hj : j < N)
    (hr : ((s.cs d).th j).status = Status.run) (hinv : GInv gp G N C R regs0 m0 s) :
    GInv gp G N C R regs0 m0 (gnext gp G N d j s) := by
  intro c hc
  cases Nat.decEq c d with
  | isTrue hcd =>
    rw [hcd]
    exact inv_same (gp d) N (regs0 d) m0 (R d) (same_symm (view_gnext_self gp G N d j s))
      (inv_next (gp d) N (regs0 d) m0 (R d) (hsync d hd) (hind d hd).1 (view G s d) j hj hr
        (hinv d hd))
  | isFalse hcd =>
    apply inv_thArr (s := view G s c) _ _ (hinv c hc)
    · intro k
      show ((s.cs c).th k) = ((gnext gp G N d j s).cs c).th k
      rw [gnext_cs_other gp G N d j s hcd]
    · intro b
      show ((s.cs c).arr b) = ((gnext gp G N d j s).cs c).arr b
      rw [gnext_cs_other gp G N d j s hcd]

theorem ginv_reach_gen (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    {s r : GState V} (hs : GReach gp G N C s r) :
    GInv gp G N C R regs0 m0 s → GInv gp G N C R regs0 m0 r := by
  induction hs with
  | refl s => exact fun h => h
  | step hst _ ih =>
    intro h
    match hst with
    | ⟨d, j, hd, hj, hrun, hsame⟩ =>
      exact ih (ginv_same (gsame_symm hsame)
        (ginv_gnext gp G N C R regs0 m0 hsync hind hd hj hrun h))

/-- Every state reachable in the grid from a launch satisfies `Sem.Inv` in every CTA's view. -/
theorem ginv_reach (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    {s0 r : GState V} (hl : GLaunch N C R regs0 s0) (hr : GReach gp G N C s0 r) :
    GInv gp G N C R regs0 m0 r :=
  ginv_reach_gen gp G N C R regs0 m0 hsync hind hr (ginv_launch gp G N C R regs0 m0 hl)

/-- Completeness of the race check within a CTA, in the grid: two threads of one CTA about to
do conflicting actions in a reachable grid state give an `EpochRace` of that CTA's solo
traces. -/
theorem gepochRace_of_conflict (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    {s0 r : GState V} (hl : GLaunch N C R regs0 s0) (hr : GReach gp G N C s0 r) {c i j : Nat}
    (hc : c < C) (hij : i ≠ j) (hi : i < N) (hj : j < N)
    (hri : ((r.cs c).th i).status = Status.run) (hrj : ((r.cs c).th j).status = Status.run)
    (hcf : Conflict (gact gp G c i r) (gact gp G c j r)) : EpochRace (gp c) N (regs0 c) m0 := by
  match ginv_reach gp G N C R regs0 m0 hsync hind hl hr c hc with
  | ⟨_, _, e, hth⟩ =>
    match (hth i hi).1 hri, (hth j hj).1 hrj with
    | ⟨ki, htri, hbi⟩, ⟨kj, htrj, hbj⟩ =>
      exact ⟨i, j, ki, kj, hij, hi, hj,
        conflict_rel (actRel_of_trel (gp c) (hind c hc).1 htri)
          (actRel_of_trel (gp c) (hind c hc).1 htrj) hcf,
        Eq.trans hbi (Eq.symm hbj)⟩

theorem gridRaceFreeIn_of_noEpochRace (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    {s0 : GState V} (hl : GLaunch N C R regs0 s0)
    (hnr : ∀ c, c < C → ¬EpochRace (gp c) N (regs0 c) m0) : GridRaceFreeIn gp G N C s0 :=
  fun _ hr c hc _ _ hij hi hj hri hrj hcf =>
    hnr c hc (gepochRace_of_conflict gp G N C R regs0 m0 hsync hind hl hr hc hij hi hj hri hrj hcf)

/-- Whole-CTA `bar.sync` barriers fit in every reachable grid state. -/
theorem gBarriersFit_of_syncAll (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    {s0 : GState V} (hl : GLaunch N C R regs0 s0) : GBarriersFit gp G N C s0 := by
  intro r hr c hc i j hij hi hj hri hrj
  have h0 := (ginv_reach gp G N C R regs0 m0 hsync hind hl hr c hc).1
  exact barriersFit_of_syncAll (gp c) N (view G r c) (hsync c hc) h0 (view G r c) (Reach.refl _)
    i j hij hi hj hri hrj

/-- Completeness of the deadlock check, in the grid: without `EpochDeadlock` in any CTA, every
reachable grid state where no thread of any CTA can step has every thread exited. -/
theorem gfinal_of_stuck (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    {s0 r : GState V} (hl : GLaunch N C R regs0 s0)
    (hnd : ∀ c, c < C → ¬EpochDeadlock (gp c) N (regs0 c) m0) (hr : GReach gp G N C s0 r)
    (hs : ∀ v, GStep gp G N C r v → False) : GFinal N C r := by
  intro c hc k hk
  have hnr : ∀ k, k < N → ((r.cs c).th k).status = Status.run → False :=
    fun k hk hrun => hs (gnext gp G N c k r) ⟨c, k, hc, hk, hrun, gsame_refl G _⟩
  match ginv_reach gp G N C R regs0 m0 hsync hind hl hr c hc with
  | ⟨_, hwit, e, hth⟩ =>
    cases hsk : ((r.cs c).th k).status with
    | exited => rfl
    | run => exact False.elim (hnr k hk hsk)
    | bar b =>
      apply False.elim
      apply hnd c hc
      match (hth k hk).2.1 b hsk with
      | ⟨ki, ni, pci, hai, hbi, _⟩ =>
        have hsy : SyncAt (gp c) (regs0 c) m0 k e b := ⟨ki, ni, true, pci, hbi, hai⟩
        match hwit (Nat.ltOfLeOfLt (Nat.zeroLe k) hk) b with
        | ⟨i', hi', hw'⟩ =>
          have hw'' : waiting b ((r.cs c).th i').status = false := hw'
          cases hsi' : ((r.cs c).th i').status with
          | run => exact False.elim (hnr i' hi' hsi')
          | exited =>
            match (hth i' hi').2.2 hsi' with
            | ⟨k', ha', hb'⟩ => exact ⟨e, k, i', b, hk, hi', hsy, Or.inl ⟨k', hb', ha'⟩⟩
          | bar b' =>
            have hne' : b' ≠ b := by
              rw [hsi'] at hw''
              exact of_decide_eq_false' hw''
            match (hth i' hi').2.1 b' hsi' with
            | ⟨k', n', pc', ha', hb', _⟩ =>
              exact ⟨e, k, i', b, hk, hi', hsy, Or.inr ⟨b', hne', k', n', true, pc', hb', ha'⟩⟩

/-- The grid is safe when every CTA's solo traces have no race and no deadlock in one epoch and
the solo global footprints are disjoint across CTAs in the sense of the Rust check
(`XDisjointSeq`). -/
theorem gridSafe_of_checks (gp : GProg V) (G : Nat → Bool) (N C : Nat)
    (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop) (regs0 : Nat → Nat → Nat → V)
    (m0 : Nat → V) (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    {s0 : GState V} (hl : GLaunch N C R regs0 s0)
    (hnr : ∀ c, c < C → ¬EpochRace (gp c) N (regs0 c) m0)
    (hnd : ∀ c, c < C → ¬EpochDeadlock (gp c) N (regs0 c) m0)
    (hdis : XDisjointSeq C (SoloRd gp G N regs0 m0) (SoloWr gp G N regs0 m0)
      (SoloAt gp G N regs0 m0)) : GridSafe gp G N C s0 := by
  have hrf : GridRaceFree gp G N C s0 := fun r hr =>
    ⟨gridRaceFreeIn_of_noEpochRace gp G N C R regs0 m0 hsync hind hl hnr r hr,
      xraceFree_of_footprint gp G N C s0 (gfootprint_solo gp G N C R regs0 m0 hind hl) hdis r hr⟩
  have hfit := gBarriersFit_of_syncAll gp G N C R regs0 m0 hsync hind hl
  exact ⟨hrf, hfit, fun _ _ h1 h2 f1 f2 => gconfluence gp G N C hrf hfit h1 h2 f1 f2,
    fun _ hr hs => gfinal_of_stuck gp G N C R regs0 m0 hsync hind hl hnd hr hs⟩

/-- `GRace.seq_representative_indep` with its two remaining hypotheses on all schedules
(`GridRaceFreeIn`, `GBarriersFit`) discharged: for whole-CTA `bar.sync` barriers and data
independent CTAs, if no CTA's solo traces have a race in one epoch, the histories hold every
solo access, are in the executor's order, have no benign store and the shadow check across CTAs
reports nothing, then the sequential run's final state is the final state of every schedule
of the grid. -/
theorem seq_representative_epoch {V : Type} [AccAdd V] (gp : GProg V) (G : Nat → Bool)
    (N C : Nat) (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (regs0 : Nat → Nat → Nat → V) (m0 : Nat → V) {s0 u t : GState V}
    (hist : Nat → List GRace.XEv)
    (hsync : ∀ c, c < C → SyncAll (gp c) N) (hind : GDataIndep gp C R regs0)
    (hl : GLaunch N C R regs0 s0) (hnr : ∀ c, c < C → ¬EpochRace (gp c) N (regs0 c) m0)
    (hh : GRace.HistHoldsSolo gp G N C regs0 m0 hist)
    (hso : ∀ a, GRace.Sorted 0 (hist a)) (hr : ∀ a, GRace.Resp (hist a))
    (hnb : ∀ a e, Race.In e (hist a) → e.kind = GRace.XKind.store true → False)
    (hno : ∀ a, GRace.reportsX GRace.XSh.empty (hist a) = false)
    (hseq : SeqRun gp G N C s0 u) (ht : GReach gp G N C s0 t) (ft : GFinal N C t) :
    GSame G t u :=
  GRace.seq_representative_indep gp G N C R regs0 m0 hist hind hl hh hso hr hnb hno
    (gridRaceFreeIn_of_noEpochRace gp G N C R regs0 m0 hsync hind hl hnr)
    (gBarriersFit_of_syncAll gp G N C R regs0 m0 hsync hind hl) hseq ht ft

/-- `ActRel` is monotone in the relation. -/
theorem actRel_mono {R R' : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A A' : Act V}
    (hm : ∀ pc x y, R pc x y → R' pc x y) (h : ActRel R r r' A A') : ActRel R' r r' A A' := by
  cases A <;> cases A' <;> (first | contradiction | skip)
  · exact ⟨h.1, hm _ _ _ h.2⟩
  · exact ⟨h.1, h.2.1, h.2.2.1, fun x y => hm _ _ _ (h.2.2.2 x y)⟩
  · exact ⟨h.1, h.2.1, hm _ _ _ h.2.2⟩
  · exact ⟨h.1, h.2.1, hm _ _ _ h.2.2⟩
  · exact ⟨h.1, h.2.1, h.2.2.1, h.2.2.2.1, hm _ _ _ h.2.2.2.2⟩
  · exact True.intro

/-- A witness of `DataIndep` per CTA gives `GDataIndep` with the union relation `RU`. -/
theorem gDataIndep_RU (gp : GProg V) (C : Nat) (regs0 : Nat → Nat → Nat → V)
    (h : ∀ c, c < C → ∃ R : Nat → Nat → (Nat → V) → (Nat → V) → Prop,
      DataIndep (gp c) R ∧ ∀ i, R i 0 (regs0 c i) (regs0 c i)) :
    GDataIndep gp C (RU gp regs0) regs0 := by
  intro c hc
  refine ⟨?_, ?_⟩
  · intro i pc regs regs' hR
    match hR with
    | ⟨R, hRi, hR0, hr⟩ =>
      exact actRel_mono (fun pc x y hxy => ⟨R, hRi, hR0, hxy⟩) (hRi i pc regs regs' hr)
  · intro i
    match h c hc with
    | ⟨R, hRi, hR0⟩ => exact ⟨R, hRi, hR0, hR0 i⟩

theorem glaunch_ginit (N C : Nat) (R : Nat → Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (regs0 : Nat → Nat → Nat → V) (sm : Nat → Nat → V) (gm : Nat → V)
    (hR0 : ∀ c, c < C → ∀ i, R c i 0 (regs0 c i) (regs0 c i)) :
    GLaunch N C R regs0 (ginit regs0 sm gm) :=
  fun c hc => ⟨fun _ => rfl, fun i _ => ⟨rfl, rfl, hR0 c hc i⟩⟩

end Lemmas

end Grid

/-! ### The checker: a `Safe` claim for the grid -/

open Sem Grid

section GridHyps

variable {T D S K F V : Type} [AccAdd V]

/-- The global footprints of a run's traces: some thread of CTA `c` has, in its trace, a read
(write, atomic addition) of the global address `a`. -/
def TRd (G : Nat → Bool) {F : Type} (sr : SideRun F) (c a : Nat) : Prop :=
  G a = true ∧ ∃ i k, i < sr.threads c ∧ sr.trace c i k = AShape.read a
def TWr (G : Nat → Bool) {F : Type} (sr : SideRun F) (c a : Nat) : Prop :=
  G a = true ∧ ∃ i k, i < sr.threads c ∧ sr.trace c i k = AShape.write a
def TAt (G : Nat → Bool) {F : Type} (sr : SideRun F) (c a : Nat) : Prop :=
  G a = true ∧ ∃ i k, i < sr.threads c ∧ sr.trace c i k = AShape.atomAdd a

/-- The race check across CTAs misses nothing on its own traces: a run without findings has
global footprints disjoint across CTAs in the sense of `Grid.XDisjointSeq` (a read of an earlier
CTA against a write or atomic of a later one, a write against any access, an atomic against a
plain access).  `G` says which addresses are global memory. -/
def XRaceCheckComplete (X : Oracle T D S K F) (G : Nat → Bool) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → XDisjointSeq sr.ctas (TRd G sr) (TWr G sr) (TAt G sr)

/-- What a `Safe` claim means for the whole grid: if every CTA has `N` threads and only
whole-CTA `bar.sync` barriers, then from every launch (shared memories `sm`, global memory
`gm`) the grid is `GridSafe`. -/
def KernelGridSafe (G : Nat → Bool) (ks : KernelSem V) : Prop :=
  ∀ N, (∀ c, c < ks.ctas → (ks.cta c).N = N ∧ SyncAll (ks.cta c).prog N) →
    ∀ (sm : Nat → Nat → V) (gm : Nat → V),
      GridSafe (fun c => (ks.cta c).prog) G N ks.ctas (ginit (fun c => (ks.cta c).regs0) sm gm)


/-- The link to the shadow model across CTAs (`GridRace.lean`): if histories of the global
addresses in the executor's order, without benign stores, report nothing and hold every access
of the traces, the traces' footprints are disjoint across CTAs.  (So `XRaceCheckComplete` holds
of a run whose check across CTAs is `GRace.reportsX` over such histories.) -/
theorem xdisjoint_traces_of_hist (G : Nat → Bool) {F : Type} (sr : SideRun F)
    (hist : Nat → List GRace.XEv) (hso : ∀ a, GRace.Sorted 0 (hist a))
    (hr : ∀ a, GRace.Resp (hist a))
    (hnb : ∀ a e, Race.In e (hist a) → e.kind = GRace.XKind.store true → False)
    (hno : ∀ a, GRace.reportsX GRace.XSh.empty (hist a) = false)
    (hh : ∀ c a, c < sr.ctas → (TRd G sr c a → GRace.RdH hist c a) ∧
      (TWr G sr c a → GRace.WrH hist c a) ∧ (TAt G sr c a → GRace.AtH hist c a)) :
    XDisjointSeq sr.ctas (TRd G sr) (TWr G sr) (TAt G sr) :=
  xdisjoint_mono (GRace.xdisjoint_of_noReport sr.ctas hist hso hr hnb hno)
    (fun c a hc h => (hh c a hc).1 h) (fun c a hc h => (hh c a hc).2.1 h)
    (fun c a hc h => (hh c a hc).2.2 h)

end GridHyps

section GridSound

variable {T D S K F C V : Type} [DecidableEq D] [DecidableEq K] [AccAdd V]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- One kernel: a faithful run without findings, whose traces have no race and no deadlock in
any CTA and footprints disjoint across CTAs, gives `KernelGridSafe`. -/
theorem kernelGridSafe_of_run (G : Nat → Bool) (ks : KernelSem V) {F : Type} (sr : SideRun F)
    (hfaith : SideFaithful ks sr) (hcomp : sr.complete = true)
    (hnr : ∀ c, c < sr.ctas → ¬TraceRace (sr.trace c) (sr.threads c))
    (hnd : ∀ c, c < sr.ctas → ¬TraceDeadlock (sr.trace c) (sr.threads c))
    (hx : XDisjointSeq sr.ctas (TRd G sr) (TWr G sr) (TAt G sr)) : KernelGridSafe G ks := by
  intro N hN sm gm
  match hfaith hcomp with
  | ⟨hctas, hcta⟩ =>
    have hsync : ∀ c, c < ks.ctas → SyncAll (ks.cta c).prog N := fun c hc => (hN c hc).2
    have hind := gDataIndep_RU (fun c => (ks.cta c).prog) ks.ctas (fun c => (ks.cta c).regs0)
      (fun c hc => (hcta c hc).2.1)
    have hR0 : ∀ c, c < ks.ctas → ∀ i, RU (fun c => (ks.cta c).prog) (fun c => (ks.cta c).regs0)
        c i 0 ((ks.cta c).regs0 i) ((ks.cta c).regs0 i) := fun c hc => (hind c hc).2
    have hl := glaunch_ginit N ks.ctas _ (fun c => (ks.cta c).regs0) sm gm hR0
    -- the traces are the solo traces' shapes, read with the global memory `gm`
    have htr : ∀ c, c < ks.ctas → ∀ i k, i < N →
        sr.trace c i k = shape (soloAct (ks.cta c).prog (ks.cta c).regs0 gm i k) := by
      intro c hc i k hi
      have hiN : i < (ks.cta c).N := by rw [(hN c hc).1]; exact hi
      exact (hcta c hc).2.2 gm i k hiN
    have hthr : ∀ c, c < ks.ctas → sr.threads c = N := fun c hc =>
      Eq.trans (hcta c hc).1 (hN c hc).1
    have hnr' : ∀ c, c < ks.ctas → ¬EpochRace (ks.cta c).prog N (ks.cta c).regs0 gm := by
      intro c hc he
      have hc' : c < sr.ctas := by rw [hctas]; exact hc
      have h := hnr c hc'
      rw [hthr c hc] at h
      exact h (traceRace_of_epochRace _ N _ gm (sr.trace c) (fun i k hi => htr c hc i k hi) he)
    have hnd' : ∀ c, c < ks.ctas → ¬EpochDeadlock (ks.cta c).prog N (ks.cta c).regs0 gm := by
      intro c hc he
      have hc' : c < sr.ctas := by rw [hctas]; exact hc
      have h := hnd c hc'
      rw [hthr c hc] at h
      exact h (traceDeadlock_of_epochDeadlock _ N _ gm (sr.trace c)
        (fun i k hi => htr c hc i k hi) he)
    have hx' : XDisjointSeq ks.ctas (TRd G sr) (TWr G sr) (TAt G sr) := by
      rw [← hctas]; exact hx
    have hdis : XDisjointSeq ks.ctas
        (SoloRd (fun c => (ks.cta c).prog) G N (fun c => (ks.cta c).regs0) gm)
        (SoloWr (fun c => (ks.cta c).prog) G N (fun c => (ks.cta c).regs0) gm)
        (SoloAt (fun c => (ks.cta c).prog) G N (fun c => (ks.cta c).regs0) gm) := by
      apply xdisjoint_mono hx'
      · intro c a hc h
        match h with
        | ⟨hG, i, k, hi, hk⟩ =>
          exact ⟨hG, i, k, by rw [hthr c hc]; exact hi, by rw [htr c hc i k hi]; exact hk⟩
      · intro c a hc h
        match h with
        | ⟨hG, i, k, hi, hk⟩ =>
          exact ⟨hG, i, k, by rw [hthr c hc]; exact hi, by rw [htr c hc i k hi]; exact hk⟩
      · intro c a hc h
        match h with
        | ⟨hG, i, k, hi, hk⟩ =>
          exact ⟨hG, i, k, by rw [hthr c hc]; exact hi, by rw [htr c hc i k hi]; exact hk⟩
    exact gridSafe_of_checks (fun c => (ks.cta c).prog) G N ks.ctas _ (fun c => (ks.cta c).regs0)
      gm hsync hind hl hnr' hnd' hdis

/-- **Soundness of `check` for the grid** (the safety part of `check_sound`, for all CTAs over
one global memory).  Under `RunsWanted`, `ExecFaithful`, `RaceCheckComplete`,
`DeadlockCheckComplete` and `XRaceCheckComplete X G`, if `check` accepts, the embedded specs
parse to some `pair` and every kernel with a `Safe` claim is `KernelGridSafe G` in the
semantics of its text. -/
theorem check_grid_safe (sem : S → Kernel → T → KernelSem V) (G : Nat → Bool)
    (hwant : RunsWanted X) (hfaith : ExecFaithful X sem)
    (hrace : RaceCheckComplete X) (hdead : DeadlockCheckComplete X)
    (hxrace : XRaceCheckComplete X G)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelGridSafe G (sem pair k (pick refPtx optPtx k)) := by
  match check_parts h with
  | ⟨_, pair, pr, hp, hr, _, hsideOk, _⟩ =>
    refine ⟨pair, hp, ?_⟩
    intro k hk
    match hwant _ _ _ _ _ _ hr k (pick_claimed cert k hk) with
    | ⟨sr, hsr⟩ =>
      have hok : sideOk (some sr) = true := by rw [← hsr]; exact hsideOk k
      match sideOk_some hok with
      | ⟨hfind, hcomp⟩ =>
        exact kernelGridSafe_of_run G _ sr (hfaith _ _ _ _ _ _ k sr hr hsr) hcomp
          (hrace _ _ _ _ _ _ k sr hr hsr hfind) (hdead _ _ _ _ _ _ k sr hr hsr hfind)
          (hxrace _ _ _ _ _ _ k sr hr hsr hfind)

end GridSound


/-! ### Not vacuous: a grid of two CTAs that is `GridSafe` -/

namespace Grid

section Example

/-- Each CTA's one thread loads global address 10, stores the loaded value at global address
`c` (its CTA id), and exits.  Both CTAs read address 10; each writes its own address. -/
def xProg : GProg Nat := fun c _ pc regs =>
  match pc with
  | 0 => Act.read 10 0 1
  | 1 => Act.write c (regs 0) 2
  | _ => Act.exit

theorem xshape (c i pc : Nat) (regs : Nat → Nat) :
    shape (xProg c i pc regs) = AShape.read 10 ∨ shape (xProg c i pc regs) = AShape.write c ∨
      shape (xProg c i pc regs) = AShape.exit := by
  cases pc with
  | zero => exact Or.inl rfl
  | succ pc =>
    cases pc with
    | zero => exact Or.inr (Or.inl rfl)
    | succ pc => exact Or.inr (Or.inr rfl)

theorem xProg_syncAll (c : Nat) : SyncAll (xProg c) 1 := by
  intro i pc regs b n w pc' h
  cases pc with
  | zero => cases h
  | succ pc =>
    cases pc with
    | zero => cases h
    | succ pc => cases h

theorem xProg_dataIndep (c : Nat) : DataIndep (xProg c) (fun _ _ _ _ => True) := by
  intro i pc regs regs' _
  cases pc with
  | zero => exact ⟨rfl, rfl, rfl, fun _ _ => True.intro⟩
  | succ pc =>
    cases pc with
    | zero => exact ⟨rfl, rfl, True.intro⟩
    | succ pc => exact True.intro

def xRegs : Nat → Nat → Nat → Nat := fun _ _ _ => 0

theorem xsolo_shape (c i k : Nat) :
    shape (soloAct (xProg c) (xRegs c) (fun _ => 0) i k) = AShape.read 10 ∨
      shape (soloAct (xProg c) (xRegs c) (fun _ => 0) i k) = AShape.write c ∨
      shape (soloAct (xProg c) (xRegs c) (fun _ => 0) i k) = AShape.exit :=
  xshape c i _ _

theorem x_soloRd {c a : Nat} (h : SoloRd xProg allG 1 xRegs (fun _ => 0) c a) : a = 10 := by
  match h with
  | ⟨_, i, k, _, hk⟩ =>
    cases xsolo_shape c i k with
    | inl h1 => rw [h1] at hk; cases hk; rfl
    | inr h1 =>
      cases h1 with
      | inl h2 => rw [h2] at hk; cases hk
      | inr h2 => rw [h2] at hk; cases hk

theorem x_soloWr {c a : Nat} (h : SoloWr xProg allG 1 xRegs (fun _ => 0) c a) : a = c := by
  match h with
  | ⟨_, i, k, _, hk⟩ =>
    cases xsolo_shape c i k with
    | inl h1 => rw [h1] at hk; cases hk
    | inr h1 =>
      cases h1 with
      | inl h2 => rw [h2] at hk; cases hk; rfl
      | inr h2 => rw [h2] at hk; cases hk

theorem x_soloAt {c a : Nat} (h : SoloAt xProg allG 1 xRegs (fun _ => 0) c a) : False := by
  match h with
  | ⟨_, i, k, _, hk⟩ =>
    cases xsolo_shape c i k with
    | inl h1 => rw [h1] at hk; cases hk
    | inr h1 =>
      cases h1 with
      | inl h2 => rw [h2] at hk; cases hk
      | inr h2 => rw [h2] at hk; cases hk

theorem ten_not_lt_two (h : 10 < 2) : False := absurd h (by decide)

/-- The solo global footprints of the two CTAs are disjoint in the sense of the Rust check. -/
theorem xProg_disjoint :
    XDisjointSeq 2 (SoloRd xProg allG 1 xRegs (fun _ => 0)) (SoloWr xProg allG 1 xRegs (fun _ => 0))
      (SoloAt xProg allG 1 xRegs (fun _ => 0)) := by
  intro c d hcd hd a
  have hc : c < 2 := Nat.ltTrans hcd hd
  refine ⟨?_, fun _ y => x_soloAt y, ?_, ?_, fun _ y => x_soloAt y, fun x _ => x_soloAt x,
    fun x _ => x_soloAt x⟩
  · intro x y
    have e1 := x_soloRd x
    have e2 := x_soloWr y
    rw [e1] at e2
    rw [← e2] at hd
    exact ten_not_lt_two hd
  · intro x y
    have e1 := x_soloWr x
    have e2 := x_soloRd y
    rw [e1] at e2
    rw [e2] at hc
    exact ten_not_lt_two hc
  · intro x y
    have e1 := x_soloWr x
    have e2 := x_soloWr y
    rw [e1] at e2
    rw [e2] at hcd
    exact Nat.ltIrrefl d hcd

theorem xProg_noRace (c : Nat) : ¬EpochRace (xProg c) 1 (xRegs c) (fun _ => 0) := by
  intro h
  match h with
  | ⟨i, j, _, _, hij, hi, hj, _, _⟩ => exact hij (Eq.trans (lt_one_eq hi) (Eq.symm (lt_one_eq hj)))

theorem xProg_noDeadlock (c : Nat) : ¬EpochDeadlock (xProg c) 1 (xRegs c) (fun _ => 0) := by
  intro h
  match h with
  | ⟨_, i, _, _, _, _, ⟨k, n, w, pc, _, hk⟩, _⟩ =>
    have hs := congrArg shape hk
    cases xsolo_shape c i k with
    | inl h1 => rw [h1] at hs; cases hs
    | inr h1 =>
      cases h1 with
      | inl h2 => rw [h2] at hs; cases hs
      | inr h2 => rw [h2] at hs; cases hs

/-- From every launch, the two-CTA grid of `xProg` is `GridSafe`: race free within and across
CTAs, one final state (global memory included) for every complete schedule, none stuck. -/
theorem xProg_gridSafe (sm : Nat → Nat → Nat) (gm : Nat → Nat) :
    GridSafe xProg allG 1 2 (ginit xRegs sm gm) :=
  gridSafe_of_checks xProg allG 1 2 (fun _ _ _ _ _ => True) xRegs (fun _ => 0)
    (fun c _ => xProg_syncAll c) (fun c _ => ⟨xProg_dataIndep c, fun _ => True.intro⟩)
    (glaunch_ginit 1 2 _ xRegs sm gm (fun _ _ _ => True.intro)) (fun c _ => xProg_noRace c)
    (fun c _ => xProg_noDeadlock c) xProg_disjoint

end Example

end Grid


/-! ### Not vacuous at the checker level: a two-CTA run that `check` accepts -/

section XExample

open Examples Grid

/-- The executor's trace of thread `i` of CTA `c` of `xProg`. -/
def xTrace (c : Nat) : Trace := fun _ k =>
  match k with
  | 0 => AShape.read 10
  | 1 => AShape.write c
  | _ => AShape.exit

/-- A run of two CTAs of one thread, no finding. -/
def xSide : SideRun Unit :=
  { findings := [], complete := true, ctas := 2, threads := fun _ => 1, trace := xTrace }

def xPairRun (wr wo : Bool) : PairRun Int Unit :=
  { reference := cond wr (some xSide) none, optimized := cond wo (some xSide) none,
    terms := exRun }

/-- `exOracle` of `Checker.lean` with the two-CTA run. -/
def xOracle : Oracle Nat Nat Unit Int Unit :=
  { sha256 := fun t => t, specDigest := fun a b c => a + b + c,
    fromTexts := fun _ _ _ => some (), outputs := fun _ => 1,
    runPair := fun _ _ _ wr wo => some (xPairRun wr wo) }

theorem xCert_accepted : check xOracle intFieldOps exCert 1 2 = true := rfl

/-- The semantics: every kernel is two CTAs of `xProg` (one thread each). -/
def xSem : Unit → Kernel → Nat → KernelSem Nat :=
  fun _ _ _ => ⟨2, fun c => ⟨xProg c, 1, xRegs c⟩⟩

theorem x_step_pc (c i : Nat) (S : TState Nat) (m0 : Nat → Nat) (h : S.pc = 2) :
    (newT (xProg c i S.pc S.regs) false S m0).pc = 2 := by
  rw [h]
  exact h

theorem xProg_pc (c : Nat) (m0 : Nat → Nat) (i : Nat) :
    ∀ k, (solo (xProg c) (xRegs c) m0 i (Nat.succ (Nat.succ k))).pc = 2 := by
  intro k
  induction k with
  | zero => rfl
  | succ k ih =>
    exact Eq.trans (congrArg TState.pc (solo_succ' (xProg c) (xRegs c) m0 i
      (Nat.succ (Nat.succ k)))) (x_step_pc c i _ m0 ih)

theorem xTrace_faithful (c : Nat) (m0 : Nat → Nat) (i k : Nat) :
    xTrace c i k = shape (soloAct (xProg c) (xRegs c) m0 i k) := by
  cases k with
  | zero => rfl
  | succ k =>
    cases k with
    | zero => rfl
    | succ k =>
      rw [soloAct_def, xProg_pc c m0 i k]
      rfl

theorem x_side {wr wo : Bool} {k : Kernel} {sr : SideRun Unit}
    (h : (xPairRun wr wo).side k = some sr) : sr = xSide := by
  cases k with
  | reference =>
    cases wr with
    | false => cases h
    | true =>
      have h' : some xSide = some sr := h
      cases h'
      rfl
  | optimized =>
    cases wo with
    | false => cases h
    | true =>
      have h' : some xSide = some sr := h
      cases h'
      rfl

theorem x_runsWanted : RunsWanted xOracle := by
  intro _ _ _ wr wo pr h k hk
  have h' : some (xPairRun wr wo) = some pr := h
  cases h'
  cases k with
  | reference =>
    have hw : wr = true := hk
    rw [hw]
    exact ⟨xSide, rfl⟩
  | optimized =>
    have hw : wo = true := hk
    rw [hw]
    exact ⟨xSide, rfl⟩

theorem x_execFaithful : ExecFaithful xOracle xSem := by
  intro _ _ _ wr wo pr k sr h hs
  have h' : some (xPairRun wr wo) = some pr := h
  cases h'
  rw [x_side hs]
  intro _
  refine ⟨rfl, ?_⟩
  intro c _
  exact ⟨rfl, ⟨fun _ _ _ _ => True, xProg_dataIndep c, fun _ => True.intro⟩,
    fun m0 i k _ => xTrace_faithful c m0 i k⟩

theorem lt_one_ne {i j : Nat} (hij : i ≠ j) (hi : i < 1) (hj : j < 1) : False :=
  hij (Eq.trans (lt_one_eq hi) (Eq.symm (lt_one_eq hj)))

theorem x_raceCheckComplete : RaceCheckComplete xOracle := by
  intro _ _ _ wr wo pr k sr h hs _ c _
  have h' : some (xPairRun wr wo) = some pr := h
  cases h'
  rw [x_side hs]
  intro ⟨i, j, _, _, hij, hi, hj, _, _⟩
  exact lt_one_ne hij hi hj

theorem xTrace_not_arrive {c i k b n : Nat} {w : Bool} (h : xTrace c i k = AShape.arrive b n w) :
    False := by
  cases k with
  | zero => cases h
  | succ k =>
    cases k with
    | zero => cases h
    | succ k => cases h

theorem x_deadlockCheckComplete : DeadlockCheckComplete xOracle := by
  intro _ _ _ wr wo pr k sr h hs _ c _
  have h' : some (xPairRun wr wo) = some pr := h
  cases h'
  rw [x_side hs]
  intro ⟨_, i, _, _, _, _, ⟨_, _, _, _, ha⟩, _⟩
  exact xTrace_not_arrive (c := c) (i := i) ha

theorem x_tRd {c a : Nat} (h : TRd allG xSide c a) : a = 10 := by
  match h with
  | ⟨_, i, k, _, hk⟩ =>
    cases k with
    | zero => cases hk; rfl
    | succ k =>
      cases k with
      | zero => cases hk
      | succ k => cases hk

theorem x_tWr {c a : Nat} (h : TWr allG xSide c a) : a = c := by
  match h with
  | ⟨_, i, k, _, hk⟩ =>
    cases k with
    | zero => cases hk
    | succ k =>
      cases k with
      | zero => cases hk; rfl
      | succ k => cases hk

theorem x_tAt {c a : Nat} (h : TAt allG xSide c a) : False := by
  match h with
  | ⟨_, i, k, _, hk⟩ =>
    cases k with
    | zero => cases hk
    | succ k =>
      cases k with
      | zero => cases hk
      | succ k => cases hk

/-- The check across CTAs is satisfiable with two CTAs that share a read-only address. -/
theorem x_xRaceCheckComplete : XRaceCheckComplete xOracle allG := by
  intro _ _ _ wr wo pr k sr h hs _
  have h' : some (xPairRun wr wo) = some pr := h
  cases h'
  rw [x_side hs]
  intro c d hcd hd a
  have hc : c < 2 := Nat.ltTrans hcd hd
  refine ⟨?_, fun _ y => x_tAt y, ?_, ?_, fun _ y => x_tAt y, fun x _ => x_tAt x,
    fun x _ => x_tAt x⟩
  · intro x y
    have e1 := x_tRd x
    have e2 := x_tWr y
    rw [e1] at e2
    rw [← e2] at hd
    exact ten_not_lt_two hd
  · intro x y
    have e1 := x_tWr x
    have e2 := x_tRd y
    rw [e1] at e2
    rw [e2] at hc
    exact ten_not_lt_two hc
  · intro x y
    have e1 := x_tWr x
    have e2 := x_tWr y
    rw [e1] at e2
    rw [e2] at hcd
    exact Nat.ltIrrefl d hcd

/-- `check_grid_safe` applied to the accepted two-CTA instance: the reference kernel is safe
as a grid, global memory included. -/
theorem x_gridSafe : KernelGridSafe allG (xSem () Kernel.reference 1) :=
  match check_grid_safe xSem allG x_runsWanted x_execFaithful x_raceCheckComplete
      x_deadlockCheckComplete x_xRaceCheckComplete exCert 1 2 xCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end XExample

end Kcert
