/* The host backend's streams and events (host_stream.h).
 *
 * Lock order: a stream's lock, then an event's.  A record takes its
 * generation and joins its queue under the stream's lock, so that any wait
 * capturing that generation waits for an operation already queued: waits
 * only ever wait for work queued before them, and streams cannot deadlock. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "host_stream.h"
#include "rt.h"

struct hs_event {
    pthread_mutex_t lock;
    pthread_cond_t cond;          /* broadcast at each completion */
    uint64_t recorded, completed; /* generations */
    int err;                      /* the completing stream's failure */
    _Atomic int64_t ns;           /* when completed; read unlocked, a statistic */
};

typedef struct hs_op {
    enum { OP_COPY, OP_RECORD, OP_WAIT } kind;
    hs_event_t *ev;
    uint64_t gen;
    char *dst;
    const char *src;
    size_t dpitch, spitch, width, height;
    struct hs_op *next;
} hs_op_t;

struct hs_stream {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* work queued, the queue drained, stop */
    hs_op_t *head, *tail;
    bool running; /* an op taken off the queue is not over */
    bool stop;
    double ns_per_byte;
    atomic_int err; /* the thread's first failure */
};

static int pt(int rc)
{
    if (!rc)
        return 0;
    return rc == ENOMEM || rc == EAGAIN ? TESS_ENOMEM : TESS_EINTERNAL;
}

/* Unlocks m; returns err, else the unlock's failure. */
static int unlock(pthread_mutex_t *m, int err)
{
    int e = pt(pthread_mutex_unlock(m));
    return err ? err : e;
}

/* ---- events ---------------------------------------------------------------- */

int hs_event_new(hs_event_t **out)
{
    hs_event_t *e = calloc(1, sizeof *e);
    if (!e)
        return TESS_ENOMEM;
    int err = pt(pthread_mutex_init(&e->lock, NULL));
    if (!err && (err = pt(pthread_cond_init(&e->cond, NULL))))
        pthread_mutex_destroy(&e->lock);
    if (err) {
        free(e);
        return err;
    }
    *out = e;
    return 0;
}

