// matmul_smem_nosync: SEEDED BUG (data race on shared memory).
// Twin of matmul_smem with the second __syncthreads() (after the inner product
// loop) removed: a fast thread stores the next tile into As/Bs while slower
// threads are still reading the current tile.
// Launch: block = (TILE, TILE), grid = (N / TILE, M / TILE).
#define TILE 16

extern "C" __global__ void matmul_smem_nosync(const float* A, const float* B, float* C,
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
        // BUG: missing __syncthreads();
    }
    C[row * N + col] = acc;
}
