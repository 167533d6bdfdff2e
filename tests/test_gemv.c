/* GEMV against OpenBLAS on the host backend (host:2, nb = 16): every trans,
 * the four precisions, sizes on and off the tile grid, unit, strided and
 * negative increments; sub-matrix operands, beta 0 with NaN in y, alpha 0,
 * quick returns, argument errors; bit-identical results over several
 * devices; GEMV composed with GEMM without a sync; a cached matrix not
 * moved by later calls; eviction with tiny device memory.  Then on the tile
 * size users get (no TESS_NB, or a forced one), where each piece of y sums
 * partials from several devices: every trans, precision and increment +-1,
 * +-3, beta 0 with NaN in y, the same bits call after call, and GEMV
 * feeding GEMV without a sync giving the bits of synced calls.
 * Bound: ||y - yref||_2 / (max(1,k) eps (|alpha| ||A||_F ||x||_2 + |beta|
 * ||y0||_2)) < 10, k the inner dimension (n for NoTrans, m otherwise).  The
 * array elements between a strided vector's entries hold a sentinel that
 * must keep its bits. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

#define NB TU_NB

static const tess_trans_t transposes[] = { TessNoTrans, TessTrans, TessConjTrans };
/* one on the tile grid, the others off it */
static const int64_t sizes[] = { 1, NB - 1, NB + 1, 2 * NB, 7 * NB / 2 };
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))
static const int64_t incs[][2] = { { 1, 1 }, { -2, 3 }, { 3, -1 }, { -1, -2 } };
#define NINCS ((int)(sizeof incs / sizeof *incs))

/* ---- the routine and its reference ----------------------------------------- */

/* Runs the product with lda larger than m, checks y's gaps and A, and returns the residual. */
static double run_case(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t incx,
                       int64_t incy, double _Complex alpha, double _Complex beta)
{
    int64_t lda = m + 3, lx = trans == TessNoTrans ? n : m, ly = trans == TessNoTrans ? m : n;
    void *A = tu_matrix(t, lda, n, 1), *A0 = tu_copy(t, A, lda, n);
    void *x = tu_vec(t, lx, incx, 2, 0), *y = tu_vec(t, ly, incy, 3, 0);
    void *yref = tu_copy(t, y, tu_vec_span(ly, incy), 1);
    double nA = tu_norm(t, A, m, n, lda), nx = tu_vec_norm(t, x, lx, incx);
    double ny = tu_vec_norm(t, y, ly, incy);

    assert_int_equal(tu_gemv_async(t, trans, m, n, alpha, A, lda, x, incx, beta, y, incy), 0);
    assert_int_equal(tu_vec_coherent_async(t, y, ly, incy), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemv_ref(t, trans, m, n, alpha, A, lda, x, incx, beta, yref, incy);
    double r = tu_residual(t, tu_vec_diff(t, y, yref, ly, incy), lx, alpha, nA, nx, beta, ny);
    assert_true(tu_vec_gaps_intact(t, y, ly, incy));
    assert_memory_equal(A, A0, (size_t)(lda * n) * t->es);
    tu_release(t, A, lda, n);
    tu_vec_release(t, x, lx, incx);
    tu_vec_release(t, y, ly, incy);
    free(A0);
    free(yref);
    return r;
}

static void check_all_cases(double _Complex alpha, double _Complex beta)
{
    for (int ti = 0; ti < 4; ti++)
        for (int tr = 0; tr < 3; tr++)
            for (int v = 0; v < NINCS; v++)
                for (int s = 0; s < NSIZES; s++) {
                    const tu_type_t *t = &tu_types[ti];
                    int64_t m = sizes[s], n = sizes[(s + 2) % NSIZES];
                    double r =
                        run_case(t, transposes[tr], m, n, incs[v][0], incs[v][1], alpha, beta);
                    if (!(r < TU_GEMM_BOUND))
                        fail_msg("%sgemv trans=%d m=%lld n=%lld incx=%lld incy=%lld: residual %g",
                                 t->name, transposes[tr], (long long)m, (long long)n,
                                 (long long)incs[v][0], (long long)incs[v][1], r);
                }
}

static void gemv_matches_openblas_for_every_trans_size_increment_and_precision(void **state)
{
    (void)state;
    check_all_cases(0.7 - 0.2 * I, -1.3 + 0.4 * I);
}

static void gemv_with_beta_one_adds_the_product_to_y(void **state)
{
    (void)state;
    check_all_cases(-0.6 + 0.9 * I, 1.0);
}

/* A is a window of a parent matrix off the tile grid, x a row of the parent
 * (increment ld) and y a piece of one of its columns, outside A: everything
 * else in the parent keeps its bits. */
static void gemv_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    int64_t ld = 5 * NB + 7, m = 2 * NB + 3, n = NB + 9;
    for (int ti = 0; ti < 4; ti++)
        for (int tr = 0; tr < 3; tr++) {
            const tu_type_t *t = &tu_types[ti];
            tess_trans_t trans = transposes[tr];
            int64_t lx = trans == TessNoTrans ? n : m, ly = trans == TessNoTrans ? m : n;
            void *P = tu_matrix(t, ld, ld, 4 + tr), *Pref = tu_copy(t, P, ld, ld);
            size_t es = t->es;
            size_t ao = (size_t)(1 + 2 * ld), xo = (size_t)(m + 2 + 1 * ld);
            size_t yo = (size_t)(3 + (n + 4) * ld);
            char *A = (char *)P + ao * es, *x = (char *)P + xo * es, *y = (char *)P + yo * es;
            double _Complex alpha = 0.5 + 0.25 * I, beta = -0.75;
            double nA = tu_norm(t, A, m, n, ld), nx = tu_vec_norm(t, x, lx, ld);
            double ny = tu_vec_norm(t, y, ly, 1);
            assert_int_equal(tu_gemv_async(t, trans, m, n, alpha, A, ld, x, ld, beta, y, 1), 0);
            assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, P, ld, es), 0);
            assert_int_equal(tess_sync(), 0);
            char *yr = (char *)Pref + yo * es;
            tu_gemv_ref(t, trans, m, n, alpha, (char *)Pref + ao * es, ld, (char *)Pref + xo * es,
                        ld, beta, yr, 1);
            double r = tu_residual(t, tu_vec_diff(t, y, yr, ly, 1), lx, alpha, nA, nx, beta, ny);
            if (!(r < TU_GEMM_BOUND))
                fail_msg("%sgemv trans=%d: residual %g", t->name, trans, r);
            assert_true(tu_same_outside(t, P, Pref, ld, ld, ld, 3, n + 4, ly, 1));
            tu_release(t, P, ld, ld);
            free(Pref);
        }
}

