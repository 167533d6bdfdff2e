/* SYRK and HERK against OpenBLAS on the host backend (host:2, nb = 16): both
 * triangles, every trans each routine takes (N, T and C for real types; N, T
 * for csyrk/zsyrk; N, C for cherk/zherk), the four precisions, sizes on and
 * off the tile grid, then on tiles of 512 rows (the GPU path by levels).  C's
 * other triangle is NaN and must keep its bits.
 * Bound: ||C - Cref||_F over the triangle / (max(1,k) eps (|alpha| ||A||_F^2
 * + |beta| ||C0||_F)) < 10, with ||C0|| the norm of the symmetric (Hermitian)
 * matrix C stands for; alpha = 0 and k = 0 are bounded by the same formula. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "rank_k_cases.h"

#define NB TU_NB
#define LEVELS_NB 512

static void syrk_and_herk_match_openblas_for_every_uplo_trans_size_and_precision(void **state)
{
    (void)state;
    rk_check_all_cases(false, 0.7 - 0.2 * I, -1.3 + 0.4 * I);
}

static void syrk_and_herk_with_beta_one_add_the_product_to_c(void **state)
{
    (void)state;
    rk_check_all_cases(false, -0.6 + 0.9 * I, 1.0);
}

/* A and C are windows of one parent at offsets off the tile grid; C's other
 * triangle is part of the parent and must keep its bits with the rest. */
static void syrk_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    int64_t ld = 5 * NB + 7, n = 2 * NB + 3, k = NB + 9;
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++)
            for (int u = 0; u < 2; u++) {
                const tu_type_t *t = &tu_types[ti];
                tess_trans_t trans = u ? TessNoTrans : (herm ? TessConjTrans : TessTrans);
                int64_t ar = trans == TessNoTrans ? n : k, ac = trans == TessNoTrans ? k : n;
                int64_t ci = ar + 4, cj = NB / 2 + 3;
                void *P = tu_matrix(t, ld, ld, 4 + u), *Pref = tu_copy(t, P, ld, ld);
                char *A = (char *)P + (size_t)(1 + 2 * ld) * t->es;
                char *C = (char *)P + (size_t)(ci + cj * ld) * t->es;
                char *Cr = (char *)Pref + (C - (char *)P);
                double alpha = 2.0, beta = 0.5;
                double nA = tu_norm(t, A, ar, ac, ld), nC = tu_sym_norm(t, rk_uplos[u], n, C, ld);
                assert_int_equal(
                    tu_syrk_async(t, herm, rk_uplos[u], trans, n, k, alpha, A, ld, beta, C, ld), 0);
                assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, P, ld, t->es), 0);
                assert_int_equal(tess_sync(), 0);
                tu_syrk_ref(t, herm, rk_uplos[u], trans, n, k, alpha,
                            (char *)Pref + (A - (char *)P), ld, beta, Cr, ld);
                double r = tu_residual(t, tu_tri_diff(t, rk_uplos[u], n, C, Cr, ld), k, alpha, nA,
                                       nA, beta, nC);
                assert_true(r < TU_GEMM_BOUND);
                assert_true(tu_other_triangle_same(t, rk_uplos[u], n, C, Cr, ld));
                assert_true(tu_same_outside(t, P, Pref, ld, ld, ld, ci, cj, n, n));
                tu_release(t, P, ld, ld);
                free(Pref);
            }
}

/* alpha == 0 (A all NaN) and k == 0 (A NULL) both reduce to C = beta C on the
 * triangle; HERK also zeroes the imaginary parts of the diagonal. */
static void syrk_with_alpha_zero_or_k_zero_never_reads_a_and_scales_the_triangle(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++)
            for (int variant = 0; variant < 2; variant++) {
                const tu_type_t *t = &tu_types[ti];
                tess_uplo_t uplo = rk_uplos[variant];
                int64_t n = 2 * NB + 5, k = variant ? 0 : NB + 1;
                double _Complex beta = herm ? -0.75 : 0.5 + 0.5 * I;
                double _Complex alpha = variant ? 1.0 : 0.0;
                void *A = tu_matrix(t, n, NB + 1, 5), *C = tu_matrix(t, n, n, 6);
                tu_fill(t, A, n, NB + 1, n, NAN);
                tu_fill_other_triangle(t, uplo, n, C, n, NAN);
                void *C0 = tu_copy(t, C, n, n), *Cref = tu_copy(t, C, n, n);
                double nC = tu_sym_norm(t, uplo, n, C, n);
                assert_int_equal(tu_syrk_async(t, herm, uplo, TessNoTrans, n, k, alpha,
                                               variant ? NULL : A, n, beta, C, n),
                                 0);
                assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
                assert_int_equal(tess_sync(), 0);
                /* the reference gets a finite A: its result does not depend on it */
                void *Af = tu_matrix(t, n, NB + 1, 7);
                tu_syrk_ref(t, herm, uplo, TessNoTrans, n, k, alpha, Af, n, beta, Cref, n);
                assert_true(tu_residual(t, tu_tri_diff(t, uplo, n, C, Cref, n), 0, 0.0, 0, 0, beta,
                                        nC) < TU_GEMM_BOUND);
                assert_true(tu_other_triangle_same(t, uplo, n, C, C0, n));
                if (herm)
                    assert_true(tu_real_diagonal(t, n, C, n));
                tu_release(t, A, n, NB + 1);
                tu_release(t, C, n, n);
                free(Af);
                free(C0);
                free(Cref);
            }
}

