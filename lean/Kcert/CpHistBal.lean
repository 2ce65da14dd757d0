import Kcert.CpHist

/-!
# `Balanced` for every bounded program (the built history's prefixes)
-/

namespace Kcert
namespace CpHist

open Sem
open CpSem
open CpLink
open CpCheck

section Gen

/-- The positions below `L` where `q` holds. -/
def cntB (q : Nat → Bool) : Nat → Nat
  | 0 => 0
  | L + 1 => cntB q L + cond (q L) 1 0

theorem cntB_le (q : Nat → Bool) : ∀ L, cntB q L ≤ L
  | 0 => Nat.leRefl 0
  | L + 1 => by
    show cntB q L + cond (q L) 1 0 ≤ L + 1
    cases q L with
    | true => exact Nat.succLeSucc (cntB_le q L)
    | false => exact Nat.leTrans (cntB_le q L) (Nat.leSucc L)

theorem cntB_all (q : Nat → Bool) : ∀ L, (∀ k, k < L → q k = true) → cntB q L = L
  | 0, _ => rfl
  | L + 1, h => by
    show cntB q L + cond (q L) 1 0 = L + 1
    rw [cntB_all q L (fun k hk => h k (Nat.ltTrans hk (Nat.ltSuccSelf L))), h L (Nat.ltSuccSelf L)]
    rfl

/-- Downward closed below `L`. -/
def DownC (q : Nat → Bool) (L : Nat) : Prop := ∀ k, k + 1 < L → q (k + 1) = true → q k = true

theorem downC_all (q : Nat → Bool) (L : Nat) (hd : DownC q (L + 1)) (hL : q L = true) :
    ∀ k, k < L → q k = true := by
  have h : ∀ d k, k + d = L → q k = true := by
    intro d
    induction d with
    | zero =>
      intro k e
      have e0 : k = L := e
      rw [e0]; exact hL
    | succ d ih =>
      intro k e
      have e' : (k + 1) + d = L := by rw [Nat.add_right_comm]; exact e
      have hq := ih (k + 1) e'
      have hlt : k + 1 < L + 1 := by
        rw [← e']; exact Nat.succLeSucc (Nat.leAddRight (k + 1) d)
      exact hd k hlt hq
  intro k hk
  match Nat.le.dest (Nat.leOfLt hk) with
  | ⟨d, e⟩ => exact h d k e

theorem downC_lower (q : Nat → Bool) (L : Nat) (hd : DownC q (L + 1)) : DownC q L :=
  fun k hk hq => hd k (Nat.ltTrans hk (Nat.ltSuccSelf L)) hq

theorem cntB_char (q : Nat → Bool) : ∀ L, DownC q L → ∀ k, k < L → q k = decide (k < cntB q L)
  | 0, _, k, hk => False.elim (Nat.notLtZero k hk)
  | L + 1, hd, k, hk => by
    show q k = decide (k < cntB q L + cond (q L) 1 0)
    cases hL : q L with
    | true =>
      have hall := downC_all q L hd hL
      rw [cntB_all q L hall]
      have hq : q k = true := by
        cases Nat.eqOrLtOfLe (Nat.leOfLtSucc hk) with
        | inl e => rw [e]; exact hL
        | inr hl => exact hall k hl
      rw [hq]
      exact Eq.symm (decide_eq_true' hk)
    | false =>
      show q k = decide (k < cntB q L + 0)
      rw [Nat.add_zero]
      cases Nat.eqOrLtOfLe (Nat.leOfLtSucc hk) with
      | inl e =>
        rw [e, hL]
        exact Eq.symm (decide_eq_false' (fun h => Nat.ltIrrefl L (Nat.ltOfLtOfLe h (cntB_le q L))))
      | inr hl => exact cntB_char q L (downC_lower q L hd) k hl

theorem sumN_cut (c : Nat → Nat) (p : Nat) : ∀ L, p ≤ L →
    sumN (fun k => cond (decide (k < p)) (c k) 0) L = sumN c p
  | 0, h => by
    have e : p = 0 := Nat.leAntisymm h (Nat.zeroLe p)
    rw [e]; rfl
  | L + 1, h => by
    cases Nat.eqOrLtOfLe h with
    | inl e =>
      rw [e]
      exact sumN_congr _ _ (L + 1) (fun k hk => by rw [decide_eq_true' hk]; rfl)
    | inr hl =>
      show sumN (fun k => cond (decide (k < p)) (c k) 0) L + cond (decide (L < p)) (c L) 0 = _
      rw [sumN_cut c p L (Nat.leOfLtSucc hl),
        decide_eq_false' (fun h' => Nat.ltIrrefl L (Nat.ltOfLtOfLe h' (Nat.leOfLtSucc hl)))]
      rfl

/-- A downward closed selection of positions below `L` is the first `cntB q L` positions. -/
theorem sumN_downC (q : Nat → Bool) (c : Nat → Nat) (L : Nat) (hd : DownC q L) :
    sumN (fun k => cond (q k) (c k) 0) L = sumN c (cntB q L) := by
  rw [← sumN_cut c (cntB q L) L (cntB_le q L)]
  exact sumN_congr _ _ L (fun k hk => by rw [cntB_char q L hd k hk])

theorem le_sumN (f : Nat → Nat) (m : Nat) : ∀ n, m < n → f m ≤ sumN f n
  | 0, h => False.elim (Nat.notLtZero m h)
  | n + 1, h => by
    show f m ≤ sumN f n + f n
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
    | inl e => rw [e]; exact Nat.leAddLeft (f n) (sumN f n)
    | inr hl => exact Nat.leTrans (le_sumN f m n hl) (Nat.leAddRight _ _)

end Gen

/-! ### Per-thread counts for sources (the destination ones with `isIS`, `isFS`) -/

section PerThreadS

variable {V : Type} [AccAdd V]

/-- 1 for an issue to `d`. -/
def issDS (d : Nat) : KAct V → Nat
  | KAct.issue s' _ _ => cond (Nat.beq s' d) 1 0
  | _ => 0

/-- The copies to `d` issued before `p` and not completed before `p`. -/
def outNS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d p : Nat) : Nat :=
  sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss p) (issDS d (kAct kp regs0 m0 i kiss)) 0) p

/-- The completions to `d` at `kf`. -/
def finsNS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d kf : Nat) : Nat :=
  sumN (fun kiss => cond (firstB kp regs0 m0 i kiss kf) (issDS d (kAct kp regs0 m0 i kiss)) 0) kf

theorem cnt_optL_IS (d i : Nat) (A : Act V) : cnt (isIS d) (optL (evOf i A)) = 0 := by
  cases A <;> rfl

theorem cnt_optL_FS (d i : Nat) (A : Act V) : cnt (isFS d) (optL (evOf i A)) = 0 := by
  cases A <;> rfl

theorem cnt_issK_IS (d i : Nat) (K : KAct V) : cnt (isIS d) (issK i K) = issDS d K := by
  cases K with
  | issue s d' pc => show cond (Nat.beq s d) 1 0 + 0 = cond (Nat.beq s d) 1 0; rfl
  | _ => rfl

theorem cnt_issK_FS (d i : Nat) (K : KAct V) : cnt (isFS d) (issK i K) = 0 := by
  cases K <;> rfl

theorem cnt_finK_IS (d i : Nat) (K : KAct V) : cnt (isIS d) (finK i K) = 0 := by
  cases K <;> rfl

theorem cnt_finK_FS (d i : Nat) (K : KAct V) : cnt (isFS d) (finK i K) = issDS d K := by
  cases K with
  | issue s d' pc => show cond (Nat.beq s d) 1 0 + 0 = cond (Nat.beq s d) 1 0; rfl
  | _ => rfl

theorem cnt_finsUp_IS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d kf : Nat) :
    ∀ m, cnt (isIS d) (finsUp kp regs0 m0 i kf m) = 0
  | 0 => rfl
  | m + 1 => by
    show cnt (isIS d) (app (finsUp kp regs0 m0 i kf m) (finOne kp regs0 m0 i kf m)) = 0
    rw [cnt_app, cnt_finsUp_IS kp regs0 m0 i d kf m]
    show 0 + cnt (isIS d) (cond (firstB kp regs0 m0 i m kf) (finK i (kAct kp regs0 m0 i m)) []) = 0
    cases firstB kp regs0 m0 i m kf with
    | true => rw [Nat.zero_add]; exact cnt_finK_IS d i _
    | false => rfl

theorem cnt_finsUp_FS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d kf : Nat) :
    ∀ m, cnt (isFS d) (finsUp kp regs0 m0 i kf m) =
      sumN (fun kiss => cond (firstB kp regs0 m0 i kiss kf) (issDS d (kAct kp regs0 m0 i kiss)) 0) m
  | 0 => rfl
  | m + 1 => by
    show cnt (isFS d) (app (finsUp kp regs0 m0 i kf m)
      (cond (firstB kp regs0 m0 i m kf) (finK i (kAct kp regs0 m0 i m)) [])) =
      sumN (fun kiss => cond (firstB kp regs0 m0 i kiss kf) (issDS d (kAct kp regs0 m0 i kiss)) 0) m
        + cond (firstB kp regs0 m0 i m kf) (issDS d (kAct kp regs0 m0 i m)) 0
    rw [cnt_app, cnt_finsUp_FS kp regs0 m0 i d kf m]
    cases firstB kp regs0 m0 i m kf with
    | true => exact congrArg _ (cnt_finK_FS d i _)
    | false => rfl

