import Kcert.WarpRaceRun

/-!
# The race check with warp collectives: any history of the view

`NamedSound.lean`'s `canonicalN_sound_rfc` is stated for the executor's named-barrier run
`canonRunN`; its proof uses only that the run is made of the solo traces (`FromSolo`), follows
the executor's discipline (`NotBlocked`) and ends with every thread at its exit (`allExited`).
Here the same theorem for EVERY history with these properties (`Race.histN_sound`), and so the
race check with warp collectives for every such history of the view
(`WarpRace.warp_hist_sound`).  The Rust's run with collectives orders events differently from
`canonRunN` of the view (a lane blocks at a `shfl` until its lanes arrive, `resolve_warps`
completes instances before `resolve_barriers`), but it is a history of the view with these
properties; its verdict then covers every schedule whatever the order.
-/

namespace Kcert
namespace Race

open Sem (Act)
open Members (nEv FromAct PosAt pendI KthInst Covers soloEv evOf Ev Sfx sfx_pres find_ev
  Drain2 RustCheck3 Sized)

section Hist

variable {V : Type} [Sem.AccAdd V]

theorem lt_nEv_of_doneH {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N : Nat} {H : List (EventN V)} (hfin : allExited prog regs0 m0 N H = true) {t i : Nat}
    (ht : t < N) (hi : isExitA (Sem.soloAct prog regs0 m0 t i) = false) : i < nEv t H := by
  have hx := isExitA_true (allB_of hfin t ht)
  cases Nat.ltOrGe i (nEv t H) with
  | inl hl => exact hl
  | inr hge =>
    match Nat.le.dest hge with
    | ⟨d, hd⟩ =>
      have e := soloAct_exit prog regs0 m0 t _ hx d
      rw [hd] at e
      rw [e] at hi
      cases hi

theorem holdsH {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N : Nat} {H : List (EventN V)} (hfs : FromSolo prog regs0 m0 N H)
    (hfin : allExited prog regs0 m0 N H = true) {t i : Nat} (ht : t < N)
    (hi : isExitA (Sem.soloAct prog regs0 m0 t i) = false) :
    ∃ e h, Sfx (e :: h) H ∧ e = evN t (Sem.soloAct prog regs0 m0 t i) ∧ nEv t h = i := by
  match find_ev _ i (lt_nEv_of_doneH hfin ht hi) with
  | ⟨e, h, hs, ha, hn⟩ =>
    have hf : FromSolo prog regs0 m0 N (e :: h) := sfx_pres fromSolo_tail _ _ hs hfs
    refine ⟨e, h, hs, ?_, hn⟩
    rw [← hn]
    cases e with
    | act u A =>
      have eu : u = t := ha
      subst eu
      exact Eq.symm hf.2.2.2
    | bar u b w =>
      have eu : u = t := ha
      subst eu
      exact Eq.symm hf.2.2.2
    | complete b m => exact False.elim ha

