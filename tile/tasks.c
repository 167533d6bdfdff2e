/* The tile tasks the routines share: GEMM, scaling, a sum of two tiles, a
 * triangular solve or product, and a rank-k (2k) update of a diagonal tile.
 * Each takes a tile_opts_t: its priority, urgency, and gate on the call's
 * INFO (tile.h). */
#include "tile.h"

/* The gated task's extra read (tile_opts_t.after), after its own accesses. */
static void tile_after(rt_task_t *task, const tile_opts_t *o)
{
    if (o->after)
        task_access(task, o->after, RT_R);
}

typedef struct {
    tess_trans_t ta, tb;
    int64_t m, n, k;
    int sa, sb, sc; /* access slots of A, B and C */
    int64_t *info, limit;
    blas_scalar_t alpha, beta;
} gemm_args_t;

static int gemm_tile(const rt_exec_t *x)
{
    const gemm_args_t *a = x->args;
    if (tile_gate_closed(a->info, a->limit))
        return 0;
    return x->kern->gemm(x->ctx, a->ta, a->tb, a->m, a->n, a->k, a->alpha.v, x->ptr[a->sa],
                         x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb], a->beta.v, x->ptr[a->sc],
                         x->ld[a->sc]);
}

int blas_task_gemm_opts(kern_type_t t, const tile_opts_t *o, tess_trans_t ta, tess_trans_t tb,
                        const void *alpha, rt_block_t *a, rt_block_t *b, const void *beta,
                        rt_block_t *c)
{
    rt_task_t *task = task_new(TASK_KERNEL, "gemm");
    if (!task)
        return TESS_ENOMEM;
    task->prio = o->prio;
    task->urgent = o->urgent;
    gemm_args_t g = { .ta = ta,
                      .info = o->info,
                      .limit = o->limit,
                      .tb = tb,
                      .m = c->m,
                      .n = c->n,
                      .k = ta == TessNoTrans ? a->n : a->m,
                      .alpha = blas_scalar(t, alpha),
                      .beta = blas_scalar(t, beta) };
    g.sa = task_access(task, a, RT_R);
    g.sb = task_access(task, b, RT_R);
    g.sc = task_access(task, c, kern_scalar_is_zero(t, beta) ? RT_W : RT_RW);
    tile_after(task, o);
    TASK_SET_ARGS(task, gemm_tile, t, g);
    return task_submit(task);
}

int blas_task_gemm_prio(kern_type_t t, int prio, tess_trans_t ta, tess_trans_t tb,
                        const void *alpha, rt_block_t *a, rt_block_t *b, const void *beta,
                        rt_block_t *c)
{
    tile_opts_t o = { .prio = prio };
    return blas_task_gemm_opts(t, &o, ta, tb, alpha, a, b, beta, c);
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

typedef struct {
    int64_t m, n;
    int sa, sb;
    blas_scalar_t alpha, beta;
} geadd_args_t;

static int geadd_tile(const rt_exec_t *x)
{
    const geadd_args_t *a = x->args;
    return x->kern->geadd(x->ctx, a->m, a->n, a->alpha.v, x->ptr[a->sa], x->ld[a->sa], a->beta.v,
                          x->ptr[a->sb], x->ld[a->sb]);
}

int blas_task_geadd(kern_type_t t, const void *alpha, rt_block_t *a, const void *beta,
                    rt_block_t *b)
{
    rt_task_t *task = task_new(TASK_KERNEL, "geadd");
    if (!task)
        return TESS_ENOMEM;
    geadd_args_t g = {
        .m = b->m, .n = b->n, .alpha = blas_scalar(t, alpha), .beta = blas_scalar(t, beta)
    };
    /* b first: a task with no place_by_first goes where the block it writes is */
    g.sb = task_access(task, b, kern_scalar_is_zero(t, beta) ? RT_W : RT_RW);
    g.sa = task_access(task, a, RT_R);
    TASK_SET_ARGS(task, geadd_tile, t, g);
    return task_submit(task);
}

typedef struct {
    bool solve;
    tess_side_t side;
    tess_uplo_t uplo;
    tess_trans_t trans;
    tess_diag_t diag;
    int64_t m, n;
    int sa, sb;
    int64_t *info, limit;
    blas_scalar_t alpha;
} trxm_args_t;

static int trxm_tile(const rt_exec_t *x)
{
    const trxm_args_t *a = x->args;
    if (tile_gate_closed(a->info, a->limit))
        return 0;
    return (a->solve ? x->kern->trsm : x->kern->trmm)(x->ctx, a->side, a->uplo, a->trans, a->diag,
                                                      a->m, a->n, a->alpha.v, x->ptr[a->sa],
                                                      x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb]);
}

