/* A short soak run: bench/bench_soak.c's mixed workload for 15 seconds on
 * host:2 (nb = 16, 96 KiB per device, so that it evicts all the time), two
 * threads.  Every call succeeds, every check against OpenBLAS holds, and the
 * heap in use does not grow once the views have all been seen. */
#define SOAK_NO_MAIN
#include "../bench/bench_soak.c"
#include "testutil.h"

static void a_short_soak_stays_right_and_keeps_memory_flat(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, 16, 96 * 1024), 0);
    soak_opts_t o = { .minutes = 0.25,
                      .n = 72,
                      .threads = 2,
                      .seed = 3,
                      .interval_s = 1,
                      .warm_s = 7,
                      .quiet = true };
    soak_result_t r;
    int bad = soak_run(&o, &r);
    assert_int_equal(tess_finalize(), 0);
    print_message("soak: %llu calls, %llu checks, largest error %.1e; heap %.2f MB after "
                  "warm-up, %.2f MB at the end\n",
                  (unsigned long long)r.calls, (unsigned long long)r.checks, r.max_error,
                  r.heap_warm_mb, r.heap_end_mb);
    assert_int_equal(r.first_error, 0);
    assert_int_equal(r.failed_checks, 0);
    assert_true(r.checks > 10);
    assert_int_equal(bad, 0);
    /* the block directory fills as views are first seen; a task kept per
     * call would be hundreds of megabytes */
    assert_true(r.heap_end_mb < r.heap_warm_mb + 2.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_short_soak_stays_right_and_keeps_memory_flat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
