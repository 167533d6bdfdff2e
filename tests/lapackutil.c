/* The LAPACK suites' test helpers (lapackutil.h). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "lapackutil.h"

static int kind(const tu_type_t *t)
{
    return (int)(t - tu_types);
}

#define TL_DISPATCH(t, call)                                                                       \
    switch (kind(t)) {                                                                             \
    case 0: return tess_s##call;                                                                   \
    case 1: return tess_d##call;                                                                   \
    case 2: return tess_c##call;                                                                   \
    default: return tess_z##call;                                                                  \
    }

int tl_potrf_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda,
                   int64_t *info)
{
    TL_DISPATCH(t, potrf_async(uplo, n, A, lda, info))
}

int tl_potrs_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A,
                   int64_t lda, void *B, int64_t ldb)
{
    TL_DISPATCH(t, potrs_async(uplo, n, nrhs, A, lda, B, ldb))
}

int tl_posv_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t nrhs, void *A,
                  int64_t lda, void *B, int64_t ldb, int64_t *info)
{
    TL_DISPATCH(t, posv_async(uplo, n, nrhs, A, lda, B, ldb, info))
}

int tl_trtri_async(const tu_type_t *t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A,
                   int64_t lda, int64_t *info)
{
    TL_DISPATCH(t, trtri_async(uplo, diag, n, A, lda, info))
}

int tl_lauum_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)
{
    TL_DISPATCH(t, lauum_async(uplo, n, A, lda))
}

int tl_potri_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda,
                   int64_t *info)
{
    TL_DISPATCH(t, potri_async(uplo, n, A, lda, info))
}

int tl_getrf_async(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                   int64_t *info)
{
    TL_DISPATCH(t, getrf_async(m, n, A, lda, ipiv, info))
}

int tl_getrs_async(const tu_type_t *t, tess_trans_t trans, int64_t n, int64_t nrhs, const void *A,
                   int64_t lda, const int64_t *ipiv, void *B, int64_t ldb)
{
    TL_DISPATCH(t, getrs_async(trans, n, nrhs, A, lda, ipiv, B, ldb))
}

int tl_gesv_async(const tu_type_t *t, int64_t n, int64_t nrhs, void *A, int64_t lda, int64_t *ipiv,
                  void *B, int64_t ldb, int64_t *info)
{
    TL_DISPATCH(t, gesv_async(n, nrhs, A, lda, ipiv, B, ldb, info))
}

int tl_laswp_async(const tu_type_t *t, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2,
                   const int64_t *ipiv, int64_t incx)
{
    TL_DISPATCH(t, laswp_async(n, A, lda, k1, k2, ipiv, incx))
}

int tl_geqrf_async(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, void *tau)
{
    TL_DISPATCH(t, geqrf_async(m, n, A, lda, tau))
}

int tl_ormqr_async(const tu_type_t *t, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n,
                   int64_t k, const void *A, int64_t lda, const void *tau, void *C, int64_t ldc)
{
    switch (kind(t)) {
    case 0: return tess_sormqr_async(side, trans, m, n, k, A, lda, tau, C, ldc);
    case 1: return tess_dormqr_async(side, trans, m, n, k, A, lda, tau, C, ldc);
    case 2: return tess_cunmqr_async(side, trans, m, n, k, A, lda, tau, C, ldc);
    default: return tess_zunmqr_async(side, trans, m, n, k, A, lda, tau, C, ldc);
    }
}

int tl_gels_async(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs,
                  void *A, int64_t lda, void *B, int64_t ldb, int64_t *info)
{
    TL_DISPATCH(t, gels_async(trans, m, n, nrhs, A, lda, B, ldb, info))
}

/* LAPACK's Fortran interface, LP64, from the host LAPACK linked in. */
typedef void uplo_fn(const char *, const int *, void *, const int *, int *, size_t);
typedef void trtri_fn(const char *, const char *, const int *, void *, const int *, int *, size_t,
                      size_t);
extern uplo_fn spotrf_, dpotrf_, cpotrf_, zpotrf_, slauum_, dlauum_, clauum_, zlauum_, spotri_,
    dpotri_, cpotri_, zpotri_;
extern trtri_fn strtri_, dtrtri_, ctrtri_, ztrtri_;

