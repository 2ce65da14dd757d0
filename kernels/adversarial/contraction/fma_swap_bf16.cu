// fma_swap_bf16: fma_swap_f32 on bf16 data widened to f32. The product of two bf16 values has
// 16 significant bits, exact in f32 while it is normal; but bf16 has f32's exponent range, so a
// square can underflow: x = 2^-75, y = 5 * 2^-77 store 2 and 1 units of 2^-149.
// True verdict: fp_nondeterministic (bit-equal unless a product underflows).
// Launch: grid = 1, block = 32.
#include <cuda_bf16.h>
extern "C" __global__ void fma_swap_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* out)
{
    int t = threadIdx.x;
    float x = __bfloat162float(a[0]), y = __bfloat162float(b[0]);
    if (t == 0) out[0] = __fmaf_rn(x, x, __fmul_rn(y, y));
    if (t == 1) out[0] = __fmaf_rn(y, y, __fmul_rn(x, x));
}
