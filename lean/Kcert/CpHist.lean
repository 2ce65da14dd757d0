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

/-- Whether an action completes a copy issued with `a` commits before it, the action having
`b` commits before it: a `wait n` with `a + n < b`, or the `exit`. -/
def complK (a b : Nat) : KAct V → Bool
  | KAct.wait n _ => decide (a + n < b)
  | KAct.base Act.exit => true
  | _ => false

/-- Thread `j`'s action `kw` completes its copy issued at `kiss` (`CpLink.Completes`). -/
def complB (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss kw : Nat) : Bool :=
  complK (commits kp regs0 m0 j kiss) (commits kp regs0 m0 j kw) (kAct kp regs0 m0 j kw)

/-- No action `kw` with `kiss < kw < K` completes the copy issued at `kiss`. -/
def noComplB (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss : Nat) : Nat → Bool
  | 0 => true
  | K + 1 => noComplB kp regs0 m0 j kiss K &&
      (not (decide (kiss < K)) || not (complB kp regs0 m0 j kiss K))

/-- `kf` is the first completion of the copy issued at `kiss` (`CpLink.First`). -/
def firstB (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (j kiss kf : Nat) : Bool :=
  decide (kiss < kf) && complB kp regs0 m0 j kiss kf && noComplB kp regs0 m0 j kiss kf

def optL : Option XEv → List XEv
  | some x => [x]
  | none => []

/-- The read or write of action `k` of thread `i`. -/
def accEv (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) : List XEv :=
  optL (evOf i (soloAct (baseProg kp) regs0 m0 i k))

def issK (i : Nat) : KAct V → List XEv
  | KAct.issue s d _ => [XEv.iss i s d]
  | _ => []

def finK (i : Nat) : KAct V → List XEv
  | KAct.issue s d _ => [XEv.fin i s d]
  | _ => []

/-- The issue of action `k` of thread `i`. -/
def issEv (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) : List XEv :=
  issK i (kAct kp regs0 m0 i k)

/-- The completion at `kf` of the copy issued at `kiss`, if `kf` is its first completion. -/
def finOne (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kf kiss : Nat) : List XEv :=
  cond (firstB kp regs0 m0 i kiss kf) (finK i (kAct kp regs0 m0 i kiss)) []

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
    show OccE x (optL (evOf i (soloAct (baseProg kp) regs0 m0 i k)))
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
    show OccE _ (issK j (kAct kp regs0 m0 j kiss))
    rw [ei]
    exact Or.inl rfl

theorem complB_of (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j kiss kw : Nat}
    (h : Completes kp regs0 m0 j kiss kw) : complB kp regs0 m0 j kiss kw = true := by
  show complK (commits kp regs0 m0 j kiss) (commits kp regs0 m0 j kw) (kAct kp regs0 m0 j kw) = true
  cases h with
  | inl h =>
    match h with
    | ⟨n, pc, e, hl⟩ => rw [e]; exact decide_eq_true' hl
  | inr e => rw [e]; rfl

theorem completes_of (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j kiss kw : Nat}
    (h : complB kp regs0 m0 j kiss kw = true) : Completes kp regs0 m0 j kiss kw := by
  have h' : complK (commits kp regs0 m0 j kiss) (commits kp regs0 m0 j kw)
      (kAct kp regs0 m0 j kw) = true := h
  cases hK : kAct kp regs0 m0 j kw with
  | wait n pc => rw [hK] at h'; exact Or.inl ⟨n, pc, hK, of_decide_eq_true' h'⟩
  | issue s d pc => rw [hK] at h'; cases h'
  | commit pc => rw [hK] at h'; cases h'
  | base A =>
    cases A with
    | exit => exact Or.inr hK
    | compute pc r => rw [hK] at h'; cases h'
    | read a r pc => rw [hK] at h'; cases h'
    | write a v pc => rw [hK] at h'; cases h'
    | atomAdd a v pc => rw [hK] at h'; cases h'
    | arrive b n w pc => rw [hK] at h'; cases h'

theorem noComplB_of (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j kiss kf : Nat}
    (h : NotDone kp regs0 m0 j kiss kf) : ∀ K, K ≤ kf → noComplB kp regs0 m0 j kiss K = true
  | 0, _ => rfl
  | K + 1, hK => by
    have ih := noComplB_of kp regs0 m0 h K (Nat.leTrans (Nat.leSucc K) hK)
    show (noComplB kp regs0 m0 j kiss K &&
      (not (decide (kiss < K)) || not (complB kp regs0 m0 j kiss K))) = true
    rw [ih]
    cases hd : decide (kiss < K) with
    | false => rfl
    | true =>
      cases hc : complB kp regs0 m0 j kiss K with
      | false => rfl
      | true =>
        exact False.elim (h K (of_decide_eq_true' hd) hK (completes_of kp regs0 m0 hc))

theorem firstB_of (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j kiss kf : Nat}
    (h : First kp regs0 m0 j kiss kf) : firstB kp regs0 m0 j kiss kf = true := by
  match h with
  | ⟨h1, h2, h3⟩ =>
    show (decide (kiss < kf) && complB kp regs0 m0 j kiss kf && noComplB kp regs0 m0 j kiss kf)
      = true
    rw [decide_eq_true' h1, complB_of kp regs0 m0 h2, noComplB_of kp regs0 m0 h3 kf (Nat.leRefl kf)]
    rfl

/-- The completion of the copy issued at `kiss` is among the completions at its first
completion `kf`. -/
theorem occ_finsUp (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j kiss kf : Nat}
    {s d pc : Nat} (ei : kAct kp regs0 m0 j kiss = KAct.issue s d pc)
    (hf : firstB kp regs0 m0 j kiss kf = true) :
    ∀ m, kiss < m → OccE (XEv.fin j s d) (finsUp kp regs0 m0 j kf m)
  | 0, h => False.elim (Nat.notLtZero kiss h)
  | m + 1, h => by
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
    | inl e =>
      apply occE_app_r
      show OccE _ (cond (firstB kp regs0 m0 j m kf) (finK j (kAct kp regs0 m0 j m)) [])
      rw [← e, hf, ei]
      exact Or.inl rfl
    | inr hl => exact occE_app_l _ _ _ (occ_finsUp kp regs0 m0 ei hf m hl)

/-- The completions of the run occur in the built history, at the epochs of the first
completions. -/
theorem canon_fin (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) : HasFin kp N regs0 m0 (canonCp kp N regs0 m0 L E) := by
  intro j kiss kf c hj hia hfirst
  match (hb j hj).1, hia, hfirst with
  | ⟨kx, hkx, ex⟩, ⟨pc, ei⟩, ⟨h1, h2, h3⟩ =>
    have hne : kAct kp regs0 m0 j kiss ≠ KAct.base Act.exit := by
      rw [ei]; exact fun e => KAct.noConfusion e
    have hix : kiss < kx := lt_of_not_exit kp regs0 m0 ex hne
    have hfx : kf ≤ kx := by
      cases Nat.ltOrGe kx kf with
      | inl hl => exact False.elim (h3 kx hix hl (Or.inr ex))
      | inr hg => exact hg
    have hk : kf < L := Nat.ltOfLeOfLt hfx hkx
    apply occ_canon kp N regs0 m0 L E j kf _ hj hk (bars_lt kp N regs0 m0 hb hj hk)
    apply occE_app_r
    apply occE_app_r
    exact occ_finsUp kp regs0 m0 ei (firstB_of kp regs0 m0 hfirst) kf h1

/-- The main theorem on the built history: if the executor's history built from the program
passes the checks (`CpCheck.accepts`: the tags and the epoch race check), every `CpSem`
schedule from the launch is `CpRaceFree`.  Hypotheses left: whole-CTA barriers, data
independence, the bounds of the run, `Disjoint` (no copy's destination is a copy's source), and
the two tag reports `TagRace`, `CopyTagRace` at the trace level (not yet derived from
`xcheck` on `canonCp`). -/
theorem cpRaceFree_of_exec (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (hsync : SyncAll (baseProg kp) N)
    (hind : KDataIndep kp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) (hdis : Disjoint kp N regs0 m0)
    (ha : accepts (canonCp kp N regs0 m0 L E) = true)
    (ht : ¬TagRace kp N regs0 m0) (hct : ¬CopyTagRace kp N regs0 m0) :
    CpRaceFree kp N (kinit regs0 m0) :=
  cpRaceFree_of_accepts kp N regs0 m0 R hsync hind hR0 (exits_of_bounded kp N regs0 m0 hb) hdis
    _ ha (canon_accs kp N regs0 m0 L E hb) (canon_iss kp N regs0 m0 L E hb)
    (canon_fin kp N regs0 m0 L E hb) ht hct

end Has

/-! ### Two copies to one destination: the anonymous tag cannot confuse them

The Rust's `Val::Pending` does not name its copy.  Counting issues (`nI`) and completions (`nF`)
per destination (and per source for `Cta::inflight`): on a history that passes the tag checks,
the ghost counts are exactly issues minus completions (`od_count`, `os_count`).  So at any read,
write or issue of `d` in a checked history whose copies to `d` all complete, as many copies to
`d` have completed as were issued before (`dst_balanced`), whatever the interleaving of other
copies to `d`; and at a write of `s`, as many copies from `s` have completed as were issued
(`src_balanced`).  (These generalize `CpCheck.between_dst` / `between_src`, which assume no
other completion to `d` / from `s` between the issue and the event.) -/

section Count

def isI (d : Nat) : XEv → Nat
  | XEv.iss _ _ d' => cond (Nat.beq d' d) 1 0
  | _ => 0

def isF (d : Nat) : XEv → Nat
  | XEv.fin _ _ d' => cond (Nat.beq d' d) 1 0
  | _ => 0

def isIS (s : Nat) : XEv → Nat
  | XEv.iss _ s' _ => cond (Nat.beq s' s) 1 0
  | _ => 0

def isFS (s : Nat) : XEv → Nat
  | XEv.fin _ s' _ => cond (Nat.beq s' s) 1 0
  | _ => 0

/-- The events of `l` counted by `f`. -/
def cnt (f : XEv → Nat) : List XEv → Nat
  | [] => 0
  | e :: l => f e + cnt f l

theorem cnt_app (f : XEv → Nat) (P Q : List XEv) : cnt f (app P Q) = cnt f P + cnt f Q := by
  induction P with
  | nil => exact Eq.symm (Nat.zero_add _)
  | cons e P ih =>
    show f e + cnt f (app P Q) = (f e + cnt f P) + cnt f Q
    rw [ih, Nat.add_assoc]

theorem pred_add_one {n : Nat} (h : isZero n = false) : n - 1 + 1 = n := by
  cases n with
  | zero => cases h
  | succ k => rfl

theorem isZero_false_of {n : Nat} (h : not (isZero n) = true) : isZero n = false := by
  cases hn : isZero n with
  | false => rfl
  | true => rw [hn] at h; cases h

theorem od_step (d : Nat) (st : XSt) (e : XEv) (hok : ok st e = true) :
    (step st e).od d + isF d e = st.od d + isI d e := by
  cases e with
  | rd t a => rfl
  | wr t a => rfl
  | iss t s d' =>
    show upd st.od d' (st.od d' + 1) d + 0 = st.od d + cond (Nat.beq d' d) 1 0
    cases Nat.decEq d d' with
    | isTrue he => rw [← he, upd_same, beq_self]; rfl
    | isFalse he => rw [upd_other _ _ he, beq_ne (fun h => he (Eq.symm h))]; rfl
  | fin t s d' =>
    show upd st.od d' (st.od d' - 1) d + cond (Nat.beq d' d) 1 0 = st.od d + 0
    cases Nat.decEq d d' with
    | isTrue he =>
      rw [← he, upd_same, beq_self]
      rw [← he] at hok
      have h1 : not (isZero (st.od d)) = true := and_right' (and_left' hok)
      exact pred_add_one (isZero_false_of h1)
    | isFalse he => rw [upd_other _ _ he, beq_ne (fun h => he (Eq.symm h))]; rfl

