import Kcert.Compat
import Kcert.Semantics

/-!
# The race and deadlock checks of the canonical execution, in the interleaving model

Rust: `checker/src/exec/race.rs` (vector clocks, `Shadow::access`, `Shadow::atomic`),
`checker/src/exec/mod.rs` (`run_cta`, `resolve_barriers`, `report_stuck`).

The executor runs one schedule only (every ready thread runs until it blocks or exits, then the
barriers are resolved) and reports a race when two accesses of different threads to one address,
one a plain write (or one atomic and one plain), are not ordered by its vector clocks; it reports
a deadlock when no thread can run and not all have exited.  This file proves, in the model
`Kcert.Sem`, that this one-schedule check misses nothing that some schedule has, for the programs
the executor accepts, under two hypotheses stated below:

* `SyncAll prog N`: every barrier arrival is a `bar.sync` (it waits) with the whole CTA as count
  (`bar.sync b` without count, `__syncthreads()`).  No `bar.arrive`, no partial counts.
* `DataIndep prog R`: control flow, addresses, barrier ids and counts do not depend on values read
  from memory.  `R i pc regs regs'` relates two register files of thread `i` at `pc` that agree
  on everything that decides what the thread does; `prog` must map related register files to
  actions of the same kind, with the same address, barrier, count and next `pc`, and to related
  successors, whatever values the loads return.  The values written may differ.  (The executor
  requires the same: a branch or an address that depends on a loaded value is refused.)

Under `DataIndep` each thread's sequence of actions is the same in every schedule.  It is
computed by running the thread alone (`solo`: reads return the initial memory, barriers are
passed at once).  The epoch of the `k`-th action of thread `i` is the number of barriers among
its first `k` actions (`bars`).  With whole-CTA barriers two actions of different threads are
ordered by a barrier exactly when their epochs differ, so the executor's check amounts to:

* `EpochRace`: two threads have conflicting actions (`Conflict`) in the same epoch;
* `EpochDeadlock`: at some epoch `e` one thread's next barrier is `b` while another thread exits
  after `e` barriers or waits next at another barrier `b'`.

Theorems:

* `inv_reach`: every state reachable from the launch `init regs0 m0` matches the solo traces:
  there is a count `c` of completed barriers; each running thread is at an action of epoch `c`,
  each waiting thread has just done its arrival of epoch `c`, each exited thread exited in epoch
  `c`; and no barrier has every thread waiting at it.
* `race_complete`: a reachable state where two running threads are about to do conflicting
  actions gives `EpochRace`.  `raceFree_of_noEpochRace`: without `EpochRace`, `RaceFree`.
* `deadlock_complete`: a reachable state where no thread can step but some thread has not exited
  gives `EpochDeadlock`.
* `barriersFit_of_syncAll`: whole-CTA `bar.sync` barriers always fit (`BarriersFit`).
* `confluence_epoch`, `no_stuck_epoch`: without `EpochRace`, all schedules end in one state,
  and if one finishes none gets stuck; `final_of_stuck_epoch`: without `EpochDeadlock`, every
  state where no thread can step has every thread exited.
* `exampleProg_syncAll`, `exampleProg_dataIndep`: a small program (load, store of the loaded
  value, barrier, exit) meets both hypotheses, so they are not vacuous.

Not covered: the vector-clock code itself (that `Clocks`/`Shadow` compute "not ordered" as the
epoch comparison for whole-CTA barriers), the executor's schedule as a function, named barriers
with partial counts, `bar.arrive`, the benign equal-value writes (relaxed predicates in
`Benign.lean`: `EpochRaceB`, `raceFreeB_of_noEpochRaceB`), and the converse (that each
report is a real race or deadlock: `EpochRace` can hold past a barrier that never completes).
-/

namespace Kcert
namespace Sem

section Defs

variable {V : Type} [AccAdd V]

/-- Every barrier arrival waits (`bar.sync`) and counts the whole CTA (`N`). -/
def SyncAll (prog : Prog V) (N : Nat) : Prop :=
  ∀ i pc regs b n w pc', prog i pc regs = Act.arrive b n w pc' → n = N ∧ w = true

