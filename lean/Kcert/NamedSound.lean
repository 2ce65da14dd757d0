import Kcert.ScheduleNamed
import Kcert.SemOnce
import Kcert.Progress

/-!
# Named barriers: the executor's check is sound for every schedule

`Race.canonicalN_check_sound`: the named-barrier version of `Schedule.lean`'s
`canonical_check_sound`, composed from `ScheduleNamed.lean` (the executor's run over the solo
traces and its checks) and `SemOnce.lean` (every `Sem` schedule is a valid history of the solo
sequences).

The executor's side speaks of the threads below `N` only (`soloEvB`, local beyond `N`), the
`Sem` side of `soloEv` over all threads.  The bridge: `progN prog N`, the program whose threads
from `N` on exit at once.  `Sem` never runs a thread at or beyond `N` (`StepT` asks `i < N`,
`Sem.next` only reads the thread that steps), so `prog` and `progN prog N` have the same
reachable states (`reach_progN`, `reach_of_progN`), races and barrier fits; and the solo
sequences of `progN prog N` are, pointwise, `soloEvB prog .. N` (`soloEv_progN`).  The
checks' consequences (`Memb`, `Check3`, the `HB` order) are carried over pointwise
(`memb_congr`, `check3_congr`, `hb_congr`: no function extensionality is needed).

* `canonicalN_sound_rfc`: race freedom, barriers fit, confluence (from `canonN_facts`:
  `Memb`, `Check3`, `Ordered` of `progN prog N`, and `SemOnce.lean`).
* `canonicalN_noStuck`: no schedule deadlocks.  The executor's order followed by one exit step
  per thread (`extH`) is `Progress.lean`'s `Complete` schedule; a stuck `Sem` state has a
  valid history (`valid_of_reach`) in which `Members.progress` finds a thread that can step,
  which is neither running, waiting (`bar_iff`'s pending arrival) nor exited (`exited_inv`,
  `noExit_sched`).
* `canonicalN_check_sound`: the four together.
* `canonN_counts`, `canonicalN_check_sound_counts`: one count per id derived from the run's
  count check `CountsOK` and check (2); `countsOK_of_cnt`.
* Not vacuous: `prodCons_sound`, `prodCons_sound_counts` (the producer/consumer of
  `ScheduleNamed.lean`).
-/

namespace Kcert
namespace Race

open Members (Ev evOf soloEv)

section Bridge

variable {V : Type} [Sem.AccAdd V]

/-- The program whose threads at or beyond `N` exit at once. -/
def progN (prog : Sem.Prog V) (N : Nat) : Sem.Prog V :=
  fun t pc regs => cond (decide (t < N)) (prog t pc regs) Sem.Act.exit

