"""Triton RMS norm of bf16 data, one program per row: out = x * rsqrt(sum_c x^2 / cols + eps) * w,
x, w and out bf16 (loaded and widened to f32, the result stored rounded to bf16).

BLOCK 64 >= cols, num_warps 4, fma contraction on: the butterfly starts with fma(x, x, shfl(x*x))
on widened bf16 values, whose products are exact in f32 while they stay in f32's normal range,
so the two halves of a warp hold the same bits except when a square underflows: the one-slot
cross-warp stores are named fp-nondeterministic with that condition.
Launch (rmsnorm_tl_row_bf16.toml): grid 8 (= rows), cols = 64, eps = 1e-5.
PTX: python3 kernels/triton/build.py rmsnorm_tl_row_bf16.
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*bf16", "w_ptr": "*bf16", "out_ptr": "*bf16", "cols": "i32",
             "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 64}
NUM_WARPS = 4


@triton.jit
def rmsnorm_tl_row_bf16(x_ptr, w_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + r * cols + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / cols
    rstd = tl.rsqrt(ms + 1e-5)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + r * cols + offs, (x * rstd * w).to(tl.bfloat16), mask=mask)
