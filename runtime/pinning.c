/* Page-locked host memory.  Ranges are pinned by a background thread, so
 * neither the caller of tess_memory_register_async nor a BLAS call whose
 * operands are pinned on first use waits for it; transfers from a range not
 * pinned yet are pageable copies, slower but correct.
 *
 * Only ranges this runtime locked are unlocked (at tess_memory_unregister,
 * at tess_memory_invalidate of a region holding them when pinned on first
 * use, and at tess_finalize): a range the user had pinned stays pinned. */
#include <stdlib.h>
#include "rt.h"
#ifdef TESS_CUDA_BACKEND
#include "stage_cuda.h"
#endif

/* Smaller operands are copied from pageable memory: pinning them costs more
 * than it saves. */
#define AUTO_PIN_MIN ((size_t)1 << 20)

typedef struct reg {
    char *p;
    size_t bytes;
    int users; /* tess_memory_register_async's at p not yet unregistered (0: first use) */
    bool done; /* the pinning thread has been at it */
    bool mine; /* this runtime locked it */
    struct reg *next;
} reg_t;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t work, idle;
    reg_t *regs;
    int pending;
    bool stop, started;
    pthread_t thread;
} pin;

static bool can_pin(void)
{
    return rt.ndev > 0 && rt.dev[0]->be->pin;
}

static void unpin(const reg_t *r)
{
    if (r->mine)
        rt.dev[0]->be->unpin(r->p);
}

static void *pin_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pin.lock);
    for (;;) {
        reg_t *r = pin.regs;
        while (r && r->done)
            r = r->next;
        if (!r) {
            if (pin.stop)
                break;
            pthread_cond_wait(&pin.work, &pin.lock);
            continue;
        }
        pthread_mutex_unlock(&pin.lock);
        bool mine = false;
        int err = rt.dev[0]->be->pin(r->p, r->bytes, &mine);
        pthread_mutex_lock(&pin.lock);
        /* first-use pinning is a speed-up: failing it (read-only memory, a
         * range straddling one pinned elsewhere) changes nothing else */
        if (err && r->users)
            rt_record_error(&rt.app, err);
        r->done = true;
        r->mine = mine && !err;
        if (--pin.pending == 0)
            pthread_cond_broadcast(&pin.idle);
    }
    pthread_mutex_unlock(&pin.lock);
    return NULL;
}

int pin_init(void)
{
    pthread_mutex_init(&pin.lock, NULL);
    pthread_cond_init(&pin.work, NULL);
    pthread_cond_init(&pin.idle, NULL);
    pin.regs = NULL;
    pin.pending = 0;
    pin.stop = false;
    pin.started = can_pin() && !pthread_create(&pin.thread, NULL, pin_main, NULL);
    return can_pin() && !pin.started ? TESS_EINTERNAL : 0;
}

static bool covered(const char *p, size_t bytes)
{
    for (reg_t *r = pin.regs; r; r = r->next)
        if (p >= r->p && p + bytes <= r->p + r->bytes)
            return true;
    return false;
}

/* Records p .. p + bytes, queued for the pinning thread if pin_it. */
static int record(void *p, size_t bytes, bool user, bool pin_it)
{
    reg_t *r = malloc(sizeof *r);
    if (!r)
        return TESS_ENOMEM;
    *r = (reg_t){ .p = p, .bytes = bytes, .users = user, .done = !pin_it, .next = pin.regs };
    pin.regs = r;
    if (pin_it) {
        pin.pending++;
        pthread_cond_signal(&pin.work);
    }
    return 0;
}

/* The user's registration of p: entries from r on starting there become the
 * user's, one more registration each; false if there is none. */
static bool adopt(reg_t *r, const char *p)
{
    bool found = false;
    for (; r; r = r->next)
        if (r->p == p) {
            found = true;
            r->users++;
        }
    return found;
}

/* Operands of 1 MiB or more are page-locked on first use, unless the
 * submission in progress on this thread sets this (rt_transient_operands). */
