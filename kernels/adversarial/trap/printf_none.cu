// printf_none: out[i] = 2 x[i]: the reference of printf_some and assert_ok. True verdict: safe.
// Launch: grid 1, block 64.
extern "C" __global__ void printf_none(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = 2.0f * x[i];
}
