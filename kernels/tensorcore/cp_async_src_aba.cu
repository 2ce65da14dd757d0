// cp_async_src_aba: a seeded bug for the cp.async semantics. Each thread starts a 4-byte
// cp.async of buf[t] into shared memory, then overwrites buf[t] with 2 and restores it to its
// old value before cp.async.wait_all. The hardware copy reads the source at some moment
// between the issue and the wait, so it may copy the 2: the copied value is unknown although
// the source holds its old value again at the wait. out[t] = smem[t] afterwards.
// Launch: block = (32), grid = (1).
__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void cp_async_src_aba(float* buf, float* out)
{
    __shared__ __align__(16) float s[32];
    const int t = threadIdx.x;
    volatile float* vb = buf;
    const float old = vb[t];
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem_addr(&s[t])),
                 "l"(&buf[t]) : "memory");
    vb[t] = 2.0f;   // BUG (seeded): the copy may read the source now
    vb[t] = old;    // restoring the value does not undo it
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    out[t] = s[t];
}
