"""Triton NaN clean-up: out[i] = tl.where(x != x, 0.0, x) for i < n on f32 vectors.

`x != x` (NaN test, `setp.num.f32 %p, %r, %r` on the loaded bits) replaces NaN by 0: on reals,
which are never NaN, the identity. True verdict: safe; equivalent to the copy
(adversarial/forms/zero_pad_ref with n = 512).
Launch (kernels/triton/nan_clean_tl.toml): grid 4, num_warps 4 (128 threads), BLOCK 128, n = 512.
PTX: python3 kernels/triton/build.py (see README "Regenerating the Triton PTX").
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 128}
NUM_WARPS = 4


@triton.jit
def nan_clean_tl(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.where(x != x, 0.0, x), mask=mask)