theorem cnt_evAt_IS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d k : Nat) :
    cnt (isIS d) (evAt kp regs0 m0 i k) = issDS d (kAct kp regs0 m0 i k) := by
  show cnt (isIS d) (app (optL (evOf i (soloAct (baseProg kp) regs0 m0 i k)))
    (app (issK i (kAct kp regs0 m0 i k)) (finsUp kp regs0 m0 i k k))) = _
  rw [cnt_app, cnt_app, cnt_optL_IS, cnt_issK_IS, cnt_finsUp_IS, Nat.zero_add, Nat.add_zero]

theorem cnt_evAt_FS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d k : Nat) :
    cnt (isFS d) (evAt kp regs0 m0 i k) = finsNS kp regs0 m0 i d k := by
  show cnt (isFS d) (app (optL (evOf i (soloAct (baseProg kp) regs0 m0 i k)))
    (app (issK i (kAct kp regs0 m0 i k)) (finsUp kp regs0 m0 i k k))) = _
  rw [cnt_app, cnt_app, cnt_optL_FS, cnt_issK_FS, cnt_finsUp_FS, Nat.zero_add, Nat.zero_add]
  rfl

theorem noComplB_lowS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i kiss : Nat) :
    ∀ K, K ≤ kiss + 1 → noComplB kp regs0 m0 i kiss K = true
  | 0, _ => rfl
  | K + 1, h => by
    show (noComplB kp regs0 m0 i kiss K &&
      (not (decide (kiss < K)) || not (complB kp regs0 m0 i kiss K))) = true
    have hK : ¬kiss < K := fun hl => Nat.ltIrrefl K (Nat.ltOfLeOfLt (Nat.leOfSuccLeSucc h) hl)
    rw [noComplB_lowS kp regs0 m0 i kiss K (Nat.leTrans (Nat.leSucc K) h), decide_eq_false' hK]
    rfl

/-- The split of one copy's term at `p`: not completed before `p + 1`, or first completed at `p`. -/
theorem split_termS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d kiss p : Nat)
    (hk : kiss < p) :
    cond (noComplB kp regs0 m0 i kiss p) (issDS d (kAct kp regs0 m0 i kiss)) 0 =
      cond (noComplB kp regs0 m0 i kiss (p + 1)) (issDS d (kAct kp regs0 m0 i kiss)) 0 +
      cond (firstB kp regs0 m0 i kiss p) (issDS d (kAct kp regs0 m0 i kiss)) 0 := by
  show cond (noComplB kp regs0 m0 i kiss p) (issDS d (kAct kp regs0 m0 i kiss)) 0 =
      cond (noComplB kp regs0 m0 i kiss p &&
        (not (decide (kiss < p)) || not (complB kp regs0 m0 i kiss p)))
        (issDS d (kAct kp regs0 m0 i kiss)) 0 +
      cond (decide (kiss < p) && complB kp regs0 m0 i kiss p && noComplB kp regs0 m0 i kiss p)
        (issDS d (kAct kp regs0 m0 i kiss)) 0
  rw [decide_eq_true' hk]
  cases noComplB kp regs0 m0 i kiss p with
  | false => cases complB kp regs0 m0 i kiss p <;> rfl
  | true =>
    cases complB kp regs0 m0 i kiss p with
    | false => rfl
    | true => exact Eq.symm (Nat.zero_add _)

theorem out_stepS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d p : Nat) :
    outNS kp regs0 m0 i d p + issDS d (kAct kp regs0 m0 i p) =
      outNS kp regs0 m0 i d (p + 1) + finsNS kp regs0 m0 i d p := by
  have h1 : outNS kp regs0 m0 i d p =
      sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss (p + 1))
        (issDS d (kAct kp regs0 m0 i kiss)) 0) p + finsNS kp regs0 m0 i d p := by
    show sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss p)
        (issDS d (kAct kp regs0 m0 i kiss)) 0) p =
      sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss (p + 1))
        (issDS d (kAct kp regs0 m0 i kiss)) 0) p +
      sumN (fun kiss => cond (firstB kp regs0 m0 i kiss p) (issDS d (kAct kp regs0 m0 i kiss)) 0) p
    rw [← sumN_add]
    exact sumN_congr _ _ p (fun kiss hk => split_termS kp regs0 m0 i d kiss p hk)
  have h2 : outNS kp regs0 m0 i d (p + 1) =
      sumN (fun kiss => cond (noComplB kp regs0 m0 i kiss (p + 1))
        (issDS d (kAct kp regs0 m0 i kiss)) 0) p + issDS d (kAct kp regs0 m0 i p) := by
    show _ + cond (noComplB kp regs0 m0 i p (p + 1)) (issDS d (kAct kp regs0 m0 i p)) 0 = _
    rw [noComplB_lowS kp regs0 m0 i p (p + 1) (Nat.leRefl _)]
    rfl
  rw [h1, h2, Nat.add_right_comm]

