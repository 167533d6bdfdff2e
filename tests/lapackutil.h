/* The helpers of the LAPACK suites (test_potrf.c, test_potri.c, test_getrf.c, test_laswp.c,
 * test_geqrf.c):
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

int tl_getrf_async(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                   int64_t *info);
int tl_getrs_async(const tu_type_t *t, tess_trans_t trans, int64_t n, int64_t nrhs, const void *A,
                   int64_t lda, const int64_t *ipiv, void *B, int64_t ldb);
int tl_gesv_async(const tu_type_t *t, int64_t n, int64_t nrhs, void *A, int64_t lda, int64_t *ipiv,
                  void *B, int64_t ldb, int64_t *info);
int tl_laswp_async(const tu_type_t *t, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2,
                   const int64_t *ipiv, int64_t incx);

int tl_geqrf_async(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, void *tau);
/* ormqr for s, d; unmqr for c, z */
int tl_ormqr_async(const tu_type_t *t, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n,
                   int64_t k, const void *A, int64_t lda, const void *tau, void *C, int64_t ldc);
int tl_gels_async(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs,
                  void *A, int64_t lda, void *B, int64_t ldb, int64_t *info);

/* The m x n A made coherent on the host, and tess_sync, both asserted to succeed. */
void tl_sync_matrix(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld);
/* n pivots, each -1 until written; released with tl_release_pivots (the runtime's copies
 * dropped, then freed). */
int64_t *tl_pivots(int64_t n);
void tl_release_pivots(int64_t *ipiv, int64_t n);

/* The host LAPACK's routines; they return info. */
int tl_potrf_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
int tl_trtri_ref(const tu_type_t *t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A,
                 int64_t lda);
int tl_lauum_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
int tl_potri_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);

/* LAPACK's getrf and laswp, their 32-bit pivots as 64-bit ones (laswp reads the entries its
 * k1, k2 and incx name). */
int tl_getrf_ref(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv);
void tl_laswp_ref(const tu_type_t *t, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2,
                  const int64_t *ipiv, int64_t incx);
/* ||P L U - A0||_F / (max(m, n) eps ||A0||_F), the factors of the m x n A0 in LU with getrf's
 * pivots ipiv (LAPACK's testers' dget01). */
double tl_lu_residual(const tu_type_t *t, int64_t m, int64_t n, const void *A0, const void *LU,
                      int64_t lda, const int64_t *ipiv);
/* ||op(A) X - B||_F / (n eps ||A||_F ||X||_F), A n x n, B and X n x nrhs (dget02). */
double tl_solve_residual(const tu_type_t *t, tess_trans_t trans, int64_t n, int64_t nrhs,
                         const void *A, int64_t lda, const void *B, const void *X, int64_t ldb);

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

/* Calls that pick their own tiles (the tile size unset, as users' calls run): a call's tiles
 * are the largest, tess_stats_t.nb, or nb/2, nb/4 (or nb/8, complex types), the smallest for
 * an order of a few of them (blas3/tiling.c).  The cases take the order nb/2 + 16 (400 on host
 * devices: tiles of 192 for real types, of 96 for complex ones) and fail at the first column,
 * on either side of nb/8 and of nb/4 (the last column of a tile and the first of the next,
 * for tiles of either size), inside a later tile and at the last column (k = n).  Whatever
 * tiles a call takes, INFO must be LAPACK's. */
#define TL_DEFAULT_TILE_POSITIONS 7
int64_t tl_default_tile_order(void);
void tl_default_tile_positions(int64_t n, int64_t ks[TL_DEFAULT_TILE_POSITIONS]);
/* Fails unless a POTRF of order n in type t takes more than one tile (one task): otherwise
 * no case of order n tests a tile's offset. */
void tl_assert_several_tiles(const tu_type_t *t, int64_t n);

/* Bytes a coherent request for A (m x n, lda) copies from the devices, waited for: 0 when
 * a factorization already wrote its factor back behind its steps (lapack/README.md). */
uint64_t tl_coherent_bytes(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t lda);

#endif
