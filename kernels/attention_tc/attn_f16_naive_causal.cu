// attn_f16_naive_causal: causal single-head attention O = softmax(Q K^T * scale) V, where query
// row i sits at position q_offset + i and attends keys j <= q_offset + i only; with fp16 Q (Mx64), K and V
// (Tx64), fp32 O (Mx64). One thread per query row; the row's scores are kept in local memory.
// The softmax subtracts the row maximum and uses exp2 with scale_log2 = log2(e) / sqrt(64):
// p_j = 2^((s_j - m) * scale_log2) = e^((s_j - m) / 8). The reference of the tensor-core
// attention kernels in this directory.
// Launch: block = (M), grid = (1); T <= 512.
#include <cuda_fp16.h>

#define D 64
#define MAXT 512

extern "C" __global__ void attn_f16_naive_causal(const __half* Q, const __half* K, const __half* V, float* O,
                                          int M, int T, int q_offset, float scale_log2)
{
    int i = threadIdx.x;
    if (i >= M) return;
    float s[MAXT];
    float m = -INFINITY;
    const int last = min(T, q_offset + i + 1);   // keys 0 .. last - 1
    for (int j = 0; j < last; ++j) {
        float acc = 0.0f;
        for (int d = 0; d < D; ++d) {
            acc += __half2float(Q[i * D + d]) * __half2float(K[j * D + d]);
        }
        s[j] = acc;
        m = fmaxf(m, acc);
    }
    float l = 0.0f;
    for (int j = 0; j < last; ++j) {
        s[j] = exp2f((s[j] - m) * scale_log2);
        l += s[j];
    }
    for (int d = 0; d < D; ++d) {
        float acc = 0.0f;
        for (int j = 0; j < last; ++j) {
            acc += s[j] * __half2float(V[j * D + d]);
        }
        O[i * D + d] = acc / l;
    }
}
