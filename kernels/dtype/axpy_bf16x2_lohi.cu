// axpy_bf16x2_lohi: (seeded bug) axpy_bf16x2 pairing the low half of x with the high half of y:
// out[2i] = alpha * x[2i] + y[2i+1], out[2i+1] = alpha * x[2i+1] + y[2i].
// Launch: grid = ceil(n / 2 / blockDim.x), any block.
#include <cuda_bf16.h>

extern "C" __global__ void axpy_bf16x2_lohi(const __nv_bfloat162* x, const __nv_bfloat162* y,
                                            __nv_bfloat162* out, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2) {
        float2 a = __bfloat1622float2(x[i]);
        float2 b = __bfloat1622float2(y[i]);
        out[i] = __floats2bfloat162_rn(alpha * a.x + b.y, alpha * a.y + b.x);
    }
}
