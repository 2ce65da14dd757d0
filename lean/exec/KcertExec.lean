import Kcert.Check
import Kcert.Dyadic
import Kcert.Rules.FieldDag
import Std.Data.HashMap

/-!
# `kcert-lean-check`: the Lean model of the equivalence replay, run on a certificate

Reads one exchange file written by the untrusted exporter (`kcert lean-export`, Rust
`prover/src/lean_export.rs`; the format is documented there), builds the `Run` the model
`Kcert.checkEquiv` takes, and evaluates `checkEquiv` with exact dyadic coefficients.

Prints `ACCEPT` (exit 0) or `REJECT` (exit 1) on the first line; `ERROR` (exit 2) when the file
does not parse.  Everything here except `checkEquiv`, the rules it calls and the coefficient
arithmetic is glue: the parser and the `Run` built from the file are not proved correct.  The
coefficients are `Kcert.Dyadic` with the operations `Dyadic.ops`, proved a `CoeffCast` and a
`FieldCoeffCast` in `Kcert/Dyadic.lean` (`castCoeff`, `fieldCast`); the DAG normalizer below
computes with the same operations.

Terms are rebuilt as `Term` trees that share subtrees in memory (each node is built once, from
already built children), but the rules recurse over trees: their work grows with the size of
the unfolded tree, not of the DAG.  So a `FieldNormalize` element is decided by the proved
model (`checkElem`, `Rules.fieldNormalizeX`) when its two unfolded trees have at most
`KCERT_LEAN_MODEL_BUDGET` nodes together (default 2000; 0: never), and otherwise by the proved
DAG model (`Rules.dagPass`, `Rules.dagCheck`: `Rules.fieldNormalizeXDag`, sound by
`fieldNormalizeXDag_sound`) when it accepts, and by the unproved DAG port of the Rust normalizer
below when it does not (it rejects, or its pass did not reach the element's nodes within
`KCERT_LEAN_DAG_MS`).  `KCERT_LEAN_MODEL_DEBUG=1` prints, for an element the proved tree model
rejects, its smallest failing subterm or its two normal forms.
-/

namespace Kcert.Exec

open Rules

/-- An exact dyadic `m · 2^e` as (m, e): `Kcert.Dyadic`.  Constants arrive normalized (odd `m`,
or `(0, 0)`), as the Rust `Dyadic`, and `Dyadic.add`/`Dyadic.mul` normalize, so equal values are
equal pairs. -/
abbrev Dy : Type := Dyadic

/-- A constant of the exchange file: `(-1)^neg · n · 2^e`, normalized (`Dyadic.norm`). -/
def mkDy (neg : Bool) (n : Nat) (e : Int) : Dy :=
  Dyadic.norm (if neg then -(Int.ofNat n) else Int.ofNat n) e

def dyAdd (a b : Dy) : Dy := Dyadic.add a b

/-- Exact dyadic coefficients (Rust `Coef`, without its overflow limits): the proved
`Dyadic.ops`. -/
def dyOps : FieldCoeffOps Dy Dy := Dyadic.ops

/-! ## Parsing the exchange file -/

def fail {α : Type} (msg : String) : IO α := throw (IO.userError msg)

def nat (s : String) : IO Nat :=
  match s.toNat? with
  | some n => pure n
  | none => fail ("not a number: " ++ s)

def int (s : String) : IO Int :=
  if s.startsWith "-" then do
    let n ← nat (s.drop 1)
    pure (-(Int.ofNat n))
  else do
    let n ← nat s
    pure (Int.ofNat n)

def func : String → IO Func
  | "ex2" => pure Func.ex2
  | "rcp" => pure Func.rcp
  | "sqrt" => pure Func.sqrt
  | "rsqrt" => pure Func.rsqrt
  | "lg2" => pure Func.lg2
  | "sin" => pure Func.sin
  | "cos" => pure Func.cos
  | "tanh" => pure Func.tanh
  | "abs" => pure Func.abs
  | s => fail ("unknown function " ++ s)

def cmpOp : String → IO CmpOp
  | "eq" => pure CmpOp.eq
  | "ne" => pure CmpOp.ne
  | "lt" => pure CmpOp.lt
  | "le" => pure CmpOp.le
  | "gt" => pure CmpOp.gt
  | "ge" => pure CmpOp.ge
  | s => fail ("unknown comparison " ++ s)

def rule : String → IO Rule
  | "congruent" => pure Rule.congruent
  | "ring" => pure Rule.ringNormalize
  | "field" => pure Rule.fieldNormalize
  | s => fail ("unknown rule " ++ s)

/-- What the file says, before it is turned into a `Run`. -/
structure Parsed where
  nodes : Array (Term Dy) := #[]
  /-- Per node: the term contains an infinity (for diagnostics only). -/
  infs : Array Bool := #[]
  inputs : List (Nat × Nat) := []
  claims : Array Nat := #[]
  /-- (kernel is ref, output, footprint) -/
  fps : Array (Bool × Nat × List Nat) := #[]
  /-- (kernel is ref, output, element, node) -/
  els : Array (Bool × Nat × Nat × Nat) := #[]
  steps : Array Step := #[]
  ended : Bool := false

def child (nodes : Array (Term Dy)) (s : String) : IO (Term Dy) := do
  let i ← nat s
  match nodes.get? i with
  | some t => pure t
  | none => fail ("node " ++ s ++ " used before it is defined")

def kidInf (infs : Array Bool) (s : String) : Bool :=
  match s.toNat? with
  | some i => infs.getD i false
  | none => false

def kernel : String → IO Bool
  | "ref" => pure true
  | "opt" => pure false
  | s => fail ("unknown kernel " ++ s)

def node (p : Array (Term Dy)) : List String → IO (Term Dy)
  | ["const", neg, m, e] => do
    let m ← nat m
    let e ← int e
    pure (Term.const (mkDy (neg == "1") m e))
  | ["neginf"] => pure Term.negInf
  | ["posinf"] => pure Term.posInf
  | ["in", t, i] => do pure (Term.input (← nat t) (← nat i))
  | ["add", a, b] => do pure (Term.add (← child p a) (← child p b))
  | ["sub", a, b] => do pure (Term.sub (← child p a) (← child p b))
  | ["mul", a, b] => do pure (Term.mul (← child p a) (← child p b))
  | ["div", a, b] => do pure (Term.div (← child p a) (← child p b))
  | ["max", a, b] => do pure (Term.max (← child p a) (← child p b))
  | ["min", a, b] => do pure (Term.min (← child p a) (← child p b))
  | ["and", a, b] => do pure (Term.and (← child p a) (← child p b))
  | ["or", a, b] => do pure (Term.or (← child p a) (← child p b))
  | ["fma", a, b, c] => do pure (Term.fma (← child p a) (← child p b) (← child p c))
  | ["sel", c, a, b] => do pure (Term.select (← child p c) (← child p a) (← child p b))
  | ["neg", a] => do pure (Term.neg (← child p a))
  | ["not", a] => do pure (Term.not (← child p a))
  | ["app", f, a] => do pure (Term.app (← func f) (← child p a))
  | ["cmp", op, a, b] => do pure (Term.cmp (← cmpOp op) (← child p a) (← child p b))
  | l => fail ("bad node: " ++ " ".intercalate l)

/-- Whether a node (its kind and arguments) contains an infinity, from its children's flags. -/
def nodeInf (infs : Array Bool) : List String → Bool
  | ["neginf"] => true
  | ["posinf"] => true
  | ["const", _, _, _] => false
  | ["in", _, _] => false
  | ["app", _, a] => kidInf infs a
  | ["cmp", _, a, b] => kidInf infs a || kidInf infs b
  | _ :: kids => kids.any (kidInf infs)
  | [] => false

