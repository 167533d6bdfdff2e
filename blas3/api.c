/* The public BLAS-3 entry points: each routine declared once for the four
 * precisions (tessera.h), defined here once over its precision-generic
 * blas_<name>, scalars passed on by address. */
#include "blas3.h"

#define BLAS3_API(P, T, R, TYPE)                                                                   \
    TESS_API int tess_##P##gemm_async(tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,      \
                                      int64_t k, T alpha, const T *A, int64_t lda, const T *B,     \
                                      int64_t ldb, T beta, T *C, int64_t ldc)                      \
    {                                                                                              \
        return blas_gemm(TYPE, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);            \
    }                                                                                              \
    TESS_API int tess_##P##symm_async(tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,    \
                                      T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,   \
                                      T beta, T *C, int64_t ldc)                                   \
    {                                                                                              \
        return blas_symm(TYPE, false, side, uplo, m, n, &alpha, A, lda, B, ldb, &beta, C, ldc);    \
    }                                                                                              \
    TESS_API int tess_##P##syrk_async(tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,  \
                                      T alpha, const T *A, int64_t lda, T beta, T *C, int64_t ldc) \
    {                                                                                              \
        return blas_syrk(TYPE, false, uplo, trans, n, k, &alpha, A, lda, &beta, C, ldc);           \
    }                                                                                              \
    TESS_API int tess_##P##syr2k_async(tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k, \
                                       T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,  \
                                       T beta, T *C, int64_t ldc)                                  \
    {                                                                                              \
        return blas_syr2k(TYPE, false, uplo, trans, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);  \
    }                                                                                              \
    TESS_API int tess_##P##gemmt_async(tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,         \
                                       int64_t n, int64_t k, T alpha, const T *A, int64_t lda,     \
                                       const T *B, int64_t ldb, T beta, T *C, int64_t ldc)         \
    {                                                                                              \
        return blas_gemmt(TYPE, uplo, ta, tb, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);        \
    }                                                                                              \
    TESS_API int tess_##P##trsm_async(tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,      \
                                      tess_diag_t diag, int64_t m, int64_t n, T alpha, const T *A, \
                                      int64_t lda, T *B, int64_t ldb)                              \
    {                                                                                              \
        return blas_trsm(TYPE, side, uplo, trans, diag, m, n, &alpha, A, lda, B, ldb);             \
    }                                                                                              \
    TESS_API int tess_##P##trmm_async(tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,      \
                                      tess_diag_t diag, int64_t m, int64_t n, T alpha, const T *A, \
                                      int64_t lda, T *B, int64_t ldb)                              \
    {                                                                                              \
        return blas_trmm(TYPE, side, uplo, trans, diag, m, n, &alpha, A, lda, B, ldb);             \
    }

#define BLAS3_HERM_API(P, T, R, TYPE)                                                              \
    TESS_API int tess_##P##hemm_async(tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,    \
                                      T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,   \
                                      T beta, T *C, int64_t ldc)                                   \
    {                                                                                              \
        return blas_symm(TYPE, true, side, uplo, m, n, &alpha, A, lda, B, ldb, &beta, C, ldc);     \
    }                                                                                              \
    TESS_API int tess_##P##herk_async(tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,  \
                                      R alpha, const T *A, int64_t lda, R beta, T *C, int64_t ldc) \
    {                                                                                              \
        return blas_syrk(TYPE, true, uplo, trans, n, k, &alpha, A, lda, &beta, C, ldc);            \
    }                                                                                              \
    TESS_API int tess_##P##her2k_async(tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k, \
                                       T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,  \
                                       R beta, T *C, int64_t ldc)                                  \
    {                                                                                              \
        return blas_syr2k(TYPE, true, uplo, trans, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);   \
    }

BLAS3_API(s, float, float, KERN_S)
BLAS3_API(d, double, double, KERN_D)
BLAS3_API(c, float _Complex, float, KERN_C)
BLAS3_API(z, double _Complex, double, KERN_Z)
BLAS3_HERM_API(c, float _Complex, float, KERN_C)
BLAS3_HERM_API(z, double _Complex, double, KERN_Z)
