// bool_cells_ref.cu: the reference for bool_cells.cu: out[i] = (j % 3 != 0) ? x[j] : 0 with
// j = 63 - i, no shared memory; byte_weights_ref: out[i] = x[i] * ((63 - i) % 5 - 2), the
// reference of byte_weights. True verdicts: safe.
extern "C" __global__ void bool_cells_ref(const float* x, float* out) {
    int i = threadIdx.x;
    int j = 63 - i;
    out[i] = (j % 3) != 0 ? x[j] : 0.0f;
}

extern "C" __global__ void byte_weights_ref(const float* x, float* out) {
    int i = threadIdx.x;
    out[i] = x[i] * (float)((63 - i) % 5 - 2);
}
