"""Triton RMS norm, one program per row, as rmsnorm_tl_row but with the reciprocal written
`1.0 / tl.sqrt(v)` (Triton: `sqrt.approx.ftz.f32` then `div.full.f32`) instead of `tl.rsqrt(v)`.
Equal over the reals to rmsnorm_tl_row (v is positive: squares plus eps).
Launch (rmsnorm_tl_row_sqrt.toml): grid 8 (= rows), cols = 64, eps = 1e-5.
PTX: python3 kernels/triton/build.py rmsnorm_tl_row_sqrt.
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "w_ptr": "*fp32", "out_ptr": "*fp32", "cols": "i32",
             "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 64}
NUM_WARPS = 4


@triton.jit
def rmsnorm_tl_row_sqrt(x_ptr, w_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + r * cols + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / cols
    rstd = 1.0 / tl.sqrt(ms + 1e-5)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + r * cols + offs, x * rstd * w, mask=mask)
