/* SYMV (s, d) and HEMV (c, z) against OpenBLAS on the host backend (host:2,
 * nb = 16): both triangles, the four precisions, sizes on and off the tile
 * grid with odd and even tile counts, unit, strided and negative increments;
 * NaN in the triangle not referenced (and garbage in the imaginary parts of
 * a Hermitian diagonal), sub-matrix operands, beta 0 with NaN in y, alpha 0,
 * quick returns, argument errors; bit-identical results over several
 * devices; SYMV composed with GEMM without a sync; a cached matrix whose
 * stored tiles alone are read, once; eviction with tiny device memory.  Then
 * on the tile size users get (no TESS_NB, or a forced one), where each piece
 * of y sums partials from several devices: both triangles, every precision
 * and increment +-1, +-3, beta 0 with NaN in y, the same bits call after
 * call, and SYMV between GEMMs writing its matrix without a sync.
 * Bound: ||y - yref||_2 / (max(1,n) eps (|alpha| ||A||_F ||x||_2 + |beta|
 * ||y0||_2)) < 10, ||A|| of the whole symmetric (Hermitian) matrix.  The
 * array elements between a strided vector's entries hold a sentinel that
 * must keep its bits. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

#define NB TU_NB
/* the imaginary parts of a Hermitian diagonal, which must not be read */
#define DIAG_IM 1e3

static const tess_uplo_t uplos[] = { TessUpper, TessLower };
/* on the tile grid and off it, odd and even tile counts (a round-robin bye) */
static const int64_t sizes[] = { 1, NB - 1, NB + 1, 2 * NB, 7 * NB / 2, 5 * NB + 3 };
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))
static const int64_t incs[][2] = { { 1, 1 }, { -2, 3 }, { 3, -1 }, { -1, -2 } };
#define NINCS ((int)(sizeof incs / sizeof *incs))

/* ---- the routine and its reference ----------------------------------------- */

static const char *routine(const tu_type_t *t)
{
    return t->is_complex ? "hemv" : "symv";
}

/* OpenBLAS on a copy of A whose other triangle and diagonal imaginary parts
 * are zero: its HEMV passes NaN there through, which is not the question. */
static void symv_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, double _Complex alpha,
                     const void *A, int64_t lda, const void *x, int64_t incx, double _Complex beta,
                     void *y, int64_t incy)
{
    void *Ac = tu_copy(t, A, lda, n);
    tu_fill_other_triangle(t, uplo, n, Ac, lda, 0.0);
    for (int64_t i = 0; i < n; i++)
        tu_set(t, Ac, i, i, lda, creal(tu_get(t, Ac, i, i, lda)));
    tu_symv_ref(t, uplo, n, alpha, Ac, lda, x, incx, beta, y, incy);
    free(Ac);
}

/* A random n x n matrix (leading dimension ld) with NaN in the triangle
 * opposite to uplo and, complex, DIAG_IM in its diagonal's imaginary parts. */
static void *sym_matrix(const tu_type_t *t, tess_uplo_t uplo, int64_t ld, int64_t n, unsigned seed)
{
    void *A = tu_matrix(t, ld, n, seed);
    tu_fill_other_triangle(t, uplo, n, A, ld, NAN);
    for (int64_t i = 0; i < n && t->is_complex; i++)
        tu_set(t, A, i, i, ld, creal(tu_get(t, A, i, i, ld)) + DIAG_IM * I);
    return A;
}

/* ||A||_F of the symmetric (Hermitian) matrix, its diagonal's real parts. */
static double sym_norm(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            if (uplo == TessLower ? i < j : i > j)
                continue;
            double a = i == j ? fabs(creal(tu_get(t, A, i, j, ld))) : cabs(tu_get(t, A, i, j, ld));
            s += (i == j ? 1 : 2) * a * a;
        }
    return sqrt(s);
}