/-- Per thread: issues = completions + outstanding. -/
theorem thread_countS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d : Nat) :
    ∀ p, cnt (isIS d) (tlist kp regs0 m0 i p) =
      cnt (isFS d) (tlist kp regs0 m0 i p) + outNS kp regs0 m0 i d p
  | 0 => rfl
  | p + 1 => by
    show cnt (isIS d) (app (tlist kp regs0 m0 i p) (evAt kp regs0 m0 i p)) =
      cnt (isFS d) (app (tlist kp regs0 m0 i p) (evAt kp regs0 m0 i p)) + outNS kp regs0 m0 i d (p + 1)
    rw [cnt_app, cnt_app, cnt_evAt_IS, cnt_evAt_FS, thread_countS kp regs0 m0 i d p, Nat.add_assoc,
      out_stepS, Nat.add_comm (outNS kp regs0 m0 i d (p + 1)), ← Nat.add_assoc]

end PerThreadS

/-! ### The positions before a key -/

section Key

variable {V : Type} [AccAdd V]

/-- Thread `i`'s action `k` comes before thread `i0`'s action `k0` (`Before`, as a Boolean). -/
def inP (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i0 k0 i k : Nat) : Bool :=
  decide (bars (baseProg kp) regs0 m0 i k < bars (baseProg kp) regs0 m0 i0 k0) ||
    (Nat.beq (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 i0 k0) &&
      (decide (i < i0) || (Nat.beq i i0 && decide (k < k0))))

theorem inP_of_before (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i0 k0 i k : Nat}
    (h : Before kp regs0 m0 i k i0 k0) : inP kp regs0 m0 i0 k0 i k = true := by
  cases h with
  | inl hl => exact or_true_l _ _ (decide_eq_true' hl)
  | inr h =>
    apply or_true_r
    show (Nat.beq (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 i0 k0) &&
      (decide (i < i0) || (Nat.beq i i0 && decide (k < k0)))) = true
    rw [h.1, beq_self]
    cases h.2 with
    | inl hi => exact or_true_l _ _ (decide_eq_true' hi)
    | inr h2 =>
      apply or_true_r
      rw [h2.1, beq_self, decide_eq_true' h2.2]
      rfl

theorem before_of_inP (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i0 k0 i k : Nat}
    (h : inP kp regs0 m0 i0 k0 i k = true) : Before kp regs0 m0 i k i0 k0 := by
  cases h1 : decide (bars (baseProg kp) regs0 m0 i k < bars (baseProg kp) regs0 m0 i0 k0) with
  | true => exact Or.inl (of_decide_eq_true' h1)
  | false =>
    have h' : (false || (Nat.beq (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 i0 k0) &&
      (decide (i < i0) || (Nat.beq i i0 && decide (k < k0))))) = true := by
      rw [← h1]; exact h
    have h2 : (Nat.beq (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 i0 k0) &&
      (decide (i < i0) || (Nat.beq i i0 && decide (k < k0)))) = true := h'
    have he := eq_of_beq' _ _ (and_left' h2)
    have h3 := and_right' h2
    refine Or.inr ⟨he, ?_⟩
    cases h4 : decide (i < i0) with
    | true => exact Or.inl (of_decide_eq_true' h4)
    | false =>
      rw [h4] at h3
      have h5 : (Nat.beq i i0 && decide (k < k0)) = true := h3
      exact Or.inr ⟨eq_of_beq' _ _ (and_left' h5), of_decide_eq_true' (and_right' h5)⟩

