// f16_into_bf16: the f16 rounding of x[i] (f32) stored into a bf16 output through a
// reinterpret_cast: the f16 bits are read as bf16 by whoever reads out. True verdict against
// cvt_bf16: NOT equivalent; kcert must refuse the store with its line (declined).
// Launch: grid = 1, block = 64.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void f16_into_bf16(const float* x, __nv_bfloat16* out)
{
    int i = threadIdx.x;
    reinterpret_cast<__half*>(out)[i] = __float2half_rn(x[i]);
}
