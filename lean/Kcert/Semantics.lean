import Kcert.Compat
import Kcert.ExpField

/-!
# Interleaving semantics of one CTA

Rust: `checker/src/exec/mod.rs` (`Thread`, `Status`, `Cta`, `run_cta`, `resolve_barriers`),
`checker/src/exec/step.rs` (what one instruction does), `checker/src/lower/ir.rs` (`Op`).

An abstract model of the threads of one CTA, each running its own lowered program, over one
shared memory.  The program is given abstractly (`Prog`): from a thread's id, `pc` and
registers it says what the thread's next instruction does (`Act`): a register step, a read of
one address into one register, a write of one value to one address, an atomic addition of one
value to one address (PTX `atom.add`/`red.add`; no value returned), an arrival at barrier `b`
with count `n`, waiting (PTX `bar.sync b, n`) or not (PTX `bar.arrive b, n`), or `exit`.
Values carry a commutative, associative addition (`AccAdd`; every `ExpField`, so the reals, is
one).  Addresses and the value written are computed from the registers only, as in the executor (`step.rs` evaluates addresses from
registers; kernels are structured, DESIGN.md).

The small-step relation `Step` picks any running thread and performs its next action
(`next`).  A barrier counts its arrivals since it last completed (`arrivals`: the threads
waiting there plus the arrivals without waiting, `CState.arr`).  An arrival that brings them to
the count releases every thread waiting at that barrier, resets the count, and the arriving
thread goes on; otherwise a `bar.sync` arrival waits and a `bar.arrive` arrival goes on.  Exited and waiting threads never step.  The Rust executor's canonical schedule
(every thread runs until it blocks or exits, then barriers are released) is one of the
schedules of `Step`.

States are compared pointwise (`Same`), so that no proof needs function extensionality (which
in Lean core rests on `Quot.sound`): `StepT prog N i s s'` says that `s'` agrees at every
thread and address with `next prog N i s`.

* `diamond`: two steps of different threads from one state whose actions do not conflict
  (`Conflict`: same address, and one a plain write, or one an atomic addition and the other a
  plain read or write) and do not arrive at the same barrier can be completed to a common
  state, each thread doing its step after the other's.  Two atomic additions never conflict:
  `memEff_atomAdd_comm` proves from commutativity and associativity that two additions to one
  address commute; `next_comm_atomAdd`, `diamond_atomAdd`, `diamond_atomAdd_other` are the
  cases spelled out.
* `final_unique`: if that local diamond holds at every state reachable from `s0`
  (`Diamond`), all final states reachable from `s0` are the same.
* `confluence_noBarrier`: a program without barriers (`NoBarrier`) in which no reachable state
  has two running threads about to do conflicting actions (`RaceFree`) has at most one final
  state, whatever the schedule.
* `next_comm_bar`, `diamond_gen`: two arrivals at one barrier also commute when they use one
  count `n` and at least two places are free at the barrier (`BarFits`), whether each waits
  (`bar.sync`) or not (`bar.arrive`).
* `confluence`: a race-free program whose barriers fit (`BarriersFit`: one count per barrier,
  never more arrivals than the count) has at most one final state, whatever the
  schedule.  `no_stuck`: if one execution finishes, no execution gets stuck.

Not modelled (see the README): global memory and other CTAs (so atomics of scopes wider than
the CTA), local memory, vector accesses, warp collectives, atomic operations
other than addition, the value an atomic returns, `cp.async`, and the link between these
hypotheses and the executor's checks on its one canonical schedule.
-/

namespace Kcert
namespace Sem

/-- A commutative, associative addition on values: what atomic additions (PTX `atom.add`,
`red.add`; Rust `Op::AtomAdd`, `Access::AtomicAdd`) need.  The reals are one; so is every
`ExpField` (instance `accAddOfExpField`).  The laws are used only to prove that two atomic
additions to one address commute (`memEff_atomAdd_comm`). -/
class AccAdd (V : Type) where
  add : V → V → V
  add_comm : ∀ x y : V, add x y = add y x
  add_assoc : ∀ x y z : V, add (add x y) z = add x (add y z)

instance accAddOfExpField (α : Type) [ExpField α] : AccAdd α :=
  ⟨ExpField.add, ExpField.add_comm', ExpField.add_assoc'⟩

/-- Rust `exec::Status`: `Ready` (`run`), `Bar` (`bar b`: waiting at barrier `b`), `Exited`. -/
inductive Status where
  | run
  | bar (b : Nat)
  | exited

/-- Rust `exec::Thread`: program counter, registers, status. -/
structure TState (V : Type) where
  pc : Nat
  regs : Nat → V
  status : Status

/-- Rust `exec::Cta`: the threads (by linear id) and the shared memory. -/
structure CState (V : Type) where
  th : Nat → TState V
  mem : Nat → V
  -- per barrier, the arrivals without waiting (`bar.arrive`) since it last completed
  arr : Nat → Nat

/-- What a thread's next instruction does. -/
inductive Act (V : Type) where
  -- register and control flow only (`Mov`, `Int`, `Float`, `Setp`, `Bra`, ...): new `pc`, registers
  | compute (pc : Nat) (regs : Nat → V)
  -- `Ld`: register `r` gets the value at address `a`; then `pc`
  | read (a : Nat) (r : Nat) (pc : Nat)
  -- `St`: address `a` gets `v`; then `pc`
  | write (a : Nat) (v : V) (pc : Nat)
  -- `AtomAdd` (`atom.add`, `red.add`): address `a` gets its value plus `v`, in one step; then
  -- `pc`.  No value reaches the registers: the executor makes an atomic's destination
  -- `Val::Unordered` and refuses to read it.
  | atomAdd (a : Nat) (v : V) (pc : Nat)
  -- `Bar`: arrive at barrier `b`, which completes with `n` arrivals; with `wait` (`bar.sync`)
  -- the thread waits until it completes, without (`bar.arrive`) it goes on; then `pc`
  | arrive (b : Nat) (n : Nat) (wait : Bool) (pc : Nat)
  -- `Exit`
  | exit

/-- A per-thread program: thread id, `pc` and registers give the next action. -/
def Prog (V : Type) : Type := Nat → Nat → (Nat → V) → Act V

section Defs

variable {V : Type} [AccAdd V]

def upd {α : Type} (f : Nat → α) (i : Nat) (x : α) : Nat → α :=
  fun k => if k = i then x else f k

/-- Whether a thread of status `st` waits at barrier `b`. -/
def waiting (b : Nat) : Status → Bool
  | Status.bar c => decide (c = b)
  | Status.run => false
  | Status.exited => false

/-- Number of threads `0 .. N-1` waiting at barrier `b`. -/
def countAt (b : Nat) (th : Nat → TState V) : Nat → Nat
  | 0 => 0
  | k + 1 => countAt b th k + cond (waiting b (th k).status) 1 0

/-- A release of barrier `b` on one thread: a thread waiting at `b` runs again. -/
def relAt (b : Nat) (t : TState V) : TState V :=
  cond (waiting b t.status) { t with status := Status.run } t

/-- The arrivals at barrier `b` since it last completed: the threads waiting there and the
arrivals without waiting. -/
def arrivals (N b : Nat) (s : CState V) : Nat := countAt b s.th N + s.arr b

/-- Whether action `A`, done in state `s`, completes its barrier: the arrivals there plus this
one reach the count. -/
def firesA (N : Nat) (A : Act V) (s : CState V) : Bool :=
  match A with
  | Act.arrive b n _ _ => decide (n ≤ arrivals N b s + 1)
  | _ => false

/-- The effect of another thread's action `A` (which completes its barrier iff `f`) on a
thread state. -/
def effOther (A : Act V) (f : Bool) (t : TState V) : TState V :=
  match A with
  | Act.arrive b _ _ _ => cond f (relAt b t) t
  | _ => t

/-- The new state of the thread doing `A`, from its state `t` and the memory `m`. -/
def newT (A : Act V) (f : Bool) (t : TState V) (m : Nat → V) : TState V :=
  match A with
  | Act.compute pc r => ⟨pc, r, Status.run⟩
  | Act.read a r pc => ⟨pc, upd t.regs r (m a), Status.run⟩
  | Act.write _ _ pc => ⟨pc, t.regs, Status.run⟩
  | Act.atomAdd _ _ pc => ⟨pc, t.regs, Status.run⟩
  | Act.arrive b _ w pc => ⟨pc, t.regs, cond f Status.run (cond w (Status.bar b) Status.run)⟩
  | Act.exit => ⟨t.pc, t.regs, Status.exited⟩

