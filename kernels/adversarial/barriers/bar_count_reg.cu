// bar_count_reg: the barrier's thread count comes from the parameter cnt, so ptxas cannot
// check it. Instance bar_count_reg (48 threads, cnt = 48): true verdict INVALID, PTX requires a
// multiple of the warp size (barriers count whole warps), also when it equals the CTA's size.
// Instance bar_count_reg_64 (64 threads, cnt = 64): true verdict SAFE. Thread t stages x[t]
// and, after the barrier, copies the slot thread t + 1 wrote: out = x.
// Launch: grid = 1, block = 48 or 64.

extern "C" __global__ void bar_count_reg(const float* x, float* out, int cnt)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    int n = blockDim.x;
    s[t] = x[t];
    asm volatile("bar.sync 1, %0;" :: "r"(cnt) : "memory");
    out[(t + 1) % n] = s[(t + 1) % n];
}
