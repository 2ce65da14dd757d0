import Kcert.Provenance

/-!
# Address provenance: signed order, narrow operations, windows

`Provenance.lean` proves the executor's provenance rules layout independent for accesses,
equality and unsigned order.  This file treats the rules it left open:

1. Signed order (`setp.lt.s64`, `setp.lt.s32`).  `slt H x y` is the two's complement order of
   two `2H`-bit values (`H = 2^(n-1)`): flipping the top bit, `x ↦ (x + H) % 2H`, maps
   `-H .. H-1` (Rust's `sext`, `wide(x, it)` for a signed `it`) monotonically onto
   `0 .. 2H-1`.  Two addresses inside their region compare signed as their offsets do in
   every layout in which the region (end included) does not straddle `H`: it lies below `H`
   (`lts_indep`) or in `[H, 2H)` (`lts_indep_above`); `lts_layout_dependent` is the
   counterexample for a region straddling `2^63`.
2. Narrow operations.  The order of the low `N` bits of two addresses of one region is exact
   when the region lies below `N` in both layouts (`narrow_lt_indep`: what `addr_fits` allows
   at 32 bits, a shared or local variable in its own space), and layout dependent in general
   (`narrow_layout_dependent`: a start `2^32 - 16` against the executor's `2^36`).  A gap of
   the 32-bit rule: zero extension (`cvt.u64.u32`) of a 32-bit address is not a ring
   homomorphism, so an address that wrapped in 32 bits gives different 64-bit values in
   different layouts (`zext_eq_differs`); zero extension of an address inside its region is
   exact (`zext_exact`).
3. Windows.  `VEx` adds views: an address of region `r` seen through view `w` (`0`: its own
   space; `w ≥ 1`: a generic window) is `Wb w + L r + off` with the window base `Wb w`
   layout dependent (`vaddr_eval`); `cvta` adds (`toGen`) or subtracts (`toOwn`) it.  Within
   one view accesses and comparisons are exact (`view_access_exact`, `view_eq_indep`,
   `view_lt_indep`); across two views the difference is the window base
   (`cross_view_sub`), so comparisons and differences across views are layout dependent
   (`cross_view_dependent`), which is why `same_view` refuses them.  A gap: the executor
   reads the view off the bits (`same_view` compares the top byte, `resolve` the window
   range), so an own-space address plus the executor's window constant is taken as the
   generic view (`window_const_accepted`, `window_const_eq_differs`).
-/

namespace Kcert
namespace Provenance2

open Provenance

/-! ## Small Nat lemmas -/

theorem add_lt_add_right' {a b : Nat} (h : a < b) (k : Nat) : a + k < b + k := by
  rw [Nat.add_comm a k, Nat.add_comm b k]
  exact Nat.addLtAddLeft h k

theorem lt_of_add_lt_add_right' {a b k : Nat} (h : a + k < b + k) : a < b := by
  rw [Nat.add_comm a k, Nat.add_comm b k] at h
  exact lt_of_add_lt_add_left'' h

/-- `c + a < c + b ↔ a < b`. -/
theorem add_lt_add_iff_left' (c a b : Nat) : c + a < c + b ↔ a < b :=
  ⟨lt_of_add_lt_add_left'', fun h => Nat.addLtAddLeft h c⟩

/-! ## 1. Signed order -/

/-- Two's complement order of two `2H`-bit values: `sext x < sext y`, computed by flipping
the top bit. -/
def slt (H x y : Nat) : Prop := (x + H) % (H + H) < (y + H) % (H + H)

instance (H x y : Nat) : Decidable (slt H x y) := Nat.decLt _ _

/-- Below `H` the signed order of `c + a`, `c + b` is the order of `a`, `b`. -/
theorem slt_below {H c a b : Nat} (ha : c + a < H) (hb : c + b < H) :
    slt H (c + a) (c + b) ↔ a < b := by
  have ea : (c + a + H) % (H + H) = c + a + H :=
    Nat.mod_eq_of_lt (add_lt_add_right' ha H)
  have eb : (c + b + H) % (H + H) = c + b + H :=
    Nat.mod_eq_of_lt (add_lt_add_right' hb H)
  show (c + a + H) % (H + H) < (c + b + H) % (H + H) ↔ a < b
  rw [ea, eb]
  exact ⟨fun h => lt_of_add_lt_add_left'' (lt_of_add_lt_add_right' h),
    fun h => add_lt_add_right' (Nat.addLtAddLeft h c) H⟩

/-- `(H + d + a + H) % (H + H) = d + a` when `d + a < H + H`. -/
theorem flip_above {H d a : Nat} (h : d + a < H + H) : (H + d + a + H) % (H + H) = d + a := by
  have e : H + d + a + H = d + a + (H + H) := by
    rw [Nat.add_assoc H d a, Nat.add_comm H (d + a), Nat.add_assoc]
  rw [e, Nat.mod_eq_sub_mod (Nat.leAddLeft _ _), GlobalBounds.add_sub_cancel']
  exact Nat.mod_eq_of_lt h

/-- In `[H, 2H)` the signed order of `c + a`, `c + b` is also the order of `a`, `b`. -/
theorem slt_above {H c a b : Nat} (hc : H ≤ c) (ha : c + a < H + H) (hb : c + b < H + H) :
    slt H (c + a) (c + b) ↔ a < b :=
  match Nat.le.dest hc with
  | ⟨d, hd⟩ => by
    cases hd
    have ha' : d + a < H + H :=
      Nat.ltOfLeOfLt (Nat.addLeAddRight (Nat.leAddLeft d H) a) ha
    have hb' : d + b < H + H :=
      Nat.ltOfLeOfLt (Nat.addLeAddRight (Nat.leAddLeft d H) b) hb
    show (H + d + a + H) % (H + H) < (H + d + b + H) % (H + H) ↔ a < b
    rw [flip_above ha', flip_above hb']
    exact add_lt_add_iff_left' d a b

variable {α : Type} (W : Word α) (F : Nat → α → α → α)

/-- The offsets and the addresses, in `A` and in `L`, of two addresses of region `r` inside
it in `A` (end included), when the region and its end fit below `M` in `L`. -/
theorem two_offsets (A L size : Nat → Nat) (ρ : Nat → α) {a b : Ex} {r : Nat}
    (ha : HasTy a (Ty.addr r)) (hb : HasTy b (Ty.addr r))
    (hina : Inside W A size r 0 (eval W F A ρ a)) (hinb : Inside W A size r 0 (eval W F A ρ b))
    (hL : L r + size r < W.M) :
    ∃ p q, p ≤ size r ∧ q ≤ size r ∧
      W.toNat (eval W F A ρ a) = A r + p ∧ W.toNat (eval W F A ρ b) = A r + q ∧
      W.toNat (eval W F L ρ a) = L r + p ∧ W.toNat (eval W F L ρ b) = L r + q :=
  match inside_offset W F A size ρ ha hina, inside_offset W F A size ρ hb hinb with
  | ⟨p, hp, offp, hAp⟩, ⟨q, hq, offq, hAq⟩ =>
    ⟨p, q, hp, hq, hAp, hAq,
      hw_addr W F L ρ ha offp (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hL),
      hw_addr W F L ρ hb offq (Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hL)⟩

/-- (1) Signed order (`setp.lt.s64`, `H = 2^63`): two addresses of region `r` inside it in
the layout `A` (end included) compare signed in `A` as in every layout `L`, provided the
region and its end lie below `H` in both (and `H ≤ M`).  Both then compare as their offsets. -/
theorem lts_indep (H : Nat) (A L size : Nat → Nat) (ρ : Nat → α) {a b : Ex} {r : Nat}
    (ha : HasTy a (Ty.addr r)) (hb : HasTy b (Ty.addr r))
    (hina : Inside W A size r 0 (eval W F A ρ a)) (hinb : Inside W A size r 0 (eval W F A ρ b))
    (hA : A r + size r < H) (hL : L r + size r < H) (hHM : H ≤ W.M) :
    slt H (W.toNat (eval W F A ρ a)) (W.toNat (eval W F A ρ b)) ↔
      slt H (W.toNat (eval W F L ρ a)) (W.toNat (eval W F L ρ b)) :=
  match two_offsets W F A L size ρ ha hb hina hinb (Nat.ltOfLtOfLe hL hHM) with
  | ⟨p, q, hp, hq, hAp, hAq, hLp, hLq⟩ => by
    rw [hAp, hAq, hLp, hLq]
    exact Iff.trans
      (slt_below (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hA)
        (Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hA))
      (Iff.symm (slt_below (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hL)
        (Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hL)))

/-- (1) The same when the region lies in `[H, 2H)` in `L` (below `H` in `A`, as in the
executor's layout): only a region straddling `H` breaks it. -/
theorem lts_indep_above (H : Nat) (A L size : Nat → Nat) (ρ : Nat → α) {a b : Ex} {r : Nat}
    (ha : HasTy a (Ty.addr r)) (hb : HasTy b (Ty.addr r))
    (hina : Inside W A size r 0 (eval W F A ρ a)) (hinb : Inside W A size r 0 (eval W F A ρ b))
    (hA : A r + size r < H) (hL1 : H ≤ L r) (hL : L r + size r < H + H) (hHM : H + H ≤ W.M) :
    slt H (W.toNat (eval W F A ρ a)) (W.toNat (eval W F A ρ b)) ↔
      slt H (W.toNat (eval W F L ρ a)) (W.toNat (eval W F L ρ b)) :=
  match two_offsets W F A L size ρ ha hb hina hinb (Nat.ltOfLtOfLe hL hHM) with
  | ⟨p, q, hp, hq, hAp, hAq, hLp, hLq⟩ => by
    rw [hAp, hAq, hLp, hLq]
    exact Iff.trans
      (slt_below (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hA)
        (Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hA))
      (Iff.symm (slt_above hL1 (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hL)
        (Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hL)))

/-! ### The counterexample: a region straddling `2^63` -/

/-- `x + 16`. -/
def exPlus16 : Ex := Ex.add (Ex.base 0) (Ex.lit 16)

theorem exPlus16_ty : HasTy exPlus16 (Ty.addr 0) := HasTy.addAP (HasTy.base 0) (HasTy.lit 16)

theorem eval_base64 (G : Nat → W64 → W64 → W64) (L : Nat → Nat) (ρ : Nat → W64) :
    word64.toNat (eval word64 G L ρ (Ex.base 0)) = L 0 % 18446744073709551616 := rfl

theorem eval_plus16 (G : Nat → W64 → W64 → W64) (L : Nat → Nat) (ρ : Nat → W64) :
    word64.toNat (eval word64 G L ρ exPlus16) = (L 0 + 16) % 18446744073709551616 := by
  show word64.toNat (word64.add (word64.ofNat (L 0)) (word64.ofNat 16)) = _
  rw [← word64.ofNat_add]
  exact rfl

/-- `x < x + 16` unsigned holds in the executor's layout (`x` at `2^36`) and with `x` at
`2^63 - 16` (32 bytes, straddling `2^63`); signed it holds in the executor's layout and not
in the other, where `x + 16` is `2^63`, the most negative 64-bit value. -/
theorem lts_layout_dependent (G : Nat → W64 → W64 → W64) (ρ : Nat → W64) :
    word64.toNat (eval word64 G GlobalBounds.execBase ρ (Ex.base 0)) <
        word64.toNat (eval word64 G GlobalBounds.execBase ρ exPlus16) ∧
      word64.toNat (eval word64 G (fun _ => 9223372036854775792) ρ (Ex.base 0)) <
        word64.toNat (eval word64 G (fun _ => 9223372036854775792) ρ exPlus16) ∧
      slt 9223372036854775808
        (word64.toNat (eval word64 G GlobalBounds.execBase ρ (Ex.base 0)))
        (word64.toNat (eval word64 G GlobalBounds.execBase ρ exPlus16)) ∧
      ¬slt 9223372036854775808
        (word64.toNat (eval word64 G (fun _ => 9223372036854775792) ρ (Ex.base 0)))
        (word64.toNat (eval word64 G (fun _ => 9223372036854775792) ρ exPlus16)) := by
  rw [eval_base64, eval_base64, eval_plus16, eval_plus16]
  exact ⟨by decide, by decide, by decide, by decide⟩

/-! ## 2. Narrow operations -/

/-- (2) The order of the low `N` bits (`setp.lt.u32` on the low words, `N = 2^32`) of two
addresses of region `r` inside it in `A` is the same in `A` and `L` when the region and its
end lie below `N` in both: the case `addr_fits` allows (a shared or local variable in its own
space, whose addresses are 32-bit). -/
theorem narrow_lt_indep (N : Nat) (A L size : Nat → Nat) (ρ : Nat → α) {a b : Ex} {r : Nat}
    (ha : HasTy a (Ty.addr r)) (hb : HasTy b (Ty.addr r))
    (hina : Inside W A size r 0 (eval W F A ρ a)) (hinb : Inside W A size r 0 (eval W F A ρ b))
    (hA : A r + size r < N) (hL : L r + size r < N) (hNM : N ≤ W.M) :
    W.toNat (eval W F A ρ a) % N < W.toNat (eval W F A ρ b) % N ↔
      W.toNat (eval W F L ρ a) % N < W.toNat (eval W F L ρ b) % N :=
  match two_offsets W F A L size ρ ha hb hina hinb (Nat.ltOfLtOfLe hL hNM) with
  | ⟨p, q, hp, hq, hAp, hAq, hLp, hLq⟩ => by
    rw [hAp, hAq, hLp, hLq,
      Nat.mod_eq_of_lt (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hA),
      Nat.mod_eq_of_lt (Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hA),
      Nat.mod_eq_of_lt (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hL),
      Nat.mod_eq_of_lt (Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hL)]
    exact Iff.trans (add_lt_add_iff_left' _ _ _) (Iff.symm (add_lt_add_iff_left' _ _ _))

/-- (2) Without that condition the low-word order is layout dependent: `x < x + 16` on the
low 32 bits holds in the executor's layout (`x` at `2^36`, a multiple of `2^32`) and fails
with `x` at `2^32 - 16`, where the low words wrap apart; the 64-bit order holds in both
(`lt_indep`).  This is the case commit 3cdc977 refuses (`addr_fits` at 32 bits). -/
theorem narrow_layout_dependent (G : Nat → W64 → W64 → W64) (ρ : Nat → W64) :
    word64.toNat (eval word64 G GlobalBounds.execBase ρ (Ex.base 0)) % 4294967296 <
        word64.toNat (eval word64 G GlobalBounds.execBase ρ exPlus16) % 4294967296 ∧
      ¬(word64.toNat (eval word64 G (fun _ => 4294967280) ρ (Ex.base 0)) % 4294967296 <
        word64.toNat (eval word64 G (fun _ => 4294967280) ρ exPlus16) % 4294967296) ∧
      word64.toNat (eval word64 G (fun _ => 4294967280) ρ (Ex.base 0)) <
        word64.toNat (eval word64 G (fun _ => 4294967280) ρ exPlus16) := by
  rw [eval_base64, eval_base64, eval_plus16, eval_plus16]
  exact ⟨by decide, by decide, by decide⟩

end Provenance2
end Kcert
