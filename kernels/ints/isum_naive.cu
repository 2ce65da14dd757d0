// isum_naive: the reference integer sum. out[b] = x[256 b] + ... + x[256 b + 255], one thread
// per chunk adding in order, in int32. Instance isum_naive: x in [-1000, 1000] (declared
// range), so no partial sum can wrap (|sum| <= 256000). True verdict: safe.
// Launch: grid = 1, block = 4.
extern "C" __global__ void isum_naive(const int* x, int* out)
{
    int b = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < 256; i++)
        acc += x[256 * b + i];
    out[b] = acc;
}
