/* A call from its arguments, one builder per shape, for the Fortran 77 and
 * CBLAS entry points alike: integers widened, options already turned into
 * tess_* enums (an invalid one is 0), scalars by address.  The rank-k
 * updates carry n as both m and n, and B NULL (ldb 0); TRSM and TRMM their
 * in-place B as C. */
#ifndef LEGACY_BUILD_H
#define LEGACY_BUILD_H

#include "legacy.h"

static inline lg_call_t lg_gemm_call(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m,
                                     int64_t n, int64_t k, const void *alpha, const void *A,
                                     int64_t lda, const void *B, int64_t ldb, const void *beta,
                                     void *C, int64_t ldc)
{
    return (lg_call_t){ .r = LG_GEMM,
                        .t = t,
                        .ta = ta,
                        .tb = tb,
                        .m = m,
                        .n = n,
                        .k = k,
                        .alpha = alpha,
                        .A = A,
                        .lda = lda,
                        .B = B,
                        .ldb = ldb,
                        .beta = beta,
                        .C = C,
                        .ldc = ldc };
}

/* SYMM and HEMM */
static inline lg_call_t lg_symm_call(lg_rout_t r, kern_type_t t, tess_side_t side, tess_uplo_t uplo,
                                     int64_t m, int64_t n, const void *alpha, const void *A,
                                     int64_t lda, const void *B, int64_t ldb, const void *beta,
                                     void *C, int64_t ldc)
{
    return (lg_call_t){ .r = r,
                        .t = t,
                        .side = side,
                        .uplo = uplo,
                        .m = m,
                        .n = n,
                        .alpha = alpha,
                        .A = A,
                        .lda = lda,
                        .B = B,
                        .ldb = ldb,
                        .beta = beta,
                        .C = C,
                        .ldc = ldc };
}

/* SYRK, HERK (B NULL), SYR2K and HER2K */
static inline lg_call_t lg_syrk_call(lg_rout_t r, kern_type_t t, tess_uplo_t uplo,
                                     tess_trans_t trans, int64_t n, int64_t k, const void *alpha,
                                     const void *A, int64_t lda, const void *B, int64_t ldb,
                                     const void *beta, void *C, int64_t ldc)
{
    return (lg_call_t){ .r = r,
                        .t = t,
                        .uplo = uplo,
                        .ta = trans,
                        .m = n,
                        .n = n,
                        .k = k,
                        .alpha = alpha,
                        .A = A,
                        .lda = lda,
                        .B = B,
                        .ldb = ldb,
                        .beta = beta,
                        .C = C,
                        .ldc = ldc };
}

static inline lg_call_t lg_gemmt_call(kern_type_t t, tess_uplo_t uplo, tess_trans_t ta,
                                      tess_trans_t tb, int64_t n, int64_t k, const void *alpha,
                                      const void *A, int64_t lda, const void *B, int64_t ldb,
                                      const void *beta, void *C, int64_t ldc)
{
    return (lg_call_t){ .r = LG_GEMMT,
                        .t = t,
                        .uplo = uplo,
                        .ta = ta,
                        .tb = tb,
                        .m = n,
                        .n = n,
                        .k = k,
                        .alpha = alpha,
                        .A = A,
                        .lda = lda,
                        .B = B,
                        .ldb = ldb,
                        .beta = beta,
                        .C = C,
                        .ldc = ldc };
}

/* TRSM and TRMM */
static inline lg_call_t lg_trxm_call(lg_rout_t r, kern_type_t t, tess_side_t side, tess_uplo_t uplo,
                                     tess_trans_t ta, tess_diag_t diag, int64_t m, int64_t n,
                                     const void *alpha, const void *A, int64_t lda, void *B,
                                     int64_t ldb)
{
    return (lg_call_t){ .r = r,
                        .t = t,
                        .side = side,
                        .uplo = uplo,
                        .ta = ta,
                        .diag = diag,
                        .m = m,
                        .n = n,
                        .alpha = alpha,
                        .A = A,
                        .lda = lda,
                        .C = B,
                        .ldc = ldb };
}

#endif
