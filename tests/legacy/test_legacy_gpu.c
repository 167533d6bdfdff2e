/* Operands in GPU memory handed to the legacy BLAS library (CUDA builds):
 * they are served on that GPU, and the results match the same calls on host
 * copies (which, below the threshold, the host BLAS or LAPACK makes).  Also
 * operands split between host and GPU memory.  Skipped without a GPU. */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cuda.h>
#include <cuda_runtime.h>

typedef double _Complex zc;

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);
void dgemmt_(const char *, const char *, const char *, const int *, const int *, const double *,
             const double *, const int *, const double *, const int *, const double *, double *,
             const int *, size_t, size_t, size_t);
void ztrsm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const zc *, const zc *, const int *, zc *, const int *, size_t, size_t, size_t, size_t);
void zherk_(const char *, const char *, const int *, const int *, const double *, const zc *,
            const int *, const double *, zc *, const int *, size_t, size_t);

typedef void uplo_fn(const char *, const int *, double *, const int *, int *, size_t);
uplo_fn dpotrf_, dlauum_, dpotri_;
void dtrtri_(const char *, const char *, const int *, double *, const int *, int *, size_t, size_t);
void zposv_(const char *, const int *, const int *, zc *, const int *, zc *, const int *, int *,
            size_t);
void sgemm_64_(const char *, const char *, const int64_t *, const int64_t *, const int64_t *,
               const float *, const float *, const int64_t *, const float *, const int64_t *,
               const float *, float *, const int64_t *, size_t, size_t);

/* What the library reported to XERBLA last. */
static struct {
    int calls;
    char name[8];
    int64_t info;
} seen;

void xerbla_(const char *name, const int *info, size_t len)
{
    seen.calls++;
    snprintf(seen.name, sizeof seen.name, "%.*s", (int)len, name);
    seen.info = *info;
}

void xerbla_64_(const char *name, const int64_t *info, size_t len)
{
    seen.calls++;
    snprintf(seen.name, sizeof seen.name, "%.*s", (int)len, name);
    seen.info = *info;
}

static void *on_gpu(const void *h, size_t bytes)
{
    void *d;
    assert_int_equal(cudaMalloc(&d, bytes), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

static void from_gpu(void *h, const void *d, size_t bytes)
{
    assert_int_equal(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

static void fill(double *a, size_t n, unsigned s)
{
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (double)((s >> 8) % 2001) / 1000.0 - 1.0;
    }
}

/* The largest difference, relative to the largest entry: the GPU and the
 * host BLAS sum in different orders. */
static double max_diff(const double *x, const double *y, size_t n)
{
    double d = 0, big = 1;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(x[i] - y[i]));
        big = fmax(big, fabs(y[i]));
    }
    return d / big;
}

static void device_operands_are_served_on_their_gpu(void **state)
{
    (void)state;
    const int n = 300, k = 200;
    size_t bytes = (size_t)n * n * sizeof(double);
    double *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes), *R = malloc(bytes);
    double *G = malloc(bytes), alpha = 0.5, beta = -1.0;
    fill(A, (size_t)n * n, 1), fill(B, (size_t)n * n, 2), fill(C, (size_t)n * n, 3);

    /* all on the GPU */
    memcpy(R, C, bytes);
    double *dA = on_gpu(A, bytes), *dB = on_gpu(B, bytes), *dC = on_gpu(C, bytes);
    dgemm_("N", "T", &n, &n, &k, &alpha, dA, &n, dB, &n, &beta, dC, &n, 1, 1);
    dgemm_("N", "T", &n, &n, &k, &alpha, A, &n, B, &n, &beta, R, &n, 1, 1);
    from_gpu(G, dC, bytes);
    assert_true(max_diff(G, R, (size_t)n * n) < 1e-13);

    /* A on the GPU, B and C in host memory */
    dgemmt_("L", "T", "N", &n, &k, &alpha, dA, &n, B, &n, &beta, C, &n, 1, 1, 1);
    memcpy(G, C, bytes);
    fill(C, (size_t)n * n, 3);
    dgemmt_("L", "T", "N", &n, &k, &alpha, A, &n, B, &n, &beta, C, &n, 1, 1, 1);
    assert_true(max_diff(G, C, (size_t)n * n) < 1e-13);
    cudaFree(dA), cudaFree(dB), cudaFree(dC);

    /* complex: a solve and a rank-k update on the GPU */
    zc *Z = malloc(2 * bytes), *W = malloc(2 * bytes), *V = malloc(2 * bytes), one = 1;
    fill((double *)Z, 2 * (size_t)n * n, 4), fill((double *)W, 2 * (size_t)n * n, 5);
    for (int i = 0; i < n; i++)
        Z[i + (size_t)i * n] += n;
    zc *dZ = on_gpu(Z, 2 * bytes), *dW = on_gpu(W, 2 * bytes);
    ztrsm_("R", "U", "C", "N", &n, &n, &one, dZ, &n, dW, &n, 1, 1, 1, 1);
    ztrsm_("R", "U", "C", "N", &n, &n, &one, Z, &n, W, &n, 1, 1, 1, 1);
    from_gpu(V, dW, 2 * bytes);
    assert_true(max_diff((double *)V, (double *)W, 2 * (size_t)n * n) < 1e-13);
    double ra = 2, rb = 0.5;
    zherk_("U", "N", &n, &k, &ra, dZ, &n, &rb, dW, &n, 1, 1);
    zherk_("U", "N", &n, &k, &ra, Z, &n, &rb, W, &n, 1, 1);
    from_gpu(V, dW, 2 * bytes);
    assert_true(max_diff((double *)V, (double *)W, 2 * (size_t)n * n) < 1e-13);
    cudaFree(dZ), cudaFree(dW);
    free(A), free(B), free(C), free(R), free(G), free(Z), free(W), free(V);
}

