// gather_free: out[i] = x[idx[i]] where idx has no init: the address depends on data whose
// contents nothing fixes. kcert refuses it with the line (unsupported).
// Launch: grid = 2, block = 128.
extern "C" __global__ void gather_free(const float* x, const int* idx, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = x[idx[i]];
}
