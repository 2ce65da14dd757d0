// twice2: true verdict SAFE. out[i] = 2 x[i], two elements per thread (float2), n even.
// Against twice (x + x): EQUIVALENT over the reals.
// Launch: grid = 1, block = 128.

extern "C" __global__ void twice2(const float2* x, float2* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * i < n) {
        float2 v = x[i];
        out[i] = make_float2(2.0f * v.x, 2.0f * v.y);
    }
}
