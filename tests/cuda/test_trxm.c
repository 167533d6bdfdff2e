/* Recursive TRSM and TRMM on one GPU against the host BLAS (OpenBLAS).
 *
 * Bounds (eps: machine epsilon of the precision, norms Frobenius, ||A|| over
 * the referenced triangle with a unit diagonal counted as ones):
 *   TRSM: ||op(A) X - alpha B|| / (||A|| ||X|| max(m,n) eps) < 10
 *   TRMM: ||Y - Yref|| / (|alpha| ||A|| ||B|| max(m,n) eps) < 10, Yref from OpenBLAS
 * Every case also checks that the rows of B between m and ldb were not
 * written.  The device copy of A carries NaN in the triangle that must not be
 * read (and on the diagonal when it is unit), so reading it shows as NaN. */
#include "tu_cuda.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TRXM_BOUND 10.0
#define PAD_SENTINEL 99.0

static const tess_side_t sides[] = { TessLeft, TessRight };
static const tess_uplo_t uplos[] = { TessLower, TessUpper };
static const tess_diag_t diags[] = { TessNonUnit, TessUnit };

/* No-trans, trans, and conjugate-trans (which a real type treats as trans). */
static const tess_trans_t transes[] = { TessNoTrans, TessTrans, TessConjTrans };

/* A k x k matrix, both triangles usable: off-diagonal entries of size 1/k and
 * a diagonal near 2, so every triangle is well conditioned. */
static void *well_conditioned(const tu_type_t *t, int64_t k, int64_t lda)
{
    void *A = tu_random(t, k, k, lda, 0.0);
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < k; i++)
            tu_set(t, A, i, j, lda,
                   i == j ? 2.0 + 0.5 * tu_rand() : tu_get(t, A, i, j, lda) / (double)k);
    return A;
}

/* The copy of A the device gets: NaN wherever the routine must not look. */
static void *poisoned(const tu_type_t *t, const void *A, int64_t k, int64_t lda, tess_uplo_t uplo,
                      tess_diag_t diag)
{
    void *P = tu_copy(t, A, lda, k);
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < k; i++)
            if (!tu_in_triangle(uplo, i, j) || (i == j && diag == TessUnit))
                tu_set(t, P, i, j, lda, NAN);
    return P;
}

static double triangle_norm(const tu_type_t *t, const void *A, int64_t k, int64_t lda,
                            tess_uplo_t uplo, tess_diag_t diag)
{
    double s = 0;
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < k; i++)
            if (tu_in_triangle(uplo, i, j)) {
                const double a = (i == j && diag == TessUnit) ? 1.0 : cabs(tu_get(t, A, i, j, lda));
                s += a * a;
            }
    return sqrt(s);
}

static const char *case_name(tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                             tess_diag_t diag)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "side=%c uplo=%c trans=%c diag=%c", side == TessLeft ? 'L' : 'R',
             uplo == TessLower ? 'L' : 'U',
             trans == TessNoTrans ? 'N'
             : trans == TessTrans ? 'T'
                                  : 'C',
             diag == TessUnit ? 'U' : 'N');
    return buf;
}

/* One device TRSM (solve) or TRMM on the clean k x k matrix A; returns the
 * residual ratio of the header, or fails at once if B's padding changed. */
