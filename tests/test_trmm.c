/* TRMM on the host backend (host:2, nb = 16): the eight side/uplo/trans cases,
 * unit and non-unit diagonal, the four precisions, triangular dimensions of
 * one tile, of 4 and 5 tiles (a power of two and not) and of 37 (off the
 * grid), with leading dimensions larger than the rows.
 *
 * Reference: OpenBLAS's GEMM of alpha and the dense triangle the call
 * defines (zeros outside it, ones on the diagonal when diag is unit) with B.
 * Bound: the normwise GEMM residual of testutil.h,
 *     ||B - Bref||_F / (k eps |alpha| ||A||_F ||B0||_F) < 10,
 * k the triangle's dimension.  The triangles are random; what lies outside
 * them is random too (or NaN), so that a read of it would show. */
#include <cblas.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "trxm_cases.h"

#define NB TU_NB
#define BOUND TU_GEMM_BOUND

/* The bound's residual of B (in ldb) against alpha op(A) B0 (side left) or
 * alpha B0 op(A). */
static double trmm_residual(const tu_type_t *t, tess_side_t side, tess_uplo_t uplo,
                            tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,
                            double _Complex alpha, const void *A, int64_t lda, const void *B0,
                            const void *B, int64_t ldb)
{
    int64_t k = side == TessLeft ? m : n;
    void *T = tu_tri_dense(t, A, k, lda, uplo, diag), *Bref = tu_copy(t, B0, ldb, n);
    if (side == TessLeft)
        tu_gemm_ref(t, trans, TessNoTrans, m, n, k, alpha, T, k, B0, ldb, 0.0, Bref, ldb);
    else
        tu_gemm_ref(t, TessNoTrans, trans, m, n, k, alpha, B0, ldb, T, k, 0.0, Bref, ldb);
    double r = tu_gemm_residual(t, m, n, k, alpha, tu_norm(t, T, k, k, k),
                                tu_norm(t, B0, m, n, ldb), 0.0, 0.0, B, Bref, ldb);
    free(T);
    free(Bref);
    return tu_all_finite(t, B, m, n, ldb) ? r : INFINITY;
}

/* Random everywhere: a product needs no conditioning. */
static void *random_matrix(const tu_type_t *t, int64_t k, int64_t lda, tess_uplo_t uplo,
                           unsigned seed)
{
    (void)uplo;
    return tu_matrix(t, lda, k, seed);
}

static const trxm_routine_t trmm = {
    .name = "trmm",
    .call = tu_trmm_async,
    .matrix = random_matrix,
    .residual = trmm_residual,
    .bound = BOUND,
};

static void
trmm_matches_openblas_for_every_side_uplo_trans_diag_and_precision_on_and_off_the_grid(void **state)
{
    (void)state;
    trxm_check_every_case_and_precision(&trmm);
}

static void trmm_never_reads_the_other_triangle_of_a_nor_a_unit_diagonal(void **state)
{
    (void)state;
    trxm_check_the_other_triangle_is_never_read(&trmm);
}

/* A and B windows of one parent at offsets off the tile grid: B is
 * multiplied, and every element of the parent outside B is bitwise what it
 * was. */
static void trmm_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[2];
    int64_t ld = 7 * NB + 3, m = 3 * NB + 5, n = 2 * NB - 3;
    for (int s = 0; s < 2; s++) {
        tess_side_t side = trxm_sides[s];
        void *P = tu_matrix(t, ld, ld, 11), *Pref = tu_copy(t, P, ld, ld);
        char *A = (char *)P + (size_t)(1 + 2 * ld) * t->es;
        int64_t bi = 3 * NB + 9, bj = NB + 5;
        char *B = (char *)P + (size_t)(bi + bj * ld) * t->es;
        char *B0 = (char *)Pref + (B - (char *)P);
        assert_int_equal(tu_trmm_async(t, side, TessUpper, TessTrans, TessUnit, m, n,
                                       -1.5 + 0.5 * I, A, ld, B, ld),
                         0);
        assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, P, ld, t->es), 0);
        assert_int_equal(tess_sync(), 0);
        double r = trmm_residual(t, side, TessUpper, TessTrans, TessUnit, m, n, -1.5 + 0.5 * I, A,
                                 ld, B0, B, ld);
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
static void trmm_with_alpha_zero_sets_b_to_zero_without_reading_a_or_b(void **state)
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
            assert_int_equal(tu_trmm_async(t, trxm_sides[s], TessLower, TessTrans, TessUnit, m, n,
                                           0.0, s ? NULL : A, k, B, m),
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

static void trmm_with_m_or_n_zero_returns_at_once_and_touches_nothing(void **state)
{
    (void)state;
    double A[4] = { NAN, NAN, NAN, NAN }, B[4] = { NAN, 1, 2, 3 };
    assert_int_equal(tess_dtrmm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, 0, 2, 1.0,
                                      NULL, 1, NULL, 1),
                     0);
    assert_int_equal(
        tess_dtrmm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, 2, 0, 1.0, A, 2, B, 2), 0);
    assert_int_equal(
        tess_dtrmm_async(TessRight, TessUpper, TessTrans, TessUnit, 2, 0, 0.0, A, 1, B, 2), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(B[0]) && B[1] == 1 && B[2] == 2 && B[3] == 3);
}

