/* The legacy library's default thresholds, with the application's runtime up
 * on two host devices: a square DTRSM runs through the runtime from n = 1024
 * (5e8 flops and 32 flops per byte, measured on a GPU) and stays on the host
 * BLAS at n = 512.  A is twice the identity, so every entry of the solution
 * is exactly 1/2 whichever path it takes.  A small call, which goes straight
 * to the host BLAS, is refused as the reference BLAS refuses it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tessera.h"

void dtrsm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const double *, const double *, const int *, double *, const int *, size_t, size_t,
            size_t, size_t);

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);

/* What reached XERBLA last. */
static struct {
    int calls, info;
    char name[8];
} seen;

void xerbla_(const char *name, const int *info, size_t len);
void xerbla_(const char *name, const int *info, size_t len)
{
    seen.calls++;
    snprintf(seen.name, sizeof seen.name, "%.*s", (int)(len < 6 ? len : 6), name);
    seen.info = *info;
}

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

/* The reference asks every leading dimension to be at least max(1, rows), so 0 is refused
 * even when a dimension is 0 (OpenBLAS's GEMM lets it through): XERBLA at lda's, ldb's or
 * ldc's position, and C as it was. */
static void
a_small_gemm_with_a_leading_dimension_of_zero_is_refused_as_the_reference_does(void **state)
{
    (void)state;
    const int zero = 0, two = 2, one = 1;
    const double alpha = 1, beta = 2;
    double A[4] = { 1, 2, 3, 4 }, B[4] = { 1, 2, 3, 4 }, C[4] = { 1, 2, 3, 4 }, C0[4];
    memcpy(C0, C, sizeof C);
    struct {
        const char *ta, *tb;
        const int *m, *n, *k, *lda, *ldb, *ldc;
        int pos;
    } bad[] = {
        { "N", "N", &zero, &two, &two, &zero, &two, &one, 8 },
        { "T", "N", &two, &two, &zero, &zero, &one, &two, 8 },
        { "N", "N", &two, &two, &zero, &two, &zero, &two, 10 },
        { "N", "T", &two, &zero, &two, &two, &zero, &two, 10 },
        { "N", "N", &zero, &two, &two, &one, &two, &zero, 13 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        seen.calls = 0;
        dgemm_(bad[i].ta, bad[i].tb, bad[i].m, bad[i].n, bad[i].k, &alpha, A, bad[i].lda, B,
               bad[i].ldb, &beta, C, bad[i].ldc, 1, 1);
        if (seen.calls != 1 || strcmp(seen.name, "DGEMM ") || seen.info != bad[i].pos)
            fail_msg("case %zu: XERBLA called %d times, last with %s %d; the reference's %d", i,
                     seen.calls, seen.name, seen.info, bad[i].pos);
        assert_memory_equal(C, C0, sizeof C);
    }
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
        cmocka_unit_test(
            a_small_gemm_with_a_leading_dimension_of_zero_is_refused_as_the_reference_does),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
