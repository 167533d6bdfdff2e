/* The suites' matrices and vectors, their norms and checks, and the runtime's
 * set-up (testutil.h); the routines and references are testutil_routines.c's. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

const tu_type_t tu_types[TU_NTYPES] = {
    { "s", sizeof(float), false, FLT_EPSILON },
    { "d", sizeof(double), false, DBL_EPSILON },
    { "c", sizeof(float _Complex), true, FLT_EPSILON },
    { "z", sizeof(double _Complex), true, DBL_EPSILON },
};

void tu_set(const tu_type_t *t, void *A, int64_t i, int64_t j, int64_t ld, double _Complex v)
{
    tu_scalar(t, v, (char *)A + (size_t)(i + j * ld) * t->es);
}

/* One column more than asked for: the host LAPACK the references run on may
 * read past a matrix's end (OpenBLAS 0.3.21's complex dot kernels on AMD Zen
 * read one stride past a vector, so ZLAUUM of an upper triangle reads a column
 * beyond its matrix), which faults when the matrix ends a heap's last page. */
void *tu_alloc(const tu_type_t *t, int64_t ld, int64_t n)
{
    void *A = malloc((size_t)(ld * ((n > 0 ? n : 1) + 1)) * t->es);
    assert_non_null(A);
    return A;
}

static double uniform(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return ((*state >> 8) & 0xFFFF) / 32768.0 - 1.0;
}

void *tu_matrix(const tu_type_t *t, int64_t ld, int64_t n, unsigned seed)
{
    void *A = tu_alloc(t, ld, n);
    unsigned s = seed * 2654435761u + 1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++)
            tu_set(t, A, i, j, ld, uniform(&s) + (t->is_complex ? uniform(&s) * I : 0));
    return A;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

void tu_seed(uint64_t seed)
{
    rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
}

static double rand_unit(void)
{
    /* xorshift64*: plenty for test data, and the same sequence everywhere */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545f4914f6cdd1dull) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

double _Complex tu_rand(void)
{
    const double re = rand_unit();
    return re + rand_unit() * I;
}

void *tu_random(const tu_type_t *t, int64_t m, int64_t n, int64_t ld, double _Complex pad)
{
    void *A = tu_alloc(t, ld, n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++)
            tu_set(t, A, i, j, ld, i < m ? tu_rand() : pad);
    return A;
}

void *tu_copy(const tu_type_t *t, const void *A, int64_t ld, int64_t n)
{
    /* all of an allocation, which has one column when n is 0 */
    void *B = tu_alloc(t, ld, n);
    memcpy(B, A, (size_t)(ld * (n > 0 ? n : 1)) * t->es);
    return B;
}

void tu_fill(const tu_type_t *t, void *A, int64_t m, int64_t n, int64_t ld, double _Complex v)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            tu_set(t, A, i, j, ld, v);
}

/* ||A - B||_F over the m x n matrices, or over the uplo triangle of n x n
 * ones when tri; ||A||_F when B is NULL. */
static double frobenius(const tu_type_t *t, bool tri, tess_uplo_t uplo, const void *A,
                        const void *B, int64_t m, int64_t n, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            if (!tri || tu_in_triangle(uplo, i, j)) {
                double a = cabs(tu_get(t, A, i, j, ld) - (B ? tu_get(t, B, i, j, ld) : 0));
                s += a * a;
            }
    return sqrt(s);
}

double tu_norm(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld)
{
    return frobenius(t, false, TessLower, A, NULL, m, n, ld);
}

double tu_diff(const tu_type_t *t, const void *A, const void *B, int64_t m, int64_t n, int64_t ld)
{
    return frobenius(t, false, TessLower, A, B, m, n, ld);
}

bool tu_pad_intact(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld,
                   double _Complex v)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = m; i < ld; i++)
            if (tu_get(t, A, i, j, ld) != v)
                return false;
    return true;
}

int64_t tu_vec_span(int64_t len, int64_t inc)
{
    return len > 0 ? 1 + (len - 1) * llabs(inc) : 1;
}

void *tu_vec(const tu_type_t *t, int64_t len, int64_t inc, unsigned seed, double _Complex v)
{
    int64_t s = tu_vec_span(len, inc);
    void *x = tu_matrix(t, s, 1, seed);
    for (int64_t i = 0; i < s; i++)
        if (i % llabs(inc))
            tu_set(t, x, i, 0, s, TU_VEC_GAP);
        else if (v != 0)
            tu_set(t, x, i, 0, s, v);
    return x;
}

void *tu_vec_random(const tu_type_t *t, int64_t len, int64_t inc, double _Complex v)
{
    int64_t s = tu_vec_span(len, inc), step = llabs(inc);
    void *x = tu_alloc(t, s, 1);
    for (int64_t i = 0; i < s; i++)
        tu_set(t, x, i, 0, s, i % step ? TU_VEC_GAP : v != 0 ? v : tu_rand());
    return x;
}

