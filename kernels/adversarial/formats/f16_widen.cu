// f16_widen: out[i] = (float)x[i] from f16 (cvt.f32.f16), the reference of f16_hi_as_f32.
// Launch: grid = 1, block = 64.
#include <cuda_fp16.h>
extern "C" __global__ void f16_widen(const __half* x, float* out)
{
    int i = threadIdx.x;
    out[i] = __half2float(x[i]);
}
