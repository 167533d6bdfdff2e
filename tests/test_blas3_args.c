/* The argument checks of SYMM/HEMM, SYRK/HERK, SYR2K/HER2K and GEMMT, for
 * every entry point: each invalid argument returns minus its position in the
 * reference BLAS argument list and submits nothing; the trans rules that
 * differ between precisions and between the symmetric and Hermitian routines;
 * NULL operands that the call never touches are accepted. */
#include <complex.h>
#include <stdlib.h>
#include "testutil.h"

/* Large enough for a 4 x 4 matrix of any type. */
static double _Complex A[16], B[16], C[16];

static const tess_trans_t N = TessNoTrans, T = TessTrans, H = TessConjTrans;
static const tess_uplo_t U = TessUpper, L = TessLower;

/* Each test but the last runs on its own runtime, finalised even when the
 * test fails. */
static int setup(void **state)
{
    (void)state;
    return tu_init_host(2, 4, 0);
}

static int teardown(void **state)
{
    (void)state;
    return tess_finalize();
}

/* Every entry point: the four precisions, and for complex types the
 * Hermitian routine beside the symmetric one. */
#define EACH_ROUTINE(ti, herm)                                                                     \
    for (int ti = 0; ti < 4; ti++)                                                                 \
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++)

static void
every_symm_and_hemm_argument_error_returns_its_position_and_submits_nothing(void **state)
{
    (void)state;
    const tess_side_t Le = TessLeft, R = TessRight;
    EACH_ROUTINE(ti, herm)
    {
        const tu_type_t *t = &tu_types[ti];
        assert_int_equal(tu_symm_async(t, herm, 0, U, 2, 2, 1, A, 2, B, 2, 0, C, 2), -1);
        assert_int_equal(tu_symm_async(t, herm, Le, 7, 2, 2, 1, A, 2, B, 2, 0, C, 2), -2);
        assert_int_equal(tu_symm_async(t, herm, Le, U, -1, 2, 1, A, 2, B, 2, 0, C, 2), -3);
        assert_int_equal(tu_symm_async(t, herm, Le, U, 2, -1, 1, A, 2, B, 2, 0, C, 2), -4);
        assert_int_equal(tu_symm_async(t, herm, Le, U, 2, 2, 1, NULL, 2, B, 2, 0, C, 2), -6);
        assert_int_equal(tu_symm_async(t, herm, Le, U, 2, 2, 1, NULL, 1, B, 2, 0, C, 2), -6);
        /* A is m x m on the left, n x n on the right */
        assert_int_equal(tu_symm_async(t, herm, Le, L, 3, 2, 1, A, 2, B, 3, 0, C, 3), -7);
        assert_int_equal(tu_symm_async(t, herm, R, L, 2, 3, 1, A, 2, B, 2, 0, C, 2), -7);
        assert_int_equal(tu_symm_async(t, herm, Le, U, 2, 2, 1, A, 2, NULL, 2, 0, C, 2), -8);
        /* B is m x n on either side */
        assert_int_equal(tu_symm_async(t, herm, R, U, 3, 2, 1, A, 2, B, 2, 0, C, 3), -9);
        assert_int_equal(tu_symm_async(t, herm, Le, U, 2, 2, 1, A, 2, B, 1, 0, C, 2), -9);
        assert_int_equal(tu_symm_async(t, herm, Le, U, 2, 2, 1, A, 2, B, 2, 0, NULL, 2), -11);
        assert_int_equal(tu_symm_async(t, herm, R, U, 3, 2, 1, A, 2, B, 3, 0, C, 2), -12);
        /* lda is checked even when A is not needed */
        assert_int_equal(tu_symm_async(t, herm, Le, U, 0, 2, 1, A, 0, B, 1, 0, C, 1), -7);
    }
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tu_tasks_run(), 0);
}

