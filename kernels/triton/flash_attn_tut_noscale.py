"""Seeded bug of flash_attn_tut: p = 2^(s - m) forgets qk_scale on the scores while the running
maximum m is of scaled scores, a softmax at the wrong temperature. Otherwise identical to
flash_attn_tut:
Triton flash-attention forward (online softmax, tl.dot on mma.sync), one head:
O = softmax(Q K^T * scale) V with fp16 Q (16x64), K, V (Tx64), fp32 O (16x64). One program per
BLOCK_M rows of Q; keys are walked in BLOCK_N blocks, Triton software-pipelines the K and V
loads over NUM_STAGES cp.async stages. As in the Triton tutorial, the running maximum is taken
over scaled scores, m = max(m, rowmax(s) * qk_scale), and p = 2^(s * qk_scale - m) with
qk_scale = log2(e) / sqrt(64); the reference (kernels/attention_tc/attn_f16_naive.cu) takes the
maximum of raw scores.
Configuration: BLOCK_M=16, BLOCK_N=64, num_warps=4, num_stages=2.
Launch (kernels/triton/flash_attn_a.toml): grid 1, T = 512.
PTX: python3 kernels/triton/build.py (see README "Regenerating the Triton PTX").
"""
import triton
import triton.language as tl

SIGNATURE = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp32", "T": "i32",
             "qk_scale": "fp32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "D": "constexpr"}
CONSTEXPRS = {"BLOCK_M": 16, "BLOCK_N": 64, "D": 64}
# pointers 16-byte aligned and T a multiple of 16 (as the launch guarantees): 16-byte cp.async
ATTRS = {(i,): [["tt.divisibility", 16]] for i in range(5)}
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def flash_attn_tut_noscale(q_ptr, k_ptr, v_ptr, o_ptr, T, qk_scale,
       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    for start in range(0, T, BLOCK_N):
        rn = start + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + rn[None, :] * D + rd[:, None])
        s = tl.dot(q, k)
        m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
        acc += tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], acc)
