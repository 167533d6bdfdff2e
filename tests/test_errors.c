/* Every error rule of the API: argument positions as reference BLAS numbers
 * them, with nothing submitted; runtime codes before tess_init and after
 * tess_finalize; configuration errors; tess_strerror for every code. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

static double A[64], B[64], C[64];

static void every_gemm_argument_error_returns_its_position_and_submits_nothing(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, 4, 0), 0);
    const tess_trans_t N = TessNoTrans, T = TessTrans;
    assert_int_equal(tess_dgemm_async(7, N, 2, 2, 2, 1, A, 2, B, 2, 0, C, 2), -1);
    assert_int_equal(tess_dgemm_async(N, 0, 2, 2, 2, 1, A, 2, B, 2, 0, C, 2), -2);
    assert_int_equal(tess_dgemm_async(N, N, -1, 2, 2, 1, A, 2, B, 2, 0, C, 2), -3);
    assert_int_equal(tess_dgemm_async(N, N, 2, -1, 2, 1, A, 2, B, 2, 0, C, 2), -4);
    assert_int_equal(tess_dgemm_async(N, N, 2, 2, -1, 1, A, 2, B, 2, 0, C, 2), -5);
    assert_int_equal(tess_dgemm_async(N, N, 2, 2, 2, 1, NULL, 2, B, 2, 0, C, 2), -7);
    assert_int_equal(tess_dgemm_async(N, N, 3, 2, 2, 1, A, 2, B, 2, 0, C, 3), -8);
    assert_int_equal(tess_dgemm_async(T, N, 2, 2, 3, 1, A, 2, B, 3, 0, C, 2), -8);
    assert_int_equal(tess_dgemm_async(N, N, 2, 2, 2, 1, A, 2, NULL, 2, 0, C, 2), -9);
    assert_int_equal(tess_dgemm_async(N, N, 2, 2, 3, 1, A, 2, B, 2, 0, C, 2), -10);
    assert_int_equal(tess_dgemm_async(N, T, 2, 3, 2, 1, A, 2, B, 2, 0, C, 2), -10);
    assert_int_equal(tess_dgemm_async(N, N, 2, 2, 2, 1, A, 2, B, 2, 0, NULL, 2), -12);
    assert_int_equal(tess_dgemm_async(N, N, 3, 2, 2, 1, A, 3, B, 2, 0, C, 2), -13);
    assert_int_equal(
        tess_sgemm_async(N, N, 2, 2, 2, 1, (float *)A, 1, (float *)B, 2, 0, (float *)C, 2), -8);
    assert_int_equal(
        tess_zgemm_async(N, 9, 2, 2, 2, 1, (void *)A, 2, (void *)B, 2, 0, (void *)C, 2), -2);
    assert_int_equal(
        tess_cgemm_async(N, N, 2, 2, 2, 1, (void *)A, 2, (void *)B, 2, 0, (void *)C, 1), -13);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tu_tasks_run(), 0);
    assert_int_equal(tess_finalize(), 0);
}

static void memory_call_argument_errors_return_their_positions(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(1, 4, 0), 0);
    assert_int_equal(tess_memory_coherent_async(5, 2, 2, A, 2, 8), -1);
    assert_int_equal(tess_memory_coherent_async(TessAll, -1, 2, A, 2, 8), -2);
    assert_int_equal(tess_memory_coherent_async(TessAll, 2, -1, A, 2, 8), -3);
    assert_int_equal(tess_memory_coherent_async(TessAll, 2, 2, NULL, 2, 8), -4);
    assert_int_equal(tess_memory_coherent_async(TessAll, 2, 2, A, 1, 8), -5);
    assert_int_equal(tess_memory_coherent_async(TessAll, 2, 2, A, 2, 3), -6);
    assert_int_equal(tess_memory_invalidate(-1, 2, A, 2, 8), -1);
    assert_int_equal(tess_memory_invalidate(2, 2, A, 1, 8), -4);
    assert_int_equal(tess_memory_invalidate(2, 2, A, 2, 0), -5);
    assert_int_equal(tess_memory_register_async(NULL, 8), -1);
    assert_int_equal(tess_memory_register_async(A, 0), -2);
    assert_int_equal(tess_memory_unregister(NULL), -1);
    assert_int_equal(tess_get_stats(NULL), -1);
    assert_int_equal(tess_finalize(), 0);
}

static void registering_then_unregistering_succeeds_and_unknown_memory_is_enotreg(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(1, 4, 0), 0);
    assert_int_equal(tess_memory_register_async(A, sizeof A), 0);
    assert_int_equal(tess_memory_unregister(A), 0);
    assert_int_equal(tess_memory_unregister(A), TESS_ENOTREG);
    assert_int_equal(tess_memory_unregister(B), TESS_ENOTREG);
    assert_int_equal(tess_memory_register_async(C, sizeof C), 0);
    assert_int_equal(tess_finalize(), 0); /* frees what is still registered */
}

