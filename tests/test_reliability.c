/* What a program that keeps the library loaded for hours needs: memory that
 * stays bounded when operands are only read, success whenever each task's
 * tiles fit in one device, sizes that cannot be represented refused before
 * anything is touched, and calls racing tess_finalize answered with
 * TESS_ENOTINIT instead of touching a runtime being torn down.  Host backend,
 * nb = 16; each test initialises its own runtime. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
size_t __sanitizer_get_current_allocated_bytes(void); /* the sanitizers' runtime */
#else
#include <malloc.h>
#endif
#include "testutil.h"

#define NB 16
#define TILE_BYTES ((size_t)NB * NB * sizeof(double))
static const tu_type_t *D = &tu_types[1];

/* Heap bytes the process has allocated and not freed (the sanitizers keep
 * their own heap, and their own count of it). */
static size_t heap_in_use(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return __sanitizer_get_current_allocated_bytes();
#else
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
#endif
}

static void multiply(int64_t n, const double *A, const double *B, double *C)
{
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_sync(), 0);
}

/* Each call reads every tile of A and B three times; the tasks that did so
 * must not stay alive once they are done. */
static void multiplying_the_same_operands_in_a_loop_keeps_memory_bounded(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 0), 0);
    int64_t n = 3 * NB;
    double *A = tu_matrix(D, n, n, 1), *B = tu_matrix(D, n, n, 2), *C = tu_matrix(D, n, n, 3);
    for (int i = 0; i < 200; i++)
        multiply(n, A, B, C);
    size_t before = heap_in_use();
    for (int i = 0; i < 1500; i++)
        multiply(n, A, B, C);
    size_t after = heap_in_use();
    /* 1500 calls of 27 tasks: a task kept per call would be megabytes */
    assert_true(after < before + 128 * 1024);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    double *Cr = tu_copy(D, C, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Cr, n);
    assert_true(tu_gemm_residual(D, n, n, n, 1, tu_norm(D, A, n, n, n), tu_norm(D, B, n, n, n), 0,
                                 0, C, Cr, n) < TU_GEMM_BOUND);
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    free(Cr);
    assert_int_equal(tess_finalize(), 0);
}

/* C = A B + C on ndev host devices of tiles_per_dev full tiles each, one task
 * in flight per device; every GEMM task needs three tiles at once. */
static void gemm_in_tight_memory(int ndev, int tiles_per_dev, int64_t n, unsigned seed)
{
    assert_int_equal(setenv("TESS_WINDOW", "1", 1), 0);
    int err = tu_init_host(ndev, NB, (size_t)tiles_per_dev * TILE_BYTES);
    unsetenv("TESS_WINDOW");
    assert_int_equal(err, 0);
    double *A = tu_matrix(D, n, n, seed), *B = tu_matrix(D, n, n, seed + 1);
    double *C = tu_matrix(D, n, n, seed + 2), *Cr = tu_copy(D, C, n, n);
    double nA = tu_norm(D, A, n, n, n), nB = tu_norm(D, B, n, n, n), nC = tu_norm(D, C, n, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, C, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, Cr, n);
    assert_true(tu_gemm_residual(D, n, n, n, 1, nA, nB, 1, nC, C, Cr, n) < TU_GEMM_BOUND);
    assert_int_equal(tess_finalize(), 0);
    free(A);
    free(B);
    free(C);
    free(Cr);
}

/* Edge tiles of other sizes fragment a pool that holds exactly one task's
 * tiles; a second device pins copies of this one as sources. */
static void tasks_whose_tiles_fit_one_device_succeed_in_tight_memory(void **state)
{
    (void)state;
    gemm_in_tight_memory(1, 3, 6 * NB, 10);
    gemm_in_tight_memory(1, 3, 6 * NB + 4, 20);
    gemm_in_tight_memory(2, 3, 6 * NB, 30);
    gemm_in_tight_memory(2, 3, 6 * NB + 4, 40);
    for (unsigned r = 0; r < 8; r++) {
        gemm_in_tight_memory(2, 5, 6 * NB + 4, 100 + 10 * r);
        gemm_in_tight_memory(2, 6, 6 * NB + 4, 200 + 10 * r);
    }
}