/-- Two actions, from related register files `regs` and `regs'`, do the same thing up to the
values they write: same kind, address, register, barrier, count, next `pc`, and related
successor register files (for a read, whatever values it returns). -/
def ActRel (R : Nat → (Nat → V) → (Nat → V) → Prop) (regs regs' : Nat → V) :
    Act V → Act V → Prop
  | Act.compute pc r, Act.compute pc' r' => pc = pc' ∧ R pc r r'
  | Act.read a r pc, Act.read a' r' pc' =>
    a = a' ∧ r = r' ∧ pc = pc' ∧ ∀ x y, R pc (upd regs r x) (upd regs' r y)
  | Act.write a _ pc, Act.write a' _ pc' => a = a' ∧ pc = pc' ∧ R pc regs regs'
  | Act.atomAdd a _ pc, Act.atomAdd a' _ pc' => a = a' ∧ pc = pc' ∧ R pc regs regs'
  | Act.arrive b n w pc, Act.arrive b' n' w' pc' =>
    b = b' ∧ n = n' ∧ w = w' ∧ pc = pc' ∧ R pc regs regs'
  | Act.exit, Act.exit => True
  | Act.compute _ _, Act.read _ _ _ => False
  | Act.compute _ _, Act.write _ _ _ => False
  | Act.compute _ _, Act.atomAdd _ _ _ => False
  | Act.compute _ _, Act.arrive _ _ _ _ => False
  | Act.compute _ _, Act.exit => False
  | Act.read _ _ _, Act.compute _ _ => False
  | Act.read _ _ _, Act.write _ _ _ => False
  | Act.read _ _ _, Act.atomAdd _ _ _ => False
  | Act.read _ _ _, Act.arrive _ _ _ _ => False
  | Act.read _ _ _, Act.exit => False
  | Act.write _ _ _, Act.compute _ _ => False
  | Act.write _ _ _, Act.read _ _ _ => False
  | Act.write _ _ _, Act.atomAdd _ _ _ => False
  | Act.write _ _ _, Act.arrive _ _ _ _ => False
  | Act.write _ _ _, Act.exit => False
  | Act.atomAdd _ _ _, Act.compute _ _ => False
  | Act.atomAdd _ _ _, Act.read _ _ _ => False
  | Act.atomAdd _ _ _, Act.write _ _ _ => False
  | Act.atomAdd _ _ _, Act.arrive _ _ _ _ => False
  | Act.atomAdd _ _ _, Act.exit => False
  | Act.arrive _ _ _ _, Act.compute _ _ => False
  | Act.arrive _ _ _ _, Act.read _ _ _ => False
  | Act.arrive _ _ _ _, Act.write _ _ _ => False
  | Act.arrive _ _ _ _, Act.atomAdd _ _ _ => False
  | Act.arrive _ _ _ _, Act.exit => False
  | Act.exit, Act.compute _ _ => False
  | Act.exit, Act.read _ _ _ => False
  | Act.exit, Act.write _ _ _ => False
  | Act.exit, Act.atomAdd _ _ _ => False
  | Act.exit, Act.arrive _ _ _ _ => False

/-- Control flow and addresses do not depend on loaded values: related register files (`R i pc`)
give related actions (`ActRel`). -/
def DataIndep (prog : Prog V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) : Prop :=
  ∀ i pc regs regs', R i pc regs regs' → ActRel (R i) regs regs' (prog i pc regs) (prog i pc regs')