theorem before_trans (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {a ka b kb c kc : Nat}
    (h1 : Before kp regs0 m0 a ka b kb) (h2 : Before kp regs0 m0 b kb c kc) :
    Before kp regs0 m0 a ka c kc := by
  cases h1 with
  | inl l1 => exact Or.inl (Nat.ltOfLtOfLe l1 (before_bars kp regs0 m0 h2))
  | inr e1 =>
    cases h2 with
    | inl l2 => exact Or.inl (by rw [e1.1]; exact l2)
    | inr e2 =>
      refine Or.inr ⟨Eq.trans e1.1 e2.1, ?_⟩
      cases e1.2 with
      | inl a1 =>
        cases e2.2 with
        | inl a2 => exact Or.inl (Nat.ltTrans a1 a2)
        | inr b2 => rw [← b2.1]; exact Or.inl a1
      | inr b1 =>
        cases e2.2 with
        | inl a2 => rw [b1.1]; exact Or.inl a2
        | inr b2 => exact Or.inr ⟨Eq.trans b1.1 b2.1, Nat.ltTrans b1.2 b2.2⟩

theorem before_irrefl (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {a ka : Nat}
    (h : Before kp regs0 m0 a ka a ka) : False := by
  cases h with
  | inl l => exact Nat.ltIrrefl _ l
  | inr e =>
    cases e.2 with
    | inl l => exact Nat.ltIrrefl _ l
    | inr b => exact Nat.ltIrrefl _ b.2

theorem inP_downC (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i0 k0 i L : Nat) :
    DownC (inP kp regs0 m0 i0 k0 i) L := by
  intro k _ hq
  exact inP_of_before kp regs0 m0
    (before_trans kp regs0 m0 (before_same kp regs0 m0 (Nat.ltSuccSelf k)) (before_of_inP kp regs0 m0 hq))

theorem inP_false (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {i0 k0 j kf : Nat}
    (h : Before kp regs0 m0 i0 k0 j kf) : inP kp regs0 m0 i0 k0 j kf = false := by
  cases hq : inP kp regs0 m0 i0 k0 j kf with
  | false => rfl
  | true =>
    exact False.elim (before_irrefl kp regs0 m0 (before_trans kp regs0 m0 (before_of_inP kp regs0 m0 hq) h))

end Key

/-! ### The prefix of the built history before a position -/

section Prefix

variable {V : Type} [AccAdd V]

theorem app_nil' (l : List XEv) : app l [] = l := by
  induction l with
  | nil => rfl
  | cons x l ih => exact congrArg (List.cons x) ih

theorem gen_split (g : Nat → List (Nat × XEv)) (j : Nat) : ∀ n, j < n →
    ∃ R, (gen g n).map Prod.snd = app ((gen g j).map Prod.snd) (app ((g j).map Prod.snd) R)
  | 0, h => False.elim (Nat.notLtZero j h)
  | n + 1, h => by
    have e0 : (gen g (n + 1)).map Prod.snd =
        app ((gen g n).map Prod.snd) ((g n).map Prod.snd) := map_appP _ _
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
    | inl e => rw [e]; exact ⟨[], by rw [e0, app_nil']⟩
    | inr hl =>
      match gen_split g j n hl with
      | ⟨R, eR⟩ =>
        exact ⟨app R ((g n).map Prod.snd), by rw [e0, eR, app_assoc', app_assoc']⟩

theorem cond_combine (X Y Z W U : Bool) (c : Nat) (hXZ : X = true → Z = false)
    (hYW : Y = true → W = false) :
    cond X c 0 + cond Y (cond Z c 0) 0 + cond W (cond U (cond Z c 0) 0) 0 =
      cond (X || (Z && (Y || (W && U)))) c 0 := by
  cases X with
  | true =>
    rw [hXZ rfl]
    cases Y <;> cases W <;> cases U <;> rfl
  | false =>
    cases Y with
    | true =>
      rw [hYW rfl]
      cases Z <;> cases U <;> first | rfl | exact Nat.zero_add _
    | false => cases Z <;> cases W <;> cases U <;> first | rfl | exact Nat.zero_add _ | exact Eq.trans (Nat.add_zero _) (Nat.zero_add _)

theorem sumN_ind_lt (b c : Nat) : ∀ E, sumN (fun e => cond (Nat.beq b e) c 0) E = cond (decide (b < E)) c 0
  | 0 => by rw [decide_eq_false' (Nat.notLtZero b)]; rfl
  | E + 1 => by
    show sumN (fun e => cond (Nat.beq b e) c 0) E + cond (Nat.beq b E) c 0 = _
    rw [sumN_ind_lt b c E]
    cases Nat.ltOrGe b E with
    | inl hl =>
      rw [decide_eq_true' hl, decide_eq_true' (Nat.ltTrans hl (Nat.ltSuccSelf E)),
        beq_ne (fun h => Nat.ltIrrefl E (by rw [h] at hl; exact hl))]
      rfl
    | inr hg =>
      rw [decide_eq_false' (fun h => Nat.ltIrrefl b (Nat.ltOfLtOfLe h hg))]
      cases Nat.eqOrLtOfLe hg with
      | inl e => rw [e, beq_self, decide_eq_true' (Nat.ltSuccSelf b)]; exact Nat.zero_add c
      | inr hl =>
        rw [beq_ne (fun h => Nat.ltIrrefl E (by rw [h] at hl; exact hl)),
          decide_eq_false' (fun h => Nat.ltIrrefl b (Nat.ltOfLtOfLe h hl))]
        rfl

theorem sumN_pick (X : Nat → Nat) (i0 : Nat) : ∀ N, i0 < N →
    sumN (fun i => cond (Nat.beq i i0) (X i) 0) N = X i0
  | 0, h => False.elim (Nat.notLtZero i0 h)
  | N + 1, h => by
    show sumN (fun i => cond (Nat.beq i i0) (X i) 0) N + cond (Nat.beq N i0) (X N) 0 = X i0
    cases Nat.eqOrLtOfLe (Nat.leOfLtSucc h) with
    | inl e =>
      rw [e, beq_self]
      rw [sumN_zero (fun i => cond (Nat.beq i N) (X i) 0) N (fun k hk => by
        show cond (Nat.beq k N) (X k) 0 = 0
        rw [beq_ne (fun h' => Nat.ltIrrefl N (by rw [h'] at hk; exact hk))]; rfl)]
      exact Nat.zero_add _
    | inr hl =>
      rw [sumN_pick X i0 N hl, beq_ne (fun h' => Nat.ltIrrefl N (by rw [← h'] at hl; exact hl))]
      rfl

theorem sumN_cond (b : Bool) (g : Nat → Nat) (L : Nat) :
    cond b (sumN g L) 0 = sumN (fun k => cond b (g k) 0) L := by
  cases b with
  | true => rfl
  | false => exact Eq.symm (sumN_zero _ L (fun _ _ => rfl))

theorem sumN_add3 (f g h : Nat → Nat) (n : Nat) :
    sumN f n + sumN g n + sumN h n = sumN (fun k => f k + g k + h k) n := by
  rw [← sumN_add, ← sumN_add]

end Prefix

section Split

variable {V : Type} [AccAdd V]

theorem lt_beq_false (a b : Nat) (h : decide (a < b) = true) : Nat.beq a b = false :=
  beq_ne (fun e => Nat.ltIrrefl b (by have h' := of_decide_eq_true' h; rw [e] at h'; exact h'))

theorem cnt_thr (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L e i : Nat)
    (f : XEv → Nat) : cnt f ((thrEv kp regs0 m0 L e i).map Prod.snd) =
      sumN (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) e)
        (cnt f (evAt kp regs0 m0 i k)) 0) L := by
  show cnt f ((gen (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) e)
    (tagE e (evAt kp regs0 m0 i k)) []) L).map Prod.snd) = _
  rw [cnt_gen]
  exact sumN_congr _ _ L (fun k _ => cnt_cond f _ e _)

