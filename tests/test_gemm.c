/* GEMM against OpenBLAS on the host backend (host:2, nb = 16), every
 * transpose pair, the four precisions, sizes on and off the tile grid.
 * Bound: the normwise residual of testutil.h below TU_GEMM_BOUND (10). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

#define NB TU_NB

static const tess_trans_t transposes[] = { TessNoTrans, TessTrans, TessConjTrans };
static const int64_t sizes[] = { 1, NB - 1, NB + 1, 7 * NB / 2 };

/* Runs C = alpha op(A) op(B) + beta C with lds larger than the rows, checks
 * the residual, and returns it. */
static double run_case(const tu_type_t *t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,
                       int64_t k, double _Complex alpha, double _Complex beta)
{
    int64_t ar = ta == TessNoTrans ? m : k, ac = ta == TessNoTrans ? k : m;
    int64_t br = tb == TessNoTrans ? k : n, bc = tb == TessNoTrans ? n : k;
    int64_t lda = ar + 3, ldb = br + 5, ldc = m + 2;
    void *A = tu_matrix(t, lda, ac, 1), *B = tu_matrix(t, ldb, bc, 2), *C = tu_matrix(t, ldc, n, 3);
    void *Cref = tu_copy(t, C, ldc, n);
    double nA = tu_norm(t, A, ar, ac, lda), nB = tu_norm(t, B, br, bc, ldb);
    double nC = tu_norm(t, C, m, n, ldc);

    assert_int_equal(tu_gemm_async(t, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, ldc, t->es), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemm_ref(t, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, Cref, ldc);
    double r = tu_gemm_residual(t, m, n, k, alpha, nA, nB, beta, nC, C, Cref, ldc);
    /* the padding rows between m and ldc are not C: never written */
    assert_true(tu_diff(t, (char *)C + (size_t)m * t->es, (char *)Cref + (size_t)m * t->es, 2, n,
                        ldc) == 0);
    tu_release(t, A, lda, ac);
    tu_release(t, B, ldb, bc);
    tu_release(t, C, ldc, n);
    free(Cref);
    return r;
}

static void gemm_matches_openblas_for_every_transpose_size_and_precision(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                for (int s = 0; s < 4; s++) {
                    const tu_type_t *t = &tu_types[ti];
                    int64_t m = sizes[s], n = sizes[(s + 1) % 4], k = sizes[(s + 2) % 4];
                    double r = run_case(t, transposes[a], transposes[b], m, n, k, 0.7 - 0.2 * I,
                                        -1.3 + 0.4 * I);
                    if (!(r < TU_GEMM_BOUND))
                        fail_msg("%sgemm ta=%d tb=%d m=%lld n=%lld k=%lld: residual %g", t->name,
                                 transposes[a], transposes[b], (long long)m, (long long)n,
                                 (long long)k, r);
                }
}

static void gemm_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t ld = 5 * NB + 7, m = 2 * NB + 3, n = NB + 9, k = 2 * NB - 1;
    void *P = tu_matrix(t, ld, ld, 4), *Pref = tu_copy(t, P, ld, ld);
    /* A, B, C are windows of one parent at offsets that are off the tile grid */
    char *A = (char *)P + (size_t)(1 + 2 * ld) * t->es;
    char *B = (char *)P + (size_t)(3 + (3 * NB) * ld) * t->es;
    char *C = (char *)P + (size_t)(2 * NB + 5 + (NB + 2) * ld) * t->es;
    char *Cr = (char *)Pref + (C - (char *)P);
    double nA = tu_norm(t, A, m, k, ld), nB = tu_norm(t, B, k, n, ld), nC = tu_norm(t, C, m, n, ld);
    assert_int_equal(
        tu_gemm_async(t, TessNoTrans, TessNoTrans, m, n, k, 2.0, A, ld, B, ld, 0.5, C, ld), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, P, ld, t->es), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemm_ref(t, TessNoTrans, TessNoTrans, m, n, k, 2.0, (char *)Pref + (A - (char *)P), ld,
                (char *)Pref + (B - (char *)P), ld, 0.5, Cr, ld);
    assert_true(tu_gemm_residual(t, m, n, k, 2.0, nA, nB, 0.5, nC, C, Cr, ld) < TU_GEMM_BOUND);
    /* bitwise: the parent outside C is as it was */
    for (int64_t j = 0; j < ld; j++)
        for (int64_t i = 0; i < ld; i++) {
            bool in_c = i >= 2 * NB + 5 && i < 2 * NB + 5 + m && j >= NB + 2 && j < NB + 2 + n;
            if (!in_c)
                assert_true(tu_get(t, P, i, j, ld) == tu_get(t, Pref, i, j, ld));
        }
    tu_release(t, P, ld, ld);
    free(Pref);
}