/* A symmetric (Hermitian) positive definite n x n matrix: entries of at
 * most 1 off the diagonal, 2n on it. */
static void spd(double *a, int n, bool complex_type, unsigned s)
{
    int w = complex_type ? 2 : 1;
    fill(a, (size_t)w * n * n, s);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++)
            for (int p = 0; p < w; p++)
                a[w * (i + (size_t)j * n) + p] = (p ? -1 : 1) * a[w * (j + (size_t)i * n) + p];
    for (int i = 0; i < n; i++) {
        a[w * (i + (size_t)i * n)] = 2 * n;
        if (complex_type)
            a[w * (i + (size_t)i * n) + 1] = 0;
    }
}

/* LAPACK's Cholesky family on a matrix in GPU memory (B in host memory for
 * ZPOSV): the host LAPACK's results on host copies, and its INFO for a
 * matrix whose leading minor of order k is not positive definite. */
static void lapack_device_operands_are_served_on_their_gpu(void **state)
{
    (void)state;
    const int n = 300, nrhs = 5, k = 211;
    size_t bytes = (size_t)n * n * sizeof(double);
    double *A = malloc(bytes), *G = malloc(bytes), *dA;
    uplo_fn *const fns[3] = { dpotrf_, dlauum_, dpotri_ };
    for (int f = 0; f < 3; f++) {
        int info = -1, ref = -1;
        spd(A, n, false, 8);
        if (f == 2) /* POTRI takes a factor */
            dpotrf_("L", &n, A, &n, &ref, 1);
        dA = on_gpu(A, bytes);
        fns[f]("L", &n, dA, &n, &info, 1);
        fns[f]("L", &n, A, &n, &ref, 1);
        from_gpu(G, dA, bytes);
        cudaFree(dA);
        assert_int_equal(info, 0);
        assert_int_equal(ref, 0);
        assert_true(max_diff(G, A, (size_t)n * n) < 1e-12);
    }
    int info = -1;
    spd(A, n, false, 9);
    dA = on_gpu(A, bytes);
    dtrtri_("U", "N", &n, dA, &n, &info, 1, 1);
    dtrtri_("U", "N", &n, A, &n, &info, 1, 1);
    from_gpu(G, dA, bytes);
    cudaFree(dA);
    assert_true(max_diff(G, A, (size_t)n * n) < 1e-12);
    spd(A, n, false, 10);
    A[(k - 1) * (n + 1)] = -1;
    dA = on_gpu(A, bytes);
    dpotrf_("U", &n, dA, &n, &info, 1);
    cudaFree(dA);
    assert_int_equal(info, k);

    zc *Z = malloc(2 * bytes), *B = malloc((size_t)n * nrhs * sizeof(zc));
    zc *R = malloc((size_t)n * nrhs * sizeof(zc)), *dZ;
    spd((double *)Z, n, true, 11);
    fill((double *)B, 2 * (size_t)n * nrhs, 12);
    memcpy(R, B, (size_t)n * nrhs * sizeof(zc));
    dZ = on_gpu(Z, 2 * bytes);
    zposv_("U", &n, &nrhs, dZ, &n, B, &n, &info, 1);
    assert_int_equal(info, 0);
    zposv_("U", &n, &nrhs, Z, &n, R, &n, &info, 1);
    cudaFree(dZ);
    assert_true(max_diff((double *)B, (double *)R, 2 * (size_t)n * nrhs) < 1e-12);
    free(A), free(G), free(Z), free(B), free(R);
}

