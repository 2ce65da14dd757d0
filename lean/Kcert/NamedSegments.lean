import Kcert.OnceCheck
import Kcert.SemOnce
import Kcert.OnceLink
import Kcert.Progress
import Kcert.NamedSound

/-!
# Named barriers across the clearing of the members record

`OnceCheck.lean` (`once_all`, `hb_done`) and `SemOnce.lean` (`raceFree_of_ordered`) need one
member set `S b` per barrier id for the whole run.  The Rust clears its members record after a
whole-CTA instance where every thread waits; after it an id may join other threads.  This file
covers one such clearing (namespace `Kcert.Members`):

* `Cut act m W k SW c E`: the hypotheses of `OnceCheck`'s segment theorems (`valid_pre`,
  `valid_post`): every arrival at `W` waits, the members of `W` are `SW` (`len SW = m W`, no
  duplicates), every arriving thread is in `SW` (whole CTA), `c u` is `u`'s `k`-th arrival at
  `W` (the cut), and the executor's schedule `E` took every member past the cut, leaving nothing
  pending at any id after the arrivals up to the cut (the Rust's clearing condition).
* `Segs act m c S1 S2`: each segment (`restr act (preF c)`, `restr act (postF c)`) meets the
  Rust's checks under its own member sets (`Memb`, `Sized`, `Check3`).
* `SegHB act SW c`: happens-before across a clearing: happens-before of the segment up to the
  cut, or of the segment after it, or from an action up to the cut of a member of `W` to an
  action after the cut of a member of `W`.
* `seg_done`: in every valid history, whatever `SegHB`-precedes a happened action happened
  (the realization `hb_done` gives for one member set per id).  `seg_not_next`: so nothing not yet
  done `SegHB`-precedes the next action of a thread.
* `raceFree_of_segOrdered` (`Sem` side): if `SegHB` orders every two conflicting solo actions
  of different threads, every `Sem` schedule from the launch is race free.
* `seg_two_places` (both arrivals in one segment, `past_all`; `two_places_act`),
  `seg_barriersFit`: `Sem.BarriersFit`; `seg_confluence`: any two final states are `Sem.Same`.
* `lift_pre`, `lift_post` (pending in the whole program is pending in the segment),
  `seg_progress` (`Progress.progress` across the clearing), `seg_noStuck` (given a complete
  schedule, every stuck reachable state is final); `seg_sound`: the four conclusions together
  from the executor's checks per segment.
* Several clearings: `Realized act m Rel` (in every valid history, `Rel`-predecessors of a
  happened action happened), `realized_hb` (one member set per id realizes `HB`),
  `realized_cut` (a clearing joins its segments' realized orders with `CutRel`),
  `raceFree_of_realized`; applied again to a segment program for each further clearing;
  example with two clearings `twoAct` (`two_realized`, `two_not_single`).  Barriers fit the
  same way: `Fits`, `fits_once`, `fits_cut`, `barriersFit_of_fits`, `two_fits`; and progress:
  `NpAhead`, `np_once`, `np_cut`, `progress_of_np`, `noStuck_of_np`, `two_np`; confluence
  `confluence_of_realized`.
* Executor side: the history split at the completion of the whole-CTA instance, `appE H2 H1`.
  `memb_pre`, `check3_pre`: checks (2) and (3) on `H1` with `S1` give `Memb`, `Check3` of the
  segment up to the cut; `memb_post`, `check3_post`: on `H2` (over the actions shifted past each
  thread's events in `H1`, `shiftA`) with `S2`, of the segment after it; `segs_of_exec`: `Segs`;
  `raceFree_of_segExec`: the composed theorem.
* Not vacuous: `segAct` (id 1 with {0, 1} before the whole-CTA barrier, {2, 3} after it):
  `seg_cutOK`, `seg_segsOK`, `seg_ex_done`, `seg_not_single` (one member set per id fails);
  its run `segH1`, `segH2` meets `segs_of_exec`'s hypotheses (`seg_segs_exec`).

Why not `HB act` of the whole program: its barrier edges pair the `k`-th arrivals at an id over
the whole run, which after a clearing are not the instances (threads 0 and 2 of the example
both make their first arrival at id 1, in different instances); `SegHB` uses each segment's own
numbering.
-/

namespace Kcert
namespace Members

/-- The hypotheses of one clearing: a whole-CTA instance at `W` (the `k`-th) where every thread
waits, `c u` each member's arrival there, and the executor's schedule `E` past it with nothing
pending after the arrivals up to the cut. -/
structure Cut (act : Nat → Nat → Ev) (m : Nat → Nat) (W k : Nat) (SW : List Nat)
    (c : Nat → Nat) (E : List Nat) : Prop where
  hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true
  hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW
  hm : len SW = m W
  hS : Nodup SW
  hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k
  hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW
  hE : ∀ b, left (m b) (fun _ => 0) [] (arrsF act b (preF c) E) = []
  hEc : ∀ u, Mem u SW → c u < cnt u E

/-- Each segment meets the Rust's barrier checks under its own member sets. -/
structure Segs (act : Nat → Nat → Ev) (m : Nat → Nat) (c : Nat → Nat)
    (S1 S2 : Nat → List Nat) : Prop where
  hM1 : Memb (restr act (preF c)) S1
  hSz1 : Sized m S1
  h31 : Check3 (restr act (preF c))
  hM2 : Memb (restr act (postF c)) S2
  hSz2 : Sized m S2
  h32 : Check3 (restr act (postF c))

/-- Happens-before across one clearing. -/
def SegHB (act : Nat → Nat → Ev) (SW : List Nat) (c : Nat → Nat) (e1 e2 : Nat × Nat) : Prop :=
  HB (restr act (preF c)) e1 e2 ∨ HB (restr act (postF c)) e1 e2 ∨
    (Mem e1.1 SW ∧ Mem e2.1 SW ∧ e1.2 ≤ c e1.1 ∧ c e2.1 < e2.2)

/-- **Happens-before across a clearing is realized in every schedule**: in every valid history,
if `e1` `SegHB`-precedes `e2` and `e2` happened, `e1` happened. -/
theorem seg_done {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat} (C : Cut act m W k SW c E)
    (G : Segs act m c S1 S2) {h : List Nat} (hv : Valid act m h) {e1 e2 : Nat × Nat}
    (hs : SegHB act SW c e1 e2) : e2.2 < cnt e2.1 h → e1.2 < cnt e1.1 h := by
  cases hs with
  | inl hb =>
    have hv1 := valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv
    exact hb_done _ m S1 G.hM1 G.hSz1 hv1 (once_all _ m S1 G.hM1 G.hSz1 G.h31 h hv1) hb
  | inr hs =>
    cases hs with
    | inl hb =>
      have hv2 := valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv
      exact hb_done _ m S2 G.hM2 G.hSz2 hv2 (once_all _ m S2 G.hM2 G.hSz2 G.h32 h hv2) hb
    | inr hx =>
      intro hl
      have hl' : c e2.1 + 1 < cnt e2.1 h := Nat.ltOfLeOfLt hx.2.2.2 hl
      have r := sep_wait act m C.hW C.hM C.hm C.hS C.hc h hv hx.2.1 hl' e1.1 hx.1
      exact Nat.ltOfLeOfLt hx.2.2.1 r

/-- **Nothing not yet done precedes the next step**: if `y :: h` is valid and `x ≠ y`, `x`'s
next action does not `SegHB`-precede `y`'s. -/
theorem seg_not_next {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat} (C : Cut act m W k SW c E)
    (G : Segs act m c S1 S2) {h : List Nat} {x y : Nat} (hxy : ¬ y = x)
    (hv : Valid act m (y :: h)) : ¬ SegHB act SW c (x, cnt x h) (y, cnt y h) := by
  intro hs
  have hdone : cnt y h < cnt y (y :: h) := by
    rw [cnt_cons_self]
    exact Nat.ltSuccSelf _
  have r : cnt x h < cnt x (y :: h) := seg_done C G hv hs hdone
  rw [cnt_cons_ne h hxy] at r
  exact Nat.ltIrrefl _ r

section SemSeg

variable {V : Type} [Sem.AccAdd V]

/-- Every two conflicting solo actions of different threads below `N` are ordered by
happens-before across the clearing. -/
def SegOrdered (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (SW : List Nat) (c : Nat → Nat) : Prop :=
  ∀ x y i j, x ≠ y → x < N → y < N →
    Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j) →
    SegHB (soloEv prog regs0 m0) SW c (x, i) (y, j) ∨ SegHB (soloEv prog regs0 m0) SW c (y, j) (x, i)

/-- **Conflicting next actions of two running threads are conflicting solo actions that
`SegHB` does not order** (`race_unordered` across a clearing). -/
theorem seg_race_unordered (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    {W k : Nat} {SW : List Nat} {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat}
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (C : Cut (soloEv prog regs0 m0) m W k SW c E) (G : Segs (soloEv prog regs0 m0) m c S1 S2)
    {h : List Nat} {s : Sem.CState V} (hs : Sched prog N (Sem.init regs0 m1) h s) {x y : Nat}
    (hxy : x ≠ y) (hx : x < N) (hy : y < N) (hrx : (s.th x).status = Sem.Status.run)
    (hry : (s.th y).status = Sem.Status.run)
    (hc : Sem.Conflict (Sem.act prog x s) (Sem.act prog y s)) :
    Sem.Conflict (Sem.soloAct prog regs0 m0 x (cnt x h)) (Sem.soloAct prog regs0 m0 y (cnt y h)) ∧
    ¬ SegHB (soloEv prog regs0 m0) SW c (x, cnt x h) (y, cnt y h) ∧
    ¬ SegHB (soloEv prog regs0 m0) SW c (y, cnt y h) (x, cnt x h) := by
  have H := hinv_sched prog N regs0 m0 m1 R m hind hR0 hC hs
  have rx := Sem.actRel_of_trel prog hind (H.2.2 x hx).1
  have ry := Sem.actRel_of_trel prog hind (H.2.2 y hy).1
  have hvy : Valid (soloEv prog regs0 m0) m (y :: h) := ⟨H.1, (H.2.2 y hy).2.2 hry⟩
  have hvx : Valid (soloEv prog regs0 m0) m (x :: h) := ⟨H.1, (H.2.2 x hx).2.2 hrx⟩
  exact ⟨Sem.conflict_rel rx ry hc,
    seg_not_next C G (fun e => hxy (Eq.symm e)) hvy,
    seg_not_next C G hxy hvx⟩

/-- **Race freedom across one clearing of the members record.**  Under data independence, one
count `m b > 0` per barrier id (`CountsAt`), a whole-CTA instance where every thread waits with
the executor's schedule past it and nothing pending (`Cut`), each segment meeting the Rust's
barrier checks under its own member sets (`Segs`: `Memb`, `Sized`, `Check3` of
`restr (soloEv ..) (preF c)` and of `restr (soloEv ..) (postF c)`), if every two conflicting
solo actions of different threads are `SegHB`-ordered, no reachable state of `Sem` from the
launch (any initial memory) has a race. -/
theorem raceFree_of_segOrdered (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    {W k : Nat} {SW : List Nat} {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat}
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (C : Cut (soloEv prog regs0 m0) m W k SW c E) (G : Segs (soloEv prog regs0 m0) m c S1 S2)
    (hord : SegOrdered prog N regs0 m0 SW c) : Sem.RaceFree prog N (Sem.init regs0 m1) := by
  intro r hr i j hij hi hj hri hrj hc
  match sched_of_reach prog N hr with
  | ⟨h, hs⟩ =>
    match seg_race_unordered prog N regs0 m0 m1 R m hind hR0 hC C G hs hij hi hj hri hrj hc with
    | ⟨hc', n1, n2⟩ =>
      cases hord i j (cnt i h) (cnt j h) hij hi hj hc' with
      | inl e => exact n1 e
      | inr e => exact n2 e

end SemSeg

/-! ## Not vacuous: id 1 with threads {0, 1} before the whole-CTA barrier 0, {2, 3} after it

`OnceCheck.lean`'s `segAct` (threads 0 and 1: `bar.sync 1, 2; bar.sync 0, 4`; threads 2 and 3:
`bar.sync 0, 4; bar.sync 1, 2`), cut `segC` at barrier 0, executor schedule `segE`. -/

/-- The example meets the hypotheses of one clearing. -/
theorem seg_cutOK : Cut segAct segM 0 0 [0, 1, 2, 3] segC segE :=
  ⟨fun t i wt ha => (seg_arr ha).2, fun t i wt ha => (seg_arr ha).1, rfl, seg_nodup4, seg_cut,
    fun u i b wt ha => (seg_arr ha).1, segE_left, segE_past⟩

/-- Each segment passes the checks under its own member sets (id 1: {0, 1}, then {2, 3}). -/
theorem seg_segsOK : Segs segAct segM segC segS1 segS2 :=
  ⟨seg_memb1, seg_sized1, check3_restr (fun t i b wt ha => (seg_arr ha).2) _,
    seg_memb2, seg_sized2, check3_restr (fun t i b wt ha => (seg_arr ha).2) _⟩

/-- Thread 2's arrival at 1 (after the cut) precedes thread 3's step past its own: the
instance of the segment after the cut, numbered within the segment. -/
theorem seg_ex_post : SegHB segAct [0, 1, 2, 3] segC (2, 1) (3, 2) :=
  Or.inr (Or.inl (HB.edge (Edge.bar 2 1 3 1 1 true rfl rfl rfl)))

/-- Thread 0's arrival at 1 (before the cut) precedes thread 2's step after the cut. -/
theorem seg_ex_cut : SegHB segAct [0, 1, 2, 3] segC (0, 0) (2, 2) :=
  Or.inr (Or.inr ⟨Or.inl rfl, Or.inr (Or.inr (Or.inl rfl)),
    of_decide_eq_true' rfl, of_decide_eq_true' rfl⟩)

/-- **The conclusion applies**: in every valid history of the example, once thread 3 has
stepped past its arrival at 1, thread 2 has arrived there (`seg_ex_post`), and once thread 2
has done its action after the cut, thread 0's arrival at 1 has happened (`seg_ex_cut`). -/
theorem seg_ex_done (h : List Nat) (hv : Valid segAct segM h) :
    (2 < cnt 3 h → 1 < cnt 2 h) ∧ (2 < cnt 2 h → 0 < cnt 0 h) :=
  ⟨seg_done seg_cutOK seg_segsOK hv seg_ex_post, seg_done seg_cutOK seg_segsOK hv seg_ex_cut⟩

theorem three_in_two {a b : Nat} (h0 : Mem 0 [a, b]) (h1 : Mem 1 [a, b]) (h2 : Mem 2 [a, b]) :
    False := by
  cases h0 with
  | inl e0 =>
    cases h1 with
    | inl e1 => rw [e0] at e1; exact Nat.noConfusion e1
    | inr h1 =>
      cases h1 with
      | inl e1 =>
        cases h2 with
        | inl e2 => rw [e0] at e2; exact Nat.noConfusion e2
        | inr h2 =>
          cases h2 with
          | inl e2 => rw [e1] at e2; exact Nat.noConfusion e2 (fun e => Nat.noConfusion e)
          | inr h2 => exact h2
      | inr h1 => exact h1
  | inr h0 =>
    cases h0 with
    | inl e0 =>
      cases h1 with
      | inl e1 =>
        cases h2 with
        | inl e2 => rw [e1] at e2; exact Nat.noConfusion e2 (fun e => Nat.noConfusion e)
        | inr h2 =>
          cases h2 with
          | inl e2 => rw [e0] at e2; exact Nat.noConfusion e2
          | inr h2 => exact h2
      | inr h1 =>
        cases h1 with
        | inl e1 => rw [e0] at e1; exact Nat.noConfusion e1
        | inr h1 => exact h1
    | inr h0 => exact h0

/-- **One member set per id fails for the example** (so `once_all`, `raceFree_of_ordered` and
`Drain2 S` do not cover it): id 1 joins threads 0, 1 and 2 over the run, but a member set has
`segM 1 = 2` threads. -/
theorem seg_not_single (S : Nat → List Nat) (hM : Memb segAct S) (hSz : Sized segM S) : False := by
  have h0 : Mem 0 (S 1) := hM 0 0 1 true rfl
  have h1 : Mem 1 (S 1) := hM 1 0 1 true rfl
  have h2 : Mem 2 (S 1) := hM 2 1 1 true rfl
  have hl : len (S 1) = 2 := (hSz 1).1
  revert h0 h1 h2 hl
  cases S 1 with
  | nil => intro _ _ _ hl; exact Nat.noConfusion hl
  | cons a r =>
    cases r with
    | nil => intro _ _ _ hl; exact Nat.noConfusion (Nat.succ.inj hl)
    | cons b r =>
      cases r with
      | nil => intro h0 h1 h2 _; exact three_in_two h0 h1 h2
      | cons d r =>
        intro _ _ _ hl
        have e : len r + 1 = 0 := Nat.succ.inj (Nat.succ.inj hl)
        exact Nat.noConfusion e

/-! ## The executor side, segment up to the cut

The executor's history `H1` (latest event first) up to and including the completion of the
whole-CTA instance: every member's events there are its actions up to its cut (`nEv t H1 ≤ c t + 1`,
and `c u < nEv u H1`: the cut arrival is in it), nothing is pending at any id (the Rust's clearing
condition), and check (2) holds with the first members record `S1` (`Drain2 S1 H1`).  Then the
segment up to the cut passes `Memb` with `S1`, and with check (3) evaluated on `H1` for the
segment, `Check3`. -/

section ExecPre

variable {V : Type}

open Race (EventN NotBlocked)

theorem nEv_act_self (t : Nat) (A : Sem.Act V) (h : List (EventN V)) :
    nEv t (EventN.act t A :: h) = nEv t h + 1 := by
  show (if t = t then nEv t h + 1 else nEv t h) = nEv t h + 1
  rw [if_pos' rfl]

theorem nEv_bar_self (t b : Nat) (w : Bool) (h : List (EventN V)) :
    nEv t (EventN.bar t b w :: h) = nEv t h + 1 := by
  show (if t = t then nEv t h + 1 else nEv t h) = nEv t h + 1
  rw [if_pos' rfl]

theorem preF_true {c : Nat → Nat} {t i : Nat} (h : i + 1 ≤ c t + 1) : preF c t i = true :=
  decide_eq_true' (Nat.leOfSuccLeSucc h)

/-- A history whose events are the actions up to the cut follows the segment up to the cut. -/
theorem fromAct_pre {act : Nat → Nat → Ev} {c : Nat → Nat} :
    ∀ (H : List (EventN V)), FromAct act H → (∀ t, nEv t H ≤ c t + 1) →
      FromAct (restr act (preF c)) H
  | [], _, _ => trivial
  | EventN.act t A :: h, hf, hn => by
    have hle : ∀ u, nEv u h ≤ c u + 1 := fun u => Nat.leTrans (nEv_le u _ h) (hn u)
    refine ⟨fromAct_pre h hf.1 hle, ?_⟩
    have ht : nEv t h + 1 ≤ c t + 1 := by rw [← nEv_act_self t A h]; exact hn t
    show cond (preF c t (nEv t h)) (act t (nEv t h)) Ev.loc = Ev.loc
    rw [preF_true ht]
    exact hf.2
  | EventN.bar t b w :: h, hf, hn => by
    have hle : ∀ u, nEv u h ≤ c u + 1 := fun u => Nat.leTrans (nEv_le u _ h) (hn u)
    refine ⟨fromAct_pre h hf.1 hle, ?_⟩
    have ht : nEv t h + 1 ≤ c t + 1 := by rw [← nEv_bar_self t b w h]; exact hn t
    show cond (preF c t (nEv t h)) (act t (nEv t h)) Ev.loc = Ev.arr b w
    rw [preF_true ht]
    exact hf.2
  | EventN.complete b m :: h, hf, hn => fromAct_pre h hf hn

/-- A history holding every member's cut arrival holds every arrival of the segment up to the
cut. -/
theorem covers_pre {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {H : List (EventN V)}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → c u < nEv u H) : Covers (restr act (preF c)) H := by
  intro t i b w ha
  match restr_arr ha with
  | ⟨hf, ha'⟩ =>
    have hle : i ≤ c t := of_decide_eq_true' hf
    exact Nat.ltOfLeOfLt hle (hcut t (hall t i b w ha'))

/-- **Check (2) on the executor's history up to the clearing gives `Memb` of the segment up to
the cut** with the first members record `S1`. -/
theorem memb_pre {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {S1 : Nat → List Nat}
    {H1 : List (EventN V)} (hf : FromAct act H1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → c u < nEv u H1) (hd : Drain2 S1 H1)
    (hend : ∀ b, pendI H1 b = []) : Memb (restr act (preF c)) S1 :=
  memb_of_drain (fromAct_pre H1 hf hn) hd (covers_pre hall hcut) hend

/-- **And check (3) on that history gives `Check3` of the segment up to the cut** (check (3)
evaluated for the segment's sequences on `H1`). -/
theorem check3_pre {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {S1 : Nat → List Nat}
    {N : Nat} {H1 : List (EventN V)} (hf : FromAct act H1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → c u < nEv u H1) (hd : Drain2 S1 H1)
    (hend : ∀ b, pendI H1 b = []) (hw : NotBlocked N H1)
    (hr : RustCheck3 N (restr act (preF c)) H1) : Check3 (restr act (preF c)) :=
  check3_of_members (memb_pre hf hn hall hcut hd hend) (fromAct_pre H1 hf hn) hw hd
    (covers_pre hall hcut) hr

end ExecPre

/-! ## The executor side, segment after the cut (check (2))

The executor's history is `appE H2 H1` (latest first): `H1` up to the completion of the whole-CTA
instance, `H2` after it.  After the clearing the Rust's pending lists are empty (`pendI H1 = []`),
so check (2) with the second members record is evaluated on `H2` alone (the history is
`appE H2 H1`) (`Drain2 S2 H2`, nothing
pending at the end `pendI H2 = []`), over the actions shifted by each thread's count in `H1`
(`shiftA act H1`). -/

section ExecPost

variable {V : Type}

open Race (EventN)

/-- Append, structural. -/
def appE {α : Type} : List α → List α → List α
  | [], l => l
  | x :: r, l => x :: appE r l

/-- Each thread's actions after its events in `H1`. -/
def shiftA (act : Nat → Nat → Ev) (H1 : List (EventN V)) : Nat → Nat → Ev :=
  fun t i => act t (nEv t H1 + i)

theorem nEv_app (t : Nat) (H1 : List (EventN V)) :
    ∀ (H2 : List (EventN V)), nEv t (appE H2 H1) = nEv t H1 + nEv t H2
  | [] => rfl
  | EventN.act u A :: h => by
    show (if u = t then nEv t (appE h H1) + 1 else nEv t (appE h H1)) =
      nEv t H1 + (if u = t then nEv t h + 1 else nEv t h)
    cases Nat.decEq u t with
    | isTrue e => rw [if_pos' e, if_pos' e, nEv_app t H1 h]; rfl
    | isFalse e => rw [if_neg' e, if_neg' e, nEv_app t H1 h]
  | EventN.bar u b w :: h => by
    show (if u = t then nEv t (appE h H1) + 1 else nEv t (appE h H1)) =
      nEv t H1 + (if u = t then nEv t h + 1 else nEv t h)
    cases Nat.decEq u t with
    | isTrue e => rw [if_pos' e, if_pos' e, nEv_app t H1 h]; rfl
    | isFalse e => rw [if_neg' e, if_neg' e, nEv_app t H1 h]
  | EventN.complete b m :: h => nEv_app t H1 h

/-- The events after `H1` follow the shifted actions. -/
theorem fromAct_shift {act : Nat → Nat → Ev} (H1 : List (EventN V)) :
    ∀ (H2 : List (EventN V)), FromAct act (appE H2 H1) → FromAct (shiftA act H1) H2
  | [], _ => trivial
  | EventN.act t A :: h, hf => by
    refine ⟨fromAct_shift H1 h hf.1, ?_⟩
    show act t (nEv t H1 + nEv t h) = Ev.loc
    rw [← nEv_app t H1 h]
    exact hf.2
  | EventN.bar t b w :: h, hf => by
    refine ⟨fromAct_shift H1 h hf.1, ?_⟩
    show act t (nEv t H1 + nEv t h) = Ev.arr b w
    rw [← nEv_app t H1 h]
    exact hf.2
  | EventN.complete b m :: h, hf => fromAct_shift H1 h hf

theorem lt_of_add_lt_left' {k n m : Nat} (h : k + n < k + m) : n < m :=
  match Nat.ltOrGe n m with
  | Or.inl r => r
  | Or.inr r => False.elim (Nat.notSuccLeSelf _ (Nat.leTrans h (Nat.addLeAddLeft r k)))

theorem covers_shift {act : Nat → Nat → Ev} {H1 H2 : List (EventN V)}
    (hcov : Covers act (appE H2 H1)) : Covers (shiftA act H1) H2 := by
  intro t i b w ha
  have r : nEv t H1 + i < nEv t (appE H2 H1) := hcov t (nEv t H1 + i) b w ha
  rw [nEv_app] at r
  exact lt_of_add_lt_left' r

theorem add_sub_of_lt {a i : Nat} (h : a < i) : ∃ d, i = a + 1 + d :=
  match Nat.le.dest h with
  | ⟨d, e⟩ => ⟨d, e.symm⟩

/-- **Check (2) on the executor's history after the clearing gives `Memb` of the segment after
the cut** with the second members record `S2`, when `H1` holds exactly every member's actions
up to its cut. -/
theorem memb_post {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {S2 : Nat → List Nat}
    {H1 H2 : List (EventN V)} (hf : FromAct act (appE H2 H1)) (hcov : Covers act (appE H2 H1))
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hd : Drain2 S2 H2)
    (hend : ∀ b, pendI H2 b = []) : Memb (restr act (postF c)) S2 := by
  have hM : Memb (shiftA act H1) S2 :=
    memb_of_drain (fromAct_shift H1 H2 hf) hd (covers_shift hcov) hend
  intro t i b wt ha
  match restr_arr ha with
  | ⟨hf', ha'⟩ =>
    have hn : ¬ i ≤ c t := by
      intro hle
      have hf2 : (!decide (i ≤ c t)) = true := hf'
      rw [decide_eq_true' hle] at hf2
      exact Bool.noConfusion hf2
    have hlt : c t < i := match Nat.ltOrGe (c t) i with
      | Or.inl h => h
      | Or.inr h => False.elim (hn h)
    match add_sub_of_lt hlt with
    | ⟨d, e⟩ =>
      have hs : shiftA act H1 t d = Ev.arr b wt := by
        show act t (nEv t H1 + d) = Ev.arr b wt
        rw [hcut t (hall t i b wt ha'), ← e]
        exact ha'
      exact hM t d b wt hs

theorem restr_true {act : Nat → Nat → Ev} {f : Nat → Nat → Bool} {t i : Nat} (h : f t i = true) :
    restr act f t i = act t i := by
  show cond (f t i) (act t i) Ev.loc = act t i
  rw [h]; rfl

theorem restr_false {act : Nat → Nat → Ev} {f : Nat → Nat → Bool} {t i : Nat}
    (h : f t i = false) : restr act f t i = Ev.loc := by
  show cond (f t i) (act t i) Ev.loc = Ev.loc
  rw [h]; rfl

theorem postF_after (c : Nat → Nat) (x i : Nat) : postF c x (c x + 1 + i) = true := by
  show (!decide (c x + 1 + i ≤ c x)) = true
  cases hd : decide (c x + 1 + i ≤ c x) with
  | false => rfl
  | true =>
    exact False.elim (Nat.notSuccLeSelf (c x)
      (Nat.leTrans (Nat.leAddRight (c x + 1) i) (of_decide_eq_true' hd)))

theorem postF_before (c : Nat → Nat) {x k : Nat} (h : k ≤ c x) : postF c x k = false := by
  show (!decide (k ≤ c x)) = false
  rw [decide_eq_true' h]; rfl

/-- Up to its cut, a thread has no arrival of the segment after the cut. -/
theorem ac_post_zero (act : Nat → Nat → Ev) (c : Nat → Nat) (b x : Nat) :
    ∀ k, k ≤ c x + 1 → ac (restr act (postF c)) b x k = 0
  | 0, _ => rfl
  | k + 1, hk => by
    show cond (arrAt b (restr act (postF c) x k)) (ac (restr act (postF c)) b x k + 1)
      (ac (restr act (postF c)) b x k) = 0
    rw [restr_false (postF_before c (Nat.leOfSuccLeSucc hk)),
      ac_post_zero act c b x k (Nat.leTrans (Nat.leSucc k) hk)]
    rfl

/-- Arrival numbers of the segment after the cut are those of the shifted actions. -/
theorem ac_post_shift (act : Nat → Nat → Ev) (c : Nat → Nat) (H1 : List (EventN V)) (b x : Nat)
    (hx : nEv x H1 = c x + 1) :
    ∀ i, ac (restr act (postF c)) b x (c x + 1 + i) = ac (shiftA act H1) b x i
  | 0 => ac_post_zero act c b x (c x + 1) (Nat.leRefl _)
  | i + 1 => by
    show cond (arrAt b (restr act (postF c) x (c x + 1 + i)))
        (ac (restr act (postF c)) b x (c x + 1 + i) + 1) (ac (restr act (postF c)) b x (c x + 1 + i)) =
      cond (arrAt b (act x (nEv x H1 + i))) (ac (shiftA act H1) b x i + 1) (ac (shiftA act H1) b x i)
    rw [restr_true (postF_after c x i), hx, ac_post_shift act c H1 b x hx i]

theorem shift_mem {act : Nat → Nat → Ev} {SW : List Nat} {H1 : List (EventN V)} {x i b : Nat}
    {w : Bool} (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (h : shiftA act H1 x i = Ev.arr b w) : Mem x SW :=
  hall x (nEv x H1 + i) b w h

/-- An edge of the shifted actions is an edge of the segment after the cut. -/
theorem edge_shift {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {H1 : List (EventN V)}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) {e1 e2 : Nat × Nat}
    (he : Edge (shiftA act H1) e1 e2) :
    Edge (restr act (postF c)) (e1.1, nEv e1.1 H1 + e1.2) (e2.1, nEv e2.1 H1 + e2.2) := by
  cases he with
  | po t i => exact Edge.po t (nEv t H1 + i)
  | bar x i y j b wx hx hy hac =>
    have nx := hcut x (shift_mem hall hx)
    have ny := hcut y (shift_mem hall hy)
    have hx' : restr act (postF c) x (nEv x H1 + i) = Ev.arr b wx := by
      rw [nx, restr_true (postF_after c x i), ← nx]; exact hx
    have hy' : restr act (postF c) y (nEv y H1 + j) = Ev.arr b true := by
      rw [ny, restr_true (postF_after c y j), ← ny]; exact hy
    have hac' : ac (restr act (postF c)) b x (nEv x H1 + i) =
        ac (restr act (postF c)) b y (nEv y H1 + j) := by
      rw [nx, ny, ac_post_shift act c H1 b x nx, ac_post_shift act c H1 b y ny]; exact hac
    exact Edge.bar x (nEv x H1 + i) y (nEv y H1 + j) b wx hx' hy' hac'

theorem hb_shift {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {H1 : List (EventN V)}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) {e1 e2 : Nat × Nat}
    (hb : HB (shiftA act H1) e1 e2) :
    HB (restr act (postF c)) (e1.1, nEv e1.1 H1 + e1.2) (e2.1, nEv e2.1 H1 + e2.2) := by
  induction hb with
  | edge he => exact HB.edge (edge_shift hall hcut he)
  | step _ he ih => exact HB.step ih (edge_shift hall hcut he)

/-- **Check (3) of the shifted actions gives `Check3` of the segment after the cut.** -/
theorem check3_post {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat}
    {H1 : List (EventN V)} (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (h3 : Check3 (shiftA act H1)) :
    Check3 (restr act (postF c)) := by
  intro t i i' b wt' hi hi' hlt hnext
  match restr_arr hi, restr_arr hi' with
  | ⟨hf, ha⟩, ⟨hf', ha'⟩ =>
    have nt := hcut t (hall t i b false ha)
    have gt : ∀ k, postF c t k = true → c t < k := by
      intro k hk
      cases Nat.ltOrGe (c t) k with
      | inl h => exact h
      | inr h => rw [postF_before c h] at hk; exact Bool.noConfusion hk
    match add_sub_of_lt (gt i hf), add_sub_of_lt (gt i' hf') with
    | ⟨d, e⟩, ⟨d', e'⟩ =>
      have sd : shiftA act H1 t d = Ev.arr b false := by
        show act t (nEv t H1 + d) = Ev.arr b false
        rw [nt, ← e]; exact ha
      have sd' : shiftA act H1 t d' = Ev.arr b wt' := by
        show act t (nEv t H1 + d') = Ev.arr b wt'
        rw [nt, ← e']; exact ha'
      have hlt' : d < d' := by
        rw [e, e'] at hlt
        exact lt_of_add_lt_left' hlt
      have hn' : ac (shiftA act H1) b t d' = ac (shiftA act H1) b t d + 1 := by
        rw [e, e', ac_post_shift act c H1 b t nt, ac_post_shift act c H1 b t nt] at hnext
        exact hnext
      match h3 t d d' b wt' sd sd' hlt' hn' with
      | ⟨y, j, hy, hyk, hhb⟩ =>
        have ny := hcut y (shift_mem hall hy)
        have hy' : restr act (postF c) y (nEv y H1 + j) = Ev.arr b true := by
          rw [ny, restr_true (postF_after c y j), ← ny]; exact hy
        have hk' : ac (restr act (postF c)) b y (nEv y H1 + j) = ac (restr act (postF c)) b t i := by
          rw [ny, e, ac_post_shift act c H1 b y ny, ac_post_shift act c H1 b t nt]; exact hyk
        have hb' := hb_shift hall hcut hhb
        have ei' : nEv t H1 + d' = i' := by rw [nt, e']
        rw [ei'] at hb'
        exact ⟨y, nEv y H1 + j, hy', hk', hb'⟩

end ExecPost

/-! ## Both segments from the executor's checks, and the composed theorem -/

section ExecBoth

variable {V : Type}

open Race (EventN NotBlocked)

theorem fromAct_appE_tail {act : Nat → Nat → Ev} (H1 : List (EventN V)) :
    ∀ (H2 : List (EventN V)), FromAct act (appE H2 H1) → FromAct act H1
  | [], hf => hf
  | e :: h, hf => fromAct_appE_tail H1 h (fromAct_tail e (appE h H1) hf)

/-- **The per-segment hypotheses from the executor's checks on its history split at the
clearing** (`appE H2 H1`, `H1` up to the completion of the whole-CTA instance): `H1` holds each
member's actions up to its cut and no other thread goes past `c t + 1` there, nothing is pending
at the clearing nor at the end, check (2) holds with `S1` on `H1` and with `S2` on `H2`, no
blocked thread steps, and check (3) holds on each part (on `H2` over the actions shifted past the
cut). -/
theorem segs_of_exec {act : Nat → Nat → Ev} {m : Nat → Nat} {c : Nat → Nat} {SW : List Nat}
    {S1 S2 : Nat → List Nat} {N : Nat} {H1 H2 : List (EventN V)}
    (hf : FromAct act (appE H2 H1)) (hcov : Covers act (appE H2 H1))
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = []) (hw1 : NotBlocked N H1)
    (hr1 : RustCheck3 N (restr act (preF c)) H1)
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = []) (hw2 : NotBlocked N H2)
    (hr2 : RustCheck3 N (shiftA act H1) H2) (hSz1 : Sized m S1) (hSz2 : Sized m S2) :
    Segs act m c S1 S2 := by
  have hf1 := fromAct_appE_tail H1 H2 hf
  have hlt : ∀ u, Mem u SW → c u < nEv u H1 := by
    intro u hu; rw [hcut u hu]; exact Nat.ltSuccSelf _
  have hM2 : Memb (shiftA act H1) S2 :=
    memb_of_drain (fromAct_shift H1 H2 hf) hd2 (covers_shift hcov) hend2
  exact ⟨memb_pre hf1 hn hall hlt hd1 hend1, hSz1, check3_pre hf1 hn hall hlt hd1 hend1 hw1 hr1,
    memb_post hf hcov hall hcut hd2 hend2, hSz2,
    check3_post hall hcut (check3_of_members hM2 (fromAct_shift H1 H2 hf) hw2 hd2
      (covers_shift hcov) hr2)⟩

end ExecBoth

section SemExec

variable {V W0 : Type} [Sem.AccAdd V]

open Race (EventN NotBlocked)

/-- **Race freedom across one clearing, from the executor's checks per segment**:
`raceFree_of_segOrdered` with `Segs` given by `segs_of_exec`. -/
theorem raceFree_of_segExec (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    {W k : Nat} {SW : List Nat} {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat}
    {H1 H2 : List (EventN W0)}
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) (C : Cut (soloEv prog regs0 m0) m W k SW c E)
    (hf : FromAct (soloEv prog regs0 m0) (appE H2 H1))
    (hcov : Covers (soloEv prog regs0 m0) (appE H2 H1))
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = []) (hw1 : NotBlocked N H1)
    (hr1 : RustCheck3 N (restr (soloEv prog regs0 m0) (preF c)) H1)
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = []) (hw2 : NotBlocked N H2)
    (hr2 : RustCheck3 N (shiftA (soloEv prog regs0 m0) H1) H2) (hSz1 : Sized m S1)
    (hSz2 : Sized m S2) (hord : SegOrdered prog N regs0 m0 SW c) :
    Sem.RaceFree prog N (Sem.init regs0 m1) :=
  raceFree_of_segOrdered prog N regs0 m0 m1 R m hind hR0 hC C
    (segs_of_exec hf hcov C.hall hcut hn hd1 hend1 hw1 hr1 hd2 hend2 hw2 hr2 hSz1 hSz2) hord

end SemExec

/-! ## Not vacuous, executor side: `segAct`'s run split at the clearing

`segH1` (oldest last): threads 0 and 1 at id 1, its completion, all four at id 0, its
completion (the clearing); `segH2`: threads 2 and 3 at id 1, its completion. -/

section ExecEx

open Race (EventN NotBlocked)

def segH1 : List (EventN Nat) :=
  [EventN.complete 0 4, EventN.bar 3 0 true, EventN.bar 2 0 true, EventN.bar 1 0 true,
   EventN.bar 0 0 true, EventN.complete 1 2, EventN.bar 1 1 true, EventN.bar 0 1 true]

def segH2 : List (EventN Nat) := [EventN.complete 1 2, EventN.bar 3 1 true, EventN.bar 2 1 true]

theorem segH_fromAct : FromAct segAct (appE segH2 segH1) := fromAct_of segAct _ rfl

theorem segH_covers : Covers segAct (appE segH2 segH1) := by
  intro t i b w h
  match t, i, h with
  | 0, 0, _ => exact (by decide : 0 < nEv 0 (appE segH2 segH1))
  | 0, 1, _ => exact (by decide : 1 < nEv 0 (appE segH2 segH1))
  | 1, 0, _ => exact (by decide : 0 < nEv 1 (appE segH2 segH1))
  | 1, 1, _ => exact (by decide : 1 < nEv 1 (appE segH2 segH1))
  | 2, 0, _ => exact (by decide : 0 < nEv 2 (appE segH2 segH1))
  | 2, 1, _ => exact (by decide : 1 < nEv 2 (appE segH2 segH1))
  | 3, 0, _ => exact (by decide : 0 < nEv 3 (appE segH2 segH1))
  | 3, 1, _ => exact (by decide : 1 < nEv 3 (appE segH2 segH1))
  | 0, i + 2, h => exact Ev.noConfusion h
  | 1, i + 2, h => exact Ev.noConfusion h
  | 2, i + 2, h => exact Ev.noConfusion h
  | 3, i + 2, h => exact Ev.noConfusion h
  | t + 4, i, h => exact Ev.noConfusion h

theorem segH1_cut : ∀ u, Mem u [0, 1, 2, 3] → nEv u segH1 = segC u + 1 := by
  intro u hu
  cases hu with
  | inl e => rw [← e]; rfl
  | inr hu =>
    cases hu with
    | inl e => rw [← e]; rfl
    | inr hu =>
      cases hu with
      | inl e => rw [← e]; rfl
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; rfl
        | inr hu => exact False.elim hu

theorem segH1_le : ∀ t, nEv t segH1 ≤ segC t + 1
  | 0 => Nat.leRefl _
  | 1 => Nat.leRefl _
  | 2 => Nat.leRefl _
  | 3 => Nat.leRefl _
  | t + 4 => by
    have e : nEv (t + 4) segH1 = 0 := rfl
    rw [e]; exact Nat.zeroLe _

theorem segH1_end : ∀ b, pendI segH1 b = []
  | 0 => rfl
  | 1 => rfl
  | b + 2 => rfl

theorem segH2_end : ∀ b, pendI segH2 b = []
  | 0 => rfl
  | 1 => rfl
  | b + 2 => rfl

/-- Check (3) is never consulted without `bar.arrive`. -/
theorem rust3_sync {V : Type} {N : Nat} {act : Nat → Nat → Ev} {H : List (EventN V)}
    (hs : ∀ t i b, ¬ act t i = Ev.arr b false) : RustCheck3 N act H :=
  fun t b _ _ _ i _ ha _ => False.elim (hs t i b ha)

theorem seg_nosync_pre : ∀ t i b, ¬ restr segAct (preF segC) t i = Ev.arr b false :=
  fun _ _ _ h => Bool.noConfusion (seg_arr (restr_arr h).2).2

theorem seg_nosync_shift : ∀ t i b, ¬ shiftA segAct segH1 t i = Ev.arr b false :=
  fun _ _ _ h => Bool.noConfusion (seg_arr h).2

/-- **The executor's checks per segment hold for `segAct`'s run and give `Segs`** (id 1 with
members {0, 1} before the clearing, {2, 3} after it). -/
theorem seg_segs_exec : Segs segAct segM segC segS1 segS2 :=
  segs_of_exec (N := 4) segH_fromAct segH_covers (fun u i b wt ha => (seg_arr ha).1) segH1_cut
    segH1_le (drain2_of _ segH1 rfl) segH1_end (notBlocked_of (ids := [0, 1]) segH1 rfl rfl)
    (rust3_sync seg_nosync_pre) (drain2_of _ segH2 rfl) segH2_end
    (notBlocked_of (ids := [1]) segH2 rfl rfl) (rust3_sync seg_nosync_shift) seg_sized1 seg_sized2

end ExecEx

/-! ## Barriers fit across a clearing -/

/-- `SemOnce.two_places` over any per-thread sequences: two threads about to arrive at one id
after a valid history leave two free places there. -/
theorem two_places_act (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) {h : List Nat} (hv : Valid act m h)
    {i j b : Nat} {wa wb : Bool} (hij : ¬ i = j) (hvi : Valid act m (i :: h))
    (hvj : Valid act m (j :: h)) (hei : act i (cnt i h) = Ev.arr b wa)
    (hej : act j (cnt j h) = Ev.arr b wb) :
    len (left (m b) (fun _ => 0) [] (arrs act b h)) + 2 ≤ m b := by
  have hiS : Mem i (S b) := hM i (cnt i h) b wa hei
  have hjS : Mem j (S b) := hM j (cnt j h) b wb hej
  have hsz := hSz b
  have h0 : 0 < m b := by rw [← hsz.1]; exact len_pos hiS
  have hoi : Once (m b) (sn (arrs act b h) i) := by
    have t := once_all act m S hM hSz h3 (i :: h) hvi b
    rw [arrs_same act h hei] at t
    exact t
  have hoj : Once (m b) (sn (arrs act b h) j) := by
    have t := once_all act m S hM hSz h3 (j :: h) hvj b
    rw [arrs_same act h hej] at t
    exact t
  have ho : Once (m b) (arrs act b h) := once_all act m S hM hSz h3 h hv b
  have npi : ¬ Pending i (left (m b) (fun _ => 0) [] (arrs act b h)) := once_sn_np _ _ _ hoi
  have npj : ¬ Pending j (left (m b) (fun _ => 0) [] (arrs act b h)) := once_sn_np _ _ _ hoj
  have hlt : len (left (m b) (fun _ => 0) [] (arrs act b h)) < m b := len_left_lt h0 _ _ _ h0
  cases Nat.decEq (len (left (m b) (fun _ => 0) [] (arrs act b h)) + 1) (m b) with
  | isFalse enf => exact Nat.ltOfLeOfNe hlt enf
  | isTrue efull =>
    apply False.elim
    match pend hsz.1 hsz.2 h0 (only_arrs act S hM b h) ho with
    | ⟨K, _, _, _, hN⟩ =>
      have ci : cnt i (arrs act b h) = K := hN i hiS npi
      have cj : cnt j (arrs act b h) = K := hN j hjS npj
      match left_sn (m b) i (arrs act b h) (fun _ => 0) [] with
      | ⟨x, hx⟩ =>
        have hl0 : left (m b) (fun _ => 0) [] (sn (arrs act b h) i) = [] := by
          rw [hx]
          exact if_pos' efull
        have hw' : ∀ t, Mem t (sn (arrs act b h) i) → Mem t (S b) := by
          have t := only_arrs act S hM b (i :: h)
          rw [arrs_same act h hei] at t
          exact t
        match pend hsz.1 hsz.2 h0 hw' hoi with
        | ⟨K', _, _, _, hN'⟩ =>
          have ci' := hN' i hiS (by rw [hl0]; exact not_pending_nil i)
          have cj' := hN' j hjS (by rw [hl0]; exact not_pending_nil j)
          rw [cnt_sn_eq, ci] at ci'
          rw [cnt_sn_ne hij, cj] at cj'
          rw [← cj'] at ci'
          have e2 : K + 1 ≤ K := by rw [ci']; exact Nat.leRefl K
          exact Nat.notSuccLeSelf K e2

/-- A member that may step past its cut arrival (`t :: h` valid) finds every member's cut
arrival done. -/
theorem past_all {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} (C : Cut act m W k SW c E) {h : List Nat} {t : Nat}
    (hv : Valid act m (t :: h)) (ht : Mem t SW) (hlt : c t < cnt t h) :
    ∀ u, Mem u SW → c u < cnt u h := by
  cases Nat.eqOrLtOfLe hlt with
  | inr hl => exact sep_wait act m C.hW C.hM C.hm C.hS C.hc h hv.1 ht hl
  | inl e =>
    have hcj : cnt t h = c t + 1 := e.symm
    have hact' := (C.hc t ht).1
    have hnp := hv.2 (c t) W hcj hact'
    have hw := only_arrs1 act C.hM h
    have h0m : 0 < m W := by rw [← C.hm]; exact len_pos ht
    have r := all_ge C.hm C.hS h0m hw (once_wait act m C.hW C.hM C.hm C.hS h hv.1) ht hnp
    intro u hu
    have r1 := r u hu
    rw [cnt_arrs act W t h, hcj, ac_arr hact', (C.hc t ht).2, ← (C.hc u hu).2,
      cnt_arrs act W u h] at r1
    exact idx_lt r1

theorem postF_of_lt (c : Nat → Nat) {x k : Nat} (h : c x < k) : postF c x k = true := by
  show (!decide (k ≤ c x)) = true
  cases hd : decide (k ≤ c x) with
  | false => rfl
  | true => exact False.elim (Nat.notSuccLeSelf (c x) (Nat.leTrans h (of_decide_eq_true' hd)))

/-- **Two free places across a clearing**: under `Cut` and `Segs`, two threads about to arrive
at one id after a valid history leave two free places there (both arrivals are in one segment:
`past_all`; that segment's `two_places_act`, the pending arrivals being the segment's). -/
theorem seg_two_places {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat} (C : Cut act m W k SW c E)
    (G : Segs act m c S1 S2) {h : List Nat} (hv : Valid act m h) {i j b : Nat} {wa wb : Bool}
    (hij : ¬ i = j) (hvi : Valid act m (i :: h)) (hvj : Valid act m (j :: h))
    (hei : act i (cnt i h) = Ev.arr b wa) (hej : act j (cnt j h) = Ev.arr b wb) :
    len (left (m b) (fun _ => 0) [] (arrs act b h)) + 2 ≤ m b := by
  have hiS : Mem i SW := C.hall i _ b wa hei
  have hjS : Mem j SW := C.hall j _ b wb hej
  cases Nat.ltOrGe (c i) (cnt i h) with
  | inl hci =>
    have hsep := past_all C hvi hiS hci
    have hcj : c j < cnt j h := hsep j hjS
    have hcnt := pre_counts act b c C.hall C.hEc hsep
    have hl0 : left (m b) (fun _ => 0) [] (arrsF act b (preF c) h) = [] :=
      left_nil_of_cnt hcnt _ _ (C.hE b)
    rw [split act m C.hW C.hM C.hm C.hS C.hc C.hall b h hv, left_app _ _ _ _ _ hl0, len_left]
    have hei' : restr act (postF c) i (cnt i h) = Ev.arr b wa := by
      rw [restr_true (postF_of_lt c hci)]; exact hei
    have hej' : restr act (postF c) j (cnt j h) = Ev.arr b wb := by
      rw [restr_true (postF_of_lt c hcj)]; exact hej
    have r := two_places_act (restr act (postF c)) m S2 G.hM2 G.hSz2 G.h32
      (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) hij
      (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (i :: h) hvi)
      (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (j :: h) hvj) hei' hej'
    rw [arrs_restr, len_left] at r
    exact r
  | inr hci =>
    cases Nat.ltOrGe (c j) (cnt j h) with
    | inl hcj =>
      have r := past_all C hvj hjS hcj i hiS
      exact False.elim (Nat.notSuccLeSelf (c i) (Nat.leTrans r hci))
    | inr hcj =>
      have hpost : arrsF act b (postF c) h = [] := by
        cases hq : arrsF act b (postF c) h with
        | nil => rfl
        | cons u r =>
          have hu : Mem u (arrsF act b (postF c) h) := by rw [hq]; exact Or.inl rfl
          match post_done act b c h hu with
          | ⟨hl', ⟨i', wt, ha⟩⟩ =>
            have hsep := sep_wait act m C.hW C.hM C.hm C.hS C.hc h hv (C.hall u i' b wt ha) hl' i hiS
            exact False.elim (Nat.notSuccLeSelf (c i) (Nat.leTrans hsep hci))
      rw [split act m C.hW C.hM C.hm C.hS C.hc C.hall b h hv, hpost, app_nil]
      have hei' : restr act (preF c) i (cnt i h) = Ev.arr b wa := by
        rw [restr_true (decide_eq_true' hci : preF c i (cnt i h) = true)]; exact hei
      have hej' : restr act (preF c) j (cnt j h) = Ev.arr b wb := by
        rw [restr_true (decide_eq_true' hcj : preF c j (cnt j h) = true)]; exact hej
      have r := two_places_act (restr act (preF c)) m S1 G.hM1 G.hSz1 G.h31
        (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) hij
        (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (i :: h) hvi)
        (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (j :: h) hvj) hei' hej'
      rw [arrs_restr] at r
      exact r

section SemFit

variable {V : Type} [Sem.AccAdd V]

/-- **Barriers fit in every schedule across one clearing** (`barriersFit_of_once` with `Cut` and
`Segs` in place of one member set per id). -/
theorem seg_barriersFit (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    {W k : Nat} {SW : List Nat} {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat}
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (C : Cut (soloEv prog regs0 m0) m W k SW c E) (G : Segs (soloEv prog regs0 m0) m c S1 S2) :
    Sem.BarriersFit prog N (Sem.init regs0 m1) := by
  intro r hr i j hij hi hj hri hrj
  match sched_of_reach prog N hr with
  | ⟨h, hs⟩ =>
    have H := hinv_sched prog N regs0 m0 m1 R m hind hR0 hC hs
    apply barFits_of
    intro b n wa pa n' wb pb hA hB
    have rx := (hinv_common prog N regs0 m0 R m hind hi hri H).2.1
    have ry := (hinv_common prog N regs0 m0 R m hind hj hrj H).2.1
    rw [hA] at rx
    rw [hB] at ry
    have hA0 := Sem.actRel_arrive rx
    have hB0 := Sem.actRel_arrive ry
    have c1 := hC _ _ _ _ _ _ hA0
    have c2 := hC _ _ _ _ _ _ hB0
    have hei : soloEv prog regs0 m0 i (cnt i h) = Ev.arr b wa := by
      show evOf (Sem.soloAct prog regs0 m0 i (cnt i h)) = Ev.arr b wa
      rw [hA0]
      rfl
    have hej : soloEv prog regs0 m0 j (cnt j h) = Ev.arr b wb := by
      show evOf (Sem.soloAct prog regs0 m0 j (cnt j h)) = Ev.arr b wb
      rw [hB0]
      rfl
    refine ⟨Eq.trans c1.1 (Eq.symm c2.1), ?_⟩
    rw [H.2.1 b, c1.1]
    have hvi : Valid (soloEv prog regs0 m0) m (i :: h) := ⟨H.1, (H.2.2 i hi).2.2 hri⟩
    have hvj : Valid (soloEv prog regs0 m0) m (j :: h) := ⟨H.1, (H.2.2 j hj).2.2 hrj⟩
    exact seg_two_places C G H.1 hij hvi hvj hei hej

/-- **Confluence across one clearing**: under the hypotheses of `raceFree_of_segOrdered`, any
two complete executions from the launch end in the same state. -/
theorem seg_confluence (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    {W k : Nat} {SW : List Nat} {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat}
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (C : Cut (soloEv prog regs0 m0) m W k SW c E) (G : Segs (soloEv prog regs0 m0) m c S1 S2)
    (hord : SegOrdered prog N regs0 m0 SW c) {t1 t2 : Sem.CState V}
    (h1 : Sem.Reach prog N (Sem.init regs0 m1) t1) (h2 : Sem.Reach prog N (Sem.init regs0 m1) t2)
    (f1 : Sem.Final N t1) (f2 : Sem.Final N t2) : Sem.Same t1 t2 :=
  Sem.confluence prog N
    (raceFree_of_segOrdered prog N regs0 m0 m1 R m hind hR0 hC C G hord)
    (seg_barriersFit prog N regs0 m0 m1 R m hind hR0 hC C G) h1 h2 f1 f2

end SemFit

/-! ## Progress across a clearing -/

theorem pend_left_mem {m t : Nat} : ∀ (l : List Nat) (c : Nat → Nat) (p : List Arr),
    Pending t (left m c p l) → Pending t p ∨ Mem t l
  | [], _, _, h => Or.inl h
  | u :: l, c, p, h => by
    have h' : Pending t (if len ((u, c u) :: p) = m then left m (upd c u) [] l
        else left m (upd c u) ((u, c u) :: p) l) := h
    cases Nat.decEq (len ((u, c u) :: p)) m with
    | isTrue e =>
      rw [if_pos' e] at h'
      cases pend_left_mem l (upd c u) [] h' with
      | inl hp => exact False.elim (not_pending_nil t hp)
      | inr hm => exact Or.inr (Or.inr hm)
    | isFalse e =>
      rw [if_neg' e] at h'
      cases pend_left_mem l (upd c u) ((u, c u) :: p) h' with
      | inr hm => exact Or.inr (Or.inr hm)
      | inl hp =>
        match hp with
        | ⟨a, ha, hat⟩ =>
          cases ha with
          | inl ea => rw [← ea] at hat; exact Or.inr (Or.inl hat)
          | inr ha' => exact Or.inl ⟨a, ha', hat⟩

/-- Pending at a waiting arrival up to the cut, in the whole program, is pending in the
segment up to the cut. -/
theorem lift_pre {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} (C : Cut act m W k SW c E) {h : List Nat}
    (hv : Valid act m h) {t j b : Nat} (hj : cnt t h = j + 1) (hjc : j ≤ c t)
    (hnp : ¬ Pending t (left (m b) (fun _ => 0) [] (arrsF act b (preF c) h))) :
    ¬ Pending t (left (m b) (fun _ => 0) [] (arrs act b h)) := by
  rw [split act m C.hW C.hM C.hm C.hS C.hc C.hall b h hv]
  cases hq : arrsF act b (postF c) h with
  | nil => rw [app_nil]; exact hnp
  | cons u r =>
    have hu : Mem u (arrsF act b (postF c) h) := by rw [hq]; exact Or.inl rfl
    match post_done act b c h hu with
    | ⟨hl', ⟨i', wt, ha⟩⟩ =>
      have hsep := sep_wait act m C.hW C.hM C.hm C.hS C.hc h hv (C.hall u i' b wt ha) hl'
      have hcnt := pre_counts act b c C.hall C.hEc hsep
      have hl0 : left (m b) (fun _ => 0) [] (arrsF act b (preF c) h) = [] :=
        left_nil_of_cnt hcnt _ _ (C.hE b)
      rw [← hq, left_app _ _ _ _ _ hl0]
      intro hp
      have hp0 : Pending t (left (m b) (fun _ => 0) [] (arrsF act b (postF c) h)) := by
        apply thr_pend
        rw [thr_left (m b) _ _ (ctr (fun _ => 0) (arrsF act b (preF c) h)) [] [] rfl]
        exact pend_thr _ hp
      cases pend_left_mem _ _ _ hp0 with
      | inl hn => exact not_pending_nil t hn
      | inr hm =>
        have r := (post_done act b c h hm).1
        rw [hj] at r
        exact Nat.notSuccLeSelf (c t) (Nat.leTrans (Nat.leOfSuccLeSucc r) hjc)

/-- The same after the cut. -/
theorem lift_post {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} (C : Cut act m W k SW c E) {h : List Nat}
    (hv : Valid act m h) {t j b : Nat} (ht : Mem t SW) (hj : cnt t h = j + 1) (hjc : c t < j)
    (hnp : ¬ Pending t (left (m b) (fun _ => 0) [] (arrsF act b (postF c) h))) :
    ¬ Pending t (left (m b) (fun _ => 0) [] (arrs act b h)) := by
  have hl : c t + 1 < cnt t h := by rw [hj]; exact Nat.succLeSucc hjc
  have hsep := sep_wait act m C.hW C.hM C.hm C.hS C.hc h hv ht hl
  have hcnt := pre_counts act b c C.hall C.hEc hsep
  have hl0 : left (m b) (fun _ => 0) [] (arrsF act b (preF c) h) = [] :=
    left_nil_of_cnt hcnt _ _ (C.hE b)
  rw [split act m C.hW C.hM C.hm C.hS C.hc C.hall b h hv, left_app _ _ _ _ _ hl0]
  intro hp
  apply hnp
  apply thr_pend
  rw [thr_left (m b) _ _ (ctr (fun _ => 0) (arrsF act b (preF c) h)) [] [] rfl]
  exact pend_thr _ hp

/-- `progress`'s core for one program: a thread whose waiting arrival is not pending after a
history `H'` behind `h` (every thread's count in `H'` at most its count in `h`) has it not pending
after `h`. -/
theorem np_ahead (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) {u j b : Nat} {H' h : List Nat}
    (hvu : Valid act m (u :: H')) (hv : Valid act m h) (hle : ∀ s, cnt s H' ≤ cnt s h)
    (he : cnt u H' = cnt u h) (hj : cnt u h = j + 1) (hact : act u j = Ev.arr b true) :
    ¬ Pending u (left (m b) (fun _ => 0) [] (arrs act b h)) := by
  have hoH := once_all act m S hM hSz h3 H' hvu.1
  have hoh := once_all act m S hM hSz h3 h hv
  have hnpH : ¬ Pending u (left (m b) (fun _ => 0) [] (arrs act b H')) :=
    hvu.2 j b (by rw [he]; exact hj) hact
  have huS : Mem u (S b) := hM u j b true hact
  have hsz := hSz b
  have h0 : 0 < m b := by rw [← hsz.1]; exact len_pos huS
  have hge := all_ge hsz.1 hsz.2 h0 (only_arrs act S hM b H') (hoH b) huS hnpH
  have hge' : ∀ s, Mem s (S b) → cnt u (arrs act b h) ≤ cnt s (arrs act b h) := by
    intro s hs'
    have r := hge s hs'
    rw [cnt_arrs act b u H', he, cnt_arrs act b s H', ← cnt_arrs act b u h] at r
    rw [cnt_arrs act b s h]
    exact Nat.leTrans r (ac_mono act b s _ _ (hle s))
  exact not_pend hsz.1 hsz.2 h0 (only_arrs act S hM b h) (hoh b) hge' (Nat.leRefl _)

/-- **Progress across one clearing**: under `Cut` and `Segs`, if some schedule `H` runs every
thread below `N` to its end, then in every valid history in which some thread below `N` is not
done, some thread below `N` that is not done can step. -/
theorem seg_progress {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E0 : List Nat} {S1 S2 : Nat → List Nat} (C : Cut act m W k SW c E0)
    (G : Segs act m c S1 S2) {E : Nat → Nat} {N : Nat} {H : List Nat}
    (hC : Complete act m E N H) (h : List Nat) (hv : Valid act m h) {t0 : Nat} (ht0 : t0 < N)
    (hnd : cnt t0 h < E t0) : ∃ t, t < N ∧ cnt t h < E t ∧ Valid act m (t :: h) := by
  cases first_ahead h H with
  | inl hle =>
    have r := hle t0
    rw [hC.2.2 t0 ht0] at r
    exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe hnd r))
  | inr ex =>
    match ex with
    | ⟨u, H', hs, hle, he⟩ =>
      have hvu : Valid act m (u :: H') := valid_suf H hC.1 hs
      have huN : u < N := hC.2.1.1 u (mem_suf hs (Or.inl rfl))
      have hlt : cnt u h < E u := by
        have c1 : cnt u (u :: H') ≤ cnt u H := cnt_suf u hs
        rw [cnt_self u H', he, hC.2.2 u huN] at c1
        exact c1
      refine ⟨u, huN, hlt, hv, ?_⟩
      intro j b hj hact
      have huSW : Mem u SW := C.hall u j b true hact
      cases Nat.ltOrGe (c u) j with
      | inr hjc =>
        have hactP : restr act (preF c) u j = Ev.arr b true := by
          rw [restr_true (decide_eq_true' hjc : preF c u j = true)]; exact hact
        have r := np_ahead (restr act (preF c)) m S1 G.hM1 G.hSz1 G.h31
          (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (u :: H') hvu)
          (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) hle he hj hactP
        rw [arrs_restr] at r
        exact lift_pre C hv hj hjc r
      | inl hjc =>
        have hactP : restr act (postF c) u j = Ev.arr b true := by
          rw [restr_true (postF_of_lt c hjc)]; exact hact
        have r := np_ahead (restr act (postF c)) m S2 G.hM2 G.hSz2 G.h32
          (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (u :: H') hvu)
          (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) hle he hj hactP
        rw [arrs_restr] at r
        exact lift_post C hv huSW hj hjc r

section SemStuck

variable {V : Type} [Sem.AccAdd V]

/-- **No schedule deadlocks across one clearing**: under data independence, `CountsAt`, `Cut`
and `Segs`, if some schedule `H` of the solo sequences runs every thread below `N` to its end
`E t` (`Complete`), every solo arrival of a thread below `N` comes before its last action
(`j + 1 < E t`) and no exit comes before it (`E t ≤ j + 1`), then every reachable state where no
thread can step has every thread exited. -/
theorem seg_noStuck (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    {W k : Nat} {SW : List Nat} {c : Nat → Nat} {E0 : List Nat} {S1 S2 : Nat → List Nat}
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m)
    (C : Cut (soloEv prog regs0 m0) m W k SW c E0) (G : Segs (soloEv prog regs0 m0) m c S1 S2)
    {E : Nat → Nat} {H : List Nat} (hComp : Complete (soloEv prog regs0 m0) m E N H)
    (hpast : ∀ t j b w, t < N → soloEv prog regs0 m0 t j = Ev.arr b w → j + 1 < E t)
    (hex : ∀ t j, t < N → Sem.soloAct prog regs0 m0 t j = Sem.Act.exit → E t ≤ j + 1) :
    ∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r := by
  intro r hrr hst k0 hk
  match valid_of_reach prog N regs0 m0 m1 R m hind hR0 hC hrr with
  | ⟨h, hs, hv, _, hth⟩ =>
  have norun : ∀ t, t < N → (r.th t).status = Sem.Status.run → False :=
    fun t ht hrun => hst _ ⟨t, ht, hrun, Sem.same_refl _⟩
  cases hk' : (r.th k0).status with
  | exited => rfl
  | run => exact False.elim (norun k0 hk hk')
  | bar b =>
    match (hth k0 hk).2.1 b hk' with
    | ⟨j, hj, ha, _⟩ =>
      have hnd : cnt k0 h < E k0 := by rw [hj]; exact hpast k0 j b true hk ha
      match seg_progress C G hComp h hv hk hnd with
      | ⟨t, ht, hlt, hv'⟩ =>
        cases ht' : (r.th t).status with
        | run => exact False.elim (norun t ht ht')
        | bar b' =>
          match (hth t ht).2.1 b' ht' with
          | ⟨j', hj', ha', hp'⟩ => exact False.elim (hv'.2 j' b' hj' ha' hp')
        | exited =>
          match Race.exited_inv prog N regs0 m0 m1 R m hind hR0 hC hs t ht ht' with
          | ⟨j', hj', hx'⟩ =>
            rw [hj'] at hlt
            exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe hlt (hex t j' ht hx')))

end SemStuck

section SemAll

variable {V : Type} [Sem.AccAdd V]

/-- **The four conclusions across one clearing, from the executor's checks per segment**
(`canonicalN_check_sound`'s (a)-(d) with a clearing): under data independence, `CountsAt`, `Cut`,
the executor's checks (2) and (3) on the history split at the clearing (`segs_of_exec`),
`SegOrdered`, and a complete schedule with ends after every arrival and at the exits: no race,
barriers fit, any two final states the same, no stuck state but final ones. -/
theorem seg_sound (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    {W0 : Type} {W k : Nat} {SW : List Nat} {c : Nat → Nat} {E0 : List Nat}
    {S1 S2 : Nat → List Nat} {H1 H2 : List (Race.EventN W0)}
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) (C : Cut (soloEv prog regs0 m0) m W k SW c E0)
    (hf : FromAct (soloEv prog regs0 m0) (appE H2 H1))
    (hcov : Covers (soloEv prog regs0 m0) (appE H2 H1))
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = []) (hw1 : Race.NotBlocked N H1)
    (hr1 : RustCheck3 N (restr (soloEv prog regs0 m0) (preF c)) H1)
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = []) (hw2 : Race.NotBlocked N H2)
    (hr2 : RustCheck3 N (shiftA (soloEv prog regs0 m0) H1) H2) (hSz1 : Sized m S1)
    (hSz2 : Sized m S2) (hord : SegOrdered prog N regs0 m0 SW c)
    {E : Nat → Nat} {H : List Nat} (hComp : Complete (soloEv prog regs0 m0) m E N H)
    (hpast : ∀ t j b w, t < N → soloEv prog regs0 m0 t j = Ev.arr b w → j + 1 < E t)
    (hex : ∀ t j, t < N → Sem.soloAct prog regs0 m0 t j = Sem.Act.exit → E t ≤ j + 1) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) :=
  have G := segs_of_exec hf hcov C.hall hcut hn hd1 hend1 hw1 hr1 hd2 hend2 hw2 hr2 hSz1 hSz2
  ⟨raceFree_of_segOrdered prog N regs0 m0 m1 R m hind hR0 hC C G hord,
   seg_barriersFit prog N regs0 m0 m1 R m hind hR0 hC C G,
   fun t1 t2 h1 h2 f1 f2 => seg_confluence prog N regs0 m0 m1 R m hind hR0 hC C G hord h1 h2 f1 f2,
   seg_noStuck prog N regs0 m0 m1 R m hind hR0 hC C G hComp hpast hex⟩

end SemAll

/-! ## Several clearings: realized orders compose

`Realized act m Rel`: in every valid history, whatever `Rel`-precedes a happened action happened.
One member set per id realizes `HB` (`realized_hb`); a clearing joins orders realized by its two
segments, with the cut (`realized_cut`); and a realized order that orders every two conflicting
solo actions gives race freedom (`raceFree_of_realized`).  Applied again to a segment program
(`restr act (postF c)` with its own `Cut`), this covers any number of clearings. -/

/-- `Rel` is realized in every schedule. -/
def Realized (act : Nat → Nat → Ev) (m : Nat → Nat) (Rel : Nat × Nat → Nat × Nat → Prop) : Prop :=
  ∀ h, Valid act m h → ∀ e1 e2, Rel e1 e2 → e2.2 < cnt e2.1 h → e1.2 < cnt e1.1 h

/-- The order a clearing adds: up to the cut before after it. -/
def CutRel (SW : List Nat) (c : Nat → Nat) (e1 e2 : Nat × Nat) : Prop :=
  Mem e1.1 SW ∧ Mem e2.1 SW ∧ e1.2 ≤ c e1.1 ∧ c e2.1 < e2.2

theorem realized_hb (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) : Realized act m (HB act) :=
  fun h hv _ _ hb => hb_done act m S hM hSz hv (once_all act m S hM hSz h3 h hv) hb

/-- **A clearing joins the orders realized by its segments.** -/
theorem realized_cut {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} (C : Cut act m W k SW c E)
    {R1 R2 : Nat × Nat → Nat × Nat → Prop}
    (h1 : Realized (restr act (preF c)) m R1) (h2 : Realized (restr act (postF c)) m R2) :
    Realized act m (fun e1 e2 => R1 e1 e2 ∨ R2 e1 e2 ∨ CutRel SW c e1 e2) := by
  intro h hv e1 e2 hs
  cases hs with
  | inl r =>
    exact h1 h (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) e1 e2 r
  | inr hs =>
    cases hs with
    | inl r =>
      exact h2 h (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) e1 e2 r
    | inr hx =>
      intro hl
      have hl' : c e2.1 + 1 < cnt e2.1 h := Nat.ltOfLeOfLt hx.2.2.2 hl
      have r := sep_wait act m C.hW C.hM C.hm C.hS C.hc h hv hx.2.1 hl' e1.1 hx.1
      exact Nat.ltOfLeOfLt hx.2.2.1 r

section SemRealized

variable {V : Type} [Sem.AccAdd V]

/-- **Race freedom from any realized order** that orders every two conflicting solo actions of
different threads below `N`. -/
theorem raceFree_of_realized (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) {Rel : Nat × Nat → Nat × Nat → Prop}
    (hR : Realized (soloEv prog regs0 m0) m Rel)
    (hord : ∀ x y i j, x ≠ y → x < N → y < N →
      Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j) →
      Rel (x, i) (y, j) ∨ Rel (y, j) (x, i)) :
    Sem.RaceFree prog N (Sem.init regs0 m1) := by
  intro r hr i j hij hi hj hri hrj hc
  match sched_of_reach prog N hr with
  | ⟨h, hs⟩ =>
    have H := hinv_sched prog N regs0 m0 m1 R m hind hR0 hC hs
    have rx := Sem.actRel_of_trel prog hind (H.2.2 i hi).1
    have ry := Sem.actRel_of_trel prog hind (H.2.2 j hj).1
    have hc' := Sem.conflict_rel rx ry hc
    have hvi : Valid (soloEv prog regs0 m0) m (i :: h) := ⟨H.1, (H.2.2 i hi).2.2 hri⟩
    have hvj : Valid (soloEv prog regs0 m0) m (j :: h) := ⟨H.1, (H.2.2 j hj).2.2 hrj⟩
    have di : cnt i h < cnt i (i :: h) := by rw [cnt_cons_self]; exact Nat.ltSuccSelf _
    have dj : cnt j h < cnt j (j :: h) := by rw [cnt_cons_self]; exact Nat.ltSuccSelf _
    cases hord i j (cnt i h) (cnt j h) hij hi hj hc' with
    | inl e =>
      have r := hR (j :: h) hvj (i, cnt i h) (j, cnt j h) e dj
      have r' : cnt i h < cnt i (j :: h) := r
      rw [cnt_cons_ne h (fun e' => hij (Eq.symm e'))] at r'
      exact Nat.ltIrrefl _ r'
    | inr e =>
      have r := hR (i :: h) hvi (j, cnt j h) (i, cnt i h) e di
      have r' : cnt j h < cnt j (i :: h) := r
      rw [cnt_cons_ne h hij] at r'
      exact Nat.ltIrrefl _ r'

end SemRealized

/-- The example through the composable form: `realized_cut` of the segments' `realized_hb`. -/
theorem seg_realized : Realized segAct segM (fun e1 e2 =>
    HB (restr segAct (preF segC)) e1 e2 ∨ HB (restr segAct (postF segC)) e1 e2 ∨
      CutRel [0, 1, 2, 3] segC e1 e2) :=
  realized_cut seg_cutOK (realized_hb _ segM segS1 seg_memb1 seg_sized1 seg_segsOK.h31)
    (realized_hb _ segM segS2 seg_memb2 seg_sized2 seg_segsOK.h32)

/-! ## Not vacuous: two clearings

Threads 0 and 1; id 0 joins both (count 2, the whole CTA), id 1 one thread (count 1).
Thread 0: `bar.sync 1, 1; bar.sync 0, 2; bar.sync 0, 2; bar.sync 1, 1`; thread 1:
`bar.sync 0, 2; bar.sync 1, 1; bar.sync 0, 2`.  Id 1 joins {0}, then {1} after the first
whole-CTA instance, then {0} after the second. -/

def twoAct : Nat → Nat → Ev
  | 0, 0 => Ev.arr 1 true
  | 0, 1 => Ev.arr 0 true
  | 0, 2 => Ev.arr 0 true
  | 0, 3 => Ev.arr 1 true
  | 1, 0 => Ev.arr 0 true
  | 1, 1 => Ev.arr 1 true
  | 1, 2 => Ev.arr 0 true
  | _, _ => Ev.loc

def twoM : Nat → Nat
  | 0 => 2
  | _ => 1

def twoC1 : Nat → Nat
  | 0 => 1
  | _ => 0

def twoC2 : Nat → Nat
  | _ => 2

def twoSA : Nat → List Nat
  | 0 => [0, 1]
  | _ => [0]

def twoSB : Nat → List Nat
  | 0 => [0, 1]
  | _ => [1]

def twoE : List Nat := [0, 1, 0, 1, 1, 0, 0]

theorem two_arr {t i b : Nat} {wt : Bool} (h : twoAct t i = Ev.arr b wt) :
    Mem t [0, 1] ∧ wt = true := by
  match t, i, h with
  | 0, 0, h => exact ⟨Or.inl rfl, (arr_w h).symm⟩
  | 0, 1, h => exact ⟨Or.inl rfl, (arr_w h).symm⟩
  | 0, 2, h => exact ⟨Or.inl rfl, (arr_w h).symm⟩
  | 0, 3, h => exact ⟨Or.inl rfl, (arr_w h).symm⟩
  | 1, 0, h => exact ⟨Or.inr (Or.inl rfl), (arr_w h).symm⟩
  | 1, 1, h => exact ⟨Or.inr (Or.inl rfl), (arr_w h).symm⟩
  | 1, 2, h => exact ⟨Or.inr (Or.inl rfl), (arr_w h).symm⟩
  | 0, i + 4, h => exact Ev.noConfusion h
  | 1, i + 3, h => exact Ev.noConfusion h
  | t + 2, i, h => exact Ev.noConfusion h

theorem two_nodup2 : Nodup [0, 1] := nodup_of_nodupB _ rfl

theorem two_nodup1 (x : Nat) : Nodup [x] := ⟨fun h => h, trivial⟩

theorem two_sizedA : Sized twoM twoSA
  | 0 => ⟨rfl, two_nodup2⟩
  | b + 1 => ⟨rfl, two_nodup1 0⟩

theorem two_sizedB : Sized twoM twoSB
  | 0 => ⟨rfl, two_nodup2⟩
  | b + 1 => ⟨rfl, two_nodup1 1⟩

theorem mem_at {act : Nat → Nat → Ev} {S : Nat → List Nat} {t i b b0 : Nat} {wt w0 : Bool}
    (h : act t i = Ev.arr b wt) (e : act t i = Ev.arr b0 w0) (hm : Mem t (S b0)) : Mem t (S b) := by
  rw [e] at h
  rw [← arr_b h]
  exact hm

theorem two_cut1 : Cut twoAct twoM 0 0 [0, 1] twoC1 twoE :=
  ⟨fun t i wt ha => (two_arr ha).2, fun t i wt ha => (two_arr ha).1, rfl, two_nodup2,
    fun u hu => by
      cases hu with
      | inl e => rw [← e]; exact ⟨rfl, rfl⟩
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; exact ⟨rfl, rfl⟩
        | inr hu => exact False.elim hu,
    fun u i b wt ha => (two_arr ha).1,
    fun b => match b with
      | 0 => rfl
      | 1 => rfl
      | b + 2 => rfl,
    fun u hu => by
      cases hu with
      | inl e => rw [← e]; exact of_decide_eq_true' rfl
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; exact of_decide_eq_true' rfl
        | inr hu => exact False.elim hu⟩

theorem two_arrP {t i b : Nat} {wt : Bool} (h : restr twoAct (postF twoC1) t i = Ev.arr b wt) :
    Mem t [0, 1] ∧ wt = true :=
  two_arr (restr_arr h).2

theorem two_cut2 : Cut (restr twoAct (postF twoC1)) twoM 0 0 [0, 1] twoC2 twoE :=
  ⟨fun t i wt ha => (two_arrP ha).2, fun t i wt ha => (two_arrP ha).1, rfl, two_nodup2,
    fun u hu => by
      cases hu with
      | inl e => rw [← e]; exact ⟨rfl, rfl⟩
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; exact ⟨rfl, rfl⟩
        | inr hu => exact False.elim hu,
    fun u i b wt ha => (two_arrP ha).1,
    fun b => match b with
      | 0 => rfl
      | 1 => rfl
      | b + 2 => rfl,
    fun u hu => by
      cases hu with
      | inl e => rw [← e]; exact of_decide_eq_true' rfl
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; exact of_decide_eq_true' rfl
        | inr hu => exact False.elim hu⟩

theorem two_membA : Memb (restr twoAct (preF twoC1)) twoSA := by
  intro t i b wt h
  match restr_arr h with
  | ⟨hf, ha⟩ =>
    match t, i, hf, ha with
    | 0, 0, _, ha => exact mem_at ha rfl (Or.inl rfl)
    | 0, 1, _, ha => exact mem_at ha rfl (Or.inl rfl)
    | 0, 2, hf, _ => exact Bool.noConfusion hf
    | 0, 3, hf, _ => exact Bool.noConfusion hf
    | 1, 0, _, ha => exact mem_at ha rfl (Or.inr (Or.inl rfl))
    | 1, 1, hf, _ => exact Bool.noConfusion hf
    | 1, 2, hf, _ => exact Bool.noConfusion hf
    | 0, i + 4, _, ha => exact Ev.noConfusion ha
    | 1, i + 3, _, ha => exact Ev.noConfusion ha
    | t + 2, i, _, ha => exact Ev.noConfusion ha

theorem two_membB : Memb (restr (restr twoAct (postF twoC1)) (preF twoC2)) twoSB := by
  intro t i b wt h
  match restr_arr h with
  | ⟨hf2, h1⟩ =>
    match restr_arr h1 with
    | ⟨hf, ha⟩ =>
      match t, i, hf, hf2, ha with
      | 0, 0, hf, _, _ => exact Bool.noConfusion hf
      | 0, 1, hf, _, _ => exact Bool.noConfusion hf
      | 0, 2, _, _, ha => exact mem_at ha rfl (Or.inl rfl)
      | 0, 3, _, hf2, _ => exact Bool.noConfusion hf2
      | 1, 0, hf, _, _ => exact Bool.noConfusion hf
      | 1, 1, _, _, ha => exact mem_at ha rfl (Or.inl rfl)
      | 1, 2, _, _, ha => exact mem_at ha rfl (Or.inr (Or.inl rfl))
      | 0, i + 4, _, _, ha => exact Ev.noConfusion ha
      | 1, i + 3, _, _, ha => exact Ev.noConfusion ha
      | t + 2, i, _, _, ha => exact Ev.noConfusion ha

theorem two_membC : Memb (restr (restr twoAct (postF twoC1)) (postF twoC2)) twoSA := by
  intro t i b wt h
  match restr_arr h with
  | ⟨hf2, h1⟩ =>
    match restr_arr h1 with
    | ⟨hf, ha⟩ =>
      match t, i, hf, hf2, ha with
      | 0, 0, hf, _, _ => exact Bool.noConfusion hf
      | 0, 1, hf, _, _ => exact Bool.noConfusion hf
      | 0, 2, _, hf2, _ => exact Bool.noConfusion hf2
      | 0, 3, _, _, ha => exact mem_at ha rfl (Or.inl rfl)
      | 1, 0, hf, _, _ => exact Bool.noConfusion hf
      | 1, 1, _, hf2, _ => exact Bool.noConfusion hf2
      | 1, 2, _, hf2, _ => exact Bool.noConfusion hf2
      | 0, i + 4, _, _, ha => exact Ev.noConfusion ha
      | 1, i + 3, _, _, ha => exact Ev.noConfusion ha
      | t + 2, i, _, _, ha => exact Ev.noConfusion ha

theorem two_wait {act : Nat → Nat → Ev} (hs : ∀ t i b wt, act t i = Ev.arr b wt → wt = true)
    (f : Nat → Nat → Bool) : ∀ t i b wt, restr act f t i = Ev.arr b wt → wt = true :=
  fun t i b wt h => hs t i b wt (restr_arr h).2

/-- **Two clearings, composed**: the order joined from the three segments' `HB` and the two
cuts is realized in every schedule of `twoAct`. -/
theorem two_realized : Realized twoAct twoM (fun e1 e2 =>
    HB (restr twoAct (preF twoC1)) e1 e2 ∨
    (HB (restr (restr twoAct (postF twoC1)) (preF twoC2)) e1 e2 ∨
      HB (restr (restr twoAct (postF twoC1)) (postF twoC2)) e1 e2 ∨
      CutRel [0, 1] twoC2 e1 e2) ∨
    CutRel [0, 1] twoC1 e1 e2) :=
  have hs : ∀ t i b wt, twoAct t i = Ev.arr b wt → wt = true := fun t i b wt ha => (two_arr ha).2
  realized_cut two_cut1
    (realized_hb _ twoM twoSA two_membA two_sizedA (check3_restr hs _))
    (realized_cut two_cut2
      (realized_hb _ twoM twoSB two_membB two_sizedB (check3_restr (two_wait hs _) _))
      (realized_hb _ twoM twoSA two_membC two_sizedA (check3_restr (two_wait hs _) _)))

/-- One member set per id fails: id 1 joins threads 0 and 1 over the run, a member set has 1. -/
theorem two_not_single (S : Nat → List Nat) (hM : Memb twoAct S) (hSz : Sized twoM S) : False := by
  have h0 : Mem 0 (S 1) := hM 0 0 1 true rfl
  have h1 : Mem 1 (S 1) := hM 1 1 1 true rfl
  have hl : len (S 1) = 1 := (hSz 1).1
  revert h0 h1 hl
  cases S 1 with
  | nil => intro _ _ hl; exact Nat.noConfusion hl
  | cons a r =>
    cases r with
    | nil =>
      intro h0 h1 _
      cases h0 with
      | inl e0 =>
        cases h1 with
        | inl e1 => rw [e0] at e1; exact Nat.noConfusion e1
        | inr h1 => exact h1
      | inr h0 => exact h0
    | cons d r =>
      intro _ _ hl
      exact Nat.noConfusion (Nat.succ.inj hl)

/-! ## Several clearings: barriers fit -/

/-- Two threads about to arrive at one id after a valid history leave two free places. -/
def Fits (act : Nat → Nat → Ev) (m : Nat → Nat) : Prop :=
  ∀ h, Valid act m h → ∀ i j b wa wb, ¬ i = j → Valid act m (i :: h) → Valid act m (j :: h) →
    act i (cnt i h) = Ev.arr b wa → act j (cnt j h) = Ev.arr b wb →
    len (left (m b) (fun _ => 0) [] (arrs act b h)) + 2 ≤ m b

theorem fits_once (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) : Fits act m :=
  fun _ hv _ _ _ _ _ hij hvi hvj hei hej => two_places_act act m S hM hSz h3 hv hij hvi hvj hei hej

/-- **A clearing joins its segments' `Fits`.** -/
theorem fits_cut {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} (C : Cut act m W k SW c E)
    (F1 : Fits (restr act (preF c)) m) (F2 : Fits (restr act (postF c)) m) : Fits act m := by
  intro h hv i j b wa wb hij hvi hvj hei hej
  have hiS : Mem i SW := C.hall i _ b wa hei
  have hjS : Mem j SW := C.hall j _ b wb hej
  cases Nat.ltOrGe (c i) (cnt i h) with
  | inl hci =>
    have hsep := past_all C hvi hiS hci
    have hcj : c j < cnt j h := hsep j hjS
    have hcnt := pre_counts act b c C.hall C.hEc hsep
    have hl0 : left (m b) (fun _ => 0) [] (arrsF act b (preF c) h) = [] :=
      left_nil_of_cnt hcnt _ _ (C.hE b)
    rw [split act m C.hW C.hM C.hm C.hS C.hc C.hall b h hv, left_app _ _ _ _ _ hl0, len_left]
    have hei' : restr act (postF c) i (cnt i h) = Ev.arr b wa := by
      rw [restr_true (postF_of_lt c hci)]; exact hei
    have hej' : restr act (postF c) j (cnt j h) = Ev.arr b wb := by
      rw [restr_true (postF_of_lt c hcj)]; exact hej
    have r := F2 h (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) i j b wa wb
      hij (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (i :: h) hvi)
      (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (j :: h) hvj) hei' hej'
    rw [arrs_restr, len_left] at r
    exact r
  | inr hci =>
    cases Nat.ltOrGe (c j) (cnt j h) with
    | inl hcj =>
      have r := past_all C hvj hjS hcj i hiS
      exact False.elim (Nat.notSuccLeSelf (c i) (Nat.leTrans r hci))
    | inr hcj =>
      have hpost : arrsF act b (postF c) h = [] := by
        cases hq : arrsF act b (postF c) h with
        | nil => rfl
        | cons u r =>
          have hu : Mem u (arrsF act b (postF c) h) := by rw [hq]; exact Or.inl rfl
          match post_done act b c h hu with
          | ⟨hl', ⟨i', wt, ha⟩⟩ =>
            have hsep := sep_wait act m C.hW C.hM C.hm C.hS C.hc h hv (C.hall u i' b wt ha) hl' i hiS
            exact False.elim (Nat.notSuccLeSelf (c i) (Nat.leTrans hsep hci))
      rw [split act m C.hW C.hM C.hm C.hS C.hc C.hall b h hv, hpost, app_nil]
      have hei' : restr act (preF c) i (cnt i h) = Ev.arr b wa := by
        rw [restr_true (decide_eq_true' hci : preF c i (cnt i h) = true)]; exact hei
      have hej' : restr act (preF c) j (cnt j h) = Ev.arr b wb := by
        rw [restr_true (decide_eq_true' hcj : preF c j (cnt j h) = true)]; exact hej
      have r := F1 h (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) i j b wa wb
        hij (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (i :: h) hvi)
        (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (j :: h) hvj) hei' hej'
      rw [arrs_restr] at r
      exact r

section SemFits

variable {V : Type} [Sem.AccAdd V]

/-- **Barriers fit in every schedule from `Fits` of the solo sequences** (any number of
clearings through `fits_cut`). -/
theorem barriersFit_of_fits (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) (hF : Fits (soloEv prog regs0 m0) m) :
    Sem.BarriersFit prog N (Sem.init regs0 m1) := by
  intro r hr i j hij hi hj hri hrj
  match sched_of_reach prog N hr with
  | ⟨h, hs⟩ =>
    have H := hinv_sched prog N regs0 m0 m1 R m hind hR0 hC hs
    apply barFits_of
    intro b n wa pa n' wb pb hA hB
    have rx := (hinv_common prog N regs0 m0 R m hind hi hri H).2.1
    have ry := (hinv_common prog N regs0 m0 R m hind hj hrj H).2.1
    rw [hA] at rx
    rw [hB] at ry
    have hA0 := Sem.actRel_arrive rx
    have hB0 := Sem.actRel_arrive ry
    have c1 := hC _ _ _ _ _ _ hA0
    have c2 := hC _ _ _ _ _ _ hB0
    have hei : soloEv prog regs0 m0 i (cnt i h) = Ev.arr b wa := by
      show evOf (Sem.soloAct prog regs0 m0 i (cnt i h)) = Ev.arr b wa
      rw [hA0]
      rfl
    have hej : soloEv prog regs0 m0 j (cnt j h) = Ev.arr b wb := by
      show evOf (Sem.soloAct prog regs0 m0 j (cnt j h)) = Ev.arr b wb
      rw [hB0]
      rfl
    refine ⟨Eq.trans c1.1 (Eq.symm c2.1), ?_⟩
    rw [H.2.1 b, c1.1]
    have hvi : Valid (soloEv prog regs0 m0) m (i :: h) := ⟨H.1, (H.2.2 i hi).2.2 hri⟩
    have hvj : Valid (soloEv prog regs0 m0) m (j :: h) := ⟨H.1, (H.2.2 j hj).2.2 hrj⟩
    exact hF h H.1 i j b wa wb hij hvi hvj hei hej

end SemFits

/-- The two-clearing example fits. -/
theorem two_fits : Fits twoAct twoM :=
  have hs : ∀ t i b wt, twoAct t i = Ev.arr b wt → wt = true := fun t i b wt ha => (two_arr ha).2
  fits_cut two_cut1 (fits_once _ twoM twoSA two_membA two_sizedA (check3_restr hs _))
    (fits_cut two_cut2
      (fits_once _ twoM twoSB two_membB two_sizedB (check3_restr (two_wait hs _) _))
      (fits_once _ twoM twoSA two_membC two_sizedA (check3_restr (two_wait hs _) _)))

/-! ## Several clearings: progress and no deadlock -/

/-- `progress`'s core: a waiting arrival not pending after a history behind `h` is not pending
after `h`. -/
def NpAhead (act : Nat → Nat → Ev) (m : Nat → Nat) : Prop :=
  ∀ u j b H' h, Valid act m (u :: H') → Valid act m h → (∀ s, cnt s H' ≤ cnt s h) →
    cnt u H' = cnt u h → cnt u h = j + 1 → act u j = Ev.arr b true →
    ¬ Pending u (left (m b) (fun _ => 0) [] (arrs act b h))

theorem np_once (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) : NpAhead act m :=
  fun _ _ _ _ _ hvu hv hle he hj hact => np_ahead act m S hM hSz h3 hvu hv hle he hj hact

/-- **A clearing joins its segments' `NpAhead`.** -/
theorem np_cut {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} (C : Cut act m W k SW c E)
    (N1 : NpAhead (restr act (preF c)) m) (N2 : NpAhead (restr act (postF c)) m) :
    NpAhead act m := by
  intro u j b H' h hvu hv hle he hj hact
  have huSW : Mem u SW := C.hall u j b true hact
  cases Nat.ltOrGe (c u) j with
  | inr hjc =>
    have hactP : restr act (preF c) u j = Ev.arr b true := by
      rw [restr_true (decide_eq_true' hjc : preF c u j = true)]; exact hact
    have r := N1 u j b H' h
      (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (u :: H') hvu)
      (valid_pre act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) hle he hj hactP
    rw [arrs_restr] at r
    exact lift_pre C hv hj hjc r
  | inl hjc =>
    have hactP : restr act (postF c) u j = Ev.arr b true := by
      rw [restr_true (postF_of_lt c hjc)]; exact hact
    have r := N2 u j b H' h
      (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc (u :: H') hvu)
      (valid_post act m C.hW C.hM C.hm C.hS C.hc C.hall C.hE C.hEc h hv) hle he hj hactP
    rw [arrs_restr] at r
    exact lift_post C hv huSW hj hjc r

/-- **Progress from `NpAhead`** (any number of clearings through `np_cut`). -/
theorem progress_of_np {act : Nat → Nat → Ev} {m : Nat → Nat} (hN : NpAhead act m)
    {E : Nat → Nat} {N : Nat} {H : List Nat} (hC : Complete act m E N H) (h : List Nat)
    (hv : Valid act m h) {t0 : Nat} (ht0 : t0 < N) (hnd : cnt t0 h < E t0) :
    ∃ t, t < N ∧ cnt t h < E t ∧ Valid act m (t :: h) := by
  cases first_ahead h H with
  | inl hle =>
    have r := hle t0
    rw [hC.2.2 t0 ht0] at r
    exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe hnd r))
  | inr ex =>
    match ex with
    | ⟨u, H', hs, hle, he⟩ =>
      have hvu : Valid act m (u :: H') := valid_suf H hC.1 hs
      have huN : u < N := hC.2.1.1 u (mem_suf hs (Or.inl rfl))
      have hlt : cnt u h < E u := by
        have c1 : cnt u (u :: H') ≤ cnt u H := cnt_suf u hs
        rw [cnt_self u H', he, hC.2.2 u huN] at c1
        exact c1
      exact ⟨u, huN, hlt, hv, fun j b hj hact => hN u j b H' h hvu hv hle he hj hact⟩

section SemNp

variable {V : Type} [Sem.AccAdd V]

/-- **No schedule deadlocks, from `NpAhead` of the solo sequences** and a complete schedule
(`seg_noStuck` for any number of clearings). -/
theorem noStuck_of_np (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) (hN : NpAhead (soloEv prog regs0 m0) m)
    {E : Nat → Nat} {H : List Nat} (hComp : Complete (soloEv prog regs0 m0) m E N H)
    (hpast : ∀ t j b w, t < N → soloEv prog regs0 m0 t j = Ev.arr b w → j + 1 < E t)
    (hex : ∀ t j, t < N → Sem.soloAct prog regs0 m0 t j = Sem.Act.exit → E t ≤ j + 1) :
    ∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r := by
  intro r hrr hst k0 hk
  match valid_of_reach prog N regs0 m0 m1 R m hind hR0 hC hrr with
  | ⟨h, hs, hv, _, hth⟩ =>
  have norun : ∀ t, t < N → (r.th t).status = Sem.Status.run → False :=
    fun t ht hrun => hst _ ⟨t, ht, hrun, Sem.same_refl _⟩
  cases hk' : (r.th k0).status with
  | exited => rfl
  | run => exact False.elim (norun k0 hk hk')
  | bar b =>
    match (hth k0 hk).2.1 b hk' with
    | ⟨j, hj, ha, _⟩ =>
      have hnd : cnt k0 h < E k0 := by rw [hj]; exact hpast k0 j b true hk ha
      match progress_of_np hN hComp h hv hk hnd with
      | ⟨t, ht, hlt, hv'⟩ =>
        cases ht' : (r.th t).status with
        | run => exact False.elim (norun t ht ht')
        | bar b' =>
          match (hth t ht).2.1 b' ht' with
          | ⟨j', hj', ha', hp'⟩ => exact False.elim (hv'.2 j' b' hj' ha' hp')
        | exited =>
          match Race.exited_inv prog N regs0 m0 m1 R m hind hR0 hC hs t ht ht' with
          | ⟨j', hj', hx'⟩ =>
            rw [hj'] at hlt
            exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe hlt (hex t j' ht hx')))

end SemNp

/-- The two-clearing example has `NpAhead`. -/
theorem two_np : NpAhead twoAct twoM :=
  have hs : ∀ t i b wt, twoAct t i = Ev.arr b wt → wt = true := fun t i b wt ha => (two_arr ha).2
  np_cut two_cut1 (np_once _ twoM twoSA two_membA two_sizedA (check3_restr hs _))
    (np_cut two_cut2
      (np_once _ twoM twoSB two_membB two_sizedB (check3_restr (two_wait hs _) _))
      (np_once _ twoM twoSA two_membC two_sizedA (check3_restr (two_wait hs _) _)))

section SemConf

variable {V : Type} [Sem.AccAdd V]

/-- **Confluence from a realized order and `Fits`** (any number of clearings). -/
theorem confluence_of_realized (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) {Rel : Nat × Nat → Nat × Nat → Prop}
    (hR : Realized (soloEv prog regs0 m0) m Rel)
    (hord : ∀ x y i j, x ≠ y → x < N → y < N →
      Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j) →
      Rel (x, i) (y, j) ∨ Rel (y, j) (x, i))
    (hF : Fits (soloEv prog regs0 m0) m) {t1 t2 : Sem.CState V}
    (h1 : Sem.Reach prog N (Sem.init regs0 m1) t1) (h2 : Sem.Reach prog N (Sem.init regs0 m1) t2)
    (f1 : Sem.Final N t1) (f2 : Sem.Final N t2) : Sem.Same t1 t2 :=
  Sem.confluence prog N
    (raceFree_of_realized prog N regs0 m0 m1 R m hind hR0 hC hR hord)
    (barriersFit_of_fits prog N regs0 m0 m1 R m hind hR0 hC hF) h1 h2 f1 f2

end SemConf

end Members
end Kcert
