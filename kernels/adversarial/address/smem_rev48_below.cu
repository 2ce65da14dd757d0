// smem_rev48_below: true verdict OUT_OF_BOUNDS. smem_rev48 reading s[46 - t % 48]: thread 47
// reads s[-1], one float before the array (nvcc: the wrapped 32-bit address s - 4t, accessed
// at [r + 184]; for t = 47 that is s - 4, which also wraps below 0 where s sits at 0).
// Launch: grid = 1, block = 48.

extern "C" __global__ void smem_rev48_below(const float* x, float* out)
{
    __shared__ float s[48];
    int t = threadIdx.x;
    s[47 - t % 48] = x[t];
    __syncthreads();
    out[t] = s[46 - t % 48];
}
