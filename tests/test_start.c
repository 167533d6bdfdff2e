/* The runtime's start: every device opens at once, on a thread of its own,
 * so a start takes one device's open, not one per device; a start whose
 * devices fail to open returns the error and leaves nothing behind.  Host
 * devices' opens are slowed with TESS_HOST_OPEN_DELAY, as a GPU's context
 * takes time to make. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "testutil.h"

#define OPEN_DELAY_S 1.0

/* The devices are host devices (TESS_TEST_DEVICES may name GPUs). */
static bool on_host_devices(void)
{
    const char *other = getenv("TESS_TEST_DEVICES");
    return !other || !*other || !strncmp(other, "host:", 5);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Seconds a start of four devices (or those TESS_TEST_DEVICES names) takes, each device's
 * open slowed by delay; *ndev is the devices' count. */
static double start_seconds(double delay, int *ndev)
{
    char text[32];
    snprintf(text, sizeof text, "%g", delay);
    assert_int_equal(setenv("TESS_HOST_OPEN_DELAY", text, 1), 0);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int err = tu_init_host(4, 0, 0);
    double s = seconds_since(&t0);
    unsetenv("TESS_HOST_OPEN_DELAY");
    assert_int_equal(err, 0);
    tess_stats_t st;
    assert_int_equal(tess_get_stats(&st), 0);
    *ndev = st.ndevices;
    assert_int_equal(tess_finalize(), 0);
    return s;
}

/* Devices opening one after the other would add a delay per device to a start; at once,
 * one.  Bound: beside a start with no delay, under halfway from one delay to a delay per
 * device (1.5 delays for two devices, 2.5 for four), which leaves half a delay or more for
 * a busy machine's jitter. */
static void devices_open_at_once(void **state)
{
    (void)state;
    if (!on_host_devices())
        skip();
    int ndev = 0;
    double base = start_seconds(0, &ndev);
    if (ndev < 2)
        skip(); /* one device opens alone either way */
    double s = start_seconds(OPEN_DELAY_S, &ndev);
    if (!(s >= OPEN_DELAY_S && s - base < OPEN_DELAY_S * (1 + ndev) / 2))
        fail_msg("%d devices opening %.1f s each started in %.3f s (%.3f s with no delay)", ndev,
                 OPEN_DELAY_S, s, base);
}

/* Device memory larger than any address space: every open fails, each on its
 * own thread, and the start returns that and undoes the opens; the next
 * start succeeds. */
static void a_start_whose_devices_fail_to_open_returns_the_error_and_leaves_nothing(void **state)
{
    (void)state;
    if (!on_host_devices())
        skip();
    assert_int_equal(tu_init_host(4, 0, (size_t)1 << 60), TESS_ENOMEM);
    assert_int_equal(tess_sync(), TESS_ENOTINIT);
    assert_int_equal(tu_init_host(4, 0, 0), 0);
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(devices_open_at_once),
        cmocka_unit_test(a_start_whose_devices_fail_to_open_returns_the_error_and_leaves_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
