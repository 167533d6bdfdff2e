/* GELS as LAPACK's ?gels does it, from GEQRF, ORMQR and solves with R, in
 * one graph.  For m >= n, A = Q R:
 *   trans NoTrans (least squares): B = Q^H B, then X = R^-1 B(1:n); rows
 *     n + 1..m of B keep Q^H B's, whose norm is the residual's;
 *   trans ConjTrans (minimum norm of A^H X = B): B(1:n) = R^-H B(1:n),
 *     B(n + 1:m) = 0, then B = Q B.
 * For m < n LAPACK factors A = L Q (GELQF); cuSOLVER has no LQ, so F = A^H
 * (n x m) is copied into scratch and factored, F = Q R, A = R^H Q^H: the
 * minimum norm solution of A X = B is the ConjTrans case above on F, the
 * least squares one of A^H X = B its NoTrans case.  F is copied back into A
 * conjugate-transposed, which is exactly GELQF's representation (L = R^H on
 * and below the diagonal, the conjugated reflectors right of it, the same
 * tau), as LAPACK leaves A.
 * INFO is LAPACK's (?trtrs'): a chain of checks of R's diagonal blocks, each
 * doing nothing once one has failed, stores the first exactly zero diagonal
 * element (L's diagonal is R's, conjugated); the solves and what follows
 * them are gated on it and come after the chain, so on failure B holds what
 * LAPACK leaves (Q^H B, or B as it was).  LAPACK's GELS answers A = 0 with
 * X = 0 (B zeroed, all max(m, n) rows) and INFO = 0, not a rank deficiency:
 * R(1,1) = 0 (INFO 1) is the first sign of it, and A = 0 exactly when the
 * whole factored matrix is (R and the reflectors), so tasks after all others
 * search its panels for a nonzero element when INFO is 1, and with none zero
 * B and reset INFO.  tau and F are the call's scratch (runtime/scratch.c), as
 * they are LAPACK's workspace, and so is the flag the search sets. */
#include "lapack.h"
#include "scratch.h"

enum { OP_TAU, OP_B, OP_F, OP_A };

typedef struct {
    tess_trans_t trans; /* NoTrans or ConjTrans, of the factored matrix (A's, or A^H's) */
    int64_t n;          /* the factored matrix's columns: min(m, n) */
    int64_t *info;
    int64_t *nonzero;   /* set when the factored matrix has a nonzero element */
    lapack_tfac_t *f;   /* GEQRF's T factors, for the ORMQR */
    double *norms;      /* the max-norms of A and B, which decide the scaling */
    int64_t brow, xrow; /* the rows of B given, of X */
} gels_call_t;

/* The checks of R's diagonal blocks, in order, chained through after. */
static int submit_checks(kern_type_t t, const tiling_t *A, const tiling_t *tau, int64_t *info,
                         rt_block_t *after)
{
    lapack_opts_t o = { info, LAPACK_ANY_FAILURE, after, 1 };
    int err = 0;
    for (int64_t k = 0; k < tau->nt && !err; k++)
        err = lapack_task_qr_check(t, &o, k * A->nb, tile(tau, 0, k)->n, tile(A, 0, k));
    return err;
}

/* X = R^-1 B(1:n) (NoTrans, last block first) or R^-H B(1:n) (first block first), gated on
 * info; the first step of each panel of B reads after, the checks' chain. */
static int submit_solve(kern_type_t t, tess_trans_t trans, const tiling_t *A, const tiling_t *tau,
                        const tiling_t *B, int64_t *info, rt_block_t *after)
{
    int64_t np = tau->nt;
    int err = 0;
    for (int64_t s = 0; s < np && !err; s++) {
        int64_t k = trans == TessNoTrans ? np - 1 - s : s;
        lapack_opts_t o = { info, LAPACK_ANY_FAILURE, s == 0 ? after : NULL, 1 };
        for (int64_t j = 0; j < B->nt && !err; j++)
            err = lapack_task_qr_solve(t, &o, trans, k * A->nb, tile(tau, 0, k)->n, tile(A, 0, k),
                                       tile(B, 0, j));
    }
    return err;
}

