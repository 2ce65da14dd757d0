// copysign_scalar: out[i] = copysignf(x[i], d) for a scalar d given by the launch.
// Instances: copysign_scalar_pos0 (d = 0.0) gives |x[i]|, copysign_scalar_neg0 (d = -0.0)
// gives -|x[i]|. True verdict of the pair: NOT equivalent (the sign of zero decides copysign).
// Launch: grid = 1, block = 64.
extern "C" __global__ void copysign_scalar(const float* x, float* out, float d)
{
    int i = threadIdx.x;
    out[i] = copysignf(x[i], d);
}
