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
   exact (`zext_exact`).  The same for sign extension across `2^31` (`sext_eq_differs`,
   `sext_exact`).
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

/-! ### Zero extension of a 32-bit address -/

/-- The 32-bit registers: `ℤ/2^32`. -/
abbrev W32 : Type := ZM 4294967296

def word32 : Word W32 := zm 4294967296 (by decide)

/-- (2) Zero extension (`cvt.u64.u32`, `toNat` of the 32-bit word) of an address that is
inside its region (end included) in the layout `A` is exact: it is `L r + p`, with the same
offset `p ≤ size r`, in every layout `L` in which the region lies below `M` (`2^32`).  So an
`in_region` test before the extension would make it layout independent. -/
theorem zext_exact (A size : Nat → Nat) (ρ : Nat → α) {e : Ex} {r : Nat}
    (h : HasTy e (Ty.addr r)) (hin : Inside W A size r 0 (eval W F A ρ e)) :
    ∃ p, p ≤ size r ∧ W.toNat (eval W F A ρ e) = A r + p ∧
      ∀ L : Nat → Nat, L r + size r < W.M → W.toNat (eval W F L ρ e) = L r + p :=
  match inside_offset W F A size ρ h hin with
  | ⟨p, hp, offp, hAp⟩ =>
    ⟨p, hp, hAp, fun L hL =>
      hw_addr W F L ρ h offp (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hL)⟩

/-- `mov.u32 %r5, sa; sub.u32 %r6, %r5, 16; cvt.u64.u32 %rd5, %r6; add.u64 %rd6, %rd5, 16`
with `sa` at `s` in the shared space: the value of `%rd6`.  The executor gives `sub.u32` and
`add.u64` of an address (`addr_in`) and `cvt.u64.u32` of a 32-bit shared address
(`cvt`, `addr_fits`) these meanings, keeping the region. -/
def zextChain (s : Nat) : W64 :=
  word64.add
    (word64.ofNat (word32.toNat (word32.add (word32.ofNat s) (word32.neg (word32.ofNat 16)))))
    (word64.ofNat 16)

