// pc_sum_noempty: seeded bug twin of pc_sum (the producer refills a slot without waiting for the
// consumer to empty it; the consumer still signals, so the counts match). A producer warp and a consumer warp synchronized by named barriers with thread
// counts. out[l] = sum over c of x[c * 32 + l], for 32 lanes and `chunks` chunks.
// Warp 0 (producer) copies chunk c into slot c % 2 of a shared double buffer and signals
// "slot full" with bar.arrive 1 + slot, 64; before refilling a slot it waits for "slot empty"
// with bar.sync 3 + slot, 64. Warp 1 (consumer) waits for "full" with bar.sync 1 + slot, 64,
// adds the chunk into its lane's sum and signals "empty" with bar.arrive 3 + slot, 64.
// Launch: block = (64), grid = (1).
extern "C" __global__ void pc_sum_noempty(const float* x, float* out, int chunks)
{
    __shared__ float buf[2][32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (warp == 0) {
        for (int c = 0; c < chunks; ++c) {
            const int s = c % 2;
            // BUG (seeded): no wait for "slot empty" before refilling it.
            buf[s][lane] = x[c * 32 + lane];
            asm volatile("bar.arrive %0, 64;" ::"r"(1 + s) : "memory");
        }
    } else {
        float acc = 0.0f;
        for (int c = 0; c < chunks; ++c) {
            const int s = c % 2;
            asm volatile("bar.sync %0, 64;" ::"r"(1 + s) : "memory");
            acc += buf[s][lane];
            if (c + 2 < chunks) asm volatile("bar.arrive %0, 64;" ::"r"(3 + s) : "memory");
        }
        out[lane] = acc;
    }
}
