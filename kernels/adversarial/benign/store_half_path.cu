// store_half_path: thread 0 stores a, thread 1 stores (float)(half)a into out[0], unordered.
// True verdict: fp_nondeterministic: equal over the reals (conversions are the identity
// there), but the f16 round trip drops bits. Launch: grid = 1, block = 32.
#include <cuda_fp16.h>
extern "C" __global__ void store_half_path(const float* a, float* out)
{
    int t = threadIdx.x;
    if (t == 0) out[0] = a[0];
    if (t == 1) out[0] = __half2float(__float2half_rn(a[0]));
}
