/* QR's tasks on column panels (and ORMQR's side Right on row panels): each
 * names whole panels and works on the part of them below (or right of) its
 * step's offset, with pointers offset into the device copies.  A task may be
 * gated on the call's INFO as the Cholesky family's are (lapack.h). */
#include <float.h>
#include <math.h>
#include "lapack.h"

typedef enum {
    QR_GEQRF,
    QR_ORMQR,
    QR_LARFB,
    QR_CHECK,
    QR_SOLVE,
    QR_ZERO,
    QR_TRANSPOSE,
    QR_NONZERO,
    QR_INFO_RESET,
    QR_AMAX,
    QR_SCALE
} qr_op_t;

typedef struct {
    int64_t *info;
    int64_t limit;
    int64_t *nonzero; /* GELS's tasks for A = 0: the flag a nonzero element sets, else NULL */
    double *norms;    /* GELS's scaling: the max-norms of A and B */
    int64_t off;      /* the step's first row (of V and, for side Left, of C), or C's column */
    int64_t m, n, k;  /* the kernel's sizes */
    int64_t coff;     /* QR_TRANSPOSE: the first row of C written */
    bool fresh;       /* QR_TRANSPOSE: C's earlier content is not needed (written, not read) */
    int16_t side, trans;
    int8_t op, type, sv, st, sc, sf; /* access slots: panel or V, tau, C, T (-1: none) */
    int8_t step;                     /* GELS's scaling: its lapack_gels_scale_t */
} qr_args_t;

static char *at(const rt_exec_t *x, int slot, int64_t i, int64_t j, size_t es)
{
    return (char *)x->ptr[slot] + (size_t)(i + j * x->ld[slot]) * es;
}

/* QR_SOLVE's step with the k x k triangle R_kk at (off, 0) of the panel sv and the rows
 * above it, on C's rows: NoTrans (back substitution) C_k = R_kk^-1 C_k, then
 * C_above -= R_above C_k; ConjTrans (forward) C_k -= R_above^H C_above, then
 * C_k = R_kk^-H C_k. */
static int solve_step(const rt_exec_t *x, const qr_args_t *a, size_t es)
{
    kern_type_t t = (kern_type_t)a->type;
    blas_scalar_t one = lapack_one(t, 1), minus = lapack_one(t, -1);
    tess_trans_t tr = (tess_trans_t)a->trans;
    char *r = at(x, a->sv, a->off, 0, es), *above = at(x, a->sv, 0, 0, es);
    char *ck = at(x, a->sc, a->off, 0, es), *cabove = at(x, a->sc, 0, 0, es);
    int64_t ldv = x->ld[a->sv], ldc = x->ld[a->sc];
    int err = 0;
    if (tr != TessNoTrans && a->off > 0)
        err = x->kern->gemm(x->ctx, tr, TessNoTrans, a->k, a->n, a->off, minus.v, above, ldv,
                            cabove, ldc, one.v, ck, ldc);
    if (!err)
        err = x->kern->trsm(x->ctx, TessLeft, TessUpper, tr, TessNonUnit, a->k, a->n, one.v, r, ldv,
                            ck, ldc);
    if (!err && tr == TessNoTrans && a->off > 0)
        err = x->kern->gemm(x->ctx, TessNoTrans, TessNoTrans, a->off, a->n, a->k, minus.v, above,
                            ldv, ck, ldc, one.v, cabove, ldc);
    return err;
}

/* GELS's tasks for A = 0 run only once R(1,1) = 0 has made INFO 1, and those after the
 * search for a nonzero element only when it found none. */
static bool zero_a_gate_closed(const qr_args_t *a)
{
    return __atomic_load_n(a->info, __ATOMIC_ACQUIRE) != 1 ||
           (a->op != QR_NONZERO && __atomic_load_n(a->nonzero, __ATOMIC_ACQUIRE) != 0);
}

/* The factor of a step of GELS's scaling, as LAPACK's ?gels scales (?lascl from a norm to
 * the bound it is brought to, and back): smlnum is the safe minimum over the precision, 2^-970
 * (2^-103 in single), bignum 1 / smlnum; 1 when the norm is 0, in range, infinite or NaN. */
static double gels_factor(kern_type_t t, const double *norms, lapack_gels_scale_t step)
{
    bool single = kern_dtypes[kern_dtypes[t].real].size == sizeof(float);
    double small = single ? (double)FLT_MIN / FLT_EPSILON : DBL_MIN / DBL_EPSILON, big = 1 / small;
    bool of_a = step == LAPACK_SCALE_A || step == LAPACK_UNSCALE_A;
    double nrm = norms[of_a ? 0 : 1];
    double to = nrm > 0 && nrm < small ? small : nrm > big && !isinf(nrm) ? big : 0;
    if (to == 0)
        return 1;
    return step == LAPACK_UNSCALE_B ? nrm / to : to / nrm;
}

