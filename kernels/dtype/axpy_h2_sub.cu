// axpy_h2_sub: BUGGY twin of axpy_h2: __hsub2 where __hadd2 belongs, so out = alpha * x - y.
// Launch: grid = ceil(n / 2 / blockDim.x), any block.
#include <cuda_fp16.h>

extern "C" __global__ void axpy_h2_sub(const __half2* x, const __half2* y, __half2* out,
                                       float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = __hsub2(__hmul2(__float2half2_rn(alpha), x[i]), y[i]);
}
