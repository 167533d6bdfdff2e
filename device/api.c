/* The public device API (tessera_cuda.h): each entry checks its arguments
 * as every Tessera routine does (tile/check.h), then passes its scalars by
 * address to the precision-generic kernels, on the calling thread's cuBLAS
 * handle.  A layer of the routines' level: above the checks, beside blas3/
 * and blas2/.  Written in C so that float/double _Complex are C's own. */
#include "check.h"
#include "cuda/kern_cuda.h"
#include "tessera_cuda.h"

#define TRXM_ENTRY(name, kern, type, T)                                                            \
    int name(cudaStream_t stream, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,          \
             tess_diag_t diag, int64_t m, int64_t n, T alpha, const T *dA, int64_t ldda, T *dB,    \
             int64_t lddb)                                                                         \
    {                                                                                              \
        int err = check_trxm(type, side, uplo, trans, diag, m, n, &alpha, dA, ldda, dB, lddb);     \
        return err ? err                                                                           \
                   : kern(type, NULL, stream, side, uplo, kern_trans(type, trans), diag, m, n,     \
                          &alpha, dA, ldda, dB, lddb);                                             \
    }

TRXM_ENTRY(tess_cuda_strsm, kern_cuda_trsm, KERN_S, float)
TRXM_ENTRY(tess_cuda_dtrsm, kern_cuda_trsm, KERN_D, double)
TRXM_ENTRY(tess_cuda_ctrsm, kern_cuda_trsm, KERN_C, float _Complex)
TRXM_ENTRY(tess_cuda_ztrsm, kern_cuda_trsm, KERN_Z, double _Complex)
TRXM_ENTRY(tess_cuda_strmm, kern_cuda_trmm, KERN_S, float)
TRXM_ENTRY(tess_cuda_dtrmm, kern_cuda_trmm, KERN_D, double)
TRXM_ENTRY(tess_cuda_ctrmm, kern_cuda_trmm, KERN_C, float _Complex)
TRXM_ENTRY(tess_cuda_ztrmm, kern_cuda_trmm, KERN_Z, double _Complex)

#define GEMV_ENTRY(name, type, T)                                                                  \
    int name(cudaStream_t stream, tess_trans_t trans, int64_t m, int64_t n, T alpha, const T *dA,  \
             int64_t ldda, const T *dx, int64_t incx, T beta, T *dy, int64_t incy)                 \
    {                                                                                              \
        int err = check_gemv(type, trans, m, n, &alpha, dA, ldda, dx, incx, dy, incy);             \
        return err ? err                                                                           \
                   : kern_cuda_gemv(type, NULL, stream, kern_trans(type, trans), m, n, &alpha, dA, \
                                    ldda, dx, incx, &beta, dy, incy);                              \
    }

GEMV_ENTRY(tess_cuda_sgemv, KERN_S, float)
GEMV_ENTRY(tess_cuda_dgemv, KERN_D, double)
GEMV_ENTRY(tess_cuda_cgemv, KERN_C, float _Complex)
GEMV_ENTRY(tess_cuda_zgemv, KERN_Z, double _Complex)

#define SYMV_ENTRY(name, type, T)                                                                  \
    int name(cudaStream_t stream, tess_uplo_t uplo, int64_t n, T alpha, const T *dA, int64_t ldda, \
             const T *dx, int64_t incx, T beta, T *dy, int64_t incy)                               \
    {                                                                                              \
        int err = check_symv(type, uplo, n, &alpha, dA, ldda, dx, incx, dy, incy);                 \
        return err ? err                                                                           \
                   : kern_cuda_symv(type, NULL, stream, uplo, n, &alpha, dA, ldda, dx, incx,       \
                                    &beta, dy, incy);                                              \
    }

SYMV_ENTRY(tess_cuda_ssymv, KERN_S, float)
SYMV_ENTRY(tess_cuda_dsymv, KERN_D, double)
SYMV_ENTRY(tess_cuda_chemv, KERN_C, float _Complex)
SYMV_ENTRY(tess_cuda_zhemv, KERN_Z, double _Complex)
