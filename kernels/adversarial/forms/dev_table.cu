// dev_table.cu: out[i] = x[i] * table[i % 8] with `__device__ int table[8] = {1, ..., 8}`, a
// module .global variable with an initializer (nvcc writes it as `.b8 table[32] = {1, 0, 0,
// 0, 2, ...}` and drops the trailing zero bytes); read with ld.global after `mov.u64 %rd,
// table`. dev_table_write is its near miss: it also writes the table, which kcert refuses
// (module variables are modeled read-only).
// True verdicts: dev_table safe, equivalent to dev_table_ref.cu; dev_table_write unsupported
// (the st.global into table).
__device__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

extern "C" __global__ void dev_table(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] * (float)table[i & 7];
}

extern "C" __global__ void dev_table_write(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 8) table[i] = i + 1;
    out[i] = x[i] * (float)table[i & 7];
}
