// imax_naive: the reference integer maximum of each 32-element row, one thread per row.
// True verdict: safe.
// Launch: grid = 1, block = 8.
extern "C" __global__ void imax_naive(const int* x, int* out)
{
    int r = threadIdx.x;
    int m = x[32 * r];
    for (int j = 1; j < 32; j++)
        m = max(m, x[32 * r + j]);
    out[r] = m;
}
