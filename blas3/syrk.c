/* SYRK, HERK, SYR2K and HER2K as tile algorithms: each tile of C's uplo
 * triangle is a chain over k of tasks, a syrk/herk (syr2k/her2k) of tiles of
 * A (and B) on the diagonal and GEMMs elsewhere: alpha op(A)_i op(A)_j^T for
 * a rank-k update, alpha op(A)_i op(B)_j^T + alpha' op(B)_i op(A)_j^T for a
 * rank-2k one (alpha' = conj(alpha) and ^H for HER2K).  Tiles of the other
 * triangle get no task.  The rank-k update is the rank-2k one without B. */
#include "blas3.h"

typedef struct {
    bool herm, two; /* two: the rank-2k update, which reads B */
    tess_uplo_t uplo;
    tess_trans_t trans; /* NoTrans, or (Conj)Trans as the routine takes it */
    int64_t k;
    blas_scalar_t alpha, beta; /* herm: beta real, and alpha too for HERK */
} syrk_call_t;

enum { OP_A, OP_B, OP_C };

/* A diagonal tile (b NULL for a rank-k update): always read, since its other
 * triangle must survive.  Slower than the GEMMs beside it: run early, not as
 * the call's tail. */
static int task_diag(kern_type_t t, const syrk_call_t *c, rt_block_t *a, rt_block_t *b,
                     const void *beta, rt_block_t *cb)
{
    tile_opts_t o = { .prio = 1 };
    return blas_task_rank(t, &o, c->herm, c->uplo, c->trans, c->alpha.v, a, b, beta, cb);
}

static int submit_update(kern_type_t t, const tiling_t *g, const void *call)
{
    const syrk_call_t *c = call;
    /* off the diagonal the scalars are of type t */
    tess_trans_t other = c->herm ? TessConjTrans : TessTrans;
    tess_trans_t ta = c->trans == TessNoTrans ? TessNoTrans : c->trans;
    tess_trans_t tb = c->trans == TessNoTrans ? other : TessNoTrans;
    kern_type_t st = c->herm ? kern_dtypes[t].real : t;
    blas_scalar_t alpha = c->alpha, alpha2 = c->alpha, beta = c->beta, one, one_s;
    if (c->herm) {
        if (c->two)
            kern_scalar_conj(t, c->alpha.v, alpha2.v);
        else
            kern_scalar_from_real(t, c->alpha.v, alpha.v);
        kern_scalar_from_real(t, c->beta.v, beta.v);
    }
    kern_dtype_one(t, one.v);
    kern_dtype_one(st, one_s.v);
    const tiling_t *gb = &g[c->two ? OP_B : OP_A];
    int64_t kt = tiles_in(&g[OP_C], c->k), nt = g[OP_C].nt;
    int err = 0;
    for (int64_t x = 0; x < nt * nt && !err; x++) {
        int64_t i, j;
        tiling_order_at(&g[OP_C], x, &i, &j);
        if (!in_triangle(c->uplo, i, j))
            continue;
        for (int64_t l = 0; l < kt && !err; l++) {
            rt_block_t *ai = tile_op(&g[OP_A], ta, i, l), *cb = tile(&g[OP_C], i, j);
            rt_block_t *bi = c->two ? tile_op(&g[OP_B], ta, i, l) : NULL;
            if (i == j) {
                err = task_diag(t, c, ai, bi, l ? one_s.v : c->beta.v, cb);
                continue;
            }
            err = blas_task_gemm(t, ta, tb, alpha.v, ai, tile_op(gb, ta, j, l), l ? one.v : beta.v,
                                 cb);
            if (!err && c->two)
                err =
                    blas_task_gemm(t, ta, tb, alpha2.v, bi, tile_op(&g[OP_A], ta, j, l), one.v, cb);
        }
    }
    return err;
}

static int submit_scale(kern_type_t t, const tiling_t *g, const void *call)
{
    const syrk_call_t *c = call;
    return blas_scale(t, c->herm, (tess_part_t)c->uplo, c->beta.v, &g[OP_C]);
}

/* Reference BLAS's quick returns, then the tasks.  c holds the options; the
 * scalars come by address, alpha of HERK's and beta of both Hermitian updates
 * real. */
static int run_update(kern_type_t t, syrk_call_t c, int64_t n, const void *alpha, const void *A,
                      int64_t lda, const void *B, int64_t ldb, const void *beta, void *C,
                      int64_t ldc)
{
    kern_type_t st = c.herm ? kern_dtypes[t].real : t, at = c.two ? t : st;
    bool uses_ab = c.k > 0 && !kern_scalar_is_zero(at, alpha);
    if (n == 0 || (!uses_ab && kern_scalar_is_one(st, beta)))
        return 0;
    c.trans = kern_trans(t, c.trans);
    c.alpha = blas_scalar(at, alpha);
    c.beta = blas_scalar(st, beta);
    bool nt = c.trans == TessNoTrans;
    int64_t m = nt ? n : c.k, w = nt ? c.k : n;
    blas_operand_t ops[] = {
        [OP_A] = { uses_ab ? A : NULL, m, w, lda },
        [OP_B] = { uses_ab && c.two ? B : NULL, m, w, ldb },
        [OP_C] = { C, n, n, ldc, true },
    };
    return blas_run(t, 3, ops, uses_ab ? submit_update : submit_scale, &c);
}

int blas_syrk(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *beta, void *C, int64_t ldc)
{
    int err = check_syrk(t, herm, uplo, trans, n, k, alpha, A, lda, C, ldc);
    if (err || (err = rt_check_ready()))
        return err;
    syrk_call_t c = { .herm = herm, .two = false, .uplo = uplo, .trans = trans, .k = k };
    return run_update(t, c, n, alpha, A, lda, NULL, 1, beta, C, ldc);
}

int blas_syr2k(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
               const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *beta, void *C, int64_t ldc)
{
    int err = check_syr2k(t, herm, uplo, trans, n, k, alpha, A, lda, B, ldb, C, ldc);
    if (err || (err = rt_check_ready()))
        return err;
    syrk_call_t c = { .herm = herm, .two = true, .uplo = uplo, .trans = trans, .k = k };
    return run_update(t, c, n, alpha, A, lda, B, ldb, beta, C, ldc);
}
