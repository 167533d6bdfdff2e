/* Blocking DGEMM, DTRSM, DPOTRF, DGESV and DGELS through one BLAS (LAPACK)
 * library, as a legacy program calls them: dgemm_, dtrsm_, dpotrf_, dgesv_
 * and dgels_ (one right-hand side each) looked up in the
 * library given (opened with dlopen, so that Tessera's libtessera_blas,
 * NVBLAS and OpenBLAS are timed by the same code), operands in ordinary
 * pageable memory from malloc.  A library without LAPACK (NVBLAS) times
 * the BLAS alone.
 *
 *   [ROUTINES=dgemm,dtrsm,dpotrf,dgesv,dgels] bench_legacy LIBRARY LABEL REPEATS n...
 *
 * For each n and routine: the first call, then REPEATS calls, each of them
 * (so that an occasional slow one shows), then their median and best, one
 * CSV line each on stdout:
 *   label,routine,n,call,seconds,tflops,check
 * where call is "first", "repeat" (in the order run), "median" or "best",
 * and check says whether sampled entries of the result match dot products
 * computed here.  bench/bench_legacy.sh runs
 * it for the three libraries and compares them. */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef void (*dgemm_t)(const char *, const char *, const int *, const int *, const int *,
                        const double *, const double *, const int *, const double *, const int *,
                        const double *, double *, const int *, size_t, size_t);
typedef void (*dtrsm_t)(const char *, const char *, const char *, const char *, const int *,
                        const int *, const double *, const double *, const int *, double *,
                        const int *, size_t, size_t, size_t, size_t);
typedef void (*dpotrf_t)(const char *, const int *, double *, const int *, int *, size_t);
typedef void (*dgesv_t)(const int *, const int *, double *, const int *, int *, double *,
                        const int *, int *);
typedef void (*dgels_t)(const char *, const int *, const int *, const int *, double *, const int *,
                        double *, const int *, double *, const int *, int *, size_t);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Matrices are filled on several threads: at n = 32768 each is 8 GiB. */
typedef struct {
    double *a;
    size_t n, c0, c1;
    int kind; /* 0 random, 1 lower triangular, well conditioned */
    unsigned seed;
} fill_t;

static void *fill_part(void *arg)
{
    const fill_t *f = arg;
    for (size_t j = f->c0; j < f->c1; j++) {
        unsigned s = f->seed + (unsigned)j * 2654435761u;
        for (size_t i = 0; i < f->n; i++) {
            s = s * 1103515245u + 12345u;
            double v = (double)((s >> 8) % 2001) / 1000.0 - 1.0;
            f->a[i + j * f->n] = f->kind == 0 ? v : i > j ? v : i == j ? (double)f->n : 0.0;
        }
    }
    return NULL;
}