/* Runs the product with lda larger than n, checks y's gaps and A, and returns the residual. */
static double run_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t incx, int64_t incy,
                       double _Complex alpha, double _Complex beta)
{
    int64_t lda = n + 3;
    void *A = sym_matrix(t, uplo, lda, n, 1), *A0 = tu_copy(t, A, lda, n);
    void *x = tu_vec(t, n, incx, 2, 0), *y = tu_vec(t, n, incy, 3, 0);
    void *yref = tu_copy(t, y, tu_vec_span(n, incy), 1);
    double nA = sym_norm(t, uplo, n, A, lda), nx = tu_vec_norm(t, x, n, incx);
    double ny = tu_vec_norm(t, y, n, incy);

    assert_int_equal(tu_symv_async(t, uplo, n, alpha, A, lda, x, incx, beta, y, incy), 0);
    assert_int_equal(tu_vec_coherent_async(t, y, n, incy), 0);
    assert_int_equal(tess_sync(), 0);
    symv_ref(t, uplo, n, alpha, A, lda, x, incx, beta, yref, incy);
    double r = tu_residual(t, tu_vec_diff(t, y, yref, n, incy), n, alpha, nA, nx, beta, ny);
    assert_true(tu_vec_gaps_intact(t, y, n, incy));
    assert_true(tu_same_outside(t, A, A0, lda, n, lda, 0, 0, 0, 0));
    tu_release(t, A, lda, n);
    tu_vec_release(t, x, n, incx);
    tu_vec_release(t, y, n, incy);
    free(A0);
    free(yref);
    return r;
}

static void check_all_cases(double _Complex alpha, double _Complex beta)
{
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++)
            for (int v = 0; v < NINCS; v++)
                for (int s = 0; s < NSIZES; s++) {
                    const tu_type_t *t = &tu_types[ti];
                    double r = run_case(t, uplos[u], sizes[s], incs[v][0], incs[v][1], alpha, beta);
                    if (!(r < TU_GEMM_BOUND))
                        fail_msg("%s%s uplo=%d n=%lld incx=%lld incy=%lld: residual %g", t->name,
                                 routine(t), uplos[u], (long long)sizes[s], (long long)incs[v][0],
                                 (long long)incs[v][1], r);
                }
}

static void symv_and_hemv_match_openblas_for_every_uplo_size_increment_and_precision(void **state)
{
    (void)state;
    check_all_cases(0.7 - 0.2 * I, -1.3 + 0.4 * I);
}

static void symv_and_hemv_with_beta_one_add_the_product_to_y(void **state)
{
    (void)state;
    check_all_cases(-0.6 + 0.9 * I, 1.0);
}

/* A is a window of a parent matrix off the tile grid, x a row of the parent
 * (increment ld) and y a piece of one of its columns, outside A: everything
 * else in the parent keeps its bits, A's other triangle included. */
static void symv_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched(void **state)
{
    (void)state;
    int64_t ld = 5 * NB + 7, n = 2 * NB + 3;
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++) {
            const tu_type_t *t = &tu_types[ti];
            size_t es = t->es, ao = (size_t)(1 + 2 * ld), xo = (size_t)(n + 2 + 1 * ld);
            size_t yo = (size_t)(3 + (n + 4) * ld);
            void *P = tu_matrix(t, ld, ld, 4 + u);
            char *A = (char *)P + ao * es, *x = (char *)P + xo * es, *y = (char *)P + yo * es;
            tu_fill_other_triangle(t, uplos[u], n, A, ld, NAN);
            void *Pref = tu_copy(t, P, ld, ld);
            double _Complex alpha = 0.5 + 0.25 * I, beta = -0.75;
            double nA = sym_norm(t, uplos[u], n, A, ld), nx = tu_vec_norm(t, x, n, ld);
            double ny = tu_vec_norm(t, y, n, 1);
            assert_int_equal(tu_symv_async(t, uplos[u], n, alpha, A, ld, x, ld, beta, y, 1), 0);
            assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, P, ld, es), 0);
            assert_int_equal(tess_sync(), 0);
            char *yr = (char *)Pref + yo * es;
            symv_ref(t, uplos[u], n, alpha, (char *)Pref + ao * es, ld, (char *)Pref + xo * es, ld,
                     beta, yr, 1);
            double r = tu_residual(t, tu_vec_diff(t, y, yr, n, 1), n, alpha, nA, nx, beta, ny);
            if (!(r < TU_GEMM_BOUND))
                fail_msg("%s%s uplo=%d: residual %g", t->name, routine(t), uplos[u], r);
            assert_true(tu_same_outside(t, P, Pref, ld, ld, ld, 3, n + 4, n, 1));
            tu_release(t, P, ld, ld);
            free(Pref);
        }
}

