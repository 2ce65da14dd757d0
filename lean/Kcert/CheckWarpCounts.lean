import Kcert.CheckWarp

/-!
# The count check at the program's ids on the run with collectives

`CheckWarp.lean`'s `WRunClean` states one count per program barrier id over the view's solo
traces (`hcntLo`).  Here it is derived, as `Race.canonN_counts` does for `canonRunN`, from the
Rust's count check on the run itself (`resolve_barriers`: "barrier used with different thread
counts", every arrival an instance drains has the instance's count), restricted to the
program's ids (`CountsOKLo`): for any history made of the solo traces that ends with every
thread exited, passes check (2) at the program's ids, leaves nothing pending there and whose
completions there found enough arrivals pending (`CompLo`, proved of `canonRunW`).

* `Race.CompLo`, `Race.canonRunW_compLo` (through `tRunW`, `passW`, `pushLanes`, `fireI`,
  `resolveW`, `resolveN`, `canonW`).
* `Race.CountsOKLo`, `Race.countsLo_of_hist`.
* `WRunCleanC`, `wRunClean_of_C`, `CanonCleanWC`, `canonCleanW_of_C`, `check_safe_warp_c`, `check_sound_warp_c`.
-/

namespace Kcert
namespace Race

open Members (Ev evOf soloEv pendI Sized nEv)

section CompLo

variable {V : Type} [Sem.AccAdd V]

/-- Every completion of the history at an id below `B` found at least its count pending. -/
def CompLo (B : Nat) : List (EventN V) → Prop
  | [] => True
  | EventN.act _ _ :: h => CompLo B h
  | EventN.bar _ _ _ :: h => CompLo B h
  | EventN.complete b m :: h => CompLo B h ∧ (b < B → m ≤ lenL (pendI h b))

theorem compLo_tail {B : Nat} (e : EventN V) (l : List (EventN V)) (h : CompLo B (e :: l)) :
    CompLo B l := by
  cases e with
  | act t A => exact h
  | bar t b w => exact h
  | complete b m => exact h.1

theorem drainLo_tail {B : Nat} {S : Nat → List Nat} (e : EventN V) (l : List (EventN V))
    (h : DrainLo B S (e :: l)) : DrainLo B S l := by
  cases e with
  | act t A => exact h
  | bar t b w => exact h
  | complete b m => exact h.1

theorem compLo_evN {B : Nat} {h : List (EventN V)} (hc : CompLo B h) (t : Nat) :
    ∀ A : Sem.Act V, CompLo B (evN t A :: h)
  | Sem.Act.arrive b n w pc => hc
  | Sem.Act.compute pc g => hc
  | Sem.Act.read a r pc => hc
  | Sem.Act.write a v pc => hc
  | Sem.Act.atomAdd a v pc => hc
  | Sem.Act.exit => hc

theorem tRunW_compLo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {B : Nat} (t : Nat) :
    ∀ (f : Nat) (h : List (EventN V)), CompLo B h → CompLo B (tRunW prog regs0 m0 ck t f h) := by
  intro f
  induction f with
  | zero => intro h hc; exact hc
  | succ f ih =>
    intro h hc
    show CompLo B (cond (isSomeK (ck t (nEv t h))) h
      (cond (isExitA (Sem.soloAct prog regs0 m0 t (nEv t h))) h
        (cond (halts (Sem.soloAct prog regs0 m0 t (nEv t h)))
          (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)
          (tRunW prog regs0 m0 ck t f (evN t (Sem.soloAct prog regs0 m0 t (nEv t h)) :: h)))))
    cases isSomeK (ck t (nEv t h)) with
    | true => exact hc
    | false =>
      cases isExitA (Sem.soloAct prog regs0 m0 t (nEv t h)) with
      | true => exact hc
      | false =>
        cases halts (Sem.soloAct prog regs0 m0 t (nEv t h)) with
        | true => exact compLo_evN hc t _
        | false => exact ih _ (compLo_evN hc t _)

