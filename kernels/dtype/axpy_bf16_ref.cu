// axpy_bf16_ref: out[i] = alpha * x[i] + y[i] on bfloat16 vectors, computed in float
// (cvt.f32.bf16 of each load, fma.rn.f32, cvt.rn.bf16.f32 of the result). The reference of
// the bf16 axpy kernels in this directory.
// Launch: grid = ceil(n / blockDim.x), any block.
#include <cuda_bf16.h>

extern "C" __global__ void axpy_bf16_ref(const __nv_bfloat16* x, const __nv_bfloat16* y,
                                         __nv_bfloat16* out, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __float2bfloat16(alpha * __bfloat162float(x[i]) + __bfloat162float(y[i]));
}