/-- Two states of thread `i`: same `pc`, related registers. -/
def TRel (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (i : Nat) (t u : TState V) : Prop :=
  t.pc = u.pc ∧ R i t.pc t.regs u.regs

/-- Thread `i` run alone from the launch: reads return the initial memory `m0`, a barrier is
passed at once (its status is ignored).  Its `k`-th state. -/
def solo (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat) : Nat → TState V
  | 0 => ⟨0, regs0 i, Status.run⟩
  | k + 1 => newT (prog i (solo prog regs0 m0 i k).pc (solo prog regs0 m0 i k).regs) false
      (solo prog regs0 m0 i k) m0

/-- The `k`-th action of thread `i` run alone. -/
def soloAct (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) : Act V :=
  prog i (solo prog regs0 m0 i k).pc (solo prog regs0 m0 i k).regs

/-- 1 for a barrier arrival, else 0. -/
def isArr : Act V → Nat
  | Act.arrive _ _ _ _ => 1
  | _ => 0

/-- The epoch of thread `i`'s `k`-th action: the number of barrier arrivals before it. -/
def bars (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat) : Nat → Nat
  | 0 => 0
  | k + 1 => bars prog regs0 m0 i k + isArr (soloAct prog regs0 m0 i k)

/-- The executor's race check, for whole-CTA barriers: two different threads have conflicting
actions in the same epoch (not ordered by a barrier). -/
def EpochRace (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ i j ki kj, i ≠ j ∧ i < N ∧ j < N ∧
    Conflict (soloAct prog regs0 m0 i ki) (soloAct prog regs0 m0 j kj) ∧
    bars prog regs0 m0 i ki = bars prog regs0 m0 j kj

/-- Thread `i`'s arrival of epoch `e` (after `e` barriers) is at barrier `b`. -/
def SyncAt (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i e b : Nat) : Prop :=
  ∃ k n w pc, bars prog regs0 m0 i k = e ∧ soloAct prog regs0 m0 i k = Act.arrive b n w pc

/-- Thread `i` exits after `e` barriers. -/
def ExitAt (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i e : Nat) : Prop :=
  ∃ k, bars prog regs0 m0 i k = e ∧ soloAct prog regs0 m0 i k = Act.exit

/-- The executor's barrier check, for whole-CTA barriers: at some epoch one thread waits next at
`b` while another exits or waits next at another barrier. -/
def EpochDeadlock (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ e i j b, i < N ∧ j < N ∧ SyncAt prog regs0 m0 i e b ∧
    (ExitAt prog regs0 m0 j e ∨ ∃ b', b' ≠ b ∧ SyncAt prog regs0 m0 j e b')

/-- The invariant for one thread, `c` barriers having completed. -/
def ThInv (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (i c : Nat) (t : TState V) : Prop :=
  (t.status = Status.run →
    ∃ k, TRel R i t (solo prog regs0 m0 i k) ∧ bars prog regs0 m0 i k = c) ∧
  (∀ b, t.status = Status.bar b →
    ∃ k n pc, soloAct prog regs0 m0 i k = Act.arrive b n true pc ∧
      bars prog regs0 m0 i k = c ∧ TRel R i t (solo prog regs0 m0 i (k + 1))) ∧
  (t.status = Status.exited →
    ∃ k, soloAct prog regs0 m0 i k = Act.exit ∧ bars prog regs0 m0 i k = c)

/-- The invariant of reachable states: no arrivals without waiting; no barrier has every thread
waiting; every thread matches its solo trace at epoch `c`. -/
def Inv (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (s : CState V) : Prop :=
  (∀ b, s.arr b = 0) ∧
  (0 < N → ∀ b, ∃ i, i < N ∧ waiting b (s.th i).status = false) ∧
  ∃ c, ∀ i, i < N → ThInv prog regs0 m0 R i c (s.th i)

end Defs

section Count

variable {V : Type} [AccAdd V]

theorem cond_le_one (x : Bool) : cond x 1 0 ≤ 1 := by
  cases x
  · exact Nat.zeroLe 1
  · exact Nat.leRefl 1

theorem countAt_le (b : Nat) (th : Nat → TState V) : ∀ N, countAt b th N ≤ N := by
  intro N
  induction N with
  | zero => exact Nat.leRefl 0
  | succ N ih =>
    show countAt b th N + cond (waiting b (th N).status) 1 0 ≤ N + 1
    exact Nat.leTrans (Nat.addLeAddRight ih _) (Nat.addLeAddLeft (cond_le_one _) N)

/-- One thread below `N` does not wait at `b`: at most `N - 1` do. -/
theorem countAt_miss1 (b i : Nat) (th : Nat → TState V) (hw : waiting b (th i).status = false) :
    ∀ N, i < N → countAt b th N + 1 ≤ N := by
  intro N
  induction N with
  | zero => intro h; exact False.elim (Nat.notLtZero i h)
  | succ N ih =>
    intro hi
    show countAt b th N + cond (waiting b (th N).status) 1 0 + 1 ≤ N + 1
    cases Nat.decEq N i with
    | isTrue e =>
      rw [e, hw]
      exact Nat.succLeSucc (countAt_le b th i)
    | isFalse e =>
      have hiN : i < N := Nat.ltOfLeOfNe (Nat.leOfLtSucc hi) (fun e' => e (Eq.symm e'))
      rw [Nat.add_right_comm]
      exact Nat.leTrans (Nat.addLeAddRight (ih hiN) _) (Nat.addLeAddLeft (cond_le_one _) N)

/-- Two different threads below `N` do not wait at `b`: at most `N - 2` do. -/
theorem countAt_miss2 (b i j : Nat) (th : Nat → TState V) (hij : i ≠ j)
    (hwi : waiting b (th i).status = false) (hwj : waiting b (th j).status = false) :
    ∀ N, i < N → j < N → countAt b th N + 2 ≤ N := by
  intro N
  induction N with
  | zero => intro h; exact False.elim (Nat.notLtZero i h)
  | succ N ih =>
    intro hi hj
    show countAt b th N + cond (waiting b (th N).status) 1 0 + 2 ≤ N + 1
    cases Nat.decEq N i with
    | isTrue e =>
      have hjN : j < N := Nat.ltOfLeOfNe (Nat.leOfLtSucc hj)
        (fun e' => hij (Eq.trans (Eq.symm e) (Eq.symm e')))
      rw [e, hwi]
      rw [← e]
      exact Nat.succLeSucc (countAt_miss1 b j th hwj N hjN)
    | isFalse e =>
      have hiN : i < N := Nat.ltOfLeOfNe (Nat.leOfLtSucc hi) (fun e' => e (Eq.symm e'))
      cases Nat.decEq N j with
      | isTrue e2 =>
        rw [e2, hwj]
        rw [← e2]
        exact Nat.succLeSucc (countAt_miss1 b i th hwi N hiN)
      | isFalse e2 =>
        have hjN : j < N := Nat.ltOfLeOfNe (Nat.leOfLtSucc hj) (fun e' => e2 (Eq.symm e'))
        rw [Nat.add_right_comm]
        exact Nat.leTrans (Nat.addLeAddRight (ih hiN hjN) _) (Nat.addLeAddLeft (cond_le_one _) N)

/-- Fewer than `N` threads wait at `b`: one below `N` does not. -/
theorem exists_not_waiting (b : Nat) (th : Nat → TState V) :
    ∀ N, countAt b th N < N → ∃ i, i < N ∧ waiting b (th i).status = false := by
  intro N
  induction N with
  | zero => intro h; exact False.elim (Nat.notLtZero _ h)
  | succ N ih =>
    intro h
    cases hw : waiting b (th N).status with
    | false => exact ⟨N, Nat.leRefl (N + 1), hw⟩
    | true =>
      have h' : countAt b th N + 1 < N + 1 := by
        have e : countAt b th (N + 1) = countAt b th N + cond (waiting b (th N).status) 1 0 := rfl
        rw [e, hw] at h
        exact h
      match ih (Nat.leOfSuccLeSucc h') with
      | ⟨i, hi, hwi⟩ => exact ⟨i, Nat.leStep hi, hwi⟩

end Count


section Rel

variable {V : Type} [AccAdd V]

theorem isArr_rel {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A A' : Act V}
    (h : ActRel R r r' A A') : isArr A = isArr A' := by
  cases A <;> cases A' <;> first | contradiction | rfl

theorem actRel_exit {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A' : Act V}
    (h : ActRel R r r' Act.exit A') : A' = Act.exit := by
  cases A' <;> first | contradiction | rfl

theorem actRel_arrive {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A' : Act V}
    {b n : Nat} {w : Bool} {pc : Nat}
    (h : ActRel R r r' (Act.arrive b n w pc) A') : A' = Act.arrive b n w pc := by
  cases A' with
  | compute pc' r2 => exact False.elim h
  | read a r2 pc' => exact False.elim h
  | write a v pc' => exact False.elim h
  | atomAdd a v pc' => exact False.elim h
  | exit => exact False.elim h
  | arrive b' n' w' pc' =>
    match h with
    | ⟨e1, e2, e3, e4, _⟩ => rw [e1, e2, e3, e4]

/-- Related actions conflict with the same actions: `Conflict` reads only kinds and
addresses. -/
theorem conflict_rel_left {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V}
    {A A' : Act V} (B : Act V) (h : ActRel R r r' A A') (hc : Conflict A B) : Conflict A' B := by
  cases A <;> cases A' <;> (first | contradiction | skip) <;>
    first | (rw [← h.1]; cases B <;> exact hc) | exact False.elim hc

theorem conflict_rel {R R' : Nat → (Nat → V) → (Nat → V) → Prop} {r r' q q' : Nat → V}
    {A A' B B' : Act V} (hA : ActRel R r r' A A') (hB : ActRel R' q q' B B')
    (hc : Conflict A B) : Conflict A' B' :=
  conflict_symm _ _ (conflict_rel_left A' hB (conflict_symm _ _ (conflict_rel_left B hA hc)))

/-- Related actions from related thread states lead to related thread states. -/
theorem trel_newT {R : Nat → Nat → (Nat → V) → (Nat → V) → Prop} {i : Nat} {t u : TState V}
    {A A' : Act V} (f g : Bool) (m m' : Nat → V) (h : ActRel (R i) t.regs u.regs A A')
    (ht : TRel R i t u) : TRel R i (newT A f t m) (newT A' g u m') := by
  cases A <;> cases A' <;> (first | contradiction | skip)
  · exact h
  · match h with
    | ⟨_, er, ep, hx⟩ =>
      refine ⟨ep, ?_⟩
      show R i _ (upd t.regs _ (m _)) (upd u.regs _ (m' _))
      rw [← er]
      exact hx _ _
  · exact h.2
  · exact h.2
  · exact h.2.2.2
  · exact ht

theorem actRel_of_trel (prog : Prog V) {R : Nat → Nat → (Nat → V) → (Nat → V) → Prop}
    (hind : DataIndep prog R) {i : Nat} {t u : TState V} (ht : TRel R i t u) :
    ActRel (R i) t.regs u.regs (prog i t.pc t.regs) (prog i u.pc u.regs) := by
  have h := hind i t.pc t.regs u.regs ht.2
  rw [← ht.1]
  exact h

theorem status_of_waiting {b : Nat} {st : Status} (h : waiting b st = true) :
    st = Status.bar b := by
  cases st with
  | run => cases h
  | exited => cases h
  | bar d => rw [of_decide_eq_true' h]

theorem run_ne_bar {b : Nat} (h : Status.run = Status.bar b) : False := by cases h
theorem run_ne_exited (h : Status.run = Status.exited) : False := by cases h
theorem bar_ne_exited {b : Nat} (h : Status.bar b = Status.exited) : False := by cases h
theorem bar_inj {b c : Nat} (h : Status.bar b = Status.bar c) : b = c := by cases h; rfl

theorem thInv_run (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {i c k : Nat} {t : TState V}
    (hs : t.status = Status.run) (ht : TRel R i t (solo prog regs0 m0 i k))
    (hb : bars prog regs0 m0 i k = c) : ThInv prog regs0 m0 R i c t := by
  refine ⟨fun _ => ⟨k, ht, hb⟩, ?_, ?_⟩
  · intro b h; rw [hs] at h; exact False.elim (run_ne_bar h)
  · intro h; rw [hs] at h; exact False.elim (run_ne_exited h)

theorem thInv_bar (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {i c k b n pc : Nat} {t : TState V}
    (hs : t.status = Status.bar b) (ha : soloAct prog regs0 m0 i k = Act.arrive b n true pc)
    (hb : bars prog regs0 m0 i k = c) (ht : TRel R i t (solo prog regs0 m0 i (k + 1))) :
    ThInv prog regs0 m0 R i c t := by
  refine ⟨?_, ?_, ?_⟩
  · intro h; rw [hs] at h; exact False.elim (run_ne_bar (Eq.symm h))
  · intro b' h
    rw [hs] at h
    rw [← bar_inj h]
    exact ⟨k, n, pc, ha, hb, ht⟩
  · intro h; rw [hs] at h; exact False.elim (bar_ne_exited h)

theorem thInv_exit (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {i c k : Nat} {t : TState V}
    (hs : t.status = Status.exited) (ha : soloAct prog regs0 m0 i k = Act.exit)
    (hb : bars prog regs0 m0 i k = c) : ThInv prog regs0 m0 R i c t := by
  refine ⟨?_, ?_, fun _ => ⟨k, ha, hb⟩⟩
  · intro h; rw [hs] at h; exact False.elim (run_ne_exited (Eq.symm h))
  · intro b h; rw [hs] at h; exact False.elim (bar_ne_exited (Eq.symm h))

end Rel


section Invariant

variable {V : Type} [AccAdd V]

theorem firesA_na (N : Nat) (A : Act V) (s : CState V)
    (hna : ∀ b n w pc, A = Act.arrive b n w pc → False) : firesA N A s = false := by
  cases A with
  | arrive b n w pc => exact False.elim (hna b n w pc rfl)
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl

theorem not_sameBar_na (A B : Act V) (hna : ∀ b n w pc, A = Act.arrive b n w pc → False) :
    ¬SameBar A B := by
  cases A with
  | arrive b n w pc => exact False.elim (hna b n w pc rfl)
  | compute pc r => exact fun h => h
  | read a r pc => exact fun h => h
  | write a v pc => exact fun h => h
  | atomAdd a v pc => exact fun h => h
  | exit => exact fun h => h

/-- With `bar.sync` only, no barrier ever counts an arrival without waiting. -/
theorem arr_next_zero (prog : Prog V) (N : Nat) (hsync : SyncAll prog N) (j : Nat)
    (s : CState V) (har : ∀ b, s.arr b = 0) : ∀ x, (next prog N j s).arr x = 0 := by
  intro x
  rw [next_arr]
  cases hA : act prog j s with
  | arrive b n w pc =>
    have hw : w = true := (hsync j (s.th j).pc (s.th j).regs b n w pc hA).2
    rw [hw]
    show upd s.arr b (arrNew (firesA N (Act.arrive b n true pc) s) true (s.arr b)) x = 0
    cases Nat.decEq x b with
    | isTrue hx =>
      rw [hx, upd_same, har b]
      cases firesA N (Act.arrive b n true pc) s <;> rfl
    | isFalse hx => rw [upd_other _ _ hx, har x]
  | compute pc r => exact har x
  | read a r pc => exact har x
  | write a v pc => exact har x
  | atomAdd a v pc => exact har x
  | exit => exact har x

theorem inv_next_na (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (s : CState V) (j : Nat) (hj : j < N)
    (c : Nat) (hth : ∀ i, i < N → ThInv prog regs0 m0 R i c (s.th i))
    (har' : ∀ x, (next prog N j s).arr x = 0)
    (hna : ∀ b n w pc, act prog j s = Act.arrive b n w pc → False)
    (hj' : ThInv prog regs0 m0 R j c ((next prog N j s).th j)) :
    Inv prog N regs0 m0 R (next prog N j s) := by
  have hf : firesA N (act prog j s) s = false := firesA_na N _ s hna
  refine ⟨har', ?_, c, ?_⟩
  · intro _ b
    refine ⟨j, hj, ?_⟩
    rw [next_th_self]
    exact waiting_newT _ _ _ _ (not_sameBar_na _ (Act.arrive b 0 true 0) hna)
  · intro i hi
    cases Nat.decEq i j with
    | isTrue e => rw [e]; exact hj'
    | isFalse e =>
      rw [next_th_other prog N j s e, hf, effOther_false]
      exact hth i hi

/-- One step of a running thread keeps the invariant. -/
theorem inv_next (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (s : CState V) (j : Nat) (hj : j < N)
    (hr : (s.th j).status = Status.run) (hinv : Inv prog N regs0 m0 R s) :
    Inv prog N regs0 m0 R (next prog N j s) := by
  match hinv with
  | ⟨har, _, c, hth⟩ =>
  match (hth j hj).1 hr with
  | ⟨k, htr, hbk⟩ =>
  have hrel : ActRel (R j) (s.th j).regs (solo prog regs0 m0 j k).regs (act prog j s)
      (soloAct prog regs0 m0 j k) := actRel_of_trel prog hind htr
  have htr' : TRel R j ((next prog N j s).th j) (solo prog regs0 m0 j (k + 1)) := by
    rw [next_th_self]
    exact trel_newT _ false s.mem m0 hrel htr
  have hbk' : bars prog regs0 m0 j (k + 1) = c + isArr (act prog j s) := by
    show bars prog regs0 m0 j k + isArr (soloAct prog regs0 m0 j k) = c + isArr (act prog j s)
    rw [hbk, isArr_rel hrel]
  have har' := arr_next_zero prog N hsync j s har
  cases hA : act prog j s with
  | compute pc r =>
    have hna : ∀ b n w pc', act prog j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    refine inv_next_na prog N regs0 m0 R s j hj c hth har' hna ?_
    have hs : ((next prog N j s).th j).status = Status.run := by rw [next_th_self, hA]; rfl
    rw [hA] at hbk'
    exact thInv_run prog regs0 m0 R hs htr' hbk'
  | read a r pc =>
    have hna : ∀ b n w pc', act prog j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    refine inv_next_na prog N regs0 m0 R s j hj c hth har' hna ?_
    have hs : ((next prog N j s).th j).status = Status.run := by rw [next_th_self, hA]; rfl
    rw [hA] at hbk'
    exact thInv_run prog regs0 m0 R hs htr' hbk'
  | write a v pc =>
    have hna : ∀ b n w pc', act prog j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    refine inv_next_na prog N regs0 m0 R s j hj c hth har' hna ?_
    have hs : ((next prog N j s).th j).status = Status.run := by rw [next_th_self, hA]; rfl
    rw [hA] at hbk'
    exact thInv_run prog regs0 m0 R hs htr' hbk'
  | atomAdd a v pc =>
    have hna : ∀ b n w pc', act prog j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    refine inv_next_na prog N regs0 m0 R s j hj c hth har' hna ?_
    have hs : ((next prog N j s).th j).status = Status.run := by rw [next_th_self, hA]; rfl
    rw [hA] at hbk'
    exact thInv_run prog regs0 m0 R hs htr' hbk'
  | exit =>
    have hna : ∀ b n w pc', act prog j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    refine inv_next_na prog N regs0 m0 R s j hj c hth har' hna ?_
    have hs : ((next prog N j s).th j).status = Status.exited := by rw [next_th_self, hA]; rfl
    rw [hA] at hrel
    exact thInv_exit prog regs0 m0 R hs (actRel_exit hrel) hbk
  | arrive b n w pc =>
    match hsync j (s.th j).pc (s.th j).regs b n w pc hA with
    | ⟨hn, hw⟩ =>
    rw [hA] at hrel hbk'
    have hsa : soloAct prog regs0 m0 j k = Act.arrive b n w pc := actRel_arrive hrel
    rw [hn, hw] at hsa
    have hfire : firesA N (act prog j s) s = decide (N ≤ countAt b s.th N + 1) := by
      rw [hA, hn]
      show decide (N ≤ countAt b s.th N + s.arr b + 1) = _
      rw [har b, Nat.add_zero]
    have hwj : waiting b (s.th j).status = false := by rw [hr]; rfl
    cases hf : decide (N ≤ countAt b s.th N + 1) with
    | false =>
      have hfA : firesA N (act prog j s) s = false := by rw [hfire, hf]
      have hs : ((next prog N j s).th j).status = Status.bar b := by
        rw [next_th_self, hfA, hA, hw]; rfl
      refine ⟨har', ?_, c, ?_⟩
      · intro _ b'
        cases Nat.decEq b' b with
        | isTrue e =>
          rw [e]
          have h1 : countAt b (next prog N j s).th N + (next prog N j s).arr b =
              countAt b s.th N + s.arr b + 1 := arrivals_arrive prog N j s hj hr hA hfA
          rw [har' b, har b, Nat.add_zero, Nat.add_zero] at h1
          have hlt : countAt b s.th N + 1 < N := Nat.gtOfNotLe (of_decide_eq_false' hf)
          have hlt2 : countAt b (next prog N j s).th N < N := by rw [h1]; exact hlt
          exact exists_not_waiting b _ N hlt2
        | isFalse e =>
          refine ⟨j, hj, ?_⟩
          rw [hs]
          exact decide_eq_false' (fun h => e (Eq.symm h))
      · intro i hi
        cases Nat.decEq i j with
        | isTrue e => rw [e]; exact thInv_bar prog regs0 m0 R hs hsa hbk htr'
        | isFalse e =>
          rw [next_th_other prog N j s e, hfA, effOther_false]
          exact hth i hi
    | true =>
      have hfA : firesA N (act prog j s) s = true := by rw [hfire, hf]
      have hle : N ≤ countAt b s.th N + 1 := of_decide_eq_true' hf
      have hall : ∀ i, i < N → i ≠ j → waiting b (s.th i).status = true := by
        intro i hi e
        cases hw' : waiting b (s.th i).status with
        | true => rfl
        | false =>
          have h2 := countAt_miss2 b i j s.th e hw' hwj N hi hj
          exact False.elim (Nat.notSuccLeSelf (countAt b s.th N + 1) (Nat.leTrans h2 hle))
      have hs : ((next prog N j s).th j).status = Status.run := by
        rw [next_th_self, hfA, hA]; rfl
      have hwit' : 0 < N → ∀ b', ∃ i, i < N ∧ waiting b' ((next prog N j s).th i).status = false :=
        fun _ b' => ⟨j, hj, by rw [hs]; rfl⟩
      refine ⟨har', hwit', c + 1, ?_⟩
      · intro i hi
        cases Nat.decEq i j with
        | isTrue e => rw [e]; exact thInv_run prog regs0 m0 R hs htr' hbk'
        | isFalse e =>
          have hwi := hall i hi e
          have hsi : (s.th i).status = Status.bar b := status_of_waiting hwi
          match (hth i hi).2.1 b hsi with
          | ⟨ki, ni, pci, hai, hbi, htri⟩ =>
            have hnext : (next prog N j s).th i = { s.th i with status := Status.run } := by
              rw [next_th_other prog N j s e, hfA, hA]
              show cond (waiting b (s.th i).status) { s.th i with status := Status.run } (s.th i) = _
              rw [hwi]
              rfl
            rw [hnext]
            refine thInv_run prog regs0 m0 R rfl htri ?_
            show bars prog regs0 m0 i ki + isArr (soloAct prog regs0 m0 i ki) = c + 1
            rw [hbi, hai]
            rfl

theorem inv_same (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {s t : CState V} (h : Same s t)
    (hinv : Inv prog N regs0 m0 R s) : Inv prog N regs0 m0 R t := by
  match hinv with
  | ⟨har, hwit, c, hth⟩ =>
    refine ⟨fun b => by rw [← h.2.2 b]; exact har b, ?_, c, fun i hi => by rw [← h.1 i]; exact hth i hi⟩
    intro hN b
    match hwit hN b with
    | ⟨i, hi, hw⟩ => exact ⟨i, hi, by rw [← h.1 i]; exact hw⟩

theorem inv_init (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) :
    Inv prog N regs0 m0 R (init regs0 m0) := by
  refine ⟨fun _ => rfl, fun hN _ => ⟨0, hN, rfl⟩, 0, ?_⟩
  intro i _
  exact thInv_run prog regs0 m0 R (k := 0) rfl ⟨rfl, hR0 i⟩ rfl

theorem inv_reach_gen (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) {s r : CState V} (hs : Reach prog N s r) :
    Inv prog N regs0 m0 R s → Inv prog N regs0 m0 R r := by
  induction hs with
  | refl s => exact fun h => h
  | step hst _ ih =>
    intro h
    match hst with
    | ⟨j, hj, hrun, hsame⟩ =>
      exact ih (inv_same prog N regs0 m0 R (same_symm hsame)
        (inv_next prog N regs0 m0 R hsync hind _ j hj hrun h))

/-- Every state reachable from the launch satisfies the invariant. -/
theorem inv_reach (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) {r : CState V}
    (hr : Reach prog N (init regs0 m0) r) : Inv prog N regs0 m0 R r :=
  inv_reach_gen prog N regs0 m0 R hsync hind hr (inv_init prog N regs0 m0 R hR0)

end Invariant


section Theorems

variable {V : Type} [AccAdd V]

/-- Completeness of the race check: if some schedule reaches a state where two different running
threads are about to do conflicting actions, the per-thread traces have two conflicting actions
of those threads in the same epoch. -/
theorem race_complete (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) {r : CState V}
    (hr : Reach prog N (init regs0 m0) r) {i j : Nat} (hij : i ≠ j) (hi : i < N) (hj : j < N)
    (hri : (r.th i).status = Status.run) (hrj : (r.th j).status = Status.run)
    (hc : Conflict (act prog i r) (act prog j r)) : EpochRace prog N regs0 m0 := by
  match inv_reach prog N regs0 m0 R hsync hind hR0 hr with
  | ⟨_, _, c, hth⟩ =>
    match (hth i hi).1 hri, (hth j hj).1 hrj with
    | ⟨ki, htri, hbi⟩, ⟨kj, htrj, hbj⟩ =>
      exact ⟨i, j, ki, kj, hij, hi, hj,
        conflict_rel (actRel_of_trel prog hind htri) (actRel_of_trel prog hind htrj) hc,
        Eq.trans hbi (Eq.symm hbj)⟩

/-- A program whose traces have no race in one epoch is race free in every schedule. -/
theorem raceFree_of_noEpochRace (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hno : ¬EpochRace prog N regs0 m0) : RaceFree prog N (init regs0 m0) :=
  fun _ hr _ _ hij hi hj hri hrj hc =>
    hno (race_complete prog N regs0 m0 R hsync hind hR0 hr hij hi hj hri hrj hc)

/-- Completeness of the deadlock check: if some schedule reaches a state where no thread can
step and some thread has not exited, the traces disagree at some epoch: one thread's next
barrier is `b` while another exits or waits next at another barrier. -/
theorem deadlock_complete (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) {r : CState V}
    (hr : Reach prog N (init regs0 m0) r) (hs : ∀ v, Step prog N r v → False) {i : Nat}
    (hi : i < N) (hne : (r.th i).status ≠ Status.exited) : EpochDeadlock prog N regs0 m0 := by
  have hnr : ∀ k, k < N → (r.th k).status = Status.run → False :=
    fun k hk hrun => hs (next prog N k r) ⟨k, hk, hrun, same_refl _⟩
  match inv_reach prog N regs0 m0 R hsync hind hR0 hr with
  | ⟨_, hwit, c, hth⟩ =>
    cases hsi : (r.th i).status with
    | run => exact False.elim (hnr i hi hsi)
    | exited => exact False.elim (hne hsi)
    | bar b =>
      match (hth i hi).2.1 b hsi with
      | ⟨ki, ni, pci, hai, hbi, _⟩ =>
        have hsy : SyncAt prog regs0 m0 i c b := ⟨ki, ni, true, pci, hbi, hai⟩
        match hwit (Nat.ltOfLeOfLt (Nat.zeroLe i) hi) b with
        | ⟨i', hi', hw'⟩ =>
          cases hsi' : (r.th i').status with
          | run => exact False.elim (hnr i' hi' hsi')
          | exited =>
            match (hth i' hi').2.2 hsi' with
            | ⟨k', ha', hb'⟩ => exact ⟨c, i, i', b, hi, hi', hsy, Or.inl ⟨k', hb', ha'⟩⟩
          | bar b' =>
            have hne' : b' ≠ b := by
              rw [hsi'] at hw'
              exact of_decide_eq_false' hw'
            match (hth i' hi').2.1 b' hsi' with
            | ⟨k', n', pc', ha', hb', _⟩ =>
              exact ⟨c, i, i', b, hi, hi', hsy, Or.inr ⟨b', hne', k', n', true, pc', hb', ha'⟩⟩

theorem arr_reach_zero (prog : Prog V) (N : Nat) (hsync : SyncAll prog N) {s r : CState V}
    (hs : Reach prog N s r) : (∀ b, s.arr b = 0) → ∀ b, r.arr b = 0 := by
  induction hs with
  | refl s => exact fun h => h
  | step hst _ ih =>
    intro h
    match hst with
    | ⟨j, _, _, hsame⟩ =>
      exact ih (fun b => by rw [hsame.2.2 b]; exact arr_next_zero prog N hsync j _ h b)

/-- Whole-CTA `bar.sync` barriers always fit: one count (`N`), and two running threads about to
arrive at one barrier leave at most `N - 2` waiting there. -/
theorem barriersFit_of_syncAll (prog : Prog V) (N : Nat) (s0 : CState V)
    (hsync : SyncAll prog N) (h0 : ∀ b, s0.arr b = 0) : BarriersFit prog N s0 := by
  intro r hr i j hij hi hj hri hrj
  have har := arr_reach_zero prog N hsync hr h0
  have key : ∀ A B, act prog i r = A → act prog j r = B → BarFits N r A B := by
    intro A B hA hB
    cases A with
    | compute pc q => cases B <;> exact True.intro
    | read a q pc => cases B <;> exact True.intro
    | write a v pc => cases B <;> exact True.intro
    | atomAdd a v pc => cases B <;> exact True.intro
    | exit => cases B <;> exact True.intro
    | arrive b n w pa =>
      cases B with
      | compute pc q => exact True.intro
      | read a q pc => exact True.intro
      | write a v pc => exact True.intro
      | atomAdd a v pc => exact True.intro
      | exit => exact True.intro
      | arrive c m w' pb =>
        match hsync i (r.th i).pc (r.th i).regs b n w pa hA,
          hsync j (r.th j).pc (r.th j).regs c m w' pb hB with
        | ⟨hn, _⟩, ⟨hm, _⟩ =>
          intro _
          refine ⟨Eq.trans hn (Eq.symm hm), ?_⟩
          show countAt b r.th N + r.arr b + 2 ≤ n
          rw [har b, Nat.add_zero, hn]
          have hwi : waiting b (r.th i).status = false := by rw [hri]; rfl
          have hwj : waiting b (r.th j).status = false := by rw [hrj]; rfl
          exact countAt_miss2 b i j r.th hij hwi hwj N hi hj
  exact key _ _ rfl rfl

/-- `confluence` from the trace check: without a race in one epoch, any two complete
executions from the launch end in the same state. -/
theorem confluence_epoch (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hno : ¬EpochRace prog N regs0 m0) {t1 t2 : CState V}
    (h1 : Reach prog N (init regs0 m0) t1) (h2 : Reach prog N (init regs0 m0) t2)
    (f1 : Final N t1) (f2 : Final N t2) : Same t1 t2 :=
  confluence prog N (raceFree_of_noEpochRace prog N regs0 m0 R hsync hind hR0 hno)
    (barriersFit_of_syncAll prog N _ hsync (fun _ => rfl)) h1 h2 f1 f2

/-- `no_stuck` from the trace check: without a race in one epoch, if one execution finishes,
no execution gets stuck. -/
theorem no_stuck_epoch (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hno : ¬EpochRace prog N regs0 m0) {t1 t2 : CState V}
    (h1 : Reach prog N (init regs0 m0) t1) (f1 : Final N t1)
    (h2 : Reach prog N (init regs0 m0) t2) (hs : ∀ v, Step prog N t2 v → False) : Final N t2 :=
  no_stuck prog N (raceFree_of_noEpochRace prog N regs0 m0 R hsync hind hR0 hno)
    (barriersFit_of_syncAll prog N _ hsync (fun _ => rfl)) h1 f1 h2 hs

/-- Without a deadlock in the traces, every reachable state where no thread can step has every
thread exited (no race-freedom needed). -/
theorem final_of_stuck_epoch (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hno : ¬EpochDeadlock prog N regs0 m0) {r : CState V}
    (hr : Reach prog N (init regs0 m0) r) (hs : ∀ v, Step prog N r v → False) : Final N r := by
  intro k hk
  cases hsk : (r.th k).status with
  | exited => rfl
  | run => exact False.elim (hs _ ⟨k, hk, hsk, same_refl _⟩)
  | bar b =>
    exact False.elim (hno (deadlock_complete prog N regs0 m0 R hsync hind hR0 hr hs hk
      (fun h => bar_ne_exited (Eq.trans (Eq.symm hsk) h))))

/-- Both checks together: if the traces have neither a race in one epoch nor a deadlock, then
every schedule is race free, the barriers fit, and every reachable state where no thread can
step has every thread exited. -/
theorem epoch_checks_complete (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll prog N)
    (hind : DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hnr : ¬EpochRace prog N regs0 m0) (hnd : ¬EpochDeadlock prog N regs0 m0) :
    RaceFree prog N (init regs0 m0) ∧ BarriersFit prog N (init regs0 m0) ∧
      ∀ r, Reach prog N (init regs0 m0) r → (∀ v, Step prog N r v → False) → Final N r :=
  ⟨raceFree_of_noEpochRace prog N regs0 m0 R hsync hind hR0 hnr,
    barriersFit_of_syncAll prog N _ hsync (fun _ => rfl),
    fun _ hr hs => final_of_stuck_epoch prog N regs0 m0 R hsync hind hR0 hnd hr hs⟩

end Theorems


section Example

variable {V : Type} [AccAdd V]

/-- An example that meets both hypotheses: each thread loads `mem[i]` into register 0, stores
it at `i + 100`, waits at barrier 0 with the whole CTA, and exits.  The stored value depends on
the load; nothing else does. -/
def exampleProg (N : Nat) : Prog V := fun i pc regs =>
  match pc with
  | 0 => Act.read i 0 1
  | 1 => Act.write (i + 100) (regs 0) 2
  | 2 => Act.arrive 0 N true 3
  | _ => Act.exit

theorem exampleProg_syncAll (N : Nat) : SyncAll (exampleProg N : Prog V) N := by
  intro i pc regs b n w pc' h
  cases pc with
  | zero => cases h
  | succ pc =>
    cases pc with
    | zero => cases h
    | succ pc =>
      cases pc with
      | zero => cases h; exact ⟨rfl, rfl⟩
      | succ pc => cases h

/-- `DataIndep` holds with the trivial relation: no action depends on the registers except
through the value written. -/
theorem exampleProg_dataIndep (N : Nat) :
    DataIndep (exampleProg N : Prog V) (fun _ _ _ _ => True) := by
  intro i pc regs regs' _
  cases pc with
  | zero => exact ⟨rfl, rfl, rfl, fun _ _ => True.intro⟩
  | succ pc =>
    cases pc with
    | zero => exact ⟨rfl, rfl, True.intro⟩
    | succ pc =>
      cases pc with
      | zero => exact ⟨rfl, rfl, rfl, rfl, True.intro⟩
      | succ pc => exact True.intro

end Example

end Sem
end Kcert
