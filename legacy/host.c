/* The host BLAS (TESS_BLAS_LIB, the system's OpenBLAS) and its 64-bit-integer
 * build, from which the BLAS-3 calls that stay on the host (call.c) and the
 * forwarded routines (forward.c) are taken, and the host LAPACK, the
 * runtime's (kernels/host/host_lapack.h), for LAPACK's calls.  The 64-bit one is
 * TESS_BLAS64_LIB, else libopenblas64_.so.0 or Debian's libopenblas64.so.0,
 * opened with RTLD_LOCAL and read with dlsym on its own handle, so that a
 * name always means the host's definition, never Tessera's. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
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
