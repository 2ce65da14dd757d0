"""Triton layer norm, one program per row, two-pass statistics, num_warps 4:
mean = sum_c x / cols; var = sum_c (x - mean)^2 / cols; out = (x - mean) * rsqrt(var + eps) * w + b.

fp32, BLOCK 64 >= cols, fma contraction on: the variance's butterfly starts with
fma(d, d, shfl(d*d)) (d = x - mean), fp-nondeterministic across the warp's halves, and the
affine output is an fma. Launch (layernorm_tl.toml): grid 8 (= rows), cols = 64, eps = 1e-5.
PTX: python3 kernels/triton/build.py layernorm_tl.
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "w_ptr": "*fp32", "b_ptr": "*fp32", "out_ptr": "*fp32",
             "cols": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 64}
NUM_WARPS = 4


@triton.jit
def layernorm_tl(x_ptr, w_ptr, b_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + r * cols + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / cols
    rstd = tl.rsqrt(var + 1e-5)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + r * cols + offs, d * rstd * w + b, mask=mask)
