// warp_sz.cu: out[i] = x[i] * (threadIdx.x % warpSize). nvcc writes warpSize as the PTX
// predefined identifier WARP_SZ (`mov.u32 %r, WARP_SZ;`), which is 32.
// True verdict: safe; equivalent to lane_ref.cu (threadIdx.x & 31), not to lane16_ref.cu
// (threadIdx.x & 15: a warp size of 16).
extern "C" __global__ void warp_sz(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] * (float)(threadIdx.x % warpSize);
}
