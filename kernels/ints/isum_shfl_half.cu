// isum_shfl_half: isum_shfl whose butterfly starts at offset 8, so each warp sum covers
// only lanes 0-15 of its warp. True verdict: safe, NOT equivalent to isum_naive.
// Launch: grid = 4, block = 256.
extern "C" __global__ void isum_shfl_half(const int* x, int* out)
{
    __shared__ int w[8];
    int t = threadIdx.x;
    int v = x[blockIdx.x * 256 + t];
    for (int k = 8; k > 0; k >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, k);
    if ((t & 31) == 0)
        w[t >> 5] = v;
    __syncthreads();
    if (t == 0) {
        int acc = 0;
        for (int j = 0; j < 8; j++)
            acc += w[j];
        out[blockIdx.x] = acc;
    }
}
