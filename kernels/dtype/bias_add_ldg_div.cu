// bias_add_ldg_div: (seeded bug) bias_add_ldg indexing the bias by the row, i / cols (div.s32),
// instead of the column i % cols: out[r][c] = x[r][c] + bias[r] (in bounds since rows <= cols).
// Launch: any grid and block.
extern "C" __global__ void bias_add_ldg_div(const float* __restrict__ x, const float* __restrict__ bias,
                                            float* __restrict__ out, int rows, int cols)
{
    int n = rows * cols;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = __ldg(&x[i]) + __ldg(&bias[i / cols]);
}
