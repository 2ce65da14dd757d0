// hist_atomic: every thread atomically adds w[i] into bins[ids[i]]: bucket ids used as
// addresses (concrete by init) and integer atomics into an output the caller zeroes
// (init = "zero"). True verdict: safe, equivalent to hist_naive.
// Launch: grid = 4, block = 256.
extern "C" __global__ void hist_atomic(const int* ids, const int* w, int* bins)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    atomicAdd(&bins[ids[i]], w[i]);
}
