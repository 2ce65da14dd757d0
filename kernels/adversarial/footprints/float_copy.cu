// float_copy: out[i] = x[i] on f32 vectors, one 4-byte store per element.
// True verdict: safe; the reference (the correct twin) of float_copy_f64st.
// Launch: grid = ceil(n / blockDim.x), any block.

extern "C" __global__ void float_copy(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i];
}