/* A task whose three tiles exceed a device of two is the one TESS_ENOMEM, and
 * verbose output says why (finalize, printing statistics, still returns). */
static void a_task_that_cannot_fit_is_enomem_with_its_reason(void **state)
{
    (void)state;
    FILE *log = tmpfile();
    assert_non_null(log);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0 && dup2(fileno(log), STDERR_FILENO) >= 0);
    tess_config_t cfg = {
        .devices = "host:2", .nb = NB, .host_device_mem = 2 * TILE_BYTES, .verbose = 1
    };
    int64_t n = 2 * NB;
    double *A = tu_matrix(D, n, n, 5), *B = tu_matrix(D, n, n, 6), *C = tu_matrix(D, n, n, 7);
    int init = tess_init(&cfg), call = -1, sync = -1, fin = -1;
    if (!init) {
        call = tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, C, n);
        sync = tess_sync();
        fin = tess_finalize();
    }
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    assert_int_equal(init, 0);
    assert_int_equal(call, 0);
    assert_int_equal(sync, TESS_ENOMEM);
    assert_int_equal(fin, 0);
    char text[4096] = { 0 };
    rewind(log);
    assert_true(fread(text, 1, sizeof text - 1, log) > 0);
    fclose(log);
    assert_non_null(strstr(text, "needs 6144 bytes of tiles at once; the device holds 4096"));
    assert_non_null(strstr(tess_strerror(TESS_ENOMEM), "exceed one device's memory"));
    free(A);
    free(B);
    free(C);
}

/* A tile size whose tile counts overflow, and sizes whose tiling or extent
 * cannot be represented, are refused; nothing is touched. */
static void sizes_that_overflow_are_refused_before_anything_is_touched(void **state)
{
    (void)state;
    tess_config_t huge_nb = { .devices = "host:1", .nb = INT64_MAX - 1 };
    int err = tess_init(&huge_nb);
    if (!err)
        tess_finalize();
    assert_int_equal(err, TESS_ECONFIG);
    assert_int_equal(setenv("TESS_NB", "9223372036854775807", 1), 0);
    err = tess_init(&(tess_config_t){ .devices = "host:1" });
    unsetenv("TESS_NB");
    if (!err)
        tess_finalize();
    assert_int_equal(err, TESS_ECONFIG);

    /* 2^34 G and 2^54 K are 2^64 bytes: the shift wraps */
    const char *wraps[] = { "17179869184G", "18014398509481984K", "35184372088832M" };
    for (size_t i = 0; i < sizeof wraps / sizeof *wraps; i++) {
        assert_int_equal(setenv("TESS_HOST_DEVICE_MEM", wraps[i], 1), 0);
        err = tess_init(&(tess_config_t){ .devices = "host:1" });
        unsetenv("TESS_HOST_DEVICE_MEM");
        if (!err)
            tess_finalize();
        assert_int_equal(err, TESS_ECONFIG);
    }

    assert_int_equal(tu_init_host(1, NB, 0), 0);
    double C[4] = { 1, 2, 3, 4 }, C0[4];
    memcpy(C0, C, sizeof C);
    /* 2^32 x 2^32 tiles: their count times the pointer size wraps to 0 */
    int64_t big = (int64_t)1 << 36;
    assert_int_not_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, big, big, 4, 0, C, big, C, 4, 0, C, big), 0);
    /* an extent past the end of the address space */
    int64_t wide = INT64_MAX / 4;
    assert_int_not_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, 1, 4, 4, 0, C, 1, C, 4, 0, C, wide), 0);
    assert_int_not_equal(tess_memory_coherent_async(TessAll, big, big, C, big, 8), 0);
    assert_int_not_equal(tess_memory_invalidate(big, big, C, big, 8), 0);
    assert_int_not_equal(tess_memory_register_async(C, SIZE_MAX - 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_memory_equal(C, C0, sizeof C);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    assert_int_equal(s.tasks[0], 0);
    assert_int_equal(tess_finalize(), 0);
}

/* Threads calling into the runtime while another starts and finalizes it
 * over and over get 0 or TESS_ENOTINIT, never a runtime half torn down. */
typedef struct {
    atomic_bool stop;
    atomic_int bad; /* a return value other than 0 or TESS_ENOTINIT */
    unsigned seed;
} racer_t;

static void note(racer_t *r, int err)
{
    if (err && err != TESS_ENOTINIT)
        atomic_store(&r->bad, err);
}

static void *racer(void *arg)
{
    racer_t *r = arg;
    int64_t n = NB + 3;
    double *A = tu_matrix(D, n, n, r->seed), *C = tu_matrix(D, n, n, r->seed + 1);
    for (unsigned i = 0; !atomic_load(&r->stop); i++) {
        tess_stats_t s;
        note(r, tess_get_stats(&s));
        note(r, tess_sync());
        if (i % 4 == 0) {
            note(r, tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 0.5, A, n, A, n, 0, C, n));
            note(r, tess_memory_coherent_async(TessAll, n, n, C, n, 8));
            note(r, tess_memory_invalidate(n, n, C, n, 8));
        }
    }
    /* the runtime is down: nothing of the matrices is held any more */
    free(A);
    free(C);
    return NULL;
}

