import Kcert.WarpReplay

/-!
# Replaying a run of a given SHAPE (solo stretches and whole collective instances)

A restricted shape of histories with collectives, `RSeg`: a run is a list of segments, each
* `RSeg.step i`: one turn of thread `i`, whatever its action (a base action, `exit`, or an
  arrival at a collective); the thread must be `< N`, running and not waiting;
* `RSeg.solo i n`: thread `i` doing its next `n` thread-local base actions (`SoloLocal`);
* `RSeg.inst g z P vv rr pp`: a whole instance of collective `g`, the lanes `P` arriving then
  the last lane `z` completing it (the hypotheses of `wrun_instance`).

`ShapeOK l s`: each segment's hypotheses hold at the state the previous segments reach.
* `wschedOK_shape`: a shape that is OK is an OK schedule (`shapeSched l`), hence a `WSem`
  execution (`wreach_shape`);
* `wfinishes_of_shape`: if from every launch memory some OK shape ends with every thread
  exited, the CTA `WFinishes`; `ctaSafeW'_of_shape`: with `CtaSafeW`, `CtaSafeW'`.
* `FinShape c`: from every launch memory some OK shape finishes; `ShapesW X wsem`: every CTA
  of every clean complete side has finishing shapes (a HYPOTHESIS, the restricted-shape form
  of `FinishesW`); `finishesW_of_shapes`: `ShapesW` gives `FinishesW`;
  `check_safe_warp_shapes`: `check_safe_warp'` under `ShapesW` instead of `FinishesW`.
* `segOK_congr`, `shapeOK_congr`: the hypotheses respect `WSame`; `shapeApp`,
  `wrun_shapeApp`, `shapeOK_app`: shapes compose.
* Not vacuous: `exShape_finishes`: the `bar.warp.sync` example through a shape with a whole
  instance segment (lane 0's store, lane 1's computation, the instance `[0]` then `1`, then
  both lanes' last two actions), from every launch memory (`exShape_fin`, `exShape_finishes`); `exW_shapesW`,
  `exW_safe_shapes`: `check_safe_warp_shapes` on the accepted example certificate.

NOT DONE here: that the finished `canonRunW` gives such a shape from every launch memory
(`finishesW_of_run`), hence `check_safe_warp''`.
-/

namespace Kcert

open Sem
open Warp
open WarpRace

/-- A segment of a run of the restricted shape. -/
inductive RSeg (V : Type) where
  | step (i : Nat)
  | solo (i n : Nat)
  | inst (g z : Nat) (P : List Nat) (vv : Nat → Nat → V) (rr : Nat → ExtFun V) (pp : Nat → Nat)

section Shape

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)

/-- The threads a segment schedules. -/
def segSched : RSeg V → List Nat
  | RSeg.step i => [i]
  | RSeg.solo i n => rep i n
  | RSeg.inst _ z P _ _ _ => schedApp P [z]

/-- The schedule of a shape. -/
def shapeSched : List (RSeg V) → List Nat
  | [] => []
  | sg :: l => schedApp (segSched sg) (shapeSched l)

/-- The hypotheses of a segment at state `s`. -/
def SegOK : RSeg V → WState V → Prop
  | RSeg.step i, s => i < N ∧ (s.s.th i).status = Status.run ∧ s.cw i = none
  | RSeg.solo i n, s => i < N ∧ (s.s.th i).status = Status.run ∧ s.cw i = none ∧
      SoloLocal memb wp N i n s
  | RSeg.inst g z P vv rr pp, s => z < N ∧ memb g z = true ∧ Distinct P ∧
      ArrAll wp g vv rr pp s P ∧ NotIn z P ∧ AllRun N s (z :: P)

/-- Each segment's hypotheses hold where the previous segments lead. -/
def ShapeOK : List (RSeg V) → WState V → Prop
  | [], _ => True
  | sg :: l, s => SegOK memb wp N sg s ∧ ShapeOK l (wrun memb wp N (segSched sg) s)

theorem wschedOK_seg : ∀ (sg : RSeg V) (s : WState V), SegOK memb wp N sg s →
    WSchedOK memb wp N (segSched sg) s
  | RSeg.step _, _, h => ⟨h, True.intro⟩
  | RSeg.solo i n, s, h => wschedOK_solo memb wp N i h.1 n s h.2.1 h.2.2.1 h.2.2.2
  | RSeg.inst g z P vv rr pp, s, h =>
    wschedOK_instance memb wp N g z vv rr pp h.1 h.2.1 P s h.2.2.1 h.2.2.2.1 h.2.2.2.2.1
      h.2.2.2.2.2

