/* tess_init, tess_finalize, tess_sync and the error and statistics calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"
#include "scratch.h"

rt_t rt;

/* The runtime's life, outside rt (which tess_init clears).  life_lock orders
 * tess_init and tess_finalize.  Every other call that uses the runtime counts
 * itself in calls for its duration (rt_enter); finalize first sets closing,
 * from which point calls get TESS_ENOTINIT at once, then waits for the calls
 * inside to leave, so that nothing is torn down under them.  The counter and
 * the flag are sequentially consistent: either a call sees closing, or
 * finalize sees it counted. */
static pthread_mutex_t life_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t life_cond = PTHREAD_COND_INITIALIZER; /* the last call left */
static atomic_bool initialized, closing;
static atomic_int calls;
static _Thread_local bool finalizing; /* this thread is in tess_finalize */

int rt_check_ready(void)
{
    return atomic_load(&initialized) ? 0 : TESS_ENOTINIT;
}

int rt_enter(void)
{
    if (finalizing)
        return TESS_ENOTINIT;
    atomic_fetch_add(&calls, 1);
    if (!atomic_load(&closing) && atomic_load(&initialized))
        return 0;
    rt_leave();
    return TESS_ENOTINIT;
}

void rt_leave(void)
{
    if (atomic_fetch_sub(&calls, 1) == 1 && atomic_load(&closing)) {
        pthread_mutex_lock(&life_lock);
        pthread_cond_broadcast(&life_cond);
        pthread_mutex_unlock(&life_lock);
    }
}

void rt_submit_begin(void)
{
    pthread_mutex_lock(&rt.submit_lock);
}

void rt_submit_end(void)
{
    pthread_mutex_unlock(&rt.submit_lock);
}

void rt_geometry(rt_geometry_t *g)
{
    g->ndev = rt.ndev;
    g->grid_p = rt.grid_p;
    g->grid_q = rt.grid_q;
    g->nb_max = rt.cfg.nb_max;
    g->nb_fixed = rt.cfg.nb_fixed;
}

static void device_grid(int n, int *p, int *q)
{
    *p = 1;
    for (int i = 1; i * i <= n; i++)
        if (n % i == 0)
            *p = i;
    *q = n / *p;
}

/* A device that could not be drained may still be running work on any device's memory,
 * the blocks' and the events: then none of it is released (it is left to the process's end),
 * and the drain's error is returned. */
static int release_all(void)
{
    int err = 0;
    for (int i = 0; i < rt.ndev; i++)
        if (rt.dev[i] && rt.dev[i]->be && rt.dev[i]->be->drain) {
            int e = rt.dev[i]->be->drain(rt.dev[i]);
            err = err ? err : e;
        }
    if (!err)
        block_dir_free();
    for (int i = 0; i < rt.ndev; i++) {
        rt_device_t *d = rt.dev[i];
        rt.dev[i] = NULL;
        if (!d || err)
            continue;
        cache_pool_free(d);
        if (d->be) {
            event_pool_free(d);
            d->be->close(d);
        }
        pthread_mutex_destroy(&d->ev_lock);
        free(d->trace);
        free(d);
    }
    free(rt.cfg.trace);
    rt.cfg.trace = NULL;
    pthread_mutex_destroy(&rt.submit_lock);
    pthread_mutex_destroy(&rt.room_lock);
    pthread_mutex_destroy(&rt.sched_lock);
    pthread_mutex_destroy(&rt.cache_lock);
    pthread_mutex_destroy(&rt.done_lock);
    pthread_cond_destroy(&rt.sched_cond);
    pthread_cond_destroy(&rt.done_cond);
    return err;
}

/* Which GPUs: all of them for "cuda" and "auto", the listed ones otherwise;
 * "auto" falls back to two host devices when there is none. */
static int choose_devices(rt_config_t *c)
{
    if (!c->cuda)
        return 0;
#ifdef TESS_CUDA_BACKEND
    int count = cuda_device_count();
    if (c->ndev == 0) {
        if (count == 0 && c->host_fallback) {
            c->cuda = false;
            c->ndev = 2;
            return 0;
        }
        c->ndev = count < TESS_MAX_DEVICES ? count : TESS_MAX_DEVICES;
        for (int i = 0; i < c->ndev; i++)
            c->cuda_ids[i] = i;
    }
    for (int i = 0; i < c->ndev; i++)
        if (c->cuda_ids[i] >= count)
            return TESS_ENODEV;
    return c->ndev ? 0 : TESS_ENODEV;
#else
    return TESS_ENODEV;
#endif
}

