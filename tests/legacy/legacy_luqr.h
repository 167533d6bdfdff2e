/* What the legacy library's LU and QR tests share (test_legacy_lu.c, test_legacy_qr.c):
 * matrices kept in double complex and converted to each precision, residuals, the entry
 * points of this library and of the host LAPACK (OpenBLAS opened on its own, so that its
 * names are not this library's) on either integer width, an XERBLA that records what it
 * is given, and a runner of invalid calls. */
#ifndef TEST_LEGACY_LUQR_H
#define TEST_LEGACY_LUQR_H

#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

enum { N_SMALL = 12, N_LARGE = 300, NRHS = 5, PAD = 3 };

/* Residuals scaled by n eps and the operands' norms stay below this. */
#define BOUND 30.0

typedef double complex dc;
static const char letter[4] = { 's', 'd', 'c', 'z' };
static const size_t elsize[4] = { 4, 8, 8, 16 };
static const double eps[4] = { FLT_EPSILON, DBL_EPSILON, FLT_EPSILON, DBL_EPSILON };
static void *host_lib;

/* ---- matrices in double complex, converted to each type -------------------- */

static inline dc *mat(int64_t m, int64_t n, int64_t ld, unsigned seed, int ty)
{
    dc *a = calloc((size_t)(ld * n + 1), sizeof *a);
    srand(seed);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            a[i + j * ld] = (double)rand() / RAND_MAX - 0.5 +
                            (ty >= 2 ? I * ((double)rand() / RAND_MAX - 0.5) : 0);
    return a;
}

static inline void *to_t(int ty, const dc *a, int64_t len)
{
    void *p = calloc((size_t)len + 1, elsize[ty]);
    for (int64_t i = 0; i < len; i++)
        switch (ty) {
        case 0: ((float *)p)[i] = (float)creal(a[i]); break;
        case 1: ((double *)p)[i] = creal(a[i]); break;
        case 2: ((float complex *)p)[i] = (float complex)a[i]; break;
        default: ((dc *)p)[i] = a[i]; break;
        }
    return p;
}

static inline dc *from_t(int ty, const void *p, int64_t len)
{
    dc *a = calloc((size_t)len + 1, sizeof *a);
    for (int64_t i = 0; i < len; i++)
        switch (ty) {
        case 0: a[i] = ((const float *)p)[i]; break;
        case 1: a[i] = ((const double *)p)[i]; break;
        case 2: a[i] = ((const float complex *)p)[i]; break;
        default: a[i] = ((const dc *)p)[i]; break;
        }
    return a;
}

static inline double fnorm(const dc *a, int64_t m, int64_t n, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            s += creal(a[i + j * ld] * conj(a[i + j * ld]));
    return sqrt(s);
}

/* ||X - R||_F / (n eps ||R||_F) over m x n */
static inline double rel(int ty, const dc *x, const dc *r, int64_t m, int64_t n, int64_t ld)
{
    double d = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            d += pow(cabs(x[i + j * ld] - r[i + j * ld]), 2);
    return sqrt(d) / ((double)(m > n ? m : n) * eps[ty] * fnorm(r, m, n, ld));
}

/* op(A) X - B, A m x n, for the residuals */
static inline dc *residual(char op, const dc *a, int64_t m, int64_t n, int64_t lda, const dc *x,
                           int64_t ldx, const dc *b, int64_t ldb, int64_t nrhs)
{
    int64_t rows = op == 'N' ? m : n, inner = op == 'N' ? n : m;
    dc *r = calloc((size_t)(rows * nrhs + 1), sizeof *r);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < rows; i++) {
            dc s = -b[i + j * ldb];
            for (int64_t l = 0; l < inner; l++) {
                dc e = op == 'N' ? a[i + l * lda] : a[l + i * lda];
                s += (op == 'C' ? conj(e) : e) * x[l + j * ldx];
            }
            r[i + j * rows] = s;
        }
    return r;
}

/* ---- the entry points ------------------------------------------------------- */

/* A routine, as dlsym finds it (POSIX makes the conversion exact; ISO C has no cast). */
typedef void (*fn_t)(void);
static inline fn_t fn(void *p)
{
    fn_t f;
    memcpy(&f, &p, sizeof f);
    return f;
}

/* This library's routines, declared with no prototype that matters (each is called through
 * its own type below) and referenced, so that the program links the library. */
#define OURS(p, q, SFX)                                                                            \
    void p##getrf##SFX(void), p##getrs##SFX(void), p##gesv##SFX(void), p##laswp##SFX(void),        \
        p##geqrf##SFX(void), p##q##SFX(void), p##gels##SFX(void);
#define OURS_ROW(p, q, SFX)                                                                        \
    {                                                                                              \
        p##getrf##SFX, p##getrs##SFX, p##gesv##SFX, p##laswp##SFX, p##geqrf##SFX, p##q##SFX,       \
            p##gels##SFX                                                                           \
    }
