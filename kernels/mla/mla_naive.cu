// mla_naive: multi-head latent attention, one decode step, in the two-step form: first
// materialize the keys and values of every head from the latent KV cache, then attend.
//   c [T, DC] latent cache, W_uk [DC, H*DH], W_uv [DC, H*DV] up-projections, q [H, DH]:
//   K[t][h*DH + e] = sum_r c[t][r] W_uk[r][h*DH + e];  V[t][h*DV + e] = sum_r c[t][r] W_uv[r][h*DV + e];
//   s[h][t] = scale * sum_e q[h][e] K[t][h*DH + e];  p = softmax_t(s[h]);  o[h][e] = sum_t p[t] V[t][h*DV + e].
// One CTA of H*DV = 16 threads: step 1 fills K and V in shared memory (strided over all
// threads), __syncthreads; step 2: thread (h, e) computes the scores of head h (redundantly
// across e), their max and sum, and o[h][e] = sum_t exp(s - m) V / l.
// H = 2, T = 16, DC = 8, DH = 16, DV = 8, scale = 1/sqrt(DH) = 0.25 (compile-time).
// Launch: grid = 1, block = 16.
#include <math.h>
#define H 2
#define T 16
#define DC 8
#define DH 16
#define DV 8
#define SCALE 0.25f
#define NT (H * DV)

extern "C" __global__ void mla_naive(const float* q, const float* c, const float* w_uk,
                                     const float* w_uv, float* o)
{
    __shared__ float Ks[T][H * DH];
    __shared__ float Vs[T][H * DV];
    int tid = threadIdx.x;
    for (int idx = tid; idx < T * H * DH; idx += NT) {
        int t = idx / (H * DH), col = idx % (H * DH);
        float acc = 0.0f;
        for (int r = 0; r < DC; ++r)
            acc += c[t * DC + r] * w_uk[r * H * DH + col];
        Ks[t][col] = acc;
    }
    for (int idx = tid; idx < T * H * DV; idx += NT) {
        int t = idx / (H * DV), col = idx % (H * DV);
        float acc = 0.0f;
        for (int r = 0; r < DC; ++r)
            acc += c[t * DC + r] * w_uv[r * H * DV + col];
        Vs[t][col] = acc;
    }
    __syncthreads();
    int h = tid / DV, e = tid % DV;
    float s[T];
    float m = -INFINITY;
    for (int t = 0; t < T; ++t) {
        float acc = 0.0f;
        for (int d = 0; d < DH; ++d)
            acc += q[h * DH + d] * Ks[t][h * DH + d];
        s[t] = acc * SCALE;
        m = fmaxf(m, s[t]);
    }
    float l = 0.0f, acc = 0.0f;
    for (int t = 0; t < T; ++t) {
        float p = __expf(s[t] - m);
        l += p;
        acc += p * Vs[t][h * DV + e];
    }
    o[h * DV + e] = acc / l;
}
