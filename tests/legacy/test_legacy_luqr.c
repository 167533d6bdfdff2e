/* LAPACK's LU and QR through the legacy library, as a Fortran program calls
 * them: ?getrf_, ?getrs_, ?gesv_, ?laswp_, ?geqrf_, ?ormqr_/?unmqr_, ?gels_
 * and their _64_ twins, in every precision, below the threshold (the host
 * LAPACK serves them) and above it (the runtime does).  References are the
 * host LAPACK's (OpenBLAS opened on its own): its GETRF, GETRS, GESV and
 * LASWP are its own code; its GEQRF, ORMQR and GELS are netlib's, whose
 * BLAS-3 calls reach this library by their exported names (tested by the
 * netlib testers on their own), so QR is also checked by residuals that need
 * no reference.  Also: INFO of singular and rank-deficient matrices, XERBLA's
 * name and position for invalid arguments, and workspace queries.  meson
 * runs this with TESS_THRESHOLD=1e6 on two host devices (N_SMALL on the host,
 * N_LARGE through the runtime), and with TESS_THRESHOLD=0 and the tiles each
 * call picks. */
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

static dc *mat(int64_t m, int64_t n, int64_t ld, unsigned seed, int ty)
{
    dc *a = calloc((size_t)(ld * n + 1), sizeof *a);
    srand(seed);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            a[i + j * ld] = (double)rand() / RAND_MAX - 0.5 +
                            (ty >= 2 ? I * ((double)rand() / RAND_MAX - 0.5) : 0);
    return a;
}

static void *to_t(int ty, const dc *a, int64_t len)
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

static dc *from_t(int ty, const void *p, int64_t len)
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

static double fnorm(const dc *a, int64_t m, int64_t n, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            s += creal(a[i + j * ld] * conj(a[i + j * ld]));
    return sqrt(s);
}

/* ||X - R||_F / (n eps ||R||_F) over m x n */
static double rel(int ty, const dc *x, const dc *r, int64_t m, int64_t n, int64_t ld)
{
    double d = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            d += pow(cabs(x[i + j * ld] - r[i + j * ld]), 2);
    return sqrt(d) / ((double)(m > n ? m : n) * eps[ty] * fnorm(r, m, n, ld));
}