/* y all NaN: beta 0 must not read it, with alpha 0 (y = 0) or not. */
static void check_beta_zero_ignores_nan_in_y(int64_t n)
{
    for (int ti = 0; ti < 4; ti++)
        for (int alpha_zero = 0; alpha_zero < 2; alpha_zero++) {
            const tu_type_t *t = &tu_types[ti];
            tess_uplo_t uplo = uplos[alpha_zero];
            int64_t incy = alpha_zero ? -2 : 1;
            void *A = sym_matrix(t, uplo, n, n, 5), *x = tu_vec(t, n, 1, 6, 0);
            void *y = tu_vec(t, n, incy, 7, NAN), *yref = tu_vec(t, n, incy, 7, 0);
            tu_fill(t, yref, tu_vec_span(n, incy), 1, tu_vec_span(n, incy), 0.0);
            double _Complex alpha = alpha_zero ? 0.0 : 1.5;
            assert_int_equal(tu_symv_async(t, uplo, n, alpha, A, n, x, 1, 0.0, y, incy), 0);
            assert_int_equal(tu_vec_coherent_async(t, y, n, incy), 0);
            assert_int_equal(tess_sync(), 0);
            symv_ref(t, uplo, n, alpha, A, n, x, 1, 0.0, yref, incy);
            double r = tu_residual(t, tu_vec_diff(t, y, yref, n, incy), n, alpha,
                                   sym_norm(t, uplo, n, A, n), tu_vec_norm(t, x, n, 1), 0.0, 0);
            assert_true(r < TU_GEMM_BOUND);
            assert_true(tu_vec_gaps_intact(t, y, n, incy));
            if (alpha_zero)
                assert_true(tu_vec_norm(t, y, n, incy) == 0);
            tu_release(t, A, n, n);
            tu_vec_release(t, x, n, 1);
            tu_vec_release(t, y, n, incy);
            free(yref);
        }
}

static void symv_with_beta_zero_ignores_nan_in_y(void **state)
{
    (void)state;
    check_beta_zero_ignores_nan_in_y(3 * NB + 5);
}

/* alpha 0: y = beta y, with A and x NaN (never read), or NULL. */
static void symv_with_alpha_zero_never_reads_a_or_x_and_scales_y(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int null_ops = 0; null_ops < 2; null_ops++) {
            const tu_type_t *t = &tu_types[ti];
            int64_t n = 3 * NB + 2, incy = null_ops ? 1 : 3;
            void *A = tu_matrix(t, n, n, 8), *x = tu_vec(t, n, 1, 9, NAN),
                 *y = tu_vec(t, n, incy, 10, 0);
            tu_fill(t, A, n, n, n, NAN);
            void *yref = tu_copy(t, y, tu_vec_span(n, incy), 1);
            double _Complex beta = 0.5 - 0.5 * I;
            double ny = tu_vec_norm(t, y, n, incy);
            assert_int_equal(tu_symv_async(t, TessLower, n, 0.0, null_ops ? NULL : A, n,
                                           null_ops ? NULL : x, 1, beta, y, incy),
                             0);
            assert_int_equal(tu_vec_coherent_async(t, y, n, incy), 0);
            assert_int_equal(tess_sync(), 0);
            void *Af = tu_matrix(t, n, n, 11), *xf = tu_vec(t, n, 1, 12, 0);
            symv_ref(t, TessLower, n, 0.0, Af, n, xf, 1, beta, yref, incy);
            assert_true(tu_residual(t, tu_vec_diff(t, y, yref, n, incy), 0, 0.0, 0, 0, beta, ny) <
                        TU_GEMM_BOUND);
            assert_true(tu_vec_gaps_intact(t, y, n, incy));
            tu_release(t, A, n, n);
            tu_vec_release(t, x, n, 1);
            tu_vec_release(t, y, n, incy);
            free(Af);
            free(xf);
            free(yref);
        }
}

