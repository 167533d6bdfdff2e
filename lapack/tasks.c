/* The Cholesky family's tile tasks.  Those of its own (the diagonal tiles'
 * factorization, inversion and check) have one argument struct and one tile
 * function; its GEMM, HERK, TRSM and TRMM are the tile framework's tasks
 * (tile.h), gated the same way.  Scalars are +1 or -1. */
#include "lapack.h"

typedef enum { OP_CHECK, OP_POTRF, OP_TRTRI, OP_LAUUM } tile_op_t;

typedef struct {
    int64_t *info;
    int64_t limit, offset;
    int32_t n;
    int16_t uplo, diag;
    int8_t op, sa;
} tile_args_t;

static int tile_fn(const rt_exec_t *x)
{
    const tile_args_t *a = x->args;
    if (tile_gate_closed(a->info, a->limit))
        return 0;
    tess_uplo_t uplo = (tess_uplo_t)a->uplo;
    switch ((tile_op_t)a->op) {
    case OP_CHECK:
        return x->kern->diag_zero(x->ctx, a->n, x->ptr[a->sa], x->ld[a->sa], a->info, a->offset);
    case OP_POTRF:
        return x->kern->potrf(x->ctx, uplo, a->n, x->ptr[a->sa], x->ld[a->sa], a->info, a->offset);
    case OP_TRTRI:
        return x->kern->trtri(x->ctx, uplo, (tess_diag_t)a->diag, a->n, x->ptr[a->sa], x->ld[a->sa],
                              a->info, a->offset);
    case OP_LAUUM: return x->kern->lauum(x->ctx, uplo, a->n, x->ptr[a->sa], x->ld[a->sa]);
    }
    return TESS_EINTERNAL;
}

/* A task of operation op on the diagonal tile a, in place (a check reads it
 * and writes o->after), with o's gate, extra read and prio. */
static int submit(kern_type_t t, const lapack_opts_t *o, tile_args_t *args, const char *name,
                  rt_block_t *a)
{
    rt_task_t *task = task_new(TASK_KERNEL, name);
    if (!task)
        return TESS_ENOMEM;
    args->info = o->info;
    args->limit = o->limit;
    /* a check writes its after tile; it reads its own first, so that its slot is known */
    args->sa = (int8_t)task_access(task, a, args->op != OP_CHECK ? RT_RW : RT_R);
    if (o->after)
        task_access(task, o->after, args->op == OP_CHECK ? RT_RW : RT_R);
    task->prio = o->prio;
    task->urgent = lapack_on_path(o);
    TASK_SET_ARGS(task, tile_fn, t, *args);
    return task_submit(task);
}

int lapack_task_potrf(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, int64_t offset,
                      rt_block_t *a)
{
    tile_args_t g = { .op = OP_POTRF, .uplo = (int16_t)uplo, .n = (int32_t)a->n, .offset = offset };
    return submit(t, o, &g, "potrf", a);
}

int lapack_task_trtri(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, tess_diag_t diag,
                      int64_t offset, rt_block_t *a)
{
    tile_args_t g = { .op = OP_TRTRI,
                      .uplo = (int16_t)uplo,
                      .diag = (int16_t)diag,
                      .n = (int32_t)a->n,
                      .offset = offset };
    return submit(t, o, &g, "trtri", a);
}

int lapack_task_check(kern_type_t t, const lapack_opts_t *o, int64_t offset, rt_block_t *a)
{
    tile_args_t g = { .op = OP_CHECK, .n = (int32_t)a->n, .offset = offset };
    return submit(t, o, &g, "check", a);
}

int lapack_task_lauum(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, rt_block_t *a)
{
    tile_args_t g = { .op = OP_LAUUM, .uplo = (int16_t)uplo, .n = (int32_t)a->n };
    return submit(t, o, &g, "lauum", a);
}

int lapack_task_trxm(kern_type_t t, const lapack_opts_t *o, bool solve, tess_side_t side,
                     tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int sign,
                     rt_block_t *a, rt_block_t *b)
{
    blas_scalar_t alpha = lapack_one(t, sign);
    tile_opts_t to = lapack_tile_opts(o);
    return blas_task_trxm(t, &to, solve, side, uplo, trans, diag, alpha.v, a, b);
}

int lapack_task_gemm(kern_type_t t, const lapack_opts_t *o, tess_trans_t ta, tess_trans_t tb,
                     int sign, rt_block_t *a, rt_block_t *b, rt_block_t *c)
{
    blas_scalar_t alpha = lapack_one(t, sign), one = lapack_one(t, 1);
    tile_opts_t to = lapack_tile_opts(o);
    return blas_task_gemm_opts(t, &to, ta, tb, alpha.v, a, b, one.v, c);
}

/* HERK for complex types, SYRK for real ones, its scalars real */
int lapack_task_herk(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, tess_trans_t trans,
                     int sign, rt_block_t *a, rt_block_t *c)
{
    kern_type_t rt = kern_dtypes[t].real;
    blas_scalar_t alpha = lapack_one(rt, sign), one = lapack_one(rt, 1);
    tile_opts_t to = lapack_tile_opts(o);
    return blas_task_rank(t, &to, kern_dtypes[t].is_complex, uplo, trans, alpha.v, a, NULL, one.v,
                          c);
}