/* op(A) X - B, A m x n, for the residuals */
static dc *residual(char op, const dc *a, int64_t m, int64_t n, int64_t lda, const dc *x,
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
static fn_t fn(void *p)
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
static fn_t ours(int ty, const char *name, int wide)
{
    for (int i = 0; i < 7; i++)
        if (strstr(name, names[i]))
            return our_fns[wide][ty][i];
    return NULL;
}

static fn_t theirs(int ty, const char *name)
{
    char s[32];
    snprintf(s, sizeof s, "%c%s_", letter[ty], name);
    return fn(dlsym(host_lib, s));
}

static const char *qname(int ty)
{
    return ty < 2 ? "ormqr" : "unmqr";
}

/* The calls, integers of type I; INFO returned (LASWP: 0). */
#define CALLS(I, W)                                                                                \
    static int64_t getrf##W(fn_t f, int64_t m, int64_t n, void *A, int64_t lda, I *ipiv)           \
    {                                                                                              \
        I m_ = (I)m, n_ = (I)n, lda_ = (I)lda, info = 99;                                          \
        ((void (*)(I *, I *, void *, I *, I *, I *))f)(&m_, &n_, A, &lda_, ipiv, &info);           \
        return info;                                                                               \
    }                                                                                              \
    static int64_t getrs##W(fn_t f, char tr, int64_t n, int64_t nrhs, void *A, int64_t lda,        \
                            I *ipiv, void *B, int64_t ldb)                                         \
    {                                                                                              \
        I n_ = (I)n, k_ = (I)nrhs, lda_ = (I)lda, ldb_ = (I)ldb, info = 99;                        \
        ((void (*)(char *, I *, I *, void *, I *, I *, void *, I *, I *, size_t))f)(               \
            &tr, &n_, &k_, A, &lda_, ipiv, B, &ldb_, &info, 1);                                    \
        return info;                                                                               \
    }                                                                                              \
    static int64_t gesv##W(fn_t f, int64_t n, int64_t nrhs, void *A, int64_t lda, I *ipiv,         \
                           void *B, int64_t ldb)                                                   \
    {                                                                                              \
        I n_ = (I)n, k_ = (I)nrhs, lda_ = (I)lda, ldb_ = (I)ldb, info = 99;                        \
        ((void (*)(I *, I *, void *, I *, I *, void *, I *, I *))f)(&n_, &k_, A, &lda_, ipiv, B,   \
                                                                    &ldb_, &info);                 \
        return info;                                                                               \
    }                                                                                              \
    static void laswp##W(fn_t f, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2, I *ipiv, \
                         int64_t incx)                                                             \
    {                                                                                              \
        I n_ = (I)n, lda_ = (I)lda, k1_ = (I)k1, k2_ = (I)k2, inc_ = (I)incx;                      \
        ((void (*)(I *, void *, I *, I *, I *, I *, I *))f)(&n_, A, &lda_, &k1_, &k2_, ipiv,       \
                                                            &inc_);                                \
    }                                                                                              \
    static int64_t geqrf##W(fn_t f, int64_t m, int64_t n, void *A, int64_t lda, void *tau,         \
                            void *work, int64_t lwork)                                             \
    {                                                                                              \
        I m_ = (I)m, n_ = (I)n, lda_ = (I)lda, lw = (I)lwork, info = 99;                           \
        ((void (*)(I *, I *, void *, I *, void *, void *, I *, I *))f)(&m_, &n_, A, &lda_, tau,    \
                                                                       work, &lw, &info);          \
        return info;                                                                               \
    }                                                                                              \
    static int64_t ormqr##W(fn_t f, char side, char tr, int64_t m, int64_t n, int64_t k, void *A,  \
                            int64_t lda, void *tau, void *C, int64_t ldc, void *work,              \
                            int64_t lwork)                                                         \
    {                                                                                              \
        I m_ = (I)m, n_ = (I)n, k_ = (I)k, lda_ = (I)lda, ldc_ = (I)ldc, lw = (I)lwork;            \
        I info = 99;                                                                               \
        ((void (*)(char *, char *, I *, I *, I *, void *, I *, void *, void *, I *, void *, I *,   \
                   I *, size_t, size_t))f)(&side, &tr, &m_, &n_, &k_, A, &lda_, tau, C, &ldc_,     \
                                           work, &lw, &info, 1, 1);                                \
        return info;                                                                               \
    }                                                                                              \
    static int64_t gels##W(fn_t f, char tr, int64_t m, int64_t n, int64_t nrhs, void *A,           \
                           int64_t lda, void *B, int64_t ldb, void *work, int64_t lwork)           \
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

static void record(const char *name, int64_t info, size_t len)
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

static int host_open(void **state)
{
    (void)state;
    host_lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    return host_lib ? 0 : -1;
}

/* ---- LU ---------------------------------------------------------------------- */

/* One LU call of ours on the integer width asked for; pivots come back 64 bits wide. */
static int64_t our_getrf(int ty, int wide, int64_t m, int64_t n, void *A, int64_t lda,
                         int64_t *ipiv)
{
    int64_t mn = m < n ? m : n, info;
    if (wide)
        return getrf64(ours(ty, "getrf", 1), m, n, A, lda, ipiv);
    int32_t *p = calloc((size_t)mn + 1, sizeof *p);
    info = getrf32(ours(ty, "getrf", 0), m, n, A, lda, p);
    for (int64_t i = 0; i < mn; i++)
        ipiv[i] = p[i];
    free(p);
    return info;
}

static int64_t our_getrs(int ty, int wide, char tr, int64_t n, int64_t nrhs, void *A, int64_t lda,
                         const int64_t *ipiv, void *B, int64_t ldb)
{
    if (wide)
        return getrs64(ours(ty, "getrs", 1), tr, n, nrhs, A, lda, (int64_t *)ipiv, B, ldb);
    int32_t *p = calloc((size_t)n + 1, sizeof *p);
    for (int64_t i = 0; i < n; i++)
        p[i] = (int32_t)ipiv[i];
    int64_t info = getrs32(ours(ty, "getrs", 0), tr, n, nrhs, A, lda, p, B, ldb);
    free(p);
    return info;
}

