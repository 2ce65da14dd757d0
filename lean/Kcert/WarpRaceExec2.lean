import Kcert.WarpRaceExec

/-!
# The executor's run with warp collectives: the checks at the collectives' ids

`WarpRaceExec.lean`'s `warp_run_sound` takes the named-barrier checks on the whole history of
`canonRunW`.  At the ids `B + g` of the `bar.warp.sync` instances they are what `resolve_warps`
gives, not checks of the Rust: here they are proved of the run.  Every completion of an id
`B + g` drains each lane of `g` below `N` once and no other thread (check (2) with
`S (B + g)` = the lanes of `g`), and nothing stays pending at an id `≥ B` (the end-of-run
check).  With `rust3_of_below` (check (3) is never consulted at these ids), the run's checks are
needed only at the program's own barrier ids (below `B`): `WarpRace.warp_run_sound_lo`.
-/

namespace Kcert
namespace Race

open Sem (Act)
open Members (nEv pendI cntP)

section J

variable {V : Type} [Sem.AccAdd V]

theorem add_cancel_l : ∀ (B : Nat) {a b : Nat}, B + a = B + b → a = b
  | 0, a, b, h => by rw [Nat.zero_add, Nat.zero_add] at h; exact h
  | B + 1, a, b, h => by
    rw [Nat.succ_add, Nat.succ_add] at h
    exact add_cancel_l B (Nat.succ.inj h)

theorem ne_of_lt_add {b B g : Nat} (hb : b < B) : ¬ b = B + g := by
  intro e
  rw [e] at hb
  exact Nat.ltIrrefl (B + g) (Nat.ltOfLtOfLe hb (Nat.leAddRight B g))

theorem add_ne_of_ne {B g g' : Nat} (hne : ¬ g' = g) : ¬ B + g' = B + g :=
  fun e => hne (add_cancel_l B e)

theorem nEv_evN_other {k u : Nat} (hne : ¬ u = k) (h : List (EventN V)) :
    ∀ A : Act V, nEv k (evN u A :: h) = nEv k h
  | Act.arrive b n w pc => by
    show (if u = k then nEv k h + 1 else nEv k h) = nEv k h
    exact if_neg' hne
  | Act.compute pc g => by
    show (if u = k then nEv k h + 1 else nEv k h) = nEv k h
    exact if_neg' hne
  | Act.read a r pc => by
    show (if u = k then nEv k h + 1 else nEv k h) = nEv k h
    exact if_neg' hne
  | Act.write a v pc => by
    show (if u = k then nEv k h + 1 else nEv k h) = nEv k h
    exact if_neg' hne
  | Act.atomAdd a v pc => by
    show (if u = k then nEv k h + 1 else nEv k h) = nEv k h
    exact if_neg' hne
  | Act.exit => by
    show (if u = k then nEv k h + 1 else nEv k h) = nEv k h
    exact if_neg' hne

