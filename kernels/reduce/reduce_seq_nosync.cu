// reduce_seq_nosync: SEEDED BUG (data race on shared memory).
// Twin of reduce_seq with the __syncthreads() inside the reduction loop removed:
// thread tid reads sdata[tid + s] while thread tid + s may still be writing it
// (same step or the previous one).
// Launch: grid = n / 256, block = 256.
#define BLOCK 256

extern "C" __global__ void reduce_seq_nosync(const float* x, float* out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        // BUG: missing __syncthreads();
    }

    if (tid == 0) out[blockIdx.x] = sdata[0];
}
