// f16_hi_as_f32: out[i] = the f32 whose upper 16 bits are x[i]'s f16 bits and lower 16 bits
// zero (`mov.b32 %f, {0, %h}`, the bf16 widening idiom applied to f16 data). True verdict
// against f16_widen: NOT equivalent (f16 1.0 = 0x3c00 becomes 2^-7 * 1.5 this way); kcert must
// refuse the f32 reading of an f16 value (declined). Launch: grid = 1, block = 64.
#include <cuda_fp16.h>
extern "C" __global__ void f16_hi_as_f32(const __half* x, float* out)
{
    int i = threadIdx.x;
    float f;
    asm("mov.b32 %0, {0, %1};" : "=f"(f) : "h"(__half_as_ushort(x[i])));
    out[i] = f;
}
