/* GETRF, GETRS and GESV on the host backend (host:2, nb = 16, unless said): the four
 * precisions, square, tall and wide matrices of one panel and of several, on and off the
 * grid, leading dimensions larger than the rows.
 *
 * Bounds (TL_BOUND, LAPACK's testers' threshold of 30):
 *   factor:  ||P L U - A||_F / (max(m, n) eps ||A||_F) (LAPACK's dget01);
 *   solve:   ||op(A) X - B||_F / (n eps ||A||_F ||X||_F) (dget02).
 * The pivots equal the host LAPACK's exactly: the matrices are random, where the largest
 * candidate of a column is ahead of the next by far more than rounding (LASWP's own tests are
 * in test_laswp.c). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lapackutil.h"

#define NB TU_NB

/* The pivots and INFO are LAPACK's, the factor residual within the bound, the rows below m
 * untouched. */
static void factor_case(const tu_type_t *t, int64_t m, int64_t n, unsigned seed)
{
    int64_t lda = m + 3, mn = m < n ? m : n;
    void *A = tu_matrix(t, lda, n, seed), *A0 = tu_copy(t, A, lda, n), *R = tu_copy(t, A, lda, n);
    int64_t *ipiv = tl_pivots(mn), *rpiv = tl_pivots(mn), info = -7;
    assert_int_equal(tl_getrf_async(t, m, n, A, lda, ipiv, &info), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(info, 0);
    assert_int_equal(tl_getrf_ref(t, m, n, R, lda, rpiv), 0);
    for (int64_t i = 0; i < mn; i++)
        if (ipiv[i] != rpiv[i])
            fail_msg("%sgetrf %lld x %lld: ipiv[%lld] = %lld, LAPACK's %lld", t->name, (long long)m,
                     (long long)n, (long long)i, (long long)ipiv[i], (long long)rpiv[i]);
    double res = tl_lu_residual(t, m, n, A0, A, lda, ipiv);
    if (!(res < TL_BOUND))
        fail_msg("%sgetrf %lld x %lld: residual %g", t->name, (long long)m, (long long)n, res);
    assert_true(tu_diff(t, (char *)A + m * t->es, (char *)A0 + m * t->es, 3, n, lda) == 0);
    tu_release(t, A, lda, n);
    tl_release_pivots(ipiv, mn);
    free(rpiv);
    free(A0);
    free(R);
}

static const int64_t shapes[][2] = { { 1, 1 },
                                     { NB, NB },
                                     { 5 * NB, 5 * NB },
                                     { 37, 37 },
                                     { 4 * NB + 3, 2 * NB + 1 },
                                     { 2 * NB + 5, 4 * NB + 1 },
                                     { 3 * NB, NB - 3 },
                                     { 5, 3 * NB + 2 } };

static void getrf_factors_square_tall_and_wide_matrices_as_lapack_does(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++)
            factor_case(&tu_types[ti], shapes[k][0], shapes[k][1], (unsigned)(ti + 10 * k));
}

/* getrf then getrs with no sync between (or gesv), solve residual within the bound, B's rows
 * below n untouched. */
