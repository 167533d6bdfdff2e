/* LAPACK's Cholesky family through the legacy library, as a Fortran program
 * calls it: every entry point (?potrf_, ?potrs_, ?posv_, ?trtri_, ?lauum_,
 * ?potri_ and their _64_ twins) in every precision, below the threshold (the
 * host LAPACK serves it) and above it (the runtime does), against the host
 * LAPACK itself (OpenBLAS's own routines, opened on their own so that their
 * names are not this library's); INFO of a failing matrix; POSV without right-hand sides;
 * XERBLA's name and position for each invalid argument.  meson runs this with TESS_THRESHOLD=1e6 on two host
 * devices, so that N_SMALL stays on the host and N_LARGE goes through the
 * runtime (POTRS's flops per byte included).  With the argument
 * `default-tiles` (meson: TESS_THRESHOLD=0, TESS_NB unset, two to four host
 * devices) INFO at each position in and across the tiles calls pick. */
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "elements.h"
#include "tessera.h"

enum { N_SMALL = 12, N_LARGE = 400, LD_PAD = 3 };

/* Each result against the host LAPACK's: ||X - R||_F / (n eps ||R||_F) over
 * what the routine writes, on matrices whose condition number is below 4. */
#define BOUND 30.0

/* ---- the entry points ------------------------------------------------------- */

#define LAPACK_TYPES(I, W)                                                                         \
    typedef void potrf##W##_fn(const char *, const I *, void *, const I *, I *, size_t);           \
    typedef void potrs##W##_fn(const char *, const I *, const I *, const void *, const I *,        \
                               void *, const I *, I *, size_t);                                    \
    typedef void trtri##W##_fn(const char *, const char *, const I *, void *, const I *, I *,      \
                               size_t, size_t);                                                    \
    typedef struct {                                                                               \
        potrf##W##_fn *potrf, *lauum, *potri;                                                      \
        potrs##W##_fn *potrs, *posv;                                                               \
        trtri##W##_fn *trtri;                                                                      \
    } lapack##W##_t;
LAPACK_TYPES(int32_t, 32)
LAPACK_TYPES(int64_t, 64)

#define DECLARE(p, W, SFX)                                                                         \
    potrf##W##_fn p##potrf##SFX, p##lauum##SFX, p##potri##SFX;                                     \
    potrs##W##_fn p##potrs##SFX, p##posv##SFX;                                                     \
    trtri##W##_fn p##trtri##SFX;
#define ROW(p, SFX)                                                                                \
    {                                                                                              \
        p##potrf##SFX, p##lauum##SFX, p##potri##SFX, p##potrs##SFX, p##posv##SFX, p##trtri##SFX    \
    }
DECLARE(s, 32, _)
DECLARE(d, 32, _)
DECLARE(c, 32, _)
DECLARE(z, 32, _)
DECLARE(s, 64, _64_)
DECLARE(d, 64, _64_)
DECLARE(c, 64, _64_)
DECLARE(z, 64, _64_)

static const lapack32_t tess32[4] = { ROW(s, _), ROW(d, _), ROW(c, _), ROW(z, _) };
static const lapack64_t tess64[4] = { ROW(s, _64_), ROW(d, _64_), ROW(c, _64_), ROW(z, _64_) };
static lapack32_t host[4];

static const char letter[4] = { 's', 'd', 'c', 'z' };
static const size_t elsize[4] = { 4, 8, 8, 16 };
static const double eps[4] = { FLT_EPSILON, DBL_EPSILON, FLT_EPSILON, DBL_EPSILON };

typedef enum { POTRF, POTRS, POSV, TRTRI, LAUUM, POTRI, NROUT } rout_t;
static const char *const rname[NROUT] = { "POTRF", "POTRS", "POSV", "TRTRI", "LAUUM", "POTRI" };

typedef struct {
    rout_t r;
    char uplo, diag;
    int64_t n, nrhs, lda, ldb;
} args_t;

