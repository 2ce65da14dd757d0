import Kcert.Compat
import Kcert.Semantics
import Kcert.RaceCheck
import Kcert.Clocks
import Kcert.Benign
import Kcert.Checker

/-!
# The executor's canonical schedule, as a function, feeds the vector-clock check

Rust: `checker/src/exec/mod.rs` (`run_cta`, `resolve_barriers`, `report_stuck`) and
`exec/step.rs` (`run_thread`).  `run_cta` repeats: for each thread in index order, if it is
ready, run it (`run_thread`) until it blocks at a barrier or exits; if every thread has exited,
stop; otherwise complete every barrier that has its count (`resolve_barriers`), and stop
(`report_stuck`) if none does.

The model (namespace `Kcert.Race`), for whole-CTA `bar.sync` barriers, over the solo traces
(`Sem.soloAct`, `Sem.bars`) of a data-independent program (under `DataIndep` each thread's
actions are those of its solo trace up to the values; the check reads only kinds and
addresses, and the traces carry the solo values):

* `tEvs t f k h`, `tStop t f k`: `run_thread` for thread `t` from its `k`-th action with fuel
  `f`: it emits `Event.act t (soloAct t k)`, `Event.act t (soloAct t (k+1))`, ... onto the
  history `h` (latest first) up to and including the first arrival or exit (`stops`), and
  stops there (`Stop.bar b k'`: waits at barrier `b`, its next action is the `k'`-th;
  `Stop.exit j`: its `j`-th action is `exit`; `Stop.fuel`: fuel ran out, Rust
  `max_steps_per_thread`).
* `roundEvs`: one pass of `for t in 0..n` (every thread is ready at the start of a pass:
  after a whole-CTA barrier completes every thread runs again).
* `canon N F r p h`: at most `r` passes from positions `p` and history `h`.  After a pass:
  if every thread exited (`allB ... isExit`), stop; if every thread waits at the barrier of
  thread 0 (`allAtBar`: `arrivals.len() >= n` for that id in `resolve_barriers`; with
  whole-CTA counts and one pending arrival per thread that is "all `N` threads wait there"),
  emit `Event.barrier` (`clocks.barrier` of all rows: `Clocks.barrierAll`) and continue from the
  positions after the arrivals; otherwise stop (`report_stuck`).
* `canonRun N F`: from the launch, `F` passes, fuel `F` per thread per pass.
  `Finished N o`: every thread below `N` stopped at `exit`.

Theorems:

* `canon_fromTraces`: `FromTraces` holds for the history of every canonical run.
* `canon_holdsAccesses`: if the run finished (every thread exited), `HoldsAccesses` holds.
* `canon_check_iff`: for a finished run, `check N hist = true ↔ Sem.EpochRace`.
* `canon_noDeadlock`: a finished run gives `¬Sem.EpochDeadlock` (every epoch before the last
  ends with all threads at one barrier; all exit in the last).
* `canonical_check_sound`: for a `SyncAll`, `DataIndep` program, if the canonical run finishes
  and the clocks report nothing over its history: `Sem.RaceFree`, `Sem.BarriersFit`, any two
  final states reachable from the launch are `Same`, and every reachable state where no thread
  can step has every thread exited.