static int scale(const rt_exec_t *x, const qr_args_t *a)
{
    kern_type_t t = (kern_type_t)a->type;
    double f = gels_factor(t, a->norms, (lapack_gels_scale_t)a->step);
    if (f == 1)
        return 0;
    blas_scalar_t beta = { { 0 } };
    float fs = (float)f;
    kern_scalar_from_real(t, kern_dtypes[kern_dtypes[t].real].size == sizeof fs ? (void *)&fs : &f,
                          beta.v);
    return x->kern->scal(x->ctx, a->m, a->n, beta.v, x->ptr[a->sc], x->ld[a->sc]);
}

static int qr_fn(const rt_exec_t *x)
{
    const qr_args_t *a = x->args;
    if (a->nonzero ? zero_a_gate_closed(a) : tile_gate_closed(a->info, a->limit))
        return 0;
    size_t es = kern_dtypes[a->type].size;
    switch ((qr_op_t)a->op) {
    case QR_GEQRF: {
        char *v = at(x, a->sv, a->off, 0, es);
        int err = x->kern->geqrf(x->ctx, a->m, a->n, v, x->ld[a->sv], x->ptr[a->st]);
        return err || a->sf < 0 ? err
                                : x->kern->larft(x->ctx, a->m, a->k, v, x->ld[a->sv], x->ptr[a->st],
                                                 x->ptr[a->sf], x->ld[a->sf]);
    }
    case QR_LARFB:
        return x->kern->larfb(x->ctx, (tess_trans_t)a->trans, a->m, a->n, a->k,
                              at(x, a->sv, a->off, 0, es), x->ld[a->sv], x->ptr[a->sf],
                              x->ld[a->sf], at(x, a->sc, a->off, 0, es), x->ld[a->sc]);
    case QR_ORMQR: {
        bool left = a->side == TessLeft;
        return x->kern->ormqr(x->ctx, (tess_side_t)a->side, (tess_trans_t)a->trans, a->m, a->n,
                              a->k, at(x, a->sv, a->off, 0, es), x->ld[a->sv], x->ptr[a->st],
                              at(x, a->sc, left ? a->off : 0, left ? 0 : a->off, es), x->ld[a->sc]);
    }
    case QR_CHECK:
        return x->kern->diag_zero(x->ctx, a->k, at(x, a->sv, a->off, 0, es), x->ld[a->sv], a->info,
                                  a->off);
    case QR_SOLVE: return solve_step(x, a, es);
    case QR_TRANSPOSE:
        return x->kern->transpose(x->ctx, a->m, a->n, at(x, a->sv, a->off, 0, es), x->ld[a->sv],
                                  at(x, a->sc, a->coff, 0, es), x->ld[a->sc]);
    case QR_ZERO: {
        unsigned char zero[16] = { 0 };
        return x->kern->scal(x->ctx, a->m, a->n, zero, at(x, a->sc, a->off, 0, es), x->ld[a->sc]);
    }
    case QR_NONZERO:
        return x->kern->any_nonzero(x->ctx, a->m, a->n, x->ptr[a->sv], x->ld[a->sv], a->nonzero, 0);
    case QR_INFO_RESET: __atomic_store_n(a->info, 0, __ATOMIC_RELEASE); return 0;
    case QR_AMAX:
        return x->kern->amax(x->ctx, a->m, a->n, x->ptr[a->sv], x->ld[a->sv],
                             &a->norms[a->step == LAPACK_NORM_B]);
    case QR_SCALE: return scale(x, a);
    }
    return TESS_EINTERNAL;
}

/* A task on panel v (written when c is NULL and tau is, else read), tau (written by a panel
 * task, else read), c (written) and the T factor f (written by a panel task, else read),
 * with o's gate, extra access and prio. */
static int submit_with(kern_type_t t, const lapack_opts_t *o, qr_args_t *a, const char *name,
                       rt_block_t *v, rt_block_t *tau, rt_block_t *c, rt_block_t *f)
{
    rt_task_t *task = task_new(TASK_KERNEL, name);
    if (!task)
        return TESS_ENOMEM;
    a->info = o ? o->info : NULL;
    a->limit = o ? o->limit : 0;
    a->type = (int8_t)t;
    bool panel = a->op == QR_GEQRF;
    if (v)
        a->sv = (int8_t)task_access(task, v, panel ? RT_RW : RT_R);
    if (tau)
        a->st = (int8_t)task_access(task, tau, panel ? RT_W : RT_R);
    if (c)
        a->sc = (int8_t)task_access(task, c, a->fresh ? RT_W : RT_RW);
    a->sf = f ? (int8_t)task_access(task, f, panel ? RT_W : RT_R) : -1;
    if (o && o->after) /* the chains of checks and of norms write it */
        task_access(task, o->after,
                    a->op == QR_CHECK || a->op == QR_NONZERO || a->op == QR_INFO_RESET ||
                            a->op == QR_AMAX
                        ? RT_RW
                        : RT_R);
    task->prio = o ? o->prio : 0;
    task->urgent = o && lapack_on_path(o);
    TASK_SET_ARGS(task, qr_fn, t, *a);
    return task_submit(task);
}

