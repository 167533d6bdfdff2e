/* The routines under test and their references, per precision (testutil.h).
 * One body per routine serves the four precisions (PRECISIONS below); the
 * tu_* functions pick the precision's from a table indexed like tu_types.
 * Scalars arrive as double complex and are narrowed to the type (a real type
 * keeps the real part); CBLAS takes a real type's scalars by value and a
 * complex type's by address.  The Hermitian routines of a real type are its
 * symmetric ones, and herm is never set for it. */
#include <cblas.h>
#include <complex.h>
#include "testutil.h"

#define BY_VALUE(T, v) ((T)(v))
#define BY_ADDRESS(T, v) (&(T){ (T)(v) })
#define PRECISIONS(X)                                                                              \
    X(s, float, float, BY_VALUE, ssymm, ssyrk, ssyr2k, ssymv)                                      \
    X(d, double, double, BY_VALUE, dsymm, dsyrk, dsyr2k, dsymv)                                    \
    X(c, float _Complex, float, BY_ADDRESS, chemm, cherk, cher2k, chemv)                           \
    X(z, double _Complex, double, BY_ADDRESS, zhemm, zherk, zher2k, zhemv)

/* The CBLAS enums carry the same values as Tessera's; real types take
 * ConjTrans as Trans, and the reference is given Trans. */
#define CSIDE(s) ((CBLAS_SIDE)(s))
#define CUPLO(u) ((CBLAS_UPLO)(u))
#define CTRANS(t) ((CBLAS_TRANSPOSE)(t))
#define REF_TRANS(T, R, t) (sizeof(T) == sizeof(R) && (t) == TessConjTrans ? CblasTrans : CTRANS(t))

