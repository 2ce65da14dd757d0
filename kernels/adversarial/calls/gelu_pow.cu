// gelu_pow: tanh-GELU written the way language models write it, with double pow(x, 3.0):
// out[i] = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). Probe: does nvcc emit a call for pow?
#include <math.h>
extern "C" __global__ void gelu_pow(const float* x, float* out)
{
    int i = threadIdx.x;
    float v = x[i];
    float c = (float)pow((double)v, 3.0);
    out[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * c)));
}