/* y all NaN: beta 0 must not read it, with alpha 0 (y = 0) or not. */
static void check_beta_zero_ignores_nan_in_y(int64_t m, int64_t n)
{
    for (int ti = 0; ti < 4; ti++)
        for (int tr = 0; tr < 3; tr++)
            for (int alpha_zero = 0; alpha_zero < 2; alpha_zero++) {
                const tu_type_t *t = &tu_types[ti];
                tess_trans_t trans = transposes[tr];
                int64_t incy = alpha_zero ? -2 : 1;
                int64_t lx = trans == TessNoTrans ? n : m, ly = trans == TessNoTrans ? m : n;
                void *A = tu_matrix(t, m, n, 5), *x = tu_vec(t, lx, 1, 6, 0);
                void *y = tu_vec(t, ly, incy, 7, NAN), *yref = tu_vec(t, ly, incy, 7, 0);
                tu_fill(t, yref, tu_vec_span(ly, incy), 1, tu_vec_span(ly, incy), 0.0);
                double _Complex alpha = alpha_zero ? 0.0 : 1.5;
                assert_int_equal(tu_gemv_async(t, trans, m, n, alpha, A, m, x, 1, 0.0, y, incy), 0);
                assert_int_equal(tu_vec_coherent_async(t, y, ly, incy), 0);
                assert_int_equal(tess_sync(), 0);
                tu_gemv_ref(t, trans, m, n, alpha, A, m, x, 1, 0.0, yref, incy);
                double r = tu_residual(t, tu_vec_diff(t, y, yref, ly, incy), lx, alpha,
                                       tu_norm(t, A, m, n, m), tu_vec_norm(t, x, lx, 1), 0.0, 0);
                assert_true(r < TU_GEMM_BOUND);
                assert_true(tu_vec_gaps_intact(t, y, ly, incy));
                if (alpha_zero)
                    assert_true(tu_vec_norm(t, y, ly, incy) == 0);
                tu_release(t, A, m, n);
                tu_vec_release(t, x, lx, 1);
                tu_vec_release(t, y, ly, incy);
                free(yref);
            }
}

static void gemv_with_beta_zero_ignores_nan_in_y(void **state)
{
    (void)state;
    check_beta_zero_ignores_nan_in_y(2 * NB + 5, 3 * NB - 1);
}

