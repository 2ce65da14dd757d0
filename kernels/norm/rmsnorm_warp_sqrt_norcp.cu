// rmsnorm_warp_sqrt_norcp: rmsnorm_warp_sqrt with a seeded value bug: the reciprocal is missing,
// so out is x * sqrt(ms + eps) * gamma instead of x / sqrt(ms + eps) * gamma. Otherwise identical:
// RMS normalization of x [rows, cols] into out [rows, cols], one warp per row.
// Lane l accumulates x^2 over the columns l, l + 32, ...; a butterfly __shfl_xor_sync reduction
// (offsets 16 .. 1, mask -1) gives every lane the row's sum of squares; lanes write their columns:
//   out[r][c] = x[r][c] * sqrt(sum_c x^2 / cols + eps) * gamma[c]   (reference: rsqrt),  eps = 1e-5.
// Launch: block = 32 * rows per CTA (128: 4 rows), grid = ceil(rows / 4).
#include <math.h>
#define WARP 32
#define EPS 1e-5f

extern "C" __global__ void rmsnorm_warp_sqrt_norcp(const float* x, const float* gamma, float* out,
                                        int rows, int cols)
{
    int lane = threadIdx.x % WARP;
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    if (r < rows) {                       // uniform per warp
        const float* xr = x + r * cols;
        float* outr = out + r * cols;
        float q = 0.0f;
        for (int c = lane; c < cols; c += WARP)
            q += xr[c] * xr[c];
        for (int off = WARP / 2; off > 0; off >>= 1)
            q += __shfl_xor_sync(0xffffffff, q, off);
        float inv = sqrtf(q / cols + EPS);   // bug: 1.0f / sqrtf(...)
        for (int c = lane; c < cols; c += WARP)
            outr[c] = xr[c] * inv * gamma[c];
    }
}
