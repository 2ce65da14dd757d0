// const_coeffs_wrong.cu: near miss of const_coeffs.cu: the last __constant__ coefficient is
// +1 instead of -1. Only the initializer in the PTX tells the two apart, so a checker that
// did not read the module variable's data could not see it.
// True verdict: safe, but NOT equivalent to coeffs_ref.cu (every fourth element differs).
__constant__ float coeffs[4] = {0.5f, 0.25f, 2.0f, 1.0f};
__device__ float bias = 0.125f;

extern "C" __global__ void const_coeffs_wrong(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] * coeffs[i & 3] + bias;
}