theorem cnt_epoch (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L e : Nat)
    (f : XEv → Nat) : cnt f ((epochEv kp N regs0 m0 L e).map Prod.snd) =
      sumN (fun i => sumN (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) e)
        (cnt f (evAt kp regs0 m0 i k)) 0) L) N := by
  show cnt f ((gen (fun i => thrEv kp regs0 m0 L e i) N).map Prod.snd) = _
  rw [cnt_gen]
  exact sumN_congr _ _ N (fun i _ => cnt_thr kp regs0 m0 L e i f)

/-- The built history split at the first event of thread `i0`'s action `k0`: before it, the
events of the actions before `(i0, k0)` in `Before` order. -/
theorem canon_prefix (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) (i0 k0 : Nat) (x : XEv) (rest : List XEv) (hi0 : i0 < N)
    (hk0 : k0 < L) (hev : evAt kp regs0 m0 i0 k0 = x :: rest) :
    ∃ P Q, (canonCp kp N regs0 m0 L E).map Prod.snd = app P (x :: Q) ∧
      ∀ f, cnt f P = sumN (fun i => sumN (fun k => cond (inP kp regs0 m0 i0 k0 i k)
        (cnt f (evAt kp regs0 m0 i k)) 0) L) N := by
  have he0 := bars_lt kp N regs0 m0 hb hi0 hk0
  match gen_split (fun e => epochEv kp N regs0 m0 L e) (bars (baseProg kp) regs0 m0 i0 k0) E he0,
    gen_split (fun i => thrEv kp regs0 m0 L (bars (baseProg kp) regs0 m0 i0 k0) i) i0 N hi0,
    gen_split (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i0 k)
      (bars (baseProg kp) regs0 m0 i0 k0))
      (tagE (bars (baseProg kp) regs0 m0 i0 k0) (evAt kp regs0 m0 i0 k)) []) k0 L hk0 with
  | ⟨R1, e1⟩, ⟨R2, e2⟩, ⟨R3, e3⟩ =>
    have e4 : (cond (Nat.beq (bars (baseProg kp) regs0 m0 i0 k0) (bars (baseProg kp) regs0 m0 i0 k0))
        (tagE (bars (baseProg kp) regs0 m0 i0 k0) (evAt kp regs0 m0 i0 k0)) []).map Prod.snd =
        x :: rest := by
      rw [beq_self]; show (tagE _ _).map Prod.snd = _; rw [map_tagE, hev]
    refine ⟨app ((gen (fun e => epochEv kp N regs0 m0 L e) (bars (baseProg kp) regs0 m0 i0 k0)).map Prod.snd)
      (app ((gen (fun i => thrEv kp regs0 m0 L (bars (baseProg kp) regs0 m0 i0 k0) i) i0).map Prod.snd)
        ((gen (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i0 k)
          (bars (baseProg kp) regs0 m0 i0 k0))
          (tagE (bars (baseProg kp) regs0 m0 i0 k0) (evAt kp regs0 m0 i0 k)) []) k0).map Prod.snd)),
      app rest (app R3 (app R2 R1)), ?_, ?_⟩
    · have e1' : (canonCp kp N regs0 m0 L E).map Prod.snd = _ := e1
      have e2' : (epochEv kp N regs0 m0 L (bars (baseProg kp) regs0 m0 i0 k0)).map Prod.snd = _ := e2
      have e3' : (thrEv kp regs0 m0 L (bars (baseProg kp) regs0 m0 i0 k0) i0).map Prod.snd = _ := e3
      rw [e1', e2', e3', e4]
      simp only [app_assoc']
      rfl
    · intro f
      rw [cnt_app, cnt_app, cnt_gen, cnt_gen, cnt_gen]
      have hA : sumN (fun e => cnt f ((epochEv kp N regs0 m0 L e).map Prod.snd))
          (bars (baseProg kp) regs0 m0 i0 k0) =
          sumN (fun i => sumN (fun k => cond (decide (bars (baseProg kp) regs0 m0 i k <
            bars (baseProg kp) regs0 m0 i0 k0)) (cnt f (evAt kp regs0 m0 i k)) 0) L) N := by
        rw [sumN_congr _ _ _ (fun e _ => cnt_epoch kp N regs0 m0 L e f), sumN_swap]
        apply sumN_congr
        intro i _
        rw [sumN_swap]
        apply sumN_congr
        intro k _
        exact sumN_ind_lt _ _ _
      have hB : sumN (fun i => cnt f ((thrEv kp regs0 m0 L (bars (baseProg kp) regs0 m0 i0 k0) i).map
          Prod.snd)) i0 =
          sumN (fun i => sumN (fun k => cond (decide (i < i0))
            (cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 i0 k0))
              (cnt f (evAt kp regs0 m0 i k)) 0) 0) L) N := by
        rw [← sumN_cut (fun i => cnt f ((thrEv kp regs0 m0 L (bars (baseProg kp) regs0 m0 i0 k0) i).map
          Prod.snd)) i0 N (Nat.leOfLt hi0)]
        apply sumN_congr
        intro i _
        show cond (decide (i < i0))
          (cnt f ((thrEv kp regs0 m0 L (bars (baseProg kp) regs0 m0 i0 k0) i).map Prod.snd)) 0 = _
        rw [cnt_thr, sumN_cond]
      have hC : sumN (fun k => cnt f ((cond (Nat.beq (bars (baseProg kp) regs0 m0 i0 k)
          (bars (baseProg kp) regs0 m0 i0 k0))
          (tagE (bars (baseProg kp) regs0 m0 i0 k0) (evAt kp regs0 m0 i0 k)) []).map Prod.snd)) k0 =
          sumN (fun i => sumN (fun k => cond (Nat.beq i i0) (cond (decide (k < k0))
            (cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 i0 k0))
              (cnt f (evAt kp regs0 m0 i k)) 0) 0) 0) L) N := by
        have h1 : sumN (fun k => cnt f ((cond (Nat.beq (bars (baseProg kp) regs0 m0 i0 k)
            (bars (baseProg kp) regs0 m0 i0 k0))
            (tagE (bars (baseProg kp) regs0 m0 i0 k0) (evAt kp regs0 m0 i0 k)) []).map Prod.snd)) k0 =
            sumN (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i0 k)
              (bars (baseProg kp) regs0 m0 i0 k0)) (cnt f (evAt kp regs0 m0 i0 k)) 0) k0 :=
          sumN_congr _ _ k0 (fun k _ => cnt_cond f _ _ _)
        rw [h1, ← sumN_cut (fun k => cond (Nat.beq (bars (baseProg kp) regs0 m0 i0 k)
              (bars (baseProg kp) regs0 m0 i0 k0)) (cnt f (evAt kp regs0 m0 i0 k)) 0) k0 L
              (Nat.leOfLt hk0)]
        have hp := sumN_pick (fun i => sumN (fun k => cond (decide (k < k0))
            (cond (Nat.beq (bars (baseProg kp) regs0 m0 i k) (bars (baseProg kp) regs0 m0 i0 k0))
              (cnt f (evAt kp regs0 m0 i k)) 0) 0) L) i0 N hi0
        exact Eq.trans (Eq.symm hp) (sumN_congr _ _ N (fun i _ => sumN_cond _ _ _))
      rw [hA, hB, hC, ← Nat.add_assoc, sumN_add3]
      apply sumN_congr
      intro i _
      exact Eq.trans (sumN_add3 _ _ _ L) (sumN_congr _ _ L (fun k _ =>
        cond_combine _ _ _ _ _ _ (lt_beq_false _ _) (lt_beq_false _ _)))

