"""Triton row softmax of a rows x cols fp32 matrix, one program per row, BLOCK >= cols.

out[r][c] = exp(x[r][c] - m_r) / sum_c' exp(x[r][c'] - m_r), m_r = max_c x[r][c].
Masked-off lanes load -inf (exp(-inf) = 0 adds nothing to the sum) and are not stored.
Launch (kernels/triton/softmax.toml): grid 4 (= rows), num_warps 4, BLOCK 64, rows = 4, cols = 64.
PTX: python3 kernels/triton/build.py (see README "Regenerating the Triton PTX").
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "out_ptr": "*fp32", "rows": "i32", "cols": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 64}
NUM_WARPS = 4


@triton.jit
def softmax(x_ptr, out_ptr, rows, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    if r < rows:
        offs = tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_ptr + r * cols + offs, mask=mask, other=-float("inf"))
        m = tl.max(x, axis=0)
        e = tl.exp(x - m)
        s = tl.sum(e, axis=0)
        tl.store(out_ptr + r * cols + offs, e / s, mask=mask)
