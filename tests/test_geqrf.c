/* GEQRF, ORMQR/UNMQR and GELS on the host backend (host:2, nb = 16, or
 * TESS_TEST_DEVICES), against the host LAPACK, in the four precisions.
 *
 * Bounds (TL_BOUND, LAPACK's testers' threshold of 30), with eps the type's:
 *   factor:       ||A - Q R||_F / (max(m, n) eps ||A||_F) and ||Q^H Q - I||_F / (m eps),
 *                 Q formed by the host LAPACK's ?orgqr/?ungqr from Tessera's A and tau;
 *   ormqr:        ||C - op(Q) C0||_F / (max(m, n) eps ||C0||_F) (or C0 op(Q)), Q formed
 *                 by the host LAPACK from its own GEQRF, whose output Tessera reads;
 *   least squares: ||op(A)^H (B - op(A) X)||_F / (max(m, n, nrhs) eps ||A||_F ||B||_F)
 *                 (LAPACK's xQRT17), and the norm of each column of B's rows after X against
 *                 that column's residual, relative to max(m, n) eps ||B||_F;
 *   minimum norm: ||X - Xref||_F / (max(m, n) eps ||Xref||_F), Xref the host LAPACK's
 *                 (the solution is unique; the random matrices are well conditioned);
 *   m < n:        A's LQ factors ||A - Aref||_F / (n eps ||A0||_F), Aref the host LAPACK's
 *                 GELQF output (Householder reflectors are unique up to rounding here).
 * The padding rows below each matrix (leading dimensions larger than the rows) must come
 * back bit for bit. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lapackutil.h"

#define NB TU_NB

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static tess_trans_t ctrans(const tu_type_t *t)
{
    return t->is_complex ? TessConjTrans : TessTrans;
}

/* The two factor bounds of A (m x n, lda) and tau from a QR, A0 the matrix factored. */
static void check_factor(const tu_type_t *t, int64_t m, int64_t n, const void *A0, const void *A,
                         int64_t lda, const void *tau, const char *what)
{
    int64_t k = min64(m, n);
    /* Q1: m x k from the reflectors; R1: k x n, the upper trapezoid */
    void *Q = tu_alloc(t, m, k), *R = tu_alloc(t, k, n), *E = tu_copy(t, A0, lda, n);
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < m; i++)
            tu_set(t, Q, i, j, m, tu_get(t, A, i, j, lda));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < k; i++)
            tu_set(t, R, i, j, k, i <= j ? tu_get(t, A, i, j, lda) : 0);
    assert_int_equal(tl_orgqr_ref(t, m, k, k, Q, m, tau), 0);
    tu_gemm_ref(t, TessNoTrans, TessNoTrans, m, n, k, -1.0, Q, m, R, k, 1.0, E, lda);
    double res =
        tu_norm(t, E, m, n, lda) / ((double)max64(m, n) * t->eps * tu_norm(t, A0, m, n, lda));
    void *Id = tu_alloc(t, k, k);
    tu_fill(t, Id, k, k, k, 0.0);
    for (int64_t i = 0; i < k; i++)
        tu_set(t, Id, i, i, k, 1.0);
    tu_gemm_ref(t, ctrans(t), TessNoTrans, k, k, m, 1.0, Q, m, Q, m, -1.0, Id, k);
    double orth = tu_norm(t, Id, k, k, k) / ((double)m * t->eps);
    if (!(res < TL_BOUND) || !(orth < TL_BOUND))
        fail_msg("%s%s m %lld n %lld: ||A - QR|| %g, ||Q^H Q - I|| %g", t->name, what, (long long)m,
                 (long long)n, res, orth);
    free(Q);
    free(R);
    free(E);
    free(Id);
}

static void factor_case(const tu_type_t *t, int64_t m, int64_t n)
{
    int64_t lda = m + 3, k = min64(m, n);
    void *A = tu_matrix(t, lda, n, (unsigned)(m * 7 + n)), *A0 = tu_copy(t, A, lda, n);
    void *tau = tu_alloc(t, k + 1, 1);
    tu_fill(t, tau, k + 1, 1, k + 1, NAN);
    assert_int_equal(tl_geqrf_async(t, m, n, A, lda, tau), 0);
    /* tau needs no request of its own */
    tl_sync_matrix(t, A, lda, n, lda);
    check_factor(t, m, n, A0, A, lda, tau, "geqrf");
    /* tau's entry after its k is not tau's; A's rows below m are not A's */
    assert_true(isnan(creal(tu_get(t, tau, k, 0, k + 1))));
    assert_true(tu_diff(t, (char *)A + m * t->es, (char *)A0 + m * t->es, 3, n, lda) == 0);
    tu_release(t, A, lda, n);
    tu_release(t, tau, k + 1, 1);
    free(A0);
}

