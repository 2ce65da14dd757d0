// conv2d_igemm: the same convolution as conv2d_direct as an implicit GEMM:
//   C [M, N] = A [M, K] * B [K, N],  M = COUT, N = OH * OW (output pixels), K = CIN * KH * KW,
// where A is w viewed as COUT x (CIN KH KW) and B is the im2col matrix, never materialized:
//   B[k][n] = x[ci][oy + ky][ox + kx],  k = (ci, ky, kx),  n = (oy, ox)  (div / mod indexing).
// Tiled like matmul_smem: one CTA of TM x TN = 2 x 36 threads computes the whole C; the K loop
// runs over tiles of TK = 6: each thread loads elements of the A tile (TM x TK) and of the B
// tile (TK x TN) into shared memory by the im2col indexing, __syncthreads, accumulates,
// __syncthreads. CIN = COUT = 2, H = W = 8, KH = KW = 3, so K = 18 = 3 tiles.
// Launch: grid = 1, block = (N, M) = (36, 2).
#define CIN 2
#define COUT 2
#define H 8
#define W 8
#define KH 3
#define KW 3
#define OH (H - KH + 1)
#define OW (W - KW + 1)
#define M COUT
#define N (OH * OW)
#define K (CIN * KH * KW)
#define TK 6

extern "C" __global__ void conv2d_igemm(const float* x, const float* w, float* out)
{
    __shared__ float As[M][TK];
    __shared__ float Bs[TK][N];
    int n = threadIdx.x, m = threadIdx.y;
    int tid = m * N + n;
    int oy = n / OW, ox = n % OW;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TK) {
        // A tile: M x TK weights, one per thread for tid < M * TK
        if (tid < M * TK) {
            int am = tid / TK, ak = tid % TK;
            As[am][ak] = w[am * K + k0 + ak];
        }
        // B tile: TK x N im2col entries, each thread fills column n for the rows ak = m, m + M, ...
        for (int bk = m; bk < TK; bk += M) {
            int k = k0 + bk;
            int ci = k / (KH * KW), r = k % (KH * KW);
            int ky = r / KW, kx = r % KW;
            Bs[bk][n] = x[(ci * H + oy + ky) * W + ox + kx];
        }
        __syncthreads();
        for (int kk = 0; kk < TK; ++kk)
            acc += As[m][kk] * Bs[kk][n];
        __syncthreads();
    }
    out[m * N + n] = acc;
}
