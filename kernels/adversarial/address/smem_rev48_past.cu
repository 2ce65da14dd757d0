// smem_rev48_past: true verdict OUT_OF_BOUNDS. smem_rev48 reading s[48 - t % 48]: thread 0
// reads s[48], one float past the 48-float array (nvcc: the wrapped 32-bit address s - 4t,
// accessed at [r + 192]). Every other thread reads inside s.
// Launch: grid = 1, block = 48.

extern "C" __global__ void smem_rev48_past(const float* x, float* out)
{
    __shared__ float s[48];
    int t = threadIdx.x;
    s[47 - t % 48] = x[t];
    __syncthreads();
    out[t] = s[48 - t % 48];
}
