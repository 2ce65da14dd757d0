import Kcert.Semantics

/-!
# Warp collectives as atomic steps of their lanes

Rust: `checker/src/exec/mod.rs` (`Status::Warp`, `WarpWait`, `Collective`, `resolve_warps`,
`complete_collective`), `checker/src/exec/step.rs` (the collective ops: `shfl.sync`,
`vote.sync`, `bar.warp.sync`, `mma.sync`, `ldmatrix`, `wmma.*`).

An extension of the interleaving semantics of `Kcert.Semantics` (`Sem`) with warp collectives,
built on top of `Sem`'s definitions: a thread's next action (`WAct`) is either one of `Sem`'s
actions (`WAct.base`, performed by `Sem.next`) or an arrival at a collective
(`WAct.coll g v res pc`).  The key `g` names the collective instance a lane joins (in the
executor: the warp, the membermask and the kind of collective, which must all agree,
`resolve_warps`' `all_here`); `memb g k` says whether thread `k` is one of its lanes (in the
executor: lane `k - w0` of warp `w0 / 32` with bit `k - w0` set in the mask).  The lane
contributes `v` (its registers, say: the source value of a `shfl`, the predicate of a `vote`, the
fragments of an `mma`) and, once the collective completes, gets the registers
`res.f cv`, a function of the vector `cv` of all lanes' contributions (`none` for threads that
are not lanes of the instance), and goes on at `pc`.

A lane arriving at a collective whose other lanes have not all arrived waits (`WState.cw`: the
`Wait` record of the lane, its status in `Sem` stays `run` but it does not step).  The arrival
of the last lane completes the collective in ONE step: every lane of the instance gets its new
registers from the one vector of contributions and goes on (`collTh`, `collCw`).  This is the
executor's `complete_collective`, which the executor runs once every lane has blocked
(`resolve_warps`); in the model the completion is the last arrival, as for barriers in `Sem`.

The result function carries its extensionality (`ExtFun`): the new registers depend on the
values of the contributions, not on how the vector is written, so that no proof needs function
extensionality (which in Lean core rests on `Quot.sound`).  Every concrete collective is such a
function (`shflRes` below).

* `wnext_comm`: two steps of different running, non-waiting threads commute when their actions
  do not conflict and their barriers fit (as in `Sem.next_comm_gen`), and every lane is in the
  instance it arrives at (`CollOwn`): a collective arrival against any action of another
  thread, and two arrivals at one instance (the order of arrival does not change the result:
  the completion uses the vector of contributions, whichever lane arrives last).
* `wconfluence`: a race-free program whose barriers fit and whose lanes arrive only at
  instances they belong to has at most one final state, whatever the schedule.
  `wno_stuck`: if one execution finishes, no execution gets stuck.
* `wstepT_base_iff`: programs without collectives run as in `Sem`.
* `Example`: a 2-lane `shfl.sync.bfly`, evaluated by `rfl`, under `wconfluence`.
* `VoteModes`: lanes of one mask at `vote.sync` instructions of different modes; the executor
  gives every lane the first lane's mode (README, "Finding: vote.sync lanes at different
  modes").

The executor's deferred completion (`resolve_warps` once every thread has blocked) is
`WarpDefer.lean`, proved to reach the same final states.
-/

namespace Kcert
namespace Warp

open Sem

/-- The result of a collective for one lane: its new registers from the vector of
contributions (by thread; `none` for threads that are not lanes of the instance), with the fact
that it depends only on the values of the vector. -/
structure ExtFun (V : Type) where
  f : (Nat → Option (Nat → V)) → Nat → V
  ext : ∀ c c' : Nat → Option (Nat → V), (∀ k, c k = c' k) → f c = f c'

/-- Rust `WarpWait`: a lane waiting at a collective: the instance's key, its contribution, its
result function and where it goes on. -/
structure Wait (V : Type) where
  key : Nat
  v : Nat → V
  res : ExtFun V
  pc : Nat

/-- What a thread's next instruction does: one of `Sem`'s actions, or an arrival at the
collective instance `g` with contribution `v`, result `res`, then `pc`. -/
inductive WAct (V : Type) where
  | base (A : Act V)
  | coll (g : Nat) (v : Nat → V) (res : ExtFun V) (pc : Nat)

/-- A per-thread program with collectives. -/
def WProg (V : Type) : Type := Nat → Nat → (Nat → V) → WAct V

/-- `Sem`'s state and, per thread, the collective it waits at (Rust `Thread::warp_wait` with
`Status::Warp`). -/
structure WState (V : Type) where
  s : CState V
  cw : Nat → Option (Wait V)

section Defs

variable {V : Type} [AccAdd V]

/-- The `Sem` action of a `WAct` (a collective is given a register step that changes nothing;
it is never performed through `Sem`). -/
def baseOf (pc : Nat) (regs : Nat → V) : WAct V → Act V
  | WAct.base A => A
  | WAct.coll _ _ _ _ => Act.compute pc regs

/-- The program's `Sem` part. -/
def baseProg (wp : WProg V) : Prog V := fun i pc regs => baseOf pc regs (wp i pc regs)

/-- Thread `i`'s next action. -/
def wact (wp : WProg V) (i : Nat) (st : WState V) : WAct V :=
  wp i (st.s.th i).pc (st.s.th i).regs

/-- Whether a thread waits at instance `g`. -/
def waitsAt (g : Nat) : Option (Wait V) → Bool
  | some w => decide (w.key = g)
  | none => false

/-- The contribution of a thread to instance `g`: its value if it waits there. -/
def contribAt (g : Nat) : Option (Wait V) → Option (Nat → V)
  | some w => if w.key = g then some w.v else none
  | none => none

/-- Thread `k` does not hold up an arrival of `i` at `g`: it is not a lane of `g`, or it is `i`,
or it waits at `g`. -/
def okW (memb : Nat → Nat → Bool) (g i : Nat) (cw : Nat → Option (Wait V)) (k : Nat) : Bool :=
  !memb g k || decide (k = i) || waitsAt g (cw k)

/-- `ok k` for every `k < n`. -/
def allW (ok : Nat → Bool) : Nat → Bool
  | 0 => true
  | n + 1 => allW ok n && ok n

/-- The arrival of `i` at `g` completes it: every other lane (of the `N` threads) waits there
(Rust `all_here`). -/
def doneW (memb : Nat → Nat → Bool) (N g i : Nat) (cw : Nat → Option (Wait V)) : Bool :=
  allW (okW memb g i cw) N

/-- The vector of contributions when `i` arrives at `g` with `v`. -/
def cvec (memb : Nat → Nat → Bool) (g i : Nat) (v : Nat → V) (cw : Nat → Option (Wait V)) :
    Nat → Option (Nat → V) :=
  fun k => cond (memb g k) (if k = i then some v else contribAt g (cw k)) none

/-- A waiting lane released with the vector `cv`: its new registers and `pc`. -/
def relW (cv : Nat → Option (Nat → V)) : Option (Wait V) → TState V → TState V
  | some w, t => ⟨w.pc, w.res.f cv, t.status⟩
  | none, t => t

/-- Whether the completion of `g` (iff `d`) releases thread `k` waiting as `o`. -/
def relB (memb : Nat → Nat → Bool) (d : Bool) (g k : Nat) (o : Option (Wait V)) : Bool :=
  d && memb g k && waitsAt g o

/-- The effect of an arrival at `g` (completing iff `d`) on another thread. -/
def relK (memb : Nat → Nat → Bool) (d : Bool) (g : Nat) (cv : Nat → Option (Nat → V)) (k : Nat)
    (t : TState V) (o : Option (Wait V)) : TState V :=
  cond (relB memb d g k o) (relW cv o t) t

/-- The arriving thread: new registers and `pc` if it completes, else unchanged (it waits). -/
def selfT (d : Bool) (pc : Nat) (r : Nat → V) (t : TState V) : TState V :=
  cond d ⟨pc, r, t.status⟩ t

/-- The threads after `i` arrives at `g`. -/
def collTh (memb : Nat → Nat → Bool) (d : Bool) (g i pc : Nat) (res : ExtFun V)
    (cv : Nat → Option (Nat → V)) (th : Nat → TState V) (cw : Nat → Option (Wait V)) :
    Nat → TState V :=
  upd (fun k => relK memb d g cv k (th k) (cw k)) i (selfT d pc (res.f cv) (th i))

/-- The waiting records after `i` arrives at `g` (as `w`). -/
def collCw (memb : Nat → Nat → Bool) (d : Bool) (g i : Nat) (w : Wait V)
    (cw : Nat → Option (Wait V)) : Nat → Option (Wait V) :=
  upd (fun k => cond (relB memb d g k (cw k)) none (cw k)) i (cond d none (some w))

/-- The state after thread `i` does action `A`. -/
def wnextA (memb : Nat → Nat → Bool) (wp : WProg V) (N i : Nat) (st : WState V) :
    WAct V → WState V
  | WAct.base _ => ⟨next (baseProg wp) N i st.s, st.cw⟩
  | WAct.coll g v res pc =>
    ⟨⟨collTh memb (doneW memb N g i st.cw) g i pc res (cvec memb g i v st.cw) st.s.th st.cw,
        st.s.mem, st.s.arr⟩,
      collCw memb (doneW memb N g i st.cw) g i ⟨g, v, res, pc⟩ st.cw⟩

/-- The state after thread `i` does its next action. -/
def wnext (memb : Nat → Nat → Bool) (wp : WProg V) (N i : Nat) (st : WState V) : WState V :=
  wnextA memb wp N i st (wact wp i st)

/-- Pointwise equality of states. -/
def WSame (a b : WState V) : Prop := Same a.s b.s ∧ ∀ k, a.cw k = b.cw k

/-- Thread `i < N`, running and not waiting at a collective, does its next action. -/
def WStepT (memb : Nat → Nat → Bool) (wp : WProg V) (N i : Nat) (a b : WState V) : Prop :=
  i < N ∧ (a.s.th i).status = Status.run ∧ a.cw i = none ∧ WSame b (wnext memb wp N i a)

def WStep (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) (a b : WState V) : Prop :=
  ∃ i, WStepT memb wp N i a b

inductive WReach (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) :
    WState V → WState V → Prop where
  | refl (s : WState V) : WReach memb wp N s s
  | step {s t u : WState V} : WStep memb wp N s t → WReach memb wp N t u → WReach memb wp N s u

/-- Every thread has exited. -/
def WFinal (N : Nat) (a : WState V) : Prop := Final N a.s

/-- The launch: `Sem.init`, nobody waits at a collective. -/
def winit (regs : Nat → Nat → V) (mem : Nat → V) : WState V := ⟨init regs mem, fun _ => none⟩

/-- Conflicting actions: `Sem.Conflict` of two `Sem` actions; a collective touches no memory. -/
def WConflict : WAct V → WAct V → Prop
  | WAct.base A, WAct.base B => Conflict A B
  | _, _ => False

