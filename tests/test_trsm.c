/* TRSM on the host backend (host:2, nb = 16): the eight side/uplo/trans cases,
 * unit and non-unit diagonal, the four precisions, triangular dimensions of
 * one tile, of 4 and 5 tiles (a power of two and not) and of 37 (off the
 * grid), with leading dimensions larger than the rows.
 *
 * Bound: the normwise backward residual
 *     ||op(A) X - alpha B||_F / (||A||_F ||X||_F max(m, n) eps) < 10
 * (X op(A) for side right), A standing for the triangle the call defines
 * (ones on the diagonal when diag is unit).  The triangles are diagonally
 * dominant, so well conditioned; what lies outside them is random (or NaN),
 * so that a read of it would show. */
#include <cblas.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "trxm_cases.h"

#define NB TU_NB
#define BOUND 10.0

/* k x k in lda: random everywhere, then the uplo triangle made diagonally
 * dominant (off-diagonal entries below 1/(2k), a diagonal near 2), so that it
 * is well conditioned with or without its diagonal. */
static void *tri_matrix(const tu_type_t *t, int64_t k, int64_t lda, tess_uplo_t uplo, unsigned seed)
{
    void *A = tu_matrix(t, lda, k, seed);
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < k; i++) {
            double _Complex v = tu_get(t, A, i, j, lda);
            if (i == j)
                tu_set(t, A, i, j, lda, 2.0 + 0.5 * v);
            else if (tu_in_triangle(uplo, i, j))
                tu_set(t, A, i, j, lda, v / (2.0 * k));
        }
    return A;
}

/* The bound's residual of X (in ldb) as the solution of op(A) X = alpha B0
 * (side left) or X op(A) = alpha B0; INFINITY when X is not finite. */
static double trsm_residual(const tu_type_t *t, tess_side_t side, tess_uplo_t uplo,
                            tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,
                            double _Complex alpha, const void *A, int64_t lda, const void *B0,
                            const void *X, int64_t ldb)
{
    int64_t k = side == TessLeft ? m : n;
    void *T = tu_tri_dense(t, A, k, lda, uplo, diag), *R = tu_copy(t, B0, ldb, n);
    if (side == TessLeft)
        tu_gemm_ref(t, trans, TessNoTrans, m, n, k, 1.0, T, k, X, ldb, -alpha, R, ldb);
    else
        tu_gemm_ref(t, TessNoTrans, trans, m, n, k, 1.0, X, ldb, T, k, -alpha, R, ldb);
    double scale =
        tu_norm(t, T, k, k, k) * tu_norm(t, X, m, n, ldb) * (double)(m > n ? m : n) * t->eps;
    double r = tu_norm(t, R, m, n, ldb);
    free(T);
    free(R);
    if (!tu_all_finite(t, X, m, n, ldb))
        return INFINITY;
    return scale > 0 ? r / scale : (r == 0 ? 0 : INFINITY);
}

static const trxm_routine_t trsm = {
    .name = "trsm",
    .call = tu_trsm_async,
    .matrix = tri_matrix,
    .residual = trsm_residual,
    .bound = BOUND,
};

static void
trsm_solves_every_side_uplo_trans_and_diag_in_every_precision_on_and_off_the_grid(void **state)
{
    (void)state;
    trxm_check_every_case_and_precision(&trsm);
}

static void trsm_never_reads_the_other_triangle_of_a_nor_a_unit_diagonal(void **state)
{
    (void)state;
    trxm_check_the_other_triangle_is_never_read(&trsm);
}

/* A, B and a third view, all windows of one parent at offsets off the tile
 * grid: B is solved, and every element of the parent outside B is bitwise
 * what it was. */
