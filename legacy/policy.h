/* Which calls go to the runtime: a routine's flop threshold (TESS_THRESHOLD
 * overrides them all) and its flops per byte of operands (policy.c). */
#ifndef LG_POLICY_H
#define LG_POLICY_H

#include <stdbool.h>
#include "legacy.h"

typedef struct {
    double flops[LG_NROUT]; /* the routines' flop thresholds, or TESS_THRESHOLD's */
    bool every_call;        /* TESS_THRESHOLD=0 */
} lg_policy_t;

extern lg_policy_t lg_policy;

/* Once, at the library's first call: the thresholds, TESS_THRESHOLD read. */
void lg_policy_init(void);

/* Whether the call reads its output (so that its old value is needed to
 * redo it): LAPACK's always do. */
bool lg_reads_output(const lg_call_t *c);

/* Whether the call is worth the runtime: enough flops, and enough per byte
 * of its operands. */
bool lg_wants_runtime(const lg_call_t *c);

/* The call's flops as if alpha were not 0 (the caller tests alpha after the
 * cheaper comparison with the threshold); inline, for the small calls'
 * path. */
static inline __attribute__((always_inline)) double lg_flops(const lg_call_t *c)
{
    const lg_routine_t *rt = lg_routine(c);
    lg_shape_t s = rt->shape;
    if (c->k == 0 && lg_has_k(s))
        return 0;
    double m = (double)c->m, n = (double)c->n, k = (double)c->k, f = 0;
    /* LU's and QR's counts are LAPACK's, by the longer side and the shorter */
    double hi = m > n ? m : n, lo = m > n ? n : m, other = c->side == TessLeft ? n : m;
    switch (s) {
    case LG_SHAPE_GETRF: f = (hi - lo / 3) * lo * lo; break;
    case LG_SHAPE_GETRS: f = 2 * n * n * k; break;
    case LG_SHAPE_GESV: f = (2 * n / 3 + 2 * k) * n * n; break;
    case LG_SHAPE_LASWP: break;
    case LG_SHAPE_GEQRF: f = 2 * (hi - lo / 3) * lo * lo; break;
    case LG_SHAPE_ORMQR: f = 4 * m * n * k - 2 * other * k * k; break;
    case LG_SHAPE_GELS: f = 2 * (hi - lo / 3) * lo * lo + (4 * hi - lo) * lo * k; break;
    case LG_SHAPE_POTRF:
    case LG_SHAPE_POTRS:
    case LG_SHAPE_TRTRI: f = (rt->n3 * n + rt->n2k * k) * n * n; break;
    case LG_SHAPE_GEMM: f = 2 * m * n * k; break;
    case LG_SHAPE_SYMM: f = 2 * m * n * (c->side == TessLeft ? m : n); break;
    case LG_SHAPE_SYRK:
    case LG_SHAPE_GEMMT: f = n * (n + 1) * k; break;
    case LG_SHAPE_SYR2K: f = 2 * n * (n + 1) * k; break;
    case LG_SHAPE_TRSM:
    case LG_SHAPE_TRMM: f = m * n * (c->side == TessLeft ? m : n); break;
    }
    return kern_dtypes[c->t].is_complex ? 4 * f : f;
}

#endif
