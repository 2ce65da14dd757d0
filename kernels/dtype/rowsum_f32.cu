// rowsum_f32: out[r] = sum_c x[r][c] for x [rows, cols] (row-major), one thread per row, a float
// accumulator. The reference of rowsum_f64.
// Launch: grid = ceil(rows / blockDim.x), any block.
extern "C" __global__ void rowsum_f32(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += x[r * cols + c];
        out[r] = s;
    }
}