#define CALL_WITH(I, f, a, A, B)                                                                   \
    do {                                                                                           \
        I n_ = (I)(a)->n, nrhs_ = (I)(a)->nrhs, lda_ = (I)(a)->lda, ldb_ = (I)(a)->ldb,            \
          info_ = 99;                                                                              \
        const char *u_ = &(a)->uplo, *d_ = &(a)->diag;                                             \
        switch ((a)->r) {                                                                          \
        case POTRF: (f)->potrf(u_, &n_, A, &lda_, &info_, 1); break;                               \
        case LAUUM: (f)->lauum(u_, &n_, A, &lda_, &info_, 1); break;                               \
        case POTRI: (f)->potri(u_, &n_, A, &lda_, &info_, 1); break;                               \
        case POTRS: (f)->potrs(u_, &n_, &nrhs_, A, &lda_, B, &ldb_, &info_, 1); break;             \
        case POSV: (f)->posv(u_, &n_, &nrhs_, A, &lda_, B, &ldb_, &info_, 1); break;               \
        default: (f)->trtri(u_, d_, &n_, A, &lda_, &info_, 1, 1); break;                           \
        }                                                                                          \
        info = info_;                                                                              \
    } while (0)

/* OpenBLAS's POTRS, POSV and POTRI are netlib's, which call TRSM, POTRF, POTRS, TRTRI and
 * LAUUM by their exported names, and in this program those are this library's: the host
 * references are made of OpenBLAS's own POTRF, TRTRI, LAUUM and CBLAS TRSM, which take a
 * real type's alpha by value and a complex type's by address. */
typedef void trsm_fn(int, int, int, int, int, int, int, const void *, const void *, int, void *,
                     int);
typedef void trsm_s_fn(int, int, int, int, int, int, int, float, const void *, int, void *, int);
typedef void trsm_d_fn(int, int, int, int, int, int, int, double, const void *, int, void *, int);
static void *host_trsm[4];

/* B = op(A)^-1 B, A n x n lower or upper, by CBLAS (column-major 102, left 141, lower 122,
 * upper 121, no transpose 111, conjugate transpose 113, non-unit 131). */
static void trsm(int ty, const args_t *a, int trans, const void *A, void *B)
{
    int ul = a->uplo == 'L' ? 122 : 121, n = (int)a->n, nrhs = (int)a->nrhs;
    int lda = (int)a->lda, ldb = (int)a->ldb;
    const double one[2] = { 1, 0 };
    const float onef[2] = { 1, 0 };
    if (ty == 0) {
        trsm_s_fn *f;
        *(void **)&f = host_trsm[0];
        f(102, 141, ul, trans, 131, n, nrhs, 1.0f, A, lda, B, ldb);
    } else if (ty == 1) {
        trsm_d_fn *f;
        *(void **)&f = host_trsm[1];
        f(102, 141, ul, trans, 131, n, nrhs, 1.0, A, lda, B, ldb);
    } else {
        trsm_fn *f;
        *(void **)&f = host_trsm[ty];
        f(102, 141, ul, trans, 131, n, nrhs, ty == 2 ? (const void *)onef : one, A, lda, B, ldb);
    }
}

/* The host LAPACK's routine on valid arguments; its INFO. */
static int64_t host_call(int ty, const args_t *a, void *A, void *B)
{
    args_t f = *a;
    int64_t info = 0;
    switch (a->r) {
    case POSV:
        f.r = POTRF;
        CALL_WITH(int32_t, &host[ty], &f, A, B);
        if (info || a->nrhs == 0)
            return info;
        __attribute__((fallthrough)); /* POTRS */
    case POTRS:
        if (a->nrhs == 0)
            return 0;
        /* A = L L^H: B = L^-H L^-1 B; A = U^H U: B = U^-1 U^-H B */
        trsm(ty, a, a->uplo == 'L' ? 111 : 113, A, B);
        trsm(ty, a, a->uplo == 'L' ? 113 : 111, A, B);
        return 0;
    case POTRI:
        f.r = TRTRI;
        f.diag = 'N';
        CALL_WITH(int32_t, &host[ty], &f, A, B);
        if (info)
            return info;
        f.r = LAUUM;
        break;
    default: break;
    }
    CALL_WITH(int32_t, &host[ty], &f, A, B);
    return info;
}