/* alpha 0: y = beta y, with A and x NaN (never read), or NULL. */
static void gemv_with_alpha_zero_never_reads_a_or_x_and_scales_y(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int null_ops = 0; null_ops < 2; null_ops++) {
            const tu_type_t *t = &tu_types[ti];
            int64_t m = 3 * NB + 2, n = NB + 3, incy = null_ops ? 1 : 3;
            void *A = tu_matrix(t, m, n, 8), *x = tu_vec(t, n, 1, 9, NAN),
                 *y = tu_vec(t, m, incy, 10, 0);
            tu_fill(t, A, m, n, m, NAN);
            void *yref = tu_copy(t, y, tu_vec_span(m, incy), 1);
            double _Complex beta = 0.5 - 0.5 * I;
            double ny = tu_vec_norm(t, y, m, incy);
            assert_int_equal(tu_gemv_async(t, TessNoTrans, m, n, 0.0, null_ops ? NULL : A, m,
                                           null_ops ? NULL : x, 1, beta, y, incy),
                             0);
            assert_int_equal(tu_vec_coherent_async(t, y, m, incy), 0);
            assert_int_equal(tess_sync(), 0);
            void *Af = tu_matrix(t, m, n, 11), *xf = tu_vec(t, n, 1, 12, 0);
            tu_gemv_ref(t, TessNoTrans, m, n, 0.0, Af, m, xf, 1, beta, yref, incy);
            assert_true(tu_residual(t, tu_vec_diff(t, y, yref, m, incy), 0, 0.0, 0, 0, beta, ny) <
                        TU_GEMM_BOUND);
            assert_true(tu_vec_gaps_intact(t, y, m, incy));
            tu_release(t, A, m, n);
            tu_vec_release(t, x, n, 1);
            tu_vec_release(t, y, m, incy);
            free(Af);
            free(xf);
            free(yref);
        }
}

/* Reference BLAS returns at once: alpha 0 and beta 1, or m or n 0 (then y is
 * not even scaled, nor read with beta 0). */
static void gemv_quick_returns_leave_y_bitwise_unchanged(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int c = 0; c < 3; c++) {
            const tu_type_t *t = &tu_types[ti];
            int64_t m = c == 1 ? 0 : NB + 1, n = c == 2 ? 0 : NB + 2;
            void *y = tu_vec(t, NB + 2, 1, 13, 0);
            tu_set(t, y, 1, 0, NB + 2, NAN);
            void *y0 = tu_copy(t, y, NB + 2, 1);
            assert_int_equal(tu_gemv_async(t, TessTrans, m, n, c == 0 ? 0.0 : 1.0, NULL, NB + 1,
                                           NULL, 1, c == 0 ? 1.0 : 0.0, y, 1),
                             0);
            assert_int_equal(tu_vec_coherent_async(t, y, NB + 2, 1), 0);
            assert_int_equal(tess_sync(), 0);
            assert_memory_equal(y, y0, (size_t)(NB + 2) * t->es);
            tu_vec_release(t, y, NB + 2, 1);
            free(y0);
        }
}

/* Reference BLAS's numbering (trans 1, m 2, n 3, lda 6, incx 8, incy 11),
 * operands that would be read must not be NULL (A 5, x 7, y 10), and nothing
 * is submitted: y keeps its NaN although beta is 0. */
static void gemv_argument_errors_return_reference_positions_and_submit_nothing(void **state)
{
    (void)state;
    double A[4] = { 1, 2, 3, 4 }, x[2] = { 1, 1 }, y[2] = { NAN, NAN };
    assert_int_equal(tess_dgemv_async((tess_trans_t)0, 2, 2, 1, A, 2, x, 1, 0, y, 1), -1);
    assert_int_equal(tess_dgemv_async(TessNoTrans, -1, 2, 1, A, 2, x, 1, 0, y, 1), -2);
    assert_int_equal(tess_dgemv_async(TessNoTrans, 2, -1, 1, A, 2, x, 1, 0, y, 1), -3);
    assert_int_equal(tess_dgemv_async(TessNoTrans, 2, 2, 1, NULL, 2, x, 1, 0, y, 1), -5);
    assert_int_equal(tess_dgemv_async(TessNoTrans, 2, 2, 1, A, 1, x, 1, 0, y, 1), -6);
    assert_int_equal(tess_dgemv_async(TessNoTrans, 2, 2, 1, A, 2, NULL, 1, 0, y, 1), -7);
    assert_int_equal(tess_dgemv_async(TessNoTrans, 2, 2, 1, A, 2, x, 0, 0, y, 1), -8);
    assert_int_equal(tess_dgemv_async(TessNoTrans, 2, 2, 1, A, 2, x, 1, 0, NULL, 1), -10);
    assert_int_equal(tess_dgemv_async(TessNoTrans, 2, 2, 1, A, 2, x, 1, 0, y, 0), -11);
    double _Complex z[2] = { 0 };
    assert_int_equal(tess_zgemv_async(TessConjTrans, 2, 2, 1, NULL, 2, NULL, -1, 0, z, 1), -5);
    assert_int_equal(tess_sgemv_async(TessTrans, 0, 0, 1, NULL, 0, NULL, 1, 0, NULL, 1), -6);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(y[0]) && isnan(y[1]));
}

