// attn_naive_causal: attn_naive with a causal mask, bottom-right aligned (the convention of a
// query block at the end of a KV cache): query i sits at position TK - TQ + i and sees the keys
// j <= TK - TQ + i. One CTA, one thread per query row, scores in shared memory S[i][.]:
//   s[j] = scale * sum_d Q[i][d] K[j][d] (j <= pos);  m = max s;  p[j] = exp(s[j] - m);
//   O[i][d] = sum_{j <= pos} p[j] V[j][d] / sum_{j <= pos} p[j].
// The loop bound pos depends on threadIdx.x only. TQ = 8, TK = 32, D = 16, scale = 1/sqrt(D).
// Launch: grid = 1, block = TQ = 8.
#include <math.h>
#define TQ 8
#define TK 32
#define D 16
#define SCALE 0.25f

extern "C" __global__ void attn_naive_causal(const float* Q, const float* K, const float* V, float* O)
{
    __shared__ float S[TQ][TK];
    int i = threadIdx.x;
    if (i < TQ) {
        int pos = TK - TQ + i;
        float m = -INFINITY;
        for (int j = 0; j <= pos; ++j) {
            float s = 0.0f;
            for (int d = 0; d < D; ++d)
                s += Q[i * D + d] * K[j * D + d];
            s *= SCALE;
            S[i][j] = s;
            m = fmaxf(m, s);
        }
        float l = 0.0f;
        for (int j = 0; j <= pos; ++j) {
            float p = __expf(S[i][j] - m);
            S[i][j] = p;
            l += p;
        }
        for (int d = 0; d < D; ++d) {
            float acc = 0.0f;
            for (int j = 0; j <= pos; ++j)
                acc += S[i][j] * V[j * D + d];
            O[i * D + d] = acc / l;
        }
    }
}
