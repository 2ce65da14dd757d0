// matvec_f32: y = A x for A [rows, cols] (row-major) and x [cols], one thread per row, a float
// accumulator. The reference of the f64-accumulating matvec kernels in this directory.
// Launch: grid = ceil(rows / blockDim.x), any block.
extern "C" __global__ void matvec_f32(const float* A, const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float acc = 0.0f;
        for (int c = 0; c < cols; ++c)
            acc += A[r * cols + c] * x[c];
        y[r] = acc;
    }
}
