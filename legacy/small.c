/* The small calls' path: a checked call from a 32-bit Fortran entry that the
 * host BLAS serves whatever its numbers, passed on with no more work than a
 * direct call (legacy.h, lg_run_small32). */
#include "host_call.h"
#include "legacy.h"
#include "policy.h"

bool lg_run_small32(const lg_call_t *c)
{
    lg_init();
    lg_host_find();
    lg_fn_t f = lg_host_fns[0][c->r][c->t];
    const lg_routine_t *rt = lg_routine(c);
    /* LU and QR have pivots and workspaces to look after (host.c) */
    if (!f || lg_policy.every_call || rt->two_names ||
        (lg_is_lapack(rt->shape) && !lg_is_cholesky(rt->shape)) || !c->A ||
        (lg_has_b(rt->shape) && !c->B) || !(lg_is_lapack(rt->shape) ? (void *)c->info : c->C) ||
        lg_flops(c) >= lg_policy.flops[c->r] || lg_cuda_in_use())
        return false;
    lg_host_invoke32(f, c);
    return true;
}
