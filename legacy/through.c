/* A call through the runtime: submitted as *_async, its output asked
 * coherent, a wait for its own tasks (whose errors are the call's, not the
 * application's that may share the runtime), then every operand invalidated
 * so that the caller owns its memory again when the call returns.  One call
 * is in the runtime at a time (lg_life.lock): each uses every device, and
 * tess_memory_invalidate waits for all tasks, not one call's.  Until a
 * runtime starting on a thread of its own is up, a call runs on the host BLAS
 * when that ends before the start is expected to, and otherwise waits for
 * the start, never longer than the host BLAS would take (lg_runtime_call). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "legacy.h"
#include "life.h"
#include "policy.h"

/* The longest a call waits for the start, in seconds, whatever its host
 * estimate: the wait's deadline stays a time the clock reaches. */
#define MAX_WAIT_S 1e6

/* Under lg_life.lock, with the runtime up.  True when the call is done; false
 * when the host BLAS is to run it.  Redoing it is exact when the output's old
 * value is not needed, or when nothing reached the caller's memory: only
 * write-backs touch host memory, and the runtime stamps each block's with a
 * tick, so no output tile stamped since the call began says nothing did.  A
 * call that reads its output therefore asks for it only once its tasks have
 * succeeded, so that a failure among them leaves the output as it was
 * (unless eviction wrote part of it back); one that does not overlaps the
 * write-back with the tasks still running.  A failed call that can be neither
 * redone nor reported (a BLAS call has no error channel) stops the program,
 * as XERBLA does. */
static bool runtime_run(const lg_call_t *c)
{
    size_t es = kern_dtypes[c->t].size;
    lg_region_t r[3];
    int n = lg_regions(c, r);
    bool reads = lg_reads_output(c);
    tess_stats_t stats;
    if (tess_get_stats(&stats)) {
        /* the application has finalized the runtime it had started: the
         * next call starts one as if none had been */
        lg_life.state = LG_RT_UNTRIED;
        lg_life.ours = false;
        return false;
    }
    lg_call_t w; /* the call with 64-bit pivots, which the runtime takes */
    void *piv;
    if (!lg_ipiv_as(c, true, &w, &piv))
        return false;
    uint64_t tick = tess_internal_writeback_tick();
    /* the call's errors are its own, the application's stay the application's */
    tess_internal_scope_begin();
    int err = tess_internal_submit(&w, true); /* each call gives its operands back */
    if (!err && reads)
        err = tess_internal_scope_sync();
    for (int i = 0; i < n && !err; i++)
        if (r[i].out && r[i].m > 0 && r[i].n > 0)
            err = tess_memory_coherent_async(r[i].part, r[i].m, r[i].n, r[i].p, r[i].ld, es);
    int sync_err = tess_internal_scope_sync(); /* a partial submission's tasks run out too */
    tess_internal_scope_end();
    err = err ? err : sync_err;
    /* before the invalidation below, which writes back tiles straddling the regions */
    bool touched = false;
    for (int i = 0; i < n && err && reads; i++)
        if (r[i].out && r[i].m > 0 && r[i].n > 0)
            touched |=
                tess_internal_written_since(r[i].part, r[i].p, r[i].m, r[i].n, r[i].ld, es, tick);
    bool left = false;
    for (int i = 0; i < n; i++)
        if (r[i].p && r[i].m > 0 && r[i].n > 0)
            left |= tess_memory_invalidate(r[i].m, r[i].n, r[i].p, r[i].ld, es) != 0;
    /* the pivots too: the runtime keeps them in blocks of their own, which a later call
     * at the same address (the temporary's, reused) must not find */
    int64_t np = lg_ipiv_count(c);
    if (w.ipiv && np > 0)
        left |= tess_memory_invalidate(np, 1, w.ipiv, np, sizeof(int64_t)) != 0;
    if (left) /* no device copy may outlive the call */
        tess_memory_invalidate_all();
    if (!err)
        lg_ipiv_done(c, piv);
    else
        free(piv);
    if (!err)
        return true;
    if (err == TESS_EDEVICE || err == TESS_EINTERNAL)
        lg_life.state = LG_RT_OFF; /* a device that failed once is not trusted again */
    if (err == TESS_ENOTINIT)      /* finalized by the application meanwhile */
        lg_life.state = LG_RT_UNTRIED;
    if (!touched) {
        lg_report("%c%s through the runtime failed (%s): it ran on the host BLAS",
                  lg_type_letter(c->t), lg_routine(c)->name, tess_strerror(err));
        return false;
    }
    /* a BLAS or LAPACK call has no error channel: never return as if it had succeeded */
    fprintf(stderr,
            "tessera_blas: %c%s failed on a device (%s) after part of its output was written "
            "back, so it cannot be redone on the host: stopping\n",
            lg_type_letter(c->t), lg_routine(c)->name, tess_strerror(err));
    exit(EXIT_FAILURE);
}

