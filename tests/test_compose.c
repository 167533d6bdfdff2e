/* Composed calls on host:2 with nb = 16: dependencies across calls with no
 * barrier, partial coherence, cache reuse, invalidation, and overlapping
 * views.  Products are checked with the normwise GEMM residual (< 10) against
 * the same sequence run by OpenBLAS on host copies. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "testutil.h"

#define NB TU_NB
static const tu_type_t *D = &tu_types[1];

static void coherent_sync(void *C, int64_t m, int64_t n, int64_t ld)
{
    assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, ld, 8), 0);
    assert_int_equal(tess_sync(), 0);
}

/* C = A B on the runtime and on the host copies, then a residual check. */
static void check_product(const double *C, const double *Cref, int64_t m, int64_t n, int64_t k,
                          double nA, double nB)
{
    double r = tu_gemm_residual(D, m, n, k, 1.0, nA, nB, 0.0, 0.0, C, Cref, m);
    if (!(r < TU_GEMM_BOUND))
        fail_msg("residual %g", r);
}

static void a_call_reads_what_the_previous_call_wrote_without_a_sync(void **state)
{
    (void)state;
    int64_t n = 3 * NB + 5;
    double *A = tu_matrix(D, n, n, 1), *B = tu_matrix(D, n, n, 2);
    double *C = tu_matrix(D, n, n, 3), *E = tu_matrix(D, n, n, 4);
    double *Cr = tu_copy(D, C, n, n), *Er = tu_copy(D, E, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessTrans, n, n, n, 1, C, n, B, n, 0, E, n), 0);
    coherent_sync(E, n, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Cr, n);
    tu_gemm_ref(D, TessNoTrans, TessTrans, n, n, n, 1, Cr, n, B, n, 0, Er, n);
    check_product(E, Er, n, n, n, tu_norm(D, Cr, n, n, n), tu_norm(D, B, n, n, n));
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    tu_release(D, E, n, n);
    free(Cr);
    free(Er);
}

static void a_call_that_overwrites_an_input_waits_for_the_call_reading_it(void **state)
{
    (void)state;
    int64_t n = 2 * NB + 7;
    double *A = tu_matrix(D, n, n, 5), *B = tu_matrix(D, n, n, 6), *C = tu_matrix(D, n, n, 7);
    double *X = tu_matrix(D, n, n, 8), *Y = tu_matrix(D, n, n, 9);
    double *Ar = tu_copy(D, A, n, n), *Cr = tu_copy(D, C, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, X, n, Y, n, 0, A, n),
                     0);
    coherent_sync(C, n, n, n);
    coherent_sync(A, n, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, Ar, n, B, n, 0, Cr, n);
    check_product(C, Cr, n, n, n, tu_norm(D, Ar, n, n, n), tu_norm(D, B, n, n, n));
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, X, n, Y, n, 0, Ar, n);
    check_product(A, Ar, n, n, n, tu_norm(D, X, n, n, n), tu_norm(D, Y, n, n, n));
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    tu_release(D, X, n, n);
    tu_release(D, Y, n, n);
    free(Ar);
    free(Cr);
}

static void a_chain_of_calls_feeding_each_other_needs_one_sync(void **state)
{
    (void)state;
    int64_t n = 2 * NB + 3;
    double *B = tu_matrix(D, n, n, 10), *X[5], *Xr[5];
    for (int i = 0; i < 5; i++) {
        X[i] = tu_matrix(D, n, n, 11 + i);
        Xr[i] = tu_copy(D, X[i], n, n);
    }
    for (int i = 0; i < 4; i++)
        assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 0.25, X[i], n, B, n,
                                          0.5, X[i + 1], n),
                         0);
    coherent_sync(X[4], n, n, n);
    for (int i = 0; i < 4; i++)
        tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 0.25, Xr[i], n, B, n, 0.5, Xr[i + 1], n);
    /* four products deep: the bound holds for the chain's scale */
    double r = tu_diff(D, X[4], Xr[4], n, n, n) /
               (4 * n * D->eps *
                (tu_norm(D, Xr[4], n, n, n) + tu_norm(D, Xr[3], n, n, n) * tu_norm(D, B, n, n, n)));
    assert_true(r < TU_GEMM_BOUND);
    tu_release(D, B, n, n);
    for (int i = 0; i < 5; i++) {
        tu_release(D, X[i], n, n);
        free(Xr[i]);
    }
}

