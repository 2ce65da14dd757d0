// matvec_f64acc: y = A x for A [rows, cols] (row-major) and x [cols], one warp per row, the way
// LLM-written kernels often do it "for accuracy": every lane accumulates its strided columns in
// double (cvt.f64.f32, fma.rn.f64), the warp sums its partials with __shfl_down_sync on doubles
// (each shuffle moves the two 32-bit halves: mov.b64 {lo, hi} / shfl.sync.down x2 / mov.b64),
// and lane 0 stores the sum rounded back to float (cvt.rn.f32.f64). 64-bit indices
// (long long rows/cols, mul.lo.s64).
// Launch: block = 32 * warps, grid = ceil(rows / warps).
extern "C" __global__ void matvec_f64acc(const float* A, const float* x, float* y,
                                         long long rows, long long cols)
{
    long long r = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (r >= rows)
        return;
    double acc = 0.0;
    for (long long c = lane; c < cols; c += 32)
        acc += (double)A[r * cols + c] * (double)x[c];
    for (int off = 16; off > 0; off /= 2)
        acc += __shfl_down_sync(0xffffffff, acc, off);
    if (lane == 0)
        y[r] = (float)acc;
}
