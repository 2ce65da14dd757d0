// matmul_1d: C = A * B with 1D block tiling.
// Each block computes a BM x BN tile of C; each of its BM*BN/TM = 512 threads
// computes TM = 8 consecutive outputs in one column of that tile.
// Row-major, A is MxK, B is KxN, C is MxN; M, N multiples of 64, K multiple of 8.
// Launch: block = (512), grid = (N / BN, M / BM).
#define BM 64
#define BN 64
#define BK 8
#define TM 8

extern "C" __global__ void matmul_1d(const float* A, const float* B, float* C,
                                     int M, int N, int K)
{
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const int cRow = blockIdx.y;
    const int cCol = blockIdx.x;
    const int threadCol = threadIdx.x % BN;
    const int threadRow = threadIdx.x / BN;      // 0 .. BM/TM - 1

    // which element of the A tile (BM x BK) / B tile (BK x BN) this thread loads
    const int innerColA = threadIdx.x % BK;
    const int innerRowA = threadIdx.x / BK;      // 0 .. BM - 1
    const int innerColB = threadIdx.x % BN;
    const int innerRowB = threadIdx.x / BN;      // 0 .. BK - 1

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float threadResults[TM] = {0.0f};

    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
        Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
        __syncthreads();
        A += BK;
        B += BK * N;

        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            float tmpB = Bs[dotIdx * BN + threadCol];
            for (int resIdx = 0; resIdx < TM; ++resIdx) {
                threadResults[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB;
            }
        }
        __syncthreads();
    }

    for (int resIdx = 0; resIdx < TM; ++resIdx) {
        C[(threadRow * TM + resIdx) * N + threadCol] = threadResults[resIdx];
    }
}
