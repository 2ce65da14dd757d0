import Kcert.Semantics

/-!
# Interleaving semantics of a grid of CTAs over one global memory

Rust: `checker/src/exec/mod.rs` (the CTAs of the grid run one after another over one global
memory, each with fresh shared memory: `run_cta`), `checker/src/exec/access.rs` (which memory an
access hits), `checker/src/exec/race.rs` (`Epoch.cta`; `Clocks::ordered`: threads of different
CTAs are never ordered).

A grid is `C` CTAs of `N` threads each.  CTA `c` runs the one-CTA program `gp c` (one kernel
is `fun _ => prog`, with the CTA id in the launch registers).  Each CTA has its own threads,
registers, barriers and shared memory (a `Sem.CState`, `GState.cs c`); all CTAs share one
global memory (`GState.gmem`).  Which addresses are global is fixed by `G : Nat → Bool`
(`G a = true`: global; `false`: the CTA's shared memory): an access of a thread of CTA `c` to
address `a` hits the global memory if `G a`, else CTA `c`'s shared memory.

The step of thread `i` of CTA `c` (`gnext`) is the one-CTA step `Sem.next` on CTA `c`'s view
of memory (`view`: global memory at global addresses, its own shared memory elsewhere); the
memory it leaves is written back, global addresses to the global memory, the others to CTA
`c`'s shared memory.  Barriers are per CTA (`Sem.next` counts only CTA `c`'s threads).  A
schedule (`GStep`, `GReach`) interleaves all threads of all CTAs.

States are compared pointwise (`GSame`), at every CTA's threads, arrival counts and shared
addresses, and at every global address; the shared part of `gmem` and the global part of each
CTA's own memory are never read.

* `XConflict`: two actions conflict across CTAs when they conflict (`Sem.Conflict`: same
  address, one a plain write, or one an atomic addition and the other plain) at a global
  address.  Threads of different CTAs are never ordered, so such a pair is always a race.
  Atomic additions of different CTAs to one global address do not conflict: the model treats
  every atomic addition as atomic for the whole grid (PTX `.gpu` scope).  A `.cta`-scope atomic
  beside another CTA's access is a race in the Rust check (`Shadow::atomic`), which is
  stricter than this model.
* `GridRaceFree`: in no reachable state are two running threads of one CTA about to do
  conflicting actions (`Sem.Conflict`, shared or global), nor two running threads of different
  CTAs about to do actions that conflict across CTAs (`XConflict`).
* `gdiamond_same`, `gdiamond_cross`: the diamonds, for two threads of one CTA (from
  `Sem.next_comm_gen`) and for two threads of different CTAs.
* `gconfluence`: under `GridRaceFree` and per-CTA `GBarriersFit`, all final states reachable
  from one state are the same (`GSame`: in particular the same global memory).
  `gno_stuck`: if one schedule finishes, no schedule gets stuck.
* The executor's sequential run (`SeqRun`: CTA 0 to completion, then CTA 1, ...) is a schedule
  (`seqRun_reach`); under the same hypotheses its final state is every schedule's
  (`seq_representative`, `seq_no_stuck`); with footprints (`GFootprint`, `XDisjointSeq`) in
  place of the cross-CTA half of race freedom: `seq_representative_fp`.
* Not vacuous: `wProg` (each CTA's thread stores its CTA id at one global address) has two
  schedules with different final global memory (`cross_race_two_finals`) and is not
  `GridRaceFree` (`wProg_not_raceFree`).
-/

namespace Kcert
namespace Grid

open Sem

/-- The grid: per CTA its threads, shared memory and barrier counts; one global memory. -/
structure GState (V : Type) where
  cs : Nat → CState V
  gmem : Nat → V

/-- A program per CTA. -/
def GProg (V : Type) : Type := Nat → Prog V

section Defs

variable {V : Type} [AccAdd V]

/-- `g` at global addresses, `m` elsewhere. -/
def merge (G : Nat → Bool) (g m : Nat → V) : Nat → V := fun x => cond (G x) (g x) (m x)

/-- CTA `c`'s view: its threads and barrier counts, the global memory at global addresses and
its shared memory elsewhere. -/
def view (G : Nat → Bool) (s : GState V) (c : Nat) : CState V :=
  { th := (s.cs c).th, mem := merge G s.gmem (s.cs c).mem, arr := (s.cs c).arr }

/-- Thread `i` of CTA `c`'s next action. -/
def gact (gp : GProg V) (G : Nat → Bool) (c i : Nat) (s : GState V) : Act V :=
  act (gp c) i (view G s c)

/-- Thread `i` of CTA `c` (of `N` threads) does its next action: the one-CTA step on CTA `c`'s
view; the memory it leaves goes back to CTA `c`'s shared memory and to the global memory (only
their shared, resp. global, addresses are ever read). -/
def gnext (gp : GProg V) (G : Nat → Bool) (N c i : Nat) (s : GState V) : GState V :=
  { cs := upd s.cs c (next (gp c) N i (view G s c)),
    gmem := (next (gp c) N i (view G s c)).mem }

/-- Pointwise equality of grid states: every CTA's threads, barrier counts and shared
addresses, and every global address. -/
def GSame (G : Nat → Bool) (s t : GState V) : Prop :=
  (∀ c k, (s.cs c).th k = (t.cs c).th k) ∧ (∀ c b, (s.cs c).arr b = (t.cs c).arr b) ∧
    (∀ c x, G x = false → (s.cs c).mem x = (t.cs c).mem x) ∧
      ∀ x, G x = true → s.gmem x = t.gmem x

