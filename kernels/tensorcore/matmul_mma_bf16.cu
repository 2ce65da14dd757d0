// matmul_mma_bf16: matmul_mma on bfloat16 inputs (mma.sync ... .bf16.bf16). C = A * B on tensor cores, A (MxK) and B (KxN) row-major __nv_bfloat16, C (MxN) float.
// Each CTA computes a 32x32 tile of C with 4 warps (2 x 2), each warp a 16x16 sub-tile as two
// mma.sync.m16n8k16 per 16-wide K step. A and B tiles are staged in shared memory with
// cp.async (16-byte chunks, double-buffered over K) and read into fragments with ldmatrix
// (B with .trans, since the mma B operand is column-major).
// Launch: block = 128, grid = (N / 32, M / 32); M, N multiples of 32, K a multiple of 16.
#include <cuda_bf16.h>

#define BM 32
#define BN 32
#define BK 16

__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async16(void* dst, const void* src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src));
}

extern "C" __global__ void matmul_mma_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C,
                                      int M, int N, int K)
{
    __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
    __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int wm = warp / 2, wn = warp % 2;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    // Threads 0..63 copy the A tile (32 rows x 2 chunks), 64..127 the B tile (16 rows x 4 chunks).
    auto load_stage = [&](int stage, int k0) {
        if (tid < 64) {
            int r = tid / 2, c = (tid % 2) * 8;
            cp_async16(&As[stage][r][c], &A[(row0 + r) * K + k0 + c]);
        } else {
            int t = tid - 64;
            int r = t / 4, c = (t % 4) * 8;
            cp_async16(&Bs[stage][r][c], &B[(k0 + r) * N + col0 + c]);
        }
        asm volatile("cp.async.commit_group;\n" ::);
    };

    float acc[2][4] = {{0.f, 0.f, 0.f, 0.f}, {0.f, 0.f, 0.f, 0.f}};
    const int steps = K / BK;
    load_stage(0, 0);
    for (int s = 0; s < steps; ++s) {
        const int cur = s % 2;
        if (s + 1 < steps) {
            load_stage(cur ^ 1, (s + 1) * BK);
            asm volatile("cp.async.wait_group 1;\n" ::);
        } else {
            asm volatile("cp.async.wait_group 0;\n" ::);
        }
        __syncthreads();

        // A fragment: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15),
        // (rows 8-15, k 8-15) of this warp's 16 rows; lane l gives the address of row l % 8 of
        // matrix l / 8.
        unsigned a[4];
        {
            int i = lane / 8, r = lane % 8;
            const __nv_bfloat16* p = &As[cur][wm * 16 + r + 8 * (i % 2)][8 * (i / 2)];
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                         : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                         : "r"(smem_addr(p)));
        }
        // B fragments of the two n8 tiles: matrices (k 0-7, n 0-7), (k 8-15, n 0-7),
        // (k 0-7, n 8-15), (k 8-15, n 8-15), transposed on the way into registers.
        unsigned b[4];
        {
            int i = lane / 8, r = lane % 8;
            const __nv_bfloat16* p = &Bs[cur][r + 8 * (i % 2)][wn * 16 + 8 * (i / 2)];
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                         : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
                         : "r"(smem_addr(p)));
        }
        for (int j = 0; j < 2; ++j) {
            asm volatile(
                "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * j]), "r"(b[2 * j + 1]));
        }
        __syncthreads();
    }

    // Accumulator layout: c0, c1 at (g, 2t), (g, 2t + 1); c2, c3 at (g + 8, 2t), (g + 8, 2t + 1).
    const int g = lane / 4, t = lane % 4;
    for (int j = 0; j < 2; ++j) {
        int r = row0 + wm * 16 + g;
        int c = col0 + wn * 16 + j * 8 + 2 * t;
        C[r * N + c] = acc[j][0];
        C[r * N + c + 1] = acc[j][1];
        C[(r + 8) * N + c] = acc[j][2];
        C[(r + 8) * N + c + 1] = acc[j][3];
    }
}
