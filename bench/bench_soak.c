/* A soak run: several threads call random BLAS-3 routines (GEMM, SYRK, SYMM,
 * GEMMT, TRSM) on overlapping views of their own matrices for a given time,
 * ask for coherence and compare with the same calls on OpenBLAS, invalidate
 * regions and write new values there, and the process's memory (resident
 * set from /proc/self/statm, and heap in use) is printed as it goes: it must
 * stay flat once every view has been seen.
 *
 *   bench_soak [minutes [n [threads [seed]]]]       (1, 200, 3, 1)
 *
 * Devices, tile size and device memory come from the TESS_* variables; when
 * unset, TESS_NB is 32 and TESS_HOST_DEVICE_MEM 1M, so that a host run cuts
 * calls into many tasks and evicts.  On a GPU, set TESS_NB (e.g. 1024) and
 * give a larger n.  Exit status 0 when every call succeeded and every check
 * held. */
#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <tessera.h>
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
size_t __sanitizer_get_current_allocated_bytes(void); /* the sanitizers' runtime */
#else
#include <malloc.h>
#endif

#define SOAK_VIEWS 8  /* views of each thread's working matrix */
#define SOAK_TOL 1e-9 /* relative error against OpenBLAS */

typedef struct {
    double minutes;
    int64_t n;
    int threads;
    unsigned seed;
    double interval_s; /* between memory samples */
    double warm_s;     /* memory is compared from then on; 0: a quarter of
                                         * the run, at most a minute */
    bool quiet;        /* no lines as it goes */
} soak_opts_t;

typedef struct {
    uint64_t calls, checks, failed_checks;
    int first_error; /* the first call that did not return 0 */
    double max_error;
    double rss_warm_mb, rss_end_mb, heap_warm_mb, heap_end_mb, warm_s;
} soak_result_t;

/* An m x n window of a thread's n x n matrix at (i, j). */
typedef struct {
    int64_t i, j, m, n;
} view_t;

typedef struct {
    const soak_opts_t *o;
    unsigned rng;
    int64_t n;
    double *W, *Wr; /* working matrix and its OpenBLAS shadow */
    double *R, *T;  /* read only: general, and triangular near I */
    double *tmp;    /* n x n scratch for the GEMMT reference */
    view_t views[SOAK_VIEWS];
    atomic_bool *stop;
    atomic_uint_fast64_t calls, checks, failed_checks;
    atomic_int first_error;
    double max_error;
} soak_thread_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double rss_mb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1 << 20);
}

static double heap_mb(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return (double)__sanitizer_get_current_allocated_bytes() / (1 << 20);
#else
    struct mallinfo2 mi = mallinfo2();
    return (double)(mi.uordblks + mi.hblkhd) / (1 << 20);
#endif
}

static unsigned rnd(soak_thread_t *s, unsigned below)
{
    s->rng = s->rng * 1103515245u + 12345u;
    return (s->rng >> 8) % below;
}

static double uniform(soak_thread_t *s)
{
    return (double)rnd(s, 1u << 20) / (double)(1u << 19) - 1.0;
}

static void note(soak_thread_t *s, int err)
{
    int none = 0;
    atomic_fetch_add(&s->calls, 1);
    if (err)
        atomic_compare_exchange_strong(&s->first_error, &none, err);
}

static double *at(double *M, int64_t ld, int64_t i, int64_t j)
{
    return M + i + j * ld;
}

/* A size among a few, so that the views of the read-only operands are few
 * too: the runtime keeps every view it has seen until it is invalidated. */
static int64_t pick_k(soak_thread_t *s)
{
    int64_t n = s->n, ks[3] = { n / 4 + 1, n / 2, n - 5 };
    return ks[rnd(s, 3)];
}

static tess_uplo_t pick_uplo(soak_thread_t *s)
{
    return rnd(s, 2) ? TessUpper : TessLower;
}

static tess_trans_t pick_trans(soak_thread_t *s)
{
    return rnd(s, 2) ? TessTrans : TessNoTrans;
}

/* C (a view of W) = alpha op(A) op(B) + C / 2, A and B from R.  Views of W
 * are written over each other's data call after call, so that the runtime
 * orders them; operands are drawn from few shapes, so that after a warm-up
 * the runtime has seen every view the run uses. */
