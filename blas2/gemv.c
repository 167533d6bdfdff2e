/* GEMV as a tile algorithm: y = alpha op(A) x + beta y.  Each piece of y is
 * a chain of tasks over the tiles of its block row of op(A), in increasing
 * order, beta applied by the first (which only writes y when beta is 0).
 * Several pieces' chains run at once; a task runs where its tile of A is. */
#include "blas2.h"

typedef struct {
    tess_trans_t trans;
    int64_t m, n;
    const void *x, *y;
    int64_t incx, incy;
    blas_scalar_t alpha, beta;
} gemv_call_t;

enum { OP_A };

static int make_vectors(kern_type_t t, const tiling_t *A, const gemv_call_t *c, vtiling_t *x,
                        vtiling_t *y)
{
    bool notrans = c->trans == TessNoTrans;
    size_t es = kern_dtypes[t].size;
    int err = 0;
    if (x)
        err = vtiling_make(x, A, c->x, notrans ? c->n : c->m, c->incx, es);
    if (!err && (err = vtiling_make(y, A, c->y, notrans ? c->m : c->n, c->incy, es)) && x)
        vtiling_free(x);
    return err;
}

/* The tile at step s of a chain over n tiles whose homes cycle through d
 * devices (tile t on device t mod d): each device's tiles in a row, so that the
 * piece of y the chain updates crosses to another device d - 1 times, not at
 * every tile.  The order depends only on n and d: the sum is formed the same
 * way on every run. */
static int64_t step_at(int64_t n, int64_t d, int64_t s)
{
    for (int64_t r = 0; r < d; r++) {
        int64_t cnt = tiles_homed(n, r, d);
        if (s < cnt)
            return r + s * d;
        s -= cnt;
    }
    return s; /* not reached: s < n */
}

static int submit_gemv(kern_type_t t, const tiling_t *g, const void *call)
{
    const gemv_call_t *c = call;
    vtiling_t x, y;
    int err = make_vectors(t, &g[OP_A], c, &x, &y);
    if (err)
        return err;
    blas_scalar_t one;
    kern_dtype_one(t, one.v);
    const tiling_t *A = &g[OP_A];
    if (c->trans == TessNoTrans) {
        for (int64_t i = 0; i < A->mt && !err; i++)
            for (int64_t s = 0; s < A->nt && !err; s++) {
                int64_t j = step_at(A->nt, A->q, s);
                err = blas_task_mv(t, TessAll, false, c->alpha.v, tile(A, i, j), NULL, x.blk[j],
                                   x.inc, s ? one.v : c->beta.v, y.blk[i], NULL, NULL, y.inc);
            }
    } else {
        bool herm = c->trans == TessConjTrans;
        for (int64_t j = 0; j < A->nt && !err; j++)
            for (int64_t s = 0; s < A->mt && !err; s++) {
                int64_t i = step_at(A->mt, A->p, s);
                err = blas_task_mv(t, TessAll, herm, c->alpha.v, tile(A, i, j), x.blk[i], NULL,
                                   x.inc, NULL, NULL, s ? one.v : c->beta.v, y.blk[j], y.inc);
            }
    }
    vtiling_free(&x);
    vtiling_free(&y);
    return err;
}

/* alpha == 0: y = beta y, A and x never read */
static int submit_scale(kern_type_t t, const tiling_t *g, const void *call)
{
    const gemv_call_t *c = call;
    vtiling_t y;
    int err = make_vectors(t, &g[OP_A], c, NULL, &y);
    for (int64_t p = 0; p < y.nt && !err; p++)
        err = blas_task_scal(t, false, TessAll, c->beta.v, y.blk[p]);
    vtiling_free(&y);
    return err;
}

int blas_gemv(kern_type_t t, tess_trans_t trans, int64_t m, int64_t n, const void *alpha,
              const void *A, int64_t lda, const void *x, int64_t incx, const void *beta, void *y,
              int64_t incy)
{
    int err = check_gemv(t, trans, m, n, alpha, A, lda, x, incx, y, incy);
    if (err || (err = rt_check_ready()))
        return err;
    bool uses_ax = !kern_scalar_is_zero(t, alpha);
    if (m == 0 || n == 0 || (!uses_ax && kern_scalar_is_one(t, beta)))
        return 0;
    trans = kern_trans(t, trans);
    bool notrans = trans == TessNoTrans;
    size_t es = kern_dtypes[t].size;
    if ((uses_ax && !vtiling_fits(x, notrans ? n : m, incx, es)) ||
        !vtiling_fits(y, notrans ? m : n, incy, es))
        return TESS_ENOMEM;
    gemv_call_t c = { trans, m, n, x, y, incx, incy, blas_scalar(t, alpha), blas_scalar(t, beta) };
    blas_operand_t ops[] = { [OP_A] = { uses_ax ? A : NULL, m, n, lda } };
    return blas_run(t, 1, ops, uses_ax ? submit_gemv : submit_scale, &c);
}
