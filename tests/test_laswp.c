/* LASWP on the host backend (host:2, nb = 16): every increment, long runs of interchanges,
 * views whose rows below the pivots' must not be read, pivots a GETRF is still computing.
 * LASWP equals the host LAPACK's laswp bit for bit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lapackutil.h"

#define NB TU_NB

/* Pivots as getrf makes them (row i with a row at or below it) or anywhere in 1..m. */
static int64_t *random_pivots(int64_t len, int64_t inc, int64_t m, bool below, unsigned seed)
{
    int64_t span = tu_vec_span(len, inc), *p = malloc((size_t)span * sizeof *p);
    srand(seed);
    for (int64_t i = 0; i < span; i++)
        p[i] = below ? i / (inc > 0 ? inc : -inc) + 1 + rand() % 3 : 1 + rand() % m;
    for (int64_t i = 0; i < span; i++)
        p[i] = p[i] > m ? m : p[i];
    return p;
}

static void laswp_case(const tu_type_t *t, int64_t m, int64_t n, int64_t k1, int64_t k2,
                       int64_t incx, bool below)
{
    int64_t lda = m + 2, s = incx > 0 ? incx : -incx;
    int64_t *ipiv = random_pivots(k2 + k1 * s, s, m, below, (unsigned)(m + n + k1 + incx));
    void *A = tu_matrix(t, lda, n, (unsigned)(n + k2)), *R = tu_copy(t, A, lda, n);
    assert_int_equal(tl_laswp_async(t, n, A, lda, k1, k2, ipiv, incx), 0);
    tl_sync_matrix(t, A, lda, n, lda);
    tl_laswp_ref(t, n, R, lda, k1, k2, ipiv, incx);
    if (!tu_same_outside(t, A, R, lda, n, lda, 0, 0, 0, 0))
        fail_msg("%slaswp %lld x %lld k1 %lld k2 %lld incx %lld differs from LAPACK's", t->name,
                 (long long)m, (long long)n, (long long)k1, (long long)k2, (long long)incx);
    tu_release(t, A, lda, n);
    free(R);
    tl_release_pivots(ipiv, tu_vec_span(k2 + k1 * s, s));
}

static void laswp_interchanges_rows_as_lapack_does_for_every_increment(void **state)
{
    (void)state;
    const int64_t incs[] = { 1, -1, 2, -3 };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int i = 0; i < 4; i++) {
            laswp_case(&tu_types[ti], 5 * NB, 3 * NB + 2, 1, 4 * NB + 3, incs[i], true);
            laswp_case(&tu_types[ti], 3 * NB, 2 * NB, NB - 2, 2 * NB + 1, incs[i], false);
            laswp_case(&tu_types[ti], 7, 1, 3, 3, incs[i], false);
        }
}

/* Runs of interchanges longer than a GPU applies as one permutation (512), with rows swapped
 * again and again, in both directions: the result is still LAPACK's, bit for bit. */
static void laswp_applies_long_runs_of_interchanges_in_order(void **state)
{
    (void)state;
    const int64_t incs[] = { 1, -1 };
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int i = 0; i < 2; i++) {
            laswp_case(&tu_types[ti], 1600, 37, 3, 1500, incs[i], true);
            laswp_case(&tu_types[ti], 1600, 37, 1, 1100, incs[i], false);
        }
}

/* span bytes that end where an unmapped page begins, so that a read past them faults; freed
 * with release_guarded. */
typedef struct {
    char *map;
    size_t mapped;
} guarded_t;

static void *guarded(size_t span, guarded_t *g)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    g->mapped = (span + page - 1) / page * page;
    g->map =
        mmap(NULL, g->mapped + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(g->map != MAP_FAILED);
    assert_int_equal(mprotect(g->map + g->mapped, page, PROT_NONE), 0);
    return g->map + g->mapped - span;
}

static void release_guarded(guarded_t *g)
{
    assert_int_equal(munmap(g->map, g->mapped + (size_t)sysconf(_SC_PAGESIZE)), 0);
}

/* LASWP on an m x n view of lda = m + 40 rows whose pivots name rows up to m only: the rows
 * below m hold NaN and are neither changed nor fetched (the host-to-device bytes stay within
 * the m rows' and the pivots' copies to each device), and the last column ends where an
 * unmapped page begins, so a read past it would fault.  A's m rows are LAPACK's. */
static void laswp_touches_only_the_rows_its_pivots_name(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t m = 3 * NB + 1, n = 2 * NB + 3, lda = m + 40, k2 = 2 * NB + 5;
    size_t span = (size_t)(lda * (n - 1) + m) * 8;
    guarded_t g;
    double *A = guarded(span, &g), *R = malloc((size_t)(lda * n) * 8);
    double *src = tu_matrix(t, lda, n, 91);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++)
            R[i + j * lda] = i < m ? src[i + j * lda] : NAN;
    memcpy(A, R, span);
    int64_t *ipiv = tl_pivots(k2);
    for (int64_t i = 0; i < k2; i++)
        ipiv[i] = i + 1 + rand() % (m - i);
    ipiv[k2 / 2] = m;
    uint64_t h2d = tu_h2d_bytes();
    assert_int_equal(tess_dlaswp_async(n, A, lda, 1, k2, ipiv, 1), 0);
    tl_sync_matrix(t, A, m, n, lda);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    assert_true(tu_h2d_bytes() - h2d <= (uint64_t)(m * n + s.ndevices * k2) * 8);
    tl_laswp_ref(t, n, R, lda, 1, k2, ipiv, 1);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < (j < n - 1 ? lda : m); i++)
            if (i < m ? A[i + j * lda] != R[i + j * lda] : !isnan(A[i + j * lda]))
                fail_msg("A(%lld, %lld) is %g", (long long)i, (long long)j, A[i + j * lda]);
    assert_int_equal(tess_memory_invalidate(m, n, A, lda, 8), 0);
    release_guarded(&g);
    tl_release_pivots(ipiv, k2);
    free(src);
    free(R);
}

