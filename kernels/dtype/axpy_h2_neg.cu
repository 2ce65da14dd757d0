// axpy_h2_neg: out = y - (-alpha) * x on half vectors, two elements per thread: __hneg2,
// __hmul2, __hsub2 (neg.f16x2, mul.f16x2, sub.f16x2); the same real value as alpha * x + y.
// n must be even.
// Launch: grid = ceil(n / 2 / blockDim.x), any block.
#include <cuda_fp16.h>

extern "C" __global__ void axpy_h2_neg(const __half2* x, const __half2* y, __half2* out,
                                       float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = __hsub2(y[i], __hmul2(__hneg2(__float2half2_rn(alpha)), x[i]));
}
