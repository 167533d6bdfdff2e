/* Error handling shared by the CUDA kernels: every CUDA and cuBLAS call is
 * checked, and a failure becomes TESS_EDEVICE returned to the caller (the
 * library never prints or aborts). */
#ifndef KERN_CUDA_CHECK_CUH
#define KERN_CUDA_CHECK_CUH

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "kern_cuda.h"

#define KERN_CUDA_TRY(call)                                                                        \
    do {                                                                                           \
        if ((call) != cudaSuccess)                                                                 \
            return TESS_EDEVICE;                                                                   \
    } while (0)

#define KERN_CUBLAS_TRY(call)                                                                      \
    do {                                                                                           \
        if ((call) != CUBLAS_STATUS_SUCCESS)                                                       \
            return TESS_EDEVICE;                                                                   \
    } while (0)

/* After a launch: a bad configuration is reported here, not at the next sync. */
#define KERN_LAUNCH_CHECK() KERN_CUDA_TRY(cudaGetLastError())

/* Ready h for work on stream s: the thread's own handle when h is NULL. */
static inline int kern_cublas_bind(cublasHandle_t *h, cudaStream_t s)
{
    if (*h == NULL) {
        int err = kern_cuda_thread_handle(h);
        if (err)
            return err;
    }
    KERN_CUBLAS_TRY(cublasSetStream(*h, s));
    KERN_CUBLAS_TRY(cublasSetPointerMode(*h, CUBLAS_POINTER_MODE_HOST));
    return 0;
}

/* Index arithmetic shared by host and device code. */
__host__ __device__ static inline int64_t kern_max64(int64_t a, int64_t b) { return a > b ? a : b; }
__host__ __device__ static inline int64_t kern_min64(int64_t a, int64_t b) { return a < b ? a : b; }
__host__ __device__ static inline int64_t kern_cdiv64(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Multiprocessors of the current device: grids are sized to fill them. */
static inline int kern_sm_count(int *nsm)
{
    int dev;
    KERN_CUDA_TRY(cudaGetDevice(&dev));
    KERN_CUDA_TRY(cudaDeviceGetAttribute(nsm, cudaDevAttrMultiProcessorCount, dev));
    return 0;
}

#endif
