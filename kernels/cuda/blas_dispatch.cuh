/* cuBLAS GEMM under one name for the four element types (64-bit sizes). */
#ifndef KERN_CUDA_BLAS_DISPATCH_CUH
#define KERN_CUDA_BLAS_DISPATCH_CUH

#include <cublas_v2.h>
#include "kern_cuda.h"
#include <stdint.h>

static inline cublasStatus_t kern_gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                       int64_t m, int64_t n, int64_t k, float alpha, const float *A,
                                       int64_t lda, const float *B, int64_t ldb, float beta,
                                       float *C, int64_t ldc)
{
    return cublasSgemm_64(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
}
static inline cublasStatus_t kern_gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                       int64_t m, int64_t n, int64_t k, double alpha,
                                       const double *A, int64_t lda, const double *B, int64_t ldb,
                                       double beta, double *C, int64_t ldc)
{
    return cublasDgemm_64(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
}
static inline cublasStatus_t kern_gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                       int64_t m, int64_t n, int64_t k, cuComplex alpha,
                                       const cuComplex *A, int64_t lda, const cuComplex *B,
                                       int64_t ldb, cuComplex beta, cuComplex *C, int64_t ldc)
{
    return cublasCgemm_64(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
}
static inline cublasStatus_t kern_gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                       int64_t m, int64_t n, int64_t k, cuDoubleComplex alpha,
                                       const cuDoubleComplex *A, int64_t lda,
                                       const cuDoubleComplex *B, int64_t ldb, cuDoubleComplex beta,
                                       cuDoubleComplex *C, int64_t ldc)
{
    return cublasZgemm_64(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
}

/* Strided batched GEMM under one name: count products of equal shape, the
 * i-th at A + i sa, B + i sb, C + i sc. */
#define KERN_GEMM_BATCHED(T, FN)                                                                   \
    static inline cublasStatus_t kern_gemm_batched(                                                \
        cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,        \
        int64_t k, T alpha, const T *A, int64_t lda, int64_t sa, const T *B, int64_t ldb,          \
        int64_t sb, T beta, T *C, int64_t ldc, int64_t sc, int64_t count)                          \
    {                                                                                              \
        return FN(h, ta, tb, m, n, k, &alpha, A, lda, sa, B, ldb, sb, &beta, C, ldc, sc, count);   \
    }
KERN_GEMM_BATCHED(float, cublasSgemmStridedBatched_64)
KERN_GEMM_BATCHED(double, cublasDgemmStridedBatched_64)
KERN_GEMM_BATCHED(cuComplex, cublasCgemmStridedBatched_64)
KERN_GEMM_BATCHED(cuDoubleComplex, cublasZgemmStridedBatched_64)
#undef KERN_GEMM_BATCHED

#endif