theorem passW_compLo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {B : Nat} (F : Nat) (h : List (EventN V)) (hc : CompLo B h) :
    ∀ n, CompLo B (passW prog regs0 m0 ck F n h) := by
  intro n
  induction n with
  | zero => exact hc
  | succ n ih =>
    show CompLo B (cond (blk n (passW prog regs0 m0 ck F n h)) (passW prog regs0 m0 ck F n h)
      (tRunW prog regs0 m0 ck n F (passW prog regs0 m0 ck F n h)))
    cases blk n (passW prog regs0 m0 ck F n h) with
    | true => exact ih
    | false => exact tRunW_compLo n F _ ih

theorem pushLanes_compLo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {B : Nat} (g : Nat)
    (h : List (EventN V)) (hc : CompLo B h) :
    ∀ k, CompLo B (pushLanes prog regs0 m0 ck memb g k h) := by
  intro k
  induction k with
  | zero => exact hc
  | succ k ih =>
    show CompLo B (cond (memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h))
      (evN k (Sem.soloAct prog regs0 m0 k (nEv k (pushLanes prog regs0 m0 ck memb g k h))) ::
        pushLanes prog regs0 m0 ck memb g k h)
      (pushLanes prog regs0 m0 ck memb g k h))
    cases memb g k && laneAt ck g k (pushLanes prog regs0 m0 ck memb g k h) with
    | true => exact compLo_evN ih k _
    | false => exact ih

theorem fireI_compLo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {N B : Nat}
    (g : Nat) (h : List (EventN V)) (hc : CompLo B h) :
    CompLo B (fireI prog regs0 m0 ck memb sync N B g h) := by
  show CompLo B (cond (sync g)
    (EventN.complete (B + g) (WarpRace.nLanes memb N g) :: pushLanes prog regs0 m0 ck memb g N h)
    (pushLanes prog regs0 m0 ck memb g N h))
  cases sync g with
  | true =>
    exact ⟨pushLanes_compLo g h hc N, fun hb => False.elim (ne_of_lt_add hb rfl)⟩
  | false => exact pushLanes_compLo g h hc N

theorem resolveW_compLo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool} {N B : Nat}
    (h : List (EventN V)) (hc : CompLo B h) :
    ∀ G, CompLo B (resolveW prog regs0 m0 ck memb sync N B G h) := by
  intro G
  induction G with
  | zero => exact hc
  | succ g ih =>
    show CompLo B (cond (readyI ck memb N g (resolveW prog regs0 m0 ck memb sync N B g h))
      (fireI prog regs0 m0 ck memb sync N B g (resolveW prog regs0 m0 ck memb sync N B g h))
      (resolveW prog regs0 m0 ck memb sync N B g h))
    cases readyI ck memb N g (resolveW prog regs0 m0 ck memb sync N B g h) with
    | true => exact fireI_compLo g _ ih
    | false => exact ih

theorem resolveOne_compLo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {B : Nat}
    (b : Nat) (h : List (EventN V)) (hc : CompLo B h) :
    CompLo B (resolveOne prog regs0 m0 b h) := by
  show CompLo B (cond (decide (0 < lenL (pendI h b)) &&
      decide (firstCnt prog regs0 m0 (pendI h b) ≤ lenL (pendI h b)))
    (EventN.complete b (firstCnt prog regs0 m0 (pendI h b)) :: h) h)
  cases h1 : decide (0 < lenL (pendI h b)) with
  | false => exact hc
  | true =>
    cases h2 : decide (firstCnt prog regs0 m0 (pendI h b) ≤ lenL (pendI h b)) with
    | false => exact hc
    | true => exact ⟨hc, fun _ => of_decide_eq_true' h2⟩

theorem resolveN_compLo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V} {B : Nat} :
    ∀ (Bb : Nat) (h : List (EventN V)), CompLo B h → CompLo B (resolveN prog regs0 m0 Bb h) := by
  intro Bb
  induction Bb with
  | zero => intro h hc; exact hc
  | succ b ih => intro h hc; exact resolveOne_compLo b _ (ih h hc)