#define WRAPPERS(P, T, R, SC, HEMM, HERK, HER2K, HEMV)                                             \
    static void P##_scalar(double _Complex v, void *out)                                           \
    {                                                                                              \
        *(T *)out = (T)v;                                                                          \
    }                                                                                              \
    static double _Complex P##_get(const void *A, size_t k)                                        \
    {                                                                                              \
        return ((const T *)A)[k];                                                                  \
    }                                                                                              \
    static int P##_gemm_async(tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,   \
                              double _Complex alpha, const void *A, int64_t lda, const void *B,    \
                              int64_t ldb, double _Complex beta, void *C, int64_t ldc)             \
    {                                                                                              \
        return tess_##P##gemm_async(ta, tb, m, n, k, (T)alpha, A, lda, B, ldb, (T)beta, C, ldc);   \
    }                                                                                              \
    static void P##_gemm_ref(tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,    \
                             double _Complex alpha, const void *A, int64_t lda, const void *B,     \
                             int64_t ldb, double _Complex beta, void *C, int64_t ldc)              \
    {                                                                                              \
        cblas_##P##gemm(CblasColMajor, CTRANS(ta), CTRANS(tb), (int)m, (int)n, (int)k,             \
                        SC(T, alpha), A, (int)lda, B, (int)ldb, SC(T, beta), C, (int)ldc);         \
    }                                                                                              \
    static int P##_symm_async(bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n, \
                              double _Complex alpha, const void *A, int64_t lda, const void *B,    \
                              int64_t ldb, double _Complex beta, void *C, int64_t ldc)             \
    {                                                                                              \
        return (herm ? tess_##HEMM##_async : tess_##P##symm_async)(side, uplo, m, n, (T)alpha, A,  \
                                                                   lda, B, ldb, (T)beta, C, ldc);  \
    }                                                                                              \
    static void P##_symm_ref(bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,  \
                             double _Complex alpha, const void *A, int64_t lda, const void *B,     \
                             int64_t ldb, double _Complex beta, void *C, int64_t ldc)              \
    {                                                                                              \
        (herm ? cblas_##HEMM : cblas_##P##symm)(CblasColMajor, CSIDE(side), CUPLO(uplo), (int)m,   \
                                                (int)n, SC(T, alpha), A, (int)lda, B, (int)ldb,    \
                                                SC(T, beta), C, (int)ldc);                         \
    }                                                                                              \
    static int P##_syrk_async(bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,          \
                              int64_t k, double _Complex alpha, const void *A, int64_t lda,        \
                              double _Complex beta, void *C, int64_t ldc)                          \
    {                                                                                              \
        if (herm)                                                                                  \
            return tess_##HERK##_async(uplo, trans, n, k, (R)creal(alpha), A, lda, (R)creal(beta), \
                                       C, ldc);                                                    \
        return tess_##P##syrk_async(uplo, trans, n, k, (T)alpha, A, lda, (T)beta, C, ldc);         \
    }                                                                                              \
    static void P##_syrk_ref(bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,           \
                             int64_t k, double _Complex alpha, const void *A, int64_t lda,         \
                             double _Complex beta, void *C, int64_t ldc)                           \
    {                                                                                              \
        if (herm)                                                                                  \
            cblas_##HERK(CblasColMajor, CUPLO(uplo), REF_TRANS(T, R, trans), (int)n, (int)k,       \
                         (R)creal(alpha), A, (int)lda, (R)creal(beta), C, (int)ldc);               \
        else                                                                                       \
            cblas_##P##syrk(CblasColMajor, CUPLO(uplo), REF_TRANS(T, R, trans), (int)n, (int)k,    \
                            SC(T, alpha), A, (int)lda, SC(T, beta), C, (int)ldc);                  \
    }                                                                                              \
    static int P##_syr2k_async(bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,         \
                               int64_t k, double _Complex alpha, const void *A, int64_t lda,       \
                               const void *B, int64_t ldb, double _Complex beta, void *C,          \
                               int64_t ldc)                                                        \
    {                                                                                              \
        if (herm)                                                                                  \
            return tess_##HER2K##_async(uplo, trans, n, k, (T)alpha, A, lda, B, ldb,               \
                                        (R)creal(beta), C, ldc);                                   \
        return tess_##P##syr2k_async(uplo, trans, n, k, (T)alpha, A, lda, B, ldb, (T)beta, C,      \
                                     ldc);                                                         \
    }                                                                                              \
    static void P##_syr2k_ref(bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,          \
                              int64_t k, double _Complex alpha, const void *A, int64_t lda,        \
                              const void *B, int64_t ldb, double _Complex beta, void *C,           \
                              int64_t ldc)                                                         \
    {                                                                                              \
        if (herm)                                                                                  \
            cblas_##HER2K(CblasColMajor, CUPLO(uplo), REF_TRANS(T, R, trans), (int)n, (int)k,      \
                          SC(T, alpha), A, (int)lda, B, (int)ldb, (R)creal(beta), C, (int)ldc);    \
        else                                                                                       \
            cblas_##P##syr2k(CblasColMajor, CUPLO(uplo), REF_TRANS(T, R, trans), (int)n, (int)k,   \
                             SC(T, alpha), A, (int)lda, B, (int)ldb, SC(T, beta), C, (int)ldc);    \
    }                                                                                              \
    static int P##_gemmt_async(tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,      \
                               int64_t k, double _Complex alpha, const void *A, int64_t lda,       \
                               const void *B, int64_t ldb, double _Complex beta, void *C,          \
                               int64_t ldc)                                                        \
    {                                                                                              \
        return tess_##P##gemmt_async(uplo, ta, tb, n, k, (T)alpha, A, lda, B, ldb, (T)beta, C,     \
                                     ldc);                                                         \
    }                                                                                              \
    static int P##_trxm_async(bool solve, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,  \
                              tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha,       \
                              const void *A, int64_t lda, void *B, int64_t ldb)                    \
    {                                                                                              \
        return (solve ? tess_##P##trsm_async : tess_##P##trmm_async)(side, uplo, trans, diag, m,   \
                                                                     n, (T)alpha, A, lda, B, ldb); \
    }                                                                                              \
    static int P##_gemv_async(tess_trans_t trans, int64_t m, int64_t n, double _Complex alpha,     \
                              const void *A, int64_t lda, const void *x, int64_t incx,             \
                              double _Complex beta, void *y, int64_t incy)                         \
    {                                                                                              \
        return tess_##P##gemv_async(trans, m, n, (T)alpha, A, lda, x, incx, (T)beta, y, incy);     \
    }                                                                                              \
    static void P##_gemv_ref(tess_trans_t trans, int64_t m, int64_t n, double _Complex alpha,      \
                             const void *A, int64_t lda, const void *x, int64_t incx,              \
                             double _Complex beta, void *y, int64_t incy)                          \
    {                                                                                              \
        cblas_##P##gemv(CblasColMajor, CTRANS(trans), (int)m, (int)n, SC(T, alpha), A, (int)lda,   \
                        x, (int)incx, SC(T, beta), y, (int)incy);                                  \
    }                                                                                              \
    static int P##_symv_async(tess_uplo_t uplo, int64_t n, double _Complex alpha, const void *A,   \
                              int64_t lda, const void *x, int64_t incx, double _Complex beta,      \
                              void *y, int64_t incy)                                               \
    {                                                                                              \
        return tess_##HEMV##_async(uplo, n, (T)alpha, A, lda, x, incx, (T)beta, y, incy);          \
    }                                                                                              \
    static void P##_symv_ref(tess_uplo_t uplo, int64_t n, double _Complex alpha, const void *A,    \
                             int64_t lda, const void *x, int64_t incx, double _Complex beta,       \
                             void *y, int64_t incy)                                                \
    {                                                                                              \
        cblas_##HEMV(CblasColMajor, CUPLO(uplo), (int)n, SC(T, alpha), A, (int)lda, x, (int)incx,  \
                     SC(T, beta), y, (int)incy);                                                   \
    }

