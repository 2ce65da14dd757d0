import Kcert.WarpReplay

/-!
# Replaying a run of a given SHAPE (solo stretches and whole collective instances)

A restricted shape of histories with collectives, `Seg`: a run is a list of segments, each
* `Seg.step i`: one turn of thread `i` (any action, including `exit` and a non-completing
  arrival is NOT allowed here: the thread must be runnable and not waiting);
* `Seg.solo i n`: thread `i` doing its next `n` thread-local base actions (`SoloLocal`);
* `Seg.inst g z P vv rr pp`: a whole instance of collective `g`, the lanes `P` arriving then
  the last lane `z` completing it (the hypotheses of `wrun_instance`).

`ShapeOK l s`: each segment's hypotheses hold at the state the previous segments reach.
* `wschedOK_shape`: a shape that is OK is an OK schedule (`shapeSched l`), hence a `WSem`
  execution (`wreach_shape`);
* `wfinishes_of_shape`: if from every launch memory some OK shape ends with every thread
  exited, the CTA `WFinishes`; `ctaSafeW'_of_shape`: with `CtaSafeW`, `CtaSafeW'`.
* Not vacuous: `exShape_finishes`: the `bar.warp.sync` example through a shape with a whole
  instance segment (lane 0's store, lane 1's computation, the instance `[0]` then `1`, then
  both lanes' last two actions).

NOT DONE here: that the finished `canonRunW` gives such a shape from every launch memory
(`finishesW_of_run`), hence `check_safe_warp''`.
-/

namespace Kcert

open Sem
open Warp
open WarpRace

/-- A segment of a run of the restricted shape. -/
inductive Seg (V : Type) where
  | step (i : Nat)
  | solo (i n : Nat)
  | inst (g z : Nat) (P : List Nat) (vv : Nat → Nat → V) (rr : Nat → ExtFun V) (pp : Nat → Nat)

section Shape

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)

/-- The threads a segment schedules. -/
def segSched : Seg V → List Nat
  | Seg.step i => [i]
  | Seg.solo i n => rep i n
  | Seg.inst _ z P _ _ _ => schedApp P [z]

/-- The schedule of a shape. -/
def shapeSched : List (Seg V) → List Nat
  | [] => []
  | sg :: l => schedApp (segSched sg) (shapeSched l)

/-- The hypotheses of a segment at state `s`. -/
def SegOK : Seg V → WState V → Prop
  | Seg.step i, s => i < N ∧ (s.s.th i).status = Status.run ∧ s.cw i = none
  | Seg.solo i n, s => i < N ∧ (s.s.th i).status = Status.run ∧ s.cw i = none ∧
      SoloLocal memb wp N i n s
  | Seg.inst g z P vv rr pp, s => z < N ∧ memb g z = true ∧ Distinct P ∧
      ArrAll wp g vv rr pp s P ∧ NotIn z P ∧ AllRun N s (z :: P)

/-- Each segment's hypotheses hold where the previous segments lead. -/
def ShapeOK : List (Seg V) → WState V → Prop
  | [], _ => True
  | sg :: l, s => SegOK memb wp N sg s ∧ ShapeOK l (wrun memb wp N (segSched sg) s)

theorem wschedOK_seg : ∀ (sg : Seg V) (s : WState V), SegOK memb wp N sg s →
    WSchedOK memb wp N (segSched sg) s
  | Seg.step _, _, h => ⟨h, True.intro⟩
  | Seg.solo i n, s, h => wschedOK_solo memb wp N i h.1 n s h.2.1 h.2.2.1 h.2.2.2
  | Seg.inst g z P vv rr pp, s, h =>
    wschedOK_instance memb wp N g z vv rr pp h.1 h.2.1 P s h.2.2.1 h.2.2.2.1 h.2.2.2.2.1
      h.2.2.2.2.2

theorem wrun_shape : ∀ (sg : Seg V) (l : List (Seg V)) (s : WState V),
    wrun memb wp N (shapeSched (sg :: l)) s =
      wrun memb wp N (shapeSched l) (wrun memb wp N (segSched sg) s)
  | sg, l, s => wrun_append memb wp N (segSched sg) (shapeSched l) s

/-- An OK shape is an OK schedule. -/
theorem wschedOK_shape : ∀ (l : List (Seg V)) (s : WState V), ShapeOK memb wp N l s →
    WSchedOK memb wp N (shapeSched l) s
  | [], _, _ => True.intro
  | sg :: l, s, h =>
    wschedOK_append memb wp N (segSched sg) (shapeSched l) s (wschedOK_seg memb wp N sg s h.1)
      (wschedOK_shape l _ h.2)

/-- An OK shape is a `WSem` execution. -/
theorem wreach_shape (l : List (Seg V)) (s : WState V) (h : ShapeOK memb wp N l s) :
    WReach memb wp N s (wrun memb wp N (shapeSched l) s) :=
  wreach_wrun memb wp N (shapeSched l) s (wschedOK_shape memb wp N l s h)

end Shape

/-- If from every launch memory some OK shape ends with every thread exited, the CTA
finishes. -/
theorem wfinishes_of_shape {V : Type} [AccAdd V] (c : WCta V)
    (h : ∀ m1 : Nat → V, ∃ l : List (Seg V), ShapeOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
      WFinal c.N (wrun c.memb c.prog c.N (shapeSched l) (winit c.regs0 m1))) : WFinishes c :=
  wfinishes_of_sched c (fun m1 =>
    match h m1 with
    | ⟨l, hok, hf⟩ => ⟨shapeSched l, wschedOK_shape c.memb c.prog c.N l _ hok, hf⟩)

/-- `CtaSafeW` and finishing shapes give the unconditional `CtaSafeW'`. -/
theorem ctaSafeW'_of_shape {V : Type} [AccAdd V] (c : WCta V) (hs : CtaSafeW c)
    (h : ∀ m1 : Nat → V, ∃ l : List (Seg V), ShapeOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
      WFinal c.N (wrun c.memb c.prog c.N (shapeSched l) (winit c.regs0 m1))) : CtaSafeW' c :=
  ctaSafeW'_of_fin c hs (wfinishes_of_shape c h)

end Kcert
