// softmax_call: softmax_warp_expf (one warp per row, max and sum by __shfl_xor_sync
// butterflies) with the exponential in a __noinline__ device function my_exp (libdevice expf
// inside it), so nvcc emits a call with .param passing. True verdict: safe, equivalent to
// softmax/softmax_warp_expf. Launch: block = 128 (4 rows of 16), grid = 1.
#include <math.h>
#define WARP 32

__device__ __noinline__ float my_exp(float x)
{
    return expf(x);
}

extern "C" __global__ void softmax_call(const float* x, float* out, int rows, int cols)
{
    int lane = threadIdx.x % WARP;
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    if (r < rows) {                       // uniform per warp: all 32 lanes take the same path
        float v = (lane < cols) ? x[r * cols + lane] : -INFINITY;
        float m = v;
        for (int off = WARP / 2; off > 0; off >>= 1)
            m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off));
        float e = (lane < cols) ? my_exp(v - m) : 0.0f;
        float s = e;
        for (int off = WARP / 2; off > 0; off >>= 1)
            s += __shfl_xor_sync(0xffffffff, s, off);
        if (lane < cols)
            out[r * cols + lane] = e / s;
    }
}