theorem progN_lt (prog : Sem.Prog V) {N t : Nat} (ht : t < N) (pc : Nat) (regs : Nat → V) :
    progN prog N t pc regs = prog t pc regs := by
  show cond (decide (t < N)) (prog t pc regs) Sem.Act.exit = prog t pc regs
  rw [decide_eq_true' ht]
  rfl

theorem progN_ge (prog : Sem.Prog V) {N t : Nat} (ht : ¬ t < N) (pc : Nat) (regs : Nat → V) :
    progN prog N t pc regs = Sem.Act.exit := by
  show cond (decide (t < N)) (prog t pc regs) Sem.Act.exit = Sem.Act.exit
  rw [decide_eq_false' ht]
  rfl

theorem solo_progN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {N t : Nat}
    (ht : t < N) : ∀ k, Sem.solo (progN prog N) regs0 m0 t k = Sem.solo prog regs0 m0 t k
  | 0 => rfl
  | k + 1 => by
    show Sem.newT (progN prog N t (Sem.solo (progN prog N) regs0 m0 t k).pc
        (Sem.solo (progN prog N) regs0 m0 t k).regs) false (Sem.solo (progN prog N) regs0 m0 t k) m0 =
      Sem.newT (prog t (Sem.solo prog regs0 m0 t k).pc (Sem.solo prog regs0 m0 t k).regs) false
        (Sem.solo prog regs0 m0 t k) m0
    rw [solo_progN prog regs0 m0 ht k, progN_lt prog ht]

theorem soloAct_progN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {N t : Nat}
    (ht : t < N) (k : Nat) :
    Sem.soloAct (progN prog N) regs0 m0 t k = Sem.soloAct prog regs0 m0 t k := by
  show progN prog N t (Sem.solo (progN prog N) regs0 m0 t k).pc (Sem.solo (progN prog N) regs0 m0 t k).regs =
    prog t (Sem.solo prog regs0 m0 t k).pc (Sem.solo prog regs0 m0 t k).regs
  rw [solo_progN prog regs0 m0 ht k, progN_lt prog ht]

theorem soloAct_progN_ge (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {N t : Nat}
    (ht : ¬ t < N) (k : Nat) : Sem.soloAct (progN prog N) regs0 m0 t k = Sem.Act.exit :=
  progN_ge prog ht _ _

/-- The solo sequences of `progN prog N` are `soloEvB prog .. N`, pointwise. -/
theorem soloEv_progN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N : Nat)
    (t i : Nat) : soloEvB prog regs0 m0 N t i = soloEv (progN prog N) regs0 m0 t i := by
  cases Nat.decLt t N with
  | isTrue ht =>
    rw [soloEvB_lt ht]
    show evOf (Sem.soloAct prog regs0 m0 t i) = evOf (Sem.soloAct (progN prog N) regs0 m0 t i)
    rw [soloAct_progN prog regs0 m0 ht i]
  | isFalse ht =>
    show cond (decide (t < N)) (soloEv prog regs0 m0 t i) Ev.loc =
      evOf (Sem.soloAct (progN prog N) regs0 m0 t i)
    rw [decide_eq_false' ht, soloAct_progN_ge prog regs0 m0 ht i]
    rfl

theorem act_progN (prog : Sem.Prog V) {N i : Nat} (hi : i < N) (s : Sem.CState V) :
    Sem.act (progN prog N) i s = Sem.act prog i s :=
  progN_lt prog hi _ _

theorem next_progN (prog : Sem.Prog V) {N i : Nat} (hi : i < N) (s : Sem.CState V) :
    Sem.next (progN prog N) N i s = Sem.next prog N i s := by
  show ({ th := Sem.upd (fun k => Sem.effOther (Sem.act (progN prog N) i s) (Sem.firesA N (Sem.act (progN prog N) i s) s) (s.th k)) i (Sem.newT (Sem.act (progN prog N) i s) (Sem.firesA N (Sem.act (progN prog N) i s) s) (s.th i) s.mem), mem := Sem.memEff (Sem.act (progN prog N) i s) s.mem, arr := Sem.arrEff (Sem.act (progN prog N) i s) (Sem.firesA N (Sem.act (progN prog N) i s) s) s.arr } : Sem.CState V) = Sem.next prog N i s
  rw [act_progN prog hi s]
  rfl

theorem stepT_progN (prog : Sem.Prog V) {N i : Nat} {s s' : Sem.CState V}
    (h : Sem.StepT prog N i s s') : Sem.StepT (progN prog N) N i s s' := by
  refine ⟨h.1, h.2.1, ?_⟩
  rw [next_progN prog h.1 s]
  exact h.2.2

theorem stepT_of_progN (prog : Sem.Prog V) {N i : Nat} {s s' : Sem.CState V}
    (h : Sem.StepT (progN prog N) N i s s') : Sem.StepT prog N i s s' := by
  refine ⟨h.1, h.2.1, ?_⟩
  rw [← next_progN prog h.1 s]
  exact h.2.2

theorem reach_progN (prog : Sem.Prog V) (N : Nat) {s u : Sem.CState V}
    (h : Sem.Reach prog N s u) : Sem.Reach (progN prog N) N s u := by
  induction h with
  | refl s => exact Sem.Reach.refl s
  | step hst _ ih =>
    match hst with
    | ⟨i, hi⟩ => exact Sem.Reach.step ⟨i, stepT_progN prog hi⟩ ih

theorem reach_of_progN (prog : Sem.Prog V) (N : Nat) {s u : Sem.CState V}
    (h : Sem.Reach (progN prog N) N s u) : Sem.Reach prog N s u := by
  induction h with
  | refl s => exact Sem.Reach.refl s
  | step hst _ ih =>
    match hst with
    | ⟨i, hi⟩ => exact Sem.Reach.step ⟨i, stepT_of_progN prog hi⟩ ih

theorem raceFree_of_progN (prog : Sem.Prog V) (N : Nat) (s0 : Sem.CState V)
    (h : Sem.RaceFree (progN prog N) N s0) : Sem.RaceFree prog N s0 := by
  intro r hr i j hij hi hj hri hrj hc
  rw [← act_progN prog hi r, ← act_progN prog hj r] at hc
  exact h r (reach_progN prog N hr) i j hij hi hj hri hrj hc

theorem barriersFit_of_progN (prog : Sem.Prog V) (N : Nat) (s0 : Sem.CState V)
    (h : Sem.BarriersFit (progN prog N) N s0) : Sem.BarriersFit prog N s0 := by
  intro r hr i j hij hi hj hri hrj
  have e := h r (reach_progN prog N hr) i j hij hi hj hri hrj
  rw [act_progN prog hi r, act_progN prog hj r] at e
  exact e

theorem dataIndep_progN (prog : Sem.Prog V) (N : Nat) {R : Nat → Nat → (Nat → V) → (Nat → V) → Prop}
    (hind : Sem.DataIndep prog R) : Sem.DataIndep (progN prog N) R := by
  intro i pc regs regs' hR
  cases Nat.decLt i N with
  | isTrue hi =>
    rw [progN_lt prog hi, progN_lt prog hi]
    exact hind i pc regs regs' hR
  | isFalse hi =>
    rw [progN_ge prog hi, progN_ge prog hi]
    exact trivial

theorem countsAt_progN (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (N : Nat)
    {mb : Nat → Nat} (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b) :
    Members.CountsAt (progN prog N) regs0 m0 mb := by
  intro t i b n w pc h
  cases Nat.decLt t N with
  | isTrue ht =>
    rw [soloAct_progN prog regs0 m0 ht] at h
    exact ⟨hcnt t i b n w pc ht h, hpos b⟩
  | isFalse ht =>
    rw [soloAct_progN_ge prog regs0 m0 ht] at h
    exact Sem.Act.noConfusion h

end Bridge

/-! ## Pointwise transport of the barrier facts -/

section Congr

open Members (Edge ac arrAt Memb Check3)

theorem ac_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) (b t : Nat) :
    ∀ i, ac a1 b t i = ac a2 b t i
  | 0 => rfl
  | i + 1 => by
    show cond (arrAt b (a1 t i)) (ac a1 b t i + 1) (ac a1 b t i) =
      cond (arrAt b (a2 t i)) (ac a2 b t i + 1) (ac a2 b t i)
    rw [he t i, ac_congr he b t i]

theorem edge_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) {p q : Nat × Nat}
    (h : Edge a1 p q) : Edge a2 p q := by
  cases h with
  | po t i => exact Edge.po t i
  | bar x i y j b wx hx hy hac =>
    rw [he] at hx
    rw [he] at hy
    rw [ac_congr he, ac_congr he] at hac
    exact Edge.bar x i y j b wx hx hy hac

theorem hb_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) {p q : Nat × Nat}
    (h : Members.HB a1 p q) : Members.HB a2 p q := by
  induction h with
  | edge e => exact Members.HB.edge (edge_congr he e)
  | step _ e ih => exact Members.HB.step ih (edge_congr he e)

theorem memb_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) {S : Nat → List Nat}
    (h : Memb a1 S) : Memb a2 S := by
  intro t i b wt ha
  rw [← he] at ha
  exact h t i b wt ha

theorem check3_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i)
    (h : Check3 a1) : Check3 a2 := by
  intro t i i' b wt' h1 h2 hlt hac
  rw [← he] at h1
  rw [← he] at h2
  rw [← ac_congr he, ← ac_congr he] at hac
  match h t i i' b wt' h1 h2 hlt hac with
  | ⟨y, j, hy, hyac, hhb⟩ =>
    rw [he] at hy
    rw [ac_congr he, ac_congr he] at hyac
    exact ⟨y, j, hy, hyac, hb_congr he hhb⟩

end Congr

section Sound

variable {V : Type} [Sem.AccAdd V]

open Members (pendI Drain2 RustCheck3 Sized)

/-- `canonN_ordered_drain` with the order over the threads below `N` (`soloEvB`). -/
theorem canonN_orderedB {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {S : Nat → List Nat} (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false)
    {x y i j : Nat} (hx : x < N) (hy : y < N) (hxy : ¬ x = y)
    (hcf : Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j)) :
    Members.HB (soloEvB prog regs0 m0 N) (x, i) (y, j) ∨
      Members.HB (soloEvB prog regs0 m0 N) (y, j) (x, i) := by
  have hw := canonRunN_notBlocked prog regs0 m0 N B F
  have hf := canonRunN_fromActB prog regs0 m0 N B F
  have hM := Members.memb_of_drain hf hd (canonN_covers hfin) hend
  have hk := Members.kthInst_of_drain hM hf hd
  have hu := checkN_sound hw hc
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
      | inl e => exact False.elim (hxy (EventN.act.inj (List.cons.inj e).1).1)
      | inr s => exact Or.inl (ordered_side hf hw hk hu hxy hcf s hs2)
    | inr s21 =>
      cases s21 with
      | inl e => exact False.elim (hxy (EventN.act.inj (List.cons.inj e).1).1.symm)
      | inr s => exact Or.inr (ordered_side hf hw hk hu (fun e => hxy e.symm)
          (Sem.conflict_symm _ _ hcf) s hs1)

/-- What the run and its checks give about `progN prog N`'s solo sequences: `Memb`,
`Check3`, and `Ordered`. -/
theorem canonN_facts {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {S : Nat → List Nat} (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hr : RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F))
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    Members.Memb (soloEv (progN prog N) regs0 m0) S ∧
      Members.Check3 (soloEv (progN prog N) regs0 m0) ∧
      Members.Ordered (progN prog N) N regs0 m0 := by
  have he := soloEv_progN prog regs0 m0 N
  have hf := canonRunN_fromActB prog regs0 m0 N B F
  have hM := Members.memb_of_drain hf hd (canonN_covers hfin) hend
  have hk := Members.kthInst_of_drain hM hf hd
  refine ⟨memb_congr he hM, check3_congr he (canonN_check3 hfin hk hr), ?_⟩
  intro x y i j hxy hx hy hcf
  rw [soloAct_progN prog regs0 m0 hx, soloAct_progN prog regs0 m0 hy] at hcf
  cases canonN_orderedB hfin hd hend hc hx hy hxy hcf with
  | inl h => exact Or.inl (hb_congr he h)
  | inr h => exact Or.inr (hb_congr he h)

/-- **The executor's named-barrier check is sound for every schedule: race freedom, barriers
fit, confluence.**  For a `DataIndep` program with one positive count `mb b` per id in the solo
traces of the threads below `N`, if the executor's run `canonRunN` (over the solo traces from
`regs0`, `m0`) finishes, its race check reports nothing, it passes check (2) (`Drain2 S`, with
`Sized mb S`) and check (3) (`RustCheck3`) and leaves nothing pending, then from the launch
with any memory `m1`: no race, barriers fit, and any two final states are the same. -/
theorem canonicalN_sound_rfc (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    (hSz : Sized mb S)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hr : RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F))
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) := by
  have hindN := dataIndep_progN prog N hind
  have hC := countsAt_progN prog regs0 m0 N hpos hcnt
  match canonN_facts hfin hd hend hr hc with
  | ⟨hM, h3, hord⟩ =>
    exact ⟨raceFree_of_progN prog N _
        (Members.raceFree_of_ordered (progN prog N) N regs0 m0 m1 R mb S hindN hR0 hC hM hSz h3 hord),
      barriersFit_of_progN prog N _
        (Members.barriersFit_of_once (progN prog N) N regs0 m0 m1 R mb S hindN hR0 hC hM hSz h3),
      fun t1 t2 h1 h2 f1 f2 => Members.confluence_of_once (progN prog N) N regs0 m0 m1 R mb S hindN
        hR0 hC hM hSz h3 hord (reach_progN prog N h1) (reach_progN prog N h2) f1 f2⟩

