import Kcert.BarrierMembers

/-!
# The Rust's third barrier check gives `Once` in every schedule

`BarrierMembers.lean` proves that the `k`-th instance of a barrier id is every member's `k`-th
arrival in every schedule satisfying `Once` (no thread arrives at the id while an arrival of
its own there is pending).  This file derives `Once`, at every id and in every schedule, from
hypotheses that the Rust's three checks establish on the executor's schedule.

The model (namespace `Kcert.Members`):

* Each thread `t` has a fixed sequence of actions `act t 0, act t 1, ...` (`Ev`: an arrival
  `arr b wt` at barrier id `b`, waiting (`bar.sync`, `wt = true`) or not (`bar.arrive`), or
  anything else, `loc`).  Data independence: the sequence is the same in every schedule.
  Past a thread's exit the sequence is `loc` (an exit arrives nowhere).
* A schedule is a history `h : List Nat`, latest step first: the head `t` of `t :: h` is
  thread `t`'s action number `cnt t h`.  `arrs act b h` is the order (earliest first) in which
  threads arrive at `b` in `h`; its instances are `insts (m b) (arrs act b h)` (consecutive
  chunks of `m b` arrivals: eager completion, as in `Sem.next`).  One count `m b` per id.
* `Valid act m h`: a thread whose previous action was a waiting arrival at `b` steps only when
  it has no arrival pending at `b` (its instance has completed).  Nothing else constrains the
  interleaving, so every schedule of the GPU is such a history.
* Happens-before `HB act` over events `(t, i)` (thread, action index), from the per-thread
  sequences alone: program order `(t, i) → (t, i + 1)` and barrier edges: if `x`'s action `i`
  and `y`'s action `j` are the `k`-th arrivals of `x` and `y` at `b` (`ac act b x i = ac act b y j`)
  and `y` waits there, `(x, i) → (y, j + 1)`.  When every instance of every id is every
  member's `k`-th arrival (the matching the Rust's checks (1) and (2) give the executor's
  schedule, `checked_matching`), these are exactly the edges of the executor's history, so the
  vector clocks (`Named.lean`, `Race.ordered_iff_hb`) decide this relation there (read off, not
  proved as a theorem linking the two types of histories).
* The hypotheses: `Memb`: only threads of `S b` arrive at `b`, `len (S b) = m b`, `S b` without
  duplicates, `0 < m b` (check (2): the members of the first instance, sorted, no thread
  twice; the Rust rejects count 0).  `Check3` (check (3), `step.rs` `Op::Bar`): when thread
  `t`'s action `i` is a `bar.arrive` at `b` (its `k`-th arrival there) and its action `i'` is its
  next arrival at `b`, some thread `y` whose `k`-th arrival at `b` waits (a waiter of that
  instance) has its step past the instance, `(y, j + 1)`, happen before `(t, i')`.

* `once_all`: under these, every valid history is `Once` at every id.
* `matching_all`: so in every valid history, the `k`-th instance at `b` is exactly the arrivals
  `(s, k)`, `s ∈ S b`.
* The proof: by induction over the history.  At a step of `t` arriving at `b`, with `Once`
  known before it (all ids), every barrier edge whose target already happened is realized
  (`edge_done`: when `y` stepped past its `k`-th arrival at `b`, that instance had completed,
  and by `pend` (the pending state of `Once` schedules: `left_inv`) every member had then
  arrived `k + 1` times), hence every `HB` chain ending at `t`'s step (`hb_head`); so `t`'s
  previous arrival's instance completed before (by `Check3` for a `bar.arrive`, by `Valid` for
  a `bar.sync`) and `t` has nothing pending (`not_pend`).
* `cut_sep`: past a waited instance, every member's arrival there and everything before it
  has happened (the separation a whole-CTA instance gives when every thread waits).
* Not vacuous: `pc_check3`, `pc_once`, `pc_valid` (a producer and a consumer with
  `bar.arrive`, check (3) holding through the other id).
* Finding: the Rust clears the members record at a whole-CTA instance even when a thread
  reaches it with `bar.arrive`; `clearExec` passes the members checks and the race check,
  `clearAlt` (a valid schedule of the same actions, `clearW_valid`) matches id 0 differently
  and races (`clear_differs`, `clearAlt_check`); clearing only when every arrival waits
  reports it (`clearExec_fixed`).

* Segments (the repaired clearing, at a whole-CTA instance where every thread waits):
  `once_wait`, `sep_wait`, `split` (arrivals up to the cut precede those after, at every id),
  `segments` (with nothing pending at the cut in the executor's schedule, the instances split
  into those of each segment), `valid_pre`/`valid_post` (every valid history is one of each
  segment as a program of its own, `restr`), `pre_matching`/`post_matching` (each segment
  `Once` and matched by `k`-th arrivals under its own member sets); example `seg_pre`,
  `seg_post`.

`HB` here and the executor's vector clocks (`Named.lean`) are linked in `OnceLink.lean`
(`check3_of_rust`, under the hypothesis that the executor's instances are the `k`-th
arrivals).  Not linked: `Valid` histories and `Sem` schedules; one clearing per run in the
segment theorems.
-/

namespace Kcert
namespace Members

/-! ## The pending arrivals at the end of a `Once` schedule -/

