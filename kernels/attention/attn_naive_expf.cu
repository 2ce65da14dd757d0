// attn_naive_expf: scaled dot-product attention O = softmax(Q K^T * scale) V for one head, one CTA,
// one thread per query row i (Q [TQ, D], K and V [TK, D], O [TQ, D], all row-major):
//   s[j] = scale * sum_d Q[i][d] K[j][d];  m = max_j s[j];  p[j] = exp(s[j] - m);
//   l = sum_j p[j];  O[i][d] = sum_j p[j] V[j][d] / l.
// The row of scores (then of probabilities) lives in shared memory S[i][.], each thread
// touching only its own row. Sizes are compile-time: TQ = 8, TK = 32, D = 16, scale = 1/sqrt(D).
// This is attn_naive with expf instead of __expf (libdevice's accurate expf, whose bit-built 2^k kcert
// reads as a power of two: checker/src/exec/libdevice.rs): the reference of attn_flash_expf.
// Launch: grid = 1, block = TQ = 8.
#include <math.h>
#define TQ 8
#define TK 32
#define D 16
#define SCALE 0.25f

extern "C" __global__ void attn_naive_expf(const float* Q, const float* K, const float* V, float* O)
{
    __shared__ float S[TQ][TK];
    int i = threadIdx.x;
    if (i < TQ) {
        float m = -INFINITY;
        for (int j = 0; j < TK; ++j) {
            float s = 0.0f;
            for (int d = 0; d < D; ++d)
                s += Q[i * D + d] * K[j * D + d];
            s *= SCALE;
            S[i][j] = s;
            m = fmaxf(m, s);
        }
        float l = 0.0f;
        for (int j = 0; j < TK; ++j) {
            float p = expf(S[i][j] - m);
            S[i][j] = p;
            l += p;
        }
        for (int d = 0; d < D; ++d) {
            float acc = 0.0f;
            for (int j = 0; j < TK; ++j)
                acc += S[i][j] * V[j * D + d];
            O[i * D + d] = acc / l;
        }
    }
}
