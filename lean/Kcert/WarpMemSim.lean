import Kcert.WarpMemView

/-!
# The simulation by the view of memory collectives: the thread steps (`WarpMemSim`)

`liftS enc r`: an `MSem` state `r` seen in the view's `pc` space (each thread at `enc pc 0`,
registers, status, memory and barrier arrivals unchanged).

Proved here: `mview_act_lift` (at `liftS enc r` an enabled thread's view action is its `Sem`
action, `pc` moved), `mview_next_lift` (the view's step of that thread from `liftS enc r` is
`liftS enc` of the `MSem` thread step), `msim_stepT` (an `MSem` thread step is matched by one
view step, relation `Same u (liftS enc r)` kept), and `msim_reachT`: every state reached by
`MSem` thread steps only (`MReachT`) is related to a reachable view state.  Then, when scratch
registers do not change a collective's accesses (`KeepBelow`): `lane_run` (a lane runs its
sub-steps in the view, touching no other thread), and `viewNC_of_raceFreeT`: `Sem.RaceFree` and
`Sem.BarriersFit` of the view give `ViewNC` (so `LaneCheck`, `laneCheck_of_raceFreeT`) at every
state reached by `MSem` thread steps.

NOT here: instance completions (a completion must be matched by a run of sub-steps per lane,
and the registers after it differ: all lanes' contributions in `MSem` vs none in the view, so
the relation must be up to a data-independence relation `MDataIndep`, not defined here); hence
not `msim_reach` for all `MSem` runs, nor `ViewNC` after a completion, nor `mraceFree_of_view`.
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

namespace Kcert
namespace WarpMem

open Sem

section Lane

variable {V : Type} [AccAdd V]

/-- Scratch registers (from `sc` on) do not change a collective's attributed accesses. -/
def KeepBelow (sc : Nat) (mp : MProg V) : Prop :=
  ∀ i p (regs regs' : Nat → V) (c : MColl V), (∀ z, z < sc → regs' z = regs z) →
    mp i p regs = MAct.coll c → ∃ c' : MColl V, mp i p regs' = MAct.coll c' ∧ c'.rs = c.rs ∧ c'.ws = c.ws

theorem lt_ne_add' {z sc : Nat} (y : Nat) (h : z < sc) : z ≠ sc + y := fun e => by
  rw [e] at h
  exact Nat.ltIrrefl sc (Nat.ltOfLeOfLt (Nat.leAddRight sc y) h)

