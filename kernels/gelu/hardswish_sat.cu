// hardswish_sat: hard swish with the clamp to [0, 1] as __saturatef (cvt.sat.f32.f32).
// Launch: grid = ceil(n / blockDim.x), any block.
extern "C" __global__ void hardswish_sat(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[i] = v * __saturatef(v * (1.0f / 6.0f) + 0.5f);
    }
}
