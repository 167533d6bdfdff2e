/* TRTRI, LAUUM and POTRI on the host backend (host:2, nb = 16): both
 * triangles, unit and non-unit diagonals, the four precisions, orders of one
 * tile, of 4 and 5 tiles and off the grid, leading dimensions larger than
 * the order; the other triangle holds NaN and must come back bit for bit.
 * Then with the tile size unset, each call picking its own tiles
 * (lapackutil.h): the inverses, and INFO at each position in and across
 * tiles.
 *
 * Bounds (TL_BOUND, LAPACK's testers' threshold of 30):
 *   TRTRI:  ||T T^-1 - I||_F / (n eps ||T||_F ||T^-1||_F), and the error
 *           against the host LAPACK's inverse, ||X - R||_F / (n eps ||R||_F);
 *   LAUUM:  the error against the host LAPACK's L^H L (U U^H);
 *   POTRI:  ||A A^-1 - I||_F / (n eps ||A||_F ||A^-1||_F), and the error
 *           against the host LAPACK's.
 * The triangles are diagonally dominant, so well conditioned. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lapackutil.h"

#define NB TU_NB

static const tess_uplo_t uplos[] = { TessLower, TessUpper };
static const tess_diag_t diags[] = { TessNonUnit, TessUnit };
static const int64_t orders[] = { 1, NB, 4 * NB, 5 * NB, 37 };

/* n x n in lda: the uplo triangle diagonally dominant (off-diagonal entries below 1/(2n),
 * a diagonal near 2), NaN in the other one. */
static void *tri_matrix(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t lda, unsigned seed)
{
    void *A = tu_matrix(t, lda, n, seed);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double _Complex v = tu_get(t, A, i, j, lda);
            if (i == j)
                tu_set(t, A, i, j, lda, 2.0 + 0.5 * v);
            else if (tu_in_triangle(uplo, i, j))
                tu_set(t, A, i, j, lda, v / (2.0 * n));
        }
    tu_fill_other_triangle(t, uplo, n, A, lda, NAN);
    return A;
}

static void trtri_case(const tu_type_t *t, tess_uplo_t uplo, tess_diag_t diag, int64_t n)
{
    int64_t lda = n + 3;
    void *A = tri_matrix(t, uplo, n, lda, (unsigned)(n + uplo + diag));
    void *A0 = tu_copy(t, A, lda, n), *R = tu_copy(t, A, lda, n);
    int64_t info = -7;
    assert_int_equal(tl_trtri_async(t, uplo, diag, n, A, lda, &info), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(info, 0);
    assert_int_equal(tl_trtri_ref(t, uplo, diag, n, R, lda), 0);
    void *T = tu_tri_dense(t, A0, n, lda, uplo, diag), *X = tu_tri_dense(t, A, n, lda, uplo, diag);
    double res = tl_inverse_residual(t, n, T, X);
    double err = diag == TessUnit ? 0 : tl_tri_error(t, uplo, n, A, R, lda);
    if (!(res < TL_BOUND) || !(err < TL_BOUND))
        fail_msg("%strtri uplo %d diag %d n %lld: residual %g, error against LAPACK %g", t->name,
                 uplo, diag, (long long)n, res, err);
    assert_true(tu_other_triangle_same(t, uplo, n, A, A0, lda));
    if (diag == TessUnit)
        for (int64_t i = 0; i < n; i++)
            assert_true(memcmp((char *)A + (size_t)(i + i * lda) * t->es,
                               (char *)A0 + (size_t)(i + i * lda) * t->es, t->es) == 0);
    assert_true(tu_diff(t, (char *)A + n * t->es, (char *)A0 + n * t->es, 3, n, lda) == 0);
    tu_release(t, A, lda, n);
    free(A0);
    free(R);
    free(T);
    free(X);
}

static void trtri_inverts_every_uplo_and_diag_in_every_precision_on_and_off_the_grid(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (int d = 0; d < 2; d++)
                for (size_t k = 0; k < sizeof orders / sizeof *orders; k++)
                    trtri_case(&tu_types[ti], uplos[u], diags[d], orders[k]);
}

/* As LAPACK: TRTRI's (POTRI's) INFO is the first zero on the diagonal, A(k,k) with a later
 * one at A(n,n), and A is left untouched, bit for bit. */
static void zero_diagonal_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t k,
                               bool potri)
{
    void *A = tri_matrix(t, uplo, n, n, (unsigned)(k + 3));
    tu_set(t, A, k - 1, k - 1, n, 0.0);
    if (k < n) /* a later zero is not the one reported */
        tu_set(t, A, n - 1, n - 1, n, 0.0);
    void *A0 = tu_copy(t, A, n, n), *R = tu_copy(t, A, n, n);
    int64_t info = 0;
    if (potri)
        assert_int_equal(tl_potri_async(t, uplo, n, A, n, &info), 0);
    else
        assert_int_equal(tl_trtri_async(t, uplo, TessNonUnit, n, A, n, &info), 0);
    tl_sync_matrix(t, A, n, n, n);
    int ref = potri ? tl_potri_ref(t, uplo, n, R, n) : tl_trtri_ref(t, uplo, TessNonUnit, n, R, n);
    assert_int_equal(ref, k);
    if (info != ref)
        fail_msg("%s%s uplo %c n %lld k %lld: info %lld, LAPACK's %d", t->name,
                 potri ? "potri" : "trtri", uplo == TessLower ? 'L' : 'U', (long long)n,
                 (long long)k, (long long)info, ref);
    if (!tu_same_outside(t, A, A0, n, n, n, 0, 0, 0, 0))
        fail_msg("%s%s uplo %c n %lld k %lld: A changed though INFO > 0", t->name,
                 potri ? "potri" : "trtri", uplo == TessLower ? 'L' : 'U', (long long)n,
                 (long long)k);
    tu_release(t, A, n, n);
    free(A0);
    free(R);
}