/-- The gap: `setp.eq.u64 %p1, %rd6, %rd7` with `%rd7 = sa` (`mov.u64 %rd7, sa`), two
addresses of `sa` in one view, which the executor compares (equality needs no `in_region`).
With `sa` at 0 (the executor's layout: the first shared variable) `%rd6 = 2^32 ≠ sa`; with
`sa` at 1024 (any start `≥ 16` on the hardware) `%rd6 = sa`.  A branch on `%p1` goes one way
in the executor's run and the other on the hardware. -/
theorem zext_eq_differs : zextChain 0 ≠ word64.ofNat 0 ∧ zextChain 1024 = word64.ofNat 1024 :=
  ⟨fun h => absurd (congrArg ZM.val h) (by decide), ZM.ext (by decide)⟩

/-- The executor's value of `%rd6` is `2^32`, outside `sa` (a 128-byte variable at 0). -/
theorem zextChain_exec : word64.toNat (zextChain 0) = 4294967296 := by decide

/-! ### Sign extension of a 32-bit address -/

/-- Sign extension of a 32-bit value to 64 bits (`cvt.s64.s32`; Rust `sext(v, 32)` read as
`u64`): values from `2^31` on get the high word `0xffff_ffff`. -/
def sext32 (x : Nat) : Nat := if x < 2147483648 then x else x + 18446744069414584320

/-- (2) Sign extension of a 32-bit address inside its region in `A` is `L r + p`, one offset,
in every layout with the region (end included) below `2^31`. -/
theorem sext_exact (A size : Nat → Nat) (G : Nat → W32 → W32 → W32) (ρ : Nat → W32) {e : Ex}
    {r : Nat} (h : HasTy e (Ty.addr r)) (hin : Inside word32 A size r 0 (eval word32 G A ρ e)) :
    ∃ p, p ≤ size r ∧ ∀ L : Nat → Nat, L r + size r < 2147483648 →
      sext32 (word32.toNat (eval word32 G L ρ e)) = L r + p :=
  match zext_exact word32 G A size ρ h hin with
  | ⟨p, hp, _, hall⟩ =>
    ⟨p, hp, fun L hL => by
      have hL' : L r + size r < word32.M := Nat.ltOfLtOfLe hL (by decide)
      rw [hall L hL']
      exact if_pos' (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hL)⟩

/-- `mov.u32 %r5, sa; add.u32 %r6, %r5, 2^31 - 8; cvt.s64.s32 %rd5, %r6;
sub.s64 %rd6, %rd5, %rd8` with `%rd8 = 2^31 - 8` (plain), `sa` at `s`: the value of `%rd6`. -/
def sextChain (s : Nat) : W64 :=
  word64.add
    (word64.ofNat (sext32 (word32.toNat (word32.add (word32.ofNat s) (word32.ofNat 2147483640)))))
    (word64.neg (word64.ofNat 2147483640))

/-- The same gap with sign extension: `setp.eq.u64 %p1, %rd6, sa` is true with `sa` at 0 (the
executor's layout) and false with `sa` at 1024, where `sa + 2^31 - 8` crosses `2^31`. -/
theorem sext_eq_differs : sextChain 0 = word64.ofNat 0 ∧ sextChain 1024 ≠ word64.ofNat 1024 :=
  ⟨ZM.ext (by decide), fun h => absurd (congrArg ZM.val h) (by decide)⟩

/-! ## 3. Windows -/

/-- Expressions with views.  `base r`: the address of variable `r` in its own space
(`mov.u64 %rd, sa`); `toGen w a`: `cvta.<space>` to the generic window `w ≥ 1`; `toOwn w a`:
`cvta.to.<space>` back from it. -/
inductive VEx where
  | base : Nat → VEx
  | lit : Nat → VEx
  | inp : Nat → VEx
  | add : VEx → VEx → VEx
  | sub : VEx → VEx → VEx
  | toGen : Nat → VEx → VEx
  | toOwn : Nat → VEx → VEx

/-- `addr r w`: an address of region `r` seen through view `w` (`0`: its own space). -/
inductive VTy where
  | plain : VTy
  | addr : Nat → Nat → VTy

/-- The provenance rules with the view carried: `Addr ± n` keeps region and view, the
difference of two addresses of one region in one view is plain, `cvta` changes the view. -/
inductive VHas : VEx → VTy → Prop where
  | base (r : Nat) : VHas (VEx.base r) (VTy.addr r 0)
  | lit (n : Nat) : VHas (VEx.lit n) VTy.plain
  | inp (i : Nat) : VHas (VEx.inp i) VTy.plain
  | addPP {a b : VEx} : VHas a VTy.plain → VHas b VTy.plain → VHas (VEx.add a b) VTy.plain
  | addAP {a b : VEx} {r w : Nat} : VHas a (VTy.addr r w) → VHas b VTy.plain →
      VHas (VEx.add a b) (VTy.addr r w)
  | addPA {a b : VEx} {r w : Nat} : VHas a VTy.plain → VHas b (VTy.addr r w) →
      VHas (VEx.add a b) (VTy.addr r w)
  | subPP {a b : VEx} : VHas a VTy.plain → VHas b VTy.plain → VHas (VEx.sub a b) VTy.plain
  | subAP {a b : VEx} {r w : Nat} : VHas a (VTy.addr r w) → VHas b VTy.plain →
      VHas (VEx.sub a b) (VTy.addr r w)
  | subAA {a b : VEx} {r w : Nat} : VHas a (VTy.addr r w) → VHas b (VTy.addr r w) →
      VHas (VEx.sub a b) VTy.plain
  | toGen {a : VEx} {r : Nat} (w : Nat) : VHas a (VTy.addr r 0) →
      VHas (VEx.toGen w a) (VTy.addr r w)
  | toOwn {a : VEx} {r w : Nat} : VHas a (VTy.addr r w) → VHas (VEx.toOwn w a) (VTy.addr r 0)

/-- Evaluation in the layout `L` (region `r` at `L r` in its own space) with window bases
`Wb` (`Wb 0 = 0`: the own view). -/
def veval (L Wb : Nat → Nat) (ρ : Nat → α) : VEx → α
  | VEx.base r => W.ofNat (L r)
  | VEx.lit n => W.ofNat n
  | VEx.inp i => ρ i
  | VEx.add a b => W.add (veval L Wb ρ a) (veval L Wb ρ b)
  | VEx.sub a b => W.add (veval L Wb ρ a) (W.neg (veval L Wb ρ b))
  | VEx.toGen w a => W.add (W.ofNat (Wb w)) (veval L Wb ρ a)
  | VEx.toOwn w a => W.add (veval L Wb ρ a) (W.neg (W.ofNat (Wb w)))

/-- The offset: the value with every region and every window at 0. -/
def voff (ρ : Nat → α) (e : VEx) : α := veval W (fun _ => 0) (fun _ => 0) ρ e

def VDen (L Wb : Nat → Nat) (ρ : Nat → α) (e : VEx) : VTy → Prop
  | VTy.plain => veval W L Wb ρ e = voff W ρ e
  | VTy.addr r w => veval W L Wb ρ e = W.add (W.ofNat (Wb w + L r)) (voff W ρ e)

theorem neg_zero' : W.neg W.zero = W.zero := by
  have h := W.add_neg W.zero
  rw [zero_add] at h
  exact h

theorem shift_back (x y o : α) : W.add (W.add (W.add x y) o) (W.neg x) = W.add y o := by
  rw [W.add_comm (W.add (W.add x y) o) (W.neg x), ← W.add_assoc, ← W.add_assoc,
    W.add_comm (W.neg x) x, W.add_neg, zero_add]

theorem add_sub_right' (x y : α) : W.add (W.add x y) (W.neg y) = x := by
  rw [W.add_assoc, W.add_neg, W.add_zero]

theorem vden (L Wb : Nat → Nat) (h0 : Wb 0 = 0) (ρ : Nat → α) {e : VEx} {t : VTy}
    (h : VHas e t) : VDen W L Wb ρ e t := by
  induction h with
  | base r =>
    show W.ofNat (L r) = W.add (W.ofNat (Wb 0 + L r)) (W.ofNat 0)
    rw [h0, Nat.zero_add, W.ofNat_zero, W.add_zero]
  | lit n => exact rfl
  | inp i => exact rfl
  | addPP _ _ iha ihb =>
    show W.add _ _ = W.add _ _
    rw [show veval W L Wb ρ _ = voff W ρ _ from iha, show veval W L Wb ρ _ = voff W ρ _ from ihb]
    exact rfl
  | addAP _ _ iha ihb =>
    show W.add _ _ = _
    rw [show veval W L Wb ρ _ = W.add _ (voff W ρ _) from iha,
      show veval W L Wb ρ _ = voff W ρ _ from ihb, W.add_assoc]
    exact rfl
  | addPA _ _ iha ihb =>
    show W.add _ _ = _
    rw [show veval W L Wb ρ _ = voff W ρ _ from iha,
      show veval W L Wb ρ _ = W.add _ (voff W ρ _) from ihb, left_comm]
    exact rfl
  | subPP _ _ iha ihb =>
    show W.add _ _ = W.add _ _
    rw [show veval W L Wb ρ _ = voff W ρ _ from iha, show veval W L Wb ρ _ = voff W ρ _ from ihb]
    exact rfl
  | subAP _ _ iha ihb =>
    show W.add _ _ = _
    rw [show veval W L Wb ρ _ = W.add _ (voff W ρ _) from iha,
      show veval W L Wb ρ _ = voff W ρ _ from ihb, W.add_assoc]
    exact rfl
  | subAA _ _ iha ihb =>
    show W.add _ _ = _
    rw [show veval W L Wb ρ _ = W.add _ (voff W ρ _) from iha,
      show veval W L Wb ρ _ = W.add _ (voff W ρ _) from ihb, sub_same]
    exact rfl
  | toGen w _ ih =>
    show W.add (W.ofNat (Wb w)) _ = W.add _ (W.add (W.ofNat 0) (voff W ρ _))
    rw [show veval W L Wb ρ _ = W.add _ (voff W ρ _) from ih, h0, Nat.zero_add, W.ofNat_zero,
      zero_add, W.ofNat_add, W.add_assoc]
  | toOwn _ ih =>
    show W.add _ (W.neg (W.ofNat (Wb _))) = W.add _ (W.add (voff W ρ _) (W.neg (W.ofNat 0)))
    rw [show veval W L Wb ρ _ = W.add _ (voff W ρ _) from ih, h0, Nat.zero_add, W.ofNat_zero,
      neg_zero', W.add_zero, W.ofNat_add, shift_back]

/-- (3) An address of region `r` in view `w` is `Wb w + L r + off` in every layout, with the
same layout-free offset. -/
theorem vaddr_eval (L Wb : Nat → Nat) (h0 : Wb 0 = 0) (ρ : Nat → α) {e : VEx} {r w : Nat}
    (h : VHas e (VTy.addr r w)) : veval W L Wb ρ e = W.add (W.ofNat (Wb w + L r)) (voff W ρ e) :=
  vden W L Wb h0 ρ h

/-- A plain value is layout free. -/
theorem vplain_eval (L Wb : Nat → Nat) (h0 : Wb 0 = 0) (ρ : Nat → α) {e : VEx}
    (h : VHas e VTy.plain) : veval W L Wb ρ e = voff W ρ e :=
  vden W L Wb h0 ρ h

/-- (3) Equality of two addresses of one region in one view is the equality of their
offsets, in every layout and for every window base. -/
theorem view_eq_indep (L Wb L' Wb' : Nat → Nat) (h0 : Wb 0 = 0) (h0' : Wb' 0 = 0)
    (ρ : Nat → α) {a b : VEx} {r w : Nat}
    (ha : VHas a (VTy.addr r w)) (hb : VHas b (VTy.addr r w)) :
    veval W L Wb ρ a = veval W L Wb ρ b ↔ veval W L' Wb' ρ a = veval W L' Wb' ρ b := by
  rw [vaddr_eval W L Wb h0 ρ ha, vaddr_eval W L Wb h0 ρ hb, vaddr_eval W L' Wb' h0' ρ ha,
    vaddr_eval W L' Wb' h0' ρ hb]
  exact ⟨fun e => by rw [cancel_left W e], fun e => by rw [cancel_left W e]⟩

/-- The start of region `r` seen through view `w`: `k` bytes at `x` lie in it. -/
def VInside (L Wb size : Nat → Nat) (r w k : Nat) (x : α) : Prop :=
  Wb w + L r ≤ W.toNat x ∧ W.toNat x + k ≤ Wb w + L r + size r

theorem start_offset {S sz k : Nat} {o x : α} (hx : x = W.add (W.ofNat S) o)
    (h1 : S ≤ W.toNat x) (h2 : W.toNat x + k ≤ S + sz) :
    ∃ p, p + k ≤ sz ∧ o = W.ofNat p ∧ W.toNat x = S + p :=
  match Nat.le.dest h1 with
  | ⟨p, hp⟩ => by
    refine ⟨p, ?_, ?_, hp.symm⟩
    · apply le_of_add_le_add_left'' (k := S)
      rw [← Nat.add_assoc, hp]
      exact h2
    · apply cancel_left W (x := W.ofNat S)
      rw [← hx, ← W.ofNat_add, hp, W.ofNat_toNat]

theorem start_addr {S p : Nat} {o x : α} (hx : x = W.add (W.ofNat S) o) (ho : o = W.ofNat p)
    (hM : S + p < W.M) : W.toNat x = S + p := by
  rw [hx, ho, ← W.ofNat_add, W.toNat_ofNat _ hM]

/-- (3) An access of `k > 0` bytes through an address of region `r` in view `w` that lies in
the region's bytes of that view in one layout `(A, WA)` is at one offset `p` of the region,
`p + k ≤ size r`, in every layout `(L, WL)` in which the view of the region fits below `M`. -/
theorem view_access_exact (A WA size : Nat → Nat) (hA0 : WA 0 = 0) (ρ : Nat → α) {e : VEx}
    {r w k : Nat} (h : VHas e (VTy.addr r w)) (hk : 0 < k)
    (hin : VInside W A WA size r w k (veval W A WA ρ e)) :
    ∃ p, p + k ≤ size r ∧ ∀ L WL : Nat → Nat, WL 0 = 0 → WL w + L r + size r ≤ W.M →
      W.toNat (veval W L WL ρ e) = WL w + L r + p :=
  match start_offset W (vaddr_eval W A WA hA0 ρ h) hin.1 hin.2 with
  | ⟨p, hp, ho, _⟩ =>
    ⟨p, hp, fun L WL h0 hL =>
      start_addr W (vaddr_eval W L WL h0 ρ h) ho
        (Nat.ltOfLtOfLe (Nat.addLtAddLeft (Nat.ltOfLtOfLe ((show p < p + k from Nat.addLtAddLeft hk p)) hp) _) hL)⟩

/-- (3) Unsigned order of two addresses of region `r` in one view `w`, both in the region's
bytes of that view in `(A, WA)` (end included): the same in every layout `(L, WL)` in which
that view of the region and its end fit below `M`. -/
theorem view_lt_indep (A WA L WL size : Nat → Nat) (hA0 : WA 0 = 0) (hL0 : WL 0 = 0)
    (ρ : Nat → α) {a b : VEx} {r w : Nat}
    (ha : VHas a (VTy.addr r w)) (hb : VHas b (VTy.addr r w))
    (hina : VInside W A WA size r w 0 (veval W A WA ρ a))
    (hinb : VInside W A WA size r w 0 (veval W A WA ρ b))
    (hL : WL w + L r + size r < W.M) :
    W.toNat (veval W A WA ρ a) < W.toNat (veval W A WA ρ b) ↔
      W.toNat (veval W L WL ρ a) < W.toNat (veval W L WL ρ b) :=
  match start_offset W (vaddr_eval W A WA hA0 ρ ha) hina.1 hina.2,
    start_offset W (vaddr_eval W A WA hA0 ρ hb) hinb.1 hinb.2 with
  | ⟨p, hp, hop, hAp⟩, ⟨q, hq, hoq, hAq⟩ => by
    rw [hAp, hAq, start_addr W (vaddr_eval W L WL hL0 ρ ha) hop
        (Nat.ltOfLeOfLt (Nat.addLeAddLeft hp _) hL),
      start_addr W (vaddr_eval W L WL hL0 ρ hb) hoq (Nat.ltOfLeOfLt (Nat.addLeAddLeft hq _) hL)]
    exact Iff.trans (add_lt_add_iff_left' _ _ _) (Iff.symm (add_lt_add_iff_left' _ _ _))

/-! ### Across views -/

/-- `cvta.shared.u64 %rd6, %rd5; sub.s64 %rd7, %rd6, %rd5` with `%rd5 = sa`: the generic
form minus the own-space form. -/
def exCross : VEx := VEx.sub (VEx.toGen 1 (VEx.base 0)) (VEx.base 0)

/-- (3) Its value is the window base, in every layout: it depends on where the hardware puts
the window. -/
theorem cross_view_sub (L Wb : Nat → Nat) (ρ : Nat → α) :
    veval W L Wb ρ exCross = W.ofNat (Wb 1) :=
  add_sub_right' W _ _

/-- (3) The rules refuse it (two views: `same_view`). -/
theorem cross_view_refused (t : VTy) : ¬VHas exCross t := by
  intro h
  cases h with
  | subAP _ hb => cases hb
  | subPP ha _ => cases ha
  | subAA ha hb =>
    cases ha
    cases hb

/-- (3) Concretely: the executor's shared window is `0x7f00_0000_0000_0000`; on a device whose
window is elsewhere (here `2^48`) the difference is another number, whatever the region's
place. -/
theorem cross_view_dependent (L L' : Nat → Nat) (ρ : Nat → W64) :
    word64.toNat (veval word64 L (fun w => if w = 0 then 0 else 9151314442816847872) ρ exCross)
        = 9151314442816847872 ∧
      word64.toNat (veval word64 L' (fun w => if w = 0 then 0 else 281474976710656) ρ exCross)
        = 281474976710656 := by
  rw [cross_view_sub, cross_view_sub]
  exact ⟨rfl, rfl⟩

/-! ### The gap: the executor reads the view off the bits

`same_view` compares the top bytes of the two addresses, and `resolve` sends a generic
address in `[0x7f00_0000_0000_0000, + 2^40)` to the shared window: the view is inferred from
the executor's bits, not carried.  `sa + 0x7f00_0000_0000_0000` (`mov.u64 %rd5, sa;
add.s64 %rd6, %rd5, 0x7f00000000000000`) is an own-space address plus a plain integer (view
0 by the rules), but in the executor's layout it has exactly the bits of the generic form of
`sa`. -/

/-- `sa + 0x7f00_0000_0000_0000`. -/
def exConst : VEx := VEx.add (VEx.base 0) (VEx.lit 9151314442816847872)

/-- The generic form of `sa`: `cvta.shared.u64`. -/
def exGen : VEx := VEx.toGen 1 (VEx.base 0)

theorem exConst_ty : VHas exConst (VTy.addr 0 0) := VHas.addAP (VHas.base 0) (VHas.lit _)

theorem exGen_ty : VHas exGen (VTy.addr 0 1) := VHas.toGen 1 (VHas.base 0)

/-- The executor's layout: `sa` at 0 in the shared space, the shared window at
`0x7f00_0000_0000_0000`. -/
def execWin : Nat → Nat := fun w => if w = 0 then 0 else 9151314442816847872

theorem eval_exConst (L Wb : Nat → Nat) (ρ : Nat → W64) :
    word64.toNat (veval word64 L Wb ρ exConst) = (L 0 + 9151314442816847872) % 18446744073709551616 := by
  show word64.toNat (word64.add (word64.ofNat (L 0)) (word64.ofNat 9151314442816847872)) = _
  rw [← word64.ofNat_add]
  exact rfl

theorem eval_exGen (L Wb : Nat → Nat) (ρ : Nat → W64) :
    word64.toNat (veval word64 L Wb ρ exGen) = (Wb 1 + L 0) % 18446744073709551616 := by
  show word64.toNat (word64.add (word64.ofNat (Wb 1)) (word64.ofNat (L 0))) = _
  rw [← word64.ofNat_add]
  exact rfl

/-- The gap, for accesses: in the executor's layout the 4 bytes at `sa + 0x7f00..` are bytes
of `sa`'s generic window (a generic `ld` through it passes `resolve`/`within_origin`), and
its bits equal those of `cvta.shared(sa)` (so `same_view` holds and `setp.eq` says equal).
On a device whose shared window `W'` is anywhere else below (`W' + 128 ≤ 0x7f00..`, which
holds for every 49-bit address), with `sa` wherever it fits, the same access lies neither
in `sa`'s generic bytes nor in its own-space bytes. -/
theorem window_const_accepted (ρ : Nat → W64) :
    VInside word64 (fun _ => 0) execWin (fun _ => 128) 0 1 4
        (veval word64 (fun _ => 0) execWin ρ exConst) ∧
      veval word64 (fun _ => 0) execWin ρ exConst = veval word64 (fun _ => 0) execWin ρ exGen ∧
      ∀ (L WL : Nat → Nat), WL 0 = 0 → WL 1 + 128 ≤ 9151314442816847872 →
        L 0 + 9151314442816847872 < 18446744073709551616 →
        ¬VInside word64 L WL (fun _ => 128) 0 1 4 (veval word64 L WL ρ exConst) ∧
        ¬VInside word64 L WL (fun _ => 128) 0 0 4 (veval word64 L WL ρ exConst) := by
  refine ⟨?_, ?_, ?_⟩
  · have e := eval_exConst (fun _ => 0) execWin ρ
    show execWin 1 + 0 ≤ word64.toNat (veval word64 (fun _ => 0) execWin ρ exConst) ∧
      word64.toNat (veval word64 (fun _ => 0) execWin ρ exConst) + 4 ≤ execWin 1 + 0 + 128
    rw [e]
    exact ⟨by decide, by decide⟩
  · apply ZM.ext
    exact Eq.trans (eval_exConst (fun _ => 0) execWin ρ)
      (Eq.trans (by decide : (0 + 9151314442816847872) % 18446744073709551616 =
          (execWin 1 + 0) % 18446744073709551616)
        (Eq.symm (eval_exGen (fun _ => 0) execWin ρ)))
  · intro L WL h0 hW hL
    have e : word64.toNat (veval word64 L WL ρ exConst) = L 0 + 9151314442816847872 := by
      rw [eval_exConst]
      exact Nat.mod_eq_of_lt hL
    refine ⟨fun hin => ?_, fun hin => ?_⟩
    · have h2 := hin.2
      rw [e] at h2
      -- WL 1 + L 0 + 128 ≤ L 0 + C < L 0 + C + 4
      have h3 : WL 1 + L 0 + 128 ≤ L 0 + 9151314442816847872 := by
        rw [Nat.add_right_comm, Nat.add_comm (WL 1 + 128) (L 0)]
        exact Nat.addLeAddLeft hW _
      have h4 : L 0 + 9151314442816847872 + 4 ≤ L 0 + 9151314442816847872 + 0 :=
        Nat.leTrans h2 h3
      exact absurd (le_of_add_le_add_left'' h4) (by decide)
    · have h2 := hin.2
      rw [e, h0, Nat.zero_add] at h2
      have h3 : L 0 + 9151314442816847872 + 4 ≤ L 0 + 128 := h2
      rw [Nat.add_assoc] at h3
      exact absurd (le_of_add_le_add_left'' h3) (by decide)

/-- The gap, for comparisons: `setp.eq.u64` of `sa + 0x7f00..` with `cvta.shared(sa)` (two
views by the rules, one top byte for `same_view`) is true in the executor's layout and false
on a device whose shared window is at `2^48`. -/
theorem window_const_eq_differs (ρ : Nat → W64) :
    veval word64 (fun _ => 0) execWin ρ exConst = veval word64 (fun _ => 0) execWin ρ exGen ∧
      veval word64 (fun _ => 1024) (fun w => if w = 0 then 0 else 281474976710656) ρ exConst ≠
        veval word64 (fun _ => 1024) (fun w => if w = 0 then 0 else 281474976710656) ρ exGen :=
  ⟨(window_const_accepted ρ).2.1, fun h => by
    have h' := congrArg word64.toNat h
    rw [eval_exConst, eval_exGen] at h'
    exact absurd h' (by decide)⟩

end Provenance2
end Kcert
