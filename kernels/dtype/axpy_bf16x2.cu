// axpy_bf16x2: out = alpha * x + y on bfloat16 vectors, two elements per thread through
// __nv_bfloat162 (one 32-bit load of each input), math in float (__bfloat1622float2) and one
// packed conversion back (__floats2bfloat162_rn: cvt.rn.bf16x2.f32). n must be even.
// Launch: grid = ceil(n / 2 / blockDim.x), any block.
#include <cuda_bf16.h>

extern "C" __global__ void axpy_bf16x2(const __nv_bfloat162* x, const __nv_bfloat162* y,
                                       __nv_bfloat162* out, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2) {
        float2 a = __bfloat1622float2(x[i]);
        float2 b = __bfloat1622float2(y[i]);
        out[i] = __floats2bfloat162_rn(alpha * a.x + b.x, alpha * a.y + b.y);
    }
}
