import Kcert.WarpMemView

/-!
# The simulation by the view of memory collectives: the thread steps (`WarpMemSim`)

`liftS enc r`: an `MSem` state `r` seen in the view's `pc` space (each thread at `enc pc 0`,
registers, status, memory and barrier arrivals unchanged).

Proved here: `mview_act_lift` (at `liftS enc r` an enabled thread's view action is its `Sem`
action, `pc` moved), `mview_next_lift` (the view's step of that thread from `liftS enc r` is
`liftS enc` of the `MSem` thread step), `msim_stepT` (an `MSem` thread step is matched by one
view step, relation `Same u (liftS enc r)` kept), and `msim_reachT`: every state reached by
`MSem` thread steps only (`MReachT`) is related to a reachable view state.

NOT here: instance completions (a completion must be matched by a run of sub-steps per lane,
and the registers after it differ: all lanes' contributions in `MSem` vs none in the view, so
the relation must be up to a data-independence relation `MDataIndep`, not defined here); hence
not `msim_reach` for all `MSem` runs, nor `viewNC_of_raceFree` / `mraceFree_of_view`.
-/

namespace Kcert
namespace WarpMem

open Sem

section Lift

variable {V : Type} [AccAdd V]

/-- A thread state with its `pc` moved to the view's sub-step 0. -/
def liftT (enc : Nat → Nat → Nat) (t : TState V) : TState V := ⟨enc t.pc 0, t.regs, t.status⟩

/-- An `MSem` state in the view's `pc` space. -/
def liftS (enc : Nat → Nat → Nat) (r : CState V) : CState V :=
  ⟨fun k => liftT enc (r.th k), r.mem, r.arr⟩

theorem countAt_lift (enc : Nat → Nat → Nat) (b : Nat) (r : CState V) (n : Nat) :
    countAt b (liftS enc r).th n = countAt b r.th n :=
  countAt_congr b (liftS enc r).th r.th (fun _ => rfl) n

theorem firesA_lift (enc : Nat → Nat → Nat) (N : Nat) (A : Act V) (r : CState V) :
    firesA N (shiftA enc A) (liftS enc r) = firesA N A r := by
  cases A with
  | compute pc x => rfl
  | read a x pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | arrive b n w pc =>
    show decide (n ≤ countAt b (liftS enc r).th N + r.arr b + 1) =
      decide (n ≤ countAt b r.th N + r.arr b + 1)
    rw [countAt_lift]
  | exit => rfl

theorem relAt_lift (enc : Nat → Nat → Nat) (b : Nat) (t : TState V) :
    relAt b (liftT enc t) = liftT enc (relAt b t) := by
  show cond (waiting b t.status) (⟨enc t.pc 0, t.regs, Status.run⟩ : TState V)
      ⟨enc t.pc 0, t.regs, t.status⟩ = liftT enc (cond (waiting b t.status) { t with status := Status.run } t)
  cases waiting b t.status <;> rfl

theorem effOther_lift (enc : Nat → Nat → Nat) (A : Act V) (f : Bool) (t : TState V) :
    effOther (shiftA enc A) f (liftT enc t) = liftT enc (effOther A f t) := by
  cases A with
  | compute pc x => rfl
  | read a x pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | arrive b n w pc =>
    cases f with
    | true => exact relAt_lift enc b t
    | false => rfl
  | exit => rfl

theorem newT_lift (enc : Nat → Nat → Nat) (A : Act V) (f : Bool) (t : TState V) (m : Nat → V) :
    newT (shiftA enc A) f (liftT enc t) m = liftT enc (newT A f t m) := by
  cases A <;> rfl

theorem memEff_shift (enc : Nat → Nat → Nat) (A : Act V) (m : Nat → V) :
    memEff (shiftA enc A) m = memEff A m := by
  cases A <;> rfl

