// isum_atomic: every thread atomically adds its element into out[blockIdx.x]; the caller
// zeroes out before the launch (init = "zero"). Integer atomic adds commute exactly and the
// declared range [-1000, 1000] keeps every partial sum inside int32, so the result is the
// same integer in every order. True verdict: safe, equivalent to isum_naive.
// Instance isum_atomic_wide: x in [-2^24, 2^24]; 256 of them can leave int32 (2^32): the
// wraparound is not modelled, so kcert refuses it (unknown), never proves it.
// Launch: grid = 4, block = 256.
extern "C" __global__ void isum_atomic(const int* x, int* out)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    atomicAdd(&out[blockIdx.x], x[i]);
}
