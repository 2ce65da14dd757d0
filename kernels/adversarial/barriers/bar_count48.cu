// bar_count48: true verdict INVALID (the PTX is outside the ISA). A 48-thread CTA stages x in
// shared memory and synchronizes with the named barrier `bar.sync 1, 48`; PTX requires a
// barrier's thread count to be a multiple of the warp size (32), and barriers count whole
// warps, so 48 is undefined behaviour however the CTA is shaped: it must not be called SAFE.
// Thread t reads the slot thread t + 1 wrote (out = x). Twin: bar_count48_ok.cu
// (__syncthreads, no count: SAFE); bar_count_reg.cu takes the count from a parameter.
// Launch: grid = 1, block = 48.

extern "C" __global__ void bar_count48(const float* x, float* out)
{
    __shared__ float s[48];
    int t = threadIdx.x;
    s[t] = x[t];
    asm volatile("bar.sync 1, 48;" ::: "memory");
    out[(t + 1) % 48] = s[(t + 1) % 48];
}
