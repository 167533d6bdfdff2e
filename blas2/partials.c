/* The partial sums of y that GEMV and SYMV/HEMV reduce (blas2.h): a block
 * per (device, piece of y) in the call's scratch, never written back to the
 * host but by an eviction, and dropped at the sync after the call. */
#include <stdlib.h>
#include "blas2.h"
#include "scratch.h"

int partials_init(partials_t *s, const tiling_t *A, int64_t nt)
{
    s->p = A->p;
    s->q = A->q;
    s->ndev = A->p * A->q;
    s->nt = nt;
    s->direct = malloc((size_t)nt * sizeof *s->direct + 1);
    s->uses = calloc((size_t)(s->ndev * nt) + 1, sizeof *s->uses);
    s->blk = calloc((size_t)(s->ndev * nt) + 1, sizeof *s->blk);
    if (!s->direct || !s->uses || !s->blk) {
        partials_free(s);
        return TESS_ENOMEM;
    }
    for (int64_t k = 0; k < nt; k++)
        s->direct[k] = -1;
    return 0;
}

static bool is_partial(const partials_t *s, int64_t d, int64_t k)
{
    return s->uses[d + k * s->ndev] && d != s->direct[k];
}

int partials_make(partials_t *s, const vtiling_t *y, size_t es, void **scratch)
{
    int64_t len = 0, need = 0;
    for (int64_t k = 0; k < s->nt; k++) {
        len += y->blk[k]->m * y->blk[k]->n;
        for (int64_t d = 0; d < s->ndev; d++)
            need += is_partial(s, d, k);
    }
    if (!need)
        return 0;
    /* a vector of y's length per device, piece k of device d's at y's piece k's offset */
    char *mem = rt_scratch_alloc_submitting((size_t)(s->ndev * len) * es);
    if (!mem)
        return TESS_ENOMEM;
    *scratch = mem;
    for (int64_t d = 0, off = 0; d < s->ndev; d++)
        for (int64_t k = 0; k < s->nt; k++) {
            const rt_block_t *yk = y->blk[k];
            /* y's piece's shape, packed as its device copies are */
            if (is_partial(s, d, k) &&
                !(s->blk[d + k * s->ndev] = block_get(mem + (size_t)off * es, yk->m, yk->n, yk->m,
                                                      es, d / s->q, d % s->q)))
                return TESS_ENOMEM;
            off += yk->m * yk->n;
        }
    return 0;
}

rt_block_t *partials_target(const partials_t *s, const vtiling_t *y, int64_t d, int64_t k)
{
    return d == s->direct[k] ? y->blk[k] : s->blk[d + k * s->ndev];
}

int partials_reduce(kern_type_t t, const partials_t *s, const vtiling_t *y)
{
    blas_scalar_t one;
    kern_dtype_one(t, one.v);
    int err = 0;
    for (int64_t k = 0; k < s->nt && !err; k++)
        for (int64_t d = 0; d < s->ndev && !err; d++)
            if (is_partial(s, d, k))
                err = blas_task_geadd(t, one.v, s->blk[d + k * s->ndev], one.v, y->blk[k]);
    return err;
}

void partials_free(partials_t *s)
{
    free(s->direct);
    free(s->uses);
    free(s->blk);
    s->direct = NULL;
    s->uses = NULL;
    s->blk = NULL;
}
