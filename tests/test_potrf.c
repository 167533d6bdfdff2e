/* POTRF, POTRS and POSV on the host backend (host:2, nb = 16): both
 * triangles, the four precisions, orders of one tile, of 4 and 5 tiles and
 * off the grid, leading dimensions larger than the order.  Then with the
 * tile size unset, each call picking its own tiles (lapackutil.h): the
 * factor, the solve and INFO at each position in and across tiles.
 *
 * Bounds (TL_BOUND, LAPACK's testers' threshold of 30):
 *   factor:  ||A - L L^H||_F / (n eps ||A||_F), and ||L - Lref||_F / (n eps ||Lref||_F)
 *            against the host LAPACK's factor of the same matrix;
 *   solve:   ||A X - B||_F / (n eps ||A||_F ||X||_F).
 * The matrices are diagonally dominant (n + 1 on the diagonal), so well
 * conditioned; the other triangle holds NaN, which must come back bit for
 * bit. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lapackutil.h"

#define NB TU_NB

static const tess_uplo_t uplos[] = { TessLower, TessUpper };
static const int64_t orders[] = { 1, NB, 4 * NB, 5 * NB, 37, 3 * NB + 1 };

/* A positive definite matrix with NaN in the strict triangle opposite to uplo. */
static void *hpd_nan(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t lda, unsigned seed)
{
    void *A = tl_hpd(t, n, lda, seed);
    tu_fill_other_triangle(t, uplo, n, A, lda, NAN);
    return A;
}

/* ||A X - B||_F / (n eps ||A||_F ||X||_F), A Hermitian in A0's uplo triangle. */
static double solve_residual(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t nrhs,
                             const void *A0, int64_t lda, const void *B0, const void *X,
                             int64_t ldb)
{
    void *M = tl_herm_dense(t, uplo, n, A0, lda), *R = tu_copy(t, B0, ldb, nrhs);
    tu_gemm_ref(t, TessNoTrans, TessNoTrans, n, nrhs, n, 1.0, M, n, X, ldb, -1.0, R, ldb);
    double r = tu_norm(t, R, n, nrhs, ldb) /
               ((double)n * t->eps * tu_norm(t, M, n, n, n) * tu_norm(t, X, n, nrhs, ldb));
    free(M);
    free(R);
    return r;
}

