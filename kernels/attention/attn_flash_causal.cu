// attn_flash_causal: attn_flash with a causal mask, bottom-right aligned like attn_naive_causal:
// query i sits at position pos = TK - TQ + i and sees the keys j <= pos; masked scores are
// -INFINITY (exp(-inf - m_new) = 0), and a block wholly past pos is skipped (no thread skips the
// loads or the barriers). Otherwise as attn_flash: FlashAttention-1 style, scalar math.
// One CTA, one thread per query row i; the keys are processed in blocks of BC = 8: the CTA
// stages K and V of the block in shared memory (Ks, Vs; __syncthreads around), then each
// thread keeps a running max m, a running sum l and an accumulator acc[D] (registers):
//   s[jj] = scale * Q[i] . Ks[jj];  m_new = max(m, max_jj s[jj]);  alpha = exp(m - m_new);
//   l = l * alpha + sum_jj exp(s[jj] - m_new);  acc = acc * alpha + sum_jj exp(s[jj] - m_new) Vs[jj];
//   m = m_new;  finally O[i] = acc / l.
// In the first block m = -INFINITY, so alpha = exp(-inf) = 0 (times l = 0 and acc = 0).
// TQ = 8, TK = 32, D = 16, BC = 8, scale = 1/sqrt(D) = 0.25. Launch: grid = 1, block = TQ = 8.
#include <math.h>
#define TQ 8
#define TK 32
#define D 16
#define BC 8
#define SCALE 0.25f

extern "C" __global__ void attn_flash_causal(const float* Q, const float* K, const float* V, float* O)
{
    __shared__ float Ks[BC][D];
    __shared__ float Vs[BC][D];
    int i = threadIdx.x;
    float q[D], acc[D];
    for (int d = 0; d < D; ++d) {
        q[d] = Q[i * D + d];
        acc[d] = 0.0f;
    }
    int pos = TK - TQ + i;
    float m = -INFINITY, l = 0.0f;
    for (int kb = 0; kb < TK; kb += BC) {
        for (int e = i; e < BC * D; e += TQ) {
            Ks[e / D][e % D] = K[kb * D + e];
            Vs[e / D][e % D] = V[kb * D + e];
        }
        __syncthreads();
        if (kb <= pos) {
            float s[BC];
            float m_new = m;
            for (int jj = 0; jj < BC; ++jj) {
                float t = 0.0f;
                for (int d = 0; d < D; ++d)
                    t += q[d] * Ks[jj][d];
                s[jj] = (kb + jj <= pos) ? t * SCALE : -INFINITY;
                m_new = fmaxf(m_new, s[jj]);
            }
            float alpha = __expf(m - m_new);
            l *= alpha;
            for (int d = 0; d < D; ++d)
                acc[d] *= alpha;
            for (int jj = 0; jj < BC; ++jj) {
                float p = __expf(s[jj] - m_new);
                l += p;
                for (int d = 0; d < D; ++d)
                    acc[d] += p * Vs[jj][d];
            }
            m = m_new;
        }
        __syncthreads();
    }
    for (int d = 0; d < D; ++d)
        O[i * D + d] = acc[d] / l;
}