static void geqrf_factors_square_tall_and_wide_matrices_in_every_precision(void **state)
{
    (void)state;
    const int64_t shapes[][2] = { { 1, 1 },
                                  { NB, NB },
                                  { 4 * NB, 4 * NB },
                                  { 37, 37 },
                                  { 5 * NB + 3, 2 * NB + 1 },
                                  { 2 * NB + 5, 4 * NB },
                                  { NB - 3, 3 * NB + 2 },
                                  { 9 * NB, 3 } };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
            factor_case(&tu_types[ti], shapes[s][0], shapes[s][1]);
}

/* Q (order nq) formed whole from the host LAPACK's GEQRF of an nq x k matrix, whose output
 * (reflectors, tau) goes to Tessera's ormqr with NaN on and above the diagonal. */
static void ormqr_case(const tu_type_t *t, tess_side_t side, tess_trans_t trans, int64_t m,
                       int64_t n, int64_t k)
{
    int64_t nq = side == TessLeft ? m : n, lda = nq + 2, ldc = m + 1;
    void *A = tu_matrix(t, lda, k, (unsigned)(m + 3 * n + k)), *tau = tu_alloc(t, k, 1);
    assert_int_equal(tl_geqrf_ref(t, nq, k, A, lda, tau), 0);
    void *Q = tu_alloc(t, nq, nq);
    tu_fill(t, Q, nq, nq, nq, 0.0);
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < nq; i++)
            tu_set(t, Q, i, j, nq, tu_get(t, A, i, j, lda));
    assert_int_equal(tl_orgqr_ref(t, nq, nq, k, Q, nq, tau), 0);
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i <= j && i < nq; i++)
            tu_set(t, A, i, j, lda, NAN);
    void *C = tu_matrix(t, ldc, n, (unsigned)(5 * m + n)), *C0 = tu_copy(t, C, ldc, n);
    void *Ref = tu_copy(t, C, ldc, n);
    assert_int_equal(tl_ormqr_async(t, side, trans, m, n, k, A, lda, tau, C, ldc), 0);
    tl_sync_matrix(t, C, ldc, n, ldc);
    if (side == TessLeft)
        tu_gemm_ref(t, trans, TessNoTrans, m, n, m, 1.0, Q, nq, C0, ldc, 0.0, Ref, ldc);
    else
        tu_gemm_ref(t, TessNoTrans, trans, m, n, n, 1.0, C0, ldc, Q, nq, 0.0, Ref, ldc);
    double err =
        tu_diff(t, C, Ref, m, n, ldc) / ((double)max64(m, n) * t->eps * tu_norm(t, C0, m, n, ldc));
    if (!(err < TL_BOUND))
        fail_msg("%sormqr side %d trans %d m %lld n %lld k %lld: error %g", t->name, side, trans,
                 (long long)m, (long long)n, (long long)k, err);
    assert_true(tu_diff(t, (char *)C + m * t->es, (char *)C0 + m * t->es, 1, n, ldc) == 0);
    tu_release(t, A, lda, k);
    tu_release(t, C, ldc, n);
    tu_release(t, tau, k, 1);
    free(Q);
    free(C0);
    free(Ref);
}

static void ormqr_applies_lapacks_reflectors_on_both_sides_never_reading_the_diagonal(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        const tu_type_t *t = &tu_types[ti];
        const tess_trans_t trs[] = { TessNoTrans, ctrans(t) };
        for (int r = 0; r < 2; r++) {
            ormqr_case(t, TessLeft, trs[r], 3 * NB + 5, 2 * NB + 1, 2 * NB + 3);
            ormqr_case(t, TessLeft, trs[r], 2 * NB, 5, 2 * NB);
            ormqr_case(t, TessRight, trs[r], 2 * NB + 1, 3 * NB + 5, 3 * NB + 5);
            ormqr_case(t, TessRight, trs[r], 7, 2 * NB + 3, NB + 1);
        }
    }
}

/* Tessera's GELS on A and B, both made coherent, and the host LAPACK's on copies in *Ar and *Br
 * (for the caller to free), whose info must be 0; Tessera's info. */