static void a_range_registered_inside_another_is_unregistered_on_its_own(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(1, 4, 0), 0);
    assert_int_equal(tess_memory_register_async(A, sizeof A), 0);
    assert_int_equal(tess_memory_register_async(A + 8, 16 * sizeof *A), 0);
    assert_int_equal(tess_memory_unregister(A + 8), 0);
    assert_int_equal(tess_memory_unregister(A + 8), TESS_ENOTREG);
    assert_int_equal(tess_memory_unregister(A), 0);
    assert_int_equal(tess_finalize(), 0);
}

/* Registrations of one range are counted: it stays registered (and page-locked) until it has
 * been unregistered as often, then unknown. */
static void a_range_registered_twice_stays_until_unregistered_twice(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(1, 4, 0), 0);
    assert_int_equal(tess_memory_register_async(A, sizeof A), 0);
    assert_int_equal(tess_memory_register_async(A, sizeof A), 0);
    assert_int_equal(tess_memory_unregister(A), 0);
    assert_int_equal(tess_memory_unregister(A), 0);
    assert_int_equal(tess_memory_unregister(A), TESS_ENOTREG);
    assert_int_equal(tess_finalize(), 0);
}

/* A second registration at the same start, longer than the first, counts as one more: the
 * range stays registered until unregistered twice. */
static void a_longer_range_registered_at_the_same_start_needs_its_own_unregister(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(1, 4, 0), 0);
    assert_int_equal(tess_memory_register_async(A, sizeof A / 2), 0);
    assert_int_equal(tess_memory_register_async(A, sizeof A), 0);
    assert_int_equal(tess_memory_unregister(A), 0);
    assert_int_equal(tess_memory_unregister(A), 0);
    assert_int_equal(tess_memory_unregister(A), TESS_ENOTREG);
    assert_int_equal(tess_finalize(), 0);
}

/* Unregistering waits for the tasks submitted before it, whose copies may use the range: once
 * it returns, a POTRF of 16 x 16 tiles submitted before it on a matrix in that range has run to
 * its failing last column (INFO is set as the tasks run, before any tess_sync). */
static void unregistering_waits_for_the_tasks_submitted_before_it(void **state)
{
    (void)state;
    enum { N = 64 };
    assert_int_equal(tu_init_host(2, 4, 0), 0);
    double *M = calloc(N * N, sizeof *M);
    assert_non_null(M);
    for (int i = 0; i < N; i++)
        M[i + i * N] = i < N - 1 ? 1 : -1;
    int64_t info = -1;
    assert_int_equal(tess_memory_register_async(M, N * N * sizeof *M), 0);
    assert_int_equal(tess_dpotrf_async(TessLower, N, M, N, &info), 0);
    assert_int_equal(tess_memory_unregister(M), 0);
    assert_int_equal(__atomic_load_n(&info, __ATOMIC_ACQUIRE), N);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tess_memory_invalidate(N, N, M, N, sizeof *M), 0);
    assert_int_equal(tess_finalize(), 0);
    free(M);
}

