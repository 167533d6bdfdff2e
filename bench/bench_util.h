/* Timing, data, command-line and CSV helpers shared by the benchmark drivers. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static inline double *bench_matrix(long n, unsigned seed)
{
    double *A = malloc((size_t)n * (size_t)n * sizeof *A);
    if (!A)
        return NULL;
    /* xorshift: the 32768^2 operands fill in seconds, not a minute as with rand() */
    uint64_t x = 0x9e3779b97f4a7c15ull * (seed + 1);
    for (long i = 0; i < n * n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        A[i] = (double)(x >> 11) * 0x1.0p-53 - 0.5;
    }
    return A;
}

/* Opens dir/name for the CSV; dir defaults to the working directory. */
static inline FILE *bench_csv(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "cannot write %s\n", path);
    return f;
}

/* malloc that ends the benchmark, naming prog, when the host is out of memory. */
static inline void *bench_xmalloc(const char *prog, size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "%s: out of host memory (%.2f GB)\n", prog, bytes / 1e9);
        exit(1);
    }
    return p;
}

typedef struct {
    double *p;
    size_t n;
    uint64_t seed;
} bench_fill_job_t;

static inline void *bench_fill_main(void *arg)
{
    bench_fill_job_t *j = arg;
    uint64_t x = j->seed;
    for (size_t i = 0; i < j->n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        j->p[i] = (double)(x >> 11) * 0x1.0p-53 - 0.5;
    }
    return NULL;
}

/* elems doubles uniform in [-0.5, 0.5), filled by one thread per core: a
 * 32768^2 matrix then takes a fraction of a second, not seconds. */
static inline double *bench_host_array(const char *prog, size_t elems, unsigned seed)
{
    double *p = bench_xmalloc(prog, elems * sizeof *p);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = cores < 1 ? 1 : cores > 32 ? 32 : (int)cores;
    pthread_t th[32];
    bool started[32];
    bench_fill_job_t jobs[32];
    size_t chunk = (elems + nt - 1) / nt;
    for (int t = 0; t < nt; t++) {
        size_t lo = t * chunk < elems ? t * chunk : elems;
        size_t hi = lo + chunk < elems ? lo + chunk : elems;
        /* distinct nonzero xorshift states per chunk */
        uint64_t state = 0x9e3779b97f4a7c15ull * (seed + 1) ^ 0xbf58476d1ce4e5b9ull * (t + 1);
        jobs[t] = (bench_fill_job_t){ p + lo, hi - lo, state | 1 };
        started[t] = !pthread_create(&th[t], NULL, bench_fill_main, &jobs[t]);
        if (!started[t])
            bench_fill_main(&jobs[t]);
    }
    for (int t = 0; t < nt; t++)
        if (started[t])
            pthread_join(th[t], NULL);
    return p;
}

/* A comma list of positive integers into v (at most max): their count, or
 * -1 when s is not one. */
static inline int bench_parse_list(const char *s, int *v, int max)
{
    int k = 0;
    while (*s && k < max) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x <= 0)
            return -1;
        v[k++] = (int)x;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return *s ? -1 : k;
}

/* A driver's option --name: a flag that stores value in *(bool *)to, or one
 * taking a value: an int in [lo, hi], a double above lo, a string, or a
 * comma list of at most hi positive ints (their count in *count). */
typedef enum { BENCH_FLAG, BENCH_INT, BENCH_DOUBLE, BENCH_STRING, BENCH_LIST } bench_opt_kind_t;
typedef struct {
    const char *name;
    bench_opt_kind_t kind;
    void *to;
    double lo, hi;
    bool value; /* BENCH_FLAG */
    int *count; /* BENCH_LIST */
} bench_opt_t;

static inline bool bench_set_option(const bench_opt_t *o, const char *v)
{
    char *end;
    switch (o->kind) {
    case BENCH_FLAG: *(bool *)o->to = o->value; return true;
    case BENCH_STRING: *(const char **)o->to = v; return true;
    case BENCH_LIST: *o->count = bench_parse_list(v, o->to, (int)o->hi); return *o->count >= 1;
    case BENCH_INT: {
        long x = strtol(v, &end, 10);
        *(int *)o->to = (int)x;
        return end != v && !*end && x >= o->lo && x <= o->hi;
    }
    default: {
        double x = strtod(v, &end);
        *(double *)o->to = x;
        return end != v && !*end && x > o->lo;
    }
    }
}

/* The options before the first argument that does not start with "--":
 * returns that argument's index; 0 after --help (usage on stdout); -1 for a
 * bad or unknown option, reported on stderr with the usage. */
static inline int bench_parse_options(int argc, char **argv, const bench_opt_t *opts, int nopts,
                                      void (*usage)(FILE *, const char *))
{
    int ai = 1;
    for (; ai < argc && !strncmp(argv[ai], "--", 2); ai++) {
        if (!strcmp(argv[ai], "--help")) {
            usage(stdout, argv[0]);
            return 0;
        }
        const char *name = argv[ai];
        const bench_opt_t *o = opts;
        while (o < opts + nopts && strcmp(name, o->name))
            o++;
        bool takes = o < opts + nopts && o->kind != BENCH_FLAG;
        const char *v = takes && ai + 1 < argc ? argv[++ai] : NULL;
        if (o == opts + nopts || (takes && !v) || !bench_set_option(o, v)) {
            fprintf(stderr, "%s: bad option %s%s%s\n", argv[0], name, v ? " " : "", v ? v : "");
            usage(stderr, argv[0]);
            return -1;
        }
    }
    return ai;
}

/* TESS_DEVICES for the first ngpu of the have GPUs: "cuda" for all of several,
 * else "cuda:0,1,...". */
static inline void bench_cuda_devices(int ngpu, int have, char *buf, size_t size)
{
    if (ngpu > 1 && ngpu == have) {
        snprintf(buf, size, "cuda");
        return;
    }
    int at = snprintf(buf, size, "cuda:0");
    for (int i = 1; i < ngpu && at < (int)size; i++)
        at += snprintf(buf + at, size - (size_t)at, ",%d", i);
}

#endif
