// TRUE VERDICT: not equivalent to pow2_exact (safe on its own). The bit trick of libdevice's
// expf without its compensation: t = sat(x), j = fma.rm(t, 252, 2^23 + 2^22 + 1) is the integer
// floor(252 t) + 12582913, and the float whose bits are (bits(j) << 23) is 2^(floor(252 t) - 126).
// Nothing subtracts the rounded j from an argument, so the floor stays: out = 2^(floor(252 t) - 126),
// while pow2_exact computes 2^(252 t - 126); at t = 0.5/252 they are 2^-126 and 2^-125.5.
// Launch: 1 CTA x 64 threads, n = 64.
extern "C" __global__ void pow2_floor(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = __saturatef(x[i]);
        float j = __fmaf_rd(t, 252.0f, 12582913.0f);
        out[i] = __int_as_float(__float_as_int(j) << 23);
    }
}
