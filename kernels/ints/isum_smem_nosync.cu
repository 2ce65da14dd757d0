// isum_smem_nosync: isum_smem without the __syncthreads inside the loop. True verdict: a
// shared-memory race (thread t reads s[t + k] while thread t + k may still be writing it).
// Launch: grid = 4, block = 256.
extern "C" __global__ void isum_smem_nosync(const int* x, int* out)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 256 + t];
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
