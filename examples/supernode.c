/* A supernode's update in a sparse direct solver, as a user writes it with
 * Tessera: the panel B below the supernode's diagonal block is solved with
 * its factor L, and the product of the result with itself is subtracted from
 * the Schur complement C:
 *
 *     X = alpha L^-1 B     (DTRSM: side left, lower, no transpose, non-unit;
 *                           L n x n, B n x m, X overwriting B)
 *     C = C - X^T X        (C m x m: by DGEMM, then by DSYRK and by DGEMMT on
 *                           C's lower triangle only)
 *
 * The calls are submitted with no barrier between them, then one coherent
 * request on C (X is never wanted on the host) and one sync.  Each way is run
 * from cold devices, timed, checked against OpenBLAS and its transfers
 * printed against the least it could move: L's lower triangle, B and C read
 * once, C written once.  A second run solves several panels, one after
 * another, with the same L, which stays on the devices: only the first panel
 * sends it.
 *
 * L's upper triangle holds NaN: neither Tessera nor OpenBLAS reads it.
 *
 *   usage: supernode [n [m [panels]]]   (TESS_DEVICES, TESS_NB etc. choose
 *                                        the devices and the tile size) */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tessera.h"

#define BOUND 10.0

typedef enum { BY_GEMM, BY_SYRK, BY_GEMMT } update_t;
static const char *const update_name[] = { "dgemm", "dsyrk", "dgemmt" };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double *random_matrix(int64_t rows, int64_t cols, unsigned seed)
{
    double *A = malloc((size_t)(rows * cols) * sizeof *A);
    srand(seed);
    for (int64_t i = 0; i < rows * cols; i++)
        A[i] = rand() / (double)RAND_MAX - 0.5;
    return A;
}

/* Lower triangular and well conditioned: a diagonal in [2, 3] and
 * off-diagonal entries of size 1/sqrt(n), so that L = D (I + N) with N of
 * norm well below 1. */
static double *factor_matrix(int64_t n)
{
    double *L = random_matrix(n, n, 1);
    double s = 1.0 / sqrt((double)n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            L[i + j * n] = i < j ? NAN : i == j ? 2.5 + L[i + j * n] : s * L[i + j * n];
    return L;
}

static double *copy_of(const double *A, int64_t count)
{
    double *B = malloc((size_t)count * sizeof *B);
    memcpy(B, A, (size_t)count * sizeof *B);
    return B;
}

static double frobenius(const double *A, int64_t rows, int64_t cols, int64_t ld, bool lower)
{
    double s = 0;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = lower ? j : 0; i < rows; i++)
            s += A[i + j * ld] * A[i + j * ld];
    return sqrt(s);
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        int err_ = (call);                                                                         \
        if (err_) {                                                                                \
            fprintf(stderr, "%s: %s\n", #call, tess_strerror(err_));                               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* The update as submitted: the solve in place, then C -= X^T X one way. */
static void submit_update(update_t how, int64_t n, int64_t m, double alpha, const double *L,
                          double *B, double *C)
{
    CHECK(tess_dtrsm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, n, m, alpha, L, n, B, n));
    if (how == BY_GEMM)
        CHECK(tess_dgemm_async(TessTrans, TessNoTrans, m, m, n, -1.0, B, n, B, n, 1.0, C, m));
    else if (how == BY_SYRK)
        CHECK(tess_dsyrk_async(TessLower, TessTrans, m, n, -1.0, B, n, 1.0, C, m));
    else
        CHECK(tess_dgemmt_async(TessLower, TessTrans, TessNoTrans, m, n, -1.0, B, n, B, n, 1.0, C,
                                m));
    CHECK(tess_memory_coherent_async(how == BY_GEMM ? TessAll : TessLowerPart, m, m, C, m,
                                     sizeof *C));
}

/* ||C - Cref||_F / (2 n eps (||Xref||_F^2 + ||C0||_F)) over what the update
 * writes (C's lower triangle unless by DGEMM), Cref from OpenBLAS; the part
 * it must not write is compared bit for bit (a mismatch is infinite). */
static double residual(update_t how, int64_t n, int64_t m, double alpha, const double *L,
                       const double *B0, const double *C0, const double *C)
{
    double *Xr = copy_of(B0, n * m), *Cr = copy_of(C0, m * m);
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, (int)m,
                alpha, L, (int)n, Xr, (int)n);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)m, (int)m, (int)n, -1.0, Xr, (int)n,
                Xr, (int)n, 1.0, Cr, (int)m);
    bool lower = how != BY_GEMM;
    double diff = 0;
    for (int64_t j = 0; j < m; j++)
        for (int64_t i = 0; i < m; i++) {
            double d = C[i + j * m] - Cr[i + j * m];
            if (lower && i < j)
                d = C[i + j * m] == C0[i + j * m] ? 0 : INFINITY;
            diff += d * d;
        }
    double nX = frobenius(Xr, n, m, n, false), nC = frobenius(C0, m, m, m, lower);
    free(Xr);
    free(Cr);
    return sqrt(diff) / (2.0 * n * DBL_EPSILON * (nX * nX + nC));
}

