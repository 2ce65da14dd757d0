import Kcert.WarpRace
import Kcert.NamedSound

/-!
# The race check with warp collectives: the executor's run of the view

* `warp_check_sound`: if the executor's named-barrier run of the view (`Race.canonRunN`)
  finishes, passes the barrier checks and its race check reports nothing, then `WSem` is race
  free, its barriers fit, lanes arrive only at their own instances, complete executions agree
  and none gets stuck (`Race.canonicalN_check_sound_counts` on the view, `wsound_of_view`).
* `ownSim_of_solo`: lanes arriving only at their own instances along their solo traces in the
  view (`CollOwnSolo`: what the executor's "lane is not in its own mask" check sees on its run)
  arrive only at their own instances in every schedule.
* Not vacuous (`Ex`): lane 0 stores, both lanes meet at a collective, lane 1 loads; with
  `bar.warp.sync` the check is silent and `warp_check_sound` applies with every hypothesis
  discharged (`ex_sound`); with `shfl.sync` in its place the check reports the pair
  (`ex_shfl_reported`), as the Rust does.
-/

namespace Kcert
namespace WarpRace

open Sem
open Warp

section Run

variable {V : Type} [AccAdd V]

/-- Every lane below `N` arrives, along its solo trace in the view (what the executor's run
follows, reads returning `m0`), only at collective instances it is a lane of: the executor's
lack of "lane is not in its own mask" findings on a run that takes every thread to its exit. -/
def CollOwnSolo (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) : Prop :=
  ∀ t k, t < N → ∀ g v res pc',
    wp t (solo (view memb sync N B wp) regs0 m0 t k).pc
      (solo (view memb sync N B wp) regs0 m0 t k).regs = WAct.coll g v res pc' → memb g t = true

theorem collOwnSolo_of_N (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat)
    (wp : WProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (h : CollOwnN memb wp N) :
    CollOwnSolo memb sync N B wp regs0 m0 :=
  fun t _ ht g v res pc' e => h t ht _ _ g v res pc' e

/-- The key of a collective arrival is the same from related registers. -/
theorem coll_rel (sync : Nat → Bool) {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V}
    {A A' : WAct V} (h : WActRel sync R r r' A A') {g : Nat} {v : Nat → V} {res : ExtFun V}
    {pc : Nat} (e : A = WAct.coll g v res pc) : ∃ v' res', A' = WAct.coll g v' res' pc := by
  rw [e] at h
  cases A' with
  | base _ => exact False.elim h
  | coll g' v' res' pc' =>
    match h with
    | ⟨e1, e2, _, _⟩ => rw [← e1, ← e2]; exact ⟨v', res', rfl⟩

/-- **Ownership along the simulation from the solo traces.**  Under `WDataIndep` and one count
per id for the view's threads below `N` (`CountsAt` of `Race.progN`), a lane's arrivals along its
solo trace decide its arrivals in every schedule: a reachable view state's thread is related
to one of its solo states (`Members.hinv_sched`), and related registers arrive at the same
instance. -/
theorem ownSim_of_solo (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 m1 : Nat → V) (mb : Nat → Nat)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : Members.CountsAt (Race.progN (view memb sync N B wp) N) regs0 m0 mb)
    (hsolo : CollOwnSolo memb sync N B wp regs0 m0) :
    OwnSim memb sync R N B wp (init regs0 m1) := by
  intro st u i hu hS hi _ hni g v res pc hw
  have h0 := hS.1 i
  rw [hni] at h0
  match Members.sched_of_reach _ N (Race.reach_progN _ N hu) with
  | ⟨h, hs⟩ =>
    have H := Members.hinv_sched (Race.progN (view memb sync N B wp) N) N regs0 m0 m1 R mb
      (Race.dataIndep_progN _ N (dataIndep_view memb sync R N B wp hind)) hR0 hC hs
    have H1 := (H.2.2 i hi).1
    rw [Race.solo_progN _ regs0 m0 hi] at H1
    have r1 : WActRel sync (R i) (st.s.th i).regs (u.th i).regs (wact wp i st)
        (wp i (st.s.th i).pc (u.th i).regs) :=
      hind i (st.s.th i).pc (st.s.th i).regs (u.th i).regs h0.2.2
    match coll_rel sync r1 hw with
    | ⟨v1, res1, e1⟩ =>
      have r2 := hind i (u.th i).pc (u.th i).regs
        (solo (view memb sync N B wp) regs0 m0 i (Members.cnt i h)).regs H1.2
      rw [← h0.2.1] at r2
      match coll_rel sync r2 e1 with
      | ⟨v2, res2, e2⟩ =>
        rw [h0.2.1, H1.1] at e2
        exact hsolo i _ hi g v2 res2 pc e2

/-- **The executor's check with warp collectives, on the view.**  Under data independence with
collectives (`WDataIndep`), program barrier ids below `B` (`BaseIds`) and every lane below `N`
arriving, along its solo trace in the view, only at collective instances it belongs to
(`CollOwnSolo`: no "lane is not in its own mask" finding): if the named-barrier run of the view
(`Race.canonRunN`, with each `bar.warp.sync` instance a barrier `B + g` of its lanes, every
other collective a register step) finishes, its barrier checks pass and its vector-clock race
check (`Race.checkN`) reports nothing, then `WSem` from the launch is race free
(`WRaceFree`), its barriers fit (`WBarriersFit`), `CollOwnR` holds, any two complete
executions end in the same state, and if one finishes no execution gets stuck. -/
theorem warp_check_sound (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hown : CollOwnSolo memb sync N B wp regs0 m0) (Bf F : Nat)
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
  | ⟨hrf, hfit, _, _⟩ =>
    wsound_of_view memb sync R N B wp regs0 m1 hind hR0 hB
      (ownSim_of_solo memb sync R N B wp regs0 m0 m1 mb hind hR0
        (Race.countsAt_progN _ regs0 m0 N hpos (Race.canonN_counts hSz hfin hd hend hco)) hown)
      hrf hfit

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

def memb2 (g _ : Nat) : Bool := decide (g = 0)

/-- The program, with the collective's result `res` (`syncRes` for `bar.warp.sync`). -/
def progC (res : Nat → (Nat → Nat) → ExtFun Nat) : WProg Nat := fun i pc regs =>
  match pc with
  | 0 => cond (decide (i = 0)) (WAct.base (Act.write 0 1 1)) (WAct.base (Act.compute 1 (fun _ => 0)))
  | 1 => WAct.coll 0 regs (res i regs) 2
  | 2 => cond (decide (i = 1)) (WAct.base (Act.read 0 0 3)) (WAct.base (Act.compute 3 (fun _ => 0)))
  | _ => WAct.base Act.exit

def progS : WProg Nat := progC (fun _ regs => syncRes regs)

/-- With `shfl.sync.bfly` (lane `i` gets lane `1 - i`'s register 0 in register 1). -/
def progH : WProg Nat := progC (fun i regs => shflRes (1 - i) 0 1 0 regs)

def syncAll (_ : Nat) : Bool := true
def syncNone (_ : Nat) : Bool := false

def regs0 (_ _ : Nat) : Nat := 0
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

/-- The history of the executor's run of the view with `bar.warp.sync` (latest first): lane 0's
store, both arrivals at the barrier `0` of the instance, its completion with 2 lanes, lane 1's
load. -/
theorem ex_run :
    Race.canonRunN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6 =
      [Race.EventN.act 1 (Act.read 0 0 3), Race.EventN.act 0 (Act.compute 3 (fun _ => 0)),
       Race.EventN.complete 0 2, Race.EventN.bar 1 0 true,
       Race.EventN.act 1 (Act.compute 1 (fun _ => 0)), Race.EventN.bar 0 0 true,
       Race.EventN.act 0 (Act.write 0 1 1)] := rfl

theorem ex_drain :
    Members.Drain2 (fun _ => [0, 1]) (Race.canonRunN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6) :=
  Members.drain2_of _ _ rfl

theorem ex_end : ∀ b, Members.pendI (Race.canonRunN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6) b = [] := by
  intro b
  rw [ex_run]
  show Sem.upd _ 0 (Race.dropL 2 _) b = []
  cases Nat.decEq b 0 with
  | isTrue e => rw [e, upd_same]; rfl
  | isFalse e =>
    rw [upd_other _ _ e]
    show Sem.upd _ 0 _ b = []
    rw [upd_other _ _ e]
    show Sem.upd _ 0 _ b = []
    rw [upd_other _ _ e]
    rfl

theorem ex_rust3 :
    Members.RustCheck3 2 (Race.soloEvB (view memb2 syncAll 2 0 progS) regs0 m0 2)
      (Race.canonRunN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6) := by
  rw [ex_run]
  exact Members.rust3_cons trivial (Members.rust3_cons trivial (Members.rust3_cons trivial
    (Members.rust3_cons (Members.head3_none rfl) (Members.rust3_cons trivial
    (Members.rust3_cons (Members.head3_none rfl) (Members.rust3_cons trivial
    (Members.rust3_nil 2 _)))))))

/-- Every arrival of the view has count 2 (the two lanes). -/
theorem ex_view_cnt (t pc : Nat) (regs : Nat → Nat) {b n : Nat} {w : Bool} {pc' : Nat}
    (h : view memb2 syncAll 2 0 progS t pc regs = Act.arrive b n w pc') : n = 2 := by
  match pc, h with
  | 0, h =>
    have h' : viewAct memb2 syncAll 2 0 regs (cond (decide (t = 0)) (WAct.base (Act.write 0 1 1))
        (WAct.base (Act.compute 1 (fun _ => 0)))) = Act.arrive b n w pc' := h
    cases hd : decide (t = 0) with
    | true =>
      rw [hd] at h'
      have h2 : (Act.write 0 1 1 : Act Nat) = Act.arrive b n w pc' := h'
      cases h2
    | false =>
      rw [hd] at h'
      have h2 : (Act.compute 1 (fun _ => 0) : Act Nat) = Act.arrive b n w pc' := h'
      cases h2
  | 1, h =>
    have h' : Act.arrive (0 + 0) (nLanes memb2 2 0) true 2 = Act.arrive b n w pc' := h
    cases h'
    rfl
  | 2, h =>
    have h' : viewAct memb2 syncAll 2 0 regs (cond (decide (t = 1)) (WAct.base (Act.read 0 0 3))
        (WAct.base (Act.compute 3 (fun _ => 0)))) = Act.arrive b n w pc' := h
    cases hd : decide (t = 1) with
    | true =>
      rw [hd] at h'
      have h2 : (Act.read 0 0 3 : Act Nat) = Act.arrive b n w pc' := h'
      cases h2
    | false =>
      rw [hd] at h'
      have h2 : (Act.compute 3 (fun _ => 0) : Act Nat) = Act.arrive b n w pc' := h'
      cases h2
  | _ + 3, h => cases h

theorem ex_counts :
    Race.CountsOK (view memb2 syncAll 2 0 progS) regs0 m0
      (Race.canonRunN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6) :=
  Race.countsOK_of_cnt (mb := fun _ => 2)
    (fun t i _ _ _ _ _ h => ex_view_cnt t _ _ h)

/-- The program reads no register: data independent for the trivial relation. -/
theorem ex_indep : WDataIndep syncAll progS (fun _ _ _ _ => True) := by
  intro i pc regs regs' _
  match pc with
  | 0 =>
    show WActRel syncAll (fun _ _ _ => True) regs regs'
      (cond (decide (i = 0)) (WAct.base (Act.write 0 1 1)) (WAct.base (Act.compute 1 (fun _ => 0))))
      (cond (decide (i = 0)) (WAct.base (Act.write 0 1 1)) (WAct.base (Act.compute 1 (fun _ => 0))))
    cases decide (i = 0) with
    | true => exact ⟨rfl, rfl, trivial⟩
    | false => exact ⟨rfl, trivial⟩
  | 1 => exact ⟨rfl, rfl, fun _ => trivial, trivial⟩
  | 2 =>
    show WActRel syncAll (fun _ _ _ => True) regs regs'
      (cond (decide (i = 1)) (WAct.base (Act.read 0 0 3)) (WAct.base (Act.compute 3 (fun _ => 0))))
      (cond (decide (i = 1)) (WAct.base (Act.read 0 0 3)) (WAct.base (Act.compute 3 (fun _ => 0))))
    cases decide (i = 1) with
    | true => exact ⟨rfl, rfl, rfl, fun _ _ => trivial⟩
    | false => exact ⟨rfl, trivial⟩
  | _ + 3 => exact trivial

theorem ex_baseIds : BaseIds progS 0 := by
  intro i pc regs b n w pc' h
  match pc, h with
  | 0, h =>
    have h' : cond (decide (i = 0)) (WAct.base (Act.write 0 1 1))
        (WAct.base (Act.compute 1 (fun _ => 0))) = WAct.base (Act.arrive b n w pc') := h
    cases hd : decide (i = 0) with
    | true =>
      rw [hd] at h'
      have h2 : (WAct.base (Act.write 0 1 1) : WAct Nat) = WAct.base (Act.arrive b n w pc') := h'
      cases h2
    | false =>
      rw [hd] at h'
      have h2 : (WAct.base (Act.compute 1 (fun _ => 0)) : WAct Nat) = WAct.base (Act.arrive b n w pc') := h'
      cases h2
  | 1, h => cases h
  | 2, h =>
    have h' : cond (decide (i = 1)) (WAct.base (Act.read 0 0 3))
        (WAct.base (Act.compute 3 (fun _ => 0))) = WAct.base (Act.arrive b n w pc') := h
    cases hd : decide (i = 1) with
    | true =>
      rw [hd] at h'
      have h2 : (WAct.base (Act.read 0 0 3) : WAct Nat) = WAct.base (Act.arrive b n w pc') := h'
      cases h2
    | false =>
      rw [hd] at h'
      have h2 : (WAct.base (Act.compute 3 (fun _ => 0)) : WAct Nat) = WAct.base (Act.arrive b n w pc') := h'
      cases h2
  | _ + 3, h => cases h

theorem ex_own : CollOwnN memb2 progS 2 := by
  intro i _ pc regs g v res pc' h
  match pc, h with
  | 0, h =>
    have h' : cond (decide (i = 0)) (WAct.base (Act.write 0 1 1))
        (WAct.base (Act.compute 1 (fun _ => 0))) = WAct.coll g v res pc' := h
    cases hd : decide (i = 0) with
    | true =>
      rw [hd] at h'
      have h2 : (WAct.base (Act.write 0 1 1) : WAct Nat) = WAct.coll g v res pc' := h'
      cases h2
    | false =>
      rw [hd] at h'
      have h2 : (WAct.base (Act.compute 1 (fun _ => 0)) : WAct Nat) = WAct.coll g v res pc' := h'
      cases h2
  | 1, h => cases h; rfl
  | 2, h =>
    have h' : cond (decide (i = 1)) (WAct.base (Act.read 0 0 3))
        (WAct.base (Act.compute 3 (fun _ => 0))) = WAct.coll g v res pc' := h
    cases hd : decide (i = 1) with
    | true =>
      rw [hd] at h'
      have h2 : (WAct.base (Act.read 0 0 3) : WAct Nat) = WAct.coll g v res pc' := h'
      cases h2
    | false =>
      rw [hd] at h'
      have h2 : (WAct.base (Act.compute 3 (fun _ => 0)) : WAct Nat) = WAct.coll g v res pc' := h'
      cases h2
  | _ + 3, h => cases h

/-- **`warp_check_sound` applies to the `bar.warp.sync` example**, every hypothesis evaluated
on its run: for every initial memory, `WSem` (lane 0 stores, `bar.warp.sync`, lane 1 loads)
has no race in any schedule, its barriers fit, lanes arrive only at their own instance, all
final states agree and no schedule gets stuck. -/
theorem ex_sound (m1 : Nat → Nat) :
    WRaceFree memb2 progS 2 (winit regs0 m1) ∧ WBarriersFit memb2 progS 2 (winit regs0 m1) ∧
    CollOwnR memb2 progS 2 (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WReach memb2 progS 2 (winit regs0 m1) t2 →
      WFinal 2 t1 → WFinal 2 t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WFinal 2 t1 →
      WReach memb2 progS 2 (winit regs0 m1) t2 → (∀ v, WStep memb2 progS 2 t2 v → False) →
      WFinal 2 t2) :=
  by
  have h := warp_check_sound memb2 syncAll (fun _ _ _ _ => True) 2 0 progS regs0 m0 m1 ex_indep
    (fun _ => trivial) ex_baseIds (collOwnSolo_of_N memb2 syncAll 2 0 progS regs0 m0 ex_own) 1 6 (fun _ => 2) (fun _ => [0, 1])
    (fun _ => Nat.zeroLtSucc 1) Members.pc_sized
  have h1 := h ex_sync_accepted.1
  have h2 := h1 ex_drain
  have h3 := h2 ex_end
  have h4 := h3 ex_counts
  have h5 := h4 ex_rust3
  exact h5 ex_sync_accepted.2

end Ex

end WarpRace
end Kcert
