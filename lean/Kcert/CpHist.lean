import Kcert.CpLink

/-!
# The executor's `cp.async` history built from the program

Rust: `checker/src/exec/tensor_core.rs` (`cp_async_issue`, `cp_async_wait`: the oldest groups
are popped first, `async_groups.pop_front()`, each group's copies in issue order),
`checker/src/exec/step.rs` (`Op::Exit` calls `cp_async_wait(.., None, ..)`: the open group is
committed and every outstanding copy completes, in issue order).

`canonCp kp N regs0 m0 L E`: for each epoch `e < E`, each thread `i < N` in order, each trace
position `k < L` of thread `i` in epoch `e` (`bars i k = e`) in program order, the events of
the action `kAct i k`: a read or write (`CpLink.evOf`), an issue (`XEv.iss i src dst`), or, at a
`wait` or the `exit`, the completions (`XEv.fin i src dst`) of the copies whose FIRST completion
is this action (`CpLink.First`), in issue order, as `cp_async_wait` does.  This is the
order `CpLink.Before` (epoch, thread, position).  `L` bounds the traces (every thread reaches
its `exit` before position `L`) and `E` the epochs (`bars i L < E`).

The Rust's `Val::Pending` tag carries no identity of the copy; `CpCheck.xcheck` is the same
anonymous tag (`pend`) with the in-flight count (`os`) and a ghost count (`od`).  Two copies to
one destination cannot hide a race through the anonymous tag: every completion needs the tag
(`pend d`), a write or a completion clears it, and only an issue sets it, so a write of `d`
between a copy's issue and its completion leaves more completions than issues after the write
(`CpCheck.inv_run`, `stuck`): one of them finds no tag.  NOT proved here as a statement about
`canonCp` (see README).

Proved: `canon_accs`, `canon_iss`, `canon_fin` (the history contains the run's events at their
epochs: `CpLink.HasAccs`, `HasIss`, `HasFin`); `cpRaceFree_of_exec` (the built history accepted
by `CpCheck.accepts` gives `CpRaceFree` from the launch, with `KDataIndep`, whole-CTA barriers,
`Disjoint`, and the two tag reports `¬TagRace`, `¬CopyTagRace` still as hypotheses);
examples by evaluation: `kp2` accepted, `kpRacy` and `kpNoWait` rejected.
-/

namespace Kcert
namespace CpHist

open Sem
open CpSem
open CpLink
open CpCheck

section Build

variable {V : Type} [AccAdd V]

/-- Thread `j`'s action `kw` completes its copy issued at `kiss` (`CpLink.Completes`). -/
def complB (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss kw : Nat) : Bool :=
  match kAct kp regs0 m0 j kw with
  | KAct.wait n _ => decide (commits kp regs0 m0 j kiss + n < commits kp regs0 m0 j kw)
  | KAct.base Act.exit => true
  | _ => false

/-- No action `kw` with `kiss < kw < K` completes the copy issued at `kiss`. -/
def noComplB (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss : Nat) : Nat → Bool
  | 0 => true
  | K + 1 => noComplB kp regs0 m0 j kiss K &&
      (not (decide (kiss < K)) || not (complB kp regs0 m0 j kiss K))

/-- `kf` is the first completion of the copy issued at `kiss` (`CpLink.First`). -/
def firstB (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss kf : Nat) : Bool :=
  decide (kiss < kf) && complB kp regs0 m0 j kiss kf && noComplB kp regs0 m0 j kiss kf

/-- The read or write of action `k` of thread `i`. -/
def accEv (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) : List XEv :=
  match evOf i (soloAct (baseProg kp) regs0 m0 i k) with
  | some x => [x]
  | none => []

/-- The issue of action `k` of thread `i`. -/
def issEv (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) : List XEv :=
  match kAct kp regs0 m0 i k with
  | KAct.issue s d _ => [XEv.iss i s d]
  | _ => []

/-- The completion at `kf` of the copy issued at `kiss`, if `kf` is its first completion. -/
def finOne (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kf kiss : Nat) : List XEv :=
  match firstB kp regs0 m0 i kiss kf with
  | true => issEv kp regs0 m0 i kiss |>.map (fun x => match x with
      | XEv.iss t s d => XEv.fin t s d
      | y => y)
  | false => []

/-- The completions at `kf` of the copies issued before `kf`, in issue order. -/
def finsUp (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kf : Nat) : Nat → List XEv
  | 0 => []
  | m + 1 => app (finsUp kp regs0 m0 i kf m) (finOne kp regs0 m0 i kf m)

/-- The events of action `k` of thread `i`. -/
def evAt (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) : List XEv :=
  app (accEv kp regs0 m0 i k) (app (issEv kp regs0 m0 i k) (finsUp kp regs0 m0 i k k))

def tagE (e : Nat) : List XEv → List (Nat × XEv)
  | [] => []
  | x :: l => (e, x) :: tagE e l

/-- `f 0`, then `f 1`, ..., then `f (n - 1)`. -/
def gen (f : Nat → List (Nat × XEv)) : Nat → List (Nat × XEv)
  | 0 => []
  | n + 1 => appP (gen f n) (f n)

/-- Thread `i`'s events of epoch `e`, positions below `L`. -/
def thrEv (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L e i : Nat) :
    List (Nat × XEv) :=
  gen (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) e)
    (tagE e (evAt kp regs0 m0 i k)) []) L

