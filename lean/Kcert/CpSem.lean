import Kcert.Semantics

/-!
# `cp.async` inside the interleaving semantics

Rust: `checker/src/exec/tensor_core.rs` (`cp_async_issue`, `cp_async_commit`,
`cp_async_wait`), `checker/src/exec/access.rs` (a read of `Val::Pending` is an
`UninitializedRead`; a store or atomic to an in-flight source granule is a `DataRace`).

An extension of `Kcert.Semantics` (`Sem`), built on top of it without changing it, as
`Kcert.Warp` is.  A thread's next action (`KAct`) is one of `Sem`'s actions (`KAct.base`),
`issue src dst pc` (PTX `cp.async`: one element from `src` to `dst`), `commit pc`
(`cp.async.commit_group`) or `wait n pc` (`cp.async.wait_group n`).  Issue, commit and wait
are performed through `Sem` as register steps (`Act.compute pc regs`: new `pc`, registers
unchanged), so every lemma of `Sem` applies to them; their own effect is on the copy records:

* `cps i k`: thread `i`'s copy in slot `k` (`some c`: issued and not yet performed; `none`:
  performed or never used); `nc i`: its next free slot; `cg i`: the number of groups thread
  `i` has committed.  An issue stores `some ⟨src, dst, cg i⟩` in slot `nc i` (the copy
  belongs to the open group, numbered `cg i`); a commit closes the group (`cg i + 1`).
* The copy itself is a SEPARATE step of the machine (`KLbl.eng i k`, the copy engine): any
  pending copy may perform at any moment: it reads `src` THEN and writes `dst`
  (`copyMem`).  This is the hardware's nondeterminism.
* `wait n` steps only when every copy of the thread in a group older than its `n` most recent
  committed groups has performed (`WaitOK`: no pending copy with `grp + n < cg i`).

Races with copies (`CpConflict`): a thread's plain read or write, or atomic addition, of a
pending copy's destination, or a thread's write or atomic addition to a pending copy's source.
Two pending copies conflict (`CopyConflict`) when one's destination is the other's source or
both have one destination.  `CpRaceFree`: in no reachable state do two running threads have
conflicting `Sem` actions (as `Sem.RaceFree`), a running thread's next action conflicts with a
pending copy, or two pending copies conflict.  The pending copies are those not yet performed;
since the engine may delay a copy until its wait, a conflict with a copy issued and not yet
waited for shows up in some reachable state where it has not performed.

* `kconfluence`: under `CpRaceFree` and `KBarriersFit` (`Sem.BarriersFit` for the `Sem`
  part), any two final states (`KFinal`: every thread exited, no copy pending) reachable from
  one state are the same, whatever the interleaving of threads and copy engine.
* `executor_representative`: the executor's strategy (`XStep`: each copy performs inside the
  wait that completes it, `drain`, reading its source then) is one schedule of `CpSem`
  (`xreach_reach`), so under the same hypotheses its final state is every schedule's.
* `src_stable`: under `CpRaceFree` a pending copy's source keeps its value, so the executor's
  read at the issue gives the value the copy reads whenever it performs.
* `Example`: two threads, a copy from global to shared, a wait, a barrier and a read of the
  destination; two copy timings (`reachA`, and the executor's `reachB`/`xreachB`) reach the
  same final state (`ex_same`); a variant writing the source violates `CpRaceFree`
  (`racy_not_free`).  The example is race free and its barriers fit (`ex_raceFree`, `ex_fit`,
  through the invariant `Inv`), so every final state of every schedule is schedule A's
  (`ex_every_final`) and the executor's (`ex_executor`).
-/

namespace Kcert
namespace CpSem

open Sem

/-- A copy: one element from `src` to `dst`, in group `grp` of its thread. -/
structure Cp where
  src : Nat
  dst : Nat
  grp : Nat

/-- A thread's next action: one of `Sem`'s, or `cp.async` issue, commit, wait. -/
inductive KAct (V : Type) where
  | base (A : Act V)
  | issue (src dst : Nat) (pc : Nat)
  | commit (pc : Nat)
  | wait (n : Nat) (pc : Nat)

def KProg (V : Type) : Type := Nat → Nat → (Nat → V) → KAct V

/-- `Sem`'s state, the copy slots, the next free slot and the committed groups, per thread. -/
structure KState (V : Type) where
  s : CState V
  cps : Nat → Nat → Option Cp
  nc : Nat → Nat
  cg : Nat → Nat

/-- A step: thread `i` does its next action, or the engine performs thread `i`'s copy in slot
`k`. -/
inductive KLbl where
  | thr (i : Nat)
  | eng (i k : Nat)

section Defs

variable {V : Type} [AccAdd V]

/-- The `Sem` action of a `KAct`: issue, commit and wait are register steps to their `pc`. -/
def baseOf (pc : Nat) (regs : Nat → V) : KAct V → Act V
  | KAct.base A => A
  | KAct.issue _ _ p => Act.compute p regs
  | KAct.commit p => Act.compute p regs
  | KAct.wait _ p => Act.compute p regs

def baseProg (kp : KProg V) : Prog V := fun i pc regs => baseOf pc regs (kp i pc regs)

def kact (kp : KProg V) (i : Nat) (st : KState V) : KAct V :=
  kp i (st.s.th i).pc (st.s.th i).regs

/-- A thread's copy slots after its action `A` (next free slot `n`, open group `g`). -/
def cpsT : KAct V → (Nat → Option Cp) → Nat → Nat → Nat → Option Cp
  | KAct.issue src dst _, c, n, g => upd c n (some ⟨src, dst, g⟩)
  | _, c, _, _ => c

def ncT : KAct V → Nat → Nat
  | KAct.issue _ _ _, n => n + 1
  | _, n => n

def cgT : KAct V → Nat → Nat
  | KAct.commit _, g => g + 1
  | _, g => g

/-- Thread `i` does its next action. -/
def tnext (kp : KProg V) (N i : Nat) (st : KState V) : KState V :=
  ⟨next (baseProg kp) N i st.s,
    upd st.cps i (cpsT (kact kp i st) (st.cps i) (st.nc i) (st.cg i)),
    upd st.nc i (ncT (kact kp i st) (st.nc i)),
    upd st.cg i (cgT (kact kp i st) (st.cg i))⟩

/-- The memory after a copy performs: `dst` gets the value at `src` now. -/
def copyMem : Option Cp → (Nat → V) → Nat → V
  | some c, m => upd m c.dst (m c.src)
  | none, m => m

/-- The engine performs thread `i`'s copy in slot `k`. -/
def enext (i k : Nat) (st : KState V) : KState V :=
  ⟨⟨st.s.th, copyMem (st.cps i k) st.s.mem, st.s.arr⟩,
    upd st.cps i (upd (st.cps i) k none), st.nc, st.cg⟩

/-- A wait of thread `i` may go on: if its next action is `wait n`, no copy of a group older
than its `n` most recent committed groups is pending. -/
def WaitOK (kp : KProg V) (i : Nat) (st : KState V) : Prop :=
  ∀ n pc, kact kp i st = KAct.wait n pc → ∀ k c, k < st.nc i → st.cps i k = some c →
    c.grp + n < st.cg i → False

def KSame (a b : KState V) : Prop :=
  Same a.s b.s ∧ (∀ i k, a.cps i k = b.cps i k) ∧ (∀ i, a.nc i = b.nc i) ∧ ∀ i, a.cg i = b.cg i

/-- The state after step `l`. -/
def lnext (kp : KProg V) (N : Nat) : KLbl → KState V → KState V
  | KLbl.thr i, a => tnext kp N i a
  | KLbl.eng i k, a => enext i k a

/-- Step `l` may happen in `a`: thread `i < N` runs (and, at a wait, `WaitOK`), or thread
`i`'s slot `k` holds a pending copy. -/
def Enabled (kp : KProg V) (N : Nat) : KLbl → KState V → Prop
  | KLbl.thr i, a => i < N ∧ (a.s.th i).status = Status.run ∧ WaitOK kp i a
  | KLbl.eng i k, a => i < N ∧ k < a.nc i ∧ ∃ c, a.cps i k = some c

/-- One labelled step. -/
def KStepL (kp : KProg V) (N : Nat) (l : KLbl) (a b : KState V) : Prop :=
  Enabled kp N l a ∧ KSame b (lnext kp N l a)

def KStep (kp : KProg V) (N : Nat) (a b : KState V) : Prop := ∃ l, KStepL kp N l a b

inductive KReach (kp : KProg V) (N : Nat) : KState V → KState V → Prop where
  | refl (s : KState V) : KReach kp N s s
  | step {s t u : KState V} : KStep kp N s t → KReach kp N t u → KReach kp N s u

/-- Every thread has exited and no copy is pending. -/
def KFinal (N : Nat) (a : KState V) : Prop :=
  Final N a.s ∧ ∀ i k, i < N → k < a.nc i → a.cps i k = none

/-- The launch: `Sem.init`, no copies, no groups. -/
def kinit (regs : Nat → Nat → V) (mem : Nat → V) : KState V :=
  ⟨init regs mem, fun _ _ => none, fun _ => 0, fun _ => 0⟩

/-- A thread's action conflicts with a pending copy `c`. -/
def CpConflict : Act V → Cp → Prop
  | Act.read a _ _, c => a = c.dst
  | Act.write a _ _, c => a = c.dst ∨ a = c.src
  | Act.atomAdd a _ _, c => a = c.dst ∨ a = c.src
  | _, _ => False

/-- Two pending copies conflict. -/
def CopyConflict (c d : Cp) : Prop := c.dst = d.src ∨ d.dst = c.src ∨ c.dst = d.dst

/-- Race freedom with copies. -/
def CpRaceFree (kp : KProg V) (N : Nat) (s0 : KState V) : Prop :=
  ∀ r, KReach kp N s0 r →
    (∀ i j, i ≠ j → i < N → j < N → (r.s.th i).status = Status.run →
      (r.s.th j).status = Status.run → ¬Conflict (act (baseProg kp) i r.s) (act (baseProg kp) j r.s)) ∧
    (∀ i j k c, i < N → (r.s.th i).status = Status.run → j < N → k < r.nc j →
      r.cps j k = some c → ¬CpConflict (act (baseProg kp) i r.s) c) ∧
    (∀ i k j l c d, i < N → j < N → k < r.nc i → l < r.nc j → ¬(i = j ∧ k = l) →
      r.cps i k = some c → r.cps j l = some d → ¬CopyConflict c d)

/-- `Sem.BarriersFit` for the `Sem` part. -/
def KBarriersFit (kp : KProg V) (N : Nat) (s0 : KState V) : Prop :=
  ∀ r, KReach kp N s0 r → ∀ i j, i ≠ j → i < N → j < N →
    (r.s.th i).status = Status.run → (r.s.th j).status = Status.run →
      BarFits N r.s (act (baseProg kp) i r.s) (act (baseProg kp) j r.s)

end Defs

section Basic

variable {V : Type} [AccAdd V]

theorem ksame_refl (a : KState V) : KSame a a :=
  ⟨same_refl a.s, fun _ _ => rfl, fun _ => rfl, fun _ => rfl⟩

theorem ksame_symm {a b : KState V} (h : KSame a b) : KSame b a :=
  ⟨same_symm h.1, fun i k => Eq.symm (h.2.1 i k), fun i => Eq.symm (h.2.2.1 i),
    fun i => Eq.symm (h.2.2.2 i)⟩

theorem ksame_trans {a b c : KState V} (h1 : KSame a b) (h2 : KSame b c) : KSame a c :=
  ⟨same_trans h1.1 h2.1, fun i k => Eq.trans (h1.2.1 i k) (h2.2.1 i k),
    fun i => Eq.trans (h1.2.2.1 i) (h2.2.2.1 i), fun i => Eq.trans (h1.2.2.2 i) (h2.2.2.2 i)⟩

theorem kact_congr (kp : KProg V) (i : Nat) {a b : KState V} (h : KSame a b) :
    kact kp i a = kact kp i b := by
  show kp i (a.s.th i).pc (a.s.th i).regs = kp i (b.s.th i).pc (b.s.th i).regs
  rw [h.1.1 i]

theorem upd_congr {α : Type} {f g : Nat → α} (h : ∀ k, f k = g k) (i : Nat) (x : α) (k : Nat) :
    upd f i x k = upd g i x k := by
  cases Nat.decEq k i with
  | isTrue hk => rw [hk, upd_same, upd_same]
  | isFalse hk => rw [upd_other _ _ hk, upd_other _ _ hk, h k]

theorem cpsT_congr (A : KAct V) {c c' : Nat → Option Cp} (h : ∀ k, c k = c' k) (n g k : Nat) :
    cpsT A c n g k = cpsT A c' n g k := by
  cases A with
  | base B => exact h k
  | issue src dst pc => exact upd_congr h n _ k
  | commit pc => exact h k
  | wait m pc => exact h k

theorem tnext_congr (kp : KProg V) (N i : Nat) {a b : KState V} (h : KSame a b) :
    KSame (tnext kp N i a) (tnext kp N i b) := by
  refine ⟨next_congr (baseProg kp) N i h.1, ?_, ?_, ?_⟩
  · intro x k
    show upd a.cps i (cpsT (kact kp i a) (a.cps i) (a.nc i) (a.cg i)) x k =
      upd b.cps i (cpsT (kact kp i b) (b.cps i) (b.nc i) (b.cg i)) x k
    rw [kact_congr kp i h, h.2.2.1 i, h.2.2.2 i]
    cases Nat.decEq x i with
    | isTrue hx => rw [hx, upd_same, upd_same]; exact cpsT_congr _ (h.2.1 i) _ _ k
    | isFalse hx => rw [upd_other _ _ hx, upd_other _ _ hx]; exact h.2.1 x k
  · intro x
    show upd a.nc i (ncT (kact kp i a) (a.nc i)) x = upd b.nc i (ncT (kact kp i b) (b.nc i)) x
    rw [kact_congr kp i h, h.2.2.1 i]
    exact upd_congr h.2.2.1 i _ x
  · intro x
    show upd a.cg i (cgT (kact kp i a) (a.cg i)) x = upd b.cg i (cgT (kact kp i b) (b.cg i)) x
    rw [kact_congr kp i h, h.2.2.2 i]
    exact upd_congr h.2.2.2 i _ x

theorem copyMem_congr (o : Option Cp) {m m' : Nat → V} (h : ∀ a, m a = m' a) (x : Nat) :
    copyMem o m x = copyMem o m' x := by
  cases o with
  | none => exact h x
  | some c =>
    show upd m c.dst (m c.src) x = upd m' c.dst (m' c.src) x
    rw [h c.src]
    exact upd_congr h _ _ x