/* A vector of one element never applies its increment, so any is valid,
 * the most negative one too: y = 2 * 3, exactly. */
static void gemv_of_one_element_takes_any_increment(void **state)
{
    (void)state;
    double A = 2, x = 3, y = NAN;
    assert_int_equal(
        tess_dgemv_async(TessNoTrans, 1, 1, 1.0, &A, 1, &x, INT64_MIN, 0.0, &y, INT64_MIN), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, 1, 1, &y, 1, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(y == 6);
    assert_int_equal(tess_memory_invalidate_all(), 0);
}

/* The same product into a y of the same values: the bits of the result. */
static void *product_bits(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n,
                          const void *A, const void *x, int64_t incx, int64_t incy)
{
    int64_t ly = trans == TessNoTrans ? m : n;
    void *y = tu_vec(t, ly, incy, 21, 0);
    assert_int_equal(tu_gemv_async(t, trans, m, n, 0.3 + 0.6 * I, A, m, x, incx, 0.9, y, incy), 0);
    assert_int_equal(tu_vec_coherent_async(t, y, ly, incy), 0);
    assert_int_equal(tess_sync(), 0);
    void *bits = tu_copy(t, y, tu_vec_span(ly, incy), 1);
    tu_vec_release(t, y, ly, incy);
    return bits;
}

/* On three devices each piece of y is summed in one order: two runs, the
 * second on a cold cache after the first ran on a warm one, agree bit for bit. */
static void gemv_results_are_bitwise_identical_across_runs_on_several_devices(void **state)
{
    (void)state;
    int64_t m = 9 * NB + 5, n = 11 * NB + 3;
    for (int ti = 0; ti < 4; ti++)
        for (int tr = 0; tr < 3; tr++) {
            const tu_type_t *t = &tu_types[ti];
            tess_trans_t trans = transposes[tr];
            int64_t lx = trans == TessNoTrans ? n : m, ly = trans == TessNoTrans ? m : n;
            void *A = tu_matrix(t, m, n, 22), *x = tu_vec(t, lx, -1, 23, 0);
            void *y1 = product_bits(t, trans, m, n, A, x, -1, 2);
            void *y2 = product_bits(t, trans, m, n, A, x, -1, 2);
            assert_int_equal(tess_memory_invalidate_all(), 0);
            void *y3 = product_bits(t, trans, m, n, A, x, -1, 2);
            size_t bytes = (size_t)tu_vec_span(ly, 2) * t->es;
            assert_memory_equal(y1, y2, bytes);
            assert_memory_equal(y1, y3, bytes);
            tu_release(t, A, m, n);
            tu_vec_release(t, x, lx, -1);
            free(y1);
            free(y2);
            free(y3);
        }
}

/* A GEMM writes A and a GEMV reads it, then a GEMM overwrites the GEMV's
 * matrix: no sync between them, and each sees the right data. */
static void gemv_composes_with_gemm_writing_and_overwriting_its_matrix(void **state)
{
    (void)state;
    int64_t m = 3 * NB + 1, n = 2 * NB + 5, k = NB + 3;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        void *B = tu_matrix(t, m, k, 30), *C = tu_matrix(t, k, n, 31), *A = tu_matrix(t, m, n, 32);
        void *x = tu_vec(t, n, 1, 33, 0), *y = tu_vec(t, m, -1, 34, 0),
             *y2 = tu_vec(t, n, 2, 35, 0);
        void *Aref = tu_copy(t, A, m, n), *yref = tu_copy(t, y, m, 1);
        void *y2ref = tu_copy(t, y2, tu_vec_span(n, 2), 1);
        double ny20 = tu_vec_norm(t, y2, n, 2);
        /* A = B C; y = A x; y2 = A^T y; A = 2 B C */
        assert_int_equal(
            tu_gemm_async(t, TessNoTrans, TessNoTrans, m, n, k, 1.0, B, m, C, k, 0.0, A, m), 0);
        assert_int_equal(tu_gemv_async(t, TessNoTrans, m, n, 1.0, A, m, x, 1, 0.0, y, -1), 0);
        assert_int_equal(tu_gemv_async(t, TessTrans, m, n, 1.0, A, m, y, -1, 0.5, y2, 2), 0);
        assert_int_equal(
            tu_gemm_async(t, TessNoTrans, TessNoTrans, m, n, k, 2.0, B, m, C, k, 0.0, A, m), 0);
        assert_int_equal(tu_vec_coherent_async(t, y, m, -1), 0);
        assert_int_equal(tu_vec_coherent_async(t, y2, n, 2), 0);
        assert_int_equal(tess_memory_coherent_async(TessAll, m, n, A, m, t->es), 0);
        assert_int_equal(tess_sync(), 0);
        tu_gemm_ref(t, TessNoTrans, TessNoTrans, m, n, k, 1.0, B, m, C, k, 0.0, Aref, m);
        tu_gemv_ref(t, TessNoTrans, m, n, 1.0, Aref, m, x, 1, 0.0, yref, -1);
        tu_gemv_ref(t, TessTrans, m, n, 1.0, Aref, m, yref, -1, 0.5, y2ref, 2);
        /* A's own error (k eps ||B|| ||C||) reaches y and y2: the bounds take ||B|| ||C|| for
         * ||A|| and the inner dimensions that the errors add up over */
        double nBC = tu_norm(t, B, m, k, m) * tu_norm(t, C, k, n, k), nx = tu_vec_norm(t, x, n, 1);
        double ry = tu_residual(t, tu_vec_diff(t, y, yref, m, -1), n + k, 1.0, nBC, nx, 0.0, 0);
        double ry2 = tu_residual(t, tu_vec_diff(t, y2, y2ref, n, 2), m + n + 2 * k, 1.0, nBC,
                                 nBC * nx, 0.5, ny20);
        if (!(ry < TU_GEMM_BOUND && ry2 < TU_GEMM_BOUND))
            fail_msg("%s: residuals %g (A x), %g (A^T y)", t->name, ry, ry2);
        tu_gemm_ref(t, TessNoTrans, TessNoTrans, m, n, k, 2.0, B, m, C, k, 0.0, Aref, m);
        assert_true(tu_gemm_residual(t, m, n, k, 2.0, tu_norm(t, B, m, k, m),
                                     tu_norm(t, C, k, n, k), 0.0, 0, A, Aref, m) < TU_GEMM_BOUND);
        tu_release(t, A, m, n);
        tu_release(t, B, m, k);
        tu_release(t, C, k, n);
        tu_vec_release(t, x, n, 1);
        tu_vec_release(t, y, m, -1);
        tu_vec_release(t, y2, n, 2);
        free(Aref);
        free(yref);
        free(y2ref);
    }
}

