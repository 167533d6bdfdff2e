/* The host backend's kernels: thin calls into the host BLAS (OpenBLAS).
 * One macro body per routine serves the four precisions; the real and complex
 * CBLAS interfaces differ only in how scalars are passed, which SCAL_ARG hides. */
#include <cblas.h>
#include <complex.h>
#include <string.h>
#include "host_blas.h"
#include "host_lapack.h"
#include "kern.h"

/* Real CBLAS takes scalars by value, complex ones by address. */
#define REAL_ARG(T, p) (*(const T *)(p))
#define CPLX_ARG(T, p) (p)

/* CBLAS has no 2-D scale: scale column by column, or zero without reading. */
#define HOST_SCAL(P, T, SCALFN, ISZERO, ARG)                                                       \
    static int host_##P##scal(kern_ctx_t *ctx, int64_t m, int64_t n, const void *beta, void *C,    \
                              int64_t ldc)                                                         \
    {                                                                                              \
        (void)ctx;                                                                                 \
        T *c = C;                                                                                  \
        for (int64_t j = 0; j < n; j++) {                                                          \
            if (ISZERO(beta))                                                                      \
                memset(c + j * ldc, 0, (size_t)m * sizeof(T));                                     \
            else                                                                                   \
                SCALFN((int)m, ARG(T, beta), c + j * ldc, 1);                                      \
        }                                                                                          \
        return 0;                                                                                  \
    }

#define HOST_KERNELS(P, T, ARG)                                                                    \
    static int host_##P##gemm(kern_ctx_t *ctx, tess_trans_t ta, tess_trans_t tb, int64_t m,        \
                              int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda, \
                              const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)  \
    {                                                                                              \
        (void)ctx;                                                                                 \
        cblas_##P##gemm(CblasColMajor, (CBLAS_TRANSPOSE)ta, (CBLAS_TRANSPOSE)tb, (int)m, (int)n,   \
                        (int)k, ARG(T, alpha), A, (int)lda, B, (int)ldb, ARG(T, beta), C,          \
                        (int)ldc);                                                                 \
        return 0;                                                                                  \
    }                                                                                              \
    static int host_##P##trsm(kern_ctx_t *ctx, tess_side_t side, tess_uplo_t uplo,                 \
                              tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,          \
                              const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb) \
    {                                                                                              \
        (void)ctx;                                                                                 \
        cblas_##P##trsm(CblasColMajor, (CBLAS_SIDE)side, (CBLAS_UPLO)uplo, (CBLAS_TRANSPOSE)trans, \
                        (CBLAS_DIAG)diag, (int)m, (int)n, ARG(T, alpha), A, (int)lda, B,           \
                        (int)ldb);                                                                 \
        return 0;                                                                                  \
    }                                                                                              \
    static int host_##P##trmm(kern_ctx_t *ctx, tess_side_t side, tess_uplo_t uplo,                 \
                              tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,          \
                              const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb) \
    {                                                                                              \
        (void)ctx;                                                                                 \
        cblas_##P##trmm(CblasColMajor, (CBLAS_SIDE)side, (CBLAS_UPLO)uplo, (CBLAS_TRANSPOSE)trans, \
                        (CBLAS_DIAG)diag, (int)m, (int)n, ARG(T, alpha), A, (int)lda, B,           \
                        (int)ldb);                                                                 \
        return 0;                                                                                  \
    }

/* A BLAS-2 tile's products: the host reads A once per product (two GEMVs), or
 * the diagonal tile's SYMV/HEMV. */
#define HOST_GEMV2(P, T, ARG, SYMV)                                                                \
    static int host_##P##gemv2(                                                                    \
        kern_ctx_t *ctx, tess_part_t part, bool herm, int64_t m, int64_t n, const void *alpha,     \
        const void *A, int64_t lda, const void *x1, int64_t incx1, const void *x2, int64_t incx2,  \
        const void *beta1, void *y1, int64_t incy1, const void *beta2, void *y2, int64_t incy2)    \
    {                                                                                              \
        (void)ctx;                                                                                 \
        if (part != TessAll) {                                                                     \
            SYMV(CblasColMajor, (CBLAS_UPLO)part, (int)n, ARG(T, alpha), A, (int)lda, x2,          \
                 (int)incx2, ARG(T, beta1), y1, (int)incy1);                                       \
            return 0;                                                                              \
        }                                                                                          \
        if (y1)                                                                                    \
            cblas_##P##gemv(CblasColMajor, CblasNoTrans, (int)m, (int)n, ARG(T, alpha), A,         \
                            (int)lda, x2, (int)incx2, ARG(T, beta1), y1, (int)incy1);              \
        if (y2)                                                                                    \
            cblas_##P##gemv(CblasColMajor, herm ? CblasConjTrans : CblasTrans, (int)m, (int)n,     \
                            ARG(T, alpha), A, (int)lda, x1, (int)incx1, ARG(T, beta2), y2,         \
                            (int)incy2);                                                           \
        return 0;                                                                                  \
    }

