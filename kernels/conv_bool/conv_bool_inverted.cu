// conv_bool_inverted: seeded bug in conv_bool: the halo mask is inverted (!valid), so every
// in-image cell is skipped and the stored outputs are all 0. True verdict: safe, NOT equivalent
// to conv/conv2d_direct. Otherwise as conv_bool (shared struct with a bool valid[] array).
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

extern "C" __global__ void conv_bool_inverted(const float* x, const float* w, float* out)
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
                if (!s.valid[ci][ty + ky][tx + kx])
                    acc += s.tile[ci][ty + ky][tx + kx] * w[((tz * CIN + ci) * KH + ky) * KW + kx];
    if (tx < OW && ty < OH)
        out[(tz * OH + ty) * OW + tx] = acc;
}