static int64_t our_gesv(int ty, int wide, int64_t n, int64_t nrhs, void *A, int64_t lda,
                        int64_t *ipiv, void *B, int64_t ldb)
{
    if (wide)
        return gesv64(ours(ty, "gesv", 1), n, nrhs, A, lda, ipiv, B, ldb);
    int32_t *p = calloc((size_t)n + 1, sizeof *p);
    int64_t info = gesv32(ours(ty, "gesv", 0), n, nrhs, A, lda, p, B, ldb);
    for (int64_t i = 0; i < n; i++)
        ipiv[i] = p[i];
    free(p);
    return info;
}

/* ||op(A) X - B||_F / (n eps ||A||_F ||X||_F) */
static double solve_residual(int ty, char op, const dc *a, int64_t m, int64_t n, int64_t lda,
                             const void *x, int64_t ldx, const dc *b, int64_t ldb, int64_t nrhs)
{
    int64_t rows = op == 'N' ? n : m;
    dc *xx = from_t(ty, x, ldx * nrhs);
    dc *r = residual(op, a, m, n, lda, xx, ldx, b, ldb, nrhs);
    double v =
        fnorm(r, op == 'N' ? m : n, nrhs, op == 'N' ? m : n) /
        ((double)(m > n ? m : n) * eps[ty] * fnorm(a, m, n, lda) * fnorm(xx, rows, nrhs, ldx));
    free(xx);
    free(r);
    return v;
}

static void lu_solves_and_pivots_match_the_host_lapack_in_every_precision_and_width(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 2; s++) {
                int64_t n = s ? N_LARGE : N_SMALL, lda = n + PAD, ldb = n + PAD;
                dc *a = mat(n, n, lda, 7u + (unsigned)n, ty), *b = mat(n, NRHS, ldb, 3, ty);
                void *A = to_t(ty, a, lda * n), *H = to_t(ty, a, lda * n);
                int64_t *ipiv = calloc((size_t)n, sizeof *ipiv);
                int32_t *hp = calloc((size_t)n, sizeof *hp);
                assert_int_equal(our_getrf(ty, wide, n, n, A, lda, ipiv), 0);
                assert_int_equal(getrf32(theirs(ty, "getrf"), n, n, H, lda, hp), 0);
                for (int64_t i = 0; i < n; i++)
                    assert_int_equal(ipiv[i], hp[i]);
                const char ops[] = { 'N', 'T', 'C' };
                for (int o = 0; o < 3; o++) {
                    void *B = to_t(ty, b, ldb * NRHS);
                    assert_int_equal(our_getrs(ty, wide, ops[o], n, NRHS, A, lda, ipiv, B, ldb), 0);
                    double r = solve_residual(ty, ops[o], a, n, n, lda, B, ldb, b, ldb, NRHS);
                    if (!(r <= BOUND))
                        fail_msg("%cgetrs%s %c n=%lld: residual %g", letter[ty], wide ? "_64_" : "",
                                 ops[o], (long long)n, r);
                    free(B);
                }
                void *G = to_t(ty, a, lda * n), *B = to_t(ty, b, ldb * NRHS);
                int64_t *gp = calloc((size_t)n, sizeof *gp);
                assert_int_equal(our_gesv(ty, wide, n, NRHS, G, lda, gp, B, ldb), 0);
                assert_memory_equal(gp, ipiv, (size_t)n * sizeof *gp);
                double r = solve_residual(ty, 'N', a, n, n, lda, B, ldb, b, ldb, NRHS);
                if (!(r <= BOUND))
                    fail_msg("%cgesv n=%lld: residual %g", letter[ty], (long long)n, r);
                free(a), free(b), free(A), free(H), free(G), free(B), free(ipiv), free(hp),
                    free(gp);
            }
}

