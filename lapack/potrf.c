/* POTRF, POTRS and POSV as tile algorithms.
 *
 * POTRF is right-looking on the lower factor L (A's lower triangle, or U^H
 * for Upper): step k factors the diagonal tile, solves the panel below it
 * against it, and updates the trailing matrix, its diagonal tiles by HERK and
 * the rest by GEMM.  The diagonal task, the panel and the updates of the next
 * column go first on their devices, so the next step can start while the
 * rest of the trailing matrix is still being updated.  Step k's tiles are
 * final once written, so their write-back is asked for then and runs behind
 * the later steps rather than all at the end.  The tasks of step k
 * are gated on a failure at a tile up to k: after a failure no later step
 * runs, and the steps before it complete, so the columns before the failing
 * tile hold the factor and the failing tile what the host's or cuSOLVER's
 * POTRF leaves in it (its leading columns factored).
 *
 * POTRS is two tile solves of B, with L then L^H, one TRSM task per tile of
 * B on the diagonal and one GEMM task per tile of B and tile of L below (or
 * above) it.  POSV gates them on the whole factorization: the first solve's
 * first step reads the last diagonal tile, so every task writing B comes
 * after the last diagonal task, and none runs once POTRF has failed. */
#include "lapack.h"

enum { OP_A, OP_B };

typedef struct {
    tess_uplo_t uplo;
    int64_t *info; /* POTRF's, NULL for POTRS alone */
    bool solve;    /* POTRS: alone, or after POTRF (POSV) */
} potrf_call_t;

int lapack_submit_potrf(kern_type_t t, tess_uplo_t uplo, const tiling_t *A, int64_t *info)
{
    bool lower = uplo == TessLower;
    tess_trans_t ct = lapack_ctrans(t), op;
    int64_t nt = A->nt, nb = A->nb;
    int err = 0;
    for (int64_t k = 0; k < nt && !err; k++) {
        rt_block_t *akk = tile(A, k, k);
        lapack_opts_t diag = { info, k * nb, NULL, true },
                      step = { info, (k + 1) * nb, NULL, true };
        err = lapack_task_potrf(t, &diag, uplo, k * nb, akk);
        if (!err)
            err = block_write_behind_async(akk);
        for (int64_t i = k + 1; i < nt && !err; i++) {
            rt_block_t *f = lower ? tile(A, i, k) : tile(A, k, i);
            err = lapack_task_trxm(t, &step, true, lower ? TessRight : TessLeft, uplo, ct,
                                   TessNonUnit, 1, akk, f);
            if (!err)
                err = block_write_behind_async(f);
        }
        for (int64_t i = k + 1; i < nt && !err; i++) {
            rt_block_t *lik = lapack_factor_tile(t, A, uplo, i, k, &op);
            step.prio = i == k + 1;
            err = lapack_task_herk(t, &step, uplo, op == TessNoTrans ? TessNoTrans : ct, -1, lik,
                                   tile(A, i, i));
            for (int64_t j = k + 1; j < i && !err; j++) {
                /* L(i,j) -= L(i,k) L(j,k)^H */
                rt_block_t *ljk = lapack_factor_tile(t, A, uplo, j, k, &op);
                step.prio = j == k + 1;
                err =
                    lower
                        ? lapack_task_gemm(t, &step, TessNoTrans, ct, -1, lik, ljk, tile(A, i, j))
                        : lapack_task_gemm(t, &step, ct, TessNoTrans, -1, ljk, lik, tile(A, j, i));
            }
        }
    }
    return err;
}