static void solve_case(const tu_type_t *t, tess_trans_t trans, int64_t n, int64_t nrhs, bool gesv)
{
    int64_t lda = n + 2, ldb = n + 5;
    void *A = tu_matrix(t, lda, n, (unsigned)(3 * n + trans)), *A0 = tu_copy(t, A, lda, n);
    void *B = tu_matrix(t, ldb, nrhs, (unsigned)(n + nrhs)), *B0 = tu_copy(t, B, ldb, nrhs);
    int64_t *ipiv = tl_pivots(n), info = -7;
    if (gesv) {
        assert_int_equal(tl_gesv_async(t, n, nrhs, A, lda, ipiv, B, ldb, &info), 0);
    } else {
        assert_int_equal(tl_getrf_async(t, n, n, A, lda, ipiv, &info), 0);
        assert_int_equal(tl_getrs_async(t, trans, n, nrhs, A, lda, ipiv, B, ldb), 0);
    }
    tl_sync_matrix(t, B, ldb, nrhs, ldb);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(info, 0);
    double res = tl_solve_residual(t, trans, n, nrhs, A0, lda, B0, B, ldb);
    double fres = tl_lu_residual(t, n, n, A0, A, lda, ipiv);
    if (!(res < TL_BOUND) || !(fres < TL_BOUND))
        fail_msg("%s%s trans %d n %lld nrhs %lld: solve residual %g, factor residual %g", t->name,
                 gesv ? "gesv" : "getrf+getrs", trans, (long long)n, (long long)nrhs, res, fres);
    assert_true(tu_diff(t, (char *)B + n * t->es, (char *)B0 + n * t->es, 5, nrhs, ldb) == 0);
    tu_release(t, A, lda, n);
    tu_release(t, B, ldb, nrhs);
    tl_release_pivots(ipiv, n);
    free(A0);
    free(B0);
}

static void getrs_after_getrf_solves_each_transposition_with_no_sync_between(void **state)
{
    (void)state;
    const tess_trans_t trans[] = { TessNoTrans, TessTrans, TessConjTrans };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int k = 0; k < 3; k++) {
            solve_case(&tu_types[ti], trans[k], 5 * NB, 2 * NB + 3, false);
            solve_case(&tu_types[ti], trans[k], 37, 1, false);
        }
}

static void gesv_factors_and_solves_in_every_precision(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        solve_case(&tu_types[ti], TessNoTrans, 4 * NB + 5, 3 * NB, true);
        solve_case(&tu_types[ti], TessNoTrans, NB, 7, true);
    }
}

/* getrs with pivots and factors from the host LAPACK: only the call's own input is read. */
static void getrs_solves_with_factors_from_the_host_lapack(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        const tu_type_t *t = &tu_types[ti];
        int64_t n = 3 * NB + 4, nrhs = NB + 1;
        void *A = tu_matrix(t, n, n, 71), *A0 = tu_copy(t, A, n, n);
        void *B = tu_matrix(t, n, nrhs, 72), *B0 = tu_copy(t, B, n, nrhs);
        int64_t *ipiv = tl_pivots(n);
        assert_int_equal(tl_getrf_ref(t, n, n, A, n, ipiv), 0);
        assert_int_equal(tl_getrs_async(t, TessConjTrans, n, nrhs, A, n, ipiv, B, n), 0);
        tl_sync_matrix(t, B, n, nrhs, n);
        double res = tl_solve_residual(t, TessConjTrans, n, nrhs, A0, n, B0, B, n);
        if (!(res < TL_BOUND))
            fail_msg("%sgetrs: residual %g", t->name, res);
        tu_release(t, A, n, n);
        tu_release(t, B, n, nrhs);
        tl_release_pivots(ipiv, n);
        free(A0);
        free(B0);
    }
}

static void gesv_with_no_right_hand_side_still_factors(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t n = 3 * NB + 1, *ipiv = tl_pivots(n), *rpiv = tl_pivots(n), info = -1;
    void *A = tu_matrix(t, n, n, 81), *R = tu_copy(t, A, n, n);
    assert_int_equal(tl_gesv_async(t, n, 0, A, n, ipiv, NULL, n, &info), 0);
    tl_sync_matrix(t, A, n, n, n);
    assert_int_equal(info, 0);
    assert_int_equal(tl_getrf_ref(t, n, n, R, n, rpiv), 0);
    assert_memory_equal(ipiv, rpiv, (size_t)n * sizeof *ipiv);
    assert_true(tu_diff(t, A, R, n, n, n) / tu_norm(t, R, n, n, n) < TL_BOUND * n * t->eps);
    tu_release(t, A, n, n);
    tl_release_pivots(ipiv, n);
    free(rpiv);
    free(R);
}

