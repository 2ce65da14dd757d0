import Kcert.Check
import Kcert.RaceCheck
import Kcert.Examples

/-!
# `check::check` as a whole

Rust: `checker/src/check.rs` (`check`), `checker/src/cert/mod.rs` (`Certificate`, `Claim`,
`Kernel`, `sha256`, `spec_digest`), `checker/src/equiv.rs` (`run_pair`, `SideRun::unsafety`).

The model `check` follows the four numbered parts of the Rust function:

1. binding: the SHA-256 of both PTX texts and the digest of the three embedded spec texts equal
   the certificate's (`sha256`, `specDigest` are abstract functions), and the specs parse
   (`fromTexts`, abstract: Rust `PairSpec::from_texts`);
2. claims: non-empty, strictly sorted (the derived Rust order: `Safe(Reference) <
   Safe(Optimized) < Equivalent(0) < Equivalent(1) < ...`), every `Equivalent(o)` names an
   existing output link, and an equivalence claim needs both safety claims;
3. safety: the kernels with a `Safe` claim are run (`runPair`, abstract: Rust `run_pair`; a
   `SideError` is `none`); a kernel that was run must have no finding and must have executed
   every CTA (`unsafety`);
4. equivalence: no steps without an equivalence claim; with one, both kernels must have been run
   and `checkEquiv` (Check.lean) must accept.

The Rust `Reject` variants are collapsed to `false`.

Execution is abstract.  The meaning of a kernel is `KernelSem`: for each CTA a program of the
interleaving model (`Sem.Prog`), its thread count and its launch registers (`Cta`); where it
comes from (the lowering of the PTX) is a parameter, `sem`.  What the executor reports is
`SideRun`: findings, whether the grid was executed whole, and per CTA and thread the trace of
action *shapes* (`AShape`: kind, address, barrier; no values) that the race and barrier checks
look at.  The links between the two are named hypotheses:

* `RunsWanted`: `runPair` runs every kernel it is asked for (else `check` would skip its safety
  check: the Rust tests `run.side(kernel).and_then(unsafety)`, which passes on `None`);
* `ExecFaithful`: when a run reports the whole grid executed, its CTA and thread counts are the
  semantics', each CTA's program is data independent (`DataIndep`), and each thread's trace is
  the shape of its solo trace (`soloAct`) for every initial shared memory;
* `RaceCheckComplete`: a run without findings has no two conflicting actions of different
  threads in one epoch of its traces (`TraceRace`): the vector-clock part;
* `DeadlockCheckComplete`: likewise for `TraceDeadlock` (threads disagreeing on the next barrier
  of an epoch).

`check_sound`: under these hypotheses, if `check` accepts, then for every kernel with a `Safe`
claim, every CTA whose barriers are all whole-CTA `bar.sync` (`SyncAll`) is, for every initial
shared memory, race free, its barriers fit, all complete schedules end in the same state, and
no schedule gets stuck before every thread has exited; and for every `Equivalent(o)` claim, `o`
is an output link, both kernels write the same elements of it, and at each the two terms exist
and have the same value for all inputs (`checkEquiv_sound`).

Collision resistance of SHA-256 cannot be a theorem: `check_binding` says only that two texts
accepted with one certificate have equal digests; `check_binding_of_injective` adds injectivity
of the hash, which is the idealization (real SHA-256 is not injective) under which the theorem
speaks about the given files.
-/

namespace Kcert

open Sem

/-! ### Certificates (Rust `cert`) -/

/-- Rust `cert::Kernel`. -/
inductive Kernel where
  | reference
  | optimized

/-- Rust `cert::Claim`. -/
inductive Claim where
  | safe (k : Kernel)
  | equivalent (n : Nat)

/-- Rust `cert::Certificate`.  `T` is the type of texts, `D` of digests. -/
structure Certificate (T D : Type) where
  specSha256 : D
  refPtxSha256 : D
  optPtxSha256 : D
  refPtxPath : T
  optPtxPath : T
  pairSpec : T
  refSpec : T
  optSpec : T
  claims : List Claim
  steps : List Kcert.Step

def kernelEq : Kernel → Kernel → Bool
  | Kernel.reference, Kernel.reference => true
  | Kernel.optimized, Kernel.optimized => true
  | _, _ => false

def claimEq : Claim → Claim → Bool
  | Claim.safe a, Claim.safe b => kernelEq a b
  | Claim.equivalent m, Claim.equivalent n => decide (m = n)
  | _, _ => false

/-- The derived Rust order on `Kernel`. -/
def kernelLt : Kernel → Kernel → Bool
  | Kernel.reference, Kernel.optimized => true
  | _, _ => false

/-- The derived Rust order on `Claim` (variants first, then fields). -/
def claimLt : Claim → Claim → Bool
  | Claim.safe a, Claim.safe b => kernelLt a b
  | Claim.safe _, Claim.equivalent _ => true
  | Claim.equivalent _, Claim.safe _ => false
  | Claim.equivalent m, Claim.equivalent n => decide (m < n)

/-- Every claim of the list is greater than `prev` and the list is strictly sorted. -/
def sortedFrom (prev : Claim) : List Claim → Bool
  | [] => true
  | c :: cs => claimLt prev c && sortedFrom c cs

/-- Rust `claims.windows(2).all(|w| w[0] < w[1]) && !claims.is_empty()`. -/
def claimsSorted : List Claim → Bool
  | [] => false
  | c :: cs => sortedFrom c cs

/-- Rust `cert.claims.contains(&c)` (`claimed`). -/
def claimed (c : Claim) : List Claim → Bool
  | [] => false
  | d :: ds => claimEq c d || claimed c ds

/-- Rust `equiv`: the output links of the `Equivalent` claims, in order. -/
def equivOf : List Claim → List Nat
  | [] => []
  | Claim.safe _ :: cs => equivOf cs
  | Claim.equivalent n :: cs => n :: equivOf cs

/-- Every link is below `n` (Rust: "output link {o} does not exist"). -/
def allBelow (n : Nat) : List Nat → Bool
  | [] => true
  | o :: os => decide (o < n) && allBelow n os

def isNil {β : Type} : List β → Bool
  | [] => true
  | _ :: _ => false

/-- Part 2 of `check`: the claims are well formed for a pair with `outputs` output links. -/
def claimsOk (outputs : Nat) (cs : List Claim) : Bool :=
  claimsSorted cs && allBelow outputs (equivOf cs) &&
    (isNil (equivOf cs) ||
      (claimed (Claim.safe Kernel.reference) cs && claimed (Claim.safe Kernel.optimized) cs))

