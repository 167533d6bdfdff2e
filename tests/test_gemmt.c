/* GEMMT against OpenBLAS (a GEMM of which only the triangle is kept) on the
 * host backend (host:2, nb = 16): both triangles, every transpose pair, the
 * four precisions, sizes on and off the tile grid; then on tiles of 160, where
 * a diagonal tile's kernel recurses by halves down to its leaf, and of 512,
 * which a GPU computes by levels of batched products (512 = its leaf of 256
 * times 2) beside an edge tile it computes by halves.  C's other triangle is
 * NaN and must keep its bits.
 * Bound: ||C - Cref||_F over the triangle / (max(1,k) eps (|alpha| ||A||_F
 * ||B||_F + |beta| ||C0||_F)) < 10, ||C0|| over the triangle; alpha = 0 and
 * k = 0 are bounded by the same formula. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "testutil.h"

#define NB TU_NB
#define BIG_NB 160
#define LEVELS_NB 512

static const tess_uplo_t uplos[] = { TessUpper, TessLower };
static const tess_trans_t transposes[] = { TessNoTrans, TessTrans, TessConjTrans };
/* one on the tile grid, the others off it */
static const int64_t sizes[] = { 1, NB - 1, NB + 1, 2 * NB, 7 * NB / 2 };
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))

/* Runs the update with lds larger than the rows and C's other triangle NaN,
 * checks that the other triangle and the padding rows keep their bits, and
 * returns the residual. */
static double run_case(const tu_type_t *t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,
                       int64_t n, int64_t k, double _Complex alpha, double _Complex beta)
{
    int64_t ar = ta == TessNoTrans ? n : k, ac = ta == TessNoTrans ? k : n;
    int64_t br = tb == TessNoTrans ? k : n, bc = tb == TessNoTrans ? n : k;
    int64_t lda = ar + 3, ldb = br + 5, ldc = n + 2;
    void *A = tu_matrix(t, lda, ac, 1), *B = tu_matrix(t, ldb, bc, 2);
    void *C = tu_matrix(t, ldc, n, 3);
    tu_fill_other_triangle(t, uplo, n, C, ldc, NAN);
    void *C0 = tu_copy(t, C, ldc, n), *Cref = tu_copy(t, C, ldc, n);
    double nA = tu_norm(t, A, ar, ac, lda), nB = tu_norm(t, B, br, bc, ldb);
    double nC = tu_tri_norm(t, uplo, n, C, ldc);

    assert_int_equal(tu_gemmt_async(t, uplo, ta, tb, n, k, alpha, A, lda, B, ldb, beta, C, ldc), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, ldc, t->es), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemmt_ref(t, uplo, ta, tb, n, k, alpha, A, lda, B, ldb, beta, Cref, ldc);
    double r = tu_residual(t, tu_tri_diff(t, uplo, n, C, Cref, ldc), k, alpha, nA, nB, beta, nC);
    assert_true(tu_other_triangle_same(t, uplo, n, C, C0, ldc));
    assert_true(tu_same_outside(t, C, C0, ldc, n, ldc, 0, 0, n, n));
    tu_release(t, A, lda, ac);
    tu_release(t, B, ldb, bc);
    tu_release(t, C, ldc, n);
    free(C0);
    free(Cref);
    return r;
}

static void check_case(const tu_type_t *t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,
                       int64_t n, int64_t k, double _Complex alpha, double _Complex beta)
{
    double r = run_case(t, uplo, ta, tb, n, k, alpha, beta);
    if (!(r < TU_GEMM_BOUND))
        fail_msg("%sgemmt uplo=%d ta=%d tb=%d n=%lld k=%lld: residual %g", t->name, uplo, ta, tb,
                 (long long)n, (long long)k, r);
}

static void check_all_cases(double _Complex alpha, double _Complex beta)
{
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    for (int s = 0; s < NSIZES; s++)
                        check_case(&tu_types[ti], uplos[u], transposes[a], transposes[b], sizes[s],
                                   sizes[(s + 1) % NSIZES], alpha, beta);
}

static void gemmt_matches_openblas_for_every_uplo_transpose_size_and_precision(void **state)
{
    (void)state;
    check_all_cases(0.7 - 0.2 * I, -1.3 + 0.4 * I);
}

static void gemmt_with_beta_one_adds_the_product_to_the_triangle(void **state)
{
    (void)state;
    check_all_cases(-0.6 + 0.9 * I, 1.0);
}

/* A, B and C are windows of one parent at offsets off the tile grid; C's
 * other triangle is part of the parent and must keep its bits with the rest. */
