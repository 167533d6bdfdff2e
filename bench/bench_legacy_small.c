/* The per-call cost of small BLAS calls through a BLAS library against the
 * host BLAS called directly, in one process: both opened with dlopen, each
 * routine timed on the same operands, in alternating batches.
 *
 *   bench_legacy_small LIBRARY HOST_BLAS [MS_PER_BATCH]
 *
 * For DGEMM, DTRSM, DSYRK, ZGEMM and DGEMV at n = 2, 8, 32 and 128, one CSV
 * line each on stdout:
 *   routine,n,library_ns,host_ns,ratio
 * (the best of fifteen batches' mean time per call, and library over host),
 * then whether DGEMM at n = 8 meets its target: at most 1.3 times the host
 * BLAS (a call that stays on the host BLAS pays for nothing else). */
#include <complex.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TARGET_RATIO 1.3
enum { NMAX = 128, BATCHES = 15 };

typedef void (*dgemm_t)(const char *, const char *, const int *, const int *, const int *,
                        const double *, const double *, const int *, const double *, const int *,
                        const double *, double *, const int *, size_t, size_t);
typedef void (*zgemm_t)(const char *, const char *, const int *, const int *, const int *,
                        const double complex *, const double complex *, const int *,
                        const double complex *, const int *, const double complex *,
                        double complex *, const int *, size_t, size_t);
typedef void (*dtrsm_t)(const char *, const char *, const char *, const char *, const int *,
                        const int *, const double *, const double *, const int *, double *,
                        const int *, size_t, size_t, size_t, size_t);
typedef void (*dsyrk_t)(const char *, const char *, const int *, const int *, const double *,
                        const double *, const int *, const double *, double *, const int *, size_t,
                        size_t);
typedef void (*dgemv_t)(const char *, const int *, const int *, const double *, const double *,
                        const int *, const double *, const int *, const double *, double *,
                        const int *, size_t);

typedef struct {
    dgemm_t dgemm;
    zgemm_t zgemm;
    dtrsm_t dtrsm;
    dsyrk_t dsyrk;
    dgemv_t dgemv;
} blas_t;

static const char *const names[] = { "dgemm_", "zgemm_", "dtrsm_", "dsyrk_", "dgemv_" };
enum { NROUT = sizeof names / sizeof *names };

static double A[NMAX * NMAX], B[NMAX * NMAX], C[NMAX * NMAX], L[NMAX * NMAX];
static double complex ZA[NMAX * NMAX], ZB[NMAX * NMAX], ZC[NMAX * NMAX];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int open_blas(const char *path, blas_t *b)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "bench_legacy_small: %s\n", dlerror());
        return 1;
    }
    void **slot = (void **)b;
    for (int r = 0; r < NROUT; r++)
        if (!(slot[r] = dlsym(h, names[r]))) {
            fprintf(stderr, "bench_legacy_small: %s lacks %s\n", path, names[r]);
            return 1;
        }
    return 0;
}

/* One call of routine r at size n.  Every output is overwritten (beta 0) or
 * solved against a unit lower triangle, so repeated calls keep its values. */
static void call(const blas_t *b, int r, int n)
{
    double one = 1, zero = 0;
    double complex zone = 1, zzero = 0;
    int inc = 1;
    switch (r) {
    case 0: b->dgemm("N", "N", &n, &n, &n, &one, A, &n, B, &n, &zero, C, &n, 1, 1); break;
    case 1: b->zgemm("N", "N", &n, &n, &n, &zone, ZA, &n, ZB, &n, &zzero, ZC, &n, 1, 1); break;
    case 2: b->dtrsm("L", "L", "N", "U", &n, &n, &one, L, &n, C, &n, 1, 1, 1, 1); break;
    case 3: b->dsyrk("L", "N", &n, &n, &one, A, &n, &zero, C, &n, 1, 1); break;
    default: b->dgemv("N", &n, &n, &one, A, &n, B, &inc, &zero, C, &inc, 1); break;
    }
}

/* Mean seconds per call over a batch of count calls. */
static double batch(const blas_t *b, int r, int n, long count)
{
    double t0 = now();
    for (long i = 0; i < count; i++)
        call(b, r, n);
    return (now() - t0) / (double)count;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIBRARY HOST_BLAS [MS_PER_BATCH]\n", argv[0]);
        return 2;
    }
    double batch_s = (argc > 3 ? atof(argv[3]) : 20) * 1e-3;
    blas_t lib, host;
    if (open_blas(argv[1], &lib) || open_blas(argv[2], &host))
        return 1;
    for (int i = 0; i < NMAX * NMAX; i++) {
        A[i] = (double)(i % 7) / 7 - 0.5;
        B[i] = (double)(i % 5) / 5 - 0.5;
        L[i] = 0;
        ZA[i] = A[i] + I * B[i];
        ZB[i] = B[i] - I * A[i];
    }
    for (int i = 0; i < NMAX; i++)
        L[i + i * NMAX] = 1;
    static const int sizes[] = { 2, 8, 32, 128 };
    double target = 0;
    printf("routine,n,library_ns,host_ns,ratio\n");
    for (int r = 0; r < NROUT; r++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            int n = sizes[s];
            /* calls per batch: about batch_s of the host BLAS, after a warm-up */
            double t = batch(&host, r, n, 10);
            batch(&lib, r, n, 10);
            long count = (long)(batch_s / t) + 1;
            double best_lib = 1e30, best_host = 1e30, x;
            for (int k = 0; k < BATCHES; k++) {
                if ((x = batch(&lib, r, n, count)) < best_lib)
                    best_lib = x;
                if ((x = batch(&host, r, n, count)) < best_host)
                    best_host = x;
            }
            double ratio = best_lib / best_host;
            printf("%.5s,%d,%.1f,%.1f,%.2f\n", names[r], n, best_lib * 1e9, best_host * 1e9, ratio);
            if (r == 0 && n == 8)
                target = ratio;
        }
    printf("# dgemm n=8: %.2fx the host BLAS (target <= %.1f): %s\n", target, TARGET_RATIO,
           target <= TARGET_RATIO ? "met" : "missed");
    /* What would explain a gap: the library asks about pointers once CUDA is
     * initialised (the driver, which cuBLAS loads, answers cuDeviceGetCount
     * with CUDA_ERROR_NOT_INITIALIZED, 3, until then), and takes the host BLAS
     * by name unless TESS_BLAS_LIB says otherwise. */
    void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    int (*count)(int *) = NULL;
    if (cuda)
        *(void **)&count = dlsym(cuda, "cuDeviceGetCount");
    int devices;
    bool initialised = count && count(&devices) != 3;
    const char *by_name = getenv("TESS_BLAS_LIB");
    void *named =
        dlopen(by_name && *by_name ? by_name : "libopenblas.so.0", RTLD_LAZY | RTLD_NOLOAD);
    void *given = dlopen(argv[2], RTLD_LAZY | RTLD_NOLOAD);
    printf("# CUDA driver loaded: %s, initialised: %s; the library's host BLAS is %s\n",
           cuda ? "yes" : "no", initialised ? "yes" : "no",
           named && named == given ? "HOST_BLAS" : "another library (or none)");
    return 0;
}