static void trsm_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[3];
    int64_t ld = 7 * NB + 3, m = 3 * NB + 5, n = 2 * NB - 3;
    for (int s = 0; s < 2; s++) {
        tess_side_t side = trxm_sides[s];
        int64_t k = side == TessLeft ? m : n;
        void *P = tu_matrix(t, ld, ld, 11);
        /* A at (1, 2): make its lower triangle dominant in place */
        char *A = (char *)P + (size_t)(1 + 2 * ld) * t->es;
        void *Tm = tri_matrix(t, k, k, TessLower, 12);
        for (int64_t j = 0; j < k; j++)
            for (int64_t i = j; i < k; i++)
                tu_set(t, A, i, j, ld, tu_get(t, Tm, i, j, k));
        free(Tm);
        void *Pref = tu_copy(t, P, ld, ld);
        int64_t bi = 3 * NB + 9, bj = NB + 5;
        char *B = (char *)P + (size_t)(bi + bj * ld) * t->es;
        char *B0 = (char *)Pref + (B - (char *)P);
        assert_int_equal(tu_trsm_async(t, side, TessLower, TessConjTrans, TessNonUnit, m, n,
                                       -1.5 + 0.5 * I, A, ld, B, ld),
                         0);
        assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, P, ld, t->es), 0);
        assert_int_equal(tess_sync(), 0);
        double r = trsm_residual(t, side, TessLower, TessConjTrans, TessNonUnit, m, n,
                                 -1.5 + 0.5 * I, A, ld, B0, B, ld);
        if (!(r < BOUND))
            fail_msg("side %d: residual %g", side, r);
        for (int64_t j = 0; j < ld; j++)
            for (int64_t i = 0; i < ld; i++) {
                bool in_b = i >= bi && i < bi + m && j >= bj && j < bj + n;
                if (!in_b)
                    assert_true(tu_get(t, P, i, j, ld) == tu_get(t, Pref, i, j, ld));
            }
        tu_release(t, P, ld, ld);
        free(Pref);
    }
}

/* Exact: B becomes zero, even where it held NaN, and nothing is fetched. */
static void trsm_with_alpha_zero_sets_b_to_zero_without_reading_a_or_b(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        int64_t m = 2 * NB + 3, n = NB + 1;
        for (int s = 0; s < 2; s++) {
            int64_t k = trxm_sides[s] == TessLeft ? m : n;
            void *A = tu_matrix(t, k, k, 1), *B = tu_matrix(t, m, n, 2);
            tu_fill(t, A, k, k, k, NAN);
            tu_fill(t, B, m, n, m, NAN);
            uint64_t h2d = tu_h2d_bytes();
            assert_int_equal(tu_trsm_async(t, trxm_sides[s], TessUpper, TessNoTrans, TessNonUnit, m,
                                           n, 0.0, s ? NULL : A, k, B, m),
                             0);
            assert_int_equal(tess_memory_coherent_async(TessAll, m, n, B, m, t->es), 0);
            assert_int_equal(tess_sync(), 0);
            assert_true(tu_h2d_bytes() == h2d);
            assert_true(tu_all_finite(t, B, m, n, m) && tu_norm(t, B, m, n, m) == 0);
            tu_release(t, A, k, k);
            tu_release(t, B, m, n);
        }
    }
}

static void trsm_with_m_or_n_zero_returns_at_once_and_touches_nothing(void **state)
{
    (void)state;
    double A[4] = { NAN, NAN, NAN, NAN }, B[4] = { NAN, 1, 2, 3 };
    assert_int_equal(tess_dtrsm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, 0, 2, 1.0,
                                      NULL, 1, NULL, 1),
                     0);
    assert_int_equal(
        tess_dtrsm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, 2, 0, 1.0, A, 2, B, 2), 0);
    assert_int_equal(
        tess_dtrsm_async(TessRight, TessUpper, TessTrans, TessUnit, 2, 0, 0.0, A, 1, B, 2), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(B[0]) && B[1] == 1 && B[2] == 2 && B[3] == 3);
}

static void trsm_rejects_invalid_arguments_with_their_reference_numbers(void **state)
{
    (void)state;
    double A[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, B[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    const tess_side_t L = TessLeft, R = TessRight;
    const tess_uplo_t Lo = TessLower;
    const tess_trans_t N = TessNoTrans;
    const tess_diag_t U = TessNonUnit;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dtrsm_async(0, Lo, N, U, 2, 2, 1, A, 2, B, 2), -1);
    assert_int_equal(tess_dtrsm_async(L, 0, N, U, 2, 2, 1, A, 2, B, 2), -2);
    assert_int_equal(tess_dtrsm_async(L, Lo, 0, U, 2, 2, 1, A, 2, B, 2), -3);
    assert_int_equal(tess_dtrsm_async(L, Lo, N, 0, 2, 2, 1, A, 2, B, 2), -4);
    assert_int_equal(tess_dtrsm_async(L, Lo, N, U, -1, 2, 1, A, 2, B, 2), -5);
    assert_int_equal(tess_dtrsm_async(L, Lo, N, U, 2, -1, 1, A, 2, B, 2), -6);
    assert_int_equal(tess_dtrsm_async(L, Lo, N, U, 2, 2, 1, NULL, 2, B, 2), -8);
    assert_int_equal(tess_dtrsm_async(L, Lo, N, U, 3, 2, 1, A, 2, B, 3), -9);
    assert_int_equal(tess_dtrsm_async(R, Lo, N, U, 2, 3, 1, A, 2, B, 2), -9);
    assert_int_equal(tess_dtrsm_async(L, Lo, N, U, 2, 2, 1, A, 2, NULL, 2), -10);
    assert_int_equal(tess_dtrsm_async(R, Lo, N, U, 3, 2, 1, A, 2, B, 2), -11);
    /* the first invalid argument is the one reported */
    assert_int_equal(tess_dtrsm_async(L, 0, 7, U, -1, 2, 1, NULL, 0, NULL, 0), -2);
    assert_int_equal(tess_strsm_async(L, Lo, N, U, 2, 2, 1, (float *)A, 1, (float *)B, 2), -9);
    assert_int_equal(tess_ctrsm_async(L, Lo, N, 9, 2, 2, 1, (void *)A, 2, (void *)B, 2), -4);
    assert_int_equal(tess_ztrsm_async(L, Lo, N, U, 2, 2, 1, (void *)A, 2, (void *)B, 1), -11);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() == before);
    for (int i = 0; i < 9; i++)
        assert_true(B[i] == i + 1);
}

