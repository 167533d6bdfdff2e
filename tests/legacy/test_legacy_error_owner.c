/* A program linked with libtessera and libtessera_blas has one runtime, which
 * its own *_async calls and the legacy library's calls share; each caller
 * gets its own errors.  meson runs this with TESS_THRESHOLD=0 (every BLAS-3
 * call through the runtime) and TESS_FAULT=kernel:1 (the first task's kernel
 * fails with TESS_EDEVICE).  All-ones operands, so that every entry of a
 * product is known exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "tessera.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);

enum { N = 48 };

static int64_t entries_other_than(const double *a, int n, double v)
{
    int64_t wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += a[i] != v;
    return wrong;
}

/* The application's GEMM fails (its first task's kernel); a legacy DGEMM made
 * before the application syncs gets the right product, and the application's
 * tess_sync still reports its own failure, once. */
static void an_application_error_is_reported_to_it_not_taken_by_a_legacy_call(void **state)
{
    (void)state;
    double *A = malloc(N * N * sizeof *A), *C = calloc(N * N, sizeof *C);
    double *L = malloc(N * N * sizeof *L);
    for (int i = 0; i < N * N; i++)
        A[i] = 1, L[i] = -1;
    tess_config_t cfg = { .devices = "host:2", .nb = 16 };
    assert_int_equal(tess_init(&cfg), 0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, N, N, N, 1, A, N, A, N, 0, C, N),
                     0);
    int n = N;
    double one = 1, zero = 0;
    dgemm_("N", "N", &n, &n, &n, &one, A, &n, A, &n, &zero, L, &n, 1, 1);
    int64_t wrong = entries_other_than(L, N * N, N);
    int err = tess_sync(), again = tess_sync();
    assert_int_equal(tess_memory_invalidate(N, N, C, N, sizeof *C), 0);
    assert_int_equal(tess_finalize(), 0);
    free(A), free(C), free(L);
    if (wrong)
        fail_msg("the legacy DGEMM's product has %lld wrong entries", (long long)wrong);
    if (err != TESS_EDEVICE)
        fail_msg("the application's tess_sync after its failed task returned %d (%s), not "
                 "TESS_EDEVICE: a legacy call in between took the application's error",
                 err, tess_strerror(err));
    assert_int_equal(again, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_application_error_is_reported_to_it_not_taken_by_a_legacy_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
