// TRUE VERDICT: safe; out = x (64 floats) through float4: x + 4i is 16-byte aligned. The twin of
// vec4_misaligned. Launch: 1 CTA x 16 threads.
extern "C" __global__ void vec4_aligned(const float* x, float* out)
{
    int i = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(x)[i];
    reinterpret_cast<float4*>(out)[i] = v;
}
