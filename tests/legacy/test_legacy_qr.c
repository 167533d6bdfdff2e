/* LAPACK's QR through the legacy library, as a Fortran program calls it: ?geqrf_,
 * ?ormqr_/?unmqr_, ?gels_ and their _64_ twins, in every precision, below the threshold
 * (the host LAPACK serves them) and above it (the runtime does), against the host
 * LAPACK's (netlib's code in OpenBLAS, whose BLAS-3 calls reach this library by their
 * exported names, tested by the netlib testers on their own), and by residuals that need
 * no reference (GELS's orthogonality); INFO of rank-deficient matrices, XERBLA's name and
 * position for invalid arguments and a short workspace, workspace queries.  meson runs
 * this as it runs test_legacy_lu.c. */
#include "legacy_luqr.h"

/* ---- QR ---------------------------------------------------------------------- */

static int64_t work_value(int ty, const void *w)
{
    if (ty == 0 || ty == 2) {
        float f;
        memcpy(&f, w, sizeof f);
        return (int64_t)f;
    }
    double d;
    memcpy(&d, w, sizeof d);
    return (int64_t)d;
}

/* The host's answer to GEQRF's workspace query. */
static int64_t host_lwork_geqrf(int ty, int64_t m, int64_t n, int64_t lda)
{
    double w[2] = { 0 };
    geqrf32(theirs(ty, "geqrf"), m, n, NULL, lda, NULL, w, -1);
    return work_value(ty, w);
}

static int64_t our_geqrf(int ty, int wide, int64_t m, int64_t n, void *A, int64_t lda, void *tau)
{
    int64_t lw = n * 64 + 1;
    void *w = calloc((size_t)lw, elsize[ty]);
    int64_t info = wide ? geqrf64(ours(ty, "geqrf", 1), m, n, A, lda, tau, w, lw)
                        : geqrf32(ours(ty, "geqrf", 0), m, n, A, lda, tau, w, lw);
    free(w);
    return info;
}

/* GEQRF's A and tau as the host's, Q R = A with Q formed by the host's ORMQR from ours,
 * and ORMQR on either side as the host's on the same factors; tall and wide. */
static void qr_factors_and_products_match_the_host_lapack(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 3; s++) {
                int64_t n = s == 1 ? N_LARGE : N_SMALL, m = s == 2 ? n - 5 : n + 7;
                int64_t lda = m + PAD, mn = m < n ? m : n, lw = (m + n) * 64;
                dc *a = mat(m, n, lda, 19, ty);
                void *A = to_t(ty, a, lda * n), *H = to_t(ty, a, lda * n);
                void *tau = calloc((size_t)mn + 1, elsize[ty]),
                     *htau = calloc((size_t)mn + 1, elsize[ty]);
                void *w = calloc((size_t)lw, elsize[ty]);
                assert_int_equal(our_geqrf(ty, wide, m, n, A, lda, tau), 0);
                assert_int_equal(geqrf32(theirs(ty, "geqrf"), m, n, H, lda, htau, w, lw), 0);
                dc *x = from_t(ty, A, lda * n), *r = from_t(ty, H, lda * n);
                double e = rel(ty, x, r, m, n, lda);
                dc *xt = from_t(ty, tau, mn), *rt = from_t(ty, htau, mn);
                double et = rel(ty, xt, rt, 1, mn, 1);
                if (!(e <= BOUND && et <= BOUND))
                    fail_msg("%cgeqrf %lldx%lld: A %g, tau %g", letter[ty], (long long)m,
                             (long long)n, e, et);
                /* C = Q^H C and C Q with our ORMQR on our factors, against the host's */
                const char side[] = { 'L', 'R' }, tr[] = { ty < 2 ? 'T' : 'C', 'N' };
                for (int v = 0; v < 2; v++) {
                    int64_t cm = side[v] == 'L' ? m : NRHS, cn = side[v] == 'L' ? NRHS : m;
                    int64_t ldc = cm + PAD;
                    dc *c = mat(cm, cn, ldc, 23, ty);
                    void *C = to_t(ty, c, ldc * cn), *HC = to_t(ty, c, ldc * cn);
                    fn_t f = ours(ty, qname(ty), wide);
                    int64_t info =
                        wide ? ormqr64(f, side[v], tr[v], cm, cn, mn, A, lda, tau, C, ldc, w, lw)
                             : ormqr32(f, side[v], tr[v], cm, cn, mn, A, lda, tau, C, ldc, w, lw);
                    assert_int_equal(info, 0);
                    assert_int_equal(ormqr32(theirs(ty, qname(ty)), side[v], tr[v], cm, cn, mn, A,
                                             lda, tau, HC, ldc, w, lw),
                                     0);
                    dc *cx = from_t(ty, C, ldc * cn), *cr = from_t(ty, HC, ldc * cn);
                    double ec = rel(ty, cx, cr, cm, cn, ldc);
                    if (!(ec <= BOUND))
                        fail_msg("%c%s %c%c: %g", letter[ty], qname(ty), side[v], tr[v], ec);
                    free(c), free(C), free(HC), free(cx), free(cr);
                }
                free(a), free(A), free(H), free(tau), free(htau), free(w), free(x), free(r),
                    free(xt), free(rt);
            }
}