static double check_trxm(const tu_type_t *t, cudaStream_t s, bool solve, tess_side_t side,
                         tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int64_t m,
                         int64_t n, double _Complex alpha, const void *A, int64_t lda)
{
    const int64_t k = side == TessLeft ? m : n, ldb = m + 2;
    if (!t->is_complex)
        alpha = creal(alpha);
    void *B0 = tu_random(t, m, n, ldb, PAD_SENTINEL);
    void *P = poisoned(t, A, k, lda, uplo, diag);
    void *dA = tu_to_device(t, P, lda, k);
    void *dB = tu_to_device(t, B0, ldb, n);

    int rc = solve ? tu_cuda_trsm(t, s, side, uplo, trans, diag, m, n, alpha, dA, lda, dB, ldb)
                   : tu_cuda_trmm(t, s, side, uplo, trans, diag, m, n, alpha, dA, lda, dB, ldb);
    assert_int_equal(rc, 0);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    void *X = tu_to_host(t, dB, ldb, n);
    assert_true(tu_pad_intact(t, X, m, n, ldb, PAD_SENTINEL));

    unsigned char one[16], a_t[16];
    tu_scalar(t, 1.0, one);
    tu_scalar(t, alpha, a_t);
    const double normA = triangle_norm(t, A, k, lda, uplo, diag);
    const double scale = (double)(m > n ? m : n) * t->eps;
    double ratio;
    if (solve) {
        /* R = op(A) X - alpha B0 */
        void *R = tu_copy(t, X, ldb, n);
        kern_host_table[tu_kern(t)].trmm(NULL, side, uplo, trans, diag, m, n, one, A, lda, R, ldb);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                tu_set(t, B0, i, j, ldb, alpha * tu_get(t, B0, i, j, ldb));
        ratio = tu_diff(t, R, B0, m, n, ldb) / (normA * tu_norm(t, X, m, n, ldb) * scale);
        free(R);
    } else {
        const double normB = tu_norm(t, B0, m, n, ldb);
        kern_host_table[tu_kern(t)].trmm(NULL, side, uplo, trans, diag, m, n, a_t, A, lda, B0, ldb);
        ratio = tu_diff(t, X, B0, m, n, ldb) / (cabs(alpha) * normA * normB * scale);
    }
    if (!(ratio < TRXM_BOUND))
        print_error("%strsm/trmm(%s) %s m=%lld n=%lld: residual ratio %g\n", t->name,
                    solve ? "solve" : "multiply", case_name(side, uplo, trans, diag), (long long)m,
                    (long long)n, ratio);
    tu_free_device(dA);
    tu_free_device(dB);
    free(B0);
    free(P);
    free(X);
    return ratio;
}

/* Every side/uplo/trans/diag at sizes around the leaf (32 and 64) and one
 * multi-level size, none of them all multiples of the leaf. */
static void all_cases_small(void **state, bool solve)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    static const int64_t mn[][2] = { { 1, 1 },    { 31, 33 },  { 32, 32 },
                                     { 33, 100 }, { 100, 31 }, { 65, 7 } };
    cudaStream_t s;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    tu_seed(1);
    for (size_t c = 0; c < sizeof mn / sizeof mn[0]; c++) {
        const int64_t m = mn[c][0], n = mn[c][1];
        for (int si = 0; si < 2; si++) {
            const int64_t k = sides[si] == TessLeft ? m : n, lda = k + 3;
            void *A = well_conditioned(t, k, lda);
            for (int ui = 0; ui < 2; ui++)
                for (int ti = 0; ti < 3; ti++)
                    for (int di = 0; di < 2; di++)
                        assert_true(check_trxm(t, s, solve, sides[si], uplos[ui], transes[ti],
                                               diags[di], m, n, 1.5 - 0.5 * I, A,
                                               lda) < TRXM_BOUND);
            free(A);
        }
    }
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

/* Triangular dimension 1000 (several recursion levels, leaves of 64 and a
 * remainder) in all 8 cases, and 4097 = 4096 + 1 in two of them. */
static void all_cases_large(void **state, bool solve)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    cudaStream_t s;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    tu_seed(2);
    void *A = well_conditioned(t, 1000, 1000);
    for (int si = 0; si < 2; si++)
        for (int ui = 0; ui < 2; ui++)
            for (int ti = 0; ti < 3; ti++) {
                const int64_t m = sides[si] == TessLeft ? 1000 : 100;
                const int64_t n = sides[si] == TessLeft ? 100 : 1000;
                assert_true(check_trxm(t, s, solve, sides[si], uplos[ui], transes[ti], TessNonUnit,
                                       m, n, 0.75 + 0.25 * I, A, 1000) < TRXM_BOUND);
            }
    free(A);
    A = well_conditioned(t, 4097, 4097);
    assert_true(check_trxm(t, s, solve, TessLeft, TessLower, TessNoTrans, TessNonUnit, 4097, 33,
                           -1.25, A, 4097) < TRXM_BOUND);
    assert_true(check_trxm(t, s, solve, TessRight, TessUpper, TessConjTrans, TessUnit, 31, 4097,
                           0.5 + 2.0 * I, A, 4097) < TRXM_BOUND);
    free(A);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

/* k = 40 (one leaf tile) and 100 (two) with 9000 vectors in all 8 cases:
 * more vectors than the grid takes at once, so blocks loop over them, and
 * enough that a solve uses every warp (fewer use half of them) and that a
 * multiply in double takes the tensor-core leaf (64 vectors a block for
 * every multiprocessor; H100 and H200 have 132). */
