// softmax_wrongscale: SEEDED BUG (value bug, safe).
// softmax_naive whose output numerator uses half the exponent, exp(0.5f * (x - m)),
// while the sum s uses exp(x - m): the outputs do not sum to 1 (wrong unless every
// element of the row equals the max).
// Launch: grid = ceil(rows / 4), block = 4 (rows = 4, cols = 16 in the spec).
// __expf, not expf: with build.sh's flags (no --use_fast_math) expf is libdevice's accurate
// expf (range reduction through bit casts: mov.b32 f32<->b32, shl.b32 23, cvt.sat, fma.rm),
// while __expf(y) is `mul.f32 y, 0f3FB8AA3B` (log2 e) then `ex2.approx.f32`.
#include <math.h>

extern "C" __global__ void softmax_wrongscale(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + r * cols;
        float* outr = out + r * cols;
        float m = -INFINITY;
        for (int c = 0; c < cols; ++c)
            m = fmaxf(m, xr[c]);
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += __expf(xr[c] - m);
        for (int c = 0; c < cols; ++c)
            outr[c] = __expf(0.5f * (xr[c] - m)) / s;   // BUG: should be __expf(xr[c] - m) / s
    }
}