/* GETRF finishes the factorization and reports the first zero pivot; GESV leaves B as it was. */
static void a_singular_matrix_gives_info_at_its_first_zero_column_and_gesv_leaves_b(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 2; s++) {
                int64_t n = s ? N_LARGE : N_SMALL, lda = n + PAD, col = s ? 200 : 5;
                dc *a = mat(n, n, lda, 11, ty), *b = mat(n, NRHS, lda, 5, ty);
                for (int64_t i = 0; i < n; i++)
                    a[i + (col - 1) * lda] = 0;
                void *A = to_t(ty, a, lda * n), *B = to_t(ty, b, lda * NRHS);
                void *B0 = to_t(ty, b, lda * NRHS);
                int64_t *ipiv = calloc((size_t)n, sizeof *ipiv);
                assert_int_equal(our_getrf(ty, wide, n, n, A, lda, ipiv), col);
                free(A);
                A = to_t(ty, a, lda * n);
                assert_int_equal(our_gesv(ty, wide, n, NRHS, A, lda, ipiv, B, lda), col);
                assert_memory_equal(B, B0, (size_t)(lda * NRHS) * elsize[ty]);
                free(a), free(b), free(A), free(B), free(B0), free(ipiv);
            }
}

/* Pivots are the caller's memory: new ones at the same address (a factorization made
 * elsewhere, here the host LAPACK's) are the ones the next call reads. */
static void getrs_reads_the_pivots_the_caller_holds_now(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++) {
            int64_t n = N_SMALL + 20, lda = n, ldb = n;
            dc *a1 = mat(n, n, lda, 53, ty), *a2 = mat(n, n, lda, 59, ty);
            dc *b = mat(n, NRHS, ldb, 61, ty);
            void *A = to_t(ty, a1, lda * n), *B = to_t(ty, b, ldb * NRHS);
            int64_t *ipiv = calloc((size_t)n, sizeof *ipiv);
            int32_t *hp = calloc((size_t)n, sizeof *hp);
            assert_int_equal(our_getrf(ty, wide, n, n, A, lda, ipiv), 0);
            assert_int_equal(our_getrs(ty, wide, 'N', n, NRHS, A, lda, ipiv, B, ldb), 0);
            free(A), free(B);
            A = to_t(ty, a2, lda * n);
            B = to_t(ty, b, ldb * NRHS);
            assert_int_equal(getrf32(theirs(ty, "getrf"), n, n, A, lda, hp), 0);
            for (int64_t i = 0; i < n; i++)
                ipiv[i] = hp[i];
            assert_int_equal(our_getrs(ty, wide, 'N', n, NRHS, A, lda, ipiv, B, ldb), 0);
            double r = solve_residual(ty, 'N', a2, n, n, lda, B, ldb, b, ldb, NRHS);
            if (!(r <= BOUND))
                fail_msg("%cgetrs with new pivots: residual %g", letter[ty], r);
            free(a1), free(a2), free(b), free(A), free(B), free(ipiv), free(hp);
        }
}

/* LASWP forward, backward and with a stride, as the host's (the same rows moved: exact). */
static void laswp_moves_the_rows_the_host_lapack_moves(void **state)
{
    (void)state;
    int64_t m = 40, n = 7, lda = m + PAD;
    const int64_t inc[] = { 1, -1, 2, -2 };
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int i = 0; i < 4; i++) {
                int64_t k1 = 3, k2 = 17, cnt = k1 + (k2 - k1) * 2;
                dc *a = mat(m, n, lda, 13, ty);
                void *A = to_t(ty, a, lda * n), *H = to_t(ty, a, lda * n);
                int32_t p32[64];
                int64_t p64[64];
                srand(17);
                for (int64_t j = 0; j < cnt; j++)
                    p64[j] = p32[j] = 1 + rand() % (int)m;
                if (wide)
                    laswp64(ours(ty, "laswp", 1), n, A, lda, k1, k2, p64, inc[i]);
                else
                    laswp32(ours(ty, "laswp", 0), n, A, lda, k1, k2, p32, inc[i]);
                laswp32(theirs(ty, "laswp"), n, H, lda, k1, k2, p32, inc[i]);
                assert_memory_equal(A, H, (size_t)(lda * n) * elsize[ty]);
                free(a), free(A), free(H);
            }
}

/* ---- QR ---------------------------------------------------------------------- */