theorem coversH {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N : Nat} {H : List (EventN V)} (hfin : allExited prog regs0 m0 N H = true) :
    Covers (soloEvB prog regs0 m0 N) H := by
  intro t i b w ha
  cases Nat.decLt t N with
  | isTrue ht =>
    rw [soloEvB_lt ht] at ha
    exact lt_nEv_of_doneH hfin ht (isExitA_of_arr ha)
  | isFalse ht =>
    have e : soloEvB prog regs0 m0 N t i = Ev.loc := by
      show cond (decide (t < N)) (soloEv prog regs0 m0 t i) Ev.loc = Ev.loc
      rw [decide_eq_false' ht]; rfl
    rw [e] at ha
    exact Ev.noConfusion ha

theorem orderedBH {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N : Nat} {H : List (EventN V)} {S : Nat → List Nat} (hfs : FromSolo prog regs0 m0 N H)
    (hw : NotBlocked N H) (hfin : allExited prog regs0 m0 N H = true) (hd : Drain2 S H)
    (hend : ∀ b, pendI H b = []) (hc : checkN noSameN N H = false)
    {x y i j : Nat} (hx : x < N) (hy : y < N) (hxy : ¬ x = y)
    (hcf : Sem.Conflict (Sem.soloAct prog regs0 m0 x i) (Sem.soloAct prog regs0 m0 y j)) :
    Members.HB (soloEvB prog regs0 m0 N) (x, i) (y, j) ∨
      Members.HB (soloEvB prog regs0 m0 N) (y, j) (x, i) := by
  have hf := (fromAct_of_fromSolo _ hfs).2
  have hM := Members.memb_of_drain hf hd (coversH hfin) hend
  have hk := Members.kthInst_of_drain hM hf hd
  have hu := checkN_sound hw hc
  have cl := conflict_left hcf x
  have cr := conflict_right hcf y
  match holdsH hfs hfin hx cl.2, holdsH hfs hfin hy cr.2 with
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

theorem factsH {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N : Nat} {H : List (EventN V)} {S : Nat → List Nat} (hfs : FromSolo prog regs0 m0 N H)
    (hw : NotBlocked N H) (hfin : allExited prog regs0 m0 N H = true) (hd : Drain2 S H)
    (hend : ∀ b, pendI H b = []) (hr : RustCheck3 N (soloEvB prog regs0 m0 N) H)
    (hc : checkN noSameN N H = false) :
    Members.Memb (soloEv (progN prog N) regs0 m0) S ∧
      Members.Check3 (soloEv (progN prog N) regs0 m0) ∧
      Members.Ordered (progN prog N) N regs0 m0 := by
  have he := soloEv_progN prog regs0 m0 N
  have hf := (fromAct_of_fromSolo _ hfs).2
  have hM := Members.memb_of_drain hf hd (coversH hfin) hend
  have hk := Members.kthInst_of_drain hM hf hd
  refine ⟨memb_congr he hM, check3_congr he (Members.check3_of_rust hf hw hk (coversH hfin) hr), ?_⟩
  intro x y i j hxy hx hy hcf
  rw [soloAct_progN prog regs0 m0 hx, soloAct_progN prog regs0 m0 hy] at hcf
  cases orderedBH hfs hw hfin hd hend hc hx hy hxy hcf with
  | inl h => exact Or.inl (hb_congr he h)
  | inr h => exact Or.inr (hb_congr he h)

/-- **The named-barrier check is sound on every history of the solo traces, not only the
executor's `canonRunN`.**  For a `DataIndep` program with one positive count `mb b` per id in
the solo traces of the threads below `N`, if a history `H` is made of the solo traces
(`FromSolo`), follows the executor's discipline (`NotBlocked`), ends with every thread below
`N` at its exit, passes checks (2) and (3) and leaves nothing pending, and the race check reports
nothing on it, then from the launch with any memory: no race, barriers fit, and any two final
states are the same. -/
theorem histN_sound (prog : Sem.Prog V) (N : Nat) (H : List (EventN V)) (regs0 : Nat → Nat → V)
    (m0 m1 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hind : Sem.DataIndep prog R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i))
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc → n = mb b)
    (hSz : Sized mb S) (hfs : FromSolo prog regs0 m0 N H) (hw : NotBlocked N H)
    (hfin : allExited prog regs0 m0 N H = true) (hd : Drain2 S H)
    (hend : ∀ b, pendI H b = []) (hr : RustCheck3 N (soloEvB prog regs0 m0 N) H)
    (hc : checkN noSameN N H = false) :
    Sem.RaceFree prog N (Sem.init regs0 m1) ∧ Sem.BarriersFit prog N (Sem.init regs0 m1) ∧
    (∀ t1 t2, Sem.Reach prog N (Sem.init regs0 m1) t1 → Sem.Reach prog N (Sem.init regs0 m1) t2 →
      Sem.Final N t1 → Sem.Final N t2 → Sem.Same t1 t2) := by
  have hindN := dataIndep_progN prog N hind
  have hC := countsAt_progN prog regs0 m0 N hpos hcnt
  match factsH hfs hw hfin hd hend hr hc with
  | ⟨hM, h3, hord⟩ =>
    exact ⟨raceFree_of_progN prog N _
        (Members.raceFree_of_ordered (progN prog N) N regs0 m0 m1 R mb S hindN hR0 hC hM hSz h3 hord),
      barriersFit_of_progN prog N _
        (Members.barriersFit_of_once (progN prog N) N regs0 m0 m1 R mb S hindN hR0 hC hM hSz h3),
      fun t1 t2 h1 h2 f1 f2 => Members.confluence_of_once (progN prog N) N regs0 m0 m1 R mb S hindN
        hR0 hC hM hSz h3 hord (reach_progN prog N h1) (reach_progN prog N h2) f1 f2⟩

