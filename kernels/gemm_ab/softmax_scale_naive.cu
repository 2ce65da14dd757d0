// softmax_scale_naive: row-wise softmax of scale * x, x [rows, cols] into out [rows, cols], one
// thread per row, three passes: m = max_c scale x[r][c]; s = sum_c exp(scale x[r][c] - m);
// out[r][c] = exp(scale x[r][c] - m) / s. scale is a symbolic scalar in the spec (an attention
// scale such as 1/sqrt(d)), so a proof holds for every value of it.
// Launch: grid = ceil(rows / 4), block = 4 (rows = 4, cols = 16 in the spec).
// True verdict: safe; the reference of the softmax_scale pairs.
#include <math.h>

extern "C" __global__ void softmax_scale_naive(const float* x, float* out, int rows, int cols,
                                               float scale)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + r * cols;
        float* outr = out + r * cols;
        float m = -INFINITY;
        for (int c = 0; c < cols; ++c)
            m = fmaxf(m, scale * xr[c]);
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += __expf(scale * xr[c] - m);
        for (int c = 0; c < cols; ++c)
            outr[c] = __expf(scale * xr[c] - m) / s;
    }
}