int blas_task_trxm(kern_type_t t, const tile_opts_t *o, bool solve, tess_side_t side,
                   tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, const void *alpha,
                   rt_block_t *a, rt_block_t *b)
{
    rt_task_t *task = task_new(TASK_KERNEL, solve ? "trsm" : "trmm");
    if (!task)
        return TESS_ENOMEM;
    task->prio = o->prio;
    task->urgent = o->urgent;
    trxm_args_t s = { .solve = solve,
                      .side = side,
                      .uplo = uplo,
                      .trans = trans,
                      .diag = diag,
                      .m = b->m,
                      .n = b->n,
                      .info = o->info,
                      .limit = o->limit,
                      .alpha = blas_scalar(t, alpha) };
    s.sa = task_access(task, a, RT_R);
    s.sb = task_access(task, b, RT_RW);
    tile_after(task, o);
    TASK_SET_ARGS(task, trxm_tile, t, s);
    return task_submit(task);
}

typedef struct {
    bool herm, two;
    tess_uplo_t uplo;
    tess_trans_t trans;
    int64_t n, k;
    int sa, sb, sc;
    int64_t *info, limit;
    blas_scalar_t alpha, beta;
} rank_args_t;

static int rank_tile(const rt_exec_t *x)
{
    const rank_args_t *a = x->args;
    if (tile_gate_closed(a->info, a->limit))
        return 0;
    if (a->two)
        return x->kern->syr2k(x->ctx, a->herm, a->uplo, a->trans, a->n, a->k, a->alpha.v,
                              x->ptr[a->sa], x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb], a->beta.v,
                              x->ptr[a->sc], x->ld[a->sc]);
    return x->kern->syrk(x->ctx, a->herm, a->uplo, a->trans, a->n, a->k, a->alpha.v, x->ptr[a->sa],
                         x->ld[a->sa], a->beta.v, x->ptr[a->sc], x->ld[a->sc]);
}

int blas_task_rank(kern_type_t t, const tile_opts_t *o, bool herm, tess_uplo_t uplo,
                   tess_trans_t trans, const void *alpha, rt_block_t *a, rt_block_t *b,
                   const void *beta, rt_block_t *c)
{
    static const char *const names[2][2] = { { "syrk", "syr2k" }, { "herk", "her2k" } };
    bool two = b != NULL;
    rt_task_t *task = task_new(TASK_KERNEL, names[herm][two]);
    if (!task)
        return TESS_ENOMEM;
    task->prio = o->prio;
    task->urgent = o->urgent;
    rank_args_t s = { .herm = herm,
                      .two = two,
                      .uplo = uplo,
                      .trans = trans,
                      .n = c->n,
                      .k = trans == TessNoTrans ? a->n : a->m,
                      .info = o->info,
                      .limit = o->limit };
    memcpy(s.alpha.v, alpha, sizeof s.alpha.v);
    memcpy(s.beta.v, beta, sizeof s.beta.v);
    s.sa = task_access(task, a, RT_R);
    if (b)
        s.sb = task_access(task, b, RT_R);
    s.sc = task_access(task, c, RT_RW);
    tile_after(task, o);
    TASK_SET_ARGS(task, rank_tile, t, s);
    return task_submit(task);
}
