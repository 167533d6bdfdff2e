/* The tile size of each call: TESS_NB fixes it; unset, a call keeps the
 * tiles that earlier calls gave its operands, and otherwise gives its output
 * at least four tiles per device, at the largest of nb, nb/2 and nb/4 that
 * does (from nb/2 for a QR's panels, and on down to 128 columns), and the
 * triangle of a TRSM at least two tiles along per device.  Counted through
 * the tasks run (a GEMM runs one task per tile of C and tile of k).  True on
 * any device count and backend. */
#include <stdlib.h>
#include "testutil.h"

static const tu_type_t *D = &tu_types[1];

static void init_unfixed(void)
{
    assert_int_equal(tu_init_host(2, 0, 0), 0);
}

static tess_stats_t stats(void)
{
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    return s;
}

/* C = A B, all n x n, checked against the reference; the tasks it ran. */
static uint64_t square_gemm_tasks(int64_t n)
{
    double *A = tu_matrix(D, n, n, 1), *B = tu_matrix(D, n, n, 2), *C = tu_matrix(D, n, n, 3);
    double *Cr = tu_copy(D, C, n, n);
    uint64_t t0 = tu_tasks_run();
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    uint64_t tasks = tu_tasks_run() - t0;
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Cr, n);
    double r =
        tu_diff(D, C, Cr, n, n, n) / (n * D->eps * tu_norm(D, A, n, n, n) * tu_norm(D, B, n, n, n));
    assert_true(r < TU_GEMM_BOUND);
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    free(Cr);
    return tasks;
}

/* The tile of the largest of nb, nb/2 and nb/4 that cuts an n x n output
 * into at least four tiles per device, and with chain an n x n triangle into
 * at least two along it per device (nb/4 when none does), tiles per side. */
static int64_t tiles_per_side(const tess_stats_t *s, int64_t n, bool chain)
{
    int64_t tiles = 0, ndev = s->ndevices;
    for (int64_t div = 1; div <= 4; div *= 2) {
        int64_t nb = s->nb / div;
        tiles = (n + nb - 1) / nb;
        if (tiles * tiles >= 4 * ndev && (!chain || tiles >= 2 * ndev))
            break;
    }
    return tiles;
}

static void an_unset_tile_size_gives_the_output_four_tiles_per_device(void **state)
{
    (void)state;
    init_unfixed();
    tess_stats_t s = stats();
    /* one tile at nb: never enough */
    int64_t tiles = tiles_per_side(&s, s.nb, false);
    assert_true(tiles > 1);
    assert_int_equal(square_gemm_tasks(s.nb), (uint64_t)(tiles * tiles * tiles));
    assert_int_equal(tess_finalize(), 0);
}

static void tess_nb_fixes_the_tile_of_every_call(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, 96, 0), 0);
    /* one tile however many devices there are */
    assert_int_equal(square_gemm_tasks(96), 1);
    assert_int_equal(square_gemm_tasks(192), 8);
    assert_int_equal(tess_finalize(), 0);
}

/* X = A B on a large output, then Y = X(0:n, 0:n) B on a small one, which
 * alone would take smaller tiles: it reads X on X's tiles, so nothing is
 * flushed to the host (no copy to the host before Y's coherent request) and
 * X's tiles are not fetched again. */
static void a_call_keeps_the_tiles_an_earlier_call_gave_its_operand(void **state)
{
    (void)state;
    init_unfixed();
    tess_stats_t s = stats();
    int64_t N = 2 * s.nb, n = s.nb;
    double *A = tu_matrix(D, N, N, 4), *B = tu_matrix(D, N, N, 5), *X = tu_matrix(D, N, N, 6);
    double *Y = tu_matrix(D, n, n, 7), *Xr = tu_copy(D, X, N, N), *Yr = tu_copy(D, Y, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, N, N, N, 1, A, N, B, N, 0, X, N),
                     0);
    assert_int_equal(tess_sync(), 0);
    tess_stats_t s0 = stats();
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, X, N, B, N, 0, Y, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    tess_stats_t s1 = stats();
    assert_int_equal(s1.bytes_d2h - s0.bytes_d2h, 0);
    /* only B's part of the second product may cross from the host */
    assert_true(s1.bytes_h2d - s0.bytes_h2d <= (uint64_t)(n * n) * 8);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, Y, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, N, N, N, 1, A, N, B, N, 0, Xr, N);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, Xr, N, B, N, 0, Yr, n);
    double r = tu_diff(D, Y, Yr, n, n, n) / (N * D->eps * tu_norm(D, A, N, N, N) *
                                             tu_norm(D, B, N, N, N) * tu_norm(D, B, n, n, N));
    assert_true(r < TU_GEMM_BOUND);
    tu_release(D, A, N, N);
    tu_release(D, B, N, N);
    tu_release(D, X, N, N);
    tu_release(D, Y, n, n);
    free(Xr);
    free(Yr);
    assert_int_equal(tess_finalize(), 0);
}