/* Tiles wholly in the other triangle are not written back: the host still
 * holds their old values. */
static void coherent_on_one_triangle_writes_back_only_tiles_meeting_it(void **state)
{
    (void)state;
    int64_t n = 4 * NB;
    for (int lower = 0; lower < 2; lower++) {
        double *A = tu_matrix(D, n, n, 20), *B = tu_matrix(D, n, n, 21),
               *C = tu_matrix(D, n, n, 22);
        double *C0 = tu_copy(D, C, n, n), *Cr = tu_copy(D, C, n, n);
        assert_int_equal(
            tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n), 0);
        assert_int_equal(
            tess_memory_coherent_async(lower ? TessLowerPart : TessUpperPart, n, n, C, n, 8), 0);
        assert_int_equal(tess_sync(), 0);
        tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Cr, n);
        double scale = n * D->eps * tu_norm(D, A, n, n, n) * tu_norm(D, B, n, n, n);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                bool in_part = lower ? i >= j : i <= j;
                bool tile_off_part = lower ? i / NB < j / NB : i / NB > j / NB;
                if (in_part)
                    assert_true(fabs(C[i + j * n] - Cr[i + j * n]) < TU_GEMM_BOUND * scale);
                else if (tile_off_part)
                    assert_true(C[i + j * n] == C0[i + j * n]);
            }
        tu_release(D, A, n, n);
        tu_release(D, B, n, n);
        tu_release(D, C, n, n);
        free(C0);
        free(Cr);
    }
}

/* Every operand of the second call is already on some device: nothing is
 * fetched from the host again. */
static void results_stay_on_the_devices_and_are_reused_without_host_transfers(void **state)
{
    (void)state;
    int64_t n = 3 * NB;
    double *A = tu_matrix(D, n, n, 30), *B = tu_matrix(D, n, n, 31);
    double *C = tu_matrix(D, n, n, 32), *E = tu_matrix(D, n, n, 33);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, B, n, A, n, 0, E, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    tess_stats_t s0, s1;
    assert_int_equal(tess_get_stats(&s0), 0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, C, n, E, n, 0, A, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tess_get_stats(&s1), 0);
    assert_int_equal(s1.bytes_h2d - s0.bytes_h2d, 0);
    assert_int_equal(s1.bytes_d2h - s0.bytes_d2h, 0);
    assert_true(s1.cache_hits > s0.cache_hits);
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    tu_release(D, E, n, n);
}

/* A is invalidated alone, or with everything else (all). */
static void host_write_after_invalidation_is_seen(bool all)
{
    int64_t n = 2 * NB + 1;
    double *A = tu_matrix(D, n, n, 40), *B = tu_matrix(D, n, n, 41), *C = tu_matrix(D, n, n, 42);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(all ? tess_memory_invalidate_all() : tess_memory_invalidate(n, n, A, n, 8), 0);
    for (int64_t i = 0; i < n * n; i++)
        A[i] = -2.0 * A[i] + 1.0;
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    coherent_sync(C, n, n, n);
    double *Cr = tu_copy(D, C, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Cr, n);
    check_product(C, Cr, n, n, n, tu_norm(D, A, n, n, n), tu_norm(D, B, n, n, n));
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    free(Cr);
}

static void after_invalidate_a_host_write_is_seen_by_the_next_call(void **state)
{
    (void)state;
    host_write_after_invalidation_is_seen(false);
}

static void after_invalidate_all_a_host_write_is_seen_by_the_next_call(void **state)
{
    (void)state;
    host_write_after_invalidation_is_seen(true);
}

/* M is written whole, then read and written through a window at an offset
 * that is not on M's tile grid, then read whole again. */
