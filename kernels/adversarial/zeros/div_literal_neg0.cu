// div_literal_neg0: out[i] = x[i] / -0.0f, as a literal (`div.rn.f32 ..., 0f80000000`).
// True verdict against div_literal_pos0 (x[i] / 0.0f): NOT equivalent (-inf against +inf);
// kcert must never prove the pair. Launch: grid = 1, block = 64.
extern "C" __global__ void div_literal_neg0(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = __fdiv_rn(x[i], -0.0f);
}