/* Columns zeroed at the 1-based cols: U(c, c) is exactly zero at each, the factorization
 * completes, and INFO is the first; GESV leaves B as it was, bit for bit. */
static void singular_case(const tu_type_t *t, int64_t n, const int64_t *cols, int ncols, bool gesv)
{
    int64_t lda = n + 1, nrhs = 5;
    void *A = tu_matrix(t, lda, n, (unsigned)(7 * n + cols[0]));
    for (int c = 0; c < ncols; c++)
        tu_fill(t, (char *)A + (size_t)((cols[c] - 1) * lda) * t->es, n, 1, lda, 0.0);
    void *A0 = tu_copy(t, A, lda, n), *R = tu_copy(t, A, lda, n);
    void *B = tu_matrix(t, n, nrhs, 9), *B0 = tu_copy(t, B, n, nrhs);
    int64_t *ipiv = tl_pivots(n), *rpiv = tl_pivots(n), info = 0;
    if (gesv)
        assert_int_equal(tl_gesv_async(t, n, nrhs, A, lda, ipiv, B, n, &info), 0);
    else
        assert_int_equal(tl_getrf_async(t, n, n, A, lda, ipiv, &info), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    tl_sync_matrix(t, B, n, nrhs, n);
    int ref = tl_getrf_ref(t, n, n, R, lda, rpiv);
    int64_t first = cols[0];
    for (int c = 1; c < ncols; c++)
        first = cols[c] < first ? cols[c] : first;
    assert_int_equal(ref, first);
    if (info != ref)
        fail_msg("%s%s n %lld: info %lld, LAPACK's %d", t->name, gesv ? "gesv" : "getrf",
                 (long long)n, (long long)info, ref);
    assert_memory_equal(ipiv, rpiv, (size_t)n * sizeof *ipiv);
    double res = tl_lu_residual(t, n, n, A0, A, lda, ipiv);
    if (!(res < TL_BOUND))
        fail_msg("%s n %lld zero at %lld: residual %g", t->name, (long long)n, (long long)first,
                 res);
    assert_true(tu_same_outside(t, B, B0, n, nrhs, n, 0, 0, 0, 0));
    tu_release(t, A, lda, n);
    tu_release(t, B, n, nrhs);
    tl_release_pivots(ipiv, n);
    free(rpiv);
    free(A0);
    free(R);
    free(B0);
}

static void getrf_reports_the_first_zero_pivot_and_completes_the_factorization(void **state)
{
    (void)state;
    const int64_t n = 5 * NB + 3, at[] = { 1, NB, NB + 1, 3 * NB + 7, n };
    const int64_t two[] = { 3 * NB + 2, NB + 5 };
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        for (size_t i = 0; i < sizeof at / sizeof *at; i++)
            singular_case(&tu_types[ti], n, &at[i], 1, false);
        singular_case(&tu_types[ti], n, two, 2, false);
    }
}

static void gesv_leaves_b_untouched_when_the_matrix_is_singular(void **state)
{
    (void)state;
    const int64_t n = 4 * NB + 2, at[] = { 1, 2 * NB + 3, n };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (size_t i = 0; i < sizeof at / sizeof *at; i++)
            singular_case(&tu_types[ti], n, &at[i], 1, true);
}

