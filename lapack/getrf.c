/* GETRF, GETRS, GESV and LASWP on column panels (README.md in this folder).
 *
 * The matrix is cut into panels of the call's tile width and the whole
 * height, since partial pivoting searches whole columns.  GETRF is
 * right-looking: step k factors panel k's rows k nb on (the host LAPACK's or
 * cuSOLVER's getrf on one device), then one task per later panel applies the
 * step's row swaps to it, solves its rows of U and updates the rows below.
 * The panel task and the update of the next panel go first on their devices,
 * so that the next panel is factored while the rest is still being updated
 * (a lookahead of one panel).  The swaps of step k also go to every earlier
 * panel, so that L holds them all, as LAPACK's does.  A zero on U's diagonal
 * does not stop the factorization (LAPACK's INFO > 0): the panel task keeps
 * the first such column in info, and nothing is gated on it but GESV's solve.
 * Step k's swaps touch no row above its own, so after it every panel's rows
 * up to the step's last are final: their write-back is queued then
 * (block_writeback_rows_async) and runs behind the later steps, and the
 * copies left at the end are the last step's rows.
 *
 * The pivots live in blocks, one piece of nb entries per step, which the
 * panel task writes and the tasks of other devices read; the call asks for
 * their write-back itself, so that ipiv is the host's after the next
 * tess_sync.  GETRS first swaps the rows of each panel of B, then solves
 * with L and U one step at a time; transposed, it solves with U^T and L^T,
 * then swaps in reverse, as LAPACK's getrs does.  Every solve task names one
 * panel of the factor and one of B. */
#include <stdlib.h>
#include "lapack.h"

enum { OP_B, OP_A };

/* The entries of ipiv for rows k1 to k2 (1-based) of a panel, one piece a block. */
typedef struct {
    int64_t k1, k2;
    rt_block_t *blk;
} piece_t;

typedef enum { LU_GETRF, LU_GETRS, LU_LASWP } lu_kind_t;

typedef struct {
    lu_kind_t kind;     /* GETRF with B: GESV */
    int64_t *ipiv;      /* the entry of row k1 */
    int64_t k1, k2;     /* the rows swapped: getrf's and getrs's 1 to min(m, n) */
    int64_t stride;     /* between the entries of consecutive rows */
    bool forward;       /* laswp: k1 up, or k2 down */
    int64_t *info;      /* getrf's */
    tess_trans_t trans; /* getrs */
} lu_call_t;

/* The pivots of rows k1 to k2 cut at the multiples of nb, the rows of each step of a
 * factorization on that tile size, so that every call of one tile size names the same
 * pieces; a piece is homed with the panel of its step.  NULL when memory ran out. */
static piece_t *cut_pivots(const lu_call_t *c, const tiling_t *A, int64_t *np)
{
    int64_t nb = A->nb, n = (c->k2 - 1) / nb - (c->k1 - 1) / nb + 1;
    piece_t *p = malloc((size_t)n * sizeof *p);
    for (int64_t q = 0; p && q < n; q++) {
        int64_t a = q ? p[q - 1].k2 + 1 : c->k1, b = ((a - 1) / nb + 1) * nb;
        b = b < c->k2 ? b : c->k2;
        int64_t len = b - a + 1, step = (a - 1) / nb;
        const rt_block_t *home = tile(A, 0, step < A->nt ? step : A->nt - 1);
        char *e = (char *)(c->ipiv + (a - c->k1) * c->stride);
        p[q] = (piece_t){ a, b,
                          c->stride == 1 ? block_get(e, len, 1, len, 8, home->ti, home->tj)
                                         : block_get(e, 1, len, c->stride, 8, home->ti, home->tj) };
        if (!p[q].blk) {
            free(p);
            p = NULL;
        }
    }
    *np = n;
    return p;
}

