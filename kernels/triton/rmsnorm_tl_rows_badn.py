"""Triton RMS norm, ROWS = 16 rows per program (a library's choice for short rows), with the
extra n_rows parameter. WRONG on purpose: divides the sum of squares by cols - 16 (a seeded bug:
not equivalent to rmsnorm_tl_row); otherwise as rmsnorm_tl_rows. The masking the last program's rows:
out[r][c] = x[r][c] * rsqrt(sum_c x[r][c]^2 / cols + eps) * w[c].

fp32 input, BLOCK 64 >= cols, num_warps 4, fma contraction on. Launch (rmsnorm_tl_rows_badn.toml):
grid 1 (= ceil(n_rows / 16)) for 8 rows, so rows 8-15 of the program are masked off.
PTX: python3 kernels/triton/build.py rmsnorm_tl_rows_badn.
"""
import triton
import triton.language as tl

SIGNATURE = {"x_ptr": "*fp32", "w_ptr": "*fp32", "out_ptr": "*fp32", "n_rows": "i32",
             "cols": "i32", "ROWS": "constexpr", "BLOCK": "constexpr"}
CONSTEXPRS = {"ROWS": 16, "BLOCK": 64}
NUM_WARPS = 4


@triton.jit
def rmsnorm_tl_rows_badn(x_ptr, w_ptr, out_ptr, n_rows, cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    offs = tl.arange(0, BLOCK)
    cmask = offs < cols
    mask = (rows[:, None] < n_rows) & cmask[None, :]
    x = tl.load(x_ptr + rows[:, None] * cols + offs[None, :], mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=1) / (cols - 16)
    rstd = tl.rsqrt(ms + 1e-5)
    w = tl.load(w_ptr + offs, mask=cmask, other=0.0).to(tl.float32)
    y = x * rstd[:, None] * w[None, :]
    tl.store(out_ptr + rows[:, None] * cols + offs[None, :], y, mask=mask)