/* A window of a parent: every element outside A's m x n and B is what it was. */
static void gesv_on_submatrix_views_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[3];
    int64_t ld = 7 * NB + 3, n = 3 * NB + 5, nrhs = NB + 3, ai = 1, aj = 2, bi = 4, bj = n + 4;
    void *P = tu_matrix(t, ld, ld, 31), *Pref = tu_copy(t, P, ld, ld);
    char *A = (char *)P + (size_t)(ai + aj * ld) * t->es,
         *B = (char *)P + (size_t)(bi + bj * ld) * t->es;
    int64_t *ipiv = tl_pivots(n), info = -1;
    assert_int_equal(tl_gesv_async(t, n, nrhs, A, ld, ipiv, B, ld, &info), 0);
    tl_sync_matrix(t, P, ld, ld, ld);
    assert_int_equal(info, 0);
    char *A0 = (char *)Pref + (A - (char *)P), *B0 = (char *)Pref + (B - (char *)P);
    double res = tl_solve_residual(t, TessNoTrans, n, nrhs, A0, ld, B0, B, ld);
    if (!(res < TL_BOUND))
        fail_msg("residual %g", res);
    for (int64_t j = 0; j < ld; j++)
        for (int64_t i = 0; i < ld; i++) {
            bool in_a = i >= ai && i < ai + n && j >= aj && j < aj + n;
            bool in_b = i >= bi && i < bi + n && j >= bj && j < bj + nrhs;
            if (!in_a && !in_b)
                assert_true(tu_get(t, P, i, j, ld) == tu_get(t, Pref, i, j, ld));
        }
    tu_release(t, P, ld, ld);
    tl_release_pivots(ipiv, n);
    free(Pref);
}

/* A sparse solver's front, by hand and with no sync: GETRF of the m x k panel, LASWP of its
 * pivots on the columns to the right, TRSM of the top rows, GEMM of the rest, GETRF of the
 * trailing block; the whole is the LU of the front with the pivots of both parts (the
 * trailing block's shifted by k), within the factor bound. */
