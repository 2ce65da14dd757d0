import Kcert.CpSem

/-!
# The executor's `cp.async` checks on its own run

Rust: `checker/src/exec/tensor_core.rs` (`cp_async_issue`, `cp_async_wait`),
`checker/src/exec/access.rs` (a load of `Val::Pending` is an `UninitializedRead`; a store or
atomic to an in-flight source granule is a `DataRace`), `checker/src/exec/race.rs`.

What the Rust does (read from the source, 2026-11-30):
* at the issue (`cp_async_issue`) each source granule is registered in `Cta::inflight` (a count)
  and the source is LOADED through `access` (an ordinary access: race check with the thread's
  clock at the issue, a load of `Pending` would be an `UninitializedRead`); then each
  destination element is STORED `Val::Pending` through `access` (an ordinary store: race check
  with the clock at the issue);
* any store or atomic to an in-flight source granule is a `DataRace` (`access.rs`);
* a load of `Val::Pending` is an `UninitializedRead`;
* at the wait (`cp_async_wait`) the oldest groups are completed in order; for each copy the
  source leaves `inflight`, is LOADED again through `access` (race check with the clock at the
  wait; a changed value without a reported in-flight write is `Unsupported`), the destination
  must still hold `Pending` (else a `DataRace`, "written while the cp.async was in flight"),
  and is STORED the value read at the issue through `access` (race check with the clock at the
  wait).
So for the vector clocks the copy reads its source at the issue AND at the wait, and writes its
destination at the issue AND at the wait.

This file models the checks over the executor's history, a list of events (`XEv`): a read, a
write (a store or atomic), an issue, and a copy's completion inside its wait (`fin`).  The
Pending tag and the in-flight counts are `XSt` (`pend`, `os`); `od` counts, per address, the
copies issued and not completed with that destination (a ghost count, not a Rust field).
`xcheck` is the tag checks; `epochRace` the ordinary race check for whole-CTA barriers (two
events of different threads in one epoch with conflicting accesses, the issue and the
completion each counted as a read of the source and a write of the destination, as above).

Proved (`run_*`): on the run's own order, a history that passes `xcheck` and ends with no copy
outstanding has no read or write of a destination of a copy issued and not yet completed, no
write to the source of such a copy, and no second copy issued to such a destination, even
though the Rust reports a write to a destination only later, at the wait.  These are the
`CpConflict` / `CopyConflict` clauses of `CpSem.CpRaceFree` for the states of the executor's
own schedule (copies performing at the wait).  Towards every schedule: an event `x` that may
overlap a copy in some schedule with whole-CTA barriers lies, in the epoch-sorted history,
between the issue and the completion (`between_dst`, `between_src`: reported by the tags, any
thread), or before the issue in the issue's epoch (`before_iss`), or after the completion in
the completion's epoch (`after_fin`; both an `epochRace`, another thread).  NOT proved: that the
history is the one `CpSem.XStep` produces from the program, nor that every schedule's overlaps
are of these three forms (the `RaceCheck.lean` argument for `CpSem`), so not `CpRaceFree`.

Examples: the executor's history of `CpSem.Example.kp2` passes (`kp2_passes`), the one of
`kpRacy` is reported by the ordinary race check (`kpRacy_reported`); the histories are
written by hand from the executor's order (thread 0 runs until it blocks, then thread 1).
-/

namespace Kcert
namespace CpCheck

open Sem

/-- An event of the executor's history, with its thread. -/
inductive XEv where
  | rd (t a : Nat)
  | wr (t a : Nat)
  | iss (t src dst : Nat)
  | fin (t src dst : Nat)

/-- The tag state: `pend a` (address `a` holds `Val::Pending`), `os a` (in-flight copies with
source `a`, `Cta::inflight`), `od a` (copies issued and not completed with destination `a`). -/
structure XSt where
  pend : Nat → Bool
  os : Nat → Nat
  od : Nat → Nat

def xst0 : XSt := ⟨fun _ => false, fun _ => 0, fun _ => 0⟩

def isZero : Nat → Bool
  | 0 => true
  | _ + 1 => false

