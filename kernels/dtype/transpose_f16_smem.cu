// transpose_f16_smem: out = x^T for __half x [rows, cols] through a 32x32 __half shared tile
// (padded to 34 columns so that a row of the tile stays 4-byte aligned), st.shared.b16 /
// ld.shared.b16. Block (32, 8), each thread moves 4 rows; __syncthreads between load and store.
// Launch: block = (32, 8), grid = (ceil(cols / 32), ceil(rows / 32)).
#include <cuda_fp16.h>
#define TILE 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_f16_smem(const __half* x, __half* out, int rows, int cols)
{
    __shared__ __half tile[TILE][TILE + 2];
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    int col = blockIdx.x * TILE + tx;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int row = blockIdx.y * TILE + ty + j;
        if (row < rows && col < cols)
            tile[ty + j][tx] = x[row * cols + col];
    }
    __syncthreads();

    int ocol = blockIdx.y * TILE + tx;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int orow = blockIdx.x * TILE + ty + j;
        if (orow < cols && ocol < rows)
            out[orow * rows + ocol] = tile[tx][ty + j];
    }
}
