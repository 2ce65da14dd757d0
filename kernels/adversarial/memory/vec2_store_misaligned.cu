// TRUE VERDICT: misaligned. out[1 + 2i..3 + 2i] = x[2i..2i+2] through float2: the vector store
// (st.global.v2.f32) writes out + 1 + 2i, 4 bytes past an 8-byte boundary; PTX requires 8-byte
// alignment for it, so the store is undefined. Twin: vec2_store_aligned.
// Launch: 1 CTA x 32 threads; x and out have 66 floats.
extern "C" __global__ void vec2_store_misaligned(const float* x, float* out)
{
    int i = threadIdx.x;
    float2 v = reinterpret_cast<const float2*>(x)[i];
    reinterpret_cast<float2*>(out + 1)[i] = v;
}