end Hist

end Race

namespace WarpRace

open Sem
open Warp

section Hist

variable {V : Type} [AccAdd V]

/-- **The check with warp collectives on any history of the view.**  Under `WDataIndep`,
`BaseIds`, `CollOwnSolo` and one positive count `mb b` per id in the view's solo traces (for
`bar.warp.sync` instances, the number of lanes), if a history `H` of the view (made of its solo
traces, `FromSolo`; following the executor's discipline, `NotBlocked`; every thread below `N` at
its exit) passes members checks (2) and (3), leaves nothing pending and its race check reports
nothing, then from every initial memory `WSem` is race free, its barriers fit, `CollOwnR`
holds, all complete executions end in one state and, if one finishes, none gets stuck.  The
executor's run with collectives need not be `canonRunN` of the view: any order of the same
events with these properties will do. -/
theorem warp_hist_sound (memb : Nat → Nat → Bool) (sync : Nat → Bool)
    (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop) (N B : Nat) (wp : WProg V)
    (regs0 : Nat → Nat → V) (m0 m1 : Nat → V)
    (hind : WDataIndep sync wp R) (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (hB : BaseIds wp B)
    (hown : CollOwnSolo memb sync N B wp regs0 m0) (H : List (Race.EventN V))
    (mb : Nat → Nat) (S : Nat → List Nat) (hpos : ∀ b, 0 < mb b)
    (hcnt : ∀ t i b n w pc, t < N →
      soloAct (view memb sync N B wp) regs0 m0 t i = Act.arrive b n w pc → n = mb b)
    (hSz : Members.Sized mb S)
    (hfs : Race.FromSolo (view memb sync N B wp) regs0 m0 N H) (hw : Race.NotBlocked N H)
    (hfin : Race.allExited (view memb sync N B wp) regs0 m0 N H = true)
    (hd : Members.Drain2 S H) (hend : ∀ b, Members.pendI H b = [])
    (hr : Members.RustCheck3 N (Race.soloEvB (view memb sync N B wp) regs0 m0 N) H)
    (hc : Race.checkN Race.noSameN N H = false) :
    WRaceFree memb wp N (winit regs0 m1) ∧ WBarriersFit memb wp N (winit regs0 m1) ∧
    CollOwnR memb wp N (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WReach memb wp N (winit regs0 m1) t2 →
      WFinal N t1 → WFinal N t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb wp N (winit regs0 m1) t1 → WFinal N t1 →
      WReach memb wp N (winit regs0 m1) t2 → (∀ v, WStep memb wp N t2 v → False) →
      WFinal N t2) :=
  match Race.histN_sound (view memb sync N B wp) N H regs0 m0 m1 R
      (dataIndep_view memb sync R N B wp hind) hR0 mb S hpos hcnt hSz hfs hw hfin hd hend hr hc with
  | ⟨hrf, hfit, _⟩ =>
    wsound_of_view memb sync R N B wp regs0 m1 hind hR0 hB
      (ownSim_of_solo memb sync R N B wp regs0 m0 m1 mb hind hR0
        (Race.countsAt_progN _ regs0 m0 N hpos hcnt) hown)
      hrf hfit

end Hist

/-! ## Not vacuous: the `bar.warp.sync` example in another order

`Ex.progS` (lane 0 stores, `bar.warp.sync`, lane 1 loads) with lane 1 run first: lane 1's register
step and arrival, then lane 0's store and arrival, the completion, lane 1's load, lane 0's
register step.  Not the executor's `canonRunN` (`Ex.ex_run`), and `warp_hist_sound` applies to
it. -/

namespace ExH

open Ex

def H2 : List (Race.EventN Nat) :=
  [Race.EventN.act 0 (Act.compute 3 (fun _ => 0)), Race.EventN.act 1 (Act.read 0 0 3),
   Race.EventN.complete 0 2, Race.EventN.bar 0 0 true, Race.EventN.act 0 (Act.write 0 1 1),
   Race.EventN.bar 1 0 true, Race.EventN.act 1 (Act.compute 1 (fun _ => 0))]

theorem h2_ne : H2 ≠ Race.canonRunN (view memb2 syncAll 2 0 progS) regs0 m0 2 1 6 := by
  intro h
  rw [ex_run] at h
  exact Nat.noConfusion (Race.EventN.act.inj (List.cons.inj h).1).1

theorem h2_fromSolo : Race.FromSolo (view memb2 syncAll 2 0 progS) regs0 m0 2 H2 :=
  ⟨⟨⟨⟨⟨⟨trivial, ⟨by decide, rfl, rfl⟩⟩, ⟨by decide, rfl, rfl⟩⟩, ⟨by decide, rfl, rfl⟩⟩,
    ⟨by decide, rfl, rfl⟩⟩, ⟨by decide, rfl, rfl⟩⟩, ⟨by decide, rfl, rfl⟩⟩

theorem h2_notBlocked : Race.NotBlocked 2 H2 := Members.notBlocked_of (ids := [0]) H2 rfl rfl

theorem h2_done : Race.allExited (view memb2 syncAll 2 0 progS) regs0 m0 2 H2 = true := rfl

theorem h2_check : Race.checkN Race.noSameN 2 H2 = false := rfl

theorem h2_drain : Members.Drain2 (fun _ => [0, 1]) H2 := Members.drain2_of _ _ rfl

theorem h2_end : ∀ b, Members.pendI H2 b = [] := by
  intro b
  show Sem.upd _ 0 (Race.dropL 2 _) b = []
  cases Nat.decEq b 0 with
  | isTrue e => rw [e, upd_same]; rfl
  | isFalse e =>
    rw [upd_other _ _ e]
    show Sem.upd _ 0 _ b = []
    rw [upd_other _ _ e]
    show Sem.upd _ 0 _ b = []
    rw [upd_other _ _ e]
    rfl

theorem h2_rust3 : Members.RustCheck3 2 (Race.soloEvB (view memb2 syncAll 2 0 progS) regs0 m0 2) H2 :=
  Members.rust3_cons trivial (Members.rust3_cons trivial (Members.rust3_cons trivial
    (Members.rust3_cons (Members.head3_none rfl) (Members.rust3_cons trivial
    (Members.rust3_cons (Members.head3_none rfl) (Members.rust3_cons trivial
    (Members.rust3_nil 2 _)))))))

/-- **`warp_hist_sound` on a history other than `canonRunN`.** -/
theorem h2_sound (m1 : Nat → Nat) :
    WRaceFree memb2 progS 2 (winit regs0 m1) ∧ WBarriersFit memb2 progS 2 (winit regs0 m1) ∧
    CollOwnR memb2 progS 2 (winit regs0 m1) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WReach memb2 progS 2 (winit regs0 m1) t2 →
      WFinal 2 t1 → WFinal 2 t2 → WSame t1 t2) ∧
    (∀ t1 t2, WReach memb2 progS 2 (winit regs0 m1) t1 → WFinal 2 t1 →
      WReach memb2 progS 2 (winit regs0 m1) t2 → (∀ v, WStep memb2 progS 2 t2 v → False) →
      WFinal 2 t2) :=
  by
  have h := warp_hist_sound memb2 syncAll (fun _ _ _ _ => True) 2 0 progS regs0 m0 m1 ex_indep
    (fun _ => trivial) ex_baseIds (collOwnSolo_of_N memb2 syncAll 2 0 progS regs0 m0 ex_own) H2
    (fun _ => 2) (fun _ => [0, 1]) (fun _ => Nat.zeroLtSucc 1)
    (fun t _ _ _ _ _ _ h => ex_view_cnt t _ _ h) Members.pc_sized
  have h1 := h h2_fromSolo
  have h2 := h1 h2_notBlocked
  have h3 := h2 h2_done
  have h4 := h3 h2_drain
  have h5 := h4 h2_end
  have h6 := h5 h2_rust3
  exact h6 h2_check

end ExH

end WarpRace
end Kcert