static int64_t gels_beside_lapacks(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n,
                                   int64_t nrhs, void *A, int64_t lda, void *B, int64_t ldb,
                                   void **Ar, void **Br)
{
    *Ar = tu_copy(t, A, lda, n);
    *Br = tu_copy(t, B, ldb, nrhs);
    int64_t info = -3;
    assert_int_equal(tl_gels_async(t, trans, m, n, nrhs, A, lda, B, ldb, &info), 0);
    tl_sync_matrix(t, B, ldb, nrhs, ldb);
    tl_sync_matrix(t, A, lda, n, lda);
    assert_int_equal(tl_gels_ref(t, trans, m, n, nrhs, *Ar, lda, *Br, ldb), 0);
    return info;
}

/* op(A) X = B by Tessera's and by the host LAPACK's gels, op(A) p x q: least squares when
 * p >= q (X's q rows bounded by orthogonality, the rows after them by the residual), minimum
 * norm when p < q (X against LAPACK's); for m < n A must hold the host LAPACK's GELQF
 * representation, bounded as X is. */
static void gels_case(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs)
{
    int64_t lda = m + 1, ldb = max64(m, n) + 2;
    int64_t p = trans == TessNoTrans ? m : n, q = trans == TessNoTrans ? n : m;
    void *A = tu_matrix(t, lda, n, (unsigned)(m + n + nrhs)), *A0 = tu_copy(t, A, lda, n);
    void *B = tu_matrix(t, ldb, nrhs, (unsigned)(3 * m + nrhs)), *B0 = tu_copy(t, B, ldb, nrhs);
    void *Ar, *Br;
    assert_int_equal(gels_beside_lapacks(t, trans, m, n, nrhs, A, lda, B, ldb, &Ar, &Br), 0);
    double normb = tu_norm(t, B0, p, nrhs, ldb), norma = tu_norm(t, A0, m, n, lda);
    if (p >= q) {
        /* R = B0 - op(A) X; ||op(A)^H R|| and the rows after X against R's columns */
        tess_trans_t ta = trans == TessNoTrans ? TessNoTrans : ctrans(t);
        tess_trans_t th = trans == TessNoTrans ? ctrans(t) : TessNoTrans;
        void *R = tu_copy(t, B0, ldb, nrhs), *W = tu_alloc(t, q, nrhs);
        tu_gemm_ref(t, ta, TessNoTrans, p, nrhs, q, -1.0, A0, lda, B, ldb, 1.0, R, ldb);
        tu_gemm_ref(t, th, TessNoTrans, q, nrhs, p, 1.0, A0, lda, R, ldb, 0.0, W, q);
        double orth =
            tu_norm(t, W, q, nrhs, q) / ((double)max64(max64(m, n), nrhs) * t->eps * norma * normb);
        double rows_err = 0;
        for (int64_t j = 0; j < nrhs; j++) {
            double d = tu_norm(t, (char *)R + (size_t)(j * ldb) * t->es, p, 1, ldb) -
                       tu_norm(t, (char *)B + (size_t)(q + j * ldb) * t->es, p - q, 1, ldb);
            rows_err = fmax(rows_err, fabs(d) / ((double)p * t->eps * normb));
        }
        if (!(orth < TL_BOUND) || !(rows_err < TL_BOUND))
            fail_msg("%sgels %d m %lld n %lld: ||op(A)^H r|| %g, residual rows %g", t->name, trans,
                     (long long)m, (long long)n, orth, rows_err);
        free(R);
        free(W);
    } else {
        double err = tu_diff(t, B, Br, q, nrhs, ldb) /
                     ((double)max64(m, n) * t->eps * tu_norm(t, Br, q, nrhs, ldb));
        if (!(err < TL_BOUND))
            fail_msg("%sgels %d m %lld n %lld: error against LAPACK %g", t->name, trans,
                     (long long)m, (long long)n, err);
    }
    if (m < n) {
        double err = tu_diff(t, A, Ar, m, n, lda) / ((double)n * t->eps * norma);
        if (!(err < TL_BOUND))
            fail_msg("%sgels %d m %lld n %lld: A against LAPACK's LQ factors %g", t->name, trans,
                     (long long)m, (long long)n, err);
    }
    tu_release(t, A, lda, n);
    tu_release(t, B, ldb, nrhs);
    free(A0);
    free(B0);
    free(Ar);
    free(Br);
}

static void gels_solves_least_squares_and_minimum_norm_problems_in_every_precision(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        const tu_type_t *t = &tu_types[ti];
        const tess_trans_t trs[] = { TessNoTrans, ctrans(t) };
        for (int r = 0; r < 2; r++) {
            gels_case(t, trs[r], 5 * NB + 3, 2 * NB + 5, NB + 2);
            gels_case(t, trs[r], 3 * NB, 3 * NB, 2);
            gels_case(t, trs[r], 40, 1, 3);
        }
    }
}

