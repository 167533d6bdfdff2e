/* The routines this library serves, described once: every other file of it
 * reads a routine's facts here and dispatches on its shape.
 *
 * Thresholds, in real flops (a complex multiply-add counts 8): below them
 * the host BLAS is at least as fast, since the runtime's fixed cost per call
 * (start of its tasks, one sync, invalidation) and the copies over the host
 * link are not yet paid back.  2e9 is DGEMM at n = 1000.  A call also needs
 * this many flops per byte of its operands (the output counted twice when it
 * is read): a GEMM of rank 256 onto a large C moves C twice for k = 256,
 * which the host does faster.  TRSM's are measured (bench/bench_legacy.sh
 * on one GPU, BENCHMARKS.md): its square calls gain from the runtime between
 * n = 512 and 1024, which 5e8 flops (n = 794) and 32 per byte (n = 768)
 * split; the others' are to be measured the same way.  The Cholesky
 * family's count LAPACK's flops (n^3/3 for POTRF).  POTRF's is measured the
 * same way on four GPUs: through the runtime it beat the host LAPACK (many
 * threads, slow at these sizes) at every n from 768, so its threshold is n =
 * 768; TRTRI, LAUUM, POTRI and POSV, the same tile algorithms, take POTRF's
 * n, and POTRS (two TRSMs) TRSM's bytes, until they are measured.  TESS_THRESHOLD
 * overrides the flop count of every routine, and TESS_THRESHOLD=0 sends
 * every call through the runtime. */
#include <math.h>
#include "legacy.h"

const lg_routine_t lg_routines[LG_NROUT] = {
    [LG_GEMM] = { "GEMM", LG_SHAPE_GEMM, .flops = 2e9, .per_byte = 64, .host = { "gemm" },
                  .pos = { 3, 4, 5, 8, 10, 13 } },
    [LG_SYMM] = { "SYMM", LG_SHAPE_SYMM, .flops = 2e9, .per_byte = 64, .host = { "symm" },
                  .pos = { 3, 4, 0, 7, 9, 12 } },
    [LG_HEMM] = { "HEMM", LG_SHAPE_SYMM, .herm = true, .flops = 2e9, .per_byte = 64,
                  .host = { "hemm" }, .pos = { 3, 4, 0, 7, 9, 12 } },
    [LG_SYRK] = { "SYRK", LG_SHAPE_SYRK, .triangle = true, .flops = 2e9, .per_byte = 64,
                  .host = { "syrk" }, .pos = { 0, 3, 4, 7, 0, 10 } },
    [LG_HERK] = { "HERK", LG_SHAPE_SYRK, .herm = true, .triangle = true, .real_alpha = true,
                  .real_beta = true, .flops = 2e9, .per_byte = 64, .host = { "herk" },
                  .pos = { 0, 3, 4, 7, 0, 10 } },
    [LG_SYR2K] = { "SYR2K", LG_SHAPE_SYR2K, .triangle = true, .flops = 2e9, .per_byte = 64,
                   .host = { "syr2k" }, .pos = { 0, 3, 4, 7, 9, 12 } },
    [LG_HER2K] = { "HER2K", LG_SHAPE_SYR2K, .herm = true, .triangle = true, .real_beta = true,
                   .flops = 2e9, .per_byte = 64, .host = { "her2k" },
                   .pos = { 0, 3, 4, 7, 9, 12 } },
    [LG_GEMMT] = { "GEMMT", LG_SHAPE_GEMMT, .triangle = true, .flops = 2e9, .per_byte = 64,
                   .host = { "gemmtr", "gemmt" }, .two_names = true,
                   .pos = { 0, 4, 5, 8, 10, 13 } },
    [LG_TRSM] = { "TRSM", LG_SHAPE_TRSM, .flops = 5e8, .per_byte = 32, .host = { "trsm" },
                  .pos = { 5, 6, 0, 9, 0, 11 } },
    [LG_TRMM] = { "TRMM", LG_SHAPE_TRMM, .flops = 2e9, .per_byte = 64, .host = { "trmm" },
                  .pos = { 5, 6, 0, 9, 0, 11 } },
    [LG_POTRF] = { "POTRF", LG_SHAPE_POTRF, .flops = 1.5e8, .n3 = 1. / 3, .host = { "potrf" },
                   .pos = { 0, 2, 0, 4, 0, 0 } },
    [LG_POTRS] = { "POTRS", LG_SHAPE_POTRS, .flops = 2e9, .per_byte = 32, .n2k = 2,
                   .host = { "potrs" }, .pos = { 0, 2, 3, 5, 7, 0 } },
    [LG_POSV] = { "POSV", LG_SHAPE_POTRS, .flops = 1.5e8, .n3 = 1. / 3, .n2k = 2,
                  .host = { "posv" }, .pos = { 0, 2, 3, 5, 7, 0 } },
    [LG_TRTRI] = { "TRTRI", LG_SHAPE_TRTRI, .flops = 1.5e8, .n3 = 1. / 3, .host = { "trtri" },
                   .pos = { 0, 3, 0, 5, 0, 0 } },
    [LG_LAUUM] = { "LAUUM", LG_SHAPE_POTRF, .flops = 1.5e8, .n3 = 1. / 3, .host = { "lauum" },
                   .pos = { 0, 2, 0, 4, 0, 0 } },
    [LG_POTRI] = { "POTRI", LG_SHAPE_POTRF, .flops = 3e8, .n3 = 2. / 3, .host = { "potri" },
                   .pos = { 0, 2, 0, 4, 0, 0 } },
    [LG_GETRF] = { "GETRF", LG_SHAPE_GETRF, .flops = 3e8, .host = { "getrf" },
                   .pos = { 1, 2, 0, 4, 0, 0 } },
    [LG_GETRS] = { "GETRS", LG_SHAPE_GETRS, .flops = 2e9, .per_byte = 32, .host = { "getrs" },
                   .pos = { 0, 2, 3, 5, 8, 0 } },
    [LG_GESV] = { "GESV", LG_SHAPE_GESV, .flops = 3e8, .host = { "gesv" },
                  .pos = { 0, 1, 2, 4, 7, 0 } },
    [LG_LASWP] = { "LASWP", LG_SHAPE_LASWP, .flops = HUGE_VAL, .host = { "laswp" },
                   .pos = { 3, 1, 0, 3, 0, 0 } },
    [LG_GEQRF] = { "GEQRF", LG_SHAPE_GEQRF, .flops = 6e8, .host = { "geqrf" },
                   .pos = { 1, 2, 0, 4, 0, 0 } },
    [LG_ORMQR] = { "ORMQR", LG_SHAPE_ORMQR, .flops = 2e9, .per_byte = 32,
                   .host = { "ormqr", "unmqr" }, .pos = { 3, 4, 5, 7, 0, 10 } },
    [LG_GELS] = { "GELS", LG_SHAPE_GELS, .flops = 6e8, .host = { "gels" },
                  .pos = { 2, 3, 4, 6, 8, 0 } },
};

