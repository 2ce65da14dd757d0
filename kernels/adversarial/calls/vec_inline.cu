// vec_inline: vec_call's arithmetic written inline: the reference of vec_call.
// True verdict: safe. Launch: grid 1, block 32.
extern "C" __global__ void vec_inline(const float2* x, float2* out)
{
    int i = threadIdx.x;
    float2 v = x[i];
    float2 a = make_float2(v.x * 0.5f + v.y, v.y * 0.5f - v.x);
    out[i] = make_float2(a.x * 2.0f + a.y, a.y * 2.0f - a.x);
}
