// bar_clear_members: SEEDED BUG. Four warps: X (warp 0), Q (1), R (2), P (3). R stores x into
// shared memory and X loads it after barrier 0, which X and R are meant to share:
//   X: bar.arrive 5,128; bar.sync 3,64; bar.sync 0,64; load s
//   Q: bar.arrive 0,64;  bar.arrive 6,64; bar.sync 5,128
//   R: store s;          bar.sync 5,128;  bar.sync 0,64
//   P: bar.sync 6,64;    bar.arrive 3,64; bar.arrive 0,64; bar.sync 5,128
// In the executor's order Q and P complete barrier 0's first instance, then X and R its second.
// On the GPU, X can pass barrier 3 as soon as P arrives there and complete barrier 0 with Q's
// pending arrival, then load before R's store: a race. The executor used to forget barrier 0's
// first members when the whole-CTA barrier 5 completed with nothing pending, although X and Q
// reach barrier 5 with bar.arrive and go on at once (found by the Lean model
// Kcert.Members.clearExec_members).
// Launch: block = (128), grid = (1).
extern "C" __global__ void bar_clear_members(const float* x, float* out)
{
    __shared__ float s[32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (warp == 0) {
        asm volatile("bar.arrive 5, 128;" ::: "memory");
        asm volatile("bar.sync 3, 64;" ::: "memory");
        asm volatile("bar.sync 0, 64;" ::: "memory");
        out[lane] = s[lane];
    } else if (warp == 1) {
        asm volatile("bar.arrive 0, 64;" ::: "memory");
        asm volatile("bar.arrive 6, 64;" ::: "memory");
        asm volatile("bar.sync 5, 128;" ::: "memory");
    } else if (warp == 2) {
        s[lane] = x[lane];
        asm volatile("bar.sync 5, 128;" ::: "memory");
        asm volatile("bar.sync 0, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 6, 64;" ::: "memory");
        asm volatile("bar.arrive 3, 64;" ::: "memory");
        asm volatile("bar.arrive 0, 64;" ::: "memory");
        asm volatile("bar.sync 5, 128;" ::: "memory");
    }
}
