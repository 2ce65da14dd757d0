// axpy_bf16: out[i] = alpha * x[i] + y[i] on bfloat16 vectors with native bf16 arithmetic:
// alpha rounded to bf16 once (cvt.rn.bf16.f32), then __hfma (fma.rn.bf16) on the 16-bit loads.
// Launch: grid = ceil(n / blockDim.x), any block.
#include <cuda_bf16.h>

extern "C" __global__ void axpy_bf16(const __nv_bfloat16* x, const __nv_bfloat16* y,
                                     __nv_bfloat16* out, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 a = __float2bfloat16(alpha);
    if (i < n)
        out[i] = __hfma(a, x[i], y[i]);
}
