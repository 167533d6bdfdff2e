/* The legacy BLAS library as a program linked with it sees it, with every
 * BLAS-3 call through the runtime (meson runs this with TESS_THRESHOLD=0 on
 * two host devices and a tiny tile): first calls from many threads at once,
 * GEMMT under both of its names and both layouts (the netlib testers predate
 * it), the 64-bit-integer entry points, where errors are reported and how
 * they are numbered, and a fork.  References are plain loops. */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "tessera.h"

typedef double _Complex zc;
enum {
    ROW = 101,
    COL = 102,
    NT = 111,
    TR = 112,
    CT = 113,
    UP = 121,
    LO = 122,
    NU = 131,
    LEFT = 141
};

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);
void dgemm_64_(const char *, const char *, const int64_t *, const int64_t *, const int64_t *,
               const double *, const double *, const int64_t *, const double *, const int64_t *,
               const double *, double *, const int64_t *, size_t, size_t);
#define GEMMT_F77(name, T, I)                                                                      \
    void name(const char *, const char *, const char *, const I *, const I *, const T *,           \
              const T *, const I *, const T *, const I *, const T *, T *, const I *, size_t,       \
              size_t, size_t);
GEMMT_F77(dgemmt_, double, int)
GEMMT_F77(dgemmtr_, double, int)
GEMMT_F77(zgemmt_, zc, int)
GEMMT_F77(zgemmtr_, zc, int)
void zherk_(const char *, const char *, const int *, const int *, const double *, const zc *,
            const int *, const double *, zc *, const int *, size_t, size_t);
void zherk_64_(const char *, const char *, const int64_t *, const int64_t *, const double *,
               const zc *, const int64_t *, const double *, zc *, const int64_t *, size_t, size_t);
void dsyr2k_(const char *, const char *, const int *, const int *, const double *, const double *,
             const int *, const double *, const int *, const double *, double *, const int *,
             size_t, size_t);
void zher2k_(const char *, const char *, const int *, const int *, const zc *, const zc *,
             const int *, const zc *, const int *, const double *, zc *, const int *, size_t,
             size_t);
void ztrsm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const zc *, const zc *, const int *, zc *, const int *, size_t, size_t, size_t, size_t);
double ddot_64_(const int64_t *, const double *, const int64_t *, const double *, const int64_t *);
int64_t idamax_64_(const int64_t *, const double *, const int64_t *);
double cblas_ddot64_(int64_t, const double *, int64_t, const double *, int64_t);
void daxpy_64_(const int64_t *, const double *, const double *, const int64_t *, double *,
               const int64_t *);
#define GBMV_F77(name, I)                                                                          \
    void name(const char *, const I *, const I *, const I *, const I *, const double *,            \
              const double *, const I *, const double *, const I *, const double *, double *,      \
              const I *, size_t);
GBMV_F77(dgbmv_, int)
GBMV_F77(dgbmv_64_, int64_t)
void cblas_daxpy64_(int64_t, double, const double *, int64_t, double *, int64_t);
size_t cblas_idamax64_(int64_t, const double *, int64_t);
void cblas_dgbmv64_(int, int, int64_t, int64_t, int64_t, int64_t, double, const double *, int64_t,
                    const double *, int64_t, double, double *, int64_t);
void cblas_dgemm(int, int, int, int, int, int, double, const double *, int, const double *, int,
                 double, double *, int);
void cblas_dgemm64_(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t,
                    const double *, int64_t, double, double *, int64_t);
void cblas_dgemmt(int, int, int, int, int, int, double, const double *, int, const double *, int,
                  double, double *, int);
void cblas_zgemmtr(int, int, int, int, int, int, const void *, const void *, int, const void *, int,
                   const void *, void *, int);
void cblas_zherk(int, int, int, int, int, double, const void *, int, double, void *, int);
void cblas_dtrsm(int, int, int, int, int, int, int, double, const double *, int, double *, int);

/* ---- the application's own error handlers -------------------------------- */

extern int RowMajorStrg;

static struct {
    int calls;
    char name[40];
    long long info;
    size_t len;
    int row_major;
} seen;

