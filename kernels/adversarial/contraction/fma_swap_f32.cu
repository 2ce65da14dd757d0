// fma_swap_f32: the first step of a contracted butterfly, by hand. Thread 0 stores
// fma(x, x, y*y) and thread 1 fma(y, y, x*x) into out[0], unordered (x = a[0], y = b[0], f32).
// True verdict: fp_nondeterministic. Equal over the reals, but the rounded product differs:
// x = 0x1.673116p-1, y = 0x1.c56a2p+0 give 0x1.d087b6p+1 and 0x1.d087b8p+1.
// Launch: grid = 1, block = 32.
extern "C" __global__ void fma_swap_f32(const float* a, const float* b, float* out)
{
    int t = threadIdx.x;
    float x = a[0], y = b[0];
    if (t == 0) out[0] = __fmaf_rn(x, x, __fmul_rn(y, y));
    if (t == 1) out[0] = __fmaf_rn(y, y, __fmul_rn(x, x));
}
