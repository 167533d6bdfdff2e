/* LAPACK's LU through the legacy library, as a Fortran program calls it: ?getrf_, ?getrs_,
 * ?gesv_, ?laswp_ and their _64_ twins, in every precision, below the threshold (the host
 * LAPACK serves them) and above it (the runtime does), against the host LAPACK's own
 * GETRF, GETRS and LASWP (OpenBLAS's code, which calls nothing of this library); INFO of
 * singular matrices, XERBLA's name and position for invalid arguments, LASWP's calls with
 * nothing to do.  meson runs this with TESS_THRESHOLD=1e6 on two host devices (N_SMALL
 * on the host, N_LARGE's GETRF and GESV through the runtime), and with TESS_THRESHOLD=0
 * and the tiles each call picks (TESS_NB unset) on two and three. */
#include "legacy_luqr.h"

/* ---- LU ---------------------------------------------------------------------- */

/* One LU call of ours on the integer width asked for; pivots come back 64 bits wide. */
static int64_t our_getrf(int ty, int wide, int64_t m, int64_t n, void *A, int64_t lda,
                         int64_t *ipiv)
{
    int64_t mn = m < n ? m : n, info;
    if (wide)
        return getrf64(ours(ty, "getrf", 1), m, n, A, lda, ipiv);
    int32_t *p = calloc((size_t)mn + 1, sizeof *p);
    info = getrf32(ours(ty, "getrf", 0), m, n, A, lda, p);
    for (int64_t i = 0; i < mn; i++)
        ipiv[i] = p[i];
    free(p);
    return info;
}

static int64_t our_getrs(int ty, int wide, char tr, int64_t n, int64_t nrhs, void *A, int64_t lda,
                         const int64_t *ipiv, void *B, int64_t ldb)
{
    if (wide)
        return getrs64(ours(ty, "getrs", 1), tr, n, nrhs, A, lda, (int64_t *)ipiv, B, ldb);
    int32_t *p = calloc((size_t)n + 1, sizeof *p);
    for (int64_t i = 0; i < n; i++)
        p[i] = (int32_t)ipiv[i];
    int64_t info = getrs32(ours(ty, "getrs", 0), tr, n, nrhs, A, lda, p, B, ldb);
    free(p);
    return info;
}

static int64_t our_gesv(int ty, int wide, int64_t n, int64_t nrhs, void *A, int64_t lda,
                        int64_t *ipiv, void *B, int64_t ldb)
{
    if (wide)
        return gesv64(ours(ty, "gesv", 1), n, nrhs, A, lda, ipiv, B, ldb);
    int32_t *p = calloc((size_t)n + 1, sizeof *p);
    int64_t info = gesv32(ours(ty, "gesv", 0), n, nrhs, A, lda, p, B, ldb);
    for (int64_t i = 0; i < n; i++)
        ipiv[i] = p[i];
    free(p);
    return info;
}

/* ||op(A) X - B||_F / (n eps ||A||_F ||X||_F) */
static double solve_residual(int ty, char op, const dc *a, int64_t m, int64_t n, int64_t lda,
                             const void *x, int64_t ldx, const dc *b, int64_t ldb, int64_t nrhs)
{
    int64_t rows = op == 'N' ? n : m;
    dc *xx = from_t(ty, x, ldx * nrhs);
    dc *r = residual(op, a, m, n, lda, xx, ldx, b, ldb, nrhs);
    double v =
        fnorm(r, op == 'N' ? m : n, nrhs, op == 'N' ? m : n) /
        ((double)(m > n ? m : n) * eps[ty] * fnorm(a, m, n, lda) * fnorm(xx, rows, nrhs, ldx));
    free(xx);
    free(r);
    return v;
}

