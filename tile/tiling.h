/* An operand cut into an nb x nb grid, anchored at its own pointer, so the
 * same sub-matrix used by consecutive calls maps to the same blocks.  All
 * blocks are looked up before any task is submitted, so running out of
 * memory here leaves nothing half-submitted. */
#ifndef TILING_H
#define TILING_H

#include "block.h"
#include "call.h"
#include "kern.h"

/* An operand to tile: the m x n matrix at ptr with leading dimension ld.
 * One that the call does not touch has ptr NULL (or m or n 0) and an empty
 * tiling.  tri: the call uses one triangle of it (a square grid's tiles on
 * and to one side of the diagonal).  chain: the call's steps follow its
 * diagonal one tile after another (the triangle of TRSM and TRMM).  panels:
 * cut into column panels of the call's tile width, each the operand's whole
 * height (one tile row), for algorithms whose tasks work on whole columns
 * (a pivoted or Householder panel searches or reflects all of its rows).
 * rows: cut into row panels of the call's tile height, each the operand's
 * whole width (one tile column), for tasks that apply reflectors from the
 * right to whole rows (ORMQR's side Right).  narrow: its panels are at most
 * half the largest tile (tiling.c). */
typedef struct {
    const void *ptr;
    int64_t m, n, ld;
    bool tri, chain, panels, rows, narrow;
} blas_operand_t;

typedef struct {
    int64_t nb;       /* the call's tile size, the same for all its operands */
    int64_t mb;       /* tile rows: nb, or the whole height of a panel tiling (a row-panel
                         tiling's tiles are the whole width: nt is 1) */
    int64_t mt, nt;   /* tiles down and across */
    int64_t p, q;     /* the device grid its tiles are homed on (tiling_home) */
    rt_block_t **blk; /* column-major mt x nt */
} tiling_t;

/* The tile size of a call on these operands, the last one the call's output
 * (the rule is in tiling.c), for the devices the runtime has (rt_geometry). */
int64_t tiling_pick_nb(kern_type_t t, int nops, const blas_operand_t *ops);
/* Tiles of mb x nb (the last row and column of tiles what is left), homed on
 * the runtime's device grid (rt_geometry), which g keeps; g->nb is the call's
 * tile size, set by the caller. */
int tiling_make(tiling_t *g, int64_t mb, int64_t nb, const void *ptr, int64_t m, int64_t n,
                int64_t ld, size_t es);
void tiling_free(tiling_t *g);

static inline rt_block_t *tile(const tiling_t *g, int64_t i, int64_t j)
{
    return g->blk[i + j * g->mt];
}

/* Of n tiles along a dimension the device grid cycles over d devices, those
 * homed on the r-th: indices congruent to r modulo d. */
static inline int64_t tiles_homed(int64_t n, int64_t r, int64_t d)
{
    return n > r ? (n - r + d - 1) / d : 0;
}

/* How an mt x nt grid's tiles are homed on the devices' p x q block-cyclic
 * map (sched.c): by their own coordinates (TILING_PLAIN), unless the grid
 * has fewer tile columns than the map has columns (TILING_TALL) or, failing
 * that, fewer tile rows than it has rows (TILING_WIDE).  Then its tiles are
 * numbered along the long side and dealt to the devices in turn: on the
 * plain map a one-column output (a solver's panel: a TRSM or GEMM of few
 * columns) would have homes on one column of devices only, half of four
 * GPUs, one of two. */
typedef enum { TILING_PLAIN, TILING_TALL, TILING_WIDE } tiling_fold_t;

static inline tiling_fold_t tiling_fold(int64_t mt, int64_t nt, int64_t p, int64_t q)
{
    return nt < q ? TILING_TALL : mt < p ? TILING_WIDE : TILING_PLAIN;
}

/* The coordinates (*ti, *tj) that home tile (i, j) of an mt x nt grid on a
 * p x q map: device (*ti mod p) q + (*tj mod q). */
static inline void tiling_home(int64_t i, int64_t j, int64_t mt, int64_t nt, int64_t p, int64_t q,
                               int64_t *ti, int64_t *tj)
{
    int64_t l;
    switch (tiling_fold(mt, nt, p, q)) {
    case TILING_TALL:
        l = i * nt + j;
        *ti = l / q;
        *tj = l % q;
        break;
    case TILING_WIDE:
        l = j * mt + i;
        *ti = l % p;
        *tj = l / p;
        break;
    default: *ti = i; *tj = j;
    }
}

/* The device that tile (i, j) of g is homed on, numbered row by row on g's p x q map. */
static inline int64_t tiling_device(const tiling_t *g, int64_t i, int64_t j)
{
    int64_t ti, tj;
    tiling_home(i, j, g->mt, g->nt, g->p, g->q, &ti, &tj);
    return ti % g->p * g->q + tj % g->q;
}

/* Tile (*i, *j) of the output grid C at position x (0 <= x < mt nt) of the
 * order in which a call submits its output tiles' chains: device by device
 * on the block-cyclic map, so each device's ready queue starts with its own
 * tiles, and each device's rows and columns rotated by its place in the
 * grid, so that devices sharing a row of A (a column of B) start on
 * different tiles of it, fetch them over their own host links, and later
 * read each other's over the peer links.  A tall or wide grid's tiles go in
 * the order they are dealt (tiling_home). */
void tiling_order_at(const tiling_t *C, int64_t x, int64_t *i, int64_t *j);

/* Tiles of g's size along a dimension of n elements. */
static inline int64_t tiles_in(const tiling_t *g, int64_t n)
{
    return (n + g->nb - 1) / g->nb;
}

#endif
