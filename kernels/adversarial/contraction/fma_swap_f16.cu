// fma_swap_f16: fma_swap_f32 on f16 data widened to f32 (cvt.f32.f16). The product of two f16
// values has at most 22 significant bits and lies between 2^-48 and 2^32, so it is exact in f32:
// both threads compute round(x*x + y*y), bit for bit, for every input.
// True verdict: safe (a benign write). Launch: grid = 1, block = 32.
#include <cuda_fp16.h>
extern "C" __global__ void fma_swap_f16(const __half* a, const __half* b, float* out)
{
    int t = threadIdx.x;
    float x = __half2float(a[0]), y = __half2float(b[0]);
    if (t == 0) out[0] = __fmaf_rn(x, x, __fmul_rn(y, y));
    if (t == 1) out[0] = __fmaf_rn(y, y, __fmul_rn(x, x));
}
