/* A call from its arguments, one builder per shape, for the Fortran 77 and
 * CBLAS entry points alike: integers widened, options already turned into
 * tess_* enums (an invalid one is 0), scalars by address.  The rank-k
 * updates carry n as both m and n, and B NULL (ldb 0); TRSM and TRMM their
 * in-place B as C.  LAPACK's calls are built by lg_lapack_call. */
#ifndef LEGACY_BUILD_H
#define LEGACY_BUILD_H

#include "legacy.h"

/* The operands and sizes every shape has some of; the options are set by
 * the shape's builder. */
static inline lg_call_t lg_call(lg_rout_t r, kern_type_t t, int64_t m, int64_t n, int64_t k,
                                const void *alpha, const void *A, int64_t lda, const void *B,
                                int64_t ldb, const void *beta, void *C, int64_t ldc)
{
    lg_call_t c = { .r = r, .t = t, .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta };
    c.A = A, c.lda = lda, c.B = B, c.ldb = ldb, c.C = C, c.ldc = ldc;
    return c;
}

static inline lg_call_t lg_gemm_call(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m,
                                     int64_t n, int64_t k, const void *alpha, const void *A,
                                     int64_t lda, const void *B, int64_t ldb, const void *beta,
                                     void *C, int64_t ldc)
{
    lg_call_t c = lg_call(LG_GEMM, t, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    c.ta = ta, c.tb = tb;
    return c;
}

/* SYMM and HEMM */
static inline lg_call_t lg_symm_call(lg_rout_t r, kern_type_t t, tess_side_t side, tess_uplo_t uplo,
                                     int64_t m, int64_t n, const void *alpha, const void *A,
                                     int64_t lda, const void *B, int64_t ldb, const void *beta,
                                     void *C, int64_t ldc)
{
    lg_call_t c = lg_call(r, t, m, n, 0, alpha, A, lda, B, ldb, beta, C, ldc);
    c.side = side, c.uplo = uplo;
    return c;
}

/* SYRK, HERK (B NULL), SYR2K and HER2K */
static inline lg_call_t lg_syrk_call(lg_rout_t r, kern_type_t t, tess_uplo_t uplo,
                                     tess_trans_t trans, int64_t n, int64_t k, const void *alpha,
                                     const void *A, int64_t lda, const void *B, int64_t ldb,
                                     const void *beta, void *C, int64_t ldc)
{
    lg_call_t c = lg_call(r, t, n, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    c.uplo = uplo, c.ta = trans;
    return c;
}

static inline lg_call_t lg_gemmt_call(kern_type_t t, tess_uplo_t uplo, tess_trans_t ta,
                                      tess_trans_t tb, int64_t n, int64_t k, const void *alpha,
                                      const void *A, int64_t lda, const void *B, int64_t ldb,
                                      const void *beta, void *C, int64_t ldc)
{
    lg_call_t c = lg_call(LG_GEMMT, t, n, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    c.uplo = uplo, c.ta = ta, c.tb = tb;
    return c;
}

/* TRSM and TRMM: no k, B, ldb or beta */
static inline lg_call_t lg_trxm_call(lg_rout_t r, kern_type_t t, tess_side_t side, tess_uplo_t uplo,
                                     tess_trans_t ta, tess_diag_t diag, int64_t m, int64_t n,
                                     const void *alpha, const void *A, int64_t lda, void *B,
                                     int64_t ldb)
{
    lg_call_t c = lg_call(r, t, m, n, 0, alpha, A, lda, NULL, 0, NULL, B, ldb);
    c.side = side, c.uplo = uplo, c.ta = ta, c.diag = diag;
    return c;
}

/* The Cholesky family (legacy_iface.h): n as m and n, nrhs as k (0 where the
 * routine has none), B NULL (ldb 0) where it has none, diag TRTRI's; the
 * entry point sets info. */
static inline lg_call_t lg_lapack_call(lg_rout_t r, kern_type_t t, tess_uplo_t uplo,
                                       tess_diag_t diag, int64_t n, int64_t nrhs, const void *A,
                                       int64_t lda, const void *B, int64_t ldb)
{
    lg_call_t c = lg_call(r, t, n, n, nrhs, NULL, A, lda, B, ldb, NULL, NULL, 0);
    c.uplo = uplo, c.diag = diag;
    return c;
}

/* LU and QR (legacy_iface.h): sizes m, n, k (nrhs), B or tau, C, the pivots
 * 32 bits wide or 64; the entry point sets info, LASWP's numbers, work and
 * lwork. */
static inline lg_call_t lg_luqr_call(lg_rout_t r, kern_type_t t, tess_side_t side,
                                     tess_trans_t trans, int64_t m, int64_t n, int64_t k,
                                     const void *A, int64_t lda, void *ipiv, bool ipiv32,
                                     const void *B, int64_t ldb, void *C, int64_t ldc)
{
    lg_call_t c = lg_call(r, t, m, n, k, NULL, A, lda, B, ldb, NULL, C, ldc);
    c.side = side, c.ta = trans, c.ipiv = ipiv, c.ipiv32 = ipiv32;
    return c;
}

#endif