end Sound

/-! ## No schedule deadlocks: the executor's order, with the exits, is a complete schedule -/

section Exec

open Members (Ev Valid arrs cnt left Pending Mem)

theorem arrs_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) (b : Nat) :
    ∀ (h : List Nat), arrs a1 b h = arrs a2 b h
  | [] => rfl
  | t :: h => by
    show cond (Members.arrAt b (a1 t (cnt t h))) (Members.sn (arrs a1 b h) t) (arrs a1 b h) =
      cond (Members.arrAt b (a2 t (cnt t h))) (Members.sn (arrs a2 b h) t) (arrs a2 b h)
    rw [he t, arrs_congr he b h]

theorem valid_congr {a1 a2 : Nat → Nat → Ev} (he : ∀ t i, a1 t i = a2 t i) (m : Nat → Nat) :
    ∀ (h : List Nat), Valid a1 m h → Valid a2 m h
  | [], _ => trivial
  | t :: h, hv => by
    refine ⟨valid_congr he m h hv.1, ?_⟩
    intro j b hj ha
    rw [← he, ] at ha
    rw [← arrs_congr he b h]
    exact hv.2 j b hj ha

/-- The executor's order followed by the exits of threads `n-1, ..., 0` (latest first). -/
def extH (H : List Nat) : Nat → List Nat
  | 0 => H
  | n + 1 => n :: extH H n

theorem cnt_extH_ge (H : List Nat) (t : Nat) : ∀ (n : Nat), ¬ t < n → cnt t (extH H n) = cnt t H
  | 0, _ => rfl
  | n + 1, ht => by
    have ne : ¬ n = t := fun e => ht (by rw [e]; exact Nat.ltSuccSelf t)
    show cnt t (n :: extH H n) = cnt t H
    rw [Members.cnt_cons_ne _ ne]
    exact cnt_extH_ge H t n (fun hl => ht (Nat.ltTrans hl (Nat.ltSuccSelf n)))

