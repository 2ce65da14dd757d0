// scale_inline: out[i] = x[i] * 2 + 1, written inline: the reference of scale_call.
// True verdict: safe. Launch: grid 1, block 64.
extern "C" __global__ void scale_inline(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = x[i] * 2.0f + 1.0f;
}
