// transpose_linear: out = x^T for x [rows, cols] (row-major), out [cols, rows], one thread per
// element over the flattened index i = r * cols + c: r = i / cols (div.s32), c = i % cols
// (rem.s32), out[c][r] = x[r][c]. The reference of transpose_smem (misc/).
// Launch: grid = ceil(rows * cols / blockDim.x), any block.
extern "C" __global__ void transpose_linear(const float* x, float* out, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        int r = i / cols;
        int c = i % cols;
        out[c * rows + r] = x[i];
    }
}
