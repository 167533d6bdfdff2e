/* The Cholesky family's INFO on GPUs (CUDA builds; skipped without a GPU):
 * POTRF, POSV, TRTRI and POTRI in the four precisions, both triangles,
 * failing at the first column, on either side of the columns where
 * cuSOLVER's POTRF ends an internal panel (32, 64, 128, 192), at a tile's
 * last column and at k = n, and not failing at all, each against the host
 * LAPACK (OpenBLAS's own POTRF, TRTRI, LAUUM and CBLAS TRSM, opened on
 * their own: its POSV and POTRI, netlib's, call POTRF, POTRS, TRTRI and
 * LAUUM by their exported names, which resolve to this library's):
 *   - host pointers through the runtime, as *_async calls and as the legacy
 *     entries (meson runs this with TESS_THRESHOLD=0), with the tile size
 *     unset (each call picks its own) and with tiles of 64;
 *   - operands in GPU memory through the legacy entries, which run
 *     cuSOLVER on the whole matrix.
 * INFO must be LAPACK's; after a failure POSV leaves B as it was and TRTRI
 * and POTRI leave A as it was, bit for bit; the leading minor of order
 * INFO - 1 of a failed POTRF (POSV) holds LAPACK's factor.  Every case is
 * run and each failing one printed on a line of its own ("FAIL" with the
 * routine, triangle, order, column of failure and path); a test fails when
 * any of its cases did.  TESS_TEST_DEVICES names the runtime's devices
 * (default "cuda": every GPU). */
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "elements.h"
#include <cuda_runtime.h>
#include "tessera.h"

/* A result against the host LAPACK's: ||X - R||_F / (n eps ||R||_F), on
 * matrices whose condition number is below 4. */
#define BOUND 30.0
#define NRHS 3

typedef enum { POTRF, POSV, TRTRI, POTRI, NROUT } rout_t;
static const char *const rname[NROUT] = { "potrf", "posv", "trtri", "potri" };
static const char letter[4] = { 's', 'd', 'c', 'z' };
static const size_t elsize[4] = { 4, 8, 8, 16 };
static const double eps[4] = { FLT_EPSILON, DBL_EPSILON, FLT_EPSILON, DBL_EPSILON };

/* ---- the entries: this library's (LP64) and the host LAPACK's ----------------------- */

typedef void uplo_fn(const char *, const int *, void *, const int *, int *, size_t);
typedef void posv_fn(const char *, const int *, const int *, void *, const int *, void *,
                     const int *, int *, size_t);
typedef void trtri_fn(const char *, const char *, const int *, void *, const int *, int *, size_t,
                      size_t);
typedef void trsm_fn(int, int, int, int, int, int, int, const void *, const void *, int, void *,
                     int);
typedef void trsm_s_fn(int, int, int, int, int, int, int, float, const void *, int, void *, int);
typedef void trsm_d_fn(int, int, int, int, int, int, int, double, const void *, int, void *, int);
typedef struct {
    uplo_fn *potrf, *potri;
    posv_fn *posv;
    trtri_fn *trtri;
} lapack_t;

uplo_fn spotrf_, dpotrf_, cpotrf_, zpotrf_, spotri_, dpotri_, cpotri_, zpotri_;
posv_fn sposv_, dposv_, cposv_, zposv_;
trtri_fn strtri_, dtrtri_, ctrtri_, ztrtri_;

static const lapack_t tess[4] = {
    { spotrf_, spotri_, sposv_, strtri_ },
    { dpotrf_, dpotri_, dposv_, dtrtri_ },
    { cpotrf_, cpotri_, cposv_, ctrtri_ },
    { zpotrf_, zpotri_, zposv_, ztrtri_ },
};

/* OpenBLAS's routines that call no exported name. */
static struct {
    uplo_fn *potrf, *lauum;
    trtri_fn *trtri;
    void *trsm; /* cblas_?trsm: trsm_s_fn, trsm_d_fn or trsm_fn */
} host[4];

static int host_lapack_open(void)
{
    void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return -1;
    for (int t = 0; t < 4; t++) {
        char name[16];
#define FIND(f, fmt)                                                                               \
    snprintf(name, sizeof name, fmt, letter[t]);                                                   \
    if (!(*(void **)&host[t].f = dlsym(h, name)))                                                  \
        return -1;
        FIND(potrf, "%cpotrf_")
        FIND(lauum, "%clauum_")
        FIND(trtri, "%ctrtri_")
        FIND(trsm, "cblas_%ctrsm")
#undef FIND
    }
    return 0;
}

