/* A tile past 46,340 rows on a GPU (skipped with no GPU): its 2^31 or more
 * elements are more than one cuBLAS call's 32-bit length can carry, and the
 * kernels cut such a tile into calls that can. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include "testutil.h"

/* The smallest square tile of more than INT_MAX elements. */
#define N 46341

/* GEMM with k = 0 scales C by beta, one tile of N x N; 8.6 GB of floats on
 * the host and on the GPU.  Values i mod 1024 and beta 0.5 make every
 * product exact, so each element is checked for equality. */
static void gemm_with_k_zero_scales_every_element_of_a_tile_of_more_than_2_31(void **state)
{
    (void)state;
    const size_t count = (size_t)N * N;
    float *C = malloc(count * sizeof *C), one = 1;
    if (!C)
        skip();
    for (size_t i = 0; i < count; i++)
        C[i] = (float)(i % 1024);
    assert_int_equal(tess_init(&(tess_config_t){ .devices = "cuda:0", .nb = N }), 0);
    assert_int_equal(
        tess_sgemm_async(TessNoTrans, TessNoTrans, N, N, 0, 1, &one, N, &one, 1, 0.5f, C, N), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, N, N, C, N, sizeof *C), 0);
    assert_int_equal(tess_sync(), 0);
    size_t wrong = 0;
    for (size_t i = 0; i < count; i++)
        wrong += C[i] != 0.5f * (float)(i % 1024);
    assert_int_equal(wrong, 0);
    assert_int_equal(tess_memory_invalidate(N, N, C, N, sizeof *C), 0);
    assert_int_equal(tess_finalize(), 0);
    free(C);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0)
        return 77; /* meson's code for a skipped test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_with_k_zero_scales_every_element_of_a_tile_of_more_than_2_31),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
