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
with check (2) on each part and no race report gives `SegOrdered`.
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

end Members
end Kcert