static void trtri_reports_the_first_zero_diagonal_and_leaves_a_untouched(void **state)
{
    (void)state;
    const int64_t n = 5 * NB + 3, ks[] = { 1, 7, 3 * NB + 2, n };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
                zero_diagonal_case(&tu_types[ti], uplos[u], n, ks[i], false);
}

static void lauum_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n)
{
    int64_t lda = n + 2;
    void *A = tri_matrix(t, uplo, n, lda, (unsigned)(5 * n + uplo));
    /* a Cholesky factor's diagonal, which LAPACK's LAUUM takes to be real */
    for (int64_t i = 0; i < n; i++)
        tu_set(t, A, i, i, lda, creal(tu_get(t, A, i, i, lda)));
    void *A0 = tu_copy(t, A, lda, n), *R = tu_copy(t, A, lda, n);
    assert_int_equal(tl_lauum_async(t, uplo, n, A, lda), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(tl_lauum_ref(t, uplo, n, R, lda), 0);
    double err = tl_tri_error(t, uplo, n, A, R, lda);
    if (!(err < TL_BOUND))
        fail_msg("%slauum uplo %d n %lld: error against LAPACK %g", t->name, uplo, (long long)n,
                 err);
    assert_true(tu_real_diagonal(t, n, A, lda));
    assert_true(tu_other_triangle_same(t, uplo, n, A, A0, lda));
    tu_release(t, A, lda, n);
    free(A0);
    free(R);
}

static void lauum_multiplies_both_triangles_in_every_precision_on_and_off_the_grid(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (size_t k = 0; k < sizeof orders / sizeof *orders; k++)
                lauum_case(&tu_types[ti], uplos[u], orders[k]);
}

/* POTRF then POTRI with no sync between: A^-1 of the Hermitian positive definite A. */
static void potri_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n)
{
    int64_t lda = n + 1;
    void *A = tl_hpd(t, n, lda, (unsigned)(9 * n + uplo));
    tu_fill_other_triangle(t, uplo, n, A, lda, NAN);
    void *A0 = tu_copy(t, A, lda, n), *R = tu_copy(t, A, lda, n);
    int64_t info1 = -1, info2 = -1;
    assert_int_equal(tl_potrf_async(t, uplo, n, A, lda, &info1), 0);
    assert_int_equal(tl_potri_async(t, uplo, n, A, lda, &info2), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(info1, 0);
    assert_int_equal(info2, 0);
    assert_int_equal(tl_potrf_ref(t, uplo, n, R, lda), 0);
    assert_int_equal(tl_potri_ref(t, uplo, n, R, lda), 0);
    void *M = tl_herm_dense(t, uplo, n, A0, lda), *X = tl_herm_dense(t, uplo, n, A, lda);
    double res = tl_inverse_residual(t, n, M, X), err = tl_tri_error(t, uplo, n, A, R, lda);
    if (!(res < TL_BOUND) || !(err < TL_BOUND))
        fail_msg("%spotri uplo %d n %lld: residual %g, error against LAPACK %g", t->name, uplo,
                 (long long)n, res, err);
    assert_true(tu_other_triangle_same(t, uplo, n, A, A0, lda));
    tu_release(t, A, lda, n);
    free(A0);
    free(R);
    free(M);
    free(X);
}

static void potri_after_potrf_inverts_in_every_precision_with_no_sync_between(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (size_t k = 0; k < sizeof orders / sizeof *orders; k++)
                potri_case(&tu_types[ti], uplos[u], orders[k]);
}

/* A factor with an exact zero on its diagonal: INFO is its column and A is untouched. */
static void potri_of_a_singular_factor_reports_it_and_leaves_a_untouched(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[2];
    int64_t n = 4 * NB + 1;
    void *A = tri_matrix(t, TessUpper, n, n, 51);
    tu_set(t, A, 2 * NB, 2 * NB, n, 0.0);
    void *A0 = tu_copy(t, A, n, n);
    int64_t info = 0;
    assert_int_equal(tl_potri_async(t, TessUpper, n, A, n, &info), 0);
    tl_sync_matrix(t, A, n, n, n);
    assert_int_equal(info, 2 * NB + 1);
    assert_true(tu_same_outside(t, A, A0, n, n, n, 0, 0, 0, 0));
    tu_release(t, A, n, n);
    free(A0);
}

static void the_inversions_reject_invalid_arguments_with_their_lapack_numbers(void **state)
{
    (void)state;
    double A[9] = { 4, 1, 1, 1, 4, 1, 1, 1, 4 }, A0[9];
    memcpy(A0, A, sizeof A);
    const tess_uplo_t L = TessLower;
    int64_t info = 0;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dtrtri_async(0, TessUnit, 3, A, 3, &info), -1);
    assert_int_equal(tess_dtrtri_async(L, 0, 3, A, 3, &info), -2);
    assert_int_equal(tess_dtrtri_async(L, TessUnit, -1, A, 3, &info), -3);
    assert_int_equal(tess_dtrtri_async(L, TessUnit, 3, NULL, 3, &info), -4);
    assert_int_equal(tess_dtrtri_async(L, TessUnit, 3, A, 2, &info), -5);
    assert_int_equal(tess_dtrtri_async(L, TessUnit, 3, A, 3, NULL), -6);
    assert_int_equal(tess_dlauum_async(9, 3, A, 3), -1);
    assert_int_equal(tess_dlauum_async(L, -3, A, 3), -2);
    assert_int_equal(tess_dlauum_async(L, 3, NULL, 3), -3);
    assert_int_equal(tess_dlauum_async(L, 3, A, 0), -4);
    assert_int_equal(tess_dpotri_async(9, 3, A, 3, &info), -1);
    assert_int_equal(tess_dpotri_async(L, -1, A, 3, &info), -2);
    assert_int_equal(tess_dpotri_async(L, 3, NULL, 3, &info), -3);
    assert_int_equal(tess_dpotri_async(L, 3, A, 1, &info), -4);
    assert_int_equal(tess_dpotri_async(L, 3, A, 3, NULL), -5);
    /* the first invalid argument is the one reported */
    assert_int_equal(tess_strtri_async(L, 5, -1, NULL, 0, NULL), -2);
    assert_int_equal(tess_clauum_async(TessUpper, 3, (void *)A, 2), -4);
    assert_int_equal(tess_zpotri_async(TessUpper, -2, NULL, 0, NULL), -2);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() == before);
    assert_true(!memcmp(A, A0, sizeof A));
}

