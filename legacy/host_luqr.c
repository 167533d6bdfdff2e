/* LU's and QR's calls on the host LAPACK: the pivots given in the host
 * routine's integer width (ipiv.c), and QR's workspace the caller's, or one
 * of the size the host asks for when the call carries none (a call moved
 * off a GPU, or through the runtime, which needs none). */
#include <stdlib.h>
#include "host_call.h"

typedef void (*f_getrf)(cp, cp, void *, cp, void *, void *);
typedef void (*f_getrs)(cp, cp, cp, cp, cp, cp, void *, cp, void *, size_t);
typedef void (*f_gesv)(cp, cp, void *, cp, void *, void *, cp, void *);
typedef void (*f_laswp)(cp, void *, cp, cp, cp, cp, cp);
typedef void (*f_geqrf)(cp, cp, void *, cp, void *, void *, cp, void *);
typedef void (*f_ormqr)(cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, void *, cp, void *, size_t,
                        size_t);
typedef void (*f_gels)(cp, cp, cp, cp, void *, cp, void *, cp, void *, cp, void *, size_t);

/* The host routine f on c, integers of type I; INFO written where the routine has one. */
#define LG_HOST_LUQR(I)                                                                            \
    static void invoke_##I(lg_fn_t f, const lg_call_t *c, void *work, int64_t lwork)               \
    {                                                                                              \
        I m = (I)c->m, n = (I)c->n, k = (I)c->k, lda = (I)c->lda, ldb = (I)c->ldb;                 \
        I ldc = (I)c->ldc, k1 = (I)c->k1, k2 = (I)c->k2, incx = (I)c->incx;                        \
        /* a workspace larger than 32 bits hold is legal at their largest */                       \
        I lw = (I)(sizeof(I) == 8 || lwork < INT32_MAX ? lwork : INT32_MAX);                       \
        I info = 0;                                                                                \
        void *A = (void *)c->A, *B = (void *)c->B;                                                 \
        const char *ta = lg_trans_char(c->ta);                                                     \
        switch (lg_routine(c)->shape) {                                                            \
        case LG_SHAPE_GETRF: ((f_getrf)f)(&m, &n, A, &lda, c->ipiv, &info); break;                 \
        case LG_SHAPE_GETRS: ((f_getrs)f)(ta, &n, &k, A, &lda, c->ipiv, B, &ldb, &info, 1); break; \
        case LG_SHAPE_GESV: ((f_gesv)f)(&n, &k, A, &lda, c->ipiv, B, &ldb, &info); break;          \
        case LG_SHAPE_LASWP: ((f_laswp)f)(&n, A, &lda, &k1, &k2, c->ipiv, &incx); break;           \
        case LG_SHAPE_GEQRF: ((f_geqrf)f)(&m, &n, A, &lda, B, work, &lw, &info); break;            \
        case LG_SHAPE_ORMQR:                                                                       \
            ((f_ormqr)f)(c->side == TessLeft ? "L" : "R", ta, &m, &n, &k, A, &lda, B, c->C, &ldc,  \
                         work, &lw, &info, 1, 1);                                                  \
            break;                                                                                 \
        case LG_SHAPE_GELS:                                                                        \
            ((f_gels)f)(ta, &m, &n, &k, A, &lda, B, &ldb, work, &lw, &info, 1);                    \
            break;                                                                                 \
        default: break;                                                                            \
        }                                                                                          \
        if (c->info)                                                                               \
            *c->info = info;                                                                       \
    }
LG_HOST_LUQR(int32_t)
LG_HOST_LUQR(int64_t)

static bool has_work(const lg_call_t *c)
{
    lg_shape_t s = lg_routine(c)->shape;
    return s == LG_SHAPE_GEQRF || s == LG_SHAPE_ORMQR || s == LG_SHAPE_GELS;
}

/* The host routine of c and its width: the 32-bit one when every integer fits (lwork need
 * not: a larger workspace is passed as the largest 32 bits hold). */
static lg_fn_t host_fn(const lg_call_t *c, bool *wide)
{
    lg_host_find();
    lg_fn_t f = lg_host_fns[0][c->r][c->t];
    int64_t v[] = { c->m, c->n, c->k, c->lda, c->ldb, c->ldc, c->k1, c->k2, c->incx };
    for (size_t i = 0; f && i < sizeof v / sizeof *v; i++)
        if (!lg_fits32(v[i]))
            f = NULL;
    *wide = !f;
    return f ? f : lg_host_fns[1][c->r][c->t];
}

static void invoke(lg_fn_t f, bool wide, const lg_call_t *c, void *work, int64_t lwork)
{
    if (wide)
        invoke_int64_t(f, c, work, lwork);
    else
        invoke_int32_t(f, c, work, lwork);
}

/* WORK(1) after a query: the element type's real part. */
static int64_t work_size(kern_type_t t, const void *w)
{
    return kern_dtypes[t].real == KERN_S ? (int64_t) * (const float *)w
                                         : (int64_t) * (const double *)w;
}

static bool query(lg_fn_t f, bool wide, const lg_call_t *c, int64_t *lwork)
{
    _Alignas(16) unsigned char w[16] = { 0 };
    lg_call_t q = *c;
    q.info = NULL;
    invoke(f, wide, &q, w, -1);
    *lwork = work_size(c->t, w);
    return true;
}

bool lg_host_lwork(const lg_call_t *c, int64_t *lwork)
{
    bool wide;
    lg_call_t q = *c;
    q.lwork = -1;
    lg_fn_t f = host_fn(&q, &wide);
    return f && query(f, wide, &q, lwork);
}

/* The call the host runs: GESV with no right-hand side as GETRF, since the reference's
 * GESV factors A then, and OpenBLAS's returns at once. */
static lg_call_t as_run(const lg_call_t *c)
{
    lg_call_t d = *c;
    if (c->r == LG_GESV && c->k == 0)
        d.r = LG_GETRF, d.m = c->n;
    return d;
}

bool lg_host_luqr_takes(const lg_call_t *c)
{
    bool wide;
    lg_call_t d = as_run(c);
    return host_fn(&d, &wide) != NULL;
}

bool lg_host_luqr(const lg_call_t *call)
{
    lg_call_t run = as_run(call);
    const lg_call_t *c = &run;
    bool wide;
    lg_fn_t f = host_fn(c, &wide);
    lg_call_t d;
    void *piv, *own = NULL, *work = c->work;
    int64_t lwork = c->lwork;
    if (!f || !lg_ipiv_as(c, wide, &d, &piv))
        return false;
    if (has_work(c) && !work) {
        query(f, wide, c, &lwork);
        lwork = lwork > 1 ? lwork : 1;
        if (!(work = own = malloc((size_t)lwork * kern_dtypes[c->t].size))) {
            lg_ipiv_done(c, piv);
            return false;
        }
    }
    invoke(f, wide, &d, work, lwork);
    lg_ipiv_done(c, piv);
    free(own);
    return true;
}
