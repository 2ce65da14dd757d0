import Kcert.WarpMemRace

/-!
# The view of memory collectives as ordinary accesses (`WarpMemView`)

The view `mview` of an `MSem` program is a `Sem` program in which a lane's arrival at a memory
collective is replaced by its attributed accesses as ordinary `Sem` actions of that lane, one
after the other, with no synchronisation: the reads first (each into a scratch register
`sc + j`), then the writes (of the values the arrival attributes to the lane), then a register
step to the collective's continuation (computed with no contributions of the other lanes and the
lane's own loaded values).  The view's `pc` of `MSem` `pc` `p`, sub-step `j` is `enc p j`, with a
decoding `dec` (`dec (enc p j) = (p, j)`); a `Sem` action is itself, its `pc`s moved by `enc`.

Proved here (state by state): `mview_at` (at `enc p x` the view does the sub-step `x` of the
lane's action at `p`), `mview_rd`, `mview_wr` (the sub-steps are the attributed reads and
writes), and `laneCheck_of_view`: if at an `MSem` state the view's actions at the related
positions do not conflict (an enabled thread's action against every sub-step of every lane of a
ready instance, and the sub-steps of lanes of two different ready instances), the Rust's
lane-by-lane check `LaneCheck` holds there; `mraceFree_of_viewNC`: at every reachable state,
hence `MRaceFree`.

NOT here: the simulation of `MSem` by the view (that these view positions are reachable and
enabled in the view, under a data-independence hypothesis), and so `mraceFree_of_view` from
`Sem.RaceFree` of the view.
-/

namespace Kcert
namespace WarpMem

open Sem

section View

variable {V : Type} [AccAdd V]

/-- A `Sem` action with its next `pc` moved into the view's `pc` space. -/
def shiftA (enc : Nat → Nat → Nat) : Act V → Act V
  | Act.compute pc r => Act.compute (enc pc 0) r
  | Act.read a r pc => Act.read a r (enc pc 0)
  | Act.write a v pc => Act.write a v (enc pc 0)
  | Act.atomAdd a v pc => Act.atomAdd a v (enc pc 0)
  | Act.arrive b n w pc => Act.arrive b n w (enc pc 0)
  | Act.exit => Act.exit

def rdLen : List RdAcc → Nat
  | [] => 0
  | _ :: l => rdLen l + 1

def rdNth : List RdAcc → Nat → Option RdAcc
  | [], _ => none
  | r :: _, 0 => some r
  | _ :: l, n + 1 => rdNth l n

def wrNth : List (WrAcc V) → Nat → Option (WrAcc V)
  | [], _ => none
  | w :: _, 0 => some w
  | _ :: l, n + 1 => wrNth l n

def wrAsAcc : Option (WrAcc V) → Option (Sum RdAcc (WrAcc V))
  | some w => some (Sum.inr w)
  | none => none

/-- The `j`-th attributed access of a lane: its reads, then its writes. -/
def accNth : List RdAcc → List (WrAcc V) → Nat → Option (Sum RdAcc (WrAcc V))
  | r :: _, _, 0 => some (Sum.inl r)
  | _ :: l, ws, n + 1 => accNth l ws n
  | [], ws, n => wrAsAcc (wrNth ws n)

/-- The scratch registers `sc`, `sc + 1`, ..., `n` of them. -/
def scratchVals (regs : Nat → V) : Nat → Nat → List V
  | _, 0 => []
  | sc, n + 1 => regs sc :: scratchVals regs (sc + 1) n

/-- The register step that ends a lane's collective in the view: the continuation computed with
no contributions of the other lanes and the lane's own loaded values. -/
def collDone (enc : Nat → Nat → Nat) (sc p : Nat) (regs : Nat → V) (c : MColl V) : Act V :=
  Act.compute (enc (c.rel (fun _ => none) (scratchVals regs sc (rdLen c.rs)) ⟨p, regs, Status.run⟩).pc 0)
    (c.rel (fun _ => none) (scratchVals regs sc (rdLen c.rs)) ⟨p, regs, Status.run⟩).regs

/-- Sub-step `j` of a lane's collective `c` at `MSem` `pc` `p` in the view. -/
def collStep (enc : Nat → Nat → Nat) (sc p : Nat) (regs : Nat → V) (c : MColl V) (j : Nat) :
    Act V :=
  match accNth c.rs c.ws j with
  | some (Sum.inl r) => Act.read r.addr (sc + j) (enc p (j + 1))
  | some (Sum.inr w) => Act.write w.addr w.val (enc p (j + 1))
  | none => collDone enc sc p regs c

