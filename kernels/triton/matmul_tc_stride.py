"""Seeded bug twin of matmul_tc_a (B pointer advanced by BLOCK_K instead of BLOCK_K * N).
Triton matmul on tensor cores (sm_80 mma.sync): C = A B with A (MxK) and B (KxN) fp16 row-major,
C (MxN) fp32. One program per BLOCK_M x BLOCK_N tile of C; K is walked in BLOCK_K steps that
Triton software-pipelines over NUM_STAGES cp.async stages. M, N, K are multiples of the blocks.
Configuration: BLOCK_M=32, BLOCK_N=32, BLOCK_K=16, num_warps=4, num_stages=2.
Launch (kernels/triton/matmul_tc_stride.toml): grid (M/BLOCK_M) * (N/BLOCK_N), M = N = K = 64.
PTX: python3 kernels/triton/build.py (see README "Regenerating the Triton PTX").
"""
import triton
import triton.language as tl

SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
             "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}
CONSTEXPRS = {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 16}
# pointers 16-byte aligned and M, N, K multiples of 16 (as the launch guarantees): lets Triton use
# 16-byte cp.async copies and vector stores
ATTRS = {(i,): [["tt.divisibility", 16]] for i in range(6)}
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def matmul_tc_stride(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    grid_n = N // BLOCK_N
    pm = pid // grid_n
    pn = pid % grid_n
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K  # BUG (seeded): B advances along N, not down K (should be BLOCK_K * N)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
