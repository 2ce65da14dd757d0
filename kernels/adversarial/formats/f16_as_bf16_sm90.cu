// nvcc-flags: -arch=sm_90
// f16_as_bf16_sm90: out[i] = (float) of x[i]'s f16 bits read as bf16 (reinterpret_cast), which
// sm_90 PTX writes as `cvt.f32.bf16` of the loaded f16 value. True verdict against f16_widen:
// NOT equivalent (f16 1.0 = 0x3c00 is 0.0078125 as bf16); kcert must refuse the bf16 reading
// of an f16 value with its line (declined). Launch: grid = 1, block = 64.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void f16_as_bf16_sm90(const __half* x, float* out)
{
    int i = threadIdx.x;
    out[i] = __bfloat162float(reinterpret_cast<const __nv_bfloat16*>(x)[i]);
}
