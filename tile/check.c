/* Reference BLAS's argument checks, in its order (see check.h). */
#include "check.h"
#include "dtype.h"

static int64_t max1(int64_t v)
{
    return v > 1 ? v : 1;
}

int check_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,
               const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *C, int64_t ldc)
{
    bool reads_ab = m > 0 && n > 0 && k > 0 && !kern_scalar_is_zero(t, alpha);
    if (!valid_trans(ta))
        return -1;
    if (!valid_trans(tb))
        return -2;
    if (m < 0)
        return -3;
    if (n < 0)
        return -4;
    if (k < 0)
        return -5;
    if (reads_ab && !A)
        return -7;
    if (lda < max1(ta == TessNoTrans ? m : k))
        return -8;
    if (reads_ab && !B)
        return -9;
    if (ldb < max1(tb == TessNoTrans ? k : n))
        return -10;
    if (m > 0 && n > 0 && !C)
        return -12;
    if (ldc < max1(m))
        return -13;
    return 0;
}

int check_symm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,
               const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *C, int64_t ldc)
{
    bool reads_ab = m > 0 && n > 0 && !kern_scalar_is_zero(t, alpha);
    if (!valid_side(side))
        return -1;
    if (!valid_uplo(uplo))
        return -2;
    if (m < 0)
        return -3;
    if (n < 0)
        return -4;
    if (reads_ab && !A)
        return -6;
    if (lda < max1(side == TessLeft ? m : n))
        return -7;
    if (reads_ab && !B)
        return -8;
    if (ldb < max1(m))
        return -9;
    if (m > 0 && n > 0 && !C)
        return -11;
    if (ldc < max1(m))
        return -12;
    return 0;
}

int check_syrk(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
               const void *alpha, const void *A, int64_t lda, const void *C, int64_t ldc)
{
    kern_type_t at = herm ? kern_dtypes[t].real : t;
    bool reads_a = n > 0 && k > 0 && !kern_scalar_is_zero(at, alpha);
    if (!valid_uplo(uplo))
        return -1;
    if (!valid_rank_trans(t, herm, trans))
        return -2;
    if (n < 0)
        return -3;
    if (k < 0)
        return -4;
    if (reads_a && !A)
        return -6;
    if (lda < max1(trans == TessNoTrans ? n : k))
        return -7;
    if (n > 0 && !C)
        return -9;
    if (ldc < max1(n))
        return -10;
    return 0;
}

int check_syr2k(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                int64_t ldb, const void *C, int64_t ldc)
{
    bool reads_ab = n > 0 && k > 0 && !kern_scalar_is_zero(t, alpha);
    int64_t rows = trans == TessNoTrans ? n : k;
    if (!valid_uplo(uplo))
        return -1;
    if (!valid_rank_trans(t, herm, trans))
        return -2;
    if (n < 0)
        return -3;
    if (k < 0)
        return -4;
    if (reads_ab && !A)
        return -6;
    if (lda < max1(rows))
        return -7;
    if (reads_ab && !B)
        return -8;
    if (ldb < max1(rows))
        return -9;
    if (n > 0 && !C)
        return -11;
    if (ldc < max1(n))
        return -12;
    return 0;
}

int check_gemmt(kern_type_t t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
                int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                int64_t ldb, const void *C, int64_t ldc)
{
    bool reads_ab = n > 0 && k > 0 && !kern_scalar_is_zero(t, alpha);
    if (!valid_uplo(uplo))
        return -1;
    if (!valid_trans(ta))
        return -2;
    if (!valid_trans(tb))
        return -3;
    if (n < 0)
        return -4;
    if (k < 0)
        return -5;
    if (reads_ab && !A)
        return -7;
    if (lda < max1(ta == TessNoTrans ? n : k))
        return -8;
    if (reads_ab && !B)
        return -9;
    if (ldb < max1(tb == TessNoTrans ? k : n))
        return -10;
    if (n > 0 && !C)
        return -12;
    if (ldc < max1(n))
        return -13;
    return 0;
}

int check_trxm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
               tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A,
               int64_t lda, const void *B, int64_t ldb)
{
    bool reads_a = m > 0 && n > 0 && !kern_scalar_is_zero(t, alpha);
    if (!valid_side(side))
        return -1;
    if (!valid_uplo(uplo))
        return -2;
    if (!valid_trans(trans))
        return -3;
    if (!valid_diag(diag))
        return -4;
    if (m < 0)
        return -5;
    if (n < 0)
        return -6;
    if (reads_a && !A)
        return -8;
    if (lda < max1(side == TessLeft ? m : n))
        return -9;
    if (m > 0 && n > 0 && !B)
        return -10;
    if (ldb < max1(m))
        return -11;
    return 0;
}

int check_gemv(kern_type_t t, tess_trans_t trans, int64_t m, int64_t n, const void *alpha,
               const void *A, int64_t lda, const void *x, int64_t incx, const void *y, int64_t incy)
{
    bool reads_ax = m > 0 && n > 0 && !kern_scalar_is_zero(t, alpha);
    if (!valid_trans(trans))
        return -1;
    if (m < 0)
        return -2;
    if (n < 0)
        return -3;
    if (reads_ax && !A)
        return -5;
    if (lda < max1(m))
        return -6;
    if (reads_ax && !x)
        return -7;
    if (incx == 0)
        return -8;
    if (m > 0 && n > 0 && !y)
        return -10;
    if (incy == 0)
        return -11;
    return 0;
}

int check_symv(kern_type_t t, tess_uplo_t uplo, int64_t n, const void *alpha, const void *A,
               int64_t lda, const void *x, int64_t incx, const void *y, int64_t incy)
{
    bool reads_ax = n > 0 && !kern_scalar_is_zero(t, alpha);
    if (!valid_uplo(uplo))
        return -1;
    if (n < 0)
        return -2;
    if (reads_ax && !A)
        return -4;
    if (lda < max1(n))
        return -5;
    if (reads_ax && !x)
        return -6;
    if (incx == 0)
        return -7;
    if (n > 0 && !y)
        return -9;
    if (incy == 0)
        return -10;
    return 0;
}