/* y = op(A) x in double, y made coherent after one sync; the bytes the
 * call moved to the devices and between them, and the device count. */
static void dgemv_moving(tess_trans_t trans, int64_t m, int64_t n, const void *A, const void *x,
                         void *y, uint64_t *h2d, uint64_t *d2d, int *ndevices)
{
    const tu_type_t *t = &tu_types[1];
    tess_stats_t s0, s1;
    assert_int_equal(tess_get_stats(&s0), 0);
    assert_int_equal(tess_dgemv_async(trans, m, n, 1.0, A, m, x, 1, 0.0, y, 1), 0);
    assert_int_equal(tu_vec_coherent_async(t, y, trans == TessNoTrans ? m : n, 1), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tess_get_stats(&s1), 0);
    *h2d = s1.bytes_h2d - s0.bytes_h2d;
    *d2d = s1.bytes_d2d - s0.bytes_d2d;
    *ndevices = s1.ndevices;
}

/* Products with one matrix, NoTrans then Trans then NoTrans, each with a new
 * x written on the host: after the first, which brings A in, each call moves
 * x in and y's pieces between devices, never A. */
static void gemv_on_a_cached_matrix_moves_only_the_vectors_whatever_the_trans(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t m = 6 * NB + 3, n = 5 * NB + 1;
    void *A = tu_matrix(t, m, n, 40), *x = tu_vec(t, m, 1, 41, 0), *y = tu_vec(t, m, 1, 42, 0);
    const tess_trans_t order[] = { TessNoTrans, TessTrans, TessNoTrans, TessTrans };
    for (int c = 0; c < 4; c++) {
        tess_trans_t trans = order[c];
        int64_t lx = trans == TessNoTrans ? n : m, ly = trans == TessNoTrans ? m : n;
        uint64_t h2d, d2d;
        int ndev;
        dgemv_moving(trans, m, n, A, x, y, &h2d, &d2d, &ndev);
        /* x once to each device at most, each piece of y once per step of its chain */
        int64_t steps = (trans == TessNoTrans ? n : m) / NB + 1;
        uint64_t vecs = (uint64_t)(lx * ndev + ly * steps) * t->es;
        if (c == 0)
            assert_true(h2d >= (uint64_t)(m * n) * t->es);
        else if (h2d > vecs || d2d > vecs)
            fail_msg("call %d: h2d %llu, d2d %llu bytes; vectors at most %llu", c,
                     (unsigned long long)h2d, (unsigned long long)d2d, (unsigned long long)vecs);
        /* the host writes the next x */
        tu_vec_release(t, x, m, 1);
        x = tu_vec(t, m, 1, 43 + c, 0);
        assert_int_equal(tess_memory_invalidate(ly, 1, y, ly, t->es), 0);
    }
    tu_release(t, A, m, n);
    tu_vec_release(t, x, m, 1);
    tu_vec_release(t, y, m, 1);
}