static int call_uplo(uplo_fn *const fns[4], const tu_type_t *t, tess_uplo_t uplo, int64_t n,
                     void *A, int64_t lda)
{
    int in = (int)n, ilda = (int)lda, info = 0;
    fns[kind(t)](uplo == TessLower ? "L" : "U", &in, A, &ilda, &info, 1);
    return info;
}

void tl_sync_matrix(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld)
{
    assert_int_equal(tess_memory_coherent_async(TessAll, m, n, A, ld, t->es), 0);
    assert_int_equal(tess_sync(), 0);
}

int64_t *tl_pivots(int64_t n)
{
    int64_t *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    assert_non_null(p);
    for (int64_t i = 0; i < n; i++)
        p[i] = -1;
    return p;
}

void tl_release_pivots(int64_t *ipiv, int64_t n)
{
    assert_int_equal(tess_memory_invalidate(n > 0 ? n : 1, 1, ipiv, n > 0 ? n : 1, 8), 0);
    free(ipiv);
}

int tl_potrf_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)
{
    static uplo_fn *const fns[4] = { spotrf_, dpotrf_, cpotrf_, zpotrf_ };
    return call_uplo(fns, t, uplo, n, A, lda);
}

int tl_lauum_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)
{
    static uplo_fn *const fns[4] = { slauum_, dlauum_, clauum_, zlauum_ };
    return call_uplo(fns, t, uplo, n, A, lda);
}

int tl_potri_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)
{
    static uplo_fn *const fns[4] = { spotri_, dpotri_, cpotri_, zpotri_ };
    return call_uplo(fns, t, uplo, n, A, lda);
}

int tl_trtri_ref(const tu_type_t *t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A,
                 int64_t lda)
{
    static trtri_fn *const fns[4] = { strtri_, dtrtri_, ctrtri_, ztrtri_ };
    int in = (int)n, ilda = (int)lda, info = 0;
    fns[kind(t)](uplo == TessLower ? "L" : "U", diag == TessUnit ? "U" : "N", &in, A, &ilda, &info,
                 1, 1);
    return info;
}

typedef void getrf_fn(const int *, const int *, void *, const int *, int *, int *);
typedef void laswp_fn(const int *, void *, const int *, const int *, const int *, const int *,
                      const int *);
extern getrf_fn sgetrf_, dgetrf_, cgetrf_, zgetrf_;
extern laswp_fn slaswp_, dlaswp_, claswp_, zlaswp_;

int tl_getrf_ref(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv)
{
    static getrf_fn *const fns[4] = { sgetrf_, dgetrf_, cgetrf_, zgetrf_ };
    int64_t mn = m < n ? m : n;
    int im = (int)m, in = (int)n, ilda = (int)lda, info = 0, *piv = calloc((size_t)mn + 1, 4);
    fns[kind(t)](&im, &in, A, &ilda, piv, &info);
    for (int64_t i = 0; i < mn; i++)
        ipiv[i] = piv[i];
    free(piv);
    return info;
}

void tl_laswp_ref(const tu_type_t *t, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2,
                  const int64_t *ipiv, int64_t incx)
{
    static laswp_fn *const fns[4] = { slaswp_, dlaswp_, claswp_, zlaswp_ };
    int64_t s = incx > 0 ? incx : -incx;
    int *piv = calloc((size_t)(k1 + (k2 - k1) * s), 4);
    /* the entries laswp reads: ipiv(k1 + (i - k1)|incx|) for row i, whatever incx's sign */
    for (int64_t i = 0; i <= k2 - k1; i++)
        piv[k1 - 1 + i * s] = (int)ipiv[k1 - 1 + i * s];
    int in = (int)n, ilda = (int)lda, ik1 = (int)k1, ik2 = (int)k2, iinc = (int)incx;
    fns[kind(t)](&in, A, &ilda, &ik1, &ik2, piv, &iinc);
    free(piv);
}

