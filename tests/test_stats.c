/* Statistics and the Chrome trace on the host backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"

#define NB 16
static const tu_type_t *D = &tu_types[1];

/* One device, cache large enough: each input tile crosses to the device
 * once, C (beta = 0) not at all, and the coherent request brings C back once. */
static void transfer_volumes_are_each_input_once_and_each_output_once(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(1, NB, 0), 0);
    int64_t m = 3 * NB + 1, n = 2 * NB + 5, k = 2 * NB;
    double *A = tu_matrix(D, m, k, 1), *B = tu_matrix(D, k, n, 2), *C = tu_matrix(D, m, n, 3);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, m, n, k, 1, A, m, B, k, 0, C, m),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, m, n, C, m, 8), 0);
    assert_int_equal(tess_sync(), 0);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    if (s.ndevices != 1) {
        tess_finalize();
        skip(); /* TESS_TEST_DEVICES named several GPUs */
    }
    assert_int_equal(s.bytes_h2d, (uint64_t)(m * k + k * n) * 8);
    assert_int_equal(s.bytes_d2h, (uint64_t)(m * n) * 8);
    assert_int_equal(s.bytes_d2d, 0);
    uint64_t tiles = (uint64_t)(4 * 3 * 2);      /* C tiles x k tiles */
    assert_int_equal(s.tasks[0], tiles + 4 * 3); /* gemm tasks + one writeback per C tile */
    assert_int_equal(s.cache_misses, 4 * 2 + 2 * 3);
    tu_release(D, A, m, k);
    tu_release(D, B, k, n);
    tu_release(D, C, m, n);
    assert_int_equal(tess_finalize(), 0);
}

/* Whether device d's worker track in the trace text has a slice. */
static bool worker_track_has_slices(const char *text, int d)
{
    char track[64], slice[64];
    snprintf(track, sizeof track, "%d worker\"", d);
    const char *at = strstr(text, track);
    assert_non_null(at);
    while (at > text && strncmp(at, "\"tid\":", 6))
        at--;
    int tid = -1;
    assert_int_equal(sscanf(at, "\"tid\":%d", &tid), 1);
    snprintf(slice, sizeof slice, "\"tid\":%d,\"ts\"", tid);
    return strstr(text, slice) != NULL;
}

static void trace_has_a_track_per_stream_and_worker_of_each_device(void **state)
{
    (void)state;
    char path[] = "/tmp/tessera_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const char *other = getenv("TESS_TEST_DEVICES");
    tess_config_t cfg = { .devices = other && *other ? other : "host:2", .nb = NB, .trace = path };
    assert_int_equal(tess_init(&cfg), 0);
    int64_t n = 2 * NB;
    double *A = tu_matrix(D, n, n, 4), *C = tu_matrix(D, n, n, 5);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, A, n, 0, C, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    tu_release(D, A, n, n);
    tu_release(D, C, n, n);
    assert_int_equal(tess_finalize(), 0);

    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    unlink(path);
    text[len] = 0;
    assert_non_null(strstr(text, "{\"traceEvents\":["));
    for (int d = 0; d < s.ndevices; d++) {
        char track[64];
        static const char *streams[] = { "h2d", "d2h", "peer", "compute 0", "compute 1", "worker" };
        for (size_t i = 0; i < sizeof streams / sizeof *streams; i++) {
            snprintf(track, sizeof track, "%d %s\"", d, streams[i]);
            assert_non_null(strstr(text, track));
        }
    }
    assert_non_null(strstr(text, "\"name\":\"gemm\",\"ph\":\"X\""));
    assert_non_null(strstr(text, "\"name\":\"h2d\",\"ph\":\"X\""));
    assert_non_null(strstr(text, "\"name\":\"d2h\",\"ph\":\"X\""));
    /* each worker that ran a task (which one depends on stealing) has slices on its track */
    uint64_t tasks = 0;
    for (int d = 0; d < s.ndevices; d++) {
        tasks += s.tasks[d];
        assert_true(worker_track_has_slices(text, d) == (s.tasks[d] > 0));
    }
    assert_true(tasks > 0);
    assert_string_equal(text + len - 4, "\n]}\n");
}

/* Calls of one C tile each: every C is homed on device 0 (a call's grid is
 * anchored at its own C), so at first only device 0 has work, and the idle
 * devices take it from its queue.  About 2 GFLOP of work, so device 0 cannot
 * finish it before the other workers are scheduled. */
static void an_idle_device_steals_from_the_busy_one(void **state)
{
    (void)state;
    enum { CALLS = 32 };
    const int64_t nb = 128;
    assert_int_equal(tu_init_host(2, nb, 0), 0);
    int64_t k = 16 * nb;
    double *A = tu_matrix(D, nb, k, 6), *B = tu_matrix(D, k, nb, 7);
    double *C[CALLS];
    for (int64_t c = 0; c < CALLS; c++) {
        C[c] = tu_matrix(D, nb, nb, 8);
        assert_int_equal(
            tess_dgemm_async(TessNoTrans, TessNoTrans, nb, nb, k, 1, A, nb, B, k, 0, C[c], nb), 0);
    }
    assert_int_equal(tess_sync(), 0);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    if (s.ndevices < 2) {
        tess_finalize();
        skip(); /* TESS_TEST_DEVICES named a single GPU */
    }
    uint64_t tasks = 0, stolen = 0;
    for (int d = 0; d < s.ndevices; d++) {
        tasks += s.tasks[d];
        stolen += d ? s.steals[d] : 0;
    }
    assert_true(stolen > 0);
    assert_int_equal(tasks, CALLS * 16);
    tu_release(D, A, nb, k);
    tu_release(D, B, k, nb);
    for (int64_t c = 0; c < CALLS; c++)
        tu_release(D, C[c], nb, nb);
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transfer_volumes_are_each_input_once_and_each_output_once),
        cmocka_unit_test(trace_has_a_track_per_stream_and_worker_of_each_device),
        cmocka_unit_test(an_idle_device_steals_from_the_busy_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