bool tu_vec_gaps_intact(const tu_type_t *t, const void *x, int64_t len, int64_t inc)
{
    for (int64_t i = 0; i < tu_vec_span(len, inc); i++)
        if (i % llabs(inc) && tu_get(t, x, i, 0, 0) != TU_VEC_GAP)
            return false;
    return true;
}

double tu_vec_norm(const tu_type_t *t, const void *x, int64_t len, int64_t inc)
{
    double s = 0;
    for (int64_t e = 0; e < len; e++) {
        double a = cabs(tu_get(t, x, e * llabs(inc), 0, 0));
        s += a * a;
    }
    return sqrt(s);
}

double tu_vec_diff(const tu_type_t *t, const void *x, const void *y, int64_t len, int64_t inc)
{
    double s = 0;
    for (int64_t e = 0; e < len; e++) {
        int64_t i = e * llabs(inc);
        double a = cabs(tu_get(t, x, i, 0, 0) - tu_get(t, y, i, 0, 0));
        s += a * a;
    }
    return sqrt(s);
}

void *tu_vec_nan_to_zero(const tu_type_t *t, const void *x, int64_t len, int64_t inc)
{
    int64_t s = tu_vec_span(len, inc);
    void *y = tu_copy(t, x, s, 1);
    for (int64_t i = 0; i < s; i++)
        if (isnan(creal(tu_get(t, y, i, 0, 0))))
            tu_set(t, y, i, 0, 0, 0.0);
    return y;
}

int tu_vec_coherent_async(const tu_type_t *t, const void *x, int64_t len, int64_t inc)
{
    return tess_memory_coherent_async(TessAll, 1, len, x, llabs(inc), t->es);
}

void tu_vec_release(const tu_type_t *t, void *x, int64_t len, int64_t inc)
{
    tu_release(t, x, tu_vec_span(len, inc), 1);
}

bool tu_all_finite(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double _Complex v = tu_get(t, A, i, j, ld);
            if (!isfinite(creal(v)) || !isfinite(cimag(v)))
                return false;
        }
    return true;
}

double tu_gemm_residual(const tu_type_t *t, int64_t m, int64_t n, int64_t k, double _Complex alpha,
                        double normA, double normB, double _Complex beta, double normC0,
                        const void *C, const void *Cref, int64_t ldc)
{
    return tu_residual(t, tu_diff(t, C, Cref, m, n, ldc), k, alpha, normA, normB, beta, normC0);
}

void tu_gemmt_ref(const tu_type_t *t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc)
{
    if (n == 0)
        return;
    void *full = tu_copy(t, C, ldc, n);
    /* beta == 0 must not read C, whatever the host BLAS does with NaN */
    if (beta == 0)
        tu_fill(t, full, n, n, ldc, 0);
    tu_gemm_ref(t, ta, tb, n, n, k, alpha, A, lda, B, ldb, beta, full, ldc);
    for (int64_t j = 0; j < n; j++) {
        int64_t i0 = uplo == TessLower ? j : 0, i1 = uplo == TessLower ? n : j + 1;
        memcpy((char *)C + (size_t)(i0 + j * ldc) * t->es,
               (char *)full + (size_t)(i0 + j * ldc) * t->es, (size_t)(i1 - i0) * t->es);
    }
    free(full);
}

double tu_residual(const tu_type_t *t, double diff, int64_t k, double _Complex alpha, double normA,
                   double normB, double _Complex beta, double normC0)
{
    double scale = cabs(alpha) * normA * normB + cabs(beta) * normC0;
    if (scale == 0)
        return diff == 0 ? 0 : INFINITY;
    return diff / ((k > 1 ? (double)k : 1.0) * t->eps * scale);
}

bool tu_in_triangle(tess_uplo_t uplo, int64_t i, int64_t j)
{
    return uplo == TessLower ? i >= j : i <= j;
}

void *tu_tri_dense(const tu_type_t *t, const void *A, int64_t k, int64_t lda, tess_uplo_t uplo,
                   tess_diag_t diag)
{
    void *T = tu_matrix(t, k, k, 0);
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < k; i++) {
            double _Complex v = tu_in_triangle(uplo, i, j) ? tu_get(t, A, i, j, lda) : 0.0;
            tu_set(t, T, i, j, k, i == j && diag == TessUnit ? 1.0 : v);
        }
    return T;
}

uint64_t tu_triangle_tile_bytes(int64_t k, int64_t nb, tess_uplo_t uplo, size_t es)
{
    uint64_t bytes = 0;
    for (int64_t j = 0; j < k; j += nb)
        for (int64_t i = 0; i < k; i += nb)
            if (tu_in_triangle(uplo, i, j))
                bytes += (uint64_t)((k - i < nb ? k - i : nb) * (k - j < nb ? k - j : nb)) * es;
    return bytes;
}

