/* Device faults injected with TESS_FAULT=op:n (the n-th operation of that
 * kind fails): a host-to-device fetch, a peer copy, a device-to-host copy (of
 * a write-back task, an eviction or a flush-invalidate task), a kernel, a
 * tile's allocation.  Each is returned by the next tess_sync, nothing hangs,
 * the host keeps what it held when the fault came (nothing is written there
 * until that sync), results already computed on a device are not lost, and
 * the runtime takes new work afterwards.  Host backend, nb = 16; each test
 * initialises its own runtime. */
#include <stdlib.h>
#include <string.h>
#include "legacy_iface.h"
#include "testutil.h"

#define NB 16
#define TILE_BYTES ((size_t)NB * NB * sizeof(double))
static const tu_type_t *D = &tu_types[1];

static void init_with_fault(const char *spec, int ndev, size_t mem)
{
    assert_int_equal(setenv("TESS_FAULT", spec, 1), 0);
    int err = tu_init_host(ndev, NB, mem);
    unsetenv("TESS_FAULT");
    assert_int_equal(err, 0);
}

static uint64_t tiles(uint64_t bytes)
{
    return bytes / TILE_BYTES;
}

/* Tiles of the n x n C (n a multiple of NB) whose error against Cr exceeds
 * the GEMM bound. */
static int wrong_tiles(const double *C, const double *Cr, int64_t n, int64_t k, double scale)
{
    int wrong = 0;
    for (int64_t j = 0; j < n; j += NB)
        for (int64_t i = 0; i < n; i += NB)
            if (tu_diff(D, C + i + j * n, Cr + i + j * n, NB, NB, n) / (k * D->eps * scale) >
                TU_GEMM_BOUND)
                wrong++;
    return wrong;
}

/* A fresh product on fresh memory is right: the runtime still works. */
static void takes_new_work(void)
{
    int64_t n = 2 * NB + 3;
    double *A = tu_matrix(D, n, n, 91), *B = tu_matrix(D, n, n, 92), *C = tu_matrix(D, n, n, 93);
    double *Cr = tu_copy(D, C, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessTrans, n, n, n, 1, A, n, B, n, 0, C, n), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemm_ref(D, TessNoTrans, TessTrans, n, n, n, 1, A, n, B, n, 0, Cr, n);
    assert_true(tu_gemm_residual(D, n, n, n, 1, tu_norm(D, A, n, n, n), tu_norm(D, B, n, n, n), 0,
                                 0, C, Cr, n) < TU_GEMM_BOUND);
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    free(Cr);
}

/* One device with room for everything, n = 2 NB.  A first product E = A B
 * runs clean: 8 fetches, 8 kernels, 12 allocations, 4 write-backs.  The
 * fault then hits the first operation of its kind in C = A B + C: the
 * product's other tiles are right, E and the inputs are untouched, C's
 * write-back can be asked again, and a repeat of the product is right. */
