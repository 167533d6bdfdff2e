/* The host LAPACK's entry points (host_lapack.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "host_blas.h"
#include "host_lapack.h"
#include "kern.h"

static host_lapack_t table;
static bool complete;

static bool fill_from(void *h)
{
    static const char *const prefix = "sdcz";
    bool all = true;
    for (int t = 0; t < 4; t++) {
        char name[] = "?potrf_";
        name[0] = prefix[t];
        all &= (*(void **)&table.potrf[t] = dlsym(h, name)) != NULL;
        memcpy(name + 1, "trtri_", 6);
        all &= (*(void **)&table.trtri[t] = dlsym(h, name)) != NULL;
        memcpy(name + 1, "lauum_", 6);
        all &= (*(void **)&table.lauum[t] = dlsym(h, name)) != NULL;
        memcpy(name + 1, "getrf_", 6);
        all &= (*(void **)&table.getrf[t] = dlsym(h, name)) != NULL;
    }
    return all;
}

static void *lib;

/* liblapack.so.3 stays open for the process's life, like the host BLAS. */
static void find_library(void)
{
    void *h = host_blas_library();
    if (h && dlsym(h, "dpotrf_")) {
        lib = h;
        return;
    }
    h = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    if (h && dlsym(h, "tess_init")) {
        dlclose(h);
        h = NULL;
    }
    lib = h;
}

void *host_lapack_library(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_library);
    return lib;
}

static void fill_table(void)
{
    void *h = host_lapack_library();
    complete = h && fill_from(h);
}

const host_lapack_t *host_lapack(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_table);
    return complete ? &table : NULL;
}

/* LAPACK's info: a failure's column becomes the global one; a negative info
 * is an argument the tile task got wrong. */
static int tile_info(int info, int64_t *out, int64_t offset)
{
    if (info < 0)
        return TESS_EINTERNAL;
    if (info > 0)
        kern_info_store(out, offset + info);
    return 0;
}

static const char *uplo_name(tess_uplo_t uplo)
{
    return uplo == TessLower ? "L" : "U";
}

int host_lapack_potrf(int t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info,
                      int64_t offset)
{
    const host_lapack_t *l = host_lapack();
    if (!l)
        return TESS_ECONFIG;
    int in = (int)n, ilda = (int)lda, i = 0;
    l->potrf[t](uplo_name(uplo), &in, A, &ilda, &i, 1);
    return tile_info(i, info, offset);
}

int host_lapack_trtri(int t, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A, int64_t lda,
                      int64_t *info, int64_t offset)
{
    const host_lapack_t *l = host_lapack();
    if (!l)
        return TESS_ECONFIG;
    int in = (int)n, ilda = (int)lda, i = 0;
    l->trtri[t](uplo_name(uplo), diag == TessUnit ? "U" : "N", &in, A, &ilda, &i, 1, 1);
    return tile_info(i, info, offset);
}

int host_lapack_lauum(int t, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)
{
    const host_lapack_t *l = host_lapack();
    if (!l)
        return TESS_ECONFIG;
    int in = (int)n, ilda = (int)lda, i = 0;
    l->lauum[t](uplo_name(uplo), &in, A, &ilda, &i, 1);
    return i ? TESS_EINTERNAL : 0;
}

/* Both parts of a complex element are zero (either sign). */
int host_lapack_diag_zero(int t, int64_t n, const void *A, int64_t lda, int64_t *info,
                          int64_t offset)
{
    for (int64_t i = 0; i < n; i++) {
        bool zero;
        if (t == 0 || t == 2) {
            const float *a = (const float *)A + (size_t)(i + i * lda) * (t == 2 ? 2 : 1);
            zero = a[0] == 0 && (t == 0 || a[1] == 0);
        } else {
            const double *a = (const double *)A + (size_t)(i + i * lda) * (t == 3 ? 2 : 1);
            zero = a[0] == 0 && (t == 1 || a[1] == 0);
        }
        if (zero)
            return tile_info((int)i + 1, info, offset);
    }
    return 0;
}

int host_lapack_getrf(int t, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                      int64_t *info, int64_t offset)
{
    const host_lapack_t *l = host_lapack();
    if (!l)
        return TESS_ECONFIG;
    int64_t mn = m < n ? m : n;
    int im = (int)m, in = (int)n, ilda = (int)lda, i = 0;
    int *piv = malloc((size_t)(mn > 0 ? mn : 1) * sizeof *piv);
    if (!piv)
        return TESS_ENOMEM;
    l->getrf[t](&im, &in, A, &ilda, piv, &i);
    for (int64_t k = 0; k < mn; k++)
        ipiv[k] = offset + piv[k];
    free(piv);
    return tile_info(i, info, offset);
}

void host_lapack_laswp(size_t es, int64_t m, int64_t n, void *A, int64_t lda, int64_t k1,
                       int64_t k2, const int64_t *ipiv, bool forward)
{
    unsigned char tmp[16];
    for (int64_t j = 0; j < n; j++) {
        char *col = (char *)A + (size_t)j * (size_t)lda * es;
        for (int64_t s = 0; s <= k2 - k1; s++) {
            int64_t i = forward ? k1 + s : k2 - s, p = ipiv[i - k1];
            if (p == i || p < 1 || p > m)
                continue;
            memcpy(tmp, col + (size_t)(i - 1) * es, es);
            memcpy(col + (size_t)(i - 1) * es, col + (size_t)(p - 1) * es, es);
            memcpy(col + (size_t)(p - 1) * es, tmp, es);
        }
    }
}
