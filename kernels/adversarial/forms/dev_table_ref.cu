// dev_table_ref.cu: the reference for dev_table.cu: out[i] = x[i] * (i % 8 + 1).
// True verdict: safe.
extern "C" __global__ void dev_table_ref(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] * (float)((i & 7) + 1);
}
