// store_div_approx: thread 0 stores a / b correctly rounded (__fdiv_rn, div.rn.f32), thread 1
// the fast approximation (__fdividef, div.approx.f32), unordered into out[0].
// True verdict: fp_nondeterministic. Launch: grid = 1, block = 32.
extern "C" __global__ void store_div_approx(const float* a, const float* b, float* out)
{
    int t = threadIdx.x;
    if (t == 0) out[0] = __fdiv_rn(a[0], b[0] * b[0] + 1.0f);
    if (t == 1) out[0] = __fdividef(a[0], b[0] * b[0] + 1.0f);
}
