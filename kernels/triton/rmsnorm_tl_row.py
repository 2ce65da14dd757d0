"""Triton RMS norm, one program per row: out[r][c] = x[r][c] * rsqrt(sum_c x[r][c]^2 / cols + eps) * w[c].

fp32 input, BLOCK 64 >= cols, num_warps 4 (the 64-element row sits on warps 0-1 and is replicated
on warps 2-3), fma contraction on (Triton's default): the sum of squares starts its butterfly
with fma(x, x, shfl(x*x)), so lanes 0-15 and 16-31 hold differently rounded warp sums, equal
over the reals, and every lane stores its own to one shared slot: fp-nondeterministic writes,
named in the proof. Launch (rmsnorm_tl_row.toml): grid 8 (= rows), cols = 64, eps = 1e-5.
PTX: python3 kernels/triton/build.py rmsnorm_tl_row.
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "w_ptr": "*fp32", "out_ptr": "*fp32", "cols": "i32",
             "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 64}
NUM_WARPS = 4


@triton.jit
def rmsnorm_tl_row(x_ptr, w_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + r * cols + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / cols
    rstd = tl.rsqrt(ms + 1e-5)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + r * cols + offs, x * rstd * w, mask=mask)
