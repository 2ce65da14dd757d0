import Kcert.Compat
import Kcert.Bounds

/-!
# Address provenance: the executor's address check is exact for every memory layout

The repair of the finding "a global offset of 2^36 bytes or more hops to another tensor"
(`GlobalBounds.stride_gap`): integer values that are addresses carry provenance,
`Val::Addr { base, bits }` (`exec/value.rs`), and an access (`exec/access.rs`) must use an
`Addr` whose bits resolve, in the executor's layout, into the region of its own base, the whole
access inside.  This file shows that this check is exact for EVERY layout: whatever addresses
the driver and `ptxas` choose for the regions, a checked access touches exactly the bytes it
touches in the executor's run, relative to its region, and no other region.

Arithmetic.  The 64-bit registers are the ring `ℤ/2^64`: PTX `add`, `sub`, `mul.lo`, `mad.lo`
on `.u64`/`.s64` are its operations, and an address is the register's value read as a natural
number below `2^64`.  We do not fix that ring: `Word α` is any commutative-group-with-
multiplication (the laws are stated as fields, as `ExpField` does for the reals) with a cast
`ofNat : Nat → α` that is additive and multiplicative and a representative `toNat : α → Nat`
with `ofNat (toNat x) = x` and `toNat (ofNat n) = n` for `n < M`.  `ℤ/M` is one, proved
below (`zm`), and `word64 = zm 2^64` is the 64-bit registers, so wrap-around is modelled
(`x + 2^64` is `x`).  Everything below holds for every `Word`.

Values.  `Ex` is a small expression language: the region symbols (`base r`: a tensor
parameter, a shared variable, the dynamic shared area, a local variable, scratch; its value is
the region's address `L r` in the layout `L`), constants, plain inputs (thread indices, scalar
parameters: any value not computed from addresses), `add`, `sub`, `mul`, `mad` and an
address-preserving conversion (`cvta`/`mov`, the identity on values here).  `HasTy e t` is the
Rust provenance rule: `Addr r + n`, `n + Addr r`, `Addr r - n`, `mad a b (Addr r)` are `Addr r`
(`n`, `a`, `b` plain), `Addr r - Addr r` is plain, everything on plain values is plain, and
nothing else is typed (the executor refuses it); `op k` stands for every other integer
operation (any function of plain values).

