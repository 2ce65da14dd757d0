// reduce_uninit: SEEDED BUG (uninitialized shared read).
// Twin of reduce_seq where only the lower half of the block fills sdata: slots
// blockDim.x/2 .. blockDim.x-1 are never written, but the first step of the tree
// (s = blockDim.x/2) reads sdata[tid + s] for tid < s, i.e. exactly those slots.
// Intended: each block sums blockDim.x (= 256) consecutive elements of x into out[blockIdx.x].
// Launch: grid = n / 256, block = 256.
#define BLOCK 256

extern "C" __global__ void reduce_uninit(const float* x, float* out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < blockDim.x / 2) {                 // BUG: upper half of sdata never written
        sdata[tid] = (i < n) ? x[i] : 0.0f;
    }
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) out[blockIdx.x] = sdata[0];
}