static void gemmt_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    int64_t ld = 5 * NB + 7, n = 2 * NB + 3, k = NB + 9;
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++) {
            const tu_type_t *t = &tu_types[ti];
            tess_trans_t ta = u ? TessNoTrans : TessConjTrans, tb = u ? TessTrans : TessNoTrans;
            int64_t ar = ta == TessNoTrans ? n : k, ac = ta == TessNoTrans ? k : n;
            int64_t br = tb == TessNoTrans ? k : n, bc = tb == TessNoTrans ? n : k;
            /* A and B side by side, C below both */
            int64_t bj = ac + 4, ci = (ar > br ? ar : br) + 5, cj = NB / 2 + 3;
            void *P = tu_matrix(t, ld, ld, 4 + u), *Pref = tu_copy(t, P, ld, ld);
            char *A = (char *)P + (size_t)(1 + 2 * ld) * t->es;
            char *B = (char *)P + (size_t)(3 + bj * ld) * t->es;
            char *C = (char *)P + (size_t)(ci + cj * ld) * t->es;
            char *Cr = (char *)Pref + (C - (char *)P);
            double _Complex alpha = 2.0 - 0.5 * I, beta = 0.5;
            double nA = tu_norm(t, A, ar, ac, ld), nB = tu_norm(t, B, br, bc, ld);
            double nC = tu_tri_norm(t, uplos[u], n, C, ld);
            assert_int_equal(
                tu_gemmt_async(t, uplos[u], ta, tb, n, k, alpha, A, ld, B, ld, beta, C, ld), 0);
            assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, P, ld, t->es), 0);
            assert_int_equal(tess_sync(), 0);
            tu_gemmt_ref(t, uplos[u], ta, tb, n, k, alpha, (char *)Pref + (A - (char *)P), ld,
                         (char *)Pref + (B - (char *)P), ld, beta, Cr, ld);
            double r =
                tu_residual(t, tu_tri_diff(t, uplos[u], n, C, Cr, ld), k, alpha, nA, nB, beta, nC);
            assert_true(r < TU_GEMM_BOUND);
            assert_true(tu_same_outside(t, P, Pref, ld, ld, ld, ci, cj, n, n));
            assert_true(tu_other_triangle_same(t, uplos[u], n, C, Cr, ld));
            tu_release(t, P, ld, ld);
            free(Pref);
        }
}

/* alpha == 0 (A and B all NaN) and k == 0 (A and B NULL) both reduce to
 * C = beta C on the triangle. */
static void gemmt_with_alpha_zero_or_k_zero_never_reads_a_or_b_and_scales_the_triangle(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int variant = 0; variant < 2; variant++) {
            const tu_type_t *t = &tu_types[ti];
            tess_uplo_t uplo = uplos[variant];
            int64_t n = 2 * NB + 5, k = variant ? 0 : NB + 1;
            double _Complex alpha = variant ? 1.0 : 0.0, beta = 0.5 + 0.5 * I;
            void *A = tu_matrix(t, n, NB + 1, 5), *B = tu_matrix(t, NB + 1, n, 6);
            void *C = tu_matrix(t, n, n, 7);
            tu_fill(t, A, n, NB + 1, n, NAN);
            tu_fill(t, B, NB + 1, n, NB + 1, NAN);
            tu_fill_other_triangle(t, uplo, n, C, n, NAN);
            void *C0 = tu_copy(t, C, n, n), *Cref = tu_copy(t, C, n, n);
            double nC = tu_tri_norm(t, uplo, n, C, n);
            assert_int_equal(tu_gemmt_async(t, uplo, TessNoTrans, TessNoTrans, n, k, alpha,
                                            variant ? NULL : A, n, variant ? NULL : B, NB + 1, beta,
                                            C, n),
                             0);
            assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
            assert_int_equal(tess_sync(), 0);
            tu_gemmt_ref(t, uplo, TessNoTrans, TessNoTrans, n, 0, 0.0, NULL, n, NULL, 1, beta, Cref,
                         n);
            assert_true(tu_residual(t, tu_tri_diff(t, uplo, n, C, Cref, n), 0, 0.0, 0, 0, beta,
                                    nC) < TU_GEMM_BOUND);
            assert_true(tu_other_triangle_same(t, uplo, n, C, C0, n));
            tu_release(t, A, n, NB + 1);
            tu_release(t, B, NB + 1, n);
            tu_release(t, C, n, n);
            free(C0);
            free(Cref);
        }
}