/* Reference BLAS returns at once: alpha 0 and beta 1, or n 0. */
static void symv_quick_returns_leave_y_bitwise_unchanged(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int c = 0; c < 2; c++) {
            const tu_type_t *t = &tu_types[ti];
            int64_t n = NB + 2;
            void *y = tu_vec(t, n, 1, 13, 0);
            tu_set(t, y, 1, 0, n, NAN);
            void *y0 = tu_copy(t, y, n, 1);
            assert_int_equal(tu_symv_async(t, TessUpper, c ? 0 : n, c ? 1.0 : 0.0, NULL, n, NULL, 1,
                                           c ? 0.0 : 1.0, c ? NULL : y, 1),
                             0);
            assert_int_equal(tu_vec_coherent_async(t, y, n, 1), 0);
            assert_int_equal(tess_sync(), 0);
            assert_memory_equal(y, y0, (size_t)n * t->es);
            tu_vec_release(t, y, n, 1);
            free(y0);
        }
}

/* Reference BLAS's numbering (uplo 1, n 2, lda 5, incx 7, incy 10), operands
 * that would be read must not be NULL (A 4, x 6, y 9), and nothing is
 * submitted: y keeps its NaN although beta is 0. */
static void symv_argument_errors_return_reference_positions_and_submit_nothing(void **state)
{
    (void)state;
    double A[4] = { 1, 2, 3, 4 }, x[2] = { 1, 1 }, y[2] = { NAN, NAN };
    assert_int_equal(tess_dsymv_async((tess_uplo_t)0, 2, 1, A, 2, x, 1, 0, y, 1), -1);
    assert_int_equal(tess_dsymv_async(TessLower, -1, 1, A, 2, x, 1, 0, y, 1), -2);
    assert_int_equal(tess_dsymv_async(TessLower, 2, 1, NULL, 2, x, 1, 0, y, 1), -4);
    assert_int_equal(tess_dsymv_async(TessLower, 2, 1, A, 1, x, 1, 0, y, 1), -5);
    assert_int_equal(tess_dsymv_async(TessLower, 2, 1, A, 2, NULL, 1, 0, y, 1), -6);
    assert_int_equal(tess_dsymv_async(TessLower, 2, 1, A, 2, x, 0, 0, y, 1), -7);
    assert_int_equal(tess_dsymv_async(TessLower, 2, 1, A, 2, x, 1, 0, NULL, 1), -9);
    assert_int_equal(tess_dsymv_async(TessLower, 2, 1, A, 2, x, 1, 0, y, 0), -10);
    double _Complex z[2] = { 0 };
    assert_int_equal(tess_zhemv_async(TessUpper, 2, 1, NULL, 2, NULL, -1, 0, z, 1), -4);
    assert_int_equal(tess_chemv_async(TessUpper, 0, 1, NULL, 0, NULL, 1, 0, NULL, 1), -5);
    assert_int_equal(tess_sync(), 0);
    assert_true(isnan(y[0]) && isnan(y[1]));
}

static void *product_bits(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A,
                          const void *x, int64_t incx, int64_t incy)
{
    void *y = tu_vec(t, n, incy, 21, 0);
    assert_int_equal(tu_symv_async(t, uplo, n, 0.3 + 0.6 * I, A, n, x, incx, 0.9, y, incy), 0);
    assert_int_equal(tu_vec_coherent_async(t, y, n, incy), 0);
    assert_int_equal(tess_sync(), 0);
    void *bits = tu_copy(t, y, tu_vec_span(n, incy), 1);
    tu_vec_release(t, y, n, incy);
    return bits;
}

/* On three devices each piece of y is summed in one order: two runs, the
 * second on a cold cache after the first ran on a warm one, agree bit for bit. */