static void print_traffic(const tess_stats_t *s0, const tess_stats_t *s1, double min_h2d,
                          double min_d2h)
{
    double h2d = (double)(s1->bytes_h2d - s0->bytes_h2d);
    double d2h = (double)(s1->bytes_d2h - s0->bytes_d2h);
    printf("  host->device    %8.1f MB   minimum %8.1f MB   (%.2fx)\n", h2d / 1e6, min_h2d / 1e6,
           h2d / min_h2d);
    printf("  device->host    %8.1f MB   minimum %8.1f MB   (%.2fx)\n", d2h / 1e6, min_d2h / 1e6,
           d2h / min_d2h);
    printf("  device->device  %8.1f MB\n", (double)(s1->bytes_d2d - s0->bytes_d2d) / 1e6);
}

/* One panel, from cold devices; returns whether the result is right. */
static bool run_one(update_t how, int64_t n, int64_t m, double alpha, const double *L,
                    const double *B0, const double *C0)
{
    double *B = copy_of(B0, n * m), *C = copy_of(C0, m * m);
    tess_stats_t s0, s1;
    CHECK(tess_memory_invalidate_all());
    CHECK(tess_get_stats(&s0));
    double t0 = now();
    submit_update(how, n, m, alpha, L, B, C);
    CHECK(tess_sync());
    double elapsed = now() - t0;
    CHECK(tess_get_stats(&s1));

    double tri_l = n * (n + 1) / 2.0, c_elems = how == BY_GEMM ? (double)m * m : m * (m + 1) / 2.0;
    double flops = (double)n * n * m + (how == BY_GEMM ? 2.0 * m * m * n : (double)m * (m + 1) * n);
    double r = residual(how, n, m, alpha, L, B0, C0, C);
    printf("C -= X^T X by %s\n", update_name[how]);
    printf("  time            %8.3f s    rate %.1f GFLOP/s\n", elapsed, flops / elapsed * 1e-9);
    print_traffic(&s0, &s1, 8 * (tri_l + (double)n * m + c_elems), 8 * c_elems);
    printf("  residual        %8.2e   (bound %g): %s\n", r, BOUND, r < BOUND ? "PASS" : "FAIL");

    CHECK(tess_memory_invalidate(n, m, B, n, sizeof *B));
    CHECK(tess_memory_invalidate(m, m, C, m, sizeof *C));
    free(B);
    free(C);
    return r < BOUND;
}

/* Several panels solved one after another with the same L, each C wanted
 * back before the next panel (a sync each): L stays on the devices, so only
 * the first panel sends it, and each later one moves only its own B and C. */