theorem canonW_compLo {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {ck : Nat → Nat → Option Nat} {memb : Nat → Nat → Bool} {sync : Nat → Bool}
    (N B G Bb F : Nat) :
    ∀ (r : Nat) (h : List (EventN V)), CompLo B h →
      CompLo B (canonW prog regs0 m0 ck memb sync N B G Bb F r h) := by
  intro r
  induction r with
  | zero => intro h hc; exact hc
  | succ r ih =>
    intro h hc
    have g1 := passW_compLo (prog := prog) (regs0 := regs0) (m0 := m0) (ck := ck) F h hc N
    have g2 := resolveW_compLo (prog := prog) (regs0 := regs0) (m0 := m0) (ck := ck)
      (memb := memb) (sync := sync) (N := N) _ g1 G
    have g3 := resolveN_compLo (prog := prog) (regs0 := regs0) (m0 := m0) Bb _ g2
    show CompLo B
      (cond (allExited prog regs0 m0 N (passW prog regs0 m0 ck F N h)) (passW prog regs0 m0 ck F N h)
      (cond (decide (lenL (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)) =
          lenL (passW prog regs0 m0 ck F N h)))
        (cond (decide (lenL (resolveN prog regs0 m0 Bb
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h))) = lenL h))
          (resolveN prog regs0 m0 Bb
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)))
          (canonW prog regs0 m0 ck memb sync N B G Bb F r (resolveN prog regs0 m0 Bb
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)))))
        (canonW prog regs0 m0 ck memb sync N B G Bb F r
          (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)))))
    cases allExited prog regs0 m0 N (passW prog regs0 m0 ck F N h) with
    | true => exact g1
    | false =>
      cases decide (lenL (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h)) =
          lenL (passW prog regs0 m0 ck F N h)) with
      | false => exact ih _ g2
      | true =>
        cases decide (lenL (resolveN prog regs0 m0 Bb
            (resolveW prog regs0 m0 ck memb sync N B G (passW prog regs0 m0 ck F N h))) = lenL h) with
        | true => exact g3
        | false => exact ih _ g3

end CompLo

section Counts

variable {V : Type} [Sem.AccAdd V]

