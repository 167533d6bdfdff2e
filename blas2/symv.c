/* SYMV and HEMV as tile algorithms: y = alpha A x + beta y, A read through
 * its stored triangle.  A diagonal tile is one task (beta applied there).  A
 * stored tile A_ij off the diagonal is one task that reads it once for both
 * of its products, A_ij x_j into y_i and A_ij^T x_i (^H) into y_j.
 *
 * The off-diagonal tiles go in the rounds of a round-robin tournament over
 * the pieces (the circle method): no two tiles of a round share a piece of
 * x or y, so a round's tasks run at once, and each piece of y is updated once
 * a round, in round order, which fixes the order of its sums. */
#include "blas2.h"

typedef struct {
    bool herm;
    tess_uplo_t uplo;
    int64_t n;
    const void *x, *y;
    int64_t incx, incy;
    blas_scalar_t alpha, beta;
} symv_call_t;

enum { OP_A };

/* The pair of pieces that round r's k-th game plays, of np (even) players;
 * the last one stays put while the others turn. */
static void pairing(int64_t np, int64_t r, int64_t k, int64_t *a, int64_t *b)
{
    *a = k == 0 ? np - 1 : (r + k) % (np - 1);
    *b = (r - k + np - 1) % (np - 1);
}

static int submit_symv(kern_type_t t, const tiling_t *g, const void *call)
{
    const symv_call_t *c = call;
    size_t es = kern_dtypes[t].size;
    vtiling_t x, y;
    int err = vtiling_make(&x, &g[OP_A], c->x, c->n, c->incx, es);
    if (err)
        return err;
    if ((err = vtiling_make(&y, &g[OP_A], c->y, c->n, c->incy, es))) {
        vtiling_free(&x);
        return err;
    }
    blas_scalar_t one;
    kern_dtype_one(t, one.v);
    const tiling_t *A = &g[OP_A];
    int64_t nt = A->nt, np = nt + nt % 2; /* a bye when odd */
    for (int64_t i = 0; i < nt && !err; i++)
        err = blas_task_mv(t, (tess_part_t)c->uplo, c->herm, c->alpha.v, tile(A, i, i), NULL,
                           x.blk[i], x.inc, c->beta.v, y.blk[i], NULL, NULL, y.inc);
    for (int64_t r = 0; r < np - 1 && !err; r++) {
        for (int64_t k = 0; k < np / 2 && !err; k++) {
            int64_t p, q;
            pairing(np, r, k, &p, &q);
            if (p >= nt || q >= nt)
                continue;
            /* the stored tile of the pair: row i, column j */
            int64_t lo = p < q ? p : q, hi = p < q ? q : p;
            int64_t i = c->uplo == TessLower ? hi : lo, j = c->uplo == TessLower ? lo : hi;
            err = blas_task_mv(t, TessAll, c->herm, c->alpha.v, tile(A, i, j), x.blk[i], x.blk[j],
                               x.inc, one.v, y.blk[i], one.v, y.blk[j], y.inc);
        }
    }
    vtiling_free(&x);
    vtiling_free(&y);
    return err;
}

/* alpha == 0: y = beta y, A and x never read */
static int submit_scale(kern_type_t t, const tiling_t *g, const void *call)
{
    const symv_call_t *c = call;
    vtiling_t y;
    int err = vtiling_make(&y, &g[OP_A], c->y, c->n, c->incy, kern_dtypes[t].size);
    for (int64_t p = 0; p < y.nt && !err; p++)
        err = blas_task_scal(t, false, TessAll, c->beta.v, y.blk[p]);
    vtiling_free(&y);
    return err;
}

int blas_symv(kern_type_t t, bool herm, tess_uplo_t uplo, int64_t n, const void *alpha,
              const void *A, int64_t lda, const void *x, int64_t incx, const void *beta, void *y,
              int64_t incy)
{
    int err = check_symv(t, uplo, n, alpha, A, lda, x, incx, y, incy);
    if (err || (err = rt_check_ready()))
        return err;
    bool uses_ax = !kern_scalar_is_zero(t, alpha);
    if (n == 0 || (!uses_ax && kern_scalar_is_one(t, beta)))
        return 0;
    size_t es = kern_dtypes[t].size;
    if ((uses_ax && !vtiling_fits(x, n, incx, es)) || !vtiling_fits(y, n, incy, es))
        return TESS_ENOMEM;
    symv_call_t c = { herm && kern_dtypes[t].is_complex,
                      uplo,
                      n,
                      x,
                      y,
                      incx,
                      incy,
                      blas_scalar(t, alpha),
                      blas_scalar(t, beta) };
    blas_operand_t ops[] = { [OP_A] = { uses_ax ? A : NULL, n, n, lda, true } };
    return blas_run(t, 1, ops, uses_ax ? submit_symv : submit_scale, &c);
}