static bool run_panels(int panels, int64_t n, int64_t m, double alpha, const double *L,
                       const double *B0, const double *C0)
{
    double *B = malloc((size_t)(n * m) * sizeof *B), *C = malloc((size_t)(m * m) * sizeof *C);
    double tri_l = n * (n + 1) / 2.0, c_elems = m * (m + 1) / 2.0, elapsed = 0, worst = 0;
    double flops = (double)n * n * m + (double)m * (m + 1) * n;
    uint64_t h2d[2] = { 0, 0 }; /* the first panel's, the most of the others' */
    tess_stats_t s0, s1;
    CHECK(tess_memory_invalidate_all());
    printf("%d panels with the same L, one after another, C -= X^T X by dsyrk\n", panels);
    for (int p = 0; p < panels; p++) {
        /* a different right-hand side each time */
        for (int64_t i = 0; i < n * m; i++)
            B[i] = B0[i] * (1.0 + p);
        memcpy(C, C0, (size_t)(m * m) * sizeof *C);
        CHECK(tess_get_stats(&s0));
        double t0 = now();
        submit_update(BY_SYRK, n, m, alpha, L, B, C);
        CHECK(tess_sync());
        elapsed += now() - t0;
        CHECK(tess_get_stats(&s1));
        uint64_t sent = s1.bytes_h2d - s0.bytes_h2d;
        if (p == 0 || sent > h2d[1])
            h2d[p > 0] = sent;
        /* the host writes B and C again: their device copies go first */
        CHECK(tess_memory_invalidate(n, m, B, n, sizeof *B));
        for (int64_t i = 0; i < n * m; i++)
            B[i] = B0[i] * (1.0 + p);
        double r = residual(BY_SYRK, n, m, alpha, L, B, C0, C);
        if (!(r <= worst))
            worst = r;
        CHECK(tess_memory_invalidate(m, m, C, m, sizeof *C));
    }
    printf("  time            %8.3f s    rate %.1f GFLOP/s\n", elapsed,
           panels * flops / elapsed * 1e-9);
    printf("  host->device    %8.1f MB   for the first panel, with L\n", h2d[0] / 1e6);
    if (panels > 1)
        printf("                  %8.1f MB   at most for each later one: L (%.1f MB as a "
               "triangle) not sent again\n",
               h2d[1] / 1e6, 8 * tri_l / 1e6);
    printf("  minimum         %8.1f MB   a panel's B and C's lower triangle\n",
           8 * ((double)n * m + c_elems) / 1e6);
    printf("  residual        %8.2e   (worst panel, bound %g): %s\n", worst, BOUND,
           worst < BOUND ? "PASS" : "FAIL");
    free(B);
    free(C);
    return worst < BOUND;
}

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 1024;
    int64_t m = argc > 2 ? atoll(argv[2]) : n;
    int panels = argc > 3 ? atoi(argv[3]) : 3;
    if (n < 1 || m < 1 || panels < 1) {
        fprintf(stderr, "usage: %s [n >= 1 [m >= 1 [panels >= 1]]]\n", argv[0]);
        return 2;
    }
    const double alpha = 0.75;
    double *L = factor_matrix(n), *B0 = random_matrix(n, m, 2), *C0 = random_matrix(m, m, 3);

    CHECK(tess_init(NULL));
    tess_stats_t s;
    CHECK(tess_get_stats(&s));
    printf("tessera supernode: X = %g L^-1 B, C -= X^T X; n = %lld, m = %lld, %d %s device(s)\n",
           alpha, (long long)n, (long long)m, s.ndevices,
           getenv("TESS_DEVICES") ? getenv("TESS_DEVICES") : "auto");
    bool ok = true;
    for (update_t how = BY_GEMM; how <= BY_GEMMT; how++)
        ok = run_one(how, n, m, alpha, L, B0, C0) && ok;
    ok = run_panels(panels, n, m, alpha, L, B0, C0) && ok;
    CHECK(tess_finalize());
    free(L);
    free(B0);
    free(C0);
    return ok ? 0 : 1;
}
