// matmul_smem_transposed: SEEDED VALUE BUG (race-free, in bounds, wrong result).
// Twin of matmul_smem that reads the shared tile of B transposed (Bs[tx][k] instead of
// Bs[k][tx]): C[row][col] = sum_t sum_k A[row][t+k] * B[t+tx][16*blockIdx.x + k],
// which is not A * B. Loads, stores and barriers are those of matmul_smem.
// Row-major, A is MxK, B is KxN, C is MxN; M, N, K must be multiples of TILE.
// Launch: block = (TILE, TILE), grid = (N / TILE, M / TILE).
#define TILE 16

extern "C" __global__ void matmul_smem_transposed(const float* A, const float* B, float* C,
                                                  int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = A[row * K + (t + tx)];
        Bs[ty][tx] = B[(t + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * Bs[tx][k];
        }
        __syncthreads();
    }
    C[row * N + col] = acc;
}