static void factor_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n)
{
    int64_t lda = n + 3;
    void *A = hpd_nan(t, uplo, n, lda, (unsigned)(n + uplo));
    void *A0 = tu_copy(t, A, lda, n), *R = tu_copy(t, A, lda, n);
    int64_t info = -7;
    assert_int_equal(tl_potrf_async(t, uplo, n, A, lda, &info), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(info, 0);
    assert_int_equal(tl_potrf_ref(t, uplo, n, R, lda), 0);
    double res = tl_factor_residual(t, uplo, n, A0, A, lda),
           err = tl_tri_error(t, uplo, n, A, R, lda);
    if (!(res < TL_BOUND) || !(err < TL_BOUND))
        fail_msg("%spotrf uplo %d n %lld: residual %g, error against LAPACK %g", t->name, uplo,
                 (long long)n, res, err);
    assert_true(tu_other_triangle_same(t, uplo, n, A, A0, lda));
    /* A's rows below n are not A's */
    assert_true(tu_diff(t, (char *)A + n * t->es, (char *)A0 + n * t->es, 3, n, lda) == 0);
    tu_release(t, A, lda, n);
    free(A0);
    free(R);
}

static void potrf_factors_both_triangles_in_every_precision_on_and_off_the_grid(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (size_t k = 0; k < sizeof orders / sizeof *orders; k++)
                factor_case(&tu_types[ti], uplos[u], orders[k]);
}

static void solve_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t nrhs, bool posv)
{
    int64_t lda = n + 2, ldb = n + 5;
    void *A = hpd_nan(t, uplo, n, lda, (unsigned)(3 * n + uplo)), *A0 = tu_copy(t, A, lda, n);
    void *B = tu_matrix(t, ldb, nrhs, (unsigned)(n + nrhs)), *B0 = tu_copy(t, B, ldb, nrhs);
    int64_t info = -7;
    if (posv) {
        assert_int_equal(tl_posv_async(t, uplo, n, nrhs, A, lda, B, ldb, &info), 0);
    } else {
        /* the factor, then the solve, with no sync between them */
        assert_int_equal(tl_potrf_async(t, uplo, n, A, lda, &info), 0);
        assert_int_equal(tl_potrs_async(t, uplo, n, nrhs, A, lda, B, ldb), 0);
    }
    tl_sync_matrix(t, B, ldb, nrhs, ldb);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(info, 0);
    double res = solve_residual(t, uplo, n, nrhs, A0, lda, B0, B, ldb);
    double fres = tl_factor_residual(t, uplo, n, A0, A, lda);
    if (!(res < TL_BOUND) || !(fres < TL_BOUND))
        fail_msg("%s%s uplo %d n %lld nrhs %lld: solve residual %g, factor residual %g", t->name,
                 posv ? "posv" : "potrf+potrs", uplo, (long long)n, (long long)nrhs, res, fres);
    assert_true(tu_other_triangle_same(t, uplo, n, A, A0, lda));
    /* B's rows below n are not B's */
    assert_true(tu_diff(t, (char *)B + n * t->es, (char *)B0 + n * t->es, 5, nrhs, ldb) == 0);
    tu_release(t, A, lda, n);
    tu_release(t, B, ldb, nrhs);
    free(A0);
    free(B0);
}

static void potrs_after_potrf_solves_several_right_hand_sides_with_no_sync_between(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++) {
            solve_case(&tu_types[ti], uplos[u], 5 * NB, 2 * NB + 3, false);
            solve_case(&tu_types[ti], uplos[u], 37, 1, false);
        }
}

static void posv_factors_and_solves_in_every_precision(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++) {
            solve_case(&tu_types[ti], uplos[u], 4 * NB + 5, 3 * NB, true);
            solve_case(&tu_types[ti], uplos[u], NB, 7, true);
        }
}

/* A made indefinite at column k (1-based): its leading minor of order k is not positive
 * definite, those of lower order are. */
static void *indefinite_at(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t lda, int64_t k)
{
    void *A = hpd_nan(t, uplo, n, lda, (unsigned)(7 * n + k));
    tu_set(t, A, k - 1, k - 1, lda, -1.0);
    return A;
}