/-- The memory after `A`. -/
def memEff (A : Act V) (m : Nat → V) : Nat → V :=
  match A with
  | Act.write a v _ => upd m a v
  | Act.atomAdd a v _ => upd m a (AccAdd.add (m a) v)
  | _ => m

/-- The new count of arrivals without waiting at a barrier, from the old one `x`, after an
arrival with `wait` `w` that completes the barrier iff `f`. -/
def arrNew (f w : Bool) (x : Nat) : Nat := cond f 0 (cond w x (x + 1))

/-- The arrivals without waiting after `A` (which completes its barrier iff `f`). -/
def arrEff (A : Act V) (f : Bool) (ar : Nat → Nat) : Nat → Nat :=
  match A with
  | Act.arrive b _ w _ => upd ar b (arrNew f w (ar b))
  | _ => ar

/-- Thread `i`'s next action in `s`. -/
def act (prog : Prog V) (i : Nat) (s : CState V) : Act V :=
  prog i (s.th i).pc (s.th i).regs

/-- The state after thread `i` of a CTA of `N` threads does its next action. -/
def next (prog : Prog V) (N i : Nat) (s : CState V) : CState V :=
  { th := upd (fun k => effOther (act prog i s) (firesA N (act prog i s) s) (s.th k)) i
      (newT (act prog i s) (firesA N (act prog i s) s) (s.th i) s.mem),
    mem := memEff (act prog i s) s.mem,
    arr := arrEff (act prog i s) (firesA N (act prog i s) s) s.arr }

/-- Pointwise equality of states. -/
def Same (s t : CState V) : Prop :=
  (∀ k, s.th k = t.th k) ∧ (∀ a, s.mem a = t.mem a) ∧ ∀ b, s.arr b = t.arr b

