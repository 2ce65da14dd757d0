// prmt_halves.cu: packed f16 pairs recombined with __byte_perm (prmt.b32), as half2 code does
// on raw 32-bit words. Each thread loads one 32-bit word (two f16) of x and of y.
//  - prmt_lows:  __byte_perm(a, b, 0x5410) = {a.lo, b.lo}: equivalent to __lows2half2
//    (prmt_ref.cu). True verdict: safe, equivalent.
//  - prmt_swapped: selector 0x1054 = {b.lo, a.lo}: the halves in the other order.
//    True verdict: safe, NOT equivalent to prmt_ref.cu.
//  - prmt_bytes: selector 0x6541 takes bytes across the halves of f16 values: a
//    reinterpretation the real model does not describe. True verdict: unsupported (the prmt).
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned bits(__half2 h) { return *reinterpret_cast<unsigned*>(&h); }

extern "C" __global__ void prmt_lows(const __half2* x, const __half2* y, __half2* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = __byte_perm(bits(x[i]), bits(y[i]), 0x5410);
    out[i] = *reinterpret_cast<__half2*>(&r);
}

extern "C" __global__ void prmt_swapped(const __half2* x, const __half2* y, __half2* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = __byte_perm(bits(x[i]), bits(y[i]), 0x1054);
    out[i] = *reinterpret_cast<__half2*>(&r);
}

extern "C" __global__ void prmt_bytes(const __half2* x, const __half2* y, __half2* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = __byte_perm(bits(x[i]), bits(y[i]), 0x6541);
    out[i] = *reinterpret_cast<__half2*>(&r);
}
