// prmt_ref.cu: the reference for prmt_halves.cu: out[i] = {x[i].lo, y[i].lo} with
// __lows2half2 (cuda_fp16.h's inline `mov.b32` packing, no prmt).
// True verdict: safe.
#include <cuda_fp16.h>

extern "C" __global__ void prmt_ref(const __half2* x, const __half2* y, __half2* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __lows2half2(x[i], y[i]);
}
