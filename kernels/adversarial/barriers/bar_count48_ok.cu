// bar_count48_ok: true verdict SAFE. bar_count48 with __syncthreads() (`bar.sync 0`, no thread
// count: every thread of the 48-thread CTA participates), which orders the shared stores
// before the loads of the neighbour's slot: out = x.
// Launch: grid = 1, block = 48.

extern "C" __global__ void bar_count48_ok(const float* x, float* out)
{
    __shared__ float s[48];
    int t = threadIdx.x;
    s[t] = x[t];
    __syncthreads();
    out[(t + 1) % 48] = s[(t + 1) % 48];
}
