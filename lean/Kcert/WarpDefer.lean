import Kcert.Warp

/-!
# Deferred completion of warp collectives (the executor's `resolve_warps`)

Rust: `checker/src/exec/mod.rs` `run_cta`, `resolve_warps`, `complete_collective`.

In `Warp.lean` the last lane's arrival completes a collective.  The executor instead lets every
arriving lane block (`Status::Warp`) and completes, in `resolve_warps`, every collective whose
lanes all wait, at a later moment of its choosing (once every thread has blocked).  `DStep` is
that semantics: an arrival only records the lane as waiting (`dnext`), and a separate step
`resolveW g` completes instance `g` when every lane of it waits there (`readyW`).

`dreach_sim`: every state this deferred semantics reaches from a state where nobody waits is
related (`Rel`: equal once every complete-but-unresolved instance is resolved) to a state
`WSem` reaches.  `dfinal_reach`: so a final state of the deferred semantics is reached by
`WSem` too (pointwise), and `dfinal_unique`: under the hypotheses of `Warp.wconfluence` every
final state of every `WSem` schedule equals it; `dfinal_no_stuck`: no `WSem` schedule gets
stuck.  The executor's schedule is one schedule of `DStep` (not proved: the executor is not
modelled as a function here).
-/

namespace Kcert
namespace Warp

open Sem

section Defs

variable {V : Type} [AccAdd V]

/-- Every lane (of the `N` threads) of `g` waits at `g`. -/
def readyW (memb : Nat → Nat → Bool) (N g : Nat) (cw : Nat → Option (Wait V)) : Bool :=
  allW (fun k => !memb g k || waitsAt g (cw k)) N

/-- The vector of contributions of the lanes waiting at `g`. -/
def rvec (memb : Nat → Nat → Bool) (g : Nat) (cw : Nat → Option (Wait V)) :
    Nat → Option (Nat → V) :=
  fun k => cond (memb g k) (contribAt g (cw k)) none

/-- The resolution of instance `g`: every lane waiting there gets its registers and `pc`. -/
def resolveW (memb : Nat → Nat → Bool) (g : Nat) (st : WState V) : WState V :=
  ⟨⟨fun k => relK memb true g (rvec memb g st.cw) k (st.s.th k) (st.cw k), st.s.mem, st.s.arr⟩,
    fun k => cond (relB memb true g k (st.cw k)) none (st.cw k)⟩

/-- An action in the deferred semantics: a collective arrival only waits. -/
def dnextA (wp : WProg V) (N i : Nat) (st : WState V) : WAct V → WState V
  | WAct.base _ => ⟨next (baseProg wp) N i st.s, st.cw⟩
  | WAct.coll g v res pc => ⟨st.s, upd st.cw i (some ⟨g, v, res, pc⟩)⟩

def dnext (wp : WProg V) (N i : Nat) (st : WState V) : WState V :=
  dnextA wp N i st (wact wp i st)

/-- A step of the deferred semantics: a running, non-waiting thread does its next action, or a
collective whose lanes all wait is resolved. -/
inductive DStep (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) : WState V → WState V → Prop where
  | thread {a : WState V} (i : Nat) : i < N → (a.s.th i).status = Status.run → a.cw i = none →
      DStep memb wp N a (dnext wp N i a)
  | resolve {a : WState V} (g : Nat) : readyW memb N g a.cw = true →
      DStep memb wp N a (resolveW memb g a)

inductive DReach (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) :
    WState V → WState V → Prop where
  | refl (s : WState V) : DReach memb wp N s s
  | step {s t u : WState V} : DStep memb wp N s t → DReach memb wp N t u → DReach memb wp N s u

/-- A thread's state once its instance is resolved, if it waits at a complete instance. -/
def projT (memb : Nat → Nat → Bool) (N : Nat) (cw : Nat → Option (Wait V)) (k : Nat)
    (t : TState V) : Option (Wait V) → TState V
  | some w => cond (memb w.key k && readyW memb N w.key cw)
      ⟨w.pc, w.res.f (rvec memb w.key cw), t.status⟩ t
  | none => t

/-- A thread's waiting record once its instance is resolved. -/
def projC (memb : Nat → Nat → Bool) (N : Nat) (cw : Nat → Option (Wait V)) (k : Nat) :
    Option (Wait V) → Option (Wait V)
  | some w => cond (memb w.key k && readyW memb N w.key cw) none (some w)
  | none => none

/-- `w` is `d` with every complete instance resolved. -/
def Rel (memb : Nat → Nat → Bool) (N : Nat) (d w : WState V) : Prop :=
  (∀ k, w.s.th k = projT memb N d.cw k (d.s.th k) (d.cw k)) ∧
    (∀ k, w.cw k = projC memb N d.cw k (d.cw k)) ∧
    (∀ a, w.s.mem a = d.s.mem a) ∧ (∀ b, w.s.arr b = d.s.arr b)

