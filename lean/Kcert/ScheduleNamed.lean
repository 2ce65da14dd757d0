import Kcert.Compat
import Kcert.Semantics
import Kcert.Schedule
import Kcert.Named
import Kcert.OnceLink
import Kcert.SoloEv

/-!
# The executor's schedule with named barriers, as a function of the solo traces

Rust: `checker/src/exec/mod.rs` (`run_cta`, `resolve_barriers`) and `exec/step.rs`
(`run_thread`, `Op::Bar`).  `Schedule.lean` models `run_cta` for whole-CTA `bar.sync` only
(`Race.canon`); this file models it for named barriers, partial counts and `bar.arrive`, over
the solo traces (`Sem.soloAct`), producing a history of `Named.lean`'s `EventN`.

The model (namespace `Kcert.Race`); the executor's state is read off the history:

* a thread's next action is its solo action number `nEv t h` (how many events it performed);
* `pw h b`: the pending arrivals at `b` as (thread, waits) (Rust `cta.bars[b]`, without rows);
  `pendI h b` (`OnceLink.lean`) the same as (thread, action index);
* `blk t h`: thread `t` is blocked (Rust `Status::Bar`): set by its `bar.sync`, cleared when a
  completion drains a waiting arrival of `t`;
* `tRunN t f h` (`run_thread`, fuel `f`): while its next action is not `exit`, push it
  (`evN`: an arrival `Act.arrive b n w pc` is `EventN.bar t b w`, any other action
  `EventN.act t A`); stop after a `bar.sync` (`w = true`); a `bar.arrive` goes on;
* `passN F n h`: `for t in 0..n { if ready { run_thread } }` (ready: not blocked);
* `resolveN B h`: for each id `b < B` in ascending order (Rust iterates `cta.bars` in key
  order), if some arrival is pending and at least as many as the first arrival's count `n`
  (`firstCnt`), push `EventN.complete b n` (drain the first `n`, release their waiters);
* `canonN N B F r h`: at most `r` passes; after a pass, stop if every thread's next action is
  `exit` (`allExited`); otherwise resolve, and stop if nothing happened in the pass and the
  resolution (Rust `report_stuck`), else go on.  `canonRunN N B F`: from the launch, `F`
  passes, fuel `F` per thread per pass.  `FinishedN`: every thread below `N` at its `exit`.

Theorems:

* `canonRunN_notBlocked`, `canonRunN_fromAct`, `canonRunN_fromActB`, `canonRunN_compOK`: every
  run's history has blocked threads doing nothing (`NotBlocked`), follows `Members.soloEv`
  (`FromAct`), and its completions are `resolve_barriers`' (`CompOK`).
* `canonN_holds`, `canonN_covers`: a finished run performs every solo action up to the exit,
  every arrival (`Covers`).
* `canonN_ordered` (with `KthInst`), `canonN_ordered_drain` (with check (2) and an empty end):
  if the race check reports nothing, every two conflicting solo actions of different threads
  are ordered by `Members.HB (soloEv ..)`.
* `canonN_check3`, `canonN_once`: `Check3`, `Memb` and `Once` from the run and its checks.
* `canonN_valid`: with one count per id, the run's thread order is a `Valid` schedule in which
  every thread reaches its exit.
* Examples: `prodCons` (finished, no report, ordered, valid, once), `prodConsRacy` (reported),
  `prodConsStuck` (unfinished).

Simplifications (see the README): the count of an arrival is the solo action's `n` (Rust
`first.count.unwrap_or(n)`); ids are `0 .. B-1`; exits are not events (a thread whose next
action is `exit` is exited); fuel is per thread per pass (Rust `max_steps_per_thread` is per
thread); the findings (divergence, members, check (3)) are not part of the run.
-/

namespace Kcert
namespace Race

open Sem (Act)
open Members (nEv FromAct PosAt pendI KthInst Covers soloEv evOf Ev)

section Defs

variable {V : Type} [Sem.AccAdd V]

/-- The pending arrivals at each id as (thread, waits), like `brun`'s lists without rows. -/
def pw : List (EventN V) → Nat → List (Nat × Bool)
  | [] => fun _ => []
  | EventN.act _ _ :: h => pw h
  | EventN.bar t b w :: h => Sem.upd (pw h) b (snocL (pw h b) (t, w))
  | EventN.complete b m :: h => Sem.upd (pw h) b (dropL m (pw h b))

/-- How many waiting arrivals of `t` a list holds. -/
def cntW (t : Nat) : List (Nat × Bool) → Nat
  | [] => 0
  | p :: l => cond (p.2 && decide (p.1 = t)) (cntW t l + 1) (cntW t l)

/-- Thread `t` is blocked (Rust `Status::Bar`): its `bar.sync` sets it, a completion that
drains a waiting arrival of `t` clears it (Rust: `waiters` become `Ready`). -/
def blk (t : Nat) : List (EventN V) → Bool
  | [] => false
  | EventN.act _ _ :: h => blk t h
  | EventN.bar u _ w :: h => (w && decide (u = t)) || blk t h
  | EventN.complete b m :: h => !decide (0 < cntW t (takeL m (pw h b))) && blk t h

def isExitA : Act V → Bool
  | Act.exit => true
  | _ => false

/-- A `bar.sync`: the thread stops after it. -/
def halts : Act V → Bool
  | Act.arrive _ _ w _ => w
  | _ => false

/-- The event of thread `t` performing `A`. -/
def evN (t : Nat) : Act V → EventN V
  | Act.arrive b _ w _ => EventN.bar t b w
  | Act.compute pc g => EventN.act t (Act.compute pc g)
  | Act.read a r pc => EventN.act t (Act.read a r pc)
  | Act.write a v pc => EventN.act t (Act.write a v pc)
  | Act.atomAdd a v pc => EventN.act t (Act.atomAdd a v pc)
  | Act.exit => EventN.act t Act.exit

/-- The count of an arrival (the solo action's `n`). -/
def cntOf (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (p : Nat × Nat) : Nat :=
  match Sem.soloAct prog regs0 m0 p.1 p.2 with
  | Act.arrive _ n _ _ => n
  | _ => 0

/-- The count of the first pending arrival (Rust `first.count`). -/
def firstCnt (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    List (Nat × Nat) → Nat
  | [] => 0
  | p :: _ => cntOf prog regs0 m0 p

/-- `run_thread` for thread `t`, fuel `f`. -/
def tRunN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (t : Nat) :
    Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | f + 1, h =>
    cond (isExitA (Sem.soloAct prog regs0 m0 t (nEv t h))) h
      (cond (halts (Sem.soloAct prog regs0 m0 t (nEv t h)))
        (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)
        (tRunN prog regs0 m0 t f (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)))

/-- One pass `for t in 0..n`: run each thread that is not blocked. -/
def passN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (F : Nat) :
    Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | n + 1, h =>
    cond (blk n (passN prog regs0 m0 F n h)) (passN prog regs0 m0 F n h)
      (tRunN prog regs0 m0 n F (passN prog regs0 m0 F n h))

/-- Complete id `b` if it has its count of pending arrivals. -/
def resolveOne (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (b : Nat)
    (h : List (EventN V)) : List (EventN V) :=
  cond (decide (0 < lenL (pendI h b)) &&
      decide (firstCnt prog regs0 m0 (pendI h b) ≤ lenL (pendI h b)))
    (EventN.complete b (firstCnt prog regs0 m0 (pendI h b)) :: h) h

/-- `resolve_barriers` over the ids `0 .. B-1`, ascending. -/
def resolveN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | b + 1, h => resolveOne prog regs0 m0 b (resolveN prog regs0 m0 b h)

/-- Every thread below `N` has `exit` as its next action. -/
def allExited (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N : Nat)
    (h : List (EventN V)) : Bool :=
  allB (fun t => isExitA (Sem.soloAct prog regs0 m0 t (nEv t h))) N

/-- `run_cta` with named barriers: at most `r` passes from history `h`. -/
def canonN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N B F : Nat) :
    Nat → List (EventN V) → List (EventN V)
  | 0, h => h
  | r + 1, h =>
    cond (allExited prog regs0 m0 N (passN prog regs0 m0 F N h)) (passN prog regs0 m0 F N h)
      (cond (decide (lenL (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h)) = lenL h))
        (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h))
        (canonN prog regs0 m0 N B F r (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h))))

/-- The run from the launch: `F` passes, fuel `F` per thread per pass. -/
def canonRunN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N B F : Nat) :
    List (EventN V) :=
  canonN prog regs0 m0 N B F F []

/-- The run finished: every thread below `N` reached its `exit`. -/
def FinishedN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N B F : Nat) : Bool :=
  allExited prog regs0 m0 N (canonRunN prog regs0 m0 N B F)

/-- The per-thread sequences of the threads below `N` (`soloEv`, local beyond `N`). -/
def soloEvB (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N t i : Nat) : Ev :=
  cond (decide (t < N)) (soloEv prog regs0 m0 t i) Ev.loc

/-- Event `e` of thread `t` pushed on `h` is its next solo action, not an exit. -/
def SoloAt (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N t : Nat)
    (e : EventN V) (h : List (EventN V)) : Prop :=
  t < N ∧ isExitA (Sem.soloAct prog regs0 m0 t (nEv t h)) = false ∧
    evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) = e

/-- The history is made of the solo traces of the threads below `N`. -/
def FromSolo (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N : Nat) :
    List (EventN V) → Prop
  | [] => True
  | EventN.act t A :: h => FromSolo prog regs0 m0 N h ∧ SoloAt prog regs0 m0 N t (EventN.act t A) h
  | EventN.bar t b w :: h => FromSolo prog regs0 m0 N h ∧ SoloAt prog regs0 m0 N t (EventN.bar t b w) h
  | EventN.complete _ _ :: h => FromSolo prog regs0 m0 N h

end Defs

section Pend

variable {V : Type}

/-- An executor arrival and a (thread, waits) entry agree. -/
def RA (a : Arrival) (p : Nat × Bool) : Prop := a.tid = p.1 ∧ a.wait = p.2

/-- `pw` is `brun`'s arrival lists without the rows. -/
theorem rel_pw (N : Nat) : ∀ (h : List (EventN V)) (b : Nat), Rel2 RA ((brun N h).bars b) (pw h b)
  | [], b => trivial
  | EventN.act t A :: h, b => rel_pw N h b
  | EventN.bar t b0 w :: h, b => by
    cases w with
    | true =>
      show Rel2 RA (Sem.upd (brun N h).bars b0
          (snocL ((brun N h).bars b0) ⟨t, true, (brun N h).clocks.row t⟩) b)
        (Sem.upd (pw h) b0 (snocL (pw h b0) (t, true)) b)
      cases Nat.decEq b b0 with
      | isTrue e =>
        rw [e, upd_same, upd_same]
        exact rel2_snoc ⟨rfl, rfl⟩ (rel_pw N h b0)
      | isFalse e => rw [upd_other _ _ e, upd_other _ _ e]; exact rel_pw N h b
    | false =>
      show Rel2 RA (Sem.upd (brun N h).bars b0
          (snocL ((brun N h).bars b0) ⟨t, false, ((brun N h).clocks.arrive t).1⟩) b)
        (Sem.upd (pw h) b0 (snocL (pw h b0) (t, false)) b)
      cases Nat.decEq b b0 with
      | isTrue e =>
        rw [e, upd_same, upd_same]
        exact rel2_snoc ⟨rfl, rfl⟩ (rel_pw N h b0)
      | isFalse e => rw [upd_other _ _ e, upd_other _ _ e]; exact rel_pw N h b
  | EventN.complete b0 m :: h, b => by
    show Rel2 RA (Sem.upd (brun N h).bars b0 (dropL m ((brun N h).bars b0)) b)
      (Sem.upd (pw h) b0 (dropL m (pw h b0)) b)
    cases Nat.decEq b b0 with
    | isTrue e =>
      rw [e, upd_same, upd_same]
      exact rel2_drop m (rel_pw N h b0)
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e]; exact rel_pw N h b

/-- A blocked thread has a waiting arrival in `pw`. -/
theorem pw_of_blocked {N : Nat} {h : List (EventN V)} {t : Nat} (hb : Blocked (brun N h) t) :
    ∃ b, In (t, true) (pw h b) :=
  match hb with
  | ⟨b, a, ha, ht, hw⟩ =>
    match rel2_inL (rel_pw N h b) ha with
    | ⟨p, hp, hr⟩ => by
      cases p with
      | mk p1 p2 =>
        have e1 : p1 = t := Eq.trans (Eq.symm hr.1) ht
        have e2 : p2 = true := Eq.trans (Eq.symm hr.2) hw
        rw [e1, e2] at hp
        exact ⟨b, hp⟩

