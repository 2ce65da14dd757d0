// store_signed_zero: thread 0 stores a * 0.0f, thread 1 a * -0.0f into out[0], unordered.
// The products are zeros of opposite signs for positive a: different bits, so a race (the
// terms differ: -0.0 is its own tree). True verdict: not safe (race).
// Launch: grid = 1, block = 32.
extern "C" __global__ void store_signed_zero(const float* a, float* out, float z)
{
    int t = threadIdx.x;
    if (t == 0) out[0] = __fmul_rn(a[0], z);
    if (t == 1) out[0] = __fmul_rn(a[0], -z);
}
