// rowmax: the maximum of each row of x [rows, cols] into out [rows], one thread per row, as
// people write it:
//   rowmax_fmax:   m = fmaxf(m, v) from -INFINITY            (max.f32)
//   rowmax_select: m = v > m ? v : m from -FLT_MAX          (setp + selp)
//   rowmax_first:  m = x[r][0], then m = (v > m) ? v : m    (the first element as identity)
//   rowmax_ge:     m = (m >= v) ? m : v                     (the comparison the other way)
//   rowmax_min:    m = v < m ? v : m  (WRONG on purpose: a running minimum)
//   rowmax_1e30:   m = v > m ? v : m from -1e30f (near miss of -FLT_MAX: a row of values all
//                  below -1e30 gives -1e30, so not the row max)
// True verdicts against rowmax_fmax: select, first, ge equivalent; min and 1e30 not
// equivalent. Launch: grid = 1, block = 4 (rows = 4, cols = 16).
#include <float.h>
#include <math.h>
extern "C" __global__ void rowmax_fmax(const float* x, float* out, int rows, int cols)
{
    int r = threadIdx.x;
    if (r >= rows) return;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, x[r * cols + c]);
    out[r] = m;
}
extern "C" __global__ void rowmax_select(const float* x, float* out, int rows, int cols)
{
    int r = threadIdx.x;
    if (r >= rows) return;
    float m = -FLT_MAX;
    for (int c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        m = v > m ? v : m;
    }
    out[r] = m;
}
extern "C" __global__ void rowmax_first(const float* x, float* out, int rows, int cols)
{
    int r = threadIdx.x;
    if (r >= rows) return;
    float m = x[r * cols];
    for (int c = 1; c < cols; ++c) {
        float v = x[r * cols + c];
        m = (v > m) ? v : m;
    }
    out[r] = m;
}
extern "C" __global__ void rowmax_ge(const float* x, float* out, int rows, int cols)
{
    int r = threadIdx.x;
    if (r >= rows) return;
    float m = x[r * cols];
    for (int c = 1; c < cols; ++c) {
        float v = x[r * cols + c];
        m = (m >= v) ? m : v;
    }
    out[r] = m;
}
extern "C" __global__ void rowmax_min(const float* x, float* out, int rows, int cols)
{
    int r = threadIdx.x;
    if (r >= rows) return;
    float m = FLT_MAX;
    for (int c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        m = v < m ? v : m;
    }
    out[r] = m;
}
extern "C" __global__ void rowmax_1e30(const float* x, float* out, int rows, int cols)
{
    int r = threadIdx.x;
    if (r >= rows) return;
    float m = -1e30f;
    for (int c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        m = v > m ? v : m;
    }
    out[r] = m;
}