OURS(s, ormqr, _)
OURS(d, ormqr, _)
OURS(c, unmqr, _)
OURS(z, unmqr, _)
OURS(s, ormqr, _64_)
OURS(d, ormqr, _64_)
OURS(c, unmqr, _64_)
OURS(z, unmqr, _64_)
static const char *const names[] = { "getrf", "getrs", "gesv", "laswp", "geqrf", "mqr", "gels" };
static const fn_t our_fns[2][4][7] = {
    { OURS_ROW(s, ormqr, _), OURS_ROW(d, ormqr, _), OURS_ROW(c, unmqr, _), OURS_ROW(z, unmqr, _) },
    { OURS_ROW(s, ormqr, _64_), OURS_ROW(d, ormqr, _64_), OURS_ROW(c, unmqr, _64_),
      OURS_ROW(z, unmqr, _64_) },
};

/* the routine of this library by name (ORMQR's and UNMQR's by either) */
static inline fn_t ours(int ty, const char *name, int wide)
{
    for (int i = 0; i < 7; i++)
        if (strstr(name, names[i]))
            return our_fns[wide][ty][i];
    return NULL;
}

static inline fn_t theirs(int ty, const char *name)
{
    char s[32];
    snprintf(s, sizeof s, "%c%s_", letter[ty], name);
    return fn(dlsym(host_lib, s));
}

static inline const char *qname(int ty)
{
    return ty < 2 ? "ormqr" : "unmqr";
}

/* The calls, integers of type I; INFO returned (LASWP: 0). */
#define CALLS(I, W)                                                                                \
    static inline int64_t getrf##W(fn_t f, int64_t m, int64_t n, void *A, int64_t lda, I *ipiv)    \
    {                                                                                              \
        I m_ = (I)m, n_ = (I)n, lda_ = (I)lda, info = 99;                                          \
        ((void (*)(I *, I *, void *, I *, I *, I *))f)(&m_, &n_, A, &lda_, ipiv, &info);           \
        return info;                                                                               \
    }                                                                                              \
    static inline int64_t getrs##W(fn_t f, char tr, int64_t n, int64_t nrhs, void *A, int64_t lda, \
                                   I *ipiv, void *B, int64_t ldb)                                  \
    {                                                                                              \
        I n_ = (I)n, k_ = (I)nrhs, lda_ = (I)lda, ldb_ = (I)ldb, info = 99;                        \
        ((void (*)(char *, I *, I *, void *, I *, I *, void *, I *, I *, size_t))f)(               \
            &tr, &n_, &k_, A, &lda_, ipiv, B, &ldb_, &info, 1);                                    \
        return info;                                                                               \
    }                                                                                              \
    static inline int64_t gesv##W(fn_t f, int64_t n, int64_t nrhs, void *A, int64_t lda, I *ipiv,  \
                                  void *B, int64_t ldb)                                            \
    {                                                                                              \
        I n_ = (I)n, k_ = (I)nrhs, lda_ = (I)lda, ldb_ = (I)ldb, info = 99;                        \
        ((void (*)(I *, I *, void *, I *, I *, void *, I *, I *))f)(&n_, &k_, A, &lda_, ipiv, B,   \
                                                                    &ldb_, &info);                 \
        return info;                                                                               \
    }                                                                                              \
    static inline void laswp##W(fn_t f, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2,   \
                                I *ipiv, int64_t incx)                                             \
    {                                                                                              \
        I n_ = (I)n, lda_ = (I)lda, k1_ = (I)k1, k2_ = (I)k2, inc_ = (I)incx;                      \
        ((void (*)(I *, void *, I *, I *, I *, I *, I *))f)(&n_, A, &lda_, &k1_, &k2_, ipiv,       \
                                                            &inc_);                                \
    }                                                                                              \
    static inline int64_t geqrf##W(fn_t f, int64_t m, int64_t n, void *A, int64_t lda, void *tau,  \
                                   void *work, int64_t lwork)                                      \
    {                                                                                              \
        I m_ = (I)m, n_ = (I)n, lda_ = (I)lda, lw = (I)lwork, info = 99;                           \
        ((void (*)(I *, I *, void *, I *, void *, void *, I *, I *))f)(&m_, &n_, A, &lda_, tau,    \
                                                                       work, &lw, &info);          \
        return info;                                                                               \
    }                                                                                              \
    static inline int64_t ormqr##W(fn_t f, char side, char tr, int64_t m, int64_t n, int64_t k,    \
                                   void *A, int64_t lda, void *tau, void *C, int64_t ldc,          \
                                   void *work, int64_t lwork)                                      \
    {                                                                                              \
        I m_ = (I)m, n_ = (I)n, k_ = (I)k, lda_ = (I)lda, ldc_ = (I)ldc, lw = (I)lwork;            \
        I info = 99;                                                                               \
        ((void (*)(char *, char *, I *, I *, I *, void *, I *, void *, void *, I *, void *, I *,   \
                   I *, size_t, size_t))f)(&side, &tr, &m_, &n_, &k_, A, &lda_, tau, C, &ldc_,     \
                                           work, &lw, &info, 1, 1);                                \
        return info;                                                                               \
    }                                                                                              \
    static inline int64_t gels##W(fn_t f, char tr, int64_t m, int64_t n, int64_t nrhs, void *A,    \
                                  int64_t lda, void *B, int64_t ldb, void *work, int64_t lwork)    \
    {                                                                                              \
        I m_ = (I)m, n_ = (I)n, k_ = (I)nrhs, lda_ = (I)lda, ldb_ = (I)ldb, lw = (I)lwork;         \
        I info = 99;                                                                               \
        ((void (*)(char *, I *, I *, I *, void *, I *, void *, I *, void *, I *, I *, size_t))f)(  \
            &tr, &m_, &n_, &k_, A, &lda_, B, &ldb_, work, &lw, &info, 1);                          \
        return info;                                                                               \
    }
