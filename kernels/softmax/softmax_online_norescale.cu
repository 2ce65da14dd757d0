// softmax_online_norescale: SEEDED BUG (value bug, safe).
// softmax_online without the rescale of the running sum: s = s + exp(x - m_new), so the
// terms added before the max last grew stay relative to an older, smaller max and s is
// too large (unless the row max is its first element). out = exp(x - m) / s is wrong.
// Launch: grid = ceil(rows / 4), block = 4 (rows = 4, cols = 16 in the spec).
// __expf, not expf: with build.sh's flags (no --use_fast_math) expf is libdevice's accurate
// expf (range reduction through bit casts: mov.b32 f32<->b32, shl.b32 23, cvt.sat, fma.rm),
// while __expf(y) is `mul.f32 y, 0f3FB8AA3B` (log2 e) then `ex2.approx.f32`.
#include <math.h>

extern "C" __global__ void softmax_online_norescale(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + r * cols;
        float* outr = out + r * cols;
        float m = -INFINITY;
        float s = 0.0f;
        for (int c = 0; c < cols; ++c) {
            float v = xr[c];
            float m_new = fmaxf(m, v);
            s = s + __expf(v - m_new);   // BUG: should be s * __expf(m - m_new) + __expf(v - m_new)
            m = m_new;
        }
        for (int c = 0; c < cols; ++c)
            outr[c] = __expf(xr[c] - m) / s;
    }
}
