// softmax_warp_expf_short: BUGGY twin of softmax_warp_expf: the sum's butterfly stops one step
// early (off > 1), so each lane divides by the sum over half of the row's lanes.
// Launch: block = 32 * warps per CTA (128: 4 rows), grid = ceil(rows / 4).
#include <math.h>
#define WARP 32

extern "C" __global__ void softmax_warp_expf_short(const float* x, float* out, int rows, int cols)
{
    int lane = threadIdx.x % WARP;
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    if (r < rows) {                       // uniform per warp: all 32 lanes take the same path
        float v = (lane < cols) ? x[r * cols + lane] : -INFINITY;
        float m = v;
        for (int off = WARP / 2; off > 0; off >>= 1)
            m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off));
        float e = (lane < cols) ? expf(v - m) : 0.0f;
        float s = e;
        for (int off = WARP / 2; off > 1; off >>= 1)
            s += __shfl_xor_sync(0xffffffff, s, off);
        if (lane < cols)
            out[r * cols + lane] = e / s;
    }
}
