/* The CUDA kernels of one device, as the runtime calls them.
 *
 * Each routine is written once for the four precisions: t picks the element
 * type (float, double, cuComplex, cuDoubleComplex, the layouts of C's float
 * and double _Complex), and scalars are passed by address in that type.
 * Matrices are column-major device memory.  Work is queued on stream s and
 * nothing waits for it.
 *
 * h is the cuBLAS handle the off-diagonal products run on; the routine sets
 * its stream to s and its pointer mode to host.  h may be NULL: the calling
 * thread's own handle for the current device is used (tess_cuda_* do this).
 *
 * Arguments are valid: the callers (the runtime's tasks, the device API of
 * device/api.c) checked them with tile/check.h.  Return values: 0, or TESS_EDEVICE when
 * CUDA or cuBLAS fails. */
#ifndef KERN_CUDA_H
#define KERN_CUDA_H

#include <stdbool.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusolverDn.h>
#include "kern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tessera's transposition (CBLAS values) as cuBLAS's.  Real data never comes
 * with ConjTrans (kern_trans). */
static inline cublasOperation_t kern_cublas_op(tess_trans_t t)
{
    return t == TessNoTrans ? CUBLAS_OP_N : t == TessTrans ? CUBLAS_OP_T : CUBLAS_OP_C;
}

/* B = alpha op(A)^-1 B (side left) or alpha B op(A)^-1 (side right), in place:
 * recursive, off-diagonal blocks by cuBLAS GEMM, diagonal leaves in-kernel. */
int kern_cuda_trsm(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_side_t side,
                   tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,
                   const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb);

/* B = alpha op(A) B (side left) or alpha B op(A) (side right), in place. */
int kern_cuda_trmm(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_side_t side,
                   tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,
                   const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb);

/* y = alpha op(A) x + beta y; beta == 0 never reads y.  h is unused (the
 * kernels are Tessera's own) and kept so that all entries look alike. */
int kern_cuda_gemv(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_trans_t trans, int64_t m,
                   int64_t n, const void *alpha, const void *A, int64_t lda, const void *x,
                   int64_t incx, const void *beta, void *y, int64_t incy);

/* y = alpha A x + beta y, A symmetric (S, D) or Hermitian (C, Z) stored in the
 * uplo triangle; the imaginary parts of a Hermitian diagonal are not read. */
int kern_cuda_symv(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_uplo_t uplo, int64_t n,
                   const void *alpha, const void *A, int64_t lda, const void *x, int64_t incx,
                   const void *beta, void *y, int64_t incy);

/* One tile's share of a GEMV or SYMV/HEMV (kern.h's gemv2): y1 = alpha A x2 +
 * beta1 y1 and y2 = alpha op(A) x1 + beta2 y2 from one read of the m x n A,
 * either y NULL; part TessUpperPart/TessLowerPart: a diagonal tile, y1 = alpha
 * A x2 + beta1 y1 with A symmetric (Hermitian for complex types, herm set) and
 * stored in that triangle.  The sums run in a fixed order, no floating-point
 * atomics: a call repeats bit for bit on one device model.  scratch: stream-
 * ordered device memory of scratch_bytes, at least 256 max(m, n) elements of
 * the type (the partial sums). */
int kern_cuda_gemv2(kern_type_t t, cudaStream_t s, void *scratch, size_t scratch_bytes,
                    tess_part_t part, bool herm, int64_t m, int64_t n, const void *alpha,
                    const void *A, int64_t lda, const void *x1, int64_t incx1, const void *x2,
                    int64_t incx2, const void *beta1, void *y1, int64_t incy1, const void *beta2,
                    void *y2, int64_t incy2);

/* C's uplo triangle = S + beta C (S NULL: beta C; beta == 0: C not read), the
 * other triangle untouched; real_diag sets the imaginary parts of C's
 * diagonal to zero (HERK/HER2K).  C and S are n x n; beta in type t. */
int kern_cuda_tri_update(kern_type_t t, cudaStream_t s, bool real_diag, tess_uplo_t uplo, int64_t n,
                         const void *S, int64_t lds, const void *beta, void *C, int64_t ldc);

/* The imaginary parts of C's n diagonal elements set to zero (a no-op for real types):
 * before cuBLAS's HERK and HER2K, whose complex beta times C lets a NaN in an imaginary
 * part reach the real part, where BLAS reads those parts as zero. */
int kern_cuda_real_diag(kern_type_t t, cudaStream_t s, int64_t n, void *C, int64_t ldc);

/* Whether kern_cuda_gemmt serves n rows: n = leaf 2^L. */
bool kern_cuda_gemmt_by_levels(int64_t n, int64_t leaf);

/* C's uplo triangle = alpha op(A) op(B) + beta C, n x n with
 * kern_cuda_gemmt_by_levels(n, leaf), the other triangle untouched: the
 * off-diagonal blocks of each level of halving as one batched GEMM on h,
 * the leaves computed whole into scratch (n leaf elements) and merged;
 * real_diag sets the imaginary parts of C's diagonal to zero (HERK). */
