// twice: true verdict SAFE. out[i] = x[i] + x[i] (one input), guarded by i < n. The reference
// of the link pairs: vadd-vs-twice links x to both of vadd's inputs (INVALID: a pair maps
// each input tensor once; equal data in two tensors is not a pair's to assume), twice2-vs-
// twice is its honest twin (EQUIVALENT).
// Launch: grid = 2, block = 128.

extern "C" __global__ void twice(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + x[i];
}
