// selp_index: the near miss of selp_acc where the undefined value is an index: the position j
// of the row's first element is set on the loop's first trip only, then used as an address.
// n = 8 (selp_index): the selp.b32 reads the undefined j on the first trip and drops it. n = 0
// (selp_index_empty): nvcc materializes the never-set j as 0 (mov.u64 %rd12, 0), so the PTX
// loads x[0]. True verdicts: safe / safe. Launch: grid 1, block 32.
extern "C" __global__ void selp_index(const float* x, float* out, int n)
{
    int i = threadIdx.x;
    int j;
    for (int k = 0; k < n; k++)
        j = (k == 0) ? i * 8 : j;
    out[i] = x[j];
}