/* B = op(A)^-1 B, A n x n triangular (lower or upper), B n x NRHS, by
 * OpenBLAS's CBLAS (column-major 102, left 141, lower 122, upper 121,
 * trans 111 none, 113 conjugate, non-unit 131), which takes a real type's
 * alpha by value and a complex type's by address. */
static void trsm(int ty, bool lower, int trans, int n, const void *A, void *B)
{
    int ul = lower ? 122 : 121;
    const double one[2] = { 1, 0 };
    const float onef[2] = { 1, 0 };
    if (ty == 0) {
        trsm_s_fn *f;
        *(void **)&f = host[0].trsm;
        f(102, 141, ul, trans, 131, n, NRHS, 1.0f, A, n, B, n);
    } else if (ty == 1) {
        trsm_d_fn *f;
        *(void **)&f = host[1].trsm;
        f(102, 141, ul, trans, 131, n, NRHS, 1.0, A, n, B, n);
    } else {
        trsm_fn *f;
        *(void **)&f = host[ty].trsm;
        f(102, 141, ul, trans, 131, n, NRHS, ty == 2 ? (const void *)onef : one, A, n, B, n);
    }
}

/* The host LAPACK's routine on A (and B, POSV), n x n in ld n: POSV as POTRF
 * then two triangular solves, POTRI as TRTRI then LAUUM; its INFO. */
static int64_t host_call(int ty, rout_t r, char uplo, int64_t n, void *A, void *B)
{
    int in = (int)n, info = -99;
    if (r == TRTRI || r == POTRI) {
        host[ty].trtri(&uplo, "N", &in, A, &in, &info, 1, 1);
        if (r == POTRI && info == 0)
            host[ty].lauum(&uplo, &in, A, &in, &info, 1);
        return info;
    }
    host[ty].potrf(&uplo, &in, A, &in, &info, 1);
    if (r == POSV && info == 0) {
        /* A = L L^H: B = L^-H L^-1 B; A = U^H U: B = U^-1 U^-H B */
        bool lo = uplo == 'L';
        trsm(ty, lo, lo ? 111 : 113, in, A, B);
        trsm(ty, lo, lo ? 113 : 111, in, A, B);
    }
    return info;
}

/* The routine through this library's entry f on A (and B, POSV), n x n in ld n; its INFO. */
static int64_t call_f77(const lapack_t *f, rout_t r, char uplo, int64_t n, void *A, void *B)
{
    int in = (int)n, nrhs = NRHS, info = -99;
    switch (r) {
    case POTRF: f->potrf(&uplo, &in, A, &in, &info, 1); break;
    case POTRI: f->potri(&uplo, &in, A, &in, &info, 1); break;
    case POSV: f->posv(&uplo, &in, &nrhs, A, &in, B, &in, &info, 1); break;
    default: f->trtri(&uplo, "N", &in, A, &in, &info, 1, 1); break;
    }
    return info;
}

#define ASYNC(P, r, u, n, A, B, info)                                                              \
    ((r) == POTRF   ? tess_##P##potrf_async(u, n, A, n, info)                                      \
     : (r) == POSV  ? tess_##P##posv_async(u, n, NRHS, A, n, B, n, info)                           \
     : (r) == TRTRI ? tess_##P##trtri_async(u, TessNonUnit, n, A, n, info)                         \
                    : tess_##P##potri_async(u, n, A, n, info))

static int call_async(int ty, rout_t r, tess_uplo_t u, int64_t n, void *A, void *B, int64_t *info)
{
    switch (ty) {
    case 0: return ASYNC(s, r, u, n, (float *)A, (float *)B, info);
    case 1: return ASYNC(d, r, u, n, (double *)A, (double *)B, info);
    case 2: return ASYNC(c, r, u, n, (float _Complex *)A, (float _Complex *)B, info);
    default: return ASYNC(z, r, u, n, (double _Complex *)A, (double _Complex *)B, info);
    }
}

/* ---- matrices ------------------------------------------------------------------------- */

static size_t bytes(int ty, int64_t m, int64_t n)
{
    return (size_t)(m * n) * elsize[ty];
}

static void *copy(int ty, const void *A, int64_t m, int64_t n)
{
    return memcpy(malloc(bytes(ty, m, n)), A, bytes(ty, m, n));
}

/* An n x n Hermitian matrix, both triangles: entries of at most 1/2 off the
 * diagonal and n on it, so its eigenvalues lie in [n/2, 3n/2]; scaled by 1/n,
 * a triangle of it is a triangular matrix as well conditioned. */
static void *hpd(int ty, int64_t n, double scale)
{
    void *A = malloc(bytes(ty, n, n));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double complex v = rnd() + (ty >= 2 ? rnd() * I : 0);
            if (i == j)
                v = (double)n;
            if (i < j)
                v = conj(get(ty, A, j + i * n));
            set(ty, A, i + j * n, v * scale);
        }
    return A;
}

