// float_copy_f64st: writes the f32 output through a double pointer: the first n/2 threads
// each store (double)x[2i] as 8 bytes over the f32 elements out[2i] and out[2i+1].
// True verdict against float_copy: NOT equivalent (the two f32 elements hold the halves of an
// f64 bit pattern: 1.0 lands as 0x00000000, 0x3ff00000). kcert refuses the st.global.f64
// into 4-byte elements with its line (UNKNOWN) instead of dropping it from the footprint.
// Correct twin: float_copy.

extern "C" __global__ void float_copy_f64st(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * i < n)
        reinterpret_cast<double*>(out)[i] = static_cast<double>(x[2 * i]);
}
