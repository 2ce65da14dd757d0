import Kcert.RaceCheck
import Kcert.OnceCheck

/-!
# The per-thread barrier sequences of a program's solo traces

The common interface between the `Sem` side (schedules of `Sem.Step`) and the executor side
(the canonical run over the solo traces, `Named.lean`'s histories) of the argument for named
barriers, partial counts and `bar.arrive`: `OnceCheck.lean`'s per-thread sequences `act`,
read off the solo traces (`Sem.soloAct`). An arrival `bar.sync b, n` / `bar.arrive b, n` is
`Ev.arr b true` / `Ev.arr b false`; every other action is local (`Ev.loc`).
-/

namespace Kcert
namespace Members

section Defs

variable {V : Type} [Sem.AccAdd V]

/-- The barrier view of one action. -/
def evOf : Sem.Act V → Ev
  | Sem.Act.arrive b _ w _ => Ev.arr b w
  | _ => Ev.loc

/-- Thread `t`'s `i`-th solo action, as `OnceCheck.lean` sees it. -/
def soloEv (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t i : Nat) : Ev :=
  evOf (Sem.soloAct prog regs0 m0 t i)

theorem evOf_arrive {V : Type} (b n : Nat) (w : Bool) (pc : Nat) :
    evOf (Sem.Act.arrive b n w pc : Sem.Act V) = Ev.arr b w := rfl

end Defs

end Members
end Kcert
