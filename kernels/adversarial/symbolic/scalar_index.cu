// scalar_index: out[i] = x[i + (int)shift] with shift a float parameter. With shift bound as a
// symbolic scalar (scalar_index.toml) the index depends on a real-valued leaf: kcert must refuse
// it as unsupported at the conversion that makes the float an integer, naming the scalar.
// True verdict: unsupported (a symbolic scalar used as an integer / address).
extern "C" __global__ void scalar_index(const float* x, float* out, int n, float shift)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[(i + (int)shift) % n];
}
