// warp_sum_ref.cu: the reference for active_shfl.cu: out[w] = sum of x[32w .. 32w+32] with
// a full-mask butterfly (0xffffffff written out).
// True verdict: safe.
extern "C" __global__ void warp_sum_ref(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}
