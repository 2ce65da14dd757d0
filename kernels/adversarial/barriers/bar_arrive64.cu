// bar_arrive64: true verdict SAFE. bar_arrive48 with 64 threads and count 64 (two whole
// warps): warp 0 stages x and signals with `bar.arrive 1, 64`, warp 1 waits with
// `bar.sync 1, 64` and copies, so every load of s is ordered after the store it reads.
// out[i] = x[i] for i < 32.
// Launch: grid = 1, block = 64.

extern "C" __global__ void bar_arrive64(const float* x, float* out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = x[t];
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[t - 32] = s[t - 32];
    }
}
