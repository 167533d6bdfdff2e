/* GEMV and SYMV/HEMV on one GPU against the host BLAS (OpenBLAS).
 *
 * Bound (eps: machine epsilon of the precision, Frobenius/2-norms, ||A|| of
 * the whole symmetric/Hermitian matrix for SYMV/HEMV):
 *   ||y - yref|| / ((|alpha| ||A|| ||x|| + |beta| ||y0||) max(m,n) eps) < 10
 * Every case also checks that the elements of y's array between its strided
 * entries were not written.  beta = 0 cases fill y with NaN first (it must not
 * be read); SYMV/HEMV cases put NaN in the triangle that must not be read and
 * HEMV cases in the imaginary parts of the diagonal. */
#include "tu_cuda.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BLAS2_BOUND 10.0

typedef struct {
    int64_t incx, incy;
} incs_t;
static const incs_t incs[] = { { 1, 1 }, { -2, 3 }, { 3, -1 } };

/* One device GEMV (sym = false) or SYMV/HEMV on A, against the host BLAS on
 * Aref (the same matrix, with no poison); returns the residual ratio. */
static double check_blas2(const tu_type_t *t, bool sym, tess_trans_t trans, tess_uplo_t uplo,
                          int64_t m, int64_t n, const void *A, const void *Aref, int64_t lda,
                          int64_t a_offset, double normA, incs_t inc, double _Complex alpha,
                          double _Complex beta)
{
    if (!t->is_complex) {
        alpha = creal(alpha);
        beta = creal(beta);
    }
    const bool notrans = sym || trans == TessNoTrans;
    const int64_t lenx = notrans ? n : m, leny = notrans ? m : n;
    const int64_t spanx = tu_vec_span(lenx, inc.incx), spany = tu_vec_span(leny, inc.incy);
    void *x = tu_vec_random(t, lenx, inc.incx, 0.0);
    void *y0 = tu_vec_random(t, leny, inc.incy, beta == 0.0 ? NAN : 0.0);
    void *dAbuf = tu_to_device(t, A, lda, n + (a_offset > 0));
    const void *dA = (const char *)dAbuf + a_offset * t->es;
    void *dx = tu_to_device(t, x, spanx, 1);
    void *dy = tu_to_device(t, y0, spany, 1);

    const int rc =
        sym ? tu_cuda_symv(t, 0, uplo, n, alpha, dA, lda, dx, inc.incx, beta, dy, inc.incy)
            : tu_cuda_gemv(t, 0, trans, m, n, alpha, dA, lda, dx, inc.incx, beta, dy, inc.incy);
    assert_int_equal(rc, 0);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    void *y = tu_to_host(t, dy, spany, 1);
    assert_true(tu_vec_gaps_intact(t, y, leny, inc.incy));

    /* y0's NaN entries (beta = 0) are not part of the problem: zeros for the
     * reference and the norm */
    void *yref = tu_vec_nan_to_zero(t, y0, leny, inc.incy);
    const double normy0 = tu_vec_norm(t, yref, leny, inc.incy);
    const void *Ar = (const char *)Aref + a_offset * t->es;
    if (sym)
        tu_symv_ref(t, uplo, n, alpha, Ar, lda, x, inc.incx, beta, yref, inc.incy);
    else
        tu_gemv_ref(t, trans, m, n, alpha, Ar, lda, x, inc.incx, beta, yref, inc.incy);
    const double denom =
        (cabs(alpha) * normA * tu_vec_norm(t, x, lenx, inc.incx) + cabs(beta) * normy0) *
        (double)(m > n ? m : n) * t->eps;
    const double ratio = tu_vec_diff(t, y, yref, leny, inc.incy) / denom;
    if (!(ratio < BLAS2_BOUND))
        print_error("%s%s trans=%d uplo=%d m=%lld n=%lld lda=%lld off=%lld inc=(%lld,%lld) "
                    "beta=%g: ratio %g\n",
                    t->name, sym ? "symv" : "gemv", trans, uplo, (long long)m, (long long)n,
                    (long long)lda, (long long)a_offset, (long long)inc.incx, (long long)inc.incy,
                    cabs(beta), ratio);
    tu_free_device(dAbuf);
    tu_free_device(dx);
    tu_free_device(dy);
    free(x);
    free(y0);
    free(y);
    free(yref);
    return ratio;
}