theorem os_step (s : Nat) (st : XSt) (e : XEv) (hok : ok st e = true) :
    (step st e).os s + isFS s e = st.os s + isIS s e := by
  cases e with
  | rd t a => rfl
  | wr t a => rfl
  | iss t s' d' =>
    show upd st.os s' (st.os s' + 1) s + 0 = st.os s + cond (Nat.beq s' s) 1 0
    cases Nat.decEq s s' with
    | isTrue he => rw [← he, upd_same, beq_self]; rfl
    | isFalse he => rw [upd_other _ _ he, beq_ne (fun h => he (Eq.symm h))]; rfl
  | fin t s' d' =>
    show upd st.os s' (st.os s' - 1) s + cond (Nat.beq s' s) 1 0 = st.os s + 0
    cases Nat.decEq s s' with
    | isTrue he =>
      rw [← he, upd_same, beq_self]
      rw [← he] at hok
      have h1 : not (isZero (st.os s)) = true := and_right' hok
      exact pred_add_one (isZero_false_of h1)
    | isFalse he => rw [upd_other _ _ he, beq_ne (fun h => he (Eq.symm h))]; rfl

theorem add4 (a b c d : Nat) : (a + (b + c)) + d = (a + b) + (c + d) := by
  rw [Nat.add_assoc, Nat.add_assoc, Nat.add_assoc]

/-- On a checked history, `od d` is the issues minus the completions to `d`. -/
theorem od_count (d : Nat) : ∀ (l : List XEv) (st : XSt), xcheck st l = true →
    (run st l).od d + cnt (isF d) l = st.od d + cnt (isI d) l
  | [], st, _ => rfl
  | e :: l, st, hc => by
    have ih := od_count d l (step st e) (xcheck_cons hc).2
    have h1 := od_step d st e (xcheck_cons hc).1
    show (run (step st e) l).od d + (isF d e + cnt (isF d) l) = st.od d + (isI d e + cnt (isI d) l)
    rw [Nat.add_comm (isF d e), ← Nat.add_assoc, ih, Nat.add_comm (isI d e), ← Nat.add_assoc,
      Nat.add_right_comm, h1, Nat.add_right_comm]

/-- On a checked history, `os s` is the issues minus the completions from `s`. -/
theorem os_count (s : Nat) : ∀ (l : List XEv) (st : XSt), xcheck st l = true →
    (run st l).os s + cnt (isFS s) l = st.os s + cnt (isIS s) l
  | [], st, _ => rfl
  | e :: l, st, hc => by
    have ih := os_count s l (step st e) (xcheck_cons hc).2
    have h1 := os_step s st e (xcheck_cons hc).1
    show (run (step st e) l).os s + (isFS s e + cnt (isFS s) l) =
      st.os s + (isIS s e + cnt (isIS s) l)
    rw [Nat.add_comm (isFS s e), ← Nat.add_assoc, ih, Nat.add_comm (isIS s e), ← Nat.add_assoc,
      Nat.add_right_comm, h1, Nat.add_right_comm]

theorem xcheck_prefix : ∀ (P Q : List XEv) (st : XSt), xcheck st (app P Q) = true →
    xcheck st P = true
  | [], _, _, _ => rfl
  | e :: P, Q, st, hc => by
    show (ok st e && xcheck (step st e) P) = true
    rw [(xcheck_cons hc).1, xcheck_prefix P Q (step st e) (xcheck_cons hc).2]
    rfl

theorem zero_of_add_le {a b : Nat} (h : a + b ≤ b) : a = 0 := by
  cases a with
  | zero => rfl
  | succ k =>
    have h1 : 1 + b ≤ Nat.succ k + b := Nat.addLeAddRight (Nat.succLeSucc (Nat.zeroLe k)) b
    rw [Nat.add_comm 1 b] at h1
    exact False.elim (Nat.notSuccLeSelf b (Nat.leTrans h1 h))

/-- At a read, write or issue of `d` in a checked history in which every copy to `d` completes
(no more issues than completions to `d`), the issues and the completions to `d` before it are
balanced: no copy to `d` is outstanding there, however copies to `d` interleave. -/
theorem dst_balanced (P Q : List XEv) (x : XEv) (d : Nat) (hx : DstConf d x)
    (hc : xcheck xst0 (app P (x :: Q)) = true)
    (hall : cnt (isI d) (app P (x :: Q)) ≤ cnt (isF d) (app P (x :: Q))) :
    cnt (isI d) P = cnt (isF d) P := by
  have h1 : (run xst0 (app P (x :: Q))).od d + cnt (isF d) (app P (x :: Q)) =
      0 + cnt (isI d) (app P (x :: Q)) := od_count d _ xst0 hc
  have h2 : (run xst0 (app P (x :: Q))).od d + cnt (isF d) (app P (x :: Q)) ≤
      cnt (isF d) (app P (x :: Q)) := by
    rw [h1]; rw [Nat.zero_add]; exact hall
  have hend := zero_of_add_le h2
  have h0 : (run xst0 P).od d = 0 := by
    cases x with
    | rd t a =>
      have ha : a = d := hx
      rw [ha] at hc hend
      exact run_read_dst P Q t d hc hend
    | wr t a =>
      have ha : a = d := hx
      rw [ha] at hc hend
      exact run_write_dst P Q t d hc hend
    | iss t s' a =>
      have ha : a = d := hx
      rw [ha] at hc hend
      exact run_issue_dst P Q t s' d hc hend
    | fin t s' a => exact False.elim hx
  have h3 : (run xst0 P).od d + cnt (isF d) P = 0 + cnt (isI d) P :=
    od_count d P xst0 (xcheck_prefix P _ xst0 hc)
  rw [h0, Nat.zero_add] at h3
  exact Eq.symm (Eq.trans h3 (Nat.zero_add _))

/-- At a write of `s` in a checked history, the issues and the completions from `s` before it
are balanced (`Cta::inflight`). -/
theorem src_balanced (P Q : List XEv) (t s : Nat)
    (hc : xcheck xst0 (app P (XEv.wr t s :: Q)) = true) :
    cnt (isIS s) P = cnt (isFS s) P := by
  have h0 := run_write_src P Q t s hc
  have h3 : (run xst0 P).os s + cnt (isFS s) P = 0 + cnt (isIS s) P :=
    os_count s P xst0 (xcheck_prefix P _ xst0 hc)
  rw [h0, Nat.zero_add] at h3
  exact Eq.symm (Eq.trans h3 (Nat.zero_add _))

end Count

/-! ### The tag reports from the tag checks on the built history

`TagRace` and `CopyTagRace` are derived from `xcheck` passing on `canonCp`, given two counting
facts about `canonCp` itself (true of the construction, independent of any check, NOT yet proved
here): `Balanced`, before any event strictly between a copy's issue and its first completion
in the order `Before`, more copies to its destination and from its source were issued than
completed (the copy itself is outstanding and every completion in the prefix follows its own
issue in the prefix); `AllDone`, the built history completes every copy it issues (no more
issues than completions to any destination). -/

section Tags

variable {V : Type} [AccAdd V]

def Balanced (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat) :
    Prop :=
  ∀ j kiss kf c i k x, j < N → i < N → IssueAt kp regs0 m0 j kiss c →
    First kp regs0 m0 j kiss kf → OccE x (evAt kp regs0 m0 i k) →
    Before kp regs0 m0 j kiss i k → Before kp regs0 m0 i k j kf →
    ∃ P Q, (canonCp kp N regs0 m0 L E).map Prod.snd = app P (x :: Q) ∧
      cnt (isF c.dst) P < cnt (isI c.dst) P ∧ cnt (isFS c.src) P < cnt (isIS c.src) P

def AllDone (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat) :
    Prop :=
  ∀ d, cnt (isI d) ((canonCp kp N regs0 m0 L E).map Prod.snd) ≤
    cnt (isF d) ((canonCp kp N regs0 m0 L E).map Prod.snd)

theorem ne_of_lt' {a b : Nat} (h : a < b) (e : b = a) : False := by
  rw [e] at h; exact Nat.ltIrrefl a h

/-- A conflicting event strictly between a copy's issue and its first completion is rejected
by the tags. -/
theorem tag_between (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hc : xcheck xst0 ((canonCp kp N regs0 m0 L E).map Prod.snd) = true)
    (hall : AllDone kp N regs0 m0 L E) (x : XEv) (c : Cp) (hx : CopyConf c.src c.dst x)
    (P Q : List XEv) (e : (canonCp kp N regs0 m0 L E).map Prod.snd = app P (x :: Q))
    (h1 : cnt (isF c.dst) P < cnt (isI c.dst) P) (h2 : cnt (isFS c.src) P < cnt (isIS c.src) P) :
    False := by
  rw [e] at hc
  have ha := hall c.dst
  rw [e] at ha
  cases x with
  | rd t a => exact ne_of_lt' h1 (dst_balanced P Q _ c.dst hx hc ha)
  | wr t a =>
    cases hx with
    | inl hd => exact ne_of_lt' h1 (dst_balanced P Q _ c.dst hd hc ha)
    | inr hs =>
      rw [hs] at hc
      exact ne_of_lt' h2 (src_balanced P Q t c.src hc)
  | iss t s' a => exact ne_of_lt' h1 (dst_balanced P Q _ c.dst hx hc ha)
  | fin t s' a => exact hx

theorem xcheck_of_accepts (h : List (Nat × XEv)) (ha : accepts h = true) :
    xcheck xst0 (h.map Prod.snd) = true := and_left' ha

/-- No `TagRace`: from the tag checks on the built history. -/
theorem noTagRace_of (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (ha : accepts (canonCp kp N regs0 m0 L E) = true) (hbal : Balanced kp N regs0 m0 L E)
    (hall : AllDone kp N regs0 m0 L E) : ¬TagRace kp N regs0 m0 := by
  intro hr
  match hr with
  | ⟨j, kiss, kf, c, i, k, hj, hi, hia, hfirst, hcc, hb1, hb2⟩ =>
    match evOf_copyConf (t := i) hcc with
    | ⟨x, ex, hx, _⟩ =>
      have hocc : OccE x (evAt kp regs0 m0 i k) := by
        apply occE_app_l
        show OccE x (optL (evOf i (soloAct (baseProg kp) regs0 m0 i k)))
        rw [ex]
        exact Or.inl rfl
      match hbal j kiss kf c i k x hj hi hia hfirst hocc hb1 hb2 with
      | ⟨P, Q, e, h1, h2⟩ =>
        exact tag_between kp N regs0 m0 L E (xcheck_of_accepts _ ha) hall x c hx P Q e h1 h2

/-- No `CopyTagRace`: from the tag checks on the built history. -/
theorem noCopyTagRace_of (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (L E : Nat) (ha : accepts (canonCp kp N regs0 m0 L E) = true)
    (hbal : Balanced kp N regs0 m0 L E) (hall : AllDone kp N regs0 m0 L E) :
    ¬CopyTagRace kp N regs0 m0 := by
  intro hr
  match hr with
  | ⟨j, kiss, kf, c, j', kiss', d, hj, hj', _, hia, hfirst, ⟨pc, ei⟩, hdd, hb1, hb2⟩ =>
    have hocc : OccE (XEv.iss j' d.src d.dst) (evAt kp regs0 m0 j' kiss') := by
      apply occE_app_r
      apply occE_app_l
      show OccE _ (issK j' (kAct kp regs0 m0 j' kiss'))
      rw [ei]
      exact Or.inl rfl
    match hbal j kiss kf c j' kiss' _ hj hj' hia hfirst hocc hb1 hb2 with
    | ⟨P, Q, e, h1, h2⟩ =>
      exact tag_between kp N regs0 m0 L E (xcheck_of_accepts _ ha) hall _ c (Eq.symm hdd) P Q e
        h1 h2

/-- The main theorem with the tag reports derived: the built history accepted by the
executor's checks gives `CpRaceFree`, given the two counting facts about the construction
(`Balanced`, `AllDone`), `Disjoint`, the bounds, whole-CTA barriers and data independence. -/
theorem cpRaceFree_of_exec_counts (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hsync : SyncAll (baseProg kp) N) (hind : KDataIndep kp R)
    (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (L E : Nat) (hb : Bounded kp N regs0 m0 L E)
    (hdis : Disjoint kp N regs0 m0) (ha : accepts (canonCp kp N regs0 m0 L E) = true)
    (hbal : Balanced kp N regs0 m0 L E) (hall : AllDone kp N regs0 m0 L E) :
    CpRaceFree kp N (kinit regs0 m0) :=
  cpRaceFree_of_exec kp N regs0 m0 R hsync hind hR0 L E hb hdis ha
    (noTagRace_of kp N regs0 m0 L E ha hbal hall) (noCopyTagRace_of kp N regs0 m0 L E ha hbal hall)

end Tags

/-! ### Per-thread counts: every issue is balanced by its first completion

`sumN f n = f 0 + ... + f (n - 1)`.  For thread `i`, `tlist i p` is the events of its first `p`
actions.  `thread_count`: the issues to `d` among them are the completions to `d` among them
plus the copies to `d` issued there and not completed before `p` (`outN`). -/

section PerThread

variable {V : Type} [AccAdd V]

theorem add_swap4 (a b c d : Nat) : (a + b) + (c + d) = (a + c) + (b + d) := by
  rw [Nat.add_assoc a b (c + d), ← Nat.add_assoc b c d, Nat.add_comm b c, Nat.add_assoc c b d,
    ← Nat.add_assoc a c (b + d)]

def sumN (f : Nat → Nat) : Nat → Nat
  | 0 => 0
  | n + 1 => sumN f n + f n

theorem sumN_add (f g : Nat → Nat) : ∀ n, sumN (fun k => f k + g k) n = sumN f n + sumN g n
  | 0 => rfl
  | n + 1 => by
    show sumN (fun k => f k + g k) n + (f n + g n) = (sumN f n + f n) + (sumN g n + g n)
    rw [sumN_add f g n]
    exact add_swap4 _ _ _ _

theorem sumN_congr (f g : Nat → Nat) : ∀ n, (∀ k, k < n → f k = g k) → sumN f n = sumN g n
  | 0, _ => rfl
  | n + 1, h => by
    show sumN f n + f n = sumN g n + g n
    rw [sumN_congr f g n (fun k hk => h k (Nat.ltTrans hk (Nat.ltSuccSelf n))),
      h n (Nat.ltSuccSelf n)]

theorem sumN_zero (f : Nat → Nat) : ∀ n, (∀ k, k < n → f k = 0) → sumN f n = 0
  | 0, _ => rfl
  | n + 1, h => by
    show sumN f n + f n = 0
    rw [sumN_zero f n (fun k hk => h k (Nat.ltTrans hk (Nat.ltSuccSelf n))),
      h n (Nat.ltSuccSelf n)]

/-- 1 for an issue to `d`. -/
def issD (d : Nat) : KAct V → Nat
  | KAct.issue _ d' _ => cond (Nat.beq d' d) 1 0
  | _ => 0

def tlist (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat) : Nat → List XEv
  | 0 => []
  | p + 1 => app (tlist kp regs0 m0 i p) (evAt kp regs0 m0 i p)

/-- The copies to `d` issued before `p` and not completed before `p`. -/
def outN (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d p : Nat) : Nat :=
  sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss p) (issD d (kAct kp regs0 m0 i kiss)) 0) p

/-- The completions to `d` at `kf`. -/
def finsN (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d kf : Nat) : Nat :=
  sumN (fun kiss => cond (firstB kp regs0 m0 i kiss kf) (issD d (kAct kp regs0 m0 i kiss)) 0) kf

theorem cnt_optL_I (d i : Nat) (A : Act V) : cnt (isI d) (optL (evOf i A)) = 0 := by
  cases A <;> rfl

theorem cnt_optL_F (d i : Nat) (A : Act V) : cnt (isF d) (optL (evOf i A)) = 0 := by
  cases A <;> rfl

theorem cnt_issK_I (d i : Nat) (K : KAct V) : cnt (isI d) (issK i K) = issD d K := by
  cases K with
  | issue s d' pc => show cond (Nat.beq d' d) 1 0 + 0 = cond (Nat.beq d' d) 1 0; rfl
  | _ => rfl

theorem cnt_issK_F (d i : Nat) (K : KAct V) : cnt (isF d) (issK i K) = 0 := by
  cases K <;> rfl

theorem cnt_finK_I (d i : Nat) (K : KAct V) : cnt (isI d) (finK i K) = 0 := by
  cases K <;> rfl

theorem cnt_finK_F (d i : Nat) (K : KAct V) : cnt (isF d) (finK i K) = issD d K := by
  cases K with
  | issue s d' pc => show cond (Nat.beq d' d) 1 0 + 0 = cond (Nat.beq d' d) 1 0; rfl
  | _ => rfl

theorem cnt_finsUp_I (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d kf : Nat) :
    ∀ m, cnt (isI d) (finsUp kp regs0 m0 i kf m) = 0
  | 0 => rfl
  | m + 1 => by
    show cnt (isI d) (app (finsUp kp regs0 m0 i kf m) (finOne kp regs0 m0 i kf m)) = 0
    rw [cnt_app, cnt_finsUp_I kp regs0 m0 i d kf m]
    show 0 + cnt (isI d) (cond (firstB kp regs0 m0 i m kf) (finK i (kAct kp regs0 m0 i m)) []) = 0
    cases firstB kp regs0 m0 i m kf with
    | true => rw [Nat.zero_add]; exact cnt_finK_I d i _
    | false => rfl

theorem cnt_finsUp_F (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d kf : Nat) :
    ∀ m, cnt (isF d) (finsUp kp regs0 m0 i kf m) =
      sumN (fun kiss => cond (firstB kp regs0 m0 i kiss kf) (issD d (kAct kp regs0 m0 i kiss)) 0) m
  | 0 => rfl
  | m + 1 => by
    show cnt (isF d) (app (finsUp kp regs0 m0 i kf m)
      (cond (firstB kp regs0 m0 i m kf) (finK i (kAct kp regs0 m0 i m)) [])) =
      sumN (fun kiss => cond (firstB kp regs0 m0 i kiss kf) (issD d (kAct kp regs0 m0 i kiss)) 0) m
        + cond (firstB kp regs0 m0 i m kf) (issD d (kAct kp regs0 m0 i m)) 0
    rw [cnt_app, cnt_finsUp_F kp regs0 m0 i d kf m]
    cases firstB kp regs0 m0 i m kf with
    | true => exact congrArg _ (cnt_finK_F d i _)
    | false => rfl

theorem cnt_evAt_I (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d k : Nat) :
    cnt (isI d) (evAt kp regs0 m0 i k) = issD d (kAct kp regs0 m0 i k) := by
  show cnt (isI d) (app (optL (evOf i (soloAct (baseProg kp) regs0 m0 i k)))
    (app (issK i (kAct kp regs0 m0 i k)) (finsUp kp regs0 m0 i k k))) = _
  rw [cnt_app, cnt_app, cnt_optL_I, cnt_issK_I, cnt_finsUp_I, Nat.zero_add, Nat.add_zero]

theorem cnt_evAt_F (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d k : Nat) :
    cnt (isF d) (evAt kp regs0 m0 i k) = finsN kp regs0 m0 i d k := by
  show cnt (isF d) (app (optL (evOf i (soloAct (baseProg kp) regs0 m0 i k)))
    (app (issK i (kAct kp regs0 m0 i k)) (finsUp kp regs0 m0 i k k))) = _
  rw [cnt_app, cnt_app, cnt_optL_F, cnt_issK_F, cnt_finsUp_F, Nat.zero_add, Nat.zero_add]
  rfl

theorem noComplB_low (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kiss : Nat) :
    ∀ K, K ≤ kiss + 1 → noComplB kp regs0 m0 i kiss K = true
  | 0, _ => rfl
  | K + 1, h => by
    show (noComplB kp regs0 m0 i kiss K &&
      (not (decide (kiss < K)) || not (complB kp regs0 m0 i kiss K))) = true
    have hK : ¬kiss < K := fun hl => Nat.ltIrrefl K (Nat.ltOfLeOfLt (Nat.leOfSuccLeSucc h) hl)
    rw [noComplB_low kp regs0 m0 i kiss K (Nat.leTrans (Nat.leSucc K) h), decide_eq_false' hK]
    rfl

/-- The split of one copy's term at `p`: not completed before `p + 1`, or first completed at `p`. -/
theorem split_term (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d kiss p : Nat)
    (hk : kiss < p) :
    cond (noComplB kp regs0 m0 i kiss p) (issD d (kAct kp regs0 m0 i kiss)) 0 =
      cond (noComplB kp regs0 m0 i kiss (p + 1)) (issD d (kAct kp regs0 m0 i kiss)) 0 +
      cond (firstB kp regs0 m0 i kiss p) (issD d (kAct kp regs0 m0 i kiss)) 0 := by
  show cond (noComplB kp regs0 m0 i kiss p) (issD d (kAct kp regs0 m0 i kiss)) 0 =
      cond (noComplB kp regs0 m0 i kiss p &&
        (not (decide (kiss < p)) || not (complB kp regs0 m0 i kiss p)))
        (issD d (kAct kp regs0 m0 i kiss)) 0 +
      cond (decide (kiss < p) && complB kp regs0 m0 i kiss p && noComplB kp regs0 m0 i kiss p)
        (issD d (kAct kp regs0 m0 i kiss)) 0
  rw [decide_eq_true' hk]
  cases noComplB kp regs0 m0 i kiss p with
  | false => cases complB kp regs0 m0 i kiss p <;> rfl
  | true =>
    cases complB kp regs0 m0 i kiss p with
    | false => rfl
    | true => exact Eq.symm (Nat.zero_add _)

theorem out_step (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d p : Nat) :
    outN kp regs0 m0 i d p + issD d (kAct kp regs0 m0 i p) =
      outN kp regs0 m0 i d (p + 1) + finsN kp regs0 m0 i d p := by
  have h1 : outN kp regs0 m0 i d p =
      sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss (p + 1))
        (issD d (kAct kp regs0 m0 i kiss)) 0) p + finsN kp regs0 m0 i d p := by
    show sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss p)
        (issD d (kAct kp regs0 m0 i kiss)) 0) p =
      sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss (p + 1))
        (issD d (kAct kp regs0 m0 i kiss)) 0) p +
      sumN (fun kiss => cond (firstB kp regs0 m0 i kiss p) (issD d (kAct kp regs0 m0 i kiss)) 0) p
    rw [← sumN_add]
    exact sumN_congr _ _ p (fun kiss hk => split_term kp regs0 m0 i d kiss p hk)
  have h2 : outN kp regs0 m0 i d (p + 1) =
      sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss (p + 1))
        (issD d (kAct kp regs0 m0 i kiss)) 0) p + issD d (kAct kp regs0 m0 i p) := by
    show _ + cond (noComplB kp regs0 m0 i p (p + 1)) (issD d (kAct kp regs0 m0 i p)) 0 = _
    rw [noComplB_low kp regs0 m0 i p (p + 1) (Nat.leRefl _)]
    rfl
  rw [h1, h2, Nat.add_right_comm]