/-! ### Execution, abstract -/

/-- The shape of an action: what the race and barrier checks look at (no values). -/
inductive AShape where
  | compute
  | read (a : Nat)
  | write (a : Nat)
  | atomAdd (a : Nat)
  | arrive (b n : Nat) (w : Bool)
  | exit

def shape {V : Type} : Act V → AShape
  | Act.compute _ _ => AShape.compute
  | Act.read a _ _ => AShape.read a
  | Act.write a _ _ => AShape.write a
  | Act.atomAdd a _ _ => AShape.atomAdd a
  | Act.arrive b n w _ => AShape.arrive b n w
  | Act.exit => AShape.exit

/-- `Sem.Conflict` on shapes. -/
def SConflict : AShape → AShape → Prop
  | AShape.read a, AShape.write c => a = c
  | AShape.read a, AShape.atomAdd c => a = c
  | AShape.write a, AShape.read c => a = c
  | AShape.write a, AShape.write c => a = c
  | AShape.write a, AShape.atomAdd c => a = c
  | AShape.atomAdd a, AShape.read c => a = c
  | AShape.atomAdd a, AShape.write c => a = c
  | _, _ => False

/-- `Sem.isArr` on shapes. -/
def sIsArr : AShape → Nat
  | AShape.arrive _ _ _ => 1
  | _ => 0

/-- A per-thread trace of one CTA: thread, index -> shape of the action. -/
def Trace : Type := Nat → Nat → AShape

/-- The epoch of thread `i`'s `k`-th action: the arrivals before it (`Sem.bars`). -/
def tBars (tr : Trace) (i : Nat) : Nat → Nat
  | 0 => 0
  | k + 1 => tBars tr i k + sIsArr (tr i k)