/* POTRF of A, or POSV of A and the n x nrhs B, both then made coherent; its info. */
static int64_t potrf_or_posv(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda,
                             int64_t nrhs, void *B, bool posv)
{
    int64_t info = -1;
    if (posv)
        assert_int_equal(tl_posv_async(t, uplo, n, nrhs, A, lda, B, n, &info), 0);
    else
        assert_int_equal(tl_potrf_async(t, uplo, n, A, lda, &info), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    tl_sync_matrix(t, B, n, nrhs, n);
    return info;
}

/* INFO exactly LAPACK's; the leading minor of order k - 1 holds its factor, and, with tiles
 * of nb forced (nb 0: the call picks its own), the columns (rows, Upper) of the tiles before
 * k's the factor of the matrix that was definite there; posv leaves B as it was, bit for bit. */
static void failure_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t k, bool posv,
                         int64_t nb)
{
    int64_t lda = n + 1, nrhs = 5;
    void *A = indefinite_at(t, uplo, n, lda, k), *A0 = tu_copy(t, A, lda, n);
    void *Ref = tu_copy(t, A, lda, n), *Good = hpd_nan(t, uplo, n, lda, (unsigned)(7 * n + k));
    void *B = tu_matrix(t, n, nrhs, 9), *B0 = tu_copy(t, B, n, nrhs);
    int64_t info = potrf_or_posv(t, uplo, n, A, lda, nrhs, B, posv);
    int ref_info = tl_potrf_ref(t, uplo, n, Ref, lda);
    assert_int_equal(ref_info, k);
    if (info != ref_info)
        fail_msg("%s%s uplo %c n %lld k %lld: info %lld, LAPACK's %d", t->name,
                 posv ? "posv" : "potrf", uplo == TessLower ? 'L' : 'U', (long long)n, (long long)k,
                 (long long)info, ref_info);
    assert_int_equal(tl_potrf_ref(t, uplo, n, Good, lda), 0);
    /* the leading k - 1 as LAPACK's; the tiles' columns before k's as the definite factor */
    double lead = tl_tri_error(t, uplo, k - 1, A, Ref, lda);
    int64_t done = nb ? (k - 1) / nb * nb : 0;
    double cols = 0;
    for (int64_t j = 0; j < done; j++)
        for (int64_t i = j; i < n; i++) {
            int64_t r = uplo == TessLower ? i : j, c = uplo == TessLower ? j : i;
            cols += pow(cabs(tu_get(t, A, r, c, lda) - tu_get(t, Good, r, c, lda)), 2);
        }
    cols = sqrt(cols) / ((double)n * t->eps * tu_tri_norm(t, uplo, n, Good, lda));
    if (!(lead < TL_BOUND) || !(cols < TL_BOUND))
        fail_msg("%s uplo %d n %lld k %lld: leading minor %g, finished columns %g", t->name, uplo,
                 (long long)n, (long long)k, lead, cols);
    assert_true(tu_other_triangle_same(t, uplo, n, A, A0, lda));
    if (!tu_same_outside(t, B, B0, n, nrhs, n, 0, 0, 0, 0))
        fail_msg("%sposv uplo %c n %lld k %lld: B changed though INFO > 0", t->name,
                 uplo == TessLower ? 'L' : 'U', (long long)n, (long long)k);
    tu_release(t, A, lda, n);
    tu_release(t, B, n, nrhs);
    free(A0);
    free(Ref);
    free(Good);
    free(B0);
}

static void potrf_reports_the_first_indefinite_minor_at_the_first_tile_and_deep_inside(void **state)
{
    (void)state;
    const int64_t n = 5 * NB + 3, ks[] = { 1, 5, NB + 1, 3 * NB + 7, n };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
                failure_case(&tu_types[ti], uplos[u], n, ks[i], false, NB);
}

static void posv_leaves_b_untouched_when_the_matrix_is_not_positive_definite(void **state)
{
    (void)state;
    const int64_t n = 4 * NB + 2, ks[] = { 1, 2 * NB + 3, n };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
                failure_case(&tu_types[ti], uplos[u], n, ks[i], true, NB);
}

/* NaN at (r, c) of uplo's triangle (r >= c for Lower), with c = r on the diagonal: the
 * reference LAPACK stops at the first pivot that is not a positive real, NaN included
 * (DPOTRF2), so INFO is the NaN's row r + 1 (its column for Upper) whether it is on the
 * diagonal or off it; the host LAPACK (OpenBLAS) misses it, so INFO is stated, not taken from
 * it.  The leading minor of order r is its factor as the host's; POSV leaves B bit for bit. */