static void lu_solves_and_pivots_match_the_host_lapack_in_every_precision_and_width(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 2; s++) {
                int64_t n = s ? N_LARGE : N_SMALL, lda = n + PAD, ldb = n + PAD;
                dc *a = mat(n, n, lda, 7u + (unsigned)n, ty), *b = mat(n, NRHS, ldb, 3, ty);
                void *A = to_t(ty, a, lda * n), *H = to_t(ty, a, lda * n);
                int64_t *ipiv = calloc((size_t)n, sizeof *ipiv);
                int32_t *hp = calloc((size_t)n, sizeof *hp);
                assert_int_equal(our_getrf(ty, wide, n, n, A, lda, ipiv), 0);
                assert_int_equal(getrf32(theirs(ty, "getrf"), n, n, H, lda, hp), 0);
                for (int64_t i = 0; i < n; i++)
                    assert_int_equal(ipiv[i], hp[i]);
                const char ops[] = { 'N', 'T', 'C' };
                for (int o = 0; o < 3; o++) {
                    void *B = to_t(ty, b, ldb * NRHS);
                    assert_int_equal(our_getrs(ty, wide, ops[o], n, NRHS, A, lda, ipiv, B, ldb), 0);
                    double r = solve_residual(ty, ops[o], a, n, n, lda, B, ldb, b, ldb, NRHS);
                    if (!(r <= BOUND))
                        fail_msg("%cgetrs%s %c n=%lld: residual %g", letter[ty], wide ? "_64_" : "",
                                 ops[o], (long long)n, r);
                    free(B);
                }
                void *G = to_t(ty, a, lda * n), *B = to_t(ty, b, ldb * NRHS);
                int64_t *gp = calloc((size_t)n, sizeof *gp);
                assert_int_equal(our_gesv(ty, wide, n, NRHS, G, lda, gp, B, ldb), 0);
                assert_memory_equal(gp, ipiv, (size_t)n * sizeof *gp);
                double r = solve_residual(ty, 'N', a, n, n, lda, B, ldb, b, ldb, NRHS);
                if (!(r <= BOUND))
                    fail_msg("%cgesv n=%lld: residual %g", letter[ty], (long long)n, r);
                free(a), free(b), free(A), free(H), free(G), free(B), free(ipiv), free(hp),
                    free(gp);
            }
}

/* GETRF finishes the factorization and reports the first zero pivot; GESV leaves B as it was. */
static void a_singular_matrix_gives_info_at_its_first_zero_column_and_gesv_leaves_b(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 2; s++) {
                int64_t n = s ? N_LARGE : N_SMALL, lda = n + PAD, col = s ? 200 : 5;
                dc *a = mat(n, n, lda, 11, ty), *b = mat(n, NRHS, lda, 5, ty);
                for (int64_t i = 0; i < n; i++)
                    a[i + (col - 1) * lda] = 0;
                void *A = to_t(ty, a, lda * n), *B = to_t(ty, b, lda * NRHS);
                void *B0 = to_t(ty, b, lda * NRHS);
                int64_t *ipiv = calloc((size_t)n, sizeof *ipiv);
                assert_int_equal(our_getrf(ty, wide, n, n, A, lda, ipiv), col);
                free(A);
                A = to_t(ty, a, lda * n);
                assert_int_equal(our_gesv(ty, wide, n, NRHS, A, lda, ipiv, B, lda), col);
                assert_memory_equal(B, B0, (size_t)(lda * NRHS) * elsize[ty]);
                free(a), free(b), free(A), free(B), free(B0), free(ipiv);
            }
}

/* GESV with no right-hand side factors A all the same, as the reference's (GETRF, then a
 * GETRS with nothing to do), on either side of the threshold: INFO, A and the pivots are
 * those of this library's GETRF of the same singular matrix. */
static void gesv_with_no_right_hand_side_still_factors_a(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 2; s++) {
                int64_t n = s ? N_LARGE : N_SMALL, lda = n + PAD, col = s ? 200 : 5;
                dc *a = mat(n, n, lda, 13, ty);
                for (int64_t i = 0; i < n; i++)
                    a[i + (col - 1) * lda] = 0;
                void *A = to_t(ty, a, lda * n), *F = to_t(ty, a, lda * n);
                int64_t *ipiv = calloc((size_t)n, sizeof *ipiv), *fpiv = calloc((size_t)n, 8);
                double b = 0;
                assert_int_equal(our_getrf(ty, wide, n, n, F, lda, fpiv), col);
                assert_int_equal(our_gesv(ty, wide, n, 0, A, lda, ipiv, &b, lda), col);
                assert_memory_equal(A, F, (size_t)(lda * n) * elsize[ty]);
                assert_memory_equal(ipiv, fpiv, (size_t)n * sizeof *ipiv);
                free(a), free(A), free(F), free(ipiv), free(fpiv);
            }
}

/* Pivots are the caller's memory: new ones at the same address (a factorization made
 * elsewhere, here the host LAPACK's) are the ones the next call reads. */
