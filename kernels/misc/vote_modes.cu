// vote_modes: SEEDED BUG. Lane 0 asks __any_sync(full, lane == 0) and lanes 1..31 ask
// __all_sync(full, lane == 0) at another vote.sync instruction; the two meet as one
// collective of the full mask. Lane 0's any is true, lanes 1..31's all is false, so only lane
// 0 keeps x[lane]. The executor used to compute one vote with the first lane's mode for every
// lane (all lanes true) and certify out = x (found by the Lean model Kcert.Warp.VoteModes).
// PTX gives no meaning to lanes of one mask at vote.sync instructions of different modes.
// Launch: block = (32), grid = (1).
extern "C" __global__ void vote_modes(const float* x, float* out)
{
    const int lane = threadIdx.x % 32;
    int v;
    if (lane == 0)
        v = __any_sync(0xffffffffu, lane == 0);
    else
        v = __all_sync(0xffffffffu, lane == 0);
    out[lane] = v ? x[lane] : 0.0f;
}