/-- Thread `i < N` of CTA `c < C`, running, does its next action. -/
def GStepT (gp : GProg V) (G : Nat → Bool) (N C c i : Nat) (s s' : GState V) : Prop :=
  c < C ∧ i < N ∧ ((s.cs c).th i).status = Status.run ∧ GSame G s' (gnext gp G N c i s)

/-- One step of some thread of some CTA. -/
def GStep (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s s' : GState V) : Prop :=
  ∃ c i, GStepT gp G N C c i s s'

/-- Reflexive-transitive closure of `GStep`: the schedules interleave all threads of all
CTAs. -/
inductive GReach (gp : GProg V) (G : Nat → Bool) (N C : Nat) : GState V → GState V → Prop where
  | refl (s : GState V) : GReach gp G N C s s
  | step {s t u : GState V} : GStep gp G N C s t → GReach gp G N C t u → GReach gp G N C s u

/-- Every thread of every CTA has exited. -/
def GFinal (N C : Nat) (s : GState V) : Prop :=
  ∀ c, c < C → ∀ k, k < N → ((s.cs c).th k).status = Status.exited

/-- Whether the action accesses a global address. -/
def gAddr (G : Nat → Bool) : Act V → Bool
  | Act.read a _ _ => G a
  | Act.write a _ _ => G a
  | Act.atomAdd a _ _ => G a
  | Act.compute _ _ => false
  | Act.arrive _ _ _ _ => false
  | Act.exit => false

/-- Two actions of threads of different CTAs conflict: they conflict (`Sem.Conflict`) and the
address is global.  (Threads of different CTAs never share a shared address; they are never
ordered, so such a pair is a race.) -/
def XConflict (G : Nat → Bool) (A B : Act V) : Prop := Conflict A B ∧ gAddr G A = true

/-- Race freedom of the grid: in no state reachable from `s0` are two running threads of one CTA
about to do conflicting actions, nor two running threads of different CTAs about to do
actions that conflict at a global address. -/
def GridRaceFree (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s0 : GState V) : Prop :=
  ∀ r, GReach gp G N C s0 r →
    (∀ c, c < C → ∀ i j, i ≠ j → i < N → j < N →
      ((r.cs c).th i).status = Status.run → ((r.cs c).th j).status = Status.run →
        ¬Conflict (gact gp G c i r) (gact gp G c j r)) ∧
    (∀ c d, c ≠ d → c < C → d < C → ∀ i j, i < N → j < N →
      ((r.cs c).th i).status = Status.run → ((r.cs d).th j).status = Status.run →
        ¬XConflict G (gact gp G c i r) (gact gp G d j r))

/-- Per-CTA barrier discipline (`Sem.BarriersFit` in every CTA, in every reachable grid
state). -/
def GBarriersFit (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s0 : GState V) : Prop :=
  ∀ r, GReach gp G N C s0 r → ∀ c, c < C → ∀ i j, i ≠ j → i < N → j < N →
    ((r.cs c).th i).status = Status.run → ((r.cs c).th j).status = Status.run →
      BarFits N (view G r c) (gact gp G c i r) (gact gp G c j r)

end Defs

section Basic

variable {V : Type} [AccAdd V]

theorem gsame_refl (G : Nat → Bool) (s : GState V) : GSame G s s :=
  ⟨fun _ _ => rfl, fun _ _ => rfl, fun _ _ _ => rfl, fun _ _ => rfl⟩

theorem gsame_symm {G : Nat → Bool} {s t : GState V} (h : GSame G s t) : GSame G t s :=
  ⟨fun c k => Eq.symm (h.1 c k), fun c b => Eq.symm (h.2.1 c b),
    fun c x hx => Eq.symm (h.2.2.1 c x hx), fun x hx => Eq.symm (h.2.2.2 x hx)⟩

theorem gsame_trans {G : Nat → Bool} {s t u : GState V} (h1 : GSame G s t) (h2 : GSame G t u) :
    GSame G s u :=
  ⟨fun c k => Eq.trans (h1.1 c k) (h2.1 c k), fun c b => Eq.trans (h1.2.1 c b) (h2.2.1 c b),
    fun c x hx => Eq.trans (h1.2.2.1 c x hx) (h2.2.2.1 c x hx),
    fun x hx => Eq.trans (h1.2.2.2 x hx) (h2.2.2.2 x hx)⟩

theorem view_same {G : Nat → Bool} {s t : GState V} (h : GSame G s t) (c : Nat) :
    Same (view G s c) (view G t c) := by
  refine ⟨fun k => h.1 c k, ?_, fun b => h.2.1 c b⟩
  intro x
  show cond (G x) (s.gmem x) ((s.cs c).mem x) = cond (G x) (t.gmem x) ((t.cs c).mem x)
  cases hx : G x with
  | true => exact h.2.2.2 x hx
  | false => exact h.2.2.1 c x hx

theorem gnext_cs_self (gp : GProg V) (G : Nat → Bool) (N c i : Nat) (s : GState V) :
    (gnext gp G N c i s).cs c = next (gp c) N i (view G s c) :=
  upd_same s.cs c _

theorem gnext_cs_other (gp : GProg V) (G : Nat → Bool) (N c i : Nat) (s : GState V) {e : Nat}
    (h : e ≠ c) : (gnext gp G N c i s).cs e = s.cs e :=
  upd_other s.cs _ h

theorem gnext_gmem (gp : GProg V) (G : Nat → Bool) (N c i : Nat) (s : GState V) :
    (gnext gp G N c i s).gmem = (next (gp c) N i (view G s c)).mem := rfl

/-- Two grid steps agree when the one-CTA steps of CTA `c` agree and the other CTAs agree. -/
theorem gsame_of_next (gp : GProg V) (G : Nat → Bool) (N c i j : Nat) {s t : GState V}
    (hn : Same (next (gp c) N i (view G s c)) (next (gp c) N j (view G t c)))
    (ho : ∀ e, e ≠ c → (∀ k, (s.cs e).th k = (t.cs e).th k) ∧ (∀ b, (s.cs e).arr b = (t.cs e).arr b) ∧
      ∀ x, G x = false → (s.cs e).mem x = (t.cs e).mem x) :
    GSame G (gnext gp G N c i s) (gnext gp G N c j t) := by
  refine ⟨?_, ?_, ?_, ?_⟩
  · intro e k
    cases Nat.decEq e c with
    | isTrue he => rw [he, gnext_cs_self, gnext_cs_self]; exact hn.1 k
    | isFalse he => rw [gnext_cs_other gp G N c i s he, gnext_cs_other gp G N c j t he]; exact (ho e he).1 k
  · intro e b
    cases Nat.decEq e c with
    | isTrue he => rw [he, gnext_cs_self, gnext_cs_self]; exact hn.2.2 b
    | isFalse he => rw [gnext_cs_other gp G N c i s he, gnext_cs_other gp G N c j t he]; exact (ho e he).2.1 b
  · intro e x hx
    cases Nat.decEq e c with
    | isTrue he => rw [he, gnext_cs_self, gnext_cs_self]; exact hn.2.1 x
    | isFalse he =>
      rw [gnext_cs_other gp G N c i s he, gnext_cs_other gp G N c j t he]; exact (ho e he).2.2 x hx
  · intro x _
    rw [gnext_gmem, gnext_gmem]
    exact hn.2.1 x

/-- `gnext` respects pointwise equality. -/
theorem gnext_congr (gp : GProg V) (G : Nat → Bool) (N c i : Nat) {s t : GState V}
    (h : GSame G s t) : GSame G (gnext gp G N c i s) (gnext gp G N c i t) :=
  gsame_of_next gp G N c i i (next_congr (gp c) N i (view_same h c))
    (fun e _ => ⟨h.1 e, h.2.1 e, h.2.2.1 e⟩)

/-- CTA `c`'s view after its own step is the one-CTA step. -/
theorem view_gnext_self (gp : GProg V) (G : Nat → Bool) (N c i : Nat) (s : GState V) :
    Same (view G (gnext gp G N c i s) c) (next (gp c) N i (view G s c)) := by
  refine ⟨?_, ?_, ?_⟩
  · intro k
    show ((gnext gp G N c i s).cs c).th k = _
    rw [gnext_cs_self]
  · intro x
    show cond (G x) ((gnext gp G N c i s).gmem x) (((gnext gp G N c i s).cs c).mem x) = _
    rw [gnext_cs_self, gnext_gmem]
    cases G x <;> rfl
  · intro b
    show ((gnext gp G N c i s).cs c).arr b = _
    rw [gnext_cs_self]

/-- Another thread's step, of any CTA, leaves a running thread alone. -/
theorem gnext_th_run (gp : GProg V) (G : Nat → Bool) (N c i d j : Nat) (s : GState V)
    (hne : c ≠ d ∨ i ≠ j) (hr : ((s.cs d).th j).status = Status.run) :
    ((gnext gp G N c i s).cs d).th j = (s.cs d).th j := by
  cases Nat.decEq d c with
  | isTrue hdc =>
    rw [hdc, gnext_cs_self]
    rw [hdc] at hr
    have hji : j ≠ i := by
      cases hne with
      | inl h => exact False.elim (h (Eq.symm hdc))
      | inr h => exact fun e => h (Eq.symm e)
    exact next_th_run (gp c) N i (view G s c) hji hr
  | isFalse hdc => rw [gnext_cs_other gp G N c i s hdc]

theorem gstepT_run {gp : GProg V} {G : Nat → Bool} {N C c i d j : Nat} {s s1 : GState V}
    (h1 : GStepT gp G N C c i s s1) (hne : c ≠ d ∨ i ≠ j)
    (hr : ((s.cs d).th j).status = Status.run) : ((s1.cs d).th j).status = Status.run := by
  rw [h1.2.2.2.1 d j, gnext_th_run gp G N c i d j s hne hr]
  exact hr

/-- The relational diamond from the commutation of `gnext`. -/
theorem gdiamond_of_comm {gp : GProg V} {G : Nat → Bool} {N C c i d j : Nat}
    {s s1 s2 : GState V} (hne : c ≠ d ∨ i ≠ j)
    (h1 : GStepT gp G N C c i s s1) (h2 : GStepT gp G N C d j s s2)
    (hcomm : GSame G (gnext gp G N d j (gnext gp G N c i s)) (gnext gp G N c i (gnext gp G N d j s))) :
    ∃ s3, GStepT gp G N C d j s1 s3 ∧ GStepT gp G N C c i s2 s3 := by
  have hne' : d ≠ c ∨ j ≠ i := by
    cases hne with
    | inl h => exact Or.inl (fun e => h (Eq.symm e))
    | inr h => exact Or.inr (fun e => h (Eq.symm e))
  have hrj1 := gstepT_run h1 hne h2.2.2.1
  have hri2 := gstepT_run h2 hne' h1.2.2.1
  refine ⟨gnext gp G N d j s1, ⟨h2.1, h2.2.1, hrj1, gsame_refl G _⟩, ⟨h1.1, h1.2.1, hri2, ?_⟩⟩
  exact gsame_trans (gnext_congr gp G N d j h1.2.2.2)
    (gsame_trans hcomm (gsame_symm (gnext_congr gp G N c i h2.2.2.2)))

end Basic

section Diamonds

variable {V : Type} [AccAdd V]

/-- Two steps of one CTA commute when their actions do not conflict and their barriers fit
(`Sem.next_comm_gen` on the CTA's view). -/
theorem gnext_comm_same (gp : GProg V) (G : Nat → Bool) (N c i j : Nat) (s : GState V)
    (hij : i ≠ j) (hi : i < N) (hj : j < N)
    (hri : ((s.cs c).th i).status = Status.run) (hrj : ((s.cs c).th j).status = Status.run)
    (hc : ¬Conflict (gact gp G c i s) (gact gp G c j s))
    (hb : BarFits N (view G s c) (gact gp G c i s) (gact gp G c j s)) :
    GSame G (gnext gp G N c j (gnext gp G N c i s)) (gnext gp G N c i (gnext gp G N c j s)) := by
  have e1 := next_congr (gp c) N j (view_gnext_self gp G N c i s)
  have e2 := next_congr (gp c) N i (view_gnext_self gp G N c j s)
  have hcomm := next_comm_gen (gp c) N (view G s c) hij hi hj hri hrj hc hb
  apply gsame_of_next gp G N c j i (same_trans e1 (same_trans hcomm (same_symm e2)))
  intro e he
  rw [gnext_cs_other gp G N c i s he, gnext_cs_other gp G N c j s he]
  exact ⟨fun _ => rfl, fun _ => rfl, fun _ _ => rfl⟩

/-- The diamond for two threads of one CTA. -/
theorem gdiamond_same (gp : GProg V) (G : Nat → Bool) (N C c i j : Nat) {s s1 s2 : GState V}
    (hij : i ≠ j) (h1 : GStepT gp G N C c i s s1) (h2 : GStepT gp G N C c j s s2)
    (hc : ¬Conflict (gact gp G c i s) (gact gp G c j s))
    (hb : BarFits N (view G s c) (gact gp G c i s) (gact gp G c j s)) :
    ∃ s3, GStepT gp G N C c j s1 s3 ∧ GStepT gp G N C c i s2 s3 :=
  gdiamond_of_comm (Or.inr hij) h1 h2
    (gnext_comm_same gp G N c i j s hij h1.2.1 h2.2.1 h1.2.2.1 h2.2.2.1 hc hb)

/-- Memory at a global address after an action on a merged memory: as on the global part. -/
theorem memEff_merge_g (G : Nat → Bool) (A : Act V) (g m : Nat → V) {x : Nat} (hx : G x = true) :
    memEff A (merge G g m) x = memEff A g x := by
  have hmx : merge G g m x = g x := by
    show cond (G x) (g x) (m x) = g x
    rw [hx]
    rfl
  cases A with
  | compute pc r => exact hmx
  | read a r pc => exact hmx
  | arrive b n w pc => exact hmx
  | exit => exact hmx
  | write a v pc =>
    show upd (merge G g m) a v x = upd g a v x
    cases Nat.decEq x a with
    | isTrue e => rw [e, upd_same, upd_same]
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e, hmx]
  | atomAdd a v pc =>
    show upd (merge G g m) a (AccAdd.add (merge G g m a) v) x = upd g a (AccAdd.add (g a) v) x
    cases Nat.decEq x a with
    | isTrue e => rw [e, upd_same, upd_same, ← e, hmx]
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e, hmx]

/-- Memory at a shared address after an action on a merged memory: as on the shared part. -/
theorem memEff_merge_s (G : Nat → Bool) (A : Act V) (g m : Nat → V) {x : Nat}
    (hx : G x = false) : memEff A (merge G g m) x = memEff A m x := by
  have hmx : merge G g m x = m x := by
    show cond (G x) (g x) (m x) = m x
    rw [hx]
    rfl
  cases A with
  | compute pc r => exact hmx
  | read a r pc => exact hmx
  | arrive b n w pc => exact hmx
  | exit => exact hmx
  | write a v pc =>
    show upd (merge G g m) a v x = upd m a v x
    cases Nat.decEq x a with
    | isTrue e => rw [e, upd_same, upd_same]
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e, hmx]
  | atomAdd a v pc =>
    show upd (merge G g m) a (AccAdd.add (merge G g m a) v) x = upd m a (AccAdd.add (m a) v) x
    cases Nat.decEq x a with
    | isTrue e => rw [e, upd_same, upd_same, ← e, hmx]
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e, hmx]

