// transpose_smem: out = x^T through a 32x32 shared-memory tile.
// x is rows x cols (row-major), out is cols x rows: out[j][i] = x[i][j].
// The tile is padded to 33 columns to avoid bank conflicts. Each block of
// (TILE, BLOCK_ROWS) = (32, 8) threads moves one 32x32 tile, every thread
// handling TILE / BLOCK_ROWS = 4 rows; __syncthreads between load and store.
// Launch: block = (32, 8), grid = (ceil(cols / 32), ceil(rows / 32)).
#define TILE 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_smem(const float* x, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    int col = blockIdx.x * TILE + tx;           // column of x
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int row = blockIdx.y * TILE + ty + j;   // row of x
        if (row < rows && col < cols)
            tile[ty + j][tx] = x[row * cols + col];
    }
    __syncthreads();

    int ocol = blockIdx.y * TILE + tx;          // column of out = row of x
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int orow = blockIdx.x * TILE + ty + j;  // row of out = column of x
        if (orow < cols && ocol < rows)
            out[orow * rows + ocol] = tile[tx][ty + j];
    }
}
