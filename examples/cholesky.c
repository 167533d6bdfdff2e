/* The Cholesky family from host memory: a symmetric positive definite matrix
 * is factored (DPOTRF), a block of right-hand sides solved with the factor
 * (DPOTRS) and the matrix inverted from it (DPOTRI), the three calls composed
 * with no sync between the first two.  Residuals against the original
 * matrix and the rates are printed.
 *
 *   usage: cholesky [n [nrhs]]     (TESS_DEVICES etc. choose the devices) */
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

static double frobenius(const double *A, int64_t m, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < m * n; i++)
        s += A[i] * A[i];
    return sqrt(s);
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        int err_ = (call);                                                                         \
        if (err_) {                                                                                \
            fprintf(stderr, "%s: %s\n", #call,                                                     \
                    err_ < 0 ? "invalid argument" : tess_strerror(err_));                          \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 1024, nrhs = argc > 2 ? atoll(argv[2]) : 64;
    if (n < 1 || nrhs < 1) {
        fprintf(stderr, "usage: %s [n >= 1 [nrhs >= 1]]\n", argv[0]);
        return 2;
    }
    size_t nn = (size_t)(n * n), nb = (size_t)(n * nrhs);
    double *A0 = malloc(nn * sizeof *A0), *A = malloc(nn * sizeof *A);
    double *B0 = malloc(nb * sizeof *B0), *B = malloc(nb * sizeof *B);
    double *R = malloc((nn > nb ? nn : nb) * sizeof *R);
    if (!A0 || !A || !B0 || !B || !R)
        return 1;
    /* symmetric, n on the diagonal: positive definite and well conditioned */
    srand(1);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++)
            A0[i + j * n] = A0[j + i * n] = i == j ? (double)n : rand() / (double)RAND_MAX - 0.5;
    for (size_t i = 0; i < nb; i++)
        B0[i] = rand() / (double)RAND_MAX - 0.5;
    memcpy(A, A0, nn * sizeof *A);
    memcpy(B, B0, nb * sizeof *B);
    CHECK(tess_init(NULL));

    int64_t info_f = -1, info_i = -1;
    double t0 = now();
    CHECK(tess_dpotrf_async(TessLower, n, A, n, &info_f));
    CHECK(tess_dpotrs_async(TessLower, n, nrhs, A, n, B, n));
    CHECK(tess_memory_coherent_async(TessAll, n, nrhs, B, n, sizeof *B));
    CHECK(tess_sync());
    double t_solve = now() - t0;
    if (info_f) {
        fprintf(stderr, "dpotrf: info %lld\n", (long long)info_f);
        return 1;
    }
    /* ||A0 X - B0|| / (n eps ||A0|| ||X||) */
    memcpy(R, B0, nb * sizeof *R);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)nrhs, (int)n, 1, A0, (int)n,
                B, (int)n, -1, R, (int)n);
    double eps = 0x1p-52, na = frobenius(A0, n, n);
    double res_solve = frobenius(R, n, nrhs) / (n * eps * na * frobenius(B, n, nrhs));

    t0 = now();
    CHECK(tess_dpotri_async(TessLower, n, A, n, &info_i));
    CHECK(tess_memory_coherent_async(TessLowerPart, n, n, A, n, sizeof *A));
    CHECK(tess_sync());
    double t_inv = now() - t0;
    if (info_i) {
        fprintf(stderr, "dpotri: info %lld\n", (long long)info_i);
        return 1;
    }
    /* ||A0 Ainv - I|| / (n eps ||A0|| ||Ainv||), Ainv from its lower triangle */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < j; i++)
            A[i + j * n] = A[j + i * n];
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            R[i + j * n] = i == j;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1, A0, (int)n, A,
                (int)n, -1, R, (int)n);
    double res_inv = frobenius(R, n, n) / (n * eps * na * frobenius(A, n, n));

    double f_solve = n * (double)n * n / 3 + 2.0 * n * n * nrhs, f_inv = 2.0 * n * n * n / 3;
    printf("n = %lld, nrhs = %lld\n", (long long)n, (long long)nrhs);
    printf("dpotrf + dpotrs: %.3f s, %.1f GFLOP/s, residual %.2g\n", t_solve,
           f_solve / t_solve * 1e-9, res_solve);
    printf("dpotri:          %.3f s, %.1f GFLOP/s, residual %.2g\n", t_inv, f_inv / t_inv * 1e-9,
           res_inv);
    CHECK(tess_finalize());
    int ok = res_solve < 30 && res_inv < 30;
    printf("%s\n", ok ? "PASSED" : "FAILED");
    free(A0);
    free(A);
    free(B0);
    free(B);
    free(R);
    return ok ? 0 : 1;
}