static void nan_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t r, int64_t c,
                     bool posv)
{
    int64_t lda = n + 1, nrhs = 3;
    void *A = hpd_nan(t, uplo, n, lda, (unsigned)(5 * n + r));
    tu_set(t, A, uplo == TessLower ? r : c, uplo == TessLower ? c : r, lda, NAN);
    void *Ref = tu_copy(t, A, lda, n), *B = tu_matrix(t, n, nrhs, 4), *B0 = tu_copy(t, B, n, nrhs);
    int64_t info = potrf_or_posv(t, uplo, n, A, lda, nrhs, B, posv);
    tl_potrf_ref(t, uplo, n, Ref, lda);
    double lead = tl_tri_error(t, uplo, r, A, Ref, lda);
    if (info != r + 1 || !(lead < TL_BOUND) || !tu_same_outside(t, B, B0, n, nrhs, n, 0, 0, 0, 0))
        fail_msg("%s%s uplo %c n %lld NaN at (%lld, %lld): info %lld (the reference's %lld), "
                 "leading minor %g, B %s",
                 t->name, posv ? "posv" : "potrf", uplo == TessLower ? 'L' : 'U', (long long)n,
                 (long long)r, (long long)c, (long long)info, (long long)(r + 1), lead,
                 tu_same_outside(t, B, B0, n, nrhs, n, 0, 0, 0, 0) ? "kept" : "changed");
    tu_release(t, A, lda, n);
    tu_release(t, B, n, nrhs);
    free(Ref);
    free(B0);
}

static void potrf_and_posv_stop_at_a_nan_pivot_as_the_reference_lapack_does(void **state)
{
    (void)state;
    const int64_t n = 4 * NB + 3, at[][2] = {
        { 0, 0 }, { NB, NB }, { n - 1, n - 1 }, { 2 * NB + 5, 2 }, { 3 * NB, 3 * NB - 1 }
    };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
                nan_case(&tu_types[ti], uplos[u], n, at[i][0], at[i][1], false);
                nan_case(&tu_types[ti], uplos[u], n, at[i][0], at[i][1], true);
            }
}

/* A and B windows of one parent at offsets off the tile grid: every element of the parent
 * outside A's triangle and B is bitwise what it was. */
static void posv_on_submatrix_views_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[3];
    int64_t ld = 7 * NB + 3, n = 3 * NB + 5, nrhs = NB + 3, ai = 1, aj = 2, bi = 4, bj = n + 4;
    void *P = tu_matrix(t, ld, ld, 31);
    char *A = (char *)P + (size_t)(ai + aj * ld) * t->es,
         *B = (char *)P + (size_t)(bi + bj * ld) * t->es;
    void *H = tl_hpd(t, n, n, 32);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++)
            tu_set(t, A, i, j, ld, tu_get(t, H, i, j, n));
    void *Pref = tu_copy(t, P, ld, ld);
    int64_t info = -1;
    assert_int_equal(tl_posv_async(t, TessLower, n, nrhs, A, ld, B, ld, &info), 0);
    tl_sync_matrix(t, P, ld, ld, ld);
    assert_int_equal(info, 0);
    char *A0 = (char *)Pref + (A - (char *)P), *B0 = (char *)Pref + (B - (char *)P);
    double res = solve_residual(t, TessLower, n, nrhs, A0, ld, B0, B, ld);
    if (!(res < TL_BOUND))
        fail_msg("residual %g", res);
    for (int64_t j = 0; j < ld; j++)
        for (int64_t i = 0; i < ld; i++) {
            bool in_a = i >= ai + j - aj && i < ai + n && j >= aj && j < aj + n;
            bool in_b = i >= bi && i < bi + n && j >= bj && j < bj + nrhs;
            if (!in_a && !in_b)
                assert_true(tu_get(t, P, i, j, ld) == tu_get(t, Pref, i, j, ld));
        }
    tu_release(t, P, ld, ld);
    free(Pref);
    free(H);
}

/* One step of a blocked Cholesky composed by hand, with no sync: POTRF of the leading block,
 * TRSM of the panel below it, HERK of the trailing block, then POTRF of that block; the
 * whole equals the factor of the matrix.  Bound: the factor residual. */