int lapack_submit_potrs(kern_type_t t, tess_uplo_t uplo, const tiling_t *A, const tiling_t *B,
                        int64_t *gate)
{
    bool lower = uplo == TessLower;
    tess_trans_t ct = lapack_ctrans(t), op;
    int64_t nt = A->nt;
    lapack_opts_t o = { gate, LAPACK_ANY_FAILURE, NULL, false };
    int err = 0;
    /* L Y = B */
    for (int64_t k = 0; k < nt && !err; k++) {
        o.after = gate && k == 0 ? tile(A, nt - 1, nt - 1) : NULL;
        for (int64_t j = 0; j < B->nt && !err; j++) {
            o.prio = true;
            err = lapack_task_trxm(t, &o, true, TessLeft, uplo, kern_potrs_trans(t, uplo, false),
                                   TessNonUnit, 1, tile(A, k, k), tile(B, k, j));
            o.prio = false;
            for (int64_t i = k + 1; i < nt && !err; i++) {
                rt_block_t *lik = lapack_factor_tile(t, A, uplo, i, k, &op);
                err =
                    lapack_task_gemm(t, &o, op, TessNoTrans, -1, lik, tile(B, k, j), tile(B, i, j));
            }
        }
    }
    o.after = NULL;
    /* L^H X = Y */
    for (int64_t k = nt - 1; k >= 0 && !err; k--) {
        for (int64_t j = 0; j < B->nt && !err; j++) {
            o.prio = true;
            err = lapack_task_trxm(t, &o, true, TessLeft, uplo, kern_potrs_trans(t, uplo, true),
                                   TessNonUnit, 1, tile(A, k, k), tile(B, k, j));
            o.prio = false;
            for (int64_t i = k - 1; i >= 0 && !err; i--) {
                /* B(i) -= L(k,i)^H B(k) */
                rt_block_t *lki = lower ? tile(A, k, i) : tile(A, i, k);
                err = lapack_task_gemm(t, &o, lower ? ct : TessNoTrans, TessNoTrans, -1, lki,
                                       tile(B, k, j), tile(B, i, j));
            }
        }
    }
    return err;
}

static int submit(kern_type_t t, const tiling_t *g, const void *call)
{
    const potrf_call_t *c = call;
    if (c->info) {
        int err = lapack_submit_potrf(t, c->uplo, &g[OP_A], c->info);
        if (err || !c->solve || !g[OP_B].blk)
            return err;
    }
    return lapack_submit_potrs(t, c->uplo, &g[OP_A], &g[OP_B], c->solve ? c->info : NULL);
}

int lapack_potrf(kern_type_t t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info)
{
    int err = check_potrf(uplo, n, A, lda, info);
    if (err || (err = rt_check_ready()))
        return err;
    lapack_info_start(info);
    if (n == 0)
        return 0;
    potrf_call_t c = { uplo, info, false };
    blas_operand_t ops[] = { [OP_A] = { A, n, n, lda, true, true }, [OP_B] = { NULL, 0, 0, 1 } };
    return blas_run(t, 2, ops, submit, &c);
}

int lapack_potrs(kern_type_t t, tess_uplo_t uplo, int64_t n, int64_t nrhs, const void *A,
                 int64_t lda, void *B, int64_t ldb)
{
    int err = check_potrs(uplo, n, nrhs, A, lda, B, ldb);
    if (err || (err = rt_check_ready()))
        return err;
    if (n == 0 || nrhs == 0)
        return 0;
    potrf_call_t c = { uplo, NULL, true };
    blas_operand_t ops[] = { [OP_A] = { A, n, n, lda, true, true }, [OP_B] = { B, n, nrhs, ldb } };
    return blas_run(t, 2, ops, submit, &c);
}

int lapack_posv(kern_type_t t, tess_uplo_t uplo, int64_t n, int64_t nrhs, void *A, int64_t lda,
                void *B, int64_t ldb, int64_t *info)
{
    int err = check_posv(uplo, n, nrhs, A, lda, B, ldb, info);
    if (err || (err = rt_check_ready()))
        return err;
    lapack_info_start(info);
    if (n == 0)
        return 0;
    potrf_call_t c = { uplo, info, true };
    blas_operand_t ops[] = {
        [OP_A] = { A, n, n, lda, true, true }, [OP_B] = { nrhs ? B : NULL, n, nrhs, ldb }
    };
    return blas_run(t, 2, ops, submit, &c);
}
