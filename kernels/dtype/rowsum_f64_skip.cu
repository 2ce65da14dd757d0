// rowsum_f64_skip: (seeded bug) rowsum_f64 whose loop starts at c = 1: out[r] misses x[r][0].
// Otherwise as rowsum_f64: out[r] = sum_c x[r][c], one thread per row, double accumulator.
// Launch: grid = ceil(rows / blockDim.x), any block.
extern "C" __global__ void rowsum_f64_skip(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        double s = 0.0;
        for (int c = 1; c < cols; ++c)
            s += (double)x[r * cols + c];
        out[r] = (float)s;
    }
}
