import Kcert.WarpRaceHist

/-!
# The executor's run with warp collectives, as a function

`exec/mod.rs` `run_cta` with collectives: each pass runs every ready thread (not blocked at a
barrier, not waiting at a collective) until it blocks at a barrier or reaches a collective
(`Status::Warp`) or exits; then `resolve_warps` completes every collective instance whose lanes
all wait at it; if it made progress the loop starts again, else `resolve_barriers`.  Here that
run over the solo traces of the view (`WarpRace.view`): `Race.canonRunW`.  A lane stops BEFORE
its collective (its next solo action in the view); an instance `g` whose lanes below `N` all
wait at it (not blocked, next solo step a collective of key `g`) is completed by pushing every
lane's solo action of the view (for `bar.warp.sync` a waiting arrival at `B + g`, for the
others a register step), and for `bar.warp.sync` a completion of `B + g` with its number of
lanes.  A lane is pushed only if it is a lane of the instance (`memb g k`): a lane at an
instance that is not its own, or an instance one of whose lanes exited, is never completed and
the run does not finish (the Rust's `CollectiveMismatch` findings abort the CTA).

Proved: the run's history is made of the view's solo traces (`FromSolo`), follows `NotBlocked`,
and every collective event of a lane is at one of its own instances; so a finished run gives
`CollOwnSolo`, and `WarpRace.warp_run_sound`: the run finished, with the named-barrier checks
and the race check silent on it, gives `warp_hist_sound`'s conclusions.
-/

namespace Kcert
namespace Race

open Sem (Act)
open Members (nEv pendI)

section Defs

variable {V : Type} [Sem.AccAdd V]

def isSomeK : Option Nat → Bool
  | none => false
  | some _ => true

def isKey (g : Nat) : Option Nat → Bool
  | none => false
  | some g' => decide (g' = g)

/-- `run_thread` with collectives: thread `t` runs as in `tRunN` but stops before a collective
(`ck t i`: the key of the collective at its `i`-th solo step, if any). -/
def tRunW (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (t : Nat) : Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | f + 1, h =>
    cond (isSomeK (ck t (nEv t h))) h
      (cond (isExitA (Sem.soloAct prog regs0 m0 t (nEv t h))) h
        (cond (halts (Sem.soloAct prog regs0 m0 t (nEv t h)))
          (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)
          (tRunW prog regs0 m0 ck t f (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h))))

/-- One pass `for t in 0..n`: run each thread that is not blocked. -/
def passW (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (F : Nat) : Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | n + 1, h =>
    cond (blk n (passW prog regs0 m0 ck F n h)) (passW prog regs0 m0 ck F n h)
      (tRunW prog regs0 m0 ck n F (passW prog regs0 m0 ck F n h))

/-- Lane `k` waits at instance `g` (Rust `Status::Warp` with `g`'s key): not blocked at a
barrier, its next solo step a collective of key `g`. -/
def laneAt (ck : Nat → Nat → Option Nat) (g k : Nat) (h : List (EventN V)) : Bool :=
  !blk k h && isKey g (ck k (nEv k h))

/-- Instance `g` is complete (`all_here`): it has a lane below `N`, and every lane below `N`
waits at it. -/
def readyI (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) (N g : Nat)
    (h : List (EventN V)) : Bool :=
  decide (0 < WarpRace.nLanes memb N g) && allB (fun k => !memb g k || laneAt ck g k h) N

/-- Push the solo action of each lane `k < n` of `g` that waits at `g`
(`complete_collective`). -/
def pushLanes (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) (g : Nat) :
    Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | k + 1, h =>
    cond (memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h))
      (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
        pushLanes prog regs0 m0 ck memb g k h)
      (pushLanes prog regs0 m0 ck memb g k h)

/-- Complete instance `g`: its lanes' actions, and for `bar.warp.sync` (`sync g`) the
completion of barrier `B + g` with its lanes (`Clocks::barrier`). -/
def fireI (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B g : Nat)
    (h : List (EventN V)) : List (EventN V) :=
  cond (sync g)
    (EventN.complete (B + g) (WarpRace.nLanes memb N g) :: pushLanes prog regs0 m0 ck memb g N h)
    (pushLanes prog regs0 m0 ck memb g N h)

/-- `resolve_warps` over the keys `0 .. G-1`. -/
def resolveW (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) :
    Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | g + 1, h =>
    cond (readyI ck memb N g (resolveW prog regs0 m0 ck memb sync N B g h))
      (fireI prog regs0 m0 ck memb sync N B g (resolveW prog regs0 m0 ck memb sync N B g h))
      (resolveW prog regs0 m0 ck memb sync N B g h)

/-- `run_cta` with collectives: at most `r` rounds.  A round: a pass; if every thread exited,
stop; `resolve_warps`; if it made progress, next round; else `resolve_barriers` over the ids
below `Bb`; if nothing happened in the round, stop (`report_stuck`), else next round. -/
def canonW (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (N B G Bb F : Nat) : Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | r + 1, h =>
    cond (allExited prog regs0 m0 N (passW prog regs0 m0 ck F N h)) (passW prog regs0 m0 ck F N h)
      (cond (decide (lenL (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)) =
          lenL (passW prog regs0 m0 ck F N h)))
        (cond (decide (lenL (resolveN prog regs0 m0 Bb
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h))) = lenL h))
          (resolveN prog regs0 m0 Bb
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)))
          (canonW prog regs0 m0 ck memb sync N B G Bb F r (resolveN prog regs0 m0 Bb
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)))))
        (canonW prog regs0 m0 ck memb sync N B G Bb F r
          (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h))))

