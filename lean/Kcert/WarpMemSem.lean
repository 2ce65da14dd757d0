import Kcert.WarpMem

/-!
# A semantics with warp collectives that access memory (`MSem`)

On top of `Sem` (as `Warp.lean`), with the executor's deferred completion (`resolve_warps`:
an instance completes once every lane is at it): a thread's next action (`MAct`) is a `Sem`
action (`base`) or its arrival at a collective (`coll c`), which carries the accesses
attributed to the lane (`c.rs`, `c.ws`: the rows / elements loaded or stored on its behalf,
from its own registers) and its new state as a function of the lanes' register contributions
(`cvOf`, as `Warp.lean`'s vector of contributions, with extensionality `c.relExt`) and the
instance's loaded values (`c.rel`).  A lane at a collective does not take `Sem` steps.  Two kinds of steps (`MLbl`):
`thr i` (thread `i` does its `Sem` action) and `inst g` (instance `g` completes once every
member below `N` is running and at `g`: `mfire`, that is `WarpMem.mcomp` with the lanes, the
concatenated reads and writes of the lanes, and their `rel`).

* `mdiamond`: under `MRaceFree` (no two enabled threads' `Sem` actions conflict, no enabled
  thread's action `MConflict`s with an enabled instance, two enabled instances do not store
  where the other loads or stores) and barrier fit, the local diamond holds.
* `mconfluence`: any two final states reachable from `s0` are `Same`; `mno_stuck`.
-/

namespace Kcert
namespace WarpMem

open Sem

/-- A lane's pending arrival at a collective instance: the key, the accesses attributed to the
lane, its new state from the instance's loaded values. -/
structure MColl (V : Type) where
  key : Nat
  rs : List RdAcc
  ws : List (WrAcc V)
  rel : (Nat → Option (Nat → V)) → List V → TState V → TState V
  relExt : ∀ c c' : Nat → Option (Nat → V), (∀ k, c k = c' k) → rel c = rel c'

inductive MAct (V : Type) where
  | base (A : Act V)
  | coll (c : MColl V)

def MProg (V : Type) : Type := Nat → Nat → (Nat → V) → MAct V

inductive MLbl where
  | thr (i : Nat)
  | inst (g : Nat)

section Defs

variable {V : Type} [AccAdd V]

def mact (mp : MProg V) (i : Nat) (s : CState V) : MAct V := mp i (s.th i).pc (s.th i).regs

def mbaseOf (pc : Nat) (regs : Nat → V) : MAct V → Act V
  | MAct.base A => A
  | MAct.coll _ => Act.compute pc regs

/-- The `Sem` part of the program. -/
def mbase (mp : MProg V) : Prog V := fun i pc regs => mbaseOf pc regs (mp i pc regs)

def isBase : MAct V → Bool
  | MAct.base _ => true
  | MAct.coll _ => false

def atKey (g : Nat) : MAct V → Bool
  | MAct.coll c => decide (c.key = g)
  | MAct.base _ => false

def collRs : MAct V → List RdAcc
  | MAct.coll c => c.rs
  | MAct.base _ => []

def collWs : MAct V → List (WrAcc V)
  | MAct.coll c => c.ws
  | MAct.base _ => []

def collRel : MAct V → (Nat → Option (Nat → V)) → List V → TState V → TState V
  | MAct.coll c => c.rel
  | MAct.base _ => fun _ _ t => t

/-- Append (own, so that its unfolding is by `rfl`). -/
def rdApp : List RdAcc → List RdAcc → List RdAcc
  | [], m => m
  | r :: l, m => r :: rdApp l m

def wrApp : List (WrAcc V) → List (WrAcc V) → List (WrAcc V)
  | [], m => m
  | w :: l, m => w :: wrApp l m

variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

/-- Thread `k` is a lane of instance `g` at its arrival. -/
def laneOf (g : Nat) (s : CState V) (k : Nat) : Bool :=
  decide (k < N) && memb g k && atKey g (mact mp k s)

/-- The lanes' register contributions (their registers at the completion, which are those of
their arrival: a lane at a collective does not step). -/
def cvOf (g : Nat) (s : CState V) : Nat → Option (Nat → V) :=
  fun k => cond (laneOf memb mp N g s k) (some (s.th k).regs) none

def rsOf (g : Nat) (s : CState V) : Nat → List RdAcc
  | 0 => []
  | n + 1 => rdApp (rsOf g s n) (cond (laneOf memb mp N g s n) (collRs (mact mp n s)) [])

def wsOf (g : Nat) (s : CState V) : Nat → List (WrAcc V)
  | 0 => []
  | n + 1 => wrApp (wsOf g s n) (cond (laneOf memb mp N g s n) (collWs (mact mp n s)) [])

/-- The completion of instance `g`. -/
def mfire (g : Nat) (s : CState V) : CState V :=
  mcomp (laneOf memb mp N g s) (rsOf memb mp N g s N) (wsOf memb mp N g s N)
    (fun k => collRel (mact mp k s) (cvOf memb mp N g s)) s

def lnext (s : CState V) : MLbl → CState V
  | MLbl.thr i => next (mbase mp) N i s
  | MLbl.inst g => mfire memb mp N g s

/-- Instance `g` can complete: it has a member below `N`, and every member below `N` is running
and at `g`. -/
def InstReady (g : Nat) (s : CState V) : Prop :=
  (∃ k, k < N ∧ memb g k = true) ∧
    ∀ k, k < N → memb g k = true → (s.th k).status = Status.run ∧ atKey g (mact mp k s) = true

def Enabled (s : CState V) : MLbl → Prop
  | MLbl.thr i => i < N ∧ (s.th i).status = Status.run ∧ isBase (mact mp i s) = true
  | MLbl.inst g => InstReady memb mp N g s

def MStepL (l : MLbl) (a b : CState V) : Prop := Enabled memb mp N a l ∧ Same b (lnext memb mp N a l)

def MStep (a b : CState V) : Prop := ∃ l, MStepL memb mp N l a b

inductive MReach : CState V → CState V → Prop where
  | refl (s : CState V) : MReach s s
  | step {s t u : CState V} : MStep memb mp N s t → MReach t u → MReach s u

