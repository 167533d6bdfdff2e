/* The argument checks of the Cholesky family and QR, for the runtime's entry points
 * and the legacy layer alike: 0 when every argument is valid, else -i for the
 * first invalid argument i in reference LAPACK's order and numbering.  Beyond
 * LAPACK, an operand the call would read or write must not be NULL, and
 * neither may info, each at its own position. */
#ifndef LAPACK_CHECK_H
#define LAPACK_CHECK_H

#include <stdbool.h>
#include <stdbool.h>
#include <stdint.h>
#include "tessera.h"

/* geqrf (m, n, A, lda, tau) */
int check_geqrf(int64_t m, int64_t n, const void *A, int64_t lda, const void *tau);
/* ormqr for real types, unmqr for complex ones (side, trans, m, n, k, A, lda, tau, C, ldc):
 * trans N or T (real), N or C (complex), 0 <= k <= the order of Q */
int check_ormqr(bool complex_type, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n,
                int64_t k, const void *A, int64_t lda, const void *tau, const void *C, int64_t ldc);
/* gels (trans, m, n, nrhs, A, lda, B, ldb, info), ldb >= max(1, m, n) */
int check_gels(bool complex_type, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs,
               const void *A, int64_t lda, const void *B, int64_t ldb, const int64_t *info);

#ifdef __cplusplus
extern "C" {
#endif

/* potrf (uplo, n, A, lda, info), lauum (info NULL and not checked: it has none) and potri */
int check_potrf(tess_uplo_t uplo, int64_t n, const void *A, int64_t lda, const int64_t *info);
int check_lauum(tess_uplo_t uplo, int64_t n, const void *A, int64_t lda);
/* potrs (uplo, n, nrhs, A, lda, B, ldb) and posv (..., info) */
int check_potrs(tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                const void *B, int64_t ldb);
int check_posv(tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda, const void *B,
               int64_t ldb, const int64_t *info);
/* trtri (uplo, diag, n, A, lda, info) */
int check_trtri(tess_uplo_t uplo, tess_diag_t diag, int64_t n, const void *A, int64_t lda,
                const int64_t *info);

/* getrf (m, n, A, lda, ipiv, info); getrs (trans, n, nrhs, A, lda, ipiv, B, ldb); gesv (n,
 * nrhs, A, lda, ipiv, B, ldb, info) */
int check_getrf(int64_t m, int64_t n, const void *A, int64_t lda, const int64_t *ipiv,
                const int64_t *info);
int check_getrs(tess_trans_t trans, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                const int64_t *ipiv, const void *B, int64_t ldb);
int check_gesv(int64_t n, int64_t nrhs, const void *A, int64_t lda, const int64_t *ipiv,
               const void *B, int64_t ldb, const int64_t *info);
/* laswp (n, A, lda, k1, k2, ipiv, incx), which LAPACK does not check: n < 0, lda < 1, k1 < 1,
 * a row past lda (k2 > lda) and an incx whose stride through ipiv overflows are errors; k2 < k1
 * or incx 0 do nothing (lapack_laswp_empty) */
int check_laswp(int64_t n, const void *A, int64_t lda, int64_t k1, int64_t k2, const int64_t *ipiv,
                int64_t incx);
static inline bool lapack_laswp_empty(int64_t n, int64_t k1, int64_t k2, int64_t incx)
{
    return n == 0 || k2 < k1 || incx == 0;
}

#ifdef __cplusplus
}
#endif
#endif
