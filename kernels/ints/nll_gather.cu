// nll_gather: loss[r] = -logp[r][label[r]] with the int64 label used directly as an address.
// True verdict: safe, equivalent to nll_naive.
// Launch: grid = 2, block = 32.
extern "C" __global__ void nll_gather(const float* logp, const long long* label, float* loss)
{
    int r = blockIdx.x * 32 + threadIdx.x;
    loss[r] = -logp[r * 32 + label[r]];
}
