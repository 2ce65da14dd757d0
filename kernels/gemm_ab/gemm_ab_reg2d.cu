// gemm_ab_reg2d: C = alpha * A @ B + beta * C (as gemm_ab_naive), 2D register tiling: an 8 x 8
// CTA computes a 16 x 16 tile of C, each thread a 2 x 2 block of it held in registers; A and B
// tiles are staged in shared memory (4 elements per thread each), and the epilogue reads the
// old C and scales both terms per element.
// Launch: block 8 x 8, grid (N / 16, M / 16); M, N, K multiples of 16 (32 in the spec).
// True verdict: safe, equivalent to gemm_ab_naive for all alpha, beta, A, B and initial C.
#define T 16

extern "C" __global__ void gemm_ab_reg2d(const float* A, const float* B, float* C, int M, int N,
                                         int K, float alpha, float beta)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    for (int t = 0; t < K / T; ++t) {
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                int y = 2 * ty + i, x = 2 * tx + j;
                As[y][x] = A[(r0 + y) * K + t * T + x];
                Bs[y][x] = B[(t * T + y) * N + c0 + x];
            }
        __syncthreads();
        for (int k = 0; k < T; ++k) {
            float a0 = As[2 * ty][k], a1 = As[2 * ty + 1][k];
            float b0 = Bs[k][2 * tx], b1 = Bs[k][2 * tx + 1];
            acc[0][0] += a0 * b0;
            acc[0][1] += a0 * b1;
            acc[1][0] += a1 * b0;
            acc[1][1] += a1 * b1;
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            int idx = (r0 + 2 * ty + i) * N + c0 + 2 * tx + j;
            C[idx] = alpha * acc[i][j] + beta * C[idx];
        }
}
