// bool_cells_ref.cu: the reference for bool_cells.cu: out[i] = (j % 3 != 0) ? x[j] : 0 with
// j = 63 - i, no shared memory. True verdict: safe.
extern "C" __global__ void bool_cells_ref(const float* x, float* out) {
    int i = threadIdx.x;
    int j = 63 - i;
    out[i] = (j % 3) != 0 ? x[j] : 0.0f;
}
