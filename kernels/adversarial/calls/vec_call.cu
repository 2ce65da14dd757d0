// vec_call: a __noinline__ device function taking a float2 and a double and returning a float2
// (vector .param passing: st.param.v2.f32, ld.param.v2.f32, .param .align 8 .b8 arrays), called
// twice per thread so two inlined copies must not share registers. out[2i] = x[2i] * d + x[2i+1],
// out[2i+1] = x[2i+1] * d - x[2i], applied twice with d = 0.5 then d = 2.
// True verdict: safe, equivalent to vec_inline. Launch: grid 1, block 32.
__device__ __noinline__ float2 twist(float2 v, double d)
{
    float s = (float)d;
    return make_float2(v.x * s + v.y, v.y * s - v.x);
}

extern "C" __global__ void vec_call(const float2* x, float2* out)
{
    int i = threadIdx.x;
    float2 a = twist(x[i], 0.5);
    out[i] = twist(a, 2.0);
}