/* Side left over kt x nt tiles of B: kt * nt diagonal solves and one GEMM per
 * tile of B per off-diagonal tile of the triangle, kt (kt - 1) / 2 * nt,
 * each a task of its own; none for the tiles of A's other triangle. */
static void trsm_runs_one_task_per_tile_of_b_and_referenced_tile_of_a(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t kt = 5, nt = 4, m = kt * NB - 3, n = nt * NB;
    void *A = tri_matrix(t, m, m, TessUpper, 3), *B = tu_matrix(t, m, n, 4);
    tess_stats_t s0, s1;
    assert_int_equal(tess_get_stats(&s0), 0);
    assert_int_equal(
        tu_trsm_async(t, TessLeft, TessUpper, TessNoTrans, TessNonUnit, m, n, 1.0, A, m, B, m), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tess_get_stats(&s1), 0);
    uint64_t total = 0;
    for (int d = 0; d < s1.ndevices; d++)
        total += s1.tasks[d] - s0.tasks[d];
    assert_int_equal(total, kt * nt + kt * (kt - 1) / 2 * nt);
    tu_release(t, A, m, m);
    tu_release(t, B, m, n);
}

/* One step of a blocked Cholesky on views of one parent M, at offsets off
 * the tile grid, with no sync until the end: the panel P = M[k:, :k] is
 * solved against the triangle L = M[:k, :k] (P := P L^-T), the trailing
 * matrix's off-diagonal block updated by GEMM and its leading diagonal
 * block by SYRK, and the off-diagonal block then solved against that block's
 * lower triangle.  Bound: ||M - Mref||_F / (4 n eps ||Mref||_F) < 10, Mref the
 * same sequence run by OpenBLAS. */
static void trsm_gemm_and_syrk_chained_on_overlapping_views_need_no_sync_in_between(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    const int64_t n = 5 * NB + 3, k = 2 * NB + 5, r = NB + 5, q = n - k - r;
    double *M = tu_matrix(t, n, n, 21);
    for (int64_t i = 0; i < n; i++)
        M[i + i * n] = (double)n;
    double *Mr = tu_copy(t, M, n, n);
    const tess_side_t R = TessRight;
    const tess_uplo_t Lo = TessLower;
    const tess_trans_t N = TessNoTrans, T = TessTrans;
    for (int ref = 0; ref < 2; ref++) {
        double *X = ref ? Mr : M;
        double *L = X, *P = X + k, *P2 = X + k + r, *S11 = X + k + k * n;
        double *S21 = X + (k + r) + k * n;
        if (!ref) {
            assert_int_equal(tess_dtrsm_async(R, Lo, T, TessNonUnit, n - k, k, 1, L, n, P, n), 0);
            assert_int_equal(tess_dgemm_async(N, T, q, r, k, -1, P2, n, P, n, 1, S21, n), 0);
            assert_int_equal(tess_dsyrk_async(Lo, N, r, k, -1, P, n, 1, S11, n), 0);
            assert_int_equal(tess_dtrsm_async(R, Lo, T, TessNonUnit, q, r, 1, S11, n, S21, n), 0);
            assert_int_equal(tess_memory_coherent_async(TessAll, n, n, M, n, t->es), 0);
            assert_int_equal(tess_sync(), 0);
        } else {
            cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit,
                        (int)(n - k), (int)k, 1, L, (int)n, P, (int)n);
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)q, (int)r, (int)k, -1, P2,
                        (int)n, P, (int)n, 1, S21, (int)n);
            cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)r, (int)k, -1, P, (int)n, 1,
                        S11, (int)n);
            cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)q,
                        (int)r, 1, S11, (int)n, S21, (int)n);
        }
    }
    double res = tu_diff(t, M, Mr, n, n, n) / (4 * n * t->eps * tu_norm(t, Mr, n, n, n));
    if (!(res < BOUND))
        fail_msg("residual %g", res);
    tu_release(t, M, n, n);
    free(Mr);
}