/-- Waiting lanes are running, and threads `k ≥ N` never wait. -/
def DInv (N : Nat) (d : WState V) : Prop :=
  (∀ k, d.cw k ≠ none → (d.s.th k).status = Status.run) ∧ (∀ k, ¬k < N → d.cw k = none)

end Defs

section Lemmas

variable {V : Type} [AccAdd V]

theorem readyW_false (memb : Nat → Nat → Bool) {N g j : Nat} (cw : Nat → Option (Wait V))
    (hj : j < N) (hm : memb g j = true) (hn : cw j = none) : readyW memb N g cw = false := by
  cases hd : readyW memb N g cw with
  | false => rfl
  | true =>
    have hok := allW_get _ N hd j hj
    have h0 : (!memb g j || waitsAt g (cw j)) = false := by rw [hm, hn]; rfl
    rw [h0] at hok
    cases hok

theorem readyW_congr (memb : Nat → Nat → Bool) (N g : Nat) {cw cw' : Nat → Option (Wait V)}
    (h : ∀ k, waitsAt g (cw k) = waitsAt g (cw' k)) : readyW memb N g cw = readyW memb N g cw' :=
  allW_congr _ _ N (fun k _ => by
    show (!memb g k || waitsAt g (cw k)) = (!memb g k || waitsAt g (cw' k))
    rw [h k])

theorem rvec_congr (memb : Nat → Nat → Bool) (g : Nat) {cw cw' : Nat → Option (Wait V)}
    (h : ∀ k, contribAt g (cw k) = contribAt g (cw' k)) (k : Nat) :
    rvec memb g cw k = rvec memb g cw' k := by
  show cond (memb g k) (contribAt g (cw k)) none = cond (memb g k) (contribAt g (cw' k)) none
  rw [h k]

theorem projT_congr (memb : Nat → Nat → Bool) (N : Nat) {cw cw' : Nat → Option (Wait V)} (k : Nat)
    (t : TState V) (w : Wait V) (hr : readyW memb N w.key cw = readyW memb N w.key cw')
    (hv : ∀ x, rvec memb w.key cw x = rvec memb w.key cw' x) :
    projT memb N cw k t (some w) = projT memb N cw' k t (some w) := by
  show cond (memb w.key k && readyW memb N w.key cw) (TState.mk w.pc (w.res.f (rvec memb w.key cw)) t.status) t =
    cond (memb w.key k && readyW memb N w.key cw') (TState.mk w.pc (w.res.f (rvec memb w.key cw')) t.status) t
  rw [hr, w.res.ext _ _ hv]

theorem projC_congr (memb : Nat → Nat → Bool) (N : Nat) {cw cw' : Nat → Option (Wait V)} (k : Nat)
    (w : Wait V) (hr : readyW memb N w.key cw = readyW memb N w.key cw') :
    projC memb N cw k (some w) = projC memb N cw' k (some w) := by
  show cond (memb w.key k && readyW memb N w.key cw) none (some w) =
    cond (memb w.key k && readyW memb N w.key cw') none (some w)
  rw [hr]

theorem projT_status (memb : Nat → Nat → Bool) (N : Nat) (cw : Nat → Option (Wait V)) (k : Nat)
    (t : TState V) (o : Option (Wait V)) : (projT memb N cw k t o).status = t.status := by
  cases o with
  | none => rfl
  | some w =>
    show (cond (memb w.key k && readyW memb N w.key cw)
      (TState.mk w.pc (w.res.f (rvec memb w.key cw)) t.status) t).status = t.status
    cases memb w.key k && readyW memb N w.key cw <;> rfl

theorem effOther_projT (A : Act V) (f : Bool) (memb : Nat → Nat → Bool) (N : Nat)
    (cw : Nat → Option (Wait V)) (k : Nat) (t : TState V) (o : Option (Wait V)) :
    effOther A f (projT memb N cw k t o) = projT memb N cw k (effOther A f t) o := by
  cases o with
  | none => rfl
  | some w =>
    show effOther A f (cond (memb w.key k && readyW memb N w.key cw)
        (TState.mk w.pc (w.res.f (rvec memb w.key cw)) t.status) t) =
      cond (memb w.key k && readyW memb N w.key cw)
        (TState.mk w.pc (w.res.f (rvec memb w.key cw)) (effOther A f t).status) (effOther A f t)
    cases memb w.key k && readyW memb N w.key cw with
    | false => rfl
    | true =>
      cases A with
      | compute pc r => rfl
      | read a r pc => rfl
      | write a v pc => rfl
      | atomAdd a v pc => rfl
      | exit => rfl
      | arrive b n w' pc =>
        cases f with
        | false => rfl
        | true => exact relAt_mk b w.pc _ t

/-- A waiting record after resolution does not wait at a key whose instance is not complete. -/
theorem projC_wait (memb : Nat → Nat → Bool) (N : Nat) (cw : Nat → Option (Wait V)) {g k : Nat}
    (hg : readyW memb N g cw = false) :
    waitsAt g (projC memb N cw k (cw k)) = waitsAt g (cw k) ∧
      contribAt g (projC memb N cw k (cw k)) = contribAt g (cw k) := by
  cases hk : cw k with
  | none => exact ⟨rfl, rfl⟩
  | some w =>
    show waitsAt g (cond (memb w.key k && readyW memb N w.key cw) none (some w)) = waitsAt g (some w) ∧
      contribAt g (cond (memb w.key k && readyW memb N w.key cw) none (some w)) = contribAt g (some w)
    cases hc : (memb w.key k && readyW memb N w.key cw) with
    | false => exact ⟨rfl, rfl⟩
    | true =>
      have hr : readyW memb N w.key cw = true := and_right' hc
      have hne : w.key ≠ g := by
        intro e
        rw [e, hg] at hr
        cases hr
      have hw := waitsAt_key (o := some w) (decide_eq_true' rfl) hne
      rw [hw.1, hw.2]
      exact ⟨rfl, rfl⟩

end Lemmas

section Sim

variable {V : Type} [AccAdd V]

theorem dnext_base (wp : WProg V) (N i : Nat) (st : WState V) {A : Act V}
    (h : wact wp i st = WAct.base A) : dnext wp N i st = ⟨next (baseProg wp) N i st.s, st.cw⟩ := by
  show dnextA wp N i st (wact wp i st) = _
  rw [h]
  rfl

theorem dnext_coll (wp : WProg V) (N i : Nat) (st : WState V) {g : Nat} {v : Nat → V}
    {res : ExtFun V} {pc : Nat} (h : wact wp i st = WAct.coll g v res pc) :
    dnext wp N i st = ⟨st.s, upd st.cw i (some ⟨g, v, res, pc⟩)⟩ := by
  show dnextA wp N i st (wact wp i st) = _
  rw [h]
  rfl

/-- A `Sem` action of a non-waiting thread: the same step on the `WSem` side. -/
theorem sim_base (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) {d w : WState V} {j : Nat}
    (hR : Rel memb N d w) (hj : j < N) (hr : (d.s.th j).status = Status.run) (hn : d.cw j = none)
    {A : Act V} (hA : wact wp j d = WAct.base A) :
    WStepT memb wp N j w (wnext memb wp N j w) ∧ Rel memb N (dnext wp N j d) (wnext memb wp N j w) := by
  have hthj : w.s.th j = d.s.th j := by rw [hR.1 j, hn]; rfl
  have hcwj : w.cw j = none := by rw [hR.2.1 j, hn]; rfl
  have hAw : wact wp j w = WAct.base A := by
    show wp j (w.s.th j).pc (w.s.th j).regs = _
    rw [hthj]
    exact hA
  have hact : act (baseProg wp) j w.s = act (baseProg wp) j d.s := by
    rw [act_baseProg wp j w hAw, act_baseProg wp j d hA]
  have hf : firesA N (act (baseProg wp) j d.s) w.s = firesA N (act (baseProg wp) j d.s) d.s :=
    firesA_status N _ (fun k => by rw [hR.1 k, projT_status]) hR.2.2.2
  refine ⟨⟨hj, by rw [hthj]; exact hr, hcwj, wsame_refl _⟩, ?_⟩
  rw [wnext_base memb wp N j w hAw, dnext_base wp N j d hA]
  refine ⟨?_, hR.2.1, ?_, ?_⟩
  · intro k
    show (next (baseProg wp) N j w.s).th k =
      projT memb N d.cw k ((next (baseProg wp) N j d.s).th k) (d.cw k)
    cases Nat.decEq k j with
    | isTrue e =>
      rw [e, next_th_self, next_th_self, hact, hf, hthj, hn]
      exact newT_congr _ _ _ hR.2.2.1
    | isFalse e =>
      rw [next_th_other _ N j w.s e, next_th_other _ N j d.s e, hact, hf, hR.1 k]
      exact effOther_projT _ _ memb N d.cw k _ _
  · intro a
    show (next (baseProg wp) N j w.s).mem a = (next (baseProg wp) N j d.s).mem a
    rw [next_mem, next_mem, hact]
    exact memEff_congr _ hR.2.2.1 a
  · intro b
    show (next (baseProg wp) N j w.s).arr b = (next (baseProg wp) N j d.s).arr b
    rw [next_arr, next_arr, hact, hf]
    exact arrEff_congr _ _ hR.2.2.2 b

theorem band_true_left (b : Bool) : (true && b) = b := rfl

theorem band_comm3 (D m : Bool) : (D && m && true) = (m && D) := by
  cases D <;> cases m <;> rfl

/-- A collective arrival of a non-waiting lane: the same arrival on the `WSem` side, which
completes the instance exactly when the deferred semantics finds it complete afterwards. -/
theorem sim_coll (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) {d w : WState V} {j : Nat}
    (hR : Rel memb N d w) (hj : j < N) (hr : (d.s.th j).status = Status.run) (hn : d.cw j = none)
    (hown : CollOwn memb wp) {g : Nat} {v : Nat → V} {res : ExtFun V} {pc : Nat}
    (hA : wact wp j d = WAct.coll g v res pc) :
    WStepT memb wp N j w (wnext memb wp N j w) ∧ Rel memb N (dnext wp N j d) (wnext memb wp N j w) := by
  have hthj : w.s.th j = d.s.th j := by rw [hR.1 j, hn]; rfl
  have hcwj : w.cw j = none := by rw [hR.2.1 j, hn]; rfl
  have hAw : wact wp j w = WAct.coll g v res pc := by
    show wp j (w.s.th j).pc (w.s.th j).regs = _
    rw [hthj]
    exact hA
  have hmj : memb g j = true := hown j _ _ g v res pc hA
  have hg : readyW memb N g d.cw = false := readyW_false memb d.cw hj hmj hn
  refine ⟨⟨hj, by rw [hthj]; exact hr, hcwj, wsame_refl _⟩, ?_⟩
  rw [wnext_coll memb wp N j w hAw, dnext_coll wp N j d hA]
  let wj : Wait V := ⟨g, v, res, pc⟩
  let cw' := upd d.cw j (some wj)
  have hcw'j : cw' j = some wj := upd_same d.cw j _
  have hcw'o : ∀ k, k ≠ j → cw' k = d.cw k := fun k hk => upd_other d.cw _ hk
  -- who waits at and contributes to `g`: as in `d` (a resolved lane waited at a complete key)
  have hwg : ∀ k, k ≠ j → waitsAt g (w.cw k) = waitsAt g (cw' k) ∧
      contribAt g (w.cw k) = contribAt g (cw' k) := by
    intro k hk
    rw [hR.2.1 k, hcw'o k hk]
    exact projC_wait memb N d.cw hg
  have hD : doneW memb N g j w.cw = readyW memb N g cw' :=
    allW_congr _ _ N (fun k _ => by
      show (!memb g k || decide (k = j) || waitsAt g (w.cw k)) = (!memb g k || waitsAt g (cw' k))
      cases Nat.decEq k j with
      | isTrue e =>
        rw [e, hcw'j, decide_eq_true' (rfl : j = j), hmj, waitsAt_self]
        rfl
      | isFalse e =>
        rw [decide_eq_false' e, (hwg k e).1]
        cases !memb g k <;> rfl)
  have hCV : ∀ k, cvec memb g j v w.cw k = rvec memb g cw' k := by
    intro k
    show cond (memb g k) (if k = j then some v else contribAt g (w.cw k)) none =
      cond (memb g k) (contribAt g (cw' k)) none
    cases Nat.decEq k j with
    | isTrue e => rw [e, if_pos' (rfl : j = j), hcw'j, contribAt_self]
    | isFalse e => rw [if_neg' e, (hwg k e).2]
  -- other keys: the arrival changes nothing
  have hoth : ∀ h, h ≠ g → readyW memb N h cw' = readyW memb N h d.cw ∧
      ∀ x, rvec memb h cw' x = rvec memb h d.cw x := by
    intro h hh
    have e1 : ∀ k, waitsAt h (cw' k) = waitsAt h (d.cw k) ∧ contribAt h (cw' k) = contribAt h (d.cw k) := by
      intro k
      cases Nat.decEq k j with
      | isTrue e =>
        rw [e, hcw'j, hn]
        exact waitsAt_key (o := some wj) (waitsAt_self g v res pc) (fun e' => hh (Eq.symm e'))
      | isFalse e => rw [hcw'o k e]; exact ⟨rfl, rfl⟩
    exact ⟨readyW_congr memb N h (fun k => (e1 k).1), rvec_congr memb h (fun k => (e1 k).2)⟩
  refine ⟨?_, ?_, hR.2.2.1, hR.2.2.2⟩
  · intro k
    show collTh memb (doneW memb N g j w.cw) g j pc res (cvec memb g j v w.cw) w.s.th w.cw k =
      projT memb N cw' k (d.s.th k) (cw' k)
    rw [hD, collTh_cv memb _ g j pc res hCV k]
    cases Nat.decEq k j with
    | isTrue e =>
      rw [e, collTh_self, hthj, hcw'j]
      show cond (readyW memb N g cw') (TState.mk pc (res.f (rvec memb g cw')) (d.s.th j).status) (d.s.th j) =
        cond (memb g j && readyW memb N g cw') (TState.mk pc (res.f (rvec memb g cw')) (d.s.th j).status) (d.s.th j)
      rw [hmj]
      rfl
    | isFalse e =>
      rw [collTh_other _ _ _ _ _ _ _ _ _ e, hcw'o k e, hR.1 k]
      cases hk : d.cw k with
      | none =>
        rw [relK_nowait memb _ g _ k _ (by rw [hR.2.1 k, hk]; rfl)]
        rfl
      | some wt =>
        rw [← hk, hR.2.1 k]
        cases Nat.decEq wt.key g with
        | isTrue ek =>
          have hnp : (memb wt.key k && readyW memb N wt.key d.cw) = false := by
            rw [ek, hg]; cases memb g k <;> rfl
          rw [hk]
          show cond (relB memb (readyW memb N g cw') g k
              (cond (memb wt.key k && readyW memb N wt.key d.cw) none (some wt)))
              (relW (rvec memb g cw') (cond (memb wt.key k && readyW memb N wt.key d.cw) none (some wt))
                (cond (memb wt.key k && readyW memb N wt.key d.cw)
                  (TState.mk wt.pc (wt.res.f (rvec memb wt.key d.cw)) (d.s.th k).status) (d.s.th k)))
              (cond (memb wt.key k && readyW memb N wt.key d.cw)
                (TState.mk wt.pc (wt.res.f (rvec memb wt.key d.cw)) (d.s.th k).status) (d.s.th k)) =
            cond (memb wt.key k && readyW memb N wt.key cw')
              (TState.mk wt.pc (wt.res.f (rvec memb wt.key cw')) (d.s.th k).status) (d.s.th k)
          rw [hnp]
          show cond (readyW memb N g cw' && memb g k && waitsAt g (some wt))
              (TState.mk wt.pc (wt.res.f (rvec memb g cw')) (d.s.th k).status) (d.s.th k) = _
          have hwt : waitsAt g (some wt) = true := by
            show decide (wt.key = g) = true
            exact decide_eq_true' ek
          rw [hwt, band_comm3, ← ek]
        | isFalse ek =>
          have hh := hoth wt.key ek
          have hnw : waitsAt g (projC memb N d.cw k (d.cw k)) = false := by
            rw [(projC_wait memb N d.cw hg).1, hk]
            exact (waitsAt_key (o := some wt) (decide_eq_true' rfl) ek).1
          rw [relK_nowait memb _ g _ k _ hnw, hk]
          exact Eq.symm (projT_congr memb N k _ wt hh.1 hh.2)
  · intro k
    show collCw memb (doneW memb N g j w.cw) g j wj w.cw k = projC memb N cw' k (cw' k)
    rw [hD]
    cases Nat.decEq k j with
    | isTrue e =>
      rw [e, collCw_self, hcw'j]
      show cond (readyW memb N g cw') none (some wj) =
        cond (memb g j && readyW memb N g cw') none (some wj)
      rw [hmj]
      rfl
    | isFalse e =>
      rw [collCw_other _ _ _ _ _ _ e, hcw'o k e, hR.2.1 k]
      cases hk : d.cw k with
      | none =>
        show cond (relB memb (readyW memb N g cw') g k none) none none = none
        rw [relB_none]
        rfl
      | some wt =>
        cases Nat.decEq wt.key g with
        | isTrue ek =>
          have hnp : (memb wt.key k && readyW memb N wt.key d.cw) = false := by
            rw [ek, hg]; cases memb g k <;> rfl
          show cond (relB memb (readyW memb N g cw') g k
              (cond (memb wt.key k && readyW memb N wt.key d.cw) none (some wt))) none
              (cond (memb wt.key k && readyW memb N wt.key d.cw) none (some wt)) =
            cond (memb wt.key k && readyW memb N wt.key cw') none (some wt)
          rw [hnp]
          show cond (readyW memb N g cw' && memb g k && waitsAt g (some wt)) none (some wt) = _
          have hwt : waitsAt g (some wt) = true := by
            show decide (wt.key = g) = true
            exact decide_eq_true' ek
          rw [hwt, band_comm3, ← ek]
        | isFalse ek =>
          have hh := hoth wt.key ek
          have hnw : waitsAt g (projC memb N d.cw k (some wt)) = false := by
            rw [← hk, (projC_wait memb N d.cw hg).1, hk]
            exact (waitsAt_key (o := some wt) (decide_eq_true' rfl) ek).1
          rw [relC_nowait memb _ g k hnw]
          exact Eq.symm (projC_congr memb N k wt hh.1)

end Sim

section Resolve

variable {V : Type} [AccAdd V]

/-- Resolving a complete instance: nothing to do on the `WSem` side, which completed it at the
last arrival. -/
theorem sim_resolve (memb : Nat → Nat → Bool) (N : Nat) {d w : WState V} {g : Nat}
    (hR : Rel memb N d w) (hg : readyW memb N g d.cw = true) : Rel memb N (resolveW memb g d) w := by
  let cw' := fun k => cond (relB memb true g k (d.cw k)) none (d.cw k)
  have hoth : ∀ h, h ≠ g → readyW memb N h cw' = readyW memb N h d.cw ∧
      ∀ x, rvec memb h cw' x = rvec memb h d.cw x := by
    intro h hh
    have e1 : ∀ k, waitsAt h (cw' k) = waitsAt h (d.cw k) ∧ contribAt h (cw' k) = contribAt h (d.cw k) := by
      intro k
      show waitsAt h (cond (relB memb true g k (d.cw k)) none (d.cw k)) = waitsAt h (d.cw k) ∧
        contribAt h (cond (relB memb true g k (d.cw k)) none (d.cw k)) = contribAt h (d.cw k)
      cases hb : relB memb true g k (d.cw k) with
      | false => exact ⟨rfl, rfl⟩
      | true =>
        have hw := waitsAt_key (and_right' hb) (fun e => hh (Eq.symm e))
        rw [hw.1, hw.2]
        exact ⟨rfl, rfl⟩
    exact ⟨readyW_congr memb N h (fun k => (e1 k).1), rvec_congr memb h (fun k => (e1 k).2)⟩
  refine ⟨?_, ?_, hR.2.2.1, hR.2.2.2⟩
  · intro k
    rw [hR.1 k]
    show projT memb N d.cw k (d.s.th k) (d.cw k) =
      projT memb N cw' k (cond (relB memb true g k (d.cw k))
        (relW (rvec memb g d.cw) (d.cw k) (d.s.th k)) (d.s.th k))
        (cond (relB memb true g k (d.cw k)) none (d.cw k))
    cases hk : d.cw k with
    | none =>
      show d.s.th k = projT memb N cw' k (cond (relB memb true g k none) _ (d.s.th k))
        (cond (relB memb true g k none) none none)
      rw [relB_none]
      rfl
    | some wt =>
      cases Nat.decEq wt.key g with
      | isTrue ek =>
        have hwt : waitsAt g (some wt) = true := by
          show decide (wt.key = g) = true
          exact decide_eq_true' ek
        show cond (memb wt.key k && readyW memb N wt.key d.cw)
            (TState.mk wt.pc (wt.res.f (rvec memb wt.key d.cw)) (d.s.th k).status) (d.s.th k) =
          projT memb N cw' k (cond (true && memb g k && waitsAt g (some wt))
            (relW (rvec memb g d.cw) (some wt) (d.s.th k)) (d.s.th k))
            (cond (true && memb g k && waitsAt g (some wt)) none (some wt))
        rw [hwt, ek, hg]
        cases hm : memb g k with
        | true => rfl
        | false =>
          show d.s.th k = projT memb N cw' k (d.s.th k) (some wt)
          show d.s.th k = cond (memb wt.key k && readyW memb N wt.key cw') _ (d.s.th k)
          rw [ek, hm]
          rfl
      | isFalse ek =>
        have hb : relB memb true g k (some wt) = false := by
          show (true && memb g k && waitsAt g (some wt)) = false
          rw [(waitsAt_key (o := some wt) (decide_eq_true' rfl) ek).1, and_false']
        show projT memb N d.cw k (d.s.th k) (some wt) =
          projT memb N cw' k (cond (relB memb true g k (some wt)) _ (d.s.th k))
            (cond (relB memb true g k (some wt)) none (some wt))
        rw [hb]
        have hh := hoth wt.key ek
        exact Eq.symm (projT_congr memb N k _ wt hh.1 hh.2)
  · intro k
    rw [hR.2.1 k]
    show projC memb N d.cw k (d.cw k) =
      projC memb N cw' k (cond (relB memb true g k (d.cw k)) none (d.cw k))
    cases hk : d.cw k with
    | none =>
      show (none : Option (Wait V)) = projC memb N cw' k (cond (relB memb true g k none) none none)
      rw [relB_none]
      rfl
    | some wt =>
      cases Nat.decEq wt.key g with
      | isTrue ek =>
        have hwt : waitsAt g (some wt) = true := by
          show decide (wt.key = g) = true
          exact decide_eq_true' ek
        show cond (memb wt.key k && readyW memb N wt.key d.cw) none (some wt) =
          projC memb N cw' k (cond (true && memb g k && waitsAt g (some wt)) none (some wt))
        rw [hwt, ek, hg]
        cases hm : memb g k with
        | true => rfl
        | false =>
          show some wt = projC memb N cw' k (some wt)
          show some wt = cond (memb wt.key k && readyW memb N wt.key cw') none (some wt)
          rw [ek, hm]
          rfl
      | isFalse ek =>
        have hb : relB memb true g k (some wt) = false := by
          show (true && memb g k && waitsAt g (some wt)) = false
          rw [(waitsAt_key (o := some wt) (decide_eq_true' rfl) ek).1, and_false']
        show projC memb N d.cw k (some wt) = projC memb N cw' k (cond (relB memb true g k (some wt)) none (some wt))
        rw [hb]
        have hh := hoth wt.key ek
        exact Eq.symm (projC_congr memb N k wt hh.1)

end Resolve

section Reach

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)

theorem dinv_thread {d : WState V} {i : Nat} (hI : DInv N d) (hi : i < N)
    (hr : (d.s.th i).status = Status.run) (hn : d.cw i = none) : DInv N (dnext wp N i d) := by
  cases hA : wact wp i d with
  | base A =>
    rw [dnext_base wp N i d hA]
    refine ⟨fun k hk => ?_, hI.2⟩
    have hki : k ≠ i := fun e => hk (by rw [e]; exact hn)
    show ((next (baseProg wp) N i d.s).th k).status = Status.run
    rw [next_th_run (baseProg wp) N i d.s hki (hI.1 k hk)]
    exact hI.1 k hk
  | coll g v res pc =>
    rw [dnext_coll wp N i d hA]
    refine ⟨fun k hk => ?_, fun k hk => ?_⟩
    · cases Nat.decEq k i with
      | isTrue e => rw [e]; exact hr
      | isFalse e =>
        have hk' : d.cw k ≠ none := by
          intro h0
          apply hk
          show upd d.cw i _ k = none
          rw [upd_other _ _ e]
          exact h0
        exact hI.1 k hk'
    · have e : k ≠ i := fun e => hk (by rw [e]; exact hi)
      show upd d.cw i _ k = none
      rw [upd_other _ _ e]
      exact hI.2 k hk

theorem dinv_resolve {d : WState V} (g : Nat) (hI : DInv N d) : DInv N (resolveW memb g d) := by
  refine ⟨fun k hk => ?_, fun k hk => ?_⟩
  · show (relK memb true g (rvec memb g d.cw) k (d.s.th k) (d.cw k)).status = Status.run
    rw [relK_status]
    apply hI.1 k
    intro h0
    apply hk
    show cond (relB memb true g k (d.cw k)) none (d.cw k) = none
    rw [h0]
    cases relB memb true g k none <;> rfl
  · show cond (relB memb true g k (d.cw k)) none (d.cw k) = none
    rw [hI.2 k hk]
    cases relB memb true g k none <;> rfl

theorem rel_refl {s : WState V} (h0 : ∀ k, s.cw k = none) : Rel memb N s s := by
  refine ⟨fun k => ?_, fun k => ?_, fun _ => rfl, fun _ => rfl⟩
  · rw [h0 k]; rfl
  · rw [h0 k]; rfl

theorem dinv_init {s : WState V} (h0 : ∀ k, s.cw k = none) : DInv N s :=
  ⟨fun k hk => False.elim (hk (h0 k)), fun k _ => h0 k⟩

/-- The simulation: a run of the deferred semantics is matched by a run of `WSem` from the
related state (each thread step by the same step, each resolution by none). -/
theorem dreach_sim (hown : CollOwn memb wp) {d0 d : WState V} (hd : DReach memb wp N d0 d) :
    ∀ w0, Rel memb N d0 w0 → DInv N d0 →
      ∃ w, WReach memb wp N w0 w ∧ Rel memb N d w ∧ DInv N d := by
  induction hd with
  | refl s => intro w0 hR hI; exact ⟨w0, WReach.refl w0, hR, hI⟩
  | @step s t u hst _ ih =>
    intro w0 hR hI
    cases hst with
    | thread i hi hr hn =>
      cases hA : wact wp i s with
      | base A =>
        have h := sim_base memb wp N hR hi hr hn hA
        match ih _ h.2 (dinv_thread wp N hI hi hr hn) with
        | ⟨w, hw, hR', hI'⟩ => exact ⟨w, WReach.step ⟨i, h.1⟩ hw, hR', hI'⟩
      | coll g v res pc =>
        have h := sim_coll memb wp N hR hi hr hn hown hA
        match ih _ h.2 (dinv_thread wp N hI hi hr hn) with
        | ⟨w, hw, hR', hI'⟩ => exact ⟨w, WReach.step ⟨i, h.1⟩ hw, hR', hI'⟩
    | resolve g hg =>
      exact ih w0 (sim_resolve memb N hR hg) (dinv_resolve memb N g hI)

/-- A final state of the deferred semantics (the executor's way of completing collectives),
reached from a state where nobody waits, is reached by `WSem` too. -/
theorem dfinal_reach (hown : CollOwn memb wp) {s0 d : WState V} (h0 : ∀ k, s0.cw k = none)
    (hd : DReach memb wp N s0 d) (hf : WFinal N d) : ∃ w, WReach memb wp N s0 w ∧ WSame w d := by
  match dreach_sim memb wp N hown hd s0 (rel_refl memb N h0) (dinv_init N h0) with
  | ⟨w, hw, hR, hI⟩ =>
    have hnone : ∀ k, d.cw k = none := by
      intro k
      cases Nat.decLt k N with
      | isTrue hk =>
        cases hc : d.cw k with
        | none => rfl
        | some wt =>
          have h1 := hI.1 k (by rw [hc]; intro e; cases e)
          rw [hf k hk] at h1
          cases h1
      | isFalse hk => exact hI.2 k hk
    refine ⟨w, hw, ⟨⟨fun k => ?_, hR.2.2.1, hR.2.2.2⟩, fun k => ?_⟩⟩
    · rw [hR.1 k, hnone k]; rfl
    · rw [hR.2.1 k, hnone k]; rfl

/-- Under the hypotheses of `wconfluence`, every final state of every `WSem` schedule equals a
final state of the deferred semantics (such as the executor's run). -/
theorem dfinal_unique {s0 d : WState V} (h0 : ∀ k, s0.cw k = none)
    (hrf : WRaceFree memb wp N s0) (hfit : WBarriersFit memb wp N s0) (hown : CollOwn memb wp)
    (hd : DReach memb wp N s0 d) (hf : WFinal N d) {t : WState V}
    (ht : WReach memb wp N s0 t) (ft : WFinal N t) : WSame t d := by
  match dfinal_reach memb wp N hown h0 hd hf with
  | ⟨w, hw, hwd⟩ =>
    have fw : WFinal N w := fun k hk => by rw [hwd.1.1 k]; exact hf k hk
    exact wsame_trans (wconfluence memb wp N hrf hfit (collOwnR_of_static memb wp N s0 hown)
      ht hw ft fw) hwd

/-- Under the same hypotheses, if the deferred semantics finishes, no `WSem` schedule gets
stuck. -/
theorem dfinal_no_stuck {s0 d : WState V} (h0 : ∀ k, s0.cw k = none)
    (hrf : WRaceFree memb wp N s0) (hfit : WBarriersFit memb wp N s0) (hown : CollOwn memb wp)
    (hd : DReach memb wp N s0 d) (hf : WFinal N d) {t : WState V}
    (ht : WReach memb wp N s0 t) (hs : ∀ v, WStep memb wp N t v → False) : WFinal N t := by
  match dfinal_reach memb wp N hown h0 hd hf with
  | ⟨w, hw, hwd⟩ =>
    have fw : WFinal N w := fun k hk => by rw [hwd.1.1 k]; exact hf k hk
    exact wno_stuck memb wp N hrf hfit (collOwnR_of_static memb wp N s0 hown) hw fw ht hs

end Reach

/-! ## The 2-lane shuffle, run the executor's way -/

namespace Example

def d1 : WState Nat := dnext prog2 2 0 s0
def d2 : WState Nat := dnext prog2 2 1 d1
def d3 : WState Nat := resolveW memb2 0 d2
def d4 : WState Nat := dnext prog2 2 0 d3
def d5 : WState Nat := dnext prog2 2 1 d4

/-- Both lanes block at the shuffle, it is resolved, both exit. -/
theorem dex_reach : DReach memb2 prog2 2 s0 d5 ∧ WFinal 2 d5 := by
  refine ⟨?_, ?_⟩
  · refine DReach.step (DStep.thread 0 (by decide) rfl rfl) ?_
    refine DReach.step (DStep.thread 1 (by decide) rfl rfl) ?_
    refine DReach.step (DStep.resolve 0 rfl) ?_
    refine DReach.step (DStep.thread 0 (by decide) rfl rfl) ?_
    exact DReach.step (DStep.thread 1 (by decide) rfl rfl) (DReach.refl _)
  · intro k hk
    cases k with
    | zero => rfl
    | succ k =>
      cases k with
      | zero => rfl
      | succ k => exact False.elim (Nat.notSuccLeZero k (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hk)))

theorem dex_result : (d5.s.th 0).regs 1 = 20 ∧ (d5.s.th 1).regs 1 = 10 := ⟨rfl, rfl⟩

theorem s0_cw : ∀ k, s0.cw k = none := fun _ => rfl

/-- Every final state of every `WSem` schedule of the example is the deferred run's. -/
theorem dex_agrees {t : WState Nat} (ht : WReach memb2 prog2 2 s0 t) (ft : WFinal 2 t) :
    WSame t d5 :=
  dfinal_unique memb2 prog2 2 s0_cw ex_raceFree ex_fit ex_own dex_reach.1 dex_reach.2 ht ft

end Example

end Warp
end Kcert
