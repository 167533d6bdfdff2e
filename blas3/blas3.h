/* The precision-generic BLAS-3 algorithms (README.md in this folder says how
 * a routine is added).  Each routine is a blas_<name>() taking the element
 * type t and its scalars by address: it checks its arguments (check.h), takes
 * reference BLAS's quick returns, then hands its operands to blas_run
 * (tile/tile.h) with a submit function that cuts the call into tile tasks. */
#ifndef BLAS3_H
#define BLAS3_H

#include "tile.h"

int blas_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
              const void *beta, void *C, int64_t ldc);
int blas_symm(kern_type_t t, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,
              const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
              const void *beta, void *C, int64_t ldc);
/* herm: alpha and beta real */
int blas_syrk(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *beta, void *C,
              int64_t ldc);
/* herm: beta real */
int blas_syr2k(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
               const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *beta, void *C, int64_t ldc);
int blas_gemmt(kern_type_t t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
               int64_t k, const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *beta, void *C, int64_t ldc);
/* B = alpha op(A)^-1 B (side left) or alpha B op(A)^-1 (right), in place */
int blas_trsm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
              tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
              void *B, int64_t ldb);
/* B = alpha op(A) B (side left) or alpha B op(A) (right), in place */
int blas_trmm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
              tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
              void *B, int64_t ldb);

#endif