/-- The check of one event in tag state `st`. -/
def ok (st : XSt) : XEv → Bool
  | XEv.rd _ a => not (st.pend a)
  | XEv.wr _ a => isZero (st.os a)
  | XEv.iss _ s _ => not (st.pend s)
  | XEv.fin _ s d => st.pend d && not (isZero (st.od d)) && not (isZero (st.os s))

def step (st : XSt) : XEv → XSt
  | XEv.rd _ _ => st
  | XEv.wr _ a => ⟨upd st.pend a false, st.os, st.od⟩
  | XEv.iss _ s d => ⟨upd st.pend d true, upd st.os s (st.os s + 1), upd st.od d (st.od d + 1)⟩
  | XEv.fin _ s d => ⟨upd st.pend d false, upd st.os s (st.os s - 1), upd st.od d (st.od d - 1)⟩

def run : XSt → List XEv → XSt
  | st, [] => st
  | st, e :: h => run (step st e) h

/-- The tag checks over a history. -/
def xcheck : XSt → List XEv → Bool
  | _, [] => true
  | st, e :: h => ok st e && xcheck (step st e) h

/-- List append by structural recursion (core's `++` goes through `reverseAux`). -/
def app : List XEv → List XEv → List XEv
  | [], l => l
  | e :: l1, l2 => e :: app l1 l2

def bit : Bool → Nat
  | true => 1
  | false => 0

theorem xcheck_cons {st : XSt} {e : XEv} {h : List XEv} (hc : xcheck st (e :: h) = true) :
    ok st e = true ∧ xcheck (step st e) h = true :=
  ⟨and_left' hc, and_right' hc⟩

theorem run_append (st : XSt) (p q : List XEv) : run st (app p q) = run (run st p) q := by
  induction p generalizing st with
  | nil => rfl
  | cons e p ih => exact ih (step st e)

theorem xcheck_append (st : XSt) (p q : List XEv) (hc : xcheck st (app p q) = true) :
    xcheck (run st p) q = true := by
  induction p generalizing st with
  | nil => exact hc
  | cons e p ih => exact ih (step st e) (xcheck_cons hc).2

theorem lt_succ_of_lt' {a b : Nat} (h : a < b) : a < b + 1 := Nat.leTrans h (Nat.leSucc b)

/-- The invariant: more copies outstanding to `a` than the Pending tag at `a` accounts for. -/
theorem inv_step (a : Nat) (st : XSt) (e : XEv) (hok : ok st e = true)
    (hi : bit (st.pend a) < st.od a) : bit ((step st e).pend a) < (step st e).od a := by
  have h0 : 0 < st.od a := Nat.ltOfLeOfLt (Nat.zeroLe _) hi
  cases e with
  | rd t b => exact hi
  | wr t b =>
    show bit (upd st.pend b false a) < st.od a
    cases Nat.decEq a b with
    | isTrue hab => rw [hab, upd_same]; rw [hab] at h0; exact h0
    | isFalse hab => rw [upd_other _ _ hab]; exact hi
  | iss t s d =>
    show bit (upd st.pend d true a) < upd st.od d (st.od d + 1) a
    cases Nat.decEq a d with
    | isTrue hab => rw [hab, upd_same, upd_same]; rw [hab] at h0; exact Nat.succLeSucc h0
    | isFalse hab => rw [upd_other _ _ hab, upd_other _ _ hab]; exact hi
  | fin t s d =>
    show bit (upd st.pend d false a) < upd st.od d (st.od d - 1) a
    cases Nat.decEq a d with
    | isFalse hab => rw [upd_other _ _ hab, upd_other _ _ hab]; exact hi
    | isTrue hab =>
      rw [hab, upd_same, upd_same]
      rw [hab] at hi
      have hp : st.pend d = true := and_left' (and_left' hok)
      rw [hp] at hi
      cases hk : st.od d with
      | zero => rw [hk] at hi; exact False.elim (Nat.notLtZero _ hi)
      | succ k =>
        rw [hk] at hi
        show 0 < k
        exact Nat.lt_of_succ_lt_succ hi

