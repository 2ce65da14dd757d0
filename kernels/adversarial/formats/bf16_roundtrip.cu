// bf16_roundtrip: out[i] = bf16(float(x[i])) on bf16 tensors: widened by cvt.f32.bf16 and
// rounded back, the same value (the safe twin of bf16_as_f16). True verdict against
// bf16_copy: equivalent. Launch: grid = 1, block = 64.
#include <cuda_bf16.h>
extern "C" __global__ void bf16_roundtrip(const __nv_bfloat16* x, __nv_bfloat16* out)
{
    int i = threadIdx.x;
    out[i] = __float2bfloat16(__bfloat162float(x[i]));
}