static void symv_results_are_bitwise_identical_across_runs_on_several_devices(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++) {
            const tu_type_t *t = &tu_types[ti];
            int64_t n = (11 + u) * NB + 5;
            void *A = sym_matrix(t, uplos[u], n, n, 22), *x = tu_vec(t, n, -1, 23, 0);
            void *y1 = product_bits(t, uplos[u], n, A, x, -1, 2);
            void *y2 = product_bits(t, uplos[u], n, A, x, -1, 2);
            assert_int_equal(tess_memory_invalidate_all(), 0);
            void *y3 = product_bits(t, uplos[u], n, A, x, -1, 2);
            size_t bytes = (size_t)tu_vec_span(n, 2) * t->es;
            assert_memory_equal(y1, y2, bytes);
            assert_memory_equal(y1, y3, bytes);
            tu_release(t, A, n, n);
            tu_vec_release(t, x, n, -1);
            free(y1);
            free(y2);
            free(y3);
        }
}

/* A GEMM writes A = B B^T, SYMV reads its lower triangle, then a GEMM
 * overwrites it: no sync between them, and each sees the right data. */
static void check_symv_between_gemms_writing_its_matrix(int64_t n, int64_t k)
{
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        tess_trans_t bt = t->is_complex ? TessConjTrans : TessTrans;
        void *B = tu_matrix(t, n, k, 30), *A = tu_matrix(t, n, n, 32);
        void *x = tu_vec(t, n, 1, 33, 0), *y = tu_vec(t, n, -1, 34, 0);
        void *Aref = tu_copy(t, A, n, n), *yref = tu_copy(t, y, n, 1);
        double ny0 = tu_vec_norm(t, y, n, -1);
        assert_int_equal(tu_gemm_async(t, TessNoTrans, bt, n, n, k, 1.0, B, n, B, n, 0.0, A, n), 0);
        assert_int_equal(tu_symv_async(t, TessLower, n, 1.0, A, n, x, 1, 0.5, y, -1), 0);
        assert_int_equal(tu_gemm_async(t, TessNoTrans, bt, n, n, k, 2.0, B, n, B, n, 0.0, A, n), 0);
        assert_int_equal(tu_vec_coherent_async(t, y, n, -1), 0);
        assert_int_equal(tess_memory_coherent_async(TessAll, n, n, A, n, t->es), 0);
        assert_int_equal(tess_sync(), 0);
        tu_gemm_ref(t, TessNoTrans, bt, n, n, k, 1.0, B, n, B, n, 0.0, Aref, n);
        symv_ref(t, TessLower, n, 1.0, Aref, n, x, 1, 0.5, yref, -1);
        /* A's own error (k eps ||B||^2) reaches y: the bound takes ||B||^2 for ||A|| */
        double nB = tu_norm(t, B, n, k, n);
        double r = tu_residual(t, tu_vec_diff(t, y, yref, n, -1), n + k, 1.0, nB * nB,
                               tu_vec_norm(t, x, n, 1), 0.5, ny0);
        if (!(r < TU_GEMM_BOUND))
            fail_msg("%s%s: residual %g", t->name, routine(t), r);
        tu_gemm_ref(t, TessNoTrans, bt, n, n, k, 2.0, B, n, B, n, 0.0, Aref, n);
        assert_true(tu_gemm_residual(t, n, n, k, 2.0, nB, nB, 0.0, 0, A, Aref, n) < TU_GEMM_BOUND);
        tu_release(t, A, n, n);
        tu_release(t, B, n, k);
        tu_vec_release(t, x, n, 1);
        tu_vec_release(t, y, n, -1);
        free(Aref);
        free(yref);
    }
}

static void symv_composes_with_gemm_writing_and_overwriting_its_matrix(void **state)
{
    (void)state;
    check_symv_between_gemms_writing_its_matrix(3 * NB + 1, NB + 3);
}

/* The first product fetches the stored triangle's tiles alone, once each;
 * later ones, each with a new x written on the host, move only the vectors. */
