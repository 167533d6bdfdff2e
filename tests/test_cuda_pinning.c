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

/* The first product pins the left half of A on first use; the second reads
 * all of A, whose pinning then fails (part of it is locked already), in
 * tiles of 384 columns: the second tile runs over the edge of the locked
 * half, a copy CUDA refuses from locked memory.  The product is right
 * (GEMM residual bound TU_GEMM_BOUND). */
static void a_tile_over_the_edge_of_a_pinned_range_is_copied(void **state)
{
    (void)state;
    const tu_type_t *t = &tu_types[1];
    tess_config_t cfg = { .devices = "cuda:0", .cache_fraction = 0.05, .nb = 384 };
    int64_t n = 1024, half = n / 2;
    double *A = tu_matrix(t, n, n, 3), *B = tu_matrix(t, n, n, 4), *C = tu_matrix(t, n, n, 5);
    double *Cr = tu_copy(t, C, n, n);
    assert_int_equal(tess_init(&cfg), 0);
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, half, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_sync(), 0);
    assert_true(is_pinned(A));
    assert_false(is_pinned(A + (n - 1) * n));
    assert_int_equal(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, C, n),
                     0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, sizeof *C), 0);
    assert_int_equal(tess_sync(), 0);
    assert_false(is_pinned(A + (n - 1) * n));
    tu_gemm_ref(t, TessNoTrans, TessNoTrans, n, n, n, 1, A, n, B, n, 0, Cr, n);
    assert_true(tu_gemm_residual(t, n, n, n, 1, tu_norm(t, A, n, n, n), tu_norm(t, B, n, n, n), 0,
                                 0, C, Cr, n) < TU_GEMM_BOUND);
    assert_int_equal(tess_finalize(), 0);
    free(A);
    free(B);
    free(C);
    free(Cr);
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
        cmocka_unit_test(a_tile_over_the_edge_of_a_pinned_range_is_copied),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
