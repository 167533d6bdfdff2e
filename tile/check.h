/* The argument checks of every BLAS routine, one function per routine, for
 * the runtime's entry points, the device API and the legacy layer alike.
 *
 * Each returns 0 when every argument is valid, else -i for the first invalid
 * argument i in reference BLAS's order and numbering (1-based, the reference
 * routine's argument list).  Beyond reference BLAS, an operand the call would
 * read or write must not be NULL; one it never touches (A and B when alpha is
 * 0 or k is 0, C when it is empty) may be.  Scalars are passed by address in
 * the routine's element type t; herm marks the Hermitian routines (hemm,
 * herk, her2k), whose trans rules differ and whose herk alpha is real. */
#ifndef BLAS3_CHECK_H
#define BLAS3_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include "kern.h"
#include "options.h"

#ifdef __cplusplus
extern "C" {
#endif

int check_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,
               const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *C, int64_t ldc);
int check_symm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,
               const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *C, int64_t ldc);
int check_syrk(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
               const void *alpha, const void *A, int64_t lda, const void *C, int64_t ldc);
int check_syr2k(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                int64_t ldb, const void *C, int64_t ldc);
int check_gemmt(kern_type_t t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
                int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                int64_t ldb, const void *C, int64_t ldc);
/* trsm and trmm */
int check_trxm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
               tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A,
               int64_t lda, const void *B, int64_t ldb);
int check_gemv(kern_type_t t, tess_trans_t trans, int64_t m, int64_t n, const void *alpha,
               const void *A, int64_t lda, const void *x, int64_t incx, const void *y,
               int64_t incy);
/* symv and hemv */
int check_symv(kern_type_t t, tess_uplo_t uplo, int64_t n, const void *alpha, const void *A,
               int64_t lda, const void *x, int64_t incx, const void *y, int64_t incy);

#ifdef __cplusplus
}
#endif
#endif