theorem cntW_pos_of_in {t : Nat} : ∀ {l : List (Nat × Bool)}, In (t, true) l → 0 < cntW t l
  | [], hi => False.elim hi
  | p :: l, hi => by
    cases hi with
    | inl e =>
      rw [e]
      show 0 < cond (true && decide (t = t)) (cntW t l + 1) (cntW t l)
      rw [decide_eq_true' (rfl : t = t)]
      exact Nat.succPos _
    | inr hi =>
      have ih := cntW_pos_of_in hi
      show 0 < cond (p.2 && decide (p.1 = t)) (cntW t l + 1) (cntW t l)
      cases p.2 && decide (p.1 = t) with
      | true => exact Nat.succPos _
      | false => exact ih

theorem in_of_cntW_pos {t : Nat} : ∀ {l : List (Nat × Bool)}, 0 < cntW t l → In (t, true) l
  | [], hc => False.elim (Nat.ltIrrefl 0 hc)
  | p :: l, hc => by
    cases p with
    | mk p1 p2 =>
      have d : cntW t ((p1, p2) :: l) = cond (p2 && decide (p1 = t)) (cntW t l + 1) (cntW t l) :=
        rfl
      rw [d] at hc
      cases p2 with
      | false => exact Or.inr (in_of_cntW_pos hc)
      | true =>
        cases Nat.decEq p1 t with
        | isTrue e => rw [e]; exact Or.inl rfl
        | isFalse e =>
          rw [decide_eq_false' e] at hc
          exact Or.inr (in_of_cntW_pos hc)

theorem cntW_zero_of {t : Nat} {l : List (Nat × Bool)} (h : ¬ In (t, true) l) : cntW t l = 0 := by
  cases hc : cntW t l with
  | zero => rfl
  | succ n =>
    have : 0 < cntW t l := by rw [hc]; exact Nat.succPos n
    exact False.elim (h (in_of_cntW_pos this))

theorem cntW_snoc (t : Nat) (p : Nat × Bool) : ∀ (l : List (Nat × Bool)),
    cntW t (snocL l p) = cntW t l + cntW t [p]
  | [] => by show cntW t [p] = 0 + cntW t [p]; rw [Nat.zero_add]
  | q :: l => by
    have ih := cntW_snoc t p l
    show cond (q.2 && decide (q.1 = t)) (cntW t (snocL l p) + 1) (cntW t (snocL l p)) =
      cond (q.2 && decide (q.1 = t)) (cntW t l + 1) (cntW t l) + cntW t [p]
    rw [ih]
    cases q.2 && decide (q.1 = t) with
    | true => show cntW t l + cntW t [p] + 1 = cntW t l + 1 + cntW t [p]; rw [Nat.add_right_comm]
    | false => rfl

theorem cntW_split (t : Nat) : ∀ (m : Nat) (l : List (Nat × Bool)),
    cntW t (takeL m l) + cntW t (dropL m l) = cntW t l
  | 0, l => Nat.zero_add _
  | m + 1, [] => rfl
  | m + 1, q :: l => by
    have ih := cntW_split t m l
    show cond (q.2 && decide (q.1 = t)) (cntW t (takeL m l) + 1) (cntW t (takeL m l)) +
      cntW t (dropL m l) = cond (q.2 && decide (q.1 = t)) (cntW t l + 1) (cntW t l)
    cases q.2 && decide (q.1 = t) with
    | true => show cntW t (takeL m l) + 1 + cntW t (dropL m l) = cntW t l + 1; rw [Nat.add_right_comm, ih]
    | false => exact ih

theorem add_zero_left {a b : Nat} (h : a + b = 0) : a = 0 := by
  cases a with
  | zero => rfl
  | succ a => rw [Nat.succ_add] at h; cases h

theorem add_zero_right {a b : Nat} (h : a + b = 0) : b = 0 := by
  cases b with
  | zero => rfl
  | succ b => cases h

theorem add_one_pos {a b : Nat} (h : a + b = 1) (hb : 0 < b) : a = 0 ∧ b = 1 := by
  cases b with
  | zero => exact False.elim (Nat.ltIrrefl 0 hb)
  | succ b =>
    have h' : a + b = 0 := Nat.succ.inj h
    rw [add_zero_left h', add_zero_right h']
    exact ⟨rfl, rfl⟩

end Pend

section BInvS

variable {V : Type}

/-- The executor's bookkeeping of blocked threads: a thread with a pending waiting arrival is
blocked, and it has exactly one, at one id. -/
def BInv (h : List (EventN V)) : Prop :=
  ∀ t b, In (t, true) (pw h b) → blk t h = true ∧ cntW t (pw h b) = 1 ∧
    ∀ b', ¬ b' = b → cntW t (pw h b') = 0

theorem bInv_nil : BInv ([] : List (EventN V)) := fun _ _ hin => False.elim hin

theorem bInv_act {h : List (EventN V)} (hI : BInv h) (u : Nat) (A : Act V) :
    BInv (EventN.act u A :: h) := hI

theorem notin_of_blk {h : List (EventN V)} (hI : BInv h) {u : Nat} (hb : blk u h = false) :
    ∀ b, ¬ In (u, true) (pw h b) := fun b hin => by
  have := (hI u b hin).1
  rw [hb] at this
  cases this

theorem not_blocked_of_blk {N : Nat} {h : List (EventN V)} (hI : BInv h) {u : Nat}
    (hb : blk u h = false) : ¬ Blocked (brun N h) u := fun hB =>
  match pw_of_blocked hB with
  | ⟨b, hin⟩ => notin_of_blk hI hb b hin

theorem cntW_one_other {t u : Nat} (w : Bool) (ne : ¬ u = t) : cntW t [(u, w)] = 0 := by
  show cond (w && decide (u = t)) (0 + 1) 0 = 0
  rw [decide_eq_false' ne]
  cases w <;> rfl

theorem bInv_bar {h : List (EventN V)} (hI : BInv h) {u b0 : Nat} {w : Bool}
    (hu : ∀ b, ¬ In (u, true) (pw h b)) : BInv (EventN.bar u b0 w :: h) := by
  intro t b hin
  have epw : ∀ b', pw (EventN.bar u b0 w :: h) b' =
      Sem.upd (pw h) b0 (snocL (pw h b0) (u, w)) b' := fun _ => rfl
  have eblk : blk t (EventN.bar u b0 w :: h) = ((w && decide (u = t)) || blk t h) := rfl
  rw [epw] at hin
  cases Nat.decEq u t with
  | isTrue e =>
    rw [← e] at hin
    rw [← e]
    have hb : b = b0 := by
      cases Nat.decEq b b0 with
      | isTrue e2 => exact e2
      | isFalse e2 =>
        rw [upd_other _ _ e2] at hin
        exact False.elim (hu b hin)
    rw [hb] at hin
    rw [hb]
    rw [upd_same] at hin
    have hw : w = true := by
      cases in_snocL hin with
      | inl h1 => exact False.elim (hu b0 h1)
      | inr h2 => exact (Prod.mk.inj h2).2
    subst hw
    refine ⟨?_, ?_, fun b' hb' => ?_⟩
    · show ((true && decide (u = u)) || blk u h) = true
      rw [decide_eq_true' (rfl : u = u)]; rfl
    · rw [epw, upd_same, cntW_snoc, cntW_zero_of (hu b0)]
      show 0 + cond (true && decide (u = u)) (0 + 1) 0 = 1
      rw [decide_eq_true' (rfl : u = u)]; rfl
    · rw [epw, upd_other _ _ hb']
      exact cntW_zero_of (hu b')
  | isFalse ne =>
    have hin0 : In (t, true) (pw h b) := by
      cases Nat.decEq b b0 with
      | isTrue e2 =>
        rw [e2, upd_same] at hin
        rw [e2]
        cases in_snocL hin with
        | inl h1 => exact h1
        | inr h2 => exact False.elim (ne (Prod.mk.inj h2).1)
      | isFalse e2 =>
        rw [upd_other _ _ e2] at hin
        exact hin
    have cnt : ∀ b', cntW t (pw (EventN.bar u b0 w :: h) b') = cntW t (pw h b') := by
      intro b'
      rw [epw]
      cases Nat.decEq b' b0 with
      | isTrue e2 => rw [e2, upd_same, cntW_snoc, cntW_one_other w ne]; rfl
      | isFalse e2 => rw [upd_other _ _ e2]
    match hI t b hin0 with
    | ⟨h1, h2, h3⟩ =>
      refine ⟨?_, ?_, fun b' hb' => ?_⟩
      · rw [eblk, decide_eq_false' ne, h1]; cases w <;> rfl
      · rw [cnt]; exact h2
      · rw [cnt]; exact h3 b' hb'

theorem bInv_complete {h : List (EventN V)} (hI : BInv h) (b0 m : Nat) :
    BInv (EventN.complete b0 m :: h) := by
  intro t b hin
  have epw : ∀ b', pw (EventN.complete b0 m :: h) b' =
      Sem.upd (pw h) b0 (dropL m (pw h b0)) b' := fun _ => rfl
  have eblk : blk t (EventN.complete b0 m :: h) =
      (!decide (0 < cntW t (takeL m (pw h b0))) && blk t h) := rfl
  rw [epw] at hin
  have hin0 : In (t, true) (pw h b) := by
    cases Nat.decEq b b0 with
    | isTrue e2 =>
      rw [e2, upd_same] at hin
      rw [e2]
      exact in_dropL m hin
    | isFalse e2 =>
      rw [upd_other _ _ e2] at hin
      exact hin
  have split := cntW_split t m (pw h b0)
  match hI t b hin0 with
  | ⟨h1, h2, h3⟩ =>
    have key : cntW t (takeL m (pw h b0)) = 0 ∧ (b = b0 → cntW t (dropL m (pw h b0)) = 1) ∧
        (¬ b = b0 → cntW t (dropL m (pw h b0)) = 0) := by
      cases Nat.decEq b b0 with
      | isTrue e2 =>
        rw [e2, upd_same] at hin
        rw [e2] at h2
        rw [h2] at split
        have r := add_one_pos split (cntW_pos_of_in hin)
        exact ⟨r.1, fun _ => r.2, fun n => False.elim (n e2)⟩
      | isFalse e2 =>
        have z := h3 b0 (fun x => e2 (Eq.symm x))
        rw [z] at split
        exact ⟨add_zero_left split, fun x => False.elim (e2 x), fun _ => add_zero_right split⟩
    refine ⟨?_, ?_, fun b' hb' => ?_⟩
    · rw [eblk, key.1, h1, decide_eq_false' (Nat.ltIrrefl 0)]; rfl
    · rw [epw]
      cases Nat.decEq b b0 with
      | isTrue e2 => rw [e2, upd_same]; exact key.2.1 e2
      | isFalse e2 => rw [upd_other _ _ e2]; exact h2
    · rw [epw]
      cases Nat.decEq b' b0 with
      | isTrue e2 =>
        rw [e2, upd_same]
        exact key.2.2 (fun x => hb' (Eq.trans e2 (Eq.symm x)))
      | isFalse e2 => rw [upd_other _ _ e2]; exact h3 b' hb'

end BInvS

section Good

variable {V : Type} [Sem.AccAdd V]

/-- The invariant of the run: blocked threads do nothing, the bookkeeping of blocked threads
holds, and the history is made of the solo traces. -/
def GoodN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N : Nat)
    (h : List (EventN V)) : Prop :=
  NotBlocked N h ∧ BInv h ∧ FromSolo prog regs0 m0 N h

theorem goodN_nil (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N : Nat) :
    GoodN prog regs0 m0 N [] := ⟨trivial, bInv_nil, trivial⟩

theorem good_act {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {h : List (EventN V)} (hG : GoodN prog regs0 m0 N h) {t : Nat} {B : Act V}
    (hb : blk t h = false) (hs : SoloAt prog regs0 m0 N t (EventN.act t B) h) :
    GoodN prog regs0 m0 N (EventN.act t B :: h) :=
  ⟨⟨hG.1, fun t' e => by rw [← e]; exact not_blocked_of_blk hG.2.1 hb⟩, bInv_act hG.2.1 t B,
    ⟨hG.2.2, hs⟩⟩

theorem good_bar {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {h : List (EventN V)} (hG : GoodN prog regs0 m0 N h) {t b : Nat} {w : Bool}
    (hb : blk t h = false) (hs : SoloAt prog regs0 m0 N t (EventN.bar t b w) h) :
    GoodN prog regs0 m0 N (EventN.bar t b w :: h) :=
  ⟨⟨hG.1, fun t' e => by rw [← e]; exact not_blocked_of_blk hG.2.1 hb⟩,
    bInv_bar hG.2.1 (notin_of_blk hG.2.1 hb), ⟨hG.2.2, hs⟩⟩

theorem good_complete {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {h : List (EventN V)} (hG : GoodN prog regs0 m0 N h) (b m : Nat) :
    GoodN prog regs0 m0 N (EventN.complete b m :: h) :=
  ⟨⟨hG.1, fun t' e => False.elim e⟩, bInv_complete hG.2.1 b m, hG.2.2⟩

/-- Pushing a thread's next solo action keeps the invariant. -/
theorem good_push {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {h : List (EventN V)} (hG : GoodN prog regs0 m0 N h) {t : Nat} (ht : t < N)
    (hb : blk t h = false) :
    ∀ A, Sem.soloAct prog regs0 m0 t (nEv t h) = A → isExitA A = false →
      GoodN prog regs0 m0 N (evN t A :: h) := by
  intro A hA hx
  have hs : SoloAt prog regs0 m0 N t (evN t A) h := ⟨ht, by rw [hA]; exact hx, by rw [hA]⟩
  cases A with
  | arrive b n w pc => exact good_bar hG hb hs
  | compute pc g => exact good_act hG hb hs
  | read a r pc => exact good_act hG hb hs
  | write a v pc => exact good_act hG hb hs
  | atomAdd a v pc => exact good_act hG hb hs
  | exit => cases hx

theorem blk_push (t : Nat) (h : List (EventN V)) :
    ∀ A : Act V, halts A = false → blk t (evN t A :: h) = blk t h := by
  intro A hh
  cases A with
  | arrive b n w pc =>
    have hw : w = false := hh
    subst hw
    rfl
  | compute pc g => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl

theorem tRunN_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {t : Nat} (ht : t < N) : ∀ (f : Nat) (h : List (EventN V)), GoodN prog regs0 m0 N h →
      blk t h = false → GoodN prog regs0 m0 N (tRunN prog regs0 m0 t f h) := by
  intro f
  induction f with
  | zero => intro h hG _; exact hG
  | succ f ih =>
    intro h hG hb
    show GoodN prog regs0 m0 N
      (cond (isExitA (Sem.soloAct prog regs0 m0 t (nEv t h))) h
        (cond (halts (Sem.soloAct prog regs0 m0 t (nEv t h)))
          (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)
          (tRunN prog regs0 m0 t f (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h))))
    have hG' := good_push hG ht hb _ rfl
    cases hx : isExitA (Sem.soloAct prog regs0 m0 t (nEv t h)) with
    | true => exact hG
    | false =>
      cases hh : halts (Sem.soloAct prog regs0 m0 t (nEv t h)) with
      | true => exact hG' hx
      | false =>
        apply ih _ (hG' hx)
        rw [blk_push t h _ hh]
        exact hb

theorem passN_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    (F : Nat) (h : List (EventN V)) (hG : GoodN prog regs0 m0 N h) :
    ∀ n, n ≤ N → GoodN prog regs0 m0 N (passN prog regs0 m0 F n h) := by
  intro n
  induction n with
  | zero => intro _; exact hG
  | succ n ih =>
    intro hn
    have g := ih (Nat.leOfLt hn)
    show GoodN prog regs0 m0 N (cond (blk n (passN prog regs0 m0 F n h))
      (passN prog regs0 m0 F n h) (tRunN prog regs0 m0 n F (passN prog regs0 m0 F n h)))
    cases hb : blk n (passN prog regs0 m0 F n h) with
    | true => exact g
    | false => exact tRunN_good hn F _ g hb

theorem resolveN_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat} :
    ∀ (B : Nat) (h : List (EventN V)), GoodN prog regs0 m0 N h →
      GoodN prog regs0 m0 N (resolveN prog regs0 m0 B h) := by
  intro B
  induction B with
  | zero => intro h hG; exact hG
  | succ b ih =>
    intro h hG
    have g := ih h hG
    show GoodN prog regs0 m0 N (resolveOne prog regs0 m0 b (resolveN prog regs0 m0 b h))
    show GoodN prog regs0 m0 N (cond (decide (0 < lenL (pendI (resolveN prog regs0 m0 b h) b)) &&
      decide (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b) ≤
        lenL (pendI (resolveN prog regs0 m0 b h) b)))
      (EventN.complete b (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b)) ::
        resolveN prog regs0 m0 b h) (resolveN prog regs0 m0 b h))
    cases decide (0 < lenL (pendI (resolveN prog regs0 m0 b h) b)) &&
      decide (firstCnt prog regs0 m0 (pendI (resolveN prog regs0 m0 b h) b) ≤
        lenL (pendI (resolveN prog regs0 m0 b h) b)) with
    | true => exact good_complete g _ _
    | false => exact g

theorem canonN_good {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} (N B F : Nat) :
    ∀ (r : Nat) (h : List (EventN V)), GoodN prog regs0 m0 N h →
      GoodN prog regs0 m0 N (canonN prog regs0 m0 N B F r h) := by
  intro r
  induction r with
  | zero => intro h hG; exact hG
  | succ r ih =>
    intro h hG
    have g1 := passN_good F h hG N (Nat.leRefl N)
    have g2 := resolveN_good B _ g1
    show GoodN prog regs0 m0 N
      (cond (allExited prog regs0 m0 N (passN prog regs0 m0 F N h)) (passN prog regs0 m0 F N h)
        (cond (decide (lenL (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h)) = lenL h))
          (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h))
          (canonN prog regs0 m0 N B F r (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h)))))
    cases allExited prog regs0 m0 N (passN prog regs0 m0 F N h) with
    | true => exact g1
    | false =>
      cases decide (lenL (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h)) = lenL h) with
      | true => exact g2
      | false => exact ih _ g2

theorem canonRunN_good (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (N B F : Nat) : GoodN prog regs0 m0 N (canonRunN prog regs0 m0 N B F) :=
  canonN_good N B F F [] (goodN_nil prog regs0 m0 N)

/-- **Blocked threads do nothing** in the run: `Named.lean`'s `NotBlocked` holds for the
history of every run (finished or not), so `checkN_sound` and `ordered_iff_hb` apply. -/
theorem canonRunN_notBlocked (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (N B F : Nat) : NotBlocked N (canonRunN prog regs0 m0 N B F) :=
  (canonRunN_good prog regs0 m0 N B F).1

/-- The run's history is made of the solo traces of the threads below `N`. -/
theorem canonRunN_fromSolo (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (N B F : Nat) : FromSolo prog regs0 m0 N (canonRunN prog regs0 m0 N B F) :=
  (canonRunN_good prog regs0 m0 N B F).2.2

theorem evOf_of_act {t : Nat} {A : Act V} : ∀ {B : Act V}, evN t B = EventN.act t A → evOf B = Ev.loc
  | Act.arrive b n w pc, e => EventN.noConfusion e
  | Act.compute pc g, _ => rfl
  | Act.read a r pc, _ => rfl
  | Act.write a v pc, _ => rfl
  | Act.atomAdd a v pc, _ => rfl
  | Act.exit, _ => rfl

theorem evOf_of_bar {t b : Nat} {w : Bool} : ∀ {B : Act V}, evN t B = EventN.bar t b w →
    evOf B = Ev.arr b w
  | Act.arrive b' n w' pc, e => by
    have e' : EventN.bar t b' w' = (EventN.bar t b w : EventN V) := e
    injection e' with e1 e2 e3
    rw [e2, e3]; rfl
  | Act.compute pc g, e => EventN.noConfusion e
  | Act.read a r pc, e => EventN.noConfusion e
  | Act.write a v pc, e => EventN.noConfusion e
  | Act.atomAdd a v pc, e => EventN.noConfusion e
  | Act.exit, e => EventN.noConfusion e

theorem soloEvB_lt {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N t : Nat}
    (ht : t < N) (i : Nat) : soloEvB prog regs0 m0 N t i = soloEv prog regs0 m0 t i := by
  show cond (decide (t < N)) (soloEv prog regs0 m0 t i) Ev.loc = _
  rw [decide_eq_true' ht]; rfl

/-- A history made of the solo traces follows `soloEv` (`OnceLink.lean`'s `FromAct`), and
`soloEvB` (the threads below `N`). -/
theorem fromAct_of_fromSolo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N : Nat} : ∀ (h : List (EventN V)), FromSolo prog regs0 m0 N h →
      FromAct (soloEv prog regs0 m0) h ∧ FromAct (soloEvB prog regs0 m0 N) h
  | [], _ => ⟨trivial, trivial⟩
  | EventN.act t A :: h, ⟨hf, ht, _, he⟩ =>
    have r := fromAct_of_fromSolo h hf
    have e : soloEv prog regs0 m0 t (nEv t h) = Ev.loc := evOf_of_act he
    ⟨⟨r.1, e⟩, ⟨r.2, by rw [soloEvB_lt ht]; exact e⟩⟩
  | EventN.bar t b w :: h, ⟨hf, ht, _, he⟩ =>
    have r := fromAct_of_fromSolo h hf
    have e : soloEv prog regs0 m0 t (nEv t h) = Ev.arr b w := evOf_of_bar he
    ⟨⟨r.1, e⟩, ⟨r.2, by rw [soloEvB_lt ht]; exact e⟩⟩
  | EventN.complete b m :: h, hf => fromAct_of_fromSolo h hf

theorem canonRunN_fromAct (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (N B F : Nat) : FromAct (soloEv prog regs0 m0) (canonRunN prog regs0 m0 N B F) :=
  (fromAct_of_fromSolo _ (canonRunN_fromSolo prog regs0 m0 N B F)).1

theorem canonRunN_fromActB (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (N B F : Nat) : FromAct (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F) :=
  (fromAct_of_fromSolo _ (canonRunN_fromSolo prog regs0 m0 N B F)).2

end Good

section Holds

variable {V : Type} [Sem.AccAdd V]

open Members (Sfx sfx_pres fromAct_tail kthInst_tail notBlocked_tail find_ev posAt_fun hb_link)

theorem fromSolo_tail {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    (e : EventN V) (l : List (EventN V)) (h : FromSolo prog regs0 m0 N (e :: l)) :
    FromSolo prog regs0 m0 N l := by
  cases e with
  | act t A => exact h.1
  | bar t b w => exact h.1
  | complete b m => exact h

theorem isExitA_true {A : Act V} (h : isExitA A = true) : A = Act.exit := by
  cases A with
  | exit => rfl
  | arrive b n w pc => cases h
  | compute pc g => cases h
  | read a r pc => cases h
  | write a v pc => cases h
  | atomAdd a v pc => cases h

theorem isExitA_of_arr {A : Act V} {b : Nat} {w : Bool} (h : evOf A = Ev.arr b w) :
    isExitA A = false := by
  cases A with
  | exit => exact Ev.noConfusion h
  | arrive b n w pc => rfl
  | compute pc g => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl

/-- In a finished run, every solo action of a thread below `N` that is not `exit` comes before
the thread's position: it was performed. -/
theorem lt_nEv_of_finished {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} (hfin : FinishedN prog regs0 m0 N B F = true) {t i : Nat} (ht : t < N)
    (hi : isExitA (Sem.soloAct prog regs0 m0 t i) = false) :
    i < nEv t (canonRunN prog regs0 m0 N B F) := by
  have hx := isExitA_true (allB_of hfin t ht)
  cases Nat.ltOrGe i (nEv t (canonRunN prog regs0 m0 N B F)) with
  | inl hl => exact hl
  | inr hge =>
    match Nat.le.dest hge with
    | ⟨d, hd⟩ =>
      have e := soloAct_exit prog regs0 m0 t _ hx d
      rw [hd] at e
      rw [e] at hi
      cases hi

/-- **The history holds every solo action up to the exit** (the analogue of
`canon_holdsAccesses`): if the run finished, every solo action `i` of a thread `t < N` that is
not `exit` is performed in the run, as the event `evN t (soloAct t i)` pushed on a point `h`
of the run where `t` had performed `i` events. -/
theorem canonN_holds {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} (hfin : FinishedN prog regs0 m0 N B F = true) {t i : Nat} (ht : t < N)
    (hi : isExitA (Sem.soloAct prog regs0 m0 t i) = false) :
    ∃ e h, Sfx (e :: h) (canonRunN prog regs0 m0 N B F) ∧
      e = evN t (Sem.soloAct prog regs0 m0 t i) ∧ nEv t h = i := by
  match find_ev _ i (lt_nEv_of_finished hfin ht hi) with
  | ⟨e, h, hs, ha, hn⟩ =>
    have hf : FromSolo prog regs0 m0 N (e :: h) :=
      sfx_pres fromSolo_tail _ _ hs (canonRunN_fromSolo prog regs0 m0 N B F)
    refine ⟨e, h, hs, ?_, hn⟩
    rw [← hn]
    cases e with
    | act u A =>
      have eu : u = t := ha
      subst eu
      exact Eq.symm hf.2.2.2
    | bar u b w =>
      have eu : u = t := ha
      subst eu
      exact Eq.symm hf.2.2.2
    | complete b m => exact False.elim ha

/-- **`Covers`**: a finished run holds every arrival of the threads below `N`
(`OnceLink.lean`'s hypothesis of `check3_of_rust` and `memb_of_drain`, for `soloEvB`). -/
theorem canonN_covers {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} (hfin : FinishedN prog regs0 m0 N B F = true) :
    Covers (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F) := by
  intro t i b w ha
  cases Nat.decLt t N with
  | isTrue ht =>
    rw [soloEvB_lt ht] at ha
    exact lt_nEv_of_finished hfin ht (isExitA_of_arr ha)
  | isFalse ht =>
    have e : soloEvB prog regs0 m0 N t i = Ev.loc := by
      show cond (decide (t < N)) (soloEv prog regs0 m0 t i) Ev.loc = Ev.loc
      rw [decide_eq_false' ht]; rfl
    rw [e] at ha
    exact Ev.noConfusion ha

end Holds

section Ordered

variable {V : Type} [Sem.AccAdd V]

open Members (Sfx sfx_pres fromAct_tail kthInst_tail notBlocked_tail find_ev posAt_fun hb_link)

theorem sfx_refl : ∀ (l : List (EventN V)), Sfx l l
  | [] => rfl
  | _ :: _ => Or.inl rfl

/-- Two points of one run: one is a point of the other. -/
theorem sfx_total : ∀ {H l1 l2 : List (EventN V)}, Sfx l1 H → Sfx l2 H → Sfx l1 l2 ∨ Sfx l2 l1
  | [], l1, l2, h1, h2 => by
    have e1 : l1 = [] := h1
    have e2 : l2 = [] := h2
    rw [e1, e2]; exact Or.inl rfl
  | e :: H, l1, l2, h1, h2 => by
    cases h1 with
    | inl e1 => rw [e1]; exact Or.inr h2
    | inr h1 =>
      cases h2 with
      | inl e2 => rw [e2]; exact Or.inl (Or.inr h1)
      | inr h2 => exact sfx_total h1 h2

theorem actAt_of_sfx {x : Nat} {A : Act V} {h1 : List (EventN V)} :
    ∀ {h2 : List (EventN V)}, Sfx (EventN.act x A :: h1) h2 → ActAt h2 (lenL h1) x A
  | [], hs => List.noConfusion (hs : EventN.act x A :: h1 = [])
  | e :: h2, hs => by
    cases hs with
    | inl e1 => rw [← e1]; exact Or.inl ⟨rfl, rfl, rfl⟩
    | inr hs =>
      have ih := actAt_of_sfx hs
      cases e with
      | act t B => exact Or.inr ih
      | bar t b w => exact ih
      | complete b m => exact ih

theorem seg_of_sfx (N : Nat) {x : Nat} {e : EventN V} {h1 : List (EventN V)} (ha : Actor e x) :
    ∀ {h2 : List (EventN V)}, Sfx (e :: h1) h2 →
      Seg N h2 (lenL h1) x ((brun N h1).clocks.vc x x)
  | [], hs => List.noConfusion (hs : e :: h1 = [])
  | e' :: h2, hs => by
    cases hs with
    | inl e1 =>
      rw [← e1]; exact Or.inl ⟨rfl, ha, rfl⟩
    | inr hs => exact Or.inr (seg_of_sfx N ha hs)

theorem posAt_of_sfx {x : Nat} {e : EventN V} {h1 : List (EventN V)} (ha : Actor e x) :
    ∀ {h2 : List (EventN V)}, Sfx (e :: h1) h2 → PosAt h2 (lenL h1) x (nEv x h1)
  | [], hs => List.noConfusion (hs : e :: h1 = [])
  | e' :: h2, hs => by
    cases hs with
    | inl e1 =>
      rw [← e1]; exact Or.inl ⟨rfl, ha, rfl⟩
    | inr hs => exact Or.inr (posAt_of_sfx ha hs)

/-- A conflicting action is a memory access: its event is an `EventN.act`, and it is not
`exit`. -/
theorem conflict_left {A B : Act V} (hc : Sem.Conflict A B) (t : Nat) :
    evN t A = EventN.act t A ∧ isExitA A = false := by
  cases A with
  | read a r pc => exact ⟨rfl, rfl⟩
  | write a v pc => exact ⟨rfl, rfl⟩
  | atomAdd a v pc => exact ⟨rfl, rfl⟩
  | compute pc g => cases B <;> exact False.elim hc
  | arrive b n w pc => cases B <;> exact False.elim hc
  | exit => cases B <;> exact False.elim hc

theorem conflict_right {A B : Act V} (hc : Sem.Conflict A B) (t : Nat) :
    evN t B = EventN.act t B ∧ isExitA B = false := by
  cases B with
  | read a r pc => exact ⟨rfl, rfl⟩
  | write a v pc => exact ⟨rfl, rfl⟩
  | atomAdd a v pc => exact ⟨rfl, rfl⟩
  | compute pc g => exact False.elim (conflict_compute hc)
  | arrive b n w pc => exact False.elim (conflict_arrive hc)
  | exit => exact False.elim (conflict_exit hc)

theorem notUC_tail (e : EventN V) (l : List (EventN V)) (h : ¬ UnorderedConflict (e :: l)) :
    ¬ UnorderedConflict l := fun hu => h (unorderedConflict_mono hu e)

/-- One side: the earlier of two conflicting events happens before the later one. -/
theorem ordered_side {N : Nat} {act : Nat → Nat → Ev} {H : List (EventN V)}
    (hf : FromAct act H) (hw : NotBlocked N H) (hk : KthInst act H) (hu : ¬ UnorderedConflict H)
    {x y : Nat} {A B : Act V} {h1 h2 : List (EventN V)} (hxy : ¬ x = y)
    (hcf : Sem.Conflict A B) (hs1 : Sfx (EventN.act x A :: h1) h2)
    (hs2 : Sfx (EventN.act y B :: h2) H) :
    Members.HB act (x, nEv x h1) (y, nEv y h2) := by
  have hf2 : FromAct act h2 := fromAct_tail _ _ (sfx_pres fromAct_tail H _ hs2 hf)
  have hw2 : NotBlocked N h2 := notBlocked_tail _ _ (sfx_pres notBlocked_tail H _ hs2 hw)
  have hk2 : KthInst act h2 := kthInst_tail _ _ (sfx_pres kthInst_tail H _ hs2 hk)
  have hu2 : ¬ UnorderedConflict (EventN.act y B :: h2) :=
    sfx_pres (P := fun l => ¬ UnorderedConflict l) notUC_tail H _ hs2 hu
  have hact : ActAt h2 (lenL h1) x A := actAt_of_sfx hs1
  have hseg : Seg N h2 (lenL h1) x ((brun N h1).clocks.vc x x) :=
    seg_of_sfx N (rfl : Actor (EventN.act x A) x) hs1
  have hpos : PosAt h2 (lenL h1) x (nEv x h1) := posAt_of_sfx (rfl : Actor (EventN.act x A) x) hs1
  have nn : ¬ ¬ HB h2 (lenL h1) y :=
    fun hnb => hu2 (Or.inr ⟨x, A, lenL h1, hact, hxy, hcf, hnb⟩)
  have hiff := ordered_iff_hb hw2 hseg (j := y)
  have hhb : HB h2 (lenL h1) y := by
    cases hord : (brun N h2).clocks.ordered ⟨x, (brun N h1).clocks.vc x x⟩ y with
    | true => exact hiff.1 hord
    | false =>
      apply False.elim
      apply nn
      intro hb
      have t := hiff.2 hb
      rw [hord] at t
      cases t
  match hb_link hf2 hw2 hk2 hhb with
  | ⟨u, i, hp, hb⟩ =>
    have e := posAt_fun hp hpos
    rw [e.1, e.2] at hb
    exact hb

/-- **Conflicting solo actions are ordered by happens-before** (`OnceCheck.lean`'s
`Members.HB` over `soloEv`): if the run finishes, every completion drains arrivals with one
arrival number (`KthInst`, what check (2) gives: `kthInst_of_drain`, or decided on the history
by `kthB`), and the race check reports nothing over the run's history, then any two
conflicting solo actions `(x, i)`, `(y, j)` of different threads below `N` are ordered one way
or the other. -/
theorem canonN_ordered {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} (hfin : FinishedN prog regs0 m0 N B F = true)
    (hk : KthInst (soloEv prog regs0 m0) (canonRunN prog regs0 m0 N B F))
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    {x y i j : Nat} (hx : x < N) (hy : y < N) (hxy : ¬ x = y)
    (hcf : Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j)) :
    Members.HB (soloEv prog regs0 m0) (x, i) (y, j) ∨
      Members.HB (soloEv prog regs0 m0) (y, j) (x, i) := by
  have hw := canonRunN_notBlocked prog regs0 m0 N B F
  have hf := canonRunN_fromAct prog regs0 m0 N B F
  have hu := checkN_sound hw hc
  have cl := conflict_left hcf x
  have cr := conflict_right hcf y
  match canonN_holds hfin hx cl.2, canonN_holds hfin hy cr.2 with
  | ⟨e1, h1, hs1, ee1, hn1⟩, ⟨e2, h2, hs2, ee2, hn2⟩ =>
    rw [ee1, cl.1] at hs1
    rw [ee2, cr.1] at hs2
    rw [← hn1, ← hn2]
    cases sfx_total hs1 hs2 with
    | inl s12 =>
      cases s12 with
      | inl e => exact False.elim (hxy (EventN.act.inj (List.cons.inj e).1).1)
      | inr s => exact Or.inl (ordered_side hf hw hk hu hxy hcf s hs2)
    | inr s21 =>
      cases s21 with
      | inl e => exact False.elim (hxy (EventN.act.inj (List.cons.inj e).1).1.symm)
      | inr s => exact Or.inr (ordered_side hf hw hk hu (fun e => hxy e.symm) (Sem.conflict_symm _ _ hcf) s hs1)

end Ordered

section Checks

variable {V : Type} [Sem.AccAdd V]

open Members (Edge ac Drain2 RustCheck3 Check3 Memb Sized Valid OnceAll)

theorem lt_of_soloEvB_arr {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N t i b : Nat}
    {w : Bool} (h : soloEvB prog regs0 m0 N t i = Ev.arr b w) : t < N := by
  cases Nat.decLt t N with
  | isTrue ht => exact ht
  | isFalse ht =>
    have e : soloEvB prog regs0 m0 N t i = Ev.loc := by
      show cond (decide (t < N)) (soloEv prog regs0 m0 t i) Ev.loc = Ev.loc
      rw [decide_eq_false' ht]; rfl
    rw [e] at h
    exact Ev.noConfusion h

theorem ac_soloEvB {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N t : Nat}
    (ht : t < N) (b : Nat) : ∀ i, ac (soloEvB prog regs0 m0 N) b t i = ac (soloEv prog regs0 m0) b t i
  | 0 => rfl
  | i + 1 => by
    show cond (Members.arrAt b (soloEvB prog regs0 m0 N t i))
        (ac (soloEvB prog regs0 m0 N) b t i + 1) (ac (soloEvB prog regs0 m0 N) b t i) =
      cond (Members.arrAt b (soloEv prog regs0 m0 t i))
        (ac (soloEv prog regs0 m0) b t i + 1) (ac (soloEv prog regs0 m0) b t i)
    rw [soloEvB_lt ht, ac_soloEvB ht b i]

/-- Happens-before over the threads below `N` is happens-before over all threads. -/
theorem hb_of_soloEvB {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {p q : Nat × Nat} (h : Members.HB (soloEvB prog regs0 m0 N) p q) :
    Members.HB (soloEv prog regs0 m0) p q := by
  have edge : ∀ {p q : Nat × Nat}, Edge (soloEvB prog regs0 m0 N) p q →
      Edge (soloEv prog regs0 m0) p q := by
    intro p q he
    cases he with
    | po t i => exact Edge.po t i
    | bar x i y j b wx hx hy hac =>
      have hxN := lt_of_soloEvB_arr hx
      have hyN := lt_of_soloEvB_arr hy
      rw [soloEvB_lt hxN] at hx
      rw [soloEvB_lt hyN] at hy
      rw [ac_soloEvB hxN, ac_soloEvB hyN] at hac
      exact Edge.bar x i y j b wx hx hy hac
  induction h with
  | edge he => exact Members.HB.edge (edge he)
  | step _ he ih => exact Members.HB.step ih (edge he)

/-- **`canonN_ordered` from the executor's check (2)**: `KthInst` is not assumed; instead the
run passes check (2) (`Drain2 S`: every completion of `b` drains each member of `S b` once and
no other thread) and leaves no arrival pending (otherwise the executor reports it). -/
theorem canonN_ordered_drain {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {S : Nat → List Nat} (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    {x y i j : Nat} (hx : x < N) (hy : y < N) (hxy : ¬ x = y)
    (hcf : Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j)) :
    Members.HB (soloEv prog regs0 m0) (x, i) (y, j) ∨
      Members.HB (soloEv prog regs0 m0) (y, j) (x, i) := by
  have hw := canonRunN_notBlocked prog regs0 m0 N B F
  have hf := canonRunN_fromActB prog regs0 m0 N B F
  have hM := Members.memb_of_drain hf hd (canonN_covers hfin) hend
  have hk := Members.kthInst_of_drain hM hf hd
  have hu := checkN_sound hw hc
  have cl := conflict_left hcf x
  have cr := conflict_right hcf y
  match canonN_holds hfin hx cl.2, canonN_holds hfin hy cr.2 with
  | ⟨e1, h1, hs1, ee1, hn1⟩, ⟨e2, h2, hs2, ee2, hn2⟩ =>
    rw [ee1, cl.1] at hs1
    rw [ee2, cr.1] at hs2
    rw [← hn1, ← hn2]
    cases sfx_total hs1 hs2 with
    | inl s12 =>
      cases s12 with
      | inl e => exact False.elim (hxy (EventN.act.inj (List.cons.inj e).1).1)
      | inr s => exact Or.inl (hb_of_soloEvB (ordered_side hf hw hk hu hxy hcf s hs2))
    | inr s21 =>
      cases s21 with
      | inl e => exact False.elim (hxy (EventN.act.inj (List.cons.inj e).1).1.symm)
      | inr s => exact Or.inr (hb_of_soloEvB
          (ordered_side hf hw hk hu (fun e => hxy e.symm) (Sem.conflict_symm _ _ hcf) s hs1))

/-- **Check (3)** (`OnceCheck.lean`'s `Check3`, over the threads below `N`) from a finished run
on which the Rust's check (3) with the clocks passes and whose completions drain `k`-th
arrivals. -/
theorem canonN_check3 {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} (hfin : FinishedN prog regs0 m0 N B F = true)
    (hk : KthInst (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F))
    (hr : RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F)) :
    Check3 (soloEvB prog regs0 m0 N) :=
  Members.check3_of_rust (canonRunN_fromActB prog regs0 m0 N B F)
    (canonRunN_notBlocked prog regs0 m0 N B F) hk (canonN_covers hfin) hr

/-- **`Once` from the executor's run and checks alone** (plus `Sized`): for a finished run that
passes checks (2) and (3) and leaves nothing pending, `Memb` holds and every valid schedule of
the threads below `N` is `Once` at every id (`OnceLink.once_of_checks`). -/
theorem canonN_once {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} (m : Nat → Nat) (S : Nat → List Nat) (hSz : Sized m S)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hr : RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F)) :
    Memb (soloEvB prog regs0 m0 N) S ∧
      ∀ (h : List Nat), Valid (soloEvB prog regs0 m0 N) m h → OnceAll (soloEvB prog regs0 m0 N) m h :=
  ⟨Members.memb_of_drain (canonRunN_fromActB prog regs0 m0 N B F) hd (canonN_covers hfin) hend,
    Members.once_of_checks m S hSz (canonRunN_fromActB prog regs0 m0 N B F)
      (canonRunN_notBlocked prog regs0 m0 N B F) hd (canonN_covers hfin) hend hr⟩

end Checks

section Comp

variable {V : Type} [Sem.AccAdd V]

/-- Every completion of the history is one `resolve_barriers` makes: some arrival is pending,
the count drained is the first pending arrival's (`firstCnt`), and at least that many are
pending. -/
def CompOK (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => CompOK prog regs0 m0 h
  | EventN.bar _ _ _ :: h => CompOK prog regs0 m0 h
  | EventN.complete b m :: h => CompOK prog regs0 m0 h ∧ 0 < lenL (pendI h b) ∧
      m = firstCnt prog regs0 m0 (pendI h b) ∧ m ≤ lenL (pendI h b)

theorem compOK_evN {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {h : List (EventN V)} (hc : CompOK prog regs0 m0 h) (t : Nat) :
    ∀ A : Act V, CompOK prog regs0 m0 (evN t A :: h)
  | Act.arrive b n w pc => hc
  | Act.compute pc g => hc
  | Act.read a r pc => hc
  | Act.write a v pc => hc
  | Act.atomAdd a v pc => hc
  | Act.exit => hc

theorem tRunN_comp {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} (t : Nat) :
    ∀ (f : Nat) (h : List (EventN V)), CompOK prog regs0 m0 h →
      CompOK prog regs0 m0 (tRunN prog regs0 m0 t f h) := by
  intro f
  induction f with
  | zero => intro h hc; exact hc
  | succ f ih =>
    intro h hc
    show CompOK prog regs0 m0
      (cond (isExitA (Sem.soloAct prog regs0 m0 t (nEv t h))) h
        (cond (halts (Sem.soloAct prog regs0 m0 t (nEv t h)))
          (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)
          (tRunN prog regs0 m0 t f (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h))))
    cases isExitA (Sem.soloAct prog regs0 m0 t (nEv t h)) with
    | true => exact hc
    | false =>
      cases halts (Sem.soloAct prog regs0 m0 t (nEv t h)) with
      | true => exact compOK_evN hc t _
      | false => exact ih _ (compOK_evN hc t _)

theorem passN_comp {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} (F : Nat)
    (h : List (EventN V)) (hc : CompOK prog regs0 m0 h) :
    ∀ n, CompOK prog regs0 m0 (passN prog regs0 m0 F n h) := by
  intro n
  induction n with
  | zero => exact hc
  | succ n ih =>
    show CompOK prog regs0 m0 (cond (blk n (passN prog regs0 m0 F n h))
      (passN prog regs0 m0 F n h) (tRunN prog regs0 m0 n F (passN prog regs0 m0 F n h)))
    cases blk n (passN prog regs0 m0 F n h) with
    | true => exact ih
    | false => exact tRunN_comp n F _ ih

theorem resolveOne_comp {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} (b : Nat)
    (h : List (EventN V)) (hc : CompOK prog regs0 m0 h) :
    CompOK prog regs0 m0 (resolveOne prog regs0 m0 b h) := by
  show CompOK prog regs0 m0 (cond (decide (0 < lenL (pendI h b)) &&
      decide (firstCnt prog regs0 m0 (pendI h b) ≤ lenL (pendI h b)))
    (EventN.complete b (firstCnt prog regs0 m0 (pendI h b)) :: h) h)
  cases h1 : decide (0 < lenL (pendI h b)) with
  | false => exact hc
  | true =>
    cases h2 : decide (firstCnt prog regs0 m0 (pendI h b) ≤ lenL (pendI h b)) with
    | false => exact hc
    | true => exact ⟨hc, of_decide_eq_true' h1, rfl, of_decide_eq_true' h2⟩

theorem resolveN_comp {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} :
    ∀ (B : Nat) (h : List (EventN V)), CompOK prog regs0 m0 h →
      CompOK prog regs0 m0 (resolveN prog regs0 m0 B h) := by
  intro B
  induction B with
  | zero => intro h hc; exact hc
  | succ b ih => intro h hc; exact resolveOne_comp b _ (ih h hc)

theorem canonN_comp {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} (N B F : Nat) :
    ∀ (r : Nat) (h : List (EventN V)), CompOK prog regs0 m0 h →
      CompOK prog regs0 m0 (canonN prog regs0 m0 N B F r h) := by
  intro r
  induction r with
  | zero => intro h hc; exact hc
  | succ r ih =>
    intro h hc
    have g1 := passN_comp F h hc N
    have g2 := resolveN_comp B _ g1
    show CompOK prog regs0 m0
      (cond (allExited prog regs0 m0 N (passN prog regs0 m0 F N h)) (passN prog regs0 m0 F N h)
        (cond (decide (lenL (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h)) = lenL h))
          (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h))
          (canonN prog regs0 m0 N B F r (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h)))))
    cases allExited prog regs0 m0 N (passN prog regs0 m0 F N h) with
    | true => exact g1
    | false =>
      cases decide (lenL (resolveN prog regs0 m0 B (passN prog regs0 m0 F N h)) = lenL h) with
      | true => exact g2
      | false => exact ih _ g2

/-- **The run's completions are `resolve_barriers`'**: each `complete b m` of the run found
some arrival pending at `b`, drains the first pending arrival's count `m`, and found at least
`m` pending (with check (1), `NoOverfull`, exactly `m`). -/
theorem canonRunN_compOK (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (N B F : Nat) : CompOK prog regs0 m0 (canonRunN prog regs0 m0 N B F) :=
  canonN_comp N B F F [] trivial

end Comp

section ValidS

variable {V : Type}

/-- Append, structural. -/
def appG {α : Type} : List α → List α → List α
  | [], r => r
  | x :: l, r => x :: appG l r

/-- The threads of a list of (thread, waits). -/
def fstP : List (Nat × Bool) → List Nat
  | [] => []
  | p :: l => p.1 :: fstP l

/-- Reverse, structural. -/
def revL : List Nat → List Nat
  | [] => []
  | x :: l => snocL (revL l) x

/-- The executor's schedule: the thread of each event, completions left out (latest first). -/
def sched : List (EventN V) → List Nat
  | [] => []
  | EventN.act t _ :: h => t :: sched h
  | EventN.bar t _ _ :: h => t :: sched h
  | EventN.complete _ _ :: h => sched h

/-- Thread `u`'s latest event is `bar.sync` at `b`. -/
def lastSync (u b : Nat) : List (EventN V) → Bool
  | [] => false
  | EventN.act t _ :: h => cond (decide (t = u)) false (lastSync u b h)
  | EventN.bar t b' w :: h => cond (decide (t = u)) (w && decide (b' = b)) (lastSync u b h)
  | EventN.complete _ _ :: h => lastSync u b h

theorem appG_snoc {α : Type} (y : α) : ∀ (X R : List α), snocL (appG X R) y = appG X (snocL R y)
  | [], R => rfl
  | x :: X, R => by
    show x :: snocL (appG X R) y = x :: appG X (snocL R y)
    rw [appG_snoc y X R]

theorem fstP_snoc (p : Nat × Bool) : ∀ (l : List (Nat × Bool)), fstP (snocL l p) = snocL (fstP l) p.1
  | [] => rfl
  | q :: l => by
    show q.1 :: fstP (snocL l p) = q.1 :: snocL (fstP l) p.1
    rw [fstP_snoc p l]

theorem fstP_drop : ∀ (m : Nat) (l : List (Nat × Bool)), fstP (dropL m l) = dropL m (fstP l)
  | 0, l => rfl
  | m + 1, [] => rfl
  | m + 1, q :: l => fstP_drop m l

theorem fstP_app : ∀ (P Q : List (Nat × Bool)), fstP (appG P Q) = appG (fstP P) (fstP Q)
  | [], Q => rfl
  | q :: P, Q => by
    show q.1 :: fstP (appG P Q) = q.1 :: appG (fstP P) (fstP Q)
    rw [fstP_app P Q]

theorem lenL_fstP : ∀ (l : List (Nat × Bool)), lenL (fstP l) = lenL l
  | [] => rfl
  | q :: l => by
    show lenL (fstP l) + 1 = lenL l + 1
    rw [lenL_fstP l]

theorem lenL_appG {α : Type} : ∀ (X R : List α), lenL (appG X R) = lenL X + lenL R
  | [], R => by show lenL R = 0 + lenL R; rw [Nat.zero_add]
  | x :: X, R => by
    show lenL (appG X R) + 1 = lenL X + 1 + lenL R
    rw [lenL_appG X R, Nat.add_right_comm]

theorem lenL_snoc {α : Type} (y : α) : ∀ (l : List α), lenL (snocL l y) = lenL l + 1
  | [] => rfl
  | x :: l => by
    show lenL (snocL l y) + 1 = lenL l + 1 + 1
    rw [lenL_snoc y l]

theorem drop_appG {α : Type} (R : List α) : ∀ (m : Nat) (X : List α), m ≤ lenL X →
    dropL m (appG X R) = appG (dropL m X) R ∧ lenL (dropL m X) + m = lenL X
  | 0, X, _ => ⟨rfl, rfl⟩
  | m + 1, [], h => False.elim (Nat.notSuccLeZero m h)
  | m + 1, x :: X, h => by
    have r := drop_appG R m X (Nat.leOfSuccLeSucc h)
    refine ⟨r.1, ?_⟩
    show lenL (dropL m X) + (m + 1) = lenL X + 1
    rw [← r.2]; rfl

theorem in_appG_right {α : Type} {x : α} {R : List α} : ∀ (X : List α), In x R → In x (appG X R)
  | [], h => h
  | _ :: X, h => Or.inr (in_appG_right X h)

theorem in_appG_cases {α : Type} {x : α} {R : List α} : ∀ (X : List α), In x (appG X R) →
    In x X ∨ In x R
  | [], h => Or.inr h
  | y :: X, h => by
    cases h with
    | inl e => exact Or.inl (Or.inl e)
    | inr h =>
      cases in_appG_cases X h with
      | inl h1 => exact Or.inl (Or.inr h1)
      | inr h2 => exact Or.inr h2

theorem in_appG_left {α : Type} {x : α} {R : List α} : ∀ (X : List α), In x X → In x (appG X R)
  | [], h => False.elim h
  | y :: X, h => by
    cases h with
    | inl e => exact Or.inl e
    | inr h => exact Or.inr (in_appG_left X h)

theorem in_revL {x : Nat} : ∀ (l : List Nat), Members.Mem x l → In x (revL l)
  | [], h => False.elim h
  | y :: l, h => by
    cases h with
    | inl e => rw [e]; exact in_snocL_self x (revL l)
    | inr h => exact in_snocL_left (in_revL l h)

theorem lenL_revL : ∀ (l : List Nat), lenL (revL l) = Members.len l
  | [] => rfl
  | y :: l => by
    show lenL (snocL (revL l) y) = Members.len l + 1
    rw [lenL_snoc, lenL_revL l]

theorem in_fstP {u : Nat} {w : Bool} : ∀ {l : List (Nat × Bool)}, In (u, w) l → In u (fstP l)
  | [], h => False.elim h
  | q :: l, h => by
    cases h with
    | inl e => rw [e]; exact Or.inl rfl
    | inr h => exact Or.inr (in_fstP h)

/-- Dropping a prefix of `P ++ x :: Q` keeps `x` or drops past it. -/
theorem drop_mid {α : Type} (x : α) (Q : List α) : ∀ (m : Nat) (P : List α),
    (∃ P', dropL m (appG P (x :: Q)) = appG P' (x :: Q)) ∨ (∃ k, dropL m (appG P (x :: Q)) = dropL k Q)
  | 0, P => Or.inl ⟨P, rfl⟩
  | m + 1, [] => Or.inr ⟨m, rfl⟩
  | m + 1, y :: P => drop_mid x Q m P

theorem cnt_sched (u : Nat) : ∀ (h : List (EventN V)), Members.cnt u (sched h) = nEv u h
  | [] => rfl
  | EventN.act t A :: h => by
    show (if t = u then Members.cnt u (sched h) + 1 else Members.cnt u (sched h)) =
      (if t = u then nEv u h + 1 else nEv u h)
    rw [cnt_sched u h]
  | EventN.bar t b w :: h => by
    show (if t = u then Members.cnt u (sched h) + 1 else Members.cnt u (sched h)) =
      (if t = u then nEv u h + 1 else nEv u h)
    rw [cnt_sched u h]
  | EventN.complete b m :: h => cnt_sched u h

/-- One more arrival at the end of a schedule, for the pending arrivals of `OnceCheck.lean`'s
eager instances: a full instance empties them, otherwise the arrival joins them. -/
theorem left_sn (m t : Nat) : ∀ (w : List Nat) (c : Nat → Nat) (p : List Members.Arr),
    (Members.len (Members.left m c p w) + 1 = m → Members.left m c p (Members.sn w t) = []) ∧
    (¬ Members.len (Members.left m c p w) + 1 = m →
      Members.thr (Members.left m c p (Members.sn w t)) = t :: Members.thr (Members.left m c p w) ∧
      Members.len (Members.left m c p (Members.sn w t)) = Members.len (Members.left m c p w) + 1)
  | [], c, p => by
    have e : Members.left m c p (Members.sn [] t) =
        (if Members.len ((t, c t) :: p) = m then Members.left m (Members.upd c t) [] []
          else Members.left m (Members.upd c t) ((t, c t) :: p) []) := rfl
    have e0 : Members.left m c p [] = p := rfl
    rw [e, e0]
    have el : Members.len ((t, c t) :: p) = Members.len p + 1 := rfl
    rw [el]
    refine ⟨fun h1 => ?_, fun h1 => ?_⟩
    · rw [if_pos' h1]; rfl
    · rw [if_neg' h1]; exact ⟨rfl, rfl⟩
  | u :: w, c, p => by
    have e : Members.left m c p (Members.sn (u :: w) t) =
        (if Members.len ((u, c u) :: p) = m then Members.left m (Members.upd c u) [] (Members.sn w t)
          else Members.left m (Members.upd c u) ((u, c u) :: p) (Members.sn w t)) := rfl
    have e0 : Members.left m c p (u :: w) =
        (if Members.len ((u, c u) :: p) = m then Members.left m (Members.upd c u) [] w
          else Members.left m (Members.upd c u) ((u, c u) :: p) w) := rfl
    rw [e, e0]
    cases Nat.decEq (Members.len ((u, c u) :: p)) m with
    | isTrue h =>
      rw [if_pos' h, if_pos' h]
      exact left_sn m t w (Members.upd c u) []
    | isFalse h =>
      rw [if_neg' h, if_neg' h]
      exact left_sn m t w (Members.upd c u) ((u, c u) :: p)


theorem appG_nil {α : Type} : ∀ (l : List α), appG l [] = l
  | [] => rfl
  | x :: l => by show x :: appG l [] = x :: l; rw [appG_nil l]

theorem snoc_appG {α : Type} (y : α) : ∀ (l : List α), snocL l y = appG l [y]
  | [] => rfl
  | x :: l => by show x :: snocL l y = x :: appG l [y]; rw [snoc_appG y l]

/-- Every thread whose latest event is a `bar.sync` at `b` has, in `pw h b`, no entry after that
arrival, or no entry at all. -/
def JInv (b : Nat) (h : List (EventN V)) : Prop :=
  ∀ u, lastSync u b h = true →
    (∃ P Q, pw h b = appG P ((u, true) :: Q) ∧ ¬ In u (fstP Q)) ∨ ¬ In u (fstP (pw h b))

theorem jInv_run (b : Nat) : ∀ (h : List (EventN V)), JInv b h
  | [] => fun u hu => by cases hu
  | EventN.act t A :: h => by
    intro u hu
    have hu' : cond (decide (t = u)) false (lastSync u b h) = true := hu
    cases Nat.decEq t u with
    | isTrue e => rw [decide_eq_true' e] at hu'; cases hu'
    | isFalse e =>
      rw [decide_eq_false' e] at hu'
      exact jInv_run b h u hu'
  | EventN.bar t b' w :: h => by
    intro u hu
    have hu' : cond (decide (t = u)) (w && decide (b' = b)) (lastSync u b h) = true := hu
    have epw : pw (EventN.bar t b' w :: h) b = Sem.upd (pw h) b' (snocL (pw h b') (t, w)) b := rfl
    rw [epw]
    cases Nat.decEq t u with
    | isTrue e =>
      rw [decide_eq_true' e] at hu'
      have hw : w = true := and_left' hu'
      have hb : b' = b := of_decide_eq_true' (and_right' hu')
      rw [hb, upd_same, hw, e]
      refine Or.inl ⟨pw h b, [], snoc_appG _ _, fun h0 => h0⟩
    | isFalse e =>
      rw [decide_eq_false' e] at hu'
      cases Nat.decEq b b' with
      | isFalse eb => rw [upd_other _ _ eb]; exact jInv_run b h u hu'
      | isTrue eb =>
        rw [← eb, upd_same]
        cases jInv_run b h u hu' with
        | inl hl =>
          match hl with
          | ⟨P, Q, hp, hq⟩ =>
            refine Or.inl ⟨P, snocL Q (t, w), ?_, ?_⟩
            · rw [hp]; exact appG_snoc (t, w) P ((u, true) :: Q)
            · intro hin
              rw [fstP_snoc] at hin
              cases in_snocL hin with
              | inl h1 => exact hq h1
              | inr h2 => exact e h2
        | inr hr =>
          refine Or.inr (fun hin => ?_)
          rw [fstP_snoc] at hin
          cases in_snocL hin with
          | inl h1 => exact hr h1
          | inr h2 => exact e h2
  | EventN.complete b' m :: h => by
    intro u hu
    have hu' : lastSync u b h = true := hu
    have epw : pw (EventN.complete b' m :: h) b = Sem.upd (pw h) b' (dropL m (pw h b')) b := rfl
    rw [epw]
    cases Nat.decEq b b' with
    | isFalse eb => rw [upd_other _ _ eb]; exact jInv_run b h u hu'
    | isTrue eb =>
      rw [← eb, upd_same]
      cases jInv_run b h u hu' with
      | inl hl =>
        match hl with
        | ⟨P, Q, hp, hq⟩ =>
          rw [hp]
          cases drop_mid (u, true) Q m P with
          | inl h1 =>
            match h1 with
            | ⟨P', e1⟩ => rw [e1]; exact Or.inl ⟨P', Q, rfl, hq⟩
          | inr h2 =>
            match h2 with
            | ⟨k, e2⟩ =>
              rw [e2]
              refine Or.inr (fun hin => ?_)
              rw [fstP_drop] at hin
              exact hq (in_dropL k hin)
      | inr hr =>
        refine Or.inr (fun hin => ?_)
        rw [fstP_drop] at hin
        exact hr (in_dropL m hin)

/-- Under `FromAct`, a thread whose event number `j` (its latest) is an arrival at `b` with
`w` has `lastSync` = `w`. -/
theorem lastSync_of {act : Nat → Nat → Ev} {t b j : Nat} {w : Bool} (ha : act t j = Ev.arr b w) :
    ∀ (h : List (EventN V)), FromAct act h → nEv t h = j + 1 → lastSync t b h = w
  | [], _, hn => Nat.noConfusion hn
  | EventN.act u A :: h, hf, hn => by
    show cond (decide (u = t)) false (lastSync t b h) = w
    cases Nat.decEq u t with
    | isTrue e =>
      have hn2 := hn
      rw [← e, Members.nEv_self_act] at hn2
      have e2 : act u (nEv u h) = Ev.loc := hf.2
      rw [Nat.succ.inj hn2, e, ha] at e2
      exact Ev.noConfusion e2
    | isFalse e =>
      rw [decide_eq_false' e]
      rw [Members.nEv_other_act A h e] at hn
      exact lastSync_of ha h hf.1 hn
  | EventN.bar u b' w' :: h, hf, hn => by
    show cond (decide (u = t)) (w' && decide (b' = b)) (lastSync t b h) = w
    cases Nat.decEq u t with
    | isTrue e =>
      have hn2 := hn
      rw [← e, Members.nEv_self_bar] at hn2
      have e2 : act u (nEv u h) = Ev.arr b' w' := hf.2
      rw [Nat.succ.inj hn2, e, ha] at e2
      rw [decide_eq_true' e, ← Members.arr_b e2, ← Members.arr_w e2, decide_eq_true' (rfl : b = b)]
      cases w <;> rfl
    | isFalse e =>
      rw [decide_eq_false' e]
      rw [Members.nEv_other_bar b' w' h e] at hn
      exact lastSync_of ha h hf.1 hn
  | EventN.complete b' m :: h, hf, hn => lastSync_of ha h hf hn

/-- The completions of a history drain the fixed count `mb b` of their id, and find at least
that many arrivals pending. -/
def CB (mb : Nat → Nat) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => CB mb h
  | EventN.bar _ _ _ :: h => CB mb h
  | EventN.complete b m :: h => CB mb h ∧ m = mb b ∧ mb b ≤ lenL (pw h b)

/-- `L` is `X ++ reverse (threads of E)` with `|X|` a multiple of `mbb`, and `E` is not full. -/
def KI (mbb : Nat) (L : List Nat) (E : List Members.Arr) : Prop :=
  ∃ X k, L = appG X (revL (Members.thr E)) ∧ lenL X = mbb * k ∧ Members.len E < mbb

/-- The eager pending arrivals of `OnceCheck.lean` (`left`) over the schedule, reversed, end
the executor's pending list, after a multiple of the count. -/
def KInvS (act : Nat → Nat → Ev) (mb : Nat → Nat) (b : Nat) (h : List (EventN V)) : Prop :=
  KI (mb b) (fstP (pw h b)) (Members.left (mb b) (fun _ => 0) [] (Members.arrs act b (sched h)))

theorem arrs_act {act : Nat → Nat → Ev} {b t : Nat} {A : Act V} {h : List (EventN V)}
    (hf : FromAct act (EventN.act t A :: h)) :
    Members.arrs act b (sched (EventN.act t A :: h)) = Members.arrs act b (sched h) := by
  show cond (Members.arrAt b (act t (Members.cnt t (sched h))))
    (Members.sn (Members.arrs act b (sched h)) t) (Members.arrs act b (sched h)) = _
  have e : act t (nEv t h) = Ev.loc := hf.2
  rw [cnt_sched, e]; rfl

theorem arrs_bar {act : Nat → Nat → Ev} {b t b' : Nat} {w : Bool} {h : List (EventN V)}
    (hf : FromAct act (EventN.bar t b' w :: h)) :
    Members.arrs act b (sched (EventN.bar t b' w :: h)) =
      cond (decide (b' = b)) (Members.sn (Members.arrs act b (sched h)) t) (Members.arrs act b (sched h)) := by
  show cond (Members.arrAt b (act t (Members.cnt t (sched h))))
    (Members.sn (Members.arrs act b (sched h)) t) (Members.arrs act b (sched h)) = _
  have e : act t (nEv t h) = Ev.arr b' w := hf.2
  rw [cnt_sched, e]; rfl

theorem kInv_run {act : Nat → Nat → Ev} {mb : Nat → Nat} (b : Nat) (hpos : 0 < mb b) :
    ∀ (h : List (EventN V)), FromAct act h → CB mb h → KInvS act mb b h
  | [], _, _ => ⟨[], 0, rfl, by show 0 = mb b * 0; rw [Nat.mul_zero], hpos⟩
  | EventN.act t A :: h, hf, hc => by
    have e1 : pw (EventN.act t A :: h) b = pw h b := rfl
    have r := kInv_run b hpos h hf.1 hc
    show KI (mb b) (fstP (pw (EventN.act t A :: h) b))
      (Members.left (mb b) (fun _ => 0) [] (Members.arrs act b (sched (EventN.act t A :: h))))
    rw [e1, arrs_act hf]
    exact r
  | EventN.bar t b' w :: h, hf, hc => by
    have r := kInv_run b hpos h hf.1 hc
    have epw : pw (EventN.bar t b' w :: h) b = Sem.upd (pw h) b' (snocL (pw h b') (t, w)) b := rfl
    show KI (mb b) (fstP (pw (EventN.bar t b' w :: h) b))
      (Members.left (mb b) (fun _ => 0) [] (Members.arrs act b (sched (EventN.bar t b' w :: h))))
    rw [epw, arrs_bar hf]
    cases Nat.decEq b' b with
    | isFalse eb =>
      rw [decide_eq_false' eb, upd_other _ _ (fun x => eb (Eq.symm x)), cond_false']
      exact r
    | isTrue eb =>
      rw [decide_eq_true' eb, eb, upd_same, cond_true']
      match r with
      | ⟨X, k, hx, hk, hl⟩ =>
        have ls := left_sn (mb b) t (Members.arrs act b (sched h)) (fun _ => 0) []
        rw [fstP_snoc, hx, appG_snoc]
        cases Nat.decEq (Members.len (Members.left (mb b) (fun _ => 0) [] (Members.arrs act b (sched h))) + 1) (mb b) with
        | isTrue full =>
          rw [ls.1 full]
          refine ⟨appG X (snocL (revL (Members.thr (Members.left (mb b) (fun _ => 0) []
            (Members.arrs act b (sched h))))) t), k + 1, Eq.symm (appG_nil _), ?_, hpos⟩
          rw [lenL_appG, lenL_snoc, lenL_revL, Members.len_thr, hk, Nat.mul_succ]
          exact congrArg (fun z => mb b * k + z) full
        | isFalse nf =>
          have r2 := ls.2 nf
          refine ⟨X, k, ?_, hk, ?_⟩
          · rw [r2.1]; rfl
          · rw [r2.2]; exact Nat.ltOfLeAndNe hl nf
  | EventN.complete b' m :: h, hf, hc => by
    have r := kInv_run b hpos h hf hc.1
    have epw : pw (EventN.complete b' m :: h) b = Sem.upd (pw h) b' (dropL m (pw h b')) b := rfl
    show KI (mb b) (fstP (pw (EventN.complete b' m :: h) b))
      (Members.left (mb b) (fun _ => 0) [] (Members.arrs act b (sched (EventN.complete b' m :: h))))
    have es : sched (EventN.complete b' m :: h) = sched h := rfl
    rw [epw, es]
    cases Nat.decEq b b' with
    | isFalse eb => rw [upd_other _ _ eb]; exact r
    | isTrue eb =>
      rw [← eb, upd_same]
      have hm : m = mb b := by rw [eb]; exact hc.2.1
      have hge : mb b ≤ lenL (pw h b) := by rw [eb]; exact hc.2.2
      rw [hm]
      match r with
      | ⟨X, k, hx, hk, hl⟩ =>
        cases k with
        | zero =>
          apply False.elim
          have hX : lenL X = 0 := hk
          have e3 : lenL (pw h b) = lenL X + Members.len (Members.left (mb b) (fun _ => 0) []
              (Members.arrs act b (sched h))) := by
            rw [← lenL_fstP, hx, lenL_appG, lenL_revL, Members.len_thr]
          rw [e3, hX, Nat.zero_add] at hge
          exact Nat.ltIrrefl _ (Nat.ltOfLtOfLe hl hge)
        | succ k =>
          have hle : mb b ≤ lenL X := by
            rw [hk, Nat.mul_succ]; exact Nat.leAddLeft _ _
          have d := drop_appG (revL (Members.thr (Members.left (mb b) (fun _ => 0) []
            (Members.arrs act b (sched h))))) (mb b) X hle
          refine ⟨dropL (mb b) X, k, ?_, ?_, hl⟩
          · rw [fstP_drop, hx]; exact d.1
          · have d2 := d.2
            rw [hk, Nat.mul_succ] at d2
            exact add_right_cancel' (mb b) _ _ d2

theorem blocked_of_pw {N : Nat} {h : List (EventN V)} {t b : Nat} (hin : In (t, true) (pw h b)) :
    Blocked (brun N h) t :=
  match rel2_inR (rel_pw N h b) hin with
  | ⟨a, ha, hr⟩ => ⟨b, a, ha, hr.1, hr.2⟩

/-- At a step of thread `t` that is not blocked, whose previous action was a `bar.sync` at `b`,
`t` has no arrival pending among `OnceCheck.lean`'s eager instances over the schedule. -/
theorem step_ok {act : Nat → Nat → Ev} {mb : Nat → Nat} {N : Nat} (hpos : ∀ b, 0 < mb b)
    {h : List (EventN V)} (hf : FromAct act h) (hc : CB mb h) {t : Nat}
    (hB : ¬ Blocked (brun N h) t) : ∀ j b, Members.cnt t (sched h) = j + 1 →
      act t j = Ev.arr b true →
      ¬ Members.Pending t (Members.left (mb b) (fun _ => 0) [] (Members.arrs act b (sched h))) := by
  intro j b hj ha hpend
  rw [cnt_sched] at hj
  have hl := lastSync_of ha h hf hj
  have hnp : ¬ In (t, true) (pw h b) := fun hin => hB (blocked_of_pw hin)
  have hr : ¬ In t (fstP (pw h b)) := by
    cases jInv_run b h t hl with
    | inl hl1 =>
      match hl1 with
      | ⟨P, Q, hp, _⟩ =>
        have hin : In (t, true) (pw h b) := by rw [hp]; exact in_appG_right P (Or.inl rfl)
        exact False.elim (hnp hin)
    | inr hr => exact hr
  match kInv_run b (hpos b) h hf hc with
  | ⟨X, k, hx, _, _⟩ =>
    apply hr
    rw [hx]
    exact in_appG_right X (in_revL _ (Members.pend_thr _ hpend))

/-- **The executor's thread order is a valid schedule** (`OnceCheck.lean`'s `Valid`): in a
history that follows `act`, where blocked threads do nothing and every completion of `b` drains
the count `mb b` (positive) from at least that many pending, no thread steps past a `bar.sync`
while an eager instance (`left`) still holds an arrival of it. -/
theorem valid_sched {act : Nat → Nat → Ev} {mb : Nat → Nat} {N : Nat} (hpos : ∀ b, 0 < mb b) :
    ∀ (h : List (EventN V)), FromAct act h → NotBlocked N h → CB mb h →
      Members.Valid act mb (sched h)
  | [], _, _, _ => trivial
  | EventN.act t A :: h, hf, hw, hc =>
    ⟨valid_sched hpos h hf.1 hw.1 hc, step_ok hpos hf.1 hc (hw.2 t rfl)⟩
  | EventN.bar t b w :: h, hf, hw, hc =>
    ⟨valid_sched hpos h hf.1 hw.1 hc, step_ok hpos hf.1 hc (hw.2 t rfl)⟩
  | EventN.complete b m :: h, hf, hw, hc => valid_sched hpos h hf hw.1 hc.1

theorem lenL_dropL_eq {α β : Type} : ∀ (m : Nat) (l1 : List α) (l2 : List β), lenL l1 = lenL l2 →
    lenL (dropL m l1) = lenL (dropL m l2)
  | 0, _, _, h => h
  | m + 1, [], [], _ => rfl
  | m + 1, [], _ :: _, h => Nat.noConfusion h
  | m + 1, _ :: _, [], h => Nat.noConfusion h
  | m + 1, _ :: l1, _ :: l2, h => lenL_dropL_eq m l1 l2 (Nat.succ.inj h)

theorem lenL_pendI : ∀ (h : List (EventN V)) (b : Nat), lenL (pendI h b) = lenL (pw h b)
  | [], b => rfl
  | EventN.act t A :: h, b => lenL_pendI h b
  | EventN.bar t b0 w :: h, b => by
    show lenL (Sem.upd (pendI h) b0 (snocL (pendI h b0) (t, nEv t h)) b) =
      lenL (Sem.upd (pw h) b0 (snocL (pw h b0) (t, w)) b)
    cases Nat.decEq b b0 with
    | isTrue e => rw [e, upd_same, upd_same, lenL_snoc, lenL_snoc, lenL_pendI h b0]
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e]; exact lenL_pendI h b
  | EventN.complete b0 m :: h, b => by
    show lenL (Sem.upd (pendI h) b0 (dropL m (pendI h b0)) b) =
      lenL (Sem.upd (pw h) b0 (dropL m (pw h b0)) b)
    cases Nat.decEq b b0 with
    | isTrue e => rw [e, upd_same, upd_same]; exact lenL_dropL_eq m _ _ (lenL_pendI h b0)
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e]; exact lenL_pendI h b

end ValidS

section ValidRun

variable {V : Type} [Sem.AccAdd V]

theorem evN_bar_inv {t t' b : Nat} {w : Bool} : ∀ {A : Act V}, evN t A = EventN.bar t' b w →
    ∃ n pc, A = Act.arrive b n w pc
  | Act.arrive b' n w' pc, e => by
    have e' : EventN.bar t b' w' = (EventN.bar t' b w : EventN V) := e
    injection e' with e1 e2 e3
    rw [e2, e3]; exact ⟨n, pc, rfl⟩
  | Act.compute pc g, e => EventN.noConfusion e
  | Act.read a r pc, e => EventN.noConfusion e
  | Act.write a v pc, e => EventN.noConfusion e
  | Act.atomAdd a v pc, e => EventN.noConfusion e
  | Act.exit, e => EventN.noConfusion e

/-- The pending arrivals of a history made of the solo traces are arrivals of those traces. -/
theorem pendSolo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat} :
    ∀ (h : List (EventN V)), FromSolo prog regs0 m0 N h → ∀ b p, In p (pendI h b) →
      p.1 < N ∧ ∃ n w pc, Sem.soloAct prog regs0 m0 p.1 p.2 = Act.arrive b n w pc
  | [], _, b, p, hp => False.elim hp
  | EventN.act t A :: h, hf, b, p, hp => pendSolo h hf.1 b p hp
  | EventN.bar t b0 w :: h, hf, b, p, hp => by
    have hp' : In p (Sem.upd (pendI h) b0 (snocL (pendI h b0) (t, nEv t h)) b) := hp
    cases Nat.decEq b b0 with
    | isFalse e => rw [upd_other _ _ e] at hp'; exact pendSolo h hf.1 b p hp'
    | isTrue e =>
      rw [e, upd_same] at hp'
      rw [e]
      cases in_snocL hp' with
      | inl h1 => exact pendSolo h hf.1 b0 p h1
      | inr h2 =>
        rw [← h2]
        match hf.2 with
        | ⟨ht, _, he⟩ =>
          match evN_bar_inv he with
          | ⟨n, pc, ea⟩ => exact ⟨ht, n, w, pc, ea⟩
  | EventN.complete b0 m :: h, hf, b, p, hp => by
    have hp' : In p (Sem.upd (pendI h) b0 (dropL m (pendI h b0)) b) := hp
    cases Nat.decEq b b0 with
    | isFalse e => rw [upd_other _ _ e] at hp'; exact pendSolo h hf b p hp'
    | isTrue e =>
      rw [e, upd_same] at hp'
      rw [e]
      exact pendSolo h hf b0 p (in_dropL m hp')

/-- With one count `mb b` per id (every arrival at `b` of a thread below `N` has count `mb b`),
the run's completions (`CompOK`) drain `mb b` from at least that many. -/
theorem cb_of {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {mb : Nat → Nat}
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Act.arrive b n w pc → n = mb b) :
    ∀ (h : List (EventN V)), FromSolo prog regs0 m0 N h → CompOK prog regs0 m0 h → CB mb h
  | [], _, _ => trivial
  | EventN.act t A :: h, hf, hc => cb_of hcnt h hf.1 hc
  | EventN.bar t b w :: h, hf, hc => cb_of hcnt h hf.1 hc
  | EventN.complete b m :: h, hf, hc => by
    match hc with
    | ⟨hc1, hpos, hm, hle⟩ =>
      have key : ∀ l, pendI h b = l → 0 < lenL l → firstCnt prog regs0 m0 l = mb b := by
        intro l el hl
        cases l with
        | nil => exact False.elim (Nat.ltIrrefl 0 hl)
        | cons p l =>
          have hin : In p (pendI h b) := by rw [el]; exact Or.inl rfl
          match pendSolo h hf b p hin with
          | ⟨ht, n, w, pc, ea⟩ =>
            show cntOf prog regs0 m0 p = mb b
            show (match Sem.soloAct prog regs0 m0 p.1 p.2 with
              | Act.arrive _ n _ _ => n
              | _ => 0) = mb b
            rw [ea]
            exact hcnt p.1 p.2 b n w pc ht ea
      have hmb : m = mb b := by rw [hm]; exact key (pendI h b) rfl hpos
      refine ⟨cb_of hcnt h hf hc1, hmb, ?_⟩
      rw [← hmb, ← lenL_pendI h b]
      exact hle

/-- **The executor's own schedule is valid, and every thread reaches its exit**: with one
positive count `mb b` per id, the thread order of the run (`sched`) is a `Valid` schedule of
`soloEvB`, and, if the run finished, each thread `t < N` performs its actions up to its `exit`
in it (`cnt t` of the schedule is the index of an `exit`).  With `canonN_once`, `Once` holds for
it. -/
theorem canonN_valid {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {mb : Nat → Nat} (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Act.arrive b n w pc → n = mb b) :
    Members.Valid (soloEvB prog regs0 m0 N) mb (sched (canonRunN prog regs0 m0 N B F)) ∧
      (FinishedN prog regs0 m0 N B F = true → ∀ t, t < N →
        Sem.soloAct prog regs0 m0 t (Members.cnt t (sched (canonRunN prog regs0 m0 N B F))) =
          Act.exit) :=
  ⟨valid_sched hpos _ (canonRunN_fromActB prog regs0 m0 N B F)
      (canonRunN_notBlocked prog regs0 m0 N B F)
      (cb_of hcnt _ (canonRunN_fromSolo prog regs0 m0 N B F) (canonRunN_compOK prog regs0 m0 N B F)),
    fun hfin t ht => by
      rw [cnt_sched]
      exact isExitA_true (allB_of hfin t ht)⟩

/-- **`Once` for the executor's own schedule**: a finished run with one positive count per id
that passes checks (2) and (3) and leaves nothing pending has its own thread order `Once` at
every id. -/
theorem canonN_once_own {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} (mb : Nat → Nat) (S : Nat → List Nat) (hSz : Members.Sized mb S)
    (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Act.arrive b n w pc → n = mb b)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Members.Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hr : Members.RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F)) :
    Members.OnceAll (soloEvB prog regs0 m0 N) mb (sched (canonRunN prog regs0 m0 N B F)) :=
  (canonN_once mb S hSz hfin hd hend hr).2 _ (canonN_valid hpos hcnt).1

end ValidRun

/-! ## Not vacuous: a producer and a consumer on two ids

Thread 0: `st [0]; bar.arrive 1, 2; bar.sync 2, 2; ld [1]; exit`.  Thread 1: `bar.sync 1, 2;
ld [0]; st [1]; bar.arrive 2, 2; exit`.  The run: pass 1, thread 0 stores, arrives at 1 and
waits at 2, thread 1 waits at 1; id 1 completes (thread 1 released).  Pass 2: thread 1 loads,
stores, arrives at 2 and reaches its exit; id 2 completes (thread 0 released).  Pass 3: thread 0
loads and reaches its exit. -/

section Examples

def pcT0 : Nat → Act Nat
  | 0 => Act.write 0 5 1
  | 1 => Act.arrive 1 2 false 2
  | 2 => Act.arrive 2 2 true 3
  | 3 => Act.read 1 0 4
  | _ => Act.exit

def pcT1 : Nat → Act Nat
  | 0 => Act.arrive 1 2 true 1
  | 1 => Act.read 0 0 2
  | 2 => Act.write 1 7 3
  | 3 => Act.arrive 2 2 false 4
  | _ => Act.exit

/-- The producer/consumer program. -/
def prodCons : Sem.Prog Nat := fun i pc _ => cond (decide (i = 0)) (pcT0 pc) (pcT1 pc)

/-- The run's history (latest first). -/
theorem prodCons_run :
    canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8 =
      [EventN.act 0 (Act.read 1 0 4), EventN.complete 2 2,
       EventN.bar 1 2 false, EventN.act 1 (Act.write 1 7 3), EventN.act 1 (Act.read 0 0 2),
       EventN.complete 1 2,
       EventN.bar 1 1 true, EventN.bar 0 2 true, EventN.bar 0 1 false,
       EventN.act 0 (Act.write 0 5 1)] := rfl

theorem prodCons_finished : FinishedN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8 = true := rfl

theorem prodCons_check :
    checkN noSameN 2 (canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8) = false := rfl

theorem prodCons_kth :
    KthInst (soloEv prodCons (fun _ _ => 0) (fun _ => 0))
      (canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8) :=
  Members.kth_of _ _ rfl

/-- So `canonN_ordered` applies: thread 0's store to 0 (action 0) and thread 1's load of 0
(action 1) are ordered, and so are thread 1's store to 1 (action 2) and thread 0's load of 1
(action 3). -/
theorem prodCons_a00 : Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) 0 0 = Act.write 0 5 1 := rfl
theorem prodCons_a11 : Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) 1 1 = Act.read 0 0 2 := rfl
theorem prodCons_a12 : Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) 1 2 = Act.write 1 7 3 := rfl
theorem prodCons_a03 : Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) 0 3 = Act.read 1 0 4 := rfl

theorem prodCons_c1 : Sem.Conflict (Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) 0 0)
    (Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) 1 1) := by
  rw [prodCons_a00, prodCons_a11]; exact (rfl : (0 : Nat) = 0)

theorem prodCons_c2 : Sem.Conflict (Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) 1 2)
    (Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) 0 3) := by
  rw [prodCons_a12, prodCons_a03]; exact (rfl : (1 : Nat) = 1)

/-- So `canonN_ordered` applies: thread 0's store to 0 (action 0) and thread 1's load of 0
(action 1) are ordered by happens-before over `soloEv`. -/
theorem prodCons_ordered1 :
    (Members.HB (soloEv prodCons (fun _ _ => 0) (fun _ => 0)) (0, 0) (1, 1) ∨
      Members.HB (soloEv prodCons (fun _ _ => 0) (fun _ => 0)) (1, 1) (0, 0)) := by
  have h1 := canonN_ordered (hfin := prodCons_finished)
  have h2 := h1 prodCons_kth
  have h3 := @h2 prodCons_check 0 1 0 1 (Nat.zeroLtSucc 1) (Nat.ltSuccSelf 1)
    (fun e => Nat.noConfusion e) prodCons_c1
  exact h3

/-- And thread 1's store to 1 (action 2) and thread 0's load of 1 (action 3). -/
theorem prodCons_ordered2 :
    (Members.HB (soloEv prodCons (fun _ _ => 0) (fun _ => 0)) (1, 2) (0, 3) ∨
      Members.HB (soloEv prodCons (fun _ _ => 0) (fun _ => 0)) (0, 3) (1, 2)) := by
  have h1 := canonN_ordered (hfin := prodCons_finished)
  have h2 := h1 prodCons_kth
  have h3 := @h2 prodCons_check 1 0 2 3 (Nat.ltSuccSelf 1) (Nat.zeroLtSucc 1)
    (fun e => Nat.noConfusion e) prodCons_c2
  exact h3

/-- Check (2) over the run: each completion drains threads 0 and 1 once. -/
theorem prodCons_drain :
    Members.Drain2 (fun _ => [0, 1]) (canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8) :=
  Members.drain2_of _ _ rfl

/-- Nothing stays pending at the end of the run. -/
theorem prodCons_end : ∀ b, pendI (canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8) b = [] := by
  intro b
  rw [prodCons_run]
  show Sem.upd _ 2 (dropL 2 _) b = []
  cases Nat.decEq b 2 with
  | isTrue e => rw [e, upd_same]; rfl
  | isFalse e =>
    rw [upd_other _ _ e]
    show Sem.upd _ 2 _ b = []
    rw [upd_other _ _ e]
    show Sem.upd _ 1 (dropL 2 _) b = []
    cases Nat.decEq b 1 with
    | isTrue e1 => rw [e1, upd_same]; rfl
    | isFalse e1 =>
      rw [upd_other _ _ e1]
      show Sem.upd _ 1 _ b = []
      rw [upd_other _ _ e1]
      show Sem.upd _ 2 _ b = []
      rw [upd_other _ _ e]
      show Sem.upd _ 1 _ b = []
      rw [upd_other _ _ e1]
      rfl

/-- The Rust's check (3) over the run: no thread arrives twice at one id, so it is never
consulted. -/
theorem prodCons_rust3 :
    Members.RustCheck3 2 (soloEvB prodCons (fun _ _ => 0) (fun _ => 0) 2)
      (canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8) := by
  rw [prodCons_run]
  exact Members.rust3_cons trivial (Members.rust3_cons trivial
    (Members.rust3_cons (Members.head3_none rfl) (Members.rust3_cons trivial
    (Members.rust3_cons trivial (Members.rust3_cons trivial
    (Members.rust3_cons (Members.head3_none rfl) (Members.rust3_cons (Members.head3_none rfl)
    (Members.rust3_cons (Members.head3_none rfl) (Members.rust3_cons trivial
    (Members.rust3_nil 2 _))))))))))

/-- So `canonN_once` applies to the run: only threads 0 and 1 arrive at any id, and every valid
schedule of the two threads is `Once` at every id. -/
theorem prodCons_once :
    Members.Memb (soloEvB prodCons (fun _ _ => 0) (fun _ => 0) 2) (fun _ => [0, 1]) ∧
      ∀ (h : List Nat), Members.Valid (soloEvB prodCons (fun _ _ => 0) (fun _ => 0) 2)
        (fun _ => 2) h →
        Members.OnceAll (soloEvB prodCons (fun _ _ => 0) (fun _ => 0) 2) (fun _ => 2) h :=
  by
  have h := @canonN_once Nat prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8 (fun _ => 2)
    (fun _ => [0, 1]) Members.pc_sized prodCons_finished
  have h2 := h prodCons_drain
  have h3 := h2 prodCons_end
  have h4 := h3 prodCons_rust3
  exact h4

/-- And `canonN_ordered_drain` (no `KthInst` hypothesis) orders the first conflicting pair. -/
theorem prodCons_ordered_drain :
    (Members.HB (soloEv prodCons (fun _ _ => 0) (fun _ => 0)) (0, 0) (1, 1) ∨
      Members.HB (soloEv prodCons (fun _ _ => 0) (fun _ => 0)) (1, 1) (0, 0)) := by
  have h := @canonN_ordered_drain Nat prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8
    (fun _ => [0, 1]) prodCons_finished
  have h2 := h prodCons_drain
  have h3 := h2 prodCons_end
  have h4 := @h3 prodCons_check 0 1 0 1 (Nat.zeroLtSucc 1) (Nat.ltSuccSelf 1)
    (fun e => Nat.noConfusion e) prodCons_c1
  exact h4

theorem pcT0_cnt : ∀ {pc b n : Nat} {w : Bool} {p : Nat}, pcT0 pc = Act.arrive b n w p → n = 2
  | 0, _, _, _, _, h => Act.noConfusion h
  | 1, _, _, _, _, h => by
    have h' : (Act.arrive 1 2 false 2 : Act Nat) = Act.arrive _ _ _ _ := h
    injection h' with e1 e2 e3 e4
    exact e2.symm
  | 2, _, _, _, _, h => by
    have h' : (Act.arrive 2 2 true 3 : Act Nat) = Act.arrive _ _ _ _ := h
    injection h' with e1 e2 e3 e4
    exact e2.symm
  | 3, _, _, _, _, h => Act.noConfusion h
  | _ + 4, _, _, _, _, h => Act.noConfusion h

theorem pcT1_cnt : ∀ {pc b n : Nat} {w : Bool} {p : Nat}, pcT1 pc = Act.arrive b n w p → n = 2
  | 0, _, _, _, _, h => by
    have h' : (Act.arrive 1 2 true 1 : Act Nat) = Act.arrive _ _ _ _ := h
    injection h' with e1 e2 e3 e4
    exact e2.symm
  | 1, _, _, _, _, h => Act.noConfusion h
  | 2, _, _, _, _, h => Act.noConfusion h
  | 3, _, _, _, _, h => by
    have h' : (Act.arrive 2 2 false 4 : Act Nat) = Act.arrive _ _ _ _ := h
    injection h' with e1 e2 e3 e4
    exact e2.symm
  | _ + 4, _, _, _, _, h => Act.noConfusion h

/-- Every arrival of the producer/consumer has count 2. -/
theorem prodCons_cnt : ∀ t i b n w pc, t < 2 →
    Sem.soloAct prodCons (fun _ _ => 0) (fun _ => 0) t i = Act.arrive b n w pc → n = 2 := by
  intro t i b n w pc _ h
  have h2 : cond (decide (t = 0)) (pcT0 (Sem.solo prodCons (fun _ _ => 0) (fun _ => 0) t i).pc)
      (pcT1 (Sem.solo prodCons (fun _ _ => 0) (fun _ => 0) t i).pc) = Act.arrive b n w pc := h
  cases hd : decide (t = 0) with
  | true => rw [hd] at h2; exact pcT0_cnt h2
  | false => rw [hd] at h2; exact pcT1_cnt h2

/-- The executor's own thread order for the producer/consumer is a valid schedule, each thread
reaches its exit in it, and so (`prodCons_once`) it is `Once` at every id. -/
theorem prodCons_valid :
    Members.Valid (soloEvB prodCons (fun _ _ => 0) (fun _ => 0) 2) (fun _ => 2)
        (sched (canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8)) ∧
      Members.OnceAll (soloEvB prodCons (fun _ _ => 0) (fun _ => 0) 2) (fun _ => 2)
        (sched (canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8)) := by
  have h := @canonN_valid Nat prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8 (fun _ => 2)
    (fun _ => Nat.zeroLtSucc 1)
  have h2 := h prodCons_cnt
  exact ⟨h2.1, prodCons_once.2 _ h2.1⟩

def pcT1racy : Nat → Act Nat
  | 0 => Act.arrive 1 2 false 1
  | 1 => Act.read 0 0 2
  | 2 => Act.write 1 7 3
  | 3 => Act.arrive 2 2 false 4
  | _ => Act.exit

/-- The consumer only arrives at 1 (`bar.arrive`, no wait): its load of 0 is not ordered after
the producer's store, and the check over the run reports it. -/
def prodConsRacy : Sem.Prog Nat := fun i pc _ => cond (decide (i = 0)) (pcT0 pc) (pcT1racy pc)

theorem prodConsRacy_finished :
    FinishedN prodConsRacy (fun _ _ => 0) (fun _ => 0) 2 3 8 = true := rfl

theorem prodConsRacy_check :
    checkN noSameN 2 (canonRunN prodConsRacy (fun _ _ => 0) (fun _ => 0) 2 3 8) = true := rfl

/-- The report is a real unordered conflict of the run's history (`checkN_complete`). -/
theorem prodConsRacy_unordered :
    UnorderedConflict (canonRunN prodConsRacy (fun _ _ => 0) (fun _ => 0) 2 3 8) :=
  checkN_complete prodConsRacy_check

/-- Waiting at an id nobody else arrives at: the run stops unfinished. -/
def prodConsStuck : Sem.Prog Nat := fun i pc _ =>
  cond (decide (i = 0)) (pcT0 pc) (match pc with | 0 => Act.arrive 1 2 true 1 | _ => Act.exit)

theorem prodConsStuck_unfinished :
    FinishedN prodConsStuck (fun _ _ => 0) (fun _ => 0) 2 3 8 = false := rfl

end Examples

end Race
end Kcert
