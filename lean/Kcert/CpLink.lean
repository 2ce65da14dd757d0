import Kcert.CpSem
import Kcert.RaceCheck
import Kcert.CpCheck

/-!
# From the solo traces to `CpRaceFree` for every schedule (the cross-schedule argument)

Rust: `checker/src/exec/tensor_core.rs` (`cp_async_issue`, `cp_async_wait`),
`checker/src/exec/access.rs`, `checker/src/exec/race.rs`, `checker/src/exec/step.rs`
(`Op::Exit` completes a thread's outstanding copies, "exit, never waited for").

`RaceCheck.lean`'s argument for `CpSem`: for a program with whole-CTA `bar.sync` barriers
(`SyncAll` of its `Sem` part) and data independence (`KDataIndep`: control flow, addresses,
barriers, and the `cp.async` addresses, wait counts of a thread do not depend on loaded
values), each thread's sequence of actions is its solo trace (`kAct`), and in every reachable
state of every `CpSem` schedule (any interleaving of threads and copy engine) each thread is
at a position of its trace, all within one epoch (`KInv`, `kinv_reach`), and every pending copy
of a thread was issued at an earlier position of its trace and has not been completed there
(`Slots`: no `wait` that covers its group, no `exit`, between the issue and the position).
A copy's completion in the trace (`Completes`) is a `wait n` whose `n` most recent groups do
not include the copy's group, or the thread's `exit` (the Rust completes outstanding copies at
`exit` since session 7; in `CpSem` an `exit` does not wait, the copy may perform later, so
the copy stays outstanding through the exit's epoch, which is what `Completes` at the exit
says for the epochs).

The trace-level checks (what the executor reports on its one run, over epochs):
* `EpochRace` (`RaceCheck.lean`) for the `Sem` part;
* `CpEpochRace`: a copy issued by thread `j` at trace position `kiss` and still outstanding
  through position `p` (`Outst`), and an action of a thread `i` that `CpConflict`s with it,
  whose epoch lies between the issue's epoch and the epoch of `p` (for `i = j`: after the issue
  and before any completion, at `p` itself);
* `CopyEpochRace`: two different copies outstanding over a common epoch that `CopyConflict`.

Main theorem `cpRaceFree_of_epoch`: without these three, `CpRaceFree` holds from the launch, so
`CpSem.kconfluence` and `CpSem.executor_representative` apply (with `kBarriersFit_of_syncAll`).
-/

namespace Kcert
namespace CpLink

open Sem
open CpSem

section Defs

variable {V : Type} [AccAdd V]

/-- Two `CpSem` actions from related register files do the same thing up to values written:
`Sem`'s `ActRel`, or the same `cp.async` addresses, the same wait count, the same next `pc`. -/
def KActRel (R : Nat → (Nat → V) → (Nat → V) → Prop) (regs regs' : Nat → V) :
    KAct V → KAct V → Prop
  | KAct.base A, KAct.base A' => ActRel R regs regs' A A'
  | KAct.issue s d pc, KAct.issue s' d' pc' => s = s' ∧ d = d' ∧ pc = pc' ∧ R pc regs regs'
  | KAct.commit pc, KAct.commit pc' => pc = pc' ∧ R pc regs regs'
  | KAct.wait n pc, KAct.wait n' pc' => n = n' ∧ pc = pc' ∧ R pc regs regs'
  | _, _ => False

/-- Data independence for `CpSem` programs. -/
def KDataIndep (kp : KProg V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) : Prop :=
  ∀ i pc regs regs', R i pc regs regs' → KActRel (R i) regs regs' (kp i pc regs) (kp i pc regs')

/-- Thread `i`'s `k`-th action run alone (the solo trace of the `Sem` part, `RaceCheck.solo`). -/
def kAct (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) : KAct V :=
  kp i (solo (baseProg kp) regs0 m0 i k).pc (solo (baseProg kp) regs0 m0 i k).regs

def isIss : KAct V → Nat
  | KAct.issue _ _ _ => 1
  | _ => 0

def isCom : KAct V → Nat
  | KAct.commit _ => 1
  | _ => 0

/-- The issues among thread `i`'s first `k` actions (the slot of its next copy). -/
def issues (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat) : Nat → Nat
  | 0 => 0
  | k + 1 => issues kp regs0 m0 i k + isIss (kAct kp regs0 m0 i k)

/-- The commits among thread `i`'s first `k` actions (its open group). -/
def commits (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat) : Nat → Nat
  | 0 => 0
  | k + 1 => commits kp regs0 m0 i k + isCom (kAct kp regs0 m0 i k)

/-- Thread `i`'s action `kw` completes its copy issued at `kiss`: a `wait n` that does not
leave the copy's group among the `n` most recent, or the thread's `exit`. -/
def Completes (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kiss kw : Nat) : Prop :=
  (∃ n pc, kAct kp regs0 m0 i kw = KAct.wait n pc ∧
    commits kp regs0 m0 i kiss + n < commits kp regs0 m0 i kw) ∨
  kAct kp regs0 m0 i kw = KAct.base Act.exit

/-- No action strictly between `kiss` and `p` completes the copy issued at `kiss`. -/
def NotDone (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kiss p : Nat) : Prop :=
  ∀ kw, kiss < kw → kw < p → ¬Completes kp regs0 m0 i kiss kw

/-- Thread `i`'s action `kiss` issues the copy `c` (its addresses). -/
def IssueAt (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kiss : Nat) (c : Cp) :
    Prop :=
  ∃ pc, kAct kp regs0 m0 i kiss = KAct.issue c.src c.dst pc

/-- The copy issued at `kiss` is outstanding through position `p`. -/
def Outst (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kiss p : Nat) : Prop :=
  kiss ≤ p ∧ NotDone kp regs0 m0 i kiss p