/* m < n, LAPACK's LQ path, by a QR of A^H: minimum norm (NoTrans) and least squares
 * (ConjTrans), wide by several panels, by less than one, and one row. */
static void gels_solves_wide_problems_as_lapacks_lq_path_in_every_precision(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        const tu_type_t *t = &tu_types[ti];
        const tess_trans_t trs[] = { TessNoTrans, ctrans(t) };
        for (int r = 0; r < 2; r++) {
            gels_case(t, trs[r], 2 * NB + 5, 5 * NB + 3, NB + 2);
            gels_case(t, trs[r], 3 * NB, 3 * NB + 7, 2);
            gels_case(t, trs[r], 1, 40, 3);
        }
    }
}

/* Column c (0-based) of A zero for m >= n, row c for m < n: the triangular factor's diagonal
 * element c (R's, or L's = R^H's of A^H) is exactly zero and INFO c + 1, LAPACK's; B holds what
 * LAPACK's leaves: Q^H B for a least-squares problem (within the ormqr bound), B untouched for a
 * minimum-norm one. */
static void rank_case(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t c)
{
    int64_t lda = m, ldb = max64(m, n), nrhs = 3;
    bool least_squares = (trans == TessNoTrans) == (m >= n);
    void *A = tu_matrix(t, lda, n, (unsigned)(m + c));
    for (int64_t i = 0; i < (m >= n ? m : n); i++)
        tu_set(t, A, m >= n ? i : c, m >= n ? c : i, lda, 0);
    void *B = tu_matrix(t, ldb, nrhs, 77), *B0 = tu_copy(t, B, ldb, nrhs);
    void *Ar = tu_copy(t, A, lda, n), *Br = tu_copy(t, B, ldb, nrhs);
    int64_t info = -1;
    assert_int_equal(tl_gels_async(t, trans, m, n, nrhs, A, lda, B, ldb, &info), 0);
    tl_sync_matrix(t, B, ldb, nrhs, ldb);
    int ref = tl_gels_ref(t, trans, m, n, nrhs, Ar, lda, Br, ldb);
    assert_int_equal(ref, c + 1);
    if (info != ref)
        fail_msg("%sgels trans %d m %lld n %lld zero %lld: info %lld, LAPACK's %d", t->name, trans,
                 (long long)m, (long long)n, (long long)c, (long long)info, ref);
    if (least_squares) {
        double err = tu_diff(t, B, Br, ldb, nrhs, ldb) /
                     ((double)ldb * t->eps * tu_norm(t, B0, ldb, nrhs, ldb));
        if (!(err < TL_BOUND))
            fail_msg("%sgels m %lld n %lld zero %lld: Q^H B against LAPACK's %g", t->name,
                     (long long)m, (long long)n, (long long)c, err);
    } else {
        assert_true(tu_diff(t, B, B0, ldb, nrhs, ldb) == 0);
    }
    tu_release(t, A, lda, n);
    tu_release(t, B, ldb, nrhs);
    free(B0);
    free(Ar);
    free(Br);
}

static void
gels_reports_the_first_zero_on_rs_diagonal_at_the_first_column_and_deep_inside(void **state)
{
    (void)state;
    const int64_t m = 5 * NB + 1, n = 4 * NB + 2, cols[] = { 0, NB + 3, 3 * NB, n - 1 };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (size_t i = 0; i < sizeof cols / sizeof *cols; i++) {
            const tu_type_t *t = &tu_types[ti];
            rank_case(t, TessNoTrans, m, n, cols[i]);
            rank_case(t, ctrans(t), m, n, cols[i]);
            /* wide: row cols[i] of the n x m matrix */
            rank_case(t, TessNoTrans, n, m, cols[i]);
            rank_case(t, ctrans(t), n, m, cols[i]);
        }
}

/* A = 0 (its padding rows not): LAPACK's GELS answers X = 0, B's max(m, n) rows zeroed, with
 * INFO 0 rather than a rank deficiency; A stays zero, and B's padding rows come back bit for
 * bit, as the host LAPACK's. */
