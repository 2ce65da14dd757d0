"""Triton bf16 axpy: out[i] = alpha * x[i] + y[i] for i < n on bfloat16 vectors, math in fp32.

Launch (kernels/triton/axpy_bf16_tl.toml): grid 4, num_warps 4 (128 threads), BLOCK 128, n = 512.
Masked 16-bit accesses: `mov.u16 %rs, 0x0` (the `other=` value) then a predicated
`ld.global.b16`, and a predicated `st.global.b16`, widened with `cvt.f32.bf16` and narrowed
with `cvt.rn.bf16.f32`.
PTX: python3 kernels/triton/build.py (see README "Regenerating the Triton PTX").
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*bf16", "y_ptr": "*bf16", "out_ptr": "*bf16", "alpha": "fp32", "n": "i32",
             "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 128}
NUM_WARPS = 4


@triton.jit
def axpy_bf16_tl(x_ptr, y_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (alpha * x + y).to(tl.bfloat16), mask=mask)
