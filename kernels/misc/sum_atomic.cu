// sum_atomic: sum_global_race with the cross-CTA accumulation done by atomicAdd.
// Correct, but atomics are not modeled by the tools yet: they must reject it
// (verdict unsupported) by naming the atomic instruction.
// Intended: out[0] = sum of all n elements of x (out[0] zeroed before the launch).
// Launch: grid = n / 256, block = 256.
#define BLOCK 256

extern "C" __global__ void sum_atomic(const float* x, float* out, int n)
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

    if (tid == 0) atomicAdd(&out[0], sdata[0]);
}
