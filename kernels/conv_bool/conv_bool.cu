// conv_bool: 2D convolution (cross-correlation, stride 1, no padding, as conv/conv2d_direct) of
// x [CIN, H, W] with w [COUT, CIN, KH, KW] into out [COUT, OH, OW], through a shared struct
// Tile { float tile[CIN][TS][TS]; bool valid[CIN][TS][TS]; } (TS = 10: the image plus a halo of
// two rows and columns past it). The 128 threads (8, 8, 2) fill the tile (0 past the image) and
// its 1-byte valid flags (st.shared.u8), then after __syncthreads each thread sums its 3x3
// window over the cells whose flag is set (ld.shared.u8); threads at tx or ty >= OW = 6 read the
// halo and store nothing. True verdict: safe, equivalent to conv/conv2d_direct (op conv2d).
// CIN = COUT = 2, H = W = 8, KH = KW = 3. Launch: grid = 1, block = (8, 8, 2).
#define CIN 2
#define COUT 2
#define H 8
#define W 8
#define KH 3
#define KW 3
#define OH (H - KH + 1)
#define OW (W - KW + 1)
#define TS 10            // tile side: the image plus two columns / rows past it (the halo)

// The shared tile: pixel values and a 1-byte flag per cell saying whether it lies in the image.
struct Tile {
    float tile[CIN][TS][TS];
    bool valid[CIN][TS][TS];
};

extern "C" __global__ void conv_bool(const float* x, const float* w, float* out)
{
    __shared__ Tile s;
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int t = (tz * blockDim.y + ty) * blockDim.x + tx;
    for (int e = t; e < CIN * TS * TS; e += 128) {
        int ci = e / (TS * TS), yy = (e / TS) % TS, xx = e % TS;
        bool ok = yy < H && xx < W;
        s.tile[ci][yy][xx] = ok ? x[(ci * H + yy) * W + xx] : 0.0f;
        s.valid[ci][yy][xx] = ok;
    }
    __syncthreads();
    // every thread computes the window at (ty, tx); cells past the image are masked out
    float acc = 0.0f;
    for (int ci = 0; ci < CIN; ++ci)
        for (int ky = 0; ky < KH; ++ky)
            for (int kx = 0; kx < KW; ++kx)
                if (s.valid[ci][ty + ky][tx + kx])
                    acc += s.tile[ci][ty + ky][tx + kx] * w[((tz * CIN + ci) * KH + ky) * KW + kx];
    if (tx < OW && ty < OH)
        out[(tz * OH + ty) * OW + tx] = acc;
}
