/* The Cholesky family and LU as tile algorithms on the runtime (README.md in
 * this folder).  Each routine is a lapack_<name>() taking the element type t, as
 * blas3's routines do, and runs through blas_run; its tasks are the tile
 * tasks below.
 *
 * INFO travels through the caller's int64_t: the call sets it to 0, and the
 * diagonal-tile task that fails stores its global column there (kern.h).  A
 * task may be gated on it: it does nothing when 0 < *info <= limit.  A gated
 * task only reads *info once every task whose failure it must see has
 * completed, so what it does never depends on timing: the tasks of step k of
 * a factorization descend from every diagonal task up to k, and a task that
 * must wait for the whole factorization reads (after) the tile its last task
 * wrote. */
#ifndef LAPACK_H
#define LAPACK_H

#include "tile.h"
#include "lapack_check.h"

/* A task's gate, extra read and priority: { info, limit, after, prio }, as the tile
 * framework's (tile.h); prio 1 on the critical path, ahead of the updates in its device's
 * queue and urgent, its kernel on the device's urgent stream (lapack_tile_opts). */
typedef struct {
    int64_t *info;
    int64_t limit;
    rt_block_t *after;
    int prio;
} lapack_opts_t;

/* Whether a task is on the critical path: then urgent too. */
static inline bool lapack_on_path(const lapack_opts_t *o)
{
    return o->prio > 0;
}

/* o as the tile framework takes it. */
static inline tile_opts_t lapack_tile_opts(const lapack_opts_t *o)
{
    return (tile_opts_t){ o->info, o->limit, o->after, o->prio, lapack_on_path(o) };
}

/* *info is the call's from here on: 0 until a diagonal task stores its failure.  Every
 * routine with an INFO sets it here, once its arguments have passed. */
static inline void lapack_info_start(int64_t *info)
{
    __atomic_store_n(info, 0, __ATOMIC_RELEASE);
}

/* The limit of a task that does nothing once the call has failed anywhere. */
#define LAPACK_ANY_FAILURE INT64_MAX

/* The diagonal tiles, in place: Cholesky, triangular inverse and L^H L (U U^H);
 * offset: the tile's first global column, for the info. */
int lapack_task_potrf(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, int64_t offset,
                      rt_block_t *a);
int lapack_task_trtri(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, tess_diag_t diag,
                      int64_t offset, rt_block_t *a);
/* TRTRI's check of a diagonal tile for an exactly zero element; it writes o->after (without
 * changing it) instead of reading it, so that the checks form a chain */
int lapack_task_check(kern_type_t t, const lapack_opts_t *o, int64_t offset, rt_block_t *a);
int lapack_task_lauum(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, rt_block_t *a);
/* b = sign op(a)^-1 b (solve) or sign op(a) b (side left; right: b op(a)), a a diagonal tile */
int lapack_task_trxm(kern_type_t t, const lapack_opts_t *o, bool solve, tess_side_t side,
                     tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int sign,
                     rt_block_t *a, rt_block_t *b);
/* c = sign op(a) op(b) + c */
int lapack_task_gemm(kern_type_t t, const lapack_opts_t *o, tess_trans_t ta, tess_trans_t tb,
                     int sign, rt_block_t *a, rt_block_t *b, rt_block_t *c);
/* c's uplo triangle = sign op(a) op(a)^H + c (HERK for complex types, SYRK for real ones) */
int lapack_task_herk(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, tess_trans_t trans,
                     int sign, rt_block_t *a, rt_block_t *c);

/* sign (+1 or -1) as a scalar of type t */
static inline blas_scalar_t lapack_one(kern_type_t t, int sign)
{
    blas_scalar_t s = { { 0 } };
    if (sign < 0)
        kern_dtype_minus_one(t, s.v);
    else
        kern_dtype_one(t, s.v);
    return s;
}

/* LU's tasks on column panels (lu_tasks.c): rows r0 (0-based) on of a panel are step r0's,
 * its kk rows the step's pivots, the panel's own rows the matrix's.  piv: a piece of the
 * pivots, global 1-based row indices of the rows r0 + 1 to r0 + kk. */
/* a's rows r0.. = P L U (getrf), the pivots written to piv, a failure to info (kern.h) */
int lapack_task_lu_panel(kern_type_t t, const lapack_opts_t *o, int64_t r0, int64_t *info,
                         rt_block_t *a, rt_block_t *piv);
/* b's rows swapped as piv says, then U(k) = L(k,k)^-1 b(k) and b(below) -= L(below,k) U(k)
 * with the factor's panel f */
int lapack_task_lu_update(kern_type_t t, const lapack_opts_t *o, int64_t r0, int64_t kk,
                          rt_block_t *f, rt_block_t *piv, rt_block_t *b);
/* b's rows k1 to k2 (1-based) interchanged with those piv names, in order (forward) or in
 * reverse; below: piv names none above k1 (GETRF's own), so rows above it are left as they
 * are */
