// attn_call_exp2x: seeded bug in attn_call: the out-of-line my_exp returns __expf(2 * x), so
// every weight is squared: p = exp(2 (s - m)). True verdict: safe, NOT equivalent to
// attention/attn_naive (the softmax of 2s is not the softmax of s). Otherwise as attn_call.
// TQ = 8, TK = 32, D = 16, BC = 8, scale = 0.25. Launch: grid = 1, block = TQ = 8.
#include <math.h>
#define TQ 8
#define TK 32
#define D 16
#define BC 8
#define SCALE 0.25f

// The exponential, kept out of line (__noinline__) so the PTX calls it with .param passing.
__device__ __noinline__ float my_exp(float x)
{
    return __expf(2.0f * x);
}

extern "C" __global__ void attn_call_exp2x(const float* Q, const float* K, const float* V, float* O)
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
        float alpha = my_exp(m - m_new);
        l *= alpha;
        for (int d = 0; d < D; ++d)
            acc[d] *= alpha;
        for (int jj = 0; jj < BC; ++jj) {
            float p = my_exp(s[jj] - m_new);
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
