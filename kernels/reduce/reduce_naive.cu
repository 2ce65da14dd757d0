// reduce_naive: interleaved-addressing tree reduction in shared memory.
// Each block sums blockDim.x (= 256) consecutive elements of x into out[blockIdx.x].
// Launch: grid = n / 256, block = 256.
#define BLOCK 256

extern "C" __global__ void reduce_naive(const float* x, float* out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) out[blockIdx.x] = sdata[0];
}