static void a_front_chains_getrf_laswp_trsm_gemm_and_getrf_with_no_sync(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t m = 5 * NB + 3, k = 2 * NB + 5, lda = m;
    double *F = tu_matrix(t, lda, m, 41), *F0 = tu_copy(t, F, lda, m);
    int64_t *ipiv = tl_pivots(m), info1 = -1, info2 = -1;
    assert_int_equal(tess_dgetrf_async(m, k, F, lda, ipiv, &info1), 0);
    assert_int_equal(tess_dlaswp_async(m - k, F + k * lda, lda, 1, k, ipiv, 1), 0);
    assert_int_equal(tess_dtrsm_async(TessLeft, TessLower, TessNoTrans, TessUnit, k, m - k, 1.0, F,
                                      lda, F + k * lda, lda),
                     0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, m - k, m - k, k, -1.0, F + k, lda,
                                      F + k * lda, lda, 1.0, F + k + k * lda, lda),
                     0);
    assert_int_equal(tess_dgetrf_async(m - k, m - k, F + k + k * lda, lda, ipiv + k, &info2), 0);
    /* the trailing block's swaps applied to the panel's rows below k */
    assert_int_equal(tess_dlaswp_async(k, F + k, lda, 1, m - k, ipiv + k, 1), 0);
    tl_sync_matrix(t, F, lda, m, lda);
    assert_int_equal(tess_memory_coherent_async(TessAll, m, 1, ipiv, m, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(info1, 0);
    assert_int_equal(info2, 0);
    for (int64_t i = k; i < m; i++)
        ipiv[i] += k;
    double res = tl_lu_residual(t, m, m, F0, F, lda, ipiv);
    if (!(res < TL_BOUND))
        fail_msg("residual %g", res);
    tu_release(t, F, lda, m);
    tl_release_pivots(ipiv, m);
    free(F0);
}

static void lu_with_empty_dimensions_returns_at_once(void **state)
{
    (void)state;
    double A[1] = { NAN }, B[1] = { NAN };
    int64_t info = 5, ipiv[1] = { 9 };
    assert_int_equal(tess_dgetrf_async(0, 3, NULL, 1, NULL, &info), 0);
    assert_int_equal(info, 0);
    info = 5;
    assert_int_equal(tess_zgetrf_async(3, 0, NULL, 3, NULL, &info), 0);
    assert_int_equal(info, 0);
    info = 5;
    assert_int_equal(tess_cgesv_async(0, 3, NULL, 1, NULL, NULL, 1, &info), 0);
    assert_int_equal(info, 0);
    assert_int_equal(tess_sgetrs_async(TessNoTrans, 1, 0, (float *)A, 1, ipiv, NULL, 1), 0);
    assert_int_equal(tess_dlaswp_async(1, A, 1, 2, 1, ipiv, 1), 0);
    assert_int_equal(tess_dlaswp_async(1, A, 1, 1, 1, ipiv, 0), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(A[0]) && isnan(B[0]) && ipiv[0] == 9);
}

/* Each step's finished rows are written back while later steps run, each row of every panel
 * once: after the sync alone the host holds LAPACK's pivots and a factor within the
 * residual bound, the call copied A's m x n elements and the pivots to the host exactly
 * once, and a coherent request then copies nothing.  Square, tall and wide. */
static void getrf_writes_its_factor_back_behind_its_steps_each_row_once(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    const int64_t cases[][2] = { { 4 * NB + 3, 4 * NB + 3 },
                                 { 5 * NB, 2 * NB + 1 },
                                 { 2 * NB + 5, 4 * NB } };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int64_t m = cases[c][0], n = cases[c][1], mn = m < n ? m : n, info = -1;
        void *A = tu_matrix(t, m, n, 41 + (unsigned)c), *A0 = tu_copy(t, A, m, n),
             *R = tu_copy(t, A, m, n);
        int64_t *ipiv = tl_pivots(mn), *rpiv = tl_pivots(mn);
        tess_stats_t s0, s1;
        assert_int_equal(tess_get_stats(&s0), 0);
        assert_int_equal(tl_getrf_async(t, m, n, A, m, ipiv, &info), 0);
        assert_int_equal(tess_sync(), 0);
        assert_int_equal(tess_get_stats(&s1), 0);
        assert_int_equal(info, 0);
        assert_int_equal(s1.bytes_d2h - s0.bytes_d2h, (uint64_t)(m * n) * t->es + mn * 8);
        /* more write-backs than panels and pieces of the pivots: rows went out in parts */
        assert_true(s1.writebacks - s0.writebacks >
                    (uint64_t)((n + NB - 1) / NB + (mn + NB - 1) / NB));
        assert_int_equal(tl_getrf_ref(t, m, n, R, m, rpiv), 0);
        assert_memory_equal(ipiv, rpiv, (size_t)mn * sizeof *ipiv);
        assert_true(tl_lu_residual(t, m, n, A0, A, m, ipiv) < TL_BOUND);
        assert_int_equal(tl_coherent_bytes(t, A, m, n, m), 0);
        tu_release(t, A, m, n);
        tl_release_pivots(ipiv, mn);
        free(rpiv);
        free(A0);
        free(R);
    }
}

/* A panel is the matrix's whole height, and the device libraries take a tile's rows as an
 * int: a matrix of 2^31 + 5 rows is TESS_ENOMEM before anything is read or submitted (the
 * pointers name a few elements; a read past them would fault). */
static void lu_of_more_rows_than_an_int_holds_is_enomem_and_touches_nothing(void **state)
{
    (void)state;
    const int64_t m = ((int64_t)1 << 31) + 5;
    double A[4] = { 1, 2, 3, 4 }, B[2] = { 5, 6 };
    int64_t ipiv[2] = { 0 }, info = -1;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dgetrf_async(m, 2, A, m, ipiv, &info), TESS_ENOMEM);
    assert_int_equal(tess_dgesv_async(m, 1, A, m, ipiv, B, m, &info), TESS_ENOMEM);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() == before);
    assert_true(A[0] == 1 && A[3] == 4 && B[0] == 5 && B[1] == 6 && ipiv[0] == 0);
}

