/* The Cholesky family's test helpers (lapackutil.h). */
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