/* Device memory for a few tiles, each device's share of A over 30 tiles:
 * tiles are evicted while the product runs, and each call brings A in
 * again. */
static void gemv_with_tiny_device_memory_evicts_and_stays_correct(void **state)
{
    (void)state;
    tess_stats_t devs;
    assert_int_equal(tess_get_stats(&devs), 0);
    int64_t m = 8 * NB + 3, n = 7 * devs.ndevices / 2 * NB - 2;
    for (int ti = 0; ti < 4; ti++)
        for (int tr = 0; tr < 2; tr++)
            for (int rep = 0; rep < 2; rep++) {
                tess_stats_t s0, s1;
                assert_int_equal(tess_get_stats(&s0), 0);
                double r = run_case(&tu_types[ti], transposes[tr + ti / 2], m, n, -1, 2, 0.5 + I,
                                    rep ? 0.0 : 2.0);
                assert_int_equal(tess_get_stats(&s1), 0);
                if (!(r < TU_GEMM_BOUND))
                    fail_msg("%sgemv: residual %g", tu_types[ti].name, r);
                assert_true(s1.evictions > s0.evictions);
            }
}

static int tiny_memory_setup(void **state)
{
    (void)state;
    /* 4 tiles of complex double (fewer than half of A's in single precision) and the
     * vectors of a task */
    return tu_init_host(2, NB, 4 * NB * NB * 16 + 4096);
}

static int three_devices_setup(void **state)
{
    (void)state;
    return tu_init_host(3, NB, 0);
}

/* Each device sums its own tiles of a piece's row (column, transposed) and
 * its partial sum alone moves, so on a matrix cached across the devices a
 * call moves x to each device once at most and each piece of y (or a
 * partial of it) between devices once per device at most, not at every
 * tile. */
static void gemv_on_a_cached_matrix_moves_a_piece_of_y_once_per_device_at_most(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t m = 9 * NB + 3, n = 9 * NB + 5;
    void *A = tu_matrix(t, m, n, 50), *x = tu_vec(t, n > m ? n : m, 1, 51, 0);
    void *y = tu_vec(t, n > m ? n : m, 1, 52, 0);
    for (int c = 0; c < 6; c++) {
        tess_trans_t trans = c % 2 ? TessTrans : TessNoTrans;
        int64_t lx = trans == TessNoTrans ? n : m, ly = trans == TessNoTrans ? m : n;
        uint64_t h2d, d2d;
        int ndev;
        dgemv_moving(trans, m, n, A, x, y, &h2d, &d2d, &ndev);
        uint64_t bound = (uint64_t)((lx + ly) * ndev) * t->es;
        if (c >= 2 && d2d > bound)
            fail_msg("call %d: %llu bytes between devices; at most %llu", c,
                     (unsigned long long)d2d, (unsigned long long)bound);
        assert_int_equal(tess_memory_invalidate(ly, 1, y, ly, t->es), 0);
    }
    tu_release(t, A, m, n);
    tu_vec_release(t, x, n > m ? n : m, 1);
    tu_vec_release(t, y, n > m ? n : m, 1);
}

/* ---- on the tile size users get ------------------------------------------------
 * With no TESS_NB the call picks its tiles (several per device for these
 * sizes); with TESS_NB forced small, many per device.  Either way a piece of
 * y gathers partial sums from several devices. */
#define BIG_M 1000
#define BIG_N 1100

