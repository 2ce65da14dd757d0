// smem_two_arrays_ok: the fixed twin of smem_two_arrays: thread t stages a[t] = x[t] and
// b[t] = x[t + 32] in two __shared__ arrays of 32 floats, then writes out[t] = a[t] and
// out[t + 32] = b[t]: a copy of 64 floats, every read inside its own array.
// Launch: grid = 1, block = 32.

extern "C" __global__ void smem_two_arrays_ok(const float* x, float* out)
{
    __shared__ float a[32];
    __shared__ float b[32];
    int t = threadIdx.x;
    a[t] = x[t];
    b[t] = x[t + 32];
    __syncthreads();
    out[t] = a[t];
    out[t + 32] = b[t];
}
