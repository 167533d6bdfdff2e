/* How every CUDA and cuBLAS call is checked, in the CUDA backend, the kernels
 * and the legacy library alike: a failure becomes TESS_EDEVICE, returned to
 * the caller (the library never prints unasked or aborts).  C and CUDA C++. */
#ifndef KERN_CUDA_CHECK_H
#define KERN_CUDA_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "tessera.h"

/* 0 or TESS_EDEVICE; with say, a failure names the call and the library's
 * reason on stderr, since TESS_EDEVICE at tess_sync says neither. */
static inline int kern_cuda_result(cudaError_t e, const char *call, bool say)
{
    if (e == cudaSuccess)
        return 0;
    if (say)
        fprintf(stderr, "tessera: %.*s: %s\n", (int)strcspn(call, "("), call,
                cudaGetErrorString(e));
    return TESS_EDEVICE;
}

static inline int kern_cublas_result(cublasStatus_t s, const char *call, bool say)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return 0;
    if (say)
        fprintf(stderr, "tessera: %.*s: %s\n", (int)strcspn(call, "("), call,
                cublasGetStatusString(s));
    return TESS_EDEVICE;
}

#ifdef CUSOLVER_COMMON_H_
/* cuSOLVER's, for the files that include its header first. */
static inline int kern_cusolver_result(cusolverStatus_t s, const char *call, bool say)
{
    if (s == CUSOLVER_STATUS_SUCCESS)
        return 0;
    if (say)
        fprintf(stderr, "tessera: %.*s: cuSOLVER status %d\n", (int)strcspn(call, "("), call,
                (int)s);
    return TESS_EDEVICE;
}
#define CUSOLVER_OK(call) kern_cusolver_result((call), #call, KERN_CUDA_SAY)
#endif

/* Whether failures are named: a file may define KERN_CUDA_SAY before
 * including this (the runtime's files: TESS_VERBOSE). */
#ifndef KERN_CUDA_SAY
#define KERN_CUDA_SAY false
#endif

/* A call's result: 0 or TESS_EDEVICE. */
#define CUDA_OK(call) kern_cuda_result((call), #call, KERN_CUDA_SAY)
#define CUBLAS_OK(call) kern_cublas_result((call), #call, KERN_CUDA_SAY)

/* Return TESS_EDEVICE from the enclosing function when the call fails. */
#define CUDA_TRY(call)                                                                             \
    do {                                                                                           \
        if (CUDA_OK(call))                                                                         \
            return TESS_EDEVICE;                                                                   \
    } while (0)
#define CUBLAS_TRY(call)                                                                           \
    do {                                                                                           \
        if (CUBLAS_OK(call))                                                                       \
            return TESS_EDEVICE;                                                                   \
    } while (0)

#endif