static void trmm_rejects_invalid_arguments_with_their_reference_numbers(void **state)
{
    (void)state;
    double A[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, B[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    const tess_side_t L = TessLeft, R = TessRight;
    const tess_uplo_t Up = TessUpper;
    const tess_trans_t C = TessConjTrans;
    const tess_diag_t U = TessUnit;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dtrmm_async(3, Up, C, U, 2, 2, 1, A, 2, B, 2), -1);
    assert_int_equal(tess_dtrmm_async(R, 5, C, U, 2, 2, 1, A, 2, B, 2), -2);
    assert_int_equal(tess_dtrmm_async(R, Up, 114, U, 2, 2, 1, A, 2, B, 2), -3);
    assert_int_equal(tess_dtrmm_async(R, Up, C, 130, 2, 2, 1, A, 2, B, 2), -4);
    assert_int_equal(tess_dtrmm_async(R, Up, C, U, -2, 2, 1, A, 2, B, 2), -5);
    assert_int_equal(tess_dtrmm_async(R, Up, C, U, 2, -2, 1, A, 2, B, 2), -6);
    assert_int_equal(tess_dtrmm_async(R, Up, C, U, 2, 2, 1, NULL, 2, B, 2), -8);
    assert_int_equal(tess_dtrmm_async(L, Up, C, U, 3, 2, 1, A, 2, B, 3), -9);
    assert_int_equal(tess_dtrmm_async(R, Up, C, U, 2, 3, 1, A, 2, B, 2), -9);
    assert_int_equal(tess_dtrmm_async(R, Up, C, U, 2, 2, 1, A, 2, NULL, 2), -10);
    assert_int_equal(tess_dtrmm_async(L, Up, C, U, 2, 2, 1, A, 2, B, 1), -11);
    /* the first invalid argument is the one reported */
    assert_int_equal(tess_dtrmm_async(L, Up, C, 0, -1, -1, 1, NULL, 0, NULL, 0), -4);
    assert_int_equal(tess_strmm_async(L, Up, 0, U, 2, 2, 1, (float *)A, 2, (float *)B, 2), -3);
    assert_int_equal(tess_ctrmm_async(R, Up, C, U, 2, 3, 1, (void *)A, 2, (void *)B, 2), -9);
    assert_int_equal(tess_ztrmm_async(L, Up, C, U, 2, 2, 1, (void *)A, 2, NULL, 2), -10);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() == before);
    for (int i = 0; i < 9; i++)
        assert_true(B[i] == i + 1);
}

/* Side right over mt x kt tiles of B: kt * mt diagonal products and one GEMM
 * per tile of B per off-diagonal tile of the triangle, kt (kt - 1) / 2 * mt,
 * each a task of its own; none for the tiles of A's other triangle. */
static void trmm_runs_one_task_per_tile_of_b_and_referenced_tile_of_a(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[0];
    int64_t kt = 5, mt = 3, m = mt * NB - 1, n = kt * NB;
    void *A = tu_matrix(t, n, n, 3), *B = tu_matrix(t, m, n, 4);
    tess_stats_t s0, s1;
    assert_int_equal(tess_get_stats(&s0), 0);
    assert_int_equal(
        tu_trmm_async(t, TessRight, TessLower, TessTrans, TessNonUnit, m, n, 1.0, A, n, B, m), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tess_get_stats(&s1), 0);
    uint64_t total = 0;
    for (int d = 0; d < s1.ndevices; d++)
        total += s1.tasks[d] - s0.tasks[d];
    assert_int_equal(total, kt * mt + kt * (kt - 1) / 2 * mt);
    tu_release(t, A, n, n);
    tu_release(t, B, m, n);
}

/* Views of one parent M at offsets off the tile grid, with no sync until the
 * end: the block right of M's leading k x k triangle is multiplied by it in
 * place, feeds a GEMM and a SYRK into the trailing matrix, and is then
 * multiplied again, through a view two rows lower, by the trailing matrix's
 * lower triangle that the SYRK wrote; last, a solve with that same triangle
 * through the first view.  Bound: ||M - Mref||_F / (5 n eps ||Mref||_F) < 10,
 * Mref the same sequence run by OpenBLAS. */