/* The routine of type ty through this library (32- or 64-bit entry) or the
 * host LAPACK; its INFO. */
static int64_t call(int ty, int width, const args_t *a, void *A, void *B)
{
    int64_t info;
    if (width == 64)
        CALL_WITH(int64_t, &tess64[ty], a, A, B);
    else if (width == 32)
        CALL_WITH(int32_t, &tess32[ty], a, A, B);
    else
        info = host_call(ty, a, A, B);
    return info;
}

static int host_lapack_open(void **state)
{
    (void)state;
    void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return -1;
    for (int t = 0; t < 4; t++) {
        char name[16];
#define FIND(f)                                                                                    \
    snprintf(name, sizeof name, "%c" #f "_", letter[t]);                                           \
    if (!(*(void **)&host[t].f = dlsym(h, name)))                                                  \
        return -1;
        FIND(potrf)
        FIND(lauum)
        FIND(trtri)
#undef FIND
        snprintf(name, sizeof name, "cblas_%ctrsm", letter[t]);
        if (!(host_trsm[t] = dlsym(h, name)))
            return -1;
    }
    return 0;
}

/* ---- what the application's XERBLA saw -------------------------------------- */

static struct {
    int calls;
    char name[16];
    int64_t info;
} seen;

/* The name without the blanks (reference LAPACK pads to six) or the NUL
 * (OpenBLAS counts it in the length) at its end. */
static void record(const char *name, int64_t info, size_t len)
{
    seen.calls++;
    while (len > 0 && (name[len - 1] == ' ' || name[len - 1] == '\0'))
        len--;
    snprintf(seen.name, sizeof seen.name, "%.*s", (int)len, name);
    seen.info = info;
}

void xerbla_(const char *name, const int32_t *info, size_t len)
{
    record(name, *info, len);
}

void xerbla_64_(const char *name, const int64_t *info, size_t len)
{
    record(name, *info, len);
}

/* ---- matrices ----------------------------------------------------------------- */

/* An n x n Hermitian matrix in ld, both triangles: entries of at most 1/2
 * off the diagonal and n on it, so its eigenvalues lie in [n/2, 3n/2]; scaled
 * by 1/n, a triangle of it is a triangular matrix as well conditioned. */
static void *hpd(int ty, int64_t n, int64_t ld, double scale)
{
    void *A = malloc((size_t)(ld * n) * elsize[ty]);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++) {
            double complex v = rnd() + (ty >= 2 ? rnd() * I : 0);
            if (i == j)
                v = (double)n;
            if (i < j)
                v = conj(get(ty, A, j + i * ld));
            set(ty, A, i + j * ld, v * scale);
        }
    return A;
}

static void *copy(int ty, const void *A, int64_t ld, int64_t n)
{
    size_t bytes = (size_t)(ld * n) * elsize[ty];
    return memcpy(malloc(bytes), A, bytes);
}

static bool in_triangle(char uplo, int64_t i, int64_t j)
{
    return uplo == 'L' ? i >= j : i <= j;
}

/* ||X - R||_F / (n eps ||R||_F) over the m x n region, or its uplo triangle. */
static double error(int ty, char uplo, int64_t m, int64_t n, const void *X, const void *R,
                    int64_t ld)
{
    double d = 0, r = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            if (uplo == 'A' || in_triangle(uplo, i, j)) {
                double complex x = get(ty, X, i + j * ld), y = get(ty, R, i + j * ld);
                d += pow(cabs(x - y), 2);
                r += pow(cabs(y), 2);
            }
    return sqrt(d) / ((double)n * eps[ty] * sqrt(r));
}

static bool same_bits(int ty, const void *X, const void *R, int64_t ld, int64_t n)
{
    return !memcmp(X, R, (size_t)(ld * n) * elsize[ty]);
}

