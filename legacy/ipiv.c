/* LU's pivots between widths: LAPACK's are INTEGER (32 bits for dgetrf_, 64
 * for dgetrf_64_), the runtime's 64 bits, and a host LAPACK takes its own
 * (legacy.h). */
#include <stdlib.h>
#include "legacy.h"

int64_t lg_ipiv_count(const lg_call_t *c)
{
    switch (c->r) {
    case LG_GETRF: return c->m < c->n ? c->m : c->n;
    case LG_GETRS:
    case LG_GESV: return c->n;
    case LG_LASWP: /* LAPACK's IPIV(K1 + (K2 - K1) * ABS(INCX)) */
        return c->k2 < c->k1 || c->incx == 0
                   ? 0
                   : c->k1 + (c->k2 - c->k1) * (c->incx > 0 ? c->incx : -c->incx);
    default: return 0;
    }
}

bool lg_ipiv_read(const lg_call_t *c)
{
    return c->r == LG_GETRS || c->r == LG_LASWP;
}

static void convert(void *to, bool to_wide, const void *from, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (to_wide)
            ((int64_t *)to)[i] = ((const int32_t *)from)[i];
        else
            ((int32_t *)to)[i] = (int32_t)((const int64_t *)from)[i];
}

bool lg_ipiv_as(const lg_call_t *c, bool wide, lg_call_t *d, void **tmp)
{
    *d = *c;
    *tmp = NULL;
    int64_t n = lg_ipiv_count(c);
    if (!c->ipiv || c->ipiv32 != wide || n <= 0)
        return true;
    if (!(*tmp = malloc((size_t)n * (wide ? sizeof(int64_t) : sizeof(int32_t)))))
        return false;
    if (lg_ipiv_read(c))
        convert(*tmp, wide, c->ipiv, n);
    d->ipiv = *tmp;
    d->ipiv32 = !wide;
    return true;
}

void lg_ipiv_done(const lg_call_t *c, void *tmp)
{
    if (!tmp)
        return;
    if (!lg_ipiv_read(c))
        convert(c->ipiv, !c->ipiv32, tmp, lg_ipiv_count(c));
    free(tmp);
}
