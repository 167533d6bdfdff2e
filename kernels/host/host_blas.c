/* The host BLAS's entry points, looked up in the library itself (see
 * host_blas.h for why). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include "host_blas.h"
#include "tessera.h"

host_blas_t host_blas;

static void *lib;
static int (*get_threads)(void);
static void (*set_threads)(int);
static bool complete;

/* A Tessera library in place of the host BLAS (libblas.so.3 pointing at
 * libtessera_blas, say) would call Tessera again: it is refused. */
static void *open_blas(const char *name)
{
    void *h = name && *name ? dlopen(name, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (h && dlsym(h, "tess_init")) {
        dlclose(h);
        h = NULL;
    }
    return h;
}

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void find_library(void)
{
    const char *names[] = { getenv("TESS_BLAS_LIB"), "libopenblas.so.0", "libblas.so.3" };
    for (size_t i = 0; i < sizeof names / sizeof *names && !lib; i++)
        lib = open_blas(names[i]);
}

void *host_blas_library(void)
{
    pthread_once(&lib_once, find_library);
    return lib;
}

static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void fill_table(void)
{
    void *h = host_blas_library();
    if (!h)
        return;
    bool all = true;
#define HOST_BLAS_FIND(f) all &= (*(void **)&host_blas.f = dlsym(h, "cblas_" #f)) != NULL;
    HOST_BLAS_FUNCS(HOST_BLAS_FIND)
#undef HOST_BLAS_FIND
    *(void **)&get_threads = dlsym(h, "openblas_get_num_threads");
    *(void **)&set_threads = dlsym(h, "openblas_set_num_threads");
    complete = all;
}

int host_blas_open(void)
{
    pthread_once(&table_once, fill_table);
    return complete ? 0 : TESS_ECONFIG;
}

/* Only once host_blas_open has succeeded: a runtime on GPUs never opens the
 * host BLAS. */
int host_blas_get_threads(void)
{
    return complete && get_threads ? get_threads() : 0;
}

void host_blas_set_threads(int n)
{
    if (complete && set_threads && n > 0)
        set_threads(n);
}
