// icmp_s: out[i] = 1 if x[i] < 10 else 0, the signed comparison: the reference of icmp_u.
// True verdict: safe. icmp_u computes the same for x in [0, 1000] (instance icmp_s_pos), and
// not for negative x (instance icmp_s, x in [-1000, 1000]: there icmp_u is refused).
// Launch: grid = 2, block = 128.
extern "C" __global__ void icmp_s(const int* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = (x[i] < 10) ? 1.0f : 0.0f;
}
