// half_double_all: c[i] = 2 * c[i] for i < n, and c[i] = c[i] (the initial value stored back) for
// the others: every element of the inout c is written. Final values equal half_double's for
// every input, but the two kernels write different elements: kcert compares the elements both
// write and must not call the pair refuted (a footprint difference on an inout tensor is no
// difference of final values): unknown, naming the element.
// True verdict: safe, equivalent to half_double (kcert: unknown).
extern "C" __global__ void half_double_all(float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = c[i];
    c[i] = (i < n) ? 2.0f * v : v;
}
