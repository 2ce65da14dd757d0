// selp_ref: selp_acc's max + sum with m and s initialised from the first element: no
// undefined register anywhere. The reference of selp_acc (equivalent for n >= 1).
// True verdict: safe. Launch: grid 1, block 32, n = 8.
extern "C" __global__ void selp_ref(const float* x, float* out, int n)
{
    int i = threadIdx.x;
    float m = x[i * 8], s = m;
    for (int k = 1; k < n; k++) {
        float v = x[i * 8 + k];
        m = fmaxf(m, v);
        s = s + v;
    }
    out[i] = m + s;
}
