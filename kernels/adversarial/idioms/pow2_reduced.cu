// TRUE VERDICT: equivalent to pow2_exact (safe). The correct twin of pow2_floor: the whole range
// reduction. j = fma.rm(t, 252, 12582913) is the integer floor(252 t) + 12582913, k = j - 12583039
// the exponent floor(252 t) - 126, r = (252 t - 126) - k in [0, 1); out = 2^r * 2^k with 2^k
// built from the bits of j (bits(j) << 23). The same rounded j is subtracted from the argument,
// so over the reals out = 2^(252 t - 126) whatever the floor was.
// Launch: 1 CTA x 64 threads, n = 64.
extern "C" __global__ void pow2_reduced(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = __saturatef(x[i]);
        float j = __fmaf_rd(t, 252.0f, 12582913.0f);
        float k = j - 12583039.0f;
        float r = fmaf(t, 252.0f, -126.0f) - k;
        out[i] = exp2f(r) * __int_as_float(__float_as_int(j) << 23);
    }
}