/* Whether the CUDA driver is initialised: before cuInit it answers every
 * query CUDA_ERROR_NOT_INITIALIZED.  False where it is not loaded. */
static bool cuda_initialised(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    CUresult (*count)(int *) = NULL;
    if (h)
        *(void **)&count = dlsym(h, "cuDeviceGetCount");
    int c;
    return count && count(&c) != CUDA_ERROR_NOT_INITIALIZED;
}

static bool initialised_by_small_call; /* main's small call, before any CUDA */

/* Asking whether its operands are in GPU memory would start CUDA, a context
 * on a GPU, in every process that calls BLAS, and cost more than the call. */
static void a_small_call_on_host_memory_leaves_cuda_uninitialised(void **state)
{
    (void)state;
    assert_false(initialised_by_small_call);
}

/* main made a small call on host memory before CUDA was initialised: the
 * library, which then found CUDA not in use and asks again on later calls,
 * must see it now for a call as small. */
static void small_device_operands_after_calls_before_cuda_are_served_on_their_gpu(void **state)
{
    (void)state;
    const int n = 8;
    size_t bytes = (size_t)n * n * sizeof(double);
    double A[64], B[64], C[64], R[64], G[64], alpha = 1, beta = 0;
    fill(A, 64, 6), fill(B, 64, 7);
    double *dA = on_gpu(A, bytes), *dB = on_gpu(B, bytes), *dC = on_gpu(C, bytes);
    dgemm_("N", "N", &n, &n, &n, &alpha, dA, &n, dB, &n, &beta, dC, &n, 1, 1);
    dgemm_("N", "N", &n, &n, &n, &alpha, A, &n, B, &n, &beta, R, &n, 1, 1);
    from_gpu(G, dC, bytes);
    assert_true(max_diff(G, R, 64) < 1e-13);
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

/* A 64-bit call on GPU memory with a dimension past 32 bits, which neither cuBLAS nor a
 * 32-bit host BLAS takes, is refused through XERBLA at that dimension's position, with
 * nothing copied or changed: C (8 GiB of floats, m = 2^31 + 1) keeps its bytes. */
static void a_gpu_call_past_32_bits_without_a_64_bit_host_is_refused_untouched(void **state)
{
    (void)state;
    if (dlopen("libopenblas64_.so.0", RTLD_NOW) || dlopen("libopenblas64.so.0", RTLD_NOW) ||
        getenv("TESS_BLAS64_LIB"))
        skip(); /* a 64-bit host BLAS takes the call through host copies */
    const int64_t m = ((int64_t)1 << 31) + 1, n = 1, k = 0, one = 1;
    const float alpha = 1, beta = 2;
    float *dC, *dAB, ends[2];
    if (cudaMalloc((void **)&dC, (size_t)m * sizeof(float)) != cudaSuccess) {
        cudaGetLastError();
        skip();
    }
    assert_int_equal(cudaMalloc((void **)&dAB, sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMemset(dC, 0x40, (size_t)m * sizeof(float)), cudaSuccess);
    seen.calls = 0;
    sgemm_64_("N", "N", &m, &n, &k, &alpha, dAB, &m, dAB, &one, &beta, dC, &m, 1, 1);
    assert_int_equal(seen.calls, 1);
    assert_string_equal(seen.name, "SGEMM ");
    assert_int_equal(seen.info, 3);
    from_gpu(&ends[0], dC, sizeof(float));
    from_gpu(&ends[1], dC + m - 1, sizeof(float));
    float before;
    memset(&before, 0x40, sizeof before);
    assert_true(ends[0] == before && ends[1] == before);
    cudaFree(dC), cudaFree(dAB);
}

int main(void)
{
    const int n = 8;
    double A[64] = { 0 }, C[64], one = 1, zero = 0;
    dgemm_("N", "N", &n, &n, &n, &one, A, &n, A, &n, &zero, C, &n, 1, 1); /* before CUDA */
    initialised_by_small_call = cuda_initialised();
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return 77; /* meson's "skipped" */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_small_call_on_host_memory_leaves_cuda_uninitialised),
        cmocka_unit_test(small_device_operands_after_calls_before_cuda_are_served_on_their_gpu),
        cmocka_unit_test(device_operands_are_served_on_their_gpu),
        cmocka_unit_test(lapack_device_operands_are_served_on_their_gpu),
        cmocka_unit_test(a_gpu_call_past_32_bits_without_a_64_bit_host_is_refused_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
