import Kcert.OnceCheck

/-!
# Linking the executor's clocks (`Named.lean`) to check (3)'s happens-before (`OnceCheck.lean`)

`OnceCheck.lean` states check (3) (`Members.Check3`) with a happens-before `Members.HB act`
defined from the per-thread action sequences `act` and the `k`-th-arrival matching;
`Named.lean` decides with the executor's clocks the happens-before `Race.HB` of the executor's
own history (`Race.ordered_iff_hb`).  This file links the two.

* `nEv t h`: how many events thread `t` performed in the history `h`; `FromAct act h`: the
  history follows `act` (thread `t`'s event number `i` is `act t i`: a `bar t b w` event is
  `Ev.arr b w`, an action is `Ev.loc`).  `PosAt h k u i`: event `k` of `h` is thread `u`'s
  action `i`.
* `pendI h b`: the pending arrivals at `b`, as (thread, action index), computed like `brun`'s
  arrival lists; `KthInst act h`: every completion of `h` drains arrivals with one arrival
  number (`ac`): the instances of the executor's history are the `k`-th arrivals (what checks
  (1) and (2) give, `checked_matching`; here a hypothesis on the history, see the README).
* `hb_link`: under `FromAct`, `NotBlocked` and `KthInst`, if event `k` happens before the
  current point of thread `j` (`Race.HB h k j`), then `k` is some `(u, i)` with
  `Members.HB act (u, i) (j, nEv j h)`: it happens before `j`'s next action.
* `RustCheck3 N act H`: the Rust's check (3) over the executor's history `H`, with the clocks:
  at each arrival of `t` at `b` whose previous arrival there (index `i`) was a `bar.arrive`, some
  completion in the history drained `(t, i)` together with a waiting arrival `(y, j)`, and the
  epoch of `y`'s event after it (`(y, j + 1)`, `Seg`) is `ordered` before `t`.
* `check3_of_rust`: `RustCheck3` on a history holding every action of `act` (`Covers`) gives
  `Members.Check3 act`; `once_of_rust`: hence `Members.once_all`: every valid schedule of `act`
  is `Once` at every id, and matched by `k`-th arrivals (`matching_of_rust`).
-/

namespace Kcert
namespace Members

open Race (EventN HB hbRun brun NotBlocked Seg lenL takeL dropL Rel2 In snocL)

section Link

variable {V : Type}

/-- How many events thread `t` performed in `h`. -/
def nEv (t : Nat) : List (EventN V) → Nat
  | [] => 0
  | EventN.act u _ :: h => if u = t then nEv t h + 1 else nEv t h
  | EventN.bar u _ _ :: h => if u = t then nEv t h + 1 else nEv t h
  | EventN.complete _ _ :: h => nEv t h

/-- The history follows the per-thread sequences `act`. -/
def FromAct (act : Nat → Nat → Ev) : List (EventN V) → Prop
  | [] => True
  | EventN.act t _ :: h => FromAct act h ∧ act t (nEv t h) = Ev.loc
  | EventN.bar t b w :: h => FromAct act h ∧ act t (nEv t h) = Ev.arr b w
  | EventN.complete _ _ :: h => FromAct act h

/-- Event `k` (from the oldest) of `h` is thread `u`'s action `i`. -/
def PosAt : List (EventN V) → Nat → Nat → Nat → Prop
  | [], _, _, _ => False
  | e :: h, k, u, i => (k = lenL h ∧ Race.Actor e u ∧ i = nEv u h) ∨ PosAt h k u i

/-- The pending arrivals at each id as (thread, action index), like `brun`'s lists. -/
def pendI : List (EventN V) → Nat → List (Nat × Nat)
  | [] => fun _ => []
  | EventN.act _ _ :: h => pendI h
  | EventN.bar t b _ :: h => Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h))
  | EventN.complete b m :: h => Sem.upd (pendI h) b (dropL m (pendI h b))

