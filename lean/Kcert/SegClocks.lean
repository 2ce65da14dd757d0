import Kcert.NamedSegments

/-!
# Named barriers across the clearing, from the executor's clocks

`NamedSegments.lean` proves race freedom across one clearing of the members record under
`SegOrdered` (happens-before across the clearing, `SegHB`, orders every two conflicting solo
actions).  This file derives `SegOrdered` from the executor's run (`canonRunN`) and its race
check (`checkN noSameN`), as `canonN_ordered_drain` (`ScheduleNamed.lean`) does for one member
set per id.

The executor's clocks run over the whole history (they do not reset at the clearing), so the
link `hb_link` (`OnceLink.lean`) is generalized from `Members.HB act` to the chains `TC E` of any
edge relation `E` containing program order, under `KthE act E` (every completion joins its
drained arrivals by `E`-edges): `lInvE_run`, `hb_linkE`.  With `E` the edges of the two segment
programs (`SE act c`: an edge of `restr act (preF c)` or of `restr act (postF c)`), the run split
at the clearing (`appE H2 H1`) satisfies `KthE` (`kthE_pre` on `H1`, `kthE_post` on `H2` with
the pending lists shifted, `pendI_app`), and chains of segment edges between different threads
are `SegHB` (`segHB_of_tc`).  `canonN_segOrdered`: the executor's run, split at the clearing,
with check (2) on each part and no race report gives `SegOrdered`.  `cut_of_exec`: `Cut`'s
executor conditions from the run.  `check3_pre_rust`, `check3_post_rust`, `segs_of_exec_rust`:
`Check3` of both segments from the Rust's check (3) over the whole history.
`canonicalN_segs_sound`: the four conclusions across one clearing from the run alone.
`canonN_counts_segs`: one count per id from the count check.  `canonicalN_clear_sound`: the
same with the cut, the members and the instance number read off the run (`member_last`).
-/

namespace Kcert
namespace Members

open Race (EventN hbRun brun NotBlocked lenL takeL dropL Rel2 In snocL)

/-- Chains of `E`-edges. -/
inductive TC (E : Nat × Nat → Nat × Nat → Prop) : Nat × Nat → Nat × Nat → Prop
  | edge {p q : Nat × Nat} : E p q → TC E p q
  | step {p q r : Nat × Nat} : TC E p q → E q r → TC E p r

theorem tc_trans {E : Nat × Nat → Nat × Nat → Prop} {p q : Nat × Nat} (h1 : TC E p q) :
    ∀ {r : Nat × Nat}, TC E q r → TC E p r := by
  intro r h2
  induction h2 with
  | edge e => exact TC.step h1 e
  | step _ e ih => exact TC.step (ih h1) e

section LinkE

variable {V : Type}

/-- Every completion of the history joins its drained arrivals by `E`-edges: from any drained
arrival to the step after any drained waiting arrival. -/
def KthE (act : Nat → Nat → Ev) (E : Nat × Nat → Nat × Nat → Prop) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => KthE act E h
  | EventN.bar _ _ _ :: h => KthE act E h
  | EventN.complete b m :: h => KthE act E h ∧ ∀ p q, In p (takeL m (pendI h b)) →
      In q (takeL m (pendI h b)) → ∀ w, act q.1 q.2 = Ev.arr b w → act p.1 p.2 = Ev.arr b true →
      q.2 < nEv q.1 h → p.2 < nEv p.1 h → E q (p.1, p.2 + 1)

theorem kthE_tail {act : Nat → Nat → Ev} {E : Nat × Nat → Nat × Nat → Prop} (e : EventN V)
    (l : List (EventN V)) (h : KthE act E (e :: l)) : KthE act E l := by
  cases e with
  | act t A => exact h
  | bar t b w => exact h
  | complete b m => exact h.1

/-- Reflexive chains. -/
def TCe (E : Nat × Nat → Nat × Nat → Prop) (p q : Nat × Nat) : Prop := p = q ∨ TC E p q

theorem tce_edge {E : Nat × Nat → Nat × Nat → Prop} {p q r : Nat × Nat} (h1 : TCe E p q)
    (h2 : E q r) : TC E p r := by
  cases h1 with
  | inl e => rw [e]; exact TC.edge h2
  | inr h => exact TC.step h h2

/-- What a pending happens-before arrival `x` stands for (`PendOK` with `TC E`). -/
def PendOKE (act : Nat → Nat → Ev) (E : Nat × Nat → Nat × Nat → Prop) (h : List (EventN V))
    (b : Nat) (p : Nat × Nat) (x : Race.HArr) : Prop :=
  x.tid = p.1 ∧ act p.1 p.2 = Ev.arr b x.wait ∧ p.2 < nEv p.1 h ∧
  (x.wait = true → nEv p.1 h = p.2 + 1) ∧
  ∀ k, x.know k → ∃ u i, PosAt h k u i ∧ TCe E (u, i) p

/-- The invariant (`LInv` with `TC E`). -/
def LInvE (act : Nat → Nat → Ev) (E : Nat × Nat → Nat × Nat → Prop) (h : List (EventN V)) :
    Prop :=
  (∀ j k, (hbRun h).know j k → ∃ u i, PosAt h k u i ∧ TC E (u, i) (j, nEv j h)) ∧
  (∀ b, Rel2 (PendOKE act E h b) (pendI h b) ((hbRun h).pend b))

theorem know_stepE {E : Nat × Nat → Nat × Nat → Prop} (hpo : ∀ t i, E (t, i) (t, i + 1))
    {h : List (EventN V)} {e : EventN V} {t : Nat}
    (hI1 : ∀ j k, (hbRun h).know j k → ∃ u i, PosAt h k u i ∧ TC E (u, i) (j, nEv j h))
    (hact : Race.Actor e t) (hself : nEv t (e :: h) = nEv t h + 1)
    (hoth : ∀ j, ¬ j = t → nEv j (e :: h) = nEv j h) :
    ∀ j k, ((j = t ∧ k = lenL h) ∨ (hbRun h).know j k) →
      ∃ u i, PosAt (e :: h) k u i ∧ TC E (u, i) (j, nEv j (e :: h)) := by
  intro j k hk
  cases hk with
  | inl hk =>
    rw [hk.1]
    refine ⟨t, nEv t h, Or.inl ⟨hk.2, hact, rfl⟩, ?_⟩
    rw [hself]
    exact TC.edge (hpo t (nEv t h))
  | inr hk =>
    match hI1 j k hk with
    | ⟨u, i, hp, hb⟩ =>
      refine ⟨u, i, Or.inr hp, ?_⟩
      cases Nat.decEq j t with
      | isTrue ej =>
        rw [ej, hself]
        rw [ej] at hb
        exact TC.step hb (hpo t (nEv t h))
      | isFalse ej =>
        rw [hoth j ej]
        exact hb

theorem pendOKE_actor {act : Nat → Nat → Ev} {E : Nat × Nat → Nat × Nat → Prop}
    {h : List (EventN V)} {e : EventN V} {t b : Nat} {p : Nat × Nat} {x : Race.HArr}
    (hoth : ∀ j, ¬ j = t → nEv j (e :: h) = nEv j h)
    (hnb : x.wait = true → ¬ x.tid = t) (ok : PendOKE act E h b p x) :
    PendOKE act E (e :: h) b p x := by
  refine ⟨ok.1, ok.2.1, Nat.ltOfLtOfLe ok.2.2.1 (nEv_le p.1 e h), fun hw => ?_,
    fun k hk => match ok.2.2.2.2 k hk with
      | ⟨u, i, hp, hb⟩ => ⟨u, i, Or.inr hp, hb⟩⟩
  have ne : ¬ p.1 = t := by rw [← ok.1]; exact hnb hw
  rw [hoth p.1 ne]
  exact ok.2.2.2.1 hw

