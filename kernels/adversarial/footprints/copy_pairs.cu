// copy_pairs: out[j] = x[j] for j < n, two consecutive elements per thread (j = 2i, 2i + 1).
// Instances: copy_pairs (n = 16), copy_pairs_12 (n = 12: 12 of 16 elements written).
// True verdicts: safe; equivalent to copy_guard with the same n on the elements both write
// (all 16, or 12 of 16: a partial footprint, the same one on both sides).

extern "C" __global__ void copy_pairs(const float* x, float* out, int n)
{
    int j = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (j < n)
        out[j] = x[j];
    if (j + 1 < n)
        out[j + 1] = x[j + 1];
}
