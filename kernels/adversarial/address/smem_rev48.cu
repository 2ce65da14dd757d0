// smem_rev48: true verdict SAFE. A 48-thread CTA writes s[47 - t % 48] = x[t], meets at
// __syncthreads(), and reads s[47 - t % 48] back into out[t] (out = x). nvcc forms the 32-bit
// shared address s - 4 (t % 48), below the array for t > 0, and accesses [r + 188]: 32-bit
// shared address arithmetic wraps modulo 2^32, and the address accessed, s + 188 - 4 (t % 48),
// is inside s. Twins: smem_rev48_past (s[48 - t % 48]: s[48] at t = 0) and smem_rev48_below
// (s[46 - t % 48]: s[-1] at t = 47), both out of bounds.
// Launch: grid = 1, block = 48.

extern "C" __global__ void smem_rev48(const float* x, float* out)
{
    __shared__ float s[48];
    int t = threadIdx.x;
    s[47 - t % 48] = x[t];
    __syncthreads();
    out[t] = s[47 - t % 48];
}
