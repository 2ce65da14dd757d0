// l2norm: out[r][c] = x[r][c] / sqrt(sum_c x[r][c]^2), no eps (x [4, 32]):
//   l2norm_naive: one thread per row, 1.0f / sqrtf(s) then products
//   l2norm_warp:  one warp per row, a butterfly sum of squares, x * rsqrtf(s)
//   l2norm_l1:    WRONG on purpose: divides by sum |x| (the L1 norm)
// A row of zeros divides by zero in every version, so the two proper kernels are equal
// exactly where both are defined (s != 0); kcert declines the pair (UNKNOWN: a divisor that
// is not provably non-zero) rather than state that weaker claim. True verdicts against
// l2norm_naive: warp equivalent where defined, l1 not equivalent.
// Launch: naive grid 1 block 4; warp and l1 grid 1 block 128.
extern "C" __global__ void l2norm_naive(const float* x, float* out)
{
    int r = threadIdx.x;
    if (r >= 4) return;
    float s = 0.0f;
    for (int c = 0; c < 32; ++c) s += x[r * 32 + c] * x[r * 32 + c];
    float inv = 1.0f / sqrtf(s);
    for (int c = 0; c < 32; ++c) out[r * 32 + c] = x[r * 32 + c] * inv;
}
extern "C" __global__ void l2norm_warp(const float* x, float* out)
{
    int r = threadIdx.x / 32, c = threadIdx.x % 32;
    float v = x[r * 32 + c];
    float s = v * v;
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
    out[r * 32 + c] = v * rsqrtf(s);
}
extern "C" __global__ void l2norm_l1(const float* x, float* out)
{
    int r = threadIdx.x / 32, c = threadIdx.x % 32;
    float v = x[r * 32 + c];
    float s = fabsf(v);
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
    out[r * 32 + c] = v / s;
}
