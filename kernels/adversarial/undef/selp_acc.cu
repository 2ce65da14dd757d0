// selp_acc: a running max and sum over a row written with a "first iteration" select, as
// tensor-core attention code does: m = (k == 0) ? s : fmaxf(m, s) with m uninitialised before
// the loop. The loop runs over a runtime count n, so nvcc keeps a selp whose other side is
// the undefined m on the first trip. True verdict: safe (the undefined value never reaches an
// output). Launch: grid 1, block 32, n = 8.
extern "C" __global__ void selp_acc(const float* x, float* out, int n)
{
    int i = threadIdx.x;
    float m, s;
    for (int k = 0; k < n; k++) {
        float v = x[i * 8 + k];
        m = (k == 0) ? v : fmaxf(m, v);
        s = (k == 0) ? v : s + v;
    }
    out[i] = m + s;
}