static uint64_t tasks_run(void)
{
    tess_stats_t s;
    if (tess_get_stats(&s))
        return 0; /* not started yet */
    uint64_t t = 0;
    for (int d = 0; d < s.ndevices; d++)
        t += s.tasks[d];
    return t;
}

/* A's operand as the routine takes it: the matrix itself, its Cholesky
 * factor (POTRS, POTRI), or a triangle of it scaled to unit size (TRTRI). */
static void *operand(int ty, const args_t *a)
{
    void *A = hpd(ty, a->n, a->lda, a->r == TRTRI ? 1.0 / (double)a->n : 1);
    if (a->r == POTRS || a->r == POTRI) {
        args_t f = { POTRF, a->uplo, 'N', a->n, 0, a->lda, 0 };
        assert_int_equal(call(ty, 0, &f, A, NULL), 0);
    }
    return A;
}

static void *rhs(int ty, const args_t *a)
{
    void *B = malloc((size_t)(a->ldb * a->nrhs) * elsize[ty]);
    for (int64_t i = 0; i < a->ldb * a->nrhs; i++)
        set(ty, B, i, rnd() + (ty >= 2 ? rnd() * I : 0));
    return B;
}

/* ---- the tests ------------------------------------------------------------------ */

/* Each routine in each precision and width, both triangles (both diagonals
 * for TRTRI), against the host LAPACK; the runtime runs tasks for a large
 * call only. */
static void
every_entry_matches_the_host_lapack_through_the_runtime_above_the_threshold_only(void **state)
{
    (void)state;
    const int64_t sizes[2] = { N_SMALL, N_LARGE };
    for (int ty = 0; ty < 4; ty++)
        for (int width = 32; width <= 64; width += 32)
            for (int s = 0; s < 2; s++)
                for (rout_t r = POTRF; r < NROUT; r++)
                    for (int u = 0; u < 2; u++) {
                        int64_t n = sizes[s];
                        args_t a = { r, "LU"[u], "NU"[u], n, n, n + LD_PAD, n + LD_PAD };
                        void *A = operand(ty, &a), *R = copy(ty, A, a.lda, n);
                        bool has_b = r == POTRS || r == POSV;
                        void *B = has_b ? rhs(ty, &a) : NULL;
                        void *RB = has_b ? copy(ty, B, a.ldb, a.nrhs) : NULL;
                        uint64_t before = tasks_run();
                        int64_t info = call(ty, width, &a, A, B);
                        bool ran = tasks_run() > before;
                        int64_t ref = call(ty, 0, &a, R, RB);
                        double eA = r == POTRS ? 0 : error(ty, a.uplo, n, n, A, R, a.lda);
                        double eB = has_b ? error(ty, 'A', n, a.nrhs, B, RB, a.ldb) : 0;
                        if (info || ran != (s == 1) || !(eA <= BOUND) || !(eB <= BOUND))
                            fail_msg("%c%s%s uplo %c n %lld: info %lld (host %lld), %s the "
                                     "runtime, errors %.3g (A) %.3g (B) past %g",
                                     letter[ty], rname[r], width == 64 ? "_64_" : "_", a.uplo,
                                     (long long)n, (long long)info, (long long)ref,
                                     ran ? "through" : "not through", eA, eB, BOUND);
                        free(A), free(R), free(B), free(RB);
                    }
}

/* POTRF and POSV on a matrix whose leading minor of order k is not positive
 * definite (its k-th diagonal element -1), TRTRI and POTRI on one whose k-th
 * diagonal element is zero: INFO is k, as the host LAPACK says; POSV leaves B
 * as it was; through_runtime: the call ran tasks. */