end Split

/-! ### `Balanced` (at the first event of an action) for every bounded program -/

section Bal

variable {V : Type} [AccAdd V]

theorem thread_sum (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d p : Nat) :
    sumN (fun k => issD d (kAct kp regs0 m0 i k)) p =
      sumN (fun k => finsN kp regs0 m0 i d k) p + outN kp regs0 m0 i d p := by
  have h1 := thread_count kp regs0 m0 i d p
  rw [cnt_tlist, cnt_tlist] at h1
  rw [← sumN_congr _ _ p (fun k _ => cnt_evAt_I kp regs0 m0 i d k),
    ← sumN_congr _ _ p (fun k _ => cnt_evAt_F kp regs0 m0 i d k)]
  exact h1

theorem thread_sumS (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i d p : Nat) :
    sumN (fun k => issDS d (kAct kp regs0 m0 i k)) p =
      sumN (fun k => finsNS kp regs0 m0 i d k) p + outNS kp regs0 m0 i d p := by
  have h1 := thread_countS kp regs0 m0 i d p
  rw [cnt_tlist, cnt_tlist] at h1
  rw [← sumN_congr _ _ p (fun k _ => cnt_evAt_IS kp regs0 m0 i d k),
    ← sumN_congr _ _ p (fun k _ => cnt_evAt_FS kp regs0 m0 i d k)]
  exact h1

