/* The host BLAS (TESS_BLAS_LIB, the system's OpenBLAS) and its 64-bit-integer
 * build, from which the BLAS-3 calls that stay on the host (lg_host_run) and the
 * forwarded routines (forward.c) are taken, and the host LAPACK, the
 * runtime's (kernels/host/host_lapack.h), for LAPACK's calls.  The 64-bit one is
 * TESS_BLAS64_LIB, else libopenblas64_.so.0 or Debian's libopenblas64.so.0,
 * opened with RTLD_LOCAL and read with dlsym on its own handle, so that a
 * name always means the host's definition, never Tessera's. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host_call.h"
#include "legacy.h"

static void *h64;

static pthread_once_t h64_once = PTHREAD_ONCE_INIT;

static void open64(void)
{
    const char *names[] = { getenv("TESS_BLAS64_LIB"), "libopenblas64_.so.0",
                            "libopenblas64.so.0" };
    for (size_t i = 0; i < sizeof names / sizeof *names && !h64; i++) {
        if (!names[i] || !*names[i])
            continue;
        h64 = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h64 && dlsym(h64, "tess_init")) {
            dlclose(h64);
            h64 = NULL;
        }
    }
}

/* OpenBLAS's 64-bit builds name their routines dgemm_64_ and cblas_dgemm64_
 * (libopenblas64_.so.0) or keep the plain names (Debian's libopenblas64.so.0):
 * a 64-bit name is looked for both ways there. */
void *lg_host_symbol(const char *name, bool ilp64)
{
    if (!ilp64) {
        void *h = tess_internal_host_blas();
        return h ? dlsym(h, name) : NULL;
    }
    pthread_once(&h64_once, open64);
    if (!h64)
        return NULL;
    void *p = dlsym(h64, name);
    size_t len = strlen(name);
    char plain[64];
    /* dgemm_64_ -> dgemm_, cblas_dgemm64_ -> cblas_dgemm */
    if (!p && len > 3 && len < sizeof plain && !strcmp(name + len - 3, "64_")) {
        memcpy(plain, name, len - 3);
        plain[len - 3] = 0;
        p = dlsym(h64, plain);
    }
    return p;
}

/* OpenBLAS's 64-bit builds hold LAPACK as well. */
void *lg_host_lapack_symbol(const char *name, bool ilp64)
{
    if (ilp64)
        return lg_host_symbol(name, true);
    void *h = tess_internal_host_lapack();
    return h ? dlsym(h, name) : NULL;
}

lg_fn_t lg_host_fns[2][LG_NROUT][KERN_NTYPES];
atomic_bool lg_host_found;
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

static void find_host(void)
{
    for (int w = 0; w < 2; w++)
        for (int r = 0; r < LG_NROUT; r++)
            for (int t = 0; t < KERN_NTYPES; t++)
                for (int i = 0; i < 2 && lg_routines[r].host[i] && !lg_host_fns[w][r][t]; i++) {
                    char name[32];
                    snprintf(name, sizeof name, "%c%s_%s", "sdcz"[t], lg_routines[r].host[i],
                             w ? "64_" : "");
                    lg_host_fns[w][r][t] =
                        lg_fn(lg_is_lapack(lg_routines[r].shape) ? lg_host_lapack_symbol(name, w)
                                                                 : lg_host_symbol(name, w));
                }
    atomic_store_explicit(&lg_host_found, true, memory_order_release);
}

void lg_host_find_once(void)
{
    pthread_once(&host_once, find_host);
}

/* The 32-bit host routine of a BLAS or Cholesky call when its sizes fit, else the 64-bit
 * host's; NULL when neither takes it. */
static lg_fn_t blas_fn(const lg_call_t *c, bool *wide)
{
    lg_fn_t f = lg_host_fns[0][c->r][c->t];
    *wide = !(f && lg_fits32(c->m) && lg_fits32(c->n) && lg_fits32(c->k) && lg_fits32(c->lda) &&
              lg_fits32(c->ldb) && lg_fits32(c->ldc));
    return *wide ? lg_host_fns[1][c->r][c->t] : f;
}

static bool is_luqr(const lg_call_t *c)
{
    return !lg_is_cholesky(lg_routine(c)->shape) && lg_is_lapack(lg_routine(c)->shape);
}

bool lg_host_takes(const lg_call_t *c)
{
    lg_host_find();
    if (is_luqr(c))
        return lg_host_luqr_takes(c);
    bool wide;
    if (blas_fn(c, &wide))
        return true;
    lg_call_t g = *c; /* GEMMT by GEMMs of its sizes */
    g.r = LG_GEMM;
    return lg_routine(c)->shape == LG_SHAPE_GEMMT && blas_fn(&g, &wide);
}

bool lg_host_run(const lg_call_t *c)
{
    lg_host_find();
    if (is_luqr(c))
        return lg_host_luqr(c);
    bool wide;
    lg_fn_t f = blas_fn(c, &wide);
    if (!f)
        return lg_routine(c)->shape == LG_SHAPE_GEMMT && lg_host_gemmt_by_gemm(c);
    if (!wide) {
        lg_host_invoke32(f, c);
        return true;
    }
    lg_host_invoke(f, c, &c->m, &c->n, &c->k, &c->lda, &c->ldb, &c->ldc, c->info);
    if (c->info)
        *c->info = lg_host_info(c, *c->info);
    return true;
}
