#include "link_rates.h"
#include <cuda_runtime.h>
#include "bench_cuda_check.h"
#include "bench_util.h"

#define MAX_LINK_GPUS 16

enum { IN, OUT, BOTH };

/* Seconds for one round of copies of kind k on every GPU at once. */
static double round_of(int k, int g, const char *src, char *dst, void **dev, cudaStream_t (*s)[2],
                       size_t bytes)
{
    double t0 = bench_now();
    for (int i = 0; i < g; i++) {
        CU(cudaSetDevice(i));
        if (k != OUT)
            CU(cudaMemcpyAsync((char *)dev[i] + (k == BOTH ? bytes : 0), src + (size_t)i * bytes,
                               bytes, cudaMemcpyHostToDevice, s[i][0]));
        if (k != IN)
            CU(cudaMemcpyAsync(dst + (size_t)i * bytes, dev[i], bytes, cudaMemcpyDeviceToHost,
                               s[i][1]));
    }
    for (int i = 0; i < g; i++) {
        CU(cudaSetDevice(i));
        CU(cudaDeviceSynchronize());
    }
    return bench_now() - t0;
}

link_rates_t link_rates_measure(int g, const double *src, double *dst, size_t bytes, int reps)
{
    void *dev[MAX_LINK_GPUS];
    cudaStream_t s[MAX_LINK_GPUS][2];
    if (g > MAX_LINK_GPUS)
        g = MAX_LINK_GPUS;
    for (int i = 0; i < g; i++) {
        CU(cudaSetDevice(i));
        /* two halves: the first holds src's slice once copied in, and is what a
         * copy out reads, also while one in writes the second */
        CU(cudaMalloc(&dev[i], 2 * bytes));
        CU(cudaStreamCreateWithFlags(&s[i][0], cudaStreamNonBlocking));
        CU(cudaStreamCreateWithFlags(&s[i][1], cudaStreamNonBlocking));
    }
    const char *in = (const char *)src;
    char *out = (char *)dst;
    double best[3] = { 1e30, 1e30, 1e30 };
    round_of(IN, g, in, out, dev, s, bytes); /* warm-up, and the device data copied out */
    for (int r = 0; r < reps; r++)
        for (int k = IN; k <= BOTH; k++) {
            double t = round_of(k, g, in, out, dev, s, bytes);
            if (t < best[k])
                best[k] = t;
        }
    for (int i = 0; i < g; i++) {
        CU(cudaSetDevice(i));
        CU(cudaStreamDestroy(s[i][0]));
        CU(cudaStreamDestroy(s[i][1]));
        CU(cudaFree(dev[i]));
    }
    CU(cudaSetDevice(0));
    double all = (double)g * (double)bytes * 1e-9;
    return (link_rates_t){ all / best[IN], all / best[OUT], 2 * all / best[BOTH] };
}
