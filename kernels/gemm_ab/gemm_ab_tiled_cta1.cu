// gemm_ab_tiled_cta1: NEGATIVE twin of gemm_ab_tiled whose bug only CTA (1, 0, 0) meets: there
// the epilogue drops the beta term (C = alpha * A @ B). Proved against gemm_ab_naive only for the
// scope its spec names (ctas = [[0, 0, 0]]: PROVED, SCOPED, stating the CTA and the grid), and
// refuted for the whole grid (gemm_ab_tiled_cta1-vs-gemm_ab_naive).
// Launch: as gemm_ab_tiled.
// True verdict: safe, NOT equivalent to gemm_ab_naive (elements of CTA (1, 0, 0) differ).
#define T 16

extern "C" __global__ void gemm_ab_tiled_cta1(const float* A, const float* B, float* C, int M,
                                              int N, int K, float alpha, float beta)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / T; ++t) {
        As[ty][tx] = A[row * K + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (blockIdx.x == 1 && blockIdx.y == 0)
        C[row * N + col] = alpha * acc;
    else
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
