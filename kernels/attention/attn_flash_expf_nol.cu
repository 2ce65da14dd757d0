// attn_flash_expf_nol: BUGGY twin of attn_flash_expf: the running sum l is not rescaled by
// alpha when the running maximum grows (acc is), so O = acc / l divides by a sum of
// probabilities taken against different maxima.
// Launch: grid = 1, block = TQ = 8.
#include <math.h>
#define TQ 8
#define TK 32
#define D 16
#define BC 8
#define SCALE 0.25f

extern "C" __global__ void attn_flash_expf_nol(const float* Q, const float* K, const float* V, float* O)
{
    __shared__ float Ks[BC][D];
    __shared__ float Vs[BC][D];
    int i = threadIdx.x;
    float q[D], acc[D];
    for (int d = 0; d < D; ++d) {
        q[d] = Q[i * D + d];
        acc[d] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (int kb = 0; kb < TK; kb += BC) {
        for (int e = i; e < BC * D; e += TQ) {
            Ks[e / D][e % D] = K[kb * D + e];
            Vs[e / D][e % D] = V[kb * D + e];
        }
        __syncthreads();
        float s[BC];
        float m_new = m;
        for (int jj = 0; jj < BC; ++jj) {
            float t = 0.0f;
            for (int d = 0; d < D; ++d)
                t += q[d] * Ks[jj][d];
            s[jj] = t * SCALE;
            m_new = fmaxf(m_new, s[jj]);
        }
        float alpha = expf(m - m_new);
        for (int d = 0; d < D; ++d)
            acc[d] *= alpha;
        for (int jj = 0; jj < BC; ++jj) {
            float p = expf(s[jj] - m_new);
            l += p;
            for (int d = 0; d < D; ++d)
                acc[d] += p * Vs[jj][d];
        }
        m = m_new;
        __syncthreads();
    }
    for (int d = 0; d < D; ++d)
        O[i * D + d] = acc[d] / l;
}