static int submit_getrf(kern_type_t t, const tiling_t *A, const piece_t *piv, int64_t np,
                        int64_t *info)
{
    int err = 0;
    lapack_opts_t o = { NULL, 0, NULL, 0 };
    for (int64_t k = 0; k < np && !err; k++) {
        int64_t r0 = piv[k].k1 - 1, kk = piv[k].k2 - r0;
        rt_block_t *f = tile(A, 0, k);
        o.prio = 1;
        err = lapack_task_lu_panel(t, &o, r0, info, f, piv[k].blk);
        for (int64_t j = k + 1; j < A->nt && !err; j++) {
            o.prio = j == k + 1;
            err = lapack_task_lu_update(t, &o, r0, kk, f, piv[k].blk, tile(A, 0, j));
        }
        o.prio = 0;
        for (int64_t j = 0; j < k && !err; j++)
            err = lapack_task_laswp(t, &o, piv[k].k1, piv[k].k2, true, true, piv[k].blk,
                                    tile(A, 0, j));
        /* every panel's rows above the step's last are final; the next panel's wait for its
         * factorization, and the one after it for the next step's urgent update, each of
         * which a copy of the block would hold back (a writer waits for the block's readers) */
        for (int64_t j = 0; j < A->nt && !err; j++)
            if (j != k + 1 && j != k + 2)
                err = block_writeback_rows_async(tile(A, 0, j), piv[k].k2);
    }
    for (int64_t j = 0; j < A->nt && !err; j++)
        err = block_write_behind_async(tile(A, 0, j));
    for (int64_t k = 0; k < np && !err; k++)
        err = block_coherent_async(piv[k].blk);
    return err;
}

/* Each panel of B: its rows swapped, then solved with L and U (transposed: with U^T and
 * L^T, then swapped in reverse).  gate: GESV's info, its first task on a panel reading the
 * factor's last panel, which every panel task comes before. */
static int submit_getrs(kern_type_t t, tess_trans_t trans, const tiling_t *A, const tiling_t *B,
                        const piece_t *piv, int64_t np, int64_t *gate)
{
    int err = 0;
    bool notrans = trans == TessNoTrans;
    for (int64_t j = 0; j < B->nt && !err; j++) {
        rt_block_t *b = tile(B, 0, j);
        lapack_opts_t o = { gate, LAPACK_ANY_FAILURE, gate ? tile(A, 0, np - 1) : NULL, 0 };
        for (int64_t k = 0; k < np && notrans && !err; k++) {
            err = lapack_task_laswp(t, &o, piv[k].k1, piv[k].k2, true, false, piv[k].blk, b);
            o.after = NULL;
        }
        /* with L, or U^T: forward */
        for (int64_t k = 0; k < np && !err; k++) {
            int64_t r0 = piv[k].k1 - 1;
            err = lapack_task_lu_solve(t, &o, notrans ? TessLower : TessUpper, trans, r0,
                                       piv[k].k2 - r0, tile(A, 0, k), b);
            o.after = NULL;
        }
        for (int64_t k = np - 1; k >= 0 && !err; k--) {
            int64_t r0 = piv[k].k1 - 1;
            err = lapack_task_lu_solve(t, &o, notrans ? TessUpper : TessLower, trans, r0,
                                       piv[k].k2 - r0, tile(A, 0, k), b);
        }
        for (int64_t k = np - 1; k >= 0 && !notrans && !err; k--)
            err = lapack_task_laswp(t, &o, piv[k].k1, piv[k].k2, false, false, piv[k].blk, b);
    }
    return err;
}

static int submit_laswp(kern_type_t t, const tiling_t *A, const piece_t *piv, int64_t np,
                        bool forward)
{
    int err = 0;
    lapack_opts_t o = { NULL, 0, NULL, 0 };
    for (int64_t j = 0; j < A->nt && !err; j++)
        for (int64_t q = 0; q < np && !err; q++) {
            const piece_t *p = &piv[forward ? q : np - 1 - q];
            err = lapack_task_laswp(t, &o, p->k1, p->k2, forward, false, p->blk, tile(A, 0, j));
        }
    return err;
}

static int submit(kern_type_t t, const tiling_t *g, const void *call)
{
    const lu_call_t *c = call;
    int64_t np;
    piece_t *piv = cut_pivots(c, &g[OP_A], &np);
    if (!piv)
        return TESS_ENOMEM;
    int err;
    switch (c->kind) {
    case LU_GETRS: err = submit_getrs(t, c->trans, &g[OP_A], &g[OP_B], piv, np, NULL); break;
    case LU_LASWP: err = submit_laswp(t, &g[OP_A], piv, np, c->forward); break;
    default:
        err = submit_getrf(t, &g[OP_A], piv, np, c->info);
        if (!err && g[OP_B].blk)
            err = submit_getrs(t, TessNoTrans, &g[OP_A], &g[OP_B], piv, np, c->info);
    }
    free(piv);
    return err;
}

