// gather: out[i] = x[idx[i]], an index array used as an address. Its contents are fixed by
// the spec (init), so each address is concrete. Instance gather_iota: idx = iota (idx[i] = i):
// safe, equivalent to copy_f32. Instance gather_perm: idx = a seeded permutation of 0..255:
// safe, equivalent to gather_rows (the same permutation).
// Launch: grid = 2, block = 128.
extern "C" __global__ void gather(const float* x, const int* idx, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = x[idx[i]];
}
