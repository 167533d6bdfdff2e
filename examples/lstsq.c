/* A tall least-squares fit from host memory: a smooth signal sampled at m
 * points with noise, fitted by the first n Chebyshev polynomials, all
 * nrhs signals at once, with DGELS.  The checks are the normal equations'
 * orthogonality, ||A^T r|| / (max(m, n, nrhs) eps ||A|| ||B||) (LAPACK's
 * testers' xQRT17 ratio, below 30), and the residual's norm against the one
 * DGELS leaves in B's rows after X; the fit's RMS error against the noise's
 * level and the rate are printed.
 *
 *   usage: lstsq [m [n [nrhs]]]     (TESS_DEVICES etc. choose the devices) */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tessera.h"

#define NOISE 1e-3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double frobenius(const double *A, int64_t m, int64_t n, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            s += A[i + j * ld] * A[i + j * ld];
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

/* A(i, j) = T_j(x_i) at m points x_i spread over [-1, 1]; B(:, s) = signal s at the points
 * with uniform noise of amplitude NOISE. */
static void fill(int64_t m, int64_t n, int64_t nrhs, double *A, double *B)
{
    for (int64_t i = 0; i < m; i++) {
        double x = -1 + 2 * (i + rand() / (double)RAND_MAX) / (double)m;
        A[i] = 1;
        if (n > 1)
            A[i + m] = x;
        for (int64_t j = 2; j < n; j++)
            A[i + j * m] = 2 * x * A[i + (j - 1) * m] - A[i + (j - 2) * m];
        for (int64_t s = 0; s < nrhs; s++)
            B[i + s * m] =
                exp(x) * sin((double)(s + 3) * x) + NOISE * (2 * rand() / (double)RAND_MAX - 1);
    }
}

int main(int argc, char **argv)
{
    int64_t m = argc > 1 ? atoll(argv[1]) : 8192, n = argc > 2 ? atoll(argv[2]) : 256;
    int64_t nrhs = argc > 3 ? atoll(argv[3]) : 4;
    if (n < 1 || m < n || nrhs < 1) {
        fprintf(stderr, "usage: %s [m >= n [n >= 1 [nrhs >= 1]]]\n", argv[0]);
        return 2;
    }
    size_t an = (size_t)(m * n), bn = (size_t)(m * nrhs);
    double *A = malloc(an * sizeof *A), *A0 = malloc(an * sizeof *A0);
    double *B = malloc(bn * sizeof *B), *R = malloc(bn * sizeof *R);
    double *W = malloc((size_t)(n * nrhs) * sizeof *W);
    int64_t info = -1;
    if (!A || !A0 || !B || !R || !W)
        return 1;
    srand(1);
    fill(m, n, nrhs, A, B);
    memcpy(A0, A, an * sizeof *A);
    memcpy(R, B, bn * sizeof *B);
    CHECK(tess_init(NULL));
    double t0 = now();
    CHECK(tess_dgels_async(TessNoTrans, m, n, nrhs, A, m, B, m, &info));
    CHECK(tess_memory_coherent_async(TessAll, m, nrhs, B, m, sizeof *B));
    CHECK(tess_sync());
    double secs = now() - t0;
    if (info) {
        fprintf(stderr, "dgels: info %lld\n", (long long)info);
        return 1;
    }
    CHECK(tess_memory_invalidate(m, n, A, m, sizeof *A));
    CHECK(tess_memory_invalidate(m, nrhs, B, m, sizeof *B));
    CHECK(tess_finalize());
    /* r = B0 - A0 X, then W = A0^T r */
    double normb = frobenius(R, m, nrhs, m), norma = frobenius(A0, m, n, m);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)nrhs, (int)n, -1, A0,
                (int)m, B, (int)m, 1, R, (int)m);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)nrhs, (int)m, 1, A0, (int)m,
                R, (int)m, 0, W, (int)n);
    int64_t big = m > nrhs ? m : nrhs;
    double orth = frobenius(W, n, nrhs, n) / ((double)big * 0x1p-52 * norma * normb);
    double normr = frobenius(R, m, nrhs, m), left = frobenius(B + n, m - n, nrhs, m);
    double rows = fabs(normr - left) / ((double)m * 0x1p-52 * normb);
    double rms = normr / sqrt((double)m * (double)nrhs);
    /* GEQRF, ORMQR on B (Q^T B) and the solve with R */
    double flops = 2.0 * m * (double)n * n - 2.0 * n * (double)n * n / 3 +
                   nrhs * (4.0 * m * (double)n - 2.0 * n * (double)n + (double)n * n);
    printf("dgels m = %lld, n = %lld, nrhs = %lld: %.3f s, %.1f GFLOP/s\n", (long long)m,
           (long long)n, (long long)nrhs, secs, flops / secs * 1e-9);
    printf("fit RMS error %.3g (noise RMS %.3g), ||A^T r|| ratio %.2g, residual rows %.2g\n", rms,
           NOISE / sqrt(3.0), orth, rows);
    int ok = orth < 30 && rows < 30;
    printf("%s\n", ok ? "PASSED" : "FAILED");
    free(A);
    free(A0);
    free(B);
    free(R);
    free(W);
    return ok ? 0 : 1;
}