/* C all NaN: beta == 0 must not read the triangle, nor touch the other one. */
static void syrk_with_beta_zero_ignores_nan_in_c(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++)
            for (int alpha_zero = 0; alpha_zero < 2; alpha_zero++) {
                const tu_type_t *t = &tu_types[ti];
                tess_uplo_t uplo = rk_uplos[alpha_zero];
                int64_t n = 2 * NB + 1, k = NB - 1;
                void *A = tu_matrix(t, k, n, 8), *C = tu_matrix(t, n, n, 1);
                tu_fill(t, C, n, n, n, NAN);
                void *C0 = tu_copy(t, C, n, n);
                tess_trans_t trans = herm ? TessConjTrans : TessTrans;
                assert_int_equal(tu_syrk_async(t, herm, uplo, trans, n, k, alpha_zero ? 0.0 : 1.0,
                                               A, k, 0.0, C, n),
                                 0);
                assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
                assert_int_equal(tess_sync(), 0);
                assert_true(tu_tri_finite(t, uplo, n, C, n));
                if (alpha_zero)
                    assert_true(tu_tri_norm(t, uplo, n, C, n) == 0);
                assert_true(tu_other_triangle_same(t, uplo, n, C, C0, n));
                tu_release(t, A, k, n);
                tu_release(t, C, n, n);
                free(C0);
            }
}

/* Reference BLAS returns at once: even HERK's diagonal keeps its imaginary
 * parts, and A may be NULL. */
static void syrk_and_herk_with_alpha_zero_and_beta_one_leave_c_bitwise_unchanged(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++)
            for (int k_zero = 0; k_zero < 2; k_zero++) {
                const tu_type_t *t = &tu_types[ti];
                int64_t n = NB + 1;
                void *C = tu_matrix(t, n, n, 3);
                tu_set(t, C, 2, 2, n, NAN);
                void *Cref = tu_copy(t, C, n, n);
                assert_int_equal(tu_syrk_async(t, herm, TessLower, TessNoTrans, n, k_zero ? 0 : n,
                                               k_zero ? 1.0 : 0.0, NULL, n, 1.0, C, n),
                                 0);
                assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
                assert_int_equal(tess_sync(), 0);
                assert_memory_equal(C, Cref, (size_t)(n * n) * t->es);
                tu_release(t, C, n, n);
                free(Cref);
            }
}

/* Every path through HERK (product with beta 1, 0 or other, scaling alone)
 * leaves exact zeros in the imaginary parts of the diagonal. */
static void herk_sets_the_imaginary_parts_of_the_diagonal_to_exactly_zero(void **state)
{
    (void)state;
    const double alphas[] = { 0.7, 0.7, 0.7, 0.0 }, betas[] = { 1.0, 0.0, -2.0, 0.5 };
    for (int ti = 2; ti < 4; ti++)
        for (int c = 0; c < 4; c++)
            for (int u = 0; u < 2; u++) {
                const tu_type_t *t = &tu_types[ti];
                int64_t n = 2 * NB + 3, k = NB + 2;
                void *A = tu_matrix(t, n, k, 9), *C = tu_matrix(t, n, n, 10);
                assert_false(tu_real_diagonal(t, n, C, n));
                assert_int_equal(tu_syrk_async(t, true, rk_uplos[u], TessNoTrans, n, k, alphas[c],
                                               A, n, betas[c], C, n),
                                 0);
                assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
                assert_int_equal(tess_sync(), 0);
                assert_true(tu_real_diagonal(t, n, C, n));
                tu_release(t, A, n, k);
                tu_release(t, C, n, n);
            }
}

/* BLAS takes the imaginary parts of a Hermitian C's diagonal as zero and does not read them:
 * NaN and Inf there change nothing on any path through HERK and HER2K (a product with beta
 * 1 or other, the scaling alone with alpha 0 or k 0, beta 0).  C's triangle is finite and as
 * the reference's on C with those parts zero, within the update bound. */
