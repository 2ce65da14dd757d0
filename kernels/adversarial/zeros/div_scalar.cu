// div_scalar: out[i] = x[i] / d for a scalar d given by the launch.
// Instances: div_scalar_pos0 (d = 0.0), div_scalar_neg0 (d = -0.0), div_scalar_two (d = 2.0).
// True verdicts: with d = +0.0 and d = -0.0 the outputs are +inf and -inf times the sign of
// x[i] (NaN at x[i] = 0): the pair is NOT equivalent, and no rule may prove it (the divisor is
// zero; over the reals x / 0 has no value). kcert must decline or refute, never prove.
// With d = 2.0 the kernel computes x[i] / 2, which equals scale_half (x[i] * 0.5) exactly.
// Launch: grid = 1, block = 64.
extern "C" __global__ void div_scalar(const float* x, float* out, float d)
{
    int i = threadIdx.x;
    out[i] = x[i] / d;
}
