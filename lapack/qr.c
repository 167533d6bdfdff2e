/* GEQRF and ORMQR/UNMQR as tile algorithms on column panels.
 *
 * GEQRF is right-looking blocked Householder QR: A is cut into full-height
 * column panels of the call's tile width, and step k factors panel k's rows
 * from k nb (the host LAPACK's or cuSOLVER's GEQRF of that block, writing
 * tau's k-th piece), then applies Q_k^H to the same rows of every panel to
 * its right, one ORMQR task per panel.  The panel and the update of the next
 * panel go first on their devices (lookahead): step k + 1's panel can start
 * while step k's updates of the panels further right still run.  A, tau and
 * the order of the reflectors are exactly LAPACK's.  Panel k is final once
 * factored, so its write-back is asked for then and runs while later steps
 * compute, rather than all at the end.
 *
 * tau is a 1 x min(m, n) operand (leading dimension 1) cut into pieces of
 * nb entries, one per step, which the panel task writes and the updates
 * read, so that tasks on other devices can read it.  The call asks for the
 * pieces' write-back itself, so tau is the host's at the next tess_sync.
 *
 * ORMQR applies the reflector panels of A in the order op(Q) needs: for
 * side Left, C is cut into column panels and panel p's reflectors are
 * applied to the rows from p nb of each; for side Right, C is cut into row
 * panels (whole width) and applied to the columns from p nb of each, so that
 * every task names one block of C.  Tasks on one panel of C run in order;
 * the panels of C are independent. */
#include <stdlib.h>
#include "lapack.h"
#include "scratch.h"

enum { OP_TAU, OP_A };

/* One k x k block per step, homed with its panel, in scratch of the call's. */
static int tfac_make(kern_type_t t, const tiling_t *A, const tiling_t *tau, lapack_tfac_t *f)
{
    size_t es = kern_dtypes[t].size, bytes = 0;
    for (int64_t k = 0; k < tau->nt; k++)
        bytes += (size_t)(tile(tau, 0, k)->n * tile(tau, 0, k)->n) * es;
    f->blk = calloc((size_t)tau->nt, sizeof *f->blk);
    f->scratch = f->blk ? rt_scratch_alloc_submitting(bytes) : NULL;
    if (!f->scratch)
        return TESS_ENOMEM;
    char *p = f->scratch;
    for (int64_t k = 0; k < tau->nt; k++) {
        int64_t kk = tile(tau, 0, k)->n;
        const rt_block_t *home = tile(A, 0, k);
        if (!(f->blk[k] = block_get(p, kk, kk, kk, es, home->ti, home->tj)))
            return TESS_ENOMEM;
        p += (size_t)(kk * kk) * es;
    }
    return 0;
}

void lapack_tfac_free(lapack_tfac_t *f)
{
    free(f->blk);
    if (f->scratch)
        rt_scratch_submitted(f->scratch);
    *f = (lapack_tfac_t){ NULL, NULL };
}

int lapack_submit_geqrf(kern_type_t t, const tiling_t *A, const tiling_t *tau, lapack_tfac_t *f,
                        bool behind)
{
    tess_trans_t ct = lapack_ctrans(t);
    int64_t nb = A->nb;
    int err = tfac_make(t, A, tau, f);
    for (int64_t k = 0; k < tau->nt && !err; k++) {
        rt_block_t *pk = tile(A, 0, k), *tk = tile(tau, 0, k);
        err = lapack_task_geqrf(t, 1, k * nb, pk, tk, f->blk[k]);
        /* nothing writes panel k or tau's piece after its step: their write-backs run behind
         * the steps, tau's first, so that its few bytes (copied while the worker waits, when
         * tau is pageable) do not queue behind the panel's */
        if (!err)
            err = block_coherent_async(tk);
        if (!err && behind)
            err = block_write_behind_async(pk);
        for (int64_t j = k + 1; j < A->nt && !err; j++) {
            lapack_opts_t o = { NULL, 0, NULL, j == k + 1 };
            err = lapack_task_larfb(t, &o, ct, k * nb, tk->n, pk, f->blk[k], tile(A, 0, j));
        }
    }
    return err;
}

