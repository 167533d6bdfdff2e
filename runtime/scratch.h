/* Host memory of a call's own that its tasks use past the call's return and that the caller
 * never sees (GELS's tau, BLAS-2 partial sums): scratch.c. */
#ifndef RT_SCRATCH_H
#define RT_SCRATCH_H

#include <stddef.h>

/* bytes, aligned for any element type, held until rt_scratch_submitted(p), which its call
 * makes once its tasks are submitted (or failed to be); NULL when out of memory */
void *rt_scratch_alloc(size_t bytes);
/* The same from a call's submit function (rt_submit_begin held), for scratch whose size
 * depends on the call's tiling; rt_scratch_submitted after rt_submit_end. */
void *rt_scratch_alloc_submitting(size_t bytes);
void rt_scratch_submitted(void *p);
/* The scratch of scope's calls (NULL: of every scope) that no call holds, taken off the
 * list; once every task of those calls has completed, rt_scratch_free drops its blocks and
 * frees it (tess_sync, a legacy call's sync, tess_finalize). */
struct rt_scope;
void *rt_scratch_take(const struct rt_scope *scope);
void rt_scratch_free(void *taken);

#endif
