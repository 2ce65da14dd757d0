// cvt_bf16_twice: out[i] = bf16(float(bf16(x[i]))): the safe twin of f16_into_bf16, a bf16
// value stored into a bf16 output. True verdict against cvt_bf16: equivalent (over the reals
// conversions are the identity; here the bits agree too). Launch: grid = 1, block = 64.
#include <cuda_bf16.h>
extern "C" __global__ void cvt_bf16_twice(const float* x, __nv_bfloat16* out)
{
    int i = threadIdx.x;
    out[i] = __float2bfloat16_rn(__bfloat162float(__float2bfloat16_rn(x[i])));
}