int lapack_submit_ormqr(kern_type_t t, const lapack_opts_t *o, tess_side_t side, tess_trans_t trans,
                        const tiling_t *A, const tiling_t *tau, const tiling_t *C,
                        const lapack_tfac_t *f)
{
    bool left = side == TessLeft;
    /* Q = H_1 ... H_k: Q^H C and C Q take the panels first to last */
    bool forward = left == (trans != TessNoTrans);
    int64_t np = tau->nt, nb = A->nb;
    int err = 0;
    for (int64_t s = 0; s < np && !err; s++) {
        int64_t p = forward ? s : np - 1 - s;
        rt_block_t *vp = tile(A, 0, p), *tp = tile(tau, 0, p);
        int64_t nc = left ? C->nt : C->mt;
        for (int64_t j = 0; j < nc && !err; j++)
            err = f ? lapack_task_larfb(t, o, trans, p * nb, tp->n, vp, f->blk[p], tile(C, 0, j))
                    : lapack_task_ormqr(t, o, side, trans, p * nb, tp->n, vp, tp,
                                        left ? tile(C, 0, j) : tile(C, j, 0));
    }
    return err;
}

static int submit_geqrf(kern_type_t t, const tiling_t *g, const void *call)
{
    lapack_tfac_t *f = (lapack_tfac_t *)call;
    return lapack_submit_geqrf(t, &g[OP_A], &g[OP_TAU], f, true);
}

int lapack_geqrf(kern_type_t t, int64_t m, int64_t n, void *A, int64_t lda, void *tau)
{
    int err = check_geqrf(m, n, A, lda, tau);
    if (err || (err = rt_check_ready()))
        return err;
    if (m == 0 || n == 0)
        return 0;
    blas_operand_t ops[] = {
        [OP_TAU] = { .ptr = tau, .m = 1, .n = m < n ? m : n, .ld = 1, .panels = true },
        [OP_A] = { .ptr = A, .m = m, .n = n, .ld = lda, .panels = true, .narrow = true },
    };
    lapack_tfac_t f = { NULL, NULL };
    err = blas_run(t, 2, ops, submit_geqrf, &f);
    lapack_tfac_free(&f);
    return err;
}

enum { ORM_A, ORM_TAU, ORM_C };

typedef struct {
    tess_side_t side;
    tess_trans_t trans;
} ormqr_call_t;

static int submit_ormqr(kern_type_t t, const tiling_t *g, const void *call)
{
    const ormqr_call_t *c = call;
    return lapack_submit_ormqr(t, NULL, c->side, c->trans, &g[ORM_A], &g[ORM_TAU], &g[ORM_C], NULL);
}

int lapack_ormqr(kern_type_t t, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n,
                 int64_t k, const void *A, int64_t lda, const void *tau, void *C, int64_t ldc)
{
    int err = check_ormqr(kern_dtypes[t].is_complex, side, trans, m, n, k, A, lda, tau, C, ldc);
    if (err || (err = rt_check_ready()))
        return err;
    if (m == 0 || n == 0 || k == 0)
        return 0;
    bool left = side == TessLeft;
    ormqr_call_t c = { side, trans };
    blas_operand_t ops[] = {
        [ORM_A] = { .ptr = A, .m = left ? m : n, .n = k, .ld = lda, .panels = true },
        [ORM_TAU] = { .ptr = tau, .m = 1, .n = k, .ld = 1, .panels = true },
        [ORM_C] = { .ptr = C, .m = m, .n = n, .ld = ldc, .panels = left, .rows = !left },
    };
    return blas_run(t, 3, ops, submit_ormqr, &c);
}
