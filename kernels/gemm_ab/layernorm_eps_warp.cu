// layernorm_eps_warp: layer normalization of x [rows, cols] into out [rows, cols], one warp per row.
// Lane l accumulates the columns l, l + 32, ...; the row sum and then the sum of squared
// deviations are butterfly reductions with __shfl_xor_sync (offsets 16 .. 1, mask -1), so every
// lane holds mean and var; lanes write their columns:
//   out[r][c] = (x[r][c] - mean) * rsqrt(var + eps) * gamma[c] + beta[c], eps a parameter:
//   a symbolic scalar in the spec (positive = true: kcert tries positive values only).
// True verdict: safe, equivalent to layernorm_eps_naive for every eps > 0; kcert says unknown:
// the division by sqrt(var + eps) needs a positivity the rules do not assume for a symbolic eps.
// Launch: block = 32 * rows per CTA (128: 4 rows), grid = ceil(rows / 4).
#include <math.h>
#define WARP 32

extern "C" __global__ void layernorm_eps_warp(const float* x, const float* gamma, const float* beta,
                                          float* out, int rows, int cols, float eps)
{
    int lane = threadIdx.x % WARP;
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    if (r < rows) {                       // uniform per warp
        const float* xr = x + r * cols;
        float* outr = out + r * cols;
        float s = 0.0f;
        for (int c = lane; c < cols; c += WARP)
            s += xr[c];
        for (int off = WARP / 2; off > 0; off >>= 1)
            s += __shfl_xor_sync(0xffffffff, s, off);
        float mean = s / cols;
        float q = 0.0f;
        for (int c = lane; c < cols; c += WARP) {
            float d = xr[c] - mean;
            q += d * d;
        }
        for (int off = WARP / 2; off > 0; off >>= 1)
            q += __shfl_xor_sync(0xffffffff, q, off);
        float inv = rsqrtf(q / cols + eps);
        for (int c = lane; c < cols; c += WARP)
            outr[c] = (xr[c] - mean) * inv * gamma[c] + beta[c];
    }
}