theorem inv_run (a : Nat) (h : List XEv) (st : XSt) (hc : xcheck st h = true)
    (hi : bit (st.pend a) < st.od a) : bit ((run st h).pend a) < (run st h).od a := by
  induction h generalizing st with
  | nil => exact hi
  | cons e h ih =>
    exact ih (step st e) (xcheck_cons hc).2 (inv_step a st e (xcheck_cons hc).1 hi)

/-- Once the tag at `a` is gone while a copy to `a` is outstanding, a checked run never ends
with every copy to `a` completed. -/
theorem stuck (a : Nat) (h : List XEv) (st : XSt) (hc : xcheck st h = true)
    (hp : st.pend a = false) (hd : 0 < st.od a) (hend : (run st h).od a = 0) : False := by
  have hi : bit (st.pend a) < st.od a := by rw [hp]; exact hd
  have h2 := inv_run a h st hc hi
  rw [hend] at h2
  exact Nat.notLtZero _ h2

theorem od_zero_of (a : Nat) (st : XSt) (h : 0 < st.od a → False) : st.od a = 0 := by
  cases hk : st.od a with
  | zero => rfl
  | succ k => rw [hk] at h; exact False.elim (h (Nat.succPos k))

/-- A read of a destination: on a checked run that ends with every copy to `a` completed, no
copy to `a` is outstanding at a read of `a`. -/
theorem run_read_dst (p q : List XEv) (t a : Nat)
    (hc : xcheck xst0 (app p (XEv.rd t a :: q)) = true)
    (hend : (run xst0 (app p (XEv.rd t a :: q))).od a = 0) : (run xst0 p).od a = 0 := by
  have hc' := xcheck_append xst0 p _ hc
  rw [run_append] at hend
  apply od_zero_of
  intro hd
  have hok := (xcheck_cons hc').1
  have hp : (run xst0 p).pend a = false := by
    cases hq : (run xst0 p).pend a with
    | false => rfl
    | true => have hok' : not ((run xst0 p).pend a) = true := hok; rw [hq] at hok'; cases hok'
  exact stuck a q (step (run xst0 p) (XEv.rd t a)) (xcheck_cons hc').2 hp hd hend

/-- A write to a destination: likewise, no copy to `a` is outstanding at a write of `a`
(the Rust reports it at the copy's wait, `cp_async_wait`). -/
theorem run_write_dst (p q : List XEv) (t a : Nat)
    (hc : xcheck xst0 (app p (XEv.wr t a :: q)) = true)
    (hend : (run xst0 (app p (XEv.wr t a :: q))).od a = 0) : (run xst0 p).od a = 0 := by
  have hc' := xcheck_append xst0 p _ hc
  rw [run_append] at hend
  apply od_zero_of
  intro hd
  have hp : (step (run xst0 p) (XEv.wr t a)).pend a = false := upd_same _ _ _
  exact stuck a q (step (run xst0 p) (XEv.wr t a)) (xcheck_cons hc').2 hp hd hend

/-- A write to a source: no copy from `a` is in flight at a write of `a` (`access.rs`). -/
theorem run_write_src (p q : List XEv) (t a : Nat)
    (hc : xcheck xst0 (app p (XEv.wr t a :: q)) = true) : (run xst0 p).os a = 0 := by
  have hok : isZero ((run xst0 p).os a) = true := (xcheck_cons (xcheck_append xst0 p _ hc)).1
  cases hk : (run xst0 p).os a with
  | zero => rfl
  | succ k => rw [hk] at hok; cases hok

/-- Two copies to one destination: at an issue to `d`, no copy to `d` is outstanding. -/
theorem run_issue_dst (p q : List XEv) (t s d : Nat)
    (hc : xcheck xst0 (app p (XEv.iss t s d :: q)) = true)
    (hend : (run xst0 (app p (XEv.iss t s d :: q))).od d = 0) : (run xst0 p).od d = 0 := by
  have hc' := xcheck_append xst0 p _ hc
  rw [run_append] at hend
  apply od_zero_of
  intro hd
  have hi : bit ((step (run xst0 p) (XEv.iss t s d)).pend d) <
      (step (run xst0 p) (XEv.iss t s d)).od d := by
    show bit (upd (run xst0 p).pend d true d) < upd (run xst0 p).od d ((run xst0 p).od d + 1) d
    rw [upd_same, upd_same]
    exact Nat.succLeSucc hd
  have h2 := inv_run d q _ (xcheck_cons hc').2 hi
  have hend' : (run (step (run xst0 p) (XEv.iss t s d)) q).od d = 0 := hend
  rw [hend'] at h2
  exact Nat.notLtZero _ h2

/-! ### The ordinary race check over epochs -/

def evT : XEv → Nat
  | XEv.rd t _ => t
  | XEv.wr t _ => t
  | XEv.iss t _ _ => t
  | XEv.fin t _ _ => t

/-- The address an event writes (the copy's destination for an issue and a completion). -/
def evW : XEv → Option Nat
  | XEv.rd _ _ => none
  | XEv.wr _ a => some a
  | XEv.iss _ _ d => some d
  | XEv.fin _ _ d => some d

/-- The address an event reads (the copy's source for an issue and a completion). -/
def evR : XEv → Option Nat
  | XEv.rd _ a => some a
  | XEv.wr _ _ => none
  | XEv.iss _ s _ => some s
  | XEv.fin _ s _ => some s

def optEq : Option Nat → Option Nat → Bool
  | some a, some b => Nat.beq a b
  | _, _ => false

def evConf (e f : XEv) : Bool :=
  not (Nat.beq (evT e) (evT f)) &&
    (optEq (evW e) (evW f) || optEq (evW e) (evR f) || optEq (evR e) (evW f))

def anyConf (e : Nat × XEv) : List (Nat × XEv) → Bool
  | [] => false
  | f :: l => (Nat.beq e.1 f.1 && evConf e.2 f.2) || anyConf e l

/-- Two events of different threads in one epoch with conflicting accesses. -/
def epochRace : List (Nat × XEv) → Bool
  | [] => false
  | e :: l => anyConf e l || epochRace l

/-- The executor's verdict on a history of (epoch, event): the tag checks pass, no epoch race,
and no copy outstanding at the end at the given addresses. -/
def accepts (h : List (Nat × XEv)) : Bool :=
  xcheck xst0 (h.map Prod.snd) && not (epochRace h)

/-! ### Examples (`CpSem.Example`) -/

/-- `kp2`: thread 0 issues the copy 0 → 1, commits, waits (the copy completes there), arrives at
the barrier; thread 1 arrives; after the barrier (epoch 1) thread 1 reads 1. -/
def histKp2 : List (Nat × XEv) :=
  [(0, XEv.iss 0 0 1), (0, XEv.fin 0 0 1), (1, XEv.rd 1 1)]

/-- `kpRacy`: thread 0 issues 0 → 1, commits, waits, exits; then thread 1 writes 0 (no barrier,
one epoch). -/
def histRacy : List (Nat × XEv) :=
  [(0, XEv.iss 0 0 1), (0, XEv.fin 0 0 1), (0, XEv.wr 1 0)]

theorem kp2_passes : accepts histKp2 = true := rfl
theorem kp2_done : (run xst0 (histKp2.map Prod.snd)).od 1 = 0 := rfl
theorem kpRacy_reported : accepts histRacy = false := rfl
/-- The racy one passes the tag checks: only the ordinary race check reports it. -/
theorem kpRacy_tags_pass : xcheck xst0 (histRacy.map Prod.snd) = true := rfl
/-- A write of the destination before the wait by the issuing thread is reported (at the wait). -/
theorem dst_overwrite_reported :
    xcheck xst0 [XEv.iss 0 0 1, XEv.wr 0 1, XEv.fin 0 0 1] = false := rfl

/-! ### Every event that may overlap a copy in some schedule

A copy issued by thread `tc` in epoch `e1` and completed (at its wait) in epoch `e2` may be
pending, in some schedule of whole-CTA barriers, while an event `x` happens when `x` is of the
same thread and between the issue and the completion in program order, or of another thread in
an epoch between `e1` and `e2` (an earlier epoch is ordered before the issue by a barrier, a
later one after the completion).  In the executor's history, sorted by epoch, such an `x` lies
between the issue and the completion, or before the issue in the issue's epoch, or after the
completion in the completion's epoch.  The three lemmas below show that a conflicting `x` in
each of these places is reported.  (That every schedule's overlaps are of this form is the
`RaceCheck.lean` argument, NOT done here for `CpSem`.) -/

/-- List append over (epoch, event) pairs, by structural recursion. -/
def appP : List (Nat × XEv) → List (Nat × XEv) → List (Nat × XEv)
  | [], l => l
  | e :: l1, l2 => e :: appP l1 l2

def evs : List (Nat × XEv) → List XEv
  | [] => []
  | p :: l => p.2 :: evs l

theorem app_assoc' (a b c : List XEv) : app (app a b) c = app a (app b c) := by
  induction a with
  | nil => rfl
  | cons e a ih => exact congrArg (List.cons e) ih

/-- No completion with destination `d`. -/
def NoFinD (d : Nat) : List XEv → Prop
  | [] => True
  | XEv.fin _ _ d' :: l => d' ≠ d ∧ NoFinD d l
  | _ :: l => NoFinD d l

theorem od_noFin (d : Nat) (l : List XEv) (st : XSt) (hn : NoFinD d l) :
    st.od d ≤ (run st l).od d := by
  induction l generalizing st with
  | nil => exact Nat.leRefl _
  | cons e l ih =>
    cases e with
    | rd t a => exact ih (step st (XEv.rd t a)) hn
    | wr t a => exact ih (step st (XEv.wr t a)) hn
    | iss t s' d' =>
      have h1 : st.od d ≤ (step st (XEv.iss t s' d')).od d := by
        show st.od d ≤ upd st.od d' (st.od d' + 1) d
        cases Nat.decEq d d' with
        | isTrue he => rw [he, upd_same]; exact Nat.leSucc _
        | isFalse he => rw [upd_other _ _ he]; exact Nat.leRefl _
      exact Nat.leTrans h1 (ih _ hn)
    | fin t s' d' =>
      have h1 : st.od d ≤ (step st (XEv.fin t s' d')).od d := by
        show st.od d ≤ upd st.od d' (st.od d' - 1) d
        rw [upd_other _ _ (fun h => hn.1 (Eq.symm h))]
        exact Nat.leRefl _
      exact Nat.leTrans h1 (ih _ hn.2)

theorem od_pos_after (A B1 : List XEv) (tc s d : Nat) (hn : NoFinD d B1) :
    0 < (run xst0 (app A (XEv.iss tc s d :: B1))).od d := by
  rw [run_append]
  have h1 : 0 < (step (run xst0 A) (XEv.iss tc s d)).od d := by
    show 0 < upd (run xst0 A).od d ((run xst0 A).od d + 1) d
    rw [upd_same]
    exact Nat.succPos _
  exact Nat.ltOfLtOfLe h1 (od_noFin d B1 _ hn)

/-- An event that touches the destination `d` as the checks see it. -/
def DstConf (d : Nat) : XEv → Prop
  | XEv.rd _ a => a = d
  | XEv.wr _ a => a = d
  | XEv.iss _ _ a => a = d
  | XEv.fin _ _ _ => False

/-- Between the issue and the next completion to `d` in the history (any thread, the issuing
one included): a read, write or issue to `d` is reported, or a copy to `d` is left outstanding
at the end. -/
theorem between_dst (A B1 B2 : List XEv) (tc s d : Nat) (x : XEv) (hx : DstConf d x)
    (hn : NoFinD d B1)
    (hc : xcheck xst0 (app A (XEv.iss tc s d :: app B1 (x :: B2))) = true)
    (hend : (run xst0 (app A (XEv.iss tc s d :: app B1 (x :: B2)))).od d = 0) : False := by
  have e : app A (XEv.iss tc s d :: app B1 (x :: B2)) =
      app (app A (XEv.iss tc s d :: B1)) (x :: B2) := Eq.symm (app_assoc' _ _ _)
  rw [e] at hc hend
  have hpos := od_pos_after A B1 tc s d hn
  cases x with
  | rd t a =>
    have ha : a = d := hx
    rw [ha] at hc hend
    have h0 := run_read_dst _ B2 t d hc hend
    rw [h0] at hpos
    exact Nat.notLtZero _ hpos
  | wr t a =>
    have ha : a = d := hx
    rw [ha] at hc hend
    have h0 := run_write_dst _ B2 t d hc hend
    rw [h0] at hpos
    exact Nat.notLtZero _ hpos
  | iss t s' a =>
    have ha : a = d := hx
    rw [ha] at hc hend
    have h0 := run_issue_dst _ B2 t s' d hc hend
    rw [h0] at hpos
    exact Nat.notLtZero _ hpos
  | fin t s' a => exact hx

/-- No completion with source `src`. -/
def NoFinS (src : Nat) : List XEv → Prop
  | [] => True
  | XEv.fin _ s' _ :: l => s' ≠ src ∧ NoFinS src l
  | _ :: l => NoFinS src l

theorem os_noFin (src : Nat) (l : List XEv) (st : XSt) (hn : NoFinS src l) :
    st.os src ≤ (run st l).os src := by
  induction l generalizing st with
  | nil => exact Nat.leRefl _
  | cons e l ih =>
    cases e with
    | rd t a => exact ih (step st (XEv.rd t a)) hn
    | wr t a => exact ih (step st (XEv.wr t a)) hn
    | iss t s' d' =>
      have h1 : st.os src ≤ (step st (XEv.iss t s' d')).os src := by
        show st.os src ≤ upd st.os s' (st.os s' + 1) src
        cases Nat.decEq src s' with
        | isTrue he => rw [he, upd_same]; exact Nat.leSucc _
        | isFalse he => rw [upd_other _ _ he]; exact Nat.leRefl _
      exact Nat.leTrans h1 (ih _ hn)
    | fin t s' d' =>
      have h1 : st.os src ≤ (step st (XEv.fin t s' d')).os src := by
        show st.os src ≤ upd st.os s' (st.os s' - 1) src
        rw [upd_other _ _ (fun h => hn.1 (Eq.symm h))]
        exact Nat.leRefl _
      exact Nat.leTrans h1 (ih _ hn.2)

/-- Between the issue and the next completion from `src` in the history (any thread): a
write to `src` is reported (`access.rs`, `Cta::inflight`). -/
theorem between_src (A B1 B2 : List XEv) (tc src d t : Nat) (hn : NoFinS src B1)
    (hc : xcheck xst0 (app A (XEv.iss tc src d :: app B1 (XEv.wr t src :: B2))) = true) :
    False := by
  have e : app A (XEv.iss tc src d :: app B1 (XEv.wr t src :: B2)) =
      app (app A (XEv.iss tc src d :: B1)) (XEv.wr t src :: B2) := Eq.symm (app_assoc' _ _ _)
  rw [e] at hc
  have h0 := run_write_src _ B2 t src hc
  rw [run_append] at h0
  have h1 : 0 < (step (run xst0 A) (XEv.iss tc src d)).os src := by
    show 0 < upd (run xst0 A).os src ((run xst0 A).os src + 1) src
    rw [upd_same]
    exact Nat.succPos _
  have h2 := Nat.ltOfLtOfLe h1 (os_noFin src B1 _ hn)
  have h0' : (run (step (run xst0 A) (XEv.iss tc src d)) B1).os src = 0 := h0
  rw [h0'] at h2
  exact Nat.notLtZero _ h2

theorem beq_self (a : Nat) : Nat.beq a a = true := by
  induction a with
  | zero => rfl
  | succ n ih => exact ih

theorem eq_of_beq' : (a b : Nat) → Nat.beq a b = true → a = b
  | 0, 0, _ => rfl
  | 0, _ + 1, h => by cases h
  | _ + 1, 0, h => by cases h
  | a + 1, b + 1, h => congrArg Nat.succ (eq_of_beq' a b h)

theorem beq_ne {a b : Nat} (h : a ≠ b) : Nat.beq a b = false := by
  cases hb : Nat.beq a b with
  | false => rfl
  | true => exact False.elim (h (eq_of_beq' a b hb))

theorem or_true_l (a b : Bool) (h : a = true) : (a || b) = true := by rw [h]; rfl
theorem or_true_r (a b : Bool) (h : b = true) : (a || b) = true := by
  cases a with
  | false => exact h
  | true => rfl

theorem anyConf_app (p q : Nat × XEv) (M R : List (Nat × XEv))
    (h : (Nat.beq p.1 q.1 && evConf p.2 q.2) = true) : anyConf p (appP M (q :: R)) = true := by
  induction M with
  | nil => exact or_true_l _ _ h
  | cons f M ih => exact or_true_r _ _ ih

/-- Two events of one epoch, the first before the second, that conflict: `epochRace`. -/
theorem epochRace_app (A M R : List (Nat × XEv)) (p q : Nat × XEv)
    (h : (Nat.beq p.1 q.1 && evConf p.2 q.2) = true) :
    epochRace (appP A (p :: appP M (q :: R))) = true := by
  induction A with
  | nil => exact or_true_l _ _ (anyConf_app p q M R h)
  | cons f A ih => exact or_true_r _ _ ih

/-- An event that conflicts with a copy `src → d` for the ordinary race check: it reads or
writes `d`, writes `src`, or issues a copy to `d`. -/
def CopyConf (src d : Nat) : XEv → Prop
  | XEv.rd _ a => a = d
  | XEv.wr _ a => a = d ∨ a = src
  | XEv.iss _ _ a => a = d
  | XEv.fin _ _ _ => False

theorem conf_iss (x : XEv) (tc s d : Nat) (hx : CopyConf s d x) (ht : evT x ≠ tc) :
    evConf x (XEv.iss tc s d) = true := by
  cases x with
  | rd t a =>
    have ha : a = d := hx
    have ht1 : t ≠ tc := ht
    show (not (Nat.beq t tc) && (false || false || Nat.beq a d)) = true
    rw [beq_ne ht1, ha, beq_self]; rfl
  | wr t a =>
    have ht1 : t ≠ tc := ht
    show (not (Nat.beq t tc) && (Nat.beq a d || Nat.beq a s || false)) = true
    rw [beq_ne ht1]
    cases hx with
    | inl ha => rw [ha, beq_self]; rfl
    | inr ha => rw [ha, beq_self]; cases Nat.beq s d <;> rfl
  | iss t s' a =>
    have ha : a = d := hx
    have ht1 : t ≠ tc := ht
    show (not (Nat.beq t tc) && (Nat.beq a d || Nat.beq a s || Nat.beq s' d)) = true
    rw [beq_ne ht1, ha, beq_self]; rfl
  | fin t s' a => exact False.elim hx

theorem conf_fin (x : XEv) (tc s d : Nat) (hx : CopyConf s d x) (ht : evT x ≠ tc) :
    evConf (XEv.fin tc s d) x = true := by
  have ht' : tc ≠ evT x := fun h => ht (Eq.symm h)
  cases x with
  | rd t a =>
    have ha : a = d := hx
    have ht1 : tc ≠ t := ht'
    show (not (Nat.beq tc t) && (false || Nat.beq d a || false)) = true
    rw [beq_ne ht1, ha, beq_self]; rfl
  | wr t a =>
    have ht1 : tc ≠ t := ht'
    show (not (Nat.beq tc t) && (Nat.beq d a || false || Nat.beq s a)) = true
    rw [beq_ne ht1]
    cases hx with
    | inl ha => rw [ha, beq_self]; rfl
    | inr ha => rw [ha, beq_self]; cases Nat.beq d s <;> rfl
  | iss t s' a =>
    have ha : a = d := hx
    have ht1 : tc ≠ t := ht'
    show (not (Nat.beq tc t) && (Nat.beq d a || Nat.beq d s' || Nat.beq s a)) = true
    rw [beq_ne ht1, ha, beq_self]; rfl
  | fin t s' a => exact False.elim hx

/-- The history's epochs never decrease. -/
def EpochSorted (h : List (Nat × XEv)) : Prop :=
  ∀ A M R p q, h = appP A (p :: appP M (q :: R)) → p.1 ≤ q.1

theorem le_antisymm' {a b : Nat} (h1 : a ≤ b) (h2 : b ≤ a) : a = b := Nat.leAntisymm h1 h2

/-- Before the issue in the issue's epoch (another thread, run first by the executor): a
conflicting event is an epoch race. -/
theorem before_iss (A M R : List (Nat × XEv)) (ex e1 tc s d : Nat) (x : XEv)
    (hs : EpochSorted (appP A ((ex, x) :: appP M ((e1, XEv.iss tc s d) :: R))))
    (hw : e1 ≤ ex) (hx : CopyConf s d x) (ht : evT x ≠ tc) :
    epochRace (appP A ((ex, x) :: appP M ((e1, XEv.iss tc s d) :: R))) = true := by
  have he : ex = e1 := le_antisymm' (hs A M R _ _ rfl) hw
  apply epochRace_app
  show (Nat.beq ex e1 && evConf x (XEv.iss tc s d)) = true
  rw [he, beq_self, conf_iss x tc s d hx ht]; rfl

/-- After the completion in the completion's epoch (another thread): an epoch race. -/
theorem after_fin (A M R : List (Nat × XEv)) (ex e2 tc s d : Nat) (x : XEv)
    (hs : EpochSorted (appP A ((e2, XEv.fin tc s d) :: appP M ((ex, x) :: R))))
    (hw : ex ≤ e2) (hx : CopyConf s d x) (ht : evT x ≠ tc) :
    epochRace (appP A ((e2, XEv.fin tc s d) :: appP M ((ex, x) :: R))) = true := by
  have he : e2 = ex := le_antisymm' (hs A M R _ _ rfl) hw
  apply epochRace_app
  show (Nat.beq e2 ex && evConf (XEv.fin tc s d) x) = true
  rw [he, beq_self, conf_fin x tc s d hx ht]; rfl

/-! ### Finding: a copy that is never waited for

The Rust checks a copy's destination only in `cp_async_wait` (it must still hold `Pending`).
A thread that reaches `exit` with copies outstanding (`Op::Exit` in `exec/step.rs` sets
`Status::Exited` and drops `async_open` / `async_groups`) is never checked: a store to the
destination after the issue overwrites `Pending` without a finding, and a later load reads the
stored value.  On the hardware the copy may land after that store.  Every `run_*` theorem
above needs its hypothesis `hend` (no copy to the address outstanding at the end), which the
Rust does not check.

PTX (one thread; shared `d`, global `s`):
```
cp.async.ca.shared.global [d], [s], 4;
st.shared.u32 [d], 5;
ld.shared.u32 %r1, [d];   // the executor: 5; the hardware: 5 or the value at [s]
st.global.u32 [out], %r1;
exit;                     // no cp.async.wait_group / wait_all
```
-/

namespace Finding

open CpSem

/-- The tag history of the executor's run of `kpNoWait` (below): issue 0 → 1, write 1, read 1,
exit with the copy outstanding. -/
def histNoWait : List (Nat × XEv) := [(0, XEv.iss 0 0 1), (0, XEv.wr 0 1), (0, XEv.rd 0 1)]

/-- The executor accepts it: the tag checks pass and no epoch race ... -/
theorem noWait_accepted : accepts histNoWait = true := rfl

/-- ... while the copy to 1 is still outstanding at the end. -/
theorem noWait_outstanding : (run xst0 (histNoWait.map Prod.snd)).od 1 = 1 := rfl

/-- The program in `CpSem`: thread 0 issues the copy 0 → 1, writes 5 to 1, reads 1, exits. -/
def kpNoWait : KProg Nat := fun i pc regs =>
  match i, pc with
  | 0, 0 => KAct.issue 0 1 1
  | 0, 1 => KAct.base (Act.write 1 5 2)
  | 0, 2 => KAct.base (Act.read 1 0 3)
  | _, _ => KAct.base Act.exit

/-- It is not race free: after the issue, the thread's write of 1 conflicts with the copy,
which is still pending (the engine may perform it after the write). -/
theorem noWait_not_free : ¬CpRaceFree kpNoWait 1 Example.s0 := by
  intro h
  have hr : KReach kpNoWait 1 Example.s0 (tnext kpNoWait 1 0 Example.s0) :=
    KReach.step (Example.kstep_thr kpNoWait 1 0 Example.s0 (by decide) rfl
      (fun n pc e => KAct.noConfusion e)) (KReach.refl _)
  exact (h _ hr).2.1 0 0 0 ⟨0, 1, 0⟩ (by decide) rfl (by decide) (by decide) rfl (Or.inl rfl)

end Finding

end CpCheck
end Kcert