static void calls_before_init_and_after_finalize_return_enotinit(void **state)
{
    (void)state;
    for (int round = 0; round < 2; round++) {
        if (round) {
            assert_int_equal(tu_init_host(1, 4, 0), 0);
            assert_int_equal(tess_finalize(), 0);
        }
        tess_stats_t s;
        assert_int_equal(tess_sync(), TESS_ENOTINIT);
        assert_int_equal(tess_finalize(), TESS_ENOTINIT);
        assert_int_equal(
            tess_dgemm_async(TessNoTrans, TessNoTrans, 2, 2, 2, 1, A, 2, B, 2, 0, C, 2),
            TESS_ENOTINIT);
        assert_int_equal(tess_memory_coherent_async(TessAll, 2, 2, A, 2, 8), TESS_ENOTINIT);
        assert_int_equal(tess_memory_invalidate(2, 2, A, 2, 8), TESS_ENOTINIT);
        assert_int_equal(tess_memory_invalidate_all(), TESS_ENOTINIT);
        assert_int_equal(tess_memory_register_async(A, 8), TESS_ENOTINIT);
        assert_int_equal(tess_memory_unregister(A), TESS_ENOTINIT);
        assert_int_equal(tess_get_stats(&s), TESS_ENOTINIT);
    }
}

static void a_second_init_returns_einit_and_leaves_the_runtime_working(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, 4, 0), 0);
    tess_stats_t before, after;
    assert_int_equal(tess_get_stats(&before), 0);
    assert_int_equal(tu_init_host(1, 8, 0), TESS_EINIT);
    assert_int_equal(tess_get_stats(&after), 0);
    assert_int_equal(after.ndevices, before.ndevices);
    assert_int_equal(tess_finalize(), 0);
}

static void invalid_configuration_is_econfig_and_absent_devices_are_enodev(void **state)
{
    (void)state;
    tess_config_t bad_devices = { .devices = "gpu:3" };
    tess_config_t zero_host = { .devices = "host:0" };
    tess_config_t bad_nb = { .devices = "host:1", .nb = -4 };
    tess_config_t bad_fraction = { .devices = "host:1", .cache_fraction = 1.5 };
    assert_int_equal(tess_init(&bad_devices), TESS_ECONFIG);
    assert_int_equal(tess_init(&zero_host), TESS_ECONFIG);
    assert_int_equal(tess_init(&bad_nb), TESS_ECONFIG);
    assert_int_equal(tess_init(&bad_fraction), TESS_ECONFIG);
    setenv("TESS_HOST_DEVICE_MEM", "lots", 1);
    assert_int_equal(tess_init(&(tess_config_t){ .devices = "host:1" }), TESS_ECONFIG);
    unsetenv("TESS_HOST_DEVICE_MEM");
    /* a variable that is set must hold a valid value: 0 is not "unset" there */
    const char *bad_env[][2] = {
        { "TESS_NB", "12x" },
        { "TESS_NB", "0" },
        { "TESS_CACHE_FRACTION", "0" },
        { "TESS_CACHE_BYTES", "0" },
        { "TESS_CACHE_BYTES", "64Q" },
        { "TESS_HOST_DEVICE_MEM", "0" },
        { "TESS_HOST_DEVICE_MEM", " -1" },
        { "TESS_HOST_DEVICE_MEM", "1-2" },
        { "TESS_HOST_OPEN_DELAY", "-1" },
        { "TESS_HOST_OPEN_DELAY", "0.5s" },
        { "TESS_HOST_OPEN_DELAY", "61" },
        { "TESS_HOST_LINK_GBPS", "0.00005" },
        { "TESS_HOST_LINK_GBPS", "-1" },
        { "TESS_HOST_LINK_GBPS", "fast" },
    };
    for (size_t i = 0; i < sizeof bad_env / sizeof *bad_env; i++) {
        setenv(bad_env[i][0], bad_env[i][1], 1);
        int err = tess_init(&(tess_config_t){ .devices = "host:1" });
        unsetenv(bad_env[i][0]);
        if (err != TESS_ECONFIG)
            fail_msg("%s=\"%s\": %d, not TESS_ECONFIG", bad_env[i][0], bad_env[i][1], err);
    }
#ifdef TESS_CUDA_BACKEND
    /* an empty list, an empty entry, a GPU named twice */
    const char *bad_lists[] = { "cuda:", "cuda:0,", "cuda:,0", "cuda:1,1", "cuda:0,,1" };
    for (size_t i = 0; i < sizeof bad_lists / sizeof *bad_lists; i++)
        if (tess_init(&(tess_config_t){ .devices = bad_lists[i] }) != TESS_ECONFIG)
            fail_msg("%s is not TESS_ECONFIG", bad_lists[i]);
#endif
    /* no machine here has 16 GPUs, and a build without CUDA has none */
    assert_int_equal(tess_init(&(tess_config_t){ .devices = "cuda:15" }), TESS_ENODEV);
    /* nothing was left half-initialised */
    assert_int_equal(tess_sync(), TESS_ENOTINIT);
    assert_int_equal(tu_init_host(1, 4, 0), 0);
    assert_int_equal(tess_finalize(), 0);
}

