// rmsnorm_naive: RMS normalization of x [rows, cols] into out [rows, cols], one thread per row:
//   ms = sum_c x[r][c]^2 / cols;  out[r][c] = x[r][c] * rsqrt(ms + eps) * gamma[c],  eps = 1e-5.
// Launch: grid = ceil(rows / 4), block = 4 (rows = 4, cols = 64 in the spec).
#include <math.h>
#define EPS 1e-5f

extern "C" __global__ void rmsnorm_naive(const float* x, const float* gamma, float* out,
                                         int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + r * cols;
        float* outr = out + r * cols;
        float q = 0.0f;
        for (int c = 0; c < cols; ++c)
            q += xr[c] * xr[c];
        float inv = rsqrtf(q / cols + EPS);
        for (int c = 0; c < cols; ++c)
            outr[c] = xr[c] * inv * gamma[c];
    }
}