static void fault_in_second_product(const char *spec, int expect, int max_wrong)
{
    init_with_fault(spec, 1, 0);
    tess_stats_t devs;
    assert_int_equal(tess_get_stats(&devs), 0);
    if (devs.ndevices != 1) {
        /* TESS_TEST_DEVICES chose several devices: the counts above are one device's */
        assert_int_equal(tess_finalize(), 0);
        skip();
    }
    int64_t n = 2 * NB;
    double *A = tu_matrix(D, n, n, 1), *B = tu_matrix(D, n, n, 2), *C = tu_matrix(D, n, n, 3);
    double *E = tu_matrix(D, n, n, 4), *A0 = tu_copy(D, A, n, n), *B0 = tu_copy(D, B, n, n);
    double *C0 = tu_copy(D, C, n, n), *Er = tu_copy(D, E, n, n), *Cr = tu_copy(D, C, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Er, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, Cr, n);
    double scale = tu_norm(D, A, n, n, n) * tu_norm(D, B, n, n, n) + tu_norm(D, C, n, n, n);

    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, E, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, E, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    assert_int_equal(tiles(s.bytes_h2d), 8);
    assert_int_equal(s.tasks[0], 12);
    assert_int_equal(s.writebacks, 4);
    assert_true(tu_diff(D, E, Er, n, n, n) / (n * D->eps * scale) < TU_GEMM_BOUND);
    double *E1 = tu_copy(D, E, n, n);

    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, C, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), expect);
    assert_int_equal(tess_sync(), 0); /* reported once */
    /* nothing reached the host after the fault: C is as it was */
    assert_memory_equal(C, C0, (size_t)(n * n) * sizeof(double));
    assert_memory_equal(A, A0, (size_t)(n * n) * sizeof(double));
    assert_memory_equal(B, B0, (size_t)(n * n) * sizeof(double));
    assert_memory_equal(E, E1, (size_t)(n * n) * sizeof(double));
    /* asked again: a write-back that failed is made again, and only the tile
     * of a task that failed (max_wrong: none when only a copy to the host did)
     * is wrong */
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, E, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(wrong_tiles(C, Cr, n, n, scale) <= max_wrong);
    assert_memory_equal(E, E1, (size_t)(n * n) * sizeof(double));

    /* the same product again, from C's first value */
    assert_int_equal(tess_memory_invalidate(n, n, C, n, 8), 0);
    memcpy(C, C0, (size_t)(n * n) * sizeof(double));
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, C, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(wrong_tiles(C, Cr, n, n, scale), 0);
    takes_new_work();
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    tu_release(D, E, n, n);
    free(A0);
    free(B0);
    free(C0);
    free(Er);
    free(Cr);
    free(E1);
    assert_int_equal(tess_finalize(), 0);
}

static void a_failed_fetch_is_returned_by_sync(void **state)
{
    (void)state;
    fault_in_second_product("h2d:9", TESS_EDEVICE, 1);
}

static void a_failed_kernel_is_returned_by_sync(void **state)
{
    (void)state;
    fault_in_second_product("kernel:9", TESS_EDEVICE, 1);
}

static void a_failed_allocation_is_returned_by_sync_as_enomem(void **state)
{
    (void)state;
    fault_in_second_product("alloc:13", TESS_ENOMEM, 1);
}

static void a_failed_write_back_loses_nothing(void **state)
{
    (void)state;
    fault_in_second_product("d2h:5", TESS_EDEVICE, 0);
}

/* Two devices read each tile of A and B: the second copy of a tile comes
 * from the first device's.  A run with no peer copy at all (one device did
 * everything) is tried again. */
static void a_failed_peer_copy_is_returned_by_sync(void **state)
{
    (void)state;
    int64_t n = 2 * NB;
    double *A = tu_matrix(D, n, n, 11), *B = tu_matrix(D, n, n, 12), *C = tu_matrix(D, n, n, 13);
    double *A0 = tu_copy(D, A, n, n), *B0 = tu_copy(D, B, n, n);
    bool hit = false;
    for (int attempt = 0; attempt < 20 && !hit; attempt++) {
        init_with_fault("d2d:1", 2, 0);
        tess_stats_t devs;
        assert_int_equal(tess_get_stats(&devs), 0);
        if (devs.ndevices < 2) {
            /* TESS_TEST_DEVICES chose one device: there is no peer to copy from */
            assert_int_equal(tess_finalize(), 0);
            free(A), free(B), free(C), free(A0), free(B0);
            skip();
        }
        assert_int_equal(
            tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n), 0);
        assert_int_equal(tess_dgemm_async(TessTrans, TessNoTrans, n, n, n, 1, C, n, A, n, 1, B, n),
                         0);
        int err = tess_sync();
        tess_stats_t s;
        assert_int_equal(tess_get_stats(&s), 0);
        if (err || s.bytes_d2d) {
            assert_int_equal(err, TESS_EDEVICE);
            hit = true;
            assert_memory_equal(A, A0, (size_t)(n * n) * sizeof(double));
            /* B was an output of the second call: only its device copies changed */
            assert_memory_equal(B, B0, (size_t)(n * n) * sizeof(double));
            takes_new_work();
        }
        assert_int_equal(tess_memory_invalidate_all(), 0);
        assert_int_equal(tess_finalize(), 0);
    }
    assert_true(hit);
    free(A);
    free(B);
    free(C);
    free(A0);
    free(B0);
}