/* X = L^-1 B with L = I + (a random lower triangle)/n, all 2nb x 2nb: the
 * triangle is a chain of steps, each of which waits on the one before, so
 * with the output's four tiles per device alone three or four devices would
 * wait on one another (2 x 2 output tiles at nb/2 leave each step of the
 * chain a single device's work).  A TRSM on t tiles a side runs t
 * diagonal-tile tasks and t (t - 1) / 2 GEMMs per column of tiles of B. */
static void a_triangular_solve_gets_two_tiles_of_its_triangle_per_device(void **state)
{
    (void)state;
    init_unfixed();
    tess_stats_t s = stats();
    int64_t n = 2 * s.nb, t = tiles_per_side(&s, n, true);
    double *L = tu_matrix(D, n, n, 8), *B = tu_matrix(D, n, n, 9);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            L[i + j * n] = i == j ? 1 : i > j ? L[i + j * n] / (double)n : 0;
    double *X = tu_copy(D, B, n, n);
    uint64_t t0 = tu_tasks_run();
    assert_int_equal(
        tess_dtrsm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, n, n, 1, L, n, X, n), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tu_tasks_run() - t0, (uint64_t)(t * t * (t + 1) / 2));
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, X, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    /* L X = B, normwise */
    double *R = tu_copy(D, B, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, L, n, X, n, -1, R, n);
    double r =
        tu_norm(D, R, n, n, n) / (n * D->eps * tu_norm(D, L, n, n, n) * tu_norm(D, X, n, n, n));
    assert_true(r < TU_GEMM_BOUND);
    tu_release(D, L, n, n);
    tu_release(D, X, n, n);
    free(B);
    free(R);
    assert_int_equal(tess_finalize(), 0);
}

/* A QR's panels are at most half the largest tile: on a wide m x n (m < nb/2, one step) that
 * the largest tile would already cut into four panels per device, the call runs one GEQRF,
 * one update per other panel of nb/2, and the write-backs of the factored panel and of tau. */
static void a_qr_cuts_panels_of_half_the_largest_tile(void **state)
{
    (void)state;
    init_unfixed();
    tess_stats_t s = stats();
    int64_t m = 16, n = 4 * s.ndevices * s.nb, panels = n / (s.nb / 2);
    double *A = tu_matrix(D, m, n, 12), *tau = tu_matrix(D, m, 1, 13);
    uint64_t t0 = tu_tasks_run();
    assert_int_equal(tess_dgeqrf_async(m, n, A, m, tau), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tu_tasks_run() - t0, (uint64_t)(1 + (panels - 1) + 2));
    tu_release(D, A, m, n);
    tu_release(D, tau, m, 1);
    assert_int_equal(tess_finalize(), 0);
}

/* The panel width of a QR with n columns and no tiles yet: the largest of nb/2, nb/4 and on
 * (below nb/4 only down to 128) that gives at least four panels per device, else the
 * smallest. */
static int64_t qr_panel(const tess_stats_t *s, int64_t n)
{
    int64_t w = s->nb / 2;
    for (int rung = 1;; rung++) {
        bool last = rung >= 2 && (s->nb >> (rung + 1)) < 128;
        if ((n + w - 1) / w >= 4 * s->ndevices || last)
            return w;
        w /= 2;
    }
}

static void a_tall_skinny_qr_narrows_its_panels_down_to_128_columns(void **state)
{
    (void)state;
    init_unfixed();
    tess_stats_t s = stats();
    int64_t n = 512, m = 4 * n, w = qr_panel(&s, n), p = (n + w - 1) / w;
    double *A = tu_matrix(D, m, n, 14), *tau = tu_matrix(D, n, 1, 15);
    uint64_t t0 = tu_tasks_run();
    assert_int_equal(tess_dgeqrf_async(m, n, A, m, tau), 0);
    assert_int_equal(tess_sync(), 0);
    /* per step: its panel's GEQRF, an update of each panel right of it, the write-backs of
     * the panel and of tau's piece */
    assert_int_equal(tu_tasks_run() - t0, (uint64_t)(p + p * (p - 1) / 2 + 2 * p));
    tu_release(D, A, m, n);
    tu_release(D, tau, n, 1);
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_unset_tile_size_gives_the_output_four_tiles_per_device),
        cmocka_unit_test(tess_nb_fixes_the_tile_of_every_call),
        cmocka_unit_test(a_call_keeps_the_tiles_an_earlier_call_gave_its_operand),
        cmocka_unit_test(a_triangular_solve_gets_two_tiles_of_its_triangle_per_device),
        cmocka_unit_test(a_qr_cuts_panels_of_half_the_largest_tile),
        cmocka_unit_test(a_tall_skinny_qr_narrows_its_panels_down_to_128_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
