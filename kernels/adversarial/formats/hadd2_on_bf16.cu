// hadd2_on_bf16: bf16x2 data added by __hadd2 on __half2 (add.f16x2) through reinterpret_cast.
// True verdict against bf16x2_add: NOT equivalent (the halves are read as f16); kcert must
// refuse the add.f16x2 of bf16 data with its line (declined). Launch: grid = 1, block = 32.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void hadd2_on_bf16(const __nv_bfloat162* x, const __nv_bfloat162* y,
                                         __nv_bfloat162* out)
{
    int i = threadIdx.x;
    __half2 a = reinterpret_cast<const __half2*>(x)[i];
    __half2 b = reinterpret_cast<const __half2*>(y)[i];
    reinterpret_cast<__half2*>(out)[i] = __hadd2(a, b);
}
