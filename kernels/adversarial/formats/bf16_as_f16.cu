// bf16_as_f16: out[i] = bf16(float(x[i] read as __half)) on a bf16 tensor x: the bf16 bits
// are widened by cvt.f32.f16 as if they were f16 (reinterpret_cast). True verdict against
// bf16_copy: NOT equivalent (0x3f80 is 1.0 in bf16 and 1.875 in f16); the reading of bf16
// bits as f16 is not modelled, so kcert must refuse it with the line (declined).
// Launch: grid = 1, block = 64.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void bf16_as_f16(const __nv_bfloat16* x, __nv_bfloat16* out)
{
    int i = threadIdx.x;
    out[i] = __float2bfloat16(__half2float(reinterpret_cast<const __half*>(x)[i]));
}
