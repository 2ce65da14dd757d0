import Kcert.WarpFinish

/-!
# Replaying a schedule as a `WSem` execution (first step towards `FinishesW`)

The executor's finished run gives an ORDER of threads; a `WSem` execution that replays it is a
list of thread ids each of which, at its turn, is a thread `< N`, running and not waiting at a
collective.  Here, for any program with collectives:

* `wrun l s`: the state after the threads of `l` do their next actions in turn (`wnext`);
* `WSchedOK l s`: at each turn the thread is `< N`, running and not waiting (a Prop, checked
  along the replay);
* `wreach_wrun`: a schedule that is OK is a `WSem` execution from `s` to `wrun l s`;
* `wrun_congr`, `wschedOK_congr`: both respect `WSame` (so a replay can be checked from any
  pointwise-equal state);
* `wrun_append`, `wschedOK_append`: schedules compose;
* `wfinishes_of_sched`: if from every launch memory some OK schedule ends with every thread
  exited, the CTA `WFinishes`; `ctaSafeW'_of_sched`: with `CtaSafeW` this gives `CtaSafeW'`.
* Not vacuous: `exSched_finishes`: the `bar.warp.sync` example through `wfinishes_of_sched`
  (schedule `[0, 0, 1, 1]` then, from the equal state `exM`, `[0, 0, 1, 1]`).

NOT DONE here: that `canonRunW`'s order (with `FinishedW` and the checks of
`warp_run_sound_lo2`) is such a schedule from EVERY launch memory.
-/

namespace Kcert

open Sem
open Warp
open WarpRace

section Replay

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)

/-- The state after the threads of `l` do their next actions in turn. -/
def wrun : List Nat → WState V → WState V
  | [], s => s
  | i :: l, s => wrun l (wnext memb wp N i s)

/-- At each turn of `l` from `s`, the thread is `< N`, running, and not waiting. -/
def WSchedOK : List Nat → WState V → Prop
  | [], _ => True
  | i :: l, s => (i < N ∧ (s.s.th i).status = Status.run ∧ s.cw i = none) ∧
      WSchedOK l (wnext memb wp N i s)

theorem wreach_wrun : ∀ (l : List Nat) (s : WState V), WSchedOK memb wp N l s →
    WReach memb wp N s (wrun memb wp N l s)
  | [], s, _ => WReach.refl s
  | i :: l, s, h =>
    WReach.step ⟨i, ⟨h.1.1, h.1.2.1, h.1.2.2, wsame_refl _⟩⟩ (wreach_wrun l _ h.2)

theorem wrun_congr : ∀ (l : List Nat) {a b : WState V}, WSame a b →
    WSame (wrun memb wp N l a) (wrun memb wp N l b)
  | [], _, _, h => h
  | i :: l, _, _, h => wrun_congr l (wnext_congr memb wp N i h)

theorem wschedOK_congr : ∀ (l : List Nat) {a b : WState V}, WSame a b →
    WSchedOK memb wp N l a → WSchedOK memb wp N l b
  | [], _, _, _, _ => True.intro
  | i :: l, a, b, h, hok =>
    have hr : (b.s.th i).status = Status.run := by
      rw [Eq.symm (h.1.1 i)]
      exact hok.1.2.1
    have hn : b.cw i = none := by
      rw [Eq.symm (h.2 i)]
      exact hok.1.2.2
    ⟨⟨hok.1.1, hr, hn⟩, wschedOK_congr l (wnext_congr memb wp N i h) hok.2⟩