/-- The view's action for `MSem` action `a` at `pc` `p`, sub-step `j`. -/
def mviewAct (enc : Nat → Nat → Nat) (sc p j : Nat) (regs : Nat → V) : MAct V → Act V
  | MAct.base A => shiftA enc A
  | MAct.coll c => collStep enc sc p regs c j

/-- The view: a `Sem` program. -/
def mview (enc : Nat → Nat → Nat) (dec : Nat → Nat × Nat) (sc : Nat) (mp : MProg V) : Prog V :=
  fun i pc regs => mviewAct enc sc (dec pc).1 (dec pc).2 regs (mp i (dec pc).1 regs)

/-- The view's action of thread `k` at sub-step `x` of its `MSem` action at state `r`. -/
def vAct (enc : Nat → Nat → Nat) (sc : Nat) (mp : MProg V) (k : Nat) (r : CState V) (x : Nat) :
    Act V :=
  mviewAct enc sc (r.th k).pc x (r.th k).regs (mact mp k r)

theorem mview_at {enc : Nat → Nat → Nat} {dec : Nat → Nat × Nat}
    (hdec : ∀ p j, dec (enc p j) = (p, j)) (sc : Nat) (mp : MProg V) (k : Nat) (r : CState V)
    (x : Nat) : mview enc dec sc mp k (enc (r.th k).pc x) (r.th k).regs = vAct enc sc mp k r x := by
  show mviewAct enc sc (dec (enc (r.th k).pc x)).1 (dec (enc (r.th k).pc x)).2 (r.th k).regs
      (mp k (dec (enc (r.th k).pc x)).1 (r.th k).regs) = _
  rw [hdec]
  rfl

theorem accNth_rd : ∀ (rs : List RdAcc) (ws : List (WrAcc V)) (j : Nat) (r : RdAcc),
    rdNth rs j = some r → accNth rs ws j = some (Sum.inl r) := by
  intro rs
  induction rs with
  | nil => intro ws j r h; cases h
  | cons a l ih =>
    intro ws j r h
    cases j with
    | zero =>
      have e : some a = some r := h
      show some (Sum.inl a) = some (Sum.inl r)
      cases e
      rfl
    | succ n => exact ih ws n r h

theorem accNth_wr : ∀ (rs : List RdAcc) (ws : List (WrAcc V)) (j : Nat) (w : WrAcc V),
    wrNth ws j = some w → accNth rs ws (j + rdLen rs) = some (Sum.inr w) := by
  intro rs
  induction rs with
  | nil =>
    intro ws j w h
    show wrAsAcc (wrNth ws j) = some (Sum.inr w)
    rw [h]
    rfl
  | cons a l ih =>
    intro ws j w h
    exact ih ws j w h

/-- The view does the lane's attributed reads ... -/
theorem mview_rd {enc : Nat → Nat → Nat} (sc p : Nat) (regs : Nat → V) (c : MColl V) (j : Nat)
    (r : RdAcc) (h : rdNth c.rs j = some r) :
    mviewAct enc sc p j regs (MAct.coll c) = Act.read r.addr (sc + j) (enc p (j + 1)) := by
  show (match accNth c.rs c.ws j with
    | some (Sum.inl r) => Act.read r.addr (sc + j) (enc p (j + 1))
    | some (Sum.inr w) => Act.write w.addr w.val (enc p (j + 1))
    | none => collDone enc sc p regs c) = _
  rw [accNth_rd c.rs c.ws j r h]

/-- ... then its attributed writes. -/
theorem mview_wr {enc : Nat → Nat → Nat} (sc p : Nat) (regs : Nat → V) (c : MColl V) (j : Nat)
    (w : WrAcc V) (h : wrNth c.ws j = some w) :
    mviewAct enc sc p (j + rdLen c.rs) regs (MAct.coll c) =
      Act.write w.addr w.val (enc p (j + rdLen c.rs + 1)) := by
  show (match accNth c.rs c.ws (j + rdLen c.rs) with
    | some (Sum.inl r) => Act.read r.addr (sc + (j + rdLen c.rs)) (enc p (j + rdLen c.rs + 1))
    | some (Sum.inr w) => Act.write w.addr w.val (enc p (j + rdLen c.rs + 1))
    | none => collDone enc sc p regs c) = _
  rw [accNth_wr c.rs c.ws j w h]

