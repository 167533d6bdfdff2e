/* Where a valid BLAS-3 or LAPACK call runs, and the library's life around it.
 *
 * A call runs through the runtime when it is large enough (see the
 * thresholds below) and the runtime is up: submitted as *_async, its output
 * asked coherent, a wait for its own tasks (whose errors are the call's, not
 * the application's that may share the runtime), then every operand
 * invalidated so that the caller owns its memory again when the call
 * returns.  One call is in the runtime at a time (lg.lock): each uses every
 * device, and tess_memory_invalidate waits for all tasks, not one call's.  Anything else
 * runs on the host BLAS (LAPACK), as does every call while the runtime
 * cannot run.
 * What differs between routines is in their table (routines.c).
 *
 * The runtime starts on the first call that wants it, and only on GPUs unless
 * TESS_DEVICES names host devices (simulated devices are for testing: on a
 * machine without a GPU the host BLAS alone is faster).  On GPUs it starts on
 * a thread of its own, since the driver and the contexts take most of a
 * second: until it is up, a call the host BLAS finishes in about a quarter
 * of a second runs there and a larger one waits for it.  It stops at exit; a
 * child process of a fork uses the host BLAS only. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "legacy.h"

typedef enum { RT_UNTRIED, RT_STARTING, RT_ON, RT_OFF } rt_state_t;

/* The time a call may take on the host BLAS instead of waiting for the
 * runtime's start, and the rate per host BLAS thread that a start's first
 * such call is estimated with (double, a current server core on its own). */
#define HOST_WHILE_STARTING_S 0.25
#define HOST_THREAD_FLOPS 16e9

static struct {
    double flops[LG_NROUT]; /* the routines' flop thresholds, or TESS_THRESHOLD's */
    bool every_call;        /* TESS_THRESHOLD=0 */
    bool verbose;           /* TESS_VERBOSE */
    double host_rate;       /* flop/s of the host BLAS while the runtime starts */
    pthread_mutex_t lock;   /* the runtime: its start, one call, its stop */
    pthread_cond_t started; /* the state has left RT_STARTING */
    rt_state_t state;
    bool ours;                    /* started here, so stopped here */
    bool exit_before, exit_after; /* stop_at_exit registered before a start, after ours */
    pthread_t starter;            /* the start's thread ... */
    bool starter_joinable;        /* ... until joined */
    int64_t start_ns, on_host;    /* the start's beginning, the calls run on the host meanwhile */
    atomic_bool in_runtime;       /* a call is in runtime_run */
    atomic_bool reported;
} lg = { .lock = PTHREAD_MUTEX_INITIALIZER, .started = PTHREAD_COND_INITIALIZER };

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_bool initialised; /* init has run */

static bool lg_in_child; /* a fork's child: no runtime, no GPU */