static void overlapping_views_off_the_tile_grid_are_ordered(void **state)
{
    (void)state;
    int64_t n = 4 * NB + 5, w = 2 * NB + 3, off = NB / 2 + 1;
    double *M = tu_matrix(D, n, n, 50), *A = tu_matrix(D, n, n, 51), *B = tu_matrix(D, n, n, 52);
    double *V1 = tu_matrix(D, w, w, 53), *E = tu_matrix(D, n, n, 54);
    double *Mr = tu_copy(D, M, n, n), *V1r = tu_copy(D, V1, w, w), *Er = tu_copy(D, E, n, n);
    double *V = M + off + off * n, *Vr = Mr + off + off * n;

    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0.5, M, n),
                     0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, w, w, w, 1, V, n, B, n, 0, V1, w),
                     0);
    assert_int_equal(tess_dgemm_async(TessTrans, TessNoTrans, w, w, w, 1, A, n, B, n, -1, V, n), 0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, M, n, A, n, 0, E, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, w, w, V1, w, 8), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, E, n, 8), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, M, n, 8), 0);
    assert_int_equal(tess_sync(), 0);

    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0.5, Mr, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, w, w, w, 1, Vr, n, B, n, 0, V1r, w);
    tu_gemm_ref(D, TessTrans, TessNoTrans, w, w, w, 1, A, n, B, n, -1, Vr, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, Mr, n, A, n, 0, Er, n);
    double nA = tu_norm(D, A, n, n, n), nB = tu_norm(D, B, n, n, n), nM = tu_norm(D, Mr, n, n, n);
    assert_true(tu_diff(D, V1, V1r, w, w, w) / (2 * n * D->eps * nM * nB) < TU_GEMM_BOUND);
    assert_true(tu_diff(D, M, Mr, n, n, n) / (2 * n * D->eps * (nA * nB + nM)) < TU_GEMM_BOUND);
    assert_true(tu_diff(D, E, Er, n, n, n) / (2 * n * D->eps * nM * nA) < TU_GEMM_BOUND);
    tu_release(D, M, n, n);
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, V1, w, w);
    tu_release(D, E, n, n);
    free(Mr);
    free(V1r);
    free(Er);
}

/* A is M one row down, B is M itself: the task reading both must see the
 * previous call's write to M through either view.  Exact: identity scaling. */
static void one_call_reading_two_overlapping_views_of_a_matrix_sees_its_last_write(void **state)
{
    (void)state;
    int64_t n = 2 * NB, w = NB;
    double *M = tu_matrix(D, n, n, 60), *Mc = tu_copy(D, M, n, n), *I2 = calloc((size_t)(n * n), 8);
    double *C = tu_matrix(D, w, w, 61), *Cr = tu_copy(D, C, w, w);
    for (int64_t i = 0; i < n; i++)
        I2[i + i * n] = 2.0;
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, I2, n, Mc, n, 0, M, n),
                     0);
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, w, w, w, 1, M + 1, n, M, n, 0, C, w), 0);
    coherent_sync(C, w, w, w);
    double *M2 = tu_copy(D, Mc, n, n);
    for (int64_t i = 0; i < n * n; i++)
        M2[i] *= 2;
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, w, w, w, 1, M2 + 1, n, M2, n, 0, Cr, w);
    check_product(C, Cr, w, w, w, tu_norm(D, M2, n, n, n), tu_norm(D, M2, n, n, n));
    tu_release(D, M, n, n);
    tu_release(D, C, w, w);
    tu_release(D, I2, n, n);
    free(Mc);
    free(Cr);
    free(M2);
}

/* The written block runs past the end of the region's columns (its rows
 * wrap into the next region column, where they lie in the upper triangle):
 * an upper-part coherent request must still bring it back. */
