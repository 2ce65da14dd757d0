// axpy_bf16_swap: (seeded bug) axpy_bf16 with the operands of __hfma swapped: out[i] =
// alpha * y[i] + x[i] instead of alpha * x[i] + y[i].
// Launch: grid = ceil(n / blockDim.x), any block.
#include <cuda_bf16.h>

extern "C" __global__ void axpy_bf16_swap(const __nv_bfloat16* x, const __nv_bfloat16* y,
                                          __nv_bfloat16* out, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 a = __float2bfloat16(alpha);
    if (i < n)
        out[i] = __hfma(a, y[i], x[i]);
}