static int64_t work_value(int ty, const void *w)
{
    if (ty == 0 || ty == 2) {
        float f;
        memcpy(&f, w, sizeof f);
        return (int64_t)f;
    }
    double d;
    memcpy(&d, w, sizeof d);
    return (int64_t)d;
}

/* The host's answer to GEQRF's workspace query. */
static int64_t host_lwork_geqrf(int ty, int64_t m, int64_t n, int64_t lda)
{
    double w[2] = { 0 };
    geqrf32(theirs(ty, "geqrf"), m, n, NULL, lda, NULL, w, -1);
    return work_value(ty, w);
}

static int64_t our_geqrf(int ty, int wide, int64_t m, int64_t n, void *A, int64_t lda, void *tau)
{
    int64_t lw = n * 64 + 1;
    void *w = calloc((size_t)lw, elsize[ty]);
    int64_t info = wide ? geqrf64(ours(ty, "geqrf", 1), m, n, A, lda, tau, w, lw)
                        : geqrf32(ours(ty, "geqrf", 0), m, n, A, lda, tau, w, lw);
    free(w);
    return info;
}

/* GEQRF's A and tau as the host's, Q R = A with Q formed by the host's ORMQR from ours,
 * and ORMQR on either side as the host's on the same factors; tall and wide. */
static void qr_factors_and_products_match_the_host_lapack(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 3; s++) {
                int64_t n = s == 1 ? N_LARGE : N_SMALL, m = s == 2 ? n - 5 : n + 7;
                int64_t lda = m + PAD, mn = m < n ? m : n, lw = (m + n) * 64;
                dc *a = mat(m, n, lda, 19, ty);
                void *A = to_t(ty, a, lda * n), *H = to_t(ty, a, lda * n);
                void *tau = calloc((size_t)mn + 1, elsize[ty]),
                     *htau = calloc((size_t)mn + 1, elsize[ty]);
                void *w = calloc((size_t)lw, elsize[ty]);
                assert_int_equal(our_geqrf(ty, wide, m, n, A, lda, tau), 0);
                assert_int_equal(geqrf32(theirs(ty, "geqrf"), m, n, H, lda, htau, w, lw), 0);
                dc *x = from_t(ty, A, lda * n), *r = from_t(ty, H, lda * n);
                double e = rel(ty, x, r, m, n, lda);
                dc *xt = from_t(ty, tau, mn), *rt = from_t(ty, htau, mn);
                double et = rel(ty, xt, rt, 1, mn, 1);
                if (!(e <= BOUND && et <= BOUND))
                    fail_msg("%cgeqrf %lldx%lld: A %g, tau %g", letter[ty], (long long)m,
                             (long long)n, e, et);
                /* C = Q^H C and C Q with our ORMQR on our factors, against the host's */
                const char side[] = { 'L', 'R' }, tr[] = { ty < 2 ? 'T' : 'C', 'N' };
                for (int v = 0; v < 2; v++) {
                    int64_t cm = side[v] == 'L' ? m : NRHS, cn = side[v] == 'L' ? NRHS : m;
                    int64_t ldc = cm + PAD;
                    dc *c = mat(cm, cn, ldc, 23, ty);
                    void *C = to_t(ty, c, ldc * cn), *HC = to_t(ty, c, ldc * cn);
                    fn_t f = ours(ty, qname(ty), wide);
                    int64_t info =
                        wide ? ormqr64(f, side[v], tr[v], cm, cn, mn, A, lda, tau, C, ldc, w, lw)
                             : ormqr32(f, side[v], tr[v], cm, cn, mn, A, lda, tau, C, ldc, w, lw);
                    assert_int_equal(info, 0);
                    assert_int_equal(ormqr32(theirs(ty, qname(ty)), side[v], tr[v], cm, cn, mn, A,
                                             lda, tau, HC, ldc, w, lw),
                                     0);
                    dc *cx = from_t(ty, C, ldc * cn), *cr = from_t(ty, HC, ldc * cn);
                    double ec = rel(ty, cx, cr, cm, cn, ldc);
                    if (!(ec <= BOUND))
                        fail_msg("%c%s %c%c: %g", letter[ty], qname(ty), side[v], tr[v], ec);
                    free(c), free(C), free(HC), free(cx), free(cr);
                }
                free(a), free(A), free(H), free(tau), free(htau), free(w), free(x), free(r),
                    free(xt), free(rt);
            }
}

