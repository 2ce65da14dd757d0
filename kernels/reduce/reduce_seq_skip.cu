// reduce_seq_skip: SEEDED VALUE BUG (race-free, in bounds, wrong result).
// Twin of reduce_seq whose loop stops one step early (s > 1 instead of s > 0): the
// last step sdata[0] += sdata[1] never happens, so out[blockIdx.x] is the sum of the
// even-indexed elements of the block's chunk only (sdata[1] holds the odd ones).
// Launch: grid = n / 256, block = 256.
#define BLOCK 256

extern "C" __global__ void reduce_seq_skip(const float* x, float* out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 1; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) out[blockIdx.x] = sdata[0];
}