/-- No address stored by one instance is loaded or stored by the other. -/
def InstNC (rs1 : List RdAcc) (ws1 : List (WrAcc V)) (rs2 : List RdAcc) (ws2 : List (WrAcc V)) :
    Prop :=
  (∀ a, inA a (wrAddrs ws1) = true → inA a (wrAddrs ws2) = false) ∧
  (∀ a, inA a (wrAddrs ws1) = true → inA a (rdAddrs rs2) = false) ∧
  (∀ a, inA a (wrAddrs ws2) = true → inA a (rdAddrs rs1) = false)

/-- Race freedom with memory collectives, at every reachable state. -/
def MRaceFree (s0 : CState V) : Prop :=
  ∀ r, MReach memb mp N s0 r →
    (∀ i j, i ≠ j → Enabled memb mp N r (MLbl.thr i) → Enabled memb mp N r (MLbl.thr j) →
      ¬Conflict (act (mbase mp) i r) (act (mbase mp) j r) ∧
        BarFits N r (act (mbase mp) i r) (act (mbase mp) j r)) ∧
    (∀ j g, Enabled memb mp N r (MLbl.thr j) → InstReady memb mp N g r →
      ¬MConflict (rsOf memb mp N g r N) (wsOf memb mp N g r N) (act (mbase mp) j r)) ∧
    (∀ g h, g ≠ h → InstReady memb mp N g r → InstReady memb mp N h r →
      InstNC (rsOf memb mp N g r N) (wsOf memb mp N g r N) (rsOf memb mp N h r N)
        (wsOf memb mp N h r N))

end Defs

section Congr

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

theorem mact_eq (i : Nat) {s t : CState V} (h : s.th i = t.th i) : mact mp i s = mact mp i t := by
  show mp i (s.th i).pc (s.th i).regs = mp i (t.th i).pc (t.th i).regs
  rw [h]

theorem laneOf_eq (g : Nat) {s t : CState V} (k : Nat) (h : s.th k = t.th k) :
    laneOf memb mp N g s k = laneOf memb mp N g t k := by
  show (decide (k < N) && memb g k && atKey g (mact mp k s)) =
    (decide (k < N) && memb g k && atKey g (mact mp k t))
  rw [mact_eq mp k h]

/-- The accesses of instance `g` depend only on its lanes' actions. -/
theorem rsOf_eq (g : Nat) {s t : CState V}
    (hl : ∀ k, laneOf memb mp N g s k = laneOf memb mp N g t k)
    (ha : ∀ k, laneOf memb mp N g s k = true → mact mp k s = mact mp k t) :
    ∀ n, rsOf memb mp N g s n = rsOf memb mp N g t n := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show rdApp (rsOf memb mp N g s n) (cond (laneOf memb mp N g s n) (collRs (mact mp n s)) []) =
      rdApp (rsOf memb mp N g t n) (cond (laneOf memb mp N g t n) (collRs (mact mp n t)) [])
    rw [ih, ← hl n]
    cases e : laneOf memb mp N g s n with
    | true => rw [ha n e]
    | false => rfl

theorem wsOf_eq (g : Nat) {s t : CState V}
    (hl : ∀ k, laneOf memb mp N g s k = laneOf memb mp N g t k)
    (ha : ∀ k, laneOf memb mp N g s k = true → mact mp k s = mact mp k t) :
    ∀ n, wsOf memb mp N g s n = wsOf memb mp N g t n := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show wrApp (wsOf memb mp N g s n) (cond (laneOf memb mp N g s n) (collWs (mact mp n s)) []) =
      wrApp (wsOf memb mp N g t n) (cond (laneOf memb mp N g t n) (collWs (mact mp n t)) [])
    rw [ih, ← hl n]
    cases e : laneOf memb mp N g s n with
    | true => rw [ha n e]
    | false => rfl

theorem laneOf_memb {g : Nat} {s : CState V} {k : Nat} (h : laneOf memb mp N g s k = true) :
    memb g k = true :=
  and_right' (and_left' h)

