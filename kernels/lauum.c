/* LAUUM by halves, for a backend with no LAUUM kernel: the work goes to a
 * SYRK/HERK and a TRMM of the table, and only blocks of at most leaf rows
 * need a kernel of their own. */
#include "kern.h"

int kern_lauum_recursive(const kern_table_t *tab, size_t es, bool complex_type, int64_t leaf,
                         int (*leaf_fn)(kern_ctx_t *, tess_uplo_t, int64_t, void *, int64_t),
                         kern_ctx_t *ctx, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)
{
    if (n <= leaf)
        return leaf_fn(ctx, uplo, n, A, lda);
    /* ones of the table's type and of its real type (HERK's scalars) */
    static const double one_d[2] = { 1, 0 };
    static const float one_s[2] = { 1, 0 };
    const void *one =
        es == 4 || (complex_type && es == 8) ? (const void *)one_s : (const void *)one_d;
    tess_trans_t ct = complex_type ? TessConjTrans : TessTrans;
    int64_t n1 = n / 2, n2 = n - n1;
    char *a = A, *A22 = a + (size_t)(n1 + n1 * lda) * es;
    int err = kern_lauum_recursive(tab, es, complex_type, leaf, leaf_fn, ctx, uplo, n1, A, lda);
    if (uplo == TessLower) {
        char *A21 = a + (size_t)n1 * es;
        if (!err)
            err = tab->syrk(ctx, complex_type, uplo, ct, n1, n2, one, A21, lda, one, A, lda);
        if (!err)
            err = tab->trmm(ctx, TessLeft, uplo, ct, TessNonUnit, n2, n1, one, A22, lda, A21, lda);
    } else {
        char *A12 = a + (size_t)(n1 * lda) * es;
        if (!err)
            err =
                tab->syrk(ctx, complex_type, uplo, TessNoTrans, n1, n2, one, A12, lda, one, A, lda);
        if (!err)
            err = tab->trmm(ctx, TessRight, uplo, ct, TessNonUnit, n1, n2, one, A22, lda, A12, lda);
    }
    if (!err)
        err = kern_lauum_recursive(tab, es, complex_type, leaf, leaf_fn, ctx, uplo, n2, A22, lda);
    return err;
}