/-- Two different threads of the `N` have conflicting actions in one epoch (`Sem.EpochRace`,
on the executor's traces). -/
def TraceRace (tr : Trace) (N : Nat) : Prop :=
  ∃ i j ki kj, i ≠ j ∧ i < N ∧ j < N ∧ SConflict (tr i ki) (tr j kj) ∧
    tBars tr i ki = tBars tr j kj

def TSyncAt (tr : Trace) (i e b : Nat) : Prop :=
  ∃ k n w, tBars tr i k = e ∧ tr i k = AShape.arrive b n w

def TExitAt (tr : Trace) (i e : Nat) : Prop :=
  ∃ k, tBars tr i k = e ∧ tr i k = AShape.exit

/-- `Sem.EpochDeadlock` on the executor's traces. -/
def TraceDeadlock (tr : Trace) (N : Nat) : Prop :=
  ∃ e i j b, i < N ∧ j < N ∧ TSyncAt tr i e b ∧ (TExitAt tr j e ∨ ∃ b', b' ≠ b ∧ TSyncAt tr j e b')

/-- One CTA of a kernel's launch, in the interleaving model: program, thread count, launch
registers (thread ids, parameters). -/
structure Cta (V : Type) where
  prog : Prog V
  N : Nat
  regs0 : Nat → Nat → V

/-- The meaning of one kernel's launch: its CTAs. -/
structure KernelSem (V : Type) where
  ctas : Nat
  cta : Nat → Cta V

/-- Rust `SideRun`, as far as `check` and the hypotheses read it.  `F` is the type of findings. -/
structure SideRun (F : Type) where
  findings : List F
  -- Rust `outcome.coverage.complete()`
  complete : Bool
  -- the number of CTAs, threads per CTA, and per CTA the threads' traces
  ctas : Nat
  threads : Nat → Nat
  trace : Nat → Trace

/-- Rust `PairRun`: the sides that were run (`none`: not asked for) and the terms (Check.lean's
`Run`). -/
structure PairRun (K F : Type) where
  reference : Option (SideRun F)
  optimized : Option (SideRun F)
  terms : Run K

def PairRun.side {K F : Type} (pr : PairRun K F) : Kernel → Option (SideRun F)
  | Kernel.reference => pr.reference
  | Kernel.optimized => pr.optimized

/-- Rust `SideRun::unsafety` is `Some`: a finding, or not every CTA executed. -/
def unsafety {F : Type} (r : SideRun F) : Bool := !isNil r.findings || !r.complete

/-- Rust: `if let Some(why) = run.side(kernel).and_then(SideRun::unsafety) { reject }`. -/
def sideOk {F : Type} : Option (SideRun F) → Bool
  | none => true
  | some r => !unsafety r

/-- What `check` calls and this file does not model: the hash functions, the spec parser (with
the number of output links of a parsed pair spec), and symbolic execution (`none`: a
`SideError`).  The two Booleans of `runPair` are Rust's `want`. -/
structure Oracle (T D S K F : Type) where
  sha256 : T → D
  specDigest : T → T → T → D
  fromTexts : T → T → T → Option S
  outputs : S → Nat
  runPair : S → T → T → Bool → Bool → Option (PairRun K F)

def pick {β : Type} (a b : β) : Kernel → β
  | Kernel.reference => a
  | Kernel.optimized => b

/-! ### The model of `check::check` -/

section Model

variable {T D S K F C : Type} [DecidableEq D] [DecidableEq K]
  (X : Oracle T D S K F) (ops : FieldCoeffOps K C)

/-- Part 4, with an equivalence claim: both kernels were run, and `checkEquiv`. -/
def equivBoth (terms : Run K) (equiv : List Nat) (steps : List Step) :
    Option (SideRun F) → Option (SideRun F) → Bool
  | some _, some _ => checkEquiv ops terms equiv steps
  | _, _ => false

/-- Part 4: no steps without an equivalence claim (Rust "steps without an equivalence claim");
with one, `equivBoth`. -/
def equivPart (pr : PairRun K F) (steps : List Step) : List Nat → Bool
  | [] => isNil steps
  | o :: os => equivBoth ops pr.terms (o :: os) steps pr.reference pr.optimized

/-- Parts 3 and 4, given the run. -/
def checkRun (cert : Certificate T D) : Option (PairRun K F) → Bool
  | none => false
  | some pr => sideOk (pr.side Kernel.reference) && sideOk (pr.side Kernel.optimized) &&
      equivPart ops pr cert.steps (equivOf cert.claims)

/-- Parts 2 to 4, given the parsed pair spec. -/
def checkSpec (cert : Certificate T D) (refPtx optPtx : T) : Option S → Bool
  | none => false
  | some pair => claimsOk (X.outputs pair) cert.claims &&
      checkRun ops cert (X.runPair pair refPtx optPtx
        (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims))

/-- Part 1: the certificate is about exactly these texts. -/
def bindingOk (cert : Certificate T D) (refPtx optPtx : T) : Bool :=
  decide (X.sha256 refPtx = cert.refPtxSha256) && decide (X.sha256 optPtx = cert.optPtxSha256) &&
    decide (X.specDigest cert.pairSpec cert.refSpec cert.optSpec = cert.specSha256)

/-- Rust `check::check`, `Ok` as `true`. -/
def check (cert : Certificate T D) (refPtx optPtx : T) : Bool :=
  bindingOk X cert refPtx optPtx &&
    checkSpec X ops cert refPtx optPtx (X.fromTexts cert.pairSpec cert.refSpec cert.optSpec)

end Model

/-! ### The hypotheses linking the executor to the semantics -/

section Hyps

variable {T D S K F V : Type} [AccAdd V]

/-- `runPair` runs each kernel it is asked for (Rust `run_pair` fills `runs[i]` when `want[i]`). -/
def RunsWanted (X : Oracle T D S K F) : Prop :=
  ∀ pair r o wr wo pr, X.runPair pair r o wr wo = some pr →
    ∀ k, pick wr wo k = true → ∃ sr, pr.side k = some sr

/-- A run that covered the grid follows the semantics `ks`: same CTA and thread counts, data
independent CTA programs, and each thread's trace is the shape of its solo trace, whatever the
initial shared memory. -/
def SideFaithful (ks : KernelSem V) {F : Type} (sr : SideRun F) : Prop :=
  sr.complete = true →
    sr.ctas = ks.ctas ∧ ∀ c, c < ks.ctas →
      sr.threads c = (ks.cta c).N ∧
      (∃ R, DataIndep (ks.cta c).prog R ∧ ∀ i, R i 0 ((ks.cta c).regs0 i) ((ks.cta c).regs0 i)) ∧
      ∀ (m0 : Nat → V) i k, i < (ks.cta c).N →
        sr.trace c i k = shape (soloAct (ks.cta c).prog (ks.cta c).regs0 m0 i k)

/-- Every side that `runPair` returns follows the semantics `sem pair k ptx` of its kernel. -/
def ExecFaithful (X : Oracle T D S K F) (sem : S → Kernel → T → KernelSem V) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    SideFaithful (sem pair k (pick r o k)) sr

/-- The race check misses nothing on its own traces: a run without findings has no same-epoch
conflict in any CTA (the vector clocks of `exec/race.rs`). -/
def RaceCheckComplete (X : Oracle T D S K F) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → ∀ c, c < sr.ctas → ¬TraceRace (sr.trace c) (sr.threads c)

/-- The barrier check misses nothing on its own traces (`report_stuck`, barrier divergence). -/
def DeadlockCheckComplete (X : Oracle T D S K F) : Prop :=
  ∀ pair r o wr wo pr k sr, X.runPair pair r o wr wo = some pr → pr.side k = some sr →
    sr.findings = [] → ∀ c, c < sr.ctas → ¬TraceDeadlock (sr.trace c) (sr.threads c)

/-- What a `Safe` claim means for one CTA, given whole-CTA `bar.sync` barriers: for every
initial shared memory, race freedom, fitting barriers, one final state for all complete
schedules, and no schedule stuck before every thread exited. -/
def CtaSafe (c : Cta V) : Prop :=
  SyncAll c.prog c.N → ∀ m0 : Nat → V,
    RaceFree c.prog c.N (init c.regs0 m0) ∧ BarriersFit c.prog c.N (init c.regs0 m0) ∧
    (∀ t1 t2, Reach c.prog c.N (init c.regs0 m0) t1 → Reach c.prog c.N (init c.regs0 m0) t2 →
      Final c.N t1 → Final c.N t2 → Same t1 t2) ∧
    (∀ r, Reach c.prog c.N (init c.regs0 m0) r → (∀ v, Sem.Step c.prog c.N r v → False) →
      Final c.N r)

def KernelSafe (ks : KernelSem V) : Prop := ∀ c, c < ks.ctas → CtaSafe (ks.cta c)

end Hyps

/-! ### Lemmas -/

section Lemmas

variable {V : Type} [AccAdd V]

theorem conflict_shape (A B : Act V) (h : Conflict A B) : SConflict (shape A) (shape B) := by
  cases A <;> cases B <;> exact h

theorem isArr_shape (A : Act V) : sIsArr (shape A) = isArr A := by
  cases A <;> rfl

theorem shape_arrive {A : Act V} {b n : Nat} {w : Bool} {pc : Nat}
    (h : A = Act.arrive b n w pc) : shape A = AShape.arrive b n w := by
  rw [h]; rfl

theorem shape_exit {A : Act V} (h : A = Act.exit) : shape A = AShape.exit := by
  rw [h]; rfl

/-- Traces that are the shapes of the solo traces have the same epochs. -/
theorem tBars_eq (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (tr : Trace) (i : Nat)
    (htr : ∀ k, tr i k = shape (soloAct prog regs0 m0 i k)) :
    ∀ k, tBars tr i k = bars prog regs0 m0 i k := by
  intro k
  induction k with
  | zero => rfl
  | succ k ih =>
    show tBars tr i k + sIsArr (tr i k) = bars prog regs0 m0 i k + isArr (soloAct prog regs0 m0 i k)
    rw [ih, htr k, isArr_shape]

theorem traceRace_of_epochRace (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V) (m0 : Nat → V)
    (tr : Trace) (htr : ∀ i k, i < N → tr i k = shape (soloAct prog regs0 m0 i k))
    (h : EpochRace prog N regs0 m0) : TraceRace tr N := by
  match h with
  | ⟨i, j, ki, kj, hij, hi, hj, hc, hb⟩ =>
    refine ⟨i, j, ki, kj, hij, hi, hj, ?_, ?_⟩
    · rw [htr i ki hi, htr j kj hj]
      exact conflict_shape _ _ hc
    · rw [tBars_eq prog regs0 m0 tr i (fun k => htr i k hi) ki,
        tBars_eq prog regs0 m0 tr j (fun k => htr j k hj) kj]
      exact hb

theorem tSyncAt_of (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (tr : Trace) (i : Nat)
    (htr : ∀ k, tr i k = shape (soloAct prog regs0 m0 i k)) {e b : Nat}
    (h : SyncAt prog regs0 m0 i e b) : TSyncAt tr i e b := by
  match h with
  | ⟨k, n, w, pc, hb, ha⟩ =>
    exact ⟨k, n, w, by rw [tBars_eq prog regs0 m0 tr i htr k]; exact hb,
      by rw [htr k]; exact shape_arrive ha⟩

theorem tExitAt_of (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (tr : Trace) (i : Nat)
    (htr : ∀ k, tr i k = shape (soloAct prog regs0 m0 i k)) {e : Nat}
    (h : ExitAt prog regs0 m0 i e) : TExitAt tr i e := by
  match h with
  | ⟨k, hb, ha⟩ =>
    exact ⟨k, by rw [tBars_eq prog regs0 m0 tr i htr k]; exact hb,
      by rw [htr k]; exact shape_exit ha⟩

theorem traceDeadlock_of_epochDeadlock (prog : Prog V) (N : Nat) (regs0 : Nat → Nat → V)
    (m0 : Nat → V) (tr : Trace) (htr : ∀ i k, i < N → tr i k = shape (soloAct prog regs0 m0 i k))
    (h : EpochDeadlock prog N regs0 m0) : TraceDeadlock tr N := by
  match h with
  | ⟨e, i, j, b, hi, hj, hs, Or.inl hx⟩ =>
    exact ⟨e, i, j, b, hi, hj, tSyncAt_of prog regs0 m0 tr i (fun k => htr i k hi) hs,
      Or.inl (tExitAt_of prog regs0 m0 tr j (fun k => htr j k hj) hx)⟩
  | ⟨e, i, j, b, hi, hj, hs, Or.inr ⟨b', hb', hs'⟩⟩ =>
    exact ⟨e, i, j, b, hi, hj, tSyncAt_of prog regs0 m0 tr i (fun k => htr i k hi) hs,
      Or.inr ⟨b', hb', tSyncAt_of prog regs0 m0 tr j (fun k => htr j k hj) hs'⟩⟩

/-- One CTA: the executor's traces are the shapes of the solo traces for every initial memory,
the program is data independent, and the traces show no race and no deadlock: `CtaSafe`. -/
theorem ctaSafe_of_traces (c : Cta V) (tr : Trace)
    (hind : ∃ R, DataIndep c.prog R ∧ ∀ i, R i 0 (c.regs0 i) (c.regs0 i))
    (htr : ∀ (m0 : Nat → V) i k, i < c.N → tr i k = shape (soloAct c.prog c.regs0 m0 i k))
    (hnr : ¬TraceRace tr c.N) (hnd : ¬TraceDeadlock tr c.N) : CtaSafe c := fun hsync m0 => by
  match hind with
  | ⟨R, hR, hR0⟩ =>
    have her : ¬EpochRace c.prog c.N c.regs0 m0 := fun h =>
      hnr (traceRace_of_epochRace c.prog c.N c.regs0 m0 tr (htr m0) h)
    have hed : ¬EpochDeadlock c.prog c.N c.regs0 m0 := fun h =>
      hnd (traceDeadlock_of_epochDeadlock c.prog c.N c.regs0 m0 tr (htr m0) h)
    match epoch_checks_complete c.prog c.N c.regs0 m0 R hsync hR hR0 her hed with
    | ⟨hrf, hfit, hfin⟩ =>
      exact ⟨hrf, hfit,
        fun _ _ h1 h2 f1 f2 => confluence_epoch c.prog c.N c.regs0 m0 R hsync hR hR0 her h1 h2 f1 f2,
        hfin⟩

end Lemmas

section BoolLemmas

theorem or_cases' {a b : Bool} (h : (a || b) = true) : a = true ∨ b = true := by
  cases a
  · exact Or.inr h
  · exact Or.inl rfl

theorem not_true' {a : Bool} (h : (!a) = true) : a = false := by
  cases a
  · rfl
  · cases h

theorem kernelEq_sound {a b : Kernel} (h : kernelEq a b = true) : a = b := by
  cases a <;> cases b <;> first | rfl | cases h

theorem claimEq_sound {a b : Claim} (h : claimEq a b = true) : a = b := by
  cases a with
  | safe x =>
    cases b with
    | safe y => rw [kernelEq_sound h]
    | equivalent n => cases h
  | equivalent m =>
    cases b with
    | safe y => cases h
    | equivalent n =>
      have hmn : m = n := of_decide_eq_true' h
      rw [hmn]

theorem allBelow_sound (n : Nat) (l : List Nat) (h : allBelow n l = true) :
    ∀ o, natMem o l = true → o < n := by
  induction l with
  | nil => intro o ho; cases ho
  | cons k l ih =>
    intro o ho
    have ho' : (decide (o = k) || natMem o l) = true := ho
    cases hk : decide (o = k)
    · rw [hk] at ho'
      exact ih (and_right' h) o ho'
    · rw [of_decide_eq_true' hk]
      exact of_decide_eq_true' (and_left' h)

theorem isNil_sound {β : Type} {l : List β} (h : isNil l = true) : l = [] := by
  cases l
  · rfl
  · cases h

theorem sideOk_some {F : Type} {r : SideRun F} (h : sideOk (some r) = true) :
    r.findings = [] ∧ r.complete = true := by
  have h' : (!(!isNil r.findings || !r.complete)) = true := h
  cases hf : isNil r.findings
  · rw [hf] at h'; cases h'
  · cases hc : r.complete
    · rw [hf, hc] at h'; cases h'
    · exact ⟨isNil_sound hf, rfl⟩

theorem pick_claimed {T D : Type} (cert : Certificate T D) (k : Kernel)
    (h : claimed (Claim.safe k) cert.claims = true) :
    pick (claimed (Claim.safe Kernel.reference) cert.claims)
      (claimed (Claim.safe Kernel.optimized) cert.claims) k = true := by
  cases k <;> exact h

/-- A variant of `checkEquiv_sound` with the terms chosen before the environments: for a
claimed link, at each written element both terms exist, and they agree in every environment. -/
theorem checkEquiv_sound_uniform {K C α : Type} [DecidableEq K] [ExpField α]
    {ops : FieldCoeffOps K C} (cc : FieldCoeffCast ops α) (I : Interp K α) (hI : Rules.FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (run : Run K) (equiv : List Nat) (steps : List Step) (h : checkEquiv ops run equiv steps = true) :
    ∀ o, natMem o equiv = true →
      run.refFootprint o = run.optFootprint o ∧
      ∀ e, natMem e (run.refFootprint o) = true →
        ∃ lt ot, run.ref o e = some lt ∧ run.opt o e = some ot ∧
          ∀ sg : α → Option Bool, EVal.SignOf sg →
            ∀ ρ ρs : Env α, Agrees run.inputs ρs ρ →
              Term.evalE I sg ρs lt = Term.evalE I sg ρs ot := by
  intro o ho
  have hout := checkOutputs_sound run steps equiv (and_left' (and_left' h)) o ho
  refine ⟨of_decide_eq_true' (and_left' hout), ?_⟩
  intro e he
  have hc := allCovered_sound steps o _ (and_right' hout) e he
  match coveredBy_sound run equiv o e steps (and_right' h) hc with
  | ⟨rule, hr⟩ =>
    have hr' : checkTerms ops run.inputs rule (run.ref o e) (run.opt o e) = true := hr
    cases hl : run.ref o e with
    | none =>
      rw [hl] at hr'
      cases hr'
    | some lt =>
      cases hot : run.opt o e with
      | none =>
        rw [hl, hot] at hr'
        cases hr'
      | some ot =>
        rw [hl, hot] at hr'
        exact ⟨lt, ot, rfl, rfl, fun sg hsg ρ ρs hag =>
          applyRule_sound cc I hI hconst sg hsg run.inputs ρ ρs hag lt ot rule hr'⟩

end BoolLemmas

/-! ### Soundness -/

section Soundness

variable {T D S K F C V α : Type} [DecidableEq D] [DecidableEq K] [AccAdd V] [ExpField α]
  {X : Oracle T D S K F} {ops : FieldCoeffOps K C}

/-- The binding part accepts exactly when the three digests match. -/
theorem bindingOk_sound {cert : Certificate T D} {r o : T} (h : bindingOk X cert r o = true) :
    X.sha256 r = cert.refPtxSha256 ∧ X.sha256 o = cert.optPtxSha256 ∧
      X.specDigest cert.pairSpec cert.refSpec cert.optSpec = cert.specSha256 :=
  ⟨of_decide_eq_true' (and_left' (and_left' h)), of_decide_eq_true' (and_right' (and_left' h)),
    of_decide_eq_true' (and_right' h)⟩

/-- What an accepting `check` has computed: the binding, the parsed pair spec, the run, and the
results of parts 2 to 4. -/
theorem check_parts {cert : Certificate T D} {r o : T} (h : check X ops cert r o = true) :
    bindingOk X cert r o = true ∧
    ∃ pair pr, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      X.runPair pair r o (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims) = some pr ∧
      claimsOk (X.outputs pair) cert.claims = true ∧
      (∀ k, sideOk (pr.side k) = true) ∧
      equivPart ops pr cert.steps (equivOf cert.claims) = true := by
  refine ⟨and_left' h, ?_⟩
  have hs := and_right' h
  cases hp : X.fromTexts cert.pairSpec cert.refSpec cert.optSpec with
  | none =>
    rw [hp] at hs
    cases hs
  | some pair =>
    rw [hp] at hs
    have hrun := and_right' hs
    cases hr : X.runPair pair r o (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims) with
    | none =>
      rw [hr] at hrun
      cases hrun
    | some pr =>
      rw [hr] at hrun
      have hsides := and_left' hrun
      refine ⟨pair, pr, rfl, hr, and_left' hs, ?_, and_right' hrun⟩
      intro k
      cases k
      · exact and_left' hsides
      · exact and_right' hsides

/-- Part (a) of `check_sound`: the safety claims.  Under `RunsWanted`, `ExecFaithful`,
`RaceCheckComplete` and `DeadlockCheckComplete`, if `check` accepts, every kernel with a `Safe`
claim is `KernelSafe` in the semantics of its text under the parsed pair spec. -/
theorem check_safe (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : ExecFaithful X sem)
    (hrace : RaceCheckComplete X) (hdead : DeadlockCheckComplete X)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      ∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafe (sem pair k (pick refPtx optPtx k)) := by
  match check_parts h with
  | ⟨_, pair, pr, hp, hr, _, hsideOk, _⟩ =>
    refine ⟨pair, hp, ?_⟩
    intro k hk c hc
    match hwant _ _ _ _ _ _ hr k (pick_claimed cert k hk) with
    | ⟨sr, hsr⟩ =>
      have hok : sideOk (some sr) = true := by rw [← hsr]; exact hsideOk k
      match sideOk_some hok with
      | ⟨hfind, hcomp⟩ =>
        match hfaith _ _ _ _ _ _ k sr hr hsr hcomp with
        | ⟨hctas, hcta⟩ =>
          match hcta c hc with
          | ⟨hthr, hind, htr⟩ =>
            have hc' : c < sr.ctas := by rw [hctas]; exact hc
            have hnr := hrace _ _ _ _ _ _ k sr hr hsr hfind c hc'
            have hnd := hdead _ _ _ _ _ _ k sr hr hsr hfind c hc'
            rw [hthr] at hnr hnd
            exact ctaSafe_of_traces _ (sr.trace c) hind htr hnr hnd

/-- Part (b) of `check_sound`: the equivalence claims.  No hypothesis on the executor: the
statement is about the terms the run produced. -/
theorem check_equiv (cc : FieldCoeffCast ops α) (I : Interp K α) (hI : Rules.FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    ∃ pair pr, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      X.runPair pair refPtx optPtx (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims) = some pr ∧
      ∀ o, natMem o (equivOf cert.claims) = true →
        o < X.outputs pair ∧
        pr.terms.refFootprint o = pr.terms.optFootprint o ∧
        ∀ e, natMem e (pr.terms.refFootprint o) = true →
          ∃ lt ot, pr.terms.ref o e = some lt ∧ pr.terms.opt o e = some ot ∧
            ∀ sg : α → Option Bool, EVal.SignOf sg →
              ∀ ρ ρs : Env α, Agrees pr.terms.inputs ρs ρ →
                Term.evalE I sg ρs lt = Term.evalE I sg ρs ot := by
  match check_parts h with
  | ⟨_, pair, pr, hp, hr, hcl, _, heq⟩ =>
    refine ⟨pair, pr, hp, hr, ?_⟩
    intro o ho
    have hbelow := allBelow_sound _ _ (and_right' (and_left' hcl)) o ho
    cases he : equivOf cert.claims with
    | nil =>
      rw [he] at ho
      cases ho
    | cons o1 os =>
      rw [he] at heq ho
      have heq' : equivBoth ops pr.terms (o1 :: os) cert.steps pr.reference pr.optimized
          = true := heq
      cases hrr : pr.reference with
      | none =>
        rw [hrr] at heq'
        cases heq'
      | some rr =>
        cases hoo : pr.optimized with
        | none =>
          rw [hrr, hoo] at heq'
          cases heq'
        | some oo =>
          rw [hrr, hoo] at heq'
          exact ⟨hbelow, checkEquiv_sound_uniform cc I hI hconst pr.terms _ cert.steps heq' o ho⟩

/-- **Soundness of `check`.**  Under `RunsWanted`, `ExecFaithful`, `RaceCheckComplete` and
`DeadlockCheckComplete`, if `check` accepts `cert` with the texts `refPtx`, `optPtx`, then the
texts have the certificate's digests, the embedded specs parse to some `pair`, and
(a) every kernel `k` with a `Safe k` claim is `KernelSafe` in the semantics of its text under
`pair`; (b) for every `Equivalent o` claim, `o` is an output link of `pair`, both kernels write
the same elements of it, and at each the two terms exist and have the same value for all inputs,
in every `ExpField`, under every interpretation satisfying `FieldInterp`, as extended values
(`Term.evalE`: finite and equal, or the same infinity, or, for `Congruent` steps, both undefined;
`checkEquiv_sound_noInf` gives plain equality for terms without infinities). -/
theorem check_sound (sem : S → Kernel → T → KernelSem V)
    (hwant : RunsWanted X) (hfaith : ExecFaithful X sem)
    (hrace : RaceCheckComplete X) (hdead : DeadlockCheckComplete X)
    (cc : FieldCoeffCast ops α) (I : Interp K α) (hI : Rules.FieldInterp I)
    (hconst : ∀ k : K, cc.cast (ops.ofConst k) = I.const k)
    (cert : Certificate T D) (refPtx optPtx : T) (h : check X ops cert refPtx optPtx = true) :
    X.sha256 refPtx = cert.refPtxSha256 ∧ X.sha256 optPtx = cert.optPtxSha256 ∧
    X.specDigest cert.pairSpec cert.refSpec cert.optSpec = cert.specSha256 ∧
    ∃ pair pr, X.fromTexts cert.pairSpec cert.refSpec cert.optSpec = some pair ∧
      X.runPair pair refPtx optPtx (claimed (Claim.safe Kernel.reference) cert.claims)
        (claimed (Claim.safe Kernel.optimized) cert.claims) = some pr ∧
      (∀ k, claimed (Claim.safe k) cert.claims = true →
        KernelSafe (sem pair k (pick refPtx optPtx k))) ∧
      (∀ o, natMem o (equivOf cert.claims) = true →
        o < X.outputs pair ∧
        pr.terms.refFootprint o = pr.terms.optFootprint o ∧
        ∀ e, natMem e (pr.terms.refFootprint o) = true →
          ∃ lt ot, pr.terms.ref o e = some lt ∧ pr.terms.opt o e = some ot ∧
            ∀ sg : α → Option Bool, EVal.SignOf sg →
              ∀ ρ ρs : Env α, Agrees pr.terms.inputs ρs ρ →
                Term.evalE I sg ρs lt = Term.evalE I sg ρs ot) := by
  have hb := bindingOk_sound (and_left' h)
  refine ⟨hb.1, hb.2.1, hb.2.2, ?_⟩
  match check_safe sem hwant hfaith hrace hdead cert refPtx optPtx h,
    check_equiv cc I hI hconst cert refPtx optPtx h with
  | ⟨pair, hp, hsafe⟩, ⟨pair', pr, hp', hr, hequiv⟩ =>
    have e : some pair' = some pair := Eq.trans (Eq.symm hp') hp
    cases e
    exact ⟨_, pr, hp', hr, hsafe, hequiv⟩

/-! ### The checks are not vacuous: what `check` rejects -/

/-- Two texts accepted with one certificate have the same SHA-256 (a collision if they
differ), and so do the spec texts with the certificate's spec digest. -/
theorem check_binding {cert : Certificate T D} {r o r' o' : T}
    (h : check X ops cert r o = true) (h' : check X ops cert r' o' = true) :
    X.sha256 r = X.sha256 r' ∧ X.sha256 o = X.sha256 o' :=
  ⟨Eq.trans (bindingOk_sound (and_left' h)).1 (Eq.symm (bindingOk_sound (and_left' h')).1),
    Eq.trans (bindingOk_sound (and_left' h)).2.1 (Eq.symm (bindingOk_sound (and_left' h')).2.1)⟩

/-- Under the idealization that the hash is injective (real SHA-256 is not; this stands for
collision resistance), a certificate is accepted with at most one pair of texts. -/
theorem check_binding_of_injective (hinj : ∀ a b : T, X.sha256 a = X.sha256 b → a = b)
    {cert : Certificate T D} {r o r' o' : T}
    (h : check X ops cert r o = true) (h' : check X ops cert r' o' = true) : r = r' ∧ o = o' :=
  ⟨hinj r r' (check_binding h h').1, hinj o o' (check_binding h h').2⟩

theorem check_rejects_ref_digest {cert : Certificate T D} {r o : T}
    (hd : X.sha256 r ≠ cert.refPtxSha256) : check X ops cert r o = false := by
  cases hc : check X ops cert r o
  · rfl
  · exact False.elim (hd (bindingOk_sound (and_left' hc)).1)

theorem check_rejects_opt_digest {cert : Certificate T D} {r o : T}
    (hd : X.sha256 o ≠ cert.optPtxSha256) : check X ops cert r o = false := by
  cases hc : check X ops cert r o
  · rfl
  · exact False.elim (hd (bindingOk_sound (and_left' hc)).2.1)

theorem check_rejects_spec_digest {cert : Certificate T D} {r o : T}
    (hd : X.specDigest cert.pairSpec cert.refSpec cert.optSpec ≠ cert.specSha256) :
    check X ops cert r o = false := by
  cases hc : check X ops cert r o
  · rfl
  · exact False.elim (hd (bindingOk_sound (and_left' hc)).2.2)

/-- Steps without an `Equivalent` claim are rejected. -/
theorem check_rejects_steps_without_equiv {cert : Certificate T D} {r o : T}
    (he : equivOf cert.claims = []) (hs : isNil cert.steps = false) :
    check X ops cert r o = false := by
  cases hc : check X ops cert r o
  · rfl
  · match check_parts hc with
    | ⟨_, _, pr, _, _, _, _, heq⟩ =>
      rw [he] at heq
      have heq' : isNil cert.steps = true := heq
      rw [hs] at heq'
      cases heq'

/-- An `Equivalent` claim without the `Safe(Reference)` claim is rejected. -/
theorem check_rejects_equiv_without_safe {cert : Certificate T D} {r o : T} {o1 : Nat}
    {os : List Nat} (he : equivOf cert.claims = o1 :: os)
    (hs : claimed (Claim.safe Kernel.reference) cert.claims = false) :
    check X ops cert r o = false := by
  cases hc : check X ops cert r o
  · rfl
  · match check_parts hc with
    | ⟨_, _, _, _, _, hcl, _, _⟩ =>
      have h3 := and_right' hcl
      rw [he, hs] at h3
      cases h3

/-- An empty claim list is rejected. -/
theorem check_rejects_no_claims {cert : Certificate T D} {r o : T} (hn : cert.claims = []) :
    check X ops cert r o = false := by
  cases hc : check X ops cert r o
  · rfl
  · match check_parts hc with
    | ⟨_, _, _, _, _, hcl, _, _⟩ =>
      have h1 := and_left' (and_left' hcl)
      rw [hn] at h1
      cases h1

end Soundness

/-! ### A concrete instance: the hypotheses are satisfiable and `check` accepts

Texts and digests are numbers, the hash is the identity, the pair spec is `()` with one output
link.  Both kernels are `exampleProg 2` (RaceCheck.lean: load `mem[i]`, store it at `i + 100`,
`bar.sync` with the whole CTA, exit), one CTA of two threads; the executor's trace is that
program's shapes (`exTrace`), with no finding.  Both kernels write element 0 of link 0 as the
input `x 0 0`, proved by `Congruent`. -/

section Example

open Examples

def exTrace (N : Nat) : Trace := fun i k =>
  match k with
  | 0 => AShape.read i
  | 1 => AShape.write (i + 100)
  | 2 => AShape.arrive 0 N true
  | _ => AShape.exit

def exSide : SideRun Unit :=
  { findings := [], complete := true, ctas := 1, threads := fun _ => 2, trace := fun _ => exTrace 2 }

def exRun : Run Int :=
  { ref := fun o e => if o = 0 then (if e = 0 then some (x 0 0) else none) else none,
    opt := fun o e => if o = 0 then (if e = 0 then some (x 0 0) else none) else none,
    refFootprint := fun o => if o = 0 then [0] else [],
    optFootprint := fun o => if o = 0 then [0] else [],
    inputs := one }

def exPairRun (wr wo : Bool) : PairRun Int Unit :=
  { reference := cond wr (some exSide) none, optimized := cond wo (some exSide) none,
    terms := exRun }

def exOracle : Oracle Nat Nat Unit Int Unit :=
  { sha256 := fun t => t, specDigest := fun a b c => a + b + c,
    fromTexts := fun _ _ _ => some (), outputs := fun _ => 1,
    runPair := fun _ _ _ wr wo => some (exPairRun wr wo) }

def exCert : Certificate Nat Nat :=
  { specSha256 := 6, refPtxSha256 := 1, optPtxSha256 := 2, refPtxPath := 0, optPtxPath := 0,
    pairSpec := 1, refSpec := 2, optSpec := 3,
    claims := [Claim.safe Kernel.reference, Claim.safe Kernel.optimized, Claim.equivalent 0],
    steps := [⟨0, 0, 1, Rule.congruent⟩] }

theorem exCert_accepted : check exOracle intFieldOps exCert 1 2 = true := rfl

-- The rejections, evaluated: a wrong PTX text, the `Equivalent` claim dropped (steps kept),
-- an unsorted claim list, a duplicate claim, equivalence without the optimized kernel's
-- safety claim, a link that does not exist, a missing step.
example : check exOracle intFieldOps exCert 7 2 = false := rfl
example : check exOracle intFieldOps
    { exCert with claims := [Claim.safe Kernel.reference, Claim.safe Kernel.optimized] } 1 2
    = false := rfl
example : check exOracle intFieldOps
    { exCert with claims := [Claim.safe Kernel.optimized, Claim.safe Kernel.reference,
      Claim.equivalent 0] } 1 2 = false := rfl
example : check exOracle intFieldOps
    { exCert with claims := [Claim.safe Kernel.reference, Claim.safe Kernel.optimized,
      Claim.equivalent 0, Claim.equivalent 0] } 1 2 = false := rfl
example : check exOracle intFieldOps
    { exCert with claims := [Claim.safe Kernel.reference, Claim.equivalent 0] } 1 2
    = false := rfl
example : check exOracle intFieldOps
    { exCert with claims := [Claim.safe Kernel.reference, Claim.safe Kernel.optimized,
      Claim.equivalent 1], steps := [⟨1, 0, 1, Rule.congruent⟩] } 1 2 = false := rfl
example : check exOracle intFieldOps { exCert with steps := [] } 1 2 = false := rfl
-- As in the Rust, fewer claims are accepted: only the reference kernel's safety, no steps.
example : check exOracle intFieldOps
    { exCert with claims := [Claim.safe Kernel.reference], steps := [] } 1 2 = true := rfl

/-- `Nat.add_right_cancel` of core uses `propext`; this proof does not. -/
theorem add_right_cancel' (m : Nat) : ∀ n k : Nat, n + m = k + m → n = k := by
  induction m with
  | zero => intro n k h; exact h
  | succ m ih => intro n k h; exact ih n k (Nat.noConfusion h id)

theorem exTrace_no_race : ¬TraceRace (exTrace 2) 2 := by
  intro ⟨i, j, ki, kj, hij, hi, hj, hc, _⟩
  have big : ∀ a b : Nat, a < 2 → a = b + 100 → False := by
    intro a b ha hab
    rw [hab] at ha
    have h101 : 101 ≤ 2 := Nat.leTrans (Nat.leAddLeft 101 b) ha
    exact absurd h101 (by decide)
  cases ki with
  | zero =>
    cases kj with
    | zero => exact hc
    | succ kj =>
      cases kj with
      | zero => exact big i j hi hc
      | succ kj =>
        cases kj with
        | zero => exact hc
        | succ kj => exact hc
  | succ ki =>
    cases ki with
    | zero =>
      cases kj with
      | zero => exact big j i hj (Eq.symm hc)
      | succ kj =>
        cases kj with
        | zero => exact hij (add_right_cancel' 100 i j hc)
        | succ kj =>
          cases kj with
          | zero => exact hc
          | succ kj => exact hc
    | succ ki =>
      cases ki with
      | zero => exact hc
      | succ ki => exact hc

theorem exTrace_bars3 (N i : Nat) : ∀ k, tBars (exTrace N) i (k + 3) = 1 := by
  intro k
  induction k with
  | zero => rfl
  | succ k ih =>
    show tBars (exTrace N) i (k + 3) + sIsArr (exTrace N i (k + 3)) = 1
    rw [ih]
    rfl

theorem exTrace_syncAt {N i e b : Nat} (h : TSyncAt (exTrace N) i e b) : e = 0 ∧ b = 0 := by
  match h with
  | ⟨k, n, w, hb, ha⟩ =>
    cases k with
    | zero => cases ha
    | succ k =>
      cases k with
      | zero => cases ha
      | succ k =>
        cases k with
        | zero =>
          cases ha
          exact ⟨Eq.symm hb, rfl⟩
        | succ k => cases ha

theorem exTrace_exitAt {N i e : Nat} (h : TExitAt (exTrace N) i e) : e = 1 := by
  match h with
  | ⟨k, hb, ha⟩ =>
    cases k with
    | zero => cases ha
    | succ k =>
      cases k with
      | zero => cases ha
      | succ k =>
        cases k with
        | zero => cases ha
        | succ k => exact Eq.trans (Eq.symm hb) (exTrace_bars3 N i k)

theorem exTrace_no_deadlock : ¬TraceDeadlock (exTrace 2) 2 := by
  intro ⟨e, i, j, b, _, _, hs, hx⟩
  match exTrace_syncAt hs, hx with
  | ⟨he, _⟩, Or.inl hx' =>
    have h1 := exTrace_exitAt hx'
    rw [he] at h1
    cases h1
  | ⟨_, hb⟩, Or.inr ⟨b', hb', hs'⟩ =>
    exact hb' (Eq.trans (exTrace_syncAt hs').2 (Eq.symm hb))

variable {V : Type} [AccAdd V]

/-- The semantics: every kernel is one CTA of `exampleProg 2`, two threads, registers `regs0`. -/
def exSem (regs0 : Nat → Nat → V) : Unit → Kernel → Nat → KernelSem V :=
  fun _ _ _ => ⟨1, fun _ => ⟨exampleProg 2, 2, regs0⟩⟩

theorem solo_succ' (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) :
    solo prog regs0 m0 i (Nat.succ k) = newT (prog i (solo prog regs0 m0 i k).pc
      (solo prog regs0 m0 i k).regs) false (solo prog regs0 m0 i k) m0 := rfl

theorem soloAct_def (prog : Prog V) (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) :
    soloAct prog regs0 m0 i k = prog i (solo prog regs0 m0 i k).pc (solo prog regs0 m0 i k).regs :=
  rfl

theorem ex_step_pc (i : Nat) (S : TState V) (m0 : Nat → V) (h : S.pc = 3) :
    (newT ((exampleProg 2 : Prog V) i S.pc S.regs) false S m0).pc = 3 := by
  rw [h]
  exact h

theorem exProg_pc (regs0 : Nat → Nat → V) (m0 : Nat → V) (i : Nat) :
    ∀ k, (solo (exampleProg 2 : Prog V) regs0 m0 i (Nat.succ (Nat.succ (Nat.succ k)))).pc = 3 := by
  intro k
  induction k with
  | zero => rfl
  | succ k ih =>
    exact Eq.trans (congrArg TState.pc (solo_succ' (exampleProg 2 : Prog V) regs0 m0 i
      (Nat.succ (Nat.succ (Nat.succ k))))) (ex_step_pc i _ m0 ih)

theorem exTrace_faithful (regs0 : Nat → Nat → V) (m0 : Nat → V) (i k : Nat) :
    exTrace 2 i k = shape (soloAct (exampleProg 2 : Prog V) regs0 m0 i k) := by
  cases k with
  | zero => rfl
  | succ k =>
    cases k with
    | zero => rfl
    | succ k =>
      cases k with
      | zero => rfl
      | succ k =>
        rw [soloAct_def, exProg_pc regs0 m0 i k]
        rfl

theorem ex_side {wr wo : Bool} {k : Kernel} {sr : SideRun Unit}
    (h : (exPairRun wr wo).side k = some sr) : sr = exSide := by
  cases k with
  | reference =>
    cases wr with
    | false => cases h
    | true =>
      have h' : some exSide = some sr := h
      cases h'
      rfl
  | optimized =>
    cases wo with
    | false => cases h
    | true =>
      have h' : some exSide = some sr := h
      cases h'
      rfl

theorem ex_runsWanted : RunsWanted exOracle := by
  intro _ _ _ wr wo pr h k hk
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  cases k with
  | reference =>
    have hw : wr = true := hk
    rw [hw]
    exact ⟨exSide, rfl⟩
  | optimized =>
    have hw : wo = true := hk
    rw [hw]
    exact ⟨exSide, rfl⟩

theorem ex_execFaithful (regs0 : Nat → Nat → V) : ExecFaithful exOracle (exSem regs0) := by
  intro _ _ _ wr wo pr k sr h hs
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  rw [ex_side hs]
  intro _
  refine ⟨rfl, ?_⟩
  intro c _
  exact ⟨rfl, ⟨fun _ _ _ _ => True, exampleProg_dataIndep 2, fun _ => True.intro⟩,
    fun m0 i k _ => exTrace_faithful regs0 m0 i k⟩

theorem ex_raceCheckComplete : RaceCheckComplete exOracle := by
  intro _ _ _ wr wo pr k sr h hs _ c _
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  rw [ex_side hs]
  exact exTrace_no_race

theorem ex_deadlockCheckComplete : DeadlockCheckComplete exOracle := by
  intro _ _ _ wr wo pr k sr h hs _ c _
  have h' : some (exPairRun wr wo) = some pr := h
  cases h'
  rw [ex_side hs]
  exact exTrace_no_deadlock

/-- `check_safe` applied to the accepted example certificate: the reference kernel is safe. -/
theorem ex_safe (regs0 : Nat → Nat → V) : KernelSafe ((exSem regs0) () Kernel.reference 1) :=
  match check_safe (exSem regs0) ex_runsWanted (ex_execFaithful regs0) ex_raceCheckComplete
      ex_deadlockCheckComplete exCert 1 2 exCert_accepted with
  | ⟨(), _, hsafe⟩ => hsafe Kernel.reference rfl

end Example

end Kcert
