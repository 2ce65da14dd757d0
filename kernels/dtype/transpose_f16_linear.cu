// transpose_f16_linear: out = x^T for __half x [rows, cols] (row-major), out [cols, rows], one
// thread per element over the flattened index (div.s32 / rem.s32), 16-bit loads and stores
// (ld.global.b16 / st.global.b16). The reference of transpose_f16_smem.
// Launch: grid = ceil(rows * cols / blockDim.x), any block.
#include <cuda_fp16.h>

extern "C" __global__ void transpose_f16_linear(const __half* x, __half* out, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        int r = i / cols;
        int c = i % cols;
        out[c * rows + r] = x[i];
    }
}
