/* The CUDA backend's kernel context: the compute stream a task runs on, the
 * cuBLAS and cuSOLVER handles bound to it, scratch for a GEMMT leaf's whole
 * product, and where an error known only once the device has run the work
 * goes. */
#ifndef CUDA_CTX_H
#define CUDA_CTX_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
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
    /* this stream's own (cuSOLVER keeps state per handle, so two streams never
     * share one), made with the context: making one allocates device memory,
     * which would order the device's streams in the middle of a task; NULL in
     * a context that runs no LAPACK kernel */
    cusolverDnHandle_t solver;
    void *scratch; /* cuda_scratch_bytes(nb), used in stream order */
    /* a vendor's status read on the device (cuSOLVER's negative INFO) lands here as a
     * TESS_E* code by the time the work queued so far has completed; the caller sets it
     * before each task and reads it once that task's work is done; NULL: not reported */
    int *async_err;
};

extern const kern_table_t kern_cuda_table[KERN_NTYPES];

#endif
