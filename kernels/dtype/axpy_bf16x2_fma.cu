// axpy_bf16x2_fma: out = alpha * x + y on bfloat16 vectors, two elements per thread with one
// packed fused multiply-add (__hfma2 on __nv_bfloat162: fma.rn.bf16x2); alpha is broadcast to
// both halves (__float2bfloat162_rn). n must be even.
// Launch: grid = ceil(n / 2 / blockDim.x), any block.
#include <cuda_bf16.h>

extern "C" __global__ void axpy_bf16x2_fma(const __nv_bfloat162* x, const __nv_bfloat162* y,
                                           __nv_bfloat162* out, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = __hfma2(__float2bfloat162_rn(alpha), x[i], y[i]);
}