static void symv_on_a_cached_matrix_reads_its_stored_tiles_once_and_then_moves_vectors(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t n = 7 * NB + 3, nt = 8;
    for (int u = 0; u < 2; u++) {
        void *A = sym_matrix(t, uplos[u], n, n, 40), *x = tu_vec(t, n, 1, 41, 0);
        void *y = tu_vec(t, n, 1, 42, 0);
        /* the stored tiles: nt - 1 full ones a side, then an edge of 3 */
        uint64_t tiles = (uint64_t)((nt - 1) * nt / 2 * NB * NB + (nt - 1) * NB * 3 + 9) * t->es;
        for (int c = 0; c < 3; c++) {
            tess_stats_t s0, s1;
            assert_int_equal(tess_get_stats(&s0), 0);
            assert_int_equal(tess_dsymv_async(uplos[u], n, 1.0, A, n, x, 1, 0.0, y, 1), 0);
            assert_int_equal(tu_vec_coherent_async(t, y, n, 1), 0);
            assert_int_equal(tess_sync(), 0);
            assert_int_equal(tess_get_stats(&s1), 0);
            uint64_t h2d = s1.bytes_h2d - s0.bytes_h2d, d2d = s1.bytes_d2d - s0.bytes_d2d;
            /* x once to each device at most, each piece of y once per task on it */
            uint64_t vecs = (uint64_t)(n * s1.ndevices + n * nt) * t->es;
            if (c == 0 && (h2d < tiles || h2d > tiles + vecs || d2d > vecs))
                fail_msg("uplo %d, first call: h2d %llu, d2d %llu bytes; stored tiles %llu, "
                         "vectors at most %llu",
                         uplos[u], (unsigned long long)h2d, (unsigned long long)d2d,
                         (unsigned long long)tiles, (unsigned long long)vecs);
            if (c > 0 && (h2d > vecs || d2d > vecs))
                fail_msg("uplo %d, call %d: h2d %llu, d2d %llu bytes; vectors at most %llu",
                         uplos[u], c, (unsigned long long)h2d, (unsigned long long)d2d,
                         (unsigned long long)vecs);
            tu_vec_release(t, x, n, 1);
            x = tu_vec(t, n, 1, 43 + c, 0);
            assert_int_equal(tess_memory_invalidate(n, 1, y, n, t->es), 0);
        }
        tu_release(t, A, n, n);
        tu_vec_release(t, x, n, 1);
        tu_vec_release(t, y, n, 1);
    }
}

/* Device memory for a few tiles, each device's share of the stored triangle
 * over 27 tiles (10 tiles a side on 2 devices): tiles are evicted while the
 * product runs. */
static void symv_with_tiny_device_memory_evicts_and_stays_correct(void **state)
{
    (void)state;
    tess_stats_t devs;
    assert_int_equal(tess_get_stats(&devs), 0);
    int64_t nt = 1;
    while (nt * (nt + 1) / 2 <= 27 * (int64_t)devs.ndevices)
        nt++;
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++) {
            tess_stats_t s0, s1;
            assert_int_equal(tess_get_stats(&s0), 0);
            double r =
                run_case(&tu_types[ti], uplos[u], (nt - 1) * NB + 3, -1, 2, 0.5 + I, u ? 0.0 : 2.0);
            assert_int_equal(tess_get_stats(&s1), 0);
            if (!(r < TU_GEMM_BOUND))
                fail_msg("%s%s: residual %g", tu_types[ti].name, routine(&tu_types[ti]), r);
            assert_true(s1.evictions > s0.evictions);
        }
}

static int tiny_memory_setup(void **state)
{
    (void)state;
    /* 4 tiles of complex double (fewer than half of A's stored ones in single
     * precision) and the vectors of a task */
    return tu_init_host(2, NB, 4 * NB * NB * 16 + 4096);
}

static int three_devices_setup(void **state)
{
    (void)state;
    return tu_init_host(3, NB, 0);
}

/* ---- on the tile size users get ------------------------------------------------
 * With no TESS_NB the call picks its tiles (several per device for these
 * sizes); with TESS_NB forced small, many per device.  Either way a piece of
 * y gathers partial sums from several devices. */
#define BIG_N 1000

static void
symv_on_default_tiles_matches_openblas_for_every_uplo_precision_and_increment(void **state)
{
    (void)state;
    static const int64_t big_incs[][2] = { { 1, 1 }, { -1, -1 }, { 3, -3 }, { -3, 3 } };
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++)
            for (int v = 0; v < 4; v++) {
                const tu_type_t *t = &tu_types[ti];
                /* an odd size as well, off the tile grid */
                int64_t n = BIG_N + v % 2 * 37;
                double r = run_case(t, uplos[u], n, big_incs[v][0], big_incs[v][1], 0.7 - 0.2 * I,
                                    -1.3 + 0.4 * I);
                if (!(r < TU_GEMM_BOUND))
                    fail_msg("%s%s uplo=%d n=%lld incx=%lld incy=%lld: residual %g", t->name,
                             routine(t), uplos[u], (long long)n, (long long)big_incs[v][0],
                             (long long)big_incs[v][1], r);
            }
}