/* Devices holding three tiles each and several C tiles each: every task
 * evicts, and the first copy to the host is the eviction of a dirty C tile.
 * It fails, and no later eviction on any device writes to the host either
 * until the sync: C's host copy is as it was.  Afterwards the product runs
 * right. */
static void a_failed_eviction_write_back_loses_nothing(void **state)
{
    (void)state;
    init_with_fault("d2h:1", 1, 3 * TILE_BYTES);
    tess_stats_t devs;
    assert_int_equal(tess_get_stats(&devs), 0);
    int64_t n = 2 * NB * devs.ndevices;
    double *A = tu_matrix(D, n, n, 21), *B = tu_matrix(D, n, n, 22), *C = tu_matrix(D, n, n, 23);
    double *A0 = tu_copy(D, A, n, n), *B0 = tu_copy(D, B, n, n), *Cr = tu_copy(D, C, n, n);
    double *C0 = tu_copy(D, C, n, n);
    double scale = tu_norm(D, A, n, n, n) * tu_norm(D, B, n, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Cr, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_sync(), TESS_EDEVICE);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    assert_true(s.evictions > 0);
    assert_memory_equal(A, A0, (size_t)(n * n) * sizeof(double));
    assert_memory_equal(B, B0, (size_t)(n * n) * sizeof(double));
    assert_memory_equal(C, C0, (size_t)(n * n) * sizeof(double));
    /* what the device holds of C reaches the host once asked */
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(tess_memory_invalidate(n, n, C, n, 8), 0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(wrong_tiles(C, Cr, n, n, scale), 0);
    takes_new_work();
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    free(A0);
    free(B0);
    free(Cr);
    free(C0);
    assert_int_equal(tess_finalize(), 0);
}

/* One try of the sequence below: whether the eviction happened (the other scope's sync
 * returned an error); *ndev is the devices' count. */
static bool eviction_fails_in_another_scope(int64_t n, int *ndev)
{
    init_with_fault("d2h:1", 2, 3 * TILE_BYTES);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    *ndev = s.ndevices;
    double *A = tu_matrix(D, n, n, 81), *B = tu_matrix(D, n, n, 82), *E = tu_matrix(D, n, n, 83);
    double *G = tu_matrix(D, n, n, 84), *H = tu_matrix(D, n, n, 85), *F = tu_matrix(D, n, n, 86);
    double *Er = tu_copy(D, E, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Er, n);
    /* the application's E, dirty on its device */
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, E, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    /* another caller's product, in its own scope: where it runs on E's device, its tiles
     * evict E, whose write-back fails */
    tess_internal_scope_begin();
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, G, n, H, n, 0, F, n),
                     0);
    int err = tess_internal_scope_sync();
    tess_internal_scope_end();
    /* the application's calls all succeeded */
    assert_int_equal(tess_sync(), 0);
    if (err) {
        assert_int_equal(err, TESS_EDEVICE);
        /* and E, kept on its device, is whole */
        assert_int_equal(tess_memory_coherent_async(TessAll, n, n, E, n, 8), 0);
        assert_int_equal(tess_sync(), 0);
        assert_memory_equal(E, Er, (size_t)(n * n) * sizeof(double));
    }
    assert_int_equal(tess_finalize(), 0);
    double *all[] = { A, B, E, G, H, F, Er };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
    return err != 0;
}

/* Devices of three tiles, one-tile products: the application's product leaves its output
 * dirty, then another caller's product in a scope of its own (as a legacy call makes) needs
 * its device's whole memory, and evicting that output fails.  The error is the other
 * caller's, whose task wanted the room, not the application's, whose calls all succeeded.
 * Where the second product runs depends on the scheduling (on E's device at least as
 * often as on any other), so the sequence is tried until the eviction happens, 64 times
 * per device at most. */
