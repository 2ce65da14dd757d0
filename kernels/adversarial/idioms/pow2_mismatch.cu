// TRUE VERDICT: not equivalent to pow2_exact (safe on its own). A near miss of pow2_reduced: the
// exponent subtracted from the argument is rounded up (fma.rp, ceil) while 2^j is built from the
// bits of the rounded-down j (fma.rm, floor). Wherever 252 t is not an integer the two differ by
// one, so out = 2^(252 t - 126 - 1), half of pow2_exact. Over the reals both j are the same
// term 252 t + 12582913; only the very rounded value that 2^j is built from may compensate it.
// Launch: 1 CTA x 64 threads, n = 64.
extern "C" __global__ void pow2_mismatch(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = __saturatef(x[i]);
        float j = __fmaf_rd(t, 252.0f, 12582913.0f);
        float k = __fmaf_ru(t, 252.0f, 12582913.0f) - 12583039.0f;
        float r = fmaf(t, 252.0f, -126.0f) - k;
        out[i] = exp2f(r) * __int_as_float(__float_as_int(j) << 23);
    }
}