static void
every_syrk_and_herk_argument_error_returns_its_position_and_submits_nothing(void **state)
{
    (void)state;
    EACH_ROUTINE(ti, herm)
    {
        const tu_type_t *t = &tu_types[ti];
        tess_trans_t tr = herm ? H : T;
        assert_int_equal(tu_syrk_async(t, herm, 0, N, 2, 2, 1, A, 2, 0, C, 2), -1);
        assert_int_equal(tu_syrk_async(t, herm, U, 0, 2, 2, 1, A, 2, 0, C, 2), -2);
        assert_int_equal(tu_syrk_async(t, herm, U, N, -1, 2, 1, A, 2, 0, C, 2), -3);
        assert_int_equal(tu_syrk_async(t, herm, U, N, 2, -1, 1, A, 2, 0, C, 2), -4);
        assert_int_equal(tu_syrk_async(t, herm, L, N, 2, 2, 1, NULL, 2, 0, C, 2), -6);
        /* A is n x k, or k x n when transposed */
        assert_int_equal(tu_syrk_async(t, herm, L, N, 3, 2, 1, A, 2, 0, C, 3), -7);
        assert_int_equal(tu_syrk_async(t, herm, L, tr, 2, 3, 1, A, 2, 0, C, 2), -7);
        assert_int_equal(tu_syrk_async(t, herm, L, N, 2, 2, 1, A, 2, 0, NULL, 2), -9);
        assert_int_equal(tu_syrk_async(t, herm, L, tr, 3, 2, 1, A, 2, 0, C, 2), -10);
        assert_int_equal(tu_syrk_async(t, herm, U, N, 0, 2, 1, A, 1, 0, C, 0), -10);
    }
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tu_tasks_run(), 0);
}

static void
every_syr2k_and_her2k_argument_error_returns_its_position_and_submits_nothing(void **state)
{
    (void)state;
    EACH_ROUTINE(ti, herm)
    {
        const tu_type_t *t = &tu_types[ti];
        tess_trans_t tr = herm ? H : T;
        assert_int_equal(tu_syr2k_async(t, herm, 0, N, 2, 2, 1, A, 2, B, 2, 0, C, 2), -1);
        assert_int_equal(tu_syr2k_async(t, herm, U, 5, 2, 2, 1, A, 2, B, 2, 0, C, 2), -2);
        assert_int_equal(tu_syr2k_async(t, herm, U, N, -1, 2, 1, A, 2, B, 2, 0, C, 2), -3);
        assert_int_equal(tu_syr2k_async(t, herm, U, N, 2, -1, 1, A, 2, B, 2, 0, C, 2), -4);
        assert_int_equal(tu_syr2k_async(t, herm, U, N, 2, 2, 1, NULL, 2, B, 2, 0, C, 2), -6);
        assert_int_equal(tu_syr2k_async(t, herm, U, N, 3, 2, 1, A, 2, B, 3, 0, C, 3), -7);
        assert_int_equal(tu_syr2k_async(t, herm, U, tr, 2, 3, 1, A, 2, B, 3, 0, C, 2), -7);
        assert_int_equal(tu_syr2k_async(t, herm, L, N, 2, 2, 1, A, 2, NULL, 2, 0, C, 2), -8);
        assert_int_equal(tu_syr2k_async(t, herm, L, N, 3, 2, 1, A, 3, B, 2, 0, C, 3), -9);
        assert_int_equal(tu_syr2k_async(t, herm, L, tr, 2, 3, 1, A, 3, B, 2, 0, C, 2), -9);
        assert_int_equal(tu_syr2k_async(t, herm, L, N, 2, 2, 1, A, 2, B, 2, 0, NULL, 2), -11);
        assert_int_equal(tu_syr2k_async(t, herm, L, tr, 3, 2, 1, A, 2, B, 2, 0, C, 2), -12);
    }
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tu_tasks_run(), 0);
}

/* Real types take N, T and C; csyrk/zsyrk N and T; cherk/zherk N and C; the
 * same for the rank-2k routines. */