theorem wrun_shape : ∀ (sg : RSeg V) (l : List (RSeg V)) (s : WState V),
    wrun memb wp N (shapeSched (sg :: l)) s =
      wrun memb wp N (shapeSched l) (wrun memb wp N (segSched sg) s)
  | sg, l, s => wrun_append memb wp N (segSched sg) (shapeSched l) s

/-- An OK shape is an OK schedule. -/
theorem wschedOK_shape : ∀ (l : List (RSeg V)) (s : WState V), ShapeOK memb wp N l s →
    WSchedOK memb wp N (shapeSched l) s
  | [], _, _ => True.intro
  | sg :: l, s, h =>
    wschedOK_append memb wp N (segSched sg) (shapeSched l) s (wschedOK_seg memb wp N sg s h.1)
      (wschedOK_shape l _ h.2)

/-- An OK shape is a `WSem` execution. -/
theorem wreach_shape (l : List (RSeg V)) (s : WState V) (h : ShapeOK memb wp N l s) :
    WReach memb wp N s (wrun memb wp N (shapeSched l) s) :=
  wreach_wrun memb wp N (shapeSched l) s (wschedOK_shape memb wp N l s h)

end Shape

/-- If from every launch memory some OK shape ends with every thread exited, the CTA
finishes. -/
theorem wfinishes_of_shape {V : Type} [AccAdd V] (c : WCta V)
    (h : ∀ m1 : Nat → V, ∃ l : List (RSeg V), ShapeOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
      WFinal c.N (wrun c.memb c.prog c.N (shapeSched l) (winit c.regs0 m1))) : WFinishes c :=
  wfinishes_of_sched c (fun m1 =>
    match h m1 with
    | ⟨l, hok, hf⟩ => ⟨shapeSched l, wschedOK_shape c.memb c.prog c.N l _ hok, hf⟩)

/-- `CtaSafeW` and finishing shapes give the unconditional `CtaSafeW'`. -/
theorem ctaSafeW'_of_shape {V : Type} [AccAdd V] (c : WCta V) (hs : CtaSafeW c)
    (h : ∀ m1 : Nat → V, ∃ l : List (RSeg V), ShapeOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
      WFinal c.N (wrun c.memb c.prog c.N (shapeSched l) (winit c.regs0 m1))) : CtaSafeW' c :=
  ctaSafeW'_of_fin c hs (wfinishes_of_shape c h)

/-- From every launch memory, some OK shape ends with every thread exited. -/
def FinShape {V : Type} [AccAdd V] (c : WCta V) : Prop :=
  ∀ m1 : Nat → V, ∃ l : List (RSeg V), ShapeOK c.memb c.prog c.N l (winit c.regs0 m1) ∧
    WFinal c.N (wrun c.memb c.prog c.N (shapeSched l) (winit c.regs0 m1))

