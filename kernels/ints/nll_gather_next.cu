// nll_gather_next: nll_gather reading the next class, logp[r][(label[r] + 1) % 32]. True
// verdict: safe, NOT equivalent to nll_naive.
// Launch: grid = 2, block = 32.
extern "C" __global__ void nll_gather_next(const float* logp, const long long* label, float* loss)
{
    int r = blockIdx.x * 32 + threadIdx.x;
    loss[r] = -logp[r * 32 + (label[r] + 1) % 32];
}