static lg_region_t region(const void *p, tess_trans_t op, int64_t rows, int64_t cols, int64_t ld,
                          char name)
{
    return op == TessNoTrans ? (lg_region_t){ p, rows, cols, ld, .op = name }
                             : (lg_region_t){ p, cols, rows, ld, .op = name };
}

/* The square-output routines carry m = n. */
int lg_regions(const lg_call_t *c, lg_region_t r[3])
{
    const lg_routine_t *rt = lg_routine(c);
    int64_t ka = c->side == TessLeft ? c->m : c->n;
    tess_part_t tri = c->uplo == TessUpper ? TessUpperPart : TessLowerPart;
    int n = 0;
    switch (rt->shape) {
    case LG_SHAPE_GEMM:
    case LG_SHAPE_GEMMT:
        r[n++] = region(c->A, c->ta, c->m, c->k, c->lda, 'A');
        r[n++] = region(c->B, c->tb, c->k, c->n, c->ldb, 'B');
        break;
    case LG_SHAPE_SYMM:
        r[n++] = (lg_region_t){ c->A, ka, ka, c->lda, .op = 'A' };
        r[n++] = (lg_region_t){ c->B, c->m, c->n, c->ldb, .op = 'B' };
        break;
    case LG_SHAPE_TRSM:
    case LG_SHAPE_TRMM: r[n++] = (lg_region_t){ c->A, ka, ka, c->lda, .op = 'A' }; break;
    case LG_SHAPE_SYRK: r[n++] = region(c->A, c->ta, c->n, c->k, c->lda, 'A'); break;
    case LG_SHAPE_SYR2K:
        r[n++] = region(c->A, c->ta, c->n, c->k, c->lda, 'A');
        r[n++] = region(c->B, c->ta, c->n, c->k, c->ldb, 'B');
        break;
    case LG_SHAPE_POTRF:
    case LG_SHAPE_TRTRI:
        r[n++] = (lg_region_t){ c->A, c->n, c->n, c->lda, true, tri, 'A' };
        return n;
    case LG_SHAPE_POTRS:
        r[n++] = (lg_region_t){ c->A, c->n, c->n, c->lda, c->r == LG_POSV, tri, 'A' };
        r[n++] = (lg_region_t){ c->B, c->n, c->k, c->ldb, true, TessAll, 'B' };
        return n;
    case LG_SHAPE_GETRF:
        r[n++] = (lg_region_t){ c->A, c->m, c->n, c->lda, true, TessAll, 'A' };
        return n;
    case LG_SHAPE_GETRS:
    case LG_SHAPE_GESV:
        r[n++] = (lg_region_t){ c->A, c->n, c->n, c->lda, c->r == LG_GESV, TessAll, 'A' };
        r[n++] = (lg_region_t){ c->B, c->n, c->k, c->ldb, true, TessAll, 'B' };
        return n;
    case LG_SHAPE_LASWP: /* the rows of A that LAPACK's declaration gives it */
        r[n++] = (lg_region_t){ c->A, c->lda, c->n, c->lda, true, TessAll, 'A' };
        return n;
    case LG_SHAPE_GEQRF: /* tau, one row of min(m, n) */
        r[n++] = (lg_region_t){ c->A, c->m, c->n, c->lda, true, TessAll, 'A' };
        r[n++] = (lg_region_t){ c->B, 1, c->m < c->n ? c->m : c->n, 1, true, TessAll, 'B' };
        return n;
    case LG_SHAPE_ORMQR: /* the k reflectors of Q, of its order, and tau */
        r[n++] = (lg_region_t){ c->A, ka, c->k, c->lda, .op = 'A' };
        r[n++] = (lg_region_t){ c->B, 1, c->k, 1, .op = 'B' };
        break;
    case LG_SHAPE_GELS: /* B holds max(m, n) rows: the right-hand sides, then X */
        r[n++] = (lg_region_t){ c->A, c->m, c->n, c->lda, true, TessAll, 'A' };
        r[n++] = (lg_region_t){ c->B, c->m > c->n ? c->m : c->n, c->k, c->ldb, true, TessAll, 'B' };
        return n;
    }
    r[n++] = (lg_region_t){ c->C, c->m, c->n, c->ldc, true, rt->triangle ? tri : TessAll, 'C' };
    return n;
}