static void check_info(int ty, int width, rout_t r, char uplo, int64_t n, int64_t k,
                       bool through_runtime)
{
    args_t a = { r, uplo, 'N', n, 2, n, n };
    void *A = operand(ty, &a), *B = rhs(ty, &a);
    void *B0 = copy(ty, B, a.ldb, a.nrhs);
    set(ty, A, (k - 1) * (n + 1), r == TRTRI || r == POTRI ? 0 : -1);
    void *R = copy(ty, A, n, n), *RB = copy(ty, B, n, 2);
    uint64_t before = tasks_run();
    int64_t info = call(ty, width, &a, A, B);
    bool ran = tasks_run() > before;
    int64_t ref = call(ty, 0, &a, R, RB);
    if (info != k || ref != k || (r == POSV && !same_bits(ty, B, B0, n, 2)) ||
        (through_runtime && !ran))
        fail_msg("%c%s%s uplo %c n %lld, k %lld: info %lld (host %lld)%s%s", letter[ty], rname[r],
                 width == 64 ? "_64_" : "_", uplo, (long long)n, (long long)k, (long long)info,
                 (long long)ref, r == POSV ? ", or B changed" : "",
                 through_runtime && !ran ? ", not through the runtime" : "");
    free(A), free(R), free(B), free(B0), free(RB);
}

static const rout_t failing[4] = { POTRF, POSV, TRTRI, POTRI };

/* At the first column and deep inside a large call. */
static void info_is_lapacks_k_in_the_first_column_and_deep_inside(void **state)
{
    (void)state;
    const int64_t cases[3][2] = { { N_SMALL, 5 }, { N_LARGE, 1 }, { N_LARGE, 301 } };
    for (int ty = 0; ty < 4; ty++)
        for (int width = 32; width <= 64; width += 32)
            for (int c = 0; c < 3; c++)
                for (int i = 0; i < 4; i++)
                    for (int u = 0; u < 2; u++)
                        check_info(ty, width, failing[i], "LU"[u], cases[c][0], cases[c][1], false);
}

/* A NaN pivot at column k: INFO k, as the reference LAPACK's POTRF stops at it (DPOTRF2),
 * on either side of the threshold (the host LAPACK, OpenBLAS, misses it on its own, so INFO
 * is stated, not taken from it); POSV leaves B bit for bit. */
static void
a_nan_pivot_gives_the_reference_lapacks_info_on_either_side_of_the_threshold(void **state)
{
    (void)state;
    const int64_t cases[3][2] = { { N_SMALL, 5 }, { N_LARGE, 1 }, { N_LARGE, 301 } };
    for (int ty = 0; ty < 4; ty++)
        for (int width = 32; width <= 64; width += 32)
            for (int c = 0; c < 3; c++)
                for (int posv = 0; posv < 2; posv++) {
                    int64_t n = cases[c][0], k = cases[c][1];
                    args_t a = { posv ? POSV : POTRF, "LU"[c % 2], 'N', n, 2, n, n };
                    void *A = operand(ty, &a), *B = rhs(ty, &a), *B0 = copy(ty, B, n, 2);
                    set(ty, A, (k - 1) * (n + 1), NAN);
                    int64_t info = call(ty, width, &a, A, B);
                    if (info != k || (posv && !same_bits(ty, B, B0, n, 2)))
                        fail_msg("%c%s%s n %lld, NaN pivot %lld: info %lld%s", letter[ty],
                                 rname[a.r], width == 64 ? "_64_" : "_", (long long)n, (long long)k,
                                 (long long)info, posv ? ", or B changed" : "");
                    free(A), free(B), free(B0);
                }
}

/* Each invalid argument, below the threshold (where the host LAPACK checks
 * the call) and above it (where this library does): XERBLA gets LAPACK's
 * name and number, INFO is minus the number, A and B are unchanged. */
