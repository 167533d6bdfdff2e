/* Device-side test data for the kernel benchmark: filling 8 GB from the host
 * would take longer than the whole benchmark. */
#include <cuda_runtime.h>
#include <stdint.h>
#include "bench_fill.h"

/* splitmix64 of the index: uniform in [-scale, scale], no state to carry. */
__global__ static void fill_kernel(void *p, size_t count, uint64_t seed, double scale, int is_float)
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

/* A read of count 16-byte words, eight reads in flight a thread, the grid
 * taking the words in chunks of 8 x 256 (a block's 8 reads) in turn, so that
 * all blocks read near one another: the bandwidth that a kernel reading as
 * many bytes once could reach.  (A contiguous piece a block read 8.6 GB at
 * 4.23 TB/s on an H200, where GEMV^T reads at 4.45; this reads at 4.55.)
 * never is NaN, so sink is never written, but the compiler cannot know it and
 * must read every word.  Two blocks of 256 threads a multiprocessor keep 64 KB
 * a multiprocessor in flight, more than the memory needs to stay busy. */
enum { READ_THREADS = 256, READ_BLOCKS_PER_SM = 2 };

__global__ static void __launch_bounds__(READ_THREADS, READ_BLOCKS_PER_SM)
    read_kernel(const double2 *p, size_t count, double never, double *sink)
{
    enum { U = 8, T = READ_THREADS };
    const size_t stride = (size_t)gridDim.x * U * T;
    double acc = 0;
    size_t i = (size_t)blockIdx.x * U * T + threadIdx.x;
    for (; i + (U - 1) * T < count; i += stride) {
        double2 v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = p[i + u * T];
#pragma unroll
        for (int u = 0; u < U; u++)
            acc += v[u].x * v[u].y;
    }
    for (; i < count; i += T) /* the last chunk, cut short */
        acc += p[i].x * p[i].y;
    if (acc == never)
        *sink = acc;
}

/* The multiprocessor count is asked once (the benchmark uses one device),
 * since a timed read must not include host queries. */
extern "C" int bench_read_async(const void *p, size_t bytes, void *stream)
{
    static int nsm;
    int dev;
    if (nsm == 0 &&
        (cudaGetDevice(&dev) != cudaSuccess ||
         cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess))
        return -1;
    read_kernel<<<READ_BLOCKS_PER_SM * nsm, READ_THREADS, 0, (cudaStream_t)stream>>>(
        (const double2 *)p, bytes / 16, __builtin_nan(""), (double *)p);
    return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

extern "C" int bench_evict_l2(const void *p, size_t bytes, void *stream)
{
    if (bench_read_async(p, bytes, stream))
        return -1;
    return cudaStreamSynchronize((cudaStream_t)stream) == cudaSuccess ? 0 : -1;
}
