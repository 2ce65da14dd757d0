import Kcert.Warp
import Kcert.RaceCheck

/-!
# The race check with warp collectives: a reduction to `Sem`

Rust: `checker/src/exec/mod.rs` `complete_collective`: a `bar.warp.sync` instance joins its
lanes' clocks (`cta.clocks.barrier(&rows, &ids)`, every lane a waiter), exactly as a named
barrier instance whose members are the mask's lanes, all waiting; `shfl.sync`, `vote.sync`,
`mma.sync` write registers only and add no clock edge.

So the race check with collectives is `Sem`'s race check on the VIEW of the program
(`view memb sync N B wp`): a `Sem` action is itself; an arrival at a `bar.warp.sync` instance
`g` (`sync g = true`) is a waiting arrival at barrier `B + g` (ids `B + g` above the program's
own, `BaseIds`) with count the number of its lanes (`nLanes`); an arrival at any other
collective is a register step (`Act.compute`) to its `pc`.  The view has more schedules than
`WSem` (a lane passes a shuffle without waiting for the others), and none fewer:

* `Sim`/`ThSim`: a `WSem` state and a view state agree on every thread not waiting at a
  collective (status, `pc`, registers related by `R`); a lane waiting at a `bar.warp.sync`
  waits at its barrier in the view; a lane waiting at another collective is already past it in
  the view, with registers related to the result for any contributions.
* `sim_step`: every step of `WSem` is a step of the same thread in the view (`sim_base`,
  `sim_coll_nosync`, `sim_coll_sync`: the barrier `B + g` fires exactly when the instance
  completes, `allW_done`); `sim_reach`: every reachable `WSem` state is simulated by a
  reachable view state (given ownership along the way, `OwnSim`, e.g. from `CollOwnN`).
* `wraceFree_of_view`: a race-free view (`Sem.RaceFree`) gives `WRaceFree`;
  `wbarriersFit_of_view`: `Sem.BarriersFit` of the view gives `WBarriersFit`;
  `dataIndep_view`: the view is data independent; `wsound_of_view`: with `CollOwnR`, the
  hypotheses of `Warp.wconfluence` and `Warp.wno_stuck`.

The executor's run of the view and the example are in `WarpRaceRun.lean`; any history of the
view in `WarpRaceHist.lean`.
-/

namespace Kcert
namespace WarpRace

open Sem
open Warp

/-! ## Counting -/

/-- The number of `k < n` with `p k`. -/
def cntB (p : Nat → Bool) : Nat → Nat
  | 0 => 0
  | n + 1 => cntB p n + cond (p n) 1 0

