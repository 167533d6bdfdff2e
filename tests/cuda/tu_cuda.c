/* The device side of the test helpers (see tu_cuda.h). */
#include "tu_cuda.h"
#include "host/host_blas.h"
#include <stdlib.h>

_Static_assert(KERN_S == 0 && KERN_D == 1 && KERN_C == 2 && KERN_Z == 3 && KERN_NTYPES == TU_NTYPES,
               "tu_types is in kern_type_t's order");

kern_type_t tu_kern(const tu_type_t *t)
{
    return (kern_type_t)(t - tu_types);
}

bool tu_have_gpu(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

void *tu_to_device(const tu_type_t *t, const void *A, int64_t ld, int64_t n)
{
    void *d = NULL;
    const size_t bytes = (size_t)(ld * (n > 0 ? n : 1)) * t->es;
    assert_int_equal(cudaMalloc(&d, bytes), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, A, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

void *tu_to_host(const tu_type_t *t, const void *dA, int64_t ld, int64_t n)
{
    void *A = tu_alloc(t, ld, n);
    assert_int_equal(cudaMemcpy(A, dA, (size_t)(ld * n) * t->es, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    return A;
}

void tu_free_device(void *dA)
{
    assert_int_equal(cudaFree(dA), cudaSuccess);
}

int tu_cuda_start(void)
{
    const char *f = getenv("TCU_FILTER");
    if (f && *f)
        cmocka_set_test_filter(f);
    return host_blas_open();
}

/* tu_cuda_trsm and tu_cuda_trmm: the same dispatch on the public names. */
#define TU_CUDA_TRXM(NAME)                                                                         \
    int tu_cuda_##NAME(const tu_type_t *t, cudaStream_t s, tess_side_t side, tess_uplo_t uplo,     \
                       tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,                 \
                       double _Complex alpha, const void *dA, int64_t lda, void *dB, int64_t ldb)  \
    {                                                                                              \
        switch (tu_kern(t)) {                                                                      \
        case KERN_S:                                                                               \
            return tess_cuda_s##NAME(s, side, uplo, trans, diag, m, n, (float)creal(alpha), dA,    \
                                     lda, dB, ldb);                                                \
        case KERN_D:                                                                               \
            return tess_cuda_d##NAME(s, side, uplo, trans, diag, m, n, creal(alpha), dA, lda, dB,  \
                                     ldb);                                                         \
        case KERN_C:                                                                               \
            return tess_cuda_c##NAME(s, side, uplo, trans, diag, m, n, (float _Complex)alpha, dA,  \
                                     lda, dB, ldb);                                                \
        default:                                                                                   \
            return tess_cuda_z##NAME(s, side, uplo, trans, diag, m, n, alpha, dA, lda, dB, ldb);   \
        }                                                                                          \
    }
TU_CUDA_TRXM(trsm)
TU_CUDA_TRXM(trmm)

int tu_cuda_gemv(const tu_type_t *t, cudaStream_t s, tess_trans_t trans, int64_t m, int64_t n,
                 double _Complex alpha, const void *dA, int64_t lda, const void *dx, int64_t incx,
                 double _Complex beta, void *dy, int64_t incy)
{
    switch (tu_kern(t)) {
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

int tu_cuda_symv(const tu_type_t *t, cudaStream_t s, tess_uplo_t uplo, int64_t n,
                 double _Complex alpha, const void *dA, int64_t lda, const void *dx, int64_t incx,
                 double _Complex beta, void *dy, int64_t incy)
{
    switch (tu_kern(t)) {
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
