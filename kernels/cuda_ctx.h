/* The CUDA backend's kernel context: the compute stream a task runs on, the
 * cuBLAS handle bound to it, and scratch for a GEMMT leaf's whole product. */
#ifndef CUDA_CTX_H
#define CUDA_CTX_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "kern.h"

/* Rows of a GEMMT leaf on a GPU: small enough that computing its whole
 * square (twice its triangle's work) costs little next to the GEMMs above
 * it, large enough that the cuBLAS GEMM filling it runs well. */
#define CUDA_GEMMT_LEAF 256

/* Scratch for the leaves of a tile of up to nb rows, in any element type. */
static inline size_t cuda_scratch_bytes(int64_t nb)
{
    return (size_t)(nb > CUDA_GEMMT_LEAF ? nb : CUDA_GEMMT_LEAF) * CUDA_GEMMT_LEAF * 16;
}

struct kern_ctx {
    cudaStream_t stream;
    cublasHandle_t blas;
    void *scratch; /* cuda_scratch_bytes(nb), used in stream order */
};

extern const kern_table_t kern_cuda_table[KERN_NTYPES];

#endif