/* The symmetric and Hermitian BLAS-3 kernels.  RT is T's real type; for real
 * types the Hermitian names are the symmetric routines (herm is never set). */
#define HOST_SYM3(P, TY, T, RT, ARG, HEMM, HERK, HER2K)                                            \
    static int host_##P##symm(kern_ctx_t *ctx, bool herm, tess_side_t side, tess_uplo_t uplo,      \
                              int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda, \
                              const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)  \
    {                                                                                              \
        (void)ctx;                                                                                 \
        (herm ? HEMM : cblas_##P##symm)(CblasColMajor, (CBLAS_SIDE)side, (CBLAS_UPLO)uplo, (int)m, \
                                        (int)n, ARG(T, alpha), A, (int)lda, B, (int)ldb,           \
                                        ARG(T, beta), C, (int)ldc);                                \
        return 0;                                                                                  \
    }                                                                                              \
    static int host_##P##syrk(kern_ctx_t *ctx, bool herm, tess_uplo_t uplo, tess_trans_t trans,    \
                              int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda, \
                              const void *beta, void *C, int64_t ldc)                              \
    {                                                                                              \
        (void)ctx;                                                                                 \
        if (herm)                                                                                  \
            HERK(CblasColMajor, (CBLAS_UPLO)uplo, (CBLAS_TRANSPOSE)trans, (int)n, (int)k,          \
                 REAL_ARG(RT, alpha), A, (int)lda, REAL_ARG(RT, beta), C, (int)ldc);               \
        else                                                                                       \
            cblas_##P##syrk(CblasColMajor, (CBLAS_UPLO)uplo, (CBLAS_TRANSPOSE)trans, (int)n,       \
                            (int)k, ARG(T, alpha), A, (int)lda, ARG(T, beta), C, (int)ldc);        \
        return 0;                                                                                  \
    }                                                                                              \
    static int host_##P##syr2k(kern_ctx_t *ctx, bool herm, tess_uplo_t uplo, tess_trans_t trans,   \
                               int64_t n, int64_t k, const void *alpha, const void *A,             \
                               int64_t lda, const void *B, int64_t ldb, const void *beta, void *C, \
                               int64_t ldc)                                                        \
    {                                                                                              \
        (void)ctx;                                                                                 \
        if (herm)                                                                                  \
            HER2K(CblasColMajor, (CBLAS_UPLO)uplo, (CBLAS_TRANSPOSE)trans, (int)n, (int)k,         \
                  ARG(T, alpha), A, (int)lda, B, (int)ldb, REAL_ARG(RT, beta), C, (int)ldc);       \
        else                                                                                       \
            cblas_##P##syr2k(CblasColMajor, (CBLAS_UPLO)uplo, (CBLAS_TRANSPOSE)trans, (int)n,      \
                             (int)k, ARG(T, alpha), A, (int)lda, B, (int)ldb, ARG(T, beta), C,     \
                             (int)ldc);                                                            \
        return 0;                                                                                  \
    }                                                                                              \
    /* The host BLAS has no GEMMT: a leaf is a GEMM per column of its triangle. */                 \
    static int host_##P##gemmt_leaf(kern_ctx_t *ctx, tess_uplo_t uplo, tess_trans_t ta,            \
                                    tess_trans_t tb, int64_t n, int64_t k, const void *alpha,      \
                                    const void *A, int64_t lda, const void *B, int64_t ldb,        \
                                    const void *beta, void *C, int64_t ldc)                        \
    {                                                                                              \
        const T *a = A, *b = B;                                                                    \
        T *c = C;                                                                                  \
        for (int64_t j = 0; j < n; j++) {                                                          \
            int64_t i0 = uplo == TessLower ? j : 0, rows = uplo == TessLower ? n - j : j + 1;      \
            host_##P##gemm(                                                                        \
                ctx, ta, tb, rows, 1, k, alpha, a + (ta == TessNoTrans ? i0 : i0 * lda), lda,      \
                b + (tb == TessNoTrans ? j * ldb : j), ldb, beta, c + i0 + j * ldc, ldc);          \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static int host_##P##gemmt(kern_ctx_t *ctx, tess_uplo_t uplo, tess_trans_t ta,                 \
                               tess_trans_t tb, int64_t n, int64_t k, const void *alpha,           \
                               const void *A, int64_t lda, const void *B, int64_t ldb,             \
                               const void *beta, void *C, int64_t ldc)                             \
    {                                                                                              \
        return kern_gemmt_recursive(&kern_host_table[TY], sizeof(T), HOST_GEMMT_LEAF,              \
                                    host_##P##gemmt_leaf, ctx, uplo, ta, tb, n, k, alpha, A, lda,  \
                                    B, ldb, beta, C, ldc);                                         \
    }                                                                                              \
    static int host_##P##scal_tri(kern_ctx_t *ctx, bool herm, tess_uplo_t uplo, int64_t n,         \
                                  const void *beta, void *C, int64_t ldc)                          \
    {                                                                                              \
        (void)ctx;                                                                                 \
        T bv = herm ? (T)(*(const RT *)beta) : *(const T *)beta, *c = C;                           \
        for (int64_t j = 0; j < n; j++) {                                                          \
            int64_t i0 = uplo == TessLower ? j : 0, i1 = uplo == TessLower ? n : j + 1;            \
            for (int64_t i = i0; i < i1; i++) {                                                    \
                /* a Hermitian diagonal's imaginary parts are not read: BLAS takes them as 0 */    \
                T cv = herm && i == j ? (T)(RT)creal(c[i + j * ldc]) : c[i + j * ldc];             \
                T v = bv == 0 ? 0 : bv * cv;                                                       \
                c[i + j * ldc] = herm && i == j ? (T)(RT)creal(v) : v;                             \
            }                                                                                      \
        }                                                                                          \
        return 0;                                                                                  \
    }