/-- Thread `i < N`, running, does its next action. -/
def StepT (prog : Prog V) (N i : Nat) (s s' : CState V) : Prop :=
  i < N ∧ (s.th i).status = Status.run ∧ Same s' (next prog N i s)

/-- One step of some thread. -/
def Step (prog : Prog V) (N : Nat) (s s' : CState V) : Prop := ∃ i, StepT prog N i s s'

/-- Reflexive-transitive closure of `Step`. -/
inductive Reach (prog : Prog V) (N : Nat) : CState V → CState V → Prop where
  | refl (s : CState V) : Reach prog N s s
  | step {s t u : CState V} : Step prog N s t → Reach prog N t u → Reach prog N s u

/-- Every thread has exited. -/
def Final (N : Nat) (s : CState V) : Prop := ∀ k, k < N → (s.th k).status = Status.exited

/-- The launch: every thread at `pc` 0, running, with registers `regs k` (thread ids); no
arrivals at any barrier. -/
def init (regs : Nat → Nat → V) (mem : Nat → V) : CState V :=
  { th := fun k => ⟨0, regs k, Status.run⟩, mem := mem, arr := fun _ => 0 }

/-- Two actions conflict: they access the same address, and one is a plain write, or one is an
atomic addition and the other a plain access (read or write).  Two atomic additions never
conflict (Rust `Shadow::atomic`: atomics of one scope do not race with each other). -/
def Conflict : Act V → Act V → Prop
  | Act.read a _ _, Act.write c _ _ => a = c
  | Act.read a _ _, Act.atomAdd c _ _ => a = c
  | Act.write a _ _, Act.read c _ _ => a = c
  | Act.write a _ _, Act.write c _ _ => a = c
  | Act.write a _ _, Act.atomAdd c _ _ => a = c
  | Act.atomAdd a _ _, Act.read c _ _ => a = c
  | Act.atomAdd a _ _, Act.write c _ _ => a = c
  | Act.read _ _ _, Act.read _ _ _ => False
  | Act.read _ _ _, Act.compute _ _ => False
  | Act.read _ _ _, Act.arrive _ _ _ _ => False
  | Act.read _ _ _, Act.exit => False
  | Act.write _ _ _, Act.compute _ _ => False
  | Act.write _ _ _, Act.arrive _ _ _ _ => False
  | Act.write _ _ _, Act.exit => False
  | Act.atomAdd _ _ _, Act.atomAdd _ _ _ => False
  | Act.atomAdd _ _ _, Act.compute _ _ => False
  | Act.atomAdd _ _ _, Act.arrive _ _ _ _ => False
  | Act.atomAdd _ _ _, Act.exit => False
  | Act.compute _ _, _ => False
  | Act.arrive _ _ _ _, _ => False
  | Act.exit, _ => False

/-- Two actions arrive at the same barrier. -/
def SameBar : Act V → Act V → Prop
  | Act.arrive b _ _ _, Act.arrive c _ _ _ => b = c
  | _, _ => False

end Defs

section Lemmas

variable {V : Type} [AccAdd V]

theorem upd_same {α : Type} (f : Nat → α) (i : Nat) (x : α) : upd f i x i = x := by
  show (if i = i then x else f i) = x
  exact if_pos' rfl

theorem upd_other {α : Type} (f : Nat → α) {i k : Nat} (x : α) (h : k ≠ i) : upd f i x k = f k := by
  show (if k = i then x else f k) = f k
  exact if_neg' h

theorem next_th_self (prog : Prog V) (N i : Nat) (s : CState V) :
    (next prog N i s).th i =
      newT (act prog i s) (firesA N (act prog i s) s) (s.th i) s.mem :=
  upd_same (fun k => effOther (act prog i s) (firesA N (act prog i s) s) (s.th k)) i _

theorem next_th_other (prog : Prog V) (N i : Nat) (s : CState V) {k : Nat} (h : k ≠ i) :
    (next prog N i s).th k = effOther (act prog i s) (firesA N (act prog i s) s) (s.th k) :=
  upd_other (fun k => effOther (act prog i s) (firesA N (act prog i s) s) (s.th k))
    (newT (act prog i s) (firesA N (act prog i s) s) (s.th i) s.mem) h

theorem next_mem (prog : Prog V) (N i : Nat) (s : CState V) :
    (next prog N i s).mem = memEff (act prog i s) s.mem := rfl

theorem next_arr (prog : Prog V) (N i : Nat) (s : CState V) :
    (next prog N i s).arr = arrEff (act prog i s) (firesA N (act prog i s) s) s.arr := rfl

/-- A running thread is not touched by another thread's action. -/
theorem effOther_run (A : Act V) (f : Bool) (t : TState V) (h : t.status = Status.run) :
    effOther A f t = t := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl
  | arrive b n w pc =>
    cases f with
    | false => rfl
    | true =>
      show cond (waiting b t.status) { t with status := Status.run } t = t
      rw [h]
      rfl

/-- Another thread's step leaves a running thread's state alone. -/
theorem next_th_run (prog : Prog V) (N i : Nat) (s : CState V) {k : Nat} (h : k ≠ i)
    (hr : (s.th k).status = Status.run) : (next prog N i s).th k = s.th k := by
  rw [next_th_other prog N i s h]
  exact effOther_run _ _ _ hr

theorem act_next (prog : Prog V) (N i : Nat) (s : CState V) {k : Nat} (h : k ≠ i)
    (hr : (s.th k).status = Status.run) : act prog k (next prog N i s) = act prog k s := by
  show prog k ((next prog N i s).th k).pc ((next prog N i s).th k).regs = prog k (s.th k).pc (s.th k).regs
  rw [next_th_run prog N i s h hr]

/-- Releasing barrier `c` does not change who waits at another barrier `b`. -/
theorem waiting_relAt (t : TState V) {b c : Nat} (hbc : c ≠ b) :
    waiting b (relAt c t).status = waiting b t.status := by
  cases t with
  | mk pc regs st =>
    cases st with
    | run => rfl
    | exited => rfl
    | bar d =>
      cases hd : decide (d = c) with
      | false =>
        show waiting b (cond (decide (d = c)) ({ pc := pc, regs := regs, status := Status.run } :
          TState V) ⟨pc, regs, Status.bar d⟩).status = decide (d = b)
        rw [hd]
        rfl
      | true =>
        show waiting b (cond (decide (d = c)) ({ pc := pc, regs := regs, status := Status.run } :
          TState V) ⟨pc, regs, Status.bar d⟩).status = decide (d = b)
        rw [hd, of_decide_eq_true' hd, decide_eq_false' hbc]
        rfl

theorem waiting_effOther (A : Act V) (f : Bool) (t : TState V) {b : Nat}
    (hA : ∀ n w pc, A = Act.arrive b n w pc → False) :
    waiting b (effOther A f t).status = waiting b t.status := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl
  | arrive c n w pc =>
    cases f with
    | false => rfl
    | true =>
      show waiting b (relAt c t).status = _
      cases Nat.decEq c b with
      | isTrue h => exact False.elim (hA n w pc (by rw [h]))
      | isFalse h => exact waiting_relAt t h

theorem countAt_congr (b : Nat) (th th' : Nat → TState V)
    (h : ∀ k, waiting b (th k).status = waiting b (th' k).status) :
    ∀ N, countAt b th N = countAt b th' N := by
  intro N
  induction N with
  | zero => rfl
  | succ N ih =>
    show countAt b th N + cond (waiting b (th N).status) 1 0 =
      countAt b th' N + cond (waiting b (th' N).status) 1 0
    rw [ih, h N]

end Lemmas

section Commute

variable {V : Type} [AccAdd V]

theorem conflict_symm (A B : Act V) (h : Conflict A B) : Conflict B A := by
  cases A <;> cases B <;> first | exact Eq.symm h | exact h

theorem sameBar_symm (A B : Act V) (h : SameBar A B) : SameBar B A := by
  cases A <;> cases B <;> first | exact Eq.symm h | exact h

/-- After an action that does not arrive at `b`, the thread does not wait at `b`. -/
theorem waiting_newT (A : Act V) (f : Bool) (t : TState V) (m : Nat → V) {b n : Nat} {w : Bool}
    {pc : Nat} (hA : ¬SameBar A (Act.arrive b n w pc)) : waiting b (newT A f t m).status = false := by
  cases A with
  | compute pc' r => rfl
  | read a r pc' => rfl
  | write a v pc' => rfl
  | atomAdd a v pc' => rfl
  | exit => rfl
  | arrive c n' w' pc' =>
    cases f with
    | true => rfl
    | false =>
      cases w' with
      | false => rfl
      | true =>
        show decide (c = b) = false
        exact decide_eq_false' hA

theorem not_arrive_of (A : Act V) {b n : Nat} {w : Bool} {pc : Nat}
    (hA : ¬SameBar A (Act.arrive b n w pc)) : ∀ n' w' pc', A = Act.arrive b n' w' pc' → False := by
  intro n' w' pc' h
  rw [h] at hA
  exact hA rfl

/-- Another thread's step that does not arrive at `b` leaves the count at `b` alone. -/
theorem countAt_next (prog : Prog V) (N i : Nat) (s : CState V) {b n : Nat} {w : Bool} {pc : Nat}
    (hA : ¬SameBar (act prog i s) (Act.arrive b n w pc)) (hr : (s.th i).status = Status.run) :
    countAt b (next prog N i s).th N = countAt b s.th N := by
  apply countAt_congr
  intro k
  cases Nat.decEq k i with
  | isTrue hk =>
    rw [hk, next_th_self, waiting_newT _ _ _ _ hA, hr]
    rfl
  | isFalse hk =>
    rw [next_th_other prog N i s hk]
    exact waiting_effOther _ _ _ (not_arrive_of _ hA)

/-- An action that does not arrive at `b` leaves the arrivals without waiting at `b` alone. -/
theorem arrEff_other (A : Act V) (f : Bool) (ar : Nat → Nat) {b n : Nat} {w : Bool} {pc : Nat}
    (hA : ¬SameBar A (Act.arrive b n w pc)) : arrEff A f ar b = ar b := by
  cases A with
  | compute pc' r => rfl
  | read a r pc' => rfl
  | write a v pc' => rfl
  | atomAdd a v pc' => rfl
  | exit => rfl
  | arrive c n' w' pc' =>
    show upd ar c (arrNew f w' (ar c)) b = ar b
    exact upd_other ar _ (fun e => hA (Eq.symm e))

theorem firesA_next (prog : Prog V) (N i : Nat) (s : CState V) (B : Act V)
    (hAB : ¬SameBar (act prog i s) B) (hr : (s.th i).status = Status.run) :
    firesA N B (next prog N i s) = firesA N B s := by
  cases B with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl
  | arrive b n w pc =>
    show decide (n ≤ countAt b (next prog N i s).th N + (next prog N i s).arr b + 1) =
      decide (n ≤ countAt b s.th N + s.arr b + 1)
    rw [countAt_next prog N i s hAB hr, next_arr, arrEff_other _ _ _ hAB]

/-- Another thread's action does not disturb the state a thread reaches by an action at a
different barrier. -/
theorem effOther_newT (A B : Act V) (f g : Bool) (t : TState V) (m : Nat → V)
    (hAB : ¬SameBar A B) : effOther A f (newT B g t m) = newT B g t m := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl
  | arrive c n w pc =>
    cases f with
    | false => rfl
    | true =>
      show cond (waiting c (newT B g t m).status) { newT B g t m with status := Status.run }
        (newT B g t m) = newT B g t m
      cases B with
      | compute pc' r => rfl
      | read a r pc' => rfl
      | write a v pc' => rfl
      | atomAdd a v pc' => rfl
      | exit => rfl
      | arrive b n' w' pc' =>
        have hw : waiting c (newT (Act.arrive b n' w' pc') g t m).status = false :=
          waiting_newT (Act.arrive b n' w' pc') g t m (fun h => hAB (sameBar_symm _ _ h))
        rw [hw]
        rfl

theorem relAt_comm (t : TState V) {b c : Nat} (hbc : b ≠ c) :
    relAt b (relAt c t) = relAt c (relAt b t) := by
  cases t with
  | mk pc regs st =>
    cases st with
    | run => rfl
    | exited => rfl
    | bar d =>
      cases hb : decide (d = b) with
      | false =>
        cases hc : decide (d = c) with
        | false => simp only [relAt, waiting, hb, hc, cond_false'] <;> rfl
        | true => simp only [relAt, waiting, hb, hc, cond_false', cond_true'] <;> rfl
      | true =>
        cases hc : decide (d = c) with
        | false => simp only [relAt, waiting, hb, hc, cond_false', cond_true'] <;> rfl
        | true =>
          have h1 : d = b := of_decide_eq_true' hb
          have h2 : d = c := of_decide_eq_true' hc
          exact False.elim (hbc (Eq.trans (Eq.symm h1) h2))

theorem effOther_comm (A B : Act V) (f g : Bool) (t : TState V) (hAB : ¬SameBar A B) :
    effOther A f (effOther B g t) = effOther B g (effOther A f t) := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => cases B <;> rfl
  | arrive c n w pc =>
    cases B with
    | compute pc' r => rfl
    | read a r pc' => rfl
    | write a v pc' => rfl
    | atomAdd a v pc' => rfl
    | exit => rfl
    | arrive b n' w' pc' =>
      cases f <;> cases g
      · rfl
      · rfl
      · rfl
      · exact relAt_comm t hAB

theorem memEff_read (A : Act V) (m : Nat → V) {a r pc : Nat}
    (h : ¬Conflict A (Act.read a r pc)) : memEff A m a = m a := by
  cases A with
  | compute pc' r' => rfl
  | read a' r' pc' => rfl
  | arrive b n w' pc' => rfl
  | exit => rfl
  | write a' v pc' =>
    exact upd_other m v (fun e => h (Eq.symm e))
  | atomAdd a' v pc' =>
    exact upd_other m _ (fun e => h (Eq.symm e))

theorem newT_mem (A B : Act V) (g : Bool) (t : TState V) (m : Nat → V)
    (h : ¬Conflict A B) : newT B g t (memEff A m) = newT B g t m := by
  cases B with
  | compute pc r => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | arrive b n w pc => rfl
  | exit => rfl
  | read a r pc =>
    show TState.mk pc (upd t.regs r (memEff A m a)) Status.run =
      TState.mk pc (upd t.regs r (m a)) Status.run
    rw [memEff_read A m h]

/-- Updates at two different addresses commute. -/
theorem upd_swap {α : Type} (f : Nat → α) {a b : Nat} (x y : α) (h : a ≠ b) (k : Nat) :
    upd (upd f b y) a x k = upd (upd f a x) b y k := by
  cases Nat.decEq k a with
  | isTrue hk =>
    have hk' : k ≠ b := fun e => h (Eq.trans (Eq.symm hk) e)
    rw [upd_other _ _ hk', hk, upd_same, upd_same]
  | isFalse hk =>
    rw [upd_other _ _ hk]
    cases Nat.decEq k b with
    | isTrue hk' => rw [hk', upd_same, upd_same]
    | isFalse hk' => rw [upd_other _ _ hk', upd_other _ _ hk', upd_other _ _ hk]

/-- A second update at one address overrides the first. -/
theorem upd_upd {α : Type} (f : Nat → α) (a : Nat) (x y : α) (k : Nat) :
    upd (upd f a x) a y k = upd f a y k := by
  cases Nat.decEq k a with
  | isTrue hk => rw [hk, upd_same, upd_same]
  | isFalse hk => rw [upd_other _ _ hk, upd_other _ _ hk, upd_other _ _ hk]

/-- `(x + v) + w = (x + w) + v`: from commutativity and associativity. -/
theorem add_right_comm (x v w : V) :
    AccAdd.add (AccAdd.add x v) w = AccAdd.add (AccAdd.add x w) v := by
  rw [AccAdd.add_assoc, AccAdd.add_comm v w, ← AccAdd.add_assoc]

/-- Two atomic additions to one address commute: adding `v` then `w` leaves the memory that
adding `w` then `v` leaves, at every address.  This is the one place where the laws of
`AccAdd` (commutativity, associativity) are used. -/
theorem memEff_atomAdd_comm (a : Nat) (v w : V) (pa pb : Nat) (m : Nat → V) (x : Nat) :
    memEff (Act.atomAdd a v pa) (memEff (Act.atomAdd a w pb) m) x =
      memEff (Act.atomAdd a w pb) (memEff (Act.atomAdd a v pa) m) x := by
  show upd (upd m a (AccAdd.add (m a) w)) a (AccAdd.add (upd m a (AccAdd.add (m a) w) a) v) x =
    upd (upd m a (AccAdd.add (m a) v)) a (AccAdd.add (upd m a (AccAdd.add (m a) v) a) w) x
  rw [upd_same m a (AccAdd.add (m a) w), upd_same m a (AccAdd.add (m a) v), upd_upd, upd_upd,
    add_right_comm]

theorem memEff_comm (A B : Act V) (m : Nat → V) (h : ¬Conflict A B) (x : Nat) :
    memEff A (memEff B m) x = memEff B (memEff A m) x := by
  cases A with
  | compute pc r => rfl
  | read a r pc => cases B <;> rfl
  | arrive b n w pc => rfl
  | exit => rfl
  | write a v pc =>
    cases B with
    | compute pc' r => rfl
    | read a' r pc' => rfl
    | arrive b n w' pc' => rfl
    | exit => rfl
    | write a' v' pc' =>
      show upd (upd m a' v') a v x = upd (upd m a v) a' v' x
      exact upd_swap m v v' h x
    | atomAdd a' v' pc' =>
      show upd (upd m a' (AccAdd.add (m a') v')) a v x =
        upd (upd m a v) a' (AccAdd.add (upd m a v a') v') x
      rw [upd_other m v (fun e => h (Eq.symm e))]
      exact upd_swap m v _ h x
  | atomAdd a v pc =>
    cases B with
    | compute pc' r => rfl
    | read a' r pc' => rfl
    | arrive b n w' pc' => rfl
    | exit => rfl
    | write a' v' pc' =>
      show upd (upd m a' v') a (AccAdd.add (upd m a' v' a) v) x =
        upd (upd m a (AccAdd.add (m a) v)) a' v' x
      rw [upd_other m v' h]
      exact upd_swap m _ v' h x
    | atomAdd a' v' pc' =>
      cases Nat.decEq a a' with
      | isTrue e =>
        rw [← e]
        exact memEff_atomAdd_comm a v v' pc pc' m x
      | isFalse e =>
        show upd (upd m a' (AccAdd.add (m a') v')) a (AccAdd.add (upd m a' (AccAdd.add (m a') v') a) v) x =
          upd (upd m a (AccAdd.add (m a) v)) a' (AccAdd.add (upd m a (AccAdd.add (m a) v) a') v') x
        rw [upd_other m _ e, upd_other m _ (fun e' => e (Eq.symm e'))]
        exact upd_swap m _ _ e x

/-- Arrivals at different barriers change the arrival counts in either order alike. -/
theorem arrEff_comm (A B : Act V) (f g : Bool) (ar : Nat → Nat) (hAB : ¬SameBar A B) (x : Nat) :
    arrEff A f (arrEff B g ar) x = arrEff B g (arrEff A f ar) x := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl
  | arrive c n w pc =>
    cases B with
    | compute pc' r => rfl
    | read a r pc' => rfl
    | write a v pc' => rfl
    | atomAdd a v pc' => rfl
    | exit => rfl
    | arrive b n' w' pc' =>
      show upd (upd ar b (arrNew g w' (ar b))) c (arrNew f w (upd ar b (arrNew g w' (ar b)) c)) x =
        upd (upd ar c (arrNew f w (ar c))) b (arrNew g w' (upd ar c (arrNew f w (ar c)) b)) x
      rw [upd_other ar _ hAB, upd_other ar _ (fun e => hAB (Eq.symm e))]
      exact upd_swap ar _ _ hAB x

end Commute

section Diamond

variable {V : Type} [AccAdd V]

theorem same_refl (s : CState V) : Same s s := ⟨fun _ => rfl, fun _ => rfl, fun _ => rfl⟩

theorem same_symm {s t : CState V} (h : Same s t) : Same t s :=
  ⟨fun k => Eq.symm (h.1 k), fun a => Eq.symm (h.2.1 a), fun b => Eq.symm (h.2.2 b)⟩

theorem same_trans {s t u : CState V} (h1 : Same s t) (h2 : Same t u) : Same s u :=
  ⟨fun k => Eq.trans (h1.1 k) (h2.1 k), fun a => Eq.trans (h1.2.1 a) (h2.2.1 a),
    fun b => Eq.trans (h1.2.2 b) (h2.2.2 b)⟩

theorem arrEff_congr (A : Act V) (f : Bool) {ar ar' : Nat → Nat} (h : ∀ b, ar b = ar' b)
    (x : Nat) : arrEff A f ar x = arrEff A f ar' x := by
  cases A with
  | compute pc r => exact h x
  | read a r pc => exact h x
  | write a v pc => exact h x
  | atomAdd a v pc => exact h x
  | exit => exact h x
  | arrive b n w pc =>
    show upd ar b (arrNew f w (ar b)) x = upd ar' b (arrNew f w (ar' b)) x
    rw [h b]
    cases Nat.decEq x b with
    | isTrue hx => rw [hx, upd_same, upd_same]
    | isFalse hx => rw [upd_other _ _ hx, upd_other _ _ hx, h x]

theorem newT_congr (A : Act V) (f : Bool) (t : TState V) {m m' : Nat → V}
    (h : ∀ a, m a = m' a) : newT A f t m = newT A f t m' := by
  cases A with
  | compute pc r => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | arrive b n w pc => rfl
  | exit => rfl
  | read a r pc =>
    show TState.mk pc (upd t.regs r (m a)) Status.run = TState.mk pc (upd t.regs r (m' a)) Status.run
    rw [h a]

theorem memEff_congr (A : Act V) {m m' : Nat → V} (h : ∀ a, m a = m' a) (x : Nat) :
    memEff A m x = memEff A m' x := by
  cases A with
  | compute pc r => exact h x
  | read a r pc => exact h x
  | arrive b n w pc => exact h x
  | exit => exact h x
  | write a v pc =>
    show upd m a v x = upd m' a v x
    cases Nat.decEq x a with
    | isTrue hx => rw [hx, upd_same, upd_same]
    | isFalse hx => rw [upd_other _ _ hx, upd_other _ _ hx, h x]
  | atomAdd a v pc =>
    show upd m a (AccAdd.add (m a) v) x = upd m' a (AccAdd.add (m' a) v) x
    rw [h a]
    cases Nat.decEq x a with
    | isTrue hx => rw [hx, upd_same, upd_same]
    | isFalse hx => rw [upd_other _ _ hx, upd_other _ _ hx, h x]

theorem act_congr (prog : Prog V) (i : Nat) {s t : CState V} (h : Same s t) :
    act prog i s = act prog i t := by
  show prog i (s.th i).pc (s.th i).regs = prog i (t.th i).pc (t.th i).regs
  rw [h.1 i]

theorem firesA_congr (N : Nat) (A : Act V) {s t : CState V} (h : Same s t) :
    firesA N A s = firesA N A t := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl
  | arrive b n w pc =>
    show decide (n ≤ countAt b s.th N + s.arr b + 1) = decide (n ≤ countAt b t.th N + t.arr b + 1)
    rw [countAt_congr b s.th t.th (fun k => by rw [h.1 k]) N, h.2.2 b]

/-- `next` respects pointwise equality. -/
theorem next_congr (prog : Prog V) (N i : Nat) {s t : CState V} (h : Same s t) :
    Same (next prog N i s) (next prog N i t) := by
  refine ⟨?_, ?_, ?_⟩
  · intro k
    cases Nat.decEq k i with
    | isTrue hk =>
      rw [hk, next_th_self, next_th_self, act_congr prog i h, firesA_congr N _ h, h.1 i]
      exact newT_congr _ _ _ h.2.1
    | isFalse hk =>
      rw [next_th_other prog N i s hk, next_th_other prog N i t hk, act_congr prog i h,
        firesA_congr N _ h, h.1 k]
  · intro x
    rw [next_mem, next_mem, act_congr prog i h]
    exact memEff_congr _ h.2.1 x
  · intro x
    rw [next_arr, next_arr, act_congr prog i h, firesA_congr N _ h]
    exact arrEff_congr _ _ h.2.2 x

/-- The two orders of two independent actions of different running threads end in the same
state. -/
theorem next_comm (prog : Prog V) (N : Nat) (s : CState V) {i j : Nat} (hij : i ≠ j)
    (hri : (s.th i).status = Status.run) (hrj : (s.th j).status = Status.run)
    (hc : ¬Conflict (act prog i s) (act prog j s))
    (hb : ¬SameBar (act prog i s) (act prog j s)) :
    Same (next prog N j (next prog N i s)) (next prog N i (next prog N j s)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have hc' : ¬Conflict (act prog j s) (act prog i s) := fun e => hc (conflict_symm _ _ e)
  have hb' : ¬SameBar (act prog j s) (act prog i s) := fun e => hb (sameBar_symm _ _ e)
  have hB : act prog j (next prog N i s) = act prog j s := act_next prog N i s hji hrj
  have hA : act prog i (next prog N j s) = act prog i s := act_next prog N j s hij hri
  have hfB : firesA N (act prog j s) (next prog N i s) = firesA N (act prog j s) s :=
    firesA_next prog N i s (act prog j s) hb hri
  have hfA : firesA N (act prog i s) (next prog N j s) = firesA N (act prog i s) s :=
    firesA_next prog N j s (act prog i s) hb' hrj
  refine ⟨?_, ?_, ?_⟩
  · intro k
    cases Nat.decEq k j with
    | isTrue hk =>
      rw [hk, next_th_self prog N j (next prog N i s), hB, hfB, next_th_run prog N i s hji hrj,
        next_mem, newT_mem _ _ _ _ _ hc, next_th_other prog N i (next prog N j s) hji, hA, hfA,
        next_th_self prog N j s, effOther_newT _ _ _ _ _ _ hb]
    | isFalse hkj =>
      cases Nat.decEq k i with
      | isTrue hk =>
        rw [hk, next_th_self prog N i (next prog N j s), hA, hfA, next_th_run prog N j s hij hri,
          next_mem prog N j s, newT_mem _ _ _ _ _ hc', next_th_other prog N j (next prog N i s) hij,
          hB, hfB, next_th_self prog N i s, effOther_newT _ _ _ _ _ _ hb']
      | isFalse hki =>
        rw [next_th_other prog N j (next prog N i s) hkj, hB, hfB, next_th_other prog N i s hki,
          next_th_other prog N i (next prog N j s) hki, hA, hfA, next_th_other prog N j s hkj]
        exact effOther_comm _ _ _ _ _ hb'
  · intro x
    rw [next_mem prog N j (next prog N i s), next_mem prog N i s, hB,
      next_mem prog N i (next prog N j s), next_mem prog N j s, hA]
    exact memEff_comm _ _ _ hc' x
  · intro x
    rw [next_arr prog N j (next prog N i s), next_arr prog N i s, hB, hfB,
      next_arr prog N i (next prog N j s), next_arr prog N j s, hA, hfA]
    exact arrEff_comm _ _ _ _ _ hb' x

/-- The relational diamond from the commutation of `next`. -/
theorem diamond_of_comm (prog : Prog V) (N : Nat) {s s1 s2 : CState V} {i j : Nat} (hij : i ≠ j)
    (h1 : StepT prog N i s s1) (h2 : StepT prog N j s s2)
    (hcomm : Same (next prog N j (next prog N i s)) (next prog N i (next prog N j s))) :
    ∃ s3, StepT prog N j s1 s3 ∧ StepT prog N i s2 s3 := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have hri : (s.th i).status = Status.run := h1.2.1
  have hrj : (s.th j).status = Status.run := h2.2.1
  have e1 : Same (next prog N j s1) (next prog N j (next prog N i s)) := next_congr prog N j h1.2.2
  have e2 : Same (next prog N i s2) (next prog N i (next prog N j s)) := next_congr prog N i h2.2.2
  have hrj1 : (s1.th j).status = Status.run := by
    rw [h1.2.2.1 j, next_th_run prog N i s hji hrj]
    exact hrj
  have hri2 : (s2.th i).status = Status.run := by
    rw [h2.2.2.1 i, next_th_run prog N j s hij hri]
    exact hri
  refine ⟨next prog N j s1, ⟨h2.1, hrj1, same_refl _⟩, ⟨h1.1, hri2, ?_⟩⟩
  exact same_trans e1 (same_trans hcomm (same_symm e2))

/-- Local confluence (the diamond): if thread `i` steps from `s` to `s1` and another thread `j`
steps from `s` to `s2`, and their actions neither conflict (`Conflict`) nor
arrive at the same barrier, then `j` steps from `s1` and `i` from `s2` to one state `s3`. -/
theorem diamond (prog : Prog V) (N : Nat) {s s1 s2 : CState V} {i j : Nat} (hij : i ≠ j)
    (h1 : StepT prog N i s s1) (h2 : StepT prog N j s s2)
    (hc : ¬Conflict (act prog i s) (act prog j s))
    (hb : ¬SameBar (act prog i s) (act prog j s)) :
    ∃ s3, StepT prog N j s1 s3 ∧ StepT prog N i s2 s3 :=
  diamond_of_comm prog N hij h1 h2 (next_comm prog N s hij h1.2.1 h2.2.1 hc hb)

/-- An atomic addition arrives at no barrier. -/
theorem not_sameBar_atomAdd (a : Nat) (v : V) (pc : Nat) (B : Act V) :
    ¬SameBar (Act.atomAdd a v pc) B := fun h => h

/-- Two atomic additions (any addresses, in particular the same one) of different running
threads commute: both orders of the two steps give the same state. -/
theorem next_comm_atomAdd (prog : Prog V) (N : Nat) (s : CState V) {i j a c : Nat} {v w : V}
    {pa pc : Nat} (hij : i ≠ j)
    (hri : (s.th i).status = Status.run) (hrj : (s.th j).status = Status.run)
    (hA : act prog i s = Act.atomAdd a v pa) (hB : act prog j s = Act.atomAdd c w pc) :
    Same (next prog N j (next prog N i s)) (next prog N i (next prog N j s)) := by
  have hc : ¬Conflict (act prog i s) (act prog j s) := by rw [hA, hB]; exact fun h => h
  have hb : ¬SameBar (act prog i s) (act prog j s) := by rw [hA]; exact not_sameBar_atomAdd a v pa _
  exact next_comm prog N s hij hri hrj hc hb

/-- The diamond for two atomic additions of different threads (any addresses, in particular the
same one): if `i` steps from `s` to `s1` and `j` to `s2`, both by an atomic addition, then `j`
steps from `s1` and `i` from `s2` to one state. -/
theorem diamond_atomAdd (prog : Prog V) (N : Nat) {s s1 s2 : CState V} {i j a c : Nat} {v w : V}
    {pa pc : Nat} (hij : i ≠ j) (h1 : StepT prog N i s s1) (h2 : StepT prog N j s s2)
    (hA : act prog i s = Act.atomAdd a v pa) (hB : act prog j s = Act.atomAdd c w pc) :
    ∃ s3, StepT prog N j s1 s3 ∧ StepT prog N i s2 s3 :=
  diamond_of_comm prog N hij h1 h2 (next_comm_atomAdd prog N s hij h1.2.1 h2.2.1 hA hB)

/-- The diamond for an atomic addition against any action of another thread that does not
conflict with it (it is not a plain read or write of the same address). -/
theorem diamond_atomAdd_other (prog : Prog V) (N : Nat) {s s1 s2 : CState V} {i j a : Nat}
    {v : V} {pa : Nat} (hij : i ≠ j) (h1 : StepT prog N i s s1) (h2 : StepT prog N j s s2)
    (hA : act prog i s = Act.atomAdd a v pa)
    (hc : ¬Conflict (Act.atomAdd a v pa) (act prog j s)) :
    ∃ s3, StepT prog N j s1 s3 ∧ StepT prog N i s2 s3 := by
  rw [← hA] at hc
  have hb : ¬SameBar (act prog i s) (act prog j s) := by rw [hA]; exact not_sameBar_atomAdd a v pa _
  exact diamond prog N hij h1 h2 hc hb

end Diamond

section Barriers

variable {V : Type} [AccAdd V]

theorem effOther_false (A : Act V) (t : TState V) : effOther A false t = t := by
  cases A <;> rfl

theorem countAt_congr_lt (b : Nat) (th th' : Nat → TState V) :
    ∀ N, (∀ k, k < N → waiting b (th k).status = waiting b (th' k).status) →
      countAt b th N = countAt b th' N := by
  intro N
  induction N with
  | zero => intro _; rfl
  | succ N ih =>
    intro h
    show countAt b th N + cond (waiting b (th N).status) 1 0 =
      countAt b th' N + cond (waiting b (th' N).status) 1 0
    rw [ih (fun k hk => h k (Nat.leStep hk)), h N (Nat.leRefl (N + 1))]

/-- One more thread (`i < N`) waits at `b`, the others are as before: the count goes up by one. -/
theorem countAt_succ (b i : Nat) (th th' : Nat → TState V)
    (hk : ∀ k, k ≠ i → th' k = th k) (h0 : waiting b (th i).status = false)
    (h1 : waiting b (th' i).status = true) :
    ∀ N, i < N → countAt b th' N = countAt b th N + 1 := by
  intro N
  induction N with
  | zero => intro h; exact False.elim (Nat.notLtZero i h)
  | succ N ih =>
    intro hi
    show countAt b th' N + cond (waiting b (th' N).status) 1 0 =
      countAt b th N + cond (waiting b (th N).status) 1 0 + 1
    cases Nat.decEq N i with
    | isTrue e =>
      rw [e, h0, h1]
      have hc : countAt b th' i = countAt b th i :=
        countAt_congr_lt b th' th i (fun k hlt => by
          rw [hk k (fun e' => Nat.ltIrrefl i (by rw [e'] at hlt; exact hlt))])
      rw [hc]
      rfl
    | isFalse e =>
      have hiN : i < N := Nat.ltOfLeOfNe (Nat.leOfLtSucc hi) (fun e' => e (Eq.symm e'))
      rw [ih hiN, hk N e, Nat.add_right_comm]

/-- Arrivals at one barrier use one count, and the barrier has room for both arrivals (the
arrivals since it last completed, `arrivals`, plus these two are at most the count). -/
def BarFits (N : Nat) (s : CState V) : Act V → Act V → Prop
  | Act.arrive b n _ _, Act.arrive c m _ _ => b = c → n = m ∧ arrivals N b s + 2 ≤ n
  | Act.arrive _ _ _ _, Act.compute _ _ => True
  | Act.arrive _ _ _ _, Act.read _ _ _ => True
  | Act.arrive _ _ _ _, Act.write _ _ _ => True
  | Act.arrive _ _ _ _, Act.atomAdd _ _ _ => True
  | Act.arrive _ _ _ _, Act.exit => True
  | Act.compute _ _, _ => True
  | Act.read _ _ _, _ => True
  | Act.write _ _ _, _ => True
  | Act.atomAdd _ _ _, _ => True
  | Act.exit, _ => True

theorem sameBar_or (A B : Act V) :
    ¬SameBar A B ∨
      ∃ b n wa pa m wb pb, A = Act.arrive b n wa pa ∧ B = Act.arrive b m wb pb := by
  cases A with
  | compute pc r => exact Or.inl (fun h => h)
  | read a r pc => exact Or.inl (fun h => h)
  | write a v pc => exact Or.inl (fun h => h)
  | atomAdd a v pc => exact Or.inl (fun h => h)
  | exit => exact Or.inl (fun h => h)
  | arrive b n w pa =>
    cases B with
    | compute pc r => exact Or.inl (fun h => h)
    | read a r pc => exact Or.inl (fun h => h)
    | write a v pc => exact Or.inl (fun h => h)
    | atomAdd a v pc => exact Or.inl (fun h => h)
    | exit => exact Or.inl (fun h => h)
    | arrive c m w' pb =>
      cases Nat.decEq b c with
      | isTrue e => rw [e]; exact Or.inr ⟨c, n, w, pa, m, w', pb, rfl, rfl⟩
      | isFalse e => exact Or.inl e

theorem not_fires (N b n : Nat) (w : Bool) (pc : Nat) (s : CState V)
    (h : arrivals N b s + 2 ≤ n) : firesA N (Act.arrive b n w pc : Act V) s = false := by
  show decide (n ≤ arrivals N b s + 1) = false
  apply decide_eq_false'
  intro h'
  exact Nat.notSuccLeSelf (arrivals N b s + 1) (Nat.leTrans h h')

/-- An arrival that does not complete its barrier adds one arrival there: a waiting thread
(`bar.sync`) or one more arrival without waiting (`bar.arrive`). -/
theorem arrivals_arrive (prog : Prog V) (N i : Nat) (s : CState V) {b n : Nat} {w : Bool}
    {pa : Nat} (hi : i < N) (hr : (s.th i).status = Status.run)
    (hA : act prog i s = Act.arrive b n w pa) (hf : firesA N (act prog i s) s = false) :
    arrivals N b (next prog N i s) = arrivals N b s + 1 := by
  have harr : (next prog N i s).arr b = arrNew false w (s.arr b) := by
    rw [next_arr, hf, hA]
    exact upd_same s.arr b _
  show countAt b (next prog N i s).th N + (next prog N i s).arr b =
    countAt b s.th N + s.arr b + 1
  rw [harr]
  cases w with
  | true =>
    have hc : countAt b (next prog N i s).th N = countAt b s.th N + 1 := by
      apply countAt_succ b i s.th (next prog N i s).th _ _ _ N hi
      · intro k hk
        rw [next_th_other prog N i s hk, hf, effOther_false]
      · rw [hr]; rfl
      · rw [next_th_self, hf, hA]
        exact decide_eq_true' rfl
    rw [hc]
    show countAt b s.th N + 1 + s.arr b = countAt b s.th N + s.arr b + 1
    rw [Nat.add_right_comm]
  | false =>
    have hc : countAt b (next prog N i s).th N = countAt b s.th N := by
      apply countAt_congr
      intro k
      cases Nat.decEq k i with
      | isTrue hk =>
        rw [hk, next_th_self, hf, hA, hr]
        rfl
      | isFalse hk =>
        rw [next_th_other prog N i s hk, hf, effOther_false]
    rw [hc]
    rfl

/-- Two arrivals at one barrier that both do not complete it, in either order, then the
completion flag `f` of the second: the same arrival counts. -/
theorem arrEff_same_comm (b n : Nat) (wa wb : Bool) (pa pb : Nat) (f : Bool) (ar : Nat → Nat)
    (x : Nat) :
    arrEff (Act.arrive b n wb pb : Act V) f (arrEff (Act.arrive b n wa pa : Act V) false ar) x =
      arrEff (Act.arrive b n wa pa : Act V) f (arrEff (Act.arrive b n wb pb : Act V) false ar) x := by
  show upd (upd ar b (arrNew false wa (ar b))) b (arrNew f wb (upd ar b (arrNew false wa (ar b)) b)) x =
    upd (upd ar b (arrNew false wb (ar b))) b (arrNew f wa (upd ar b (arrNew false wb (ar b)) b)) x
  rw [upd_same ar b (arrNew false wa (ar b)), upd_same ar b (arrNew false wb (ar b)), upd_upd,
    upd_upd]
  cases f <;> cases wa <;> cases wb <;> rfl

/-- Two arrivals at one barrier with one count `n`, where at least two places are free,
commute: either neither completes it, or the second completes it in both orders.  Each may
wait (`bar.sync`) or not (`bar.arrive`). -/
theorem next_comm_bar (prog : Prog V) (N : Nat) (s : CState V) {i j b n : Nat} {wa wb : Bool}
    {pa pb : Nat} (hij : i ≠ j) (hi : i < N) (hj : j < N)
    (hri : (s.th i).status = Status.run) (hrj : (s.th j).status = Status.run)
    (hAi : act prog i s = Act.arrive b n wa pa) (hBj : act prog j s = Act.arrive b n wb pb)
    (hroom : arrivals N b s + 2 ≤ n) :
    Same (next prog N j (next prog N i s)) (next prog N i (next prog N j s)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have hfA : firesA N (act prog i s) s = false := by rw [hAi]; exact not_fires N b n wa pa s hroom
  have hfB : firesA N (act prog j s) s = false := by rw [hBj]; exact not_fires N b n wb pb s hroom
  have hB : act prog j (next prog N i s) = act prog j s := act_next prog N i s hji hrj
  have hA : act prog i (next prog N j s) = act prog i s := act_next prog N j s hij hri
  have hci := arrivals_arrive prog N i s hi hri hAi hfA
  have hcj := arrivals_arrive prog N j s hj hrj hBj hfB
  have hf2 : firesA N (act prog j s) (next prog N i s) =
      firesA N (act prog i s) (next prog N j s) := by
    rw [hAi, hBj]
    show decide (n ≤ arrivals N b (next prog N i s) + 1) =
      decide (n ≤ arrivals N b (next prog N j s) + 1)
    rw [hci, hcj]
  have hbb : decide (b = b) = true := decide_eq_true' rfl
  refine ⟨?_, ?_, ?_⟩
  · intro k
    cases Nat.decEq k j with
    | isTrue hk =>
      rw [hk, next_th_self prog N j (next prog N i s), hB, hf2, next_th_run prog N i s hji hrj,
        next_th_other prog N i (next prog N j s) hji, hA, next_th_self prog N j s, hfB, hAi, hBj]
      cases firesA N (Act.arrive b n wa pa) (next prog N j s) with
      | false => rfl
      | true =>
        cases wb with
        | false => rfl
        | true =>
          show TState.mk pb (s.th j).regs Status.run =
            cond (decide (b = b)) (TState.mk pb (s.th j).regs Status.run)
              (TState.mk pb (s.th j).regs (Status.bar b))
          rw [hbb]
          rfl
    | isFalse hkj =>
      cases Nat.decEq k i with
      | isTrue hk =>
        rw [hk, next_th_self prog N i (next prog N j s), hA, ← hf2,
          next_th_run prog N j s hij hri, next_th_other prog N j (next prog N i s) hij, hB,
          next_th_self prog N i s, hfA, hAi, hBj]
        cases firesA N (Act.arrive b n wb pb) (next prog N i s) with
        | false => rfl
        | true =>
          cases wa with
          | false => rfl
          | true =>
            show cond (decide (b = b)) (TState.mk pa (s.th i).regs Status.run)
                (TState.mk pa (s.th i).regs (Status.bar b)) =
              TState.mk pa (s.th i).regs Status.run
            rw [hbb]
            rfl
      | isFalse hki =>
        rw [next_th_other prog N j (next prog N i s) hkj, hB, hf2, next_th_other prog N i s hki,
          next_th_other prog N i (next prog N j s) hki, hA, next_th_other prog N j s hkj, hfA,
          hfB, effOther_false, effOther_false, hAi, hBj]
        rfl
  · intro x
    rw [next_mem prog N j (next prog N i s), next_mem prog N i s, hB,
      next_mem prog N i (next prog N j s), next_mem prog N j s, hA, hAi, hBj]
    rfl
  · intro x
    rw [next_arr prog N j (next prog N i s), next_arr prog N i s, hB, hf2,
      next_arr prog N i (next prog N j s), next_arr prog N j s, hA, hfA, hfB, hAi, hBj]
    exact arrEff_same_comm b n wa wb pa pb _ s.arr x

/-- `next_comm` with arrivals at one barrier allowed, when they fit (`BarFits`). -/
theorem next_comm_gen (prog : Prog V) (N : Nat) (s : CState V) {i j : Nat} (hij : i ≠ j)
    (hi : i < N) (hj : j < N)
    (hri : (s.th i).status = Status.run) (hrj : (s.th j).status = Status.run)
    (hc : ¬Conflict (act prog i s) (act prog j s))
    (hb : BarFits N s (act prog i s) (act prog j s)) :
    Same (next prog N j (next prog N i s)) (next prog N i (next prog N j s)) := by
  cases sameBar_or (act prog i s) (act prog j s) with
  | inl h => exact next_comm prog N s hij hri hrj hc h
  | inr ex =>
    match ex with
    | ⟨b, n, wa, pa, m, wb, pb, hA, hB⟩ =>
      rw [hA, hB] at hb
      match hb rfl with
      | ⟨hnm, hroom⟩ =>
        rw [← hnm] at hB
        exact next_comm_bar prog N s hij hi hj hri hrj hA hB hroom

/-- `diamond` with arrivals at one barrier allowed, when they fit (`BarFits`). -/
theorem diamond_gen (prog : Prog V) (N : Nat) {s s1 s2 : CState V} {i j : Nat} (hij : i ≠ j)
    (h1 : StepT prog N i s s1) (h2 : StepT prog N j s s2)
    (hc : ¬Conflict (act prog i s) (act prog j s))
    (hb : BarFits N s (act prog i s) (act prog j s)) :
    ∃ s3, StepT prog N j s1 s3 ∧ StepT prog N i s2 s3 :=
  diamond_of_comm prog N hij h1 h2 (next_comm_gen prog N s hij h1.1 h2.1 h1.2.1 h2.2.1 hc hb)

end Barriers

section Confluence

variable {V : Type} [AccAdd V]

theorem stepT_left (prog : Prog V) (N i : Nat) {s t u : CState V} (h : Same s t)
    (hs : StepT prog N i s u) : StepT prog N i t u := by
  have hr : (t.th i).status = Status.run := by
    rw [Eq.symm (h.1 i)]
    exact hs.2.1
  exact ⟨hs.1, hr, same_trans hs.2.2 (next_congr prog N i h)⟩

theorem stepT_right (prog : Prog V) (N i : Nat) {s u u' : CState V} (h : Same u u')
    (hs : StepT prog N i s u) : StepT prog N i s u' :=
  ⟨hs.1, hs.2.1, same_trans (same_symm h) hs.2.2⟩

theorem reach_trans (prog : Prog V) (N : Nat) {a b c : CState V} (hab : Reach prog N a b)
    (hbc : Reach prog N b c) : Reach prog N a c := by
  induction hab with
  | refl s => exact hbc
  | step hst _ ih => exact Reach.step hst (ih hbc)

theorem reach_snoc (prog : Prog V) (N : Nat) {a b c : CState V} (hab : Reach prog N a b)
    (hbc : Step prog N b c) : Reach prog N a c :=
  reach_trans prog N hab (Reach.step hbc (Reach.refl c))

/-- `Reach` from a state pointwise equal to `s`. -/
theorem reach_left (prog : Prog V) (N : Nat) {s t u : CState V} (h : Same s t)
    (hu : Reach prog N s u) : ∃ u', Reach prog N t u' ∧ Same u u' := by
  cases hu with
  | refl => exact ⟨t, Reach.refl t, h⟩
  | step hst hr =>
    match hst with
    | ⟨i, hi⟩ => exact ⟨u, Reach.step ⟨i, stepT_left prog N i h hi⟩ hr, same_refl u⟩

/-- A final state does not step. -/
theorem final_reach (prog : Prog V) (N : Nat) {t u : CState V} (hf : Final N t)
    (hr : Reach prog N t u) : Same t u := by
  cases hr with
  | refl => exact same_refl t
  | step hst _ =>
    match hst with
    | ⟨i, hi⟩ =>
      have h1 : (t.th i).status = Status.exited := hf i hi.1
      have h2 : (t.th i).status = Status.run := hi.2.1
      rw [h1] at h2
      cases h2

/-- The local diamond holds at every state reachable from `s0`: two steps of different
threads can be completed to a common state. -/
def Diamond (prog : Prog V) (N : Nat) (s0 : CState V) : Prop :=
  ∀ r, Reach prog N s0 r → ∀ (i j : Nat) (r1 r2 : CState V), i ≠ j →
    StepT prog N i r r1 → StepT prog N j r r2 →
      ∃ r3, StepT prog N j r1 r3 ∧ StepT prog N i r2 r3

theorem local_diamond (prog : Prog V) (N : Nat) {s0 r t1 t2 : CState V}
    (hD : Diamond prog N s0) (hr : Reach prog N s0 r) (h1 : Step prog N r t1)
    (h2 : Step prog N r t2) :
    Same t1 t2 ∨ ∃ v, Step prog N t1 v ∧ Step prog N t2 v := by
  match h1, h2 with
  | ⟨i, hi⟩, ⟨j, hj⟩ =>
    cases Nat.decEq i j with
    | isTrue e =>
      rw [e] at hi
      exact Or.inl (same_trans hi.2.2 (same_symm hj.2.2))
    | isFalse e =>
      match hD r hr i j t1 t2 e hi hj with
      | ⟨v, hv1, hv2⟩ => exact Or.inr ⟨v, ⟨j, hv1⟩, ⟨i, hv2⟩⟩

/-- One step against many: the strip lemma. -/
theorem strip (prog : Prog V) (N : Nat) {s0 s t2 : CState V} (hD : Diamond prog N s0)
    (hs : Reach prog N s t2) :
    ∀ t1, Reach prog N s0 s → Step prog N s t1 →
      ∃ u, Reach prog N t1 u ∧ (Same t2 u ∨ Step prog N t2 u) := by
  induction hs with
  | refl s =>
    intro t1 _ h1
    exact ⟨t1, Reach.refl t1, Or.inr h1⟩
  | @step s s' t2 hss' hs't2 ih =>
    intro t1 h0 h1
    cases local_diamond prog N hD h0 h1 hss' with
    | inl e =>
      match reach_left prog N (same_symm e) hs't2 with
      | ⟨u, hu, hsu⟩ => exact ⟨u, hu, Or.inl hsu⟩
    | inr ex =>
      match ex with
      | ⟨v, hv1, hv2⟩ =>
        match ih v (reach_snoc prog N h0 hss') hv2 with
        | ⟨u, hu, hor⟩ => exact ⟨u, Reach.step hv1 hu, hor⟩

/-- Confluence up to pointwise equality, from the local diamond. -/
theorem confluent (prog : Prog V) (N : Nat) {s0 s t1 : CState V} (hD : Diamond prog N s0)
    (h1 : Reach prog N s t1) :
    ∀ t2, Reach prog N s0 s → Reach prog N s t2 →
      ∃ u1 u2, Reach prog N t1 u1 ∧ Reach prog N t2 u2 ∧ Same u1 u2 := by
  induction h1 with
  | refl s =>
    intro t2 _ h2
    exact ⟨t2, t2, h2, Reach.refl t2, same_refl t2⟩
  | @step s s' t1 hss' hs't1 ih =>
    intro t2 h0 h2
    match strip prog N hD h2 s' h0 hss' with
    | ⟨w, hw, hor⟩ =>
      match ih w (reach_snoc prog N h0 hss') hw with
      | ⟨u1, u2, hu1, hu2, e⟩ =>
        cases hor with
        | inr hst => exact ⟨u1, u2, hu1, Reach.step hst hu2, e⟩
        | inl e2 =>
          match reach_left prog N (same_symm e2) hu2 with
          | ⟨u3, hu3, e3⟩ => exact ⟨u1, u3, hu1, hu3, same_trans e e3⟩

/-- If the local diamond holds at every reachable state, all final states reachable from `s0`
are the same (every thread's state and every address of the memory). -/
theorem final_unique (prog : Prog V) (N : Nat) {s0 t1 t2 : CState V} (hD : Diamond prog N s0)
    (h1 : Reach prog N s0 t1) (h2 : Reach prog N s0 t2) (f1 : Final N t1) (f2 : Final N t2) :
    Same t1 t2 := by
  match confluent prog N hD h1 t2 (Reach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    exact same_trans (final_reach prog N f1 hu1)
      (same_trans e (same_symm (final_reach prog N f2 hu2)))

/-- Race freedom: in no state reachable from `s0` do two different running threads have
conflicting next actions (`Conflict`: same address, and one a plain write, or one an atomic
addition and the other a plain read or write; two atomic additions do not conflict). -/
def RaceFree (prog : Prog V) (N : Nat) (s0 : CState V) : Prop :=
  ∀ r, Reach prog N s0 r → ∀ i j, i ≠ j → i < N → j < N →
    (r.th i).status = Status.run → (r.th j).status = Status.run →
      ¬Conflict (act prog i r) (act prog j r)

/-- The program has no barrier. -/
def NoBarrier (prog : Prog V) : Prop :=
  ∀ i pc regs b n w pc', prog i pc regs = Act.arrive b n w pc' → False

theorem noBarrier_sameBar (prog : Prog V) (h : NoBarrier prog) (i : Nat) (s : CState V)
    (B : Act V) : ¬SameBar (act prog i s) B := by
  intro hb
  cases ha : act prog i s with
  | arrive b n w pc => exact h i (s.th i).pc (s.th i).regs b n w pc ha
  | compute pc r => rw [ha] at hb; exact hb
  | read a r pc => rw [ha] at hb; exact hb
  | write a v pc => rw [ha] at hb; exact hb
  | atomAdd a v pc => rw [ha] at hb; exact hb
  | exit => rw [ha] at hb; exact hb

theorem diamond_of_raceFree (prog : Prog V) (N : Nat) (s0 : CState V) (hnb : NoBarrier prog)
    (hrf : RaceFree prog N s0) : Diamond prog N s0 := by
  intro r hr i j r1 r2 hij h1 h2
  exact diamond prog N hij h1 h2 (hrf r hr i j hij h1.1 h2.1 h1.2.1 h2.2.1)
    (noBarrier_sameBar prog hnb i r _)

/-- Confluence for programs without barriers: if no reachable state has a race, any two
complete executions from `s0` end in the same state, in particular the same memory. -/
theorem confluence_noBarrier (prog : Prog V) (N : Nat) {s0 t1 t2 : CState V}
    (hnb : NoBarrier prog) (hrf : RaceFree prog N s0)
    (h1 : Reach prog N s0 t1) (h2 : Reach prog N s0 t2) (f1 : Final N t1) (f2 : Final N t2) :
    Same t1 t2 :=
  final_unique prog N (diamond_of_raceFree prog N s0 hnb hrf) h1 h2 f1 f2

/-- Barrier discipline: in no state reachable from `s0` are two different running threads about
to arrive at one barrier (waiting or not) with different counts, or with fewer than two free
places at it (its arrivals since it last completed, `arrivals`, plus both would exceed the
count). -/
def BarriersFit (prog : Prog V) (N : Nat) (s0 : CState V) : Prop :=
  ∀ r, Reach prog N s0 r → ∀ i j, i ≠ j → i < N → j < N →
    (r.th i).status = Status.run → (r.th j).status = Status.run →
      BarFits N r (act prog i r) (act prog j r)

theorem diamond_of_raceFree_fit (prog : Prog V) (N : Nat) (s0 : CState V)
    (hrf : RaceFree prog N s0) (hfit : BarriersFit prog N s0) : Diamond prog N s0 := by
  intro r hr i j r1 r2 hij h1 h2
  exact diamond_gen prog N hij h1 h2 (hrf r hr i j hij h1.1 h2.1 h1.2.1 h2.2.1)
    (hfit r hr i j hij h1.1 h2.1 h1.2.1 h2.2.1)

/-- Confluence: if no reachable state has a race (`RaceFree`) and barriers are used with one
count per barrier and never by more threads than the count at once (`BarriersFit`), any two
complete executions from `s0` end in the same state, in particular the same memory.  Atomic
additions of different threads to one address are allowed (they are not races): whatever the
order in which they happen, the final memory is the same. -/
theorem confluence (prog : Prog V) (N : Nat) {s0 t1 t2 : CState V}
    (hrf : RaceFree prog N s0) (hfit : BarriersFit prog N s0)
    (h1 : Reach prog N s0 t1) (h2 : Reach prog N s0 t2) (f1 : Final N t1) (f2 : Final N t2) :
    Same t1 t2 :=
  final_unique prog N (diamond_of_raceFree_fit prog N s0 hrf hfit) h1 h2 f1 f2

/-- A state without steps reaches only itself. -/
theorem stuck_reach (prog : Prog V) (N : Nat) {t u : CState V}
    (hs : ∀ v, Step prog N t v → False) (hr : Reach prog N t u) : Same t u := by
  cases hr with
  | refl => exact same_refl t
  | step hst _ => exact False.elim (hs _ hst)

/-- No schedule deadlocks if one finishes: under the same hypotheses as `confluence`, if some
execution from `s0` ends with every thread exited, every state reachable from `s0` where no
thread can step has every thread exited. -/
theorem no_stuck (prog : Prog V) (N : Nat) {s0 t1 t2 : CState V}
    (hrf : RaceFree prog N s0) (hfit : BarriersFit prog N s0)
    (h1 : Reach prog N s0 t1) (f1 : Final N t1) (h2 : Reach prog N s0 t2)
    (hs : ∀ v, Step prog N t2 v → False) : Final N t2 := by
  match confluent prog N (diamond_of_raceFree_fit prog N s0 hrf hfit) h1 t2 (Reach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    have e' : Same t1 t2 := same_trans (final_reach prog N f1 hu1)
      (same_trans e (same_symm (stuck_reach prog N hs hu2)))
    intro k hk
    rw [Eq.symm (e'.1 k)]
    exact f1 k hk

end Confluence

end Sem
end Kcert
