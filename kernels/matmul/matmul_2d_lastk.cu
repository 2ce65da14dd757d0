// matmul_2d_lastk: SEEDED VALUE BUG (race-free, in bounds, wrong result).
// Twin of matmul_2d whose outer K-tile loop skips the last tile (bkIdx < K - BK):
// C = A[:, 0:K-BK] * B[0:K-BK, :], the last BK = 8 terms of every dot product are missing.
// Each block computes a BM x BN = 64x64 tile of C with 64 threads; each thread
// computes a TM x TN = 8x8 register tile.
// Row-major, A is MxK, B is KxN, C is MxN; M, N multiples of 64, K multiple of 8.
// Launch: block = (64), grid = (N / BN, M / BM).
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 8
#define NTHREADS ((BM * BN) / (TM * TN))   // 64

extern "C" __global__ void matmul_2d_lastk(const float* A, const float* B, float* C,
                                           int M, int N, int K)
{
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const int cRow = blockIdx.y;
    const int cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);

    const int innerColA = threadIdx.x % BK;
    const int innerRowA = threadIdx.x / BK;
    const int strideA = NTHREADS / BK;           // 8 rows of A per pass
    const int innerColB = threadIdx.x % BN;
    const int innerRowB = threadIdx.x / BN;
    const int strideB = NTHREADS / BN;           // 1 row of B per pass

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float threadResults[TM * TN] = {0.0f};
    float regM[TM];
    float regN[TN];

    for (int bkIdx = 0; bkIdx < K - BK; bkIdx += BK) {
        for (int off = 0; off < BM; off += strideA) {
            As[(innerRowA + off) * BK + innerColA] = A[(innerRowA + off) * K + innerColA];
        }
        for (int off = 0; off < BK; off += strideB) {
            Bs[(innerRowB + off) * BN + innerColB] = B[(innerRowB + off) * N + innerColB];
        }
        __syncthreads();
        A += BK;
        B += BK * N;

        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (int i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
            for (int i = 0; i < TN; ++i) regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
            for (int m = 0; m < TM; ++m) {
                for (int n = 0; n < TN; ++n) {
                    threadResults[m * TN + n] += regM[m] * regN[n];
                }
            }
        }
        __syncthreads();
    }

    for (int m = 0; m < TM; ++m) {
        for (int n = 0; n < TN; ++n) {
            C[(threadRow * TM + m) * N + threadCol * TN + n] = threadResults[m * TN + n];
        }
    }
}
