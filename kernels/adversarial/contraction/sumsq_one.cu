// sumsq_one: the reference of the contraction class: thread 0 alone stores x*x + y*y
// (x, y as the instance's dtypes; a[0], b[0] widened to f32). True verdict: safe.
// Launch: grid = 1, block = 32.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void sumsq_one_f32(const float* a, const float* b, float* out)
{
    if (threadIdx.x == 0) out[0] = __fadd_rn(__fmul_rn(a[0], a[0]), __fmul_rn(b[0], b[0]));
}
extern "C" __global__ void sumsq_one_f16(const __half* a, const __half* b, float* out)
{
    float x = __half2float(a[0]), y = __half2float(b[0]);
    if (threadIdx.x == 0) out[0] = __fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y));
}
extern "C" __global__ void sumsq_one_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* out)
{
    float x = __bfloat162float(a[0]), y = __bfloat162float(b[0]);
    if (threadIdx.x == 0) out[0] = __fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y));
}
extern "C" __global__ void sumsq_one_mixed(const __half* a, const float* b, float* out)
{
    float x = __half2float(a[0]), y = b[0];
    if (threadIdx.x == 0) out[0] = __fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y));
}