/-- The Rust's count check (`resolve_barriers`: "barrier used with different thread counts") at
the program's ids: every arrival a completion at an id below `B` drains has its count. -/
def CountsOKLo (B : Nat) (prog : Sem.Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (H : List (EventN V)) : Prop :=
  ∀ b m hc, b < B → Members.Sfx (EventN.complete b m :: hc) H → ∀ x, In x (takeL m (pendI hc b)) →
    cntOf prog regs0 m0 x = m

/-- **One count per program id from any finished history and its checks** (`canonN_counts` for
any history at the ids below `B`): a history made of the solo traces that ends with every
thread below `N` exited, passes check (2) at the ids below `B` (`DrainLo`), leaves nothing
pending there, whose completions there found enough pending (`CompLo`) and pass the count
check (`CountsOKLo`): every solo arrival at `b < B` of a thread below `N` has count `mb b`. -/
theorem countsLo_of_hist {prog : Sem.Prog V} {regs0 : Nat → Nat → V} {m0 : Nat → V}
    {N B : Nat} {H : List (EventN V)} {S : Nat → List Nat} {mb : Nat → Nat} (hSz : Sized mb S)
    (hfs : FromSolo prog regs0 m0 N H)
    (hfin : allExited prog regs0 m0 N H = true)
    (hd : DrainLo B S H)
    (hend : ∀ b, b < B → pendI H b = [])
    (hcl : CompLo B H)
    (hco : CountsOKLo B prog regs0 m0 H) :
    ∀ t i b n w pc, t < N → b < B → Sem.soloAct prog regs0 m0 t i = Sem.Act.arrive b n w pc →
      n = mb b := by
  intro t i b n w pc ht hb ha
  have hf := (fromAct_of_fromSolo H hfs).2
  have hev : soloEvB prog regs0 m0 N t i = Ev.arr b w := by
    rw [soloEvB_lt ht]
    show evOf (Sem.soloAct prog regs0 m0 t i) = Ev.arr b w
    rw [ha]
    rfl
  match Members.find_ev _ i (coversH hfin t i b w hev) with
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
    | inl hx' => rw [hend b hb] at hx'; exact False.elim hx'
    | inr ex =>
      match ex with
      | ⟨m, hc, hs2, hin⟩ =>
        have c1 := hco b m hc hb hs2 (t, i) hin
        have c2 : cntOf prog regs0 m0 (t, i) = n := by
          show (match Sem.soloAct prog regs0 m0 t i with
            | Sem.Act.arrive _ n _ _ => n
            | _ => 0) = n
          rw [ha]
        have hok := Members.sfx_pres compLo_tail _ _ hs2 hcl
        have hd2 := Members.sfx_pres drainLo_tail _ _ hs2 hd
        have l1 := lenL_takeL m (pendI hc b) (hok.2 hb)
        have l2 := len_drained (hSz b).2 _ (hd2.2 hb)
        rw [← c2, c1, ← l1, l2]
        exact (hSz b).1

end Counts

end Race
end Kcert

namespace Kcert

open Sem
open Warp
open WarpRace

section RunC

variable {V : Type} [AccAdd V]

theorem canonRunW_compLo (memb : Nat → Nat → Bool) (sync : Nat → Bool) (N B G Bb F : Nat)
    (wp : WProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) :
    Race.CompLo B (canonRunW memb sync N B G Bb F wp regs0 m0) :=
  Race.canonW_compLo N B G Bb F F [] trivial

/-- `WRunClean` with the count check on the run (`Race.CountsOKLo` of `canonRunW` at the
program's ids, the Rust's "barrier used with different thread counts") in place of one count
per id over the solo traces. -/
def WRunCleanC (c : WCta V) : Prop :=
  ∃ (m0 : Nat → V) (G Bb Fu : Nat) (mb : Nat → Nat) (Sb : Nat → List Nat),
    Bb ≤ c.B ∧ (∀ b, 0 < mb b) ∧
    Race.CountsOKLo c.B (view c.memb c.sync c.N c.B c.prog) c.regs0 m0
      (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0) ∧
    (∀ g, 0 < nLanes c.memb c.N g → mb (c.B + g) = nLanes c.memb c.N g) ∧
    Members.Sized mb Sb ∧
    (∀ g u, 0 < nLanes c.memb c.N g →
      Members.memB u (Sb (c.B + g)) = (c.memb g u && decide (u < c.N))) ∧
    FinishedW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0 = true ∧
    Race.DrainLo c.B Sb (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0) ∧
    (∀ b, b < c.B →
      Members.pendI (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0) b = []) ∧
    RustCheck3Below c.N c.B (Race.soloEvB (view c.memb c.sync c.N c.B c.prog) c.regs0 m0 c.N)
      (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0) ∧
    Race.checkN Race.noSameN c.N (canonRunW c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0)
      = false

/-- The count check on the run gives `WRunClean`'s one count per program id
(`Race.countsLo_of_hist` on `canonRunW`, with `canonRunW_fromSolo`, `canonRunW_compLo`). -/
theorem wRunClean_of_C {c : WCta V} (h : WRunCleanC c) : WRunClean c :=
  match h with
  | ⟨m0, G, Bb, Fu, mb, Sb, hBb, hpos, hco, hmbW, hSz, hS, hfin, hd, hend, hr, hc⟩ =>
    ⟨m0, G, Bb, Fu, mb, Sb, hBb, hpos,
      Race.countsLo_of_hist hSz (canonRunW_fromSolo c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0)
        hfin hd hend (canonRunW_compLo c.memb c.sync c.N c.B G Bb Fu c.prog c.regs0 m0) hco,
      hmbW, hSz, hS, hfin, hd, hend, hr, hc⟩

/-- `CanonCleanW` with `WRunCleanC`: the executor hypothesis with the count check on the run. -/
def CanonCleanWC (V : Type) [AccAdd V] {T D S K F : Type} (X : Oracle T D S K F)
    (wsem : S → Kernel → T → WKernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → sr.complete = true → ∀ c, c < sr.ctas →
      WRunCleanC ((wsem pair k (pick r o k)).cta c)

theorem canonCleanW_of_C {T D S K F : Type} {X : Oracle T D S K F}
    {wsem : S → Kernel → T → WKernelSem V} (h : CanonCleanWC V X wsem) : CanonCleanW V X wsem :=
  fun pair r o wr wo pr k sr hr hs hf hcomp c hc =>
    wRunClean_of_C (h pair r o wr wo pr k sr hr hs hf hcomp c hc)

end RunC

section SoundC

variable {T D S K F C V : Type} [DecidableEq D] [DecidableEq K] [AccAdd V]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- **`check_safe_warp` with the count check on the run**: under `RunsWanted`, `CtasFaithfulW`
and `CanonCleanWC`, if `check` accepts, every kernel with a `Safe` claim is `KernelSafeW`. -/
theorem check_safe_warp_c (wsem : S → Kernel → T → WKernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithfulW X wsem) (hclean : CanonCleanWC V X wsem)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeW (wsem pair k (pick refPtx optPtx k)) :=
  check_safe_warp wsem hwant hfaith (canonCleanW_of_C hclean) cert refPtx optPtx h

/-- **`check_sound_warp` with the count check on the run** (`CanonCleanWC`). -/
theorem check_sound_warp_c {α : Type} [ExpField α] (wsem : S → Kernel → T → WKernelSem V)
    (hwant : RunsWanted X) (hfaith : CtasFaithfulW X wsem) (hclean : CanonCleanWC V X wsem)
    (cc : FieldCoeffCast ops α) (I : Interp K α) (hI : Rules.FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    X.sha256 refPtx = cert.refPtxSha256 ∧ X.sha256 optPtx = cert.optPtxSha256 ∧
    X.specDigest cert.pairSpec cert.refSpec cert.optSpec = cert.specSha256 ∧
    ∃ pair pr, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      X.runPair pair refPtx optPtx (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims) = some pr ∧
      (∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafeW (wsem pair k (pick refPtx optPtx k))) ∧
      (∀ o, natMem o (equivOf cert.claims) = true →
        o < X.outputs pair ∧
        pr.terms.refFootprint o = pr.terms.optFootprint o ∧
        ∀ e, natMem e (pr.terms.refFootprint o) = true →
          ∃ lt ot, pr.terms.ref o e = some lt ∧ pr.terms.opt o e = some ot ∧
            ∀ sg : α → Option Bool, EVal.SignOf sg →
              ∀ ρ ρs : Env α, Agrees pr.terms.inputs ρs ρ →
                Term.evalE I sg ρs lt = Term.evalE I sg ρs ot) :=
  check_sound_warp wsem hwant hfaith (canonCleanW_of_C hclean) cc I hI hconst cert refPtx optPtx h

end SoundC

end Kcert

namespace Kcert

section ExampleC

open Examples

/-- `exWCta` meets `WRunCleanC` (no program barrier: nothing to count). -/
theorem exW_runCleanC : WRunCleanC exWCta :=
  ⟨WarpRace.Ex.m0, 1, 0, 6, fun _ => 2, fun _ => [0, 1], Nat.leRefl 0, fun _ => Nat.zeroLtSucc 1,
    fun b _ _ hb _ _ _ => False.elim (Nat.notLtZero b hb),
    WarpRace.ExW.exw_mbW, Members.pc_sized, WarpRace.ExW.exw_hS, WarpRace.ExW.exw_accepted.1,
    Race.drainLo_of_drain2 0 _ _ WarpRace.ExW.exw_drain,
    fun b hb => False.elim (Nat.notLtZero b hb),
    fun _ b _ _ hb => False.elim (Nat.notLtZero b hb),
    WarpRace.ExW.exw_accepted.2⟩

theorem exW_canonCleanWC : CanonCleanWC Nat exOracle exSemW :=
  fun _ _ _ _ _ _ _ _ _ _ _ _ _ _ => exW_runCleanC

/-- `check_safe_warp_c` applied to the accepted example certificate. -/
theorem exW_safe_c : KernelSafeW (exSemW () Kernel.reference 1) :=
  match check_safe_warp_c (ops := intFieldOps) exSemW ex_runsWanted exW_ctasFaithful
      exW_canonCleanWC exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end ExampleC

end Kcert

namespace Kcert

section ExampleP

open Examples
open Sem
open Warp
open WarpRace

/-- A `Sem` program as a program with collectives that has none. -/
def liftW {V : Type} (prog : Sem.Prog V) : WProg V := fun i pc regs => WAct.base (prog i pc regs)

def pcMemb (_ _ : Nat) : Bool := false
def pcSync (_ : Nat) : Bool := false

/-- The executor's run with collectives of the producer/consumer `Race.prodCons` (named
barriers 1 and 2 with `bar.arrive`, no collective): program ids below `B = 3`. -/
theorem pcW_run :
    canonRunW pcMemb pcSync 2 3 0 3 8 (liftW Race.prodCons) (fun _ _ => 0) (fun _ => 0) =
      [Race.EventN.act 0 (Act.read 1 0 4), Race.EventN.complete 2 2,
       Race.EventN.bar 1 2 false, Race.EventN.act 1 (Act.write 1 7 3),
       Race.EventN.act 1 (Act.read 0 0 2), Race.EventN.complete 1 2,
       Race.EventN.bar 1 1 true, Race.EventN.bar 0 2 true, Race.EventN.bar 0 1 false,
       Race.EventN.act 0 (Act.write 0 5 1)] := rfl

theorem pcW_eq :
    canonRunW pcMemb pcSync 2 3 0 3 8 (liftW Race.prodCons) (fun _ _ => 0) (fun _ => 0) =
      Race.canonRunN Race.prodCons (fun _ _ => 0) (fun _ => 0) 2 3 8 :=
  Eq.trans pcW_run (Eq.symm Race.prodCons_run)

theorem pcT0_ids {b n pc' : Nat} {w : Bool} :
    ∀ pc, Race.pcT0 pc = Act.arrive b n w pc' → b < 3
  | 0, h => Act.noConfusion h
  | 1, h => by injection h with e1 _ _ _; rw [← e1]; exact Nat.succLeSucc (Nat.succLeSucc (Nat.zeroLe 1))
  | 2, h => by injection h with e1 _ _ _; rw [← e1]; exact Nat.succLeSucc (Nat.succLeSucc (Nat.succLeSucc (Nat.zeroLe 0)))
  | 3, h => Act.noConfusion h
  | _ + 4, h => Act.noConfusion h

theorem pcT1_ids {b n pc' : Nat} {w : Bool} :
    ∀ pc, Race.pcT1 pc = Act.arrive b n w pc' → b < 3
  | 0, h => by injection h with e1 _ _ _; rw [← e1]; exact Nat.succLeSucc (Nat.succLeSucc (Nat.zeroLe 1))
  | 1, h => Act.noConfusion h
  | 2, h => Act.noConfusion h
  | 3, h => by injection h with e1 _ _ _; rw [← e1]; exact Nat.succLeSucc (Nat.succLeSucc (Nat.succLeSucc (Nat.zeroLe 0)))
  | _ + 4, h => Act.noConfusion h

theorem pcW_baseIds : BaseIds (liftW Race.prodCons) 3 := by
  intro i pc regs b n w pc' h
  have h' : Race.prodCons i pc regs = Act.arrive b n w pc' := by injection h; assumption
  have h'' : cond (decide (i = 0)) (Race.pcT0 pc) (Race.pcT1 pc) = Act.arrive b n w pc' := h'
  cases e : decide (i = 0) with
  | true => rw [e] at h''; exact pcT0_ids pc h''
  | false => rw [e] at h''; exact pcT1_ids pc h''

theorem pcW_indep : WDataIndep pcSync (liftW Race.prodCons) (fun _ _ _ _ => True) :=
  fun i pc regs regs' h => Race.prodCons_dataIndep i pc regs regs' h

/-- The warp CTA: the producer/consumer, two threads, program barrier ids below 3. -/
def pcWCta : WCta Nat := ⟨pcMemb, pcSync, liftW Race.prodCons, 2, fun _ _ => 0, 3⟩

/-- `WRunCleanC` with program barriers: the count check at ids 1 and 2 on the run
(`Race.prodCons_countsOK`), check (2), nothing pending, check (3), race check silent. -/
theorem pcW_runCleanC : WRunCleanC pcWCta := by
  refine ⟨fun _ => 0, 0, 3, 8, fun _ => 2, fun _ => [0, 1], Nat.leRefl 3, fun _ => Nat.zeroLtSucc 1,
    ?_, fun g h => False.elim (Nat.ltIrrefl 0 h), Members.pc_sized,
    fun g u h => False.elim (Nat.ltIrrefl 0 h), rfl, ?_, ?_, ?_, rfl⟩
  · show Race.CountsOKLo 3 (view pcMemb pcSync 2 3 (liftW Race.prodCons)) (fun _ _ => 0) (fun _ => 0)
      (canonRunW pcMemb pcSync 2 3 0 3 8 (liftW Race.prodCons) (fun _ _ => 0) (fun _ => 0))
    rw [pcW_eq]
    intro b m hc _ hs x hx
    exact Race.prodCons_countsOK b m hc hs x hx
  · show Race.DrainLo 3 (fun _ => [0, 1])
      (canonRunW pcMemb pcSync 2 3 0 3 8 (liftW Race.prodCons) (fun _ _ => 0) (fun _ => 0))
    rw [pcW_eq]
    exact Race.drainLo_of_drain2 3 _ _ Race.prodCons_drain
  · show ∀ b, b < 3 → Members.pendI
      (canonRunW pcMemb pcSync 2 3 0 3 8 (liftW Race.prodCons) (fun _ _ => 0) (fun _ => 0)) b = []
    rw [pcW_eq]
    intro b _
    exact Race.prodCons_end b
  · show RustCheck3Below 2 3 (Race.soloEvB (view pcMemb pcSync 2 3 (liftW Race.prodCons))
        (fun _ _ => 0) (fun _ => 0) 2)
      (canonRunW pcMemb pcSync 2 3 0 3 8 (liftW Race.prodCons) (fun _ _ => 0) (fun _ => 0))
    rw [pcW_eq]
    intro t b w' h _ hs i hi ha
    exact Race.prodCons_rust3 t b w' h hs i hi ha

/-- The warp semantics: every kernel is one CTA `pcWCta`. -/
def exSemWP : Unit → Kernel → Nat → WKernelSem Nat :=
  fun _ _ _ => ⟨1, fun _ => pcWCta⟩

theorem exWP_ctasFaithful : CtasFaithfulW exOracle exSemWP := by
  intro _ _ _ wr wo pr k sr h hs
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  rw [ex_side hs]
  intro _
  refine ⟨rfl, ?_⟩
  intro c _
  exact ⟨fun _ _ _ _ => True, pcW_indep, fun _ => True.intro, pcW_baseIds⟩

theorem exWP_canonCleanWC : CanonCleanWC Nat exOracle exSemWP :=
  fun _ _ _ _ _ _ _ _ _ _ _ _ _ _ => pcW_runCleanC

/-- `check_safe_warp_c` on the accepted example certificate with the producer/consumer as a
program with collectives (none): its count check at the program's ids 1, 2 is the run's. -/
theorem exWP_safe_c : KernelSafeW (exSemWP () Kernel.reference 1) :=
  match check_safe_warp_c (ops := intFieldOps) exSemWP ex_runsWanted exWP_ctasFaithful
      exWP_canonCleanWC exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end ExampleP

end Kcert
