/* The host LAPACK's routines for the Cholesky family's diagonal tiles, LU's panels and QR's
 * tasks,
 * reached through pointers looked up at run time as the host BLAS's are
 * (host_blas.h): in the host BLAS library when it holds LAPACK (OpenBLAS
 * does), else in liblapack.so.3, never in a Tessera library, whose legacy
 * layer may export the same names. */
#ifndef HOST_LAPACK_H
#define HOST_LAPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tessera.h"

/* Fortran's calling convention, LP64: integers by address, one hidden length
 * per character argument. */
typedef void host_potrf_fn(const char *uplo, const int *n, void *a, const int *lda, int *info,
                           size_t uplo_len);
typedef void host_trtri_fn(const char *uplo, const char *diag, const int *n, void *a,
                           const int *lda, int *info, size_t uplo_len, size_t diag_len);
typedef host_potrf_fn host_lauum_fn;
typedef void host_getrf_fn(const int *m, const int *n, void *a, const int *lda, int *ipiv,
                           int *info);
typedef void host_geqrf_fn(const int *m, const int *n, void *a, const int *lda, void *tau,
                           void *work, const int *lwork, int *info);
typedef void host_larft_fn(const char *direct, const char *storev, const int *n, const int *k,
                           const void *v, const int *ldv, const void *tau, void *t, const int *ldt,
                           size_t direct_len, size_t storev_len);
typedef void host_larfb_fn(const char *side, const char *trans, const char *direct,
                           const char *storev, const int *m, const int *n, const int *k,
                           const void *v, const int *ldv, const void *t, const int *ldt, void *c,
                           const int *ldc, void *work, const int *ldwork, size_t side_len,
                           size_t trans_len, size_t direct_len, size_t storev_len);
typedef void host_ormqr_fn(const char *side, const char *trans, const int *m, const int *n,
                           const int *k, const void *a, const int *lda, const void *tau, void *c,
                           const int *ldc, void *work, const int *lwork, int *info, size_t side_len,
                           size_t trans_len);

/* Indexed by kern_type_t. */
typedef struct {
    host_potrf_fn *potrf[4];
    host_trtri_fn *trtri[4];
    host_lauum_fn *lauum[4];
    host_getrf_fn *getrf[4];
    host_geqrf_fn *geqrf[4];
    host_ormqr_fn *ormqr[4]; /* ?ormqr_ for s, d; ?unmqr_ for c, z */
    host_larft_fn *larft[4];
    host_larfb_fn *larfb[4];
} host_lapack_t;

/* The library they are taken from (the host BLAS when it has dpotrf_, else
 * liblapack.so.3), or NULL; the legacy library's host LAPACK as well. */
void *host_lapack_library(void);

/* The table, filled once; NULL when no library holds all of them. */
const host_lapack_t *host_lapack(void);

/* The host backend's diagonal-tile kernels of type t (kern.h's potrf, trtri and lauum):
 * TESS_ECONFIG when there is no host LAPACK. */
int host_lapack_potrf(int t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info,
                      int64_t offset);
int host_lapack_trtri(int t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A, int64_t lda,
                      int64_t *info, int64_t offset);
int host_lapack_diag_zero(int t, int64_t n, const void *A, int64_t lda, int64_t *info,
                          int64_t offset);
int host_lapack_any_nonzero(int t, int64_t m, int64_t n, const void *A, int64_t lda, int64_t *info,
                            int64_t offset);
int host_lapack_amax(int t, int64_t m, int64_t n, const void *A, int64_t lda, double *amax);
int host_lapack_lauum(int t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
/* kern.h's getrf and laswp; laswp is a loop of its own (LAPACK's takes 32-bit pivots). */
int host_lapack_getrf(int t, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                      int64_t *info, int64_t offset);
void host_lapack_laswp(size_t es, int64_t m, int64_t n, void *A, int64_t lda, int64_t k1,
                       int64_t k2, const int64_t *ipiv, bool forward);
/* kern.h's geqrf and ormqr; ormqr applies a copy of V with a unit diagonal and zeros above it,
 * since LAPACK's ?orm2r sets V's diagonal to one for a moment */
int host_lapack_geqrf(int t, int64_t m, int64_t n, void *A, int64_t lda, void *tau);
int host_lapack_ormqr(int t, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n, int64_t k,
                      const void *V, int64_t ldv, const void *tau, void *C, int64_t ldc);
/* kern.h's larft and larfb: LAPACK's read V below its diagonal only and never write it. */
int host_lapack_larft(int t, int64_t m, int64_t k, const void *V, int64_t ldv, const void *tau,
                      void *T, int64_t ldt);
int host_lapack_larfb(int t, tess_trans_t trans, int64_t m, int64_t n, int64_t k, const void *V,
                      int64_t ldv, const void *T, int64_t ldt, void *C, int64_t ldc);

#endif
