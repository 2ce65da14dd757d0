// gather_plus1: out[i] = x[idx[i] + 1], the gather off by one. With idx = iota it reads
// x[i + 1] (x has 257 elements: in bounds). True verdict: safe, NOT equivalent to copy_f32.
// Launch: grid = 2, block = 128.
extern "C" __global__ void gather_plus1(const float* x, const int* idx, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = x[idx[i] + 1];
}
