import Kcert.Check

/-!
# `kcert-lean-check`: the Lean model of the equivalence replay, run on a certificate

Reads one exchange file written by the untrusted exporter (`kcert lean-export`, Rust
`prover/src/lean_export.rs`; the format is documented there), builds the `Run` the model
`Kcert.checkEquiv` takes, and evaluates `checkEquiv` with exact dyadic coefficients.

Prints `ACCEPT` (exit 0) or `REJECT` (exit 1) on the first line; `ERROR` (exit 2) when the file
does not parse.  Everything here except `checkEquiv` and the rules it calls is glue: the parser,
the dyadic coefficient instance `dyOps` and the `Run` built from the file are not proved
correct (`dyOps` satisfying `FieldCoeffCast` is the README's NOT DONE item on `Coef`).

Terms are rebuilt as `Term` trees that share subtrees in memory (each node is built once, from
already built children), but the rules recurse over trees: their work grows with the size of
the unfolded tree, not of the DAG.
-/

namespace Kcert.Exec

open Rules

/-- An exact dyadic `m · 2^e` as (m, e).  Constants arrive normalized (odd `m`, or `(0, 0)`),
as the Rust `Dyadic`, so equal constants are equal pairs. -/
abbrev Dy : Type := Int × Int

/-- Strips factors of two from a mantissa, moving them to the exponent. -/
partial def stripTwos (n : Nat) (e : Int) : Nat × Int :=
  if n == 0 then (0, 0) else if n % 2 == 0 then stripTwos (n / 2) (e + 1) else (n, e)

def mkDy (neg : Bool) (n : Nat) (e : Int) : Dy :=
  match stripTwos n e with
  | (m, e') => (if neg then -(Int.ofNat m) else Int.ofNat m, e')

def dyAdd (a b : Dy) : Dy :=
  let e := if a.2 ≤ b.2 then a.2 else b.2
  let m := a.1 * Int.ofNat (Nat.pow 2 (a.2 - e).toNat) + b.1 * Int.ofNat (Nat.pow 2 (b.2 - e).toNat)
  mkDy (decide (m < 0)) m.natAbs e

/-- Exact dyadic coefficients (Rust `Coef`, without its overflow limits).  Sums are
normalized; products of normalized values are normalized; so `invExact` (defined on `±2^k`,
as the Rust `ex2`) sees odd mantissas. -/
def dyOps : FieldCoeffOps Dy Dy where
  one := (1, 0)
  add := dyAdd
  mul := fun a b => (a.1 * b.1, a.2 + b.2)
  neg := fun a => (-a.1, a.2)
  isZero := fun c => decide (c.1 = 0)
  ofConst := fun k => k
  isPos := fun c => decide (c.1 > 0)
  invExact := fun c =>
    if c.1 = 1 then some (1, -c.2) else if c.1 = -1 then some (-1, -c.2) else none

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
      let mut infs : Array Bool := #[]
      let mut els : Array (Bool × Nat × Nat × Nat) := #[]
      for l in text.splitOn "\n" do
        match (p.ended, l.splitOn " ") with
        | (false, "node" :: i :: rest) =>
          let i ← nat i
          if i != nodes.size then fail ("node " ++ toString i ++ " out of order")
          let t ← node nodes rest
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
      let claims := p.claims.toList
      let steps := p.steps.toList
      let verdict := checkEquiv dyOps run claims steps
      let t2 ← IO.monoMsNow
      IO.eprintln ("kcert-lean-check: parse " ++ toString (t1 - t0) ++ " ms, checkEquiv " ++
        toString (t2 - t1) ++ " ms")
      if verdict then
        IO.println "ACCEPT"
        pure 0
      else
        -- Which part fails, for people (and the differential test): the first failing step
        -- and element, and whether one of its terms contains an infinity; else the footprints
        -- or the coverage.
        let mut why := "footprints differ or an element is not covered"
        let mut i := 0
        for s in steps do
          if !checkSteps dyOps run claims [s] then
            why := "step " ++ toString i ++ " fails"
            if natMem s.output claims then
              let mut e := s.first
              for _ in List.range s.count do
                if !checkElem dyOps run s.rule s.output e then
                  why := why ++ " at element " ++ toString e
                  if elemInf p true s.output e || elemInf p false s.output e then
                    why := why ++ " (a term contains an infinity)"
                  break
                e := e + 1
            else
              why := why ++ " (cites an output without an equivalence claim)"
            break
          i := i + 1
        IO.println ("REJECT " ++ why)
        pure 1
    catch e =>
      IO.println ("ERROR " ++ toString e)
      pure 2
  | _ =>
    IO.eprintln "usage: kcert-lean-check EXCHANGE-FILE"
    pure 2
