/* The Cholesky family's tile tasks: one argument struct and one tile function
 * for all of them, so that every task can be gated on the call's INFO
 * (lapack.h) and its scalars are +1 or -1, made in the type when it runs. */
#include "lapack.h"

typedef enum {
    OP_CHECK,
    OP_POTRF,
    OP_TRTRI,
    OP_LAUUM,
    OP_TRSM,
    OP_TRMM,
    OP_GEMM,
    OP_HERK
} tile_op_t;

typedef struct {
    int64_t *info;
    int64_t limit, offset;
    int32_t m, n, k;
    int16_t uplo, side, ta, tb, diag;
    int8_t op, type, sign, sa, sb, sc;
} tile_args_t;

/* sign as a scalar of type t */
static blas_scalar_t signed_one(kern_type_t t, int sign)
{
    blas_scalar_t s = { { 0 } };
    float f = (float)sign;
    double d = sign;
    kern_scalar_from_real(t, kern_dtypes[t].real == KERN_S ? (const void *)&f : (const void *)&d,
                          s.v);
    return s;
}

static int tile_fn(const rt_exec_t *x)
{
    const tile_args_t *a = x->args;
    if (a->info) {
        int64_t info = __atomic_load_n(a->info, __ATOMIC_ACQUIRE);
        if (info > 0 && info <= a->limit)
            return 0;
    }
    kern_type_t t = (kern_type_t)a->type;
    blas_scalar_t alpha = signed_one(t, a->sign), one = signed_one(t, 1);
    blas_scalar_t ralpha = signed_one(kern_dtypes[t].real, a->sign);
    blas_scalar_t rone = signed_one(kern_dtypes[t].real, 1);
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
    case OP_TRSM:
    case OP_TRMM:
        return (a->op == OP_TRSM ? x->kern->trsm : x->kern->trmm)(
            x->ctx, (tess_side_t)a->side, uplo, (tess_trans_t)a->ta, (tess_diag_t)a->diag, a->m,
            a->n, alpha.v, x->ptr[a->sa], x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb]);
    case OP_GEMM:
        return x->kern->gemm(x->ctx, (tess_trans_t)a->ta, (tess_trans_t)a->tb, a->m, a->n, a->k,
                             alpha.v, x->ptr[a->sa], x->ld[a->sa], x->ptr[a->sb], x->ld[a->sb],
                             one.v, x->ptr[a->sc], x->ld[a->sc]);
    case OP_HERK:
        return x->kern->syrk(x->ctx, kern_dtypes[t].is_complex, uplo, (tess_trans_t)a->ta, a->n,
                             a->k, ralpha.v, x->ptr[a->sa], x->ld[a->sa], rone.v, x->ptr[a->sc],
                             x->ld[a->sc]);
    }
    return TESS_EINTERNAL;
}

/* A task of operation op on its blocks (NULL: none; c is the one written,
 * or a when c is NULL), with o's gate, extra read and prio. */
static int submit(kern_type_t t, const lapack_opts_t *o, tile_args_t *args, const char *name,
                  rt_block_t *a, rt_block_t *b, rt_block_t *c)
{
    rt_task_t *task = task_new(TASK_KERNEL, name);
    if (!task)
        return TESS_ENOMEM;
    args->info = o->info;
    args->limit = o->limit;
    args->type = (int8_t)t;
    bool a_written = !b && !c;
    /* a check writes its after tile; it reads its own first, so that its slot is known */
    args->sa = (int8_t)task_access(task, a, a_written && args->op != OP_CHECK ? RT_RW : RT_R);
    if (b)
        args->sb = (int8_t)task_access(task, b, c ? RT_R : RT_RW);
    if (c)
        args->sc = (int8_t)task_access(task, c, RT_RW);
    if (o->after)
        task_access(task, o->after, args->op == OP_CHECK ? RT_RW : RT_R);
    task->prio = o->prio;
    TASK_SET_ARGS(task, tile_fn, t, *args);
    return task_submit(task);
}

int lapack_task_potrf(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, int64_t offset,
                      rt_block_t *a)
{
    tile_args_t g = { .op = OP_POTRF, .uplo = (int16_t)uplo, .n = (int32_t)a->n, .offset = offset };
    return submit(t, o, &g, "potrf", a, NULL, NULL);
}

int lapack_task_trtri(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, tess_diag_t diag,
                      int64_t offset, rt_block_t *a)
{
    tile_args_t g = { .op = OP_TRTRI,
                      .uplo = (int16_t)uplo,
                      .diag = (int16_t)diag,
                      .n = (int32_t)a->n,
                      .offset = offset };
    return submit(t, o, &g, "trtri", a, NULL, NULL);
}

int lapack_task_check(kern_type_t t, const lapack_opts_t *o, int64_t offset, rt_block_t *a)
{
    tile_args_t g = { .op = OP_CHECK, .n = (int32_t)a->n, .offset = offset };
    return submit(t, o, &g, "check", a, NULL, NULL);
}

int lapack_task_lauum(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, rt_block_t *a)
{
    tile_args_t g = { .op = OP_LAUUM, .uplo = (int16_t)uplo, .n = (int32_t)a->n };
    return submit(t, o, &g, "lauum", a, NULL, NULL);
}

int lapack_task_trxm(kern_type_t t, const lapack_opts_t *o, bool solve, tess_side_t side,
                     tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int sign,
                     rt_block_t *a, rt_block_t *b)
{
    tile_args_t g = { .op = solve ? OP_TRSM : OP_TRMM,
                      .side = (int16_t)side,
                      .uplo = (int16_t)uplo,
                      .ta = (int16_t)trans,
                      .diag = (int16_t)diag,
                      .sign = (int8_t)sign,
                      .m = (int32_t)b->m,
                      .n = (int32_t)b->n };
    return submit(t, o, &g, solve ? "trsm" : "trmm", a, b, NULL);
}

int lapack_task_gemm(kern_type_t t, const lapack_opts_t *o, tess_trans_t ta, tess_trans_t tb,
                     int sign, rt_block_t *a, rt_block_t *b, rt_block_t *c)
{
    tile_args_t g = { .op = OP_GEMM,
                      .ta = (int16_t)ta,
                      .tb = (int16_t)tb,
                      .sign = (int8_t)sign,
                      .m = (int32_t)c->m,
                      .n = (int32_t)c->n,
                      .k = (int32_t)(ta == TessNoTrans ? a->n : a->m) };
    return submit(t, o, &g, "gemm", a, b, c);
}

int lapack_task_herk(kern_type_t t, const lapack_opts_t *o, tess_uplo_t uplo, tess_trans_t trans,
                     int sign, rt_block_t *a, rt_block_t *c)
{
    tile_args_t g = { .op = OP_HERK,
                      .uplo = (int16_t)uplo,
                      .ta = (int16_t)trans,
                      .sign = (int8_t)sign,
                      .n = (int32_t)c->n,
                      .k = (int32_t)(trans == TessNoTrans ? a->n : a->m) };
    return submit(t, o, &g, kern_dtypes[t].is_complex ? "herk" : "syrk", a, NULL, c);
}
