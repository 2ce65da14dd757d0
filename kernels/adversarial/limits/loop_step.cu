// loop_step: v = 0; for (k = 0; k != n; k += 2) { v = max(v, x[i]); out[i] = v; } with a
// volatile store in the body, so the loop has a side effect and may not be assumed to end.
// Instances: loop_step (n = 8: four iterations, out = max(x, 0); safe) and loop_step_odd
// (n = 7: k is always even, so k != 7 holds forever (unsigned k wraps at 2^32 and stays
// even): the kernel never terminates).
// True verdict of loop_step_odd: never terminates. kcert must stop at its lane-instruction
// budget and say UNKNOWN "resource limit", naming --max-lane-instructions; kcert-check, given
// a certificate naming this PTX, must stop shortly past the work the certificate declares
// (or at its own cap) and REJECT naming the limit. Correct twin: loop_step (n = 8).

extern "C" __global__ void loop_step(const float* x, float* out, unsigned n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile float* o = out;
    float v = 0.0f;
    for (unsigned k = 0; k != n; k += 2) {
        v = fmaxf(v, x[i]);
        o[i] = v;
    }
}
