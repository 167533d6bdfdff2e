/* A GPU's cache sized in bytes (tess_config_t.cache_bytes, TESS_CACHE_BYTES)
 * rather than as a share of its free memory (skipped with no GPU). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include "testutil.h"

#define NB 256
#define TILE_BYTES ((size_t)NB * NB * sizeof(double))

/* Three tiles of cache: a GEMM whose every task reads and writes three tiles
 * runs in it, evicting as it goes, with the GEMM residual under
 * TU_GEMM_BOUND. */
static void a_cache_of_three_tiles_holds_three_tiles(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    int64_t n = 4 * NB;
    tess_config_t cfg = { .devices = "cuda:0", .nb = NB, .cache_bytes = 3 * TILE_BYTES };
    assert_int_equal(setenv("TESS_WINDOW", "1", 1), 0);
    int err = tess_init(&cfg);
    unsetenv("TESS_WINDOW");
    assert_int_equal(err, 0);
    double *A = tu_matrix(t, n, n, 1), *B = tu_matrix(t, n, n, 2), *C = tu_matrix(t, n, n, 3);
    double *Cr = tu_copy(t, C, n, n);
    double nA = tu_norm(t, A, n, n, n), nB = tu_norm(t, B, n, n, n), nC = tu_norm(t, C, n, n, n);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, C, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, sizeof *C), 0);
    assert_int_equal(tess_sync(), 0);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    /* 64 tasks of 3 tiles each through 3 tiles of memory */
    assert_true(s.evictions > 0);
    tu_gemm_ref(t, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 1, Cr, n);
    assert_true(tu_gemm_residual(t, n, n, n, 1, nA, nB, 1, nC, C, Cr, n) < TU_GEMM_BOUND);
    assert_int_equal(tess_finalize(), 0);
    free(A);
    free(B);
    free(C);
    free(Cr);
}

/* More bytes than the GPU has is TESS_ENOMEM at tess_init, and the runtime
 * starts afterwards with a size that fits. */
static void a_cache_larger_than_the_gpu_is_enomem_at_init(void **state)
{
    (void)state;
    size_t free_b, total_b;
    assert_int_equal(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
    tess_config_t cfg = { .devices = "cuda:0", .cache_bytes = 2 * total_b };
    assert_int_equal(tess_init(&cfg), TESS_ENOMEM);
    cfg.cache_bytes = 64 << 20;
    assert_int_equal(tess_init(&cfg), 0);
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0)
        return 77; /* meson's code for a skipped test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_cache_of_three_tiles_holds_three_tiles),
        cmocka_unit_test(a_cache_larger_than_the_gpu_is_enomem_at_init),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