static void
gemv_on_default_tiles_matches_openblas_for_every_trans_precision_and_increment(void **state)
{
    (void)state;
    static const int64_t big_incs[][2] = { { 1, 1 }, { -1, -1 }, { 3, -3 }, { -3, 3 } };
    for (int ti = 0; ti < 4; ti++)
        for (int tr = 0; tr < 3; tr++)
            for (int v = 0; v < 4; v++) {
                const tu_type_t *t = &tu_types[ti];
                double r = run_case(t, transposes[tr], BIG_M, BIG_N, big_incs[v][0], big_incs[v][1],
                                    0.7 - 0.2 * I, -1.3 + 0.4 * I);
                if (!(r < TU_GEMM_BOUND))
                    fail_msg("%sgemv trans=%d incx=%lld incy=%lld: residual %g", t->name,
                             transposes[tr], (long long)big_incs[v][0], (long long)big_incs[v][1],
                             r);
            }
}

static void gemv_on_default_tiles_with_beta_zero_ignores_nan_in_y(void **state)
{
    (void)state;
    check_beta_zero_ignores_nan_in_y(BIG_M, BIG_N);
}

/* The partial sums are added in one order: the same call thrice, the third on
 * a cold cache, gives the same bits. */
static void gemv_on_default_tiles_gives_bitwise_identical_y_call_after_call(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int tr = 0; tr < 3; tr++) {
            const tu_type_t *t = &tu_types[ti];
            tess_trans_t trans = transposes[tr];
            int64_t lx = trans == TessNoTrans ? BIG_N : BIG_M,
                    ly = trans == TessNoTrans ? BIG_M : BIG_N;
            void *A = tu_matrix(t, BIG_M, BIG_N, 24), *x = tu_vec(t, lx, 3, 25, 0);
            void *y1 = product_bits(t, trans, BIG_M, BIG_N, A, x, 3, -3);
            void *y2 = product_bits(t, trans, BIG_M, BIG_N, A, x, 3, -3);
            assert_int_equal(tess_memory_invalidate_all(), 0);
            void *y3 = product_bits(t, trans, BIG_M, BIG_N, A, x, 3, -3);
            size_t bytes = (size_t)tu_vec_span(ly, -3) * t->es;
            assert_memory_equal(y1, y2, bytes);
            assert_memory_equal(y1, y3, bytes);
            tu_release(t, A, BIG_M, BIG_N);
            tu_vec_release(t, x, lx, 3);
            free(y1);
            free(y2);
            free(y3);
        }
}

/* y1 = A x, y2 = A^H y1, y3 = 0.5 A y2 + 2 y3, each call's output the next
 * one's input; synced after each call or not at all, the three vectors'
 * copies on the host. */
static void gemv_chain(const tu_type_t *t, const void *A, const void *x, bool sync_each,
                       void *out[3])
{
    tess_trans_t ct = t->is_complex ? TessConjTrans : TessTrans;
    int64_t m = BIG_M, n = BIG_N, len[3] = { m, n, m }, inc[3] = { 1, -3, 3 };
    void *y[3] = { tu_vec(t, m, 1, 62, 0), tu_vec(t, n, -3, 63, 0), tu_vec(t, m, 3, 64, 0) };
    assert_int_equal(tu_gemv_async(t, TessNoTrans, m, n, 1.0, A, m, x, 1, 0.0, y[0], 1), 0);
    assert_true(!sync_each || tess_sync() == 0);
    assert_int_equal(tu_gemv_async(t, ct, m, n, 1.0, A, m, y[0], 1, 0.0, y[1], -3), 0);
    assert_true(!sync_each || tess_sync() == 0);
    assert_int_equal(tu_gemv_async(t, TessNoTrans, m, n, 0.5, A, m, y[1], -3, 2.0, y[2], 3), 0);
    for (int v = 0; v < 3; v++)
        assert_int_equal(tu_vec_coherent_async(t, y[v], len[v], inc[v]), 0);
    assert_int_equal(tess_sync(), 0);
    for (int v = 0; v < 3; v++) {
        out[v] = tu_copy(t, y[v], tu_vec_span(len[v], inc[v]), 1);
        tu_vec_release(t, y[v], len[v], inc[v]);
    }
}

/* GEMV feeding GEMV across the devices with no sync between the calls gives
 * the bits that the same calls give synced one by one, and each step is
 * within the bound of its own product: the reductions order the calls as
 * their chains do. */