theorem decide_iff {P Q : Prop} [Decidable P] [Decidable Q] (h : P ↔ Q) :
    decide P = decide Q := by
  cases hp : decide P with
  | false =>
    have np : ¬P := of_decide_eq_false' hp
    exact Eq.symm (decide_eq_false' (fun q => np (h.2 q)))
  | true =>
    have pp : P := of_decide_eq_true' hp
    exact Eq.symm (decide_eq_true' (h.1 pp))

theorem cntB_mono (p q : Nat → Bool) (h : ∀ k, q k = true → p k = true) :
    ∀ n, cntB q n ≤ cntB p n := by
  intro n
  induction n with
  | zero => exact Nat.leRefl 0
  | succ n ih =>
    show cntB q n + cond (q n) 1 0 ≤ cntB p n + cond (p n) 1 0
    cases hq : q n with
    | false =>
      cases p n with
      | false => exact ih
      | true => exact Nat.leStep ih
    | true =>
      rw [h n hq]
      exact Nat.succLeSucc ih

/-- Every `k < n` with `p k` has `q k` iff there are as many `q`s as `p`s (`q` below `p`). -/
theorem allW_cnt (p q : Nat → Bool) (h : ∀ k, q k = true → p k = true) :
    ∀ n, allW (fun k => !p k || q k) n = decide (cntB p n ≤ cntB q n) := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show (allW (fun k => !p k || q k) n && (!p n || q n)) =
      decide (cntB p n + cond (p n) 1 0 ≤ cntB q n + cond (q n) 1 0)
    rw [ih]
    cases hq : q n with
    | true =>
      rw [h n hq]
      show (decide (cntB p n ≤ cntB q n) && true) = decide (cntB p n + 1 ≤ cntB q n + 1)
      rw [decide_iff (⟨Nat.succLeSucc, Nat.leOfSuccLeSucc⟩ :
        cntB p n ≤ cntB q n ↔ cntB p n + 1 ≤ cntB q n + 1)]
      cases decide (cntB p n + 1 ≤ cntB q n + 1) <;> rfl
    | false =>
      cases hp : p n with
      | false =>
        show (decide (cntB p n ≤ cntB q n) && true) = decide (cntB p n ≤ cntB q n)
        cases decide (cntB p n ≤ cntB q n) <;> rfl
      | true =>
        show (decide (cntB p n ≤ cntB q n) && false) = decide (cntB p n + 1 ≤ cntB q n)
        have hm := cntB_mono p q h n
        have hn : ¬ (cntB p n + 1 ≤ cntB q n) := fun hh =>
          Nat.notSuccLeSelf _ (Nat.leTrans hh hm)
        rw [decide_eq_false' hn]
        cases decide (cntB p n ≤ cntB q n) <;> rfl

theorem cntB_plus (q : Nat → Bool) (i : Nat) (hq : q i = false) :
    ∀ n, cntB (fun k => decide (k = i) || q k) n = cntB q n + cond (decide (i < n)) 1 0 := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show cntB (fun k => decide (k = i) || q k) n + cond (decide (n = i) || q n) 1 0 =
      cntB q n + cond (q n) 1 0 + cond (decide (i < n + 1)) 1 0
    rw [ih]
    cases Nat.decEq n i with
    | isTrue e =>
      rw [e, hq, decide_eq_true' (rfl : i = i), decide_eq_false' (Nat.ltIrrefl i),
        decide_eq_true' (Nat.ltSuccSelf i)]
      rfl
    | isFalse e =>
      have hlt : decide (i < n) = decide (i < n + 1) := decide_iff ⟨Nat.leStep, fun h =>
        Nat.ltOfLeOfNe (Nat.leOfLtSucc h) (fun e' => e (Eq.symm e'))⟩
      rw [decide_eq_false' e, hlt]
      cases q n <;> cases decide (i < n + 1) <;> rfl

theorem or_assoc' (a b c : Bool) : (a || b || c) = (a || (b || c)) := by
  cases a <;> cases b <;> cases c <;> rfl

/-- The arrival of `i` (a `p`-lane not yet `q`) completes iff the `p`-lanes number at most the
`q`-ones plus one. -/
theorem allW_done (p q : Nat → Bool) {i N : Nat} (h : ∀ k, q k = true → p k = true)
    (hp : p i = true) (hq : q i = false) (hi : i < N) :
    allW (fun k => !p k || decide (k = i) || q k) N = decide (cntB p N ≤ cntB q N + 1) := by
  have h1 : allW (fun k => !p k || decide (k = i) || q k) N =
      allW (fun k => !p k || (fun k => decide (k = i) || q k) k) N :=
    allW_congr _ _ N (fun k _ => or_assoc' _ _ _)
  have h' : ∀ k, (fun k => decide (k = i) || q k) k = true → p k = true := by
    intro k hk
    cases Nat.decEq k i with
    | isTrue e => rw [e]; exact hp
    | isFalse e =>
      have hk' : (decide (k = i) || q k) = true := hk
      rw [decide_eq_false' e] at hk'
      exact h k hk'
  rw [h1, allW_cnt p _ h' N, cntB_plus q i hq N, decide_eq_true' hi]
  rfl

/-! ## The view: `bar.warp.sync` as a barrier, the other collectives as register steps -/

section Defs

variable {V : Type} [AccAdd V]

/-- The lanes of instance `g` among the `N` threads. -/
def nLanes (memb : Nat → Nat → Bool) (N g : Nat) : Nat := cntB (memb g) N

/-- The registers a lane has in the view after arriving at `g`: unchanged at a `bar.warp.sync`
(`sync g`), else the result with no contribution (the view does not know the others'). -/
def postRegs (sync : Nat → Bool) (g : Nat) (regs : Nat → V) (res : ExtFun V) : Nat → V :=
  cond (sync g) regs (res.f (fun _ => none))

/-- The `Sem` action of a `WAct` in the view: a `Sem` action is itself; an arrival at a
`bar.warp.sync` instance `g` is a waiting arrival at barrier `B + g` with count the number of
lanes; an arrival at any other collective is a register step to its `pc`. -/
def viewAct (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (regs : Nat → V) :
    WAct V → Act V
  | WAct.base A => A
  | WAct.coll g _ res pc =>
    cond (sync g) (Act.arrive (B + g) (nLanes memb N g) true pc)
      (Act.compute pc (postRegs sync g regs res))

/-- The view program. -/
def view (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B : Nat) (wp : WProg V) : Prog V :=
  fun i pc regs => viewAct memb sync N B regs (wp i pc regs)

/-- Data independence with collectives: `Sem` actions as in `Sem.ActRel`; two arrivals at
collectives from related registers are at the same instance with the same `pc`, whatever the
contributions the result is related to the view's registers, and the view's registers are
related. -/
def WActRel (sync : Nat → Bool) (R : Nat → (Nat → V) → (Nat → V) → Prop) (regs regs' : Nat → V) :
    WAct V → WAct V → Prop
  | WAct.base A, WAct.base A' => ActRel R regs regs' A A'
  | WAct.coll g _ res pc, WAct.coll g' _ res' pc' => g = g' ∧ pc = pc' ∧
      (∀ cv, R pc (res.f cv) (postRegs sync g regs' res')) ∧
      R pc (postRegs sync g regs res) (postRegs sync g regs' res')
  | WAct.base _, WAct.coll _ _ _ _ => False
  | WAct.coll _ _ _ _, WAct.base _ => False

def WDataIndep (sync : Nat → Bool) (wp : WProg V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) :
    Prop :=
  ∀ i pc regs regs', R i pc regs regs' → WActRel sync (R i) regs regs' (wp i pc regs) (wp i pc regs')

/-- Every lane below `N` arrives only at collective instances it is a lane of (`Warp.CollOwn`
for the threads that run). -/
def CollOwnN (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) : Prop :=
  ∀ i, i < N → ∀ pc regs g v res pc', wp i pc regs = WAct.coll g v res pc' → memb g i = true

theorem collOwnN_of_static (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)
    (h : CollOwn memb wp) : CollOwnN memb wp N :=
  fun i _ pc regs g v res pc' e => h i pc regs g v res pc' e

theorem collOwnR_of_N (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) (s0 : WState V)
    (h : CollOwnN memb wp N) : CollOwnR memb wp N s0 :=
  fun _ _ i hi _ _ g v res pc e => h i hi _ _ g v res pc e

/-- The program's own barriers have ids below `B` (the view's warp-sync barriers are `B + g`). -/
def BaseIds (wp : WProg V) (B : Nat) : Prop :=
  ∀ i pc regs b n w pc', wp i pc regs = WAct.base (Act.arrive b n w pc') → b < B

/-- A thread of `WSem` (state `t`, waiting record `o`) and of the view (`u`): not waiting, same
status, `pc` and related registers; waiting at instance `w.key`: running in `WSem`, in the view
waiting at barrier `B + w.key` if it is a `bar.warp.sync`, else already past it, at `w.pc`,
with registers related to the result for any contributions. -/
def ThSim (sync : Nat → Bool) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (B k : Nat)
    (t u : TState V) : Option (Wait V) → Prop
  | none => t.status = u.status ∧ TRel R k t u
  | some w => t.status = Status.run ∧
      u.status = cond (sync w.key) (Status.bar (B + w.key)) Status.run ∧ u.pc = w.pc ∧
      ∀ cv, R k w.pc (w.res.f cv) u.regs

/-- The simulation of a `WSem` state by a view state. -/
def Sim (memb : Nat → Nat → Bool) (sync : Nat → Bool) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (B : Nat) (st : WState V) (u : CState V) : Prop :=
  (∀ k, ThSim sync R B k (st.s.th k) (u.th k) (st.cw k)) ∧
  (∀ b, b < B → st.s.arr b = u.arr b) ∧
  (∀ g, u.arr (B + g) = 0) ∧
  (∀ k b, (st.s.th k).status = Status.bar b → b < B) ∧
  (∀ k w, st.cw k = some w → memb w.key k = true)

end Defs

/-! ## Small lemmas -/

section Small

variable {V : Type} [AccAdd V]

theorem add_cancel_r : ∀ (B : Nat) {a b : Nat}, a + B = b + B → a = b
  | 0, _, _, h => h
  | B + 1, _, _, h => add_cancel_r B (Nat.succ.inj h)

theorem add_cancel_l (B : Nat) {a b : Nat} (h : B + a = B + b) : a = b := by
  rw [Nat.add_comm B a, Nat.add_comm B b] at h
  exact add_cancel_r B h

theorem lt_ne_add {b B : Nat} (hb : b < B) (g : Nat) : b ≠ B + g := fun e =>
  Nat.ltIrrefl b (Nat.ltOfLtOfLe hb (by rw [e]; exact Nat.leAddRight B g))

theorem waiting_bar_lt {b B : Nat} (hb : b < B) (g : Nat) :
    waiting (B + g) (Status.bar b) = false := decide_eq_false' (lt_ne_add hb g)

theorem relAt_not {b : Nat} {t : TState V} (h : waiting b t.status = false) : relAt b t = t := by
  show cond (waiting b t.status) { t with status := Status.run } t = t
  rw [h]
  rfl

theorem relAt_yes {b : Nat} {t : TState V} (h : waiting b t.status = true) :
    relAt b t = ⟨t.pc, t.regs, Status.run⟩ := by
  show cond (waiting b t.status) { t with status := Status.run } t = _
  rw [h]
  rfl

theorem waitsAt_some {g : Nat} {o : Option (Wait V)} (h : waitsAt g o = true) :
    ∃ w, o = some w ∧ w.key = g := by
  cases o with
  | none => cases h
  | some w => exact ⟨w, rfl, of_decide_eq_true' h⟩

/-- In the view, a thread does not wait at a program barrier `b < B` unless it does in `WSem`. -/
theorem wait_base (sync : Nat → Bool) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {B k b : Nat}
    {t u : TState V} {o : Option (Wait V)} (hS : ThSim sync R B k t u o) (hb : b < B) :
    waiting b t.status = waiting b u.status := by
  cases o with
  | none => rw [hS.1]
  | some w =>
    rw [hS.1, hS.2.1]
    cases sync w.key with
    | false => rfl
    | true =>
      show false = decide (B + w.key = b)
      exact Eq.symm (decide_eq_false' (fun e => lt_ne_add hb w.key (Eq.symm e)))

/-- In the view, a thread waits at `B + g` (`g` a `bar.warp.sync`) iff it waits at `g` in
`WSem`. -/
theorem wait_sync (sync : Nat → Bool) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) {B k g : Nat}
    {t u : TState V} {o : Option (Wait V)} (hS : ThSim sync R B k t u o)
    (hst : ∀ b, t.status = Status.bar b → b < B) (hg : sync g = true) :
    waiting (B + g) u.status = waitsAt g o := by
  cases o with
  | none =>
    rw [← hS.1]
    cases ht : t.status with
    | run => rfl
    | exited => rfl
    | bar b => exact waiting_bar_lt (hst b ht) g
  | some w =>
    rw [hS.2.1]
    show waiting (B + g) (cond (sync w.key) (Status.bar (B + w.key)) Status.run) = decide (w.key = g)
    cases Nat.decEq w.key g with
    | isTrue e =>
      rw [e, hg, decide_eq_true' (rfl : g = g)]
      exact decide_eq_true' rfl
    | isFalse e =>
      rw [decide_eq_false' e]
      cases sync w.key with
      | false => rfl
      | true =>
        exact decide_eq_false' (fun e' => e (add_cancel_l B e'))

theorem countAt_cntB (b : Nat) (th : Nat → TState V) (p : Nat → Bool)
    (h : ∀ k, waiting b (th k).status = p k) : ∀ n, countAt b th n = cntB p n := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show countAt b th n + cond (waiting b (th n).status) 1 0 = cntB p n + cond (p n) 1 0
    rw [ih, h n]

theorem firesA_rel {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A A2 : Act V}
    (N : Nat) (s u : CState V) (h : ActRel R r r' A A2)
    (H : ∀ b n w pc, A = Act.arrive b n w pc → arrivals N b s = arrivals N b u) :
    firesA N A s = firesA N A2 u := by
  cases A <;> cases A2 <;> (first | contradiction | rfl | skip)
  match h with
  | ⟨e1, e2, e3, e4, _⟩ =>
    rw [← e1, ← e2]
    show decide (_ ≤ arrivals N _ s + 1) = decide (_ ≤ arrivals N _ u + 1)
    rw [H _ _ _ _ rfl]

theorem newT_status_rel {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A A2 : Act V}
    (f : Bool) (t t' : TState V) (m m' : Nat → V) (h : ActRel R r r' A A2) :
    (newT A f t m).status = (newT A2 f t' m').status := by
  cases A <;> cases A2 <;> (first | contradiction | rfl | skip)
  match h with
  | ⟨e1, e2, e3, e4, _⟩ => rw [e1, e3]; rfl

theorem status_newT {A : Act V} {f : Bool} {t : TState V} {m : Nat → V} {c : Nat}
    (h : (newT A f t m).status = Status.bar c) : ∃ n w pc, A = Act.arrive c n w pc := by
  cases A with
  | compute pc r => cases h
  | read a r pc => cases h
  | write a v pc => cases h
  | atomAdd a v pc => cases h
  | exit => cases h
  | arrive b n w pc =>
    have h' : cond f Status.run (cond w (Status.bar b) Status.run) = Status.bar c := h
    cases f with
    | true => cases h'
    | false =>
      cases w with
      | false => cases h'
      | true => exact ⟨n, true, pc, by rw [bar_inj h']⟩

theorem status_relAt {b c : Nat} {t : TState V} (h : (relAt b t).status = Status.bar c) :
    t.status = Status.bar c := by
  cases hw : waiting b t.status with
  | false => rw [relAt_not hw] at h; exact h
  | true => rw [relAt_yes hw] at h; cases h

theorem status_effOther {A : Act V} {f : Bool} {t : TState V} {c : Nat}
    (h : (effOther A f t).status = Status.bar c) : t.status = Status.bar c := by
  cases A with
  | compute pc r => exact h
  | read a r pc => exact h
  | write a v pc => exact h
  | atomAdd a v pc => exact h
  | exit => exact h
  | arrive b n w pc =>
    cases f with
    | false => exact h
    | true => exact status_relAt h

end Small

/-! ## A `Sem` step of `WSem` is a step of the view -/

section BaseStep

variable {V : Type} [AccAdd V]

theorem thSim_relAt (sync : Nat → Bool) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    {B k : Nat} {t u : TState V} {o : Option (Wait V)} (hS : ThSim sync R B k t u o) {b : Nat}
    (hb : b < B) : ThSim sync R B k (relAt b t) (relAt b u) o := by
  have hw := wait_base sync R hS hb
  cases o with
  | none =>
    cases hwt : waiting b t.status with
    | false =>
      rw [hwt] at hw
      rw [relAt_not hwt, relAt_not (Eq.symm hw)]
      exact hS
    | true =>
      rw [hwt] at hw
      rw [relAt_yes hwt, relAt_yes (Eq.symm hw)]
      exact ⟨rfl, hS.2⟩
  | some w =>
    have hwt : waiting b t.status = false := by rw [hS.1]; rfl
    rw [hwt] at hw
    rw [relAt_not hwt, relAt_not (Eq.symm hw)]
    exact hS

theorem thSim_effOther (sync : Nat → Bool) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    {B k : Nat} {t u : TState V} {o : Option (Wait V)} (hS : ThSim sync R B k t u o)
    {R' : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A A2 : Act V} (f : Bool)
    (hrel : ActRel R' r r' A A2) (hB : ∀ b n w pc, A = Act.arrive b n w pc → b < B) :
    ThSim sync R B k (effOther A f t) (effOther A2 f u) o := by
  cases A <;> cases A2 <;> (first | contradiction | exact hS | skip)
  match hrel with
  | ⟨e1, _, _, _, _⟩ =>
    rw [← e1]
    have hb := hB _ _ _ _ rfl
    cases f with
    | false => exact hS
    | true =>
      show ThSim sync R B k (relAt _ t) (relAt _ u) o
      exact thSim_relAt sync R hS hb

theorem arrEff_lt {R' : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {A A2 : Act V}
    {B : Nat} (f : Bool) (ar ar' : Nat → Nat) (hrel : ActRel R' r r' A A2)
    (hB : ∀ b n w pc, A = Act.arrive b n w pc → b < B) (ha : ∀ b, b < B → ar b = ar' b)
    (b : Nat) (hb : b < B) : arrEff A f ar b = arrEff A2 f ar' b := by
  cases A <;> cases A2 <;> (first | contradiction | exact ha b hb | skip)
  match hrel with
  | ⟨e1, _, e3, _, _⟩ =>
    rw [← e1, ← e3]
    have hb0 := hB _ _ _ _ rfl
    show (if b = _ then _ else ar b) = (if b = _ then _ else ar' b)
    cases Nat.decEq b _ with
    | isTrue e =>
      rw [if_pos' e, if_pos' e]
      show arrNew f _ (ar _) = arrNew f _ (ar' _)
      rw [ha _ hb0]
    | isFalse e =>
      rw [if_neg' e, if_neg' e]
      exact ha b hb

theorem arrEff_sync {A : Act V} {B : Nat} (f : Bool) (ar : Nat → Nat)
    (hB : ∀ b n w pc, A = Act.arrive b n w pc → b < B) (ha : ∀ g, ar (B + g) = 0) (g : Nat) :
    arrEff A f ar (B + g) = 0 := by
  cases A with
  | compute pc r => exact ha g
  | read a r pc => exact ha g
  | write a v pc => exact ha g
  | atomAdd a v pc => exact ha g
  | exit => exact ha g
  | arrive b n w pc =>
    have hb := hB b n w pc rfl
    show (if B + g = b then _ else ar (B + g)) = 0
    rw [if_neg' (fun e => lt_ne_add hb g (Eq.symm e))]
    exact ha g

/-- A `Sem` step of a running thread not at a collective keeps the simulation, the view doing
the related action. -/
theorem sim_base (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    {st : WState V} {u : CState V} (hS : Sim memb sync R B st u) {i : Nat} (hni : st.cw i = none)
    {A A2 : Act V} (hA : act (baseProg wp) i st.s = A)
    (hA2 : act (view memb sync N B wp) i u = A2)
    (hrel : ActRel (R i) (st.s.th i).regs (u.th i).regs A A2)
    (hB : ∀ b n w pc, A = Act.arrive b n w pc → b < B) :
    Sim memb sync R B ⟨next (baseProg wp) N i st.s, st.cw⟩
      (next (view memb sync N B wp) N i u) := by
  have hf : firesA N A st.s = firesA N A2 u :=
    firesA_rel N st.s u hrel (fun b n w pc e => by
      show countAt b st.s.th N + st.s.arr b = countAt b u.th N + u.arr b
      rw [countAt_congr b st.s.th u.th (fun k => wait_base sync R (hS.1 k) (hB b n w pc e)) N,
        hS.2.1 b (hB b n w pc e)])
  refine ⟨?_, ?_, ?_, ?_, ?_⟩
  · intro k
    show ThSim sync R B k ((next (baseProg wp) N i st.s).th k) ((next (view memb sync N B wp) N i u).th k)
      (st.cw k)
    cases Nat.decEq k i with
    | isTrue e =>
      rw [e, next_th_self, next_th_self, hA, hA2, ← hf, hni]
      have h0 := hS.1 i
      rw [hni] at h0
      exact ⟨newT_status_rel _ _ _ _ _ hrel, trel_newT _ _ _ _ hrel h0.2⟩
    | isFalse e =>
      rw [next_th_other _ _ _ _ e, next_th_other _ _ _ _ e, hA, hA2, ← hf]
      exact thSim_effOther sync R (hS.1 k) _ hrel hB
  · intro b hb
    show arrEff (act (baseProg wp) i st.s) _ st.s.arr b =
      arrEff (act (view memb sync N B wp) i u) _ u.arr b
    rw [hA, hA2, ← hf]
    exact arrEff_lt _ _ _ hrel hB hS.2.1 b hb
  · intro g
    show arrEff (act (view memb sync N B wp) i u) _ u.arr (B + g) = 0
    rw [hA2]
    have hB2 : ∀ b n w pc, A2 = Act.arrive b n w pc → b < B := by
      intro b n w pc e
      rw [e] at hrel
      cases A with
      | arrive b' n' w' pc' =>
        match hrel with
        | ⟨e1, _, _, _, _⟩ => rw [← e1]; exact hB _ _ _ _ rfl
      | compute _ _ => exact False.elim hrel
      | read _ _ _ => exact False.elim hrel
      | write _ _ _ => exact False.elim hrel
      | atomAdd _ _ _ => exact False.elim hrel
      | exit => exact False.elim hrel
    exact arrEff_sync _ _ hB2 hS.2.2.1 g
  · intro k c h
    cases Nat.decEq k i with
    | isTrue e =>
      have h' : (newT (act (baseProg wp) i st.s) _ (st.s.th i) st.s.mem).status = Status.bar c := by
        have h2 : ((next (baseProg wp) N i st.s).th i).status = Status.bar c := by
          rw [e] at h; exact h
        rw [next_th_self] at h2
        exact h2
      rw [hA] at h'
      match status_newT h' with
      | ⟨n, w, pc, eA⟩ => exact hB c n w pc eA
    | isFalse e =>
      have h' : (effOther (act (baseProg wp) i st.s) _ (st.s.th k)).status = Status.bar c := by
        have h2 : ((next (baseProg wp) N i st.s).th k).status = Status.bar c := h
        rw [next_th_other _ _ _ _ e] at h2
        exact h2
      exact hS.2.2.2.1 k c (status_effOther h')
  · exact hS.2.2.2.2

end BaseStep

/-! ## An arrival at a collective is a step of the view -/

section CollStep

variable {V : Type} [AccAdd V]

/-- The `WSem` state after `i` arrives at `g` (completing it iff `d`, vector `cv`). -/
def collSt (memb : Nat → Nat → Bool) (d : Bool) (g i pc : Nat) (v : Nat → V) (res : ExtFun V)
    (cv : Nat → Option (Nat → V)) (st : WState V) : WState V :=
  ⟨⟨collTh memb d g i pc res cv st.s.th st.cw, st.s.mem, st.s.arr⟩,
    collCw memb d g i ⟨g, v, res, pc⟩ st.cw⟩

theorem collSt_status (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (B : Nat) {st : WState V} {u : CState V}
    (hS : Sim memb sync R B st u) (d : Bool) (g i pc : Nat) (v : Nat → V) (res : ExtFun V)
    (cv : Nat → Option (Nat → V)) :
    ∀ k b, ((collSt memb d g i pc v res cv st).s.th k).status = Status.bar b → b < B := by
  intro k b h
  have h' : (collTh memb d g i pc res cv st.s.th st.cw k).status = Status.bar b := h
  rw [collTh_status] at h'
  exact hS.2.2.2.1 k b h'

theorem collSt_cw (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (B : Nat) {st : WState V} {u : CState V}
    (hS : Sim memb sync R B st u) (d : Bool) {g i : Nat} (hm : memb g i = true) (pc : Nat)
    (v : Nat → V) (res : ExtFun V) (cv : Nat → Option (Nat → V)) :
    ∀ k w, (collSt memb d g i pc v res cv st).cw k = some w → memb w.key k = true := by
  intro k w h
  have h' : collCw memb d g i ⟨g, v, res, pc⟩ st.cw k = some w := h
  cases Nat.decEq k i with
  | isTrue e =>
    rw [e, collCw_self] at h'
    rw [e]
    cases d with
    | true => cases h'
    | false =>
      have h2 : some (⟨g, v, res, pc⟩ : Wait V) = some w := h'
      cases h2
      exact hm
  | isFalse e =>
    rw [collCw_other _ _ _ _ _ _ e] at h'
    cases hb : relB memb d g k (st.cw k) with
    | true => rw [hb] at h'; cases h'
    | false =>
      rw [hb] at h'
      exact hS.2.2.2.2 k w h'

/-- Another lane, at a collective that is not `bar.warp.sync`: released in `WSem` (the view is
already past it) or untouched. -/
theorem thSim_rel_nosync (sync : Nat → Bool) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (memb : Nat → Nat → Bool) {B k g : Nat} (hsg : sync g = false) {t u : TState V}
    {o : Option (Wait V)} (hS : ThSim sync R B k t u o) (d : Bool) (cv : Nat → Option (Nat → V)) :
    ThSim sync R B k (relK memb d g cv k t o) u (cond (relB memb d g k o) none o) := by
  cases hb : relB memb d g k o with
  | false =>
    show ThSim sync R B k (cond (relB memb d g k o) (relW cv o t) t) u (cond false none o)
    rw [hb]
    exact hS
  | true =>
    show ThSim sync R B k (cond (relB memb d g k o) (relW cv o t) t) u (cond true none o)
    rw [hb]
    have hwo : waitsAt g o = true := and_right' hb
    match waitsAt_some hwo with
    | ⟨w, eo, ek⟩ =>
      cases eo
      have hS' : t.status = Status.run ∧
          u.status = cond (sync w.key) (Status.bar (B + w.key)) Status.run ∧ u.pc = w.pc ∧
          ∀ cv, R k w.pc (w.res.f cv) u.regs := hS
      rw [ek, hsg] at hS'
      exact ⟨Eq.trans hS'.1 (Eq.symm hS'.2.1), Eq.symm hS'.2.2.1, hS'.2.2.2 cv⟩

/-- Another lane, at a `bar.warp.sync`: released in both, or in neither. -/
theorem thSim_rel_sync (sync : Nat → Bool) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (memb : Nat → Nat → Bool) {B k g : Nat} (hsg : sync g = true) {t u : TState V}
    {o : Option (Wait V)} (hS : ThSim sync R B k t u o)
    (hst : ∀ b, t.status = Status.bar b → b < B)
    (hmo : ∀ w, o = some w → memb w.key k = true) (d : Bool) (cv : Nat → Option (Nat → V)) :
    ThSim sync R B k (relK memb d g cv k t o) (cond d (relAt (B + g) u) u)
      (cond (relB memb d g k o) none o) := by
  cases d with
  | false => exact hS
  | true =>
    have hw := wait_sync sync R hS hst hsg
    cases hwo : waitsAt g o with
    | false =>
      have hb : relB memb true g k o = false := by
        show (true && memb g k && waitsAt g o) = false
        rw [hwo]
        exact and_false' _
      show ThSim sync R B k (cond (relB memb true g k o) (relW cv o t) t) (relAt (B + g) u)
        (cond (relB memb true g k o) none o)
      rw [hb, relAt_not (Eq.trans hw hwo)]
      exact hS
    | true =>
      match waitsAt_some hwo with
      | ⟨w, eo, ek⟩ =>
        cases eo
        have hmk : memb g k = true := by rw [← ek]; exact hmo w rfl
        have hb : relB memb true g k (some w) = true := by
          show (true && memb g k && waitsAt g (some w)) = true
          rw [hwo, hmk]
          rfl
        show ThSim sync R B k (cond (relB memb true g k (some w)) (relW cv (some w) t) t)
          (relAt (B + g) u) (cond (relB memb true g k (some w)) none (some w))
        rw [hb, relAt_yes (Eq.trans hw hwo)]
        have hS' : t.status = Status.run ∧
            u.status = cond (sync w.key) (Status.bar (B + w.key)) Status.run ∧ u.pc = w.pc ∧
            ∀ cv, R k w.pc (w.res.f cv) u.regs := hS
        exact ⟨hS'.1, Eq.symm hS'.2.2.1, hS'.2.2.2 cv⟩

/-- An arrival at a collective that is not `bar.warp.sync`: the view does the register step. -/
theorem sim_coll_nosync (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    {st : WState V} {u : CState V} (hS : Sim memb sync R B st u) {i : Nat}
    (hri : (st.s.th i).status = Status.run) {g pc : Nat} (hm : memb g i = true)
    (hsg : sync g = false) (v : Nat → V) (res : ExtFun V) {P : Nat → V}
    (hA2 : act (view memb sync N B wp) i u = Act.compute pc P)
    (hR1 : ∀ cv, R i pc (res.f cv) P) (d : Bool) (cv : Nat → Option (Nat → V)) :
    Sim memb sync R B (collSt memb d g i pc v res cv st) (next (view memb sync N B wp) N i u) := by
  refine ⟨?_, ?_, ?_, collSt_status memb sync R B hS d g i pc v res cv,
    collSt_cw memb sync R B hS d hm pc v res cv⟩
  · intro k
    show ThSim sync R B k (collTh memb d g i pc res cv st.s.th st.cw k)
      ((next (view memb sync N B wp) N i u).th k) (collCw memb d g i ⟨g, v, res, pc⟩ st.cw k)
    cases Nat.decEq k i with
    | isTrue e =>
      rw [e, collTh_self, collCw_self, next_th_self, hA2]
      cases d with
      | false =>
        refine ⟨hri, ?_, rfl, hR1⟩
        show Status.run = cond (sync g) (Status.bar (B + g)) Status.run
        rw [hsg]
        rfl
      | true => exact ⟨hri, rfl, hR1 cv⟩
    | isFalse e =>
      rw [collTh_other _ _ _ _ _ _ _ _ _ e, collCw_other _ _ _ _ _ _ e, next_th_other _ _ _ _ e,
        hA2]
      exact thSim_rel_nosync sync R memb hsg (hS.1 k) d cv
  · intro b hb
    show st.s.arr b = arrEff (act (view memb sync N B wp) i u) _ u.arr b
    rw [hA2]
    exact hS.2.1 b hb
  · intro g'
    show arrEff (act (view memb sync N B wp) i u) _ u.arr (B + g') = 0
    rw [hA2]
    exact hS.2.2.1 g'

/-- An arrival at a `bar.warp.sync`: the view arrives at barrier `B + g`, which completes
exactly when the collective does. -/
theorem sim_coll_sync (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    {st : WState V} {u : CState V} (hS : Sim memb sync R B st u) {i : Nat}
    (hri : (st.s.th i).status = Status.run) {g pc : Nat} (hm : memb g i = true)
    (hsg : sync g = true) (v : Nat → V) (res : ExtFun V)
    (hA2 : act (view memb sync N B wp) i u = Act.arrive (B + g) (nLanes memb N g) true pc)
    (hR1 : ∀ cv, R i pc (res.f cv) (u.th i).regs) (d : Bool)
    (hf : firesA N (act (view memb sync N B wp) i u) u = d) (cv : Nat → Option (Nat → V)) :
    Sim memb sync R B (collSt memb d g i pc v res cv st) (next (view memb sync N B wp) N i u) := by
  refine ⟨?_, ?_, ?_, collSt_status memb sync R B hS d g i pc v res cv,
    collSt_cw memb sync R B hS d hm pc v res cv⟩
  · intro k
    show ThSim sync R B k (collTh memb d g i pc res cv st.s.th st.cw k)
      ((next (view memb sync N B wp) N i u).th k) (collCw memb d g i ⟨g, v, res, pc⟩ st.cw k)
    cases Nat.decEq k i with
    | isTrue e =>
      rw [e, collTh_self, collCw_self, next_th_self, hf, hA2]
      cases d with
      | false =>
        refine ⟨hri, ?_, rfl, hR1⟩
        show Status.bar (B + g) = cond (sync g) (Status.bar (B + g)) Status.run
        rw [hsg]
        rfl
      | true => exact ⟨hri, rfl, hR1 cv⟩
    | isFalse e =>
      rw [collTh_other _ _ _ _ _ _ _ _ _ e, collCw_other _ _ _ _ _ _ e, next_th_other _ _ _ _ e,
        hf, hA2]
      exact thSim_rel_sync sync R memb hsg (hS.1 k) (hS.2.2.2.1 k)
        (fun w ew => hS.2.2.2.2 k w ew) d cv
  · intro b hb
    show st.s.arr b = arrEff (act (view memb sync N B wp) i u) _ u.arr b
    rw [hf, hA2]
    show st.s.arr b = (if b = B + g then _ else u.arr b)
    rw [if_neg' (lt_ne_add hb g)]
    exact hS.2.1 b hb
  · intro g'
    show arrEff (act (view memb sync N B wp) i u) _ u.arr (B + g') = 0
    rw [hf, hA2]
    show (if B + g' = B + g then arrNew d true (u.arr (B + g)) else u.arr (B + g')) = 0
    cases Nat.decEq (B + g') (B + g) with
    | isTrue e =>
      rw [if_pos' e, hS.2.2.1 g]
      cases d <;> rfl
    | isFalse e =>
      rw [if_neg' e]
      exact hS.2.2.1 g'

end CollStep

/-! ## Every `WSem` schedule is simulated by a schedule of the view -/

section Reach

variable {V : Type} [AccAdd V]

/-- **One step**: a step of a running, non-waiting thread `i` of `WSem` is matched by the step
of `i` in the view. -/
theorem sim_step (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (hind : WDataIndep sync wp R) (hB : BaseIds wp B)
    {st : WState V} {u : CState V} (hS : Sim memb sync R B st u) {i : Nat} (hi : i < N)
    (hri : (st.s.th i).status = Status.run) (hni : st.cw i = none)
    (hown : OwnAt memb wp i st) :
    StepT (view memb sync N B wp) N i u (next (view memb sync N B wp) N i u) ∧
      Sim memb sync R B (wnext memb wp N i st) (next (view memb sync N B wp) N i u) := by
  have h0 := hS.1 i
  rw [hni] at h0
  have hrel : WActRel sync (R i) (st.s.th i).regs (u.th i).regs (wact wp i st)
      (wp i (st.s.th i).pc (u.th i).regs) :=
    hind i (st.s.th i).pc (st.s.th i).regs (u.th i).regs h0.2.2
  have hact : act (view memb sync N B wp) i u =
      viewAct memb sync N B (u.th i).regs (wp i (st.s.th i).pc (u.th i).regs) := by
    show viewAct memb sync N B (u.th i).regs (wp i (u.th i).pc (u.th i).regs) = _
    rw [← h0.2.1]
  refine ⟨⟨hi, Eq.trans (Eq.symm h0.1) hri, same_refl _⟩, ?_⟩
  cases hw : wact wp i st with
  | base A =>
    cases hw2 : wp i (st.s.th i).pc (u.th i).regs with
    | coll g2 v2 res2 pc2 => rw [hw, hw2] at hrel; exact False.elim hrel
    | base A2 =>
      rw [hw, hw2] at hrel
      rw [wnext_base memb wp N i st hw]
      exact sim_base memb sync R N B wp hS hni (act_baseProg wp i st hw)
        (by rw [hact, hw2]; rfl) hrel
        (fun b n w pc e => hB i (st.s.th i).pc (st.s.th i).regs b n w pc (by rw [← e]; exact hw))
  | coll g v res pc =>
    cases hw2 : wp i (st.s.th i).pc (u.th i).regs with
    | base A2 => rw [hw, hw2] at hrel; exact False.elim hrel
    | coll g2 v2 res2 pc2 =>
      rw [hw, hw2] at hrel
      match hrel with
      | ⟨e1, e2, hr1, _⟩ =>
        rw [wnext_coll memb wp N i st hw]
        show Sim memb sync R B
          (collSt memb (doneW memb N g i st.cw) g i pc v res (cvec memb g i v st.cw) st) _
        have hm : memb g i = true := hown g v res pc hw
        have hact' : act (view memb sync N B wp) i u =
            viewAct memb sync N B (u.th i).regs (WAct.coll g v2 res2 pc) := by
          rw [hact, hw2, ← e1, ← e2]
        cases hsg : sync g with
        | false =>
          exact sim_coll_nosync memb sync R N B wp hS hri hm hsg v res
            (P := postRegs sync g (u.th i).regs res2)
            (by rw [hact']; show cond (sync g) _ _ = _; rw [hsg]; rfl) hr1 _ _
        | true =>
          have hA2 : act (view memb sync N B wp) i u =
              Act.arrive (B + g) (nLanes memb N g) true pc := by
            rw [hact']; show cond (sync g) _ _ = _; rw [hsg]; rfl
          have ep : postRegs sync g (u.th i).regs res2 = (u.th i).regs := by
            show cond (sync g) _ _ = _; rw [hsg]; rfl
          have hR1 : ∀ cv, R i pc (res.f cv) (u.th i).regs := by
            intro cv
            have h1 := hr1 cv
            rw [ep] at h1
            exact h1
          have hq : ∀ k, waitsAt g (st.cw k) = true → memb g k = true := by
            intro k hk
            match waitsAt_some hk with
            | ⟨w, ew, ek⟩ => rw [← ek]; exact hS.2.2.2.2 k w ew
          have hqi : waitsAt g (st.cw i) = false := by rw [hni]; rfl
          have hf : firesA N (act (view memb sync N B wp) i u) u = doneW memb N g i st.cw := by
            rw [hA2]
            show decide (nLanes memb N g ≤ countAt (B + g) u.th N + u.arr (B + g) + 1) = _
            rw [hS.2.2.1 g, countAt_cntB (B + g) u.th (fun k => waitsAt g (st.cw k))
              (fun k => wait_sync sync R (hS.1 k) (hS.2.2.2.1 k) hsg) N]
            exact Eq.symm (allW_done (memb g) (fun k => waitsAt g (st.cw k)) hq hm hqi hi)
          exact sim_coll_sync memb sync R N B wp hS hri hm hsg v res hA2 hR1 _ hf _

theorem sim_wsame (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (B : Nat) {a b : WState V} {u : CState V}
    (hS : Sim memb sync R B a u) (e : WSame b a) : Sim memb sync R B b u := by
  refine ⟨?_, ?_, hS.2.2.1, ?_, ?_⟩
  · intro k
    rw [e.1.1 k, e.2 k]
    exact hS.1 k
  · intro c hc
    rw [e.1.2.2 c]
    exact hS.2.1 c hc
  · intro k c h
    rw [e.1.1 k] at h
    exact hS.2.2.2.1 k c h
  · intro k w h
    rw [e.2 k] at h
    exact hS.2.2.2.2 k w h

/-- Ownership along the simulation: in every pair `Sim st u` with `u` reachable from `u0` in the
view, a running, non-waiting thread `i < N` about to arrive at a collective is a lane of its
instance. -/
def OwnSim (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V) (u0 : CState V) :
    Prop :=
  ∀ st u i, Reach (view memb sync N B wp) N u0 u → Sim memb sync R B st u → i < N →
    (st.s.th i).status = Status.run → st.cw i = none → OwnAt memb wp i st

theorem ownSim_of_N (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V) (u0 : CState V)
    (h : CollOwnN memb wp N) : OwnSim memb sync R N B wp u0 :=
  fun _ _ i _ _ hi _ _ g v res pc e => h i hi _ _ g v res pc e

/-- **Every reachable state of `WSem` is simulated by a reachable state of the view.** -/
theorem sim_reach (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (hind : WDataIndep sync wp R) (hB : BaseIds wp B) {u0 : CState V}
    (hown : OwnSim memb sync R N B wp u0)
    {s r : WState V} (hr : WReach memb wp N s r) :
    ∀ u, Reach (view memb sync N B wp) N u0 u → Sim memb sync R B s u →
      ∃ u', Reach (view memb sync N B wp) N u0 u' ∧ Sim memb sync R B r u' := by
  induction hr with
  | refl s => intro u hu hS; exact ⟨u, hu, hS⟩
  | step hst _ ih =>
    intro u hu hS
    match hst with
    | ⟨i, hi, hri, hni, e⟩ =>
      match sim_step memb sync R N B wp hind hB hS hi hri hni (hown _ u i hu hS hi hri hni) with
      | ⟨hstep, hS'⟩ =>
        exact ih _ (reach_snoc _ N hu ⟨i, hstep⟩) (sim_wsame memb sync R B hS' e)

/-- The launches correspond. -/
theorem sim_init (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (B : Nat) (regs0 : Nat → Nat → V)
    (m1 : Nat → V) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) :
    Sim memb sync R B (winit regs0 m1) (init regs0 m1) := by
  refine ⟨fun k => ⟨rfl, rfl, hR0 k⟩, fun _ _ => rfl, fun _ => rfl, ?_, ?_⟩
  · intro k b h
    cases h
  · intro k w h
    cases h

/-- **The race check with warp collectives reduces to `Sem`.**  Under data independence with
collectives (`WDataIndep`), program barrier ids below `B` (`BaseIds`) and lanes arriving only
at instances they belong to (`CollOwn`), if the view (`bar.warp.sync` instance `g` a waiting
barrier `B + g` of its lanes, every other collective a register step) has no race in any
schedule from the launch, then `WSem` has none either. -/
theorem wraceFree_of_view (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hown : OwnSim memb sync R N B wp (init regs0 m1))
    (hrf : RaceFree (view memb sync N B wp) N (init regs0 m1)) :
    WRaceFree memb wp N (winit regs0 m1) := by
  intro r hr i j hij hi hj hri hrj hni hnj hc
  match sim_reach memb sync R N B wp hind hB hown hr _ (Reach.refl _) (sim_init memb sync R B regs0 m1 hR0) with
  | ⟨u, hu, hS⟩ =>
    have hi0 := hS.1 i
    have hj0 := hS.1 j
    rw [hni] at hi0
    rw [hnj] at hj0
    have hreli : WActRel sync (R i) (r.s.th i).regs (u.th i).regs (wact wp i r)
        (wp i (r.s.th i).pc (u.th i).regs) :=
      hind i (r.s.th i).pc (r.s.th i).regs (u.th i).regs hi0.2.2
    have hrelj : WActRel sync (R j) (r.s.th j).regs (u.th j).regs (wact wp j r)
        (wp j (r.s.th j).pc (u.th j).regs) :=
      hind j (r.s.th j).pc (r.s.th j).regs (u.th j).regs hj0.2.2
    have hacti : act (view memb sync N B wp) i u =
        viewAct memb sync N B (u.th i).regs (wp i (r.s.th i).pc (u.th i).regs) := by
      show viewAct memb sync N B (u.th i).regs (wp i (u.th i).pc (u.th i).regs) = _
      rw [← hi0.2.1]
    have hactj : act (view memb sync N B wp) j u =
        viewAct memb sync N B (u.th j).regs (wp j (r.s.th j).pc (u.th j).regs) := by
      show viewAct memb sync N B (u.th j).regs (wp j (u.th j).pc (u.th j).regs) = _
      rw [← hj0.2.1]
    have hnot := hrf u hu i j hij hi hj (Eq.trans (Eq.symm hi0.1) hri) (Eq.trans (Eq.symm hj0.1) hrj)
    rw [hacti, hactj] at hnot
    cases hwi : wact wp i r with
    | coll g v res pc => rw [hwi] at hc; cases wact wp j r <;> exact hc
    | base A =>
      cases hwj : wact wp j r with
      | coll g v res pc => rw [hwi, hwj] at hc; exact hc
      | base A' =>
        rw [hwi, hwj] at hc
        rw [hwi] at hreli
        rw [hwj] at hrelj
        cases hw2 : wp i (r.s.th i).pc (u.th i).regs with
        | coll g2 v2 res2 pc2 => rw [hw2] at hreli; exact hreli
        | base A2 =>
          cases hw3 : wp j (r.s.th j).pc (u.th j).regs with
          | coll g2 v2 res2 pc2 => rw [hw3] at hrelj; exact hrelj
          | base A3 =>
            rw [hw2] at hreli
            rw [hw3] at hrelj
            rw [hw2, hw3] at hnot
            exact hnot (conflict_rel hreli hrelj hc)

/-- The view is data independent (`Sem.DataIndep`) when the program is (`WDataIndep`). -/
theorem dataIndep_view (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (hind : WDataIndep sync wp R) : DataIndep (view memb sync N B wp) R := by
  intro i pc regs regs' h
  have hr := hind i pc regs regs' h
  show ActRel (R i) regs regs' (viewAct memb sync N B regs (wp i pc regs))
    (viewAct memb sync N B regs' (wp i pc regs'))
  cases hw : wp i pc regs with
  | base A =>
    cases hw2 : wp i pc regs' with
    | coll g2 v2 res2 pc2 => rw [hw, hw2] at hr; exact False.elim hr
    | base A2 => rw [hw, hw2] at hr; exact hr
  | coll g v res pc1 =>
    cases hw2 : wp i pc regs' with
    | base A2 => rw [hw, hw2] at hr; exact False.elim hr
    | coll g2 v2 res2 pc2 =>
      rw [hw, hw2] at hr
      match hr with
      | ⟨e1, e2, _, hp⟩ =>
        rw [← e1, ← e2]
        show ActRel (R i) regs regs'
          (cond (sync g) (Act.arrive (B + g) (nLanes memb N g) true pc1)
            (Act.compute pc1 (postRegs sync g regs res)))
          (cond (sync g) (Act.arrive (B + g) (nLanes memb N g) true pc1)
            (Act.compute pc1 (postRegs sync g regs' res2)))
        have hp' : R i pc1 (cond (sync g) regs (res.f (fun _ => none)))
            (cond (sync g) regs' (res2.f (fun _ => none))) := hp
        cases hsg : sync g with
        | false =>
          exact ⟨rfl, hp⟩
        | true =>
          rw [hsg] at hp'
          exact ⟨rfl, rfl, rfl, rfl, hp'⟩

/-- **Barrier discipline with collectives from the view's.**  Under the hypotheses of
`wraceFree_of_view`, if the view's barriers fit (`Sem.BarriersFit`), so do `WSem`'s
(`WBarriersFit`): the program's barriers have the same arrivals in both. -/
theorem wbarriersFit_of_view (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hown : OwnSim memb sync R N B wp (init regs0 m1))
    (hfit : BarriersFit (view memb sync N B wp) N (init regs0 m1)) :
    WBarriersFit memb wp N (winit regs0 m1) := by
  intro r hr i j hij hi hj hri hrj hni hnj
  match sim_reach memb sync R N B wp hind hB hown hr _ (Reach.refl _) (sim_init memb sync R B regs0 m1 hR0) with
  | ⟨u, hu, hS⟩ =>
    have hi0 := hS.1 i
    have hj0 := hS.1 j
    rw [hni] at hi0
    rw [hnj] at hj0
    have hreli : WActRel sync (R i) (r.s.th i).regs (u.th i).regs (wact wp i r)
        (wp i (r.s.th i).pc (u.th i).regs) :=
      hind i (r.s.th i).pc (r.s.th i).regs (u.th i).regs hi0.2.2
    have hrelj : WActRel sync (R j) (r.s.th j).regs (u.th j).regs (wact wp j r)
        (wp j (r.s.th j).pc (u.th j).regs) :=
      hind j (r.s.th j).pc (r.s.th j).regs (u.th j).regs hj0.2.2
    have hacti : act (view memb sync N B wp) i u =
        viewAct memb sync N B (u.th i).regs (wp i (r.s.th i).pc (u.th i).regs) := by
      show viewAct memb sync N B (u.th i).regs (wp i (u.th i).pc (u.th i).regs) = _
      rw [← hi0.2.1]
    have hactj : act (view memb sync N B wp) j u =
        viewAct memb sync N B (u.th j).regs (wp j (r.s.th j).pc (u.th j).regs) := by
      show viewAct memb sync N B (u.th j).regs (wp j (u.th j).pc (u.th j).regs) = _
      rw [← hj0.2.1]
    have hf := hfit u hu i j hij hi hj (Eq.trans (Eq.symm hi0.1) hri) (Eq.trans (Eq.symm hj0.1) hrj)
    rw [hacti, hactj] at hf
    cases hwi : wact wp i r with
    | coll g v res pc => exact trivial
    | base A =>
      cases hwj : wact wp j r with
      | coll g v res pc => cases A <;> exact trivial
      | base A' =>
        show BarFits N r.s A A'
        rw [hwi] at hreli
        rw [hwj] at hrelj
        cases A with
        | compute _ _ => exact trivial
        | read _ _ _ => exact trivial
        | write _ _ _ => exact trivial
        | atomAdd _ _ _ => exact trivial
        | exit => exact trivial
        | arrive b n w pc =>
          cases A' with
          | compute _ _ => exact trivial
          | read _ _ _ => exact trivial
          | write _ _ _ => exact trivial
          | atomAdd _ _ _ => exact trivial
          | exit => exact trivial
          | arrive c m w' pc' =>
            cases hw2 : wp i (r.s.th i).pc (u.th i).regs with
            | coll g2 v2 res2 pc2 => rw [hw2] at hreli; exact False.elim hreli
            | base A2 =>
              cases hw3 : wp j (r.s.th j).pc (u.th j).regs with
              | coll g2 v2 res2 pc2 => rw [hw3] at hrelj; exact False.elim hrelj
              | base A3 =>
                rw [hw2] at hreli
                rw [hw3] at hrelj
                rw [hw2, hw3] at hf
                have e2 := actRel_arrive hreli
                have e3 := actRel_arrive hrelj
                rw [e2, e3] at hf
                have hb : b < B := hB i (r.s.th i).pc (r.s.th i).regs b n w pc hwi
                intro ebc
                match hf ebc with
                | ⟨enm, hle⟩ =>
                  refine ⟨enm, ?_⟩
                  have ea : arrivals N b r.s = arrivals N b u := by
                    show countAt b r.s.th N + r.s.arr b = countAt b u.th N + u.arr b
                    rw [countAt_congr b r.s.th u.th (fun k => wait_base sync R (hS.1 k) hb) N,
                      hS.2.1 b hb]
                  rw [ea]
                  exact hle

/-- `CollOwnR` from ownership along the simulation. -/
theorem collOwnR_of_ownSim (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hown : OwnSim memb sync R N B wp (init regs0 m1)) : CollOwnR memb wp N (winit regs0 m1) := by
  intro r hr i hi hri hni
  match sim_reach memb sync R N B wp hind hB hown hr _ (Reach.refl _)
      (sim_init memb sync R B regs0 m1 hR0) with
  | ⟨u, hu, hS⟩ => exact hown r u i hu hS hi hri hni

/-- **Confluence and no deadlock with warp collectives from the view.**  Under data
independence with collectives, program barrier ids below `B` and lanes arriving only at
their own instances, if the view is race free and its barriers fit, then `WSem` from the
launch is race free, its barriers fit, every lane arrives only at its own instances, any two
complete executions end in the same state, and if one finishes no execution gets stuck. -/
theorem wsound_of_view (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hown : OwnSim memb sync R N B wp (init regs0 m1))
    (hrf : RaceFree (view memb sync N B wp) N (init regs0 m1))
    (hfit : BarriersFit (view memb sync N B wp) N (init regs0 m1)) :
    WRaceFree memb wp N (winit regs0 m1) ∧ WBarriersFit memb wp N (winit regs0 m1) ∧
    CollOwnR memb wp N (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WReach memb wp N (winit regs0 m1) t2 →
      WFinal N t1 → WFinal N t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WFinal N t1 →
      WReach memb wp N (winit regs0 m1) t2 → (∀ v, WStep memb wp N t2 v → False) →
      WFinal N t2) :=
  have h1 := wraceFree_of_view memb sync R N B wp regs0 m1 hind hR0 hB hown hrf
  have h2 := wbarriersFit_of_view memb sync R N B wp regs0 m1 hind hR0 hB hown hfit
  have h3 := collOwnR_of_ownSim memb sync R N B wp regs0 m1 hind hR0 hB hown
  ⟨h1, h2, h3, fun _ _ r1 r2 f1 f2 => wconfluence memb wp N h1 h2 h3 r1 r2 f1 f2,
    fun _ _ r1 f1 r2 hs => wno_stuck memb wp N h1 h2 h3 r1 f1 r2 hs⟩

end Reach

end WarpRace
end Kcert
