// vadd: true verdict SAFE. out[i] = x[i] + y[i], one element per thread, guarded by i < n.
// The optimized side of the link pairs in kernels/pairs (vadd-vs-twice: INVALID, one
// reference input linked to two optimized inputs).
// Launch: grid = 2, block = 128.

extern "C" __global__ void vadd(const float* x, const float* y, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