static void a_failed_eviction_write_back_is_the_error_of_the_task_that_evicted(void **state)
{
    (void)state;
    bool hit = false;
    int ndev = 1;
    for (int r = 0; r < 64 * ndev && !hit; r++)
        hit = eviction_fails_in_another_scope(NB, &ndev);
    assert_true(hit);
}

/* X is written, then read through a view one row down: X's tiles get a
 * flush-invalidate task, whose copy to the host fails.  X's data stays on
 * the device: the next use of the view flushes it again, and a coherent
 * request brings it back. */
static void a_failed_flush_invalidate_loses_nothing(void **state)
{
    (void)state;
    init_with_fault("d2h:1", 1, 0);
    int64_t n = 2 * NB;
    double *A = tu_matrix(D, n, n, 31), *B = tu_matrix(D, n, n, 32), *X = tu_matrix(D, n, n, 33);
    double *Y = tu_matrix(D, n, n, 34), *Xr = tu_copy(D, X, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Xr, n);
    double scale = tu_norm(D, A, n, n, n) * tu_norm(D, B, n, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, X, n),
                     0);
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, n - 1, n, n, 1, X + 1, n, B, n, 0, Y, n), 0);
    assert_int_equal(tess_sync(), TESS_EDEVICE);
    double *Yr = tu_copy(D, Y, n, n);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n - 1, n, n, 1, Xr + 1, n, B, n, 0, Yr, n);
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, n - 1, n, n, 1, X + 1, n, B, n, 0, Y, n), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n - 1, n, Y, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(tu_gemm_residual(D, n - 1, n, n, 1, tu_norm(D, Xr, n, n, n), tu_norm(D, B, n, n, n),
                                 0, 0, Y, Yr, n) < TU_GEMM_BOUND);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, X, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(wrong_tiles(X, Xr, n, n, scale), 0);
    takes_new_work();
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, X, n, n);
    tu_release(D, Y, n, n);
    free(Xr);
    free(Yr);
    assert_int_equal(tess_finalize(), 0);
}

/* One try of the sequence below on two devices of six tiles each; the
 * number of elements in which X read on a device differs from the host's X. */
static int64_t stale_elements_after_a_failed_flush(void)
{
    init_with_fault("d2h:1", 2, 6 * TILE_BYTES);
    int64_t n = NB, mt = 200 * NB;
    double *A = tu_matrix(D, n, n, 51), *B = tu_matrix(D, n, n, 52), *X = tu_matrix(D, n, n, 53);
    double *B2 = tu_matrix(D, n, 2 * n, 54), *C2 = tu_matrix(D, n, 2 * n, 55);
    double *Y = tu_matrix(D, n, n, 56), *M = tu_matrix(D, mt, n, 57), *x = tu_matrix(D, n, 1, 58);
    double *y = tu_matrix(D, mt, 1, 59), *Z = tu_matrix(D, n, n, 60), *Id = tu_matrix(D, n, n, 61);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            Id[i + j * n] = i == j;
    /* X written on one device, then read on both: an owned copy and a shared one */
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, X, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, n, 2 * n, n, 1, X, n, B2, n, 0, C2, n), 0);
    assert_int_equal(tess_sync(), 0);
    /* read through the view one row down: X's flush fails, its copies stay */
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, n - 1, n, n, 1, X + 1, n, B, n, 0, Y, n), 0);
    assert_int_equal(tess_sync(), TESS_EDEVICE);
    /* a GEMV whose tiles stay where its matrix is: evictions write X back */
    assert_int_equal(tess_dgemv_async(TessNoTrans, mt, n, 1, M, mt, x, 1, 0, y, 1), 0);
    assert_int_equal(tess_sync(), 0);
    /* written through the view, then X read on a device */
    assert_int_equal(
        tess_dgemm_async(TessNoTrans, TessNoTrans, n - 1, n, n, 1, A, n, B, n, 0, X + 1, n), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n - 1, n, X + 1, n, 8), 0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, X, n, Id, n, 0, Z, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, Z, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    int64_t stale = 0;
    for (int64_t i = 0; i < n * n; i++)
        stale += Z[i] != X[i];
    assert_int_equal(tess_finalize(), 0);
    double *all[] = { A, B, X, B2, C2, Y, M, x, y, Z, Id };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
    return stale;
}

