// softmax_naive_expf: softmax_naive with expf instead of __expf. Without --use_fast_math nvcc
// inlines libdevice's accurate expf: a range reduction x log2 e = k + r (cvt.sat, fma.rm with
// the magic 0f4B400001) and 2^k built from the bits of k (mov.b32, shl.b32 23, mov.b32), read
// by kcert as 2^(x (0f3FB8AA3B + 0f32A57060)) (checker/src/exec/libdevice.rs).
//   m = max_c x[r][c];  s = sum_c exp(x[r][c] - m);  out[r][c] = exp(x[r][c] - m) / s.
// Launch: grid = ceil(rows / 4), block = 4 (rows = 4, cols = 16 in the spec).
#include <math.h>

extern "C" __global__ void softmax_naive_expf(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + r * cols;
        float* outr = out + r * cols;
        float m = -INFINITY;
        for (int c = 0; c < cols; ++c)
            m = fmaxf(m, xr[c]);
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += expf(xr[c] - m);
        for (int c = 0; c < cols; ++c)
            outr[c] = expf(xr[c] - m) / s;
    }
}