/-- `Sem.BarFits` of two `Sem` actions. -/
def WBarFits (N : Nat) (s : CState V) : WAct V → WAct V → Prop
  | WAct.base A, WAct.base B => BarFits N s A B
  | _, _ => True

/-- Every lane arrives only at collective instances it is a lane of (the executor reports
"lane is not in its own mask" otherwise). -/
def CollOwn (memb : Nat → Nat → Bool) (wp : WProg V) : Prop :=
  ∀ i pc regs g v res pc', wp i pc regs = WAct.coll g v res pc' → memb g i = true

/-- In state `st`, if thread `i`'s next action is a collective arrival, `i` is a lane of its
instance. -/
def OwnAt (memb : Nat → Nat → Bool) (wp : WProg V) (i : Nat) (st : WState V) : Prop :=
  ∀ g v res pc, wact wp i st = WAct.coll g v res pc → memb g i = true

end Defs

section Basic

variable {V : Type} [AccAdd V]

theorem wsame_refl (a : WState V) : WSame a a := ⟨same_refl a.s, fun _ => rfl⟩

theorem wsame_symm {a b : WState V} (h : WSame a b) : WSame b a :=
  ⟨same_symm h.1, fun k => Eq.symm (h.2 k)⟩

theorem wsame_trans {a b c : WState V} (h1 : WSame a b) (h2 : WSame b c) : WSame a c :=
  ⟨same_trans h1.1 h2.1, fun k => Eq.trans (h1.2 k) (h2.2 k)⟩

theorem act_baseProg (wp : WProg V) (i : Nat) (st : WState V) {A : Act V}
    (h : wact wp i st = WAct.base A) : act (baseProg wp) i st.s = A := by
  show baseOf _ _ (wact wp i st) = A
  rw [h]
  rfl

theorem wnext_base (memb : Nat → Nat → Bool) (wp : WProg V) (N i : Nat) (st : WState V)
    {A : Act V} (h : wact wp i st = WAct.base A) :
    wnext memb wp N i st = ⟨next (baseProg wp) N i st.s, st.cw⟩ := by
  show wnextA memb wp N i st (wact wp i st) = _
  rw [h]
  rfl

theorem wnext_coll (memb : Nat → Nat → Bool) (wp : WProg V) (N i : Nat) (st : WState V)
    {g : Nat} {v : Nat → V} {res : ExtFun V} {pc : Nat} (h : wact wp i st = WAct.coll g v res pc) :
    wnext memb wp N i st =
      ⟨⟨collTh memb (doneW memb N g i st.cw) g i pc res (cvec memb g i v st.cw) st.s.th st.cw,
          st.s.mem, st.s.arr⟩,
        collCw memb (doneW memb N g i st.cw) g i ⟨g, v, res, pc⟩ st.cw⟩ := by
  show wnextA memb wp N i st (wact wp i st) = _
  rw [h]
  rfl

theorem allW_congr (ok ok' : Nat → Bool) : ∀ n, (∀ k, k < n → ok k = ok' k) →
    allW ok n = allW ok' n := by
  intro n
  induction n with
  | zero => intro _; rfl
  | succ n ih =>
    intro h
    show (allW ok n && ok n) = (allW ok' n && ok' n)
    rw [ih (fun k hk => h k (Nat.leStep hk)), h n (Nat.leRefl (n + 1))]

theorem allW_get (ok : Nat → Bool) : ∀ n, allW ok n = true → ∀ k, k < n → ok k = true := by
  intro n
  induction n with
  | zero => intro _ k hk; exact False.elim (Nat.notLtZero k hk)
  | succ n ih =>
    intro h k hk
    have h1 : allW ok n = true := and_left' h
    have h2 : ok n = true := and_right' h
    cases Nat.decEq k n with
    | isTrue e => rw [e]; exact h2
    | isFalse e => exact ih h1 k (Nat.ltOfLeOfNe (Nat.leOfLtSucc hk) e)

theorem relW_none (cv : Nat → Option (Nat → V)) (t : TState V) : relW cv none t = t := rfl

theorem relW_status (cv : Nat → Option (Nat → V)) (o : Option (Wait V)) (t : TState V) :
    (relW cv o t).status = t.status := by
  cases o <;> rfl

