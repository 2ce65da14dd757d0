// attn_fa2_call_causal: attention_tc/attn_fa2_causal (the causal FlashAttention-2 on tensor
// cores, queries at positions 496..511) with every exp2f going through a __noinline__ device
// function my_exp2 (return exp2f(x)): the PTX calls it. True verdict: safe, equivalent to
// attention_tc/attn_f16_naive_causal (op attention, causal). Launch: grid = 1, block = 32.
#include <cuda_fp16.h>

#define D 64
#define BC 64

// The base-2 exponential, kept out of line (__noinline__): the PTX calls it with .param passing.
__device__ __noinline__ float my_exp2(float x)
{
    return exp2f(x);
}

__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async16(void* dst, const void* src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src));
}

__device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], const void* p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_addr(p)));
}

__device__ __forceinline__ void ldsm_x4_trans(unsigned (&r)[4], const void* p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_addr(p)));
}

__device__ __forceinline__ void mma16816(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ unsigned pack_half2(float lo, float hi)
{
    __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<unsigned*>(&h);
}

extern "C" __global__ void attn_fa2_call_causal(const __half* Q, const __half* K, const __half* V, float* O,
                                    int M, int T, int q_offset, float scale_log2)
{
    __shared__ __align__(16) __half Qs[16][D];
    __shared__ __align__(16) __half Ks[2][BC][D];
    __shared__ __align__(16) __half Vs[2][BC][D];
    const int lane = threadIdx.x;
    const int g = lane / 4, t = lane % 4;

    for (int c = lane; c < 16 * D / 8; c += 32) {
        cp_async16(&Qs[c / 8][(c % 8) * 8], &Q[(c / 8) * D + (c % 8) * 8]);
    }
    auto load_kv = [&](int stage, int j0) {
        for (int c = lane; c < BC * D / 8; c += 32) {
            int r = c / 8, col = (c % 8) * 8;
            cp_async16(&Ks[stage][r][col], &K[(j0 + r) * D + col]);
            cp_async16(&Vs[stage][r][col], &V[(j0 + r) * D + col]);
        }
        asm volatile("cp.async.commit_group;\n" ::);
    };

    float o[8][4];
    for (int j = 0; j < 8; ++j)
        for (int e = 0; e < 4; ++e) o[j][e] = 0.0f;
    float m[2] = {-INFINITY, -INFINITY};   // running maxima of rows g and g + 8
    float l[2] = {0.0f, 0.0f};             // this lane's part of the running sums
    unsigned qa[4][4];

    const int nb = min(T, q_offset + 16 + BC - 1) / BC;   // blocks holding a visible key
    load_kv(0, 0);   // the first group also holds Q
    for (int b = 0; b < nb; ++b) {
        const int cur = b % 2;
        if (b + 1 < nb) {
            load_kv(cur ^ 1, (b + 1) * BC);
            asm volatile("cp.async.wait_group 1;\n" ::);
        } else {
            asm volatile("cp.async.wait_group 0;\n" ::);
        }
        __syncthreads();
        const int i8 = lane / 8, r8 = lane % 8;
        if (b == 0) {
            for (int kk = 0; kk < 4; ++kk) {
                ldsm_x4(qa[kk], &Qs[r8 + 8 * (i8 % 2)][16 * kk + 8 * (i8 / 2)]);
            }
        }
        // S = Q K^T for 64 keys: 8 n8 tiles.
        float s[8][4];
        for (int j = 0; j < 8; ++j)
            for (int e = 0; e < 4; ++e) s[j][e] = 0.0f;
        for (int kk = 0; kk < 4; ++kk) {
            for (int jn = 0; jn < 8; jn += 2) {
                unsigned kb[4];
                ldsm_x4(kb, &Ks[cur][(jn + i8 / 2) * 8 + r8][16 * kk + 8 * (i8 % 2)]);
                mma16816(s[jn], qa[kk], kb[0], kb[1]);
                mma16816(s[jn + 1], qa[kk], kb[2], kb[3]);
            }
        }
        // Causal mask: key b * BC + 8 j + 2 t + (e & 1) is visible to row g (e < 2) or g + 8.
        for (int j = 0; j < 8; ++j) {
            for (int e = 0; e < 4; ++e) {
                const int key = b * BC + 8 * j + 2 * t + (e & 1);
                const int qpos = q_offset + g + (e >= 2 ? 8 : 0);
                if (key > qpos) s[j][e] = -INFINITY;
            }
        }
        // Online softmax on rows g (elements 0, 1) and g + 8 (elements 2, 3).
        for (int r = 0; r < 2; ++r) {
            float mx = -INFINITY;
            for (int j = 0; j < 8; ++j) mx = fmaxf(mx, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
            const float m_new = fmaxf(m[r], mx);
            const float alpha = my_exp2((m[r] - m_new) * scale_log2);
            float sum = 0.0f;
            for (int j = 0; j < 8; ++j) {
                s[j][2 * r] = my_exp2((s[j][2 * r] - m_new) * scale_log2);
                s[j][2 * r + 1] = my_exp2((s[j][2 * r + 1] - m_new) * scale_log2);
                sum += s[j][2 * r] + s[j][2 * r + 1];
                o[j][2 * r] *= alpha;
                o[j][2 * r + 1] *= alpha;
            }
            l[r] = l[r] * alpha + sum;
            m[r] = m_new;
        }
        // O += P V, 16 keys at a time; P's accumulator fragments are its A fragments.
        for (int kc = 0; kc < 4; ++kc) {
            unsigned pa[4] = {pack_half2(s[2 * kc][0], s[2 * kc][1]),
                              pack_half2(s[2 * kc][2], s[2 * kc][3]),
                              pack_half2(s[2 * kc + 1][0], s[2 * kc + 1][1]),
                              pack_half2(s[2 * kc + 1][2], s[2 * kc + 1][3])};
            for (int dn = 0; dn < 8; dn += 2) {
                unsigned vb[4];
                ldsm_x4_trans(vb, &Vs[cur][16 * kc + r8 + 8 * (i8 % 2)][8 * (dn + i8 / 2)]);
                mma16816(o[dn], pa, vb[0], vb[1]);
                mma16816(o[dn + 1], pa, vb[2], vb[3]);
            }
        }
        __syncthreads();
    }
    // The row sums are spread over the 4 lanes of a group.
    for (int r = 0; r < 2; ++r) {
        l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
        l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
    }
    for (int dn = 0; dn < 8; ++dn) {
        const int col = 8 * dn + 2 * t;
        O[g * D + col] = o[dn][0] / l[0];
        O[g * D + col + 1] = o[dn][1] / l[0];
        O[(g + 8) * D + col] = o[dn][2] / l[1];
        O[(g + 8) * D + col + 1] = o[dn][3] / l[1];
    }
}
