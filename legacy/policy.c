/* The thresholds above which a call goes to the runtime (policy.h). */
#include <errno.h>
#include <stdlib.h>
#include "policy.h"

lg_policy_t lg_policy;

void lg_policy_init(void)
{
    for (int r = 0; r < LG_NROUT; r++)
        lg_policy.flops[r] = lg_routines[r].flops;
    const char *s = getenv("TESS_THRESHOLD");
    if (s && *s) {
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (errno || *end || !(v >= 0))
            lg_report("TESS_THRESHOLD=%s is not a flop count: the defaults apply", s);
        else if (v == 0)
            lg_policy.every_call = true;
        else
            for (int r = 0; r < LG_NROUT; r++)
                lg_policy.flops[r] = v;
    }
}

bool lg_reads_output(const lg_call_t *c)
{
    const lg_routine_t *rt = lg_routine(c);
    if (lg_is_lapack(rt->shape))
        return true;
    if (rt->shape == LG_SHAPE_TRSM || rt->shape == LG_SHAPE_TRMM) /* B in place, no beta */
        return !kern_scalar_is_zero(c->t, c->alpha);
    return !kern_scalar_is_zero(rt->real_beta ? kern_dtypes[c->t].real : c->t, c->beta);
}

bool lg_wants_runtime(const lg_call_t *c)
{
    if (lg_policy.every_call)
        return true;
    double f = lg_flops(c);
    const lg_routine_t *rt = lg_routine(c);
    if (f < lg_policy.flops[c->r] ||
        (!lg_is_lapack(rt->shape) &&
         kern_scalar_is_zero(rt->real_alpha ? kern_dtypes[c->t].real : c->t, c->alpha)))
        return false;
    lg_region_t r[3];
    int n = lg_regions(c, r);
    bool reads = lg_reads_output(c);
    double bytes = 0;
    for (int i = 0; i < n; i++)
        bytes += (double)r[i].m * (double)r[i].n * (r[i].out && reads ? 2 : 1);
    bytes *= (double)kern_dtypes[c->t].size;
    return f >= rt->per_byte * bytes;
}
