// ptr_offset_param: out[t] = x[t + off] with an element offset `off` passed as a parameter.
// The spec gives off = 2^34 elements: a byte offset of 2^36, far past the end of x on the
// hardware. (In kcert's own layout x + 2^36 bytes is where the next tensor, y, is placed: an
// executor that tells tensors apart by address bits alone reads y there and calls this safe.)
// ptr_offset_param_ok.toml is the same code with off = 0: a copy.
// Launch: grid = n / 32, block = 32.

extern "C" __global__ void ptr_offset_param(const float* x, const float* y, float* out,
                                            long long off, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
        out[t] = x[t + off];
    }
}
