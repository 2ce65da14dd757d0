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
  is `Once` at every id, and matched by `k`-th arrivals (`matching_of_rust`).* `kthInst_of_drain`: check (2) over the history (`Drain2`: every completion of `b` drains each
  member of `S b` once and no other thread) with `FromAct` and `Memb` gives `KthInst`;
  `check3_of_members`, `once_of_members`: the above without the `KthInst` hypothesis.
* `memb_of_drain`: `Memb` from check (2) when nothing stays pending at the end;
  `once_of_checks`: `Once` from `Sized` and the executor's run and checks.
* Decision procedures for the hypotheses on a concrete history and the example `exH`
  (`exAct_check3`, `exAct_once`, `exAct_once2`).

Modelling assumptions (not proved): `RustCheck3` reads `cta.completed` as the completion that
drained the previous `bar.arrive`, and the recorded epoch `seen` as the epoch of the waiter's
next event; `Drain2` has no clearing of the members record.
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

/-! ## Deciding the hypotheses on a concrete history -/

section Dec

variable {V : Type}

/-- Check (3)'s obligation at the latest event of a history. -/
def Head3 (N : Nat) (act : Nat → Nat → Ev) : List (EventN V) → Prop
  | EventN.bar t b _ :: h => ∀ i, i < nEv t h → act t i = Ev.arr b false →
    ac act b t (nEv t h) = ac act b t i + 1 →
    ∃ m hc y j, Sfx (EventN.complete b m :: hc) h ∧ In (t, i) (takeL m (pendI hc b)) ∧
      In (y, j) (takeL m (pendI hc b)) ∧ act y j = Ev.arr b true ∧
      ∃ k c, PosAt h k y (j + 1) ∧ Seg N h k y c ∧ (brun N h).clocks.ordered ⟨y, c⟩ t = true
  | _ => True

theorem rust3_nil (N : Nat) (act : Nat → Nat → Ev) : RustCheck3 N act ([] : List (EventN V)) :=
  fun _ _ _ _ hs => List.noConfusion hs

theorem rust3_cons {N : Nat} {act : Nat → Nat → Ev} {e : EventN V} {H : List (EventN V)}
    (hh : Head3 N act (e :: H)) (hr : RustCheck3 N act H) : RustCheck3 N act (e :: H) := by
  intro t b w' h hs
  cases hs with
  | inl e' => rw [← e'] at hh; exact hh
  | inr hs => exact hr t b w' h hs

def isArrive (b : Nat) : Ev → Bool
  | Ev.arr b' w => decide (b' = b) && !w
  | Ev.loc => false

def allBelow (p : Nat → Bool) : Nat → Bool
  | 0 => true
  | n + 1 => allBelow p n && p n

theorem allBelow_spec {p : Nat → Bool} : ∀ {n i : Nat}, allBelow p n = true → i < n → p i = true
  | 0, i, _, hi => False.elim (Nat.notLtZero _ hi)
  | n + 1, i, h, hi => by
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc hi) with
    | inl e => rw [e]; exact and_right' h
    | inr hl => exact allBelow_spec (and_left' h) hl

/-- Check (3)'s premise for the earlier action `i` (a `bar.arrive` at `b`, the previous
arrival there). -/
def prem3 (act : Nat → Nat → Ev) (t b n i : Nat) : Bool :=
  isArrive b (act t i) && decide (ac act b t n = ac act b t i + 1)

