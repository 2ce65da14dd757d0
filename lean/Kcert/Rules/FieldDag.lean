import Kcert.Rules.FieldFastLat

/-!
# `FieldNormalize` over the DAG, memoized

The exchange file's terms are a DAG: node `i` has children with smaller numbers.  `normX`
(`Kcert/Rules/FieldInf.lean`) walks the unfolded tree, whose size can be exponential in the
number of nodes.  `dagPass` computes the extended normal form of every node once, in node
order, from the normal forms of its children, threading one atom table `T` through the whole
pass (Rust: one `Normalizer` per certificate, memoized per node).

* `unfold nodes i`: the tree of node `i` (`dagTerms`: node `i`'s tree built from its children's
  trees);
* `stepX`: one node, with `normX`'s operations (`xAdd`, `xMul`, `xMax`, `xApp`, `xSel`, ...),
  its children's normal forms read from the memo (`DV`: a value, a comparison's two operand
  values, or nothing for a node that failed or was not asked for);
* `EntOK T t e` (through `ValidX`): the memo entry `e` of the node with tree `t` has the shape of
  its extended value and represents its finite value under every valuation `Good` for `T`; it
  stays true when the table grows (`entOK_mono`), which is what lets a normal form computed under
  an older table be used under a newer one;
* `stepX_ok`: one step keeps `OK T` and produces a valid entry, from valid children (through
  `InvX` and the per-node lemmas of `FieldInf`: `invX_bin`, `invX_binP`, `xMax_inv`, ...);
* `dagPass_ok`, and `fieldNormalizeXDag_sound`: an accepted pair of roots has equal, defined
  extended values of the unfolded trees (the conclusion of `fieldNormalizeX_sound`).

It need not compute the same normal forms as `normX` (atoms are numbered in node order), but
it is sound on its own.  For speed it adds with `xAddF` (`Kcert/Rules/FieldFast.lean`: a
product by a one-monomial denominator term by term) and makes `max`/`min` atoms with `xMaxF`/
`xMinF` (`Kcert/Rules/FieldFastLat.lean`: the atom lookup compares only argument lists of the
same length); their lemmas `xAddF_ok`, `xMaxF_inv`, `xMinF_inv` are those of `xAdd`, `xMax`,
`xMin`.
-/

namespace Kcert
namespace Rules

open ExpField EVal

/-! ## Arrays read through lists -/

section ArrayLemmas

variable {β : Type}

def lgetD : List β → Nat → β → β
  | [], _, d => d
  | x :: _, 0, _ => x
  | _ :: l, n + 1, d => lgetD l n d

theorem lenC {x : β} {l : List β} {i : Nat} (h : i < (x :: l).length) : i < l.length + 1 := by
  rw [List.length_cons] at h
  exact h

theorem lenC' {x : β} {l : List β} {i : Nat} (h : (x :: l).length ≤ i) : l.length + 1 ≤ i := by
  rw [List.length_cons] at h
  exact h

theorem lenC2 {x : β} {l : List β} {i : Nat} (h : (x :: l).length < i) : l.length + 1 < i := by
  rw [List.length_cons] at h
  exact h

theorem lget_eq : ∀ (l : List β) (i : Nat) (h : i < l.length) (d : β), l.get i h = lgetD l i d
  | [], i, h, d => absurd h (Nat.notLtZero i)
  | x :: l, 0, h, d => rfl
  | x :: l, i + 1, h, d => lget_eq l i (Nat.leOfSuccLeSucc (lenC h)) d

