/* SYRK and HERK as tile algorithms: each tile of C's uplo triangle is a chain
 * over k of tasks, a syrk/herk of one tile of A on the diagonal and a GEMM of
 * two tiles of A elsewhere.  Tiles of the other triangle get no task. */
#include "blas3.h"

typedef struct {
    bool herm;
    tess_uplo_t uplo;
    tess_trans_t trans; /* NoTrans, or (Conj)Trans as the routine takes it */
    int64_t k;
    blas_scalar_t alpha, beta; /* herm: real */
} syrk_call_t;

enum { OP_A, OP_C };

typedef struct {
    bool herm;
    tess_uplo_t uplo;
    tess_trans_t trans;
    int64_t n, k;
    int sa, sc;
    blas_scalar_t alpha, beta;
} syrk_args_t;

static int syrk_tile(const rt_exec_t *x)
{
    const syrk_args_t *a = x->args;
    return x->kern->syrk(x->ctx, a->herm, a->uplo, a->trans, a->n, a->k, a->alpha.v, x->ptr[a->sa],
                         x->ld[a->sa], a->beta.v, x->ptr[a->sc], x->ld[a->sc]);
}

/* A diagonal tile: always read, since its other triangle must survive. */
static int task_syrk_diag(kern_type_t t, const syrk_call_t *c, rt_block_t *a, const void *beta,
                          rt_block_t *cb)
{
    rt_task_t *task = task_new(TASK_KERNEL, c->herm ? "herk" : "syrk");
    if (!task)
        return TESS_ENOMEM;
    syrk_args_t s = { .herm = c->herm,
                      .uplo = c->uplo,
                      .trans = c->trans,
                      .n = cb->n,
                      .k = c->trans == TessNoTrans ? a->n : a->m,
                      .alpha = c->alpha };
    memcpy(s.beta.v, beta, sizeof s.beta.v);
    s.sa = task_access(task, a, RT_R);
    s.sc = task_access(task, cb, RT_RW);
    TASK_SET_ARGS(task, syrk_tile, t, s);
    return task_submit(task);
}

static int submit_syrk(kern_type_t t, const tiling_t *g, const void *call)
{
    const syrk_call_t *c = call;
    /* off the diagonal: C(i,j) += alpha op(A)_i op(A)_j^T (^H), with scalars of type t */
    tess_trans_t other = c->herm ? TessConjTrans : TessTrans;
    tess_trans_t ta = c->trans == TessNoTrans ? TessNoTrans : c->trans;
    tess_trans_t tb = c->trans == TessNoTrans ? other : TessNoTrans;
    kern_type_t st = c->herm ? rt_dtypes[t].real : t;
    blas_scalar_t alpha = c->alpha, beta = c->beta, one, one_s;
    if (c->herm) {
        rt_scalar_from_real(t, c->alpha.v, alpha.v);
        rt_scalar_from_real(t, c->beta.v, beta.v);
    }
    rt_dtype_one(t, one.v);
    rt_dtype_one(st, one_s.v);
    int64_t kt = tiles_of(c->k), nt = g[OP_C].nt;
    int err = 0;
    for (int64_t j = 0; j < nt; j++) {
        for (int64_t i = 0; i < nt; i++) {
            if (!in_triangle(c->uplo, i, j))
                continue;
            for (int64_t l = 0; l < kt && !err; l++) {
                rt_block_t *ai = tile_op(&g[OP_A], ta, i, l), *cb = tile(&g[OP_C], i, j);
                if (i == j)
                    err = task_syrk_diag(t, c, ai, l ? one_s.v : c->beta.v, cb);
                else
                    err = blas_task_gemm(t, ta, tb, alpha.v, ai, tile_op(&g[OP_A], ta, j, l),
                                         l ? one.v : beta.v, cb);
            }
        }
    }
    return err;
}

static int submit_scale(kern_type_t t, const tiling_t *g, const void *call)
{
    const syrk_call_t *c = call;
    return blas_scale(t, c->herm, (tess_part_t)c->uplo, c->beta.v, &g[OP_C]);
}

int blas_syrk(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *beta, void *C, int64_t ldc)
{
    int err = check_syrk(t, herm, uplo, trans, n, k, alpha, A, lda, C, ldc);
    if (err || (err = rt_check_ready()))
        return err;
    kern_type_t st = herm ? rt_dtypes[t].real : t;
    bool uses_a = k > 0 && !rt_scalar_is_zero(st, alpha);
    if (n == 0 || (!uses_a && rt_scalar_is_one(st, beta)))
        return 0;
    trans = kern_trans(t, trans);
    syrk_call_t c = { herm, uplo, trans, k, blas_scalar(st, alpha), blas_scalar(st, beta) };
    bool nt = trans == TessNoTrans;
    blas_operand_t ops[] = {
        [OP_A] = { uses_a ? A : NULL, nt ? n : k, nt ? k : n, lda },
        [OP_C] = { C, n, n, ldc },
    };
    return blas_run(t, 2, ops, uses_a ? submit_syrk : submit_scale, &c);
}
