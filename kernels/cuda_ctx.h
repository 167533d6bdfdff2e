/* The CUDA backend's kernel context: the compute stream a task runs on and
 * the cuBLAS handle bound to it. */
#ifndef CUDA_CTX_H
#define CUDA_CTX_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "kern.h"

struct kern_ctx {
    cudaStream_t stream;
    cublasHandle_t blas;
};

extern const kern_table_t kern_cuda_table[KERN_NTYPES];

#endif