static void
trmm_gemm_syrk_and_trsm_chained_on_overlapping_views_need_no_sync_in_between(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    const int64_t n = 5 * NB + 3, k = 2 * NB + 5, r = n - k;
    double *M = tu_matrix(t, n, n, 31);
    for (int64_t i = 0; i < n; i++)
        M[i + i * n] = (double)n;
    double *Mr = tu_copy(t, M, n, n);
    for (int ref = 0; ref < 2; ref++) {
        double *X = ref ? Mr : M;
        double *U = X, *B1 = X + k * n, *M21 = X + k, *S = X + k + k * n, *B1lo = X + 2 + k * n;
        if (!ref) {
            assert_int_equal(tess_dtrmm_async(TessLeft, TessUpper, TessNoTrans, TessUnit, k, r, 0.5,
                                              U, n, B1, n),
                             0);
            assert_int_equal(
                tess_dgemm_async(TessNoTrans, TessNoTrans, r, r, k, -1, M21, n, B1, n, 1, S, n), 0);
            assert_int_equal(tess_dsyrk_async(TessLower, TessTrans, r, k, 1, B1, n, 1, S, n), 0);
            assert_int_equal(tess_dtrmm_async(TessRight, TessLower, TessTrans, TessNonUnit, k - 2,
                                              r, 1, S, n, B1lo, n),
                             0);
            assert_int_equal(tess_dtrsm_async(TessRight, TessLower, TessNoTrans, TessNonUnit, k, r,
                                              2, S, n, B1, n),
                             0);
            assert_int_equal(tess_memory_coherent_async(TessAll, n, n, M, n, t->es), 0);
            assert_int_equal(tess_sync(), 0);
        } else {
            cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasUnit, (int)k,
                        (int)r, 0.5, U, (int)n, B1, (int)n);
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)r, (int)r, (int)k, -1, M21,
                        (int)n, B1, (int)n, 1, S, (int)n);
            cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, (int)r, (int)k, 1, B1, (int)n, 1, S,
                        (int)n);
            cblas_dtrmm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit,
                        (int)(k - 2), (int)r, 1, S, (int)n, B1lo, (int)n);
            cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasNoTrans, CblasNonUnit, (int)k,
                        (int)r, 2, S, (int)n, B1, (int)n);
        }
    }
    double res = tu_diff(t, M, Mr, n, n, n) / (5 * n * t->eps * tu_norm(t, Mr, n, n, n));
    if (!(res < BOUND))
        fail_msg("residual %g", res);
    tu_release(t, M, n, n);
    free(Mr);
}

#define TILE_BYTES ((size_t)NB * NB * sizeof(double))

/* 8 tiles per device against 21 tiles of A and 36 of B: tiles are evicted
 * and written back between their tasks, and the product is still right. */
static void trmm_with_device_memory_of_a_few_tiles_completes_out_of_core(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 8 * TILE_BYTES), 0);
    const tu_type_t *t = &tu_types[1];
    for (int s = 0; s < 2; s++) {
        double r = trxm_run_case(&trmm, t, trxm_sides[s], s ? TessLower : TessUpper, TessTrans,
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
static void trmm_on_one_device_moves_b_and_the_referenced_tiles_of_a_once(void **state)
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
    const tu_type_t *t = &tu_types[3];
    for (int u = 0; u < 2; u++) {
        int64_t m = 5 * NB + 2, n = 37, lda = m + 1;
        void *A = tu_matrix(t, lda, m, 5), *B = tu_matrix(t, m, n, 6);
        tess_stats_t s0, s1;
        assert_int_equal(tess_get_stats(&s0), 0);
        assert_int_equal(tu_trmm_async(t, TessLeft, trxm_uplos[u], TessConjTrans, TessNonUnit, m, n,
                                       2.0, A, lda, B, m),
                         0);
        assert_int_equal(tess_memory_coherent_async(TessAll, m, n, B, m, t->es), 0);
        assert_int_equal(tess_sync(), 0);
        assert_int_equal(tess_get_stats(&s1), 0);
        assert_int_equal(s1.bytes_h2d - s0.bytes_h2d,
                         (uint64_t)(m * n) * t->es +
                             tu_triangle_tile_bytes(m, NB, trxm_uplos[u], t->es));
        assert_int_equal(s1.bytes_d2h - s0.bytes_d2h, (uint64_t)(m * n) * t->es);
        tu_release(t, A, lda, m);
        tu_release(t, B, m, n);
    }
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest on_host2[] = {
        cmocka_unit_test(
            trmm_matches_openblas_for_every_side_uplo_trans_diag_and_precision_on_and_off_the_grid),
        cmocka_unit_test(trmm_never_reads_the_other_triangle_of_a_nor_a_unit_diagonal),
        cmocka_unit_test(trmm_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(trmm_with_alpha_zero_sets_b_to_zero_without_reading_a_or_b),
        cmocka_unit_test(trmm_with_m_or_n_zero_returns_at_once_and_touches_nothing),
        cmocka_unit_test(trmm_rejects_invalid_arguments_with_their_reference_numbers),
        cmocka_unit_test(trmm_runs_one_task_per_tile_of_b_and_referenced_tile_of_a),
        cmocka_unit_test(
            trmm_gemm_syrk_and_trsm_chained_on_overlapping_views_need_no_sync_in_between),
    };
    /* these initialise a runtime of their own */
    const struct CMUnitTest on_their_own[] = {
        cmocka_unit_test(trmm_with_device_memory_of_a_few_tiles_completes_out_of_core),
        cmocka_unit_test(trmm_on_one_device_moves_b_and_the_referenced_tiles_of_a_once),
    };
    return cmocka_run_group_tests_name("trmm", on_host2, tu_group_setup, tu_group_teardown) +
           cmocka_run_group_tests_name("trmm, own runtime", on_their_own, NULL, NULL);
}