static void run_gemm(soak_thread_t *s, const view_t *c)
{
    int64_t n = s->n, k = pick_k(s);
    tess_trans_t ta = pick_trans(s), tb = pick_trans(s);
    double alpha = 1.0 / (double)k, beta = 0.5;
    double *C = at(s->W, n, c->i, c->j), *Cr = at(s->Wr, n, c->i, c->j);
    note(s, tess_dgemm_async(ta, tb, c->m, c->n, k, alpha, s->R, n, s->R, n, beta, C, n));
    cblas_dgemm(CblasColMajor, (CBLAS_TRANSPOSE)ta, (CBLAS_TRANSPOSE)tb, (int)c->m, (int)c->n,
                (int)k, alpha, s->R, (int)n, s->R, (int)n, beta, Cr, (int)n);
}

/* The square part of a view at its corner. */
static int64_t square(const view_t *c)
{
    return c->m < c->n ? c->m : c->n;
}

static void run_syrk(soak_thread_t *s, const view_t *c)
{
    int64_t n = s->n, m = square(c), k = pick_k(s);
    tess_uplo_t uplo = pick_uplo(s);
    tess_trans_t tr = pick_trans(s);
    double alpha = 1.0 / (double)k, beta = 0.5;
    double *C = at(s->W, n, c->i, c->j), *Cr = at(s->Wr, n, c->i, c->j);
    note(s, tess_dsyrk_async(uplo, tr, m, k, alpha, s->R, n, beta, C, n));
    cblas_dsyrk(CblasColMajor, (CBLAS_UPLO)uplo, (CBLAS_TRANSPOSE)tr, (int)m, (int)k, alpha, s->R,
                (int)n, beta, Cr, (int)n);
}

static void run_symm(soak_thread_t *s, const view_t *c)
{
    int64_t n = s->n;
    tess_side_t side = rnd(s, 2) ? TessLeft : TessRight;
    tess_uplo_t uplo = pick_uplo(s);
    double alpha = 1.0 / (double)(side == TessLeft ? c->m : c->n), beta = 0.5;
    double *C = at(s->W, n, c->i, c->j), *Cr = at(s->Wr, n, c->i, c->j);
    note(s, tess_dsymm_async(side, uplo, c->m, c->n, alpha, s->R, n, s->R, n, beta, C, n));
    cblas_dsymm(CblasColMajor, (CBLAS_SIDE)side, (CBLAS_UPLO)uplo, (int)c->m, (int)c->n, alpha,
                s->R, (int)n, s->R, (int)n, beta, Cr, (int)n);
}

/* OpenBLAS has no GEMMT: a GEMM into a copy, of which the triangle is kept. */
static void run_gemmt(soak_thread_t *s, const view_t *c)
{
    int64_t n = s->n, m = square(c), k = pick_k(s);
    tess_uplo_t uplo = pick_uplo(s);
    tess_trans_t ta = pick_trans(s), tb = pick_trans(s);
    double alpha = 1.0 / (double)k, beta = 0.5;
    double *C = at(s->W, n, c->i, c->j), *Cr = at(s->Wr, n, c->i, c->j);
    note(s, tess_dgemmt_async(uplo, ta, tb, m, k, alpha, s->R, n, s->R, n, beta, C, n));
    for (int64_t j = 0; j < m; j++)
        memcpy(s->tmp + j * m, Cr + j * n, (size_t)m * sizeof(double));
    cblas_dgemm(CblasColMajor, (CBLAS_TRANSPOSE)ta, (CBLAS_TRANSPOSE)tb, (int)m, (int)m, (int)k,
                alpha, s->R, (int)n, s->R, (int)n, beta, s->tmp, (int)m);
    for (int64_t j = 0; j < m; j++) {
        int64_t i0 = uplo == TessLower ? j : 0, i1 = uplo == TessLower ? m : j + 1;
        memcpy(Cr + i0 + j * n, s->tmp + i0 + j * m, (size_t)(i1 - i0) * sizeof(double));
    }
}

/* B (a view of W) = op(A)^-1 B in place, A a diagonal block of T, which is
 * near the identity so that repeated solves keep W's scale. */
static void run_trsm(soak_thread_t *s, const view_t *c)
{
    int64_t n = s->n;
    tess_side_t side = rnd(s, 2) ? TessLeft : TessRight;
    tess_uplo_t uplo = pick_uplo(s);
    tess_trans_t tr = pick_trans(s);
    int64_t ka = side == TessLeft ? c->m : c->n, d = (n - ka) / 2;
    const double *A = at(s->T, n, d, d);
    double *B = at(s->W, n, c->i, c->j), *Br = at(s->Wr, n, c->i, c->j);
    note(s, tess_dtrsm_async(side, uplo, tr, TessNonUnit, c->m, c->n, 1.0, A, n, B, n));
    cblas_dtrsm(CblasColMajor, (CBLAS_SIDE)side, (CBLAS_UPLO)uplo, (CBLAS_TRANSPOSE)tr,
                CblasNonUnit, (int)c->m, (int)c->n, 1.0, A, (int)n, Br, (int)n);
}

