// active_shfl.cu: a butterfly warp sum whose shfl mask is __activemask() (activemask.b32).
//  - active_sum: called in converged code (no branch before it): every lane of the warp is
//    active, the mask is 0xffffffff, out[w] = sum of the warp's 32 x. True verdict: safe,
//    equivalent to warp_sum_ref.cu.
//  - active_sum_divergent: the same sum inside `if (lane < 16)`: which lanes are active there
//    depends on how the hardware schedules the divergent warp (PTX: activemask returns the
//    lanes currently active), and the shuffles of a 16-lane half would read lanes outside it.
//    True verdict: refused with the activemask line (unsupported), never proved.
//  - active_sum_guard: the same sum after `if (i >= n) return;`. With n = 256 no lane exits,
//    every lane takes the same decision and the warp stays converged: safe, equivalent to
//    warp_sum_ref. With n = 240 the upper half of the last warp exits before __activemask():
//    refused with the activemask line (unsupported).
extern "C" __global__ void active_sum(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    unsigned m = __activemask();
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(m, v, o);
    if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

extern "C" __global__ void active_sum_divergent(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    if ((threadIdx.x & 31) < 16) {
        unsigned m = __activemask();
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(m, v, o);
    }
    if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

extern "C" __global__ void active_sum_guard(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    unsigned m = __activemask();
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(m, v, o);
    if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}
