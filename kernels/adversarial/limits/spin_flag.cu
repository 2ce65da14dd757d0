// spin_flag: every thread spins while (flag[0] == 0) (a volatile load), then copies x to out.
// True verdict: with flag[0] == 0 it never terminates (nothing in the launch sets the flag);
// with any other value it is a copy. The loop's exit depends on tensor data, which kcert does
// not decide: it refuses the data-dependent branch with its line (unsupported), never runs
// into it. Correct twin: footprints/copy_guard (the copy without the wait).

extern "C" __global__ void spin_flag(const float* flag, const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (*reinterpret_cast<const volatile float*>(flag) == 0.0f) {
    }
    if (i < n)
        out[i] = x[i];
}
