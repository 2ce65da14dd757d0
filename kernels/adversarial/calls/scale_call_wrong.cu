// scale_call_wrong: the value-bug twin of scale_call: the device function computes x * s - 1,
// not x * s + 1. True verdict: safe, but NOT equivalent to scale_inline (refuted).
// Launch: grid 1, block 64.
__device__ __noinline__ float affine(float x, float s)
{
    return x * s - 1.0f;
}

extern "C" __global__ void scale_call_wrong(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = affine(x[i], 2.0f);
}
