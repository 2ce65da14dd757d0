// nll_naive: the reference negative log-likelihood gather of cross entropy over log
// probabilities: loss[r] = -logp[r][label[r]], one thread per row scanning the classes
// (a branch on the int64 label, concrete: fixed by init). True verdict: safe.
// Launch: grid = 1, block = 64.
extern "C" __global__ void nll_naive(const float* logp, const long long* label, float* loss)
{
    int r = threadIdx.x;
    float v = 0.0f;
    for (int c = 0; c < 32; c++)
        if (c == label[r])
            v = -logp[r * 32 + c];
    loss[r] = v;
}