uint64_t tu_h2d_bytes(void)
{
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    return s.bytes_h2d;
}

uint64_t tu_tasks_run(void)
{
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    uint64_t n = 0;
    for (int i = 0; i < s.ndevices; i++)
        n += s.tasks[i];
    return n;
}

double tu_tri_diff(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, const void *B,
                   int64_t ld)
{
    return frobenius(t, true, uplo, A, B, n, n, ld);
}

double tu_tri_norm(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t ld)
{
    return frobenius(t, true, uplo, A, NULL, n, n, ld);
}

bool tu_tri_finite(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t ld)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double _Complex v = tu_get(t, A, i, j, ld);
            if (tu_in_triangle(uplo, i, j) && (!isfinite(creal(v)) || !isfinite(cimag(v))))
                return false;
        }
    return true;
}

double tu_sym_norm(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (tu_in_triangle(uplo, i, j)) {
                double a = cabs(tu_get(t, A, i, j, ld));
                s += (i == j ? 1 : 2) * a * a;
            }
    return sqrt(s);
}

void tu_fill_other_triangle(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t ld,
                            double _Complex v)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (!tu_in_triangle(uplo, i, j))
                tu_set(t, A, i, j, ld, v);
}

bool tu_same_outside(const tu_type_t *t, const void *A, const void *B, int64_t m, int64_t n,
                     int64_t ld, int64_t i0, int64_t j0, int64_t wm, int64_t wn)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            if (i >= i0 && i < i0 + wm && j >= j0 && j < j0 + wn)
                continue;
            size_t off = (size_t)(i + j * ld) * t->es;
            if (memcmp((const char *)A + off, (const char *)B + off, t->es))
                return false;
        }
    return true;
}

bool tu_other_triangle_same(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A,
                            const void *B, int64_t ld)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            size_t off = (size_t)(i + j * ld) * t->es;
            if (!tu_in_triangle(uplo, i, j) &&
                memcmp((const char *)A + off, (const char *)B + off, t->es))
                return false;
        }
    return true;
}

bool tu_real_diagonal(const tu_type_t *t, int64_t n, const void *A, int64_t ld)
{
    for (int64_t i = 0; i < n; i++)
        if (cimag(tu_get(t, A, i, i, ld)) != 0)
            return false;
    return true;
}

/* TESS_TEST_DEVICES (e.g. "cuda", "cuda:0") runs a suite on other devices;
 * there mem, when given, is each GPU's cache. */
int tu_init_host(int ndev, int64_t nb, size_t mem)
{
    char devices[32];
    snprintf(devices, sizeof devices, "host:%d", ndev);
    tess_config_t cfg = { .devices = devices, .nb = nb, .host_device_mem = mem };
    const char *other = getenv("TESS_TEST_DEVICES");
    if (other && *other) {
        cfg.devices = other;
        /* bytes, not a share of the free memory, which other processes on
         * the same GPU change */
        cfg.cache_bytes = mem;
    }
    return tess_init(&cfg);
}

void tu_release(const tu_type_t *t, void *A, int64_t ld, int64_t n)
{
    assert_int_equal(tess_memory_invalidate(ld, n, A, ld, t->es), 0);
    free(A);
}

int tu_group_setup(void **state)
{
    (void)state;
    return tu_init_host(2, TU_NB, 0);
}

int tu_group_setup_default_nb(void **state)
{
    (void)state;
    return tu_init_host(2, 0, 0);
}

int tu_group_teardown(void **state)
{
    (void)state;
    return tess_finalize();
}

void tu_check_geadd(const tu_type_t *t, int64_t m, int64_t n, double _Complex alpha, const void *A,
                    int64_t lda, double _Complex beta, const void *Bv, const void *B0,
                    const void *B, int64_t ldb)
{
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < m; i++) {
            double _Complex a = A ? tu_get(t, A, i, j, lda) : 0;
            double _Complex b0 = Bv ? tu_get(t, Bv, i, j, ldb) : 0;
            double _Complex r = alpha * a + beta * b0, b = tu_get(t, B, i, j, ldb);
            double bound = 4 * t->eps * (cabs(alpha) * cabs(a) + cabs(beta) * cabs(b0));
            if (!(cabs(b - r) <= bound))
                fail_msg("%sgeadd (%lld, %lld): %g off, bound %g", t->name, (long long)i,
                         (long long)j, cabs(b - r), bound);
        }
        for (int64_t i = m; i < ldb; i++)
            assert_memory_equal((const char *)B + (size_t)(i + j * ldb) * t->es,
                                (const char *)B0 + (size_t)(i + j * ldb) * t->es, t->es);
    }
}