static void lu_rejects_invalid_arguments_with_their_lapack_numbers(void **state)
{
    (void)state;
    double A[9] = { 4, 1, 1, 1, 4, 1, 1, 1, 4 }, B[6] = { 1, 2, 3, 4, 5, 6 }, A0[9], B0[6];
    int64_t ipiv[3] = { 1, 2, 3 }, info = 0;
    memcpy(A0, A, sizeof A);
    memcpy(B0, B, sizeof B);
    const tess_trans_t N = TessNoTrans;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dgetrf_async(-1, 3, A, 3, ipiv, &info), -1);
    assert_int_equal(tess_dgetrf_async(3, -1, A, 3, ipiv, &info), -2);
    assert_int_equal(tess_dgetrf_async(3, 3, NULL, 3, ipiv, &info), -3);
    assert_int_equal(tess_dgetrf_async(3, 3, A, 2, ipiv, &info), -4);
    assert_int_equal(tess_dgetrf_async(3, 3, A, 3, NULL, &info), -5);
    assert_int_equal(tess_dgetrf_async(3, 3, A, 3, ipiv, NULL), -6);
    assert_int_equal(tess_dgetrs_async(9, 3, 2, A, 3, ipiv, B, 3), -1);
    assert_int_equal(tess_dgetrs_async(N, -1, 2, A, 3, ipiv, B, 3), -2);
    assert_int_equal(tess_dgetrs_async(N, 3, -1, A, 3, ipiv, B, 3), -3);
    assert_int_equal(tess_dgetrs_async(N, 3, 2, NULL, 3, ipiv, B, 3), -4);
    assert_int_equal(tess_dgetrs_async(N, 3, 2, A, 2, ipiv, B, 3), -5);
    assert_int_equal(tess_dgetrs_async(N, 3, 2, A, 3, NULL, B, 3), -6);
    assert_int_equal(tess_dgetrs_async(N, 3, 2, A, 3, ipiv, NULL, 3), -7);
    assert_int_equal(tess_dgetrs_async(N, 3, 2, A, 3, ipiv, B, 2), -8);
    assert_int_equal(tess_dgesv_async(-1, 2, A, 3, ipiv, B, 3, &info), -1);
    assert_int_equal(tess_dgesv_async(3, -1, A, 3, ipiv, B, 3, &info), -2);
    assert_int_equal(tess_dgesv_async(3, 2, NULL, 3, ipiv, B, 3, &info), -3);
    assert_int_equal(tess_dgesv_async(3, 2, A, 2, ipiv, B, 3, &info), -4);
    assert_int_equal(tess_dgesv_async(3, 2, A, 3, NULL, B, 3, &info), -5);
    assert_int_equal(tess_dgesv_async(3, 2, A, 3, ipiv, NULL, 3, &info), -6);
    assert_int_equal(tess_dgesv_async(3, 2, A, 3, ipiv, B, 2, &info), -7);
    assert_int_equal(tess_dgesv_async(3, 2, A, 3, ipiv, B, 3, NULL), -8);
    assert_int_equal(tess_dlaswp_async(-1, A, 3, 1, 3, ipiv, 1), -1);
    assert_int_equal(tess_dlaswp_async(3, NULL, 3, 1, 3, ipiv, 1), -2);
    assert_int_equal(tess_dlaswp_async(3, A, 0, 1, 3, ipiv, 1), -3);
    assert_int_equal(tess_dlaswp_async(3, A, 3, 0, 3, ipiv, 1), -4);
    assert_int_equal(tess_dlaswp_async(3, A, 3, 1, 4, ipiv, 1), -5);
    assert_int_equal(tess_dlaswp_async(3, A, 3, 1, 3, NULL, -1), -6);
    assert_int_equal(tess_dlaswp_async(3, A, 3, 1, 3, ipiv, INT64_MIN), -7);
    assert_int_equal(tess_dlaswp_async(3, A, 3, 1, 3, ipiv, INT64_MAX / 2 + 1), -7);
    /* the first invalid argument is the one reported */
    assert_int_equal(tess_zgesv_async(-1, -1, NULL, 0, NULL, NULL, 0, NULL), -1);
    assert_int_equal(tess_sgetrf_async(3, 3, (float *)A, 2, NULL, NULL), -4);
    assert_int_equal(tess_cgetrs_async(TessConjTrans, 3, 1, (void *)A, 3, ipiv, (void *)B, 1), -8);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() == before);
    assert_true(!memcmp(A, A0, sizeof A) && !memcmp(B, B0, sizeof B));
    assert_true(ipiv[0] == 1 && ipiv[1] == 2 && ipiv[2] == 3);
}

