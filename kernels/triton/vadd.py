"""Triton vector add: out[i] = x[i] + y[i] for i < n, BLOCK elements per program.

Launch (kernels/triton/vadd.toml): grid 4, num_warps 4 (128 threads), BLOCK 128, n = 512.
PTX: python3 kernels/triton/build.py (see README "Regenerating the Triton PTX").
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 128}
NUM_WARPS = 4


@triton.jit
def vadd(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