static void getrs_reads_the_pivots_the_caller_holds_now(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++) {
            int64_t n = N_SMALL + 20, lda = n, ldb = n;
            dc *a1 = mat(n, n, lda, 53, ty), *a2 = mat(n, n, lda, 59, ty);
            dc *b = mat(n, NRHS, ldb, 61, ty);
            void *A = to_t(ty, a1, lda * n), *B = to_t(ty, b, ldb * NRHS);
            int64_t *ipiv = calloc((size_t)n, sizeof *ipiv);
            int32_t *hp = calloc((size_t)n, sizeof *hp);
            assert_int_equal(our_getrf(ty, wide, n, n, A, lda, ipiv), 0);
            assert_int_equal(our_getrs(ty, wide, 'N', n, NRHS, A, lda, ipiv, B, ldb), 0);
            free(A), free(B);
            A = to_t(ty, a2, lda * n);
            B = to_t(ty, b, ldb * NRHS);
            assert_int_equal(getrf32(theirs(ty, "getrf"), n, n, A, lda, hp), 0);
            for (int64_t i = 0; i < n; i++)
                ipiv[i] = hp[i];
            assert_int_equal(our_getrs(ty, wide, 'N', n, NRHS, A, lda, ipiv, B, ldb), 0);
            double r = solve_residual(ty, 'N', a2, n, n, lda, B, ldb, b, ldb, NRHS);
            if (!(r <= BOUND))
                fail_msg("%cgetrs with new pivots: residual %g", letter[ty], r);
            free(a1), free(a2), free(b), free(A), free(B), free(ipiv), free(hp);
        }
}

/* LASWP forward, backward and with a stride, as the host's (the same rows moved: exact). */
static void laswp_moves_the_rows_the_host_lapack_moves(void **state)
{
    (void)state;
    int64_t m = 40, n = 7, lda = m + PAD;
    const int64_t inc[] = { 1, -1, 2, -2 };
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int i = 0; i < 4; i++) {
                int64_t k1 = 3, k2 = 17, cnt = k1 + (k2 - k1) * 2;
                dc *a = mat(m, n, lda, 13, ty);
                void *A = to_t(ty, a, lda * n), *H = to_t(ty, a, lda * n);
                int32_t p32[64];
                int64_t p64[64];
                srand(17);
                for (int64_t j = 0; j < cnt; j++)
                    p64[j] = p32[j] = 1 + rand() % (int)m;
                if (wide)
                    laswp64(ours(ty, "laswp", 1), n, A, lda, k1, k2, p64, inc[i]);
                else
                    laswp32(ours(ty, "laswp", 0), n, A, lda, k1, k2, p32, inc[i]);
                laswp32(theirs(ty, "laswp"), n, H, lda, k1, k2, p32, inc[i]);
                assert_memory_equal(A, H, (size_t)(lda * n) * elsize[ty]);
                free(a), free(A), free(H);
            }
}

/* What LAPACK's LASWP would answer by reaching outside A (a row past lda, lda < 1, k1 < 1,
 * no A) is refused through XERBLA at that argument, and A is left as it is. */
static void laswp_that_would_reach_outside_a_is_refused_through_xerbla(void **state)
{
    (void)state;
    int64_t m = 8, n = 3;
    dc *a = mat(m, n, m, 53, 1);
    void *A = to_t(1, a, m * n), *A0 = to_t(1, a, m * n);
    int32_t p[9] = { 2, 3, 4, 5, 6, 7, 8, 1, 9 };
    int64_t p64[9] = { 2, 3, 4, 5, 6, 7, 8, 1, 9 };
    const struct {
        void *A;
        int64_t lda, k1, k2, pos;
    } bad[] = { { A, m, 1, m + 1, 5 }, { A, 0, 1, 1, 3 }, { A, m, 0, 2, 4 }, { NULL, m, 1, 2, 2 } };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        for (int wide = 0; wide < 2; wide++) {
            xcalls = 0;
            if (wide)
                laswp64(ours(1, "laswp", 1), n, bad[i].A, bad[i].lda, bad[i].k1, bad[i].k2, p64, 1);
            else
                laswp32(ours(1, "laswp", 0), n, bad[i].A, bad[i].lda, bad[i].k1, bad[i].k2, p, 1);
            assert_int_equal(xcalls, 1);
            assert_int_equal(xinfo, bad[i].pos);
        }
    assert_memory_equal(A, A0, (size_t)(m * n) * sizeof(double));
    free(a), free(A), free(A0);
}

