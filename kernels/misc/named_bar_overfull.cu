// named_bar_overfull: SEEDED BUG. Four warps all wait at named barrier 1 with a count of 64
// threads (two warps), so each instance is completed by whichever two warps arrive first:
// warp 0 stores s[lane], warp 1 loads it after the barrier, and in a schedule where warps 1 and
// 2 arrive first, warp 1 loads before warp 0 stores.
// Launch: block = (128), grid = (1).
extern "C" __global__ void named_bar_overfull(const float* x, float* out)
{
    __shared__ float s[32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (warp == 0)
        s[lane] = x[lane];
    asm volatile("bar.sync 1, 64;" ::: "memory");
    if (warp == 1)
        out[lane] = s[lane];
}