/* Rows of a GEMMT leaf: its column GEMMs cost the same at any size, so the
 * leaf only bounds the recursion's depth. */
#define HOST_GEMMT_LEAF 64

static int real_zero_s(const void *p)
{
    return *(const float *)p == 0.0f;
}
static int real_zero_d(const void *p)
{
    return *(const double *)p == 0.0;
}
static int cplx_zero_c(const void *p)
{
    return *(const float _Complex *)p == 0.0f;
}
static int cplx_zero_z(const void *p)
{
    return *(const double _Complex *)p == 0.0;
}

HOST_KERNELS(s, float, REAL_ARG)
HOST_KERNELS(d, double, REAL_ARG)
HOST_KERNELS(c, float _Complex, CPLX_ARG)
HOST_KERNELS(z, double _Complex, CPLX_ARG)
HOST_GEMV2(s, float, REAL_ARG, cblas_ssymv)
HOST_GEMV2(d, double, REAL_ARG, cblas_dsymv)
HOST_GEMV2(c, float _Complex, CPLX_ARG, cblas_chemv)
HOST_GEMV2(z, double _Complex, CPLX_ARG, cblas_zhemv)
HOST_SYM3(s, KERN_S, float, float, REAL_ARG, cblas_ssymm, cblas_ssyrk, cblas_ssyr2k)
HOST_SYM3(d, KERN_D, double, double, REAL_ARG, cblas_dsymm, cblas_dsyrk, cblas_dsyr2k)
HOST_SYM3(c, KERN_C, float _Complex, float, CPLX_ARG, cblas_chemm, cblas_cherk, cblas_cher2k)
HOST_SYM3(z, KERN_Z, double _Complex, double, CPLX_ARG, cblas_zhemm, cblas_zherk, cblas_zher2k)
HOST_SCAL(s, float, cblas_sscal, real_zero_s, REAL_ARG)
HOST_SCAL(d, double, cblas_dscal, real_zero_d, REAL_ARG)
HOST_SCAL(c, float _Complex, cblas_cscal, cplx_zero_c, CPLX_ARG)
HOST_SCAL(z, double _Complex, cblas_zscal, cplx_zero_z, CPLX_ARG)

