// scale: out[i] = x[i] scaled by 1/sqrt(2) or 1/10, written the ways people write them:
//   scale_div_sqrt2:  x / sqrtf(2.0f)   (nvcc folds sqrtf(2.0f) to 0f3FB504F3 and divides)
//   scale_mul_rsqrt2: x * 0.70710678f   (0f3F3504F3)
//   scale_mul_07:     x * 0.7f          (a different number, not a rounding of 1/sqrt(2))
//   scale_div_10:     x / 10.0f
//   scale_mul_01:     x * 0.1f          (0.1f is 1/10 rounded: relative difference 1.5e-8)
// True verdicts of the pairs: div_sqrt2 vs mul_rsqrt2 and div_10 vs mul_01 compute different
// reals that differ only in how a literal was rounded (literals_differ); div_sqrt2 vs mul_07
// differ in value beyond any literal rounding (not_equivalent).
// Launch: grid = 1, block = 64, x and out [64].
extern "C" __global__ void scale_div_sqrt2(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = x[i] / sqrtf(2.0f);
}
extern "C" __global__ void scale_mul_rsqrt2(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = x[i] * 0.70710678f;
}
extern "C" __global__ void scale_mul_07(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = x[i] * 0.7f;
}
extern "C" __global__ void scale_div_10(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = x[i] / 10.0f;
}
extern "C" __global__ void scale_mul_01(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = x[i] * 0.1f;
}
