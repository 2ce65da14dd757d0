import Kcert.Rules.FieldFast

/-!
# Atom lookup with a length filter, for the DAG pass

`findAtom` compares a new atom's arguments with those of every table entry of its kind
(`argsMatchTag`, through `nfEquiv`); for `max`/`min` atoms that is a set comparison, quadratic
in the number of arguments.  Along the running `max` of attention kernels every node makes a
`max` atom with one argument more than the one before, so each lookup compared against every
earlier, shorter argument list (cubic per node).  `findAtomF` first compares the lengths of the
argument lists (`Nat.beq`), and only entries of the same length are compared.  Soundness needs
only that a FOUND entry is verified (`findAtomF_sound`, as `findAtom_sound`); an entry skipped
only leaves a new, duplicate atom, which `OK` allows.  (It may accept less than `findAtom`: a
`max` whose argument lists coincide as sets but differ in length gets a new atom.)

`mkAtomF`, `atomF`, `latticeOfF`, `latticeF`, `xMaxF`, `xMinF` are `mkAtom`, ..., `xMin` with
`findAtomF`, and `atomF_inv'`, `latticeF_inv`, `xMaxF_inv`, `xMinF_inv` are the proofs of
`Kcert/Rules/Field.lean` and `Kcert/Rules/FieldInf.lean` with it.  The DAG pass
(`Kcert/Rules/FieldDag.lean`) uses `xMaxF`/`xMinF`.
-/

namespace Kcert
namespace Rules

open ExpField EVal

section FastLatModel

variable {K C : Type} (ops : FieldCoeffOps K C)

section
variable (P : Nat → Bool)

/-- `findAtom`, comparing only entries whose argument lists have the new atom's length. -/
def findAtomF (tag : Tag) (args : List (NF C)) : Tab K C → Option Nat
  | [] => none
  | e :: T => cond (decide (e.tag = tag) && (Nat.beq e.args.length args.length && argsMatchTag ops P tag e.args args)) (some T.length)
      (findAtomF tag args T)

end

/-- `mkAtom` with `findAtomF`. -/
def mkAtomF (tag : Tag) (args : List (NF C)) (src : Term K) (T : Tab K C) : NF C × Tab K C :=
  mkAtomAt ops tag args src T (findAtomF ops (tabPos ops T) tag args T)

/-- `atom` with `findAtomF`. -/
def atomF (tag : Tag) (args : List (NF C)) (src : Term K) (T : Tab K C) :
    Option (NF C × Tab K C) :=
  cond (allPosDen ops (tabPos ops T) args) (some (mkAtomF ops tag args src T)) none

def latticeOfF (tag : Tag) (src : Term K) (T : Tab K C) : List (NF C) → Option (NF C × Tab K C)
  | [] => none
  | v0 :: rest => cond (allPosDen ops (tabPos ops T) (v0 :: rest)
      && allEquivTo ops (tabPos ops T) v0 rest) (some (v0, T))
      (atomF ops tag (v0 :: rest) src T)

/-- `lattice` with `findAtomF`. -/
def latticeF (tag : Tag) (va vb : NF C) (src : Term K) (T : Tab K C) : Option (NF C × Tab K C) :=
  latticeOfF ops tag src T (prepend (latticeArgs ops tag T va) (latticeArgs ops tag T vb))

/-- `xMax` with `latticeF`. -/
def xMaxF (src : Term K) : XV C → XV C → Tab K C → Option (XV C × Tab K C)
  | XV.frac a, XV.frac b, T => liftF (latticeF ops Tag.max a b src T)
  | XV.ninf, XV.frac b, T => some (XV.frac b, T)
  | XV.frac a, XV.ninf, T => some (XV.frac a, T)
  | XV.ninf, XV.ninf, T => some (XV.ninf, T)
  | _, _, _ => none

/-- `xMin` with `latticeF`. -/
def xMinF (src : Term K) : XV C → XV C → Tab K C → Option (XV C × Tab K C)
  | XV.frac a, XV.frac b, T => liftF (latticeF ops Tag.min a b src T)
  | XV.pinf, XV.frac b, T => some (XV.frac b, T)
  | XV.frac a, XV.pinf, T => some (XV.frac a, T)
  | XV.pinf, XV.pinf, T => some (XV.pinf, T)
  | _, _, _ => none

