// sum_global_race: SEEDED BUG (race on global memory between CTAs).
// Each block reduces blockDim.x (= 256) elements with a shared-memory tree
// (as reduce_seq), then thread 0 of every block does a plain read-modify-write
// out[0] += partial, with no atomic: the CTAs race on out[0].
// Intended: out[0] = sum of all n elements of x (out[0] zeroed before the launch).
// Launch: grid = n / 256, block = 256.
#define BLOCK 256

extern "C" __global__ void sum_global_race(const float* x, float* out, int n)
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
        __syncthreads();
    }

    if (tid == 0) out[0] += sdata[0];   // BUG: unsynchronized read-modify-write across CTAs
}
