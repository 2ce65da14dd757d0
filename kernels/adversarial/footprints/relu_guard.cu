// relu_guard: out[i] = max(x[i], 0) for i < n. Instance relu_guard_0 has n = 0: it writes
// nothing, and neither does copy_guard_0.
// True verdict of relu_guard_0-vs-copy_guard_0: both safe, and no output element is written
// by either kernel, so there is nothing to compare: no equivalence claim (kcert: UNKNOWN,
// kcert-check: REJECT of a claim over 0 elements). It used to be "proved" over 0 elements,
// although the two kernels compute different functions where they do write (n > 0).
// Correct twin: copy_pairs-vs-copy_guard (n = 16), equal on every element.

extern "C" __global__ void relu_guard(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fmaxf(x[i], 0.0f);
}
