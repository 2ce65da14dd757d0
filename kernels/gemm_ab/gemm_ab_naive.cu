// gemm_ab_naive: C = alpha * A @ B + beta * C, A [M, K], B [K, N], C [M, N] row-major, C inout
// (its initial value is read, its final value is the output); alpha and beta are symbolic
// scalars in the spec, so a proof holds for every value of both. One thread per element of C.
// Launch: block 16 x 16, grid (N / 16, M / 16) (M = N = K = 32 in the spec).
// True verdict: safe; the reference of the gemm_ab pairs.
extern "C" __global__ void gemm_ab_naive(const float* A, const float* B, float* C, int M, int N,
                                         int K, float alpha, float beta)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}
