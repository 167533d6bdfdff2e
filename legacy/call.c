/* Where a valid BLAS-3 or LAPACK call runs: on the GPU that holds its
 * operands (gpu.c), through the runtime when it is large enough (policy.c)
 * and the runtime is up (life.c, through.c), else on the host BLAS (LAPACK)
 * (host.c), as is every call while the runtime cannot run.  What differs
 * between routines is in their table (routines.c).  The library's state is
 * made on its first call. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include "host_call.h"
#include "legacy.h"
#include "life.h"
#include "policy.h"

bool lg_verbose;
atomic_bool lg_initialised;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_bool reported;

static void init(void)
{
    lg_verbose = tess_internal_env_flag("TESS_VERBOSE");
    lg_policy_init();
    lg_life_init();
    atomic_store_explicit(&lg_initialised, true, memory_order_release);
}

void lg_init_once(void)
{
    pthread_once(&init_once, init);
}

void lg_report(const char *fmt, ...)
{
    if (!lg_verbose || atomic_exchange(&reported, true))
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("tessera_blas: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

#ifndef TESS_CUDA_BACKEND
lg_gpu_t lg_gpu_run(const lg_call_t *c)
{
    (void)c;
    return LG_GPU_NOT_MINE;
}

bool lg_cuda_in_use(void)
{
    return false;
}
#endif

/* The position of the first integer argument of c beyond 32 bits, in
 * reference BLAS's numbering, for XERBLA; the first dimension when all fit
 * (no host BLAS at all).  m, n, k, lda, ldb, ldc; 0 where the routine has
 * no such argument. */
static int wide_position(const lg_call_t *c)
{
    const signed char *pos = lg_routine(c)->pos;
    int64_t v[6] = { c->m, c->n, c->k, c->lda, c->ldb, c->ldc };
    for (int i = 0; i < 6; i++)
        if (pos[i] && !lg_fits32(v[i]))
            return pos[i];
    return pos[0] ? pos[0] : pos[1];
}

/* A call whose sizes nothing here takes: the position XERBLA reports. */
static int too_wide(const lg_call_t *c)
{
    lg_report("%c%s of these sizes needs a 64-bit host BLAS (TESS_BLAS64_LIB) or the runtime, "
              "and neither is available",
              lg_type_letter(c->t), lg_routine(c)->name);
    return wide_position(c);
}

/* CUDA is asked about the operands only once it is loaded (lg_gpu_run's
 * first, cheap test), and the runtime about anything only for a call large
 * enough to go there. */
int lg_run(const lg_call_t *c)
{
    lg_init();
    lg_region_t r[3];
    int n = lg_regions(c, r);
    bool work = false; /* an output to write (GELS's X = 0 with no equations) */
    for (int i = 0; i < n; i++)
        work |= r[i].out && r[i].m > 0 && r[i].n > 0;
    if (!work)
        return 0;
    lg_gpu_t g = lg_life.in_child ? LG_GPU_NOT_MINE : lg_gpu_run(c);
    if (g != LG_GPU_NOT_MINE)
        return g == LG_GPU_RAN ? 0 : too_wide(c);
    /* from a host kernel running a tile of a call on its way (the host BLAS
     * calling its own Fortran routines): the host BLAS only, since that
     * call holds the runtime */
    bool tried = lg_wants_runtime(c) && !tess_internal_on_worker();
    if (tried && lg_runtime_call(c, true))
        return 0;
    if (lg_host_run(c))
        return 0;
    if (!tried && !tess_internal_on_worker() && lg_runtime_call(c, false))
        return 0;
    return too_wide(c);
}
