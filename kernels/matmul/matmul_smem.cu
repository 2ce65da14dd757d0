// matmul_smem: C = A * B with 16x16 shared-memory tiles.
// Row-major, A is MxK, B is KxN, C is MxN; M, N, K must be multiples of TILE.
// Launch: block = (TILE, TILE), grid = (N / TILE, M / TILE).
#define TILE 16

extern "C" __global__ void matmul_smem(const float* A, const float* B, float* C,
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
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    C[row * N + col] = acc;
}
