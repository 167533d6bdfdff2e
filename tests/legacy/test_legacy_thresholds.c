/* The legacy library's default thresholds, with the application's runtime up
 * on two host devices: a square DTRSM runs through the runtime from n = 1024
 * (5e8 flops and 32 flops per byte, measured on a GPU) and stays on the host
 * BLAS at n = 512.  A is twice the identity, so every entry of the solution
 * is exactly 1/2 whichever path it takes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "tessera.h"

void dtrsm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const double *, const double *, const int *, double *, const int *, size_t, size_t,
            size_t, size_t);

static uint64_t tasks_run(void)
{
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    uint64_t t = 0;
    for (size_t i = 0; i < sizeof s.tasks / sizeof *s.tasks; i++)
        t += s.tasks[i];
    return t;
}

/* B := A^-1 B for A = 2 I (lower, non-unit) and B all ones; the number of
 * runtime tasks it took. */
static uint64_t solve_tasks(int n)
{
    double *A = calloc((size_t)n * n, sizeof *A), *B = malloc((size_t)n * n * sizeof *B), one = 1;
    for (int i = 0; i < n; i++)
        A[i + (size_t)i * n] = 2;
    for (size_t i = 0; i < (size_t)n * n; i++)
        B[i] = 1;
    uint64_t before = tasks_run();
    dtrsm_("L", "L", "N", "N", &n, &n, &one, A, &n, B, &n, 1, 1, 1, 1);
    uint64_t after = tasks_run();
    for (size_t i = 0; i < (size_t)n * n; i++)
        assert_true(B[i] == 0.5);
    free(A);
    free(B);
    return after - before;
}

static void a_square_trsm_of_512_stays_on_the_host_blas(void **state)
{
    (void)state;
    assert_int_equal(solve_tasks(512), 0);
}

static void a_square_trsm_of_1024_runs_through_the_runtime(void **state)
{
    (void)state;
    assert_true(solve_tasks(1024) > 0);
}

static int setup(void **state)
{
    (void)state;
    tess_config_t cfg = { .devices = "host:2", .nb = 256 };
    return tess_init(&cfg);
}

static int teardown(void **state)
{
    (void)state;
    return tess_finalize();
}

int main(void)
{
    unsetenv("TESS_THRESHOLD"); /* read at the library's first BLAS call */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_square_trsm_of_512_stays_on_the_host_blas),
        cmocka_unit_test(a_square_trsm_of_1024_runs_through_the_runtime),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
