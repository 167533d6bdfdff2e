/* TRSM and TRMM as recursive tile algorithms (Charara, Ltaief and Keyes).
 *
 * T = op(A) is cut on the tile grid of its dimension: a range of kt tiles is
 * split after the largest power of two below kt, each half recurses, and the
 * off-diagonal block of T becomes one chain of GEMM tasks per tile of B it
 * updates.  A range of one tile is a trsm/trmm task per tile of B along the
 * other dimension.  Tiles of B in different columns (side left) or rows
 * (side right) never meet, so the dataflow runs them side by side; nothing
 * waits for a level of the recursion to finish.
 *
 * Of the two halves, the "target" is the one the off-diagonal block updates:
 * the second for side left with T lower or side right with T upper, the
 * first otherwise.  TRSM solves the other half (the source), subtracts its
 * product from the target, then solves the target.  TRMM, in place, first
 * multiplies the target by its own diagonal block, then adds the product of
 * the source's old values, and only then multiplies the source, so that every
 * task reading a tile's old value is submitted before the one overwriting it.
 *
 * Only tiles of A in its uplo triangle are named by a task; the diagonal
 * tiles go to the kernels with diag, which never read the other triangle, nor
 * the diagonal when it is unit. */
#include "blas3.h"

typedef struct {
    bool solve; /* trsm, else trmm */
    tess_side_t side;
    tess_uplo_t uplo;
    tess_trans_t trans; /* real types: Trans for ConjTrans */
    tess_diag_t diag;
    blas_scalar_t alpha;
} trxm_call_t;

enum { OP_A, OP_B };

/* One diagonal tile of A applied to one tile of B, in place. */
static int task_trxm_diag(kern_type_t t, const trxm_call_t *c, int prio, const void *alpha,
                          rt_block_t *a, rt_block_t *b)
{
    tile_opts_t o = { .prio = prio };
    return blas_task_trxm(t, &o, c->solve, c->side, c->uplo, c->trans, c->diag, alpha, a, b);
}

/* What the recursion carries: the tilings, and the call's fixed choices. */
typedef struct {
    kern_type_t t;
    const trxm_call_t *c;
    const tiling_t *A, *B;
    bool left;
    bool second_is_target; /* the off-diagonal block updates the second half */
    int64_t nrhs;          /* tiles of B along the other dimension */
    int64_t kt;            /* tiles of T's dimension */
    blas_scalar_t one, minus_one;
} trxm_rec_t;

/* The priority of the tasks writing tile d of B's triangular dimension: the
 * earlier the tile's last task can run, the higher, so that the tasks the
 * next diagonal tile waits for run ahead of the bulk of the updates.  TRSM
 * solves the source half before the target, TRMM multiplies the target
 * first (its sources' old values are read before they are overwritten). */
static int prio_of(const trxm_rec_t *r, int64_t d)
{
    bool up = r->second_is_target == r->c->solve; /* tiles finish in increasing order */
    return (int)(up ? r->kt - d : d + 1);
}

/* Tile d of B's triangular dimension in column (side left) or row (right) j. */
static rt_block_t *b_tile(const trxm_rec_t *r, int64_t d, int64_t j)
{
    return r->left ? tile(r->B, d, j) : tile(r->B, j, d);
}

/* Every tile of B in [t0, t1) += a times the product of the off-diagonal block
 * of T with the tiles in [s0, s1), the first step of each chain scaling the
 * tile by beta first.  Side left: B(p,j) = a T(p,s) B(s,j) + beta B(p,j);
 * right: B(j,p) = a B(j,s) T(s,p) + beta B(j,p).  Targets are taken nearest
 * the split first, and a chain takes its sources in the order a solve
 * finishes them, so that its first step can start as early as possible. */
static int trxm_update(const trxm_rec_t *r, int64_t t0, int64_t t1, int64_t s0, int64_t s1,
                       const void *a, const void *beta)
{
    tess_trans_t op = r->c->trans;
    int err = 0;
    for (int64_t p = r->second_is_target ? t0 : t1 - 1; p >= t0 && p < t1;
         p += r->second_is_target ? 1 : -1) {
        for (int64_t j = 0; j < r->nrhs; j++) {
            for (int64_t l = 0; l < s1 - s0 && !err; l++) {
                int64_t s = r->second_is_target ? s0 + l : s1 - 1 - l;
                const void *b = l ? r->one.v : beta;
                if (r->left)
                    err = blas_task_gemm_prio(r->t, prio_of(r, p), op, TessNoTrans, a,
                                              tile_op(r->A, op, p, s), b_tile(r, s, j), b,
                                              b_tile(r, p, j));
                else
                    err = blas_task_gemm_prio(r->t, prio_of(r, p), TessNoTrans, op, a,
                                              b_tile(r, s, j), tile_op(r->A, op, s, p), b,
                                              b_tile(r, p, j));
            }
            if (err)
                return err;
        }
    }
    return 0;
}

