import Kcert.Compat
import Kcert.Clocks
import Kcert.ClocksKeep
import Kcert.Grid

/-!
# The shadow record across CTAs (`reads_cta`, `foreign_read`, `settle_cta`, atomic scopes)

Rust: `checker/src/exec/race.rs` (`Shadow` with `reads_cta`, `foreign_read`, the atomics' scope
flags; `Shadow::access`, `Shadow::settle_cta`, `Shadow::atomic`), called per granule by
`checker/src/exec/access.rs` while `exec/mod.rs` runs the CTAs one after another.

A copy of the shadow record of one granule with the fields `Clocks.lean` left out (`XSh`), over
the history of the granule's accesses in the executor's sequential order (`XEv`: the access's
epoch with its CTA, its kind, and the ordering `o` of the running CTA's clocks at that point:
`o e = true` iff `clocks.ordered(e, u)`).  The clocks themselves are abstract: the one fact
used is `Resp`, which is `Clocks::ordered`'s first conjunct `e.cta == self.cta`: an entry of
another CTA is never ordered.  `Sorted`: the CTAs of the history never decrease (CTA 0 runs to
completion, then CTA 1, ...).

* `foreign_read_reported`: in such a history, if a read of CTA `c` is followed, at any distance,
  by a write (benign or not) or an atomic of another CTA, some access reports a conflict.  This
  is the `foreign_read` mechanism: `settle_cta` keeps one read of an earlier CTA when a new CTA
  touches the granule, and a write clears it only after being checked against it.
* `scope_gap_reported`: a finding of this model, fixed in the Rust.  `Shadow::atomic` kept one
  atomic entry per thread and overwrote its scope flag, so CTA 0's `.cta`-scope atomic,
  followed by a `.gpu`-scope atomic of the same thread, was not reported against CTA 1's
  `.gpu`-scope atomic, although the first and the last are not atomic with respect to each
  other.  The entry now keeps `.cta` (`setForA`, Rust `slot.1 || cta_scope`), and the history
  is reported (evaluated by `rfl`).

Not done: the same completeness for an earlier write against a later access (`write`,
`same_writes`) and for an earlier atomic against a later plain access (`atomics`); the
connection of these histories to `Grid.SeqRun` and to `Grid.XDisjointSeq`.
-/

namespace Kcert
namespace GRace

open Race (In orOpt findL findO filterL pushO snocL)

/-- Rust `Epoch` with its CTA; `id` stands for the clock and `pc`. -/
structure XE where
  cta : Nat
  tid : Nat
  id : Nat

/-- Rust `Shadow` of one granule with `reads_cta`, `foreign_read` and the atomics' scope flags
(`true`: `.cta` scope). -/
structure XSh where
  write : Option XE
  same_writes : List XE
  reads : List XE
  reads_cta : Nat
  foreign_read : Option XE
  atomics : List (XE × Bool)

/-- `Shadow::default()`. -/
def XSh.empty : XSh := ⟨none, [], [], 0, none, []⟩

def headO {α : Type} : List α → Option α
  | [] => none
  | x :: _ => some x

def optList {α : Type} : Option α → List α
  | none => []
  | some x => [x]

def appL {α : Type} : List α → List α → List α
  | [], m => m
  | x :: l, m => x :: appL l m

def fstO {α β : Type} : Option (α × β) → Option α
  | none => none
  | some p => some p.1

def isSomeB {α : Type} : Option α → Bool
  | none => false
  | some _ => true

/-- `!clocks.ordered(e, u)`. -/
def un (o : XE → Bool) (e : XE) : Bool := !(o e)

/-- Rust `reads.iter_mut().find(|r| r.tid == u)`, then replace or push. -/
def setForX (now : XE) : List XE → List XE
  | [] => [now]
  | e :: l => cond (decide (e.tid = now.tid)) (now :: l) (e :: setForX now l)

/-- Rust `atomics.iter_mut().find(|(a, _)| a.cta == now.cta && a.tid == u)`, then
`*slot = (now, cta_scope)` or push. -/
def setForA (now : XE) (cs : Bool) : List (XE × Bool) → List (XE × Bool)
  | [] => [(now, cs)]
  | p :: l => cond (decide (p.1.cta = now.cta) && decide (p.1.tid = now.tid)) ((now, p.2 || cs) :: l)
      (p :: setForA now cs l)

/-- Rust `Shadow::settle_cta`. -/
def settle (s : XSh) (k : Nat) : XSh :=
  cond (decide (s.reads_cta = k)) s
    ⟨s.write, s.same_writes, [], k, orOpt s.foreign_read (headO s.reads), s.atomics⟩

/-- `self.write.iter().chain(&self.same_writes).find(|w| !clocks.ordered(w, u))`. -/
def uwX (s : XSh) (o : XE → Bool) : Option XE :=
  orOpt (findO (un o) s.write) (findL (un o) s.same_writes)

/-- `self.reads.iter().chain(self.foreign_read.iter()).find(|r| !clocks.ordered(r, u))`. -/
def urX (s : XSh) (o : XE → Bool) : Option XE :=
  findL (un o) (appL s.reads (optList s.foreign_read))

