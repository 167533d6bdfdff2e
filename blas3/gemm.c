/* GEMM as a tile algorithm: C(i,j) = alpha op(A)(i,:) op(B)(:,j) + beta C(i,j),
 * the k-loop of each C tile a chain of RW tasks on that tile. */
#include "blas3.h"
#include "tiling.h"

typedef struct {
    tess_trans_t ta, tb;
    int64_t m, n, k;
    int sa, sb, sc;                     /* access slots of A, B and C */
    _Alignas(16) unsigned char alpha[16], beta[16];
} gemm_args_t;

typedef struct {
    int64_t m, n;
    int sc;
    _Alignas(16) unsigned char beta[16];
} scal_args_t;

static int gemm_tile(const rt_exec_t *x)
{
    const gemm_args_t *a = x->args;
    return x->kern->gemm(x->ctx, a->ta, a->tb, a->m, a->n, a->k, a->alpha, x->ptr[a->sa],
                         x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb], a->beta, x->ptr[a->sc],
                         x->ld[a->sc]);
}

static int scal_tile(const rt_exec_t *x)
{
    const scal_args_t *a = x->args;
    return x->kern->scal(x->ctx, a->m, a->n, a->beta, x->ptr[a->sc], x->ld[a->sc]);
}

/* C = beta C, tile by tile (alpha == 0 or k == 0). */
static int scale_c(kern_type_t t, const void *beta, const tiling_t *C)
{
    size_t es = rt_dtypes[t].size;
    for (int64_t j = 0; j < C->nt; j++) {
        for (int64_t i = 0; i < C->mt; i++) {
            rt_block_t *c = tile(C, i, j);
            rt_task_t *task = task_new(TASK_KERNEL, "scal");
            if (!task)
                return TESS_ENOMEM;
            scal_args_t a = { .m = c->m, .n = c->n };
            memcpy(a.beta, beta, es);
            a.sc = task_access(task, c, rt_scalar_is_zero(t, beta) ? RT_W : RT_RW);
            task_set_kernel(task, scal_tile, t, &a, sizeof a);
            task_submit(task);
        }
    }
    return 0;
}

static int submit_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t k,
                       const void *alpha, const tiling_t *A, const tiling_t *B, const void *beta,
                       const tiling_t *C)
{
    size_t es = rt_dtypes[t].size;
    int64_t kt = tiles_of(k);
    unsigned char one[16] = { 0 };
    rt_dtype_one(t, one);
    bool beta_zero = rt_scalar_is_zero(t, beta);
    for (int64_t j = 0; j < C->nt; j++) {
        for (int64_t i = 0; i < C->mt; i++) {
            rt_block_t *c = tile(C, i, j);
            for (int64_t l = 0; l < kt; l++) {
                rt_block_t *a = ta == TessNoTrans ? tile(A, i, l) : tile(A, l, i);
                rt_block_t *b = tb == TessNoTrans ? tile(B, l, j) : tile(B, j, l);
                rt_task_t *task = task_new(TASK_KERNEL, "gemm");
                if (!task)
                    return TESS_ENOMEM;
                gemm_args_t g = { .ta = ta, .tb = tb, .m = c->m, .n = c->n,
                                  .k = ta == TessNoTrans ? a->n : a->m };
                memcpy(g.alpha, alpha, es);
                memcpy(g.beta, l == 0 ? beta : one, es);
                g.sa = task_access(task, a, RT_R);
                g.sb = task_access(task, b, RT_R);
                g.sc = task_access(task, c, l == 0 && beta_zero ? RT_W : RT_RW);
                task_set_kernel(task, gemm_tile, t, &g, sizeof g);
                task_submit(task);
            }
        }
    }
    return 0;
}

int blas_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
              const void *beta, void *C, int64_t ldc)
{
    bool valid_ta = ta == TessNoTrans || ta == TessTrans || ta == TessConjTrans;
    bool valid_tb = tb == TessNoTrans || tb == TessTrans || tb == TessConjTrans;
    int64_t arows = ta == TessNoTrans ? m : k, brows = tb == TessNoTrans ? k : n;
    bool uses_ab = m > 0 && n > 0 && k > 0 && !rt_scalar_is_zero(t, alpha);
    if (!valid_ta) return -1;
    if (!valid_tb) return -2;
    if (m < 0) return -3;
    if (n < 0) return -4;
    if (k < 0) return -5;
    if (uses_ab && !A) return -7;
    if (lda < (arows > 1 ? arows : 1)) return -8;
    if (uses_ab && !B) return -9;
    if (ldb < (brows > 1 ? brows : 1)) return -10;
    if (m > 0 && n > 0 && !C) return -12;
    if (ldc < (m > 1 ? m : 1)) return -13;
    int err = rt_check_ready();
    if (err || m == 0 || n == 0 || (!uses_ab && rt_scalar_is_one(t, beta)))
        return err;

    size_t es = rt_dtypes[t].size;
    tiling_t gA = { 0 }, gB = { 0 }, gC = { 0 };
    pthread_mutex_lock(&rt.submit_lock);
    err = tiling_make(&gC, C, m, n, ldc, es);
    if (!err && uses_ab && !(err = tiling_make(&gA, A, arows, ta == TessNoTrans ? k : m, lda, es)))
        err = tiling_make(&gB, B, brows, tb == TessNoTrans ? n : k, ldb, es);
    if (!err)
        err = uses_ab ? submit_gemm(t, ta, tb, k, alpha, &gA, &gB, beta, &gC)
                      : scale_c(t, beta, &gC);
    pthread_mutex_unlock(&rt.submit_lock);
    tiling_free(&gA);
    tiling_free(&gB);
    tiling_free(&gC);
    return err;
}