static void an_invalid_argument_reaches_xerbla_with_lapacks_name_and_position(void **state)
{
    (void)state;
    /* position, then the bad call: uplo, diag, n, nrhs, lda, ldb (0: as valid) */
    static const struct {
        rout_t r;
        int pos;
        char uplo, diag;
        int64_t n, nrhs, lda, ldb;
    } bad[] = {
        { POTRF, 1, '/', 0, 0, 0, 0, 0 }, { POTRF, 2, 0, 0, -1, 0, 0, 0 },
        { POTRF, 4, 0, 0, 0, 0, -1, 0 },  { POTRS, 1, '/', 0, 0, 0, 0, 0 },
        { POTRS, 2, 0, 0, -1, 0, 0, 0 },  { POTRS, 3, 0, 0, 0, -1, 0, 0 },
        { POTRS, 5, 0, 0, 0, 0, -1, 0 },  { POTRS, 7, 0, 0, 0, 0, 0, -1 },
        { POSV, 1, '/', 0, 0, 0, 0, 0 },  { POSV, 2, 0, 0, -1, 0, 0, 0 },
        { POSV, 3, 0, 0, 0, -1, 0, 0 },   { POSV, 5, 0, 0, 0, 0, -1, 0 },
        { POSV, 7, 0, 0, 0, 0, 0, -1 },   { TRTRI, 1, '/', 0, 0, 0, 0, 0 },
        { TRTRI, 2, 0, '/', 0, 0, 0, 0 }, { TRTRI, 3, 0, 0, -1, 0, 0, 0 },
        { TRTRI, 5, 0, 0, 0, 0, -1, 0 },  { LAUUM, 1, '/', 0, 0, 0, 0, 0 },
        { LAUUM, 2, 0, 0, -1, 0, 0, 0 },  { LAUUM, 4, 0, 0, 0, 0, -1, 0 },
        { POTRI, 1, '/', 0, 0, 0, 0, 0 }, { POTRI, 2, 0, 0, -1, 0, 0, 0 },
        { POTRI, 4, 0, 0, 0, 0, -1, 0 },
    };
    const int64_t sizes[2] = { N_SMALL, N_LARGE };
    for (int ty = 0; ty < 4; ty++)
        for (int width = 32; width <= 64; width += 32)
            for (int s = 0; s < 2; s++)
                for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
                    int64_t n = sizes[s];
                    args_t a = { bad[i].r, 'L', 'N', n, 2, n, n };
                    void *A = hpd(ty, n, n, 1), *B = rhs(ty, &a);
                    void *A0 = copy(ty, A, n, n), *B0 = copy(ty, B, n, 2);
                    a.uplo = bad[i].uplo ? bad[i].uplo : a.uplo;
                    a.diag = bad[i].diag ? bad[i].diag : a.diag;
                    a.n = bad[i].n ? bad[i].n : a.n;
                    a.nrhs = bad[i].nrhs ? bad[i].nrhs : a.nrhs;
                    a.lda = bad[i].lda ? n - 1 : a.lda;
                    a.ldb = bad[i].ldb ? n - 1 : a.ldb;
                    char name[8];
                    snprintf(name, sizeof name, "%c%s", letter[ty] - 'a' + 'A', rname[bad[i].r]);
                    memset(&seen, 0, sizeof seen);
                    int64_t info = call(ty, width, &a, A, B);
                    if (seen.calls != 1 || strcmp(seen.name, name) || seen.info != bad[i].pos ||
                        info != -bad[i].pos || !same_bits(ty, A, A0, n, n) ||
                        !same_bits(ty, B, B0, n, 2))
                        fail_msg("%s%s n %lld, argument %d: XERBLA called %d times with %s %lld, "
                                 "info %lld%s",
                                 name, width == 64 ? "_64_" : "_", (long long)n, bad[i].pos,
                                 seen.calls, seen.name, (long long)seen.info, (long long)info,
                                 same_bits(ty, A, A0, n, n) && same_bits(ty, B, B0, n, 2)
                                     ? ""
                                     : ", operands changed");
                    free(A), free(A0), free(B), free(B0);
                }
}

/* LAPACK's POSV factors A even with no right-hand side. */
static void posv_with_no_right_hand_side_still_factors_a(void **state)
{
    (void)state;
    for (int width = 32; width <= 64; width += 32) {
        args_t a = { POSV, 'U', 'N', N_LARGE, 0, N_LARGE, N_LARGE };
        args_t f = { POTRF, 'U', 'N', N_LARGE, 0, N_LARGE, 0 };
        void *A = hpd(1, N_LARGE, N_LARGE, 1), *R = copy(1, A, N_LARGE, N_LARGE);
        double b = 0;
        uint64_t before = tasks_run();
        assert_int_equal(call(1, width, &a, A, &b), 0);
        assert_true(tasks_run() > before);
        assert_int_equal(call(1, 0, &f, R, NULL), 0);
        assert_true(error(1, 'U', N_LARGE, N_LARGE, A, R, N_LARGE) <= BOUND);
        free(A), free(R);
    }
}

