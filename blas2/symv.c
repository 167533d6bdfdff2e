/* SYMV and HEMV as tile algorithms: y = alpha A x + beta y, A read through
 * its stored triangle.  A diagonal tile is one task.  A stored tile A_ij off
 * the diagonal is one task that reads it once for both of its products,
 * A_ij x_j into y_i and A_ij^T x_i (^H) into y_j.
 *
 * A task runs where its tile is, so each device sums its own tiles' share of
 * every piece of y they touch (blas2.h): the device of the diagonal tile
 * A_kk sums into y_k itself, beta applied by that tile's task, which comes
 * first; every other device touching piece k sums into a partial of its own,
 * added into y_k at the end in increasing device order.  The off-diagonal
 * tiles go in the rounds of a round-robin tournament over the pieces (the
 * circle method): no two tiles of a round share a piece of x or y, so a
 * round's tasks on one device may run at once, and each device's sum for a
 * piece is updated once a round, in round order, which fixes the order of
 * its sums. */
#include "blas2.h"
#include <stdlib.h>
#include "scratch.h"

typedef struct {
    bool herm;
    tess_uplo_t uplo;
    int64_t n;
    const void *x, *y;
    int64_t incx, incy;
    blas_scalar_t alpha, beta;
    void **scratch; /* the partial sums' memory, for rt_scratch_submitted */
} symv_call_t;

enum { OP_A };

/* The pair of pieces that round r's k-th game plays, of np (even) players;
 * the last one stays put while the others turn. */
static void pairing(int64_t np, int64_t r, int64_t k, int64_t *a, int64_t *b)
{
    *a = k == 0 ? np - 1 : (r + k) % (np - 1);
    *b = (r - k + np - 1) % (np - 1);
}

/* The stored tile of round r's k-th game, (*i, *j); false for a bye. */
static bool game_tile(const symv_call_t *c, int64_t nt, int64_t r, int64_t k, int64_t *i,
                      int64_t *j)
{
    int64_t np = nt + nt % 2, p, q;
    pairing(np, r, k, &p, &q);
    if (p >= nt || q >= nt)
        return false;
    int64_t lo = p < q ? p : q, hi = p < q ? q : p;
    *i = c->uplo == TessLower ? hi : lo;
    *j = c->uplo == TessLower ? lo : hi;
    return true;
}

/* Which devices sum into each piece: the diagonal tile's into y_k itself. */
static void plan(partials_t *s, const symv_call_t *c, const tiling_t *A)
{
    int64_t nt = A->nt, np = nt + nt % 2;
    for (int64_t k = 0; k < nt; k++) {
        s->direct[k] = tiling_device(A, k, k);
        s->uses[s->direct[k] + k * s->ndev] = true;
    }
    for (int64_t r = 0; r < np - 1; r++)
        for (int64_t k = 0, i, j; k < np / 2; k++)
            if (game_tile(c, nt, r, k, &i, &j)) {
                int64_t d = tiling_device(A, i, j);
                s->uses[d + i * s->ndev] = s->uses[d + j * s->ndev] = true;
            }
}

static int submit_symv(kern_type_t t, const tiling_t *g, const void *call)
{
    const symv_call_t *c = call;
    const tiling_t *A = &g[OP_A];
    size_t es = kern_dtypes[t].size;
    int64_t nt = A->nt, np = nt + nt % 2;
    vtiling_t x, y;
    partials_t s;
    bool *started = NULL;
    int err = vtiling_make(&x, A, c->x, c->n, c->incx, es);
    if (err)
        return err;
    if ((err = vtiling_make(&y, A, c->y, c->n, c->incy, es))) {
        vtiling_free(&x);
        return err;
    }
    if (!(err = partials_init(&s, A, nt))) {
        plan(&s, c, A);
        err = partials_make(&s, &y, es, c->scratch);
        /* a partial's first task writes it without reading it (beta 0) */
        if (!err && !(started = calloc((size_t)(s.ndev * nt) + 1, sizeof *started)))
            err = TESS_ENOMEM;
    }
    blas_scalar_t one, zero = { { 0 } };
    kern_dtype_one(t, one.v);
    for (int64_t k = 0; k < nt && !err; k++)
        err = blas_task_mv(t, (tess_part_t)c->uplo, c->herm, c->alpha.v, tile(A, k, k), NULL,
                           x.blk[k], x.inc, c->beta.v, y.blk[k], NULL, NULL, y.inc);
    for (int64_t r = 0; r < np - 1 && !err; r++) {
        for (int64_t k = 0, i, j; k < np / 2 && !err; k++) {
            if (!game_tile(c, nt, r, k, &i, &j))
                continue;
            int64_t d = tiling_device(A, i, j);
            bool *si = &started[d + i * s.ndev], *sj = &started[d + j * s.ndev];
            bool begun_i = *si || d == s.direct[i], begun_j = *sj || d == s.direct[j];
            *si = *sj = true;
            err = blas_task_mv(t, TessAll, c->herm, c->alpha.v, tile(A, i, j), x.blk[i], x.blk[j],
                               x.inc, begun_i ? one.v : zero.v, partials_target(&s, &y, d, i),
                               begun_j ? one.v : zero.v, partials_target(&s, &y, d, j), y.inc);
        }
    }
    if (!err)
        err = partials_reduce(t, &s, &y);
    partials_free(&s);
    free(started);
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
    void *scratch = NULL;
    symv_call_t c = { herm && kern_dtypes[t].is_complex,
                      uplo,
                      n,
                      x,
                      y,
                      incx,
                      incy,
                      blas_scalar(t, alpha),
                      blas_scalar(t, beta),
                      &scratch };
    blas_operand_t ops[] = { [OP_A] = { uses_ax ? A : NULL, n, n, lda, true } };
    err = blas_run(t, 1, ops, uses_ax ? submit_symv : submit_scale, &c);
    if (scratch)
        rt_scratch_submitted(scratch);
    return err;
}
