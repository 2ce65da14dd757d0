// store_f16_rn_rz: threads 0 and 1 store a converted to f16 into out[0] (an f16 tensor),
// rounded to nearest (cvt.rn.f16.f32) and toward zero (cvt.rz.f16.f32), unordered.
// True verdict: fp_nondeterministic. Launch: grid = 1, block = 32.
#include <cuda_fp16.h>
extern "C" __global__ void store_f16_rn_rz(const float* a, __half* out)
{
    int t = threadIdx.x;
    if (t == 0) out[0] = __float2half_rn(a[0]);
    if (t == 1) out[0] = __float2half_rz(a[0]);
}