static void symv_on_default_tiles_with_beta_zero_ignores_nan_in_y(void **state)
{
    (void)state;
    check_beta_zero_ignores_nan_in_y(BIG_N);
}

/* The partial sums are added in one order: the same call thrice, the third on
 * a cold cache, gives the same bits. */
static void symv_on_default_tiles_gives_bitwise_identical_y_call_after_call(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int u = 0; u < 2; u++) {
            const tu_type_t *t = &tu_types[ti];
            void *A = sym_matrix(t, uplos[u], BIG_N, BIG_N, 24), *x = tu_vec(t, BIG_N, 3, 25, 0);
            void *y1 = product_bits(t, uplos[u], BIG_N, A, x, 3, -3);
            void *y2 = product_bits(t, uplos[u], BIG_N, A, x, 3, -3);
            assert_int_equal(tess_memory_invalidate_all(), 0);
            void *y3 = product_bits(t, uplos[u], BIG_N, A, x, 3, -3);
            size_t bytes = (size_t)tu_vec_span(BIG_N, -3) * t->es;
            assert_memory_equal(y1, y2, bytes);
            assert_memory_equal(y1, y3, bytes);
            tu_release(t, A, BIG_N, BIG_N);
            tu_vec_release(t, x, BIG_N, 3);
            free(y1);
            free(y2);
            free(y3);
        }
}

static void symv_on_default_tiles_between_gemms_writing_its_matrix_sees_the_right_data(void **state)
{
    (void)state;
    check_symv_between_gemms_writing_its_matrix(BIG_N, 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(symv_and_hemv_match_openblas_for_every_uplo_size_increment_and_precision),
        cmocka_unit_test(symv_and_hemv_with_beta_one_add_the_product_to_y),
        cmocka_unit_test(symv_on_submatrix_operands_leaves_the_rest_of_the_parent_untouched),
        cmocka_unit_test(symv_with_beta_zero_ignores_nan_in_y),
        cmocka_unit_test(symv_with_alpha_zero_never_reads_a_or_x_and_scales_y),
        cmocka_unit_test(symv_quick_returns_leave_y_bitwise_unchanged),
        cmocka_unit_test(symv_argument_errors_return_reference_positions_and_submit_nothing),
        cmocka_unit_test(symv_composes_with_gemm_writing_and_overwriting_its_matrix),
        cmocka_unit_test(
            symv_on_a_cached_matrix_reads_its_stored_tiles_once_and_then_moves_vectors),
    };
    const struct CMUnitTest three_device_tests[] = {
        cmocka_unit_test(symv_results_are_bitwise_identical_across_runs_on_several_devices),
    };
    const struct CMUnitTest tiny_memory_tests[] = {
        cmocka_unit_test(symv_with_tiny_device_memory_evicts_and_stays_correct),
    };
    const struct CMUnitTest default_tile_tests[] = {
        cmocka_unit_test(
            symv_on_default_tiles_matches_openblas_for_every_uplo_precision_and_increment),
        cmocka_unit_test(symv_on_default_tiles_with_beta_zero_ignores_nan_in_y),
        cmocka_unit_test(symv_on_default_tiles_gives_bitwise_identical_y_call_after_call),
        cmocka_unit_test(
            symv_on_default_tiles_between_gemms_writing_its_matrix_sees_the_right_data),
    };
    int failed = cmocka_run_group_tests(tests, tu_group_setup, tu_group_teardown);
    failed += cmocka_run_group_tests(three_device_tests, three_devices_setup, tu_group_teardown);
    failed +=
        cmocka_run_group_tests(default_tile_tests, tu_group_setup_default_nb, tu_group_teardown);
    return failed + cmocka_run_group_tests(tiny_memory_tests, tiny_memory_setup, tu_group_teardown);
}