/-- Per thread: issues = completions + outstanding. -/
theorem thread_count (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d : Nat) :
    ∀ p, cnt (isI d) (tlist kp regs0 m0 i p) =
      cnt (isF d) (tlist kp regs0 m0 i p) + outN kp regs0 m0 i d p
  | 0 => rfl
  | p + 1 => by
    show cnt (isI d) (app (tlist kp regs0 m0 i p) (evAt kp regs0 m0 i p)) =
      cnt (isF d) (app (tlist kp regs0 m0 i p) (evAt kp regs0 m0 i p)) + outN kp regs0 m0 i d (p + 1)
    rw [cnt_app, cnt_app, cnt_evAt_I, cnt_evAt_F, thread_count kp regs0 m0 i d p, Nat.add_assoc,
      out_step, Nat.add_comm (outN kp regs0 m0 i d (p + 1)), ← Nat.add_assoc]

end PerThread

/-! ### `AllDone` for every bounded program -/

section AllDoneSec

variable {V : Type} [AccAdd V]

theorem noComplB_false (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i kiss kw : Nat}
    (h1 : kiss < kw) (hc : complB kp regs0 m0 i kiss kw = true) :
    ∀ K, kw < K → noComplB kp regs0 m0 i kiss K = false
  | 0, h => False.elim (Nat.notLtZero kw h)
  | K + 1, h => by
    show (noComplB kp regs0 m0 i kiss K &&
      (not (decide (kiss < K)) || not (complB kp regs0 m0 i kiss K))) = false
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
    | inl e =>
      rw [← e, decide_eq_true' h1, hc]
      cases noComplB kp regs0 m0 i kiss kw <;> rfl
    | inr hl => rw [noComplB_false kp regs0 m0 h1 hc K hl]; rfl

theorem cond_zero (b : Bool) : cond b 0 0 = 0 := by cases b <;> rfl

/-- A thread that exits before `L` has no copy outstanding at `L`. -/
theorem outN_zero (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i kx L : Nat} (d : Nat)
    (hkx : kx < L) (ex : kAct kp regs0 m0 i kx = KAct.base Act.exit) :
    outN kp regs0 m0 i d L = 0 := by
  apply sumN_zero
  intro kiss hk
  cases hK : kAct kp regs0 m0 i kiss with
  | issue s d' pc =>
    have hne : kAct kp regs0 m0 i kiss ≠ KAct.base Act.exit := by
      rw [hK]; exact fun e => KAct.noConfusion e
    have hix := lt_of_not_exit kp regs0 m0 ex hne
    have hc : complB kp regs0 m0 i kiss kx = true := complB_of kp regs0 m0 (Or.inr ex)
    rw [noComplB_false kp regs0 m0 hix hc L hkx]
    rfl
  | base A => exact cond_zero _
  | commit pc => exact cond_zero _
  | wait n pc => exact cond_zero _

theorem map_appP (A B : List (Nat × XEv)) :
    (appP A B).map Prod.snd = app (A.map Prod.snd) (B.map Prod.snd) := by
  induction A with
  | nil => rfl
  | cons x A ih => exact congrArg (List.cons x.2) ih

theorem map_tagE (e : Nat) (l : List XEv) : (tagE e l).map Prod.snd = l := by
  induction l with
  | nil => rfl
  | cons x l ih => exact congrArg (List.cons x) ih

theorem cnt_gen (f : XEv → Nat) (g : Nat → List (Nat × XEv)) :
    ∀ n, cnt f ((gen g n).map Prod.snd) = sumN (fun j => cnt f ((g j).map Prod.snd)) n
  | 0 => rfl
  | n + 1 => by
    show cnt f ((appP (gen g n) (g n)).map Prod.snd) = _
    rw [map_appP, cnt_app, cnt_gen f g n]
    rfl

theorem sumN_swap (g : Nat → Nat → Nat) (N : Nat) : ∀ E,
    sumN (fun e => sumN (fun i => g e i) N) E = sumN (fun i => sumN (fun e => g e i) E) N
  | 0 => Eq.symm (sumN_zero _ N (fun _ _ => rfl))
  | E + 1 => by
    show sumN (fun e => sumN (fun i => g e i) N) E + sumN (fun i => g E i) N =
      sumN (fun i => sumN (fun e => g e i) E + g E i) N
    rw [sumN_add, sumN_swap g N E]

theorem sumN_ind (b c : Nat) : ∀ E, b < E → sumN (fun e => cond (Nat.beq b e) c 0) E = c
  | 0, h => False.elim (Nat.notLtZero b h)
  | E + 1, h => by
    show sumN (fun e => cond (Nat.beq b e) c 0) E + cond (Nat.beq b E) c 0 = c
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
    | inl e =>
      rw [e, beq_self]
      have h0 : sumN (fun e => cond (Nat.beq E e) c 0) E = 0 :=
        sumN_zero _ E (fun k hk => by
          rw [beq_ne (fun h' => Nat.ltIrrefl k (by rw [h'] at hk; exact hk))]; rfl)
      rw [h0]
      exact Nat.zero_add c
    | inr hl =>
      rw [sumN_ind b c E hl, beq_ne (fun h' => Nat.ltIrrefl E (by rw [h'] at hl; exact hl))]
      rfl

