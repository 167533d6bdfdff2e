/* The helpers of the Cholesky family's suites (test_potrf.c, test_potri.c):
 * the routines dispatched on the type like testutil's, their references from
 * the host LAPACK (OpenBLAS's), Hermitian positive definite matrices and the
 * residuals the suites bound. */
#ifndef LAPACKUTIL_H
#define LAPACKUTIL_H

#include "testutil.h"

/* The bound on every residual below: LAPACK's own testers' threshold. */
#define TL_BOUND 30.0

int tl_potrf_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda,
                   int64_t *info);
int tl_potrs_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A,
                   int64_t lda, void *B, int64_t ldb);
int tl_posv_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t nrhs, void *A,
                  int64_t lda, void *B, int64_t ldb, int64_t *info);
int tl_trtri_async(const tu_type_t *t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A,
                   int64_t lda, int64_t *info);
int tl_lauum_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
int tl_potri_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda,
                   int64_t *info);

int tl_geqrf_async(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, void *tau);
/* ormqr for s, d; unmqr for c, z */
int tl_ormqr_async(const tu_type_t *t, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n,
                   int64_t k, const void *A, int64_t lda, const void *tau, void *C, int64_t ldc);
int tl_gels_async(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs,
                  void *A, int64_t lda, void *B, int64_t ldb, int64_t *info);

/* The host LAPACK's routines; they return info. */
int tl_potrf_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
int tl_trtri_ref(const tu_type_t *t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A,
                 int64_t lda);
int tl_lauum_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
int tl_potri_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);

int tl_geqrf_ref(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, void *tau);
/* Q's first n columns (m >= n >= k) in A from the k reflectors in A's first k columns: ?orgqr,
 * ?ungqr */
int tl_orgqr_ref(const tu_type_t *t, int64_t m, int64_t n, int64_t k, void *A, int64_t lda,
                 const void *tau);
int tl_gels_ref(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs, void *A,
                int64_t lda, void *B, int64_t ldb);

/* An n x n Hermitian (symmetric) positive definite matrix in ld, both
 * triangles stored: random off the diagonal, n + 1 on it, so that it is
 * well conditioned. */
void *tl_hpd(const tu_type_t *t, int64_t n, int64_t ld, unsigned seed);
/* The dense n x n (ld n) Hermitian matrix whose uplo triangle is at A. */
void *tl_herm_dense(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t lda);

/* ||A0 - L L^H||_F / (n eps ||A0||_F) (U^H U for Upper), the factor in A's uplo triangle, A0
 * the Hermitian matrix stored in A0's uplo triangle. */
double tl_factor_residual(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A0,
                          const void *A, int64_t lda);
/* ||X - R||_F / (n eps ||R||_F) over the uplo triangles: a result against LAPACK's. */
double tl_tri_error(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *X, const void *R,
                    int64_t lda);
/* ||M Minv - I||_F / (n eps ||M||_F ||Minv||_F): M and Minv dense n x n (ld n). */
double tl_inverse_residual(const tu_type_t *t, int64_t n, const void *M, const void *Minv);

#endif
