/* The precision-generic BLAS-2 algorithms: GEMV and SYMV/HEMV cut into tile
 * tasks as the BLAS-3 routines are (blas3/README.md), over A's tiling and
 * the vectors' pieces.
 *
 * A vector of len elements is cut into pieces of nb, piece p holding its
 * elements [p nb, (p+1) nb), each a block: a column (ptr, plen, 1, ld = len)
 * when |inc| is 1, else a row (ptr, 1, plen, ld = |inc|), at the piece's
 * lowest address.  A device copy is packed, so a kernel walks it with
 * increment 1, or -1 for a negative inc (reference semantics: element 0 at
 * the far end).
 *
 * A task goes where its matrix tile is (place_by_first), so that A stays on
 * the devices that hold it from call to call, and y's pieces move instead.
 * So that the devices work at once rather than take turns, no chain of
 * tasks crosses between them: each device sums its own tiles' share of a
 * piece of y in a chain of its own, one of them into y itself (beta applied
 * at its first step), the others into partial sums in the call's scratch,
 * which are then added into y one after another in increasing device order
 * (partials_t).  Every order is fixed at submission by the tiling and the
 * device grid, so results repeat bit for bit whatever device runs which
 * task. */
#ifndef BLAS2_H
#define BLAS2_H

#include "tile.h"

typedef struct {
    int64_t nt; /* pieces */
    int inc;    /* the kernels' increment on a packed piece: 1 or -1 */
    rt_block_t **blk;
} vtiling_t;

/* Whether the vector's view lies in the address space (block_view_fits). */
bool vtiling_fits(const void *x, int64_t len, int64_t inc, size_t es);
/* Pieces of the tile size of A, the call's matrix tiling, homed on its device
 * grid; while the call submits, before its first task.  0 or TESS_ENOMEM. */
int vtiling_make(vtiling_t *v, const tiling_t *A, const void *x, int64_t len, int64_t inc,
                 size_t es);
void vtiling_free(vtiling_t *v);

/* The partial sums of one call: for each piece k of y, the devices whose
 * tiles add to it (uses, ndev x nt, set by the routine) and the one among
 * them whose chain sums straight into y_k (direct[k], set by the routine);
 * each other one's chain sums into a block of its own, blk[d + k ndev], of
 * y_k's shape, homed on d, in the call's scratch.  partials_init, the
 * routine marks uses and direct, partials_make (the blocks, before any task
 * is submitted), the chains into partials_target, then partials_reduce: y_k
 * += each partial in increasing d, one geadd task each, which runs where y_k
 * is.  A partial is written on its device, read from there by the geadd,
 * and dropped with the scratch at the sync after the call: it reaches the
 * host only if evicted. */
typedef struct {
    int64_t p, q, ndev; /* the call's device grid */
    int64_t nt;         /* pieces of y */
    int64_t *direct;
    bool *uses;
    rt_block_t **blk;
} partials_t;

int partials_init(partials_t *s, const tiling_t *A, int64_t nt);
/* The blocks, in scratch from rt_scratch_alloc_submitting, its address in *scratch (left
 * as it was when no partial is needed), which the call hands to rt_scratch_submitted after
 * blas_run, even on failure.  0 or TESS_ENOMEM. */
int partials_make(partials_t *s, const vtiling_t *y, size_t es, void **scratch);
/* What device d's chain for piece k sums into: y_k or d's partial. */
rt_block_t *partials_target(const partials_t *s, const vtiling_t *y, int64_t d, int64_t k);
int partials_reduce(kern_type_t t, const partials_t *s, const vtiling_t *y);
void partials_free(partials_t *s);

/* The tile task of both routines (the kernel table's gemv2): y1 = alpha A x2
 * + beta1 y1 and y2 = alpha op(A) x1 + beta2 y2, either y NULL (not computed,
 * its x not read); part TessUpperPart/TessLowerPart: A a diagonal tile of a
 * symmetric (Hermitian when herm) matrix stored in that triangle, y1 only.  A
 * y whose beta is 0 is written without being read.  incx and incy: the
 * pieces' kernel increments. */
int blas_task_mv(kern_type_t t, tess_part_t part, bool herm, const void *alpha, rt_block_t *a,
                 rt_block_t *x1, rt_block_t *x2, int incx, const void *beta1, rt_block_t *y1,
                 const void *beta2, rt_block_t *y2, int incy);

int blas_gemv(kern_type_t t, tess_trans_t trans, int64_t m, int64_t n, const void *alpha,
              const void *A, int64_t lda, const void *x, int64_t incx, const void *beta, void *y,
              int64_t incy);
/* SYMV for real types, HEMV (herm) for complex ones */
int blas_symv(kern_type_t t, bool herm, tess_uplo_t uplo, int64_t n, const void *alpha,
              const void *A, int64_t lda, const void *x, int64_t incx, const void *beta, void *y,
              int64_t incy);

#endif