theorem enext_congr (i k : Nat) {a b : KState V} (h : KSame a b) :
    KSame (enext i k a) (enext i k b) := by
  refine ⟨⟨h.1.1, ?_, h.1.2.2⟩, ?_, h.2.2.1, h.2.2.2⟩
  · intro x
    show copyMem (a.cps i k) a.s.mem x = copyMem (b.cps i k) b.s.mem x
    rw [h.2.1 i k]
    exact copyMem_congr _ h.1.2.1 x
  · intro x l
    show upd a.cps i (upd (a.cps i) k none) x l = upd b.cps i (upd (b.cps i) k none) x l
    cases Nat.decEq x i with
    | isTrue hx => rw [hx, upd_same, upd_same]; exact upd_congr (h.2.1 i) k none l
    | isFalse hx => rw [upd_other _ _ hx, upd_other _ _ hx]; exact h.2.1 x l

end Basic

section Steps

variable {V : Type} [AccAdd V]

theorem lnext_congr (kp : KProg V) (N : Nat) (l : KLbl) {a b : KState V} (h : KSame a b) :
    KSame (lnext kp N l a) (lnext kp N l b) := by
  cases l with
  | thr i => exact tnext_congr kp N i h
  | eng i k => exact enext_congr i k h

theorem waitOK_transfer (kp : KProg V) (i : Nat) {a b : KState V}
    (hk : kact kp i b = kact kp i a) (hc : ∀ k c, b.cps i k = some c → a.cps i k = some c)
    (hn : b.nc i = a.nc i) (hg : b.cg i = a.cg i) (h : WaitOK kp i a) : WaitOK kp i b := by
  intro n pc hw k c hlt hck hgr
  rw [hk] at hw
  rw [hn] at hlt
  rw [hg] at hgr
  exact h n pc hw k c hlt (hc k c hck) hgr

theorem enabled_congr (kp : KProg V) (N : Nat) (l : KLbl) {a b : KState V} (h : KSame a b)
    (he : Enabled kp N l a) : Enabled kp N l b := by
  cases l with
  | thr i =>
    refine ⟨he.1, ?_, ?_⟩
    · rw [← h.1.1 i]; exact he.2.1
    · exact waitOK_transfer kp i (kact_congr kp i (ksame_symm h))
        (fun k c e => by rw [h.2.1 i k]; exact e) (Eq.symm (h.2.2.1 i)) (Eq.symm (h.2.2.2 i))
        he.2.2
  | eng i k =>
    match he with
    | ⟨hi, hk, c, hc⟩ =>
      refine ⟨hi, ?_, c, ?_⟩
      · rw [← h.2.2.1 i]; exact hk
      · rw [← h.2.1 i k]; exact hc

theorem kstepL_left (kp : KProg V) (N : Nat) (l : KLbl) {a a' b : KState V} (h : KSame a a')
    (hs : KStepL kp N l a b) : KStepL kp N l a' b :=
  ⟨enabled_congr kp N l h hs.1, ksame_trans hs.2 (lnext_congr kp N l h)⟩

/-- The generic diamond: two steps that stay enabled after each other and whose results
commute. -/
theorem diamond_of (kp : KProg V) (N : Nat) {l1 l2 : KLbl} {r t1 t2 : KState V}
    (h1 : KStepL kp N l1 r t1) (h2 : KStepL kp N l2 r t2)
    (e1 : Enabled kp N l2 (lnext kp N l1 r)) (e2 : Enabled kp N l1 (lnext kp N l2 r))
    (hc : KSame (lnext kp N l2 (lnext kp N l1 r)) (lnext kp N l1 (lnext kp N l2 r))) :
    ∃ v, KStepL kp N l2 t1 v ∧ KStepL kp N l1 t2 v := by
  refine ⟨lnext kp N l2 t1, ⟨enabled_congr kp N l2 (ksame_symm h1.2) e1, ksame_refl _⟩,
    enabled_congr kp N l1 (ksame_symm h2.2) e2, ?_⟩
  exact ksame_trans (lnext_congr kp N l2 h1.2)
    (ksame_trans hc (lnext_congr kp N l1 (ksame_symm h2.2)))

end Steps
section Comm

variable {V : Type} [AccAdd V]

theorem upd_comm2 {α : Type} (f : Nat → α) {i j : Nat} (x y : α) (h : i ≠ j) (k : Nat) :
    upd (upd f i x) j y k = upd (upd f j y) i x k :=
  Eq.symm (upd_swap f x y h k)

theorem kact_tnext (kp : KProg V) (N i : Nat) (r : KState V) {j : Nat} (hji : j ≠ i)
    (hr : (r.s.th j).status = Status.run) : kact kp j (tnext kp N i r) = kact kp j r := by
  show kp j ((next (baseProg kp) N i r.s).th j).pc ((next (baseProg kp) N i r.s).th j).regs =
    kp j (r.s.th j).pc (r.s.th j).regs
  rw [next_th_run (baseProg kp) N i r.s hji hr]

theorem act_base_kact (kp : KProg V) (i : Nat) (r : KState V) :
    act (baseProg kp) i r.s = baseOf (r.s.th i).pc (r.s.th i).regs (kact kp i r) := rfl