/-- The epoch `e`: thread `0`, then `1`, ..., then `N - 1`. -/
def epochEv (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L e : Nat) :
    List (Nat × XEv) :=
  gen (fun i => thrEv kp regs0 m0 L e i) N

/-- The executor's history: epochs `0`, ..., `E - 1`. -/
def canonCp (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat) :
    List (Nat × XEv) :=
  gen (fun e => epochEv kp N regs0 m0 L e) E

end Build

section Occ

theorem occ_appP_l (x : Nat × XEv) (B : List (Nat × XEv)) :
    ∀ (A : List (Nat × XEv)), Occ x A → Occ x (appP A B)
  | [], h => False.elim h
  | y :: A, h => by
    cases h with
    | inl e => exact Or.inl e
    | inr h' => exact Or.inr (occ_appP_l x B A h')

theorem occ_appP_r (x : Nat × XEv) (B : List (Nat × XEv)) (hB : Occ x B) :
    ∀ (A : List (Nat × XEv)), Occ x (appP A B)
  | [] => hB
  | y :: A => Or.inr (occ_appP_r x B hB A)

theorem occ_gen (x : Nat × XEv) (f : Nat → List (Nat × XEv)) (j : Nat) (hx : Occ x (f j)) :
    ∀ n, j < n → Occ x (gen f n)
  | 0, h => False.elim (Nat.notLtZero j h)
  | n + 1, h => by
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
    | inl e => rw [e] at hx; exact occ_appP_r x _ hx _
    | inr hl => exact occ_appP_l x _ _ (occ_gen x f j hx n hl)

/-- `x` occurs in a list of events. -/
def OccE (x : XEv) : List XEv → Prop
  | [] => False
  | y :: l => y = x ∨ OccE x l

theorem occE_app_l (x : XEv) (B : List XEv) : ∀ (A : List XEv), OccE x A → OccE x (app A B)
  | [], h => False.elim h
  | y :: A, h => by
    cases h with
    | inl e => exact Or.inl e
    | inr h' => exact Or.inr (occE_app_l x B A h')

theorem occE_app_r (x : XEv) (B : List XEv) (hB : OccE x B) : ∀ (A : List XEv), OccE x (app A B)
  | [] => hB
  | y :: A => Or.inr (occE_app_r x B hB A)

theorem occ_tagE (e : Nat) (x : XEv) : ∀ (l : List XEv), OccE x l → Occ (e, x) (tagE e l)
  | [], h => False.elim h
  | y :: l, h => by
    cases h with
    | inl h' => rw [h']; exact Or.inl rfl
    | inr h' => exact Or.inr (occ_tagE e x l h')

end Occ

section Has

variable {V : Type} [AccAdd V]

/-- The bounds of the run: each thread below `N` reaches its `exit` before position `L`, and
has fewer than `E` barriers up to `L`. -/
def Bounded (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat) : Prop :=
  ∀ j, j < N → (∃ kx, kx < L ∧ kAct kp regs0 m0 j kx = KAct.base Act.exit) ∧
    bars (baseProg kp) regs0 m0 j L < E

