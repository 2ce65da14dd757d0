// gelu_tanh_exp: the tanh approximation of GELU written with __expf, as fused kernels often do:
// 1 + tanh(u) = 2 / (1 + exp(-2u)), so
//   out[i] = x / (1 + exp(-2u)),  u = sqrt(2 / pi) * (x + 0.044715 x^3),  x = x[i],
// elementwise, one thread per element with an i < n guard. __expf(y) is `mul.f32 y, 0f3FB8AA3B`
// then `ex2.approx.f32`; the division is `div.rn.f32`.
// Launch: grid = ceil(n / 128), block = 128 (n = 256 in the spec).
#include <math.h>

extern "C" __global__ void gelu_tanh_exp(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
        out[i] = v / (1.0f + __expf(-2.0f * u));
    }
}
