// reduce_seq_divergent: SEEDED BUG (barrier divergence).
// Twin of reduce_seq with the __syncthreads() moved inside the `if (tid < s)`
// branch: only threads with tid < s reach the barrier.
// Launch: grid = n / 256, block = 256.
#define BLOCK 256

extern "C" __global__ void reduce_seq_divergent(const float* x, float* out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
            __syncthreads();   // BUG: barrier inside a divergent branch
        }
    }

    if (tid == 0) out[blockIdx.x] = sdata[0];
}