/-- At a global address, an action's effect depends only on the global addresses. -/
theorem memEff_congr_g (G : Nat → Bool) (A : Act V) {m m' : Nat → V}
    (h : ∀ y, G y = true → m y = m' y) {x : Nat} (hx : G x = true) :
    memEff A m x = memEff A m' x := by
  cases A with
  | compute pc r => exact h x hx
  | read a r pc => exact h x hx
  | arrive b n w pc => exact h x hx
  | exit => exact h x hx
  | write a v pc =>
    show upd m a v x = upd m' a v x
    cases Nat.decEq x a with
    | isTrue e => rw [e, upd_same, upd_same]
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e, h x hx]
  | atomAdd a v pc =>
    show upd m a (AccAdd.add (m a) v) x = upd m' a (AccAdd.add (m' a) v) x
    cases Nat.decEq x a with
    | isTrue e => rw [e, upd_same, upd_same, ← e, h x hx]
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e, h x hx]

/-- An action that touches no global address leaves every global address alone. -/
theorem memEff_notG (G : Nat → Bool) (A : Act V) (m : Nat → V) (hA : gAddr G A = false) {x : Nat}
    (hx : G x = true) : memEff A m x = m x := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | arrive b n w pc => rfl
  | exit => rfl
  | write a v pc =>
    have hxa : x ≠ a := by
      intro e
      have h' : G a = false := hA
      rw [← e, hx] at h'
      cases h'
    exact upd_other m v hxa
  | atomAdd a v pc =>
    have hxa : x ≠ a := by
      intro e
      have h' : G a = false := hA
      rw [← e, hx] at h'
      cases h'
    exact upd_other m _ hxa

/-- Conflicting actions have one address: if one is global, so is the other. -/
theorem gAddr_of_conflict (G : Nat → Bool) (A B : Act V) (h : Conflict A B)
    (hA : gAddr G A = true) : gAddr G B = true := by
  cases A <;> cases B <;> (try (cases h; done)) <;> (try cases hA) <;>
    (show G _ = true; rw [← h]; exact hA)

theorem xconflict_symm (G : Nat → Bool) (A B : Act V) (h : XConflict G A B) : XConflict G B A :=
  ⟨conflict_symm A B h.1, gAddr_of_conflict G A B h.1 h.2⟩

/-- Two actions that do not conflict across CTAs leave the same global memory in either
order. -/
theorem memEff_comm_g (G : Nat → Bool) (A B : Act V) (g : Nat → V) (h : ¬XConflict G A B)
    {x : Nat} (hx : G x = true) : memEff B (memEff A g) x = memEff A (memEff B g) x := by
  cases hA : gAddr G A with
  | false =>
    rw [memEff_congr_g G B (fun y hy => memEff_notG G A g hA hy) hx, memEff_notG G A _ hA hx]
  | true =>
    have hc : ¬Conflict B A := fun e => h ⟨conflict_symm B A e, hA⟩
    exact memEff_comm B A g hc x

