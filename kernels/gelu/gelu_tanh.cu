// gelu_tanh: the tanh approximation of GELU,
//   out[i] = x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))),  x = x[i],
// elementwise, one thread per element with an i < n guard. tanhf is libdevice's (no
// --use_fast_math): see the PTX for what nvcc makes of it.
// Launch: grid = ceil(n / 128), block = 128 (n = 256 in the spec).
#include <math.h>

extern "C" __global__ void gelu_tanh(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
        out[i] = 0.5f * v * (1.0f + tanhf(u));
    }
}
