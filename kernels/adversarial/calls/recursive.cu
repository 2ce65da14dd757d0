// recursive: a device function that calls itself (sum of x[i..i+k) by recursion). kcert inlines
// calls and must refuse recursion by name and line. True verdict: unsupported (refused).
// Launch: grid 1, block 64, k = 1.
__device__ __noinline__ float rsum(const float* x, int k)
{
    if (k <= 0) return 0.0f;
    return x[0] + rsum(x + 1, k - 1);
}

extern "C" __global__ void recursive(const float* x, float* out, int k)
{
    int i = threadIdx.x;
    out[i] = rsum(x + i, k);
}
