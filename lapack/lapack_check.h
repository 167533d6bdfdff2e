/* The argument checks of the Cholesky family, for the runtime's entry points
 * and the legacy layer alike: 0 when every argument is valid, else -i for the
 * first invalid argument i in reference LAPACK's order and numbering.  Beyond
 * LAPACK, an operand the call would read or write must not be NULL, and
 * neither may info, each at its own position. */
#ifndef LAPACK_CHECK_H
#define LAPACK_CHECK_H

#include <stdint.h>
#include "tessera.h"

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

#ifdef __cplusplus
}
#endif
#endif