/* GELS: the least-squares residual orthogonal to op(A)'s columns (tall, both trans), and
 * the minimum-norm solution of a wide system solves it; X as the host's. */
static void gels_solves_least_squares_and_minimum_norm_problems(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 3; s++)
                for (int o = 0; o < 2; o++) {
                    int64_t n = s == 1 ? N_LARGE : N_SMALL, m = s == 2 ? n - 5 : n + 7;
                    int64_t lda = m + PAD, ldb = (m > n ? m : n) + PAD, lw = (m + n) * 64 + NRHS;
                    char op = o ? (ty < 2 ? 'T' : 'C') : 'N';
                    int64_t rows = o ? n : m, cols = o ? m : n; /* op(A) is rows x cols */
                    dc *a = mat(m, n, lda, 29, ty), *b = mat(rows, NRHS, ldb, 31, ty);
                    void *A = to_t(ty, a, lda * n), *B = to_t(ty, b, ldb * NRHS);
                    void *HA = to_t(ty, a, lda * n), *HB = to_t(ty, b, ldb * NRHS);
                    void *w = calloc((size_t)lw, elsize[ty]);
                    fn_t f = ours(ty, "gels", wide);
                    int64_t info = wide ? gels64(f, op, m, n, NRHS, A, lda, B, ldb, w, lw)
                                        : gels32(f, op, m, n, NRHS, A, lda, B, ldb, w, lw);
                    assert_int_equal(info, 0);
                    assert_int_equal(
                        gels32(theirs(ty, "gels"), op, m, n, NRHS, HA, lda, HB, ldb, w, lw), 0);
                    dc *x = from_t(ty, B, ldb * NRHS), *hx = from_t(ty, HB, ldb * NRHS);
                    double e = rel(ty, x, hx, cols, NRHS, ldb);
                    /* op(A)^H (op(A) X - B) = 0 */
                    dc *r = residual(op, a, m, n, lda, x, ldb, b, ldb, NRHS);
                    char back = op == 'N' ? 'C' : 'N';
                    dc *z = calloc((size_t)(cols * NRHS), sizeof *z);
                    dc *g = residual(back, a, m, n, lda, r, rows, z, cols, NRHS);
                    double an = fnorm(a, m, n, lda);
                    double orth = fnorm(g, cols, NRHS, cols) /
                                  ((double)m * eps[ty] * an *
                                   (an * fnorm(x, cols, NRHS, ldb) + fnorm(b, rows, NRHS, ldb)));
                    if (!(e <= 100 * BOUND && orth <= BOUND))
                        fail_msg("%cgels %c %lldx%lld: X %g, orthogonality %g", letter[ty], op,
                                 (long long)m, (long long)n, e, orth);
                    free(a), free(b), free(A), free(B), free(HA), free(HB), free(w), free(x),
                        free(hx), free(r), free(z), free(g);
                }
}