static void many_vectors(void **state, bool solve)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    static const int64_t ks[] = { 40, 100 };
    cudaStream_t s;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    tu_seed(4);
    void *A = well_conditioned(t, 100, 100);
    for (size_t c = 0; c < sizeof ks / sizeof ks[0]; c++)
        for (int si = 0; si < 2; si++)
            for (int ui = 0; ui < 2; ui++)
                for (int ti = 0; ti < 3; ti++) {
                    const int64_t k = ks[c];
                    const bool left = sides[si] == TessLeft;
                    assert_true(check_trxm(t, s, solve, sides[si], uplos[ui], transes[ti],
                                           ti == 1 ? TessUnit : TessNonUnit, left ? k : 9000,
                                           left ? 9000 : k, 1.5 - 0.5 * I, A, 100) < TRXM_BOUND);
                }
    free(A);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

static void trsm_all_cases_small_sizes(void **state)
{
    all_cases_small(state, true);
}
static void trmm_all_cases_small_sizes(void **state)
{
    all_cases_small(state, false);
}
static void trsm_large_sizes(void **state)
{
    all_cases_large(state, true);
}
static void trmm_large_sizes(void **state)
{
    all_cases_large(state, false);
}
static void trsm_many_vectors(void **state)
{
    many_vectors(state, true);
}
static void trmm_many_vectors(void **state)
{
    many_vectors(state, false);
}

/* alpha = 0 sets B to zero without reading it: NaNs in B do not survive, and
 * the padding rows stay as they were. */
static void alpha_zero(void **state, bool solve)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    const int64_t m = 70, n = 45, ldb = 73;
    void *A = well_conditioned(t, m, m);
    void *B = tu_random(t, m, n, ldb, PAD_SENTINEL);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            tu_set(t, B, i, j, ldb, NAN);
    void *dA = tu_to_device(t, A, m, m);
    void *dB = tu_to_device(t, B, ldb, n);
    int rc = solve ? tu_cuda_trsm(t, 0, TessLeft, TessLower, TessNoTrans, TessNonUnit, m, n, 0.0,
                                  dA, m, dB, ldb)
                   : tu_cuda_trmm(t, 0, TessLeft, TessLower, TessNoTrans, TessNonUnit, m, n, 0.0,
                                  dA, m, dB, ldb);
    assert_int_equal(rc, 0);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    void *X = tu_to_host(t, dB, ldb, n);
    assert_true(tu_norm(t, X, m, n, ldb) == 0.0);
    assert_true(tu_pad_intact(t, X, m, n, ldb, PAD_SENTINEL));
    tu_free_device(dA);
    tu_free_device(dB);
    free(A);
    free(B);
    free(X);
}

static void trsm_alpha_zero_zeroes_B_without_reading_it(void **state)
{
    alpha_zero(state, true);
}
static void trmm_alpha_zero_zeroes_B_without_reading_it(void **state)
{
    alpha_zero(state, false);
}

int main(void)
{
    if (!tu_have_gpu())
        return 77; /* meson's code for a skipped test */
    if (tu_cuda_start())
        return 1;
    const struct CMUnitTest tests[] = {
        TU_PER_TYPE(trsm_all_cases_small_sizes,
                    "trsm: 8 side/uplo/trans cases x unit/non-unit, m,n in {1,31,32,33,65,100}: "
                    "residual < 10"),
        TU_PER_TYPE(trmm_all_cases_small_sizes,
                    "trmm: 8 side/uplo/trans cases x unit/non-unit, m,n in {1,31,32,33,65,100}: "
                    "error < 10"),
        TU_PER_TYPE(trsm_large_sizes, "trsm: 8 cases at k=1000, two at k=4097: residual < 10"),
        TU_PER_TYPE(trmm_large_sizes, "trmm: 8 cases at k=1000, two at k=4097: error < 10"),
        TU_PER_TYPE(trsm_many_vectors, "trsm: k=40, 100 with 9000 vectors, 8 cases: residual < 10"),
        TU_PER_TYPE(trmm_many_vectors, "trmm: k=40, 100 with 9000 vectors, 8 cases: error < 10"),
        TU_PER_TYPE(trsm_alpha_zero_zeroes_B_without_reading_it,
                    "trsm: alpha=0 zeroes NaN-filled B"),
        TU_PER_TYPE(trmm_alpha_zero_zeroes_B_without_reading_it,
                    "trmm: alpha=0 zeroes NaN-filled B"),
    };
    return cmocka_run_group_tests_name("cuda trsm/trmm", tests, NULL, NULL);
}
