/* SYMM and HEMM against OpenBLAS on the host backend (host:2, nb = 16): both
 * sides, both triangles, the four precisions (HEMM for c and z), sizes on and
 * off the tile grid, the unreferenced triangle of A filled with NaN.
 * Bound: ||C - Cref||_F / (max(1,k) eps (|alpha| ||A||_F ||B||_F + |beta|
 * ||C0||_F)) < 10, with k = m (side left) or n (right) and ||A|| the norm of
 * the whole symmetric or Hermitian matrix; alpha = 0 is bounded by the same
 * formula with its product term zero. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

#define NB TU_NB

static const tess_side_t sides[] = { TessLeft, TessRight };
static const tess_uplo_t uplos[] = { TessUpper, TessLower };
/* one on the tile grid, the others off it */
static const int64_t sizes[] = { 1, NB - 1, NB + 1, 2 * NB, 7 * NB / 2 };
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))

/* A ka x ka symmetric operand at lda whose other triangle is NaN.  For HEMM
 * the imaginary parts of the diagonal are random and must be taken as zero;
 * they are not NaN, since the host BLAS's own hemm propagates a NaN there. */
static void *symmetric_operand(const tu_type_t *t, tess_uplo_t uplo, int64_t ka, int64_t lda,
                               unsigned seed)
{
    void *A = tu_matrix(t, lda, ka, seed);
    tu_fill_other_triangle(t, uplo, ka, A, lda, NAN);
    return A;
}

/* Runs C = alpha A B + beta C (or alpha B A + beta C) with lds larger than
 * the rows, checks that the rows between m and ldc are unchanged, and
 * returns the residual. */
static double run_case(const tu_type_t *t, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m,
                       int64_t n, double _Complex alpha, double _Complex beta)
{
    int64_t ka = side == TessLeft ? m : n, lda = ka + 3, ldb = m + 5, ldc = m + 2;
    void *A = symmetric_operand(t, uplo, ka, lda, 1);
    void *B = tu_matrix(t, ldb, n, 2), *C = tu_matrix(t, ldc, n, 3);
    void *Cref = tu_copy(t, C, ldc, n);
    double nA = tu_sym_norm(t, uplo, ka, A, lda), nB = tu_norm(t, B, m, n, ldb);
    double nC = tu_norm(t, C, m, n, ldc);

    assert_int_equal(tu_symm_async(t, herm, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, ldc, t->es), 0);
    assert_int_equal(tess_sync(), 0);
    tu_symm_ref(t, herm, side, uplo, m, n, alpha, A, lda, B, ldb, beta, Cref, ldc);
    double r = tu_residual(t, tu_diff(t, C, Cref, m, n, ldc), ka, alpha, nA, nB, beta, nC);
    assert_true(tu_same_outside(t, C, Cref, ldc, n, ldc, 0, 0, m, n));
    tu_release(t, A, lda, ka);
    tu_release(t, B, ldb, n);
    tu_release(t, C, ldc, n);
    free(Cref);
    return r;
}

/* Every case of both routines in every precision, with the given scalars. */
static void check_all_cases(double _Complex alpha, double _Complex beta)
{
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++)
            for (int sd = 0; sd < 2; sd++)
                for (int u = 0; u < 2; u++)
                    for (int s = 0; s < NSIZES; s++) {
                        const tu_type_t *t = &tu_types[ti];
                        int64_t m = sizes[s], n = sizes[(s + 1) % NSIZES];
                        double r = run_case(t, herm, sides[sd], uplos[u], m, n, alpha, beta);
                        if (!(r < TU_GEMM_BOUND))
                            fail_msg("%s%s side=%d uplo=%d m=%lld n=%lld: residual %g", t->name,
                                     herm ? "hemm" : "symm", sides[sd], uplos[u], (long long)m,
                                     (long long)n, r);
                    }
}

