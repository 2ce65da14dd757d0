// TRUE VERDICT: safe; the reference of pow2_floor and pow2_reduced: out = 2^(252 sat(x) - 126)
// through exp2f (libdevice: ex2.approx.ftz, exact 2^y over the reals).
// Launch: 1 CTA x 64 threads, n = 64.
extern "C" __global__ void pow2_exact(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = __saturatef(x[i]);
        out[i] = exp2f(fmaf(t, 252.0f, -126.0f));
    }
}
