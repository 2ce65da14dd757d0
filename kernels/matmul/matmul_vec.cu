// matmul_vec: C = A * B with 2D block tiling and vectorized (float4) global
// loads and stores. The A tile is stored transposed in shared memory
// (As[k][m]) so the inner loop reads both tiles along contiguous rows.
// Each block computes a BM x BN = 64x64 tile of C with 64 threads; each thread
// computes a TM x TN = 8x8 register tile.
// Row-major, A is MxK, B is KxN, C is MxN; M, N multiples of 64, K multiple of 8;
// A, B, C 16-byte aligned.
// Launch: block = (64), grid = (N / BN, M / BM).
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 8
#define NTHREADS ((BM * BN) / (TM * TN))   // 64

extern "C" __global__ void matmul_vec(const float* A, const float* B, float* C,
                                      int M, int N, int K)
{
    __shared__ float As[BK * BM];   // transposed: As[k * BM + m]
    __shared__ float Bs[BK * BN];   // Bs[k * BN + n]

    const int cRow = blockIdx.y;
    const int cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);

    // A tile: BM rows of BK/4 float4 each; B tile: BK rows of BN/4 float4 each
    const int innerColA = threadIdx.x % (BK / 4);
    const int innerRowA = threadIdx.x / (BK / 4);
    const int strideA = NTHREADS / (BK / 4);     // 32 rows of A per pass
    const int innerColB = threadIdx.x % (BN / 4);
    const int innerRowB = threadIdx.x / (BN / 4);
    const int strideB = NTHREADS / (BN / 4);     // 4 rows of B per pass

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float threadResults[TM * TN] = {0.0f};
    float regM[TM];
    float regN[TN];

    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        for (int off = 0; off < BM; off += strideA) {
            float4 tmp = reinterpret_cast<const float4*>(&A[(innerRowA + off) * K + innerColA * 4])[0];
            As[(innerColA * 4 + 0) * BM + innerRowA + off] = tmp.x;
            As[(innerColA * 4 + 1) * BM + innerRowA + off] = tmp.y;
            As[(innerColA * 4 + 2) * BM + innerRowA + off] = tmp.z;
            As[(innerColA * 4 + 3) * BM + innerRowA + off] = tmp.w;
        }
        for (int off = 0; off < BK; off += strideB) {
            reinterpret_cast<float4*>(&Bs[(innerRowB + off) * BN + innerColB * 4])[0] =
                reinterpret_cast<const float4*>(&B[(innerRowB + off) * N + innerColB * 4])[0];
        }
        __syncthreads();
        A += BK;
        B += BK * N;

        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (int i = 0; i < TM; ++i) regM[i] = As[dotIdx * BM + threadRow * TM + i];
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
        for (int n = 0; n < TN; n += 4) {
            float4 tmp;
            tmp.x = threadResults[m * TN + n + 0];
            tmp.y = threadResults[m * TN + n + 1];
            tmp.z = threadResults[m * TN + n + 2];
            tmp.w = threadResults[m * TN + n + 3];
            reinterpret_cast<float4*>(&C[(threadRow * TM + m) * N + threadCol * TN + n])[0] = tmp;
        }
    }
}