static void zero_case(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n)
{
    int64_t lda = m + 1, ldb = max64(m, n) + 2, nrhs = 3;
    void *A = tu_matrix(t, lda, n, 5);
    for (int64_t j = 0; j < n; j++)
        memset((char *)A + (size_t)(j * lda) * t->es, 0, (size_t)m * t->es);
    void *B = tu_matrix(t, ldb, nrhs, 6), *Ar, *Br;
    int64_t info = gels_beside_lapacks(t, trans, m, n, nrhs, A, lda, B, ldb, &Ar, &Br);
    if (info != 0 || tu_diff(t, B, Br, ldb, nrhs, ldb) != 0 || tu_diff(t, A, Ar, lda, n, lda) != 0)
        fail_msg("%sgels trans %d m %lld n %lld of A = 0: info %lld, B %s LAPACK's, A %s", t->name,
                 trans, (long long)m, (long long)n, (long long)info,
                 tu_diff(t, B, Br, ldb, nrhs, ldb) == 0 ? "as" : "unlike",
                 tu_diff(t, A, Ar, lda, n, lda) == 0 ? "zero" : "changed");
    tu_release(t, A, lda, n);
    tu_release(t, B, ldb, nrhs);
    free(Ar);
    free(Br);
}

static void gels_of_a_zero_matrix_gives_x_zero_and_info_zero_as_lapacks(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        const tu_type_t *t = &tu_types[ti];
        zero_case(t, TessNoTrans, 3 * NB + 2, 2 * NB + 1);
        zero_case(t, ctrans(t), 3 * NB + 2, 2 * NB + 1);
        zero_case(t, TessNoTrans, 2 * NB + 1, 3 * NB + 2);
        zero_case(t, ctrans(t), 2 * NB + 1, 3 * NB + 2);
    }
}

/* A and B scaled by s, each element times s: far above the largest or below the smallest
 * normal number.  LAPACK's GELS brings A and B into [smlnum, 1 / smlnum] (smlnum the smallest
 * normal number over the precision) before it factors, and X back after, so that X, whose
 * scale is 1, is as accurate as with s = 1: ||X - Xref||_F / (max(m, n) eps ||Xref||_F) within
 * the bound, Xref the host LAPACK's, over X's rows (the rows after them keep LAPACK's scale). */
static void scaled_case(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, double s)
{
    int64_t lda = m + 1, ldb = max64(m, n) + 2, nrhs = 2, q = trans == TessNoTrans ? n : m;
    void *A = tu_matrix(t, lda, n, 7), *B = tu_matrix(t, ldb, nrhs, 8);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            tu_set(t, A, i, j, lda, tu_get(t, A, i, j, lda) * s);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < ldb; i++)
            tu_set(t, B, i, j, ldb, tu_get(t, B, i, j, ldb) * s);
    void *Ar, *Br;
    int64_t info = gels_beside_lapacks(t, trans, m, n, nrhs, A, lda, B, ldb, &Ar, &Br);
    double err = tu_diff(t, B, Br, q, nrhs, ldb) /
                 ((double)max64(m, n) * t->eps * tu_norm(t, Br, q, nrhs, ldb));
    if (info != 0 || !(err < TL_BOUND))
        fail_msg(
            "%sgels trans %d m %lld n %lld, A and B times %g: info %lld, X against LAPACK's %g",
            t->name, trans, (long long)m, (long long)n, s, (long long)info, err);
    tu_release(t, A, lda, n);
    tu_release(t, B, ldb, nrhs);
    free(Ar);
    free(Br);
}

static void gels_scales_a_and_b_near_overflow_or_underflow_as_lapacks(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        const tu_type_t *t = &tu_types[ti];
        bool single = t->eps > 1e-10;
        /* the columns' norms overflow; subnormal elements with a few bits left */
        const double scales[] = { single ? 0x1p127 : 0x1p1023, single ? 0x1p-140 : 0x1p-1060 };
        const tess_trans_t trs[] = { TessNoTrans, ctrans(t) };
        for (int si = 0; si < 2; si++)
            for (int r = 0; r < 2; r++) {
                scaled_case(t, trs[r], 3 * NB + 2, 2 * NB + 1, scales[si]);
                scaled_case(t, trs[r], 2 * NB + 1, 3 * NB + 2, scales[si]);
            }
    }
}

/* GEQRF on a window of a parent at an offset off the tile grid, then ORMQR (Q^H) and TRSM with R
 * on a window of B, with no sync: the least-squares solution by hand, bounded as gels' is;
 * every element of the parents outside the windows is bitwise what it was. */
