// layernorm_eps_naive: layer normalization of x [rows, cols] into out [rows, cols], one thread per
// row, two passes for the statistics, then the affine output:
//   mean = sum_c x[r][c] / cols;  var = sum_c (x[r][c] - mean)^2 / cols;
//   out[r][c] = (x[r][c] - mean) * rsqrt(var + eps) * gamma[c] + beta[c], eps a parameter:
//   a symbolic scalar in the spec (positive = true: kcert tries positive values only).
// True verdict: safe; the reference of the layernorm_eps pair.
// Launch: grid = ceil(rows / 4), block = 4 (rows = 4, cols = 32 in the spec).
// rsqrtf is `rsqrt.approx.f32`; the divisions by cols are `cvt.rn.f32.s32` then `div.rn.f32`.
#include <math.h>

extern "C" __global__ void layernorm_eps_naive(const float* x, const float* gamma, const float* beta,
                                           float* out, int rows, int cols, float eps)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + r * cols;
        float* outr = out + r * cols;
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += xr[c];
        float mean = s / cols;
        float q = 0.0f;
        for (int c = 0; c < cols; ++c) {
            float d = xr[c] - mean;
            q += d * d;
        }
        float var = q / cols;
        float inv = rsqrtf(var + eps);
        for (int c = 0; c < cols; ++c)
            outr[c] = (xr[c] - mean) * inv * gamma[c] + beta[c];
    }
}