static void calls_racing_finalize_return_enotinit(void **state)
{
    (void)state;
    enum { THREADS = 3 };
    racer_t r = { .seed = 7 };
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, racer, &r), 0);
    for (int round = 0; round < 150; round++) {
        assert_int_equal(tu_init_host(2, NB, 0), 0);
        assert_int_equal(tess_finalize(), 0);
    }
    atomic_store(&r.stop, true);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(atomic_load(&r.bad), 0);
}

typedef struct {
    atomic_int tid;   /* the syncing thread's, set just before it calls tess_sync */
    atomic_bool done; /* tess_sync has returned */
    int result;
} syncer_t;

static void *sync_thread(void *arg)
{
    syncer_t *s = arg;
    atomic_store(&s->tid, (int)syscall(SYS_gettid));
    s->result = tess_sync();
    atomic_store(&s->done, true);
    return NULL;
}

/* Whether thread tid of this process sleeps (state S in /proc).  The syncer, once it has
 * set its tid, can sleep only in tess_sync's wait: tess_sync enters without a lock. */
static bool asleep(int tid)
{
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    const char *end = strrchr(text, ')'); /* the name in parentheses, then the state */
    return end && end[1] == ' ' && end[2] == 'S';
}

static void *finalize_thread(void *arg)
{
    *(int *)arg = tess_finalize();
    return NULL;
}

/* A thread is inside tess_sync on a long product when two others finalize:
 * the first waits for it and tears the runtime down, the second, arriving
 * meanwhile, gets TESS_ENOTINIT. */
static void two_finalizes_while_a_call_is_inside_tear_down_once(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, 64, 0), 0);
    int64_t n = 1536;
    double *A = tu_matrix(D, n, n, 3), *C = tu_matrix(D, n, n, 4);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, A, n, 0, C, n),
                     0);
    syncer_t sy = { .result = -1 };
    int fin[2] = { -1, -1 };
    pthread_t s, f[2];
    assert_int_equal(pthread_create(&s, NULL, sync_thread, &sy), 0);
    while (!atomic_load(&sy.done) && !(atomic_load(&sy.tid) && asleep(atomic_load(&sy.tid))))
        nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pthread_create(&f[i], NULL, finalize_thread, &fin[i]), 0);
        nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
    }
    pthread_join(s, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(f[i], NULL);
    assert_int_equal(sy.result, 0);
    assert_int_equal(fin[0] + fin[1], TESS_ENOTINIT);
    assert_true(fin[0] == 0 || fin[1] == 0);
    free(A);
    free(C);
}

/* A test that failed midway leaves the runtime to the next one clean. */
static int finish(void **state)
{
    (void)state;
    tess_finalize();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(multiplying_the_same_operands_in_a_loop_keeps_memory_bounded,
                                  finish),
        cmocka_unit_test_teardown(tasks_whose_tiles_fit_one_device_succeed_in_tight_memory, finish),
        cmocka_unit_test_teardown(a_task_that_cannot_fit_is_enomem_with_its_reason, finish),
        cmocka_unit_test_teardown(sizes_that_overflow_are_refused_before_anything_is_touched,
                                  finish),
        cmocka_unit_test_teardown(calls_racing_finalize_return_enotinit, finish),
        cmocka_unit_test_teardown(two_finalizes_while_a_call_is_inside_tear_down_once, finish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