static void potrf_trsm_and_herk_chained_on_views_need_no_sync_in_between(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t n = 5 * NB + 3, k = 2 * NB + 5, lda = n;
    double *A = tl_hpd(t, n, lda, 41), *A0 = tu_copy(t, A, lda, n);
    int64_t info1 = -1, info2 = -1;
    assert_int_equal(tess_dpotrf_async(TessLower, k, A, lda, &info1), 0);
    assert_int_equal(tess_dtrsm_async(TessRight, TessLower, TessTrans, TessNonUnit, n - k, k, 1.0,
                                      A, lda, A + k, lda),
                     0);
    assert_int_equal(tess_dsyrk_async(TessLower, TessNoTrans, n - k, k, -1.0, A + k, lda, 1.0,
                                      A + k + k * lda, lda),
                     0);
    assert_int_equal(tess_dpotrf_async(TessLower, n - k, A + k + k * lda, lda, &info2), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(info1, 0);
    assert_int_equal(info2, 0);
    double res = tl_factor_residual(t, TessLower, n, A0, A, lda);
    if (!(res < TL_BOUND))
        fail_msg("residual %g", res);
    tu_release(t, A, lda, n);
    free(A0);
}

static void potrf_with_n_zero_returns_at_once_with_info_zero(void **state)
{
    (void)state;
    double A[1] = { NAN }, B[1] = { NAN };
    int64_t info = 5;
    assert_int_equal(tess_dpotrf_async(TessLower, 0, NULL, 1, &info), 0);
    assert_int_equal(info, 0);
    info = 5;
    assert_int_equal(tess_zposv_async(TessUpper, 0, 3, NULL, 1, NULL, 1, &info), 0);
    assert_int_equal(info, 0);
    assert_int_equal(tess_spotrs_async(TessUpper, 1, 0, (float *)A, 1, NULL, 1), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(A[0]) && isnan(B[0]));
}

static void the_cholesky_solvers_reject_invalid_arguments_with_their_lapack_numbers(void **state)
{
    (void)state;
    double A[9] = { 4, 1, 1, 1, 4, 1, 1, 1, 4 }, B[6] = { 1, 2, 3, 4, 5, 6 }, A0[9], B0[6];
    memcpy(A0, A, sizeof A);
    memcpy(B0, B, sizeof B);
    const tess_uplo_t L = TessLower;
    int64_t info = 0;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dpotrf_async(0, 3, A, 3, &info), -1);
    assert_int_equal(tess_dpotrf_async(L, -1, A, 3, &info), -2);
    assert_int_equal(tess_dpotrf_async(L, 3, NULL, 3, &info), -3);
    assert_int_equal(tess_dpotrf_async(L, 3, A, 2, &info), -4);
    assert_int_equal(tess_dpotrf_async(L, 3, A, 3, NULL), -5);
    assert_int_equal(tess_dpotrs_async(7, 3, 2, A, 3, B, 3), -1);
    assert_int_equal(tess_dpotrs_async(L, -2, 2, A, 3, B, 3), -2);
    assert_int_equal(tess_dpotrs_async(L, 3, -1, A, 3, B, 3), -3);
    assert_int_equal(tess_dpotrs_async(L, 3, 2, NULL, 3, B, 3), -4);
    assert_int_equal(tess_dpotrs_async(L, 3, 2, A, 1, B, 3), -5);
    assert_int_equal(tess_dpotrs_async(L, 3, 2, A, 3, NULL, 3), -6);
    assert_int_equal(tess_dpotrs_async(L, 3, 2, A, 3, B, 2), -7);
    assert_int_equal(tess_dposv_async(L, 3, 2, A, 3, B, 2, &info), -7);
    assert_int_equal(tess_dposv_async(L, 3, 2, A, 3, B, 3, NULL), -8);
    /* the first invalid argument is the one reported */
    assert_int_equal(tess_dposv_async(L, -1, -1, NULL, 0, NULL, 0, NULL), -2);
    assert_int_equal(tess_spotrf_async(L, 3, (float *)A, 2, &info), -4);
    assert_int_equal(tess_cposv_async(L, 3, -4, (void *)A, 3, (void *)B, 3, &info), -3);
    assert_int_equal(tess_zpotrs_async(TessUpper, 3, 1, (void *)A, 3, (void *)B, 1), -7);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() == before);
    assert_true(!memcmp(A, A0, sizeof A) && !memcmp(B, B0, sizeof B));
}

