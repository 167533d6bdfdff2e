/* The host backend's kernels: thin calls into the host BLAS (OpenBLAS).
 * One macro body per routine serves the four precisions; the real and complex
 * CBLAS interfaces differ only in how scalars are passed, which SCAL_ARG hides. */
#include <cblas.h>
#include <string.h>
#include "kern.h"

/* Real CBLAS takes scalars by value, complex ones by address. */
#define REAL_ARG(T, p) (*(const T *)(p))
#define CPLX_ARG(T, p) (p)

/* CBLAS has no 2-D scale: scale column by column, or zero without reading. */
#define HOST_SCAL(P, T, SCALFN, ISZERO, ARG)                                                    \
    static int host_##P##scal(kern_ctx_t *ctx, int64_t m, int64_t n, const void *beta, void *C, \
                              int64_t ldc)                                                      \
    {                                                                                           \
        (void)ctx;                                                                              \
        T *c = C;                                                                               \
        for (int64_t j = 0; j < n; j++) {                                                       \
            if (ISZERO(beta))                                                                   \
                memset(c + j * ldc, 0, (size_t)m * sizeof(T));                                  \
            else                                                                                \
                SCALFN((int)m, ARG(T, beta), c + j * ldc, 1);                                   \
        }                                                                                       \
        return 0;                                                                               \
    }

#define HOST_KERNELS(P, T, ARG, SYMV)                                                           \
    static int host_##P##gemm(kern_ctx_t *ctx, tess_trans_t ta, tess_trans_t tb, int64_t m,    \
                              int64_t n, int64_t k, const void *alpha, const void *A,           \
                              int64_t lda, const void *B, int64_t ldb, const void *beta,        \
                              void *C, int64_t ldc)                                             \
    {                                                                                           \
        (void)ctx;                                                                              \
        cblas_##P##gemm(CblasColMajor, (CBLAS_TRANSPOSE)ta, (CBLAS_TRANSPOSE)tb, (int)m,        \
                        (int)n, (int)k, ARG(T, alpha), A, (int)lda, B, (int)ldb,                \
                        ARG(T, beta), C, (int)ldc);                                             \
        return 0;                                                                               \
    }                                                                                           \
    static int host_##P##trsm(kern_ctx_t *ctx, tess_side_t side, tess_uplo_t uplo,             \
                              tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,       \
                              const void *alpha, const void *A, int64_t lda, void *B,           \
                              int64_t ldb)                                                      \
    {                                                                                           \
        (void)ctx;                                                                              \
        cblas_##P##trsm(CblasColMajor, (CBLAS_SIDE)side, (CBLAS_UPLO)uplo,                      \
                        (CBLAS_TRANSPOSE)trans, (CBLAS_DIAG)diag, (int)m, (int)n,               \
                        ARG(T, alpha), A, (int)lda, B, (int)ldb);                               \
        return 0;                                                                               \
    }                                                                                           \
    static int host_##P##trmm(kern_ctx_t *ctx, tess_side_t side, tess_uplo_t uplo,             \
                              tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,       \
                              const void *alpha, const void *A, int64_t lda, void *B,           \
                              int64_t ldb)                                                      \
    {                                                                                           \
        (void)ctx;                                                                              \
        cblas_##P##trmm(CblasColMajor, (CBLAS_SIDE)side, (CBLAS_UPLO)uplo,                      \
                        (CBLAS_TRANSPOSE)trans, (CBLAS_DIAG)diag, (int)m, (int)n,               \
                        ARG(T, alpha), A, (int)lda, B, (int)ldb);                               \
        return 0;                                                                               \
    }                                                                                           \
    static int host_##P##gemv(kern_ctx_t *ctx, tess_trans_t trans, int64_t m, int64_t n,       \
                              const void *alpha, const void *A, int64_t lda, const void *x,     \
                              int64_t incx, const void *beta, void *y, int64_t incy)            \
    {                                                                                           \
        (void)ctx;                                                                              \
        cblas_##P##gemv(CblasColMajor, (CBLAS_TRANSPOSE)trans, (int)m, (int)n, ARG(T, alpha),   \
                        A, (int)lda, x, (int)incx, ARG(T, beta), y, (int)incy);                 \
        return 0;                                                                               \
    }                                                                                           \
    static int host_##P##symv(kern_ctx_t *ctx, tess_uplo_t uplo, int64_t n, const void *alpha, \
                              const void *A, int64_t lda, const void *x, int64_t incx,          \
                              const void *beta, void *y, int64_t incy)                          \
    {                                                                                           \
        (void)ctx;                                                                              \
        SYMV(CblasColMajor, (CBLAS_UPLO)uplo, (int)n, ARG(T, alpha), A, (int)lda, x, (int)incx, \
             ARG(T, beta), y, (int)incy);                                                       \
        return 0;                                                                               \
    }

static int real_zero_s(const void *p) { return *(const float *)p == 0.0f; }
static int real_zero_d(const void *p) { return *(const double *)p == 0.0; }
static int cplx_zero_c(const void *p) { return *(const float _Complex *)p == 0.0f; }
static int cplx_zero_z(const void *p) { return *(const double _Complex *)p == 0.0; }

HOST_KERNELS(s, float, REAL_ARG, cblas_ssymv)
HOST_KERNELS(d, double, REAL_ARG, cblas_dsymv)
HOST_KERNELS(c, float _Complex, CPLX_ARG, cblas_chemv)
HOST_KERNELS(z, double _Complex, CPLX_ARG, cblas_zhemv)
HOST_SCAL(s, float, cblas_sscal, real_zero_s, REAL_ARG)
HOST_SCAL(d, double, cblas_dscal, real_zero_d, REAL_ARG)
HOST_SCAL(c, float _Complex, cblas_cscal, cplx_zero_c, CPLX_ARG)
HOST_SCAL(z, double _Complex, cblas_zscal, cplx_zero_z, CPLX_ARG)

#define HOST_TABLE(P)                                                                           \
    {                                                                                           \
        .gemm = host_##P##gemm, .scal = host_##P##scal, .trsm = host_##P##trsm,                 \
        .trmm = host_##P##trmm, .gemv = host_##P##gemv, .symv = host_##P##symv                  \
    }

const kern_table_t kern_host_table[KERN_NTYPES] = {
    [KERN_S] = HOST_TABLE(s),
    [KERN_D] = HOST_TABLE(d),
    [KERN_C] = HOST_TABLE(c),
    [KERN_Z] = HOST_TABLE(z),
};
