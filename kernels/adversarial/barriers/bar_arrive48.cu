// bar_arrive48: true verdict INVALID. Producer/consumer in a 48-thread CTA over the named
// barrier 1 with thread count 48: warp 0 (threads 0-31) stages x and signals with
// `bar.arrive 1, 48`, threads 32-47 wait with `bar.sync 1, 48` and copy. 48 is not a
// multiple of the warp size, which PTX requires of bar.arrive's count as of bar.sync's.
// Twin: bar_arrive64.cu (the same with 64 threads and count 64: SAFE).
// Launch: grid = 1, block = 48.

extern "C" __global__ void bar_arrive48(const float* x, float* out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = x[t];
        asm volatile("bar.arrive 1, 48;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 48;" ::: "memory");
        out[t - 32] = s[t - 32];
        out[t - 16] = s[t - 16];
    }
}
