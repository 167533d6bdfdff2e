/* GEMMT as a tile algorithm: only the tiles of C's uplo triangle get tasks, a
 * chain over k each: GEMMs off the diagonal, and on it a gemmt kernel that
 * writes only its triangle (kern.h: computed by halves, down to a leaf). */
#include "blas3.h"

typedef struct {
    tess_uplo_t uplo;
    tess_trans_t ta, tb;
    int64_t k;
    blas_scalar_t alpha, beta;
} gemmt_call_t;

enum { OP_A, OP_B, OP_C };

typedef struct {
    tess_uplo_t uplo;
    tess_trans_t ta, tb;
    int64_t n, k;
    int sa, sb, sc;
    blas_scalar_t alpha, beta;
} gemmt_args_t;

static int gemmt_tile(const rt_exec_t *x)
{
    const gemmt_args_t *a = x->args;
    return x->kern->gemmt(x->ctx, a->uplo, a->ta, a->tb, a->n, a->k, a->alpha.v, x->ptr[a->sa],
                          x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb], a->beta.v, x->ptr[a->sc],
                          x->ld[a->sc]);
}

/* A diagonal tile: always read, since its other triangle must survive. */
static int task_gemmt_diag(kern_type_t t, const gemmt_call_t *c, rt_block_t *a, rt_block_t *b,
                           const void *beta, rt_block_t *cb)
{
    rt_task_t *task = task_new(TASK_KERNEL, "gemmt");
    if (!task)
        return TESS_ENOMEM;
    /* slower than the GEMMs beside it: run early, not as the call's tail */
    task->prio = 1;
    gemmt_args_t s = { .uplo = c->uplo,
                       .ta = c->ta,
                       .tb = c->tb,
                       .n = cb->n,
                       .k = c->ta == TessNoTrans ? a->n : a->m,
                       .alpha = c->alpha,
                       .beta = blas_scalar(t, beta) };
    s.sa = task_access(task, a, RT_R);
    s.sb = task_access(task, b, RT_R);
    s.sc = task_access(task, cb, RT_RW);
    TASK_SET_ARGS(task, gemmt_tile, t, s);
    return task_submit(task);
}

static int submit_gemmt(kern_type_t t, const tiling_t *g, const void *call)
{
    const gemmt_call_t *c = call;
    blas_scalar_t one;
    kern_dtype_one(t, one.v);
    int64_t kt = tiles_in(&g[OP_C], c->k), nt = g[OP_C].nt;
    int err = 0;
    for (int64_t x = 0; x < nt * nt && !err; x++) {
        int64_t i, j;
        tiling_order_at(&g[OP_C], x, &i, &j);
        if (!in_triangle(c->uplo, i, j))
            continue;
        for (int64_t l = 0; l < kt && !err; l++) {
            rt_block_t *a = tile_op(&g[OP_A], c->ta, i, l), *b = tile_op(&g[OP_B], c->tb, l, j);
            rt_block_t *cb = tile(&g[OP_C], i, j);
            const void *beta = l ? one.v : c->beta.v;
            err = i == j ? task_gemmt_diag(t, c, a, b, beta, cb)
                         : blas_task_gemm(t, c->ta, c->tb, c->alpha.v, a, b, beta, cb);
        }
    }
    return err;
}

static int submit_scale(kern_type_t t, const tiling_t *g, const void *call)
{
    const gemmt_call_t *c = call;
    return blas_scale(t, false, (tess_part_t)c->uplo, c->beta.v, &g[OP_C]);
}

int blas_gemmt(kern_type_t t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
               int64_t k, const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *beta, void *C, int64_t ldc)
{
    int err = check_gemmt(t, uplo, ta, tb, n, k, alpha, A, lda, B, ldb, C, ldc);
    if (err || (err = rt_check_ready()))
        return err;
    bool uses_ab = k > 0 && !kern_scalar_is_zero(t, alpha);
    if (n == 0 || (!uses_ab && kern_scalar_is_one(t, beta)))
        return 0;
    ta = kern_trans(t, ta);
    tb = kern_trans(t, tb);
    gemmt_call_t c = { uplo, ta, tb, k, blas_scalar(t, alpha), blas_scalar(t, beta) };
    blas_operand_t ops[] = {
        [OP_A] = { uses_ab ? A : NULL, ta == TessNoTrans ? n : k, ta == TessNoTrans ? k : n, lda },
        [OP_B] = { uses_ab ? B : NULL, tb == TessNoTrans ? k : n, tb == TessNoTrans ? n : k, ldb },
        [OP_C] = { C, n, n, ldc, true },
    };
    return blas_run(t, 3, ops, uses_ab ? submit_gemmt : submit_scale, &c);
}