#define TILE_BYTES ((size_t)NB * NB * sizeof(double))

/* 8 tiles per device against 21 tiles of A and 36 of B: tiles are evicted
 * and written back between their tasks, and the solve is still right. */
static void trsm_with_device_memory_of_a_few_tiles_completes_out_of_core(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 8 * TILE_BYTES), 0);
    const tu_type_t *t = &tu_types[1];
    for (int s = 0; s < 2; s++) {
        double r = trxm_run_case(&trsm, t, trxm_sides[s], s ? TessUpper : TessLower, TessNoTrans,
                                 TessNonUnit, 6 * NB, 6 * NB, 1.5, false);
        if (!(r < BOUND))
            fail_msg("side %d: residual %g", trxm_sides[s], r);
    }
    tess_stats_t st;
    assert_int_equal(tess_get_stats(&st), 0);
    assert_true(st.evictions > 0);
    assert_int_equal(tess_finalize(), 0);
}

/* On one device with room for everything, each tile read is fetched once:
 * to the host's copy of B and the tiles of A's uplo triangle, nothing else
 * goes over the link, and only B comes back. */
static void trsm_on_one_device_moves_b_and_the_referenced_tiles_of_a_once(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(1, NB, 0), 0);
    tess_stats_t st;
    assert_int_equal(tess_get_stats(&st), 0);
    if (st.ndevices != 1) {
        /* TESS_TEST_DEVICES chose several devices */
        assert_int_equal(tess_finalize(), 0);
        skip();
    }
    const tu_type_t *t = &tu_types[2];
    for (int u = 0; u < 2; u++) {
        int64_t m = 37, n = 5 * NB + 2, lda = n + 1;
        void *A = tri_matrix(t, n, lda, trxm_uplos[u], 5), *B = tu_matrix(t, m, n, 6);
        tess_stats_t s0, s1;
        assert_int_equal(tess_get_stats(&s0), 0);
        assert_int_equal(tu_trsm_async(t, TessRight, trxm_uplos[u], TessTrans, TessUnit, m, n, 2.0,
                                       A, lda, B, m),
                         0);
        assert_int_equal(tess_memory_coherent_async(TessAll, m, n, B, m, t->es), 0);
        assert_int_equal(tess_sync(), 0);
        assert_int_equal(tess_get_stats(&s1), 0);
        assert_int_equal(s1.bytes_h2d - s0.bytes_h2d,
                         (uint64_t)(m * n) * t->es +
                             tu_triangle_tile_bytes(n, NB, trxm_uplos[u], t->es));
        assert_int_equal(s1.bytes_d2h - s0.bytes_d2h, (uint64_t)(m * n) * t->es);
        tu_release(t, A, lda, n);
        tu_release(t, B, m, n);
    }
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest on_host2[] = {
        cmocka_unit_test(
            trsm_solves_every_side_uplo_trans_and_diag_in_every_precision_on_and_off_the_grid),
        cmocka_unit_test(trsm_never_reads_the_other_triangle_of_a_nor_a_unit_diagonal),
        cmocka_unit_test(trsm_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(trsm_with_alpha_zero_sets_b_to_zero_without_reading_a_or_b),
        cmocka_unit_test(trsm_with_m_or_n_zero_returns_at_once_and_touches_nothing),
        cmocka_unit_test(trsm_rejects_invalid_arguments_with_their_reference_numbers),
        cmocka_unit_test(trsm_runs_one_task_per_tile_of_b_and_referenced_tile_of_a),
        cmocka_unit_test(trsm_gemm_and_syrk_chained_on_overlapping_views_need_no_sync_in_between),
    };
    /* these initialise a runtime of their own */
    const struct CMUnitTest on_their_own[] = {
        cmocka_unit_test(trsm_with_device_memory_of_a_few_tiles_completes_out_of_core),
        cmocka_unit_test(trsm_on_one_device_moves_b_and_the_referenced_tiles_of_a_once),
    };
    return cmocka_run_group_tests_name("trsm", on_host2, tu_group_setup, tu_group_teardown) +
           cmocka_run_group_tests_name("trsm, own runtime", on_their_own, NULL, NULL);
}
