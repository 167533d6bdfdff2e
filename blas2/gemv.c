/* GEMV as a tile algorithm: y = alpha op(A) x + beta y.  Piece i of y sums
 * the tiles of block row i of op(A), and a task runs where its tile is: one
 * chain over the whole row would carry y_i from device to device, the
 * devices taking turns.  Instead each device holding tiles of the row sums
 * its own in a chain of its own, in increasing tile order: one of them into
 * y_i, beta applied at its first step (which only writes y_i when beta is
 * 0), the others into partial sums, then added into y_i in increasing device
 * order (blas2.h).  Which device sums into y_i turns with i, so that y's
 * pieces and their reductions are spread over the devices. */
#include "blas2.h"
#include "scratch.h"

typedef struct {
    tess_trans_t trans;
    int64_t m, n;
    const void *x, *y;
    int64_t incx, incy;
    blas_scalar_t alpha, beta;
    void **scratch; /* the partial sums' memory, for rt_scratch_submitted */
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

/* The device of tile k of block row i of op(A). */
static int64_t row_device(const tiling_t *A, bool notrans, int64_t i, int64_t k)
{
    return notrans ? tiling_device(A, i, k) : tiling_device(A, k, i);
}

/* The devices that sum into each piece of y, those of its row's tiles, and the one summing
 * into y_i itself: the ((i / (ndev / count)) mod count)-th of them.  Consecutive rows of a
 * p x q grid fall on different rows of devices (a transposed one, columns), so stepping
 * only every ndev / count pieces puts y's pieces on every device, not on count of them. */
static void plan(partials_t *s, const tiling_t *A, bool notrans, int64_t len)
{
    for (int64_t i = 0; i < s->nt; i++) {
        bool *uses = &s->uses[i * s->ndev];
        int64_t count = 0;
        for (int64_t k = 0; k < len; k++) {
            int64_t d = row_device(A, notrans, i, k);
            count += !uses[d];
            uses[d] = true;
        }
        for (int64_t d = 0, pick = i / (s->ndev / count) % count; d < s->ndev; d++)
            if (uses[d] && pick-- == 0) {
                s->direct[i] = d;
                break;
            }
    }
}

/* Device d's chain for piece i: its tiles of the row in increasing order, beta (of y_i, or
 * 0 for a partial) at the first. */
static int submit_chain(kern_type_t t, const gemv_call_t *c, const tiling_t *A, const vtiling_t *x,
                        const vtiling_t *y, const partials_t *s, int64_t i, int64_t d)
{
    bool notrans = c->trans == TessNoTrans, herm = c->trans == TessConjTrans;
    int64_t len = notrans ? A->nt : A->mt;
    rt_block_t *yd = partials_target(s, y, d, i);
    blas_scalar_t one, zero = { { 0 } };
    kern_dtype_one(t, one.v);
    const void *beta = d == s->direct[i] ? c->beta.v : zero.v;
    int err = 0;
    for (int64_t k = 0; k < len && !err; k++) {
        if (row_device(A, notrans, i, k) != d)
            continue;
        if (notrans)
            err = blas_task_mv(t, TessAll, false, c->alpha.v, tile(A, i, k), NULL, x->blk[k],
                               x->inc, beta, yd, NULL, NULL, y->inc);
        else
            err = blas_task_mv(t, TessAll, herm, c->alpha.v, tile(A, k, i), x->blk[k], NULL, x->inc,
                               NULL, NULL, beta, yd, y->inc);
        beta = one.v;
    }
    return err;
}

static int submit_gemv(kern_type_t t, const tiling_t *g, const void *call)
{
    const gemv_call_t *c = call;
    const tiling_t *A = &g[OP_A];
    bool notrans = c->trans == TessNoTrans;
    vtiling_t x, y;
    partials_t s;
    int err = make_vectors(t, A, c, &x, &y);
    if (err)
        return err;
    if (!(err = partials_init(&s, A, y.nt))) {
        plan(&s, A, notrans, notrans ? A->nt : A->mt);
        err = partials_make(&s, &y, kern_dtypes[t].size, c->scratch);
        for (int64_t i = 0; i < y.nt && !err; i++)
            for (int64_t d = 0; d < s.ndev && !err; d++)
                if (s.uses[d + i * s.ndev])
                    err = submit_chain(t, c, A, &x, &y, &s, i, d);
        if (!err)
            err = partials_reduce(t, &s, &y);
        partials_free(&s);
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
    void *scratch = NULL;
    gemv_call_t c = { trans,   m, n, x, y, incx, incy, blas_scalar(t, alpha), blas_scalar(t, beta),
                      &scratch };
    blas_operand_t ops[] = { [OP_A] = { uses_ax ? A : NULL, m, n, lda } };
    err = blas_run(t, 1, ops, uses_ax ? submit_gemv : submit_scale, &c);
    if (scratch)
        rt_scratch_submitted(scratch);
    return err;
}