theorem blk_evN_other {k u : Nat} (hne : ¬ u = k) (h : List (EventN V)) :
    ∀ A : Act V, blk k (evN u A :: h) = blk k h
  | Act.arrive b n w pc => by
    show ((w && decide (u = k)) || blk k h) = blk k h
    rw [decide_eq_false' hne]
    cases w with
    | true => rfl
    | false => rfl
  | Act.compute pc g => rfl
  | Act.read a r pc => rfl
  | Act.write a v pc => rfl
  | Act.atomAdd a v pc => rfl
  | Act.exit => rfl

theorem laneAt_other {ck : Nat → Nat → Option Nat} {g k u : Nat} (hne : ¬ u = k)
    (h : List (EventN V)) (A : Act V) : laneAt ck g k (evN u A :: h) = laneAt ck g k h := by
  show (!blk k (evN u A :: h) && isKey g (ck k (nEv k (evN u A :: h)))) =
    (!blk k h && isKey g (ck k (nEv k h)))
  rw [blk_evN_other hne h A, nEv_evN_other hne h A]

theorem pushLanes_lane {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} (g : Nat) (h : List (EventN V)) :
    ∀ n j, n ≤ j → laneAt ck g j (pushLanes prog regs0 m0 ck memb g n h) = laneAt ck g j h := by
  intro n
  induction n with
  | zero => intro j _; rfl
  | succ n ih =>
    intro j hj
    have ne : ¬ n = j := by
      intro e
      rw [e] at hj
      exact Nat.ltIrrefl j hj
    show laneAt ck g j (cond (memb g n && laneAt ck g n (pushLanes prog regs0 m0 ck memb g n h))
      (evN n (Sem.soloAct prog regs0 m0 n (nEv n (pushLanes prog regs0 m0 ck memb g n h))) ::
        pushLanes prog regs0 m0 ck memb g n h)
      (pushLanes prog regs0 m0 ck memb g n h)) = laneAt ck g j h
    cases memb g n && laneAt ck g n (pushLanes prog regs0 m0 ck memb g n h) with
    | false => exact ih j (Nat.leOfLt hj)
    | true => exact Eq.trans (laneAt_other ne _ _) (ih j (Nat.leOfLt hj))

theorem dlt {u n : Nat} (ne : ¬ u = n) : decide (u < n + 1) = decide (u < n) := by
  cases Nat.ltOrGe u n with
  | inl hl => rw [decide_eq_true' hl, decide_eq_true' (Nat.lt.step hl)]
  | inr hl =>
    have hl' : ¬ u < n := fun h2 => Nat.ltIrrefl u (Nat.ltOfLtOfLe h2 hl)
    rw [decide_eq_false' hl']
    apply decide_eq_false'
    intro h1
    exact hl' (Nat.ltOfLeOfNe (Nat.leOfLtSucc h1) ne)

theorem takeL_lenL {α : Type} : ∀ (l : List α), takeL (lenL l) l = l
  | [] => rfl
  | x :: l => by
    show x :: takeL (lenL l) l = x :: l
    rw [takeL_lenL l]

theorem dropL_lenL {α : Type} : ∀ (l : List α), dropL (lenL l) l = []
  | [] => rfl
  | _ :: l => dropL_lenL l

/-- Nothing pending at the collectives' ids, and every completion at an id `≥ B` is one of
`B + g` with a lane, draining each lane of `g` below `N` once and no other thread. -/
def DrainHi (memb : Nat → Nat → Bool) (N B : Nat) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => DrainHi memb N B h
  | EventN.bar _ _ _ :: h => DrainHi memb N B h
  | EventN.complete b m :: h => DrainHi memb N B h ∧ ∀ g, b = B + g →
      0 < WarpRace.nLanes memb N g ∧
      ∀ u, cntP u (takeL m (pendI h b)) = cond (memb g u && decide (u < N)) 1 0

/-- The run's invariant at the collectives' ids. -/
def JW (memb : Nat → Nat → Bool) (N B : Nat) (h : List (EventN V)) : Prop :=
  (∀ g, pendI h (B + g) = []) ∧ DrainHi memb N B h

theorem drainHi_evN {memb : Nat → Nat → Bool} {N B : Nat} {h : List (EventN V)}
    (hd : DrainHi memb N B h) (t : Nat) : ∀ A : Act V, DrainHi memb N B (evN t A :: h)
  | Act.arrive b n w pc => hd
  | Act.compute pc g => hd
  | Act.read a r pc => hd
  | Act.write a v pc => hd
  | Act.atomAdd a v pc => hd
  | Act.exit => hd

/-- A push of an event not at a collective's id keeps the invariant. -/
theorem jw_push {memb : Nat → Nat → Bool} {N B : Nat} {h : List (EventN V)}
    (hJ : JW memb N B h) (t : Nat) :
    ∀ A : Act V, (∀ b w, evN t A = EventN.bar t b w → b < B) → JW memb N B (evN t A :: h)
  | Act.arrive b n w pc, hlo => by
    have hb := hlo b w rfl
    refine ⟨?_, hJ.2⟩
    intro g
    show Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) (B + g) = []
    rw [upd_other _ _ (fun e => ne_of_lt_add hb e.symm)]
    exact hJ.1 g
  | Act.compute pc g, _ => hJ
  | Act.read a r pc, _ => hJ
  | Act.write a v pc, _ => hJ
  | Act.atomAdd a v pc, _ => hJ
  | Act.exit, _ => hJ

theorem jw_complete_lo {memb : Nat → Nat → Bool} {N B : Nat} {h : List (EventN V)}
    (hJ : JW memb N B h) {b : Nat} (hb : b < B) (m : Nat) :
    JW memb N B (EventN.complete b m :: h) := by
  refine ⟨?_, hJ.2, fun g e => False.elim (ne_of_lt_add hb e)⟩
  intro g
  show Sem.upd (pendI h) b (dropL m (pendI h b)) (B + g) = []
  rw [upd_other _ _ (fun e => ne_of_lt_add hb e.symm)]
  exact hJ.1 g