/-- A one-CTA step on a state with the same threads and arrival counts, and the same value at the
address the action reads, gives the same threads and arrival counts. -/
theorem next_th_arr (prog : Prog V) (N i : Nat) {X X' : CState V} (hth : ∀ k, X.th k = X'.th k)
    (har : ∀ b, X.arr b = X'.arr b)
    (hrd : ∀ a r pc, act prog i X = Act.read a r pc → X.mem a = X'.mem a) :
    (∀ k, (next prog N i X).th k = (next prog N i X').th k) ∧
      ∀ b, (next prog N i X).arr b = (next prog N i X').arr b := by
  have ha : act prog i X = act prog i X' := by
    show prog i (X.th i).pc (X.th i).regs = prog i (X'.th i).pc (X'.th i).regs
    rw [hth i]
  have hf : ∀ A : Act V, firesA N A X = firesA N A X' := by
    intro A
    cases A with
    | compute pc r => rfl
    | read a r pc => rfl
    | write a v pc => rfl
    | atomAdd a v pc => rfl
    | exit => rfl
    | arrive b n w pc =>
      show decide (n ≤ countAt b X.th N + X.arr b + 1) = decide (n ≤ countAt b X'.th N + X'.arr b + 1)
      rw [countAt_congr b X.th X'.th (fun k => by rw [hth k]) N, har b]
  refine ⟨?_, ?_⟩
  · intro k
    cases Nat.decEq k i with
    | isTrue hk =>
      rw [hk, next_th_self, next_th_self, ← ha, ← hf, hth i]
      cases hA : act prog i X with
      | compute pc r => rfl
      | write a v pc => rfl
      | atomAdd a v pc => rfl
      | arrive b n w pc => rfl
      | exit => rfl
      | read a r pc =>
        show TState.mk pc (upd (X'.th i).regs r (X.mem a)) Status.run =
          TState.mk pc (upd (X'.th i).regs r (X'.mem a)) Status.run
        rw [hrd a r pc hA]
    | isFalse hk =>
      rw [next_th_other prog N i X hk, next_th_other prog N i X' hk, ← ha, ← hf, hth k]
  · intro b
    rw [next_arr, next_arr, ← ha, ← hf]
    exact arrEff_congr _ _ har b

/-- CTA `d`'s view after a step of another CTA `c`. -/
theorem view_gnext_other_th (gp : GProg V) (G : Nat → Bool) (N c i d : Nat) (s : GState V)
    (hdc : d ≠ c) : (view G (gnext gp G N c i s) d).th = (view G s d).th := by
  show ((gnext gp G N c i s).cs d).th = (s.cs d).th
  rw [gnext_cs_other gp G N c i s hdc]

/-- One side of the diamond across CTAs: CTA `d`'s step after CTA `c`'s step leaves CTA `d`
the threads, arrival counts and shared memory it leaves without it. -/
theorem cross_side (gp : GProg V) (G : Nat → Bool) (N c i d j : Nat) (s : GState V)
    (hdc : d ≠ c) (h : ¬XConflict G (gact gp G c i s) (gact gp G d j s)) :
    (∀ k, (next (gp d) N j (view G (gnext gp G N c i s) d)).th k = (next (gp d) N j (view G s d)).th k) ∧
    (∀ b, (next (gp d) N j (view G (gnext gp G N c i s) d)).arr b = (next (gp d) N j (view G s d)).arr b) ∧
    (∀ x, G x = false →
      (next (gp d) N j (view G (gnext gp G N c i s) d)).mem x = (next (gp d) N j (view G s d)).mem x) := by
  have hcs : (gnext gp G N c i s).cs d = s.cs d := gnext_cs_other gp G N c i s hdc
  have hth : ∀ k, (view G (gnext gp G N c i s) d).th k = (view G s d).th k := by
    intro k
    show ((gnext gp G N c i s).cs d).th k = (s.cs d).th k
    rw [hcs]
  have har : ∀ b, (view G (gnext gp G N c i s) d).arr b = (view G s d).arr b := by
    intro b
    show ((gnext gp G N c i s).cs d).arr b = (s.cs d).arr b
    rw [hcs]
  have hmem : ∀ x, (view G (gnext gp G N c i s) d).mem x =
      merge G (memEff (gact gp G c i s) (view G s c).mem) (s.cs d).mem x := by
    intro x
    show cond (G x) ((gnext gp G N c i s).gmem x) (((gnext gp G N c i s).cs d).mem x) = _
    rw [hcs, gnext_gmem, next_mem]
    rfl
  have hact : act (gp d) j (view G (gnext gp G N c i s) d) = gact gp G d j s := by
    show (gp d) j ((view G (gnext gp G N c i s) d).th j).pc ((view G (gnext gp G N c i s) d).th j).regs =
      (gp d) j ((view G s d).th j).pc ((view G s d).th j).regs
    rw [hth j]
  have hrd : ∀ a r pc, act (gp d) j (view G (gnext gp G N c i s) d) = Act.read a r pc →
      (view G (gnext gp G N c i s) d).mem a = (view G s d).mem a := by
    intro a r pc hB
    rw [hact] at hB
    rw [hmem a]
    show cond (G a) _ _ = cond (G a) (s.gmem a) ((s.cs d).mem a)
    cases hGa : G a with
    | false => rfl
    | true =>
      show memEff (gact gp G c i s) (view G s c).mem a = s.gmem a
      have hnc : ¬Conflict (gact gp G c i s) (Act.read a r pc) := by
        intro hc
        have hcB : Conflict (gact gp G c i s) (gact gp G d j s) := by rw [hB]; exact hc
        have hg : gAddr G (gact gp G d j s) = true := by rw [hB]; exact hGa
        exact h ⟨hcB, gAddr_of_conflict G _ _ (conflict_symm _ _ hcB) hg⟩
      rw [memEff_read _ _ hnc]
      show cond (G a) (s.gmem a) ((s.cs c).mem a) = s.gmem a
      rw [hGa]
      rfl
  have hta := next_th_arr (gp d) N j hth har hrd
  refine ⟨hta.1, hta.2, ?_⟩
  intro x hx
  rw [next_mem, next_mem, hact]
  have e1 : ∀ y, (view G (gnext gp G N c i s) d).mem y =
      merge G (memEff (gact gp G c i s) (view G s c).mem) (s.cs d).mem y := hmem
  rw [memEff_congr (gact gp G d j s) e1 x, memEff_merge_s G _ _ _ hx]
  exact Eq.symm (memEff_merge_s G _ s.gmem _ hx)

theorem gact_gnext_other (gp : GProg V) (G : Nat → Bool) (N c i d j : Nat) (s : GState V)
    (hdc : d ≠ c) : gact gp G d j (gnext gp G N c i s) = gact gp G d j s := by
  show (gp d) j (((gnext gp G N c i s).cs d).th j).pc (((gnext gp G N c i s).cs d).th j).regs =
    (gp d) j ((s.cs d).th j).pc ((s.cs d).th j).regs
  rw [gnext_cs_other gp G N c i s hdc]

/-- At a global address, every CTA's view after a step of CTA `c` holds what the step's action
leaves in the global memory. -/
theorem view_gnext_g (gp : GProg V) (G : Nat → Bool) (N c i e : Nat) (s : GState V) {y : Nat}
    (hy : G y = true) :
    (view G (gnext gp G N c i s) e).mem y = memEff (gact gp G c i s) s.gmem y := by
  show cond (G y) ((gnext gp G N c i s).gmem y) (((gnext gp G N c i s).cs e).mem y) = _
  rw [hy]
  show memEff (gact gp G c i s) (merge G s.gmem (s.cs c).mem) y = _
  exact memEff_merge_g G _ _ _ hy

/-- Two steps of threads of different CTAs whose actions do not conflict at a global address
commute. -/
theorem gnext_comm_cross (gp : GProg V) (G : Nat → Bool) (N c i d j : Nat) (s : GState V)
    (hcd : c ≠ d) (h : ¬XConflict G (gact gp G c i s) (gact gp G d j s)) :
    GSame G (gnext gp G N d j (gnext gp G N c i s)) (gnext gp G N c i (gnext gp G N d j s)) := by
  have hdc : d ≠ c := fun e => hcd (Eq.symm e)
  have h' : ¬XConflict G (gact gp G d j s) (gact gp G c i s) :=
    fun e => h (xconflict_symm G _ _ e)
  have sd := cross_side gp G N c i d j s hdc h
  have sc := cross_side gp G N d j c i s hcd h'
  -- the CTAs' records in the two orders
  have f1d : (gnext gp G N d j (gnext gp G N c i s)).cs d =
      next (gp d) N j (view G (gnext gp G N c i s) d) := gnext_cs_self gp G N d j _
  have f2d : (gnext gp G N c i (gnext gp G N d j s)).cs d = next (gp d) N j (view G s d) := by
    rw [gnext_cs_other gp G N c i _ hdc, gnext_cs_self]
  have f1c : (gnext gp G N d j (gnext gp G N c i s)).cs c = next (gp c) N i (view G s c) := by
    rw [gnext_cs_other gp G N d j _ hcd, gnext_cs_self]
  have f2c : (gnext gp G N c i (gnext gp G N d j s)).cs c =
      next (gp c) N i (view G (gnext gp G N d j s) c) := gnext_cs_self gp G N c i _
  have fe : ∀ e, e ≠ c → e ≠ d → (gnext gp G N d j (gnext gp G N c i s)).cs e = s.cs e ∧
      (gnext gp G N c i (gnext gp G N d j s)).cs e = s.cs e := by
    intro e hec hed
    rw [gnext_cs_other gp G N d j _ hed, gnext_cs_other gp G N c i _ hec,
      gnext_cs_other gp G N c i _ hec, gnext_cs_other gp G N d j _ hed]
    exact ⟨rfl, rfl⟩
  refine ⟨?_, ?_, ?_, ?_⟩
  · intro e k
    cases Nat.decEq e d with
    | isTrue hed => rw [hed, f1d, f2d]; exact sd.1 k
    | isFalse hed =>
      cases Nat.decEq e c with
      | isTrue hec => rw [hec, f1c, f2c]; exact Eq.symm (sc.1 k)
      | isFalse hec => rw [(fe e hec hed).1, (fe e hec hed).2]
  · intro e b
    cases Nat.decEq e d with
    | isTrue hed => rw [hed, f1d, f2d]; exact sd.2.1 b
    | isFalse hed =>
      cases Nat.decEq e c with
      | isTrue hec => rw [hec, f1c, f2c]; exact Eq.symm (sc.2.1 b)
      | isFalse hec => rw [(fe e hec hed).1, (fe e hec hed).2]
  · intro e x hx
    cases Nat.decEq e d with
    | isTrue hed => rw [hed, f1d, f2d]; exact sd.2.2 x hx
    | isFalse hed =>
      cases Nat.decEq e c with
      | isTrue hec => rw [hec, f1c, f2c]; exact Eq.symm (sc.2.2 x hx)
      | isFalse hec => rw [(fe e hec hed).1, (fe e hec hed).2]
  · intro x hx
    rw [gnext_gmem, gnext_gmem, next_mem, next_mem]
    show memEff (gact gp G d j (gnext gp G N c i s)) (view G (gnext gp G N c i s) d).mem x =
      memEff (gact gp G c i (gnext gp G N d j s)) (view G (gnext gp G N d j s) c).mem x
    rw [gact_gnext_other gp G N c i d j s hdc, gact_gnext_other gp G N d j c i s hcd,
      memEff_congr_g G (gact gp G d j s) (fun y hy => view_gnext_g gp G N c i d s hy) hx,
      memEff_congr_g G (gact gp G c i s) (fun y hy => view_gnext_g gp G N d j c s hy) hx]
    exact memEff_comm_g G _ _ s.gmem h hx

/-- The diamond for two threads of different CTAs whose actions do not conflict at a global
address. -/
theorem gdiamond_cross (gp : GProg V) (G : Nat → Bool) (N C c i d j : Nat) {s s1 s2 : GState V}
    (hcd : c ≠ d) (h1 : GStepT gp G N C c i s s1) (h2 : GStepT gp G N C d j s s2)
    (h : ¬XConflict G (gact gp G c i s) (gact gp G d j s)) :
    ∃ s3, GStepT gp G N C d j s1 s3 ∧ GStepT gp G N C c i s2 s3 :=
  gdiamond_of_comm (Or.inl hcd) h1 h2 (gnext_comm_cross gp G N c i d j s hcd h)

end Diamonds

section Confluence

variable {V : Type} [AccAdd V]

theorem gstepT_left (gp : GProg V) (G : Nat → Bool) (N C c i : Nat) {s t u : GState V}
    (h : GSame G s t) (hs : GStepT gp G N C c i s u) : GStepT gp G N C c i t u := by
  have hr : ((t.cs c).th i).status = Status.run := by
    rw [Eq.symm (h.1 c i)]
    exact hs.2.2.1
  exact ⟨hs.1, hs.2.1, hr, gsame_trans hs.2.2.2 (gnext_congr gp G N c i h)⟩

theorem greach_trans (gp : GProg V) (G : Nat → Bool) (N C : Nat) {a b c : GState V}
    (hab : GReach gp G N C a b) (hbc : GReach gp G N C b c) : GReach gp G N C a c := by
  induction hab with
  | refl s => exact hbc
  | step hst _ ih => exact GReach.step hst (ih hbc)

theorem greach_snoc (gp : GProg V) (G : Nat → Bool) (N C : Nat) {a b c : GState V}
    (hab : GReach gp G N C a b) (hbc : GStep gp G N C b c) : GReach gp G N C a c :=
  greach_trans gp G N C hab (GReach.step hbc (GReach.refl c))

theorem greach_left (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s t u : GState V}
    (h : GSame G s t) (hu : GReach gp G N C s u) : ∃ u', GReach gp G N C t u' ∧ GSame G u u' := by
  cases hu with
  | refl => exact ⟨t, GReach.refl t, h⟩
  | step hst hr =>
    match hst with
    | ⟨c, i, hi⟩ => exact ⟨u, GReach.step ⟨c, i, gstepT_left gp G N C c i h hi⟩ hr, gsame_refl G u⟩

theorem gfinal_reach (gp : GProg V) (G : Nat → Bool) (N C : Nat) {t u : GState V}
    (hf : GFinal N C t) (hr : GReach gp G N C t u) : GSame G t u := by
  cases hr with
  | refl => exact gsame_refl G t
  | step hst _ =>
    match hst with
    | ⟨c, i, hi⟩ =>
      have h1 : ((t.cs c).th i).status = Status.exited := hf c hi.1 i hi.2.1
      have h2 : ((t.cs c).th i).status = Status.run := hi.2.2.1
      rw [h1] at h2
      cases h2

/-- The local diamond at every state reachable from `s0`: two steps of different threads (of one
CTA or of two) can be completed to a common state. -/
def GDiamond (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s0 : GState V) : Prop :=
  ∀ r, GReach gp G N C s0 r → ∀ (c i d j : Nat) (r1 r2 : GState V), (c ≠ d ∨ i ≠ j) →
    GStepT gp G N C c i r r1 → GStepT gp G N C d j r r2 →
      ∃ r3, GStepT gp G N C d j r1 r3 ∧ GStepT gp G N C c i r2 r3

theorem glocal_diamond (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s0 r t1 t2 : GState V}
    (hD : GDiamond gp G N C s0) (hr : GReach gp G N C s0 r) (h1 : GStep gp G N C r t1)
    (h2 : GStep gp G N C r t2) :
    GSame G t1 t2 ∨ ∃ v, GStep gp G N C t1 v ∧ GStep gp G N C t2 v := by
  match h1, h2 with
  | ⟨c, i, hi⟩, ⟨d, j, hj⟩ =>
    cases Nat.decEq c d with
    | isFalse e =>
      match hD r hr c i d j t1 t2 (Or.inl e) hi hj with
      | ⟨v, hv1, hv2⟩ => exact Or.inr ⟨v, ⟨d, j, hv1⟩, ⟨c, i, hv2⟩⟩
    | isTrue e =>
      cases Nat.decEq i j with
      | isTrue e' =>
        rw [e, e'] at hi
        exact Or.inl (gsame_trans hi.2.2.2 (gsame_symm hj.2.2.2))
      | isFalse e' =>
        match hD r hr c i d j t1 t2 (Or.inr e') hi hj with
        | ⟨v, hv1, hv2⟩ => exact Or.inr ⟨v, ⟨d, j, hv1⟩, ⟨c, i, hv2⟩⟩

theorem gstrip (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s0 s t2 : GState V}
    (hD : GDiamond gp G N C s0) (hs : GReach gp G N C s t2) :
    ∀ t1, GReach gp G N C s0 s → GStep gp G N C s t1 →
      ∃ u, GReach gp G N C t1 u ∧ (GSame G t2 u ∨ GStep gp G N C t2 u) := by
  induction hs with
  | refl s =>
    intro t1 _ h1
    exact ⟨t1, GReach.refl t1, Or.inr h1⟩
  | @step s s' t2 hss' hs't2 ih =>
    intro t1 h0 h1
    cases glocal_diamond gp G N C hD h0 h1 hss' with
    | inl e =>
      match greach_left gp G N C (gsame_symm e) hs't2 with
      | ⟨u, hu, hsu⟩ => exact ⟨u, hu, Or.inl hsu⟩
    | inr ex =>
      match ex with
      | ⟨v, hv1, hv2⟩ =>
        match ih v (greach_snoc gp G N C h0 hss') hv2 with
        | ⟨u, hu, hor⟩ => exact ⟨u, GReach.step hv1 hu, hor⟩

theorem gconfluent (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s0 s t1 : GState V}
    (hD : GDiamond gp G N C s0) (h1 : GReach gp G N C s t1) :
    ∀ t2, GReach gp G N C s0 s → GReach gp G N C s t2 →
      ∃ u1 u2, GReach gp G N C t1 u1 ∧ GReach gp G N C t2 u2 ∧ GSame G u1 u2 := by
  induction h1 with
  | refl s =>
    intro t2 _ h2
    exact ⟨t2, t2, h2, GReach.refl t2, gsame_refl G t2⟩
  | @step s s' t1 hss' hs't1 ih =>
    intro t2 h0 h2
    match gstrip gp G N C hD h2 s' h0 hss' with
    | ⟨w, hw, hor⟩ =>
      match ih w (greach_snoc gp G N C h0 hss') hw with
      | ⟨u1, u2, hu1, hu2, e⟩ =>
        cases hor with
        | inr hst => exact ⟨u1, u2, hu1, GReach.step hst hu2, e⟩
        | inl e2 =>
          match greach_left gp G N C (gsame_symm e2) hu2 with
          | ⟨u3, hu3, e3⟩ => exact ⟨u1, u3, hu1, hu3, gsame_trans e e3⟩

theorem gdiamond_of_raceFree (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s0 : GState V)
    (hrf : GridRaceFree gp G N C s0) (hfit : GBarriersFit gp G N C s0) :
    GDiamond gp G N C s0 := by
  intro r hr c i d j r1 r2 hne h1 h2
  cases Nat.decEq c d with
  | isFalse hcd =>
    exact gdiamond_cross gp G N C c i d j hcd h1 h2
      ((hrf r hr).2 c d hcd h1.1 h2.1 i j h1.2.1 h2.2.1 h1.2.2.1 h2.2.2.1)
  | isTrue hcd =>
    rw [← hcd] at h2
    have hij : i ≠ j := by
      cases hne with
      | inl h => exact False.elim (h hcd)
      | inr h => exact h
    match gdiamond_same gp G N C c i j hij h1 h2
      ((hrf r hr).1 c h1.1 i j hij h1.2.1 h2.2.1 h1.2.2.1 h2.2.2.1)
      (hfit r hr c h1.1 i j hij h1.2.1 h2.2.1 h1.2.2.1 h2.2.2.1) with
    | ⟨r3, h3, h4⟩ => rw [← hcd]; exact ⟨r3, h3, h4⟩

/-- Confluence of the grid: if no reachable state has a race within a CTA or across CTAs
(`GridRaceFree`) and every CTA's barriers fit (`GBarriersFit`), any two complete executions
from `s0`, whatever the interleaving of the threads of all CTAs, end in the same state: the
same global memory, and in every CTA the same threads, barrier counts and shared memory. -/
theorem gconfluence (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s0 t1 t2 : GState V}
    (hrf : GridRaceFree gp G N C s0) (hfit : GBarriersFit gp G N C s0)
    (h1 : GReach gp G N C s0 t1) (h2 : GReach gp G N C s0 t2)
    (f1 : GFinal N C t1) (f2 : GFinal N C t2) : GSame G t1 t2 := by
  match gconfluent gp G N C (gdiamond_of_raceFree gp G N C s0 hrf hfit) h1 t2 (GReach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    exact gsame_trans (gfinal_reach gp G N C f1 hu1)
      (gsame_trans e (gsame_symm (gfinal_reach gp G N C f2 hu2)))

theorem gstuck_reach (gp : GProg V) (G : Nat → Bool) (N C : Nat) {t u : GState V}
    (hs : ∀ v, GStep gp G N C t v → False) (hr : GReach gp G N C t u) : GSame G t u := by
  cases hr with
  | refl => exact gsame_refl G t
  | step hst _ => exact False.elim (hs _ hst)

/-- No schedule of the grid deadlocks if one finishes: under the hypotheses of `gconfluence`,
if some execution from `s0` ends with every thread of every CTA exited, every state reachable
from `s0` where no thread can step has every thread of every CTA exited. -/
theorem gno_stuck (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s0 t1 t2 : GState V}
    (hrf : GridRaceFree gp G N C s0) (hfit : GBarriersFit gp G N C s0)
    (h1 : GReach gp G N C s0 t1) (f1 : GFinal N C t1) (h2 : GReach gp G N C s0 t2)
    (hs : ∀ v, GStep gp G N C t2 v → False) : GFinal N C t2 := by
  match gconfluent gp G N C (gdiamond_of_raceFree gp G N C s0 hrf hfit) h1 t2 (GReach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    have e' : GSame G t1 t2 := gsame_trans (gfinal_reach gp G N C f1 hu1)
      (gsame_trans e (gsame_symm (gstuck_reach gp G N C hs hu2)))
    intro c hc k hk
    rw [Eq.symm (e'.1 c k)]
    exact f1 c hc k hk

end Confluence

section Sequential

variable {V : Type} [AccAdd V]

/-- CTA `c`'s one-CTA state `w` put back into the grid state `t`: its record becomes `w`, the
global memory `w`'s memory (only its global addresses are ever read). -/
def place (t : GState V) (c : Nat) (w : CState V) : GState V :=
  { cs := upd t.cs c w, gmem := w.mem }

/-- The executor's run (`exec/mod.rs`, `run`): CTA 0 runs to completion, then CTA 1, ...; each
CTA `c` runs in the one-CTA semantics (`Sem.Reach`, any schedule of its threads) from its view
of the grid state the CTAs before it left (its own initial threads and shared memory, the
global memory they left), until all its threads have exited; its final state is put back
(`place`).  `SeqRun gp G N k s0 u`: CTAs `0 .. k-1` have run so, from `s0`, leaving `u`. -/
inductive SeqRun (gp : GProg V) (G : Nat → Bool) (N : Nat) : Nat → GState V → GState V → Prop where
  | zero (s : GState V) : SeqRun gp G N 0 s s
  | succ {c : Nat} {s t : GState V} {w : CState V} : SeqRun gp G N c s t →
      Reach (gp c) N (view G t c) w → Final N w → SeqRun gp G N (c + 1) s (place t c w)

/-- A run of one CTA `c < C` in the one-CTA semantics, from a state pointwise equal to its view
of a grid state `s`, is a run of the grid from `s` in which only CTA `c` steps. -/
theorem lift_reach (gp : GProg V) (G : Nat → Bool) (N C c : Nat) (hc : c < C) {X t : CState V}
    (hX : Reach (gp c) N X t) :
    ∀ s : GState V, Same (view G s c) X →
      ∃ s', GReach gp G N C s s' ∧ Same (view G s' c) t ∧ ∀ e, e ≠ c → s'.cs e = s.cs e := by
  induction hX with
  | refl X =>
    intro s hs
    exact ⟨s, GReach.refl s, hs, fun _ _ => rfl⟩
  | @step X X1 t hst _ ih =>
    intro s hs
    match hst with
    | ⟨i, hi, hr, hsame⟩ =>
      have hr' : ((s.cs c).th i).status = Status.run := by
        show ((view G s c).th i).status = Status.run
        rw [hs.1 i]
        exact hr
      have hstep : GStepT gp G N C c i s (gnext gp G N c i s) := ⟨hc, hi, hr', gsame_refl G _⟩
      have hv : Same (view G (gnext gp G N c i s) c) X1 :=
        same_trans (view_gnext_self gp G N c i s)
          (same_trans (next_congr (gp c) N i hs) (same_symm hsame))
      match ih (gnext gp G N c i s) hv with
      | ⟨s', hr1, hv1, ho⟩ =>
        refine ⟨s', GReach.step ⟨c, i, hstep⟩ hr1, hv1, ?_⟩
        intro e he
        rw [ho e he, gnext_cs_other gp G N c i s he]

/-- The executor's sequential run is one of the schedules of the grid. -/
theorem seqRun_reach (gp : GProg V) (G : Nat → Bool) (N C : Nat) {k : Nat} {s0 u : GState V}
    (h : SeqRun gp G N k s0 u) : k ≤ C → ∃ u', GReach gp G N C s0 u' ∧ GSame G u u' := by
  induction h with
  | zero s => intro _; exact ⟨s, GReach.refl s, gsame_refl G s⟩
  | @succ c s t w _ hw _ ih =>
    intro hk
    have hc : c < C := hk
    match ih (Nat.leTrans (Nat.leSucc c) hk) with
    | ⟨t', ht', htt⟩ =>
      match reach_left (gp c) N (view_same htt c) hw with
      | ⟨w', hw', hww⟩ =>
        match lift_reach gp G N C c hc hw' t' (same_refl _) with
        | ⟨s', hs', hv, ho⟩ =>
          refine ⟨s', greach_trans gp G N C ht' hs', ?_⟩
          have hw2 : Same w (view G s' c) := same_trans hww (same_symm hv)
          refine ⟨?_, ?_, ?_, ?_⟩
          · intro e k
            show (upd t.cs c w e).th k = _
            cases Nat.decEq e c with
            | isTrue he => rw [he, upd_same]; exact hw2.1 k
            | isFalse he => rw [upd_other _ _ he, ho e he]; exact htt.1 e k
          · intro e b
            show (upd t.cs c w e).arr b = _
            cases Nat.decEq e c with
            | isTrue he => rw [he, upd_same]; exact hw2.2.2 b
            | isFalse he => rw [upd_other _ _ he, ho e he]; exact htt.2.1 e b
          · intro e x hx
            show (upd t.cs c w e).mem x = _
            cases Nat.decEq e c with
            | isTrue he =>
              rw [he, upd_same, hw2.2.1 x]
              show cond (G x) (s'.gmem x) ((s'.cs c).mem x) = _
              rw [hx]
              rfl
            | isFalse he => rw [upd_other _ _ he, ho e he]; exact htt.2.2.1 e x hx
          · intro x hx
            show w.mem x = s'.gmem x
            rw [hw2.2.1 x]
            show cond (G x) (s'.gmem x) ((s'.cs c).mem x) = _
            rw [hx]
            rfl

/-- After the sequential run of CTAs `0 .. k-1`, every thread of each of them has exited. -/
theorem seqRun_final (gp : GProg V) (G : Nat → Bool) (N : Nat) {k : Nat} {s0 u : GState V}
    (h : SeqRun gp G N k s0 u) : ∀ c, c < k → ∀ t, t < N → ((u.cs c).th t).status = Status.exited := by
  induction h with
  | zero s => intro c hc; exact False.elim (Nat.notLtZero c hc)
  | @succ c' s t w _ _ hf ih =>
    intro c hc k hk
    show ((upd t.cs c' w c).th k).status = Status.exited
    cases Nat.decEq c c' with
    | isTrue he => rw [he, upd_same]; exact hf k hk
    | isFalse he =>
      rw [upd_other _ _ he]
      have hlt : c < c' := Nat.ltOfLeOfNe (Nat.leOfLtSucc hc) he
      exact ih c hlt k hk

/-- Sequential representativeness: if the grid is race free (`GridRaceFree`) and every CTA's
barriers fit (`GBarriersFit`), the state the executor's sequential run leaves (CTA 0 to
completion, then CTA 1, ..., each under any schedule of its threads) is the final state of
every schedule of the grid that finishes: the same global memory, and in every CTA the same
threads, barrier counts and shared memory. -/
theorem seq_representative (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s0 u t : GState V}
    (hrf : GridRaceFree gp G N C s0) (hfit : GBarriersFit gp G N C s0)
    (hseq : SeqRun gp G N C s0 u) (ht : GReach gp G N C s0 t) (ft : GFinal N C t) :
    GSame G t u := by
  match seqRun_reach gp G N C hseq (Nat.leRefl C) with
  | ⟨u', hu', huu⟩ =>
    have fu' : GFinal N C u' := by
      intro c hc k hk
      rw [Eq.symm (huu.1 c k)]
      exact seqRun_final gp G N hseq c hc k hk
    exact gsame_trans (gconfluence gp G N C hrf hfit ht hu' ft fu') (gsame_symm huu)

/-- Under the same hypotheses, when the sequential run finishes no schedule of the grid
deadlocks: every reachable state without steps has every thread of every CTA exited. -/
theorem seq_no_stuck (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s0 u t : GState V}
    (hrf : GridRaceFree gp G N C s0) (hfit : GBarriersFit gp G N C s0)
    (hseq : SeqRun gp G N C s0 u) (ht : GReach gp G N C s0 t)
    (hs : ∀ v, GStep gp G N C t v → False) : GFinal N C t := by
  match seqRun_reach gp G N C hseq (Nat.leRefl C) with
  | ⟨u', hu', huu⟩ =>
    have fu' : GFinal N C u' := by
      intro c hc k hk
      rw [Eq.symm (huu.1 c k)]
      exact seqRun_final gp G N hseq c hc k hk
    exact gno_stuck gp G N C hrf hfit hu' fu' ht hs

end Sequential

section Footprint

variable {V : Type} [AccAdd V]

/-- Race freedom within each CTA (the first half of `GridRaceFree`). -/
def GridRaceFreeIn (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s0 : GState V) : Prop :=
  ∀ r, GReach gp G N C s0 r →
    ∀ c, c < C → ∀ i j, i ≠ j → i < N → j < N →
      ((r.cs c).th i).status = Status.run → ((r.cs c).th j).status = Status.run →
        ¬Conflict (gact gp G c i r) (gact gp G c j r)

/-- Global footprints: `Rd c a`, `Wr c a`, `At c a` hold of every global address `a` that a
thread of CTA `c` reads, writes or adds to atomically, in any state reachable from `s0` (any
schedule of the grid). -/
def GFootprint (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s0 : GState V)
    (Rd Wr At : Nat → Nat → Prop) : Prop :=
  ∀ r, GReach gp G N C s0 r → ∀ c, c < C → ∀ i, i < N → ((r.cs c).th i).status = Status.run →
    (∀ a x pc, gact gp G c i r = Act.read a x pc → G a = true → Rd c a) ∧
    (∀ a v pc, gact gp G c i r = Act.write a v pc → G a = true → Wr c a) ∧
    (∀ a v pc, gact gp G c i r = Act.atomAdd a v pc → G a = true → At c a)

/-- The footprints of an earlier CTA `c` and a later one `d` do not conflict, as the Rust shadow
check across CTAs demands on the sequential run: a read of `c` against a write or an atomic of
`d` (`foreign_read`), a write of `c` against every access of `d` (`write`, `same_writes`: except
writes of the same value, see the README), an atomic of `c` against a plain access of `d`
(`atomics`). -/
def XDisjointSeq (C : Nat) (Rd Wr At : Nat → Nat → Prop) : Prop :=
  ∀ c d, c < d → d < C → ∀ a,
    (Rd c a → Wr d a → False) ∧ (Rd c a → At d a → False) ∧
    (Wr c a → Rd d a → False) ∧ (Wr c a → Wr d a → False) ∧ (Wr c a → At d a → False) ∧
    (At c a → Rd d a → False) ∧ (At c a → Wr d a → False)

theorem lt_or_gt_of_ne_g {c d : Nat} (h : c ≠ d) : c < d ∨ d < c := by
  cases Nat.ltOrGe c d with
  | inl hl => exact Or.inl hl
  | inr hg => exact Or.inr (Nat.ltOfLeOfNe hg (fun e => h (Eq.symm e)))

/-- Disjoint footprints, in either order of the two CTAs. -/
theorem xdisjoint_any {C : Nat} {Rd Wr At : Nat → Nat → Prop} (h : XDisjointSeq C Rd Wr At)
    {c d : Nat} (hcd : c ≠ d) (hc : c < C) (hd : d < C) (a : Nat) :
    (Rd c a → Wr d a → False) ∧ (Wr c a → Wr d a → False) ∧ (Rd c a → At d a → False) ∧
      (Wr c a → At d a → False) := by
  cases lt_or_gt_of_ne_g hcd with
  | inl hl =>
    have k := h c d hl hd a
    exact ⟨k.1, k.2.2.2.1, k.2.1, k.2.2.2.2.1⟩
  | inr hl =>
    have k := h d c hl hc a
    exact ⟨fun x y => k.2.2.1 y x, fun x y => k.2.2.2.1 y x, fun x y => k.2.2.2.2.2.1 y x,
      fun x y => k.2.2.2.2.2.2 y x⟩

/-- Disjoint footprints give the cross-CTA half of race freedom. -/
theorem xraceFree_of_footprint (gp : GProg V) (G : Nat → Bool) (N C : Nat) (s0 : GState V)
    {Rd Wr At : Nat → Nat → Prop} (hfp : GFootprint gp G N C s0 Rd Wr At)
    (hdis : XDisjointSeq C Rd Wr At) :
    ∀ r, GReach gp G N C s0 r →
      ∀ c d, c ≠ d → c < C → d < C → ∀ i j, i < N → j < N →
        ((r.cs c).th i).status = Status.run → ((r.cs d).th j).status = Status.run →
          ¬XConflict G (gact gp G c i r) (gact gp G d j r) := by
  intro r hr c d hcd hc hd i j hi hj hri hrj
  have fi := hfp r hr c hc i hi hri
  have fj := hfp r hr d hd j hj hrj
  have ddc := xdisjoint_any hdis (fun e => hcd (Eq.symm e)) hd hc
  intro hx
  match hx with
  | ⟨h1, h2⟩ =>
  cases hA : gact gp G c i r with
  | compute pc r' => rw [hA] at h1; exact h1
  | arrive b n w pc => rw [hA] at h1; exact h1
  | exit => rw [hA] at h1; exact h1
  | read a x pc =>
    rw [hA] at h1 h2
    have ra := fi.1 a x pc hA h2
    cases hB : gact gp G d j r with
    | compute pc' r' => rw [hB] at h1; exact h1
    | arrive b n w pc' => rw [hB] at h1; exact h1
    | exit => rw [hB] at h1; exact h1
    | read b y pc' => rw [hB] at h1; exact h1
    | write b v pc' =>
      rw [hB] at h1
      have h1' : a = b := h1
      rw [← h1'] at hB
      exact (xdisjoint_any hdis hcd hc hd a).1 ra (fj.2.1 a v pc' hB h2)
    | atomAdd b v pc' =>
      rw [hB] at h1
      have h1' : a = b := h1
      rw [← h1'] at hB
      exact (xdisjoint_any hdis hcd hc hd a).2.2.1 ra (fj.2.2 a v pc' hB h2)
  | write a v pc =>
    rw [hA] at h1 h2
    have wa := fi.2.1 a v pc hA h2
    cases hB : gact gp G d j r with
    | compute pc' r' => rw [hB] at h1; exact h1
    | arrive b n w pc' => rw [hB] at h1; exact h1
    | exit => rw [hB] at h1; exact h1
    | read b y pc' =>
      rw [hB] at h1
      have h1' : a = b := h1
      rw [← h1'] at hB
      exact (xdisjoint_any hdis (fun e => hcd (Eq.symm e)) hd hc a).1 (fj.1 a y pc' hB h2) wa
    | write b w pc' =>
      rw [hB] at h1
      have h1' : a = b := h1
      rw [← h1'] at hB
      exact (xdisjoint_any hdis hcd hc hd a).2.1 wa (fj.2.1 a w pc' hB h2)
    | atomAdd b w pc' =>
      rw [hB] at h1
      have h1' : a = b := h1
      rw [← h1'] at hB
      exact (xdisjoint_any hdis hcd hc hd a).2.2.2 wa (fj.2.2 a w pc' hB h2)
  | atomAdd a v pc =>
    rw [hA] at h1 h2
    have aa := fi.2.2 a v pc hA h2
    cases hB : gact gp G d j r with
    | compute pc' r' => rw [hB] at h1; exact h1
    | arrive b n w pc' => rw [hB] at h1; exact h1
    | exit => rw [hB] at h1; exact h1
    | atomAdd b w pc' => rw [hB] at h1; exact h1
    | read b y pc' =>
      rw [hB] at h1
      have h1' : a = b := h1
      rw [← h1'] at hB
      exact (xdisjoint_any hdis (fun e => hcd (Eq.symm e)) hd hc a).2.2.1 (fj.1 a y pc' hB h2) aa
    | write b w pc' =>
      rw [hB] at h1
      have h1' : a = b := h1
      rw [← h1'] at hB
      exact (xdisjoint_any hdis (fun e => hcd (Eq.symm e)) hd hc a).2.2.2 (fj.2.1 a w pc' hB h2) aa

/-- Sequential representativeness from footprints: if each CTA is race free within itself,
every CTA's barriers fit, the global footprints of the CTAs over all schedules are pairwise
disjoint across CTAs in the sense of the Rust check (`XDisjointSeq`), and the sequential run
finishes, then its final state is the final state of every schedule that finishes. -/
theorem seq_representative_fp (gp : GProg V) (G : Nat → Bool) (N C : Nat) {s0 u t : GState V}
    {Rd Wr At : Nat → Nat → Prop}
    (hin : GridRaceFreeIn gp G N C s0) (hfp : GFootprint gp G N C s0 Rd Wr At)
    (hdis : XDisjointSeq C Rd Wr At) (hfit : GBarriersFit gp G N C s0)
    (hseq : SeqRun gp G N C s0 u) (ht : GReach gp G N C s0 t) (ft : GFinal N C t) :
    GSame G t u :=
  seq_representative gp G N C
    (fun r hr => ⟨hin r hr, xraceFree_of_footprint gp G N C s0 hfp hdis r hr⟩) hfit hseq ht ft

end Footprint

section Example

open Sem

instance accAddNat : AccAdd Nat := ⟨Nat.add, Nat.add_comm, Nat.add_assoc⟩

/-- Each CTA's one thread stores its CTA id at global address 0, then exits. -/
def wProg : GProg Nat := fun c _ pc _ => if pc = 0 then Act.write 0 c 1 else Act.exit

/-- The launch: every thread at `pc` 0, memory 0. -/
def wInit : GState Nat :=
  { cs := fun _ => ⟨fun _ => ⟨0, fun _ => 0, Status.run⟩, fun _ => 0, fun _ => 0⟩,
    gmem := fun _ => 0 }

/-- Every address global. -/
def allG : Nat → Bool := fun _ => true

theorem wstep (c : Nat) (hc : c < 2) (s : GState Nat) (hr : ((s.cs c).th 0).status = Status.run) :
    GStep wProg allG 1 2 s (gnext wProg allG 1 c 0 s) :=
  ⟨c, 0, hc, Nat.lt.base 0, hr, gsame_refl allG _⟩

/-- The schedule: CTA `a` stores, CTA `b` stores, `a` exits, `b` exits. -/
def wRun (a b : Nat) : GState Nat :=
  gnext wProg allG 1 b 0 (gnext wProg allG 1 a 0
    (gnext wProg allG 1 b 0 (gnext wProg allG 1 a 0 wInit)))

theorem one_lt_two : 1 < 2 := Nat.lt.base 1
theorem zero_lt_two : 0 < 2 := Nat.ltTrans (Nat.lt.base 0) (Nat.lt.base 1)

theorem wRun01_reach : GReach wProg allG 1 2 wInit (wRun 0 1) :=
  GReach.step (wstep 0 zero_lt_two _ rfl) (GReach.step (wstep 1 one_lt_two _ rfl)
    (GReach.step (wstep 0 zero_lt_two _ rfl) (GReach.step (wstep 1 one_lt_two _ rfl) (GReach.refl _))))

theorem wRun10_reach : GReach wProg allG 1 2 wInit (wRun 1 0) :=
  GReach.step (wstep 1 one_lt_two _ rfl) (GReach.step (wstep 0 zero_lt_two _ rfl)
    (GReach.step (wstep 1 one_lt_two _ rfl) (GReach.step (wstep 0 zero_lt_two _ rfl) (GReach.refl _))))

theorem lt_one_eq {k : Nat} (h : k < 1) : k = 0 := by
  cases k with
  | zero => rfl
  | succ k => exact False.elim (Nat.notLtZero k (Nat.leOfSuccLeSucc h))

theorem lt_two_cases {c : Nat} (h : c < 2) : c = 0 ∨ c = 1 := by
  cases c with
  | zero => exact Or.inl rfl
  | succ c => exact Or.inr (congrArg Nat.succ (lt_one_eq (Nat.leOfSuccLeSucc h)))

theorem wRun01_final : GFinal 1 2 (wRun 0 1) := by
  intro c hc k hk
  rw [lt_one_eq hk]
  cases lt_two_cases hc with
  | inl h => rw [h]; rfl
  | inr h => rw [h]; rfl

theorem wRun10_final : GFinal 1 2 (wRun 1 0) := by
  intro c hc k hk
  rw [lt_one_eq hk]
  cases lt_two_cases hc with
  | inl h => rw [h]; rfl
  | inr h => rw [h]; rfl

/-- The two CTAs' stores conflict across CTAs in the launch state, so `GridRaceFree` fails. -/
theorem wInit_xconflict : XConflict allG (gact wProg allG 0 0 wInit) (gact wProg allG 1 0 wInit) :=
  ⟨rfl, rfl⟩

theorem wProg_not_raceFree : ¬GridRaceFree wProg allG 1 2 wInit := by
  intro h
  exact (h wInit (GReach.refl wInit)).2 0 1 (fun e => Nat.noConfusion e) zero_lt_two one_lt_two 0 0
    (Nat.lt.base 0) (Nat.lt.base 0) rfl rfl wInit_xconflict

/-- The race across CTAs is real: two schedules of this grid finish with different global
memory (the last store wins), so `gconfluence` needs `GridRaceFree`. -/
theorem cross_race_two_finals :
    ∃ t1 t2, GReach wProg allG 1 2 wInit t1 ∧ GReach wProg allG 1 2 wInit t2 ∧
      GFinal 1 2 t1 ∧ GFinal 1 2 t2 ∧ ¬t1.gmem 0 = t2.gmem 0 :=
  ⟨wRun 0 1, wRun 1 0, wRun01_reach, wRun10_reach, wRun01_final, wRun10_final,
    fun e => Nat.noConfusion (show 1 = 0 from e)⟩

end Example

end Grid
end Kcert
