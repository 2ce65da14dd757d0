// scale_call: out[i] = affine(x[i], 2) with affine a __noinline__ device function (x * s + 1),
// so nvcc emits a `call.uni` with .param passing and a return value. True verdict: safe, and
// equivalent to scale_inline (the same arithmetic written inline). Launch: grid 1, block 64.
__device__ __noinline__ float affine(float x, float s)
{
    return x * s + 1.0f;
}

extern "C" __global__ void scale_call(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = affine(x[i], 2.0f);
}