CALLS(int32_t, 32)
CALLS(int64_t, 64)

/* ---- XERBLA, recorded -------------------------------------------------------- */

static char xname[16];
static int64_t xinfo, xcalls;

static inline void record(const char *name, int64_t info, size_t len)
{
    snprintf(xname, sizeof xname, "%.*s", (int)len, name);
    xinfo = info;
    xcalls++;
}

void xerbla_(const char *name, const int32_t *info, size_t len);
void xerbla_64_(const char *name, const int64_t *info, size_t len);
void xerbla_(const char *name, const int32_t *info, size_t len)
{
    record(name, *info, len);
}

void xerbla_64_(const char *name, const int64_t *info, size_t len)
{
    record(name, *info, len);
}

static inline int host_open(void **state)
{
    (void)state;
    host_lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    return host_lib ? 0 : -1;
}

/* ---- argument errors ---------------------------------------------------------- */

typedef struct {
    const char *rout; /* after the type letter */
    int pos;          /* LAPACK's position of the bad argument */
    char c1, c2;      /* trans (side, trans for ORMQR) */
    int64_t m, n, k, lda, ldb;
} bad_t;

/* Each call's INFO, the name XERBLA got and its position, in every precision and width;
 * nothing written. */
static inline void run_bad_calls(const bad_t *bad, size_t nbad)
{
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (size_t i = 0; i < nbad; i++) {
                const bad_t *b = &bad[i];
                double A[64] = { 0 }, B[64] = { 0 }, work[256] = { 0 };
                int64_t piv[16] = { 0 }, info = 0;
                char name[16], rout[8];
                snprintf(rout, sizeof rout, "%s", b->rout);
                if (!strcmp(rout, "ORMQR") && ty >= 2)
                    snprintf(rout, sizeof rout, "UNMQR");
                for (char *p = rout; *p; p++)
                    *p = *p == ' ' ? 0 : (char)(*p - 'A' + 'a');
                snprintf(name, sizeof name, "%c%s", letter[ty] - 'a' + 'A', b->rout);
                if (!strcmp(b->rout, "ORMQR") && ty >= 2)
                    snprintf(name, sizeof name, "%cUNMQR", letter[ty] - 'a' + 'A');
                fn_t f = ours(ty, rout, wide);
                xcalls = 0;
                int32_t p32[16] = { 0 };
                void *pv = wide ? (void *)piv : (void *)p32;
#define RUN(WD)                                                                                    \
    if (!strcmp(rout, "getrf"))                                                                    \
        info = getrf##WD(f, b->m, b->n, A, b->lda, pv);                                            \
    else if (!strcmp(rout, "getrs"))                                                               \
        info = getrs##WD(f, b->c1, b->n, b->k, A, b->lda, pv, B, b->ldb);                          \
    else if (!strcmp(rout, "gesv"))                                                                \
        info = gesv##WD(f, b->n, b->k, A, b->lda, pv, B, b->ldb);                                  \
    else if (!strcmp(rout, "geqrf"))                                                               \
        info = geqrf##WD(f, b->m, b->n, A, b->lda, B, work, 256);                                  \
    else if (!strcmp(rout, "gels"))                                                                \
        info = gels##WD(f, b->c1, b->m, b->n, b->k, A, b->lda, B, b->ldb, work, 256);              \
    else                                                                                           \
        info = ormqr##WD(f, b->c1,                                                                 \
                         b->pos == 2 && ty < 2 ? 'C'                                               \
                         : b->pos == 2         ? 'T'                                               \
                                               : b->c2,                                                    \
                         b->m, b->n, b->k, A, b->lda, B, B, b->ldb, work, 256);
                if (wide) {
                    RUN(64)
                } else {
                    RUN(32)
                }
#undef RUN
                if (info != -b->pos || xcalls != 1 || xinfo != b->pos || strcmp(xname, name))
                    fail_msg("%s (%s) position %d: INFO %lld, XERBLA %lld times with %s %lld", name,
                             wide ? "_64_" : "", b->pos, (long long)info, (long long)xcalls, xname,
                             (long long)xinfo);
                double zero[64] = { 0 };
                assert_memory_equal(A, zero, sizeof A);
            }
}

#endif