/-- The invariant of `go_spec` holds for the arrivals left pending at the end. -/
theorem left_inv {S : List Nat} {m : Nat} (hm : len S = m) :
    ∀ (w : List Nat) (k : Nat) (c : Nat → Nat) (l : List Nat), Nodup l →
    (∀ s, Mem s l → Mem s S) → len l < m →
    (∀ s, Mem s S → (Mem s l ∧ c s = k + 1) ∨ (¬ Mem s l ∧ c s = k)) →
    (∀ t, Mem t w → Mem t S) → OnceG m c (mk k l) w →
    ∃ K l', left m c (mk k l) w = mk K l' ∧ (∀ s, Mem s l' → Mem s S) ∧ len l' < m ∧
      ∀ s, Mem s S → (Mem s l' ∧ c s + cnt s w = K + 1) ∨ (¬ Mem s l' ∧ c s + cnt s w = K)
  | [], k, c, l, _, hsub, hlt, hc, _, _ => ⟨k, l, rfl, hsub, hlt, hc⟩
  | t :: w, k, c, l, hnd, hsub, hlt, hc, hw, ho => by
    have ht : Mem t S := hw t (Or.inl rfl)
    have ho' : ¬ Pending t (mk k l) ∧
        (if len ((t, c t) :: mk k l) = m then OnceG m (upd c t) [] w
         else OnceG m (upd c t) ((t, c t) :: mk k l) w) := ho
    have hnp : ¬ Mem t l := fun h => ho'.1 ⟨(t, k), mem_mk_r l h, rfl⟩
    have hct : c t = k := by
      cases hc t ht with
      | inl h => exact False.elim (hnp h.1)
      | inr h => exact h.2
    have hw' : ∀ u, Mem u w → Mem u S := fun u hu => hw u (Or.inr hu)
    have hnd' : Nodup (t :: l) := ⟨hnp, hnd⟩
    have hsub' : ∀ s, Mem s (t :: l) → Mem s S := by
      intro s hs
      cases hs with
      | inl e => rw [← e]; exact ht
      | inr h => exact hsub s h
    have hleft : left m c (mk k l) (t :: w) =
        (if len ((t, c t) :: mk k l) = m then left m (upd c t) [] w
         else left m (upd c t) ((t, c t) :: mk k l) w) := rfl
    rw [hleft, hct]
    have ho2 := ho'.2
    rw [hct] at ho2
    have hlen : len ((t, k) :: mk k l) = len l + 1 := by
      show len (mk k l) + 1 = len l + 1
      rw [len_mk]
    have fix : ∀ (K : Nat) (l' : List Nat),
        (∀ s, Mem s S → (Mem s l' ∧ upd c t s + cnt s w = K + 1) ∨
          (¬ Mem s l' ∧ upd c t s + cnt s w = K)) →
        ∀ s, Mem s S → (Mem s l' ∧ c s + cnt s (t :: w) = K + 1) ∨
          (¬ Mem s l' ∧ c s + cnt s (t :: w) = K) := by
      intro K l' h s hs
      rw [← upd_cnt c t s w]
      exact h s hs
    cases Nat.decEq (len l + 1) m with
    | isTrue hfull =>
      have hfull' : len ((t, k) :: mk k l) = m := by rw [hlen]; exact hfull
      rw [if_pos' hfull']
      rw [if_pos' hfull'] at ho2
      have hall : ∀ s, Mem s S → Mem s (t :: l) := by
        apply ph (t :: l) S hnd' hsub'
        show len S ≤ len l + 1
        rw [hm, hfull]
        exact Nat.leRefl m
      have hc' : ∀ s, Mem s S → (Mem s [] ∧ upd c t s = k + 1 + 1) ∨
          (¬ Mem s [] ∧ upd c t s = k + 1) :=
        fun s hs => Or.inr ⟨fun h => h, hc_full hall hc hct s hs⟩
      have h0 : 0 < m := by rw [← hfull]; exact Nat.zeroLtSucc _
      match left_inv hm w (k + 1) (upd c t) [] trivial (fun s h => False.elim h) h0 hc' hw' ho2 with
      | ⟨K, l', e, hs', hl', hc''⟩ => exact ⟨K, l', e, hs', hl', fix K l' hc''⟩
    | isFalse hfull =>
      have hfull' : ¬ len ((t, k) :: mk k l) = m := by rw [hlen]; exact hfull
      rw [if_neg' hfull']
      rw [if_neg' hfull'] at ho2
      have hlt' : len (t :: l) < m := Nat.ltOfLeOfNe hlt hfull
      match left_inv hm w k (upd c t) (t :: l) hnd' hsub' hlt' (hc_step hc hct) hw' ho2 with
      | ⟨K, l', e, hs', hl', hc''⟩ => exact ⟨K, l', e, hs', hl', fix K l' hc''⟩

theorem pend_mk {t K : Nat} {l : List Nat} (h : Pending t (mk K l)) : Mem t l :=
  match h with
  | ⟨a, ha, e⟩ => e ▸ (mem_mk_l l ha).1

/-- **The pending state of a `Once` schedule** (members `S` without duplicates, `|S| = m > 0`):
for some `K` (the instances completed), every member has arrived `K` or `K + 1` times, some
member exactly `K` times, a thread with an arrival pending `K + 1` times, a member without
`K` times. -/
theorem pend {S : List Nat} {m : Nat} (hm : len S = m) (hS : Nodup S) (h0 : 0 < m)
    {w : List Nat} (hw : ∀ t, Mem t w → Mem t S) (ho : Once m w) :
    ∃ K, (∀ s, Mem s S → cnt s w = K ∨ cnt s w = K + 1) ∧ (∃ s, Mem s S ∧ cnt s w = K) ∧
      (∀ t, Pending t (left m (fun _ => 0) [] w) → cnt t w = K + 1) ∧
      (∀ t, Mem t S → ¬ Pending t (left m (fun _ => 0) [] w) → cnt t w = K) := by
  have hc : ∀ s, Mem s S → (Mem s [] ∧ (fun _ => 0) s = 0 + 1) ∨
      (¬ Mem s [] ∧ (fun _ => 0) s = 0) := fun s _ => Or.inr ⟨fun h => h, rfl⟩
  match left_inv hm w 0 (fun _ => 0) [] trivial (fun s h => False.elim h) h0 hc hw ho with
  | ⟨K, l', e, hsub, hlt, hc'⟩ =>
    have z : ∀ s, (fun _ => 0) s + cnt s w = cnt s w := fun s => Nat.zero_add _
    have hl : left m (fun _ => 0) [] w = mk K l' := e
    refine ⟨K, ?_, ?_, ?_, ?_⟩
    · intro s hs
      cases hc' s hs with
      | inl h => rw [z] at h; exact Or.inr h.2
      | inr h => rw [z] at h; exact Or.inl h.2
    · have hlt' : len l' < len S := by rw [hm]; exact hlt
      match miss S l' hS hlt' with
      | ⟨s, hs, hn⟩ =>
        refine ⟨s, hs, ?_⟩
        cases hc' s hs with
        | inl h => exact False.elim (hn h.1)
        | inr h => rw [z] at h; exact h.2
    · intro t hp
      rw [hl] at hp
      have htl : Mem t l' := pend_mk hp
      cases hc' t (hsub t htl) with
      | inl h => rw [z] at h; exact h.2
      | inr h => exact False.elim (h.1 htl)
    · intro t ht hnp
      cases hc' t ht with
      | inl h =>
        apply False.elim
        apply hnp
        rw [hl]
        exact ⟨(t, K), mem_mk_r l' h.1, rfl⟩
      | inr h => rw [z] at h; exact h.2

/-- A thread that has arrived at most `n` times, when every member has arrived at least `n`
times, has nothing pending. -/
theorem not_pend {S : List Nat} {m : Nat} (hm : len S = m) (hS : Nodup S) (h0 : 0 < m)
    {w : List Nat} (hw : ∀ t, Mem t w → Mem t S) (ho : Once m w) {n t : Nat}
    (hge : ∀ s, Mem s S → n ≤ cnt s w) (ht : cnt t w ≤ n) :
    ¬ Pending t (left m (fun _ => 0) [] w) := by
  intro hp
  match pend hm hS h0 hw ho with
  | ⟨K, _, ⟨s, hs, hK⟩, hP, _⟩ =>
    have h1 := hP t hp
    have h2 := hge s hs
    rw [hK] at h2
    rw [h1] at ht
    exact Nat.notSuccLeSelf K (Nat.leTrans ht h2)

/-- A member with nothing pending has arrived no more often than any member. -/
theorem all_ge {S : List Nat} {m : Nat} (hm : len S = m) (hS : Nodup S) (h0 : 0 < m)
    {w : List Nat} (hw : ∀ t, Mem t w → Mem t S) (ho : Once m w) {y : Nat} (hy : Mem y S)
    (hnp : ¬ Pending y (left m (fun _ => 0) [] w)) : ∀ s, Mem s S → cnt y w ≤ cnt s w := by
  intro s hs
  match pend hm hS h0 hw ho with
  | ⟨K, hK, _, _, hN⟩ =>
    rw [hN y hy hnp]
    cases hK s hs with
    | inl e => rw [e]; exact Nat.leRefl K
    | inr e => rw [e]; exact Nat.leSucc K

/-- One more element at the end (structural: core's `++` goes through `reverseAux`). -/
def sn : List Nat → Nat → List Nat
  | [], u => [u]
  | v :: l, u => v :: sn l u

/-- `OnceG` of a schedule with one more arrival at the end. -/
theorem once_init {m u : Nat} : ∀ (l : List Nat) (c : Nat → Nat) (p : List Arr),
    OnceG m c p (sn l u) → OnceG m c p l
  | [], c, p, _ => trivial
  | v :: l, c, p, h => by
    have h' : ¬ Pending v p ∧
        (if len ((v, c v) :: p) = m then OnceG m (upd c v) [] (sn l u)
         else OnceG m (upd c v) ((v, c v) :: p) (sn l u)) := h
    show ¬ Pending v p ∧
        (if len ((v, c v) :: p) = m then OnceG m (upd c v) [] l
         else OnceG m (upd c v) ((v, c v) :: p) l)
    refine ⟨h'.1, ?_⟩
    have h2 := h'.2
    cases Nat.decEq (len ((v, c v) :: p)) m with
    | isTrue e =>
      rw [if_pos' e] at h2
      rw [if_pos' e]
      exact once_init l (upd c v) [] h2
    | isFalse e =>
      rw [if_neg' e] at h2
      rw [if_neg' e]
      exact once_init l (upd c v) ((v, c v) :: p) h2

theorem once_snoc {m u : Nat} : ∀ (l : List Nat) (c : Nat → Nat) (p : List Arr),
    OnceG m c p l → ¬ Pending u (left m c p l) → OnceG m c p (sn l u)
  | [], c, p, _, hn => by
    show ¬ Pending u p ∧
        (if len ((u, c u) :: p) = m then OnceG m (upd c u) [] []
         else OnceG m (upd c u) ((u, c u) :: p) [])
    refine ⟨hn, ?_⟩
    cases Nat.decEq (len ((u, c u) :: p)) m with
    | isTrue e => rw [if_pos' e]; exact trivial
    | isFalse e => rw [if_neg' e]; exact trivial
  | v :: l, c, p, h, hn => by
    have h' : ¬ Pending v p ∧
        (if len ((v, c v) :: p) = m then OnceG m (upd c v) [] l
         else OnceG m (upd c v) ((v, c v) :: p) l) := h
    have hn' : ¬ Pending u (if len ((v, c v) :: p) = m then left m (upd c v) [] l
         else left m (upd c v) ((v, c v) :: p) l) := hn
    show ¬ Pending v p ∧
        (if len ((v, c v) :: p) = m then OnceG m (upd c v) [] (sn l u)
         else OnceG m (upd c v) ((v, c v) :: p) (sn l u))
    refine ⟨h'.1, ?_⟩
    have h2 := h'.2
    cases Nat.decEq (len ((v, c v) :: p)) m with
    | isTrue e =>
      rw [if_pos' e] at h2
      rw [if_pos' e] at hn'
      rw [if_pos' e]
      exact once_snoc l (upd c v) [] h2 hn'
    | isFalse e =>
      rw [if_neg' e] at h2
      rw [if_neg' e] at hn'
      rw [if_neg' e]
      exact once_snoc l (upd c v) ((v, c v) :: p) h2 hn'


/-! ## Threads, schedules and happens-before -/

/-- A thread's action, as far as barriers go: an arrival at id `b` that waits (`bar.sync`,
`wt = true`) or not (`bar.arrive`), or anything else. -/
inductive Ev where
  | arr (b : Nat) (wt : Bool)
  | loc

/-- The action is an arrival at `b`. -/
def arrAt (b : Nat) : Ev → Bool
  | Ev.arr b' _ => decide (b' = b)
  | Ev.loc => false

theorem arrAt_arr (b : Nat) (wt : Bool) : arrAt b (Ev.arr b wt) = true := decide_eq_true' rfl

theorem arrAt_true {b : Nat} : ∀ {a : Ev}, arrAt b a = true → ∃ wt, a = Ev.arr b wt
  | Ev.arr b' wt, h => by
    have e : b' = b := of_decide_eq_true' h
    rw [e]
    exact ⟨wt, rfl⟩
  | Ev.loc, h => Bool.noConfusion h

theorem arr_b {b b' : Nat} {w w' : Bool} (h : Ev.arr b w = Ev.arr b' w') : b = b' :=
  Ev.noConfusion h (fun e _ => e)

theorem arr_w {b b' : Nat} {w w' : Bool} (h : Ev.arr b w = Ev.arr b' w') : w = w' :=
  Ev.noConfusion h (fun _ e => e)

/-- The threads arriving at `b` in the history `h` (latest step first; the head `t` of `t :: h`
is `t`'s action number `cnt t h`), in the order of arrival (earliest first). -/
def arrs (act : Nat → Nat → Ev) (b : Nat) : List Nat → List Nat
  | [] => []
  | t :: h => cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h)

/-- How many of thread `t`'s first `i` actions arrive at `b`: action `i`, if an arrival at `b`,
is `t`'s arrival number `ac act b t i` there. -/
def ac (act : Nat → Nat → Ev) (b t : Nat) : Nat → Nat
  | 0 => 0
  | i + 1 => cond (arrAt b (act t i)) (ac act b t i + 1) (ac act b t i)

theorem cnt_sn_eq (x : Nat) : ∀ (l : List Nat), cnt x (sn l x) = cnt x l + 1
  | [] => by
    show (if x = x then cnt x [] + 1 else cnt x []) = 0 + 1
    rw [if_pos' rfl]
    rfl
  | v :: l => by
    show (if v = x then cnt x (sn l x) + 1 else cnt x (sn l x)) =
      (if v = x then cnt x l + 1 else cnt x l) + 1
    rw [cnt_sn_eq x l]
    cases Nat.decEq v x with
    | isTrue e => rw [if_pos' e, if_pos' e]
    | isFalse e => rw [if_neg' e, if_neg' e]

theorem cnt_sn_ne {x t : Nat} (h : ¬ t = x) : ∀ (l : List Nat), cnt x (sn l t) = cnt x l
  | [] => by
    show (if t = x then cnt x [] + 1 else cnt x []) = 0
    rw [if_neg' h]
    rfl
  | v :: l => by
    show (if v = x then cnt x (sn l t) + 1 else cnt x (sn l t)) =
      (if v = x then cnt x l + 1 else cnt x l)
    rw [cnt_sn_ne h l]

theorem mem_sn {x t : Nat} : ∀ (l : List Nat), Mem x (sn l t) → Mem x l ∨ t = x
  | [], h => by
    cases h with
    | inl e => exact Or.inr e
    | inr h' => exact False.elim h'
  | v :: l, h => by
    cases h with
    | inl e => exact Or.inl (Or.inl e)
    | inr h' =>
      cases mem_sn l h' with
      | inl h'' => exact Or.inl (Or.inr h'')
      | inr e => exact Or.inr e

theorem le_cnt_sn (x t : Nat) (l : List Nat) : cnt x l ≤ cnt x (sn l t) := by
  cases Nat.decEq t x with
  | isTrue e => rw [e, cnt_sn_eq]; exact Nat.leSucc _
  | isFalse e => rw [cnt_sn_ne e]; exact Nat.leRefl _

theorem len_pos {t : Nat} : ∀ {S : List Nat}, Mem t S → 0 < len S
  | [], h => False.elim h
  | _ :: S, _ => Nat.zeroLtSucc (len S)

/-- A thread's arrivals at `b` in a history are its arrivals among the actions it did. -/
theorem cnt_arrs (act : Nat → Nat → Ev) (b x : Nat) : ∀ (h : List Nat),
    cnt x (arrs act b h) = ac act b x (cnt x h)
  | [] => rfl
  | t :: h => by
    show cnt x (cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h)) =
      ac act b x (if t = x then cnt x h + 1 else cnt x h)
    cases Nat.decEq t x with
    | isTrue e =>
      rw [if_pos' e, e]
      show _ = cond (arrAt b (act x (cnt x h))) (ac act b x (cnt x h) + 1) (ac act b x (cnt x h))
      cases hb : arrAt b (act x (cnt x h)) with
      | true =>
        show cnt x (sn (arrs act b h) x) = ac act b x (cnt x h) + 1
        rw [cnt_sn_eq, cnt_arrs act b x h]
      | false => exact cnt_arrs act b x h
    | isFalse e =>
      rw [if_neg' e]
      cases hb : arrAt b (act t (cnt t h)) with
      | true =>
        show cnt x (sn (arrs act b h) t) = _
        rw [cnt_sn_ne e, cnt_arrs act b x h]
      | false => exact cnt_arrs act b x h

theorem ac_le_succ (act : Nat → Nat → Ev) (b t i : Nat) : ac act b t i ≤ ac act b t (i + 1) := by
  show ac act b t i ≤ cond (arrAt b (act t i)) (ac act b t i + 1) (ac act b t i)
  cases arrAt b (act t i) with
  | true => exact Nat.leSucc _
  | false => exact Nat.leRefl _

theorem ac_mono (act : Nat → Nat → Ev) (b t i : Nat) : ∀ j, i ≤ j → ac act b t i ≤ ac act b t j
  | 0, h => by
    have e : i = 0 := Nat.leAntisymm h (Nat.zeroLe i)
    rw [e]
    exact Nat.leRefl _
  | j + 1, h => by
    cases Nat.eqOrLtOfLe h with
    | inl e => rw [e]; exact Nat.leRefl _
    | inr hl => exact Nat.leTrans (ac_mono act b t i j (Nat.leOfLtSucc hl)) (ac_le_succ act b t j)

theorem ac_arr {act : Nat → Nat → Ev} {b t i : Nat} {wt : Bool} (h : act t i = Ev.arr b wt) :
    ac act b t (i + 1) = ac act b t i + 1 := by
  show cond (arrAt b (act t i)) (ac act b t i + 1) (ac act b t i) = ac act b t i + 1
  rw [h, arrAt_arr]
  rfl

/-- The arrival before the `(k+1)`-th (counting from 1). -/
theorem ac_prev (act : Nat → Nat → Ev) (b t : Nat) : ∀ (n k : Nat), ac act b t n = k + 1 →
    ∃ i, i < n ∧ (∃ wt, act t i = Ev.arr b wt) ∧ ac act b t i = k
  | 0, k, h => False.elim (Nat.noConfusion h)
  | n + 1, k, h => by
    have h' : cond (arrAt b (act t n)) (ac act b t n + 1) (ac act b t n) = k + 1 := h
    cases hb : arrAt b (act t n) with
    | true =>
      rw [hb] at h'
      have e : ac act b t n = k := Nat.succ.inj h'
      exact ⟨n, Nat.ltSuccSelf n, arrAt_true hb, e⟩
    | false =>
      rw [hb] at h'
      match ac_prev act b t n k h' with
      | ⟨i, hi, ha, e⟩ => exact ⟨i, Nat.leTrans hi (Nat.leSucc n), ha, e⟩

/-- From `ac act b x i + 1 ≤ ac act b x n`: action `i` comes before `n`. -/
theorem idx_lt {act : Nat → Nat → Ev} {b x i n : Nat} (h : ac act b x i + 1 ≤ ac act b x n) :
    i < n := by
  cases Nat.ltOrGe i n with
  | inl hl => exact hl
  | inr hge => exact False.elim (Nat.notSuccLeSelf _ (Nat.leTrans h (ac_mono act b x n i hge)))

/-- A schedule (history, latest step first) of the threads' fixed action sequences: a thread
whose previous action was a waiting arrival at `b` steps only when it has no arrival pending at
`b` (its instance completed). -/
def Valid (act : Nat → Nat → Ev) (m : Nat → Nat) : List Nat → Prop
  | [] => True
  | t :: h => Valid act m h ∧ ∀ j b, cnt t h = j + 1 → act t j = Ev.arr b true →
      ¬ Pending t (left (m b) (fun _ => 0) [] (arrs act b h))

/-- `Once` at every id. -/
def OnceAll (act : Nat → Nat → Ev) (m : Nat → Nat) (h : List Nat) : Prop :=
  ∀ b, Once (m b) (arrs act b h)

/-- Only threads of `S b` arrive at `b` (the Rust's members check (2)). -/
def Memb (act : Nat → Nat → Ev) (S : Nat → List Nat) : Prop :=
  ∀ t i b wt, act t i = Ev.arr b wt → Mem t (S b)

/-- `S b` has `m b` threads, none twice (check (2): the sorted threads of the first instance,
no thread twice). -/
def Sized (m : Nat → Nat) (S : Nat → List Nat) : Prop := ∀ b, len (S b) = m b ∧ Nodup (S b)

theorem only_arrs (act : Nat → Nat → Ev) (S : Nat → List Nat) (hM : Memb act S) (b : Nat) :
    ∀ (h : List Nat) x, Mem x (arrs act b h) → Mem x (S b)
  | [], x, hx => False.elim hx
  | t :: h, x, hx => by
    have hx' : Mem x (cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h)) := hx
    cases hb : arrAt b (act t (cnt t h)) with
    | true =>
      rw [hb] at hx'
      cases mem_sn (arrs act b h) hx' with
      | inl h' => exact only_arrs act S hM b h x h'
      | inr e =>
        match arrAt_true hb with
        | ⟨wt, ha⟩ => rw [← e]; exact hM t (cnt t h) b wt ha
    | false =>
      rw [hb] at hx'
      exact only_arrs act S hM b h x hx'

theorem once_tail {act : Nat → Nat → Ev} {m : Nat → Nat} {t : Nat} {h : List Nat}
    (ho : OnceAll act m (t :: h)) : OnceAll act m h := by
  intro b
  have h1 : Once (m b) (cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h)) :=
    ho b
  cases hb : arrAt b (act t (cnt t h)) with
  | true =>
    rw [hb] at h1
    exact once_init (arrs act b h) (fun _ => 0) [] h1
  | false =>
    rw [hb] at h1
    exact h1

theorem arrs_tail_le (act : Nat → Nat → Ev) (b s t : Nat) (h : List Nat) :
    cnt s (arrs act b h) ≤ cnt s (arrs act b (t :: h)) := by
  show cnt s (arrs act b h) ≤
    cnt s (cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h))
  cases arrAt b (act t (cnt t h)) with
  | true => exact le_cnt_sn s t (arrs act b h)
  | false => exact Nat.leRefl _

/-- **When a waiter has stepped past its `k`-th arrival at `b`, every member has arrived
`k + 1` times** (in a valid history that is `Once` at every id). -/
theorem members_done (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) {y j b : Nat} (hy : act y j = Ev.arr b true) :
    ∀ (h : List Nat), Valid act m h → OnceAll act m h → j + 1 < cnt y h →
    ∀ s, Mem s (S b) → ac act b y j + 1 ≤ cnt s (arrs act b h)
  | [], _, _, hl, _, _ => False.elim (Nat.notLtZero _ hl)
  | u :: h, hv, ho, hl, s, hs => by
    have hv' : Valid act m h := hv.1
    have ho' : OnceAll act m h := once_tail ho
    have mono := arrs_tail_le act b s u h
    cases Nat.ltOrGe (j + 1) (cnt y h) with
    | inl hl' => exact Nat.leTrans (members_done act m S hM hSz hy h hv' ho' hl' s hs) mono
    | inr hge =>
      cases Nat.decEq u y with
      | isFalse e =>
        have hc : cnt y (u :: h) = cnt y h := by
          show (if u = y then cnt y h + 1 else cnt y h) = cnt y h
          rw [if_neg' e]
        rw [hc] at hl
        exact False.elim (Nat.notSuccLeSelf _ (Nat.leTrans hl hge))
      | isTrue e =>
        have hc : cnt y (u :: h) = cnt y h + 1 := by
          show (if u = y then cnt y h + 1 else cnt y h) = cnt y h + 1
          rw [if_pos' e]
        rw [hc] at hl
        have heq : cnt y h = j + 1 := Nat.leAntisymm hge (Nat.leOfLtSucc hl)
        have hnp : ¬ Pending u (left (m b) (fun _ => 0) [] (arrs act b h)) :=
          hv.2 j b (by rw [e]; exact heq) (by rw [e]; exact hy)
        rw [e] at hnp
        have hyS : Mem y (S b) := hM y j b true hy
        have hsz := hSz b
        have h0 : 0 < m b := by rw [← hsz.1]; exact len_pos hyS
        have hge2 := all_ge hsz.1 hsz.2 h0 (only_arrs act S hM b h) (ho' b) hyS hnp s hs
        rw [cnt_arrs act b y h, heq, ac_arr hy] at hge2
        exact Nat.leTrans hge2 mono

/-- One happens-before edge: program order, or from an arrival to the step past the instance
of a waiter with the same arrival number at the same id. -/
inductive Edge (act : Nat → Nat → Ev) : Nat × Nat → Nat × Nat → Prop
  | po (t i : Nat) : Edge act (t, i) (t, i + 1)
  | bar (x i y j b : Nat) (wx : Bool) : act x i = Ev.arr b wx → act y j = Ev.arr b true →
      ac act b x i = ac act b y j → Edge act (x, i) (y, j + 1)

/-- Happens-before: chains of edges. -/
inductive HB (act : Nat → Nat → Ev) : Nat × Nat → Nat × Nat → Prop
  | edge {e1 e2 : Nat × Nat} : Edge act e1 e2 → HB act e1 e2
  | step {e1 e2 e3 : Nat × Nat} : HB act e1 e2 → Edge act e2 e3 → HB act e1 e3

/-- **The Rust's check (3)**, over the per-thread sequences: when `t`'s action `i` is a
`bar.arrive` at `b` and action `i'` its next arrival at `b`, a waiter `y` of the same instance
(its arrival `j` at `b` has the same number and waits) has its step past the instance happen
before `(t, i')`. -/
def Check3 (act : Nat → Nat → Ev) : Prop :=
  ∀ t i i' b wt', act t i = Ev.arr b false → act t i' = Ev.arr b wt' → i < i' →
    ac act b t i' = ac act b t i + 1 →
    ∃ y j, act y j = Ev.arr b true ∧ ac act b y j = ac act b t i ∧ HB act (y, j + 1) (t, i')

/-- An edge whose target happened (in a valid history, `Once` at every id) has its source
happened. -/
theorem edge_done (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) {h : List Nat} (hv : Valid act m h)
    (ho : OnceAll act m h) {e1 e2 : Nat × Nat} (he : Edge act e1 e2) :
    e2.2 < cnt e2.1 h → e1.2 < cnt e1.1 h := by
  cases he with
  | po t i =>
    intro hl
    have hl' : i + 1 < cnt t h := hl
    show i < cnt t h
    exact Nat.leTrans (Nat.leSucc (i + 1)) hl'
  | bar x i y j b wx hx hy hac =>
    intro hl
    have hl' : j + 1 < cnt y h := hl
    show i < cnt x h
    have r := members_done act m S hM hSz hy h hv ho hl' x (hM x i b wx hx)
    rw [cnt_arrs act b x h, ← hac] at r
    exact idx_lt r

theorem hb_done (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) {h : List Nat} (hv : Valid act m h)
    (ho : OnceAll act m h) {e1 e2 : Nat × Nat} (hb : HB act e1 e2) :
    e2.2 < cnt e2.1 h → e1.2 < cnt e1.1 h := by
  induction hb with
  | edge he => exact edge_done act m S hM hSz hv ho he
  | step _ he ih => exact fun hl => ih (edge_done act m S hM hSz hv ho he hl)

/-- An edge into the latest step has its source strictly before it. -/
theorem edge_head (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) {t : Nat} {h : List Nat} (hv : Valid act m (t :: h))
    (ho : OnceAll act m h) {e1 e2 : Nat × Nat} (he : Edge act e1 e2) :
    e2 = (t, cnt t h) → e1.2 < cnt e1.1 h := by
  cases he with
  | po u i =>
    intro heq
    have e1' : u = t := (Prod.mk.inj heq).1
    have e2' : i + 1 = cnt t h := (Prod.mk.inj heq).2
    show i < cnt u h
    rw [e1', ← e2']
    exact Nat.ltSuccSelf i
  | bar x i y j b wx hx hy hac =>
    intro heq
    have ey : y = t := (Prod.mk.inj heq).1
    have ej : j + 1 = cnt t h := (Prod.mk.inj heq).2
    show i < cnt x h
    rw [ey] at hy
    rw [ey] at hac
    have hnp := hv.2 j b ej.symm hy
    have htS : Mem t (S b) := hM t j b true hy
    have hsz := hSz b
    have h0 : 0 < m b := by rw [← hsz.1]; exact len_pos htS
    have r := all_ge hsz.1 hsz.2 h0 (only_arrs act S hM b h) (ho b) htS hnp x (hM x i b wx hx)
    rw [cnt_arrs act b t h, ← ej, ac_arr hy, ← hac, cnt_arrs act b x h] at r
    exact idx_lt r

/-- **Happens-before is realized in every schedule**: whatever happens before the latest step
of a valid history (`Once` at every id before it) happened before it. -/
theorem hb_head (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) {t : Nat} {h : List Nat} (hv : Valid act m (t :: h))
    (ho : OnceAll act m h) {e1 e2 : Nat × Nat} (hb : HB act e1 e2) :
    e2 = (t, cnt t h) → e1.2 < cnt e1.1 h := by
  cases hb with
  | edge he => exact edge_head act m S hM hSz hv ho he
  | step hb' he =>
    intro heq
    exact hb_done act m S hM hSz hv.1 ho hb' (edge_head act m S hM hSz hv ho he heq)

/-- **Check (3) gives `Once` in every schedule.**  Let every thread's actions be fixed
(`act`), only threads of `S b` arrive at `b`, `S b` have `m b` threads without duplicates
(check (2)), and `Check3` hold.  Then every valid history (every schedule) is `Once` at every
barrier id. -/
theorem once_all (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) :
    ∀ (h : List Nat), Valid act m h → OnceAll act m h
  | [], _ => fun _ => trivial
  | t :: h, hv => by
    have ho : OnceAll act m h := once_all act m S hM hSz h3 h hv.1
    intro b
    show Once (m b) (cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h))
    cases hb : arrAt b (act t (cnt t h)) with
    | false => exact ho b
    | true =>
      show OnceG (m b) (fun _ => 0) [] (sn (arrs act b h) t)
      apply once_snoc (arrs act b h) (fun _ => 0) [] (ho b)
      match arrAt_true hb with
      | ⟨wt', hact⟩ =>
        have htS : Mem t (S b) := hM t (cnt t h) b wt' hact
        have hsz := hSz b
        have h0 : 0 < m b := by rw [← hsz.1]; exact len_pos htS
        have hw := only_arrs act S hM b h
        have hcnt : cnt t (arrs act b h) = ac act b t (cnt t h) := cnt_arrs act b t h
        cases hk : ac act b t (cnt t h) with
        | zero =>
          have hz : cnt t (arrs act b h) ≤ 0 := by rw [hcnt, hk]; exact Nat.leRefl 0
          exact not_pend hsz.1 hsz.2 h0 hw (ho b) (fun s _ => Nat.zeroLe _) hz
        | succ k =>
          have hz : cnt t (arrs act b h) ≤ k + 1 := by rw [hcnt, hk]; exact Nat.leRefl _
          have fin : (∀ s, Mem s (S b) → k + 1 ≤ cnt s (arrs act b h)) →
              ¬ Pending t (left (m b) (fun _ => 0) [] (arrs act b h)) :=
            fun hge => not_pend hsz.1 hsz.2 h0 hw (ho b) hge hz
          match ac_prev act b t (cnt t h) k hk with
          | ⟨i, hi, ⟨wt0, hact0⟩, hak⟩ =>
            cases wt0 with
            | true =>
              cases Nat.ltOrGe (i + 1) (cnt t h) with
              | inl hl =>
                apply fin
                have r := members_done act m S hM hSz hact0 h hv.1 ho hl
                rw [hak] at r
                exact r
              | inr hge =>
                have e : cnt t h = i + 1 := Nat.leAntisymm hge hi
                exact hv.2 i b e hact0
            | false =>
              have hnext : ac act b t (cnt t h) = ac act b t i + 1 := by rw [hk, hak]
              match h3 t i (cnt t h) b wt' hact0 hact hi hnext with
              | ⟨y, j, hy, hyk, hhb⟩ =>
                have hl : j + 1 < cnt y h := hb_head act m S hM hSz hv ho hhb rfl
                apply fin
                have r := members_done act m S hM hSz hy h hv.1 ho hl
                rw [hyk, hak] at r
                exact r

/-- **So the matching is the same in every schedule**: in every valid history the `k`-th
instance at `b` is exactly every member's `k`-th arrival. -/
theorem matching_all (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) (h : List Nat) (hv : Valid act m h)
    (b : Nat) : ∀ k I, nthL (insts (m b) (arrs act b h)) k = some I →
      ∀ a, (Mem a I ↔ Mem a.1 (S b) ∧ a.2 = k) :=
  insts_spec (hSz b).1 (only_arrs act S hM b h) (once_all act m S hM hSz h3 h hv b)

/-- **Separation at a barrier where a thread waits.**  Under the hypotheses of `once_all`, in
every valid history: once a thread `t` has stepped past its waiting `k`-th arrival at `W`, every
member's `k`-th arrival at `W`, and every action before it, has happened.  With every thread a
member of `W` (a whole-CTA barrier), every action before the instance (of any thread) comes
before every action after it of a thread that waits there; a thread that only arrives there
(`bar.arrive`) is not held back, which is what the clearing finding below uses. -/
theorem cut_sep (act : Nat → Nat → Ev) (m : Nat → Nat) (S : Nat → List Nat)
    (hM : Memb act S) (hSz : Sized m S) (h3 : Check3 act) {t j W : Nat}
    (hy : act t j = Ev.arr W true) (h : List Nat) (hv : Valid act m h) (hl : j + 1 < cnt t h)
    {u i i' : Nat} {wu : Bool} (hu : act u i = Ev.arr W wu) (hk : ac act W u i = ac act W t j)
    (hi : i' ≤ i) : i' < cnt u h := by
  have r := members_done act m S hM hSz hy h hv (once_all act m S hM hSz h3 h hv) hl u
    (hM u i W wu hu)
  rw [cnt_arrs act W u h, ← hk] at r
  exact Nat.ltOfLeOfLt hi (idx_lt r)

/-- Without `bar.arrive` check (3) holds vacuously, so every schedule of `bar.sync`
arrivals is `Once`. -/
theorem check3_sync (act : Nat → Nat → Ev) (hs : ∀ t i b, ¬ act t i = Ev.arr b false) :
    Check3 act :=
  fun t i _ b _ h0 _ _ _ => False.elim (hs t i b h0)

/-! ## Segments: a whole-CTA instance where every thread waits

Without the single member set per id of `once_all` (the Rust clears the record at such an
instance): one id `W` at which every arrival waits, members `SW`, every arriving thread a
member of `W` (whole CTA).  `once_wait`: every valid history is `Once` at `W`.  `sep_wait`: once
a member has stepped past its cut arrival `c t` (its `k`-th at `W`), every member's cut arrival
has happened.  `split`: so at every id, in every valid history, all arrivals up to the cut
(`preF`) come before all arrivals after it (`postF`): the order of arrivals is the one of the
arrivals before, then the one of the arrivals after. -/

theorem only_arrs1 (act : Nat → Nat → Ev) {b : Nat} {Sb : List Nat}
    (hM : ∀ t i wt, act t i = Ev.arr b wt → Mem t Sb) :
    ∀ (h : List Nat) x, Mem x (arrs act b h) → Mem x Sb
  | [], x, hx => False.elim hx
  | t :: h, x, hx => by
    have hx' : Mem x (cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h)) := hx
    cases hb : arrAt b (act t (cnt t h)) with
    | true =>
      rw [hb] at hx'
      cases mem_sn (arrs act b h) hx' with
      | inl h' => exact only_arrs1 act hM h x h'
      | inr e =>
        match arrAt_true hb with
        | ⟨wt, ha⟩ => rw [← e]; exact hM t (cnt t h) wt ha
    | false =>
      rw [hb] at hx'
      exact only_arrs1 act hM h x hx'

theorem once_tail1 {act : Nat → Nat → Ev} {mb b t : Nat} {h : List Nat}
    (ho : Once mb (arrs act b (t :: h))) : Once mb (arrs act b h) := by
  have h1 : Once mb (cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h)) := ho
  cases hb : arrAt b (act t (cnt t h)) with
  | true =>
    rw [hb] at h1
    exact once_init (arrs act b h) (fun _ => 0) [] h1
  | false =>
    rw [hb] at h1
    exact h1

/-- `members_done` with `Once` and the members at the one id only. -/
theorem members_done1 (act : Nat → Nat → Ev) (m : Nat → Nat) {b : Nat} {Sb : List Nat}
    (hM : ∀ t i wt, act t i = Ev.arr b wt → Mem t Sb) (hm : len Sb = m b) (hS : Nodup Sb)
    {y j : Nat} (hy : act y j = Ev.arr b true) :
    ∀ (h : List Nat), Valid act m h → Once (m b) (arrs act b h) → j + 1 < cnt y h →
    ∀ s, Mem s Sb → ac act b y j + 1 ≤ cnt s (arrs act b h)
  | [], _, _, hl, _, _ => False.elim (Nat.notLtZero _ hl)
  | u :: h, hv, ho, hl, s, hs => by
    have hv' : Valid act m h := hv.1
    have ho' : Once (m b) (arrs act b h) := once_tail1 ho
    have mono := arrs_tail_le act b s u h
    cases Nat.ltOrGe (j + 1) (cnt y h) with
    | inl hl' => exact Nat.leTrans (members_done1 act m hM hm hS hy h hv' ho' hl' s hs) mono
    | inr hge =>
      cases Nat.decEq u y with
      | isFalse e =>
        have hc : cnt y (u :: h) = cnt y h := by
          show (if u = y then cnt y h + 1 else cnt y h) = cnt y h
          rw [if_neg' e]
        rw [hc] at hl
        exact False.elim (Nat.notSuccLeSelf _ (Nat.leTrans hl hge))
      | isTrue e =>
        have hc : cnt y (u :: h) = cnt y h + 1 := by
          show (if u = y then cnt y h + 1 else cnt y h) = cnt y h + 1
          rw [if_pos' e]
        rw [hc] at hl
        have heq : cnt y h = j + 1 := Nat.leAntisymm hge (Nat.leOfLtSucc hl)
        have hnp : ¬ Pending u (left (m b) (fun _ => 0) [] (arrs act b h)) :=
          hv.2 j b (by rw [e]; exact heq) (by rw [e]; exact hy)
        rw [e] at hnp
        have hyS : Mem y Sb := hM y j true hy
        have h0 : 0 < m b := by rw [← hm]; exact len_pos hyS
        have hge2 := all_ge hm hS h0 (only_arrs1 act hM h) ho' hyS hnp s hs
        rw [cnt_arrs act b y h, heq, ac_arr hy] at hge2
        exact Nat.leTrans hge2 mono

/-- **An id at which every arrival waits is `Once` in every schedule** (no check (3) needed). -/
theorem once_wait (act : Nat → Nat → Ev) (m : Nat → Nat) {b : Nat} {Sb : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr b wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr b wt → Mem t Sb) (hm : len Sb = m b) (hS : Nodup Sb) :
    ∀ (h : List Nat), Valid act m h → Once (m b) (arrs act b h)
  | [], _ => trivial
  | t :: h, hv => by
    have ho : Once (m b) (arrs act b h) := once_wait act m hW hM hm hS h hv.1
    show Once (m b) (cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h))
    cases hb : arrAt b (act t (cnt t h)) with
    | false => exact ho
    | true =>
      show OnceG (m b) (fun _ => 0) [] (sn (arrs act b h) t)
      apply once_snoc (arrs act b h) (fun _ => 0) [] ho
      match arrAt_true hb with
      | ⟨wt', hact⟩ =>
        have htS : Mem t Sb := hM t (cnt t h) wt' hact
        have h0 : 0 < m b := by rw [← hm]; exact len_pos htS
        have hw := only_arrs1 act hM h
        have hcnt : cnt t (arrs act b h) = ac act b t (cnt t h) := cnt_arrs act b t h
        cases hk : ac act b t (cnt t h) with
        | zero =>
          have hz : cnt t (arrs act b h) ≤ 0 := by rw [hcnt, hk]; exact Nat.leRefl 0
          exact not_pend hm hS h0 hw ho (fun s _ => Nat.zeroLe _) hz
        | succ k =>
          have hz : cnt t (arrs act b h) ≤ k + 1 := by rw [hcnt, hk]; exact Nat.leRefl _
          match ac_prev act b t (cnt t h) k hk with
          | ⟨i, hi, ⟨wt0, hact0⟩, hak⟩ =>
            have hw0 : wt0 = true := hW t i wt0 hact0
            rw [hw0] at hact0
            cases Nat.ltOrGe (i + 1) (cnt t h) with
            | inl hl =>
              apply not_pend hm hS h0 hw ho _ hz
              have r := members_done1 act m hM hm hS hact0 h hv.1 ho hl
              rw [hak] at r
              exact r
            | inr hge =>
              have e : cnt t h = i + 1 := Nat.leAntisymm hge hi
              exact hv.2 i b e hact0

/-- **Separation at a whole-CTA instance where every thread waits**: once a member has stepped
past its cut arrival (its `k`-th at `W`), every member's cut arrival has happened. -/
theorem sep_wait (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (h : List Nat) (hv : Valid act m h) {t : Nat} (ht : Mem t SW) (hl : c t + 1 < cnt t h) :
    ∀ u, Mem u SW → c u < cnt u h := by
  intro u hu
  have r := members_done1 act m hM hm hS (hc t ht).1 h hv (once_wait act m hW hM hm hS h hv) hl
    u hu
  rw [cnt_arrs act W u h, (hc t ht).2, ← (hc u hu).2] at r
  exact idx_lt r

/-- Append, structural. -/
def app : List Nat → List Nat → List Nat
  | [], l => l
  | x :: r, l => x :: app r l

theorem app_nil : ∀ (l : List Nat), app l [] = l
  | [] => rfl
  | x :: r => by
    show x :: app r [] = x :: r
    rw [app_nil r]

theorem app_sn (t : Nat) : ∀ (l1 l2 : List Nat), sn (app l1 l2) t = app l1 (sn l2 t)
  | [], l2 => rfl
  | x :: r, l2 => by
    show x :: sn (app r l2) t = x :: app r (sn l2 t)
    rw [app_sn t r l2]

/-- The arrivals at `b` whose action index passes the selector `f`. -/
def arrsF (act : Nat → Nat → Ev) (b : Nat) (f : Nat → Nat → Bool) : List Nat → List Nat
  | [] => []
  | t :: h => cond (arrAt b (act t (cnt t h)) && f t (cnt t h)) (sn (arrsF act b f h) t)
      (arrsF act b f h)

/-- Up to and including the cut. -/
def preF (c : Nat → Nat) (t i : Nat) : Bool := decide (i ≤ c t)

/-- After the cut. -/
def postF (c : Nat → Nat) (t i : Nat) : Bool := !decide (i ≤ c t)

theorem cnt_le_cons (u t : Nat) (h : List Nat) : cnt u h ≤ cnt u (t :: h) := by
  show cnt u h ≤ (if t = u then cnt u h + 1 else cnt u h)
  cases Nat.decEq t u with
  | isTrue e => rw [if_pos' e]; exact Nat.leSucc _
  | isFalse e => rw [if_neg' e]; exact Nat.leRefl _

/-- A thread with an arrival after its cut in the history has stepped past the cut. -/
theorem post_done (act : Nat → Nat → Ev) (b : Nat) (c : Nat → Nat) {u : Nat} :
    ∀ (h : List Nat), Mem u (arrsF act b (postF c) h) →
    c u + 1 < cnt u h ∧ ∃ i wt, act u i = Ev.arr b wt
  | [], hu => False.elim hu
  | t :: h, hu => by
    have hu' : Mem u (cond (arrAt b (act t (cnt t h)) && postF c t (cnt t h))
        (sn (arrsF act b (postF c) h) t) (arrsF act b (postF c) h)) := hu
    cases hb : (arrAt b (act t (cnt t h)) && postF c t (cnt t h)) with
    | true =>
      rw [hb] at hu'
      cases mem_sn _ hu' with
      | inl h' =>
        have r := post_done act b c h h'
        exact ⟨Nat.ltOfLtOfLe r.1 (cnt_le_cons u t h), r.2⟩
      | inr e =>
        rw [← e]
        have ha : arrAt b (act t (cnt t h)) = true := and_left' hb
        have hp : (!decide (cnt t h ≤ c t)) = true := and_right' hb
        have hn : ¬ cnt t h ≤ c t := by
          intro hle
          rw [decide_eq_true' hle] at hp
          exact Bool.noConfusion hp
        have hct : cnt t (t :: h) = cnt t h + 1 := by
          show (if t = t then cnt t h + 1 else cnt t h) = cnt t h + 1
          rw [if_pos' rfl]
        rw [hct]
        match arrAt_true ha with
        | ⟨wt, hact⟩ =>
          cases Nat.ltOrGe (c t) (cnt t h) with
          | inl hl => exact ⟨Nat.succLeSucc hl, ⟨cnt t h, wt, hact⟩⟩
          | inr hge => exact False.elim (hn hge)
    | false =>
      rw [hb] at hu'
      have r := post_done act b c h hu'
      exact ⟨Nat.ltOfLtOfLe r.1 (cnt_le_cons u t h), r.2⟩

/-- **Arrivals before and after a whole-CTA instance where every thread waits form two
segments in every schedule**: at every id `b`, the order of arrivals of every valid history is
the order of the arrivals up to the cut followed by the order of those after it. -/
theorem split (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) (b : Nat) :
    ∀ (h : List Nat), Valid act m h →
      arrs act b h = app (arrsF act b (preF c) h) (arrsF act b (postF c) h)
  | [], _ => rfl
  | t :: h, hv => by
    have ih := split act m hW hM hm hS hc hall b h hv.1
    show cond (arrAt b (act t (cnt t h))) (sn (arrs act b h) t) (arrs act b h) =
      app (cond (arrAt b (act t (cnt t h)) && decide (cnt t h ≤ c t))
          (sn (arrsF act b (preF c) h) t) (arrsF act b (preF c) h))
        (cond (arrAt b (act t (cnt t h)) && !decide (cnt t h ≤ c t))
          (sn (arrsF act b (postF c) h) t) (arrsF act b (postF c) h))
    cases hb : arrAt b (act t (cnt t h)) with
    | false => exact ih
    | true =>
      cases hp : decide (cnt t h ≤ c t) with
      | true =>
        show sn (arrs act b h) t = app (sn (arrsF act b (preF c) h) t) (arrsF act b (postF c) h)
        have hle : cnt t h ≤ c t := of_decide_eq_true' hp
        cases hpost : arrsF act b (postF c) h with
        | nil => rw [ih, hpost, app_nil, app_nil]
        | cons u r =>
          have hu : Mem u (arrsF act b (postF c) h) := by rw [hpost]; exact Or.inl rfl
          match post_done act b c h hu with
          | ⟨hl, ⟨i, wt, hact⟩⟩ =>
            have huS : Mem u SW := hall u i b wt hact
            match arrAt_true hb with
            | ⟨wt', hact'⟩ =>
              have htS : Mem t SW := hall t (cnt t h) b wt' hact'
              have r := sep_wait act m hW hM hm hS hc h hv.1 huS hl t htS
              exact False.elim (Nat.notSuccLeSelf _ (Nat.leTrans r hle))
      | false =>
        show sn (arrs act b h) t = app (arrsF act b (preF c) h) (sn (arrsF act b (postF c) h) t)
        rw [ih, app_sn]

/-! ### Nothing pending at the cut, in every schedule -/

/-- How many arrivals stay pending after `n` more, from `a` pending (count `m`). -/
def lf (m : Nat) : Nat → Nat → Nat
  | a, 0 => a
  | a, n + 1 => if a + 1 = m then lf m 0 n else lf m (a + 1) n

/-- What stays pending depends only on how many arrive. -/
theorem len_left (m : Nat) : ∀ (l : List Nat) (c : Nat → Nat) (p : List Arr),
    len (left m c p l) = lf m (len p) (len l)
  | [], c, p => rfl
  | t :: l, c, p => by
    show len (if len ((t, c t) :: p) = m then left m (upd c t) [] l
        else left m (upd c t) ((t, c t) :: p) l) =
      (if len p + 1 = m then lf m 0 (len l) else lf m (len p + 1) (len l))
    have e : len ((t, c t) :: p) = len p + 1 := rfl
    cases Nat.decEq (len p + 1) m with
    | isTrue h =>
      rw [if_pos' (show len ((t, c t) :: p) = m by rw [e]; exact h), if_pos' h]
      exact len_left m l (upd c t) []
    | isFalse h =>
      rw [if_neg' (show ¬ len ((t, c t) :: p) = m by rw [e]; exact h), if_neg' h]
      exact len_left m l (upd c t) ((t, c t) :: p)

theorem nil_of_len {α : Type} : ∀ {l : List α}, len l = 0 → l = []
  | [], _ => rfl
  | _ :: l, h => Nat.noConfusion h

theorem cnt_rm_same {x : Nat} : ∀ (l : List Nat), Mem x l → cnt x l = cnt x (rm x l) + 1
  | [], h => False.elim h
  | y :: l, h => by
    show (if y = x then cnt x l + 1 else cnt x l) = cnt x (if y = x then l else y :: rm x l) + 1
    cases Nat.decEq y x with
    | isTrue e => rw [if_pos' e, if_pos' e]
    | isFalse e =>
      rw [if_neg' e, if_neg' e]
      show cnt x l = (if y = x then cnt x (rm x l) + 1 else cnt x (rm x l)) + 1
      rw [if_neg' e]
      cases h with
      | inl e' => exact False.elim (e e')
      | inr h' => exact cnt_rm_same l h'

theorem cnt_rm_other {x t : Nat} (hxt : ¬ x = t) : ∀ (l : List Nat), cnt t (rm x l) = cnt t l
  | [] => rfl
  | y :: l => by
    show cnt t (if y = x then l else y :: rm x l) = (if y = t then cnt t l + 1 else cnt t l)
    cases Nat.decEq y x with
    | isTrue e =>
      rw [if_pos' e]
      have hyt : ¬ y = t := by rw [e]; exact hxt
      rw [if_neg' hyt]
    | isFalse e =>
      rw [if_neg' e]
      show (if y = t then cnt t (rm x l) + 1 else cnt t (rm x l)) = _
      rw [cnt_rm_other hxt l]

/-- Lists with the same count of every element have the same length. -/
theorem len_of_cnt : ∀ (l l' : List Nat), (∀ t, cnt t l = cnt t l') → len l = len l'
  | [], [], _ => rfl
  | [], y :: l', h => by
    have h1 := h y
    have h2 : 0 < cnt y (y :: l') := cnt_pos (y :: l') (Or.inl rfl)
    rw [← h1] at h2
    exact False.elim (Nat.notLtZero 0 h2)
  | x :: r, l', h => by
    have hx : 0 < cnt x l' := by rw [← h x]; exact cnt_pos (x :: r) (Or.inl rfl)
    have hmem : Mem x l' := mem_of_cnt l' hx
    have h' : ∀ t, cnt t r = cnt t (rm x l') := by
      intro t
      cases Nat.decEq x t with
      | isTrue e =>
        rw [← e]
        have a1 : cnt x (x :: r) = cnt x r + 1 := by
          show (if x = x then cnt x r + 1 else cnt x r) = cnt x r + 1
          rw [if_pos' rfl]
        have a2 := h x
        rw [a1, cnt_rm_same l' hmem] at a2
        exact Nat.succ.inj a2
      | isFalse e =>
        rw [cnt_rm_other e l']
        have a1 : cnt t (x :: r) = cnt t r := by
          show (if x = t then cnt t r + 1 else cnt t r) = cnt t r
          rw [if_neg' e]
        rw [← a1]
        exact h t
    show len r + 1 = len l'
    rw [len_of_cnt r (rm x l') h', rm_len x l' hmem]

/-- Nothing pending after one arrival order, nothing pending after any other with the same
per-thread counts. -/
theorem left_nil_of_cnt {m : Nat} {l l' : List Nat} (hcnt : ∀ t, cnt t l = cnt t l')
    (c c' : Nat → Nat) (h : left m c [] l = []) : left m c' [] l' = [] := by
  apply nil_of_len
  rw [len_left, ← len_of_cnt l l' hcnt, ← len_left m l c []]
  rw [h]
  rfl

/-! ### Instances of two segments -/

/-- The counter after an arrival order. -/
def ctr : (Nat → Nat) → List Nat → (Nat → Nat)
  | c, [] => c
  | c, t :: l => ctr (upd c t) l

theorem ctr_cnt : ∀ (l : List Nat) (c : Nat → Nat) (s : Nat), ctr c l s = c s + cnt s l
  | [], c, s => rfl
  | t :: l, c, s => by
    show ctr (upd c t) l s = _
    rw [ctr_cnt l (upd c t) s, upd_cnt]

/-- Append of instance lists, structural. -/
def appI : List (List Arr) → List (List Arr) → List (List Arr)
  | [], l => l
  | x :: r, l => x :: appI r l

/-- With nothing pending after the first part, the instances of two parts are those of the
first, then those of the second started afresh (with the first part's counts). -/
theorem go_app (m : Nat) (l2 : List Nat) : ∀ (l1 : List Nat) (c : Nat → Nat) (p : List Arr),
    left m c p l1 = [] → go m c p (app l1 l2) = appI (go m c p l1) (go m (ctr c l1) [] l2)
  | [], c, p, h => by
    have hp : p = [] := h
    rw [hp]
    rfl
  | t :: l1, c, p, h => by
    have hl : (if len ((t, c t) :: p) = m then left m (upd c t) [] l1
        else left m (upd c t) ((t, c t) :: p) l1) = [] := h
    show (if len ((t, c t) :: p) = m then ((t, c t) :: p) :: go m (upd c t) [] (app l1 l2)
        else go m (upd c t) ((t, c t) :: p) (app l1 l2)) =
      appI (if len ((t, c t) :: p) = m then ((t, c t) :: p) :: go m (upd c t) [] l1
        else go m (upd c t) ((t, c t) :: p) l1) (go m (ctr (upd c t) l1) [] l2)
    cases Nat.decEq (len ((t, c t) :: p)) m with
    | isTrue e =>
      rw [if_pos' e] at hl
      rw [if_pos' e, if_pos' e]
      show _ = ((t, c t) :: p) :: appI (go m (upd c t) [] l1) (go m (ctr (upd c t) l1) [] l2)
      rw [go_app m l2 l1 (upd c t) [] hl]
    | isFalse e =>
      rw [if_neg' e] at hl
      rw [if_neg' e, if_neg' e]
      exact go_app m l2 l1 (upd c t) ((t, c t) :: p) hl

/-- **The two segments are independent in every schedule.**  With the hypotheses of `split`, let
`E` (the executor's schedule) leave nothing pending at `b` after the arrivals up to the cut, and
let the valid history `h` have the same per-thread arrivals up to the cut (both ran every thread
past it).  Then the instances at `b` in `h` are those of its arrivals up to the cut, followed by
those of its arrivals after the cut counted afresh (nothing pending carried over). -/
theorem segments (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) (b : Nat)
    (h : List Nat) (hv : Valid act m h) {E : List Nat}
    (hE : left (m b) (fun _ => 0) [] (arrsF act b (preF c) E) = [])
    (hcnt : ∀ t, cnt t (arrsF act b (preF c) E) = cnt t (arrsF act b (preF c) h)) :
    insts (m b) (arrs act b h) =
      appI (insts (m b) (arrsF act b (preF c) h))
        (go (m b) (ctr (fun _ => 0) (arrsF act b (preF c) h)) [] (arrsF act b (postF c) h)) := by
  rw [split act m hW hM hm hS hc hall b h hv]
  exact go_app (m b) _ _ (fun _ => 0) [] (left_nil_of_cnt hcnt (fun _ => 0) (fun _ => 0) hE)

/-! ### The segment after the cut as a program of its own

`restr act (postF c)` keeps each thread's actions after its cut and makes the others `loc`.
`valid_post`: every valid history of `act` is a valid history of it (its waits complete at the
same moments, since nothing is pending at the cut), so `once_all` and `matching_all` apply to the
second segment with its own member sets (`post_once`, `post_matching`). -/

/-- Arrivals at `b` among the first `n` actions of `t` that pass `f`. -/
def acF (act : Nat → Nat → Ev) (b : Nat) (f : Nat → Nat → Bool) (t : Nat) : Nat → Nat
  | 0 => 0
  | i + 1 => cond (arrAt b (act t i) && f t i) (acF act b f t i + 1) (acF act b f t i)

theorem cnt_arrsF (act : Nat → Nat → Ev) (b : Nat) (f : Nat → Nat → Bool) (x : Nat) :
    ∀ (h : List Nat), cnt x (arrsF act b f h) = acF act b f x (cnt x h)
  | [] => rfl
  | t :: h => by
    show cnt x (cond (arrAt b (act t (cnt t h)) && f t (cnt t h)) (sn (arrsF act b f h) t)
        (arrsF act b f h)) = acF act b f x (if t = x then cnt x h + 1 else cnt x h)
    cases Nat.decEq t x with
    | isTrue e =>
      rw [if_pos' e, e]
      show _ = cond (arrAt b (act x (cnt x h)) && f x (cnt x h)) (acF act b f x (cnt x h) + 1)
        (acF act b f x (cnt x h))
      cases hb : (arrAt b (act x (cnt x h)) && f x (cnt x h)) with
      | true =>
        show cnt x (sn (arrsF act b f h) x) = acF act b f x (cnt x h) + 1
        rw [cnt_sn_eq, cnt_arrsF act b f x h]
      | false => exact cnt_arrsF act b f x h
    | isFalse e =>
      rw [if_neg' e]
      cases hb : (arrAt b (act t (cnt t h)) && f t (cnt t h)) with
      | true =>
        show cnt x (sn (arrsF act b f h) t) = _
        rw [cnt_sn_ne e, cnt_arrsF act b f x h]
      | false => exact cnt_arrsF act b f x h

theorem acF_pre (act : Nat → Nat → Ev) (b : Nat) (c : Nat → Nat) (t : Nat) :
    ∀ d, acF act b (preF c) t (c t + 1 + d) = acF act b (preF c) t (c t + 1)
  | 0 => rfl
  | d + 1 => by
    show cond (arrAt b (act t (c t + 1 + d)) && decide (c t + 1 + d ≤ c t))
        (acF act b (preF c) t (c t + 1 + d) + 1) (acF act b (preF c) t (c t + 1 + d)) = _
    have hn : ¬ (c t + 1 + d ≤ c t) := fun hle =>
      Nat.notSuccLeSelf (c t) (Nat.leTrans (Nat.leAddRight (c t + 1) d) hle)
    rw [decide_eq_false' hn]
    cases arrAt b (act t (c t + 1 + d)) with
    | true => exact acF_pre act b c t d
    | false => exact acF_pre act b c t d

/-- Past its cut, a thread's arrivals up to the cut are all counted. -/
theorem cnt_pre_full (act : Nat → Nat → Ev) (b : Nat) (c : Nat → Nat) {t : Nat}
    {h h' : List Nat} (h1 : c t < cnt t h) (h2 : c t < cnt t h') :
    cnt t (arrsF act b (preF c) h) = cnt t (arrsF act b (preF c) h') := by
  rw [cnt_arrsF, cnt_arrsF]
  match Nat.le.dest h1, Nat.le.dest h2 with
  | ⟨d1, e1⟩, ⟨d2, e2⟩ =>
    have e1' : c t + 1 + d1 = cnt t h := e1
    have e2' : c t + 1 + d2 = cnt t h' := e2
    rw [← e1', ← e2', acF_pre, acF_pre]

theorem mem_arrsF_arr (act : Nat → Nat → Ev) (b : Nat) (f : Nat → Nat → Bool) {x : Nat} :
    ∀ (h : List Nat), Mem x (arrsF act b f h) → ∃ i wt, act x i = Ev.arr b wt
  | [], hx => False.elim hx
  | t :: h, hx => by
    have hx' : Mem x (cond (arrAt b (act t (cnt t h)) && f t (cnt t h)) (sn (arrsF act b f h) t)
        (arrsF act b f h)) := hx
    cases hb : (arrAt b (act t (cnt t h)) && f t (cnt t h)) with
    | true =>
      rw [hb] at hx'
      cases mem_sn _ hx' with
      | inl h' => exact mem_arrsF_arr act b f h h'
      | inr e =>
        match arrAt_true (and_left' hb) with
        | ⟨wt, ha⟩ => rw [← e]; exact ⟨cnt t h, wt, ha⟩
    | false =>
      rw [hb] at hx'
      exact mem_arrsF_arr act b f h hx'

/-- Two histories in which every member is past its cut have the same arrivals up to the cut. -/
theorem pre_counts (act : Nat → Nat → Ev) (b : Nat) (c : Nat → Nat) {SW : List Nat}
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {h h' : List Nat}
    (hh : ∀ u, Mem u SW → c u < cnt u h) (hh' : ∀ u, Mem u SW → c u < cnt u h') :
    ∀ t, cnt t (arrsF act b (preF c) h) = cnt t (arrsF act b (preF c) h') := by
  intro t
  cases mem_dec t SW with
  | inl ht => exact cnt_pre_full act b c (hh t ht) (hh' t ht)
  | inr ht =>
    have z : ∀ g, cnt t (arrsF act b (preF c) g) = 0 := by
      intro g
      cases Nat.eqZeroOrPos (cnt t (arrsF act b (preF c) g)) with
      | inl e => exact e
      | inr hp =>
        match mem_arrsF_arr act b (preF c) g (mem_of_cnt _ hp) with
        | ⟨i, wt, ha⟩ => exact False.elim (ht (hall t i b wt ha))
    rw [z h, z h']

theorem left_app (m : Nat) (l2 : List Nat) : ∀ (l1 : List Nat) (c : Nat → Nat) (p : List Arr),
    left m c p l1 = [] → left m c p (app l1 l2) = left m (ctr c l1) [] l2
  | [], c, p, h => by
    have hp : p = [] := h
    rw [hp]
    rfl
  | t :: l1, c, p, h => by
    have hl : (if len ((t, c t) :: p) = m then left m (upd c t) [] l1
        else left m (upd c t) ((t, c t) :: p) l1) = [] := h
    show (if len ((t, c t) :: p) = m then left m (upd c t) [] (app l1 l2)
        else left m (upd c t) ((t, c t) :: p) (app l1 l2)) = left m (ctr (upd c t) l1) [] l2
    cases Nat.decEq (len ((t, c t) :: p)) m with
    | isTrue e =>
      rw [if_pos' e] at hl
      rw [if_pos' e]
      exact left_app m l2 l1 (upd c t) [] hl
    | isFalse e =>
      rw [if_neg' e] at hl
      rw [if_neg' e]
      exact left_app m l2 l1 (upd c t) ((t, c t) :: p) hl

/-- The threads of a list of arrivals. -/
def thr : List Arr → List Nat
  | [] => []
  | a :: p => a.1 :: thr p

theorem len_thr : ∀ (p : List Arr), len (thr p) = len p
  | [] => rfl
  | a :: p => by
    show len (thr p) + 1 = len p + 1
    rw [len_thr p]

/-- Which threads stay pending does not depend on the counters. -/
theorem thr_left (m : Nat) : ∀ (l : List Nat) (c1 c2 : Nat → Nat) (p1 p2 : List Arr),
    thr p1 = thr p2 → thr (left m c1 p1 l) = thr (left m c2 p2 l)
  | [], _, _, _, _, h => h
  | t :: l, c1, c2, p1, p2, h => by
    show thr (if len ((t, c1 t) :: p1) = m then left m (upd c1 t) [] l
        else left m (upd c1 t) ((t, c1 t) :: p1) l) =
      thr (if len ((t, c2 t) :: p2) = m then left m (upd c2 t) [] l
        else left m (upd c2 t) ((t, c2 t) :: p2) l)
    have e : len ((t, c1 t) :: p1) = len ((t, c2 t) :: p2) := by
      show len p1 + 1 = len p2 + 1
      rw [← len_thr p1, ← len_thr p2, h]
    cases Nat.decEq (len ((t, c1 t) :: p1)) m with
    | isTrue e1 =>
      have e2 : len ((t, c2 t) :: p2) = m := by rw [← e]; exact e1
      rw [if_pos' e1, if_pos' e2]
      exact thr_left m l (upd c1 t) (upd c2 t) [] [] rfl
    | isFalse e1 =>
      have e2 : ¬ len ((t, c2 t) :: p2) = m := by rw [← e]; exact e1
      rw [if_neg' e1, if_neg' e2]
      have h' : thr ((t, c1 t) :: p1) = thr ((t, c2 t) :: p2) := by
        show t :: thr p1 = t :: thr p2
        rw [h]
      exact thr_left m l (upd c1 t) (upd c2 t) _ _ h'

theorem pend_thr {t : Nat} : ∀ (p : List Arr), Pending t p → Mem t (thr p)
  | [], h => match h with | ⟨_, ha, _⟩ => False.elim ha
  | a :: p, h => by
    match h with
    | ⟨x, hx, e⟩ =>
      cases hx with
      | inl e' => rw [e'] at *; exact Or.inl e
      | inr hx' => exact Or.inr (pend_thr p ⟨x, hx', e⟩)

theorem thr_pend {t : Nat} : ∀ (p : List Arr), Mem t (thr p) → Pending t p
  | [], h => False.elim h
  | a :: p, h => by
    cases h with
    | inl e => exact ⟨a, Or.inl rfl, e⟩
    | inr h' =>
      match thr_pend p h' with
      | ⟨x, hx, e⟩ => exact ⟨x, Or.inr hx, e⟩

/-- The actions of each thread passing `f`, the others `loc`. -/
def restr (act : Nat → Nat → Ev) (f : Nat → Nat → Bool) : Nat → Nat → Ev :=
  fun t i => cond (f t i) (act t i) Ev.loc

theorem arrAt_restr (act : Nat → Nat → Ev) (f : Nat → Nat → Bool) (b t i : Nat) :
    arrAt b (restr act f t i) = (arrAt b (act t i) && f t i) := by
  show arrAt b (cond (f t i) (act t i) Ev.loc) = (arrAt b (act t i) && f t i)
  cases f t i with
  | true => cases arrAt b (act t i) <;> rfl
  | false => cases arrAt b (act t i) <;> rfl

theorem arrs_restr (act : Nat → Nat → Ev) (b : Nat) (f : Nat → Nat → Bool) :
    ∀ (h : List Nat), arrs (restr act f) b h = arrsF act b f h
  | [] => rfl
  | t :: h => by
    show cond (arrAt b (restr act f t (cnt t h))) (sn (arrs (restr act f) b h) t)
        (arrs (restr act f) b h) =
      cond (arrAt b (act t (cnt t h)) && f t (cnt t h)) (sn (arrsF act b f h) t) (arrsF act b f h)
    rw [arrAt_restr, arrs_restr act b f h]

theorem restr_arr {act : Nat → Nat → Ev} {f : Nat → Nat → Bool} {t i b : Nat} {wt : Bool}
    (h : restr act f t i = Ev.arr b wt) : f t i = true ∧ act t i = Ev.arr b wt := by
  have h' : cond (f t i) (act t i) Ev.loc = Ev.arr b wt := h
  cases hf : f t i with
  | true => rw [hf] at h'; exact ⟨rfl, h'⟩
  | false => rw [hf] at h'; exact Ev.noConfusion h'

/-- **Every valid history is a valid history of the segment after the cut**, when the executor's
schedule `E` took every member past its cut and left nothing pending at any id after the
arrivals up to the cut (the Rust's clearing condition, with every thread waiting at the cut). -/
theorem valid_post (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {E : List Nat}
    (hE : ∀ b, left (m b) (fun _ => 0) [] (arrsF act b (preF c) E) = [])
    (hEc : ∀ u, Mem u SW → c u < cnt u E) :
    ∀ (h : List Nat), Valid act m h → Valid (restr act (postF c)) m h
  | [], _ => trivial
  | t :: h0, hv => by
    refine ⟨valid_post act m hW hM hm hS hc hall hE hEc h0 hv.1, ?_⟩
    intro j b hcj hact
    match restr_arr hact with
    | ⟨hf, hact'⟩ =>
      have hnp := hv.2 j b hcj hact'
      have hn : ¬ j ≤ c t := by
        intro hle
        have hf' : (!decide (j ≤ c t)) = true := hf
        rw [decide_eq_true' hle] at hf'
        exact Bool.noConfusion hf'
      have hlt : c t + 1 < cnt t h0 := by
        rw [hcj]
        cases Nat.ltOrGe (c t) j with
        | inl hl => exact Nat.succLeSucc hl
        | inr hge => exact False.elim (hn hge)
      have htS : Mem t SW := hall t j b true hact'
      have hsep := sep_wait act m hW hM hm hS hc h0 hv.1 htS hlt
      have hcnt := pre_counts act b c hall hEc hsep
      have hl0 : left (m b) (fun _ => 0) [] (arrsF act b (preF c) h0) = [] :=
        left_nil_of_cnt hcnt _ _ (hE b)
      rw [split act m hW hM hm hS hc hall b h0 hv.1, left_app _ _ _ _ _ hl0] at hnp
      rw [arrs_restr]
      intro hp
      apply hnp
      apply thr_pend
      rw [thr_left (m b) _ _ (fun _ => 0) [] [] rfl]
      exact pend_thr _ hp

/-- **The segment after the cut is `Once`** in every valid history, under its own member sets
`S2` and its own check (3). -/
theorem post_once (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {E : List Nat}
    (hE : ∀ b, left (m b) (fun _ => 0) [] (arrsF act b (preF c) E) = [])
    (hEc : ∀ u, Mem u SW → c u < cnt u E) (S2 : Nat → List Nat)
    (hM2 : Memb (restr act (postF c)) S2) (hSz2 : Sized m S2)
    (h32 : Check3 (restr act (postF c))) (h : List Nat) (hv : Valid act m h) (b : Nat) :
    Once (m b) (arrsF act b (postF c) h) := by
  rw [← arrs_restr]
  exact once_all _ m S2 hM2 hSz2 h32 h (valid_post act m hW hM hm hS hc hall hE hEc h hv) b

/-- **And matched alike in every schedule**: the `k`-th instance of the arrivals after the cut at
`b` is every member of `S2 b`'s `k`-th arrival after the cut. -/
theorem post_matching (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {E : List Nat}
    (hE : ∀ b, left (m b) (fun _ => 0) [] (arrsF act b (preF c) E) = [])
    (hEc : ∀ u, Mem u SW → c u < cnt u E) (S2 : Nat → List Nat)
    (hM2 : Memb (restr act (postF c)) S2) (hSz2 : Sized m S2)
    (h32 : Check3 (restr act (postF c))) (h : List Nat) (hv : Valid act m h) (b : Nat) :
    ∀ j I, nthL (insts (m b) (arrsF act b (postF c) h)) j = some I →
      ∀ a, (Mem a I ↔ Mem a.1 (S2 b) ∧ a.2 = j) := by
  rw [← arrs_restr]
  exact matching_all _ m S2 hM2 hSz2 h32 h (valid_post act m hW hM hm hS hc hall hE hEc h hv) b

/-- **Every valid history is a valid history of the segment up to the cut.** -/
theorem valid_pre (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {E : List Nat}
    (hE : ∀ b, left (m b) (fun _ => 0) [] (arrsF act b (preF c) E) = [])
    (hEc : ∀ u, Mem u SW → c u < cnt u E) :
    ∀ (h : List Nat), Valid act m h → Valid (restr act (preF c)) m h
  | [], _ => trivial
  | t :: h0, hv => by
    refine ⟨valid_pre act m hW hM hm hS hc hall hE hEc h0 hv.1, ?_⟩
    intro j b hcj hact
    match restr_arr hact with
    | ⟨hf, hact'⟩ =>
      have hnp := hv.2 j b hcj hact'
      have hle : j ≤ c t := of_decide_eq_true' hf
      have htS : Mem t SW := hall t j b true hact'
      rw [arrs_restr]
      cases Nat.eqOrLtOfLe hle with
      | inl e =>
        -- the cut arrival: its instance completed, so every member is past its cut
        have hactW := (hc t htS).1
        rw [← e, hact'] at hactW
        have hbW : b = W := arr_b hactW
        rw [hbW] at hnp
        rw [hbW] at hact'
        have hw := only_arrs1 act hM h0
        have h0m : 0 < m W := by rw [← hm]; exact len_pos htS
        have r := all_ge hm hS h0m hw (once_wait act m hW hM hm hS h0 hv.1) htS hnp
        have hsep : ∀ u, Mem u SW → c u < cnt u h0 := by
          intro u hu
          have r1 := r u hu
          rw [cnt_arrs act W t h0, hcj, ac_arr hact', e, (hc t htS).2, ← (hc u hu).2,
            cnt_arrs act W u h0] at r1
          exact idx_lt r1
        have hcnt := pre_counts act b c hall hEc hsep
        have hl0 : left (m b) (fun _ => 0) [] (arrsF act b (preF c) h0) = [] :=
          left_nil_of_cnt hcnt _ _ (hE b)
        rw [hl0]
        exact fun hp => match hp with | ⟨_, ha, _⟩ => ha
      | inr hl =>
        -- before the cut: nobody is past its cut yet
        have hpost : arrsF act b (postF c) h0 = [] := by
          cases hq : arrsF act b (postF c) h0 with
          | nil => rfl
          | cons u r =>
            have hu : Mem u (arrsF act b (postF c) h0) := by rw [hq]; exact Or.inl rfl
            match post_done act b c h0 hu with
            | ⟨hl', ⟨i, wt, ha⟩⟩ =>
              have hsep := sep_wait act m hW hM hm hS hc h0 hv.1 (hall u i b wt ha) hl' t htS
              rw [hcj] at hsep
              exact False.elim (Nat.notSuccLeSelf _ (Nat.leTrans hsep hl))
        rw [split act m hW hM hm hS hc hall b h0 hv.1, hpost, app_nil] at hnp
        exact hnp

/-- **The segment up to the cut is `Once`** in every valid history, under its member sets `S1`
and its check (3). -/
theorem pre_once (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {E : List Nat}
    (hE : ∀ b, left (m b) (fun _ => 0) [] (arrsF act b (preF c) E) = [])
    (hEc : ∀ u, Mem u SW → c u < cnt u E) (S1 : Nat → List Nat)
    (hM1 : Memb (restr act (preF c)) S1) (hSz1 : Sized m S1)
    (h31 : Check3 (restr act (preF c))) (h : List Nat) (hv : Valid act m h) (b : Nat) :
    Once (m b) (arrsF act b (preF c) h) := by
  rw [← arrs_restr]
  exact once_all _ m S1 hM1 hSz1 h31 h (valid_pre act m hW hM hm hS hc hall hE hEc h hv) b

/-- **And matched alike in every schedule.** -/
theorem pre_matching (act : Nat → Nat → Ev) (m : Nat → Nat) {W k : Nat} {SW : List Nat}
    (hW : ∀ t i wt, act t i = Ev.arr W wt → wt = true)
    (hM : ∀ t i wt, act t i = Ev.arr W wt → Mem t SW) (hm : len SW = m W) (hS : Nodup SW)
    {c : Nat → Nat} (hc : ∀ u, Mem u SW → act u (c u) = Ev.arr W true ∧ ac act W u (c u) = k)
    (hall : ∀ u i b' wt, act u i = Ev.arr b' wt → Mem u SW) {E : List Nat}
    (hE : ∀ b, left (m b) (fun _ => 0) [] (arrsF act b (preF c) E) = [])
    (hEc : ∀ u, Mem u SW → c u < cnt u E) (S1 : Nat → List Nat)
    (hM1 : Memb (restr act (preF c)) S1) (hSz1 : Sized m S1)
    (h31 : Check3 (restr act (preF c))) (h : List Nat) (hv : Valid act m h) (b : Nat) :
    ∀ j I, nthL (insts (m b) (arrsF act b (preF c) h)) j = some I →
      ∀ a, (Mem a I ↔ Mem a.1 (S1 b) ∧ a.2 = j) := by
  rw [← arrs_restr]
  exact matching_all _ m S1 hM1 hSz1 h31 h (valid_pre act m hW hM hm hS hc hall hE hEc h hv) b

/-! ## Not vacuous: a producer and a consumer with `bar.arrive`

Thread 0 (producer): `bar.arrive 1, 2; bar.sync 2, 2; bar.arrive 1, 2; bar.sync 2, 2`; thread 1
(consumer): `bar.sync 1, 2; bar.arrive 2, 2; bar.sync 1, 2; bar.arrive 2, 2` (the pattern of
`pipeline/pc_sum`).  Check (3) holds through the other id: the producer's second arrival at 1
comes after its wait at 2, which the consumer's arrival at 2 after its wait at 1 completes. -/

def pcAct : Nat → Nat → Ev
  | 0, 0 => Ev.arr 1 false
  | 0, 1 => Ev.arr 2 true
  | 0, 2 => Ev.arr 1 false
  | 0, 3 => Ev.arr 2 true
  | 1, 0 => Ev.arr 1 true
  | 1, 1 => Ev.arr 2 false
  | 1, 2 => Ev.arr 1 true
  | 1, 3 => Ev.arr 2 false
  | _, _ => Ev.loc

theorem two_ne_one : ¬ (2 : Nat) = 1 := fun h => Nat.noConfusion h (fun h' => Nat.noConfusion h')

theorem one_ne_two : ¬ (1 : Nat) = 2 := fun h => two_ne_one h.symm

theorem pc_check3 : Check3 pcAct := by
  intro t i i' b wt' h1 h2 hlt hac
  cases t with
  | zero =>
    cases i with
    | zero =>
      have hb : 1 = b := arr_b h1
      rw [← hb] at h2
      rw [← hb]
      cases i' with
      | zero => exact False.elim (Nat.ltIrrefl 0 hlt)
      | succ i' =>
        cases i' with
        | zero => exact False.elim (two_ne_one (arr_b h2))
        | succ i' =>
          cases i' with
          | zero =>
            exact ⟨1, 0, rfl, rfl, HB.edge (Edge.bar 1 1 0 1 2 false rfl rfl rfl)⟩
          | succ i' =>
            cases i' with
            | zero => exact False.elim (two_ne_one (arr_b h2))
            | succ i' => exact Ev.noConfusion h2
    | succ i =>
      cases i with
      | zero => exact Bool.noConfusion (arr_w h1)
      | succ i =>
        cases i with
        | zero =>
          have hb : 1 = b := arr_b h1
          rw [← hb] at h2
          cases i' with
          | zero => exact False.elim (Nat.notLtZero _ hlt)
          | succ i' =>
            cases i' with
            | zero => exact False.elim (Nat.notSuccLeSelf _ (Nat.leOfLtSucc hlt))
            | succ i' =>
              cases i' with
              | zero => exact False.elim (Nat.ltIrrefl 2 hlt)
              | succ i' =>
                cases i' with
                | zero => exact False.elim (two_ne_one (arr_b h2))
                | succ i' => exact Ev.noConfusion h2
        | succ i =>
          cases i with
          | zero => exact Bool.noConfusion (arr_w h1)
          | succ i => exact Ev.noConfusion h1
  | succ t =>
    cases t with
    | zero =>
      cases i with
      | zero => exact Bool.noConfusion (arr_w h1)
      | succ i =>
        cases i with
        | zero =>
          have hb : 2 = b := arr_b h1
          rw [← hb] at h2
          rw [← hb]
          cases i' with
          | zero => exact False.elim (Nat.notLtZero _ hlt)
          | succ i' =>
            cases i' with
            | zero => exact False.elim (Nat.ltIrrefl 1 hlt)
            | succ i' =>
              cases i' with
              | zero => exact False.elim (one_ne_two (arr_b h2))
              | succ i' =>
                cases i' with
                | zero =>
                  exact ⟨0, 1, rfl, rfl, HB.edge (Edge.bar 0 2 1 2 1 false rfl rfl rfl)⟩
                | succ i' => exact Ev.noConfusion h2
        | succ i =>
          cases i with
          | zero => exact Bool.noConfusion (arr_w h1)
          | succ i =>
            cases i with
            | zero =>
              have hb : 2 = b := arr_b h1
              rw [← hb] at h2
              cases i' with
              | zero => exact False.elim (Nat.notLtZero _ hlt)
              | succ i' =>
                cases i' with
                | zero => exact False.elim (Nat.notLtZero _ (Nat.leOfSuccLeSucc hlt))
                | succ i' =>
                  cases i' with
                  | zero => exact False.elim (Nat.notSuccLeSelf _ (Nat.leOfSuccLeSucc (Nat.leOfLtSucc hlt)))
                  | succ i' =>
                    cases i' with
                    | zero => exact False.elim (Nat.ltIrrefl 3 hlt)
                    | succ i' => exact Ev.noConfusion h2
            | succ i => exact Ev.noConfusion h1
    | succ t => exact Ev.noConfusion h1

theorem pc_memb : Memb pcAct (fun _ => [0, 1]) := by
  intro t i b wt h
  cases t with
  | zero => exact Or.inl rfl
  | succ t =>
    cases t with
    | zero => exact Or.inr (Or.inl rfl)
    | succ t => exact Ev.noConfusion h

theorem pc_sized : Sized (fun _ => 2) (fun _ => [0, 1]) := by
  intro b
  refine ⟨rfl, ?_, ?_, trivial⟩
  · intro h
    cases h with
    | inl e => exact Nat.noConfusion e
    | inr h => exact h
  · exact fun h => h

/-- So every schedule of the producer and the consumer is `Once` at every id. -/
theorem pc_once (h : List Nat) (hv : Valid pcAct (fun _ => 2) h) : OnceAll pcAct (fun _ => 2) h :=
  once_all pcAct (fun _ => 2) (fun _ => [0, 1]) pc_memb pc_sized pc_check3 h hv

/-! ## Finding: the clearing of the members record at a whole-CTA barrier with `bar.arrive`

`resolve_barriers` clears `cta.members` when an instance holding every thread of the CTA
completes with nothing else pending, on the grounds that later instances cannot mix with
earlier ones.  That holds when every thread *waits* at that instance; a thread that reaches it
with `bar.arrive` goes on at once, so in another schedule its later arrivals can come before
the earlier instances complete.  The executor does not see it when the arrive-only thread is
blocked, at the clearing, at a lower barrier id that completes in the same `resolve_barriers`
call.

Four threads (for four warps; counts 2 for 64, 4 for 128): X = 0, Q = 1, R = 2, P = 3.
* X: `bar.arrive 5, 4; bar.sync 3, 2; bar.sync 0, 2; ld [a]`
* Q: `bar.arrive 0, 2; bar.arrive 6, 2; bar.sync 5, 4`
* R: `st [a]; bar.sync 5, 4; bar.sync 0, 2`
* P: `bar.sync 6, 2; bar.arrive 3, 2; bar.arrive 0, 2; bar.sync 5, 4`

The executor: round 1 (X arrives at 5 and waits at 3; Q arrives at 0 and 6 and waits at 5;
R stores and waits at 5; P waits at 6), id 6 completes; round 2 (P arrives at 3 and 0 and waits
at 5), ids 0 (Q, P), 3 (X, P) and 5 (all four) complete in one call, in this order, the last
with nothing pending: the record is cleared; round 3 (X and R wait at 0), id 0 completes with
X and R, a fresh record.  No check fires (`clearExec_members`; no thread arrives twice at an id,
so check (3) is never consulted: `clearExec_once`), and X's load is ordered after R's store
(`clearExec_check`).  Another schedule: X arrives at 5 and 3; Q at 0 and 6; P at 6 (completes)
and 3 (completes; X goes on); X at 0 completes id 0 with Q and loads; then P, Q, R, and R's
store comes after X's load: a race (`clearAlt_check`), and id 0 matches X with Q
(`clear_differs`).  With the clearing restricted to instances where every thread waits, the
members check reports the executor's run (`clearExec_fixed`).
-/

/-- Thread `t` has an arrival pending (decidable form). -/
def pendB (t : Nat) : List Arr → Bool
  | [] => false
  | a :: p => decide (a.1 = t) || pendB t p

theorem pendB_of_pending {t : Nat} : ∀ (p : List Arr), Pending t p → pendB t p = true
  | [], h => match h with | ⟨_, ha, _⟩ => False.elim ha
  | a :: p, h => by
    match h with
    | ⟨x, hx, e⟩ =>
      cases hx with
      | inl e' =>
        show (decide (a.1 = t) || pendB t p) = true
        rw [decide_eq_true' (show a.1 = t by rw [e']; exact e)]
        rfl
      | inr hx' =>
        show (decide (a.1 = t) || pendB t p) = true
        rw [pendB_of_pending p ⟨x, hx', e⟩]
        cases decide (a.1 = t) <;> rfl

/-- The step condition of `Valid` for the action before the step. -/
def okA (act : Nat → Nat → Ev) (m : Nat → Nat) (t : Nat) (h : List Nat) : Ev → Bool
  | Ev.arr b true => !pendB t (left (m b) (fun _ => 0) [] (arrs act b h))
  | Ev.arr _ false => true
  | Ev.loc => true

def okB (act : Nat → Nat → Ev) (m : Nat → Nat) (t : Nat) (h : List Nat) : Nat → Bool
  | 0 => true
  | j + 1 => okA act m t h (act t j)

/-- `Valid`, decided. -/
def validB (act : Nat → Nat → Ev) (m : Nat → Nat) : List Nat → Bool
  | [] => true
  | t :: h => validB act m h && okB act m t h (cnt t h)

theorem valid_of_validB (act : Nat → Nat → Ev) (m : Nat → Nat) :
    ∀ (h : List Nat), validB act m h = true → Valid act m h
  | [], _ => trivial
  | t :: h, hv => by
    have h1 : validB act m h = true := and_left' hv
    have h2 : okB act m t h (cnt t h) = true := and_right' hv
    refine ⟨valid_of_validB act m h h1, ?_⟩
    intro j b hc ha hp
    rw [hc] at h2
    have h3 : okA act m t h (act t j) = true := h2
    rw [ha] at h3
    have h4 : (!pendB t (left (m b) (fun _ => 0) [] (arrs act b h))) = true := h3
    rw [pendB_of_pending _ hp] at h4
    exact Bool.noConfusion h4

/-- The four threads' actions (`loc`: the store, the load, exits). -/
def clearAct : Nat → Nat → Ev
  | 0, 0 => Ev.arr 5 false
  | 0, 1 => Ev.arr 3 true
  | 0, 2 => Ev.arr 0 true
  | 1, 0 => Ev.arr 0 false
  | 1, 1 => Ev.arr 6 false
  | 1, 2 => Ev.arr 5 true
  | 2, 1 => Ev.arr 5 true
  | 2, 2 => Ev.arr 0 true
  | 3, 0 => Ev.arr 6 true
  | 3, 1 => Ev.arr 3 false
  | 3, 2 => Ev.arr 0 false
  | 3, 3 => Ev.arr 5 true
  | _, _ => Ev.loc

/-- Counts: 4 (the whole CTA) at id 5, 2 elsewhere. -/
def clearM (b : Nat) : Nat := if b = 5 then 4 else 2

/-- The executor's order (latest step first): X X Q Q Q R R P, then P P P, then X R, then X. -/
def clearE : List Nat := [0, 2, 0, 3, 3, 3, 3, 2, 2, 1, 1, 1, 0, 0]

/-- The other schedule (latest first): X X Q Q P P X X P Q P R R R. -/
def clearW : List Nat := [2, 2, 2, 3, 1, 3, 0, 0, 3, 3, 1, 1, 0, 0]

theorem clearE_valid : Valid clearAct clearM clearE := valid_of_validB _ _ _ rfl

theorem clearW_valid : Valid clearAct clearM clearW := valid_of_validB _ _ _ rfl

/-- Both schedules run every thread's whole sequence: the same per-thread actions. -/
theorem clear_same (t : Nat) : cnt t clearW = cnt t clearE := by
  cases t with
  | zero => rfl
  | succ t =>
    cases t with
    | zero => rfl
    | succ t =>
      cases t with
      | zero => rfl
      | succ t =>
        cases t with
        | zero => rfl
        | succ t =>
          show (if 2 = t + 4 then _ else _) = (if 0 = t + 4 then _ else _)
          exact rfl

theorem clearE_arrs : arrs clearAct 0 clearE = [1, 3, 0, 2] := rfl

theorem clearW_arrs : arrs clearAct 0 clearW = [1, 0, 3, 2] := rfl

/-- The executor matches Q with P, then X with R, at id 0; the other schedule Q with X, then
P with R. -/
theorem clearE_insts : insts 2 (arrs clearAct 0 clearE) = [[(3, 0), (1, 0)], [(2, 0), (0, 0)]] :=
  rfl

theorem clearW_insts : insts 2 (arrs clearAct 0 clearW) = [[(0, 0), (1, 0)], [(2, 0), (3, 0)]] :=
  rfl

/-- So the matching at id 0 depends on the schedule. -/
theorem clear_differs :
    ¬ (∀ I1 I2, nthL (insts 2 (arrs clearAct 0 clearE)) 0 = some I1 →
      nthL (insts 2 (arrs clearAct 0 clearW)) 0 = some I2 → ∀ a, (Mem a I1 ↔ Mem a I2)) := by
  intro h
  have r : Mem ((3 : Nat), (0 : Nat)) [((0 : Nat), (0 : Nat)), (1, 0)] :=
    (h [(3, 0), (1, 0)] [(0, 0), (1, 0)] rfl rfl (3, 0)).1 (Or.inl rfl)
  cases r with
  | inl e =>
    have e' : (0 : Nat) = 3 := congrArg Prod.fst e
    exact Nat.noConfusion e'
  | inr r =>
    cases r with
    | inl e =>
      have e' : (1 : Nat) = 3 := congrArg Prod.fst e
      exact Nat.noConfusion e' (fun e'' => Nat.noConfusion e'')
    | inr r => exact r

/-! ### The Rust's members checks over an executor history (`EventN`, lazy completions) -/

/-- Decidable membership. -/
def memB (x : Nat) : List Nat → Bool
  | [] => false
  | y :: l => decide (y = x) || memB x l

def allB (p : Nat → Bool) : List Nat → Bool
  | [] => true
  | x :: l => p x && allB p l

def nodupB : List Nat → Bool
  | [] => true
  | x :: l => !memB x l && nodupB l

/-- The Rust's `*members != who` on sorted lists, as sets with lengths. -/
def sameB (r d : List Nat) : Bool :=
  allB (fun x => memB x r) d && allB (fun x => memB x d) r && decide (len r = len d)

def fstsA : List (Nat × Bool) → List Nat
  | [] => []
  | a :: l => a.1 :: fstsA l

def allWait : List (Nat × Bool) → Bool
  | [] => true
  | a :: l => a.2 && allWait l

def isNilB : List (Nat × Bool) → Bool
  | [] => true
  | _ :: _ => false

/-- Pending arrivals per id (thread, waits), the record per id, the ids seen, and whether a
members finding was reported. -/
structure MState where
  pend : Nat → List (Nat × Bool)
  rcd : Nat → Option (List Nat)
  ids : List Nat
  bad : Bool

/-- The record after an instance `who` of `b`, and whether check (2) fires. -/
def recStep (r : Nat → Option (List Nat)) (b : Nat) (who : List Nat) :
    (Nat → Option (List Nat)) × Bool :=
  match r b with
  | none => (Sem.upd r b (some who), !nodupB who)
  | some rb => (r, !(sameB rb who && nodupB who))

/-- `resolve_barriers`' checks (1) (more pending than the count) and (2) (other threads than
the record, or one twice) at one event; the record is cleared when the instance holds `N`
threads and nothing is pending (and, with `fix`, every arrival of the instance waits). -/
def mstep (fix : Bool) (N : Nat) (s : MState) : Race.EventN Nat → MState
  | Race.EventN.act _ _ => s
  | Race.EventN.bar t b w =>
    ⟨Sem.upd s.pend b (Race.snocL (s.pend b) (t, w)), s.rcd, b :: s.ids, s.bad⟩
  | Race.EventN.complete b m =>
    let done := Race.takeL m (s.pend b)
    let pend' := Sem.upd s.pend b (Race.dropL m (s.pend b))
    let rs := recStep s.rcd b (fstsA done)
    let clr := decide (len (fstsA done) = N) && allB (fun i => isNilB (pend' i)) s.ids &&
      (!fix || allWait done)
    ⟨pend', if clr = true then (fun _ => none) else rs.1, s.ids,
      s.bad || decide (m < len (fstsA (s.pend b))) || rs.2⟩

def mrun (fix : Bool) (N : Nat) : List (Race.EventN Nat) → MState
  | [] => ⟨fun _ => [], fun _ => none, [], false⟩
  | e :: h => mstep fix N (mrun fix N h) e

open Sem (Act) in
/-- The executor's history (latest event first), with its lazy completions. -/
def clearExec : List (Race.EventN Nat) :=
  [Race.EventN.act 0 (Act.read 0 0 0),
   Race.EventN.complete 0 2, Race.EventN.bar 2 0 true, Race.EventN.bar 0 0 true,
   Race.EventN.complete 5 4, Race.EventN.complete 3 2, Race.EventN.complete 0 2,
   Race.EventN.bar 3 5 true, Race.EventN.bar 3 0 false, Race.EventN.bar 3 3 false,
   Race.EventN.complete 6 2,
   Race.EventN.bar 3 6 true, Race.EventN.bar 2 5 true, Race.EventN.act 2 (Act.write 0 5 0),
   Race.EventN.bar 1 5 true, Race.EventN.bar 1 6 false, Race.EventN.bar 1 0 false,
   Race.EventN.bar 0 3 true, Race.EventN.bar 0 5 false]

open Sem (Act) in
/-- The other schedule's history (the order of `clearW`, completions where they happen). -/
def clearAlt : List (Race.EventN Nat) :=
  [Race.EventN.complete 0 2, Race.EventN.bar 2 0 true,
   Race.EventN.complete 5 4, Race.EventN.bar 2 5 true, Race.EventN.act 2 (Act.write 0 5 0),
   Race.EventN.bar 3 5 true, Race.EventN.bar 1 5 true, Race.EventN.bar 3 0 false,
   Race.EventN.act 0 (Act.read 0 0 0), Race.EventN.complete 0 2, Race.EventN.bar 0 0 true,
   Race.EventN.complete 3 2, Race.EventN.bar 3 3 false,
   Race.EventN.complete 6 2, Race.EventN.bar 3 6 true,
   Race.EventN.bar 1 6 false, Race.EventN.bar 1 0 false,
   Race.EventN.bar 0 3 true, Race.EventN.bar 0 5 false]

/-- The executor's run passes the members checks (the record is cleared at id 5). -/
theorem clearExec_members : (mrun false 4 clearExec).bad = false := rfl

/-- Thread `t` arrives at `b` somewhere in the history. -/
def seenB (t b : Nat) : List (Race.EventN Nat) → Bool
  | [] => false
  | Race.EventN.bar t' b' _ :: h => (decide (t' = t) && decide (b' = b)) || seenB t b h
  | _ :: h => seenB t b h

/-- No thread arrives twice at one id. -/
def noRepeat : List (Race.EventN Nat) → Bool
  | [] => true
  | Race.EventN.bar t b _ :: h => !seenB t b h && noRepeat h
  | _ :: h => noRepeat h

/-- No thread arrives twice at one id, so check (3) (`cta.completed`) is never consulted. -/
theorem clearExec_once : noRepeat clearExec = true := rfl

/-- The race check reports nothing over the executor's history. -/
theorem clearExec_check : Race.checkN Race.noSameN 4 clearExec = false := rfl

/-- Over the other schedule's history it reports the load and the store. -/
theorem clearAlt_check : Race.checkN Race.noSameN 4 clearAlt = true := rfl

/-- Clearing only when every arrival of the whole-CTA instance waits: the members check
reports the executor's run. -/
theorem clearExec_fixed : (mrun true 4 clearExec).bad = true := rfl

/-- For instance the schedule producer, consumer, consumer, producer, producer, consumer,
consumer, producer (earliest first), a valid schedule of `pcAct` (`pc_once` applies). -/
theorem pc_valid : Valid pcAct (fun _ => 2) [0, 1, 1, 0, 0, 1, 1, 0] := valid_of_validB _ _ _ rfl

/-! ## Not vacuous: two segments with different member sets

Four threads: threads 0 and 1 `bar.sync 1, 2` then `bar.sync 0, 4`; threads 2 and 3
`bar.sync 0, 4` then `bar.sync 1, 2`.  Id 1 joins {0, 1} before the whole-CTA barrier 0 and
{2, 3} after it: one member set per id does not hold, the segment theorems apply. -/

def segAct : Nat → Nat → Ev
  | 0, 0 => Ev.arr 1 true
  | 0, 1 => Ev.arr 0 true
  | 1, 0 => Ev.arr 1 true
  | 1, 1 => Ev.arr 0 true
  | 2, 0 => Ev.arr 0 true
  | 2, 1 => Ev.arr 1 true
  | 3, 0 => Ev.arr 0 true
  | 3, 1 => Ev.arr 1 true
  | _, _ => Ev.loc

def segM (b : Nat) : Nat := if b = 0 then 4 else 2

/-- The cut: each thread's arrival at barrier 0. -/
def segC : Nat → Nat
  | 0 => 1
  | 1 => 1
  | _ => 0

def segS1 (b : Nat) : List Nat := if b = 0 then [0, 1, 2, 3] else [0, 1]

def segS2 (b : Nat) : List Nat := if b = 0 then [0, 1, 2, 3] else [2, 3]

/-- A schedule of the executor's kind: 0, 1 at id 1; all four at id 0; 2, 3 at id 1 (latest
first). -/
def segE : List Nat := [3, 2, 3, 2, 1, 0, 1, 0]

theorem memB_of_mem {x : Nat} : ∀ (l : List Nat), Mem x l → memB x l = true
  | [], h => False.elim h
  | y :: l, h => by
    show (decide (y = x) || memB x l) = true
    cases h with
    | inl e => rw [decide_eq_true' e]; rfl
    | inr h' => rw [memB_of_mem l h']; cases decide (y = x) <;> rfl

theorem nodup_of_nodupB : ∀ (l : List Nat), nodupB l = true → Nodup l
  | [], _ => trivial
  | x :: l, h => by
    have h1 : (!memB x l) = true := and_left' h
    have h2 : nodupB l = true := and_right' h
    refine ⟨?_, nodup_of_nodupB l h2⟩
    intro hm
    rw [memB_of_mem l hm] at h1
    exact Bool.noConfusion h1

/-- Every arrival of `segAct` is by threads 0-3 and waits. -/
theorem seg_arr {t i b : Nat} {wt : Bool} (h : segAct t i = Ev.arr b wt) :
    Mem t [0, 1, 2, 3] ∧ wt = true := by
  cases t with
  | zero =>
    cases i with
    | zero => exact ⟨Or.inl rfl, (arr_w h).symm⟩
    | succ i =>
      cases i with
      | zero => exact ⟨Or.inl rfl, (arr_w h).symm⟩
      | succ i => exact Ev.noConfusion h
  | succ t =>
    cases t with
    | zero =>
      cases i with
      | zero => exact ⟨Or.inr (Or.inl rfl), (arr_w h).symm⟩
      | succ i =>
        cases i with
        | zero => exact ⟨Or.inr (Or.inl rfl), (arr_w h).symm⟩
        | succ i => exact Ev.noConfusion h
    | succ t =>
      cases t with
      | zero =>
        cases i with
        | zero => exact ⟨Or.inr (Or.inr (Or.inl rfl)), (arr_w h).symm⟩
        | succ i =>
          cases i with
          | zero => exact ⟨Or.inr (Or.inr (Or.inl rfl)), (arr_w h).symm⟩
          | succ i => exact Ev.noConfusion h
      | succ t =>
        cases t with
        | zero =>
          cases i with
          | zero => exact ⟨Or.inr (Or.inr (Or.inr (Or.inl rfl))), (arr_w h).symm⟩
          | succ i =>
            cases i with
            | zero => exact ⟨Or.inr (Or.inr (Or.inr (Or.inl rfl))), (arr_w h).symm⟩
            | succ i => exact Ev.noConfusion h
        | succ t => exact Ev.noConfusion h

/-- Without `bar.arrive`, check (3) holds for every restriction. -/
theorem check3_restr {act : Nat → Nat → Ev} (hs : ∀ t i b wt, act t i = Ev.arr b wt → wt = true)
    (f : Nat → Nat → Bool) : Check3 (restr act f) :=
  check3_sync _ (fun t i b h => Bool.noConfusion (hs t i b false (restr_arr h).2))

theorem seg_nodup4 : Nodup [0, 1, 2, 3] := nodup_of_nodupB _ rfl

theorem seg_sized1 : Sized segM segS1 := by
  intro b
  cases Nat.decEq b 0 with
  | isTrue e =>
    show len (if b = 0 then [0, 1, 2, 3] else [0, 1]) = (if b = 0 then 4 else 2) ∧
      Nodup (if b = 0 then [0, 1, 2, 3] else [0, 1])
    rw [if_pos' e, if_pos' e]
    exact ⟨rfl, seg_nodup4⟩
  | isFalse e =>
    show len (if b = 0 then [0, 1, 2, 3] else [0, 1]) = (if b = 0 then 4 else 2) ∧
      Nodup (if b = 0 then [0, 1, 2, 3] else [0, 1])
    rw [if_neg' e, if_neg' e]
    exact ⟨rfl, nodup_of_nodupB _ rfl⟩

theorem seg_sized2 : Sized segM segS2 := by
  intro b
  cases Nat.decEq b 0 with
  | isTrue e =>
    show len (if b = 0 then [0, 1, 2, 3] else [2, 3]) = (if b = 0 then 4 else 2) ∧
      Nodup (if b = 0 then [0, 1, 2, 3] else [2, 3])
    rw [if_pos' e, if_pos' e]
    exact ⟨rfl, seg_nodup4⟩
  | isFalse e =>
    show len (if b = 0 then [0, 1, 2, 3] else [2, 3]) = (if b = 0 then 4 else 2) ∧
      Nodup (if b = 0 then [0, 1, 2, 3] else [2, 3])
    rw [if_neg' e, if_neg' e]
    exact ⟨rfl, nodup_of_nodupB _ rfl⟩

theorem seg_memb1 : Memb (restr segAct (preF segC)) segS1 := by
  intro t i b wt h
  match restr_arr h with
  | ⟨hf, ha⟩ =>
    cases Nat.decEq b 0 with
    | isTrue e =>
      show Mem t (if b = 0 then [0, 1, 2, 3] else [0, 1])
      rw [if_pos' e]
      exact (seg_arr ha).1
    | isFalse e =>
      show Mem t (if b = 0 then [0, 1, 2, 3] else [0, 1])
      rw [if_neg' e]
      have hle : i ≤ segC t := of_decide_eq_true' hf
      cases t with
      | zero => exact Or.inl rfl
      | succ t =>
        cases t with
        | zero => exact Or.inr (Or.inl rfl)
        | succ t =>
          -- threads 2 and 3 (cut 0): their action 0 is the arrival at 0
          have hi : i = 0 := Nat.leAntisymm hle (Nat.zeroLe i)
          rw [hi] at ha
          cases t with
          | zero => exact False.elim (e (arr_b ha).symm)
          | succ t =>
            cases t with
            | zero => exact False.elim (e (arr_b ha).symm)
            | succ t => exact Ev.noConfusion ha

theorem seg_memb2 : Memb (restr segAct (postF segC)) segS2 := by
  intro t i b wt h
  match restr_arr h with
  | ⟨hf, ha⟩ =>
    cases Nat.decEq b 0 with
    | isTrue e =>
      show Mem t (if b = 0 then [0, 1, 2, 3] else [2, 3])
      rw [if_pos' e]
      exact (seg_arr ha).1
    | isFalse e =>
      show Mem t (if b = 0 then [0, 1, 2, 3] else [2, 3])
      rw [if_neg' e]
      have hn : ¬ i ≤ segC t := by
        intro hle
        have hf' : (!decide (i ≤ segC t)) = true := hf
        rw [decide_eq_true' hle] at hf'
        exact Bool.noConfusion hf'
      cases t with
      | zero =>
        -- thread 0 (cut 1): an action after 1 is `loc`
        cases i with
        | zero => exact False.elim (hn (Nat.zeroLe _))
        | succ i =>
          cases i with
          | zero => exact False.elim (hn (Nat.leRefl _))
          | succ i => exact Ev.noConfusion ha
      | succ t =>
        cases t with
        | zero =>
          cases i with
          | zero => exact False.elim (hn (Nat.zeroLe _))
          | succ i =>
            cases i with
            | zero => exact False.elim (hn (Nat.leRefl _))
            | succ i => exact Ev.noConfusion ha
        | succ t =>
          cases t with
          | zero => exact Or.inl rfl
          | succ t =>
            cases t with
            | zero => exact Or.inr (Or.inl rfl)
            | succ t => exact Ev.noConfusion ha

theorem segE_left : ∀ b, left (segM b) (fun _ => 0) [] (arrsF segAct b (preF segC) segE) = [] := by
  intro b
  cases b with
  | zero => rfl
  | succ b =>
    cases b with
    | zero => rfl
    | succ b => rfl

theorem segE_past : ∀ u, Mem u [0, 1, 2, 3] → segC u < cnt u segE := by
  intro u hu
  cases hu with
  | inl e => rw [← e]; exact of_decide_eq_true' rfl
  | inr hu =>
    cases hu with
    | inl e => rw [← e]; exact of_decide_eq_true' rfl
    | inr hu =>
      cases hu with
      | inl e => rw [← e]; exact of_decide_eq_true' rfl
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; exact of_decide_eq_true' rfl
        | inr hu => exact False.elim hu

theorem seg_cut : ∀ u, Mem u [0, 1, 2, 3] →
    segAct u (segC u) = Ev.arr 0 true ∧ ac segAct 0 u (segC u) = 0 := by
  intro u hu
  cases hu with
  | inl e => rw [← e]; exact ⟨rfl, rfl⟩
  | inr hu =>
    cases hu with
    | inl e => rw [← e]; exact ⟨rfl, rfl⟩
    | inr hu =>
      cases hu with
      | inl e => rw [← e]; exact ⟨rfl, rfl⟩
      | inr hu =>
        cases hu with
        | inl e => rw [← e]; exact ⟨rfl, rfl⟩
        | inr hu => exact False.elim hu

theorem segE_valid : Valid segAct segM segE := valid_of_validB _ _ _ rfl

/-- **In every schedule, id 1 joins threads 0 and 1 before the whole-CTA barrier** ... -/
theorem seg_pre (h : List Nat) (hv : Valid segAct segM h) :
    ∀ j I, nthL (insts (segM 1) (arrsF segAct 1 (preF segC) h)) j = some I →
      ∀ a, (Mem a I ↔ Mem a.1 (segS1 1) ∧ a.2 = j) :=
  pre_matching segAct segM (W := 0) (k := 0) (SW := [0, 1, 2, 3])
    (fun t i wt ha => (seg_arr ha).2) (fun t i wt ha => (seg_arr ha).1) rfl seg_nodup4
    seg_cut (fun u i b wt ha => (seg_arr ha).1) segE_left segE_past segS1 seg_memb1 seg_sized1
    (check3_restr (fun t i b wt ha => (seg_arr ha).2) _) h hv 1

/-- ... **and threads 2 and 3 after it.** -/
theorem seg_post (h : List Nat) (hv : Valid segAct segM h) :
    ∀ j I, nthL (insts (segM 1) (arrsF segAct 1 (postF segC) h)) j = some I →
      ∀ a, (Mem a I ↔ Mem a.1 (segS2 1) ∧ a.2 = j) :=
  post_matching segAct segM (W := 0) (k := 0) (SW := [0, 1, 2, 3])
    (fun t i wt ha => (seg_arr ha).2) (fun t i wt ha => (seg_arr ha).1) rfl seg_nodup4
    seg_cut (fun u i b wt ha => (seg_arr ha).1) segE_left segE_past segS2 seg_memb2 seg_sized2
    (check3_restr (fun t i b wt ha => (seg_arr ha).2) _) h hv 1

end Members
end Kcert