int lapack_task_laswp(kern_type_t t, const lapack_opts_t *o, int64_t k1, int64_t k2, bool forward,
                      bool below, rt_block_t *piv, rt_block_t *b);
/* One step of a triangular solve of b with the factor's panel f (its uplo triangle: L unit,
 * U not), on b's rows r0 to r0 + kk: trans N solves them and updates the rows below (L) or
 * above (U); a transposed solve first subtracts what the rows below (L) or above (U) give */
int lapack_task_lu_solve(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo,
                         tess_trans_t trans, int64_t r0, int64_t kk, rt_block_t *f, rt_block_t *b);

/* QR's tasks (qr_tasks.c) on whole column panels, each from its step's first row off (the
 * panel's own first column is the step's).  The panel's GEQRF, at prio, writing tau (a 1 x k
 * block) and, unless f is NULL, the k x k T factor of its block reflector to f (larft); a
 * task is gated only through o (NULL: not gated). */
int lapack_task_geqrf(kern_type_t t, int prio, int64_t off, rt_block_t *panel, rt_block_t *tau,
                      rt_block_t *f);
/* c's rows from off = op(H) c's rows from off, H = I - V T V^H of the k reflectors of panel v
 * from row off and their T factor f (larfb) */
int lapack_task_larfb(kern_type_t t, const lapack_opts_t *o, tess_trans_t trans, int64_t off,
                      int64_t k, rt_block_t *v, rt_block_t *f, rt_block_t *c);
/* C = op(Q) C (Left: Q from the k reflectors of panel v from row off, applied to c's rows from
 * off) or C op(Q) (Right: to c's columns from off; c a row panel) */
int lapack_task_ormqr(kern_type_t t, const lapack_opts_t *o, tess_side_t side, tess_trans_t trans,
                      int64_t off, int64_t k, rt_block_t *v, rt_block_t *tau, rt_block_t *c);
/* INFO = off + i for the first exactly zero element i of the k x k diagonal block at (off, 0)
 * of the panel; it writes o->after (unchanged) so that the checks form a chain */
int lapack_task_qr_check(kern_type_t t, const lapack_opts_t *o, int64_t off, int64_t k,
                         rt_block_t *panel);
/* One step of a solve with R (the panels' upper triangle) on the column panel c, R_kk the
 * k x k block at (off, 0) of the panel: trans NoTrans, backward, c_k = R_kk^-1 c_k and the rows
 * above less R(0:off, panel) c_k; ConjTrans, forward, c_k less R(0:off, panel)^H c(0:off) and
 * then c_k = R_kk^-H c_k */
int lapack_task_qr_solve(kern_type_t t, const lapack_opts_t *o, tess_trans_t trans, int64_t off,
                         int64_t k, rt_block_t *panel, rt_block_t *c);
/* c's rows from off set to zero */
int lapack_task_zero_rows(kern_type_t t, const lapack_opts_t *o, int64_t off, rt_block_t *c);
/* GELS's answer to A = 0 (gels.c), tasks that do nothing unless *o->info is 1, chained
 * through o->after: the search of the factored panel blk for a nonzero element, which sets
 * *nonzero; then, when there is none, blk (a panel of B) zeroed whole, and INFO reset to 0
 * (blk NULL). */
typedef enum { LAPACK_ZERO_A_SEARCH, LAPACK_ZERO_A_ZERO, LAPACK_ZERO_A_RESET } lapack_zero_a_t;
int lapack_task_gels_zero_a(kern_type_t t, lapack_zero_a_t step, const lapack_opts_t *o,
                            int64_t *nonzero, rt_block_t *blk);
/* A GETRF's or GESV's count pivots at ipiv, being computed: none above rows
 * (pivot_bounds.c). */
void lapack_pivots_submitted(const int64_t *ipiv, int64_t count, int64_t rows);
/* The largest of those rows over count pivots at p (stride apart), each in a range submitted
 * so; 0 when one is in none. */
int64_t lapack_pivots_bound(const int64_t *p, int64_t count, int64_t stride);
/* GELS's scaling, LAPACK's: the max-norms of A and B (norms[0], norms[1]) found by tasks
 * chained through o->after (LAPACK_NORM_A, _B: the largest modulus of blk's first m rows),
 * then A's and B's first m rows brought into [smlnum, 1 / smlnum] (LAPACK_SCALE_A, _B), and
 * after the solve X's first m rows taken back (LAPACK_UNSCALE_A, _B, gated on o->info: a
 * rank deficiency leaves B scaled, as LAPACK's); a finite nonzero norm outside that range is
 * the only one that scales. */
typedef enum {
    LAPACK_NORM_A,
    LAPACK_NORM_B,
    LAPACK_SCALE_A,
    LAPACK_SCALE_B,
    LAPACK_UNSCALE_A,
    LAPACK_UNSCALE_B
} lapack_gels_scale_t;
int lapack_task_gels_scale(kern_type_t t, lapack_gels_scale_t step, const lapack_opts_t *o,
                           double *norms, int64_t m, rt_block_t *blk);
