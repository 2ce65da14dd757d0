// scale_residual_f16x2: out = alpha * x + res on __half vectors, two elements per thread
// through __half2 (__half22float2, __floats2half2_rn: cvt.rn.f16x2.f32). n must be even.
// Launch: grid = ceil(n / 2 / blockDim.x), any block.
#include <cuda_fp16.h>

extern "C" __global__ void scale_residual_f16x2(const __half2* x, const __half2* res, __half2* out,
                                                float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2) {
        float2 a = __half22float2(x[i]);
        float2 b = __half22float2(res[i]);
        out[i] = __floats2half2_rn(alpha * a.x + b.x, alpha * a.y + b.y);
    }
}