/* C all NaN: beta == 0 must not read the triangle, nor touch the other one. */
static void gemmt_with_beta_zero_ignores_nan_in_c(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int alpha_zero = 0; alpha_zero < 2; alpha_zero++) {
            const tu_type_t *t = &tu_types[ti];
            tess_uplo_t uplo = uplos[alpha_zero];
            int64_t n = 2 * NB + 1, k = NB - 1;
            void *A = tu_matrix(t, k, n, 8), *B = tu_matrix(t, n, k, 9);
            void *C = tu_matrix(t, n, n, 1);
            tu_fill(t, C, n, n, n, NAN);
            void *C0 = tu_copy(t, C, n, n);
            assert_int_equal(tu_gemmt_async(t, uplo, TessTrans, TessConjTrans, n, k,
                                            alpha_zero ? 0.0 : 1.0 + I, A, k, B, n, 0.0, C, n),
                             0);
            assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
            assert_int_equal(tess_sync(), 0);
            assert_true(tu_tri_finite(t, uplo, n, C, n));
            if (alpha_zero)
                assert_true(tu_tri_norm(t, uplo, n, C, n) == 0);
            assert_true(tu_other_triangle_same(t, uplo, n, C, C0, n));
            tu_release(t, A, k, n);
            tu_release(t, B, n, k);
            tu_release(t, C, n, n);
            free(C0);
        }
}

static void gemmt_with_alpha_zero_and_beta_one_leaves_c_bitwise_unchanged(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int k_zero = 0; k_zero < 2; k_zero++) {
            const tu_type_t *t = &tu_types[ti];
            int64_t n = NB + 1;
            void *C = tu_matrix(t, n, n, 3);
            tu_set(t, C, 2, 2, n, NAN);
            void *Cref = tu_copy(t, C, n, n);
            assert_int_equal(tu_gemmt_async(t, TessLower, TessNoTrans, TessNoTrans, n,
                                            k_zero ? 0 : n, k_zero ? 1.0 : 0.0, NULL, n, NULL, n,
                                            1.0, C, n),
                             0);
            assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
            assert_int_equal(tess_sync(), 0);
            assert_memory_equal(C, Cref, (size_t)(n * n) * t->es);
            tu_release(t, C, n, n);
            free(Cref);
        }
}

static void gemmt_with_n_zero_returns_at_once_and_touches_nothing(void **state)
{
    (void)state;
    double A[2] = { NAN, NAN };
    float _Complex Z[2] = { NAN, 1 };
    assert_int_equal(
        tess_dgemmt_async(TessUpper, TessNoTrans, TessNoTrans, 0, 2, 1.0, A, 1, A, 2, 0.0, NULL, 1),
        0);
    assert_int_equal(
        tess_cgemmt_async(TessLower, TessTrans, TessConjTrans, 0, 1, 1.0, Z, 1, Z, 1, 0.0, Z, 1),
        0);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(crealf(Z[0])) && Z[1] == 1);
}

/* One diagonal tile of 150 rows: its kernel splits it into halves of 128 and
 * 22, then 64 and 64, so both halves' GEMMs and leaves are checked. */
static void gemmt_on_a_tile_larger_than_the_kernel_leaf_matches_openblas(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    check_case(&tu_types[ti], uplos[u], transposes[a], transposes[b], 150, 37,
                               0.7 - 0.2 * I, -1.3 + 0.4 * I);
}

/* Tiles of 512 rows and an edge tile of 76. */
static void gemmt_on_tiles_a_gpu_computes_by_levels_matches_openblas(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    check_case(&tu_types[ti], uplos[u], transposes[a], transposes[b],
                               2 * LEVELS_NB + 76, 37, 0.7 - 0.2 * I, -1.3 + 0.4 * I);
}

static int levels_tile_setup(void **state)
{
    (void)state;
    return tu_init_host(2, LEVELS_NB, 0);
}

static int big_tile_setup(void **state)
{
    (void)state;
    return tu_init_host(2, BIG_NB, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemmt_matches_openblas_for_every_uplo_transpose_size_and_precision),
        cmocka_unit_test(gemmt_with_beta_one_adds_the_product_to_the_triangle),
        cmocka_unit_test(gemmt_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(
            gemmt_with_alpha_zero_or_k_zero_never_reads_a_or_b_and_scales_the_triangle),
        cmocka_unit_test(gemmt_with_beta_zero_ignores_nan_in_c),
        cmocka_unit_test(gemmt_with_alpha_zero_and_beta_one_leaves_c_bitwise_unchanged),
        cmocka_unit_test(gemmt_with_n_zero_returns_at_once_and_touches_nothing),
    };
    const struct CMUnitTest big_tile_tests[] = {
        cmocka_unit_test(gemmt_on_a_tile_larger_than_the_kernel_leaf_matches_openblas),
    };
    const struct CMUnitTest levels_tile_tests[] = {
        cmocka_unit_test(gemmt_on_tiles_a_gpu_computes_by_levels_matches_openblas),
    };
    int failed = cmocka_run_group_tests(tests, tu_group_setup, tu_group_teardown);
    failed += cmocka_run_group_tests(big_tile_tests, big_tile_setup, tu_group_teardown);
    return failed + cmocka_run_group_tests(levels_tile_tests, levels_tile_setup, tu_group_teardown);
}