static void geqrf_ormqr_and_trsm_chained_on_views_solve_least_squares_with_no_sync(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t ld = 7 * NB + 3, m = 5 * NB + 5, n = 3 * NB + 2, nrhs = 4, ai = 2, aj = 3;
    double *P = tu_matrix(t, ld, ld, 91), *Pref = tu_copy(t, P, ld, ld);
    double *A = P + ai + aj * ld, *A0 = Pref + ai + aj * ld;
    double *B = tu_matrix(t, m + 1, nrhs, 92), *B0 = tu_copy(t, B, m + 1, nrhs);
    double *tau = malloc((size_t)n * sizeof *tau);
    assert_int_equal(tess_dgeqrf_async(m, n, A, ld, tau), 0);
    assert_int_equal(tess_dormqr_async(TessLeft, TessTrans, m, nrhs, n, A, ld, tau, B, m + 1), 0);
    assert_int_equal(tess_dtrsm_async(TessLeft, TessUpper, TessNoTrans, TessNonUnit, n, nrhs, 1.0,
                                      A, ld, B, m + 1),
                     0);
    tl_sync_matrix(t, B, m + 1, nrhs, m + 1);
    tl_sync_matrix(t, P, ld, ld, ld);
    double *R = tu_copy(t, B0, m + 1, nrhs), *W = malloc((size_t)(n * nrhs) * sizeof *W);
    tu_gemm_ref(t, TessNoTrans, TessNoTrans, m, nrhs, n, -1.0, A0, ld, B, m + 1, 1.0, R, m + 1);
    tu_gemm_ref(t, TessTrans, TessNoTrans, n, nrhs, m, 1.0, A0, ld, R, m + 1, 0.0, W, n);
    double orth = tu_norm(t, W, n, nrhs, n) /
                  ((double)m * t->eps * tu_norm(t, A0, m, n, ld) * tu_norm(t, B0, m, nrhs, m + 1));
    if (!(orth < TL_BOUND))
        fail_msg("||A^H r|| %g", orth);
    for (int64_t j = 0; j < ld; j++)
        for (int64_t i = 0; i < ld; i++)
            if (!(i >= ai && i < ai + m && j >= aj && j < aj + n))
                assert_true(memcmp(&P[i + j * ld], &Pref[i + j * ld], sizeof *P) == 0);
    tu_release(t, P, ld, ld);
    tu_release(t, B, m + 1, nrhs);
    free(Pref);
    free(B0);
    free(R);
    free(W);
    tu_release(t, tau, n, 1);
}

static void quick_returns_submit_nothing_and_gels_with_no_unknowns_sets_x_to_zero(void **state)
{
    (void)state;
    double A[4] = { NAN, NAN, NAN, NAN }, tau[2] = { NAN, NAN }, B[6] = { 1, 2, 3, 4, 5, 6 };
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dgeqrf_async(0, 3, A, 1, tau), 0);
    assert_int_equal(tess_dgeqrf_async(3, 0, NULL, 3, NULL), 0);
    assert_int_equal(tess_dormqr_async(TessLeft, TessNoTrans, 2, 3, 0, A, 2, tau, B, 2), 0);
    int64_t info = 7;
    assert_int_equal(tess_dgels_async(TessNoTrans, 2, 2, 0, A, 2, B, 2, &info), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(info, 0);
    assert_true(tu_tasks_run() == before);
    assert_true(isnan(A[0]) && isnan(tau[0]) && B[0] == 1);
    /* no unknowns: X = 0 over max(m, n) rows, as LAPACK's */
    info = 7;
    assert_int_equal(tess_dgels_async(TessNoTrans, 3, 0, 2, A, 3, B, 3, &info), 0);
    tl_sync_matrix(&tu_types[1], B, 3, 2, 3);
    assert_int_equal(info, 0);
    for (int i = 0; i < 6; i++)
        assert_true(B[i] == 0);
    assert_int_equal(tess_memory_invalidate(3, 2, B, 3, sizeof *B), 0);
}