/* B's tiles [lo, hi) = alpha T[lo,hi)^-1 B (solve) or alpha T[lo,hi) B, where
 * T[lo,hi) is the diagonal block of T on those tiles. */
static int trxm_range(const trxm_rec_t *r, int64_t lo, int64_t hi, const void *alpha)
{
    if (hi - lo == 1) {
        int err = 0;
        for (int64_t j = 0; j < r->nrhs && !err; j++)
            err = task_trxm_diag(r->t, r->c, prio_of(r, lo), alpha, tile(r->A, lo, lo),
                                 b_tile(r, lo, j));
        return err;
    }
    int64_t half = 1;
    while (2 * half < hi - lo)
        half *= 2;
    int64_t mid = lo + half;
    int64_t t0 = r->second_is_target ? mid : lo, t1 = r->second_is_target ? hi : mid;
    int64_t s0 = r->second_is_target ? lo : mid, s1 = r->second_is_target ? mid : hi;
    int err;
    if (r->c->solve) {
        /* the target is still alpha B when the update reaches it: the update's
         * first step scales it, and its solve takes 1 */
        if ((err = trxm_range(r, s0, s1, alpha)) ||
            (err = trxm_update(r, t0, t1, s0, s1, r->minus_one.v, alpha)))
            return err;
        return trxm_range(r, t0, t1, r->one.v);
    }
    if ((err = trxm_range(r, t0, t1, alpha)) ||
        (err = trxm_update(r, t0, t1, s0, s1, alpha, r->one.v)))
        return err;
    return trxm_range(r, s0, s1, alpha);
}

static int submit_trxm(kern_type_t t, const tiling_t *g, const void *call)
{
    const trxm_call_t *c = call;
    bool left = c->side == TessLeft;
    bool t_lower = (c->uplo == TessLower) == (c->trans == TessNoTrans);
    trxm_rec_t r = { .t = t,
                     .c = c,
                     .A = &g[OP_A],
                     .B = &g[OP_B],
                     .left = left,
                     .second_is_target = left == t_lower,
                     .nrhs = left ? g[OP_B].nt : g[OP_B].mt,
                     .kt = g[OP_A].nt };
    static const float minus_one_s = -1.0f;
    static const double minus_one_d = -1.0;
    kern_dtype_one(t, r.one.v);
    kern_scalar_from_real(
        t, kern_dtypes[t].real == KERN_S ? (const void *)&minus_one_s : (const void *)&minus_one_d,
        r.minus_one.v);
    return trxm_range(&r, 0, g[OP_A].nt, c->alpha.v);
}

static int submit_zero(kern_type_t t, const tiling_t *g, const void *call)
{
    (void)call;
    blas_scalar_t zero = { { 0 } };
    return blas_scale(t, false, TessAll, zero.v, &g[OP_B]);
}

static int blas_trxm(kern_type_t t, bool solve, tess_side_t side, tess_uplo_t uplo,
                     tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n, const void *alpha,
                     const void *A, int64_t lda, void *B, int64_t ldb)
{
    int err = check_trxm(t, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
    if (err || (err = rt_check_ready()))
        return err;
    if (m == 0 || n == 0)
        return 0;
    /* alpha == 0: B = 0, neither A nor B read */
    bool uses_a = !kern_scalar_is_zero(t, alpha);
    trans = kern_trans(t, trans);
    trxm_call_t c = { solve, side, uplo, trans, diag, blas_scalar(t, alpha) };
    int64_t ka = side == TessLeft ? m : n;
    blas_operand_t ops[] = {
        [OP_A] = { uses_a ? A : NULL, ka, ka, lda, .chain = true },
        [OP_B] = { B, m, n, ldb },
    };
    return blas_run(t, 2, ops, uses_a ? submit_trxm : submit_zero, &c);
}

int blas_trsm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
              tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
              void *B, int64_t ldb)
{
    return blas_trxm(t, true, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
}

int blas_trmm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
              tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
              void *B, int64_t ldb)
{
    return blas_trxm(t, false, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
}
