// vote_modes_same: the safe twin of vote_modes. Lane 0 and lanes 1..31 reach two different
// vote.sync instructions of the same mode (__any_sync(full, lane == 0)), which meet as one
// collective of the full mask: every lane's any is true and out = x.
// Launch: block = (32), grid = (1).
extern "C" __global__ void vote_modes_same(const float* x, float* out)
{
    const int lane = threadIdx.x % 32;
    int v;
    if (lane == 0)
        v = __any_sync(0xffffffffu, lane == 0) ? 1 : 0;
    else
        v = __any_sync(0xffffffffu, lane == 0) ? 2 : 0;
    out[lane] = v ? x[lane] : 0.0f;
}
