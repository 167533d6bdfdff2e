/* LU's tasks on column panels (getrf.c): each names whole panels of the
 * matrix, a panel of B or A for the solves, and pieces of the pivots, and
 * works on rows of them, so that a step's row swaps, solve and update of one
 * panel are one task on the two panels involved. */
#include "lapack.h"

typedef enum { LU_PANEL, LU_UPDATE, LU_SWAP, LU_SOLVE } lu_op_t;

typedef struct {
    int64_t *info; /* the gate (lapack_opts_t) */
    int64_t limit;
    int64_t *panel_info; /* LU_PANEL: where its failure goes */
    int64_t r0, kk;      /* the step's first row (0-based) and its rows (LU_SWAP: those
                          * interchanged, rows r0 + 1 to r0 + kk 1-based) */
    int64_t m, n;        /* the panel written */
    int64_t row0;        /* its first row written: the rows above are final */
    int16_t op, type, uplo, trans, forward;
    int8_t sa, sb, sp; /* access slots: the factor's panel, the panel written, the pivots */
} lu_args_t;

/* Element (i, j) of the device copy in slot s. */
static void *at(const rt_exec_t *x, size_t es, int s, int64_t i, int64_t j)
{
    return (char *)x->ptr[s] + ((size_t)i + (size_t)j * (size_t)x->ld[s]) * es;
}

/* Step r0's unit lower solve of b's rows r0.. and the update of the rows below
 * (trans N); or, transposed, the solve of b's rows r0.. after subtracting the
 * rows below (upper: the rows above) times the factor's (Tessera's getrs). */
static int solve(const rt_exec_t *x, const lu_args_t *a, size_t es, int64_t m, int64_t nr)
{
    kern_type_t t = (kern_type_t)a->type;
    blas_scalar_t one = lapack_one(t, 1), minus = lapack_one(t, -1);
    tess_uplo_t uplo = (tess_uplo_t)a->uplo;
    tess_trans_t tr = (tess_trans_t)a->trans;
    tess_diag_t diag = uplo == TessLower ? TessUnit : TessNonUnit;
    int64_t r0 = a->r0, kk = a->kk, below = m - r0 - kk;
    /* rows of the factor's column next to the diagonal block: below it for L, above for U */
    int64_t orow = uplo == TessLower ? r0 + kk : 0, on = uplo == TessLower ? below : r0;
    void *akk = at(x, es, a->sa, r0, 0), *bk = at(x, es, a->sb, r0, 0);
    int err = 0;
    if (tr == TessNoTrans) {
        err = x->kern->trsm(x->ctx, TessLeft, uplo, tr, diag, kk, nr, one.v, akk, x->ld[a->sa], bk,
                            x->ld[a->sb]);
        if (!err && on > 0)
            err = x->kern->gemm(x->ctx, TessNoTrans, TessNoTrans, on, nr, kk, minus.v,
                                at(x, es, a->sa, orow, 0), x->ld[a->sa], bk, x->ld[a->sb], one.v,
                                at(x, es, a->sb, orow, 0), x->ld[a->sb]);
        return err;
    }
    if (on > 0)
        err = x->kern->gemm(x->ctx, tr, TessNoTrans, kk, nr, on, minus.v, at(x, es, a->sa, orow, 0),
                            x->ld[a->sa], at(x, es, a->sb, orow, 0), x->ld[a->sb], one.v, bk,
                            x->ld[a->sb]);
    return err ? err
               : x->kern->trsm(x->ctx, TessLeft, uplo, tr, diag, kk, nr, one.v, akk, x->ld[a->sa],
                               bk, x->ld[a->sb]);
}

static int lu_fn(const rt_exec_t *x)
{
    const lu_args_t *a = x->args;
    if (tile_gate_closed(a->info, a->limit))
        return 0;
    size_t es = kern_dtypes[a->type].size;
    int64_t *piv = a->sp >= 0 ? x->ptr[a->sp] : NULL;
    int err;
    switch ((lu_op_t)a->op) {
    case LU_PANEL:
        return x->kern->getrf(x->ctx, a->m - a->r0, a->n, at(x, es, a->sb, a->r0, 0), x->ld[a->sb],
                              piv, a->panel_info, a->r0);
    case LU_SWAP:
    case LU_UPDATE:
        err = x->kern->laswp(x->ctx, a->m, a->n, x->ptr[a->sb], x->ld[a->sb], a->r0 + 1,
                             a->r0 + a->kk, piv, a->forward);
        return err || a->op == LU_SWAP ? err : solve(x, a, es, a->m, a->n);
    case LU_SOLVE: return solve(x, a, es, a->m, a->n);
    }
    return TESS_EINTERNAL;
}

/* A task of a's operation: the factor's panel fa read (NULL: none), the panel b written, the
 * pivots p (NULL: none) written by a panel task and read otherwise; o's gate, after and prio. */
static int submit(kern_type_t t, const lapack_opts_t *o, lu_args_t *a, const char *name,
                  rt_block_t *fa, rt_block_t *b, rt_block_t *p)
{
    rt_task_t *task = task_new(TASK_KERNEL, name);
    if (!task)
        return TESS_ENOMEM;
    a->info = o->info;
    a->limit = o->limit;
    a->type = (int16_t)t;
    a->m = b->m;
    a->n = b->n;
    /* the panel written first: a task runs where that is (sched.c) */
    a->sb = (int8_t)task_access_from(task, b, RT_RW, a->row0);
    a->sa = fa ? (int8_t)task_access(task, fa, RT_R) : -1;
    a->sp = p ? (int8_t)task_access(task, p, a->op == LU_PANEL ? RT_W : RT_R) : -1;
    if (o->after)
        task_access(task, o->after, RT_R);
    task->prio = o->prio;
    task->urgent = lapack_on_path(o);
    TASK_SET_ARGS(task, lu_fn, t, *a);
    return task_submit(task);
}

int lapack_task_lu_panel(kern_type_t t, const lapack_opts_t *o, int64_t r0, int64_t *info,
                         rt_block_t *a, rt_block_t *piv)
{
    lu_args_t g = { .op = LU_PANEL, .r0 = r0, .row0 = r0, .panel_info = info };
    return submit(t, o, &g, "getrf", NULL, a, piv);
}

int lapack_task_lu_update(kern_type_t t, const lapack_opts_t *o, int64_t r0, int64_t kk,
                          rt_block_t *f, rt_block_t *piv, rt_block_t *b)
{
    lu_args_t g = { .op = LU_UPDATE,
                    .r0 = r0,
                    .row0 = r0,
                    .kk = kk,
                    .forward = true,
                    .uplo = TessLower,
                    .trans = TessNoTrans };
    return submit(t, o, &g, "lu-update", f, b, piv);
}

int lapack_task_laswp(kern_type_t t, const lapack_opts_t *o, int64_t k1, int64_t k2, bool forward,
                      bool below, rt_block_t *piv, rt_block_t *b)
{
    lu_args_t g = { .op = LU_SWAP,
                    .r0 = k1 - 1,
                    .row0 = below ? k1 - 1 : 0,
                    .kk = k2 - k1 + 1,
                    .forward = forward };
    return submit(t, o, &g, "laswp", NULL, b, piv);
}

int lapack_task_lu_solve(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo,
                         tess_trans_t trans, int64_t r0, int64_t kk, rt_block_t *f, rt_block_t *b)
{
    lu_args_t g = {
        .op = LU_SOLVE, .r0 = r0, .kk = kk, .uplo = (int16_t)uplo, .trans = (int16_t)trans
    };
    return submit(t, o, &g, "lu-solve", f, b, NULL);
}
