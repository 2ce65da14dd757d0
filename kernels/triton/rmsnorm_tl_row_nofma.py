"""Triton RMS norm, one program per row, as rmsnorm_tl_row but with fma contraction OFF
(FP_FUSION = False, Triton's enable_fp_fusion): the sum of squares' butterfly is mul then add,
so every lane holds the same bits and its one-slot cross-warp stores are benign (bit-equal).
Launch (rmsnorm_tl_row_nofma.toml): grid 8 (= rows), cols = 64, eps = 1e-5.
PTX: python3 kernels/triton/build.py rmsnorm_tl_row_nofma.
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "w_ptr": "*fp32", "out_ptr": "*fp32", "cols": "i32",
             "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 64}
NUM_WARPS = 4
FP_FUSION = False


@triton.jit
def rmsnorm_tl_row_nofma(x_ptr, w_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + r * cols + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / cols
    rstd = tl.rsqrt(ms + 1e-5)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + r * cols + offs, x * rstd * w, mask=mask)