PRECISIONS(WRAPPERS)

/* The table: one row a precision, one field a routine (a list clang-format
 * does not settle on a layout of). */
/* clang-format off */
#define ROUTINES(X, P)                                                                             \
    X(P, scalar) X(P, get) X(P, gemm_async) X(P, gemm_ref) X(P, symm_async) X(P, symm_ref)         \
    X(P, syrk_async) X(P, syrk_ref) X(P, syr2k_async) X(P, syr2k_ref) X(P, gemmt_async)            \
    X(P, trxm_async) X(P, gemv_async) X(P, gemv_ref) X(P, symv_async) X(P, symv_ref)
/* clang-format on */
#define FIELD(P, r) __typeof__(P##_##r) *r;
#define INIT(P, r) .r = P##_##r,
#define ROW(P, ...) { ROUTINES(INIT, P) },
static const struct {
    ROUTINES(FIELD, s)
} prec[TU_NTYPES] = { PRECISIONS(ROW) };

static int kind(const tu_type_t *t)
{
    return (int)(t - tu_types);
}

void tu_scalar(const tu_type_t *t, double _Complex v, void *out)
{
    prec[kind(t)].scalar(v, out);
}

double _Complex tu_get(const tu_type_t *t, const void *A, int64_t i, int64_t j, int64_t ld)
{
    return prec[kind(t)].get(A, (size_t)(i + j * ld));
}

int tu_gemm_async(const tu_type_t *t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc)
{
    return prec[kind(t)].gemm_async(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void tu_gemm_ref(const tu_type_t *t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,
                 int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                 int64_t ldb, double _Complex beta, void *C, int64_t ldc)
{
    prec[kind(t)].gemm_ref(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

int tu_symm_async(const tu_type_t *t, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m,
                  int64_t n, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc)
{
    return prec[kind(t)].symm_async(herm, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);
}

void tu_symm_ref(const tu_type_t *t, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m,
                 int64_t n, double _Complex alpha, const void *A, int64_t lda, const void *B,
                 int64_t ldb, double _Complex beta, void *C, int64_t ldc)
{
    prec[kind(t)].symm_ref(herm, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);
}

int tu_syrk_async(const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda,
                  double _Complex beta, void *C, int64_t ldc)
{
    return prec[kind(t)].syrk_async(herm, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

void tu_syrk_ref(const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                 int64_t k, double _Complex alpha, const void *A, int64_t lda, double _Complex beta,
                 void *C, int64_t ldc)
{
    prec[kind(t)].syrk_ref(herm, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

int tu_syr2k_async(const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                   int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                   int64_t ldb, double _Complex beta, void *C, int64_t ldc)
{
    return prec[kind(t)].syr2k_async(herm, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void tu_syr2k_ref(const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc)
{
    prec[kind(t)].syr2k_ref(herm, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

int tu_gemmt_async(const tu_type_t *t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,
                   int64_t n, int64_t k, double _Complex alpha, const void *A, int64_t lda,
                   const void *B, int64_t ldb, double _Complex beta, void *C, int64_t ldc)
{
    return prec[kind(t)].gemmt_async(uplo, ta, tb, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

int tu_trsm_async(const tu_type_t *t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                  tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha, const void *A,
                  int64_t lda, void *B, int64_t ldb)
{
    return prec[kind(t)].trxm_async(true, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
}

int tu_trmm_async(const tu_type_t *t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                  tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha, const void *A,
                  int64_t lda, void *B, int64_t ldb)
{
    return prec[kind(t)].trxm_async(false, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
}

int tu_gemv_async(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n,
                  double _Complex alpha, const void *A, int64_t lda, const void *x, int64_t incx,
                  double _Complex beta, void *y, int64_t incy)
{
    return prec[kind(t)].gemv_async(trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

void tu_gemv_ref(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n,
                 double _Complex alpha, const void *A, int64_t lda, const void *x, int64_t incx,
                 double _Complex beta, void *y, int64_t incy)
{
    prec[kind(t)].gemv_ref(trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

int tu_symv_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, double _Complex alpha,
                  const void *A, int64_t lda, const void *x, int64_t incx, double _Complex beta,
                  void *y, int64_t incy)
{
    return prec[kind(t)].symv_async(uplo, n, alpha, A, lda, x, incx, beta, y, incy);
}

void tu_symv_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, double _Complex alpha,
                 const void *A, int64_t lda, const void *x, int64_t incx, double _Complex beta,
                 void *y, int64_t incy)
{
    prec[kind(t)].symv_ref(uplo, n, alpha, A, lda, x, incx, beta, y, incy);
}
