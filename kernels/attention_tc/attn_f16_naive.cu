// attn_f16_naive: single-head attention O = softmax(Q K^T * scale) V with fp16 Q (Mx64), K and V
// (Tx64), fp32 O (Mx64). One thread per query row; the row's scores are kept in local memory.
// The softmax subtracts the row maximum and uses exp2 with scale_log2 = log2(e) / sqrt(64):
// p_j = 2^((s_j - m) * scale_log2) = e^((s_j - m) / 8). The reference of the tensor-core
// attention kernels in this directory.
// Launch: block = (M), grid = (1); T <= 512.
#include <cuda_fp16.h>

#define D 64
#define MAXT 512

extern "C" __global__ void attn_f16_naive(const __half* Q, const __half* K, const __half* V, float* O,
                                          int M, int T, float scale_log2)
{
    int i = threadIdx.x;
    if (i >= M) return;
    float s[MAXT];
    float m = -INFINITY;
    for (int j = 0; j < T; ++j) {
        float acc = 0.0f;
        for (int d = 0; d < D; ++d) {
            acc += __half2float(Q[i * D + d]) * __half2float(K[j * D + d]);
        }
        s[j] = acc;
        m = fmaxf(m, acc);
    }
    float l = 0.0f;
    for (int j = 0; j < T; ++j) {
        s[j] = exp2f((s[j] - m) * scale_log2);
        l += s[j];
    }
    for (int d = 0; d < D; ++d) {
        float acc = 0.0f;
        for (int j = 0; j < T; ++j) {
            acc += s[j] * __half2float(V[j * D + d]);
        }
        O[i * D + d] = acc / l;
    }
}