/-- The lanes' events of a non-`bar.warp.sync` instance are register steps. -/
def NoSyncEv (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (sync : Nat → Bool) : Prop :=
  ∀ t i g, ck t i = some g → sync g = false →
    ∃ A, evN t (Sem.soloAct prog regs0 m0 t i) = EventN.act t A

/-- The lanes' events of a `bar.warp.sync` instance are waiting arrivals at `B + g`. -/
def SyncEv (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (sync : Nat → Bool) (B : Nat) : Prop :=
  ∀ t i g, ck t i = some g → sync g = true →
    evN t (Sem.soloAct prog regs0 m0 t i) = EventN.bar t (B + g) true

/-- A thread's events outside collectives are at the program's ids. -/
def LoEv (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (B : Nat) : Prop :=
  ∀ t i b w, isSomeK (ck t i) = false →
    evN t (Sem.soloAct prog regs0 m0 t i) = EventN.bar t b w → b < B

theorem key_of_lane {ck : Nat → Nat → Option Nat} {g k : Nat} {h : List (EventN V)}
    (hl : laneAt ck g k h = true) : ck k (nEv k h) = some g :=
  some_of_key (and_r hl)

/-- A non-`bar.warp.sync` instance's completion pushes register steps only. -/
theorem pushLanes_nosync {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {N B : Nat}
    (hns : NoSyncEv prog regs0 m0 ck sync) {g : Nat} (hs : sync g = false) (h : List (EventN V))
    (hJ : JW memb N B h) : ∀ n, JW memb N B (pushLanes prog regs0 m0 ck memb g n h) := by
  intro n
  induction n with
  | zero => exact hJ
  | succ k ih =>
    show JW memb N B (cond (memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h))
      (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
        pushLanes prog regs0 m0 ck memb g k h)
      (pushLanes prog regs0 m0 ck memb g k h))
    cases hc : memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h) with
    | false => exact ih
    | true =>
      match hns k _ g (key_of_lane (and_r hc)) hs with
      | ⟨A, e⟩ =>
        rw [e]
        exact ih

/-- A `bar.warp.sync` instance that is ready: after pushing the lanes below `n`, the pending
arrivals at `B + g` are exactly the lanes of `g` below `n`, once each; the other collectives'
ids are untouched. -/
theorem pushLanes_sync {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {N B : Nat}
    (hsy : SyncEv prog regs0 m0 ck sync B) {g : Nat} (hs : sync g = true) (h : List (EventN V))
    (hJ : JW memb N B h) (hr : readyI ck memb N g h = true) :
    ∀ n, n ≤ N →
      (∀ u, cntP u (pendI (pushLanes prog regs0 m0 ck memb g n h) (B + g)) =
        cond (memb g u && decide (u < n)) 1 0) ∧
      lenL (pendI (pushLanes prog regs0 m0 ck memb g n h) (B + g)) = WarpRace.cntB (memb g) n ∧
      (∀ g', ¬ g' = g → pendI (pushLanes prog regs0 m0 ck memb g n h) (B + g') = []) ∧
      DrainHi memb N B (pushLanes prog regs0 m0 ck memb g n h) := by
  intro n
  induction n with
  | zero =>
    intro _
    refine ⟨?_, ?_, fun g' _ => hJ.1 g', hJ.2⟩
    · intro u
      show cntP u (pendI h (B + g)) = cond (memb g u && false) 1 0
      rw [hJ.1 g]
      cases memb g u with
      | true => rfl
      | false => rfl
    · show lenL (pendI h (B + g)) = 0
      rw [hJ.1 g]
      rfl
  | succ k ih =>
    intro hk
    have r := ih (Nat.leOfLt hk)
    have hl := pushLanes_lane (prog := prog) (regs0 := regs0) (m0 := m0) (ck := ck) (memb := memb)
      g h k k (Nat.leRefl k)
    show (∀ u, cntP u (pendI (cond (memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h))
      (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
        pushLanes prog regs0 m0 ck memb g k h)
      (pushLanes prog regs0 m0 ck memb g k h)) (B + g)) =
        cond (memb g u && decide (u < k + 1)) 1 0) ∧
      lenL (pendI (cond (memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h))
      (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
        pushLanes prog regs0 m0 ck memb g k h)
      (pushLanes prog regs0 m0 ck memb g k h)) (B + g)) =
        WarpRace.cntB (memb g) k + cond (memb g k) 1 0 ∧
      (∀ g', ¬ g' = g → pendI (cond (memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h))
      (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
        pushLanes prog regs0 m0 ck memb g k h)
      (pushLanes prog regs0 m0 ck memb g k h)) (B + g') = []) ∧
      DrainHi memb N B (cond (memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h))
      (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
        pushLanes prog regs0 m0 ck memb g k h)
      (pushLanes prog regs0 m0 ck memb g k h))
    cases hm : memb g k with
    | false =>
      have ec : (false && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h)) = false := rfl
      rw [ec]
      refine ⟨?_, r.2.1, r.2.2.1, r.2.2.2⟩
      intro u
      show cntP u (pendI (pushLanes prog regs0 m0 ck memb g k h) (B + g)) = _
      rw [r.1 u]
      cases Nat.decEq u k with
      | isTrue e =>
        rw [e, hm]
        rfl
      | isFalse e => rw [dlt e]
    | true =>
      have hla : laneAt ck g k h = true := by
        have a := allB_of (and_r hr) k hk
        rw [hm] at a
        exact a
      rw [hl, hla]
      have ec : (true && true) = true := rfl
      rw [ec]
      show (∀ u, cntP u (pendI (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
        pushLanes prog regs0 m0 ck memb g k h) (B + g)) =
          cond (memb g u && decide (u < k + 1)) 1 0) ∧
        lenL (pendI (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
          pushLanes prog regs0 m0 ck memb g k h) (B + g)) = WarpRace.cntB (memb g) k + 1 ∧
        (∀ g', ¬ g' = g → pendI (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
          pushLanes prog regs0 m0 ck memb g k h) (B + g') = []) ∧
        DrainHi memb N B (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
          pushLanes prog regs0 m0 ck memb g k h)
      have hkey : ck k (nEv k (pushLanes prog regs0 m0 ck memb g k h)) = some g := by
        apply key_of_lane
        rw [pushLanes_lane g h k k (Nat.leRefl k)]
        exact hla
      rw [hsy k _ g hkey hs]
      show (∀ u, cntP u (Sem.upd (pendI (pushLanes prog regs0 m0 ck memb g k h)) (B + g)
          (snocL (pendI (pushLanes prog regs0 m0 ck memb g k h) (B + g))
            (k, nEv k (pushLanes prog regs0 m0 ck memb g k h))) (B + g)) =
          cond (memb g u && decide (u < k + 1)) 1 0) ∧
        lenL (Sem.upd (pendI (pushLanes prog regs0 m0 ck memb g k h)) (B + g)
          (snocL (pendI (pushLanes prog regs0 m0 ck memb g k h) (B + g))
            (k, nEv k (pushLanes prog regs0 m0 ck memb g k h))) (B + g)) =
          WarpRace.cntB (memb g) k + 1 ∧
        (∀ g', ¬ g' = g → Sem.upd (pendI (pushLanes prog regs0 m0 ck memb g k h)) (B + g)
          (snocL (pendI (pushLanes prog regs0 m0 ck memb g k h) (B + g))
            (k, nEv k (pushLanes prog regs0 m0 ck memb g k h))) (B + g') = []) ∧
        DrainHi memb N B (pushLanes prog regs0 m0 ck memb g k h)
      rw [upd_same]
      refine ⟨?_, ?_, ?_, r.2.2.2⟩
      · intro u
        cases Nat.decEq u k with
        | isTrue e =>
          rw [e, Members.cntP_snoc_self, r.1 k, hm, decide_eq_false' (Nat.ltIrrefl k),
            decide_eq_true' (Nat.ltSuccSelf k)]
          rfl
        | isFalse e =>
          rw [Members.cntP_snoc_other _ (fun e' => e e'.symm), r.1 u, dlt e]
      · rw [lenL_snoc, r.2.1]
      · intro g' hne
        rw [upd_other _ _ (add_ne_of_ne hne)]
        exact r.2.2.1 g' hne

theorem fireI_J {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {N B : Nat}
    (hsy : SyncEv prog regs0 m0 ck sync B) (hns : NoSyncEv prog regs0 m0 ck sync) (g : Nat)
    (h : List (EventN V)) (hJ : JW memb N B h) (hr : readyI ck memb N g h = true) :
    JW memb N B (fireI prog regs0 m0 ck memb sync N B g h) := by
  show JW memb N B (cond (sync g)
    (EventN.complete (B + g) (WarpRace.nLanes memb N g) :: pushLanes prog regs0 m0 ck memb g N h)
    (pushLanes prog regs0 m0 ck memb g N h))
  cases hs : sync g with
  | false => exact pushLanes_nosync hns hs h hJ N
  | true =>
    have r := pushLanes_sync hsy hs h hJ hr N (Nat.leRefl N)
    have hlen : WarpRace.nLanes memb N g =
        lenL (pendI (pushLanes prog regs0 m0 ck memb g N h) (B + g)) := Eq.symm r.2.1
    refine ⟨?_, r.2.2.2, ?_⟩
    · intro g'
      show Sem.upd (pendI (pushLanes prog regs0 m0 ck memb g N h)) (B + g)
        (dropL (WarpRace.nLanes memb N g) (pendI (pushLanes prog regs0 m0 ck memb g N h) (B + g)))
        (B + g') = []
      cases Nat.decEq g' g with
      | isTrue e =>
        rw [e, upd_same, hlen]
        exact dropL_lenL _
      | isFalse e =>
        rw [upd_other _ _ (add_ne_of_ne e)]
        exact r.2.2.1 g' e
    · intro g' e
      have eg : g = g' := add_cancel_l B e
      subst eg
      refine ⟨of_decide_eq_true' (and_l hr), ?_⟩
      intro u
      rw [hlen, takeL_lenL]
      exact r.1 u

theorem resolveW_J {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {N B : Nat}
    (hsy : SyncEv prog regs0 m0 ck sync B) (hns : NoSyncEv prog regs0 m0 ck sync) :
    ∀ (G : Nat) (h : List (EventN V)), JW memb N B h →
      JW memb N B (resolveW prog regs0 m0 ck memb sync N B G h) := by
  intro G
  induction G with
  | zero => intro h hJ; exact hJ
  | succ g ih =>
    intro h hJ
    have g1 := ih h hJ
    show JW memb N B
      (cond (readyI ck memb N g (resolveW prog regs0 m0 ck memb sync N B g h))
        (fireI prog regs0 m0 ck memb sync N B g (resolveW prog regs0 m0 ck memb sync N B g h))
        (resolveW prog regs0 m0 ck memb sync N B g h))
    cases hr : readyI ck memb N g (resolveW prog regs0 m0 ck memb sync N B g h) with
    | true => exact fireI_J hsy hns g _ g1 hr
    | false => exact g1

theorem tRunW_J {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N B : Nat}
    (hlo : LoEv prog regs0 m0 ck B) (t : Nat) :
    ∀ (f : Nat) (h : List (EventN V)), JW memb N B h →
      JW memb N B (tRunW prog regs0 m0 ck t f h) := by
  intro f
  induction f with
  | zero => intro h hJ; exact hJ
  | succ f ih =>
    intro h hJ
    show JW memb N B
      (cond (isSomeK (ck t (nEv t h))) h
        (cond (isExitA (Sem.soloAct prog regs0 m0 t (nEv t h))) h
          (cond (halts (Sem.soloAct prog regs0 m0 t (nEv t h)))
            (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)
            (tRunW prog regs0 m0 ck t f (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)))))
    cases hk : isSomeK (ck t (nEv t h)) with
    | true => exact hJ
    | false =>
      have hJ' := jw_push hJ t (Sem.soloAct prog regs0 m0 t (nEv t h))
        (fun b w e => hlo t _ b w hk e)
      cases isExitA (Sem.soloAct prog regs0 m0 t (nEv t h)) with
      | true => exact hJ
      | false =>
        cases halts (Sem.soloAct prog regs0 m0 t (nEv t h)) with
        | true => exact hJ'
        | false => exact ih _ hJ'

theorem passW_J {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N B : Nat}
    (hlo : LoEv prog regs0 m0 ck B) (F : Nat) (h : List (EventN V)) (hJ : JW memb N B h) :
    ∀ n, JW memb N B (passW prog regs0 m0 ck F n h) := by
  intro n
  induction n with
  | zero => exact hJ
  | succ n ih =>
    show JW memb N B (cond (blk n (passW prog regs0 m0 ck F n h))
      (passW prog regs0 m0 ck F n h) (tRunW prog regs0 m0 ck n F (passW prog regs0 m0 ck F n h)))
    cases blk n (passW prog regs0 m0 ck F n h) with
    | true => exact ih
    | false => exact tRunW_J hlo n F _ ih

theorem resolveN_J {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {memb : Nat → Nat → Bool} {N B : Nat} :
    ∀ (Bb : Nat), Bb ≤ B → ∀ (h : List (EventN V)), JW memb N B h →
      JW memb N B (resolveN prog regs0 m0 Bb h) := by
  intro Bb
  induction Bb with
  | zero => intro _ h hJ; exact hJ
  | succ b ih =>
    intro hb h hJ
    have g := ih (Nat.leOfLt hb) h hJ
    show JW memb N B (cond (decide (0 < lenL (pendI (resolveN prog regs0 m0 b h) b)) &&
      decide (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b) ≤
        lenL (pendI (resolveN prog regs0 m0 b h) b)))
      (EventN.complete b (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b)) ::
        resolveN prog regs0 m0 b h) (resolveN prog regs0 m0 b h))
    cases decide (0 < lenL (pendI (resolveN prog regs0 m0 b h) b)) &&
      decide (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b) ≤
        lenL (pendI (resolveN prog regs0 m0 b h) b)) with
    | true => exact jw_complete_lo g hb _
    | false => exact g

theorem canonW_J {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {B : Nat}
    (hlo : LoEv prog regs0 m0 ck B) (hsy : SyncEv prog regs0 m0 ck sync B)
    (hns : NoSyncEv prog regs0 m0 ck sync) (N G Bb F : Nat) (hBb : Bb ≤ B) :
    ∀ (r : Nat) (h : List (EventN V)), JW memb N B h →
      JW memb N B (canonW prog regs0 m0 ck memb sync N B G Bb F r h) := by
  intro r
  induction r with
  | zero => intro h hJ; exact hJ
  | succ r ih =>
    intro h hJ
    have g1 := passW_J hlo F h hJ N
    have g2 := resolveW_J (sync := sync) hsy hns G _ g1
    have g3 := resolveN_J (prog := prog) (regs0 := regs0) (m0 := m0) Bb hBb _ g2
    show JW memb N B
      (cond (allExited prog regs0 m0 N (passW prog regs0 m0 ck F N h)) (passW prog regs0 m0 ck F N h)
        (cond (decide (lenL (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)) =
            lenL (passW prog regs0 m0 ck F N h)))
          (cond (decide (lenL (resolveN prog regs0 m0 Bb
              (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h))) = lenL h))
            (resolveN prog regs0 m0 Bb
              (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)))
            (canonW prog regs0 m0 ck memb sync N B G Bb F r (resolveN prog regs0 m0 Bb
              (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)))))
          (canonW prog regs0 m0 ck memb sync N B G Bb F r
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)))))
    cases allExited prog regs0 m0 N (passW prog regs0 m0 ck F N h) with
    | true => exact g1
    | false =>
      cases decide (lenL (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)) =
          lenL (passW prog regs0 m0 ck F N h)) with
      | false => exact ih _ g2
      | true =>
        cases decide (lenL (resolveN prog regs0 m0 Bb
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h))) = lenL h) with
        | true => exact g3
        | false => exact ih _ g3

