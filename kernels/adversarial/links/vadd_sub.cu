// vadd_sub: true verdict SAFE. out[i] = x[i] + y[i] and diff[i] = x[i] - y[i]. Held against
// vadd with only out linked (vadd_sub-vs-vadd: INVALID, the output diff is left unmapped, so
// nothing would say what it must hold).
// Launch: grid = 2, block = 128.

extern "C" __global__ void vadd_sub(const float* x, const float* y, float* out, float* diff, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = x[i] + y[i];
        diff[i] = x[i] - y[i];
    }
}
