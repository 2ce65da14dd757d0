// coeffs_ref.cu: the reference for const_coeffs.cu: out[i] = x[i] * c(i % 4) + 0.125 with the
// coefficients 0.5, 0.25, 2, -1 written as literals (selects on the thread index).
// True verdict: safe.
extern "C" __global__ void coeffs_ref(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i & 3;
    float c = k == 0 ? 0.5f : k == 1 ? 0.25f : k == 2 ? 2.0f : -1.0f;
    out[i] = x[i] * c + 0.125f;
}
