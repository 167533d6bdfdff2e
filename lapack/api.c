/* The public entry points of the Cholesky family, LU and QR: each routine declared once
 * for the four precisions (tessera.h), defined here once over its
 * precision-generic lapack_<name>. */
#include "lapack.h"

#define LAPACK_API(P, T, TYPE)                                                                     \
    TESS_API int tess_##P##potrf_async(tess_uplo_t uplo, int64_t n, T *A, int64_t lda,             \
                                       int64_t *info)                                              \
    {                                                                                              \
        return lapack_potrf(TYPE, uplo, n, A, lda, info);                                          \
    }                                                                                              \
    TESS_API int tess_##P##potrs_async(tess_uplo_t uplo, int64_t n, int64_t nrhs, const T *A,      \
                                       int64_t lda, T *B, int64_t ldb)                             \
    {                                                                                              \
        return lapack_potrs(TYPE, uplo, n, nrhs, A, lda, B, ldb);                                  \
    }                                                                                              \
    TESS_API int tess_##P##posv_async(tess_uplo_t uplo, int64_t n, int64_t nrhs, T *A,             \
                                      int64_t lda, T *B, int64_t ldb, int64_t *info)               \
    {                                                                                              \
        return lapack_posv(TYPE, uplo, n, nrhs, A, lda, B, ldb, info);                             \
    }                                                                                              \
    TESS_API int tess_##P##trtri_async(tess_uplo_t uplo, tess_diag_t diag, int64_t n, T *A,        \
                                       int64_t lda, int64_t *info)                                 \
    {                                                                                              \
        return lapack_trtri(TYPE, uplo, diag, n, A, lda, info);                                    \
    }                                                                                              \
    TESS_API int tess_##P##lauum_async(tess_uplo_t uplo, int64_t n, T *A, int64_t lda)             \
    {                                                                                              \
        return lapack_lauum(TYPE, uplo, n, A, lda);                                                \
    }                                                                                              \
    TESS_API int tess_##P##potri_async(tess_uplo_t uplo, int64_t n, T *A, int64_t lda,             \
                                       int64_t *info)                                              \
    {                                                                                              \
        return lapack_potri(TYPE, uplo, n, A, lda, info);                                          \
    }                                                                                              \
    TESS_API int tess_##P##getrf_async(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv,     \
                                       int64_t *info)                                              \
    {                                                                                              \
        return lapack_getrf(TYPE, m, n, A, lda, ipiv, info);                                       \
    }                                                                                              \
    TESS_API int tess_##P##getrs_async(tess_trans_t trans, int64_t n, int64_t nrhs, const T *A,    \
                                       int64_t lda, const int64_t *ipiv, T *B, int64_t ldb)        \
    {                                                                                              \
        return lapack_getrs(TYPE, trans, n, nrhs, A, lda, ipiv, B, ldb);                           \
    }                                                                                              \
    TESS_API int tess_##P##gesv_async(int64_t n, int64_t nrhs, T *A, int64_t lda, int64_t *ipiv,   \
                                      T *B, int64_t ldb, int64_t *info)                            \
    {                                                                                              \
        return lapack_gesv(TYPE, n, nrhs, A, lda, ipiv, B, ldb, info);                             \
    }                                                                                              \
    TESS_API int tess_##P##laswp_async(int64_t n, T *A, int64_t lda, int64_t k1, int64_t k2,       \
                                       const int64_t *ipiv, int64_t incx)                          \
    {                                                                                              \
        return lapack_laswp(TYPE, n, A, lda, k1, k2, ipiv, incx);                                  \
    }

LAPACK_API(s, float, KERN_S)
LAPACK_API(d, double, KERN_D)
LAPACK_API(c, float _Complex, KERN_C)
LAPACK_API(z, double _Complex, KERN_Z)

#define QR_API(P, ORM, T, TYPE)                                                                    \
    TESS_API int tess_##P##geqrf_async(int64_t m, int64_t n, T *A, int64_t lda, T *tau)            \
    {                                                                                              \
        return lapack_geqrf(TYPE, m, n, A, lda, tau);                                              \
    }                                                                                              \
    TESS_API int tess_##P##gels_async(tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs,      \
                                      T *A, int64_t lda, T *B, int64_t ldb, int64_t *info)         \
    {                                                                                              \
        return lapack_gels(TYPE, trans, m, n, nrhs, A, lda, B, ldb, info);                         \
    }                                                                                              \
    TESS_API int tess_##P##ORM##_async(tess_side_t side, tess_trans_t trans, int64_t m, int64_t n, \
                                       int64_t k, const T *A, int64_t lda, const T *tau, T *C,     \
                                       int64_t ldc)                                                \
    {                                                                                              \
        return lapack_ormqr(TYPE, side, trans, m, n, k, A, lda, tau, C, ldc);                      \
    }

QR_API(s, ormqr, float, KERN_S)
QR_API(d, ormqr, double, KERN_D)
QR_API(c, unmqr, float _Complex, KERN_C)
QR_API(z, unmqr, double _Complex, KERN_Z)
