import Kcert.CheckSegs

/-!
# Named barriers across several clearings, executor side

`SegClocks.lean` derives the ordering of conflicting solo actions from the executor's run split
at ONE clearing (`appE H2 H1`).  The Rust (`resolve_barriers`) may clear its members record at
every whole-CTA instance where every thread waits with nothing pending, any number of times.
Here the run is a list of parts, latest first as the history is (`joinE`), each part checked on
its own (check (2): `KthInst` of the actions shifted past the earlier parts) with nothing
pending at each split (`ManyOK`).  The edges of all the parts, mapped to indices of the whole
run (`PartE`), join every completion of the run (`kthE_many`, by induction on the number of
parts with `kthE_appG`, the generic form of `kthE_post`), so the race check over the whole
history orders every two conflicting solo actions by chains of part edges (`canonN_manyOrdered`).
A realized order is closed under chains (`realized_tc`), so race freedom follows from the
executor's run as soon as every part edge is realized (`canonicalN_many_raceFree`).
-/

namespace Kcert
namespace Members

open Race (EventN NotBlocked In)

section Many

variable {V : Type}

/-- The whole history from its parts, latest first. -/
def joinE : List (List (EventN V)) → List (EventN V)
  | [] => []
  | H :: Hs => appE H (joinE Hs)

/-- The edges of the parts: program order, and each part's edges of the actions shifted past
the earlier parts, between actions the part performs (source performed in the part, target at
most one past its last action in the part), mapped to indices of the whole run. -/
def PartE (act : Nat → Nat → Ev) : List (List (EventN V)) → Nat × Nat → Nat × Nat → Prop
  | [], p, q => p.1 = q.1 ∧ q.2 = p.2 + 1
  | H :: Hs, p, q => PartE act Hs p q ∨ ∃ q1 q2 p1 p2, q2 < nEv q1 H ∧ p2 ≤ nEv p1 H ∧
      Edge (shiftA act (joinE Hs)) (q1, q2) (p1, p2) ∧
        p = (q1, nEv q1 (joinE Hs) + q2) ∧ q = (p1, nEv p1 (joinE Hs) + p2)

/-- The executor's conditions on the parts: before each part nothing is pending, and each part
satisfies check (2)'s `KthInst` for the actions shifted past the earlier parts. -/
def ManyOK (act : Nat → Nat → Ev) : List (List (EventN V)) → Prop
  | [] => True
  | H :: Hs => ManyOK act Hs ∧ (∀ b, pendI (joinE Hs) b = []) ∧ KthInst (shiftA act (joinE Hs)) H

theorem partE_po (act : Nat → Nat → Ev) : ∀ (Hs : List (List (EventN V))) (t i : Nat),
    PartE act Hs (t, i) (t, i + 1)
  | [], t, i => ⟨rfl, rfl⟩
  | H :: Hs, t, i => Or.inl (partE_po act Hs t i)

