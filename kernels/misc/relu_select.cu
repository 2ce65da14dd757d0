// relu_select: out[i] = max(x[i], 0) as a select: no data-dependent control flow.
// Launch: grid = n / 256, block = 256.

extern "C" __global__ void relu_select(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[i] = v > 0.0f ? v : 0.0f;
    }
}