/-- A copy and a conflicting action of a thread in an epoch where the copy is outstanding
(for the issuing thread itself: after the issue, before any completion). -/
def CpEpochRace (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ j kiss p c i k, j < N ∧ i < N ∧ IssueAt kp regs0 m0 j kiss c ∧
    Outst kp regs0 m0 j kiss p ∧
    CpConflict (soloAct (baseProg kp) regs0 m0 i k) c ∧
    bars (baseProg kp) regs0 m0 j kiss ≤ bars (baseProg kp) regs0 m0 i k ∧
    bars (baseProg kp) regs0 m0 i k ≤ bars (baseProg kp) regs0 m0 j p ∧
    (i = j → kiss < k ∧ k = p)

/-- Two different copies outstanding over a common epoch that conflict. -/
def CopyEpochRace (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ j kiss p c j' kiss' p' d e, j < N ∧ j' < N ∧ ¬(j = j' ∧ kiss = kiss') ∧
    IssueAt kp regs0 m0 j kiss c ∧ Outst kp regs0 m0 j kiss p ∧
    IssueAt kp regs0 m0 j' kiss' d ∧ Outst kp regs0 m0 j' kiss' p' ∧
    bars (baseProg kp) regs0 m0 j kiss ≤ e ∧ e ≤ bars (baseProg kp) regs0 m0 j p ∧
    bars (baseProg kp) regs0 m0 j' kiss' ≤ e ∧ e ≤ bars (baseProg kp) regs0 m0 j' p' ∧
    (j = j' → p = p') ∧ CopyConflict c d

/-- Thread `i` at trace position `p`, `c` barriers having completed: running at an action of
epoch `c`; waiting after its arrival of epoch `c`; exited at its `exit` of epoch `c`. -/
def KTh (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (i c p : Nat) (t : TState V) : Prop :=
  (t.status = Status.run →
    TRel R i t (solo (baseProg kp) regs0 m0 i p) ∧ bars (baseProg kp) regs0 m0 i p = c) ∧
  (∀ b, t.status = Status.bar b →
    ∃ k n pc, p = k + 1 ∧ soloAct (baseProg kp) regs0 m0 i k = Act.arrive b n true pc ∧
      bars (baseProg kp) regs0 m0 i k = c ∧ TRel R i t (solo (baseProg kp) regs0 m0 i p)) ∧
  (t.status = Status.exited →
    kAct kp regs0 m0 i p = KAct.base Act.exit ∧ bars (baseProg kp) regs0 m0 i p = c)

/-- Thread `i`'s copy records at trace position `p`. -/
def Slots (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i p : Nat) (r : KState V) :
    Prop :=
  r.nc i = issues kp regs0 m0 i p ∧ r.cg i = commits kp regs0 m0 i p ∧
  (∀ l, r.nc i ≤ l → r.cps i l = none) ∧
  ∀ l c, r.cps i l = some c → ∃ kiss, kiss < p ∧ issues kp regs0 m0 i kiss = l ∧
    IssueAt kp regs0 m0 i kiss c ∧ c.grp = commits kp regs0 m0 i kiss ∧
    NotDone kp regs0 m0 i kiss p

/-- The invariant of reachable states. -/
def KInv (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (r : KState V) : Prop :=
  (∀ b, r.s.arr b = 0) ∧
  (0 < N → ∀ b, ∃ i, i < N ∧ waiting b (r.s.th i).status = false) ∧
  ∃ c, ∃ pos : Nat → Nat, ∀ i, i < N → KTh kp regs0 m0 R i c (pos i) (r.s.th i) ∧ Slots kp regs0 m0 i (pos i) r

end Defs

section Rel

variable {V : Type} [AccAdd V]

theorem kactRel_base {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V}
    {K K' : KAct V} (pc pc' : Nat) (h : KActRel R r r' K K') :
    ActRel R r r' (baseOf pc r K) (baseOf pc' r' K') := by
  cases K with
  | base A =>
    cases K' with
    | base A' => exact h
    | issue s d p => exact False.elim h
    | commit p => exact False.elim h
    | wait n p => exact False.elim h
  | issue s d p =>
    cases K' with
    | base A' => exact False.elim h
    | issue s' d' p' => exact ⟨h.2.2.1, h.2.2.2⟩
    | commit p' => exact False.elim h
    | wait n p' => exact False.elim h
  | commit p =>
    cases K' with
    | base A' => exact False.elim h
    | issue s' d' p' => exact False.elim h
    | commit p' => exact h
    | wait n p' => exact False.elim h
  | wait n p =>
    cases K' with
    | base A' => exact False.elim h
    | issue s' d' p' => exact False.elim h
    | commit p' => exact False.elim h
    | wait n' p' => exact h.2

theorem dataIndep_of_k (kp : KProg V) {R : Nat → Nat → (Nat → V) → (Nat → V) → Prop}
    (h : KDataIndep kp R) : DataIndep (baseProg kp) R :=
  fun i pc regs regs' hr => kactRel_base pc pc (h i pc regs regs' hr)

theorem kactRel_of_trel (kp : KProg V) {R : Nat → Nat → (Nat → V) → (Nat → V) → Prop}
    (hind : KDataIndep kp R) {i : Nat} {t u : TState V} (ht : TRel R i t u) :
    KActRel (R i) t.regs u.regs (kp i t.pc t.regs) (kp i u.pc u.regs) := by
  have h := hind i t.pc t.regs u.regs ht.2
  rw [← ht.1]
  exact h

theorem cpConflict_rel {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V}
    {A A' : Act V} (c : Cp) (h : ActRel R r r' A A') (hc : CpConflict A c) : CpConflict A' c := by
  cases A <;> cases A' <;> (first | contradiction | skip) <;>
    first | (rw [← h.1]; exact hc) | exact False.elim hc

theorem bars_add (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) :
    ∀ d, bars prog regs0 m0 i k ≤ bars prog regs0 m0 i (k + d)
  | 0 => Nat.leRefl _
  | d + 1 => Nat.leTrans (bars_add prog regs0 m0 i k d) (Nat.leAddRight _ _)

theorem bars_mono (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat) {k k' : Nat}
    (h : k ≤ k') : bars prog regs0 m0 i k ≤ bars prog regs0 m0 i k' :=
  match Nat.le.dest h with
  | ⟨d, e⟩ => e ▸ bars_add prog regs0 m0 i k d

end Rel

section SemPart

variable {V : Type} [AccAdd V]

/-- The trace position after action `A`: an `exit` stays (the thread is at its `exit`). -/
def adv : Act V → Nat → Nat
  | Act.exit, p => p
  | Act.compute _ _, p => p + 1
  | Act.read _ _ _, p => p + 1
  | Act.write _ _ _, p => p + 1
  | Act.atomAdd _ _ _, p => p + 1
  | Act.arrive _ _ _ _, p => p + 1

theorem baseOf_eq_exit {pc : Nat} {r : Nat → V} {K : KAct V} (h : baseOf pc r K = Act.exit) :
    K = KAct.base Act.exit := by
  cases K with
  | base A => have h' : A = Act.exit := h; rw [h']
  | issue s d p => exact Act.noConfusion h
  | commit p => exact Act.noConfusion h
  | wait n p => exact Act.noConfusion h

theorem kth_run (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {i c p : Nat} {t : TState V}
    (hs : t.status = Status.run) (ht : TRel R i t (solo (baseProg kp) regs0 m0 i p))
    (hb : bars (baseProg kp) regs0 m0 i p = c) : KTh kp regs0 m0 R i c p t := by
  refine ⟨fun _ => ⟨ht, hb⟩, ?_, ?_⟩
  · intro b h; rw [hs] at h; exact False.elim (run_ne_bar h)
  · intro h; rw [hs] at h; exact False.elim (run_ne_exited h)

theorem kth_bar (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {i c k b n pc : Nat} {t : TState V}
    (hs : t.status = Status.bar b)
    (ha : soloAct (baseProg kp) regs0 m0 i k = Act.arrive b n true pc)
    (hb : bars (baseProg kp) regs0 m0 i k = c)
    (ht : TRel R i t (solo (baseProg kp) regs0 m0 i (k + 1))) :
    KTh kp regs0 m0 R i c (k + 1) t := by
  refine ⟨?_, ?_, ?_⟩
  · intro h; rw [hs] at h; exact False.elim (run_ne_bar (Eq.symm h))
  · intro b' h
    rw [hs] at h
    rw [← bar_inj h]
    exact ⟨k, n, pc, rfl, ha, hb, ht⟩
  · intro h; rw [hs] at h; exact False.elim (bar_ne_exited h)

theorem kth_exit (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {i c p : Nat} {t : TState V}
    (hs : t.status = Status.exited) (ha : kAct kp regs0 m0 i p = KAct.base Act.exit)
    (hb : bars (baseProg kp) regs0 m0 i p = c) : KTh kp regs0 m0 R i c p t := by
  refine ⟨?_, ?_, fun _ => ⟨ha, hb⟩⟩
  · intro h; rw [hs] at h; exact False.elim (run_ne_exited (Eq.symm h))
  · intro b h; rw [hs] at h; exact False.elim (bar_ne_exited (Eq.symm h))

theorem sem_next_na (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (s : CState V) (j : Nat) (hj : j < N)
    (c : Nat) (pos : Nat → Nat) (q : Nat)
    (hth : ∀ i, i < N → KTh kp regs0 m0 R i c (pos i) (s.th i))
    (hna : ∀ b n w pc, act (baseProg kp) j s = Act.arrive b n w pc → False)
    (hj' : KTh kp regs0 m0 R j c q ((next (baseProg kp) N j s).th j)) :
    (0 < N → ∀ b, ∃ i, i < N ∧ waiting b ((next (baseProg kp) N j s).th i).status = false) ∧
    ∀ i, i < N → KTh kp regs0 m0 R i c (upd pos j q i) ((next (baseProg kp) N j s).th i) := by
  have hf : firesA N (act (baseProg kp) j s) s = false := firesA_na N _ s hna
  refine ⟨?_, ?_⟩
  · intro _ b
    refine ⟨j, hj, ?_⟩
    rw [next_th_self]
    exact waiting_newT _ _ _ _ (not_sameBar_na _ (Act.arrive b 0 true 0) hna)
  · intro i hi
    cases Nat.decEq i j with
    | isTrue e => rw [e, upd_same]; exact hj'
    | isFalse e =>
      rw [next_th_other (baseProg kp) N j s e, hf, effOther_false, upd_other _ _ e]
      exact hth i hi

/-- The `Sem` part of a thread step keeps the invariant, the thread moving to `adv`. -/
theorem sem_next (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (s : CState V) (j : Nat) (hj : j < N)
    (hr : (s.th j).status = Status.run) (har : ∀ b, s.arr b = 0) (c : Nat) (pos : Nat → Nat)
    (hth : ∀ i, i < N → KTh kp regs0 m0 R i c (pos i) (s.th i)) :
    (∀ b, (next (baseProg kp) N j s).arr b = 0) ∧
    (0 < N → ∀ b, ∃ i, i < N ∧ waiting b ((next (baseProg kp) N j s).th i).status = false) ∧
    ∃ c', ∀ i, i < N → KTh kp regs0 m0 R i c' (upd pos j (adv (act (baseProg kp) j s) (pos j)) i)
      ((next (baseProg kp) N j s).th i) := by
  have hji := (hth j hj).1 hr
  have htr := hji.1
  have hbk := hji.2
  have hrel : ActRel (R j) (s.th j).regs (solo (baseProg kp) regs0 m0 j (pos j)).regs
      (act (baseProg kp) j s) (soloAct (baseProg kp) regs0 m0 j (pos j)) :=
    actRel_of_trel (baseProg kp) (dataIndep_of_k kp hind) htr
  have htr' : TRel R j ((next (baseProg kp) N j s).th j)
      (solo (baseProg kp) regs0 m0 j (pos j + 1)) := by
    rw [next_th_self]
    exact trel_newT _ false s.mem m0 hrel htr
  have hbk' : bars (baseProg kp) regs0 m0 j (pos j + 1) = c + isArr (act (baseProg kp) j s) := by
    show bars (baseProg kp) regs0 m0 j (pos j) + isArr (soloAct (baseProg kp) regs0 m0 j (pos j)) =
      c + isArr (act (baseProg kp) j s)
    rw [hbk, isArr_rel hrel]
  have har' := arr_next_zero (baseProg kp) N hsync j s har
  refine ⟨har', ?_⟩
  cases hA : act (baseProg kp) j s with
  | compute pc r =>
    have hna : ∀ b n w pc', act (baseProg kp) j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    have hs : ((next (baseProg kp) N j s).th j).status = Status.run := by
      rw [next_th_self, hA]; rfl
    rw [hA] at hbk'
    match sem_next_na kp N regs0 m0 R s j hj c pos (pos j + 1) hth hna
      (kth_run kp regs0 m0 R hs htr' hbk') with
    | ⟨h1, h2⟩ => exact ⟨h1, c, h2⟩
  | read a r pc =>
    have hna : ∀ b n w pc', act (baseProg kp) j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    have hs : ((next (baseProg kp) N j s).th j).status = Status.run := by
      rw [next_th_self, hA]; rfl
    rw [hA] at hbk'
    match sem_next_na kp N regs0 m0 R s j hj c pos (pos j + 1) hth hna
      (kth_run kp regs0 m0 R hs htr' hbk') with
    | ⟨h1, h2⟩ => exact ⟨h1, c, h2⟩
  | write a v pc =>
    have hna : ∀ b n w pc', act (baseProg kp) j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    have hs : ((next (baseProg kp) N j s).th j).status = Status.run := by
      rw [next_th_self, hA]; rfl
    rw [hA] at hbk'
    match sem_next_na kp N regs0 m0 R s j hj c pos (pos j + 1) hth hna
      (kth_run kp regs0 m0 R hs htr' hbk') with
    | ⟨h1, h2⟩ => exact ⟨h1, c, h2⟩
  | atomAdd a v pc =>
    have hna : ∀ b n w pc', act (baseProg kp) j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    have hs : ((next (baseProg kp) N j s).th j).status = Status.run := by
      rw [next_th_self, hA]; rfl
    rw [hA] at hbk'
    match sem_next_na kp N regs0 m0 R s j hj c pos (pos j + 1) hth hna
      (kth_run kp regs0 m0 R hs htr' hbk') with
    | ⟨h1, h2⟩ => exact ⟨h1, c, h2⟩
  | exit =>
    have hna : ∀ b n w pc', act (baseProg kp) j s = Act.arrive b n w pc' → False := by
      intro b n w pc' h; rw [hA] at h; cases h
    have hs : ((next (baseProg kp) N j s).th j).status = Status.exited := by
      rw [next_th_self, hA]; rfl
    rw [hA] at hrel
    have hk : kAct kp regs0 m0 j (pos j) = KAct.base Act.exit := baseOf_eq_exit (actRel_exit hrel)
    match sem_next_na kp N regs0 m0 R s j hj c pos (pos j) hth hna
      (kth_exit kp regs0 m0 R hs hk hbk) with
    | ⟨h1, h2⟩ => exact ⟨h1, c, h2⟩
  | arrive b n w pc =>
    match hsync j (s.th j).pc (s.th j).regs b n w pc hA with
    | ⟨hn, hw⟩ =>
    rw [hA] at hrel hbk'
    have hsa : soloAct (baseProg kp) regs0 m0 j (pos j) = Act.arrive b n w pc := actRel_arrive hrel
    rw [hn, hw] at hsa
    have hfire : firesA N (act (baseProg kp) j s) s = decide (N ≤ countAt b s.th N + 1) := by
      rw [hA, hn]
      show decide (N ≤ countAt b s.th N + s.arr b + 1) = _
      rw [har b, Nat.add_zero]
    have hwj : waiting b (s.th j).status = false := by rw [hr]; rfl
    cases hf : decide (N ≤ countAt b s.th N + 1) with
    | false =>
      have hfA : firesA N (act (baseProg kp) j s) s = false := by rw [hfire, hf]
      have hs : ((next (baseProg kp) N j s).th j).status = Status.bar b := by
        rw [next_th_self, hfA, hA, hw]; rfl
      refine ⟨?_, c, ?_⟩
      · intro _ b'
        cases Nat.decEq b' b with
        | isTrue e =>
          rw [e]
          have h1 : countAt b (next (baseProg kp) N j s).th N + (next (baseProg kp) N j s).arr b =
              countAt b s.th N + s.arr b + 1 := arrivals_arrive (baseProg kp) N j s hj hr hA hfA
          rw [har' b, har b, Nat.add_zero, Nat.add_zero] at h1
          have hlt : countAt b s.th N + 1 < N := Nat.gtOfNotLe (of_decide_eq_false' hf)
          have hlt2 : countAt b (next (baseProg kp) N j s).th N < N := by rw [h1]; exact hlt
          exact exists_not_waiting b _ N hlt2
        | isFalse e =>
          refine ⟨j, hj, ?_⟩
          rw [hs]
          exact decide_eq_false' (fun h => e (Eq.symm h))
      · intro i hi
        cases Nat.decEq i j with
        | isTrue e =>
          rw [e, upd_same]
          exact kth_bar kp regs0 m0 R hs hsa hbk htr'
        | isFalse e =>
          rw [next_th_other (baseProg kp) N j s e, hfA, effOther_false, upd_other _ _ e]
          exact hth i hi
    | true =>
      have hfA : firesA N (act (baseProg kp) j s) s = true := by rw [hfire, hf]
      have hle : N ≤ countAt b s.th N + 1 := of_decide_eq_true' hf
      have hall : ∀ i, i < N → i ≠ j → waiting b (s.th i).status = true := by
        intro i hi e
        cases hw' : waiting b (s.th i).status with
        | true => rfl
        | false =>
          have h2 := countAt_miss2 b i j s.th e hw' hwj N hi hj
          exact False.elim (Nat.notSuccLeSelf (countAt b s.th N + 1) (Nat.leTrans h2 hle))
      have hs : ((next (baseProg kp) N j s).th j).status = Status.run := by
        rw [next_th_self, hfA, hA]; rfl
      refine ⟨fun _ b' => ⟨j, hj, by rw [hs]; rfl⟩, c + 1, ?_⟩
      intro i hi
      cases Nat.decEq i j with
      | isTrue e =>
        rw [e, upd_same]
        exact kth_run kp regs0 m0 R hs htr' hbk'
      | isFalse e =>
        rw [upd_other _ _ e]
        have hwi := hall i hi e
        have hsi : (s.th i).status = Status.bar b := status_of_waiting hwi
        match (hth i hi).2.1 b hsi with
        | ⟨ki, ni, pci, ep, hai, hbi, htri⟩ =>
          have hnext : (next (baseProg kp) N j s).th i = { s.th i with status := Status.run } := by
            rw [next_th_other (baseProg kp) N j s e, hfA, hA]
            show cond (waiting b (s.th i).status) { s.th i with status := Status.run } (s.th i) = _
            rw [hwi]
            rfl
          rw [hnext]
          refine kth_run kp regs0 m0 R rfl htri ?_
          rw [ep]
          show bars (baseProg kp) regs0 m0 i ki + isArr (soloAct (baseProg kp) regs0 m0 i ki) = c + 1
          rw [hbi, hai]
          rfl

end SemPart

section SlotPart

variable {V : Type} [AccAdd V]

theorem notDone_succ (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i kiss p : Nat}
    (h : NotDone kp regs0 m0 i kiss p) (hc : ¬Completes kp regs0 m0 i kiss p) :
    NotDone kp regs0 m0 i kiss (p + 1) := by
  intro kw h1 h2
  cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h2) with
  | inl e => rw [e]; exact hc
  | inr hl => exact h kw h1 hl

/-- Slots that only lose copies, with the same counts, keep `Slots`. -/
theorem slots_sub (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i p : Nat}
    {r r' : KState V} (h : Slots kp regs0 m0 i p r) (hn : r'.nc i = r.nc i)
    (hg : r'.cg i = r.cg i) (hc : ∀ l c, r'.cps i l = some c → r.cps i l = some c) :
    Slots kp regs0 m0 i p r' := by
  refine ⟨by rw [hn]; exact h.1, by rw [hg]; exact h.2.1, ?_, ?_⟩
  · intro l hl
    cases e : r'.cps i l with
    | none => rfl
    | some c =>
      have h1 := hc l c e
      rw [hn] at hl
      rw [h.2.2.1 l hl] at h1
      cases h1
  · intro l c e
    exact h.2.2.2 l c (hc l c e)

/-- A thread action that issues nothing and completes none of the pending copies moves the
position by one. -/
theorem slots_step (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i p : Nat}
    {r r' : KState V} (h : Slots kp regs0 m0 i p r) (hi : isIss (kAct kp regs0 m0 i p) = 0)
    (hn : r'.nc i = r.nc i) (hg : r'.cg i = r.cg i + isCom (kAct kp regs0 m0 i p))
    (hc : ∀ l, r'.cps i l = r.cps i l)
    (hd : ∀ l c kiss, r.cps i l = some c → l < r.nc i → c.grp = commits kp regs0 m0 i kiss →
      ¬Completes kp regs0 m0 i kiss p) :
    Slots kp regs0 m0 i (p + 1) r' := by
  refine ⟨?_, ?_, ?_, ?_⟩
  · show r'.nc i = issues kp regs0 m0 i p + isIss (kAct kp regs0 m0 i p)
    rw [hi, Nat.add_zero, hn]; exact h.1
  · show r'.cg i = commits kp regs0 m0 i p + isCom (kAct kp regs0 m0 i p)
    rw [hg, h.2.1]
  · intro l hl
    rw [hc l]
    rw [hn] at hl
    exact h.2.2.1 l hl
  · intro l c e
    rw [hc l] at e
    have hl : l < r.nc i := by
      cases Nat.ltOrGe l (r.nc i) with
      | inl hl => exact hl
      | inr hl => rw [h.2.2.1 l hl] at e; cases e
    match h.2.2.2 l c e with
    | ⟨kiss, hk, hil, hia, hg', hnd⟩ =>
      exact ⟨kiss, Nat.ltOfLtOfLe hk (Nat.leSucc p), hil, hia, hg',
        notDone_succ kp regs0 m0 hnd (hd l c kiss e hl hg')⟩

theorem act_eq_baseOf (kp : KProg V) (j : Nat) (r : KState V) :
    act (baseProg kp) j r.s = baseOf (r.s.th j).pc (r.s.th j).regs (kact kp j r) := rfl

theorem tn_nc (kp : KProg V) (N j : Nat) (r : KState V) :
    (tnext kp N j r).nc j = ncT (kact kp j r) (r.nc j) := upd_same _ _ _
theorem tn_cg (kp : KProg V) (N j : Nat) (r : KState V) :
    (tnext kp N j r).cg j = cgT (kact kp j r) (r.cg j) := upd_same _ _ _
theorem tn_cps (kp : KProg V) (N j : Nat) (r : KState V) (l : Nat) :
    (tnext kp N j r).cps j l = cpsT (kact kp j r) (r.cps j) (r.nc j) (r.cg j) l := by
  show upd r.cps j _ j l = _
  rw [upd_same]

theorem notCompl_of (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i kiss p : Nat}
    (h1 : ∀ n pc, kAct kp regs0 m0 i p = KAct.wait n pc → False)
    (h2 : kAct kp regs0 m0 i p = KAct.base Act.exit → False) :
    ¬Completes kp regs0 m0 i kiss p := by
  intro h
  cases h with
  | inl h => match h with | ⟨n, pc, e, _⟩ => exact h1 n pc e
  | inr h => exact h2 h

theorem slots_base (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j p : Nat)
    (r : KState V) (h : Slots kp regs0 m0 j p r) {A A' : Act V} (hK : kact kp j r = KAct.base A)
    (hK' : kAct kp regs0 m0 j p = KAct.base A') (hne : A' = Act.exit → False) :
    Slots kp regs0 m0 j (p + 1) (tnext kp N j r) := by
  refine slots_step kp regs0 m0 h (by rw [hK']; rfl) (by rw [tn_nc, hK]; rfl)
    (by rw [tn_cg, hK, hK']; rfl) (fun l => by rw [tn_cps, hK]; rfl) ?_
  intro l c kiss _ _ _
  refine notCompl_of kp regs0 m0 (fun n pc e => ?_) (fun e => ?_)
  · rw [hK'] at e; exact KAct.noConfusion e
  · rw [hK'] at e
    apply hne
    injection e with e2
    exact e2

/-- The issuing thread's records after its step. -/
theorem slots_thread (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (j p : Nat) (r : KState V)
    (h : Slots kp regs0 m0 j p r)
    (hk : KActRel (R j) (r.s.th j).regs (solo (baseProg kp) regs0 m0 j p).regs (kact kp j r)
      (kAct kp regs0 m0 j p))
    (hw : WaitOK kp j r) :
    Slots kp regs0 m0 j (adv (act (baseProg kp) j r.s) p) (tnext kp N j r) := by
  rw [act_eq_baseOf]
  cases hK : kact kp j r with
  | base A =>
    rw [hK] at hk
    cases hK' : kAct kp regs0 m0 j p with
    | issue s' d' pc' => rw [hK'] at hk; exact False.elim hk
    | commit pc' => rw [hK'] at hk; exact False.elim hk
    | wait n' pc' => rw [hK'] at hk; exact False.elim hk
    | base A' =>
    rw [hK'] at hk
    cases A with
    | exit =>
      exact slots_sub kp regs0 m0 h (by rw [tn_nc, hK]; rfl) (by rw [tn_cg, hK]; rfl)
        (fun l c e => by rw [tn_cps, hK] at e; exact e)
    | compute pc r2 =>
      exact slots_base kp N regs0 m0 j p r h hK hK' (fun e => by rw [e] at hk; exact hk)
    | read a r2 pc =>
      exact slots_base kp N regs0 m0 j p r h hK hK' (fun e => by rw [e] at hk; exact hk)
    | write a v pc =>
      exact slots_base kp N regs0 m0 j p r h hK hK' (fun e => by rw [e] at hk; exact hk)
    | atomAdd a v pc =>
      exact slots_base kp N regs0 m0 j p r h hK hK' (fun e => by rw [e] at hk; exact hk)
    | arrive b n w pc =>
      exact slots_base kp N regs0 m0 j p r h hK hK' (fun e => by rw [e] at hk; exact hk)
  | commit pc =>
    rw [hK] at hk
    cases hK' : kAct kp regs0 m0 j p with
    | issue s' d' pc' => rw [hK'] at hk; exact False.elim hk
    | base A' => rw [hK'] at hk; exact False.elim hk
    | wait n' pc' => rw [hK'] at hk; exact False.elim hk
    | commit pc' =>
    show Slots kp regs0 m0 j (p + 1) (tnext kp N j r)
    refine slots_step kp regs0 m0 h (by rw [hK']; rfl) (by rw [tn_nc, hK]; rfl)
      (by rw [tn_cg, hK, hK']; rfl) (fun l => by rw [tn_cps, hK]; rfl) ?_
    intro l c kiss _ _ _
    refine notCompl_of kp regs0 m0 (fun n pc e => ?_) (fun e => ?_)
    · rw [hK'] at e; exact KAct.noConfusion e
    · rw [hK'] at e; exact KAct.noConfusion e
  | wait n pc =>
    rw [hK] at hk
    cases hK' : kAct kp regs0 m0 j p with
    | issue s' d' pc' => rw [hK'] at hk; exact False.elim hk
    | base A' => rw [hK'] at hk; exact False.elim hk
    | commit pc' => rw [hK'] at hk; exact False.elim hk
    | wait n' pc' =>
    rw [hK'] at hk
    show Slots kp regs0 m0 j (p + 1) (tnext kp N j r)
    refine slots_step kp regs0 m0 h (by rw [hK']; rfl) (by rw [tn_nc, hK]; rfl)
      (by rw [tn_cg, hK, hK']; rfl) (fun l => by rw [tn_cps, hK]; rfl) ?_
    intro l c kiss e hl hg' hcomp
    cases hcomp with
    | inr e2 => rw [hK'] at e2; exact KAct.noConfusion e2
    | inl e2 =>
      match e2 with
      | ⟨n2, pc2, e3, hlt⟩ =>
        rw [hK'] at e3
        injection e3 with en _
        rw [← hg', ← h.2.1, ← en, ← hk.1] at hlt
        exact hw n pc hK l c hl e hlt
  | issue sr ds pc =>
    rw [hK] at hk
    cases hK' : kAct kp regs0 m0 j p with
    | wait n' pc' => rw [hK'] at hk; exact False.elim hk
    | base A' => rw [hK'] at hk; exact False.elim hk
    | commit pc' => rw [hK'] at hk; exact False.elim hk
    | issue s' d' pc' =>
    rw [hK'] at hk
    show Slots kp regs0 m0 j (p + 1) (tnext kp N j r)
    have ecps : ∀ l, (tnext kp N j r).cps j l =
        upd (r.cps j) (r.nc j) (some ⟨sr, ds, r.cg j⟩) l := fun l => by rw [tn_cps, hK]; rfl
    refine ⟨?_, ?_, ?_, ?_⟩
    · show (tnext kp N j r).nc j = issues kp regs0 m0 j p + isIss (kAct kp regs0 m0 j p)
      rw [tn_nc, hK, hK', h.1]; rfl
    · show (tnext kp N j r).cg j = commits kp regs0 m0 j p + isCom (kAct kp regs0 m0 j p)
      rw [tn_cg, hK, hK', h.2.1]; rfl
    · intro l hl
      have hl' : r.nc j + 1 ≤ l := by rw [tn_nc, hK] at hl; exact hl
      have hne : l ≠ r.nc j := fun e => by
        rw [e] at hl'; exact Nat.notSuccLeSelf _ hl'
      rw [ecps, upd_other _ _ hne]
      exact h.2.2.1 l (Nat.leTrans (Nat.leSucc _) hl')
    · intro l c e
      rw [ecps] at e
      cases Nat.decEq l (r.nc j) with
      | isTrue el =>
        rw [el, upd_same] at e
        injection e with e
        rw [← e]
        refine ⟨p, Nat.leRefl _, ?_, ⟨pc', ?_⟩, ?_, ?_⟩
        · rw [el, h.1]
        · rw [hK', ← hk.1, ← hk.2.1]
        · exact h.2.1
        · intro kw h1 h2
          exact False.elim (Nat.notSuccLeSelf _ (Nat.leTrans h2 h1))
      | isFalse el =>
        rw [upd_other _ _ el] at e
        match h.2.2.2 l c e with
        | ⟨kiss, hk2, hil, hia, hg', hnd⟩ =>
          refine ⟨kiss, Nat.ltOfLtOfLe hk2 (Nat.leSucc p), hil, hia, hg', ?_⟩
          refine notDone_succ kp regs0 m0 hnd (notCompl_of kp regs0 m0 (fun n pc e => ?_) (fun e => ?_))
          · rw [hK'] at e; exact KAct.noConfusion e
          · rw [hK'] at e; exact KAct.noConfusion e

end SlotPart

section Reach

variable {V : Type} [AccAdd V]

theorem kinv_same (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {r r' : KState V} (h : KSame r r')
    (hI : KInv kp N regs0 m0 R r) : KInv kp N regs0 m0 R r' := by
  match hI with
  | ⟨har, hwit, c, pos, hall⟩ =>
    refine ⟨fun b => by rw [← h.1.2.2 b]; exact har b, ?_, c, pos, ?_⟩
    · intro hN b
      match hwit hN b with
      | ⟨i, hi, hw⟩ => exact ⟨i, hi, by rw [← h.1.1 i]; exact hw⟩
    · intro i hi
      refine ⟨by rw [← h.1.1 i]; exact (hall i hi).1, ?_⟩
      exact slots_sub kp regs0 m0 (hall i hi).2 (Eq.symm (h.2.2.1 i)) (Eq.symm (h.2.2.2 i))
        (fun l c e => by rw [← h.2.1 i l] at e; exact e)

theorem kinv_eng (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (j k : Nat) {r : KState V}
    (hI : KInv kp N regs0 m0 R r) : KInv kp N regs0 m0 R (enext j k r) := by
  match hI with
  | ⟨har, hwit, c, pos, hall⟩ =>
    refine ⟨har, hwit, c, pos, ?_⟩
    intro i hi
    exact ⟨(hall i hi).1, slots_sub kp regs0 m0 (hall i hi).2 rfl rfl
      (fun l c e => enext_cps_sub j k r i l c e)⟩

theorem kinv_thr (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (j : Nat) {r : KState V} (hj : j < N)
    (hr : (r.s.th j).status = Status.run) (hw : WaitOK kp j r)
    (hI : KInv kp N regs0 m0 R r) : KInv kp N regs0 m0 R (tnext kp N j r) := by
  match hI with
  | ⟨har, hwit, c, pos, hall⟩ =>
    match sem_next kp N regs0 m0 R hsync hind r.s j hj hr har c pos (fun i hi => (hall i hi).1) with
    | ⟨har', hwit', c', hth'⟩ =>
      refine ⟨har', hwit', c', upd pos j (adv (act (baseProg kp) j r.s) (pos j)), ?_⟩
      intro i hi
      refine ⟨hth' i hi, ?_⟩
      cases Nat.decEq i j with
      | isTrue e =>
        rw [e, upd_same]
        exact slots_thread kp N regs0 m0 R j (pos j) r (hall j hj).2
          (kactRel_of_trel kp hind ((hall j hj).1.1 hr).1) hw
      | isFalse e =>
        rw [upd_other _ _ e]
        exact slots_sub kp regs0 m0 (hall i hi).2 (upd_other _ _ e) (upd_other _ _ e)
          (fun l c h2 => by
            have h3 : upd r.cps j (cpsT (kact kp j r) (r.cps j) (r.nc j) (r.cg j)) i l = some c := h2
            rw [upd_other _ _ e] at h3
            exact h3)

theorem kinv_init (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) :
    KInv kp N regs0 m0 R (kinit regs0 m0) := by
  refine ⟨fun _ => rfl, fun hN _ => ⟨0, hN, rfl⟩, 0, fun _ => 0, ?_⟩
  intro i _
  refine ⟨kth_run kp regs0 m0 R (p := 0) rfl ⟨rfl, hR0 i⟩ rfl, rfl, rfl, fun _ _ => rfl, ?_⟩
  intro l c e
  cases e

theorem kinv_reach_gen (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) {s r : KState V} (hs : KReach kp N s r) :
    KInv kp N regs0 m0 R s → KInv kp N regs0 m0 R r := by
  induction hs with
  | refl s => exact fun h => h
  | step hst _ ih =>
    intro h
    match hst with
    | ⟨KLbl.thr j, ⟨hj, hrun, hw⟩, hsame⟩ =>
      exact ih (kinv_same kp N regs0 m0 R (ksame_symm hsame)
        (kinv_thr kp N regs0 m0 R hsync hind j hj hrun hw h))
    | ⟨KLbl.eng j k, _, hsame⟩ =>
      exact ih (kinv_same kp N regs0 m0 R (ksame_symm hsame) (kinv_eng kp N regs0 m0 R j k h))

/-- Every state of every `CpSem` schedule from the launch matches the solo traces: each thread
at a position of its trace, all in one epoch, every pending copy issued earlier in the trace
and not completed since. -/
theorem kinv_reach (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) {r : KState V}
    (hr : KReach kp N (kinit regs0 m0) r) : KInv kp N regs0 m0 R r :=
  kinv_reach_gen kp N regs0 m0 R hsync hind hr (kinv_init kp N regs0 m0 R hR0)

end Reach

section Main

variable {V : Type} [AccAdd V]

/-- The position of a thread's latest action of the current epoch: its position, or, waiting at
a barrier, the arrival's. -/
def qOf : Status → Nat → Nat
  | Status.bar _, p => Nat.pred p
  | Status.run, p => p
  | Status.exited, p => p

theorem thpos (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {j c p : Nat} {t : TState V}
    (h : KTh kp regs0 m0 R j c p t) :
    bars (baseProg kp) regs0 m0 j (qOf t.status p) = c ∧ qOf t.status p ≤ p ∧
      p ≤ qOf t.status p + 1 ∧ (t.status = Status.run → qOf t.status p = p) := by
  cases hs : t.status with
  | run => exact ⟨(h.1 hs).2, Nat.leRefl _, Nat.leSucc _, fun _ => rfl⟩
  | exited => exact ⟨(h.2.2 hs).2, Nat.leRefl _, Nat.leSucc _, fun _ => rfl⟩
  | bar b =>
    match h.2.1 b hs with
    | ⟨k, n, pc, ep, _, hb, _⟩ =>
      rw [ep]
      exact ⟨hb, Nat.leSucc _, Nat.leRefl _, fun e => False.elim (run_ne_bar (Eq.symm e))⟩

theorem pend_outst (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j p q c l : Nat}
    {r : KState V} {cp : Cp} (hsl : Slots kp regs0 m0 j p r)
    (hq : bars (baseProg kp) regs0 m0 j q = c) (hqp : q ≤ p) (hpq : p ≤ q + 1)
    (hc : r.cps j l = some cp) :
    ∃ kiss, IssueAt kp regs0 m0 j kiss cp ∧ Outst kp regs0 m0 j kiss q ∧
      bars (baseProg kp) regs0 m0 j kiss ≤ c ∧ issues kp regs0 m0 j kiss = l ∧ kiss < p := by
  match hsl.2.2.2 l cp hc with
  | ⟨kiss, hk, hil, hia, _, hnd⟩ =>
    have hkq : kiss ≤ q := Nat.leOfLtSucc (Nat.ltOfLtOfLe hk hpq)
    refine ⟨kiss, hia, ⟨hkq, fun kw h1 h2 => hnd kw h1 (Nat.ltOfLtOfLe h2 hqp)⟩, ?_, hil, hk⟩
    rw [← hq]
    exact bars_mono _ regs0 m0 j hkq

/-- The cross-schedule lemma: every race of `CpRaceFree` in a state of any schedule from the
launch is one of the three trace-level races. -/
theorem race_complete_k (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) {r : KState V}
    (hr : KReach kp N (kinit regs0 m0) r) :
    (∀ i j, i ≠ j → i < N → j < N → (r.s.th i).status = Status.run →
      (r.s.th j).status = Status.run →
      Conflict (act (baseProg kp) i r.s) (act (baseProg kp) j r.s) →
      EpochRace (baseProg kp) N regs0 m0) ∧
    (∀ i j k c, i < N → (r.s.th i).status = Status.run → j < N → k < r.nc j →
      r.cps j k = some c → CpConflict (act (baseProg kp) i r.s) c →
      CpEpochRace kp N regs0 m0) ∧
    (∀ i k j l c d, i < N → j < N → k < r.nc i → l < r.nc j → ¬(i = j ∧ k = l) →
      r.cps i k = some c → r.cps j l = some d → CopyConflict c d →
      CopyEpochRace kp N regs0 m0) := by
  match kinv_reach kp N regs0 m0 R hsync hind hR0 hr with
  | ⟨_, _, c, pos, hall⟩ =>
  refine ⟨?_, ?_, ?_⟩
  · intro i j hij hi hj hri hrj hc
    have ti := (hall i hi).1.1 hri
    have tj := (hall j hj).1.1 hrj
    exact ⟨i, j, pos i, pos j, hij, hi, hj,
      conflict_rel (actRel_of_trel _ (dataIndep_of_k kp hind) ti.1)
        (actRel_of_trel _ (dataIndep_of_k kp hind) tj.1) hc,
      Eq.trans ti.2 (Eq.symm tj.2)⟩
  · intro i j k cp hi hri hj _ hcp hc
    have ti := (hall i hi).1.1 hri
    match thpos kp regs0 m0 R (hall j hj).1 with
    | ⟨hq, hqp, hpq, hqr⟩ =>
    match pend_outst kp regs0 m0 (hall j hj).2 hq hqp hpq hcp with
    | ⟨kiss, hia, hout, hb, _, hkp⟩ =>
      refine ⟨j, kiss, qOf (r.s.th j).status (pos j), cp, i, pos i, hj, hi, hia, hout,
        cpConflict_rel cp (actRel_of_trel _ (dataIndep_of_k kp hind) ti.1) hc, ?_, ?_, ?_⟩
      · rw [ti.2]; exact hb
      · rw [ti.2, hq]; exact Nat.leRefl _
      · intro e
        rw [e] at hri
        rw [e, hqr hri]
        exact ⟨hkp, rfl⟩
  · intro i k j l c1 d1 hi hj _ _ hne hc hd hcc
    match thpos kp regs0 m0 R (hall i hi).1, thpos kp regs0 m0 R (hall j hj).1 with
    | ⟨hq, hqp, hpq, _⟩, ⟨hq', hqp', hpq', _⟩ =>
    match pend_outst kp regs0 m0 (hall i hi).2 hq hqp hpq hc,
      pend_outst kp regs0 m0 (hall j hj).2 hq' hqp' hpq' hd with
    | ⟨kiss, hia, hout, hb, hil, _⟩, ⟨kiss', hia', hout', hb', hil', _⟩ =>
      refine ⟨i, kiss, qOf (r.s.th i).status (pos i), c1, j, kiss',
        qOf (r.s.th j).status (pos j), d1, c, hi, hj, ?_, hia, hout, hia', hout', hb, ?_, hb', ?_,
        ?_, hcc⟩
      · intro e
        apply hne
        refine ⟨e.1, ?_⟩
        rw [← hil, ← hil', e.2, e.1]
      · rw [hq]; exact Nat.leRefl _
      · rw [hq']; exact Nat.leRefl _
      · intro e; rw [e]

/-- The main theorem: for a `CpSem` program with whole-CTA `bar.sync` barriers and data
independence, if the solo traces have no race in one epoch (`EpochRace`), no access
conflicting with an outstanding copy (`CpEpochRace`) and no two conflicting outstanding copies
(`CopyEpochRace`), then `CpRaceFree` holds from the launch, for every schedule of threads and
copy engine. -/
theorem cpRaceFree_of_epoch (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (h1 : ¬EpochRace (baseProg kp) N regs0 m0) (h2 : ¬CpEpochRace kp N regs0 m0)
    (h3 : ¬CopyEpochRace kp N regs0 m0) : CpRaceFree kp N (kinit regs0 m0) := by
  intro r hr
  have hc := race_complete_k kp N regs0 m0 R hsync hind hR0 hr
  refine ⟨?_, ?_, ?_⟩
  · intro i j hij hi hj hri hrj hx
    exact h1 (hc.1 i j hij hi hj hri hrj hx)
  · intro i j k c hi hri hj hk hck hx
    exact h2 (hc.2.1 i j k c hi hri hj hk hck hx)
  · intro i k j l c d hi hj hk hl hne hc' hd hx
    exact h3 (hc.2.2 i k j l c d hi hj hk hl hne hc' hd hx)

end Main

section Fit

variable {V : Type} [AccAdd V]

theorem arr_kreach_zero (kp : KProg V) (N : Nat) (hsync : SyncAll (baseProg kp) N)
    {s r : KState V} (hs : KReach kp N s r) : (∀ b, s.s.arr b = 0) → ∀ b, r.s.arr b = 0 := by
  induction hs with
  | refl s => exact fun h => h
  | step hst _ ih =>
    intro h
    match hst with
    | ⟨KLbl.thr j, _, hsame⟩ =>
      exact ih (fun b => by
        rw [hsame.1.2.2 b]
        exact arr_next_zero (baseProg kp) N hsync j _ h b)
    | ⟨KLbl.eng j k, _, hsame⟩ =>
      exact ih (fun b => by rw [hsame.1.2.2 b]; exact h b)

/-- Whole-CTA `bar.sync` barriers always fit in `CpSem` too (`RaceCheck.barriersFit_of_syncAll`
for the `Sem` part; copies do not arrive at barriers). -/
theorem kBarriersFit_of_syncAll (kp : KProg V) (N : Nat) (s0 : KState V)
    (hsync : SyncAll (baseProg kp) N) (h0 : ∀ b, s0.s.arr b = 0) : KBarriersFit kp N s0 := by
  intro r hr i j hij hi hj hri hrj
  have har := arr_kreach_zero kp N hsync hr h0
  have key : ∀ A B, act (baseProg kp) i r.s = A → act (baseProg kp) j r.s = B →
      BarFits N r.s A B := by
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
        match hsync i (r.s.th i).pc (r.s.th i).regs b n w pa hA,
          hsync j (r.s.th j).pc (r.s.th j).regs c m w' pb hB with
        | ⟨hn, _⟩, ⟨hm, _⟩ =>
          intro _
          refine ⟨Eq.trans hn (Eq.symm hm), ?_⟩
          show countAt b r.s.th N + r.s.arr b + 2 ≤ n
          rw [har b, Nat.add_zero, hn]
          have hwi : waiting b (r.s.th i).status = false := by rw [hri]; rfl
          have hwj : waiting b (r.s.th j).status = false := by rw [hrj]; rfl
          exact countAt_miss2 b i j r.s.th hij hwi hwj N hi hj
  exact key _ _ rfl rfl

/-- Composed with `CpSem.executor_representative`: without the three trace-level races, the
final state of the executor's run (`XReach`, each copy at its wait) is the final state of every
schedule of threads and copy engine. -/
theorem executor_sound_epoch (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (h1 : ¬EpochRace (baseProg kp) N regs0 m0) (h2 : ¬CpEpochRace kp N regs0 m0)
    (h3 : ¬CopyEpochRace kp N regs0 m0) {t1 t2 : KState V}
    (hx : XReach kp N (kinit regs0 m0) t1) (f1 : KFinal N t1)
    (ht : KReach kp N (kinit regs0 m0) t2) (f2 : KFinal N t2) : KSame t1 t2 :=
  executor_representative kp N (cpRaceFree_of_epoch kp N regs0 m0 R hsync hind hR0 h1 h2 h3)
    (kBarriersFit_of_syncAll kp N _ hsync (fun _ => rfl)) hx f1 ht f2

end Fit

/-! ### The three places in the executor's order

The executor runs epoch by epoch, and in an epoch thread `0`, then `1`, ...; each thread's
actions of the epoch in program order (`Before`: the order of the events in its epoch-sorted
history).  A copy issued at `kiss` is completed at its first completion `kf` (`First`; the Rust
completes it there, at the `wait` or at the `exit`).  The executor's reports, at the trace level:
* `IssRace`: an action of another thread, in the issue's epoch, conflicting with the copy (the
  vector clocks: the issue reads the source and writes the destination, `CpCheck.before_iss`);
* `FinRace`: likewise in the completion's epoch (`CpCheck.after_fin`);
* `TagRace`: a conflicting action between the issue and the completion in the executor's order,
  any thread (the `Pending` tag and `Cta::inflight`: `CpCheck.between_dst`, `between_src`).
`cpEpochRace_three`: every `CpEpochRace` is one of them, provided each copy has a completion
(`Finishes`: the run ends with the thread's `exit`, which completes its copies). -/

section Three

variable {V : Type} [AccAdd V]

/-- Thread `i`'s action `k` comes before thread `j`'s action `k'` in the executor's history. -/
def Before (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k j k' : Nat) : Prop :=
  bars (baseProg kp) regs0 m0 i k < bars (baseProg kp) regs0 m0 j k' ∨
    (bars (baseProg kp) regs0 m0 i k = bars (baseProg kp) regs0 m0 j k' ∧
      (i < j ∨ (i = j ∧ k < k')))

/-- `kf` is the first completion of the copy issued at `kiss`. -/
def First (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss kf : Nat) : Prop :=
  kiss < kf ∧ Completes kp regs0 m0 j kiss kf ∧ NotDone kp regs0 m0 j kiss kf

def IssRace (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ j kiss c i k, j < N ∧ i < N ∧ i ≠ j ∧ IssueAt kp regs0 m0 j kiss c ∧
    CpConflict (soloAct (baseProg kp) regs0 m0 i k) c ∧
    bars (baseProg kp) regs0 m0 i k = bars (baseProg kp) regs0 m0 j kiss

def FinRace (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ j kiss kf c i k, j < N ∧ i < N ∧ i ≠ j ∧ IssueAt kp regs0 m0 j kiss c ∧
    First kp regs0 m0 j kiss kf ∧ CpConflict (soloAct (baseProg kp) regs0 m0 i k) c ∧
    bars (baseProg kp) regs0 m0 i k = bars (baseProg kp) regs0 m0 j kf

def TagRace (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ j kiss kf c i k, j < N ∧ i < N ∧ IssueAt kp regs0 m0 j kiss c ∧
    First kp regs0 m0 j kiss kf ∧ CpConflict (soloAct (baseProg kp) regs0 m0 i k) c ∧
    Before kp regs0 m0 j kiss i k ∧ Before kp regs0 m0 i k j kf

/-- Every issued copy has a first completion in its thread's trace. -/
def Finishes (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∀ j kiss c, j < N → IssueAt kp regs0 m0 j kiss c → ∃ kf, First kp regs0 m0 j kiss kf

theorem soloAct_kAct (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j k : Nat) :
    soloAct (baseProg kp) regs0 m0 j k =
      baseOf (solo (baseProg kp) regs0 m0 j k).pc (solo (baseProg kp) regs0 m0 j k).regs
        (kAct kp regs0 m0 j k) := rfl

/-- A completion (a wait or the exit) touches no memory itself. -/
theorem completes_quiet (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j kiss kw : Nat}
    (h : Completes kp regs0 m0 j kiss kw) (c : Cp) :
    ¬CpConflict (soloAct (baseProg kp) regs0 m0 j kw) c := by
  rw [soloAct_kAct]
  cases h with
  | inl h =>
    match h with
    | ⟨n, pc, e, _⟩ => rw [e]; exact fun h => h
  | inr e => rw [e]; exact fun h => h

theorem before_same (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j k k' : Nat}
    (h : k < k') : Before kp regs0 m0 j k j k' := by
  cases Nat.eqOrLtOfLe (bars_mono (baseProg kp) regs0 m0 j (Nat.leOfLt h)) with
  | inl e => exact Or.inr ⟨e, Or.inr ⟨rfl, h⟩⟩
  | inr hl => exact Or.inl hl

/-- The three places: a copy and a conflicting action in an epoch where the copy is
outstanding are reported by the executor: by the vector clocks against the issue or the
completion, or by the tags between them. -/
theorem cpEpochRace_three (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (hfin : Finishes kp N regs0 m0) (h : CpEpochRace kp N regs0 m0) :
    IssRace kp N regs0 m0 ∨ FinRace kp N regs0 m0 ∨ TagRace kp N regs0 m0 := by
  match h with
  | ⟨j, kiss, p, c, i, k, hj, hi, hia, ⟨_, hnd⟩, hcc, hb1, hb2, hij⟩ =>
  match hfin j kiss c hj hia with
  | ⟨kf, hkf, hcomp, hndf⟩ =>
  have hpkf : p ≤ kf := by
    cases Nat.ltOrGe kf p with
    | inl hlt => exact False.elim (hnd kf hkf hlt hcomp)
    | inr hge => exact hge
  have hfirst : First kp regs0 m0 j kiss kf := ⟨hkf, hcomp, hndf⟩
  cases Nat.decEq i j with
  | isTrue e =>
    match hij e with
    | ⟨hlt, ekp⟩ =>
    rw [e] at hcc hi
    have hkkf : k ≤ kf := by rw [ekp]; exact hpkf
    cases Nat.eqOrLtOfLe hkkf with
    | inl ek => rw [ek] at hcc; exact False.elim (completes_quiet kp regs0 m0 hcomp c hcc)
    | inr hk =>
      exact Or.inr (Or.inr ⟨j, kiss, kf, c, j, k, hj, hi, hia, hfirst, hcc,
        before_same kp regs0 m0 hlt, before_same kp regs0 m0 hk⟩)
  | isFalse ne =>
    have hb3 : bars (baseProg kp) regs0 m0 i k ≤ bars (baseProg kp) regs0 m0 j kf :=
      Nat.leTrans hb2 (bars_mono _ regs0 m0 j hpkf)
    cases Nat.eqOrLtOfLe hb1 with
    | inl e1 => exact Or.inl ⟨j, kiss, c, i, k, hj, hi, ne, hia, hcc, Eq.symm e1⟩
    | inr l1 =>
      cases Nat.eqOrLtOfLe hb3 with
      | inl e2 => exact Or.inr (Or.inl ⟨j, kiss, kf, c, i, k, hj, hi, ne, hia, hfirst, hcc, e2⟩)
      | inr l2 =>
        exact Or.inr (Or.inr ⟨j, kiss, kf, c, i, k, hj, hi, hia, hfirst, hcc, Or.inl l1,
          Or.inl l2⟩)

/-- The main theorem stated with the executor's three reports. -/
theorem cpRaceFree_of_reports (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hfin : Finishes kp N regs0 m0) (h1 : ¬EpochRace (baseProg kp) N regs0 m0)
    (hi : ¬IssRace kp N regs0 m0) (hf : ¬FinRace kp N regs0 m0) (ht : ¬TagRace kp N regs0 m0)
    (h3 : ¬CopyEpochRace kp N regs0 m0) : CpRaceFree kp N (kinit regs0 m0) := by
  refine cpRaceFree_of_epoch kp N regs0 m0 R hsync hind hR0 h1 ?_ h3
  intro h
  cases cpEpochRace_three kp N regs0 m0 hfin h with
  | inl h' => exact hi h'
  | inr h' =>
    cases h' with
    | inl h'' => exact hf h''
    | inr h'' => exact ht h''

/-- Every thread below `N` reaches its `exit` in its trace (the executor's run finishes). -/
def Exits (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∀ j, j < N → ∃ kx, kAct kp regs0 m0 j kx = KAct.base Act.exit

theorem kAct_exit_succ (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j k : Nat}
    (h : kAct kp regs0 m0 j k = KAct.base Act.exit) :
    kAct kp regs0 m0 j (k + 1) = KAct.base Act.exit := by
  have hs : soloAct (baseProg kp) regs0 m0 j k = Act.exit := by rw [soloAct_kAct, h]; rfl
  have e : solo (baseProg kp) regs0 m0 j (k + 1) =
      newT (soloAct (baseProg kp) regs0 m0 j k) false (solo (baseProg kp) regs0 m0 j k) m0 := rfl
  rw [hs] at e
  show kp j (solo (baseProg kp) regs0 m0 j (k + 1)).pc (solo (baseProg kp) regs0 m0 j (k + 1)).regs = _
  rw [e]
  exact h

theorem kAct_exit_add (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j k : Nat}
    (h : kAct kp regs0 m0 j k = KAct.base Act.exit) :
    ∀ d, kAct kp regs0 m0 j (k + d) = KAct.base Act.exit
  | 0 => h
  | d + 1 => kAct_exit_succ kp regs0 m0 (kAct_exit_add kp regs0 m0 h d)

theorem completes_dec (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss kw : Nat) :
    Completes kp regs0 m0 j kiss kw ∨ ¬Completes kp regs0 m0 j kiss kw := by
  cases hK : kAct kp regs0 m0 j kw with
  | wait n pc =>
    cases Nat.decLt (commits kp regs0 m0 j kiss + n) (commits kp regs0 m0 j kw) with
    | isTrue hl => exact Or.inl (Or.inl ⟨n, pc, hK, hl⟩)
    | isFalse hl =>
      refine Or.inr (fun hc => ?_)
      cases hc with
      | inl h =>
        match h with
        | ⟨n', pc', e, hl'⟩ =>
          rw [hK] at e
          injection e with e1 _
          rw [e1] at hl
          exact hl hl'
      | inr e => rw [hK] at e; exact KAct.noConfusion e
  | issue s d pc =>
    refine Or.inr (fun hc => ?_)
    cases hc with
    | inl h => match h with | ⟨_, _, e, _⟩ => rw [hK] at e; exact KAct.noConfusion e
    | inr e => rw [hK] at e; exact KAct.noConfusion e
  | commit pc =>
    refine Or.inr (fun hc => ?_)
    cases hc with
    | inl h => match h with | ⟨_, _, e, _⟩ => rw [hK] at e; exact KAct.noConfusion e
    | inr e => rw [hK] at e; exact KAct.noConfusion e
  | base A =>
    cases A with
    | exit => exact Or.inl (Or.inr hK)
    | _ =>
      refine Or.inr (fun hc => ?_)
      cases hc with
      | inl h => match h with | ⟨_, _, e, _⟩ => rw [hK] at e; exact KAct.noConfusion e
      | inr e => rw [hK] at e; injection e with e'; exact Act.noConfusion e'

theorem lt_add_succ' (a m : Nat) : a < a + m + 1 := Nat.succLeSucc (Nat.leAddRight a m)
theorem le_of_lt_add_one' {kw a : Nat} (h : kw < a + 1) : kw ≤ a := Nat.leOfLtSucc h

/-- Up to `kiss + m`: no completion yet, or a first one. -/
theorem first_search (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss : Nat) :
    ∀ m, (∀ kw, kiss < kw → kw ≤ kiss + m → ¬Completes kp regs0 m0 j kiss kw) ∨
      ∃ kf, First kp regs0 m0 j kiss kf
  | 0 => Or.inl (fun kw h1 h2 _ => Nat.ltIrrefl kiss (Nat.ltOfLtOfLe h1 h2))
  | m + 1 =>
    match first_search kp regs0 m0 j kiss m with
    | Or.inr h => Or.inr h
    | Or.inl h =>
      match completes_dec kp regs0 m0 j kiss (kiss + m + 1) with
      | Or.inl hc =>
        Or.inr ⟨kiss + m + 1, lt_add_succ' kiss m, hc,
          fun kw h1 h2 => h kw h1 (le_of_lt_add_one' h2)⟩
      | Or.inr hn =>
        Or.inl (fun kw h1 h2 => by
          cases Nat.eqOrLtOfLe h2 with
          | inl e => rw [e]; exact hn
          | inr hl => exact h kw h1 (le_of_lt_add_one' hl))

/-- A finished run gives `Finishes`: every copy is completed at latest at the `exit`. -/
theorem finishes_of_exits (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (hx : Exits kp N regs0 m0) : Finishes kp N regs0 m0 := by
  intro j kiss c hj hia
  match hx j hj, hia with
  | ⟨kx, ex⟩, ⟨pc, ei⟩ =>
    have hlt : kiss < kx := by
      cases Nat.ltOrGe kiss kx with
      | inl h => exact h
      | inr h =>
        match Nat.le.dest h with
        | ⟨d, e⟩ =>
          have e2 := kAct_exit_add kp regs0 m0 ex d
          rw [e, ei] at e2
          exact KAct.noConfusion e2
    match first_search kp regs0 m0 j kiss kx with
    | Or.inr h => exact h
    | Or.inl h => exact False.elim (h kx hlt (Nat.leAddLeft kx kiss) (Or.inr ex))

/-- The main theorem with the executor's three reports, for a finished run. -/
theorem cpRaceFree_of_run (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hx : Exits kp N regs0 m0) (h1 : ¬EpochRace (baseProg kp) N regs0 m0)
    (hi : ¬IssRace kp N regs0 m0) (hf : ¬FinRace kp N regs0 m0) (ht : ¬TagRace kp N regs0 m0)
    (h3 : ¬CopyEpochRace kp N regs0 m0) : CpRaceFree kp N (kinit regs0 m0) :=
  cpRaceFree_of_reports kp N regs0 m0 R hsync hind hR0 (finishes_of_exits kp N regs0 m0 hx)
    h1 hi hf ht h3

/-! ### Two copies: the executor's reports

With sources and destinations in different address spaces (`Disjoint`: in PTX `cp.async` copies
from global to shared memory), two copies conflict only with one destination.  The Rust reports
two copies to one destination outstanding together by the tag (an issue to a destination
between another copy's issue and completion: `CpCheck.run_issue_dst`, `between_dst` with an
issue) or by the vector clocks (the issue and the completion each write the destination). -/

/-- No copy's destination is any copy's source. -/
def Disjoint (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∀ j kiss c j' kiss' d, j < N → j' < N → IssueAt kp regs0 m0 j kiss c →
    IssueAt kp regs0 m0 j' kiss' d → c.dst ≠ d.src

/-- An issue to a destination between another copy's issue and first completion to it. -/
def CopyTagRace (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ j kiss kf c j' kiss' d, j < N ∧ j' < N ∧ ¬(j = j' ∧ kiss = kiss') ∧
    IssueAt kp regs0 m0 j kiss c ∧ First kp regs0 m0 j kiss kf ∧ IssueAt kp regs0 m0 j' kiss' d ∧
    c.dst = d.dst ∧ Before kp regs0 m0 j kiss j' kiss' ∧ Before kp regs0 m0 j' kiss' j kf

/-- Another thread's issue to one destination in the epoch of a copy's first completion. -/
def CopyClockRace (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∃ j kiss kf c j' kiss' d, j < N ∧ j' < N ∧ j ≠ j' ∧
    IssueAt kp regs0 m0 j kiss c ∧ First kp regs0 m0 j kiss kf ∧ IssueAt kp regs0 m0 j' kiss' d ∧
    c.dst = d.dst ∧ bars (baseProg kp) regs0 m0 j kf = bars (baseProg kp) regs0 m0 j' kiss'

theorem before_total (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i k j k' : Nat}
    (hne : ¬(i = j ∧ k = k')) : Before kp regs0 m0 i k j k' ∨ Before kp regs0 m0 j k' i k := by
  cases Nat.ltOrGe (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 j k') with
  | inl h => exact Or.inl (Or.inl h)
  | inr h =>
    cases Nat.eqOrLtOfLe h with
    | inr h2 => exact Or.inr (Or.inl h2)
    | inl e =>
      cases Nat.ltOrGe i j with
      | inl hij => exact Or.inl (Or.inr ⟨Eq.symm e, Or.inl hij⟩)
      | inr hij =>
        cases Nat.eqOrLtOfLe hij with
        | inr hji => exact Or.inr (Or.inr ⟨e, Or.inl hji⟩)
        | inl eji =>
          cases Nat.ltOrGe k k' with
          | inl hk => exact Or.inl (Or.inr ⟨Eq.symm e, Or.inr ⟨Eq.symm eji, hk⟩⟩)
          | inr hk =>
            cases Nat.eqOrLtOfLe hk with
            | inr hk2 => exact Or.inr (Or.inr ⟨e, Or.inr ⟨eji, hk2⟩⟩)
            | inl ek => exact False.elim (hne ⟨Eq.symm eji, Eq.symm ek⟩)

theorem before_bars (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i k j k' : Nat}
    (h : Before kp regs0 m0 i k j k') :
    bars (baseProg kp) regs0 m0 i k ≤ bars (baseProg kp) regs0 m0 j k' := by
  cases h with
  | inl h => exact Nat.leOfLt h
  | inr h => rw [h.1]; exact Nat.leRefl _

theorem issue_not_completes (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {j kiss k : Nat} {c : Cp} (hia : IssueAt kp regs0 m0 j k c) :
    ¬Completes kp regs0 m0 j kiss k := by
  match hia with
  | ⟨pc, e⟩ =>
    refine notCompl_of kp regs0 m0 (fun n pc' e' => ?_) (fun e' => ?_)
    · rw [e] at e'; exact KAct.noConfusion e'
    · rw [e] at e'; exact KAct.noConfusion e'

/-- One order of the two issues. -/
theorem copy_two_one (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (hfin : Finishes kp N regs0 m0) {j kiss p j' kiss' p' e : Nat} {c d : Cp}
    (hj : j < N) (hj' : j' < N) (hne : ¬(j = j' ∧ kiss = kiss'))
    (hia : IssueAt kp regs0 m0 j kiss c) (hout : Outst kp regs0 m0 j kiss p)
    (hia' : IssueAt kp regs0 m0 j' kiss' d) (hout' : Outst kp regs0 m0 j' kiss' p')
    (he2 : e ≤ bars (baseProg kp) regs0 m0 j p) (he3 : bars (baseProg kp) regs0 m0 j' kiss' ≤ e)
    (hpp : j = j' → p = p') (hdd : c.dst = d.dst)
    (hb : Before kp regs0 m0 j kiss j' kiss') :
    CopyTagRace kp N regs0 m0 ∨ CopyClockRace kp N regs0 m0 := by
  match hfin j kiss c hj hia with
  | ⟨kf, hkf, hcomp, hndf⟩ =>
  have hfirst : First kp regs0 m0 j kiss kf := ⟨hkf, hcomp, hndf⟩
  have hpkf : p ≤ kf := by
    cases Nat.ltOrGe kf p with
    | inl hlt => exact False.elim (hout.2 kf hkf hlt hcomp)
    | inr hge => exact hge
  have hne2 : ¬(j' = j ∧ kiss' = kf) := by
    intro h
    rw [h.1, h.2] at hia'
    exact issue_not_completes kp regs0 m0 hia' hcomp
  cases before_total kp regs0 m0 hne2 with
  | inl h => exact Or.inl ⟨j, kiss, kf, c, j', kiss', d, hj, hj', hne, hia, hfirst, hia', hdd, hb, h⟩
  | inr h =>
    have hb1 := before_bars kp regs0 m0 h
    have hb2 : bars (baseProg kp) regs0 m0 j' kiss' ≤ bars (baseProg kp) regs0 m0 j kf :=
      Nat.leTrans he3 (Nat.leTrans he2 (bars_mono _ regs0 m0 j hpkf))
    have heq := Nat.leAntisymm hb1 hb2
    cases Nat.decEq j j' with
    | isFalse nj => exact Or.inr ⟨j, kiss, kf, c, j', kiss', d, hj, hj', nj, hia, hfirst, hia', hdd, heq⟩
    | isTrue ej =>
      have ep := hpp ej
      have hk' : kiss' ≤ kf := by
        have h1 := hout'.1
        rw [← ep] at h1
        exact Nat.leTrans h1 hpkf
      cases h with
      | inl hl => rw [heq] at hl; exact False.elim (Nat.ltIrrefl _ hl)
      | inr hr =>
        cases hr.2 with
        | inl hl => rw [ej] at hl; exact False.elim (Nat.ltIrrefl _ hl)
        | inr hr2 => exact False.elim (Nat.notSuccLeSelf _ (Nat.leTrans hr2.2 hk'))

/-- Two conflicting outstanding copies are reported (tags or clocks), with disjoint spaces. -/
theorem copyEpochRace_two (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (hfin : Finishes kp N regs0 m0) (hdis : Disjoint kp N regs0 m0)
    (h : CopyEpochRace kp N regs0 m0) : CopyTagRace kp N regs0 m0 ∨ CopyClockRace kp N regs0 m0 := by
  match h with
  | ⟨j, kiss, p, c, j', kiss', p', d, e, hj, hj', hne, hia, hout, hia', hout', he1, he2, he3, he4,
      hpp, hcc⟩ =>
  have hdd : c.dst = d.dst := by
    cases hcc with
    | inl h1 => exact False.elim (hdis j kiss c j' kiss' d hj hj' hia hia' h1)
    | inr h1 =>
      cases h1 with
      | inl h2 => exact False.elim (hdis j' kiss' d j kiss c hj' hj hia' hia h2)
      | inr h2 => exact h2
  cases before_total kp regs0 m0 hne with
  | inl hb =>
    exact copy_two_one kp N regs0 m0 hfin hj hj' hne hia hout hia' hout' he2 he3 hpp hdd hb
  | inr hb =>
    have hne' : ¬(j' = j ∧ kiss' = kiss) := fun h2 => hne ⟨Eq.symm h2.1, Eq.symm h2.2⟩
    exact copy_two_one kp N regs0 m0 hfin hj' hj hne' hia' hout' hia hout he4 he1
      (fun h2 => Eq.symm (hpp (Eq.symm h2))) (Eq.symm hdd) hb

/-- The main theorem with the executor's reports only, for a finished run with sources and
destinations in different spaces: no `EpochRace`, `IssRace`, `FinRace`, `TagRace`,
`CopyTagRace`, `CopyClockRace` gives `CpRaceFree` for every schedule. -/
theorem cpRaceFree_of_reports_all (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hx : Exits kp N regs0 m0) (hdis : Disjoint kp N regs0 m0)
    (h1 : ¬EpochRace (baseProg kp) N regs0 m0)
    (hi : ¬IssRace kp N regs0 m0) (hf : ¬FinRace kp N regs0 m0) (ht : ¬TagRace kp N regs0 m0)
    (hct : ¬CopyTagRace kp N regs0 m0) (hcc : ¬CopyClockRace kp N regs0 m0) :
    CpRaceFree kp N (kinit regs0 m0) := by
  refine cpRaceFree_of_run kp N regs0 m0 R hsync hind hR0 hx h1 hi hf ht ?_
  intro h
  cases copyEpochRace_two kp N regs0 m0 (finishes_of_exits kp N regs0 m0 hx) hdis h with
  | inl h' => exact hct h'
  | inr h' => exact hcc h'

end Three


/-! ### The vector-clock reports on a list history

Any history (a list of (epoch, event) pairs, `CpCheck`) that contains the run's events at their
epochs (`HasAccs`: each read, write, atomic of the trace; `HasIss`: each issue; `HasFin`: each
copy's completion at its first completion) and that `CpCheck.accepts` has no `EpochRace`,
`IssRace`, `FinRace`, `CopyClockRace`: two such events of different threads in one epoch that
conflict are an `epochRace`.  (The tag reports, `TagRace` and `CopyTagRace`, need the order of
the list, not only its contents: NOT derived here.) -/

section Clocks

open CpCheck

variable {V : Type} [AccAdd V]

/-- `x` occurs in the list. -/
def Occ (x : Nat × XEv) : List (Nat × XEv) → Prop
  | [] => False
  | y :: l => y = x ∨ Occ x l

/-- The event of a `Sem` action of thread `t` (a store or an atomic is a write). -/
def evOf (t : Nat) : Act V → Option XEv
  | Act.read a _ _ => some (XEv.rd t a)
  | Act.write a _ _ => some (XEv.wr t a)
  | Act.atomAdd a _ _ => some (XEv.wr t a)
  | _ => none

def HasAccs (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (h : List (Nat × XEv)) : Prop :=
  ∀ i k x, i < N → evOf i (soloAct (baseProg kp) regs0 m0 i k) = some x →
    Occ (bars (baseProg kp) regs0 m0 i k, x) h

def HasIss (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (h : List (Nat × XEv)) : Prop :=
  ∀ j kiss c, j < N → IssueAt kp regs0 m0 j kiss c →
    Occ (bars (baseProg kp) regs0 m0 j kiss, XEv.iss j c.src c.dst) h

def HasFin (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (h : List (Nat × XEv)) : Prop :=
  ∀ j kiss kf c, j < N → IssueAt kp regs0 m0 j kiss c → First kp regs0 m0 j kiss kf →
    Occ (bars (baseProg kp) regs0 m0 j kf, XEv.fin j c.src c.dst) h

theorem occ_split1 (q : Nat × XEv) : ∀ (l : List (Nat × XEv)), Occ q l →
    ∃ M R, l = appP M (q :: R)
  | [], h => False.elim h
  | y :: l, h => by
    cases h with
    | inl e => exact ⟨[], l, by rw [e]; rfl⟩
    | inr h' =>
      match occ_split1 q l h' with
      | ⟨M, R, e⟩ => exact ⟨y :: M, R, by rw [e]; rfl⟩

theorem occ_split2 (p q : Nat × XEv) (hne : p ≠ q) : ∀ (l : List (Nat × XEv)), Occ p l →
    Occ q l → ∃ A M R, l = appP A (p :: appP M (q :: R)) ∨ l = appP A (q :: appP M (p :: R))
  | [], hp, _ => False.elim hp
  | y :: l, hp, hq => by
    cases hp with
    | inl ep =>
      cases hq with
      | inl eq => exact False.elim (hne (Eq.trans (Eq.symm ep) eq))
      | inr hq' =>
        match occ_split1 q l hq' with
        | ⟨M, R, e⟩ => exact ⟨[], M, R, Or.inl (by rw [e, ep]; rfl)⟩
    | inr hp' =>
      cases hq with
      | inl eq =>
        match occ_split1 p l hp' with
        | ⟨M, R, e⟩ => exact ⟨[], M, R, Or.inr (by rw [e, eq]; rfl)⟩
      | inr hq' =>
        match occ_split2 p q hne l hp' hq' with
        | ⟨A, M, R, Or.inl e⟩ => exact ⟨y :: A, M, R, Or.inl (by rw [e]; rfl)⟩
        | ⟨A, M, R, Or.inr e⟩ => exact ⟨y :: A, M, R, Or.inr (by rw [e]; rfl)⟩

theorem beq_symm' (a b : Nat) : Nat.beq a b = Nat.beq b a := by
  cases h : Nat.beq a b with
  | true => rw [eq_of_beq' a b h, beq_self]
  | false =>
    cases h2 : Nat.beq b a with
    | false => rfl
    | true => rw [eq_of_beq' b a h2, beq_self] at h; cases h

theorem optEq_symm (a b : Option Nat) : optEq a b = optEq b a := by
  cases a with
  | none => cases b <;> rfl
  | some x =>
    cases b with
    | none => rfl
    | some y => exact beq_symm' x y

theorem or3_swap (a b c : Bool) : (a || b || c) = (a || c || b) := by
  cases a <;> cases b <;> cases c <;> rfl

theorem evConf_symm (e f : XEv) : evConf e f = evConf f e := by
  show (not (Nat.beq (evT e) (evT f)) &&
      (optEq (evW e) (evW f) || optEq (evW e) (evR f) || optEq (evR e) (evW f))) =
    (not (Nat.beq (evT f) (evT e)) &&
      (optEq (evW f) (evW e) || optEq (evW f) (evR e) || optEq (evR f) (evW e)))
  rw [beq_symm' (evT e), optEq_symm (evW e) (evW f), optEq_symm (evW e) (evR f),
    optEq_symm (evR e) (evW f), or3_swap]

theorem ne_of_evT {p q : Nat × XEv} (h : evT p.2 ≠ evT q.2) : p ≠ q := by
  intro e; rw [e] at h; exact h rfl

/-- Two events of different threads, of one epoch, that conflict, in an accepted history. -/
theorem epochRace_of_occ (h : List (Nat × XEv)) (p q : Nat × XEv) (hp : Occ p h) (hq : Occ q h)
    (he : p.1 = q.1) (hc : evConf p.2 q.2 = true) (ht : evT p.2 ≠ evT q.2) :
    epochRace h = true := by
  match occ_split2 p q (ne_of_evT ht) h hp hq with
  | ⟨A, M, R, Or.inl e⟩ =>
    rw [e]
    apply epochRace_app
    show (Nat.beq p.1 q.1 && evConf p.2 q.2) = true
    rw [he, beq_self, hc]; rfl
  | ⟨A, M, R, Or.inr e⟩ =>
    rw [e]
    apply epochRace_app
    show (Nat.beq q.1 p.1 && evConf q.2 p.2) = true
    rw [he, beq_self, evConf_symm, hc]; rfl

theorem evOf_copyConf {t : Nat} {A : Act V} {c : Cp} (h : CpConflict A c) :
    ∃ x, evOf t A = some x ∧ CopyConf c.src c.dst x ∧ evT x = t := by
  cases A with
  | read a r pc => exact ⟨XEv.rd t a, rfl, h, rfl⟩
  | write a v pc => exact ⟨XEv.wr t a, rfl, h, rfl⟩
  | atomAdd a v pc => exact ⟨XEv.wr t a, rfl, h, rfl⟩
  | compute pc r => exact False.elim h
  | arrive b n w pc => exact False.elim h
  | exit => exact False.elim h

theorem wr_rd {i j a : Nat} (hij : i ≠ j) : evConf (XEv.wr i a) (XEv.rd j a) = true := by
  show (not (Nat.beq i j) && (false || Nat.beq a a || false)) = true
  rw [beq_ne hij, beq_self]; rfl
theorem rd_wr {i j a : Nat} (hij : i ≠ j) : evConf (XEv.rd i a) (XEv.wr j a) = true := by
  show (not (Nat.beq i j) && (false || false || Nat.beq a a)) = true
  rw [beq_ne hij, beq_self]; rfl
theorem wr_wr {i j a : Nat} (hij : i ≠ j) : evConf (XEv.wr i a) (XEv.wr j a) = true := by
  show (not (Nat.beq i j) && (Nat.beq a a || false || false)) = true
  rw [beq_ne hij, beq_self]; rfl

theorem evOf_conflict {i j : Nat} (hij : i ≠ j) {A B : Act V} (h : Conflict A B) :
    ∃ x y, evOf i A = some x ∧ evOf j B = some y ∧ evConf x y = true ∧ evT x = i ∧ evT y = j := by
  cases A with
  | read a r pc =>
    cases B with
    | write b v pc' => have e : a = b := h; rw [e]; exact ⟨_, _, rfl, rfl, rd_wr hij, rfl, rfl⟩
    | atomAdd b v pc' => have e : a = b := h; rw [e]; exact ⟨_, _, rfl, rfl, rd_wr hij, rfl, rfl⟩
    | _ => exact False.elim h
  | write a v pc =>
    cases B with
    | read b r pc' => have e : a = b := h; rw [e]; exact ⟨_, _, rfl, rfl, wr_rd hij, rfl, rfl⟩
    | write b w pc' => have e : a = b := h; rw [e]; exact ⟨_, _, rfl, rfl, wr_wr hij, rfl, rfl⟩
    | atomAdd b w pc' => have e : a = b := h; rw [e]; exact ⟨_, _, rfl, rfl, wr_wr hij, rfl, rfl⟩
    | _ => exact False.elim h
  | atomAdd a v pc =>
    cases B with
    | read b r pc' => have e : a = b := h; rw [e]; exact ⟨_, _, rfl, rfl, wr_rd hij, rfl, rfl⟩
    | write b w pc' => have e : a = b := h; rw [e]; exact ⟨_, _, rfl, rfl, wr_wr hij, rfl, rfl⟩
    | _ => exact False.elim h
  | compute pc r => exact False.elim h
  | arrive b n w pc => exact False.elim h
  | exit => exact False.elim h

theorem and_not_true (b : Bool) : (b && !true) = false := by cases b <;> rfl

theorem accepts_epoch (h : List (Nat × XEv)) (ha : accepts h = true) : epochRace h = false := by
  cases e : epochRace h with
  | false => rfl
  | true =>
    have h2 : (xcheck xst0 (h.map Prod.snd) && not (epochRace h)) = true := ha
    rw [e, and_not_true] at h2
    cases h2

/-- An accepted history containing the run's events has none of the vector-clock reports. -/
theorem accepts_clocks (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (h : List (Nat × XEv)) (ha : accepts h = true) (hA : HasAccs kp N regs0 m0 h)
    (hI : HasIss kp N regs0 m0 h) (hF : HasFin kp N regs0 m0 h) :
    ¬EpochRace (baseProg kp) N regs0 m0 ∧ ¬IssRace kp N regs0 m0 ∧ ¬FinRace kp N regs0 m0 ∧
      ¬CopyClockRace kp N regs0 m0 := by
  have hno := accepts_epoch h ha
  have bad : epochRace h = true → False := fun e => by rw [hno] at e; cases e
  refine ⟨?_, ?_, ?_, ?_⟩
  · intro hr
    match hr with
    | ⟨i, j, ki, kj, hij, hi, hj, hc, hb⟩ =>
      match evOf_conflict hij hc with
      | ⟨x, y, ex, ey, hxy, tx, ty⟩ =>
        exact bad (epochRace_of_occ h _ _ (hA i ki x hi ex) (hA j kj y hj ey) hb hxy
          (by rw [tx, ty]; exact hij))
  · intro hr
    match hr with
    | ⟨j, kiss, c, i, k, hj, hi, hne, hia, hcc, hb⟩ =>
      match evOf_copyConf (t := i) hcc with
      | ⟨x, ex, hx, tx⟩ =>
        have ht : evT x ≠ j := by rw [tx]; exact hne
        exact bad (epochRace_of_occ h _ _ (hA i k x hi ex) (hI j kiss c hj hia) hb
          (conf_iss x j c.src c.dst hx ht) ht)
  · intro hr
    match hr with
    | ⟨j, kiss, kf, c, i, k, hj, hi, hne, hia, hfirst, hcc, hb⟩ =>
      match evOf_copyConf (t := i) hcc with
      | ⟨x, ex, hx, tx⟩ =>
        have ht : evT x ≠ j := by rw [tx]; exact hne
        exact bad (epochRace_of_occ h _ _ (hF j kiss kf c hj hia hfirst) (hA i k x hi ex)
          (Eq.symm hb) (conf_fin x j c.src c.dst hx ht) (fun e => ht (Eq.symm e)))
  · intro hr
    match hr with
    | ⟨j, kiss, kf, c, j', kiss', d, hj, hj', hne, hia, hfirst, hia', hdd, hb⟩ =>
      have hx : CopyConf c.src c.dst (XEv.iss j' d.src d.dst) := Eq.symm hdd
      have ht : evT (XEv.iss j' d.src d.dst) ≠ j := fun e => hne (Eq.symm e)
      exact bad (epochRace_of_occ h _ _ (hF j kiss kf c hj hia hfirst) (hI j' kiss' d hj' hia')
        hb (conf_fin _ j c.src c.dst hx ht) hne)

/-- The main theorem from an accepted history: what remains as hypotheses are the two tag
reports (`TagRace`, `CopyTagRace`), which need the order of the history. -/
theorem cpRaceFree_of_accepts (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hx : Exits kp N regs0 m0) (hdis : Disjoint kp N regs0 m0)
    (h : List (Nat × XEv)) (ha : accepts h = true) (hA : HasAccs kp N regs0 m0 h)
    (hI : HasIss kp N regs0 m0 h) (hF : HasFin kp N regs0 m0 h)
    (ht : ¬TagRace kp N regs0 m0) (hct : ¬CopyTagRace kp N regs0 m0) :
    CpRaceFree kp N (kinit regs0 m0) :=
  match accepts_clocks kp N regs0 m0 h ha hA hI hF with
  | ⟨h1, hi, hf, hcc⟩ =>
    cpRaceFree_of_reports_all kp N regs0 m0 R hsync hind hR0 hx hdis h1 hi hf ht hct hcc

end Clocks

/-! ### Examples: `kp2` gets `CpRaceFree` from the theorem; `kpRacy` and `kpNoWait` are races -/

namespace Ex

open CpSem.Example

def r0 : Nat → Nat → Nat := fun _ _ => 0

theorem kactRel_true (K : KAct Nat) (r r' : Nat → Nat) :
    KActRel (fun _ _ _ => True) r r' K K := by
  cases K with
  | base A =>
    cases A with
    | compute pc q => exact ⟨rfl, trivial⟩
    | read a q pc => exact ⟨rfl, rfl, rfl, fun _ _ => trivial⟩
    | write a v pc => exact ⟨rfl, rfl, trivial⟩
    | atomAdd a v pc => exact ⟨rfl, rfl, trivial⟩
    | arrive b n w pc => exact ⟨rfl, rfl, rfl, rfl, trivial⟩
    | exit => exact trivial
  | issue s d pc => exact ⟨rfl, rfl, rfl, trivial⟩
  | commit pc => exact ⟨rfl, trivial⟩
  | wait n pc => exact ⟨rfl, rfl, trivial⟩

/-- `kp2` ignores its registers: data independent with the trivial relation. -/
theorem kp2_indep : KDataIndep kp2 (fun _ _ _ _ => True) :=
  fun i pc regs regs' _ => kactRel_true (kp2 i pc regs) regs regs'

theorem kp2_0_hi (p : Nat) (regs : Nat → Nat) : kp2 0 (p + 4) regs = KAct.base Act.exit := rfl
theorem kp2_1_hi (p : Nat) (regs : Nat → Nat) : kp2 1 (p + 2) regs = KAct.base Act.exit := rfl
theorem kp2_hi (i p : Nat) (regs : Nat → Nat) : kp2 (i + 2) p regs = KAct.base Act.exit := rfl

/-- `kp2`'s barriers are `bar.sync 0, 2`: whole-CTA for two threads. -/
theorem kp2_sync : SyncAll (baseProg kp2) 2 := by
  intro i pc regs b n w pc' h
  have h' : baseOf pc regs (kp2 i pc regs) = Act.arrive b n w pc' := h
  cases i with
  | zero =>
    cases pc with
    | zero => exact Act.noConfusion h'
    | succ pc => cases pc with
      | zero => exact Act.noConfusion h'
      | succ pc => cases pc with
        | zero => exact Act.noConfusion h'
        | succ pc => cases pc with
          | zero => injection h' with _ e2 e3 _; exact ⟨Eq.symm e2, Eq.symm e3⟩
          | succ pc => rw [kp2_0_hi pc regs] at h'; exact Act.noConfusion h'
  | succ i => cases i with
    | zero =>
      cases pc with
      | zero => injection h' with _ e2 e3 _; exact ⟨Eq.symm e2, Eq.symm e3⟩
      | succ pc => cases pc with
        | zero => exact Act.noConfusion h'
        | succ pc => rw [kp2_1_hi pc regs] at h'; exact Act.noConfusion h'
    | succ i => rw [kp2_hi i pc regs] at h'; exact Act.noConfusion h'

theorem solo_succ' (prog : Prog Nat) (regs0 : Nat → Nat → Nat) (m0 : Nat → Nat) (i k : Nat) :
    solo prog regs0 m0 i (k + 1) =
      newT (prog i (solo prog regs0 m0 i k).pc (solo prog regs0 m0 i k).regs) false
        (solo prog regs0 m0 i k) m0 := rfl

theorem newT_pc0 (t : TState Nat) (ht : t.pc = 4) :
    (newT (baseProg kp2 0 t.pc t.regs) false t m0).pc = 4 := by
  cases t with
  | mk pc rg st =>
    have e : pc = 4 := ht
    rw [e]
    rfl

theorem newT_pc1 (t : TState Nat) (ht : t.pc = 2) :
    (newT (baseProg kp2 1 t.pc t.regs) false t m0).pc = 2 := by
  cases t with
  | mk pc rg st =>
    have e : pc = 2 := ht
    rw [e]
    rfl

theorem solo0_pc : ∀ k, (solo (baseProg kp2) r0 m0 0 (k + 4)).pc = 4
  | 0 => rfl
  | k + 1 => by
    rw [show k + 1 + 4 = (k + 4) + 1 from rfl, solo_succ']
    exact newT_pc0 _ (solo0_pc k)

theorem solo1_pc : ∀ k, (solo (baseProg kp2) r0 m0 1 (k + 2)).pc = 2
  | 0 => rfl
  | k + 1 => by
    rw [show k + 1 + 2 = (k + 2) + 1 from rfl, solo_succ']
    exact newT_pc1 _ (solo1_pc k)

theorem kp2_at0 (t : TState Nat) (ht : t.pc = 4) : kp2 0 t.pc t.regs = KAct.base Act.exit := by
  rw [ht]; rfl

theorem kp2_at1 (t : TState Nat) (ht : t.pc = 2) : kp2 1 t.pc t.regs = KAct.base Act.exit := by
  rw [ht]; rfl

theorem kAct_eq (kp : KProg Nat) (regs0 : Nat → Nat → Nat) (m0 : Nat → Nat) (i k : Nat) :
    kAct kp regs0 m0 i k =
      kp i (solo (baseProg kp) regs0 m0 i k).pc (solo (baseProg kp) regs0 m0 i k).regs := rfl

theorem kAct0_hi (k : Nat) : kAct kp2 r0 m0 0 (k + 4) = KAct.base Act.exit := by
  rw [kAct_eq]; exact kp2_at0 _ (solo0_pc k)

theorem kAct1_hi (k : Nat) : kAct kp2 r0 m0 1 (k + 2) = KAct.base Act.exit := by
  rw [kAct_eq]; exact kp2_at1 _ (solo1_pc k)

theorem soloAct_of (i k : Nat) {A : Act Nat} (h : kAct kp2 r0 m0 i k = KAct.base A) :
    soloAct (baseProg kp2) r0 m0 i k = A := by
  show baseOf _ _ (kAct kp2 r0 m0 i k) = A
  rw [h]
  rfl

/-- Thread 0 touches no memory itself (its copy is the engine's). -/
theorem noMem0 (k : Nat) : NoMem (soloAct (baseProg kp2) r0 m0 0 k) := by
  cases k with
  | zero => exact noMem_compute _ _
  | succ k => cases k with
    | zero => exact noMem_compute _ _
    | succ k => cases k with
      | zero => exact noMem_compute _ _
      | succ k => cases k with
        | zero => exact noMem_arrive 0 2 true 4
        | succ k => rw [soloAct_of 0 (k + 4) (kAct0_hi k)]; exact noMem_exit

theorem bars0_hi : ∀ k, bars (baseProg kp2) r0 m0 0 (k + 4) = 1
  | 0 => rfl
  | k + 1 => by
    show bars (baseProg kp2) r0 m0 0 (k + 4) + isArr (soloAct (baseProg kp2) r0 m0 0 (k + 4)) = 1
    rw [bars0_hi k, soloAct_of 0 (k + 4) (kAct0_hi k)]
    rfl

theorem bars1_hi : ∀ k, bars (baseProg kp2) r0 m0 1 (k + 1) = 1
  | 0 => rfl
  | k + 1 => by
    show bars (baseProg kp2) r0 m0 1 (k + 1) + isArr (soloAct (baseProg kp2) r0 m0 1 (k + 1)) = 1
    rw [bars1_hi k]
    cases k with
    | zero => rfl
    | succ k => rw [soloAct_of 1 (k + 2) (kAct1_hi k)]; rfl

/-- The only copy of `kp2`: thread 0's first action, from 0 to 1. -/
theorem kp2_issue {j kiss : Nat} {c : Cp} (hj : j < 2) (h : IssueAt kp2 r0 m0 j kiss c) :
    j = 0 ∧ kiss = 0 ∧ c.src = 0 ∧ c.dst = 1 := by
  match h with
  | ⟨pc, e⟩ =>
  cases j with
  | zero =>
    cases kiss with
    | zero =>
      have e' : KAct.issue 0 1 1 = KAct.issue c.src c.dst pc := e
      injection e' with e1 e2 _
      exact ⟨rfl, rfl, Eq.symm e1, Eq.symm e2⟩
    | succ k => cases k with
      | zero => exact KAct.noConfusion e
      | succ k => cases k with
        | zero => exact KAct.noConfusion e
        | succ k => cases k with
          | zero => exact KAct.noConfusion e
          | succ k => rw [kAct0_hi k] at e; exact KAct.noConfusion e
  | succ j => cases j with
    | zero =>
      cases kiss with
      | zero => exact KAct.noConfusion e
      | succ k => cases k with
        | zero => exact KAct.noConfusion e
        | succ k => rw [kAct1_hi k] at e; exact KAct.noConfusion e
    | succ j => exact False.elim (Nat.notLtZero j (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hj)))

/-- The copy is completed at thread 0's wait (position 2): it is outstanding only in epoch 0. -/
theorem kp2_outst {p : Nat} (h : Outst kp2 r0 m0 0 0 p) : bars (baseProg kp2) r0 m0 0 p = 0 := by
  cases Nat.ltOrGe p 3 with
  | inr hp =>
    exact False.elim (h.2 2 (by decide) hp (Or.inl ⟨0, 3, rfl, by decide⟩))
  | inl hp =>
    cases p with
    | zero => rfl
    | succ p => cases p with
      | zero => rfl
      | succ p => cases p with
        | zero => rfl
        | succ p => exact False.elim (Nat.notLtZero p (Nat.lt_of_succ_lt_succ
            (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hp))))

theorem kp2_noEpochRace : ¬EpochRace (baseProg kp2) 2 r0 m0 := by
  intro h
  match h with
  | ⟨i, j, ki, kj, hij, hi, hj, hc, _⟩ =>
    cases i with
    | zero => exact ((noMem0 ki).1 _).1 hc
    | succ i => cases i with
      | succ i => exact Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi))
      | zero =>
        cases j with
        | zero => exact ((noMem0 kj).1 _).2 hc
        | succ j => cases j with
          | zero => exact hij rfl
          | succ j => exact Nat.notLtZero j (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hj))

theorem kp2_noCpEpochRace : ¬CpEpochRace kp2 2 r0 m0 := by
  intro h
  match h with
  | ⟨j, kiss, p, c, i, k, hj, hi, hia, hout, hcc, _, hb2, _⟩ =>
    match kp2_issue hj hia with
    | ⟨ej, ek, _, ed⟩ =>
    rw [ej, ek] at hout
    rw [ej] at hb2
    rw [kp2_outst hout] at hb2
    cases i with
    | zero => exact (noMem0 k).2 c hcc
    | succ i => cases i with
      | succ i => exact Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi))
      | zero =>
        cases k with
        | zero => exact hcc
        | succ k =>
          rw [bars1_hi k] at hb2
          exact Nat.notSuccLeZero 0 hb2

theorem kp2_noCopyEpochRace : ¬CopyEpochRace kp2 2 r0 m0 := by
  intro h
  match h with
  | ⟨j, kiss, _, _, j', kiss', _, _, _, hj, hj', hne, hia, _, hia', _⟩ =>
    match kp2_issue hj hia, kp2_issue hj' hia' with
    | ⟨e1, e2, _⟩, ⟨e1', e2', _⟩ =>
      exact hne ⟨Eq.trans e1 (Eq.symm e1'), Eq.trans e2 (Eq.symm e2')⟩

/-- `kp2` is race free, now from the trace-level checks (`CpSem.Example.ex_raceFree` proved
it by an invariant written for this program). -/
theorem kp2_raceFree : CpRaceFree kp2 2 s0 :=
  cpRaceFree_of_epoch kp2 2 r0 m0 (fun _ _ _ _ => True) kp2_sync kp2_indep (fun _ => trivial)
    kp2_noEpochRace kp2_noCpEpochRace kp2_noCopyEpochRace

/-- And every schedule's final state is the executor's (`executor_sound_epoch`, `xreachB`). -/
theorem kp2_executor (t : KState Nat) (ht : KReach kp2 2 s0 t) (hf : KFinal 2 t) : KSame b9 t :=
  executor_sound_epoch kp2 2 r0 m0 (fun _ _ _ _ => True) kp2_sync kp2_indep (fun _ => trivial)
    kp2_noEpochRace kp2_noCpEpochRace kp2_noCopyEpochRace xreachB finalB ht hf

/-- `kpRacy`: thread 1's write of the source (position 0, epoch 0) while thread 0's copy
(issued at position 0, epoch 0) is outstanding: a `CpEpochRace`. -/
theorem kpRacy_race : CpEpochRace kpRacy 2 r0 m0 :=
  ⟨0, 0, 0, ⟨0, 1, 0⟩, 1, 0, by decide, by decide, ⟨1, rfl⟩,
    ⟨Nat.leRefl 0, fun kw h1 h2 => False.elim (Nat.notLtZero kw h2)⟩, Or.inr rfl,
    Nat.leRefl 0, Nat.leRefl 0, fun e => Nat.noConfusion e⟩

/-- `CpCheck.Finding.kpNoWait` (copy never waited for; the write of its destination after the
issue, before the `exit`): a `CpEpochRace` of the issuing thread itself. -/
theorem kpNoWait_race : CpEpochRace CpCheck.Finding.kpNoWait 1 r0 m0 :=
  ⟨0, 0, 1, ⟨0, 1, 0⟩, 0, 1, by decide, by decide, ⟨1, rfl⟩,
    ⟨Nat.zeroLe 1, fun kw h1 h2 => False.elim (Nat.notSuccLeSelf 0 (Nat.leTrans h1 (Nat.leOfLtSucc h2)))⟩,
    Or.inl rfl, Nat.leRefl 0, Nat.leRefl 0, fun _ => ⟨by decide, rfl⟩⟩

/-- `kpRacy` is reported by the vector clocks against the issue (`IssRace`; the hand-written
history `CpCheck.histRacy` is rejected by `epochRace`, `CpCheck.kpRacy_reported`). -/
theorem kpRacy_issRace : IssRace kpRacy 2 r0 m0 :=
  ⟨0, 0, ⟨0, 1, 0⟩, 1, 0, by decide, by decide, fun e => Nat.noConfusion e, ⟨1, rfl⟩,
    Or.inr rfl, rfl⟩

/-- `kpNoWait` is reported by the tags between the issue and the completion at the `exit`
(`TagRace`; the Rust since session 7: `Op::Exit` completes the copy, finds the destination no
longer `Pending`). -/
theorem kpNoWait_tagRace : TagRace CpCheck.Finding.kpNoWait 1 r0 m0 := by
  refine ⟨0, 0, 3, ⟨0, 1, 0⟩, 0, 1, by decide, by decide, ⟨1, rfl⟩, ⟨by decide, Or.inr rfl, ?_⟩,
    Or.inl rfl, Or.inr ⟨rfl, Or.inr ⟨rfl, by decide⟩⟩, Or.inr ⟨rfl, Or.inr ⟨rfl, by decide⟩⟩⟩
  intro kw h1 h2 hc
  cases kw with
  | zero => exact Nat.notLtZero 0 h1
  | succ kw => cases kw with
    | zero =>
      cases hc with
      | inl h => match h with | ⟨_, _, e, _⟩ => exact KAct.noConfusion e
      | inr e => exact Act.noConfusion (KAct.base.inj e)
    | succ kw => cases kw with
      | zero =>
        cases hc with
        | inl h => match h with | ⟨_, _, e, _⟩ => exact KAct.noConfusion e
        | inr e => exact Act.noConfusion (KAct.base.inj e)
      | succ kw => exact Nat.notLtZero kw (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ
          (Nat.lt_of_succ_lt_succ h2)))

/-! `kp2` through the executor's reports (`cpRaceFree_of_reports_all`). -/

theorem kp2_exits : Exits kp2 2 r0 m0 := by
  intro j hj
  cases j with
  | zero => exact ⟨0 + 4, kAct0_hi 0⟩
  | succ j => cases j with
    | zero => exact ⟨0 + 2, kAct1_hi 0⟩
    | succ j => exact False.elim (Nat.notLtZero j (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hj)))

theorem kp2_disjoint : Disjoint kp2 2 r0 m0 := by
  intro j kiss c j' kiss' d hj hj' hia hia' e
  match kp2_issue hj hia, kp2_issue hj' hia' with
  | ⟨_, _, _, e1⟩, ⟨_, _, e2, _⟩ =>
    rw [e1, e2] at e
    exact Nat.noConfusion e

theorem kp2_first {kf : Nat} (h : First kp2 r0 m0 0 0 kf) : bars (baseProg kp2) r0 m0 0 kf = 0 :=
  kp2_outst ⟨Nat.leOfLt h.1, h.2.2⟩

/-- Thread 1's only access conflicting with the copy is in epoch 1. -/
theorem kp2_t1 {k : Nat} {c : Cp} (hcc : CpConflict (soloAct (baseProg kp2) r0 m0 1 k) c) :
    bars (baseProg kp2) r0 m0 1 k = 1 := by
  cases k with
  | zero => exact False.elim hcc
  | succ k => exact bars1_hi k

theorem i_one {i : Nat} (hi : i < 2) (hne : i ≠ 0) : i = 1 := by
  cases i with
  | zero => exact False.elim (hne rfl)
  | succ i => cases i with
    | zero => rfl
    | succ i => exact False.elim (Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi)))

theorem kp2_noIssRace : ¬IssRace kp2 2 r0 m0 := by
  intro h
  match h with
  | ⟨j, kiss, c, i, k, hj, hi, hne, hia, hcc, hb⟩ =>
    match kp2_issue hj hia with
    | ⟨ej, ek, _, _⟩ =>
      rw [ej] at hne
      rw [ej, ek] at hb
      rw [i_one hi hne] at hcc hb
      rw [kp2_t1 hcc] at hb
      exact Nat.noConfusion hb

theorem kp2_noFinRace : ¬FinRace kp2 2 r0 m0 := by
  intro h
  match h with
  | ⟨j, kiss, kf, c, i, k, hj, hi, hne, hia, hfirst, hcc, hb⟩ =>
    match kp2_issue hj hia with
    | ⟨ej, ek, _, _⟩ =>
      rw [ej] at hne hb hfirst
      rw [ek] at hfirst
      rw [i_one hi hne] at hcc hb
      rw [kp2_t1 hcc, kp2_first hfirst] at hb
      exact Nat.noConfusion hb

theorem kp2_noTagRace : ¬TagRace kp2 2 r0 m0 := by
  intro h
  match h with
  | ⟨j, kiss, kf, c, i, k, hj, hi, hia, hfirst, hcc, _, hb2⟩ =>
    match kp2_issue hj hia with
    | ⟨ej, ek, _, _⟩ =>
      rw [ej, ek] at hfirst
      rw [ej] at hb2
      have h2 := before_bars kp2 r0 m0 hb2
      rw [kp2_first hfirst] at h2
      cases Nat.decEq i 0 with
      | isTrue e => rw [e] at hcc; exact (noMem0 k).2 c hcc
      | isFalse ne =>
        rw [i_one hi ne] at hcc h2
        rw [kp2_t1 hcc] at h2
        exact Nat.notSuccLeZero 0 h2

theorem kp2_noCopyTagRace : ¬CopyTagRace kp2 2 r0 m0 := by
  intro h
  match h with
  | ⟨j, kiss, _, _, j', kiss', _, hj, hj', hne, hia, _, hia', _⟩ =>
    match kp2_issue hj hia, kp2_issue hj' hia' with
    | ⟨e1, e2, _⟩, ⟨e1', e2', _⟩ =>
      exact hne ⟨Eq.trans e1 (Eq.symm e1'), Eq.trans e2 (Eq.symm e2')⟩

theorem kp2_noCopyClockRace : ¬CopyClockRace kp2 2 r0 m0 := by
  intro h
  match h with
  | ⟨j, kiss, _, _, j', kiss', _, hj, hj', hne, hia, _, hia', _⟩ =>
    match kp2_issue hj hia, kp2_issue hj' hia' with
    | ⟨e1, _, _⟩, ⟨e1', _, _⟩ => exact hne (Eq.trans e1 (Eq.symm e1'))

/-- `kp2` is race free from the executor's reports (none on its run). -/
theorem kp2_raceFree_reports : CpRaceFree kp2 2 s0 :=
  cpRaceFree_of_reports_all kp2 2 r0 m0 (fun _ _ _ _ => True) kp2_sync kp2_indep
    (fun _ => trivial) kp2_exits kp2_disjoint kp2_noEpochRace kp2_noIssRace kp2_noFinRace
    kp2_noTagRace kp2_noCopyTagRace kp2_noCopyClockRace

/-! `kp2` from the accepted hand-written history `CpCheck.histKp2` (`CpCheck.kp2_passes`). -/

theorem cpConf_of_evOf {t : Nat} {A : Act Nat} {x : CpCheck.XEv} (h : evOf t A = some x) :
    ∃ c, CpConflict A c := by
  cases A with
  | read a r pc => exact ⟨⟨a, a, 0⟩, rfl⟩
  | write a v pc => exact ⟨⟨a, a, 0⟩, Or.inl rfl⟩
  | atomAdd a v pc => exact ⟨⟨a, a, 0⟩, Or.inl rfl⟩
  | compute pc r => exact Option.noConfusion h
  | arrive b n w pc => exact Option.noConfusion h
  | exit => exact Option.noConfusion h

theorem kp2_first2 {kf : Nat} (h : First kp2 r0 m0 0 0 kf) : kf = 2 := by
  cases Nat.ltOrGe kf 3 with
  | inr hp => exact False.elim (h.2.2 2 (by decide) hp (Or.inl ⟨0, 3, rfl, by decide⟩))
  | inl hp =>
    cases kf with
    | zero => exact False.elim (Nat.ltIrrefl 0 h.1)
    | succ kf => cases kf with
      | zero =>
        cases h.2.1 with
        | inl h2 => match h2 with | ⟨_, _, e, _⟩ => exact KAct.noConfusion e
        | inr e => exact KAct.noConfusion e
      | succ kf => cases kf with
        | zero => rfl
        | succ kf => exact False.elim (Nat.notLtZero kf (Nat.lt_of_succ_lt_succ
            (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hp))))

theorem histKp2_accs : HasAccs kp2 2 r0 m0 CpCheck.histKp2 := by
  intro i k x hi ex
  cases i with
  | zero =>
    match cpConf_of_evOf ex with
    | ⟨c, hc⟩ => exact False.elim ((noMem0 k).2 c hc)
  | succ i => cases i with
    | succ i => exact False.elim (Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi)))
    | zero =>
      cases k with
      | zero => exact Option.noConfusion ex
      | succ k => cases k with
        | zero =>
          have ex' : some (CpCheck.XEv.rd 1 1) = some x := ex
          injection ex' with e
          rw [← e]
          exact Or.inr (Or.inr (Or.inl rfl))
        | succ k =>
          rw [soloAct_of 1 (k + 2) (kAct1_hi k)] at ex
          exact Option.noConfusion ex

theorem histKp2_iss : HasIss kp2 2 r0 m0 CpCheck.histKp2 := by
  intro j kiss c hj hia
  match kp2_issue hj hia with
  | ⟨ej, ek, es, ed⟩ =>
    rw [ej, ek, es, ed]
    exact Or.inl rfl

theorem histKp2_fin : HasFin kp2 2 r0 m0 CpCheck.histKp2 := by
  intro j kiss kf c hj hia hfirst
  match kp2_issue hj hia with
  | ⟨ej, ek, es, ed⟩ =>
    rw [ej, ek] at hfirst
    rw [ej, kp2_first2 hfirst, es, ed]
    exact Or.inr (Or.inl rfl)

/-- `kp2` is race free from the accepted history `CpCheck.histKp2` (the tag reports, which
`cpRaceFree_of_accepts` still takes as hypotheses, are shown absent by hand). -/
theorem kp2_raceFree_accepts : CpRaceFree kp2 2 s0 :=
  cpRaceFree_of_accepts kp2 2 r0 m0 (fun _ _ _ _ => True) kp2_sync kp2_indep (fun _ => trivial)
    kp2_exits kp2_disjoint CpCheck.histKp2 CpCheck.kp2_passes histKp2_accs histKp2_iss
    histKp2_fin kp2_noTagRace kp2_noCopyTagRace

/-- Every history with `kpRacy`'s events at their epochs is rejected by `CpCheck.accepts`
(not only the hand-written `CpCheck.histRacy`). -/
theorem kpRacy_rejected (h : List (Nat × CpCheck.XEv)) (hA : HasAccs kpRacy 2 r0 m0 h)
    (hI : HasIss kpRacy 2 r0 m0 h) (hF : HasFin kpRacy 2 r0 m0 h) : CpCheck.accepts h = false := by
  cases e : CpCheck.accepts h with
  | false => rfl
  | true => exact False.elim ((accepts_clocks kpRacy 2 r0 m0 h e hA hI hF).2.1 kpRacy_issRace)

end Ex

end CpLink
end Kcert