static void syrk_and_syr2k_reject_the_transposes_their_precision_does_not_take(void **state)
{
    (void)state;
    float *sA = (float *)A, *sC = (float *)C;
    assert_int_equal(tess_csyrk_async(U, H, 2, 2, 1, (void *)A, 2, 0, (void *)C, 2), -2);
    assert_int_equal(tess_zsyrk_async(L, H, 2, 2, 1, A, 2, 0, C, 2), -2);
    assert_int_equal(tess_cherk_async(U, T, 2, 2, 1, (void *)A, 2, 0, (void *)C, 2), -2);
    assert_int_equal(tess_zherk_async(L, T, 2, 2, 1, A, 2, 0, C, 2), -2);
    assert_int_equal(tess_csyr2k_async(U, H, 2, 2, 1, (void *)A, 2, (void *)B, 2, 0, (void *)C, 2),
                     -2);
    assert_int_equal(tess_zsyr2k_async(L, H, 2, 2, 1, A, 2, B, 2, 0, C, 2), -2);
    assert_int_equal(tess_cher2k_async(U, T, 2, 2, 1, (void *)A, 2, (void *)B, 2, 0, (void *)C, 2),
                     -2);
    assert_int_equal(tess_zher2k_async(L, T, 2, 2, 1, A, 2, B, 2, 0, C, 2), -2);
    /* the trans check comes before the sizes, as in reference BLAS */
    assert_int_equal(tess_zherk_async(L, T, -1, -1, 1, NULL, 0, 0, NULL, 0), -2);
    assert_int_equal(tess_ssyrk_async(U, 0, 2, 2, 1, sA, 2, 0, sC, 2), -2);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tu_tasks_run(), 0);
    /* and each takes its own: real ConjTrans means Trans */
    assert_int_equal(tess_ssyrk_async(U, H, 2, 2, 1, sA, 2, 0, sC, 2), 0);
    assert_int_equal(
        tess_dsyr2k_async(L, H, 2, 2, 1, (double *)A, 2, (double *)B, 2, 0, (double *)C, 2), 0);
    assert_int_equal(tess_zsyrk_async(L, T, 2, 2, 1, A, 2, 0, C, 2), 0);
    assert_int_equal(tess_cherk_async(U, H, 2, 2, 1, (void *)A, 2, 0, (void *)C, 2), 0);
    assert_int_equal(tess_zher2k_async(U, H, 2, 2, 1, A, 2, B, 2, 0, C, 2), 0);
    assert_int_equal(tess_csyr2k_async(L, T, 2, 2, 1, (void *)A, 2, (void *)B, 2, 0, (void *)C, 2),
                     0);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() > 0);
}

static void every_gemmt_argument_error_returns_its_position_and_submits_nothing(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        assert_int_equal(tu_gemmt_async(t, 0, N, N, 2, 2, 1, A, 2, B, 2, 0, C, 2), -1);
        assert_int_equal(tu_gemmt_async(t, U, 0, N, 2, 2, 1, A, 2, B, 2, 0, C, 2), -2);
        assert_int_equal(tu_gemmt_async(t, U, N, 9, 2, 2, 1, A, 2, B, 2, 0, C, 2), -3);
        assert_int_equal(tu_gemmt_async(t, U, N, N, -1, 2, 1, A, 2, B, 2, 0, C, 2), -4);
        assert_int_equal(tu_gemmt_async(t, U, N, N, 2, -1, 1, A, 2, B, 2, 0, C, 2), -5);
        assert_int_equal(tu_gemmt_async(t, L, N, N, 2, 2, 1, NULL, 2, B, 2, 0, C, 2), -7);
        /* op(A) is n x k, op(B) k x n */
        assert_int_equal(tu_gemmt_async(t, L, N, N, 3, 2, 1, A, 2, B, 2, 0, C, 3), -8);
        assert_int_equal(tu_gemmt_async(t, L, T, N, 2, 3, 1, A, 2, B, 3, 0, C, 2), -8);
        assert_int_equal(tu_gemmt_async(t, L, N, N, 2, 2, 1, A, 2, NULL, 2, 0, C, 2), -9);
        assert_int_equal(tu_gemmt_async(t, L, N, N, 2, 3, 1, A, 2, B, 2, 0, C, 2), -10);
        assert_int_equal(tu_gemmt_async(t, L, N, H, 3, 2, 1, A, 3, B, 2, 0, C, 3), -10);
        assert_int_equal(tu_gemmt_async(t, U, N, N, 2, 2, 1, A, 2, B, 2, 0, NULL, 2), -12);
        assert_int_equal(tu_gemmt_async(t, U, N, T, 3, 2, 1, A, 3, B, 3, 0, C, 2), -13);
    }
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tu_tasks_run(), 0);
}

