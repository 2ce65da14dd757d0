// ldg_then_written: true verdict RACE. The other order: thread t reads buf[t] through __ldg
// (`ld.global.nc`) into out[t], the CTA meets at __syncthreads(), then thread t overwrites
// buf[n - 1 - t]. The write is ordered after every read for coherent loads, but buf is not
// read-only for the kernel's lifetime, which the non-coherent path requires (the cached line
// may be refetched or kept across the write). buf is inout: out = the initial buf.
// Launch: grid = 1, block = 64.

extern "C" __global__ void ldg_then_written(const float* x, float* buf, float* out)
{
    int t = threadIdx.x;
    int n = blockDim.x;
    out[t] = __ldg(&buf[t]);
    __syncthreads();
    buf[n - 1 - t] = x[t];
}