/-- Every CTA of every side that `runPair` returns complete and without findings has finishing
shapes (`FinShape`; a HYPOTHESIS, the restricted-shape form of `FinishesW`). -/
def ShapesW (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (wsem : S → Kernel → T → WKernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      FinShape ((wsem pair k (pick r o k)).cta c)

theorem finishesW_of_shapes {V : Type} [AccAdd V] {T D S K F : Type} {X : Oracle T D S K F}
    {wsem : S → Kernel → T → WKernelSem V} (h : ShapesW V X wsem) : FinishesW V X wsem := by
  intro pair r o wr wo pr k sr hr hs hf hc c hcc
  exact wfinishes_of_shape _ (h pair r o wr wo pr k sr hr hs hf hc c hcc)

/-- `check_safe_warp'` with `FinishesW` replaced by finishing shapes (`ShapesW`). -/
theorem check_safe_warp_shapes {T D S K F C V : Type} [DecidableEq D] [DecidableEq K]
    [AccAdd V] {X : Oracle T D S K F} {ops : FieldCoeffOps K C}
    (wsem : S → Kernel → T → WKernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithfulW X wsem) (hclean : CanonCleanW V X wsem)
    (hsh : ShapesW V X wsem)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeW' (wsem pair k (pick refPtx optPtx k)) :=
  check_safe_warp' wsem hwant hfaith hclean (finishesW_of_shapes hsh) cert refPtx optPtx h

section Congr

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (wp : WProg V) (N : Nat)

theorem wact_congr (i : Nat) {a b : WState V} (h : WSame a b) : wact wp i b = wact wp i a := by
  show wp i _ _ = wp i _ _
  rw [h.1.1 i]

theorem soloLocal_congr (i : Nat) : ∀ (n : Nat) {a b : WState V}, WSame a b →
    SoloLocal memb wp N i n a → SoloLocal memb wp N i n b
  | 0, _, _, _, _ => True.intro
  | n + 1, a, b, h, hs =>
    match hs.1 with
    | ⟨A, ha, hl⟩ =>
      ⟨⟨A, Eq.trans (wact_congr wp i h) ha, hl⟩,
       soloLocal_congr i n (wnext_congr memb wp N i h) hs.2⟩

theorem allRun_congr {a b : WState V} (h : WSame a b) : ∀ (l : List Nat), AllRun N a l →
    AllRun N b l
  | [], _ => True.intro
  | k :: l, ha =>
    have hr : (b.s.th k).status = Status.run := by
      rw [Eq.symm (h.1.1 k)]
      exact ha.1.2.1
    have hn : b.cw k = none := by
      rw [Eq.symm (h.2 k)]
      exact ha.1.2.2
    ⟨⟨ha.1.1, hr, hn⟩, allRun_congr h l ha.2⟩

/-- A segment's hypotheses respect `WSame`. -/
theorem segOK_congr : ∀ (sg : RSeg V) {a b : WState V}, WSame a b → SegOK memb wp N sg a →
    SegOK memb wp N sg b
  | RSeg.step i, a, b, h, hs =>
    have hr : (b.s.th i).status = Status.run := by
      rw [Eq.symm (h.1.1 i)]
      exact hs.2.1
    have hn : b.cw i = none := by
      rw [Eq.symm (h.2 i)]
      exact hs.2.2
    ⟨hs.1, hr, hn⟩
  | RSeg.solo i n, a, b, h, hs =>
    have hr : (b.s.th i).status = Status.run := by
      rw [Eq.symm (h.1.1 i)]
      exact hs.2.1
    have hn : b.cw i = none := by
      rw [Eq.symm (h.2 i)]
      exact hs.2.2.1
    ⟨hs.1, hr, hn, soloLocal_congr memb wp N i n h hs.2.2.2⟩
  | RSeg.inst g z P vv rr pp, a, b, h, hs =>
    ⟨hs.1, hs.2.1, hs.2.2.1,
     arrAll_th wp g vv rr pp (fun k => Eq.symm (h.1.1 k)) P hs.2.2.2.1,
     hs.2.2.2.2.1, allRun_congr N h (z :: P) hs.2.2.2.2.2⟩

/-- A shape's hypotheses respect `WSame` (so a shape can be checked from an equal state). -/
theorem shapeOK_congr : ∀ (l : List (RSeg V)) {a b : WState V}, WSame a b →
    ShapeOK memb wp N l a → ShapeOK memb wp N l b
  | [], _, _, _, _ => True.intro
  | sg :: l, _, _, h, hs =>
    ⟨segOK_congr memb wp N sg h hs.1,
     shapeOK_congr l (wrun_congr memb wp N (segSched sg) h) hs.2⟩

/-- Shapes append (structurally). -/
def shapeApp : List (RSeg V) → List (RSeg V) → List (RSeg V)
  | [], l2 => l2
  | sg :: l1, l2 => sg :: shapeApp l1 l2

theorem wrun_shapeApp : ∀ (l1 l2 : List (RSeg V)) (s : WState V),
    wrun memb wp N (shapeSched (shapeApp l1 l2)) s =
      wrun memb wp N (shapeSched l2) (wrun memb wp N (shapeSched l1) s)
  | [], _, _ => rfl
  | sg :: l1, l2, s => by
    show wrun memb wp N (shapeSched (sg :: shapeApp l1 l2)) s = _
    rw [wrun_shape, wrun_shapeApp l1 l2, wrun_shape]

theorem shapeOK_app : ∀ (l1 l2 : List (RSeg V)) (s : WState V), ShapeOK memb wp N l1 s →
    ShapeOK memb wp N l2 (wrun memb wp N (shapeSched l1) s) →
    ShapeOK memb wp N (shapeApp l1 l2) s
  | [], _, _, _, h2 => h2
  | sg :: l1, l2, s, h1, h2 => by
    refine ⟨h1.1, shapeOK_app l1 l2 _ h1.2 ?_⟩
    rw [Eq.symm (wrun_shape memb wp N sg l1 s)]
    exact h2

end Congr

section Example

open Examples
open Ex

/-- The `bar.warp.sync` example, first part: lane 0's store, lane 1's computation, then the
whole instance (lane 0 arrives, lane 1 completes it). -/
def exShape1 : List (RSeg Nat) :=
  [RSeg.solo 0 1, RSeg.solo 1 1,
   RSeg.inst 0 1 [0] (fun _ _ => 0) (fun _ => syncRes (fun _ => 0)) (fun _ => 2)]

/-- Second part: lane 0's computation and exit, lane 1's read and exit. -/
def exShape2 : List (RSeg Nat) := [RSeg.solo 0 1, RSeg.step 0, RSeg.solo 1 1, RSeg.step 1]

theorem exShape1_ok (m1 : Nat → Nat) : ShapeOK memb2 progS 2 exShape1 (winit regs0 m1) :=
  ⟨⟨by decide, rfl, rfl, ⟨⟨_, rfl, rfl⟩, True.intro⟩⟩,
   ⟨⟨by decide, rfl, rfl, ⟨⟨_, rfl, rfl⟩, True.intro⟩⟩,
    ⟨⟨by decide, rfl, ⟨True.intro, True.intro⟩, ⟨rfl, True.intro⟩, ⟨by decide, True.intro⟩,
      ⟨⟨by decide, rfl, rfl⟩, ⟨⟨by decide, rfl, rfl⟩, True.intro⟩⟩⟩, True.intro⟩⟩⟩

def exMid (m1 : Nat → Nat) : WState Nat := wrun memb2 progS 2 (shapeSched exShape1) (winit regs0 m1)

/-- The state after the first part, threads written out. -/
def exM' (m1 : Nat → Nat) : WState Nat :=
  ⟨⟨exMth, (exMid m1).s.mem, (exMid m1).s.arr⟩, fun _ => none⟩

theorem exM'_same (m1 : Nat → Nat) : WSame (exMid m1) (exM' m1) := by
  refine wsame_of_th (exMid m1) _ _ ?_ ?_
  · intro k
    cases k with
    | zero => rfl
    | succ k => cases k with
      | zero => rfl
      | succ k => rfl
  · intro k
    cases k with
    | zero => rfl
    | succ k => cases k with
      | zero => rfl
      | succ k => rfl

theorem exShape2_ok (m1 : Nat → Nat) : ShapeOK memb2 progS 2 exShape2 (exM' m1) :=
  ⟨⟨by decide, rfl, rfl, ⟨⟨_, rfl, rfl⟩, True.intro⟩⟩,
   ⟨⟨by decide, rfl, rfl⟩,
    ⟨⟨by decide, rfl, rfl, ⟨⟨_, rfl, rfl⟩, True.intro⟩⟩,
     ⟨⟨by decide, rfl, rfl⟩, True.intro⟩⟩⟩⟩

theorem exShape2_final (m1 : Nat → Nat) :
    WFinal 2 (wrun memb2 progS 2 (shapeSched exShape2) (exM' m1)) := by
  intro k hk
  cases k with
  | zero => rfl
  | succ k =>
    cases k with
    | zero => rfl
    | succ k => exact False.elim (Nat.notSuccLeZero k (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hk)))

/-- The example finishes through `wfinishes_of_shape`, by a shape with a whole-instance segment
(`shapeApp exShape1 exShape2`, the second part checked from the equal state `exM'`). -/
theorem exShape_fin : FinShape exWCta := fun m1 =>
    ⟨shapeApp exShape1 exShape2,
     shapeOK_app memb2 progS 2 exShape1 exShape2 (winit regs0 m1) (exShape1_ok m1)
       (shapeOK_congr memb2 progS 2 exShape2 (wsame_symm (exM'_same m1)) (exShape2_ok m1)),
     by
       rw [wrun_shapeApp]
       exact wfinal_congr 2 (wrun_congr memb2 progS 2 (shapeSched exShape2)
         (wsame_symm (exM'_same m1))) (exShape2_final m1)⟩

theorem exShape_finishes : WFinishes exWCta := wfinishes_of_shape exWCta exShape_fin

theorem exW_shapesW : ShapesW Nat exOracle exSemW := by
  intro _ _ _ _ _ _ _ _ _ _ _ _ _ _
  exact exShape_fin

/-- `check_safe_warp_shapes` on the accepted example certificate: the reference kernel is
`KernelSafeW'` (finishing shapes in place of `FinishesW`). -/
theorem exW_safe_shapes : KernelSafeW' (exSemW () Kernel.reference 1) :=
  match check_safe_warp_shapes (ops := intFieldOps) exSemW ex_runsWanted exW_ctasFaithful
      exW_canonCleanW exW_shapesW exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end Example

end Kcert
