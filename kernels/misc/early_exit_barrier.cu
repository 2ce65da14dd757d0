// early_exit_barrier: SEEDED BUG (barrier divergence).
// Copy staged through shared memory: out[i] = x[i] via tile[threadIdx.x].
// BUG: threads with i >= n return before the __syncthreads(); when n is not a
// multiple of blockDim.x the remaining threads of the last block wait at a
// barrier that the exited threads never reach.
// Launch: grid = ceil(n / 256), block = 256.
#define BLOCK 256

extern "C" __global__ void early_exit_barrier(const float* x, float* out, int n)
{
    __shared__ float tile[BLOCK];
    unsigned int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;                 // BUG: early exit before the barrier
    tile[tid] = x[i];
    __syncthreads();
    out[i] = tile[tid];
}
