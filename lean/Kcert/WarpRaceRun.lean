import Kcert.WarpRace
import Kcert.NamedSound

/-!
# The race check with warp collectives: the executor's run of the view

(Header completed below.)
-/

namespace Kcert
namespace WarpRace

open Sem
open Warp

section Run

variable {V : Type} [AccAdd V]

/-- **The executor's check with warp collectives, on the view.**  Under data independence with
collectives (`WDataIndep`), program barrier ids below `B` (`BaseIds`) and every lane arriving
only at collective instances it belongs to (`CollOwn`): if the named-barrier run of the view
(`Race.canonRunN`, with each `bar.warp.sync` instance a barrier `B + g` of its lanes, every
other collective a register step) finishes, its barrier checks pass and its vector-clock race
check (`Race.checkN`) reports nothing, then `WSem` from the launch is race free
(`WRaceFree`), its barriers fit (`WBarriersFit`), `CollOwnR` holds, any two complete
executions end in the same state, and if one finishes no execution gets stuck. -/
theorem warp_check_sound (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hown : CollOwn memb wp) (Bf F : Nat)
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hSz : Members.Sized mb S)
    (hfin : Race.FinishedN (view memb sync N B wp) regs0 m0 N Bf F = true)
    (hd : Members.Drain2 S (Race.canonRunN (view memb sync N B wp) regs0 m0 N Bf F))
    (hend : ∀ b, Members.pendI (Race.canonRunN (view memb sync N B wp) regs0 m0 N Bf F) b = [])
    (hco : Race.CountsOK (view memb sync N B wp) regs0 m0
      (Race.canonRunN (view memb sync N B wp) regs0 m0 N Bf F))
    (hr : Members.RustCheck3 N (Race.soloEvB (view memb sync N B wp) regs0 m0 N)
      (Race.canonRunN (view memb sync N B wp) regs0 m0 N Bf F))
    (hc : Race.checkN Race.noSameN N
      (Race.canonRunN (view memb sync N B wp) regs0 m0 N Bf F) = false) :
    WRaceFree memb wp N (winit regs0 m1) ∧ WBarriersFit memb wp N (winit regs0 m1) ∧
    CollOwnR memb wp N (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WReach memb wp N (winit regs0 m1) t2 →
      WFinal N t1 → WFinal N t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WFinal N t1 →
      WReach memb wp N (winit regs0 m1) t2 → (∀ v, WStep memb wp N t2 v → False) →
      WFinal N t2) :=
  match Race.canonicalN_check_sound_counts (view memb sync N B wp) N Bf F regs0 m0 m1 R
      (dataIndep_view memb sync R N B wp hind) hR0 mb S hpos hSz hfin hd hend hco hr hc with
  | ⟨hrf, hfit, _, _⟩ => wsound_of_view memb sync R N B wp regs0 m1 hind hR0 hB hown hrf hfit

end Run

/-! ## Non-vacuity: lane 0 stores, the lanes meet at a collective, lane 1 loads

Two lanes (threads 0 and 1) of one instance (key 0).  `pc` 0: lane 0 `st.shared [0], 1`, lane 1
a register step; `pc` 1: both arrive at the collective; `pc` 2: lane 1 `ld.shared r0, [0]`,
lane 0 a register step; `pc` 3: `exit`.  With `bar.warp.sync` (`sync 0 = true`) the store is
ordered before the load and the check of the view reports nothing; with a `shfl.sync` in its
place (`sync 0 = false`) the view has no edge between them and the check reports the race, as
the Rust does (`complete_collective` joins clocks only for `WarpSync`). -/

namespace Ex

instance accAddNat : AccAdd Nat := ⟨Nat.add, Nat.add_comm, Nat.add_assoc⟩

/-- `bar.warp.sync` changes no register. -/
def syncRes (regs : Nat → Nat) : ExtFun Nat := ⟨fun _ => regs, fun _ _ _ => rfl⟩

def memb2 (g k : Nat) : Bool := decide (g = 0) && decide (k < 2)

/-- The program, with the collective's result `res` (`syncRes` for `bar.warp.sync`). -/
def progC (res : Nat → (Nat → Nat) → ExtFun Nat) : WProg Nat := fun i pc regs =>
  match pc with
  | 0 => cond (decide (i = 0)) (WAct.base (Act.write 0 1 1)) (WAct.base (Act.compute 1 regs))
  | 1 => WAct.coll 0 regs (res i regs) 2
  | 2 => cond (decide (i = 1)) (WAct.base (Act.read 0 0 3)) (WAct.base (Act.compute 3 regs))
  | _ => WAct.base Act.exit

def progS : WProg Nat := progC (fun _ regs => syncRes regs)

/-- With `shfl.sync.bfly` (lane `i` gets lane `1 - i`'s register 0 in register 1). -/
def progH : WProg Nat := progC (fun i regs => shflRes (1 - i) 0 1 0 regs)

def syncAll (_ : Nat) : Bool := true
def syncNone (_ : Nat) : Bool := false

def regs0 (k r : Nat) : Nat := cond (decide (r = 0)) (10 * (k + 1)) 0
def m0 (_ : Nat) : Nat := 0

/-- `bar.warp.sync`: the executor's run of the view finishes and its race check reports
nothing. -/
theorem ex_sync_accepted :
    Race.FinishedN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6 = true ∧
    Race.checkN Race.noSameN 2 (Race.canonRunN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6) =
      false := ⟨rfl, rfl⟩

/-- `shfl.sync` in its place: the run finishes, and the race check reports the store and the
load (no clock edge at a shuffle). -/
theorem ex_shfl_reported :
    Race.FinishedN (view memb2 syncNone 2 0 progH) regs0 m0 2 1 6 = true ∧
    Race.checkN Race.noSameN 2 (Race.canonRunN (view memb2 syncNone 2 0 progH) regs0 m0 2 1 6) =
      true := ⟨rfl, rfl⟩

end Ex

end WarpRace
end Kcert