static void gemv_case(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n, int64_t lda,
                      int64_t off, incs_t inc, double _Complex beta)
{
    void *A = tu_random(t, lda, n + 1, lda, 0.0);
    const double normA = tu_norm(t, (char *)A + off * t->es, m, n, lda);
    assert_true(check_blas2(t, false, trans, TessLower, m, n, A, A, lda, off, normA, inc,
                            0.5 - 1.5 * I, beta) < BLAS2_BOUND);
    free(A);
}

/* N, T and C; sizes around the blocks (64, 256) and both shapes of 4097;
 * even (paired reads) and odd (single reads) ld; strided and negative
 * increments; beta = 0 over NaN and beta != 0. */
static void gemv_all_cases(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    static const int64_t mn[][2] = { { 1, 1 },       { 31, 33 },   { 32, 32 },
                                     { 33, 100 },    { 100, 31 },  { 257, 513 },
                                     { 1000, 1000 }, { 4097, 31 }, { 31, 4097 } };
    static const tess_trans_t tr[] = { TessNoTrans, TessTrans, TessConjTrans };
    tu_seed(3);
    for (size_t c = 0; c < sizeof mn / sizeof mn[0]; c++)
        for (int ti = 0; ti < 3; ti++)
            for (int odd = 0; odd < 2; odd++)
                for (size_t ii = 0; ii < sizeof incs / sizeof incs[0]; ii++) {
                    const int64_t m = mn[c][0], n = mn[c][1];
                    const int64_t lda = odd ? m + 1 + (m % 2 == 0) : m + (m % 2);
                    gemv_case(t, tr[ti], m, n, lda, 0, incs[ii], ii == 1 ? 0.0 : 0.25 + 0.5 * I);
                }
}

/* A sub-matrix view that starts one element into the allocation: the pointer
 * is not aligned for paired reads even though ld is even. */
static void gemv_misaligned_view(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    tu_seed(4);
    for (int ti = 0; ti < 3; ti++)
        gemv_case(t, (tess_trans_t)(TessNoTrans + ti), 300, 200, 302, 1, incs[0], 1.0);
}

/* A n x n random matrix whose stored triangle (uplo) is A and the other holds
 * NaN, and a clean copy with real diagonal for the host reference. */
static double symv_case(const tu_type_t *t, tess_uplo_t uplo, int64_t n, int64_t lda, incs_t inc,
                        double _Complex beta)
{
    void *Aref = tu_random(t, lda, n, lda, 0.0);
    void *A = tu_copy(t, Aref, lda, n);
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const bool stored = uplo == TessLower ? i >= j : i <= j;
            const double _Complex a = tu_get(t, Aref, i, j, lda);
            if (i == j) {
                tu_set(t, Aref, i, i, lda, creal(a));
                tu_set(t, A, i, i, lda, t->is_complex ? CMPLX(creal(a), NAN) : a);
                s += creal(a) * creal(a);
            } else if (stored) {
                s += 2 * cabs(a) * cabs(a);
            } else {
                tu_set(t, A, i, j, lda, NAN);
            }
        }
    const double ratio = check_blas2(t, true, TessNoTrans, uplo, n, n, A, Aref, lda, 0, sqrt(s),
                                     inc, 1.25 + 0.5 * I, beta);
    free(A);
    free(Aref);
    return ratio;
}

/* Lower and upper, n around the 64-tile and at several tiles with a partial
 * last one, even and odd ld, strided/negative increments; beta = 0 over NaN,
 * beta = 1 (y not scaled) and any other (y scaled inside the kernel). */