/* A = 0's answer, LAPACK's, after every other task on B (its panels) and, through after,
 * on INFO: the factored matrix A searched, then B zeroed and INFO reset when it is zero. */
static int submit_zero_a(kern_type_t t, const gels_call_t *c, const tiling_t *A, const tiling_t *B,
                         rt_block_t *after)
{
    lapack_opts_t o = { c->info, 0, after, 0 };
    int err = 0;
    for (int64_t k = 0; k < A->nt && !err; k++)
        err = lapack_task_gels_zero_a(t, LAPACK_ZERO_A_SEARCH, &o, c->nonzero, tile(A, 0, k));
    for (int64_t j = 0; j < B->nt && !err; j++)
        err = lapack_task_gels_zero_a(t, LAPACK_ZERO_A_ZERO, &o, c->nonzero, tile(B, 0, j));
    return err ? err : lapack_task_gels_zero_a(t, LAPACK_ZERO_A_RESET, &o, c->nonzero, NULL);
}

/* LAPACK's scaling of A and B (brow rows) by their max-norms, before anything else reads them:
 * the norms' tasks chained through after, the scaling after them all. */
static int submit_scale(kern_type_t t, const gels_call_t *c, const tiling_t *A, const tiling_t *B,
                        rt_block_t *after)
{
    lapack_opts_t o = { NULL, 0, after, 0 };
    int err = 0;
    for (int64_t k = 0; k < A->nt && !err; k++)
        err = lapack_task_gels_scale(t, LAPACK_NORM_A, &o, c->norms, A->mb, tile(A, 0, k));
    for (int64_t j = 0; j < B->nt && !err; j++)
        err = lapack_task_gels_scale(t, LAPACK_NORM_B, &o, c->norms, c->brow, tile(B, 0, j));
    for (int64_t k = 0; k < A->nt && !err; k++)
        err = lapack_task_gels_scale(t, LAPACK_SCALE_A, &o, c->norms, A->mb, tile(A, 0, k));
    for (int64_t j = 0; j < B->nt && !err; j++)
        err = lapack_task_gels_scale(t, LAPACK_SCALE_B, &o, c->norms, c->brow, tile(B, 0, j));
    return err;
}

/* X (xrow rows) taken back from the scaling, after the solve, unless the rank fell short. */
static int submit_unscale(kern_type_t t, const gels_call_t *c, const tiling_t *B)
{
    lapack_opts_t o = { c->info, LAPACK_ANY_FAILURE, NULL, 0 };
    int err = 0;
    for (int64_t j = 0; j < B->nt && !err; j++) {
        err = lapack_task_gels_scale(t, LAPACK_UNSCALE_A, &o, c->norms, c->xrow, tile(B, 0, j));
        if (!err)
            err = lapack_task_gels_scale(t, LAPACK_UNSCALE_B, &o, c->norms, c->xrow, tile(B, 0, j));
    }
    return err;
}

/* The graph for m >= n on the factored matrix A (A itself, or F = A^H in scratch: lq). */
static int submit_qr(kern_type_t t, const gels_call_t *c, const tiling_t *A, const tiling_t *tau,
                     const tiling_t *B, bool lq)
{
    tess_trans_t ct = lapack_ctrans(t);
    rt_block_t *chain = tile(tau, 0, tau->nt - 1);
    lapack_opts_t gate = { c->info, LAPACK_ANY_FAILURE, NULL, 0 };
    int err = lapack_submit_geqrf(t, A, tau, c->f, !lq);
    if (!err && c->trans == TessNoTrans)
        err = lapack_submit_ormqr(t, NULL, TessLeft, ct, A, tau, B, c->f);
    if (!err)
        err = submit_checks(t, A, tau, c->info, chain);
    if (!err)
        err =
            submit_solve(t, c->trans == TessNoTrans ? TessNoTrans : ct, A, tau, B, c->info, chain);
    if (c->trans != TessNoTrans) {
        for (int64_t j = 0; j < B->nt && !err && B->mb > c->n; j++)
            err = lapack_task_zero_rows(t, &gate, c->n, tile(B, 0, j));
        if (!err)
            err = lapack_submit_ormqr(t, &gate, TessLeft, TessNoTrans, A, tau, B, c->f);
    }
    if (!err)
        err = submit_unscale(t, c, B);
    return err ? err : submit_zero_a(t, c, A, B, chain);
}