static uint64_t tasks_since(const tess_stats_t *s0)
{
    tess_stats_t s1;
    assert_int_equal(tess_get_stats(&s1), 0);
    uint64_t total = 0;
    for (int d = 0; d < s1.ndevices; d++)
        total += s1.tasks[d] - s0->tasks[d];
    return total;
}

/* Over nt tiles, step k with m = nt - k - 1 tiles below the diagonal: one POTRF, m panel
 * TRSMs, m HERKs and m (m - 1) / 2 GEMMs, none for the other triangle's tiles, and the
 * write-back of the 1 + m tiles of the factor the step finished; POTRS with bt tiles of B
 * across: per step and solve, bt TRSMs and bt m GEMMs. */
static void potrf_and_potrs_run_one_task_per_tile_update(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[0];
    int64_t nt = 5, bt = 2, n = nt * NB - 3, nrhs = bt * NB, info = -1;
    void *A = tl_hpd(t, n, n, 61), *B = tu_matrix(t, n, nrhs, 62);
    uint64_t potrf = 0, potrs = 0;
    for (int64_t m = 0; m < nt; m++) {
        potrf += 1 + 2 * m + m * (m - 1) / 2 + (1 + m);
        potrs += 2 * bt * (1 + m);
    }
    tess_stats_t s0;
    assert_int_equal(tess_get_stats(&s0), 0);
    assert_int_equal(tl_potrf_async(t, TessUpper, n, A, n, &info), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tasks_since(&s0), potrf);
    assert_int_equal(tess_get_stats(&s0), 0);
    assert_int_equal(tl_potrs_async(t, TessUpper, n, nrhs, A, n, B, n), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tasks_since(&s0), potrs);
    assert_int_equal(info, 0);
    tu_release(t, A, n, n);
    tu_release(t, B, n, nrhs);
}

/* ---- with the tile size unset: each call picks its own tiles --------------------------- */

static void potrf_and_posv_with_the_tiles_a_call_picks_match_lapack(void **state)
{
    (void)state;
    int64_t n = tl_default_tile_order();
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        tl_assert_several_tiles(&tu_types[ti], n);
        for (int u = 0; u < 2; u++) {
            factor_case(&tu_types[ti], uplos[u], n);
            solve_case(&tu_types[ti], uplos[u], n, 3, true);
        }
    }
}

/* The failing tile's offset in the call's own tiles, not in the largest tile size. */
static void potrf_reports_lapacks_info_at_every_position_with_the_tiles_a_call_picks(void **state)
{
    (void)state;
    int64_t n = tl_default_tile_order(), ks[TL_DEFAULT_TILE_POSITIONS];
    tl_default_tile_positions(n, ks);
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        tl_assert_several_tiles(&tu_types[ti], n);
        for (int u = 0; u < 2; u++)
            for (int i = 0; i < TL_DEFAULT_TILE_POSITIONS; i++)
                failure_case(&tu_types[ti], uplos[u], n, ks[i], false, 0);
    }
}

static void
posv_reports_lapacks_info_and_leaves_b_untouched_with_the_tiles_a_call_picks(void **state)
{
    (void)state;
    int64_t n = tl_default_tile_order(), ks[TL_DEFAULT_TILE_POSITIONS];
    tl_default_tile_positions(n, ks);
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (int i = 0; i < TL_DEFAULT_TILE_POSITIONS; i++)
                failure_case(&tu_types[ti], uplos[u], n, ks[i], true, 0);
}

#define TILE_BYTES ((size_t)NB * NB * sizeof(double _Complex))