static double *matrix(size_t n, int kind, unsigned seed)
{
    double *a = malloc(n * n * sizeof *a);
    if (!a) {
        fprintf(stderr, "bench_legacy: no memory for n = %zu\n", n);
        exit(1);
    }
    enum { T = 16 };
    pthread_t th[T];
    fill_t f[T];
    for (int t = 0; t < T; t++) {
        f[t] = (fill_t){ a, n, n * t / T, n * (t + 1) / T, kind, seed };
        pthread_create(&th[t], NULL, fill_part, &f[t]);
    }
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    return a;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Sampled entries of C = A B, or of A X = B0 (the solve's check: A times
 * the solution against the right-hand side it replaced). */
static const char *check_gemm(size_t n, const double *A, const double *B, const double *C)
{
    unsigned s = 99;
    for (int e = 0; e < 16; e++) {
        s = s * 1103515245u + 12345u;
        size_t i = (s >> 4) % n, j = (s >> 12) % n;
        double r = 0, mag = 0;
        for (size_t l = 0; l < n; l++) {
            r += A[i + l * n] * B[l + j * n];
            mag += fabs(A[i + l * n] * B[l + j * n]);
        }
        if (fabs(C[i + j * n] - r) > 1e-10 * (mag + 1))
            return "FAILED";
    }
    return "ok";
}

static void report(const char *label, const char *routine, size_t n, const char *call, double s,
                   double flops, const char *check)
{
    printf("%s,%s,%zu,%s,%.6f,%.3f,%s\n", label, routine, n, call, s, flops / s * 1e-12, check);
    fflush(stdout);
}

/* prepare, when there is one, runs before each call, untimed. */
static void time_calls(const char *label, const char *routine, size_t n, int repeats, double flops,
                       void (*prepare)(void *), void (*call)(void *), void *arg,
                       const char *(*check)(void *))
{
    if (prepare)
        prepare(arg);
    double t0 = now();
    call(arg);
    report(label, routine, n, "first", now() - t0, flops, check(arg));
    if (repeats < 1)
        return;
    double *t = malloc((size_t)repeats * sizeof *t);
    for (int r = 0; r < repeats; r++) {
        if (prepare)
            prepare(arg);
        t0 = now();
        call(arg);
        t[r] = now() - t0;
        report(label, routine, n, "repeat", t[r], flops, r + 1 < repeats ? "-" : check(arg));
    }
    qsort(t, (size_t)repeats, sizeof *t, cmp);
    report(label, routine, n, "median", t[repeats / 2], flops, "-");
    report(label, routine, n, "best", t[0], flops, "-");
    free(t);
}

typedef struct {
    dgemm_t gemm;
    dtrsm_t trsm;
    dpotrf_t potrf;
    dgesv_t gesv;
    dgels_t gels;
    int n, info, lwork, *ipiv;
    double *A, *B, *C, *L, *X, *X0, *b, *b0, *work;
} job_t;

static void gemm_call(void *arg)
{
    job_t *j = arg;
    double one = 1, zero = 0;
    j->gemm("N", "N", &j->n, &j->n, &j->n, &one, j->A, &j->n, j->B, &j->n, &zero, j->C, &j->n, 1,
            1);
}

static const char *gemm_check(void *arg)
{
    job_t *j = arg;
    return check_gemm((size_t)j->n, j->A, j->B, j->C);
}

/* Each solve starts from the same right-hand side. */
static void trsm_prepare(void *arg)
{
    job_t *j = arg;
    memcpy(j->X, j->X0, (size_t)j->n * j->n * sizeof *j->X);
}

static void trsm_call(void *arg)
{
    job_t *j = arg;
    double one = 1;
    j->trsm("L", "L", "N", "N", &j->n, &j->n, &one, j->L, &j->n, j->X, &j->n, 1, 1, 1, 1);
}

static const char *trsm_check(void *arg)
{
    job_t *j = arg;
    return check_gemm((size_t)j->n, j->L, j->X, j->X0);
}

/* DPOTRF on the lower triangle of L (diagonal n, entries of at most 1 below
 * it: positive definite), copied to X before each call. */
static void potrf_prepare(void *arg)
{
    job_t *j = arg;
    memcpy(j->X, j->L, (size_t)j->n * j->n * sizeof *j->X);
}

static void potrf_call(void *arg)
{
    job_t *j = arg;
    j->potrf("L", &j->n, j->X, &j->n, &j->info, 1);
}

/* Sampled entries of the lower triangle of F F^T against the matrix. */
static const char *potrf_check(void *arg)
{
    job_t *j = arg;
    size_t n = (size_t)j->n;
    unsigned s = 77;
    if (j->info)
        return "FAILED";
    for (int e = 0; e < 16; e++) {
        s = s * 1103515245u + 12345u;
        size_t i = (s >> 4) % n, c = (s >> 12) % n, r = i > c ? i : c, col = i > c ? c : i;
        double v = 0, mag = 0;
        for (size_t l = 0; l <= col; l++) {
            v += j->X[r + l * n] * j->X[col + l * n];
            mag += fabs(j->X[r + l * n] * j->X[col + l * n]);
        }
        if (fabs(j->L[r + col * n] - v) > 1e-10 * (mag + 1))
            return "FAILED";
    }
    return "ok";
}

/* DGESV and DGELS of the random A (in X0) with one right-hand side b0, both
 * copied before each call. */
static void solve_prepare(void *arg)
{
    job_t *j = arg;
    memcpy(j->X, j->X0, (size_t)j->n * j->n * sizeof *j->X);
    memcpy(j->b, j->b0, (size_t)j->n * sizeof *j->b);
}

static void gesv_call(void *arg)
{
    job_t *j = arg;
    int one = 1;
    j->gesv(&j->n, &one, j->X, &j->n, j->ipiv, j->b, &j->n, &j->info);
}

static void gels_call(void *arg)
{
    job_t *j = arg;
    int one = 1;
    j->gels("N", &j->n, &j->n, &one, j->X, &j->n, j->b, &j->n, j->work, &j->lwork, &j->info, 1);
}

/* Sampled rows of A x - b against the sum of their terms' magnitudes. */
static const char *solve_check(void *arg)
{
    job_t *j = arg;
    size_t n = (size_t)j->n;
    unsigned s = 91;
    if (j->info)
        return "FAILED";
    for (int e = 0; e < 16; e++) {
        s = s * 1103515245u + 12345u;
        size_t r = (s >> 4) % n;
        double v = -j->b0[r], mag = fabs(j->b0[r]);
        for (size_t c = 0; c < n; c++) {
            v += j->X0[r + c * n] * j->b[c];
            mag += fabs(j->X0[r + c * n] * j->b[c]);
        }
        if (fabs(v) > 1e-8 * mag)
            return "FAILED";
    }
    return "ok";
}

static bool wanted(const char *routine)
{
    const char *list = getenv("ROUTINES");
    if (!list || !*list)
        return true;
    size_t len = strlen(routine);
    for (const char *p = strstr(list, routine); p; p = strstr(p + 1, routine))
        if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
            return true;
    return false;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s LIBRARY LABEL REPEATS n...\n", argv[0]);
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "bench_legacy: %s\n", dlerror());
        return 1;
    }
    job_t j = { 0 };
    *(void **)&j.gemm = dlsym(lib, "dgemm_");
    *(void **)&j.trsm = dlsym(lib, "dtrsm_");
    *(void **)&j.potrf = dlsym(lib, "dpotrf_");
    *(void **)&j.gesv = dlsym(lib, "dgesv_");
    *(void **)&j.gels = dlsym(lib, "dgels_");
    if (!j.potrf && wanted("dpotrf"))
        fprintf(stderr, "bench_legacy: %s has no dpotrf_: not timed\n", argv[1]);
    if (!j.gemm || !j.trsm) {
        fprintf(stderr, "bench_legacy: %s lacks dgemm_ or dtrsm_\n", argv[1]);
        return 1;
    }
    const char *label = argv[2];
    int repeats = atoi(argv[3]);
    for (int a = 4; a < argc; a++) {
        size_t n = strtoul(argv[a], NULL, 10);
        j.n = (int)n;
        if (wanted("dgemm")) {
            j.A = matrix(n, 0, 1);
            j.B = matrix(n, 0, 2);
            j.C = matrix(n, 0, 3);
            time_calls(label, "dgemm", n, repeats, 2.0 * n * n * n, NULL, gemm_call, &j,
                       gemm_check);
            free(j.A);
            free(j.B);
            free(j.C);
        }
        j.L = matrix(n, 1, 4);
        j.X = malloc(n * n * sizeof *j.X);
        if (wanted("dtrsm")) {
            j.X0 = matrix(n, 0, 5);
            time_calls(label, "dtrsm", n, repeats, 1.0 * n * n * n, trsm_prepare, trsm_call, &j,
                       trsm_check);
            free(j.X0);
        }
        if (j.potrf && wanted("dpotrf"))
            time_calls(label, "dpotrf", n, repeats, n * n * (n / 3.0), potrf_prepare, potrf_call,
                       &j, potrf_check);
        if ((j.gesv && wanted("dgesv")) || (j.gels && wanted("dgels"))) {
            j.X0 = matrix(n, 0, 6);
            j.b = malloc(n * sizeof *j.b);
            j.b0 = malloc(n * sizeof *j.b0);
            j.ipiv = malloc(n * sizeof *j.ipiv);
            if (!j.b || !j.b0 || !j.ipiv) {
                fprintf(stderr, "bench_legacy: no memory for n = %zu\n", n);
                return 1;
            }
            for (size_t i = 0; i < n; i++) /* b = A's first column + 1 */
                j.b0[i] = j.X0[i] + 1.0;
            if (j.gesv && wanted("dgesv"))
                time_calls(label, "dgesv", n, repeats, 2.0 * n * n * (n / 3.0) + 2.0 * n * n,
                           solve_prepare, gesv_call, &j, solve_check);
            if (j.gels && wanted("dgels")) {
                double q = 0;
                int one = 1, query = -1;
                j.gels("N", &j.n, &j.n, &one, j.X0, &j.n, j.b0, &j.n, &q, &query, &j.info, 1);
                j.lwork = q > 1 ? (int)q : (int)n;
                j.work = malloc((size_t)j.lwork * sizeof *j.work);
                time_calls(label, "dgels", n, repeats, 4.0 * n * n * (n / 3.0), solve_prepare,
                           gels_call, &j, solve_check);
                free(j.work);
            }
            free(j.X0);
            free(j.b0);
            free(j.b);
            free(j.ipiv);
        }
        free(j.L);
        free(j.X);
    }
    return 0;
}