/* Under lg_life.lock, while the runtime starts: runs the call on the host
 * BLAS, its rate measured for the next call's estimate; false when the host
 * BLAS cannot (then it waits for the start). */
static bool host_run_while_starting(const lg_call_t *c, double f)
{
    pthread_mutex_unlock(&lg_life.lock);
    int64_t t0 = tess_internal_now_ns();
    bool done = lg_host_run(c);
    double s = (double)(tess_internal_now_ns() - t0) * 1e-9;
    pthread_mutex_lock(&lg_life.lock);
    if (done) {
        lg_life.on_host++;
        if (s > 0 && f > 0)
            lg_life.host_rate = f / s;
    }
    return done;
}

/* Under lg_life.lock: waits for the start to end, until deadline (ns,
 * CLOCK_MONOTONIC) unless it is negative; the caller reads the state and the
 * clock for which woke it. */
static void wait_for_start(int64_t deadline)
{
    struct timespec ts = { (time_t)(deadline / 1000000000), (long)(deadline % 1000000000) };
    lg_life.waiting++;
    if (deadline < 0)
        pthread_cond_wait(&lg_life.started, &lg_life.lock);
    else
        pthread_cond_timedwait(&lg_life.started, &lg_life.lock, &ts);
    lg_life.waiting--;
}

/* may_defer: the host BLAS may take the call (when it has no routine for it,
 * the call waits for the start, however long that takes).  While the runtime
 * starts, the call's host estimate (its flops at the host's rate) is set
 * against what the start has left to go by its expectation
 * (lg_life.start_expected_s from the start's beginning):
 *  - no longer: the call runs on the host BLAS, and ends no later than the
 *    runtime would have been up to take it;
 *  - longer: it waits for the start, and runs through the runtime, but
 *    waits no longer than its host estimate: if the start is still going
 *    then, it runs on the host BLAS, and the start, later than expected, is
 *    expected to take twice the time it has taken so far.
 * So no call waits longer than the host would take, and a call runs on the
 * host only when the start has at least as long to go: a large call is
 * never sent to the host moments before the runtime is up.  The host BLAS
 * runs slower than on its own while the runtime starts (their threads share
 * the cores), so the rate is the last such call's; the first is estimated
 * at HOST_THREAD_FLOPS a thread.  TESS_THRESHOLD=0 makes every call wait. */
bool lg_runtime_call(const lg_call_t *c, bool may_defer)
{
    pthread_mutex_lock(&lg_life.lock);
    int64_t deadline = -1; /* of the call's wait for the start, once it waits */
    for (;;) {
        if (lg_life.state == LG_RT_UNTRIED) /* first, or after an application's tess_finalize */
            lg_begin_start();
        if (lg_life.state != LG_RT_STARTING)
            break;
        if (!may_defer || lg_policy.every_call) {
            wait_for_start(-1);
            continue;
        }
        double f = lg_flops(c), host_s = f / lg_life.host_rate;
        int64_t now = tess_internal_now_ns();
        double elapsed_s = (double)(now - lg_life.start_ns) * 1e-9;
        bool late = deadline >= 0 && now >= deadline;
        if (late && lg_life.start_expected_s < 2 * elapsed_s)
            lg_life.start_expected_s = 2 * elapsed_s;
        if (late || host_s <= lg_life.start_expected_s - elapsed_s) {
            if (host_run_while_starting(c, f)) {
                lg_life.gave_up += late;
                pthread_mutex_unlock(&lg_life.lock);
                return true;
            }
            may_defer = false;
            continue;
        }
        if (deadline < 0)
            deadline = now + (int64_t)((host_s < MAX_WAIT_S ? host_s : MAX_WAIT_S) * 1e9);
        wait_for_start(deadline);
    }
    atomic_store(&lg_life.in_runtime, true);
    bool done = lg_life.state == LG_RT_ON && runtime_run(c);
    atomic_store(&lg_life.in_runtime, false);
    pthread_mutex_unlock(&lg_life.lock);
    return done;
}