double tl_lu_residual(const tu_type_t *t, int64_t m, int64_t n, const void *A0, const void *LU,
                      int64_t lda, const int64_t *ipiv)
{
    int64_t mn = m < n ? m : n;
    void *L = tu_alloc(t, m, mn), *U = tu_alloc(t, mn, n), *R = tu_alloc(t, m, n);
    for (int64_t j = 0; j < mn; j++)
        for (int64_t i = 0; i < m; i++)
            tu_set(t, L, i, j, m, i > j ? tu_get(t, LU, i, j, lda) : i == j ? 1.0 : 0.0);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < mn; i++)
            tu_set(t, U, i, j, mn, i <= j ? tu_get(t, LU, i, j, lda) : 0.0);
    /* R = P^T A0, the swaps applied in order, less L U */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            tu_set(t, R, i, j, m, tu_get(t, A0, i, j, lda));
    for (int64_t i = 0; i < mn; i++)
        for (int64_t j = 0; j < n; j++) {
            double _Complex v = tu_get(t, R, i, j, m);
            tu_set(t, R, i, j, m, tu_get(t, R, ipiv[i] - 1, j, m));
            tu_set(t, R, ipiv[i] - 1, j, m, v);
        }
    tu_gemm_ref(t, TessNoTrans, TessNoTrans, m, n, mn, -1.0, L, m, U, mn, 1.0, R, m);
    double norm = tu_norm(t, A0, m, n, lda), big = (double)(m > n ? m : n);
    double r = tu_norm(t, R, m, n, m) / (big * t->eps * (norm > 0 ? norm : 1));
    free(L);
    free(U);
    free(R);
    return r;
}

double tl_solve_residual(const tu_type_t *t, tess_trans_t trans, int64_t n, int64_t nrhs,
                         const void *A, int64_t lda, const void *B, const void *X, int64_t ldb)
{
    void *R = tu_copy(t, B, ldb, nrhs);
    tu_gemm_ref(t, trans, TessNoTrans, n, nrhs, n, 1.0, A, lda, X, ldb, -1.0, R, ldb);
    double r = tu_norm(t, R, n, nrhs, ldb) /
               ((double)n * t->eps * tu_norm(t, A, n, n, lda) * tu_norm(t, X, n, nrhs, ldb));
    free(R);
    return r;
}

void *tl_hpd(const tu_type_t *t, int64_t n, int64_t ld, unsigned seed)
{
    void *A = tu_matrix(t, ld, n, seed);
    for (int64_t j = 0; j < n; j++) {
        tu_set(t, A, j, j, ld, (double)n + 1.0);
        for (int64_t i = j + 1; i < n; i++)
            tu_set(t, A, j, i, ld, conj(tu_get(t, A, i, j, ld)));
    }
    return A;
}

void *tl_herm_dense(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t lda)
{
    void *M = tu_alloc(t, n, n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double _Complex v = tu_in_triangle(uplo, i, j) ? tu_get(t, A, i, j, lda)
                                                           : conj(tu_get(t, A, j, i, lda));
            tu_set(t, M, i, j, n, i == j ? creal(v) : v);
        }
    return M;
}

double tl_factor_residual(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A0,
                          const void *A, int64_t lda)
{
    void *M = tl_herm_dense(t, uplo, n, A0, lda);
    void *F = tu_tri_dense(t, A, n, lda, uplo, TessNonUnit);
    double norm = tu_norm(t, M, n, n, n);
    /* M - L L^H, or M - U^H U */
    if (uplo == TessLower)
        tu_gemm_ref(t, TessNoTrans, TessConjTrans, n, n, n, -1.0, F, n, F, n, 1.0, M, n);
    else
        tu_gemm_ref(t, TessConjTrans, TessNoTrans, n, n, n, -1.0, F, n, F, n, 1.0, M, n);
    double r = tu_norm(t, M, n, n, n) / ((double)n * t->eps * norm);
    free(M);
    free(F);
    return r;
}

double tl_tri_error(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *X, const void *R,
                    int64_t lda)
{
    if (n == 0)
        return 0;
    double norm = tu_tri_norm(t, uplo, n, R, lda);
    return tu_tri_diff(t, uplo, n, X, R, lda) / ((double)n * t->eps * (norm > 0 ? norm : 1));
}

double tl_inverse_residual(const tu_type_t *t, int64_t n, const void *M, const void *Minv)
{
    void *P = tu_alloc(t, n, n);
    tu_fill(t, P, n, n, n, 0.0);
    for (int64_t i = 0; i < n; i++)
        tu_set(t, P, i, i, n, 1.0);
    tu_gemm_ref(t, TessNoTrans, TessNoTrans, n, n, n, 1.0, M, n, Minv, n, -1.0, P, n);
    double r = tu_norm(t, P, n, n, n) /
               ((double)n * t->eps * tu_norm(t, M, n, n, n) * tu_norm(t, Minv, n, n, n));
    free(P);
    return r;
}

