// bias_add_ldg: out[r][c] = x[r][c] + bias[c] over the flattened index i = r * cols + c with a
// grid-stride loop; the column is i % cols (rem.s32) and the bias goes through the read-only
// cache, __ldg (ld.global.nc.f32).
// Launch: any grid and block.
extern "C" __global__ void bias_add_ldg(const float* __restrict__ x, const float* __restrict__ bias,
                                        float* __restrict__ out, int rows, int cols)
{
    int n = rows * cols;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = __ldg(&x[i]) + __ldg(&bias[i % cols]);
}
