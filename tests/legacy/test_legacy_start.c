/* The legacy library's runtime starts on GPUs on a thread of its own: the
 * first call large enough for the runtime starts it, and calls the host BLAS
 * finishes in a quarter of a second (the first estimated at 16 GFLOP/s a
 * host BLAS thread) run there meanwhile, while a larger one waits for the start and runs
 * through the runtime.  Whichever way each call goes, its result is right.  Skipped
 * without a GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>
#include <cuda_runtime.h>
#include "tessera.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);

static uint64_t tasks_run(void)
{
    tess_stats_t s;
    if (tess_get_stats(&s))
        return 0; /* not up */
    uint64_t t = 0;
    for (size_t i = 0; i < sizeof s.tasks / sizeof *s.tasks; i++)
        t += s.tasks[i];
    return t;
}

/* C = A B for A = 2 I and B all ones: every entry of C is exactly 2. */
static void multiply_and_check(int n)
{
    size_t nn = (size_t)n * n;
    double *A = calloc(nn, sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
    double one = 1, zero = 0;
    assert_non_null(A), assert_non_null(B), assert_non_null(C);
    for (int i = 0; i < n; i++)
        A[i + (size_t)i * n] = 2;
    for (size_t i = 0; i < nn; i++)
        B[i] = 1, C[i] = NAN;
    dgemm_("N", "N", &n, &n, &n, &one, A, &n, B, &n, &zero, C, &n, 1, 1);
    for (size_t i = 0; i < nn; i++)
        assert_true(C[i] == 2);
    free(A), free(B), free(C);
}

/* The first call finds the runtime starting (its own call began the start)
 * and the host BLAS runs it: no task, whether or not the start is over when
 * it returns. */
static void
while_the_runtime_starts_a_quick_call_runs_on_the_host_and_a_large_one_waits(void **state)
{
    (void)state;
    /* above DGEMM's threshold (n = 1000), below the host's quarter second */
    multiply_and_check(1024);
    assert_int_equal(tasks_run(), 0);
    /* 2 n^3 flops above a quarter second of the host at 64 GFLOP/s a core,
     * more than any core runs on its own */
    double host = 0.25 * 64e9 * (double)sysconf(_SC_NPROCESSORS_ONLN);
    int n = ((int)cbrt(host / 2) / 256 + 1) * 256;
    uint64_t before = tasks_run();
    multiply_and_check(n);
    assert_true(tasks_run() > before);
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return 77; /* meson's "skipped" */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            while_the_runtime_starts_a_quick_call_runs_on_the_host_and_a_large_one_waits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
