// dbuf_nobar: true verdict RACE. dbuf_barrier without the in-loop barrier: a half refills the
// buffer the other half still reads (and reads a tile before it is written).
// Launch: grid = (2, 2), block = (16, 16); M = N = K = 32.

#define SYNC_LO (void)0
#define SYNC_HI (void)0
// The shared body (the same in every dbuf_*.cu of this directory):
// C = A * B for M = N = K = 32, row-major; block (16, 16), grid (2, 2); each thread computes one
// element of C with tiles of K of width 8 held twice in shared memory (double buffering). The
// CTA's two halves load different tiles: threads 0-127 (warps 0-3) the A tile, threads 128-255
// (warps 4-7) the B tile, and each half reaches its own barrier site (SYNC_LO / SYNC_HI).
// LO(t) says which half thread t is in; IDX(t) its slot 0-127 in its half's tile.
#define TK 8
#ifndef LO
#define LO(t) ((t) < 128)
#define IDX(t) ((t) & 127)
#endif

__device__ __forceinline__ void load_a(const float* A, float (*As)[16][TK], int buf, int kt,
                                       int by, int i, int K)
{
    As[buf][i / TK][i % TK] = A[(by * 16 + i / TK) * K + kt * TK + i % TK];
}

__device__ __forceinline__ void load_b(const float* B, float (*Bs)[TK][16], int buf, int kt,
                                       int bx, int i, int N)
{
    Bs[buf][i / 16][i % 16] = B[(kt * TK + i / 16) * N + bx * 16 + i % 16];
}

#define DBUF_BODY(NAME)                                                                        \
    extern "C" __global__ void NAME(const float* A, const float* B, float* C, int M, int N,   \
                                    int K)                                                     \
    {                                                                                          \
        __shared__ float As[2][16][TK];                                                        \
        __shared__ float Bs[2][TK][16];                                                        \
        int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;                              \
        int bx = blockIdx.x, by = blockIdx.y;                                                  \
        bool lo = LO(t);                                                                       \
        int i = IDX(t);                                                                        \
        int nk = K / TK;                                                                       \
        if (lo)                                                                                \
            load_a(A, As, 0, 0, by, i, K);                                                     \
        else                                                                                   \
            load_b(B, Bs, 0, 0, bx, i, N);                                                     \
        __syncthreads();                                                                       \
        float acc = 0.0f;                                                                      \
        for (int kt = 0; kt < nk; ++kt) {                                                      \
            int cur = kt & 1;                                                                  \
            if (lo) {                                                                          \
                if (kt + 1 < nk)                                                               \
                    load_a(A, As, cur ^ 1, kt + 1, by, i, K);                                  \
                for (int kk = 0; kk < TK; ++kk)                                                \
                    acc = fmaf(As[cur][ty][kk], Bs[cur][kk][tx], acc);                         \
                SYNC_LO;                                                                       \
            } else {                                                                           \
                if (kt + 1 < nk)                                                               \
                    load_b(B, Bs, cur ^ 1, kt + 1, bx, i, N);                                  \
                for (int kk = 0; kk < TK; ++kk)                                                \
                    acc = fmaf(As[cur][ty][kk], Bs[cur][kk][tx], acc);                         \
                SYNC_HI;                                                                       \
            }                                                                                  \
        }                                                                                      \
        C[(by * 16 + ty) * N + bx * 16 + tx] = acc;                                            \
    }
DBUF_BODY(dbuf_nobar)
