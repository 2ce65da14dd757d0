// gemm_ab_tiled_beta2: NEGATIVE twin of gemm_ab_tiled: the epilogue applies beta twice,
// C = alpha * A @ B + beta * (beta * C).
// True verdict: safe, NOT equivalent to gemm_ab_naive (differs whenever beta^2 != beta and
// C != 0): refuted.
// Launch: as gemm_ab_tiled.
#define T 16

extern "C" __global__ void gemm_ab_tiled_beta2(const float* A, const float* B, float* C, int M, int N,
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
    C[row * N + col] = alpha * acc + beta * (beta * C[row * N + col]);
}