/* W made coherent and compared with its shadow. */
static void check(soak_thread_t *s)
{
    int64_t n = s->n;
    note(s, tess_memory_coherent_async(TessAll, n, n, s->W, n, sizeof(double)));
    note(s, tess_sync());
    double d = 0, r = 0;
    for (int64_t i = 0; i < n * n; i++) {
        d += (s->W[i] - s->Wr[i]) * (s->W[i] - s->Wr[i]);
        r += s->Wr[i] * s->Wr[i];
    }
    double e = sqrt(d) / (sqrt(r) + 1e-300);
    if (!(e <= s->max_error))
        s->max_error = e;
    atomic_fetch_add(&s->checks, 1);
    if (!(e < SOAK_TOL))
        atomic_fetch_add(&s->failed_checks, 1);
}

/* The host takes a region back and writes new values there. */
static void refill(soak_thread_t *s, const view_t *v)
{
    int64_t n = s->n;
    note(s, tess_memory_invalidate(v->m, v->n, at(s->W, n, v->i, v->j), n, sizeof(double)));
    for (int64_t j = v->j; j < v->j + v->n; j++)
        for (int64_t i = v->i; i < v->i + v->m; i++)
            s->W[i + j * n] = s->Wr[i + j * n] = uniform(s);
}

static void *soak_thread(void *arg)
{
    soak_thread_t *s = arg;
    while (!atomic_load(s->stop)) {
        const view_t *v = &s->views[rnd(s, SOAK_VIEWS)];
        unsigned op = rnd(s, 24);
        if (op < 5)
            run_gemm(s, v);
        else if (op < 9)
            run_syrk(s, v);
        else if (op < 13)
            run_symm(s, v);
        else if (op < 17)
            run_gemmt(s, v);
        else if (op < 21)
            run_trsm(s, v);
        else if (op < 23)
            check(s);
        else
            refill(s, v);
    }
    check(s);
    return NULL;
}

static int soak_thread_init(soak_thread_t *s, const soak_opts_t *o, unsigned seed)
{
    int64_t n = o->n;
    size_t bytes = (size_t)(n * n) * sizeof(double);
    *s = (soak_thread_t){ .o = o, .rng = seed * 2654435761u + 1, .n = n };
    s->W = malloc(bytes);
    s->Wr = malloc(bytes);
    s->R = malloc(bytes);
    s->T = malloc(bytes);
    s->tmp = malloc(bytes);
    if (!s->W || !s->Wr || !s->R || !s->T || !s->tmp)
        return -1;
    for (int64_t i = 0; i < n * n; i++) {
        s->W[i] = s->Wr[i] = uniform(s);
        s->R[i] = uniform(s);
        /* unit diagonal, rows of off-diagonal sums below 0.02: solves change
         * the scale by a few percent at most, which the other calls' beta
         * of 1/2 more than undo */
        s->T[i] = i % (n + 1) ? 0.02 / (double)n * uniform(s) : 1.0;
    }
    /* views from the first rows and columns: they overlap each other, the
     * full matrix among them */
    s->views[0] = (view_t){ 0, 0, n, n };
    for (int v = 1; v < SOAK_VIEWS; v++) {
        int64_t i = rnd(s, (unsigned)(n / 2)), j = rnd(s, (unsigned)(n / 2));
        s->views[v] = (view_t){ i, j, n / 4 + rnd(s, (unsigned)(n - i - n / 4)),
                                n / 4 + rnd(s, (unsigned)(n - j - n / 4)) };
    }
    return 0;
}

static void soak_thread_free(soak_thread_t *s)
{
    int64_t n = s->n;
    size_t es = sizeof(double);
    if (s->W) {
        note(s, tess_memory_invalidate(n, n, s->W, n, es));
        note(s, tess_memory_invalidate(n, n, s->R, n, es));
        note(s, tess_memory_invalidate(n, n, s->T, n, es));
    }
    free(s->W);
    free(s->Wr);
    free(s->R);
    free(s->T);
    free(s->tmp);
}