/-- Every completion drains arrivals with one arrival number: the executor's instances are the
`k`-th arrivals. -/
def KthInst (act : Nat → Nat → Ev) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => KthInst act h
  | EventN.bar _ _ _ :: h => KthInst act h
  | EventN.complete b m :: h => KthInst act h ∧ ∀ p q, In p (takeL m (pendI h b)) →
      In q (takeL m (pendI h b)) → ac act b p.1 p.2 = ac act b q.1 q.2

/-- Reflexive happens-before. -/
def HBe (act : Nat → Nat → Ev) (p q : Nat × Nat) : Prop := p = q ∨ HB act p q

theorem hbe_edge {act : Nat → Nat → Ev} {p q r : Nat × Nat} (h1 : HBe act p q)
    (h2 : Edge act q r) : HB act p r := by
  cases h1 with
  | inl e => rw [e]; exact HB.edge h2
  | inr h => exact HB.step h h2

/-- What a pending happens-before arrival `x` stands for: the arrival `(u, i)`. -/
def PendOK (act : Nat → Nat → Ev) (h : List (EventN V)) (b : Nat) (p : Nat × Nat)
    (x : Race.HArr) : Prop :=
  x.tid = p.1 ∧ act p.1 p.2 = Ev.arr b x.wait ∧ p.2 < nEv p.1 h ∧
  (x.wait = true → nEv p.1 h = p.2 + 1) ∧
  ∀ k, x.know k → ∃ u i, PosAt h k u i ∧ HBe act (u, i) p

/-- The invariant. -/
def LInv (act : Nat → Nat → Ev) (h : List (EventN V)) : Prop :=
  (∀ j k, (hbRun h).know j k → ∃ u i, PosAt h k u i ∧ HB act (u, i) (j, nEv j h)) ∧
  (∀ b, Rel2 (PendOK act h b) (pendI h b) ((hbRun h).pend b))


