// cvt_bf16: out[i] = bf16(x[i]) from f32 to bf16, the reference of f16_into_bf16 and of
// cvt_bf16_twice. Launch: grid = 1, block = 64.
#include <cuda_bf16.h>
extern "C" __global__ void cvt_bf16(const float* x, __nv_bfloat16* out)
{
    int i = threadIdx.x;
    out[i] = __float2bfloat16_rn(x[i]);
}