#define TILE_BYTES ((size_t)NB * NB * sizeof(double _Complex))

/* 16 tiles per device: a panel of 6 NB rows is 6 of them, and an update names two panels,
 * so panels are evicted and written back between their tasks. */
static void gesv_with_device_memory_of_a_few_panels_completes_out_of_core(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 16 * TILE_BYTES), 0);
    solve_case(&tu_types[3], TessNoTrans, 6 * NB, 3 * NB, true);
    factor_case(&tu_types[3], 6 * NB, 6 * NB, 5);
    tess_stats_t st;
    assert_int_equal(tess_get_stats(&st), 0);
    assert_true(st.evictions > 0);
    assert_int_equal(tess_finalize(), 0);
}

/* The call's own tile size (TESS_NB unset): an order of half the largest tile and a bit
 * gives panels of a quarter of it, at least three, on any devices, so tasks of several
 * steps, and the answers hold. */
static void lu_on_the_default_tile_size_cuts_several_panels(void **state)
{
    (void)state;
    const int ndevs[] = { 2, 4 };
    for (int d = 0; d < 2; d++) {
        assert_int_equal(tu_init_host(ndevs[d], 0, 0), 0);
        tess_stats_t st;
        assert_int_equal(tess_get_stats(&st), 0);
        int64_t n = st.nb / 2 + 16;
        uint64_t before = tu_tasks_run();
        factor_case(&tu_types[1], n, n, 3);
        /* P >= 3 panels: P panel tasks, P (P - 1) / 2 updates and as many swaps */
        assert_true(tu_tasks_run() - before >= 9);
        solve_case(&tu_types[2], TessTrans, n * 2 / 3, 3, false);
        assert_int_equal(tess_finalize(), 0);
    }
}

typedef struct {
    double ts, end;
} slice_t;

/* The slices named name in the trace at path, on any device, in order of start; their count. */
static int slices(const char *path, const char *name, slice_t *out, int cap)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512], want[64];
    snprintf(want, sizeof want, "{\"name\":\"%s\",\"ph\":\"X\"", name);
    int n = 0;
    while (fgets(line, sizeof line, f) && n < cap) {
        double ts, dur;
        int tid;
        if (!strncmp(line, want, strlen(want)) &&
            sscanf(line + strlen(want), ",\"pid\":0,\"tid\":%d,\"ts\":%lf,\"dur\":%lf", &tid, &ts,
                   &dur) == 3) {
            int i = n++;
            for (; i > 0 && out[i - 1].ts > ts; i--)
                out[i] = out[i - 1];
            out[i] = (slice_t){ ts, ts + dur };
        }
    }
    fclose(f);
    return n;
}

/* Three panels of 64 columns on one device, over a link of 0.3 MB/s, factored a second
 * time with the panels already there: step 0 writes back panel 0's finished rows (64 x 64,
 * some 110 ms, long beside the worker's few steps between, even under a sanitizer on a
 * loaded machine), and step 1's update of panel 2, the critical path's, starts while that
 * copy runs rather than behind a copy of panel 2's own rows queued after it. */
