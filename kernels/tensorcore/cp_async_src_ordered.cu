// cp_async_src_ordered: the negative twin of cp_async_src_aba. Each thread starts a 4-byte
// cp.async of buf[t] into shared memory and completes it with cp.async.wait_all before
// writing 2 into buf[t]: the copy has read the source by then. out[t] = smem[t] afterwards
// (the old buf[t]).
// Launch: block = (32), grid = (1).
__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void cp_async_src_ordered(float* buf, float* out)
{
    __shared__ __align__(16) float s[32];
    const int t = threadIdx.x;
    volatile float* vb = buf;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem_addr(&s[t])),
                 "l"(&buf[t]) : "memory");
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    vb[t] = 2.0f;
    out[t] = s[t];
}