theorem cnt_tlist (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (f : XEv → Nat) (i : Nat) :
    ∀ p, cnt f (tlist kp regs0 m0 i p) = sumN (fun k => cnt f (evAt kp regs0 m0 i k)) p
  | 0 => rfl
  | p + 1 => by
    show cnt f (app (tlist kp regs0 m0 i p) (evAt kp regs0 m0 i p)) = _
    rw [cnt_app, cnt_tlist kp regs0 m0 f i p]
    rfl

theorem cnt_cond (f : XEv → Nat) (b : Bool) (e : Nat) (l : List XEv) :
    cnt f ((cond b (tagE e l) []).map Prod.snd) = cond b (cnt f l) 0 := by
  cases b with
  | true => show cnt f ((tagE e l).map Prod.snd) = cnt f l; rw [map_tagE]
  | false => rfl

/-- The counts of the built history are the sums of the threads' counts. -/
theorem cnt_canon (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) (f : XEv → Nat) :
    cnt f ((canonCp kp N regs0 m0 L E).map Prod.snd) =
      sumN (fun i => cnt f (tlist kp regs0 m0 i L)) N := by
  show cnt f ((gen (fun e => epochEv kp N regs0 m0 L e) E).map Prod.snd) = _
  rw [cnt_gen]
  have h1 : ∀ e, cnt f ((epochEv kp N regs0 m0 L e).map Prod.snd) =
      sumN (fun i => sumN (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) e)
        (cnt f (evAt kp regs0 m0 i k)) 0) L) N := by
    intro e
    show cnt f ((gen (fun i => thrEv kp regs0 m0 L e i) N).map Prod.snd) = _
    rw [cnt_gen]
    apply sumN_congr
    intro i _
    show cnt f ((gen (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) e)
      (tagE e (evAt kp regs0 m0 i k)) []) L).map Prod.snd) = _
    rw [cnt_gen]
    apply sumN_congr
    intro k _
    exact cnt_cond f _ e _
  rw [sumN_congr _ _ E (fun e _ => h1 e), sumN_swap]
  apply sumN_congr
  intro i hi
  rw [sumN_swap, cnt_tlist]
  apply sumN_congr
  intro k hk
  exact sumN_ind _ _ E (bars_lt kp N regs0 m0 hb hi hk)

