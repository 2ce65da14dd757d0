// rowsum_f64: out[r] = sum_c x[r][c] for x [rows, cols] (row-major), one thread per row,
// accumulating in double (cvt.f64.f32, add.f64) and rounding once at the end (cvt.rn.f32.f64).
// Launch: grid = ceil(rows / blockDim.x), any block.
extern "C" __global__ void rowsum_f64(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        double s = 0.0;
        for (int c = 0; c < cols; ++c)
            s += (double)x[r * cols + c];
        out[r] = (float)s;
    }
}