/* c's rows coff to coff + a->n - 1 = the Hermitian transpose of a's rows off to off + c->n - 1
 * (a and c column panels); fresh: c's earlier content is not needed, its first write of the
 * call (not read in) */
int lapack_task_transpose(kern_type_t t, bool fresh, int64_t off, rt_block_t *a, int64_t coff,
                          rt_block_t *c);

/* The Hermitian transposition of type t: ConjTrans, or Trans for real types. */
static inline tess_trans_t lapack_ctrans(kern_type_t t)
{
    return kern_trans(t, TessConjTrans);
}

/* Tile (i, j) of the lower factor L of the tile grid A (uplo Lower: L = A's lower triangle;
 * Upper: L = U^H), with the transposition that gives it. */
static inline rt_block_t *lapack_factor_tile(kern_type_t t, const tiling_t *A, tess_uplo_t uplo,
                                             int64_t i, int64_t j, tess_trans_t *op)
{
    *op = uplo == TessLower ? TessNoTrans : lapack_ctrans(t);
    return uplo == TessLower ? tile(A, i, j) : tile(A, j, i);
}

/* The submits, on tilings made by blas_run; info as the call's. */
int lapack_submit_potrf(kern_type_t t, tess_uplo_t uplo, const tiling_t *A, int64_t *info);
/* gate: the POTRS tasks are gated on info (the POSV that factored A just before) */
int lapack_submit_potrs(kern_type_t t, tess_uplo_t uplo, const tiling_t *A, const tiling_t *B,
                        int64_t *gate);
int lapack_submit_trtri(kern_type_t t, tess_uplo_t uplo, tess_diag_t diag, const tiling_t *A,
                        int64_t *info);
int lapack_submit_lauum(kern_type_t t, tess_uplo_t uplo, const tiling_t *A, int64_t *gate);
/* The T factors of a GEQRF's block reflectors, one k x k block per step (the panel's larft),
 * in the call's scratch: the updates and a later ORMQR of the same call apply each panel's
 * reflectors at once (larfb), two GEMMs and three TRMMs. */
typedef struct {
    rt_block_t **blk; /* per step */
    void *scratch;    /* for rt_scratch_submitted once the call has submitted */
} lapack_tfac_t;
/* QR (qr.c): A and tau tiled as column panels, tau 1 x min(m, n); tau's blocks are written back
 * to the host by the next tess_sync; the T factors in f (lapack_tfac_free's); behind: A's
 * panels are written back as they are factored (write-behind; not for a call's scratch) */
int lapack_submit_geqrf(kern_type_t t, const tiling_t *A, const tiling_t *tau, lapack_tfac_t *f,
                        bool behind);
void lapack_tfac_free(lapack_tfac_t *f);
/* k reflectors in A's column panels (k columns), tau 1 x k; C column panels (Left) or row
 * panels (Right); o gates every task; f: GEQRF's T factors of the same call, or NULL (side
 * Left only) */
int lapack_submit_ormqr(kern_type_t t, const lapack_opts_t *o, tess_side_t side, tess_trans_t trans,
                        const tiling_t *A, const tiling_t *tau, const tiling_t *C,
                        const lapack_tfac_t *f);

int lapack_potrf(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info);
int lapack_potrs(kern_type_t t, tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A,
                 int64_t lda, void *B, int64_t ldb);
int lapack_posv(kern_type_t t, tess_uplo_t uplo, int64_t n, int64_t nrhs, void *A, int64_t lda,
                void *B, int64_t ldb, int64_t *info);
int lapack_trtri(kern_type_t t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A, int64_t lda,
                 int64_t *info);
int lapack_lauum(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
int lapack_potri(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info);
int lapack_geqrf(kern_type_t t, int64_t m, int64_t n, void *A, int64_t lda, void *tau);
int lapack_ormqr(kern_type_t t, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n,
                 int64_t k, const void *A, int64_t lda, const void *tau, void *C, int64_t ldc);
int lapack_gels(kern_type_t t, tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs, void *A,
                int64_t lda, void *B, int64_t ldb, int64_t *info);
/* LU with partial pivoting (getrf.c): A tiled as column panels, ipiv int64_t, 1-based */
int lapack_getrf(kern_type_t t, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                 int64_t *info);
int lapack_getrs(kern_type_t t, tess_trans_t trans, int64_t n, int64_t nrhs, const void *A,
                 int64_t lda, const int64_t *ipiv, void *B, int64_t ldb);
int lapack_gesv(kern_type_t t, int64_t n, int64_t nrhs, void *A, int64_t lda, int64_t *ipiv,
                void *B, int64_t ldb, int64_t *info);
int lapack_laswp(kern_type_t t, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2,
                 const int64_t *ipiv, int64_t incx);

#endif
