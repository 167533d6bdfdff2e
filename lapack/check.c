/* Reference LAPACK's argument checks, in its order (see lapack_check.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "check.h"
#include "lapack_check.h"

static int64_t max1(int64_t v)
{
    return v > 1 ? v : 1;
}

int check_lauum(tess_uplo_t uplo, int64_t n, const void *A, int64_t lda)
{
    if (!valid_uplo(uplo))
        return -1;
    if (n < 0)
        return -2;
    if (n > 0 && !A)
        return -3;
    if (lda < max1(n))
        return -4;
    return 0;
}

int check_potrf(tess_uplo_t uplo, int64_t n, const void *A, int64_t lda, const int64_t *info)
{
    int err = check_lauum(uplo, n, A, lda);
    return err ? err : info ? 0 : -5;
}

int check_potrs(tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                const void *B, int64_t ldb)
{
    if (!valid_uplo(uplo))
        return -1;
    if (n < 0)
        return -2;
    if (nrhs < 0)
        return -3;
    if (n > 0 && !A)
        return -4;
    if (lda < max1(n))
        return -5;
    if (n > 0 && nrhs > 0 && !B)
        return -6;
    if (ldb < max1(n))
        return -7;
    return 0;
}

int check_posv(tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda, const void *B,
               int64_t ldb, const int64_t *info)
{
    int err = check_potrs(uplo, n, nrhs, A, lda, B, ldb);
    return err ? err : info ? 0 : -8;
}

int check_trtri(tess_uplo_t uplo, tess_diag_t diag, int64_t n, const void *A, int64_t lda,
                const int64_t *info)
{
    if (!valid_uplo(uplo))
        return -1;
    if (!valid_diag(diag))
        return -2;
    if (n < 0)
        return -3;
    if (n > 0 && !A)
        return -4;
    if (lda < max1(n))
        return -5;
    return info ? 0 : -6;
}

/* GETRF's and GEQRF's first four: m, n, A, lda */
static int check_mn(int64_t m, int64_t n, const void *A, int64_t lda)
{
    if (m < 0)
        return -1;
    if (n < 0)
        return -2;
    if (m > 0 && n > 0 && !A)
        return -3;
    return lda < max1(m) ? -4 : 0;
}

int check_getrf(int64_t m, int64_t n, const void *A, int64_t lda, const int64_t *ipiv,
                const int64_t *info)
{
    int err = check_mn(m, n, A, lda);
    if (err)
        return err;
    if (m > 0 && n > 0 && !ipiv)
        return -5;
    return info ? 0 : -6;
}

int check_getrs(tess_trans_t trans, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                const int64_t *ipiv, const void *B, int64_t ldb)
{
    if (!valid_trans(trans))
        return -1;
    if (n < 0)
        return -2;
    if (nrhs < 0)
        return -3;
    bool work = n > 0 && nrhs > 0;
    if (work && !A)
        return -4;
    if (lda < max1(n))
        return -5;
    if (work && !ipiv)
        return -6;
    if (work && !B)
        return -7;
    return ldb < max1(n) ? -8 : 0;
}

int check_gesv(int64_t n, int64_t nrhs, const void *A, int64_t lda, const int64_t *ipiv,
               const void *B, int64_t ldb, const int64_t *info)
{
    if (n < 0)
        return -1;
    if (nrhs < 0)
        return -2;
    if (n > 0 && !A)
        return -3;
    if (lda < max1(n))
        return -4;
    if (n > 0 && !ipiv)
        return -5;
    if (n > 0 && nrhs > 0 && !B)
        return -6;
    if (ldb < max1(n))
        return -7;
    return info ? 0 : -8;
}

int check_laswp(int64_t n, const void *A, int64_t lda, int64_t k1, int64_t k2, const int64_t *ipiv,
                int64_t incx)
{
    bool work = !lapack_laswp_empty(n, k1, k2, incx);
    if (n < 0)
        return -1;
    if (work && !A)
        return -2;
    if (lda < 1)
        return -3;
    if (k1 < 1)
        return -4;
    if (work && k2 > lda)
        return -5;
    if (work && !ipiv)
        return -6;
    /* ipiv's entries k1 + (i - k1) |incx| must be addressable */
    int64_t last;
    if (work &&
        (incx == INT64_MIN || __builtin_mul_overflow(k2 - k1, incx < 0 ? -incx : incx, &last)))
        return -7;
    return 0;
}

int check_geqrf(int64_t m, int64_t n, const void *A, int64_t lda, const void *tau)
{
    int err = check_mn(m, n, A, lda);
    return err ? err : m > 0 && n > 0 && !tau ? -5 : 0;
}

/* ?ormqr takes N or T, ?unmqr N or C */
static bool valid_qr_trans(bool complex_type, tess_trans_t trans)
{
    return trans == TessNoTrans || trans == (complex_type ? TessConjTrans : TessTrans);
}

int check_ormqr(bool complex_type, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n,
                int64_t k, const void *A, int64_t lda, const void *tau, const void *C, int64_t ldc)
{
    int64_t nq = side == TessLeft ? m : n;
    bool work = m > 0 && n > 0 && k > 0;
    if (!valid_side(side))
        return -1;
    if (!valid_qr_trans(complex_type, trans))
        return -2;
    if (m < 0)
        return -3;
    if (n < 0)
        return -4;
    if (k < 0 || k > nq)
        return -5;
    if (work && !A)
        return -6;
    if (lda < max1(nq))
        return -7;
    if (work && !tau)
        return -8;
    if (m > 0 && n > 0 && !C)
        return -9;
    if (ldc < max1(m))
        return -10;
    return 0;
}

int check_gels(bool complex_type, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs,
               const void *A, int64_t lda, const void *B, int64_t ldb, const int64_t *info)
{
    if (!valid_qr_trans(complex_type, trans))
        return -1;
    if (m < 0)
        return -2;
    if (n < 0)
        return -3;
    if (nrhs < 0)
        return -4;
    if (m > 0 && n > 0 && !A)
        return -5;
    if (lda < max1(m))
        return -6;
    if (nrhs > 0 && (m > 0 || n > 0) && !B)
        return -7;
    if (ldb < max1(m > n ? m : n))
        return -8;
    return info ? 0 : -9;
}