/-- Every collective event of a lane is at an instance it is a lane of. -/
def OwnI (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) (t i : Nat) : Prop :=
  ∀ g, ck t i = some g → memb g t = true

def OwnH (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) : List (EventN V) → Prop
  | [] => True
  | EventN.act t _ :: h => OwnH ck memb h ∧ OwnI ck memb t (nEv t h)
  | EventN.bar t _ _ :: h => OwnH ck memb h ∧ OwnI ck memb t (nEv t h)
  | EventN.complete _ _ :: h => OwnH ck memb h

/-- The run's invariant: `GoodN` (not blocked, bookkeeping, made of the solo traces) and
ownership. -/
def GoodW (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) (N : Nat) (h : List (EventN V)) : Prop :=
  GoodN prog regs0 m0 N h ∧ OwnH ck memb h

/-- A collective is not an `exit`. -/
def CkOK (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) : Prop :=
  ∀ t i g, ck t i = some g → isExitA (Sem.soloAct prog regs0 m0 t i) = false

end Defs

section GoodW

variable {V : Type} [Sem.AccAdd V]

theorem and_l {a b : Bool} (h : (a && b) = true) : a = true := by
  cases a with
  | false => cases h
  | true => rfl

theorem and_r {a b : Bool} (h : (a && b) = true) : b = true := by
  cases a with
  | false => cases h
  | true => exact h

theorem not_t {a : Bool} (h : (!a) = true) : a = false := by
  cases a with
  | false => rfl
  | true => cases h