theorem relW_cv (cv cv' : Nat → Option (Nat → V)) (h : ∀ k, cv k = cv' k) (o : Option (Wait V))
    (t : TState V) : relW cv o t = relW cv' o t := by
  cases o with
  | none => rfl
  | some w =>
    show TState.mk w.pc (w.res.f cv) t.status = TState.mk w.pc (w.res.f cv') t.status
    rw [w.res.ext cv cv' h]

theorem relK_status (memb : Nat → Nat → Bool) (d : Bool) (g : Nat) (cv : Nat → Option (Nat → V))
    (k : Nat) (t : TState V) (o : Option (Wait V)) : (relK memb d g cv k t o).status = t.status := by
  show (cond (relB memb d g k o) (relW cv o t) t).status = t.status
  cases relB memb d g k o with
  | true => exact relW_status cv o t
  | false => rfl

theorem selfT_status (d : Bool) (pc : Nat) (r : Nat → V) (t : TState V) :
    (selfT d pc r t).status = t.status := by
  cases d <;> rfl

theorem collTh_self (memb : Nat → Nat → Bool) (d : Bool) (g i pc : Nat) (res : ExtFun V)
    (cv : Nat → Option (Nat → V)) (th : Nat → TState V) (cw : Nat → Option (Wait V)) :
    collTh memb d g i pc res cv th cw i = selfT d pc (res.f cv) (th i) :=
  upd_same (fun k => relK memb d g cv k (th k) (cw k)) i _

theorem collTh_other (memb : Nat → Nat → Bool) (d : Bool) (g i pc : Nat) (res : ExtFun V)
    (cv : Nat → Option (Nat → V)) (th : Nat → TState V) (cw : Nat → Option (Wait V)) {k : Nat}
    (hk : k ≠ i) : collTh memb d g i pc res cv th cw k = relK memb d g cv k (th k) (cw k) :=
  upd_other (fun k => relK memb d g cv k (th k) (cw k)) _ hk

theorem collCw_self (memb : Nat → Nat → Bool) (d : Bool) (g i : Nat) (w : Wait V)
    (cw : Nat → Option (Wait V)) : collCw memb d g i w cw i = cond d none (some w) :=
  upd_same (fun k => cond (relB memb d g k (cw k)) none (cw k)) i _

theorem collCw_other (memb : Nat → Nat → Bool) (d : Bool) (g i : Nat) (w : Wait V)
    (cw : Nat → Option (Wait V)) {k : Nat} (hk : k ≠ i) :
    collCw memb d g i w cw k = cond (relB memb d g k (cw k)) none (cw k) :=
  upd_other (fun k => cond (relB memb d g k (cw k)) none (cw k)) _ hk

theorem collTh_status (memb : Nat → Nat → Bool) (d : Bool) (g i pc : Nat) (res : ExtFun V)
    (cv : Nat → Option (Nat → V)) (th : Nat → TState V) (cw : Nat → Option (Wait V)) (k : Nat) :
    (collTh memb d g i pc res cv th cw k).status = (th k).status := by
  cases Nat.decEq k i with
  | isTrue e =>
    rw [e, collTh_self]
    exact selfT_status _ _ _ _
  | isFalse e =>
    rw [collTh_other _ _ _ _ _ _ _ _ _ e]
    exact relK_status _ _ _ _ _ _ _

/-- A thread that does not wait is not touched by another thread's arrival. -/
theorem collTh_other_none (memb : Nat → Nat → Bool) (d : Bool) (g i pc : Nat) (res : ExtFun V)
    (cv : Nat → Option (Nat → V)) (th : Nat → TState V) (cw : Nat → Option (Wait V)) {k : Nat}
    (hk : k ≠ i) (hn : cw k = none) : collTh memb d g i pc res cv th cw k = th k := by
  rw [collTh_other _ _ _ _ _ _ _ _ _ hk]
  show cond (relB memb d g k (cw k)) (relW cv (cw k) (th k)) (th k) = th k
  rw [hn]
  cases relB memb d g k none <;> rfl

theorem collCw_other_none (memb : Nat → Nat → Bool) (d : Bool) (g i : Nat) (w : Wait V)
    (cw : Nat → Option (Wait V)) {k : Nat} (hk : k ≠ i) (hn : cw k = none) :
    collCw memb d g i w cw k = none := by
  rw [collCw_other _ _ _ _ _ _ hk]
  rw [hn]
  cases relB memb d g k none <;> rfl

/-- Another thread's step leaves a running, non-waiting thread alone, and it does not wait
afterwards. -/
theorem wnext_other (memb : Nat → Nat → Bool) (wp : WProg V) (N j : Nat) (st : WState V) {i : Nat}
    (hij : i ≠ j) (hr : (st.s.th i).status = Status.run) (hn : st.cw i = none) :
    (wnext memb wp N j st).s.th i = st.s.th i ∧ (wnext memb wp N j st).cw i = none := by
  cases h : wact wp j st with
  | base B =>
    rw [wnext_base memb wp N j st h]
    exact ⟨next_th_run (baseProg wp) N j st.s hij hr, hn⟩
  | coll g v res pc =>
    rw [wnext_coll memb wp N j st h]
    exact ⟨collTh_other_none memb _ g j pc res _ st.s.th st.cw hij hn,
      collCw_other_none memb _ g j _ st.cw hij hn⟩

theorem wact_other (memb : Nat → Nat → Bool) (wp : WProg V) (N j : Nat) (st : WState V) {i : Nat}
    (hij : i ≠ j) (hr : (st.s.th i).status = Status.run) (hn : st.cw i = none) :
    wact wp i (wnext memb wp N j st) = wact wp i st := by
  show wp i _ _ = wp i _ _
  rw [(wnext_other memb wp N j st hij hr hn).1]

end Basic

section Congr

variable {V : Type} [AccAdd V]

theorem doneW_congr (memb : Nat → Nat → Bool) (N g i : Nat) {cw cw' : Nat → Option (Wait V)}
    (h : ∀ k, waitsAt g (cw k) = waitsAt g (cw' k)) : doneW memb N g i cw = doneW memb N g i cw' :=
  allW_congr _ _ N (fun k _ => by
    show (!memb g k || decide (k = i) || waitsAt g (cw k)) = (!memb g k || decide (k = i) || waitsAt g (cw' k))
    rw [h k])

theorem cvec_congr (memb : Nat → Nat → Bool) (g i : Nat) (v : Nat → V) {cw cw' : Nat → Option (Wait V)}
    (h : ∀ k, contribAt g (cw k) = contribAt g (cw' k)) (k : Nat) :
    cvec memb g i v cw k = cvec memb g i v cw' k := by
  show cond (memb g k) (if k = i then some v else contribAt g (cw k)) none =
    cond (memb g k) (if k = i then some v else contribAt g (cw' k)) none
  rw [h k]

theorem relK_congr (memb : Nat → Nat → Bool) (d : Bool) (g : Nat) {cv cv' : Nat → Option (Nat → V)}
    (hcv : ∀ k, cv k = cv' k) (k : Nat) (t : TState V) (o : Option (Wait V)) :
    relK memb d g cv k t o = relK memb d g cv' k t o := by
  show cond (relB memb d g k o) (relW cv o t) t = cond (relB memb d g k o) (relW cv' o t) t
  rw [relW_cv cv cv' hcv]

theorem collTh_congr (memb : Nat → Nat → Bool) (d : Bool) (g i pc : Nat) (res : ExtFun V)
    {cv cv' : Nat → Option (Nat → V)} {th th' : Nat → TState V} {cw cw' : Nat → Option (Wait V)}
    (hcv : ∀ k, cv k = cv' k) (hth : ∀ k, th k = th' k) (hcw : ∀ k, cw k = cw' k) (k : Nat) :
    collTh memb d g i pc res cv th cw k = collTh memb d g i pc res cv' th' cw' k := by
  cases Nat.decEq k i with
  | isTrue e =>
    rw [e, collTh_self, collTh_self, hth i, res.ext cv cv' hcv]
  | isFalse e =>
    rw [collTh_other _ _ _ _ _ _ _ _ _ e, collTh_other _ _ _ _ _ _ _ _ _ e, hth k, hcw k]
    exact relK_congr memb d g hcv k _ _

theorem collCw_congr (memb : Nat → Nat → Bool) (d : Bool) (g i : Nat) (w : Wait V)
    {cw cw' : Nat → Option (Wait V)} (hcw : ∀ k, cw k = cw' k) (k : Nat) :
    collCw memb d g i w cw k = collCw memb d g i w cw' k := by
  cases Nat.decEq k i with
  | isTrue e => rw [e, collCw_self, collCw_self]
  | isFalse e => rw [collCw_other _ _ _ _ _ _ e, collCw_other _ _ _ _ _ _ e, hcw k]

/-- `wnext` respects pointwise equality. -/
theorem wnext_congr (memb : Nat → Nat → Bool) (wp : WProg V) (N i : Nat) {a b : WState V}
    (h : WSame a b) : WSame (wnext memb wp N i a) (wnext memb wp N i b) := by
  have hact : wact wp i a = wact wp i b := by
    show wp i _ _ = wp i _ _
    rw [h.1.1 i]
  cases hA : wact wp i a with
  | base A =>
    have hB : wact wp i b = WAct.base A := by rw [← hact]; exact hA
    rw [wnext_base memb wp N i a hA, wnext_base memb wp N i b hB]
    exact ⟨next_congr (baseProg wp) N i h.1, h.2⟩
  | coll g v res pc =>
    have hB : wact wp i b = WAct.coll g v res pc := by rw [← hact]; exact hA
    rw [wnext_coll memb wp N i a hA, wnext_coll memb wp N i b hB]
    have hd : doneW memb N g i a.cw = doneW memb N g i b.cw :=
      doneW_congr memb N g i (fun k => by rw [h.2 k])
    have hcv : ∀ k, cvec memb g i v a.cw k = cvec memb g i v b.cw k :=
      cvec_congr memb g i v (fun k => by rw [h.2 k])
    refine ⟨⟨?_, h.1.2.1, h.1.2.2⟩, ?_⟩
    · intro k
      show collTh memb (doneW memb N g i a.cw) g i pc res (cvec memb g i v a.cw) a.s.th a.cw k =
        collTh memb (doneW memb N g i b.cw) g i pc res (cvec memb g i v b.cw) b.s.th b.cw k
      rw [hd]
      exact collTh_congr memb _ g i pc res hcv h.1.1 h.2 k
    · intro k
      show collCw memb (doneW memb N g i a.cw) g i _ a.cw k =
        collCw memb (doneW memb N g i b.cw) g i _ b.cw k
      rw [hd]
      exact collCw_congr memb _ g i _ h.2 k

end Congr

section Commute

variable {V : Type} [AccAdd V]

theorem relAt_mk (b pc : Nat) (r : Nat → V) (t : TState V) :
    relAt b (TState.mk pc r t.status) = TState.mk pc r (relAt b t).status := by
  cases t with
  | mk tp tr ts =>
    cases ts with
    | run => rfl
    | exited => rfl
    | bar c =>
      show cond (decide (c = b)) (TState.mk pc r Status.run) (TState.mk pc r (Status.bar c)) =
        TState.mk pc r (cond (decide (c = b)) (TState.mk tp tr Status.run)
          (TState.mk tp tr (Status.bar c))).status
      cases decide (c = b) <;> rfl

/-- Another thread's `Sem` action and the release of a waiting lane commute. -/
theorem effOther_relK (A : Act V) (f : Bool) (memb : Nat → Nat → Bool) (d : Bool) (g : Nat)
    (cv : Nat → Option (Nat → V)) (k : Nat) (t : TState V) (o : Option (Wait V)) :
    effOther A f (relK memb d g cv k t o) = relK memb d g cv k (effOther A f t) o := by
  show effOther A f (cond (relB memb d g k o) (relW cv o t) t) =
    cond (relB memb d g k o) (relW cv o (effOther A f t)) (effOther A f t)
  cases relB memb d g k o with
  | false => rfl
  | true =>
    cases o with
    | none => rfl
    | some w =>
      cases A with
      | compute pc r => rfl
      | read a r pc => rfl
      | write a v pc => rfl
      | atomAdd a v pc => rfl
      | exit => rfl
      | arrive b n w' pc =>
        cases f with
        | false => rfl
        | true => exact relAt_mk b w.pc (w.res.f cv) t

theorem firesA_status (N : Nat) (A : Act V) {s t : CState V}
    (h : ∀ k, (s.th k).status = (t.th k).status) (ha : ∀ b, s.arr b = t.arr b) :
    firesA N A s = firesA N A t := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl
  | arrive b n w pc =>
    show decide (n ≤ countAt b s.th N + s.arr b + 1) = decide (n ≤ countAt b t.th N + t.arr b + 1)
    rw [countAt_congr b s.th t.th (fun k => by rw [h k]) N, ha b]

/-- A collective arrival of `i` and a `Sem` action of another thread `j` commute. -/
theorem comm_coll_base (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) (st : WState V)
    {i j : Nat} (hij : i ≠ j) (hri : (st.s.th i).status = Status.run)
    (hrj : (st.s.th j).status = Status.run) (hni : st.cw i = none) (hnj : st.cw j = none)
    {g : Nat} {v : Nat → V} {res : ExtFun V} {pc : Nat} {B : Act V}
    (hA : wact wp i st = WAct.coll g v res pc) (hB : wact wp j st = WAct.base B) :
    WSame (wnext memb wp N j (wnext memb wp N i st)) (wnext memb wp N i (wnext memb wp N j st)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have hB' : wact wp j (wnext memb wp N i st) = WAct.base B := by
    rw [wact_other memb wp N i st hji hrj hnj]; exact hB
  have hA' : wact wp i (wnext memb wp N j st) = WAct.coll g v res pc := by
    rw [wact_other memb wp N j st hij hri hni]; exact hA
  rw [wnext_base memb wp N j (wnext memb wp N i st) hB', wnext_coll memb wp N i st hA,
    wnext_coll memb wp N i (wnext memb wp N j st) hA', wnext_base memb wp N j st hB]
  -- the state after `i`'s arrival, as a `CState`
  let d := doneW memb N g i st.cw
  let cv := cvec memb g i v st.cw
  let s1 : CState V := ⟨collTh memb d g i pc res cv st.s.th st.cw, st.s.mem, st.s.arr⟩
  have hthj : s1.th j = st.s.th j := collTh_other_none memb d g i pc res cv st.s.th st.cw hji hnj
  have hact : act (baseProg wp) j s1 = act (baseProg wp) j st.s := by
    show baseProg wp j (s1.th j).pc (s1.th j).regs = baseProg wp j (st.s.th j).pc (st.s.th j).regs
    rw [hthj]
  have hf : firesA N (act (baseProg wp) j st.s) s1 = firesA N (act (baseProg wp) j st.s) st.s :=
    firesA_status N _ (fun k => collTh_status memb d g i pc res cv st.s.th st.cw k) (fun _ => rfl)
  refine ⟨⟨?_, ?_, ?_⟩, fun _ => rfl⟩
  · intro k
    show (next (baseProg wp) N j s1).th k =
      collTh memb d g i pc res cv (next (baseProg wp) N j st.s).th st.cw k
    cases Nat.decEq k j with
    | isTrue e =>
      rw [e, next_th_self, hact, hf, hthj,
        collTh_other_none memb d g i pc res cv _ st.cw hji hnj, next_th_self]
    | isFalse e =>
      rw [next_th_other _ N j s1 e, hact, hf]
      have hs1 : s1.th k = collTh memb d g i pc res cv st.s.th st.cw k := rfl
      rw [hs1]
      cases Nat.decEq k i with
      | isTrue e' =>
        rw [e', collTh_self, collTh_self, next_th_run (baseProg wp) N j st.s hij hri]
        apply effOther_run
        rw [selfT_status]
        exact hri
      | isFalse e' =>
        rw [collTh_other _ _ _ _ _ _ _ _ _ e', collTh_other _ _ _ _ _ _ _ _ _ e',
          next_th_other _ N j st.s e]
        exact effOther_relK _ _ memb d g cv k _ _
  · intro x
    show (next (baseProg wp) N j s1).mem x = (next (baseProg wp) N j st.s).mem x
    rw [next_mem, next_mem, hact]
  · intro x
    show (next (baseProg wp) N j s1).arr x = (next (baseProg wp) N j st.s).arr x
    rw [next_arr, next_arr, hact, hf]

end Commute

section CommColl

variable {V : Type} [AccAdd V]

theorem and_false' (b : Bool) : (b && false) = false := by cases b <;> rfl

theorem or_true' (b : Bool) : (b || true) = true := by cases b <;> rfl

theorem relB_none (memb : Nat → Nat → Bool) (d : Bool) (g k : Nat) :
    relB memb d g k (none : Option (Wait V)) = false :=
  and_false' _

theorem waitsAt_key {g h : Nat} {o : Option (Wait V)} (hw : waitsAt g o = true) (hgh : g ≠ h) :
    waitsAt h o = false ∧ contribAt h o = none := by
  cases o with
  | none => exact ⟨rfl, rfl⟩
  | some w =>
    have hk : w.key = g := of_decide_eq_true' hw
    have hne : ¬w.key = h := fun e => hgh (Eq.trans (Eq.symm hk) e)
    exact ⟨decide_eq_false' hne, if_neg' hne⟩

theorem relB_key (memb : Nat → Nat → Bool) {d : Bool} {g h k : Nat} {o : Option (Wait V)}
    (hr : relB memb d g k o = true) (hgh : g ≠ h) (d' : Bool) : relB memb d' h k o = false := by
  show (d' && memb h k && waitsAt h o) = false
  rw [(waitsAt_key (and_right' hr) hgh).1]
  exact and_false' _

theorem relK_nowait (memb : Nat → Nat → Bool) (d : Bool) (g : Nat) (cv : Nat → Option (Nat → V))
    (k : Nat) (t : TState V) {o : Option (Wait V)} (hw : waitsAt g o = false) :
    relK memb d g cv k t o = t := by
  show cond (d && memb g k && waitsAt g o) (relW cv o t) t = t
  rw [hw, and_false']
  rfl

theorem relC_nowait (memb : Nat → Nat → Bool) (d : Bool) (g k : Nat) {o : Option (Wait V)}
    (hw : waitsAt g o = false) : cond (relB memb d g k o) none o = o := by
  show cond (d && memb g k && waitsAt g o) none o = o
  rw [hw, and_false']
  rfl

/-- Releases of one thread by two instances with different keys commute (at most one of them
releases it). -/
theorem relK_comm_key (memb : Nat → Nat → Bool) (d1 d2 : Bool) {g h : Nat} (hgh : g ≠ h)
    (cv1 cv2 : Nat → Option (Nat → V)) (k : Nat) (t : TState V) (o : Option (Wait V)) :
    relK memb d2 h cv2 k (relK memb d1 g cv1 k t o) (cond (relB memb d1 g k o) none o) =
      relK memb d1 g cv1 k (relK memb d2 h cv2 k t o) (cond (relB memb d2 h k o) none o) := by
  have key1 : relB memb d1 g k o = true → relB memb d2 h k o = false :=
    fun h1 => relB_key memb h1 hgh d2
  show cond (relB memb d2 h k (cond (relB memb d1 g k o) none o))
      (relW cv2 (cond (relB memb d1 g k o) none o) (cond (relB memb d1 g k o) (relW cv1 o t) t))
      (cond (relB memb d1 g k o) (relW cv1 o t) t) =
    cond (relB memb d1 g k (cond (relB memb d2 h k o) none o))
      (relW cv1 (cond (relB memb d2 h k o) none o) (cond (relB memb d2 h k o) (relW cv2 o t) t))
      (cond (relB memb d2 h k o) (relW cv2 o t) t)
  cases h1 : relB memb d1 g k o with
  | true =>
    have h2 := key1 h1
    rw [h2]
    simp only [cond_true', cond_false', relB_none, h1] <;> rfl
  | false =>
    cases h2 : relB memb d2 h k o with
    | true => simp only [cond_true', cond_false', relB_none, h1] <;> rfl
    | false => simp only [cond_true', cond_false', h1, h2] <;> rfl

theorem relC_comm_key (memb : Nat → Nat → Bool) (d1 d2 : Bool) {g h : Nat} (hgh : g ≠ h) (k : Nat)
    (o : Option (Wait V)) :
    cond (relB memb d2 h k (cond (relB memb d1 g k o) none o)) none (cond (relB memb d1 g k o) none o) =
      cond (relB memb d1 g k (cond (relB memb d2 h k o) none o)) none (cond (relB memb d2 h k o) none o) := by
  have key1 : relB memb d1 g k o = true → relB memb d2 h k o = false :=
    fun h1 => relB_key memb h1 hgh d2
  cases h1 : relB memb d1 g k o with
  | true =>
    have h2 := key1 h1
    rw [h2]
    simp only [cond_true', cond_false', relB_none, h1] <;> rfl
  | false =>
    cases h2 : relB memb d2 h k o with
    | true => simp only [cond_true', cond_false', relB_none, h1] <;> rfl
    | false => simp only [cond_true', cond_false', h1, h2] <;> rfl

/-- After `i` (not waiting before) arrives at `g`, who waits at another key `h` and what they
contribute to it is as before. -/
theorem collCw_key (memb : Nat → Nat → Bool) (d : Bool) {g h : Nat} (hgh : g ≠ h) (i : Nat)
    (v : Nat → V) (res : ExtFun V) (pc : Nat) (cw : Nat → Option (Wait V)) (hni : cw i = none)
    (k : Nat) :
    waitsAt h (collCw memb d g i ⟨g, v, res, pc⟩ cw k) = waitsAt h (cw k) ∧
      contribAt h (collCw memb d g i ⟨g, v, res, pc⟩ cw k) = contribAt h (cw k) := by
  cases Nat.decEq k i with
  | isTrue e =>
    rw [e, collCw_self, hni]
    cases d with
    | true => exact ⟨rfl, rfl⟩
    | false => exact waitsAt_key (o := some ⟨g, v, res, pc⟩) (decide_eq_true' rfl) hgh
  | isFalse e =>
    rw [collCw_other _ _ _ _ _ _ e]
    cases hr : relB memb d g k (cw k) with
    | false => exact ⟨rfl, rfl⟩
    | true =>
      have hw := waitsAt_key (and_right' hr) hgh
      rw [hw.1, hw.2]
      exact ⟨rfl, rfl⟩

theorem collTh_cv (memb : Nat → Nat → Bool) (d : Bool) (g i pc : Nat) (res : ExtFun V)
    {cv cv' : Nat → Option (Nat → V)} {th : Nat → TState V} {cw : Nat → Option (Wait V)}
    (hcv : ∀ k, cv k = cv' k) (k : Nat) :
    collTh memb d g i pc res cv th cw k = collTh memb d g i pc res cv' th cw k :=
  collTh_congr memb d g i pc res hcv (fun _ => rfl) (fun _ => rfl) k

/-- Two collective arrivals of different threads at instances with different keys commute. -/
theorem comm_coll_coll_ne (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) (st : WState V)
    {i j : Nat} (hij : i ≠ j) (hri : (st.s.th i).status = Status.run)
    (hrj : (st.s.th j).status = Status.run) (hni : st.cw i = none) (hnj : st.cw j = none)
    {g h : Nat} {v u : Nat → V} {res rs : ExtFun V} {pc pj : Nat} (hgh : g ≠ h)
    (hA : wact wp i st = WAct.coll g v res pc) (hB : wact wp j st = WAct.coll h u rs pj) :
    WSame (wnext memb wp N j (wnext memb wp N i st)) (wnext memb wp N i (wnext memb wp N j st)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have hhg : h ≠ g := fun e => hgh (Eq.symm e)
  have hB' : wact wp j (wnext memb wp N i st) = WAct.coll h u rs pj := by
    rw [wact_other memb wp N i st hji hrj hnj]; exact hB
  have hA' : wact wp i (wnext memb wp N j st) = WAct.coll g v res pc := by
    rw [wact_other memb wp N j st hij hri hni]; exact hA
  rw [wnext_coll memb wp N j (wnext memb wp N i st) hB', wnext_coll memb wp N i st hA,
    wnext_coll memb wp N i (wnext memb wp N j st) hA', wnext_coll memb wp N j st hB]
  let D1 := doneW memb N g i st.cw
  let D2 := doneW memb N h j st.cw
  let CV1 := cvec memb g i v st.cw
  let CV2 := cvec memb h j u st.cw
  let cw1 := collCw memb D1 g i ⟨g, v, res, pc⟩ st.cw
  let cw2 := collCw memb D2 h j ⟨h, u, rs, pj⟩ st.cw
  let th1 := collTh memb D1 g i pc res CV1 st.s.th st.cw
  let th2 := collTh memb D2 h j pj rs CV2 st.s.th st.cw
  have hw1 := collCw_key memb D1 hgh i v res pc st.cw hni
  have hw2 := collCw_key memb D2 hhg j u rs pj st.cw hnj
  have hd2 : doneW memb N h j cw1 = D2 := doneW_congr memb N h j (fun k => (hw1 k).1)
  have hd1 : doneW memb N g i cw2 = D1 := doneW_congr memb N g i (fun k => (hw2 k).1)
  have hcv2 : ∀ k, cvec memb h j u cw1 k = CV2 k := cvec_congr memb h j u (fun k => (hw1 k).2)
  have hcv1 : ∀ k, cvec memb g i v cw2 k = CV1 k := cvec_congr memb g i v (fun k => (hw2 k).2)
  refine ⟨⟨?_, ?_, ?_⟩, ?_⟩
  · intro k
    show collTh memb (doneW memb N h j cw1) h j pj rs (cvec memb h j u cw1) th1 cw1 k =
      collTh memb (doneW memb N g i cw2) g i pc res (cvec memb g i v cw2) th2 cw2 k
    rw [hd2, hd1, collTh_cv memb D2 h j pj rs hcv2 k, collTh_cv memb D1 g i pc res hcv1 k]
    cases Nat.decEq k i with
    | isTrue e =>
      have hwi : waitsAt h (cw1 i) = false := by rw [(hw1 i).1, hni]; rfl
      rw [e, collTh_other _ _ _ _ _ _ _ _ _ hij, relK_nowait memb D2 h CV2 i _ hwi]
      show collTh memb D1 g i pc res CV1 st.s.th st.cw i = collTh memb D1 g i pc res CV1 th2 cw2 i
      rw [collTh_self, collTh_self]
      show selfT D1 pc (res.f CV1) (st.s.th i) = selfT D1 pc (res.f CV1) (collTh memb D2 h j pj rs CV2 st.s.th st.cw i)
      rw [collTh_other_none memb D2 h j pj rs CV2 st.s.th st.cw hij hni]
    | isFalse e =>
      cases Nat.decEq k j with
      | isTrue e' =>
        have hwj : waitsAt g (cw2 j) = false := by rw [(hw2 j).1, hnj]; rfl
        rw [e', collTh_other _ _ _ _ _ _ _ _ _ hji, relK_nowait memb D1 g CV1 j _ hwj]
        show collTh memb D2 h j pj rs CV2 th1 cw1 j = collTh memb D2 h j pj rs CV2 st.s.th st.cw j
        rw [collTh_self, collTh_self]
        show selfT D2 pj (rs.f CV2) (collTh memb D1 g i pc res CV1 st.s.th st.cw j) = _
        rw [collTh_other_none memb D1 g i pc res CV1 st.s.th st.cw hji hnj]
      | isFalse e' =>
        rw [collTh_other _ _ _ _ _ _ _ _ _ e', collTh_other _ _ _ _ _ _ _ _ _ e]
        show relK memb D2 h CV2 k (collTh memb D1 g i pc res CV1 st.s.th st.cw k)
            (collCw memb D1 g i ⟨g, v, res, pc⟩ st.cw k) =
          relK memb D1 g CV1 k (collTh memb D2 h j pj rs CV2 st.s.th st.cw k)
            (collCw memb D2 h j ⟨h, u, rs, pj⟩ st.cw k)
        rw [collTh_other _ _ _ _ _ _ _ _ _ e', collTh_other _ _ _ _ _ _ _ _ _ e,
          collCw_other _ _ _ _ _ _ e', collCw_other _ _ _ _ _ _ e]
        exact relK_comm_key memb D1 D2 hgh CV1 CV2 k _ _
  · intro x; exact (rfl : st.s.mem x = st.s.mem x)
  · intro x; exact (rfl : st.s.arr x = st.s.arr x)
  · intro k
    show collCw memb (doneW memb N h j cw1) h j ⟨h, u, rs, pj⟩ cw1 k =
      collCw memb (doneW memb N g i cw2) g i ⟨g, v, res, pc⟩ cw2 k
    rw [hd2, hd1]
    cases Nat.decEq k i with
    | isTrue e =>
      have hwi : waitsAt h (cw1 i) = false := by rw [(hw1 i).1, hni]; rfl
      rw [e, collCw_other _ _ _ _ _ _ hij, relC_nowait memb D2 h i hwi, collCw_self]
      show collCw memb D1 g i ⟨g, v, res, pc⟩ st.cw i = _
      rw [collCw_self]
    | isFalse e =>
      cases Nat.decEq k j with
      | isTrue e' =>
        have hwj : waitsAt g (cw2 j) = false := by rw [(hw2 j).1, hnj]; rfl
        rw [e', collCw_other _ _ _ _ _ _ hji, relC_nowait memb D1 g j hwj, collCw_self]
        show _ = collCw memb D2 h j ⟨h, u, rs, pj⟩ st.cw j
        rw [collCw_self]
      | isFalse e' =>
        rw [collCw_other _ _ _ _ _ _ e', collCw_other _ _ _ _ _ _ e]
        show cond (relB memb D2 h k (collCw memb D1 g i ⟨g, v, res, pc⟩ st.cw k)) none
            (collCw memb D1 g i ⟨g, v, res, pc⟩ st.cw k) =
          cond (relB memb D1 g k (collCw memb D2 h j ⟨h, u, rs, pj⟩ st.cw k)) none
            (collCw memb D2 h j ⟨h, u, rs, pj⟩ st.cw k)
        rw [collCw_other _ _ _ _ _ _ e', collCw_other _ _ _ _ _ _ e]
        exact relC_comm_key memb D1 D2 hgh k _

end CommColl

section CommSame

variable {V : Type} [AccAdd V]

theorem relB_self_wait (memb : Nat → Nat → Bool) (D : Bool) {g i : Nat} (hm : memb g i = true)
    (v : Nat → V) (res : ExtFun V) (pc : Nat) :
    relB memb D g i (some (⟨g, v, res, pc⟩ : Wait V)) = D := by
  show (D && memb g i && decide (g = g)) = D
  rw [hm, decide_eq_true' (rfl : g = g)]
  cases D <;> rfl

theorem relK_self_wait (memb : Nat → Nat → Bool) (D : Bool) {g i : Nat} (hm : memb g i = true)
    (cv : Nat → Option (Nat → V)) (t : TState V) (v : Nat → V) (res : ExtFun V) (pc : Nat) :
    relK memb D g cv i t (some ⟨g, v, res, pc⟩) = selfT D pc (res.f cv) t := by
  show cond (relB memb D g i (some ⟨g, v, res, pc⟩)) (TState.mk pc (res.f cv) t.status) t =
    cond D (TState.mk pc (res.f cv) t.status) t
  rw [relB_self_wait memb D hm v res pc]

theorem collTh_false (memb : Nat → Nat → Bool) (g i pc : Nat) (res : ExtFun V)
    (cv : Nat → Option (Nat → V)) (th : Nat → TState V) (cw : Nat → Option (Wait V)) (k : Nat) :
    collTh memb false g i pc res cv th cw k = th k := by
  cases Nat.decEq k i with
  | isTrue e => rw [e, collTh_self]; rfl
  | isFalse e => rw [collTh_other _ _ _ _ _ _ _ _ _ e]; rfl

theorem contribAt_self (g : Nat) (v : Nat → V) (res : ExtFun V) (pc : Nat) :
    contribAt g (some (⟨g, v, res, pc⟩ : Wait V)) = some v := if_pos' rfl

theorem waitsAt_self (g : Nat) (v : Nat → V) (res : ExtFun V) (pc : Nat) :
    waitsAt g (some (⟨g, v, res, pc⟩ : Wait V)) = true := decide_eq_true' rfl

/-- An arrival of `i` at `g` does not complete it while another lane `j` of `g` (with `j < N`)
does not wait. -/
theorem doneW_false (memb : Nat → Nat → Bool) {N g i j : Nat} (cw : Nat → Option (Wait V))
    (hj : j < N) (hji : j ≠ i) (hm : memb g j = true) (hn : cw j = none) :
    doneW memb N g i cw = false := by
  cases hd : doneW memb N g i cw with
  | false => rfl
  | true =>
    have hok := allW_get (okW memb g i cw) N hd j hj
    have h0 : okW memb g i cw j = false := by
      show (!memb g j || decide (j = i) || waitsAt g (cw j)) = false
      rw [hm, decide_eq_false' hji, hn]
      rfl
    rw [h0] at hok
    cases hok

/-- Two arrivals of different lanes at one collective instance commute: if the second
completes it, it does so in both orders, with the same vector of contributions. -/
theorem comm_coll_coll_eq (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) (st : WState V)
    {i j : Nat} (hij : i ≠ j) (hi : i < N) (hj : j < N) (hri : (st.s.th i).status = Status.run)
    (hrj : (st.s.th j).status = Status.run) (hni : st.cw i = none) (hnj : st.cw j = none)
    (hoi : OwnAt memb wp i st) (hoj : OwnAt memb wp j st) {g : Nat} {v u : Nat → V}
    {res rs : ExtFun V} {pc pj : Nat}
    (hA : wact wp i st = WAct.coll g v res pc) (hB : wact wp j st = WAct.coll g u rs pj) :
    WSame (wnext memb wp N j (wnext memb wp N i st)) (wnext memb wp N i (wnext memb wp N j st)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have hmi : memb g i = true := hoi g v res pc hA
  have hmj : memb g j = true := hoj g u rs pj hB
  have hd1 : doneW memb N g i st.cw = false := doneW_false memb st.cw hj hji hmj hnj
  have hd2 : doneW memb N g j st.cw = false := doneW_false memb st.cw hi hij hmi hni
  have hB' : wact wp j (wnext memb wp N i st) = WAct.coll g u rs pj := by
    rw [wact_other memb wp N i st hji hrj hnj]; exact hB
  have hA' : wact wp i (wnext memb wp N j st) = WAct.coll g v res pc := by
    rw [wact_other memb wp N j st hij hri hni]; exact hA
  rw [wnext_coll memb wp N j (wnext memb wp N i st) hB', wnext_coll memb wp N i st hA,
    wnext_coll memb wp N i (wnext memb wp N j st) hA', wnext_coll memb wp N j st hB, hd1, hd2]
  let cw1 := collCw memb false g i ⟨g, v, res, pc⟩ st.cw
  let cw2 := collCw memb false g j ⟨g, u, rs, pj⟩ st.cw
  let th1 := collTh memb false g i pc res (cvec memb g i v st.cw) st.s.th st.cw
  let th2 := collTh memb false g j pj rs (cvec memb g j u st.cw) st.s.th st.cw
  have hc1i : cw1 i = some ⟨g, v, res, pc⟩ := by
    show collCw memb false g i ⟨g, v, res, pc⟩ st.cw i = _
    rw [collCw_self]
    rfl
  have hc2j : cw2 j = some ⟨g, u, rs, pj⟩ := by
    show collCw memb false g j ⟨g, u, rs, pj⟩ st.cw j = _
    rw [collCw_self]
    rfl
  have hc1o : ∀ k, k ≠ i → cw1 k = st.cw k := by
    intro k hk
    show collCw memb false g i ⟨g, v, res, pc⟩ st.cw k = _
    rw [collCw_other _ _ _ _ _ _ hk]
    rfl
  have hc2o : ∀ k, k ≠ j → cw2 k = st.cw k := by
    intro k hk
    show collCw memb false g j ⟨g, u, rs, pj⟩ st.cw k = _
    rw [collCw_other _ _ _ _ _ _ hk]
    rfl
  have ht1 : ∀ k, th1 k = st.s.th k := collTh_false memb g i pc res _ st.s.th st.cw
  have ht2 : ∀ k, th2 k = st.s.th k := collTh_false memb g j pj rs _ st.s.th st.cw
  have hD : doneW memb N g j cw1 = doneW memb N g i cw2 :=
    allW_congr _ _ N (fun k _ => by
      show (!memb g k || decide (k = j) || waitsAt g (cw1 k)) =
        (!memb g k || decide (k = i) || waitsAt g (cw2 k))
      cases Nat.decEq k i with
      | isTrue e =>
        rw [e, hc1i, hc2o i hij, hni, decide_eq_false' hij, decide_eq_true' (rfl : i = i), hmi,
          waitsAt_self]
        rfl
      | isFalse e =>
        cases Nat.decEq k j with
        | isTrue e' =>
          rw [e', hc2j, hc1o j hji, hnj, decide_eq_false' hji, decide_eq_true' (rfl : j = j), hmj,
            waitsAt_self]
          rfl
        | isFalse e' =>
          rw [hc1o k e, hc2o k e', decide_eq_false' e, decide_eq_false' e'])
  have hCV : ∀ k, cvec memb g j u cw1 k = cvec memb g i v cw2 k := by
    intro k
    show cond (memb g k) (if k = j then some u else contribAt g (cw1 k)) none =
      cond (memb g k) (if k = i then some v else contribAt g (cw2 k)) none
    cases Nat.decEq k i with
    | isTrue e => rw [e, if_neg' hij, if_pos' (rfl : i = i), hc1i, contribAt_self]
    | isFalse e =>
      cases Nat.decEq k j with
      | isTrue e' => rw [e', if_pos' (rfl : j = j), if_neg' hji, hc2j, contribAt_self]
      | isFalse e' => rw [if_neg' e', if_neg' e, hc1o k e, hc2o k e']
  refine ⟨⟨?_, ?_, ?_⟩, ?_⟩
  · intro k
    show collTh memb (doneW memb N g j cw1) g j pj rs (cvec memb g j u cw1) th1 cw1 k =
      collTh memb (doneW memb N g i cw2) g i pc res (cvec memb g i v cw2) th2 cw2 k
    rw [hD, collTh_cv memb _ g j pj rs hCV k]
    cases Nat.decEq k i with
    | isTrue e =>
      rw [e, collTh_other _ _ _ _ _ _ _ _ _ hij, collTh_self, ht1 i, hc1i, ht2 i]
      exact relK_self_wait memb _ hmi _ _ v res pc
    | isFalse e =>
      cases Nat.decEq k j with
      | isTrue e' =>
        rw [e', collTh_self, collTh_other _ _ _ _ _ _ _ _ _ hji, ht1 j, hc2j, ht2 j]
        exact Eq.symm (relK_self_wait memb _ hmj _ _ u rs pj)
      | isFalse e' =>
        rw [collTh_other _ _ _ _ _ _ _ _ _ e', collTh_other _ _ _ _ _ _ _ _ _ e, ht1 k, ht2 k,
          hc1o k e, hc2o k e']
  · intro x; exact (rfl : st.s.mem x = st.s.mem x)
  · intro x; exact (rfl : st.s.arr x = st.s.arr x)
  · intro k
    show collCw memb (doneW memb N g j cw1) g j ⟨g, u, rs, pj⟩ cw1 k =
      collCw memb (doneW memb N g i cw2) g i ⟨g, v, res, pc⟩ cw2 k
    rw [hD]
    cases Nat.decEq k i with
    | isTrue e =>
      rw [e, collCw_other _ _ _ _ _ _ hij, collCw_self, hc1i, relB_self_wait memb _ hmi v res pc]
    | isFalse e =>
      cases Nat.decEq k j with
      | isTrue e' =>
        rw [e', collCw_self, collCw_other _ _ _ _ _ _ hji, hc2j, relB_self_wait memb _ hmj u rs pj]
      | isFalse e' =>
        rw [collCw_other _ _ _ _ _ _ e', collCw_other _ _ _ _ _ _ e, hc1o k e, hc2o k e']

end CommSame

section Diamond

variable {V : Type} [AccAdd V]

/-- Two `Sem` actions of different threads commute as in `Sem.next_comm_gen`. -/
theorem comm_base_base (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) (st : WState V)
    {i j : Nat} (hij : i ≠ j) (hi : i < N) (hj : j < N) (hri : (st.s.th i).status = Status.run)
    (hrj : (st.s.th j).status = Status.run) (hni : st.cw i = none) (hnj : st.cw j = none)
    {A B : Act V} (hA : wact wp i st = WAct.base A) (hB : wact wp j st = WAct.base B)
    (hc : ¬Conflict A B) (hb : BarFits N st.s A B) :
    WSame (wnext memb wp N j (wnext memb wp N i st)) (wnext memb wp N i (wnext memb wp N j st)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have hB' : wact wp j (wnext memb wp N i st) = WAct.base B := by
    rw [wact_other memb wp N i st hji hrj hnj]; exact hB
  have hA' : wact wp i (wnext memb wp N j st) = WAct.base A := by
    rw [wact_other memb wp N j st hij hri hni]; exact hA
  rw [wnext_base memb wp N j (wnext memb wp N i st) hB', wnext_base memb wp N i st hA,
    wnext_base memb wp N i (wnext memb wp N j st) hA', wnext_base memb wp N j st hB]
  have hc' : ¬Conflict (act (baseProg wp) i st.s) (act (baseProg wp) j st.s) := by
    rw [act_baseProg wp i st hA, act_baseProg wp j st hB]; exact hc
  have hb' : BarFits N st.s (act (baseProg wp) i st.s) (act (baseProg wp) j st.s) := by
    rw [act_baseProg wp i st hA, act_baseProg wp j st hB]; exact hb
  exact ⟨next_comm_gen (baseProg wp) N st.s hij hi hj hri hrj hc' hb', fun _ => rfl⟩

/-- Two steps of different running, non-waiting threads commute when their actions do not
conflict, their barriers fit, and every lane arrives only at instances it is a lane of: a
collective arrival against any action of another thread (`comm_coll_base`, `comm_coll_coll_ne`),
two arrivals at one instance (`comm_coll_coll_eq`), two `Sem` actions (`comm_base_base`). -/
theorem wnext_comm (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat) (st : WState V)
    {i j : Nat} (hij : i ≠ j) (hi : i < N) (hj : j < N) (hri : (st.s.th i).status = Status.run)
    (hrj : (st.s.th j).status = Status.run) (hni : st.cw i = none) (hnj : st.cw j = none)
    (hoi : OwnAt memb wp i st) (hoj : OwnAt memb wp j st)
    (hc : ¬WConflict (wact wp i st) (wact wp j st))
    (hb : WBarFits N st.s (wact wp i st) (wact wp j st)) :
    WSame (wnext memb wp N j (wnext memb wp N i st)) (wnext memb wp N i (wnext memb wp N j st)) := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  cases hA : wact wp i st with
  | base A =>
    cases hB : wact wp j st with
    | base B =>
      have hc' : ¬Conflict A B := by
        intro h
        apply hc
        rw [hA, hB]
        exact h
      have hb' : BarFits N st.s A B := by
        have h := hb
        rw [hA, hB] at h
        exact h
      exact comm_base_base memb wp N st hij hi hj hri hrj hni hnj hA hB hc' hb'
    | coll h u rs pj =>
      exact wsame_symm (comm_coll_base memb wp N st hji hrj hri hnj hni hB hA)
  | coll g v res pc =>
    cases hB : wact wp j st with
    | base B => exact comm_coll_base memb wp N st hij hri hrj hni hnj hA hB
    | coll h u rs pj =>
      cases Nat.decEq g h with
      | isTrue e =>
        rw [← e] at hB
        exact comm_coll_coll_eq memb wp N st hij hi hj hri hrj hni hnj hoi hoj hA hB
      | isFalse e => exact comm_coll_coll_ne memb wp N st hij hri hrj hni hnj e hA hB

/-- The relational diamond from the commutation of `wnext`. -/
theorem wdiamond_of_comm (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)
    {s s1 s2 : WState V} {i j : Nat} (hij : i ≠ j)
    (h1 : WStepT memb wp N i s s1) (h2 : WStepT memb wp N j s s2)
    (hcomm : WSame (wnext memb wp N j (wnext memb wp N i s)) (wnext memb wp N i (wnext memb wp N j s))) :
    ∃ s3, WStepT memb wp N j s1 s3 ∧ WStepT memb wp N i s2 s3 := by
  have hji : j ≠ i := fun e => hij (Eq.symm e)
  have o1 := wnext_other memb wp N i s hji h2.2.1 h2.2.2.1
  have o2 := wnext_other memb wp N j s hij h1.2.1 h1.2.2.1
  have hrj1 : (s1.s.th j).status = Status.run := by
    rw [h1.2.2.2.1.1 j, o1.1]; exact h2.2.1
  have hnj1 : s1.cw j = none := by rw [h1.2.2.2.2 j, o1.2]
  have hri2 : (s2.s.th i).status = Status.run := by
    rw [h2.2.2.2.1.1 i, o2.1]; exact h1.2.1
  have hni2 : s2.cw i = none := by rw [h2.2.2.2.2 i, o2.2]
  have e1 := wnext_congr memb wp N j h1.2.2.2
  have e2 := wnext_congr memb wp N i h2.2.2.2
  refine ⟨wnext memb wp N j s1, ⟨h2.1, hrj1, hnj1, wsame_refl _⟩, ⟨h1.1, hri2, hni2, ?_⟩⟩
  exact wsame_trans e1 (wsame_trans hcomm (wsame_symm e2))

/-- The local diamond: if thread `i` steps from `s` to `s1` and another thread `j` steps from
`s` to `s2`, their actions neither conflict nor misuse a barrier, and lanes arrive only at
instances they belong to, then `j` steps from `s1` and `i` from `s2` to one state. -/
theorem wdiamond (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)
    {s s1 s2 : WState V} {i j : Nat} (hij : i ≠ j)
    (h1 : WStepT memb wp N i s s1) (h2 : WStepT memb wp N j s s2)
    (hoi : OwnAt memb wp i s) (hoj : OwnAt memb wp j s)
    (hc : ¬WConflict (wact wp i s) (wact wp j s)) (hb : WBarFits N s.s (wact wp i s) (wact wp j s)) :
    ∃ s3, WStepT memb wp N j s1 s3 ∧ WStepT memb wp N i s2 s3 :=
  wdiamond_of_comm memb wp N hij h1 h2
    (wnext_comm memb wp N s hij h1.1 h2.1 h1.2.1 h2.2.1 h1.2.2.1 h2.2.2.1 hoi hoj hc hb)

/-- For a `Sem` action, a step of `WSem` is a step of `Sem` (of the program's `Sem` part) by a
thread that does not wait at a collective, leaving the waiting records alone: programs without
collectives run as in `Sem`. -/
theorem wstepT_base_iff (memb : Nat → Nat → Bool) (wp : WProg V) (N i : Nat) (st st' : WState V)
    {A : Act V} (hA : wact wp i st = WAct.base A) :
    WStepT memb wp N i st st' ↔
      (StepT (baseProg wp) N i st.s st'.s ∧ st.cw i = none ∧ ∀ k, st'.cw k = st.cw k) := by
  have e := wnext_base memb wp N i st hA
  refine ⟨fun h => ?_, fun h => ?_⟩
  · have hs := h.2.2.2
    rw [e] at hs
    exact ⟨⟨h.1, h.2.1, hs.1⟩, h.2.2.1, hs.2⟩
  · refine ⟨h.1.1, h.1.2.1, h.2.1, ?_⟩
    rw [e]
    exact ⟨h.1.2.2, h.2.2⟩

end Diamond

section Confluence

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)

theorem wstepT_left (i : Nat) {s t u : WState V} (h : WSame s t)
    (hs : WStepT memb wp N i s u) : WStepT memb wp N i t u := by
  have hr : (t.s.th i).status = Status.run := by
    rw [Eq.symm (h.1.1 i)]
    exact hs.2.1
  have hn : t.cw i = none := by
    rw [Eq.symm (h.2 i)]
    exact hs.2.2.1
  exact ⟨hs.1, hr, hn, wsame_trans hs.2.2.2 (wnext_congr memb wp N i h)⟩

theorem wreach_trans {a b c : WState V} (hab : WReach memb wp N a b)
    (hbc : WReach memb wp N b c) : WReach memb wp N a c := by
  induction hab with
  | refl s => exact hbc
  | step hst _ ih => exact WReach.step hst (ih hbc)

theorem wreach_snoc {a b c : WState V} (hab : WReach memb wp N a b)
    (hbc : WStep memb wp N b c) : WReach memb wp N a c :=
  wreach_trans memb wp N hab (WReach.step hbc (WReach.refl c))

theorem wreach_left {s t u : WState V} (h : WSame s t)
    (hu : WReach memb wp N s u) : ∃ u', WReach memb wp N t u' ∧ WSame u u' := by
  cases hu with
  | refl => exact ⟨t, WReach.refl t, h⟩
  | step hst hr =>
    match hst with
    | ⟨i, hi⟩ => exact ⟨u, WReach.step ⟨i, wstepT_left memb wp N i h hi⟩ hr, wsame_refl u⟩

/-- A final state does not step (a waiting lane has not exited). -/
theorem wfinal_reach {t u : WState V} (hf : WFinal N t)
    (hr : WReach memb wp N t u) : WSame t u := by
  cases hr with
  | refl => exact wsame_refl t
  | step hst _ =>
    match hst with
    | ⟨i, hi⟩ =>
      have h1 : (t.s.th i).status = Status.exited := hf i hi.1
      have h2 : (t.s.th i).status = Status.run := hi.2.1
      rw [h1] at h2
      cases h2

/-- The local diamond holds at every state reachable from `s0`. -/
def WDiamond (s0 : WState V) : Prop :=
  ∀ r, WReach memb wp N s0 r → ∀ (i j : Nat) (r1 r2 : WState V), i ≠ j →
    WStepT memb wp N i r r1 → WStepT memb wp N j r r2 →
      ∃ r3, WStepT memb wp N j r1 r3 ∧ WStepT memb wp N i r2 r3

theorem wlocal_diamond {s0 r t1 t2 : WState V}
    (hD : WDiamond memb wp N s0) (hr : WReach memb wp N s0 r) (h1 : WStep memb wp N r t1)
    (h2 : WStep memb wp N r t2) :
    WSame t1 t2 ∨ ∃ v, WStep memb wp N t1 v ∧ WStep memb wp N t2 v := by
  match h1, h2 with
  | ⟨i, hi⟩, ⟨j, hj⟩ =>
    cases Nat.decEq i j with
    | isTrue e =>
      rw [e] at hi
      exact Or.inl (wsame_trans hi.2.2.2 (wsame_symm hj.2.2.2))
    | isFalse e =>
      match hD r hr i j t1 t2 e hi hj with
      | ⟨v, hv1, hv2⟩ => exact Or.inr ⟨v, ⟨j, hv1⟩, ⟨i, hv2⟩⟩

/-- The strip lemma. -/
theorem wstrip {s0 s t2 : WState V} (hD : WDiamond memb wp N s0)
    (hs : WReach memb wp N s t2) :
    ∀ t1, WReach memb wp N s0 s → WStep memb wp N s t1 →
      ∃ u, WReach memb wp N t1 u ∧ (WSame t2 u ∨ WStep memb wp N t2 u) := by
  induction hs with
  | refl s =>
    intro t1 _ h1
    exact ⟨t1, WReach.refl t1, Or.inr h1⟩
  | @step s s' t2 hss' hs't2 ih =>
    intro t1 h0 h1
    cases wlocal_diamond memb wp N hD h0 h1 hss' with
    | inl e =>
      match wreach_left memb wp N (wsame_symm e) hs't2 with
      | ⟨u, hu, hsu⟩ => exact ⟨u, hu, Or.inl hsu⟩
    | inr ex =>
      match ex with
      | ⟨v, hv1, hv2⟩ =>
        match ih v (wreach_snoc memb wp N h0 hss') hv2 with
        | ⟨u, hu, hor⟩ => exact ⟨u, WReach.step hv1 hu, hor⟩

/-- Confluence up to pointwise equality, from the local diamond. -/
theorem wconfluent {s0 s t1 : WState V} (hD : WDiamond memb wp N s0)
    (h1 : WReach memb wp N s t1) :
    ∀ t2, WReach memb wp N s0 s → WReach memb wp N s t2 →
      ∃ u1 u2, WReach memb wp N t1 u1 ∧ WReach memb wp N t2 u2 ∧ WSame u1 u2 := by
  induction h1 with
  | refl s =>
    intro t2 _ h2
    exact ⟨t2, t2, h2, WReach.refl t2, wsame_refl t2⟩
  | @step s s' t1 hss' hs't1 ih =>
    intro t2 h0 h2
    match wstrip memb wp N hD h2 s' h0 hss' with
    | ⟨w, hw, hor⟩ =>
      match ih w (wreach_snoc memb wp N h0 hss') hw with
      | ⟨u1, u2, hu1, hu2, e⟩ =>
        cases hor with
        | inr hst => exact ⟨u1, u2, hu1, WReach.step hst hu2, e⟩
        | inl e2 =>
          match wreach_left memb wp N (wsame_symm e2) hu2 with
          | ⟨u3, hu3, e3⟩ => exact ⟨u1, u3, hu1, hu3, wsame_trans e e3⟩

/-- If the local diamond holds at every reachable state, all final states reachable from `s0`
are the same. -/
theorem wfinal_unique {s0 t1 t2 : WState V} (hD : WDiamond memb wp N s0)
    (h1 : WReach memb wp N s0 t1) (h2 : WReach memb wp N s0 t2) (f1 : WFinal N t1)
    (f2 : WFinal N t2) : WSame t1 t2 := by
  match wconfluent memb wp N hD h1 t2 (WReach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    exact wsame_trans (wfinal_reach memb wp N f1 hu1)
      (wsame_trans e (wsame_symm (wfinal_reach memb wp N f2 hu2)))

/-- Race freedom: in no reachable state do two different running, non-waiting threads have
conflicting next actions (`Sem.Conflict` of their `Sem` actions; collectives touch no
memory). -/
def WRaceFree (s0 : WState V) : Prop :=
  ∀ r, WReach memb wp N s0 r → ∀ i j, i ≠ j → i < N → j < N →
    (r.s.th i).status = Status.run → (r.s.th j).status = Status.run →
    r.cw i = none → r.cw j = none → ¬WConflict (wact wp i r) (wact wp j r)

/-- Barrier discipline (`Sem.BarriersFit`) for the `Sem` actions of running, non-waiting
threads. -/
def WBarriersFit (s0 : WState V) : Prop :=
  ∀ r, WReach memb wp N s0 r → ∀ i j, i ≠ j → i < N → j < N →
    (r.s.th i).status = Status.run → (r.s.th j).status = Status.run →
    r.cw i = none → r.cw j = none → WBarFits N r.s (wact wp i r) (wact wp j r)

/-- In every reachable state, a running, non-waiting thread about to arrive at a collective is a
lane of its instance (the executor reports "lane is not in its own mask" otherwise). -/
def CollOwnR (s0 : WState V) : Prop :=
  ∀ r, WReach memb wp N s0 r → ∀ i, i < N → (r.s.th i).status = Status.run → r.cw i = none →
    OwnAt memb wp i r

theorem collOwnR_of_static (s0 : WState V) (h : CollOwn memb wp) : CollOwnR memb wp N s0 :=
  fun r _ i _ _ _ g v res pc e => h i _ _ g v res pc e

theorem wdiamond_of_fit (s0 : WState V) (hrf : WRaceFree memb wp N s0)
    (hfit : WBarriersFit memb wp N s0) (hown : CollOwnR memb wp N s0) : WDiamond memb wp N s0 := by
  intro r hr i j r1 r2 hij h1 h2
  exact wdiamond memb wp N hij h1 h2 (hown r hr i h1.1 h1.2.1 h1.2.2.1)
    (hown r hr j h2.1 h2.2.1 h2.2.2.1)
    (hrf r hr i j hij h1.1 h2.1 h1.2.1 h2.2.1 h1.2.2.1 h2.2.2.1)
    (hfit r hr i j hij h1.1 h2.1 h1.2.1 h2.2.1 h1.2.2.1 h2.2.2.1)

/-- Confluence with warp collectives: if no reachable state has a race, barriers fit, and every
lane arrives only at collective instances it is a lane of, any two complete executions from
`s0` end in the same state (every thread's registers, `pc` and status, the shared memory, the
barrier counts, and the waiting records). -/
theorem wconfluence {s0 t1 t2 : WState V} (hrf : WRaceFree memb wp N s0)
    (hfit : WBarriersFit memb wp N s0) (hown : CollOwnR memb wp N s0)
    (h1 : WReach memb wp N s0 t1) (h2 : WReach memb wp N s0 t2) (f1 : WFinal N t1)
    (f2 : WFinal N t2) : WSame t1 t2 :=
  wfinal_unique memb wp N (wdiamond_of_fit memb wp N s0 hrf hfit hown) h1 h2 f1 f2

theorem wstuck_reach {t u : WState V}
    (hs : ∀ v, WStep memb wp N t v → False) (hr : WReach memb wp N t u) : WSame t u := by
  cases hr with
  | refl => exact wsame_refl t
  | step hst _ => exact False.elim (hs _ hst)

/-- No schedule gets stuck if one finishes: under the hypotheses of `wconfluence`, if some
execution from `s0` ends with every thread exited, every reachable state where no thread can
step (every thread has exited or waits at a barrier or a collective that does not complete)
has every thread exited. -/
theorem wno_stuck {s0 t1 t2 : WState V} (hrf : WRaceFree memb wp N s0)
    (hfit : WBarriersFit memb wp N s0) (hown : CollOwnR memb wp N s0)
    (h1 : WReach memb wp N s0 t1) (f1 : WFinal N t1) (h2 : WReach memb wp N s0 t2)
    (hs : ∀ v, WStep memb wp N t2 v → False) : WFinal N t2 := by
  match wconfluent memb wp N (wdiamond_of_fit memb wp N s0 hrf hfit hown) h1 t2 (WReach.refl s0) h2 with
  | ⟨u1, u2, hu1, hu2, e⟩ =>
    have e' : WSame t1 t2 := wsame_trans (wfinal_reach memb wp N f1 hu1)
      (wsame_trans e (wsame_symm (wstuck_reach memb wp N hs hu2)))
    intro k hk
    rw [Eq.symm (e'.1.1 k)]
    exact f1 k hk

end Confluence

section Shfl

variable {V : Type}

/-- The value lane `src` contributed in register `a`, or `dflt` if `src` is not a lane of the
instance (the executor reports "shfl source lane is not in the mask" and uses 0). -/
def readC (src a : Nat) (dflt : V) (cv : Nat → Option (Nat → V)) : V :=
  match cv src with
  | some c => c a
  | none => dflt

/-- `shfl.sync` for one lane with registers `regs` (Rust `Collective::Shfl`,
`complete_collective`): register `dst` gets the source lane `src`'s register `a`. -/
def shflRes (src a dst : Nat) (dflt : V) (regs : Nat → V) : ExtFun V :=
  ⟨fun cv => upd regs dst (readC src a dflt cv), fun c c' h => by
    show upd regs dst (readC src a dflt c) = upd regs dst (readC src a dflt c')
    have e : readC src a dflt c = readC src a dflt c' := by
      show (match c src with | some x => x a | none => dflt) =
        (match c' src with | some x => x a | none => dflt)
      rw [h src]
    rw [e]⟩

end Shfl

/-! ## Non-vacuity: a 2-lane `shfl.sync.bfly` evaluated by `rfl`

Two lanes (threads 0 and 1) of one instance (key 0, lanes `k < 2`): at `pc` 0 lane `i`
arrives with its registers and gets in register 1 the register 0 of lane `1 - i` (PTX
`shfl.sync.bfly.b32 r1, r0, 1, 0x1f, 0x3`); at `pc` 1 it exits. -/

namespace Example

instance accAddNat : AccAdd Nat := ⟨Nat.add, Nat.add_comm, Nat.add_assoc⟩

def memb2 (g k : Nat) : Bool := decide (g = 0) && decide (k < 2)

def prog2 : WProg Nat := fun i pc regs =>
  match pc with
  | 0 => cond (decide (i < 2)) (WAct.coll 0 regs (shflRes (1 - i) 0 1 0 regs) 1) (WAct.base Act.exit)
  | _ => WAct.base Act.exit

/-- Lane `k` starts with `10 * (k + 1)` in register 0. -/
def s0 : WState Nat := winit (fun k r => if r = 0 then 10 * (k + 1) else 0) (fun _ => 0)

def s1 : WState Nat := wnext memb2 prog2 2 0 s0
def s2 : WState Nat := wnext memb2 prog2 2 1 s1
def s3 : WState Nat := wnext memb2 prog2 2 0 s2
def s4 : WState Nat := wnext memb2 prog2 2 1 s3

/-- The first arrival blocks: lane 0 waits, still at `pc` 0, and nothing else changed. -/
theorem ex_first_waits : waitsAt 0 (s1.cw 0) = true ∧ (s1.s.th 0).pc = 0 ∧ (s1.s.th 0).regs 1 = 0 :=
  ⟨rfl, rfl, rfl⟩

/-- The second arrival completes the shuffle in one step: both lanes have the other's
register 0 in register 1, go on at `pc` 1, and no longer wait. -/
theorem ex_shfl_done : (s2.s.th 0).regs 1 = 20 ∧ (s2.s.th 1).regs 1 = 10 ∧ (s2.s.th 0).pc = 1 ∧
    (s2.s.th 1).pc = 1 ∧ s2.cw 0 = none ∧ s2.cw 1 = none :=
  ⟨rfl, rfl, rfl, rfl, rfl, rfl⟩

/-- Arriving in the other order gives the same result. -/
theorem ex_other_order :
    ((wnext memb2 prog2 2 0 (wnext memb2 prog2 2 1 s0)).s.th 0).regs 1 = 20 ∧
      ((wnext memb2 prog2 2 0 (wnext memb2 prog2 2 1 s0)).s.th 1).regs 1 = 10 ∧
      ((wnext memb2 prog2 2 0 (wnext memb2 prog2 2 1 s0)).s.th 0).pc = 1 ∧
      ((wnext memb2 prog2 2 0 (wnext memb2 prog2 2 1 s0)).s.th 1).pc = 1 :=
  ⟨rfl, rfl, rfl, rfl⟩

/-- The example's lanes arrive only at the instance they belong to. -/
theorem ex_own : CollOwn memb2 prog2 := by
  intro i pc regs g v res pc' h
  cases pc with
  | zero =>
    have h' : cond (decide (i < 2)) (WAct.coll 0 regs (shflRes (1 - i) 0 1 0 regs) 1)
        (WAct.base Act.exit) = WAct.coll g v res pc' := h
    cases hd : decide (i < 2) with
    | false => rw [hd] at h'; cases h'
    | true =>
      rw [hd] at h'
      cases h'
      show (decide (0 = 0) && decide (i < 2)) = true
      rw [hd]
      rfl
  | succ n => cases h

/-- The schedule lane 0, lane 1, lane 0, lane 1 runs the example to the end. -/
theorem ex_reach : WReach memb2 prog2 2 s0 s4 ∧ WFinal 2 s4 := by
  refine ⟨?_, ?_⟩
  · refine WReach.step ⟨0, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
    refine WReach.step ⟨1, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
    refine WReach.step ⟨0, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ ?_
    exact WReach.step ⟨1, ⟨by decide, rfl, rfl, wsame_refl _⟩⟩ (WReach.refl _)
  · intro k hk
    cases k with
    | zero => rfl
    | succ k =>
      cases k with
      | zero => rfl
      | succ k => exact False.elim (Nat.notSuccLeZero k (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hk)))

/-- Every action of the example is a collective arrival or `exit`. -/
def Tame (A : WAct Nat) : Prop :=
  (∃ g v res pc', A = WAct.coll g v res pc') ∨ A = WAct.base Act.exit

theorem prog2_tame (i pc : Nat) (regs : Nat → Nat) : Tame (prog2 i pc regs) := by
  cases pc with
  | zero =>
    show Tame (cond (decide (i < 2)) (WAct.coll 0 regs (shflRes (1 - i) 0 1 0 regs) 1)
      (WAct.base Act.exit))
    cases decide (i < 2) with
    | true => exact Or.inl ⟨_, _, _, _, rfl⟩
    | false => exact Or.inr rfl
  | succ n => exact Or.inr rfl

theorem tame_ok (n : Nat) (s : CState Nat) {A B : WAct Nat} (hA : Tame A) (hB : Tame B) :
    ¬WConflict A B ∧ WBarFits n s A B := by
  cases hA with
  | inl h =>
    match h with
    | ⟨g, v, res, pc, e⟩ =>
      rw [e]
      cases hB with
      | inl h' =>
        match h' with
        | ⟨g', v', res', pc', e'⟩ => rw [e']; exact ⟨fun h => h, trivial⟩
      | inr e' => rw [e']; exact ⟨fun h => h, trivial⟩
  | inr e =>
    rw [e]
    cases hB with
    | inl h' =>
      match h' with
      | ⟨g', v', res', pc', e'⟩ => rw [e']; exact ⟨fun h => h, trivial⟩
    | inr e' => rw [e']; exact ⟨fun h => h, trivial⟩

theorem ex_raceFree : WRaceFree memb2 prog2 2 s0 :=
  fun r _ i j _ _ _ _ _ _ _ => (tame_ok 2 r.s (prog2_tame i _ _) (prog2_tame j _ _)).1

theorem ex_fit : WBarriersFit memb2 prog2 2 s0 :=
  fun r _ i j _ _ _ _ _ _ _ => (tame_ok 2 r.s (prog2_tame i _ _) (prog2_tame j _ _)).2

/-- `wconfluence` applies to the example: all its final states agree. -/
theorem ex_confluence {t1 t2 : WState Nat} (h1 : WReach memb2 prog2 2 s0 t1)
    (h2 : WReach memb2 prog2 2 s0 t2) (f1 : WFinal 2 t1) (f2 : WFinal 2 t2) : WSame t1 t2 :=
  wconfluence memb2 prog2 2 ex_raceFree ex_fit (collOwnR_of_static memb2 prog2 2 s0 ex_own)
    h1 h2 f1 f2

/-- `wno_stuck` applies to the example: no schedule gets stuck, in particular not at the
shuffle. -/
theorem ex_no_stuck {t : WState Nat} (h : WReach memb2 prog2 2 s0 t)
    (hs : ∀ v, WStep memb2 prog2 2 t v → False) : WFinal 2 t :=
  wno_stuck memb2 prog2 2 ex_raceFree ex_fit (collOwnR_of_static memb2 prog2 2 s0 ex_own)
    ex_reach.1 ex_reach.2 h hs

/-- So every final state reached from `s0`, by any schedule, has the shuffled registers. -/
theorem ex_every_final {t : WState Nat} (h : WReach memb2 prog2 2 s0 t) (f : WFinal 2 t) :
    (t.s.th 0).regs 1 = 20 ∧ (t.s.th 1).regs 1 = 10 := by
  have e := ex_confluence ex_reach.1 h ex_reach.2 f
  rw [← e.1.1 0, ← e.1.1 1]
  exact ⟨rfl, rfl⟩

end Example

/-! ## Lanes of one mask at `vote.sync` with different modes

Rust `complete_collective` computes one `vote.sync` value with the mode of the first waiting lane
(`waits.first()`) and writes it to every lane, and `resolve_warps` groups lanes by mask and kind
of collective only (`std::mem::discriminant`), not by mode or `pc`.  Two lanes of mask `0x3` at
two different `vote.sync` instructions, lane 0 at `vote.sync.any.pred` and lane 1 at
`vote.sync.all.pred` (a divergent branch), complete together and lane 1 receives `any`.  In the
model each lane applies its own result function, so lane 1 receives `all`. -/

namespace VoteModes

open Example

/-- The predicate a lane contributed (register 0 is 1). -/
def predOf : Option (Nat → Nat) → Bool
  | some c => decide (c 0 = 1)
  | none => false

/-- `vote.sync.any` (`all = false`) or `vote.sync.all` (`all = true`) over lanes 0 and 1. -/
def vote2 (all : Bool) (cv : Nat → Option (Nat → Nat)) : Nat :=
  cond (cond all (predOf (cv 0) && predOf (cv 1)) (predOf (cv 0) || predOf (cv 1))) 1 0

def voteRes2 (all : Bool) (dst : Nat) (regs : Nat → Nat) : ExtFun Nat :=
  ⟨fun cv => upd regs dst (vote2 all cv), fun c c' h => by
    show upd regs dst (vote2 all c) = upd regs dst (vote2 all c')
    have e : vote2 all c = vote2 all c' := by
      show cond (cond all (predOf (c 0) && predOf (c 1)) (predOf (c 0) || predOf (c 1))) 1 0 =
        cond (cond all (predOf (c' 0) && predOf (c' 1)) (predOf (c' 0) || predOf (c' 1))) 1 0
      rw [h 0, h 1]
    rw [e]⟩

/-- Lane 0: `vote.sync.any.pred r1, r0, 0x3`; lane 1: `vote.sync.all.pred r1, r0, 0x3`. -/
def progV : WProg Nat := fun i pc regs =>
  match pc with
  | 0 => cond (decide (i < 2)) (WAct.coll 0 regs (voteRes2 (decide (i = 1)) 1 regs) 1)
      (WAct.base Act.exit)
  | _ => WAct.base Act.exit

/-- Lane 0 votes true, lane 1 false. -/
def v0 : WState Nat := winit (fun k r => if r = 0 then (if k = 0 then 1 else 0) else 0) (fun _ => 0)

def v2 : WState Nat := wnext memb2 progV 2 1 (wnext memb2 progV 2 0 v0)

/-- The model: lane 0 gets `any` = 1, lane 1 gets `all` = 0. -/
theorem model_votes : (v2.s.th 0).regs 1 = 1 ∧ (v2.s.th 1).regs 1 = 0 := ⟨rfl, rfl⟩

/-- The Rust completion of `vote.sync` (`complete_collective`, `Collective::Vote`) for lanes
with modes `ms` (`true`: `all`) and predicates `ps`, in lane order: the value of the first
lane's mode, for every lane. -/
def rustVote (ms ps : List Bool) : List Nat :=
  let all := match ms with
    | m :: _ => m
    | [] => false
  let v := cond (cond all (ps.all id) (ps.any id)) 1 0
  ms.map (fun _ => v)

/-- The executor gives lane 1 the value 1 (`any`), where lane 1's own instruction
(`vote.sync.all`) gives 0. -/
theorem rust_votes : rustVote [false, true] [true, false] = [1, 1] := rfl

theorem vote_modes_differ :
    (rustVote [false, true] [true, false]).get? 1 ≠ some ((v2.s.th 1).regs 1) := by
  intro h
  cases h

end VoteModes

end Warp
end Kcert