end FastLatModel

section FastLatTable

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)
variable (I : Interp K α) (ρ : Env α) (evT : Term K → α)

/-- A found entry has the kind and matching arguments (`findAtom_sound`). -/
theorem findAtomF_sound (ν : Nat → α) (P : Nat → Bool) (tag : Tag) (args : List (NF C))
    (T : Tab K C) (hg : Good cc I ρ ν T) :
    ∀ n, findAtomF ops P tag args T = some n →
      ∃ e : Entry K C, e.tag = tag ∧ argsMatchTag ops P tag e.args args = true ∧
        ν n = entrySem cc I ρ ν e := by
  induction T with
  | nil =>
    intro n h
    cases h
  | cons e T ih =>
    intro n h
    cases hc : (decide (e.tag = tag) && (Nat.beq e.args.length args.length && argsMatchTag ops P tag e.args args))
    · have h' : findAtomF ops P tag args T = some n := by
        rw [← h]
        show _ = cond (decide (e.tag = tag) && (Nat.beq e.args.length args.length && argsMatchTag ops P tag e.args args)) (some T.length)
          (findAtomF ops P tag args T)
        rw [hc]
        rfl
      exact ih hg.2 n h'
    · have h' : some T.length = some n := by
        rw [← h]
        show _ = cond (decide (e.tag = tag) && (Nat.beq e.args.length args.length && argsMatchTag ops P tag e.args args)) (some T.length)
          (findAtomF ops P tag args T)
        rw [hc]
        rfl
      have hn : T.length = n := Option.noConfusion h' id
      rw [← hn]
      exact ⟨e, of_decide_eq_true' (and_left' hc), and_right' (and_right' hc), hg.1⟩

