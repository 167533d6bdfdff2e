/* Vectors as blocks, and the tile task of GEMV and SYMV/HEMV. */
#include <stdlib.h>
#include "blas2.h"

/* The distance between elements, |inc|: 1 for a single element, whose
 * increment is never applied, and past the address space (so that nothing
 * fits) for an increment whose magnitude int64_t cannot hold. */
static int64_t step_of(int64_t len, int64_t inc)
{
    if (len <= 1)
        return 1;
    if (inc == INT64_MIN)
        return INT64_MAX;
    return inc < 0 ? -inc : inc;
}

/* The lowest address of elements [e0, e0 + plen) of the vector: the first
 * one's, or with a negative increment the last one's (element e at
 * x + (len - 1 - e) |inc|). */
static char *piece_base(const void *x, int64_t len, int64_t inc, size_t es, int64_t e0,
                        int64_t plen)
{
    int64_t step = step_of(len, inc), first = inc < 0 ? len - e0 - plen : e0;
    return (char *)x + (size_t)first * (size_t)step * es;
}

bool vtiling_fits(const void *x, int64_t len, int64_t inc, size_t es)
{
    return len <= 0 || block_view_fits(x, 1, len, step_of(len, inc), es);
}

int vtiling_make(vtiling_t *v, const tiling_t *A, const void *x, int64_t len, int64_t inc,
                 size_t es)
{
    int64_t nb = A->nb;
    int64_t step = step_of(len, inc);
    v->nt = (len + nb - 1) / nb;
    v->inc = inc < 0 ? -1 : 1;
    v->blk = malloc((size_t)v->nt * sizeof *v->blk + 1);
    if (!v->blk)
        return TESS_ENOMEM;
    for (int64_t p = 0; p < v->nt; p++) {
        int64_t e0 = p * nb, plen = len - e0 < nb ? len - e0 : nb;
        char *ptr = piece_base(x, len, inc, es, e0, plen);
        /* a contiguous vector's pieces are the tiles of the len x 1 matrix it is,
         * homed as that matrix's: dealt to the devices in turn */
        int64_t ti, tj;
        tiling_home(p, 0, v->nt, 1, A->p, A->q, &ti, &tj);
        rt_block_t *b = step == 1 ? block_get(ptr, plen, 1, len, es, ti, tj)
                                  : block_get(ptr, 1, plen, step, es, ti, tj);
        if (!b) {
            vtiling_free(v);
            return TESS_ENOMEM;
        }
        v->blk[p] = b;
    }
    if (len > 0)
        pin_request((void *)x, block_span_bytes(1, len, step, es), false);
    return 0;
}

void vtiling_free(vtiling_t *v)
{
    free(v->blk);
    v->blk = NULL;
}

typedef struct {
    tess_part_t part;
    bool herm;
    int64_t m, n;
    int8_t sa, sx1, sx2, sy1, sy2; /* access slots; -1: not used */
    int8_t incx, incy;
    blas_scalar_t alpha, beta1, beta2;
} mv_args_t;

static void *slot_ptr(const rt_exec_t *x, int s)
{
    return s >= 0 ? x->ptr[s] : NULL;
}

static int mv_tile(const rt_exec_t *x)
{
    const mv_args_t *a = x->args;
    return x->kern->gemv2(x->ctx, a->part, a->herm, a->m, a->n, a->alpha.v, x->ptr[a->sa],
                          x->ld[a->sa], slot_ptr(x, a->sx1), a->incx, slot_ptr(x, a->sx2), a->incx,
                          a->beta1.v, slot_ptr(x, a->sy1), a->incy, a->beta2.v, slot_ptr(x, a->sy2),
                          a->incy);
}

static rt_mode_t out_mode(kern_type_t t, const void *beta)
{
    return kern_scalar_is_zero(t, beta) ? RT_W : RT_RW;
}

int blas_task_mv(kern_type_t t, tess_part_t part, bool herm, const void *alpha, rt_block_t *a,
                 rt_block_t *x1, rt_block_t *x2, int incx, const void *beta1, rt_block_t *y1,
                 const void *beta2, rt_block_t *y2, int incy)
{
    rt_task_t *task = task_new(TASK_KERNEL, part != TessAll ? (herm ? "hemv" : "symv")
                                            : y1 && y2      ? "gemv2"
                                                            : "gemv");
    if (!task)
        return TESS_ENOMEM;
    mv_args_t g = { .part = part,
                    .herm = herm,
                    .m = a->m,
                    .n = a->n,
                    .sx1 = -1,
                    .sx2 = -1,
                    .sy1 = -1,
                    .sy2 = -1,
                    .incx = (int8_t)incx,
                    .incy = (int8_t)incy,
                    .alpha = blas_scalar(t, alpha) };
    /* the tile first: the task goes where it is */
    g.sa = (int8_t)task_access(task, a, RT_R);
    task->place_by_first = true;
    if (y2)
        g.sx1 = (int8_t)task_access(task, x1, RT_R);
    if (y1)
        g.sx2 = (int8_t)task_access(task, x2, RT_R);
    if (y1) {
        g.beta1 = blas_scalar(t, beta1);
        g.sy1 = (int8_t)task_access(task, y1, out_mode(t, beta1));
    }
    if (y2) {
        g.beta2 = blas_scalar(t, beta2);
        g.sy2 = (int8_t)task_access(task, y2, out_mode(t, beta2));
    }
    TASK_SET_ARGS(task, mv_tile, t, g);
    return task_submit(task);
}