static int submit(kern_type_t t, const lapack_opts_t *o, qr_args_t *a, const char *name,
                  rt_block_t *v, rt_block_t *tau, rt_block_t *c)
{
    return submit_with(t, o, a, name, v, tau, c, NULL);
}

int lapack_task_geqrf(kern_type_t t, int prio, int64_t off, rt_block_t *panel, rt_block_t *tau,
                      rt_block_t *f)
{
    qr_args_t a = { .op = QR_GEQRF, .off = off, .m = panel->m - off, .n = panel->n, .k = tau->n };
    lapack_opts_t o = { NULL, 0, NULL, prio };
    return submit_with(t, &o, &a, "geqrf", panel, tau, NULL, f);
}

int lapack_task_larfb(kern_type_t t, const lapack_opts_t *o, tess_trans_t trans, int64_t off,
                      int64_t k, rt_block_t *v, rt_block_t *f, rt_block_t *c)
{
    qr_args_t a = {
        .op = QR_LARFB, .trans = (int16_t)trans, .off = off, .m = c->m - off, .n = c->n, .k = k
    };
    return submit_with(t, o, &a, "larfb", v, NULL, c, f);
}

int lapack_task_ormqr(kern_type_t t, const lapack_opts_t *o, tess_side_t side, tess_trans_t trans,
                      int64_t off, int64_t k, rt_block_t *v, rt_block_t *tau, rt_block_t *c)
{
    bool left = side == TessLeft;
    qr_args_t a = { .op = QR_ORMQR,
                    .side = (int16_t)side,
                    .trans = (int16_t)trans,
                    .off = off,
                    .m = left ? c->m - off : c->m,
                    .n = left ? c->n : c->n - off,
                    .k = k };
    return submit(t, o, &a, t == KERN_C || t == KERN_Z ? "unmqr" : "ormqr", v, tau, c);
}

int lapack_task_qr_check(kern_type_t t, const lapack_opts_t *o, int64_t off, int64_t k,
                         rt_block_t *panel)
{
    qr_args_t a = { .op = QR_CHECK, .off = off, .k = k };
    return submit(t, o, &a, "check", panel, NULL, NULL);
}

int lapack_task_qr_solve(kern_type_t t, const lapack_opts_t *o, tess_trans_t trans, int64_t off,
                         int64_t k, rt_block_t *panel, rt_block_t *c)
{
    qr_args_t a = { .op = QR_SOLVE, .trans = (int16_t)trans, .off = off, .n = c->n, .k = k };
    return submit(t, o, &a, "trsm", panel, NULL, c);
}

int lapack_task_zero_rows(kern_type_t t, const lapack_opts_t *o, int64_t off, rt_block_t *c)
{
    qr_args_t a = { .op = QR_ZERO, .off = off, .m = c->m - off, .n = c->n };
    return submit(t, o, &a, "scal", NULL, NULL, c);
}

int lapack_task_transpose(kern_type_t t, bool fresh, int64_t off, rt_block_t *a, int64_t coff,
                          rt_block_t *c)
{
    qr_args_t ta = {
        .op = QR_TRANSPOSE, .off = off, .m = c->n, .n = a->n, .coff = coff, .fresh = fresh
    };
    return submit(t, NULL, &ta, "transpose", a, NULL, c);
}

int lapack_task_gels_zero_a(kern_type_t t, lapack_zero_a_t step, const lapack_opts_t *o,
                            int64_t *nonzero, rt_block_t *blk)
{
    qr_op_t op = step == LAPACK_ZERO_A_SEARCH ? QR_NONZERO
                 : step == LAPACK_ZERO_A_ZERO ? QR_ZERO
                                              : QR_INFO_RESET;
    qr_args_t a = { .op = op, .nonzero = nonzero };
    if (blk)
        a.m = blk->m, a.n = blk->n;
    const char *name = op == QR_NONZERO ? "check" : op == QR_ZERO ? "scal" : "info";
    return submit(t, o, &a, name, op == QR_NONZERO ? blk : NULL, NULL, op == QR_ZERO ? blk : NULL);
}

int lapack_task_gels_scale(kern_type_t t, lapack_gels_scale_t step, const lapack_opts_t *o,
                           double *norms, int64_t m, rt_block_t *blk)
{
    bool norm = step == LAPACK_NORM_A || step == LAPACK_NORM_B;
    qr_args_t a = {
        .op = norm ? QR_AMAX : QR_SCALE, .norms = norms, .step = (int8_t)step, .m = m, .n = blk->n
    };
    return submit(t, o, &a, norm ? "amax" : "lascl", norm ? blk : NULL, NULL, norm ? NULL : blk);
}
