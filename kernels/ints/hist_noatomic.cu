// hist_noatomic: hist_atomic with a plain read-modify-write in place of atomicAdd. Threads
// with the same bucket id read and write one bin unordered. True verdict: a race.
// Launch: grid = 4, block = 256.
extern "C" __global__ void hist_noatomic(const int* ids, const int* w, int* bins)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    bins[ids[i]] += w[i];
}