theorem conflict_rd_shift (enc : Nat → Nat → Nat) (rr : RdAcc) (x y : Nat) (A : Act V)
    (h : Conflict (rdAct rr) A) : Conflict (Act.read rr.addr x y) (shiftA enc A) := by
  cases A with
  | compute pc r => exact h
  | read a r pc => exact h
  | write a v pc => exact h
  | atomAdd a v pc => exact h
  | arrive b n w pc => exact h
  | exit => exact h

theorem conflict_wr_shift (enc : Nat → Nat → Nat) (ww : WrAcc V) (y : Nat) (A : Act V)
    (h : Conflict (wrAct ww) A) : Conflict (Act.write ww.addr ww.val y) (shiftA enc A) := by
  cases A with
  | compute pc r => exact h
  | read a r pc => exact h
  | write a v pc => exact h
  | atomAdd a v pc => exact h
  | arrive b n w pc => exact h
  | exit => exact h

theorem conflict_unshift (enc : Nat → Nat → Nat) (A B : Act V) (h : Conflict A B) :
    Conflict (shiftA enc A) (shiftA enc B) := by
  cases A with
  | compute pc r => cases B <;> exact h
  | read a r pc => cases B <;> exact h
  | write a v pc => cases B <;> exact h
  | atomAdd a v pc => cases B <;> exact h
  | arrive b n w pc => cases B <;> exact h
  | exit => cases B <;> exact h

end View

section Check

variable {V : Type} [AccAdd V]
variable (memb : Nat → Nat → Bool) (mp : MProg V) (N : Nat)

theorem coll_of_lane {g : Nat} {r : CState V} {k : Nat} (h : laneOf memb mp N g r k = true) :
    ∃ c : MColl V, mact mp k r = MAct.coll c := by
  have e := laneOf_at memb mp N h
  cases hm : mact mp k r with
  | base A => rw [hm] at e; cases e
  | coll c => exact ⟨c, rfl⟩

theorem base_of_enabled {j : Nat} {r : CState V} (h : Enabled memb mp N r (MLbl.thr j)) :
    mact mp j r = MAct.base (act (mbase mp) j r) := by
  have e : isBase (mact mp j r) = true := h.2.2
  show mact mp j r = MAct.base (mbaseOf (r.th j).pc (r.th j).regs (mact mp j r))
  cases hm : mact mp j r with
  | base A => rfl
  | coll c => rw [hm] at e; cases e

/-- An enabled thread's view action is its `Sem` action, `pc` moved. -/
theorem vAct_base (enc : Nat → Nat → Nat) (sc : Nat) {j : Nat} {r : CState V}
    (h : Enabled memb mp N r (MLbl.thr j)) (x : Nat) :
    vAct enc sc mp j r x = shiftA enc (act (mbase mp) j r) := by
  show mviewAct enc sc (r.th j).pc x (r.th j).regs (mact mp j r) = _
  rw [base_of_enabled memb mp N h]
  rfl

theorem vAct_coll (enc : Nat → Nat → Nat) (sc : Nat) {k : Nat} {r : CState V} {c : MColl V}
    (e : mact mp k r = MAct.coll c) (x : Nat) :
    vAct enc sc mp k r x = mviewAct enc sc (r.th k).pc x (r.th k).regs (MAct.coll c) := by
  show mviewAct enc sc (r.th k).pc x (r.th k).regs (mact mp k r) = _
  rw [e]

theorem rdNC_of_nth (B : Act V) : ∀ rs : List RdAcc,
    (∀ j rr, rdNth rs j = some rr → ¬Conflict (rdAct rr) B) → RdNC B rs := by
  intro rs
  induction rs with
  | nil => intro _; trivial
  | cons a l ih =>
    intro h
    exact ⟨h 0 a rfl, ih (fun j rr e => h (Nat.succ j) rr e)⟩

theorem wrNC_of_nth (B : Act V) : ∀ ws : List (WrAcc V),
    (∀ j w, wrNth ws j = some w → ¬Conflict (wrAct w) B) → WrNC B ws := by
  intro ws
  induction ws with
  | nil => intro _; trivial
  | cons a l ih =>
    intro h
    exact ⟨h 0 a rfl, ih (fun j w e => h (Nat.succ j) w e)⟩

