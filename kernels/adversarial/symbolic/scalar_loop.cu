// scalar_loop: out[0] = sum of x[k] for k < count, the loop bound a float parameter. With count
// bound as a symbolic scalar (scalar_loop.toml) the loop's trip count depends on a real-valued
// leaf: kcert must refuse it as unsupported at the branch, naming the scalar.
// True verdict: unsupported (a symbolic scalar used as a loop bound).
extern "C" __global__ void scalar_loop(const float* x, float* out, float count)
{
    float s = 0.0f;
    for (int k = 0; k < 64 && k < count; ++k)
        s += x[k];
    out[0] = s;
}
