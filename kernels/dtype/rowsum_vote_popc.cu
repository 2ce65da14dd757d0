// rowsum_vote_popc: BUGGY twin of rowsum_vote: the lanes stride over the row by the number of
// lanes a ballot finds below 16 (__popc(__ballot_sync(full, lane < 16)) = 16) instead of 32,
// so lanes l and l + 16 both add the elements from l + 16 on.
// Launch: block = 32 * warps per CTA, grid = ceil(rows / warps per CTA).
extern "C" __global__ void rowsum_vote_popc(const float* x, float* out, int rows, int cols)
{
    const int lane = threadIdx.x % 32;
    const int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (r >= rows)
        return;
    const int stride = __popc(__ballot_sync(0xffffffffu, lane < 16));
    float s = 0.0f;
    for (int c = lane; c < cols; c += stride)
        s += x[r * cols + c];
    const unsigned active = __ballot_sync(0xffffffffu, lane < cols);
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, off);
    if (__all_sync(0xffffffffu, cols > 0) && lane == 31 - __clz(active))
        out[r] = s;
}
