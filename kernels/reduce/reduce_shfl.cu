// reduce_shfl: warp-shuffle reduction.
// First add during the global load (2 elements per thread), then each warp reduces
// with __shfl_down_sync, lane 0 of each warp stores its partial in shared memory,
// __syncthreads, and the first warp reduces the partials with shuffles again.
// Each block sums 2 * blockDim.x (= 512) consecutive elements of x into out[blockIdx.x].
// Launch: grid = n / 512, block = 256 (a multiple of 32, at most 1024).
#define WARP 32
#define MAX_WARPS 32

extern "C" __global__ void reduce_shfl(const float* x, float* out, int n)
{
    __shared__ float partial[MAX_WARPS];
    unsigned int tid = threadIdx.x;
    unsigned int lane = tid % WARP;
    unsigned int warp = tid / WARP;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = 0.0f;
    if (i < n) v = x[i];
    if (i + blockDim.x < n) v += x[i + blockDim.x];

    for (int offset = WARP / 2; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    if (lane == 0) partial[warp] = v;
    __syncthreads();

    if (warp == 0) {
        v = (tid < blockDim.x / WARP) ? partial[lane] : 0.0f;
        for (int offset = WARP / 2; offset > 0; offset >>= 1) {
            v += __shfl_down_sync(0xffffffff, v, offset);
        }
        if (tid == 0) out[blockIdx.x] = v;
    }
}