theorem ownI_none {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {t i : Nat}
    (h : isSomeK (ck t i) = false) : OwnI ck memb t i := by
  intro g e
  rw [e] at h
  cases h

theorem ownI_key {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {t i g : Nat}
    (h : isKey g (ck t i) = true) (hm : memb g t = true) : OwnI ck memb t i := by
  intro g' e
  rw [e] at h
  have e2 : g' = g := of_decide_eq_true' h
  rw [e2]
  exact hm

theorem some_of_key {ck : Nat → Nat → Option Nat} {t i g : Nat}
    (h : isKey g (ck t i) = true) : ck t i = some g := by
  revert h
  cases ck t i with
  | none => intro h; cases h
  | some g' =>
    intro h
    have e2 : g' = g := of_decide_eq_true' h
    rw [e2]

theorem ownH_tail {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} :
    ∀ (e : EventN V) (l : List (EventN V)), OwnH ck memb (e :: l) → OwnH ck memb l
  | EventN.act _ _, _, h => h.1
  | EventN.bar _ _ _, _, h => h.1
  | EventN.complete _ _, _, h => h

theorem ownH_push {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {h : List (EventN V)}
    (ho : OwnH ck memb h) {t : Nat} (hi : OwnI ck memb t (nEv t h)) :
    ∀ A : Act V, OwnH ck memb (evN t A :: h)
  | Act.arrive b n w pc => ⟨ho, hi⟩
  | Act.compute pc g => ⟨ho, hi⟩
  | Act.read a r pc => ⟨ho, hi⟩
  | Act.write a v pc => ⟨ho, hi⟩
  | Act.atomAdd a v pc => ⟨ho, hi⟩
  | Act.exit => ⟨ho, hi⟩

theorem goodW_nil (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (ck : Nat → Nat → Option Nat) (memb : Nat → Nat → Bool) (N : Nat) :
    GoodW prog regs0 m0 ck memb N [] := ⟨goodN_nil prog regs0 m0 N, trivial⟩

theorem goodW_push {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N : Nat} {h : List (EventN V)}
    (hG : GoodW prog regs0 m0 ck memb N h) {t : Nat} (ht : t < N) (hb : blk t h = false)
    (hx : isExitA (Sem.soloAct prog regs0 m0 t (nEv t h)) = false)
    (hi : OwnI ck memb t (nEv t h)) :
    GoodW prog regs0 m0 ck memb N (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h) :=
  ⟨good_push hG.1 ht hb _ rfl hx, ownH_push hG.2 hi _⟩

theorem goodW_complete {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N : Nat} {h : List (EventN V)}
    (hG : GoodW prog regs0 m0 ck memb N h) (b m : Nat) :
    GoodW prog regs0 m0 ck memb N (EventN.complete b m :: h) :=
  ⟨good_complete hG.1 b m, hG.2⟩

theorem tRunW_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N : Nat}
    {t : Nat} (ht : t < N) : ∀ (f : Nat) (h : List (EventN V)), GoodW prog regs0 m0 ck memb N h →
      blk t h = false → GoodW prog regs0 m0 ck memb N (tRunW prog regs0 m0 ck t f h) := by
  intro f
  induction f with
  | zero => intro h hG _; exact hG
  | succ f ih =>
    intro h hG hb
    show GoodW prog regs0 m0 ck memb N
      (cond (isSomeK (ck t (nEv t h))) h
        (cond (isExitA (Sem.soloAct prog regs0 m0 t (nEv t h))) h
          (cond (halts (Sem.soloAct prog regs0 m0 t (nEv t h)))
            (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)
            (tRunW prog regs0 m0 ck t f (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)))))
    cases hk : isSomeK (ck t (nEv t h)) with
    | true => exact hG
    | false =>
      cases hx : isExitA (Sem.soloAct prog regs0 m0 t (nEv t h)) with
      | true => exact hG
      | false =>
        have hG' := goodW_push hG ht hb hx (ownI_none hk)
        cases hh : halts (Sem.soloAct prog regs0 m0 t (nEv t h)) with
        | true => exact hG'
        | false =>
          apply ih _ hG'
          rw [blk_push t h _ hh]
          exact hb

theorem passW_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N : Nat}
    (F : Nat) (h : List (EventN V)) (hG : GoodW prog regs0 m0 ck memb N h) :
    ∀ n, n ≤ N → GoodW prog regs0 m0 ck memb N (passW prog regs0 m0 ck F n h) := by
  intro n
  induction n with
  | zero => intro _; exact hG
  | succ n ih =>
    intro hn
    have g := ih (Nat.leOfLt hn)
    show GoodW prog regs0 m0 ck memb N (cond (blk n (passW prog regs0 m0 ck F n h))
      (passW prog regs0 m0 ck F n h) (tRunW prog regs0 m0 ck n F (passW prog regs0 m0 ck F n h)))
    cases hb : blk n (passW prog regs0 m0 ck F n h) with
    | true => exact g
    | false => exact tRunW_good hn F _ g hb

theorem pushLanes_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N : Nat}
    (hck : CkOK prog regs0 m0 ck) (g : Nat) (h : List (EventN V))
    (hG : GoodW prog regs0 m0 ck memb N h) :
    ∀ n, n ≤ N → GoodW prog regs0 m0 ck memb N (pushLanes prog regs0 m0 ck memb g n h) := by
  intro n
  induction n with
  | zero => intro _; exact hG
  | succ k ih =>
    intro hn
    have gk := ih (Nat.leOfLt hn)
    show GoodW prog regs0 m0 ck memb N
      (cond (memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h))
        (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
          pushLanes prog regs0 m0 ck memb g k h)
        (pushLanes prog regs0 m0 ck memb g k h))
    cases hc : memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h) with
    | false => exact gk
    | true =>
      have hm := and_l hc
      have hl : (!blk k (pushLanes prog regs0 m0 ck memb g k h) &&
          isKey g (ck k (nEv k (pushLanes prog regs0 m0 ck memb g k h)))) = true := and_r hc
      have hkey := and_r hl
      exact goodW_push gk hn (not_t (and_l hl)) (hck _ _ _ (some_of_key hkey)) (ownI_key hkey hm)

