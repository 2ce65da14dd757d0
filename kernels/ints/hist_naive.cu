// hist_naive: the reference weighted histogram. Thread b sums w[i] over the i with
// ids[i] == b (a branch on ids, concrete: its contents are fixed by init) and writes
// bins[b]. w: int32 in [0, 100]. True verdict: safe.
// Launch: grid = 1, block = 16.
extern "C" __global__ void hist_naive(const int* ids, const int* w, int* bins)
{
    int b = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < 1024; i++)
        if (ids[i] == b)
            acc += w[i];
    bins[b] = acc;
}