/-- `AllDone` holds for every bounded program: the built history completes every copy. -/
theorem allDone (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) : AllDone kp N regs0 m0 L E := by
  intro d
  rw [cnt_canon kp N regs0 m0 L E hb, cnt_canon kp N regs0 m0 L E hb]
  have h : sumN (fun i => cnt (isI d) (tlist kp regs0 m0 i L)) N =
      sumN (fun i => cnt (isF d) (tlist kp regs0 m0 i L)) N := by
    apply sumN_congr
    intro i hi
    rw [thread_count]
    match (hb i hi).1 with
    | ⟨kx, hkx, ex⟩ => rw [outN_zero kp regs0 m0 d hkx ex]; rfl
  rw [h]
  exact Nat.leRefl _

/-- The main theorem with `AllDone` proved: only the counting fact `Balanced` about the built
history remains, besides `Disjoint`, the bounds, whole-CTA barriers and data independence. -/
theorem cpRaceFree_of_exec_bal (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hsync : SyncAll (baseProg kp) N) (hind : KDataIndep kp R)
    (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (L E : Nat) (hb : Bounded kp N regs0 m0 L E)
    (hdis : Disjoint kp N regs0 m0) (ha : accepts (canonCp kp N regs0 m0 L E) = true)
    (hbal : Balanced kp N regs0 m0 L E) : CpRaceFree kp N (kinit regs0 m0) :=
  cpRaceFree_of_exec_counts kp N regs0 m0 R hsync hind hR0 L E hb hdis ha hbal
    (allDone kp N regs0 m0 L E hb)

end AllDoneSec

/-! ### Examples (`CpSem.Example`), by evaluation -/

namespace Ex

open CpSem.Example
open CpLink.Ex

/-- The built history of `kp2` is the hand-written `CpCheck.histKp2`. -/
theorem canon_kp2 : canonCp kp2 2 r0 m0 6 2 = histKp2 := rfl

theorem kp2_accepted : accepts (canonCp kp2 2 r0 m0 6 2) = true := rfl

theorem kp2_bounded : Bounded kp2 2 r0 m0 6 2 := by
  intro j hj
  cases j with
  | zero => exact ⟨⟨4, by decide, rfl⟩, by decide⟩
  | succ j =>
    cases j with
    | zero => exact ⟨⟨2, by decide, rfl⟩, by decide⟩
    | succ j => exact False.elim (Nat.notLtZero j (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hj)))

