// gather_rows: the reference gather, one thread per row of 32 outputs looping in order:
// out[32 r + j] = x[idx[32 r + j]]. True verdict: safe.
// Launch: grid = 1, block = 8.
extern "C" __global__ void gather_rows(const float* x, const int* idx, float* out)
{
    int r = threadIdx.x;
    for (int j = 0; j < 32; j++)
        out[32 * r + j] = x[idx[32 * r + j]];
}
