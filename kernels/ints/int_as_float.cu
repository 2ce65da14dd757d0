// int_as_float: out[i] = 2 * __int_as_float(x[i]), integer data reinterpreted as float bits.
// The real model has no reading of that: kcert refuses it with the line (unsupported).
// Launch: grid = 2, block = 128.
extern "C" __global__ void int_as_float(const int* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = 2.0f * __int_as_float(x[i]);
}