int kern_cuda_gemmt(kern_type_t t, cublasHandle_t h, cudaStream_t s, void *scratch, int64_t leaf,
                    bool real_diag, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
                    int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                    int64_t ldb, const void *beta, void *C, int64_t ldc);

/* The calling thread's cuSOLVER handle for the current device, created on first use and
 * destroyed when the thread exits, bound to stream s (the legacy library's calls on
 * operands in GPU memory; the runtime's streams have handles of their own).  0 or
 * TESS_EDEVICE. */
int kern_cuda_thread_solver(cudaStream_t s, cusolverDnHandle_t *h);

/* A diagonal tile's info (kern.h's potrf): once the work queued on s so far has completed,
 * offset + *dev_info is stored to *info when *dev_info > 0, nothing when it is 0; a
 * negative *dev_info (cuSOLVER refused an argument we passed: a bug of ours, never the
 * caller's INFO) stores TESS_EINTERNAL to *async_err instead, when async_err is not NULL.
 * info NULL: the devInfo of a routine with no INFO of its own (GEQRF, ORMQR), of which only
 * a negative value is reported.
 * Atomic stores.  The worker does not wait: the int goes through page-locked memory and a
 * host function in stream order.  dev_info stays valid in stream order. */
int kern_cuda_info_to_host(cudaStream_t s, const int *dev_info, int64_t *info, int64_t offset,
                           int *async_err);

/* After cuSOLVER's POTRF of the n x n A (uplo's triangle), its *dev_info made LAPACK's:
 * the first column whose diagonal element is not a positive real number (NaN included)
 * when that comes before the one reported.  cuSOLVER's Lower POTRF (CUDA 13) reports a
 * failure in the last column of its internal panel one column late, or not at all at
 * k = n, leaving NaN at A(k,k); every factored column has a positive diagonal. */
int kern_cuda_potrf_info(kern_type_t t, cudaStream_t s, int64_t n, const void *A, int64_t lda,
                         int *dev_info);

/* *dev_out = 1 + the index of the first exactly zero element on the n x n A's diagonal, or 0
 * when there is none. */
int kern_cuda_diag_zero(kern_type_t t, cudaStream_t s, int64_t n, const void *A, int64_t lda,
                        int *dev_out);

/* *dev_out = 1 when the m x n A holds an element that is not zero (either part of a complex
 * one), else 0. */
int kern_cuda_any_nonzero(kern_type_t t, cudaStream_t s, int64_t m, int64_t n, const void *A,
                          int64_t lda, int *dev_out);

/* kern.h's amax: the largest modulus of the m x n A's elements found in dev_scratch (8
 * bytes), then combined into *amax by a host function in stream order. */
int kern_cuda_amax(kern_type_t t, cudaStream_t s, int64_t m, int64_t n, const void *A, int64_t lda,
                   void *dev_scratch, double *amax);

/* The calling thread's cuSOLVER parameters (cusolverDnParams_t, the 64-bit API's), created on
 * first use and destroyed when the thread exits.  0 or TESS_EDEVICE. */
int kern_cuda_solver_params(cusolverDnParams_t *p);

/* After cuSOLVER's getrf of a panel's rows offset on: the mn pivots ipiv (device, 64-bit) made
 * global (offset added), and *dev_out = 1 + the first exactly zero element of U's diagonal,
 * or 0 (GETRF's INFO, taken from the factor, not from cuSOLVER), unless it holds cuSOLVER's
 * negative devInfo, which is kept for kern_cuda_info_to_host to report. */
int kern_cuda_getrf_finish(kern_type_t t, cudaStream_t s, int64_t mn, const void *A, int64_t lda,
                           int64_t *ipiv, int64_t offset, int *dev_out);

/* kern.h's laswp: rows k1 to k2 of the m x n A interchanged with ipiv's (device, 64-bit,
 * 1-based) in order (forward) or in reverse; one thread a column. */
int kern_cuda_laswp(kern_type_t t, cudaStream_t s, int64_t m, int64_t n, void *A, int64_t lda,
                    int64_t k1, int64_t k2, const int64_t *ipiv, bool forward);

/* U (ld ldu) = the r x k reflectors below V's diagonal, with ones on the diagonal and zeros
 * above it; V's diagonal and upper part are never read (ORMQR's, which may hold NaN). */
int kern_cuda_unit_lower(kern_type_t t, cudaStream_t s, int64_t r, int64_t k, const void *V,
                         int64_t ldv, void *U, int64_t ldu);

/* kern.h's transpose: B (n x m) = A^H (A^T for real types), A m x n. */
int kern_cuda_transpose(kern_type_t t, cudaStream_t s, int64_t m, int64_t n, const void *A,
                        int64_t lda, void *B, int64_t ldb);

/* The calling thread's cuBLAS handle for the current device, created on first
 * use and destroyed when the thread exits.  0 or TESS_EDEVICE. */
int kern_cuda_thread_handle(cublasHandle_t *h);

#ifdef __cplusplus
}
#endif
#endif