static const rt_backend_t *backend(void)
{
#ifdef TESS_CUDA_BACKEND
    if (rt.cfg.cuda)
        return &rt_backend_cuda;
#endif
    return &rt_backend_host;
}

void rt_open_step(rt_device_t *d, const char *name)
{
    if (d->nsteps < RT_OPEN_STEPS)
        d->step[d->nsteps++] = (rt_open_step_t){ name, rt_now_ns() };
}

enum { AT_CONFIG, AT_SCHED, AT_OPEN, AT_CONNECT, AT_PIN, AT_BACKEND, AT_WORKERS, AT_N };

/* Where the start went, under TESS_VERBOSE: the seconds from t0 at each
 * step's end, then each device's steps from when the devices began to open
 * (at[AT_SCHED]), a device's wait for the others' opens among them. */
static void report_start(int64_t t0, const int64_t *at)
{
    static const char *const step[AT_N] = { "configuration and device count",
                                            "scheduler",
                                            "devices opened",
                                            "peers and cache pools",
                                            "pinning thread",
                                            "backend start",
                                            "workers" };
    fprintf(stderr, "tessera: started in %.3f s:", (double)(at[AT_N - 1] - t0) * 1e-9);
    for (int i = 0; i < AT_N; i++)
        fprintf(stderr, "%s %s %.3f", i ? "," : "", step[i],
                (double)(at[i] - (i ? at[i - 1] : t0)) * 1e-9);
    fputc('\n', stderr);
    for (int i = 0; i < rt.ndev; i++) {
        const rt_device_t *d = rt.dev[i];
        fprintf(stderr, "tessera: %s %d opened in %.3f s:", rt.cfg.cuda ? "GPU" : "host device",
                rt.cfg.cuda ? rt.cfg.cuda_ids[i] : i,
                d->nsteps ? (double)(d->step[d->nsteps - 1].end_ns - at[AT_SCHED]) * 1e-9 : 0);
        for (int k = 0; k < d->nsteps; k++)
            fprintf(stderr, "%s %s %.3f", k ? "," : "", d->step[k].name,
                    (double)(d->step[k].end_ns - (k ? d->step[k - 1].end_ns : at[AT_SCHED])) *
                        1e-9);
        fprintf(stderr, " (cache pool of %.1f GiB)\n", (double)d->pool_size / (1 << 30));
    }
}

typedef struct {
    rt_device_t *d;
    int (*step)(rt_device_t *d);
    int err;
} device_step_t;

static void *device_step_main(void *arg)
{
    device_step_t *s = arg;
    s->err = s->step(s->d);
    return NULL;
}

/* Runs step on every device at once, each on a thread of its own (the
 * calling thread, the application's, keeps its binding and its current
 * GPU); where no thread can be made, on the calling thread.  The first
 * failing device's error. */
static int on_every_device(int (*step)(rt_device_t *d))
{
    pthread_t th[TESS_MAX_DEVICES];
    bool made[TESS_MAX_DEVICES];
    device_step_t s[TESS_MAX_DEVICES];
    for (int i = 0; i < rt.ndev; i++) {
        s[i] = (device_step_t){ rt.dev[i], step, 0 };
        made[i] = !pthread_create(&th[i], NULL, device_step_main, &s[i]);
    }
    for (int i = 0; i < rt.ndev; i++)
        if (made[i])
            pthread_join(th[i], NULL);
        else
            device_step_main(&s[i]);
    for (int i = 0; i < rt.ndev; i++)
        if (s[i].err)
            return s[i].err;
    return 0;
}

/* What a device needs of no other device. */
static int open_device(rt_device_t *d)
{
    return d->be->open(d);
}

/* Once every device is open: what needs the others (peer access), then the
 * cache's pool.  The wait for the others' opens is a step of the report. */
static int connect_device(rt_device_t *d)
{
    rt_open_step(d, "waiting for the other devices");
    int err = d->be->connect ? d->be->connect(d) : 0;
    return err ? err : cache_pool_init(d);
}

