/* Page-locking of host memory on the CUDA backend (skipped with no GPU):
 * what the runtime pins it unpins, and what the user pinned stays pinned. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include "testutil.h"

#define BYTES ((size_t)4 << 20)

static bool is_pinned(void *p)
{
    unsigned flags;
    bool pinned = cudaHostGetFlags(&flags, p) == cudaSuccess;
    cudaGetLastError();
    return pinned;
}

static void memory_registered_through_tessera_is_unpinned_at_finalize(void **state)
{
    (void)state;
    tess_config_t cfg = { .devices = "cuda:0", .cache_fraction = 0.05 };
    void *p = malloc(BYTES);
    assert_non_null(p);
    assert_int_equal(tess_init(&cfg), 0);
    assert_int_equal(tess_memory_register_async(p, BYTES), 0);
    assert_int_equal(tess_sync(), 0);
    assert_true(is_pinned(p));
    assert_int_equal(tess_finalize(), 0);
    assert_false(is_pinned(p));
    free(p);
}

static void memory_the_user_pinned_stays_pinned_after_unregister_and_finalize(void **state)
{
    (void)state;
    tess_config_t cfg = { .devices = "cuda:0", .cache_fraction = 0.05 };
    void *p = malloc(BYTES), *q = malloc(BYTES);
    assert_true(p && q);
    assert_int_equal(cudaHostRegister(p, BYTES, cudaHostRegisterPortable), cudaSuccess);
    assert_int_equal(cudaHostRegister(q, BYTES, cudaHostRegisterPortable), cudaSuccess);
    assert_int_equal(tess_init(&cfg), 0);
    assert_int_equal(tess_memory_register_async(p, BYTES), 0);
    assert_int_equal(tess_memory_register_async(q, BYTES), 0);
    assert_int_equal(tess_memory_unregister(q), 0);
    assert_int_equal(tess_finalize(), 0);
    assert_true(is_pinned(p));
    assert_true(is_pinned(q));
    cudaHostUnregister(p);
    cudaHostUnregister(q);
    free(p);
    free(q);
}

static void operands_are_pinned_on_first_use_and_unpinned_when_invalidated(void **state)
{
    (void)state;
    tess_config_t cfg = { .devices = "cuda:0", .cache_fraction = 0.05 };
    int64_t n = 1024; /* 8 MiB operands: above the first-use threshold */
    double *A = tu_matrix(&tu_types[1], n, n, 1), *C = tu_matrix(&tu_types[1], n, n, 2);
    assert_int_equal(tess_init(&cfg), 0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, A, n, 0, C, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    assert_true(is_pinned(A));
    assert_true(is_pinned(C));
    assert_int_equal(tess_memory_invalidate(n, n, A, n, sizeof *A), 0);
    assert_false(is_pinned(A));
    assert_int_equal(tess_finalize(), 0);
    assert_false(is_pinned(C));
    free(A);
    free(C);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0)
        return 77; /* meson's code for a skipped test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memory_registered_through_tessera_is_unpinned_at_finalize),
        cmocka_unit_test(memory_the_user_pinned_stays_pinned_after_unregister_and_finalize),
        cmocka_unit_test(operands_are_pinned_on_first_use_and_unpinned_when_invalidated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
