// atomic_ticket.cu: each thread takes a ticket with atomicAdd and writes its element to the
// slot the ticket names. The slot depends on the order in which the atomics happen, so the
// output is schedule-dependent: kcert must reject the use of the returned value.
extern "C" __global__ void atomic_ticket(const float* x, float* out, float* counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float slot = atomicAdd(&counter[0], 1.0f);
        out[(int)slot] = x[i];
    }
}
