// const_coeffs.cu: out[i] = x[i] * coeffs[i % 4] + bias, with coeffs a __constant__ array and
// bias a __device__ module variable, both with initializers. nvcc keeps them as module
// variables (`.const .b8 coeffs[16] = {...}`, `.global .f32 bias = ...`) read by ld.const /
// ld.global after `mov.u64 %rd, sym`. Their contents are concrete data known from the PTX.
// True verdict: safe; equivalent to coeffs_ref.cu (the same numbers written as literals).
__constant__ float coeffs[4] = {0.5f, 0.25f, 2.0f, -1.0f};
__device__ float bias = 0.125f;

extern "C" __global__ void const_coeffs(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] * coeffs[i & 3] + bias;
}
