// ldg_input_ok: true verdict SAFE. Reads the kernel's input x through __ldg
// (`ld.global.nc`): nothing in the kernel writes x, so the non-coherent path is allowed.
// buf[t] = x[n - 1 - t] is written but never read. out = x.
// Launch: grid = 1, block = 64.

extern "C" __global__ void ldg_input_ok(const float* x, float* buf, float* out)
{
    int t = threadIdx.x;
    int n = blockDim.x;
    buf[t] = x[n - 1 - t];
    out[t] = __ldg(&x[t]);
}
