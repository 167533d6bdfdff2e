/* Host memory of a call's own that its tasks use past the call's return and that the caller
 * never sees (GELS's tau): scratch.c. */
#ifndef RT_SCRATCH_H
#define RT_SCRATCH_H

#include <stddef.h>

/* bytes, aligned for any element type, held until rt_scratch_submitted(p), which its call
 * makes once its tasks are submitted (or failed to be); NULL when out of memory */
void *rt_scratch_alloc(size_t bytes);
void rt_scratch_submitted(void *p);
/* The scratch no call holds, taken off the list; after every task submitted so far has
 * completed, rt_scratch_free drops its blocks and frees it (tess_sync, tess_finalize). */
void *rt_scratch_take(void);
void rt_scratch_free(void *taken);

#endif