static void coherent_on_a_triangle_includes_blocks_that_wrap_past_the_region_columns(void **state)
{
    (void)state;
    double *M = calloc(8 * 4, sizeof *M), A[4] = { 1, 2, 3, 4 }, B[2] = { 1, 10 };
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, 4, 2, 1, 1, A, 4, B, 1, 0, M + 9, 8), 0);
    assert_int_equal(tess_memory_coherent_async(TessUpperPart, 6, 3, M + 4, 8, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(M[12] == 4.0);  /* region (0,1) = C(3,0) */
    assert_true(M[20] == 40.0); /* region (0,2) = C(3,1) */
    assert_int_equal(tess_memory_invalidate(8, 4, M, 8, 8), 0);
    free(M);
}

/* Inputs may share memory: A A^T as GEMM with A for both operands, and SYR2K with A for both,
 * match the host BLAS given two copies. */
static void a_call_whose_two_inputs_are_one_matrix_matches_the_host_blas(void **state)
{
    (void)state;
    int64_t n = 3 * NB + 2, k = 2 * NB + 5;
    double *A = tu_matrix(D, n, k, 80), *A2 = tu_copy(D, A, n, k);
    double *C = tu_matrix(D, n, n, 81), *E = tu_matrix(D, n, n, 82);
    double *Cr = tu_copy(D, C, n, n), *Er = tu_copy(D, E, n, n);
    double nA = tu_norm(D, A, n, k, n), nC0 = tu_norm(D, C, n, n, n), nE0 = tu_norm(D, E, n, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessTrans, n, n, k, 1, A, n, A, n, 0.5, C, n),
                     0);
    assert_int_equal(tess_dsyr2k_async(TessLower, TessNoTrans, n, k, 1, A, n, A, n, 0.5, E, n), 0);
    coherent_sync(C, n, n, n);
    coherent_sync(E, n, n, n);
    tu_gemm_ref(D, TessNoTrans, TessTrans, n, n, k, 1, A, n, A2, n, 0.5, Cr, n);
    tu_syr2k_ref(D, false, TessLower, TessNoTrans, n, k, 1, A, n, A2, n, 0.5, Er, n);
    assert_true(tu_diff(D, C, Cr, n, n, n) / (k * D->eps * (nA * nA + 0.5 * nC0)) < TU_GEMM_BOUND);
    assert_true(tu_tri_diff(D, TessLower, n, E, Er, n) / (k * D->eps * (2 * nA * nA + 0.5 * nE0)) <
                TU_GEMM_BOUND);
    tu_release(D, A, n, k);
    tu_release(D, C, n, n);
    tu_release(D, E, n, n);
    free(A2);
    free(Cr);
    free(Er);
}

/* The region starts half an element before C, one tile, and so ends half an element before
 * C's end: the tile straddles the region's border, and its last half element, outside the
 * region, is written back before the tile is dropped. */
static void
invalidating_a_region_shifted_by_part_of_an_element_keeps_the_bytes_outside_it(void **state)
{
    (void)state;
    double *M = calloc(NB * NB + 1, sizeof *M), *C = M + 1, Id[NB * NB] = { 0 }, five = 5.0;
    for (int64_t i = 0; i < NB; i++)
        Id[i + i * NB] = 1.0;
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, NB, NB, NB, 5, Id, NB, Id, NB, 0, C, NB), 0);
    assert_int_equal(tess_memory_invalidate(NB, NB, (char *)C - 4, NB, 8), 0);
    const char *last = (const char *)&C[NB * NB - 1];
    assert_memory_equal(last + 4, (const char *)&five + 4, 4);
    assert_int_equal(tess_memory_invalidate(NB * NB + 1, 1, M, NB * NB + 1, 8), 0);
    assert_int_equal(tess_memory_invalidate(NB, NB, Id, NB, 8), 0);
    free(M);
}

/* The region starts half an element into M: the 1 x 1 block at M[5] (row 1, column 1) covers
 * the second half of the region's (0,1) and the first half of its (1,1), which is in the lower
 * triangle. */
