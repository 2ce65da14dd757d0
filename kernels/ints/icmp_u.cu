// icmp_u: out[i] = 1 if (unsigned)x[i] < 10 else 0, an unsigned comparison of integer data.
// Instance icmp_u_pos: x in [0, 1000]: the unsigned reading is the value: safe (a select on
// a data comparison). Instance icmp_u: x in [-1000, 1000]: a negative x reads as a large
// unsigned number, which the real comparison x < 10 does not say: refused (unsupported).
// Launch: grid = 2, block = 128.
extern "C" __global__ void icmp_u(const int* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = ((unsigned)x[i] < 10u) ? 1.0f : 0.0f;
}