/* A zero column makes R singular: GELS reports it as LAPACK does. */
static void gels_of_a_rank_deficient_matrix_gives_info(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 2; s++) {
                int64_t n = s ? N_LARGE : N_SMALL, m = n + 7, lda = m, col = s ? 150 : 4;
                int64_t lw = (m + n) * 64 + NRHS;
                dc *a = mat(m, n, lda, 37, ty), *b = mat(m, NRHS, m, 41, ty);
                for (int64_t i = 0; i < m; i++)
                    a[i + (col - 1) * lda] = 0;
                void *A = to_t(ty, a, lda * n), *B = to_t(ty, b, m * NRHS);
                void *w = calloc((size_t)lw, elsize[ty]);
                fn_t f = ours(ty, "gels", wide);
                int64_t info = wide ? gels64(f, 'N', m, n, NRHS, A, lda, B, m, w, lw)
                                    : gels32(f, 'N', m, n, NRHS, A, lda, B, m, w, lw);
                assert_int_equal(info, col);
                free(a), free(b), free(A), free(B), free(w);
            }
}

/* A = 0 gives what the host LAPACK gives, X = 0 (B's max(m, n) rows zeroed) and INFO 0, on
 * either side of the threshold: N_SMALL on the host LAPACK, N_LARGE through the runtime. */
static void gels_of_a_zero_matrix_gives_x_zero_and_info_zero_at_every_size(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int s = 0; s < 2; s++)
            for (int wide_a = 0; wide_a < 2; wide_a++) {
                int64_t n = s ? N_LARGE : N_SMALL, m = wide_a ? n - 5 : n + 7, ldb = m + n;
                int64_t lw = (m + n) * 64 + NRHS;
                dc *a = calloc((size_t)(m * n), sizeof *a), *b = mat(ldb, NRHS, ldb, 43, ty);
                void *A = to_t(ty, a, m * n), *B = to_t(ty, b, ldb * NRHS);
                void *w = calloc((size_t)lw, elsize[ty]);
                dc *b0 = from_t(ty, B, ldb * NRHS); /* in the type's precision */
                char tr = wide_a ? (ty >= 2 ? 'C' : 'T') : 'N';
                assert_int_equal(gels32(ours(ty, "gels", 0), tr, m, n, NRHS, A, m, B, ldb, w, lw),
                                 0);
                dc *x = from_t(ty, B, ldb * NRHS);
                for (int64_t j = 0; j < NRHS; j++)
                    for (int64_t i = 0; i < ldb; i++)
                        assert_true(x[i + j * ldb] == (i < (m > n ? m : n) ? 0 : b0[i + j * ldb]));
                free(a), free(b), free(b0), free(A), free(B), free(w), free(x);
            }
}

/* lwork = -1: WORK(1) is the host LAPACK's answer, INFO 0, nothing else done; too small an
 * lwork is refused at LAPACK's position. */
