// bool_cells.cu: 1-byte accesses to shared memory (st.shared.u8 / ld.shared.u8).
//  - bool_cells: each thread writes its own {float v; bool valid;} cell of a shared array,
//    then reads its mirror's after __syncthreads: out[i] = valid[j] ? x[j] : 0, j = 63 - i,
//    valid[j] = (j % 3 != 0). True verdict: safe, equivalent to bool_cells_ref.cu.
//  - bool_flags: 64 threads each write their own byte of `bool flags[64]`, four threads per
//    32-bit word, two per 16-bit half: neighbouring bytes are different locations, no race.
//    True verdict: safe, equivalent to bool_cells_ref.cu.
//  - byte_weights: signed bytes in shared memory (st.shared.u8 / ld.shared.s8, sign-extended):
//    out[i] = x[i] * w[63 - i], w[j] = j % 5 - 2. True verdict: safe, equivalent to
//    byte_weights_ref (bool_cells_ref.cu).
//  - byte_weights_u8: near miss of byte_weights: the bytes are unsigned (ld.shared.u8, zero-
//    extended), so -2 and -1 read as 254 and 255. True verdict: safe, NOT equivalent to
//    byte_weights_ref.
//  - bool_flag_race: every thread writes the one shared flag byte with its own parity, no
//    barrier between the writes: threads of different parity race on one byte.
//    True verdict: race (the st.shared.u8).
struct Cell { float v; bool valid; };

extern "C" __global__ void bool_cells(const float* x, float* out) {
    __shared__ Cell cells[64];
    int i = threadIdx.x;
    cells[i].v = x[i];
    cells[i].valid = (i % 3) != 0;
    __syncthreads();
    int j = 63 - i;
    out[i] = cells[j].valid ? cells[j].v : 0.0f;
}

extern "C" __global__ void bool_flags(const float* x, float* out) {
    __shared__ bool flags[64];
    __shared__ float vals[64];
    int i = threadIdx.x;
    flags[i] = (i % 3) != 0;
    vals[i] = x[i];
    __syncthreads();
    int j = 63 - i;
    out[i] = flags[j] ? vals[j] : 0.0f;
}

extern "C" __global__ void bool_flag_race(const float* x, float* out) {
    __shared__ bool flag;
    int i = threadIdx.x;
    flag = (i & 1) != 0;
    __syncthreads();
    out[i] = flag ? x[i] : 0.0f;
}

extern "C" __global__ void byte_weights(const float* x, float* out) {
    __shared__ signed char w[64];
    int i = threadIdx.x;
    w[i] = (signed char)(i % 5 - 2);
    __syncthreads();
    out[i] = x[i] * (float)w[63 - i];
}

extern "C" __global__ void byte_weights_u8(const float* x, float* out) {
    __shared__ unsigned char w[64];
    int i = threadIdx.x;
    w[i] = (unsigned char)(i % 5 - 2);
    __syncthreads();
    out[i] = x[i] * (float)w[63 - i];
}