static void the_next_steps_update_does_not_wait_for_write_backs(void **state)
{
    (void)state;
    const char *other = getenv("TESS_TEST_DEVICES");
    if (other && *other && strncmp(other, "host", 4))
        skip(); /* the slow link is the host backend's */
    char path[] = "/tmp/tessera_getrf_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(setenv("TESS_HOST_LINK_GBPS", "0.0003", 1), 0);
    tess_config_t cfg = { .devices = "host:1", .nb = 64, .trace = path };
    int err = tess_init(&cfg);
    unsetenv("TESS_HOST_LINK_GBPS");
    assert_int_equal(err, 0);
    const tu_type_t *t = &tu_types[1];
    int64_t n = 192, info = -1;
    void *A = tu_matrix(t, n, n, 61);
    int64_t *ipiv = tl_pivots(n);
    assert_int_equal(tl_getrf_async(t, n, n, A, n, ipiv, &info), 0);
    assert_int_equal(tess_sync(), 0);
    void *A1 = tu_copy(t, A, n, n);
    assert_int_equal(tl_getrf_async(t, n, n, A, n, ipiv, &info), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(info, 0);
    assert_true(tl_lu_residual(t, n, n, A1, A, n, ipiv) < TL_BOUND);
    tu_release(t, A, n, n);
    tl_release_pivots(ipiv, n);
    free(A1);
    assert_int_equal(tess_finalize(), 0);
    /* the second call (three panel getrfs a call): its first write-back, and step 1's update
     * of panel 2, the last update before the third panel's getrf */
    slice_t getrf[6], d2h[64], update[16];
    assert_int_equal(slices(path, "getrf", getrf, 6), 6);
    int nd = slices(path, "d2h", d2h, 64), nu = slices(path, "lu-update", update, 16);
    unlink(path);
    int w = 0, u = nu - 1;
    while (w < nd && d2h[w].ts < getrf[3].end)
        w++;
    while (u >= 0 && update[u].ts > getrf[5].ts)
        u--;
    assert_true(w < nd && u >= 0 && update[u].ts > getrf[4].ts);
    assert_true(update[u].ts < d2h[w].end);
}

int main(void)
{
    const struct CMUnitTest on_host2[] = {
        cmocka_unit_test(getrf_factors_square_tall_and_wide_matrices_as_lapack_does),
        cmocka_unit_test(getrs_after_getrf_solves_each_transposition_with_no_sync_between),
        cmocka_unit_test(gesv_factors_and_solves_in_every_precision),
        cmocka_unit_test(getrs_solves_with_factors_from_the_host_lapack),
        cmocka_unit_test(gesv_with_no_right_hand_side_still_factors),
        cmocka_unit_test(getrf_reports_the_first_zero_pivot_and_completes_the_factorization),
        cmocka_unit_test(gesv_leaves_b_untouched_when_the_matrix_is_singular),
        cmocka_unit_test(gesv_on_submatrix_views_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(a_front_chains_getrf_laswp_trsm_gemm_and_getrf_with_no_sync),
        cmocka_unit_test(lu_with_empty_dimensions_returns_at_once),
        cmocka_unit_test(lu_rejects_invalid_arguments_with_their_lapack_numbers),
        cmocka_unit_test(lu_of_more_rows_than_an_int_holds_is_enomem_and_touches_nothing),
        cmocka_unit_test(getrf_writes_its_factor_back_behind_its_steps_each_row_once),
    };
    const struct CMUnitTest on_their_own[] = {
        cmocka_unit_test(gesv_with_device_memory_of_a_few_panels_completes_out_of_core),
        cmocka_unit_test(lu_on_the_default_tile_size_cuts_several_panels),
        cmocka_unit_test(the_next_steps_update_does_not_wait_for_write_backs),
    };
    return cmocka_run_group_tests_name("getrf", on_host2, tu_group_setup, tu_group_teardown) +
           cmocka_run_group_tests_name("getrf, own runtime", on_their_own, NULL, NULL);
}
