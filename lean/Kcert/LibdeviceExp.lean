import Kcert.Dyadic

/-!
# libdevice `expf`: `2^k` from the bits of a rounded float (`checker/src/exec/libdevice.rs`)

nvcc's libdevice `expf` computes `j = fma.rm(sat(u), c, 0x4B400001)` with `0 ≤ c ≤ 253`,
an integer in `[2^23 + 2^22 + 1, 2^23 + 2^22 + 254]`, and reads `shl.b32 bits(j), 23` as a
float.  The checker (`Machine::exp2_of_rounded_exponent`) gives that float the real value
`2^(j - 12583039)`.  This file proves the bit-level facts behind that reading, for every
such `j`, with Nat arithmetic only.

binary32 model (minimal): a bit pattern is `b : Nat` with `b < 2^32`; its fields are
`signF b = b / 2^31`, `expF b = (b / 2^23) % 256`, `mantF b = b % 2^23`.  A positive normal
pattern (`PosNormal`: sign 0, exponent field in `[1, 254]`) has the value
`(2^23 + mantF b) · 2^(expF b - 150)`, the dyadic `valOf b` (`Dyadic.val` reads it in any
`ExpField`).  An integer `j` in `[2^23, 2^24)` is encoded as `intBits j = 150 · 2^23 +
(j - 2^23)` (exponent field 150, mantissa `j - 2^23`); `intBits_unique` shows it is the only
positive normal pattern whose value is `j` (stated over Nat with `vnum b = 2^150 · value`:
no real numbers needed).

Theorems (`m = j - 12582912`):
* `fields_intBits`, `valOf_intBits`: `intBits j` is positive normal and its value is `j`;
  `intBits_unique`: it is the only positive normal pattern of value `j`
  (`bits_of_fields`: a sign-0 pattern is `mant + 2^23 · exp`).
* `intBits_magic` (a): for `1 ≤ m ≤ 254`, `intBits (12582912 + m) = 0x4B400000 + m`.
* `shl23_magic` (b): `((0x4B400000 + m) <<< 23) % 2^32 = m · 2^23` (any `m < 512`).
* `fields_shifted`, `val_shifted` (c): for `1 ≤ m ≤ 254`, the pattern `m · 2^23` is positive
  normal with exponent field `m` and mantissa 0, and its value is `2^(m - 127)`;
  `val_shifted_j`: that is `2^(j - 12583039)`.
* `magic_range` (d): for `f ≤ c ≤ 253`, `j = 12582913 + f` is in `[12582913, 12583166]` and
  `m = f + 1` is in `[1, 254]`.
* `expf_bits`: (a), (b), (c) chained: the float read from `shl.b32 bits(j), 23` has the value
  `2^(j - 12583039)`.
* `shlTerm_exact`: the checker's term `ex2(j + (-12583039))` (`shlTerm`, read with
  `Term.eval`, constants by `val`) has exactly that value when the term `j` has the value of
  such an integer, given `pow2 1 = 2` (true of the reals; `ExpField` does not demand it;
  `pow2_natCast`, `pow2_intCast`).

* `val_valOf_vnum`: `val (valOf b) · 2^150 = vnum b`, linking the two readings of a pattern.
* `rm_floor`: rounding down in `[2^23, 2^24)`: for an exact value `v = n / d` (naturals) in
  `[2^23, 2^24)`, `j = n / d` (the floor) is encoded by the positive normal `intBits j` and
  every positive normal pattern of value `≤ v` has value `≤ j` (values compared as
  `vnum b = (2^23 + mant) · 2^exp`, i.e. `2^150` times the value).
* `fma_magic`, `fma_rm_magic`: with `t · c = P / Q` and `P ≤ 253 · Q` (any float `t` in
  `[0, 1]`, float `c` in `[0, 253]`), the exact `v = t · c + 12582913` is in `[2^23, 2^24)`
  and the largest positive normal binary32 value `≤ v` is `j = 12582913 + P / Q`, in
  `[12582913, 12583166]`.

Not proved: that PTX `fma.rm` returns the largest binary32 value `≤` the exact `t · c + 12582913`
(this is what IEEE round-toward-negative means; it is taken as the definition, stated over
positive normal patterns: zero, subnormals and negative values are below `2^23`, infinities and
NaN are not values `≤ v`).  That `cvt.sat` gives `t` in `[0, 1]` is likewise IEEE's definition.
-/

namespace Kcert
namespace LibdeviceExp

open ExpField
open Dyadic

/-! ## Nat facts (the core library of this toolchain has almost none) -/

