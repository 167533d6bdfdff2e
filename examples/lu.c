/* LU with partial pivoting from host memory, two ways.
 *
 * A sparse direct solver's front, m x m with k fully summed columns, factored
 * and updated the way MUMPS or SuperLU do it, every call composed with no
 * sync: DGETRF of the m x k panel, DLASWP of its pivots on the columns to the
 * right, DTRSM of the top k rows, DGEMM of the Schur complement, DGETRF of
 * that complement, DLASWP of its pivots on the panel's rows below k.  Then a
 * dense solve, DGESV of n x n with nrhs right-hand sides.  Residuals
 * (LAPACK's testers' ||P L U - A|| / (m eps ||A||) and ||A X - B|| /
 * (n eps ||A|| ||X||)) and rates are printed.
 *
 *   usage: lu [m [k [n [nrhs]]]]     (TESS_DEVICES etc. choose the devices) */
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

static double *random_matrix(int64_t m, int64_t n)
{
    double *A = malloc((size_t)(m * n) * sizeof *A);
    for (int64_t i = 0; A && i < m * n; i++)
        A[i] = rand() / (double)RAND_MAX - 0.5;
    return A;
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

/* ||P L U - A0|| / (m eps ||A0||), the m x m factors in F with pivots ipiv. */
static double lu_residual(int64_t m, const double *A0, const double *F, const int64_t *ipiv)
{
    size_t mm = (size_t)(m * m);
    double *L = calloc(mm, sizeof *L), *U = calloc(mm, sizeof *U), *R = malloc(mm * sizeof *R);
    if (!L || !U || !R)
        return INFINITY;
    for (int64_t j = 0; j < m; j++)
        for (int64_t i = 0; i < m; i++) {
            L[i + j * m] = i > j ? F[i + j * m] : i == j;
            U[i + j * m] = i <= j ? F[i + j * m] : 0;
        }
    memcpy(R, A0, mm * sizeof *R);
    for (int64_t i = 0; i < m; i++)
        cblas_dswap((int)m, R + i, (int)m, R + ipiv[i] - 1, (int)m);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)m, (int)m, -1, L, (int)m, U,
                (int)m, 1, R, (int)m);
    double r = frobenius(R, m, m) / (m * 0x1p-52 * frobenius(A0, m, m));
    free(L);
    free(U);
    free(R);
    return r;
}

static int front(int64_t m, int64_t k, double *res, double *secs)
{
    double *F = random_matrix(m, m), *F0 = F ? malloc((size_t)(m * m) * sizeof *F0) : NULL;
    int64_t *ipiv = malloc((size_t)m * sizeof *ipiv), info1 = -1, info2 = -1;
    if (!F0 || !ipiv)
        return 1;
    memcpy(F0, F, (size_t)(m * m) * sizeof *F);
    int64_t r = m - k;
    double t0 = now();
    CHECK(tess_dgetrf_async(m, k, F, m, ipiv, &info1));
    CHECK(tess_dlaswp_async(r, F + k * m, m, 1, k, ipiv, 1));
    CHECK(tess_dtrsm_async(TessLeft, TessLower, TessNoTrans, TessUnit, k, r, 1.0, F, m, F + k * m,
                           m));
    CHECK(tess_dgemm_async(TessNoTrans, TessNoTrans, r, r, k, -1.0, F + k, m, F + k * m, m, 1.0,
                           F + k + k * m, m));
    CHECK(tess_dgetrf_async(r, r, F + k + k * m, m, ipiv + k, &info2));
    CHECK(tess_dlaswp_async(k, F + k, m, 1, r, ipiv + k, 1));
    CHECK(tess_memory_coherent_async(TessAll, m, m, F, m, sizeof *F));
    CHECK(tess_memory_coherent_async(TessAll, m, 1, ipiv, m, sizeof *ipiv));
    CHECK(tess_sync());
    *secs = now() - t0;
    if (info1 || info2) {
        fprintf(stderr, "front: info %lld, %lld\n", (long long)info1, (long long)info2);
        return 1;
    }
    for (int64_t i = k; i < m; i++)
        ipiv[i] += k;
    *res = lu_residual(m, F0, F, ipiv);
    CHECK(tess_memory_invalidate(m, m, F, m, sizeof *F));
    CHECK(tess_memory_invalidate(m, 1, ipiv, m, sizeof *ipiv));
    free(F);
    free(F0);
    free(ipiv);
    return 0;
}

