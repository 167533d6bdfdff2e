/* The legacy BLAS library in a program that starts the runtime itself (meson
 * runs it with TESS_THRESHOLD=0): BLAS-3 calls use the application's runtime
 * while it is up, and once the application has finalized it they are still
 * right.  All-ones operands, so every entry of C is known exactly. */
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

enum { N = 40 };

/* C += A B with A and B all ones: every entry of C grows by N. */
static void add_product(const double *A, double *C)
{
    int n = N;
    double one = 1;
    dgemm_("N", "N", &n, &n, &n, &one, A, &n, A, &n, &one, C, &n, 1, 1);
}

static int64_t entries_other_than(const double *C, double v)
{
    int64_t wrong = 0;
    for (int i = 0; i < N * N; i++)
        wrong += C[i] != v;
    return wrong;
}

static void calls_after_the_application_finalizes_its_runtime_are_right(void **state)
{
    (void)state;
    double *A = malloc(N * N * sizeof *A), *C = calloc(N * N, sizeof *C);
    for (int i = 0; i < N * N; i++)
        A[i] = 1;
    tess_config_t cfg = { .devices = "host:2", .nb = 16 };
    assert_int_equal(tess_init(&cfg), 0);
    add_product(A, C);
    assert_int_equal(entries_other_than(C, N), 0);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    assert_true(s.tasks[0] + s.tasks[1] > 0); /* it ran on the application's runtime */
    assert_int_equal(tess_finalize(), 0);
    for (int r = 2; r <= 4; r++) {
        add_product(A, C);
        assert_int_equal(entries_other_than(C, r * N), 0);
    }
    free(A);
    free(C);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calls_after_the_application_finalizes_its_runtime_are_right),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
