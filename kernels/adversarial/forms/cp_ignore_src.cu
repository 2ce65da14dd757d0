// cp_ignore_src.cu: cp.async with the trailing ignore-src predicate, the form tutorial SGEMM
// kernels use to zero-fill tiles past a matrix edge:
//   cp.async.cg.shared.global [dst], [src], 16, p;   (p true: no byte read, 16 zero bytes)
// nvcc emits it only from inline PTX (cuda_pipeline.h's zero fill uses the src-size form),
// so this source writes it in an asm block; the PTX is still nvcc output.
// Each of 16 threads copies 4 floats of x into shared memory, ignoring the source past n;
// out[i] = s[i] for i < 64.
//  - cp_ignore_src: true verdict safe; equivalent to zero_pad_ref.cu (out[i] = i < n ? x[i] : 0)
//    with n = 48, NOT equivalent to zero_pad_ref with the copy of all 64 (n = 64): the zero
//    fill decides the last 16 elements.
extern "C" __global__ void cp_ignore_src(const float* x, float* out, int n) {
    __shared__ __align__(16) float s[64];
    int t = threadIdx.x;
    int i = 4 * t;
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&s[i]));
    int ignore = i >= n;
    asm volatile(
        "{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n"
        " cp.async.cg.shared.global [%0], [%1], 16, p;\n}\n"
        :: "r"(dst), "l"(x + i), "r"(ignore));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    for (int k = 0; k < 4; k++) out[i + k] = s[i + k];
}