/-- Check (2) restricted to the program's ids (below `B`). -/
def DrainLo (B : Nat) (S : Nat → List Nat) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => DrainLo B S h
  | EventN.bar _ _ _ :: h => DrainLo B S h
  | EventN.complete b m :: h => DrainLo B S h ∧
      (b < B → ∀ u, cntP u (takeL m (pendI h b)) = cond (Members.memB u (S b)) 1 0)

theorem drainLo_of_drain2 (B : Nat) (S : Nat → List Nat) :
    ∀ (H : List (EventN V)), Members.Drain2 S H → DrainLo B S H
  | [], _ => trivial
  | EventN.act _ _ :: h, hd => drainLo_of_drain2 B S h hd
  | EventN.bar _ _ _ :: h, hd => drainLo_of_drain2 B S h hd
  | EventN.complete b m :: h, hd => ⟨drainLo_of_drain2 B S h hd.1, fun _ => hd.2⟩

/-- Check (2) at the program's ids and the run's own drains at the collectives' ids give check
(2) everywhere, when `S (B + g)` is the lanes of `g` below `N`. -/
theorem drain2_split {memb : Nat → Nat → Bool} {N B : Nat} {S : Nat → List Nat}
    (hS : ∀ g u, 0 < WarpRace.nLanes memb N g →
      Members.memB u (S (B + g)) = (memb g u && decide (u < N))) :
    ∀ (H : List (EventN V)), DrainLo B S H → DrainHi memb N B H → Members.Drain2 S H
  | [], _, _ => trivial
  | EventN.act _ _ :: h, hl, hh => drain2_split hS h hl hh
  | EventN.bar _ _ _ :: h, hl, hh => drain2_split hS h hl hh
  | EventN.complete b m :: h, hl, hh => by
    refine ⟨drain2_split hS h hl.1 hh.1, ?_⟩
    intro u
    cases Nat.ltOrGe b B with
    | inl hb => exact hl.2 hb u
    | inr hb =>
      match Nat.le.dest hb with
      | ⟨g, e⟩ =>
        have r := hh.2 g e.symm
        rw [← e, hS g u r.1]
        rw [← e] at r
        exact r.2 u

