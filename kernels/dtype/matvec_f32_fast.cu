// nvcc-flags: -use_fast_math
// matvec_f32_fast: matvec_f32 compiled with -use_fast_math (build.sh reads the flag line above):
// the same source, but every float operation flushes denormals (fma.rn.ftz.f32).
// y = A x for A [rows, cols] (row-major) and x [cols], one thread per row.
// Launch: grid = ceil(rows / blockDim.x), any block.
extern "C" __global__ void matvec_f32_fast(const float* A, const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float acc = 0.0f;
        for (int c = 0; c < cols; ++c)
            acc += A[r * cols + c] * x[c];
        y[r] = acc;
    }
}