/-- List append by structural recursion (core's `++` goes through `reverseAux`). -/
def schedApp : List Nat → List Nat → List Nat
  | [], l2 => l2
  | i :: l1, l2 => i :: schedApp l1 l2

theorem wrun_append : ∀ (l1 l2 : List Nat) (s : WState V),
    wrun memb wp N (schedApp l1 l2) s = wrun memb wp N l2 (wrun memb wp N l1 s)
  | [], _, _ => rfl
  | i :: l1, l2, s => wrun_append l1 l2 (wnext memb wp N i s)

theorem wschedOK_append : ∀ (l1 l2 : List Nat) (s : WState V),
    WSchedOK memb wp N l1 s → WSchedOK memb wp N l2 (wrun memb wp N l1 s) →
    WSchedOK memb wp N (schedApp l1 l2) s
  | [], _, _, _, h2 => h2
  | i :: l1, l2, s, h1, h2 => ⟨h1.1, wschedOK_append l1 l2 _ h1.2 h2⟩

/-- A final state pointwise equal to another makes that one final. -/
theorem wfinal_congr {a b : WState V} (h : WSame a b) (hf : WFinal N a) : WFinal N b := by
  intro k hk
  rw [Eq.symm (h.1.1 k)]
  exact hf k hk

end Replay

/-- If from every launch memory some OK schedule ends with every thread exited, the CTA
finishes. -/
theorem wfinishes_of_sched {V : Type} [AccAdd V] (c : WCta V)
    (h : ∀ m1 : Nat → V, ∃ l : List Nat, WSchedOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
      WFinal c.N (wrun c.memb c.prog c.N l (winit c.regs0 m1))) : WFinishes c := by
  intro m1
  match h m1 with
  | ⟨l, hok, hf⟩ => exact ⟨_, wreach_wrun c.memb c.prog c.N l _ hok, hf⟩

/-- `CtaSafeW` and finishing schedules give the unconditional `CtaSafeW'`. -/
theorem ctaSafeW'_of_sched {V : Type} [AccAdd V] (c : WCta V) (hs : CtaSafeW c)
    (h : ∀ m1 : Nat → V, ∃ l : List Nat, WSchedOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
      WFinal c.N (wrun c.memb c.prog c.N l (winit c.regs0 m1))) : CtaSafeW' c :=
  ctaSafeW'_of_fin c hs (wfinishes_of_sched c h)

section Example

open Examples
open Ex

theorem exSched_ok1 (m1 : Nat → Nat) :
    WSchedOK memb2 progS 2 [0, 0, 1, 1] (winit regs0 m1) :=
  ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩,
    ⟨⟨by decide, rfl, rfl⟩, True.intro⟩⟩⟩⟩

theorem exSched_ok2 (m1 : Nat → Nat) : WSchedOK memb2 progS 2 [0, 0, 1, 1] (exM m1) :=
  ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩,
    ⟨⟨by decide, rfl, rfl⟩, True.intro⟩⟩⟩⟩

theorem exSched_final (m1 : Nat → Nat) :
    WFinal 2 (wrun memb2 progS 2 [0, 0, 1, 1] (wrun memb2 progS 2 [0, 0, 1, 1] (winit regs0 m1))) :=
  have e : WSame (wrun memb2 progS 2 [0, 0, 1, 1] (exM m1))
      (wrun memb2 progS 2 [0, 0, 1, 1] (exS4 m1)) :=
    wrun_congr memb2 progS 2 [0, 0, 1, 1] (wsame_symm (exM_same m1))
  have hf : WFinal 2 (wrun memb2 progS 2 [0, 0, 1, 1] (exM m1)) := exT_final m1
  wfinal_congr 2 e hf

/-- The example finishes through `wfinishes_of_sched`, by the schedule `[0, 0, 1, 1, 0, 0, 1, 1]`
(the second half checked from the equal state `exM`). -/
theorem exSched_finishes : WFinishes exWCta :=
  wfinishes_of_sched exWCta (fun m1 =>
    ⟨schedApp [0, 0, 1, 1] [0, 0, 1, 1],
     wschedOK_append memb2 progS 2 [0, 0, 1, 1] [0, 0, 1, 1] (winit regs0 m1) (exSched_ok1 m1)
       (wschedOK_congr memb2 progS 2 [0, 0, 1, 1] (wsame_symm (exM_same m1)) (exSched_ok2 m1)),
     by
       rw [wrun_append]
       exact exSched_final m1⟩)

end Example

end Kcert
