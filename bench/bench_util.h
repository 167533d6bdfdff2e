/* Timing and CSV helpers shared by the benchmark drivers. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

#endif
