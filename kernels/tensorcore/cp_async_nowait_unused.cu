// cp_async_nowait_unused: the safe twin of cp_async_nowait. Each thread starts a 16-byte
// cp.async of its 4 floats of x into shared memory (a prefetch) and never waits for it, but
// nothing touches that shared slot afterwards: wherever the copy lands, nobody sees it.
// out[i] = x[i], read directly.
// Launch: block = (32), grid = (1).
__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void cp_async_nowait_unused(const float* x, float* out)
{
    __shared__ __align__(16) float s[128];
    const int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(&s[4 * t])),
                 "l"(&x[4 * t]));
    for (int k = 0; k < 4; ++k) out[4 * t + k] = x[4 * t + k];
}