static int64_t largest_tile(void)
{
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    return s.nb;
}

int64_t tl_default_tile_order(void)
{
    return largest_tile() / 2 + 16;
}

void tl_default_tile_positions(int64_t n, int64_t ks[TL_DEFAULT_TILE_POSITIONS])
{
    int64_t nb = largest_tile();
    int64_t k[TL_DEFAULT_TILE_POSITIONS] = { 1,          nb / 8,         nb / 8 + 1, nb / 4,
                                             nb / 4 + 1, 3 * nb / 8 + 5, n };
    for (int i = 0; i < TL_DEFAULT_TILE_POSITIONS; i++) {
        assert_true(k[i] >= 1 && k[i] <= n);
        ks[i] = k[i];
    }
}

void tl_assert_several_tiles(const tu_type_t *t, int64_t n)
{
    void *A = tl_hpd(t, n, n, 5);
    int64_t info = -1;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tl_potrf_async(t, TessLower, n, A, n, &info), 0);
    assert_int_equal(tess_sync(), 0);
    uint64_t tasks = tu_tasks_run() - before;
    assert_int_equal(info, 0);
    if (tasks < 2)
        fail_msg("%spotrf of order %lld took one tile: the cases of this order test no tile "
                 "offset",
                 t->name, (long long)n);
    tu_release(t, A, n, n);
}

typedef void geqrf_fn(const int *, const int *, void *, const int *, void *, void *, const int *,
                      int *);
typedef void orgqr_fn(const int *, const int *, const int *, void *, const int *, const void *,
                      void *, const int *, int *);
typedef void gels_fn(const char *, const int *, const int *, const int *, void *, const int *,
                     void *, const int *, void *, const int *, int *, size_t);
extern geqrf_fn sgeqrf_, dgeqrf_, cgeqrf_, zgeqrf_;
extern orgqr_fn sorgqr_, dorgqr_, cungqr_, zungqr_;
extern gels_fn sgels_, dgels_, cgels_, zgels_;

/* LAPACK's workspace: generous, so that no query is needed */
static void *work(const tu_type_t *t, int64_t m, int64_t n, int64_t nrhs, int *lwork)
{
    *lwork = (int)((m + n + nrhs + 1) * 64);
    return tu_alloc(t, *lwork, 1);
}

int tl_geqrf_ref(const tu_type_t *t, int64_t m, int64_t n, void *A, int64_t lda, void *tau)
{
    static geqrf_fn *const fns[4] = { sgeqrf_, dgeqrf_, cgeqrf_, zgeqrf_ };
    int im = (int)m, in = (int)n, ilda = (int)lda, lwork, info = 0;
    void *w = work(t, m, n, 0, &lwork);
    fns[kind(t)](&im, &in, A, &ilda, tau, w, &lwork, &info);
    free(w);
    return info;
}

int tl_orgqr_ref(const tu_type_t *t, int64_t m, int64_t n, int64_t k, void *A, int64_t lda,
                 const void *tau)
{
    static orgqr_fn *const fns[4] = { sorgqr_, dorgqr_, cungqr_, zungqr_ };
    int im = (int)m, in = (int)n, ik = (int)k, ilda = (int)lda, lwork, info = 0;
    void *w = work(t, m, n, 0, &lwork);
    fns[kind(t)](&im, &in, &ik, A, &ilda, tau, w, &lwork, &info);
    free(w);
    return info;
}

int tl_gels_ref(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs, void *A,
                int64_t lda, void *B, int64_t ldb)
{
    static gels_fn *const fns[4] = { sgels_, dgels_, cgels_, zgels_ };
    const char *tr = trans == TessNoTrans ? "N" : t->is_complex ? "C" : "T";
    int im = (int)m, in = (int)n, ir = (int)nrhs, ilda = (int)lda, ildb = (int)ldb, lwork, info = 0;
    void *w = work(t, m, n, nrhs, &lwork);
    fns[kind(t)](tr, &im, &in, &ir, A, &ilda, B, &ildb, w, &lwork, &info, 1);
    free(w);
    return info;
}

uint64_t tl_coherent_bytes(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t lda)
{
    tess_stats_t s0, s1;
    assert_int_equal(tess_get_stats(&s0), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, m, n, A, lda, t->es), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tess_get_stats(&s1), 0);
    return s1.bytes_d2h - s0.bytes_d2h;
}