/* Runs the soak on an initialised runtime; 0 when every call and check held. */
static int soak_run(const soak_opts_t *o, soak_result_t *res)
{
    soak_thread_t *th = calloc((size_t)o->threads, sizeof *th);
    pthread_t *tid = calloc((size_t)o->threads, sizeof *tid);
    atomic_bool stop = false;
    int started = 0, ok = th && tid;
    memset(res, 0, sizeof *res);
    for (int t = 0; ok && t < o->threads; t++) {
        ok = !soak_thread_init(&th[t], o, o->seed + 1000u * (unsigned)t);
        th[t].stop = &stop;
        if (ok)
            ok = !pthread_create(&tid[t], NULL, soak_thread, &th[t]);
        started += ok;
    }
    double t0 = now_s(), total = o->minutes * 60;
    /* warm-up: until every view has been seen many times over */
    res->warm_s = o->warm_s > 0 ? o->warm_s : total / 4 < 60 ? total / 4 : 60;
    bool warm = false;
    if (!o->quiet)
        printf("%8s %12s %8s %10s %10s\n", "t_s", "calls", "checks", "rss_mb", "heap_mb");
    for (double next = o->interval_s; ok; next += o->interval_s) {
        double wait = t0 + next - now_s(), t = next;
        if (next > total) {
            wait = t0 + total - now_s();
            t = total;
        }
        if (wait > 0)
            nanosleep(
                &(struct timespec){ (time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9) },
                NULL);
        uint64_t calls = 0, checks = 0;
        for (int i = 0; i < started; i++) {
            calls += atomic_load(&th[i].calls);
            checks += atomic_load(&th[i].checks);
        }
        double rss = rss_mb(), heap = heap_mb();
        if (!warm && t >= res->warm_s) {
            warm = true;
            res->rss_warm_mb = rss;
            res->heap_warm_mb = heap;
        }
        res->rss_end_mb = rss;
        res->heap_end_mb = heap;
        if (!o->quiet) {
            printf("%8.0f %12llu %8llu %10.1f %10.1f\n", t, (unsigned long long)calls,
                   (unsigned long long)checks, rss, heap);
            fflush(stdout);
        }
        if (t >= total)
            break;
    }
    atomic_store(&stop, true);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    for (int t = 0; th && t < o->threads; t++) {
        res->calls += atomic_load(&th[t].calls);
        res->checks += atomic_load(&th[t].checks);
        res->failed_checks += atomic_load(&th[t].failed_checks);
        if (th[t].max_error > res->max_error)
            res->max_error = th[t].max_error;
        if (!res->first_error)
            res->first_error = atomic_load(&th[t].first_error);
        soak_thread_free(&th[t]);
        if (!res->first_error)
            res->first_error = atomic_load(&th[t].first_error);
    }
    free(th);
    free(tid);
    return ok && !res->first_error && !res->failed_checks && res->checks ? 0 : 1;
}

#ifndef SOAK_NO_MAIN
int main(int argc, char **argv)
{
    soak_opts_t o = { .minutes = argc > 1 ? atof(argv[1]) : 1,
                      .n = argc > 2 ? atoll(argv[2]) : 200,
                      .threads = argc > 3 ? atoi(argv[3]) : 3,
                      .seed = argc > 4 ? (unsigned)atoi(argv[4]) : 1,
                      .interval_s = 10 };
    if (!(o.minutes > 0) || o.n < 16 || o.threads < 1) {
        fprintf(stderr, "usage: %s [minutes [n >= 16 [threads [seed]]]]\n", argv[0]);
        return 2;
    }
    setenv("TESS_NB", "32", 0);
    setenv("TESS_HOST_DEVICE_MEM", "1M", 0);
    int err = tess_init(NULL);
    if (err) {
        fprintf(stderr, "tess_init: %s\n", tess_strerror(err));
        return 1;
    }
    tess_stats_t st;
    tess_get_stats(&st);
    printf("soak: %d threads, n %lld, %.2f min on %d device(s), TESS_NB %s\n", o.threads,
           (long long)o.n, o.minutes, st.ndevices, getenv("TESS_NB"));
    soak_result_t r;
    int bad = soak_run(&o, &r);
    tess_get_stats(&st);
    int ferr = tess_finalize();
    printf("soak: %llu calls, %llu checks (%llu failed, largest relative error %.1e), first "
           "error %d (%s), finalize %d\n",
           (unsigned long long)r.calls, (unsigned long long)r.checks,
           (unsigned long long)r.failed_checks, r.max_error, r.first_error,
           tess_strerror(r.first_error), ferr);
    printf("soak: evictions %llu, write-backs %llu\n", (unsigned long long)st.evictions,
           (unsigned long long)st.writebacks);
    printf("soak: after warm-up (%.0f s) rss %.1f MB heap %.1f MB; at the end rss %.1f MB "
           "(%+.1f) heap %.1f MB (%+.1f)\n",
           r.warm_s, r.rss_warm_mb, r.heap_warm_mb, r.rss_end_mb, r.rss_end_mb - r.rss_warm_mb,
           r.heap_end_mb, r.heap_end_mb - r.heap_warm_mb);
    return bad || ferr ? 1 : 0;
}
#endif