/* B = alpha A + beta B by columns, in plain loops: a zero scalar's matrix is never read, so
 * that NaN there does not reach B. */
#define HOST_GEADD(P, T, ISZERO)                                                                   \
    static int host_##P##geadd(kern_ctx_t *ctx, int64_t m, int64_t n, const void *alpha,           \
                               const void *A, int64_t lda, const void *beta, void *B, int64_t ldb) \
    {                                                                                              \
        (void)ctx;                                                                                 \
        const T *a = A, al = *(const T *)alpha, be = *(const T *)beta;                             \
        T *b = B;                                                                                  \
        bool use_a = !ISZERO(alpha), use_b = !ISZERO(beta);                                        \
        for (int64_t j = 0; j < n; j++)                                                            \
            for (int64_t i = 0; i < m; i++) {                                                      \
                T *bij = &b[i + j * ldb];                                                          \
                if (use_a && use_b)                                                                \
                    *bij = al * a[i + j * lda] + be * *bij;                                        \
                else                                                                               \
                    *bij = use_a ? al * a[i + j * lda] : use_b ? be * *bij : 0;                    \
            }                                                                                      \
        return 0;                                                                                  \
    }

HOST_GEADD(s, float, real_zero_s)
HOST_GEADD(d, double, real_zero_d)
HOST_GEADD(c, float _Complex, cplx_zero_c)
HOST_GEADD(z, double _Complex, cplx_zero_z)

/* B = A^H by square blocks that stay in cache while one is read by columns and the other
 * written by rows.  CONJ is the identity for real types. */
#define HOST_TRANSPOSE_BLOCK 32
#define HOST_TRANSPOSE(P, T, CONJ)                                                                 \
    static int host_##P##transpose(kern_ctx_t *ctx, int64_t m, int64_t n, const void *A,           \
                                   int64_t lda, void *B, int64_t ldb)                              \
    {                                                                                              \
        (void)ctx;                                                                                 \
        const T *a = A;                                                                            \
        T *b = B;                                                                                  \
        for (int64_t j0 = 0; j0 < n; j0 += HOST_TRANSPOSE_BLOCK)                                   \
            for (int64_t i0 = 0; i0 < m; i0 += HOST_TRANSPOSE_BLOCK) {                             \
                int64_t j1 = j0 + HOST_TRANSPOSE_BLOCK < n ? j0 + HOST_TRANSPOSE_BLOCK : n;        \
                int64_t i1 = i0 + HOST_TRANSPOSE_BLOCK < m ? i0 + HOST_TRANSPOSE_BLOCK : m;        \
                for (int64_t j = j0; j < j1; j++)                                                  \
                    for (int64_t i = i0; i < i1; i++)                                              \
                        b[j + i * ldb] = CONJ(a[i + j * lda]);                                     \
            }                                                                                      \
        return 0;                                                                                  \
    }

#define REAL_SAME(x) (x)
HOST_TRANSPOSE(s, float, REAL_SAME)
HOST_TRANSPOSE(d, double, REAL_SAME)
HOST_TRANSPOSE(c, float _Complex, conjf)
HOST_TRANSPOSE(z, double _Complex, conj)

