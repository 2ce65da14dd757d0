// lane_ref.cu: out[i] = x[i] * (threadIdx.x & 31) (lane_ref) and out[i] = x[i] *
// (threadIdx.x & 15) (lane16_ref): references for warp_sz.cu, the second a wrong warp size.
// True verdicts: safe (both).
extern "C" __global__ void lane_ref(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] * (float)(threadIdx.x & 31);
}

extern "C" __global__ void lane16_ref(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] * (float)(threadIdx.x & 15);
}