int lapack_getrf(kern_type_t t, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                 int64_t *info)
{
    int err = check_getrf(m, n, A, lda, ipiv, info);
    if (err || (err = rt_check_ready()))
        return err;
    lapack_info_start(info);
    if (m == 0 || n == 0)
        return 0;
    lu_call_t c = {
        .kind = LU_GETRF, .ipiv = ipiv, .k1 = 1, .k2 = m < n ? m : n, .stride = 1, .info = info
    };
    blas_operand_t ops[] = {
        [OP_B] = { NULL, 0, 0, 1 }, [OP_A] = { A, m, n, lda, .panels = true }
    };
    /* a failed call's pivots are undefined: its rows bound nothing */
    err = blas_run(t, 2, ops, submit, &c);
    if (!err)
        lapack_pivots_submitted(ipiv, m < n ? m : n, m);
    return err;
}

int lapack_getrs(kern_type_t t, tess_trans_t trans, int64_t n, int64_t nrhs, const void *A,
                 int64_t lda, const int64_t *ipiv, void *B, int64_t ldb)
{
    int err = check_getrs(trans, n, nrhs, A, lda, ipiv, B, ldb);
    if (err || (err = rt_check_ready()))
        return err;
    if (n == 0 || nrhs == 0)
        return 0;
    /* the pivots are only read */
    lu_call_t c = { .kind = LU_GETRS,
                    .ipiv = (int64_t *)ipiv,
                    .k1 = 1,
                    .k2 = n,
                    .stride = 1,
                    .trans = kern_trans(t, trans) };
    blas_operand_t ops[] = {
        [OP_B] = { B, n, nrhs, ldb, .panels = true }, [OP_A] = { A, n, n, lda, .panels = true }
    };
    return blas_run(t, 2, ops, submit, &c);
}

int lapack_gesv(kern_type_t t, int64_t n, int64_t nrhs, void *A, int64_t lda, int64_t *ipiv,
                void *B, int64_t ldb, int64_t *info)
{
    int err = check_gesv(n, nrhs, A, lda, ipiv, B, ldb, info);
    if (err || (err = rt_check_ready()))
        return err;
    lapack_info_start(info);
    if (n == 0)
        return 0;
    lu_call_t c = { .kind = LU_GETRF, .ipiv = ipiv, .k1 = 1, .k2 = n, .stride = 1, .info = info };
    blas_operand_t ops[] = { [OP_B] = { nrhs ? B : NULL, n, nrhs, ldb, .panels = true },
                             [OP_A] = { A, n, n, lda, .panels = true } };
    err = blas_run(t, 2, ops, submit, &c);
    if (!err)
        lapack_pivots_submitted(ipiv, n, n);
    return err;
}

/* The rows of A that LASWP touches: rows 1 to k2 and to the largest pivot of rows k1 to k2
 * that lies in A's lda rows (one outside is not applied), the pivots read from the host (s:
 * their stride).  When an earlier GETRF or GESV is still computing them, the rows they name
 * are known only when the tasks run: then up to that call's rows (pivot_bounds.c), or all of
 * LAPACK's lda x n A when they came from elsewhere. */
static int64_t laswp_rows(int64_t lda, int64_t k1, int64_t k2, const int64_t *ipiv, int64_t s)
{
    const int64_t *p = ipiv + k1 - 1;
    if (!rt_region_host_current(p, 1, k2 - k1 + 1, s, sizeof *p)) {
        int64_t rows = lapack_pivots_bound(p, k2 - k1 + 1, s);
        if (rows == 0)
            return lda;
        rows = rows > k2 ? rows : k2;
        return rows < lda ? rows : lda;
    }
    int64_t rows = k2;
    for (int64_t q = 0; q <= k2 - k1; q++)
        if (p[q * s] > rows && p[q * s] <= lda)
            rows = p[q * s];
    return rows;
}

/* LAPACK's entry for row i is ipiv(k1 + (i - k1)|incx|); a negative incx takes the rows from
 * k2 down. */
int lapack_laswp(kern_type_t t, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2,
                 const int64_t *ipiv, int64_t incx)
{
    int err = check_laswp(n, A, lda, k1, k2, ipiv, incx);
    if (err || (err = rt_check_ready()))
        return err;
    if (lapack_laswp_empty(n, k1, k2, incx))
        return 0;
    int64_t s = incx > 0 ? incx : -incx;
    lu_call_t c = { .kind = LU_LASWP,
                    .ipiv = (int64_t *)ipiv + k1 - 1,
                    .k1 = k1,
                    .k2 = k2,
                    .stride = s,
                    .forward = incx > 0 };
    blas_operand_t ops[] = { [OP_B] = { NULL, 0, 0, 1 },
                             [OP_A] = { A, laswp_rows(lda, k1, k2, ipiv, s), n, lda,
                                        .panels = true } };
    return blas_run(t, 2, ops, submit, &c);
}