/* A and B when alpha is 0 or k is 0, and C when it is empty, are never read
 * or written: NULL is no error there. */
static void null_operands_that_are_never_touched_are_accepted(void **state)
{
    (void)state;
    EACH_ROUTINE(ti, herm)
    {
        const tu_type_t *t = &tu_types[ti];
        assert_int_equal(tu_symm_async(t, herm, TessLeft, U, 2, 2, 0, NULL, 2, NULL, 2, 1, C, 2),
                         0);
        assert_int_equal(tu_symm_async(t, herm, TessRight, L, 0, 2, 1, A, 2, B, 1, 0, NULL, 1), 0);
        assert_int_equal(tu_syrk_async(t, herm, U, N, 2, 2, 0, NULL, 2, 0.5, C, 2), 0);
        assert_int_equal(tu_syrk_async(t, herm, L, N, 2, 0, 1, NULL, 2, 0.5, C, 2), 0);
        assert_int_equal(tu_syrk_async(t, herm, L, N, 0, 2, 1, A, 1, 0.5, NULL, 1), 0);
        assert_int_equal(tu_syr2k_async(t, herm, U, N, 2, 2, 0, NULL, 2, NULL, 2, 0.5, C, 2), 0);
        assert_int_equal(tu_syr2k_async(t, herm, L, N, 2, 0, 1, NULL, 2, NULL, 2, 0.5, C, 2), 0);
        assert_int_equal(tu_syr2k_async(t, herm, L, N, 0, 2, 1, A, 1, B, 1, 0.5, NULL, 1), 0);
        assert_int_equal(tu_gemmt_async(t, U, N, T, 2, 2, 0, NULL, 2, NULL, 2, 0.5, C, 2), 0);
        assert_int_equal(tu_gemmt_async(t, L, T, N, 2, 0, 1, NULL, 1, NULL, 1, 0.5, C, 2), 0);
        assert_int_equal(tu_gemmt_async(t, L, N, N, 0, 2, 1, A, 1, B, 2, 0.5, NULL, 1), 0);
    }
    assert_int_equal(tess_sync(), 0);
}

static void valid_calls_before_init_return_enotinit(void **state)
{
    (void)state;
    double *dA = (double *)A, *dB = (double *)B, *dC = (double *)C;
    assert_int_equal(tess_dsymm_async(TessLeft, U, 2, 2, 1, dA, 2, dB, 2, 0, dC, 2), TESS_ENOTINIT);
    assert_int_equal(tess_zhemm_async(TessRight, L, 2, 2, 1, A, 2, B, 2, 0, C, 2), TESS_ENOTINIT);
    assert_int_equal(tess_dsyrk_async(U, T, 2, 2, 1, dA, 2, 0, dC, 2), TESS_ENOTINIT);
    assert_int_equal(tess_zherk_async(U, H, 2, 2, 1, A, 2, 0, C, 2), TESS_ENOTINIT);
    assert_int_equal(tess_dsyr2k_async(L, N, 2, 2, 1, dA, 2, dB, 2, 0, dC, 2), TESS_ENOTINIT);
    assert_int_equal(tess_zher2k_async(L, N, 2, 2, 1, A, 2, B, 2, 0, C, 2), TESS_ENOTINIT);
    assert_int_equal(tess_dgemmt_async(U, N, T, 2, 2, 1, dA, 2, dB, 2, 0, dC, 2), TESS_ENOTINIT);
}

#define WITH_RUNTIME(test) cmocka_unit_test_setup_teardown(test, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_RUNTIME(every_symm_and_hemm_argument_error_returns_its_position_and_submits_nothing),
        WITH_RUNTIME(every_syrk_and_herk_argument_error_returns_its_position_and_submits_nothing),
        WITH_RUNTIME(every_syr2k_and_her2k_argument_error_returns_its_position_and_submits_nothing),
        WITH_RUNTIME(syrk_and_syr2k_reject_the_transposes_their_precision_does_not_take),
        WITH_RUNTIME(every_gemmt_argument_error_returns_its_position_and_submits_nothing),
        WITH_RUNTIME(null_operands_that_are_never_touched_are_accepted),
        cmocka_unit_test(valid_calls_before_init_return_enotinit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
