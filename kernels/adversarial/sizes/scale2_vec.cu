// scale2_vec: out[i] = 2 * x[i] for i < n (n a multiple of 4), one thread per 4 elements with
// float4 loads and stores. Its spec scale2_vec_wide.toml binds x with 192 elements (a padded
// buffer) of which the kernel reads only the first n = 128: linked to scale2's x[128], the
// common 128 elements are the same data, and both kernels read only those.
// True verdict: safe, equivalent to scale2 (reads of x: elements 0..128 of 192).
extern "C" __global__ void scale2_vec(const float4* x, float4* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (4 * i < n) {
        float4 v = x[i];
        out[i] = make_float4(2.0f * v.x, 2.0f * v.y, 2.0f * v.z, 2.0f * v.w);
    }
}
