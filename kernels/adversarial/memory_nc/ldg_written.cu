// ldg_written: true verdict RACE (a non-coherent read of data the kernel writes). Each
// thread stores x[n - 1 - t] into buf[t], the CTA meets at __syncthreads(), then thread t
// reads buf[n - 1 - t] through __ldg (`ld.global.nc`): out = x. The barrier orders the
// accesses for coherent loads, but the non-coherent (texture) path requires the data to be
// read-only for the kernel's whole lifetime: the read may return the stale, unwritten bytes.
// Twin: ldg_written_ok.cu (a plain load after the barrier: SAFE), ldg_input_ok.cu (__ldg of
// the input itself: SAFE).
// Launch: grid = 1, block = 64.

extern "C" __global__ void ldg_written(const float* x, float* buf, float* out)
{
    int t = threadIdx.x;
    int n = blockDim.x;
    buf[t] = x[n - 1 - t];
    __syncthreads();
    out[t] = __ldg(&buf[n - 1 - t]);
}
