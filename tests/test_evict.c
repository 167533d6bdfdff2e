/* Device memory far smaller than the data (host backend, nb = 16): the cache
 * evicts clean tiles, writes dirty ones back, and the result is still right
 * (normwise GEMM residual < 10).  Each test initialises its own runtime. */
#include <stdlib.h>
#include "testutil.h"

#define NB 16
#define TILE_BYTES ((size_t)NB * NB * sizeof(double))
static const tu_type_t *D = &tu_types[1];

/* 8 tiles per device; the operands hold 3 x 36 tiles */
static void gemm_chain_out_of_core(void)
{
    int64_t n = 6 * NB;
    double *A = tu_matrix(D, n, n, 1), *B = tu_matrix(D, n, n, 2), *C = tu_matrix(D, n, n, 3);
    double *E = tu_matrix(D, n, n, 4), *Cr = tu_copy(D, C, n, n), *Er = tu_copy(D, E, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, C, n),
                     0);
    assert_int_equal(tess_dgemm_async(TessTrans, TessNoTrans, n, n, n, 1, C, n, A, n, 0, E, n), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, 8), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, E, n, 8), 0);
    assert_int_equal(tess_sync(), 0);
    tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, Cr, n);
    tu_gemm_ref(D, TessTrans, TessNoTrans, n, n, n, 1, Cr, n, A, n, 0, Er, n);
    double nA = tu_norm(D, A, n, n, n), nB = tu_norm(D, B, n, n, n), nC = tu_norm(D, Cr, n, n, n);
    assert_true(tu_diff(D, C, Cr, n, n, n) / (n * D->eps * (nA * nB + nC)) < TU_GEMM_BOUND);
    assert_true(tu_diff(D, E, Er, n, n, n) / (2 * n * D->eps * nC * nA) < TU_GEMM_BOUND);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    assert_true(s.evictions > 0);
    /* C tiles are evicted dirty between its k-steps and E's reads */
    assert_true(s.writebacks > (uint64_t)(n / NB) * (n / NB));
    tu_release(D, A, n, n);
    tu_release(D, B, n, n);
    tu_release(D, C, n, n);
    tu_release(D, E, n, n);
    free(Cr);
    free(Er);
}

static void gemm_chain_larger_than_all_device_memory_completes_out_of_core(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 8 * TILE_BYTES), 0);
    gemm_chain_out_of_core();
    assert_int_equal(tess_finalize(), 0);
}

/* A tile takes 40 us to cross a simulated link of 50 MB/s, so kernels wait
 * for inputs still arriving, devices copy from tiles still arriving on the
 * other device, and write-backs finish after their task is polled. */
static void out_of_core_over_a_slow_link_waits_for_copies_still_arriving(void **state)
{
    (void)state;
    assert_int_equal(setenv("TESS_HOST_LINK_GBPS", "0.05", 1), 0);
    int err = tu_init_host(2, NB, 8 * TILE_BYTES);
    unsetenv("TESS_HOST_LINK_GBPS");
    assert_int_equal(err, 0);
    gemm_chain_out_of_core();
    assert_int_equal(tess_finalize(), 0);
}

static void a_task_whose_tiles_exceed_device_memory_fails_at_sync_with_enomem(void **state)
{
    (void)state;
    /* a GEMM tile task needs three tiles; each device holds two */
    assert_int_equal(tu_init_host(2, NB, 2 * TILE_BYTES), 0);
    int64_t n = 2 * NB;
    double *A = tu_matrix(D, n, n, 5), *B = tu_matrix(D, n, n, 6), *C = tu_matrix(D, n, n, 7);
    double *C0 = tu_copy(D, C, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, C, n),
                     0);
    assert_int_equal(tess_sync(), TESS_ENOMEM);
    assert_int_equal(tess_sync(), 0); /* reported once */
    /* the host copy of C was never overwritten by a failed task */
    assert_memory_equal(C, C0, (size_t)(n * n) * sizeof(double));
    assert_int_equal(tess_finalize(), 0);
    free(A);
    free(B);
    free(C);
    free(C0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_chain_larger_than_all_device_memory_completes_out_of_core),
        cmocka_unit_test(out_of_core_over_a_slow_link_waits_for_copies_still_arriving),
        cmocka_unit_test(a_task_whose_tiles_exceed_device_memory_fails_at_sync_with_enomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