theorem collStep_keep (enc : Nat → Nat → Nat) (sc p : Nat) (regs : Nat → V) (c c' : MColl V)
    (hrs : c'.rs = c.rs) (hws : c'.ws = c.ws) (y : Nat) (x : Sum RdAcc (WrAcc V))
    (hx : accNth c.rs c.ws y = some x) :
    collStep enc sc p regs c' y = (match x with
      | Sum.inl r => Act.read r.addr (sc + y) (enc p (y + 1))
      | Sum.inr w => Act.write w.addr w.val (enc p (y + 1))) := by
  show (match accNth c'.rs c'.ws y with
    | some (Sum.inl r) => Act.read r.addr (sc + y) (enc p (y + 1))
    | some (Sum.inr w) => Act.write w.addr w.val (enc p (y + 1))
    | none => collDone enc sc p regs c') = _
  rw [hrs, hws, hx]
  cases x <;> rfl

variable (mp : MProg V) (N : Nat)

/-- In the view, a lane at a collective runs its sub-steps one after the other, touching no
other thread: after `y` of them it is at `enc p y`, running, its registers below `sc` kept. -/
theorem lane_run {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p j, dec (enc p j) = (p, j)) (sc : Nat) (hk : KeepBelow sc mp)
    {u : CState V} {k p : Nat} {c : MColl V} (hkN : k < N) (hrun : (u.th k).status = Status.run)
    (hpc : (u.th k).pc = enc p 0) (hc : mp k p (u.th k).regs = MAct.coll c) :
    ∀ y, (∀ y', y' < y → accNth c.rs c.ws y' ≠ none) →
      ∃ w, Reach (mview enc dec sc mp) N u w ∧ (w.th k).pc = enc p y ∧
        (w.th k).status = Status.run ∧ (∀ z, z < sc → (w.th k).regs z = (u.th k).regs z) ∧
        ∀ j, j ≠ k → w.th j = u.th j := by
  intro y
  induction y with
  | zero =>
    intro _
    exact ⟨u, Reach.refl u, hpc, hrun, fun _ _ => rfl, fun _ _ => rfl⟩
  | succ y ih =>
    intro hpre
    match ih (fun y' h => hpre y' (Nat.leStep h)) with
    | ⟨w, hw, wpc, wrun, wregs, woth⟩ =>
      match hk k p (u.th k).regs (w.th k).regs c wregs hc with
      | ⟨c', hc', hrs, hws⟩ =>
        cases hx : accNth c.rs c.ws y with
        | none => exact False.elim (hpre y (Nat.ltSuccSelf y) hx)
        | some x =>
          have ha : act (mview enc dec sc mp) k w = (match x with
              | Sum.inl r => Act.read r.addr (sc + y) (enc p (y + 1))
              | Sum.inr w => Act.write w.addr w.val (enc p (y + 1))) := by
            show mviewAct enc sc (dec (w.th k).pc).1 (dec (w.th k).pc).2 (w.th k).regs
              (mp k (dec (w.th k).pc).1 (w.th k).regs) = _
            rw [wpc, hdec, hc']
            exact collStep_keep enc sc p (w.th k).regs c c' hrs hws y x hx
          have st : StepT (mview enc dec sc mp) N k w (next (mview enc dec sc mp) N k w) :=
            ⟨hkN, wrun, same_refl _⟩
          refine ⟨next (mview enc dec sc mp) N k w, ?_, ?_, ?_, ?_, ?_⟩
          · exact reach_trans _ N hw (Reach.step ⟨k, st⟩ (Reach.refl _))
          · rw [next_th_self, ha]
            cases x <;> rfl
          · rw [next_th_self, ha]
            cases x <;> rfl
          · intro z hz
            rw [next_th_self, ha]
            cases x with
            | inl r =>
              show upd (w.th k).regs (sc + y) (w.mem r.addr) z = _
              rw [upd_other _ _ (lt_ne_add' y hz)]
              exact wregs z hz
            | inr _ => exact wregs z hz
          · intro j hj
            rw [next_th_other _ N k w hj, ha]
            cases x with
            | inl r => exact woth j hj
            | inr _ => exact woth j hj

theorem wrNth_pre : ∀ (ws : List (WrAcc V)) (x y : Nat), wrNth ws x ≠ none → y < x →
    wrNth ws y ≠ none := by
  intro ws
  induction ws with
  | nil => intro x y h _; exact False.elim (h rfl)
  | cons a l ih =>
    intro x y h hy
    cases y with
    | zero => exact fun e => by cases e
    | succ y =>
      cases x with
      | zero => exact False.elim (Nat.notSuccLeZero _ hy)
      | succ x => exact ih x y h (Nat.lt_of_succ_lt_succ hy)

/-- The attributed accesses of a lane form a prefix of the sub-steps. -/
theorem accNth_pre : ∀ (rs : List RdAcc) (ws : List (WrAcc V)) (x y : Nat),
    accNth rs ws x ≠ none → y < x → accNth rs ws y ≠ none := by
  intro rs
  induction rs with
  | nil =>
    intro ws x y h hy
    have h1 : wrNth ws x ≠ none := fun e => h (by
      show wrAsAcc (wrNth ws x) = none
      rw [e]
      rfl)
    have h2 := wrNth_pre ws x y h1 hy
    show wrAsAcc (wrNth ws y) ≠ none
    cases e : wrNth ws y with
    | none => exact False.elim (h2 e)
    | some w => exact fun e2 => by cases e2
  | cons a l ih =>
    intro ws x y h hy
    cases y with
    | zero => exact fun e => by cases e
    | succ y =>
      cases x with
      | zero => exact False.elim (Nat.notSuccLeZero _ hy)
      | succ x => exact ih ws x y h (Nat.lt_of_succ_lt_succ hy)

theorem conflict_compute (p : Nat) (q : Nat → V) (B : Act V) : ¬Conflict (Act.compute p q) B :=
  fun h => h

end Lane

section Race2

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

/-- The second clause of `ViewNC` (a lane's sub-steps against an enabled thread) at every state
reached by `MSem` thread steps, from `Sem.RaceFree` of the view, when scratch registers do not
change a collective's accesses (`KeepBelow`). -/
theorem viewNC2_of_raceFree {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p j, dec (enc p j) = (p, j)) (sc : Nat) (hk : KeepBelow sc mp) {s0 r : CState V}
    (hrf : RaceFree (mview enc dec sc mp) N (liftS enc s0))
    (hr : MReachT memb mp N s0 r) :
    ∀ j g k x, Enabled memb mp N r (MLbl.thr j) → InstReady memb mp N g r →
      laneOf memb mp N g r k = true → ¬Conflict (vAct enc sc mp k r x) (vAct enc sc mp j r 0) := by
  intro j g k x hj hg hkl
  match coll_of_lane memb mp N hkl, msim_reachT_lift memb mp N (hdec0_of hdec) sc hr with
  | ⟨c, e⟩, ⟨u, hu, hs⟩ =>
    rw [vAct_coll mp enc sc e x]
    cases hx : accNth c.rs c.ws x with
    | none =>
      show ¬Conflict (match accNth c.rs c.ws x with
        | some (Sum.inl rr) => Act.read rr.addr (sc + x) (enc (r.th k).pc (x + 1))
        | some (Sum.inr ww) => Act.write ww.addr ww.val (enc (r.th k).pc (x + 1))
        | none => collDone enc sc (r.th k).pc (r.th k).regs c) (vAct enc sc mp j r 0)
      rw [hx]
      exact conflict_compute _ _ _
    | some a =>
      have hkN : k < N := laneOf_lt memb mp N hkl
      have hjk : j ≠ k := enabled_not_lane memb mp N hj hkl
      have hrk : (r.th k).status = Status.run :=
        (hg.2 k hkN (laneOf_memb memb mp N hkl)).1
      have uk : u.th k = liftT enc (r.th k) := hs.1 k
      have hc : mp k (r.th k).pc (u.th k).regs = MAct.coll c := by rw [uk]; exact e
      have hpre : ∀ y', y' < x → accNth c.rs c.ws y' ≠ none :=
        fun y' hy => accNth_pre c.rs c.ws x y' (fun e2 => by rw [hx] at e2; cases e2) hy
      match lane_run mp N hdec sc hk hkN (by rw [uk]; exact hrk) (by rw [uk]; rfl) hc x hpre with
      | ⟨w, hw, wpc, wrun, wregs, woth⟩ =>
        match hk k (r.th k).pc (u.th k).regs (w.th k).regs c wregs hc with
        | ⟨c', hc', hrs, hws⟩ =>
          have ak : act (mview enc dec sc mp) k w = collStep enc sc (r.th k).pc (r.th k).regs c x := by
            show mviewAct enc sc (dec (w.th k).pc).1 (dec (w.th k).pc).2 (w.th k).regs
              (mp k (dec (w.th k).pc).1 (w.th k).regs) = _
            rw [wpc, hdec, hc']
            show collStep enc sc (r.th k).pc (w.th k).regs c' x = _
            rw [collStep_keep enc sc (r.th k).pc (w.th k).regs c c' hrs hws x a hx,
              collStep_keep enc sc (r.th k).pc (r.th k).regs c c rfl rfl x a hx]
          have wj : w.th j = u.th j := woth j hjk
          have aj : act (mview enc dec sc mp) j w = vAct enc sc mp j r 0 := by
            have a1 : act (mview enc dec sc mp) j w = act (mview enc dec sc mp) j u := by
              show mview enc dec sc mp j (w.th j).pc (w.th j).regs =
                mview enc dec sc mp j (u.th j).pc (u.th j).regs
              rw [wj]
            rw [a1, act_congr _ j hs, mview_act_lift memb mp N (hdec0_of hdec) sc hj,
              vAct_base memb mp N enc sc hj 0]
          have sj : (w.th j).status = Status.run := by rw [wj, hs.1 j]; exact hj.2.1
          have c0 := hrf w (reach_trans _ N hu hw) k j (fun e2 => hjk (Eq.symm e2)) hkN hj.1 wrun sj
          rw [ak, aj] at c0
          exact c0

/-- A lane at sub-step `x` of its collective in the view, registers below `sc` as at its arrival,
does the sub-step `x` of its arrival. -/
theorem act_lane {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p j, dec (enc p j) = (p, j)) (sc : Nat) (hk : KeepBelow sc mp) {w : CState V}
    {k p x : Nat} {regs : Nat → V} {c : MColl V} {a : Sum RdAcc (WrAcc V)}
    (wpc : (w.th k).pc = enc p x) (wregs : ∀ z, z < sc → (w.th k).regs z = regs z)
    (hc : mp k p regs = MAct.coll c) (hx : accNth c.rs c.ws x = some a) :
    act (mview enc dec sc mp) k w = collStep enc sc p regs c x := by
  match hk k p regs (w.th k).regs c wregs hc with
  | ⟨c', hc', hrs, hws⟩ =>
    show mviewAct enc sc (dec (w.th k).pc).1 (dec (w.th k).pc).2 (w.th k).regs
      (mp k (dec (w.th k).pc).1 (w.th k).regs) = _
    rw [wpc, hdec, hc']
    show collStep enc sc p (w.th k).regs c' x = _
    rw [collStep_keep enc sc p (w.th k).regs c c' hrs hws x a hx,
      collStep_keep enc sc p regs c c rfl rfl x a hx]

/-- The third clause of `ViewNC` (sub-steps of lanes of two different ready instances) at every
state reached by `MSem` thread steps, from `Sem.RaceFree` of the view, under `KeepBelow`. -/
theorem viewNC3_of_raceFree {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p j, dec (enc p j) = (p, j)) (sc : Nat) (hk : KeepBelow sc mp) {s0 r : CState V}
    (hrf : RaceFree (mview enc dec sc mp) N (liftS enc s0))
    (hr : MReachT memb mp N s0 r) :
    ∀ g h k k' x x', g ≠ h → InstReady memb mp N g r → InstReady memb mp N h r →
      laneOf memb mp N g r k = true → laneOf memb mp N h r k' = true →
      ¬Conflict (vAct enc sc mp k r x) (vAct enc sc mp k' r x') := by
  intro g h k k' x x' hgh hg hh hkl hkl'
  match coll_of_lane memb mp N hkl, coll_of_lane memb mp N hkl',
    msim_reachT_lift memb mp N (hdec0_of hdec) sc hr with
  | ⟨c, e⟩, ⟨c2, e2⟩, ⟨u, hu, hs⟩ =>
    rw [vAct_coll mp enc sc e x, vAct_coll mp enc sc e2 x']
    show ¬Conflict (collStep enc sc (r.th k).pc (r.th k).regs c x)
      (collStep enc sc (r.th k').pc (r.th k').regs c2 x')
    cases hx : accNth c.rs c.ws x with
    | none =>
      show ¬Conflict (match accNth c.rs c.ws x with
        | some (Sum.inl rr) => Act.read rr.addr (sc + x) (enc (r.th k).pc (x + 1))
        | some (Sum.inr ww) => Act.write ww.addr ww.val (enc (r.th k).pc (x + 1))
        | none => collDone enc sc (r.th k).pc (r.th k).regs c) _
      rw [hx]
      exact conflict_compute _ _ _
    | some a =>
      cases hx' : accNth c2.rs c2.ws x' with
      | none =>
        intro hc0
        have hc1 := conflict_symm _ _ hc0
        have d : collStep enc sc (r.th k').pc (r.th k').regs c2 x' =
            collDone enc sc (r.th k').pc (r.th k').regs c2 := by
          show (match accNth c2.rs c2.ws x' with
            | some (Sum.inl rr) => Act.read rr.addr (sc + x') (enc (r.th k').pc (x' + 1))
            | some (Sum.inr ww) => Act.write ww.addr ww.val (enc (r.th k').pc (x' + 1))
            | none => collDone enc sc (r.th k').pc (r.th k').regs c2) = _
          rw [hx']
        rw [d] at hc1
        exact conflict_compute _ _ _ hc1
      | some a2 =>
        have hkN : k < N := laneOf_lt memb mp N hkl
        have hkN' : k' < N := laneOf_lt memb mp N hkl'
        have hkk : k ≠ k' := lanes_distinct memb mp N hgh hkl hkl'
        have hrk : (r.th k).status = Status.run := (hg.2 k hkN (laneOf_memb memb mp N hkl)).1
        have hrk' : (r.th k').status = Status.run := (hh.2 k' hkN' (laneOf_memb memb mp N hkl')).1
        have uk : u.th k = liftT enc (r.th k) := hs.1 k
        have uk' : u.th k' = liftT enc (r.th k') := hs.1 k'
        have hc : mp k (r.th k).pc (u.th k).regs = MAct.coll c := by rw [uk]; exact e
        have hpre : ∀ y', y' < x → accNth c.rs c.ws y' ≠ none :=
          fun y' hy => accNth_pre c.rs c.ws x y' (fun e3 => by rw [hx] at e3; cases e3) hy
        have hpre' : ∀ y', y' < x' → accNth c2.rs c2.ws y' ≠ none :=
          fun y' hy => accNth_pre c2.rs c2.ws x' y' (fun e3 => by rw [hx'] at e3; cases e3) hy
        match lane_run mp N hdec sc hk hkN (by rw [uk]; exact hrk) (by rw [uk]; rfl) hc x hpre with
        | ⟨w, hw, wpc, wrun, wregs, woth⟩ =>
          have wk' : w.th k' = liftT enc (r.th k') := by rw [woth k' (fun e3 => hkk (Eq.symm e3))]; exact uk'
          have hc' : mp k' (r.th k').pc (w.th k').regs = MAct.coll c2 := by rw [wk']; exact e2
          match lane_run mp N hdec sc hk hkN' (by rw [wk']; exact hrk') (by rw [wk']; rfl) hc' x'
            hpre' with
          | ⟨w2, hw2, wpc2, wrun2, wregs2, woth2⟩ =>
            have w2k : w2.th k = w.th k := woth2 k hkk
            have ak : act (mview enc dec sc mp) k w2 = collStep enc sc (r.th k).pc (r.th k).regs c x := by
              apply act_lane mp hdec sc hk (p := (r.th k).pc) (x := x) (by rw [w2k]; exact wpc)
                (fun z hz => by rw [w2k, wregs z hz, uk]; rfl) e hx
            have ak' : act (mview enc dec sc mp) k' w2 =
                collStep enc sc (r.th k').pc (r.th k').regs c2 x' := by
              apply act_lane mp hdec sc hk (p := (r.th k').pc) (x := x') wpc2
                (fun z hz => by rw [wregs2 z hz, wk']; rfl) e2 hx'
            have c0 := hrf w2 (reach_trans _ N hu (reach_trans _ N hw hw2)) k k' hkk hkN hkN'
              (by rw [w2k]; exact wrun) wrun2
            rw [ak, ak'] at c0
            exact c0

/-- `ViewNC` at every state reached from `s0` by `MSem` thread steps, from `Sem.RaceFree` and
`Sem.BarriersFit` of the view launched at `liftS enc s0`, under `KeepBelow`. -/
theorem viewNC_of_raceFreeT {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p j, dec (enc p j) = (p, j)) (sc : Nat) (hk : KeepBelow sc mp) {s0 r : CState V}
    (hrf : RaceFree (mview enc dec sc mp) N (liftS enc s0))
    (hfit : BarriersFit (mview enc dec sc mp) N (liftS enc s0))
    (hr : MReachT memb mp N s0 r) : ViewNC memb mp N enc sc r :=
  ⟨viewNC1_of_raceFree memb mp N (hdec0_of hdec) sc hrf hfit hr,
    viewNC2_of_raceFree memb mp N hdec sc hk hrf hr,
    viewNC3_of_raceFree memb mp N hdec sc hk hrf hr⟩

/-- Hence the Rust's lane-by-lane check at every such state. -/
theorem laneCheck_of_raceFreeT {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p j, dec (enc p j) = (p, j)) (sc : Nat) (hk : KeepBelow sc mp) {s0 r : CState V}
    (hrf : RaceFree (mview enc dec sc mp) N (liftS enc s0))
    (hfit : BarriersFit (mview enc dec sc mp) N (liftS enc s0))
    (hr : MReachT memb mp N s0 r) : LaneCheck memb mp N r :=
  laneCheck_of_view memb mp N enc sc r (viewNC_of_raceFreeT memb mp N hdec sc hk hrf hfit hr)

end Race2

namespace MEx

/-- `MEx`'s program ignores registers, so scratch registers keep its accesses. -/
theorem keepBelow_E : KeepBelow 3 mpE :=
  fun _ _ _ _ c _ h => ⟨c, h, rfl, rfl⟩

end MEx

end WarpMem
end Kcert