theorem lgetD_ge : ∀ (l : List β) (i : Nat) (d : β), l.length ≤ i → lgetD l i d = d
  | [], i, d, h => rfl
  | x :: l, 0, d, h => absurd (lenC' h) (Nat.notSuccLeZero _)
  | x :: l, i + 1, d, h => lgetD_ge l i d (Nat.leOfSuccLeSucc (lenC' h))

theorem getD_eq (a : Array β) (i : Nat) (d : β) : a.getD i d = lgetD a.data i d := by
  cases Nat.ltOrGe i a.size with
  | inl h =>
    show dite (i < a.size) (fun h => a.data.get i h) (fun _ => d) = _
    rw [difPos h]
    exact lget_eq a.data i h d
  | inr h =>
    show dite (i < a.size) (fun h => a.data.get i h) (fun _ => d) = _
    have hn : ¬ (i < a.size) := Nat.notLeOfGt (Nat.succLeSucc h)
    rw [difNeg hn]
    exact (lgetD_ge a.data i d h).symm

theorem lgetD_concat_lt : ∀ (l : List β) (x : β) (i : Nat) (d : β), i < l.length →
    lgetD (l.concat x) i d = lgetD l i d
  | [], x, i, d, h => absurd h (Nat.notLtZero i)
  | y :: l, x, 0, d, h => rfl
  | y :: l, x, i + 1, d, h => lgetD_concat_lt l x i d (Nat.leOfSuccLeSucc (lenC h))

theorem lgetD_concat_eq : ∀ (l : List β) (x : β) (d : β), lgetD (l.concat x) l.length d = x
  | [], x, d => rfl
  | y :: l, x, d => by
    rw [List.length_cons]
    exact lgetD_concat_eq l x d

theorem lgetD_concat_gt : ∀ (l : List β) (x : β) (i : Nat) (d : β), l.length < i →
    lgetD (l.concat x) i d = d
  | [], x, 0, d, h => absurd h (Nat.notLtZero 0)
  | [], x, i + 1, d, h => rfl
  | y :: l, x, 0, d, h => absurd h (Nat.notLtZero _)
  | y :: l, x, i + 1, d, h => lgetD_concat_gt l x i d (Nat.leOfSuccLeSucc (lenC2 h))

/-- What `push` does to `getD`: the old entries below the old size, the new one at it, the
default above. -/
theorem getD_push (a : Array β) (x : β) (i : Nat) (d : β) :
    (i < a.size ∧ (a.push x).getD i d = a.getD i d) ∨ (i = a.size ∧ (a.push x).getD i d = x) ∨
    (a.size < i ∧ (a.push x).getD i d = d ∧ a.getD i d = d) := by
  rw [getD_eq, getD_eq]
  show (i < a.size ∧ lgetD (a.data.concat x) i d = lgetD a.data i d) ∨ _
  cases Nat.ltOrGe i a.size with
  | inl h => exact Or.inl ⟨h, lgetD_concat_lt a.data x i d h⟩
  | inr h =>
    cases Nat.eqOrLtOfLe h with
    | inl e =>
      refine Or.inr (Or.inl ⟨e.symm, ?_⟩)
      rw [← e]
      exact lgetD_concat_eq a.data x d
    | inr h' =>
      exact Or.inr (Or.inr ⟨h', lgetD_concat_gt a.data x i d h', lgetD_ge a.data i d h⟩)

theorem len_concat : ∀ (l : List β) (x : β), (l.concat x).length = l.length + 1
  | [], x => rfl
  | y :: l, x => by
    show (y :: l.concat x).length = (y :: l).length + 1
    rw [List.length_cons, List.length_cons, len_concat l x]

theorem size_push' (a : Array β) (x : β) : (a.push x).size = a.size + 1 :=
  len_concat a.data x

end ArrayLemmas

/-! ## The DAG and its memoized normalization -/

/-- A node of the DAG (the exchange file's `node` records): children by number, smaller than
the node's own. -/
inductive DN (K : Type) where
  | const (k : K)
  | negInf
  | posInf
  | input (t i : Nat)
  | add (a b : Nat)
  | sub (a b : Nat)
  | mul (a b : Nat)
  | div (a b : Nat)
  | fma (a b c : Nat)
  | neg (a : Nat)
  | max (a b : Nat)
  | min (a b : Nat)
  | app (f : Func) (a : Nat)
  | cmp (op : CmpOp) (a b : Nat)
  | sel (c a b : Nat)
  | and (a b : Nat)
  | or (a b : Nat)
  | not (a : Nat)

/-- A memo entry: nothing (the node failed, was not asked for, or is a predicate), the
extended normal form of a value node, or the normal forms of a comparison's two operands. -/
inductive DV (C : Type) where
  | none : DV C
  | val : XV C → DV C
  | cmp : XV C → XV C → DV C

section DagModel

variable {K C : Type} (ops : FieldCoeffOps K C)

/-- The tree of node `i`, given the trees of the earlier nodes (`negInf` out of range: never
read for a well-formed DAG). -/
def tOf (ts : Array (Term K)) (i : Nat) : Term K := ts.getD i Term.negInf

def vOf (vs : Array (DV C)) (i : Nat) : DV C := vs.getD i DV.none

/-- The tree of a node from its children's trees. -/
def termOf (ts : Array (Term K)) : DN K → Term K
  | DN.const k => Term.const k
  | DN.negInf => Term.negInf
  | DN.posInf => Term.posInf
  | DN.input t i => Term.input t i
  | DN.add a b => Term.add (tOf ts a) (tOf ts b)
  | DN.sub a b => Term.sub (tOf ts a) (tOf ts b)
  | DN.mul a b => Term.mul (tOf ts a) (tOf ts b)
  | DN.div a b => Term.div (tOf ts a) (tOf ts b)
  | DN.fma a b c => Term.fma (tOf ts a) (tOf ts b) (tOf ts c)
  | DN.neg a => Term.neg (tOf ts a)
  | DN.max a b => Term.max (tOf ts a) (tOf ts b)
  | DN.min a b => Term.min (tOf ts a) (tOf ts b)
  | DN.app f a => Term.app f (tOf ts a)
  | DN.cmp op a b => Term.cmp op (tOf ts a) (tOf ts b)
  | DN.sel c a b => Term.select (tOf ts c) (tOf ts a) (tOf ts b)
  | DN.and a b => Term.and (tOf ts a) (tOf ts b)
  | DN.or a b => Term.or (tOf ts a) (tOf ts b)
  | DN.not a => Term.not (tOf ts a)

/-- The trees of the nodes, in order (each built once from its children's, sharing them). -/
def dagTerms : Array (Term K) → List (DN K) → Array (Term K)
  | ts, [] => ts
  | ts, d :: l => dagTerms (ts.push (termOf ts d)) l

/-- The unfolded tree of node `i` of the DAG `nodes`. -/
def unfold (nodes : List (DN K)) (i : Nat) : Term K := tOf (dagTerms #[] nodes) i

/-- Go on with the normal form of a value entry. -/
def withVal {β : Type} (e : DV C) (f : XV C → Option β) : Option β :=
  match e with
  | DV.val x => f x
  | _ => none

/-- A select's condition: the operands' normal forms of a comparison, with its operator read
off its tree. -/
def withCmp {β : Type} (tc : Term K) (e : DV C) (f : CmpOp → XV C → XV C → Option β) :
    Option β :=
  match tc, e with
  | Term.cmp op _ _, DV.cmp vl vr => f op vl vr
  | _, _ => none

/-- One value node (`normX`, its children's normal forms read from the memo `vs`, all under
the current table `T`). -/
def stepV (m : Nat → Option Nat) (ts : Array (Term K)) (vs : Array (DV C)) (T : Tab K C) :
    DN K → Option (XV C × Tab K C)
  | DN.const k => some (XV.frac (nfConst ops k), T)
  | DN.negInf => some (XV.ninf, T)
  | DN.posInf => some (XV.pinf, T)
  | DN.input t i => liftF (inputNF ops i T (m t))
  | DN.add a b => withVal (vOf vs a) fun xa => withVal (vOf vs b) fun xb =>
      withT T (xAddF ops xa xb)
  | DN.sub a b => withVal (vOf vs a) fun xa => withVal (vOf vs b) fun xb =>
      withT T (xAddF ops xa (xNeg ops xb))
  | DN.mul a b => withVal (vOf vs a) fun xa => withVal (vOf vs b) fun xb =>
      withT T (xMul ops (tabPos ops T) xa xb)
  | DN.div a b => withVal (vOf vs a) fun xa => withVal (vOf vs b) fun xb =>
      withT T (xDiv ops (tabPos ops T) xa xb)
  | DN.fma a b c => withVal (vOf vs a) fun xa => withVal (vOf vs b) fun xb =>
      withVal (vOf vs c) fun xc =>
        andThenX (withT T (xMul ops (tabPos ops T) xa xb)) fun vab _ => withT T (xAddF ops vab xc)
  | DN.neg a => withVal (vOf vs a) fun xa => some (xNeg ops xa, T)
  | DN.max a b => withVal (vOf vs a) fun xa => withVal (vOf vs b) fun xb =>
      xMaxF ops (Term.max (tOf ts a) (tOf ts b)) xa xb T
  | DN.min a b => withVal (vOf vs a) fun xa => withVal (vOf vs b) fun xb =>
      xMinF ops (Term.min (tOf ts a) (tOf ts b)) xa xb T
  | DN.app f a => withVal (vOf vs a) fun xa => xApp ops (tOf ts a) xa T f
  | DN.sel c a b => withCmp (tOf ts c) (vOf vs c) fun op vl vr =>
      withVal (vOf vs a) fun xa => withVal (vOf vs b) fun xb =>
        xSel ops (Term.select (tOf ts c) (tOf ts a) (tOf ts b)) op vl vr xa xb T
  | _ => none

def toDV (T : Tab K C) : Option (XV C × Tab K C) → DV C × Tab K C
  | some p => (DV.val p.1, p.2)
  | none => (DV.none, T)

def cmpDV (e1 e2 : DV C) : DV C :=
  match e1, e2 with
  | DV.val x, DV.val y => DV.cmp x y
  | _, _ => DV.none

/-- One node: its memo entry and the new table. -/
def stepX (m : Nat → Option Nat) (ts : Array (Term K)) (vs : Array (DV C)) (T : Tab K C) :
    DN K → DV C × Tab K C
  | DN.cmp _ a b => (cmpDV (vOf vs a) (vOf vs b), T)
  | d => toDV T (stepV ops m ts vs T d)

/-- The pass over the nodes, in order: trees, memo entries (`DV.none` for the nodes `need`
leaves out), table. -/
def dagPass (m : Nat → Option Nat) (need : Nat → Bool) :
    List (DN K) → Array (Term K) → Array (DV C) → Tab K C → Array (Term K) × Array (DV C) × Tab K C
  | [], ts, vs, T => (ts, vs, T)
  | d :: l, ts, vs, T =>
    let p := cond (need ts.size) (stepX ops m ts vs T d) (DV.none, T)
    let t := termOf ts d
    dagPass m need l (ts.push t) (vs.push p.1) p.2

/-- The final comparison of two nodes' normal forms (`xCheck`). -/
def dagCheck (vs : Array (DV C)) (T : Tab K C) (a b : Nat) : Bool :=
  match vOf vs a, vOf vs b with
  | DV.val xa, DV.val xb => xCheck ops (tabPos ops T) xa xb
  | _, _ => false

/-- The pass from the empty memo and table. -/
def dagRun (m : Nat → Option Nat) (need : Nat → Bool) (nodes : List (DN K)) :
    Array (Term K) × Array (DV C) × Tab K C :=
  dagPass ops m need nodes #[] #[] []

/-- The rule `FieldNormalize` with infinities, on the DAG: nodes `a` and `b` after one pass. -/
def fieldNormalizeXDag (m : Nat → Option Nat) (need : Nat → Bool) (nodes : List (DN K))
    (a b : Nat) : Bool :=
  dagCheck ops (dagRun ops m need nodes).2.1 (dagRun ops m need nodes).2.2 a b

end DagModel

section DagHelpers

variable {K C : Type}

theorem withVal_eq_some {β : Type} {e : DV C} {f : XV C → Option β} {p : β}
    (h : withVal e f = some p) : ∃ x, e = DV.val x ∧ f x = some p := by
  cases e with
  | val x => exact ⟨x, rfl, h⟩
  | none => cases h
  | cmp _ _ => cases h

theorem withCmp_eq_some {β : Type} {tc : Term K} {e : DV C} {f : CmpOp → XV C → XV C → Option β}
    {p : β} (h : withCmp tc e f = some p) :
    ∃ op l r vl vr, tc = Term.cmp op l r ∧ e = DV.cmp vl vr ∧ f op vl vr = some p := by
  cases tc <;> cases e <;> first | exact ⟨_, _, _, _, _, rfl, rfl, h⟩ | cases h

end DagHelpers

section DagSound

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)
variable (I : Interp K α) (sg : α → Option Bool) (ρ ρs : Env α)

/-- A normal form valid under table `T`: the shape of the extended value, and the representation
of the finite value under every valuation `Good` for `T`. -/
def ValidX (T : Tab K C) (t : Term K) (xv : XV C) : Prop :=
  ShapeX xv (Term.evalE I sg ρs t) ∧
    ∀ ν, Good cc I ρ ν T → RepF cc (envOf ρ ν) xv (evF I sg ρs t)

/-- A comparison entry: the tree is a comparison, its operands' normal forms are valid. -/
def CmpOK (T : Tab K C) : Term K → XV C → XV C → Prop
  | Term.cmp _ l r, vl, vr => ValidX cc I sg ρ ρs T l vl ∧ ValidX cc I sg ρ ρs T r vr
  | _, _, _ => False

/-- A memo entry valid under `T` for the node whose tree is `t`. -/
def EntOK (T : Tab K C) (t : Term K) : DV C → Prop
  | DV.none => True
  | DV.val xv => ValidX cc I sg ρ ρs T t xv
  | DV.cmp vl vr => CmpOK cc I sg ρ ρs T t vl vr

/-- A normal form valid under `T` stays valid when the table grows. -/
theorem validX_mono (T T' : Tab K C) (l : Tab K C) (he : T' = prepend l T) (t : Term K)
    (xv : XV C) (h : ValidX cc I sg ρ ρs T t xv) : ValidX cc I sg ρ ρs T' t xv :=
  ⟨h.1, fun ν g => h.2 ν (good_ext cc I ρ ν l T T' he g)⟩

theorem entOK_mono (T T' : Tab K C) (l : Tab K C) (he : T' = prepend l T) (t : Term K)
    (e : DV C) (h : EntOK cc I sg ρ ρs T t e) : EntOK cc I sg ρ ρs T' t e := by
  cases e with
  | none => exact True.intro
  | val xv => exact validX_mono cc I sg ρ ρs T T' l he t xv h
  | cmp vl vr =>
    cases t with
    | cmp op a b =>
      exact ⟨validX_mono cc I sg ρ ρs T T' l he a vl h.1, validX_mono cc I sg ρ ρs T T' l he b vr h.2⟩
    | _ => exact h

/-- A valid normal form, as an `InvX` step that does not change the table. -/
theorem invX_of_valid (T : Tab K C) (t : Term K) (xv : XV C) (h : ValidX cc I sg ρ ρs T t xv) :
    InvX cc I sg ρ ρs T t xv T :=
  fun o => ⟨⟨[], rfl⟩, o, h.1, h.2⟩

/-- Every memo entry valid under `T`. -/
def AllOK (T : Tab K C) (ts : Array (Term K)) (vs : Array (DV C)) : Prop :=
  ∀ i, EntOK cc I sg ρ ρs T (tOf ts i) (vOf vs i)

theorem allOK_val {T : Tab K C} {ts : Array (Term K)} {vs : Array (DV C)}
    (hall : AllOK cc I sg ρ ρs T ts vs) (i : Nat) (x : XV C) (e : vOf vs i = DV.val x) :
    InvX cc I sg ρ ρs T (tOf ts i) x T := by
  have h := hall i
  rw [e] at h
  exact invX_of_valid cc I sg ρ ρs T _ x h

/-- One value node: from valid children, `InvX` for the node's tree (the cases of
`normX_sound_aux`, with every child's table the current one). -/
theorem stepV_inv (hI : FieldInterp I) (hsg : SignOf sg)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (hag : Agrees m ρs ρ) (ts : Array (Term K)) (vs : Array (DV C))
    (T : Tab K C) (hall : AllOK cc I sg ρ ρs T ts vs) (d : DN K) (xv : XV C) (T' : Tab K C)
    (h : stepV ops m ts vs T d = some (xv, T')) :
    InvX cc I sg ρ ρs T (termOf ts d) xv T' := by
  have ivA := allOK_val cc I sg ρ ρs hall
  cases d with
  | const k =>
    match some_pairX h with
    | ⟨e1, e2⟩ =>
      rw [← e1, ← e2]
      exact invX_of_inv cc I sg ρ ρs T T (Term.const k) _ (fun _ =>
        ⟨inv_pure cc I ρ (evF I sg ρs) T (Term.const k) _ (fun ν _ => rep_const cc I hconst _ k),
          ⟨I.const k, rfl⟩⟩)
  | negInf =>
    match some_pairX h with
    | ⟨e1, e2⟩ =>
      rw [← e1, ← e2]
      exact fun o => ⟨⟨[], rfl⟩, o, rfl, fun _ _ => True.intro⟩
  | posInf =>
    match some_pairX h with
    | ⟨e1, e2⟩ =>
      rw [← e1, ← e2]
      exact fun o => ⟨⟨[], rfl⟩, o, rfl, fun _ _ => True.intro⟩
  | input t i =>
    match liftF_eq_some h with
    | ⟨v, h1, hv⟩ =>
      rw [hv]
      cases hm : m t with
      | none =>
        rw [hm] at h1
        cases h1
      | some p =>
        rw [hm] at h1
        match some_pair h1 with
        | ⟨e1, e2⟩ =>
          rw [← e1, ← e2]
          apply invX_of_inv cc I sg ρ ρs T T (Term.input t i) _ (fun _ => ⟨?_, ⟨ρs t i, rfl⟩⟩)
          apply inv_pure
          intro ν _
          have r := rep_var cc (envOf ρ ν) (p + 1, i)
          have e : evF I sg ρs (Term.input t i) = ρ p i := hag t p i hm
          rw [e]
          exact r
  | add a b =>
    match withVal_eq_some h with
    | ⟨xa, ea, h1⟩ =>
      match withVal_eq_some h1 with
      | ⟨xb, eb, h2⟩ =>
        match withT_eq_some h2 with
        | ⟨hx, eT⟩ =>
          rw [← eT]
          exact invX_bin cc I sg ρ ρs T T T (tOf ts a) (tOf ts b) _ xa xb xv addE
            (ivA a xa ea) (ivA b xb eb) (fun ea eb sa sb => xAddF_ok cc xa xb xv hx ea eb sa sb) rfl
  | sub a b =>
    match withVal_eq_some h with
    | ⟨xa, ea, h1⟩ =>
      match withVal_eq_some h1 with
      | ⟨xb, eb, h2⟩ =>
        match withT_eq_some h2 with
        | ⟨hx, eT⟩ =>
          rw [← eT]
          apply invX_bin cc I sg ρ ρs T T T (tOf ts a) (tOf ts b) (Term.sub (tOf ts a) (tOf ts b))
            xa xb xv (fun ea eb => addE ea (negE eb)) (ivA a xa ea) (ivA b xb eb) _ rfl
          intro ea eb sa sb σ r
          have n := xNeg_ok cc xb eb sb σ r.2
          exact xAddF_ok cc xa (xNeg ops xb) xv hx ea (negE eb) sa (xNeg_shape xb eb sb) σ
            ⟨r.1, n.2⟩
  | mul a b =>
    match withVal_eq_some h with
    | ⟨xa, ea, h1⟩ =>
      match withVal_eq_some h1 with
      | ⟨xb, eb, h2⟩ =>
        match withT_eq_some h2 with
        | ⟨hx, eT⟩ =>
          rw [← eT]
          exact invX_binP cc I sg ρ ρs hI T T T (tOf ts a) (tOf ts b) _ xa xb xv (mulE sg)
            (ivA a xa ea) (ivA b xb eb)
            (fun ea eb sa sb => xMul_ok cc sg hsg _ xa xb xv hx ea eb sa sb) rfl
  | div a b =>
    match withVal_eq_some h with
    | ⟨xa, ea, h1⟩ =>
      match withVal_eq_some h1 with
      | ⟨xb, eb, h2⟩ =>
        match withT_eq_some h2 with
        | ⟨hx, eT⟩ =>
          rw [← eT]
          exact invX_binP cc I sg ρ ρs hI T T T (tOf ts a) (tOf ts b) _ xa xb xv (divE sg)
            (ivA a xa ea) (ivA b xb eb)
            (fun ea eb sa sb => xDiv_ok cc sg hsg _ xa xb xv hx ea eb sa sb) rfl
  | fma a b c =>
    match withVal_eq_some h with
    | ⟨xa, ea, h1⟩ =>
      match withVal_eq_some h1 with
      | ⟨xb, eb, h2⟩ =>
        match withVal_eq_some h2 with
        | ⟨xc, ec, h3⟩ =>
          match andThenX_eq_some h3 with
          | ⟨vab, Tx, h5, h6⟩ =>
            match withT_eq_some h5, withT_eq_some h6 with
            | ⟨hab, _⟩, ⟨hx, eT⟩ =>
              rw [← eT]
              have iab := invX_binP cc I sg ρ ρs hI T T T (tOf ts a) (tOf ts b)
                (Term.mul (tOf ts a) (tOf ts b)) xa xb vab (mulE sg) (ivA a xa ea) (ivA b xb eb)
                (fun ea eb sa sb => xMul_ok cc sg hsg _ xa xb vab hab ea eb sa sb) rfl
              exact invX_bin cc I sg ρ ρs T T T (Term.mul (tOf ts a) (tOf ts b)) (tOf ts c) _
                vab xc xv addE iab (ivA c xc ec)
                (fun ea eb sa sb => xAddF_ok cc vab xc xv hx ea eb sa sb) rfl
  | neg a =>
    match withVal_eq_some h with
    | ⟨xa, ea, h1⟩ =>
      match some_pairX h1 with
      | ⟨e1, e2⟩ =>
        rw [← e1, ← e2]
        exact invX_un cc I sg ρ ρs T T (tOf ts a) _ xa _ negE (ivA a xa ea)
          (fun ea sa => xNeg_ok cc xa ea sa) rfl
  | max a b =>
    match withVal_eq_some h with
    | ⟨xa, ea, h1⟩ =>
      match withVal_eq_some h1 with
      | ⟨xb, eb, h2⟩ =>
        exact xMaxF_inv cc I sg ρ ρs hI T T T T' (tOf ts a) (tOf ts b) xa xb xv (ivA a xa ea)
          (ivA b xb eb) h2
  | min a b =>
    match withVal_eq_some h with
    | ⟨xa, ea, h1⟩ =>
      match withVal_eq_some h1 with
      | ⟨xb, eb, h2⟩ =>
        exact xMinF_inv cc I sg ρ ρs hI T T T T' (tOf ts a) (tOf ts b) xa xb xv (ivA a xa ea)
          (ivA b xb eb) h2
  | app f a =>
    match withVal_eq_some h with
    | ⟨va, ea0, h2⟩ =>
      have ia := ivA a va ea0
      cases va with
      | frac v0 =>
        intro o
        match liftF_eq_some h2, ia o with
        | ⟨v, hl, hv⟩, ⟨_, _, ⟨x, ex⟩, _⟩ =>
          rw [hv]
          have ef : Term.evalE I sg ρs (Term.app f (tOf ts a)) = EVal.fin (Term.applyFunc I f x) := by
            show applyE I f (Term.evalE I sg ρs (tOf ts a)) = _
            rw [ex]
            exact Term.applyE_fin I f x
          have hsem : ∀ g, Term.applyFunc I g (evF I sg ρs (tOf ts a))
              = evF I sg ρs (Term.app g (tOf ts a)) := by
            intro g
            have eg : Term.evalE I sg ρs (Term.app g (tOf ts a)) = EVal.fin (Term.applyFunc I g x) := by
              show applyE I g (Term.evalE I sg ρs (tOf ts a)) = _
              rw [ex]
              exact Term.applyE_fin I g x
            rw [evF_of I sg ρs (tOf ts a) x ex, evF_of I sg ρs _ _ eg]
          exact invX_of_inv cc I sg ρ ρs T T' (Term.app f (tOf ts a)) v (fun o' =>
            ⟨normApp_inv cc I ρ (evF I sg ρs) hI T T T' (tOf ts a) v0 v f
              (inv_of_invX cc I sg ρ ρs T T (tOf ts a) v0 ia o') hl hsem, ⟨_, ef⟩⟩) o
      | ninf =>
        cases f with
        | ex2 =>
          match some_pairX h2 with
          | ⟨e1, e2⟩ =>
            rw [← e1, ← e2]
            apply invX_un cc I sg ρ ρs T T (tOf ts a) (Term.app Func.ex2 (tOf ts a)) XV.ninf _ ex2E
              ia _ rfl
            intro ea sa
            have e0 : ea = EVal.ninf := sa
            rw [e0]
            exact fun σ _ => ⟨⟨0, rfl⟩, rep_zero cc σ⟩
        | _ => cases h2
      | pinf => cases h2
  | sel c a b =>
    match withCmp_eq_some h with
    | ⟨op, l, r, vl, vr, htc, hec, h1⟩ =>
      have hc := hall c
      rw [htc, hec] at hc
      have hc' : ValidX cc I sg ρ ρs T l vl ∧ ValidX cc I sg ρ ρs T r vr := hc
      have il := invX_of_valid cc I sg ρ ρs T l vl hc'.1
      have ir := invX_of_valid cc I sg ρ ρs T r vr hc'.2
      show InvX cc I sg ρ ρs T (Term.select (tOf ts c) (tOf ts a) (tOf ts b)) xv T'
      rw [htc] at h1
      rw [htc]
      match withVal_eq_some h1 with
      | ⟨va, ea0, h2⟩ =>
        match withVal_eq_some h2 with
        | ⟨vb, eb0, h8⟩ =>
          have ia := ivA a va ea0
          have ib := ivA b vb eb0
          cases vl with
          | frac l0 =>
            cases vr with
            | frac r0 =>
              cases va with
              | frac a0 =>
                cases vb with
                | frac b0 =>
                  intro o
                  match liftF_eq_some h8, il o with
                  | ⟨v, hl, hv⟩, ⟨_, ok1, ⟨xl, el⟩, _⟩ =>
                  match ir ok1 with
                  | ⟨_, ok2, ⟨xr, er⟩, _⟩ =>
                  match ia ok2 with
                  | ⟨_, ok3, ⟨xa, ea⟩, _⟩ =>
                  match ib ok3 with
                  | ⟨_, _, ⟨xb, eb⟩, _⟩ =>
                    rw [hv]
                    have es := evalE_select_fin I sg ρs op l r (tOf ts a) (tOf ts b) xl xr xa xb
                      el er ea eb
                    have hsem : tagSem I (Tag.select op)
                        [evF I sg ρs l, evF I sg ρs r, evF I sg ρs (tOf ts a), evF I sg ρs (tOf ts b)]
                        = evF I sg ρs (Term.select (Term.cmp op l r) (tOf ts a) (tOf ts b)) := by
                      rw [evF_of I sg ρs l xl el, evF_of I sg ρs r xr er,
                        evF_of I sg ρs (tOf ts a) xa ea, evF_of I sg ρs (tOf ts b) xb eb,
                        evF_of I sg ρs _ _ es]
                      rfl
                    exact invX_of_inv cc I sg ρ ρs T T' _ v (fun o' =>
                      ⟨inv_quad_atom cc I ρ (evF I sg ρs) hI T T T T T T' l r (tOf ts a) (tOf ts b) _
                        l0 r0 a0 b0 v (Tag.select op)
                        (inv_of_invX cc I sg ρ ρs T T l l0 il o')
                        (inv_of_invX cc I sg ρ ρs T T r r0 ir ok1)
                        (inv_of_invX cc I sg ρ ρs T T (tOf ts a) a0 ia ok2)
                        (inv_of_invX cc I sg ρ ρs T T (tOf ts b) b0 ib ok3) hl hsem, ⟨_, es⟩⟩) o
                | ninf => cases h8
                | pinf => cases h8
              | ninf => cases h8
              | pinf => cases h8
            | ninf => cases h8
            | pinf => cases h8
          | ninf => cases h8
          | pinf => cases h8
  | cmp op a b => cases h
  | and a b => cases h
  | or a b => cases h
  | not a => cases h

theorem toDV_ok (T : Tab K C) (t : Term K) (r : Option (XV C × Tab K C))
    (h : ∀ xv T', r = some (xv, T') → InvX cc I sg ρ ρs T t xv T')
    (o : OK cc I ρ (evF I sg ρs) T) :
    (∃ l, (toDV T r).2 = prepend l T) ∧ OK cc I ρ (evF I sg ρs) (toDV T r).2 ∧
      EntOK cc I sg ρ ρs (toDV T r).2 t (toDV T r).1 := by
  cases r with
  | none => exact ⟨⟨[], rfl⟩, o, True.intro⟩
  | some p =>
    cases p with
    | mk xv T' =>
      match h xv T' rfl o with
      | ⟨hx, ok, sh, rp⟩ => exact ⟨hx, ok, ⟨sh, rp⟩⟩

/-- One node: the table grows and stays `OK`, and the node's entry is valid under it. -/
theorem stepX_ok (hI : FieldInterp I) (hsg : SignOf sg)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (hag : Agrees m ρs ρ) (ts : Array (Term K)) (vs : Array (DV C))
    (T : Tab K C) (o : OK cc I ρ (evF I sg ρs) T) (hall : AllOK cc I sg ρ ρs T ts vs) (d : DN K) :
    (∃ l, (stepX ops m ts vs T d).2 = prepend l T) ∧
      OK cc I ρ (evF I sg ρs) (stepX ops m ts vs T d).2 ∧
      EntOK cc I sg ρ ρs (stepX ops m ts vs T d).2 (termOf ts d) (stepX ops m ts vs T d).1 := by
  cases d <;> first
    | exact toDV_ok cc I sg ρ ρs T _ _
        (fun xv T' h => stepV_inv cc I sg ρ ρs hI hsg hconst m hag ts vs T hall _ xv T' h) o
    | skip
  case cmp op a b =>
    refine ⟨⟨[], rfl⟩, o, ?_⟩
    show EntOK cc I sg ρ ρs T (Term.cmp op (tOf ts a) (tOf ts b)) (cmpDV (vOf vs a) (vOf vs b))
    have ha := hall a
    have hb := hall b
    cases ea : vOf vs a with
    | val xa =>
      cases eb : vOf vs b with
      | val xb =>
        rw [ea] at ha
        rw [eb] at hb
        exact ⟨ha, hb⟩
      | none => exact True.intro
      | cmp _ _ => exact True.intro
    | none => exact True.intro
    | cmp _ _ => exact True.intro

theorem getD_push_lt' {β : Type} (a : Array β) (x : β) (i : Nat) (d : β) (h : i < a.size) :
    (a.push x).getD i d = a.getD i d := by
  cases getD_push a x i d with
  | inl k => exact k.2
  | inr k =>
    cases k with
    | inl k =>
      have h' := h
      rw [k.1] at h'
      exact absurd h' (Nat.ltIrrefl _)
    | inr k => exact absurd (Nat.ltTrans h k.1) (Nat.ltIrrefl _)

theorem getD_push_eq' {β : Type} (a : Array β) (x : β) (d : β) : (a.push x).getD a.size d = x := by
  cases getD_push a x a.size d with
  | inl k => exact absurd k.1 (Nat.ltIrrefl _)
  | inr k =>
    cases k with
    | inl k => exact k.2
    | inr k => exact absurd k.1 (Nat.ltIrrefl _)

theorem getD_push_gt' {β : Type} (a : Array β) (x : β) (i : Nat) (d : β) (h : a.size < i) :
    (a.push x).getD i d = d := by
  cases getD_push a x i d with
  | inl k => exact absurd (Nat.ltTrans h k.1) (Nat.ltIrrefl _)
  | inr k =>
    cases k with
    | inl k =>
      have h' := h
      rw [← k.1] at h'
      exact absurd h' (Nat.ltIrrefl _)
    | inr k => exact k.2.1

/-- Pushing a valid entry, under a grown table, onto valid memos. -/
theorem allOK_push (T T' : Tab K C) (l : Tab K C) (he : T' = prepend l T) (ts : Array (Term K))
    (vs : Array (DV C)) (hs : ts.size = vs.size) (hall : AllOK cc I sg ρ ρs T ts vs) (t : Term K)
    (e : DV C) (ht : EntOK cc I sg ρ ρs T' t e) : AllOK cc I sg ρ ρs T' (ts.push t) (vs.push e) := by
  intro i
  show EntOK cc I sg ρ ρs T' ((ts.push t).getD i Term.negInf) ((vs.push e).getD i DV.none)
  cases Nat.ltOrGe i ts.size with
  | inl h =>
    have h' : i < vs.size := by
      rw [← hs]
      exact h
    rw [getD_push_lt' ts t i _ h, getD_push_lt' vs e i _ h']
    exact entOK_mono cc I sg ρ ρs T T' l he _ _ (hall i)
  | inr h =>
    cases Nat.eqOrLtOfLe h with
    | inl eq =>
      rw [← eq, getD_push_eq' ts t, hs, getD_push_eq' vs e]
      exact ht
    | inr gt =>
      have gt' : vs.size < i := by
        rw [← hs]
        exact gt
      rw [getD_push_gt' vs e i _ gt']
      exact True.intro

theorem sizes_push {β γ : Type} (a : Array β) (b : Array γ) (x : β) (y : γ) (h : a.size = b.size) :
    (a.push x).size = (b.push y).size := by
  rw [size_push', size_push', h]

/-- The invariant of the pass: the table `OK`, one entry per tree, every entry valid. -/
def PInv (ts : Array (Term K)) (vs : Array (DV C)) (T : Tab K C) : Prop :=
  OK cc I ρ (evF I sg ρs) T ∧ ts.size = vs.size ∧ AllOK cc I sg ρ ρs T ts vs

theorem dagPass_ok (hI : FieldInterp I) (hsg : SignOf sg)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (m : Nat → Option Nat) (hag : Agrees m ρs ρ) (need : Nat → Bool) (l : List (DN K)) :
    ∀ ts vs T, PInv cc I sg ρ ρs ts vs T →
      PInv cc I sg ρ ρs (dagPass ops m need l ts vs T).1 (dagPass ops m need l ts vs T).2.1
        (dagPass ops m need l ts vs T).2.2 := by
  induction l with
  | nil => exact fun _ _ _ h => h
  | cons d l ih =>
    intro ts vs T h
    have key : ∀ p : DV C × Tab K C, (∃ l', p.2 = prepend l' T) →
        OK cc I ρ (evF I sg ρs) p.2 → EntOK cc I sg ρ ρs p.2 (termOf ts d) p.1 →
        PInv cc I sg ρ ρs (dagPass ops m need l (ts.push (termOf ts d)) (vs.push p.1) p.2).1
          (dagPass ops m need l (ts.push (termOf ts d)) (vs.push p.1) p.2).2.1
          (dagPass ops m need l (ts.push (termOf ts d)) (vs.push p.1) p.2).2.2 := by
      intro p hx ok he
      match hx with
      | ⟨l', hl'⟩ =>
        apply ih
        refine ⟨ok, ?_, allOK_push cc I sg ρ ρs T p.2 l' hl' ts vs h.2.1 h.2.2 _ _ he⟩
        exact sizes_push ts vs _ _ h.2.1
    cases hn : need ts.size with
    | false =>
      have e : dagPass ops m need (d :: l) ts vs T
          = dagPass ops m need l (ts.push (termOf ts d)) (vs.push DV.none) T := by
        show dagPass ops m need l (ts.push (termOf ts d))
          (vs.push (cond (need ts.size) (stepX ops m ts vs T d) (DV.none, T)).1)
          (cond (need ts.size) (stepX ops m ts vs T d) (DV.none, T)).2 = _
        rw [hn]
        rfl
      rw [e]
      exact key (DV.none, T) ⟨[], rfl⟩ h.1 True.intro
    | true =>
      have e : dagPass ops m need (d :: l) ts vs T
          = dagPass ops m need l (ts.push (termOf ts d)) (vs.push (stepX ops m ts vs T d).1)
            (stepX ops m ts vs T d).2 := by
        show dagPass ops m need l (ts.push (termOf ts d))
          (vs.push (cond (need ts.size) (stepX ops m ts vs T d) (DV.none, T)).1)
          (cond (need ts.size) (stepX ops m ts vs T d) (DV.none, T)).2 = _
        rw [hn]
        rfl
      rw [e]
      have st := stepX_ok cc I sg ρ ρs hI hsg hconst m hag ts vs T h.1 h.2.2 d
      exact key _ st.1 st.2.1 st.2.2

end DagSound

section DagTerms

variable {K C : Type} (ops : FieldCoeffOps K C)

/-- The pass builds the trees `dagTerms` builds. -/
theorem dagPass_terms (m : Nat → Option Nat) (need : Nat → Bool) (l : List (DN K)) :
    ∀ (ts : Array (Term K)) (vs : Array (DV C)) (T : Tab K C),
      (dagPass ops m need l ts vs T).1 = dagTerms ts l := by
  induction l with
  | nil => exact fun _ _ _ => rfl
  | cons d l ih => exact fun ts vs T => ih _ _ _

/-- The pass over `l1` followed by `l2` (`prepend`, structural `++`) is the pass over `l1`, then over `l2` from where it ended (so the
executable may run it a node at a time). -/
theorem dagPass_append (m : Nat → Option Nat) (need : Nat → Bool) (l1 l2 : List (DN K)) :
    ∀ (ts : Array (Term K)) (vs : Array (DV C)) (T : Tab K C),
      dagPass ops m need (prepend l1 l2) ts vs T
        = dagPass ops m need l2 (dagPass ops m need l1 ts vs T).1
            (dagPass ops m need l1 ts vs T).2.1 (dagPass ops m need l1 ts vs T).2.2 := by
  induction l1 with
  | nil => exact fun _ _ _ => rfl
  | cons d l ih =>
    intro ts vs T
    exact ih (ts.push (termOf ts d))
      (vs.push (cond (need ts.size) (stepX ops m ts vs T d) (DV.none, T)).1)
      (cond (need ts.size) (stepX ops m ts vs T d) (DV.none, T)).2

/-- `dagTerms` only appends: one tree per node. -/
theorem dagTerms_size (l : List (DN K)) : ∀ (ts : Array (Term K)),
    (dagTerms ts l).size = ts.size + l.length := by
  induction l with
  | nil => exact fun _ => rfl
  | cons d l ih =>
    intro ts
    rw [List.length_cons]
    show (dagTerms (ts.push (termOf ts d)) l).size = ts.size + (l.length + 1)
    rw [ih, size_push', Nat.succ_add]
    rfl

/-- ... and leaves the trees already built alone. -/
theorem dagTerms_old (l : List (DN K)) : ∀ (ts : Array (Term K)) (i : Nat), i < ts.size →
    tOf (dagTerms ts l) i = tOf ts i := by
  induction l with
  | nil => exact fun _ _ _ => rfl
  | cons d l ih =>
    intro ts i h
    have h' : i < (ts.push (termOf ts d)).size := by
      rw [size_push']
      exact Nat.ltTrans h (Nat.ltSuccSelf _)
    show tOf (dagTerms (ts.push (termOf ts d)) l) i = _
    rw [ih _ i h']
    exact getD_push_lt' ts _ i _ h

theorem dagTerms_prepend (l1 l2 : List (DN K)) : ∀ (ts : Array (Term K)),
    dagTerms ts (prepend l1 l2) = dagTerms (dagTerms ts l1) l2 := by
  induction l1 with
  | nil => exact fun _ => rfl
  | cons d l ih => exact fun ts => ih _

/-- The tree of a node of a prefix of the nodes is its tree in the whole DAG (so the verdict of
a pass stopped after `l1` is about the trees of the whole file). -/
theorem unfold_prefix (l1 l2 : List (DN K)) (i : Nat) (h : i < l1.length) :
    unfold (prepend l1 l2) i = unfold l1 i := by
  show tOf (dagTerms #[] (prepend l1 l2)) i = tOf (dagTerms #[] l1) i
  rw [dagTerms_prepend]
  apply dagTerms_old
  rw [dagTerms_size]
  show i < 0 + l1.length
  rw [Nat.zero_add]
  exact h

end DagTerms

section DagFinal

variable {K C α : Type} [ExpField α] {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α)

theorem dagCheck_sound (I : Interp K α) (hI : FieldInterp I) (sg : α → Option Bool) (ρ ρs : Env α)
    (ts : Array (Term K)) (vs : Array (DV C)) (T : Tab K C) (hp : PInv cc I sg ρ ρs ts vs T)
    (a b : Nat) (hc : dagCheck ops vs T a b = true) :
    Term.evalE I sg ρs (tOf ts a) = Term.evalE I sg ρs (tOf ts b) ∧
      Term.evalE I sg ρs (tOf ts a) ≠ EVal.bot := by
  have hc' : (match vOf vs a, vOf vs b with
    | DV.val xa, DV.val xb => xCheck ops (tabPos ops T) xa xb
    | _, _ => false) = true := hc
  have ha := hp.2.2 a
  have hb := hp.2.2 b
  have ok := hp.1
  have g := good_nuOf cc I ρ (evF I sg ρs) T ok
  have hP := good_pos cc I ρ hI T _ g
  cases ea : vOf vs a with
  | none =>
    rw [ea] at hc'
    cases hc'
  | cmp _ _ =>
    rw [ea] at hc'
    cases hc'
  | val xs =>
    cases eb : vOf vs b with
    | none =>
      rw [ea, eb] at hc'
      cases hc'
    | cmp _ _ =>
      rw [ea, eb] at hc'
      cases hc'
    | val xt =>
      rw [ea, eb] at hc'
      rw [ea] at ha
      rw [eb] at hb
      have h3 : xCheck ops (tabPos ops T) xs xt = true := hc'
      have va : ValidX cc I sg ρ ρs T (tOf ts a) xs := ha
      have vb : ValidX cc I sg ρ ρs T (tOf ts b) xt := hb
      cases xs with
      | frac u1 =>
        cases xt with
        | frac u2 =>
          match va.1, vb.1 with
          | ⟨x, ex⟩, ⟨y, ey⟩ =>
            have he : nfFinal ops (tabPos ops T) u1 u2 = true := h3
            have hf := nfFinal_sound cc _ _ hP u1 u2 he
            have v1 := rep_val cc _ u1 _ (va.2 _ g) (positive_ne_zero cc _ _ hP u1.2 hf.1)
            have v2 := rep_val cc _ u2 _ (vb.2 _ g) (positive_ne_zero cc _ _ hP u2.2 hf.2.1)
            have xy : x = y :=
              (evF_of I sg ρs (tOf ts a) x ex).symm.trans (v1.symm.trans
                (hf.2.2.trans (v2.trans (evF_of I sg ρs (tOf ts b) y ey))))
            rw [ex, ey, xy]
            exact ⟨rfl, fun e => EVal.noConfusion e⟩
        | ninf => cases h3
        | pinf => cases h3
      | ninf =>
        cases xt with
        | ninf =>
          have es : Term.evalE I sg ρs (tOf ts a) = EVal.ninf := va.1
          have et : Term.evalE I sg ρs (tOf ts b) = EVal.ninf := vb.1
          rw [es, et]
          exact ⟨rfl, fun e => EVal.noConfusion e⟩
        | frac _ => cases h3
        | pinf => cases h3
      | pinf =>
        cases xt with
        | pinf =>
          have es : Term.evalE I sg ρs (tOf ts a) = EVal.pinf := va.1
          have et : Term.evalE I sg ρs (tOf ts b) = EVal.pinf := vb.1
          rw [es, et]
          exact ⟨rfl, fun e => EVal.noConfusion e⟩
        | frac _ => cases h3
        | ninf => cases h3

/-- Soundness of `FieldNormalize` with infinities on the DAG: if the memoized pass over the
nodes accepts nodes `a` and `b` (input map `m`, any choice `need` of the nodes to normalize),
then, in every `ExpField`, for every pair environment `ρ` and side environment `ρs` agreeing
with it, under every interpretation with `FieldInterp`, for every sign function `sg`, the
extended values of the unfolded trees of `a` and `b` are equal and defined (the conclusion of
`fieldNormalizeX_sound`). -/
theorem fieldNormalizeXDag_sound (I : Interp K α) (hI : FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (sg : α → Option Bool) (hsg : SignOf sg) (m : Nat → Option Nat) (ρ ρs : Env α)
    (hag : Agrees m ρs ρ) (need : Nat → Bool) (nodes : List (DN K)) (a b : Nat)
    (h : fieldNormalizeXDag ops m need nodes a b = true) :
    Term.evalE I sg ρs (unfold nodes a) = Term.evalE I sg ρs (unfold nodes b) ∧
      Term.evalE I sg ρs (unfold nodes a) ≠ EVal.bot := by
  have init : PInv cc I sg ρ ρs (#[] : Array (Term K)) (#[] : Array (DV C)) [] := by
    refine ⟨True.intro, rfl, ?_⟩
    intro i
    show EntOK cc I sg ρ ρs [] (tOf #[] i) (Array.getD #[] i DV.none)
    rw [getD_eq]
    exact True.intro
  have hp := dagPass_ok cc I sg ρ ρs hI hsg hconst m hag need nodes #[] #[] [] init
  have ht := dagPass_terms ops m need nodes (#[] : Array (Term K)) (#[] : Array (DV C)) []
  have k := dagCheck_sound cc I hI sg ρ ρs _ _ _ hp a b h
  have e : ∀ i, unfold nodes i = tOf (dagPass ops m need nodes #[] #[] []).1 i := by
    intro i
    show tOf (dagTerms #[] nodes) i = _
    rw [ht]
  rw [e a, e b]
  exact k

end DagFinal

end Rules
end Kcert
