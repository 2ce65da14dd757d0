// gelu_erf: the exact GELU, out[i] = x[i] / 2 * (1 + erf(x[i] / sqrt(2))), elementwise, one
// thread per element with an i < n guard. erff is libdevice's (no --use_fast_math): see the PTX
// for what nvcc makes of it.
// Launch: grid = ceil(n / 128), block = 128 (n = 256 in the spec).
#include <math.h>

extern "C" __global__ void gelu_erf(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[i] = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
    }
}
