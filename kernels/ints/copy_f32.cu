// copy_f32: out[i] = x[i] for i < 256 (x has 257 elements, the last one unread). The
// reference of the gathers. True verdict: safe.
// Launch: grid = 2, block = 128.
extern "C" __global__ void copy_f32(const float* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = x[i];
}
