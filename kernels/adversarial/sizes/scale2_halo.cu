// scale2_halo: NEGATIVE twin of scale2_vec for the size rule: out[i] = 2 * ((x[i] + x[i+1]) -
// x[i+1]) for i < n, with a halo read of x[i+1] while i + 1 < m (m = 192, the padded size).
// Over the reals this equals 2 * x[i], but thread 127 reads x[128], an element only the
// optimized tensor has: the pair's link says nothing about it, so kcert must not prove the pair
// (unknown, naming the read past the 128 shared elements), whatever the values.
// True verdict: safe as an instance; the pair with scale2 is not established by the link.
extern "C" __global__ void scale2_halo(const float* x, float* out, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float h = (i + 1 < m) ? x[i + 1] : 0.0f;
        out[i] = 2.0f * ((x[i] + h) - h);
    }
}
