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

end Race
end Kcert