static void never_read_diag_imag(int64_t n, int64_t kk)
{
    const double alphas[] = { 0.7, 0.7, 0.0, 0.0, 0.7 }, betas[] = { 1.0, -2.0, 0.5, 0.0, 0.5 };
    const int64_t ks[] = { kk, kk, kk, kk, 0 };
    for (int ti = 2; ti < 4; ti++)
        for (int c = 0; c < 5; c++)
            for (int two = 0; two < 2; two++) {
                const tu_type_t *t = &tu_types[ti];
                tess_uplo_t uplo = rk_uplos[(c + two) % 2];
                int64_t k = ks[c];
                void *A = tu_matrix(t, n, kk, 11), *B = tu_matrix(t, n, kk, 12);
                void *C = tu_matrix(t, n, n, 13), *Cref = tu_copy(t, C, n, n);
                for (int64_t j = 0; j < n; j++) {
                    double re = creal(tu_get(t, C, j, j, n));
                    tu_set(t, C, j, j, n, CMPLX(re, j % 2 ? NAN : INFINITY));
                    tu_set(t, Cref, j, j, n, re);
                }
                double nC = tu_sym_norm(t, uplo, n, Cref, n);
                if (two) {
                    assert_int_equal(tu_syr2k_async(t, true, uplo, TessNoTrans, n, k, alphas[c], A,
                                                    n, B, n, betas[c], C, n),
                                     0);
                    tu_syr2k_ref(t, true, uplo, TessNoTrans, n, k, alphas[c], A, n, B, n, betas[c],
                                 Cref, n);
                } else {
                    assert_int_equal(tu_syrk_async(t, true, uplo, TessNoTrans, n, k, alphas[c], A,
                                                   n, betas[c], C, n),
                                     0);
                    tu_syrk_ref(t, true, uplo, TessNoTrans, n, k, alphas[c], A, n, betas[c], Cref,
                                n);
                }
                assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
                assert_int_equal(tess_sync(), 0);
                double diff = tu_tri_diff(t, uplo, n, C, Cref, n);
                if (!tu_tri_finite(t, uplo, n, C, n) ||
                    !(tu_residual(t, diff, k, alphas[c], 2 * tu_norm(t, A, n, kk, n), 1, betas[c],
                                  nC) < TU_GEMM_BOUND))
                    fail_msg("%sher%sk uplo %d alpha %g beta %g k %lld: C %s, error %g", t->name,
                             two ? "2" : "", uplo, alphas[c], betas[c], (long long)k,
                             tu_tri_finite(t, uplo, n, C, n) ? "finite" : "not finite", diff);
                tu_release(t, A, n, kk);
                tu_release(t, B, n, kk);
                tu_release(t, C, n, n);
                free(Cref);
            }
}

static void herk_and_her2k_never_read_the_imaginary_parts_of_cs_diagonal(void **state)
{
    (void)state;
    never_read_diag_imag(2 * NB + 3, NB + 2);
}

static void syrk_with_n_zero_returns_at_once_and_touches_nothing(void **state)
{
    (void)state;
    double A[2] = { NAN, NAN };
    double _Complex Z[2] = { NAN, 1 };
    assert_int_equal(tess_dsyrk_async(TessUpper, TessNoTrans, 0, 2, 1.0, A, 1, 0.0, NULL, 1), 0);
    assert_int_equal(tess_zherk_async(TessLower, TessConjTrans, 0, 2, 1.0, NULL, 2, 0.0, NULL, 1),
                     0);
    assert_int_equal(tess_zsyrk_async(TessLower, TessTrans, 0, 1, 1.0, Z, 1, 0.0, Z, 1), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(creal(Z[0])) && Z[1] == 1);
}

/* Tiles of 512 rows beside an edge tile of 76: a GPU computes the diagonal
 * tiles of 512 as GEMMTs by levels of batched products (its leaf of 256
 * times 2), the edge one with the BLAS routine. */
static void syrk_and_herk_on_tiles_a_gpu_computes_by_levels_match_openblas(void **state)
{
    (void)state;
    rk_check_level_tiles(false, LEVELS_NB);
}

/* The same on tiles a GPU computes by levels (HER2K's first GEMMT pass included). */
static void herk_and_her2k_by_levels_never_read_the_imaginary_parts_of_cs_diagonal(void **state)
{
    (void)state;
    never_read_diag_imag(LEVELS_NB + 76, 40);
}

static int levels_tile_setup(void **state)
{
    (void)state;
    return tu_init_host(2, LEVELS_NB, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(syrk_and_herk_match_openblas_for_every_uplo_trans_size_and_precision),
        cmocka_unit_test(syrk_and_herk_with_beta_one_add_the_product_to_c),
        cmocka_unit_test(syrk_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(syrk_with_alpha_zero_or_k_zero_never_reads_a_and_scales_the_triangle),
        cmocka_unit_test(syrk_with_beta_zero_ignores_nan_in_c),
        cmocka_unit_test(syrk_and_herk_with_alpha_zero_and_beta_one_leave_c_bitwise_unchanged),
        cmocka_unit_test(herk_sets_the_imaginary_parts_of_the_diagonal_to_exactly_zero),
        cmocka_unit_test(herk_and_her2k_never_read_the_imaginary_parts_of_cs_diagonal),
        cmocka_unit_test(syrk_with_n_zero_returns_at_once_and_touches_nothing),
    };
    const struct CMUnitTest levels_tile_tests[] = {
        cmocka_unit_test(syrk_and_herk_on_tiles_a_gpu_computes_by_levels_match_openblas),
        cmocka_unit_test(herk_and_her2k_by_levels_never_read_the_imaginary_parts_of_cs_diagonal),
    };
    int failed = cmocka_run_group_tests(tests, tu_group_setup, tu_group_teardown);
    return failed + cmocka_run_group_tests(levels_tile_tests, levels_tile_setup, tu_group_teardown);
}
