import Kcert.Named

/-!
# Which arrivals form an instance of one named barrier

An abstract model of one barrier id, at the level of schedules (not of `Named.lean`'s
histories, not of `Sem`).  A schedule is the global order `w : List Nat` in which threads arrive
at the id; each thread's arrivals appear in it in program order, so the `j`-th occurrence of
`t` in `w` is `t`'s `j`-th arrival, the arrival `(t, j)` (`Arr`, counting from 0).  Two
schedules have *the same per-thread arrivals* when every thread arrives equally often in both
(`cnt t w = cnt t w'` for every `t`): each thread's arrivals are then the same list
`(t, 0), (t, 1), ...`, and only their interleaving differs.

Completion (`go`, `insts`): arrivals are appended to the pending ones in the order of `w`, and
as soon as `m` (the count) are pending they form an instance and are drained, so the
instances are the consecutive chunks of `m` arrivals (a last chunk of fewer than `m` never
completes).  `insts m w` lists the instances in order, each as its arrivals (latest first).

`Once m w` (the hypothesis the positive side needs): no thread arrives while an arrival of its
own is pending.  Every schedule satisfies it when every arrival at the id is a `bar.sync` (the
thread waits until its instance completes); with `bar.arrive` it can fail, and then the
conclusion can fail too (`twice_*`).

* `insts_spec`: if `|S| = m` (`len S = m`), only threads of `S` arrive and `Once m w`,
  then the `k`-th instance of `w` consists of exactly the arrivals `(t, k)`, `t ∈ S`.
