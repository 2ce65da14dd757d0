// rmsnorm_warp_nm1: rmsnorm_warp with a seeded value bug: the mean of squares divides by cols - 1
// instead of cols (the unbiased-variance habit), so out is sqrt(cols / (cols - 1)) times too small.
// Otherwise identical: one warp per row, lane l accumulates x^2 over the columns l, l + 32, ...;
// a butterfly __shfl_xor_sync reduction (offsets 16 .. 1, mask -1) gives every lane the sum q;
//   out[r][c] = x[r][c] * rsqrt(q / (cols - 1) + eps) * gamma[c]   (reference: q / cols).
// Launch: block = 32 * rows per CTA (128: 4 rows), grid = ceil(rows / 4).
#include <math.h>
#define WARP 32
#define EPS 1e-5f

extern "C" __global__ void rmsnorm_warp_nm1(const float* x, const float* gamma, float* out,
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
        float inv = rsqrtf(q / (cols - 1) + EPS);
        for (int c = lane; c < cols; c += WARP)
            outr[c] = xr[c] * inv * gamma[c];
    }
}