void lg_report(const char *fmt, ...)
{
    if (!lg.verbose || atomic_exchange(&lg.reported, true))
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("tessera_blas: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- start-up, fork and exit --------------------------------------------- */

/* The child has one thread, the one that forked, which held lg.lock since
 * fork_prepare: no call was in the runtime.  The runtime's threads did not
 * come along, and a GPU context cannot be used after a fork, so the child
 * keeps to the host BLAS. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&lg.lock);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&lg.lock);
}

static void fork_child(void)
{
    lg_in_child = true;
    if (lg.state == RT_ON || lg.state == RT_STARTING) /* the start's thread stayed behind */
        lg.state = RT_OFF;
    lg.ours = false;
    pthread_mutex_unlock(&lg.lock);
}

static void init(void)
{
    lg.verbose = tess_internal_env_flag("TESS_VERBOSE");
    for (int r = 0; r < LG_NROUT; r++)
        lg.flops[r] = lg_routines[r].flops;
    const char *s = getenv("TESS_THRESHOLD");
    if (s && *s) {
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (errno || *end || !(v >= 0))
            lg_report("TESS_THRESHOLD=%s is not a flop count: the defaults apply", s);
        else if (v == 0)
            lg.every_call = true;
        else
            for (int r = 0; r < LG_NROUT; r++)
                lg.flops[r] = v;
    }
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    atomic_store_explicit(&initialised, true, memory_order_release);
}

/* Under lg.lock: the start's thread, ended, joined (so that no code of this
 * library runs on it once the library may be unloaded). */
static void join_starter(void)
{
    if (lg.starter_joinable) {
        lg.starter_joinable = false;
        pthread_join(lg.starter, NULL);
    }
}

/* Registered before the first start, for an exit during it, and again once
 * a runtime of ours (and with it the CUDA runtime, which tears itself down at
 * exit) has started, so that it runs first.  A call still in the runtime on
 * another thread keeps it: the process ends around it. */
static void stop_at_exit(void)
{
    if (atomic_load(&lg.in_runtime) ? pthread_mutex_trylock(&lg.lock)
                                    : pthread_mutex_lock(&lg.lock))
        return;
    while (lg.state == RT_STARTING)
        pthread_cond_wait(&lg.started, &lg.lock);
    join_starter();
    if (lg.state == RT_ON && lg.ours)
        tess_finalize();
    lg.state = RT_OFF;
    pthread_mutex_unlock(&lg.lock);
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

/* The start itself, without lg.lock: the state it leads to. */
static rt_state_t start_runtime(bool *ours)
{
    *ours = false;
    if (application_runtime_up())
        return RT_ON;
    if (!host_devices_named() && tess_internal_gpu_count() == 0)
        return RT_OFF;
    int err = tess_init(NULL);
    if (err == TESS_EINIT)
        return RT_ON; /* the application's own, used as it is */
    if (err) {
        lg_report("the runtime did not start (%s): the host BLAS serves every call",
                  tess_strerror(err));
        return RT_OFF;
    }
    *ours = true;
    return RT_ON;
}

/* Under lg.lock. */
static void start_done(rt_state_t state, bool ours)
{
    lg.state = state;
    lg.ours = ours;
    if (ours && !lg.exit_after)
        lg.exit_after = !atexit(stop_at_exit);
    pthread_cond_broadcast(&lg.started);
    if (lg.verbose && lg.on_host)
        fprintf(stderr,
                "tessera_blas: the runtime was %s %.3f s after the call that started it; %lld "
                "calls ran on the host BLAS meanwhile\n",
                state == RT_ON ? "up" : "off",
                (double)(tess_internal_now_ns() - lg.start_ns) * 1e-9, (long long)lg.on_host);
}

static void *start_main(void *arg)
{
    (void)arg;
    bool ours;
    rt_state_t state = start_runtime(&ours);
    pthread_mutex_lock(&lg.lock);
    start_done(state, ours);
    pthread_mutex_unlock(&lg.lock);
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

/* Under lg.lock: on the start's thread for GPUs, here for host devices
 * (which start at once), the application's runtime (up already) or where no
 * thread can be made. */
static void begin_start(void)
{
    if (lg_in_child) {
        lg.state = RT_OFF;
        return;
    }
    join_starter(); /* a start before an application's tess_finalize */
    lg.state = RT_STARTING;
    lg.start_ns = tess_internal_now_ns();
    lg.on_host = 0;
    lg.host_rate = HOST_THREAD_FLOPS * host_threads();
    if (!lg.exit_before)
        lg.exit_before = !atexit(stop_at_exit);
    bool threaded = !host_devices_named() && !application_runtime_up() &&
                    !pthread_create(&lg.starter, NULL, start_main, NULL);
    lg.starter_joinable = threaded;
    if (!threaded) {
        bool ours;
        rt_state_t state = start_runtime(&ours);
        start_done(state, ours);
    }
}

/* ---- a call's shape ----------------------------------------------------- */

/* Whether the call reads its output (so that its old value is needed to
 * redo it): LAPACK's always do. */
static bool reads_output(const lg_call_t *c)
{
    const lg_routine_t *rt = lg_routine(c);
    if (lg_is_lapack(rt->shape))
        return true;
    if (rt->shape == LG_SHAPE_TRSM || rt->shape == LG_SHAPE_TRMM) /* B in place, no beta */
        return !kern_scalar_is_zero(c->t, c->alpha);
    return !kern_scalar_is_zero(rt->real_beta ? kern_dtypes[c->t].real : c->t, c->beta);
}

/* The call's flops as if alpha were not 0 (the caller tests alpha after the
 * cheaper comparison with the threshold); inlined into the small calls'
 * path. */
static inline __attribute__((always_inline)) double flops(const lg_call_t *c)
{
    const lg_routine_t *rt = lg_routine(c);
    lg_shape_t s = rt->shape;
    if (c->k == 0 && lg_has_k(s))
        return 0;
    double m = (double)c->m, n = (double)c->n, k = (double)c->k, f = 0;
    switch (s) {
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

static bool wants_runtime(const lg_call_t *c)
{
    if (lg.every_call)
        return true;
    double f = flops(c);
    const lg_routine_t *rt = lg_routine(c);
    if (f < lg.flops[c->r] ||
        (!lg_is_lapack(rt->shape) &&
         kern_scalar_is_zero(rt->real_alpha ? kern_dtypes[c->t].real : c->t, c->alpha)))
        return false;
    lg_region_t r[3];
    int n = lg_regions(c, r);
    bool reads = reads_output(c);
    double bytes = 0;
    for (int i = 0; i < n; i++)
        bytes += (double)r[i].m * (double)r[i].n * (r[i].out && reads ? 2 : 1);
    bytes *= (double)kern_dtypes[c->t].size;
    return f >= rt->per_byte * bytes;
}

/* ---- through the runtime -------------------------------------------------- */

/* Under lg.lock, with the runtime up.  True when the call is done (or cannot
 * be redone); false when the host BLAS is to run it.  Redoing it is exact
 * when the output's old value is not needed, or when nothing reached the
 * caller's memory: only write-backs touch host memory, so an unchanged
 * write-back count says nothing did.  A call that reads its output therefore
 * asks for it only once its tasks have succeeded, so that a failure among
 * them leaves the output as it was (unless eviction wrote part of it back,
 * which the count tells); one that does not overlaps the write-back with the
 * tasks still running. */
static bool runtime_run(const lg_call_t *c)
{
    size_t es = kern_dtypes[c->t].size;
    lg_region_t r[3];
    int n = lg_regions(c, r);
    bool reads = reads_output(c);
    tess_stats_t before = { 0 }, after = { 0 };
    if (tess_get_stats(&before)) {
        /* the application has finalized the runtime it had started: the
         * next call starts one as if none had been */
        lg.state = RT_UNTRIED;
        lg.ours = false;
        return false;
    }
    /* the call's errors are its own, the application's stay the application's */
    tess_internal_scope_begin();
    int err = tess_internal_submit(c, true); /* each call gives its operands back */
    if (!err && reads)
        err = tess_internal_scope_sync();
    for (int i = 0; i < n && !err; i++)
        if (r[i].out && r[i].m > 0 && r[i].n > 0)
            err = tess_memory_coherent_async(r[i].part, r[i].m, r[i].n, r[i].p, r[i].ld, es);
    int sync_err = tess_internal_scope_sync(); /* a partial submission's tasks run out too */
    tess_internal_scope_end();
    err = err ? err : sync_err;
    bool left = false;
    for (int i = 0; i < n; i++)
        if (r[i].p && r[i].m > 0 && r[i].n > 0)
            left |= tess_memory_invalidate(r[i].m, r[i].n, r[i].p, r[i].ld, es) != 0;
    if (left) /* no device copy may outlive the call */
        tess_memory_invalidate_all();
    if (!err)
        return true;
    tess_get_stats(&after);
    if (err == TESS_EDEVICE || err == TESS_EINTERNAL)
        lg.state = RT_OFF;    /* a device that failed once is not trusted again */
    if (err == TESS_ENOTINIT) /* finalized by the application meanwhile */
        lg.state = RT_UNTRIED;
    if (!reads || after.writebacks == before.writebacks) {
        lg_report("%c%s through the runtime failed (%s): it ran on the host BLAS",
                  lg_type_letter(c->t), lg_routine(c)->name, tess_strerror(err));
        return false;
    }
    lg_report("%c%s failed on a device (%s) after part of its output was written back; the "
              "output is not valid",
              lg_type_letter(c->t), lg_routine(c)->name, tess_strerror(err));
    return true;
}

/* may_defer: the host BLAS may take the call (when it has no routine for
 * it, the call waits).  While the runtime starts, it does when the host's
 * rate says it finishes within HOST_WHILE_STARTING_S.
 * The start takes cores from the host BLAS, which then runs several times
 * slower than on its own, so the rate is the last such call's. */
static bool runtime_call(const lg_call_t *c, bool may_defer)
{
    pthread_mutex_lock(&lg.lock);
    for (;;) {
        if (lg.state == RT_UNTRIED) /* first, or after an application's tess_finalize */
            begin_start();
        if (lg.state != RT_STARTING)
            break;
        double f = flops(c);
        if (may_defer && !lg.every_call && f < HOST_WHILE_STARTING_S * lg.host_rate) {
            pthread_mutex_unlock(&lg.lock);
            int64_t t0 = tess_internal_now_ns();
            bool done = lg_host_run(c);
            double s = (double)(tess_internal_now_ns() - t0) * 1e-9;
            pthread_mutex_lock(&lg.lock);
            if (done) {
                lg.on_host++;
                lg.host_rate = s > 0 ? f / s : lg.host_rate;
                pthread_mutex_unlock(&lg.lock);
                return true;
            }
            may_defer = false;
            continue;
        }
        pthread_cond_wait(&lg.started, &lg.lock);
    }
    atomic_store(&lg.in_runtime, true);
    bool done = lg.state == RT_ON && runtime_run(c);
    atomic_store(&lg.in_runtime, false);
    pthread_mutex_unlock(&lg.lock);
    return done;
}

/* ---- on the host BLAS ----------------------------------------------------- */

/* The host's Fortran routines; integers by address, 32 or 64 bits wide as the
 * library is built, and one hidden length per character argument.  LAPACK's
 * write their INFO, of the same width. */
typedef const void *cp;
typedef void (*f_gemm)(cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t);
typedef void (*f_symm)(cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t);
typedef void (*f_syrk)(cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t);
typedef void (*f_syr2k)(cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t);
typedef void (*f_gemmt)(cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t,
                        size_t);
typedef void (*f_trxm)(cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t, size_t,
                       size_t);
typedef void (*f_potrf)(cp, cp, cp, cp, void *, size_t);
typedef void (*f_potrs)(cp, cp, cp, cp, cp, cp, cp, void *, size_t);
typedef void (*f_trtri)(cp, cp, cp, cp, cp, void *, size_t, size_t);

static lg_fn_t host_fn[2][LG_NROUT][KERN_NTYPES]; /* [ilp64][routine][type] */
static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static atomic_bool host_found;

static void find_host(void)
{
    for (int w = 0; w < 2; w++)
        for (int r = 0; r < LG_NROUT; r++)
            for (int t = 0; t < KERN_NTYPES; t++)
                for (int i = 0; i < 2 && lg_routines[r].host[i] && !host_fn[w][r][t]; i++) {
                    char name[32];
                    snprintf(name, sizeof name, "%c%s_%s", "sdcz"[t], lg_routines[r].host[i],
                             w ? "64_" : "");
                    host_fn[w][r][t] =
                        lg_fn(lg_is_lapack(lg_routines[r].shape) ? lg_host_lapack_symbol(name, w)
                                                                 : lg_host_symbol(name, w));
                }
    atomic_store_explicit(&host_found, true, memory_order_release);
}

static bool fits32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

/* GEMMT where the host BLAS has none: for each block of 64 columns, one GEMM
 * for the part of the triangle off its diagonal block, then a GEMM per column
 * of the diagonal block. */
static bool host_gemmt_by_gemm(const lg_call_t *c)
{
    size_t es = kern_dtypes[c->t].size;
    const char *a = c->A, *b = c->B;
    char *cc = c->C;
    bool upper = c->uplo == TessUpper;
    lg_call_t g = *c;
    g.r = LG_GEMM;
#define ROWS_OF_A(i) (a + (size_t)(c->ta == TessNoTrans ? (i) : (i)*c->lda) * es)
#define COLS_OF_B(j) (b + (size_t)(c->tb == TessNoTrans ? (j)*c->ldb : (j)) * es)
    for (int64_t j0 = 0; j0 < c->n; j0 += 64) {
        int64_t w = c->n - j0 < 64 ? c->n - j0 : 64, i0 = upper ? 0 : j0 + w;
        g.m = upper ? j0 : c->n - j0 - w;
        g.n = w;
        g.A = ROWS_OF_A(i0);
        g.B = COLS_OF_B(j0);
        g.C = cc + (size_t)(i0 + j0 * c->ldc) * es;
        if (g.m > 0 && !lg_host_run(&g))
            return false;
        for (int64_t j = j0; j < j0 + w; j++) {
            i0 = upper ? j0 : j;
            g.m = upper ? j - j0 + 1 : j0 + w - j;
            g.n = 1;
            g.A = ROWS_OF_A(i0);
            g.B = COLS_OF_B(j);
            g.C = cc + (size_t)(i0 + j * c->ldc) * es;
            if (!lg_host_run(&g))
                return false;
        }
    }
#undef ROWS_OF_A
#undef COLS_OF_B
    return true;
}

static const char *trans_char(tess_trans_t t)
{
    return t == TessNoTrans ? "N" : t == TessTrans ? "T" : "C";
}

/* The host routine f on the call's arguments, its integers at m ... ldc and
 * info (32 or 64 bits wide, as f takes them).  Inlined, so that a small call
 * passes its fifteen arguments on once more, not twice. */
static inline __attribute__((always_inline)) void
host_invoke(lg_fn_t f, const lg_call_t *c, const void *m, const void *n, const void *k,
            const void *lda, const void *ldb, const void *ldc, void *info)
{
    const char *side = c->side == TessLeft ? "L" : "R", *uplo = c->uplo == TessUpper ? "U" : "L";
    const char *ta = trans_char(c->ta), *tb = trans_char(c->tb);
    switch (lg_routine(c)->shape) {
    case LG_SHAPE_GEMM:
        ((f_gemm)f)(ta, tb, m, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc, 1, 1);
        break;
    case LG_SHAPE_SYMM:
        ((f_symm)f)(side, uplo, m, n, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc, 1, 1);
        break;
    case LG_SHAPE_SYRK:
        ((f_syrk)f)(uplo, ta, n, k, c->alpha, c->A, lda, c->beta, c->C, ldc, 1, 1);
        break;
    case LG_SHAPE_SYR2K:
        ((f_syr2k)f)(uplo, ta, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc, 1, 1);
        break;
    case LG_SHAPE_GEMMT:
        ((f_gemmt)f)(uplo, ta, tb, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc, 1, 1,
                     1);
        break;
    case LG_SHAPE_TRSM:
    case LG_SHAPE_TRMM:
        ((f_trxm)f)(side, uplo, ta, c->diag == TessUnit ? "U" : "N", m, n, c->alpha, c->A, lda,
                    c->C, ldc, 1, 1, 1, 1);
        break;
    case LG_SHAPE_POTRF: ((f_potrf)f)(uplo, n, c->A, lda, info, 1); break;
    case LG_SHAPE_POTRS: ((f_potrs)f)(uplo, n, k, c->A, lda, c->B, ldb, info, 1); break;
    case LG_SHAPE_TRTRI:
        ((f_trtri)f)(uplo, c->diag == TessUnit ? "U" : "N", n, c->A, lda, info, 1, 1);
        break;
    }
}

/* The host routine f on the call, its integers narrowed to 32 bits. */
static inline __attribute__((always_inline)) void host_invoke32(lg_fn_t f, const lg_call_t *c)
{
    int32_t v[6] = { (int32_t)c->m,   (int32_t)c->n,   (int32_t)c->k,
                     (int32_t)c->lda, (int32_t)c->ldb, (int32_t)c->ldc };
    int32_t info = 0;
    host_invoke(f, c, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &info);
    if (c->info)
        *c->info = info;
}

/* The 32-bit host routine when the call's sizes fit, else the 64-bit host's. */
bool lg_host_run(const lg_call_t *c)
{
    if (!atomic_load_explicit(&host_found, memory_order_acquire))
        pthread_once(&host_once, find_host);
    lg_fn_t f = host_fn[0][c->r][c->t];
    if (f && fits32(c->m) && fits32(c->n) && fits32(c->k) && fits32(c->lda) && fits32(c->ldb) &&
        fits32(c->ldc)) {
        host_invoke32(f, c);
        return true;
    }
    if ((f = host_fn[1][c->r][c->t])) {
        host_invoke(f, c, &c->m, &c->n, &c->k, &c->lda, &c->ldb, &c->ldc, c->info);
        return true;
    }
    return lg_routine(c)->shape == LG_SHAPE_GEMMT && host_gemmt_by_gemm(c);
}

/* ---- the way in ------------------------------------------------------------ */

#ifndef TESS_CUDA_BACKEND
bool lg_gpu_run(const lg_call_t *c)
{
    (void)c;
    return false;
}

bool lg_cuda_in_use(void)
{
    return false;
}
#endif

/* Whether every character argument of the routine was valid: the host gets
 * them back from their enums (an invalid one is 0, which would come back as
 * a valid letter). */
static bool letters_valid(const lg_call_t *c)
{
    switch (lg_routine(c)->shape) {
    case LG_SHAPE_GEMM: return c->ta && c->tb;
    case LG_SHAPE_SYMM: return c->side && c->uplo;
    case LG_SHAPE_TRSM:
    case LG_SHAPE_TRMM: return c->side && c->uplo && c->ta && c->diag;
    case LG_SHAPE_GEMMT: return c->uplo && c->ta && c->tb;
    case LG_SHAPE_SYRK:
    case LG_SHAPE_SYR2K: return c->uplo && c->ta;
    case LG_SHAPE_POTRF:
    case LG_SHAPE_POTRS: return c->uplo;
    case LG_SHAPE_TRTRI: return c->uplo && c->diag;
    }
    return false;
}

bool lg_run_small32(const lg_call_t *c)
{
    if (!atomic_load_explicit(&initialised, memory_order_acquire))
        pthread_once(&init_once, init);
    if (!atomic_load_explicit(&host_found, memory_order_acquire))
        pthread_once(&host_once, find_host);
    lg_fn_t f = host_fn[0][c->r][c->t];
    const lg_routine_t *rt = lg_routine(c);
    if (!f || lg.every_call || rt->two_names || !c->A || (lg_has_b(rt->shape) && !c->B) ||
        !(lg_is_lapack(rt->shape) ? (void *)c->info : c->C) || !letters_valid(c) ||
        flops(c) >= lg.flops[c->r] || lg_cuda_in_use())
        return false;
    host_invoke32(f, c);
    return true;
}

/* The position of the first integer argument of c beyond 32 bits, in
 * reference BLAS's numbering, for XERBLA; the first dimension when all fit
 * (no host BLAS at all).  m, n, k, lda, ldb, ldc; 0 where the routine has
 * no such argument. */
static int wide_position(const lg_call_t *c)
{
    const signed char *pos = lg_routine(c)->pos;
    int64_t v[6] = { c->m, c->n, c->k, c->lda, c->ldb, c->ldc };
    for (int i = 0; i < 6; i++)
        if (pos[i] && !fits32(v[i]))
            return pos[i];
    return pos[0] ? pos[0] : pos[1];
}

/* CUDA is asked about the operands only once it is loaded (lg_gpu_run's
 * first, cheap test), and the runtime about anything only for a call large
 * enough to go there. */
int lg_run(const lg_call_t *c)
{
    if (!atomic_load_explicit(&initialised, memory_order_acquire))
        pthread_once(&init_once, init);
    if (c->m == 0 || c->n == 0)
        return 0;
    if (!lg_in_child && lg_gpu_run(c))
        return 0;
    /* from a host kernel running a tile of a call on its way (the host BLAS
     * calling its own Fortran routines): the host BLAS only, since that
     * call holds the runtime */
    bool tried = wants_runtime(c) && !tess_internal_on_worker();
    if (tried && runtime_call(c, true))
        return 0;
    if (lg_host_run(c))
        return 0;
    if (!tried && !tess_internal_on_worker() && runtime_call(c, false))
        return 0;
    lg_report("%c%s of these sizes needs a 64-bit host BLAS (TESS_BLAS64_LIB) or the runtime, "
              "and neither is available",
              lg_type_letter(c->t), lg_routine(c)->name);
    return wide_position(c);
}