/* GELS: the least-squares residual orthogonal to op(A)'s columns (tall, both trans), and
 * the minimum-norm solution of a wide system solves it; X as the host's. */
static void gels_solves_least_squares_and_minimum_norm_problems(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 3; s++)
                for (int o = 0; o < 2; o++) {
                    int64_t n = s == 1 ? N_LARGE : N_SMALL, m = s == 2 ? n - 5 : n + 7;
                    int64_t lda = m + PAD, ldb = (m > n ? m : n) + PAD, lw = (m + n) * 64 + NRHS;
                    char op = o ? (ty < 2 ? 'T' : 'C') : 'N';
                    int64_t rows = o ? n : m, cols = o ? m : n; /* op(A) is rows x cols */
                    dc *a = mat(m, n, lda, 29, ty), *b = mat(rows, NRHS, ldb, 31, ty);
                    void *A = to_t(ty, a, lda * n), *B = to_t(ty, b, ldb * NRHS);
                    void *HA = to_t(ty, a, lda * n), *HB = to_t(ty, b, ldb * NRHS);
                    void *w = calloc((size_t)lw, elsize[ty]);
                    fn_t f = ours(ty, "gels", wide);
                    int64_t info = wide ? gels64(f, op, m, n, NRHS, A, lda, B, ldb, w, lw)
                                        : gels32(f, op, m, n, NRHS, A, lda, B, ldb, w, lw);
                    assert_int_equal(info, 0);
                    assert_int_equal(
                        gels32(theirs(ty, "gels"), op, m, n, NRHS, HA, lda, HB, ldb, w, lw), 0);
                    dc *x = from_t(ty, B, ldb * NRHS), *hx = from_t(ty, HB, ldb * NRHS);
                    double e = rel(ty, x, hx, cols, NRHS, ldb);
                    /* op(A)^H (op(A) X - B) = 0 */
                    dc *r = residual(op, a, m, n, lda, x, ldb, b, ldb, NRHS);
                    char back = op == 'N' ? 'C' : 'N';
                    dc *z = calloc((size_t)(cols * NRHS), sizeof *z);
                    dc *g = residual(back, a, m, n, lda, r, rows, z, cols, NRHS);
                    double an = fnorm(a, m, n, lda);
                    double orth = fnorm(g, cols, NRHS, cols) /
                                  ((double)m * eps[ty] * an *
                                   (an * fnorm(x, cols, NRHS, ldb) + fnorm(b, rows, NRHS, ldb)));
                    if (!(e <= 100 * BOUND && orth <= BOUND))
                        fail_msg("%cgels %c %lldx%lld: X %g, orthogonality %g", letter[ty], op,
                                 (long long)m, (long long)n, e, orth);
                    free(a), free(b), free(A), free(B), free(HA), free(HB), free(w), free(x),
                        free(hx), free(r), free(z), free(g);
                }
}

/* A zero column makes R singular: GELS reports it as LAPACK does. */
static void gels_of_a_rank_deficient_matrix_gives_info(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (int s = 0; s < 2; s++) {
                int64_t n = s ? N_LARGE : N_SMALL, m = n + 7, lda = m, col = s ? 150 : 4;
                int64_t lw = (m + n) * 64 + NRHS;
                dc *a = mat(m, n, lda, 37, ty), *b = mat(m, NRHS, m, 41, ty);
                for (int64_t i = 0; i < m; i++)
                    a[i + (col - 1) * lda] = 0;
                void *A = to_t(ty, a, lda * n), *B = to_t(ty, b, m * NRHS);
                void *w = calloc((size_t)lw, elsize[ty]);
                fn_t f = ours(ty, "gels", wide);
                int64_t info = wide ? gels64(f, 'N', m, n, NRHS, A, lda, B, m, w, lw)
                                    : gels32(f, 'N', m, n, NRHS, A, lda, B, m, w, lw);
                assert_int_equal(info, col);
                free(a), free(b), free(A), free(B), free(w);
            }
}

