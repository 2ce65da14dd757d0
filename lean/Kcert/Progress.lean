import Kcert.OnceLink

/-!
# Named barriers: no schedule deadlocks when one schedule finishes

`OnceCheck.lean` models barrier matching over per-thread action sequences `act` and schedules
(histories `h`, latest step first).  This file proves progress: under the hypotheses of
`once_all` (`Memb`, `Sized`, `Check3`: the Rust's members checks and check (3)), if one
schedule runs every thread to its end, then no schedule gets stuck before every thread has
ended.

The model has no exit, so the end is a parameter: `E t` is the number of thread `t`'s actions
(the last one, to model the exit, is best taken `Ev.loc`: stepping it needs the thread's last
`bar.sync` to have completed, as `Valid` asks for every step after a waiting arrival).  Thread
`t` is done in `h` when `cnt t h = E t`.

* `Within E N h`: only threads below `N` step in `h`, none past its `E t` actions.
* `Complete act m E N H`: `H` is `Valid`, `Within`, and every thread below `N` is done in it.
* `progress`: under `Memb`, `Sized`, `Check3`, if some `H` is `Complete`, then in every `Valid`
  `h` in which some thread below `N` is not done, some thread `t` below `N`, not done, can step:
  `Valid act m (t :: h)`.  (`h` need not be `Within`.)
* `stuck_done`: so a `Within` valid history in which no not-done thread below `N` can step has
  every thread below `N` done.
* `no_deadlock`: every `Within` valid history is a suffix (an earlier stage) of a `Complete`
  one: it extends, step by step, to a schedule where every thread ends (induction on the
  remaining actions `rem E h N = ∑_{t < N} (E t - cnt t h)`).
* The proof of `progress` (`first_ahead`): take in `H` (oldest first) the first step that is
  ahead of `h`, thread `u`'s action number `cnt u h`; everything before it in `H` (`H'`) is,
  thread by thread, at most what `h` did.  If `u`'s previous action is a waiting arrival at `b`,
  it completed in `H'` (`Valid` in `H`): `u` has arrived there no more often than any member
  (`all_ge`, `H'` being `Once` by `once_all`); each member has arrived in `h` at least as often
  as in `H'`, and `u` equally often; so in `h` too `u` has nothing pending (`not_pend`).
* Not vacuous: `exAct` (the producer and consumer of `OnceLink.lean`, `Check3` from the Rust's
  clocks, `exAct_check3`), with an exit each: `ex_complete`, `ex_progress`, `ex_no_deadlock`,
  `ex_left`, `ex_no_deadlock_left`.
* `Check3` is needed: `dlAct` (thread 0: `bar.arrive 0; bar.arrive 0; exit`, thread 1:
  `bar.sync 0; bar.sync 0; exit`, count 2) has a complete schedule (`dl_complete`) and
  satisfies `Memb`, `Sized`, but not `Check3` (`dl_not_check3`); in the valid schedule `dlh`
  (thread 0 arrives twice, filling the first instance alone, then exits; thread 1 waits) thread
  1 is not done and no thread can step (`dl_stuck`).
* `complete_cnt`, `complete_left`: two complete schedules have every thread do equally many
  actions, so equally many arrivals at each id; if one leaves nothing pending at `b` (as the
  executor's run must, or the Rust reports "bar.arrive on a barrier that never completes"), so
  does the other (no `Check3` needed).  `no_deadlock_left`: `no_deadlock` with that.
* A complete schedule is needed: `ncAct` (thread 0 `bar.sync 0` with count 2, thread 1 never
  arrives) satisfies `Memb`, `Sized`, `Check3`, and `nch` is stuck (`nc_stuck`).
* Not linked here: `Sem` schedules and `Valid` histories (a `Sem` state where no thread can step
  gives such an `h`), and where `E` and a complete schedule come from (the executor's run).
-/

namespace Kcert
namespace Members

/-! ## Suffixes of a history -/

/-- `l` is a suffix of `H`: an earlier stage of the schedule `H` (latest step first). -/
def Suf (l : List Nat) : List Nat → Prop
  | [] => l = []
  | v :: H => l = v :: H ∨ Suf l H

theorem suf_refl : ∀ (l : List Nat), Suf l l
  | [] => rfl
  | _ :: _ => Or.inl rfl

theorem suf_cons {l : List Nat} (v : Nat) {H : List Nat} (h : Suf l H) : Suf l (v :: H) :=
  Or.inr h

theorem suf_tail {v : Nat} {l : List Nat} : ∀ (H : List Nat), Suf (v :: l) H → Suf l H
  | [], h => List.noConfusion h
  | u :: H, h => by
    cases h with
    | inl e =>
      have e2 : l = H := (List.cons.inj e).2
      rw [e2]
      exact Or.inr (suf_refl H)
    | inr h' => exact Or.inr (suf_tail H h')

theorem valid_suf {act : Nat → Nat → Ev} {m : Nat → Nat} {l : List Nat} :
    ∀ (H : List Nat), Valid act m H → Suf l H → Valid act m l
  | [], _, hs => by
    have e : l = [] := hs
    rw [e]
    exact trivial
  | u :: H, hv, hs => by
    cases hs with
    | inl e => rw [e]; exact hv
    | inr h' => exact valid_suf H hv.1 h'

theorem mem_suf {t : Nat} {l : List Nat} : ∀ {H : List Nat}, Suf l H → Mem t l → Mem t H
  | [], hs, hm => by
    have e : l = [] := hs
    rw [e] at hm
    exact hm
  | u :: H, hs, hm => by
    cases hs with
    | inl e => rw [← e]; exact hm
    | inr h' => exact Or.inr (mem_suf h' hm)

theorem cnt_suf (t : Nat) {l : List Nat} : ∀ {H : List Nat}, Suf l H → cnt t l ≤ cnt t H
  | [], hs => by
    have e : l = [] := hs
    rw [e]
    exact Nat.leRefl _
  | u :: H, hs => by
    cases hs with
    | inl e => rw [e]; exact Nat.leRefl _
    | inr h' => exact Nat.leTrans (cnt_suf t h') (cnt_le_cons t u H)

