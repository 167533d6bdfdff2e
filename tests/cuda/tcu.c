/* Helpers for the device-kernel tests (see tcu.h). */
#include "tcu.h"
#include "host/host_blas.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const tcu_type_t tcu_types[KERN_NTYPES] = {
    [KERN_S] = { KERN_S, "s", sizeof(float), false, FLT_EPSILON },
    [KERN_D] = { KERN_D, "d", sizeof(double), false, DBL_EPSILON },
    [KERN_C] = { KERN_C, "c", sizeof(float _Complex), true, FLT_EPSILON },
    [KERN_Z] = { KERN_Z, "z", sizeof(double _Complex), true, DBL_EPSILON },
};

bool tcu_have_gpu(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

void tcu_seed(uint64_t seed)
{
    rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
}

static double rand_unit(void)
{
    /* xorshift64*: plenty for test data, and the same sequence everywhere */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545f4914f6cdd1dull) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

double _Complex tcu_rand(void)
{
    const double re = rand_unit();
    return re + rand_unit() * I;
}

void *tcu_alloc(const tcu_type_t *t, int64_t ld, int64_t n)
{
    void *p = malloc((size_t)(ld * (n > 0 ? n : 1)) * t->es);
    assert_non_null(p);
    return p;
}

double _Complex tcu_get(const tcu_type_t *t, const void *A, int64_t i, int64_t j, int64_t ld)
{
    const int64_t k = i + j * ld;
    switch (t->t) {
    case KERN_S: return ((const float *)A)[k];
    case KERN_D: return ((const double *)A)[k];
    case KERN_C: return ((const float _Complex *)A)[k];
    default: return ((const double _Complex *)A)[k];
    }
}

void tcu_set(const tcu_type_t *t, void *A, int64_t i, int64_t j, int64_t ld, double _Complex v)
{
    const int64_t k = i + j * ld;
    switch (t->t) {
    case KERN_S: ((float *)A)[k] = (float)creal(v); break;
    case KERN_D: ((double *)A)[k] = creal(v); break;
    case KERN_C: ((float _Complex *)A)[k] = (float _Complex)v; break;
    default: ((double _Complex *)A)[k] = v; break;
    }
}

void tcu_scalar(const tcu_type_t *t, double _Complex v, void *out)
{
    tcu_set(t, out, 0, 0, 1, v);
}

void *tcu_random(const tcu_type_t *t, int64_t m, int64_t n, int64_t ld, double _Complex pad)
{
    void *A = tcu_alloc(t, ld, n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++)
            tcu_set(t, A, i, j, ld, i < m ? tcu_rand() : pad);
    return A;
}

void *tcu_copy(const tcu_type_t *t, const void *A, int64_t ld, int64_t n)
{
    void *B = tcu_alloc(t, ld, n);
    memcpy(B, A, (size_t)(ld * n) * t->es);
    return B;
}

double tcu_norm(const tcu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            const double a = cabs(tcu_get(t, A, i, j, ld));
            s += a * a;
        }
    return sqrt(s);
}

double tcu_diff(const tcu_type_t *t, const void *A, const void *B, int64_t m, int64_t n, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            const double a = cabs(tcu_get(t, A, i, j, ld) - tcu_get(t, B, i, j, ld));
            s += a * a;
        }
    return sqrt(s); /* NaN anywhere makes the result NaN, and every bound check fail */
}

bool tcu_pad_intact(const tcu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld,
                    double _Complex v)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = m; i < ld; i++)
            if (tcu_get(t, A, i, j, ld) != v)
                return false;
    return true;
}