/* lwork = -1: WORK(1) is the host LAPACK's answer, INFO 0, nothing else done; too small an
 * lwork is refused at LAPACK's position. */
static void workspace_queries_are_answered_and_a_short_workspace_refused(void **state)
{
    (void)state;
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++) {
            int64_t m = 50, n = 30, lda = m;
            double w[2] = { 0 }, h[2] = { 0 };
            xcalls = 0;
            assert_int_equal(wide ? geqrf64(ours(ty, "geqrf", 1), m, n, NULL, lda, NULL, w, -1)
                                  : geqrf32(ours(ty, "geqrf", 0), m, n, NULL, lda, NULL, w, -1),
                             0);
            assert_int_equal(work_value(ty, w), host_lwork_geqrf(ty, m, n, lda));
            fn_t f = ours(ty, qname(ty), wide), hf = theirs(ty, qname(ty));
            assert_int_equal(wide ? ormqr64(f, 'L', 'N', m, 8, n, NULL, lda, NULL, NULL, m, w, -1)
                                  : ormqr32(f, 'L', 'N', m, 8, n, NULL, lda, NULL, NULL, m, w, -1),
                             0);
            ormqr32(hf, 'L', 'N', m, 8, n, NULL, lda, NULL, NULL, m, h, -1);
            assert_int_equal(work_value(ty, w), work_value(ty, h));
            f = ours(ty, "gels", wide);
            assert_int_equal(wide ? gels64(f, 'N', m, n, 8, NULL, lda, NULL, m, w, -1)
                                  : gels32(f, 'N', m, n, 8, NULL, lda, NULL, m, w, -1),
                             0);
            gels32(theirs(ty, "gels"), 'N', m, n, 8, NULL, lda, NULL, m, h, -1);
            assert_int_equal(work_value(ty, w), work_value(ty, h));
            assert_int_equal(xcalls, 0);
            /* short: GEQRF needs n, ORMQR (Left) n's of C, GELS min(m, n) + max(min, nrhs) */
            dc *a = mat(m, n, lda, 43, ty);
            void *A = to_t(ty, a, lda * n), *T = calloc((size_t)n, elsize[ty]);
            void *C = calloc((size_t)(m * 8), elsize[ty]), *ws = calloc(64, elsize[ty]);
            assert_int_equal(wide ? geqrf64(ours(ty, "geqrf", 1), m, n, A, lda, T, ws, n - 1)
                                  : geqrf32(ours(ty, "geqrf", 0), m, n, A, lda, T, ws, n - 1),
                             -7);
            assert_int_equal(xinfo, 7);
            f = ours(ty, qname(ty), wide);
            assert_int_equal(wide ? ormqr64(f, 'L', 'N', m, 8, n, A, lda, T, C, m, ws, 7)
                                  : ormqr32(f, 'L', 'N', m, 8, n, A, lda, T, C, m, ws, 7),
                             -12);
            assert_int_equal(xinfo, 12);
            f = ours(ty, "gels", wide);
            assert_int_equal(wide ? gels64(f, 'N', m, n, 8, A, lda, C, m, ws, n + n - 1)
                                  : gels32(f, 'N', m, n, 8, A, lda, C, m, ws, n + n - 1),
                             -10);
            assert_int_equal(xinfo, 10);
            free(a), free(A), free(T), free(C), free(ws);
        }
}

/* ---- argument errors ---------------------------------------------------------- */

typedef struct {
    const char *rout; /* after the type letter */
    int pos;          /* LAPACK's position of the bad argument */
    char c1, c2;      /* trans (side, trans for ORMQR) */
    int64_t m, n, k, lda, ldb;
} bad_t;

