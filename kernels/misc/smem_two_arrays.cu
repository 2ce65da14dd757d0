// smem_two_arrays: two __shared__ arrays a and b of 32 floats each; thread t stages
// a[t] = x[t] and b[t] = x[t + 32], then writes out[t] = a[t + 32] (the bug: meant b[t];
// a[t + 32] is past the end of a) and out[t + 32] = b[t]. Where ptxas puts b relative to a
// is its choice; kcert places shared variables in declaration order, so there the read lands
// in b[t], inside the CTA's shared memory: only the array the address came from tells.
// smem_two_arrays_ok.cu reads a[t] instead (a copy of 64 floats).
// Launch: grid = 1, block = 32.

extern "C" __global__ void smem_two_arrays(const float* x, float* out)
{
    __shared__ float a[32];
    __shared__ float b[32];
    int t = threadIdx.x;
    a[t] = x[t];
    b[t] = x[t + 32];
    __syncthreads();
    out[t] = a[t + 32];
    out[t + 32] = b[t];
}
