// reduce_warp_sync: like reduce_warp_racy, but the unrolled last warp is correct:
// every step reads, __syncwarp()s, writes, __syncwarp()s, so no lane writes a
// slot another lane still has to read in the same step.
// Each block sums 2 * blockDim.x (= 512) consecutive elements of x into out[blockIdx.x].
// Launch: grid = n / 512, block = 256.
#define BLOCK 256

__device__ void warp_reduce(float* sdata, unsigned int tid)
{
    float v;
    v = sdata[tid] + sdata[tid + 32]; __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 16]; __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 8];  __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 4];  __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 2];  __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 1];  __syncwarp(); sdata[tid] = v; __syncwarp();
}

extern "C" __global__ void reduce_warp_sync(const float* x, float* out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = 0.0f;
    if (i < n) v = x[i];
    if (i + blockDim.x < n) v += x[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid < 32) warp_reduce(sdata, tid);

    if (tid == 0) out[blockIdx.x] = sdata[0];
}