theorem nEv_le (u : Nat) (e : EventN V) (h : List (EventN V)) : nEv u h ≤ nEv u (e :: h) := by
  cases e with
  | act t A =>
    show nEv u h ≤ (if t = u then nEv u h + 1 else nEv u h)
    cases Nat.decEq t u with
    | isTrue e => rw [if_pos' e]; exact Nat.leSucc _
    | isFalse e => rw [if_neg' e]; exact Nat.leRefl _
  | bar t b w =>
    show nEv u h ≤ (if t = u then nEv u h + 1 else nEv u h)
    cases Nat.decEq t u with
    | isTrue e => rw [if_pos' e]; exact Nat.leSucc _
    | isFalse e => rw [if_neg' e]; exact Nat.leRefl _
  | complete b m => exact Nat.leRefl _

/-- A pending `bar.sync` arrival of `happens-before` is an arrival of a blocked thread. -/
theorem blocked_of_pend {N : Nat} {h : List (EventN V)} (hI : Race.CInv N h) {b : Nat}
    {x : Race.HArr} (hx : In x ((hbRun h).pend b)) (hw : x.wait = true) :
    Race.Blocked (brun N h) x.tid :=
  match Race.rel2_inR (hI.2.2 b) hx with
  | ⟨a, ha, ok⟩ => ⟨b, a, ha, ok.1, Eq.trans ok.2.1 hw⟩

/-- The knowledge part of the invariant after an event of thread `t`. -/
theorem know_step {act : Nat → Nat → Ev} {h : List (EventN V)} {e : EventN V} {t : Nat}
    (hI1 : ∀ j k, (hbRun h).know j k → ∃ u i, PosAt h k u i ∧ HB act (u, i) (j, nEv j h))
    (hact : Race.Actor e t) (hself : nEv t (e :: h) = nEv t h + 1)
    (hoth : ∀ j, ¬ j = t → nEv j (e :: h) = nEv j h) :
    ∀ j k, ((j = t ∧ k = lenL h) ∨ (hbRun h).know j k) →
      ∃ u i, PosAt (e :: h) k u i ∧ HB act (u, i) (j, nEv j (e :: h)) := by
  intro j k hk
  cases hk with
  | inl hk =>
    rw [hk.1]
    refine ⟨t, nEv t h, Or.inl ⟨hk.2, hact, rfl⟩, ?_⟩
    rw [hself]
    exact HB.edge (Edge.po t (nEv t h))
  | inr hk =>
    match hI1 j k hk with
    | ⟨u, i, hp, hb⟩ =>
      refine ⟨u, i, Or.inr hp, ?_⟩
      cases Nat.decEq j t with
      | isTrue ej =>
        rw [ej, hself]
        rw [ej] at hb
        exact HB.step hb (Edge.po t (nEv t h))
      | isFalse ej =>
        rw [hoth j ej]
        exact hb

/-- A pending arrival stays described after an event of a thread with no pending wait. -/
theorem pendOK_actor {act : Nat → Nat → Ev} {h : List (EventN V)} {e : EventN V} {t b : Nat}
    {p : Nat × Nat} {x : Race.HArr}
    (hoth : ∀ j, ¬ j = t → nEv j (e :: h) = nEv j h)
    (hnb : x.wait = true → ¬ x.tid = t) (ok : PendOK act h b p x) : PendOK act (e :: h) b p x := by
  refine ⟨ok.1, ok.2.1, Nat.ltOfLtOfLe ok.2.2.1 (nEv_le p.1 e h), fun hw => ?_,
    fun k hk => match ok.2.2.2.2 k hk with
      | ⟨u, i, hp, hb⟩ => ⟨u, i, Or.inr hp, hb⟩⟩
  have ne : ¬ p.1 = t := by rw [← ok.1]; exact hnb hw
  rw [hoth p.1 ne]
  exact ok.2.2.2.1 hw

theorem pendOK_complete {act : Nat → Nat → Ev} {h : List (EventN V)} {b' m b : Nat}
    {p : Nat × Nat} {x : Race.HArr} (ok : PendOK act h b p x) :
    PendOK act (EventN.complete b' m :: h) b p x :=
  ⟨ok.1, ok.2.1, ok.2.2.1, ok.2.2.2.1, fun k hk => match ok.2.2.2.2 k hk with
      | ⟨u, i, hp, hb⟩ => ⟨u, i, Or.inr hp, hb⟩⟩

/-- **The invariant holds along every history of the executor** that follows `act`, where
blocked threads do nothing and instances are `k`-th arrivals. -/
theorem lInv_run {act : Nat → Nat → Ev} {N : Nat} : ∀ (h : List (EventN V)), FromAct act h →
    NotBlocked N h → KthInst act h → LInv act h
  | [], _, _, _ => ⟨fun j k hk => False.elim hk, fun b => trivial⟩
  | EventN.act t A :: h, hf, hw, hk => by
    have hI := lInv_run h hf.1 hw.1 hk
    have hC := Race.cInv_run (N := N) hw.1
    have hself : nEv t (EventN.act t A :: h) = nEv t h + 1 := by
      show (if t = t then nEv t h + 1 else nEv t h) = _
      rw [if_pos' rfl]
    have hoth : ∀ j, ¬ j = t → nEv j (EventN.act t A :: h) = nEv j h := by
      intro j ej
      show (if t = j then nEv j h + 1 else nEv j h) = _
      rw [if_neg' (fun e => ej (Eq.symm e))]
    refine ⟨know_step hI.1 (rfl : Race.Actor (EventN.act t A) t) hself hoth, fun b => ?_⟩
    show Rel2 (PendOK act (EventN.act t A :: h) b) (pendI h b) ((hbRun h).pend b)
    refine Race.rel2_memR (fun p x hx ok => pendOK_actor hoth ?_ ok) (hI.2 b)
    intro hwx hxt
    have hbl := blocked_of_pend hC hx hwx
    rw [hxt] at hbl
    exact hw.2 t rfl hbl
  | EventN.bar t b w :: h, hf, hw, hk => by
    have hI := lInv_run h hf.1 hw.1 hk
    have hC := Race.cInv_run (N := N) hw.1
    have hself : nEv t (EventN.bar t b w :: h) = nEv t h + 1 := by
      show (if t = t then nEv t h + 1 else nEv t h) = _
      rw [if_pos' rfl]
    have hoth : ∀ j, ¬ j = t → nEv j (EventN.bar t b w :: h) = nEv j h := by
      intro j ej
      show (if t = j then nEv j h + 1 else nEv j h) = _
      rw [if_neg' (fun e => ej (Eq.symm e))]
    refine ⟨know_step hI.1 (rfl : Race.Actor (EventN.bar t b w) t) hself hoth, fun b' => ?_⟩
    have mono : ∀ b'', ∀ (p : Nat × Nat) (x : Race.HArr), In x ((hbRun h).pend b'') →
        PendOK act h b'' p x → PendOK act (EventN.bar t b w :: h) b'' p x := by
      intro b'' p x hx ok
      refine pendOK_actor hoth ?_ ok
      intro hwx hxt
      have hbl := blocked_of_pend hC hx hwx
      rw [hxt] at hbl
      exact hw.2 t rfl hbl
    have new : PendOK act (EventN.bar t b w :: h) b (t, nEv t h)
        ⟨t, w, fun k => k = lenL h ∨ (hbRun h).know t k⟩ := by
      refine ⟨rfl, hf.2, ?_, fun _ => hself, fun k hk' => ?_⟩
      · show nEv t h < nEv t (EventN.bar t b w :: h)
        rw [hself]; exact Nat.ltSuccSelf _
      · cases hk' with
        | inl e => exact ⟨t, nEv t h, Or.inl ⟨e, rfl, rfl⟩, Or.inl rfl⟩
        | inr hk' =>
          match hI.1 t k hk' with
          | ⟨u, i, hp, hb⟩ => exact ⟨u, i, Or.inr hp, Or.inr hb⟩
    show Rel2 (PendOK act (EventN.bar t b w :: h) b')
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
    have hI := lInv_run h hf hw.1 hk.1
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
              have hac : ac act b q1 q2 = ac act b p1 p2 := hk.2 (q1, q2) (p1, p2) hq hp
              have ed := Edge.bar q1 q2 p1 p2 b x.wait okq.2.1 hpw hac
              have e1 : p1 = j := by rw [← hyt]; exact Eq.symm okp.1
              have e2 : nEv p1 h = p2 + 1 := okp.2.2.2.1 hyw
              show HB act (u, i) (j, nEv j h)
              rw [← e1, e2]
              exact hbe_edge hbe ed
    · show Rel2 (PendOK act (EventN.complete b m :: h) b')
        (Sem.upd (pendI h) b (dropL m (pendI h b)) b')
        (Sem.upd (hbRun h).pend b (dropL m ((hbRun h).pend b)) b')
      cases Nat.decEq b' b with
      | isTrue eb =>
        rw [eb, Race.upd_same, Race.upd_same]
        exact Race.rel2_drop m (Race.rel2_mono (fun p x _ ok => pendOK_complete ok) (hI.2 b))
      | isFalse eb =>
        rw [Race.upd_other _ _ eb, Race.upd_other _ _ eb]
        exact Race.rel2_mono (fun p x _ ok => pendOK_complete ok) (hI.2 b')

/-- **The link**: in an executor history that follows `act`, where blocked threads do nothing
and every instance is made of `k`-th arrivals, whatever happens before the current point of
thread `j` in `Named.lean`'s sense (`Race.HB h k j`, which the clocks decide:
`Race.ordered_iff_hb`) is an action `(u, i)` of `act` that happens before `j`'s next action
`(j, nEv j h)` in `OnceCheck.lean`'s sense. -/
theorem hb_link {act : Nat → Nat → Ev} {N : Nat} {h : List (EventN V)} (hf : FromAct act h)
    (hw : NotBlocked N h) (hk : KthInst act h) {k j : Nat} (hb : Race.HB h k j) :
    ∃ u i, PosAt h k u i ∧ HB act (u, i) (j, nEv j h) :=
  (lInv_run (N := N) h hf hw hk).1 j k hb

/-! ## Check (3) with the clocks gives `Check3` -/

/-- `l` is a suffix of `H`: a point of the executor's run `H`. -/
def Sfx {α : Type} (l : List α) : List α → Prop
  | [] => l = []
  | e :: H => l = e :: H ∨ Sfx l H

theorem sfx_pres {α : Type} {P : List α → Prop} (hP : ∀ e l, P (e :: l) → P l) :
    ∀ (H l : List α), Sfx l H → P H → P l
  | [], l, hs, hH => by
    have e : l = [] := hs
    rw [e]; exact hH
  | e :: H, l, hs, hH => by
    cases hs with
    | inl el => rw [el]; exact hH
    | inr hs => exact sfx_pres hP H l hs (hP e H hH)

theorem sfx_tail {α : Type} {e : α} {l : List α} : ∀ {H : List α}, Sfx (e :: l) H → Sfx l H
  | [], hs => List.noConfusion hs
  | e' :: H, hs => by
    cases hs with
    | inl el =>
      have e2 : l = H := (List.cons.inj el).2
      rw [e2]
      exact Or.inr (sfx_self H)
    | inr hs => exact Or.inr (sfx_tail hs)
where
  sfx_self : ∀ (H : List α), Sfx H H
    | [] => rfl
    | _ :: _ => Or.inl rfl

theorem fromAct_tail {act : Nat → Nat → Ev} (e : EventN V) (l : List (EventN V))
    (h : FromAct act (e :: l)) : FromAct act l := by
  cases e with
  | act t A => exact h.1
  | bar t b w => exact h.1
  | complete b m => exact h

theorem kthInst_tail {act : Nat → Nat → Ev} (e : EventN V) (l : List (EventN V))
    (h : KthInst act (e :: l)) : KthInst act l := by
  cases e with
  | act t A => exact h
  | bar t b w => exact h
  | complete b m => exact h.1

theorem notBlocked_tail {N : Nat} (e : EventN V) (l : List (EventN V))
    (h : NotBlocked N (e :: l)) : NotBlocked N l := h.1

theorem posAt_lt : ∀ {h : List (EventN V)} {k u i : Nat}, PosAt h k u i → k < lenL h
  | [], _, _, _, hp => False.elim hp
  | e :: h, k, u, i, hp => by
    cases hp with
    | inl hp => rw [hp.1]; exact Nat.ltSuccSelf _
    | inr hp => exact Nat.leStep (posAt_lt hp)

theorem actor_fun : ∀ {e : EventN V} {u u' : Nat}, Race.Actor e u → Race.Actor e u' → u = u'
  | EventN.act t _, _, _, h1, h2 => Eq.trans (Eq.symm h1) h2
  | EventN.bar t _ _, _, _, h1, h2 => Eq.trans (Eq.symm h1) h2
  | EventN.complete _ _, _, _, h1, _ => False.elim h1

/-- An event index is one action of one thread. -/
theorem posAt_fun : ∀ {h : List (EventN V)} {k u i u' i' : Nat}, PosAt h k u i →
    PosAt h k u' i' → u = u' ∧ i = i'
  | [], _, _, _, _, _, hp, _ => False.elim hp
  | e :: h, k, u, i, u', i', hp, hq => by
    cases hp with
    | inl hp =>
      cases hq with
      | inl hq =>
        have eu := actor_fun hp.2.1 hq.2.1
        refine ⟨eu, ?_⟩
        rw [hp.2.2, hq.2.2, eu]
      | inr hq =>
        have l := posAt_lt hq
        rw [hp.1] at l
        exact False.elim (Nat.ltIrrefl _ l)
    | inr hp =>
      cases hq with
      | inl hq =>
        have l := posAt_lt hp
        rw [hq.1] at l
        exact False.elim (Nat.ltIrrefl _ l)
      | inr hq => exact posAt_fun hp hq

/-- Every action a thread performed in `H` is an event of `H`: the point where it happens. -/
theorem find_ev {t : Nat} : ∀ (H : List (EventN V)) (i : Nat), i < nEv t H →
    ∃ e h, Sfx (e :: h) H ∧ Race.Actor e t ∧ nEv t h = i
  | [], i, hi => False.elim (Nat.notLtZero _ hi)
  | e :: H, i, hi => by
    have up : (∃ e' h, Sfx (e' :: h) H ∧ Race.Actor e' t ∧ nEv t h = i) →
        ∃ e' h, Sfx (e' :: h) (e :: H) ∧ Race.Actor e' t ∧ nEv t h = i :=
      fun r => match r with
        | ⟨e', h, hs, ha, hn⟩ => ⟨e', h, Or.inr hs, ha, hn⟩
    have here : ∀ u, Race.Actor e u → (if u = t then nEv t H + 1 else nEv t H) = nEv t (e :: H) →
        ∃ e' h, Sfx (e' :: h) (e :: H) ∧ Race.Actor e' t ∧ nEv t h = i := by
      intro u hu hn
      cases Nat.decEq u t with
      | isFalse eu =>
        rw [if_neg' eu] at hn
        rw [← hn] at hi
        exact up (find_ev H i hi)
      | isTrue eu =>
        rw [if_pos' eu] at hn
        rw [← hn] at hi
        cases Nat.eqOrLtOfLe (Nat.leOfLtSucc hi) with
        | inl ei => rw [eu] at hu; exact ⟨e, H, Or.inl rfl, hu, Eq.symm ei⟩
        | inr hl => exact up (find_ev H i hl)
    cases e with
    | act u A => exact here u rfl rfl
    | bar u b w => exact here u rfl rfl
    | complete b m => exact up (find_ev H i hi)

/-- The event of a history following `act` at which `t` does an arrival of `act` is that
`bar` event. -/
theorem ev_bar {act : Nat → Nat → Ev} {e : EventN V} {h : List (EventN V)} {t b : Nat} {w : Bool}
    (hf : FromAct act (e :: h)) (ha : Race.Actor e t) (hact : act t (nEv t h) = Ev.arr b w) :
    e = EventN.bar t b w := by
  cases e with
  | act u A =>
    have eu : u = t := ha
    have h2 : act u (nEv u h) = Ev.loc := hf.2
    rw [eu, hact] at h2
    exact Ev.noConfusion h2
  | bar u b' w' =>
    have eu : u = t := ha
    have h2 : act u (nEv u h) = Ev.arr b' w' := hf.2
    rw [eu, hact] at h2
    rw [eu, arr_b h2, arr_w h2]
  | complete b' m => exact False.elim ha

/-- The executor's run `H` holds every action of `act` (every thread ran to its end). -/
def Covers (act : Nat → Nat → Ev) (H : List (EventN V)) : Prop :=
  ∀ t i b w, act t i = Ev.arr b w → i < nEv t H

/-- **The Rust's check (3) over the executor's history, with its clocks** (`step.rs`
`Op::Bar`, `cta.completed`, `Clocks::ordered`): whenever thread `t` arrives at `b` (history `h`
before) and its previous arrival at `b`, action `i`, was a `bar.arrive`, some completion of `b`
in `h` drained `(t, i)` together with a waiting arrival `(y, j)`, and the epoch `⟨y, c⟩` of
`y`'s next event (action `j + 1`, event `k`: the epoch the Rust records as `seen` at the
completion) is `ordered` before `t` by the clocks at `t`'s arrival. -/
def RustCheck3 (N : Nat) (act : Nat → Nat → Ev) (H : List (EventN V)) : Prop :=
  ∀ t b w' h, Sfx (EventN.bar t b w' :: h) H → ∀ i, i < nEv t h → act t i = Ev.arr b false →
    ac act b t (nEv t h) = ac act b t i + 1 →
    ∃ m hc y j, Sfx (EventN.complete b m :: hc) h ∧ In (t, i) (takeL m (pendI hc b)) ∧
      In (y, j) (takeL m (pendI hc b)) ∧ act y j = Ev.arr b true ∧
      ∃ k c, PosAt h k y (j + 1) ∧ Seg N h k y c ∧ (brun N h).clocks.ordered ⟨y, c⟩ t = true

/-- **The Rust's check (3), evaluated with the executor's clocks on its history, gives
`Check3`.**  For a run `H` of the executor that follows `act`, holds all its arrivals
(`Covers`), where blocked threads do nothing and every completion drains `k`-th arrivals
(`KthInst`), `RustCheck3` implies `Members.Check3 act`. -/
theorem check3_of_rust {act : Nat → Nat → Ev} {N : Nat} {H : List (EventN V)}
    (hf : FromAct act H) (hw : NotBlocked N H) (hk : KthInst act H) (hcov : Covers act H)
    (hr : RustCheck3 N act H) : Check3 act := by
  intro t i i' b wt' hi hi' hlt hnext
  match find_ev H i' (hcov t i' b wt' hi') with
  | ⟨e, h, hs, ha, hn⟩ =>
    have hf1 : FromAct act (e :: h) := sfx_pres fromAct_tail H _ hs hf
    have hact' : act t (nEv t h) = Ev.arr b wt' := by rw [hn]; exact hi'
    have ee : e = EventN.bar t b wt' := ev_bar hf1 ha hact'
    rw [ee] at hs
    have hf0 : FromAct act h := sfx_pres fromAct_tail H h (sfx_tail hs) hf
    have hw0 : NotBlocked N h := sfx_pres notBlocked_tail H h (sfx_tail hs) hw
    have hk0 : KthInst act h := sfx_pres kthInst_tail H h (sfx_tail hs) hk
    have hil : i < nEv t h := by rw [hn]; exact hlt
    have hnx : ac act b t (nEv t h) = ac act b t i + 1 := by rw [hn]; exact hnext
    match hr t b wt' h hs i hil hi hnx with
    | ⟨m, hc, y, j, hsc, hti, hyj, hyw, k, c, hpos, hseg, hord⟩ =>
      have hkc : KthInst act (EventN.complete b m :: hc) := sfx_pres kthInst_tail h _ hsc hk0
      have hac : ac act b y j = ac act b t i := hkc.2 (y, j) (t, i) hyj hti
      have hhb : Race.HB h k t := Race.ordered_hb hw0 hseg hord
      match hb_link hf0 hw0 hk0 hhb with
      | ⟨u, i2, hpos2, hb2⟩ =>
        have eq := posAt_fun hpos2 hpos
        refine ⟨y, j, hyw, hac, ?_⟩
        rw [eq.1, eq.2, hn] at hb2
        exact hb2

/-- **So `once_all` applies**: with the members sets of check (2) (`Memb`, `Sized`), every valid
schedule of `act` is `Once` at every id. -/
theorem once_of_rust {act : Nat → Nat → Ev} {N : Nat} {H : List (EventN V)} (m : Nat → Nat)
    (S : Nat → List Nat) (hM : Memb act S) (hSz : Sized m S)
    (hf : FromAct act H) (hw : NotBlocked N H) (hk : KthInst act H) (hcov : Covers act H)
    (hr : RustCheck3 N act H) : ∀ (h : List Nat), Valid act m h → OnceAll act m h :=
  once_all act m S hM hSz (check3_of_rust hf hw hk hcov hr)

/-- And every valid schedule matches the `k`-th instance at `b` with every member's `k`-th
arrival. -/
theorem matching_of_rust {act : Nat → Nat → Ev} {N : Nat} {H : List (EventN V)} (m : Nat → Nat)
    (S : Nat → List Nat) (hM : Memb act S) (hSz : Sized m S)
    (hf : FromAct act H) (hw : NotBlocked N H) (hk : KthInst act H) (hcov : Covers act H)
    (hr : RustCheck3 N act H) (h : List Nat) (hv : Valid act m h) (b : Nat) :
    ∀ k I, nthL (insts (m b) (arrs act b h)) k = some I →
      ∀ a, (Mem a I ↔ Mem a.1 (S b) ∧ a.2 = k) :=
  matching_all act m S hM hSz (check3_of_rust hf hw hk hcov hr) h hv b

end Link

end Members
end Kcert
