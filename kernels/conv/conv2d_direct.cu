// conv2d_direct: direct 2D convolution (cross-correlation, stride 1, no padding) of an image
// x [CIN, H, W] with filters w [COUT, CIN, KH, KW] into out [COUT, OH, OW], OH = H - KH + 1,
// OW = W - KW + 1, one thread per output element:
//   out[co][oy][ox] = sum_{ci, ky, kx} x[ci][oy + ky][ox + kx] * w[co][ci][ky][kx].
// CIN = COUT = 2, H = W = 8, KH = KW = 3 (compile-time). Launch: grid = 1, block = (OW, OH, COUT)
// = (6, 6, 2).
#define CIN 2
#define COUT 2
#define H 8
#define W 8
#define KH 3
#define KW 3
#define OH (H - KH + 1)
#define OW (W - KW + 1)

extern "C" __global__ void conv2d_direct(const float* x, const float* w, float* out)
{
    int ox = threadIdx.x, oy = threadIdx.y, co = threadIdx.z;
    if (ox < OW && oy < OH && co < COUT) {
        float acc = 0.0f;
        for (int ci = 0; ci < CIN; ++ci)
            for (int ky = 0; ky < KH; ++ky)
                for (int kx = 0; kx < KW; ++kx)
                    acc += x[(ci * H + oy + ky) * W + ox + kx] * w[((co * CIN + ci) * KH + ky) * KW + kx];
        out[(co * OH + oy) * OW + ox] = acc;
    }
}