/-- Every record but `node` and `el`, which `main` keeps in local arrays (pushing to an array
held in a structure copies it when the compiler keeps the structure alive). -/
def line (p : Parsed) (l : String) : IO Parsed := do
  if p.ended then
    if l == "" then pure p else fail "text after `end`"
  else
  match l.splitOn " " with
  | ["kcert-exchange", "1"] => pure p
  | ["end"] => pure { p with ended := true }
  | ["input", t, q] => do pure { p with inputs := (← nat t, ← nat q) :: p.inputs }
  | ["claim", o] => do pure { p with claims := p.claims.push (← nat o) }
  | "fp" :: k :: o :: es => do
    let k ← kernel k
    let o ← nat o
    let mut l : Array Nat := #[]
    for e in es do
      l := l.push (← nat e)
    let fps := p.fps
    let p := { p with fps := #[] }
    pure { p with fps := fps.push (k, o, l.toList) }
  | ["step", o, f, c, r] => do
    let x : Step := ⟨← nat o, ← nat f, ← nat c, ← rule r⟩
    let steps := p.steps
    let p := { p with steps := #[] }
    pure { p with steps := steps.push x }
  | _ => fail ("bad line: " ++ l)

/-! ## The `Run` -/

def lookupNat {β : Type} (k : Nat) (d : β) : List (Nat × β) → β
  | [] => d
  | (k', b) :: l => if k = k' then b else lookupNat k d l

/-- The element terms of one kernel's output, indexed by element. -/
def table (p : Parsed) (ref : Bool) (o : Nat) : Array (Option (Term Dy)) := do
  let mut size := 0
  for (k, o', e, _) in p.els do
    if k == ref && o' == o && e + 1 > size then size := e + 1
  let mut a : Array (Option (Term Dy)) := mkArray size none
  for (k, o', e, n) in p.els do
    if k == ref && o' == o then a := a.set! e (p.nodes.get? n)
  a

def footprint (p : Parsed) (ref : Bool) (o : Nat) : List Nat := do
  let mut r := []
  for (k, o', l) in p.fps do
    if k == ref && o' == o then r := l
  r

/-- The `Run`.  The tables are built in `IO` first, so that each is computed once (the
compiler may otherwise move a `let` into the closures below and rebuild it at every call). -/
def toRun (p : Parsed) : IO (Run Dy) := do
  let outs := p.claims.toList
  let mut refT : List (Nat × Array (Option (Term Dy))) := []
  let mut optT : List (Nat × Array (Option (Term Dy))) := []
  let mut refF : List (Nat × List Nat) := []
  let mut optF : List (Nat × List Nat) := []
  for o in outs do
    refT := (o, table p true o) :: refT
    optT := (o, table p false o) :: optT
    refF := (o, footprint p true o) :: refF
    optF := (o, footprint p false o) :: optF
  let mut n := 0
  for (t, _) in p.inputs do
    if t + 1 > n then n := t + 1
  let mut ins : Array (Option Nat) := mkArray n none
  for (t, q) in p.inputs do
    ins := ins.set! t (some q)
  let get := fun (ts : List (Nat × Array (Option (Term Dy)))) o e =>
    match (lookupNat o #[] ts).get? e with
    | some t => t
    | none => none
  pure { ref := get refT
         opt := get optT
         refFootprint := fun o => lookupNat o [] refF
         optFootprint := fun o => lookupNat o [] optF
         inputs := fun t => match ins.get? t with
           | some q => q
           | none => none }

/-- Whether the term kernel `ref` wrote at element `e` of output `o` contains `negInf` or
`posInf` (outside the `FieldNormalize` model); read off the per-node flags, linear in the DAG. -/
def elemInf (p : Parsed) (ref : Bool) (o e : Nat) : Bool := do
  let mut r := false
  for (k, o', e', n) in p.els do
    if k == ref && o' == o && e' == e then r := p.infs.get! n
  r

/-! ## `FieldNormalize` over the DAG (Rust `rules::field::Normalizer`, ported)

The proved model (`Rules.fieldNormalizeX`, `Rules.fieldNormalize`) recurses over term trees;
the attention certificates have element terms of about 10^8 nodes unfolded, out of reach of
any tree recursion.  What follows is a port of the Rust `Normalizer`: normal forms of the
nodes of the DAG (memoized for nodes with several parents, tables shared across the elements
of a certificate, as Rust `Replay`), canonical polynomials (sorted, merged, without zero
coefficients), interned exponents (`2^E` with `E` an id, `exp_sum`), atoms keyed by the ids
of their arguments' normal forms, sums flattened and grouped by denominator, the same folding
of `-inf`/`+inf` and the same final test.  It is NOT proved to follow the tree model (see
lean/README.md); it is glue as the parser is, and the differential test is what checks it. -/

/-- A node of the DAG, children by id (ids of children are smaller). -/
inductive DNode where
  | const (c : Dy)
  | negInf
  | posInf
  | input (t i : Nat)
  | add (a b : Nat)
  | sub (a b : Nat)
  | mul (a b : Nat)
  | div (a b : Nat)
  | max (a b : Nat)
  | min (a b : Nat)
  | fma (a b c : Nat)
  | sel (c a b : Nat)
  | neg (a : Nat)
  | app (f : Func) (a : Nat)
  | cmp (op : CmpOp) (a b : Nat)
  | pred (kids : List Nat)
  deriving Inhabited

def DNode.children : DNode → List Nat
  | DNode.add a b => [a, b]
  | DNode.sub a b => [a, b]
  | DNode.mul a b => [a, b]
  | DNode.div a b => [a, b]
  | DNode.max a b => [a, b]
  | DNode.min a b => [a, b]
  | DNode.fma a b c => [a, b, c]
  | DNode.sel c a b => [c, a, b]
  | DNode.neg a => [a]
  | DNode.app _ a => [a]
  | DNode.cmp _ a b => [a, b]
  | DNode.pred k => k
  | _ => []

def dn (n : Nat) (l : List String) : IO (DN Dy) := do
  let kid := fun (s : String) => do
    let i ← nat s
    if i ≥ n then fail ("node " ++ s ++ " used before it is defined")
    pure i
  match l with
  | ["const", neg, m, e] => pure (DN.const (mkDy (neg == "1") (← nat m) (← int e)))
  | ["neginf"] => pure DN.negInf
  | ["posinf"] => pure DN.posInf
  | ["in", t, i] => pure (DN.input (← nat t) (← nat i))
  | ["add", a, b] => pure (DN.add (← kid a) (← kid b))
  | ["sub", a, b] => pure (DN.sub (← kid a) (← kid b))
  | ["mul", a, b] => pure (DN.mul (← kid a) (← kid b))
  | ["div", a, b] => pure (DN.div (← kid a) (← kid b))
  | ["max", a, b] => pure (DN.max (← kid a) (← kid b))
  | ["min", a, b] => pure (DN.min (← kid a) (← kid b))
  | ["fma", a, b, c] => pure (DN.fma (← kid a) (← kid b) (← kid c))
  | ["sel", c, a, b] => pure (DN.sel (← kid c) (← kid a) (← kid b))
  | ["neg", a] => pure (DN.neg (← kid a))
  | ["app", f, a] => pure (DN.app (← func f) (← kid a))
  | ["cmp", op, a, b] => pure (DN.cmp (← cmpOp op) (← kid a) (← kid b))
  | ["and", a, b] => pure (DN.and (← kid a) (← kid b))
  | ["or", a, b] => pure (DN.or (← kid a) (← kid b))
  | ["not", a] => pure (DN.not (← kid a))
  | _ => fail ("bad node: " ++ " ".intercalate l)

/-- The port's view of a node: the proved model's `Rules.DN` with the predicate nodes (`and`,
`or`, `not`) merged into `pred`, since the port only walks through them. -/
def DNode.ofDN : DN Dy → DNode
  | DN.const c => DNode.const c
  | DN.negInf => DNode.negInf
  | DN.posInf => DNode.posInf
  | DN.input t i => DNode.input t i
  | DN.add a b => DNode.add a b
  | DN.sub a b => DNode.sub a b
  | DN.mul a b => DNode.mul a b
  | DN.div a b => DNode.div a b
  | DN.max a b => DNode.max a b
  | DN.min a b => DNode.min a b
  | DN.fma a b c => DNode.fma a b c
  | DN.sel c a b => DNode.sel c a b
  | DN.neg a => DNode.neg a
  | DN.app f a => DNode.app f a
  | DN.cmp op a b => DNode.cmp op a b
  | DN.and a b => DNode.pred [a, b]
  | DN.or a b => DNode.pred [a, b]
  | DN.not a => DNode.pred [a]

def cmpNat (a b : Nat) : Ordering :=
  if a < b then Ordering.lt else if a = b then Ordering.eq else Ordering.gt

def cmpVar (v w : Var) : Ordering :=
  match cmpNat v.1 w.1 with
  | Ordering.eq => cmpNat v.2 w.2
  | o => o

def cmpVars : List Var → List Var → Ordering
  | [], [] => Ordering.eq
  | [], _ => Ordering.lt
  | _, [] => Ordering.gt
  | a :: l, b :: l' =>
    match cmpVar a b with
    | Ordering.eq => cmpVars l l'
    | o => o

/-- Rust `Mono`: sorted variables (inputs `(link + 1, index)`, atoms `(0, id)`) times
`2^exps[exp]`. -/
abbrev DMono : Type := List Var × Nat

def cmpMono (a b : DMono) : Ordering :=
  match cmpVars a.1 b.1 with
  | Ordering.eq => cmpNat a.2 b.2
  | o => o

/-- Rust `Poly`: sorted by monomial, merged, no zero coefficient. -/
abbrev DPoly : Type := List (Dy × DMono)

/-- Rust `Value`. -/
inductive DVal where
  | frac (num den : DPoly)
  | ninf
  | pinf
  deriving BEq, Hashable, Inhabited

def dyMul (a b : Dy) : Dy := Dyadic.mul a b

/-- Merges two sorted, merged polynomials (equal monomials added, zero sums dropped). -/
def mergeArr (a b : Array (Dy × DMono)) : Array (Dy × DMono) := do
  let mut out : Array (Dy × DMono) := Array.mkEmpty (a.size + b.size)
  let mut i := 0
  let mut j := 0
  for _ in [0:a.size + b.size] do
    if i < a.size then
      if j < b.size then
        let x := a.get! i
        let y := b.get! j
        match cmpMono x.2 y.2 with
        | Ordering.lt =>
          out := out.push x
          i := i + 1
        | Ordering.gt =>
          out := out.push y
          j := j + 1
        | Ordering.eq =>
          let c := dyAdd x.1 y.1
          if !Dyadic.isZero c then out := out.push (c, x.2)
          i := i + 1
          j := j + 1
      else
        out := out.push (a.get! i)
        i := i + 1
    else if j < b.size then
      out := out.push (b.get! j)
      j := j + 1
  out

/-- Rust `Poly::from_terms`: sorted by monomial, equal monomials merged, zeros dropped (a
bottom-up merge sort, which merges as it sorts). -/
def fromTerms (ts : Array (Dy × DMono)) : DPoly := do
  let mut runs : Array (Array (Dy × DMono)) := #[]
  for t in ts do
    if !Dyadic.isZero t.1 then runs := runs.push #[t]
  for _ in [0:64] do
    if runs.size ≤ 1 then break
    let mut next : Array (Array (Dy × DMono)) := Array.mkEmpty ((runs.size + 1) / 2)
    for k in [0:(runs.size + 1) / 2] do
      if 2 * k + 1 < runs.size then next := next.push (mergeArr (runs.get! (2 * k)) (runs.get! (2 * k + 1)))
      else next := next.push (runs.get! (2 * k))
    runs := next
  match runs.get? 0 with
  | some r => r.toList
  | none => []

/-- The sign of `a - b`. -/
def dyCmp (a b : Dy) : Ordering :=
  let d := Dyadic.sub a b
  if d.1 < 0 then Ordering.lt else if d.1 = 0 then Ordering.eq else Ordering.gt

/-- Rust `exp_cmp`: `p - q` compared with zero at its first monomial with a nonzero
coefficient. -/
def expCmp : DPoly → DPoly → Ordering
  | [], [] => Ordering.eq
  | (ca, ma) :: p, (cb, mb) :: q =>
    match cmpMono ma mb with
    | Ordering.eq => if ca == cb then expCmp p q else dyCmp ca cb
    | Ordering.lt => dyCmp ca (0, 0)
    | Ordering.gt => dyCmp (0, 0) cb
  | (ca, _) :: _, [] => dyCmp ca (0, 0)
  | [], (cb, _) :: _ => dyCmp (0, 0) cb

def pConst (c : Dy) : DPoly := if Dyadic.isZero c then [] else [(c, ([], 0))]
def pOne : DPoly := [((1, 0), ([], 0))]
def pNeg (p : DPoly) : DPoly := p.map fun t => (Dyadic.neg t.1, t.2)

/-- Rust `Poly::as_constant`. -/
def asConstant : DPoly → Option Dy
  | [] => some (0, 0)
  | [(c, ([], 0))] => some c
  | _ => none

/-- Whether variable `v` is an atom that `pos` marks positive (Rust `atom_pos`). -/
def varPos (pos : Array Bool) (v : Var) : Bool := v.1 == 0 && pos.getD v.2 false

/-- Rust `Normalizer::positive`: every coefficient positive, every factor that is not a positive
atom to an even power, and some monomial of positive atoms only. -/
def dPositive (pos : Array Bool) (p : DPoly) : Bool :=
  p.all (fun t => Dyadic.isPos t.1 &&
    t.2.1.all fun v => varPos pos v || (t.2.1.filter (· == v)).length % 2 == 0)
  && p.any (fun t => t.2.1.all (varPos pos))

def sortVars (l : List Var) : List Var :=
  (l.toArray.qsort (fun a b => cmpVar a b == Ordering.lt)).toList

/-- Rust `Atom`, as (kind, argument value ids): kinds 0-8 functions, 100 `max`, 101 `min`,
200 + op selects. -/
abbrev DAtom : Type := Nat × List Nat

def funcCode : Func → Nat
  | Func.ex2 => 0 | Func.rcp => 1 | Func.sqrt => 2 | Func.rsqrt => 3 | Func.lg2 => 4
  | Func.sin => 5 | Func.cos => 6 | Func.tanh => 7 | Func.abs => 8

def cmpCode : CmpOp → Nat
  | CmpOp.eq => 0 | CmpOp.ne => 1 | CmpOp.lt => 2 | CmpOp.le => 3 | CmpOp.gt => 4
  | CmpOp.ge => 5

/-- Rust `MAX_DEPTH`. -/
def maxDepth : Nat := 2000

/-- Rust `Normalizer`: its tables, as references (updated in place). -/
structure Normalizer where
  nodes : Array DNode
  /-- Rust `shared`: more than one parent, or none. -/
  shared : Array Bool
  inputs : Array (Option Nat)
  memo : IO.Ref (Array (Option DVal))
  exps : IO.Ref (Array DPoly)
  expIds : IO.Ref (Std.HashMap DPoly Nat)
  expSums : IO.Ref (Std.HashMap (Nat × Nat) Nat)
  atoms : IO.Ref (Array DAtom)
  /-- Rust `atom_pos`. -/
  atomPos : IO.Ref (Array Bool)
  atomIds : IO.Ref (Std.HashMap DAtom Nat)
  values : IO.Ref (Array DVal)
  valueIds : IO.Ref (Std.HashMap DVal Nat)

def Normalizer.new (nodes : Array DNode) (inputs : Array (Option Nat)) : IO Normalizer := do
  let mut parents : Array Nat := mkArray nodes.size 0
  for nd in nodes do
    for k in nd.children do
      parents := parents.set! k (parents.get! k + 1)
  let shared := parents.map fun c => c != 1
  pure { nodes := nodes, shared := shared, inputs := inputs,
         memo := ← IO.mkRef (mkArray nodes.size none),
         exps := ← IO.mkRef #[[]],
         expIds := ← IO.mkRef ((Std.HashMap.empty : Std.HashMap DPoly Nat).insert [] 0),
         expSums := ← IO.mkRef Std.HashMap.empty,
         atoms := ← IO.mkRef #[],
         atomPos := ← IO.mkRef #[],
         atomIds := ← IO.mkRef Std.HashMap.empty,
         values := ← IO.mkRef #[],
         valueIds := ← IO.mkRef Std.HashMap.empty }

namespace Normalizer

variable (n : Normalizer)

def expId (p : DPoly) : IO Nat := do
  match (← n.expIds.get).find? p with
  | some i => pure i
  | none =>
    let i := (← n.exps.get).size
    n.exps.modify fun a => a.push p
    n.expIds.modify fun m => m.insert p i
    pure i

def addPoly (a b : DPoly) : DPoly := (mergeArr a.toArray b.toArray).toList

def expSum (a b : Nat) : IO Nat := do
  if a == 0 then return b
  if b == 0 then return a
  let key := if a ≤ b then (a, b) else (b, a)
  match (← n.expSums.get).find? key with
  | some i => pure i
  | none =>
    let es ← n.exps.get
    let i ← n.expId (addPoly (es.get! a) (es.get! b))
    n.expSums.modify fun m => m.insert key i
    pure i

def mulPoly (a b : DPoly) : IO DPoly := do
  let mut ts : Array (Dy × DMono) := #[]
  for (ca, ma) in a do
    for (cb, mb) in b do
      let e ← n.expSum ma.2 mb.2
      ts := ts.push (dyMul ca cb, (sortVars (ma.1 ++ mb.1), e))
  pure (fromTerms ts)

/-- Rust `shifted`: `num / den` with both multiplied by `2^-E`, `E` the least exponent of `den`
in the order of `expCmp` (which shifting every exponent by one polynomial preserves). Equal
shifted forms imply equal cross-products, so this is only a faster path of the comparison. -/
def shifted (num den : DPoly) : IO (DPoly × DPoly) := do
  let es ← n.exps.get
  let mut least : Option Nat := none
  for (_, m) in den do
    match least with
    | none => least := some m.2
    | some l => if expCmp (es.get! m.2) (es.get! l) == Ordering.lt then least := some m.2
  match least with
  | none => pure (num, den)
  | some 0 => pure (num, den)
  | some e =>
    let minus ← n.expId (pNeg (es.get! e))
    let shift (p : DPoly) : IO DPoly := do
      let mut ts : Array (Dy × DMono) := #[]
      for (c, m) in p do
        ts := ts.push (c, (m.1, ← n.expSum m.2 minus))
      pure (fromTerms ts)
    pure (← shift num, ← shift den)

def valueId (v : DVal) : IO Nat := do
  match (← n.valueIds.get).find? v with
  | some i => pure i
  | none =>
    let i := (← n.values.get).size
    n.values.modify fun a => a.push v
    n.valueIds.modify fun m => m.insert v i
    pure i

def atomVal (id : Nat) : DVal := DVal.frac [((1, 0), ([(0, id)], 0))] pOne

def positive (p : DPoly) : IO Bool := do pure (dPositive (← n.atomPos.get) p)

/-- Rust `positive_value`. -/
def positiveValue (x : Nat) : IO Bool := do
  match (← n.values.get).get! x with
  | DVal.frac num den => pure ((← n.positive num) && (← n.positive den))
  | _ => pure false

/-- Rust `atom`: arguments' denominators positive, then the atom's id. -/
def atom (a : DAtom) : IO DVal := do
  let vs ← n.values.get
  for i in a.2 do
    match vs.get! i with
    | DVal.frac _ den => if !(← n.positive den) then fail "a denominator is not provably positive"
    | _ => pure ()
  match (← n.atomIds.get).find? a with
  | some i => pure (atomVal i)
  | none =>
    let i := (← n.atoms.get).size
    let pos ← match a with
      | (0, _) => pure true
      | (2, [x]) => n.positiveValue x
      | _ => pure false
    n.atoms.modify fun x => x.push a
    n.atomPos.modify fun x => x.push pos
    n.atomIds.modify fun m => m.insert a i
    pure (atomVal i)

def add (a b : DVal) : IO DVal := do
  match a, b with
  | DVal.ninf, DVal.pinf => fail "an infinity does not fold away: -inf + +inf"
  | DVal.pinf, DVal.ninf => fail "an infinity does not fold away: -inf + +inf"
  | DVal.ninf, _ => pure DVal.ninf
  | _, DVal.ninf => pure DVal.ninf
  | DVal.pinf, _ => pure DVal.pinf
  | _, DVal.pinf => pure DVal.pinf
  | DVal.frac n1 d1, DVal.frac n2 d2 =>
    if d1 == d2 then pure (DVal.frac (addPoly n1 n2) d1)
    else do
      let x ← n.mulPoly n1 d2
      let y ← n.mulPoly n2 d1
      pure (DVal.frac (addPoly x y) (← n.mulPoly d1 d2))

def negV : DVal → DVal
  | DVal.ninf => DVal.pinf
  | DVal.pinf => DVal.ninf
  | DVal.frac num den => DVal.frac (pNeg num) den

/-- Rust `const_sign`. -/
def constSign : DVal → Option Bool
  | DVal.frac num den =>
    match asConstant num, asConstant den with
    | some c, some d =>
      if Dyadic.isZero c || Dyadic.isZero d then none else some (Dyadic.isPos c == Dyadic.isPos d)
    | _, _ => none
  | _ => none

def infTimes (inf other : DVal) : IO DVal :=
  match constSign other with
  | some true => pure inf
  | some false => pure (negV inf)
  | none => fail "an infinity does not fold away: an infinity times a non-constant or zero"

def mul (a b : DVal) : IO DVal := do
  match a, b with
  | DVal.frac n1 d1, DVal.frac n2 d2 => pure (DVal.frac (← n.mulPoly n1 n2) (← n.mulPoly d1 d2))
  | DVal.frac .., inf => infTimes inf a
  | inf, other => infTimes inf other

def div (a b : DVal) : IO DVal := do
  match b with
  | DVal.frac num den =>
    if num.isEmpty then fail "division by zero"
    if !(← n.positive den) then fail "a denominator is not provably positive"
    n.mul a (DVal.frac den num)
  | _ => fail "an infinity does not fold away: division by an infinity"

def ex2 (a : DVal) : IO DVal := do
  match a with
  | DVal.ninf => pure (DVal.frac [] pOne)
  | DVal.pinf => fail "an infinity does not fold away: ex2(+inf)"
  | DVal.frac num den =>
    let inv : Option Dy := match asConstant den with
      | some c => Dyadic.invExact c
      | none => none
    match inv with
    | some k =>
      let p := fromTerms (num.map fun t => (dyMul t.1 k, t.2)).toArray
      let id ← n.expId p
      pure (DVal.frac [((1, 0), ([], id))] pOne)
    | none =>
      let x ← n.valueId a
      n.atom (funcCode Func.ex2, [x])

/-- Rust `lattice_args`. -/
def latticeArgs (v : DVal) (max : Bool) : IO (Option (List Nat)) := do
  match v with
  | DVal.frac [((1, 0), ([(0, id)], 0))] [((1, 0), ([], 0))] =>
    let a := (← n.atoms.get).get! id
    if a.1 == (if max then 100 else 101) then pure (some a.2) else pure none
  | _ => pure none

def lattice (a b : DVal) (max : Bool) : IO DVal := do
  let (identity, absorbing) := if max then (DVal.ninf, DVal.pinf) else (DVal.pinf, DVal.ninf)
  let mut args : Array Nat := #[]
  for v in [a, b] do
    if v == absorbing then fail "an infinity does not fold away: max(+inf, _) or min(-inf, _)"
    match ← n.latticeArgs v max with
    | some inner => args := args ++ inner.toArray
    | none => if v == identity then pure () else args := args.push (← n.valueId v)
  let sorted := args.qsort (fun x y => x < y)
  let mut dedup : Array Nat := #[]
  for x in sorted do
    if dedup.size == 0 || dedup.get! (dedup.size - 1) != x then dedup := dedup.push x
  match dedup.toList with
  | [] => pure identity
  | [i] => pure ((← n.values.get).get! i)
  | l => n.atom (if max then 100 else 101, l)

def memoized (t : Nat) : IO (Option DVal) := do
  pure ((← n.memo.get).get! t)

mutual

/-- Rust `value_at` (recursion on node ids, which decrease: children come first). -/
partial def valueAt (n : Normalizer) (t : Nat) (depth : Nat) : IO DVal := do
  match ← n.memoized t with
  | some v => return v
  | none => pure ()
  if depth > maxDepth then fail ("terms nest deeper than " ++ toString maxDepth)
  let d := depth + 1
  let v ← match n.nodes.get! t with
    | DNode.const c => pure (DVal.frac (pConst c) pOne)
    | DNode.negInf => pure DVal.ninf
    | DNode.posInf => pure DVal.pinf
    | DNode.input tensor index =>
      match n.inputs.getD tensor none with
      | some link => pure (DVal.frac [((1, 0), ([(link + 1, index)], 0))] pOne)
      | none => fail ("input tensor number " ++ toString tensor ++ " is not paired")
    | DNode.add .. => n.sum t depth
    | DNode.sub .. => n.sum t depth
    | DNode.fma .. => n.sum t depth
    | DNode.neg a => do pure (negV (← n.valueAt a d))
    | DNode.mul a b => do
      let x ← n.valueAt a d
      let y ← n.valueAt b d
      n.mul x y
    | DNode.div a b => do
      let x ← n.valueAt a d
      let y ← n.valueAt b d
      n.div x y
    | DNode.max a b => do
      let x ← n.valueAt a d
      let y ← n.valueAt b d
      n.lattice x y true
    | DNode.min a b => do
      let x ← n.valueAt a d
      let y ← n.valueAt b d
      n.lattice x y false
    | DNode.app Func.ex2 a => do n.ex2 (← n.valueAt a d)
    | DNode.app Func.rcp a => do n.div (DVal.frac pOne pOne) (← n.valueAt a d)
    | DNode.app f a => do
      match ← n.valueAt a d with
      | x@(DVal.frac ..) =>
        let id ← n.valueId x
        -- Rust: `rsqrt x = 1 / sqrt x` where `x > 0` is provable, else an opaque atom.
        if decide (f = Func.rsqrt) && (← n.positiveValue id) then
          let s ← n.atom (funcCode Func.sqrt, [id])
          n.div (DVal.frac pOne pOne) s
        else n.atom (funcCode f, [id])
      | _ => fail "an infinity does not fold away: a function of an infinity"
    | DNode.sel c a b => do
      match n.nodes.get! c with
      | DNode.cmp op l r =>
        let vl ← n.valueAt l d
        let vr ← n.valueAt r d
        let va ← n.valueAt a d
        let vb ← n.valueAt b d
        -- Rust refuses infinite select operands (the atom stands for a real number).
        for v in [vl, vr, va, vb] do
          match v with
          | DVal.frac .. => pure ()
          | _ => fail "an infinity does not fold away: an infinity in a select"
        let ids := [← n.valueId vl, ← n.valueId vr, ← n.valueId va, ← n.valueId vb]
        n.atom (200 + cmpCode op, ids)
      | _ => fail "unsupported in normal forms: a select on a combined condition"
    | _ => fail "unsupported in normal forms: a predicate used as a number"
  if n.shared.get! t then
    n.memo.modify fun m => m.set! t (some v)
  pure v

/-- The walk of Rust `sum`: pops the stack, collecting the parts. -/
partial def walk (n : Normalizer) (root depth : Nat) (parts : Array (DVal × Bool)) :
    List (Nat × Bool) → IO (Array (DVal × Bool))
  | [] => pure parts
  | (t, negated) :: stack => do
    let open_ := (← n.memoized t).isNone || t == root
    match n.nodes.get! t with
    | DNode.add a b =>
      if open_ then n.walk root depth parts ((b, negated) :: (a, negated) :: stack)
      else n.walk root depth (parts.push (← n.valueAt t (depth + 1), negated)) stack
    | DNode.sub a b =>
      if open_ then n.walk root depth parts ((b, !negated) :: (a, negated) :: stack)
      else n.walk root depth (parts.push (← n.valueAt t (depth + 1), negated)) stack
    | DNode.neg a => n.walk root depth parts ((a, !negated) :: stack)
    | DNode.fma a b c =>
      let x ← n.valueAt a (depth + 1)
      let y ← n.valueAt b (depth + 1)
      let p ← n.mul x y
      n.walk root depth (parts.push (p, negated)) ((c, negated) :: stack)
    | _ => n.walk root depth (parts.push (← n.valueAt t (depth + 1), negated)) stack

/-- Rust `sum`: a chain of sums walked with a stack, parts grouped by denominator. -/
partial def sum (n : Normalizer) (root : Nat) (depth : Nat) : IO DVal := do
  let parts ← n.walk root depth #[] [(root, false)]
  let mut groups : Array (DPoly × Array (Dy × DMono)) := #[]
  let mut inf : Option DVal := none
  for (v, negated) in parts do
    let v := if negated then negV v else v
    match v with
    | DVal.frac num den =>
      match groups.findIdx? (fun g => g.1 == den) with
      | some i => groups := groups.modify i fun g => (g.1, g.2 ++ num.toArray)
      | none => groups := groups.push (den, num.toArray)
    | other =>
      inf := some (← match inf with
        | none => pure other
        | some prev => n.add prev other)
  let mut acc := DVal.frac [] pOne
  for (den, terms) in groups do
    acc ← n.add acc (DVal.frac (fromTerms terms) den)
  match inf with
  | some i => n.add i acc
  | none => pure acc

end

/-- Rust `field_normalize_in`: `none` if accepted, else why not. -/
def fieldNormalizeIn (lhs rhs : Nat) : IO (Option String) := do
  try
    let t0 ← IO.monoMsNow
    let a ← n.valueAt lhs 0
    let t1 ← IO.monoMsNow
    let b ← n.valueAt rhs 0
    if (← IO.getEnv "KCERT_LEAN_TRACE").isSome then
      IO.eprintln ("lhs " ++ toString (t1 - t0) ++ " ms, rhs " ++ toString ((← IO.monoMsNow) - t1) ++ " ms")
    match a, b with
    | DVal.ninf, DVal.ninf => pure none
    | DVal.pinf, DVal.pinf => pure none
    | DVal.frac n1 d1, DVal.frac n2 d2 =>
      if !(← n.positive d1) || !(← n.positive d2) then return some "a denominator is not provably positive"
      if n1 == n2 && d1 == d2 then return none
      if (← n.shifted n1 d1) == (← n.shifted n2 d2) then return none
      if (← n.mulPoly n1 d2) == (← n.mulPoly n2 d1) then pure none
      else pure (some "the normal forms differ")
    | _, _ => pure (some "the normal forms differ")
  catch e => pure (some (toString e))

end Normalizer

/-- The element node ids of one kernel's output, indexed by element. -/
def idTable (els : Array (Bool × Nat × Nat × Nat)) (ref : Bool) (o : Nat) : Array (Option Nat) := do
  let mut size := 0
  for (k, o', e, _) in els do
    if k == ref && o' == o && e + 1 > size then size := e + 1
  let mut a : Array (Option Nat) := mkArray size none
  for (k, o', e, n) in els do
    if k == ref && o' == o then a := a.set! e (some n)
  a

/-- Unfolded tree size of every node, saturating at `cap` (children have smaller ids). -/
def treeSizes (dnodes : Array DNode) (cap : Nat) : Array Nat := do
  let mut sz : Array Nat := mkArray dnodes.size 0
  let mut i := 0
  for d in dnodes do
    let mut n := 1
    for c in d.children do
      n := Nat.min cap (n + sz.getD c cap)
    sz := sz.set! i n
    i := i + 1
  sz


/-! ## The proved DAG model (`Rules.fieldNormalizeXDag`, `Kcert/Rules/FieldDag.lean`)

The nodes of the file as `Rules.DN` (children by number), normalized once each, in node order,
by `Rules.dagPass` (one atom table for the certificate), then each element pair compared by
`Rules.dagCheck`: `fieldNormalizeXDag_sound` is the soundness of that verdict for the unfolded
trees of the two nodes.  The pass runs a node at a time (`dagPass` on `[d]`, which by
`dagPass_append` is the pass over the list), so that it can stop at a time limit
(`KCERT_LEAN_DAG_MS`, default 45000); nodes not reached have no normal form, and an element
whose nodes have none falls back to the DAG port.  A verdict after a stopped pass is
`fieldNormalizeXDag` on the prefix of the nodes processed, whose trees are those of the whole
file (`unfold_prefix`). -/

def showDV : DV Dy → String
  | DV.none => "none"
  | DV.cmp _ _ => "cmp"
  | DV.val XV.ninf => "-inf"
  | DV.val XV.pinf => "+inf"
  | DV.val (XV.frac v) => "frac " ++ toString v.1.length ++ "/" ++ toString v.2.length

/-- The monomials of a memo entry (numerator and denominator lengths; 1 for an infinity or no
entry): the size estimate of the pass's size guard. -/
def dvSize : DV Dy → Nat
  | DV.val (XV.frac v) => v.1.length + v.2.length
  | DV.cmp (XV.frac v) (XV.frac w) => v.1.length + v.2.length + w.1.length + w.2.length
  | _ => 1

/-- The cost estimate of a node: over its children, the products of their sizes (`dvSize`) for
each pair, plus each size squared. -/
def pairCost (vs : Array (DV Dy)) : List Nat → Nat
  | [] => 0
  | k :: ks => ks.foldl (fun acc j => acc + dvSize (vs.getD k DV.none) * dvSize (vs.getD j DV.none)) 0
      + dvSize (vs.getD k DV.none) * dvSize (vs.getD k DV.none) + pairCost vs ks

/-- The nodes below the roots (children have smaller numbers): the ones the pass normalizes. -/
def needOf (dnodes : Array DNode) (roots : List Nat) : Array Bool := do
  let mut nd : Array Bool := mkArray dnodes.size false
  for r in roots do
    if r < nd.size then nd := nd.set! r true
  for k in List.range dnodes.size do
    let i := dnodes.size - 1 - k
    if nd.getD i false then
      for c in (dnodes.getD i DNode.negInf).children do
        if c < nd.size then nd := nd.set! c true
  nd


/-! ## Debugging the proved model (`KCERT_LEAN_MODEL_DEBUG`) -/

def fnName : Func → String
  | Func.ex2 => "ex2" | Func.rcp => "rcp" | Func.sqrt => "sqrt" | Func.rsqrt => "rsqrt"
  | Func.lg2 => "lg2" | Func.sin => "sin" | Func.cos => "cos" | Func.tanh => "tanh"
  | Func.abs => "abs"

def cmpName : CmpOp → String
  | CmpOp.eq => "eq" | CmpOp.ne => "ne" | CmpOp.lt => "lt" | CmpOp.le => "le"
  | CmpOp.gt => "gt" | CmpOp.ge => "ge"

partial def showT (d : Nat) : Term Dy → String
  | Term.const k => "(" ++ toString k.1 ++ "*2^" ++ toString k.2 ++ ")"
  | Term.negInf => "-inf"
  | Term.posInf => "+inf"
  | Term.input t i => "in" ++ toString t ++ "[" ++ toString i ++ "]"
  | t => if d == 0 then "..." else match t with
    | Term.add a b => "(" ++ showT (d-1) a ++ " + " ++ showT (d-1) b ++ ")"
    | Term.sub a b => "(" ++ showT (d-1) a ++ " - " ++ showT (d-1) b ++ ")"
    | Term.mul a b => "(" ++ showT (d-1) a ++ " * " ++ showT (d-1) b ++ ")"
    | Term.div a b => "(" ++ showT (d-1) a ++ " / " ++ showT (d-1) b ++ ")"
    | Term.fma a b c => "fma(" ++ showT (d-1) a ++ ", " ++ showT (d-1) b ++ ", " ++ showT (d-1) c ++ ")"
    | Term.neg a => "-(" ++ showT (d-1) a ++ ")"
    | Term.max a b => "max(" ++ showT (d-1) a ++ ", " ++ showT (d-1) b ++ ")"
    | Term.min a b => "min(" ++ showT (d-1) a ++ ", " ++ showT (d-1) b ++ ")"
    | Term.app f a => fnName f ++ "(" ++ showT (d-1) a ++ ")"
    | Term.cmp o a b => cmpName o ++ "(" ++ showT (d-1) a ++ ", " ++ showT (d-1) b ++ ")"
    | Term.select c a b => "sel(" ++ showT (d-1) c ++ ", " ++ showT (d-1) a ++ ", " ++ showT (d-1) b ++ ")"
    | Term.and a b => "and(" ++ showT (d-1) a ++ ", " ++ showT (d-1) b ++ ")"
    | Term.or a b => "or(" ++ showT (d-1) a ++ ", " ++ showT (d-1) b ++ ")"
    | Term.not a => "not(" ++ showT (d-1) a ++ ")"
    | _ => "?"

def showXV : Option (XV Dy × Tab Dy Dy) → String
  | none => "FAIL"
  | some (XV.ninf, _) => "-inf"
  | some (XV.pinf, _) => "+inf"
  | some (XV.frac v, T) => "frac (" ++ toString v.1.length ++ " num monomials, " ++
      toString v.2.length ++ " den monomials, den coefficients " ++
      toString (v.2.map (fun e => e.1)) ++ ", den positive " ++
      toString (positive dyOps (tabPos dyOps T) v.2) ++ ")"

def kids : Term Dy → List (Term Dy)
  | Term.add a b => [a, b] | Term.sub a b => [a, b] | Term.mul a b => [a, b]
  | Term.div a b => [a, b] | Term.fma a b c => [a, b, c] | Term.neg a => [a]
  | Term.max a b => [a, b] | Term.min a b => [a, b] | Term.app _ a => [a]
  | Term.cmp _ a b => [a, b] | Term.select c a b => [c, a, b]
  | Term.and a b => [a, b] | Term.or a b => [a, b] | Term.not a => [a]
  | _ => []

/-- The smallest failing subterm: descend into the first child whose own normalization fails. -/
partial def diagnose (m : Nat → Option Nat) (t : Term Dy) : IO Unit := do
  let r : Option (XV Dy × Tab Dy Dy) := normX dyOps m t []
  match r with
  | some _ => IO.eprintln ("  normalizes: " ++ showXV r)
  | none =>
    match (kids t).find? (fun c => (normX dyOps m c [] : Option (XV Dy × Tab Dy Dy)).isNone) with
    | some c => diagnose m c
    | none =>
      IO.eprintln ("  smallest failing subterm: " ++ showT 6 t)
      for c in kids t do
        IO.eprintln ("    child " ++ showT 4 c ++ " => " ++ showXV (normX dyOps m c []))

def debugElem (run : Run Dy) (o e : Nat) : IO Unit := do
  IO.eprintln ("model debug, output " ++ toString o ++ " element " ++ toString e)
  match run.ref o e, run.opt o e with
  | some a, some b =>
    IO.eprintln ("ref: " ++ showT 8 a)
    IO.eprintln ("opt: " ++ showT 8 b)
    IO.eprintln "ref side:"
    diagnose run.inputs a
    IO.eprintln "opt side:"
    diagnose run.inputs b
  | _, _ => IO.eprintln "  element missing"

/-- How many `FieldNormalize` elements the proved model (`Rules.fieldNormalizeX`, through
`checkElem`) decided and how many were over the budget (the DAG port's).  A rejection ends the
replay, and its message names the element. -/
structure ModelTally where
  replayed : Nat := 0
  /-- Decided by the proved DAG model (`fieldNormalizeXDag`). -/
  dag : Nat := 0
  /-- Decided by the DAG port: the proved DAG model rejected (`dagRejected`) or did not reach
  the element's nodes in time. -/
  skipped : Nat := 0
  dagRejected : Nat := 0
  /-- ... or reached them, but its final comparisons had run past `KCERT_LEAN_DAG_CHECK_MS`. -/
  dagOverTime : Nat := 0
  /-- Milliseconds of the proved DAG pass. -/
  dagMs : Nat := 0

def ruleName : Rule → String
  | Rule.congruent => "Congruent"
  | Rule.ringNormalize => "RingNormalize"
  | Rule.fieldNormalize => "FieldNormalize"

/-- The rules of every step, in order (Rust: `check`'s `work` list replayed by one `Replay`):
`Congruent` and `RingNormalize` by the model (`checkElem`), `FieldNormalize` by the model
(`checkElem`, `fieldNormalizeX`) for elements whose unfolded trees have at most `budget` nodes
together, by the DAG normalizer above (one for the whole certificate) for larger ones.  `none`
if all hold, else the first failure. -/
def replay (p : Parsed) (dnodes : Array DNode) (dns : Array (DN Dy)) (ins : Array (Option Nat))
    (run : Run Dy) (claims : List Nat) (steps : List Step) (budget : Nat) (dagLimit : Nat)
    (tally : IO.Ref ModelTally) : IO (Option String) := do
  let norm ← Normalizer.new dnodes ins
  let sizes := treeSizes dnodes (budget + 1)
  let trace := (← IO.getEnv "KCERT_LEAN_TRACE").isSome
  -- `KCERT_LEAN_TRACE_MS`: the time above which the trace reports a DAG node (default 50 ms).
  let slowMs := match (← IO.getEnv "KCERT_LEAN_TRACE_MS") with
    | some s => s.toNat!
    | none => 50
  let mut tables : List (Nat × Array (Option Nat) × Array (Option Nat)) := []
  for o in claims do
    tables := (o, idTable p.els true o, idTable p.els false o) :: tables
  -- The nodes of the `FieldNormalize` elements over the budget: the proved DAG pass's roots.
  let mut roots : List Nat := []
  for s in steps do
    match s.rule with
    | Rule.fieldNormalize =>
      let (rt, ot) := lookupNat s.output (#[], #[]) tables
      for k in List.range s.count do
        match rt.getD (s.first + k) none, ot.getD (s.first + k) none with
        | some a, some b =>
          if sizes.getD a (budget + 1) + sizes.getD b (budget + 1) > budget then
            roots := a :: b :: roots
        | _, _ => pure ()
    | _ => pure ()
  -- The proved DAG pass (`Rules.dagPass`), a node at a time, up to `dagLimit` ms.
  let need := needOf dnodes roots
  let needF := fun (i : Nat) => need.getD i false
  let mut ts : Array (Term Dy) := #[]
  let mut vs : Array (DV Dy) := #[]
  let mut tab : Tab Dy Dy := []
  if !roots.isEmpty then
    let t0 ← IO.monoMsNow
    -- Needed nodes in all and done so far, for the projection below.
    let mut needAll := 0
    for i in List.range dns.size do
      if needF i then needAll := needAll + 1
    let mut needDone := 0
    -- `KCERT_LEAN_DAG_SIZE`: the pass stops before a needed node whose cost estimate
    -- (`pairCost`: products of its children's sizes) exceeds this (default 50000000): one such
    -- node can take minutes (mla_absorbed), past any check of the time limit between nodes.
    let sizeLimit := match (← IO.getEnv "KCERT_LEAN_DAG_SIZE") with
      | some s => s.toNat!
      | none => 50000000
    for d in dns do
      if needF ts.size then
        needDone := needDone + 1
        let cost := pairCost vs (dnodes.getD ts.size DNode.negInf).children
        if cost > sizeLimit then
          IO.eprintln ("kcert-lean-check: the proved DAG pass stopped before node " ++
            toString ts.size ++ ": its children's normal forms would form " ++ toString cost ++
            " monomial products (KCERT_LEAN_DAG_SIZE " ++ toString sizeLimit ++ ")")
          break
      let tn ← IO.monoMsNow
      let (ts', vs', tab') := dagPass dyOps run.inputs needF [d] ts vs tab
      ts := ts'
      vs := vs'
      tab := tab'
      if trace then
        let dt := (← IO.monoMsNow) - tn
        if dt > slowMs then
          IO.eprintln ("slow node " ++ toString (ts.size - 1) ++ ": " ++ toString dt ++ " ms, cost " ++
            toString (pairCost vs (dnodes.getD (ts.size - 1) DNode.negInf).children) ++ ", kids " ++
            toString (dnodes.getD (ts.size - 1) DNode.negInf).children ++ " " ++ showDV (vs.getD (ts.size - 1) DV.none) ++ " atoms " ++ toString tab.length)
      let el := (← IO.monoMsNow) - t0
      if el > dagLimit then
        IO.eprintln ("kcert-lean-check: the proved DAG pass stopped at its time limit, node " ++
          toString ts.size ++ " of " ++ toString dns.size)
        break
      -- After 3 s, stop a pass whose linear projection already exceeds the limit (per-node
      -- costs only grow along a pass: the table grows), rather than spend the whole limit
      -- before the port decides anyway. Which path decides is all this changes.
      if el > 3000 && el * needAll > dagLimit * needDone then
        IO.eprintln ("kcert-lean-check: the proved DAG pass stopped: " ++ toString needDone ++
          " of " ++ toString needAll ++ " needed nodes in " ++ toString el ++
          " ms projects past its time limit")
        break
    let ms := (← IO.monoMsNow) - t0
    let t ← tally.get
    tally.set { t with dagMs := ms }
    if trace then
      IO.eprintln ("proved DAG pass: " ++ toString ms ++ " ms, " ++ toString tab.length ++ " atoms")
  -- `KCERT_LEAN_DAG_CHECK_MS`: after one final comparison of the proved DAG model
  -- (`dagCheck`) longer than this (default 5000 ms), the DAG port decides the remaining
  -- elements of the certificate (on attention one comparison of two 32/32-monomial quotients
  -- whose exponents are long polynomials takes 14-22 s; on softmax they take well under 1 s).
  -- Which path decides is all this changes.
  let checkLimit := match (← IO.getEnv "KCERT_LEAN_DAG_CHECK_MS") with
    | some s => s.toNat!
    | none => 5000
  let mut slowCheck := false
  let mut i := 0
  for s in steps do
    if !natMem s.output claims then
      return some ("step " ++ toString i ++ " cites an output without an equivalence claim")
    let (rt, ot) := lookupNat s.output (#[], #[]) tables
    let mut e := s.first
    for _ in List.range s.count do
      let bad := fun (msg : String) => some ("step " ++ toString i ++ " fails at element " ++
        toString e ++ ": " ++ ruleName s.rule ++ ": " ++ msg)
      match s.rule with
      | Rule.fieldNormalize =>
        match rt.getD e none, ot.getD e none with
        | some a, some b =>
          let inf := p.infs.getD a false || p.infs.getD b false
          let infNote := if inf then " (a term contains an infinity)" else ""
          let tA ← IO.monoMsNow
          if sizes.getD a (budget + 1) + sizes.getD b (budget + 1) ≤ budget then
            -- Within the budget the verdict is the proved model's (`checkElem`, `fieldNormalizeX`).
            let ok := checkElem dyOps run Rule.fieldNormalize s.output e
            if !ok && (← IO.getEnv "KCERT_LEAN_MODEL_DEBUG").isSome then
              debugElem run s.output e
            let t ← tally.get
            tally.set { t with replayed := t.replayed + 1 }
            if (← IO.getEnv "KCERT_LEAN_TRACE").isSome then
              IO.eprintln ("element " ++ toString e ++ " (proved model): " ++
                toString ((← IO.monoMsNow) - tA) ++ " ms")
            if !ok then return bad ("the proved model fieldNormalizeX rejects it" ++ infNote)
          else if !slowCheck && dagCheck dyOps vs tab a b then
            -- Above the budget: the proved DAG model (`dagCheck` after `dagPass`, i.e.
            -- `fieldNormalizeXDag`) accepts.
            if (← IO.monoMsNow) - tA > checkLimit then slowCheck := true
            let t ← tally.get
            tally.set { t with dag := t.dag + 1 }
            if trace then
              IO.eprintln ("element " ++ toString e ++ " (proved DAG model): " ++
                toString ((← IO.monoMsNow) - tA) ++ " ms")
          else
            -- The proved DAG model does not accept (rejects, or did not reach the nodes in
            -- time, or its comparisons ran out of time): the DAG port of the Rust normalizer
            -- decides.
            let reached := match vOf vs a, vOf vs b with
              | DV.none, _ => false
              | _, DV.none => false
              | _, _ => true
            let ran := !slowCheck
            if (← IO.monoMsNow) - tA > checkLimit then slowCheck := true
            let t ← tally.get
            tally.set { t with skipped := t.skipped + 1,
                               dagRejected := t.dagRejected + (cond (reached && ran) 1 0),
                               dagOverTime := t.dagOverTime + (cond (reached && !ran) 1 0) }
            let r ← norm.fieldNormalizeIn a b
            if trace then
              IO.eprintln ("element " ++ toString e ++ " (DAG port, proved DAG model " ++
                (cond reached "rejects" "has no normal form") ++ "): " ++
                toString ((← IO.monoMsNow) - tA) ++ " ms")
            match r with
            | none => pure ()
            | some msg => return bad (msg ++ infNote)
        | _, _ => return bad "element is not written"
      | r =>
        if !checkElem dyOps run r s.output e then return bad "the model rule fails"
      e := e + 1
    i := i + 1
  pure none

/-- The first step failing its range checks (`stepRangeOk`), and which check. -/
def rangeFailure (run : Run Dy) (steps : List Step) : Option String := do
  let mut earlier : List Step := []
  let mut i := 0
  for s in steps do
    if !stepRangeOk run earlier s then
      let what :=
        if !rangeFits s then "range overflows"
        else if !nonEmptyRange s then "empty range"
        else if !rangeWritten (run.refFootprint s.output) s.first s.count then
          "element is not written by the kernels"
        else "element already covered by an earlier step"
      return some ("step " ++ toString i ++ ": " ++ what)
    earlier := s :: earlier
    i := i + 1
  none

end Kcert.Exec

open Kcert Kcert.Exec in
def main (args : List String) : IO UInt32 := do
  match args with
  | [file] =>
    try
      let t0 ← IO.monoMsNow
      let text ← IO.FS.readFile file
      let mut p : Parsed := {}
      let mut nodes : Array (Term Dy) := #[]
      let mut dnodes : Array DNode := #[]
      let mut dns : Array (Rules.DN Dy) := #[]
      let mut infs : Array Bool := #[]
      let mut els : Array (Bool × Nat × Nat × Nat) := #[]
      for l in text.splitOn "\n" do
        match (p.ended, l.splitOn " ") with
        | (false, "node" :: i :: rest) =>
          let i ← nat i
          if i != nodes.size then fail ("node " ++ toString i ++ " out of order")
          let t ← node nodes rest
          let d ← dn i rest
          dnodes := dnodes.push (DNode.ofDN d)
          dns := dns.push d
          infs := infs.push (nodeInf infs rest)
          nodes := nodes.push t
        | (false, ["el", k, o, e, n]) =>
          let n' ← nat n
          if n' ≥ nodes.size then fail ("element term " ++ n ++ " is not a node")
          els := els.push (← kernel k, ← nat o, ← nat e, n')
        | _ => p ← line p l
      p := { p with nodes := nodes, infs := infs, els := els }
      if !p.ended then fail "missing `end` (truncated file)"
      let t1 ← IO.monoMsNow
      let run ← toRun p
      -- `KCERT_LEAN_MODEL_BUDGET`: unfolded tree size (both terms together) up to which
      -- `FieldNormalize` elements are decided by the proved model (default 2000; 0: never,
      -- every element by the DAG port).
      let budget ← match (← IO.getEnv "KCERT_LEAN_MODEL_BUDGET") with
        | some b => nat b
        | none => pure 2000
      -- `KCERT_LEAN_DAG_MS`: time limit of the proved DAG pass (default 45000 ms).
      let dagLimit ← match (← IO.getEnv "KCERT_LEAN_DAG_MS") with
        | some b => nat b
        | none => pure 45000
      let tally ← IO.mkRef ({} : ModelTally)
      let claims := p.claims.toList
      let steps := p.steps.toList
      let mut n := 0
      for (t, _) in p.inputs do
        if t + 1 > n then n := t + 1
      let mut ins : Array (Option Nat) := mkArray n none
      for (t, q) in p.inputs do
        ins := ins.set! t (some q)
      -- Rust `check`, step 4: footprints and coverage (`checkOutputs`), the range checks
      -- (`checkStepRanges`), then the rules.
      let why : Option String ←
        if !checkOutputs run steps claims then
          pure (some "footprints differ or an element is not covered")
        else if !checkStepRanges run [] steps then
          pure (rangeFailure run steps)
        else replay p dnodes dns ins run claims steps budget dagLimit tally
      let t2 ← IO.monoMsNow
      let mt ← tally.get
      if mt.replayed + mt.dag + mt.skipped > 0 then
        IO.eprintln ("kcert-lean-check: " ++ file ++ ": FieldNormalize elements: " ++ toString mt.replayed ++
          " by the proved fieldNormalizeX (at most " ++ toString budget ++ " tree nodes), " ++
          toString mt.dag ++ " by the proved DAG model fieldNormalizeXDag (pass " ++
          toString mt.dagMs ++ " ms), " ++ toString mt.skipped ++ " by the unproved DAG port (" ++
          toString mt.dagRejected ++ " rejected by the proved DAG model, " ++
          toString mt.dagOverTime ++ " past its comparison time limit, " ++
          toString (mt.skipped - mt.dagRejected - mt.dagOverTime) ++ " without its normal forms)")
      IO.eprintln ("kcert-lean-check: parse " ++ toString (t1 - t0) ++ " ms, check " ++
        toString (t2 - t1) ++ " ms")
      match why with
      | none =>
        IO.println "ACCEPT"
        pure 0
      | some w =>
        IO.println ("REJECT " ++ w)
        pure 1
    catch e =>
      IO.println ("ERROR " ++ toString e)
      pure 2
  | _ =>
    IO.eprintln "usage: kcert-lean-check EXCHANGE-FILE"
    pure 2
