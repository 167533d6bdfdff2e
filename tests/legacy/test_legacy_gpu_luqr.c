/* LU and QR with operands in GPU memory (CUDA builds; skipped without a GPU), through the
 * legacy entries: served on their GPU (cuSOLVER's GETRF, GEQRF and ORMQR/UNMQR, Tessera's
 * row swaps and TRSMs for GETRS; GELS through host copies), the pivots in host memory as
 * LAPACK's are, each against the same call on host memory, which the host LAPACK serves
 * (meson runs this without TESS_THRESHOLD, at sizes below the thresholds;
 * test_legacy_lu.c and test_legacy_qr.c test that path against OpenBLAS).  Double and
 * double complex, both integer widths. */
#include <cuda_runtime.h>
#include "legacy_luqr.h"

enum { N = 120, M = N + 9 };

static void *on_gpu(const void *h, size_t bytes)
{
    void *d;
    assert_int_equal(cudaMalloc(&d, bytes), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

static void *back(const void *d, size_t bytes)
{
    void *h = malloc(bytes);
    assert_int_equal(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
}

/* ||A X - B||_F / (n eps ||A||_F ||X||_F), X in the type's memory */
static double solve_error(int ty, char op, const dc *a, const void *x, const dc *b)
{
    dc *xx = from_t(ty, x, N * NRHS), *r = residual(op, a, N, N, N, xx, N, b, N, NRHS);
    double v = fnorm(r, N, NRHS, N) / (N * eps[ty] * fnorm(a, N, N, N) * fnorm(xx, N, NRHS, N));
    free(xx), free(r);
    return v;
}

static int64_t getrf_w(int ty, int wide, void *A, void *piv)
{
    return wide ? getrf64(ours(ty, "getrf", 1), N, N, A, N, piv)
                : getrf32(ours(ty, "getrf", 0), N, N, A, N, piv);
}

static int64_t getrs_w(int ty, int wide, char op, void *A, void *piv, void *B)
{
    return wide ? getrs64(ours(ty, "getrs", 1), op, N, NRHS, A, N, piv, B, N)
                : getrs32(ours(ty, "getrs", 0), op, N, NRHS, A, N, piv, B, N);
}

static int64_t gesv_w(int ty, int wide, void *A, void *piv, void *B)
{
    return wide ? gesv64(ours(ty, "gesv", 1), N, NRHS, A, N, piv, B, N)
                : gesv32(ours(ty, "gesv", 0), N, NRHS, A, N, piv, B, N);
}

/* GETRF's pivots as the host path's; GETRS (each op) and GESV solve within BOUND; a zero
 * column gives GESV's INFO at it with B as it was; LASWP moves the host path's rows. */
static void lu_on_gpu_memory_matches_the_host_path(void **state)
{
    (void)state;
    const int tys[] = { 1, 3 };
    for (int t = 0; t < 2; t++)
        for (int wide = 0; wide < 2; wide++) {
            int ty = tys[t];
            size_t es = elsize[ty], pw = wide ? 8 : 4, ab = (size_t)N * N * es;
            size_t bb = (size_t)N * NRHS * es;
            dc *a = mat(N, N, N, 3, ty), *b = mat(N, NRHS, N, 5, ty);
            void *hA = to_t(ty, a, N * N), *dA = on_gpu(hA, ab);
            void *hp = calloc(N, pw), *dp = calloc(N, pw);
            assert_int_equal(getrf_w(ty, wide, hA, hp), 0);
            assert_int_equal(getrf_w(ty, wide, dA, dp), 0);
            assert_memory_equal(hp, dp, N * pw);
            const char ops[] = { 'N', 'T', 'C' };
            for (int o = 0; o < 3; o++) {
                void *hB = to_t(ty, b, N * NRHS), *dB = on_gpu(hB, bb);
                assert_int_equal(getrs_w(ty, wide, ops[o], dA, dp, dB), 0);
                void *x = back(dB, bb);
                double e = solve_error(ty, ops[o], a, x, b);
                if (!(e <= BOUND))
                    fail_msg("%cgetrs %c on GPU memory: %g", letter[ty], ops[o], e);
                free(hB), free(x), cudaFree(dB);
            }
            /* GESV, then a singular matrix: INFO at its zero column, B untouched */
            for (int singular = 0; singular < 2; singular++) {
                if (singular)
                    for (int64_t i = 0; i < N; i++)
                        a[i + 40 * N] = 0;
                void *A2 = to_t(ty, a, N * N), *hB = to_t(ty, b, N * NRHS);
                void *dA2 = on_gpu(A2, ab), *dB = on_gpu(hB, bb);
                assert_int_equal(gesv_w(ty, wide, dA2, dp, dB), singular ? 41 : 0);
                void *x = back(dB, bb);
                if (singular)
                    assert_memory_equal(x, hB, bb);
                else if (!(solve_error(ty, 'N', a, x, b) <= BOUND))
                    fail_msg("%cgesv on GPU memory", letter[ty]);
                free(A2), free(hB), free(x), cudaFree(dA2), cudaFree(dB);
            }
            /* LASWP with the factorization's pivots, forward and back */
            for (int64_t inc = -1; inc <= 1; inc += 2) {
                void *h = to_t(ty, b, N * NRHS), *d = on_gpu(h, bb);
                if (wide) {
                    laswp64(ours(ty, "laswp", 1), NRHS, h, N, 1, N, hp, inc);
                    laswp64(ours(ty, "laswp", 1), NRHS, d, N, 1, N, hp, inc);
                } else {
                    laswp32(ours(ty, "laswp", 0), NRHS, h, N, 1, N, hp, inc);
                    laswp32(ours(ty, "laswp", 0), NRHS, d, N, 1, N, hp, inc);
                }
                void *x = back(d, bb);
                assert_memory_equal(x, h, bb);
                free(h), free(x), cudaFree(d);
            }
            free(a), free(b), free(hA), free(hp), free(dp), cudaFree(dA);
        }
}

/* GEQRF's A and tau, ORMQR's C (Q^H C) and GELS's X as the host path's, within BOUND. */
static void qr_on_gpu_memory_matches_the_host_path(void **state)
{
    (void)state;
    const int tys[] = { 1, 3 };
    for (int t = 0; t < 2; t++)
        for (int wide = 0; wide < 2; wide++) {
            int ty = tys[t];
            size_t es = elsize[ty], ab = (size_t)M * N * es, cb = (size_t)M * NRHS * es;
            int64_t lw = (M + N) * 64;
            void *w = calloc((size_t)lw, es);
            dc *a = mat(M, N, M, 7, ty), *c = mat(M, NRHS, M, 11, ty);
            void *hA = to_t(ty, a, M * N), *dA = on_gpu(hA, ab);
            void *ht = calloc(N, es), *dtau = on_gpu(ht, N * es);
            fn_t f = ours(ty, "geqrf", wide);
            assert_int_equal(
                wide ? geqrf64(f, M, N, hA, M, ht, w, lw) : geqrf32(f, M, N, hA, M, ht, w, lw), 0);
            assert_int_equal(wide ? geqrf64(f, M, N, dA, M, dtau, w, lw)
                                  : geqrf32(f, M, N, dA, M, dtau, w, lw),
                             0);
            void *gA = back(dA, ab), *gt = back(dtau, N * es);
            dc *x = from_t(ty, gA, M * N), *r = from_t(ty, hA, M * N);
            dc *xt = from_t(ty, gt, N), *rt = from_t(ty, ht, N);
            double e = rel(ty, x, r, M, N, M), et = rel(ty, xt, rt, 1, N, 1);
            if (!(e <= BOUND && et <= BOUND))
                fail_msg("%cgeqrf on GPU memory: A %g, tau %g", letter[ty], e, et);
            /* Q^H C on the host path's factors, C in GPU memory */
            void *hC = to_t(ty, c, M * NRHS), *dC = on_gpu(hC, cb);
            char tr = ty < 2 ? 'T' : 'C';
            f = ours(ty, qname(ty), wide);
            assert_int_equal(wide ? ormqr64(f, 'L', tr, M, NRHS, N, hA, M, ht, hC, M, w, lw)
                                  : ormqr32(f, 'L', tr, M, NRHS, N, hA, M, ht, hC, M, w, lw),
                             0);
            assert_int_equal(wide ? ormqr64(f, 'L', tr, M, NRHS, N, hA, M, ht, dC, M, w, lw)
                                  : ormqr32(f, 'L', tr, M, NRHS, N, hA, M, ht, dC, M, w, lw),
                             0);
            void *gC = back(dC, cb);
            dc *cx = from_t(ty, gC, M * NRHS), *cr = from_t(ty, hC, M * NRHS);
            if (!(rel(ty, cx, cr, M, NRHS, M) <= BOUND))
                fail_msg("%c%s on GPU memory", letter[ty], qname(ty));
            /* GELS on A and B in GPU memory */
            void *A2 = to_t(ty, a, M * N), *B2 = to_t(ty, c, M * NRHS);
            void *dA2 = on_gpu(A2, ab), *dB2 = on_gpu(B2, cb);
            f = ours(ty, "gels", wide);
            assert_int_equal(wide ? gels64(f, 'N', M, N, NRHS, A2, M, B2, M, w, lw)
                                  : gels32(f, 'N', M, N, NRHS, A2, M, B2, M, w, lw),
                             0);
            assert_int_equal(wide ? gels64(f, 'N', M, N, NRHS, dA2, M, dB2, M, NULL, -2)
                                  : gels32(f, 'N', M, N, NRHS, dA2, M, dB2, M, NULL, -2),
                             -10);
            assert_int_equal(wide ? gels64(f, 'N', M, N, NRHS, dA2, M, dB2, M, w, lw)
                                  : gels32(f, 'N', M, N, NRHS, dA2, M, dB2, M, w, lw),
                             0);
            void *gB = back(dB2, cb);
            dc *bx = from_t(ty, gB, M * NRHS), *br = from_t(ty, B2, M * NRHS);
            if (!(rel(ty, bx, br, N, NRHS, M) <= BOUND))
                fail_msg("%cgels on GPU memory", letter[ty]);
            free(w), free(a), free(c), free(hA), free(ht), free(gA), free(gt), free(x), free(r),
                free(xt), free(rt), free(hC), free(gC), free(cx), free(cr), free(A2), free(B2),
                free(gB), free(bx), free(br);
            cudaFree(dA), cudaFree(dtau), cudaFree(dC), cudaFree(dA2), cudaFree(dB2);
        }
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return 77; /* meson's "skipped" */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lu_on_gpu_memory_matches_the_host_path),
        cmocka_unit_test(qr_on_gpu_memory_matches_the_host_path),
    };
    return cmocka_run_group_tests(tests, host_open, NULL);
}