/* VAR= in a shell sets an empty value: every variable takes it as unset (TESS_NB's
 * default, for one, is the devices' own tile size, 768 on host devices). */
static void an_empty_variable_counts_as_unset(void **state)
{
    (void)state;
    static const char *const names[] = {
        "TESS_NB",
        "TESS_WINDOW",
        "TESS_CACHE_FRACTION",
        "TESS_CACHE_BYTES",
        "TESS_HOST_DEVICE_MEM",
        "TESS_HOST_LINK_GBPS",
        "TESS_HOST_OPEN_DELAY",
        "TESS_TRACE",
        "TESS_FAULT",
        "TESS_VERBOSE",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        setenv(names[i], "", 1);
        int err = tess_init(&(tess_config_t){ .devices = "host:1" });
        tess_stats_t s = { 0 };
        if (!err)
            err = tess_get_stats(&s);
        tess_finalize();
        unsetenv(names[i]);
        if (err)
            fail_msg("%s=\"\": %d, not 0", names[i], err);
        if (s.nb != 768)
            fail_msg("%s=\"\": tiles of %lld, not the default 768", names[i], (long long)s.nb);
    }
    /* TESS_DEVICES empty is "auto" */
    setenv("TESS_DEVICES", "", 1);
    int err = tess_init(NULL);
    unsetenv("TESS_DEVICES");
    assert_true(err == 0 || err == TESS_ENODEV);
    tess_finalize();
}

static void strerror_explains_every_code(void **state)
{
    (void)state;
    const char *unknown = tess_strerror(1000);
    for (int code = TESS_SUCCESS; code <= TESS_EINTERNAL; code++) {
        const char *msg = tess_strerror(code);
        assert_non_null(msg);
        assert_string_not_equal(msg, unknown);
        for (int other = TESS_SUCCESS; other < code; other++)
            assert_string_not_equal(msg, tess_strerror(other));
    }
    assert_non_null(strstr(tess_strerror(-7), "argument"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_gemm_argument_error_returns_its_position_and_submits_nothing),
        cmocka_unit_test(memory_call_argument_errors_return_their_positions),
        cmocka_unit_test(registering_then_unregistering_succeeds_and_unknown_memory_is_enotreg),
        cmocka_unit_test(a_range_registered_inside_another_is_unregistered_on_its_own),
        cmocka_unit_test(unregistering_waits_for_the_tasks_submitted_before_it),
        cmocka_unit_test(a_range_registered_twice_stays_until_unregistered_twice),
        cmocka_unit_test(a_longer_range_registered_at_the_same_start_needs_its_own_unregister),
        cmocka_unit_test(calls_before_init_and_after_finalize_return_enotinit),
        cmocka_unit_test(a_second_init_returns_einit_and_leaves_the_runtime_working),
        cmocka_unit_test(invalid_configuration_is_econfig_and_absent_devices_are_enodev),
        cmocka_unit_test(an_empty_variable_counts_as_unset),
        cmocka_unit_test(strerror_explains_every_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