theorem fireI_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {N B : Nat}
    (hck : CkOK prog regs0 m0 ck) (g : Nat) (h : List (EventN V))
    (hG : GoodW prog regs0 m0 ck memb N h) :
    GoodW prog regs0 m0 ck memb N (fireI prog regs0 m0 ck memb sync N B g h) := by
  have g1 := pushLanes_good hck g h hG N (Nat.leRefl N)
  show GoodW prog regs0 m0 ck memb N (cond (sync g)
    (EventN.complete (B + g) (WarpRace.nLanes memb N g) :: pushLanes prog regs0 m0 ck memb g N h)
    (pushLanes prog regs0 m0 ck memb g N h))
  cases sync g with
  | true => exact goodW_complete g1 _ _
  | false => exact g1

theorem resolveW_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {N B : Nat}
    (hck : CkOK prog regs0 m0 ck) :
    ∀ (G : Nat) (h : List (EventN V)), GoodW prog regs0 m0 ck memb N h →
      GoodW prog regs0 m0 ck memb N (resolveW prog regs0 m0 ck memb sync N B G h) := by
  intro G
  induction G with
  | zero => intro h hG; exact hG
  | succ g ih =>
    intro h hG
    have g1 := ih h hG
    show GoodW prog regs0 m0 ck memb N
      (cond (readyI ck memb N g (resolveW prog regs0 m0 ck memb sync N B g h))
        (fireI prog regs0 m0 ck memb sync N B g (resolveW prog regs0 m0 ck memb sync N B g h))
        (resolveW prog regs0 m0 ck memb sync N B g h))
    cases readyI ck memb N g (resolveW prog regs0 m0 ck memb sync N B g h) with
    | true => exact fireI_good hck g _ g1
    | false => exact g1

theorem resolveN_goodW {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N : Nat} :
    ∀ (Bb : Nat) (h : List (EventN V)), GoodW prog regs0 m0 ck memb N h →
      GoodW prog regs0 m0 ck memb N (resolveN prog regs0 m0 Bb h) := by
  intro Bb
  induction Bb with
  | zero => intro h hG; exact hG
  | succ b ih =>
    intro h hG
    have g := ih h hG
    show GoodW prog regs0 m0 ck memb N (cond (decide (0 < lenL (pendI (resolveN prog regs0 m0 b h) b)) &&
      decide (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b) ≤
        lenL (pendI (resolveN prog regs0 m0 b h) b)))
      (EventN.complete b (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b)) ::
        resolveN prog regs0 m0 b h) (resolveN prog regs0 m0 b h))
    cases decide (0 < lenL (pendI (resolveN prog regs0 m0 b h) b)) &&
      decide (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b) ≤
        lenL (pendI (resolveN prog regs0 m0 b h) b)) with
    | true => exact goodW_complete g _ _
    | false => exact g

theorem canonW_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool}
    (hck : CkOK prog regs0 m0 ck) (N B G Bb F : Nat) :
    ∀ (r : Nat) (h : List (EventN V)), GoodW prog regs0 m0 ck memb N h →
      GoodW prog regs0 m0 ck memb N (canonW prog regs0 m0 ck memb sync N B G Bb F r h) := by
  intro r
  induction r with
  | zero => intro h hG; exact hG
  | succ r ih =>
    intro h hG
    have g1 := passW_good F h hG N (Nat.leRefl N)
    have g2 := resolveW_good (sync := sync) (B := B) hck G _ g1
    have g3 := resolveN_goodW Bb _ g2
    show GoodW prog regs0 m0 ck memb N
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