static bool in_triangle(char uplo, int64_t i, int64_t j)
{
    return uplo == 'L' ? i >= j : i <= j;
}

/* ||X - R||_F / (m eps ||R||_F) over the leading m x nc of the uplo triangle
 * (uplo 'A': of the whole matrix); NaN fails every bound. */
static double error(int ty, char uplo, int64_t m, int64_t nc, int64_t ld, const void *X,
                    const void *R)
{
    double d = 0, r = 0;
    for (int64_t j = 0; j < nc; j++)
        for (int64_t i = 0; i < m; i++)
            if (uplo == 'A' || in_triangle(uplo, i, j)) {
                double complex x = get(ty, X, i + j * ld), y = get(ty, R, i + j * ld);
                d += pow(cabs(x - y), 2);
                r += pow(cabs(y), 2);
            }
    return m == 0 ? 0 : sqrt(d) / ((double)m * eps[ty] * (r > 0 ? sqrt(r) : 1));
}

/* ---- the cases ------------------------------------------------------------------------ */

typedef enum { ASYNC_CALL, LEGACY_HOST, LEGACY_DEVICE } path_t;
static const char *const pname[3] = { "tess_*_async on host memory", "legacy entry on host memory",
                                      "legacy entry on GPU memory" };

typedef struct {
    int ty;
    rout_t r;
    char uplo;
    int64_t n, k; /* k: the column of failure, 0 for none */
    void *A0, *B0, *R, *RB;
    int64_t ref; /* the host LAPACK's INFO */
} case_t;

static int failures;
static const char *tiles; /* the runtime's tiles, for the report */

/* A FAIL line for the case through path p (-1: the case itself). */
static void report(const case_t *c, int p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %c%s uplo %c n %lld k %lld", letter[c->ty], rname[c->r], c->uplo, (long long)c->n,
           (long long)c->k);
    if (p >= 0)
        printf(", %s%s%s", pname[p], p == LEGACY_DEVICE ? "" : ", tiles ",
               p == LEGACY_DEVICE ? "" : tiles);
    printf(": ");
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
    failures++;
}

/* The operands: POTRF's and POSV's matrix with -1 at A(k,k), so that its
 * leading minor of order k is the first not positive definite; TRTRI's
 * triangle and POTRI's Cholesky factor with an exact zero there. */
static void case_make(case_t *c)
{
    seed = (unsigned)(c->n * 131 + c->k * 7 + c->ty * 3 + (c->uplo == 'U'));
    int64_t n = c->n;
    c->A0 = hpd(c->ty, n, c->r == TRTRI ? 1.0 / (double)n : 1.0);
    if (c->r == POTRI)
        assert_int_equal(host_call(c->ty, POTRF, c->uplo, n, c->A0, NULL), 0);
    if (c->k)
        set(c->ty, c->A0, (c->k - 1) * (n + 1), c->r == POTRF || c->r == POSV ? -1 : 0);
    c->B0 = malloc(bytes(c->ty, n, NRHS));
    for (int64_t i = 0; i < n * NRHS; i++)
        set(c->ty, c->B0, i, rnd() + (c->ty >= 2 ? rnd() * I : 0));
    c->R = copy(c->ty, c->A0, n, n);
    c->RB = copy(c->ty, c->B0, n, NRHS);
    c->ref = host_call(c->ty, c->r, c->uplo, n, c->R, c->RB);
}

static void case_free(case_t *c)
{
    free(c->A0), free(c->B0), free(c->R), free(c->RB);
}

