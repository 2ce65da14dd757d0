// matmul_wmma_peek: seeded bug of matmul_wmma: before the store it zeroes accumulator element
// acc.x[0], as if it knew which matrix element that is. PTX leaves the fragment layout
// unspecified, so the result depends on the hardware: kcert must refuse it, not guess a layout.
// Otherwise identical to matmul_wmma:
// C = A * B on tensor cores through the WMMA API, A (MxK) and B (KxN) row-major
// __half, C (MxN) float. Each CTA computes a 32x32 tile of C with 4 warps (2 x 2), each warp one
// 16x16 accumulator fragment, one wmma m16n16k16 per 16-wide K step. A and B tiles are staged in
// shared memory with cp.async (16-byte chunks, double-buffered over K) and read into fragments
// with wmma::load_matrix_sync. The fragment layout is unspecified by PTX; the kernel only moves
// fragments between wmma operations, which is what makes its result layout-independent.
// Launch: block = 128, grid = (N / 32, M / 32); M, N multiples of 32, K a multiple of 16.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

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

extern "C" __global__ void matmul_wmma_peek(const __half* A, const __half* B, float* C,
                                       int M, int N, int K)
{
    __shared__ __align__(32) __half As[2][BM][BK];
    __shared__ __align__(32) __half Bs[2][BK][BN];

    const int tid = threadIdx.x;
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

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
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

        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
        wmma::load_matrix_sync(a, &As[cur][wm * 16][0], BK);
        wmma::load_matrix_sync(b, &Bs[cur][0][wn * 16], BN);
        wmma::mma_sync(acc, a, b, acc);
        // The next iteration's cp.async overwrites the other stage; this one must stay until
        // every warp has loaded from it.
        __syncthreads();
    }
    acc.x[0] = 0.0f;
    wmma::store_matrix_sync(&C[(row0 + wm * 16) * N + col0 + wn * 16], acc, N, wmma::mem_row_major);
}
