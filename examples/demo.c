/* Tessera's main demo: four dependent DGEMM calls composed with no barrier
 * (each reads what an earlier one wrote), one coherent request for the final
 * output, one sync.  The result is checked against OpenBLAS, and the time,
 * the rate and the transfer volumes are printed.
 *
 *   usage: demo [n]        (TESS_DEVICES etc. choose the devices) */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tessera.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double *random_matrix(int64_t n, unsigned seed)
{
    double *A = malloc((size_t)(n * n) * sizeof *A);
    srand(seed);
    for (int64_t i = 0; i < n * n; i++)
        A[i] = rand() / (double)RAND_MAX - 0.5;
    return A;
}

static double frobenius(const double *A, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n * n; i++)
        s += A[i] * A[i];
    return sqrt(s);
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        int err_ = (call);                                                                         \
        if (err_) {                                                                                \
            fprintf(stderr, "%s: %s\n", #call, tess_strerror(err_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 1500;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n >= 1]\n", argv[0]);
        return 2;
    }
    const enum CBLAS_ORDER L = CblasColMajor;
    const enum CBLAS_TRANSPOSE N = CblasNoTrans, T = CblasTrans;
    double *A = random_matrix(n, 1), *B = random_matrix(n, 2);
    double *X = calloc((size_t)(n * n), sizeof *X), *Y = calloc((size_t)(n * n), sizeof *Y);
    double *Z = random_matrix(n, 3);
    double *Zref = malloc((size_t)(n * n) * sizeof *Zref);
    memcpy(Zref, Z, (size_t)(n * n) * sizeof *Z);

    CHECK(tess_init(NULL));
    double t0 = now();
    /* X = A B;  Y = X^T A;  Z = Y B - 0.5 Z;  X = Z A + X  (each reads the last) */
    CHECK(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1.0, A, n, B, n, 0.0, X, n));
    CHECK(tess_dgemm_async(TessTrans, TessNoTrans, n, n, n, 1.0, X, n, A, n, 0.0, Y, n));
    CHECK(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1.0, Y, n, B, n, -0.5, Z, n));
    CHECK(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1.0, Z, n, A, n, 1.0, X, n));
    CHECK(tess_memory_coherent_async(TessAll, n, n, X, n, sizeof *X));
    CHECK(tess_sync());
    double elapsed = now() - t0;

    tess_stats_t s;
    CHECK(tess_get_stats(&s));

    double *Xr = calloc((size_t)(n * n), sizeof *Xr), *Yr = malloc((size_t)(n * n) * sizeof *Yr);
    cblas_dgemm(L, N, N, n, n, n, 1.0, A, n, B, n, 0.0, Xr, n);
    cblas_dgemm(L, T, N, n, n, n, 1.0, Xr, n, A, n, 0.0, Yr, n);
    cblas_dgemm(L, N, N, n, n, n, 1.0, Yr, n, B, n, -0.5, Zref, n);
    cblas_dgemm(L, N, N, n, n, n, 1.0, Zref, n, A, n, 1.0, Xr, n);
    double diff = 0;
    for (int64_t i = 0; i < n * n; i++)
        diff += (X[i] - Xr[i]) * (X[i] - Xr[i]);
    /* four products deep; normwise residual relative to the chain's scale */
    double resid = sqrt(diff) / (4.0 * n * 2.2e-16 * frobenius(Zref, n) * frobenius(A, n) + 1e-300);

    double flops = 4 * 2.0 * n * n * n;
    printf("tessera demo: 4 chained DGEMMs, n = %lld, %d %s device(s)\n", (long long)n, s.ndevices,
           getenv("TESS_DEVICES") ? getenv("TESS_DEVICES") : "auto");
    printf("time            %.3f s\n", elapsed);
    printf("rate            %.1f GFLOP/s\n", flops / elapsed * 1e-9);
    printf("host->device    %.1f MB (the inputs A, B, Z: %.1f MB)\n", s.bytes_h2d / 1e6,
           3.0 * n * n * 8 / 1e6);
    printf("device->host    %.1f MB (the output X: %.1f MB)\n", s.bytes_d2h / 1e6,
           1.0 * n * n * 8 / 1e6);
    printf("device->device  %.1f MB\n", s.bytes_d2d / 1e6);
    printf("cache           %llu hits, %llu misses, %llu evictions\n",
           (unsigned long long)s.cache_hits, (unsigned long long)s.cache_misses,
           (unsigned long long)s.evictions);
    for (int i = 0; i < s.ndevices; i++)
        printf("device %d        %llu tasks (%llu stolen), busy %.3f s\n", i,
               (unsigned long long)s.tasks[i], (unsigned long long)s.steals[i], s.busy_s[i]);
    printf("residual        %.2e (bound 10): %s\n", resid, resid < 10 ? "PASS" : "FAIL");

    CHECK(tess_finalize());
    free(A);
    free(B);
    free(X);
    free(Y);
    free(Z);
    free(Zref);
    free(Xr);
    free(Yr);
    return resid < 10 ? 0 : 1;
}
