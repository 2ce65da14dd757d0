// hardswish_ref: out = x * relu6(x + 3) / 6 (MobileNetV3's hard swish, as PyTorch defines it).
// The reference of the hardswish kernels in this directory.
// Launch: grid = ceil(n / blockDim.x), any block.
extern "C" __global__ void hardswish_ref(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[i] = v * fminf(fmaxf(v + 3.0f, 0.0f), 6.0f) / 6.0f;
    }
}