static void qr_routines_reject_invalid_arguments_with_their_lapack_numbers(void **state)
{
    (void)state;
    double A[9] = { 4, 1, 1, 1, 4, 1, 1, 1, 4 }, tau[3] = { 0 }, B[9] = { 1 }, A0[9], B0[9];
    memcpy(A0, A, sizeof A);
    memcpy(B0, B, sizeof B);
    const tess_side_t L = TessLeft;
    const tess_trans_t N = TessNoTrans, T = TessTrans;
    int64_t info = 0;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dgeqrf_async(-1, 3, A, 3, tau), -1);
    assert_int_equal(tess_dgeqrf_async(3, -1, A, 3, tau), -2);
    assert_int_equal(tess_dgeqrf_async(3, 3, NULL, 3, tau), -3);
    assert_int_equal(tess_dgeqrf_async(3, 3, A, 2, tau), -4);
    assert_int_equal(tess_dgeqrf_async(3, 3, A, 3, NULL), -5);
    assert_int_equal(tess_dormqr_async(7, N, 3, 3, 3, A, 3, tau, B, 3), -1);
    assert_int_equal(tess_dormqr_async(L, TessConjTrans, 3, 3, 3, A, 3, tau, B, 3), -2);
    assert_int_equal(
        tess_zunmqr_async(L, TessTrans, 3, 3, 3, (void *)A, 3, (void *)tau, (void *)B, 3), -2);
    assert_int_equal(tess_dormqr_async(L, N, -1, 3, 0, A, 3, tau, B, 3), -3);
    assert_int_equal(tess_dormqr_async(L, N, 3, -1, 3, A, 3, tau, B, 3), -4);
    assert_int_equal(tess_dormqr_async(L, N, 3, 3, 4, A, 3, tau, B, 3), -5);
    assert_int_equal(tess_dormqr_async(TessRight, N, 3, 2, 3, A, 3, tau, B, 3), -5);
    assert_int_equal(tess_dormqr_async(L, N, 3, 3, -1, A, 3, tau, B, 3), -5);
    assert_int_equal(tess_dormqr_async(L, N, 3, 3, 3, NULL, 3, tau, B, 3), -6);
    assert_int_equal(tess_dormqr_async(L, N, 3, 3, 3, A, 2, tau, B, 3), -7);
    assert_int_equal(tess_dormqr_async(TessRight, N, 2, 3, 3, A, 2, tau, B, 2), -7);
    assert_int_equal(tess_dormqr_async(L, N, 3, 3, 3, A, 3, NULL, B, 3), -8);
    assert_int_equal(tess_dormqr_async(L, N, 3, 3, 3, A, 3, tau, NULL, 3), -9);
    assert_int_equal(tess_dormqr_async(L, N, 3, 3, 3, A, 3, tau, B, 2), -10);
    assert_int_equal(tess_dgels_async(TessConjTrans, 3, 3, 1, A, 3, B, 3, &info), -1);
    assert_int_equal(tess_cgels_async(TessTrans, 3, 3, 1, (void *)A, 3, (void *)B, 3, &info), -1);
    assert_int_equal(tess_dgels_async(T, -1, 3, 1, A, 3, B, 3, &info), -2);
    assert_int_equal(tess_dgels_async(T, 3, -1, 1, A, 3, B, 3, &info), -3);
    assert_int_equal(tess_dgels_async(T, 3, 3, -1, A, 3, B, 3, &info), -4);
    assert_int_equal(tess_dgels_async(T, 3, 3, 1, NULL, 3, B, 3, &info), -5);
    assert_int_equal(tess_dgels_async(T, 3, 3, 1, A, 2, B, 3, &info), -6);
    assert_int_equal(tess_dgels_async(T, 3, 3, 1, A, 3, NULL, 3, &info), -7);
    /* ldb covers max(m, n) rows */
    assert_int_equal(tess_dgels_async(N, 2, 3, 1, A, 2, B, 2, &info), -8);
    assert_int_equal(tess_dgels_async(N, 3, 3, 1, A, 3, B, 3, NULL), -9);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() == before);
    assert_true(!memcmp(A, A0, sizeof A) && !memcmp(B, B0, sizeof B));
}

/* A panel is the matrix's whole height, and the device libraries take a tile's rows as an
 * int: a matrix of 2^31 + 5 rows is TESS_ENOMEM before anything is read or submitted (the
 * pointers name a few elements; a read past them would fault). */
static void qr_of_more_rows_than_an_int_holds_is_enomem_and_touches_nothing(void **state)
{
    (void)state;
    const int64_t m = ((int64_t)1 << 31) + 5;
    double A[4] = { 1, 2, 3, 4 }, tau[2] = { 0 }, B[2] = { 5, 6 };
    int64_t info = -1;
    uint64_t before = tu_tasks_run();
    assert_int_equal(tess_dgeqrf_async(m, 2, A, m, tau), TESS_ENOMEM);
    assert_int_equal(tess_dormqr_async(TessLeft, TessTrans, m, 1, 2, A, m, tau, B, m), TESS_ENOMEM);
    assert_int_equal(tess_dgels_async(TessNoTrans, m, 2, 1, A, m, B, m, &info), TESS_ENOMEM);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_tasks_run() == before);
    assert_true(A[0] == 1 && A[3] == 4 && B[0] == 5 && B[1] == 6 && tau[0] == 0);
}

