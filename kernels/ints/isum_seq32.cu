// isum_seq32: the same chunk sums, accumulated in int32 and widened to int64 at the end.
// Instance isum_seq32: x in [-1000, 1000]: nothing wraps, equivalent to isum64_naive.
// Instance isum_seq32_wide: x in [-2^24, 2^24]: the int32 accumulator can wrap around (a
// real bug: the int64 reference does not), so kcert must refuse it (unknown), never prove it.
// Launch: grid = 1, block = 4.
extern "C" __global__ void isum_seq32(const int* x, long long* out)
{
    int b = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < 256; i++)
        acc += x[256 * b + i];
    out[b] = (long long)acc;
}
