// bf16x2_add: out = x + y on bf16x2 data with __hadd2 on __nv_bfloat162 (add.bf16x2 or its
// sm_80 expansion), the reference of hadd2_on_bf16 and of bf16x2_add_f32.
// Launch: grid = 1, block = 32.
#include <cuda_bf16.h>
extern "C" __global__ void bf16x2_add(const __nv_bfloat162* x, const __nv_bfloat162* y,
                                      __nv_bfloat162* out)
{
    int i = threadIdx.x;
    out[i] = __hadd2(x[i], y[i]);
}