Results: (1) `plain_indep`, (2) `addr_eval`, (3) `access_exact`, `access_bytes`,
`check_exact`, (4) `eq_indep`, `lt_indep`; the finding's kernel is rejected
(`stride_gap_rejected`, `window_rejected`), `x + 4·tid` accepted and exact (`x4tid_exact`).
A gap of the comparison rule: `cmp_branch_differs` (README, "Finding: an address comparison is
decided in the executor's layout").
-/

namespace Kcert
namespace Provenance

/-- Machine words: `ℤ/2^64` is an instance (with `M = 2^64`); the laws are those of a
commutative additive group plus the casts. -/
structure Word (α : Type) where
  zero : α
  add : α → α → α
  neg : α → α
  mul : α → α → α
  add_assoc : ∀ x y z, add (add x y) z = add x (add y z)
  add_comm : ∀ x y, add x y = add y x
  add_zero : ∀ x, add x zero = x
  add_neg : ∀ x, add x (neg x) = zero
  M : Nat
  ofNat : Nat → α
  toNat : α → Nat
  ofNat_zero : ofNat 0 = zero
  ofNat_add : ∀ m n, ofNat (m + n) = add (ofNat m) (ofNat n)
  ofNat_mul : ∀ m n, ofNat (m * n) = mul (ofNat m) (ofNat n)
  ofNat_toNat : ∀ x, ofNat (toNat x) = x
  toNat_ofNat : ∀ n, n < M → toNat (ofNat n) = n

section Group

variable {α : Type} (W : Word α)

theorem zero_add (x : α) : W.add W.zero x = x := by
  rw [W.add_comm, W.add_zero]

theorem left_comm (x y z : α) : W.add x (W.add y z) = W.add y (W.add x z) := by
  rw [← W.add_assoc, W.add_comm x y, W.add_assoc]

theorem cancel_left {x a b : α} (h : W.add x a = W.add x b) : a = b := by
  have e : ∀ c, W.add (W.neg x) (W.add x c) = c := by
    intro c
    rw [← W.add_assoc, W.add_comm (W.neg x) x, W.add_neg, zero_add]
  rw [← e a, h, e b]

theorem cancel_right {x a b : α} (h : W.add a x = W.add b x) : a = b := by
  rw [W.add_comm a x, W.add_comm b x] at h
  exact cancel_left W h

/-- `(x + a) - (x + b) = a - b`: the difference of two addresses of one base. -/
theorem sub_same (x a b : α) :
    W.add (W.add x a) (W.neg (W.add x b)) = W.add a (W.neg b) := by
  apply cancel_right W (x := W.add x b)
  rw [W.add_assoc, W.add_comm (W.neg (W.add x b)) (W.add x b), W.add_neg, W.add_zero,
    W.add_assoc, left_comm W (W.neg b) x b, W.add_comm (W.neg b) b, W.add_neg, W.add_zero,
    W.add_comm a x]

end Group

/-! ## Expressions, provenance, evaluation -/

inductive Ex where
  | base : Nat → Ex
  | lit : Nat → Ex
  | inp : Nat → Ex
  | add : Ex → Ex → Ex
  | sub : Ex → Ex → Ex
  | mul : Ex → Ex → Ex
  | mad : Ex → Ex → Ex → Ex
  | cvt : Ex → Ex
  | op : Nat → Ex → Ex → Ex

inductive Ty where
  | plain : Ty
  | addr : Nat → Ty

open Ex Ty

/-- The provenance rules of `Val::Addr` (what the executor does not refuse). -/
inductive HasTy : Ex → Ty → Prop where
  | base (r : Nat) : HasTy (Ex.base r) (Ty.addr r)
  | lit (n : Nat) : HasTy (Ex.lit n) Ty.plain
  | inp (i : Nat) : HasTy (Ex.inp i) Ty.plain
  | addPP {a b : Ex} : HasTy a Ty.plain → HasTy b Ty.plain → HasTy (Ex.add a b) Ty.plain
  | addAP {a b : Ex} {r : Nat} : HasTy a (Ty.addr r) → HasTy b Ty.plain →
      HasTy (Ex.add a b) (Ty.addr r)
  | addPA {a b : Ex} {r : Nat} : HasTy a Ty.plain → HasTy b (Ty.addr r) →
      HasTy (Ex.add a b) (Ty.addr r)
  | subPP {a b : Ex} : HasTy a Ty.plain → HasTy b Ty.plain → HasTy (Ex.sub a b) Ty.plain
  | subAP {a b : Ex} {r : Nat} : HasTy a (Ty.addr r) → HasTy b Ty.plain →
      HasTy (Ex.sub a b) (Ty.addr r)
  | subAA {a b : Ex} {r : Nat} : HasTy a (Ty.addr r) → HasTy b (Ty.addr r) →
      HasTy (Ex.sub a b) Ty.plain
  | mulPP {a b : Ex} : HasTy a Ty.plain → HasTy b Ty.plain → HasTy (Ex.mul a b) Ty.plain
  | madP {a b c : Ex} : HasTy a Ty.plain → HasTy b Ty.plain → HasTy c Ty.plain →
      HasTy (Ex.mad a b c) Ty.plain
  | madA {a b c : Ex} {r : Nat} : HasTy a Ty.plain → HasTy b Ty.plain →
      HasTy c (Ty.addr r) → HasTy (Ex.mad a b c) (Ty.addr r)
  | cvt {a : Ex} {t : Ty} : HasTy a t → HasTy (Ex.cvt a) t
  | opPP {k : Nat} {a b : Ex} : HasTy a Ty.plain → HasTy b Ty.plain →
      HasTy (Ex.op k a b) Ty.plain

variable {α : Type} (W : Word α)

/-! The other integer operations of PTX (`and`, `or`, `xor`, `shl`, `shr`, `div`, `rem`,
`min`, `max`, `mul.hi`, `mul.wide`, truncating `cvt`, `selp` on a plain predicate, ...): any
functions, `F k` the `k`-th; only plain operands are typed. -/
variable (F : Nat → α → α → α)

/-- Evaluation in the layout `L` (region `r` at address `L r`), plain inputs `ρ`. -/
def eval (L : Nat → Nat) (ρ : Nat → α) : Ex → α
  | Ex.base r => W.ofNat (L r)
  | Ex.lit n => W.ofNat n
  | Ex.inp i => ρ i
  | Ex.add a b => W.add (eval L ρ a) (eval L ρ b)
  | Ex.sub a b => W.add (eval L ρ a) (W.neg (eval L ρ b))
  | Ex.mul a b => W.mul (eval L ρ a) (eval L ρ b)
  | Ex.mad a b c => W.add (W.mul (eval L ρ a) (eval L ρ b)) (eval L ρ c)
  | Ex.cvt a => eval L ρ a
  | Ex.op k a b => F k (eval L ρ a) (eval L ρ b)

/-- The offset of an expression: its value with every region at address 0. -/
def off (ρ : Nat → α) (e : Ex) : α := eval W F (fun _ => 0) ρ e

/-- What a typed expression denotes in layout `L`: a plain value is its layout-free value, an
`Addr r` is `L r` plus its layout-free offset. -/
def Den (L : Nat → Nat) (ρ : Nat → α) (e : Ex) : Ty → Prop
  | Ty.plain => eval W F L ρ e = off W F ρ e
  | Ty.addr r => eval W F L ρ e = W.add (W.ofNat (L r)) (off W F ρ e)

theorem den (L : Nat → Nat) (ρ : Nat → α) {e : Ex} {t : Ty} (h : HasTy e t) :
    Den W F L ρ e t := by
  induction h with
  | base r =>
    show W.ofNat (L r) = W.add (W.ofNat (L r)) (W.ofNat 0)
    rw [W.ofNat_zero, W.add_zero]
  | lit n => exact rfl
  | inp i => exact rfl
  | addPP _ _ iha ihb =>
    show W.add _ _ = W.add _ _
    rw [show eval W F L ρ _ = off W F ρ _ from iha, show eval W F L ρ _ = off W F ρ _ from ihb]
    exact rfl
  | addAP _ _ iha ihb =>
    show W.add _ _ = _
    rw [show eval W F L ρ _ = W.add _ (off W F ρ _) from iha,
      show eval W F L ρ _ = off W F ρ _ from ihb, W.add_assoc]
    exact rfl
  | addPA _ _ iha ihb =>
    show W.add _ _ = _
    rw [show eval W F L ρ _ = off W F ρ _ from iha,
      show eval W F L ρ _ = W.add _ (off W F ρ _) from ihb, left_comm]
    exact rfl
  | subPP _ _ iha ihb =>
    show W.add _ _ = W.add _ _
    rw [show eval W F L ρ _ = off W F ρ _ from iha, show eval W F L ρ _ = off W F ρ _ from ihb]
    exact rfl
  | subAP _ _ iha ihb =>
    show W.add _ _ = _
    rw [show eval W F L ρ _ = W.add _ (off W F ρ _) from iha,
      show eval W F L ρ _ = off W F ρ _ from ihb, W.add_assoc]
    exact rfl
  | subAA _ _ iha ihb =>
    show W.add _ _ = _
    rw [show eval W F L ρ _ = W.add _ (off W F ρ _) from iha,
      show eval W F L ρ _ = W.add _ (off W F ρ _) from ihb, sub_same]
    exact rfl
  | mulPP _ _ iha ihb =>
    show W.mul _ _ = W.mul _ _
    rw [show eval W F L ρ _ = off W F ρ _ from iha, show eval W F L ρ _ = off W F ρ _ from ihb]
    exact rfl
  | madP _ _ _ iha ihb ihc =>
    show W.add (W.mul _ _) _ = W.add (W.mul _ _) _
    rw [show eval W F L ρ _ = off W F ρ _ from iha, show eval W F L ρ _ = off W F ρ _ from ihb,
      show eval W F L ρ _ = off W F ρ _ from ihc]
    exact rfl
  | madA _ _ _ iha ihb ihc =>
    show W.add (W.mul _ _) _ = _
    rw [show eval W F L ρ _ = off W F ρ _ from iha, show eval W F L ρ _ = off W F ρ _ from ihb,
      show eval W F L ρ _ = W.add _ (off W F ρ _) from ihc, left_comm]
    exact rfl
  | cvt _ ih => exact ih
  | opPP _ _ iha ihb =>
    show F _ _ _ = F _ _ _
    rw [show eval W F L ρ _ = off W F ρ _ from iha, show eval W F L ρ _ = off W F ρ _ from ihb]
    exact rfl

/-! ## (1), (2): layout independence -/

/-- (1) A plain value evaluates to its layout-free value in every layout. -/
theorem plain_eval (L : Nat → Nat) (ρ : Nat → α) {e : Ex} (h : HasTy e Ty.plain) :
    eval W F L ρ e = off W F ρ e :=
  den W F L ρ h

/-- (1) Hence the same integer in any two layouts. -/
theorem plain_indep (L L' : Nat → Nat) (ρ : Nat → α) {e : Ex} (h : HasTy e Ty.plain) :
    eval W F L ρ e = eval W F L' ρ e := by
  rw [plain_eval W F L ρ h, plain_eval W F L' ρ h]

/-- (2) An `Addr r` value is `L r + o` in every layout `L`, with the same offset
`o = off W F ρ e`. -/
theorem addr_eval (L : Nat → Nat) (ρ : Nat → α) {e : Ex} {r : Nat}
    (h : HasTy e (Ty.addr r)) : eval W F L ρ e = W.add (W.ofNat (L r)) (off W F ρ e) :=
  den W F L ρ h

/-! ## (3): the access check is exact -/

/-- Nat: `k + a ≤ k + b → a ≤ b`. -/
theorem le_of_add_le_add_left'' {k a b : Nat} (h : k + a ≤ k + b) : a ≤ b :=
  if hab : a ≤ b then hab
  else absurd (Nat.leTrans (Nat.addLeAddLeft (Nat.gtOfNotLe hab) k) h) (Nat.notSuccLeSelf (k + b))

theorem lt_of_add_lt_add_left'' {k a b : Nat} (h : k + a < k + b) : a < b :=
  le_of_add_le_add_left'' (k := k) h

/-- The executor's test of an access of `w` bytes at the value `x` through an `Addr r`: in the
layout `L`, the address `toNat x` lies in region `r` with the whole access inside. -/
def Inside (L size : Nat → Nat) (r w : Nat) (x : α) : Prop :=
  L r ≤ W.toNat x ∧ W.toNat x + w ≤ L r + size r

/-- Byte `a` lies in region `r` of layout `L`. -/
def InReg (L size : Nat → Nat) (r a : Nat) : Prop := L r ≤ a ∧ a < L r + size r

/-- The regions are pairwise disjoint in `L`. -/
def Disjoint (L size : Nat → Nat) : Prop :=
  ∀ r r' a, r ≠ r' → InReg L size r a → ¬InReg L size r' a

/-- An access that passes the test in the layout `A` is at a natural offset `p` of its region,
`p + w ≤ size r`, and that is its offset as a word: `off = ofNat p`. -/
theorem inside_offset (A size : Nat → Nat) (ρ : Nat → α) {e : Ex} {r w : Nat}
    (h : HasTy e (Ty.addr r)) (hin : Inside W A size r w (eval W F A ρ e)) :
    ∃ p, p + w ≤ size r ∧ off W F ρ e = W.ofNat p ∧ W.toNat (eval W F A ρ e) = A r + p :=
  match Nat.le.dest hin.1 with
  | ⟨p, hp⟩ => by
    refine ⟨p, ?_, ?_, hp.symm⟩
    · apply le_of_add_le_add_left'' (k := A r)
      rw [← Nat.add_assoc, hp]
      exact hin.2
    · apply cancel_left W (x := W.ofNat (A r))
      rw [← addr_eval W F A ρ h, ← W.ofNat_add, hp, W.ofNat_toNat]

/-- On the hardware in the layout `L`, an `Addr r` of offset `ofNat p` is the address
`L r + p` when that is a word (`L r + p < M`). -/
theorem hw_addr (L : Nat → Nat) (ρ : Nat → α) {e : Ex} {r p : Nat}
    (h : HasTy e (Ty.addr r)) (hp : off W F ρ e = W.ofNat p) (hM : L r + p < W.M) :
    W.toNat (eval W F L ρ e) = L r + p := by
  rw [addr_eval W F L ρ h, hp, ← W.ofNat_add, W.toNat_ofNat _ hM]

/-- (3) If the access passes the test in ONE layout `A`, there is one offset `p` with
`p + w ≤ size r` such that in EVERY layout `L` in which region `r` fits below `M`, the
hardware address is `L r + p`. -/
theorem access_exact (A size : Nat → Nat) (ρ : Nat → α) {e : Ex} {r w : Nat}
    (h : HasTy e (Ty.addr r)) (hw : 0 < w) (hin : Inside W A size r w (eval W F A ρ e)) :
    ∃ p, p + w ≤ size r ∧
      ∀ L : Nat → Nat, L r + size r ≤ W.M → W.toNat (eval W F L ρ e) = L r + p :=
  match inside_offset W F A size ρ h hin with
  | ⟨p, hpw, hoff, _⟩ => by
    refine ⟨p, hpw, ?_⟩
    intro L hL
    apply hw_addr W F L ρ h hoff
    apply Nat.ltOfLtOfLe _ hL
    apply Nat.addLtAddLeft
    exact Nat.ltOfLtOfLe (show p < p + w from Nat.addLtAddLeft hw p) hpw

/-- (3) In every such layout the access touches exactly the bytes `p .. p + w - 1` of region
`r`, and none of them lies in another region when the regions are disjoint. -/
theorem access_bytes (A size : Nat → Nat) (ρ : Nat → α) {e : Ex} {r w : Nat}
    (h : HasTy e (Ty.addr r)) (hw : 0 < w) (hin : Inside W A size r w (eval W F A ρ e)) :
    ∃ p, p + w ≤ size r ∧
      ∀ L : Nat → Nat, L r + size r ≤ W.M → W.toNat (eval W F L ρ e) = L r + p ∧
        ∀ j, j < w → InReg L size r (W.toNat (eval W F L ρ e) + j) ∧
          (Disjoint L size → ∀ r', r' ≠ r → ¬InReg L size r' (W.toNat (eval W F L ρ e) + j)) :=
  match access_exact W F A size ρ h hw hin with
  | ⟨p, hpw, hall⟩ => by
    refine ⟨p, hpw, ?_⟩
    intro L hL
    have ha := hall L hL
    have hreg : ∀ j, j < w → InReg L size r (W.toNat (eval W F L ρ e) + j) := by
      intro j hj
      rw [ha, Nat.add_assoc]
      refine ⟨Nat.leAddRight _ _, Nat.addLtAddLeft ?_ _⟩
      exact Nat.ltOfLtOfLe (Nat.addLtAddLeft hj p) hpw
    refine ⟨ha, ?_⟩
    intro j hj
    refine ⟨hreg j hj, ?_⟩
    intro hdis r' hr'
    exact hdis r r' _ (fun e => hr' e.symm) (hreg j hj)

/-- The test itself transfers: passing it in `A` means passing it in every fitting `L`. -/
theorem inside_transfer (A L size : Nat → Nat) (ρ : Nat → α) {e : Ex} {r w : Nat}
    (h : HasTy e (Ty.addr r)) (hw : 0 < w) (hL : L r + size r ≤ W.M)
    (hin : Inside W A size r w (eval W F A ρ e)) : Inside W L size r w (eval W F L ρ e) :=
  match access_exact W F A size ρ h hw hin with
  | ⟨p, hpw, hall⟩ => by
    show L r ≤ W.toNat (eval W F L ρ e) ∧ W.toNat (eval W F L ρ e) + w ≤ L r + size r
    rw [hall L hL, Nat.add_assoc]
    exact ⟨Nat.leAddRight _ _, Nat.addLeAddLeft hpw _⟩

/-- (3) The check is exact: for two layouts in which region `r` fits, an access through an
`Addr r` passes the executor's test in one iff it passes it in the other.  With `A` the
executor's layout and `L` the hardware's: the executor reports `out_of_bounds` iff the access
is outside its region on the hardware. -/
theorem check_exact (A L size : Nat → Nat) (ρ : Nat → α) {e : Ex} {r w : Nat}
    (h : HasTy e (Ty.addr r)) (hw : 0 < w) (hA : A r + size r ≤ W.M)
    (hL : L r + size r ≤ W.M) :
    Inside W A size r w (eval W F A ρ e) ↔ Inside W L size r w (eval W F L ρ e) :=
  ⟨inside_transfer W F A L size ρ h hw hL, inside_transfer W F L A size ρ h hw hA⟩

/-! ## (4): comparisons of two addresses of one base -/

/-- (4) Equality (`setp.eq`, `setp.ne`) of two `Addr r` values is the equality of their
offsets, in every layout: so it is layout independent. -/
theorem eq_iff_off (L : Nat → Nat) (ρ : Nat → α) {a b : Ex} {r : Nat}
    (ha : HasTy a (Ty.addr r)) (hb : HasTy b (Ty.addr r)) :
    eval W F L ρ a = eval W F L ρ b ↔ off W F ρ a = off W F ρ b := by
  rw [addr_eval W F L ρ ha, addr_eval W F L ρ hb]
  exact ⟨cancel_left W, fun e => by rw [e]⟩

theorem eq_indep (L L' : Nat → Nat) (ρ : Nat → α) {a b : Ex} {r : Nat}
    (ha : HasTy a (Ty.addr r)) (hb : HasTy b (Ty.addr r)) :
    eval W F L ρ a = eval W F L ρ b ↔ eval W F L' ρ a = eval W F L' ρ b :=
  Iff.trans (eq_iff_off W F L ρ ha hb) (Iff.symm (eq_iff_off W F L' ρ ha hb))

/-- (4) Unsigned order (`setp.lt.u64`): when both addresses lie in `[A r, A r + size r]` in
the layout `A` (offsets `0 .. size r`, one past the end included), their order is the same in
every layout `L` where region `r` and its end fit below `M`. -/
theorem lt_indep (A L size : Nat → Nat) (ρ : Nat → α) {a b : Ex} {r : Nat}
    (ha : HasTy a (Ty.addr r)) (hb : HasTy b (Ty.addr r))
    (hina : Inside W A size r 0 (eval W F A ρ a)) (hinb : Inside W A size r 0 (eval W F A ρ b))
    (hL : L r + size r < W.M) :
    W.toNat (eval W F A ρ a) < W.toNat (eval W F A ρ b) ↔
      W.toNat (eval W F L ρ a) < W.toNat (eval W F L ρ b) :=
  match inside_offset W F A size ρ ha hina, inside_offset W F A size ρ hb hinb with
  | ⟨p, hp, offp, hAp⟩, ⟨q, hq, offq, hAq⟩ => by
    have hLp : L r + p < W.M := Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hL
    have hLq : L r + q < W.M := Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hL
    rw [hAp, hAq, hw_addr W F L ρ ha offp hLp, hw_addr W F L ρ hb offq hLq]
    exact ⟨fun h => Nat.addLtAddLeft (lt_of_add_lt_add_left'' h) _,
      fun h => Nat.addLtAddLeft (lt_of_add_lt_add_left'' h) _⟩

/-! ## What the rules refuse -/

/-- An address times a number is refused (no rule types it). -/
theorem refuse_mul (t : Ty) : ¬HasTy (Ex.mul (Ex.base 0) (Ex.lit 4)) t := by
  intro h
  cases h with
  | mulPP ha _ => cases ha

/-- The sum of two addresses is refused. -/
theorem refuse_add (t : Ty) : ¬HasTy (Ex.add (Ex.base 0) (Ex.base 0)) t := by
  intro h
  cases h with
  | addPP ha _ => cases ha
  | addAP _ hb => cases hb
  | addPA ha _ => cases ha

/-- The difference of addresses of two different bases is refused. -/
theorem refuse_sub (t : Ty) : ¬HasTy (Ex.sub (Ex.base 0) (Ex.base 1)) t := by
  intro h
  cases h with
  | subPP ha _ => cases ha
  | subAP _ hb => cases hb
  | subAA ha hb =>
    cases ha
    cases hb

/-! ## The finding's kernel is rejected, `x + 4·tid` is accepted and exact

The executor's layout is `GlobalBounds.execBase` (tensor `k` at `(k + 1)·2^36`), the sizes
`GlobalBounds.exSize` (three tensors of 128 bytes: `x`, `y`, `out`), and words have at least
64 bits (`2^64 ≤ M`). -/

/-- `x + 4·tid + s` (`%rd8` of the finding's PTX): `inp 0` is `%tid.x`, `inp 1` the scalar. -/
def exOob : Ex := Ex.add (Ex.add (Ex.base 0) (Ex.mul (Ex.lit 4) (Ex.inp 0))) (Ex.inp 1)

/-- `x + 4·tid`. -/
def exOk : Ex := Ex.add (Ex.base 0) (Ex.mul (Ex.lit 4) (Ex.inp 0))

theorem exOob_ty : HasTy exOob (Ty.addr 0) :=
  HasTy.addAP (HasTy.addAP (HasTy.base 0) (HasTy.mulPP (HasTy.lit 4) (HasTy.inp 0)))
    (HasTy.inp 1)

theorem exOk_ty : HasTy exOk (Ty.addr 0) :=
  HasTy.addAP (HasTy.base 0) (HasTy.mulPP (HasTy.lit 4) (HasTy.inp 0))

/-- The plain inputs: thread index `t`, scalar `s`. -/
def exIn (t s : Nat) : Nat → α := fun i => if i = 0 then W.ofNat t else W.ofNat s

theorem exOob_eval (L : Nat → Nat) (t s : Nat) :
    eval W F L (exIn W t s) exOob = W.ofNat (L 0 + 4 * t + s) := by
  show W.add (W.add (W.ofNat (L 0)) (W.mul (W.ofNat 4) (W.ofNat t))) (W.ofNat s) = _
  rw [← W.ofNat_mul, ← W.ofNat_add, ← W.ofNat_add]

theorem exOk_eval (L : Nat → Nat) (t s : Nat) :
    eval W F L (exIn W t s) exOk = W.ofNat (L 0 + 4 * t) := by
  show W.add (W.ofNat (L 0)) (W.mul (W.ofNat 4) (W.ofNat t)) = _
  rw [← W.ofNat_mul, ← W.ofNat_add]

theorem four_t {t : Nat} (ht : t < 32) : 4 * t + 4 ≤ 128 :=
  Nat.mulLeMulLeft 4 ht

theorem four_t_lt {t : Nat} (ht : t < 32) : 4 * t < 128 :=
  Nat.ltOfLtOfLe (Nat.addLtAddLeft (show 0 < 4 by decide) (4 * t) : 4 * t < 4 * t + 4) (four_t ht)

theorem two64_lt {W : Word α} (hM : 18446744073709551616 ≤ W.M) {n : Nat}
    (hn : n < 18446744073709551616) : n < W.M :=
  Nat.ltOfLtOfLe hn hM

/-- The executor's address of `x + 4·tid + 2^36` is `execBase 0 + 4·tid + 2^36`. -/
theorem exOob_toNat (hM : 18446744073709551616 ≤ W.M) {t : Nat} (ht : t < 32) :
    W.toNat (eval W F GlobalBounds.execBase (exIn W t GlobalBounds.stride) exOob) =
      GlobalBounds.execBase 0 + 4 * t + GlobalBounds.stride := by
  rw [exOob_eval]
  apply W.toNat_ofNat
  apply two64_lt hM
  apply Nat.ltOfLeOfLt (Nat.addLeAddRight (Nat.addLeAddLeft (Nat.leOfLt (four_t_lt ht)) _) _)
  decide

/-- Thread 0 of the finding: the old check (`GlobalBounds.execInside`, the address alone)
accepts the address, inside tensor 1 (`y`). -/
theorem exOob_old_accepts (hM : 18446744073709551616 ≤ W.M) :
    GlobalBounds.execInside 3 GlobalBounds.exSize
      (W.toNat (eval W F GlobalBounds.execBase (exIn W 0 GlobalBounds.stride) exOob)) 4 = true := by
  rw [exOob_toNat W F hM (t := 0) (by decide)]
  exact GlobalBounds.stride_gap.1

/-- The provenance check rejects it: in the executor's layout the address is not inside
`x` (region 0, the access's base), for every thread. -/
theorem exOob_rejected (hM : 18446744073709551616 ≤ W.M) {t : Nat} (ht : t < 32) :
    ¬Inside W GlobalBounds.execBase GlobalBounds.exSize 0 4
      (eval W F GlobalBounds.execBase (exIn W t GlobalBounds.stride) exOob) := by
  intro hin
  have h2 := hin.2
  rw [exOob_toNat W F hM ht] at h2
  have h3 : GlobalBounds.execBase 0 + GlobalBounds.stride ≤
      GlobalBounds.execBase 0 + GlobalBounds.exSize 0 :=
    Nat.leTrans (Nat.addLeAddRight (Nat.leAddRight _ _) _)
      (Nat.leTrans (Nat.leAddRight _ 4) h2)
  exact absurd (le_of_add_le_add_left'' h3) (by decide)

/-- The same for any scalar `s ≥ 128` that keeps the executor's address below `2^64`. -/
theorem exOob_toNat_s (hM : 18446744073709551616 ≤ W.M) {t s : Nat} (ht : t < 32)
    (hs : GlobalBounds.execBase 0 + 128 + s < 18446744073709551616) :
    W.toNat (eval W F GlobalBounds.execBase (exIn W t s) exOob) =
      GlobalBounds.execBase 0 + 4 * t + s := by
  rw [exOob_eval]
  apply W.toNat_ofNat
  apply two64_lt hM
  exact Nat.ltOfLeOfLt (Nat.addLeAddRight (Nat.addLeAddLeft (Nat.leOfLt (four_t_lt ht)) _) _) hs

theorem exOob_rejected_s (hM : 18446744073709551616 ≤ W.M) {t s : Nat} (ht : t < 32)
    (hs : GlobalBounds.execBase 0 + 128 + s < 18446744073709551616) (hs2 : 128 ≤ s) :
    ¬Inside W GlobalBounds.execBase GlobalBounds.exSize 0 4
      (eval W F GlobalBounds.execBase (exIn W t s) exOob) := by
  intro hin
  have h2 := hin.2
  rw [exOob_toNat_s W F hM ht hs] at h2
  have h3 : GlobalBounds.execBase 0 + (s + 4) ≤ GlobalBounds.execBase 0 + 128 := by
    rw [← Nat.add_assoc]
    apply Nat.leTrans _ h2
    apply Nat.addLeAddRight
    rw [Nat.add_right_comm]
    exact Nat.leAddRight _ _
  exact absurd (Nat.leTrans (Nat.addLeAddRight hs2 4) (le_of_add_le_add_left'' h3)) (by decide)

/-- And so (`check_exact`) on the hardware the access is outside `x` in EVERY layout in which
`x` fits: whatever addresses the driver chooses. -/
theorem exOob_out_everywhere (hM : 18446744073709551616 ≤ W.M) {t : Nat} (ht : t < 32)
    (L : Nat → Nat) (hL : L 0 + 128 ≤ W.M) :
    ¬Inside W L GlobalBounds.exSize 0 4 (eval W F L (exIn W t GlobalBounds.stride) exOob) :=
  fun hin => exOob_rejected W F hM ht
    (inside_transfer W F L GlobalBounds.execBase GlobalBounds.exSize _ exOob_ty (by decide)
      (Nat.leTrans (by decide) hM) hin)

/-- `x + 4·tid` passes the check in the executor's layout for every thread `tid < 32`. -/
theorem exOk_accepted (hM : 18446744073709551616 ≤ W.M) {t s : Nat} (ht : t < 32) :
    Inside W GlobalBounds.execBase GlobalBounds.exSize 0 4
      (eval W F GlobalBounds.execBase (exIn W t s) exOk) := by
  have hlt : GlobalBounds.execBase 0 + 4 * t < W.M :=
    two64_lt hM (Nat.ltOfLeOfLt (Nat.addLeAddLeft (Nat.leOfLt (four_t_lt ht)) _) (by decide))
  show GlobalBounds.execBase 0 ≤ W.toNat (eval W F GlobalBounds.execBase (exIn W t s) exOk) ∧
    W.toNat (eval W F GlobalBounds.execBase (exIn W t s) exOk) + 4 ≤
      GlobalBounds.execBase 0 + 128
  rw [exOk_eval, W.toNat_ofNat _ hlt, Nat.add_assoc]
  exact ⟨Nat.leAddRight _ _, Nat.addLeAddLeft (four_t ht) _⟩

/-- ... and is exact: in every layout in which `x` fits, the hardware reads bytes
`4·tid .. 4·tid + 3` of `x`. -/
theorem exOk_exact (hM : 18446744073709551616 ≤ W.M) {t s : Nat} (ht : t < 32)
    (L : Nat → Nat) (hL : L 0 + 128 ≤ W.M) :
    W.toNat (eval W F L (exIn W t s) exOk) = L 0 + 4 * t ∧
      Inside W L GlobalBounds.exSize 0 4 (eval W F L (exIn W t s) exOk) := by
  have hlt : L 0 + 4 * t < W.M :=
    Nat.ltOfLtOfLe (Nat.addLtAddLeft (four_t_lt ht) _) hL
  refine ⟨?_, inside_transfer W F GlobalBounds.execBase L GlobalBounds.exSize _ exOk_ty
    (by decide) hL (exOk_accepted W F hM ht)⟩
  rw [exOk_eval, W.toNat_ofNat _ hlt]

/-! ## The 64-bit words: `ℤ/M` is a `Word`

So the laws are consistent and the examples apply to the registers themselves (`word64`). -/

section ZMod

theorem sub_add_cancel'' {x y : Nat} (h : y ≤ x) : x - y + y = x :=
  match Nat.le.dest h with
  | ⟨k, hk⟩ => by rw [← hk, Nat.add_comm y k, GlobalBounds.add_sub_cancel']

theorem add_sub_of_le'' {a b : Nat} (h : a ≤ b) : a + (b - a) = b := by
  rw [Nat.add_comm]
  exact sub_add_cancel'' h

/-- `a % M + M·(a / M) = a`. -/
theorem mod_add_div'' (a M : Nat) : a % M + M * (a / M) = a :=
  Nat.div.inductionOn (motive := fun x y => x % y + y * (x / y) = x) a M
    (fun x y h ih => by
      have ih' : (x - y) % y + y * ((x - y) / y) = x - y := ih
      show x % y + y * (x / y) = x
      rw [Nat.mod_eq_sub_mod h.2, Nat.div_eq x y, if_pos' h, Nat.mul_succ, ← Nat.add_assoc, ih']
      exact sub_add_cancel'' h.2)
    (fun x y h => by
      show x % y + y * (x / y) = x
      rw [Nat.mod_eq x y, if_neg' h, Nat.div_eq x y, if_neg' h]
      exact rfl)

/-- `(x + M·k) % M = x % M`. -/
theorem mod_add_mul'' (x M : Nat) : ∀ k : Nat, (x + M * k) % M = x % M
  | 0 => rfl
  | k + 1 => by
    rw [Nat.mul_succ, ← Nat.add_assoc, Nat.mod_eq_sub_mod (Nat.leAddLeft M (x + M * k)),
      GlobalBounds.add_sub_cancel', mod_add_mul'' x M k]

theorem mod_add_mod'' (a b M : Nat) : (a % M + b) % M = (a + b) % M := by
  have e : a + b = (a % M + b) + M * (a / M) := by
    have e1 : a + b = (a % M + M * (a / M)) + b := by rw [mod_add_div'' a M]
    exact Eq.trans e1 (Nat.add_right_comm _ _ _)
  rw [e, mod_add_mul'']

theorem add_mod_mod'' (a b M : Nat) : (a + b % M) % M = (a + b) % M := by
  rw [Nat.add_comm a, mod_add_mod'', Nat.add_comm]

theorem mod_mul_mod'' (a b M : Nat) : (a % M * b) % M = (a * b) % M := by
  have e : a * b = a % M * b + M * (a / M * b) := by
    have e1 : a * b = (a % M + M * (a / M)) * b := by rw [mod_add_div'' a M]
    rw [e1, Nat.right_distrib, Nat.mul_assoc]
  rw [e, mod_add_mul'']

theorem mul_mod_mod'' (a b M : Nat) : (a * (b % M)) % M = (a * b) % M := by
  rw [Nat.mul_comm a, mod_mul_mod'', Nat.mul_comm]

/-- The residues modulo `M`. -/
structure ZM (M : Nat) where
  val : Nat
  lt : val < M

theorem ZM.ext {M : Nat} : ∀ {x y : ZM M}, x.val = y.val → x = y
  | ⟨_, _⟩, ⟨_, _⟩, rfl => rfl

/-- `ℤ/M` (`M > 0`) is a `Word` with representatives `0 .. M - 1`. -/
def zm (M : Nat) (hM : 0 < M) : Word (ZM M) where
  zero := ⟨0, hM⟩
  add x y := ⟨(x.val + y.val) % M, Nat.mod_lt _ hM⟩
  neg x := ⟨(M - x.val) % M, Nat.mod_lt _ hM⟩
  mul x y := ⟨(x.val * y.val) % M, Nat.mod_lt _ hM⟩
  add_assoc x y z := ZM.ext (show ((x.val + y.val) % M + z.val) % M =
      (x.val + (y.val + z.val) % M) % M by rw [mod_add_mod'', add_mod_mod'', Nat.add_assoc])
  add_comm x y := ZM.ext (show (x.val + y.val) % M = (y.val + x.val) % M by
      rw [Nat.add_comm])
  add_zero x := ZM.ext (Nat.mod_eq_of_lt x.lt)
  add_neg x := ZM.ext (show (x.val + (M - x.val) % M) % M = 0 by
      rw [add_mod_mod'', add_sub_of_le'' (Nat.leOfLt x.lt), Nat.mod_eq_sub_mod (Nat.leRefl M),
        Nat.sub_self, Nat.mod_eq_of_lt hM])
  M := M
  ofNat n := ⟨n % M, Nat.mod_lt _ hM⟩
  toNat x := x.val
  ofNat_zero := ZM.ext (Nat.mod_eq_of_lt hM)
  ofNat_add m n := ZM.ext (show (m + n) % M = (m % M + n % M) % M by
      rw [mod_add_mod'', add_mod_mod''])
  ofNat_mul m n := ZM.ext (show (m * n) % M = (m % M * (n % M)) % M by
      rw [mod_mul_mod'', mul_mod_mod''])
  ofNat_toNat x := ZM.ext (Nat.mod_eq_of_lt x.lt)
  toNat_ofNat n h := Nat.mod_eq_of_lt h

/-- The 64-bit registers: `ℤ/2^64`. -/
abbrev W64 : Type := ZM 18446744073709551616

def word64 : Word W64 := zm 18446744073709551616 (by decide)

end ZMod

/-- On 64-bit words: the finding's access (`GlobalBounds.stride_gap`) is rejected by the
provenance check for every thread, and is outside `x` on the hardware in every layout. -/
theorem stride_gap_rejected (G : Nat → W64 → W64 → W64) {t : Nat} (ht : t < 32) :
    ¬Inside word64 GlobalBounds.execBase GlobalBounds.exSize 0 4
      (eval word64 G GlobalBounds.execBase (exIn word64 t GlobalBounds.stride) exOob) ∧
    ∀ L : Nat → Nat, L 0 + 128 ≤ word64.M →
      ¬Inside word64 L GlobalBounds.exSize 0 4
        (eval word64 G L (exIn word64 t GlobalBounds.stride) exOob) :=
  ⟨exOob_rejected word64 G (Nat.leRefl _) ht,
    fun L hL => exOob_out_everywhere word64 G (Nat.leRefl _) ht L hL⟩

/-- On 64-bit words: `x + 4·tid` is accepted and reads bytes `4·tid ..` of `x` in every
layout. -/
theorem x4tid_exact (G : Nat → W64 → W64 → W64) {t s : Nat} (ht : t < 32) :
    Inside word64 GlobalBounds.execBase GlobalBounds.exSize 0 4
      (eval word64 G GlobalBounds.execBase (exIn word64 t s) exOk) ∧
    ∀ L : Nat → Nat, L 0 + 128 ≤ word64.M →
      word64.toNat (eval word64 G L (exIn word64 t s) exOk) = L 0 + 4 * t :=
  ⟨exOk_accepted word64 G (Nat.leRefl _) ht,
    fun L hL => (exOk_exact word64 G (Nat.leRefl _) ht L hL).1⟩

/-- Any other operation on an address is refused (e.g. `and.b64` to align a pointer). -/
theorem refuse_op (k : Nat) (t : Ty) : ¬HasTy (Ex.op k (Ex.base 0) (Ex.lit 4)) t := by
  intro h
  cases h with
  | opPP ha _ => cases ha

/-- `x - 4`: an `Addr 0` below its region. -/
def exBelow : Ex := Ex.sub (Ex.base 0) (Ex.lit 4)

theorem exBelow_ty : HasTy exBelow (Ty.addr 0) := HasTy.subAP (HasTy.base 0) (HasTy.lit 4)

theorem eval_exBelow (L : Nat → Nat) (ρ : Nat → α) :
    eval W F L ρ exBelow = W.add (W.ofNat (L 0)) (W.neg (W.ofNat 4)) := rfl

theorem zm_neg_ofNat (M : Nat) (hM : 0 < M) {n : Nat} (hn : n < M) :
    (zm M hM).neg ((zm M hM).ofNat n) = (zm M hM).ofNat (M - n) :=
  ZM.ext (show (M - n % M) % M = (M - n) % M by rw [Nat.mod_eq_of_lt hn])

theorem word64_neg_ofNat {n : Nat} (hn : n < 18446744073709551616) :
    word64.neg (word64.ofNat n) = word64.ofNat (18446744073709551616 - n) :=
  zm_neg_ofNat _ _ hn

theorem word64_toNat_ofNat (n : Nat) :
    word64.toNat (word64.ofNat n) = n % 18446744073709551616 := rfl

/-- Why `lt_indep` needs both addresses inside `[L r, L r + size r]`: the unsigned comparison
`x - 4 < x` is true in the executor's layout (`x` at `2^36`) and false on 64-bit words in the
layout with `x` at address 2 (where `x - 4` wraps to `2^64 - 2`), a layout in which the
128 bytes of `x` fit.  Equality is unaffected (`eq_indep`). -/
theorem lt_layout_dependent (G : Nat → W64 → W64 → W64) (ρ : Nat → W64) :
    word64.toNat (eval word64 G GlobalBounds.execBase ρ exBelow) <
      word64.toNat (eval word64 G GlobalBounds.execBase ρ (Ex.base 0)) ∧
    ¬(word64.toNat (eval word64 G (fun _ => 2) ρ exBelow) <
      word64.toNat (eval word64 G (fun _ => 2) ρ (Ex.base 0))) := by
  have e : ∀ L : Nat → Nat, eval word64 G L ρ exBelow =
      word64.ofNat (L 0 + (18446744073709551616 - 4)) := by
    intro L
    rw [eval_exBelow, word64_neg_ofNat (by decide), ← word64.ofNat_add]
  have eb : ∀ L : Nat → Nat, eval word64 G L ρ (Ex.base 0) = word64.ofNat (L 0) := fun _ => rfl
  rw [e, e, eb, eb, word64_toNat_ofNat, word64_toNat_ofNat, word64_toNat_ofNat,
    word64_toNat_ofNat, Nat.mod_eq_sub_mod (by decide), Nat.mod_eq_of_lt (by decide),
    Nat.mod_eq_of_lt (by decide), Nat.mod_eq_of_lt (by decide), Nat.mod_eq_of_lt (by decide)]
  exact ⟨by decide, by decide⟩

/-- The finding's second scenario (`access.rs` `resolve`: generic addresses in
`[0x7f00_0000_0000_0000, + 2^40)` are the CTA's shared window): the scalar
`0x7f00_0000_0000_0000 - 2^36` sends `x + 4·tid + s` to `0x7f00_0000_0000_0000 + 4·tid`
(`window_addr`), the shared word `4·tid` for the old check; the provenance check rejects it in the executor's layout for every thread, and on the
hardware it is outside `x` in every layout where `x` fits. -/
theorem window_rejected (G : Nat → W64 → W64 → W64) {t : Nat} (ht : t < 32) :
    ¬Inside word64 GlobalBounds.execBase GlobalBounds.exSize 0 4
      (eval word64 G GlobalBounds.execBase (exIn word64 t 9151314374097371136) exOob) ∧
    ∀ L : Nat → Nat, L 0 + 128 ≤ word64.M →
      ¬Inside word64 L GlobalBounds.exSize 0 4
        (eval word64 G L (exIn word64 t 9151314374097371136) exOob) :=
  have hrej := exOob_rejected_s word64 G (Nat.leRefl _) ht (by decide) (by decide)
  ⟨hrej, fun L hL hin => hrej (inside_transfer word64 G L GlobalBounds.execBase
    GlobalBounds.exSize _ exOob_ty (by decide) (by decide) hin)⟩

theorem window_addr (G : Nat → W64 → W64 → W64) {t : Nat} (ht : t < 32) :
    word64.toNat (eval word64 G GlobalBounds.execBase (exIn word64 t 9151314374097371136) exOob)
      = 9151314442816847872 + 4 * t := by
  rw [exOob_toNat_s word64 G (Nat.leRefl _) ht (by decide), Nat.add_right_comm]
  exact congrArg (fun n => n + 4 * t)
    (by decide : GlobalBounds.execBase 0 + 9151314374097371136 = 9151314442816847872)

/-! ## A comparison the rules allow that takes a different branch on the hardware

`x - s < x` (`sub.s64 %rd5, %rd4, %rd3; setp.lt.u64 %p1, %rd5, %rd4`) with the scalar
`s = 2^40`: an `Addr - n` compared with an `Addr` of the same base, both allowed by the rules.
In the executor's layout (`x` at `2^36`) `x - 2^40` wraps to `2^64 - 2^40 + 2^36` and the
comparison is false; with `x` at `2^47` (`0x8000_0000_0000`, an address of the kind the CUDA
driver returns) it does not wrap and the comparison is true.  A branch on it is taken on the
hardware and not in the executor's run, so the accesses of that branch are never checked. -/

/-- `x - s`, `inp 1` the scalar. -/
def exDown : Ex := Ex.sub (Ex.base 0) (Ex.inp 1)

theorem exDown_ty : HasTy exDown (Ty.addr 0) := HasTy.subAP (HasTy.base 0) (HasTy.inp 1)

theorem eval_exDown (L : Nat → Nat) (ρ : Nat → α) :
    eval W F L ρ exDown = W.add (W.ofNat (L 0)) (W.neg (ρ 1)) := rfl

/-- The branch condition `x - 2^40 < x` is false in the executor's layout and true with `x`
at `2^47`, for every thread (the scalar is the same for all). -/
theorem cmp_branch_differs (G : Nat → W64 → W64 → W64) (t : Nat) :
    ¬(word64.toNat (eval word64 G GlobalBounds.execBase (exIn word64 t 1099511627776) exDown) <
        word64.toNat (eval word64 G GlobalBounds.execBase (exIn word64 t 1099511627776)
          (Ex.base 0))) ∧
    word64.toNat (eval word64 G (fun _ => 140737488355328) (exIn word64 t 1099511627776) exDown)
      < word64.toNat (eval word64 G (fun _ => 140737488355328) (exIn word64 t 1099511627776)
          (Ex.base 0)) := by
  have e : ∀ L : Nat → Nat, eval word64 G L (exIn word64 t 1099511627776) exDown =
      word64.ofNat (L 0 + (18446744073709551616 - 1099511627776)) := by
    intro L
    rw [eval_exDown]
    show word64.add (word64.ofNat (L 0)) (word64.neg (word64.ofNat 1099511627776)) = _
    rw [word64_neg_ofNat (by decide), ← word64.ofNat_add]
  have eb : ∀ L : Nat → Nat, eval word64 G L (exIn word64 t 1099511627776) (Ex.base 0) =
      word64.ofNat (L 0) := fun _ => rfl
  rw [e, e, eb, eb, word64_toNat_ofNat, word64_toNat_ofNat, word64_toNat_ofNat,
    word64_toNat_ofNat, Nat.mod_eq_of_lt (by decide), Nat.mod_eq_of_lt (by decide),
    Nat.mod_eq_sub_mod (by decide), Nat.mod_eq_of_lt (by decide), Nat.mod_eq_of_lt (by decide)]
  exact ⟨by decide, by decide⟩

/-! ## The rules as a function

`tyOf e`: the provenance the executor computes for a value, `none` where it refuses the
operation; it decides the judgement (`tyOf_sound`, `tyOf_complete`). -/

/-- `add` on provenances. -/
def tyAdd : Option Ty → Option Ty → Option Ty
  | some Ty.plain, some Ty.plain => some Ty.plain
  | some (Ty.addr r), some Ty.plain => some (Ty.addr r)
  | some Ty.plain, some (Ty.addr r) => some (Ty.addr r)
  | _, _ => none

def tySub : Option Ty → Option Ty → Option Ty
  | some Ty.plain, some Ty.plain => some Ty.plain
  | some (Ty.addr r), some Ty.plain => some (Ty.addr r)
  | some (Ty.addr r), some (Ty.addr s) => if r = s then some Ty.plain else none
  | _, _ => none

def tyPlain2 : Option Ty → Option Ty → Option Ty
  | some Ty.plain, some Ty.plain => some Ty.plain
  | _, _ => none

def tyMad : Option Ty → Option Ty → Option Ty → Option Ty
  | some Ty.plain, some Ty.plain, some t => some t
  | _, _, _ => none

def tyOf : Ex → Option Ty
  | Ex.base r => some (Ty.addr r)
  | Ex.lit _ => some Ty.plain
  | Ex.inp _ => some Ty.plain
  | Ex.add a b => tyAdd (tyOf a) (tyOf b)
  | Ex.sub a b => tySub (tyOf a) (tyOf b)
  | Ex.mul a b => tyPlain2 (tyOf a) (tyOf b)
  | Ex.mad a b c => tyMad (tyOf a) (tyOf b) (tyOf c)
  | Ex.cvt a => tyOf a
  | Ex.op _ a b => tyPlain2 (tyOf a) (tyOf b)

theorem tyOf_complete {e : Ex} {t : Ty} (h : HasTy e t) : tyOf e = some t := by
  induction h with
  | base r => rfl
  | lit n => rfl
  | inp i => rfl
  | addPP _ _ iha ihb => show tyAdd _ _ = _; rw [iha, ihb]; rfl
  | addAP _ _ iha ihb => show tyAdd _ _ = _; rw [iha, ihb]; rfl
  | addPA _ _ iha ihb => show tyAdd _ _ = _; rw [iha, ihb]; rfl
  | subPP _ _ iha ihb => show tySub _ _ = _; rw [iha, ihb]; rfl
  | subAP _ _ iha ihb => show tySub _ _ = _; rw [iha, ihb]; rfl
  | subAA _ _ iha ihb =>
    show tySub _ _ = _
    rw [iha, ihb]
    exact if_pos' rfl
  | mulPP _ _ iha ihb => show tyPlain2 _ _ = _; rw [iha, ihb]; rfl
  | madP _ _ _ iha ihb ihc => show tyMad _ _ _ = _; rw [iha, ihb, ihc]; rfl
  | madA _ _ _ iha ihb ihc => show tyMad _ _ _ = _; rw [iha, ihb, ihc]; rfl
  | cvt _ ih => exact ih
  | opPP _ _ iha ihb => show tyPlain2 _ _ = _; rw [iha, ihb]; rfl

theorem tyAdd_sound {a b : Ex} {t : Ty} :
    ∀ (x y : Option Ty), (∀ {u}, x = some u → HasTy a u) → (∀ {u}, y = some u → HasTy b u) →
      tyAdd x y = some t → HasTy (Ex.add a b) t
  | some Ty.plain, some Ty.plain, ha, hb, h => by
    cases h; exact HasTy.addPP (ha rfl) (hb rfl)
  | some (Ty.addr r), some Ty.plain, ha, hb, h => by
    cases h; exact HasTy.addAP (ha rfl) (hb rfl)
  | some Ty.plain, some (Ty.addr r), ha, hb, h => by
    cases h; exact HasTy.addPA (ha rfl) (hb rfl)
  | some (Ty.addr r), some (Ty.addr s), _, _, h => by cases h
  | none, _, _, _, h => by cases h
  | some Ty.plain, none, _, _, h => by cases h
  | some (Ty.addr r), none, _, _, h => by cases h

theorem tySub_sound {a b : Ex} {t : Ty} :
    ∀ (x y : Option Ty), (∀ {u}, x = some u → HasTy a u) → (∀ {u}, y = some u → HasTy b u) →
      tySub x y = some t → HasTy (Ex.sub a b) t
  | some Ty.plain, some Ty.plain, ha, hb, h => by
    cases h; exact HasTy.subPP (ha rfl) (hb rfl)
  | some (Ty.addr r), some Ty.plain, ha, hb, h => by
    cases h; exact HasTy.subAP (ha rfl) (hb rfl)
  | some (Ty.addr r), some (Ty.addr s), ha, hb, h =>
    if hrs : r = s then by
      have h' : some Ty.plain = some t := Eq.trans (if_pos' hrs).symm h
      cases h'
      cases hrs
      exact HasTy.subAA (ha rfl) (hb rfl)
    else by
      have h' : none = some t := Eq.trans (if_neg' hrs).symm h
      cases h'
  | some Ty.plain, some (Ty.addr r), _, _, h => by cases h
  | none, _, _, _, h => by cases h
  | some Ty.plain, none, _, _, h => by cases h
  | some (Ty.addr r), none, _, _, h => by cases h

theorem tyMul_sound {a b : Ex} {t : Ty} :
    ∀ (x y : Option Ty), (∀ {u}, x = some u → HasTy a u) → (∀ {u}, y = some u → HasTy b u) →
      tyPlain2 x y = some t → HasTy (Ex.mul a b) t
  | some Ty.plain, some Ty.plain, ha, hb, h => by
    cases h; exact HasTy.mulPP (ha rfl) (hb rfl)
  | some (Ty.addr r), some _, _, _, h => by cases h
  | some Ty.plain, some (Ty.addr r), _, _, h => by cases h
  | none, _, _, _, h => by cases h
  | some Ty.plain, none, _, _, h => by cases h
  | some (Ty.addr r), none, _, _, h => by cases h

theorem tyOp_sound {k : Nat} {a b : Ex} {t : Ty} :
    ∀ (x y : Option Ty), (∀ {u}, x = some u → HasTy a u) → (∀ {u}, y = some u → HasTy b u) →
      tyPlain2 x y = some t → HasTy (Ex.op k a b) t
  | some Ty.plain, some Ty.plain, ha, hb, h => by
    cases h; exact HasTy.opPP (ha rfl) (hb rfl)
  | some (Ty.addr r), some _, _, _, h => by cases h
  | some Ty.plain, some (Ty.addr r), _, _, h => by cases h
  | none, _, _, _, h => by cases h
  | some Ty.plain, none, _, _, h => by cases h
  | some (Ty.addr r), none, _, _, h => by cases h

theorem tyMad_sound {a b c : Ex} {t : Ty} :
    ∀ (x y z : Option Ty), (∀ {u}, x = some u → HasTy a u) →
      (∀ {u}, y = some u → HasTy b u) → (∀ {u}, z = some u → HasTy c u) →
      tyMad x y z = some t → HasTy (Ex.mad a b c) t
  | some Ty.plain, some Ty.plain, some Ty.plain, ha, hb, hc, h => by
    cases h; exact HasTy.madP (ha rfl) (hb rfl) (hc rfl)
  | some Ty.plain, some Ty.plain, some (Ty.addr r), ha, hb, hc, h => by
    cases h; exact HasTy.madA (ha rfl) (hb rfl) (hc rfl)
  | some Ty.plain, some Ty.plain, none, _, _, _, h => by cases h
  | some (Ty.addr r), some _, _, _, _, _, h => by cases h
  | some Ty.plain, some (Ty.addr r), _, _, _, _, h => by cases h
  | none, _, _, _, _, _, h => by cases h
  | some Ty.plain, none, _, _, _, _, h => by cases h
  | some (Ty.addr r), none, _, _, _, _, h => by cases h

/-- The function computes exactly the judgement. -/
theorem tyOf_sound : ∀ (e : Ex) {t : Ty}, tyOf e = some t → HasTy e t
  | Ex.base r, t, h => by cases h; exact HasTy.base r
  | Ex.lit n, t, h => by cases h; exact HasTy.lit n
  | Ex.inp i, t, h => by cases h; exact HasTy.inp i
  | Ex.add a b, t, h => tyAdd_sound _ _ (tyOf_sound a) (tyOf_sound b) h
  | Ex.sub a b, t, h => tySub_sound _ _ (tyOf_sound a) (tyOf_sound b) h
  | Ex.mul a b, t, h => tyMul_sound _ _ (tyOf_sound a) (tyOf_sound b) h
  | Ex.mad a b c, t, h => tyMad_sound _ _ _ (tyOf_sound a) (tyOf_sound b) (tyOf_sound c) h
  | Ex.cvt a, t, h => HasTy.cvt (tyOf_sound a h)
  | Ex.op k a b, t, h => tyOp_sound _ _ (tyOf_sound a) (tyOf_sound b) h

theorem tyOf_examples :
    tyOf exOob = some (Ty.addr 0) ∧ tyOf exDown = some (Ty.addr 0) ∧
      tyOf (Ex.mul (Ex.base 0) (Ex.lit 4)) = none ∧
      tyOf (Ex.sub (Ex.base 0) (Ex.base 1)) = none ∧
      tyOf (Ex.sub (Ex.base 0) (Ex.base 0)) = some Ty.plain :=
  ⟨rfl, rfl, rfl, rfl, rfl⟩

end Provenance
end Kcert