/-- `atom_inv'` for `atomF`. -/
theorem atomF_inv' (hI : FieldInterp I) (tag : Tag) (args : List (NF C)) (src : Term K)
    (T T' : Tab K C) (v : NF C)
    (hval' : ∀ ν, Good cc I ρ ν T → allPosDen ops (tabPos ops T) args = true →
      tagSem I tag (args.map (nfVal cc (envOf ρ ν))) = evT src)
    (h : atomF ops tag args src T = some (v, T')) : Inv cc I ρ evT T src v T' := by
  have h1 : cond (allPosDen ops (tabPos ops T) args) (some (mkAtomF ops tag args src T)) none
    = some (v, T') := h
  cases hp : allPosDen ops (tabPos ops T) args
  · rw [hp] at h1
    cases h1
  · rw [hp] at h1
    have h2 : mkAtomAt ops tag args src T (findAtomF ops (tabPos ops T) tag args T) = (v, T') :=
      Option.noConfusion h1 id
    have hval : ∀ ν, Good cc I ρ ν T →
        tagSem I tag (args.map (nfVal cc (envOf ρ ν))) = evT src :=
      fun ν hg => hval' ν hg hp
    cases hf : findAtomF ops (tabPos ops T) tag args T with
    | none =>
      rw [hf] at h2
      have hv : atomNF ops T.length = v := congrArg Prod.fst h2
      have hT : ⟨tag, args, src⟩ :: T = T' := congrArg Prod.snd h2
      rw [← hv, ← hT]
      refine ⟨⟨[⟨tag, args, src⟩], rfl⟩, fun o => ⟨fun ν hg => hval ν hg, o⟩, ?_⟩
      intro ν hg
      have e : ν T.length = evT src := hg.1.trans (hval ν hg.2)
      have r := rep_atom cc ρ ν T.length
      rw [e] at r
      exact r
    | some n =>
      rw [hf] at h2
      have hv : atomNF ops n = v := congrArg Prod.fst h2
      have hT : T = T' := congrArg Prod.snd h2
      rw [← hv, ← hT]
      apply inv_pure
      intro ν hg
      match findAtomF_sound cc I ρ ν (tabPos ops T) tag args T hg n hf with
      | ⟨e, het, hm, hn⟩ =>
        have ev : ν n = evT src := by
          rw [hn]
          show tagSem I e.tag (e.args.map (nfVal cc (envOf ρ ν))) = _
          rw [het, argsMatchTag_sound cc I hI (envOf ρ ν) (tabPos ops T)
            (good_pos cc I ρ hI T ν hg) tag e.args args hm, hval ν hg]
        have r := rep_atom cc ρ ν n
        rw [ev] at r
        exact r

/-- `lattice_inv` for `latticeF`. -/
theorem latticeF_inv (hI : FieldInterp I) (tag : Tag) (op : α → α → α)
    (hop : ∀ xs, tagSem I tag xs = foldOp op xs)
    (hA : ∀ a b c, op (op a b) c = op a (op b c)) (hId : ∀ a, op a a = a)
    (T T1 T2 T' : Tab K C) (a b src : Term K) (va vb v : NF C)
    (ha : Inv cc I ρ evT T a va T1) (hb : Inv cc I ρ evT T1 b vb T2)
    (h : latticeF ops tag va vb src T2 = some (v, T'))
    (hsem : op (evT a) (evT b) = evT src) :
    Inv cc I ρ evT T src v T' := by
  match ha, hb with
  | ⟨⟨l1, h1⟩, hok1, hra⟩, ⟨⟨l2, h2⟩, hok2, hrb⟩ =>
    apply inv_after cc I ρ evT T T2 T' src v (ext_trans T T1 T2 ⟨l1, h1⟩ ⟨l2, h2⟩)
      (fun o => hok2 (hok1 o))
    match latticeArgs_cons ops tag T2 va, latticeArgs_cons ops tag T2 vb with
    | ⟨y1, r1, e1⟩, ⟨y2, r2, e2⟩ =>
      have key : ∀ ν, Good cc I ρ ν T2 →
          allPosDen ops (tabPos ops T2) (prepend (y1 :: r1) (y2 :: r2)) = true →
          foldOp op ((prepend (y1 :: r1) (y2 :: r2)).map (nfVal cc (envOf ρ ν)))
            = evT src := by
        intro ν hg hp
        have hp2 := allPosDen_prepend ops _ _ _ hp
        have f1 := latticeArgs_sound cc I ρ hI tag op hop T2 va (evT a) ν hg
          (hra ν (good_ext cc I ρ ν l2 T1 T2 h2 hg)) (by rw [e1]; exact hp2.1)
        have f2 := latticeArgs_sound cc I ρ hI tag op hop T2 vb (evT b) ν hg
          (hrb ν hg) (by rw [e2]; exact hp2.2)
        rw [e1] at f1
        rw [e2] at f2
        have f1' : foldOp op (nfVal cc (envOf ρ ν) y1 :: r1.map (nfVal cc (envOf ρ ν)))
          = evT a := f1
        have f2' : foldOp op (nfVal cc (envOf ρ ν) y2 :: r2.map (nfVal cc (envOf ρ ν)))
          = evT b := f2
        have mp : (prepend (y1 :: r1) (y2 :: r2)).map (nfVal cc (envOf ρ ν))
          = prepend (nfVal cc (envOf ρ ν) y1 :: r1.map (nfVal cc (envOf ρ ν)))
              (nfVal cc (envOf ρ ν) y2 :: r2.map (nfVal cc (envOf ρ ν))) :=
          map_prepend _ _ _
        rw [mp, foldOp_prepend op hA, f1', f2', hsem]
      have hL : latticeF ops tag va vb src T2
          = latticeOfF ops tag src T2 (prepend (y1 :: r1) (y2 :: r2)) := by
        show latticeOfF ops tag src T2
          (prepend (latticeArgs ops tag T2 va) (latticeArgs ops tag T2 vb)) = _
        rw [e1, e2]
      rw [hL] at h
      have h' : cond (allPosDen ops (tabPos ops T2) (y1 :: prepend r1 (y2 :: r2))
          && allEquivTo ops (tabPos ops T2) y1 (prepend r1 (y2 :: r2))) (some (y1, T2))
          (atomF ops tag (y1 :: prepend r1 (y2 :: r2)) src T2) = some (v, T') := h
      cases hc : (allPosDen ops (tabPos ops T2) (y1 :: prepend r1 (y2 :: r2))
          && allEquivTo ops (tabPos ops T2) y1 (prepend r1 (y2 :: r2)))
      · rw [hc] at h'
        apply atomF_inv' cc I ρ evT hI tag _ src T2 T' v _ h'
        intro ν hg hp
        rw [hop]
        exact key ν hg hp
      · rw [hc] at h'
        match some_pair h' with
        | ⟨ev, eT⟩ =>
          rw [← ev, ← eT]
          apply inv_pure
          intro ν hg
          have k : foldOp op (nfVal cc (envOf ρ ν) y1
              :: (prepend r1 (y2 :: r2)).map (nfVal cc (envOf ρ ν))) = evT src :=
            key ν hg (and_left' hc)
          have col := foldOp_allEq op hId (nfVal cc (envOf ρ ν) y1) _
            (allEquivTo_sound cc (envOf ρ ν) _ (good_pos cc I ρ hI T2 ν hg) y1 _ (and_right' hc))
          rw [col] at k
          rw [← k]
          exact rep_of_val cc _ y1

end FastLatTable

section FastLatX

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)
variable (I : Interp K α) (sg : α → Option Bool) (ρ ρs : Env α)

theorem xMaxF_inv (hI : FieldInterp I) (T T1 T2 T' : Tab K C) (a b : Term K) (xa xb xv : XV C)
    (ha : InvX cc I sg ρ ρs T a xa T1) (hb : InvX cc I sg ρ ρs T1 b xb T2)
    (h : xMaxF ops (Term.max a b) xa xb T2 = some (xv, T')) :
    InvX cc I sg ρ ρs T (Term.max a b) xv T' := by
  cases xa with
  | frac va =>
    cases xb with
    | frac vb =>
      intro o
      match liftF_eq_some h, ha o with
      | ⟨v, hl, hv⟩, ⟨_, ok1, ⟨x, ex⟩, _⟩ =>
        match hb ok1 with
        | ⟨_, _, ⟨y, ey⟩, _⟩ =>
          rw [hv]
          have hsem : I.max (evF I sg ρs a) (evF I sg ρs b) = evF I sg ρs (Term.max a b) := by
            rw [evF_of I sg ρs a x ex, evF_of I sg ρs b y ey]
            show _ = finOf (maxE I.max (Term.evalE I sg ρs a) (Term.evalE I sg ρs b))
            rw [ex, ey]
            rfl
          have es : Term.evalE I sg ρs (Term.max a b) = EVal.fin (I.max x y) := by
            show maxE I.max (Term.evalE I sg ρs a) (Term.evalE I sg ρs b) = _
            rw [ex, ey]
            rfl
          apply invX_of_inv cc I sg ρ ρs T T' (Term.max a b) v _ o
          intro o'
          exact ⟨latticeF_inv cc I ρ (evF I sg ρs) hI Tag.max I.max (fun xs => rfl) hI.max_assoc
            hI.max_idem T T1 T2 T' a b _ va vb v (inv_of_invX cc I sg ρ ρs T T1 a va ha o')
            (inv_of_invX cc I sg ρ ρs T1 T2 b vb hb ok1) hl hsem, ⟨_, es⟩⟩
    | ninf =>
      have e : (XV.frac va, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac va = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.max a b) _ _ _ (maxE I.max) ha hb _ rfl
      intro ea eb sa sb
      have e1 : eb = EVal.ninf := sb
      match sa with
      | ⟨x, ex⟩ =>
        rw [e1, ex]
        exact fun σ r => ⟨⟨x, rfl⟩, r.1⟩
    | pinf => cases h
  | ninf =>
    cases xb with
    | frac vb =>
      have e : (XV.frac vb, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac vb = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.max a b) _ _ _ (maxE I.max) ha hb _ rfl
      intro ea eb sa sb
      have e1 : ea = EVal.ninf := sa
      match sb with
      | ⟨y, ey⟩ =>
        rw [e1, ey]
        exact fun σ r => ⟨⟨y, rfl⟩, r.2⟩
    | ninf =>
      have e : (XV.ninf, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.ninf = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.max a b) _ _ _ (maxE I.max) ha hb _ rfl
      intro ea eb sa sb
      have e1 : ea = EVal.ninf := sa
      have e2 : eb = EVal.ninf := sb
      rw [e1, e2]
      exact fun _ _ => ⟨rfl, True.intro⟩
    | pinf => cases h
  | pinf => cases h

theorem xMinF_inv (hI : FieldInterp I) (T T1 T2 T' : Tab K C) (a b : Term K) (xa xb xv : XV C)
    (ha : InvX cc I sg ρ ρs T a xa T1) (hb : InvX cc I sg ρ ρs T1 b xb T2)
    (h : xMinF ops (Term.min a b) xa xb T2 = some (xv, T')) :
    InvX cc I sg ρ ρs T (Term.min a b) xv T' := by
  cases xa with
  | frac va =>
    cases xb with
    | frac vb =>
      intro o
      match liftF_eq_some h, ha o with
      | ⟨v, hl, hv⟩, ⟨_, ok1, ⟨x, ex⟩, _⟩ =>
        match hb ok1 with
        | ⟨_, _, ⟨y, ey⟩, _⟩ =>
          rw [hv]
          have hsem : I.min (evF I sg ρs a) (evF I sg ρs b) = evF I sg ρs (Term.min a b) := by
            rw [evF_of I sg ρs a x ex, evF_of I sg ρs b y ey]
            show _ = finOf (minE I.min (Term.evalE I sg ρs a) (Term.evalE I sg ρs b))
            rw [ex, ey]
            rfl
          have es : Term.evalE I sg ρs (Term.min a b) = EVal.fin (I.min x y) := by
            show minE I.min (Term.evalE I sg ρs a) (Term.evalE I sg ρs b) = _
            rw [ex, ey]
            rfl
          apply invX_of_inv cc I sg ρ ρs T T' (Term.min a b) v _ o
          intro o'
          exact ⟨latticeF_inv cc I ρ (evF I sg ρs) hI Tag.min I.min (fun xs => rfl) hI.min_assoc
            hI.min_idem T T1 T2 T' a b _ va vb v (inv_of_invX cc I sg ρ ρs T T1 a va ha o')
            (inv_of_invX cc I sg ρ ρs T1 T2 b vb hb ok1) hl hsem, ⟨_, es⟩⟩
    | pinf =>
      have e : (XV.frac va, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac va = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.min a b) _ _ _ (minE I.min) ha hb _ rfl
      intro ea eb sa sb
      have e1 : eb = EVal.pinf := sb
      match sa with
      | ⟨x, ex⟩ =>
        rw [e1, ex]
        exact fun σ r => ⟨⟨x, rfl⟩, r.1⟩
    | ninf => cases h
  | pinf =>
    cases xb with
    | frac vb =>
      have e : (XV.frac vb, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.frac vb = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.min a b) _ _ _ (minE I.min) ha hb _ rfl
      intro ea eb sa sb
      have e1 : ea = EVal.pinf := sa
      match sb with
      | ⟨y, ey⟩ =>
        rw [e1, ey]
        exact fun σ r => ⟨⟨y, rfl⟩, r.2⟩
    | pinf =>
      have e : (XV.pinf, T2) = (xv, T') := Option.noConfusion h id
      have e1 : XV.pinf = xv := congrArg Prod.fst e
      have e2 : T2 = T' := congrArg Prod.snd e
      rw [← e1, ← e2]
      apply invX_bin cc I sg ρ ρs T T1 T2 a b (Term.min a b) _ _ _ (minE I.min) ha hb _ rfl
      intro ea eb sa sb
      have e1 : ea = EVal.pinf := sa
      have e2 : eb = EVal.pinf := sb
      rw [e1, e2]
      exact fun _ _ => ⟨rfl, True.intro⟩
    | ninf => cases h
  | ninf => cases h

end FastLatX

end Rules
end Kcert
