/* GEMM as a tile algorithm: C(i,j) = alpha op(A)(i,:) op(B)(:,j) + beta C(i,j),
 * the k-loop of each C tile a chain of tasks on that tile. */
#include "blas3.h"

typedef struct {
    tess_trans_t ta, tb;
    int64_t k;
    blas_scalar_t alpha, beta;
} gemm_call_t;

enum { OP_A, OP_B, OP_C };

static int submit_gemm(kern_type_t t, const tiling_t *g, const void *call)
{
    const gemm_call_t *c = call;
    blas_scalar_t one;
    kern_dtype_one(t, one.v);
    int64_t kt = tiles_in(&g[OP_C], c->k);
    int err = 0;
    for (int64_t x = 0; x < g[OP_C].mt * g[OP_C].nt && !err; x++) {
        int64_t i, j;
        tiling_order_at(&g[OP_C], x, &i, &j);
        for (int64_t l = 0; l < kt && !err; l++)
            err = blas_task_gemm(t, c->ta, c->tb, c->alpha.v, tile_op(&g[OP_A], c->ta, i, l),
                                 tile_op(&g[OP_B], c->tb, l, j), l ? one.v : c->beta.v,
                                 tile(&g[OP_C], i, j));
    }
    return err;
}

static int submit_scale(kern_type_t t, const tiling_t *g, const void *call)
{
    const gemm_call_t *c = call;
    return blas_scale(t, false, TessAll, c->beta.v, &g[OP_C]);
}

int blas_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
              const void *beta, void *C, int64_t ldc)
{
    int err = check_gemm(t, ta, tb, m, n, k, alpha, A, lda, B, ldb, C, ldc);
    if (err || (err = rt_check_ready()))
        return err;
    bool uses_ab = k > 0 && !kern_scalar_is_zero(t, alpha);
    if (m == 0 || n == 0 || (!uses_ab && kern_scalar_is_one(t, beta)))
        return 0;
    ta = kern_trans(t, ta);
    tb = kern_trans(t, tb);
    gemm_call_t c = { ta, tb, k, blas_scalar(t, alpha), blas_scalar(t, beta) };
    blas_operand_t ops[] = {
        [OP_A] = { uses_ab ? A : NULL, ta == TessNoTrans ? m : k, ta == TessNoTrans ? k : m, lda },
        [OP_B] = { uses_ab ? B : NULL, tb == TessNoTrans ? k : n, tb == TessNoTrans ? n : k, ldb },
        [OP_C] = { C, m, n, ldc },
    };
    return blas_run(t, 3, ops, uses_ab ? submit_gemm : submit_scale, &c);
}
