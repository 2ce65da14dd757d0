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

The whole semantics with these completions and its confluence: `WarpMemSem.lean`.
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

section Complete

variable {V : Type} [AccAdd V]

/-- The completion of a collective that accesses memory, on `Sem`'s state: the lanes (`L k`) get
their new `pc` and registers from the loaded values (`rel k (loads mem rs)`, e.g. the rows of an
`ldmatrix`; the register part of the contributions is in `rel`), the memory gets the stores, and
the barrier counts do not change. -/
def mcomp (L : Nat → Bool) (rs : List RdAcc) (ws : List (WrAcc V))
    (rel : Nat → List V → TState V → TState V) (s : CState V) : CState V :=
  ⟨fun k => cond (L k) (rel k (loads s.mem rs) (s.th k)) (s.th k), stores ws s.mem, s.arr⟩

theorem mcomp_th_other (L : Nat → Bool) (rs : List RdAcc) (ws : List (WrAcc V))
    (rel : Nat → List V → TState V → TState V) (s : CState V) {j : Nat} (hj : L j = false) :
    (mcomp L rs ws rel s).th j = s.th j := by
  show cond (L j) _ (s.th j) = s.th j
  rw [hj]
  rfl

theorem mcomp_waiting (L : Nat → Bool) (rs : List RdAcc) (ws : List (WrAcc V))
    (rel : Nat → List V → TState V → TState V) (s : CState V)
    (hrel : ∀ k l t, (rel k l t).status = t.status) (b k : Nat) :
    waiting b ((mcomp L rs ws rel s).th k).status = waiting b (s.th k).status := by
  show waiting b (cond (L k) (rel k (loads s.mem rs) (s.th k)) (s.th k)).status = _
  cases L k with
  | true => show waiting b (rel k _ (s.th k)).status = _; rw [hrel]
  | false => rfl

theorem firesA_mcomp (L : Nat → Bool) (rs : List RdAcc) (ws : List (WrAcc V))
    (rel : Nat → List V → TState V → TState V) (s : CState V)
    (hrel : ∀ k l t, (rel k l t).status = t.status) (N : Nat) (A : Act V) :
    firesA N A (mcomp L rs ws rel s) = firesA N A s := by
  cases A with
  | compute pc r => rfl
  | read a r pc => rfl
  | write a v pc => rfl
  | atomAdd a v pc => rfl
  | exit => rfl
  | arrive b n w pc =>
    show decide (n ≤ countAt b (mcomp L rs ws rel s).th N + s.arr b + 1) =
      decide (n ≤ countAt b s.th N + s.arr b + 1)
    rw [countAt_congr b _ s.th (mcomp_waiting L rs ws rel s hrel b) N]

/-- The completion of a collective that accesses memory and a `Sem` step of another thread `j`
(not a lane) commute, when `j`'s action does not conflict with the completion's accesses
(`MConflict`), the lanes are running in `Sem` (they wait at the collective, not at a barrier)
and the completion changes no lane's status. -/
theorem comm_mcomp_next (prog : Prog V) (N j : Nat) (L : Nat → Bool) (rs : List RdAcc)
    (ws : List (WrAcc V)) (rel : Nat → List V → TState V → TState V) (s : CState V)
    (hj : L j = false) (hL : ∀ k, L k = true → (s.th k).status = Status.run)
    (hrel : ∀ k l t, (rel k l t).status = t.status)
    (hc : ¬MConflict rs ws (act prog j s)) :
    Same (next prog N j (mcomp L rs ws rel s)) (mcomp L rs ws rel (next prog N j s)) := by
  have ha : act prog j (mcomp L rs ws rel s) = act prog j s := by
    show prog j ((mcomp L rs ws rel s).th j).pc ((mcomp L rs ws rel s).th j).regs =
      prog j (s.th j).pc (s.th j).regs
    rw [mcomp_th_other L rs ws rel s hj]
  have hf := firesA_mcomp L rs ws rel s hrel N (act prog j s)
  have cm := comm_mem rs ws (act prog j s) s.mem hc
  refine ⟨fun k => ?_, fun x => ?_, fun b => ?_⟩
  · cases Nat.decEq k j with
    | isTrue e =>
      rw [e, next_th_self, ha, hf, mcomp_th_other L rs ws rel s hj,
        mcomp_th_other L rs ws rel _ hj, next_th_self]
      exact cm.2.2 _ _
    | isFalse e =>
      rw [next_th_other prog N j _ e, ha, hf]
      show effOther (act prog j s) (firesA N (act prog j s) s)
          (cond (L k) (rel k (loads s.mem rs) (s.th k)) (s.th k)) =
        cond (L k) (rel k (loads (next prog N j s).mem rs) ((next prog N j s).th k))
          ((next prog N j s).th k)
      rw [next_th_other prog N j s e]
      cases hk : L k with
      | false => rfl
      | true =>
        have hr : (s.th k).status = Status.run := hL k hk
        show effOther (act prog j s) (firesA N (act prog j s) s) (rel k (loads s.mem rs) (s.th k)) =
          rel k (loads (memEff (act prog j s) s.mem) rs)
            (effOther (act prog j s) (firesA N (act prog j s) s) (s.th k))
        rw [effOther_run _ _ _ hr, effOther_run _ _ _ (Eq.trans (hrel _ _ _) hr), cm.2.1]
  · show memEff (act prog j (mcomp L rs ws rel s)) (stores ws s.mem) x =
      stores ws (memEff (act prog j s) s.mem) x
    rw [ha]
    exact cm.1 x
  · show arrEff (act prog j (mcomp L rs ws rel s)) (firesA N (act prog j (mcomp L rs ws rel s))
        (mcomp L rs ws rel s)) s.arr b =
      arrEff (act prog j s) (firesA N (act prog j s) s) s.arr b
    rw [ha, hf]

