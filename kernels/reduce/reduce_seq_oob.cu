// reduce_seq_oob: SEEDED BUG (out-of-bounds global read).
// Twin of reduce_seq with an off-by-one in the load: the guard checks i < n but
// the load reads x[i + 1], so the last thread of the last block (i = n - 1)
// reads x[n], one element past the end of the tensor.
// Launch: grid = n / 256, block = 256.
#define BLOCK 256

extern "C" __global__ void reduce_seq_oob(const float* x, float* out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? x[i + 1] : 0.0f;   // BUG: should be x[i]
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) out[blockIdx.x] = sdata[0];
}
