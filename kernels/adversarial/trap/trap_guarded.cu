// trap_guarded: out[i] = 2 x[i], with __trap() when i >= n. With n = 64 = the block no thread
// traps (safe); the instance trap_guarded_reach (n = 48) has threads 48..63 executing the trap:
// true verdict trap, PTX line of the trap. Launch: grid 1, block 64.
extern "C" __global__ void trap_guarded(const float* x, float* out, int n)
{
    int i = threadIdx.x;
    if (i >= n) __trap();
    out[i] = 2.0f * x[i];
}
