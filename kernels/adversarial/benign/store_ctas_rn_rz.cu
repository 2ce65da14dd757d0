// store_ctas_rn_rz: every block's thread 0 stores a + b into out[0]; block 0 rounds to
// nearest, block 1 toward zero. Blocks are never ordered. True verdict: fp_nondeterministic.
// Launch: grid = 2, block = 32.
extern "C" __global__ void store_ctas_rn_rz(const float* a, const float* b, float* out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) out[0] = __fadd_rn(a[0], b[0]);
    else out[0] = __fadd_rz(a[0], b[0]);
}