static void workspace_queries_are_answered_and_a_short_workspace_refused(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++) {
            int64_t m = 50, n = 30, lda = m;
            double w[2] = { 0 }, h[2] = { 0 };
            xcalls = 0;
            assert_int_equal(wide ? geqrf64(ours(ty, "geqrf", 1), m, n, NULL, lda, NULL, w, -1)
                                  : geqrf32(ours(ty, "geqrf", 0), m, n, NULL, lda, NULL, w, -1),
                             0);
            assert_int_equal(work_value(ty, w), host_lwork_geqrf(ty, m, n, lda));
            fn_t f = ours(ty, qname(ty), wide), hf = theirs(ty, qname(ty));
            assert_int_equal(wide ? ormqr64(f, 'L', 'N', m, 8, n, NULL, lda, NULL, NULL, m, w, -1)
                                  : ormqr32(f, 'L', 'N', m, 8, n, NULL, lda, NULL, NULL, m, w, -1),
                             0);
            ormqr32(hf, 'L', 'N', m, 8, n, NULL, lda, NULL, NULL, m, h, -1);
            assert_int_equal(work_value(ty, w), work_value(ty, h));
            f = ours(ty, "gels", wide);
            assert_int_equal(wide ? gels64(f, 'N', m, n, 8, NULL, lda, NULL, m, w, -1)
                                  : gels32(f, 'N', m, n, 8, NULL, lda, NULL, m, w, -1),
                             0);
            gels32(theirs(ty, "gels"), 'N', m, n, 8, NULL, lda, NULL, m, h, -1);
            assert_int_equal(work_value(ty, w), work_value(ty, h));
            assert_int_equal(xcalls, 0);
            /* short: GEQRF needs n, ORMQR (Left) n's of C, GELS min(m, n) + max(min, nrhs) */
            dc *a = mat(m, n, lda, 43, ty);
            void *A = to_t(ty, a, lda * n), *T = calloc((size_t)n, elsize[ty]);
            void *C = calloc((size_t)(m * 8), elsize[ty]), *ws = calloc(64, elsize[ty]);
            assert_int_equal(wide ? geqrf64(ours(ty, "geqrf", 1), m, n, A, lda, T, ws, n - 1)
                                  : geqrf32(ours(ty, "geqrf", 0), m, n, A, lda, T, ws, n - 1),
                             -7);
            assert_int_equal(xinfo, 7);
            f = ours(ty, qname(ty), wide);
            assert_int_equal(wide ? ormqr64(f, 'L', 'N', m, 8, n, A, lda, T, C, m, ws, 7)
                                  : ormqr32(f, 'L', 'N', m, 8, n, A, lda, T, C, m, ws, 7),
                             -12);
            assert_int_equal(xinfo, 12);
            f = ours(ty, "gels", wide);
            assert_int_equal(wide ? gels64(f, 'N', m, n, 8, A, lda, C, m, ws, n + n - 1)
                                  : gels32(f, 'N', m, n, 8, A, lda, C, m, ws, n + n - 1),
                             -10);
            assert_int_equal(xinfo, 10);
            /* no rows: one element of workspace is enough, as the host LAPACK takes it */
            xcalls = 0;
            assert_int_equal(wide ? geqrf64(ours(ty, "geqrf", 1), 0, n, A, 1, T, ws, 1)
                                  : geqrf32(ours(ty, "geqrf", 0), 0, n, A, 1, T, ws, 1),
                             geqrf32(theirs(ty, "geqrf"), 0, n, A, 1, T, ws, 1));
            assert_int_equal(xcalls, 0);
            free(a), free(A), free(T), free(C), free(ws);
        }
}

static void qr_invalid_arguments_reach_xerbla_with_lapacks_name_and_position(void **state)
{
    (void)state;
    const bad_t bad[] = {
        { "GEQRF", 1, 0, 0, -1, 4, 0, 4, 0 },     { "GEQRF", 2, 0, 0, 4, -1, 0, 4, 0 },
        { "GEQRF", 4, 0, 0, 4, 4, 0, 3, 0 },      { "ORMQR", 1, 'X', 'N', 4, 4, 2, 4, 4 },
        { "ORMQR", 2, 'L', 'X', 4, 4, 2, 4, 4 },  { "ORMQR", 3, 'L', 'N', -1, 4, 2, 4, 4 },
        { "ORMQR", 4, 'L', 'N', 4, -1, 2, 4, 4 }, { "ORMQR", 5, 'L', 'N', 4, 4, 5, 4, 4 },
        { "ORMQR", 7, 'L', 'N', 4, 4, 2, 3, 4 },  { "ORMQR", 10, 'L', 'N', 4, 4, 2, 4, 3 },
        { "GELS ", 1, 'X', 0, 4, 4, 2, 4, 4 },    { "GELS ", 2, 'N', 0, -1, 4, 2, 4, 4 },
        { "GELS ", 3, 'N', 0, 4, -1, 2, 4, 4 },   { "GELS ", 4, 'N', 0, 4, 4, -1, 4, 4 },
        { "GELS ", 6, 'N', 0, 4, 4, 2, 3, 4 },    { "GELS ", 8, 'N', 0, 4, 6, 2, 4, 5 },
    };
    run_bad_calls(bad, sizeof bad / sizeof *bad);
}

