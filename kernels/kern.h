/* What runs on one device: a table of tile kernels per element type.
 *
 * The runtime calls kernels only through these tables, so each backend (host,
 * cuda) supplies one table per precision and the algorithms never name a
 * precision.  Scalars are passed by address in the table's element type.
 * Every entry returns 0 or a positive TESS_E* code. */
#ifndef KERN_H
#define KERN_H

#include <stdint.h>
#include "tessera.h"

typedef enum { KERN_S, KERN_D, KERN_C, KERN_Z, KERN_NTYPES } kern_type_t;

/* A backend's execution context: for CUDA a stream and its cuBLAS handle;
 * the host backend passes NULL. */
typedef struct kern_ctx kern_ctx_t;

typedef struct {
    /* C = alpha op(A) op(B) + beta C; beta == 0 never reads C */
    int (*gemm)(kern_ctx_t *ctx, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,
                int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                int64_t ldb, const void *beta, void *C, int64_t ldc);
    /* C = beta C; beta == 0 sets C to zero without reading it */
    int (*scal)(kern_ctx_t *ctx, int64_t m, int64_t n, const void *beta, void *C, int64_t ldc);
    /* B = alpha op(A)^-1 B or alpha B op(A)^-1, in place */
    int (*trsm)(kern_ctx_t *ctx, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A,
                int64_t lda, void *B, int64_t ldb);
    /* B = alpha op(A) B or alpha B op(A), in place */
    int (*trmm)(kern_ctx_t *ctx, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A,
                int64_t lda, void *B, int64_t ldb);
    /* y = alpha op(A) x + beta y */
    int (*gemv)(kern_ctx_t *ctx, tess_trans_t trans, int64_t m, int64_t n, const void *alpha,
                const void *A, int64_t lda, const void *x, int64_t incx, const void *beta,
                void *y, int64_t incy);
    /* y = alpha A x + beta y, A symmetric (real) or Hermitian (complex) */
    int (*symv)(kern_ctx_t *ctx, tess_uplo_t uplo, int64_t n, const void *alpha, const void *A,
                int64_t lda, const void *x, int64_t incx, const void *beta, void *y,
                int64_t incy);
} kern_table_t;

/* The host backend's kernels, on OpenBLAS, indexed by kern_type_t. */
extern const kern_table_t kern_host_table[KERN_NTYPES];

#endif