theorem laneOf_lt {g : Nat} {s : CState V} {k : Nat} (h : laneOf memb mp N g s k = true) :
    k < N :=
  of_decide_eq_true' (and_left' (and_left' h))

theorem laneOf_at {g : Nat} {s : CState V} {k : Nat} (h : laneOf memb mp N g s k = true) :
    atKey g (mact mp k s) = true :=
  and_right' h

/-- If the members of `g` below `N` have the same states, `g` has the same lanes. -/
theorem lanes_same (g : Nat) {s t : CState V}
    (h : ∀ k, k < N → memb g k = true → s.th k = t.th k) (k : Nat) :
    laneOf memb mp N g s k = laneOf memb mp N g t k := by
  show (decide (k < N) && memb g k && atKey g (mact mp k s)) =
    (decide (k < N) && memb g k && atKey g (mact mp k t))
  cases hk : decide (k < N) with
  | false => rfl
  | true =>
    cases hm : memb g k with
    | false => rfl
    | true => rw [mact_eq mp k (h k (of_decide_eq_true' hk) hm)]

/-- `mcomp` with pointwise equal lanes, and equal results on the lanes, on `Same` states. -/
theorem mcomp_ext {L L' : Nat → Bool} (rs : List RdAcc) (ws : List (WrAcc V))
    {rel rel' : Nat → List V → TState V → TState V} (hL : ∀ k, L k = L' k)
    (hr : ∀ k, L k = true → rel k = rel' k) {s t : CState V} (h : Same s t) :
    Same (mcomp L rs ws rel s) (mcomp L' rs ws rel' t) := by
  refine ⟨fun k => ?_, fun x => stores_congr ws h.2.1 x, fun b => h.2.2 b⟩
  show cond (L k) (rel k (loads s.mem rs) (s.th k)) (s.th k) =
    cond (L' k) (rel' k (loads t.mem rs) (t.th k)) (t.th k)
  rw [← hL k, loads_congr rs h.2.1, h.1 k]
  cases e : L k with
  | true => rw [hr k e]
  | false => rfl

theorem collRel_ext (a : MAct V) (c c' : Nat → Option (Nat → V)) (h : ∀ k, c k = c' k) :
    collRel a c = collRel a c' := by
  cases a with
  | base A => rfl
  | coll m => exact m.relExt c c' h

theorem cvOf_eq (g : Nat) {s t : CState V}
    (h : ∀ k, k < N → memb g k = true → s.th k = t.th k) (k : Nat) :
    cvOf memb mp N g s k = cvOf memb mp N g t k := by
  show cond (laneOf memb mp N g s k) (some (s.th k).regs) none =
    cond (laneOf memb mp N g t k) (some (t.th k).regs) none
  rw [← lanes_same memb mp N g h k]
  cases e : laneOf memb mp N g s k with
  | false => rfl
  | true => rw [h k (laneOf_lt memb mp N e) (laneOf_memb memb mp N e)]

/-- `mfire g` on two states whose members of `g` below `N` agree is `mcomp` with the same
lanes, accesses and results. -/
theorem mfire_as (g : Nat) {s t u : CState V}
    (h : ∀ k, k < N → memb g k = true → s.th k = t.th k) (hu : Same t u) :
    Same (mfire memb mp N g t) (mcomp (laneOf memb mp N g s) (rsOf memb mp N g s N)
      (wsOf memb mp N g s N) (fun k => collRel (mact mp k s) (cvOf memb mp N g s)) u) := by
  have hl := lanes_same memb mp N g h
  have ha : ∀ k, laneOf memb mp N g s k = true → mact mp k s = mact mp k t := fun k e =>
    mact_eq mp k (h k (laneOf_lt memb mp N e) (laneOf_memb memb mp N e))
  show Same (mcomp (laneOf memb mp N g t) (rsOf memb mp N g t N) (wsOf memb mp N g t N)
    (fun k => collRel (mact mp k t) (cvOf memb mp N g t)) t) _
  rw [← rsOf_eq memb mp N g hl ha N, ← wsOf_eq memb mp N g hl ha N]
  exact mcomp_ext _ _ (fun k => Eq.symm (hl k))
    (fun k e => by
      show collRel (mact mp k t) (cvOf memb mp N g t) = collRel (mact mp k s) (cvOf memb mp N g s)
      rw [ha k (Eq.trans (hl k) e)]
      exact collRel_ext (mact mp k t) (cvOf memb mp N g t) (cvOf memb mp N g s)
        (fun k' => Eq.symm (cvOf_eq memb mp N g h k'))) hu

theorem mfire_congr (g : Nat) {s t : CState V} (h : Same s t) :
    Same (mfire memb mp N g s) (mfire memb mp N g t) :=
  same_symm (mfire_as memb mp N g (fun k _ _ => h.1 k) (same_symm h))

theorem lnext_congr (l : MLbl) {s t : CState V} (h : Same s t) :
    Same (lnext memb mp N s l) (lnext memb mp N t l) := by
  cases l with
  | thr i => exact next_congr (mbase mp) N i h
  | inst g => exact mfire_congr memb mp N g h

theorem enabled_congr (l : MLbl) {s t : CState V} (h : Same s t) (he : Enabled memb mp N s l) :
    Enabled memb mp N t l := by
  cases l with
  | thr i =>
    have he' : i < N ∧ (s.th i).status = Status.run ∧ isBase (mact mp i s) = true := he
    show i < N ∧ (t.th i).status = Status.run ∧ isBase (mact mp i t) = true
    rw [← h.1 i, ← mact_eq mp i (h.1 i)]
    exact he'
  | inst g =>
    have he' : InstReady memb mp N g s := he
    refine ⟨he'.1, fun k hk hm => ?_⟩
    rw [← h.1 k, ← mact_eq mp k (h.1 k)]
    exact he'.2 k hk hm

theorem mstepL_left (l : MLbl) {s t u : CState V} (h : Same s t)
    (hs : MStepL memb mp N l s u) : MStepL memb mp N l t u :=
  ⟨enabled_congr memb mp N l h hs.1, same_trans hs.2 (lnext_congr memb mp N l h)⟩

end Congr

section Commute

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

/-- Every collective's result keeps the lane's status (the lane goes on running). -/
def RelOK (mp : MProg V) : Prop :=
  ∀ i pc regs (c : MColl V), mp i pc regs = MAct.coll c → ∀ cv l t, (c.rel cv l t).status = t.status

theorem collRel_status (hok : RelOK mp) (k : Nat) (s : CState V) (cv : Nat → Option (Nat → V)) :
    ∀ l t, (collRel (mact mp k s) cv l t).status = t.status := by
  intro l t
  cases e : mact mp k s with
  | base A => rfl
  | coll c => exact hok k _ _ c e cv l t

theorem base_not_at (g : Nat) {a : MAct V} (h : isBase a = true) : atKey g a = false := by
  cases a with
  | base A => rfl
  | coll c => cases h

theorem at_not_at {g h : Nat} {a : MAct V} (e : atKey g a = true) (hgh : g ≠ h) :
    atKey h a = false := by
  cases a with
  | base A => rfl
  | coll c =>
    have e1 : c.key = g := of_decide_eq_true' e
    show decide (c.key = h) = false
    exact decide_eq_false' (fun e2 => hgh (Eq.trans (Eq.symm e1) e2))

theorem laneOf_base {g : Nat} {s : CState V} {j : Nat} (h : isBase (mact mp j s) = true) :
    laneOf memb mp N g s j = false := by
  show (decide (j < N) && memb g j && atKey g (mact mp j s)) = false
  rw [base_not_at g h]
  cases (decide (j < N) && memb g j) <;> rfl

theorem laneOf_other {g h : Nat} {s : CState V} {k : Nat} (e : atKey h (mact mp k s) = true)
    (hgh : g ≠ h) : laneOf memb mp N g s k = false := by
  show (decide (k < N) && memb g k && atKey g (mact mp k s)) = false
  rw [at_not_at e (fun x => hgh (Eq.symm x))]
  cases (decide (k < N) && memb g k) <;> rfl

theorem at_ne_base {g j k : Nat} {s : CState V} (hj : isBase (mact mp j s) = true)
    (hk : atKey g (mact mp k s) = true) : k ≠ j := by
  intro e
  rw [e, base_not_at g hj] at hk
  cases hk

/-- After a completion of `g`, a thread that is not a lane has its state. -/
theorem mfire_other (g : Nat) (s : CState V) {j : Nat} (hj : laneOf memb mp N g s j = false) :
    (mfire memb mp N g s).th j = s.th j :=
  mcomp_th_other _ _ _ _ s hj

theorem enabled_thr_next {r : CState V} {i j : Nat} (hij : i ≠ j)
    (hj : Enabled memb mp N r (MLbl.thr j)) :
    Enabled memb mp N (next (mbase mp) N i r) (MLbl.thr j) := by
  have e : (next (mbase mp) N i r).th j = r.th j :=
    next_th_run (mbase mp) N i r (fun x => hij (Eq.symm x)) hj.2.1
  have hj' : j < N ∧ (r.th j).status = Status.run ∧ isBase (mact mp j r) = true := hj
  show j < N ∧ ((next (mbase mp) N i r).th j).status = Status.run ∧
    isBase (mact mp j (next (mbase mp) N i r)) = true
  rw [mact_eq mp j e, e]
  exact hj'

theorem ready_next {r : CState V} {j g : Nat} (hj : Enabled memb mp N r (MLbl.thr j))
    (hg : InstReady memb mp N g r) :
    ∀ k, k < N → memb g k = true → r.th k = (next (mbase mp) N j r).th k := by
  intro k hk hm
  exact Eq.symm (next_th_run (mbase mp) N j r (at_ne_base mp hj.2.2 (hg.2 k hk hm).2)
    (hg.2 k hk hm).1)

theorem instReady_of {g : Nat} {r t : CState V} (hg : InstReady memb mp N g r)
    (h : ∀ k, k < N → memb g k = true → r.th k = t.th k) : InstReady memb mp N g t := by
  refine ⟨hg.1, fun k hk hm => ?_⟩
  rw [← h k hk hm, ← mact_eq mp k (h k hk hm)]
  exact hg.2 k hk hm

/-- A thread's `Sem` step and a completion of an instance it does not conflict with commute. -/
theorem comm_thr_inst (hok : RelOK mp) {r : CState V} {j g : Nat}
    (hj : Enabled memb mp N r (MLbl.thr j)) (hg : InstReady memb mp N g r)
    (hc : ¬MConflict (rsOf memb mp N g r N) (wsOf memb mp N g r N) (act (mbase mp) j r)) :
    Same (next (mbase mp) N j (mfire memb mp N g r)) (mfire memb mp N g (next (mbase mp) N j r)) :=
  same_trans
    (comm_mcomp_next (mbase mp) N j (laneOf memb mp N g r) (rsOf memb mp N g r N)
      (wsOf memb mp N g r N) (fun k => collRel (mact mp k r) (cvOf memb mp N g r)) r
      (laneOf_base memb mp N hj.2.2)
      (fun k e => (hg.2 k (laneOf_lt memb mp N e) (laneOf_memb memb mp N e)).1)
      (fun k => collRel_status mp hok k r _) hc)
    (same_symm (mfire_as memb mp N g (ready_next memb mp N hj hg) (same_refl _)))

theorem members_other {g h : Nat} (hgh : g ≠ h) {r : CState V} (hh : InstReady memb mp N h r) :
    ∀ k, k < N → memb h k = true → r.th k = (mfire memb mp N g r).th k := by
  intro k hk hm
  exact Eq.symm (mfire_other memb mp N g r (laneOf_other memb mp N (hh.2 k hk hm).2 hgh))

/-- Completions of two different instances whose accesses do not conflict commute. -/
theorem comm_inst_inst {r : CState V} {g h : Nat} (hgh : g ≠ h)
    (hg : InstReady memb mp N g r) (hh : InstReady memb mp N h r)
    (hnc : InstNC (rsOf memb mp N h r N) (wsOf memb mp N h r N) (rsOf memb mp N g r N)
      (wsOf memb mp N g r N)) :
    Same (mfire memb mp N h (mfire memb mp N g r)) (mfire memb mp N g (mfire memb mp N h r)) :=
  same_trans (mfire_as memb mp N h (members_other memb mp N hgh hh) (same_refl _))
    (same_trans
      (comm_mcomp_mcomp (laneOf memb mp N h r) (laneOf memb mp N g r) (rsOf memb mp N h r N)
        (rsOf memb mp N g r N) (wsOf memb mp N h r N) (wsOf memb mp N g r N)
        (fun k => collRel (mact mp k r) (cvOf memb mp N h r))
        (fun k => collRel (mact mp k r) (cvOf memb mp N g r)) r
        (fun k e => laneOf_other memb mp N (laneOf_at memb mp N e) hgh)
        hnc.1 hnc.2.1 hnc.2.2)
      (same_symm (mfire_as memb mp N g (members_other memb mp N (fun x => hgh (Eq.symm x)) hg)
        (same_refl _))))

theorem diamond_of {l1 l2 : MLbl} {r r1 r2 : CState V} (h1 : MStepL memb mp N l1 r r1)
    (h2 : MStepL memb mp N l2 r r2) (e2 : Enabled memb mp N (lnext memb mp N r l1) l2)
    (e1 : Enabled memb mp N (lnext memb mp N r l2) l1)
    (hc : Same (lnext memb mp N (lnext memb mp N r l1) l2) (lnext memb mp N (lnext memb mp N r l2) l1)) :
    ∃ r3, MStep memb mp N r1 r3 ∧ MStep memb mp N r2 r3 :=
  ⟨lnext memb mp N r1 l2,
    ⟨l2, enabled_congr memb mp N l2 (same_symm h1.2) e2, same_refl _⟩,
    ⟨l1, enabled_congr memb mp N l1 (same_symm h2.2) e1,
      same_trans (lnext_congr memb mp N l2 h1.2)
        (same_trans hc (lnext_congr memb mp N l1 (same_symm h2.2)))⟩⟩

end Commute

section Confluence

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

theorem mreach_trans {a b c : CState V} (hab : MReach memb mp N a b)
    (hbc : MReach memb mp N b c) : MReach memb mp N a c := by
  induction hab with
  | refl s => exact hbc
  | step hst _ ih => exact MReach.step hst (ih hbc)

theorem mreach_snoc {a b c : CState V} (hab : MReach memb mp N a b)
    (hbc : MStep memb mp N b c) : MReach memb mp N a c :=
  mreach_trans memb mp N hab (MReach.step hbc (MReach.refl c))

theorem mreach_left {s t u : CState V} (h : Same s t)
    (hu : MReach memb mp N s u) : ∃ u', MReach memb mp N t u' ∧ Same u u' := by
  cases hu with
  | refl => exact ⟨t, MReach.refl t, h⟩
  | step hst hr =>
    match hst with
    | ⟨l, hl⟩ => exact ⟨u, MReach.step ⟨l, mstepL_left memb mp N l h hl⟩ hr, same_refl u⟩

/-- The local diamond at a reachable state. -/
theorem mlocal_diamond (hok : RelOK mp) {s0 r r1 r2 : CState V}
    (hrf : MRaceFree memb mp N s0) (hr : MReach memb mp N s0 r)
    (h1 : MStep memb mp N r r1) (h2 : MStep memb mp N r r2) :
    Same r1 r2 ∨ ∃ r3, MStep memb mp N r1 r3 ∧ MStep memb mp N r2 r3 := by
  have hR := hrf r hr
  match h1, h2 with
  | ⟨l1, s1⟩, ⟨l2, s2⟩ =>
    cases l1 with
    | thr i =>
      cases l2 with
      | thr j =>
        cases Nat.decEq i j with
        | isTrue e =>
          rw [e] at s1
          exact Or.inl (same_trans s1.2 (same_symm s2.2))
        | isFalse e =>
          have hh := hR.1 i j e s1.1 s2.1
          exact Or.inr (diamond_of memb mp N s1 s2
            (enabled_thr_next memb mp N e s2.1)
            (enabled_thr_next memb mp N (fun x => e (Eq.symm x)) s1.1)
            (next_comm_gen (mbase mp) N r e s1.1.1 s2.1.1 s1.1.2.1 s2.1.2.1 hh.1 hh.2))
      | inst g =>
        have hg : InstReady memb mp N g r := s2.1
        exact Or.inr (diamond_of memb mp N s1 s2
          (instReady_of memb mp N hg (ready_next memb mp N s1.1 hg))
          (show Enabled memb mp N (mfire memb mp N g r) (MLbl.thr i) from by
            have e : (mfire memb mp N g r).th i = r.th i :=
              mfire_other memb mp N g r (laneOf_base memb mp N s1.1.2.2)
            have hi' : i < N ∧ (r.th i).status = Status.run ∧ isBase (mact mp i r) = true := s1.1
            show i < N ∧ ((mfire memb mp N g r).th i).status = Status.run ∧
              isBase (mact mp i (mfire memb mp N g r)) = true
            rw [mact_eq mp i e, e]
            exact hi')
          (same_symm (comm_thr_inst memb mp N hok s1.1 hg (hR.2.1 i g s1.1 hg))))
    | inst g =>
      have hg : InstReady memb mp N g r := s1.1
      cases l2 with
      | thr j =>
        exact Or.inr (diamond_of memb mp N s1 s2
          (show Enabled memb mp N (mfire memb mp N g r) (MLbl.thr j) from by
            have e : (mfire memb mp N g r).th j = r.th j :=
              mfire_other memb mp N g r (laneOf_base memb mp N s2.1.2.2)
            have hj' : j < N ∧ (r.th j).status = Status.run ∧ isBase (mact mp j r) = true := s2.1
            show j < N ∧ ((mfire memb mp N g r).th j).status = Status.run ∧
              isBase (mact mp j (mfire memb mp N g r)) = true
            rw [mact_eq mp j e, e]
            exact hj')
          (instReady_of memb mp N hg (ready_next memb mp N s2.1 hg))
          (comm_thr_inst memb mp N hok s2.1 hg (hR.2.1 j g s2.1 hg)))
      | inst h =>
        have hh : InstReady memb mp N h r := s2.1
        cases Nat.decEq g h with
        | isTrue e =>
          rw [e] at s1
          exact Or.inl (same_trans s1.2 (same_symm s2.2))
        | isFalse e =>
          exact Or.inr (diamond_of memb mp N s1 s2
            (instReady_of memb mp N hh (members_other memb mp N e hh))
            (instReady_of memb mp N hg (members_other memb mp N (fun x => e (Eq.symm x)) hg))
            (comm_inst_inst memb mp N e hg hh (hR.2.2 h g (fun x => e (Eq.symm x)) hh hg)))

/-- The strip lemma. -/
theorem mstrip (hok : RelOK mp) {s0 s t2 : CState V} (hrf : MRaceFree memb mp N s0)
    (hs : MReach memb mp N s t2) :
    ∀ t1, MReach memb mp N s0 s → MStep memb mp N s t1 →
      ∃ u, MReach memb mp N t1 u ∧ (Same t2 u ∨ MStep memb mp N t2 u) := by
  induction hs with
  | refl s =>
    intro t1 _ h1
    exact ⟨t1, MReach.refl t1, Or.inr h1⟩
  | @step s s' t2 hss' hs't2 ih =>
    intro t1 h0 h1
    cases mlocal_diamond memb mp N hok hrf h0 h1 hss' with
    | inl e =>
      match mreach_left memb mp N (same_symm e) hs't2 with
      | ⟨u, hu, hsu⟩ => exact ⟨u, hu, Or.inl hsu⟩
    | inr ex =>
      match ex with
      | ⟨v, hv1, hv2⟩ =>
        match ih v (mreach_snoc memb mp N h0 hss') hv2 with
        | ⟨u, hu, hor⟩ => exact ⟨u, MReach.step hv1 hu, hor⟩

theorem mconfluent (hok : RelOK mp) {s0 s t1 : CState V} (hrf : MRaceFree memb mp N s0)
    (h1 : MReach memb mp N s t1) :
    ∀ t2, MReach memb mp N s0 s → MReach memb mp N s t2 →
      ∃ u1 u2, MReach memb mp N t1 u1 ∧ MReach memb mp N t2 u2 ∧ Same u1 u2 := by
  induction h1 with
  | refl s =>
    intro t2 _ h2
    exact ⟨t2, t2, h2, MReach.refl t2, same_refl t2⟩
  | @step s s' t1 hss' hs't1 ih =>
    intro t2 h0 h2
    match mstrip memb mp N hok hrf h2 s' h0 hss' with
    | ⟨w, hw, hor⟩ =>
      match ih w (mreach_snoc memb mp N h0 hss') hw with
      | ⟨u1, u2, hu1, hu2, e⟩ =>
        cases hor with
        | inr hst => exact ⟨u1, u2, hu1, MReach.step hst hu2, e⟩
        | inl e2 =>
          match mreach_left memb mp N (same_symm e2) hu2 with
          | ⟨u3, hu3, e3⟩ => exact ⟨u1, u3, hu1, hu3, same_trans e e3⟩

/-- A state where every thread below `N` has exited does not step. -/
theorem mfinal_reach {t u : CState V} (hf : Final N t) (hr : MReach memb mp N t u) : Same t u := by
  cases hr with
  | refl => exact same_refl t
  | step hst _ =>
    match hst with
    | ⟨l, hl⟩ =>
      cases l with
      | thr i =>
        have h2 : (t.th i).status = Status.run := hl.1.2.1
        rw [hf i hl.1.1] at h2
        cases h2
      | inst g =>
        have hg : InstReady memb mp N g t := hl.1
        match hg.1 with
        | ⟨k, hk, hm⟩ =>
          have h2 : (t.th k).status = Status.run := (hg.2 k hk hm).1
          rw [hf k hk] at h2
          cases h2

/-- Confluence with warp collectives that access memory: if every collective's result keeps
the lane's status and no reachable state has a race (`MRaceFree`: conflicting `Sem` actions,
barriers that do not fit, a `Sem` action in `MConflict` with a ready instance, two ready
instances storing where the other loads or stores), any two final states reachable from `s0`
are `Same` (every thread, every address, every barrier count). -/
theorem mconfluence (hok : RelOK mp) {s0 t1 t2 : CState V} (hrf : MRaceFree memb mp N s0)
    (h1 : MReach memb mp N s0 t1) (h2 : MReach memb mp N s0 t2) (f1 : Final N t1)
    (f2 : Final N t2) : Same t1 t2 := by
  match mconfluent memb mp N hok hrf h1 t2 (MReach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    exact same_trans (mfinal_reach memb mp N f1 hu1)
      (same_trans e (same_symm (mfinal_reach memb mp N f2 hu2)))

/-- No schedule gets stuck if one finishes: under the hypotheses of `mconfluence`, if some
execution from `s0` ends with every thread exited, every reachable state where nothing can step
(no thread's `Sem` action, no instance's completion) has every thread exited. -/
theorem mno_stuck (hok : RelOK mp) {s0 t1 t2 : CState V} (hrf : MRaceFree memb mp N s0)
    (h1 : MReach memb mp N s0 t1) (f1 : Final N t1) (h2 : MReach memb mp N s0 t2)
    (hs : ∀ v, MStep memb mp N t2 v → False) : Final N t2 := by
  match mconfluent memb mp N hok hrf h1 t2 (MReach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    have e2 : Same t2 u2 := by
      cases hu2 with
      | refl => exact same_refl t2
      | step hst _ => exact False.elim (hs _ hst)
    have e' : Same t1 t2 := same_trans (mfinal_reach memb mp N f1 hu1)
      (same_trans e (same_symm e2))
    intro k hk
    rw [Eq.symm (e'.1 k)]
    exact f1 k hk

end Confluence

section Lists

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

theorem inA_rd_append_false {a : Nat} : ∀ (l1 l2 : List RdAcc), inA a (rdAddrs l1) = false →
    inA a (rdAddrs l2) = false → inA a (rdAddrs (rdApp l1 l2)) = false := by
  intro l1
  induction l1 with
  | nil => intro l2 _ h2; exact h2
  | cons r l ih =>
    intro l2 h1 h2
    have h := inA_cons_false h1
    show (decide (a = r.addr) || inA a (rdAddrs (rdApp l l2))) = false
    rw [decide_eq_false' h.1, ih l2 h.2 h2]
    rfl

/-- An address no lane loads is not loaded by the instance. -/
theorem rsOf_notin (g : Nat) (s : CState V) {a : Nat}
    (h : ∀ k, inA a (rdAddrs (collRs (mact mp k s))) = false) :
    ∀ n, inA a (rdAddrs (rsOf memb mp N g s n)) = false := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show inA a (rdAddrs (rdApp (rsOf memb mp N g s n)
      (cond (laneOf memb mp N g s n) (collRs (mact mp n s)) []))) = false
    apply inA_rd_append_false _ _ ih
    cases laneOf memb mp N g s n with
    | true => exact h n
    | false => rfl

/-- If no lane stores, the instance stores nothing. -/
theorem wsOf_nil (g : Nat) (s : CState V) (h : ∀ k, collWs (mact mp k s) = []) :
    ∀ n, wsOf memb mp N g s n = [] := by
  intro n
  induction n with
  | zero => rfl
  | succ n ih =>
    show wrApp (wsOf memb mp N g s n) (cond (laneOf memb mp N g s n) (collWs (mact mp n s)) []) = []
    rw [ih, h n]
    cases laneOf memb mp N g s n <;> rfl

theorem rdNC_app (B : Act V) : ∀ (l1 l2 : List RdAcc), RdNC B l1 → RdNC B l2 → RdNC B (rdApp l1 l2) := by
  intro l1
  induction l1 with
  | nil => intro l2 _ h2; exact h2
  | cons r l ih => intro l2 h1 h2; exact ⟨h1.1, ih l2 h1.2 h2⟩

theorem wrNC_app (B : Act V) : ∀ (l1 l2 : List (WrAcc V)), WrNC B l1 → WrNC B l2 → WrNC B (wrApp l1 l2) := by
  intro l1
  induction l1 with
  | nil => intro l2 _ h2; exact h2
  | cons w l ih => intro l2 h1 h2; exact ⟨h1.1, ih l2 h1.2 h2⟩

/-- The Rust's check on each attributed access of each lane, as an ordinary access of that lane,
gives the instance's `¬MConflict` (the thread/instance clause of `MRaceFree`). -/
theorem noMConflict_of_lanes (g : Nat) (s : CState V) (B : Act V)
    (h : ∀ k, laneOf memb mp N g s k = true →
      AccNC B (collRs (mact mp k s)) (collWs (mact mp k s))) :
    ¬MConflict (rsOf memb mp N g s N) (wsOf memb mp N g s N) B := by
  have hr : ∀ n, RdNC B (rsOf memb mp N g s n) := by
    intro n
    induction n with
    | zero => trivial
    | succ n ih =>
      show RdNC B (rdApp (rsOf memb mp N g s n)
        (cond (laneOf memb mp N g s n) (collRs (mact mp n s)) []))
      apply rdNC_app B _ _ ih
      cases e : laneOf memb mp N g s n with
      | true => exact (h n e).1
      | false => trivial
  have hw : ∀ n, WrNC B (wsOf memb mp N g s n) := by
    intro n
    induction n with
    | zero => trivial
    | succ n ih =>
      show WrNC B (wrApp (wsOf memb mp N g s n)
        (cond (laneOf memb mp N g s n) (collWs (mact mp n s)) []))
      apply wrNC_app B _ _ ih
      cases e : laneOf memb mp N g s n with
      | true => exact (h n e).2
      | false => trivial
  exact noConflict_of_acc _ _ B ⟨hr N, hw N⟩

end Lists

/-! ## Non-vacuity: a 2-lane `ldmatrix`-like collective and a store of a third thread

Threads 0 and 1 are the lanes of instance 0: at `pc` 0 lane `i` arrives with the row address
`100 + i` attributed to it; the completion loads both rows into registers 0 and 1 of both lanes
(memory: 7 at 100, 9 at 101) and they go on at `pc` 1, where they exit.  Thread 2 stores 5 at
200, then exits.  Every hypothesis of `mconfluence` is discharged and its conclusion applied. -/

namespace MEx

open Kcert.Warp.Example

/-- Lane `i`'s result: both rows into registers 0 and 1, and in register 2 the register 0 that
the other lane contributed (a `shfl`-like exchange of registers in the same collective). -/
def relOf (i : Nat) (cv : Nat → Option (Nat → Nat)) (l : List Nat) (t : TState Nat) : TState Nat :=
  ⟨1, upd (upd (upd t.regs 0 (Ex.nthD l 0)) 1 (Ex.nthD l 1)) 2 (Kcert.Warp.readC (1 - i) 0 0 cv),
    t.status⟩

theorem relOf_ext (i : Nat) (c c' : Nat → Option (Nat → Nat)) (h : ∀ k, c k = c' k) :
    relOf i c = relOf i c' := by
  have e : Kcert.Warp.readC (1 - i) 0 0 c = Kcert.Warp.readC (1 - i) 0 0 c' := by
    show (match c (1 - i) with | some x => x 0 | none => 0) =
      (match c' (1 - i) with | some x => x 0 | none => 0)
    rw [h (1 - i)]
  show (fun (l : List Nat) (t : TState Nat) => (TState.mk 1
      (upd (upd (upd t.regs 0 (Ex.nthD l 0)) 1 (Ex.nthD l 1)) 2 (Kcert.Warp.readC (1 - i) 0 0 c))
      t.status : TState Nat)) =
    (fun (l : List Nat) (t : TState Nat) => (TState.mk 1
      (upd (upd (upd t.regs 0 (Ex.nthD l 0)) 1 (Ex.nthD l 1)) 2 (Kcert.Warp.readC (1 - i) 0 0 c'))
      t.status : TState Nat))
  rw [e]

def rowOf (i : Nat) : List RdAcc := cond (decide (i = 0)) [⟨0, 100⟩] [⟨1, 101⟩]

def mpE : MProg Nat := fun i pc _ =>
  cond (decide (i = 2)) (cond (decide (pc = 0)) (MAct.base (Act.write 200 5 1)) (MAct.base Act.exit))
    (cond (decide (i < 2) && decide (pc = 0)) (MAct.coll ⟨0, rowOf i, [], relOf i, relOf_ext i⟩)
      (MAct.base Act.exit))

def membE (g k : Nat) : Bool := decide (g = 0) && decide (k < 2)

/-- Lane `k` starts with `10 * (k + 1)` in register 0. -/
def e0 : CState Nat := init (fun k r => if r = 0 then 10 * (k + 1) else 0) Ex.m0

/-- Every action of the program: `exit`, thread 2's store, or a lane's arrival. -/
theorem shape (i pc : Nat) (regs : Nat → Nat) :
    mpE i pc regs = MAct.base Act.exit ∨
      (i = 2 ∧ mpE i pc regs = MAct.base (Act.write 200 5 1)) ∨
      mpE i pc regs = MAct.coll ⟨0, rowOf i, [], relOf i, relOf_ext i⟩ := by
  have e : mpE i pc regs = cond (decide (i = 2)) (cond (decide (pc = 0))
      (MAct.base (Act.write 200 5 1)) (MAct.base Act.exit)) (cond (decide (i < 2) && decide (pc = 0))
      (MAct.coll ⟨0, rowOf i, [], relOf i, relOf_ext i⟩) (MAct.base Act.exit)) := rfl
  rw [e]
  cases h2 : decide (i = 2) with
  | true =>
    cases decide (pc = 0) with
    | true => exact Or.inr (Or.inl ⟨of_decide_eq_true' h2, rfl⟩)
    | false => exact Or.inl rfl
  | false =>
    cases decide (i < 2) && decide (pc = 0) with
    | true => exact Or.inr (Or.inr rfl)
    | false => exact Or.inl rfl

theorem relOK : RelOK mpE := by
  intro i pc regs c h cv l t
  cases shape i pc regs with
  | inl e => rw [e] at h; cases h
  | inr o =>
    cases o with
    | inl e => rw [e.2] at h; cases h
    | inr e => rw [e] at h; cases h; rfl

theorem ws_nil (s : CState Nat) (k : Nat) : collWs (mact mpE k s) = [] := by
  show collWs (mpE k (s.th k).pc (s.th k).regs) = []
  cases shape k (s.th k).pc (s.th k).regs with
  | inl e => rw [e]; rfl
  | inr o =>
    cases o with
    | inl e => rw [e.2]; rfl
    | inr e => rw [e]; rfl

theorem rs_200 (s : CState Nat) (k : Nat) : inA 200 (rdAddrs (collRs (mact mpE k s))) = false := by
  show inA 200 (rdAddrs (collRs (mpE k (s.th k).pc (s.th k).regs))) = false
  cases shape k (s.th k).pc (s.th k).regs with
  | inl e => rw [e]; rfl
  | inr o =>
    cases o with
    | inl e => rw [e.2]; rfl
    | inr e =>
      rw [e]
      show inA 200 (rdAddrs (cond (decide (k = 0)) [⟨0, 100⟩] [⟨1, 101⟩])) = false
      cases decide (k = 0) <;> rfl

/-- The `Sem` action of an enabled thread: `exit`, or thread 2's store. -/
theorem base_shape (r : CState Nat) (i : Nat) (h : isBase (mact mpE i r) = true) :
    act (mbase mpE) i r = Act.exit ∨ (i = 2 ∧ act (mbase mpE) i r = Act.write 200 5 1) := by
  have h' : isBase (mpE i (r.th i).pc (r.th i).regs) = true := h
  show mbaseOf (r.th i).pc (r.th i).regs (mpE i (r.th i).pc (r.th i).regs) = _ ∨
    (i = 2 ∧ mbaseOf (r.th i).pc (r.th i).regs (mpE i (r.th i).pc (r.th i).regs) = _)
  cases shape i (r.th i).pc (r.th i).regs with
  | inl e => rw [e]; exact Or.inl rfl
  | inr o =>
    cases o with
    | inl e => rw [e.2]; exact Or.inr ⟨e.1, rfl⟩
    | inr e => rw [e] at h'; cases h'

theorem raceFree : MRaceFree membE mpE 3 e0 := by
  intro r _
  refine ⟨fun i j hij hi hj => ?_, fun j g hj hg => ?_, fun g h hgh hg hh => ?_⟩
  · cases base_shape r i hi.2.2 with
    | inl e => rw [e]; exact ⟨fun x => x, trivial⟩
    | inr ei =>
      rw [ei.2]
      cases base_shape r j hj.2.2 with
      | inl e => rw [e]; exact ⟨fun x => x, trivial⟩
      | inr ej => exact False.elim (hij (Eq.trans ei.1 (Eq.symm ej.1)))
  · have hw : wsOf membE mpE 3 g r 3 = [] := wsOf_nil membE mpE 3 g r (ws_nil r) 3
    rw [hw]
    cases base_shape r j hj.2.2 with
    | inl e => rw [e]; exact fun x => x
    | inr ej =>
      rw [ej.2]
      intro hc
      cases hc with
      | inl x => rw [rsOf_notin membE mpE 3 g r (rs_200 r) 3] at x; cases x
      | inr x => cases x
  · rw [wsOf_nil membE mpE 3 g r (ws_nil r) 3, wsOf_nil membE mpE 3 h r (ws_nil r) 3]
    exact And.intro (fun a x => by cases x) (And.intro (fun a x => by cases x) (fun a x => by cases x))

/-- The schedule: instance 0 completes, then thread 2 stores, then every thread exits. -/
def e1 : CState Nat := mfire membE mpE 3 0 e0
def e2 : CState Nat := next (mbase mpE) 3 2 e1
def e3 : CState Nat := next (mbase mpE) 3 0 e2
def e4 : CState Nat := next (mbase mpE) 3 1 e3
def e5 : CState Nat := next (mbase mpE) 3 2 e4

theorem ready0 : InstReady membE mpE 3 0 e0 := by
  refine ⟨⟨0, by decide, rfl⟩, fun k hk hm => ⟨rfl, ?_⟩⟩
  have hk2 : k < 2 := of_decide_eq_true' (and_right' hm)
  show atKey 0 (mpE k 0 (fun _ => 0)) = true
  show atKey 0 (cond (decide (k = 2)) _ (cond (decide (k < 2) && decide (0 = 0))
    (MAct.coll ⟨0, rowOf k, [], relOf k, relOf_ext k⟩) (MAct.base Act.exit))) = true
  rw [decide_eq_false' (fun e : k = 2 => by rw [e] at hk2; exact Nat.ltIrrefl 2 hk2),
    decide_eq_true' hk2]
  rfl

set_option maxHeartbeats 1000000 in
theorem st1 : MStep membE mpE 3 e0 e1 := ⟨MLbl.inst 0, ready0, same_refl _⟩

set_option maxHeartbeats 1000000 in
theorem st2 : MStep membE mpE 3 e1 e2 := ⟨MLbl.thr 2, ⟨by decide, rfl, rfl⟩, same_refl _⟩

set_option maxHeartbeats 1000000 in
theorem st3 : MStep membE mpE 3 e2 e3 := ⟨MLbl.thr 0, ⟨by decide, rfl, rfl⟩, same_refl _⟩

set_option maxHeartbeats 1000000 in
theorem st4 : MStep membE mpE 3 e3 e4 := ⟨MLbl.thr 1, ⟨by decide, rfl, rfl⟩, same_refl _⟩

set_option maxHeartbeats 1000000 in
theorem st5 : MStep membE mpE 3 e4 e5 := ⟨MLbl.thr 2, ⟨by decide, rfl, rfl⟩, same_refl _⟩

theorem reach : MReach membE mpE 3 e0 e5 ∧ Final 3 e5 := by
  refine ⟨?_, ?_⟩
  · exact MReach.step st1 (MReach.step st2 (MReach.step st3 (MReach.step st4
      (MReach.step st5 (MReach.refl e5)))))
  · intro k hk
    cases k with
    | zero => rfl
    | succ k =>
      cases k with
      | zero => rfl
      | succ k =>
        cases k with
        | zero => rfl
        | succ k =>
          exact False.elim (Nat.notSuccLeZero k
            (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hk))))

/-- The final state of the schedule: both lanes hold both rows, memory holds the store. -/
theorem e5_values : (e5.th 0).regs 0 = 7 ∧ (e5.th 0).regs 1 = 9 ∧ (e5.th 1).regs 0 = 7 ∧
    (e5.th 1).regs 1 = 9 ∧ e5.mem 200 = 5 ∧ (e5.th 0).regs 2 = 20 ∧ (e5.th 1).regs 2 = 10 :=
  ⟨rfl, rfl, rfl, rfl, rfl, rfl, rfl⟩

/-- By `mconfluence`, every final state reached from `e0`, by any interleaving of the
completion with thread 2's store, has these values. -/
theorem every_final {t : CState Nat} (h : MReach membE mpE 3 e0 t) (f : Final 3 t) :
    (t.th 0).regs 0 = 7 ∧ (t.th 0).regs 1 = 9 ∧ (t.th 1).regs 0 = 7 ∧ (t.th 1).regs 1 = 9 ∧
      t.mem 200 = 5 ∧ (t.th 0).regs 2 = 20 ∧ (t.th 1).regs 2 = 10 := by
  have e := mconfluence membE mpE 3 relOK raceFree reach.1 h reach.2 f
  rw [← e.1 0, ← e.1 1, ← e.2.1 200]
  exact e5_values

/-- And no schedule gets stuck. -/
theorem no_stuck {t : CState Nat} (h : MReach membE mpE 3 e0 t)
    (hs : ∀ v, MStep membE mpE 3 t v → False) : Final 3 t :=
  mno_stuck membE mpE 3 relOK raceFree reach.1 reach.2 h hs

end MEx

end WarpMem
end Kcert
