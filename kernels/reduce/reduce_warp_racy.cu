// reduce_warp_racy: SEEDED BUG (intra-warp data race, the classic pre-Volta idiom).
// Like reduce_firstadd, but once s <= 32 the last warp is unrolled through a
// volatile pointer WITHOUT __syncwarp(). With independent thread scheduling
// (Volta and later, e.g. sm_80) the lanes of a warp are not guaranteed to run in
// lockstep, so lane t reading sdata[t + s] races with lane t + s writing it.
// Each block sums 2 * blockDim.x (= 512) consecutive elements of x into out[blockIdx.x].
// Launch: grid = n / 512, block = 256.
#define BLOCK 256

__device__ void warp_reduce(volatile float* sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

extern "C" __global__ void reduce_warp_racy(const float* x, float* out, int n)
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

    if (tid < 32) warp_reduce(sdata, tid);   // BUG: no __syncwarp() between steps

    if (tid == 0) out[blockIdx.x] = sdata[0];
}