/-- `kp2` is race free through the built history. -/
theorem kp2_raceFree_exec : CpRaceFree kp2 2 s0 :=
  cpRaceFree_of_exec kp2 2 r0 m0 (fun _ _ _ _ => True) kp2_sync kp2_indep (fun _ => trivial) 6 2
    kp2_bounded kp2_disjoint kp2_accepted kp2_noTagRace kp2_noCopyTagRace

/-- `AllDone` holds for `kp2`'s built history (its one copy completes at the wait). -/
theorem kp2_allDone : AllDone kp2 2 r0 m0 6 2 := by
  intro d
  rw [canon_kp2]
  show cond (Nat.beq 1 d) 1 0 + (0 + (0 + 0)) ≤ 0 + (cond (Nat.beq 1 d) 1 0 + (0 + 0))
  cases Nat.beq 1 d <;> decide

/-- `Balanced` holds for `kp2`: strictly between its copy's issue (thread 0, position 0) and its
first completion (the wait, position 2) in `Before` order lies only thread 0's commit, which has
no event (thread 1's epoch-0 actions come after thread 0's in the executor's order). -/
theorem kp2_balanced : Balanced kp2 2 r0 m0 6 2 := by
  intro j kiss kf c i k x hj hi hia hfirst hocc hb1 hb2
  match kp2_issue hj hia with
  | ⟨ej, ek, _, _⟩ =>
    rw [ej, ek] at hfirst hb1
    rw [ej] at hb2
    have hkf := kp2_first2 hfirst
    rw [hkf] at hb2
    have hB2 : bars (baseProg kp2) r0 m0 0 2 = 0 := rfl
    have hB0 : bars (baseProg kp2) r0 m0 0 0 = 0 := rfl
    cases i with
    | succ i =>
      cases hb2 with
      | inl h => rw [hB2] at h; exact False.elim (Nat.notLtZero _ h)
      | inr h =>
        cases h.2 with
        | inl h' => exact False.elim (Nat.notLtZero _ h')
        | inr h' => exact False.elim (Nat.noConfusion h'.1)
    | zero =>
      have hk2 : k < 2 := by
        cases hb2 with
        | inl h => rw [hB2] at h; exact False.elim (Nat.notLtZero _ h)
        | inr h =>
          cases h.2 with
          | inl h' => exact False.elim (Nat.ltIrrefl 0 h')
          | inr h' => exact h'.2
      cases k with
      | zero =>
        cases hb1 with
        | inl h => exact False.elim (Nat.ltIrrefl _ h)
        | inr h =>
          cases h.2 with
          | inl h' => exact False.elim (Nat.ltIrrefl 0 h')
          | inr h' => exact False.elim (Nat.ltIrrefl 0 h'.2)
      | succ k =>
        cases k with
        | zero =>
          have he : evAt kp2 r0 m0 0 1 = [] := rfl
          rw [he] at hocc
          exact False.elim hocc
        | succ k =>
          exact False.elim (Nat.notLtZero k (Nat.lt_of_succ_lt_succ (Nat.lt_of_succ_lt_succ hk2)))

