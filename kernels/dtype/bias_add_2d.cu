// bias_add_2d: out[r][c] = x[r][c] + bias[c] for x, out [rows, cols] (row-major), bias [cols]:
// one CTA per row, threads stride the columns. The reference of bias_add_ldg.
// Launch: grid = rows, any block.
extern "C" __global__ void bias_add_2d(const float* x, const float* bias, float* out,
                                       int rows, int cols)
{
    int r = blockIdx.x;
    if (r >= rows)
        return;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        out[r * cols + c] = x[r * cols + c] + bias[c];
}