static void symm_and_hemm_match_openblas_for_every_side_uplo_size_and_precision(void **state)
{
    (void)state;
    check_all_cases(0.7 - 0.2 * I, -1.3 + 0.4 * I);
}

static void symm_and_hemm_with_beta_one_add_the_product_to_c(void **state)
{
    (void)state;
    check_all_cases(-0.6 + 0.9 * I, 1.0);
}

/* A, B and C are windows of one parent at offsets off the tile grid; A's
 * other triangle (NaN) lies inside the parent too. */
static void symm_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    int64_t ld = 6 * NB + 5, m = 2 * NB + 3, n = NB + 9;
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++)
            for (int sd = 0; sd < 2; sd++) {
                const tu_type_t *t = &tu_types[ti];
                tess_side_t side = sides[sd];
                tess_uplo_t uplo = uplos[(sd + herm) % 2];
                int64_t ka = side == TessLeft ? m : n;
                /* disjoint windows: A and B side by side, C below both */
                int64_t ai = 1, aj = 2, bi = 2, bj = ka + 4, ci = (ka > m ? ka : m) + 5;
                int64_t cj = NB / 2 + 1;
                void *P = tu_matrix(t, ld, ld, 4);
                char *A = (char *)P + (size_t)(ai + aj * ld) * t->es;
                char *B = (char *)P + (size_t)(bi + bj * ld) * t->es;
                char *C = (char *)P + (size_t)(ci + cj * ld) * t->es;
                tu_fill_other_triangle(t, uplo, ka, A, ld, NAN);
                void *Pref = tu_copy(t, P, ld, ld);
                char *Cr = (char *)Pref + (C - (char *)P);
                double nA = tu_sym_norm(t, uplo, ka, A, ld), nB = tu_norm(t, B, m, n, ld);
                double nC = tu_norm(t, C, m, n, ld);
                assert_int_equal(
                    tu_symm_async(t, herm, side, uplo, m, n, 2.0 - I, A, ld, B, ld, 0.5, C, ld), 0);
                assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, P, ld, t->es), 0);
                assert_int_equal(tess_sync(), 0);
                tu_symm_ref(t, herm, side, uplo, m, n, 2.0 - I, (char *)Pref + (A - (char *)P), ld,
                            (char *)Pref + (B - (char *)P), ld, 0.5, Cr, ld);
                assert_true(tu_residual(t, tu_diff(t, C, Cr, m, n, ld), ka, 2.0 - I, nA, nB, 0.5,
                                        nC) < TU_GEMM_BOUND);
                assert_true(tu_same_outside(t, P, Pref, ld, ld, ld, ci, cj, m, n));
                tu_release(t, P, ld, ld);
                free(Pref);
            }
}

/* alpha == 0: C = beta C, with A and B all NaN, which must never be read. */
static void symm_with_alpha_zero_never_reads_a_or_b_and_scales_c_by_beta(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++) {
            const tu_type_t *t = &tu_types[ti];
            int64_t m = 2 * NB + 1, n = NB + 3;
            void *A = tu_matrix(t, m, m, 5), *B = tu_matrix(t, m, n, 6);
            void *C = tu_matrix(t, m, n, 7), *Cref = tu_copy(t, C, m, n);
            tu_fill(t, A, m, m, m, NAN);
            tu_fill(t, B, m, n, m, NAN);
            double nC = tu_norm(t, C, m, n, m);
            assert_int_equal(tu_symm_async(t, herm, TessLeft, TessLower, m, n, 0.0, A, m, B, m,
                                           0.5 + 0.5 * I, C, m),
                             0);
            assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, m, t->es), 0);
            assert_int_equal(tess_sync(), 0);
            tu_gemm_ref(t, TessNoTrans, TessNoTrans, m, n, 0, 0.0, NULL, m, NULL, 1, 0.5 + 0.5 * I,
                        Cref, m);
            assert_true(tu_all_finite(t, C, m, n, m));
            assert_true(tu_residual(t, tu_diff(t, C, Cref, m, n, m), 0, 0.0, 0, 0, 0.5 + 0.5 * I,
                                    nC) < TU_GEMM_BOUND);
            tu_release(t, A, m, m);
            tu_release(t, B, m, n);
            tu_release(t, C, m, n);
            free(Cref);
        }
}