#define TILE_BYTES ((size_t)NB * NB * sizeof(double _Complex))

/* Each panel is written back once factored: after the sync alone the host holds the
 * factor (check_factor's bounds), and a coherent request then copies nothing. */
static void geqrf_writes_its_factor_back_behind_its_steps(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t m = 5 * NB + 3, n = 3 * NB + 5;
    void *A = tu_matrix(t, m, n, 91), *A0 = tu_copy(t, A, m, n), *tau = tu_alloc(t, n, 1);
    assert_int_equal(tl_geqrf_async(t, m, n, A, m, tau), 0);
    assert_int_equal(tess_sync(), 0);
    check_factor(t, m, n, A0, A, m, tau, "geqrf behind its steps");
    assert_int_equal(tl_coherent_bytes(t, A, m, n, m), 0);
    tu_release(t, A, m, n);
    tu_release(t, tau, n, 1);
    free(A0);
}

/* Panels of 4 tiles each, 16 tiles of memory per device against A's 8 panels and B's 2: panels
 * are evicted and written back between their tasks, and the answers are still right. */
static void gels_with_device_memory_of_a_few_panels_completes_out_of_core(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 16 * TILE_BYTES), 0);
    gels_case(&tu_types[3], TessNoTrans, 4 * NB, 4 * NB, 2 * NB);
    factor_case(&tu_types[3], 4 * NB, 8 * NB);
    tess_stats_t st;
    assert_int_equal(tess_get_stats(&st), 0);
    assert_true(st.evictions > 0);
    assert_int_equal(tess_finalize(), 0);
}

/* The tile size the runtime picks (TESS_NB unset: the host's default ladder) at sizes of
 * several panels, GELS's scaling included. */
static void geqrf_and_gels_run_on_the_default_tile_size(void **state)
{
    (void)state;
    tess_config_t cfg = { .devices = "host:2" };
    const char *other = getenv("TESS_TEST_DEVICES");
    if (other && *other)
        cfg.devices = other;
    assert_int_equal(tess_init(&cfg), 0);
    factor_case(&tu_types[1], 700, 650);
    gels_case(&tu_types[1], TessNoTrans, 900, 500, 3);
    gels_case(&tu_types[1], TessNoTrans, 500, 900, 3);
    zero_case(&tu_types[2], TessNoTrans, 900, 500);
    scaled_case(&tu_types[1], TessNoTrans, 900, 500, 0x1p1023);
    scaled_case(&tu_types[3], TessNoTrans, 500, 900, 0x1p-1060);
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest on_host2[] = {
        cmocka_unit_test(geqrf_factors_square_tall_and_wide_matrices_in_every_precision),
        cmocka_unit_test(ormqr_applies_lapacks_reflectors_on_both_sides_never_reading_the_diagonal),
        cmocka_unit_test(gels_solves_least_squares_and_minimum_norm_problems_in_every_precision),
        cmocka_unit_test(gels_solves_wide_problems_as_lapacks_lq_path_in_every_precision),
        cmocka_unit_test(
            gels_reports_the_first_zero_on_rs_diagonal_at_the_first_column_and_deep_inside),
        cmocka_unit_test(gels_of_a_zero_matrix_gives_x_zero_and_info_zero_as_lapacks),
        cmocka_unit_test(gels_scales_a_and_b_near_overflow_or_underflow_as_lapacks),
        cmocka_unit_test(geqrf_ormqr_and_trsm_chained_on_views_solve_least_squares_with_no_sync),
        cmocka_unit_test(quick_returns_submit_nothing_and_gels_with_no_unknowns_sets_x_to_zero),
        cmocka_unit_test(qr_routines_reject_invalid_arguments_with_their_lapack_numbers),
        cmocka_unit_test(qr_of_more_rows_than_an_int_holds_is_enomem_and_touches_nothing),
        cmocka_unit_test(geqrf_writes_its_factor_back_behind_its_steps),
    };
    const struct CMUnitTest on_their_own[] = {
        cmocka_unit_test(gels_with_device_memory_of_a_few_panels_completes_out_of_core),
        cmocka_unit_test(geqrf_and_gels_run_on_the_default_tile_size),
    };
    return cmocka_run_group_tests_name("geqrf", on_host2, tu_group_setup, tu_group_teardown) +
           cmocka_run_group_tests_name("geqrf, own runtime", on_their_own, NULL, NULL);
}
