// cp_async_nowait: a seeded bug for the cp.async semantics. Each thread starts a 16-byte
// cp.async of its 4 floats of x into shared memory and never waits for it; it then stores to
// the first float of its slot and reads it back. On the hardware the copy may land before or
// after that store (it lands at some moment after the issue, wait or no wait), so out[4t] is
// 0 or x[4t]: the destination is written twice unordered (a race). out[4t+k] = x[4t+k] else.
// Launch: block = (32), grid = (1).
__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void cp_async_nowait(const float* x, float* out)
{
    __shared__ __align__(16) float s[128];
    const int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(&s[4 * t])),
                 "l"(&x[4 * t]));
    s[4 * t] = 0.0f;   // BUG (seeded): the copy to this slot is never waited for
    out[4 * t] = s[4 * t];
    for (int k = 1; k < 4; ++k) out[4 * t + k] = x[4 * t + k];
}
