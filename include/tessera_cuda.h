/* Tessera's kernels on data already on one GPU.
 *
 * Pointers are device memory, column-major; work is queued on `stream` and
 * the call returns without waiting for it.  TRSM and TRMM are the recursive
 * in-place kernels the runtime runs on a GPU's tiles; GEMV and SYMV/HEMV are
 * whole-matrix kernels after KBLAS's designs (the runtime runs its own BLAS-2
 * tile kernel instead).  Each calling thread gets its own cuBLAS handle per
 * device, made on first use and destroyed when the thread exits.
 *
 * Return values: 0; -i when argument i is invalid, counted as reference BLAS
 * counts (the stream is not counted); TESS_EDEVICE when CUDA or cuBLAS
 * reports a failure (a launch error shows at once, a fault in a kernel at the
 * stream's next synchronisation).  alpha == 0 (and beta == 0 for GEMV/SYMV)
 * never reads the output, as in reference BLAS. */
#ifndef TESSERA_CUDA_H
#define TESSERA_CUDA_H

#include <cuda_runtime.h>
#include "tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* B = alpha op(A)^-1 B (side left, A m x m) or alpha B op(A)^-1 (side right,
 * A n x n), in place. */
#define TESS_CUDA_TRXM_DECL(name, T)                                                               \
    TESS_API int name(cudaStream_t stream, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans, \
                      tess_diag_t diag, int64_t m, int64_t n, T alpha, const T *dA, int64_t ldda,  \
                      T *dB, int64_t lddb);
TESS_CUDA_TRXM_DECL(tess_cuda_strsm, float)
TESS_CUDA_TRXM_DECL(tess_cuda_dtrsm, double)
TESS_CUDA_TRXM_DECL(tess_cuda_ctrsm, float _Complex)
TESS_CUDA_TRXM_DECL(tess_cuda_ztrsm, double _Complex)

/* B = alpha op(A) B (side left) or alpha B op(A) (side right), in place. */
TESS_CUDA_TRXM_DECL(tess_cuda_strmm, float)
TESS_CUDA_TRXM_DECL(tess_cuda_dtrmm, double)
TESS_CUDA_TRXM_DECL(tess_cuda_ctrmm, float _Complex)
TESS_CUDA_TRXM_DECL(tess_cuda_ztrmm, double _Complex)
#undef TESS_CUDA_TRXM_DECL

/* y = alpha op(A) x + beta y, A m x n; negative increments walk the vector
 * from its far end, as in reference BLAS. */
#define TESS_CUDA_GEMV_DECL(name, T)                                                               \
    TESS_API int name(cudaStream_t stream, tess_trans_t trans, int64_t m, int64_t n, T alpha,      \
                      const T *dA, int64_t ldda, const T *dx, int64_t incx, T beta, T *dy,         \
                      int64_t incy);
TESS_CUDA_GEMV_DECL(tess_cuda_sgemv, float)
TESS_CUDA_GEMV_DECL(tess_cuda_dgemv, double)
TESS_CUDA_GEMV_DECL(tess_cuda_cgemv, float _Complex)
TESS_CUDA_GEMV_DECL(tess_cuda_zgemv, double _Complex)
#undef TESS_CUDA_GEMV_DECL

/* y = alpha A x + beta y, A n x n symmetric (s, d) or Hermitian (c, z), only
 * its uplo triangle read (and for hemv not the imaginary parts of its
 * diagonal). */
#define TESS_CUDA_SYMV_DECL(name, T)                                                               \
    TESS_API int name(cudaStream_t stream, tess_uplo_t uplo, int64_t n, T alpha, const T *dA,      \
                      int64_t ldda, const T *dx, int64_t incx, T beta, T *dy, int64_t incy);
TESS_CUDA_SYMV_DECL(tess_cuda_ssymv, float)
TESS_CUDA_SYMV_DECL(tess_cuda_dsymv, double)
TESS_CUDA_SYMV_DECL(tess_cuda_chemv, float _Complex)
TESS_CUDA_SYMV_DECL(tess_cuda_zhemv, double _Complex)
#undef TESS_CUDA_SYMV_DECL

#ifdef __cplusplus
}
#endif
#endif