static _Thread_local bool pin_skip_first_use;

/* Staged copies move pageable memory faster than page-locking it for one
 * call (docs/design.md); without them, first-use pinning still pays. */
void rt_transient_operands(bool transient)
{
#ifdef TESS_CUDA_BACKEND
    pin_skip_first_use = transient && stage_enabled();
#else
    pin_skip_first_use = false;
    (void)transient;
#endif
}

int pin_request(void *p, size_t bytes, bool user)
{
    if (!user && (!pin.started || pin_skip_first_use || bytes < AUTO_PIN_MIN))
        return 0;
    pthread_mutex_lock(&pin.lock);
    int err = 0;
    /* with a backend that cannot pin, a registration is only kept; one
     * inside a range already recorded needs no pinning of its own, but is
     * kept so that tess_memory_unregister finds it */
    if (!covered(p, bytes)) {
        err = record(p, bytes, user, pin.started);
        /* a longer range at p: the entries already there count it too, since an
         * unregister of p takes one registration from each */
        if (!err && user)
            adopt(pin.regs->next, p);
    } else if (user && !adopt(pin.regs, p)) {
        err = record(p, bytes, true, false);
    }
    pthread_mutex_unlock(&pin.lock);
    /* first-use pinning is a speed-up: without memory for it, nothing else changes */
    return user ? err : 0;
}

static void wait_idle_locked(void)
{
    while (pin.pending)
        pthread_cond_wait(&pin.idle, &pin.lock);
}

void pin_wait_idle(void)
{
    pthread_mutex_lock(&pin.lock);
    wait_idle_locked();
    pthread_mutex_unlock(&pin.lock);
}

/* Removes the entries for which drop says so, unpinning them; true if any. */
static bool remove_if(bool (*drop)(const reg_t *, const void *), const void *arg)
{
    bool found = false;
    for (reg_t **pr = &pin.regs; *pr;) {
        reg_t *r = *pr;
        if (drop(r, arg)) {
            *pr = r->next;
            unpin(r);
            free(r);
            found = true;
        } else {
            pr = &r->next;
        }
    }
    return found;
}

/* Of the user's entries at p, one registration fewer: those with none left go. */
static bool registered_at(const reg_t *r, const void *p)
{
    return r->users == 1 && r->p == (const char *)p;
}

int pin_unregister(void *p)
{
    pthread_mutex_lock(&pin.lock);
    wait_idle_locked();
    bool found = remove_if(registered_at, p);
    for (reg_t *r = pin.regs; r; r = r->next)
        if (r->users && r->p == (char *)p) {
            r->users--;
            found = true;
        }
    pthread_mutex_unlock(&pin.lock);
    return found ? 0 : TESS_ENOTREG;
}

typedef struct {
    const char *p;
    size_t bytes;
} range_t;

static bool auto_inside(const reg_t *r, const void *arg)
{
    const range_t *g = arg;
    return !r->users && r->p >= g->p && r->p + r->bytes <= g->p + g->bytes;
}

void pin_release_inside(const void *p, size_t bytes)
{
    range_t g = { p, bytes };
    pthread_mutex_lock(&pin.lock);
    wait_idle_locked();
    remove_if(auto_inside, &g);
    pthread_mutex_unlock(&pin.lock);
}

static bool any(const reg_t *r, const void *arg)
{
    (void)r;
    (void)arg;
    return true;
}

void pin_fini(void)
{
    if (pin.started) {
        pthread_mutex_lock(&pin.lock);
        pin.stop = true;
        pthread_cond_signal(&pin.work);
        pthread_mutex_unlock(&pin.lock);
        pthread_join(pin.thread, NULL);
        pin.started = false;
    }
    remove_if(any, NULL);
    pthread_mutex_destroy(&pin.lock);
    pthread_cond_destroy(&pin.work);
    pthread_cond_destroy(&pin.idle);
}
