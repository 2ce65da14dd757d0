// hardswish_sat_noshift: BUGGY twin of hardswish_sat: the + 1/2 inside the clamp is missing,
// so out = x * clamp(x / 6, 0, 1).
// Launch: grid = ceil(n / blockDim.x), any block.
extern "C" __global__ void hardswish_sat_noshift(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[i] = v * __saturatef(v * (1.0f / 6.0f));
    }
}