end J

end Race

namespace WarpRace

open Sem
open Warp

section ExecLo

variable {V : Type} [AccAdd V]

theorem loEv_view (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (hB : BaseIds wp B) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.LoEv (view memb sync N B wp) regs0 m0 (collAt memb sync N B wp regs0 m0) B := by
  intro t i b w hk
  show Race.evN t (viewAct memb sync N B (solo (view memb sync N B wp) regs0 m0 t i).regs
    (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs)) = Race.EventN.bar t b w → b < B
  revert hk
  show Race.isSomeK (wkey (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs)) = false → _
  cases e : wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs with
  | coll g v res pc => intro hk; cases hk
  | base A =>
    intro _ he
    cases A with
    | arrive b' n w' pc' =>
      have he' : Race.EventN.bar t b' w' = (Race.EventN.bar t b w : Race.EventN V) := he
      injection he' with e1 e2 e3
      rw [← e2]
      exact hB t _ _ b' n w' pc' e
    | compute _ _ => cases he
    | read _ _ _ => cases he
    | write _ _ _ => cases he
    | atomAdd _ _ _ => cases he
    | exit => cases he

theorem syncEv_view (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.SyncEv (view memb sync N B wp) regs0 m0 (collAt memb sync N B wp regs0 m0) sync B := by
  intro t i g hk hs
  show Race.evN t (viewAct memb sync N B (solo (view memb sync N B wp) regs0 m0 t i).regs
    (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs)) = Race.EventN.bar t (B + g) true
  revert hk
  show wkey (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs) = some g → _
  cases wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs with
  | base A => intro hk; cases hk
  | coll g' v res pc =>
    intro hk
    have eg : g' = g := Option.some.inj hk
    subst eg
    show Race.evN t (cond (sync g') (Act.arrive (B + g') (nLanes memb N g') true pc)
      (Act.compute pc (postRegs sync g' (solo (view memb sync N B wp) regs0 m0 t i).regs res))) = _
    rw [hs]
    rfl

theorem noSyncEv_view (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.NoSyncEv (view memb sync N B wp) regs0 m0 (collAt memb sync N B wp regs0 m0) sync := by
  intro t i g hk hs
  show ∃ A, Race.evN t (viewAct memb sync N B (solo (view memb sync N B wp) regs0 m0 t i).regs
    (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs)) = Race.EventN.act t A
  revert hk
  show wkey (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs) = some g → _
  cases wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs with
  | base A => intro hk; cases hk
  | coll g' v res pc =>
    intro hk
    have eg : g' = g := Option.some.inj hk
    subst eg
    show ∃ A, Race.evN t (cond (sync g') (Act.arrive (B + g') (nLanes memb N g') true pc)
      (Act.compute pc (postRegs sync g' (solo (view memb sync N B wp) regs0 m0 t i).regs res))) = _
    rw [hs]
    exact ⟨_, rfl⟩

/-- The run's invariant at the collectives' ids holds of the whole run. -/
theorem canonRunW_J (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B G Bb F : Nat)
    (wp : WProg V) (hB : BaseIds wp B) (hBb : Bb ≤ B) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.JW memb N B (canonRunW memb sync N B G Bb F wp regs0 m0) :=
  Race.canonW_J (loEv_view memb sync N B wp hB regs0 m0) (syncEv_view memb sync N B wp regs0 m0)
    (noSyncEv_view memb sync N B wp regs0 m0) N G Bb F hBb F [] ⟨fun _ => rfl, trivial⟩

/-- **The executor's run with collectives, with the Rust's checks only at the program's ids.**
As `warp_run_sound`, but check (2), the end-of-run check and check (3) are needed only at the
program's own barrier ids (below `B`, with `Bb ≤ B` the ids `resolve_barriers` tries); at the
ids `B + g` of the `bar.warp.sync` instances they are proved of the run (`canonRunW_J`,
`rust3_of_below`), with `S (B + g)` the lanes of `g` below `N` (`hS`). -/
theorem warp_run_sound_lo (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B G Bb F : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hBb : Bb ≤ B)
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N →
      soloAct (view memb sync N B wp) regs0 m0 t i = Act.arrive b n w pc → n = mb b)
    (hSz : Members.Sized mb S)
    (hS : ∀ g u, 0 < nLanes memb N g → Members.memB u (S (B + g)) = (memb g u && decide (u < N)))
    (hfin : FinishedW memb sync N B G Bb F wp regs0 m0 = true)
    (hd : Race.DrainLo B S (canonRunW memb sync N B G Bb F wp regs0 m0))
    (hend : ∀ b, b < B → Members.pendI (canonRunW memb sync N B G Bb F wp regs0 m0) b = [])
    (hr : RustCheck3Below N B (Race.soloEvB (view memb sync N B wp) regs0 m0 N)
      (canonRunW memb sync N B G Bb F wp regs0 m0))
    (hc : Race.checkN Race.noSameN N (canonRunW memb sync N B G Bb F wp regs0 m0) = false) :
    WRaceFree memb wp N (winit regs0 m1) ∧ WBarriersFit memb wp N (winit regs0 m1) ∧
    CollOwnR memb wp N (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WReach memb wp N (winit regs0 m1) t2 →
      WFinal N t1 → WFinal N t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WFinal N t1 →
      WReach memb wp N (winit regs0 m1) t2 → (∀ v, WStep memb wp N t2 v → False) →
      WFinal N t2) := by
  have hJ := canonRunW_J memb sync N B G Bb F wp hB hBb regs0 m0
  have hend' : ∀ b, Members.pendI (canonRunW memb sync N B G Bb F wp regs0 m0) b = [] := by
    intro b
    cases Nat.ltOrGe b B with
    | inl hb => exact hend b hb
    | inr hb =>
      match Nat.le.dest hb with
      | ⟨g, e⟩ => rw [← e]; exact hJ.1 g
  exact warp_run_sound memb sync R N B G Bb F wp regs0 m0 m1 hind hR0 hB mb S hpos hcnt hSz hfin
    (Race.drain2_split hS _ hd hJ.2) hend'
    (rust3_of_below memb sync N B wp hB regs0 m0 _ hr) hc

theorem cntB_pos (p : Nat → Bool) {t : Nat} (hp : p t = true) :
    ∀ n, t < n → 0 < cntB p n := by
  intro n
  induction n with
  | zero => intro h; exact False.elim (Nat.notLtZero t h)
  | succ n ih =>
    intro h
    show 0 < cntB p n + cond (p n) 1 0
    cases Nat.decEq t n with
    | isTrue e =>
      rw [← e, hp]
      exact Nat.zeroLtSucc _
    | isFalse e =>
      exact Nat.ltOfLtOfLe (ih (Nat.ltOfLeOfNe (Nat.leOfLtSucc h) e)) (Nat.leAddRight _ _)

/-- One count per id in the view's solo traces from the program's ids only: at an id `B + g`
every arrival is a lane's, with count `nLanes memb N g`, positive as the lane (below `N`) is a
lane of `g` (`CollOwnSolo`). -/
theorem hcnt_of_lo (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) (mb : Nat → Nat) (hB : BaseIds wp B)
    (hown : CollOwnSolo memb sync N B wp regs0 m0)
    (hlo : ∀ t i b n w pc, t < N → b < B →
      soloAct (view memb sync N B wp) regs0 m0 t i = Act.arrive b n w pc → n = mb b)
    (hmbW : ∀ g, 0 < nLanes memb N g → mb (B + g) = nLanes memb N g) :
    ∀ t i b n w pc, t < N →
      soloAct (view memb sync N B wp) regs0 m0 t i = Act.arrive b n w pc → n = mb b := by
  intro t i b n w pc ht e
  have e' : viewAct memb sync N B (solo (view memb sync N B wp) regs0 m0 t i).regs
      (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
        (solo (view memb sync N B wp) regs0 m0 t i).regs) = Act.arrive b n w pc := e
  revert e'
  cases hw : wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs with
  | base A =>
    intro e'
    have eA : A = Act.arrive b n w pc := e'
    rw [eA] at hw
    exact hlo t i b n w pc ht (hB t _ _ b n w pc hw) e
  | coll g v res pc' =>
    intro e'
    have e2 : cond (sync g) (Act.arrive (B + g) (nLanes memb N g) true pc')
        (Act.compute pc' (postRegs sync g (solo (view memb sync N B wp) regs0 m0 t i).regs res)) =
        Act.arrive b n w pc := e'
    cases hs : sync g with
    | false => rw [hs] at e2; cases e2
    | true =>
      rw [hs] at e2
      injection e2 with e3 e4 e5 e6
      rw [← e3, ← e4]
      exact Eq.symm (hmbW g (cntB_pos (memb g) (hown t i ht g v res pc' hw) N ht))

/-- **`warp_run_sound_lo` with one count per id only at the program's ids** (`hcntLo`); at the
collectives' ids the count is the number of lanes (`hmbW`), and ownership comes from the
run. -/
theorem warp_run_sound_lo2 (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B G Bb F : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hBb : Bb ≤ B)
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hcntLo : ∀ t i b n w pc, t < N → b < B →
      soloAct (view memb sync N B wp) regs0 m0 t i = Act.arrive b n w pc → n = mb b)
    (hmbW : ∀ g, 0 < nLanes memb N g → mb (B + g) = nLanes memb N g)
    (hSz : Members.Sized mb S)
    (hS : ∀ g u, 0 < nLanes memb N g → Members.memB u (S (B + g)) = (memb g u && decide (u < N)))
    (hfin : FinishedW memb sync N B G Bb F wp regs0 m0 = true)
    (hd : Race.DrainLo B S (canonRunW memb sync N B G Bb F wp regs0 m0))
    (hend : ∀ b, b < B → Members.pendI (canonRunW memb sync N B G Bb F wp regs0 m0) b = [])
    (hr : RustCheck3Below N B (Race.soloEvB (view memb sync N B wp) regs0 m0 N)
      (canonRunW memb sync N B G Bb F wp regs0 m0))
    (hc : Race.checkN Race.noSameN N (canonRunW memb sync N B G Bb F wp regs0 m0) = false) :
    WRaceFree memb wp N (winit regs0 m1) ∧ WBarriersFit memb wp N (winit regs0 m1) ∧
    CollOwnR memb wp N (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WReach memb wp N (winit regs0 m1) t2 →
      WFinal N t1 → WFinal N t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WFinal N t1 →
      WReach memb wp N (winit regs0 m1) t2 → (∀ v, WStep memb wp N t2 v → False) →
      WFinal N t2) :=
  warp_run_sound_lo memb sync R N B G Bb F wp regs0 m0 m1 hind hR0 hB hBb mb S hpos
    (hcnt_of_lo memb sync N B wp regs0 m0 mb hB
      (collOwnSolo_of_run memb sync N B G Bb F wp regs0 m0 hfin) hcntLo hmbW)
    hSz hS hfin hd hend hr hc

end ExecLo

/-! ## Not vacuous: the `bar.warp.sync` example with the checks only at the program's ids

`Ex.progS` has no barrier of its own (`B = 0`): with `warp_run_sound_lo` nothing about the
checks at the collective's id `0` is assumed; `hS` says `S 0 = [0, 1]` is the instance's lanes. -/

namespace ExW

open Ex

theorem exw_hS : ∀ g u, 0 < nLanes memb2 2 g →
    Members.memB u ((fun _ => [0, 1]) (0 + g)) = (memb2 g u && decide (u < 2)) := by
  intro g u hl
  cases Nat.decEq g 0 with
  | isTrue e =>
    subst e
    match u with
    | 0 => rfl
    | 1 => rfl
    | u + 2 => rfl
  | isFalse e =>
    apply False.elim
    have h0 : nLanes memb2 2 g = 0 := by
      show (0 + cond (decide (g = 0)) 1 0) + cond (decide (g = 0)) 1 0 = 0
      rw [decide_eq_false' e]
      rfl
    rw [h0] at hl
    exact Nat.ltIrrefl 0 hl

/-- **`warp_run_sound_lo` on the executor's own run of the `bar.warp.sync` example**: only
the run's finishing, its race check and the checks at the program's ids (none here) are
evaluated. -/
theorem exw_sound_lo (m1 : Nat → Nat) :
    WRaceFree memb2 progS 2 (winit regs0 m1) ∧ WBarriersFit memb2 progS 2 (winit regs0 m1) ∧
    CollOwnR memb2 progS 2 (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WReach memb2 progS 2 (winit regs0 m1) t2 →
      WFinal 2 t1 → WFinal 2 t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WFinal 2 t1 →
      WReach memb2 progS 2 (winit regs0 m1) t2 → (∀ v, WStep memb2 progS 2 t2 v → False) →
      WFinal 2 t2) :=
  by
  have h := warp_run_sound_lo memb2 syncAll (fun _ _ _ _ => True) 2 0 1 0 6 progS regs0 m0 m1
    ex_indep (fun _ => trivial) ex_baseIds (Nat.leRefl 0) (fun _ => 2) (fun _ => [0, 1])
    (fun _ => Nat.zeroLtSucc 1) (fun t _ _ _ _ _ _ h => ex_view_cnt t _ _ h) Members.pc_sized
    exw_hS
  have h1 := h exw_accepted.1
  have h2 := h1 (Race.drainLo_of_drain2 0 _ _ exw_drain)
  have h3 := h2 (fun b hb => False.elim (Nat.notLtZero b hb))
  have h4 := h3 (fun _ b _ _ hb => False.elim (Nat.notLtZero b hb))
  exact h4 exw_accepted.2

theorem exw_mbW : ∀ g, 0 < nLanes memb2 2 g → (fun _ => 2) (0 + g) = nLanes memb2 2 g := by
  intro g hl
  cases Nat.decEq g 0 with
  | isTrue e => subst e; rfl
  | isFalse e =>
    apply False.elim
    have h0 : nLanes memb2 2 g = 0 := by
      show (0 + cond (decide (g = 0)) 1 0) + cond (decide (g = 0)) 1 0 = 0
      rw [decide_eq_false' e]
      rfl
    rw [h0] at hl
    exact Nat.ltIrrefl 0 hl

/-- **`warp_run_sound_lo2` on the example**: no count hypothesis at the collective's id. -/
theorem exw_sound_lo2 (m1 : Nat → Nat) :
    WRaceFree memb2 progS 2 (winit regs0 m1) ∧ WBarriersFit memb2 progS 2 (winit regs0 m1) ∧
    CollOwnR memb2 progS 2 (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WReach memb2 progS 2 (winit regs0 m1) t2 →
      WFinal 2 t1 → WFinal 2 t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WFinal 2 t1 →
      WReach memb2 progS 2 (winit regs0 m1) t2 → (∀ v, WStep memb2 progS 2 t2 v → False) →
      WFinal 2 t2) :=
  by
  have h := warp_run_sound_lo2 memb2 syncAll (fun _ _ _ _ => True) 2 0 1 0 6 progS regs0 m0 m1
    ex_indep (fun _ => trivial) ex_baseIds (Nat.leRefl 0) (fun _ => 2) (fun _ => [0, 1])
    (fun _ => Nat.zeroLtSucc 1) (fun _ _ b _ _ _ _ hb _ => False.elim (Nat.notLtZero b hb))
    exw_mbW Members.pc_sized exw_hS
  have h1 := h exw_accepted.1
  have h2 := h1 (Race.drainLo_of_drain2 0 _ _ exw_drain)
  have h3 := h2 (fun b hb => False.elim (Nat.notLtZero b hb))
  have h4 := h3 (fun _ b _ _ hb => False.elim (Nat.notLtZero b hb))
  exact h4 exw_accepted.2

end ExW

end WarpRace
end Kcert