/-- Thread `j`'s cut `p` lies after the copy's issue and at latest at its first completion. -/
theorem cut_bounds (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L i0 k0 j kiss kf : Nat)
    (hkiss : kiss < L) (hkf : kf < L) (hb1 : Before kp regs0 m0 j kiss i0 k0)
    (hb2 : Before kp regs0 m0 i0 k0 j kf) :
    kiss < cntB (inP kp regs0 m0 i0 k0 j) L ∧ cntB (inP kp regs0 m0 i0 k0 j) L ≤ kf := by
  have hd := inP_downC kp regs0 m0 i0 k0 j L
  have c1 := cntB_char _ L hd kiss hkiss
  have c2 := cntB_char _ L hd kf hkf
  rw [inP_of_before kp regs0 m0 hb1] at c1
  rw [inP_false kp regs0 m0 hb2] at c2
  refine ⟨of_decide_eq_true' (Eq.symm c1), ?_⟩
  cases Nat.ltOrGe kf (cntB (inP kp regs0 m0 i0 k0 j) L) with
  | inl hl => exact False.elim (of_decide_eq_false' (Eq.symm c2) hl)
  | inr hg => exact hg

theorem one_le_outN (kp : KProg V) (regs0 : Nat → Nat → V) (m0 : Nat → V) {j kiss kf p : Nat}
    {c : Cp} (hia : IssueAt kp regs0 m0 j kiss c) (hnd : NotDone kp regs0 m0 j kiss kf)
    (h1 : kiss < p) (h2 : p ≤ kf) :
    1 ≤ outN kp regs0 m0 j c.dst p ∧ 1 ≤ outNS kp regs0 m0 j c.src p := by
  match hia with
  | ⟨pc, ei⟩ =>
    have hn := noComplB_of kp regs0 m0 hnd p h2
    constructor
    · have h := le_sumN (fun kiss' => cond (noComplB kp regs0 m0 j kiss' p)
        (issD c.dst (kAct kp regs0 m0 j kiss')) 0) kiss p h1
      have e : cond (noComplB kp regs0 m0 j kiss p) (issD c.dst (kAct kp regs0 m0 j kiss)) 0 = 1 := by
        rw [hn, ei]; show cond (Nat.beq c.dst c.dst) 1 0 = 1; rw [beq_self]; rfl
      exact Nat.leTrans (Nat.leOfEq (Eq.symm e)) h
    · have h := le_sumN (fun kiss' => cond (noComplB kp regs0 m0 j kiss' p)
        (issDS c.src (kAct kp regs0 m0 j kiss')) 0) kiss p h1
      have e : cond (noComplB kp regs0 m0 j kiss p) (issDS c.src (kAct kp regs0 m0 j kiss)) 0 = 1 := by
        rw [hn, ei]; show cond (Nat.beq c.src c.src) 1 0 = 1; rw [beq_self]; rfl
      exact Nat.leTrans (Nat.leOfEq (Eq.symm e)) h

/-- `Balanced` at the first event of an action that is not the `exit`. -/
def Balanced1 (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat) :
    Prop :=
  ∀ j kiss kf c i k x rest, j < N → i < N → IssueAt kp regs0 m0 j kiss c →
    First kp regs0 m0 j kiss kf → kAct kp regs0 m0 i k ≠ KAct.base Act.exit →
    evAt kp regs0 m0 i k = x :: rest →
    Before kp regs0 m0 j kiss i k → Before kp regs0 m0 i k j kf →
    ∃ P Q, (canonCp kp N regs0 m0 L E).map Prod.snd = app P (x :: Q) ∧
      cnt (isF c.dst) P < cnt (isI c.dst) P ∧ cnt (isFS c.src) P < cnt (isIS c.src) P

theorem balanced1 (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) : Balanced1 kp N regs0 m0 L E := by
  intro j kiss kf c i k x rest hj hi hia hfirst hne hev hb1 hb2
  match (hb i hi).1, (hb j hj).1, hia, hfirst with
  | ⟨kx, hkx, ex⟩, ⟨kxj, hkxj, exj⟩, ⟨pc, ei⟩, ⟨_, _, h3⟩ =>
    have hk : k < L := Nat.ltTrans (lt_of_not_exit kp regs0 m0 ex hne) hkx
    have hne' : kAct kp regs0 m0 j kiss ≠ KAct.base Act.exit := by
      rw [ei]; exact fun e => KAct.noConfusion e
    have hix := lt_of_not_exit kp regs0 m0 exj hne'
    have hfx : kf ≤ kxj := by
      cases Nat.ltOrGe kxj kf with
      | inl hl => exact False.elim (h3 kxj hix hl (Or.inr exj))
      | inr hg => exact hg
    have hkiss : kiss < L := Nat.ltTrans hix hkxj
    have hkf : kf < L := Nat.ltOfLeOfLt hfx hkxj
    match canon_prefix kp N regs0 m0 L E hb i k x rest hi hk hev,
      cut_bounds kp regs0 m0 L i k j kiss kf hkiss hkf hb1 hb2 with
    | ⟨P, Q, e, hc⟩, ⟨c1, c2⟩ =>
      match one_le_outN kp regs0 m0 hia h3 c1 c2 with
      | ⟨o1, o2⟩ =>
      refine ⟨P, Q, e, ?_, ?_⟩
      · have hI : cnt (isI c.dst) P = sumN (fun t => sumN (fun k' => finsN kp regs0 m0 t c.dst k')
            (cntB (inP kp regs0 m0 i k t) L)) N +
            sumN (fun t => outN kp regs0 m0 t c.dst (cntB (inP kp regs0 m0 i k t) L)) N := by
          rw [hc, ← sumN_add]
          apply sumN_congr
          intro t _
          rw [← thread_sum, ← sumN_downC _ _ L (inP_downC kp regs0 m0 i k t L)]
          exact sumN_congr _ _ L (fun k' _ => by rw [cnt_evAt_I])
        have hF : cnt (isF c.dst) P = sumN (fun t => sumN (fun k' => finsN kp regs0 m0 t c.dst k')
            (cntB (inP kp regs0 m0 i k t) L)) N := by
          rw [hc]
          apply sumN_congr
          intro t _
          rw [← sumN_downC _ _ L (inP_downC kp regs0 m0 i k t L)]
          exact sumN_congr _ _ L (fun k' _ => by rw [cnt_evAt_F])
        rw [hI, hF]
        exact Nat.addLeAddLeft (Nat.leTrans o1 (le_sumN (fun t => outN kp regs0 m0 t c.dst
          (cntB (inP kp regs0 m0 i k t) L)) j N hj)) _
      · have hI : cnt (isIS c.src) P = sumN (fun t => sumN (fun k' => finsNS kp regs0 m0 t c.src k')
            (cntB (inP kp regs0 m0 i k t) L)) N +
            sumN (fun t => outNS kp regs0 m0 t c.src (cntB (inP kp regs0 m0 i k t) L)) N := by
          rw [hc, ← sumN_add]
          apply sumN_congr
          intro t _
          rw [← thread_sumS, ← sumN_downC _ _ L (inP_downC kp regs0 m0 i k t L)]
          exact sumN_congr _ _ L (fun k' _ => by rw [cnt_evAt_IS])
        have hF : cnt (isFS c.src) P = sumN (fun t => sumN (fun k' => finsNS kp regs0 m0 t c.src k')
            (cntB (inP kp regs0 m0 i k t) L)) N := by
          rw [hc]
          apply sumN_congr
          intro t _
          rw [← sumN_downC _ _ L (inP_downC kp regs0 m0 i k t L)]
          exact sumN_congr _ _ L (fun k' _ => by rw [cnt_evAt_FS])
        rw [hI, hF]
        exact Nat.addLeAddLeft (Nat.leTrans o2 (le_sumN (fun t => outNS kp regs0 m0 t c.src
          (cntB (inP kp regs0 m0 i k t) L)) j N hj)) _

/-- No `TagRace`: from the tag checks on the built history, for every bounded program. -/
theorem noTagRace_exec (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V) (L E : Nat)
    (hb : Bounded kp N regs0 m0 L E) (ha : accepts (canonCp kp N regs0 m0 L E) = true) :
    ¬TagRace kp N regs0 m0 := by
  intro hr
  match hr with
  | ⟨j, kiss, kf, c, i, k, hj, hi, hia, hfirst, hcc, hb1, hb2⟩ =>
    match evOf_copyConf (t := i) hcc with
    | ⟨x, ex, hx, _⟩ =>
      have hne : kAct kp regs0 m0 i k ≠ KAct.base Act.exit := by
        intro e
        have hs : soloAct (baseProg kp) regs0 m0 i k = Act.exit := by rw [soloAct_kAct, e]; rfl
        rw [hs] at ex
        exact Option.noConfusion ex
      have hev : evAt kp regs0 m0 i k =
          x :: app (issEv kp regs0 m0 i k) (finsUp kp regs0 m0 i k k) := by
        show app (optL (evOf i (soloAct (baseProg kp) regs0 m0 i k))) _ = _
        rw [ex]
        rfl
      match balanced1 kp N regs0 m0 L E hb j kiss kf c i k x _ hj hi hia hfirst hne hev hb1 hb2 with
      | ⟨P, Q, e, h1, h2⟩ =>
        exact tag_between kp N regs0 m0 L E (xcheck_of_accepts _ ha) (allDone kp N regs0 m0 L E hb)
          x c hx P Q e h1 h2

/-- No `CopyTagRace`: from the tag checks on the built history, for every bounded program. -/
theorem noCopyTagRace_exec (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (L E : Nat) (hb : Bounded kp N regs0 m0 L E) (ha : accepts (canonCp kp N regs0 m0 L E) = true) :
    ¬CopyTagRace kp N regs0 m0 := by
  intro hr
  match hr with
  | ⟨j, kiss, kf, c, j', kiss', d, hj, hj', _, hia, hfirst, ⟨pc, ei⟩, hdd, hb1, hb2⟩ =>
    have hne : kAct kp regs0 m0 j' kiss' ≠ KAct.base Act.exit := by
      rw [ei]; exact fun e => KAct.noConfusion e
    have hev : evAt kp regs0 m0 j' kiss' =
        XEv.iss j' d.src d.dst :: finsUp kp regs0 m0 j' kiss' kiss' := by
      show app (optL (evOf j' (soloAct (baseProg kp) regs0 m0 j' kiss')))
        (app (issK j' (kAct kp regs0 m0 j' kiss')) (finsUp kp regs0 m0 j' kiss' kiss')) = _
      rw [soloAct_kAct, ei]
      rfl
    match balanced1 kp N regs0 m0 L E hb j kiss kf c j' kiss' _ _ hj hj' hia hfirst hne hev hb1 hb2 with
    | ⟨P, Q, e, h1, h2⟩ =>
      exact tag_between kp N regs0 m0 L E (xcheck_of_accepts _ ha) (allDone kp N regs0 m0 L E hb)
        _ c (Eq.symm hdd) P Q e h1 h2

/-- The goal theorem: if the executor's history built from the program (`canonCp`: epoch by
epoch, threads in order, completions at the `wait` or `exit`) passes the executor's checks
(`CpCheck.accepts`: the `Pending` tag and `Cta::inflight` checks, and the epoch race check),
then every `CpSem` schedule of threads and copy engine from the launch is `CpRaceFree`.
Hypotheses: whole-CTA `bar.sync` barriers, data independence, the run's bounds, `Disjoint`. -/
theorem cpRaceFree_of_exec_full (kp : KProg V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (R : Nat → Nat → (Nat → V) → (Nat → V) → Prop)
    (hsync : SyncAll (baseProg kp) N) (hind : KDataIndep kp R)
    (hR0 : ∀ i, R i 0 (regs0 i) (regs0 i)) (L E : Nat) (hb : Bounded kp N regs0 m0 L E)
    (hdis : Disjoint kp N regs0 m0) (ha : accepts (canonCp kp N regs0 m0 L E) = true) :
    CpRaceFree kp N (kinit regs0 m0) :=
  cpRaceFree_of_exec kp N regs0 m0 R hsync hind hR0 L E hb hdis ha
    (noTagRace_exec kp N regs0 m0 L E hb ha) (noCopyTagRace_exec kp N regs0 m0 L E hb ha)

end Bal

namespace Ex

open CpSem.Example
open CpLink.Ex

/-- `kp2` race free from the executor's checks on its built history alone. -/
theorem kp2_raceFree_full : CpRaceFree kp2 2 s0 :=
  cpRaceFree_of_exec_full kp2 2 r0 m0 (fun _ _ _ _ => True) kp2_sync kp2_indep (fun _ => trivial)
    6 2 kp2_bounded kp2_disjoint kp2_accepted

/-! `Disjoint` is needed with `CpCheck`'s tag checks: one thread issues `0 → 1`, then `2 → 0`
(the second copy's destination is the first one's source, in flight), commits, waits.  The
built history is accepted (`CpCheck.ok` checks an issue's SOURCE against the `Pending` tag but
not its destination against `os`), the run is bounded, and the program is not race free (both
copies pending, `CopyConflict`).  In PTX this cannot arise (`cp.async` copies global to
shared); the Rust's issue stores `Pending` into the destination through `access`, which would
report a store to an in-flight source granule of the same space (read off the Rust). -/

def kpAlias : KProg Nat := fun i pc _ =>
  match i, pc with
  | 0, 0 => KAct.issue 0 1 1
  | 0, 1 => KAct.issue 2 0 2
  | 0, 2 => KAct.commit 3
  | 0, 3 => KAct.wait 0 4
  | _, _ => KAct.base Act.exit

theorem canon_kpAlias : canonCp kpAlias 1 r0 m0 6 1 =
    [(0, XEv.iss 0 0 1), (0, XEv.iss 0 2 0), (0, XEv.fin 0 0 1), (0, XEv.fin 0 2 0)] := rfl

theorem kpAlias_accepted : accepts (canonCp kpAlias 1 r0 m0 6 1) = true := rfl

theorem kpAlias_bounded : Bounded kpAlias 1 r0 m0 6 1 := by
  intro j hj
  cases j with
  | zero => exact ⟨⟨4, by decide, rfl⟩, by decide⟩
  | succ j => exact False.elim (Nat.notLtZero j (Nat.lt_of_succ_lt_succ hj))

theorem kpAlias_not_free : ¬CpRaceFree kpAlias 1 s0 := by
  intro h
  have hr : KReach kpAlias 1 s0 (tnext kpAlias 1 0 (tnext kpAlias 1 0 s0)) :=
    KReach.step (kstep_thr kpAlias 1 0 s0 (by decide) rfl (fun n pc e => KAct.noConfusion e))
      (KReach.step (kstep_thr kpAlias 1 0 (tnext kpAlias 1 0 s0) (by decide) rfl
        (fun n pc e => KAct.noConfusion e)) (KReach.refl _))
  exact (h _ hr).2.2 0 0 0 1 ⟨0, 1, 0⟩ ⟨2, 0, 0⟩ (by decide) (by decide) (by decide) (by decide)
    (fun e => Nat.noConfusion e.2) rfl rfl (Or.inr (Or.inl rfl))

theorem kpAlias_hi0 (p : Nat) (regs : Nat → Nat) : kpAlias 0 (p + 4) regs = KAct.base Act.exit := rfl
theorem kpAlias_hi1 (i p : Nat) (regs : Nat → Nat) : kpAlias (i + 1) p regs = KAct.base Act.exit :=
  rfl

theorem kpAlias_sync : SyncAll (baseProg kpAlias) 1 := by
  intro i pc regs b n w pc' h
  have h' : baseOf pc regs (kpAlias i pc regs) = Act.arrive b n w pc' := h
  cases i with
  | zero =>
    cases pc with
    | zero => exact Act.noConfusion h'
    | succ pc => cases pc with
      | zero => exact Act.noConfusion h'
      | succ pc => cases pc with
        | zero => exact Act.noConfusion h'
        | succ pc => cases pc with
          | zero => exact Act.noConfusion h'
          | succ pc => rw [kpAlias_hi0 pc regs] at h'; exact Act.noConfusion h'
  | succ i => rw [kpAlias_hi1 i pc regs] at h'; exact Act.noConfusion h'

/-- So `kpAlias` meets every hypothesis of `cpRaceFree_of_exec_full` but `Disjoint`. -/
theorem kpAlias_not_disjoint : ¬Disjoint kpAlias 1 r0 m0 := fun hd =>
  kpAlias_not_free (cpRaceFree_of_exec_full kpAlias 1 r0 m0 (fun _ _ _ _ => True) kpAlias_sync
    (fun i pc regs regs' _ => kactRel_true (kpAlias i pc regs) regs regs') (fun _ => trivial) 6 1
    kpAlias_bounded hd kpAlias_accepted)

end Ex

end CpHist
end Kcert
