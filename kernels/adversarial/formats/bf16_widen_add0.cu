// bf16_widen_add0: out[i] = (float)x[i] + 0.0f from bf16, the reference of bf16_widen (equal
// over the reals). Launch: grid = 1, block = 64.
#include <cuda_bf16.h>
extern "C" __global__ void bf16_widen_add0(const __nv_bfloat16* x, float* out, float zero)
{
    int i = threadIdx.x;
    out[i] = __bfloat162float(x[i]) + zero;
}
