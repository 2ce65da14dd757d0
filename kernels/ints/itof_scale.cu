// itof_scale: out[i] = 0.5f * (float)x[i], an int32 converted to float. Exact for x in the
// declared range [-1000, 1000] (instance itof_scale); for the whole int32 range (instance
// itof_scale_full) the conversion may round, which kcert refuses (unsupported).
// Launch: grid = 2, block = 128.
extern "C" __global__ void itof_scale(const int* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = 0.5f * (float)x[i];
}
