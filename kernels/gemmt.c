/* GEMMT by halves, for every backend: the off-diagonal half of C is a plain
 * GEMM, which is where nearly all the work goes, and only the small blocks on
 * the diagonal need a kernel that writes one triangle. */
#include "kern.h"

/* The first half's size: n / 2 rounded up to 64 rows, so that the GEMMs
 * below stay aligned, and always smaller than n. */
static int64_t first_half(int64_t n)
{
    int64_t h = (n / 2 + 63) / 64 * 64;
    return h < n ? h : n / 2;
}

int kern_gemmt_recursive(const kern_table_t *tab, size_t es, int64_t leaf,
                         int (*leaf_fn)(kern_ctx_t *, tess_uplo_t, tess_trans_t, tess_trans_t,
                                        int64_t, int64_t, const void *, const void *, int64_t,
                                        const void *, int64_t, const void *, void *, int64_t),
                         kern_ctx_t *ctx, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,
                         int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                         const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)
{
    if (n <= leaf)
        return leaf_fn(ctx, uplo, ta, tb, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    int64_t n1 = first_half(n), n2 = n - n1;
    /* the second block of rows of op(A) and of columns of op(B) */
    const char *A2 = (const char *)A + (size_t)(ta == TessNoTrans ? n1 : n1 * lda) * es;
    const char *B2 = (const char *)B + (size_t)(tb == TessNoTrans ? n1 * ldb : n1) * es;
    char *C22 = (char *)C + (size_t)(n1 + n1 * ldc) * es;
    int err = uplo == TessLower ? tab->gemm(ctx, ta, tb, n2, n1, k, alpha, A2, lda, B, ldb, beta,
                                            (char *)C + (size_t)n1 * es, ldc)
                                : tab->gemm(ctx, ta, tb, n1, n2, k, alpha, A, lda, B2, ldb, beta,
                                            (char *)C + (size_t)(n1 * ldc) * es, ldc);
    if (!err)
        err = kern_gemmt_recursive(tab, es, leaf, leaf_fn, ctx, uplo, ta, tb, n1, k, alpha, A, lda,
                                   B, ldb, beta, C, ldc);
    if (!err)
        err = kern_gemmt_recursive(tab, es, leaf, leaf_fn, ctx, uplo, ta, tb, n2, k, alpha, A2, lda,
                                   B2, ldb, beta, C22, ldc);
    return err;
}