/-- (A) Two thread steps of different running threads whose `Sem` actions neither conflict
nor misuse a barrier commute. -/
theorem tnext_comm (kp : KProg V) (N : Nat) (r : KState V) {i j : Nat} (hij : i ≠ j)
    (hi : i < N) (hj : j < N)
    (hri : (r.s.th i).status = Status.run) (hrj : (r.s.th j).status = Status.run)
    (hc : ¬Conflict (act (baseProg kp) i r.s) (act (baseProg kp) j r.s))
    (hb : BarFits N r.s (act (baseProg kp) i r.s) (act (baseProg kp) j r.s)) :
    KSame (tnext kp N j (tnext kp N i r)) (tnext kp N i (tnext kp N j r)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have ej : kact kp j (tnext kp N i r) = kact kp j r := kact_tnext kp N i r hji hrj
  have ei : kact kp i (tnext kp N j r) = kact kp i r := kact_tnext kp N j r hij hri
  refine ⟨next_comm_gen (baseProg kp) N r.s hij hi hj hri hrj hc hb, ?_, ?_, ?_⟩
  · intro x k
    show upd (upd r.cps i (cpsT (kact kp i r) (r.cps i) (r.nc i) (r.cg i))) j
        (cpsT (kact kp j (tnext kp N i r))
          (upd r.cps i (cpsT (kact kp i r) (r.cps i) (r.nc i) (r.cg i)) j)
          (upd r.nc i (ncT (kact kp i r) (r.nc i)) j) (upd r.cg i (cgT (kact kp i r) (r.cg i)) j)) x k =
      upd (upd r.cps j (cpsT (kact kp j r) (r.cps j) (r.nc j) (r.cg j))) i
        (cpsT (kact kp i (tnext kp N j r))
          (upd r.cps j (cpsT (kact kp j r) (r.cps j) (r.nc j) (r.cg j)) i)
          (upd r.nc j (ncT (kact kp j r) (r.nc j)) i) (upd r.cg j (cgT (kact kp j r) (r.cg j)) i)) x k
    rw [ej, ei, upd_other _ _ hji, upd_other _ _ hji, upd_other _ _ hji, upd_other _ _ hij,
      upd_other _ _ hij, upd_other _ _ hij, upd_comm2 _ _ _ hij x]
  · intro x
    show upd (upd r.nc i (ncT (kact kp i r) (r.nc i))) j
        (ncT (kact kp j (tnext kp N i r)) (upd r.nc i (ncT (kact kp i r) (r.nc i)) j)) x =
      upd (upd r.nc j (ncT (kact kp j r) (r.nc j))) i
        (ncT (kact kp i (tnext kp N j r)) (upd r.nc j (ncT (kact kp j r) (r.nc j)) i)) x
    rw [ej, ei, upd_other _ _ hji, upd_other _ _ hij, upd_comm2 _ _ _ hij x]
  · intro x
    show upd (upd r.cg i (cgT (kact kp i r) (r.cg i))) j
        (cgT (kact kp j (tnext kp N i r)) (upd r.cg i (cgT (kact kp i r) (r.cg i)) j)) x =
      upd (upd r.cg j (cgT (kact kp j r) (r.cg j))) i
        (cgT (kact kp i (tnext kp N j r)) (upd r.cg j (cgT (kact kp j r) (r.cg j)) i)) x
    rw [ej, ei, upd_other _ _ hji, upd_other _ _ hij, upd_comm2 _ _ _ hij x]

theorem tnext_enabled (kp : KProg V) (N : Nat) (r : KState V) {i j : Nat} (hij : i ≠ j)
    (hj : j < N) (hrj : (r.s.th j).status = Status.run) (hw : WaitOK kp j r) :
    Enabled kp N (KLbl.thr j) (tnext kp N i r) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  refine ⟨hj, ?_, ?_⟩
  · show ((next (baseProg kp) N i r.s).th j).status = Status.run
    rw [next_th_run (baseProg kp) N i r.s hji hrj]
    exact hrj
  · have hc : ∀ k c, (tnext kp N i r).cps j k = some c → r.cps j k = some c := by
      intro k c e
      have e' : upd r.cps i (cpsT (kact kp i r) (r.cps i) (r.nc i) (r.cg i)) j k = some c := e
      rw [upd_other _ _ hji] at e'
      exact e'
    exact waitOK_transfer kp j (kact_tnext kp N i r hji hrj) hc (upd_other _ _ hji)
      (upd_other _ _ hji) hw

end Comm

section CommEng

variable {V : Type} [AccAdd V]

theorem ne_of_lt' {k n : Nat} (h : k < n) : k ≠ n := fun e => Nat.ltIrrefl n (e ▸ h)

theorem memEff_copy (A : Act V) (c : Cp) (m : Nat → V) (h : ¬CpConflict A c) (x : Nat) :
    memEff A (copyMem (some c) m) x = copyMem (some c) (memEff A m) x := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | arrive b n w pc => rfl
  | exit => rfl
  | write a v pc =>
    have had : a ≠ c.dst := fun e => h (Or.inl e)
    have has : c.src ≠ a := fun e => h (Or.inr (Eq.symm e))
    show upd (upd m c.dst (m c.src)) a v x = upd (upd m a v) c.dst (upd m a v c.src) x
    rw [upd_other m v has]
    exact upd_swap m v (m c.src) had x
  | atomAdd a v pc =>
    have had : a ≠ c.dst := fun e => h (Or.inl e)
    have has : c.src ≠ a := fun e => h (Or.inr (Eq.symm e))
    show upd (upd m c.dst (m c.src)) a (AccAdd.add (upd m c.dst (m c.src) a) v) x =
      upd (upd m a (AccAdd.add (m a) v)) c.dst (upd m a (AccAdd.add (m a) v) c.src) x
    rw [upd_other m _ has, upd_other m _ had]
    exact upd_swap m _ (m c.src) had x

theorem newT_copy (A : Act V) (f : Bool) (t : TState V) (c : Cp) (m : Nat → V)
    (h : ¬CpConflict A c) : newT A f t (copyMem (some c) m) = newT A f t m := by
  cases A with
  | compute pc r => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | arrive b n w pc => rfl
  | exit => rfl
  | read a r pc =>
    show TState.mk pc (upd t.regs r (upd m c.dst (m c.src) a)) Status.run =
      TState.mk pc (upd t.regs r (m a)) Status.run
    rw [upd_other m _ (fun e => h e)]

theorem firesA_mem (N : Nat) (A : Act V) (s : CState V) (m : Nat → V) :
    firesA N A ⟨s.th, m, s.arr⟩ = firesA N A s := by
  cases A <;> rfl

/-- A `Sem` step that does not conflict with copy `c` commutes with it. -/
theorem next_copy (prog : Prog V) (N i : Nat) (s : CState V) (c : Cp)
    (h : ¬CpConflict (act prog i s) c) :
    Same ⟨(next prog N i s).th, copyMem (some c) (next prog N i s).mem, (next prog N i s).arr⟩
      (next prog N i ⟨s.th, copyMem (some c) s.mem, s.arr⟩) := by
  have ha : act prog i ⟨s.th, copyMem (some c) s.mem, s.arr⟩ = act prog i s := rfl
  have hf := firesA_mem N (act prog i s) s (copyMem (some c) s.mem)
  refine ⟨?_, ?_, ?_⟩
  · intro k
    show (next prog N i s).th k = (next prog N i ⟨s.th, copyMem (some c) s.mem, s.arr⟩).th k
    cases Nat.decEq k i with
    | isTrue hk =>
      rw [hk, next_th_self, next_th_self, ha, hf]
      exact Eq.symm (newT_copy _ _ _ c s.mem h)
    | isFalse hk =>
      rw [next_th_other prog N i s hk, next_th_other prog N i _ hk, ha, hf]
  · intro x
    show copyMem (some c) (memEff (act prog i s) s.mem) x =
      memEff (act prog i s) (copyMem (some c) s.mem) x
    exact Eq.symm (memEff_copy _ c s.mem h x)
  · intro x
    show arrEff (act prog i s) (firesA N (act prog i s) s) s.arr x =
      arrEff (act prog i ⟨s.th, copyMem (some c) s.mem, s.arr⟩)
        (firesA N (act prog i ⟨s.th, copyMem (some c) s.mem, s.arr⟩) ⟨s.th, copyMem (some c) s.mem, s.arr⟩) s.arr x
    rw [ha, hf]

theorem cpsT_other (A : KAct V) (c : Nat → Option Cp) {n k : Nat} (g : Nat) (h : k ≠ n) :
    cpsT A c n g k = c k := by
  cases A with
  | base B => rfl
  | issue src dst pc => exact upd_other c _ h
  | commit pc => rfl
  | wait m pc => rfl

theorem cpsT_upd (A : KAct V) (c : Nat → Option Cp) {n k : Nat} (g : Nat) (h : k ≠ n) (l : Nat) :
    upd (cpsT A c n g) k none l = cpsT A (upd c k none) n g l := by
  cases A with
  | base B => rfl
  | issue src dst pc => exact upd_swap c none _ h l
  | commit pc => rfl
  | wait m pc => rfl

theorem ncT_ge (A : KAct V) (n : Nat) : n ≤ ncT A n := by
  cases A with
  | base B => exact Nat.leRefl n
  | issue src dst pc => exact Nat.leSucc n
  | commit pc => exact Nat.leRefl n
  | wait m pc => exact Nat.leRefl n

theorem tnext_cps_keep (kp : KProg V) (N i : Nat) (r : KState V) {j k : Nat} {c : Cp}
    (hk : k < r.nc j) (hc : r.cps j k = some c) : (tnext kp N i r).cps j k = some c := by
  show upd r.cps i (cpsT (kact kp i r) (r.cps i) (r.nc i) (r.cg i)) j k = some c
  cases Nat.decEq j i with
  | isTrue e =>
    rw [e, upd_same]
    rw [e] at hk hc
    rw [cpsT_other _ _ _ (ne_of_lt' hk)]
    exact hc
  | isFalse e =>
    rw [upd_other _ _ e]
    exact hc

theorem tnext_nc_ge (kp : KProg V) (N i : Nat) (r : KState V) (j : Nat) :
    r.nc j ≤ (tnext kp N i r).nc j := by
  show r.nc j ≤ upd r.nc i (ncT (kact kp i r) (r.nc i)) j
  cases Nat.decEq j i with
  | isTrue e => rw [e, upd_same]; exact ncT_ge _ _
  | isFalse e => rw [upd_other _ _ e]; exact Nat.leRefl _

theorem enext_cps_sub (i k : Nat) (r : KState V) (j l : Nat) (c : Cp)
    (h : (enext i k r).cps j l = some c) : r.cps j l = some c := by
  have h' : upd r.cps i (upd (r.cps i) k none) j l = some c := h
  cases Nat.decEq j i with
  | isTrue e =>
    rw [e, upd_same] at h'
    rw [e]
    cases Nat.decEq l k with
    | isTrue e2 => rw [e2, upd_same] at h'; cases h'
    | isFalse e2 => rw [upd_other _ _ e2] at h'; exact h'
  | isFalse e =>
    rw [upd_other _ _ e] at h'
    exact h'

theorem enext_cps_keep (i k : Nat) (r : KState V) {j l : Nat} (h : ¬(i = j ∧ k = l)) :
    (enext i k r).cps j l = r.cps j l := by
  show upd r.cps i (upd (r.cps i) k none) j l = r.cps j l
  cases Nat.decEq j i with
  | isTrue e =>
    rw [e, upd_same]
    have hl : l ≠ k := fun e2 => h ⟨Eq.symm e, Eq.symm e2⟩
    rw [upd_other _ _ hl]
  | isFalse e => rw [upd_other _ _ e]

/-- (B) A thread step and a copy that do not conflict commute. -/
theorem tnext_enext (kp : KProg V) (N i j k : Nat) (r : KState V) {c : Cp}
    (hk : k < r.nc j) (hc : r.cps j k = some c)
    (hx : ¬CpConflict (act (baseProg kp) i r.s) c) :
    KSame (enext j k (tnext kp N i r)) (tnext kp N i (enext j k r)) := by
  have hc1 := tnext_cps_keep kp N i r hk hc
  refine ⟨?_, ?_, fun _ => rfl, fun _ => rfl⟩
  · have e1 : (enext j k (tnext kp N i r)).s = ⟨(next (baseProg kp) N i r.s).th,
        copyMem (some c) (next (baseProg kp) N i r.s).mem, (next (baseProg kp) N i r.s).arr⟩ := by
      show (⟨(next (baseProg kp) N i r.s).th,
        copyMem ((tnext kp N i r).cps j k) (next (baseProg kp) N i r.s).mem,
        (next (baseProg kp) N i r.s).arr⟩ : CState V) = _
      rw [hc1]
    have e2 : (tnext kp N i (enext j k r)).s =
        next (baseProg kp) N i ⟨r.s.th, copyMem (some c) r.s.mem, r.s.arr⟩ := by
      show next (baseProg kp) N i ⟨r.s.th, copyMem (r.cps j k) r.s.mem, r.s.arr⟩ = _
      rw [hc]
    rw [e1, e2]
    exact next_copy (baseProg kp) N i r.s c hx
  · intro x l
    show upd (upd r.cps i (cpsT (kact kp i r) (r.cps i) (r.nc i) (r.cg i))) j
        (upd (upd r.cps i (cpsT (kact kp i r) (r.cps i) (r.nc i) (r.cg i)) j) k none) x l =
      upd (upd r.cps j (upd (r.cps j) k none)) i
        (cpsT (kact kp i r) (upd r.cps j (upd (r.cps j) k none) i) (r.nc i) (r.cg i)) x l
    cases Nat.decEq i j with
    | isTrue e =>
      rw [← e] at hk ⊢
      rw [upd_same, upd_same, upd_upd, upd_upd]
      cases Nat.decEq x i with
      | isTrue ex =>
        rw [ex, upd_same, upd_same]
        exact cpsT_upd _ _ _ (ne_of_lt' hk) l
      | isFalse ex => rw [upd_other _ _ ex, upd_other _ _ ex]
    | isFalse e =>
      have e' : j ≠ i := fun h => e (Eq.symm h)
      rw [upd_other _ _ e', upd_other _ _ e, upd_comm2 _ _ _ e x]

theorem enext_enabled_thr (kp : KProg V) (N i j k : Nat) (r : KState V)
    (he : Enabled kp N (KLbl.thr i) r) : Enabled kp N (KLbl.thr i) (enext j k r) :=
  ⟨he.1, he.2.1, waitOK_transfer kp i (a := r) (b := enext j k r) rfl (fun l c h => enext_cps_sub j k r i l c h) rfl rfl he.2.2⟩

theorem tnext_enabled_eng (kp : KProg V) (N i j k : Nat) (r : KState V)
    (he : Enabled kp N (KLbl.eng j k) r) : Enabled kp N (KLbl.eng j k) (tnext kp N i r) :=
  match he with
  | ⟨hj, hk, c, hc⟩ =>
    ⟨hj, Nat.ltOfLtOfLe hk (tnext_nc_ge kp N i r j), c, tnext_cps_keep kp N i r hk hc⟩

/-- (C) Two copies that do not conflict commute. -/
theorem copyMem_comm (c d : Cp) (m : Nat → V) (h : ¬CopyConflict c d) (x : Nat) :
    copyMem (some d) (copyMem (some c) m) x = copyMem (some c) (copyMem (some d) m) x := by
  have h1 : d.src ≠ c.dst := fun e => h (Or.inl (Eq.symm e))
  have h2 : c.src ≠ d.dst := fun e => h (Or.inr (Or.inl (Eq.symm e)))
  have h3 : c.dst ≠ d.dst := fun e => h (Or.inr (Or.inr e))
  show upd (upd m c.dst (m c.src)) d.dst (upd m c.dst (m c.src) d.src) x =
    upd (upd m d.dst (m d.src)) c.dst (upd m d.dst (m d.src) c.src) x
  rw [upd_other m _ h1, upd_other m _ h2]
  exact upd_swap m (m d.src) (m c.src) (fun e => h3 (Eq.symm e)) x

theorem upd2_comm {α : Type} (f : Nat → Nat → α) {i k j l : Nat} (x y : α)
    (h : ¬(i = j ∧ k = l)) (a b : Nat) :
    upd (upd f i (upd (f i) k x)) j (upd (upd f i (upd (f i) k x) j) l y) a b =
      upd (upd f j (upd (f j) l y)) i (upd (upd f j (upd (f j) l y) i) k x) a b := by
  cases Nat.decEq i j with
  | isTrue e =>
    rw [← e] at h ⊢
    have hkl : k ≠ l := fun e2 => h ⟨rfl, e2⟩
    rw [upd_same, upd_same, upd_upd, upd_upd]
    cases Nat.decEq a i with
    | isTrue ea => rw [ea, upd_same, upd_same]; exact upd_swap (f i) y x (fun e => hkl (Eq.symm e)) b
    | isFalse ea => rw [upd_other _ _ ea, upd_other _ _ ea]
  | isFalse e =>
    have e' : j ≠ i := fun h => e (Eq.symm h)
    rw [upd_other _ _ e', upd_other _ _ e, upd_comm2 _ _ _ e a]

theorem enext_comm (i k j l : Nat) (r : KState V) {c d : Cp} (h : ¬(i = j ∧ k = l))
    (hc : r.cps i k = some c) (hd : r.cps j l = some d) (hx : ¬CopyConflict c d) :
    KSame (enext j l (enext i k r)) (enext i k (enext j l r)) := by
  have h' : ¬(j = i ∧ l = k) := fun e => h ⟨Eq.symm e.1, Eq.symm e.2⟩
  have e1 : (enext i k r).cps j l = some d := by rw [enext_cps_keep i k r h]; exact hd
  have e2 : (enext j l r).cps i k = some c := by rw [enext_cps_keep j l r h']; exact hc
  refine ⟨⟨fun _ => rfl, ?_, fun _ => rfl⟩, ?_, fun _ => rfl, fun _ => rfl⟩
  · intro x
    show copyMem ((enext i k r).cps j l) (copyMem (r.cps i k) r.s.mem) x =
      copyMem ((enext j l r).cps i k) (copyMem (r.cps j l) r.s.mem) x
    rw [e1, e2, hc, hd]
    exact copyMem_comm c d r.s.mem hx x
  · intro a b
    exact upd2_comm r.cps none none h a b

theorem enext_enabled_eng (i k j l : Nat) (kp : KProg V) (N : Nat) (r : KState V)
    (h : ¬(i = j ∧ k = l)) (he : Enabled kp N (KLbl.eng j l) r) :
    Enabled kp N (KLbl.eng j l) (enext i k r) :=
  match he with
  | ⟨hj, hl, d, hd⟩ => ⟨hj, hl, d, by rw [enext_cps_keep i k r h]; exact hd⟩

end CommEng

section Confluence

variable {V : Type} [AccAdd V]

/-- The local diamond at every state reachable from `s0`. -/
def KDiamond (kp : KProg V) (N : Nat) (s0 : KState V) : Prop :=
  ∀ r, KReach kp N s0 r → ∀ (l1 l2 : KLbl) (t1 t2 : KState V), KStepL kp N l1 r t1 →
    KStepL kp N l2 r t2 → KSame t1 t2 ∨ ∃ v, KStep kp N t1 v ∧ KStep kp N t2 v

theorem or_diamond (kp : KProg V) (N : Nat) {l1 l2 : KLbl} {t1 t2 : KState V}
    (h : ∃ v, KStepL kp N l2 t1 v ∧ KStepL kp N l1 t2 v) :
    KSame t1 t2 ∨ ∃ v, KStep kp N t1 v ∧ KStep kp N t2 v :=
  match h with
  | ⟨v, h1, h2⟩ => Or.inr ⟨v, ⟨l2, h1⟩, ⟨l1, h2⟩⟩

/-- Under `CpRaceFree` and `KBarriersFit`, the local diamond holds at every reachable state:
thread against thread (`tnext_comm`), thread against copy (`tnext_enext`), copy against copy
(`enext_comm`). -/
theorem kdiamond (kp : KProg V) (N : Nat) (s0 : KState V) (hrf : CpRaceFree kp N s0)
    (hfit : KBarriersFit kp N s0) : KDiamond kp N s0 := by
  intro r hr l1 l2 t1 t2 h1 h2
  have hR := hrf r hr
  cases l1 with
  | thr i =>
    cases l2 with
    | thr j =>
      cases Nat.decEq i j with
      | isTrue e =>
        rw [← e] at h2
        exact Or.inl (ksame_trans h1.2 (ksame_symm h2.2))
      | isFalse e =>
        have e' : j ≠ i := fun h => e (Eq.symm h)
        exact or_diamond kp N (diamond_of kp N h1 h2
          (tnext_enabled kp N r e h2.1.1 h2.1.2.1 h2.1.2.2)
          (tnext_enabled kp N r e' h1.1.1 h1.1.2.1 h1.1.2.2)
          (tnext_comm kp N r e h1.1.1 h2.1.1 h1.1.2.1 h2.1.2.1
            (hR.1 i j e h1.1.1 h2.1.1 h1.1.2.1 h2.1.2.1)
            (hfit r hr i j e h1.1.1 h2.1.1 h1.1.2.1 h2.1.2.1)))
    | eng j k =>
      match h2.1 with
      | ⟨hj, hk, c, hc⟩ =>
        exact or_diamond kp N (diamond_of kp N h1 h2
          (tnext_enabled_eng kp N i j k r h2.1) (enext_enabled_thr kp N i j k r h1.1)
          (tnext_enext kp N i j k r hk hc (hR.2.1 i j k c h1.1.1 h1.1.2.1 hj hk hc)))
  | eng i k =>
    cases l2 with
    | thr j =>
      match h1.1 with
      | ⟨hi, hk, c, hc⟩ =>
        exact or_diamond kp N (diamond_of kp N h1 h2
          (enext_enabled_thr kp N j i k r h2.1) (tnext_enabled_eng kp N j i k r h1.1)
          (ksame_symm (tnext_enext kp N j i k r hk hc (hR.2.1 j i k c h2.1.1 h2.1.2.1 hi hk hc))))
    | eng j l =>
      match h1.1, h2.1 with
      | ⟨hi, hk, c, hc⟩, ⟨hj, hl, d, hd⟩ =>
        have go : ¬(i = j ∧ k = l) → KSame t1 t2 ∨ ∃ v, KStep kp N t1 v ∧ KStep kp N t2 v :=
          fun hne =>
            have hne' : ¬(j = i ∧ l = k) := fun e => hne ⟨Eq.symm e.1, Eq.symm e.2⟩
            or_diamond kp N (diamond_of kp N h1 h2
              (enext_enabled_eng i k j l kp N r hne h2.1) (enext_enabled_eng j l i k kp N r hne' h1.1)
              (enext_comm i k j l r hne hc hd (hR.2.2 i k j l c d hi hj hk hl hne hc hd)))
        cases Nat.decEq i j with
        | isFalse e => exact go (fun h => e h.1)
        | isTrue e =>
          cases Nat.decEq k l with
          | isFalse e2 => exact go (fun h => e2 h.2)
          | isTrue e2 =>
            rw [← e, ← e2] at h2
            exact Or.inl (ksame_trans h1.2 (ksame_symm h2.2))

theorem kreach_trans (kp : KProg V) (N : Nat) {a b c : KState V} (hab : KReach kp N a b)
    (hbc : KReach kp N b c) : KReach kp N a c := by
  induction hab with
  | refl s => exact hbc
  | step hst _ ih => exact KReach.step hst (ih hbc)

theorem kreach_snoc (kp : KProg V) (N : Nat) {a b c : KState V} (hab : KReach kp N a b)
    (hbc : KStep kp N b c) : KReach kp N a c :=
  kreach_trans kp N hab (KReach.step hbc (KReach.refl c))

theorem kreach_left (kp : KProg V) (N : Nat) {s t u : KState V} (h : KSame s t)
    (hu : KReach kp N s u) : ∃ u', KReach kp N t u' ∧ KSame u u' := by
  cases hu with
  | refl => exact ⟨t, KReach.refl t, h⟩
  | step hst hr =>
    match hst with
    | ⟨l, hl⟩ => exact ⟨u, KReach.step ⟨l, kstepL_left kp N l h hl⟩ hr, ksame_refl u⟩

/-- A final state (every thread exited, no copy pending) does not step. -/
theorem kfinal_reach (kp : KProg V) (N : Nat) {t u : KState V} (hf : KFinal N t)
    (hr : KReach kp N t u) : KSame t u := by
  cases hr with
  | refl => exact ksame_refl t
  | step hst _ =>
    match hst with
    | ⟨KLbl.thr i, hi⟩ =>
      have h1 : (t.s.th i).status = Status.exited := hf.1 i hi.1.1
      have h2 : (t.s.th i).status = Status.run := hi.1.2.1
      rw [h1] at h2
      cases h2
    | ⟨KLbl.eng i k, hi⟩ =>
      match hi.1 with
      | ⟨hi', hk, c, hc⟩ =>
        rw [hf.2 i k hi' hk] at hc
        cases hc

theorem kstrip (kp : KProg V) (N : Nat) {s0 s t2 : KState V} (hD : KDiamond kp N s0)
    (hs : KReach kp N s t2) :
    ∀ t1, KReach kp N s0 s → KStep kp N s t1 →
      ∃ u, KReach kp N t1 u ∧ (KSame t2 u ∨ KStep kp N t2 u) := by
  induction hs with
  | refl s =>
    intro t1 _ h1
    exact ⟨t1, KReach.refl t1, Or.inr h1⟩
  | @step s s' t2 hss' hs't2 ih =>
    intro t1 h0 h1
    have hld : KSame t1 s' ∨ ∃ v, KStep kp N t1 v ∧ KStep kp N s' v :=
      match h1, hss' with
      | ⟨l1, hl1⟩, ⟨l2, hl2⟩ => hD s h0 l1 l2 t1 s' hl1 hl2
    cases hld with
    | inl e =>
      match kreach_left kp N (ksame_symm e) hs't2 with
      | ⟨u, hu, hsu⟩ => exact ⟨u, hu, Or.inl hsu⟩
    | inr ex =>
      match ex with
      | ⟨v, hv1, hv2⟩ =>
        match ih v (kreach_snoc kp N h0 hss') hv2 with
        | ⟨u, hu, hor⟩ => exact ⟨u, KReach.step hv1 hu, hor⟩

theorem kconfluent (kp : KProg V) (N : Nat) {s0 s t1 : KState V} (hD : KDiamond kp N s0)
    (h1 : KReach kp N s t1) :
    ∀ t2, KReach kp N s0 s → KReach kp N s t2 →
      ∃ u1 u2, KReach kp N t1 u1 ∧ KReach kp N t2 u2 ∧ KSame u1 u2 := by
  induction h1 with
  | refl s =>
    intro t2 _ h2
    exact ⟨t2, t2, h2, KReach.refl t2, ksame_refl t2⟩
  | @step s s' t1 hss' hs't1 ih =>
    intro t2 h0 h2
    match kstrip kp N hD h2 s' h0 hss' with
    | ⟨w, hw, hor⟩ =>
      match ih w (kreach_snoc kp N h0 hss') hw with
      | ⟨u1, u2, hu1, hu2, e⟩ =>
        cases hor with
        | inr hst => exact ⟨u1, u2, hu1, KReach.step hst hu2, e⟩
        | inl e2 =>
          match kreach_left kp N (ksame_symm e2) hu2 with
          | ⟨u3, hu3, e3⟩ => exact ⟨u1, u3, hu1, hu3, ksame_trans e e3⟩

/-- Confluence with `cp.async`: if no reachable state has a race between threads, between a
thread and a pending copy, or between two pending copies (`CpRaceFree`), and barriers fit
(`KBarriersFit`), any two complete executions from `s0` (every thread exited, no copy pending)
end in the same state, whatever the interleaving of the threads and of the copy engine, in
particular the same memory. -/
theorem kconfluence (kp : KProg V) (N : Nat) {s0 t1 t2 : KState V}
    (hrf : CpRaceFree kp N s0) (hfit : KBarriersFit kp N s0)
    (h1 : KReach kp N s0 t1) (h2 : KReach kp N s0 t2) (f1 : KFinal N t1) (f2 : KFinal N t2) :
    KSame t1 t2 := by
  match kconfluent kp N (kdiamond kp N s0 hrf hfit) h1 t2 (KReach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    exact ksame_trans (kfinal_reach kp N f1 hu1)
      (ksame_trans e (ksame_symm (kfinal_reach kp N f2 hu2)))

end Confluence

section Executor

variable {V : Type} [AccAdd V]

/-- Whether a slot holds a pending copy of a group older than the `n` most recent of `g`
committed groups. -/
def ready (n g : Nat) : Option Cp → Bool
  | some c => decide (c.grp + n < g)
  | none => false

/-- The executor's `cp_async_wait` for thread `i` at `wait n`: the copies of the groups it
waits for perform now, in slot (issue) order, each reading its source now.  `drain i n st m`
has done so for the slots below `m`. -/
def drain (i n : Nat) (st : KState V) : Nat → KState V
  | 0 => st
  | k + 1 => cond (ready n (st.cg i) ((drain i n st k).cps i k)) (enext i k (drain i n st k))
      (drain i n st k)

theorem drain_keep (i n : Nat) (st : KState V) (m : Nat) :
    (∀ x, (drain i n st m).s.th x = st.s.th x) ∧ (∀ x, (drain i n st m).nc x = st.nc x) ∧
      ∀ x, (drain i n st m).cg x = st.cg x := by
  induction m with
  | zero => exact ⟨fun _ => rfl, fun _ => rfl, fun _ => rfl⟩
  | succ m ih =>
    show (∀ x, (cond (ready n (st.cg i) ((drain i n st m).cps i m)) (enext i m (drain i n st m))
        (drain i n st m)).s.th x = st.s.th x) ∧
      (∀ x, (cond (ready n (st.cg i) ((drain i n st m).cps i m)) (enext i m (drain i n st m))
        (drain i n st m)).nc x = st.nc x) ∧
      ∀ x, (cond (ready n (st.cg i) ((drain i n st m).cps i m)) (enext i m (drain i n st m))
        (drain i n st m)).cg x = st.cg x
    cases ready n (st.cg i) ((drain i n st m).cps i m) with
    | true => exact ih
    | false => exact ih

/-- The executor's wait is a sequence of engine steps of `CpSem`. -/
theorem drain_reach (kp : KProg V) (N i n : Nat) (st : KState V) (hi : i < N) :
    ∀ m, m ≤ st.nc i → KReach kp N st (drain i n st m) := by
  intro m
  induction m with
  | zero => intro _; exact KReach.refl st
  | succ m ih =>
    intro hm
    have hr := ih (Nat.leOfLt hm)
    show KReach kp N st (cond (ready n (st.cg i) ((drain i n st m).cps i m))
      (enext i m (drain i n st m)) (drain i n st m))
    cases hrd : ready n (st.cg i) ((drain i n st m).cps i m) with
    | false => exact hr
    | true =>
      have hc : ∃ c, (drain i n st m).cps i m = some c := by
        cases ho : (drain i n st m).cps i m with
        | some c => exact ⟨c, rfl⟩
        | none => rw [ho] at hrd; cases hrd
      have hlt : m < (drain i n st m).nc i := by
        rw [(drain_keep i n st m).2.1 i]; exact hm
      exact kreach_snoc kp N hr ⟨KLbl.eng i m, ⟨hi, hlt, hc⟩, ksame_refl _⟩

/-- After the executor's wait, no copy the wait waits for is pending. -/
theorem drain_done (i n : Nat) (st : KState V) :
    ∀ m k c, k < m → (drain i n st m).cps i k = some c → c.grp + n < st.cg i → False := by
  intro m
  induction m with
  | zero => intro k c hk; exact False.elim (Nat.notLtZero k hk)
  | succ m ih =>
    intro k c hk hc hg
    have hc' : (cond (ready n (st.cg i) ((drain i n st m).cps i m)) (enext i m (drain i n st m))
        (drain i n st m)).cps i k = some c := hc
    cases Nat.decEq k m with
    | isTrue e =>
      rw [e] at hc'
      cases hrd : ready n (st.cg i) ((drain i n st m).cps i m) with
      | true =>
        rw [hrd] at hc'
        have h2 : upd (drain i n st m).cps i (upd ((drain i n st m).cps i) m none) i m = some c :=
          hc'
        rw [upd_same, upd_same] at h2
        cases h2
      | false =>
        rw [hrd] at hc'
        have hc2 : (drain i n st m).cps i m = some c := hc'
        rw [hc2] at hrd
        have h3 : decide (c.grp + n < st.cg i) = false := hrd
        exact of_decide_eq_false' h3 hg
    | isFalse e =>
      have hkm : k < m := Nat.ltOfLeOfNe (Nat.leOfLtSucc hk) e
      cases hrd : ready n (st.cg i) ((drain i n st m).cps i m) with
      | true =>
        rw [hrd] at hc'
        have hc2 : (enext i m (drain i n st m)).cps i k = some c := hc'
        have hne : ¬(i = i ∧ m = k) := fun h => e (Eq.symm h.2)
        rw [enext_cps_keep i m (drain i n st m) hne] at hc2
        exact ih k c hkm hc2 hg
      | false =>
        rw [hrd] at hc'
        have hc2 : (drain i n st m).cps i k = some c := hc'
        exact ih k c hkm hc2 hg

/-- The executor's step (Rust `run_cta` with `cp_async_issue`, `cp_async_commit`,
`cp_async_wait`): a running thread does its next action; at `wait n` it first performs the
copies it waits for (`drain`), each reading its source then, and goes on.  No copy performs at
any other moment. -/
def XStep (kp : KProg V) (N : Nat) (a b : KState V) : Prop :=
  ∃ i, i < N ∧ (a.s.th i).status = Status.run ∧
    (((∀ n pc, kact kp i a = KAct.wait n pc → False) ∧ KSame b (tnext kp N i a)) ∨
      ∃ n pc, kact kp i a = KAct.wait n pc ∧ KSame b (tnext kp N i (drain i n a (a.nc i))))

inductive XReach (kp : KProg V) (N : Nat) : KState V → KState V → Prop where
  | refl (s : KState V) : XReach kp N s s
  | step {s t u : KState V} : XStep kp N s t → XReach kp N t u → XReach kp N s u

/-- Every executor step is a schedule of `CpSem`: engine steps, then a thread step. -/
theorem xstep_reach (kp : KProg V) (N : Nat) {a b : KState V} (h : XStep kp N a b) :
    KReach kp N a b := by
  match h with
  | ⟨i, hi, hr, Or.inl ⟨hnw, hb⟩⟩ =>
    have hw : WaitOK kp i a := fun n pc e _ _ _ _ _ => hnw n pc e
    exact KReach.step ⟨KLbl.thr i, ⟨hi, hr, hw⟩, hb⟩ (KReach.refl b)
  | ⟨i, hi, hr, Or.inr ⟨n, pc, hk, hb⟩⟩ =>
    have hd := drain_keep i n a (a.nc i)
    have hkd : kact kp i (drain i n a (a.nc i)) = kact kp i a := by
      show kp i _ _ = kp i _ _
      rw [hd.1 i]
    have hw : WaitOK kp i (drain i n a (a.nc i)) := by
      intro n' pc' e k c hlt hc hg
      rw [hkd, hk] at e
      injection e with e1 e2
      rw [hd.2.1 i] at hlt
      rw [hd.2.2 i, ← e1] at hg
      exact drain_done i n a (a.nc i) k c hlt hc hg
    have hr' : ((drain i n a (a.nc i)).s.th i).status = Status.run := by rw [hd.1 i]; exact hr
    exact kreach_snoc kp N (drain_reach kp N i n a hi (a.nc i) (Nat.leRefl _))
      ⟨KLbl.thr i, ⟨hi, hr', hw⟩, hb⟩

theorem xreach_reach (kp : KProg V) (N : Nat) {a b : KState V} (h : XReach kp N a b) :
    KReach kp N a b := by
  induction h with
  | refl s => exact KReach.refl s
  | step hst _ ih => exact kreach_trans kp N (xstep_reach kp N hst) ih

/-- The executor's strategy is representative: under `CpRaceFree` and `KBarriersFit`, the final
state of the executor's run (each copy performed at its wait, reading its source then) is the
final state of every schedule of `CpSem` (every interleaving of threads and copy engine). -/
theorem executor_representative (kp : KProg V) (N : Nat) {s0 t1 t2 : KState V}
    (hrf : CpRaceFree kp N s0) (hfit : KBarriersFit kp N s0)
    (h1 : XReach kp N s0 t1) (f1 : KFinal N t1) (h2 : KReach kp N s0 t2) (f2 : KFinal N t2) :
    KSame t1 t2 :=
  kconfluence kp N hrf hfit (xreach_reach kp N h1) h2 f1 f2

end Executor

section Source

variable {V : Type} [AccAdd V]

theorem kstep_nc (kp : KProg V) (N : Nat) {l : KLbl} {r t : KState V} (h : KStepL kp N l r t)
    (j : Nat) : r.nc j ≤ t.nc j := by
  rw [h.2.2.2.1 j]
  cases l with
  | thr i => exact tnext_nc_ge kp N i r j
  | eng i k => exact Nat.leRefl _

/-- A slot below `nc` holds after a step only a copy it held before (slots only lose copies). -/
theorem kstep_back (kp : KProg V) (N : Nat) {l : KLbl} {r t : KState V} (h : KStepL kp N l r t)
    {j k : Nat} {c : Cp} (hk : k < r.nc j) (ht : t.cps j k = some c) : r.cps j k = some c := by
  rw [h.2.2.1 j k] at ht
  cases l with
  | thr i =>
    have ht' : upd r.cps i (cpsT (kact kp i r) (r.cps i) (r.nc i) (r.cg i)) j k = some c := ht
    cases Nat.decEq j i with
    | isTrue e =>
      rw [e, upd_same] at ht'
      rw [e] at hk ⊢
      rw [cpsT_other _ _ _ (ne_of_lt' hk)] at ht'
      exact ht'
    | isFalse e =>
      rw [upd_other _ _ e] at ht'
      exact ht'
  | eng i l => exact enext_cps_sub i l r j k c ht

theorem kreach_back (kp : KProg V) (N : Nat) {r u : KState V} (h : KReach kp N r u) {j k : Nat}
    {c : Cp} : k < r.nc j → u.cps j k = some c → r.cps j k = some c := by
  induction h with
  | refl s => intro _ hu; exact hu
  | step hst _ ih =>
    intro hk hu
    match hst with
    | ⟨l, hl⟩ =>
      exact kstep_back kp N hl hk (ih (Nat.ltOfLtOfLe hk (kstep_nc kp N hl j)) hu)

theorem memEff_src (A : Act V) (c : Cp) (m : Nat → V) (h : ¬CpConflict A c) :
    memEff A m c.src = m c.src := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | arrive b n w pc => rfl
  | exit => rfl
  | write a v pc => exact upd_other m v (fun e => h (Or.inr (Eq.symm e)))
  | atomAdd a v pc => exact upd_other m _ (fun e => h (Or.inr (Eq.symm e)))

/-- One step from a reachable state leaves the source of a copy pending before and after it. -/
theorem kstep_src (kp : KProg V) (N : Nat) {s0 r t : KState V} (hrf : CpRaceFree kp N s0)
    (hr : KReach kp N s0 r) {l : KLbl} (h : KStepL kp N l r t) {j k : Nat} {c : Cp}
    (hj : j < N) (hk : k < r.nc j) (hc : r.cps j k = some c) (ht : t.cps j k = some c) :
    t.s.mem c.src = r.s.mem c.src := by
  have hR := hrf r hr
  rw [h.2.1.2.1 c.src]
  cases l with
  | thr i =>
    exact memEff_src _ c r.s.mem (hR.2.1 i j k c h.1.1 h.1.2.1 hj hk hc)
  | eng i l =>
    match h.1 with
    | ⟨hi, hl, d, hd⟩ =>
      have go : ¬(i = j ∧ l = k) → copyMem (r.cps i l) r.s.mem c.src = r.s.mem c.src := by
        intro hne
        rw [hd]
        have hx := hR.2.2 i l j k d c hi hj hl hk hne hd hc
        exact upd_other r.s.mem _ (fun e => hx (Or.inl (Eq.symm e)))
      have same : (i = j ∧ l = k) → False := by
        intro e
        rw [h.2.2.1 j k] at ht
        have ht' : upd r.cps i (upd (r.cps i) l none) j k = some c := ht
        rw [← e.1, ← e.2, upd_same, upd_same] at ht'
        cases ht'
      exact go same

/-- While a copy is pending, its source keeps its value (under `CpRaceFree`): the value the
executor reads at the issue (`cp_async_issue`) is the value the copy reads whenever it
performs, and the value at the wait. -/
theorem src_stable (kp : KProg V) (N : Nat) {s0 r u : KState V} (hrf : CpRaceFree kp N s0)
    (hpath : KReach kp N r u) : KReach kp N s0 r → ∀ {j k : Nat} {c : Cp}, j < N → k < r.nc j →
    r.cps j k = some c → u.cps j k = some c → u.s.mem c.src = r.s.mem c.src := by
  induction hpath with
  | refl s => intro _ j k c _ _ _ _; rfl
  | @step r t u hst htu ih =>
    intro hr j k c hj hk hc hu
    match hst with
    | ⟨l, hl⟩ =>
      have hk' : k < t.nc j := Nat.ltOfLtOfLe hk (kstep_nc kp N hl j)
      have hct : t.cps j k = some c := kreach_back kp N htu hk' hu
      rw [ih (kreach_snoc kp N hr ⟨l, hl⟩) hj hk' hct hu]
      exact kstep_src kp N hrf hr hl hj hk hc hct

end Source

namespace Example

instance accAddNat : AccAdd Nat := ⟨Nat.add, Nat.add_comm, Nat.add_assoc⟩

/-- Thread 0: `cp.async` from global address 0 to shared address 1, commit, `wait_group 0`,
`bar.sync 0, 2`, exit.  Thread 1: `bar.sync 0, 2`, reads shared address 1 into register 0,
exit. -/
def kp2 : KProg Nat := fun i pc regs =>
  match i, pc with
  | 0, 0 => KAct.issue 0 1 1
  | 0, 1 => KAct.commit 2
  | 0, 2 => KAct.wait 0 3
  | 0, 3 => KAct.base (Act.arrive 0 2 true 4)
  | 1, 0 => KAct.base (Act.arrive 0 2 true 1)
  | 1, 1 => KAct.base (Act.read 1 0 2)
  | _, _ => KAct.base Act.exit

/-- The racy variant: thread 1 writes 5 to the copy's source (global address 0), then exits. -/
def kpRacy : KProg Nat := fun i pc regs =>
  match i, pc with
  | 0, 0 => KAct.issue 0 1 1
  | 0, 1 => KAct.commit 2
  | 0, 2 => KAct.wait 0 3
  | 1, 0 => KAct.base (Act.write 0 5 1)
  | _, _ => KAct.base Act.exit

/-- Global address 0 holds 7, everything else 0. -/
def m0 : Nat → Nat := fun a => if a = 0 then 7 else 0

def s0 : KState Nat := kinit (fun _ _ => 0) m0

theorem kstep_thr (kp : KProg Nat) (N i : Nat) (a : KState Nat) (hi : i < N)
    (hr : (a.s.th i).status = Status.run) (hw : WaitOK kp i a) : KStep kp N a (tnext kp N i a) :=
  ⟨KLbl.thr i, ⟨hi, hr, hw⟩, ksame_refl _⟩

theorem kstep_eng (kp : KProg Nat) (N i k : Nat) (a : KState Nat) (c : Cp) (hi : i < N)
    (hk : k < a.nc i) (hc : a.cps i k = some c) : KStep kp N a (enext i k a) :=
  ⟨KLbl.eng i k, ⟨hi, hk, c, hc⟩, ksame_refl _⟩

theorem waitOK_slot0 (kp : KProg Nat) (i : Nat) (a : KState Nat) (h1 : a.nc i = 1)
    (h0 : a.cps i 0 = none) : WaitOK kp i a := by
  intro n pc _ k c hk hc _
  rw [h1] at hk
  cases k with
  | zero => rw [h0] at hc; cases hc
  | succ k => exact Nat.notLtZero k (Nat.lt_of_succ_lt_succ hk)

-- Schedule A: the copy performs right after the issue.
def a1 := tnext kp2 2 0 s0
def a2 := enext 0 0 a1
def a3 := tnext kp2 2 0 a2
def a4 := tnext kp2 2 0 a3
def a5 := tnext kp2 2 0 a4
def a6 := tnext kp2 2 1 a5
def a7 := tnext kp2 2 1 a6
def a8 := tnext kp2 2 0 a7
def a9 := tnext kp2 2 1 a8

-- Schedule B (the executor's): thread 1 arrives first; the copy performs at the wait.
def b1 := tnext kp2 2 1 s0
def b2 := tnext kp2 2 0 b1
def b3 := tnext kp2 2 0 b2
def b4 := enext 0 0 b3
def b5 := tnext kp2 2 0 b4
def b6 := tnext kp2 2 0 b5
def b7 := tnext kp2 2 1 b6
def b8 := tnext kp2 2 0 b7
def b9 := tnext kp2 2 1 b8

theorem reachA : KReach kp2 2 s0 a9 := by
  refine KReach.step (kstep_thr kp2 2 0 s0 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_eng kp2 2 0 0 a1 ⟨0, 1, 0⟩ (by decide) (by decide) rfl) ?_
  refine KReach.step (kstep_thr kp2 2 0 a2 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 0 a3 (by decide) rfl (waitOK_slot0 kp2 0 a3 rfl rfl)) ?_
  refine KReach.step (kstep_thr kp2 2 0 a4 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 1 a5 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 1 a6 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 0 a7 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 1 a8 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  exact KReach.refl a9

theorem reachB : KReach kp2 2 s0 b9 := by
  refine KReach.step (kstep_thr kp2 2 1 s0 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 0 b1 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 0 b2 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_eng kp2 2 0 0 b3 ⟨0, 1, 0⟩ (by decide) (by decide) rfl) ?_
  refine KReach.step (kstep_thr kp2 2 0 b4 (by decide) rfl (waitOK_slot0 kp2 0 b4 rfl rfl)) ?_
  refine KReach.step (kstep_thr kp2 2 0 b5 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 1 b6 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 0 b7 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine KReach.step (kstep_thr kp2 2 1 b8 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  exact KReach.refl b9

/-- Both schedules end with thread 1's register 0 and shared address 1 holding 7, the value of
the source. -/
theorem ex_values : (a9.s.th 1).regs 0 = 7 ∧ a9.s.mem 1 = 7 ∧ (b9.s.th 1).regs 0 = 7 ∧
    b9.s.mem 1 = 7 := ⟨rfl, rfl, rfl, rfl⟩

theorem final_of (a : KState Nat) (h0 : (a.s.th 0).status = Status.exited)
    (h1 : (a.s.th 1).status = Status.exited) (hc : a.cps 0 0 = none) (hn0 : a.nc 0 = 1)
    (hn1 : a.nc 1 = 0) : KFinal 2 a := by
  refine ⟨?_, ?_⟩
  · intro k hk
    cases k with
    | zero => exact h0
    | succ k =>
      cases k with
      | zero => exact h1
      | succ k => exact False.elim (Nat.notLtZero k (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hk)))
  · intro i k hi hk
    cases i with
    | zero =>
      rw [hn0] at hk
      cases k with
      | zero => exact hc
      | succ k => exact False.elim (Nat.notLtZero k (Nat.lt_of_succ_lt_succ hk))
    | succ i =>
      cases i with
      | zero => rw [hn1] at hk; exact False.elim (Nat.notLtZero k hk)
      | succ i => exact False.elim (Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi)))

theorem finalA : KFinal 2 a9 := final_of a9 rfl rfl rfl rfl rfl
theorem finalB : KFinal 2 b9 := final_of b9 rfl rfl rfl rfl rfl

/-- The final thread states of both schedules. -/
def thF (k : Nat) : TState Nat :=
  match k with
  | 0 => ⟨4, fun _ => 0, Status.exited⟩
  | 1 => ⟨2, upd (fun _ => 0) 0 7, Status.exited⟩
  | _ => ⟨0, fun _ => 0, Status.run⟩

/-- The final memory of both schedules: the copy's value 7 at shared address 1. -/
def memF : Nat → Nat := upd m0 1 7

theorem thA (k : Nat) : a9.s.th k = thF k := by
  cases k with
  | zero => rfl
  | succ k => cases k with
    | zero => rfl
    | succ k => rfl

theorem thB (k : Nat) : b9.s.th k = thF k := by
  cases k with
  | zero => rfl
  | succ k => cases k with
    | zero => rfl
    | succ k => rfl

theorem memA (a : Nat) : a9.s.mem a = memF a := by
  cases a with
  | zero => rfl
  | succ a => cases a with
    | zero => rfl
    | succ a => rfl

theorem memB (a : Nat) : b9.s.mem a = memF a := by
  cases a with
  | zero => rfl
  | succ a => cases a with
    | zero => rfl
    | succ a => rfl

theorem arrA (b : Nat) : a9.s.arr b = 0 := by
  cases b with
  | zero => rfl
  | succ b => rfl

theorem arrB (b : Nat) : b9.s.arr b = 0 := by
  cases b with
  | zero => rfl
  | succ b => rfl

theorem cpsA (i k : Nat) : a9.cps i k = none := by
  cases i with
  | zero => cases k with
    | zero => rfl
    | succ k => rfl
  | succ i => cases i with
    | zero => rfl
    | succ i => rfl

theorem ncA (i : Nat) : a9.nc i = upd (fun _ => 0) 0 1 i := by
  cases i with
  | zero => rfl
  | succ i => cases i with
    | zero => rfl
    | succ i => rfl

theorem cgA (i : Nat) : a9.cg i = upd (fun _ => 0) 0 1 i := by
  cases i with
  | zero => rfl
  | succ i => cases i with
    | zero => rfl
    | succ i => rfl

theorem cpsB (i k : Nat) : b9.cps i k = none := by
  cases i with
  | zero => cases k with
    | zero => rfl
    | succ k => rfl
  | succ i => cases i with
    | zero => rfl
    | succ i => rfl

theorem ncB (i : Nat) : b9.nc i = upd (fun _ => 0) 0 1 i := by
  cases i with
  | zero => rfl
  | succ i => cases i with
    | zero => rfl
    | succ i => rfl

theorem cgB (i : Nat) : b9.cg i = upd (fun _ => 0) 0 1 i := by
  cases i with
  | zero => rfl
  | succ i => cases i with
    | zero => rfl
    | succ i => rfl


/-- Both copy timings reach the same final state (every thread, address, barrier count, copy
slot and group count). -/
theorem ex_same : KSame a9 b9 :=
  ⟨⟨fun k => Eq.trans (thA k) (Eq.symm (thB k)), fun a => Eq.trans (memA a) (Eq.symm (memB a)),
      fun b => Eq.trans (arrA b) (Eq.symm (arrB b))⟩,
    fun i k => Eq.trans (cpsA i k) (Eq.symm (cpsB i k)),
    fun i => Eq.trans (ncA i) (Eq.symm (ncB i)), fun i => Eq.trans (cgA i) (Eq.symm (cgB i))⟩

theorem xstep_thr (kp : KProg Nat) (N i : Nat) (a : KState Nat) (hi : i < N)
    (hr : (a.s.th i).status = Status.run) (hw : ∀ n pc, kact kp i a = KAct.wait n pc → False) :
    XStep kp N a (tnext kp N i a) :=
  ⟨i, hi, hr, Or.inl ⟨hw, ksame_refl _⟩⟩

/-- Schedule B is the executor's run: the copy performs inside thread 0's wait (`drain`). -/
theorem xreachB : XReach kp2 2 s0 b9 := by
  refine XReach.step (xstep_thr kp2 2 1 s0 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine XReach.step (xstep_thr kp2 2 0 b1 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine XReach.step (xstep_thr kp2 2 0 b2 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine XReach.step (⟨0, by decide, rfl, Or.inr ⟨0, 3, rfl, ksame_refl _⟩⟩ : XStep kp2 2 b3 b5) ?_
  refine XReach.step (xstep_thr kp2 2 0 b5 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine XReach.step (xstep_thr kp2 2 1 b6 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine XReach.step (xstep_thr kp2 2 0 b7 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  refine XReach.step (xstep_thr kp2 2 1 b8 (by decide) rfl (fun n pc e => KAct.noConfusion e)) ?_
  exact XReach.refl b9

/-- The racy variant violates `CpRaceFree`: after thread 0's issue, the copy is pending and
thread 1 is about to write its source. -/
theorem racy_not_free : ¬CpRaceFree kpRacy 2 s0 := by
  intro h
  have hr : KReach kpRacy 2 s0 (tnext kpRacy 2 0 s0) :=
    KReach.step (kstep_thr kpRacy 2 0 s0 (by decide) rfl (fun n pc e => KAct.noConfusion e))
      (KReach.refl _)
  exact (h _ hr).2.1 1 0 0 ⟨0, 1, 0⟩ (by decide) rfl (by decide) (by decide) rfl (Or.inr rfl)


/-! ### Race freedom of the example: an invariant of its reachable states -/

structure Inv (r : KState Nat) : Prop where
  arr0 : r.s.arr 0 = 0
  nc1 : r.nc 1 = 0
  ncLo : (r.s.th 0).pc = 0 → r.nc 0 = 0
  ncHi : 1 ≤ (r.s.th 0).pc → r.nc 0 = 1
  cgLo : (r.s.th 0).pc ≤ 1 → r.cg 0 = 0
  cgHi : 2 ≤ (r.s.th 0).pc → r.cg 0 = 1
  grp : ∀ c, r.cps 0 0 = some c → c.grp = 0
  done0 : 3 ≤ (r.s.th 0).pc → r.cps 0 0 = none
  bar0 : ∀ b, (r.s.th 0).status = Status.bar b → (r.s.th 0).pc = 4 ∧ b = 0
  bar1 : ∀ b, (r.s.th 1).status = Status.bar b → (r.s.th 1).pc = 1 ∧ b = 0
  run1 : (r.s.th 1).status = Status.run → 1 ≤ (r.s.th 1).pc → 4 ≤ (r.s.th 0).pc

theorem inv_congr {a b : KState Nat} (h : KSame a b) (hI : Inv a) : Inv b := by
  have h0 := h.1.1 0
  have h1 := h.1.1 1
  constructor
  · rw [← h.1.2.2 0]; exact hI.arr0
  · rw [← h.2.2.1 1]; exact hI.nc1
  · rw [← h0, ← h.2.2.1 0]; exact hI.ncLo
  · rw [← h0, ← h.2.2.1 0]; exact hI.ncHi
  · rw [← h0, ← h.2.2.2 0]; exact hI.cgLo
  · rw [← h0, ← h.2.2.2 0]; exact hI.cgHi
  · rw [← h.2.1 0 0]; exact hI.grp
  · rw [← h0, ← h.2.1 0 0]; exact hI.done0
  · rw [← h0]; exact hI.bar0
  · rw [← h1]; exact hI.bar1
  · rw [← h0, ← h1]; exact hI.run1

theorem inv_s0 : Inv s0 := by
  constructor
  · rfl
  · rfl
  · intro _; rfl
  · intro h; exact False.elim (Nat.notSuccLeZero 0 h)
  · intro _; rfl
  · intro h; exact False.elim (Nat.notSuccLeZero 1 h)
  · intro c h; cases h
  · intro _; rfl
  · intro b h; cases h
  · intro b h; cases h
  · intro _ h; exact False.elim (Nat.notSuccLeZero 0 h)

theorem inv_eng (i k : Nat) (r : KState Nat) (hI : Inv r) : Inv (enext i k r) := by
  constructor
  · exact hI.arr0
  · exact hI.nc1
  · exact hI.ncLo
  · exact hI.ncHi
  · exact hI.cgLo
  · exact hI.cgHi
  · intro c h; exact hI.grp c (enext_cps_sub i k r 0 0 c h)
  · intro h
    cases he : (enext i k r).cps 0 0 with
    | none => rfl
    | some c =>
      have := enext_cps_sub i k r 0 0 c he
      rw [hI.done0 h] at this
      cases this
  · exact hI.bar0
  · exact hI.bar1
  · exact hI.run1

theorem tn_compute (i : Nat) (r : KState Nat) {p : Nat} {g : Nat → Nat}
    (hA : act (baseProg kp2) i r.s = Act.compute p g) :
    (tnext kp2 2 i r).s.th i = ⟨p, g, Status.run⟩ ∧
      (∀ k, k ≠ i → (tnext kp2 2 i r).s.th k = r.s.th k) ∧ (tnext kp2 2 i r).s.arr 0 = r.s.arr 0 := by
  refine ⟨?_, ?_, ?_⟩
  · show (next (baseProg kp2) 2 i r.s).th i = _
    rw [next_th_self, hA]
    rfl
  · intro k hk
    show (next (baseProg kp2) 2 i r.s).th k = _
    rw [next_th_other _ _ _ _ hk, hA]
    rfl
  · show arrEff (act (baseProg kp2) i r.s) _ r.s.arr 0 = _
    rw [hA]
    rfl

theorem tn_nc (i : Nat) (r : KState Nat) : (tnext kp2 2 i r).nc i = ncT (kact kp2 i r) (r.nc i) :=
  upd_same _ _ _
theorem tn_cg (i : Nat) (r : KState Nat) : (tnext kp2 2 i r).cg i = cgT (kact kp2 i r) (r.cg i) :=
  upd_same _ _ _
theorem tn_cps (i : Nat) (r : KState Nat) (k : Nat) :
    (tnext kp2 2 i r).cps i k = cpsT (kact kp2 i r) (r.cps i) (r.nc i) (r.cg i) k := by
  show upd r.cps i _ i k = _
  rw [upd_same]
theorem tn_nc_o {i j : Nat} (r : KState Nat) (h : j ≠ i) : (tnext kp2 2 i r).nc j = r.nc j :=
  upd_other _ _ h
theorem tn_cg_o {i j : Nat} (r : KState Nat) (h : j ≠ i) : (tnext kp2 2 i r).cg j = r.cg j :=
  upd_other _ _ h
theorem tn_cps_o {i j : Nat} (r : KState Nat) (h : j ≠ i) (k : Nat) :
    (tnext kp2 2 i r).cps j k = r.cps j k := by
  show upd r.cps i _ j k = _
  rw [upd_other _ _ h]

theorem ne10 : (1 : Nat) ≠ 0 := fun h => Nat.noConfusion h
theorem ne01 : (0 : Nat) ≠ 1 := fun h => Nat.noConfusion h

theorem le_false {a b : Nat} (h : a + 1 ≤ b) (hb : b ≤ a) : False :=
  Nat.notSuccLeSelf a (Nat.leTrans h hb)


theorem nle' {a b : Nat} (h : a ≤ b) (hab : b < a) : False := Nat.ltIrrefl b (Nat.ltOfLtOfLe hab h)
theorem l12 : 1 < 2 := by decide
theorem l13 : 1 < 3 := by decide
theorem l23 : 2 < 3 := by decide
theorem l04 : 0 < 4 := by decide
theorem l14 : 1 < 4 := by decide
theorem l24 : 2 < 4 := by decide
theorem le13 : 1 ≤ 3 := by decide
theorem le14 : 1 ≤ 4 := by decide
theorem le24 : 2 ≤ 4 := by decide
theorem le34 : 3 ≤ 4 := by decide

theorem relAt_pc (b : Nat) (t : TState Nat) : (relAt b t).pc = t.pc := by
  show (cond (waiting b t.status) { t with status := Status.run } t).pc = t.pc
  cases waiting b t.status <;> rfl

theorem relAt_bar (b c : Nat) (t : TState Nat) (h : (relAt b t).status = Status.bar c) :
    t.status = Status.bar c := by
  have h' : (cond (waiting b t.status) { t with status := Status.run } t).status = Status.bar c := h
  cases hw : waiting b t.status with
  | true => rw [hw] at h'; cases h'
  | false => rw [hw] at h'; exact h'

theorem condRel_pc (f : Bool) (b : Nat) (t : TState Nat) : (cond f (relAt b t) t).pc = t.pc := by
  cases f with
  | true => exact relAt_pc b t
  | false => rfl

theorem condRel_bar (f : Bool) (b c : Nat) (t : TState Nat)
    (h : (cond f (relAt b t) t).status = Status.bar c) : t.status = Status.bar c := by
  cases f with
  | true => exact relAt_bar b c t h
  | false => exact h

theorem tn_th_self (i : Nat) (r : KState Nat) : (tnext kp2 2 i r).s.th i =
    newT (act (baseProg kp2) i r.s) (firesA 2 (act (baseProg kp2) i r.s) r.s) (r.s.th i) r.s.mem :=
  next_th_self _ _ _ _

theorem tn_th_other {i k : Nat} (r : KState Nat) (hk : k ≠ i) : (tnext kp2 2 i r).s.th k =
    effOther (act (baseProg kp2) i r.s) (firesA 2 (act (baseProg kp2) i r.s) r.s) (r.s.th k) :=
  next_th_other _ _ _ _ hk

theorem tn_arr (i : Nat) (r : KState Nat) : (tnext kp2 2 i r).s.arr 0 =
    arrEff (act (baseProg kp2) i r.s) (firesA 2 (act (baseProg kp2) i r.s) r.s) r.s.arr 0 := rfl

theorem arr_arrive (f : Bool) (pc : Nat) (ar : Nat → Nat) (h : ar 0 = 0) :
    arrEff (Act.arrive 0 2 true pc : Act Nat) f ar 0 = 0 := by
  show upd ar 0 (arrNew f true (ar 0)) 0 = 0
  rw [upd_same, h]
  cases f <;> rfl

theorem inv_thr0 (r : KState Nat) (hI : Inv r) (hr : (r.s.th 0).status = Status.run)
    (hw : WaitOK kp2 0 r) : Inv (tnext kp2 2 0 r) := by
  have o1 : (tnext kp2 2 0 r).nc 1 = r.nc 1 := tn_nc_o r ne10
  cases hp : (r.s.th 0).pc with
  | zero =>
    have hK : kact kp2 0 r = KAct.issue 0 1 1 := by
      show kp2 0 (r.s.th 0).pc (r.s.th 0).regs = _
      rw [hp]
      try rfl
    have hA : act (baseProg kp2) 0 r.s = Act.compute 1 (r.s.th 0).regs := by
      show baseOf (r.s.th 0).pc (r.s.th 0).regs (kp2 0 (r.s.th 0).pc (r.s.th 0).regs) = _
      rw [hp]
      try rfl
    match tn_compute 0 r hA with
    | ⟨e0, eo, ea⟩ =>
      have e1 := eo 1 ne10
      have hn : r.nc 0 = 0 := hI.ncLo hp
      have hg : r.cg 0 = 0 := hI.cgLo (by rw [hp]; exact Nat.zeroLe 1)
      have en : (tnext kp2 2 0 r).nc 0 = 1 := by rw [tn_nc, hK, hn]; rfl
      have eg : (tnext kp2 2 0 r).cg 0 = 0 := by rw [tn_cg, hK, hg]; rfl
      have ec : (tnext kp2 2 0 r).cps 0 0 = some ⟨0, 1, 0⟩ := by
        rw [tn_cps, hK]
        show upd (r.cps 0) (r.nc 0) (some ⟨0, 1, r.cg 0⟩) 0 = _
        rw [hn, upd_same, hg]
      constructor
      · rw [ea]; exact hI.arr0
      · rw [o1]; exact hI.nc1
      · intro h; rw [e0] at h; cases h
      · intro _; exact en
      · intro _; exact eg
      · intro h; rw [e0] at h; exact False.elim (nle' h l12)
      · intro c h; rw [ec] at h; cases h; rfl
      · intro h; rw [e0] at h; exact False.elim (nle' h l13)
      · intro b h; rw [e0] at h; cases h
      · intro b h; rw [e1] at h ⊢; exact hI.bar1 b h
      · intro hs hp1; rw [e1] at hs hp1
        have := hI.run1 hs hp1
        rw [hp] at this
        exact False.elim (nle' this l04)
  | succ n =>
    cases n with
    | zero =>
      have hK : kact kp2 0 r = KAct.commit 2 := by
        show kp2 0 (r.s.th 0).pc (r.s.th 0).regs = _
        rw [hp]
        try rfl
      have hA : act (baseProg kp2) 0 r.s = Act.compute 2 (r.s.th 0).regs := by
        show baseOf (r.s.th 0).pc (r.s.th 0).regs (kp2 0 (r.s.th 0).pc (r.s.th 0).regs) = _
        rw [hp]
        try rfl
      match tn_compute 0 r hA with
      | ⟨e0, eo, ea⟩ =>
        have e1 := eo 1 ne10
        have hn : r.nc 0 = 1 := hI.ncHi (by rw [hp]; exact Nat.leRefl 1)
        have hg : r.cg 0 = 0 := hI.cgLo (by rw [hp]; exact Nat.leRefl 1)
        have en : (tnext kp2 2 0 r).nc 0 = 1 := by rw [tn_nc, hK, hn]; rfl
        have eg : (tnext kp2 2 0 r).cg 0 = 1 := by rw [tn_cg, hK, hg]; rfl
        have ec : (tnext kp2 2 0 r).cps 0 0 = r.cps 0 0 := by rw [tn_cps, hK]; rfl
        constructor
        · rw [ea]; exact hI.arr0
        · rw [o1]; exact hI.nc1
        · intro h; rw [e0] at h; cases h
        · intro _; exact en
        · intro h; rw [e0] at h; exact False.elim (nle' h l12)
        · intro _; exact eg
        · intro c h; rw [ec] at h; exact hI.grp c h
        · intro h; rw [e0] at h; exact False.elim (nle' h l23)
        · intro b h; rw [e0] at h; cases h
        · intro b h; rw [e1] at h ⊢; exact hI.bar1 b h
        · intro hs hp1; rw [e1] at hs hp1
          have := hI.run1 hs hp1
          rw [hp] at this
          exact False.elim (nle' this l14)
    | succ n =>
      cases n with
      | zero =>
        have hK : kact kp2 0 r = KAct.wait 0 3 := by
          show kp2 0 (r.s.th 0).pc (r.s.th 0).regs = _
          rw [hp]
          try rfl
        have hA : act (baseProg kp2) 0 r.s = Act.compute 3 (r.s.th 0).regs := by
          show baseOf (r.s.th 0).pc (r.s.th 0).regs (kp2 0 (r.s.th 0).pc (r.s.th 0).regs) = _
          rw [hp]
          try rfl
        match tn_compute 0 r hA with
        | ⟨e0, eo, ea⟩ =>
          have e1 := eo 1 ne10
          have hn : r.nc 0 = 1 := hI.ncHi (by rw [hp]; exact Nat.leSucc 1)
          have hg : r.cg 0 = 1 := hI.cgHi (by rw [hp]; exact Nat.leRefl 2)
          have en : (tnext kp2 2 0 r).nc 0 = 1 := by rw [tn_nc, hK, hn]; rfl
          have eg : (tnext kp2 2 0 r).cg 0 = 1 := by rw [tn_cg, hK, hg]; rfl
          have ec : (tnext kp2 2 0 r).cps 0 0 = r.cps 0 0 := by rw [tn_cps, hK]; rfl
          have hnone : r.cps 0 0 = none := by
            cases hc : r.cps 0 0 with
            | none => rfl
            | some c =>
              exact False.elim (hw 0 3 hK 0 c (by rw [hn]; exact Nat.zeroLtOne) hc
                (by rw [hI.grp c hc, hg]; exact Nat.zeroLtOne))
          constructor
          · rw [ea]; exact hI.arr0
          · rw [o1]; exact hI.nc1
          · intro h; rw [e0] at h; cases h
          · intro _; exact en
          · intro h; rw [e0] at h; exact False.elim (nle' h l13)
          · intro _; exact eg
          · intro c h; rw [ec] at h; exact hI.grp c h
          · intro _; rw [ec]; exact hnone
          · intro b h; rw [e0] at h; cases h
          · intro b h; rw [e1] at h ⊢; exact hI.bar1 b h
          · intro hs hp1; rw [e1] at hs hp1
            have := hI.run1 hs hp1
            rw [hp] at this
            exact False.elim (nle' this l24)
      | succ n =>
        cases n with
        | zero =>
          have hK : kact kp2 0 r = KAct.base (Act.arrive 0 2 true 4) := by
            show kp2 0 (r.s.th 0).pc (r.s.th 0).regs = _
            rw [hp]
            try rfl
          have hA : act (baseProg kp2) 0 r.s = Act.arrive 0 2 true 4 := by
            show baseOf (r.s.th 0).pc (r.s.th 0).regs (kp2 0 (r.s.th 0).pc (r.s.th 0).regs) = _
            rw [hp]
            try rfl
          have e0 := tn_th_self 0 r
          rw [hA] at e0
          have e1 := tn_th_other (i := 0) (k := 1) r ne10
          rw [hA] at e1
          have ea := tn_arr 0 r
          rw [hA] at ea
          have hn : r.nc 0 = 1 := hI.ncHi (by rw [hp]; exact le13)
          have hg : r.cg 0 = 1 := hI.cgHi (by rw [hp]; exact Nat.leSucc 2)
          have en : (tnext kp2 2 0 r).nc 0 = 1 := by rw [tn_nc, hK, hn]; rfl
          have eg : (tnext kp2 2 0 r).cg 0 = 1 := by rw [tn_cg, hK, hg]; rfl
          have ec : (tnext kp2 2 0 r).cps 0 0 = r.cps 0 0 := by rw [tn_cps, hK]; rfl
          have hd : r.cps 0 0 = none := hI.done0 (by rw [hp]; exact Nat.leRefl 3)
          have p0 : ((tnext kp2 2 0 r).s.th 0).pc = 4 := by rw [e0]; rfl
          constructor
          · rw [ea]; exact arr_arrive _ 4 r.s.arr hI.arr0
          · rw [o1]; exact hI.nc1
          · intro h; rw [p0] at h; cases h
          · intro _; exact en
          · intro h; rw [p0] at h; exact False.elim (nle' h l14)
          · intro _; exact eg
          · intro c h; rw [ec] at h; exact hI.grp c h
          · intro _; rw [ec]; exact hd
          · intro b h
            refine ⟨p0, ?_⟩
            rw [e0] at h
            cases hf : firesA 2 (Act.arrive 0 2 true 4 : Act Nat) r.s with
            | true => rw [hf] at h; cases h
            | false => rw [hf] at h; cases h; rfl
          · intro b h
            rw [e1] at h
            have h' := condRel_bar _ 0 b _ h
            have := hI.bar1 b h'
            rw [e1]
            exact ⟨Eq.trans (condRel_pc (firesA 2 (Act.arrive 0 2 true 4 : Act Nat) r.s) 0 _) this.1, this.2⟩
          · intro _ _; rw [p0]; exact Nat.leRefl 4
        | succ n =>
          have hK : kact kp2 0 r = KAct.base Act.exit := by
            show kp2 0 (r.s.th 0).pc (r.s.th 0).regs = _
            rw [hp]
            try rfl
          have hA : act (baseProg kp2) 0 r.s = Act.exit := by
            show baseOf (r.s.th 0).pc (r.s.th 0).regs (kp2 0 (r.s.th 0).pc (r.s.th 0).regs) = _
            rw [hp]
            try rfl
          have e0 := tn_th_self 0 r
          rw [hA] at e0
          have e1 := tn_th_other (i := 0) (k := 1) r ne10
          rw [hA] at e1
          have ea := tn_arr 0 r
          rw [hA] at ea
          have p0 : ((tnext kp2 2 0 r).s.th 0).pc = n + 4 := by rw [e0]; exact hp
          have h4 : 4 ≤ n + 4 := Nat.leAddLeft 4 n
          have en : (tnext kp2 2 0 r).nc 0 = r.nc 0 := by rw [tn_nc, hK]; rfl
          have eg : (tnext kp2 2 0 r).cg 0 = r.cg 0 := by rw [tn_cg, hK]; rfl
          have ec : (tnext kp2 2 0 r).cps 0 0 = r.cps 0 0 := by rw [tn_cps, hK]; rfl
          constructor
          · rw [ea]; exact hI.arr0
          · rw [o1]; exact hI.nc1
          · intro h; rw [p0] at h; cases h
          · intro _; rw [en]; exact hI.ncHi (by rw [hp]; exact Nat.leTrans le14 h4)
          · intro h; rw [p0] at h; exact False.elim (nle' (Nat.leTrans h4 h) l14)
          · intro _; rw [eg]; exact hI.cgHi (by rw [hp]; exact Nat.leTrans le24 h4)
          · intro c h; rw [ec] at h; exact hI.grp c h
          · intro _; rw [ec]; exact hI.done0 (by rw [hp]; exact Nat.leTrans le34 h4)
          · intro b h; rw [e0] at h; cases h
          · intro b h; rw [e1] at h ⊢; exact hI.bar1 b h
          · intro _ _; rw [p0]; exact h4

theorem inv_thr1 (r : KState Nat) (hI : Inv r) (hr : (r.s.th 1).status = Status.run) :
    Inv (tnext kp2 2 1 r) := by
  have n0 : (tnext kp2 2 1 r).nc 0 = r.nc 0 := tn_nc_o r ne01
  have g0 : (tnext kp2 2 1 r).cg 0 = r.cg 0 := tn_cg_o r ne01
  have c0 : (tnext kp2 2 1 r).cps 0 0 = r.cps 0 0 := tn_cps_o r ne01 0
  have e1 := tn_th_self 1 r
  have e0 := tn_th_other (i := 1) (k := 0) r ne01
  have ea := tn_arr 1 r
  cases hp : (r.s.th 1).pc with
  | zero =>
    have hK : kact kp2 1 r = KAct.base (Act.arrive 0 2 true 1) := by
      show kp2 1 (r.s.th 1).pc (r.s.th 1).regs = _
      rw [hp]
      try rfl
    have hA : act (baseProg kp2) 1 r.s = Act.arrive 0 2 true 1 := by
      show baseOf (r.s.th 1).pc (r.s.th 1).regs (kp2 1 (r.s.th 1).pc (r.s.th 1).regs) = _
      rw [hp]
      try rfl
    rw [hA] at e1 e0 ea
    have p0 : ((tnext kp2 2 1 r).s.th 0).pc = (r.s.th 0).pc := by
      rw [e0]
      exact condRel_pc (firesA 2 (Act.arrive 0 2 true 1 : Act Nat) r.s) 0 _
    have n1 : (tnext kp2 2 1 r).nc 1 = r.nc 1 := by rw [tn_nc, hK]; rfl
    have p1 : ((tnext kp2 2 1 r).s.th 1).pc = 1 := by rw [e1]; rfl
    constructor
    · rw [ea]; exact arr_arrive _ 1 r.s.arr hI.arr0
    · rw [n1]; exact hI.nc1
    · rw [p0, n0]; exact hI.ncLo
    · rw [p0, n0]; exact hI.ncHi
    · rw [p0, g0]; exact hI.cgLo
    · rw [p0, g0]; exact hI.cgHi
    · rw [c0]; exact hI.grp
    · rw [p0, c0]; exact hI.done0
    · intro b h
      rw [e0] at h
      have h' := condRel_bar _ 0 b _ h
      rw [p0]
      exact hI.bar0 b h'
    · intro b h
      rw [e1] at h
      cases hf : firesA 2 (Act.arrive 0 2 true 1 : Act Nat) r.s with
      | true => rw [hf] at h; cases h
      | false => rw [hf] at h; cases h; exact ⟨p1, rfl⟩
    · intro hs _
      rw [p0]
      rw [e1] at hs
      cases hf : firesA 2 (Act.arrive 0 2 true 1 : Act Nat) r.s with
      | false => rw [hf] at hs; cases hs
      | true =>
        cases hs0 : (r.s.th 0).status with
        | bar c => rw [(hI.bar0 c hs0).1]; exact Nat.leRefl 4
        | run =>
          have hf' : decide (2 ≤ countAt 0 r.s.th 2 + r.s.arr 0 + 1) = true := hf
          have hc : countAt 0 r.s.th 2 = 0 := by
            show countAt 0 r.s.th 0 + cond (waiting 0 (r.s.th 0).status) 1 0 +
              cond (waiting 0 (r.s.th 1).status) 1 0 = 0
            rw [hs0, hr]
            rfl
          rw [hc, hI.arr0] at hf'
          exact False.elim (nle' (of_decide_eq_true' hf') l12)
        | exited =>
          have hf' : decide (2 ≤ countAt 0 r.s.th 2 + r.s.arr 0 + 1) = true := hf
          have hc : countAt 0 r.s.th 2 = 0 := by
            show countAt 0 r.s.th 0 + cond (waiting 0 (r.s.th 0).status) 1 0 +
              cond (waiting 0 (r.s.th 1).status) 1 0 = 0
            rw [hs0, hr]
            rfl
          rw [hc, hI.arr0] at hf'
          exact False.elim (nle' (of_decide_eq_true' hf') l12)
  | succ n =>
    have hAx : ∃ pc' g, (act (baseProg kp2) 1 r.s = Act.read 1 0 2 ∧ pc' = 2) ∨
        (act (baseProg kp2) 1 r.s = Act.exit ∧ pc' = 0 ∧ g = 0) := by
      cases n with
      | zero =>
        refine ⟨2, 0, Or.inl ⟨?_, rfl⟩⟩
        show baseOf (r.s.th 1).pc (r.s.th 1).regs (kp2 1 (r.s.th 1).pc (r.s.th 1).regs) = _
        rw [hp]
        try rfl
      | succ n =>
        refine ⟨0, 0, Or.inr ⟨?_, rfl, rfl⟩⟩
        show baseOf (r.s.th 1).pc (r.s.th 1).regs (kp2 1 (r.s.th 1).pc (r.s.th 1).regs) = _
        rw [hp]
        try rfl
    have hK : ∃ A, kact kp2 1 r = KAct.base A := by
      cases n with
      | zero =>
        refine ⟨Act.read 1 0 2, ?_⟩
        show kp2 1 (r.s.th 1).pc (r.s.th 1).regs = _
        rw [hp]
        try rfl
      | succ n =>
        refine ⟨Act.exit, ?_⟩
        show kp2 1 (r.s.th 1).pc (r.s.th 1).regs = _
        rw [hp]
        try rfl
    match hK with
    | ⟨A, hKA⟩ =>
    have n1 : (tnext kp2 2 1 r).nc 1 = r.nc 1 := by rw [tn_nc, hKA]; rfl
    match hAx with
    | ⟨_, _, Or.inl ⟨hA, _⟩⟩ =>
      rw [hA] at e1 e0 ea
      have p0 : (tnext kp2 2 1 r).s.th 0 = r.s.th 0 := e0
      have ea' : (tnext kp2 2 1 r).s.arr 0 = r.s.arr 0 := ea
      constructor
      · rw [ea']; exact hI.arr0
      · rw [n1]; exact hI.nc1
      · rw [p0, n0]; exact hI.ncLo
      · rw [p0, n0]; exact hI.ncHi
      · rw [p0, g0]; exact hI.cgLo
      · rw [p0, g0]; exact hI.cgHi
      · rw [c0]; exact hI.grp
      · rw [p0, c0]; exact hI.done0
      · rw [p0]; exact hI.bar0
      · intro b h; rw [e1] at h; cases h
      · intro _ _
        rw [p0]
        exact hI.run1 hr (by rw [hp]; exact Nat.succLeSucc (Nat.zeroLe n))
    | ⟨_, _, Or.inr ⟨hA, _⟩⟩ =>
      rw [hA] at e1 e0 ea
      have p0 : (tnext kp2 2 1 r).s.th 0 = r.s.th 0 := e0
      have ea' : (tnext kp2 2 1 r).s.arr 0 = r.s.arr 0 := ea
      constructor
      · rw [ea']; exact hI.arr0
      · rw [n1]; exact hI.nc1
      · rw [p0, n0]; exact hI.ncLo
      · rw [p0, n0]; exact hI.ncHi
      · rw [p0, g0]; exact hI.cgLo
      · rw [p0, g0]; exact hI.cgHi
      · rw [c0]; exact hI.grp
      · rw [p0, c0]; exact hI.done0
      · rw [p0]; exact hI.bar0
      · intro b h; rw [e1] at h; cases h
      · intro hs _; rw [e1] at hs; cases hs

theorem inv_step (r t : KState Nat) (l : KLbl) (hI : Inv r) (h : KStepL kp2 2 l r t) : Inv t := by
  cases l with
  | thr i =>
    cases i with
    | zero => exact inv_congr (ksame_symm h.2) (inv_thr0 r hI h.1.2.1 h.1.2.2)
    | succ i =>
      cases i with
      | zero => exact inv_congr (ksame_symm h.2) (inv_thr1 r hI h.1.2.1)
      | succ i => exact False.elim (Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ h.1.1)))
  | eng i k => exact inv_congr (ksame_symm h.2) (inv_eng i k r hI)

theorem inv_reach_gen {a r : KState Nat} (h : KReach kp2 2 a r) : Inv a → Inv r := by
  induction h with
  | refl s => exact fun h => h
  | step hst _ ih =>
    intro hI
    match hst with
    | ⟨l, hl⟩ => exact ih (inv_step _ _ l hI hl)

theorem inv_reach {r : KState Nat} (h : KReach kp2 2 s0 r) : Inv r := inv_reach_gen h inv_s0

/-- An action that touches no memory. -/
def NoMem (A : Act Nat) : Prop := (∀ B, ¬Conflict A B ∧ ¬Conflict B A) ∧ ∀ c, ¬CpConflict A c

theorem noMem_compute (p : Nat) (g : Nat → Nat) : NoMem (Act.compute p g) :=
  ⟨fun B => by cases B <;> exact ⟨fun h => h, fun h => h⟩, fun _ h => h⟩
theorem noMem_arrive (b n : Nat) (w : Bool) (p : Nat) : NoMem (Act.arrive b n w p : Act Nat) :=
  ⟨fun B => by cases B <;> exact ⟨fun h => h, fun h => h⟩, fun _ h => h⟩
theorem noMem_exit : NoMem (Act.exit : Act Nat) :=
  ⟨fun B => by cases B <;> exact ⟨fun h => h, fun h => h⟩, fun _ h => h⟩

theorem act0_noMem (r : KState Nat) : NoMem (act (baseProg kp2) 0 r.s) := by
  show NoMem (baseOf (r.s.th 0).pc (r.s.th 0).regs (kp2 0 (r.s.th 0).pc (r.s.th 0).regs))
  generalize (r.s.th 0).pc = p
  generalize (r.s.th 0).regs = g
  cases p with
  | zero => exact noMem_compute 1 g
  | succ p => cases p with
    | zero => exact noMem_compute 2 g
    | succ p => cases p with
      | zero => exact noMem_compute 3 g
      | succ p => cases p with
        | zero => exact noMem_arrive 0 2 true 4
        | succ p => exact noMem_exit

theorem slot00 {r : KState Nat} (hI : Inv r) {i k : Nat} (hi : i < 2) (hk : k < r.nc i) :
    i = 0 ∧ k = 0 := by
  cases i with
  | zero =>
    refine ⟨rfl, ?_⟩
    cases hp0 : (r.s.th 0).pc with
    | zero => rw [hI.ncLo hp0] at hk; exact False.elim (Nat.notLtZero k hk)
    | succ m =>
      rw [hI.ncHi (by rw [hp0]; exact Nat.succLeSucc (Nat.zeroLe m))] at hk
      cases k with
      | zero => rfl
      | succ k => exact False.elim (Nat.notLtZero k (Nat.lt_of_succ_lt_succ hk))
  | succ i =>
    cases i with
    | zero => rw [hI.nc1] at hk; exact False.elim (Nat.notLtZero k hk)
    | succ i => exact False.elim (Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi)))

/-- The example is race free: thread 0 touches no memory, thread 1 reads the destination only
after the barrier, when thread 0 has waited for the copy; there is one copy. -/
theorem ex_raceFree : CpRaceFree kp2 2 s0 := by
  intro r hr
  have hI := inv_reach hr
  refine ⟨?_, ?_, ?_⟩
  · intro i j hij hi hj _ _
    cases i with
    | zero => exact ((act0_noMem r).1 _).1
    | succ i =>
      cases i with
      | zero =>
        cases j with
        | zero => exact ((act0_noMem r).1 _).2
        | succ j =>
          cases j with
          | zero => exact False.elim (hij rfl)
          | succ j => exact False.elim (Nat.notLtZero j (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hj)))
      | succ i => exact False.elim (Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi)))
  · intro i j k c hi hri hj hk hc
    match slot00 hI hj hk with
    | ⟨ej, ek⟩ =>
      rw [ej, ek] at hc
      cases i with
      | zero => exact (act0_noMem r).2 c
      | succ i =>
        cases i with
        | succ i => exact False.elim (Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi)))
        | zero =>
          show ¬CpConflict (baseOf (r.s.th 1).pc (r.s.th 1).regs (kp2 1 (r.s.th 1).pc (r.s.th 1).regs)) c
          cases hp : (r.s.th 1).pc with
          | zero => exact fun h => h
          | succ m =>
            cases m with
            | zero =>
              have h4 := hI.run1 hri (by rw [hp]; exact Nat.leRefl 1)
              have hn := hI.done0 (Nat.leTrans le34 h4)
              rw [hn] at hc
              cases hc
            | succ m => exact fun h => h
  · intro i k j l c d hi hj hk hl hne hc hd
    match slot00 hI hi hk, slot00 hI hj hl with
    | ⟨e1, e2⟩, ⟨e3, e4⟩ => exact False.elim (hne ⟨Eq.trans e1 (Eq.symm e3), Eq.trans e2 (Eq.symm e4)⟩)

theorem barFits01 {r : KState Nat} (hI : Inv r) (h0 : (r.s.th 0).status = Status.run)
    (h1 : (r.s.th 1).status = Status.run) :
    BarFits 2 r.s (act (baseProg kp2) 0 r.s) (act (baseProg kp2) 1 r.s) ∧
      BarFits 2 r.s (act (baseProg kp2) 1 r.s) (act (baseProg kp2) 0 r.s) := by
  have ha : arrivals 2 0 r.s + 2 ≤ 2 := by
    show countAt 0 r.s.th 0 + cond (waiting 0 (r.s.th 0).status) 1 0 +
      cond (waiting 0 (r.s.th 1).status) 1 0 + r.s.arr 0 + 2 ≤ 2
    rw [h0, h1, hI.arr0]
    exact Nat.leRefl 2
  show BarFits 2 r.s (baseOf (r.s.th 0).pc (r.s.th 0).regs (kp2 0 (r.s.th 0).pc (r.s.th 0).regs))
      (baseOf (r.s.th 1).pc (r.s.th 1).regs (kp2 1 (r.s.th 1).pc (r.s.th 1).regs)) ∧
    BarFits 2 r.s (baseOf (r.s.th 1).pc (r.s.th 1).regs (kp2 1 (r.s.th 1).pc (r.s.th 1).regs))
      (baseOf (r.s.th 0).pc (r.s.th 0).regs (kp2 0 (r.s.th 0).pc (r.s.th 0).regs))
  generalize (r.s.th 0).pc = p
  generalize (r.s.th 1).pc = q
  generalize (r.s.th 0).regs = g
  generalize (r.s.th 1).regs = g'
  have hb : ∀ (B : Act Nat), (∀ b n w pc, B = Act.arrive b n w pc → False) →
      BarFits 2 r.s B (Act.arrive 0 2 true 4) ∧ BarFits 2 r.s (Act.arrive 0 2 true 4) B := by
    intro B hB
    cases B with
    | arrive b n w pc => exact False.elim (hB b n w pc rfl)
    | _ => exact ⟨trivial, trivial⟩
  have hc : ∀ (A B : Act Nat), (∀ b n w pc, A = Act.arrive b n w pc → False) →
      BarFits 2 r.s A B ∧ BarFits 2 r.s B A := by
    intro A B hA
    cases A with
    | arrive b n w pc => exact False.elim (hA b n w pc rfl)
    | _ => cases B <;> exact ⟨trivial, trivial⟩
  cases p with
  | zero => exact hc _ _ (fun _ _ _ _ e => Act.noConfusion e)
  | succ p => cases p with
    | zero => exact hc _ _ (fun _ _ _ _ e => Act.noConfusion e)
    | succ p => cases p with
      | zero => exact hc _ _ (fun _ _ _ _ e => Act.noConfusion e)
      | succ p => cases p with
        | succ p => exact hc _ _ (fun _ _ _ _ e => Act.noConfusion e)
        | zero =>
          cases q with
          | zero => exact ⟨fun _ => ⟨rfl, ha⟩, fun _ => ⟨rfl, ha⟩⟩
          | succ q => cases q with
            | zero =>
              have := hb (Act.read 1 0 2) (fun _ _ _ _ e => Act.noConfusion e)
              exact ⟨this.2, this.1⟩
            | succ q =>
              have := hb Act.exit (fun _ _ _ _ e => Act.noConfusion e)
              exact ⟨this.2, this.1⟩

theorem ex_fit : KBarriersFit kp2 2 s0 := by
  intro r hr i j hij hi hj hri hrj
  have hI := inv_reach hr
  cases i with
  | zero =>
    cases j with
    | zero => exact False.elim (hij rfl)
    | succ j => cases j with
      | zero => exact (barFits01 hI hri hrj).1
      | succ j => exact False.elim (Nat.notLtZero j (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hj)))
  | succ i => cases i with
    | succ i => exact False.elim (Nat.notLtZero i (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hi)))
    | zero =>
      cases j with
      | zero => exact (barFits01 hI hrj hri).2
      | succ j => cases j with
        | zero => exact False.elim (hij rfl)
        | succ j => exact False.elim (Nat.notLtZero j (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hj)))

/-- Every final state of every schedule of the example (any interleaving of the two threads and
the copy engine) is schedule A's, so the executor's: thread 1 reads 7. -/
theorem ex_every_final (t : KState Nat) (ht : KReach kp2 2 s0 t) (hf : KFinal 2 t) :
    KSame t a9 :=
  kconfluence kp2 2 ex_raceFree ex_fit ht reachA hf finalA

/-- The executor's run of the example (schedule B, `xreachB`) ends in the final state of every
schedule (`executor_representative`). -/
theorem ex_executor (t : KState Nat) (ht : KReach kp2 2 s0 t) (hf : KFinal 2 t) : KSame b9 t :=
  executor_representative kp2 2 ex_raceFree ex_fit xreachB finalB ht hf

end Example

end CpSem
end Kcert
