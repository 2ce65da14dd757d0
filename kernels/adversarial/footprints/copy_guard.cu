// copy_guard: out[i] = x[i] for i < n, one element per thread; elements from n on are not
// written. Instances: copy_guard (n = 16 of 16: safe, writes everything), copy_guard_12
// (n = 12: writes 12 of the 16 elements), copy_guard_0 (n = 0: writes nothing).
// True verdicts: all safe. Against copy_pairs with the same n: equal on the elements both
// write, and both leave the same elements unwritten; with n = 12 that is a PARTIAL claim
// (12 of 16 elements) and must be stated so; with n = 0 there is nothing to compare, and no
// equivalence may be claimed at all (relu_guard_0-vs-copy_guard_0).

extern "C" __global__ void copy_guard(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i];
}
