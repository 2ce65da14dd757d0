"""Triton NaN clean-up: out[i] = tl.where(x != x, x, 0.0) for i < n on f32 vectors.

near miss of nan_clean_tl: keeps x only where x is NaN, so on reals (never NaN) the
output is 0 everywhere. True verdict: safe, NOT equivalent to the copy (every element differs
where x != 0): `setp.num` must read as true on reals, never as "unknown, take either side".
Launch (kernels/triton/nan_keep_tl.toml): grid 4, num_warps 4 (128 threads), BLOCK 128, n = 512.
PTX: python3 kernels/triton/build.py (see README "Regenerating the Triton PTX").
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 128}
NUM_WARPS = 4


@triton.jit
def nan_keep_tl(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.where(x != x, x, 0.0), mask=mask)