theorem kthE_mono {act : Nat → Nat → Ev} {E E' : Nat × Nat → Nat × Nat → Prop}
    (hEE : ∀ p q, E p q → E' p q) : ∀ (h : List (EventN V)), KthE act E h → KthE act E' h
  | [], _ => trivial
  | EventN.act _ _ :: h, hk => kthE_mono hEE h hk
  | EventN.bar _ _ _ :: h, hk => kthE_mono hEE h hk
  | EventN.complete b m :: h, hk =>
    ⟨kthE_mono hEE h hk.1, fun p q hp hq w aq ap lq lp => hEE _ _ (hk.2 p q hp hq w aq ap lq lp)⟩

/-- **A part after a clearing with nothing pending**, for any edge relation `E` that holds the
part's edges mapped to indices of the whole run (`kthE_post` for any `E`). -/
theorem kthE_appG {act : Nat → Nat → Ev} {E : Nat × Nat → Nat × Nat → Prop}
    {H1 : List (EventN V)} (hend : ∀ b, pendI H1 b = []) {lim : Nat → Nat}
    (hmap : ∀ q1 q2 p1 p2, q2 < lim q1 → p2 ≤ lim p1 → Edge (shiftA act H1) (q1, q2) (p1, p2) →
      E (q1, nEv q1 H1 + q2) (p1, nEv p1 H1 + p2))
    (h1 : KthE act E H1) :
    ∀ (H2 : List (EventN V)), (∀ t, nEv t H2 ≤ lim t) → KthInst (shiftA act H1) H2 →
      KthE act E (appE H2 H1)
  | [], _, _ => h1
  | EventN.act t A :: h, hl, hk =>
    kthE_appG hend hmap h1 h (fun u => Nat.leTrans (nEv_le u _ h) (hl u)) hk
  | EventN.bar t b w :: h, hl, hk =>
    kthE_appG hend hmap h1 h (fun u => Nat.leTrans (nEv_le u _ h) (hl u)) hk
  | EventN.complete b m :: h, hl, hk => by
    have hl' : ∀ u, nEv u h ≤ lim u := fun u => Nat.leTrans (nEv_le u _ h) (hl u)
    refine ⟨kthE_appG hend hmap h1 h hl' hk.1, ?_⟩
    intro p q hp hq w aq ap _ _
    rw [pendI_app hend h b, ← shL_take] at hp
    rw [pendI_app hend h b, ← shL_take] at hq
    match in_shL hp, in_shL hq with
    | ⟨(p1, p2), hp', ep⟩, ⟨(q1, q2), hq', eq⟩ =>
      rw [ep] at ap
      rw [eq] at aq
      rw [ep, eq]
      have aq' : shiftA act H1 q1 q2 = Ev.arr b w := aq
      have ap' : shiftA act H1 p1 p2 = Ev.arr b true := ap
      have lq : q2 < nEv q1 h := pendI_lt h b (q1, q2) (Race.in_takeL m hq')
      have lp : p2 < nEv p1 h := pendI_lt h b (p1, p2) (Race.in_takeL m hp')
      exact hmap q1 q2 p1 (p2 + 1) (Nat.ltOfLtOfLe lq (hl' q1)) (Nat.leTrans lp (hl' p1))
        (Edge.bar q1 q2 p1 p2 b w aq' ap' (hk.2 (q1, q2) (p1, p2) hq' hp'))

/-- **Every completion of a run split into any number of parts joins its drained arrivals by
part edges.** -/
theorem kthE_many {act : Nat → Nat → Ev} : ∀ (Hs : List (List (EventN V))),
    ManyOK act Hs → KthE act (PartE act Hs) (joinE Hs)
  | [], _ => trivial
  | H :: Hs, hok =>
    kthE_appG hok.2.1 (lim := fun t => nEv t H)
      (fun q1 q2 p1 p2 lq lp e => Or.inr ⟨q1, q2, p1, p2, lq, lp, e, rfl, rfl⟩)
      (kthE_mono (fun p q h => Or.inl h) (joinE Hs) (kthE_many Hs hok.1)) H
      (fun t => Nat.leRefl _) hok.2.2

/-- One part's edges, mapped to indices of the whole run (`PartE`'s second disjunct). -/
def PartEdge (act : Nat → Nat → Ev) (P H : List (EventN V)) (p q : Nat × Nat) : Prop :=
  ∃ q1 q2 p1 p2, q2 < nEv q1 H ∧ p2 ≤ nEv p1 H ∧ Edge (shiftA act P) (q1, q2) (p1, p2) ∧
    p = (q1, nEv q1 P + q2) ∧ q = (p1, nEv p1 P + p2)

/-- What remains to show for race freedom: each part's edges (of the sequences `a`) are realized
in every schedule of `act`. -/
def ManyReal (act a : Nat → Nat → Ev) (m : Nat → Nat) : List (List (EventN V)) → Prop
  | [] => True
  | H :: Hs => ManyReal act a m Hs ∧ Realized act m (PartEdge a (joinE Hs) H)

/-- Program order is realized in every schedule. -/
theorem realized_po (act : Nat → Nat → Ev) (m : Nat → Nat) :
    Realized act m (fun p q => p.1 = q.1 ∧ q.2 = p.2 + 1) := by
  intro h _ e1 e2 he hl
  rw [he.2, ← he.1] at hl
  exact Nat.ltOfSuccLt hl

/-- **The part edges are realized as soon as each part's are.** -/
theorem realized_partE {act a : Nat → Nat → Ev} {m : Nat → Nat} :
    ∀ (Hs : List (List (EventN V))), ManyReal act a m Hs → Realized act m (PartE a Hs)
  | [], _ => realized_po act m
  | H :: Hs, hr => by
    intro h hv e1 e2 he
    cases he with
    | inl e => exact realized_partE Hs hr.1 h hv e1 e2 e
    | inr e => exact hr.2 h hv e1 e2 e

theorem partEdge_congr {a a' : Nat → Nat → Ev} (he : ∀ t i, a t i = a' t i)
    {P H : List (EventN V)} {p q : Nat × Nat} (h : PartEdge a P H p q) : PartEdge a' P H p q :=
  match h with
  | ⟨q1, q2, p1, p2, lq, lp, e, ep, eq⟩ =>
    ⟨q1, q2, p1, p2, lq, lp, edge_thr (fun t _ _ _ _ k => he t (nEv t P + k)) e, ep, eq⟩

/-- `ManyReal` for sequences equal to the part sequences at every index. -/
theorem manyReal_congr {act a a' : Nat → Nat → Ev} {m : Nat → Nat} (he : ∀ t i, a t i = a' t i) :
    ∀ (Hs : List (List (EventN V))), ManyReal act a m Hs → ManyReal act a' m Hs
  | [], _ => trivial
  | H :: Hs, hr => ⟨manyReal_congr he Hs hr.1, fun h hv e1 e2 hx =>
      hr.2 h hv e1 e2 (partEdge_congr (fun t i => (he t i).symm) hx)⟩

/-- Chains of a realized order are realized. -/
theorem realized_tc {act : Nat → Nat → Ev} {m : Nat → Nat} {R : Nat × Nat → Nat × Nat → Prop}
    (hR : Realized act m R) : Realized act m (TC R) := by
  intro h hv e1 e2 ht
  induction ht with
  | edge e => exact hR h hv _ _ e
  | step _ e ih => exact fun l => ih (hR h hv _ _ e l)

end Many

section ManyOrdered

variable {V : Type} [Sem.AccAdd V]

open Race (ActAt Seg UnorderedConflict ordered_iff_hb checkN checkN_sound noSameN sfx_total
  actAt_of_sfx seg_of_sfx posAt_of_sfx conflict_left conflict_right notUC_tail canonN_holds
  canonRunN_notBlocked canonRunN_fromActB canonN_covers FinishedN canonRunN soloEvB soloEvB_lt
  lt_of_soloEvB_arr)

/-- **Conflicting solo actions are ordered by chains of part edges, from the executor's run
split at any number of clearings**: if the run finishes, its history is `joinE Hs` with
`ManyOK` (nothing pending at each split, check (2)'s `KthInst` per part), and the race check
reports nothing over the whole history, then every two conflicting solo actions of different
threads below `N` are joined by a chain of part edges, one way or the other. -/
theorem canonN_manyOrdered {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {Hs : List (List (EventN V))}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE Hs)
    (hok : ManyOK (soloEvB prog regs0 m0 N) Hs)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    {x y i j : Nat} (hx : x < N) (hy : y < N) (hxy : ¬ x = y)
    (hcf : Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j)) :
    TC (PartE (soloEvB prog regs0 m0 N) Hs) (x, i) (y, j) ∨
      TC (PartE (soloEvB prog regs0 m0 N) Hs) (y, j) (x, i) := by
  have hw := canonRunN_notBlocked prog regs0 m0 N B F
  have hf := canonRunN_fromActB prog regs0 m0 N B F
  have hk : KthE (soloEvB prog regs0 m0 N) (PartE (soloEvB prog regs0 m0 N) Hs)
      (canonRunN prog regs0 m0 N B F) := by
    rw [hsplit]; exact kthE_many Hs hok
  have hu := checkN_sound hw hc
  have hpo := partE_po (soloEvB prog regs0 m0 N) Hs
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
      | inl e => exact False.elim (hxy (Race.EventN.act.inj (List.cons.inj e).1).1)
      | inr s => exact Or.inl (ordered_sideE hpo hf hw hk hu hxy hcf s hs2)
    | inr s21 =>
      cases s21 with
      | inl e => exact False.elim (hxy (Race.EventN.act.inj (List.cons.inj e).1).1.symm)
      | inr s =>
        exact Or.inr (ordered_sideE hpo hf hw hk hu (fun e => hxy e.symm)
          (Sem.conflict_symm _ _ hcf) s hs1)

/-- **Race freedom across any number of clearings from the executor's run, given that the
part edges are realized**: as `canonN_manyOrdered`, and if every part edge (`PartE` of the
executor's sequences `soloEvB`) is an order realized in every schedule of the solo sequences,
then no race from the launch with any memory `m1`. -/
theorem canonicalN_many_raceFree (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) {Hs : List (List (EventN V))}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE Hs)
    (hok : ManyOK (soloEvB prog regs0 m0 N) Hs)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    (hreal : Realized (soloEv prog regs0 m0) m (PartE (soloEvB prog regs0 m0 N) Hs)) :
    Sem.RaceFree prog N (Sem.init regs0 m1) :=
  raceFree_of_realized prog N regs0 m0 m1 R m hind hR0 hC (realized_tc hreal)
    (fun x y i j hxy hx hy hcf => canonN_manyOrdered hfin hsplit hok hc hx hy hxy hcf)

/-- `canonicalN_many_raceFree` with the realized part edges asked part by part (`ManyReal`). -/
theorem canonicalN_many_raceFree' (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : CountsAt prog regs0 m0 m) {Hs : List (List (EventN V))}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE Hs)
    (hok : ManyOK (soloEvB prog regs0 m0 N) Hs)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    (hreal : ManyReal (soloEv prog regs0 m0) (soloEvB prog regs0 m0 N) m Hs) :
    Sem.RaceFree prog N (Sem.init regs0 m1) :=
  canonicalN_many_raceFree prog N B F regs0 m0 m1 R m hind hR0 hC hfin hsplit hok hc
    (realized_partE Hs hreal)

open Race (progN soloEv_progN soloAct_progN dataIndep_progN countsAt_progN raceFree_of_progN)

/-- **Race freedom across any number of clearings from the executor's run, with the realized
part edges asked of the solo sequences of the threads below `N`** (`progN prog N`, as
`canonicalN_segs_sound`): for a `DataIndep` program with one positive count `mb b` per id in
the solo traces below `N`, if the run finishes, is `joinE Hs` with `ManyOK`, the race check
reports nothing, and each part's edges are realized (`ManyReal` of `soloEv (progN prog N)`, which
`manyReal_one` / `manyReal_two` give from the clearings' `Cut`s and the segments' member sets),
then no race from the launch with any memory. -/
theorem canonicalN_many_raceFreeN (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    {Hs : List (List (EventN V))}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE Hs)
    (hok : ManyOK (soloEvB prog regs0 m0 N) Hs)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    (hreal : ManyReal (soloEv (progN prog N) regs0 m0) (soloEv (progN prog N) regs0 m0) mb Hs) :
    Sem.RaceFree prog N (Sem.init regs0 m1) :=
  have he : ∀ t i, soloEv (progN prog N) regs0 m0 t i = soloEvB prog regs0 m0 N t i :=
    fun t i => (soloEv_progN prog regs0 m0 N t i).symm
  raceFree_of_progN prog N _
    (raceFree_of_realized (progN prog N) N regs0 m0 m1 R mb (dataIndep_progN prog N hind) hR0
      (countsAt_progN prog regs0 m0 N hpos hcnt)
      (realized_tc (realized_partE Hs (manyReal_congr he Hs hreal)))
      (fun x y i j hxy hx hy hcf => by
        rw [soloAct_progN prog regs0 m0 hx, soloAct_progN prog regs0 m0 hy] at hcf
        exact canonN_manyOrdered hfin hsplit hok hc hx hy hxy hcf))

end ManyOrdered

/-! ## One clearing through the new form

With a `Cut` and `Segs` (one clearing), the two parts' edges are edges of the segment programs
(`edge_first`, `edge_last`), so `ManyReal` holds (`manyReal_one`): the realized-edge hypothesis
of `canonicalN_many_raceFree'` is met for two parts. -/

section One

variable {V : Type}

theorem appE_nil {α : Type} : ∀ (l : List α), appE l [] = l
  | [] => rfl
  | x :: l => by
    show x :: appE l [] = x :: l
    rw [appE_nil l]

theorem ac_shift_nil (act : Nat → Nat → Ev) (b x : Nat) :
    ∀ i, ac (shiftA act ([] : List (EventN V))) b x i = ac act b x i
  | 0 => rfl
  | i + 1 => by
    show cond (arrAt b (act x (0 + i))) (ac (shiftA act ([] : List (EventN V))) b x i + 1)
        (ac (shiftA act ([] : List (EventN V))) b x i) =
      cond (arrAt b (act x i)) (ac act b x i + 1) (ac act b x i)
    rw [ac_shift_nil act b x i, Nat.zero_add]

/-- The first part's edges are edges of the segment up to the cut. -/
theorem edge_first {act : Nat → Nat → Ev} {c : Nat → Nat} {H : List (EventN V)}
    (hn : ∀ t, nEv t H ≤ c t + 1) {p q : Nat × Nat} (he : PartEdge act [] H p q) :
    Edge (restr act (preF c)) p q := by
  match he with
  | ⟨q1, q2, p1, p2, lq, lp, e, ep, eq⟩ =>
    rw [ep, eq]
    show Edge (restr act (preF c)) (q1, 0 + q2) (p1, 0 + p2)
    rw [Nat.zero_add, Nat.zero_add]
    cases e with
    | po => exact Edge.po _ _
    | bar x i y j b wx ax ay hac =>
      have ax1 : act q1 (0 + q2) = Ev.arr b wx := ax
      have ay1 : act p1 (0 + j) = Ev.arr b true := ay
      rw [Nat.zero_add] at ax1
      rw [Nat.zero_add] at ay1
      have hi : q2 + 1 ≤ c q1 + 1 := Nat.leTrans lq (hn q1)
      have hj : j + 1 ≤ c p1 + 1 := Nat.leTrans lp (hn p1)
      have ax2 : restr act (preF c) q1 q2 = Ev.arr b wx := by
        rw [restr_true (preF_true hi)]; exact ax1
      have ay2 : restr act (preF c) p1 j = Ev.arr b true := by
        rw [restr_true (preF_true hj)]; exact ay1
      have hac2 : ac (restr act (preF c)) b q1 q2 = ac (restr act (preF c)) b p1 j := by
        rw [ac_pre_eq act c b q1 q2 (Nat.leTrans (Nat.leSucc _) hi),
          ac_pre_eq act c b p1 j (Nat.leTrans (Nat.leSucc _) hj),
          ← ac_shift_nil (V := V) act b q1 q2, ← ac_shift_nil (V := V) act b p1 j]
        exact hac
      exact Edge.bar q1 q2 p1 j b wx ax2 ay2 hac2

/-- The second part's edges are edges of the segment after the cut. -/
theorem edge_last {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {H1 H2 : List (EventN V)}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) {p q : Nat × Nat}
    (he : PartEdge act (joinE [H1]) H2 p q) : Edge (restr act (postF c)) p q := by
  have e1 : joinE [H1] = H1 := appE_nil H1
  rw [e1] at he
  match he with
  | ⟨q1, q2, p1, p2, _, _, e, ep, eq⟩ =>
    rw [ep, eq]
    exact edge_shift hall hcut e

/-- **One clearing meets `ManyReal`**: with `Cut` and `Segs`, the edges of the two parts
(`H1` holding each member's actions up to its cut and none past it) are realized. -/
theorem manyReal_one {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} {S1 S2 : Nat → List Nat}
    (C : Cut act m W k SW c E) (G : Segs act m c S1 S2) {H1 H2 : List (EventN V)}
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1) :
    ManyReal act act m [H2, H1] :=
  have R := realized_cut C (realized_hb _ m S1 G.hM1 G.hSz1 G.h31)
    (realized_hb _ m S2 G.hM2 G.hSz2 G.h32)
  ⟨⟨trivial, fun h hv e1 e2 he => R h hv e1 e2 (Or.inl (HB.edge (edge_first hn he)))⟩,
    fun h hv e1 e2 he => R h hv e1 e2 (Or.inr (Or.inl (HB.edge (edge_last C.hall hcut he))))⟩

/-- Edges between actions up to the cut are edges of the segment up to the cut. -/
theorem edge_pre_bounded {a : Nat → Nat → Ev} {c : Nat → Nat} {p q : Nat × Nat}
    (e : Edge a p q) (hp : p.2 ≤ c p.1) (hq : q.2 ≤ c q.1 + 1) : Edge (restr a (preF c)) p q := by
  cases e with
  | po t i => exact Edge.po t i
  | bar x i y j b wx ax ay hac =>
    have hi : i + 1 ≤ c x + 1 := Nat.succLeSucc hp
    have ax2 : restr a (preF c) x i = Ev.arr b wx := by rw [restr_true (preF_true hi)]; exact ax
    have ay2 : restr a (preF c) y j = Ev.arr b true := by rw [restr_true (preF_true hq)]; exact ay
    have hac2 : ac (restr a (preF c)) b x i = ac (restr a (preF c)) b y j := by
      rw [ac_pre_eq a c b x i (Nat.leTrans (Nat.leSucc _) hi),
        ac_pre_eq a c b y j (Nat.leTrans (Nat.leSucc _) hq)]
      exact hac
    exact Edge.bar x i y j b wx ax2 ay2 hac2

/-- The middle part's edges (between the two clearings) are edges of the middle segment. -/
theorem edge_mid {act : Nat → Nat → Ev} {c1 c2 : Nat → Nat} {SW : List Nat}
    {H1 H2 : List (EventN V)}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut1 : ∀ u, Mem u SW → nEv u H1 = c1 u + 1) (hn2 : ∀ t, nEv t (appE H2 H1) ≤ c2 t + 1)
    {p q : Nat × Nat} (he : PartEdge act (joinE [H1]) H2 p q) :
    Edge (restr (restr act (postF c1)) (preF c2)) p q := by
  have e1 : joinE [H1] = H1 := appE_nil H1
  rw [e1] at he
  match he with
  | ⟨q1, q2, p1, p2, lq, lp, e, ep, eq⟩ =>
    rw [ep, eq]
    have hq : nEv q1 H1 + q2 ≤ c2 q1 := by
      have l1 : nEv q1 H1 + q2 < nEv q1 H1 + nEv q1 H2 := Nat.addLtAddLeft lq _
      rw [← nEv_app q1 H1 H2] at l1
      exact Nat.leOfLtSucc (Nat.ltOfLtOfLe l1 (hn2 q1))
    have hp : nEv p1 H1 + p2 ≤ c2 p1 + 1 := by
      have l1 : nEv p1 H1 + p2 ≤ nEv p1 H1 + nEv p1 H2 := Nat.addLeAddLeft lp _
      rw [← nEv_app p1 H1 H2] at l1
      exact Nat.leTrans l1 (hn2 p1)
    exact edge_pre_bounded (edge_shift hall hcut1 e) hq hp

/-- The last part's edges (after the second clearing) are edges of the last segment. -/
theorem edge_last2 {act : Nat → Nat → Ev} {c1 c2 : Nat → Nat} {SW1 SW2 : List Nat}
    {H1 H2 H3 : List (EventN V)}
    (hall1 : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW1)
    (hall2 : ∀ u i b' wt, restr act (postF c1) u i = Ev.arr b' wt → Mem u SW2)
    (hcut1 : ∀ u, Mem u SW1 → nEv u H1 = c1 u + 1)
    (hcut2 : ∀ u, Mem u SW2 → nEv u (appE H2 H1) = c2 u + 1)
    {p q : Nat × Nat} (he : PartEdge act (joinE [H2, H1]) H3 p q) :
    Edge (restr (restr act (postF c1)) (postF c2)) p q := by
  have e1 : joinE [H2, H1] = appE H2 H1 := by
    show appE H2 (appE H1 []) = appE H2 H1
    rw [appE_nil H1]
  rw [e1] at he
  match he with
  | ⟨q1, q2, p1, p2, _, _, e, ep, eq⟩ =>
    rw [ep, eq]
    have ht : ∀ t i b w, shiftA act (appE H2 H1) t i = Ev.arr b w →
        ∀ k, shiftA act (appE H2 H1) t k = shiftA (restr act (postF c1)) (appE H2 H1) t k := by
      intro t i b w ha k
      have hm := hall1 t _ b w ha
      have hlt : c1 t < nEv t (appE H2 H1) + k := by
        rw [nEv_app t H1 H2, hcut1 t hm, Nat.add_assoc]
        exact Nat.ltOfLtOfLe (Nat.ltSuccSelf _) (Nat.succLeSucc (Nat.leAddRight _ _))
      show act t (nEv t (appE H2 H1) + k) = restr act (postF c1) t (nEv t (appE H2 H1) + k)
      rw [restr_true (postF_of_lt c1 hlt)]
    exact edge_shift hall2 hcut2 (edge_thr ht e)

/-- **Two clearings meet `ManyReal`**: with the first clearing's `Cut` of `act`, the second's
`Cut` of the segment after the first (`restr act (postF c1)`), each of the three segments under
its own member sets (`Memb`, `Sized`, `Check3`), and the run in three parts `[H3, H2, H1]`
holding each member's actions up to the first cut in `H1` (none past it) and up to the second
in `appE H2 H1` (none past it), the edges of the three parts are realized. -/
theorem manyReal_two {act : Nat → Nat → Ev} {m : Nat → Nat} {W1 k1 W2 k2 : Nat}
    {SW1 SW2 : List Nat} {c1 c2 : Nat → Nat} {E1 E2 : List Nat} {SA SB SC : Nat → List Nat}
    (C1 : Cut act m W1 k1 SW1 c1 E1) (C2 : Cut (restr act (postF c1)) m W2 k2 SW2 c2 E2)
    (hMA : Memb (restr act (preF c1)) SA) (hSzA : Sized m SA) (h3A : Check3 (restr act (preF c1)))
    (G : Segs (restr act (postF c1)) m c2 SB SC) {H1 H2 H3 : List (EventN V)}
    (hcut1 : ∀ u, Mem u SW1 → nEv u H1 = c1 u + 1) (hn1 : ∀ t, nEv t H1 ≤ c1 t + 1)
    (hcut2 : ∀ u, Mem u SW2 → nEv u (appE H2 H1) = c2 u + 1)
    (hn2 : ∀ t, nEv t (appE H2 H1) ≤ c2 t + 1) :
    ManyReal act act m [H3, H2, H1] :=
  have R := realized_cut C1 (realized_hb _ m SA hMA hSzA h3A)
    (realized_cut C2 (realized_hb _ m SB G.hM1 G.hSz1 G.h31)
      (realized_hb _ m SC G.hM2 G.hSz2 G.h32))
  ⟨⟨⟨trivial, fun h hv e1 e2 he => R h hv e1 e2 (Or.inl (HB.edge (edge_first hn1 he)))⟩,
    fun h hv e1 e2 he => R h hv e1 e2
      (Or.inr (Or.inl (Or.inl (HB.edge (edge_mid C1.hall hcut1 hn2 he)))))⟩,
    fun h hv e1 e2 he => R h hv e1 e2
      (Or.inr (Or.inl (Or.inr (Or.inl (HB.edge (edge_last2 C1.hall C2.hall hcut1 hcut2 he))))))⟩

/-- Not vacuous: `segAct`'s run `segH1`, `segH2` (`NamedSegments.lean`) meets `ManyReal`. -/
theorem seg_manyReal : ManyReal segAct segAct segM [segH2, segH1] :=
  manyReal_one seg_cutOK seg_segsOK segH1_cut segH1_le

end One

section TwoSem

variable {V : Type} [Sem.AccAdd V]

open Race (canonRunN FinishedN soloEvB checkN noSameN progN soloEv_progN soloAct_progN
  dataIndep_progN countsAt_progN raceFree_of_progN sched CB stepT_of_progN extH valid_extH
  mem_extH mem_sched cnt_extH_lt notBlocked_end step_ok cb_of canonRunN_fromSolo canonRunN_compOK
  canonN_valid valid_congr arrs_congr cnt_sched canonN_covers canonRunN_fromActB)

open Race (barriersFit_of_progN reach_progN)

/-- **Race freedom, barriers fit and confluence across two clearings from the executor's run**:
for a `DataIndep` program with one positive count `mb b` per id in the solo traces below `N`
(`act` the solo sequences of the threads below `N`, `soloEv (progN prog N)`), if the first
clearing is a `Cut` of `act` at `c1`, the second a `Cut` of the segment after it at `c2`, the
three segments meet `Memb`, `Sized`, `Check3` with their own member sets, the executor's run
finishes, is `joinE [H3, H2, H1]` with `ManyOK`, each member's actions up to `c1` in `H1` and
none past it, up to `c2` in `appE H2 H1` and none past it, and the race check reports nothing,
then from the launch with any memory: no race, barriers fit, any two final states are the
same. -/
theorem canonicalN_two_sound (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    {W1 k1 W2 k2 : Nat} {SW1 SW2 : List Nat} {c1 c2 : Nat → Nat} {E1 E2 : List Nat}
    {SA SB SC : Nat → List Nat}
    (C1 : Cut (soloEv (progN prog N) regs0 m0) mb W1 k1 SW1 c1 E1)
    (C2 : Cut (restr (soloEv (progN prog N) regs0 m0) (postF c1)) mb W2 k2 SW2 c2 E2)
    (hMA : Memb (restr (soloEv (progN prog N) regs0 m0) (preF c1)) SA) (hSzA : Sized mb SA)
    (h3A : Check3 (restr (soloEv (progN prog N) regs0 m0) (preF c1)))
    (G : Segs (restr (soloEv (progN prog N) regs0 m0) (postF c1)) mb c2 SB SC)
    {H1 H2 H3 : List (EventN V)}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE [H3, H2, H1])
    (hok : ManyOK (soloEvB prog regs0 m0 N) [H3, H2, H1])
    (hcut1 : ∀ u, Mem u SW1 → nEv u H1 = c1 u + 1) (hn1 : ∀ t, nEv t H1 ≤ c1 t + 1)
    (hcut2 : ∀ u, Mem u SW2 → nEv u (appE H2 H1) = c2 u + 1)
    (hn2 : ∀ t, nEv t (appE H2 H1) ≤ c2 t + 1)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) :=
  have he : ∀ t i, soloEv (progN prog N) regs0 m0 t i = soloEvB prog regs0 m0 N t i :=
    fun t i => (soloEv_progN prog regs0 m0 N t i).symm
  have hindN := dataIndep_progN prog N hind
  have hC := countsAt_progN prog regs0 m0 N hpos hcnt
  have hR := realized_tc (realized_partE _ (manyReal_congr he _
    (manyReal_two C1 C2 hMA hSzA h3A G hcut1 hn1 hcut2 hn2)))
  have hord : ∀ x y i j, x ≠ y → x < N → y < N →
      Sem.Conflict (Sem.soloAct (progN prog N) regs0 m0 x i)
        (Sem.soloAct (progN prog N) regs0 m0 y j) →
      TC (PartE (soloEvB prog regs0 m0 N) [H3, H2, H1]) (x, i) (y, j) ∨
        TC (PartE (soloEvB prog regs0 m0 N) [H3, H2, H1]) (y, j) (x, i) :=
    fun x y i j hxy hx hy hcf => by
      rw [soloAct_progN prog regs0 m0 hx, soloAct_progN prog regs0 m0 hy] at hcf
      exact canonN_manyOrdered hfin hsplit hok hc hx hy hxy hcf
  have hF : Fits (soloEv (progN prog N) regs0 m0) mb :=
    fits_cut C1 (fits_once _ mb SA hMA hSzA h3A)
      (fits_cut C2 (fits_once _ mb SB G.hM1 G.hSz1 G.h31) (fits_once _ mb SC G.hM2 G.hSz2 G.h32))
  ⟨raceFree_of_progN prog N _
      (raceFree_of_realized (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC hR hord),
    barriersFit_of_progN prog N _
      (barriersFit_of_fits (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC hF),
    fun t1 t2 h1 h2 f1 f2 => confluence_of_realized (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC
      hR hord hF (reach_progN prog N h1) (reach_progN prog N h2) f1 f2⟩

/-- **The four conclusions across two clearings from the executor's run**: as
`canonicalN_two_sound`, and if the run leaves nothing pending at its end, also every reachable
state where no thread can step is final (`noStuck_of_np` with `np_cut` nested, the complete
schedule the run's thread order followed by the exits, as in `canonicalN_segs_sound`). -/
theorem canonicalN_two_sound4 (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    {W1 k1 W2 k2 : Nat} {SW1 SW2 : List Nat} {c1 c2 : Nat → Nat} {E1 E2 : List Nat}
    {SA SB SC : Nat → List Nat}
    (C1 : Cut (soloEv (progN prog N) regs0 m0) mb W1 k1 SW1 c1 E1)
    (C2 : Cut (restr (soloEv (progN prog N) regs0 m0) (postF c1)) mb W2 k2 SW2 c2 E2)
    (hMA : Memb (restr (soloEv (progN prog N) regs0 m0) (preF c1)) SA) (hSzA : Sized mb SA)
    (h3A : Check3 (restr (soloEv (progN prog N) regs0 m0) (preF c1)))
    (G : Segs (restr (soloEv (progN prog N) regs0 m0) (postF c1)) mb c2 SB SC)
    {H1 H2 H3 : List (EventN V)}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE [H3, H2, H1])
    (hok : ManyOK (soloEvB prog regs0 m0 N) [H3, H2, H1])
    (hcut1 : ∀ u, Mem u SW1 → nEv u H1 = c1 u + 1) (hn1 : ∀ t, nEv t H1 ≤ c1 t + 1)
    (hcut2 : ∀ u, Mem u SW2 → nEv u (appE H2 H1) = c2 u + 1)
    (hn2 : ∀ t, nEv t (appE H2 H1) ≤ c2 t + 1)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = []) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) := by
  have three := canonicalN_two_sound prog N B F regs0 m0 m1 R hind hR0 mb hpos hcnt C1 C2 hMA hSzA
    h3A G hfin hsplit hok hcut1 hn1 hcut2 hn2 hc
  have he : ∀ t i, soloEvB prog regs0 m0 N t i = soloEv (progN prog N) regs0 m0 t i :=
    soloEv_progN prog regs0 m0 N
  have hindN := dataIndep_progN prog N hind
  have hC := countsAt_progN prog regs0 m0 N hpos hcnt
  have hfs := canonRunN_fromSolo prog regs0 m0 N B F
  have hcbR : CB mb (canonRunN prog regs0 m0 N B F) :=
    cb_of hcnt _ hfs (canonRunN_compOK prog regs0 m0 N B F)
  have hNp : NpAhead (soloEv (progN prog N) regs0 m0) mb :=
    np_cut C1 (np_once _ mb SA hMA hSzA h3A)
      (np_cut C2 (np_once _ mb SB G.hM1 G.hSz1 G.h31) (np_once _ mb SC G.hM2 G.hSz2 G.h32))
  have hV := canonN_valid (B := B) (F := F) hpos hcnt
  have hx := hV.2 hfin
  have hl : ∀ t, soloEv (progN prog N) regs0 m0 t
      (cnt t (sched (canonRunN prog regs0 m0 N B F))) = Ev.loc := by
    intro t
    cases Nat.decLt t N with
    | isTrue ht =>
      show evOf (Sem.soloAct (progN prog N) regs0 m0 t _) = Ev.loc
      rw [soloAct_progN prog regs0 m0 ht, hx t ht]
      rfl
    | isFalse ht =>
      show evOf (Sem.soloAct (progN prog N) regs0 m0 t _) = Ev.loc
      rw [Race.soloAct_progN_ge prog regs0 m0 ht]
      rfl
  have hok' : ∀ t j b, cnt t (sched (canonRunN prog regs0 m0 N B F)) = j + 1 →
      soloEv (progN prog N) regs0 m0 t j = Ev.arr b true →
      ¬ Pending t (left (mb b) (fun _ => 0) []
        (arrs (soloEv (progN prog N) regs0 m0) b (sched (canonRunN prog regs0 m0 N B F)))) := by
    intro t j b hj ha
    rw [← he] at ha
    rw [← arrs_congr he b]
    exact step_ok (N := N) hpos (canonRunN_fromActB prog regs0 m0 N B F) hcbR
      (notBlocked_end hend t) j b hj ha
  have hComp : Complete (soloEv (progN prog N) regs0 m0) mb
      (fun t => cnt t (extH (sched (canonRunN prog regs0 m0 N B F)) N)) N
      (extH (sched (canonRunN prog regs0 m0 N B F)) N) :=
    ⟨valid_extH _ mb _ (valid_congr he mb _ hV.1) hl hok' N,
      ⟨mem_extH _ (mem_sched _ hfs) N (Nat.leRefl N), fun t => Nat.leRefl _⟩, fun t _ => rfl⟩
  have hpast : ∀ t j b w, t < N → soloEv (progN prog N) regs0 m0 t j = Ev.arr b w →
      j + 1 < cnt t (extH (sched (canonRunN prog regs0 m0 N B F)) N) := by
    intro t j b w ht ha
    rw [cnt_extH_lt _ N ht, cnt_sched]
    rw [← he] at ha
    exact Nat.succLeSucc (canonN_covers hfin t j b w ha)
  have hex : ∀ t j, t < N → Sem.soloAct (progN prog N) regs0 m0 t j = Sem.Act.exit →
      cnt t (extH (sched (canonRunN prog regs0 m0 N B F)) N) ≤ j + 1 := by
    intro t j ht hxj
    rw [cnt_extH_lt _ N ht, cnt_sched]
    rw [soloAct_progN prog regs0 m0 ht] at hxj
    cases Nat.ltOrGe j (nEv t (canonRunN prog regs0 m0 N B F)) with
    | inl hlt =>
      have e := notExit_of_lt (N := N) hlt
      rw [hxj] at e
      exact Bool.noConfusion e
    | inr hge => exact Nat.succLeSucc hge
  exact ⟨three.1, three.2.1, three.2.2, fun r hr hst => noStuck_of_np (progN prog N) N regs0 m0 m1 R mb
    hindN hR0 hC hNp hComp hpast hex r (reach_progN prog N hr) (fun v hv => match hv with
      | ⟨i, hi⟩ => hst v ⟨i, stepT_of_progN prog hi⟩)⟩

end TwoSem

/-! ## Example: `twoAct` (two clearings) through `kthE_many`

The executor-style history of `twoAct` (`NamedSegments.lean`: id 0 the whole CTA, id 1 joining
{0}, then {1}, then {0}) in three parts, latest first: `twoP1` up to the first whole-CTA
instance, `twoP2` up to the second, `twoP3` after it.  `ManyOK` holds (evaluated), so
`kthE_many` applies across both clearings; one member set per id for the whole run does not
exist (`two_not_single`), so no single-record check covers it.  Check (2)'s `KthInst` of a
concrete part is evaluated by `kthB` (`kth_of`). -/

section Example

variable {V : Type}

/-- Up to the first whole-CTA instance: thread 0 passes id 1 alone, then both meet at id 0. -/
def twoP1 : List (EventN Nat) :=
  [EventN.complete 0 2, EventN.bar 1 0 true, EventN.bar 0 0 true, EventN.complete 1 1,
    EventN.bar 0 1 true]

/-- Up to the second: thread 1 passes id 1 alone, then both meet at id 0. -/
def twoP2 : List (EventN Nat) :=
  [EventN.complete 0 2, EventN.bar 1 0 true, EventN.bar 0 0 true, EventN.complete 1 1,
    EventN.bar 1 1 true]

/-- After it: thread 0 passes id 1 alone. -/
def twoP3 : List (EventN Nat) := [EventN.complete 1 1, EventN.bar 0 1 true]

theorem two_end1 : ∀ b, pendI (joinE [twoP1]) b = []
  | 0 => rfl
  | 1 => rfl
  | b + 2 => rfl

theorem two_end2 : ∀ b, pendI (joinE [twoP2, twoP1]) b = []
  | 0 => rfl
  | 1 => rfl
  | b + 2 => rfl

theorem two_end0 : ∀ b, pendI (joinE ([] : List (List (EventN Nat)))) b = [] := fun _ => rfl

/-- **`ManyOK` of `twoAct`'s run in three parts** (two clearings), evaluated. -/
theorem two_manyOK : ManyOK twoAct [twoP3, twoP2, twoP1] :=
  ⟨⟨⟨trivial, two_end0, kth_of _ twoP1 rfl⟩, two_end1, kth_of _ twoP2 rfl⟩, two_end2,
    kth_of _ twoP3 rfl⟩

/-- **Both clearings' instances joined by part edges**: `kthE_many` on the example. -/
theorem two_kthE : KthE twoAct (PartE twoAct [twoP3, twoP2, twoP1]) (joinE [twoP3, twoP2, twoP1]) :=
  kthE_many _ two_manyOK

theorem two_cutP1 : ∀ u, Mem u [0, 1] → nEv u twoP1 = twoC1 u + 1 := by
  intro u hu
  cases hu with
  | inl e => rw [← e]; rfl
  | inr hu =>
    cases hu with
    | inl e => rw [← e]; rfl
    | inr hu => exact False.elim hu

theorem two_leP1 : ∀ t, nEv t twoP1 ≤ twoC1 t + 1
  | 0 => Nat.leRefl _
  | 1 => Nat.leRefl _
  | t + 2 => by
    have e : nEv (t + 2) twoP1 = 0 := rfl
    rw [e]; exact Nat.zeroLe _

theorem two_cutP2 : ∀ u, Mem u [0, 1] → nEv u (appE twoP2 twoP1) = twoC2 u + 1 := by
  intro u hu
  cases hu with
  | inl e => rw [← e]; rfl
  | inr hu =>
    cases hu with
    | inl e => rw [← e]; rfl
    | inr hu => exact False.elim hu

theorem two_leP2 : ∀ t, nEv t (appE twoP2 twoP1) ≤ twoC2 t + 1
  | 0 => Nat.leRefl _
  | 1 => Nat.leRefl _
  | t + 2 => by
    have e : nEv (t + 2) (appE twoP2 twoP1) = 0 := rfl
    rw [e]; exact Nat.zeroLe _

/-- **The part edges of the example are realized** (`manyReal_two` with `NamedSegments.lean`'s
`two_cut1`, `two_cut2` and the three segments' member sets). -/
theorem two_manyReal : ManyReal twoAct twoAct twoM [twoP3, twoP2, twoP1] :=
  have hs : ∀ t i b wt, twoAct t i = Ev.arr b wt → wt = true := fun t i b wt ha => (two_arr ha).2
  manyReal_two two_cut1 two_cut2 two_membA two_sizedA (check3_restr hs _)
    ⟨two_membB, two_sizedB, check3_restr (two_wait hs _) _, two_membC, two_sizedA,
      check3_restr (two_wait hs _) _⟩
    two_cutP1 two_leP1 two_cutP2 two_leP2

/-- **Both clearings' part edges, chained, are realized in every schedule of the example.** -/
theorem two_realized_parts : Realized twoAct twoM (TC (PartE twoAct [twoP3, twoP2, twoP1])) :=
  realized_tc (realized_partE _ two_manyReal)

end Example

end Members
end Kcert
