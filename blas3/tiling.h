/* An operand cut into the runtime's nb x nb grid, anchored at its own
 * pointer, so the same sub-matrix used by consecutive calls maps to the same
 * blocks.  All blocks are looked up before any task is submitted, so running
 * out of memory here leaves nothing half-submitted. */
#ifndef TILING_H
#define TILING_H

#include "rt.h"

typedef struct {
    int64_t mt, nt;   /* tiles down and across */
    rt_block_t **blk; /* column-major mt x nt */
} tiling_t;

int tiling_make(tiling_t *g, const void *ptr, int64_t m, int64_t n, int64_t ld, size_t es);
void tiling_free(tiling_t *g);

static inline rt_block_t *tile(const tiling_t *g, int64_t i, int64_t j)
{
    return g->blk[i + j * g->mt];
}

static inline int64_t tiles_of(int64_t n)
{
    return (n + rt.cfg.nb - 1) / rt.cfg.nb;
}

#endif
