// cp_async_overwrite: a seeded bug for the cp.async semantics. Each thread starts a 16-byte
// cp.async of its 4 floats of x into shared memory, then stores to the same shared slot before
// cp.async.wait_all: on the hardware the copy may land before or after that store, so the
// destination is written twice unordered (a race). out[i] = smem[i] afterwards.
// Launch: block = (32), grid = (1).
__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void cp_async_overwrite(const float* x, float* out)
{
    __shared__ __align__(16) float s[128];
    const int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(&s[4 * t])),
                 "l"(&x[4 * t]));
    s[4 * t] = 0.0f;   // BUG (seeded): the copy to this slot is still in flight
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    for (int k = 0; k < 4; ++k) out[4 * t + k] = s[4 * t + k];
}