/-- `kp2` race free through the built history with the tag reports derived from the tag checks
(`cpRaceFree_of_exec_bal`: no trace-level `TagRace`/`CopyTagRace` hypothesis). -/
theorem kp2_raceFree_bal : CpRaceFree kp2 2 s0 :=
  cpRaceFree_of_exec_bal kp2 2 r0 m0 (fun _ _ _ _ => True) kp2_sync kp2_indep (fun _ => trivial)
    6 2 kp2_bounded kp2_disjoint kp2_accepted kp2_balanced

/-- `kpRacy`: the built history (thread 0 issues 0 → 1 and completes it at its wait, then
thread 1 writes 0, one epoch) is rejected (an epoch race). -/
theorem canon_kpRacy :
    canonCp kpRacy 2 r0 m0 4 1 = [(0, XEv.iss 0 0 1), (0, XEv.fin 0 0 1), (0, XEv.wr 1 0)] := rfl

theorem kpRacy_rejected_exec : accepts (canonCp kpRacy 2 r0 m0 4 1) = false := rfl

/-- `kpNoWait`: the built history completes the copy at the `exit` (the Rust since `Op::Exit`
calls `cp_async_wait`), after the write of its destination: the tags reject it. -/
theorem canon_kpNoWait : canonCp CpCheck.Finding.kpNoWait 1 r0 m0 4 1 =
    [(0, XEv.iss 0 0 1), (0, XEv.wr 0 1), (0, XEv.rd 0 1), (0, XEv.fin 0 0 1)] := rfl

theorem kpNoWait_rejected_exec : accepts (canonCp CpCheck.Finding.kpNoWait 1 r0 m0 4 1) = false :=
  rfl

theorem kpNoWait_tags_exec :
    xcheck xst0 ((canonCp CpCheck.Finding.kpNoWait 1 r0 m0 4 1).map Prod.snd) = false := rfl

end Ex

end CpHist
end Kcert
