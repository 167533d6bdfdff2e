/* Starting and stopping the runtime for the legacy library, and its fork
 * handlers (life.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "legacy.h"
#include "life.h"

/* The rate per host BLAS thread that a start's first call on the host is
 * estimated with (double, a current server core on its own). */
#define HOST_THREAD_FLOPS 16e9

lg_life_t lg_life = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The child has one thread, the one that forked, which held lg_life.lock since
 * fork_prepare: no call was in the runtime.  The runtime's threads did not
 * come along, and a GPU context cannot be used after a fork, so the child
 * keeps to the host BLAS. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&lg_life.lock);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&lg_life.lock);
}

static void fork_child(void)
{
    lg_life.in_child = true;
    if (lg_life.state == LG_RT_ON ||
        lg_life.state == LG_RT_STARTING) /* the start's thread stayed behind */
        lg_life.state = LG_RT_OFF;
    lg_life.ours = false;
    lg_life.waiting = 0; /* their threads did not come along */
    pthread_mutex_unlock(&lg_life.lock);
}

void lg_life_init(void)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&lg_life.started, &a);
    pthread_condattr_destroy(&a);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* Under lg_life.lock: the start's thread, ended, joined (so that no code of this
 * library runs on it once the library may be unloaded). */
static void join_starter(void)
{
    if (lg_life.starter_joinable) {
        lg_life.starter_joinable = false;
        pthread_join(lg_life.starter, NULL);
    }
}

/* Registered before the first start, for an exit during it, and again once
 * a runtime of ours (and with it the CUDA runtime, which tears itself down at
 * exit) has started, so that it runs first.  A call still in the runtime on
 * another thread keeps it: the process ends around it. */
static void stop_at_exit(void)
{
    if (atomic_load(&lg_life.in_runtime) ? pthread_mutex_trylock(&lg_life.lock)
                                         : pthread_mutex_lock(&lg_life.lock))
        return;
    while (lg_life.state == LG_RT_STARTING)
        pthread_cond_wait(&lg_life.started, &lg_life.lock);
    join_starter();
    if (lg_life.state == LG_RT_ON && lg_life.ours)
        tess_finalize();
    lg_life.state = LG_RT_OFF;
    pthread_mutex_unlock(&lg_life.lock);
}

static bool host_devices_named(void)
{
    const char *s = getenv("TESS_DEVICES");
    return s && !strncmp(s, "host", 4);
}

static bool application_runtime_up(void)
{
    tess_stats_t s;
    return tess_get_stats(&s) == 0;
}

/* The start itself, without lg_life.lock: the state it leads to. */
static lg_rt_state_t start_runtime(bool *ours)
{
    *ours = false;
    if (application_runtime_up())
        return LG_RT_ON;
    if (!host_devices_named() && tess_internal_gpu_count() == 0)
        return LG_RT_OFF;
    int err = tess_init(NULL);
    if (err == TESS_EINIT)
        return LG_RT_ON; /* the application's own, used as it is */
    if (err) {
        lg_report("the runtime did not start (%s): the host BLAS serves every call",
                  tess_strerror(err));
        return LG_RT_OFF;
    }
    *ours = true;
    return LG_RT_ON;
}

/* Under lg_life.lock. */
static void start_done(lg_rt_state_t state, bool ours)
{
    lg_life.state = state;
    lg_life.ours = ours;
    if (ours && !lg_life.exit_after)
        lg_life.exit_after = !atexit(stop_at_exit);
    pthread_cond_broadcast(&lg_life.started);
    if (lg_verbose && (lg_life.on_host || lg_life.waiting))
        fprintf(stderr,
                "tessera_blas: the runtime was %s %.3f s after the call that started it "
                "(expected: %.3f s); %lld calls ran on the host BLAS meanwhile, %lld of them "
                "after waiting as long as the host would take; %lld calls were waiting\n",
                state == LG_RT_ON ? "up" : "off",
                (double)(tess_internal_now_ns() - lg_life.start_ns) * 1e-9,
                lg_life.start_expected_s, (long long)lg_life.on_host, (long long)lg_life.gave_up,
                (long long)lg_life.waiting);
}

static void *start_main(void *arg)
{
    (void)arg;
    bool ours;
    lg_rt_state_t state = start_runtime(&ours);
    pthread_mutex_lock(&lg_life.lock);
    start_done(state, ours);
    pthread_mutex_unlock(&lg_life.lock);
    return NULL;
}

/* The host BLAS's threads: OpenBLAS says; any other is taken as one. */
static int host_threads(void)
{
    int (*get)(void);
    *(void **)&get = lg_host_symbol("openblas_get_num_threads", false);
    int n = get ? get() : 1;
    return n > 0 ? n : 1;
}

void lg_begin_start(void)
{
    if (lg_life.in_child) {
        lg_life.state = LG_RT_OFF;
        return;
    }
    join_starter(); /* a start before an application's tess_finalize */
    lg_life.state = LG_RT_STARTING;
    lg_life.start_ns = tess_internal_now_ns();
    lg_life.on_host = lg_life.gave_up = 0;
    lg_life.start_expected_s = tess_internal_start_expected_s();
    lg_life.host_rate = HOST_THREAD_FLOPS * host_threads();
    if (!lg_life.exit_before)
        lg_life.exit_before = !atexit(stop_at_exit);
    bool threaded = lg_life.start_expected_s > 0 && !application_runtime_up() &&
                    !pthread_create(&lg_life.starter, NULL, start_main, NULL);
    lg_life.starter_joinable = threaded;
    if (!threaded) {
        bool ours;
        lg_rt_state_t state = start_runtime(&ours);
        start_done(state, ours);
    }
}