static int start(const tess_config_t *cfg)
{
    int64_t t0 = rt_now_ns(), at[AT_N];
    int err = config_resolve(cfg, &rt.cfg);
    if (!err)
        err = choose_devices(&rt.cfg);
    if (err)
        return err;
    at[AT_CONFIG] = rt_now_ns();
    config_device_defaults(&rt.cfg);
    rt.ndev = rt.cfg.ndev;
    device_grid(rt.ndev, &rt.grid_p, &rt.grid_q);
    pthread_mutex_init(&rt.submit_lock, NULL);
    pthread_mutex_init(&rt.room_lock, NULL);
    pthread_mutex_init(&rt.sched_lock, NULL);
    pthread_mutex_init(&rt.cache_lock, NULL);
    pthread_mutex_init(&rt.done_lock, NULL);
    pthread_cond_init(&rt.sched_cond, NULL);
    pthread_cond_init(&rt.done_cond, NULL);
    if ((err = block_dir_init()))
        return err;
    trace_start();
    for (int i = 0; i < rt.ndev; i++) {
        rt_device_t *d = calloc(1, sizeof *d);
        if (!d)
            return TESS_ENOMEM;
        rt.dev[i] = d;
        d->id = i;
        pthread_mutex_init(&d->ev_lock, NULL);
        d->be = backend();
    }
    /* first, so that a device's opening thread can be bound as its worker will be */
    if ((err = sched_init()))
        return err;
    at[AT_SCHED] = rt_now_ns();
    if ((err = on_every_device(open_device))) {
        sched_fini();
        return err;
    }
    at[AT_OPEN] = rt_now_ns();
    if ((err = on_every_device(connect_device))) {
        sched_fini();
        return err;
    }
    at[AT_CONNECT] = rt_now_ns();
    if ((err = pin_init())) {
        pin_fini();
        sched_fini();
        return err;
    }
    at[AT_PIN] = rt_now_ns();
    const rt_backend_t *be = rt.dev[0]->be;
    if (be->start && (err = be->start())) {
        pin_fini();
        sched_fini();
        return err;
    }
    at[AT_BACKEND] = rt_now_ns();
    if ((err = sched_start())) {
        if (be->stop)
            be->stop();
        pin_fini();
        sched_fini();
        return err;
    }
    at[AT_WORKERS] = rt_now_ns();
    if (rt.cfg.verbose)
        report_start(t0, at);
    return 0;
}

TESS_API int tess_init(const tess_config_t *cfg)
{
    pthread_mutex_lock(&life_lock);
    int err = TESS_EINIT;
    if (!atomic_load(&initialized)) {
        memset(&rt, 0, sizeof rt);
        err = start(cfg);
        if (err)
            release_all();
        else
            atomic_store(&initialized, true);
    }
    pthread_mutex_unlock(&life_lock);
    return err;
}

TESS_API int tess_sync(void)
{
    int err = rt_enter();
    if (err)
        return err;
    void *scratch = rt_scratch_take(&rt.app);
    task_wait_all();
    pin_wait_idle();
    rt_scratch_free(scratch);
    err = rt_scope_sync(&rt.app);
    rt_leave();
    return err;
}

TESS_API int tess_finalize(void)
{
    pthread_mutex_lock(&life_lock);
    /* closing: another finalize is waiting for the calls inside */
    int err = atomic_load(&closing) ? TESS_ENOTINIT : rt_check_ready();
    if (!err) {
        finalizing = true;
        atomic_store(&closing, true);
        while (atomic_load(&calls))
            pthread_cond_wait(&life_cond, &life_lock);
        task_wait_all();
        pin_wait_idle();
        rt_scratch_free(rt_scratch_take(NULL));
        err = atomic_exchange(&rt.app.error, 0);
        sched_fini();
        if (rt.dev[0]->be->stop)
            rt.dev[0]->be->stop();
        if (rt.cfg.trace) {
            int terr = trace_write(rt.cfg.trace);
            err = err ? err : terr;
        }
        if (rt.cfg.verbose)
            stats_print();
        atomic_store(&initialized, false);
        pin_fini();
        int rerr = release_all();
        err = err ? err : rerr;
        atomic_store(&closing, false);
        finalizing = false;
    }
    pthread_mutex_unlock(&life_lock);
    return err;
}

TESS_API const char *tess_strerror(int err)
{
    if (err < 0)
        return "invalid argument (the negated value is its position, 1-based, as in reference "
               "BLAS)";
    switch (err) {
#define TESS_ERRNO_MESSAGE(name, value, message)                                                   \
    case TESS_##name: return message;
        TESS_ERRNO_MAP(TESS_ERRNO_MESSAGE)
#undef TESS_ERRNO_MESSAGE
    default: return "unknown error code";
    }
}

TESS_API int tess_get_stats(tess_stats_t *s)
{
    int err = rt_enter();
    if (err)
        return err;
    if (s)
        rt_stats(s);
    rt_leave();
    return s ? 0 : -1;
}
