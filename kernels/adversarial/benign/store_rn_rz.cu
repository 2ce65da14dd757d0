// store_rn_rz: threads 0 and 1 both store a + b into out[0], unordered: thread 0 rounds to
// nearest (__fadd_rn, add.rn.f32), thread 1 toward zero (__fadd_rz, add.rz.f32).
// True verdict: fp_nondeterministic (with a = 1, b = 3 * 2^-25 they store 0x3f800001 and
// 0x3f800000, so the output depends on which store lands last). Equal over the reals, so not
// a race over the reals, but never benign. Launch: grid = 1, block = 32.
extern "C" __global__ void store_rn_rz(const float* a, const float* b, float* out)
{
    int t = threadIdx.x;
    if (t == 0) out[0] = __fadd_rn(a[0], b[0]);
    if (t == 1) out[0] = __fadd_rz(a[0], b[0]);
}
