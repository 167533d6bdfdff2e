/* The host LAPACK's entry points (host_lapack.h). */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "host_blas.h"
#include "dtype.h"
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
        memcpy(name + 1, "geqrf_", 6);
        all &= (*(void **)&table.geqrf[t] = dlsym(h, name)) != NULL;
        memcpy(name + 1, t < 2 ? "ormqr_" : "unmqr_", 6);
        all &= (*(void **)&table.ormqr[t] = dlsym(h, name)) != NULL;
        memcpy(name + 1, "larft_", 6);
        all &= (*(void **)&table.larft[t] = dlsym(h, name)) != NULL;
        memcpy(name + 1, "larfb_", 6);
        all &= (*(void **)&table.larfb[t] = dlsym(h, name)) != NULL;
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
    return tile_info((int)kern_potrf_info((kern_type_t)t, n, A, lda, i), info, offset);
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

/* A complex element as two reals; -0 is zero. */
int host_lapack_any_nonzero(int t, int64_t m, int64_t n, const void *A, int64_t lda, int64_t *info,
                            int64_t offset)
{
    int64_t rows = t >= 2 ? 2 * m : m, ld = t >= 2 ? 2 * lda : lda;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < rows; i++)
            if (t == 0 || t == 2 ? ((const float *)A)[i + j * ld] != 0
                                 : ((const double *)A)[i + j * ld] != 0)
                return tile_info(1, info, offset);
    return 0;
}

int host_lapack_amax(int t, int64_t m, int64_t n, const void *A, int64_t lda, double *amax)
{
    double v = *amax;
    for (int64_t j = 0; j < n && !isnan(v); j++)
        for (int64_t i = 0; i < m; i++) {
            int64_t e = i + j * lda;
            double a = t == 0   ? fabs((double)((const float *)A)[e])
                       : t == 1 ? fabs(((const double *)A)[e])
                       : t == 2 ? cabs((double _Complex)((const float _Complex *)A)[e])
                                : cabs(((const double _Complex *)A)[e]);
            if (isnan(a) || a > v)
                v = a;
        }
    *amax = v;
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

static size_t elsize(int t)
{
    static const size_t es[4] = { 4, 8, 8, 16 };
    return es[t];
}

/* LAPACK's workspace: the size its query answered (the first element's real part). */
static void *work_alloc(int t, const void *query, int *lwork)
{
    double q = t == 0 || t == 2 ? (double)*(const float *)query : *(const double *)query;
    *lwork = q > 1 ? (int)q : 1;
    return malloc((size_t)*lwork * elsize(t));
}

int host_lapack_geqrf(int t, int64_t m, int64_t n, void *A, int64_t lda, void *tau)
{
    const host_lapack_t *l = host_lapack();
    if (!l)
        return TESS_ECONFIG;
    int im = (int)m, in = (int)n, ilda = (int)lda, lwork = -1, i = 0;
    double query[2];
    l->geqrf[t](&im, &in, A, &ilda, tau, query, &lwork, &i);
    void *work = i ? NULL : work_alloc(t, query, &lwork);
    if (!work)
        return i ? TESS_EINTERNAL : TESS_ENOMEM;
    l->geqrf[t](&im, &in, A, &ilda, tau, work, &lwork, &i);
    free(work);
    return i ? TESS_EINTERNAL : 0;
}

/* V's r x k reflectors with ones on the diagonal and zeros above it, ld r. */
static void *unit_lower_copy(int t, int64_t r, int64_t k, const void *V, int64_t ldv)
{
    size_t es = elsize(t);
    char *U = calloc((size_t)(r * k), es);
    if (!U)
        return NULL;
    for (int64_t j = 0; j < k; j++) {
        char *col = U + (size_t)(j * r) * es;
        memcpy(col + (size_t)(j + 1) * es, (const char *)V + (size_t)(j + 1 + j * ldv) * es,
               (size_t)(r - j - 1) * es);
        if (t == 0 || t == 2)
            *(float *)(col + (size_t)j * es) = 1;
        else
            *(double *)(col + (size_t)j * es) = 1;
    }
    return U;
}

int host_lapack_ormqr(int t, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n, int64_t k,
                      const void *V, int64_t ldv, const void *tau, void *C, int64_t ldc)
{
    const host_lapack_t *l = host_lapack();
    if (!l)
        return TESS_ECONFIG;
    int64_t r = side == TessLeft ? m : n;
    void *U = unit_lower_copy(t, r, k, V, ldv);
    if (!U)
        return TESS_ENOMEM;
    const char *s = side == TessLeft ? "L" : "R", *tr = trans == TessNoTrans ? "N"
                                                        : t < 2              ? "T"
                                                                             : "C";
    int im = (int)m, in = (int)n, ik = (int)k, ir = (int)r, ildc = (int)ldc, lwork = -1, i = 0;
    double query[2];
    l->ormqr[t](s, tr, &im, &in, &ik, U, &ir, tau, C, &ildc, query, &lwork, &i, 1, 1);
    void *work = i ? NULL : work_alloc(t, query, &lwork);
    if (work)
        l->ormqr[t](s, tr, &im, &in, &ik, U, &ir, tau, C, &ildc, work, &lwork, &i, 1, 1);
    int err = !work ? (i ? TESS_EINTERNAL : TESS_ENOMEM) : i ? TESS_EINTERNAL : 0;
    free(work);
    free(U);
    return err;
}

int host_lapack_larft(int t, int64_t m, int64_t k, const void *V, int64_t ldv, const void *tau,
                      void *T, int64_t ldt)
{
    const host_lapack_t *l = host_lapack();
    if (!l)
        return TESS_ECONFIG;
    int im = (int)m, ik = (int)k, ildv = (int)ldv, ildt = (int)ldt;
    l->larft[t]("F", "C", &im, &ik, V, &ildv, tau, T, &ildt, 1, 1);
    return 0;
}

int host_lapack_larfb(int t, tess_trans_t trans, int64_t m, int64_t n, int64_t k, const void *V,
                      int64_t ldv, const void *T, int64_t ldt, void *C, int64_t ldc)
{
    const host_lapack_t *l = host_lapack();
    if (!l)
        return TESS_ECONFIG;
    void *work = malloc((size_t)(n > 0 ? n : 1) * (size_t)k * elsize(t));
    if (!work)
        return TESS_ENOMEM;
    const char *tr = trans == TessNoTrans ? "N" : t < 2 ? "T" : "C";
    int im = (int)m, in = (int)n, ik = (int)k, ildv = (int)ldv, ildt = (int)ldt, ildc = (int)ldc;
    int ldw = in > 1 ? in : 1;
    l->larfb[t]("L", tr, "F", "C", &im, &in, &ik, V, &ildv, T, &ildt, C, &ildc, work, &ldw, 1, 1, 1,
                1);
    free(work);
    return 0;
}