* `matching_indep`: the same for every `w` with the same per-thread arrivals as a schedule
  `w0` in which only threads of `S` arrive (the executor's; the Rust's members check gives `S`
  and `|S| = m` from `w0`'s first instance).
* `same_matching`: two such schedules have the same arrivals in their `k`-th instances.
* `ninst_indep`: for `S` without duplicates, they also complete equally many instances
  (`go_len`, `insts_le`, `insts_eq`: as many as the fewest arrivals of a member), so every
  arrival is matched alike or left pending in both.
* `checked_matching`: the hypotheses on `w0` as the Rust checks them (`executor_only_S`,
  `go_cover`, `left`): every instance of `w0` holds only threads of `S`, `|S| = m`, and
  nothing is pending at the end.
* Not vacuous: `pairs_matching` (two threads, count 2, two rounds, another schedule).
* `S` needs no `Nodup` in the first three: `|S| = m` and `m` distinct threads of `S` in an
  instance (pigeonhole, `ph`) already give every member.
* Negative side: `ovExec`/`ovAlt` (the arrival orders at barrier 1 of `Race.overfullExec`
  and `Race.overfullAlt`: `ovExec_of`, `ovAlt_of`; 4 threads, count 2) have different first
  instances (`overfull_differs`); `twice_*`: without `Once` the matching differs too.
-/

namespace Kcert
namespace Members

/-! ## Lists -/

/-- Membership. -/
def Mem {α : Type} (x : α) : List α → Prop
  | [] => False
  | y :: l => y = x ∨ Mem x l

/-- Length, structural. -/
def len {α : Type} : List α → Nat
  | [] => 0
  | _ :: l => len l + 1

/-- No element twice. -/
def Nodup : List Nat → Prop
  | [] => True
  | x :: l => ¬ Mem x l ∧ Nodup l

/-- Remove the first occurrence of `x`. -/
def rm (x : Nat) : List Nat → List Nat
  | [] => []
  | y :: l => if y = x then l else y :: rm x l

/-- How often `t` occurs. -/
def cnt (t : Nat) : List Nat → Nat
  | [] => 0
  | u :: l => if u = t then cnt t l + 1 else cnt t l

/-- The `j`-th element. -/
def nthL {α : Type} : List α → Nat → Option α
  | [], _ => none
  | x :: _, 0 => some x
  | _ :: l, j + 1 => nthL l j

theorem rm_len (x : Nat) : ∀ (S : List Nat), Mem x S → len (rm x S) + 1 = len S
  | [], h => False.elim h
  | y :: l, h => by
    cases Nat.decEq y x with
    | isTrue e =>
      show len (if y = x then l else y :: rm x l) + 1 = len l + 1
      rw [if_pos' e]
    | isFalse e =>
      show len (if y = x then l else y :: rm x l) + 1 = len l + 1
      rw [if_neg' e]
      cases h with
      | inl h' => exact False.elim (e h')
      | inr h' =>
        show len (rm x l) + 1 + 1 = len l + 1
        rw [rm_len x l h']

theorem rm_mem {x z : Nat} (hzx : ¬ z = x) : ∀ (S : List Nat), Mem z S → Mem z (rm x S)
  | [], h => h
  | y :: l, h => by
    cases Nat.decEq y x with
    | isTrue e =>
      show Mem z (if y = x then l else y :: rm x l)
      rw [if_pos' e]
      cases h with
      | inl h' => rw [← h', e] at hzx; exact False.elim (hzx rfl)
      | inr h' => exact h'
    | isFalse e =>
      show Mem z (if y = x then l else y :: rm x l)
      rw [if_neg' e]
      cases h with
      | inl h' => exact Or.inl h'
      | inr h' => exact Or.inr (rm_mem hzx l h')

/-- Pigeonhole: a list without duplicates, inside `S` and at least as long as `S`, holds every
element of `S`. -/
theorem ph : ∀ (l S : List Nat), Nodup l → (∀ x, Mem x l → Mem x S) → len S ≤ len l →
    ∀ s, Mem s S → Mem s l
  | [], S, _, _, hle, s, hs => by
    cases S with
    | nil => exact hs
    | cons y S' => exact False.elim (Nat.notSuccLeZero _ hle)
  | x :: l, S, hnd, hsub, hle, s, hs => by
    have hx : Mem x S := hsub x (Or.inl rfl)
    have hlen : len (rm x S) + 1 = len S := rm_len x S hx
    have hsub' : ∀ y, Mem y l → Mem y (rm x S) := by
      intro y hy
      have hyx : ¬ y = x := by
        intro e
        rw [e] at hy
        exact hnd.1 hy
      exact rm_mem hyx S (hsub y (Or.inr hy))
    have hle' : len (rm x S) ≤ len l := by
      apply Nat.leOfSuccLeSucc
      show len (rm x S) + 1 ≤ len l + 1
      rw [hlen]
      exact hle
    cases Nat.decEq s x with
    | isTrue e => exact Or.inl e.symm
    | isFalse e => exact Or.inr (ph l (rm x S) hnd.2 hsub' hle' s (rm_mem e S hs))

/-! ## The model -/

/-- An arrival: the thread and the index of this arrival among the thread's arrivals at the id
(0 for its first). -/
abbrev Arr := Nat × Nat

/-- One more arrival of thread `t` counted. -/
def upd (c : Nat → Nat) (t : Nat) : Nat → Nat :=
  fun u => if u = t then c u + 1 else c u

/-- The completion rule over a schedule: `c` counts each thread's arrivals so far, `p` holds the
pending arrivals (latest first).  Thread `t`'s arrival is `(t, c t)`; when it brings the
pending arrivals to `m`, they form the next instance and are drained. -/
def go (m : Nat) : (Nat → Nat) → List Arr → List Nat → List (List Arr)
  | _, _, [] => []
  | c, p, t :: w =>
    if len ((t, c t) :: p) = m then ((t, c t) :: p) :: go m (upd c t) [] w
    else go m (upd c t) ((t, c t) :: p) w

/-- The instances of the barrier in the schedule `w`, in order. -/
def insts (m : Nat) (w : List Nat) : List (List Arr) := go m (fun _ => 0) [] w

/-- Thread `t` has an arrival pending. -/
def Pending (t : Nat) (p : List Arr) : Prop := ∃ a, Mem a p ∧ a.1 = t

/-- No thread arrives while it has an arrival pending (along the run of `go`). -/
def OnceG (m : Nat) : (Nat → Nat) → List Arr → List Nat → Prop
  | _, _, [] => True
  | c, p, t :: w => ¬ Pending t p ∧
    (if len ((t, c t) :: p) = m then OnceG m (upd c t) [] w
     else OnceG m (upd c t) ((t, c t) :: p) w)

/-- `OnceG` from the start: what `bar.sync` guarantees in every schedule. -/
def Once (m : Nat) (w : List Nat) : Prop := OnceG m (fun _ => 0) [] w

/-! ## The matching is the same in every schedule -/

/-- The arrivals `(t, k)` for `t` in `l`. -/
def mk (k : Nat) : List Nat → List Arr
  | [] => []
  | t :: l => (t, k) :: mk k l

theorem len_mk (k : Nat) : ∀ (l : List Nat), len (mk k l) = len l
  | [] => rfl
  | t :: l => by
    show len (mk k l) + 1 = len l + 1
    rw [len_mk k l]

theorem mem_mk_l {k : Nat} {a : Arr} : ∀ (l : List Nat), Mem a (mk k l) → Mem a.1 l ∧ a.2 = k
  | [], h => False.elim h
  | t :: l, h => by
    cases h with
    | inl e => rw [← e]; exact ⟨Or.inl rfl, rfl⟩
    | inr h' =>
      have r := mem_mk_l l h'
      exact ⟨Or.inr r.1, r.2⟩

theorem mem_mk_r {k x : Nat} : ∀ (l : List Nat), Mem x l → Mem (x, k) (mk k l)
  | [], h => False.elim h
  | t :: l, h => by
    cases h with
    | inl e => rw [← e]; exact Or.inl rfl
    | inr h' => exact Or.inr (mem_mk_r l h')

/-- The invariant of `go` before the `(k+1)`-th instance (counting from 1): the pending
arrivals are `(t, k)` for the distinct threads `t` of a list `l` inside `S`, and every member
of `S` has arrived `k + 1` times if pending, `k` times otherwise. -/
def Inv (S : List Nat) (k : Nat) (c : Nat → Nat) (p : List Arr) : Prop :=
  ∃ l, p = mk k l ∧ Nodup l ∧ (∀ s, Mem s l → Mem s S) ∧
    ∀ s, Mem s S → (Mem s l ∧ c s = k + 1) ∨ (¬ Mem s l ∧ c s = k)

theorem go_spec {S : List Nat} {m : Nat} (hm : len S = m) :
    ∀ (w : List Nat) (k : Nat) (c : Nat → Nat) (p : List Arr), Inv S k c p →
    (∀ t, Mem t w → Mem t S) → OnceG m c p w →
    ∀ j I, nthL (go m c p w) j = some I → ∀ a, (Mem a I ↔ Mem a.1 S ∧ a.2 = k + j)
  | [], k, c, p, _, _, _, j, I, hI, a => Option.noConfusion hI
  | t :: w, k, c, p, hinv, hw, ho, j, I, hI, a => by
    match hinv with
    | ⟨l, hp, hnd, hsub, hc⟩ =>
      subst hp
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
      have hgo : go m c (mk k l) (t :: w) =
          (if len ((t, c t) :: mk k l) = m then ((t, c t) :: mk k l) :: go m (upd c t) [] w
           else go m (upd c t) ((t, c t) :: mk k l) w) := rfl
      rw [hgo, hct] at hI
      have ho2 := ho'.2
      rw [hct] at ho2
      have hlen : len ((t, k) :: mk k l) = len l + 1 := by
        show len (mk k l) + 1 = len l + 1
        rw [len_mk]
      cases Nat.decEq (len l + 1) m with
      | isTrue hfull =>
        have hfull' : len ((t, k) :: mk k l) = m := by rw [hlen]; exact hfull
        rw [if_pos' hfull'] at hI
        rw [if_pos' hfull'] at ho2
        have hall : ∀ s, Mem s S → Mem s (t :: l) := by
          apply ph (t :: l) S hnd' hsub'
          show len S ≤ len l + 1
          rw [hm, hfull]
          exact Nat.leRefl m
        cases j with
        | zero =>
          have hI' : some ((t, k) :: mk k l) = some I := hI
          cases hI'
          apply Iff.intro
          · intro ha
            cases ha with
            | inl e => rw [← e]; exact ⟨ht, rfl⟩
            | inr h =>
              have r := mem_mk_l l h
              exact ⟨hsub _ r.1, r.2⟩
          · intro ha
            cases a with
            | mk x y =>
              have hx : Mem x S := ha.1
              have hy : y = k := ha.2
              rw [hy]
              cases hall x hx with
              | inl e => rw [e]; exact Or.inl rfl
              | inr h => exact Or.inr (mem_mk_r l h)
        | succ j' =>
          have hI' : nthL (go m (upd c t) [] w) j' = some I := hI
          have hinv' : Inv S (k + 1) (upd c t) [] := by
            refine ⟨[], rfl, trivial, fun s h => False.elim h, ?_⟩
            intro s hs
            apply Or.inr
            refine ⟨fun h => h, ?_⟩
            show (if s = t then c s + 1 else c s) = k + 1
            cases Nat.decEq s t with
            | isTrue e => rw [if_pos' e, e, hct]
            | isFalse e =>
              rw [if_neg' e]
              have hsl : Mem s l := by
                cases hall s hs with
                | inl e' => exact False.elim (e e'.symm)
                | inr h => exact h
              cases hc s hs with
              | inl h => exact h.2
              | inr h => exact False.elim (h.1 hsl)
          have r := go_spec hm w (k + 1) (upd c t) [] hinv' hw' ho2 j' I hI' a
          have e : k + 1 + j' = k + Nat.succ j' := by
            rw [Nat.add_assoc, Nat.add_comm 1 j']
          rw [e] at r
          exact r
      | isFalse hfull =>
        have hfull' : ¬ len ((t, k) :: mk k l) = m := by rw [hlen]; exact hfull
        rw [if_neg' hfull'] at hI
        rw [if_neg' hfull'] at ho2
        have hinv' : Inv S k (upd c t) ((t, k) :: mk k l) := by
          refine ⟨t :: l, rfl, hnd', hsub', ?_⟩
          intro s hs
          show (Mem s (t :: l) ∧ (if s = t then c s + 1 else c s) = k + 1) ∨
            (¬ Mem s (t :: l) ∧ (if s = t then c s + 1 else c s) = k)
          cases Nat.decEq s t with
          | isTrue e =>
            rw [if_pos' e, e, hct]
            exact Or.inl ⟨Or.inl rfl, rfl⟩
          | isFalse e =>
            rw [if_neg' e]
            cases hc s hs with
            | inl h => exact Or.inl ⟨Or.inr h.1, h.2⟩
            | inr h =>
              refine Or.inr ⟨?_, h.2⟩
              intro h'
              cases h' with
              | inl e' => exact e e'.symm
              | inr h'' => exact h.1 h''
        exact go_spec hm w k (upd c t) ((t, k) :: mk k l) hinv' hw' ho2 j I hI a

/-- **The matching lemma.**  If `S` has no duplicates, `|S| = m`, only threads of `S` arrive in
the schedule `w` and no thread arrives while its previous arrival is pending (`Once`), then
the `k`-th instance (from 0) consists of exactly the arrivals `(t, k)`, `t ∈ S`: every member's
`k`-th arrival. -/
theorem insts_spec {S : List Nat} {m : Nat} (hm : len S = m) {w : List Nat}
    (hw : ∀ t, Mem t w → Mem t S) (ho : Once m w) :
    ∀ k I, nthL (insts m w) k = some I → ∀ a, (Mem a I ↔ Mem a.1 S ∧ a.2 = k) := by
  intro k I hI a
  have hinv : Inv S 0 (fun _ => 0) [] :=
    ⟨[], rfl, trivial, fun s h => False.elim h, fun s _ => Or.inr ⟨fun h => h, rfl⟩⟩
  have r := go_spec hm w 0 (fun _ => 0) [] hinv hw ho k I hI a
  rw [Nat.zero_add] at r
  exact r

theorem cnt_pos {t : Nat} : ∀ (w : List Nat), Mem t w → 0 < cnt t w
  | [], h => False.elim h
  | u :: w, h => by
    show 0 < (if u = t then cnt t w + 1 else cnt t w)
    cases Nat.decEq u t with
    | isTrue e => rw [if_pos' e]; exact Nat.zeroLtSucc _
    | isFalse e =>
      rw [if_neg' e]
      cases h with
      | inl e' => exact False.elim (e e')
      | inr h' => exact cnt_pos w h'

theorem mem_of_cnt {t : Nat} : ∀ (w : List Nat), 0 < cnt t w → Mem t w
  | [], h => False.elim (Nat.notLtZero 0 h)
  | u :: w, h => by
    cases Nat.decEq u t with
    | isTrue e => exact Or.inl e
    | isFalse e =>
      have h' : 0 < (if u = t then cnt t w + 1 else cnt t w) := h
      rw [if_neg' e] at h'
      exact Or.inr (mem_of_cnt w h')

/-- **Schedule independence.**  Let `w0` be a schedule (the executor's) in which only threads of
`S` arrive, `S` without duplicates and `|S| = m`.  In every schedule `w` with the same
per-thread arrivals (`cnt t w = cnt t w0` for every `t`) in which no thread arrives while its
previous arrival is pending, the `k`-th instance is exactly every member's `k`-th arrival. -/
theorem matching_indep {S : List Nat} {m : Nat} (hm : len S = m) {w0 w : List Nat}
    (h0 : ∀ t, Mem t w0 → Mem t S) (hcnt : ∀ t, cnt t w = cnt t w0) (ho : Once m w) :
    ∀ k I, nthL (insts m w) k = some I → ∀ a, (Mem a I ↔ Mem a.1 S ∧ a.2 = k) := by
  have hw : ∀ t, Mem t w → Mem t S := by
    intro t ht
    apply h0 t
    apply mem_of_cnt w0
    rw [← hcnt t]
    exact cnt_pos w ht
  exact insts_spec hm hw ho

/-- Two such schedules match arrivals to instances alike: their `k`-th instances hold the same
arrivals. -/
theorem same_matching {S : List Nat} {m : Nat} (hm : len S = m) {w0 w1 w2 : List Nat}
    (h0 : ∀ t, Mem t w0 → Mem t S)
    (h1 : ∀ t, cnt t w1 = cnt t w0) (ho1 : Once m w1)
    (h2 : ∀ t, cnt t w2 = cnt t w0) (ho2 : Once m w2) :
    ∀ k I1 I2, nthL (insts m w1) k = some I1 → nthL (insts m w2) k = some I2 →
    ∀ a, (Mem a I1 ↔ Mem a I2) := by
  intro k I1 I2 hI1 hI2 a
  have r1 := matching_indep hm h0 h1 ho1 k I1 hI1 a
  have r2 := matching_indep hm h0 h2 ho2 k I2 hI2 a
  exact Iff.intro (fun h => r2.2 (r1.1 h)) (fun h => r1.2 (r2.1 h))

/-! ## The number of instances is the same in every schedule -/

theorem mem_dec (x : Nat) : ∀ (l : List Nat), Mem x l ∨ ¬ Mem x l
  | [] => Or.inr (fun h => h)
  | y :: l => by
    cases Nat.decEq y x with
    | isTrue e => exact Or.inl (Or.inl e)
    | isFalse e =>
      cases mem_dec x l with
      | inl h => exact Or.inl (Or.inr h)
      | inr h =>
        apply Or.inr
        intro h'
        cases h' with
        | inl e' => exact e e'
        | inr h'' => exact h h''

/-- Pigeonhole, the other way: a list shorter than `S` (without duplicates) misses a member. -/
theorem miss : ∀ (S l : List Nat), Nodup S → len l < len S → ∃ s, Mem s S ∧ ¬ Mem s l
  | [], l, _, hlt => False.elim (Nat.notLtZero _ hlt)
  | s :: S', l, hnd, hlt => by
    cases mem_dec s l with
    | inr h => exact ⟨s, Or.inl rfl, h⟩
    | inl h =>
      have hlen : len (rm s l) + 1 = len l := rm_len s l h
      have hlt' : len (rm s l) < len S' := by
        apply Nat.leOfSuccLeSucc
        show len (rm s l) + 1 + 1 ≤ len S' + 1
        rw [hlen]
        exact hlt
      match miss S' (rm s l) hnd.2 hlt' with
      | ⟨s', hs', hn⟩ =>
        refine ⟨s', Or.inr hs', ?_⟩
        intro hl
        have hne : ¬ s' = s := by
          intro e
          rw [e] at hs'
          exact hnd.1 hs'
        exact hn (rm_mem hne l hl)

theorem upd_cnt (c : Nat → Nat) (t s : Nat) (w : List Nat) :
    upd c t s + cnt s w = c s + cnt s (t :: w) := by
  show (if s = t then c s + 1 else c s) + cnt s w =
    c s + (if t = s then cnt s w + 1 else cnt s w)
  cases Nat.decEq s t with
  | isTrue e =>
    rw [if_pos' e, if_pos' e.symm, Nat.add_assoc, Nat.add_comm 1 (cnt s w)]
  | isFalse e =>
    rw [if_neg' e, if_neg' (fun h => e h.symm)]

/-- The counts after an instance completes. -/
theorem hc_full {S l : List Nat} {c : Nat → Nat} {t k : Nat}
    (hall : ∀ s, Mem s S → Mem s (t :: l))
    (hc : ∀ s, Mem s S → (Mem s l ∧ c s = k + 1) ∨ (¬ Mem s l ∧ c s = k)) (hct : c t = k) :
    ∀ s, Mem s S → upd c t s = k + 1 := by
  intro s hs
  show (if s = t then c s + 1 else c s) = k + 1
  cases Nat.decEq s t with
  | isTrue e => rw [if_pos' e, e, hct]
  | isFalse e =>
    rw [if_neg' e]
    have hsl : Mem s l := by
      cases hall s hs with
      | inl e' => exact False.elim (e e'.symm)
      | inr h => exact h
    cases hc s hs with
    | inl h => exact h.2
    | inr h => exact False.elim (h.1 hsl)

/-- The counts after an arrival that completes nothing. -/
theorem hc_step {S l : List Nat} {c : Nat → Nat} {t k : Nat}
    (hc : ∀ s, Mem s S → (Mem s l ∧ c s = k + 1) ∨ (¬ Mem s l ∧ c s = k)) (hct : c t = k) :
    ∀ s, Mem s S → (Mem s (t :: l) ∧ upd c t s = k + 1) ∨ (¬ Mem s (t :: l) ∧ upd c t s = k) := by
  intro s hs
  show (Mem s (t :: l) ∧ (if s = t then c s + 1 else c s) = k + 1) ∨
    (¬ Mem s (t :: l) ∧ (if s = t then c s + 1 else c s) = k)
  cases Nat.decEq s t with
  | isTrue e =>
    rw [if_pos' e, e, hct]
    exact Or.inl ⟨Or.inl rfl, rfl⟩
  | isFalse e =>
    rw [if_neg' e]
    cases hc s hs with
    | inl h => exact Or.inl ⟨Or.inr h.1, h.2⟩
    | inr h =>
      refine Or.inr ⟨?_, h.2⟩
      intro h'
      cases h' with
      | inl e' => exact e e'.symm
      | inr h'' => exact h.1 h''

/-- The number of instances `go` completes: with `K` of them, every member of `S` arrives at
least `K` more times, and (for `S` without duplicates) some member exactly `K` more times
(it is not pending at the end). -/
theorem go_len {S : List Nat} {m : Nat} (hm : len S = m) :
    ∀ (w : List Nat) (k : Nat) (c : Nat → Nat) (l : List Nat), Nodup l →
    (∀ s, Mem s l → Mem s S) → len l < m →
    (∀ s, Mem s S → (Mem s l ∧ c s = k + 1) ∨ (¬ Mem s l ∧ c s = k)) →
    (∀ t, Mem t w → Mem t S) → OnceG m c (mk k l) w →
    (∀ s, Mem s S → len (go m c (mk k l) w) + k ≤ c s + cnt s w) ∧
    (Nodup S → ∃ s, Mem s S ∧ c s + cnt s w = len (go m c (mk k l) w) + k)
  | [], k, c, l, _, _, hlt, hc, _, _ => by
    apply And.intro
    · intro s hs
      show 0 + k ≤ c s
      rw [Nat.zero_add]
      cases hc s hs with
      | inl h => rw [h.2]; exact Nat.leSucc k
      | inr h => rw [h.2]; exact Nat.leRefl k
    · intro hS
      have hlt' : len l < len S := by rw [hm]; exact hlt
      match miss S l hS hlt' with
      | ⟨s, hs, hn⟩ =>
        refine ⟨s, hs, ?_⟩
        show c s = 0 + k
        rw [Nat.zero_add]
        cases hc s hs with
        | inl h => exact False.elim (hn h.1)
        | inr h => exact h.2
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
    have hgo : go m c (mk k l) (t :: w) =
        (if len ((t, c t) :: mk k l) = m then ((t, c t) :: mk k l) :: go m (upd c t) [] w
         else go m (upd c t) ((t, c t) :: mk k l) w) := rfl
    rw [hgo, hct]
    have ho2 := ho'.2
    rw [hct] at ho2
    have hlen : len ((t, k) :: mk k l) = len l + 1 := by
      show len (mk k l) + 1 = len l + 1
      rw [len_mk]
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
      have r := go_len hm w (k + 1) (upd c t) [] trivial (fun s h => False.elim h) h0 hc' hw' ho2
      have e : len (go m (upd c t) (mk (k + 1) []) w) + (k + 1) =
          len (((t, k) :: mk k l) :: go m (upd c t) [] w) + k := by
        show len (go m (upd c t) [] w) + (k + 1) = len (go m (upd c t) [] w) + 1 + k
        rw [Nat.add_assoc, Nat.add_comm 1 k]
      rw [e] at r
      apply And.intro
      · intro s hs
        have r1 := r.1 s hs
        rw [upd_cnt] at r1
        exact r1
      · intro hS
        match r.2 hS with
        | ⟨s, hs, h⟩ =>
          refine ⟨s, hs, ?_⟩
          rw [upd_cnt] at h
          exact h
    | isFalse hfull =>
      have hfull' : ¬ len ((t, k) :: mk k l) = m := by rw [hlen]; exact hfull
      rw [if_neg' hfull']
      rw [if_neg' hfull'] at ho2
      have hlt' : len (t :: l) < m := Nat.ltOfLeOfNe hlt hfull
      have r := go_len hm w k (upd c t) (t :: l) hnd' hsub' hlt' (hc_step hc hct) hw' ho2
      apply And.intro
      · intro s hs
        have r1 := r.1 s hs
        rw [upd_cnt] at r1
        exact r1
      · intro hS
        match r.2 hS with
        | ⟨s, hs, h⟩ =>
          refine ⟨s, hs, ?_⟩
          rw [upd_cnt] at h
          exact h

/-- Only threads of `S` arrive in a schedule with the same per-thread arrivals as one where
only threads of `S` arrive. -/
theorem only_S {S w0 w : List Nat} (h0 : ∀ t, Mem t w0 → Mem t S)
    (hcnt : ∀ t, cnt t w = cnt t w0) : ∀ t, Mem t w → Mem t S := by
  intro t ht
  apply h0 t
  apply mem_of_cnt w0
  rw [← hcnt t]
  exact cnt_pos w ht

theorem insts_le {S : List Nat} {m : Nat} (hm : len S = m) {w : List Nat}
    (hw : ∀ t, Mem t w → Mem t S) (ho : Once m w) (h0 : 0 < m) :
    ∀ s, Mem s S → len (insts m w) ≤ cnt s w := by
  intro s hs
  have hc : ∀ s, Mem s S → (Mem s [] ∧ (fun _ => 0) s = 0 + 1) ∨
      (¬ Mem s [] ∧ (fun _ => 0) s = 0) := fun s _ => Or.inr ⟨fun h => h, rfl⟩
  have r := (go_len hm w 0 (fun _ => 0) [] trivial (fun s h => False.elim h) h0 hc hw ho).1 s hs
  have e : (fun _ => 0) s + cnt s w = cnt s w := Nat.zero_add _
  rw [e] at r
  exact r

theorem insts_eq {S : List Nat} {m : Nat} (hm : len S = m) (hS : Nodup S) {w : List Nat}
    (hw : ∀ t, Mem t w → Mem t S) (ho : Once m w) (h0 : 0 < m) :
    ∃ s, Mem s S ∧ cnt s w = len (insts m w) := by
  have hc : ∀ s, Mem s S → (Mem s [] ∧ (fun _ => 0) s = 0 + 1) ∨
      (¬ Mem s [] ∧ (fun _ => 0) s = 0) := fun s _ => Or.inr ⟨fun h => h, rfl⟩
  match (go_len hm w 0 (fun _ => 0) [] trivial (fun s h => False.elim h) h0 hc hw ho).2 hS with
  | ⟨s, hs, h⟩ =>
    refine ⟨s, hs, ?_⟩
    have e : (fun _ => 0) s + cnt s w = cnt s w := Nat.zero_add _
    rw [e] at h
    exact h

/-- **The number of instances is schedule-independent** (for `S` without duplicates): two
schedules as in `same_matching` complete equally many instances (the least number of
arrivals of a member), so together with `same_matching` they match every arrival alike, and
leave the same arrivals pending. -/
theorem ninst_indep {S : List Nat} {m : Nat} (hm : len S = m) (hS : Nodup S)
    {w0 w1 w2 : List Nat} (h0 : ∀ t, Mem t w0 → Mem t S)
    (h1 : ∀ t, cnt t w1 = cnt t w0) (ho1 : Once m w1)
    (h2 : ∀ t, cnt t w2 = cnt t w0) (ho2 : Once m w2) :
    len (insts m w1) = len (insts m w2) := by
  have hw1 := only_S h0 h1
  have hw2 := only_S h0 h2
  cases S with
  | nil =>
    have e1 : w1 = [] := by
      cases w1 with
      | nil => rfl
      | cons t _ => exact False.elim (hw1 t (Or.inl rfl))
    have e2 : w2 = [] := by
      cases w2 with
      | nil => rfl
      | cons t _ => exact False.elim (hw2 t (Or.inl rfl))
    rw [e1, e2]
  | cons s0 S' =>
    have hpos : 0 < m := by rw [← hm]; exact Nat.zeroLtSucc _
    apply Nat.leAntisymm
    · match insts_eq hm hS hw2 ho2 hpos with
      | ⟨s, hs, e⟩ =>
        rw [← e, h2 s, ← h1 s]
        exact insts_le hm hw1 ho1 hpos s hs
    · match insts_eq hm hS hw1 ho1 hpos with
      | ⟨s, hs, e⟩ =>
        rw [← e, h1 s, ← h2 s]
        exact insts_le hm hw2 ho2 hpos s hs

/-! ## From the Rust's checks on the executor's schedule -/

/-- The arrivals still pending at the end of a schedule (`go`'s last `p`). -/
def left (m : Nat) : (Nat → Nat) → List Arr → List Nat → List Arr
  | _, p, [] => p
  | c, p, t :: w =>
    if len ((t, c t) :: p) = m then left m (upd c t) [] w
    else left m (upd c t) ((t, c t) :: p) w

/-- Every arrival of a schedule ends in some instance or pending at the end. -/
theorem go_cover {m t : Nat} : ∀ (w : List Nat) (c : Nat → Nat) (p : List Arr),
    (Mem t w ∨ Pending t p) →
    (∃ k I, nthL (go m c p w) k = some I ∧ Pending t I) ∨ Pending t (left m c p w)
  | [], c, p, h => by
    cases h with
    | inl h' => exact False.elim h'
    | inr h' => exact Or.inr h'
  | u :: w, c, p, h => by
    have hgo : go m c p (u :: w) =
        (if len ((u, c u) :: p) = m then ((u, c u) :: p) :: go m (upd c u) [] w
         else go m (upd c u) ((u, c u) :: p) w) := rfl
    have hleft : left m c p (u :: w) =
        (if len ((u, c u) :: p) = m then left m (upd c u) [] w
         else left m (upd c u) ((u, c u) :: p) w) := rfl
    rw [hgo, hleft]
    cases Nat.decEq (len ((u, c u) :: p)) m with
    | isTrue hfull =>
      rw [if_pos' hfull, if_pos' hfull]
      have here : Pending t ((u, c u) :: p) → (∃ k I, nthL (((u, c u) :: p) :: go m (upd c u) [] w) k = some I ∧ Pending t I) :=
        fun hp => ⟨0, (u, c u) :: p, rfl, hp⟩
      cases h with
      | inl h' =>
        cases h' with
        | inl e => exact Or.inl (here ⟨(u, c u), Or.inl rfl, e⟩)
        | inr hw =>
          cases go_cover w (upd c u) [] (Or.inl hw) with
          | inl r =>
            exact Or.inl (match r with
              | ⟨k, I, hk, hp⟩ => ⟨k + 1, I, hk, hp⟩)
          | inr r => exact Or.inr r
      | inr h' =>
        match h' with
        | ⟨a, ha, e⟩ => exact Or.inl (here ⟨a, Or.inr ha, e⟩)
    | isFalse hfull =>
      rw [if_neg' hfull, if_neg' hfull]
      apply go_cover w (upd c u) ((u, c u) :: p)
      cases h with
      | inl h' =>
        cases h' with
        | inl e => exact Or.inr ⟨(u, c u), Or.inl rfl, e⟩
        | inr hw => exact Or.inl hw
      | inr h' =>
        match h' with
        | ⟨a, ha, e⟩ => exact Or.inr ⟨a, Or.inr ha, e⟩

/-- What the Rust's checks give on the executor's schedule `w0`: if every instance holds only
threads of `S` (the Rust: exactly the sorted threads of the first instance) and nothing is
pending at the end (otherwise the executor reports a deadlock, or a `bar.arrive` that never
completes), then only threads of `S` arrive in `w0`. -/
theorem executor_only_S {m : Nat} {S w0 : List Nat}
    (hins : ∀ k I, nthL (insts m w0) k = some I → ∀ a, Mem a I → Mem a.1 S)
    (hleft : left m (fun _ => 0) [] w0 = []) : ∀ t, Mem t w0 → Mem t S := by
  intro t ht
  cases go_cover w0 (fun _ => 0) [] (Or.inl ht) with
  | inl r =>
    exact (match r with
      | ⟨k, I, hk, ⟨a, ha, e⟩⟩ => e ▸ hins k I hk a ha)
  | inr r =>
    rw [hleft] at r
    match r with
    | ⟨a, ha, _⟩ => exact False.elim ha

/-- **The matching lemma from the Rust's checks.**  Let the executor's schedule `w0` of one
barrier id (count `m`) complete instances that each hold only threads of `S`, `|S| = m`, with
nothing pending at the end.  Then in every schedule `w` with the same per-thread arrivals in
which no thread arrives while its previous arrival is pending (`Once`: every arrival a
`bar.sync`), the `k`-th instance is exactly every member's `k`-th arrival. -/
theorem checked_matching {S : List Nat} {m : Nat} (hm : len S = m) {w0 w : List Nat}
    (hins : ∀ k I, nthL (insts m w0) k = some I → ∀ a, Mem a I → Mem a.1 S)
    (hleft : left m (fun _ => 0) [] w0 = [])
    (hcnt : ∀ t, cnt t w = cnt t w0) (ho : Once m w) :
    ∀ k I, nthL (insts m w) k = some I → ∀ a, (Mem a I ↔ Mem a.1 S ∧ a.2 = k) :=
  matching_indep hm (executor_only_S hins hleft) hcnt ho

/-! ## The negative side -/

/-- The threads arriving at barrier `b` in a `Named.lean` history (latest event first), in the
order of arrival. -/
def arrOf {V : Type} (b : Nat) : List (Race.EventN V) → List Nat
  | [] => []
  | Race.EventN.bar t b' _ :: h => if b' = b then arrOf b h ++ [t] else arrOf b h
  | _ :: h => arrOf b h

theorem cnt_cons {t : Nat} (a : Nat) {l1 l2 : List Nat} (h : cnt t l1 = cnt t l2) :
    cnt t (a :: l1) = cnt t (a :: l2) := by
  show (if a = t then cnt t l1 + 1 else cnt t l1) = (if a = t then cnt t l2 + 1 else cnt t l2)
  rw [h]

theorem cnt_swap {t : Nat} (a b : Nat) (l : List Nat) : cnt t (a :: b :: l) = cnt t (b :: a :: l) := by
  show (if a = t then (if b = t then cnt t l + 1 else cnt t l) + 1
      else (if b = t then cnt t l + 1 else cnt t l)) =
    (if b = t then (if a = t then cnt t l + 1 else cnt t l) + 1
      else (if a = t then cnt t l + 1 else cnt t l))
  cases Nat.decEq a t with
  | isTrue ha =>
    cases Nat.decEq b t with
    | isTrue hb => rw [if_pos' ha, if_pos' hb, if_pos' hb, if_pos' ha]
    | isFalse hb => rw [if_pos' ha, if_neg' hb, if_neg' hb, if_pos' ha]
  | isFalse ha =>
    cases Nat.decEq b t with
    | isTrue hb => rw [if_neg' ha, if_pos' hb, if_pos' hb, if_neg' ha]
    | isFalse hb => rw [if_neg' ha, if_neg' hb, if_neg' hb, if_neg' ha]

/-- The executor's order of arrivals at barrier 1 in the over-full scenario. -/
def ovExec : List Nat := [0, 1, 2, 3]

/-- The other schedule's order. -/
def ovAlt : List Nat := [1, 2, 0, 3]

theorem ovExec_of : arrOf 1 Race.overfullExec = ovExec := rfl

theorem ovAlt_of : arrOf 1 Race.overfullAlt = ovAlt := rfl

/-- The executor's instances: threads 0 and 1, then 2 and 3 (different sets, so the Rust's
members check reports it). -/
theorem ovExec_insts : insts 2 ovExec = [[(1, 0), (0, 0)], [(3, 0), (2, 0)]] := rfl

/-- The other schedule's: threads 1 and 2, then 0 and 3. -/
theorem ovAlt_insts : insts 2 ovAlt = [[(2, 0), (1, 0)], [(3, 0), (0, 0)]] := rfl

theorem ovAlt_cnt (t : Nat) : cnt t ovAlt = cnt t ovExec := by
  show cnt t (1 :: 2 :: 0 :: [3]) = cnt t (0 :: 1 :: 2 :: [3])
  exact Eq.trans (cnt_cons 1 (cnt_swap 2 0 [3])) (cnt_swap 1 0 (2 :: [3]))

/-- Over-full: the two schedules have the same per-thread arrivals but match them differently
(thread 0's first arrival is in the first instance of one and not of the other). -/
theorem overfull_differs :
    ¬ (∀ I1 I2, nthL (insts 2 ovExec) 0 = some I1 → nthL (insts 2 ovAlt) 0 = some I2 →
      ∀ a, (Mem a I1 ↔ Mem a I2)) := by
  intro h
  have r : Mem ((0 : Nat), (0 : Nat)) [(2, 0), (1, 0)] := (h [(1, 0), (0, 0)] [(2, 0), (1, 0)] rfl rfl (0, 0)).1 (Or.inr (Or.inl rfl))
  cases r with
  | inl e => exact Nat.noConfusion (congrArg Prod.fst e)
  | inr r =>
    cases r with
    | inl e => exact Nat.noConfusion (congrArg Prod.fst e)
    | inr r => exact r

/-- `Once` cannot be dropped: thread 0 arriving twice (two `bar.arrive`) before thread 1 does.
The schedule `[0, 1, 0, 1]` (instances `{0, 1}` twice, each thread once) and `[0, 0, 1, 1]`
have the same per-thread arrivals, but the latter's first instance is thread 0's two
arrivals. -/
theorem twice_exec_insts : insts 2 [0, 1, 0, 1] = [[(1, 0), (0, 0)], [(1, 1), (0, 1)]] := rfl

theorem twice_insts : insts 2 [0, 0, 1, 1] = [[(0, 1), (0, 0)], [(1, 1), (1, 0)]] := rfl

theorem twice_cnt (t : Nat) : cnt t [0, 0, 1, 1] = cnt t [0, 1, 0, 1] := by
  show cnt t (0 :: 0 :: 1 :: [1]) = cnt t (0 :: 1 :: 0 :: [1])
  exact cnt_cons 0 (cnt_swap 0 1 [1])

theorem twice_needed :
    ¬ (∀ k I, nthL (insts 2 [0, 0, 1, 1]) k = some I →
      ∀ a, (Mem a I ↔ Mem a.1 [0, 1] ∧ a.2 = k)) := by
  intro h
  have r := ((h 0 [(0, 1), (0, 0)] rfl ((0 : Nat), (1 : Nat))).1 (Or.inl rfl)).2
  exact Nat.noConfusion r

/-- So the schedule `[0, 0, 1, 1]` breaks `Once` (by `matching_indep`). -/
theorem twice_not_once : ¬ Once 2 [0, 0, 1, 1] := by
  intro ho
  apply twice_needed
  have h0 : ∀ t, Mem t [0, 1, 0, 1] → Mem t [0, 1] := by
    intro t ht
    cases ht with
    | inl e => exact Or.inl e
    | inr ht =>
      cases ht with
      | inl e => exact Or.inr (Or.inl e)
      | inr ht => exact ht
  exact matching_indep rfl h0 twice_cnt ho

/-! ## A positive example -/

/-- Two threads, count 2, each arriving twice with `bar.sync`: the executor's schedule
`[0, 1, 0, 1]` passes the checks, and the schedule `[1, 0, 0, 1]` matches alike. -/
theorem pairs_exec_insts : insts 2 [0, 1, 0, 1] = [[(1, 0), (0, 0)], [(1, 1), (0, 1)]] := rfl

theorem pairs_exec_left : left 2 (fun _ => 0) [] [0, 1, 0, 1] = [] := rfl

theorem pairs_exec_ins :
    ∀ k I, nthL (insts 2 [0, 1, 0, 1]) k = some I → ∀ a, Mem a I → Mem a.1 [0, 1] := by
  have two : ∀ (j : Nat) (a : Arr), Mem a [(1, j), (0, j)] → Mem a.1 [0, 1] := by
    intro j a ha
    cases ha with
    | inl e => rw [← e]; exact Or.inr (Or.inl rfl)
    | inr ha =>
      cases ha with
      | inl e => rw [← e]; exact Or.inl rfl
      | inr ha => exact False.elim ha
  intro k I h a ha
  cases k with
  | zero =>
    have h' : some [((1 : Nat), (0 : Nat)), (0, 0)] = some I := h
    cases h'
    exact two 0 a ha
  | succ k =>
    cases k with
    | zero =>
      have h' : some [((1 : Nat), (1 : Nat)), (0, 1)] = some I := h
      cases h'
      exact two 1 a ha
    | succ k =>
      have h' : (none : Option (List Arr)) = some I := h
      exact Option.noConfusion h'

theorem no_pending_nil (t : Nat) : ¬ Pending t [] := fun h => match h with | ⟨_, ha, _⟩ => ha

theorem pairs_once : Once 2 [1, 0, 0, 1] := by
  refine ⟨no_pending_nil 1, ?_⟩
  show ¬ Pending 0 [(1, 0)] ∧ _
  refine ⟨?_, ?_⟩
  · intro h
    match h with
    | ⟨a, ha, e⟩ =>
      cases ha with
      | inl e' => rw [← e'] at e; exact Nat.noConfusion e
      | inr ha' => exact ha'
  show ¬ Pending 0 [] ∧ _
  refine ⟨no_pending_nil 0, ?_⟩
  show ¬ Pending 1 [(0, 1)] ∧ _
  refine ⟨?_, trivial⟩
  intro h
  match h with
  | ⟨a, ha, e⟩ =>
    cases ha with
    | inl e' => rw [← e'] at e; exact Nat.noConfusion e
    | inr ha' => exact ha'

/-- `checked_matching` applied: in `[1, 0, 0, 1]` the `k`-th instance is both threads' `k`-th
arrival. -/
theorem pairs_matching :
    ∀ k I, nthL (insts 2 [1, 0, 0, 1]) k = some I → ∀ a, (Mem a I ↔ Mem a.1 [0, 1] ∧ a.2 = k) :=
  checked_matching (S := [0, 1]) (m := 2) (w0 := [0, 1, 0, 1]) (w := [1, 0, 0, 1]) rfl
    pairs_exec_ins pairs_exec_left (fun t => cnt_swap 1 0 [0, 1]) pairs_once

end Members
end Kcert