static void symm_with_beta_zero_ignores_nan_in_c(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++)
            for (int alpha_zero = 0; alpha_zero < 2; alpha_zero++) {
                const tu_type_t *t = &tu_types[ti];
                int64_t m = NB + 2, n = 2 * NB + 1;
                void *A = tu_matrix(t, n, n, 8), *B = tu_matrix(t, m, n, 9);
                void *C = tu_matrix(t, m, n, 1);
                tu_fill(t, C, m, n, m, NAN);
                assert_int_equal(tu_symm_async(t, herm, TessRight, TessUpper, m, n,
                                               alpha_zero ? 0.0 : 1.0, A, n, B, m, 0.0, C, m),
                                 0);
                assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, m, t->es), 0);
                assert_int_equal(tess_sync(), 0);
                assert_true(tu_all_finite(t, C, m, n, m));
                if (alpha_zero)
                    assert_true(tu_norm(t, C, m, n, m) == 0);
                tu_release(t, A, n, n);
                tu_release(t, B, m, n);
                tu_release(t, C, m, n);
            }
}

static void symm_with_alpha_zero_and_beta_one_leaves_c_bitwise_unchanged(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        int64_t m = NB + 1, n = NB + 1;
        void *C = tu_matrix(t, m, n, 3);
        tu_set(t, C, 2, 2, m, NAN);
        void *Cref = tu_copy(t, C, m, n);
        assert_int_equal(tu_symm_async(t, t->is_complex, TessLeft, TessUpper, m, n, 0.0, NULL, m,
                                       NULL, m, 1.0, C, m),
                         0);
        assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, m, t->es), 0);
        assert_int_equal(tess_sync(), 0);
        assert_memory_equal(C, Cref, (size_t)(m * n) * t->es);
        tu_release(t, C, m, n);
        free(Cref);
    }
}

static void symm_with_m_or_n_zero_returns_at_once_and_touches_nothing(void **state)
{
    (void)state;
    double A[4] = { NAN, NAN, NAN, NAN }, B[4] = { NAN, NAN, NAN, NAN }, C[4] = { NAN, 1, 2, 3 };
    assert_int_equal(tess_dsymm_async(TessLeft, TessUpper, 0, 2, 1.0, A, 1, B, 1, 0.0, C, 1), 0);
    assert_int_equal(tess_dsymm_async(TessRight, TessLower, 2, 0, 1.0, A, 1, B, 2, 0.0, C, 2), 0);
    double _Complex Z[2] = { NAN, 1 };
    assert_int_equal(tess_zhemm_async(TessLeft, TessLower, 0, 2, 1.0, NULL, 1, NULL, 1, 0.0, Z, 1),
                     0);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(C[0]) && C[1] == 1 && C[2] == 2 && C[3] == 3);
    assert_true(isnan(creal(Z[0])) && Z[1] == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(symm_and_hemm_match_openblas_for_every_side_uplo_size_and_precision),
        cmocka_unit_test(symm_and_hemm_with_beta_one_add_the_product_to_c),
        cmocka_unit_test(symm_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(symm_with_alpha_zero_never_reads_a_or_b_and_scales_c_by_beta),
        cmocka_unit_test(symm_with_beta_zero_ignores_nan_in_c),
        cmocka_unit_test(symm_with_alpha_zero_and_beta_one_leaves_c_bitwise_unchanged),
        cmocka_unit_test(symm_with_m_or_n_zero_returns_at_once_and_touches_nothing),
    };
    return cmocka_run_group_tests(tests, tu_group_setup, tu_group_teardown);
}
