// named_bar_pairs: warps 0 and 1 meet at named barrier 1 and warps 2 and 3 at named barrier 2
// (64 threads each), then warps 0 and 2 each hand a row to warps 1 and 3, and a whole-CTA
// barrier later warps 2 and 3 reuse barrier 1 for a third row (out = x, 96 elements): every instance of every
// barrier joins the same threads in every schedule.
// Launch: block = (128), grid = (1).
extern "C" __global__ void named_bar_pairs(const float* x, float* out)
{
    __shared__ float s[2][32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int pair = warp / 2;
    if (warp % 2 == 0)
        s[pair][lane] = x[pair * 32 + lane];
    if (pair == 0)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    if (warp % 2 == 1)
        out[pair * 32 + lane] = s[pair][lane];
    __syncthreads();
    if (warp == 2)
        s[0][lane] = x[64 + lane];
    if (pair == 1)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    if (warp == 3)
        out[64 + lane] = s[0][lane];
}
