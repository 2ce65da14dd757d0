// assert_ok: out[i] = 2 x[i] behind assert(i < n) with n = 64 = the block: no thread fails the
// assertion, so the __assertfail call is unreachable. True verdict: safe (and equivalent to
// printf_none). Launch: grid 1, block 64, n = 64.
#include <assert.h>
extern "C" __global__ void assert_ok(const float* x, float* out, int n)
{
    int i = threadIdx.x;
    assert(i < n);
    out[i] = 2.0f * x[i];
}