static void gemv_feeding_gemv_without_a_sync_gives_the_bits_of_calls_synced_one_by_one(void **state)
{
    (void)state;
    int64_t m = BIG_M, n = BIG_N, len[3] = { m, n, m }, inc[3] = { 1, -3, 3 };
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        tess_trans_t ct = t->is_complex ? TessConjTrans : TessTrans;
        void *A = tu_matrix(t, m, n, 60), *x = tu_vec(t, n, 1, 61, 0);
        void *chained[3], *synced[3];
        gemv_chain(t, A, x, false, chained);
        gemv_chain(t, A, x, true, synced);
        for (int v = 0; v < 3; v++)
            assert_memory_equal(chained[v], synced[v], (size_t)tu_vec_span(len[v], inc[v]) * t->es);
        /* each step against OpenBLAS on the same input */
        double nA = tu_norm(t, A, m, n, m);
        void *y3 = tu_vec(t, m, 3, 64, 0);
        double ny3 = tu_vec_norm(t, y3, m, 3);
        void *ref[3] = { tu_vec(t, m, 1, 62, 0), tu_vec(t, n, -3, 63, 0), y3 };
        tu_gemv_ref(t, TessNoTrans, m, n, 1.0, A, m, x, 1, 0.0, ref[0], 1);
        tu_gemv_ref(t, ct, m, n, 1.0, A, m, synced[0], 1, 0.0, ref[1], -3);
        tu_gemv_ref(t, TessNoTrans, m, n, 0.5, A, m, synced[1], -3, 2.0, ref[2], 3);
        double r[3] = {
            tu_residual(t, tu_vec_diff(t, synced[0], ref[0], m, 1), n, 1.0, nA,
                        tu_vec_norm(t, x, n, 1), 0.0, 0),
            tu_residual(t, tu_vec_diff(t, synced[1], ref[1], n, -3), m, 1.0, nA,
                        tu_vec_norm(t, synced[0], m, 1), 0.0, 0),
            tu_residual(t, tu_vec_diff(t, synced[2], ref[2], m, 3), n, 0.5, nA,
                        tu_vec_norm(t, synced[1], n, -3), 2.0, ny3),
        };
        for (int v = 0; v < 3; v++)
            if (!(r[v] < TU_GEMM_BOUND))
                fail_msg("%sgemv step %d: residual %g", t->name, v + 1, r[v]);
        for (int v = 0; v < 3; v++) {
            free(chained[v]);
            free(synced[v]);
            free(ref[v]);
        }
        tu_release(t, A, m, n);
        tu_vec_release(t, x, n, 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemv_matches_openblas_for_every_trans_size_increment_and_precision),
        cmocka_unit_test(gemv_with_beta_one_adds_the_product_to_y),
        cmocka_unit_test(gemv_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(gemv_with_beta_zero_ignores_nan_in_y),
        cmocka_unit_test(gemv_with_alpha_zero_never_reads_a_or_x_and_scales_y),
        cmocka_unit_test(gemv_quick_returns_leave_y_bitwise_unchanged),
        cmocka_unit_test(gemv_argument_errors_return_reference_positions_and_submit_nothing),
        cmocka_unit_test(gemv_of_one_element_takes_any_increment),
        cmocka_unit_test(gemv_composes_with_gemm_writing_and_overwriting_its_matrix),
        cmocka_unit_test(gemv_on_a_cached_matrix_moves_only_the_vectors_whatever_the_trans),
        cmocka_unit_test(gemv_on_a_cached_matrix_moves_a_piece_of_y_once_per_device_at_most),
    };
    const struct CMUnitTest three_device_tests[] = {
        cmocka_unit_test(gemv_results_are_bitwise_identical_across_runs_on_several_devices),
    };
    const struct CMUnitTest tiny_memory_tests[] = {
        cmocka_unit_test(gemv_with_tiny_device_memory_evicts_and_stays_correct),
    };
    const struct CMUnitTest default_tile_tests[] = {
        cmocka_unit_test(
            gemv_on_default_tiles_matches_openblas_for_every_trans_precision_and_increment),
        cmocka_unit_test(gemv_on_default_tiles_with_beta_zero_ignores_nan_in_y),
        cmocka_unit_test(gemv_on_default_tiles_gives_bitwise_identical_y_call_after_call),
        cmocka_unit_test(
            gemv_feeding_gemv_without_a_sync_gives_the_bits_of_calls_synced_one_by_one),
    };
    int failed = cmocka_run_group_tests(tests, tu_group_setup, tu_group_teardown);
    failed += cmocka_run_group_tests(three_device_tests, three_devices_setup, tu_group_teardown);
    failed +=
        cmocka_run_group_tests(default_tile_tests, tu_group_setup_default_nb, tu_group_teardown);
    return failed + cmocka_run_group_tests(tiny_memory_tests, tiny_memory_setup, tu_group_teardown);
}