static void the_inversions_with_n_zero_return_at_once_with_info_zero(void **state)
{
    (void)state;
    int64_t info = 3;
    assert_int_equal(tess_ztrtri_async(TessLower, TessNonUnit, 0, NULL, 1, &info), 0);
    assert_int_equal(info, 0);
    info = 3;
    assert_int_equal(tess_spotri_async(TessUpper, 0, NULL, 1, &info), 0);
    assert_int_equal(info, 0);
    assert_int_equal(tess_clauum_async(TessUpper, 0, NULL, 1), 0);
    assert_int_equal(tess_sync(), 0);
}

/* ---- with the tile size unset: each call picks its own tiles --------------------------- */

static void trtri_and_potri_with_the_tiles_a_call_picks_match_lapack(void **state)
{
    (void)state;
    int64_t n = tl_default_tile_order();
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        tl_assert_several_tiles(&tu_types[ti], n);
        for (int u = 0; u < 2; u++) {
            trtri_case(&tu_types[ti], uplos[u], TessNonUnit, n);
            potri_case(&tu_types[ti], uplos[u], n);
        }
    }
}

/* The zero's tile offset in the call's own tiles, not in the largest tile size. */
static void
trtri_and_potri_report_lapacks_info_at_every_position_with_the_tiles_a_call_picks(void **state)
{
    (void)state;
    int64_t n = tl_default_tile_order(), ks[TL_DEFAULT_TILE_POSITIONS];
    tl_default_tile_positions(n, ks);
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++)
            for (int i = 0; i < TL_DEFAULT_TILE_POSITIONS; i++)
                for (int potri = 0; potri < 2; potri++)
                    zero_diagonal_case(&tu_types[ti], uplos[u], n, ks[i], potri);
}