static void forget(void)
{
    memset(&seen, 0, sizeof seen);
}

void xerbla_(const char *name, const int *info, size_t len)
{
    seen.calls++;
    snprintf(seen.name, sizeof seen.name, "%.*s", (int)len, name);
    seen.info = *info;
    seen.len = len;
}

void xerbla_64_(const char *name, const int64_t *info, size_t len)
{
    seen.calls++;
    snprintf(seen.name, sizeof seen.name, "%.*s", (int)len, name);
    seen.info = *info;
    seen.len = len;
}

void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
    (void)form;
    seen.calls++;
    snprintf(seen.name, sizeof seen.name, "%s", rout);
    seen.info = info;
    seen.row_major = RowMajorStrg;
}

/* ---- matrices and references ------------------------------------------------ */

static unsigned seed = 1;

static double rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)((seed >> 8) % 2001) / 1000.0 - 1.0;
}

static double *dmat(size_t n)
{
    double *a = malloc(n * sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = rnd();
    return a;
}

static zc *zmat(size_t n)
{
    zc *a = malloc(n * sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = rnd() + I * rnd();
    return a;
}

/* Element (i, j) of op(X), X stored with leading dimension ld in either layout. */
static zc op_at(const void *x, bool cplx, int op, bool row, int64_t i, int64_t j, int64_t ld)
{
    if (op != NT) {
        int64_t t = i;
        i = j;
        j = t;
    }
    int64_t at = row ? i * ld + j : i + j * ld;
    zc v = cplx ? ((const zc *)x)[at] : ((const double *)x)[at];
    return op == CT ? conj(v) : v;
}

static int64_t idx(bool row, int64_t i, int64_t j, int64_t ld)
{
    return row ? i * ld + j : i + j * ld;
}

/* C = alpha op(A) op(B) + beta C on the uplo triangle of the n x n C (uplo
 * 0: all of an m x n C). */
static void ref_gemm(bool cplx, bool row, int uplo, int ta, int tb, int64_t m, int64_t n, int64_t k,
                     zc alpha, const void *A, int64_t lda, const void *B, int64_t ldb, zc beta,
                     void *C, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            if ((uplo == UP && i > j) || (uplo == LO && i < j))
                continue;
            zc s = 0;
            for (int64_t l = 0; l < k; l++)
                s += op_at(A, cplx, ta, row, i, l, lda) * op_at(B, cplx, tb, row, l, j, ldb);
            int64_t at = idx(row, i, j, ldc);
            if (cplx)
                ((zc *)C)[at] = alpha * s + (beta == 0 ? 0 : beta * ((zc *)C)[at]);
            else
                ((double *)C)[at] = creal(alpha * s + (beta == 0 ? 0 : beta * ((double *)C)[at]));
        }
}

static double max_diff(bool cplx, const void *x, const void *y, size_t n)
{
    double d = 0;
    for (size_t i = 0; i < n; i++) {
        double e = cplx ? cabs(((const zc *)x)[i] - ((const zc *)y)[i])
                        : fabs(((const double *)x)[i] - ((const double *)y)[i]);
        d = e > d ? e : d;
    }
    return d;
}

/* ---- tests ------------------------------------------------------------------ */

#define NTHREADS 8
static pthread_barrier_t start_line;

static void *multiply_once(void *arg)
{
    int n = 24 + (int)(intptr_t)arg, one_n = n;
    double *A = dmat((size_t)n * n), *B = dmat((size_t)n * n), *C = dmat((size_t)n * n);
    double *R = malloc((size_t)n * n * sizeof *R), alpha = 1.5, beta = -0.5;
    memcpy(R, C, (size_t)n * n * sizeof *R);
    ref_gemm(false, false, 0, NT, TR, n, n, n, alpha, A, n, B, n, beta, R, n);
    pthread_barrier_wait(&start_line);
    dgemm_("N", "t", &one_n, &one_n, &one_n, &alpha, A, &one_n, B, &one_n, &beta, C, &one_n, 1, 1);
    intptr_t bad = max_diff(false, C, R, (size_t)n * n) > 1e-12;
    free(A), free(B), free(C), free(R);
    return (void *)bad;
}

/* Must run first: these are the process's first BLAS calls. */
static void first_calls_from_many_threads_at_once_are_all_correct(void **state)
{
    (void)state;
    pthread_t th[NTHREADS];
    pthread_barrier_init(&start_line, NULL, NTHREADS);
    for (intptr_t i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, multiply_once, (void *)i), 0);
    for (int i = 0; i < NTHREADS; i++) {
        void *bad;
        pthread_join(th[i], &bad);
        assert_null(bad);
    }
    pthread_barrier_destroy(&start_line);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    assert_int_equal(s.ndevices, 2);
    assert_true(s.tasks[0] + s.tasks[1] > 0);
}