/-- Stores at disjoint address sets commute. -/
theorem stores_comm : ∀ (ws1 ws2 : List (WrAcc V)) (m : Nat → V),
    (∀ a, inA a (wrAddrs ws1) = true → inA a (wrAddrs ws2) = false) →
    ∀ k, stores ws1 (stores ws2 m) k = stores ws2 (stores ws1 m) k := by
  intro ws1
  induction ws1 with
  | nil => intro ws2 m _ k; rfl
  | cons w l ih =>
    intro ws2 m h k
    have hw : inA w.addr (wrAddrs ws2) = false := h w.addr (show (decide (w.addr = w.addr) || _) = true by
      rw [decide_eq_true' (rfl : w.addr = w.addr)]; rfl)
    have hl : ∀ a, inA a (wrAddrs l) = true → inA a (wrAddrs ws2) = false := by
      intro a ha
      apply h a
      show (decide (a = w.addr) || inA a (wrAddrs l)) = true
      rw [ha]
      cases decide (a = w.addr) <;> rfl
    show stores l (upd (stores ws2 m) w.addr w.val) k = stores ws2 (stores l (upd m w.addr w.val)) k
    rw [stores_congr l (fun j => Eq.symm (stores_upd ws2 m w.val hw j)) k]
    exact ih ws2 _ hl k

/-- Stores at addresses a completion does not load do not change what it loads. -/
theorem loads_stores : ∀ (rs : List RdAcc) (ws : List (WrAcc V)) (m : Nat → V),
    (∀ a, inA a (wrAddrs ws) = true → inA a (rdAddrs rs) = false) →
    loads (stores ws m) rs = loads m rs := by
  intro rs
  induction rs with
  | nil => intro _ _ _; rfl
  | cons r l ih =>
    intro ws m h
    have hr : inA r.addr (wrAddrs ws) = false := by
      cases e : inA r.addr (wrAddrs ws) with
      | false => rfl
      | true =>
        have e2 := h r.addr e
        have e3 : (decide (r.addr = r.addr) || inA r.addr (rdAddrs l)) = false := e2
        rw [decide_eq_true' (rfl : r.addr = r.addr)] at e3
        cases e3
    have hl : ∀ a, inA a (wrAddrs ws) = true → inA a (rdAddrs l) = false := by
      intro a ha
      exact (inA_cons_false (h a ha)).2
    show (stores ws m r.addr :: loads (stores ws m) l) = (m r.addr :: loads m l)
    rw [stores_other ws m hr, ih ws m hl]

/-- Two completions of different instances (no common lane) whose accesses do not conflict
(no address stored by one is loaded or stored by the other) commute. -/
theorem comm_mcomp_mcomp (L1 L2 : Nat → Bool) (rs1 rs2 : List RdAcc) (ws1 ws2 : List (WrAcc V))
    (rel1 rel2 : Nat → List V → TState V → TState V) (s : CState V)
    (hL : ∀ k, L1 k = true → L2 k = false)
    (h12 : ∀ a, inA a (wrAddrs ws1) = true → inA a (wrAddrs ws2) = false)
    (h1r : ∀ a, inA a (wrAddrs ws1) = true → inA a (rdAddrs rs2) = false)
    (h2r : ∀ a, inA a (wrAddrs ws2) = true → inA a (rdAddrs rs1) = false) :
    Same (mcomp L1 rs1 ws1 rel1 (mcomp L2 rs2 ws2 rel2 s))
      (mcomp L2 rs2 ws2 rel2 (mcomp L1 rs1 ws1 rel1 s)) := by
  refine ⟨fun k => ?_, fun x => stores_comm ws1 ws2 s.mem h12 x, fun _ => rfl⟩
  show cond (L1 k) (rel1 k (loads (stores ws2 s.mem) rs1)
        (cond (L2 k) (rel2 k (loads s.mem rs2) (s.th k)) (s.th k)))
      (cond (L2 k) (rel2 k (loads s.mem rs2) (s.th k)) (s.th k)) =
    cond (L2 k) (rel2 k (loads (stores ws1 s.mem) rs2)
        (cond (L1 k) (rel1 k (loads s.mem rs1) (s.th k)) (s.th k)))
      (cond (L1 k) (rel1 k (loads s.mem rs1) (s.th k)) (s.th k))
  rw [loads_stores rs1 ws2 s.mem h2r, loads_stores rs2 ws1 s.mem h1r]
  cases e1 : L1 k with
  | true => rw [hL k e1]; rfl
  | false => cases L2 k <;> rfl

/-- `mcomp` respects pointwise equality of states. -/
theorem mcomp_congr (L : Nat → Bool) (rs : List RdAcc) (ws : List (WrAcc V))
    (rel : Nat → List V → TState V → TState V) {s t : CState V} (h : Same s t) :
    Same (mcomp L rs ws rel s) (mcomp L rs ws rel t) := by
  refine ⟨fun k => ?_, fun x => stores_congr ws h.2.1 x, fun b => h.2.2 b⟩
  show cond (L k) (rel k (loads s.mem rs) (s.th k)) (s.th k) =
    cond (L k) (rel k (loads t.mem rs) (t.th k)) (t.th k)
  rw [loads_congr rs h.2.1, h.1 k]

theorem inA_head (a : Nat) (l : List Nat) : inA a (a :: l) = true := by
  show (decide (a = a) || inA a l) = true
  rw [decide_eq_true' (rfl : a = a)]
  rfl

theorem inA_tail (a b : Nat) {l : List Nat} (h : inA a l = true) : inA a (b :: l) = true := by
  show (decide (a = b) || inA a l) = true
  rw [h]
  cases decide (a = b) <;> rfl

theorem rdNC_of (B : Act V) : ∀ rs : List RdAcc,
    (∀ c, inA c (rdAddrs rs) = true → ¬Conflict (Act.read c 0 0 : Act V) B) → RdNC B rs := by
  intro rs
  induction rs with
  | nil => intro _; trivial
  | cons r l ih =>
    intro h
    exact ⟨h r.addr (inA_head _ _), ih (fun c hc => h c (inA_tail c r.addr hc))⟩

theorem wrNC_of (B : Act V) : ∀ ws : List (WrAcc V),
    (∀ c, inA c (wrAddrs ws) = true → ∀ v : V, ¬Conflict (Act.write c v 0) B) → WrNC B ws := by
  intro ws
  induction ws with
  | nil => intro _; trivial
  | cons w l ih =>
    intro h
    exact ⟨h w.addr (inA_head _ _) w.val, ih (fun c hc => h c (inA_tail c w.addr hc))⟩

/-- Conversely, no conflict with the completion means that every attributed access, as an
ordinary `Sem` access of its lane, passes against `B`: `MConflict` is exactly the per-access
check, neither weaker nor stronger. -/
theorem accNC_of_noConflict (rs : List RdAcc) (ws : List (WrAcc V)) (B : Act V)
    (h : ¬MConflict rs ws B) : AccNC B rs ws := by
  refine ⟨rdNC_of B rs (fun c hc hcf => ?_), wrNC_of B ws (fun c hc v hcf => ?_)⟩
  · cases B with
    | write c' v' pc' =>
      have e : c = c' := hcf
      rw [e] at hc
      exact h (Or.inl hc)
    | atomAdd c' v' pc' =>
      have e : c = c' := hcf
      rw [e] at hc
      exact h (Or.inl hc)
    | read a r pc => exact hcf
    | compute pc r => exact hcf
    | arrive b n w pc => exact hcf
    | exit => exact hcf
  · cases B with
    | read c' r' pc' =>
      have e : c = c' := hcf
      rw [e] at hc
      exact h hc
    | write c' v' pc' =>
      have e : c = c' := hcf
      rw [e] at hc
      exact h (Or.inr hc)
    | atomAdd c' v' pc' =>
      have e : c = c' := hcf
      rw [e] at hc
      exact h (Or.inr hc)
    | compute pc r => exact hcf
    | arrive b n w pc => exact hcf
    | exit => exact hcf

end Complete

/-! ## Non-vacuity: a 2-lane `ldmatrix`-like completion, evaluated by `rfl`

Threads 0 and 1 are the lanes; lane 0 supplies row address 100, lane 1 row address 101
(memory: 7 at 100, 9 at 101), and the completion loads both rows into registers 0 and 1 of both
lanes (as `ldmatrix.x1` spreads each row over lanes), moving them to `pc` 1.  Thread 2 stores 5
at address 200. -/

namespace Ex

open Kcert.Warp.Example

def nthD : List Nat → Nat → Nat
  | [], _ => 0
  | x :: _, 0 => x
  | _ :: l, n + 1 => nthD l n

def L2 (k : Nat) : Bool := decide (k < 2)

def rows : List RdAcc := [⟨0, 100⟩, ⟨1, 101⟩]

def noW : List (WrAcc Nat) := []

/-- Both rows into registers 0 and 1 of the lane, then `pc` 1. -/
def relRows (k : Nat) (l : List Nat) (t : TState Nat) : TState Nat :=
  ⟨1, upd (upd t.regs 0 (nthD l 0)) 1 (nthD l 1), t.status⟩

/-- Thread 2 stores 5 at 200 (or at `a` in `progA a`), everything else exits. -/
def progA (a : Nat) : Prog Nat := fun i pc _ =>
  cond (decide (i = 2) && decide (pc = 0)) (Act.write a 5 1) Act.exit

def m0 : Nat → Nat := fun a => if a = 100 then 7 else if a = 101 then 9 else 0

def s0 : CState Nat := init (fun _ _ => 0) m0

/-- The completion loads both rows into both lanes. -/
theorem ex_rows : ((mcomp L2 rows noW relRows s0).th 0).regs 0 = 7 ∧
    ((mcomp L2 rows noW relRows s0).th 0).regs 1 = 9 ∧
    ((mcomp L2 rows noW relRows s0).th 1).regs 0 = 7 ∧
    ((mcomp L2 rows noW relRows s0).th 1).regs 1 = 9 ∧
    ((mcomp L2 rows noW relRows s0).th 1).pc = 1 := ⟨rfl, rfl, rfl, rfl, rfl⟩

theorem ne100 : (100 : Nat) ≠ 200 := by decide

theorem ne101 : (101 : Nat) ≠ 200 := by decide

/-- The Rust's check at the completion passes against thread 2's store (each row read, as an
ordinary read of its lane, does not conflict with it), so the completion does not conflict. -/
theorem ex_nc : ¬MConflict rows noW (act (progA 200) 2 s0) :=
  noConflict_of_acc rows noW (Act.write 200 5 1)
    (show RdNC (Act.write 200 5 1) rows ∧ WrNC (Act.write 200 5 1) noW from
      ⟨⟨fun h => ne100 h,
        ⟨fun h => ne101 h, trivial⟩⟩, trivial⟩)

theorem ex_lanes_run : ∀ k, L2 k = true → (s0.th k).status = Status.run := fun _ _ => rfl

theorem relRows_status : ∀ k l t, (relRows k l t).status = t.status := fun _ _ _ => rfl

/-- `comm_mcomp_next` applies: the completion and thread 2's store commute. -/
theorem ex_comm : Same (next (progA 200) 3 2 (mcomp L2 rows noW relRows s0))
    (mcomp L2 rows noW relRows (next (progA 200) 3 2 s0)) :=
  comm_mcomp_next (progA 200) 3 2 L2 rows noW relRows s0 rfl ex_lanes_run relRows_status ex_nc

/-- So in the order completion-then-store, the lanes have the rows and memory has the store,
as in the order store-then-completion (evaluated by `rfl`). -/
theorem ex_both_orders :
    ((next (progA 200) 3 2 (mcomp L2 rows noW relRows s0)).th 1).regs 1 = 9 ∧
      (next (progA 200) 3 2 (mcomp L2 rows noW relRows s0)).mem 200 = 5 := by
  rw [ex_comm.1 1, ex_comm.2.1 200]
  exact ⟨rfl, rfl⟩

/-- A store of thread 2 to row address 101 conflicts with the completion, and indeed the two
orders differ: lane 1 gets 9 or 5 in register 1. -/
theorem ex_conflict : MConflict rows noW (act (progA 101) 2 s0) ∧
    ((next (progA 101) 3 2 (mcomp L2 rows noW relRows s0)).th 1).regs 1 = 9 ∧
    ((mcomp L2 rows noW relRows (next (progA 101) 3 2 s0)).th 1).regs 1 = 5 :=
  ⟨Or.inl rfl, rfl, rfl⟩

end Ex

end WarpMem
end Kcert
