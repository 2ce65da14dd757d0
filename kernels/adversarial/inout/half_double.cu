// half_double: c[i] = 2 * c[i] for i < n (n = 64 of the 128 elements of the inout c); the rest
// keep their initial value. One thread per element of c.
// True verdict: safe; the reference of half_double_all.
extern "C" __global__ void half_double(float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = 2.0f * c[i];
}