theorem add_sub_cancel' (a : Nat) : ∀ n : Nat, (a + n) - n = a
  | 0 => rfl
  | n + 1 => by
    show Nat.succ (a + n) - Nat.succ n = a
    rw [Nat.succ_sub_succ, add_sub_cancel' a n]

theorem le_add_left' (b n : Nat) : n ≤ b + n := Nat.leAddLeft n b

theorem le_of_add_le_add_left' (k a b : Nat) (h : k + a ≤ k + b) : a ≤ b :=
  if hab : a ≤ b then hab
  else absurd (Nat.leTrans (Nat.addLeAddLeft (Nat.gtOfNotLe hab) k) h) (Nat.notSuccLeSelf (k + b))

/-- `(b + n·a) % n = b` for `b < n`. -/
theorem mod_add_mul (n b : Nat) (hb : b < n) : ∀ a : Nat, (b + n * a) % n = b
  | 0 => Nat.mod_eq_of_lt hb
  | a + 1 => by
    show (b + (n * a + n)) % n = b
    rw [← Nat.add_assoc, Nat.mod_eq_sub_mod (le_add_left' _ n), add_sub_cancel',
      mod_add_mul n b hb a]

/-- `(b + n·a) / n = a` for `b < n`. -/
theorem div_add_mul (n b : Nat) (hb : b < n) : ∀ a : Nat, (b + n * a) / n = a
  | 0 => by
    show b / n = 0
    rw [Nat.div_eq]
    exact if_neg' (fun h => Nat.notLeOfGt hb h.2)
  | a + 1 => by
    show (b + (n * a + n)) / n = a + 1
    have hn : 0 < n := Nat.ltOfLeOfLt (Nat.zeroLe b) hb
    rw [← Nat.add_assoc, Nat.div_eq, if_pos' ⟨hn, le_add_left' _ n⟩, add_sub_cancel',
      div_add_mul n b hb a]

/-- `n <<< k = n · 2^k`. -/
theorem shiftLeft_eq : ∀ (k n : Nat), Nat.shiftLeft n k = n * 2 ^ k
  | 0, n => (Nat.mul_one n).symm
  | k + 1, n => by
    show Nat.shiftLeft (2 * n) k = n * (2 ^ k * 2)
    rw [shiftLeft_eq k (2 * n), Nat.mul_comm 2 n, Nat.mul_assoc, Nat.mul_comm 2]


/-! ## binary32 bit patterns -/

/-- The sign bit of a pattern `b < 2^32`: `b / 2^31`. -/
def signF (b : Nat) : Nat := b / 2147483648

/-- The exponent field: `(b / 2^23) % 256`. -/
def expF (b : Nat) : Nat := (b / 8388608) % 256

/-- The mantissa field: `b % 2^23`. -/
def mantF (b : Nat) : Nat := b % 8388608

/-- A positive normal pattern: 32 bits, sign 0, exponent field in `[1, 254]`. -/
structure PosNormal (b : Nat) : Prop where
  lt32 : b < 4294967296
  sign : signF b = 0
  expLo : 1 ≤ expF b
  expHi : expF b ≤ 254

/-- The value of a positive normal pattern: `(2^23 + mant) · 2^(exp - 150)`, a dyadic. -/
def valOf (b : Nat) : Dyadic := (Int.ofNat (8388608 + mantF b), Int.subNatNat (expF b) 150)

/-- The binary32 encoding of an integer `j` in `[2^23, 2^24)`: exponent field 150,
mantissa `j - 2^23` (`150 · 2^23 = 1258291200`). -/
def intBits (j : Nat) : Nat := 1258291200 + (j - 8388608)

theorem div_of_lt (n b : Nat) (hb : b < n) : b / n = 0 := div_add_mul n b hb 0

/-- The fields of `t + 2^23 · e` for `t < 2^23` and `e < 256`. -/
theorem fields_of (t e : Nat) (ht : t < 8388608) (he : e < 256) :
    expF (t + 8388608 * e) = e ∧ mantF (t + 8388608 * e) = t := by
  constructor
  · show (t + 8388608 * e) / 8388608 % 256 = e
    rw [div_add_mul 8388608 t ht e, Nat.mod_eq_of_lt he]
  · exact mod_add_mul 8388608 t ht e

/-- `intBits j` is positive normal with exponent field 150 and mantissa `j - 2^23`. -/
theorem fields_intBits (j : Nat) (hlo : 8388608 ≤ j) (hhi : j < 16777216) :
    PosNormal (intBits j) ∧ expF (intBits j) = 150 ∧ mantF (intBits j) = j - 8388608 := by
  have ⟨t, ht⟩ := Nat.le.dest hlo
  subst ht
  have hsub : 8388608 + t - 8388608 = t := by
    rw [Nat.add_comm]; exact add_sub_cancel' t 8388608
  have htl : t < 8388608 := 
    Nat.gtOfNotLe (fun h => Nat.notLeOfGt hhi (Nat.addLeAddLeft h 8388608))
  have hb : intBits (8388608 + t) = t + 8388608 * 150 := by
    show 1258291200 + (8388608 + t - 8388608) = t + 8388608 * 150
    rw [hsub, Nat.add_comm]
  have hf := fields_of t 150 htl (by decide)
  have hlt : t + 8388608 * 150 < 2147483648 :=
    Nat.ltOfLtOfLe (Nat.addLtAddRight htl (8388608 * 150)) (by decide)
  rw [hb, hsub]
  refine ⟨⟨?_, ?_, ?_, ?_⟩, hf.1, hf.2⟩
  · exact Nat.ltOfLtOfLe hlt (by decide)
  · exact div_of_lt 2147483648 _ hlt
  · rw [hf.1]; decide
  · rw [hf.1]; decide


/-- `subNatNat (a + k) (b + k) = subNatNat a b`. -/
theorem subNatNat_add_add (a b : Nat) : ∀ k : Nat,
    Int.subNatNat (a + k) (b + k) = Int.subNatNat a b
  | 0 => rfl
  | k + 1 => by
    show Int.subNatNat ((a + k) + 1) ((b + k) + 1) = Int.subNatNat a b
    rw [subNatNat_succ_succ, subNatNat_add_add a b k]

section Val

variable {α : Type} [ExpField α]

theorem val_valOf (b : Nat) : (val (valOf b) : α)
    = natCast (8388608 + mantF b) * pow2i (Int.subNatNat (expF b) 150) := rfl

/-- The value of `intBits j` is `j`. -/
theorem valOf_intBits (j : Nat) (hlo : 8388608 ≤ j) (hhi : j < 16777216) :
    (val (valOf (intBits j)) : α) = natCast j := by
  have ⟨_, he, hm⟩ := fields_intBits j hlo hhi
  have ⟨t, ht⟩ := Nat.le.dest hlo
  subst ht
  have hsub : 8388608 + t - 8388608 = t := by
    rw [Nat.add_comm]; exact add_sub_cancel' t 8388608
  rw [val_valOf, he, hm, hsub, pow2i_subNatNat, twoPow_mul_halfPow]
  exact mul_one _

end Val

/-! ## (a) the bits of `j = 2^23 + 2^22 + m` -/

/-- (a) For `1 ≤ m ≤ 254`, the integer `j = 12582912 + m` is in `[2^23, 2^24)` and its
binary32 pattern is `0x4B400000 + m` (`0x4B400000 = 1262485504`). -/
theorem intBits_magic (m : Nat) (hhi : m ≤ 254) :
    8388608 ≤ 12582912 + m ∧ 12582912 + m < 16777216 ∧
      intBits (12582912 + m) = 1262485504 + m := by
  have hj : 12582912 + m = (4194304 + m) + 8388608 := by
    rw [Nat.add_right_comm]
  refine ⟨?_, ?_, ?_⟩
  · exact Nat.leTrans (by decide : 8388608 ≤ 12582912) (Nat.leAddRight 12582912 m)
  · exact Nat.ltOfLeOfLt (Nat.addLeAddLeft hhi 12582912) (by decide)
  · show 1258291200 + (12582912 + m - 8388608) = 1262485504 + m
    rw [hj, add_sub_cancel', ← Nat.add_assoc]

/-! ## (b) `shl.b32 23` -/

/-- `n <<< 23 = n · 2^23`. -/
theorem shiftLeft_23 (n : Nat) : Nat.shiftLeft n 23 = n * 8388608 := shiftLeft_eq 23 n

/-- (b) `(0x4B400000 + m) <<< 23`, truncated to 32 bits, is `m · 2^23`, for `m < 512`
(the high bits `0x4B400000 << 23 = 2465792 · 2^32` fall off). -/
theorem shl23_magic (m : Nat) (hm : m < 512) :
    Nat.shiftLeft (1262485504 + m) 23 % 4294967296 = m * 8388608 := by
  have hlt : m * 8388608 < 4294967296 :=
    Nat.ltOfLtOfLe (Nat.mulLtMulOfPosRight hm (by decide)) (by decide)
  have hk : 1262485504 * 8388608 = 4294967296 * 2465792 := rfl
  rw [shiftLeft_23, Nat.right_distrib, Nat.add_comm, hk]
  exact mod_add_mul 4294967296 (m * 8388608) hlt 2465792


/-! ## (c) the pattern `m · 2^23` -/

/-- (c) For `1 ≤ m ≤ 254`, the pattern `m · 2^23` is positive normal with exponent field `m`
and mantissa 0. -/
theorem fields_shifted (m : Nat) (hlo : 1 ≤ m) (hhi : m ≤ 254) :
    PosNormal (m * 8388608) ∧ expF (m * 8388608) = m ∧ mantF (m * 8388608) = 0 := by
  have hm : m < 256 := Nat.ltOfLeOfLt hhi (by decide)
  have hb : m * 8388608 = 0 + 8388608 * m := by rw [Nat.zero_add, Nat.mul_comm]
  have hf := fields_of 0 m (by decide) hm
  have hlt : m * 8388608 < 2147483648 :=
    Nat.ltOfLtOfLe (Nat.mulLtMulOfPosRight hm (by decide)) (by decide)
  rw [← hb] at hf
  refine ⟨⟨?_, ?_, ?_, ?_⟩, hf.1, hf.2⟩
  · exact Nat.ltOfLtOfLe hlt (by decide)
  · exact div_of_lt 2147483648 _ hlt
  · rw [hf.1]; exact hlo
  · rw [hf.1]; exact hhi

section Val

variable {α : Type} [ExpField α]

/-- (c) For `1 ≤ m ≤ 254`, the value of the pattern `m · 2^23` is `2^(m - 127)`. -/
theorem val_shifted (m : Nat) (hlo : 1 ≤ m) (hhi : m ≤ 254) :
    (val (valOf (m * 8388608)) : α) = pow2i (Int.subNatNat m 127) := by
  have ⟨_, he, hm⟩ := fields_shifted m hlo hhi
  have h23 : (natCast 8388608 : α) = twoPow 23 := natCast_pow2 23
  have h150 : (halfPow 150 : α) = halfPow 23 * halfPow 127 := halfPow_add 23 127
  rw [val_valOf, he, hm, pow2i_subNatNat, pow2i_subNatNat, h23, h150, mul_left_comm',
    ← mul_assoc (twoPow 23), twoPow_mul_halfPow, one_mul]

/-- (c) in terms of `j = 12582912 + m`: the value is `2^(j - 12583039)`. -/
theorem val_shifted_j (m : Nat) (hlo : 1 ≤ m) (hhi : m ≤ 254) :
    (val (valOf (m * 8388608)) : α) = pow2i (Int.subNatNat (12582912 + m) 12583039) := by
  rw [val_shifted m hlo hhi, Nat.add_comm 12582912 m,
    (rfl : (12583039 : Nat) = 127 + 12582912), subNatNat_add_add]

end Val

/-! ## (d) the range of `j` -/

/-- (d) If the floor `f` of `t · c` satisfies `f ≤ c ≤ 253` (true for `t` in `[0, 1]`), then
`j = 12582913 + f` is in `[12582913, 12583166]` and `j = 12582912 + m` with `m = f + 1` in
`[1, 254]`. -/
theorem magic_range (f c : Nat) (hf : f ≤ c) (hc : c ≤ 253) :
    12582913 ≤ 12582913 + f ∧ 12582913 + f ≤ 12583166 ∧
      1 ≤ f + 1 ∧ f + 1 ≤ 254 ∧ 12582913 + f = 12582912 + (f + 1) := by
  have hfc : f ≤ 253 := Nat.leTrans hf hc
  refine ⟨Nat.leAddRight 12582913 f, Nat.addLeAddLeft hfc 12582913,
    Nat.succLeSucc (Nat.zeroLe f), Nat.succLeSucc hfc, ?_⟩
  rw [← Nat.add_assoc, Nat.add_right_comm]

/-! ## (a), (b), (c) together -/

/-- The checker's reading: for an integer `j` in `[12582913, 12583166]`, the pattern
`(intBits j <<< 23) % 2^32` (PTX `shl.b32 bits(j), 23`) is positive normal and its value is
`2^(j - 12583039)`. -/
theorem expf_bits {α : Type} [ExpField α] (j : Nat) (hlo : 12582913 ≤ j) (hhi : j ≤ 12583166) :
    PosNormal (Nat.shiftLeft (intBits j) 23 % 4294967296) ∧
      (val (valOf (Nat.shiftLeft (intBits j) 23 % 4294967296)) : α)
        = pow2i (Int.subNatNat j 12583039) := by
  have ⟨f, hf⟩ := Nat.le.dest hlo
  subst hf
  have hfc : f ≤ 253 := le_of_add_le_add_left' 12582913 f 253 hhi
  have ⟨_, _, h1, h2, hj⟩ := magic_range f 253 hfc (Nat.leRefl 253)
  have ⟨_, _, ha⟩ := intBits_magic (f + 1) h2
  rw [hj, ha, shl23_magic (f + 1) (Nat.ltOfLeOfLt h2 (by decide))]
  exact ⟨(fields_shifted (f + 1) h1 h2).1, val_shifted_j (f + 1) h1 h2⟩


/-! ## The checker's term -/

section Term

variable {α : Type} [ExpField α]

/-- With `2^1 = 2` (true of the reals; not a law of `ExpField`), `pow2` of a natural is
`twoPow`. -/
theorem pow2_natCast (h1 : pow2 (1 : α) = two) : ∀ n : Nat, pow2 (natCast n : α) = twoPow n
  | 0 => pow2_zero
  | n + 1 => by
    show pow2 ((natCast n : α) + 1) = twoPow n * two
    rw [pow2_add, pow2_natCast h1 n, h1]

/-- With `2^1 = 2`, `pow2` of an integer is `pow2i`. -/
theorem pow2_intCast (h1 : pow2 (1 : α) = two) : ∀ e : Int, pow2 (intCast e : α) = pow2i e
  | Int.ofNat n => pow2_natCast h1 n
  | Int.negSucc n => by
    show pow2 (-(natCast (n + 1)) : α) = halfPow (n + 1)
    have hinv : pow2 (-(natCast (n + 1)) : α) * twoPow (n + 1) = 1 := by
      rw [← pow2_natCast h1, ← pow2_add, neg_add_self, pow2_zero]
    have e : pow2 (-(natCast (n + 1)) : α)
        = pow2 (-(natCast (n + 1)) : α) * twoPow (n + 1) * halfPow (n + 1) := by
      rw [mul_assoc, twoPow_mul_halfPow, mul_one]
    rw [e, hinv, one_mul]

/-- The term the checker builds for `shl.b32 bits(j), 23` (`exp2_of_rounded_exponent`):
`ex2(j + (-12583039))`, with the constant `Dyadic::from_i64(-BIAS)`. -/
def shlTerm (tj : Term Dyadic) : Term Dyadic :=
  Term.app Func.ex2 (Term.add tj (Term.const ((Int.negSucc 12583038, 0) : Dyadic)))

/-- The checker's reading is exact on the integers libdevice produces: if the term `tj` has
the value of an integer `j` in `[12582913, 12583166]`, constants are read by `val`, and
`2^1 = 2`, then the value of `shlTerm tj` is the value of the float whose bits are
`(intBits j <<< 23) % 2^32`, a positive normal pattern. -/
theorem shlTerm_exact (I : Interp Dyadic α) (hc : ∀ k : Dyadic, I.const k = val k)
    (h1 : pow2 (1 : α) = two) (ρ : Env α) (tj : Term Dyadic) (j : Nat)
    (hj : Term.eval I ρ tj = natCast j) (hlo : 12582913 ≤ j) (hhi : j ≤ 12583166) :
    PosNormal (Nat.shiftLeft (intBits j) 23 % 4294967296) ∧
      Term.eval I ρ (shlTerm tj) = val (valOf (Nat.shiftLeft (intBits j) 23 % 4294967296)) := by
  have ⟨hp, hv⟩ := expf_bits (α := α) j hlo hhi
  refine ⟨hp, ?_⟩
  rw [hv]
  show pow2 (Term.eval I ρ tj + I.const ((Int.negSucc 12583038, 0) : Dyadic))
    = pow2i (Int.subNatNat j 12583039)
  have hk : (val ((Int.negSucc 12583038, 0) : Dyadic) : α) = -(natCast 12583039) := by
    show -(natCast 12583039 : α) * 1 = -(natCast 12583039)
    rw [mul_one]
  rw [hc, hk, hj, ← intCast_subNatNat, pow2_intCast h1]

end Term


/-! ## `fma.rm` rounds down to the floor in `[2^23, 2^24)` -/

theorem sub_add_cancel' {x y : Nat} (h : y ≤ x) : x - y + y = x := by
  have ⟨k, hk⟩ := Nat.le.dest h
  subst hk
  rw [Nat.add_comm y k, add_sub_cancel']

/-- `d · (n / d) + n % d = n`. -/
theorem div_add_mod' (n d : Nat) : d * (n / d) + n % d = n := by
  refine Nat.div.inductionOn (motive := fun n d => d * (n / d) + n % d = n) n d ?_ ?_
  · intro x y h ih
    rw [Nat.div_eq, if_pos' h, Nat.mod_eq, if_pos' h]
    show y * ((x - y) / y) + y + (x - y) % y = x
    rw [Nat.add_right_comm, ih, sub_add_cancel' h.2]
  · intro x y h
    rw [Nat.div_eq, if_neg' h, Nat.mod_eq, if_neg' h]
    exact Nat.zero_add x

theorem div_mul_le' (n d : Nat) : n / d * d ≤ n := by
  have h : d * (n / d) ≤ d * (n / d) + n % d := Nat.leAddRight _ _
  rw [div_add_mod'] at h
  rw [Nat.mul_comm]
  exact h

theorem lt_div_succ (n d : Nat) (hd : 0 < d) : n < (n / d + 1) * d := by
  have h : d * (n / d) + n % d < d * (n / d) + d := Nat.addLtAddLeft (Nat.mod_lt n hd) _
  rw [div_add_mod'] at h
  rw [Nat.mul_comm]
  exact h

theorem le_div_of_mul_le {x d n : Nat} (hd : 0 < d) (h : x * d ≤ n) : x ≤ n / d :=
  if hx : x ≤ n / d then hx
  else absurd (Nat.leTrans (Nat.mulLeMulRight d (Nat.gtOfNotLe hx)) h)
    (Nat.notLeOfGt (lt_div_succ n d hd))

theorem le_of_mul_le_mul_right' {a b k : Nat} (hk : 0 < k) (h : a * k ≤ b * k) : a ≤ b :=
  if hab : a ≤ b then hab
  else absurd h (Nat.notLeOfGt (Nat.mulLtMulOfPosRight (Nat.gtOfNotLe hab) hk))

theorem mul_right_comm' (a b c : Nat) : a * b * c = a * c * b := by
  rw [Nat.mul_assoc, Nat.mul_comm b c, ← Nat.mul_assoc]

theorem pow_add' (a : Nat) : ∀ k : Nat, 2 ^ (a + k) = 2 ^ a * 2 ^ k
  | 0 => (Nat.mul_one _).symm
  | k + 1 => by
    show 2 ^ (a + k) * 2 = 2 ^ a * (2 ^ k * 2)
    rw [pow_add' a k, Nat.mul_assoc]

/-- `(x + q·a) / q = x / q + a`. -/
theorem add_mul_div' (x q : Nat) (hq : 0 < q) : ∀ a : Nat, (x + q * a) / q = x / q + a
  | 0 => rfl
  | a + 1 => by
    show (x + (q * a + q)) / q = x / q + a + 1
    rw [← Nat.add_assoc, Nat.div_eq, if_pos' ⟨hq, le_add_left' _ q⟩, add_sub_cancel',
      add_mul_div' x q hq a]

/-- The value of a positive normal pattern times `2^150`: `(2^23 + mant) · 2^exp`
(`valOf b` is `vnum b / 2^150`). -/
def vnum (b : Nat) : Nat := (8388608 + mantF b) * 2 ^ expF b

theorem vnum_intBits (j : Nat) (hlo : 8388608 ≤ j) (hhi : j < 16777216) :
    vnum (intBits j) = j * 2 ^ 150 := by
  have ⟨_, he, hm⟩ := fields_intBits j hlo hhi
  show (8388608 + mantF (intBits j)) * 2 ^ expF (intBits j) = j * 2 ^ 150
  rw [he, hm, Nat.add_comm, sub_add_cancel' hlo]

/-- Rounding down in `[2^23, 2^24)`: for an exact value `v = n / d` (naturals, `d > 0`) with
`2^23 ≤ v < 2^24`, the integer `j = n / d` (the floor) is in `[2^23, 2^24)`, `j ≤ v < j + 1`,
`intBits j` is positive normal with value `j`, and every positive normal pattern whose value
is at most `v` has value at most `j` (values compared as `vnum b / 2^150`).  So `j` is the
largest positive normal binary32 value `≤ v`: what `.rm` returns (zero, subnormals and
negative values are below `2^23`; infinities and NaN are not values `≤ v`). -/
theorem rm_floor (n d : Nat) (hd : 0 < d) (hlo : 8388608 * d ≤ n) (hhi : n < 16777216 * d) :
    8388608 ≤ n / d ∧ n / d < 16777216 ∧ n / d * d ≤ n ∧ n < (n / d + 1) * d ∧
      PosNormal (intBits (n / d)) ∧ vnum (intBits (n / d)) = n / d * 2 ^ 150 ∧
      ∀ b : Nat, PosNormal b → vnum b * d ≤ n * 2 ^ 150 → vnum b ≤ n / d * 2 ^ 150 := by
  have hjlo : 8388608 ≤ n / d := le_div_of_mul_le hd hlo
  have hjhi : n / d < 16777216 :=
    if h : n / d < 16777216 then h
    else absurd (Nat.leTrans (Nat.mulLeMulRight d (Nat.gtOfNotLe h : 16777216 ≤ n / d))
      (div_mul_le' n d)) (Nat.notLeOfGt hhi)
  refine ⟨hjlo, hjhi, div_mul_le' n d, lt_div_succ n d hd,
    (fields_intBits _ hjlo hjhi).1, vnum_intBits _ hjlo hjhi, ?_⟩
  intro b _ hle
  have hp : 0 < 2 ^ 150 := Nat.posPowOfPos 150 (by decide)
  refine dite (150 ≤ expF b) (fun he => ?_) (fun he => ?_)
  · have ⟨k, hk⟩ := Nat.le.dest he
    have hv : vnum b = (8388608 + mantF b) * 2 ^ k * 2 ^ 150 := by
      show (8388608 + mantF b) * 2 ^ expF b = _
      rw [← hk, pow_add', Nat.mul_comm (2 ^ 150) (2 ^ k), ← Nat.mul_assoc]
    rw [hv, mul_right_comm'] at hle
    rw [hv]
    exact Nat.mulLeMulRight _ (le_div_of_mul_le hd (le_of_mul_le_mul_right' hp hle))
  · have he' : expF b + 1 ≤ 150 := Nat.gtOfNotLe he
    have hM : 8388608 + mantF b < 16777216 :=
      Nat.addLtAddLeft (Nat.mod_lt b (by decide)) 8388608
    have h1 : vnum b < 16777216 * 2 ^ expF b :=
      Nat.mulLtMulOfPosRight hM (Nat.posPowOfPos _ (by decide))
    have h2 : 16777216 * 2 ^ expF b = 8388608 * 2 ^ (expF b + 1) := by
      show 16777216 * 2 ^ expF b = 8388608 * (2 ^ expF b * 2)
      rw [Nat.mul_comm (2 ^ expF b) 2, ← Nat.mul_assoc]
    have h3 : 8388608 * 2 ^ (expF b + 1) ≤ 8388608 * 2 ^ 150 :=
      Nat.mulLeMulLeft 8388608 (Nat.powLePowOfLeRight (by decide) he')
    rw [h2] at h1
    exact Nat.leOfLt (Nat.ltOfLtOfLe h1 (Nat.leTrans h3 (Nat.mulLeMulRight _ hjlo)))

/-- (d) with the rounding: `t · c = P / Q` (naturals, `Q > 0`; any `t` in `[0, 1]` and `c` in
`[0, 253]` that are floats give such a rational with `P ≤ 253 · Q`).  The exact value of the
`fma` is `v = (P + Q · 12582913) / Q`; it lies in `[2^23, 2^24)` and its floor is
`12582913 + P / Q` with `P / Q ≤ 253`, so in `[12582913, 12583166]`. -/
theorem fma_magic (P Q : Nat) (hQ : 0 < Q) (hP : P ≤ 253 * Q) :
    (P + Q * 12582913) / Q = 12582913 + P / Q ∧ P / Q ≤ 253 ∧
      8388608 * Q ≤ P + Q * 12582913 ∧ P + Q * 12582913 < 16777216 * Q := by
  refine ⟨?_, ?_, ?_, ?_⟩
  · rw [add_mul_div' P Q hQ, Nat.add_comm]
  · exact le_of_mul_le_mul_right' hQ (Nat.leTrans (div_mul_le' P Q) hP)
  · rw [Nat.mul_comm Q]
    exact Nat.leTrans (Nat.mulLeMulRight Q (by decide : 8388608 ≤ 12582913))
      (Nat.leAddLeft _ P)
  · have h : P + Q * 12582913 ≤ 253 * Q + 12582913 * Q := by
      rw [Nat.mul_comm Q]
      exact Nat.addLeAddRight hP _
    rw [← Nat.right_distrib] at h
    exact Nat.ltOfLeOfLt h (Nat.mulLtMulOfPosRight (by decide) hQ)

/-- `fma.rm(t, c, 12582913)` with `t · c = P / Q`, `0 ≤ P / Q ≤ 253`: the largest positive
normal binary32 value below the exact `v` is the integer `j = 12582913 + P / Q`, in
`[12582913, 12583166]` (so `expf_bits` applies to it). -/
theorem fma_rm_magic (P Q : Nat) (hQ : 0 < Q) (hP : P ≤ 253 * Q) :
    12582913 ≤ 12582913 + P / Q ∧ 12582913 + P / Q ≤ 12583166 ∧
      PosNormal (intBits (12582913 + P / Q)) ∧
      vnum (intBits (12582913 + P / Q)) = (12582913 + P / Q) * 2 ^ 150 ∧
      (12582913 + P / Q) * Q ≤ P + Q * 12582913 ∧
      ∀ b : Nat, PosNormal b → vnum b * Q ≤ (P + Q * 12582913) * 2 ^ 150 →
        vnum b ≤ (12582913 + P / Q) * 2 ^ 150 := by
  have ⟨hj, h253, hlo, hhi⟩ := fma_magic P Q hQ hP
  have ⟨_, _, hle, _, hpn, hv, hmax⟩ := rm_floor (P + Q * 12582913) Q hQ hlo hhi
  rw [hj] at hle hpn hv hmax
  exact ⟨Nat.leAddRight _ _, Nat.addLeAddLeft h253 12582913, hpn, hv, hle, hmax⟩


/-! ## The encoding of an integer is unique -/

/-- A pattern with sign 0 is below `2^31`. -/
theorem lt31_of_sign {b : Nat} (h : signF b = 0) : b < 2147483648 :=
  if hb : b < 2147483648 then hb
  else absurd h (fun h0 => absurd
    (le_div_of_mul_le (by decide) (Nat.gtOfNotLe hb : 1 * 2147483648 ≤ b) : 1 ≤ b / 2147483648)
    (by show ¬ 1 ≤ signF b; rw [h0]; decide))

/-- The pattern is its fields: `b = mant + 2^23 · exp` when the sign is 0. -/
theorem bits_of_fields {b : Nat} (h : signF b = 0) : b = mantF b + 8388608 * expF b := by
  have hlt := lt31_of_sign h
  have h256 : b / 8388608 < 256 :=
    if h' : b / 8388608 < 256 then h'
    else absurd (Nat.leTrans (Nat.mulLeMulRight 8388608 (Nat.gtOfNotLe h' : 256 ≤ b / 8388608))
      (div_mul_le' b 8388608)) (Nat.notLeOfGt hlt)
  show b = b % 8388608 + 8388608 * ((b / 8388608) % 256)
  rw [Nat.mod_eq_of_lt h256, Nat.add_comm]
  exact (div_add_mod' b 8388608).symm

/-- (a), uniqueness: `intBits j` is the only positive normal pattern whose value is the
integer `j` in `[2^23, 2^24)` (value `j` means `vnum b = j · 2^150`). -/
theorem intBits_unique (j b : Nat) (hlo : 8388608 ≤ j) (hhi : j < 16777216) (hb : PosNormal b)
    (hv : vnum b = j * 2 ^ 150) : b = intBits j := by
  have hp : 0 < 2 ^ 150 := Nat.posPowOfPos 150 (by decide)
  have hM : 8388608 + mantF b < 16777216 :=
    Nat.addLtAddLeft (Nat.mod_lt b (by decide)) 8388608
  -- the exponent field is 150
  have he : expF b = 150 := by
    refine dite (150 ≤ expF b) (fun h => ?_) (fun h => ?_)
    · have ⟨k, hk⟩ := Nat.le.dest h
      cases k with
      | zero => exact hk.symm
      | succ k =>
        have hv' : vnum b = (8388608 + mantF b) * 2 ^ (k + 1) * 2 ^ 150 := by
          show (8388608 + mantF b) * 2 ^ expF b = _
          rw [← hk, pow_add', Nat.mul_comm (2 ^ 150), ← Nat.mul_assoc]
        rw [hv'] at hv
        have h1 : (8388608 + mantF b) * 2 ^ (k + 1) = j :=
          Nat.leAntisymm (le_of_mul_le_mul_right' hp (Nat.leOfEq hv))
            (le_of_mul_le_mul_right' hp (Nat.leOfEq hv.symm))
        have hpow : 2 ^ 1 ≤ 2 ^ (k + 1) :=
          Nat.powLePowOfLeRight (n := 2) (by decide) (Nat.succLeSucc (Nat.zeroLe k))
        have h2 : 8388608 * 2 ≤ (8388608 + mantF b) * 2 ^ (k + 1) :=
          Nat.mulLeMul (Nat.leAddRight _ _) hpow
        rw [h1] at h2
        exact absurd h2 (Nat.notLeOfGt hhi)
    · have he' : expF b + 1 ≤ 150 := Nat.gtOfNotLe h
      have h1 : vnum b < 16777216 * 2 ^ expF b :=
        Nat.mulLtMulOfPosRight hM (Nat.posPowOfPos _ (by decide))
      have h2 : 16777216 * 2 ^ expF b = 8388608 * 2 ^ (expF b + 1) := by
        show 16777216 * 2 ^ expF b = 8388608 * (2 ^ expF b * 2)
        rw [Nat.mul_comm (2 ^ expF b) 2, ← Nat.mul_assoc]
      have h3 : 8388608 * 2 ^ (expF b + 1) ≤ 8388608 * 2 ^ 150 :=
        Nat.mulLeMulLeft 8388608 (Nat.powLePowOfLeRight (by decide) he')
      rw [h2] at h1
      have h4 := Nat.ltOfLtOfLe h1 (Nat.leTrans h3 (Nat.mulLeMulRight _ hlo))
      rw [hv] at h4
      exact absurd h4 (Nat.ltIrrefl _)
  -- then the mantissa is `j - 2^23`
  have hv2 : (8388608 + mantF b) * 2 ^ expF b = j * 2 ^ 150 := hv
  rw [he] at hv2
  have hj : 8388608 + mantF b = j :=
    Nat.leAntisymm (le_of_mul_le_mul_right' hp (Nat.leOfEq hv2))
      (le_of_mul_le_mul_right' hp (Nat.leOfEq hv2.symm))
  have hm : mantF b = j - 8388608 := by
    rw [← hj, Nat.add_comm, add_sub_cancel']
  rw [bits_of_fields hb.sign, he, hm]
  show j - 8388608 + 8388608 * 150 = 1258291200 + (j - 8388608)
  rw [Nat.add_comm]


/-- `vnum` is `2^150` times the value: `val (valOf b) · 2^150 = vnum b` in every `ExpField`. -/
theorem val_valOf_vnum {α : Type} [ExpField α] (b : Nat) :
    (val (valOf b) : α) * twoPow 150 = natCast (vnum b) := by
  have hn : (natCast (vnum b) : α)
      = natCast (8388608 + mantF b) * natCast (Nat.pow 2 (expF b)) := natCast_mul _ _
  rw [val_valOf, pow2i_subNatNat, hn, natCast_pow2, mul_assoc, mul_assoc,
    mul_comm (halfPow 150 : α), twoPow_mul_halfPow, mul_one]

end LibdeviceExp
end Kcert