static void gemm_with_m_or_n_zero_returns_at_once_and_touches_nothing(void **state)
{
    (void)state;
    double C[4] = { NAN, 1, 2, 3 };
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, 0, 2, 2, 1.0, NULL, 1, NULL, 2, 0.0, C, 1), 0);
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, 2, 0, 2, 1.0, NULL, 2, NULL, 2, 0.0, C, 2), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(C[0]) && C[1] == 1 && C[3] == 3);
}

/* k == 0 and alpha == 0 both reduce to C = beta C: exact, so bound 0. */
static void gemm_with_k_zero_or_alpha_zero_scales_c_by_beta(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        int64_t m = NB + 3, n = 2 * NB + 1, ld = m + 1;
        for (int variant = 0; variant < 2; variant++) {
            void *C = tu_matrix(t, ld, n, 5), *Cref = tu_copy(t, C, ld, n);
            void *A = tu_matrix(t, ld, NB, 6), *B = tu_matrix(t, NB, n, 7);
            int64_t k = variant ? 0 : NB;
            double _Complex alpha = variant ? 1.0 : 0.0;
            assert_int_equal(tu_gemm_async(t, TessNoTrans, TessNoTrans, m, n, k, alpha, A, ld, B,
                                           NB, 0.5 + 0.5 * I, C, ld),
                             0);
            assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, ld, t->es), 0);
            assert_int_equal(tess_sync(), 0);
            tu_gemm_ref(t, TessNoTrans, TessNoTrans, m, n, 0, 0.0, A, ld, B, NB, 0.5 + 0.5 * I,
                        Cref, ld);
            assert_true(tu_diff(t, C, Cref, m, n, ld) == 0);
            tu_release(t, C, ld, n);
            tu_release(t, A, ld, NB);
            tu_release(t, B, NB, n);
            free(Cref);
        }
    }
}

static void gemm_with_beta_zero_ignores_nan_in_c(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        int64_t m = 2 * NB + 1, n = NB - 1, k = NB + 2;
        void *A = tu_matrix(t, m, k, 8), *B = tu_matrix(t, k, n, 9), *C = tu_alloc(t, m, n);
        for (int alpha_zero = 0; alpha_zero < 2; alpha_zero++) {
            tu_fill(t, C, m, n, m, NAN);
            assert_int_equal(tess_memory_invalidate(m, n, C, m, t->es), 0);
            assert_int_equal(tu_gemm_async(t, TessNoTrans, TessNoTrans, m, n, k,
                                           alpha_zero ? 0.0 : 1.0, A, m, B, k, 0.0, C, m),
                             0);
            assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, m, t->es), 0);
            assert_int_equal(tess_sync(), 0);
            assert_true(tu_all_finite(t, C, m, n, m));
            if (alpha_zero)
                assert_true(tu_norm(t, C, m, n, m) == 0);
        }
        tu_release(t, A, m, k);
        tu_release(t, B, k, n);
        tu_release(t, C, m, n);
    }
}

static void gemm_with_alpha_zero_and_beta_one_leaves_c_bitwise_unchanged(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[3];
    int64_t m = NB + 1, n = NB + 1;
    void *C = tu_matrix(t, m, n, 3);
    tu_set(t, C, 2, 2, m, NAN);
    void *Cref = tu_copy(t, C, m, n);
    assert_int_equal(
        tu_gemm_async(t, TessNoTrans, TessNoTrans, m, n, m, 0.0, C, m, C, m, 1.0, C, m), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, m, t->es), 0);
    assert_int_equal(tess_sync(), 0);
    assert_memory_equal(C, Cref, (size_t)(m * n) * t->es);
    tu_release(t, C, m, n);
    free(Cref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_matches_openblas_for_every_transpose_size_and_precision),
        cmocka_unit_test(gemm_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(gemm_with_m_or_n_zero_returns_at_once_and_touches_nothing),
        cmocka_unit_test(gemm_with_k_zero_or_alpha_zero_scales_c_by_beta),
        cmocka_unit_test(gemm_with_beta_zero_ignores_nan_in_c),
        cmocka_unit_test(gemm_with_alpha_zero_and_beta_one_leaves_c_bitwise_unchanged),
    };
    return cmocka_run_group_tests(tests, tu_group_setup, tu_group_teardown);
}
