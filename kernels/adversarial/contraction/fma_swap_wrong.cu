// fma_swap_wrong: the near-miss of fma_swap_f16: thread 1 stores fma(y, y, x*y), a different
// real (x^2 + y^2 against xy + y^2), into the same place, unordered. True verdict: race (no
// exactness argument may call different reals benign). Launch: grid = 1, block = 32.
#include <cuda_fp16.h>
extern "C" __global__ void fma_swap_wrong(const __half* a, const __half* b, float* out)
{
    int t = threadIdx.x;
    float x = __half2float(a[0]), y = __half2float(b[0]);
    if (t == 0) out[0] = __fmaf_rn(x, x, __fmul_rn(y, y));
    if (t == 1) out[0] = __fmaf_rn(y, y, __fmul_rn(x, y));
}
