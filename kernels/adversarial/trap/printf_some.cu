// printf_some: out[i] = 2 x[i], and thread 0 prints i and x[i] with printf (vprintf with a
// local-memory argument buffer). printf has no effect on the outputs. True verdict: safe, and
// equivalent to printf_none. Launch: grid 1, block 64.
#include <cstdio>
extern "C" __global__ void printf_some(const float* x, float* out)
{
    int i = threadIdx.x;
    float v = x[i];
    if (i == 0) printf("thread %d reads %f\n", i, v);
    out[i] = 2.0f * v;
}
