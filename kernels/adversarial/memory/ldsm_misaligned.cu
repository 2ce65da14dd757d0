// TRUE VERDICT: misaligned. A 16x8 by 8x8 f16 matmul on tensor cores (mma.sync m16n8k8): A rows
// are read with ldmatrix.x2 from a shared tile at a row address off by one half (2 bytes);
// ldmatrix requires each row address to be 16-byte aligned (undefined otherwise). The finding
// belongs at the ldmatrix with its address, not at the later mma. Twin: ldsm_aligned.
// Launch: 1 CTA x 32 threads (one warp); A 16x8 f16, B 8x8 f16, C 16x8 f32 (M, N, K = 16, 8, 8
// are passed for the spec and unused).
#include <cuda_fp16.h>

#ifndef SHIFT
#define SHIFT 1
#endif

extern "C" __global__ void ldsm_misaligned(const __half* A, const __half* B, float* C, int M, int N, int K)
{
    __shared__ __align__(16) __half sa[16 * 8 + 8];
    __shared__ __align__(16) __half sb[8 * 8];
    int lane = threadIdx.x;
    for (int i = lane; i < 16 * 8; i += 32)
        sa[SHIFT + i] = A[i];
    for (int i = lane; i < 8 * 8; i += 32)
        sb[i] = B[i];
    __syncthreads();
    unsigned a0, a1, b0;
    unsigned pa = static_cast<unsigned>(__cvta_generic_to_shared(sa + SHIFT + (lane % 16) * 8));
    unsigned pb = static_cast<unsigned>(__cvta_generic_to_shared(sb + (lane % 8) * 8));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(a0), "=r"(a1) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(b0) : "r"(pb));
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(b0));
    int g = lane / 4, c = 2 * (lane % 4);
    C[g * 8 + c] = d0;
    C[g * 8 + c + 1] = d1;
    C[(g + 8) * 8 + c] = d2;
    C[(g + 8) * 8 + c + 1] = d3;
}
