// nvcc-flags: -arch=sm_90
// bf16_widen_sm90: out[i] = (float)x[i] from bf16, which sm_90 PTX writes as `cvt.f32.bf16`:
// the safe twin of f16_as_bf16_sm90. True verdict against bf16_widen_add0: equivalent.
// Launch: grid = 1, block = 64.
#include <cuda_bf16.h>
extern "C" __global__ void bf16_widen_sm90(const __nv_bfloat16* x, float* out)
{
    int i = threadIdx.x;
    out[i] = __bfloat162float(x[i]);
}
