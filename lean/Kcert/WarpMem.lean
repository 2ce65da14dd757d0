import Kcert.Warp

/-!
# Warp collectives whose completion accesses memory (the memory part)

Rust: `checker/src/exec/mod.rs` (`complete_collective`), `checker/src/exec/tensor_core.rs`
(`complete_ldmatrix`), `checker/src/exec/wmma.rs` (`wmma.load`, `wmma.store`).  At the
completion of `ldmatrix` / `wmma.load` every row / element is loaded, and at the completion of
`wmma.store` every element is stored, through the ordinary access path, on behalf of the lane
that supplied the address, with that lane's clock (no clock edge is added).

`Warp.lean` models collectives whose completion writes registers only.  This file models the
memory part of a completion that accesses memory: a list of reads (`RdAcc`: the lane that
supplied the address, the address), whose values (`loads`, read in the memory before the
completion) the result functions distribute to the lanes' registers, and a list of writes
(`WrAcc`: lane, address, value from the contributions), applied in order (`stores`).

* `MConflict rs ws B`: another thread's `Sem` action `B` touches an address of the completion
  with at least one write (a read of a stored address, or a write / atomic add to a loaded or
  stored address).
* `comm_mem`: a completion and a non-conflicting `Sem` action `B` of another thread commute on
  memory (pointwise), `B` does not change the values the completion loads, and the completion
  does not change what `B` reads (`newT`).
