// axpy_bf16x2_fma_xy: BUGGY twin of axpy_bf16x2_fma: the packed fma multiplies alpha by y and
// adds x (operands swapped), so out = alpha * y + x.
// Launch: grid = ceil(n / 2 / blockDim.x), any block.
#include <cuda_bf16.h>

extern "C" __global__ void axpy_bf16x2_fma_xy(const __nv_bfloat162* x, const __nv_bfloat162* y,
                                              __nv_bfloat162* out, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = __hfma2(__float2bfloat162_rn(alpha), y[i], x[i]);
}