theorem arrEff_shift (enc : Nat → Nat → Nat) (A : Act V) (f : Bool) (ar : Nat → Nat) :
    arrEff (shiftA enc A) f ar = arrEff A f ar := by
  cases A <;> rfl

theorem upd_lift (enc : Nat → Nat → Nat) (g : Nat → TState V) (i : Nat) (x : TState V) (k : Nat) :
    upd (fun k => liftT enc (g k)) i (liftT enc x) k = liftT enc (upd g i x k) := by
  cases Nat.decEq k i with
  | isTrue h => rw [h, upd_same, upd_same]
  | isFalse h => rw [upd_other _ _ h, upd_other _ _ h]

end Lift

section Step

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

/-- The decoding hypothesis used here, at sub-step 0 only. -/
theorem hdec0_of {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p j, dec (enc p j) = (p, j)) : ∀ p, dec (enc p 0) = (p, 0) := fun p => hdec p 0

/-- At `liftS enc r` an enabled thread's view action is its `Sem` action, `pc` moved. -/
theorem mview_act_lift {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p, dec (enc p 0) = (p, 0)) (sc : Nat) {r : CState V} {i : Nat}
    (h : Enabled memb mp N r (MLbl.thr i)) :
    act (mview enc dec sc mp) i (liftS enc r) = shiftA enc (act (mbase mp) i r) := by
  show mviewAct enc sc (dec (enc (r.th i).pc 0)).1 (dec (enc (r.th i).pc 0)).2 (r.th i).regs
      (mp i (dec (enc (r.th i).pc 0)).1 (r.th i).regs) = _
  rw [hdec]
  exact vAct_base memb mp N enc sc h 0

/-- The view's step of an enabled thread from `liftS enc r` is the lift of the `MSem` step. -/
theorem mview_next_lift {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p, dec (enc p 0) = (p, 0)) (sc : Nat) {r : CState V} {i : Nat}
    (h : Enabled memb mp N r (MLbl.thr i)) :
    Same (next (mview enc dec sc mp) N i (liftS enc r)) (liftS enc (next (mbase mp) N i r)) := by
  have ha := mview_act_lift memb mp N hdec sc h
  refine ⟨fun k => ?_, fun a => ?_, fun b => ?_⟩
  · show upd (fun k => effOther (act (mview enc dec sc mp) i (liftS enc r))
        (firesA N (act (mview enc dec sc mp) i (liftS enc r)) (liftS enc r)) (liftT enc (r.th k))) i
        (newT (act (mview enc dec sc mp) i (liftS enc r))
          (firesA N (act (mview enc dec sc mp) i (liftS enc r)) (liftS enc r)) (liftT enc (r.th i)) r.mem) k =
      liftT enc (upd (fun k => effOther (act (mbase mp) i r) (firesA N (act (mbase mp) i r) r) (r.th k)) i
        (newT (act (mbase mp) i r) (firesA N (act (mbase mp) i r) r) (r.th i) r.mem) k)
    rw [ha, firesA_lift, newT_lift]
    cases Nat.decEq k i with
    | isTrue hk => rw [hk, upd_same, upd_same]
    | isFalse hk =>
      rw [upd_other _ _ hk, upd_other _ _ hk]
      exact effOther_lift enc _ _ _
  · show memEff (act (mview enc dec sc mp) i (liftS enc r)) r.mem a = memEff (act (mbase mp) i r) r.mem a
    rw [ha, memEff_shift]
  · show arrEff (act (mview enc dec sc mp) i (liftS enc r))
        (firesA N (act (mview enc dec sc mp) i (liftS enc r)) (liftS enc r)) r.arr b =
      arrEff (act (mbase mp) i r) (firesA N (act (mbase mp) i r) r) r.arr b
    rw [ha, firesA_lift, arrEff_shift]

