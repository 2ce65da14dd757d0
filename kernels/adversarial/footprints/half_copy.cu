// half_copy: out[i] = x[i] on f16 vectors, one 2-byte store per element.
// True verdict: safe; the reference (the correct twin) of half_copy_f32st.
// Launch: grid = ceil(n / blockDim.x), any block.
#include <cuda_fp16.h>

extern "C" __global__ void half_copy(const __half* x, __half* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i];
}
