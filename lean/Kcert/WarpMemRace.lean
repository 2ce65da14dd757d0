import Kcert.WarpMemSem

/-!
# `MRaceFree` from a lane-by-lane race check (`WarpMemRace`)

The Rust's race check at a collective's deferred completion (`complete_ldmatrix`,
`exec/wmma.rs`) does not look at an instance's accesses as a whole: each access attributed to a
lane goes through the ordinary access path with that lane's clock.  This file states that check
on `MSem` states, lane by lane (`LaneCheck`), and proves that it gives `MRaceFree`
(`mraceFree_of_laneCheck`), so `mconfluence` / `mno_stuck` apply:

* the thread/instance clause: every attributed access of every lane of a ready instance, as an
  ordinary access, does not conflict with an enabled thread's `Sem` action
  (`noMConflict_of_lanes` of `WarpMemSem`);
* the instance/instance clause: for two different ready instances, every pair of a lane of the
  one and a lane of the other has no stored address in common with the other's loads or stores
  (`instNC_of_lanes`; lanes of the same instance are not checked against each other, as in the
  Rust, which adds no clock edge between them and checks them against each other only as accesses
  of different lanes of one completion, not needed here).

NOT here: the simulation by a `Sem` view (`mview`) whose solo traces carry the lanes' accesses,
that would derive `LaneCheck` at every reachable `MSem` state from the executor's run.
-/

namespace Kcert
namespace WarpMem

open Sem

section LaneRace

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

theorem inA_wr_append_false {a : Nat} : ∀ (l1 l2 : List (WrAcc V)), inA a (wrAddrs l1) = false →
    inA a (wrAddrs l2) = false → inA a (wrAddrs (wrApp l1 l2)) = false := by
  intro l1
  induction l1 with
  | nil => intro l2 _ h2; exact h2
  | cons w l ih =>
    intro l2 h1 h2
    have h := inA_cons_false h1
    show (decide (a = w.addr) || inA a (wrAddrs (wrApp l l2))) = false
    rw [decide_eq_false' h.1, ih l2 h.2 h2]
    rfl

theorem inA_wr_append_true {a : Nat} : ∀ (l1 l2 : List (WrAcc V)),
    inA a (wrAddrs (wrApp l1 l2)) = true → inA a (wrAddrs l1) = true ∨ inA a (wrAddrs l2) = true := by
  intro l1
  induction l1 with
  | nil => intro l2 h; exact Or.inr h
  | cons w l ih =>
    intro l2 h
    cases inA_true h with
    | inl e =>
      apply Or.inl
      rw [e]
      exact inA_head w.addr (wrAddrs l)
    | inr h' =>
      cases ih l2 h' with
      | inl h1 => exact Or.inl (inA_tail a w.addr h1)
      | inr h2 => exact Or.inr h2

/-- An address no lane of `g` loads is not loaded by `g`. -/
theorem rsOf_notin_lanes (g : Nat) (s : CState V) {a : Nat}
    (h : ∀ k, laneOf memb mp N g s k = true → inA a (rdAddrs (collRs (mact mp k s))) = false) :
    ∀ n, inA a (rdAddrs (rsOf memb mp N g s n)) = false := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show inA a (rdAddrs (rdApp (rsOf memb mp N g s n)
      (cond (laneOf memb mp N g s n) (collRs (mact mp n s)) []))) = false
    apply inA_rd_append_false _ _ ih
    cases e : laneOf memb mp N g s n with
    | true => exact h n e
    | false => rfl

/-- An address no lane of `g` stores is not stored by `g`. -/
theorem wsOf_notin_lanes (g : Nat) (s : CState V) {a : Nat}
    (h : ∀ k, laneOf memb mp N g s k = true → inA a (wrAddrs (collWs (mact mp k s))) = false) :
    ∀ n, inA a (wrAddrs (wsOf memb mp N g s n)) = false := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show inA a (wrAddrs (wrApp (wsOf memb mp N g s n)
      (cond (laneOf memb mp N g s n) (collWs (mact mp n s)) []))) = false
    apply inA_wr_append_false _ _ ih
    cases e : laneOf memb mp N g s n with
    | true => exact h n e
    | false => rfl

/-- An address stored by `g` is stored on behalf of one of its lanes. -/
theorem wsOf_lane (g : Nat) (s : CState V) {a : Nat} :
    ∀ n, inA a (wrAddrs (wsOf memb mp N g s n)) = true →
      ∃ k, laneOf memb mp N g s k = true ∧ inA a (wrAddrs (collWs (mact mp k s))) = true := by
  intro n
  induction n with
  | zero => intro h; cases h
  | succ n ih =>
    intro h
    have h' : inA a (wrAddrs (wrApp (wsOf memb mp N g s n)
      (cond (laneOf memb mp N g s n) (collWs (mact mp n s)) []))) = true := h
    cases inA_wr_append_true _ _ h' with
    | inl h1 => exact ih h1
    | inr h2 =>
      cases e : laneOf memb mp N g s n with
      | true =>
        rw [e] at h2
        exact ⟨n, e, h2⟩
      | false =>
        rw [e] at h2
        cases h2