theorem wrAll_of_nth (P : WrAcc V → Prop) : ∀ ws : List (WrAcc V),
    (∀ j w, wrNth ws j = some w → P w) → WrAll P ws := by
  intro ws
  induction ws with
  | nil => intro _; trivial
  | cons a l ih =>
    intro h
    exact ⟨h 0 a rfl, ih (fun j w e => h (Nat.succ j) w e)⟩

/-- If no sub-step of a lane's collective in the view conflicts with another thread's view
action, the lane's attributed accesses pass the ordinary check against it (`AccNC`). -/
theorem accNC_of_view (enc : Nat → Nat → Nat) (sc p : Nat) (regs : Nat → V) (c : MColl V)
    (A : Act V) (hv : ∀ x, ¬Conflict (mviewAct enc sc p x regs (MAct.coll c)) (shiftA enc A)) :
    AccNC A c.rs c.ws := by
  refine ⟨rdNC_of_nth A c.rs (fun j rr e hc => ?_), wrNC_of_nth A c.ws (fun j w e hc => ?_)⟩
  · have hx := hv j
    rw [mview_rd (enc := enc) sc p regs c j rr e] at hx
    exact hx (conflict_rd_shift enc rr _ _ A hc)
  · have hx := hv (j + rdLen c.rs)
    rw [mview_wr (enc := enc) sc p regs c j w e] at hx
    exact hx (conflict_wr_shift enc w _ A hc)

