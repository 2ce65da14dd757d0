// TRUE VERDICT: undefined behaviour (refused or a finding, never SAFE). ldmatrix without a state
// space uses generic addressing, and the PTX ISA requires the generic address to fall in the
// shared-memory window (behaviour undefined otherwise). Here every lane passes an address into
// the global tensor x, so the 8x8 f16 matrix is not read from shared memory at all.
// Twin: ldsm_generic_shared (the same ldmatrix on a generic address of a shared tile).
// Launch: 1 CTA x 32 threads (one warp); x and out are 8x8 f16.
#include <cuda_fp16.h>

extern "C" __global__ void ldsm_generic_global(const __half* x, __half* out)
{
    int lane = threadIdx.x;
    const __half* row = x + (lane % 8) * 8;
    unsigned r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.b16 {%0}, [%1];" : "=r"(r) : "l"(row));
    reinterpret_cast<unsigned*>(out)[lane] = r;
}
