/* The public GEMM entry points: one line per precision over blas_gemm. */
#include "blas3.h"

#define GEMM_API(P, T, TYPE)                                                                    \
    TESS_API int tess_##P##gemm_async(tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,   \
                                      int64_t k, T alpha, const T *A, int64_t lda, const T *B,  \
                                      int64_t ldb, T beta, T *C, int64_t ldc)                   \
    {                                                                                           \
        return blas_gemm(TYPE, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);         \
    }

GEMM_API(s, float, KERN_S)
GEMM_API(d, double, KERN_D)
GEMM_API(c, float _Complex, KERN_C)
GEMM_API(z, double _Complex, KERN_Z)
