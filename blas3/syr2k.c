/* SYR2K and HER2K as tile algorithms: each tile of C's uplo triangle is a
 * chain over k of tasks, a syr2k/her2k of one tile of A and B on the
 * diagonal, and elsewhere two GEMMs, alpha op(A)_i op(B)_j^T and
 * alpha' op(B)_i op(A)_j^T (alpha' = conj(alpha) and ^H for HER2K). */
#include "blas3.h"

typedef struct {
    bool herm;
    tess_uplo_t uplo;
    tess_trans_t trans;
    int64_t k;
    blas_scalar_t alpha, beta; /* herm: beta real */
} syr2k_call_t;

enum { OP_A, OP_B, OP_C };

typedef struct {
    bool herm;
    tess_uplo_t uplo;
    tess_trans_t trans;
    int64_t n, k;
    int sa, sb, sc;
    blas_scalar_t alpha, beta;
} syr2k_args_t;

static int syr2k_tile(const rt_exec_t *x)
{
    const syr2k_args_t *a = x->args;
    return x->kern->syr2k(x->ctx, a->herm, a->uplo, a->trans, a->n, a->k, a->alpha.v, x->ptr[a->sa],
                          x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb], a->beta.v, x->ptr[a->sc],
                          x->ld[a->sc]);
}

/* A diagonal tile: always read, since its other triangle must survive. */
static int task_syr2k_diag(kern_type_t t, const syr2k_call_t *c, rt_block_t *a, rt_block_t *b,
                           const void *beta, rt_block_t *cb)
{
    rt_task_t *task = task_new(TASK_KERNEL, c->herm ? "her2k" : "syr2k");
    if (!task)
        return TESS_ENOMEM;
    syr2k_args_t s = { .herm = c->herm,
                       .uplo = c->uplo,
                       .trans = c->trans,
                       .n = cb->n,
                       .k = c->trans == TessNoTrans ? a->n : a->m,
                       .alpha = c->alpha };
    memcpy(s.beta.v, beta, sizeof s.beta.v);
    s.sa = task_access(task, a, RT_R);
    s.sb = task_access(task, b, RT_R);
    s.sc = task_access(task, cb, RT_RW);
    TASK_SET_ARGS(task, syr2k_tile, t, s);
    return task_submit(task);
}

static int submit_syr2k(kern_type_t t, const tiling_t *g, const void *call)
{
    const syr2k_call_t *c = call;
    tess_trans_t other = c->herm ? TessConjTrans : TessTrans;
    tess_trans_t ta = c->trans == TessNoTrans ? TessNoTrans : c->trans;
    tess_trans_t tb = c->trans == TessNoTrans ? other : TessNoTrans;
    kern_type_t st = c->herm ? rt_dtypes[t].real : t;
    blas_scalar_t alpha2 = c->alpha, beta = c->beta, one, one_s;
    if (c->herm) {
        rt_scalar_conj(t, c->alpha.v, alpha2.v);
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
                rt_block_t *ai = tile_op(&g[OP_A], ta, i, l), *bi = tile_op(&g[OP_B], ta, i, l);
                rt_block_t *cb = tile(&g[OP_C], i, j);
                if (i == j) {
                    err = task_syr2k_diag(t, c, ai, bi, l ? one_s.v : c->beta.v, cb);
                    continue;
                }
                err = blas_task_gemm(t, ta, tb, c->alpha.v, ai, tile_op(&g[OP_B], ta, j, l),
                                     l ? one.v : beta.v, cb);
                if (!err)
                    err = blas_task_gemm(t, ta, tb, alpha2.v, bi, tile_op(&g[OP_A], ta, j, l),
                                         one.v, cb);
            }
        }
    }
    return err;
}

static int submit_scale(kern_type_t t, const tiling_t *g, const void *call)
{
    const syr2k_call_t *c = call;
    return blas_scale(t, c->herm, (tess_part_t)c->uplo, c->beta.v, &g[OP_C]);
}

int blas_syr2k(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
               const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *beta, void *C, int64_t ldc)
{
    int err = check_syr2k(t, herm, uplo, trans, n, k, alpha, A, lda, B, ldb, C, ldc);
    if (err || (err = rt_check_ready()))
        return err;
    kern_type_t bt = herm ? rt_dtypes[t].real : t;
    bool uses_ab = k > 0 && !rt_scalar_is_zero(t, alpha);
    if (n == 0 || (!uses_ab && rt_scalar_is_one(bt, beta)))
        return 0;
    trans = kern_trans(t, trans);
    syr2k_call_t c = { herm, uplo, trans, k, blas_scalar(t, alpha), blas_scalar(bt, beta) };
    bool nt = trans == TessNoTrans;
    blas_operand_t ops[] = {
        [OP_A] = { uses_ab ? A : NULL, nt ? n : k, nt ? k : n, lda },
        [OP_B] = { uses_ab ? B : NULL, nt ? n : k, nt ? k : n, ldb },
        [OP_C] = { C, n, n, ldc },
    };
    return blas_run(t, 3, ops, uses_ab ? submit_syr2k : submit_scale, &c);
}
