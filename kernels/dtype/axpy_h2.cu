// axpy_h2: out = alpha * x + y on half vectors, two elements per thread in packed half
// arithmetic: __hmul2 then __hadd2 (mul.f16x2, add.f16x2), alpha broadcast with
// __float2half2_rn. n must be even.
// Launch: grid = ceil(n / 2 / blockDim.x), any block.
#include <cuda_fp16.h>

extern "C" __global__ void axpy_h2(const __half2* x, const __half2* y, __half2* out, float alpha,
                                   int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = __hadd2(__hmul2(__float2half2_rn(alpha), x[i]), y[i]);
}
