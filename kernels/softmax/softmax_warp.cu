// softmax_warp: row-wise softmax of x [rows, cols] into out [rows, cols], one warp per row,
// for cols <= 32: lane c holds x[r][c] (lanes c >= cols hold -INFINITY, then 0), the row max
// and the row sum are butterfly reductions with __shfl_xor_sync (every lane ends with the
// full result), and lanes c < cols write out[r][c] = exp(x[r][c] - m) / s.
// Launch: block = 32 * warps per CTA (128: 4 rows), grid = ceil(rows / 4).
// __expf, not expf: with build.sh's flags (no --use_fast_math) expf is libdevice's accurate
// expf (range reduction through bit casts: mov.b32 f32<->b32, shl.b32 23, cvt.sat, fma.rm),
// while __expf(y) is `mul.f32 y, 0f3FB8AA3B` (log2 e) then `ex2.approx.f32`.
#include <math.h>
#define WARP 32

extern "C" __global__ void softmax_warp(const float* x, float* out, int rows, int cols)
{
    int lane = threadIdx.x % WARP;
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    if (r < rows) {                       // uniform per warp: all 32 lanes take the same path
        float v = (lane < cols) ? x[r * cols + lane] : -INFINITY;
        float m = v;
        for (int off = WARP / 2; off > 0; off >>= 1)
            m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off));
        float e = (lane < cols) ? __expf(v - m) : 0.0f;
        float s = e;
        for (int off = WARP / 2; off > 0; off >>= 1)
            s += __shfl_xor_sync(0xffffffff, s, off);
        if (lane < cols)
            out[r * cols + lane] = e / s;
    }
}