/* A block whose flush-invalidate failed keeps copies on the devices; an
 * eviction may then write its owned copy back while a shared one stays.  A
 * write through an overlapping view must still flush the block first, so
 * that X read on a device afterwards (Z = X I, exact) is the host's X.
 * Which device runs what depends on the scheduling, so the sequence is tried
 * 20 times. */
static void a_block_whose_flush_failed_is_flushed_before_an_overlapping_write(void **state)
{
    (void)state;
    for (int r = 0; r < 20; r++)
        assert_int_equal(stale_elements_after_a_failed_flush(), 0);
}

static void a_malformed_fault_switch_is_econfig(void **state)
{
    (void)state;
    const char *bad[] = { "h2d", "h2d:0", "h2d:-1", "h2d:x", "disk:3", ":4", "kernel:3junk" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(setenv("TESS_FAULT", bad[i], 1), 0);
        int err = tu_init_host(1, NB, 0);
        unsetenv("TESS_FAULT");
        if (!err)
            tess_finalize();
        assert_int_equal(err, TESS_ECONFIG);
    }
}

/* A GETRF of n x n in panels of NB rows: its factor and pivots, asked for and waited for;
 * the error of the first sync. */
static int lu_with_fault(const char *spec, int64_t n, double *A, int64_t *ipiv)
{
    init_with_fault(spec, 2, 0);
    int64_t info = -1;
    assert_int_equal(tess_dgetrf_async(n, n, A, n, ipiv, &info), 0);
    int err = tess_sync();
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, A, n, 8), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, 1, ipiv, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    assert_int_equal(info, 0);
    assert_int_equal(tess_memory_invalidate(n, n, A, n, 8), 0);
    assert_int_equal(tess_memory_invalidate(n, 1, ipiv, n, 8), 0);
    assert_int_equal(tess_finalize(), 0);
    return err;
}

/* GETRF writes each step's finished rows back while later steps run; the first copy to the
 * host, one of those or the first step's pivots, fails, and with it every later one of the
 * call.  The sync returns the error, and the next coherent request brings the whole
 * factor and the pivots: bit for bit those of a run with no fault. */
static void a_failed_write_back_of_finished_rows_loses_nothing(void **state)
{
    (void)state;
    int64_t n = 4 * NB;
    double *A = tu_matrix(D, n, n, 31), *Aok = tu_copy(D, A, n, n);
    int64_t ipiv[4 * NB], ipok[4 * NB];
    assert_int_equal(lu_with_fault("d2h:1000000", n, Aok, ipok), 0);
    assert_int_equal(lu_with_fault("d2h:1", n, A, ipiv), TESS_EDEVICE);
    assert_memory_equal(A, Aok, (size_t)(n * n) * sizeof(double));
    assert_memory_equal(ipiv, ipok, sizeof ipiv);
    free(A);
    free(Aok);
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
        cmocka_unit_test_teardown(a_failed_fetch_is_returned_by_sync, finish),
        cmocka_unit_test_teardown(a_failed_kernel_is_returned_by_sync, finish),
        cmocka_unit_test_teardown(a_failed_allocation_is_returned_by_sync_as_enomem, finish),
        cmocka_unit_test_teardown(a_failed_write_back_loses_nothing, finish),
        cmocka_unit_test_teardown(a_failed_peer_copy_is_returned_by_sync, finish),
        cmocka_unit_test_teardown(a_failed_eviction_write_back_loses_nothing, finish),
        cmocka_unit_test_teardown(
            a_failed_eviction_write_back_is_the_error_of_the_task_that_evicted, finish),
        cmocka_unit_test_teardown(a_failed_flush_invalidate_loses_nothing, finish),
        cmocka_unit_test_teardown(a_failed_write_back_of_finished_rows_loses_nothing, finish),
        cmocka_unit_test_teardown(a_block_whose_flush_failed_is_flushed_before_an_overlapping_write,
                                  finish),
        cmocka_unit_test_teardown(a_malformed_fault_switch_is_econfig, finish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
