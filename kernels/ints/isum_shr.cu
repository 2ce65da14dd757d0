// isum_shr: out[b] = sum of x[i] >> 1 over a chunk (an arithmetic shift right of integer
// data). Not a ring operation: kcert refuses it with the line (unsupported).
// Launch: grid = 1, block = 4.
extern "C" __global__ void isum_shr(const int* x, int* out)
{
    int b = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < 256; i++)
        acc += x[256 * b + i] >> 1;
    out[b] = acc;
}
