/* Device-side test data for the kernel benchmark: filling 8 GB from the host
 * would take longer than the whole benchmark. */
#include <cuda_runtime.h>
#include <stdint.h>
#include "bench_fill.h"

/* splitmix64 of the index: uniform in [-scale, scale], no state to carry. */
__global__ static void fill_kernel(void *p, size_t count, uint64_t seed, double scale,
                                   int is_float)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x) {
        uint64_t z = seed + i * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        const double u = ((double)(z >> 11) * 0x1.0p-53 * 2.0 - 1.0) * scale;
        if (is_float)
            ((float *)p)[i] = (float)u;
        else
            ((double *)p)[i] = u;
    }
}

/* Adds v to the real part of each diagonal element. */
__global__ static void diag_kernel(void *p, int64_t n, int64_t ld, double v, int reals_per_elem,
                                   int is_float)
{
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const int64_t k = (i + i * ld) * reals_per_elem;
    if (is_float)
        ((float *)p)[k] += (float)v;
    else
        ((double *)p)[k] += v;
}

extern "C" int bench_fill(void *p, size_t reals, uint64_t seed, double scale, int is_float)
{
    fill_kernel<<<4096, 256>>>(p, reals, seed, scale, is_float);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

extern "C" int bench_add_diag(void *p, int64_t n, int64_t ld, double v, int reals_per_elem,
                              int is_float)
{
    diag_kernel<<<(unsigned)((n + 255) / 256), 256>>>(p, n, ld, v, reals_per_elem, is_float);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

/* sink is written only if the zeros at p sum to something else: never, but
 * the compiler cannot know it and must read them all. */
__global__ static void read_kernel(const double2 *p, size_t count, double *sink)
{
    double acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        acc += p[i].x + p[i].y;
    if (acc != 0)
        *sink = acc;
}

extern "C" int bench_evict_l2(const void *p, size_t bytes, void *stream)
{
    const cudaStream_t s = (cudaStream_t)stream;
    read_kernel<<<1024, 256, 0, s>>>((const double2 *)p, bytes / 16, (double *)p);
    return cudaStreamSynchronize(s) == cudaSuccess ? 0 : -1;
}