/-- Along a history with the invariant that ends with every thread below `N` at its exit,
every collective step of every lane below `N` (before or after its exit) is at an instance it
is a lane of. -/
theorem ownI_of_done {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {N : Nat} {H : List (EventN V)}
    (hck : CkOK prog regs0 m0 ck) (hG : GoodW prog regs0 m0 ck memb N H)
    (hfin : allExited prog regs0 m0 N H = true) {t : Nat} (ht : t < N) (i : Nat) :
    OwnI ck memb t i := by
  intro g e
  have hlt := lt_nEv_of_doneH hfin ht (hck t i g e)
  match Members.find_ev H i hlt with
  | ⟨e', h, hs, ha, hn⟩ =>
    have ho : OwnH ck memb (e' :: h) := Members.sfx_pres ownH_tail _ _ hs hG.2
    rw [← hn] at e
    cases e' with
    | act u A =>
      have eu : u = t := ha
      subst eu
      exact ho.2 g e
    | bar u b w =>
      have eu : u = t := ha
      subst eu
      exact ho.2 g e
    | complete b m => exact False.elim ha

end GoodW

end Race

namespace WarpRace

open Sem
open Warp

section Exec

variable {V : Type} [AccAdd V]

/-- The key of a collective arrival. -/
def wkey : WAct V → Option Nat
  | WAct.base _ => none
  | WAct.coll g _ _ _ => some g

/-- The key of the collective at lane `t`'s `i`-th solo step of the view, if that step is a
collective (Rust: the lane's `warp_wait` when it stops with `Status::Warp`). -/
def collAt (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) (t i : Nat) : Option Nat :=
  wkey (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
    (solo (view memb sync N B wp) regs0 m0 t i).regs)

theorem ckOK_view (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.CkOK (view memb sync N B wp) regs0 m0 (collAt memb sync N B wp regs0 m0) := by
  intro t i g e
  show Race.isExitA (viewAct memb sync N B (solo (view memb sync N B wp) regs0 m0 t i).regs
    (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs)) = false
  revert e
  show wkey (wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs) = some g → _
  cases wp t (solo (view memb sync N B wp) regs0 m0 t i).pc
      (solo (view memb sync N B wp) regs0 m0 t i).regs with
  | base A => intro e; cases e
  | coll g' v res pc =>
    intro _
    show Race.isExitA (cond (sync g') (Act.arrive (B + g') (nLanes memb N g') true pc)
      (Act.compute pc (postRegs sync g' (solo (view memb sync N B wp) regs0 m0 t i).regs res))) = false
    cases sync g' with
    | true => rfl
    | false => rfl

/-- **The executor's run with warp collectives** (`run_cta` with `resolve_warps`), over the
view's solo traces: collective keys below `G`, program barrier ids below `Bb`, `F` rounds and
fuel `F` per thread per pass. -/
def canonRunW (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B G Bb F : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) : List (Race.EventN V) :=
  Race.canonW (view memb sync N B wp) regs0 m0 (collAt memb sync N B wp regs0 m0) memb sync
    N B G Bb F F []

/-- The run finished: every lane below `N` reached its `exit` (else the executor reports a
deadlock or a `CollectiveMismatch`: a lane at an instance that is not its own, or an instance
one of whose lanes exited, is never completed). -/
def FinishedW (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B G Bb F : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 : Nat → V) : Bool :=
  Race.allExited (view memb sync N B wp) regs0 m0 N (canonRunW memb sync N B G Bb F wp regs0 m0)

theorem canonRunW_good (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B G Bb F : Nat)
    (wp : WProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.GoodW (view memb sync N B wp) regs0 m0 (collAt memb sync N B wp regs0 m0) memb N
      (canonRunW memb sync N B G Bb F wp regs0 m0) :=
  Race.canonW_good (ckOK_view memb sync N B wp regs0 m0) N B G Bb F F []
    (Race.goodW_nil _ regs0 m0 _ memb N)

/-- The run's history is made of the view's solo traces. -/
theorem canonRunW_fromSolo (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B G Bb F : Nat)
    (wp : WProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.FromSolo (view memb sync N B wp) regs0 m0 N (canonRunW memb sync N B G Bb F wp regs0 m0) :=
  (canonRunW_good memb sync N B G Bb F wp regs0 m0).1.2.2

/-- In the run, a thread blocked at a barrier performs no event. -/
theorem canonRunW_notBlocked (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B G Bb F : Nat)
    (wp : WProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.NotBlocked N (canonRunW memb sync N B G Bb F wp regs0 m0) :=
  (canonRunW_good memb sync N B G Bb F wp regs0 m0).1.1

/-- A finished run gives ownership along the solo traces: the run completes a lane's
collective only at an instance it is a lane of, and it took every lane to its exit. -/
theorem collOwnSolo_of_run (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B G Bb F : Nat)
    (wp : WProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (hfin : FinishedW memb sync N B G Bb F wp regs0 m0 = true) :
    CollOwnSolo memb sync N B wp regs0 m0 := by
  intro t k ht g v res pc' e
  apply Race.ownI_of_done (ckOK_view memb sync N B wp regs0 m0)
    (canonRunW_good memb sync N B G Bb F wp regs0 m0) hfin ht k g
  show wkey (wp t (solo (view memb sync N B wp) regs0 m0 t k).pc
    (solo (view memb sync N B wp) regs0 m0 t k).regs) = some g
  rw [e]
  rfl

/-- **The executor's own run with collectives is sound.**  Under `WDataIndep`, `BaseIds` and
one positive count `mb b` per id in the view's solo traces, if the run `canonRunW` finishes
(every lane at its exit: no `CollectiveMismatch`, no deadlock), passes members checks (2) and
(3) and the end-of-run check, and its race check reports nothing, then from every initial
memory `WSem` is race free, its barriers fit, `CollOwnR` holds, all complete executions end in
one state and, if one finishes, none gets stuck.  `FromSolo`, `NotBlocked` and `CollOwnSolo`
are proved of the run, not assumed. -/
theorem warp_run_sound (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B G Bb F : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N →
      soloAct (view memb sync N B wp) regs0 m0 t i = Act.arrive b n w pc → n = mb b)
    (hSz : Members.Sized mb S)
    (hfin : FinishedW memb sync N B G Bb F wp regs0 m0 = true)
    (hd : Members.Drain2 S (canonRunW memb sync N B G Bb F wp regs0 m0))
    (hend : ∀ b, Members.pendI (canonRunW memb sync N B G Bb F wp regs0 m0) b = [])
    (hr : Members.RustCheck3 N (Race.soloEvB (view memb sync N B wp) regs0 m0 N)
      (canonRunW memb sync N B G Bb F wp regs0 m0))
    (hc : Race.checkN Race.noSameN N (canonRunW memb sync N B G Bb F wp regs0 m0) = false) :
    WRaceFree memb wp N (winit regs0 m1) ∧ WBarriersFit memb wp N (winit regs0 m1) ∧
    CollOwnR memb wp N (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WReach memb wp N (winit regs0 m1) t2 →
      WFinal N t1 → WFinal N t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WFinal N t1 →
      WReach memb wp N (winit regs0 m1) t2 → (∀ v, WStep memb wp N t2 v → False) →
      WFinal N t2) :=
  warp_hist_sound memb sync R N B wp regs0 m0 m1 hind hR0 hB
    (collOwnSolo_of_run memb sync N B G Bb F wp regs0 m0 hfin)
    (canonRunW memb sync N B G Bb F wp regs0 m0) mb S hpos hcnt hSz
    (canonRunW_fromSolo memb sync N B G Bb F wp regs0 m0)
    (canonRunW_notBlocked memb sync N B G Bb F wp regs0 m0) hfin hd hend hr hc

end Exec

section Check3

variable {V : Type} [AccAdd V]

/-! ### Check (3) at the collectives' ids is never consulted

Every arrival of the view at an id `≥ B` is a `bar.warp.sync` arrival, which waits; check (3)
is about a `bar.arrive` (non-waiting) arrival before, so on the view it need only be evaluated
at the program's own ids (below `B`). -/

theorem arr_view (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (hB : BaseIds wp B) (t pc : Nat) (regs : Nat → V) {b : Nat} {w : Bool}
    (h : Members.evOf (view memb sync N B wp t pc regs) = Members.Ev.arr b w) :
    b < B ∨ w = true := by
  revert h
  show Members.evOf (viewAct memb sync N B regs (wp t pc regs)) = Members.Ev.arr b w → _
  cases e : wp t pc regs with
  | base A =>
    intro h
    cases A with
    | arrive b' n w' pc' =>
      have h' : Members.Ev.arr b' w' = Members.Ev.arr b w := h
      injection h' with e1 e2
      rw [← e1]
      exact Or.inl (hB t pc regs b' n w' pc' e)
    | compute _ _ => cases h
    | read _ _ _ => cases h
    | write _ _ _ => cases h
    | atomAdd _ _ _ => cases h
    | exit => cases h
  | coll g v res pc' =>
    intro h
    have h' : Members.evOf (cond (sync g) (Act.arrive (B + g) (nLanes memb N g) true pc')
      (Act.compute pc' (postRegs sync g regs res))) = Members.Ev.arr b w := h
    cases hs : sync g with
    | true =>
      rw [hs] at h'
      have h2 : Members.Ev.arr (B + g) true = Members.Ev.arr b w := h'
      injection h2 with e1 e2
      exact Or.inr e2.symm
    | false =>
      rw [hs] at h'
      cases h'

/-- Check (3) of the Rust (`RustCheck3`) restricted to the program's ids (below `B`). -/
def RustCheck3Below (N B : Nat) (act : Nat → Nat → Members.Ev) (H : List (Race.EventN V)) : Prop :=
  ∀ t b w' h, b < B → Members.Sfx (Race.EventN.bar t b w' :: h) H → ∀ i, i < Members.nEv t h →
    act t i = Members.Ev.arr b false →
    Members.ac act b t (Members.nEv t h) = Members.ac act b t i + 1 →
    ∃ m hc y j, Members.Sfx (Race.EventN.complete b m :: hc) h ∧
      Race.In (t, i) (Race.takeL m (Members.pendI hc b)) ∧
      Race.In (y, j) (Race.takeL m (Members.pendI hc b)) ∧ act y j = Members.Ev.arr b true ∧
      ∃ k c, Members.PosAt h k y (j + 1) ∧ Race.Seg N h k y c ∧
        (Race.brun N h).clocks.ordered ⟨y, c⟩ t = true

theorem rust3_of_below (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V)
    (hB : BaseIds wp B) (regs0 : Nat → Nat → V) (m0 : Nat → V) (H : List (Race.EventN V))
    (h3 : RustCheck3Below N B (Race.soloEvB (view memb sync N B wp) regs0 m0 N) H) :
    Members.RustCheck3 N (Race.soloEvB (view memb sync N B wp) regs0 m0 N) H := by
  intro t b w' h hs i hi ha
  cases Nat.decLt b B with
  | isTrue hb => exact h3 t b w' h hb hs i hi ha
  | isFalse hb =>
    intro _
    apply False.elim
    have ha' : cond (decide (t < N)) (Members.soloEv (view memb sync N B wp) regs0 m0 t i)
      Members.Ev.loc = Members.Ev.arr b false := ha
    cases hd : decide (t < N) with
    | false => rw [hd] at ha'; cases ha'
    | true =>
      rw [hd] at ha'
      cases arr_view memb sync N B wp hB t _ _ ha' with
      | inl hl => exact hb hl
      | inr hw => cases hw

end Check3

/-! ## Not vacuous: the example of `WarpRaceRun.lean` run the executor's way

`Ex.progS` (lane 0 stores, `bar.warp.sync`, lane 1 loads): in the first pass both lanes stop
before the collective; `resolveW` completes the instance (both lanes' arrivals at barrier `0`
and its completion with 2 lanes); in the second pass both lanes run to their exit.  The run
finishes and the checks are silent, so `warp_run_sound` applies.  With `shfl.sync` in its place
(`Ex.progH`, no clock edge) the run finishes and the race check reports the store and the
load. -/

namespace ExW

open Ex

theorem exw_run :
    canonRunW memb2 syncAll 2 0 1 0 6 progS regs0 m0 =
      [Race.EventN.act 1 (Act.read 0 0 3), Race.EventN.act 0 (Act.compute 3 (fun _ => 0)),
       Race.EventN.complete 0 2, Race.EventN.bar 1 0 true, Race.EventN.bar 0 0 true,
       Race.EventN.act 1 (Act.compute 1 (fun _ => 0)), Race.EventN.act 0 (Act.write 0 1 1)] := rfl

/-- The run of the executor with collectives differs from `canonRunN` of the view (there lane 1
arrives after lane 0's arrival is recorded in the same pass). -/
theorem exw_ne : canonRunW memb2 syncAll 2 0 1 0 6 progS regs0 m0 ≠
    Race.canonRunN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6 := by
  intro h
  rw [exw_run, ex_run] at h
  have h1 := (List.cons.inj (List.cons.inj (List.cons.inj (List.cons.inj (List.cons.inj h).2).2).2).2).1
  exact Race.EventN.noConfusion h1

theorem exw_accepted :
    FinishedW memb2 syncAll 2 0 1 0 6 progS regs0 m0 = true ∧
    Race.checkN Race.noSameN 2 (canonRunW memb2 syncAll 2 0 1 0 6 progS regs0 m0) = false :=
  ⟨rfl, rfl⟩

theorem exw_shfl_reported :
    FinishedW memb2 syncNone 2 0 1 0 6 progH regs0 m0 = true ∧
    Race.checkN Race.noSameN 2 (canonRunW memb2 syncNone 2 0 1 0 6 progH regs0 m0) = true :=
  ⟨rfl, rfl⟩

theorem exw_drain :
    Members.Drain2 (fun _ => [0, 1]) (canonRunW memb2 syncAll 2 0 1 0 6 progS regs0 m0) :=
  Members.drain2_of _ _ rfl

theorem exw_end : ∀ b, Members.pendI (canonRunW memb2 syncAll 2 0 1 0 6 progS regs0 m0) b = [] := by
  intro b
  rw [exw_run]
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

theorem exw_rust3 :
    Members.RustCheck3 2 (Race.soloEvB (view memb2 syncAll 2 0 progS) regs0 m0 2)
      (canonRunW memb2 syncAll 2 0 1 0 6 progS regs0 m0) := by
  rw [exw_run]
  exact Members.rust3_cons trivial (Members.rust3_cons trivial (Members.rust3_cons trivial
    (Members.rust3_cons (Members.head3_none rfl) (Members.rust3_cons (Members.head3_none rfl)
    (Members.rust3_cons trivial (Members.rust3_cons trivial
    (Members.rust3_nil 2 _)))))))

/-- **`warp_run_sound` on the executor's own run of the `bar.warp.sync` example**: every
hypothesis about the run evaluated on it; `FromSolo`, `NotBlocked` and ownership come from the
theorem. -/
theorem exw_sound (m1 : Nat → Nat) :
    WRaceFree memb2 progS 2 (winit regs0 m1) ∧ WBarriersFit memb2 progS 2 (winit regs0 m1) ∧
    CollOwnR memb2 progS 2 (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WReach memb2 progS 2 (winit regs0 m1) t2 →
      WFinal 2 t1 → WFinal 2 t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WFinal 2 t1 →
      WReach memb2 progS 2 (winit regs0 m1) t2 → (∀ v, WStep memb2 progS 2 t2 v → False) →
      WFinal 2 t2) :=
  by
  have h := warp_run_sound memb2 syncAll (fun _ _ _ _ => True) 2 0 1 0 6 progS regs0 m0 m1
    ex_indep (fun _ => trivial) ex_baseIds (fun _ => 2) (fun _ => [0, 1])
    (fun _ => Nat.zeroLtSucc 1) (fun t _ _ _ _ _ _ h => ex_view_cnt t _ _ h) Members.pc_sized
  have h1 := h exw_accepted.1
  have h2 := h1 exw_drain
  have h3 := h2 exw_end
  have h4 := h3 exw_rust3
  exact h4 exw_accepted.2

end ExW

end WarpRace
end Kcert