void *tcu_to_device(const tcu_type_t *t, const void *A, int64_t ld, int64_t n)
{
    void *d = NULL;
    const size_t bytes = (size_t)(ld * (n > 0 ? n : 1)) * t->es;
    assert_int_equal(cudaMalloc(&d, bytes), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, A, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

void *tcu_to_host(const tcu_type_t *t, const void *dA, int64_t ld, int64_t n)
{
    void *A = tcu_alloc(t, ld, n);
    assert_int_equal(cudaMemcpy(A, dA, (size_t)(ld * n) * t->es, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    return A;
}

void tcu_free_device(void *dA)
{
    assert_int_equal(cudaFree(dA), cudaSuccess);
}

int tcu_start(void)
{
    const char *f = getenv("TCU_FILTER");
    if (f && *f)
        cmocka_set_test_filter(f);
    return host_blas_open();
}

int64_t tcu_vec_span(int64_t len, int64_t inc)
{
    return 1 + (len - 1) * llabs(inc);
}

int tcu_trsm(const tcu_type_t *t, cudaStream_t s, tess_side_t side, tess_uplo_t uplo,
             tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha,
             const void *dA, int64_t lda, void *dB, int64_t ldb)
{
    switch (t->t) {
    case KERN_S:
        return tess_cuda_strsm(s, side, uplo, trans, diag, m, n, (float)creal(alpha), dA, lda, dB,
                               ldb);
    case KERN_D:
        return tess_cuda_dtrsm(s, side, uplo, trans, diag, m, n, creal(alpha), dA, lda, dB, ldb);
    case KERN_C:
        return tess_cuda_ctrsm(s, side, uplo, trans, diag, m, n, (float _Complex)alpha, dA, lda, dB,
                               ldb);
    default: return tess_cuda_ztrsm(s, side, uplo, trans, diag, m, n, alpha, dA, lda, dB, ldb);
    }
}

int tcu_trmm(const tcu_type_t *t, cudaStream_t s, tess_side_t side, tess_uplo_t uplo,
             tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha,
             const void *dA, int64_t lda, void *dB, int64_t ldb)
{
    switch (t->t) {
    case KERN_S:
        return tess_cuda_strmm(s, side, uplo, trans, diag, m, n, (float)creal(alpha), dA, lda, dB,
                               ldb);
    case KERN_D:
        return tess_cuda_dtrmm(s, side, uplo, trans, diag, m, n, creal(alpha), dA, lda, dB, ldb);
    case KERN_C:
        return tess_cuda_ctrmm(s, side, uplo, trans, diag, m, n, (float _Complex)alpha, dA, lda, dB,
                               ldb);
    default: return tess_cuda_ztrmm(s, side, uplo, trans, diag, m, n, alpha, dA, lda, dB, ldb);
    }
}

int tcu_gemv(const tcu_type_t *t, cudaStream_t s, tess_trans_t trans, int64_t m, int64_t n,
             double _Complex alpha, const void *dA, int64_t lda, const void *dx, int64_t incx,
             double _Complex beta, void *dy, int64_t incy)
{
    switch (t->t) {
    case KERN_S:
        return tess_cuda_sgemv(s, trans, m, n, (float)creal(alpha), dA, lda, dx, incx,
                               (float)creal(beta), dy, incy);
    case KERN_D:
        return tess_cuda_dgemv(s, trans, m, n, creal(alpha), dA, lda, dx, incx, creal(beta), dy,
                               incy);
    case KERN_C:
        return tess_cuda_cgemv(s, trans, m, n, (float _Complex)alpha, dA, lda, dx, incx,
                               (float _Complex)beta, dy, incy);
    default: return tess_cuda_zgemv(s, trans, m, n, alpha, dA, lda, dx, incx, beta, dy, incy);
    }
}

int tcu_symv(const tcu_type_t *t, cudaStream_t s, tess_uplo_t uplo, int64_t n,
             double _Complex alpha, const void *dA, int64_t lda, const void *dx, int64_t incx,
             double _Complex beta, void *dy, int64_t incy)
{
    switch (t->t) {
    case KERN_S:
        return tess_cuda_ssymv(s, uplo, n, (float)creal(alpha), dA, lda, dx, incx,
                               (float)creal(beta), dy, incy);
    case KERN_D:
        return tess_cuda_dsymv(s, uplo, n, creal(alpha), dA, lda, dx, incx, creal(beta), dy, incy);
    case KERN_C:
        return tess_cuda_chemv(s, uplo, n, (float _Complex)alpha, dA, lda, dx, incx,
                               (float _Complex)beta, dy, incy);
    default: return tess_cuda_zhemv(s, uplo, n, alpha, dA, lda, dx, incx, beta, dy, incy);
    }
}