static void gemmt_and_gemmtr_match_a_reference_in_both_layouts(void **state)
{
    (void)state;
    const int n = 9, k = 6, ld = 11;
    const int ops[] = { NT, TR, CT };
    const char *opc = "NTC";
    for (int cplx = 0; cplx < 2; cplx++)
        for (int u = 0; u < 2; u++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    for (int way = 0; way < 4; way++) {
                        int uplo = u ? LO : UP;
                        bool row = way == 3;
                        size_t es = cplx ? sizeof(zc) : sizeof(double), len = (size_t)ld * ld;
                        void *A = cplx ? (void *)zmat(len) : dmat(len);
                        void *B = cplx ? (void *)zmat(len) : dmat(len);
                        void *C = cplx ? (void *)zmat(len) : dmat(len);
                        void *R = malloc(len * es);
                        memcpy(R, C, len * es);
                        zc alpha = cplx ? 0.5 - 1.0 * I : 0.5, beta = cplx ? 2.0 + 0.5 * I : 2.0;
                        ref_gemm(cplx, row, uplo, ops[a], ops[b], n, n, k, alpha, A, ld, B, ld,
                                 beta, R, ld);
                        const char ul[] = { u ? 'l' : 'U' }, ca[] = { opc[a] },
                                   cb[] = { (char)(opc[b] | 0x20) };
                        double dal = creal(alpha), dbe = creal(beta);
                        if (!cplx && way == 0)
                            dgemmt_(ul, ca, cb, &n, &k, &dal, A, &ld, B, &ld, &dbe, C, &ld, 1, 1,
                                    1);
                        else if (!cplx && way == 1)
                            dgemmtr_(ul, ca, cb, &n, &k, &dal, A, &ld, B, &ld, &dbe, C, &ld, 1, 1,
                                     1);
                        else if (cplx && way == 0)
                            zgemmt_(ul, ca, cb, &n, &k, &alpha, A, &ld, B, &ld, &beta, C, &ld, 1, 1,
                                    1);
                        else if (cplx && way == 1)
                            zgemmtr_(ul, ca, cb, &n, &k, &alpha, A, &ld, B, &ld, &beta, C, &ld, 1,
                                     1, 1);
                        else if (!cplx)
                            cblas_dgemmt(row ? ROW : COL, uplo, ops[a], ops[b], n, k, dal, A, ld, B,
                                         ld, dbe, C, ld);
                        else
                            cblas_zgemmtr(row ? ROW : COL, uplo, ops[a], ops[b], n, k, &alpha, A,
                                          ld, B, ld, &beta, C, ld);
                        /* the other triangle and the padding rows are as they were */
                        assert_true(max_diff(cplx, C, R, len) < 1e-12);
                        free(A), free(B), free(C), free(R);
                    }
}

static void the_64_bit_entry_points_match_the_32_bit_ones(void **state)
{
    (void)state;
    const int n = 10, k = 7;
    const int64_t n64 = n, k64 = k;
    double *A = dmat(n * n), *B = dmat(n * n), *C1 = dmat(n * n), *C2 = malloc(n * n * 8);
    double alpha = -1.25, beta = 0.75;
    memcpy(C2, C1, n * n * 8);
    dgemm_("T", "N", &n, &n, &k, &alpha, A, &n, B, &n, &beta, C1, &n, 1, 1);
    dgemm_64_("T", "N", &n64, &n64, &k64, &alpha, A, &n64, B, &n64, &beta, C2, &n64, 1, 1);
    assert_true(max_diff(false, C1, C2, n * n) < 1e-14);
    cblas_dgemm(ROW, NT, TR, n, n, k, alpha, A, n, B, n, beta, C1, n);
    cblas_dgemm64_(ROW, NT, TR, n64, n64, k64, alpha, A, n64, B, n64, beta, C2, n64);
    assert_true(max_diff(false, C1, C2, n * n) < 1e-14);
    zc *Z = zmat(n * n), *H1 = zmat(n * n), *H2 = malloc(n * n * sizeof(zc));
    memcpy(H2, H1, n * n * sizeof(zc));
    zherk_("L", "C", &n, &k, &alpha, Z, &n, &beta, H1, &n, 1, 1);
    zherk_64_("L", "C", &n64, &k64, &alpha, Z, &n64, &beta, H2, &n64, 1, 1);
    assert_true(max_diff(true, H1, H2, n * n) < 1e-14);
    /* forwarded ones: the 64-bit host BLAS's, or the 32-bit one's */
    double x[5] = { 1, -7, 3, 2, 7.5 }, y[5] = { 2, 1, 1, 1, 1 };
    const int64_t five = 5, one = 1, two = 2;
    assert_true(ddot_64_(&five, x, &one, y, &one) == 7.5);
    assert_true(cblas_ddot64_(3, x, 2, y, 2) == 12.5);
    assert_int_equal(idamax_64_(&five, x, &one), 5);
    assert_int_equal(idamax_64_(&two, x, &two), 2);
    free(A), free(B), free(C1), free(C2), free(Z), free(H1), free(H2);
}

/* Without a 64-bit host BLAS, a 32-bit routine serves the 64-bit entries of
 * levels 1 and 2 and would read the low half of each integer: an integer
 * past 32 bits is refused instead, through XERBLA with its position, and the
 * call changes nothing (a function returns 0).  Checked in registers and on the stack (the 13th
 * argument of DGBMV, the 14th of cblas_dgbmv past two reals). */
static void a_64_bit_integer_past_32_bits_is_refused_by_a_32_bit_host(void **state)
{
    (void)state;
    if (dlopen("libopenblas64_.so.0", RTLD_NOW) || dlopen("libopenblas64.so.0", RTLD_NOW) ||
        getenv("TESS_BLAS64_LIB"))
        skip(); /* a 64-bit host BLAS serves these */
    const int64_t wide = ((int64_t)1 << 32) + 2, one = 1, three = 3, zero = 0;
    double x[3] = { 1, 2, 3 }, y[3] = { 4, 5, 6 }, y0[3] = { 4, 5, 6 }, alpha = 2, beta = 1;
    double A[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

    forget();
    daxpy_64_(&wide, &alpha, x, &one, y, &one);
    assert_int_equal(seen.calls, 1);
    assert_string_equal(seen.name, "DAXPY ");
    assert_int_equal(seen.info, 1);
    assert_memory_equal(y, y0, sizeof y);
    forget();
    assert_true(ddot_64_(&three, x, &wide, y, &one) == 0);
    assert_string_equal(seen.name, "DDOT  ");
    assert_int_equal(seen.info, 3);
    forget();
    assert_int_equal(idamax_64_(&three, x, &wide), 0);
    assert_string_equal(seen.name, "IDAMAX");
    assert_int_equal(seen.info, 3);
    forget();
    /* after a call that returned 2, so that a refusal that left its return
     * register alone would show */
    assert_int_equal(cblas_idamax64_(3, x, 1) + cblas_idamax64_(wide, x, 1), 2);
    assert_string_equal(seen.name, "cblas_idamax");
    assert_int_equal(seen.info, 1);
    forget();
    dgbmv_64_("N", &three, &three, &zero, &zero, &alpha, A, &three, x, &one, &beta, y, &wide, 1);
    assert_string_equal(seen.name, "DGBMV ");
    assert_int_equal(seen.info, 13);
    assert_memory_equal(y, y0, sizeof y);
    forget();
    cblas_daxpy64_(3, alpha, x, 1, y, wide);
    assert_string_equal(seen.name, "cblas_daxpy");
    assert_int_equal(seen.info, 6);
    forget();
    cblas_dgbmv64_(COL, NT, 3, 3, 0, 0, alpha, A, 3, x, 1, beta, y, wide);
    assert_string_equal(seen.name, "cblas_dgbmv");
    assert_int_equal(seen.info, 14);
    assert_memory_equal(y, y0, sizeof y);

    /* negative increments fit: the same as the 32-bit call */
    forget();
    const int n32 = 3, kl32 = 1, zero32 = 0, lda32 = 3, m1_32 = -1;
    const int64_t kl = 1, m1 = -1;
    double y32[3] = { 4, 5, 6 };
    dgbmv_64_("T", &three, &three, &kl, &zero, &alpha, A, &three, x, &m1, &beta, y, &m1, 1);
    dgbmv_("T", &n32, &n32, &kl32, &zero32, &alpha, A, &lda32, x, &m1_32, &beta, y32, &m1_32, 1);
    assert_int_equal(seen.calls, 0);
    assert_memory_equal(y, y32, sizeof y);
}

static void invalid_arguments_reach_the_applications_handlers_and_change_nothing(void **state)
{
    (void)state;
    const int n = 4, bad = -1, small = 1;
    const int64_t n64 = 4, small64 = 1;
    double A[16] = { 0 }, B[16] = { 0 }, C[16], alpha = 1, beta = 0;
    for (int i = 0; i < 16; i++)
        C[i] = i;
    double C0[16];
    memcpy(C0, C, sizeof C);
    zc Z[16] = { 0 }, W[16] = { 0 };

    forget();
    dgemm_("N", "N", &bad, &n, &n, &alpha, A, &n, B, &n, &beta, C, &n, 1, 1);
    assert_int_equal(seen.calls, 1);
    assert_string_equal(seen.name, "DGEMM ");
    assert_int_equal(seen.len, 6);
    assert_int_equal(seen.info, 3);
    forget();
    dgemm_("x", "N", &n, &n, &n, &alpha, A, &n, B, &n, &beta, C, &n, 1, 1);
    assert_int_equal(seen.info, 1);
    forget();
    dgemm_("N", "N", &n, &n, &n, &alpha, A, &n, B, &n, &beta, C, &small, 1, 1);
    assert_int_equal(seen.info, 13);
    forget();
    dgemm_64_("T", "N", &n64, &n64, &n64, &alpha, A, &small64, B, &n64, &beta, C, &n64, 1, 1);
    assert_string_equal(seen.name, "DGEMM ");
    assert_int_equal(seen.info, 8);
    forget();
    dgemmtr_("u", "N", "X", &n, &n, &alpha, A, &n, B, &n, &beta, C, &n, 1, 1, 1);
    assert_string_equal(seen.name, "DGEMMTR");
    assert_int_equal(seen.info, 3);
    forget();
    zherk_("U", "T", &n, &n, &alpha, Z, &n, &beta, W, &n, 1, 1);
    assert_string_equal(seen.name, "ZHERK ");
    assert_int_equal(seen.info, 2);
    forget();
    zc za = 1;
    ztrsm_("L", "U", "N", "x", &n, &n, &za, Z, &n, W, &n, 1, 1, 1, 1);
    assert_string_equal(seen.name, "ZTRSM ");
    assert_int_equal(seen.info, 4);

    /* CBLAS: the layout is 1, the rest one more than Fortran's number; a
     * row-major call's number is its transposed call's, with RowMajorStrg
     * set while the handler runs */
    forget();
    cblas_dgemm(7, NT, NT, n, n, n, alpha, A, n, B, n, beta, C, n);
    assert_string_equal(seen.name, "cblas_dgemm");
    assert_int_equal(seen.info, 1);
    forget();
    cblas_dgemm(COL, NT, NT, n, n, n, alpha, A, small, B, n, beta, C, n);
    assert_int_equal(seen.info, 9);
    assert_int_equal(seen.row_major, 0);
    forget();
    cblas_dgemm(ROW, NT, NT, bad, n, n, alpha, A, n, B, n, beta, C, n);
    assert_int_equal(seen.info, 5);
    assert_int_equal(seen.row_major, 1);
    assert_int_equal(RowMajorStrg, 0);
    forget();
    cblas_dgemm(ROW, 7, NT, n, n, n, alpha, A, n, B, n, beta, C, n);
    assert_int_equal(seen.info, 2);
    forget();
    cblas_zherk(ROW, UP, TR, n, n, alpha, Z, n, beta, W, n);
    assert_string_equal(seen.name, "cblas_zherk");
    assert_int_equal(seen.info, 3);
    forget();
    cblas_dtrsm(ROW, LEFT, UP, NT, 7, n, n, alpha, A, n, C, n);
    assert_int_equal(seen.info, 5);
    forget();
    cblas_dtrsm(ROW, LEFT, UP, NT, NU, bad, n, alpha, A, n, C, n);
    assert_int_equal(seen.info, 7); /* N of the transposed call: the 6th, plus one */
    assert_memory_equal(C, C0, sizeof C);
}

/* SYR2K and HER2K do not read A or B when alpha is 0 or k is 0 (reference BLAS's quick
 * return): C = beta C on its triangle (HER2K's diagonal real), exactly, and no XERBLA, whatever
 * A and B point to. */
static void syr2k_and_her2k_that_read_no_b_scale_c_whatever_b_points_to(void **state)
{
    (void)state;
    const int n = 4, zero = 0, one = 1;
    const double alpha[2] = { 0, 1 }, beta = 2;
    const zc zalpha[2] = { 0, 1 };
    for (int kase = 0; kase < 2; kase++) { /* alpha = 0 and k = n; alpha = 1 and k = 0 */
        const int *k = kase ? &zero : &n, *ld = kase ? &one : &n; /* A, B^H: k x n */
        double C[16];
        zc Z[16];
        for (int i = 0; i < 16; i++)
            C[i] = i + 1, Z[i] = (i + 1) + I * (i + 2);
        forget();
        dsyr2k_("U", "N", &n, k, &alpha[kase], NULL, &n, NULL, &n, &beta, C, &n, 1, 1);
        zher2k_("L", "C", &n, k, &zalpha[kase], NULL, ld, NULL, ld, &beta, Z, &n, 1, 1);
        assert_int_equal(seen.calls, 0);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int e = i + j * n;
                zc z = (e + 1) + I * (e + 2);
                assert_true(C[e] == (i <= j ? beta : 1) * (e + 1));
                zc want = i > j ? beta * z : i == j ? beta * (e + 1) : z;
                assert_true(Z[e] == want);
            }
    }
}

static bool check_gemm_once(int n)
{
    double *A = dmat((size_t)n * n), *B = dmat((size_t)n * n), *C = dmat((size_t)n * n);
    double *R = malloc((size_t)n * n * sizeof *R), alpha = 2, beta = 1;
    memcpy(R, C, (size_t)n * n * sizeof *R);
    ref_gemm(false, false, 0, NT, NT, n, n, n, alpha, A, n, B, n, beta, R, n);
    dgemm_("N", "N", &n, &n, &n, &alpha, A, &n, B, &n, &beta, C, &n, 1, 1);
    bool ok = max_diff(false, C, R, (size_t)n * n) < 1e-12;
    free(A), free(B), free(C), free(R);
    return ok;
}

static void a_forked_child_gets_correct_results(void **state)
{
    (void)state;
    assert_true(check_gemm_once(13));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(check_gemm_once(17) && check_gemm_once(9) ? 0 : 1);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(check_gemm_once(11));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_calls_from_many_threads_at_once_are_all_correct),
        cmocka_unit_test(gemmt_and_gemmtr_match_a_reference_in_both_layouts),
        cmocka_unit_test(the_64_bit_entry_points_match_the_32_bit_ones),
        cmocka_unit_test(a_64_bit_integer_past_32_bits_is_refused_by_a_32_bit_host),
        cmocka_unit_test(invalid_arguments_reach_the_applications_handlers_and_change_nothing),
        cmocka_unit_test(syr2k_and_her2k_that_read_no_b_scale_c_whatever_b_points_to),
        cmocka_unit_test(a_forked_child_gets_correct_results),
    };
    /* the runtime is left running: exit stops it */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
