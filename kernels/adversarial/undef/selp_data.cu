// selp_data: the near miss of selp_acc: m = (v > 0) ? v : m with m uninitialised, a select on
// a data-dependent condition. When no element is positive, out[i] is the undefined m.
// True verdict: invalid (the undefined side of a data-dependent select may reach the output).
// Launch: grid 1, block 32, n = 8.
extern "C" __global__ void selp_data(const float* x, float* out, int n)
{
    int i = threadIdx.x;
    float m;
    for (int k = 0; k < n; k++) {
        float v = x[i * 8 + k];
        m = (v > 0.0f) ? v : m;
    }
    out[i] = m;
}