theorem prem3_of {act : Nat → Nat → Ev} {t b n i : Nat} (hi : act t i = Ev.arr b false)
    (hac : ac act b t n = ac act b t i + 1) : prem3 act t b n i = true := by
  show (isArrive b (act t i) && decide (ac act b t n = ac act b t i + 1)) = true
  rw [hi, decide_eq_true' hac]
  show ((decide (b = b) && !false) && true) = true
  rw [decide_eq_true' (rfl : b = b)]
  rfl

/-- No earlier `bar.arrive` to check. -/
theorem head3_none {N : Nat} {act : Nat → Nat → Ev} {t b : Nat} {w : Bool} {h : List (EventN V)}
    (hB : allBelow (fun i => !prem3 act t b (nEv t h) i) (nEv t h) = true) :
    Head3 N act (EventN.bar t b w :: h) := by
  intro i hi ha hac
  have h1 : (!prem3 act t b (nEv t h) i) = true := allBelow_spec hB hi
  rw [prem3_of ha hac] at h1
  cases h1

/-- One earlier `bar.arrive` to check, `i0`, with its witnesses. -/
theorem head3_one {N : Nat} {act : Nat → Nat → Ev} {t b : Nat} {w : Bool} {h : List (EventN V)}
    (i0 : Nat)
    (hB : allBelow (fun i => !prem3 act t b (nEv t h) i || decide (i = i0)) (nEv t h) = true)
    (hW : ∃ m hc y j, Sfx (EventN.complete b m :: hc) h ∧ In (t, i0) (takeL m (pendI hc b)) ∧
      In (y, j) (takeL m (pendI hc b)) ∧ act y j = Ev.arr b true ∧
      ∃ k c, PosAt h k y (j + 1) ∧ Seg N h k y c ∧ (brun N h).clocks.ordered ⟨y, c⟩ t = true) :
    Head3 N act (EventN.bar t b w :: h) := by
  intro i hi ha hac
  have h1 : (!prem3 act t b (nEv t h) i || decide (i = i0)) = true := allBelow_spec hB hi
  rw [prem3_of ha hac] at h1
  have e : i = i0 := of_decide_eq_true' h1
  rw [e]
  exact hW

def anyL {α : Type} (p : α → Bool) : List α → Bool
  | [] => false
  | x :: l => p x || anyL p l

theorem anyL_of {α : Type} {p : α → Bool} {x : α} : ∀ {l : List α}, In x l → p x = true →
    anyL p l = true
  | [], hx, _ => False.elim hx
  | y :: l, hx, hp => by
    show (p y || anyL p l) = true
    cases hx with
    | inl e => rw [e, hp]; rfl
    | inr hx => rw [anyL_of hx hp]; cases p y <;> rfl

def allL {α : Type} (p : α → Bool) : List α → Bool
  | [] => true
  | x :: l => p x && allL p l

theorem allL_spec {α : Type} {p : α → Bool} {x : α} : ∀ {l : List α}, allL p l = true → In x l →
    p x = true
  | [], _, hx => False.elim hx
  | y :: l, h, hx => by
    cases hx with
    | inl e => rw [← e]; exact and_left' h
    | inr hx => exact allL_spec (and_right' h) hx

theorem in_of_memB {x : Nat} : ∀ {l : List Nat}, memB x l = true → In x l
  | [], h => Bool.noConfusion h
  | y :: l, h => by
    have h' : (decide (y = x) || memB x l) = true := h
    cases hd : decide (y = x) with
    | true => exact Or.inl (of_decide_eq_true' hd)
    | false => rw [hd] at h'; exact Or.inr (in_of_memB h')

/-- Thread `t` has a pending `bar.sync` arrival at one of the ids `ids`. -/
def blockedB (s : Race.BarState) (ids : List Nat) (t : Nat) : Bool :=
  anyL (fun b => anyL (fun a : Race.Arrival => a.wait && decide (a.tid = t)) (s.bars b)) ids

/-- Every barrier id of the history is in `ids`. -/
def idsOK (ids : List Nat) : List (EventN V) → Bool
  | [] => true
  | EventN.act _ _ :: h => idsOK ids h
  | EventN.bar _ b _ :: h => memB b ids && idsOK ids h
  | EventN.complete b _ :: h => memB b ids && idsOK ids h

theorem bars_nil (N : Nat) {ids : List Nat} {b : Nat} (hb : memB b ids = false) :
    ∀ (h : List (EventN V)), idsOK ids h = true → (brun N h).bars b = []
  | [], _ => rfl
  | EventN.act t A :: h, hi => bars_nil N hb h hi
  | EventN.bar t b' w :: h, hi => by
    have ne : ¬ b = b' := by
      intro e
      have h1 : memB b' ids = true := and_left' hi
      rw [← e, hb] at h1
      exact Bool.noConfusion h1
    have ih := bars_nil N hb h (and_right' hi)
    cases w with
    | true =>
      show Sem.upd (brun N h).bars b' _ b = []
      rw [Race.upd_other _ _ ne]; exact ih
    | false =>
      show Sem.upd (brun N h).bars b' _ b = []
      rw [Race.upd_other _ _ ne]; exact ih
  | EventN.complete b' m :: h, hi => by
    have ne : ¬ b = b' := by
      intro e
      have h1 : memB b' ids = true := and_left' hi
      rw [← e, hb] at h1
      exact Bool.noConfusion h1
    show Sem.upd (brun N h).bars b' _ b = []
    rw [Race.upd_other _ _ ne]
    exact bars_nil N hb h (and_right' hi)

theorem not_blocked_of {N : Nat} {ids : List Nat} {h : List (EventN V)} (hi : idsOK ids h = true)
    {t : Nat} (hb : blockedB (brun N h) ids t = false) : ¬ Race.Blocked (brun N h) t := by
  intro hbl
  match hbl with
  | ⟨b, a, ha, ht, hw⟩ =>
    cases hm : memB b ids with
    | false =>
      rw [bars_nil N hm h hi] at ha
      exact ha
    | true =>
      have h1 : anyL (fun a : Race.Arrival => a.wait && decide (a.tid = t)) ((brun N h).bars b) = true :=
        anyL_of ha (by rw [hw, decide_eq_true' ht]; rfl)
      have h2 := anyL_of (p := fun b => anyL (fun a : Race.Arrival => a.wait && decide (a.tid = t))
        ((brun N h).bars b)) (in_of_memB hm) h1
      have h3 : blockedB (brun N h) ids t = true := h2
      rw [hb] at h3
      exact Bool.noConfusion h3

/-- `NotBlocked`, decided over the ids `ids`. -/
def notBlockedB (N : Nat) (ids : List Nat) : List (EventN V) → Bool
  | [] => true
  | EventN.act t _ :: h => notBlockedB N ids h && !blockedB (brun N h) ids t
  | EventN.bar t _ _ :: h => notBlockedB N ids h && !blockedB (brun N h) ids t
  | EventN.complete _ _ :: h => notBlockedB N ids h

theorem not_true {b : Bool} (h : (!b) = true) : b = false := by
  cases b with
  | true => cases h
  | false => rfl

theorem notBlocked_of {N : Nat} {ids : List Nat} : ∀ (h : List (EventN V)), idsOK ids h = true →
    notBlockedB N ids h = true → NotBlocked N h
  | [], _, _ => trivial
  | EventN.act t A :: h, hi, hn => by
    refine ⟨notBlocked_of h hi (and_left' hn), fun u hu => ?_⟩
    have e : t = u := hu
    rw [← e]
    exact not_blocked_of hi (not_true (and_right' hn))
  | EventN.bar t b w :: h, hi, hn => by
    refine ⟨notBlocked_of h (and_right' hi) (and_left' hn), fun u hu => ?_⟩
    have e : t = u := hu
    rw [← e]
    exact not_blocked_of (and_right' hi) (not_true (and_right' hn))
  | EventN.complete b m :: h, hi, hn =>
    ⟨notBlocked_of h (and_right' hi) hn, fun u hu => False.elim hu⟩

def evEq : Ev → Ev → Bool
  | Ev.arr b w, Ev.arr b' w' => decide (b = b') && decide (w = w')
  | Ev.loc, Ev.loc => true
  | _, _ => false

theorem evEq_spec : ∀ {a a' : Ev}, evEq a a' = true → a = a'
  | Ev.arr b w, Ev.arr b' w', h => by
    rw [of_decide_eq_true' (and_left' h), of_decide_eq_true' (and_right' h)]
  | Ev.loc, Ev.loc, _ => rfl
  | Ev.arr _ _, Ev.loc, h => Bool.noConfusion h
  | Ev.loc, Ev.arr _ _, h => Bool.noConfusion h

/-- `FromAct`, decided. -/
def fromActB (act : Nat → Nat → Ev) : List (EventN V) → Bool
  | [] => true
  | EventN.act t _ :: h => fromActB act h && evEq (act t (nEv t h)) Ev.loc
  | EventN.bar t b w :: h => fromActB act h && evEq (act t (nEv t h)) (Ev.arr b w)
  | EventN.complete _ _ :: h => fromActB act h

theorem fromAct_of (act : Nat → Nat → Ev) : ∀ (h : List (EventN V)), fromActB act h = true →
    FromAct act h
  | [], _ => trivial
  | EventN.act t A :: h, hb => ⟨fromAct_of act h (and_left' hb), evEq_spec (and_right' hb)⟩
  | EventN.bar t b w :: h, hb => ⟨fromAct_of act h (and_left' hb), evEq_spec (and_right' hb)⟩
  | EventN.complete b m :: h, hb => fromAct_of act h hb

/-- `KthInst`, decided. -/
def kthB (act : Nat → Nat → Ev) : List (EventN V) → Bool
  | [] => true
  | EventN.act _ _ :: h => kthB act h
  | EventN.bar _ _ _ :: h => kthB act h
  | EventN.complete b m :: h => kthB act h &&
      allL (fun p : Nat × Nat => allL (fun q : Nat × Nat =>
        decide (ac act b p.1 p.2 = ac act b q.1 q.2)) (takeL m (pendI h b))) (takeL m (pendI h b))

theorem kth_of (act : Nat → Nat → Ev) : ∀ (h : List (EventN V)), kthB act h = true →
    KthInst act h
  | [], _ => trivial
  | EventN.act t A :: h, hb => kth_of act h hb
  | EventN.bar t b w :: h, hb => kth_of act h hb
  | EventN.complete b m :: h, hb => by
    have h2 : allL (fun p : Nat × Nat => allL (fun q : Nat × Nat =>
        decide (ac act b p.1 p.2 = ac act b q.1 q.2)) (takeL m (pendI h b)))
        (takeL m (pendI h b)) = true := and_right' hb
    refine ⟨kth_of act h (and_left' hb), fun p q hp hq => ?_⟩
    have h3 : allL (fun q : Nat × Nat => decide (ac act b p.1 p.2 = ac act b q.1 q.2))
        (takeL m (pendI h b)) = true :=
      allL_spec (p := fun p : Nat × Nat => allL (fun q : Nat × Nat =>
        decide (ac act b p.1 p.2 = ac act b q.1 q.2)) (takeL m (pendI h b))) h2 hp
    exact of_decide_eq_true' (allL_spec
      (p := fun q : Nat × Nat => decide (ac act b p.1 p.2 = ac act b q.1 q.2)) h3 hq)

end Dec

/-! ## `KthInst` from the members check (2) on the history

The Rust's check (2) (`resolve_barriers`): the threads of every instance of `b` are the members
`S b` (the first instance's sorted threads), none twice.  Over the history: every completion
of `b` drains each member exactly once and no other thread (`Drain2`).  With `FromAct` and
`Memb` (only members arrive at `b`), this gives `KthInst`: the pending arrivals are in arrival
order, so each drained arrival is its thread's first pending one, whose number is the number of
completions so far (`PosOK`). -/

section Drain

variable {V : Type}

/-- How many entries of thread `u`. -/
def cntP (u : Nat) : List (Nat × Nat) → Nat
  | [] => 0
  | x :: l => if x.1 = u then cntP u l + 1 else cntP u l

/-- Check (2) over the history: every completion of `b` drains each member of `S b` once and
no other thread. -/
def Drain2 (S : Nat → List Nat) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => Drain2 S h
  | EventN.bar _ _ _ :: h => Drain2 S h
  | EventN.complete b m :: h => Drain2 S h ∧
      ∀ u, cntP u (takeL m (pendI h b)) = cond (memB u (S b)) 1 0

def bmp (c : Nat → Nat) (v : Nat) : Nat → Nat := fun u => if v = u then c u + 1 else c u

/-- The pending list (oldest first) has each entry's arrival number `c` of its thread, `c`
counting up along the list. -/
def PosOK (act : Nat → Nat → Ev) (b : Nat) : (Nat → Nat) → List (Nat × Nat) → Prop
  | _, [] => True
  | c, x :: l => ac act b x.1 x.2 = c x.1 ∧ PosOK act b (bmp c x.1) l

theorem posOK_snoc {act : Nat → Nat → Ev} {b u i : Nat} :
    ∀ (l : List (Nat × Nat)) (c : Nat → Nat), PosOK act b c l →
      ac act b u i = c u + cntP u l → PosOK act b c (snocL l (u, i))
  | [], c, _, ha => ⟨ha, trivial⟩
  | (v, j) :: l, c, hp, ha => by
    refine ⟨hp.1, posOK_snoc l (bmp c v) hp.2 ?_⟩
    rw [ha]
    show c u + (if v = u then cntP u l + 1 else cntP u l) = (if v = u then c u + 1 else c u) + cntP u l
    cases Nat.decEq v u with
    | isTrue e =>
      rw [if_pos' e, if_pos' e, Nat.add_assoc, Nat.add_comm 1 (cntP u l), ← Nat.add_assoc]
    | isFalse e => rw [if_neg' e, if_neg' e]

theorem posOK_congr {act : Nat → Nat → Ev} {b : Nat} :
    ∀ (l : List (Nat × Nat)) (c c' : Nat → Nat), PosOK act b c l →
      (∀ y, In y l → c y.1 = c' y.1) → PosOK act b c' l
  | [], _, _, _, _ => trivial
  | (v, j) :: l, c, c', hp, hc => by
    refine ⟨by rw [← hc (v, j) (Or.inl rfl)]; exact hp.1, posOK_congr l (bmp c v) (bmp c' v) hp.2 ?_⟩
    intro y hy
    show (if v = y.1 then c y.1 + 1 else c y.1) = (if v = y.1 then c' y.1 + 1 else c' y.1)
    rw [hc y (Or.inr hy)]

theorem cntP_pos {y : Nat × Nat} : ∀ {l : List (Nat × Nat)}, In y l → 0 < cntP y.1 l
  | [], hy => False.elim hy
  | x :: l, hy => by
    show 0 < (if x.1 = y.1 then cntP y.1 l + 1 else cntP y.1 l)
    cases Nat.decEq x.1 y.1 with
    | isTrue e => rw [if_pos' e]; exact Nat.zeroLtSucc _
    | isFalse e =>
      rw [if_neg' e]
      cases hy with
      | inl ex => rw [ex] at e; exact False.elim (e rfl)
      | inr hy => exact cntP_pos hy

theorem cntP_le_cons (u : Nat) (x : Nat × Nat) (l : List (Nat × Nat)) :
    cntP u l ≤ cntP u (x :: l) := by
  show cntP u l ≤ (if x.1 = u then cntP u l + 1 else cntP u l)
  cases Nat.decEq x.1 u with
  | isTrue e => rw [if_pos' e]; exact Nat.leSucc _
  | isFalse e => rw [if_neg' e]; exact Nat.leRefl _

/-- Drained entries of distinct threads all carry their thread's current number. -/
theorem posOK_take {act : Nat → Nat → Ev} {b : Nat} :
    ∀ (m : Nat) (l : List (Nat × Nat)) (c : Nat → Nat), PosOK act b c l →
      (∀ u, cntP u (takeL m l) ≤ 1) → ∀ y, In y (takeL m l) → ac act b y.1 y.2 = c y.1
  | 0, _, _, _, _, y, hy => False.elim hy
  | _ + 1, [], _, _, _, y, hy => False.elim hy
  | m + 1, (v, j) :: l, c, hp, h1, y, hy => by
    cases hy with
    | inl e => rw [← e]; exact hp.1
    | inr hy =>
      have ne : ¬ v = y.1 := by
        intro e
        have l1 : 0 < cntP y.1 (takeL m l) := cntP_pos hy
        have l2 : cntP v (takeL (m + 1) ((v, j) :: l)) = cntP v (takeL m l) + 1 := by
          show (if v = v then cntP v (takeL m l) + 1 else cntP v (takeL m l)) = _
          rw [if_pos' rfl]
        have l3 := h1 v
        rw [l2, e] at l3
        exact Nat.ltIrrefl _ (Nat.ltOfLtOfLe (Nat.succLeSucc l1) l3)
      have r := posOK_take m l (bmp c v) hp.2
        (fun u => Nat.leTrans (cntP_le_cons u (v, j) (takeL m l)) (h1 u)) y hy
      rw [r]
      show (if v = y.1 then c y.1 + 1 else c y.1) = c y.1
      rw [if_neg' ne]

/-- What stays pending after the drain carries the numbers counted past the drained ones. -/
theorem posOK_drop {act : Nat → Nat → Ev} {b : Nat} :
    ∀ (m : Nat) (l : List (Nat × Nat)) (c : Nat → Nat), PosOK act b c l →
      PosOK act b (fun u => c u + cntP u (takeL m l)) (dropL m l)
  | 0, l, c, hp => hp
  | _ + 1, [], _, _ => trivial
  | m + 1, (v, j) :: l, c, hp => by
    have r := posOK_drop m l (bmp c v) hp.2
    refine posOK_congr (dropL m l) _ _ r (fun y _ => ?_)
    show (if v = y.1 then c y.1 + 1 else c y.1) + cntP y.1 (takeL m l) =
      c y.1 + (if v = y.1 then cntP y.1 (takeL m l) + 1 else cntP y.1 (takeL m l))
    cases Nat.decEq v y.1 with
    | isTrue e =>
      rw [if_pos' e, if_pos' e, Nat.add_assoc, Nat.add_comm 1 (cntP y.1 (takeL m l)),
        ← Nat.add_assoc]
    | isFalse e => rw [if_neg' e, if_neg' e]

theorem cntP_split (u : Nat) : ∀ (m : Nat) (l : List (Nat × Nat)),
    cntP u l = cntP u (takeL m l) + cntP u (dropL m l)
  | 0, l => (Nat.zero_add _).symm
  | _ + 1, [] => rfl
  | m + 1, x :: l => by
    show (if x.1 = u then cntP u l + 1 else cntP u l) =
      (if x.1 = u then cntP u (takeL m l) + 1 else cntP u (takeL m l)) + cntP u (dropL m l)
    rw [cntP_split u m l]
    cases Nat.decEq x.1 u with
    | isTrue e =>
      rw [if_pos' e, if_pos' e, Nat.add_assoc, Nat.add_comm (cntP u (dropL m l)) 1,
        ← Nat.add_assoc]
    | isFalse e => rw [if_neg' e, if_neg' e]

theorem cntP_snoc_self (t i : Nat) : ∀ (l : List (Nat × Nat)),
    cntP t (snocL l (t, i)) = cntP t l + 1
  | [] => by
    show (if t = t then cntP t [] + 1 else cntP t []) = 0 + 1
    rw [if_pos' rfl]
    rfl
  | x :: l => by
    show (if x.1 = t then cntP t (snocL l (t, i)) + 1 else cntP t (snocL l (t, i))) =
      (if x.1 = t then cntP t l + 1 else cntP t l) + 1
    rw [cntP_snoc_self t i l]
    cases Nat.decEq x.1 t with
    | isTrue e => rw [if_pos' e, if_pos' e]
    | isFalse e => rw [if_neg' e, if_neg' e]

theorem cntP_snoc_other {t u i : Nat} : ∀ (l : List (Nat × Nat)), ¬ t = u →
    cntP u (snocL l (t, i)) = cntP u l
  | [], ne => by
    show (if t = u then cntP u [] + 1 else cntP u []) = 0
    rw [if_neg' ne]
    rfl
  | x :: l, ne => by
    show (if x.1 = u then cntP u (snocL l (t, i)) + 1 else cntP u (snocL l (t, i))) =
      (if x.1 = u then cntP u l + 1 else cntP u l)
    rw [cntP_snoc_other l ne]

theorem in_snoc_cases {x y : Nat × Nat} {l : List (Nat × Nat)} (h : In x (snocL l y)) :
    In x l ∨ y = x := Race.in_snocL h

/-- The invariant at one id. -/
def DInv (act : Nat → Nat → Ev) (S : Nat → List Nat) (h : List (EventN V)) (b : Nat) : Prop :=
  ∃ n, PosOK act b (fun _ => n) (pendI h b) ∧ (∀ y, In y (pendI h b) → Mem y.1 (S b)) ∧
    ∀ u, Mem u (S b) → ac act b u (nEv u h) = n + cntP u (pendI h b)

theorem dInv_of_eq {act : Nat → Nat → Ev} {S : Nat → List Nat} {h : List (EventN V)} {b : Nat}
    {l : List (Nat × Nat)} (e : pendI h b = l)
    (hx : ∃ n, PosOK act b (fun _ => n) l ∧ (∀ y, In y l → Mem y.1 (S b)) ∧
      ∀ u, Mem u (S b) → ac act b u (nEv u h) = n + cntP u l) : DInv act S h b := by
  rw [← e] at hx
  exact hx

theorem ac_loc {act : Nat → Nat → Ev} {b t i : Nat} (h : act t i = Ev.loc) :
    ac act b t (i + 1) = ac act b t i := by
  show cond (arrAt b (act t i)) (ac act b t i + 1) (ac act b t i) = ac act b t i
  rw [h]; rfl

theorem ac_other {act : Nat → Nat → Ev} {b b' t i : Nat} {w : Bool} (h : act t i = Ev.arr b' w)
    (ne : ¬ b' = b) : ac act b t (i + 1) = ac act b t i := by
  show cond (arrAt b (act t i)) (ac act b t i + 1) (ac act b t i) = ac act b t i
  rw [h]
  show cond (decide (b' = b)) (ac act b t i + 1) (ac act b t i) = ac act b t i
  rw [decide_eq_false' ne]; rfl

theorem nEv_self_act (t : Nat) (A : Sem.Act V) (h : List (EventN V)) :
    nEv t (EventN.act t A :: h) = nEv t h + 1 := by
  show (if t = t then nEv t h + 1 else nEv t h) = _
  rw [if_pos' rfl]

theorem nEv_other_act {t u : Nat} (A : Sem.Act V) (h : List (EventN V)) (ne : ¬ t = u) :
    nEv u (EventN.act t A :: h) = nEv u h := by
  show (if t = u then nEv u h + 1 else nEv u h) = _
  rw [if_neg' ne]

theorem nEv_self_bar (t b : Nat) (w : Bool) (h : List (EventN V)) :
    nEv t (EventN.bar t b w :: h) = nEv t h + 1 := by
  show (if t = t then nEv t h + 1 else nEv t h) = _
  rw [if_pos' rfl]

theorem nEv_other_bar {t u : Nat} (b : Nat) (w : Bool) (h : List (EventN V)) (ne : ¬ t = u) :
    nEv u (EventN.bar t b w :: h) = nEv u h := by
  show (if t = u then nEv u h + 1 else nEv u h) = _
  rw [if_neg' ne]

/-- **Check (2) on the history gives `KthInst`.** -/
theorem drain_run {act : Nat → Nat → Ev} {S : Nat → List Nat} (hM : Memb act S) :
    ∀ (h : List (EventN V)), FromAct act h → Drain2 S h → KthInst act h ∧ ∀ b, DInv act S h b
  | [], _, _ => ⟨trivial, fun b => ⟨0, trivial, fun y hy => False.elim hy, fun u _ => rfl⟩⟩
  | EventN.act t A :: h, hf, hd => by
    have ih := drain_run hM h hf.1 hd
    refine ⟨ih.1, fun b => ?_⟩
    match ih.2 b with
    | ⟨n, hp, hm, hc⟩ =>
      refine ⟨n, hp, hm, fun u hu => ?_⟩
      show ac act b u (nEv u (EventN.act t A :: h)) = n + cntP u (pendI h b)
      cases Nat.decEq t u with
      | isTrue e =>
        rw [← e, nEv_self_act, ac_loc hf.2, hc t (by rw [e]; exact hu)]
      | isFalse e => rw [nEv_other_act A h e]; exact hc u hu
  | EventN.bar t b w :: h, hf, hd => by
    have ih := drain_run hM h hf.1 hd
    refine ⟨ih.1, fun b' => ?_⟩
    have htS : Mem t (S b) := hM t (nEv t h) b w hf.2
    match ih.2 b' with
    | ⟨n, hp, hm, hc⟩ =>
      cases Nat.decEq b' b with
      | isTrue eb =>
        rw [eb] at hp hm hc
        rw [eb]
        have hpe : pendI (EventN.bar t b w :: h) b = snocL (pendI h b) (t, nEv t h) := by
          show Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) b = _
          rw [Race.upd_same]
        refine dInv_of_eq hpe ⟨n, posOK_snoc (pendI h b) (fun _ => n) hp (hc t htS), fun y hy => ?_, fun u hu => ?_⟩
        · cases in_snoc_cases hy with
          | inl hy => exact hm y hy
          | inr e => rw [← e]; exact htS
        · cases Nat.decEq t u with
          | isTrue e =>
            rw [← e, nEv_self_bar, ac_arr hf.2, hc t htS]
            rw [← e] at hu
            show n + cntP t (pendI h b) + 1 = n + cntP t (snocL (pendI h b) (t, nEv t h))
            rw [cntP_snoc_self]
            rfl
          | isFalse e =>
            rw [nEv_other_bar b w h e, hc u hu, cntP_snoc_other (pendI h b) e]
      | isFalse eb =>
        have hpe : pendI (EventN.bar t b w :: h) b' = pendI h b' := by
          show Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) b' = _
          rw [Race.upd_other _ _ eb]
        refine dInv_of_eq hpe ⟨n, hp, hm, fun u hu => ?_⟩
        cases Nat.decEq t u with
        | isTrue e =>
          rw [← e, nEv_self_bar, ac_other hf.2 (fun x => eb (Eq.symm x)), hc t (by rw [e]; exact hu)]
        | isFalse e => rw [nEv_other_bar b w h e]; exact hc u hu
  | EventN.complete b m :: h, hf, hd => by
    have ih := drain_run hM h hf hd.1
    match ih.2 b with
    | ⟨n, hp, hm, hc⟩ =>
      have h1 : ∀ u, cntP u (takeL m (pendI h b)) ≤ 1 := by
        intro u
        rw [hd.2 u]
        cases memB u (S b) with
        | true => exact Nat.leRefl _
        | false => exact Nat.zeroLe _
      have same := posOK_take m (pendI h b) (fun _ => n) hp h1
      refine ⟨⟨ih.1, fun p q hp' hq' => by rw [same p hp', same q hq']⟩, fun b' => ?_⟩
      cases Nat.decEq b' b with
      | isFalse eb =>
        have hpe : pendI (EventN.complete b m :: h) b' = pendI h b' := by
          show Sem.upd (pendI h) b (dropL m (pendI h b)) b' = _
          rw [Race.upd_other _ _ eb]
        match ih.2 b' with
        | ⟨n', hp', hm', hc'⟩ => exact dInv_of_eq hpe ⟨n', hp', hm', hc'⟩
      | isTrue eb =>
        rw [eb]
        have hpe : pendI (EventN.complete b m :: h) b = dropL m (pendI h b) := by
          show Sem.upd (pendI h) b (dropL m (pendI h b)) b = _
          rw [Race.upd_same]
        have one : ∀ u, Mem u (S b) → cntP u (takeL m (pendI h b)) = 1 := by
          intro u hu
          rw [hd.2 u, memB_of_mem (S b) hu]
          rfl
        refine dInv_of_eq hpe ⟨n + 1, posOK_congr _ _ _ (posOK_drop m (pendI h b) (fun _ => n) hp)
          (fun y hy => ?_), fun y hy => hm y (Race.in_dropL m hy), fun u hu => ?_⟩
        · show n + cntP y.1 (takeL m (pendI h b)) = n + 1
          rw [one y.1 (hm y (Race.in_dropL m hy))]
        · show ac act b u (nEv u h) = n + 1 + cntP u (dropL m (pendI h b))
          rw [hc u hu, cntP_split u m (pendI h b), one u hu, Nat.add_assoc]

/-- **Check (2) on the executor's history gives `KthInst`** (with `FromAct` and `Memb`). -/
theorem kthInst_of_drain {act : Nat → Nat → Ev} {S : Nat → List Nat} (hM : Memb act S)
    {H : List (EventN V)} (hf : FromAct act H) (hd : Drain2 S H) : KthInst act H :=
  (drain_run hM H hf hd).1

/-- **`Check3` from the Rust's checks (2) and (3) on the executor's history**: as
`check3_of_rust`, with `KthInst` derived from check (2) (`Drain2`) and `Memb`. -/
theorem check3_of_members {act : Nat → Nat → Ev} {S : Nat → List Nat} {N : Nat}
    {H : List (EventN V)} (hM : Memb act S) (hf : FromAct act H) (hw : NotBlocked N H)
    (hd : Drain2 S H) (hcov : Covers act H) (hr : RustCheck3 N act H) : Check3 act :=
  check3_of_rust hf hw (kthInst_of_drain hM hf hd) hcov hr

/-- Hence every valid schedule is `Once` at every id. -/
theorem once_of_members {act : Nat → Nat → Ev} {N : Nat} {H : List (EventN V)} (m : Nat → Nat)
    (S : Nat → List Nat) (hM : Memb act S) (hSz : Sized m S)
    (hf : FromAct act H) (hw : NotBlocked N H) (hd : Drain2 S H) (hcov : Covers act H)
    (hr : RustCheck3 N act H) : ∀ (h : List Nat), Valid act m h → OnceAll act m h :=
  once_all act m S hM hSz (check3_of_members hM hf hw hd hcov hr)

theorem cntP_ex {u : Nat} : ∀ {l : List (Nat × Nat)}, 0 < cntP u l → ∃ x, In x l ∧ x.1 = u
  | [], h => False.elim (Nat.notLtZero _ h)
  | x :: l, h => by
    cases Nat.decEq x.1 u with
    | isTrue e => exact ⟨x, Or.inl rfl, e⟩
    | isFalse e =>
      have h' : 0 < (if x.1 = u then cntP u l + 1 else cntP u l) := h
      rw [if_neg' e] at h'
      match cntP_ex h' with
      | ⟨y, hy, ey⟩ => exact ⟨y, Or.inr hy, ey⟩

/-- The drained list holds each member of `Sb` once and nothing else, decided. -/
def drainOKB (Sb : List Nat) (D : List (Nat × Nat)) : Bool :=
  allL (fun x : Nat × Nat => memB x.1 Sb) D && allL (fun s => decide (cntP s D = 1)) Sb

theorem drainOK_spec {Sb : List Nat} {D : List (Nat × Nat)} (hb : drainOKB Sb D = true) (u : Nat) :
    cntP u D = cond (memB u Sb) 1 0 := by
  cases hm : memB u Sb with
  | true =>
    exact of_decide_eq_true' (allL_spec (p := fun s => decide (cntP s D = 1)) (and_right' hb)
      (in_of_memB hm))
  | false =>
    cases hc : cntP u D with
    | zero => rfl
    | succ k =>
      have hpos : 0 < cntP u D := by rw [hc]; exact Nat.zeroLtSucc _
      match cntP_ex hpos with
      | ⟨x, hx, ex⟩ =>
        have r : memB x.1 Sb = true :=
          allL_spec (p := fun x : Nat × Nat => memB x.1 Sb) (and_left' hb) hx
        rw [ex, hm] at r
        exact Bool.noConfusion r

/-- `Drain2`, decided. -/
def drain2B (S : Nat → List Nat) : List (EventN V) → Bool
  | [] => true
  | EventN.act _ _ :: h => drain2B S h
  | EventN.bar _ _ _ :: h => drain2B S h
  | EventN.complete b m :: h => drain2B S h && drainOKB (S b) (takeL m (pendI h b))

theorem drain2_of (S : Nat → List Nat) : ∀ (h : List (EventN V)), drain2B S h = true → Drain2 S h
  | [], _ => trivial
  | EventN.act t A :: h, hb => drain2_of S h hb
  | EventN.bar t b w :: h, hb => drain2_of S h hb
  | EventN.complete b m :: h, hb => ⟨drain2_of S h (and_left' hb), drainOK_spec (and_right' hb)⟩

/-! ### `Memb` from check (2), when nothing stays pending -/

theorem mem_of_memB {x : Nat} : ∀ {l : List Nat}, memB x l = true → Mem x l
  | [], h => Bool.noConfusion h
  | y :: l, h => by
    have h' : (decide (y = x) || memB x l) = true := h
    cases hd : decide (y = x) with
    | true => exact Or.inl (of_decide_eq_true' hd)
    | false => rw [hd] at h'; exact Or.inr (mem_of_memB h')

theorem in_take_or_drop {α : Type} {x : α} : ∀ (m : Nat) (l : List α), In x l →
    In x (takeL m l) ∨ In x (dropL m l)
  | 0, l, h => Or.inr h
  | _ + 1, [], h => False.elim h
  | m + 1, y :: l, h => by
    cases h with
    | inl e => exact Or.inl (Or.inl e)
    | inr h =>
      cases in_take_or_drop m l h with
      | inl h' => exact Or.inl (Or.inr h')
      | inr h' => exact Or.inr h'

/-- A pending arrival at a point of the run is a member's, or still pending at the end. -/
theorem pend_fwd {S : Nat → List Nat} : ∀ (H : List (EventN V)), Drain2 S H →
    ∀ l, Sfx l H → ∀ b x, In x (pendI l b) → Mem x.1 (S b) ∨ In x (pendI H b)
  | [], _, l, hs, b, x, hx => by
    have e : l = [] := hs
    rw [e] at hx
    exact False.elim hx
  | e :: H, hd, l, hs, b, x, hx => by
    cases hs with
    | inl el => rw [el] at hx; exact Or.inr hx
    | inr hs =>
      have hd' : Drain2 S H := by
        cases e with
        | act t A => exact hd
        | bar t b' w => exact hd
        | complete b' m => exact hd.1
      cases pend_fwd H hd' l hs b x hx with
      | inl hm => exact Or.inl hm
      | inr hx =>
        cases e with
        | act t A => exact Or.inr hx
        | bar t b' w =>
          refine Or.inr ?_
          show In x (Sem.upd (pendI H) b' (snocL (pendI H b') (t, nEv t H)) b)
          cases Nat.decEq b b' with
          | isTrue eb => rw [eb, Race.upd_same]; rw [eb] at hx; exact Race.in_snocL_left hx
          | isFalse eb => rw [Race.upd_other _ _ eb]; exact hx
        | complete b' m =>
          cases Nat.decEq b b' with
          | isFalse eb =>
            refine Or.inr ?_
            show In x (Sem.upd (pendI H) b' (dropL m (pendI H b')) b)
            rw [Race.upd_other _ _ eb]; exact hx
          | isTrue eb =>
            rw [eb] at hx
            cases in_take_or_drop m (pendI H b') hx with
            | inr hx' =>
              refine Or.inr ?_
              show In x (Sem.upd (pendI H) b' (dropL m (pendI H b')) b)
              rw [eb, Race.upd_same]; exact hx'
            | inl hx' =>
              refine Or.inl ?_
              have c1 := hd.2 x.1
              have c2 : 0 < cntP x.1 (takeL m (pendI H b')) := cntP_pos hx'
              rw [eb]
              cases hm : memB x.1 (S b') with
              | true => exact mem_of_memB hm
              | false =>
                rw [c1, hm] at c2
                exact False.elim (Nat.ltIrrefl 0 c2)

/-- **`Memb` from check (2)**: if the executor's run holds every arrival (`Covers`), follows
`act`, passes check (2) (`Drain2`) and leaves nothing pending at any id (otherwise the executor
reports a deadlock or a `bar.arrive` that never completes), only members of `S b` arrive at
`b`. -/
theorem memb_of_drain {act : Nat → Nat → Ev} {S : Nat → List Nat} {H : List (EventN V)}
    (hf : FromAct act H) (hd : Drain2 S H) (hcov : Covers act H)
    (hend : ∀ b, pendI H b = []) : Memb act S := by
  intro t i b wt ha
  match find_ev H i (hcov t i b wt ha) with
  | ⟨e, h, hs, hac, hn⟩ =>
    have hf1 : FromAct act (e :: h) := sfx_pres fromAct_tail H _ hs hf
    have hact' : act t (nEv t h) = Ev.arr b wt := by rw [hn]; exact ha
    have ee : e = EventN.bar t b wt := ev_bar hf1 hac hact'
    rw [ee] at hs
    have hx : In (t, i) (pendI (EventN.bar t b wt :: h) b) := by
      show In (t, i) (Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) b)
      rw [Race.upd_same, hn]
      exact Race.in_snocL_self (t, i) (pendI h b)
    cases pend_fwd H hd _ hs b (t, i) hx with
    | inl hm => exact hm
    | inr hx' => rw [hend b] at hx'; exact False.elim hx'

/-- `Check3` and `Once` from the executor's checks (2) and (3) and its run alone (plus `Sized`). -/
theorem once_of_checks {act : Nat → Nat → Ev} {N : Nat} {H : List (EventN V)} (m : Nat → Nat)
    (S : Nat → List Nat) (hSz : Sized m S)
    (hf : FromAct act H) (hw : NotBlocked N H) (hd : Drain2 S H) (hcov : Covers act H)
    (hend : ∀ b, pendI H b = []) (hr : RustCheck3 N act H) :
    ∀ (h : List Nat), Valid act m h → OnceAll act m h :=
  once_of_members m S (memb_of_drain hf hd hcov hend) hSz hf hw hd hcov hr

/-! ### The previous arrival is drained before the next one (checks (1) and (2)) -/

/-- Check (1) over the history: no completion finds more arrivals pending than its count. -/
def NoOverfull : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => NoOverfull h
  | EventN.bar _ _ _ :: h => NoOverfull h
  | EventN.complete b m :: h => NoOverfull h ∧ lenL (pendI h b) ≤ m

theorem cntP_two {x y : Nat × Nat} (hxy : ¬ x = y) (e : x.1 = y.1) :
    ∀ {l : List (Nat × Nat)}, In x l → In y l → 2 ≤ cntP x.1 l
  | [], hx, _ => False.elim hx
  | z :: l, hx, hy => by
    have up : 2 ≤ cntP x.1 l → 2 ≤ cntP x.1 (z :: l) :=
      fun h2 => Nat.leTrans h2 (cntP_le_cons x.1 z l)
    cases hx with
    | inl ezx =>
      cases hy with
      | inl ezy => exact False.elim (hxy (Eq.trans (Eq.symm ezx) ezy))
      | inr hy =>
        have c1 : 0 < cntP y.1 l := cntP_pos hy
        show 2 ≤ (if z.1 = x.1 then cntP x.1 l + 1 else cntP x.1 l)
        rw [if_pos' (by rw [ezx]), e]
        exact Nat.succLeSucc c1
    | inr hx =>
      cases hy with
      | inl ezy =>
        have c1 : 0 < cntP x.1 l := cntP_pos hx
        show 2 ≤ (if z.1 = x.1 then cntP x.1 l + 1 else cntP x.1 l)
        rw [if_pos' (by rw [ezy]; exact Eq.symm e)]
        exact Nat.succLeSucc c1
      | inr hy => exact up (cntP_two hxy e hx hy)

theorem lt_of_in_drop {α : Type} {x : α} : ∀ (m : Nat) (l : List α), In x (dropL m l) → m < lenL l
  | 0, [], h => False.elim h
  | 0, _ :: l, _ => Nat.zeroLtSucc _
  | _ + 1, [], h => False.elim h
  | m + 1, _ :: l, h => Nat.succLeSucc (lt_of_in_drop m l h)

/-- Two pending arrivals of one thread at one id stay pending to the end, under checks (1) and
(2): a completion taking one and not the other is over-full, one taking both has the thread
twice. -/
theorem two_pending {S : Nat → List Nat} {x y : Nat × Nat} (hxy : ¬ x = y) (e : x.1 = y.1) :
    ∀ (H : List (EventN V)), Drain2 S H → NoOverfull H → ∀ l, Sfx l H → ∀ b,
      In x (pendI l b) → In y (pendI l b) → In x (pendI H b) ∧ In y (pendI H b)
  | [], _, _, l, hs, b, hx, _ => by
    have el : l = [] := hs
    rw [el] at hx
    exact False.elim hx
  | ev :: H, hd, ho, l, hs, b, hx, hy => by
    cases hs with
    | inl el => rw [el] at hx hy; exact ⟨hx, hy⟩
    | inr hs =>
      cases ev with
      | act t A => exact two_pending hxy e H hd ho l hs b hx hy
      | bar t b' w =>
        have r := two_pending hxy e H hd ho l hs b hx hy
        show In x (Sem.upd (pendI H) b' (snocL (pendI H b') (t, nEv t H)) b) ∧
          In y (Sem.upd (pendI H) b' (snocL (pendI H b') (t, nEv t H)) b)
        cases Nat.decEq b b' with
        | isTrue eb =>
          rw [eb, Race.upd_same]; rw [eb] at r
          exact ⟨Race.in_snocL_left r.1, Race.in_snocL_left r.2⟩
        | isFalse eb => rw [Race.upd_other _ _ eb]; exact r
      | complete b' m =>
        have r := two_pending hxy e H hd.1 ho.1 l hs b hx hy
        show In x (Sem.upd (pendI H) b' (dropL m (pendI H b')) b) ∧
          In y (Sem.upd (pendI H) b' (dropL m (pendI H b')) b)
        cases Nat.decEq b b' with
        | isFalse eb => rw [Race.upd_other _ _ eb]; exact r
        | isTrue eb =>
          rw [eb, Race.upd_same]; rw [eb] at r
          have over : ∀ z, In z (dropL m (pendI H b')) → False := fun z hz =>
            Nat.ltIrrefl _ (Nat.ltOfLtOfLe (lt_of_in_drop m _ hz) ho.2)
          cases in_take_or_drop m (pendI H b') r.1 with
          | inl tx =>
            cases in_take_or_drop m (pendI H b') r.2 with
            | inl ty =>
              have c2 := cntP_two hxy e tx ty
              rw [hd.2 x.1] at c2
              cases hm : memB x.1 (S b') with
              | true => rw [hm] at c2; exact False.elim (Nat.ltIrrefl _ c2)
              | false => rw [hm] at c2; exact False.elim (Nat.notSuccLeZero _ c2)
            | inr dy => exact False.elim (over y dy)
          | inr dx => exact False.elim (over x dx)

/-- An arrival pending at a point of `h` is pending at `h`'s end or drained by a completion in
`h`. -/
theorem pend_track {x : Nat × Nat} {b : Nat} : ∀ (h : List (EventN V)) (l : List (EventN V)),
    Sfx l h → In x (pendI l b) →
    In x (pendI h b) ∨ ∃ m hc, Sfx (EventN.complete b m :: hc) h ∧ In x (takeL m (pendI hc b))
  | [], l, hs, hx => by
    have el : l = [] := hs
    rw [el] at hx
    exact False.elim hx
  | ev :: h, l, hs, hx => by
    cases hs with
    | inl el => rw [el] at hx; exact Or.inl hx
    | inr hs =>
      have up : (∃ m hc, Sfx (EventN.complete b m :: hc) h ∧ In x (takeL m (pendI hc b))) →
          ∃ m hc, Sfx (EventN.complete b m :: hc) (ev :: h) ∧ In x (takeL m (pendI hc b)) :=
        fun r => match r with
          | ⟨m, hc, hs', hin⟩ => ⟨m, hc, Or.inr hs', hin⟩
      cases pend_track h l hs hx with
      | inr r => exact Or.inr (up r)
      | inl r =>
        cases ev with
        | act t A => exact Or.inl r
        | bar t b' w =>
          refine Or.inl ?_
          show In x (Sem.upd (pendI h) b' (snocL (pendI h b') (t, nEv t h)) b)
          cases Nat.decEq b b' with
          | isTrue eb => rw [eb, Race.upd_same]; rw [eb] at r; exact Race.in_snocL_left r
          | isFalse eb => rw [Race.upd_other _ _ eb]; exact r
        | complete b' m =>
          cases Nat.decEq b b' with
          | isFalse eb =>
            refine Or.inl ?_
            show In x (Sem.upd (pendI h) b' (dropL m (pendI h b')) b)
            rw [Race.upd_other _ _ eb]; exact r
          | isTrue eb =>
            rw [eb] at r
            cases in_take_or_drop m (pendI h b') r with
            | inl t1 =>
              rw [eb]
              exact Or.inr ⟨m, h, Or.inl rfl, t1⟩
            | inr d1 =>
              refine Or.inl ?_
              show In x (Sem.upd (pendI h) b' (dropL m (pendI h b')) b)
              rw [eb, Race.upd_same]; exact d1

/-- **The previous arrival has completed before the next one**, from checks (1) and (2) and
nothing pending at the end: when `t` arrives at `b` (history `h` before), each earlier arrival
`(t, i)` of `t` at `b` was drained by a completion of `b` in `h`.  (So the Rust's
`cta.completed` entry read at the next arrival comes from a completion that drained `t`'s
previous arrival.) -/
theorem prev_drained {act : Nat → Nat → Ev} {S : Nat → List Nat} {H : List (EventN V)}
    (hf : FromAct act H) (hd : Drain2 S H) (ho : NoOverfull H) (hend : ∀ b, pendI H b = [])
    {t b : Nat} {w' : Bool} {h : List (EventN V)} (hs : Sfx (EventN.bar t b w' :: h) H)
    {i : Nat} {w0 : Bool} (hi : i < nEv t h) (ha : act t i = Ev.arr b w0) :
    ∃ m hc, Sfx (EventN.complete b m :: hc) h ∧ In (t, i) (takeL m (pendI hc b)) := by
  have hfh : FromAct act h := sfx_pres fromAct_tail H h (sfx_tail hs) hf
  match find_ev h i hi with
  | ⟨e, h0, hs0, hac, hn⟩ =>
    have hf1 : FromAct act (e :: h0) := sfx_pres fromAct_tail h _ hs0 hfh
    have hact' : act t (nEv t h0) = Ev.arr b w0 := by rw [hn]; exact ha
    have ee : e = EventN.bar t b w0 := ev_bar hf1 hac hact'
    rw [ee] at hs0
    have hx : In (t, i) (pendI (EventN.bar t b w0 :: h0) b) := by
      show In (t, i) (Sem.upd (pendI h0) b (snocL (pendI h0 b) (t, nEv t h0)) b)
      rw [Race.upd_same, hn]
      exact Race.in_snocL_self (t, i) (pendI h0 b)
    cases pend_track h _ hs0 hx with
    | inr r => exact r
    | inl r =>
      have hne : ¬ (t, i) = (t, nEv t h) := fun e' =>
        Nat.ltIrrefl _ (by have l := hi; rw [(Prod.mk.inj e').2] at l; exact l)
      have hx2 : In (t, i) (pendI (EventN.bar t b w' :: h) b) := by
        show In (t, i) (Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) b)
        rw [Race.upd_same]
        exact Race.in_snocL_left r
      have hy2 : In (t, nEv t h) (pendI (EventN.bar t b w' :: h) b) := by
        show In (t, nEv t h) (Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) b)
        rw [Race.upd_same]
        exact Race.in_snocL_self (t, nEv t h) (pendI h b)
      have both := two_pending hne rfl H hd ho _ hs b hx2 hy2
      have z := both.1
      rw [hend b] at z
      exact False.elim z

end Drain

/-! ## Not vacuous: a producer and a consumer, check (3) consulted once

Thread 0 (producer): `bar.arrive 1; bar.sync 2; bar.arrive 1`.  Thread 1 (consumer):
`bar.sync 1; bar.arrive 2; bar.sync 1`.  Counts 2.  The executor's history `exH`: 0 arrives at 1,
1 waits at 1, id 1 completes (waiter 1); 1 arrives at 2, 0 waits at 2, id 2 completes (waiter 0,
which learns 1's arrival); 0 arrives at 1 again: check (3) asks whether the epoch of waiter 1's
event after the first completion (its `bar.arrive 2`) is ordered before thread 0: it is,
through id 2.  Then 1 waits at 1 and id 1 completes. -/

def exAct : Nat → Nat → Ev
  | 0, 0 => Ev.arr 1 false
  | 0, 1 => Ev.arr 2 true
  | 0, 2 => Ev.arr 1 false
  | 1, 0 => Ev.arr 1 true
  | 1, 1 => Ev.arr 2 false
  | 1, 2 => Ev.arr 1 true
  | _, _ => Ev.loc

/-- The executor's history (latest event first). -/
def exH : List (EventN Nat) :=
  [EventN.complete 1 2, EventN.bar 1 1 true, EventN.bar 0 1 false,
   EventN.complete 2 2, EventN.bar 0 2 true, EventN.bar 1 2 false,
   EventN.complete 1 2, EventN.bar 1 1 true, EventN.bar 0 1 false]

theorem exH_fromAct : FromAct exAct exH := fromAct_of exAct exH rfl

theorem exH_notBlocked : NotBlocked 2 exH := notBlocked_of (ids := [1, 2]) exH rfl rfl

theorem exH_kth : KthInst exAct exH := kth_of exAct exH rfl

theorem exH_covers : Covers exAct exH := by
  intro t i b w h
  match t, i, h with
  | 0, 0, _ => exact (by decide : 0 < nEv 0 exH)
  | 0, 1, _ => exact (by decide : 1 < nEv 0 exH)
  | 0, 2, _ => exact (by decide : 2 < nEv 0 exH)
  | 1, 0, _ => exact (by decide : 0 < nEv 1 exH)
  | 1, 1, _ => exact (by decide : 1 < nEv 1 exH)
  | 1, 2, _ => exact (by decide : 2 < nEv 1 exH)
  | 0, i + 3, h => exact Ev.noConfusion h
  | 1, i + 3, h => exact Ev.noConfusion h
  | t + 2, i, h => exact Ev.noConfusion h

/-- The Rust's check (3) with the clocks passes on `exH`; at thread 0's second arrival at 1 it
is consulted: the witness is waiter 1 of the first instance and its event 3 (`bar.arrive 2`). -/
theorem exH_rust3 : RustCheck3 2 exAct exH := by
  refine rust3_cons trivial (rust3_cons (head3_none rfl) (rust3_cons ?_ (rust3_cons trivial
    (rust3_cons (head3_none rfl) (rust3_cons (head3_none rfl) (rust3_cons trivial
    (rust3_cons (head3_none rfl) (rust3_cons (head3_none rfl) (rust3_nil 2 exAct)))))))))
  refine head3_one 0 rfl ⟨2, [EventN.bar 1 1 true, EventN.bar 0 1 false], 1, 0,
    Or.inr (Or.inr (Or.inr (Or.inl rfl))), Or.inl rfl, Or.inr (Or.inl rfl), rfl, 3,
    (brun 2 [EventN.complete 1 2, EventN.bar 1 1 true, EventN.bar 0 1 false]).clocks.vc 1 1,
    Or.inr (Or.inr (Or.inl ⟨rfl, rfl, rfl⟩)), Or.inr (Or.inr (Or.inl ⟨rfl, rfl, rfl⟩)), rfl⟩

theorem exAct_memb : Memb exAct (fun _ => [0, 1]) := by
  intro t i b wt h
  cases t with
  | zero => exact Or.inl rfl
  | succ t =>
    cases t with
    | zero => exact Or.inr (Or.inl rfl)
    | succ t => exact Ev.noConfusion h

/-- So, from the clocks: `Check3` for the producer and consumer. -/
theorem exAct_check3 : Check3 exAct :=
  check3_of_rust exH_fromAct exH_notBlocked exH_kth exH_covers exH_rust3

/-- And every valid schedule of them is `Once` at every id. -/
theorem exAct_once (h : List Nat) (hv : Valid exAct (fun _ => 2) h) :
    OnceAll exAct (fun _ => 2) h :=
  once_of_rust (fun _ => 2) (fun _ => [0, 1]) exAct_memb pc_sized exH_fromAct exH_notBlocked
    exH_kth exH_covers exH_rust3 h hv

/-- Check (2) on the executor's history: each completion drains threads 0 and 1 once. -/
theorem exH_drain : Drain2 (fun _ => [0, 1]) exH := drain2_of _ exH rfl

/-- The same conclusion with `KthInst` derived from check (2). -/
theorem exAct_once2 (h : List Nat) (hv : Valid exAct (fun _ => 2) h) :
    OnceAll exAct (fun _ => 2) h :=
  once_of_members (fun _ => 2) (fun _ => [0, 1]) exAct_memb pc_sized exH_fromAct exH_notBlocked
    exH_drain exH_covers exH_rust3 h hv

/-- Nothing stays pending at the end of `exH`. -/
theorem exH_end : ∀ b, pendI exH b = [] := by
  intro b
  show Sem.upd _ 1 (dropL 2 _) b = []
  cases Nat.decEq b 1 with
  | isTrue e => rw [e, Race.upd_same]; rfl
  | isFalse e =>
    rw [Race.upd_other _ _ e]
    show Sem.upd _ 1 _ b = []
    rw [Race.upd_other _ _ e]
    show Sem.upd _ 1 _ b = []
    rw [Race.upd_other _ _ e]
    show Sem.upd _ 2 (dropL 2 _) b = []
    cases Nat.decEq b 2 with
    | isTrue e2 => rw [e2, Race.upd_same]; rfl
    | isFalse e2 =>
      rw [Race.upd_other _ _ e2]
      show Sem.upd _ 2 _ b = []
      rw [Race.upd_other _ _ e2]
      show Sem.upd _ 2 _ b = []
      rw [Race.upd_other _ _ e2]
      show Sem.upd _ 1 (dropL 2 _) b = []
      rw [Race.upd_other _ _ e]
      show Sem.upd _ 1 _ b = []
      rw [Race.upd_other _ _ e]
      show Sem.upd _ 1 _ b = []
      rw [Race.upd_other _ _ e]
      rfl

/-- `Once` from the checks on `exH` alone (`Memb` derived, `Sized` given). -/
theorem exAct_once3 (h : List Nat) (hv : Valid exAct (fun _ => 2) h) :
    OnceAll exAct (fun _ => 2) h :=
  once_of_checks (fun _ => 2) (fun _ => [0, 1]) pc_sized exH_fromAct exH_notBlocked exH_drain
    exH_covers exH_end exH_rust3 h hv

theorem exH_noOverfull : NoOverfull exH :=
  ⟨⟨⟨trivial, Nat.leRefl 2⟩, Nat.leRefl 2⟩, Nat.leRefl 2⟩

/-- At the producer's second arrival at 1, its first arrival there has been drained (by the
first completion of id 1). -/
theorem exH_prev : ∃ m, ∃ hc : List (EventN Nat), Sfx (EventN.complete 1 m :: hc)
    ([EventN.complete 2 2, EventN.bar 0 2 true, EventN.bar 1 2 false,
     EventN.complete 1 2, EventN.bar 1 1 true, EventN.bar 0 1 false] : List (EventN Nat)) ∧
    In (0, 0) (takeL m (pendI hc 1)) :=
  prev_drained exH_fromAct exH_drain exH_noOverfull exH_end (w' := false)
    (Or.inr (Or.inr (Or.inl rfl))) (by decide : 0 < 2) (rfl : exAct 0 0 = Ev.arr 1 false)

/-- A valid schedule other than the executor's (the consumer's arrival at 2 before the
producer's first arrival at 1): the conclusion is about it too. -/
theorem exAct_valid : Valid exAct (fun _ => 2) [1, 0, 0, 1, 0, 1] := valid_of_validB _ _ _ rfl

end Members
end Kcert
