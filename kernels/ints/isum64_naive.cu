// isum64_naive: the integer sum of 256-element chunks accumulated in int64. Instance
// isum64_naive_wide: x in [-2^24, 2^24], so a chunk sum (|sum| <= 2^32) needs more than int32
// but fits int64. True verdict: safe.
// Launch: grid = 1, block = 4.
extern "C" __global__ void isum64_naive(const int* x, long long* out)
{
    int b = threadIdx.x;
    long long acc = 0;
    for (int i = 0; i < 256; i++)
        acc += x[256 * b + i];
    out[b] = acc;
}