void hs_event_free(hs_event_t *e)
{
    pthread_cond_destroy(&e->cond);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

/* Under e->lock.  A later recording that completed first (on another stream)
 * stays the one that counts. */
static int complete_locked(hs_event_t *e, uint64_t gen, int cause)
{
    if (gen > e->completed) {
        e->completed = gen;
        e->err = cause;
        atomic_store_explicit(&e->ns, rt_now_ns(), memory_order_relaxed);
    }
    return pt(pthread_cond_broadcast(&e->cond));
}

/* Under e->lock. */
static int await_locked(hs_event_t *e, uint64_t gen)
{
    int err = 0;
    while (!err && e->completed < gen)
        err = pt(pthread_cond_wait(&e->cond, &e->lock));
    return err;
}

int hs_event_complete(hs_event_t *e)
{
    int err = pt(pthread_mutex_lock(&e->lock));
    if (err)
        return err;
    if (e->completed < e->recorded) /* see enqueue */
        return unlock(&e->lock, TESS_EINTERNAL);
    return unlock(&e->lock, complete_locked(e, ++e->recorded, 0));
}

int hs_event_done(hs_event_t *e, bool *done)
{
    *done = false;
    int err = pt(pthread_mutex_lock(&e->lock));
    if (err)
        return err;
    *done = e->completed >= e->recorded;
    return unlock(&e->lock, *done ? e->err : 0);
}

int hs_event_sync(hs_event_t *e)
{
    int err = pt(pthread_mutex_lock(&e->lock));
    if (err)
        return err;
    err = await_locked(e, e->recorded);
    return unlock(&e->lock, err ? err : e->err);
}

int64_t hs_event_time(hs_event_t *e)
{
    return atomic_load_explicit(&e->ns, memory_order_relaxed);
}

/* ---- a stream's thread --------------------------------------------------- */

static void note(hs_stream_t *s, int err)
{
    int none = 0;
    if (err)
        atomic_compare_exchange_strong(&s->err, &none, err);
}

/* On a slow link the data lands at the end of the transfer's time, so that
 * a reader that does not wait for the copy's event reads stale data. */
static void copy(const hs_stream_t *s, const hs_op_t *o)
{
    if (s->ns_per_byte > 0) {
        int64_t end = rt_now_ns() + (int64_t)(s->ns_per_byte * (double)(o->width * o->height));
        struct timespec ts = { .tv_sec = end / 1000000000, .tv_nsec = end % 1000000000 };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            ;
    }
    for (size_t j = 0; j < o->height; j++)
        memcpy(o->dst + j * o->dpitch, o->src + j * o->spitch, o->width);
}

static void run(hs_stream_t *s, const hs_op_t *o)
{
    if (o->kind == OP_COPY) {
        copy(s, o);
        return;
    }
    int err = pt(pthread_mutex_lock(&o->ev->lock));
    if (!err)
        err = unlock(&o->ev->lock, o->kind == OP_RECORD
                                       ? complete_locked(o->ev, o->gen, atomic_load(&s->err))
                                       : await_locked(o->ev, o->gen));
    note(s, err);
}

static void *stream_main(void *arg)
{
    hs_stream_t *s = arg;
    int err = pt(pthread_mutex_lock(&s->lock));
    while (!err && (s->head || !s->stop)) {
        hs_op_t *o = s->head;
        if (!o) {
            err = pt(pthread_cond_wait(&s->cond, &s->lock));
            continue;
        }
        if (!(s->head = o->next))
            s->tail = NULL;
        s->running = true;
        if ((err = pt(pthread_mutex_unlock(&s->lock))))
            break;
        run(s, o);
        free(o);
        if ((err = pt(pthread_mutex_lock(&s->lock))))
            break;
        s->running = false;
        if (!s->head)
            err = pt(pthread_cond_broadcast(&s->cond)); /* for hs_stream_drain */
    }
    if (!err)
        err = pt(pthread_mutex_unlock(&s->lock));
    note(s, err);
    return NULL;
}

/* ---- queueing -------------------------------------------------------------- */

static int enqueue(hs_stream_t *s, hs_op_t op)
{
    int err = atomic_load(&s->err);
    if (err)
        return err;
    hs_op_t *o = malloc(sizeof *o);
    if (!o)
        return TESS_ENOMEM;
    *o = op;
    o->next = NULL;
    if ((err = pt(pthread_mutex_lock(&s->lock)))) {
        free(o);
        return err;
    }
    if (o->kind != OP_COPY) {
        if ((err = pt(pthread_mutex_lock(&o->ev->lock)))) {
            free(o);
            return unlock(&s->lock, err);
        }
        /* A recording still pending would be overtaken: a wait on it would
         * end when the new one completes.  The runtime re-records an event
         * only once it is back on its free list, complete. */
        if (o->kind == OP_RECORD && o->ev->completed < o->ev->recorded)
            err = TESS_EINTERNAL;
        else
            o->gen = o->kind == OP_RECORD ? ++o->ev->recorded : o->ev->recorded;
        err = unlock(&o->ev->lock, err);
        if (err) {
            free(o);
            return unlock(&s->lock, err);
        }
    }
    if (s->tail)
        s->tail->next = o;
    else
        s->head = o;
    s->tail = o;
    int e = pt(pthread_cond_broadcast(&s->cond));
    return unlock(&s->lock, err ? err : e);
}

int hs_record(hs_stream_t *s, hs_event_t *e)
{
    return enqueue(s, (hs_op_t){ .kind = OP_RECORD, .ev = e });
}

int hs_wait(hs_stream_t *s, hs_event_t *e)
{
    return enqueue(s, (hs_op_t){ .kind = OP_WAIT, .ev = e });
}

int hs_copy(hs_stream_t *s, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
            size_t height)
{
    return enqueue(s, (hs_op_t){ .kind = OP_COPY,
                                 .dst = dst,
                                 .src = src,
                                 .dpitch = dpitch,
                                 .spitch = spitch,
                                 .width = width,
                                 .height = height });
}

/* ---- a stream's life --------------------------------------------------------- */

int hs_stream_start(hs_stream_t **out, double ns_per_byte)
{
    hs_stream_t *s = calloc(1, sizeof *s);
    if (!s)
        return TESS_ENOMEM;
    s->ns_per_byte = ns_per_byte;
    int err = pt(pthread_mutex_init(&s->lock, NULL));
    if (err) {
        free(s);
        return err;
    }
    if (!(err = pt(pthread_cond_init(&s->cond, NULL)))) {
        if (!(err = pt(pthread_create(&s->thread, NULL, stream_main, s)))) {
            *out = s;
            return 0;
        }
        pthread_cond_destroy(&s->cond);
    }
    pthread_mutex_destroy(&s->lock);
    free(s);
    return err;
}

int hs_stream_drain(hs_stream_t *s)
{
    int err = pt(pthread_mutex_lock(&s->lock));
    if (err)
        return err;
    while (!err && (s->head || s->running))
        err = pt(pthread_cond_wait(&s->cond, &s->lock));
    return unlock(&s->lock, err);
}

int hs_stream_stop(hs_stream_t *s)
{
    int err = pt(pthread_mutex_lock(&s->lock));
    if (err)
        return err;
    s->stop = true;
    err = pt(pthread_cond_broadcast(&s->cond));
    if ((err = unlock(&s->lock, err)) || (err = pt(pthread_join(s->thread, NULL))))
        return err;
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    int thread_err = atomic_load(&s->err);
    free(s);
    return thread_err;
}