#define TILE_BYTES ((size_t)NB * NB * sizeof(double))

/* 8 tiles per device against 21 of the triangle: tiles are evicted and written back between
 * their tasks, and the inverse is still right. */
static void potri_with_device_memory_of_a_few_tiles_completes_out_of_core(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 8 * TILE_BYTES), 0);
    for (int u = 0; u < 2; u++)
        potri_case(&tu_types[1], uplos[u], 6 * NB);
    trtri_case(&tu_types[1], TessLower, TessNonUnit, 6 * NB);
    tess_stats_t st;
    assert_int_equal(tess_get_stats(&st), 0);
    assert_true(st.evictions > 0);
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest on_host2[] = {
        cmocka_unit_test(trtri_inverts_every_uplo_and_diag_in_every_precision_on_and_off_the_grid),
        cmocka_unit_test(trtri_reports_the_first_zero_diagonal_and_leaves_a_untouched),
        cmocka_unit_test(lauum_multiplies_both_triangles_in_every_precision_on_and_off_the_grid),
        cmocka_unit_test(potri_after_potrf_inverts_in_every_precision_with_no_sync_between),
        cmocka_unit_test(potri_of_a_singular_factor_reports_it_and_leaves_a_untouched),
        cmocka_unit_test(the_inversions_reject_invalid_arguments_with_their_lapack_numbers),
        cmocka_unit_test(the_inversions_with_n_zero_return_at_once_with_info_zero),
    };
    const struct CMUnitTest default_tiles[] = {
        cmocka_unit_test(trtri_and_potri_with_the_tiles_a_call_picks_match_lapack),
        cmocka_unit_test(
            trtri_and_potri_report_lapacks_info_at_every_position_with_the_tiles_a_call_picks),
    };
    const struct CMUnitTest on_their_own[] = {
        cmocka_unit_test(potri_with_device_memory_of_a_few_tiles_completes_out_of_core),
    };
    return cmocka_run_group_tests_name("potri", on_host2, tu_group_setup, tu_group_teardown) +
           cmocka_run_group_tests_name("potri, tiles of each call's own size", default_tiles,
                                       tu_group_setup_default_nb, tu_group_teardown) +
           cmocka_run_group_tests_name("potri, own runtime", on_their_own, NULL, NULL);
}