/* A NULL INFO (a C caller's) is refused through XERBLA at INFO's own position in LAPACK's
 * numbering (GEQRF 8, ORMQR 13, GELS 11), with A, tau and B unchanged. */
#define NULL_INFO_CALLS(I)                                                                         \
    static void null_info_calls_##I(int wide, double *A, double *tau, double *B, double *work)     \
    {                                                                                              \
        I four = 4, two = 2, lw = 64;                                                              \
        xcalls = 0;                                                                                \
        ((void (*)(I *, I *, double *, I *, double *, double *, I *, I *))ours(1, "geqrf", wide))( \
            &four, &four, A, &four, tau, work, &lw, NULL);                                         \
        assert_int_equal(xcalls, 1);                                                               \
        assert_string_equal(xname, "DGEQRF");                                                      \
        assert_int_equal(xinfo, 8);                                                                \
        ((void (*)(char *, char *, I *, I *, I *, double *, I *, double *, double *, I *,          \
                   double *, I *, I *, size_t, size_t))ours(1, "ormqr", wide))(                    \
            "L", "N", &four, &two, &two, A, &four, tau, B, &four, work, &lw, NULL, 1, 1);          \
        assert_string_equal(xname, "DORMQR");                                                      \
        assert_int_equal(xinfo, 13);                                                               \
        ((void (*)(char *, I *, I *, I *, double *, I *, double *, I *, double *, I *, I *,        \
                   size_t))ours(1, "gels", wide))("N", &four, &four, &two, A, &four, B, &four,     \
                                                  work, &lw, NULL, 1);                             \
        assert_string_equal(xname, "DGELS ");                                                      \
        assert_int_equal(xinfo, 11);                                                               \
        assert_int_equal(xcalls, 3);                                                               \
    }
NULL_INFO_CALLS(int32_t)
NULL_INFO_CALLS(int64_t)

static void a_null_info_is_refused_at_lapacks_position(void **state)
{
    (void)state;
    double A[16], tau[4] = { 0.5, 0.5, 0.5, 0.5 }, B[16], work[64], A0[16], B0[16];
    for (int i = 0; i < 16; i++)
        A[i] = A0[i] = 1.0 + i % 5, B[i] = B0[i] = 2.0 - i % 3;
    for (int wide = 0; wide < 2; wide++) {
        if (wide)
            null_info_calls_int64_t(wide, A, tau, B, work);
        else
            null_info_calls_int32_t(wide, A, tau, B, work);
        assert_memory_equal(A, A0, sizeof A);
        assert_memory_equal(B, B0, sizeof B);
        assert_true(tau[0] == 0.5 && tau[3] == 0.5);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(qr_factors_and_products_match_the_host_lapack),
        cmocka_unit_test(gels_solves_least_squares_and_minimum_norm_problems),
        cmocka_unit_test(gels_of_a_rank_deficient_matrix_gives_info),
        cmocka_unit_test(gels_of_a_zero_matrix_gives_x_zero_and_info_zero_at_every_size),
        cmocka_unit_test(workspace_queries_are_answered_and_a_short_workspace_refused),
        cmocka_unit_test(qr_invalid_arguments_reach_xerbla_with_lapacks_name_and_position),
        cmocka_unit_test(a_null_info_is_refused_at_lapacks_position),
    };
    return cmocka_run_group_tests(tests, host_open, NULL);
}
