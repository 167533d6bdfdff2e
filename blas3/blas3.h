/* The precision-generic BLAS-3 algorithms (README.md in this folder says how
 * a routine is added).  Each routine is a blas_<name>() taking the element
 * type t and its scalars by address: it checks its arguments (check.h), takes
 * reference BLAS's quick returns, then hands its operands to blas_run with a
 * submit function that cuts the call into tile tasks. */
#ifndef BLAS3_H
#define BLAS3_H

#include <string.h>
#include "check.h"
#include "rt.h"
#include "tiling.h"

/* A scalar of any element type, by value. */
typedef struct {
    _Alignas(16) unsigned char v[16];
} blas_scalar_t;

static inline blas_scalar_t blas_scalar(kern_type_t t, const void *p)
{
    blas_scalar_t s = { { 0 } };
    memcpy(s.v, p, rt_dtypes[t].size);
    return s;
}

/* GELS of a wide matrix: tau, B, A^H and A */
#define BLAS_MAX_OPERANDS 4

/* Tiles the operands, the last one the call's output, on the call's tile size
 * (tiling_pick_nb) and calls submit(t, tilings, call) under
 * rt.submit_lock, so that the call's tasks enter the graph at once and after
 * every earlier call's.  0 or a TESS_E* code. */
int blas_run(kern_type_t t, int nops, const blas_operand_t *ops,
             int (*submit)(kern_type_t t, const tiling_t *g, const void *call), const void *call);

/* The tile tasks the routines share.  A task that overwrites its output
 * whole without reading it (beta == 0 on its first step) names it W-only, so
 * that it is neither fetched nor read. */

/* c = alpha op(a) op(b) + beta c, at priority prio (rt_task_t.prio) */
int blas_task_gemm_prio(kern_type_t t, int prio, tess_trans_t ta, tess_trans_t tb,
                        const void *alpha, rt_block_t *a, rt_block_t *b, const void *beta,
                        rt_block_t *c);
static inline int blas_task_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, const void *alpha,
                                 rt_block_t *a, rt_block_t *b, const void *beta, rt_block_t *c)
{
    return blas_task_gemm_prio(t, 0, ta, tb, alpha, a, b, beta, c);
}
/* c = beta c, or in one triangle of a diagonal tile (part TessUpperPart or
 * TessLowerPart; herm: beta real and the diagonal's imaginary parts zeroed) */
int blas_task_scal(kern_type_t t, bool herm, tess_part_t part, const void *beta, rt_block_t *c);
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

int blas_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
              const void *beta, void *C, int64_t ldc);
int blas_symm(kern_type_t t, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,
              const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
              const void *beta, void *C, int64_t ldc);
/* herm: alpha and beta real */
int blas_syrk(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *beta, void *C,
              int64_t ldc);
/* herm: beta real */
int blas_syr2k(kern_type_t t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,
               const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *beta, void *C, int64_t ldc);
int blas_gemmt(kern_type_t t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
               int64_t k, const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
               const void *beta, void *C, int64_t ldc);
/* B = alpha op(A)^-1 B (side left) or alpha B op(A)^-1 (right), in place */
int blas_trsm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
              tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
              void *B, int64_t ldb);
/* B = alpha op(A) B (side left) or alpha B op(A) (right), in place */
int blas_trmm(kern_type_t t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
              tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
              void *B, int64_t ldb);

#endif
