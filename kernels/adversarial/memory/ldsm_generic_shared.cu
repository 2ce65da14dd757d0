// TRUE VERDICT: safe; out = x (8x8 f16). The tile is staged in shared memory, then read with
// ldmatrix.x1 on generic addresses of its rows (inside the shared window, as the ISA requires):
// lane l receives row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1, i.e. x[2l], x[2l + 1], stored
// at out[2l], out[2l + 1]. The twin of ldsm_generic_global.
// Launch: 1 CTA x 32 threads (one warp); x and out are 8x8 f16.
#include <cuda_fp16.h>

extern "C" __global__ void ldsm_generic_shared(const __half* x, __half* out)
{
    __shared__ __align__(16) __half tile[64];
    int lane = threadIdx.x;
    reinterpret_cast<unsigned*>(tile)[lane] = reinterpret_cast<const unsigned*>(x)[lane];
    __syncthreads();
    const __half* row = tile + (lane % 8) * 8;
    unsigned r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.b16 {%0}, [%1];" : "=r"(r) : "l"(row));
    reinterpret_cast<unsigned*>(out)[lane] = r;
}
