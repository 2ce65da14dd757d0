import Kcert.SegMany

/-!
# Named barriers across any number of clearings

`SegMany.lean` reduces race freedom across several clearings to `ManyReal` (each part's edges
realized in every schedule) and proves it for one and two clearings by hand.  Here `Chain`
describes a run in any number of parts with a clearing between each two consecutive parts,
earliest clearing outermost as `manyReal_two` nests them: the first clearing is a `Cut` of the
whole sequences, each later one a `Cut` of the segment after the previous clearing, each segment
up to a clearing meets the Rust's barrier checks under its own member sets, and the run up to a
clearing holds each member's actions up to its cut and none past it.  `manyReal_k` gives
`ManyReal` for any such chain (by recursion on the list of parts), and `canonicalN_many_sound`
race freedom, barriers fit and confluence for any number of clearings.
-/

namespace Kcert
namespace Members

open Race (EventN)

section K

variable {V : Type}

/-- The run's parts (latest first) with a clearing between each two consecutive parts; `s` is
the segment after the latest clearing (`act` itself with one part). -/
def Chain (act : Nat → Nat → Ev) (m : Nat → Nat) :
    List (List (EventN V)) → (Nat → Nat → Ev) → Prop
  | [], s => s = act
  | [H], s => s = act
  | H :: H' :: Hs, s => ∃ (s' : Nat → Nat → Ev) (W k : Nat) (SW : List Nat) (c : Nat → Nat)
      (E : List Nat) (S : Nat → List Nat), Chain act m (H' :: Hs) s' ∧ Cut s' m W k SW c E ∧
      Memb (restr s' (preF c)) S ∧ Sized m S ∧ Check3 (restr s' (preF c)) ∧
      (∀ u, Mem u SW → nEv u (joinE (H' :: Hs)) = c u + 1) ∧
      (∀ t, nEv t (joinE (H' :: Hs)) ≤ c t + 1) ∧ s = restr s' (postF c)

/-- An order realized by the segment up to a clearing is realized by the whole sequences. -/
theorem realized_pre {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} (C : Cut act m W k SW c E) {R : Nat × Nat → Nat × Nat → Prop}
    (hR : Realized (restr act (preF c)) m R) : Realized act m R :=
  fun h hv e1 e2 r => realized_cut C (R2 := fun _ _ => False) hR (fun _ _ _ _ f => False.elim f)
    h hv e1 e2 (Or.inl r)

/-- An order realized by the segment after a clearing is realized by the whole sequences. -/
theorem realized_post {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {E : List Nat} (C : Cut act m W k SW c E) {R : Nat × Nat → Nat × Nat → Prop}
    (hR : Realized (restr act (postF c)) m R) : Realized act m R :=
  fun h hv e1 e2 r => realized_cut C (R1 := fun _ _ => False) (fun _ _ _ _ f => False.elim f) hR
    h hv e1 e2 (Or.inr (Or.inl r))

/-- An order realized by the latest segment is realized by the whole sequences. -/
theorem chain_lift {act : Nat → Nat → Ev} {m : Nat → Nat} {R : Nat × Nat → Nat × Nat → Prop} :
    ∀ (Hs : List (List (EventN V))) (s : Nat → Nat → Ev), Chain act m Hs s →
      Realized s m R → Realized act m R
  | [], s, hs, hR => by rw [← (hs : s = act)]; exact hR
  | [H], s, hs, hR => by rw [← (hs : s = act)]; exact hR
  | H :: H' :: Hs, s, ⟨s', W, k, SW, c, E, S, ch, C, _, _, _, _, _, hs⟩, hR => by
    rw [hs] at hR
    exact chain_lift (H' :: Hs) s' ch (realized_post C hR)

/-- Past the run before the latest part, the latest segment agrees with the whole sequences on
every thread that still arrives. -/
theorem chain_inv {act : Nat → Nat → Ev} {m : Nat → Nat} :
    ∀ (H : List (EventN V)) (Hs : List (List (EventN V))) (s : Nat → Nat → Ev),
      Chain act m (H :: Hs) s → ∀ t i b w, act t (nEv t (joinE Hs) + i) = Ev.arr b w →
        ∀ k, s t (nEv t (joinE Hs) + k) = act t (nEv t (joinE Hs) + k)
  | H, [], s, hs, t, i, b, w, _, k => by rw [(hs : s = act)]
  | H, H' :: Hs, s, ⟨s', W, k, SW, c, E, S, ch, C, _, _, _, hcut, _, hs⟩, t, i, b, w, ha, k' => by
    have ej : ∀ j, nEv t (joinE (H' :: Hs)) + j = nEv t (joinE Hs) + (nEv t H' + j) := by
      intro j
      show nEv t (appE H' (joinE Hs)) + j = nEv t (joinE Hs) + (nEv t H' + j)
      rw [nEv_app t (joinE Hs) H', Nat.add_assoc]
    have iv := chain_inv H' Hs s' ch t (nEv t H' + i) b w (by rw [← ej]; exact ha)
    have ha' : s' t (nEv t (joinE Hs) + (nEv t H' + i)) = Ev.arr b w := by
      rw [iv (nEv t H' + i), ← ej]; exact ha
    have hm := C.hall t _ b w ha'
    have e1 : restr s' (postF c) t (c t + 1 + k') = s' t (c t + 1 + k') :=
      restr_true (postF_after c t k')
    rw [← hcut t hm] at e1
    rw [hs, e1, ej, iv (nEv t H' + k')]

/-- The run before the latest part holds nothing of the whole sequences, at index 0. -/
theorem edge_nil {act : Nat → Nat → Ev} {H : List (EventN V)} {p q : Nat × Nat}
    (he : PartEdge act (joinE ([] : List (List (EventN V)))) H p q) : Edge act p q := by
  match he with
  | ⟨q1, q2, p1, p2, lq, lp, e, ep, eq⟩ =>
    rw [ep, eq]
    show Edge act (q1, 0 + q2) (p1, 0 + p2)
    rw [Nat.zero_add, Nat.zero_add]
    cases e with
    | po => exact Edge.po _ _
    | bar x i y j b wx ax ay hac =>
      have ax1 : act q1 (0 + q2) = Ev.arr b wx := ax
      have ay1 : act p1 (0 + j) = Ev.arr b true := ay
      rw [Nat.zero_add] at ax1
      rw [Nat.zero_add] at ay1
      have hac2 : ac act b q1 q2 = ac act b p1 j := by
        rw [← ac_shift_nil (V := V) act b q1 q2, ← ac_shift_nil (V := V) act b p1 j]
        exact hac
      exact Edge.bar q1 q2 p1 j b wx ax1 ay1 hac2

/-- **The latest part's edges are edges of the latest segment.** -/
theorem chain_edge {act : Nat → Nat → Ev} {m : Nat → Nat} :
    ∀ (H : List (EventN V)) (Hs : List (List (EventN V))) (s : Nat → Nat → Ev),
      Chain act m (H :: Hs) s → ∀ {p q : Nat × Nat}, PartEdge act (joinE Hs) H p q → Edge s p q
  | H, [], s, hs, p, q, he => by rw [(hs : s = act)]; exact edge_nil he
  | H, H' :: Hs, s, ⟨s', W, k, SW, c, E, S, ch, C, _, _, _, hcut, _, hs⟩, p, q, he => by
    match he with
    | ⟨q1, q2, p1, p2, _, _, e, ep, eq⟩ =>
      rw [ep, eq, hs]
      have ej : ∀ t j, nEv t (joinE (H' :: Hs)) + j = nEv t (joinE Hs) + (nEv t H' + j) := by
        intro t j
        show nEv t (appE H' (joinE Hs)) + j = nEv t (joinE Hs) + (nEv t H' + j)
        rw [nEv_app t (joinE Hs) H', Nat.add_assoc]
      have ht : ∀ t i b w, shiftA act (joinE (H' :: Hs)) t i = Ev.arr b w →
          ∀ j, shiftA act (joinE (H' :: Hs)) t j = shiftA s' (joinE (H' :: Hs)) t j := by
        intro t i b w ha j
        have ha' : act t (nEv t (joinE Hs) + (nEv t H' + i)) = Ev.arr b w := by
          rw [← ej]; exact ha
        show act t (nEv t (joinE (H' :: Hs)) + j) = s' t (nEv t (joinE (H' :: Hs)) + j)
        rw [ej, chain_inv H' Hs s' ch t _ b w ha' (nEv t H' + j)]
      exact edge_shift C.hall hcut (edge_thr ht e)

/-- A part's edges stay within the run up to the clearing after it. -/
theorem partEdge_bounds {a : Nat → Nat → Ev} {c : Nat → Nat} {P H : List (EventN V)}
    (hn : ∀ t, nEv t (appE H P) ≤ c t + 1) {p q : Nat × Nat} (he : PartEdge a P H p q) :
    p.2 ≤ c p.1 ∧ q.2 ≤ c q.1 + 1 :=
  match he with
  | ⟨q1, q2, p1, p2, lq, lp, _, ep, eq⟩ => by
    rw [ep, eq]
    have l1 : nEv q1 P + q2 < nEv q1 P + nEv q1 H := Nat.addLtAddLeft lq _
    rw [← nEv_app q1 P H] at l1
    have l2 : nEv p1 P + p2 ≤ nEv p1 P + nEv p1 H := Nat.addLeAddLeft lp _
    rw [← nEv_app p1 P H] at l2
    exact ⟨Nat.leOfLtSucc (Nat.ltOfLtOfLe l1 (hn q1)), Nat.leTrans l2 (hn p1)⟩

/-- Every part but the latest has its edges realized. -/
theorem manyReal_tail {act : Nat → Nat → Ev} {m : Nat → Nat} :
    ∀ (H : List (EventN V)) (Hs : List (List (EventN V))) (s : Nat → Nat → Ev),
      Chain act m (H :: Hs) s → ManyReal act act m Hs
  | H, [], s, _ => trivial
  | H, H' :: Hs, s, ⟨s', W, k, SW, c, E, S, ch, C, hM, hSz, h3, _, hn, _⟩ =>
    ⟨manyReal_tail H' Hs s' ch, fun h hv e1 e2 he =>
      have bd := partEdge_bounds hn he
      chain_lift (H' :: Hs) s' ch (realized_pre C (realized_hb _ m S hM hSz h3)) h hv e1 e2
        (HB.edge (edge_pre_bounded (chain_edge H' Hs s' ch he) bd.1 bd.2))⟩

/-- **Any number of clearings meets `ManyReal`**: a run in parts with a clearing between each
two consecutive parts (`Chain`), the latest segment under its own member sets, has every part's
edges realized in every schedule. -/
theorem manyReal_k {act : Nat → Nat → Ev} {m : Nat → Nat} {s : Nat → Nat → Ev}
    {S : Nat → List Nat} (hM : Memb s S) (hSz : Sized m S) (h3 : Check3 s) :
    ∀ (Hs : List (List (EventN V))), Chain act m Hs s → ManyReal act act m Hs
  | [], _ => trivial
  | H :: Hs, ch => ⟨manyReal_tail H Hs s ch, fun h hv e1 e2 he =>
      chain_lift (H :: Hs) s ch (realized_hb _ m S hM hSz h3) h hv e1 e2
        (HB.edge (chain_edge H Hs s ch he))⟩

/-- **Barriers fit across any number of clearings.** -/
theorem fits_chain {act : Nat → Nat → Ev} {m : Nat → Nat} :
    ∀ (Hs : List (List (EventN V))) (s : Nat → Nat → Ev), Chain act m Hs s → Fits s m →
      Fits act m
  | [], s, hs, hF => by rw [← (hs : s = act)]; exact hF
  | [H], s, hs, hF => by rw [← (hs : s = act)]; exact hF
  | H :: H' :: Hs, s, ⟨s', W, k, SW, c, E, S, ch, C, hM, hSz, h3, _, _, hs⟩, hF => by
    rw [hs] at hF
    exact fits_chain (H' :: Hs) s' ch (fits_cut C (fits_once _ m S hM hSz h3) hF)

/-- **`NpAhead` across any number of clearings** (no deadlock's key step). -/
theorem np_chain {act : Nat → Nat → Ev} {m : Nat → Nat} :
    ∀ (Hs : List (List (EventN V))) (s : Nat → Nat → Ev), Chain act m Hs s → NpAhead s m →
      NpAhead act m
  | [], s, hs, hN => by rw [← (hs : s = act)]; exact hN
  | [H], s, hs, hN => by rw [← (hs : s = act)]; exact hN
  | H :: H' :: Hs, s, ⟨s', W, k, SW, c, E, S, ch, C, hM, hSz, h3, _, _, hs⟩, hN => by
    rw [hs] at hN
    exact np_chain (H' :: Hs) s' ch (np_cut C (np_once _ m S hM hSz h3) hN)

end K

/-! ## Check (2)'s `KthInst` per part from `Drain2`, first and latest parts -/

section KthDrain

variable {V : Type}

/-- `KthInst` of the segment up to a cut is `KthInst` of the whole sequences on a history holding
nothing past the cut. -/
theorem kthInst_pre {a : Nat → Nat → Ev} {c : Nat → Nat} :
    ∀ (H : List (EventN V)), KthInst (restr a (preF c)) H → (∀ t, nEv t H ≤ c t + 1) →
      KthInst a H
  | [], _, _ => trivial
  | EventN.act t A :: h, hk, hn =>
    kthInst_pre h hk (fun u => Nat.leTrans (nEv_le u _ h) (hn u))
  | EventN.bar t b w :: h, hk, hn =>
    kthInst_pre h hk (fun u => Nat.leTrans (nEv_le u _ h) (hn u))
  | EventN.complete b m :: h, hk, hn => by
    have hn' : ∀ u, nEv u h ≤ c u + 1 := fun u => Nat.leTrans (nEv_le u _ h) (hn u)
    refine ⟨kthInst_pre h hk.1 hn', ?_⟩
    intro p q hp hq
    have lp : p.2 < nEv p.1 h := pendI_lt h b p (Race.in_takeL m hp)
    have lq : q.2 < nEv q.1 h := pendI_lt h b q (Race.in_takeL m hq)
    rw [← ac_pre_eq a c b p.1 p.2 (Nat.leOfLt (Nat.ltOfLtOfLe lp (hn' p.1))),
      ← ac_pre_eq a c b q.1 q.2 (Nat.leOfLt (Nat.ltOfLtOfLe lq (hn' q.1)))]
    exact hk.2 p q hp hq

/-- `KthInst` of the actions shifted past nothing. -/
theorem kthInst_nil {a : Nat → Nat → Ev} :
    ∀ (H : List (EventN V)), KthInst a H → KthInst (shiftA a ([] : List (EventN V))) H
  | [], _ => trivial
  | EventN.act t A :: h, hk => kthInst_nil h hk
  | EventN.bar t b w :: h, hk => kthInst_nil h hk
  | EventN.complete b m :: h, hk => ⟨kthInst_nil h hk.1, fun p q hp hq => by
      rw [ac_shift_nil (V := V) a b p.1 p.2, ac_shift_nil (V := V) a b q.1 q.2]
      exact hk.2 p q hp hq⟩

/-- **The first part's `KthInst` from check (2)**: if the run up to the first clearing follows
the actions, holds each member's actions up to the cut and none past it, leaves nothing pending,
and passes check (2) with `S1` (`Drain2`), it satisfies `KthInst` of the whole sequences
(`ManyOK`'s condition on the first part, `shiftA act []` up to `0 + i`). -/
theorem kthInst_first {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat}
    {S1 : Nat → List Nat} {H1 : List (EventN V)} (hf : FromAct act H1)
    (hn : ∀ t, nEv t H1 ≤ c t + 1) (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → c u < nEv u H1) (hd : Drain2 S1 H1) (hend : ∀ b, pendI H1 b = []) :
    KthInst (shiftA act ([] : List (EventN V))) H1 :=
  kthInst_nil H1 <| kthInst_pre H1 (kthInst_of_drain (memb_pre hf hn hall hcut hd hend) (fromAct_pre H1 hf hn) hd) hn

/-- **The latest part's `KthInst` from check (2)**: if the whole run `appE H P` follows the
actions and covers every arrival, and the latest part `H` passes check (2) with `S` and leaves
nothing pending, it satisfies `KthInst` of the actions shifted past `P` (`ManyOK`'s condition on
the latest part). -/
theorem kthInst_last {act : Nat → Nat → Ev} {S : Nat → List Nat} {P H : List (EventN V)}
    (hf : FromAct act (appE H P)) (hcov : Covers act (appE H P)) (hd : Drain2 S H)
    (hend : ∀ b, pendI H b = []) : KthInst (shiftA act P) H :=
  kthInst_of_drain (memb_of_drain (fromAct_shift P H hf) hd (covers_shift hcov) hend)
    (fromAct_shift P H hf) hd

theorem le_pred_succ : ∀ (n : Nat), n ≤ n - 1 + 1
  | 0 => Nat.zeroLe _
  | k + 1 => Nat.leRefl (k + 1)

theorem lt_of_le_pred : ∀ {i n : Nat}, 0 < n → i ≤ n - 1 → i < n
  | i, 0, hp, _ => False.elim (Nat.ltIrrefl 0 hp)
  | i, k + 1, _, hi => Nat.succLeSucc hi

/-- **Any part's `KthInst` from check (2)**: a history `H` following the sequences `a` (for a
part, the actions shifted past the earlier parts), where every thread that arrives anywhere in
`a` has an event in `H` (a clearing instance is whole-CTA), passing check (2) (`Drain2 S H`)
with nothing pending after it, satisfies `KthInst a H` (the cut taken at each thread's last
event in `H`). -/
theorem kthInst_part {a : Nat → Nat → Ev} {S : Nat → List Nat} {H : List (EventN V)}
    (hf : FromAct a H) (hpart : ∀ t i b w, a t i = Ev.arr b w → 0 < nEv t H)
    (hd : Drain2 S H) (hend : ∀ b, pendI H b = []) : KthInst a H :=
  have hn : ∀ t, nEv t H ≤ (fun u => nEv u H - 1) t + 1 := fun t => le_pred_succ (nEv t H)
  have hcov : Covers (restr a (preF (fun u => nEv u H - 1))) H := fun t i b w ha =>
    match restr_arr ha with
    | ⟨hf', ha'⟩ => lt_of_le_pred (hpart t i b w ha') (of_decide_eq_true' hf')
  kthInst_pre H (kthInst_of_drain (memb_of_drain (fromAct_pre H hf hn) hd hcov hend)
    (fromAct_pre H hf hn) hd) hn

/-- Check (2) per part, as the Rust evaluates it with the members record cleared before each
part: nothing pending before the part, the part drains each instance's members once
(`Drain2`) with nothing pending after it, and every thread that arrives after the earlier parts
has an event in the part. -/
def DrainParts (act : Nat → Nat → Ev) : List (List (EventN V)) → Prop
  | [] => True
  | H :: Hs => DrainParts act Hs ∧ (∀ b, pendI (joinE Hs) b = []) ∧
      (∃ S : Nat → List Nat, Drain2 S H) ∧ (∀ b, pendI H b = []) ∧
      (∀ t i b w, shiftA act (joinE Hs) t i = Ev.arr b w → 0 < nEv t H)

/-- **`ManyOK` from check (2) per part, any number of parts**: a run `joinE Hs` following the
actions with `DrainParts` meets `ManyOK` (`kthInst_part` per part, `fromAct_shift`). -/
theorem manyOK_of_drain {act : Nat → Nat → Ev} :
    ∀ (Hs : List (List (EventN V))), FromAct act (joinE Hs) → DrainParts act Hs → ManyOK act Hs
  | [], _, _ => trivial
  | H :: Hs, hf, ⟨hd, hpre, ⟨S, hS⟩, hend, hpart⟩ =>
    ⟨manyOK_of_drain Hs (fromAct_appE_tail (joinE Hs) H hf) hd, hpre,
      kthInst_part (fromAct_shift (joinE Hs) H hf) hpart hS hend⟩

end KthDrain

section KSem

variable {V : Type} [Sem.AccAdd V]

open Race (canonRunN FinishedN soloEvB checkN noSameN progN soloEv_progN soloAct_progN
  dataIndep_progN countsAt_progN raceFree_of_progN sched CB stepT_of_progN extH valid_extH
  mem_extH mem_sched cnt_extH_lt notBlocked_end step_ok cb_of canonRunN_fromSolo canonRunN_compOK
  canonN_valid valid_congr arrs_congr cnt_sched canonN_covers canonRunN_fromActB)

open Race (barriersFit_of_progN reach_progN)

/-- **Race freedom, barriers fit and confluence across any number of clearings from the
executor's run**: for a `DataIndep` program with one positive count `mb b` per id in the solo
traces below `N`, if the run's parts `Hs` (latest first) form a `Chain` of the solo sequences of
the threads below `N` (`soloEv (progN prog N)`: a clearing `Cut` between each two consecutive
parts, each segment up to a clearing under its own member sets, the run up to each clearing
holding each member's actions up to its cut and none past it), the latest segment `s` meets
`Memb`, `Sized`, `Check3`, the run finishes, is `joinE Hs` with `ManyOK`, and the race check
reports nothing, then from the launch with any memory: no race, barriers fit, any two final
states are the same. -/
theorem canonicalN_many_sound (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    {Hs : List (List (EventN V))} {s : Nat → Nat → Ev} {S : Nat → List Nat}
    (ch : Chain (soloEv (progN prog N) regs0 m0) mb Hs s)
    (hM : Memb s S) (hSz : Sized mb S) (h3 : Check3 s)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE Hs)
    (hok : ManyOK (soloEvB prog regs0 m0 N) Hs)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) :=
  have he : ∀ t i, soloEv (progN prog N) regs0 m0 t i = soloEvB prog regs0 m0 N t i :=
    fun t i => (soloEv_progN prog regs0 m0 N t i).symm
  have hindN := dataIndep_progN prog N hind
  have hC := countsAt_progN prog regs0 m0 N hpos hcnt
  have hR := realized_tc (realized_partE _ (manyReal_congr he _ (manyReal_k hM hSz h3 Hs ch)))
  have hord : ∀ x y i j, x ≠ y → x < N → y < N →
      Sem.Conflict (Sem.soloAct (progN prog N) regs0 m0 x i)
        (Sem.soloAct (progN prog N) regs0 m0 y j) →
      TC (PartE (soloEvB prog regs0 m0 N) Hs) (x, i) (y, j) ∨
        TC (PartE (soloEvB prog regs0 m0 N) Hs) (y, j) (x, i) :=
    fun x y i j hxy hx hy hcf => by
      rw [soloAct_progN prog regs0 m0 hx, soloAct_progN prog regs0 m0 hy] at hcf
      exact canonN_manyOrdered hfin hsplit hok hc hx hy hxy hcf
  have hF : Fits (soloEv (progN prog N) regs0 m0) mb :=
    fits_chain Hs s ch (fits_once _ mb S hM hSz h3)
  ⟨raceFree_of_progN prog N _
      (raceFree_of_realized (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC hR hord),
    barriersFit_of_progN prog N _
      (barriersFit_of_fits (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC hF),
    fun t1 t2 h1 h2 f1 f2 => confluence_of_realized (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC
      hR hord hF (reach_progN prog N h1) (reach_progN prog N h2) f1 f2⟩

/-- **The four conclusions across any number of clearings from the executor's run**: as
`canonicalN_many_sound`, and if the run leaves nothing pending at its end, also every reachable
state where no thread can step is final (`noStuck_of_np` with `np_chain`). -/
theorem canonicalN_many_sound4 (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    {Hs : List (List (EventN V))} {s : Nat → Nat → Ev} {S : Nat → List Nat}
    (ch : Chain (soloEv (progN prog N) regs0 m0) mb Hs s)
    (hM : Memb s S) (hSz : Sized mb S) (h3 : Check3 s)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE Hs)
    (hok : ManyOK (soloEvB prog regs0 m0 N) Hs)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = []) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) := by
  have three := canonicalN_many_sound prog N B F regs0 m0 m1 R hind hR0 mb hpos hcnt ch hM hSz h3
    hfin hsplit hok hc
  have he : ∀ t i, soloEvB prog regs0 m0 N t i = soloEv (progN prog N) regs0 m0 t i :=
    soloEv_progN prog regs0 m0 N
  have hindN := dataIndep_progN prog N hind
  have hC := countsAt_progN prog regs0 m0 N hpos hcnt
  have hfs := canonRunN_fromSolo prog regs0 m0 N B F
  have hcbR : CB mb (canonRunN prog regs0 m0 N B F) :=
    cb_of hcnt _ hfs (canonRunN_compOK prog regs0 m0 N B F)
  have hNp : NpAhead (soloEv (progN prog N) regs0 m0) mb :=
    np_chain Hs s ch (np_once _ mb S hM hSz h3)
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

/-- **The four conclusions across any number of clearings, with check (2) per part** in place of
`ManyOK`: `canonicalN_many_sound4` with `ManyOK` from `DrainParts` (`manyOK_of_drain`, the run
following the solo sequences by `canonRunN_fromActB`). -/
theorem canonicalN_many_drain_sound4 (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    {Hs : List (List (EventN V))} {s : Nat → Nat → Ev} {S : Nat → List Nat}
    (ch : Chain (soloEv (progN prog N) regs0 m0) mb Hs s)
    (hM : Memb s S) (hSz : Sized mb S) (h3 : Check3 s)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = joinE Hs)
    (hdp : DrainParts (soloEvB prog regs0 m0 N) Hs)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = []) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) :=
  have hf : FromAct (soloEvB prog regs0 m0 N) (joinE Hs) := by
    rw [← hsplit]; exact canonRunN_fromActB prog regs0 m0 N B F
  canonicalN_many_sound4 prog N B F regs0 m0 m1 R hind hR0 mb hpos hcnt ch hM hSz h3 hfin hsplit
    (manyOK_of_drain Hs hf hdp) hc hend

end KSem

/-! ## Example: `twoAct` (two clearings) through the general theorem -/

section Example

theorem appE_joinE1 {V : Type} (H : List (EventN V)) : joinE [H] = H := appE_nil H

/-- `twoAct`'s run in three parts is a `Chain` (`NamedSegments.lean`'s `two_cut1`, `two_cut2`,
the segments' member sets), the latest segment `restr (restr twoAct (postF twoC1)) (postF twoC2)`. -/
theorem two_chain : Chain twoAct twoM [twoP3, twoP2, twoP1]
    (restr (restr twoAct (postF twoC1)) (postF twoC2)) :=
  have hs : ∀ t i b wt, twoAct t i = Ev.arr b wt → wt = true := fun t i b wt ha => (two_arr ha).2
  have e2 : joinE [twoP2, twoP1] = appE twoP2 twoP1 := by
    show appE twoP2 (appE twoP1 []) = appE twoP2 twoP1
    rw [appE_nil twoP1]
  ⟨restr twoAct (postF twoC1), 0, 0, [0, 1], twoC2, twoE, twoSB,
    ⟨twoAct, 0, 0, [0, 1], twoC1, twoE, twoSA, rfl, two_cut1, two_membA, two_sizedA,
      check3_restr hs _, by rw [appE_joinE1]; exact two_cutP1,
      by rw [appE_joinE1]; exact two_leP1, rfl⟩,
    two_cut2, two_membB, two_sizedB, check3_restr (two_wait hs _) _,
    by rw [e2]; exact two_cutP2, by rw [e2]; exact two_leP2, rfl⟩

/-- **Not vacuous**: `twoAct`'s three parts meet `ManyReal` through `manyReal_k`. -/
theorem two_manyReal_k : ManyReal twoAct twoAct twoM [twoP3, twoP2, twoP1] :=
  have hs : ∀ t i b wt, twoAct t i = Ev.arr b wt → wt = true := fun t i b wt ha => (two_arr ha).2
  manyReal_k two_membC two_sizedA (check3_restr (two_wait hs _) _) _ two_chain

/-- Barriers fit for the example through `fits_chain`. -/
theorem two_fits_k : Fits twoAct twoM :=
  have hs : ∀ t i b wt, twoAct t i = Ev.arr b wt → wt = true := fun t i b wt ha => (two_arr ha).2
  fits_chain _ _ two_chain (fits_once _ twoM twoSA two_membC two_sizedA (check3_restr (two_wait hs _) _))

/-- Thread 1 of `twoAct` has no action after its three arrivals. -/
theorem two_t1_loc (i : Nat) : twoAct 1 (3 + i) = Ev.loc := by
  rw [Nat.add_comm]; rfl

/-- **Check (2) per part holds on the example** (`DrainParts`, evaluated with `drain2B`): so
`manyOK_of_drain` gives `ManyOK` without assuming it. -/
theorem two_drainParts : DrainParts twoAct [twoP3, twoP2, twoP1] :=
  have p1 : ∀ b, pendI twoP1 b = [] := fun b => match b with
    | 0 => rfl
    | 1 => rfl
    | b + 2 => rfl
  have p2 : ∀ b, pendI twoP2 b = [] := fun b => match b with
    | 0 => rfl
    | 1 => rfl
    | b + 2 => rfl
  have p3 : ∀ b, pendI twoP3 b = [] := fun b => match b with
    | 0 => rfl
    | 1 => rfl
    | b + 2 => rfl
  have h01 : ∀ (H : List (EventN Nat)), 0 < nEv 0 H → 0 < nEv 1 H →
      ∀ (P : List (EventN Nat)) t i b w, shiftA twoAct P t i = Ev.arr b w → 0 < nEv t H :=
    fun H a0 a1 P t i b w ha => by
      have hm := (two_arr ha).1
      cases hm with
      | inl e => rw [← e]; exact a0
      | inr hm =>
        cases hm with
        | inl e => rw [← e]; exact a1
        | inr hm => exact False.elim hm
  ⟨⟨⟨trivial, fun _ => rfl, ⟨twoSA, drain2_of twoSA twoP1 rfl⟩, p1,
      h01 twoP1 (by decide) (by decide) _⟩,
    two_end1, ⟨twoSB, drain2_of twoSB twoP2 rfl⟩, p2, h01 twoP2 (by decide) (by decide) _⟩,
    two_end2, ⟨twoSA, drain2_of twoSA twoP3 rfl⟩, p3, fun t i b w ha => by
      have hm := (two_arr ha).1
      cases hm with
      | inl e => rw [← e]; decide
      | inr hm =>
        cases hm with
        | inl e =>
          rw [← e] at ha
          have e3 : shiftA twoAct (joinE [twoP2, twoP1]) 1 i = twoAct 1 (3 + i) := rfl
          rw [e3, two_t1_loc] at ha
          exact Ev.noConfusion ha
        | inr hm => exact False.elim hm⟩

/-- `ManyOK` of the example from check (2) per part (`manyOK_of_drain`). -/
theorem two_manyOK_drain (hf : FromAct twoAct (joinE [twoP3, twoP2, twoP1])) :
    ManyOK twoAct [twoP3, twoP2, twoP1] :=
  manyOK_of_drain _ hf two_drainParts

end Example

section ManyOKOne

variable {V : Type}

/-- **`ManyOK` of a run with one clearing from check (2)** (`kthInst_first`, `kthInst_last`):
the run `appE H2 H1` follows the actions and covers every arrival, `H1` holds each member's
actions up to the cut and none past it, each part passes check (2) (`Drain2 S1 H1`,
`Drain2 S2 H2`) and leaves nothing pending. -/
theorem manyOK_two {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat}
    {S1 S2 : Nat → List Nat} {H1 H2 : List (EventN V)} (hf : FromAct act (appE H2 H1))
    (hcov : Covers act (appE H2 H1)) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → c u < nEv u H1) (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = [])
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = []) : ManyOK act [H2, H1] := by
  have e := appE_joinE1 H1
  have k1 := kthInst_first (fromAct_appE_tail H1 H2 hf) hn hall hcut hd1 hend1
  have k2 : KthInst (shiftA act H1) H2 := kthInst_last hf hcov hd2 hend2
  refine ⟨⟨trivial, fun _ => rfl, k1⟩, ?_, ?_⟩
  · rw [e]; exact hend1
  · rw [e]; exact k2

end ManyOKOne

end Members
end Kcert
