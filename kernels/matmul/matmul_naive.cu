// matmul_naive: C = A * B, row-major, A is MxK, B is KxN, C is MxN.
// One thread per element of C.
// Launch: block = (16, 16), grid = (ceil(N / 16), ceil(M / 16)).
extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C,
                                        int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc += A[row * K + k] * B[k * N + col];
        }
        C[row * N + col] = acc;
    }
}