static uint64_t tasks_run(void)
{
    tess_stats_t s;
    if (tess_get_stats(&s))
        return 0;
    uint64_t t = 0;
    for (int d = 0; d < s.ndevices; d++)
        t += s.tasks[d];
    return t;
}

static void *on_gpu(const void *h, size_t b)
{
    void *d;
    assert_int_equal(cudaMalloc(&d, b), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, b, cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

static void from_gpu(void *h, void *d, size_t b)
{
    assert_int_equal(cudaMemcpy(h, d, b, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

/* The routine through path p on copies of the case's operands: INFO, and what
 * it leaves in A and B, against the host LAPACK's. */
static void case_run(const case_t *c, int p)
{
    int ty = c->ty;
    int64_t n = c->n, info = -99;
    void *A = copy(ty, c->A0, n, n), *B = copy(ty, c->B0, n, NRHS);
    uint64_t before = tasks_run();
    if (p == ASYNC_CALL) {
        tess_uplo_t u = c->uplo == 'L' ? TessLower : TessUpper;
        int err = call_async(ty, c->r, u, n, A, B, &info);
        if (!err)
            err = tess_memory_coherent_async(TessAll, n, n, A, n, elsize[ty]);
        if (!err)
            err = tess_memory_coherent_async(TessAll, n, NRHS, B, n, elsize[ty]);
        int sync_err = tess_sync();
        if (err || sync_err)
            report(c, p, "returned %d, tess_sync %d", err, sync_err);
        assert_int_equal(tess_memory_invalidate(n, n, A, n, elsize[ty]), 0);
        assert_int_equal(tess_memory_invalidate(n, NRHS, B, n, elsize[ty]), 0);
    } else if (p == LEGACY_HOST) {
        info = call_f77(&tess[ty], c->r, c->uplo, n, A, B);
    } else {
        void *dA = on_gpu(A, bytes(ty, n, n)), *dB = on_gpu(B, bytes(ty, n, NRHS));
        info = call_f77(&tess[ty], c->r, c->uplo, n, dA, dB);
        from_gpu(A, dA, bytes(ty, n, n));
        from_gpu(B, dB, bytes(ty, n, NRHS));
    }
    if (p != LEGACY_DEVICE && tasks_run() == before)
        report(c, p, "no task ran: the call did not go through the runtime");
    bool factor = c->r == POTRF || c->r == POSV;
    if (info != c->ref)
        report(c, p, "info %lld, LAPACK's %lld", (long long)info, (long long)c->ref);
    else if (c->ref > 0 && !factor && memcmp(A, c->A0, bytes(ty, n, n)))
        report(c, p, "A changed though INFO > 0");
    else if (c->ref > 0 && c->r == POSV && memcmp(B, c->B0, bytes(ty, n, NRHS)))
        report(c, p, "B changed though INFO > 0");
    /* the factor's leading minor of order INFO - 1, or the whole result */
    int64_t m = c->ref == 0 ? n : factor ? c->ref - 1 : 0;
    double eA = error(ty, c->uplo, m, m, n, A, c->R);
    double eB = c->r == POSV && c->ref == 0 ? error(ty, 'A', n, NRHS, n, B, c->RB) : 0;
    if (info == c->ref && (!(eA <= BOUND) || !(eB <= BOUND)))
        report(c, p, "error against LAPACK's %.3g (A, leading %lld) %.3g (B) past %g", eA,
               (long long)m, eB, BOUND);
    free(A), free(B);
}

/* Each routine, precision and triangle of order n failing at each of ks (and
 * not at all), through the given paths. */
static void run_cases(int64_t n, const int64_t *ks, size_t nk, const path_t *paths, int np)
{
    for (int ty = 0; ty < 4; ty++)
        for (rout_t r = POTRF; r < NROUT; r++)
            for (int u = 0; u < 2; u++)
                for (size_t i = 0; i <= nk; i++) {
                    int64_t k = i < nk ? ks[i] : 0;
                    if (k > n)
                        continue;
                    case_t c = { ty, r, "LU"[u], n, k, NULL, NULL, NULL, NULL, 0 };
                    bool seen = false;
                    for (size_t j = 0; j < i; j++)
                        seen |= ks[j] == k;
                    if (seen)
                        continue;
                    case_make(&c);
                    if (c.ref != k)
                        report(&c, -1, "the host LAPACK's INFO is %lld: the case is wrong",
                               (long long)c.ref);
                    for (int p = 0; p < np && c.ref == k; p++)
                        case_run(&c, paths[p]);
                    case_free(&c);
                }
}

/* cuSOLVER's internal panels end at multiples of 32 (complex double) or at
 * 64, 128 and 192: the first column, and either side of each end. */
static const int64_t panel_ks[] = { 1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 193 };
#define NPANEL (sizeof panel_ks / sizeof *panel_ks)

/* Orders for tiles of 64 and for the whole matrix on one GPU: one tile failing at its last
 * column (64, 192: k = n at a panel's end), and four tiles, the last of 8 columns. */
static void small_orders(const path_t *paths, int np)
{
    const int64_t one_tile[] = { 1, 31, 32, 33, 63, 64 }, three[] = { 1, 127, 128, 129, 191, 192 };
    run_cases(64, one_tile, sizeof one_tile / sizeof *one_tile, paths, np);
    run_cases(192, three, sizeof three / sizeof *three, paths, np);
    int64_t ks[NPANEL + 1];
    memcpy(ks, panel_ks, sizeof panel_ks);
    ks[NPANEL] = 200;
    run_cases(200, ks, NPANEL + 1, paths, np);
}

static const path_t through_runtime[] = { ASYNC_CALL, LEGACY_HOST };

static void start(int64_t nb)
{
    const char *devices = getenv("TESS_TEST_DEVICES");
    tess_config_t cfg = { .devices = devices && *devices ? devices : "cuda", .nb = nb };
    assert_int_equal(tess_init(&cfg), 0);
    failures = 0;
}

static void finish(void)
{
    assert_int_equal(tess_finalize(), 0);
    if (failures)
        fail_msg("%d cases failed (the FAIL lines above)", failures);
}

static void lower_dpotrf_of_one_tile_failing_at_its_last_column_reports_it_not_zero(void **state)
{
    (void)state;
    start(64);
    tiles = "64";
    case_t c = { 1, POTRF, 'L', 64, 64, NULL, NULL, NULL, NULL, 0 };
    case_make(&c);
    assert_int_equal(c.ref, 64);
    for (int p = 0; p < 2; p++)
        case_run(&c, through_runtime[p]);
    case_free(&c);
    finish();
}

static void host_pointers_through_the_runtime_with_tiles_of_64_get_lapacks_info(void **state)
{
    (void)state;
    start(64);
    tiles = "64";
    small_orders(through_runtime, 2);
    finish();
}

/* With the tile size unset a call's tiles are the largest (tess_stats_t.nb), nb/2, nb/4 (or
 * nb/8, complex types), the smallest for orders of a few of them: order nb/4 + 76 (1100 on
 * GPUs) takes two tiles of nb/4 (1024) or three of nb/8 (512); besides the panels' ends of
 * the first tile, either side of nb/8 and of nb/4, of the second tile's first panel end, and
 * the last column. */
static void
host_pointers_through_the_runtime_with_the_tiles_calls_pick_get_lapacks_info(void **state)
{
    (void)state;
    start(0);
    tiles = "unset";
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    int64_t nb = s.nb, n = nb / 4 + 76;
    int64_t ks[NPANEL + 7];
    memcpy(ks, panel_ks, sizeof panel_ks);
    const int64_t more[7] = { nb / 8, nb / 8 + 1, nb / 4, nb / 4 + 1, nb / 4 + 64, nb / 4 + 65, n };
    memcpy(ks + NPANEL, more, sizeof more);
    run_cases(n, ks, NPANEL + 7, through_runtime, 2);
    finish();
}

static void gpu_memory_through_the_legacy_entries_gets_lapacks_info(void **state)
{
    (void)state;
    failures = 0;
    const path_t device[] = { LEGACY_DEVICE };
    small_orders(device, 1);
    if (failures)
        fail_msg("%d cases failed (the FAIL lines above)", failures);
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return 77; /* meson's "skipped" */
    if (host_lapack_open())
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lower_dpotrf_of_one_tile_failing_at_its_last_column_reports_it_not_zero),
        cmocka_unit_test(host_pointers_through_the_runtime_with_tiles_of_64_get_lapacks_info),
        cmocka_unit_test(
            host_pointers_through_the_runtime_with_the_tiles_calls_pick_get_lapacks_info),
        cmocka_unit_test(gpu_memory_through_the_legacy_entries_gets_lapacks_info),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
