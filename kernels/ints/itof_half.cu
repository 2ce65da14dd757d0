// itof_half: out[i] = (float)x[i] / 2.0f, the reference of itof_scale. True verdict: safe.
// Launch: grid = 2, block = 128.
extern "C" __global__ void itof_half(const int* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = (float)x[i] / 2.0f;
}
