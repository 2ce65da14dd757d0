// TRUE VERDICT: safe; out = x (64 floats) through float2: out + 2i is 8-byte aligned. The twin
// of vec2_store_misaligned. Launch: 1 CTA x 32 threads.
extern "C" __global__ void vec2_store_aligned(const float* x, float* out)
{
    int i = threadIdx.x;
    float2 v = reinterpret_cast<const float2*>(x)[i];
    reinterpret_cast<float2*>(out)[i] = v;
}
