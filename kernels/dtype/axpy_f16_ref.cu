// axpy_f16_ref: out[i] = alpha * x[i] + y[i] on half vectors, computed in float (cvt.f32.f16
// of each load, fma.rn.f32, cvt.rn.f16.f32 of the result). The reference of the f16x2 axpy
// kernels in this directory.
// Launch: grid = ceil(n / blockDim.x), any block.
#include <cuda_fp16.h>

extern "C" __global__ void axpy_f16_ref(const __half* x, const __half* y, __half* out,
                                        float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __float2half(alpha * __half2float(x[i]) + __half2float(y[i]));
}