static int dense(int64_t n, int64_t nrhs, double *res, double *secs)
{
    double *A = random_matrix(n, n), *B = random_matrix(n, nrhs);
    double *A0 = malloc((size_t)(n * n) * sizeof *A0), *R = malloc((size_t)(n * nrhs) * sizeof *R);
    int64_t *ipiv = malloc((size_t)n * sizeof *ipiv), info = -1;
    if (!A || !B || !A0 || !R || !ipiv)
        return 1;
    memcpy(A0, A, (size_t)(n * n) * sizeof *A);
    memcpy(R, B, (size_t)(n * nrhs) * sizeof *B);
    double t0 = now();
    CHECK(tess_dgesv_async(n, nrhs, A, n, ipiv, B, n, &info));
    CHECK(tess_memory_coherent_async(TessAll, n, nrhs, B, n, sizeof *B));
    CHECK(tess_sync());
    *secs = now() - t0;
    if (info) {
        fprintf(stderr, "dgesv: info %lld\n", (long long)info);
        return 1;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)nrhs, (int)n, 1, A0, (int)n,
                B, (int)n, -1, R, (int)n);
    *res = frobenius(R, n, nrhs) / (n * 0x1p-52 * frobenius(A0, n, n) * frobenius(B, n, nrhs));
    CHECK(tess_memory_invalidate(n, n, A, n, sizeof *A));
    CHECK(tess_memory_invalidate(n, nrhs, B, n, sizeof *B));
    CHECK(tess_memory_invalidate(n, 1, ipiv, n, sizeof *ipiv));
    free(A);
    free(B);
    free(A0);
    free(R);
    free(ipiv);
    return 0;
}

int main(int argc, char **argv)
{
    int64_t m = argc > 1 ? atoll(argv[1]) : 1536, k = argc > 2 ? atoll(argv[2]) : 512;
    int64_t n = argc > 3 ? atoll(argv[3]) : 1536, nrhs = argc > 4 ? atoll(argv[4]) : 64;
    if (m < 1 || k < 1 || k >= m || n < 1 || nrhs < 1) {
        fprintf(stderr, "usage: %s [m [1 <= k < m [n >= 1 [nrhs >= 1]]]]\n", argv[0]);
        return 2;
    }
    srand(1);
    CHECK(tess_init(NULL));
    double res_front = 0, t_front = 0, res_dense = 0, t_dense = 0;
    if (front(m, k, &res_front, &t_front) || dense(n, nrhs, &res_dense, &t_dense))
        return 1;
    CHECK(tess_finalize());
    /* the front: the panel's LU, the TRSM, the GEMM and the complement's LU */
    double r = (double)(m - k), f_front = k * (double)k * (m - k / 3.0) + k * (double)k * r +
                                          2.0 * r * r * k + 2.0 * r * r * r / 3;
    double f_dense = 2.0 * n * (double)n * n / 3 + 2.0 * n * (double)n * nrhs;
    printf("front m = %lld, k = %lld: %.3f s, %.1f GFLOP/s, residual %.2g\n", (long long)m,
           (long long)k, t_front, f_front / t_front * 1e-9, res_front);
    printf("dgesv n = %lld, nrhs = %lld: %.3f s, %.1f GFLOP/s, residual %.2g\n", (long long)n,
           (long long)nrhs, t_dense, f_dense / t_dense * 1e-9, res_dense);
    int ok = res_front < 30 && res_dense < 30;
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