/-- The Rust's instance/instance check, lane by lane: every lane of `g` against every lane of
`h`, their attributed accesses as ordinary accesses (no stored address of one is loaded or
stored by the other). -/
def LanesNC (g h : Nat) (s : CState V) : Prop :=
  ∀ k k', laneOf memb mp N g s k = true → laneOf memb mp N h s k' = true →
    InstNC (collRs (mact mp k s)) (collWs (mact mp k s)) (collRs (mact mp k' s))
      (collWs (mact mp k' s))

/-- The lane-by-lane check gives the instance/instance clause of `MRaceFree`. -/
theorem instNC_of_lanes (g h : Nat) (s : CState V) (hl : LanesNC memb mp N g h s) :
    InstNC (rsOf memb mp N g s N) (wsOf memb mp N g s N) (rsOf memb mp N h s N)
      (wsOf memb mp N h s N) := by
  refine ⟨fun a ha => ?_, fun a ha => ?_, fun a ha => ?_⟩
  · match wsOf_lane memb mp N g s N ha with
    | ⟨k, hk, hka⟩ =>
      exact wsOf_notin_lanes memb mp N h s (fun k' hk' => (hl k k' hk hk').1 a hka) N
  · match wsOf_lane memb mp N g s N ha with
    | ⟨k, hk, hka⟩ =>
      exact rsOf_notin_lanes memb mp N h s (fun k' hk' => (hl k k' hk hk').2.1 a hka) N
  · match wsOf_lane memb mp N h s N ha with
    | ⟨k', hk', hka⟩ =>
      exact rsOf_notin_lanes memb mp N g s (fun k hk => (hl k k' hk hk').2.2 a hka) N

/-- Every attributed write of a list satisfies `P`. -/
def WrAll (P : WrAcc V → Prop) : List (WrAcc V) → Prop
  | [] => True
  | w :: l => P w ∧ WrAll P l

theorem wrAll_at (P : WrAcc V → Prop) {a : Nat} : ∀ (ws : List (WrAcc V)), WrAll P ws →
    inA a (wrAddrs ws) = true → ∃ w : WrAcc V, w.addr = a ∧ P w := by
  intro ws
  induction ws with
  | nil => intro _ h; cases h
  | cons w l ih =>
    intro hw h
    cases inA_true h with
    | inl e => exact ⟨w, Eq.symm e, hw.1⟩
    | inr e => exact ih hw.2 e

/-- Two lanes' attributed accesses pass the Rust's ordinary access check against each other:
each write of the first, as an ordinary write, conflicts with no access of the second, and each
write of the second with no read of the first. -/
def PairNC (rs1 : List RdAcc) (ws1 : List (WrAcc V)) (rs2 : List RdAcc) (ws2 : List (WrAcc V)) :
    Prop :=
  WrAll (fun w => AccNC (wrAct w) rs2 ws2) ws1 ∧ WrAll (fun w => RdNC (wrAct w) rs1) ws2

/-- The ordinary access check of two lanes' accesses gives `InstNC` of the two. -/
theorem instNC_of_pairNC (rs1 : List RdAcc) (ws1 : List (WrAcc V)) (rs2 : List RdAcc)
    (ws2 : List (WrAcc V)) (h : PairNC rs1 ws1 rs2 ws2) : InstNC rs1 ws1 rs2 ws2 := by
  refine ⟨fun a ha => ?_, fun a ha => ?_, fun a ha => ?_⟩
  · match wrAll_at _ ws1 h.1 ha with
    | ⟨w, e, hw⟩ =>
      rw [← e]
      exact wr_notin ws2 (wrAct w) hw.2 (fun w' hc ea => hc ea)
  · match wrAll_at _ ws1 h.1 ha with
    | ⟨w, e, hw⟩ =>
      rw [← e]
      exact rd_notin rs2 (wrAct w) hw.1 (Or.inl rfl)
  · match wrAll_at _ ws2 h.2 ha with
    | ⟨w, e, hw⟩ =>
      rw [← e]
      exact rd_notin rs1 (wrAct w) hw (Or.inl rfl)

/-- `LanesNC` from the ordinary access check of every lane pair of two instances. -/
theorem lanesNC_of_pairs (g h : Nat) (s : CState V)
    (hp : ∀ k k', laneOf memb mp N g s k = true → laneOf memb mp N h s k' = true →
      PairNC (collRs (mact mp k s)) (collWs (mact mp k s)) (collRs (mact mp k' s))
        (collWs (mact mp k' s))) : LanesNC memb mp N g h s :=
  fun k k' hk hk' => instNC_of_pairNC _ _ _ _ (hp k k' hk hk')

/-- The Rust's race check with memory collectives at a state, lane by lane: two enabled threads'
`Sem` actions do not conflict and their barriers fit; each access attributed to a lane of a
ready instance, as an ordinary access of that lane, does not conflict with an enabled thread's
`Sem` action; two lanes of two different ready instances pass `LanesNC`. -/
def LaneCheck (r : CState V) : Prop :=
  (∀ i j, i ≠ j → Enabled memb mp N r (MLbl.thr i) → Enabled memb mp N r (MLbl.thr j) →
    ¬Conflict (act (mbase mp) i r) (act (mbase mp) j r) ∧
      BarFits N r (act (mbase mp) i r) (act (mbase mp) j r)) ∧
  (∀ j g k, Enabled memb mp N r (MLbl.thr j) → InstReady memb mp N g r →
    laneOf memb mp N g r k = true →
      AccNC (act (mbase mp) j r) (collRs (mact mp k r)) (collWs (mact mp k r))) ∧
  (∀ g h, g ≠ h → InstReady memb mp N g r → InstReady memb mp N h r → LanesNC memb mp N g h r)

/-- The lane-by-lane check at every reachable state gives `MRaceFree`, the hypothesis of
`mconfluence` and `mno_stuck`. -/
theorem mraceFree_of_laneCheck {s0 : CState V}
    (h : ∀ r, MReach memb mp N s0 r → LaneCheck memb mp N r) : MRaceFree memb mp N s0 := by
  intro r hr
  have c := h r hr
  refine ⟨c.1, fun j g hj hg => ?_, fun g g' hgg hg hg' => ?_⟩
  · exact noMConflict_of_lanes memb mp N g r (act (mbase mp) j r)
      (fun k hk => c.2.1 j g k hj hg hk)
  · exact instNC_of_lanes memb mp N g g' r (c.2.2 g g' hgg hg hg')

/-- The pairs `LaneCheck` checks are pairs of different threads: an enabled thread is not a lane
of any instance ... -/
theorem enabled_not_lane {r : CState V} {j g k : Nat} (hj : Enabled memb mp N r (MLbl.thr j))
    (hk : laneOf memb mp N g r k = true) : j ≠ k := by
  intro e
  rw [← e, laneOf_base memb mp N hj.2.2] at hk
  cases hk

/-- ... and a lane of one instance is not a lane of another. -/
theorem lanes_distinct {r : CState V} {g h k k' : Nat} (hgh : g ≠ h)
    (hk : laneOf memb mp N g r k = true) (hk' : laneOf memb mp N h r k' = true) : k ≠ k' := by
  intro e
  rw [← e, laneOf_other memb mp N (laneOf_at memb mp N hk) (fun x => hgh (Eq.symm x))] at hk'
  cases hk'

end LaneRace

/-! ## Non-vacuity: `MEx` through the lane-by-lane check -/

namespace MEx

/-- The accesses attributed to a thread of `MEx`: none, or one row read at `100` or `101`. -/
theorem lane_rows (r : CState Nat) (k : Nat) :
    collWs (mact mpE k r) = [] ∧
      (collRs (mact mpE k r) = [] ∨ collRs (mact mpE k r) = [RdAcc.mk 0 100] ∨
        collRs (mact mpE k r) = [RdAcc.mk 1 101]) := by
  refine ⟨ws_nil r k, ?_⟩
  show collRs (mpE k (r.th k).pc (r.th k).regs) = [] ∨
    collRs (mpE k (r.th k).pc (r.th k).regs) = [RdAcc.mk 0 100] ∨
    collRs (mpE k (r.th k).pc (r.th k).regs) = [RdAcc.mk 1 101]
  cases shape k (r.th k).pc (r.th k).regs with
  | inl e => rw [e]; exact Or.inl rfl
  | inr o =>
    cases o with
    | inl e => rw [e.2]; exact Or.inl rfl
    | inr e =>
      rw [e]
      show rowOf k = [] ∨ rowOf k = [RdAcc.mk 0 100] ∨ rowOf k = [RdAcc.mk 1 101]
      show cond (decide (k = 0)) [RdAcc.mk 0 100] [RdAcc.mk 1 101] = [] ∨
        cond (decide (k = 0)) [RdAcc.mk 0 100] [RdAcc.mk 1 101] = [RdAcc.mk 0 100] ∨
        cond (decide (k = 0)) [RdAcc.mk 0 100] [RdAcc.mk 1 101] = [RdAcc.mk 1 101]
      cases decide (k = 0) with
      | true => exact Or.inr (Or.inl rfl)
      | false => exact Or.inr (Or.inr rfl)

theorem ne100 : ¬((100 : Nat) = 200) := by decide
theorem ne101 : ¬((101 : Nat) = 200) := by decide

/-- Each lane's attributed row read, as an ordinary read, does not conflict with `exit` or with
thread 2's store at `200`. -/
theorem lane_acc (r : CState Nat) (k : Nat) (B : Act Nat)
    (hB : B = Act.exit ∨ B = Act.write 200 5 1) :
    AccNC B (collRs (mact mpE k r)) (collWs (mact mpE k r)) := by
  have hl := lane_rows r k
  rw [hl.1]
  refine ⟨?_, trivial⟩
  cases hl.2 with
  | inl e => rw [e]; trivial
  | inr o =>
    cases o with
    | inl e =>
      rw [e]
      refine ⟨?_, trivial⟩
      cases hB with
      | inl eB => rw [eB]; exact fun x => x
      | inr eB => rw [eB]; exact ne100
    | inr e =>
      rw [e]
      refine ⟨?_, trivial⟩
      cases hB with
      | inl eB => rw [eB]; exact fun x => x
      | inr eB => rw [eB]; exact ne101

theorem laneCheck (r : CState Nat) : LaneCheck membE mpE 3 r := by
  refine ⟨fun i j hij hi hj => ?_, fun j g k hj _ _ => ?_, fun g h _ _ _ k k' _ _ => ?_⟩
  · cases base_shape r i hi.2.2 with
    | inl e => rw [e]; exact ⟨fun x => x, trivial⟩
    | inr ei =>
      rw [ei.2]
      cases base_shape r j hj.2.2 with
      | inl e => rw [e]; exact ⟨fun x => x, trivial⟩
      | inr ej => exact False.elim (hij (Eq.trans ei.1 (Eq.symm ej.1)))
  · cases base_shape r j hj.2.2 with
    | inl e => exact lane_acc r k _ (Or.inl e)
    | inr e => exact lane_acc r k _ (Or.inr e.2)
  · rw [(lane_rows r k).1, (lane_rows r k').1]
    exact And.intro (fun a x => by cases x) (And.intro (fun a x => by cases x) (fun a x => by cases x))

/-- `MEx`'s race freedom, now through the lane-by-lane check. -/
theorem raceFree_lanes : MRaceFree membE mpE 3 e0 :=
  mraceFree_of_laneCheck membE mpE 3 (fun r _ => laneCheck r)

/-- `every_final` of `MEx` again, with `MRaceFree` from the lane-by-lane check. -/
theorem every_final_lanes {t : CState Nat} (h : MReach membE mpE 3 e0 t) (f : Final 3 t) :
    Same e5 t :=
  mconfluence membE mpE 3 relOK raceFree_lanes reach.1 h reach.2 f

end MEx

end WarpMem
end Kcert
