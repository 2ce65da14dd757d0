// ldg_written_ok: true verdict SAFE. ldg_written with a plain (coherent) load of buf after
// __syncthreads(), which orders global accesses of one CTA: out = x.
// Launch: grid = 1, block = 64.

extern "C" __global__ void ldg_written_ok(const float* x, float* buf, float* out)
{
    int t = threadIdx.x;
    int n = blockDim.x;
    buf[t] = x[n - 1 - t];
    __syncthreads();
    out[t] = *(volatile float*)&buf[n - 1 - t];
}
