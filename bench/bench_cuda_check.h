/* The GPU drivers' checks: a failed CUDA, cuBLAS or Tessera call ends the
 * run with its file, line, the call and the library's message. */
#ifndef BENCH_CUDA_CHECK_H
#define BENCH_CUDA_CHECK_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "tessera.h"

#define BENCH_FAIL(what, msg)                                                                      \
    do {                                                                                           \
        fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, what, msg);                  \
        exit(1);                                                                                   \
    } while (0)

#define CU(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            BENCH_FAIL(#call, cudaGetErrorString(e_));                                             \
    } while (0)

#define CB(call)                                                                                   \
    do {                                                                                           \
        cublasStatus_t e_ = (call);                                                                \
        if (e_ != CUBLAS_STATUS_SUCCESS)                                                           \
            BENCH_FAIL(#call, cublasGetStatusString(e_));                                          \
    } while (0)

/* Tessera's: a negative return names an invalid argument. */
#define TK(call)                                                                                   \
    do {                                                                                           \
        int e_ = (call);                                                                           \
        if (e_ < 0) {                                                                              \
            fprintf(stderr, "%s:%d: %s: argument %d is invalid\n", __FILE__, __LINE__, #call,      \
                    -e_);                                                                          \
            exit(1);                                                                               \
        }                                                                                          \
        if (e_ > 0)                                                                                \
            BENCH_FAIL(#call, tess_strerror(e_));                                                  \
    } while (0)

#endif