/* ---- with TESS_THRESHOLD=0 and the tile size unset ----------------------------------- */

/* The largest tile the runtime takes (tess_stats_t.nb), once a call has started it. */
static int64_t largest_tile(void)
{
    args_t a = { POTRF, 'L', 'N', N_SMALL, 0, N_SMALL, 0 };
    void *A = operand(1, &a);
    assert_int_equal(call(1, 32, &a, A, NULL), 0);
    free(A);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    return s.nb;
}

/* With the tile size unset a call's tiles are the largest, nb, or nb/2, nb/4 (or nb/8,
 * complex types), the smallest for an order of a few of them (blas3/tiling.c).  Order nb/2 +
 * 16 (400 on host devices: tiles of 192, or 96 for complex types; a POTRF of that order must
 * run more than one task, one tile's); INFO at the first column, either side of nb/8 and of
 * nb/4 (the last column of a tile and the first of the next for tiles of either size),
 * inside a later tile and at the last column, through each entry, in each precision. */
static void info_is_lapacks_at_every_position_with_the_tiles_a_call_picks(void **state)
{
    (void)state;
    int64_t nb = largest_tile(), n = nb / 2 + 16;
    const int64_t ks[] = { 1, nb / 8, nb / 8 + 1, nb / 4, nb / 4 + 1, 3 * nb / 8 + 5, n };
    for (int ty = 0; ty < 4; ty++) {
        args_t a = { POTRF, 'L', 'N', n, 0, n, 0 };
        void *A = operand(ty, &a);
        uint64_t before = tasks_run();
        assert_int_equal(call(ty, 32, &a, A, NULL), 0);
        if (tasks_run() - before < 2)
            fail_msg("%cPOTRF of order %lld took one tile: no case of that order tests a "
                     "tile's offset",
                     letter[ty], (long long)n);
        free(A);
        for (int width = 32; width <= 64; width += 32)
            for (size_t c = 0; c < sizeof ks / sizeof *ks; c++)
                for (int i = 0; i < 4; i++)
                    for (int u = 0; u < 2; u++)
                        check_info(ty, width, failing[i], "LU"[u], n, ks[c], true);
    }
}

/* An unchanged LAPACK program's DPOTRF of order 2500 made indefinite in the first, second
 * and last third: on four host devices an offset counted in the largest tile rather than
 * the call's own gave INFO 3138, 6275 and 9988. */
static void dpotrf_of_order_2500_reports_lapacks_info_in_each_third(void **state)
{
    (void)state;
    const int64_t n = 2500, ks[] = { 834, 1667, 2500 };
    for (size_t c = 0; c < sizeof ks / sizeof *ks; c++)
        check_info(1, 32, POTRF, 'L', n, ks[c], true);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest default_tiles[] = {
        cmocka_unit_test(info_is_lapacks_at_every_position_with_the_tiles_a_call_picks),
        cmocka_unit_test(dpotrf_of_order_2500_reports_lapacks_info_in_each_third),
    };
    if (argc > 1 && !strcmp(argv[1], "default-tiles"))
        return cmocka_run_group_tests(default_tiles, host_lapack_open, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            every_entry_matches_the_host_lapack_through_the_runtime_above_the_threshold_only),
        cmocka_unit_test(info_is_lapacks_k_in_the_first_column_and_deep_inside),
        cmocka_unit_test(
            a_nan_pivot_gives_the_reference_lapacks_info_on_either_side_of_the_threshold),
        cmocka_unit_test(posv_with_no_right_hand_side_still_factors_a),
        cmocka_unit_test(an_invalid_argument_reaches_xerbla_with_lapacks_name_and_position),
    };
    return cmocka_run_group_tests(tests, host_lapack_open, NULL);
}