/* Each tile of the factor is written back once its step has written it: after the sync
 * alone the host holds LAPACK's factor (residual and error against LAPACK under
 * TL_BOUND), and a coherent request then copies nothing. */
static void potrf_writes_its_factor_back_behind_its_steps(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t n = 4 * NB - 3;
    for (int u = 0; u < 2; u++) {
        void *A = tl_hpd(t, n, n, 71 + (unsigned)u), *A0 = tu_copy(t, A, n, n),
             *R = tu_copy(t, A, n, n);
        int64_t info = -1;
        assert_int_equal(tl_potrf_async(t, uplos[u], n, A, n, &info), 0);
        assert_int_equal(tess_sync(), 0);
        assert_int_equal(info, 0);
        assert_int_equal(tl_potrf_ref(t, uplos[u], n, R, n), 0);
        assert_true(tl_factor_residual(t, uplos[u], n, A0, A, n) < TL_BOUND);
        assert_true(tl_tri_error(t, uplos[u], n, A, R, n) < TL_BOUND);
        assert_int_equal(tl_coherent_bytes(t, A, n, n, n), 0);
        tu_release(t, A, n, n);
        free(A0);
        free(R);
    }
}

/* 8 tiles per device against 21 of A's triangle and 18 of B: tiles are evicted and written
 * back between their tasks, and the answers are still right. */
static void posv_with_device_memory_of_a_few_tiles_completes_out_of_core(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 8 * TILE_BYTES), 0);
    for (int u = 0; u < 2; u++)
        solve_case(&tu_types[3], uplos[u], 6 * NB, 3 * NB, true);
    factor_case(&tu_types[3], TessUpper, 6 * NB);
    tess_stats_t st;
    assert_int_equal(tess_get_stats(&st), 0);
    assert_true(st.evictions > 0);
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest on_host2[] = {
        cmocka_unit_test(potrf_factors_both_triangles_in_every_precision_on_and_off_the_grid),
        cmocka_unit_test(potrs_after_potrf_solves_several_right_hand_sides_with_no_sync_between),
        cmocka_unit_test(posv_factors_and_solves_in_every_precision),
        cmocka_unit_test(
            potrf_reports_the_first_indefinite_minor_at_the_first_tile_and_deep_inside),
        cmocka_unit_test(posv_leaves_b_untouched_when_the_matrix_is_not_positive_definite),
        cmocka_unit_test(potrf_and_posv_stop_at_a_nan_pivot_as_the_reference_lapack_does),
        cmocka_unit_test(posv_on_submatrix_views_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(potrf_trsm_and_herk_chained_on_views_need_no_sync_in_between),
        cmocka_unit_test(potrf_with_n_zero_returns_at_once_with_info_zero),
        cmocka_unit_test(the_cholesky_solvers_reject_invalid_arguments_with_their_lapack_numbers),
        cmocka_unit_test(potrf_and_potrs_run_one_task_per_tile_update),
        cmocka_unit_test(potrf_writes_its_factor_back_behind_its_steps),
    };
    const struct CMUnitTest default_tiles[] = {
        cmocka_unit_test(potrf_and_posv_with_the_tiles_a_call_picks_match_lapack),
        cmocka_unit_test(potrf_reports_lapacks_info_at_every_position_with_the_tiles_a_call_picks),
        cmocka_unit_test(
            posv_reports_lapacks_info_and_leaves_b_untouched_with_the_tiles_a_call_picks),
    };
    const struct CMUnitTest on_their_own[] = {
        cmocka_unit_test(posv_with_device_memory_of_a_few_tiles_completes_out_of_core),
    };
    return cmocka_run_group_tests_name("potrf", on_host2, tu_group_setup, tu_group_teardown) +
           cmocka_run_group_tests_name("potrf, tiles of each call's own size", default_tiles,
                                       tu_group_setup_default_nb, tu_group_teardown) +
           cmocka_run_group_tests_name("potrf, own runtime", on_their_own, NULL, NULL);
}