theorem cnt_extH_lt (H : List Nat) {t : Nat} : ∀ (n : Nat), t < n → cnt t (extH H n) = cnt t H + 1
  | 0, ht => False.elim (Nat.notLtZero t ht)
  | n + 1, ht => by
    cases Nat.decEq n t with
    | isTrue e =>
      show cnt t (n :: extH H n) = cnt t H + 1
      rw [e, Members.cnt_cons_self, cnt_extH_ge H t t (Nat.ltIrrefl t)]
    | isFalse e =>
      show cnt t (n :: extH H n) = cnt t H + 1
      rw [Members.cnt_cons_ne _ e]
      cases Nat.eqOrLtOfLe (Nat.leOfLtSucc ht) with
      | inl e2 => exact False.elim (e e2.symm)
      | inr hl => exact cnt_extH_lt H n hl

theorem arrs_extH (act : Nat → Nat → Ev) (b : Nat) (H : List Nat)
    (hl : ∀ t, act t (cnt t H) = Ev.loc) : ∀ (n : Nat), arrs act b (extH H n) = arrs act b H
  | 0 => rfl
  | n + 1 => by
    show arrs act b (n :: extH H n) = arrs act b H
    have e : act n (cnt n (extH H n)) = Ev.loc := by
      rw [cnt_extH_ge H n n (Nat.ltIrrefl n)]
      exact hl n
    rw [Members.arrs_loc act b n _ e]
    exact arrs_extH act b H hl n

theorem valid_extH (act : Nat → Nat → Ev) (m : Nat → Nat) (H : List Nat) (hv : Valid act m H)
    (hl : ∀ t, act t (cnt t H) = Ev.loc)
    (hok : ∀ t j b, cnt t H = j + 1 → act t j = Ev.arr b true →
      ¬ Pending t (left (m b) (fun _ => 0) [] (arrs act b H))) :
    ∀ (n : Nat), Valid act m (extH H n)
  | 0 => hv
  | n + 1 => by
    refine ⟨valid_extH act m H hv hl hok n, ?_⟩
    show ∀ j b, cnt n (extH H n) = j + 1 → act n j = Ev.arr b true →
      ¬ Pending n (left (m b) (fun _ => 0) [] (arrs act b (extH H n)))
    intro j b hj ha
    rw [cnt_extH_ge H n n (Nat.ltIrrefl n)] at hj
    rw [arrs_extH act b H hl n]
    exact hok n j b hj ha

theorem mem_extH {N : Nat} (H : List Nat) (hH : ∀ t, Mem t H → t < N) :
    ∀ (n : Nat), n ≤ N → ∀ t, Mem t (extH H n) → t < N
  | 0, _, t, ht => hH t ht
  | n + 1, hn, t, ht => by
    cases ht with
    | inl e => rw [← e]; exact hn
    | inr ht' => exact mem_extH H hH n (Nat.leTrans (Nat.leSucc n) hn) t ht'

end Exec

section ExecRun

variable {V : Type} [Sem.AccAdd V]

open Members (Ev Valid arrs cnt left Pending Mem nEv)

theorem mem_sched {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat} :
    ∀ (h : List (EventN V)), FromSolo prog regs0 m0 N h → ∀ t, Mem t (sched h) → t < N
  | [], _, t, ht => False.elim ht
  | EventN.act u A :: h, hf, t, ht => by
    cases ht with
    | inl e => rw [← e]; exact hf.2.1
    | inr ht' => exact mem_sched h hf.1 t ht'
  | EventN.bar u b w :: h, hf, t, ht => by
    cases ht with
    | inl e => rw [← e]; exact hf.2.1
    | inr ht' => exact mem_sched h hf.1 t ht'
  | EventN.complete b m :: h, hf, t, ht => mem_sched h hf t ht

theorem ltSucc_or {i c : Nat} (h : i < c + 1) : i < c ∨ i = c := by
  cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
  | inl e => exact Or.inr e
  | inr hl => exact Or.inl hl

