// relu_branch: out[i] = max(x[i], 0) written with an if / else on the loaded value.
// SEEDED CASE (unsupported): the control flow depends on the data in x, which the
// tools do not model yet; they must reject the kernel by naming the guarded
// branch / store.
// Launch: grid = n / 256, block = 256.

extern "C" __global__ void relu_branch(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (x[i] > 0.0f)
            out[i] = x[i];
        else
            out[i] = 0.0f;
    }
}
