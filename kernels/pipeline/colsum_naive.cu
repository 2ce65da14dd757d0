// colsum_naive: out[l] = sum over c of x[c * 32 + l]: one thread per column, the reference of
// the producer/consumer kernels in this directory.
// Launch: block = (32), grid = (1).
extern "C" __global__ void colsum_naive(const float* x, float* out, int chunks)
{
    const int l = threadIdx.x;
    float acc = 0.0f;
    for (int c = 0; c < chunks; ++c) {
        acc += x[c * 32 + l];
    }
    out[l] = acc;
}
