/* A program linked with libtessera and libtessera_blas has one runtime: the
 * application's tess_init starts it, the legacy library's BLAS-3 calls (meson
 * runs this with TESS_THRESHOLD=0) run their tasks on it, in any order with
 * the application's own *_async calls, and calls of levels 1 and 2 go to the
 * host BLAS beside it.  Once the application finalizes it, BLAS calls of
 * every level are still right.  All-ones operands, so that every result is
 * known exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "tessera.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);
void dtrsm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const double *, const double *, const int *, double *, const int *, size_t, size_t,
            size_t, size_t);
void dgemv_(const char *, const int *, const int *, const double *, const double *, const int *,
            const double *, const int *, const double *, double *, const int *, size_t);
double ddot_(const int *, const double *, const int *, const double *, const int *);

enum { N = 48 };

static double A[N * N], C[N * N], x[N], y[N];

static uint64_t tasks_run(void)
{
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    uint64_t t = 0;
    for (int d = 0; d < s.ndevices; d++)
        t += s.tasks[d];
    return t;
}

static void fill(double *a, int n, double v)
{
    for (int i = 0; i < n; i++)
        a[i] = v;
}

static int64_t entries_other_than(const double *a, int n, double v)
{
    int64_t wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += a[i] != v;
    return wrong;
}

/* C = A A with A all ones: every entry N. */
static void legacy_gemm(void)
{
    int n = N;
    double one = 1, zero = 0;
    fill(C, N * N, -1);
    dgemm_("N", "N", &n, &n, &n, &one, A, &n, A, &n, &zero, C, &n, 1, 1);
    assert_int_equal(entries_other_than(C, N * N, N), 0);
}

/* C = A^-1 C, A the identity (unit lower triangle, nothing below it):
 * C unchanged. */
static void legacy_trsm(void)
{
    int n = N;
    double one = 1;
    double *L = calloc(N * N, sizeof *L);
    fill(C, N * N, 3);
    dtrsm_("L", "L", "N", "U", &n, &n, &one, L, &n, C, &n, 1, 1, 1, 1);
    free(L);
    assert_int_equal(entries_other_than(C, N * N, 3), 0);
}

/* Levels 1 and 2: y = A x and x . x with all ones, N each. */
static void legacy_levels_1_and_2(void)
{
    int n = N, inc = 1;
    double one = 1, zero = 0;
    fill(x, N, 1);
    fill(y, N, -1);
    dgemv_("N", &n, &n, &one, A, &n, x, &inc, &zero, y, &inc, 1);
    assert_int_equal(entries_other_than(y, N, N), 0);
    assert_true(ddot_(&n, x, &inc, x, &inc) == N);
}

static void async_gemm(void)
{
    fill(C, N * N, -1);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, N, N, N, 1, A, N, A, N, 0, C, N),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, N, N, C, N, sizeof *C), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(entries_other_than(C, N * N, N), 0);
    /* the host writes C next */
    assert_int_equal(tess_memory_invalidate(N, N, C, N, sizeof *C), 0);
}

/* Each BLAS-3 call, legacy or async, adds tasks to the application's
 * runtime; levels 1 and 2 add none. */
static void blas_calls_of_every_level_and_async_calls_share_one_runtime(void **state)
{
    (void)state;
    fill(A, N * N, 1);
    tess_config_t cfg = { .devices = "host:2", .nb = 16 };
    assert_int_equal(tess_init(&cfg), 0);
    void (*const order[])(void) = { legacy_gemm, async_gemm,  legacy_trsm, legacy_gemm,
                                    async_gemm,  legacy_trsm, async_gemm };
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        uint64_t before = tasks_run();
        order[i]();
        assert_true(tasks_run() > before);
        before = tasks_run();
        legacy_levels_1_and_2();
        assert_true(tasks_run() == before);
    }
    assert_int_equal(tess_finalize(), 0);
}

static void blas_calls_of_every_level_are_right_after_the_application_finalizes(void **state)
{
    (void)state;
    fill(A, N * N, 1);
    tess_config_t cfg = { .devices = "host:2", .nb = 16 };
    assert_int_equal(tess_init(&cfg), 0);
    legacy_gemm();
    assert_int_equal(tess_finalize(), 0);
    legacy_gemm();
    legacy_trsm();
    legacy_levels_1_and_2();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blas_calls_of_every_level_and_async_calls_share_one_runtime),
        cmocka_unit_test(blas_calls_of_every_level_are_right_after_the_application_finalizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
