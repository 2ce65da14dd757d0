// shfl_partial_mask: SEEDED BUG (collective mismatch).
// Per-warp __shfl_down_sync sum, lane 0 of warp w of block b writes
// out[b * (blockDim.x / 32) + w] = sum of that warp's 32 elements.
// BUG: the member mask is 0x0000ffff but all 32 lanes execute the shuffle;
// lanes 16..31 are not in the mask (undefined behaviour).
// Launch: grid = n / 128, block = 128 (a multiple of 32).
#define WARP 32

extern "C" __global__ void shfl_partial_mask(const float* x, float* out, int n)
{
    unsigned int lane = threadIdx.x % WARP;
    unsigned int warp = threadIdx.x / WARP;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? x[i] : 0.0f;

    for (int offset = WARP / 2; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0x0000ffff, v, offset);   // BUG: should be 0xffffffff
    }
    if (lane == 0) out[blockIdx.x * (blockDim.x / WARP) + warp] = v;
}