/* to = from^H on column panels: to's panel i, rows j nb on, from from's panel j, rows i nb
 * on; the first task on each of to's panels does not read it in. */
static int submit_transpose(kern_type_t t, const tiling_t *from, const tiling_t *to)
{
    int err = 0;
    for (int64_t i = 0; i < to->nt && !err; i++)
        for (int64_t j = 0; j < from->nt && !err; j++)
            err = lapack_task_transpose(t, j == 0, i * from->nb, tile(from, 0, j), j * from->nb,
                                        tile(to, 0, i));
    return err;
}

static int submit(kern_type_t t, const tiling_t *g, const void *call)
{
    bool lq = g[OP_F].blk != NULL;
    const tiling_t *F = lq ? &g[OP_F] : &g[OP_A];
    int err = submit_scale(t, call, &g[OP_A], &g[OP_B], tile(&g[OP_TAU], 0, g[OP_TAU].nt - 1));
    if (!err && lq)
        err = submit_transpose(t, &g[OP_A], F);
    if (!err)
        err = submit_qr(t, call, F, &g[OP_TAU], &g[OP_B], lq);
    return !err && lq ? submit_transpose(t, F, &g[OP_A]) : err;
}

static int zero_b(kern_type_t t, const tiling_t *g, const void *call)
{
    (void)call;
    blas_scalar_t zero = { { 0 } };
    return blas_scale(t, false, TessAll, zero.v, &g[0]);
}

int lapack_gels(kern_type_t t, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs, void *A,
                int64_t lda, void *B, int64_t ldb, int64_t *info)
{
    int err = check_gels(kern_dtypes[t].is_complex, trans, m, n, nrhs, A, lda, B, ldb, info);
    if (err || (err = rt_check_ready()))
        return err;
    lapack_info_start(info);
    if (nrhs == 0)
        return 0;
    if (m == 0 || n == 0) {
        /* no equations or no unknowns: X = 0, as LAPACK's */
        blas_operand_t b = { .ptr = B, .m = m > n ? m : n, .n = nrhs, .ld = ldb };
        return blas_run(t, 1, &b, zero_b, NULL);
    }
    bool lq = m < n;
    size_t es = kern_dtypes[t].size;
    int64_t k = lq ? m : n;
    /* the flag and the two norms (32 bytes, so that tau is aligned for every type), tau, then
     * F for m < n */
    char *scratch = rt_scratch_alloc(32 + (size_t)k * es + (lq ? (size_t)m * (size_t)n * es : 0));
    if (!scratch)
        return TESS_ENOMEM;
    int64_t *nonzero = (int64_t *)scratch;
    *nonzero = 0;
    double *norms = (double *)(scratch + 16);
    norms[0] = norms[1] = 0;
    char *tau = scratch + 32;
    bool notrans = kern_trans(t, trans) == TessNoTrans;
    tess_trans_t ft = notrans != lq ? TessNoTrans : TessConjTrans;
    lapack_tfac_t f = { NULL, NULL };
    gels_call_t c = { ft, k, info, nonzero, &f, norms, notrans ? m : n, notrans ? n : m };
    blas_operand_t ops[] = {
        [OP_TAU] = { .ptr = tau, .m = 1, .n = k, .ld = 1, .panels = true },
        [OP_B] = { .ptr = B, .m = m > n ? m : n, .n = nrhs, .ld = ldb, .panels = true },
        [OP_F] = { .ptr = lq ? tau + (size_t)k * es : NULL,
                   .m = n,
                   .n = m,
                   .ld = n,
                   .panels = true,
                   .narrow = true },
        [OP_A] = { .ptr = A, .m = m, .n = n, .ld = lda, .panels = true, .narrow = true },
    };
    err = blas_run(t, 4, ops, submit, &c);
    lapack_tfac_free(&f);
    rt_scratch_submitted(scratch);
    return err;
}