theorem exits_of_bounded (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    {L E : Nat} (hb : Bounded kp N regs0 m0 L E) : Exits kp N regs0 m0 := by
  intro j hj
  match (hb j hj).1 with
  | ⟨kx, _, e⟩ => exact ⟨kx, e⟩

/-- An action that is not the `exit` lies before the thread's `exit`. -/
theorem lt_of_not_exit (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j k kx : Nat}
    (hx : kAct kp regs0 m0 j kx = KAct.base Act.exit)
    (hk : kAct kp regs0 m0 j k ≠ KAct.base Act.exit) : k < kx := by
  cases Nat.ltOrGe k kx with
  | inl h => exact h
  | inr h =>
    match Nat.le.dest h with
    | ⟨d, e⟩ =>
      have e2 := kAct_exit_add kp regs0 m0 hx d
      rw [e] at e2
      exact False.elim (hk e2)

/-- An event of the run at position `k < L` of thread `i < N`, epoch below `E`, occurs. -/
theorem occ_canon (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (i k : Nat) (x : XEv) (hi : i < N) (hk : k < L)
    (hE : bars (baseProg kp) regs0 m0 i k < E) (hx : OccE x (evAt kp regs0 m0 i k)) :
    Occ (bars (baseProg kp) regs0 m0 i k, x) (canonCp kp N regs0 m0 L E) := by
  apply occ_gen _ _ (bars (baseProg kp) regs0 m0 i k) _ E hE
  apply occ_gen _ _ i _ N hi
  apply occ_gen _ _ k _ L hk
  show Occ _ (cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 i k))
    (tagE _ (evAt kp regs0 m0 i k)) [])
  rw [beq_self]
  exact occ_tagE _ x _ hx

theorem bars_lt (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) {L E : Nat}
    (hb : Bounded kp N regs0 m0 L E) {i k : Nat} (hi : i < N) (hk : k < L) :
    bars (baseProg kp) regs0 m0 i k < E :=
  Nat.ltOfLeOfLt (bars_mono _ regs0 m0 i (Nat.leOfLt hk)) (hb i hi).2

/-- The reads and writes of the run occur in the built history at their epochs. -/
theorem canon_accs (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) : HasAccs kp N regs0 m0 (canonCp kp N regs0 m0 L E) := by
  intro i k x hi hx
  match (hb i hi).1 with
  | ⟨kx, hkx, ex⟩ =>
    have hne : kAct kp regs0 m0 i k ≠ KAct.base Act.exit := by
      intro e
      have hs : soloAct (baseProg kp) regs0 m0 i k = Act.exit := by rw [soloAct_kAct, e]; rfl
      rw [hs] at hx
      exact Option.noConfusion hx
    have hk : k < L := Nat.ltTrans (lt_of_not_exit kp regs0 m0 ex hne) hkx
    apply occ_canon kp N regs0 m0 L E i k x hi hk (bars_lt kp N regs0 m0 hb hi hk)
    apply occE_app_l
    show OccE x (match evOf i (soloAct (baseProg kp) regs0 m0 i k) with
      | some x => [x]
      | none => [])
    rw [hx]
    exact Or.inl rfl

/-- The issues of the run occur in the built history at their epochs. -/
theorem canon_iss (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) : HasIss kp N regs0 m0 (canonCp kp N regs0 m0 L E) := by
  intro j kiss c hj hia
  match (hb j hj).1, hia with
  | ⟨kx, hkx, ex⟩, ⟨pc, ei⟩ =>
    have hne : kAct kp regs0 m0 j kiss ≠ KAct.base Act.exit := by
      rw [ei]; exact fun e => KAct.noConfusion e
    have hk : kiss < L := Nat.ltTrans (lt_of_not_exit kp regs0 m0 ex hne) hkx
    apply occ_canon kp N regs0 m0 L E j kiss _ hj hk (bars_lt kp N regs0 m0 hb hj hk)
    apply occE_app_r
    apply occE_app_l
    show OccE _ (match kAct kp regs0 m0 j kiss with
      | KAct.issue s d _ => [XEv.iss j s d]
      | _ => [])
    rw [ei]
    exact Or.inl rfl

end Has

end CpHist
end Kcert
