// scale_residual_f16: out[i] = alpha * x[i] + res[i] on __half vectors (a scaled residual add),
// math in float: cvt.f32.f16 of each load, cvt.rn.f16.f32 of the result.
// Launch: grid = ceil(n / blockDim.x), any block.
#include <cuda_fp16.h>

extern "C" __global__ void scale_residual_f16(const __half* x, const __half* res, __half* out,
                                              float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __float2half(alpha * __half2float(x[i]) + __half2float(res[i]));
}
