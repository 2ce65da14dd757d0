// gemm_ab_tiled_stale: NEGATIVE twin of gemm_ab_tiled: C is overwritten with alpha * A @ B
// first and then read back, so the beta term uses the new C instead of the old one:
// C = alpha * A @ B + beta * (alpha * A @ B).
// True verdict: safe, NOT equivalent to gemm_ab_naive (the initial C is lost): refuted.
// Launch: as gemm_ab_tiled.
#define T 16

extern "C" __global__ void gemm_ab_tiled_stale(const float* A, const float* B, float* C, int M, int N,
                                         int K, float alpha, float beta)
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
    C[row * N + col] = alpha * acc;
    C[row * N + col] = C[row * N + col] + beta * C[row * N + col];
}