/* The Cholesky family's diagonal tiles, LU's panels and QR's tasks, on the host LAPACK. */
#define HOST_LAPACK(P, TY, T)                                                                      \
    static int host_##P##potrf(kern_ctx_t *ctx, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, \
                               int64_t *info, int64_t offset)                                      \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_potrf(TY, uplo, n, A, lda, info, offset);                               \
    }                                                                                              \
    static int host_##P##trtri(kern_ctx_t *ctx, tess_uplo_t uplo, tess_diag_t diag, int64_t n,     \
                               void *A, int64_t lda, int64_t *info, int64_t offset)                \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_trtri(TY, uplo, diag, n, A, lda, info, offset);                         \
    }                                                                                              \
    static int host_##P##diag_zero(kern_ctx_t *ctx, int64_t n, const void *A, int64_t lda,         \
                                   int64_t *info, int64_t offset)                                  \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_diag_zero(TY, n, A, lda, info, offset);                                 \
    }                                                                                              \
    static int host_##P##any_nonzero(kern_ctx_t *ctx, int64_t m, int64_t n, const void *A,         \
                                     int64_t lda, int64_t *info, int64_t offset)                   \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_any_nonzero(TY, m, n, A, lda, info, offset);                            \
    }                                                                                              \
    static int host_##P##amax(kern_ctx_t *ctx, int64_t m, int64_t n, const void *A, int64_t lda,   \
                              double *amax)                                                        \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_amax(TY, m, n, A, lda, amax);                                           \
    }                                                                                              \
    static int host_##P##lauum(kern_ctx_t *ctx, tess_uplo_t uplo, int64_t n, void *A, int64_t lda) \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_lauum(TY, uplo, n, A, lda);                                             \
    }                                                                                              \
    static int host_##P##getrf(kern_ctx_t *ctx, int64_t m, int64_t n, void *A, int64_t lda,        \
                               int64_t *ipiv, int64_t *info, int64_t offset)                       \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_getrf(TY, m, n, A, lda, ipiv, info, offset);                            \
    }                                                                                              \
    static int host_##P##laswp(kern_ctx_t *ctx, int64_t m, int64_t n, void *A, int64_t lda,        \
                               int64_t k1, int64_t k2, const int64_t *ipiv, bool forward)          \
    {                                                                                              \
        (void)ctx;                                                                                 \
        host_lapack_laswp(sizeof(T), m, n, A, lda, k1, k2, ipiv, forward);                         \
        return 0;                                                                                  \
    }                                                                                              \
    static int host_##P##geqrf(kern_ctx_t *ctx, int64_t m, int64_t n, void *A, int64_t lda,        \
                               void *tau)                                                          \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_geqrf(TY, m, n, A, lda, tau);                                           \
    }                                                                                              \
    static int host_##P##ormqr(kern_ctx_t *ctx, tess_side_t side, tess_trans_t trans, int64_t m,   \
                               int64_t n, int64_t k, const void *V, int64_t ldv, const void *tau,  \
                               void *C, int64_t ldc)                                               \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_ormqr(TY, side, trans, m, n, k, V, ldv, tau, C, ldc);                   \
    }                                                                                              \
    static int host_##P##larft(kern_ctx_t *ctx, int64_t m, int64_t k, const void *V, int64_t ldv,  \
                               const void *tau, void *Tf, int64_t ldt)                             \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_larft(TY, m, k, V, ldv, tau, Tf, ldt);                                  \
    }                                                                                              \
    static int host_##P##larfb(kern_ctx_t *ctx, tess_trans_t trans, int64_t m, int64_t n,          \
                               int64_t k, const void *V, int64_t ldv, const void *Tf, int64_t ldt, \
                               void *C, int64_t ldc)                                               \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return host_lapack_larfb(TY, trans, m, n, k, V, ldv, Tf, ldt, C, ldc);                     \
    }

HOST_LAPACK(s, KERN_S, float)
HOST_LAPACK(d, KERN_D, double)
HOST_LAPACK(c, KERN_C, float _Complex)
HOST_LAPACK(z, KERN_Z, double _Complex)

#define HOST_TABLE(P)                                                                              \
    {                                                                                              \
        .gemm = host_##P##gemm, .scal = host_##P##scal, .geadd = host_##P##geadd,                  \
        .trsm = host_##P##trsm, .trmm = host_##P##trmm, .symm = host_##P##symm,                    \
        .syrk = host_##P##syrk, .syr2k = host_##P##syr2k, .gemmt = host_##P##gemmt,                \
        .scal_tri = host_##P##scal_tri, .gemv2 = host_##P##gemv2, .potrf = host_##P##potrf,        \
        .trtri = host_##P##trtri, .lauum = host_##P##lauum, .diag_zero = host_##P##diag_zero,      \
        .any_nonzero = host_##P##any_nonzero, .amax = host_##P##amax, .getrf = host_##P##getrf,    \
        .laswp = host_##P##laswp, .geqrf = host_##P##geqrf, .ormqr = host_##P##ormqr,              \
        .larft = host_##P##larft, .larfb = host_##P##larfb, .transpose = host_##P##transpose       \
    }

const kern_table_t kern_host_table[KERN_NTYPES] = {
    [KERN_S] = HOST_TABLE(s),
    [KERN_D] = HOST_TABLE(d),
    [KERN_C] = HOST_TABLE(c),
    [KERN_Z] = HOST_TABLE(z),
};
