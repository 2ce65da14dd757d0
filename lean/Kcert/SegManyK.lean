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

end K

end Members
end Kcert
