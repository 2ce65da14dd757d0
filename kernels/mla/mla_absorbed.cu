// mla_absorbed: the same MLA decode step as mla_naive in the absorbed form: W_uk is folded into
// the query and W_uv applied after attention, so no per-head key or value is ever formed:
//   q_lat[h][r] = sum_e W_uk[r][h*DH + e] q[h][e]            (the query in latent space, once)
//   s[h][t] = scale * sum_r q_lat[h][r] c[t][r];  p = softmax_t(s[h])   (attention over the cache)
//   o_lat[h][r] = sum_t p[t] c[t][r];  o[h][e] = sum_r o_lat[h][r] W_uv[r][h*DV + e].
// Equal to mla_naive over the reals by associativity of the matrix products.
// One CTA of H*DC = 16 threads, thread (h, j): step 1 computes q_lat[h][j] into shared memory;
// step 2 (after __syncthreads) the scores of head h over the latent cache (redundantly across
// j), their max and sum, and o_lat[h][j] into shared memory; step 3 (after __syncthreads)
// o[h][j] (here DV = DC, so j also ranges over the output columns).
// H = 2, T = 16, DC = 8, DH = 16, DV = 8, scale = 0.25 (compile-time). Launch: grid = 1, block = 16.
#include <math.h>
#define H 2
#define T 16
#define DC 8
#define DH 16
#define DV 8
#define SCALE 0.25f

extern "C" __global__ void mla_absorbed(const float* q, const float* c, const float* w_uk,
                                        const float* w_uv, float* o)
{
    __shared__ float q_lat[H][DC];
    __shared__ float o_lat[H][DC];
    int tid = threadIdx.x;
    int h = tid / DC, j = tid % DC;
    float acc = 0.0f;
    for (int e = 0; e < DH; ++e)
        acc += w_uk[j * H * DH + h * DH + e] * q[h * DH + e];
    q_lat[h][j] = acc;
    __syncthreads();
    float s[T];
    float m = -INFINITY;
    for (int t = 0; t < T; ++t) {
        float a = 0.0f;
        for (int r = 0; r < DC; ++r)
            a += q_lat[h][r] * c[t * DC + r];
        s[t] = a * SCALE;
        m = fmaxf(m, s[t]);
    }
    float l = 0.0f;
    acc = 0.0f;
    for (int t = 0; t < T; ++t) {
        float p = __expf(s[t] - m);
        l += p;
        acc += p * c[t * DC + j];
    }
    o_lat[h][j] = acc / l;
    __syncthreads();
    float out = 0.0f;
    for (int r = 0; r < DC; ++r)
        out += o_lat[h][r] * w_uv[r * H * DV + h * DV + j];
    o[h * DV + j] = out;
}
