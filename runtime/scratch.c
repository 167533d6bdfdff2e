/* Host memory that a call's tasks use past the call's return and that the
 * caller never sees (GELS's tau, and A^H when m < n; GEMV's and SYMV's
 * partial sums of y).  It lives until the tess_sync (or tess_finalize) after
 * the call has submitted its tasks, which waits for them; then its blocks are
 * dropped, their device copies discarded, and it is freed. */
#include <stdlib.h>
#include "rt.h"
#include "scratch.h"

typedef struct scratch {
    struct scratch *next;
    size_t bytes;
    bool held;               /* its call is still submitting: a sync that starts now keeps it */
    const rt_scope_t *scope; /* its call's, whose sync frees it */
    _Alignas(16) unsigned char data[];
} scratch_t;

static scratch_t *live; /* under rt.submit_lock */

static scratch_t *of(void *p)
{
    return (scratch_t *)((char *)p - offsetof(scratch_t, data));
}

/* Under rt.submit_lock. */
static void *alloc_locked(size_t bytes)
{
    scratch_t *s = malloc(sizeof *s + bytes);
    if (!s)
        return NULL;
    s->bytes = bytes;
    s->held = true;
    s->scope = rt_scope_current();
    s->next = live;
    live = s;
    return s->data;
}

void *rt_scratch_alloc(size_t bytes)
{
    pthread_mutex_lock(&rt.submit_lock);
    void *p = alloc_locked(bytes);
    pthread_mutex_unlock(&rt.submit_lock);
    return p;
}

void *rt_scratch_alloc_submitting(size_t bytes)
{
    return alloc_locked(bytes);
}

void rt_scratch_submitted(void *p)
{
    pthread_mutex_lock(&rt.submit_lock);
    of(p)->held = false;
    pthread_mutex_unlock(&rt.submit_lock);
}

void *rt_scratch_take(const rt_scope_t *scope)
{
    scratch_t *taken = NULL, **s = &live;
    pthread_mutex_lock(&rt.submit_lock);
    while (*s) {
        scratch_t *x = *s;
        if (x->held || (scope && x->scope != scope)) {
            s = &x->next;
            continue;
        }
        *s = x->next;
        x->next = taken;
        taken = x;
    }
    pthread_mutex_unlock(&rt.submit_lock);
    return taken;
}

static void drop(rt_block_t *b, bool inside, void *arg)
{
    (void)inside;
    (void)arg;
    cache_flush_invalidate(NULL, b, false, NULL);
    block_remove(b);
}

void rt_scratch_free(void *taken)
{
    for (scratch_t *s = taken, *next; s; s = next) {
        next = s->next;
        pthread_mutex_lock(&rt.submit_lock);
        /* a failure to list its blocks leaves them: the memory is then kept */
        int err = block_foreach_in(TessAll, (const char *)s->data, (int64_t)s->bytes, 1,
                                   (int64_t)s->bytes, 1, drop, NULL);
        pthread_mutex_unlock(&rt.submit_lock);
        if (err)
            continue;
        pin_release_inside(s->data, s->bytes);
        free(s);
    }
}
