/* TRTRI, LAUUM and POTRI as tile algorithms (the left-looking variants of
 * LAPACK's blocked routines, one task per tile update).
 *
 * TRTRI, on the lower triangle (Upper is its transpose), step k:
 *   A(m,k) = -A(m,k) A(k,k)^-1         m > k   (TRSM)
 *   A(m,n) += A(m,k) A(k,n)            m > k > n (GEMM)
 *   A(k,n) = A(k,k)^-1 A(k,n)          n < k   (TRSM)
 *   A(k,k) = A(k,k)^-1                         (TRTRI of the tile)
 * As LAPACK, a non-unit TRTRI looks for an exactly zero diagonal element
 * first and leaves A untouched when it finds one: a chain of check tasks, one
 * per diagonal tile in order, each writing (without changing it) the last
 * diagonal tile, which every task that first writes a tile also reads, so
 * that all of them come after the last check and are gated on any failure.
 *
 * LAUUM, on the lower triangle, step k:
 *   A(n,n) += A(k,n)^H A(k,n)          n < k   (HERK)
 *   A(m,n) += A(k,m)^H A(k,n)          n < m < k (GEMM)
 *   A(k,n) = A(k,k)^H A(k,n)           n < k   (TRMM)
 *   A(k,k) = A(k,k)^H A(k,k)                   (LAUUM of the tile)
 * POTRI is TRTRI then LAUUM, whose tasks, reading what TRTRI wrote, come
 * after its checks and are gated on them too. */
#include "lapack.h"

typedef struct {
    tess_uplo_t uplo;
    tess_diag_t diag;
    int64_t *info; /* NULL: LAUUM alone */
    bool invert, multiply;
} potri_call_t;

/* The checks' chain; the tile that the tasks of the inversion read after it. */
static int submit_checks(kern_type_t t, const tiling_t *A, int64_t *info, rt_block_t **gate)
{
    int64_t nt = A->nt;
    *gate = tile(A, nt - 1, nt - 1);
    lapack_opts_t o = { info, LAPACK_ANY_FAILURE, *gate, true };
    int err = 0;
    for (int64_t k = 0; k < nt && !err; k++)
        err = lapack_task_check(t, &o, k * A->nb, tile(A, k, k));
    return err;
}

int lapack_submit_trtri(kern_type_t t, tess_uplo_t uplo, tess_diag_t diag, const tiling_t *A,
                        int64_t *info)
{
    bool lower = uplo == TessLower;
    int64_t nt = A->nt;
    rt_block_t *gate = NULL;
    int err = kern_trtri_checks(diag) ? submit_checks(t, A, info, &gate) : 0;
    /* first: the tasks that write a tile first; the rest come after them */
    lapack_opts_t first = { info, LAPACK_ANY_FAILURE, gate, true };
    lapack_opts_t rest = { info, LAPACK_ANY_FAILURE, NULL, false };
    for (int64_t k = 0; k < nt && !err; k++) {
        rt_block_t *akk = tile(A, k, k);
        for (int64_t m = k + 1; m < nt && !err; m++)
            err = lower ? lapack_task_trxm(t, &first, true, TessRight, uplo, TessNoTrans, diag, -1,
                                           akk, tile(A, m, k))
                        : lapack_task_trxm(t, &first, true, TessLeft, uplo, TessNoTrans, diag, -1,
                                           akk, tile(A, k, m));
        for (int64_t m = k + 1; m < nt && !err; m++)
            for (int64_t n = 0; n < k && !err; n++)
                err = lower ? lapack_task_gemm(t, &rest, TessNoTrans, TessNoTrans, 1, tile(A, m, k),
                                               tile(A, k, n), tile(A, m, n))
                            : lapack_task_gemm(t, &rest, TessNoTrans, TessNoTrans, 1, tile(A, n, k),
                                               tile(A, k, m), tile(A, n, m));
        for (int64_t n = 0; n < k && !err; n++)
            err = lower ? lapack_task_trxm(t, &rest, true, TessLeft, uplo, TessNoTrans, diag, 1,
                                           akk, tile(A, k, n))
                        : lapack_task_trxm(t, &rest, true, TessRight, uplo, TessNoTrans, diag, 1,
                                           akk, tile(A, n, k));
        if (!err)
            err = lapack_task_trtri(t, &first, uplo, diag, k * A->nb, akk);
    }
    return err;
}

int lapack_submit_lauum(kern_type_t t, tess_uplo_t uplo, const tiling_t *A, int64_t *gate)
{
    bool lower = uplo == TessLower;
    tess_trans_t ct = lapack_ctrans(t);
    int64_t nt = A->nt;
    lapack_opts_t o = { gate, LAPACK_ANY_FAILURE, NULL, false };
    int err = 0;
    for (int64_t k = 0; k < nt && !err; k++) {
        rt_block_t *akk = tile(A, k, k);
        for (int64_t n = 0; n < k && !err; n++) {
            rt_block_t *akn = lower ? tile(A, k, n) : tile(A, n, k);
            err = lapack_task_herk(t, &o, uplo, lower ? ct : TessNoTrans, 1, akn, tile(A, n, n));
            for (int64_t m = n + 1; m < k && !err; m++)
                err = lower ? lapack_task_gemm(t, &o, ct, TessNoTrans, 1, tile(A, k, m), akn,
                                               tile(A, m, n))
                            : lapack_task_gemm(t, &o, TessNoTrans, ct, 1, akn, tile(A, m, k),
                                               tile(A, n, m));
        }
        for (int64_t n = 0; n < k && !err; n++)
            err = lower ? lapack_task_trxm(t, &o, false, TessLeft, uplo, ct, TessNonUnit, 1, akk,
                                           tile(A, k, n))
                        : lapack_task_trxm(t, &o, false, TessRight, uplo, ct, TessNonUnit, 1, akk,
                                           tile(A, n, k));
        if (!err) {
            o.prio = true;
            err = lapack_task_lauum(t, &o, uplo, akk);
            o.prio = false;
        }
    }
    return err;
}

static int submit(kern_type_t t, const tiling_t *g, const void *call)
{
    const potri_call_t *c = call;
    int err = c->invert ? lapack_submit_trtri(t, c->uplo, c->diag, g, c->info) : 0;
    return err || !c->multiply ? err : lapack_submit_lauum(t, c->uplo, g, c->info);
}

static int run(kern_type_t t, potri_call_t c, int64_t n, void *A, int64_t lda)
{
    if (c.info)
        lapack_info_start(c.info);
    if (n == 0)
        return 0;
    blas_operand_t ops[] = { { A, n, n, lda, .tri = true, .chain = true } };
    return blas_run(t, 1, ops, submit, &c);
}

int lapack_trtri(kern_type_t t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A, int64_t lda,
                 int64_t *info)
{
    int err = check_trtri(uplo, diag, n, A, lda, info);
    if (err || (err = rt_check_ready()))
        return err;
    return run(t, (potri_call_t){ uplo, diag, info, true, false }, n, A, lda);
}

int lapack_lauum(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)
{
    int err = check_lauum(uplo, n, A, lda);
    if (err || (err = rt_check_ready()))
        return err;
    return run(t, (potri_call_t){ uplo, TessNonUnit, NULL, false, true }, n, A, lda);
}

int lapack_potri(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info)
{
    int err = check_potrf(uplo, n, A, lda, info);
    if (err || (err = rt_check_ready()))
        return err;
    return run(t, (potri_call_t){ uplo, TessNonUnit, info, true, true }, n, A, lda);
}
