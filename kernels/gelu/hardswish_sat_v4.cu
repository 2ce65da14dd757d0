// hardswish_sat_v4: hardswish_sat on four elements per thread through float4 loads and stores
// (ld.global.v4.f32, four cvt.sat.f32.f32). n must be a multiple of 4.
// Launch: grid = ceil(n / 4 / blockDim.x), any block.
extern "C" __global__ void hardswish_sat_v4(const float4* x, float4* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) {
        float4 v = x[i];
        float4 r;
        r.x = v.x * __saturatef(v.x * (1.0f / 6.0f) + 0.5f);
        r.y = v.y * __saturatef(v.y * (1.0f / 6.0f) + 0.5f);
        r.z = v.z * __saturatef(v.z * (1.0f / 6.0f) + 0.5f);
        r.w = v.w * __saturatef(v.w * (1.0f / 6.0f) + 0.5f);
        out[i] = r;
    }
}
