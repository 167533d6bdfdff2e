/* What every routine shares: tiling its operands while it submits, inside
 * the runtime (rt_enter, so that tess_finalize waits for the call), and the
 * GEMM and scaling tile tasks. */
#include "call.h"
#include "tile.h"

int blas_run(kern_type_t t, int nops, const blas_operand_t *ops,
             int (*submit)(kern_type_t t, const tiling_t *g, const void *call), const void *call)
{
    size_t es = kern_dtypes[t].size;
    tiling_t g[BLAS_MAX_OPERANDS] = { { 0 } };
    /* an operand beyond the address space would overflow its tiling */
    for (int i = 0; i < nops; i++)
        if (ops[i].ptr && !block_view_fits(ops[i].ptr, ops[i].m, ops[i].n, ops[i].ld, es))
            return TESS_ENOMEM;
    int err = rt_enter();
    if (err)
        return err;
    rt_submit_begin();
    int64_t nb = tiling_pick_nb(t, nops, ops);
    for (int i = 0; i < nops; i++)
        g[i].nb = g[i].mb = nb;
    for (int i = 0; i < nops && !err; i++)
        if (ops[i].ptr && ops[i].m > 0 && ops[i].n > 0)
            err = tiling_make(&g[i], ops[i].panels ? ops[i].m : nb, nb, ops[i].ptr, ops[i].m,
                              ops[i].n, ops[i].ld, es);
    if (!err)
        err = submit(t, g, call);
    rt_submit_end();
    for (int i = 0; i < nops; i++)
        tiling_free(&g[i]);
    rt_leave();
    return err;
}

typedef struct {
    tess_trans_t ta, tb;
    int64_t m, n, k;
    int sa, sb, sc; /* access slots of A, B and C */
    blas_scalar_t alpha, beta;
} gemm_args_t;

static int gemm_tile(const rt_exec_t *x)
{
    const gemm_args_t *a = x->args;
    return x->kern->gemm(x->ctx, a->ta, a->tb, a->m, a->n, a->k, a->alpha.v, x->ptr[a->sa],
                         x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb], a->beta.v, x->ptr[a->sc],
                         x->ld[a->sc]);
}

int blas_task_gemm_prio(kern_type_t t, int prio, tess_trans_t ta, tess_trans_t tb,
                        const void *alpha, rt_block_t *a, rt_block_t *b, const void *beta,
                        rt_block_t *c)
{
    rt_task_t *task = task_new(TASK_KERNEL, "gemm");
    if (!task)
        return TESS_ENOMEM;
    task->prio = prio;
    gemm_args_t g = { .ta = ta,
                      .tb = tb,
                      .m = c->m,
                      .n = c->n,
                      .k = ta == TessNoTrans ? a->n : a->m,
                      .alpha = blas_scalar(t, alpha),
                      .beta = blas_scalar(t, beta) };
    g.sa = task_access(task, a, RT_R);
    g.sb = task_access(task, b, RT_R);
    g.sc = task_access(task, c, kern_scalar_is_zero(t, beta) ? RT_W : RT_RW);
    TASK_SET_ARGS(task, gemm_tile, t, g);
    return task_submit(task);
}

typedef struct {
    int64_t m, n;
    bool herm;
    tess_part_t part;
    int sc;
    blas_scalar_t beta;
} scal_args_t;

static int scal_tile(const rt_exec_t *x)
{
    const scal_args_t *a = x->args;
    if (a->part == TessAll)
        return x->kern->scal(x->ctx, a->m, a->n, a->beta.v, x->ptr[a->sc], x->ld[a->sc]);
    return x->kern->scal_tri(x->ctx, a->herm, (tess_uplo_t)a->part, a->n, a->beta.v, x->ptr[a->sc],
                             x->ld[a->sc]);
}

int blas_task_scal(kern_type_t t, bool herm, tess_part_t part, const void *beta, rt_block_t *c)
{
    rt_task_t *task = task_new(TASK_KERNEL, "scal");
    if (!task)
        return TESS_ENOMEM;
    kern_type_t bt = herm ? kern_dtypes[t].real : t;
    scal_args_t a = {
        .m = c->m, .n = c->n, .herm = herm, .part = part, .beta = blas_scalar(bt, beta)
    };
    /* a triangle keeps the other one: the tile is read even when beta is 0 */
    a.sc = task_access(task, c, part == TessAll && kern_scalar_is_zero(bt, beta) ? RT_W : RT_RW);
    TASK_SET_ARGS(task, scal_tile, t, a);
    return task_submit(task);
}

int blas_scale(kern_type_t t, bool herm, tess_part_t part, const void *beta, const tiling_t *C)
{
    tess_uplo_t uplo = (tess_uplo_t)part;
    blas_scalar_t cbeta;
    if (herm)
        kern_scalar_from_real(t, beta, cbeta.v);
    else
        cbeta = blas_scalar(t, beta);
    int err = 0;
    for (int64_t j = 0; j < C->nt && !err; j++) {
        for (int64_t i = 0; i < C->mt && !err; i++) {
            if (part == TessAll || (i != j && in_triangle(uplo, i, j)))
                err = blas_task_scal(t, false, TessAll, cbeta.v, tile(C, i, j));
            else if (i == j)
                err = blas_task_scal(t, herm, part, beta, tile(C, i, j));
        }
    }
    return err;
}
