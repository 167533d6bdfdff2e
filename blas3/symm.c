/* SYMM and HEMM as tile algorithms.  With side left, C(i,j) is a chain over
 * l of alpha A(i,l) B(l,j), where the tile A(i,l) is read from the stored
 * triangle: itself, or A(l,i)^T (^H for HEMM) when it lies in the other one,
 * and a symm/hemm of the tile on the diagonal.  Side right is the mirror
 * image, C(i,j) = sum over l of B(i,l) A(l,j). */
#include "blas3.h"

typedef struct {
    bool herm;
    tess_side_t side;
    tess_uplo_t uplo;
    blas_scalar_t alpha, beta;
} symm_call_t;

enum { OP_A, OP_B, OP_C };

typedef struct {
    bool herm;
    tess_side_t side;
    tess_uplo_t uplo;
    int64_t m, n;
    int sa, sb, sc;
    blas_scalar_t alpha, beta;
} symm_args_t;

static int symm_tile(const rt_exec_t *x)
{
    const symm_args_t *a = x->args;
    return x->kern->symm(x->ctx, a->herm, a->side, a->uplo, a->m, a->n, a->alpha.v, x->ptr[a->sa],
                         x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb], a->beta.v, x->ptr[a->sc],
                         x->ld[a->sc]);
}

static int task_symm_diag(kern_type_t t, const symm_call_t *c, rt_block_t *a, rt_block_t *b,
                          const void *beta, rt_block_t *cb)
{
    rt_task_t *task = task_new(TASK_KERNEL, c->herm ? "hemm" : "symm");
    if (!task)
        return TESS_ENOMEM;
    symm_args_t s = { .herm = c->herm,
                      .side = c->side,
                      .uplo = c->uplo,
                      .m = cb->m,
                      .n = cb->n,
                      .alpha = c->alpha,
                      .beta = blas_scalar(t, beta) };
    s.sa = task_access(task, a, RT_R);
    s.sb = task_access(task, b, RT_R);
    s.sc = task_access(task, cb, kern_scalar_is_zero(t, beta) ? RT_W : RT_RW);
    TASK_SET_ARGS(task, symm_tile, t, s);
    return task_submit(task);
}

static int submit_symm(kern_type_t t, const tiling_t *g, const void *call)
{
    const symm_call_t *c = call;
    bool left = c->side == TessLeft;
    tess_trans_t mirror = c->herm ? TessConjTrans : TessTrans;
    blas_scalar_t one;
    kern_dtype_one(t, one.v);
    int64_t kt = g[OP_A].nt;
    int err = 0;
    for (int64_t x = 0; x < g[OP_C].mt * g[OP_C].nt && !err; x++) {
        int64_t i, j;
        tiling_order_at(&g[OP_C], x, &i, &j);
        rt_block_t *cb = tile(&g[OP_C], i, j);
        for (int64_t l = 0; l < kt && !err; l++) {
            const void *beta = l ? one.v : c->beta.v;
            /* the tile of A this step multiplies by, (r, s) in A's grid */
            int64_t r = left ? i : l, s = left ? l : j;
            rt_block_t *b = left ? tile(&g[OP_B], l, j) : tile(&g[OP_B], i, l);
            if (r == s) {
                err = task_symm_diag(t, c, tile(&g[OP_A], r, r), b, beta, cb);
                continue;
            }
            bool stored = in_triangle(c->uplo, r, s);
            rt_block_t *a = stored ? tile(&g[OP_A], r, s) : tile(&g[OP_A], s, r);
            tess_trans_t op = stored ? TessNoTrans : mirror;
            err = left ? blas_task_gemm(t, op, TessNoTrans, c->alpha.v, a, b, beta, cb)
                       : blas_task_gemm(t, TessNoTrans, op, c->alpha.v, b, a, beta, cb);
        }
    }
    return err;
}

static int submit_scale(kern_type_t t, const tiling_t *g, const void *call)
{
    const symm_call_t *c = call;
    return blas_scale(t, false, TessAll, c->beta.v, &g[OP_C]);
}

int blas_symm(kern_type_t t, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,
              const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
              const void *beta, void *C, int64_t ldc)
{
    int err = check_symm(t, side, uplo, m, n, alpha, A, lda, B, ldb, C, ldc);
    if (err || (err = rt_check_ready()))
        return err;
    bool uses_ab = !kern_scalar_is_zero(t, alpha);
    if (m == 0 || n == 0 || (!uses_ab && kern_scalar_is_one(t, beta)))
        return 0;
    symm_call_t c = { herm, side, uplo, blas_scalar(t, alpha), blas_scalar(t, beta) };
    int64_t ka = side == TessLeft ? m : n;
    blas_operand_t ops[] = {
        [OP_A] = { uses_ab ? A : NULL, ka, ka, lda },
        [OP_B] = { uses_ab ? B : NULL, m, n, ldb },
        [OP_C] = { C, m, n, ldc },
    };
    return blas_run(t, 3, ops, uses_ab ? submit_symm : submit_scale, &c);
}
