// TRUE VERDICT: misaligned. out[4i..4i+4] = x[4i+1..4i+5] through float4: the vector load
// (ld.global.v4.f32) reads x + 1 + 4i, 4 bytes past a 16-byte boundary; PTX requires a vector
// access to be aligned to its whole size (16 bytes), so the load is undefined (on the GPU a
// misaligned address error). Twin: vec4_aligned. Launch: 1 CTA x 16 threads; x and out have 68 floats (the last 4 of out are not written).
extern "C" __global__ void vec4_misaligned(const float* x, float* out)
{
    int i = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(x + 1)[i];
    reinterpret_cast<float4*>(out)[i] = v;
}
