/* The legacy library's runtime starts on a thread of its own when the start
 * takes time (GPUs; host devices slowed by TESS_HOST_OPEN_DELAY): meanwhile a
 * call runs on the host BLAS when its host estimate is no longer than what the
 * start is expected to have left, and a larger one waits for the start and
 * runs through the runtime.  Whichever way each call goes, its result is
 * right.  Skipped without a GPU unless TESS_DEVICES names host devices. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "build_config.h"
#include "tessera.h"
#ifdef TESS_CUDA_BACKEND
#include <cuda_runtime.h>
#endif

/* The bridge's (bridge/legacy_iface.h): what the start is expected to take. */
double tess_internal_start_expected_s(void);

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

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* C = A B for A = 2 I and B all ones: every entry of C is exactly 2.  The
 * seconds the call took. */
static double multiply_and_check(int n)
{
    size_t nn = (size_t)n * n;
    double *A = calloc(nn, sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
    double one = 1, zero = 0;
    assert_non_null(A), assert_non_null(B), assert_non_null(C);
    for (int i = 0; i < n; i++)
        A[i + (size_t)i * n] = 2;
    for (size_t i = 0; i < nn; i++)
        B[i] = 1, C[i] = NAN;
    double t0 = now_s();
    dgemm_("N", "N", &n, &n, &n, &one, A, &n, B, &n, &zero, C, &n, 1, 1);
    double s = now_s() - t0;
    for (size_t i = 0; i < nn; i++)
        assert_true(C[i] == 2);
    free(A), free(B), free(C);
    return s;
}

/* The first call starts the runtime; above DGEMM's threshold (n = 1000), its
 * first estimate (16 GFLOP/s a host BLAS thread) is far below any start's
 * expectation, so the host BLAS runs it: no task.  The second's estimate, at
 * the rate the first ran at, is four times the whole start's expectation:
 * it waits for the start and runs through the runtime. */
static void
while_the_runtime_starts_a_call_the_host_ends_sooner_runs_there_and_a_larger_one_waits(void **state)
{
    (void)state;
    double expected = tess_internal_start_expected_s();
    assert_true(expected > 0);
    int n1 = 1024;
    double s1 = multiply_and_check(n1);
    assert_int_equal(tasks_run(), 0);
    double rate = 2 * pow(n1, 3) / s1;
    int n = (int)cbrt(4 * expected * rate / 2) + 1;
    uint64_t before = tasks_run();
    multiply_and_check(n);
    assert_true(tasks_run() > before);
}

int main(void)
{
    const char *devices = getenv("TESS_DEVICES");
    int count = 0;
    if (!devices || strncmp(devices, "host:", 5)) {
#ifdef TESS_CUDA_BACKEND
        if (cudaGetDeviceCount(&count) != cudaSuccess)
            count = 0;
#endif
        if (count == 0)
            return 77; /* meson's "skipped" */
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            while_the_runtime_starts_a_call_the_host_ends_sooner_runs_there_and_a_larger_one_waits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
