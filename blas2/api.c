/* The public BLAS-2 entry points: each routine declared once for the four
 * precisions (tessera.h), defined here once over its precision-generic
 * blas_<name>, scalars passed on by address. */
#include "blas2.h"

#define BLAS2_API(P, T, R, TYPE)                                                                   \
    TESS_API int tess_##P##gemv_async(tess_trans_t trans, int64_t m, int64_t n, T alpha,           \
                                      const T *A, int64_t lda, const T *x, int64_t incx, T beta,   \
                                      T *y, int64_t incy)                                          \
    {                                                                                              \
        return blas_gemv(TYPE, trans, m, n, &alpha, A, lda, x, incx, &beta, y, incy);              \
    }

/* symv for the real types, hemv (herm) for the complex ones */
#define BLAS2_SYMV_API(P, NAME, T, TYPE, HERM)                                                     \
    TESS_API int tess_##P##NAME##_async(tess_uplo_t uplo, int64_t n, T alpha, const T *A,          \
                                        int64_t lda, const T *x, int64_t incx, T beta, T *y,       \
                                        int64_t incy)                                              \
    {                                                                                              \
        return blas_symv(TYPE, HERM, uplo, n, &alpha, A, lda, x, incx, &beta, y, incy);            \
    }

BLAS2_API(s, float, float, KERN_S)
BLAS2_API(d, double, double, KERN_D)
BLAS2_API(c, float _Complex, float, KERN_C)
BLAS2_API(z, double _Complex, double, KERN_Z)
BLAS2_SYMV_API(s, symv, float, KERN_S, false)
BLAS2_SYMV_API(d, symv, double, KERN_D, false)
BLAS2_SYMV_API(c, hemv, float _Complex, KERN_C, true)
BLAS2_SYMV_API(z, hemv, double _Complex, KERN_Z, true)
