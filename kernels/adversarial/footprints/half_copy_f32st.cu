// half_copy_f32st: writes the f16 output through a float pointer: the first n/2 threads each
// store the f32 value of x[2i] as 4 bytes, which cover the f16 elements out[2i] and out[2i+1].
// True verdict against half_copy: NOT equivalent. out[2i] and out[2i+1] receive the low and
// high halves of an f32 bit pattern, not x[2i] and x[2i+1] (1.0f lands as 0x0000, 0x3f80).
// kcert must not drop the wide store from the footprint (it used to, and then compared 0
// elements): it refuses the st.global.f32 into the 2-byte elements, with its line (UNKNOWN).
// Correct twin: half_copy.
#include <cuda_fp16.h>

extern "C" __global__ void half_copy_f32st(const __half* x, __half* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * i < n)
        reinterpret_cast<float*>(out)[i] = __half2float(x[2 * i]);
}