/-- Rust `Shadow::access` (the conflict's earlier epoch only). -/
def accessX (s : XSh) (o : XE → Bool) (now : XE) (write sv : Bool) : Option XE × XSh :=
  cond write
    (orOpt (orOpt (cond (write && sv) none (uwX s o))
        (fstO (findL (fun p => un o p.1) (settle s now.cta).atomics)))
      (urX (settle s now.cta) o),
      ⟨some now,
        cond (write && sv)
          (pushO (filterL (un o) (settle s now.cta).same_writes) (findO (un o) (settle s now.cta).write))
          [],
        (settle s now.cta).reads, (settle s now.cta).reads_cta, none, (settle s now.cta).atomics⟩)
    (orOpt (cond (write && sv) none (uwX s o))
        (fstO (findL (fun p => un o p.1) (settle s now.cta).atomics)),
      ⟨(settle s now.cta).write, (settle s now.cta).same_writes, setForX now (settle s now.cta).reads,
        (settle s now.cta).reads_cta, (settle s now.cta).foreign_read, (settle s now.cta).atomics⟩)

/-- Rust `Shadow::atomic` (`cs`: `cta_scope`). -/
def atomicX (s : XSh) (o : XE → Bool) (now : XE) (cs : Bool) : Option XE × XSh :=
  (orOpt (orOpt (uwX (settle s now.cta) o) (urX (settle s now.cta) o))
      (fstO (findL (fun p => (p.2 || cs) && !(decide (p.1.cta = now.cta))) (settle s now.cta).atomics)),
    ⟨(settle s now.cta).write, (settle s now.cta).same_writes, (settle s now.cta).reads,
      (settle s now.cta).reads_cta, (settle s now.cta).foreign_read,
      setForA now cs (settle s now.cta).atomics⟩)

/-- What an access does to the granule: a load, a store (`same_value` flag), an atomic addition
(`cta_scope` flag). -/
inductive XKind where
  | load
  | store (sv : Bool)
  | atom (cs : Bool)

/-- One access: its epoch (with CTA), its kind, the running CTA's ordering at that point. -/
structure XEv where
  now : XE
  kind : XKind
  o : XE → Bool

def stepX (s : XSh) (e : XEv) : Option XE × XSh :=
  match e.kind with
  | XKind.load => accessX s e.o e.now false false
  | XKind.store sv => accessX s e.o e.now true sv
  | XKind.atom cs => atomicX s e.o e.now cs

/-- Whether some access of the history (oldest first) reports a conflict. -/
def reportsX : XSh → List XEv → Bool
  | _, [] => false
  | s, e :: es => isSomeB (stepX s e).1 || reportsX (stepX s e).2 es

/-- The CTAs of the history never decrease, from `m` on. -/
def Sorted : Nat → List XEv → Prop
  | _, [] => True
  | m, e :: es => m ≤ e.now.cta ∧ Sorted e.now.cta es

/-- `Clocks::ordered` is false for an entry of another CTA. -/
def Resp : List XEv → Prop
  | [] => True
  | e :: es => (∀ x, x.cta ≠ e.now.cta → e.o x = false) ∧ Resp es

/-- A write or an atomic. -/
def isWA : XKind → Bool
  | XKind.load => false
  | XKind.store _ => true
  | XKind.atom _ => true

/-- Some access of the history is a write or atomic of a CTA other than `c`. -/
def HasWA (c : Nat) : List XEv → Prop
  | [] => False
  | e :: es => (isWA e.kind = true ∧ e.now.cta ≠ c) ∨ HasWA c es

/-- Some read of the history is followed, later in it, by a write or atomic of another CTA. -/
def ReadThenWA : List XEv → Prop
  | [] => False
  | e :: es => (e.kind = XKind.load ∧ HasWA e.now.cta es) ∨ ReadThenWA es

/-- The shape of the read entries: every entry of `reads` is of CTA `reads_cta`, and the kept
foreign read is of an earlier CTA. -/
def RBase (s : XSh) : Prop :=
  (∀ r, In r s.reads → r.cta = s.reads_cta) ∧ ∀ f, s.foreign_read = some f → f.cta < s.reads_cta

/-- `RBase`, and a read of CTA `c` or of an earlier CTA is held in `reads` or `foreign_read`. -/
def RInv (c : Nat) (s : XSh) : Prop :=
  RBase s ∧ ∃ w, (In w s.reads ∨ s.foreign_read = some w) ∧ w.cta ≤ c

section Lemmas

theorem in_appL_left {α : Type} {x : α} : ∀ {l : List α} (m : List α), In x l → In x (appL l m) := by
  intro l
  induction l with
  | nil => intro m h; exact False.elim h
  | cons y l ih =>
    intro m h
    cases h with
    | inl h => exact Or.inl h
    | inr h => exact Or.inr (ih m h)

theorem in_appL_right {α : Type} {x : α} : ∀ (l : List α) {m : List α}, In x m → In x (appL l m) := by
  intro l
  induction l with
  | nil => intro m h; exact h
  | cons y l ih => intro m h; exact Or.inr (ih h)

theorem in_setForX {now x : XE} : ∀ l, In x (setForX now l) → x = now ∨ In x l := by
  intro l
  induction l with
  | nil =>
    intro h
    cases h with
    | inl h => exact Or.inl (Eq.symm h)
    | inr h => exact False.elim h
  | cons e l ih =>
    intro h
    cases he : decide (e.tid = now.tid) with
    | true =>
      have h' : In x (now :: l) := by
        have e' : setForX now (e :: l) = cond (decide (e.tid = now.tid)) (now :: l) (e :: setForX now l) := rfl
        rw [e', he] at h; exact h
      cases h' with
      | inl h => exact Or.inl (Eq.symm h)
      | inr h => exact Or.inr (Or.inr h)
    | false =>
      have h' : In x (e :: setForX now l) := by
        have e' : setForX now (e :: l) = cond (decide (e.tid = now.tid)) (now :: l) (e :: setForX now l) := rfl
        rw [e', he] at h; exact h
      cases h' with
      | inl h => exact Or.inr (Or.inl h)
      | inr h =>
        cases ih h with
        | inl h => exact Or.inl h
        | inr h => exact Or.inr (Or.inr h)

theorem in_setForX_now (now : XE) : ∀ l, In now (setForX now l) := by
  intro l
  induction l with
  | nil => exact Or.inl rfl
  | cons e l ih =>
    show In now (cond (decide (e.tid = now.tid)) (now :: l) (e :: setForX now l))
    cases decide (e.tid = now.tid) with
    | true => exact Or.inl rfl
    | false => exact Or.inr ih

theorem in_setForX_other (now : XE) {x : XE} (hx : x.tid ≠ now.tid) :
    ∀ l, In x l → In x (setForX now l) := by
  intro l
  induction l with
  | nil => intro h; exact False.elim h
  | cons e l ih =>
    intro h
    show In x (cond (decide (e.tid = now.tid)) (now :: l) (e :: setForX now l))
    cases he : decide (e.tid = now.tid) with
    | true =>
      cases h with
      | inl h => rw [← h] at hx; exact False.elim (hx (of_decide_eq_true' he))
      | inr h => exact Or.inr h
    | false =>
      cases h with
      | inl h => exact Or.inl h
      | inr h => exact Or.inr (ih h)

theorem orOpt_isSome_right {α : Type} (x : Option α) {y : Option α} (h : isSomeB y = true) :
    isSomeB (orOpt x y) = true := by
  cases x with
  | some x' => rfl
  | none => exact h

theorem orOpt_isSome_left {α : Type} {x : Option α} (y : Option α) (h : isSomeB x = true) :
    isSomeB (orOpt x y) = true := by
  cases x with
  | some x' => rfl
  | none => cases h

theorem findL_isSome {α : Type} {p : α → Bool} {x : α} {l : List α} (hx : In x l)
    (hp : p x = true) : isSomeB (findL p l) = true := by
  match Race.findL_of hx hp with
  | ⟨y, hy⟩ => rw [hy]; rfl

theorem settle_cta (s : XSh) (k : Nat) : (settle s k).reads_cta = k := by
  cases h : decide (s.reads_cta = k) with
  | true =>
    show (cond (decide (s.reads_cta = k)) s _).reads_cta = k
    rw [h]
    exact of_decide_eq_true' h
  | false =>
    show (cond (decide (s.reads_cta = k)) s _).reads_cta = k
    rw [h]
    rfl

/-- `settle_cta` keeps the shape, when the new CTA is not earlier. -/
theorem rBase_settle {s : XSh} {k : Nat} (hb : RBase s) (hk : s.reads_cta ≤ k) :
    RBase (settle s k) := by
  cases h : decide (s.reads_cta = k) with
  | true =>
    have e : settle s k = s := by
      show cond (decide (s.reads_cta = k)) s _ = s
      rw [h]; rfl
    rw [e]; exact hb
  | false =>
    have e : settle s k = ⟨s.write, s.same_writes, [], k, orOpt s.foreign_read (headO s.reads), s.atomics⟩ := by
      show cond (decide (s.reads_cta = k)) s _ = _
      rw [h]; rfl
    have hlt : s.reads_cta < k := Nat.ltOfLeOfNe hk (of_decide_eq_false' h)
    rw [e]
    refine ⟨fun r hr => False.elim hr, ?_⟩
    intro f hf
    show f.cta < k
    cases hfr : s.foreign_read with
    | some g =>
      rw [hfr] at hf
      have hgf : g = f := Option.some.inj hf
      rw [← hgf]
      exact Nat.ltTrans (hb.2 g hfr) hlt
    | none =>
      rw [hfr] at hf
      cases hr : s.reads with
      | nil => rw [hr] at hf; cases hf
      | cons r l =>
        rw [hr] at hf
        have hgf : r = f := Option.some.inj hf
        rw [← hgf]
        have hrc : r.cta = s.reads_cta := hb.1 r (by rw [hr]; exact Or.inl rfl)
        rw [hrc]
        exact hlt

/-- `settle_cta` keeps the witness read, when the new CTA is not earlier. -/
theorem rInv_settle {c : Nat} {s : XSh} {k : Nat} (hi : RInv c s) (hk : s.reads_cta ≤ k) :
    RInv c (settle s k) := by
  refine ⟨rBase_settle hi.1 hk, ?_⟩
  match hi.2 with
  | ⟨w, hw, hwc⟩ =>
  cases h : decide (s.reads_cta = k) with
  | true =>
    have e : settle s k = s := by
      show cond (decide (s.reads_cta = k)) s _ = s
      rw [h]; rfl
    rw [e]; exact ⟨w, hw, hwc⟩
  | false =>
    have e : settle s k = ⟨s.write, s.same_writes, [], k, orOpt s.foreign_read (headO s.reads), s.atomics⟩ := by
      show cond (decide (s.reads_cta = k)) s _ = _
      rw [h]; rfl
    rw [e]
    cases hfr : s.foreign_read with
    | some g =>
      refine ⟨g, Or.inr rfl, ?_⟩
      cases hw with
      | inr hw => rw [hfr] at hw; cases hw; exact hwc
      | inl hw =>
        -- the foreign read is of a CTA before `reads_cta`, the CTA of the witness
        have h1 : g.cta < s.reads_cta := hi.1.2 g hfr
        have h2 : w.cta = s.reads_cta := hi.1.1 w hw
        rw [← h2] at h1
        exact Nat.leTrans (Nat.leOfLt h1) hwc
    | none =>
      cases hw with
      | inr hw => rw [hfr] at hw; cases hw
      | inl hw =>
        cases hr : s.reads with
        | nil => rw [hr] at hw; exact False.elim hw
        | cons r l =>
          refine ⟨r, Or.inr rfl, ?_⟩
          have h1 : r.cta = s.reads_cta := hi.1.1 r (by rw [hr]; exact Or.inl rfl)
          have h2 : w.cta = s.reads_cta := hi.1.1 w hw
          rw [h1, ← h2]
          exact hwc

/-- After `settle_cta` for a CTA `k` later than `c`, the witness read is unordered, so the read
check finds something. -/
theorem urX_some {c k : Nat} {s : XSh} {o : XE → Bool} (hi : RInv c (settle s k)) (hck : c < k)
    (ho : ∀ x, x.cta ≠ k → o x = false) : isSomeB (urX (settle s k) o) = true := by
  match hi.2 with
  | ⟨w, hw, hwc⟩ =>
    have hne : w.cta ≠ k := fun e => Nat.ltIrrefl k (by rw [← e]; exact Nat.ltOfLeOfLt hwc (by rw [e]; exact hck))
    have hun : un o w = true := by
      show (!(o w)) = true
      rw [ho w hne]; rfl
    have hin : In w (appL (settle s k).reads (optList (settle s k).foreign_read)) := by
      cases hw with
      | inl hw => exact in_appL_left _ hw
      | inr hw => rw [hw]; exact in_appL_right _ (Or.inl rfl)
    exact findL_isSome hin hun

end Lemmas

section Main

/-- A read of CTA `c` on top of a state of the right shape holds a witness for `c`. -/
theorem rInv_after_read {s : XSh} {o : XE → Bool} {now : XE} (hb : RBase s)
    (hk : s.reads_cta ≤ now.cta) : RInv now.cta (accessX s o now false false).2 := by
  have hs := rBase_settle hb hk
  have hc := settle_cta s now.cta
  refine ⟨⟨?_, hs.2⟩, now, Or.inl (in_setForX_now now _), Nat.leRefl _⟩
  intro r hr
  show r.cta = (settle s now.cta).reads_cta
  cases in_setForX _ hr with
  | inl e => rw [e, hc]
  | inr h => exact hs.1 r h

/-- Every access keeps the shape (`reads` of `reads_cta`, the foreign read earlier), and leaves
`reads_cta` at its CTA. -/
theorem rBase_step {s : XSh} (e : XEv) (hb : RBase s) (hk : s.reads_cta ≤ e.now.cta) :
    RBase (stepX s e).2 ∧ (stepX s e).2.reads_cta = e.now.cta := by
  have hs := rBase_settle hb hk
  have hc := settle_cta s e.now.cta
  cases hkd : e.kind with
  | load =>
    have h : stepX s e = accessX s e.o e.now false false := by
      show (match e.kind with
        | XKind.load => accessX s e.o e.now false false
        | XKind.store sv => accessX s e.o e.now true sv
        | XKind.atom cs => atomicX s e.o e.now cs) = _
      rw [hkd]
    rw [h]
    exact ⟨(rInv_after_read hb hk).1, hc⟩
  | store sv =>
    have h : stepX s e = accessX s e.o e.now true sv := by
      show (match e.kind with
        | XKind.load => accessX s e.o e.now false false
        | XKind.store sv => accessX s e.o e.now true sv
        | XKind.atom cs => atomicX s e.o e.now cs) = _
      rw [hkd]
    rw [h]
    exact ⟨⟨hs.1, fun f hf => by cases hf⟩, hc⟩
  | atom cs =>
    have h : stepX s e = atomicX s e.o e.now cs := by
      show (match e.kind with
        | XKind.load => accessX s e.o e.now false false
        | XKind.store sv => accessX s e.o e.now true sv
        | XKind.atom cs => atomicX s e.o e.now cs) = _
      rw [hkd]
    rw [h]
    exact ⟨hs, hc⟩

/-- One access, with a witness read of CTA `c ≤` its CTA: either it reports, or the witness stays;
and a write or atomic of another CTA reports. -/
theorem rInv_step {c : Nat} {s : XSh} (e : XEv) (hi : RInv c s) (hk : s.reads_cta ≤ e.now.cta)
    (hck : c ≤ e.now.cta) (ho : ∀ x, x.cta ≠ e.now.cta → e.o x = false) :
    isSomeB (stepX s e).1 = true ∨
      (RInv c (stepX s e).2 ∧ (isWA e.kind = true → e.now.cta = c)) := by
  have hs := rInv_settle hi hk
  have hc := settle_cta s e.now.cta
  have hb := rBase_step e hi.1 hk
  cases Nat.decEq e.now.cta c with
  | isFalse hne =>
    have hlt : c < e.now.cta := Nat.ltOfLeOfNe hck (fun x => hne (Eq.symm x))
    have hu := urX_some hs hlt ho
    cases hkd : e.kind with
    | load =>
      have h : stepX s e = accessX s e.o e.now false false := by
        show (match e.kind with
          | XKind.load => accessX s e.o e.now false false
          | XKind.store sv => accessX s e.o e.now true sv
          | XKind.atom cs => atomicX s e.o e.now cs) = _
        rw [hkd]
      refine Or.inr ⟨⟨hb.1, ?_⟩, fun x => by cases x⟩
      -- a read keeps `reads` up to its own entry and the foreign read
      match hs.2 with
      | ⟨w, hw, hwc⟩ =>
        rw [h]
        cases hw with
        | inr hw => exact ⟨w, Or.inr hw, hwc⟩
        | inl hw =>
          cases Nat.decEq w.tid e.now.tid with
          | isFalse ht => exact ⟨w, Or.inl (in_setForX_other e.now ht _ hw), hwc⟩
          | isTrue _ =>
            -- `w` is in `reads`, so of CTA `e.now.cta`, which is after `c`: impossible
            have h1 : w.cta = (settle s e.now.cta).reads_cta := hs.1.1 w hw
            rw [hc] at h1
            rw [h1] at hwc
            exact False.elim (hne (Nat.leAntisymm hwc hck))
    | store sv =>
      have h : stepX s e = accessX s e.o e.now true sv := by
        show (match e.kind with
          | XKind.load => accessX s e.o e.now false false
          | XKind.store sv => accessX s e.o e.now true sv
          | XKind.atom cs => atomicX s e.o e.now cs) = _
        rw [hkd]
      refine Or.inl ?_
      rw [h]
      exact orOpt_isSome_right _ hu
    | atom cs =>
      have h : stepX s e = atomicX s e.o e.now cs := by
        show (match e.kind with
          | XKind.load => accessX s e.o e.now false false
          | XKind.store sv => accessX s e.o e.now true sv
          | XKind.atom cs => atomicX s e.o e.now cs) = _
        rw [hkd]
      refine Or.inl ?_
      rw [h]
      exact orOpt_isSome_left _ (orOpt_isSome_right _ hu)
  | isTrue heq =>
    match hs.2 with
    | ⟨w, hw, hwc⟩ =>
    cases hkd : e.kind with
    | load =>
      have h : stepX s e = accessX s e.o e.now false false := by
        show (match e.kind with
          | XKind.load => accessX s e.o e.now false false
          | XKind.store sv => accessX s e.o e.now true sv
          | XKind.atom cs => atomicX s e.o e.now cs) = _
        rw [hkd]
      refine Or.inr ⟨⟨hb.1, ?_⟩, fun _ => heq⟩
      rw [h]
      cases hw with
      | inr hw => exact ⟨w, Or.inr hw, hwc⟩
      | inl hw =>
        cases Nat.decEq w.tid e.now.tid with
        | isFalse ht => exact ⟨w, Or.inl (in_setForX_other e.now ht _ hw), hwc⟩
        | isTrue _ => exact ⟨e.now, Or.inl (in_setForX_now e.now _), by rw [heq]; exact Nat.leRefl c⟩
    | store sv =>
      have h : stepX s e = accessX s e.o e.now true sv := by
        show (match e.kind with
          | XKind.load => accessX s e.o e.now false false
          | XKind.store sv => accessX s e.o e.now true sv
          | XKind.atom cs => atomicX s e.o e.now cs) = _
        rw [hkd]
      cases hw with
      | inl hw =>
        refine Or.inr ⟨⟨hb.1, ?_⟩, fun _ => heq⟩
        rw [h]
        exact ⟨w, Or.inl hw, hwc⟩
      | inr hw =>
        -- the kept foreign read is of an earlier CTA: unordered, reported
        have hlt : w.cta < e.now.cta := by
          have h1 := hs.1.2 w hw
          rw [hc] at h1
          exact h1
        have hun : un e.o w = true := by
          show (!(e.o w)) = true
          rw [ho w (fun x => Nat.ltIrrefl _ (by rw [x] at hlt; exact hlt))]; rfl
        have hin : In w (appL (settle s e.now.cta).reads (optList (settle s e.now.cta).foreign_read)) := by
          rw [hw]; exact in_appL_right _ (Or.inl rfl)
        refine Or.inl ?_
        rw [h]
        exact orOpt_isSome_right _ (findL_isSome hin hun)
    | atom cs =>
      have h : stepX s e = atomicX s e.o e.now cs := by
        show (match e.kind with
          | XKind.load => accessX s e.o e.now false false
          | XKind.store sv => accessX s e.o e.now true sv
          | XKind.atom cs => atomicX s e.o e.now cs) = _
        rw [hkd]
      refine Or.inr ⟨⟨hb.1, ?_⟩, fun _ => heq⟩
      rw [h]
      exact ⟨w, hw, hwc⟩

theorem reportsX_cons_of {s : XSh} {e : XEv} {es : List XEv}
    (h : isSomeB (stepX s e).1 = true ∨ reportsX (stepX s e).2 es = true) :
    reportsX s (e :: es) = true := by
  show (isSomeB (stepX s e).1 || reportsX (stepX s e).2 es) = true
  cases h with
  | inl h => rw [h]; rfl
  | inr h => rw [h]; cases isSomeB (stepX s e).1 <;> rfl

/-- With a witness read of CTA `c`, a later write or atomic of another CTA is reported. -/
theorem witness_reported (c : Nat) :
    ∀ (es : List XEv) (s : XSh) (m : Nat), RInv c s → s.reads_cta ≤ m → c ≤ m → Sorted m es →
      Resp es → HasWA c es → reportsX s es = true := by
  intro es
  induction es with
  | nil => intro s m _ _ _ _ _ h; exact False.elim h
  | cons e es ih =>
    intro s m hi hk hcm hso hr hw
    have hk' : s.reads_cta ≤ e.now.cta := Nat.leTrans hk hso.1
    have hc' : c ≤ e.now.cta := Nat.leTrans hcm hso.1
    apply reportsX_cons_of
    cases rInv_step e hi hk' hc' hr.1 with
    | inl h => exact Or.inl h
    | inr h =>
      refine Or.inr ?_
      have hb := rBase_step e hi.1 hk'
      cases hw with
      | inl hw => exact False.elim (hw.2 (h.2 hw.1))
      | inr hw =>
        refine ih (stepX s e).2 e.now.cta h.1 ?_ hc' hso.2 hr.2 hw
        rw [hb.2]
        exact Nat.leRefl _

/-- Completeness of `foreign_read`: in a history of one granule in the executor's order (CTAs
never decreasing, `Sorted`; another CTA's entries never ordered, `Resp`), starting from a shadow
of the right shape (for instance `XSh.empty`, `rBase_empty`), if a read of some CTA is followed
by a write or an atomic of another CTA, some access reports a conflict. -/
theorem foreign_read_reported :
    ∀ (es : List XEv) (s : XSh) (m : Nat), RBase s → s.reads_cta ≤ m → Sorted m es → Resp es →
      ReadThenWA es → reportsX s es = true := by
  intro es
  induction es with
  | nil => intro s m _ _ _ _ h; exact False.elim h
  | cons e es ih =>
    intro s m hb hk hso hr hrw
    have hk' : s.reads_cta ≤ e.now.cta := Nat.leTrans hk hso.1
    have hb' := rBase_step e hb hk'
    apply reportsX_cons_of
    refine Or.inr ?_
    cases hrw with
    | inl h =>
      have hst : stepX s e = accessX s e.o e.now false false := by
        show (match e.kind with
          | XKind.load => accessX s e.o e.now false false
          | XKind.store sv => accessX s e.o e.now true sv
          | XKind.atom cs => atomicX s e.o e.now cs) = _
        rw [h.1]
      have hi : RInv e.now.cta (stepX s e).2 := by rw [hst]; exact rInv_after_read hb hk'
      refine witness_reported e.now.cta es (stepX s e).2 e.now.cta hi ?_ (Nat.leRefl _) hso.2 hr.2 h.2
      rw [hb'.2]; exact Nat.leRefl _
    | inr h =>
      refine ih (stepX s e).2 e.now.cta hb'.1 ?_ hso.2 hr.2 h
      rw [hb'.2]; exact Nat.leRefl _

theorem rBase_empty : RBase XSh.empty :=
  ⟨fun _ h => False.elim h, fun _ h => by cases h⟩

/-- The same from the empty shadow (`Shadow::default()`, `reads_cta = 0`). -/
theorem foreign_read_reported_empty (es : List XEv) (hso : Sorted 0 es) (hr : Resp es)
    (hrw : ReadThenWA es) : reportsX XSh.empty es = true :=
  foreign_read_reported es XSh.empty 0 rBase_empty (Nat.leRefl 0) hso hr hrw

end Main

section Writes

/-- Not a benign write: a load, an atomic, or a store whose `same_value` is false. -/
def notBenign : XKind → Bool
  | XKind.load => true
  | XKind.store sv => !sv
  | XKind.atom _ => true

def isStore : XKind → Bool
  | XKind.load => false
  | XKind.store _ => true
  | XKind.atom _ => false

/-- Some access of the history is of a CTA other than `c` and not a benign write. -/
def HasAcc (c : Nat) : List XEv → Prop
  | [] => False
  | e :: es => (notBenign e.kind = true ∧ e.now.cta ≠ c) ∨ HasAcc c es

/-- Some store of the history is followed, later in it, by an access of another CTA that is not
a benign write. -/
def WriteThenAcc : List XEv → Prop
  | [] => False
  | e :: es => (isStore e.kind = true ∧ HasAcc e.now.cta es) ∨ WriteThenAcc es

/-- A write of CTA `c` or of an earlier CTA is held in `write` or `same_writes`. -/
def WInv (c : Nat) (s : XSh) : Prop :=
  ∃ w, (s.write = some w ∨ In w s.same_writes) ∧ w.cta ≤ c

theorem settle_w (s : XSh) (k : Nat) :
    (settle s k).write = s.write ∧ (settle s k).same_writes = s.same_writes := by
  cases h : decide (s.reads_cta = k) with
  | true =>
    have e : settle s k = s := by
      show cond (decide (s.reads_cta = k)) s _ = s
      rw [h]; rfl
    rw [e]; exact ⟨rfl, rfl⟩
  | false =>
    have e : settle s k = ⟨s.write, s.same_writes, [], k, orOpt s.foreign_read (headO s.reads), s.atomics⟩ := by
      show cond (decide (s.reads_cta = k)) s _ = _
      rw [h]; rfl
    rw [e]; exact ⟨rfl, rfl⟩

theorem wInv_settle {c k : Nat} {s : XSh} (h : WInv c s) : WInv c (settle s k) := by
  show ∃ w, ((settle s k).write = some w ∨ In w (settle s k).same_writes) ∧ w.cta ≤ c
  rw [(settle_w s k).1, (settle_w s k).2]
  exact h

theorem unord_of_lt {c k : Nat} {o : XE → Bool} {w : XE} (hwc : w.cta ≤ c) (hck : c < k)
    (ho : ∀ x, x.cta ≠ k → o x = false) : un o w = true := by
  have hne : w.cta ≠ k := fun e => Nat.ltIrrefl k (by rw [← e]; exact Nat.ltOfLeOfLt hwc (by rw [e]; exact hck))
  show (!(o w)) = true
  rw [ho w hne]; rfl

/-- A held write of an earlier CTA is unordered: the write check finds something. -/
theorem uwX_some {c k : Nat} {s : XSh} {o : XE → Bool} (hi : WInv c s) (hck : c < k)
    (ho : ∀ x, x.cta ≠ k → o x = false) : isSomeB (uwX s o) = true := by
  match hi with
  | ⟨w, hw, hwc⟩ =>
    have hun := unord_of_lt hwc hck ho
    cases hw with
    | inl hw =>
      show isSomeB (orOpt (findO (un o) s.write) (findL (un o) s.same_writes)) = true
      rw [Race.findO_of hw hun]
      rfl
    | inr hw => exact orOpt_isSome_right _ (findL_isSome hw hun)

theorem stepX_load {s : XSh} {e : XEv} (h : e.kind = XKind.load) :
    stepX s e = accessX s e.o e.now false false := by
  show (match e.kind with
    | XKind.load => accessX s e.o e.now false false
    | XKind.store sv => accessX s e.o e.now true sv
    | XKind.atom cs => atomicX s e.o e.now cs) = _
  rw [h]

theorem stepX_store {s : XSh} {e : XEv} {sv : Bool} (h : e.kind = XKind.store sv) :
    stepX s e = accessX s e.o e.now true sv := by
  show (match e.kind with
    | XKind.load => accessX s e.o e.now false false
    | XKind.store sv => accessX s e.o e.now true sv
    | XKind.atom cs => atomicX s e.o e.now cs) = _
  rw [h]

theorem stepX_atom {s : XSh} {e : XEv} {cs : Bool} (h : e.kind = XKind.atom cs) :
    stepX s e = atomicX s e.o e.now cs := by
  show (match e.kind with
    | XKind.load => accessX s e.o e.now false false
    | XKind.store sv => accessX s e.o e.now true sv
    | XKind.atom cs => atomicX s e.o e.now cs) = _
  rw [h]

/-- One access, with a held write of CTA `c ≤` its CTA: either it reports, or the witness stays;
and an access of another CTA that is not a benign write reports. -/
theorem wInv_step {c : Nat} {s : XSh} (e : XEv) (hi : WInv c s) (hck : c ≤ e.now.cta)
    (ho : ∀ x, x.cta ≠ e.now.cta → e.o x = false) :
    isSomeB (stepX s e).1 = true ∨
      (WInv c (stepX s e).2 ∧ (notBenign e.kind = true → e.now.cta = c)) := by
  have hs := wInv_settle (k := e.now.cta) hi
  cases Nat.decEq e.now.cta c with
  | isFalse hne =>
    have hlt : c < e.now.cta := Nat.ltOfLeOfNe hck (fun x => hne (Eq.symm x))
    have hu := uwX_some hi hlt ho
    cases hkd : e.kind with
    | load =>
      refine Or.inl ?_
      rw [stepX_load hkd]
      exact orOpt_isSome_left _ hu
    | atom cs =>
      refine Or.inl ?_
      rw [stepX_atom hkd]
      have hu' : isSomeB (uwX (settle s e.now.cta) e.o) = true := by
        show isSomeB (orOpt (findO (un e.o) (settle s e.now.cta).write)
          (findL (un e.o) (settle s e.now.cta).same_writes)) = true
        rw [(settle_w s e.now.cta).1, (settle_w s e.now.cta).2]
        exact hu
      exact orOpt_isSome_left _ (orOpt_isSome_left _ hu')
    | store sv =>
      cases sv with
      | false =>
        refine Or.inl ?_
        rw [stepX_store hkd]
        exact orOpt_isSome_left _ (orOpt_isSome_left _ hu)
      | true =>
        -- a benign write of a later CTA: not checked against the held write, which it keeps
        refine Or.inr ⟨?_, fun x => by cases x⟩
        rw [stepX_store hkd]
        match hi with
        | ⟨w, hw, hwc⟩ =>
          have hun := unord_of_lt hwc hlt ho
          refine ⟨w, Or.inr ?_, hwc⟩
          show In w (pushO (filterL (un e.o) (settle s e.now.cta).same_writes)
            (findO (un e.o) (settle s e.now.cta).write))
          rw [(settle_w s e.now.cta).1, (settle_w s e.now.cta).2]
          cases hw with
          | inl hw => rw [Race.findO_of hw hun]; exact Race.in_pushO_some _
          | inr hw => exact Race.in_pushO_left _ (Race.in_filterL_of hun hw)
  | isTrue heq =>
    cases hkd : e.kind with
    | load =>
      refine Or.inr ⟨?_, fun _ => heq⟩
      rw [stepX_load hkd]
      exact hs
    | atom cs =>
      refine Or.inr ⟨?_, fun _ => heq⟩
      rw [stepX_atom hkd]
      exact hs
    | store sv =>
      refine Or.inr ⟨?_, fun _ => heq⟩
      rw [stepX_store hkd]
      exact ⟨e.now, Or.inl rfl, by rw [heq]; exact Nat.leRefl c⟩

/-- With a held write of CTA `c`, a later access of another CTA that is not a benign write is
reported. -/
theorem wwitness_reported (c : Nat) :
    ∀ (es : List XEv) (s : XSh) (m : Nat), WInv c s → c ≤ m → Sorted m es →
      Resp es → HasAcc c es → reportsX s es = true := by
  intro es
  induction es with
  | nil => intro s m _ _ _ _ h; exact False.elim h
  | cons e es ih =>
    intro s m hi hcm hso hr hw
    have hc' : c ≤ e.now.cta := Nat.leTrans hcm hso.1
    apply reportsX_cons_of
    cases wInv_step e hi hc' hr.1 with
    | inl h => exact Or.inl h
    | inr h =>
      refine Or.inr ?_
      cases hw with
      | inl hw => exact False.elim (hw.2 (h.2 hw.1))
      | inr hw => exact ih (stepX s e).2 e.now.cta h.1 hc' hso.2 hr.2 hw

/-- Completeness of the write check across CTAs: in a history of one granule in the executor's
order (`Sorted`, `Resp`), from any shadow, if a store of some CTA is followed by a load, an
atomic or a store that is not benign (`same_value` false) of another CTA, some access reports
a conflict.  (A later CTA's benign store, `same_value` true, is exempt, as in the Rust; it
keeps the earlier write in `same_writes`, so the same CTA's later accesses are still checked.) -/
theorem foreign_write_reported :
    ∀ (es : List XEv) (s : XSh) (m : Nat), Sorted m es → Resp es →
      WriteThenAcc es → reportsX s es = true := by
  intro es
  induction es with
  | nil => intro s m _ _ h; exact False.elim h
  | cons e es ih =>
    intro s m hso hr hwa
    apply reportsX_cons_of
    refine Or.inr ?_
    cases hwa with
    | inl h =>
      cases hkd : e.kind with
      | load => rw [hkd] at h; cases h.1
      | atom cs => rw [hkd] at h; cases h.1
      | store sv =>
        have hi : WInv e.now.cta (stepX s e).2 := by
          rw [stepX_store hkd]
          exact ⟨e.now, Or.inl rfl, Nat.leRefl _⟩
        exact wwitness_reported e.now.cta es (stepX s e).2 e.now.cta hi (Nat.leRefl _) hso.2 hr.2 h.2
    | inr h => exact ih (stepX s e).2 e.now.cta hso.2 hr.2 h

end Writes

section Atomics

def isAtom : XKind → Bool
  | XKind.load => false
  | XKind.store _ => false
  | XKind.atom _ => true

/-- Some access of the history is a load or a store of a CTA other than `c`. -/
def HasPlain (c : Nat) : List XEv → Prop
  | [] => False
  | e :: es => (isAtom e.kind = false ∧ e.now.cta ≠ c) ∨ HasPlain c es

/-- Some atomic of the history is followed, later in it, by a load or a store of another CTA. -/
def AtomThenPlain : List XEv → Prop
  | [] => False
  | e :: es => (isAtom e.kind = true ∧ HasPlain e.now.cta es) ∨ AtomThenPlain es

/-- An atomic of CTA `c` or of an earlier CTA is held in `atomics`. -/
def AInv (c : Nat) (s : XSh) : Prop := ∃ p, In p s.atomics ∧ p.1.cta ≤ c

theorem settle_a (s : XSh) (k : Nat) : (settle s k).atomics = s.atomics := by
  cases h : decide (s.reads_cta = k) with
  | true =>
    have e : settle s k = s := by
      show cond (decide (s.reads_cta = k)) s _ = s
      rw [h]; rfl
    rw [e]
  | false =>
    have e : settle s k = ⟨s.write, s.same_writes, [], k, orOpt s.foreign_read (headO s.reads), s.atomics⟩ := by
      show cond (decide (s.reads_cta = k)) s _ = _
      rw [h]; rfl
    rw [e]

/-- The scope flag `setForA` gives the entry of `now`'s thread. -/
def nowFlag (now : XE) (cs : Bool) : List (XE × Bool) → Bool
  | [] => cs
  | p :: l => cond (decide (p.1.cta = now.cta) && decide (p.1.tid = now.tid)) (p.2 || cs)
      (nowFlag now cs l)

theorem in_setForA_now (now : XE) (cs : Bool) :
    ∀ l, In (now, nowFlag now cs l) (setForA now cs l) := by
  intro l
  induction l with
  | nil => exact Or.inl rfl
  | cons p l ih =>
    show In (now, cond (decide (p.1.cta = now.cta) && decide (p.1.tid = now.tid)) (p.2 || cs)
        (nowFlag now cs l))
      (cond (decide (p.1.cta = now.cta) && decide (p.1.tid = now.tid)) ((now, p.2 || cs) :: l)
        (p :: setForA now cs l))
    cases decide (p.1.cta = now.cta) && decide (p.1.tid = now.tid) with
    | true => exact Or.inl rfl
    | false => exact Or.inr ih

theorem in_setForA_other (now : XE) (cs : Bool) {q : XE × Bool} (hq : q.1.cta ≠ now.cta) :
    ∀ l, In q l → In q (setForA now cs l) := by
  intro l
  induction l with
  | nil => intro h; exact False.elim h
  | cons p l ih =>
    intro h
    show In q (cond (decide (p.1.cta = now.cta) && decide (p.1.tid = now.tid)) ((now, p.2 || cs) :: l)
      (p :: setForA now cs l))
    cases hp : decide (p.1.cta = now.cta) && decide (p.1.tid = now.tid) with
    | true =>
      cases h with
      | inl h =>
        have h1 : p.1.cta = now.cta := of_decide_eq_true' (and_left' hp)
        rw [h] at h1
        exact False.elim (hq h1)
      | inr h => exact Or.inr h
    | false =>
      cases h with
      | inl h => exact Or.inl h
      | inr h => exact Or.inr (ih h)

theorem fstO_isSome {α β : Type} {o : Option (α × β)} (h : isSomeB o = true) :
    isSomeB (fstO o) = true := by
  cases o with
  | none => cases h
  | some p => rfl

/-- One access, with a held atomic of CTA `c ≤` its CTA: either it reports, or the witness
stays; and a load or store of another CTA reports. -/
theorem aInv_step {c : Nat} {s : XSh} (e : XEv) (hi : AInv c s) (hck : c ≤ e.now.cta)
    (ho : ∀ x, x.cta ≠ e.now.cta → e.o x = false) :
    isSomeB (stepX s e).1 = true ∨
      (AInv c (stepX s e).2 ∧ (isAtom e.kind = false → e.now.cta = c)) := by
  have hs : AInv c (settle s e.now.cta) := by
    show ∃ p, In p (settle s e.now.cta).atomics ∧ p.1.cta ≤ c
    rw [settle_a]; exact hi
  match hi with
  | ⟨p, hp, hpc⟩ =>
  cases Nat.decEq e.now.cta c with
  | isFalse hne =>
    have hlt : c < e.now.cta := Nat.ltOfLeOfNe hck (fun x => hne (Eq.symm x))
    have hun := unord_of_lt hpc hlt ho
    have hf : isSomeB (fstO (findL (fun q => un e.o q.1) (settle s e.now.cta).atomics)) = true := by
      rw [settle_a]
      exact fstO_isSome (findL_isSome (p := fun q => un e.o q.1) hp hun)
    cases hkd : e.kind with
    | load =>
      refine Or.inl ?_
      rw [stepX_load hkd]
      exact orOpt_isSome_right _ hf
    | store sv =>
      refine Or.inl ?_
      rw [stepX_store hkd]
      exact orOpt_isSome_left _ (orOpt_isSome_right _ hf)
    | atom cs =>
      refine Or.inr ⟨?_, fun x => by cases x⟩
      rw [stepX_atom hkd]
      have hne' : p.1.cta ≠ e.now.cta := fun x => Nat.ltIrrefl c (by rw [x] at hpc; exact Nat.ltOfLtOfLe hlt hpc)
      refine ⟨p, ?_, hpc⟩
      show In p (setForA e.now cs (settle s e.now.cta).atomics)
      rw [settle_a]
      exact in_setForA_other e.now cs hne' _ hp
  | isTrue heq =>
    cases hkd : e.kind with
    | load =>
      refine Or.inr ⟨?_, fun _ => heq⟩
      rw [stepX_load hkd]
      exact hs
    | store sv =>
      refine Or.inr ⟨?_, fun _ => heq⟩
      rw [stepX_store hkd]
      exact hs
    | atom cs =>
      refine Or.inr ⟨?_, fun _ => heq⟩
      rw [stepX_atom hkd]
      exact ⟨(e.now, nowFlag e.now cs _), in_setForA_now e.now cs _, by show e.now.cta ≤ c; rw [heq]; exact Nat.leRefl c⟩

theorem awitness_reported (c : Nat) :
    ∀ (es : List XEv) (s : XSh) (m : Nat), AInv c s → c ≤ m → Sorted m es →
      Resp es → HasPlain c es → reportsX s es = true := by
  intro es
  induction es with
  | nil => intro s m _ _ _ _ h; exact False.elim h
  | cons e es ih =>
    intro s m hi hcm hso hr hw
    have hc' : c ≤ e.now.cta := Nat.leTrans hcm hso.1
    apply reportsX_cons_of
    cases aInv_step e hi hc' hr.1 with
    | inl h => exact Or.inl h
    | inr h =>
      refine Or.inr ?_
      cases hw with
      | inl hw => exact False.elim (hw.2 (h.2 hw.1))
      | inr hw => exact ih (stepX s e).2 e.now.cta h.1 hc' hso.2 hr.2 hw

/-- Completeness of the atomic check against plain accesses across CTAs: in a history of one
granule in the executor's order, if an atomic of some CTA is followed by a load or a store (benign
or not) of another CTA, some access reports a conflict. -/
theorem foreign_atomic_reported :
    ∀ (es : List XEv) (s : XSh) (m : Nat), Sorted m es → Resp es →
      AtomThenPlain es → reportsX s es = true := by
  intro es
  induction es with
  | nil => intro s m _ _ h; exact False.elim h
  | cons e es ih =>
    intro s m hso hr hap
    apply reportsX_cons_of
    refine Or.inr ?_
    cases hap with
    | inl h =>
      cases hkd : e.kind with
      | load => rw [hkd] at h; cases h.1
      | store sv => rw [hkd] at h; cases h.1
      | atom cs =>
        have hi : AInv e.now.cta (stepX s e).2 := by
          rw [stepX_atom hkd]
          exact ⟨(e.now, nowFlag e.now cs _), in_setForA_now e.now cs _, Nat.leRefl _⟩
        exact awitness_reported e.now.cta es (stepX s e).2 e.now.cta hi (Nat.leRefl _) hso.2 hr.2 h.2
    | inr h => exact ih (stepX s e).2 e.now.cta hso.2 hr.2 h

end Atomics

section Footprints

theorem sorted_le : ∀ (es : List XEv) (m : Nat) {x : XEv}, Sorted m es → In x es → m ≤ x.now.cta := by
  intro es
  induction es with
  | nil => intro m x _ h; exact False.elim h
  | cons e es ih =>
    intro m x hs h
    cases h with
    | inl h => rw [← h]; exact hs.1
    | inr h => exact Nat.leTrans hs.1 (ih e.now.cta hs.2 h)

/-- In a history whose CTAs never decrease, an access of an earlier CTA comes before an access
of a later one. -/
theorem sorted_before {R : XEv → XEv → Prop} (F : List XEv → Prop)
    (hF : ∀ e es y, In y es → R e y → F (e :: es)) (hF2 : ∀ e es, F es → F (e :: es)) :
    ∀ (es : List XEv) (m : Nat), Sorted m es → ∀ x y, In x es → In y es →
      x.now.cta < y.now.cta → R x y → F es := by
  intro es
  induction es with
  | nil => intro m _ x y hx; exact False.elim hx
  | cons e es ih =>
    intro m hs x y hx hy hlt hR
    cases hx with
    | inl hx =>
      rw [← hx] at hR hlt
      cases hy with
      | inl hy => rw [hy] at hlt; exact False.elim (Nat.ltIrrefl _ hlt)
      | inr hy => exact hF e es y hy hR
    | inr hx =>
      cases hy with
      | inl hy =>
        have h1 := sorted_le es e.now.cta hs.2 hx
        rw [hy] at h1
        exact False.elim (Nat.ltIrrefl _ (Nat.ltOfLeOfLt h1 hlt))
      | inr hy => exact hF2 e es (ih e.now.cta hs.2 x y hx hy hlt hR)

theorem hasWA_of {c : Nat} : ∀ {es : List XEv} {y : XEv}, In y es → isWA y.kind = true →
    y.now.cta ≠ c → HasWA c es := by
  intro es
  induction es with
  | nil => intro y h; exact False.elim h
  | cons e es ih =>
    intro y h h1 h2
    cases h with
    | inl h => rw [← h] at h1 h2; exact Or.inl ⟨h1, h2⟩
    | inr h => exact Or.inr (ih h h1 h2)

theorem hasAcc_of {c : Nat} : ∀ {es : List XEv} {y : XEv}, In y es → notBenign y.kind = true →
    y.now.cta ≠ c → HasAcc c es := by
  intro es
  induction es with
  | nil => intro y h; exact False.elim h
  | cons e es ih =>
    intro y h h1 h2
    cases h with
    | inl h => rw [← h] at h1 h2; exact Or.inl ⟨h1, h2⟩
    | inr h => exact Or.inr (ih h h1 h2)

theorem hasPlain_of {c : Nat} : ∀ {es : List XEv} {y : XEv}, In y es → isAtom y.kind = false →
    y.now.cta ≠ c → HasPlain c es := by
  intro es
  induction es with
  | nil => intro y h; exact False.elim h
  | cons e es ih =>
    intro y h h1 h2
    cases h with
    | inl h => rw [← h] at h1 h2; exact Or.inl ⟨h1, h2⟩
    | inr h => exact Or.inr (ih h h1 h2)

/-- The global footprints of the sequential run, from the histories of the addresses: CTA `c`
loads from (`RdH`), stores to (`WrH`), atomically adds to (`AtH`) address `a`. -/
def RdH (hist : Nat → List XEv) (c a : Nat) : Prop :=
  ∃ e, In e (hist a) ∧ e.kind = XKind.load ∧ e.now.cta = c
def WrH (hist : Nat → List XEv) (c a : Nat) : Prop :=
  ∃ e, In e (hist a) ∧ isStore e.kind = true ∧ e.now.cta = c
def AtH (hist : Nat → List XEv) (c a : Nat) : Prop :=
  ∃ e, In e (hist a) ∧ isAtom e.kind = true ∧ e.now.cta = c

theorem ne_of_lt' {c d : Nat} (h : c < d) : d ≠ c := fun e => Nat.ltIrrefl c (by rw [e] at h; exact h)

/-- The Rust shadow check across CTAs gives `Grid.XDisjointSeq` for the sequential run: if the
history of every address is in the executor's order (`Sorted`, `Resp`), has no benign store
(`same_value` false throughout, as `Race.check` has), and reports nothing from the empty shadow,
then the footprints of the run (`RdH`, `WrH`, `AtH`) are disjoint across CTAs in the sense of
`Grid.XDisjointSeq`. -/
theorem xdisjoint_of_noReport (C : Nat) (hist : Nat → List XEv)
    (hso : ∀ a, Sorted 0 (hist a)) (hr : ∀ a, Resp (hist a))
    (hnb : ∀ a e, In e (hist a) → e.kind = XKind.store true → False)
    (hno : ∀ a, reportsX XSh.empty (hist a) = false) :
    Grid.XDisjointSeq C (RdH hist) (WrH hist) (AtH hist) := by
  intro c d hcd _ a
  have rtw : ∀ x y, In x (hist a) → In y (hist a) → x.now.cta < y.now.cta →
      x.kind = XKind.load → isWA y.kind = true → False := by
    intro x y hx hy hlt h1 h2
    have h := sorted_before ReadThenWA (R := fun x y => x.kind = XKind.load ∧ isWA y.kind = true ∧
        y.now.cta ≠ x.now.cta)
      (fun e es y hy hR => Or.inl ⟨hR.1, hasWA_of hy hR.2.1 hR.2.2⟩) (fun e es h => Or.inr h)
      (hist a) 0 (hso a) x y hx hy hlt ⟨h1, h2, ne_of_lt' hlt⟩
    have h' := foreign_read_reported_empty (hist a) (hso a) (hr a) h
    rw [hno a] at h'
    cases h'
  have wta : ∀ x y, In x (hist a) → In y (hist a) → x.now.cta < y.now.cta →
      isStore x.kind = true → notBenign y.kind = true → False := by
    intro x y hx hy hlt h1 h2
    have h := sorted_before WriteThenAcc (R := fun x y => isStore x.kind = true ∧
        notBenign y.kind = true ∧ y.now.cta ≠ x.now.cta)
      (fun e es y hy hR => Or.inl ⟨hR.1, hasAcc_of hy hR.2.1 hR.2.2⟩) (fun e es h => Or.inr h)
      (hist a) 0 (hso a) x y hx hy hlt ⟨h1, h2, ne_of_lt' hlt⟩
    have h' := foreign_write_reported (hist a) XSh.empty 0 (hso a) (hr a) h
    rw [hno a] at h'
    cases h'
  have atp : ∀ x y, In x (hist a) → In y (hist a) → x.now.cta < y.now.cta →
      isAtom x.kind = true → isAtom y.kind = false → False := by
    intro x y hx hy hlt h1 h2
    have h := sorted_before AtomThenPlain (R := fun x y => isAtom x.kind = true ∧
        isAtom y.kind = false ∧ y.now.cta ≠ x.now.cta)
      (fun e es y hy hR => Or.inl ⟨hR.1, hasPlain_of hy hR.2.1 hR.2.2⟩) (fun e es h => Or.inr h)
      (hist a) 0 (hso a) x y hx hy hlt ⟨h1, h2, ne_of_lt' hlt⟩
    have h' := foreign_atomic_reported (hist a) XSh.empty 0 (hso a) (hr a) h
    rw [hno a] at h'
    cases h'
  -- the kinds, case by case
  have nbStore : ∀ y, In y (hist a) → isStore y.kind = true → notBenign y.kind = true := by
    intro y hy h
    cases hk : y.kind with
    | load => rw [hk] at h; cases h
    | atom cs => rw [hk] at h; cases h
    | store sv =>
      cases sv with
      | false => rfl
      | true => exact False.elim (hnb a y hy hk)
  have waStore : ∀ y : XEv, isStore y.kind = true → isWA y.kind = true := by
    intro y h
    cases hk : y.kind with
    | load => rw [hk] at h; cases h
    | atom cs => rfl
    | store sv => rfl
  have waAtom : ∀ y : XEv, isAtom y.kind = true → isWA y.kind = true := by
    intro y h
    cases hk : y.kind with
    | load => rw [hk] at h; cases h
    | atom cs => rfl
    | store sv => rw [hk] at h; cases h
  have plainLoad : ∀ y : XEv, y.kind = XKind.load → isAtom y.kind = false := by
    intro y h; rw [h]; rfl
  have plainStore : ∀ y : XEv, isStore y.kind = true → isAtom y.kind = false := by
    intro y h
    cases hk : y.kind with
    | load => rfl
    | atom cs => rw [hk] at h; cases h
    | store sv => rfl
  have nbLoad : ∀ y : XEv, y.kind = XKind.load → notBenign y.kind = true := by
    intro y h; rw [h]; rfl
  have nbAtom : ∀ y : XEv, isAtom y.kind = true → notBenign y.kind = true := by
    intro y h
    cases hk : y.kind with
    | load => rw [hk] at h; cases h
    | atom cs => rfl
    | store sv => rw [hk] at h; cases h
  refine ⟨?_, ?_, ?_, ?_, ?_, ?_, ?_⟩
  · intro ⟨x, hx, hxk, hxc⟩ ⟨y, hy, hyk, hyc⟩
    exact rtw x y hx hy (by rw [hxc, hyc]; exact hcd) hxk (waStore y hyk)
  · intro ⟨x, hx, hxk, hxc⟩ ⟨y, hy, hyk, hyc⟩
    exact rtw x y hx hy (by rw [hxc, hyc]; exact hcd) hxk (waAtom y hyk)
  · intro ⟨x, hx, hxk, hxc⟩ ⟨y, hy, hyk, hyc⟩
    exact wta x y hx hy (by rw [hxc, hyc]; exact hcd) hxk (nbLoad y hyk)
  · intro ⟨x, hx, hxk, hxc⟩ ⟨y, hy, hyk, hyc⟩
    exact wta x y hx hy (by rw [hxc, hyc]; exact hcd) hxk (nbStore y hy hyk)
  · intro ⟨x, hx, hxk, hxc⟩ ⟨y, hy, hyk, hyc⟩
    exact wta x y hx hy (by rw [hxc, hyc]; exact hcd) hxk (nbAtom y hyk)
  · intro ⟨x, hx, hxk, hxc⟩ ⟨y, hy, hyk, hyc⟩
    exact atp x y hx hy (by rw [hxc, hyc]; exact hcd) hxk (plainLoad y hyk)
  · intro ⟨x, hx, hxk, hxc⟩ ⟨y, hy, hyk, hyc⟩
    exact atp x y hx hy (by rw [hxc, hyc]; exact hcd) hxk (plainStore y hyk)

/-- End to end, with the remaining gap as a hypothesis: if the histories of the global addresses
are in the executor's order, without benign stores, and the shadow check reports nothing on
them, and every global access of every schedule of the grid is one of those in the histories
(`Grid.GFootprint` with the histories' footprints: this is where data independence across
CTAs is needed; `seq_representative_indep` in `GridIndep.lean` derives it from
`Grid.GDataIndep` and histories holding the solo accesses), then, with race freedom within each CTA and fitting
barriers, the sequential run's final state is the final state of every schedule. -/
theorem seq_representative_check {V : Type} [Sem.AccAdd V] (gp : Grid.GProg V) (G : Nat → Bool)
    (N C : Nat) {s0 u t : Grid.GState V} (hist : Nat → List XEv)
    (hso : ∀ a, Sorted 0 (hist a)) (hr : ∀ a, Resp (hist a))
    (hnb : ∀ a e, In e (hist a) → e.kind = XKind.store true → False)
    (hno : ∀ a, reportsX XSh.empty (hist a) = false)
    (hfp : Grid.GFootprint gp G N C s0 (RdH hist) (WrH hist) (AtH hist))
    (hin : Grid.GridRaceFreeIn gp G N C s0) (hfit : Grid.GBarriersFit gp G N C s0)
    (hseq : Grid.SeqRun gp G N C s0 u) (ht : Grid.GReach gp G N C s0 t)
    (ft : Grid.GFinal N C t) : Grid.GSame G t u :=
  Grid.seq_representative_fp gp G N C hin hfp (xdisjoint_of_noReport C hist hso hr hnb hno) hfit
    hseq ht ft

end Footprints

section Gap

/-- Ordered iff same CTA: one thread per CTA, program order. -/
def sameCta (k : Nat) (x : XE) : Bool := decide (x.cta = k)

/-- CTA 0's thread 0 does a `.cta`-scope atomic, then a `.gpu`-scope atomic; then CTA 1's thread
0 does a `.gpu`-scope atomic.  The first and the last are a race (the `.cta`-scope addition is
not atomic with respect to CTA 1), which `Shadow::atomic` reports when the entry keeps its scope
(`scope_two`); here the second atomic overwrote it. -/
def scopeHist : List XEv :=
  [⟨⟨0, 0, 0⟩, XKind.atom true, sameCta 0⟩, ⟨⟨0, 0, 1⟩, XKind.atom false, sameCta 0⟩,
    ⟨⟨1, 0, 0⟩, XKind.atom false, sameCta 1⟩]

/-- The finding, fixed in the Rust in session 5 (the entry keeps `.cta` once one of its
thread's atomics had it, `setForA`): `scopeHist` is reported.  Before the fix, with the scope
overwritten, no access of `scopeHist` reported. -/
theorem scope_gap_reported : reportsX XSh.empty scopeHist = true := rfl

/-- Without CTA 0's second atomic, the `.cta`-scope one is reported against CTA 1's. -/
theorem scope_two :
    reportsX XSh.empty [⟨⟨0, 0, 0⟩, XKind.atom true, sameCta 0⟩, ⟨⟨1, 0, 0⟩, XKind.atom false, sameCta 1⟩] =
      true := rfl

/-- A read of CTA 0 and a write of CTA 1 (another thread index, so `reads` has no entry of that
thread): reported through `foreign_read`. -/
theorem foreign_read_example :
    reportsX XSh.empty [⟨⟨0, 0, 0⟩, XKind.load, sameCta 0⟩, ⟨⟨1, 1, 0⟩, XKind.store false, sameCta 1⟩] =
      true := rfl

end Gap

end GRace
end Kcert