theorem cnt_self (t : Nat) (h : List Nat) : cnt t (t :: h) = cnt t h + 1 := by
  show (if t = t then cnt t h + 1 else cnt t h) = cnt t h + 1
  rw [if_pos' rfl]

theorem cnt_other {t u : Nat} (e : ¬ u = t) (h : List Nat) : cnt t (u :: h) = cnt t h := by
  show (if u = t then cnt t h + 1 else cnt t h) = cnt t h
  rw [if_neg' e]

/-! ## The first step of `H` ahead of `h` -/

/-- Either `H` is, thread by thread, at most `h`, or it has a first step ahead of `h`: a suffix
`u :: H'` of `H` with `H'` at most `h` and `u`'s step in it `u`'s action number `cnt u h`. -/
theorem first_ahead (h : List Nat) : ∀ (H : List Nat), (∀ s, cnt s H ≤ cnt s h) ∨
    ∃ u H', Suf (u :: H') H ∧ (∀ s, cnt s H' ≤ cnt s h) ∧ cnt u H' = cnt u h
  | [] => Or.inl (fun _ => Nat.zeroLe _)
  | v :: H => by
    cases first_ahead h H with
    | inr ex =>
      match ex with
      | ⟨u, H', hs, hle, he⟩ => exact Or.inr ⟨u, H', suf_cons v hs, hle, he⟩
    | inl hle =>
      cases Nat.decLe (cnt v H + 1) (cnt v h) with
      | isTrue hv =>
        apply Or.inl
        intro s
        cases Nat.decEq v s with
        | isTrue e => rw [← e, cnt_self v H]; exact hv
        | isFalse e => rw [cnt_other e H]; exact hle s
      | isFalse hv =>
        apply Or.inr
        refine ⟨v, H, suf_refl (v :: H), hle, ?_⟩
        apply Nat.leAntisymm (hle v)
        cases Nat.ltOrGe (cnt v H) (cnt v h) with
        | inl hl => exact False.elim (hv hl)
        | inr hg => exact hg

/-! ## Progress -/

/-- Only threads below `N` step in `h`, none past its `E t` actions. -/
def Within (E : Nat → Nat) (N : Nat) (h : List Nat) : Prop :=
  (∀ t, Mem t h → t < N) ∧ ∀ t, cnt t h ≤ E t

/-- A schedule that runs every thread below `N` to its end: valid, within, every thread below
`N` done (`cnt t H = E t`). -/
def Complete (act : Nat → Nat → Ev) (m : Nat → Nat) (E : Nat → Nat) (N : Nat)
    (H : List Nat) : Prop :=
  Valid act m H ∧ Within E N H ∧ ∀ t, t < N → cnt t H = E t

/-- **Progress.**  Under the hypotheses of `once_all` (`Memb`, `Sized`, `Check3`), if some
schedule `H` runs every thread below `N` to its end, then in every valid history `h` in which
some thread below `N` is not done, some thread below `N` that is not done can step. -/
theorem progress (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) {E : Nat → Nat} {N : Nat}
    {H : List Nat} (hC : Complete act m E N H) (h : List Nat) (hv : Valid act m h)
    {t0 : Nat} (ht0 : t0 < N) (hnd : cnt t0 h < E t0) :
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
      refine ⟨u, huN, hlt, hv, ?_⟩
      intro j b hj hact hp
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
      exact not_pend hsz.1 hsz.2 h0 (only_arrs act S hM b h) (hoh b) hge' (Nat.leRefl _) hp

/-- Either every thread below `N` has done its `E t` actions, or one has not. -/
theorem all_or_some (E : Nat → Nat) (h : List Nat) : ∀ (N : Nat),
    (∀ t, t < N → E t ≤ cnt t h) ∨ ∃ t, t < N ∧ cnt t h < E t
  | 0 => Or.inl (fun t hl => False.elim (Nat.notLtZero t hl))
  | N + 1 => by
    cases all_or_some E h N with
    | inr ex =>
      match ex with
      | ⟨t, hl, hlt⟩ => exact Or.inr ⟨t, Nat.leTrans hl (Nat.leSucc N), hlt⟩
    | inl hall =>
      cases Nat.ltOrGe (cnt N h) (E N) with
      | inl hlt => exact Or.inr ⟨N, Nat.ltSuccSelf N, hlt⟩
      | inr hge =>
        apply Or.inl
        intro t hl
        cases Nat.eqOrLtOfLe (Nat.leOfLtSucc hl) with
        | inl e => rw [e]; exact hge
        | inr hl' => exact hall t hl'

/-- **No stuck schedule.**  Under the hypotheses of `progress`, a valid history within `E`, `N`
in which no thread below `N` that is not done can step has every thread below `N` done. -/
theorem stuck_done (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) {E : Nat → Nat} {N : Nat}
    {H : List Nat} (hC : Complete act m E N H) (h : List Nat) (hv : Valid act m h)
    (hw : Within E N h)
    (hst : ∀ t, t < N → cnt t h < E t → ¬ Valid act m (t :: h)) :
    ∀ t, t < N → cnt t h = E t := by
  cases all_or_some E h N with
  | inl hall => exact fun t hl => Nat.leAntisymm (hw.2 t) (hall t hl)
  | inr ex =>
    match ex with
    | ⟨t0, ht0, hnd⟩ =>
      match progress act m S hM hSz h3 hC h hv ht0 hnd with
      | ⟨t, htN, hlt, hv'⟩ => exact False.elim (hst t htN hlt hv')

/-! ## No deadlock: every valid history extends to a complete one -/

/-- The actions left to the threads below `N`: `∑_{t < N} (E t - cnt t h)`. -/
def rem (E : Nat → Nat) (h : List Nat) : Nat → Nat
  | 0 => 0
  | N + 1 => rem E h N + (E N - cnt N h)

theorem sub_step : ∀ (e c : Nat), c < e → e - (c + 1) + 1 = e - c
  | 0, c, hl => False.elim (Nat.notLtZero c hl)
  | e + 1, 0, _ => rfl
  | e + 1, c + 1, hl => by
    show Nat.succ e - Nat.succ (c + 1) + 1 = Nat.succ e - Nat.succ c
    rw [Nat.succ_sub_succ, Nat.succ_sub_succ]
    exact sub_step e c (Nat.leOfSuccLeSucc hl)

theorem rem_other (E : Nat → Nat) (h : List Nat) {t : Nat} :
    ∀ (N : Nat), N ≤ t → rem E (t :: h) N = rem E h N
  | 0, _ => rfl
  | N + 1, hle => by
    show rem E (t :: h) N + (E N - cnt N (t :: h)) = rem E h N + (E N - cnt N h)
    have ne : ¬ t = N := fun e => by
      rw [e] at hle
      exact Nat.notSuccLeSelf N hle
    rw [rem_other E h N (Nat.leTrans (Nat.leSucc N) hle), cnt_other ne h]

theorem rem_step (E : Nat → Nat) (h : List Nat) {t : Nat} (hlt : cnt t h < E t) :
    ∀ (N : Nat), t < N → rem E (t :: h) N + 1 = rem E h N
  | 0, hl => False.elim (Nat.notLtZero t hl)
  | N + 1, hl => by
    show rem E (t :: h) N + (E N - cnt N (t :: h)) + 1 = rem E h N + (E N - cnt N h)
    cases Nat.decEq t N with
    | isTrue e =>
      rw [rem_other E h N (by rw [e]; exact Nat.leRefl N), e, cnt_self N h, Nat.add_assoc]
      rw [e] at hlt
      rw [sub_step (E N) (cnt N h) hlt]
    | isFalse e =>
      have hl' : t < N := Nat.ltOfLeOfNe (Nat.leOfLtSucc hl) e
      rw [cnt_other e h, ← rem_step E h hlt N hl', Nat.add_right_comm]

theorem within_cons {E : Nat → Nat} {N t : Nat} {h : List Nat} (hw : Within E N h)
    (htN : t < N) (hlt : cnt t h < E t) : Within E N (t :: h) := by
  refine ⟨?_, ?_⟩
  · intro u hu
    cases hu with
    | inl e => rw [← e]; exact htN
    | inr hu' => exact hw.1 u hu'
  · intro u
    cases Nat.decEq t u with
    | isTrue e => rw [← e, cnt_self t h]; exact hlt
    | isFalse e => rw [cnt_other e h]; exact hw.2 u

theorem no_deadlock_n (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) {E : Nat → Nat} {N : Nat}
    {H : List Nat} (hC : Complete act m E N H) :
    ∀ (n : Nat) (h : List Nat), rem E h N = n → Valid act m h → Within E N h →
      ∃ H', Suf h H' ∧ Complete act m E N H'
  | 0, h, hr, hv, hw => by
    cases all_or_some E h N with
    | inl hall =>
      exact ⟨h, suf_refl h, hv, hw, fun t hl => Nat.leAntisymm (hw.2 t) (hall t hl)⟩
    | inr ex =>
      match ex with
      | ⟨t0, ht0, hnd⟩ =>
        match progress act m S hM hSz h3 hC h hv ht0 hnd with
        | ⟨t, htN, hlt, _⟩ =>
          have r := rem_step E h hlt N htN
          rw [hr] at r
          exact Nat.noConfusion r
  | n + 1, h, hr, hv, hw => by
    cases all_or_some E h N with
    | inl hall =>
      exact ⟨h, suf_refl h, hv, hw, fun t hl => Nat.leAntisymm (hw.2 t) (hall t hl)⟩
    | inr ex =>
      match ex with
      | ⟨t0, ht0, hnd⟩ =>
        match progress act m S hM hSz h3 hC h hv ht0 hnd with
        | ⟨t, htN, hlt, hv'⟩ =>
          have r := rem_step E h hlt N htN
          rw [hr] at r
          have r' : rem E (t :: h) N = n := Nat.succ.inj r
          match no_deadlock_n act m S hM hSz h3 hC n (t :: h) r' hv' (within_cons hw htN hlt) with
          | ⟨H', hs, hc⟩ => exact ⟨H', suf_tail H' hs, hc⟩

/-- **No deadlock.**  Under the hypotheses of `progress` (`Memb`, `Sized`, `Check3`, some
schedule `H` running every thread below `N` to its end), every valid history within `E`, `N` is
an earlier stage (a suffix) of a complete schedule: whatever the scheduler did so far, the
threads can still all run to their end. -/
theorem no_deadlock (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) {E : Nat → Nat} {N : Nat}
    {H : List Nat} (hC : Complete act m E N H) (h : List Nat) (hv : Valid act m h)
    (hw : Within E N h) : ∃ H', Suf h H' ∧ Complete act m E N H' :=
  no_deadlock_n act m S hM hSz h3 hC (rem E h N) h rfl hv hw

/-! ## Nothing left pending at the end, in every complete schedule -/

theorem cnt_zero_of {t : Nat} : ∀ (l : List Nat), ¬ Mem t l → cnt t l = 0
  | [], _ => rfl
  | u :: l, hn => by
    have ne : ¬ u = t := fun e => hn (Or.inl e)
    rw [cnt_other ne l]
    exact cnt_zero_of l (fun hm => hn (Or.inr hm))

/-- Two complete schedules (same `E`, `N`) have every thread do equally many actions. -/
theorem complete_cnt {act : Nat → Nat → Ev} {m : Nat → Nat} {E : Nat → Nat} {N : Nat}
    {H1 H2 : List Nat} (hC1 : Complete act m E N H1) (hC2 : Complete act m E N H2) :
    ∀ t, cnt t H1 = cnt t H2 := by
  intro t
  cases Nat.ltOrGe t N with
  | inl hl => rw [hC1.2.2 t hl, hC2.2.2 t hl]
  | inr hge =>
    have n1 : ¬ Mem t H1 := fun hm => Nat.notSuccLeSelf t (Nat.leTrans (hC1.2.1.1 t hm) hge)
    have n2 : ¬ Mem t H2 := fun hm => Nat.notSuccLeSelf t (Nat.leTrans (hC2.2.1.1 t hm) hge)
    rw [cnt_zero_of H1 n1, cnt_zero_of H2 n2]

/-- **Leftovers are schedule independent**: if one complete schedule leaves no arrival pending
at `b` (the Rust reports a deadlock, "bar.arrive on a barrier that never completes", when the
executor's run leaves one), no complete schedule does. -/
theorem complete_left {act : Nat → Nat → Ev} {m : Nat → Nat} {E : Nat → Nat} {N : Nat}
    {H1 H2 : List Nat} (hC1 : Complete act m E N H1) (hC2 : Complete act m E N H2) (b : Nat)
    (h0 : left (m b) (fun _ => 0) [] (arrs act b H1) = []) :
    left (m b) (fun _ => 0) [] (arrs act b H2) = [] := by
  have hcnt : ∀ t, cnt t (arrs act b H1) = cnt t (arrs act b H2) := by
    intro t
    rw [cnt_arrs act b t H1, cnt_arrs act b t H2, complete_cnt hC1 hC2 t]
  exact left_nil_of_cnt hcnt (fun _ => 0) (fun _ => 0) h0

/-- **No deadlock, with nothing left pending**: under the hypotheses of `no_deadlock`, if the
complete schedule `H` leaves nothing pending at any id, every valid history within `E`, `N`
extends to a complete schedule that leaves nothing pending at any id. -/
theorem no_deadlock_left (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) {E : Nat → Nat} {N : Nat}
    {H : List Nat} (hC : Complete act m E N H)
    (hL : ∀ b, left (m b) (fun _ => 0) [] (arrs act b H) = []) (h : List Nat)
    (hv : Valid act m h) (hw : Within E N h) :
    ∃ H', Suf h H' ∧ Complete act m E N H' ∧
      ∀ b, left (m b) (fun _ => 0) [] (arrs act b H') = [] :=
  match no_deadlock act m S hM hSz h3 hC h hv hw with
  | ⟨H', hs, hC'⟩ => ⟨H', hs, hC', fun b => complete_left hC hC' b (hL b)⟩

/-! ## Not vacuous: the producer and consumer of `OnceLink.lean`

`exAct` (thread 0: `bar.arrive 1; bar.sync 2; bar.arrive 1`, thread 1: `bar.sync 1;
bar.arrive 2; bar.sync 1`, counts 2; `Check3` from the Rust's clocks, `exAct_check3`), with an
exit as action 3 (`Ev.loc`): `E t = 4`.  A complete schedule: `exAct_valid`'s, then both exit. -/

def exFull : List Nat := [1, 0, 1, 0, 0, 1, 0, 1]

theorem lt2_of_mem : ∀ (l : List Nat), allB (fun t => decide (t < 2)) l = true →
    ∀ t, Mem t l → t < 2
  | [], _, t, hm => False.elim hm
  | x :: l, hb, t, hm => by
    cases hm with
    | inl e => rw [← e]; exact of_decide_eq_true' (and_left' hb)
    | inr hm' => exact lt2_of_mem l (and_right' hb) t hm'

/-- `Within` for two threads, decided. -/
theorem within2 {E : Nat → Nat} {l : List Nat} (hb : allB (fun t => decide (t < 2)) l = true)
    (h0 : cnt 0 l ≤ E 0) (h1 : cnt 1 l ≤ E 1) : Within E 2 l := by
  refine ⟨lt2_of_mem l hb, ?_⟩
  intro t
  cases t with
  | zero => exact h0
  | succ t =>
    cases t with
    | zero => exact h1
    | succ t =>
      have hn : ¬ Mem (t + 2) l := fun hm =>
        Nat.notSuccLeZero t (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc (lt2_of_mem l hb _ hm)))
      rw [cnt_zero_of l hn]
      exact Nat.zeroLe _

theorem ex_complete : Complete exAct (fun _ => 2) (fun _ => 4) 2 exFull := by
  refine ⟨valid_of_validB _ _ _ rfl, within2 rfl (by decide) (by decide), ?_⟩
  intro t hl
  cases t with
  | zero => rfl
  | succ t =>
    cases t with
    | zero => rfl
    | succ t => exact False.elim (Nat.notSuccLeZero t (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hl)))

/-- In every valid schedule of the producer and consumer where one of them has not exited,
one that has not exited can step. -/
theorem ex_progress (h : List Nat) (hv : Valid exAct (fun _ => 2) h) {t0 : Nat} (ht0 : t0 < 2)
    (hnd : cnt t0 h < 4) : ∃ t, t < 2 ∧ cnt t h < 4 ∧ Valid exAct (fun _ => 2) (t :: h) :=
  progress exAct (fun _ => 2) (fun _ => [0, 1]) exAct_memb pc_sized exAct_check3 ex_complete h hv
    ht0 hnd

/-- And every valid schedule of them extends to one where both exit. -/
theorem ex_no_deadlock (h : List Nat) (hv : Valid exAct (fun _ => 2) h)
    (hw : Within (fun _ => 4) 2 h) :
    ∃ H', Suf h H' ∧ Complete exAct (fun _ => 2) (fun _ => 4) 2 H' :=
  no_deadlock exAct (fun _ => 2) (fun _ => [0, 1]) exAct_memb pc_sized exAct_check3 ex_complete
    h hv hw

/-- The complete schedule leaves nothing pending (as the executor's run, which would report a
`bar.arrive` that never completes). -/
theorem ex_left : ∀ b, left ((fun _ => 2) b) (fun _ => 0) [] (arrs exAct b exFull) = []
  | 0 => rfl
  | 1 => rfl
  | 2 => rfl
  | _ + 3 => rfl

/-- So every valid schedule of them extends to one where both exit and nothing is pending. -/
theorem ex_no_deadlock_left (h : List Nat) (hv : Valid exAct (fun _ => 2) h)
    (hw : Within (fun _ => 4) 2 h) :
    ∃ H', Suf h H' ∧ Complete exAct (fun _ => 2) (fun _ => 4) 2 H' ∧
      ∀ b, left ((fun _ => 2) b) (fun _ => 0) [] (arrs exAct b H') = [] :=
  no_deadlock_left exAct (fun _ => 2) (fun _ => [0, 1]) exAct_memb pc_sized exAct_check3
    ex_complete ex_left h hv hw

/-! ## `Check3` is needed

Thread 0: `bar.arrive 0; bar.arrive 0; exit`; thread 1: `bar.sync 0; bar.sync 0; exit`; count 2,
members `[0, 1]`.  In the schedule `dlH` (0 arrives, 1 waits, the instance completes; 1 waits
again, 0 arrives again, it completes; both exit) every thread ends.  In `dlh` thread 0 arrives
twice before thread 1 arrives: its two arrivals fill the first instance alone, thread 0 exits,
thread 1 waits at 0 for a partner that never comes.  Check (3) fails: thread 0's second arrival
at 0 is not ordered after any waiter of its first instance. -/

def dlAct : Nat → Nat → Ev
  | 0, 0 => Ev.arr 0 false
  | 0, 1 => Ev.arr 0 false
  | 1, 0 => Ev.arr 0 true
  | 1, 1 => Ev.arr 0 true
  | _, _ => Ev.loc

def dlH : List Nat := [1, 0, 0, 1, 1, 0]

def dlh : List Nat := [0, 1, 0, 0]

theorem dl_memb : Memb dlAct (fun _ => [0, 1]) := by
  intro t i b wt h
  cases t with
  | zero => exact Or.inl rfl
  | succ t =>
    cases t with
    | zero => exact Or.inr (Or.inl rfl)
    | succ t => exact Ev.noConfusion h

theorem dl_complete : Complete dlAct (fun _ => 2) (fun _ => 3) 2 dlH := by
  refine ⟨valid_of_validB _ _ _ rfl, within2 rfl (by decide) (by decide), ?_⟩
  intro t hl
  cases t with
  | zero => rfl
  | succ t =>
    cases t with
    | zero => rfl
    | succ t => exact False.elim (Nat.notSuccLeZero t (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hl)))

theorem dl_valid : Valid dlAct (fun _ => 2) dlh := valid_of_validB _ _ _ rfl

theorem dl_within : Within (fun _ => 3) 2 dlh := within2 rfl (by decide) (by decide)

/-- Thread 0 never waits. -/
theorem dl0_nowait : ∀ j b, ¬ dlAct 0 j = Ev.arr b true
  | 0, b, h => Bool.noConfusion (arr_w h)
  | 1, b, h => Bool.noConfusion (arr_w h)
  | j + 2, b, h => Ev.noConfusion h

/-- Every happens-before chain into thread 0 starts in thread 0. -/
theorem dl_hb0 {e1 e2 : Nat × Nat} (hb : HB dlAct e1 e2) : e2.1 = 0 → e1.1 = 0 := by
  have edge : ∀ {a c : Nat × Nat}, Edge dlAct a c → c.1 = 0 → a.1 = 0 := by
    intro a c he
    cases he with
    | po t i => exact fun e => e
    | bar x i y j b wx hx hy hac =>
      intro e
      have e' : y = 0 := e
      rw [e'] at hy
      exact False.elim (dl0_nowait j b hy)
  induction hb with
  | edge he => exact edge he
  | step _ he ih => exact fun e => ih (edge he e)

theorem dl_not_check3 : ¬ Check3 dlAct := by
  intro h3
  match h3 0 0 1 0 false rfl rfl (Nat.ltSuccSelf 0) rfl with
  | ⟨y, j, hy, _, hhb⟩ =>
    have ey : y = 0 := dl_hb0 hhb rfl
    rw [ey] at hy
    exact dl0_nowait j 0 hy

/-- **A stuck schedule without `Check3`**: in the valid `dlh`, thread 1 has not ended, and no
thread below 2 that has not ended can step (thread 0 has ended; thread 1 waits at the
instance its partner will never join).  The program has a complete schedule (`dl_complete`),
satisfies `Memb` and `Sized`; what fails is `Check3` (`dl_not_check3`). -/
theorem dl_stuck : cnt 1 dlh < 3 ∧ ∀ t, t < 2 → cnt t dlh < 3 → ¬ Valid dlAct (fun _ => 2) (t :: dlh) := by
  refine ⟨by decide, ?_⟩
  intro t hl hlt hv
  cases t with
  | zero => exact Nat.ltIrrefl 3 hlt
  | succ t =>
    cases t with
    | zero =>
      have hp : Pending 1 (left 2 (fun _ => 0) [] (arrs dlAct 0 dlh)) := by
        have e : left 2 (fun _ => 0) [] (arrs dlAct 0 dlh) = [(1, 0)] := rfl
        rw [e]
        exact ⟨(1, 0), Or.inl rfl, rfl⟩
      exact hv.2 0 0 rfl rfl hp
    | succ t => exact Nat.notSuccLeZero t (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hl))

/-! ## A complete schedule is needed

Thread 0: `bar.sync 0; exit`; thread 1: a local action and exit; count 2, members `[0, 1]`
(thread 1 never arrives).  `Memb`, `Sized` and `Check3` (no `bar.arrive`) hold, but in the
valid `nch` thread 1 has ended and thread 0 cannot step.  So `progress` without a complete
schedule is false (the Rust's executor reports this deadlock on its own run; that no complete
schedule exists here is not stated as a theorem). -/

def ncAct : Nat → Nat → Ev
  | 0, 0 => Ev.arr 0 true
  | _, _ => Ev.loc

def nch : List Nat := [1, 1, 0]

theorem nc_memb : Memb ncAct (fun _ => [0, 1]) := by
  intro t i b wt h
  cases t with
  | zero => exact Or.inl rfl
  | succ t => exact Ev.noConfusion h

theorem nc_check3 : Check3 ncAct := by
  apply check3_sync ncAct
  intro t i b h
  cases t with
  | zero =>
    cases i with
    | zero => exact Bool.noConfusion (arr_w h)
    | succ i => exact Ev.noConfusion h
  | succ t => exact Ev.noConfusion h

theorem nc_valid : Valid ncAct (fun _ => 2) nch := valid_of_validB _ _ _ rfl

theorem nc_within : Within (fun _ => 2) 2 nch := within2 rfl (by decide) (by decide)

/-- **A stuck schedule without a complete one**: `Memb`, `Sized`, `Check3` hold, thread 0 has
not ended in the valid `nch`, and no thread below 2 that has not ended can step. -/
theorem nc_stuck : cnt 0 nch < 2 ∧ ∀ t, t < 2 → cnt t nch < 2 → ¬ Valid ncAct (fun _ => 2) (t :: nch) := by
  refine ⟨by decide, ?_⟩
  intro t hl hlt hv
  cases t with
  | zero =>
    have hp : Pending 0 (left 2 (fun _ => 0) [] (arrs ncAct 0 nch)) := by
      have e : left 2 (fun _ => 0) [] (arrs ncAct 0 nch) = [(0, 0)] := rfl
      rw [e]
      exact ⟨(0, 0), Or.inl rfl, rfl⟩
    exact hv.2 0 0 rfl rfl hp
  | succ t =>
    cases t with
    | zero => exact Nat.ltIrrefl 2 hlt
    | succ t => exact Nat.notSuccLeZero t (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hl))

end Members
end Kcert
