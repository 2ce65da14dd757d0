// div_literal_pos0: out[i] = x[i] / 0.0f, as a literal (`div.rn.f32 ..., 0f00000000`).
// The reference side of div_literal_neg0 (see there). Launch: grid = 1, block = 64.
extern "C" __global__ void div_literal_pos0(const float* x, float* out)
{
    int i = threadIdx.x;
    out[i] = __fdiv_rn(x[i], 0.0f);
}