/* LASWP checks nothing, as LAPACK's: k2 < k1 and incx = 0 leave A as it is. */
static void laswp_with_nothing_to_do_changes_nothing(void **state)
{
    (void)state;
    int64_t m = 8, n = 3;
    dc *a = mat(m, n, m, 47, 1);
    void *A = to_t(1, a, m * n), *A0 = to_t(1, a, m * n);
    int32_t p[8] = { 2, 3, 4, 5, 6, 7, 8, 1 };
    xcalls = 0;
    laswp32(ours(1, "laswp", 0), n, A, m, 5, 2, p, 1);
    laswp32(ours(1, "laswp", 0), n, A, m, 1, 4, p, 0);
    laswp32(ours(1, "laswp", 0), 0, A, m, 1, 4, p, 1);
    assert_memory_equal(A, A0, (size_t)(m * n) * sizeof(double));
    assert_int_equal(xcalls, 0);
    free(a), free(A), free(A0);
}

static void lu_invalid_arguments_reach_xerbla_with_lapacks_name_and_position(void **state)
{
    (void)state;
    const bad_t bad[] = {
        { "GETRF", 1, 0, 0, -1, 4, 0, 4, 0 },   { "GETRF", 2, 0, 0, 4, -1, 0, 4, 0 },
        { "GETRF", 4, 0, 0, 4, 4, 0, 3, 0 },    { "GETRS", 1, 'X', 0, 4, 4, 2, 4, 4 },
        { "GETRS", 2, 'N', 0, 4, -1, 2, 4, 4 }, { "GETRS", 3, 'N', 0, 4, 4, -1, 4, 4 },
        { "GETRS", 5, 'N', 0, 4, 4, 2, 3, 4 },  { "GETRS", 8, 'N', 0, 4, 4, 2, 4, 3 },
        { "GESV ", 1, 0, 0, 4, -1, 2, 4, 4 },   { "GESV ", 2, 0, 0, 4, 4, -1, 4, 4 },
        { "GESV ", 4, 0, 0, 4, 4, 2, 3, 4 },    { "GESV ", 7, 0, 0, 4, 4, 2, 4, 3 },
    };
    run_bad_calls(bad, sizeof bad / sizeof *bad);
}

/* Run with a late task made to fail (TESS_FAULT): the runtime has written pivots back by
 * then, but nothing of A, so the call is redone on the host LAPACK and gives its answer bit
 * for bit, never INFO = 0 over an A left unfactored. */
static void a_getrf_whose_late_task_fails_is_redone_on_the_host(void **state)
{
    (void)state;
    const int64_t n = 64;
    dc *a = mat(n, n, n, 11, 1);
    double *A = to_t(1, a, n * n), *H = to_t(1, a, n * n);
    int32_t ipiv[64], hp[64];
    assert_int_equal(getrf32(ours(1, "getrf", 0), n, n, A, n, ipiv), 0);
    assert_int_equal(getrf32(theirs(1, "getrf"), n, n, H, n, hp), 0);
    assert_memory_equal(ipiv, hp, sizeof ipiv);
    assert_memory_equal(A, H, (size_t)(n * n) * sizeof *A);
    free(a), free(A), free(H);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest fault[] = {
        cmocka_unit_test(a_getrf_whose_late_task_fails_is_redone_on_the_host),
    };
    if (argc > 1 && !strcmp(argv[1], "fault"))
        return cmocka_run_group_tests(fault, host_open, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lu_solves_and_pivots_match_the_host_lapack_in_every_precision_and_width),
        cmocka_unit_test(a_singular_matrix_gives_info_at_its_first_zero_column_and_gesv_leaves_b),
        cmocka_unit_test(gesv_with_no_right_hand_side_still_factors_a),
        cmocka_unit_test(getrs_reads_the_pivots_the_caller_holds_now),
        cmocka_unit_test(laswp_moves_the_rows_the_host_lapack_moves),
        cmocka_unit_test(laswp_with_nothing_to_do_changes_nothing),
        cmocka_unit_test(laswp_that_would_reach_outside_a_is_refused_through_xerbla),
        cmocka_unit_test(lu_invalid_arguments_reach_xerbla_with_lapacks_name_and_position),
    };
    return cmocka_run_group_tests(tests, host_open, NULL);
}
