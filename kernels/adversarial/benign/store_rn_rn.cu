// store_rn_rn: the safe twin of store_rn_rz: threads 0 and 1 both store __fadd_rn(a, b) into
// out[0]: the same bits in every execution, a benign write. True verdict: safe.
// Launch: grid = 1, block = 32.
extern "C" __global__ void store_rn_rn(const float* a, const float* b, float* out)
{
    int t = threadIdx.x;
    if (t == 0) out[0] = __fadd_rn(a[0], b[0]);
    if (t == 1) out[0] = __fadd_rn(b[0], a[0]);
}
