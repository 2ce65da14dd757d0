// rowsum_vote: out[r] = sum_c x[r][c], one warp per row: lanes stride over the row, a
// __shfl_xor_sync butterfly sums the lanes, and the highest lane that held data writes, found
// with a vote: active = __ballot_sync(full, lane < cols) (vote.sync.ballot.b32), writer
// 31 - __clz(active). The predicates depend only on indices, so the vote is concrete.
// Launch: block = 32 * warps per CTA, grid = ceil(rows / warps per CTA).
extern "C" __global__ void rowsum_vote(const float* x, float* out, int rows, int cols)
{
    const int lane = threadIdx.x % 32;
    const int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32)
        s += x[r * cols + c];
    const unsigned active = __ballot_sync(0xffffffffu, lane < cols);
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, off);
    if (__all_sync(0xffffffffu, cols > 0) && lane == 31 - __clz(active))
        out[r] = s;
}
