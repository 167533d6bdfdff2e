/* The tile framework: what the BLAS-3, BLAS-2 and LAPACK routines share.
 * blas_run tiles a call's operands (tiling.h) and submits its tasks; the
 * argument checks are in check.h; the tile tasks below serve every routine.
 * It reaches the runtime only through its interface headers (task.h,
 * call.h); no code above it includes the runtime's rt.h. */
#ifndef TILE_H
#define TILE_H

#include <string.h>
#include "check.h"
#include "dtype.h"
#include "task.h"
#include "tiling.h"

/* A scalar of any element type, by value. */
typedef struct {
    _Alignas(16) unsigned char v[16];
} blas_scalar_t;

static inline blas_scalar_t blas_scalar(kern_type_t t, const void *p)
{
    blas_scalar_t s = { { 0 } };
    memcpy(s.v, p, kern_dtypes[t].size);
    return s;
}

/* The most operands a call tiles: GELS of a wide matrix has tau, B, A^H and A. */
#define BLAS_MAX_OPERANDS 4

/* Tiles the operands, the last one the call's output, on the call's tile size
 * (tiling_pick_nb) and the runtime's device grid, and calls submit(t,
 * tilings, call) between rt_submit_begin and rt_submit_end, so that the
 * call's tasks enter the graph at once and after every earlier call's.  0 or
 * a TESS_E* code. */
int blas_run(kern_type_t t, int nops, const blas_operand_t *ops,
             int (*submit)(kern_type_t t, const tiling_t *g, const void *call), const void *call);

/* How a tile task enters its call (the field order is lapack_opts_t's): its
 * gate on the call's INFO, a task that does nothing when 0 < *info <= limit
 * (info NULL: not gated; lapack.h says when a gate may be read), a tile it
 * also reads to come after that tile's last writer (after, NULL: none), its
 * priority (rt_task_t.prio), and whether it is on the call's critical path
 * (rt_task_t.urgent). */
typedef struct {
    int64_t *info;
    int64_t limit;
    rt_block_t *after;
    int prio;
    bool urgent;
} tile_opts_t;

/* Whether a gated task is to do nothing: read when it runs. */
static inline bool tile_gate_closed(int64_t *info, int64_t limit)
{
    if (!info)
        return false;
    int64_t v = __atomic_load_n(info, __ATOMIC_ACQUIRE);
    return v > 0 && v <= limit;
}

/* The tile tasks the routines share (tasks.c).  A task that overwrites its
 * output whole without reading it (beta == 0 on its first step) names it
 * W-only, so that it is neither fetched nor read. */

/* c = alpha op(a) op(b) + beta c */
int blas_task_gemm_opts(kern_type_t t, const tile_opts_t *o, tess_trans_t ta, tess_trans_t tb,
                        const void *alpha, rt_block_t *a, rt_block_t *b, const void *beta,
                        rt_block_t *c);
/* ... at priority prio (rt_task_t.prio), not gated */
int blas_task_gemm_prio(kern_type_t t, int prio, tess_trans_t ta, tess_trans_t tb,
                        const void *alpha, rt_block_t *a, rt_block_t *b, const void *beta,
                        rt_block_t *c);
static inline int blas_task_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, const void *alpha,
                                 rt_block_t *a, rt_block_t *b, const void *beta, rt_block_t *c)
{
    return blas_task_gemm_prio(t, 0, ta, tb, alpha, a, b, beta, c);
}
/* b = alpha op(a)^-1 b (solve) or alpha op(a) b (side left; right: b op(a)), in place, a a
 * diagonal tile */
int blas_task_trxm(kern_type_t t, const tile_opts_t *o, bool solve, tess_side_t side,
                   tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, const void *alpha,
                   rt_block_t *a, rt_block_t *b);
/* c's uplo triangle = alpha op(a) op(a)^T + beta c (b NULL: SYRK, HERK when herm), or
 * alpha op(a) op(b)^T + alpha' op(b) op(a)^T + beta c (SYR2K, HER2K); ^H when herm.  c a
 * diagonal tile, always read, since its other triangle must survive.  alpha and beta in
 * blas_scalar_t's 16 bytes, of t or, where herm makes them real, of its real type. */
int blas_task_rank(kern_type_t t, const tile_opts_t *o, bool herm, tess_uplo_t uplo,
                   tess_trans_t trans, const void *alpha, rt_block_t *a, rt_block_t *b,
                   const void *beta, rt_block_t *c);
/* c = beta c, or in one triangle of a diagonal tile (part TessUpperPart or
 * TessLowerPart; herm: beta real and the diagonal's imaginary parts zeroed) */
int blas_task_scal(kern_type_t t, bool herm, tess_part_t part, const void *beta, rt_block_t *c);
/* b = alpha a + beta b, a of b's shape (a BLAS-2 partial sum added into its piece of y) */
int blas_task_geadd(kern_type_t t, const void *alpha, rt_block_t *a, const void *beta,
                    rt_block_t *b);
/* C = beta C over the tiles of a whole grid (part TessAll) or of its
 * triangle, for alpha == 0 or k == 0 */
int blas_scale(kern_type_t t, bool herm, tess_part_t part, const void *beta, const tiling_t *C);

/* Tile (i, j) of op(X), the grid of X: X(i, j), or X(j, i) when op transposes. */
static inline rt_block_t *tile_op(const tiling_t *g, tess_trans_t op, int64_t i, int64_t j)
{
    return op == TessNoTrans ? tile(g, i, j) : tile(g, j, i);
}

/* Whether tile (i, j) of a square grid lies in the uplo triangle. */
static inline bool in_triangle(tess_uplo_t uplo, int64_t i, int64_t j)
{
    return uplo == TessLower ? i >= j : i <= j;
}

#endif
