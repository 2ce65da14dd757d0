// named_bar_twice: SEEDED BUG. Warp 0 signals barrier 1 (bar.arrive 1, 64) twice, with only a
// barrier shared with warp 2 (bar.sync 2, 64) in between; warp 1 waits at barrier 1 twice. In
// the executor's order warp 1's first wait completes the first instance before warp 0 signals
// again, but nothing orders warp 0's second signal after that completion: in another schedule
// warp 0's two signals complete an instance by themselves, so warp 1 can pass its second wait
// before warp 0's second store: a race the executor's own matching hides. It reports the signal.
// Launch: block = (96), grid = (1).
extern "C" __global__ void named_bar_twice(const float* x, float* out)
{
    __shared__ float s[2][32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (warp == 0) {
        s[0][lane] = x[lane];
        asm volatile("bar.arrive 1, 64;" ::: "memory");
        asm volatile("bar.sync 2, 64;" ::: "memory");
        s[1][lane] = x[32 + lane];
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else if (warp == 1) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[lane] = s[0][lane];
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[32 + lane] = s[1][lane];
    } else {
        asm volatile("bar.sync 2, 64;" ::: "memory");
    }
}