static void symv_all_cases(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    static const int64_t ns[] = { 1, 31, 32, 33, 100, 200, 1000 };
    static const tess_uplo_t ul[] = { TessLower, TessUpper };
    static const double _Complex betas[] = { -0.75 + 0.5 * I, 0.0, 1.0 };
    tu_seed(5);
    for (size_t c = 0; c < sizeof ns / sizeof ns[0]; c++)
        for (int ui = 0; ui < 2; ui++)
            for (int odd = 0; odd < 2; odd++)
                for (size_t ii = 0; ii < sizeof incs / sizeof incs[0]; ii++)
                    for (int bi = 0; bi < 3; bi++) {
                        const int64_t n = ns[c];
                        const int64_t lda = odd ? n + 1 + (n % 2 == 0) : n + (n % 2);
                        assert_true(symv_case(t, ul[ui], n, lda, incs[ii], betas[bi]) <
                                    BLAS2_BOUND);
                    }
}

/* alpha = 0: y = beta y exactly (beta = 0.5), with A and x all NaN (neither
 * may be read) and y strided. */
static void symv_alpha_zero_only_scales_y(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    const int64_t n = 100, incy = 2, spany = tu_vec_span(n, incy);
    tu_seed(7);
    void *A = tu_alloc(t, n, n), *x = tu_alloc(t, n, 1);
    for (int64_t j = 0; j < n; j++) {
        tu_set(t, x, j, 0, n, NAN);
        for (int64_t i = 0; i < n; i++)
            tu_set(t, A, i, j, n, NAN);
    }
    void *y0 = tu_vec_random(t, n, incy, 0.0);
    void *dA = tu_to_device(t, A, n, n), *dx = tu_to_device(t, x, n, 1);
    void *dy = tu_to_device(t, y0, spany, 1);
    for (int ui = 0; ui < 2; ui++)
        assert_int_equal(
            tu_cuda_symv(t, 0, ui ? TessUpper : TessLower, n, 0.0, dA, n, dx, 1, 0.5, dy, incy), 0);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    void *y = tu_to_host(t, dy, spany, 1);
    assert_true(tu_vec_gaps_intact(t, y, n, incy));
    for (int64_t i = 0; i < n; i++)
        assert_true(tu_get(t, y, i * incy, 0, spany) == 0.25 * tu_get(t, y0, i * incy, 0, spany));
    tu_free_device(dA);
    tu_free_device(dx);
    tu_free_device(dy);
    free(A);
    free(x);
    free(y0);
    free(y);
}

/* n = 4097: 65 tiles with a last one of a single row, pieces of several
 * tiles and columns per block; beta = 0.5 (y scaled inside the kernel), 0
 * over NaN and 1. */
static void symv_large(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    static const double betas[] = { 0.5, 0.0, 1.0 };
    tu_seed(6);
    for (int bi = 0; bi < 3; bi++) {
        assert_true(symv_case(t, TessLower, 4097, 4098, incs[0], betas[bi]) < BLAS2_BOUND);
        assert_true(symv_case(t, TessUpper, 4097, 4097, incs[1], betas[bi]) < BLAS2_BOUND);
    }
}

int main(void)
{
    if (!tu_have_gpu())
        return 77; /* meson's code for a skipped test */
    if (tu_cuda_start())
        return 1;
    const struct CMUnitTest tests[] = {
        TU_PER_TYPE(gemv_all_cases, "gemv: N/T/C, m,n in {1,31,32,33,100,257,513,1000,4097}, "
                                    "even/odd ld, incs (1,1),(-2,3),(3,-1), beta 0 over NaN: "
                                    "residual < 10"),
        TU_PER_TYPE(gemv_misaligned_view,
                    "gemv: view one element into A (unaligned): residual < 10"),
        TU_PER_TYPE(symv_all_cases, "symv/hemv: lower/upper, n in {1,31,32,33,100,200,1000}, "
                                    "even/odd ld, strided incs, beta 0 over NaN, 1 and other, "
                                    "other triangle NaN: residual < 10"),
        TU_PER_TYPE(symv_alpha_zero_only_scales_y, "symv/hemv: alpha=0 with A, x NaN: y = beta y "
                                                   "exactly"),
        TU_PER_TYPE(symv_large,
                    "symv/hemv: n=4097 lower and upper, beta 0.5, 0 and 1: residual < 10"),
    };
    return cmocka_run_group_tests_name("cuda gemv/symv", tests, NULL, NULL);
}
