// matmul_bf16_naive: C = A * B with bfloat16 inputs and a float accumulator, row-major,
// A is MxK, B is KxN (both __nv_bfloat16), C is MxN (float). One thread per element of C. The reference
// of the tensor-core kernels in this directory.
// Launch: block = (16, 16), grid = (ceil(N / 16), ceil(M / 16)).
#include <cuda_bf16.h>

extern "C" __global__ void matmul_bf16_naive(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C,
                                            int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc += __bfloat162float(A[row * K + k]) * __bfloat162float(B[k * N + col]);
        }
        C[row * N + col] = acc;
    }
}
