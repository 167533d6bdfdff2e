/* The small calls' path: a call from a 32-bit Fortran entry that the host
 * BLAS serves whatever its numbers, passed on with no more work than a
 * direct call (legacy.h, lg_run_small32). */
#include "host_call.h"
#include "legacy.h"
#include "policy.h"

/* Whether every character argument of the routine was valid: the host gets
 * them back from their enums (an invalid one is 0, which would come back as
 * a valid letter). */
static bool letters_valid(const lg_call_t *c)
{
    switch (lg_routine(c)->shape) {
    case LG_SHAPE_GEMM: return c->ta && c->tb;
    case LG_SHAPE_SYMM: return c->side && c->uplo;
    case LG_SHAPE_TRSM:
    case LG_SHAPE_TRMM: return c->side && c->uplo && c->ta && c->diag;
    case LG_SHAPE_GEMMT: return c->uplo && c->ta && c->tb;
    case LG_SHAPE_SYRK:
    case LG_SHAPE_SYR2K: return c->uplo && c->ta;
    case LG_SHAPE_POTRF:
    case LG_SHAPE_POTRS: return c->uplo;
    case LG_SHAPE_TRTRI: return c->uplo && c->diag;
    default: return false; /* LU and QR: pivots and workspaces to look after (host.c) */
    }
}

/* Whether every leading dimension the routine has is at least 1, as the reference's checks
 * ask (max(1, rows)) and OpenBLAS's GEMM does not when a dimension is 0. */
static bool lds_positive(const lg_call_t *c, const lg_routine_t *rt)
{
    return (!rt->pos[3] || c->lda >= 1) && (!rt->pos[4] || c->ldb >= 1) &&
           (!rt->pos[5] || c->ldc >= 1);
}

bool lg_run_small32(const lg_call_t *c)
{
    lg_init();
    lg_host_find();
    lg_fn_t f = lg_host_fns[0][c->r][c->t];
    const lg_routine_t *rt = lg_routine(c);
    if (!f || lg_policy.every_call || rt->two_names || !c->A || (lg_has_b(rt->shape) && !c->B) ||
        !(lg_is_lapack(rt->shape) ? (void *)c->info : c->C) || !letters_valid(c) ||
        !lds_positive(c, rt) || lg_flops(c) >= lg_policy.flops[c->r] || lg_cuda_in_use())
        return false;
    lg_host_invoke32(f, c);
    return true;
}
