/* What the CUDA kernels share: their checks (cuda_check.h), the current
 * device, occupancy and launches. */
#ifndef KERN_CUDA_CHECK_CUH
#define KERN_CUDA_CHECK_CUH

#include <atomic>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "kern_cuda.h" /* cuSOLVER's header first, for CUSOLVER_OK */
#include "../cuda_check.h"

/* After a launch: a bad configuration is reported here, not at the next sync. */
#define KERN_LAUNCH_CHECK() CUDA_TRY(cudaGetLastError())

/* Ready h for work on stream s: the thread's own handle when h is NULL. */
static inline int kern_cublas_bind(cublasHandle_t *h, cudaStream_t s)
{
    if (*h == NULL) {
        int err = kern_cuda_thread_handle(h);
        if (err)
            return err;
    }
    CUBLAS_TRY(cublasSetStream(*h, s));
    CUBLAS_TRY(cublasSetPointerMode(*h, CUBLAS_POINTER_MODE_HOST));
    return 0;
}

/* The current device (id, an index into tables of TESS_MAX_DEVICES) and its
 * multiprocessors (grids are sized to fill them). */
struct kern_device {
    int id, nsm;
};

/* One query a call, the count asked of the runtime once per device in each
 * file that launches (a relaxed cache: every thread stores the same value),
 * since the host's time to launch is part of a small call's time.  A failure
 * leaves no error behind for the next launch's check. */
static inline int kern_current_device(kern_device *d)
{
    static std::atomic<int> nsm_of[TESS_MAX_DEVICES];
    if (CUDA_OK(cudaGetDevice(&d->id))) {
        cudaGetLastError();
        return TESS_EDEVICE;
    }
    if (d->id < 0 || d->id >= TESS_MAX_DEVICES)
        return TESS_EDEVICE;
    d->nsm = nsm_of[d->id].load(std::memory_order_relaxed);
    if (d->nsm > 0)
        return 0;
    if (CUDA_OK(cudaDeviceGetAttribute(&d->nsm, cudaDevAttrMultiProcessorCount, d->id))) {
        cudaGetLastError();
        return TESS_EDEVICE;
    }
    nsm_of[d->id].store(d->nsm, std::memory_order_relaxed);
    return 0;
}

/* Blocks of kernel (threads each, smem bytes of dynamic shared memory, the
 * kernel's limit raised to that) resident at once on one multiprocessor of
 * device dev (kern_current_device's id): asked once per device and kept in
 * cache (0: not asked yet, so a failed query is asked again at the next
 * call).  A failure leaves no error behind for the next launch's check. */
template <class K>
static int kern_blocks_per_sm(K *kernel, int threads, size_t smem, int dev,
                              std::atomic<int> (&cache)[TESS_MAX_DEVICES], int *per_sm)
{
    *per_sm = cache[dev].load(std::memory_order_relaxed);
    if (*per_sm > 0)
        return 0;
    if ((smem > 0 && CUDA_OK(cudaFuncSetAttribute(
                         kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem))) ||
        CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kernel, threads, smem))) {
        cudaGetLastError();
        return TESS_EDEVICE;
    }
    if (*per_sm <= 0)
        return TESS_EDEVICE;
    cache[dev].store(*per_sm, std::memory_order_relaxed);
    return 0;
}

/* How kern_launch launches a kernel on its stream:
 * - KERN_LAUNCH_OVERLAP: with programmatic stream serialization, so that the
 *   kernel may start before the one queued ahead of it ends (it must call
 *   cudaGridDependencySynchronize before touching what that one writes);
 * - KERN_LAUNCH_COOPERATIVE: all blocks resident at once, so that they may
 *   wait for one another (cooperative_groups::this_grid()); the grid must fit
 *   the device, or the launch fails. */
enum kern_launch_kind { KERN_LAUNCH_PLAIN, KERN_LAUNCH_OVERLAP, KERN_LAUNCH_COOPERATIVE };

/* Launch kernel on s as kind says.  A failure leaves no error behind for the
 * next launch's check. */
template <class... P, class... A>
static int kern_launch(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t s,
                       kern_launch_kind kind, A &&...args)
{
    cudaLaunchAttribute attr[1];
    cudaLaunchConfig_t cfg = {};
    switch (kind) {
    case KERN_LAUNCH_PLAIN: break;
    case KERN_LAUNCH_OVERLAP:
        attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[0].val.programmaticStreamSerializationAllowed = 1;
        cfg.numAttrs = 1;
        break;
    case KERN_LAUNCH_COOPERATIVE:
        attr[0].id = cudaLaunchAttributeCooperative;
        attr[0].val.cooperative = 1;
        cfg.numAttrs = 1;
        break;
    }
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cfg.attrs = attr;
    if (CUDA_OK(cudaLaunchKernelEx(&cfg, kernel, static_cast<A &&>(args)...))) {
        cudaGetLastError();
        return TESS_EDEVICE;
    }
    return 0;
}

/* Index arithmetic shared by host and device code. */
__host__ __device__ static inline int64_t kern_max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}
__host__ __device__ static inline int64_t kern_min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}
__host__ __device__ static inline int64_t kern_cdiv64(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

#endif
