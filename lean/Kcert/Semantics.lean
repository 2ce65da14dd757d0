import Kcert.Compat

/-!
# Interleaving semantics of one CTA

Rust: `checker/src/exec/mod.rs` (`Thread`, `Status`, `Cta`, `run_cta`, `resolve_barriers`),
`checker/src/exec/step.rs` (what one instruction does), `checker/src/lower/ir.rs` (`Op`).

An abstract model of the threads of one CTA, each running its own lowered program, over one
shared memory.  The program is given abstractly (`Prog`): from a thread's id, `pc` and
registers it says what the thread's next instruction does (`Act`): a register step, a read of
one address into one register, a write of one value to one address, an arrival at barrier `b`
with thread count `n` (PTX `bar.sync b, n`), or `exit`.  Addresses and the value written are
computed from the registers only, as in the executor (`step.rs` evaluates addresses from
registers; kernels are structured, DESIGN.md).

The small-step relation `Step` picks any running thread and performs its next action
(`next`).  A barrier arrival that brings the number of waiting threads to the count releases
every thread waiting at that barrier, and the arriving thread goes on; otherwise the arriving
thread waits.  Exited and waiting threads never step.  The Rust executor's canonical schedule
(every thread runs until it blocks or exits, then barriers are released) is one of the
schedules of `Step`.

States are compared pointwise (`Same`), so that no proof needs function extensionality (which
in Lean core rests on `Quot.sound`): `StepT prog N i s s'` says that `s'` agrees at every
thread and address with `next prog N i s`.

* `diamond`: two steps of different threads from one state whose actions do not conflict
  (same address, one a write) and do not arrive at the same barrier can be completed to a
  common state, each thread doing its step after the other's.
-/

namespace Kcert
namespace Sem

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

/-- What a thread's next instruction does. -/
inductive Act (V : Type) where
  -- register and control flow only (`Mov`, `Int`, `Float`, `Setp`, `Bra`, ...): new `pc`, registers
  | compute (pc : Nat) (regs : Nat → V)
  -- `Ld`: register `r` gets the value at address `a`; then `pc`
  | read (a : Nat) (r : Nat) (pc : Nat)
  -- `St`: address `a` gets `v`; then `pc`
  | write (a : Nat) (v : V) (pc : Nat)
  -- `Bar` with `wait`: arrive at barrier `b`, which completes with `n` threads; then `pc`
  | arrive (b : Nat) (n : Nat) (pc : Nat)
  -- `Exit`
  | exit

/-- A per-thread program: thread id, `pc` and registers give the next action. -/
def Prog (V : Type) : Type := Nat → Nat → (Nat → V) → Act V

section Defs

variable {V : Type}

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

/-- Whether action `A`, done when `th` are the threads, completes its barrier: the arriving
thread plus those already waiting reach the count. -/
def firesA (N : Nat) (A : Act V) (th : Nat → TState V) : Bool :=
  match A with
  | Act.arrive b n _ => decide (n ≤ countAt b th N + 1)
  | _ => false

/-- The effect of another thread's action `A` (which completes its barrier iff `f`) on a
thread state. -/
def effOther (A : Act V) (f : Bool) (t : TState V) : TState V :=
  match A with
  | Act.arrive b _ _ => cond f (relAt b t) t
  | _ => t

/-- The new state of the thread doing `A`, from its state `t` and the memory `m`. -/
def newT (A : Act V) (f : Bool) (t : TState V) (m : Nat → V) : TState V :=
  match A with
  | Act.compute pc r => ⟨pc, r, Status.run⟩
  | Act.read a r pc => ⟨pc, upd t.regs r (m a), Status.run⟩
  | Act.write _ _ pc => ⟨pc, t.regs, Status.run⟩
  | Act.arrive b _ pc => ⟨pc, t.regs, cond f Status.run (Status.bar b)⟩
  | Act.exit => ⟨t.pc, t.regs, Status.exited⟩

/-- The memory after `A`. -/
def memEff (A : Act V) (m : Nat → V) : Nat → V :=
  match A with
  | Act.write a v _ => upd m a v
  | _ => m

/-- Thread `i`'s next action in `s`. -/
def act (prog : Prog V) (i : Nat) (s : CState V) : Act V :=
  prog i (s.th i).pc (s.th i).regs

/-- The state after thread `i` of a CTA of `N` threads does its next action. -/
def next (prog : Prog V) (N i : Nat) (s : CState V) : CState V :=
  { th := upd (fun k => effOther (act prog i s) (firesA N (act prog i s) s.th) (s.th k)) i
      (newT (act prog i s) (firesA N (act prog i s) s.th) (s.th i) s.mem),
    mem := memEff (act prog i s) s.mem }

/-- Pointwise equality of states. -/
def Same (s t : CState V) : Prop := (∀ k, s.th k = t.th k) ∧ ∀ a, s.mem a = t.mem a

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

/-- The launch: every thread at `pc` 0, running, with registers `regs k` (thread ids). -/
def init (regs : Nat → Nat → V) (mem : Nat → V) : CState V :=
  { th := fun k => ⟨0, regs k, Status.run⟩, mem := mem }

/-- Two actions conflict: they access the same address and at least one writes. -/
def Conflict : Act V → Act V → Prop
  | Act.read a _ _, Act.write c _ _ => a = c
  | Act.write a _ _, Act.read c _ _ => a = c
  | Act.write a _ _, Act.write c _ _ => a = c
  | Act.read _ _ _, Act.read _ _ _ => False
  | Act.read _ _ _, Act.compute _ _ => False
  | Act.read _ _ _, Act.arrive _ _ _ => False
  | Act.read _ _ _, Act.exit => False
  | Act.write _ _ _, Act.compute _ _ => False
  | Act.write _ _ _, Act.arrive _ _ _ => False
  | Act.write _ _ _, Act.exit => False
  | Act.compute _ _, _ => False
  | Act.arrive _ _ _, _ => False
  | Act.exit, _ => False

/-- Two actions arrive at the same barrier. -/
def SameBar : Act V → Act V → Prop
  | Act.arrive b _ _, Act.arrive c _ _ => b = c
  | _, _ => False

end Defs

end Sem
end Kcert
