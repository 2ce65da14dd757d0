// fma_swap_mixed: x is f16 (widened), y is f32: y*y is not exact in f32, so the exactness
// argument does not apply to fma(y, y, x*x). True verdict: fp_nondeterministic.
// Launch: grid = 1, block = 32.
#include <cuda_fp16.h>
extern "C" __global__ void fma_swap_mixed(const __half* a, const float* b, float* out)
{
    int t = threadIdx.x;
    float x = __half2float(a[0]), y = b[0];
    if (t == 0) out[0] = __fmaf_rn(x, x, __fmul_rn(y, y));
    if (t == 1) out[0] = __fmaf_rn(y, y, __fmul_rn(x, x));
}