theorem pendOKE_complete {act : Nat → Nat → Ev} {E : Nat × Nat → Nat × Nat → Prop}
    {h : List (EventN V)} {b' m b : Nat} {p : Nat × Nat} {x : Race.HArr}
    (ok : PendOKE act E h b p x) : PendOKE act E (EventN.complete b' m :: h) b p x :=
  ⟨ok.1, ok.2.1, ok.2.2.1, ok.2.2.2.1, fun k hk => match ok.2.2.2.2 k hk with
      | ⟨u, i, hp, hb⟩ => ⟨u, i, Or.inr hp, hb⟩⟩

/-- **The invariant along every history of the executor** that follows `act`, where blocked
threads do nothing and every completion joins its arrivals by `E`-edges (`lInv_run` with
`TC E` for `HB act`). -/
theorem lInvE_run {act : Nat → Nat → Ev} {E : Nat × Nat → Nat × Nat → Prop}
    (hpo : ∀ t i, E (t, i) (t, i + 1)) {N : Nat} : ∀ (h : List (EventN V)), FromAct act h →
    NotBlocked N h → KthE act E h → LInvE act E h
  | [], _, _, _ => ⟨fun j k hk => False.elim hk, fun b => trivial⟩
  | EventN.act t A :: h, hf, hw, hk => by
    have hI := lInvE_run hpo h hf.1 hw.1 hk
    have hC := Race.cInv_run (N := N) hw.1
    have hself : nEv t (EventN.act t A :: h) = nEv t h + 1 := by
      show (if t = t then nEv t h + 1 else nEv t h) = _
      rw [if_pos' rfl]
    have hoth : ∀ j, ¬ j = t → nEv j (EventN.act t A :: h) = nEv j h := by
      intro j ej
      show (if t = j then nEv j h + 1 else nEv j h) = _
      rw [if_neg' (fun e => ej (Eq.symm e))]
    refine ⟨know_stepE hpo hI.1 (rfl : Race.Actor (EventN.act t A) t) hself hoth, fun b => ?_⟩
    show Rel2 (PendOKE act E (EventN.act t A :: h) b) (pendI h b) ((hbRun h).pend b)
    refine Race.rel2_memR (fun p x hx ok => pendOKE_actor hoth ?_ ok) (hI.2 b)
    intro hwx hxt
    have hbl := blocked_of_pend hC hx hwx
    rw [hxt] at hbl
    exact hw.2 t rfl hbl
  | EventN.bar t b w :: h, hf, hw, hk => by
    have hI := lInvE_run hpo h hf.1 hw.1 hk
    have hC := Race.cInv_run (N := N) hw.1
    have hself : nEv t (EventN.bar t b w :: h) = nEv t h + 1 := by
      show (if t = t then nEv t h + 1 else nEv t h) = _
      rw [if_pos' rfl]
    have hoth : ∀ j, ¬ j = t → nEv j (EventN.bar t b w :: h) = nEv j h := by
      intro j ej
      show (if t = j then nEv j h + 1 else nEv j h) = _
      rw [if_neg' (fun e => ej (Eq.symm e))]
    refine ⟨know_stepE hpo hI.1 (rfl : Race.Actor (EventN.bar t b w) t) hself hoth, fun b' => ?_⟩
    have mono : ∀ b'', ∀ (p : Nat × Nat) (x : Race.HArr), In x ((hbRun h).pend b'') →
        PendOKE act E h b'' p x → PendOKE act E (EventN.bar t b w :: h) b'' p x := by
      intro b'' p x hx ok
      refine pendOKE_actor hoth ?_ ok
      intro hwx hxt
      have hbl := blocked_of_pend hC hx hwx
      rw [hxt] at hbl
      exact hw.2 t rfl hbl
    have new : PendOKE act E (EventN.bar t b w :: h) b (t, nEv t h)
        ⟨t, w, fun k => k = lenL h ∨ (hbRun h).know t k⟩ := by
      refine ⟨rfl, hf.2, ?_, fun _ => hself, fun k hk' => ?_⟩
      · show nEv t h < nEv t (EventN.bar t b w :: h)
        rw [hself]; exact Nat.ltSuccSelf _
      · cases hk' with
        | inl e => exact ⟨t, nEv t h, Or.inl ⟨e, rfl, rfl⟩, Or.inl rfl⟩
        | inr hk' =>
          match hI.1 t k hk' with
          | ⟨u, i, hp, hb⟩ => exact ⟨u, i, Or.inr hp, Or.inr hb⟩
    show Rel2 (PendOKE act E (EventN.bar t b w :: h) b')
      (Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) b')
      (Sem.upd (hbRun h).pend b (snocL ((hbRun h).pend b)
        ⟨t, w, fun k => k = lenL h ∨ (hbRun h).know t k⟩) b')
    cases Nat.decEq b' b with
    | isTrue eb =>
      rw [eb, Race.upd_same, Race.upd_same]
      exact Race.rel2_snoc new (Race.rel2_memR (mono b) (hI.2 b))
    | isFalse eb =>
      rw [Race.upd_other _ _ eb, Race.upd_other _ _ eb]
      exact Race.rel2_memR (mono b') (hI.2 b')
  | EventN.complete b m :: h, hf, hw, hk => by
    have hI := lInvE_run hpo h hf hw.1 hk.1
    refine ⟨fun j k hjk => ?_, fun b' => ?_⟩
    · cases hjk with
      | inl hjk =>
        match hI.1 j k hjk with
        | ⟨u, i, hp, hb⟩ => exact ⟨u, i, Or.inr hp, hb⟩
      | inr hjk =>
        have hR := Race.rel2_take m (hI.2 b)
        match hjk with
        | ⟨⟨y, hy, hyt, hyw⟩, x, hx, hxk⟩ =>
          match Race.rel2_inR hR hy, Race.rel2_inR hR hx with
          | ⟨(p1, p2), hp, okp⟩, ⟨(q1, q2), hq, okq⟩ =>
            match okq.2.2.2.2 k hxk with
            | ⟨u, i, hpos, hbe⟩ =>
              refine ⟨u, i, Or.inr hpos, ?_⟩
              have hpw : act p1 p2 = Ev.arr b true := by rw [← hyw]; exact okp.2.1
              have ed : E (q1, q2) (p1, p2 + 1) :=
                hk.2 (p1, p2) (q1, q2) hp hq x.wait okq.2.1 hpw okq.2.2.1 okp.2.2.1
              have e1 : p1 = j := by rw [← hyt]; exact Eq.symm okp.1
              have e2 : nEv p1 h = p2 + 1 := okp.2.2.2.1 hyw
              show TC E (u, i) (j, nEv j h)
              rw [← e1, e2]
              exact tce_edge hbe ed
    · show Rel2 (PendOKE act E (EventN.complete b m :: h) b')
        (Sem.upd (pendI h) b (dropL m (pendI h b)) b')
        (Sem.upd (hbRun h).pend b (dropL m ((hbRun h).pend b)) b')
      cases Nat.decEq b' b with
      | isTrue eb =>
        rw [eb, Race.upd_same, Race.upd_same]
        exact Race.rel2_drop m (Race.rel2_mono (fun p x _ ok => pendOKE_complete ok) (hI.2 b))
      | isFalse eb =>
        rw [Race.upd_other _ _ eb, Race.upd_other _ _ eb]
        exact Race.rel2_mono (fun p x _ ok => pendOKE_complete ok) (hI.2 b')

/-- **The link with any edge relation**: `hb_link` with `TC E` for `Members.HB act`. -/
theorem hb_linkE {act : Nat → Nat → Ev} {E : Nat × Nat → Nat × Nat → Prop}
    (hpo : ∀ t i, E (t, i) (t, i + 1)) {N : Nat} {h : List (EventN V)} (hf : FromAct act h)
    (hw : NotBlocked N h) (hk : KthE act E h) {k j : Nat} (hb : Race.HB h k j) :
    ∃ u i, PosAt h k u i ∧ TC E (u, i) (j, nEv j h) :=
  (lInvE_run hpo (N := N) h hf hw hk).1 j k hb

end LinkE

/-! ## Chains of segment edges are happens-before across the clearing -/

/-- An edge of the segment up to the cut or of the segment after it. -/
def SE (act : Nat → Nat → Ev) (c : Nat → Nat) (p q : Nat × Nat) : Prop :=
  Edge (restr act (preF c)) p q ∨ Edge (restr act (postF c)) p q

theorem se_po (act : Nat → Nat → Ev) (c : Nat → Nat) (t i : Nat) : SE act c (t, i) (t, i + 1) :=
  Or.inl (Edge.po t i)

theorem le_of_preF {c : Nat → Nat} {t i : Nat} (h : preF c t i = true) : i ≤ c t :=
  of_decide_eq_true' h

theorem lt_of_postF {c : Nat → Nat} {t i : Nat} (h : postF c t i = true) : c t < i := by
  cases Nat.ltOrGe (c t) i with
  | inl r => exact r
  | inr r => rw [postF_before c r] at h; exact Bool.noConfusion h

/-- Program order is happens-before in any sequences. -/
theorem hb_po (act : Nat → Nat → Ev) (t i : Nat) : ∀ d, HB act (t, i) (t, i + d + 1)
  | 0 => HB.edge (Edge.po t i)
  | d + 1 => HB.step (hb_po act t i d) (Edge.po t (i + d + 1))

theorem hb_po_lt (act : Nat → Nat → Ev) {t i j : Nat} (h : i < j) : HB act (t, i) (t, j) :=
  match Nat.le.dest h with
  | ⟨d, e⟩ => by
    have e' : j = i + d + 1 := by
      rw [← e, Nat.add_assoc, Nat.add_comm d 1, ← Nat.add_assoc]
    rw [e']; exact hb_po act t i d

/-- The invariant of a chain of segment edges from `(a, d)` to `q`: same thread and later, or
two members related inside the segment up to the cut, inside the segment after it, or across
the cut. -/
def SQ (act : Nat → Nat → Ev) (SW : List Nat) (c : Nat → Nat) (p q : Nat × Nat) : Prop :=
  (p.1 = q.1 ∧ p.2 < q.2) ∨ (Mem p.1 SW ∧ Mem q.1 SW ∧
    ((p.2 ≤ c p.1 ∧ q.2 ≤ c q.1 ∧ HB (restr act (preF c)) p q) ∨
     (c p.1 < p.2 ∧ c q.1 < q.2 ∧ HB (restr act (postF c)) p q) ∨
     (p.2 ≤ c p.1 ∧ c q.1 < q.2)))

theorem sq_base {act : Nat → Nat → Ev} {SW : List Nat} {c : Nat → Nat}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {p r : Nat × Nat}
    (he : SE act c p r) : SQ act SW c p r := by
  cases he with
  | inl he =>
    cases he with
    | po t i => exact Or.inl ⟨rfl, Nat.ltSuccSelf i⟩
    | bar x i y j b wx hx hy hac =>
      match restr_arr hx, restr_arr hy with
      | ⟨fx, ax⟩, ⟨fy, ay⟩ =>
        refine Or.inr ⟨hall x i b wx ax, hall y j b true ay, ?_⟩
        cases Nat.decLe (j + 1) (c y) with
        | isTrue hj =>
          exact Or.inl ⟨le_of_preF fx, hj, HB.edge (Edge.bar x i y j b wx hx hy hac)⟩
        | isFalse hj =>
          exact Or.inr (Or.inr ⟨le_of_preF fx, Nat.gtOfNotLe hj⟩)
  | inr he =>
    cases he with
    | po t i => exact Or.inl ⟨rfl, Nat.ltSuccSelf i⟩
    | bar x i y j b wx hx hy hac =>
      match restr_arr hx, restr_arr hy with
      | ⟨fx, ax⟩, ⟨fy, ay⟩ =>
        refine Or.inr ⟨hall x i b wx ax, hall y j b true ay, Or.inr (Or.inl
          ⟨lt_of_postF fx, Nat.ltTrans (lt_of_postF fy) (Nat.ltSuccSelf j),
            HB.edge (Edge.bar x i y j b wx hx hy hac)⟩)⟩

theorem sq_edge {act : Nat → Nat → Ev} {SW : List Nat} {c : Nat → Nat}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {q r : Nat × Nat}
    (he : SE act c q r) : ∀ a d, SQ act SW c (a, d) q → SQ act SW c (a, d) r := by
  intro a d hq
  cases he with
  | inl he =>
    cases he with
    | po t i =>
      cases hq with
      | inl hs => exact Or.inl ⟨hs.1, Nat.ltTrans hs.2 (Nat.ltSuccSelf i)⟩
      | inr hm =>
        refine Or.inr ⟨hm.1, hm.2.1, ?_⟩
        cases hm.2.2 with
        | inl h1 =>
          cases Nat.decLe (i + 1) (c t) with
          | isTrue hj => exact Or.inl ⟨h1.1, hj, HB.step h1.2.2 (Edge.po t i)⟩
          | isFalse hj => exact Or.inr (Or.inr ⟨h1.1, Nat.gtOfNotLe hj⟩)
        | inr h2 =>
          cases h2 with
          | inl h2 =>
            exact Or.inr (Or.inl ⟨h2.1, Nat.ltTrans h2.2.1 (Nat.ltSuccSelf i),
              HB.step h2.2.2 (Edge.po t i)⟩)
          | inr h3 => exact Or.inr (Or.inr ⟨h3.1, Nat.ltTrans h3.2 (Nat.ltSuccSelf i)⟩)
    | bar x i y j b wx hx hy hac =>
      match restr_arr hx, restr_arr hy with
      | ⟨fx, ax⟩, ⟨fy, ay⟩ =>
        have ix : i ≤ c x := le_of_preF fx
        have ed : Edge (restr act (preF c)) (x, i) (y, j + 1) := Edge.bar x i y j b wx hx hy hac
        cases hq with
        | inl hs =>
          have ea : a = x := hs.1
          have hd : d < i := hs.2
          rw [ea]
          have mx := hall x i b wx ax
          refine Or.inr ⟨mx, hall y j b true ay, ?_⟩
          have dx : d ≤ c x := Nat.leTrans (Nat.leOfLt hd) ix
          cases Nat.decLe (j + 1) (c y) with
          | isTrue hj => exact Or.inl ⟨dx, hj, HB.step (hb_po_lt _ hd) ed⟩
          | isFalse hj => exact Or.inr (Or.inr ⟨dx, Nat.gtOfNotLe hj⟩)
        | inr hm =>
          refine Or.inr ⟨hm.1, hall y j b true ay, ?_⟩
          cases hm.2.2 with
          | inl h1 =>
            cases Nat.decLe (j + 1) (c y) with
            | isTrue hj => exact Or.inl ⟨h1.1, hj, HB.step h1.2.2 ed⟩
            | isFalse hj => exact Or.inr (Or.inr ⟨h1.1, Nat.gtOfNotLe hj⟩)
          | inr h2 =>
            cases h2 with
            | inl h2 => exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLeOfLt ix h2.2.1))
            | inr h3 => exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLeOfLt ix h3.2))
  | inr he =>
    cases he with
    | po t i =>
      cases hq with
      | inl hs => exact Or.inl ⟨hs.1, Nat.ltTrans hs.2 (Nat.ltSuccSelf i)⟩
      | inr hm =>
        refine Or.inr ⟨hm.1, hm.2.1, ?_⟩
        cases hm.2.2 with
        | inl h1 =>
          cases Nat.decLe (i + 1) (c t) with
          | isTrue hj =>
            exact Or.inl ⟨h1.1, hj, HB.step h1.2.2 (Edge.po t i)⟩
          | isFalse hj => exact Or.inr (Or.inr ⟨h1.1, Nat.gtOfNotLe hj⟩)
        | inr h2 =>
          cases h2 with
          | inl h2 =>
            exact Or.inr (Or.inl ⟨h2.1, Nat.ltTrans h2.2.1 (Nat.ltSuccSelf i),
              HB.step h2.2.2 (Edge.po t i)⟩)
          | inr h3 => exact Or.inr (Or.inr ⟨h3.1, Nat.ltTrans h3.2 (Nat.ltSuccSelf i)⟩)
    | bar x i y j b wx hx hy hac =>
      match restr_arr hx, restr_arr hy with
      | ⟨fx, ax⟩, ⟨fy, ay⟩ =>
        have ix : c x < i := lt_of_postF fx
        have jy : c y < j + 1 := Nat.ltTrans (lt_of_postF fy) (Nat.ltSuccSelf j)
        have ed : Edge (restr act (postF c)) (x, i) (y, j + 1) := Edge.bar x i y j b wx hx hy hac
        cases hq with
        | inl hs =>
          have ea : a = x := hs.1
          have hd : d < i := hs.2
          rw [ea]
          refine Or.inr ⟨hall x i b wx ax, hall y j b true ay, ?_⟩
          cases Nat.decLe d (c x) with
          | isTrue dx => exact Or.inr (Or.inr ⟨dx, jy⟩)
          | isFalse dx =>
            exact Or.inr (Or.inl ⟨Nat.gtOfNotLe dx, jy, HB.step (hb_po_lt _ hd) ed⟩)
        | inr hm =>
          refine Or.inr ⟨hm.1, hall y j b true ay, ?_⟩
          cases hm.2.2 with
          | inl h1 => exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLeOfLt h1.2.1 ix))
          | inr h2 =>
            cases h2 with
            | inl h2 => exact Or.inr (Or.inl ⟨h2.1, jy, HB.step h2.2.2 ed⟩)
            | inr h3 => exact Or.inr (Or.inr ⟨h3.1, jy⟩)

theorem sq_edge' {act : Nat → Nat → Ev} {SW : List Nat} {c : Nat → Nat}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {q r : Nat × Nat}
    (he : SE act c q r) : ∀ p, SQ act SW c p q → SQ act SW c p r
  | (a, d), hq => sq_edge hall he a d hq

theorem sq_of_tc {act : Nat → Nat → Ev} {SW : List Nat} {c : Nat → Nat}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {p q : Nat × Nat}
    (h : TC (SE act c) p q) : SQ act SW c p q := by
  induction h with
  | edge e => exact sq_base hall e
  | step _ e ih => exact sq_edge' hall e _ ih

/-- **Chains of segment edges between two threads are happens-before across the clearing.** -/
theorem segHB_of_tc {act : Nat → Nat → Ev} {SW : List Nat} {c : Nat → Nat}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {a d y j : Nat}
    (h : TC (SE act c) (a, d) (y, j)) (hne : ¬ a = y) : SegHB act SW c (a, d) (y, j) := by
  cases sq_of_tc hall h with
  | inl hs => exact False.elim (hne hs.1)
  | inr hm =>
    cases hm.2.2 with
    | inl h1 => exact Or.inl h1.2.2
    | inr h2 =>
      cases h2 with
      | inl h2 => exact Or.inr (Or.inl h2.2.2)
      | inr h3 => exact Or.inr (Or.inr ⟨hm.1, hm.2.1, h3.1, h3.2⟩)

/-! ## The executor's run split at the clearing joins its instances by segment edges -/

section KthSplit

variable {V : Type}

/-- Segment up to the cut: check (2)'s `KthInst` of `restr act (preF c)` on `H1`. -/
theorem kthE_pre {act : Nat → Nat → Ev} {c : Nat → Nat} :
    ∀ (H : List (EventN V)), KthInst (restr act (preF c)) H → (∀ t, nEv t H ≤ c t + 1) →
      KthE act (SE act c) H
  | [], _, _ => trivial
  | EventN.act t A :: h, hk, hn =>
    kthE_pre h hk (fun u => Nat.leTrans (nEv_le u _ h) (hn u))
  | EventN.bar t b w :: h, hk, hn =>
    kthE_pre h hk (fun u => Nat.leTrans (nEv_le u _ h) (hn u))
  | EventN.complete b m :: h, hk, hn => by
    refine ⟨kthE_pre h hk.1 hn, ?_⟩
    intro p q hp hq w aq ap lq lp
    match p, q, hp, hq, aq, ap, lq, lp with
    | (p1, p2), (q1, q2), hp, hq, aq, ap, lq, lp =>
      have lq' : q2 + 1 ≤ c q1 + 1 := Nat.leTrans lq (hn q1)
      have lp' : p2 + 1 ≤ c p1 + 1 := Nat.leTrans lp (hn p1)
      have aq' : restr act (preF c) q1 q2 = Ev.arr b w := by
        rw [restr_true (preF_true lq')]; exact aq
      have ap' : restr act (preF c) p1 p2 = Ev.arr b true := by
        rw [restr_true (preF_true lp')]; exact ap
      exact Or.inl (Edge.bar q1 q2 p1 p2 b w aq' ap' (hk.2 (q1, q2) (p1, p2) hq hp))

/-- The pending arrivals after `H1`, as indices of the whole run. -/
def shL (H1 : List (EventN V)) : List (Nat × Nat) → List (Nat × Nat)
  | [] => []
  | p :: l => (p.1, nEv p.1 H1 + p.2) :: shL H1 l

theorem shL_snoc (H1 : List (EventN V)) (x : Nat × Nat) : ∀ (l : List (Nat × Nat)),
    shL H1 (snocL l x) = snocL (shL H1 l) (x.1, nEv x.1 H1 + x.2)
  | [] => rfl
  | p :: l => by
    show (p.1, nEv p.1 H1 + p.2) :: shL H1 (snocL l x) = (p.1, nEv p.1 H1 + p.2) :: snocL (shL H1 l) _
    rw [shL_snoc H1 x l]

theorem shL_drop (H1 : List (EventN V)) : ∀ (m : Nat) (l : List (Nat × Nat)),
    shL H1 (dropL m l) = dropL m (shL H1 l)
  | 0, l => rfl
  | m + 1, [] => rfl
  | m + 1, p :: l => shL_drop H1 m l

theorem shL_take (H1 : List (EventN V)) : ∀ (m : Nat) (l : List (Nat × Nat)),
    shL H1 (takeL m l) = takeL m (shL H1 l)
  | 0, l => rfl
  | m + 1, [] => rfl
  | m + 1, p :: l => by
    show (p.1, nEv p.1 H1 + p.2) :: shL H1 (takeL m l) = (p.1, nEv p.1 H1 + p.2) :: takeL m (shL H1 l)
    rw [shL_take H1 m l]

theorem in_shL {H1 : List (EventN V)} {y : Nat × Nat} : ∀ {l : List (Nat × Nat)},
    In y (shL H1 l) → ∃ x, In x l ∧ y = (x.1, nEv x.1 H1 + x.2)
  | [], h => False.elim h
  | p :: l, h => by
    cases h with
    | inl e => exact ⟨p, Or.inl rfl, e.symm⟩
    | inr h =>
      match in_shL h with
      | ⟨x, hx, e⟩ => exact ⟨x, Or.inr hx, e⟩

/-- After a clearing with nothing pending, the pending lists of the run are those of the part
after it, with each index shifted past the thread's events before it. -/
theorem pendI_app {H1 : List (EventN V)} (hend : ∀ b, pendI H1 b = []) :
    ∀ (H2 : List (EventN V)) (b : Nat), pendI (appE H2 H1) b = shL H1 (pendI H2 b)
  | [], b => by
    show pendI H1 b = []
    exact hend b
  | EventN.act t A :: h, b => pendI_app hend h b
  | EventN.bar t b' w :: h, b => by
    show Sem.upd (pendI (appE h H1)) b' (snocL (pendI (appE h H1) b') (t, nEv t (appE h H1))) b =
      shL H1 (Sem.upd (pendI h) b' (snocL (pendI h b') (t, nEv t h)) b)
    cases Nat.decEq b b' with
    | isTrue eb =>
      rw [eb, Race.upd_same, Race.upd_same, pendI_app hend h b', shL_snoc, nEv_app]
    | isFalse eb =>
      rw [Race.upd_other _ _ eb, Race.upd_other _ _ eb, pendI_app hend h b]
  | EventN.complete b' m :: h, b => by
    show Sem.upd (pendI (appE h H1)) b' (dropL m (pendI (appE h H1) b')) b =
      shL H1 (Sem.upd (pendI h) b' (dropL m (pendI h b')) b)
    cases Nat.decEq b b' with
    | isTrue eb =>
      rw [eb, Race.upd_same, Race.upd_same, pendI_app hend h b', shL_drop]
    | isFalse eb =>
      rw [Race.upd_other _ _ eb, Race.upd_other _ _ eb, pendI_app hend h b]

/-- Segment after the cut: check (2)'s `KthInst` of the shifted actions on `H2`. -/
theorem kthE_post {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {H1 : List (EventN V)}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hend : ∀ b, pendI H1 b = [])
    (h1 : KthE act (SE act c) H1) :
    ∀ (H2 : List (EventN V)), KthInst (shiftA act H1) H2 → KthE act (SE act c) (appE H2 H1)
  | [], _ => h1
  | EventN.act t A :: h, hk => kthE_post hall hcut hend h1 h hk
  | EventN.bar t b w :: h, hk => kthE_post hall hcut hend h1 h hk
  | EventN.complete b m :: h, hk => by
    refine ⟨kthE_post hall hcut hend h1 h hk.1, ?_⟩
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
      exact Or.inr (edge_shift hall hcut
        (Edge.bar q1 q2 p1 p2 b w aq' ap' (hk.2 (q1, q2) (p1, p2) hq' hp')))

end KthSplit

/-! ## `SegOrdered` from the executor's run and race check -/

section Ordered

variable {V : Type} [Sem.AccAdd V]

open Race (ActAt Seg UnorderedConflict ordered_iff_hb checkN checkN_sound noSameN sfx_total
  actAt_of_sfx seg_of_sfx posAt_of_sfx conflict_left conflict_right notUC_tail canonN_holds
  canonRunN_notBlocked canonRunN_fromActB canonN_covers FinishedN canonRunN soloEvB soloEvB_lt
  lt_of_soloEvB_arr)

/-- `ordered_side` with `TC E` for `Members.HB act`. -/
theorem ordered_sideE {N : Nat} {act : Nat → Nat → Ev} {E : Nat × Nat → Nat × Nat → Prop}
    (hpo : ∀ t i, E (t, i) (t, i + 1)) {H : List (EventN V)}
    (hf : FromAct act H) (hw : NotBlocked N H) (hk : KthE act E H) (hu : ¬ UnorderedConflict H)
    {x y : Nat} {A B : Sem.Act V} {h1 h2 : List (EventN V)} (hxy : ¬ x = y)
    (hcf : Sem.Conflict A B) (hs1 : Sfx (EventN.act x A :: h1) h2)
    (hs2 : Sfx (EventN.act y B :: h2) H) :
    TC E (x, nEv x h1) (y, nEv y h2) := by
  have hf2 : FromAct act h2 := fromAct_tail _ _ (sfx_pres fromAct_tail H _ hs2 hf)
  have hw2 : NotBlocked N h2 := notBlocked_tail _ _ (sfx_pres notBlocked_tail H _ hs2 hw)
  have hk2 : KthE act E h2 := kthE_tail _ _ (sfx_pres kthE_tail H _ hs2 hk)
  have hu2 : ¬ UnorderedConflict (EventN.act y B :: h2) :=
    sfx_pres (P := fun l => ¬ UnorderedConflict l) notUC_tail H _ hs2 hu
  have hact : ActAt h2 (lenL h1) x A := actAt_of_sfx hs1
  have hseg : Seg N h2 (lenL h1) x ((brun N h1).clocks.vc x x) :=
    seg_of_sfx N (rfl : Race.Actor (EventN.act x A) x) hs1
  have hpos : PosAt h2 (lenL h1) x (nEv x h1) :=
    posAt_of_sfx (rfl : Race.Actor (EventN.act x A) x) hs1
  have nn : ¬ ¬ Race.HB h2 (lenL h1) y :=
    fun hnb => hu2 (Or.inr ⟨x, A, lenL h1, hact, hxy, hcf, hnb⟩)
  have hiff := ordered_iff_hb hw2 hseg (j := y)
  have hhb : Race.HB h2 (lenL h1) y := by
    cases hord : (brun N h2).clocks.ordered ⟨x, (brun N h1).clocks.vc x x⟩ y with
    | true => exact hiff.1 hord
    | false =>
      apply False.elim
      apply nn
      intro hb
      have t := hiff.2 hb
      rw [hord] at t
      cases t
  match hb_linkE hpo hf2 hw2 hk2 hhb with
  | ⟨u, i, hp, hb⟩ =>
    have e := posAt_fun hp hpos
    rw [e.1, e.2] at hb
    exact hb

/-- Edges of sequences that agree with another on every thread that arrives anywhere. -/
theorem edge_thr {a1 a2 : Nat → Nat → Ev}
    (ht : ∀ t i b w, a1 t i = Ev.arr b w → ∀ k, a1 t k = a2 t k) {p q : Nat × Nat}
    (h : Edge a1 p q) : Edge a2 p q := by
  cases h with
  | po t i => exact Edge.po t i
  | bar x i y j b wx hx hy hac =>
    have ex := ht x i b wx hx
    have ey := ht y j b true hy
    have acx : ∀ k, ac a1 b x k = ac a2 b x k := by
      intro k
      induction k with
      | zero => rfl
      | succ k ih =>
        show cond (arrAt b (a1 x k)) (ac a1 b x k + 1) (ac a1 b x k) =
          cond (arrAt b (a2 x k)) (ac a2 b x k + 1) (ac a2 b x k)
        rw [ex k, ih]
    have acy : ∀ k, ac a1 b y k = ac a2 b y k := by
      intro k
      induction k with
      | zero => rfl
      | succ k ih =>
        show cond (arrAt b (a1 y k)) (ac a1 b y k + 1) (ac a1 b y k) =
          cond (arrAt b (a2 y k)) (ac a2 b y k + 1) (ac a2 b y k)
        rw [ey k, ih]
    rw [ex i] at hx
    rw [ey j] at hy
    rw [acx i, acy j] at hac
    exact Edge.bar x i y j b wx hx hy hac

theorem hb_thr {a1 a2 : Nat → Nat → Ev}
    (ht : ∀ t i b w, a1 t i = Ev.arr b w → ∀ k, a1 t k = a2 t k) {p q : Nat × Nat}
    (h : HB a1 p q) : HB a2 p q := by
  induction h with
  | edge e => exact HB.edge (edge_thr ht e)
  | step _ e ih => exact HB.step ih (edge_thr ht e)

theorem restrB_thr {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    (f : Nat → Nat → Bool) : ∀ t i b w, restr (soloEvB prog regs0 m0 N) f t i = Ev.arr b w →
      ∀ k, restr (soloEvB prog regs0 m0 N) f t k = restr (soloEv prog regs0 m0) f t k := by
  intro t i b w ha k
  have ht : t < N := lt_of_soloEvB_arr (restr_arr ha).2
  show cond (f t k) (soloEvB prog regs0 m0 N t k) Ev.loc = cond (f t k) (soloEv prog regs0 m0 t k) Ev.loc
  rw [soloEvB_lt ht]

/-- Happens-before across the clearing over the threads below `N` is happens-before across the
clearing over all threads. -/
theorem segHB_of_soloEvB {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {SW : List Nat} {c : Nat → Nat} {p q : Nat × Nat}
    (h : SegHB (soloEvB prog regs0 m0 N) SW c p q) : SegHB (soloEv prog regs0 m0) SW c p q := by
  cases h with
  | inl h => exact Or.inl (hb_thr (restrB_thr (preF c)) h)
  | inr h =>
    cases h with
    | inl h => exact Or.inr (Or.inl (hb_thr (restrB_thr (postF c)) h))
    | inr h => exact Or.inr (Or.inr h)

theorem hallB {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat}
    {SW : List Nat} (hall : ∀ u i b' wt, soloEv prog regs0 m0 u i = Ev.arr b' wt → Mem u SW) :
    ∀ u i b' wt, soloEvB prog regs0 m0 N u i = Ev.arr b' wt → Mem u SW := by
  intro u i b' wt ha
  have hu := lt_of_soloEvB_arr ha
  rw [soloEvB_lt hu] at ha
  exact hall u i b' wt ha

/-- **The executor's run split at the clearing joins its instances by segment edges**: if the
run finished and its history is `appE H2 H1` (`H1` up to the completion of the whole-CTA
instance, holding each member's actions up to its cut and nothing past it), check (2) holds
with `S1` on `H1` and with `S2` on `H2`, and nothing is pending at the clearing nor at the end,
every completion of the run joins its drained arrivals by an edge of the segment up to the cut
(completions in `H1`) or of the segment after it (completions in `H2`). -/
theorem canonN_kthE {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N B F : Nat}
    {SW : List Nat} {c : Nat → Nat} {S1 S2 : Nat → List Nat} {H1 H2 : List (EventN V)}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = appE H2 H1)
    (hB : ∀ u i b' wt, soloEvB prog regs0 m0 N u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = [])
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = []) :
    KthE (soloEvB prog regs0 m0 N) (SE (soloEvB prog regs0 m0 N) c)
      (canonRunN prog regs0 m0 N B F) := by
  have hf : FromAct (soloEvB prog regs0 m0 N) (appE H2 H1) := by
    rw [← hsplit]; exact canonRunN_fromActB prog regs0 m0 N B F
  have hcov : Covers (soloEvB prog regs0 m0 N) (appE H2 H1) := by
    rw [← hsplit]; exact canonN_covers hfin
  have hf1 := fromAct_appE_tail H1 H2 hf
  have hlt : ∀ u, Mem u SW → c u < nEv u H1 := by
    intro u hu; rw [hcut u hu]; exact Nat.ltSuccSelf _
  have hM1 := memb_pre hf1 hn hB hlt hd1 hend1
  have k1 := kthInst_of_drain hM1 (fromAct_pre H1 hf1 hn) hd1
  have hM2 : Memb (shiftA (soloEvB prog regs0 m0 N) H1) S2 :=
    memb_of_drain (fromAct_shift H1 H2 hf) hd2 (covers_shift hcov) hend2
  have k2 := kthInst_of_drain hM2 (fromAct_shift H1 H2 hf) hd2
  rw [hsplit]
  exact kthE_post hB hcut hend1 (kthE_pre H1 k1 hn) H2 k2

/-- **Conflicting solo actions are ordered by happens-before across the clearing, from the
executor's run** (over the threads below `N`, `soloEvB`): see `canonN_segOrdered`. -/
theorem canonN_segOrderedB {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {SW : List Nat} {c : Nat → Nat} {S1 S2 : Nat → List Nat}
    {H1 H2 : List (EventN V)}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = appE H2 H1)
    (hB : ∀ u i b' wt, soloEvB prog regs0 m0 N u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = [])
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = [])
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    {x y i j : Nat} (hx : x < N) (hy : y < N) (hxy : ¬ x = y)
    (hcf : Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j)) :
    SegHB (soloEvB prog regs0 m0 N) SW c (x, i) (y, j) ∨
      SegHB (soloEvB prog regs0 m0 N) SW c (y, j) (x, i) := by
  have hw := canonRunN_notBlocked prog regs0 m0 N B F
  have hf := canonRunN_fromActB prog regs0 m0 N B F
  have hk := canonN_kthE hfin hsplit hB hcut hn hd1 hend1 hd2 hend2
  have hu := checkN_sound hw hc
  have hpo := se_po (soloEvB prog regs0 m0 N) c
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
      | inr s =>
        exact Or.inl (segHB_of_tc hB (ordered_sideE hpo hf hw hk hu hxy hcf s hs2) hxy)
    | inr s21 =>
      cases s21 with
      | inl e => exact False.elim (hxy (Race.EventN.act.inj (List.cons.inj e).1).1.symm)
      | inr s =>
        exact Or.inr (segHB_of_tc hB
          (ordered_sideE hpo hf hw hk hu (fun e => hxy e.symm) (Sem.conflict_symm _ _ hcf) s hs1)
          (fun e => hxy e.symm))

/-- **`SegOrdered` from the executor's run, its checks (2) per segment and its race check**
(`canonN_ordered_drain` across one clearing): if the run finishes, its history splits at the
clearing as in `segs_of_exec` (`appE H2 H1`, `H1` holding each member's actions up to its cut
and no thread's action past it, nothing pending at the clearing nor at the end, check (2) with
`S1` on `H1` and `S2` on `H2`), and the race check reports nothing over the whole history (the
clocks are not reset at the clearing), then every two conflicting solo actions of different
threads below `N` are ordered by happens-before across the clearing (`SegHB`). -/
theorem canonN_segOrdered {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {SW : List Nat} {c : Nat → Nat} {S1 S2 : Nat → List Nat}
    {H1 H2 : List (EventN V)}
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = appE H2 H1)
    (hall : ∀ u i b' wt, soloEv prog regs0 m0 u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = [])
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = [])
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    SegOrdered prog N regs0 m0 SW c := by
  intro x y i j hxy hx hy hcf
  cases canonN_segOrderedB hfin hsplit (hallB (N := N) hall) hcut hn hd1 hend1 hd2 hend2 hc
    hx hy hxy hcf with
  | inl h => exact Or.inl (segHB_of_soloEvB h)
  | inr h => exact Or.inr (segHB_of_soloEvB h)

end Ordered

/-! ## `Cut`'s executor conditions from the run

`Cut`'s `hE` and `hEc` are over a schedule `E` of thread ids (`OnceCheck.lean`'s `Valid`
histories); the executor's thread order up to the clearing, `sched H1` (`ScheduleNamed.lean`),
is one: its eager instances (`left`) leave nothing pending since the executor's pending lists
at the clearing are empty (`kInv_run`), and it holds each member's cut arrival. -/

section CutExec

variable {V : Type}

open Race (sched CB KInvS KI kInv_run lenL_pendI lenL_fstP lenL_appG lenL_revL cnt_sched pw)

theorem cb_appE_tail {mb : Nat → Nat} (H1 : List (EventN V)) :
    ∀ (H2 : List (EventN V)), CB mb (appE H2 H1) → CB mb H1
  | [], h => h
  | EventN.act t A :: h, hc => cb_appE_tail H1 h hc
  | EventN.bar t b w :: h, hc => cb_appE_tail H1 h hc
  | EventN.complete b m :: h, hc => cb_appE_tail H1 h hc.1

theorem band_true_right' (x : Bool) : (x && true) = x := by cases x <;> rfl

/-- A schedule in which no thread goes past its cut has only arrivals up to the cut. -/
theorem arrsF_pre (act : Nat → Nat → Ev) (b : Nat) (c : Nat → Nat) :
    ∀ (l : List Nat), (∀ t, cnt t l ≤ c t + 1) → arrsF act b (preF c) l = arrs act b l
  | [], _ => rfl
  | t :: l, hl => by
    have hl' : ∀ u, cnt u l ≤ c u + 1 := fun u => Nat.leTrans (cnt_le_cons u t l) (hl u)
    have ht : cnt t l + 1 ≤ c t + 1 := by rw [← cnt_cons_self]; exact hl t
    show cond (arrAt b (act t (cnt t l)) && preF c t (cnt t l)) (sn (arrsF act b (preF c) l) t)
        (arrsF act b (preF c) l) =
      cond (arrAt b (act t (cnt t l))) (sn (arrs act b l) t) (arrs act b l)
    rw [preF_true ht, band_true_right', arrsF_pre act b c l hl']

/-- The eager instances over the executor's thread order leave nothing pending where the
executor's pending lists are empty. -/
theorem left_nil_of_pend {act : Nat → Nat → Ev} {mb : Nat → Nat} {b : Nat} (hpos : 0 < mb b)
    {h : List (EventN V)} (hf : FromAct act h) (hcb : CB mb h) (hend : pendI h b = []) :
    left (mb b) (fun _ => 0) [] (arrs act b (sched h)) = [] := by
  match kInv_run b hpos h hf hcb with
  | ⟨X, k, hx, _, _⟩ =>
    have e0 : lenL (pw h b) = 0 := by rw [← lenL_pendI h b, hend]; rfl
    have e1 : lenL (pw h b) = lenL X + len (left (mb b) (fun _ => 0) [] (arrs act b (sched h))) := by
      rw [← lenL_fstP, hx, lenL_appG, lenL_revL, len_thr]
    rw [e0] at e1
    apply nil_of_len
    cases hl : len (left (mb b) (fun _ => 0) [] (arrs act b (sched h))) with
    | zero => rfl
    | succ n =>
      rw [hl, Nat.add_succ] at e1
      exact Nat.noConfusion e1

/-- **`Cut`'s executor conditions from the run**: the executor's thread order up to the clearing
(`sched H1`) is a schedule `E` for `Cut`, when `H1` follows `act`, its completions drain the
count of their id (`CB`, `cb_of`), nothing is pending at its end, and it holds each member's
actions up to its cut and no thread's action past it.  The other fields of `Cut` are facts of
the per-thread sequences. -/
theorem cut_of_exec {act : Nat → Nat → Ev} {m : Nat → Nat} {W k : Nat} {SW : List Nat}
    {c : Nat → Nat} {H1 : List (EventN V)}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW)
    (hm : len SW = m W) (hS : Nodup SW)
    (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hpos : ∀ b, 0 < m b) (hf : FromAct act H1) (hcb : CB m H1)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hend : ∀ b, pendI H1 b = []) : Cut act m W k SW c (sched H1) := by
  have hl : ∀ t, cnt t (sched H1) ≤ c t + 1 := by
    intro t; rw [cnt_sched]; exact hn t
  refine ⟨hW, hM, hm, hS, hc, hall, fun b => ?_, fun u hu => ?_⟩
  · rw [arrsF_pre act b c (sched H1) hl]
    exact left_nil_of_pend (hpos b) hf hcb (hend b)
  · rw [cnt_sched, hcut u hu]; exact Nat.ltSuccSelf _

end CutExec

/-! ## Check (3) of both segments from the Rust's check (3) over the whole history

`segs_of_exec` takes check (3) evaluated on each part of the run (`RustCheck3` on `H1` for the
segment up to the cut, on `H2` for the shifted actions).  The Rust evaluates it once over the
whole history with clocks that are not reset at the clearing; `check3_pre_rust`,
`check3_post_rust` derive `Check3` of each segment from that (`RustCheck3 N act (appE H2 H1)`),
through `hb_linkE` and the segment numbering of each completion (`KthSeg`). -/

section Check3Whole

variable {V : Type}

/-- Every completion of the history drains arrivals of one segment with one arrival number in
that segment's numbering. -/
def KthSeg (act : Nat → Nat → Ev) (c : Nat → Nat) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => KthSeg act c h
  | EventN.bar _ _ _ :: h => KthSeg act c h
  | EventN.complete b m :: h => KthSeg act c h ∧ ∀ p q, In p (takeL m (pendI h b)) →
      In q (takeL m (pendI h b)) → ∀ w w', act p.1 p.2 = Ev.arr b w → act q.1 q.2 = Ev.arr b w' →
      (p.2 ≤ c p.1 ∧ q.2 ≤ c q.1 ∧
        ac (restr act (preF c)) b p.1 p.2 = ac (restr act (preF c)) b q.1 q.2) ∨
      (c p.1 < p.2 ∧ c q.1 < q.2 ∧
        ac (restr act (postF c)) b p.1 p.2 = ac (restr act (postF c)) b q.1 q.2)

theorem kthSeg_tail {act : Nat → Nat → Ev} {c : Nat → Nat} (e : EventN V) (l : List (EventN V))
    (h : KthSeg act c (e :: l)) : KthSeg act c l := by
  cases e with
  | act t A => exact h
  | bar t b w => exact h
  | complete b m => exact h.1

/-- A pending arrival is an action the thread performed. -/
theorem pendI_lt : ∀ (h : List (EventN V)) (b : Nat) (x : Nat × Nat), In x (pendI h b) →
    x.2 < nEv x.1 h
  | [], b, x, hx => False.elim hx
  | EventN.act u A :: h, b, x, hx => Nat.ltOfLtOfLe (pendI_lt h b x hx) (nEv_le x.1 _ h)
  | EventN.bar u b' w :: h, b, x, hx => by
    have hx' : In x (Sem.upd (pendI h) b' (snocL (pendI h b') (u, nEv u h)) b) := hx
    cases Nat.decEq b b' with
    | isTrue eb =>
      rw [eb, Race.upd_same] at hx'
      cases in_snoc_cases hx' with
      | inl hl =>
        exact Nat.ltOfLtOfLe (pendI_lt h b' x hl) (nEv_le x.1 _ h)
      | inr e =>
        rw [← e]
        show nEv u h < nEv u (EventN.bar u b' w :: h)
        rw [nEv_bar_self]; exact Nat.ltSuccSelf _
    | isFalse eb =>
      rw [Race.upd_other _ _ eb] at hx'
      exact Nat.ltOfLtOfLe (pendI_lt h b x hx') (nEv_le x.1 _ h)
  | EventN.complete b' m :: h, b, x, hx => by
    have hx' : In x (Sem.upd (pendI h) b' (dropL m (pendI h b')) b) := hx
    cases Nat.decEq b b' with
    | isTrue eb =>
      rw [eb, Race.upd_same] at hx'
      exact pendI_lt h b' x (Race.in_dropL m hx')
    | isFalse eb =>
      rw [Race.upd_other _ _ eb] at hx'
      exact pendI_lt h b x hx'

theorem kthSeg_pre {act : Nat → Nat → Ev} {c : Nat → Nat} :
    ∀ (H : List (EventN V)), KthInst (restr act (preF c)) H → (∀ t, nEv t H ≤ c t + 1) →
      KthSeg act c H
  | [], _, _ => trivial
  | EventN.act t A :: h, hk, hn => kthSeg_pre h hk (fun u => Nat.leTrans (nEv_le u _ h) (hn u))
  | EventN.bar t b w :: h, hk, hn => kthSeg_pre h hk (fun u => Nat.leTrans (nEv_le u _ h) (hn u))
  | EventN.complete b m :: h, hk, hn => by
    refine ⟨kthSeg_pre h hk.1 hn, ?_⟩
    intro p q hp hq w w' ap aq
    have lp : p.2 + 1 ≤ c p.1 + 1 :=
      Nat.leTrans (pendI_lt h b p (Race.in_takeL m hp)) (hn p.1)
    have lq : q.2 + 1 ≤ c q.1 + 1 :=
      Nat.leTrans (pendI_lt h b q (Race.in_takeL m hq)) (hn q.1)
    exact Or.inl ⟨Nat.leOfSuccLeSucc lp, Nat.leOfSuccLeSucc lq, hk.2 p q hp hq⟩

theorem kthSeg_post {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {H1 : List (EventN V)}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hend : ∀ b, pendI H1 b = [])
    (h1 : KthSeg act c H1) :
    ∀ (H2 : List (EventN V)), KthInst (shiftA act H1) H2 → KthSeg act c (appE H2 H1)
  | [], _ => h1
  | EventN.act t A :: h, hk => kthSeg_post hall hcut hend h1 h hk
  | EventN.bar t b w :: h, hk => kthSeg_post hall hcut hend h1 h hk
  | EventN.complete b m :: h, hk => by
    refine ⟨kthSeg_post hall hcut hend h1 h hk.1, ?_⟩
    intro p q hp hq w w' ap aq
    rw [pendI_app hend h b, ← shL_take] at hp
    rw [pendI_app hend h b, ← shL_take] at hq
    match in_shL hp, in_shL hq with
    | ⟨(p1, p2), hp', ep⟩, ⟨(q1, q2), hq', eq⟩ =>
      rw [ep] at ap
      rw [eq] at aq
      rw [ep, eq]
      have np := hcut p1 (hall _ _ _ _ ap)
      have nq := hcut q1 (hall _ _ _ _ aq)
      refine Or.inr ⟨?_, ?_, ?_⟩
      · show c p1 < nEv p1 H1 + p2
        rw [np]; exact Nat.ltOfLtOfLe (Nat.ltSuccSelf _) (Nat.leAddRight _ _)
      · show c q1 < nEv q1 H1 + q2
        rw [nq]; exact Nat.ltOfLtOfLe (Nat.ltSuccSelf _) (Nat.leAddRight _ _)
      · show ac (restr act (postF c)) b p1 (nEv p1 H1 + p2) = ac (restr act (postF c)) b q1 (nEv q1 H1 + q2)
        rw [np, nq, ac_post_shift act c H1 b p1 np, ac_post_shift act c H1 b q1 nq]
        exact hk.2 (p1, p2) (q1, q2) hp' hq'

/-- Segment numbering gives the segment edges. -/
theorem kthE_of_seg {act : Nat → Nat → Ev} {c : Nat → Nat} :
    ∀ (H : List (EventN V)), KthSeg act c H → KthE act (SE act c) H
  | [], _ => trivial
  | EventN.act t A :: h, hk => kthE_of_seg h hk
  | EventN.bar t b w :: h, hk => kthE_of_seg h hk
  | EventN.complete b m :: h, hk => by
    refine ⟨kthE_of_seg h hk.1, ?_⟩
    intro p q hp hq w aq ap _ _
    match p, q, hp, hq, aq, ap with
    | (p1, p2), (q1, q2), hp, hq, aq, ap =>
      cases hk.2 (q1, q2) (p1, p2) hq hp w true aq ap with
      | inl h =>
        have aq' : restr act (preF c) q1 q2 = Ev.arr b w := by
          rw [restr_true (decide_eq_true' h.1)]; exact aq
        have ap' : restr act (preF c) p1 p2 = Ev.arr b true := by
          rw [restr_true (decide_eq_true' h.2.1)]; exact ap
        exact Or.inl (Edge.bar q1 q2 p1 p2 b w aq' ap' h.2.2)
      | inr h =>
        have aq' : restr act (postF c) q1 q2 = Ev.arr b w := by
          rw [restr_true (postF_of_lt c h.1)]; exact aq
        have ap' : restr act (postF c) p1 p2 = Ev.arr b true := by
          rw [restr_true (postF_of_lt c h.2.1)]; exact ap
        exact Or.inr (Edge.bar q1 q2 p1 p2 b w aq' ap' h.2.2)

/-- Up to the cut, the segment's arrival numbers are the whole sequence's. -/
theorem ac_pre_eq (act : Nat → Nat → Ev) (c : Nat → Nat) (b x : Nat) :
    ∀ k, k ≤ c x + 1 → ac (restr act (preF c)) b x k = ac act b x k
  | 0, _ => rfl
  | k + 1, hk => by
    show cond (arrAt b (restr act (preF c) x k)) (ac (restr act (preF c)) b x k + 1)
      (ac (restr act (preF c)) b x k) = cond (arrAt b (act x k)) (ac act b x k + 1) (ac act b x k)
    rw [restr_true (preF_true hk), ac_pre_eq act c b x k (Nat.leTrans (Nat.leSucc k) hk)]

/-- After the cut, the segment's arrival numbers are the whole sequence's less those up to it. -/
theorem ac_post_split (act : Nat → Nat → Ev) (c : Nat → Nat) (b x : Nat) :
    ∀ d, ac act b x (c x + 1 + d) = ac act b x (c x + 1) + ac (restr act (postF c)) b x (c x + 1 + d)
  | 0 => by rw [ac_post_zero act c b x (c x + 1) (Nat.leRefl _)]; rfl
  | d + 1 => by
    show cond (arrAt b (act x (c x + 1 + d))) (ac act b x (c x + 1 + d) + 1) (ac act b x (c x + 1 + d)) =
      ac act b x (c x + 1) + cond (arrAt b (restr act (postF c) x (c x + 1 + d)))
        (ac (restr act (postF c)) b x (c x + 1 + d) + 1) (ac (restr act (postF c)) b x (c x + 1 + d))
    rw [restr_true (postF_after c x d), ac_post_split act c b x d]
    cases arrAt b (act x (c x + 1 + d)) with
    | true => rfl
    | false => rfl

end Check3Whole

section Check3Rust

variable {V : Type}

/-- **Check (3) of the segment up to the cut from the Rust's check (3) over the whole
history** (clocks over the whole history). -/
theorem check3_pre_rust {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {N : Nat}
    {H : List (EventN V)} (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hf : FromAct act H) (hw : NotBlocked N H) (hks : KthSeg act c H) (hcov : Covers act H)
    (hr : RustCheck3 N act H) : Check3 (restr act (preF c)) := by
  intro t i i' b wt' hi hi' hlt hnext
  match restr_arr hi, restr_arr hi' with
  | ⟨fi, ai⟩, ⟨fi', ai'⟩ =>
  have ii : i ≤ c t := le_of_preF fi
  have ii' : i' ≤ c t := le_of_preF fi'
  match find_ev H i' (hcov t i' b wt' ai') with
  | ⟨e, h, hs, ha, hn⟩ =>
  have hf1 : FromAct act (e :: h) := sfx_pres fromAct_tail H _ hs hf
  have hact' : act t (nEv t h) = Ev.arr b wt' := by rw [hn]; exact ai'
  have ee : e = EventN.bar t b wt' := ev_bar hf1 ha hact'
  rw [ee] at hs
  have hf0 : FromAct act h := sfx_pres fromAct_tail H h (sfx_tail hs) hf
  have hw0 : NotBlocked N h := sfx_pres notBlocked_tail H h (sfx_tail hs) hw
  have hk0 : KthSeg act c h := sfx_pres kthSeg_tail H h (sfx_tail hs) hks
  have hil : i < nEv t h := by rw [hn]; exact hlt
  have hnx : ac act b t (nEv t h) = ac act b t i + 1 := by
    rw [hn, ← ac_pre_eq act c b t i' (Nat.leTrans ii' (Nat.leSucc _)),
      ← ac_pre_eq act c b t i (Nat.leTrans ii (Nat.leSucc _))]
    exact hnext
  match hr t b wt' h hs i hil ai hnx with
  | ⟨m, hc, y, j, hsc, hti, hyj, hyw, k, c', hpos, hseg, hord⟩ =>
  have hkc : KthSeg act c (EventN.complete b m :: hc) := sfx_pres kthSeg_tail h _ hsc hk0
  cases hkc.2 (y, j) (t, i) hyj hti true false hyw ai with
  | inr hh => exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe hh.2.1 ii))
  | inl hh =>
    have hhb : Race.HB h k t := Race.ordered_hb hw0 hseg hord
    match hb_linkE (se_po act c) hf0 hw0 (kthE_of_seg h hk0) hhb with
    | ⟨u, i2, hpos2, hb2⟩ =>
      have eq := posAt_fun hpos2 hpos
      rw [eq.1, eq.2, hn] at hb2
      refine ⟨y, j, ?_, hh.2.2, ?_⟩
      · rw [restr_true (decide_eq_true' hh.1)]; exact hyw
      · cases sq_of_tc hall hb2 with
        | inl hs' =>
          have ey : y = t := hs'.1
          rw [ey]
          exact hb_po_lt _ hs'.2
        | inr hm =>
          cases hm.2.2 with
          | inl h1 => exact h1.2.2
          | inr h2 =>
            cases h2 with
            | inl h2 => exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe h2.2.1 ii'))
            | inr h3 => exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe h3.2 ii'))

/-- **Check (3) of the segment after the cut from the Rust's check (3) over the whole
history.** -/
theorem check3_post_rust {act : Nat → Nat → Ev} {c : Nat → Nat} {SW : List Nat} {N : Nat}
    {H : List (EventN V)} (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hf : FromAct act H) (hw : NotBlocked N H) (hks : KthSeg act c H) (hcov : Covers act H)
    (hr : RustCheck3 N act H) : Check3 (restr act (postF c)) := by
  intro t i i' b wt' hi hi' hlt hnext
  match restr_arr hi, restr_arr hi' with
  | ⟨fi, ai⟩, ⟨fi', ai'⟩ =>
  have ii : c t < i := lt_of_postF fi
  have ii' : c t < i' := lt_of_postF fi'
  match find_ev H i' (hcov t i' b wt' ai') with
  | ⟨e, h, hs, ha, hn⟩ =>
  have hf1 : FromAct act (e :: h) := sfx_pres fromAct_tail H _ hs hf
  have hact' : act t (nEv t h) = Ev.arr b wt' := by rw [hn]; exact ai'
  have ee : e = EventN.bar t b wt' := ev_bar hf1 ha hact'
  rw [ee] at hs
  have hf0 : FromAct act h := sfx_pres fromAct_tail H h (sfx_tail hs) hf
  have hw0 : NotBlocked N h := sfx_pres notBlocked_tail H h (sfx_tail hs) hw
  have hk0 : KthSeg act c h := sfx_pres kthSeg_tail H h (sfx_tail hs) hks
  have hil : i < nEv t h := by rw [hn]; exact hlt
  have hnx : ac act b t (nEv t h) = ac act b t i + 1 := by
    rw [hn]
    match add_sub_of_lt ii, add_sub_of_lt ii' with
    | ⟨d, e1⟩, ⟨d', e2⟩ =>
      rw [e1, e2] at hnext
      rw [e1, e2, ac_post_split act c b t d, ac_post_split act c b t d', hnext]
      rfl
  match hr t b wt' h hs i hil ai hnx with
  | ⟨m, hc, y, j, hsc, hti, hyj, hyw, k, c', hpos, hseg, hord⟩ =>
  have hkc : KthSeg act c (EventN.complete b m :: hc) := sfx_pres kthSeg_tail h _ hsc hk0
  cases hkc.2 (y, j) (t, i) hyj hti true false hyw ai with
  | inl hh => exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe ii hh.2.1))
  | inr hh =>
    have hhb : Race.HB h k t := Race.ordered_hb hw0 hseg hord
    match hb_linkE (se_po act c) hf0 hw0 (kthE_of_seg h hk0) hhb with
    | ⟨u, i2, hpos2, hb2⟩ =>
      have eq := posAt_fun hpos2 hpos
      rw [eq.1, eq.2, hn] at hb2
      have jy : ¬ j + 1 ≤ c y := fun hle =>
        Nat.ltIrrefl _ (Nat.ltOfLtOfLe (Nat.ltTrans hh.1 (Nat.ltSuccSelf j)) hle)
      refine ⟨y, j, ?_, hh.2.2, ?_⟩
      · rw [restr_true (postF_of_lt c hh.1)]; exact hyw
      · cases sq_of_tc hall hb2 with
        | inl hs' =>
          have ey : y = t := hs'.1
          rw [ey]
          exact hb_po_lt _ hs'.2
        | inr hm =>
          cases hm.2.2 with
          | inl h1 => exact False.elim (jy h1.1)
          | inr h2 =>
            cases h2 with
            | inl h2 => exact h2.2.2
            | inr h3 => exact False.elim (jy h3.1)

/-- **`Segs` from the executor's checks with check (3) over the whole history**: as
`segs_of_exec`, with the Rust's check (3) evaluated once on the whole run (`RustCheck3 N act
(appE H2 H1)`, clocks not reset at the clearing) in place of its evaluation on each part. -/
theorem segs_of_exec_rust {act : Nat → Nat → Ev} {m : Nat → Nat} {c : Nat → Nat} {SW : List Nat}
    {S1 S2 : Nat → List Nat} {N : Nat} {H1 H2 : List (EventN V)}
    (hf : FromAct act (appE H2 H1)) (hcov : Covers act (appE H2 H1))
    (hw : NotBlocked N (appE H2 H1))
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = [])
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = [])
    (hr : RustCheck3 N act (appE H2 H1)) (hSz1 : Sized m S1) (hSz2 : Sized m S2) :
    Segs act m c S1 S2 := by
  have hf1 := fromAct_appE_tail H1 H2 hf
  have hlt : ∀ u, Mem u SW → c u < nEv u H1 := by
    intro u hu; rw [hcut u hu]; exact Nat.ltSuccSelf _
  have hM1 := memb_pre hf1 hn hall hlt hd1 hend1
  have k1 := kthInst_of_drain hM1 (fromAct_pre H1 hf1 hn) hd1
  have hM2 : Memb (shiftA act H1) S2 :=
    memb_of_drain (fromAct_shift H1 H2 hf) hd2 (covers_shift hcov) hend2
  have k2 := kthInst_of_drain hM2 (fromAct_shift H1 H2 hf) hd2
  have hks : KthSeg act c (appE H2 H1) := kthSeg_post hall hcut hend1 (kthSeg_pre H1 k1 hn) H2 k2
  exact ⟨hM1, hSz1, check3_pre_rust hall hf hw hks hcov hr,
    memb_post hf hcov hall hcut hd2 hend2, hSz2, check3_post_rust hall hf hw hks hcov hr⟩

end Check3Rust

/-! ## The four conclusions across one clearing from the executor's run

As `canonicalN_check_sound` (`NamedSound.lean`), through the program `progN prog N` whose
threads from `N` on do nothing: `Cut` from the run (`cut_of_exec`), `Segs` from its checks (2)
per part and (3) over the whole run (`segs_of_exec_rust`), `SegOrdered` from its race check
(`canonN_segOrderedB`), and the complete
schedule of `seg_noStuck` from its thread order followed by the exits (`extH`, `valid_extH`). -/

section SemSegs

variable {V : Type} [Sem.AccAdd V]

open Race (sched CB pw progN soloEv_progN soloAct_progN dataIndep_progN countsAt_progN
  raceFree_of_progN barriersFit_of_progN reach_progN stepT_of_progN extH valid_extH mem_extH
  mem_sched cnt_extH_lt notBlocked_end step_ok cb_of canonRunN_fromSolo canonRunN_compOK
  canonN_valid valid_congr hb_congr memb_congr check3_congr ac_congr arrs_congr isExitA_true
  soloAct_exit fromSolo_tail pw_of_blocked blocked_of_pw lenL_pendI cnt_sched FinishedN canonRunN
  soloEvB canonN_covers canonRunN_fromActB canonRunN_notBlocked checkN noSameN FromSolo isExitA)

theorem pw_app {H1 : List (EventN V)} (hend : ∀ b, pw H1 b = []) :
    ∀ (H2 : List (EventN V)) (b : Nat), pw (appE H2 H1) b = pw H2 b
  | [], b => by
    show pw H1 b = []
    exact hend b
  | EventN.act t A :: h, b => pw_app hend h b
  | EventN.bar t b' w :: h, b => by
    show Sem.upd (pw (appE h H1)) b' (snocL (pw (appE h H1) b') (t, w)) b =
      Sem.upd (pw h) b' (snocL (pw h b') (t, w)) b
    cases Nat.decEq b b' with
    | isTrue eb => rw [eb, Race.upd_same, Race.upd_same, pw_app hend h b']
    | isFalse eb => rw [Race.upd_other _ _ eb, Race.upd_other _ _ eb, pw_app hend h b]
  | EventN.complete b' m :: h, b => by
    show Sem.upd (pw (appE h H1)) b' (dropL m (pw (appE h H1) b')) b =
      Sem.upd (pw h) b' (dropL m (pw h b')) b
    cases Nat.decEq b b' with
    | isTrue eb => rw [eb, Race.upd_same, Race.upd_same, pw_app hend h b']
    | isFalse eb => rw [Race.upd_other _ _ eb, Race.upd_other _ _ eb, pw_app hend h b]

theorem pw_nil_of_pendI {h : List (EventN V)} {b : Nat} (he : pendI h b = []) : pw h b = [] := by
  have e : lenL (pw h b) = 0 := by rw [← lenL_pendI h b, he]; rfl
  cases hp : pw h b with
  | nil => rfl
  | cons x l => rw [hp] at e; exact Nat.noConfusion e

/-- No blocked thread steps in the part after the clearing, evaluated on its own (the executor's
barrier state after a clearing with nothing pending is that of an empty history). -/
theorem notBlocked_post {N : Nat} {H1 : List (EventN V)} (hend : ∀ b, pendI H1 b = []) :
    ∀ (H2 : List (EventN V)), NotBlocked N (appE H2 H1) → NotBlocked N H2
  | [], _ => trivial
  | e :: h, hw => by
    refine ⟨notBlocked_post hend h hw.1, fun t ha hb => ?_⟩
    match pw_of_blocked hb with
    | ⟨b, hin⟩ =>
      rw [← pw_app (fun b => pw_nil_of_pendI (hend b)) h b] at hin
      exact hw.2 t ha (blocked_of_pw hin)

theorem notBlocked_pre {N : Nat} (H1 : List (EventN V)) :
    ∀ (H2 : List (EventN V)), NotBlocked N (appE H2 H1) → NotBlocked N H1
  | [], hw => hw
  | e :: h, hw => notBlocked_pre H1 h hw.1

theorem pendI_end {H1 H2 : List (EventN V)} (hend1 : ∀ b, pendI H1 b = [])
    (hend2 : ∀ b, pendI H2 b = []) (b : Nat) : pendI (appE H2 H1) b = [] := by
  rw [pendI_app hend1 H2 b, hend2 b]; rfl

theorem arrsF_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) (b : Nat)
    (f : Nat → Nat → Bool) : ∀ (h : List Nat), arrsF a1 b f h = arrsF a2 b f h
  | [] => rfl
  | t :: h => by
    show cond (arrAt b (a1 t (cnt t h)) && f t (cnt t h)) (sn (arrsF a1 b f h) t) (arrsF a1 b f h) =
      cond (arrAt b (a2 t (cnt t h)) && f t (cnt t h)) (sn (arrsF a2 b f h) t) (arrsF a2 b f h)
    rw [he t, arrsF_congr he b f h]

theorem cut_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) {m : Nat → Nat}
    {W k : Nat} {SW : List Nat} {c : Nat → Nat} {E : List Nat} (C : Cut a1 m W k SW c E) :
    Cut a2 m W k SW c E :=
  ⟨fun t i wt h => C.hW t i wt (by rw [he]; exact h),
   fun t i wt h => C.hM t i wt (by rw [he]; exact h), C.hm, C.hS,
   fun u hu => ⟨by rw [← he]; exact (C.hc u hu).1, by rw [← ac_congr he]; exact (C.hc u hu).2⟩,
   fun u i b' wt h => C.hall u i b' wt (by rw [he]; exact h),
   fun b => by rw [← arrsF_congr he]; exact C.hE b, C.hEc⟩

theorem restr_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i)
    (f : Nat → Nat → Bool) (t i : Nat) : restr a1 f t i = restr a2 f t i := by
  show cond (f t i) (a1 t i) Ev.loc = cond (f t i) (a2 t i) Ev.loc
  rw [he]

theorem segs_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) {m : Nat → Nat}
    {c : Nat → Nat} {S1 S2 : Nat → List Nat} (G : Segs a1 m c S1 S2) : Segs a2 m c S1 S2 :=
  ⟨memb_congr (restr_congr he (preF c)) G.hM1, G.hSz1, check3_congr (restr_congr he (preF c)) G.h31,
   memb_congr (restr_congr he (postF c)) G.hM2, G.hSz2, check3_congr (restr_congr he (postF c)) G.h32⟩

theorem segHB_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) {SW : List Nat}
    {c : Nat → Nat} {p q : Nat × Nat} (h : SegHB a1 SW c p q) : SegHB a2 SW c p q := by
  cases h with
  | inl h => exact Or.inl (hb_congr (restr_congr he (preF c)) h)
  | inr h =>
    cases h with
    | inl h => exact Or.inr (Or.inl (hb_congr (restr_congr he (postF c)) h))
    | inr h => exact Or.inr (Or.inr h)

/-- A performed action of the run is not an `exit`. -/
theorem notExit_of_lt {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N B F t j : Nat}
    (hj : j < nEv t (canonRunN prog regs0 m0 N B F)) :
    isExitA (Sem.soloAct prog regs0 m0 t j) = false := by
  match find_ev _ j hj with
  | ⟨e, h, hs, ha, hn⟩ =>
    have hf : FromSolo prog regs0 m0 N (e :: h) :=
      sfx_pres fromSolo_tail _ _ hs (canonRunN_fromSolo prog regs0 m0 N B F)
    rw [← hn]
    cases e with
    | act u A =>
      have eu : u = t := ha
      rw [← eu]; exact hf.2.2.1
    | bar u b w =>
      have eu : u = t := ha
      rw [← eu]; exact hf.2.2.1
    | complete b m => exact False.elim ha

/-- **The four conclusions across one clearing of the members record, from the executor's run
and checks** (`canonicalN_check_sound` with a clearing).  For a `DataIndep` program with one
positive count `mb b` per id in the solo traces below `N`: if the executor's run `canonRunN`
finishes, its race check reports nothing, and its history splits at the completion of a
whole-CTA instance of `W` (the `k`-th, every arrival at `W` waits, members `SW`, their cut
arrivals `c u`; every arriving thread is in `SW`) into `appE H2 H1` with `H1` holding each
member's actions up to its cut and no action past it, nothing pending at the clearing nor at the
end, check (2) with `S1` on `H1` and `S2` on `H2` (`Sized mb`), and the Rust's check (3) over
the whole run (`RustCheck3`, clocks not reset at the clearing, as in `CanonCleanN`), then from
the launch with any memory `m1`: no race, barriers fit, any two final states are the same, and
every reachable state where no thread can step is final. -/
theorem canonicalN_segs_sound (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    {W k : Nat} {SW : List Nat} {c : Nat → Nat} {S1 S2 : Nat → List Nat}
    {H1 H2 : List (EventN V)}
    (hW : ∀ t i wt, soloEvB prog regs0 m0 N t i = Ev.arr W wt → wt = true)
    (hMW : ∀ t i wt, soloEvB prog regs0 m0 N t i = Ev.arr W wt → Mem t SW)
    (hm : len SW = mb W) (hS : Nodup SW)
    (hcW : ∀ u, Mem u SW → soloEvB prog regs0 m0 N u (c u) = Ev.arr W true ∧
      ac (soloEvB prog regs0 m0 N) W u (c u) = k)
    (hB : ∀ u i b' wt, soloEvB prog regs0 m0 N u i = Ev.arr b' wt → Mem u SW)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = appE H2 H1)
    (hcut : ∀ u, Mem u SW → nEv u H1 = c u + 1) (hn : ∀ t, nEv t H1 ≤ c t + 1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = [])
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = [])
    (hr : RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F))
    (hSz1 : Sized mb S1) (hSz2 : Sized mb S2)
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) := by
  have he := soloEv_progN prog regs0 m0 N
  have hindN := dataIndep_progN prog N hind
  have hC := countsAt_progN prog regs0 m0 N hpos hcnt
  have hfs := canonRunN_fromSolo prog regs0 m0 N B F
  have hcbR : CB mb (canonRunN prog regs0 m0 N B F) :=
    cb_of hcnt _ hfs (canonRunN_compOK prog regs0 m0 N B F)
  have hf : FromAct (soloEvB prog regs0 m0 N) (appE H2 H1) := by
    rw [← hsplit]; exact canonRunN_fromActB prog regs0 m0 N B F
  have hcov : Covers (soloEvB prog regs0 m0 N) (appE H2 H1) := by
    rw [← hsplit]; exact canonN_covers hfin
  have hw : NotBlocked N (appE H2 H1) := by
    rw [← hsplit]; exact canonRunN_notBlocked prog regs0 m0 N B F
  have hcb : CB mb (appE H2 H1) := by rw [← hsplit]; exact hcbR
  have hf1 := fromAct_appE_tail H1 H2 hf
  -- `Cut`, `Segs`, `SegOrdered` for `progN prog N`
  have C : Cut (soloEv (progN prog N) regs0 m0) mb W k SW c (sched H1) :=
    cut_congr he (cut_of_exec hW hMW hm hS hcW hB hpos hf1 (cb_appE_tail H1 H2 hcb) hcut hn hend1)
  have G : Segs (soloEv (progN prog N) regs0 m0) mb c S1 S2 :=
    segs_congr he (segs_of_exec_rust hf hcov hw hB hcut hn hd1 hend1 hd2 hend2
      (by rw [← hsplit]; exact hr) hSz1 hSz2)
  have hord : SegOrdered (progN prog N) N regs0 m0 SW c := by
    intro x y i j hxy hx hy hcf
    rw [soloAct_progN prog regs0 m0 hx, soloAct_progN prog regs0 m0 hy] at hcf
    cases canonN_segOrderedB hfin hsplit hB hcut hn hd1 hend1 hd2 hend2 hc hx hy hxy hcf with
    | inl h => exact Or.inl (segHB_congr he h)
    | inr h => exact Or.inr (segHB_congr he h)
  -- the complete schedule: the executor's thread order, then the exits
  have hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [] := by
    intro b; rw [hsplit]; exact pendI_end hend1 hend2 b
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
  have hok : ∀ t j b, cnt t (sched (canonRunN prog regs0 m0 N B F)) = j + 1 →
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
    ⟨valid_extH _ mb _ (valid_congr he mb _ hV.1) hl hok N,
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
  refine ⟨raceFree_of_progN prog N _
      (raceFree_of_segOrdered (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC C G hord),
    barriersFit_of_progN prog N _
      (seg_barriersFit (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC C G),
    fun t1 t2 h1 h2 f1 f2 => seg_confluence (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC C G hord
      (reach_progN prog N h1) (reach_progN prog N h2) f1 f2,
    fun r hr hst => seg_noStuck (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC C G hComp hpast hex
      r (reach_progN prog N hr) (fun v hv => match hv with
        | ⟨i, hi⟩ => hst v ⟨i, stepT_of_progN prog hi⟩)⟩

end SemSegs


/-! ## One count per id from the count check, across the clearing

`canonN_counts` (`NamedSound.lean`) derives one count per id from the count check (`CountsOK`)
with one member set per id; here each completion is checked against `S1` (in `H1`) or `S2` (in
`H2`), both `Sized mb`. -/

section CountsSegs

variable {V : Type} [Sem.AccAdd V]

open Race (canonRunN FinishedN soloEvB soloEvB_lt canonN_covers canonRunN_fromActB CountsOK
  compOK_tail drain2_tail lenL_takeL len_drained canonRunN_compOK cntOf in_snocL_self)

theorem cntP_shL (u : Nat) (H1 : List (EventN V)) : ∀ (l : List (Nat × Nat)),
    cntP u (shL H1 l) = cntP u l
  | [] => rfl
  | p :: l => by
    show (if p.1 = u then cntP u (shL H1 l) + 1 else cntP u (shL H1 l)) =
      (if p.1 = u then cntP u l + 1 else cntP u l)
    rw [cntP_shL u H1 l]

/-- Every completion of the run split at the clearing drains the members of `S1` (in `H1`) or
of `S2` (in `H2`) once each. -/
theorem drain_at_segs {S1 S2 : Nat → List Nat} {H1 : List (EventN V)}
    (hend1 : ∀ b, pendI H1 b = []) (hd1 : Drain2 S1 H1) :
    ∀ (H2 : List (EventN V)), Drain2 S2 H2 → ∀ b m hc,
      Sfx (EventN.complete b m :: hc) (appE H2 H1) →
      (∀ u, cntP u (takeL m (pendI hc b)) = cond (memB u (S1 b)) 1 0) ∨
      (∀ u, cntP u (takeL m (pendI hc b)) = cond (memB u (S2 b)) 1 0)
  | [], _, b, m, hc, hs => Or.inl (sfx_pres drain2_tail H1 _ hs hd1).2
  | e :: h2, hd2, b, m, hc, hs => by
    cases hs with
    | inr hs => exact drain_at_segs hend1 hd1 h2 (drain2_tail e h2 hd2) b m hc hs
    | inl heq =>
      have e1 := (List.cons.inj heq).1
      have e2 := (List.cons.inj heq).2
      rw [← e1] at hd2
      rw [e2]
      refine Or.inr (fun u => ?_)
      rw [pendI_app hend1 h2 b, ← shL_take, cntP_shL]
      exact hd2.2 u

/-- **One count per id from the count check across the clearing**: if the run finishes,
splits at the clearing with nothing pending there nor at the end, passes check (2) with `S1`
on `H1` and `S2` on `H2` (both `Sized mb`) and the count check (`CountsOK`), every solo arrival
at `b` of a thread below `N` has count `mb b`. -/
theorem canonN_counts_segs {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {S1 S2 : Nat → List Nat} {mb : Nat → Nat} {H1 H2 : List (EventN V)}
    (hSz1 : Sized mb S1) (hSz2 : Sized mb S2)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = appE H2 H1)
    (hd1 : Drain2 S1 H1) (hend1 : ∀ b, pendI H1 b = [])
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = [])
    (hco : CountsOK prog regs0 m0 (canonRunN prog regs0 m0 N B F)) :
    ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b := by
  intro t i b n w pc ht ha
  have hf := canonRunN_fromActB prog regs0 m0 N B F
  have hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [] := by
    intro b; rw [hsplit]; exact pendI_end hend1 hend2 b
  have hev : soloEvB prog regs0 m0 N t i = Ev.arr b w := by
    rw [soloEvB_lt ht]
    show evOf (Sem.soloAct prog regs0 m0 t i) = Ev.arr b w
    rw [ha]
    rfl
  match find_ev _ i (canonN_covers hfin t i b w hev) with
  | ⟨e, h, hs, hac, hn⟩ =>
    have hf1 : FromAct (soloEvB prog regs0 m0 N) (e :: h) := sfx_pres fromAct_tail _ _ hs hf
    have hact' : soloEvB prog regs0 m0 N t (nEv t h) = Ev.arr b w := by rw [hn]; exact hev
    have ee : e = EventN.bar t b w := ev_bar hf1 hac hact'
    rw [ee] at hs
    have hx : In (t, i) (pendI (EventN.bar t b w :: h) b) := by
      show In (t, i) (Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) b)
      rw [Race.upd_same, hn]
      exact in_snocL_self (t, i) (pendI h b)
    cases pend_track _ _ hs hx with
    | inl hx' => rw [hend b] at hx'; exact False.elim hx'
    | inr ex =>
      match ex with
      | ⟨m, hc, hs2, hin⟩ =>
        have c1 := hco b m hc hs2 (t, i) hin
        have c2 : cntOf prog regs0 m0 (t, i) = n := by
          show (match Sem.soloAct prog regs0 m0 t i with
            | Sem.Act.arrive _ n _ _ => n
            | _ => 0) = n
          rw [ha]
        have hok := sfx_pres compOK_tail _ _ hs2 (canonRunN_compOK prog regs0 m0 N B F)
        have l1 := lenL_takeL m (pendI hc b) hok.2.2.2
        have hs3 : Sfx (EventN.complete b m :: hc) (appE H2 H1) := by rw [← hsplit]; exact hs2
        rw [← c2, c1, ← l1]
        cases drain_at_segs hend1 hd1 H2 hd2 b m hc hs3 with
        | inl hdr => rw [len_drained (hSz1 b).2 _ hdr]; exact (hSz1 b).1
        | inr hdr => rw [len_drained (hSz2 b).2 _ hdr]; exact (hSz2 b).1

end CountsSegs

/-! ## The cut read off the run: the clearing completion ends `H1`

`canonicalN_segs_sound` takes the cut `c`, the members `SW` and the instance number `k` with
facts about them.  When `H1` ends with the completion of `W` (the clearing), they are read off
the run: `SW` is check (2)'s member set `S1 W`, `c u` the index of `u`'s last event in `H1`,
which is its waiting arrival at `W` drained by that completion (`pend_arr`: a pending waiting
arrival's thread has done nothing since, as blocked threads do nothing), and all of them have
one arrival number (`KthInst` of the segment up to the cut). -/

section CutRead

variable {V : Type}

theorem kthE_true {act : Nat → Nat → Ev} : ∀ (h : List (EventN V)), KthE act (fun _ _ => True) h
  | [] => trivial
  | EventN.act _ _ :: h => kthE_true h
  | EventN.bar _ _ _ :: h => kthE_true h
  | EventN.complete _ _ :: h => ⟨kthE_true h, fun _ _ _ _ _ _ _ _ _ => trivial⟩

/-- A pending arrival is an arrival of the history's sequences, and if it waits its thread has
done nothing since. -/
theorem pend_arr {act : Nat → Nat → Ev} {N : Nat} {h : List (EventN V)} (hf : FromAct act h)
    (hw : NotBlocked N h) {b : Nat} {p : Nat × Nat} (hp : In p (pendI h b)) :
    ∃ w, act p.1 p.2 = Ev.arr b w ∧ (w = true → nEv p.1 h = p.2 + 1) :=
  match Race.rel2_inL ((lInvE_run (E := fun _ _ => True) (fun _ _ => trivial) (N := N) h hf hw
      (kthE_true h)).2 b) hp with
  | ⟨x, _, ok⟩ => ⟨x.wait, ok.2.1, ok.2.2.2.1⟩

theorem sub_one_succ : ∀ (n : Nat), n ≤ n - 1 + 1
  | 0 => Nat.zeroLe _
  | n + 1 => Nat.leRefl _

/-- Each member of the clearing instance: its last event before the completion is its waiting
arrival at `W`, drained by the completion. -/
theorem member_last {act : Nat → Nat → Ev} {N W n : Nat} {S1 : Nat → List Nat}
    {H1 : List (EventN V)} (hf : FromAct act H1) (hw : NotBlocked N H1)
    (hd : Drain2 S1 (EventN.complete W n :: H1))
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true) {u : Nat} (hu : Mem u (S1 W)) :
    act u (nEv u H1 - 1) = Ev.arr W true ∧ nEv u H1 = nEv u H1 - 1 + 1 ∧
      In (u, nEv u H1 - 1) (takeL n (pendI H1 W)) := by
  have c1 := hd.2 u
  rw [memB_of_mem _ hu] at c1
  have c2 : 0 < cntP u (takeL n (pendI H1 W)) := by rw [c1]; exact Nat.zeroLtSucc 0
  match cntP_ex c2 with
  | ⟨(x1, x2), hx, ex⟩ =>
    have ex' : x1 = u := ex
    match pend_arr hf hw (Race.in_takeL n hx) with
    | ⟨w, ax, hwt⟩ =>
      have wt : w = true := hW _ _ _ ax
      have hn : nEv x1 H1 = x2 + 1 := hwt wt
      rw [ex'] at hn ax hx
      have e : nEv u H1 - 1 = x2 := by rw [hn]; rfl
      rw [e, hn]
      rw [wt] at ax
      exact ⟨ax, rfl, hx⟩

end CutRead

section ClearSound

variable {V : Type} [Sem.AccAdd V]

open Race (sched CB FinishedN canonRunN soloEvB canonRunN_fromActB canonRunN_notBlocked checkN
  noSameN CountsOK)

/-- **The four conclusions across one clearing, with the cut read off the run**: as
`canonicalN_segs_sound`, where `H1` ends with the clearing completion of `W`
(`EventN.complete W n :: H1'`); the members are check (2)'s `S1 W`, the cut of each member the
index of its last event before the completion, the instance number and the cut facts
(`hcut`, `hn`, `hcW`) are derived (`member_last`, `KthInst` of the segment up to the cut), and one
count per id comes from the count check (`canonN_counts_segs`).  Left as hypotheses: every
arrival at `W` waits, every arriving thread is a member of `W` (the whole CTA). -/
theorem canonicalN_clear_sound (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (hpos : ∀ b, 0 < mb b)
    {W n : Nat} {S1 S2 : Nat → List Nat} {H1' H2 : List (EventN V)}
    (hW : ∀ t i wt, soloEvB prog regs0 m0 N t i = Ev.arr W wt → wt = true)
    (hB : ∀ u i b' wt, soloEvB prog regs0 m0 N u i = Ev.arr b' wt → Mem u (S1 W))
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hsplit : canonRunN prog regs0 m0 N B F = appE H2 (EventN.complete W n :: H1'))
    (hd1 : Drain2 S1 (EventN.complete W n :: H1'))
    (hend1 : ∀ b, pendI (EventN.complete W n :: H1') b = [])
    (hd2 : Drain2 S2 H2) (hend2 : ∀ b, pendI H2 b = [])
    (hr : RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F))
    (hSz1 : Sized mb S1) (hSz2 : Sized mb S2)
    (hco : CountsOK prog regs0 m0 (canonRunN prog regs0 m0 N B F))
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) := by
  have hf : FromAct (soloEvB prog regs0 m0 N) (appE H2 (EventN.complete W n :: H1')) := by
    rw [← hsplit]; exact canonRunN_fromActB prog regs0 m0 N B F
  have hw : NotBlocked N (appE H2 (EventN.complete W n :: H1')) := by
    rw [← hsplit]; exact canonRunN_notBlocked prog regs0 m0 N B F
  have hf1 := fromAct_appE_tail (EventN.complete W n :: H1') H2 hf
  have hf1' : FromAct (soloEvB prog regs0 m0 N) H1' := hf1
  have hw1' : NotBlocked N H1' := (notBlocked_pre _ H2 hw).1
  have hn : ∀ t, nEv t (EventN.complete W n :: H1') ≤ (fun u => nEv u H1' - 1) t + 1 :=
    fun t => sub_one_succ _
  have hml := fun u (hu : Mem u (S1 W)) => member_last hf1' hw1' hd1 hW hu
  have hcut : ∀ u, Mem u (S1 W) →
      nEv u (EventN.complete W n :: H1') = (fun u => nEv u H1' - 1) u + 1 :=
    fun u hu => (hml u hu).2.1
  have hlt : ∀ u, Mem u (S1 W) → (fun u => nEv u H1' - 1) u < nEv u (EventN.complete W n :: H1') := by
    intro u hu; rw [hcut u hu]; exact Nat.ltSuccSelf _
  have hM1 := memb_pre hf1 hn hB hlt hd1 hend1
  have k1 := kthInst_of_drain hM1 (fromAct_pre _ hf1 hn) hd1
  have hcnt := canonN_counts_segs hSz1 hSz2 hfin hsplit hd1 hend1 hd2 hend2 hco
  cases hS : S1 W with
  | nil =>
    have e := (hSz1 W).1
    rw [hS] at e
    have p := hpos W
    rw [← e] at p
    exact False.elim (Nat.ltIrrefl 0 p)
  | cons u0 rest =>
    have hu0 : Mem u0 (S1 W) := by rw [hS]; exact Or.inl rfl
    have hcW : ∀ u, Mem u (S1 W) →
        soloEvB prog regs0 m0 N u ((fun u => nEv u H1' - 1) u) = Ev.arr W true ∧
        ac (soloEvB prog regs0 m0 N) W u ((fun u => nEv u H1' - 1) u) =
          ac (soloEvB prog regs0 m0 N) W u0 (nEv u0 H1' - 1) := by
      intro u hu
      refine ⟨(hml u hu).1, ?_⟩
      have e : ac (restr (soloEvB prog regs0 m0 N) (preF (fun u => nEv u H1' - 1))) W u
            (nEv u H1' - 1) =
          ac (restr (soloEvB prog regs0 m0 N) (preF (fun u => nEv u H1' - 1))) W u0
            (nEv u0 H1' - 1) :=
        k1.2 (u, nEv u H1' - 1) (u0, nEv u0 H1' - 1) (hml u hu).2.2 (hml u0 hu0).2.2
      rw [ac_pre_eq (soloEvB prog regs0 m0 N) (fun u => nEv u H1' - 1) W u (nEv u H1' - 1)
          (Nat.leSucc (nEv u H1' - 1)),
        ac_pre_eq (soloEvB prog regs0 m0 N) (fun u => nEv u H1' - 1) W u0 (nEv u0 H1' - 1)
          (Nat.leSucc (nEv u0 H1' - 1))] at e
      exact e
    exact canonicalN_segs_sound prog N B F regs0 m0 m1 R hind hR0 mb hpos hcnt hW
      (fun t i wt h => hB t i W wt h) (hSz1 W).1 (hSz1 W).2 hcW hB hfin hsplit hcut hn hd1 hend1
      hd2 hend2 hr hSz1 hSz2 hc

end ClearSound

end Members
end Kcert