* `noConflict_of_acc` (the Rust's race check at the completion): if no attributed access, seen
  as an ordinary `Sem` access of its lane (`rdAct`, `wrAct`), is in `Sem.Conflict` with `B`,
  then `¬MConflict rs ws B`.  `stores_seq` / `loads_seq`: the completion's memory effect is that
  of these ordinary accesses one after the other, and its loaded values are what they read.
* `Ex`: a 2-lane `ldmatrix`-like completion (each lane supplies one row address, both rows go to
  both lanes), by `rfl`, with `comm_mem` applied to a non-conflicting store of a third thread and
  a conflicting store shown to be in `MConflict`.

NOT here: the whole-state semantics `WMSem` and its confluence (see `lean/README.md`).
-/

namespace Kcert
namespace WarpMem

open Sem

/-- A read of the completion: the lane that supplied the address, and the address. -/
structure RdAcc where
  lane : Nat
  addr : Nat

/-- A write of the completion: the lane that supplied the address, the address, the value. -/
structure WrAcc (V : Type) where
  lane : Nat
  addr : Nat
  val : V

section Defs

variable {V : Type} [AccAdd V]

/-- Whether `a` is in the list. -/
def inA (a : Nat) : List Nat → Bool
  | [] => false
  | b :: l => decide (a = b) || inA a l

def rdAddrs : List RdAcc → List Nat
  | [] => []
  | r :: l => r.addr :: rdAddrs l

def wrAddrs : List (WrAcc V) → List Nat
  | [] => []
  | w :: l => w.addr :: wrAddrs l

/-- The values the completion loads, in the memory before it. -/
def loads (m : Nat → V) : List RdAcc → List V
  | [] => []
  | r :: l => m r.addr :: loads m l

/-- The memory after the completion's writes, in order. -/
def stores : List (WrAcc V) → (Nat → V) → (Nat → V)
  | [], m => m
  | w :: l, m => stores l (upd m w.addr w.val)

/-- Another thread's `Sem` action conflicts with the completion: it touches one of its addresses
with at least one write. -/
def MConflict (rs : List RdAcc) (ws : List (WrAcc V)) : Act V → Prop
  | Act.read a _ _ => inA a (wrAddrs ws) = true
  | Act.write c _ _ => inA c (rdAddrs rs) = true ∨ inA c (wrAddrs ws) = true
  | Act.atomAdd c _ _ => inA c (rdAddrs rs) = true ∨ inA c (wrAddrs ws) = true
  | Act.compute _ _ => False
  | Act.arrive _ _ _ _ => False
  | Act.exit => False

/-- An attributed read as an ordinary `Sem` read of its lane (register and `pc` immaterial). -/
def rdAct (r : RdAcc) : Act V := Act.read r.addr 0 0

/-- An attributed write as an ordinary `Sem` write of its lane. -/
def wrAct (w : WrAcc V) : Act V := Act.write w.addr w.val 0

/-- No attributed read, as an ordinary read, conflicts with `B`. -/
def RdNC (B : Act V) : List RdAcc → Prop
  | [] => True
  | r :: rs => ¬Conflict (rdAct r) B ∧ RdNC B rs

/-- No attributed write, as an ordinary write, conflicts with `B`. -/
def WrNC (B : Act V) : List (WrAcc V) → Prop
  | [] => True
  | w :: ws => ¬Conflict (wrAct w) B ∧ WrNC B ws

/-- No attributed access, as an ordinary access, conflicts with `B` (what the Rust checks at the
completion, access by access, with the supplying lane's clock). -/
def AccNC (B : Act V) (rs : List RdAcc) (ws : List (WrAcc V)) : Prop := RdNC B rs ∧ WrNC B ws

/-- The memory after ordinary `Sem` actions one after the other. -/
def seqMem : List (Act V) → (Nat → V) → (Nat → V)
  | [], m => m
  | A :: l, m => seqMem l (memEff A m)

def wrActs : List (WrAcc V) → List (Act V)
  | [] => []
  | w :: l => wrAct w :: wrActs l

end Defs

section Lemmas

variable {V : Type} [AccAdd V]

theorem inA_cons_false {a b : Nat} {l : List Nat} (h : inA a (b :: l) = false) :
    a ≠ b ∧ inA a l = false := by
  have h' : (decide (a = b) || inA a l) = false := h
  cases hd : decide (a = b) with
  | true => rw [hd] at h'; cases h'
  | false =>
    rw [hd] at h'
    exact ⟨of_decide_eq_false' hd, h'⟩

theorem bool_false_of_not {b : Bool} (h : ¬b = true) : b = false := by
  cases b with
  | true => exact False.elim (h rfl)
  | false => rfl

theorem stores_congr : ∀ (ws : List (WrAcc V)) {m m' : Nat → V}, (∀ k, m k = m' k) →
    ∀ k, stores ws m k = stores ws m' k := by
  intro ws
  induction ws with
  | nil => intro m m' h k; exact h k
  | cons w l ih =>
    intro m m' h k
    show stores l (upd m w.addr w.val) k = stores l (upd m' w.addr w.val) k
    apply ih
    intro j
    cases Nat.decEq j w.addr with
    | isTrue e => rw [e, upd_same, upd_same]
    | isFalse e => rw [upd_other _ _ e, upd_other _ _ e, h j]

/-- The completion's writes leave an address it does not store alone. -/
theorem stores_other : ∀ (ws : List (WrAcc V)) (m : Nat → V) {c : Nat},
    inA c (wrAddrs ws) = false → stores ws m c = m c := by
  intro ws
  induction ws with
  | nil => intro m c _; rfl
  | cons w l ih =>
    intro m c h
    have h2 := inA_cons_false h
    show stores l (upd m w.addr w.val) c = m c
    rw [ih _ h2.2, upd_other _ _ h2.1]

/-- The completion's writes and an update at an address it does not store commute. -/
theorem stores_upd : ∀ (ws : List (WrAcc V)) (m : Nat → V) {c : Nat} (x : V),
    inA c (wrAddrs ws) = false → ∀ k, stores ws (upd m c x) k = upd (stores ws m) c x k := by
  intro ws
  induction ws with
  | nil => intro m c x _ k; rfl
  | cons w l ih =>
    intro m c x h k
    have h2 := inA_cons_false h
    show stores l (upd (upd m c x) w.addr w.val) k = upd (stores l (upd m w.addr w.val)) c x k
    rw [stores_congr l (upd_swap m w.val x (fun e => h2.1 (Eq.symm e))) k]
    exact ih _ x h2.2 k

theorem loads_congr : ∀ (rs : List RdAcc) {m m' : Nat → V}, (∀ k, m k = m' k) →
    loads m rs = loads m' rs := by
  intro rs
  induction rs with
  | nil => intro m m' _; rfl
  | cons r l ih =>
    intro m m' h
    show (m r.addr :: loads m l) = (m' r.addr :: loads m' l)
    rw [h r.addr, ih h]

/-- An update at an address the completion does not load does not change what it loads. -/
theorem loads_upd : ∀ (rs : List RdAcc) (m : Nat → V) {c : Nat} (x : V),
    inA c (rdAddrs rs) = false → loads (upd m c x) rs = loads m rs := by
  intro rs
  induction rs with
  | nil => intro m c x _; rfl
  | cons r l ih =>
    intro m c x h
    have h2 := inA_cons_false h
    show (upd m c x r.addr :: loads (upd m c x) l) = (m r.addr :: loads m l)
    rw [upd_other _ _ (fun e => h2.1 (Eq.symm e)), ih m x h2.2]

/-- The commutation of a completion that accesses memory (loads `rs`, stores `ws`) with a `Sem`
action `B` of another thread that does not conflict with it: the memory after both is the same
in either order, `B` does not change what the completion loads, and the completion does not
change what `B` gives its thread (`newT`, which reads memory only for `B = read`). -/
theorem comm_mem (rs : List RdAcc) (ws : List (WrAcc V)) (B : Act V) (m : Nat → V)
    (h : ¬MConflict rs ws B) :
    (∀ k, memEff B (stores ws m) k = stores ws (memEff B m) k) ∧
      loads (memEff B m) rs = loads m rs ∧
      ∀ f t, newT B f t (stores ws m) = newT B f t m := by
  cases B with
  | compute pc r => exact ⟨fun _ => rfl, rfl, fun _ _ => rfl⟩
  | arrive b n w pc => exact ⟨fun _ => rfl, rfl, fun _ _ => rfl⟩
  | exit => exact ⟨fun _ => rfl, rfl, fun _ _ => rfl⟩
  | read a r pc =>
    have ha : inA a (wrAddrs ws) = false := bool_false_of_not h
    refine ⟨fun _ => rfl, rfl, fun f t => ?_⟩
    show TState.mk pc (upd t.regs r (stores ws m a)) Status.run =
      TState.mk pc (upd t.regs r (m a)) Status.run
    rw [stores_other ws m ha]
  | write c v pc =>
    have hr : inA c (rdAddrs rs) = false := bool_false_of_not (fun e => h (Or.inl e))
    have hw : inA c (wrAddrs ws) = false := bool_false_of_not (fun e => h (Or.inr e))
    refine ⟨fun k => ?_, loads_upd rs m v hr, fun _ _ => rfl⟩
    show upd (stores ws m) c v k = stores ws (upd m c v) k
    rw [stores_upd ws m v hw k]
  | atomAdd c v pc =>
    have hr : inA c (rdAddrs rs) = false := bool_false_of_not (fun e => h (Or.inl e))
    have hw : inA c (wrAddrs ws) = false := bool_false_of_not (fun e => h (Or.inr e))
    refine ⟨fun k => ?_, loads_upd rs m _ hr, fun _ _ => rfl⟩
    show upd (stores ws m) c (AccAdd.add (stores ws m c) v) k =
      stores ws (upd m c (AccAdd.add (m c) v)) k
    rw [stores_upd ws m _ hw k, stores_other ws m hw]

theorem inA_true {a b : Nat} {l : List Nat} (h : inA a (b :: l) = true) :
    a = b ∨ inA a l = true := by
  have h' : (decide (a = b) || inA a l) = true := h
  cases hd : decide (a = b) with
  | true => exact Or.inl (of_decide_eq_true' hd)
  | false => rw [hd] at h'; exact Or.inr h'

/-- An attributed read that does not conflict with `B` as an ordinary read. -/
theorem rd_nc (r : RdAcc) (B : Act V) (h : ¬Conflict (rdAct r) B) :
    ∀ c v pc, (B = Act.write c v pc ∨ B = Act.atomAdd c v pc) → r.addr ≠ c := by
  intro c v pc hB e
  cases hB with
  | inl e' => rw [e'] at h; exact h e
  | inr e' => rw [e'] at h; exact h e

/-- Soundness of the Rust's race check at the completion: if every attributed access, as an
ordinary `Sem` access of its lane, does not conflict with `B`, the completion does not
conflict with `B`. -/
theorem rd_notin : ∀ (rs : List RdAcc) (B : Act V) {c : Nat} {v : V} {pc : Nat},
    RdNC B rs → (B = Act.write c v pc ∨ B = Act.atomAdd c v pc) → inA c (rdAddrs rs) = false := by
  intro rs
  induction rs with
  | nil => intro _ _ _ _ _ _; rfl
  | cons r l ih =>
    intro B c v pc h hB
    have h1 : ¬Conflict (rdAct r) B := h.1
    cases hi : inA c (rdAddrs (r :: l)) with
    | false => rfl
    | true =>
      cases inA_true hi with
      | inl e => exact False.elim (rd_nc r B h1 c v pc hB (Eq.symm e))
      | inr e => rw [ih B h.2 hB] at e; cases e

theorem wr_notin : ∀ (ws : List (WrAcc V)) (B : Act V) {c : Nat},
    WrNC B ws → (∀ w : WrAcc V, ¬Conflict (wrAct w) B → w.addr ≠ c) →
    inA c (wrAddrs ws) = false := by
  intro ws
  induction ws with
  | nil => intro _ _ _ _; rfl
  | cons w l ih =>
    intro B c h hw
    cases hi : inA c (wrAddrs (w :: l)) with
    | false => rfl
    | true =>
      cases inA_true hi with
      | inl e => exact False.elim (hw w h.1 (Eq.symm e))
      | inr e => rw [ih B h.2 hw] at e; cases e

/-- Soundness of the Rust's race check at the completion: if every attributed access, as an
ordinary `Sem` access of its lane, does not conflict with `B`, the completion does not
conflict with `B`. -/
theorem noConflict_of_acc (rs : List RdAcc) (ws : List (WrAcc V)) (B : Act V)
    (h : AccNC B rs ws) : ¬MConflict rs ws B := by
  cases B with
  | read a r pc =>
    have e : inA a (wrAddrs ws) = false :=
      wr_notin ws _ h.2 (fun w hw e => hw e)
    intro hc
    have hc' : inA a (wrAddrs ws) = true := hc
    rw [e] at hc'
    cases hc'
  | write c v pc =>
    have e1 : inA c (rdAddrs rs) = false := rd_notin rs _ h.1 (Or.inl rfl)
    have e2 : inA c (wrAddrs ws) = false :=
      wr_notin ws _ h.2 (fun w hw e => hw e)
    intro hc
    cases hc with
    | inl x => rw [e1] at x; cases x
    | inr x => rw [e2] at x; cases x
  | atomAdd c v pc =>
    have e1 : inA c (rdAddrs rs) = false := rd_notin rs _ h.1 (Or.inr rfl)
    have e2 : inA c (wrAddrs ws) = false :=
      wr_notin ws _ h.2 (fun w hw e => hw e)
    intro hc
    cases hc with
    | inl x => rw [e1] at x; cases x
    | inr x => rw [e2] at x; cases x
  | compute pc r => exact fun hc => hc
  | arrive b n w pc => exact fun hc => hc
  | exit => exact fun hc => hc

/-- The completion's stores are the ordinary writes of the supplying lanes, one after the
other. -/
theorem stores_seq : ∀ (ws : List (WrAcc V)) (m : Nat → V), stores ws m = seqMem (wrActs ws) m := by
  intro ws
  induction ws with
  | nil => intro m; rfl
  | cons w l ih => intro m; exact ih _

/-- The completion's loads are what ordinary reads of the supplying lanes read. -/
theorem loads_seq : ∀ (rs : List RdAcc) (m : Nat → V) (t : TState V) (f : Bool),
    loads m rs = rs.map (fun r => (newT (rdAct r) f t m).regs 0) := by
  intro rs
  induction rs with
  | nil => intro m t f; rfl
  | cons r l ih =>
    intro m t f
    show (m r.addr :: loads m l) = ((newT (rdAct r) f t m).regs 0 :: l.map _)
    rw [ih m t f]
    show (m r.addr :: _) = (upd t.regs 0 (m r.addr) 0 :: _)
    rw [upd_same]

end Lemmas

end WarpMem
end Kcert
