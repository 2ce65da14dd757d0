// scale2: out[i] = 2 * x[i] for i < n, one thread per element.
// True verdict: safe; the reference of the sizes pairs (x has 128 elements in scale2.toml).
extern "C" __global__ void scale2(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * x[i];
}