theorem liftS_congr (enc : Nat → Nat → Nat) {r r' : CState V} (h : Same r r') :
    Same (liftS enc r) (liftS enc r') :=
  ⟨fun k => by show liftT enc (r.th k) = liftT enc (r'.th k); rw [h.1 k], h.2.1, h.2.2⟩

/-- Runs of `MSem` thread steps only (no instance completes). -/
inductive MReachT : CState V → CState V → Prop where
  | refl (s : CState V) : MReachT s s
  | step {s t u : CState V} (i : Nat) : MStepL memb mp N (MLbl.thr i) s t → MReachT t u →
      MReachT s u

/-- One `MSem` thread step is matched by the same thread's step in the view. -/
theorem msim_stepT {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p, dec (enc p 0) = (p, 0)) (sc : Nat) {r r' u : CState V} {i : Nat}
    (hs : MStepL memb mp N (MLbl.thr i) r r') (hu : Same u (liftS enc r)) :
    StepT (mview enc dec sc mp) N i u (next (mview enc dec sc mp) N i u) ∧
      Same (next (mview enc dec sc mp) N i u) (liftS enc r') := by
  have he : Enabled memb mp N r (MLbl.thr i) := hs.1
  refine ⟨⟨he.1, ?_, same_refl _⟩, ?_⟩
  · rw [hu.1 i]
    exact he.2.1
  · exact same_trans (next_congr _ N i hu)
      (same_trans (mview_next_lift memb mp N hdec sc he)
        (liftS_congr enc (same_symm hs.2)))

/-- Every state reached by `MSem` thread steps is related to a state the view reaches. -/
theorem msim_reachT {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p, dec (enc p 0) = (p, 0)) (sc : Nat) {s r : CState V}
    (hr : MReachT memb mp N s r) :
    ∀ u, Same u (liftS enc s) →
      ∃ u', Reach (mview enc dec sc mp) N u u' ∧ Same u' (liftS enc r) := by
  induction hr with
  | refl s => intro u hu; exact ⟨u, Reach.refl u, hu⟩
  | step i hs _ ih =>
    intro u hu
    have h1 := msim_stepT memb mp N hdec sc hs hu
    match ih _ h1.2 with
    | ⟨u', hr', hs'⟩ => exact ⟨u', Reach.step ⟨i, h1.1⟩ hr', hs'⟩

/-- From the lifted launch: every state reached by `MSem` thread steps is, lifted, reachable in
the view (up to `Same`). -/
theorem msim_reachT_lift {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p, dec (enc p 0) = (p, 0)) (sc : Nat) {s r : CState V}
    (hr : MReachT memb mp N s r) :
    ∃ u', Reach (mview enc dec sc mp) N (liftS enc s) u' ∧ Same u' (liftS enc r) :=
  msim_reachT memb mp N hdec sc hr (liftS enc s) (same_refl _)

end Step


section Race

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

theorem arrivals_lift (enc : Nat → Nat → Nat) {u r : CState V} (h : Same u (liftS enc r))
    (b : Nat) : arrivals N b u = arrivals N b r := by
  show countAt b u.th N + u.arr b = countAt b r.th N + r.arr b
  rw [countAt_congr b u.th (liftS enc r).th (fun k => by rw [h.1 k]) N, countAt_lift, h.2.2 b]
  rfl

theorem barFits_lift (enc : Nat → Nat → Nat) {u r : CState V} (h : Same u (liftS enc r))
    (A B : Act V) (hb : BarFits N u (shiftA enc A) (shiftA enc B)) : BarFits N r A B := by
  cases A with
  | compute pc x => trivial
  | read a x pc => trivial
  | write a v pc => trivial
  | atomAdd a v pc => trivial
  | exit => trivial
  | arrive b n w pc =>
    cases B with
    | compute pc x => trivial
    | read a x pc => trivial
    | write a v pc => trivial
    | atomAdd a v pc => trivial
    | exit => trivial
    | arrive c m w' pc' =>
      intro e
      have hb' := hb e
      rw [arrivals_lift N enc h b] at hb'
      exact hb'

/-- The first clause of `ViewNC` (enabled threads) at every state reached by `MSem` thread
steps, from `Sem.RaceFree` and `Sem.BarriersFit` of the view launched at the lifted state. -/
theorem viewNC1_of_raceFree {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p, dec (enc p 0) = (p, 0)) (sc : Nat) {s0 r : CState V}
    (hrf : RaceFree (mview enc dec sc mp) N (liftS enc s0))
    (hfit : BarriersFit (mview enc dec sc mp) N (liftS enc s0))
    (hr : MReachT memb mp N s0 r) :
    ∀ i j, i ≠ j → Enabled memb mp N r (MLbl.thr i) → Enabled memb mp N r (MLbl.thr j) →
      ¬Conflict (vAct enc sc mp i r 0) (vAct enc sc mp j r 0) ∧
        BarFits N r (act (mbase mp) i r) (act (mbase mp) j r) := by
  intro i j hij hi hj
  match msim_reachT_lift memb mp N hdec sc hr with
  | ⟨u, hu, hs⟩ =>
    have si : (u.th i).status = Status.run := by rw [hs.1 i]; exact hi.2.1
    have sj : (u.th j).status = Status.run := by rw [hs.1 j]; exact hj.2.1
    have ai : act (mview enc dec sc mp) i u = shiftA enc (act (mbase mp) i r) :=
      Eq.trans (act_congr _ i hs) (mview_act_lift memb mp N hdec sc hi)
    have aj : act (mview enc dec sc mp) j u = shiftA enc (act (mbase mp) j r) :=
      Eq.trans (act_congr _ j hs) (mview_act_lift memb mp N hdec sc hj)
    have c := hrf u hu i j hij hi.1 hj.1 si sj
    have f := hfit u hu i j hij hi.1 hj.1 si sj
    rw [ai, aj] at c
    rw [ai, aj] at f
    refine ⟨?_, barFits_lift N enc hs _ _ f⟩
    rw [vAct_base memb mp N enc sc hi, vAct_base memb mp N enc sc hj]
    exact c

end Race

/-! ## Non-vacuity: `MEx`'s thread steps after the completion, in the view

`encF p j = j + 4 * p`, decoded at sub-step 0 by `decF` (by recursion).  The `MSem` run of
`MEx` from `e1` (after instance 0 completed) to `e5` takes only thread steps (`reachT_E`), so
the view reaches, from `liftS encF e1`, a state `Same` as `liftS encF e5` (`simT_E`). -/

namespace MEx

def encF (p j : Nat) : Nat := j + 4 * p

def decF : Nat → Nat × Nat
  | n + 4 => ((decF n).1 + 1, (decF n).2)
  | n => (0, n)

theorem hdecF : ∀ p, decF (encF p 0) = (p, 0) := by
  intro p
  induction p with
  | zero => rfl
  | succ p ih =>
    show ((decF (encF p 0)).1 + 1, (decF (encF p 0)).2) = (p + 1, 0)
    rw [ih]

set_option maxHeartbeats 1000000 in
theorem reachT_E : MReachT membE mpE 3 e1 e5 :=
  MReachT.step 2 ⟨⟨by decide, rfl, rfl⟩, same_refl _⟩
    (MReachT.step 0 ⟨⟨by decide, rfl, rfl⟩, same_refl _⟩
      (MReachT.step 1 ⟨⟨by decide, rfl, rfl⟩, same_refl _⟩
        (MReachT.step 2 ⟨⟨by decide, rfl, rfl⟩, same_refl _⟩ (MReachT.refl e5))))

theorem simT_E : ∃ u, Reach (mview encF decF 3 mpE) 3 (liftS encF e1) u ∧ Same u (liftS encF e5) :=
  msim_reachT_lift membE mpE 3 hdecF 3 reachT_E

end MEx

end WarpMem
end Kcert
