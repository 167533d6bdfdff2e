/* The Cholesky family as tile algorithms on the runtime (README.md in this
 * folder).  Each routine is a lapack_<name>() taking the element type t, as
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

/* A task's gate, extra read and priority: { info, limit, after, prio }, the tile
 * framework's (tile.h); prio 1 on the critical path, ahead of the updates in its device's
 * queue. */
typedef tile_opts_t lapack_opts_t;

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

int lapack_potrf(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info);
int lapack_potrs(kern_type_t t, tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A,
                 int64_t lda, void *B, int64_t ldb);
int lapack_posv(kern_type_t t, tess_uplo_t uplo, int64_t n, int64_t nrhs, void *A, int64_t lda,
                void *B, int64_t ldb, int64_t *info);
int lapack_trtri(kern_type_t t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A, int64_t lda,
                 int64_t *info);
int lapack_lauum(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
int lapack_potri(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info);

#endif
