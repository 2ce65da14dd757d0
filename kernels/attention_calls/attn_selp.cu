// attn_selp: one-pass online-softmax attention written with "first trip" selects, as tensor-core
// attention code does: m, l and acc[] are not initialised before the key loop, and the first trip
// takes m = s, l = p, acc = p V by (j == 0) ? ... : ... (see adversarial/undef/selp_acc.cu). The key
// count is a runtime value (n, or n - TQ + 1 + i per row when causal != 0, bottom-right aligned:
// query i sees keys j <= n - TQ + i), so nvcc keeps selp.f32 instructions whose other side is a
// register never written on the first trip (and computes exp(m - m_new) from it, then drops it).
// One CTA, one thread per query row, K and V read from global memory, scalar math, __expf.
// True verdicts: attn_selp (n = 32, causal = 0): safe, equivalent to attention/attn_naive;
// attn_selp_causal (n = 32, causal = 1): safe, equivalent to attention/attn_naive_causal;
// attn_selp_short (n = 7, causal = 1): row 0 has no key, its loop never runs and O[0][.] =
// acc / l stores registers never written: invalid. TQ = 8, D = 16, scale = 0.25; block = 8.
#include <math.h>
#define TQ 8
#define D 16
#define SCALE 0.25f

extern "C" __global__ void attn_selp(const float* Q, const float* K, const float* V, float* O,
                                     int n, int causal)
{
    int i = threadIdx.x;
    if (i >= TQ)
        return;
    int cnt = causal ? n - TQ + 1 + i : n;
    float q[D], acc[D];
    for (int d = 0; d < D; ++d)
        q[d] = Q[i * D + d];
    float m, l;
    for (int j = 0; j < cnt; ++j) {
        float t = 0.0f;
        for (int d = 0; d < D; ++d)
            t += q[d] * K[j * D + d];
        float s = t * SCALE;
        float m_new = (j == 0) ? s : fmaxf(m, s);
        float alpha = __expf(m - m_new);
        float p = __expf(s - m_new);
        l = (j == 0) ? p : l * alpha + p;
        for (int d = 0; d < D; ++d) {
            float v = V[j * D + d];     // loaded once, so both sides are plain arithmetic: selp.f32
            acc[d] = (j == 0) ? p * v : acc[d] * alpha + p * v;
        }
        m = m_new;
    }
    for (int d = 0; d < D; ++d)
        O[i * D + d] = acc[d] / l;
}