/* LASWP of rows 1 to m of A's n columns right behind the GETRF of the m x m G that computes its
 * pivots (no sync between), then A's first rows rows and the pivots made coherent; the GETRF's
 * info is 0. */
static void laswp_behind_getrf(const tu_type_t *t, int64_t m, double *G, int64_t n, double *A,
                               int64_t rows, int64_t lda, int64_t *ipiv)
{
    int64_t info = -1;
    assert_int_equal(tess_dgetrf_async(m, m, G, m, ipiv, &info), 0);
    assert_int_equal(tess_dlaswp_async(n, A, lda, 1, m, ipiv, 1), 0);
    tl_sync_matrix(t, A, rows, n, lda);
    assert_int_equal(tess_memory_coherent_async(TessAll, m, 1, ipiv, m, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(info, 0);
}

/* LASWP right after the GETRF that computes its pivots, on a view i0 rows down the last columns
 * of a parent that ends where an unmapped page begins: LAPACK's lda x n from the view would run
 * past the parent, and LAPACK's LASWP touches only the rows its pivots name.  So do these: the
 * GETRF's m rows at most, read before its pivots are known (no sync between).  The view's rows
 * are LAPACK's, and every other element of the parent is what it was. */
static void laswp_on_pivots_still_being_computed_reads_no_row_past_the_factorizations(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t m = 2 * NB + 3, lda = m + 2 * NB, cols = 2 * NB + 5, i0 = NB + 1, j0 = NB,
            n = cols - j0;
    size_t span = (size_t)(lda * cols) * 8;
    guarded_t g;
    double *P = guarded(span, &g), *A = P + i0 + j0 * lda;
    double *src = tu_matrix(t, lda, cols, 93), *G = tu_matrix(t, m, m, 94);
    memcpy(P, src, span);
    double *R = tu_copy(t, src, lda, cols);
    int64_t *ipiv = tl_pivots(m);
    laswp_behind_getrf(t, m, G, n, A, m, lda, ipiv);
    tl_laswp_ref(t, n, R + i0 + j0 * lda, lda, 1, m, ipiv, 1);
    assert_memory_equal(P, R, span);
    assert_int_equal(tess_memory_invalidate(m, n, A, lda, 8), 0);
    release_guarded(&g);
    tu_release(t, G, m, m);
    tl_release_pivots(ipiv, m);
    free(src);
    free(R);
}

/* The call's own tile size (TESS_NB unset) on 2 and 4 devices: LASWP on the pivots of a GETRF
 * of several panels, first while the GETRF is still computing them, then in reverse once they
 * are on the host, equals the host LAPACK's laswp bit for bit each time. */
static void laswp_on_the_default_tile_size_equals_lapacks(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    const int ndevs[] = { 2, 4 };
    for (int d = 0; d < 2; d++) {
        assert_int_equal(tu_init_host(ndevs[d], 0, 0), 0);
        tess_stats_t st;
        assert_int_equal(tess_get_stats(&st), 0);
        int64_t m = st.nb / 2 + 16, n = m / 2 + 3, lda = m + 5;
        double *G = tu_matrix(t, m, m, 95), *A = tu_matrix(t, lda, n, 96);
        double *R = tu_copy(t, A, lda, n);
        int64_t *ipiv = tl_pivots(m);
        laswp_behind_getrf(t, m, G, n, A, lda, lda, ipiv);
        tl_laswp_ref(t, n, R, lda, 1, m, ipiv, 1);
        assert_true(tu_same_outside(t, A, R, lda, n, lda, 0, 0, 0, 0));
        assert_int_equal(tess_dlaswp_async(n, A, lda, 1, m, ipiv, -1), 0);
        tl_sync_matrix(t, A, lda, n, lda);
        tl_laswp_ref(t, n, R, lda, 1, m, ipiv, -1);
        assert_true(tu_same_outside(t, A, R, lda, n, lda, 0, 0, 0, 0));
        tu_release(t, G, m, m);
        tu_release(t, A, lda, n);
        tl_release_pivots(ipiv, m);
        free(R);
        assert_int_equal(tess_finalize(), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(laswp_interchanges_rows_as_lapack_does_for_every_increment),
        cmocka_unit_test(laswp_applies_long_runs_of_interchanges_in_order),
        cmocka_unit_test(laswp_touches_only_the_rows_its_pivots_name),
        cmocka_unit_test(laswp_on_pivots_still_being_computed_reads_no_row_past_the_factorizations),
    };
    const struct CMUnitTest on_their_own[] = {
        cmocka_unit_test(laswp_on_the_default_tile_size_equals_lapacks),
    };
    return cmocka_run_group_tests_name("laswp", tests, tu_group_setup, tu_group_teardown) +
           cmocka_run_group_tests_name("laswp, own runtime", on_their_own, NULL, NULL);
}
