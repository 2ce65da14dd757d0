// zero_pad_ref.cu: the reference for cp_ignore_src.cu: out[i] = i < n ? x[i] : 0, 64 threads.
// True verdict: safe.
extern "C" __global__ void zero_pad_ref(const float* x, float* out, int n) {
    int i = threadIdx.x;
    out[i] = i < n ? x[i] : 0.0f;
}