* `canon_stuck_deadlock`: if the canonical run stops after a pass in which no thread ran out of
  fuel and not every thread exited (the executor's `report_stuck`), `Sem.EpochDeadlock` holds.
* `raceCheckComplete_of_canonClean`, `deadlockCheckComplete_of_canonClean`: `Checker.lean`'s
  hypotheses `RaceCheckComplete` and `DeadlockCheckComplete` follow from `CanonClean` (a run
  without findings is a finished canonical run, without clock report, of a program whose solo
  traces its traces are the shapes of).

Abstracted: the run is over the solo traces, not over `Sem.next` with the real memory (under
`DataIndep` the actions agree up to values, which `check` does not read; not proved here);
every arrival stops the thread (`bar.arrive` is excluded by `SyncAll`); warp collectives and
the divergence findings are not modelled; fuel is per thread per pass.
-/

namespace Kcert
namespace Race

open Sem (Act)

/-- Where a thread's run (`run_thread`) stopped. -/
inductive Stop where
  -- it arrived (and waits) at barrier `b`; its next action is its `k`-th
  | bar (b k : Nat)
  -- its `k`-th action is `exit`
  | exit (k : Nat)
  -- out of fuel (Rust: `max_steps_per_thread`)
  | fuel

/-- A history `h'` extends `h` by events pushed on top. -/
inductive Suffix {V : Type} : List (Event V) → List (Event V) → Prop where
  | refl (h : List (Event V)) : Suffix h h
  | cons {h h' : List (Event V)} (e : Event V) : Suffix h h' → Suffix h (e :: h')

section Defs

variable {V : Type} [Sem.AccAdd V]

/-- `run_thread` stops after an action: a barrier arrival or an exit. -/
def stops : Act V → Bool
  | Act.arrive _ _ _ _ => true
  | Act.exit => true
  | Act.compute _ _ => false
  | Act.read _ _ _ => false
  | Act.write _ _ _ => false
  | Act.atomAdd _ _ _ => false

/-- Where a thread stops whose `k`-th action `A` stops it. -/
def stopOf : Act V → Nat → Stop
  | Act.arrive b _ _ _, k => Stop.bar b (k + 1)
  | Act.exit, k => Stop.exit k
  | Act.compute _ _, _ => Stop.fuel
  | Act.read _ _ _, _ => Stop.fuel
  | Act.write _ _ _, _ => Stop.fuel
  | Act.atomAdd _ _ _, _ => Stop.fuel

/-- `run_thread` for thread `t` from its `k`-th solo action, fuel `f`: the history after it,
its events pushed on `h` (latest first). -/
def tEvs (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t : Nat) :
    Nat → Nat → List (Event V) → List (Event V)
  | 0, _, h => h
  | f + 1, k, h =>
    cond (stops (Sem.soloAct prog regs0 m0 t k))
      (Event.act t (Sem.soloAct prog regs0 m0 t k) :: h)
      (tEvs prog regs0 m0 t f (k + 1) (Event.act t (Sem.soloAct prog regs0 m0 t k) :: h))

/-- Where that run of thread `t` stops. -/
def tStop (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t : Nat) :
    Nat → Nat → Stop
  | 0, _ => Stop.fuel
  | f + 1, k =>
    cond (stops (Sem.soloAct prog regs0 m0 t k))
      (stopOf (Sem.soloAct prog regs0 m0 t k) k)
      (tStop prog regs0 m0 t f (k + 1))

/-- One pass of `run_cta`'s `for t in 0..n`, over the threads below `n`, each from its
position `p t`, fuel `F` each. -/
def roundEvs (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (F : Nat)
    (p : Nat → Nat) (h : List (Event V)) : Nat → List (Event V)
  | 0 => h
  | n + 1 => tEvs prog regs0 m0 n F (p n) (roundEvs prog regs0 m0 F p h n)

def Stop.isExit : Stop → Bool
  | Stop.exit _ => true
  | Stop.bar _ _ => false
  | Stop.fuel => false

def Stop.atBar (b : Nat) : Stop → Bool
  | Stop.bar c _ => decide (c = b)
  | Stop.exit _ => false
  | Stop.fuel => false

def Stop.barId : Stop → Option Nat
  | Stop.bar b _ => some b
  | Stop.exit _ => none
  | Stop.fuel => none

/-- The position a thread resumes from after its barrier completes. -/
def Stop.nextPos : Stop → Nat
  | Stop.bar _ k => k
  | Stop.exit k => k
  | Stop.fuel => 0

/-- `q t` for every `t < n`. -/
def allB (q : Nat → Bool) : Nat → Bool
  | 0 => true
  | n + 1 => allB q n && q n

/-- `resolve_barriers` for whole-CTA barriers: the barrier thread 0 waits at has all `N`
threads waiting. -/
def allAtBar (N : Nat) (o : Nat → Stop) : Bool :=
  match (o 0).barId with
  | some b => allB (fun t => (o t).atBar b) N
  | none => false

/-- A canonical run's result: its history (latest first) and where each thread stopped in its
last pass. -/
structure Outcome (V : Type) where
  hist : List (Event V)
  stop : Nat → Stop

/-- `run_cta`, at most `r` passes, from positions `p` and history `h`. -/
def canon (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N F : Nat) :
    Nat → (Nat → Nat) → List (Event V) → Outcome V
  | 0, _, h => ⟨h, fun _ => Stop.fuel⟩
  | r + 1, p, h =>
    cond (allB (fun t => (tStop prog regs0 m0 t F (p t)).isExit) N)
      ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩
      (cond (allAtBar N (fun t => tStop prog regs0 m0 t F (p t)))
        (canon prog regs0 m0 N F r (fun t => (tStop prog regs0 m0 t F (p t)).nextPos)
          (Event.barrier :: roundEvs prog regs0 m0 F p h N))
        ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩)

/-- The canonical run from the launch: every thread at its first action, empty history, `F`
passes and fuel `F` per thread per pass. -/
def canonRun (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N F : Nat) :
    Outcome V :=
  canon prog regs0 m0 N F F (fun _ => 0) []

/-- Every thread below `N` stopped at `exit`. -/
def Finished (N : Nat) (o : Outcome V) : Bool := allB (fun t => (o.stop t).isExit) N

end Defs

section Basic

variable {V : Type} [Sem.AccAdd V]

theorem occurs_suffix {h h' : List (Event V)} (hs : Suffix h h') {t : Nat} {A : Act V}
    {c : Nat} (ho : Occurs h t A c) : Occurs h' t A c := by
  induction hs with
  | refl => exact ho
  | cons e hs ih =>
    cases e with
    | barrier => exact ih ho
    | act u B => exact Or.inr (ih ho)

theorem suffix_trans {h1 h2 h3 : List (Event V)} (h12 : Suffix h1 h2) (h23 : Suffix h2 h3) :
    Suffix h1 h3 := by
  induction h23 with
  | refl => exact h12
  | cons e _ ih => exact Suffix.cons e (ih h12)

theorem isArr_of_stops {A : Act V} (h : stops A = false) : Sem.isArr A = 0 := by
  cases A <;> first | rfl | cases h

theorem allB_of {q : Nat → Bool} : ∀ {n : Nat}, allB q n = true → ∀ t, t < n → q t = true := by
  intro n
  induction n with
  | zero => intro _ t ht; exact False.elim (Nat.notLtZero t ht)
  | succ n ih =>
    intro h t ht
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc ht) with
    | inl e => rw [e]; exact and_right' h
    | inr hlt => exact ih (and_left' h) t hlt

theorem allB_false {q : Nat → Bool} : ∀ {n : Nat}, allB q n = false → ∃ t, t < n ∧ q t = false := by
  intro n
  induction n with
  | zero => intro h; cases h
  | succ n ih =>
    intro h
    cases hq : q n with
    | false => exact ⟨n, Nat.leRefl (n + 1), hq⟩
    | true =>
      have h' : allB q n = false := by
        cases ha : allB q n with
        | false => rfl
        | true =>
          have e : allB q (n + 1) = (allB q n && q n) := rfl
          rw [e, ha, hq] at h; cases h
      match ih h' with
      | ⟨t, ht, hqt⟩ => exact ⟨t, Nat.leStep ht, hqt⟩

theorem isExit_true {s : Stop} (h : s.isExit = true) : ∃ k, s = Stop.exit k := by
  cases s with
  | exit k => exact ⟨k, rfl⟩
  | bar _ _ => cases h
  | fuel => cases h

theorem atBar_true {s : Stop} {b : Nat} (h : s.atBar b = true) : ∃ k, s = Stop.bar b k := by
  cases s with
  | bar c k =>
    have hc : c = b := of_decide_eq_true' h
    rw [hc]; exact ⟨k, rfl⟩
  | exit _ => cases h
  | fuel => cases h

theorem allAtBar_true {N : Nat} {o : Nat → Stop} (h : allAtBar N o = true) :
    ∃ b, ∀ t, t < N → ∃ k, o t = Stop.bar b k := by
  cases hb : (o 0).barId with
  | none =>
    have e : allAtBar N o = false := by
      show (match (o 0).barId with
        | some b => allB (fun t => (o t).atBar b) N
        | none => false) = false
      rw [hb]
    rw [e] at h; cases h
  | some b =>
    have e : allAtBar N o = allB (fun t => (o t).atBar b) N := by
      show (match (o 0).barId with
        | some b => allB (fun t => (o t).atBar b) N
        | none => false) = _
      rw [hb]
    rw [e] at h
    exact ⟨b, fun t ht => atBar_true (allB_of h t ht)⟩

end Basic

section Proofs

variable {V : Type} [Sem.AccAdd V]

/-- Thread `t`'s actions `k0 .. k1-1` occur in `h`, each at its epoch. -/
def Held (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (h : List (Event V))
    (t k0 k1 : Nat) : Prop :=
  ∀ i, k0 ≤ i → i < k1 → Occurs h t (Sem.soloAct prog regs0 m0 t i) (Sem.bars prog regs0 m0 t i)

/-- Thread `t`'s actions `k0 .. k1-1` neither arrive nor exit. -/
def Clean (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t k0 k1 : Nat) : Prop :=
  ∀ i, k0 ≤ i → i < k1 → stops (Sem.soloAct prog regs0 m0 t i) = false

/-- What a stop of thread `t`'s run from its `k`-th action at epoch `c` says, with `h` the
history after it. -/
def StopOk (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t k c : Nat)
    (h : List (Event V)) : Stop → Prop
  | Stop.bar b k' => ∃ j n w pc, k' = j + 1 ∧ Sem.soloAct prog regs0 m0 t j = Act.arrive b n w pc ∧
      Sem.bars prog regs0 m0 t j = c ∧ Held prog regs0 m0 h t k (j + 1) ∧
      Clean prog regs0 m0 t k j
  | Stop.exit j => Sem.soloAct prog regs0 m0 t j = Act.exit ∧ Sem.bars prog regs0 m0 t j = c ∧
      Held prog regs0 m0 h t k (j + 1) ∧ Clean prog regs0 m0 t k j
  | Stop.fuel => True

theorem held_suffix (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {h h' : List (Event V)} (hs : Suffix h h') {t k0 k1 : Nat}
    (hh : Held prog regs0 m0 h t k0 k1) : Held prog regs0 m0 h' t k0 k1 :=
  fun i h1 h2 => occurs_suffix hs (hh i h1 h2)

theorem stopOk_suffix (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {h h' : List (Event V)} (hs : Suffix h h') {t k c : Nat} :
    ∀ s, StopOk prog regs0 m0 t k c h s → StopOk prog regs0 m0 t k c h' s
  | Stop.bar b k', ⟨j, n, w, pc, e, ha, hb, hh, hcl⟩ =>
    ⟨j, n, w, pc, e, ha, hb, held_suffix prog regs0 m0 hs hh, hcl⟩
  | Stop.exit j, ⟨ha, hb, hh, hcl⟩ => ⟨ha, hb, held_suffix prog regs0 m0 hs hh, hcl⟩
  | Stop.fuel, _ => True.intro

theorem lt_succ_cases {i k : Nat} (h1 : k ≤ i) : i = k ∨ k + 1 ≤ i := by
  cases Nat.eqOrLtOfLe h1 with
  | inl e => exact Or.inl (Eq.symm e)
  | inr hl => exact Or.inr hl

/-- A stop at the `k`-th action itself. -/
theorem stopOk_stopOf (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {t k c : Nat} {h : List (Event V)} (hs : stops (Sem.soloAct prog regs0 m0 t k) = true)
    (hb : Sem.bars prog regs0 m0 t k = c)
    (ho : Occurs h t (Sem.soloAct prog regs0 m0 t k) (Sem.bars prog regs0 m0 t k)) :
    StopOk prog regs0 m0 t k c h (stopOf (Sem.soloAct prog regs0 m0 t k) k) := by
  have held : Held prog regs0 m0 h t k (k + 1) := fun i h1 h2 => by
    have e : i = k := Nat.leAntisymm (Nat.leOfLtSucc h2) h1
    rw [e]; exact ho
  have clean : Clean prog regs0 m0 t k k := fun i h1 h2 =>
    False.elim (Nat.ltIrrefl k (Nat.ltOfLeOfLt h1 h2))
  have key : ∀ A, Sem.soloAct prog regs0 m0 t k = A → stops A = true →
      StopOk prog regs0 m0 t k c h (stopOf A k) := by
    intro A hA hs'
    cases A with
    | arrive b n w pc => exact ⟨k, n, w, pc, rfl, hA, hb, held, clean⟩
    | exit => exact ⟨hA, hb, held, clean⟩
    | compute _ _ => cases hs'
    | read _ _ _ => cases hs'
    | write _ _ _ => cases hs'
    | atomAdd _ _ _ => cases hs'
  exact key _ rfl hs

/-- A stop after the `k`-th action, which does not stop the thread. -/
theorem stopOk_ext (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {t k c : Nat} {h : List (Event V)} (hs : stops (Sem.soloAct prog regs0 m0 t k) = false)
    (ho : Occurs h t (Sem.soloAct prog regs0 m0 t k) (Sem.bars prog regs0 m0 t k)) :
    ∀ s, StopOk prog regs0 m0 t (k + 1) c h s → StopOk prog regs0 m0 t k c h s := by
  have ext_held : ∀ j, Held prog regs0 m0 h t (k + 1) j → Held prog regs0 m0 h t k j :=
    fun j hh i h1 h2 => by
      cases lt_succ_cases h1 with
      | inl e => rw [e]; exact ho
      | inr h1' => exact hh i h1' h2
  have ext_clean : ∀ j, Clean prog regs0 m0 t (k + 1) j → Clean prog regs0 m0 t k j :=
    fun j hc i h1 h2 => by
      cases lt_succ_cases h1 with
      | inl e => rw [e]; exact hs
      | inr h1' => exact hc i h1' h2
  intro s
  cases s with
  | bar b k' =>
    intro ⟨j, n, w, pc, e, ha, hb, hh, hcl⟩
    exact ⟨j, n, w, pc, e, ha, hb, ext_held _ hh, ext_clean _ hcl⟩
  | exit j =>
    intro ⟨ha, hb, hh, hcl⟩
    exact ⟨ha, hb, ext_held _ hh, ext_clean _ hcl⟩
  | fuel => intro _; exact True.intro

theorem fromTraces_act (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {h : List (Event V)} (hF : FromTraces prog N regs0 m0 h) {t k : Nat} (ht : t < N)
    (hb : Sem.bars prog regs0 m0 t k = nbars h) :
    FromTraces prog N regs0 m0 (Event.act t (Sem.soloAct prog regs0 m0 t k) :: h) := by
  intro u A c ho
  cases ho with
  | inl e =>
    match e with
    | ⟨e1, e2, e3⟩ =>
      rw [← e1]
      exact ⟨ht, k, e2, Eq.trans hb e3⟩
  | inr ho => exact hF u A c ho

theorem fromTraces_bar (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {h : List (Event V)} (hF : FromTraces prog N regs0 m0 h) :
    FromTraces prog N regs0 m0 (Event.barrier :: h) :=
  fun u A c ho => hF u A c ho

/-- One thread's run: the history stays `FromTraces`, gains no barrier, extends the old one,
and its stop is described by `StopOk`. -/
theorem tRun_spec (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {t : Nat} (ht : t < N) :
    ∀ f k (h : List (Event V)), FromTraces prog N regs0 m0 h →
      Sem.bars prog regs0 m0 t k = nbars h →
      FromTraces prog N regs0 m0 (tEvs prog regs0 m0 t f k h) ∧
      nbars (tEvs prog regs0 m0 t f k h) = nbars h ∧
      Suffix h (tEvs prog regs0 m0 t f k h) ∧
      StopOk prog regs0 m0 t k (nbars h) (tEvs prog regs0 m0 t f k h)
        (tStop prog regs0 m0 t f k) := by
  intro f
  induction f with
  | zero => intro k h hF _; exact ⟨hF, rfl, Suffix.refl h, True.intro⟩
  | succ f ih =>
    intro k h hF hb
    have hF' := fromTraces_act prog N regs0 m0 hF ht hb
    have ho : Occurs (Event.act t (Sem.soloAct prog regs0 m0 t k) :: h) t
        (Sem.soloAct prog regs0 m0 t k) (Sem.bars prog regs0 m0 t k) :=
      Or.inl ⟨rfl, rfl, Eq.symm hb⟩
    have eE : tEvs prog regs0 m0 t (f + 1) k h =
        cond (stops (Sem.soloAct prog regs0 m0 t k))
          (Event.act t (Sem.soloAct prog regs0 m0 t k) :: h)
          (tEvs prog regs0 m0 t f (k + 1) (Event.act t (Sem.soloAct prog regs0 m0 t k) :: h)) :=
      rfl
    have eS : tStop prog regs0 m0 t (f + 1) k =
        cond (stops (Sem.soloAct prog regs0 m0 t k))
          (stopOf (Sem.soloAct prog regs0 m0 t k) k) (tStop prog regs0 m0 t f (k + 1)) := rfl
    rw [eE, eS]
    cases hs : stops (Sem.soloAct prog regs0 m0 t k) with
    | true =>
      exact ⟨hF', rfl, Suffix.cons _ (Suffix.refl h),
        stopOk_stopOf prog regs0 m0 hs hb ho⟩
    | false =>
      have hb' : Sem.bars prog regs0 m0 t (k + 1) =
          nbars (Event.act t (Sem.soloAct prog regs0 m0 t k) :: h) := by
        show Sem.bars prog regs0 m0 t k + Sem.isArr (Sem.soloAct prog regs0 m0 t k) = nbars h
        rw [isArr_of_stops hs, Nat.add_zero, hb]
      match ih (k + 1) _ hF' hb' with
      | ⟨h1, h2, h3, h4⟩ =>
        refine ⟨h1, h2, suffix_trans (Suffix.cons _ (Suffix.refl h)) h3, ?_⟩
        exact stopOk_ext prog regs0 m0 hs (occurs_suffix h3 ho) _ h4

/-- One pass over the threads below `n ≤ N`, all at epoch `c`. -/
theorem round_spec (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (F : Nat) (p : Nat → Nat) (h : List (Event V)) (c : Nat) (hF : FromTraces prog N regs0 m0 h)
    (hc : nbars h = c) (hp : ∀ t, t < N → Sem.bars prog regs0 m0 t (p t) = c) :
    ∀ n, n ≤ N →
      FromTraces prog N regs0 m0 (roundEvs prog regs0 m0 F p h n) ∧
      nbars (roundEvs prog regs0 m0 F p h n) = c ∧
      Suffix h (roundEvs prog regs0 m0 F p h n) ∧
      ∀ t, t < n → StopOk prog regs0 m0 t (p t) c (roundEvs prog regs0 m0 F p h n)
        (tStop prog regs0 m0 t F (p t)) := by
  intro n
  induction n with
  | zero =>
    intro _
    exact ⟨hF, hc, Suffix.refl h, fun t ht => False.elim (Nat.notLtZero t ht)⟩
  | succ n ih =>
    intro hn
    have hnN : n < N := hn
    match ih (Nat.leOfLt hnN) with
    | ⟨h1, h2, h3, h4⟩ =>
      have hbn : Sem.bars prog regs0 m0 n (p n) = nbars (roundEvs prog regs0 m0 F p h n) := by
        rw [h2]; exact hp n hnN
      match tRun_spec prog N regs0 m0 hnN F (p n) _ h1 hbn with
      | ⟨g1, g2, g3, g4⟩ =>
        refine ⟨g1, Eq.trans g2 h2, suffix_trans h3 g3, ?_⟩
        intro t ht
        cases Nat.eqOrLtOfLe (Nat.leOfLtSucc ht) with
        | inl e =>
          rw [e]
          rw [h2] at g4
          exact g4
        | inr hlt => exact stopOk_suffix prog regs0 m0 g3 _ (h4 t hlt)

/-- After `exit`, a solo trace stays at `exit`. -/
theorem soloAct_exit (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t j : Nat)
    (hx : Sem.soloAct prog regs0 m0 t j = Act.exit) :
    ∀ d, Sem.soloAct prog regs0 m0 t (j + d) = Act.exit := by
  intro d
  induction d with
  | zero => exact hx
  | succ d ih =>
    show prog t (Sem.newT (Sem.soloAct prog regs0 m0 t (j + d)) false
        (Sem.solo prog regs0 m0 t (j + d)) m0).pc
      (Sem.newT (Sem.soloAct prog regs0 m0 t (j + d)) false
        (Sem.solo prog regs0 m0 t (j + d)) m0).regs = Act.exit
    rw [ih]
    exact ih

theorem not_isMem_exit : ¬IsMem (Act.exit : Act V) := fun ⟨_, h⟩ => by
  cases h with
  | inl h => exact h
  | inr h => cases h with
    | inl h => exact h
    | inr h => exact h

/-- The invariant of `canon` at the start of a pass at epoch `c`: the history is made of the
traces, has `c` barriers, every thread is at an action of epoch `c`, and every earlier action
occurs in the history. -/
def CanonInv (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (p : Nat → Nat) (h : List (Event V)) (c : Nat) : Prop :=
  FromTraces prog N regs0 m0 h ∧ nbars h = c ∧
    (∀ t, t < N → Sem.bars prog regs0 m0 t (p t) = c) ∧
    ∀ t, t < N → Held prog regs0 m0 h t 0 (p t)

theorem held_join (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {h : List (Event V)} {t k0 k1 k2 : Nat} (h1 : Held prog regs0 m0 h t k0 k1)
    (h2 : Held prog regs0 m0 h t k1 k2) : Held prog regs0 m0 h t k0 k2 := fun i a b => by
  cases Nat.ltOrGe i k1 with
  | inl hl => exact h1 i a hl
  | inr hg => exact h2 i hg b

/-- `canon` produces a history made of the traces; if it finishes, the history holds every
memory access of every trace. -/
theorem canon_spec (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    ∀ r p h c, CanonInv prog N regs0 m0 p h c →
      FromTraces prog N regs0 m0 (canon prog regs0 m0 N F r p h).hist ∧
      (Finished N (canon prog regs0 m0 N F r p h) = true →
        HoldsAccesses prog N regs0 m0 (canon prog regs0 m0 N F r p h).hist) := by
  intro r
  induction r with
  | zero =>
    intro p h c ⟨hF, _, _, _⟩
    refine ⟨hF, fun hfin t k ht _ => ?_⟩
    have := allB_of hfin t ht
    cases this
  | succ r ih =>
    intro p h c ⟨hF, hc, hp, hH⟩
    match round_spec prog N regs0 m0 F p h c hF hc hp N (Nat.leRefl N) with
    | ⟨g1, g2, g3, g4⟩ =>
      -- the run stops here, with the stops of this pass
      have here : FromTraces prog N regs0 m0 (roundEvs prog regs0 m0 F p h N) ∧
          (Finished N ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩
              = true →
            HoldsAccesses prog N regs0 m0 (roundEvs prog regs0 m0 F p h N)) := by
        refine ⟨g1, fun hfin t k ht hm => ?_⟩
        match isExit_true (allB_of hfin t ht) with
        | ⟨j, hj⟩ =>
          have hs := g4 t ht
          have hj' : tStop prog regs0 m0 t F (p t) = Stop.exit j := hj
          rw [hj'] at hs
          match hs with
          | ⟨hx, _, hh, _⟩ =>
            have hall : Held prog regs0 m0 (roundEvs prog regs0 m0 F p h N) t 0 (j + 1) :=
              held_join prog regs0 m0 (held_suffix prog regs0 m0 g3 (hH t ht)) hh
            cases Nat.ltOrGe k (j + 1) with
            | inl hk => exact hall k (Nat.zeroLe k) hk
            | inr hk =>
              match Nat.le.dest hk with
              | ⟨d, hd⟩ =>
                have hx' := soloAct_exit prog regs0 m0 t j hx (d + 1)
                have e : j + (d + 1) = k := by rw [← hd, Nat.succ_add]; rfl
                rw [e] at hx'
                rw [hx'] at hm
                exact False.elim (not_isMem_exit hm)
      have eC : canon prog regs0 m0 N F (r + 1) p h =
          cond (allB (fun t => (tStop prog regs0 m0 t F (p t)).isExit) N)
            ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩
            (cond (allAtBar N (fun t => tStop prog regs0 m0 t F (p t)))
              (canon prog regs0 m0 N F r (fun t => (tStop prog regs0 m0 t F (p t)).nextPos)
                (Event.barrier :: roundEvs prog regs0 m0 F p h N))
              ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩) := rfl
      rw [eC]
      cases allB (fun t => (tStop prog regs0 m0 t F (p t)).isExit) N with
      | true => exact here
      | false =>
        cases hab : allAtBar N (fun t => tStop prog regs0 m0 t F (p t)) with
        | false => exact here
        | true =>
          match allAtBar_true hab with
          | ⟨b, hb⟩ =>
            apply ih _ _ (c + 1)
            refine ⟨fromTraces_bar prog N regs0 m0 g1, ?_, ?_, ?_⟩
            · show nbars (roundEvs prog regs0 m0 F p h N) + 1 = c + 1
              rw [g2]
            · intro t ht
              match hb t ht with
              | ⟨k', hk'⟩ =>
                have hs := g4 t ht
                rw [hk'] at hs
                match hs with
                | ⟨j, n, w, pc, e, ha, hbj, _, _⟩ =>
                  show Sem.bars prog regs0 m0 t (tStop prog regs0 m0 t F (p t)).nextPos = c + 1
                  rw [hk']
                  show Sem.bars prog regs0 m0 t k' = c + 1
                  rw [e]
                  show Sem.bars prog regs0 m0 t j + Sem.isArr (Sem.soloAct prog regs0 m0 t j) = c + 1
                  rw [ha, hbj]
                  rfl
            · intro t ht
              match hb t ht with
              | ⟨k', hk'⟩ =>
                have hs := g4 t ht
                rw [hk'] at hs
                match hs with
                | ⟨j, n, w, pc, e, ha, hbj, hh, _⟩ =>
                  show Held prog regs0 m0 _ t 0 (tStop prog regs0 m0 t F (p t)).nextPos
                  rw [hk']
                  show Held prog regs0 m0 _ t 0 k'
                  rw [e]
                  exact held_suffix prog regs0 m0 (Suffix.cons _ (Suffix.refl _))
                    (held_join prog regs0 m0 (held_suffix prog regs0 m0 g3 (hH t ht)) hh)

theorem canonInv_init (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    CanonInv prog N regs0 m0 (fun _ => 0) [] 0 :=
  ⟨fun _ _ _ ho => False.elim ho, rfl, fun _ _ => rfl,
    fun _ _ i _ hi => False.elim (Nat.notLtZero i hi)⟩

/-- The canonical run's history is made of the solo traces (`FromTraces`), whatever happens. -/
theorem canon_fromTraces (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) : FromTraces prog N regs0 m0 (canonRun prog regs0 m0 N F).hist :=
  (canon_spec prog N F regs0 m0 F _ _ 0 (canonInv_init prog N regs0 m0)).1

/-- If the canonical run finishes (every thread exited), its history holds every memory access
of every thread's trace at its epoch (`HoldsAccesses`). -/
theorem canon_holdsAccesses (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (hfin : Finished N (canonRun prog regs0 m0 N F) = true) :
    HoldsAccesses prog N regs0 m0 (canonRun prog regs0 m0 N F).hist :=
  (canon_spec prog N F regs0 m0 F _ _ 0 (canonInv_init prog N regs0 m0)).2 hfin

/-- For a finished canonical run, the vector-clock check over its history reports a race iff
the traces have two conflicting actions of different threads in one epoch. -/
theorem canon_check_iff (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (hfin : Finished N (canonRun prog regs0 m0 N F) = true) :
    check N (canonRun prog regs0 m0 N F).hist = true ↔ Sem.EpochRace prog N regs0 m0 :=
  check_iff_epochRace prog N regs0 m0 _ (canon_fromTraces prog N F regs0 m0)
    (canon_holdsAccesses prog N F regs0 m0 hfin)

end Proofs

section Deadlock

variable {V : Type} [Sem.AccAdd V]

theorem bars_mono (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t i : Nat) :
    ∀ d, Sem.bars prog regs0 m0 t i ≤ Sem.bars prog regs0 m0 t (i + d) := by
  intro d
  induction d with
  | zero => exact Nat.leRefl _
  | succ d ih => exact Nat.leTrans ih (Nat.leAddRight _ _)

theorem bars_le (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t : Nat)
    {i k : Nat} (h : i ≤ k) : Sem.bars prog regs0 m0 t i ≤ Sem.bars prog regs0 m0 t k := by
  match Nat.le.dest h with
  | ⟨d, hd⟩ => rw [← hd]; exact bars_mono prog regs0 m0 t i d

/-- An arrival before position `k` (of epoch `c`) is of an earlier epoch. -/
theorem bars_arrive_lt (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {t i k c : Nat}
    (hik : i < k) (hk : Sem.bars prog regs0 m0 t k = c) {b n : Nat} {w : Bool} {pc : Nat}
    (ha : Sem.soloAct prog regs0 m0 t i = Act.arrive b n w pc) :
    Sem.bars prog regs0 m0 t i < c := by
  have h1 : Sem.bars prog regs0 m0 t (i + 1) = Sem.bars prog regs0 m0 t i + 1 := by
    show Sem.bars prog regs0 m0 t i + Sem.isArr (Sem.soloAct prog regs0 m0 t i) = _
    rw [ha]; rfl
  have h2 := bars_le prog regs0 m0 t (Nat.succLeOfLt hik)
  rw [hk] at h2
  have h3 : Sem.bars prog regs0 m0 t (i + 1) ≤ c := h2
  rw [h1] at h3
  exact h3

/-- What `canon` keeps for the deadlock check: before its position no thread exits, and two
arrivals of one epoch before the positions are at one barrier. -/
def CanonDl (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (p : Nat → Nat) : Prop :=
  (∀ t i, t < N → i < p t → Sem.soloAct prog regs0 m0 t i = Act.exit → False) ∧
  (∀ t u i i' b b' n n' w w' pc pc', t < N → u < N → i < p t → i' < p u →
    Sem.soloAct prog regs0 m0 t i = Act.arrive b n w pc →
    Sem.soloAct prog regs0 m0 u i' = Act.arrive b' n' w' pc' →
    Sem.bars prog regs0 m0 t i = Sem.bars prog regs0 m0 u i' → b = b')

theorem stops_arrive {A : Act V} {b n : Nat} {w : Bool} {pc : Nat} (h : A = Act.arrive b n w pc) :
    stops A = true := by rw [h]; rfl

theorem stops_exit {A : Act V} (h : A = Act.exit) : stops A = true := by rw [h]; rfl

theorem arrive_ne_exit {b n : Nat} {w : Bool} {pc : Nat} (h : (Act.arrive b n w pc : Act V) = Act.exit) :
    False := by cases h

/-- A position before `j + 1`, for a run from `k` that stops at `j`, is old, clean or `j`. -/
theorem pos_cases (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {t k j i : Nat}
    (hcl : Clean prog regs0 m0 t k j) (hi : i < j + 1) :
    i < k ∨ stops (Sem.soloAct prog regs0 m0 t i) = false ∨ i = j := by
  cases Nat.ltOrGe i k with
  | inl h => exact Or.inl h
  | inr h =>
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc hi) with
    | inl e => exact Or.inr (Or.inr e)
    | inr hl => exact Or.inr (Or.inl (hcl i h hl))

/-- The first exit of a finished thread: a thread that stopped at `exit j` after `k` exits at no
earlier position, and arrives before `j` only before `k`. -/
theorem first_exit (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {t k j : Nat}
    (hx : Sem.soloAct prog regs0 m0 t j = Act.exit) (hcl : Clean prog regs0 m0 t k j)
    (hold : ∀ i, i < k → Sem.soloAct prog regs0 m0 t i = Act.exit → False) :
    ∀ i, Sem.soloAct prog regs0 m0 t i = Act.exit → j ≤ i := by
  intro i hi
  cases Nat.ltOrGe i j with
  | inr h => exact h
  | inl h =>
    cases Nat.ltOrGe i k with
    | inl h' => exact False.elim (hold i h' hi)
    | inr h' =>
      have := hcl i h' h
      rw [stops_exit hi] at this
      cases this

theorem arrive_before (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {t k j : Nat}
    (hx : Sem.soloAct prog regs0 m0 t j = Act.exit) (hcl : Clean prog regs0 m0 t k j)
    {i b n : Nat} {w : Bool} {pc : Nat} (ha : Sem.soloAct prog regs0 m0 t i = Act.arrive b n w pc) :
    i < k := by
  cases Nat.ltOrGe i j with
  | inr h =>
    match Nat.le.dest h with
    | ⟨d, hd⟩ =>
      have := soloAct_exit prog regs0 m0 t j hx d
      rw [hd, ha] at this
      exact False.elim (arrive_ne_exit this)
  | inl h =>
    cases Nat.ltOrGe i k with
    | inl h' => exact h'
    | inr h' =>
      have := hcl i h' h
      rw [stops_arrive ha] at this
      cases this

/-- `canon` with the deadlock invariant: a finished run has no `EpochDeadlock`. -/
theorem canon_dl (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    ∀ r p h c, CanonInv prog N regs0 m0 p h c → CanonDl prog N regs0 m0 p →
      Finished N (canon prog regs0 m0 N F r p h) = true → ¬Sem.EpochDeadlock prog N regs0 m0 := by
  intro r
  induction r with
  | zero =>
    intro p h c _ _ hfin ⟨_, i, _, _, hi, _, _, _⟩
    have := allB_of hfin i hi
    cases this
  | succ r ih =>
    intro p h c ⟨hF, hc, hp, hH⟩ ⟨hnx, hsame⟩
    match round_spec prog N regs0 m0 F p h c hF hc hp N (Nat.leRefl N) with
    | ⟨g1, g2, g3, g4⟩ =>
      have here : Finished N ⟨roundEvs prog regs0 m0 F p h N,
          fun t => tStop prog regs0 m0 t F (p t)⟩ = true →
          ¬Sem.EpochDeadlock prog N regs0 m0 := by
        intro hfin
        -- every thread exits at `j` of epoch `c`
        have fin : ∀ t, t < N → ∃ j, Sem.soloAct prog regs0 m0 t j = Act.exit ∧
            Sem.bars prog regs0 m0 t j = c ∧ Clean prog regs0 m0 t (p t) j := by
          intro t ht
          match isExit_true (allB_of hfin t ht) with
          | ⟨j, hj⟩ =>
            have hs := g4 t ht
            have hj' : tStop prog regs0 m0 t F (p t) = Stop.exit j := hj
            rw [hj'] at hs
            match hs with
            | ⟨hx, hb, _, hcl⟩ => exact ⟨j, hx, hb, hcl⟩
        intro ⟨e, i, j, b, hi, hj, ⟨k, n, w, pc, hbk, hak⟩, hrest⟩
        match fin i hi with
        | ⟨xi, hxi, _, hcli⟩ =>
          have hki := arrive_before prog regs0 m0 hxi hcli hak
          have hec : e < c := by
            rw [← hbk]; exact bars_arrive_lt prog regs0 m0 hki (hp i hi) hak
          cases hrest with
          | inl hex =>
            match hex, fin j hj with
            | ⟨k2, hb2, hx2⟩, ⟨xj, hxj, hbxj, hclj⟩ =>
              have h1 := first_exit prog regs0 m0 hxj hclj (fun i' h' hx' => hnx j i' hj h' hx') k2 hx2
              have h2 := bars_le prog regs0 m0 j h1
              rw [hbxj, hb2] at h2
              exact Nat.ltIrrefl e (Nat.ltOfLtOfLe hec h2)
          | inr hsy =>
            match hsy, fin j hj with
            | ⟨b', hb', k2, n2, w2, pc2, hb2, ha2⟩, ⟨xj, hxj, _, hclj⟩ =>
              have hk2 := arrive_before prog regs0 m0 hxj hclj ha2
              exact hb' (Eq.symm (hsame i j k k2 b b' n n2 w w2 pc pc2 hi hj hki hk2 hak ha2
                (Eq.trans hbk (Eq.symm hb2))))
      have eC : canon prog regs0 m0 N F (r + 1) p h =
          cond (allB (fun t => (tStop prog regs0 m0 t F (p t)).isExit) N)
            ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩
            (cond (allAtBar N (fun t => tStop prog regs0 m0 t F (p t)))
              (canon prog regs0 m0 N F r (fun t => (tStop prog regs0 m0 t F (p t)).nextPos)
                (Event.barrier :: roundEvs prog regs0 m0 F p h N))
              ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩) := rfl
      rw [eC]
      cases allB (fun t => (tStop prog regs0 m0 t F (p t)).isExit) N with
      | true => exact here
      | false =>
        cases hab : allAtBar N (fun t => tStop prog regs0 m0 t F (p t)) with
        | false => exact here
        | true =>
          match allAtBar_true hab with
          | ⟨b, hb⟩ =>
            -- each thread arrived at `b` at some `j` of epoch `c`
            have arr : ∀ t, t < N → ∃ j n w pc,
                (tStop prog regs0 m0 t F (p t)).nextPos = j + 1 ∧
                Sem.soloAct prog regs0 m0 t j = Act.arrive b n w pc ∧
                Sem.bars prog regs0 m0 t j = c ∧ Held prog regs0 m0 (roundEvs prog regs0 m0 F p h N) t (p t) (j + 1) ∧
                Clean prog regs0 m0 t (p t) j := by
              intro t ht
              match hb t ht with
              | ⟨k', hk'⟩ =>
                have hs := g4 t ht
                rw [hk'] at hs
                match hs with
                | ⟨j, n, w, pc, e, ha, hbj, hh, hcl⟩ =>
                  refine ⟨j, n, w, pc, ?_, ha, hbj, hh, hcl⟩
                  rw [hk']; exact e
            apply ih _ _ (c + 1)
            · refine ⟨fromTraces_bar prog N regs0 m0 g1, ?_, ?_, ?_⟩
              · show nbars (roundEvs prog regs0 m0 F p h N) + 1 = c + 1
                rw [g2]
              · intro t ht
                match arr t ht with
                | ⟨j, n, w, pc, e, ha, hbj, _, _⟩ =>
                  show Sem.bars prog regs0 m0 t (tStop prog regs0 m0 t F (p t)).nextPos = c + 1
                  rw [e]
                  show Sem.bars prog regs0 m0 t j + Sem.isArr (Sem.soloAct prog regs0 m0 t j) = c + 1
                  rw [ha, hbj]
                  rfl
              · intro t ht
                match arr t ht with
                | ⟨j, n, w, pc, e, ha, hbj, hh, _⟩ =>
                  show Held prog regs0 m0 _ t 0 (tStop prog regs0 m0 t F (p t)).nextPos
                  rw [e]
                  exact held_suffix prog regs0 m0 (Suffix.cons _ (Suffix.refl _))
                    (held_join prog regs0 m0 (held_suffix prog regs0 m0 g3 (hH t ht)) hh)
            · refine ⟨?_, ?_⟩
              · intro t i ht hi hx
                match arr t ht with
                | ⟨j, n, w, pc, e, ha, _, _, hcl⟩ =>
                  have hi : i < (tStop prog regs0 m0 t F (p t)).nextPos := hi
                  rw [e] at hi
                  cases pos_cases prog regs0 m0 hcl hi with
                  | inl hold => exact hnx t i ht hold hx
                  | inr hr =>
                    cases hr with
                    | inl hst => rw [stops_exit hx] at hst; cases hst
                    | inr he => rw [he, ha] at hx; exact arrive_ne_exit hx
              · intro t u i i' b1 b2 n1 n2 w1 w2 pc1 pc2 ht hu hi hi' ha1 ha2 hbe
                match arr t ht, arr u hu with
                | ⟨j, n, w, pc, e, ha, hbj, _, hcl⟩, ⟨j', n', w', pc', e', ha', hbj', _, hcl'⟩ =>
                  have hi : i < (tStop prog regs0 m0 t F (p t)).nextPos := hi
                  have hi' : i' < (tStop prog regs0 m0 u F (p u)).nextPos := hi'
                  rw [e] at hi
                  rw [e'] at hi'
                  cases pos_cases prog regs0 m0 hcl hi with
                  | inr hr =>
                    cases hr with
                    | inl hst => rw [stops_arrive ha1] at hst; cases hst
                    | inr he =>
                      -- thread t's new arrival, at `b`, epoch `c`
                      rw [he, ha] at ha1
                      have hb1 : b = b1 := by cases ha1; rfl
                      cases pos_cases prog regs0 m0 hcl' hi' with
                      | inr hr' =>
                        cases hr' with
                        | inl hst => rw [stops_arrive ha2] at hst; cases hst
                        | inr he' =>
                          rw [he', ha'] at ha2
                          have hb2 : b = b2 := by cases ha2; rfl
                          rw [← hb1, ← hb2]
                      | inl hold' =>
                        have hlt := bars_arrive_lt prog regs0 m0 hold' (hp u hu) ha2
                        rw [← hbe, he, hbj] at hlt
                        exact False.elim (Nat.ltIrrefl c hlt)
                  | inl hold =>
                    cases pos_cases prog regs0 m0 hcl' hi' with
                    | inl hold' => exact hsame t u i i' b1 b2 n1 n2 w1 w2 pc1 pc2 ht hu hold hold' ha1 ha2 hbe
                    | inr hr' =>
                      cases hr' with
                      | inl hst => rw [stops_arrive ha2] at hst; cases hst
                      | inr he' =>
                        have hlt := bars_arrive_lt prog regs0 m0 hold (hp t ht) ha1
                        rw [hbe, he', hbj'] at hlt
                        exact False.elim (Nat.ltIrrefl c hlt)

theorem canonDl_init (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    CanonDl prog N regs0 m0 (fun _ => 0) :=
  ⟨fun _ i _ hi _ => Nat.notLtZero i hi,
    fun _ _ i _ _ _ _ _ _ _ _ _ _ _ hi _ _ _ _ => False.elim (Nat.notLtZero i hi)⟩

/-- A finished canonical run shows no deadlock in the traces: `¬EpochDeadlock`. -/
theorem canon_noDeadlock (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (hfin : Finished N (canonRun prog regs0 m0 N F) = true) :
    ¬Sem.EpochDeadlock prog N regs0 m0 :=
  canon_dl prog N F regs0 m0 F _ _ 0 (canonInv_init prog N regs0 m0)
    (canonDl_init prog N regs0 m0) hfin

/-- The composition: for a whole-CTA `bar.sync`, data-independent program, if the canonical
run finishes (every thread exits) and the vector clocks report no race over its history, then
for this initial memory every schedule is race free, the barriers fit, all complete schedules
end in the same state, and every reachable state where no thread can step has every thread
exited. -/
theorem canonical_check_sound (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : Sem.SyncAll prog N)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hfin : Finished N (canonRun prog regs0 m0 N F) = true)
    (hc : check N (canonRun prog regs0 m0 N F).hist = false) :
    Sem.RaceFree prog N (Sem.init regs0 m0) ∧ Sem.BarriersFit prog N (Sem.init regs0 m0) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m0) t1 → Sem.Reach prog N (Sem.init regs0 m0) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m0) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) := by
  have hnr : ¬Sem.EpochRace prog N regs0 m0 := fun hr => by
    have e := Eq.trans (Eq.symm ((canon_check_iff prog N F regs0 m0 hfin).2 hr)) hc
    cases e
  have hnd := canon_noDeadlock prog N F regs0 m0 hfin
  match Sem.epoch_checks_complete prog N regs0 m0 R hsync hind hR0 hnr hnd with
  | ⟨hrf, hfit, hst⟩ =>
    exact ⟨hrf, hfit,
      fun _ _ h1 h2 f1 f2 => Sem.confluence_epoch prog N regs0 m0 R hsync hind hR0 hnr h1 h2 f1 f2,
      hst⟩

theorem bar_of_stop {s : Stop} (hf : s ≠ Stop.fuel) (hx : s.isExit = false) :
    ∃ b k, s = Stop.bar b k := by
  cases s with
  | bar b k => exact ⟨b, k, rfl⟩
  | exit _ => cases hx
  | fuel => exact False.elim (hf rfl)

theorem not_not_false {x : Bool} (h : (!x) = false) : x = true := by
  cases x
  · cases h
  · rfl

theorem not_not_true {x : Bool} (h : (!x) = true) : x = false := by
  cases x
  · rfl
  · cases h

/-- `canon` stopping unfinished without running out of fuel (the executor's `report_stuck`):
`EpochDeadlock`. -/
theorem canon_stuck (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    ∀ r p h c, CanonInv prog N regs0 m0 p h c →
      (∀ t, t < N → (canon prog regs0 m0 N F r p h).stop t ≠ Stop.fuel) →
      Finished N (canon prog regs0 m0 N F r p h) = false → Sem.EpochDeadlock prog N regs0 m0 := by
  intro r
  induction r with
  | zero =>
    intro p h c _ hnf hnfin
    match allB_false hnfin with
    | ⟨t, ht, _⟩ => exact False.elim (hnf t ht rfl)
  | succ r ih =>
    intro p h c ⟨hF, hc, hp, hH⟩
    match round_spec prog N regs0 m0 F p h c hF hc hp N (Nat.leRefl N) with
    | ⟨g1, g2, g3, g4⟩ =>
      have syncAt : ∀ t b k, t < N → tStop prog regs0 m0 t F (p t) = Stop.bar b k →
          Sem.SyncAt prog regs0 m0 t c b := by
        intro t b k ht he
        have hs := g4 t ht
        rw [he] at hs
        match hs with
        | ⟨j, n, w, pc, _, ha, hb, _, _⟩ => exact ⟨j, n, w, pc, hb, ha⟩
      have here : allAtBar N (fun t => tStop prog regs0 m0 t F (p t)) = false →
          (∀ t, t < N → tStop prog regs0 m0 t F (p t) ≠ Stop.fuel) →
          allB (fun t => (tStop prog regs0 m0 t F (p t)).isExit) N = false →
          Sem.EpochDeadlock prog N regs0 m0 := by
        intro hab hnf hnfin
        match allB_false hnfin with
        | ⟨t0, ht0, hx0⟩ =>
          match bar_of_stop (hnf t0 ht0) hx0 with
          | ⟨b0, k0, he0⟩ =>
            cases hall : allB (fun t => !(tStop prog regs0 m0 t F (p t)).isExit) N with
            | false =>
              match allB_false hall with
              | ⟨u, hu, hxu⟩ =>
                match isExit_true (not_not_false hxu) with
                | ⟨j, hj⟩ =>
                  have hs := g4 u hu
                  rw [hj] at hs
                  match hs with
                  | ⟨hx, hb, _, _⟩ =>
                    exact ⟨c, t0, u, b0, ht0, hu, syncAt t0 b0 k0 ht0 he0, Or.inl ⟨j, hb, hx⟩⟩
            | true =>
              have h0 : 0 < N := Nat.ltOfLeOfLt (Nat.zeroLe t0) ht0
              match bar_of_stop (hnf 0 h0) (not_not_true (allB_of hall 0 h0)) with
              | ⟨b, k, he⟩ =>
                have e : allAtBar N (fun t => tStop prog regs0 m0 t F (p t)) =
                    allB (fun t => (tStop prog regs0 m0 t F (p t)).atBar b) N := by
                  show (match (tStop prog regs0 m0 0 F (p 0)).barId with
                    | some b => allB (fun t => (tStop prog regs0 m0 t F (p t)).atBar b) N
                    | none => false) = _
                  rw [he]; rfl
                rw [e] at hab
                match allB_false hab with
                | ⟨u, hu, hbu⟩ =>
                  match bar_of_stop (hnf u hu) (not_not_true (allB_of hall u hu)) with
                  | ⟨b', k', he'⟩ =>
                    have hne : b' ≠ b := by
                      intro eb
                      have : (tStop prog regs0 m0 u F (p u)).atBar b = true := by
                        rw [he', eb]; exact decide_eq_true' rfl
                      rw [hbu] at this; cases this
                    exact ⟨c, 0, u, b, h0, hu, syncAt 0 b k h0 he,
                      Or.inr ⟨b', hne, syncAt u b' k' hu he'⟩⟩
      have eC : canon prog regs0 m0 N F (r + 1) p h =
          cond (allB (fun t => (tStop prog regs0 m0 t F (p t)).isExit) N)
            ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩
            (cond (allAtBar N (fun t => tStop prog regs0 m0 t F (p t)))
              (canon prog regs0 m0 N F r (fun t => (tStop prog regs0 m0 t F (p t)).nextPos)
                (Event.barrier :: roundEvs prog regs0 m0 F p h N))
              ⟨roundEvs prog regs0 m0 F p h N, fun t => tStop prog regs0 m0 t F (p t)⟩) := rfl
      rw [eC]
      cases hx : allB (fun t => (tStop prog regs0 m0 t F (p t)).isExit) N with
      | true =>
        intro _ hnfin
        have e : false = true := Eq.trans (Eq.symm hnfin) hx
        cases e
      | false =>
        cases hab : allAtBar N (fun t => tStop prog regs0 m0 t F (p t)) with
        | false => intro hnf _; exact here hab hnf hx
        | true =>
          match allAtBar_true hab with
          | ⟨b, hb⟩ =>
            apply ih _ _ (c + 1)
            refine ⟨fromTraces_bar prog N regs0 m0 g1, ?_, ?_, ?_⟩
            · show nbars (roundEvs prog regs0 m0 F p h N) + 1 = c + 1
              rw [g2]
            · intro t ht
              match hb t ht with
              | ⟨k', hk'⟩ =>
                have hs := g4 t ht
                rw [hk'] at hs
                match hs with
                | ⟨j, n, w, pc, e, ha, hbj, _, _⟩ =>
                  show Sem.bars prog regs0 m0 t (tStop prog regs0 m0 t F (p t)).nextPos = c + 1
                  rw [hk']
                  show Sem.bars prog regs0 m0 t k' = c + 1
                  rw [e]
                  show Sem.bars prog regs0 m0 t j + Sem.isArr (Sem.soloAct prog regs0 m0 t j) = c + 1
                  rw [ha, hbj]
                  rfl
            · intro t ht
              match hb t ht with
              | ⟨k', hk'⟩ =>
                have hs := g4 t ht
                rw [hk'] at hs
                match hs with
                | ⟨j, n, w, pc, e, ha, hbj, hh, _⟩ =>
                  show Held prog regs0 m0 _ t 0 (tStop prog regs0 m0 t F (p t)).nextPos
                  rw [hk']
                  show Held prog regs0 m0 _ t 0 k'
                  rw [e]
                  exact held_suffix prog regs0 m0 (Suffix.cons _ (Suffix.refl _))
                    (held_join prog regs0 m0 (held_suffix prog regs0 m0 g3 (hH t ht)) hh)

/-- The canonical run stopped before every thread exited, and no thread ran out of fuel in the
last pass (the executor reports a deadlock there: `report_stuck`): then the traces have an
`EpochDeadlock`, which by `deadlock_complete`'s companion `final_of_stuck_epoch` is what every
schedule's stuck states come from. -/
theorem canon_stuck_deadlock (prog : Sem.Prog V) (N F : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (hnf : ∀ t, t < N → (canonRun prog regs0 m0 N F).stop t ≠ Stop.fuel)
    (hnfin : Finished N (canonRun prog regs0 m0 N F) = false) :
    Sem.EpochDeadlock prog N regs0 m0 :=
  canon_stuck prog N F regs0 m0 F _ _ 0 (canonInv_init prog N regs0 m0) hnf hnfin

end Deadlock

/-! ## The bridge to `Checker.lean`'s hypotheses `RaceCheckComplete`, `DeadlockCheckComplete` -/

section Bridge

variable {V : Type} [Sem.AccAdd V]

theorem conflict_of_shape (A B : Act V) (h : SConflict (shape A) (shape B)) : Sem.Conflict A B := by
  cases A <;> cases B <;> exact h

theorem arrive_of_shape {b n : Nat} {w : Bool} :
    ∀ (A : Act V), shape A = AShape.arrive b n w → ∃ pc, A = Act.arrive b n w pc := by
  intro A h
  cases A with
  | arrive b' n' w' pc => cases h; exact ⟨pc, rfl⟩
  | compute _ _ => cases h
  | read _ _ _ => cases h
  | write _ _ _ => cases h
  | atomAdd _ _ _ => cases h
  | exit => cases h

theorem exit_of_shape : ∀ (A : Act V), shape A = AShape.exit → A = Act.exit := by
  intro A h
  cases A with
  | exit => rfl
  | arrive _ _ _ _ => cases h
  | compute _ _ => cases h
  | read _ _ _ => cases h
  | write _ _ _ => cases h
  | atomAdd _ _ _ => cases h

/-- The converse of `traceRace_of_epochRace`: on traces that are the shapes of the solo
traces, `TraceRace` is `EpochRace`. -/
theorem epochRace_of_traceRace (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (tr : Trace) (htr : ∀ i k, i < N → tr i k = shape (Sem.soloAct prog regs0 m0 i k))
    (h : TraceRace tr N) : Sem.EpochRace prog N regs0 m0 := by
  match h with
  | ⟨i, j, ki, kj, hij, hi, hj, hc, hb⟩ =>
    refine ⟨i, j, ki, kj, hij, hi, hj, ?_, ?_⟩
    · rw [htr i ki hi, htr j kj hj] at hc
      exact conflict_of_shape _ _ hc
    · rw [tBars_eq prog regs0 m0 tr i (fun k => htr i k hi) ki,
        tBars_eq prog regs0 m0 tr j (fun k => htr j k hj) kj] at hb
      exact hb

theorem syncAt_of_t (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (tr : Trace)
    (i : Nat) (htr : ∀ k, tr i k = shape (Sem.soloAct prog regs0 m0 i k)) {e b : Nat}
    (h : TSyncAt tr i e b) : Sem.SyncAt prog regs0 m0 i e b := by
  match h with
  | ⟨k, n, w, hb, ha⟩ =>
    rw [htr k] at ha
    rw [tBars_eq prog regs0 m0 tr i htr k] at hb
    match arrive_of_shape _ ha with
    | ⟨pc, hpc⟩ => exact ⟨k, n, w, pc, hb, hpc⟩

theorem exitAt_of_t (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (tr : Trace)
    (i : Nat) (htr : ∀ k, tr i k = shape (Sem.soloAct prog regs0 m0 i k)) {e : Nat}
    (h : TExitAt tr i e) : Sem.ExitAt prog regs0 m0 i e := by
  match h with
  | ⟨k, hb, ha⟩ =>
    rw [htr k] at ha
    rw [tBars_eq prog regs0 m0 tr i htr k] at hb
    exact ⟨k, hb, exit_of_shape _ ha⟩

/-- The converse of `traceDeadlock_of_epochDeadlock`. -/
theorem epochDeadlock_of_traceDeadlock (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (tr : Trace) (htr : ∀ i k, i < N → tr i k = shape (Sem.soloAct prog regs0 m0 i k))
    (h : TraceDeadlock tr N) : Sem.EpochDeadlock prog N regs0 m0 := by
  match h with
  | ⟨e, i, j, b, hi, hj, hs, Or.inl hx⟩ =>
    exact ⟨e, i, j, b, hi, hj, syncAt_of_t prog regs0 m0 tr i (fun k => htr i k hi) hs,
      Or.inl (exitAt_of_t prog regs0 m0 tr j (fun k => htr j k hj) hx)⟩
  | ⟨e, i, j, b, hi, hj, hs, Or.inr ⟨b', hb', hs'⟩⟩ =>
    exact ⟨e, i, j, b, hi, hj, syncAt_of_t prog regs0 m0 tr i (fun k => htr i k hi) hs,
      Or.inr ⟨b', hb', syncAt_of_t prog regs0 m0 tr j (fun k => htr j k hj) hs'⟩⟩

/-- Traces that are the shapes of the solo traces of a program whose canonical run finishes
without a clock report show neither `TraceRace` nor `TraceDeadlock`. -/
theorem traces_clean_of_canon (prog : Sem.Prog V) (N Fu : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (tr : Trace) (htr : ∀ i k, i < N → tr i k = shape (Sem.soloAct prog regs0 m0 i k))
    (hfin : Finished N (canonRun prog regs0 m0 N Fu) = true)
    (hc : check N (canonRun prog regs0 m0 N Fu).hist = false) :
    ¬TraceRace tr N ∧ ¬TraceDeadlock tr N :=
  have hr : ¬TraceRace tr N := fun h => by
    have e := Eq.trans (Eq.symm ((canon_check_iff prog N Fu regs0 m0 hfin).2
      (epochRace_of_traceRace prog N regs0 m0 tr htr h))) hc
    cases e
  ⟨hr, fun h => canon_noDeadlock prog N Fu regs0 m0 hfin
    (epochDeadlock_of_traceDeadlock prog N regs0 m0 tr htr h)⟩

/-- What the executor is assumed to do instead of `RaceCheckComplete` and
`DeadlockCheckComplete`: a run without findings ran, in each CTA, the canonical schedule of some
program over values `V` to the end (every thread exited), the clocks reported nothing, and the
run's traces are the shapes of that program's solo traces. -/
def CanonClean (V : Type) [Sem.AccAdd V] {T D S K F : Type} (X : Oracle T D S K F) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → ∀ c, c < sr.ctas →
      ∃ (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (Fu : Nat),
        (∀ i k, i < sr.threads c →
          sr.trace c i k = shape (Sem.soloAct prog regs0 m0 i k)) ∧
        Finished (sr.threads c) (canonRun prog regs0 m0 (sr.threads c) Fu) = true ∧
        check (sr.threads c) (canonRun prog regs0 m0 (sr.threads c) Fu).hist = false

/-- `CanonClean` discharges `RaceCheckComplete`. -/
theorem raceCheckComplete_of_canonClean {T D S K F : Type} (X : Oracle T D S K F)
    (h : CanonClean V X) : RaceCheckComplete X := by
  intro pair r o wr wo pr k sr hrun hside hfind c hc
  match h pair r o wr wo pr k sr hrun hside hfind c hc with
  | ⟨prog, regs0, m0, Fu, htr, hfin, hck⟩ =>
    exact (traces_clean_of_canon prog _ Fu regs0 m0 _ htr hfin hck).1

/-- `CanonClean` discharges `DeadlockCheckComplete`. -/
theorem deadlockCheckComplete_of_canonClean {T D S K F : Type} (X : Oracle T D S K F)
    (h : CanonClean V X) : DeadlockCheckComplete X := by
  intro pair r o wr wo pr k sr hrun hside hfind c hc
  match h pair r o wr wo pr k sr hrun hside hfind c hc with
  | ⟨prog, regs0, m0, Fu, htr, hfin, hck⟩ =>
    exact (traces_clean_of_canon prog _ Fu regs0 m0 _ htr hfin hck).2

end Bridge

/-! ## Examples, by evaluation: the theorems apply (not vacuous) -/

section Examples

/-- `exampleProg 2` (load, store, whole-CTA barrier, exit): the canonical run finishes and the
clocks report nothing. -/
theorem exampleProg_canon_finished :
    Finished 2 (canonRun (Sem.exampleProg 2 : Sem.Prog Nat) (fun _ _ => 0) (fun _ => 0) 2 8) =
      true := rfl

theorem exampleProg_canon_check :
    check 2 (canonRun (Sem.exampleProg 2 : Sem.Prog Nat) (fun _ _ => 0) (fun _ => 0) 2 8).hist =
      false := rfl

/-- So `canonical_check_sound` applies to it. -/
theorem exampleProg_canon_safe :
    Sem.RaceFree (Sem.exampleProg 2 : Sem.Prog Nat) 2 (Sem.init (fun _ _ => 0) (fun _ => 0)) :=
  (canonical_check_sound (Sem.exampleProg 2) 2 8 (fun _ _ => 0) (fun _ => 0)
    (fun _ _ _ _ => True) (Sem.exampleProg_syncAll 2) (Sem.exampleProg_dataIndep 2)
    (fun _ => True.intro) exampleProg_canon_finished exampleProg_canon_check).1

/-- Every thread writes address 0, then exits: the clocks report the race. -/
def racyProg : Sem.Prog Nat := fun i pc _ =>
  match pc with
  | 0 => Act.write 0 i 1
  | _ => Act.exit

example : Finished 2 (canonRun racyProg (fun _ _ => 0) (fun _ => 0) 2 4) = true := rfl
example : check 2 (canonRun racyProg (fun _ _ => 0) (fun _ => 0) 2 4).hist = true := rfl

/-- The same with a barrier between the writes of thread 0 and of thread 1: no race. -/
def orderedProg : Sem.Prog Nat := fun i pc _ =>
  match pc with
  | 0 => cond (decide (i = 0)) (Act.write 0 i 1) (Act.compute 1 (fun _ => 0))
  | 1 => Act.arrive 0 2 true 2
  | 2 => cond (decide (i = 1)) (Act.write 0 i 3) (Act.compute 3 (fun _ => 0))
  | _ => Act.exit

example : Finished 2 (canonRun orderedProg (fun _ _ => 0) (fun _ => 0) 2 6) = true := rfl
example : check 2 (canonRun orderedProg (fun _ _ => 0) (fun _ => 0) 2 6).hist = false := rfl

/-- Thread 0 exits at once, thread 1 waits at a barrier: the run stops unfinished. -/
def stuckProg : Sem.Prog Nat := fun i pc _ =>
  match pc with
  | 0 => cond (decide (i = 0)) Act.exit (Act.arrive 0 2 true 1)
  | _ => Act.exit

theorem stuckProg_unfinished :
    Finished 2 (canonRun stuckProg (fun _ _ => 0) (fun _ => 0) 2 4) = false := rfl

/-- Its last pass ran out of fuel nowhere, so `canon_stuck_deadlock` applies. -/
theorem stuckProg_deadlock : Sem.EpochDeadlock stuckProg 2 (fun _ _ => 0) (fun _ => 0) :=
  canon_stuck_deadlock stuckProg 2 4 (fun _ _ => 0) (fun _ => 0)
    (fun t ht => by
      cases t with
      | zero => intro h; cases h
      | succ t =>
        cases t with
        | zero => intro h; cases h
        | succ t => exact False.elim (Nat.notSuccLeZero t (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc ht))))
    stuckProg_unfinished

/-- Thread 0 reads address 0, then stores 1 there; thread 1 stores 1 there; no barrier. -/
def gapProg : Sem.Prog Nat := fun i pc _ =>
  match pc with
  | 0 => cond (decide (i = 0)) (Act.read 0 0 1) (Act.write 0 1 2)
  | 1 => Act.write 0 1 2
  | _ => Act.exit

theorem gapProg_canon_finished :
    Finished 2 (canonRun gapProg (fun _ _ => 0) (fun _ => 0) 2 6) = true := rfl

/-- The check without benign writes reports the race. -/
theorem gapProg_canon_check :
    check 2 (canonRun gapProg (fun _ _ => 0) (fun _ => 0) 2 6).hist = true := rfl

/-- The check with benign writes (`same_value` by exact comparison with the cell, as
`access.rs` does for equal values) reports nothing over the canonical run: thread 1's store of
1 meets the 1 that thread 0 stored, and thread 0's read was cleared by its own store. -/
theorem gapProg_canon_checkB :
    checkB (cellSame (fun _ => 0)) 2 (canonRun gapProg (fun _ _ => 0) (fun _ => 0) 2 6).hist =
      false := rfl

/-- Yet the program is not race free even in the relaxed sense: at the launch thread 0 is about
to read address 0 and thread 1 to write it (in the schedule where thread 1 goes first, thread
0's register 0 ends as 1, in the canonical one as 0).  So no theorem can derive `RaceFreeB`
from `checkB` as `race.rs` computes it; see `benign_gap`. -/
theorem gapProg_not_raceFreeB :
    ¬Sem.RaceFreeB gapProg 2 (Sem.init (fun _ _ => 0) (fun _ => 0)) := by
  intro h
  have hc := h _ (Sem.Reach.refl _) 0 1 (fun e => by cases e) (Nat.zeroLtSucc 1)
    (Nat.ltSuccSelf 1) rfl rfl
  cases hc with
  | inl hnc => exact hnc (rfl : (0 : Nat) = 0)
  | inr heq => exact heq

end Examples

end Race
end Kcert