/-- Before its count in the executor's order, no action of a thread is its exit. -/
theorem noExit_sched {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {N : Nat} :
    ∀ (h : List (EventN V)), FromSolo prog regs0 m0 N h → ∀ t i, i < cnt t (sched h) →
      isExitA (Sem.soloAct prog regs0 m0 t i) = false
  | [], _, t, i, hi => False.elim (Nat.notLtZero i hi)
  | EventN.act u A :: h, hf, t, i, hi => by
    have hi' : i < cnt t (u :: sched h) := hi
    cases Nat.decEq u t with
    | isTrue e =>
      rw [e, Members.cnt_cons_self] at hi'
      cases ltSucc_or hi' with
      | inl hl => exact noExit_sched h hf.1 t i hl
      | inr e2 =>
        have x := hf.2.2.1
        rw [e, ← cnt_sched t h, ← e2] at x
        exact x
    | isFalse e =>
      rw [Members.cnt_cons_ne _ e] at hi'
      exact noExit_sched h hf.1 t i hi'
  | EventN.bar u b w :: h, hf, t, i, hi => by
    have hi' : i < cnt t (u :: sched h) := hi
    cases Nat.decEq u t with
    | isTrue e =>
      rw [e, Members.cnt_cons_self] at hi'
      cases ltSucc_or hi' with
      | inl hl => exact noExit_sched h hf.1 t i hl
      | inr e2 =>
        have x := hf.2.2.1
        rw [e, ← cnt_sched t h, ← e2] at x
        exact x
    | isFalse e =>
      rw [Members.cnt_cons_ne _ e] at hi'
      exact noExit_sched h hf.1 t i hi'
  | EventN.complete b m :: h, hf, t, i, hi => noExit_sched h hf t i hi

theorem lenL_pos_of_in {α : Type} {x : α} : ∀ {l : List α}, In x l → 0 < lenL l
  | [], h => False.elim h
  | _ :: l, _ => Nat.zeroLtSucc _

/-- At the end of a run that leaves nothing pending, no thread is blocked. -/
theorem notBlocked_end {N : Nat} {H : List (EventN V)} (hend : ∀ b, Members.pendI H b = [])
    (t : Nat) : ¬ Blocked (brun N H) t := by
  intro hb
  match pw_of_blocked hb with
  | ⟨b, hin⟩ =>
    have p := lenL_pos_of_in hin
    rw [← lenL_pendI H b, hend b] at p
    exact Nat.ltIrrefl 0 p

end ExecRun

section SemExit

variable {V : Type} [Sem.AccAdd V]

open Members (cnt)

theorem newT_exited {A : Sem.Act V} {f : Bool} {x : Sem.TState V} {mem : Nat → V}
    (h : (Sem.newT A f x mem).status = Sem.Status.exited) : A = Sem.Act.exit := by
  cases A with
  | exit => rfl
  | compute pc r => exact Sem.Status.noConfusion h
  | read a r pc => exact Sem.Status.noConfusion h
  | write a v pc => exact Sem.Status.noConfusion h
  | atomAdd a v pc => exact Sem.Status.noConfusion h
  | arrive b n w pc =>
    cases f with
    | true => exact Sem.Status.noConfusion h
    | false =>
      cases w with
      | true => exact Sem.Status.noConfusion h
      | false => exact Sem.Status.noConfusion h

theorem effOther_exited {A : Sem.Act V} {f : Bool} {x : Sem.TState V}
    (h : (Sem.effOther A f x).status = Sem.Status.exited) : x.status = Sem.Status.exited := by
  cases A with
  | arrive b n w pc =>
    cases f with
    | false => exact h
    | true =>
      have h' : (cond (Sem.waiting b x.status) { x with status := Sem.Status.run } x).status =
        Sem.Status.exited := h
      cases hw : Sem.waiting b x.status with
      | true => rw [hw] at h'; exact Sem.Status.noConfusion h'
      | false => rw [hw] at h'; exact h'
  | exit => exact h
  | compute pc r => exact h
  | read a r pc => exact h
  | write a v pc => exact h
  | atomAdd a v pc => exact h

theorem actRel_exit {R : Nat → (Nat → V) → (Nat → V) → Prop} {r r' : Nat → V} {B : Sem.Act V}
    (h : Sem.ActRel R r r' Sem.Act.exit B) : B = Sem.Act.exit := by
  cases B with
  | exit => rfl
  | compute pc r => exact False.elim h
  | read a r pc => exact False.elim h
  | write a v pc => exact False.elim h
  | atomAdd a v pc => exact False.elim h
  | arrive b n w pc => exact False.elim h

/-- **An exited thread's last action was its solo `exit`.** -/
theorem exited_inv (prog : Sem.Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (m : Nat → Nat)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (hC : Members.CountsAt prog regs0 m0 m) {h : List Nat} {s : Sem.CState V}
    (hs : Members.Sched prog N (Sem.init regs0 m1) h s) :
    ∀ t, t < N → (s.th t).status = Sem.Status.exited →
      ∃ j, cnt t h = j + 1 ∧ Sem.soloAct prog regs0 m0 t j = Sem.Act.exit := by
  induction hs with
  | nil => intro t _ he; exact Sem.Status.noConfusion he
  | @cons h0 s0 s1 u hs' hst ih =>
    intro t ht he
    rw [hst.2.2.1 t] at he
    cases Nat.decEq u t with
    | isTrue e =>
      rw [← e] at he ht
      rw [← e]
      have e2 : (Sem.next prog N u s0).th u = Sem.newT (Sem.act prog u s0)
          (Sem.firesA N (Sem.act prog u s0) s0) (s0.th u) s0.mem :=
        Sem.upd_same (fun k => Sem.effOther (Sem.act prog u s0) (Sem.firesA N (Sem.act prog u s0) s0) (s0.th k)) u (Sem.newT (Sem.act prog u s0) (Sem.firesA N (Sem.act prog u s0) s0) (s0.th u) s0.mem)
      rw [e2] at he
      have hA := newT_exited he
      have H := Members.hinv_sched prog N regs0 m0 m1 R m hind hR0 hC hs'
      have hr := (Members.hinv_common prog N regs0 m0 R m hind ht hst.2.1 H).2.1
      rw [hA] at hr
      exact ⟨cnt u h0, Members.cnt_cons_self u h0, actRel_exit hr⟩
    | isFalse e =>
      have e2 : (Sem.next prog N u s0).th t = Sem.effOther (Sem.act prog u s0)
          (Sem.firesA N (Sem.act prog u s0) s0) (s0.th t) :=
        Sem.upd_other (fun k => Sem.effOther (Sem.act prog u s0) (Sem.firesA N (Sem.act prog u s0) s0) (s0.th k)) (Sem.newT (Sem.act prog u s0) (Sem.firesA N (Sem.act prog u s0) s0) (s0.th u) s0.mem) (fun h => e h.symm)
      rw [e2] at he
      match ih t ht (effOther_exited he) with
      | ⟨j, hj, hx⟩ => exact ⟨j, by rw [Members.cnt_cons_ne h0 e]; exact hj, hx⟩

end SemExit

section Deadlock

variable {V : Type} [Sem.AccAdd V]

open Members (pendI Drain2 RustCheck3 Sized cnt Valid)

/-- **No schedule deadlocks.**  Under the hypotheses of `canonicalN_sound_rfc`, every state
reachable from the launch (any memory `m1`) in which no thread can step has every thread
exited.  The executor's own thread order followed by each thread's exit is a `Complete`
schedule (`step_ok`: at the end of the run, nothing pending, no thread is blocked); a stuck
`Sem` state has a valid history (`valid_of_reach`) in which a waiting thread has not reached
its exit; `Members.progress` gives a thread that can step in it, which is neither running
(the state is stuck), nor waiting (its arrival is pending, `valid_of_reach`), nor exited
(`exited_inv`, `noExit_sched`: it would have done more than its count). -/
theorem canonicalN_noStuck (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    (hSz : Sized mb S)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hr : RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F))
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    ∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r := by
  have he := soloEv_progN prog regs0 m0 N
  have hindN := dataIndep_progN prog N hind
  have hC := countsAt_progN prog regs0 m0 N hpos hcnt
  have hfs := canonRunN_fromSolo prog regs0 m0 N B F
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
      rw [soloAct_progN_ge prog regs0 m0 ht]
      rfl
  have hok : ∀ t j b, cnt t (sched (canonRunN prog regs0 m0 N B F)) = j + 1 →
      soloEv (progN prog N) regs0 m0 t j = Ev.arr b true →
      ¬ Members.Pending t (Members.left (mb b) (fun _ => 0) []
        (Members.arrs (soloEv (progN prog N) regs0 m0) b (sched (canonRunN prog regs0 m0 N B F)))) := by
    intro t j b hj ha
    rw [← he] at ha
    rw [← arrs_congr he b]
    exact step_ok (N := N) hpos (canonRunN_fromActB prog regs0 m0 N B F)
      (cb_of hcnt _ hfs (canonRunN_compOK prog regs0 m0 N B F)) (notBlocked_end hend t) j b hj ha
  have hComp : Members.Complete (soloEv (progN prog N) regs0 m0) mb
      (fun t => cnt t (extH (sched (canonRunN prog regs0 m0 N B F)) N)) N
      (extH (sched (canonRunN prog regs0 m0 N B F)) N) :=
    ⟨valid_extH _ mb _ (valid_congr he mb _ hV.1) hl hok N,
      ⟨mem_extH _ (mem_sched _ hfs) N (Nat.leRefl N), fun t => Nat.leRefl _⟩, fun t _ => rfl⟩
  match canonN_facts hfin hd hend hr hc with
  | ⟨hM, h3, _⟩ =>
  intro r hrr hst k hk
  match Members.valid_of_reach (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC
    (reach_progN prog N hrr) with
  | ⟨h, hs, hv, _, hth⟩ =>
  have norun : ∀ t, t < N → (r.th t).status = Sem.Status.run → False :=
    fun t ht hrun => hst _ ⟨t, ht, hrun, Sem.same_refl _⟩
  cases hk' : (r.th k).status with
  | exited => rfl
  | run => exact False.elim (norun k hk hk')
  | bar b =>
    match (hth k hk).2.1 b hk' with
    | ⟨j, hj, ha, _⟩ =>
      have hjlt : j < cnt k (sched (canonRunN prog regs0 m0 N B F)) := by
        cases Nat.ltOrGe j (cnt k (sched (canonRunN prog regs0 m0 N B F))) with
        | inl l => exact l
        | inr g =>
          match Nat.le.dest g with
          | ⟨d, e⟩ =>
            have x := soloAct_exit (progN prog N) regs0 m0 k _
              (by rw [soloAct_progN prog regs0 m0 hk]; exact hx k hk) d
            rw [e] at x
            have y : soloEv (progN prog N) regs0 m0 k j = Ev.loc := by
              show evOf (Sem.soloAct (progN prog N) regs0 m0 k j) = Ev.loc
              rw [x]
              rfl
            rw [y] at ha
            exact Ev.noConfusion ha
      have hnd : cnt k h < cnt k (extH (sched (canonRunN prog regs0 m0 N B F)) N) := by
        rw [cnt_extH_lt _ N hk, hj]
        exact Nat.succLeSucc hjlt
      match Members.progress _ mb S hM hSz h3 hComp h hv hk hnd with
      | ⟨t, ht, hlt, hv'⟩ =>
        cases ht' : (r.th t).status with
        | run => exact False.elim (norun t ht ht')
        | bar b' =>
          match (hth t ht).2.1 b' ht' with
          | ⟨j', hj', ha', hp'⟩ => exact False.elim (hv'.2 j' b' hj' ha' hp')
        | exited =>
          match exited_inv (progN prog N) N regs0 m0 m1 R mb hindN hR0 hC hs t ht ht' with
          | ⟨j', hj', hx'⟩ =>
            have hge : cnt t (sched (canonRunN prog regs0 m0 N B F)) ≤ j' := by
              cases Nat.ltOrGe j' (cnt t (sched (canonRunN prog regs0 m0 N B F))) with
              | inl l =>
                have y := noExit_sched _ hfs t j' l
                rw [soloAct_progN prog regs0 m0 ht] at hx'
                rw [hx'] at y
                exact Bool.noConfusion y
              | inr g => exact g
            rw [cnt_extH_lt _ N ht, hj'] at hlt
            exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLtOfLe hlt (Nat.succLeSucc hge)))

/-- **The executor's named-barrier check is sound for every schedule** (the named-barrier
`canonical_check_sound`).  For a `DataIndep` program (`R i 0 (regs0 i) (regs0 i)`) whose solo
arrivals of the threads below `N` at id `b` all have count `mb b > 0`: if the executor's run
`canonRunN prog regs0 m0 N B F` finishes (`FinishedN`), its race check reports nothing
(`checkN noSameN N .. = false`), it passes check (2) (`Drain2 S`, `Sized mb S`) and check (3)
(`RustCheck3`), and leaves no arrival pending, then from the launch with any memory `m1`:
(a) no race, (b) barriers fit, (c) any two final states are the same, (d) every reachable
state where no thread can step has every thread exited. -/
theorem canonicalN_check_sound (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    (hSz : Sized mb S)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hr : RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F))
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) :=
  match canonicalN_sound_rfc prog N B F regs0 m0 m1 R hind hR0 mb S hpos hcnt hSz hfin hd hend hr hc with
  | ⟨a, b, c⟩ =>
    ⟨a, b, c, canonicalN_noStuck prog N B F regs0 m0 m1 R hind hR0 mb S hpos hcnt hSz hfin hd hend hr hc⟩

end Deadlock

/-! ## One count per id, from the run and its count check -/

section Counts

variable {V : Type} [Sem.AccAdd V]

open Members (pendI Drain2 Sized cnt Mem Nodup memB cntP Sfx nEv)

/-- The threads of a list of arrivals. -/
def fstsP : List (Nat × Nat) → List Nat
  | [] => []
  | x :: l => x.1 :: fstsP l

theorem cnt_fstsP (u : Nat) : ∀ (l : List (Nat × Nat)), cnt u (fstsP l) = cntP u l
  | [] => rfl
  | x :: l => by
    show (if x.1 = u then cnt u (fstsP l) + 1 else cnt u (fstsP l)) =
      (if x.1 = u then cntP u l + 1 else cntP u l)
    rw [cnt_fstsP u l]

theorem len_fstsP : ∀ (l : List (Nat × Nat)), Members.len (fstsP l) = lenL l
  | [] => rfl
  | x :: l => by
    show Members.len (fstsP l) + 1 = lenL l + 1
    rw [len_fstsP l]

theorem cnt_nodup (u : Nat) : ∀ (Sb : List Nat), Nodup Sb → cnt u Sb = cond (memB u Sb) 1 0
  | [], _ => rfl
  | x :: l, hnd => by
    show (if x = u then cnt u l + 1 else cnt u l) = cond (decide (x = u) || memB u l) 1 0
    cases Nat.decEq x u with
    | isTrue e =>
      rw [if_pos' e, decide_eq_true' e]
      have z : cnt u l = 0 := Members.cnt_zero_of l (by rw [← e]; exact hnd.1)
      rw [z]
      rfl
    | isFalse e =>
      rw [if_neg' e, decide_eq_false' e]
      exact cnt_nodup u l hnd.2

theorem len_drained {Sb : List Nat} (hnd : Nodup Sb) (l : List (Nat × Nat))
    (h : ∀ u, cntP u l = cond (memB u Sb) 1 0) : lenL l = Members.len Sb := by
  rw [← len_fstsP l]
  exact Members.len_of_cnt (fstsP l) Sb (fun u => by rw [cnt_fstsP, h u, cnt_nodup u Sb hnd])

theorem lenL_takeL {α : Type} : ∀ (m : Nat) (l : List α), m ≤ lenL l → lenL (takeL m l) = m
  | 0, _, _ => rfl
  | m + 1, [], h => False.elim (Nat.notSuccLeZero m h)
  | m + 1, _ :: l, h => by
    show lenL (takeL m l) + 1 = m + 1
    rw [lenL_takeL m l (Nat.leOfSuccLeSucc h)]

theorem compOK_tail {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    (e : EventN V) (l : List (EventN V)) (h : CompOK prog regs0 m0 (e :: l)) :
    CompOK prog regs0 m0 l := by
  cases e with
  | act t A => exact h
  | bar t b w => exact h
  | complete b m => exact h.1

theorem drain2_tail {S : Nat → List Nat} (e : EventN V) (l : List (EventN V))
    (h : Drain2 S (e :: l)) : Drain2 S l := by
  cases e with
  | act t A => exact h
  | bar t b w => exact h
  | complete b m => exact h.1

/-- The Rust's count check (`resolve_barriers`: "barrier used with different thread counts",
a `BarrierDivergence`) over the run: every arrival a completion drains has the count of the
completion (the first pending arrival's). -/
def CountsOK (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (H : List (EventN V)) :
    Prop :=
  ∀ b m hc, Sfx (EventN.complete b m :: hc) H → ∀ x, In x (takeL m (pendI hc b)) →
    cntOf prog regs0 m0 x = m

/-- **One count per id from the run and its checks**: if the run finishes, passes check (2)
(`Drain2 S`, `Sized mb S`), the count check (`CountsOK`) and leaves nothing pending, every solo
arrival at `b` of a thread below `N` has count `mb b`. -/
theorem canonN_counts {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {S : Nat → List Nat} {mb : Nat → Nat} (hSz : Sized mb S)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hco : CountsOK prog regs0 m0 (canonRunN prog regs0 m0 N B F)) :
    ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b := by
  intro t i b n w pc ht ha
  have hf := canonRunN_fromActB prog regs0 m0 N B F
  have hev : soloEvB prog regs0 m0 N t i = Ev.arr b w := by
    rw [soloEvB_lt ht]
    show evOf (Sem.soloAct prog regs0 m0 t i) = Ev.arr b w
    rw [ha]
    rfl
  match Members.find_ev _ i (canonN_covers hfin t i b w hev) with
  | ⟨e, h, hs, hac, hn⟩ =>
    have hf1 : Members.FromAct (soloEvB prog regs0 m0 N) (e :: h) :=
      Members.sfx_pres Members.fromAct_tail _ _ hs hf
    have hact' : soloEvB prog regs0 m0 N t (nEv t h) = Ev.arr b w := by rw [hn]; exact hev
    have ee : e = EventN.bar t b w := Members.ev_bar hf1 hac hact'
    rw [ee] at hs
    have hx : In (t, i) (pendI (EventN.bar t b w :: h) b) := by
      show In (t, i) (Sem.upd (pendI h) b (snocL (pendI h b) (t, nEv t h)) b)
      rw [upd_same, hn]
      exact in_snocL_self (t, i) (pendI h b)
    cases Members.pend_track _ _ hs hx with
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
        have hok := Members.sfx_pres compOK_tail _ _ hs2 (canonRunN_compOK prog regs0 m0 N B F)
        have hd2 := Members.sfx_pres drain2_tail _ _ hs2 hd
        have l1 := lenL_takeL m (pendI hc b) hok.2.2.2
        have l2 := len_drained (hSz b).2 _ hd2.2
        rw [← c2, c1, ← l1, l2]
        exact (hSz b).1

/-- **`canonicalN_check_sound` with the one-count hypothesis replaced by the run's count
check**: instead of `hcnt`, the run passes `CountsOK` (every drained arrival has its
completion's count); `0 < mb b` stays (with `Sized mb S`, a choice of `S` at ids never used). -/
theorem canonicalN_check_sound_counts (prog : Sem.Prog V) (N B F : Nat) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hSz : Sized mb S)
    (hfin : FinishedN prog regs0 m0 N B F = true)
    (hd : Drain2 S (canonRunN prog regs0 m0 N B F))
    (hend : ∀ b, pendI (canonRunN prog regs0 m0 N B F) b = [])
    (hco : CountsOK prog regs0 m0 (canonRunN prog regs0 m0 N B F))
    (hr : Members.RustCheck3 N (soloEvB prog regs0 m0 N) (canonRunN prog regs0 m0 N B F))
    (hc : checkN noSameN N (canonRunN prog regs0 m0 N B F) = false) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prog N (Sem.init regs0 m1) r → (∀ v, Sem.Step prog N r v → False) →
      Sem.Final N r) :=
  canonicalN_check_sound prog N B F regs0 m0 m1 R hind hR0 mb S hpos
    (canonN_counts hSz hfin hd hend hco) hSz hfin hd hend hr hc

theorem in_of_in_takeL {α : Type} {x : α} : ∀ (m : Nat) (l : List α), In x (takeL m l) → In x l
  | 0, _, h => False.elim h
  | _ + 1, [], h => False.elim h
  | m + 1, y :: l, h => by
    cases h with
    | inl e => exact Or.inl e
    | inr h' => exact Or.inr (in_of_in_takeL m l h')

theorem cntOf_arrive {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {p : Nat × Nat}
    {b n : Nat} {w : Bool} {pc : Nat} (h : Sem.soloAct prog regs0 m0 p.1 p.2 = Sem.Act.arrive b n w pc) :
    cntOf prog regs0 m0 p = n := by
  show (match Sem.soloAct prog regs0 m0 p.1 p.2 with
    | Sem.Act.arrive _ n _ _ => n
    | _ => 0) = n
  rw [h]

/-- Conversely, with one count per id the count check passes (so `canonicalN_check_sound_counts`
is no weaker than `canonicalN_check_sound`). -/
theorem countsOK_of_cnt {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B F : Nat} {mb : Nat → Nat}
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b) :
    CountsOK prog regs0 m0 (canonRunN prog regs0 m0 N B F) := by
  intro b m hc hs x hx
  have hf := Members.sfx_pres fromSolo_tail
    _ _ hs (canonRunN_fromSolo prog regs0 m0 N B F)
  have hok := Members.sfx_pres compOK_tail _ _ hs (canonRunN_compOK prog regs0 m0 N B F)
  have cnt_in : ∀ p, In p (pendI hc b) → cntOf prog regs0 m0 p = mb b := by
    intro p hp
    match pendSolo hc hf b p hp with
    | ⟨hpN, n, w, pc, he⟩ => rw [cntOf_arrive he]; exact hcnt _ _ _ _ _ _ hpN he
  rw [cnt_in x (in_of_in_takeL m _ hx), hok.2.2.1]
  cases e : pendI hc b with
  | nil =>
    have h0 : 0 < lenL (pendI hc b) := hok.2.1
    rw [e] at h0
    exact False.elim (Nat.ltIrrefl 0 h0)
  | cons p l =>
    show mb b = cntOf prog regs0 m0 p
    rw [cnt_in p (by rw [e]; exact Or.inl rfl)]

end Counts

/-! ## Not vacuous: the producer/consumer of `ScheduleNamed.lean` -/

section Example

theorem actRel_self {V : Type} {R : Nat → (Nat → V) → (Nat → V) → Prop} (hR : ∀ pc a b, R pc a b)
    (r r' : Nat → V) : ∀ (A : Sem.Act V), Sem.ActRel R r r' A A
  | Sem.Act.compute pc x => ⟨rfl, hR _ _ _⟩
  | Sem.Act.read a x pc => ⟨rfl, rfl, rfl, fun _ _ => hR _ _ _⟩
  | Sem.Act.write a v pc => ⟨rfl, rfl, hR _ _ _⟩
  | Sem.Act.atomAdd a v pc => ⟨rfl, rfl, hR _ _ _⟩
  | Sem.Act.arrive b n w pc => ⟨rfl, rfl, rfl, rfl, hR _ _ _⟩
  | Sem.Act.exit => trivial

/-- The producer/consumer reads no register: data independent for the trivial relation. -/
theorem prodCons_dataIndep : Sem.DataIndep prodCons (fun _ _ _ _ => True) := by
  intro i pc regs regs' _
  exact actRel_self (fun _ _ _ => trivial) regs regs' (prodCons i pc regs)

/-- **`canonicalN_check_sound` applies to the producer/consumer** (thread 0: `st [0];
bar.arrive 1, 2; bar.sync 2, 2; ld [1]; exit`, thread 1: `bar.sync 1, 2; ld [0]; st [1];
bar.arrive 2, 2; exit`), every hypothesis evaluated on its run: for every initial memory, no
race, barriers fit, confluence, no deadlock. -/
theorem prodCons_sound (m1 : Nat → Nat) :
    Sem.RaceFree prodCons 2 (Sem.init (fun _ _ => 0) m1) ∧
    Sem.BarriersFit prodCons 2 (Sem.init (fun _ _ => 0) m1) ∧
    (∀ t1 t2, Sem.Reach prodCons 2 (Sem.init (fun _ _ => 0) m1) t1 →
      Sem.Reach prodCons 2 (Sem.init (fun _ _ => 0) m1) t2 →
      Sem.Final 2 t1 → Sem.Final 2 t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prodCons 2 (Sem.init (fun _ _ => 0) m1) r →
      (∀ v, Sem.Step prodCons 2 r v → False) → Sem.Final 2 r) :=
  by
  have h := @canonicalN_check_sound Nat _ prodCons 2 3 8 (fun _ _ => 0) (fun _ => 0) m1
    (fun _ _ _ _ => True) prodCons_dataIndep (fun _ => trivial) (fun _ => 2) (fun _ => [0, 1])
    (fun _ => Nat.zeroLtSucc 1) prodCons_cnt Members.pc_sized prodCons_finished
  have h2 := h prodCons_drain
  have h3 := h2 prodCons_end
  have h4 := h3 prodCons_rust3
  exact h4 prodCons_check

/-- The run of the producer/consumer passes the count check. -/
theorem prodCons_countsOK :
    CountsOK prodCons (fun _ _ => 0) (fun _ => 0) (canonRunN prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8) :=
  countsOK_of_cnt (mb := fun _ => 2) prodCons_cnt

/-- And `canonicalN_check_sound_counts` applies to it. -/
theorem prodCons_sound_counts (m1 : Nat → Nat) :
    Sem.RaceFree prodCons 2 (Sem.init (fun _ _ => 0) m1) ∧
    Sem.BarriersFit prodCons 2 (Sem.init (fun _ _ => 0) m1) ∧
    (∀ t1 t2, Sem.Reach prodCons 2 (Sem.init (fun _ _ => 0) m1) t1 →
      Sem.Reach prodCons 2 (Sem.init (fun _ _ => 0) m1) t2 →
      Sem.Final 2 t1 → Sem.Final 2 t2 → Sem.Same t1 t2) ∧
    (∀ r, Sem.Reach prodCons 2 (Sem.init (fun _ _ => 0) m1) r →
      (∀ v, Sem.Step prodCons 2 r v → False) → Sem.Final 2 r) :=
  by
  have h := @canonicalN_check_sound_counts Nat _ prodCons 2 3 8 (fun _ _ => 0) (fun _ => 0) m1
    (fun _ _ _ _ => True) prodCons_dataIndep (fun _ => trivial) (fun _ => 2) (fun _ => [0, 1])
    (fun _ => Nat.zeroLtSucc 1) Members.pc_sized prodCons_finished
  have h2 := h prodCons_drain
  have h3 := h2 prodCons_end
  have h4 := h3 prodCons_countsOK
  have h5 := h4 prodCons_rust3
  exact h5 prodCons_check

end Example

end Race
end Kcert