/* Each call's INFO, the name XERBLA got and its position; nothing written. */
static void invalid_arguments_reach_xerbla_with_lapacks_name_and_position(void **state)
{
    (void)state;
    const bad_t bad[] = {
        { "GETRF", 1, 0, 0, -1, 4, 0, 4, 0 },     { "GETRF", 2, 0, 0, 4, -1, 0, 4, 0 },
        { "GETRF", 4, 0, 0, 4, 4, 0, 3, 0 },      { "GETRS", 1, 'X', 0, 4, 4, 2, 4, 4 },
        { "GETRS", 2, 'N', 0, 4, -1, 2, 4, 4 },   { "GETRS", 3, 'N', 0, 4, 4, -1, 4, 4 },
        { "GETRS", 5, 'N', 0, 4, 4, 2, 3, 4 },    { "GETRS", 8, 'N', 0, 4, 4, 2, 4, 3 },
        { "GESV ", 1, 0, 0, 4, -1, 2, 4, 4 },     { "GESV ", 2, 0, 0, 4, 4, -1, 4, 4 },
        { "GESV ", 4, 0, 0, 4, 4, 2, 3, 4 },      { "GESV ", 7, 0, 0, 4, 4, 2, 4, 3 },
        { "GEQRF", 1, 0, 0, -1, 4, 0, 4, 0 },     { "GEQRF", 2, 0, 0, 4, -1, 0, 4, 0 },
        { "GEQRF", 4, 0, 0, 4, 4, 0, 3, 0 },      { "ORMQR", 1, 'X', 'N', 4, 4, 2, 4, 4 },
        { "ORMQR", 2, 'L', 'X', 4, 4, 2, 4, 4 },  { "ORMQR", 3, 'L', 'N', -1, 4, 2, 4, 4 },
        { "ORMQR", 4, 'L', 'N', 4, -1, 2, 4, 4 }, { "ORMQR", 5, 'L', 'N', 4, 4, 5, 4, 4 },
        { "ORMQR", 7, 'L', 'N', 4, 4, 2, 3, 4 },  { "ORMQR", 10, 'L', 'N', 4, 4, 2, 4, 3 },
        { "GELS ", 1, 'X', 0, 4, 4, 2, 4, 4 },    { "GELS ", 2, 'N', 0, -1, 4, 2, 4, 4 },
        { "GELS ", 3, 'N', 0, 4, -1, 2, 4, 4 },   { "GELS ", 4, 'N', 0, 4, 4, -1, 4, 4 },
        { "GELS ", 6, 'N', 0, 4, 4, 2, 3, 4 },    { "GELS ", 8, 'N', 0, 4, 6, 2, 4, 5 },
    };
    for (int ty = 0; ty < 4; ty++)
        for (int wide = 0; wide < 2; wide++)
            for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
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

/* LASWP checks nothing, as LAPACK's: k2 < k1 and incx = 0 leave A as it is. */
static void laswp_with_nothing_to_do_changes_nothing(void **state)
{
    (void)state;
    int64_t m = 8, n = 3;
    dc *a = mat(m, n, m, 47, 1);
    void *A = to_t(1, a, m * n), *A0 = to_t(1, a, m * n);
    int32_t p[8] = { 2, 3, 4, 5, 6, 7, 8, 1 };
    xcalls = 0;
    laswp32(ours(1, "laswp", 0), n, A, m, 5, 2, p, 1);
    laswp32(ours(1, "laswp", 0), n, A, m, 1, 4, p, 0);
    laswp32(ours(1, "laswp", 0), 0, A, m, 1, 4, p, 1);
    assert_memory_equal(A, A0, (size_t)(m * n) * sizeof(double));
    assert_int_equal(xcalls, 0);
    free(a), free(A), free(A0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lu_solves_and_pivots_match_the_host_lapack_in_every_precision_and_width),
        cmocka_unit_test(a_singular_matrix_gives_info_at_its_first_zero_column_and_gesv_leaves_b),
        cmocka_unit_test(getrs_reads_the_pivots_the_caller_holds_now),
        cmocka_unit_test(laswp_moves_the_rows_the_host_lapack_moves),
        cmocka_unit_test(laswp_with_nothing_to_do_changes_nothing),
        cmocka_unit_test(qr_factors_and_products_match_the_host_lapack),
        cmocka_unit_test(gels_solves_least_squares_and_minimum_norm_problems),
        cmocka_unit_test(gels_of_a_rank_deficient_matrix_gives_info),
        cmocka_unit_test(workspace_queries_are_answered_and_a_short_workspace_refused),
        cmocka_unit_test(invalid_arguments_reach_xerbla_with_lapacks_name_and_position),
    };
    return cmocka_run_group_tests(tests, host_open, NULL);
}