static void
coherent_on_a_triangle_of_a_region_shifted_by_part_of_an_element_includes_its_blocks(void **state)
{
    (void)state;
    double *M = calloc(4 * 4, sizeof *M), a = 3, b = 7;
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, 1, 1, 1, 1, &a, 1, &b, 1, 0, M + 5, 4), 0);
    assert_int_equal(tess_memory_coherent_async(TessLowerPart, 2, 2, (char *)M + 4, 4, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(M[5] == 21.0);
    assert_int_equal(tess_memory_invalidate(4, 4, M, 4, 8), 0);
    assert_int_equal(tess_memory_invalidate(1, 1, &a, 1, 8), 0);
    assert_int_equal(tess_memory_invalidate(1, 1, &b, 1, 8), 0);
    free(M);
}

/* A row of M read as a vector (increment n) is a block spanning NB of M's columns, far wider
 * than any tile of M.  A GEMV through it sees the GEMM that wrote M before it, a GEMM writing
 * M afterwards is seen by the next GEMV through it, and once the row is invalidated (its wide
 * blocks gone) views of M one row down and off the tile grid still see M's last write. */
static void views_are_ordered_while_a_wide_vector_block_lives_and_after_it_goes(void **state)
{
    (void)state;
    int64_t n = 4 * NB + 3, r = 5, w = 2 * NB + 1, off = NB / 2 + 1;
    double *A = tu_matrix(D, n, n, 70), *B = tu_matrix(D, n, n, 71), *M = tu_matrix(D, n, n, 72);
    double *y = tu_matrix(D, n, 2, 74), *E = tu_matrix(D, w, w, 75);
    double *Mr = tu_copy(D, M, n, n), *yr = tu_copy(D, y, n, 2), *Er = tu_copy(D, E, w, w);
    /* y(:,0) = A^T row r of (A B + M); then M = B A - M and y(:,1) = A^T row r of that */
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, M, n),
                     0);
    assert_int_equal(tess_dgemv_async(TessTrans, n, n, 1, A, n, M + r, n, 0, y, 1), 0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, B, n, A, n, -1, M, n),
                     0);
    assert_int_equal(tess_dgemv_async(TessTrans, n, n, 1, A, n, M + r, n, 0, y + n, 1), 0);
    coherent_sync(y, n, 2, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, Mr, n);
    tu_gemv_ref(D, TessTrans, n, n, 1, A, n, Mr + r, n, 0, yr, 1);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, B, n, A, n, -1, Mr, n);
    tu_gemv_ref(D, TessTrans, n, n, 1, A, n, Mr + r, n, 0, yr + n, 1);
    double nA = tu_norm(D, A, n, n, n), nM = tu_norm(D, Mr, n, n, n);
    assert_true(tu_diff(D, y, yr, n, 2, n) / (4 * n * D->eps * nA * nM) < TU_GEMM_BOUND);

    assert_int_equal(tess_memory_invalidate(1, n, M + r, n, 8), 0);
    /* E = (M one row down)'s w x w window at (off, off) times B */
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, M, n),
                     0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, w, w, w, 1, M + 1 + off + off * n,
                                      n, B, n, 0, E, w),
                     0);
    coherent_sync(E, w, w, w);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, Mr, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, w, w, w, 1, Mr + 1 + off + off * n, n, B, n, 0, Er, w);
    nM = tu_norm(D, Mr, n, n, n);
    assert_true(tu_diff(D, E, Er, w, w, w) / (2 * n * D->eps * nM * tu_norm(D, B, n, n, n)) <
                TU_GEMM_BOUND);
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, M, n, n);
    tu_release(D, y, n, 2);
    tu_release(D, E, w, w);
    free(Mr);
    free(yr);
    free(Er);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_call_reads_what_the_previous_call_wrote_without_a_sync),
        cmocka_unit_test(a_call_that_overwrites_an_input_waits_for_the_call_reading_it),
        cmocka_unit_test(a_chain_of_calls_feeding_each_other_needs_one_sync),
        cmocka_unit_test(coherent_on_one_triangle_writes_back_only_tiles_meeting_it),
        cmocka_unit_test(results_stay_on_the_devices_and_are_reused_without_host_transfers),
        cmocka_unit_test(after_invalidate_a_host_write_is_seen_by_the_next_call),
        cmocka_unit_test(after_invalidate_all_a_host_write_is_seen_by_the_next_call),
        cmocka_unit_test(overlapping_views_off_the_tile_grid_are_ordered),
        cmocka_unit_test(one_call_reading_two_overlapping_views_of_a_matrix_sees_its_last_write),
        cmocka_unit_test(coherent_on_a_triangle_includes_blocks_that_wrap_past_the_region_columns),
        cmocka_unit_test(views_are_ordered_while_a_wide_vector_block_lives_and_after_it_goes),
        cmocka_unit_test(a_call_whose_two_inputs_are_one_matrix_matches_the_host_blas),
        cmocka_unit_test(
            invalidating_a_region_shifted_by_part_of_an_element_keeps_the_bytes_outside_it),
        cmocka_unit_test(
            coherent_on_a_triangle_of_a_region_shifted_by_part_of_an_element_includes_its_blocks),
    };
    return cmocka_run_group_tests(tests, tu_group_setup, tu_group_teardown);
}