/-- If no sub-step of one lane's collective conflicts with a sub-step of another's in the view,
the two lanes pass the Rust's ordinary check against each other (`PairNC`). -/
theorem pairNC_of_view (enc : Nat → Nat → Nat) (sc p1 p2 : Nat) (regs1 regs2 : Nat → V)
    (c1 c2 : MColl V)
    (hv : ∀ x x', ¬Conflict (mviewAct enc sc p1 x regs1 (MAct.coll c1))
      (mviewAct enc sc p2 x' regs2 (MAct.coll c2))) :
    PairNC c1.rs c1.ws c2.rs c2.ws := by
  refine ⟨wrAll_of_nth _ c1.ws (fun j w e => ⟨rdNC_of_nth _ c2.rs (fun j' rr e' hc => ?_),
    wrNC_of_nth _ c2.ws (fun j' w2 e' hc => ?_)⟩),
    wrAll_of_nth _ c2.ws (fun j' w2 e' => rdNC_of_nth _ c1.rs (fun j rr e hc => ?_))⟩
  · have hx := hv (j + rdLen c1.rs) j'
    rw [mview_wr (enc := enc) sc p1 regs1 c1 j w e, mview_rd (enc := enc) sc p2 regs2 c2 j' rr e'] at hx
    exact hx (conflict_symm _ _ hc)
  · have hx := hv (j + rdLen c1.rs) (j' + rdLen c2.rs)
    rw [mview_wr (enc := enc) sc p1 regs1 c1 j w e,
      mview_wr (enc := enc) sc p2 regs2 c2 j' w2 e'] at hx
    exact hx (conflict_symm _ _ hc)
  · have hx := hv j (j' + rdLen c2.rs)
    rw [mview_rd (enc := enc) sc p1 regs1 c1 j rr e,
      mview_wr (enc := enc) sc p2 regs2 c2 j' w2 e'] at hx
    exact hx hc

/-- The race condition on the view's actions at an `MSem` state: two enabled threads' view
actions do not conflict (and their barriers fit), no sub-step of a lane of a ready instance
conflicts with an enabled thread's view action, and no sub-step of a lane of one ready instance
conflicts with a sub-step of a lane of another. -/
def ViewNC (enc : Nat → Nat → Nat) (sc : Nat) (r : CState V) : Prop :=
  (∀ i j, i ≠ j → Enabled memb mp N r (MLbl.thr i) → Enabled memb mp N r (MLbl.thr j) →
    ¬Conflict (vAct enc sc mp i r 0) (vAct enc sc mp j r 0) ∧
      BarFits N r (act (mbase mp) i r) (act (mbase mp) j r)) ∧
  (∀ j g k x, Enabled memb mp N r (MLbl.thr j) → InstReady memb mp N g r →
    laneOf memb mp N g r k = true → ¬Conflict (vAct enc sc mp k r x) (vAct enc sc mp j r 0)) ∧
  (∀ g h k k' x x', g ≠ h → InstReady memb mp N g r → InstReady memb mp N h r →
    laneOf memb mp N g r k = true → laneOf memb mp N h r k' = true →
    ¬Conflict (vAct enc sc mp k r x) (vAct enc sc mp k' r x'))

/-- No conflict among the view's actions at the related positions gives the Rust's lane-by-lane
check at the `MSem` state. -/
theorem laneCheck_of_view (enc : Nat → Nat → Nat) (sc : Nat) (r : CState V)
    (hv : ViewNC memb mp N enc sc r) : LaneCheck memb mp N r := by
  refine ⟨fun i j hij hi hj => ⟨fun hc => ?_, (hv.1 i j hij hi hj).2⟩,
    fun j g k hj hg hk => ?_, fun g h hgh hg hh => ?_⟩
  · have hx := (hv.1 i j hij hi hj).1
    rw [vAct_base memb mp N enc sc hi, vAct_base memb mp N enc sc hj] at hx
    exact hx (conflict_unshift enc _ _ hc)
  · match coll_of_lane memb mp N hk with
    | ⟨c, e⟩ =>
      show AccNC (act (mbase mp) j r) (collRs (mact mp k r)) (collWs (mact mp k r))
      rw [e]
      apply accNC_of_view enc sc (r.th k).pc (r.th k).regs c
      intro x hc
      have hx := hv.2.1 j g k x hj hg hk
      rw [vAct_coll mp enc sc e, vAct_base memb mp N enc sc hj] at hx
      exact hx hc
  · apply lanesNC_of_pairs
    intro k k' hk hk'
    match coll_of_lane memb mp N hk, coll_of_lane memb mp N hk' with
    | ⟨c, e⟩, ⟨c', e'⟩ =>
      rw [e, e']
      apply pairNC_of_view enc sc (r.th k).pc (r.th k').pc (r.th k).regs (r.th k').regs c c'
      intro x x' hc
      have hx := hv.2.2 g h k k' x x' hgh hg hh hk hk'
      rw [vAct_coll mp enc sc e, vAct_coll mp enc sc e'] at hx
      exact hx hc

/-- `ViewNC` at every reachable `MSem` state gives `MRaceFree` (so `mconfluence`, `mno_stuck`). -/
theorem mraceFree_of_viewNC (enc : Nat → Nat → Nat) (sc : Nat) {s0 : CState V}
    (h : ∀ r, MReach memb mp N s0 r → ViewNC memb mp N enc sc r) : MRaceFree memb mp N s0 :=
  mraceFree_of_laneCheck memb mp N (fun r hr => laneCheck_of_view memb mp N enc sc r (h r hr))

end Check


section NoWrite

variable {V : Type} [AccAdd V]

theorem conflict_shift_back (enc : Nat → Nat → Nat) (A B : Act V)
    (h : Conflict (shiftA enc A) (shiftA enc B)) : Conflict A B := by
  cases A with
  | compute pc r => cases B <;> exact h
  | read a r pc => cases B <;> exact h
  | write a v pc => cases B <;> exact h
  | atomAdd a v pc => cases B <;> exact h
  | arrive b n w pc => cases B <;> exact h
  | exit => cases B <;> exact h

theorem accNth_noW : ∀ (rs : List RdAcc) (x : Nat),
    accNth rs ([] : List (WrAcc V)) x = none ∨
      ∃ rr : RdAcc, accNth rs ([] : List (WrAcc V)) x = some (Sum.inl rr) ∧ inA rr.addr (rdAddrs rs) = true := by
  intro rs
  induction rs with
  | nil => intro x; cases x <;> exact Or.inl rfl
  | cons a l ih =>
    intro x
    cases x with
    | zero => exact Or.inr ⟨a, rfl, inA_head _ _⟩
    | succ n =>
      cases ih n with
      | inl e => exact Or.inl e
      | inr o =>
        match o with
        | ⟨rr, e, h⟩ => exact Or.inr ⟨rr, e, inA_tail _ _ h⟩

/-- A collective with no attributed writes: each sub-step in the view is a read of one of its
addresses or the final register step. -/
theorem collStep_noW (enc : Nat → Nat → Nat) (sc p : Nat) (regs : Nat → V) (c : MColl V)
    (hws : c.ws = []) (x : Nat) :
    collStep enc sc p regs c x = collDone enc sc p regs c ∨
      ∃ (rr : RdAcc) (y z : Nat), inA rr.addr (rdAddrs c.rs) = true ∧ collStep enc sc p regs c x = Act.read rr.addr y z := by
  show (match accNth c.rs c.ws x with
    | some (Sum.inl r) => Act.read r.addr (sc + x) (enc p (x + 1))
    | some (Sum.inr w) => Act.write w.addr w.val (enc p (x + 1))
    | none => collDone enc sc p regs c) = collDone enc sc p regs c ∨
      ∃ (rr : RdAcc) (y z : Nat), inA rr.addr (rdAddrs c.rs) = true ∧ (match accNth c.rs c.ws x with
    | some (Sum.inl r) => Act.read r.addr (sc + x) (enc p (x + 1))
    | some (Sum.inr w) => Act.write w.addr w.val (enc p (x + 1))
    | none => collDone enc sc p regs c) = Act.read rr.addr y z
  rw [hws]
  cases accNth_noW c.rs x with
  | inl e => rw [e]; exact Or.inl rfl
  | inr o =>
    match o with
    | ⟨rr, e, h⟩ => rw [e]; exact Or.inr ⟨rr, _, _, h, rfl⟩

end NoWrite

/-! ## Non-vacuity: `MEx` through the view

`pc` `p`, sub-step `j` is `4 * p + j` in the view (`encE`, `decE`), scratch registers from 3.
The lanes' view actions are their row reads (`vE_row0`, `vE_row1`, by `rfl`), and `ViewNC`
holds at every state (`viewNC_E`), so `MRaceFree` follows through `mraceFree_of_viewNC`. -/

namespace MEx

def encE (p j : Nat) : Nat := p * 4 + j

def decE (pc : Nat) : Nat × Nat := (pc / 4, pc % 4)

/-- In the view, lane 0 at `pc` 0 first reads row address 100 into scratch register 3. -/
theorem vE_row0 : mview encE decE 3 mpE 0 (encE 0 0) (e0.th 0).regs = Act.read 100 3 1 := rfl

/-- Lane 1 reads row address 101, then ends its collective by a register step to `pc` 1
(`4 * 1 + 0` in the view). -/
theorem vE_row1 : mview encE decE 3 mpE 1 (encE 0 0) (e0.th 1).regs = Act.read 101 3 1 ∧
    (∃ q, mview encE decE 3 mpE 1 (encE 0 1) (upd (e0.th 1).regs 3 9) = Act.compute 4 q) :=
  ⟨rfl, ⟨_, rfl⟩⟩

/-- Thread 2's store is itself, its `pc` moved. -/
theorem vE_store : mview encE decE 3 mpE 2 (encE 0 0) (e0.th 2).regs = Act.write 200 5 4 := rfl

theorem lane_view (r : CState Nat) {g k : Nat} (hk : laneOf membE mpE 3 g r k = true) (x : Nat) :
    (∃ p q, vAct encE 3 mpE k r x = Act.compute p q) ∨
      ∃ y z, (vAct encE 3 mpE k r x = Act.read 100 y z ∨ vAct encE 3 mpE k r x = Act.read 101 y z) := by
  match coll_of_lane membE mpE 3 hk with
  | ⟨c, e⟩ =>
    rw [vAct_coll mpE encE 3 e x]
    have hws : c.ws = [] := by
      have h1 := ws_nil r k
      rw [e] at h1
      exact h1
    have hrs := (lane_rows r k).2
    rw [e] at hrs
    cases collStep_noW encE 3 (r.th k).pc (r.th k).regs c hws x with
    | inl d => exact Or.inl ⟨_, _, d⟩
    | inr o =>
      match o with
      | ⟨rr, y, z, hin, d⟩ =>
        have hin' : inA rr.addr (rdAddrs c.rs) = true := hin
        refine Or.inr ⟨y, z, ?_⟩
        show collStep encE 3 (r.th k).pc (r.th k).regs c x = Act.read 100 y z ∨
          collStep encE 3 (r.th k).pc (r.th k).regs c x = Act.read 101 y z
        rw [d]
        cases hrs with
        | inl er =>
          have er' : c.rs = [] := er
          rw [er'] at hin'
          cases hin'
        | inr o2 =>
          cases o2 with
          | inl er =>
            have er' : c.rs = [RdAcc.mk 0 100] := er
            rw [er'] at hin'
            cases inA_true hin' with
            | inl a => rw [a]; exact Or.inl rfl
            | inr a => cases a
          | inr er =>
            have er' : c.rs = [RdAcc.mk 1 101] := er
            rw [er'] at hin'
            cases inA_true hin' with
            | inl a => rw [a]; exact Or.inr rfl
            | inr a => cases a

theorem base_view (r : CState Nat) {j : Nat} (hj : Enabled membE mpE 3 r (MLbl.thr j)) :
    vAct encE 3 mpE j r 0 = Act.exit ∨ vAct encE 3 mpE j r 0 = Act.write 200 5 (encE 1 0) := by
  rw [vAct_base membE mpE 3 encE 3 hj]
  cases base_shape r j hj.2.2 with
  | inl e => rw [e]; exact Or.inl rfl
  | inr e => rw [e.2]; exact Or.inr rfl

theorem ne100' : ¬((100 : Nat) = 200) := by decide
theorem ne101' : ¬((101 : Nat) = 200) := by decide

theorem viewNC_E (r : CState Nat) : ViewNC membE mpE 3 encE 3 r := by
  refine ⟨fun i j hij hi hj => ?_, fun j g k x hj _ hk => ?_, fun g h k k' x x' _ _ _ hk hk' => ?_⟩
  · have c := (laneCheck r).1 i j hij hi hj
    refine ⟨fun hc => c.1 ?_, c.2⟩
    rw [vAct_base membE mpE 3 encE 3 hi, vAct_base membE mpE 3 encE 3 hj] at hc
    exact conflict_shift_back encE _ _ hc
  · cases lane_view r hk x with
    | inl o =>
      match o with
      | ⟨p, q, e⟩ =>
        rw [e]
        cases base_view r hj with
        | inl eb => rw [eb]; exact fun z => z
        | inr eb => rw [eb]; exact fun z => z
    | inr o =>
      match o with
      | ⟨y, z, e⟩ =>
        cases e with
        | inl e =>
          rw [e]
          cases base_view r hj with
          | inl eb => rw [eb]; exact fun z => z
          | inr eb => rw [eb]; exact ne100'
        | inr e =>
          rw [e]
          cases base_view r hj with
          | inl eb => rw [eb]; exact fun z => z
          | inr eb => rw [eb]; exact ne101'
  · cases lane_view r hk x with
    | inl o =>
      match o with
      | ⟨p, q, e⟩ =>
        rw [e]
        cases lane_view r hk' x' with
        | inl o' => match o' with | ⟨p', q', e'⟩ => rw [e']; exact fun z => z
        | inr o' =>
          match o' with
          | ⟨y', z', e'⟩ => cases e' with
            | inl e' => rw [e']; exact fun z => z
            | inr e' => rw [e']; exact fun z => z
    | inr o =>
      match o with
      | ⟨y, z, e⟩ =>
        have hr : ∃ a, vAct encE 3 mpE k r x = Act.read a y z := by
          cases e with
          | inl e => exact ⟨_, e⟩
          | inr e => exact ⟨_, e⟩
        match hr with
        | ⟨a, ea⟩ =>
          rw [ea]
          cases lane_view r hk' x' with
          | inl o' => match o' with | ⟨p', q', e'⟩ => rw [e']; exact fun z => z
          | inr o' =>
            match o' with
            | ⟨y', z', e'⟩ => cases e' with
              | inl e' => rw [e']; exact fun z => z
              | inr e' => rw [e']; exact fun z => z

/-- `MEx`'s race freedom through the view. -/
theorem raceFree_view : MRaceFree membE mpE 3 e0 :=
  mraceFree_of_viewNC membE mpE 3 encE 3 (fun r _ => viewNC_E r)

/-- And so every final state of every schedule is `e5`'s. -/
theorem every_final_view {t : CState Nat} (h : MReach membE mpE 3 e0 t) (f : Final 3 t) :
    Same e5 t :=
  mconfluence membE mpE 3 relOK raceFree_view reach.1 h reach.2 f

end MEx

end WarpMem
end Kcert
