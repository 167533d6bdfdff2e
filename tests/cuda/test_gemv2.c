/* The runtime's BLAS-2 tile kernel on one GPU (kern_cuda_gemv2) against the
 * host kernel table's (OpenBLAS): A x alone, op(A) x alone (T, and C for
 * complex types), both products of one tile, and a diagonal tile of a
 * symmetric (Hermitian) matrix, both triangles.
 *
 * Bound (eps: machine epsilon of the precision, Frobenius/2-norms, ||A|| of
 * the whole symmetric/Hermitian matrix for a diagonal tile), for each y:
 *   ||y - yref|| / ((|alpha| ||A|| ||x|| + |beta| ||y0||) max(m,n) eps) < 10
 * Every case checks that the elements of y's array between its strided
 * entries were not written.  beta = 0 cases fill y with NaN first (it must
 * not be read); diagonal tiles hold NaN in the triangle that must not be read
 * and, complex, in the imaginary parts of the diagonal.  Results must repeat
 * bit for bit, and not depend on the scratch beyond the partials' geometry. */
#include "tu_cuda.h"
#include "cuda/kern_cuda.h"
#include "cuda_ctx.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOUND 10.0

typedef enum { M_N, M_T, M_C, M_NT, M_NC, M_LOWER, M_UPPER, M_COUNT } g2mode_t;
static const char *const mode_name[M_COUNT] = { "N", "T", "C", "N+T", "N+C", "lower", "upper" };

typedef struct {
    int64_t incx, incy;
} incs_t;
static const incs_t incs[] = { { 1, 1 }, { -1, -1 }, { 2, -3 } };

typedef struct {
    const tu_type_t *t;
    g2mode_t mode;
    int64_t m, n, lda;
    incs_t inc;
    double _Complex alpha, beta;
    size_t scratch_bytes; /* 0: the runtime's, cuda_scratch_bytes(max(m, n)) */
} case_t;

static tess_part_t part_of(g2mode_t mode)
{
    return mode == M_LOWER ? TessLowerPart : mode == M_UPPER ? TessUpperPart : TessAll;
}

/* One case's inputs: A (with NaN where a diagonal tile is not read) and a
 * clean copy for the host; x1, x2, y1, y2 (NaN entries when beta is 0). */
typedef struct {
    void *A, *Aref, *x1, *x2, *y1, *y2;
    double normA;
} inputs_t;

static inputs_t make_inputs(const case_t *c)
{
    const tu_type_t *t = c->t;
    inputs_t in;
    in.Aref = tu_random(t, c->m, c->n, c->lda, 0.0);
    in.A = tu_copy(t, in.Aref, c->lda, c->n);
    double s = 0;
    const tess_part_t part = part_of(c->mode);
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->m; i++) {
            const double _Complex a = tu_get(t, in.Aref, i, j, c->lda);
            if (part == TessAll) {
                s += cabs(a) * cabs(a);
            } else if (i == j) {
                tu_set(t, in.Aref, i, i, c->lda, creal(a));
                tu_set(t, in.A, i, i, c->lda, t->is_complex ? CMPLX(creal(a), NAN) : a);
                s += creal(a) * creal(a);
            } else if (part == TessLowerPart ? i > j : i < j) {
                s += 2 * cabs(a) * cabs(a);
            } else {
                tu_set(t, in.A, i, j, c->lda, NAN);
                tu_set(t, in.Aref, i, j, c->lda, 0.0);
            }
        }
    in.normA = sqrt(s);
    in.x1 = tu_vec_random(t, c->m, c->inc.incx, 0.0);
    in.x2 = tu_vec_random(t, c->n, c->inc.incx, 0.0);
    in.y1 = tu_vec_random(t, c->m, c->inc.incy, c->beta == 0.0 ? NAN : 0.0);
    in.y2 = tu_vec_random(t, c->n, c->inc.incy, c->beta == 0.0 ? NAN : 0.0);
    return in;
}

static void free_inputs(inputs_t *in)
{
    free(in->A);
    free(in->Aref);
    free(in->x1);
    free(in->x2);
    free(in->y1);
    free(in->y2);
}

static bool has_y1(g2mode_t mode)
{
    return mode != M_T && mode != M_C;
}

static bool has_y2(g2mode_t mode)
{
    return mode == M_T || mode == M_C || mode == M_NT || mode == M_NC;
}

static bool herm_of(const tu_type_t *t, g2mode_t mode)
{
    return t->is_complex && (mode == M_C || mode == M_NC || mode == M_LOWER || mode == M_UPPER);
}

/* Runs the case on the GPU; *y1, *y2 get the results (NULL: not asked). */
static void run_gpu(const case_t *c, const inputs_t *in, void **y1, void **y2)
{
    const tu_type_t *t = c->t;
    const int64_t sx1 = tu_vec_span(c->m, c->inc.incx), sx2 = tu_vec_span(c->n, c->inc.incx);
    const int64_t sy1 = tu_vec_span(c->m, c->inc.incy), sy2 = tu_vec_span(c->n, c->inc.incy);
    const size_t scratch_bytes =
        c->scratch_bytes ? c->scratch_bytes : cuda_scratch_bytes(c->m > c->n ? c->m : c->n);
    void *dA = tu_to_device(t, in->A, c->lda, c->n);
    void *dx1 = tu_to_device(t, in->x1, sx1, 1), *dx2 = tu_to_device(t, in->x2, sx2, 1);
    void *dy1 = tu_to_device(t, in->y1, sy1, 1), *dy2 = tu_to_device(t, in->y2, sy2, 1);
    void *scratch = NULL;
    assert_int_equal(cudaMalloc(&scratch, scratch_bytes), cudaSuccess);
    /* the partials start as garbage, as a context's scratch after other kernels */
    assert_int_equal(cudaMemset(scratch, 0xff, scratch_bytes), cudaSuccess);
    unsigned char a_t[16], b_t[16];
    tu_scalar(t, c->alpha, a_t);
    tu_scalar(t, c->beta, b_t);
    const bool w1 = has_y1(c->mode), w2 = has_y2(c->mode);
    assert_int_equal(kern_cuda_gemv2(tu_kern(t), 0, scratch, scratch_bytes, part_of(c->mode),
                                     herm_of(t, c->mode), c->m, c->n, a_t, dA, c->lda, dx1,
                                     c->inc.incx, dx2, c->inc.incx, b_t, w1 ? dy1 : NULL,
                                     c->inc.incy, b_t, w2 ? dy2 : NULL, c->inc.incy),
                     0);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    *y1 = w1 ? tu_to_host(t, dy1, sy1, 1) : NULL;
    *y2 = w2 ? tu_to_host(t, dy2, sy2, 1) : NULL;
    tu_free_device(dA);
    tu_free_device(dx1);
    tu_free_device(dx2);
    tu_free_device(dy1);
    tu_free_device(dy2);
    tu_free_device(scratch);
}

static double ratio_of(const case_t *c, const void *y, const void *yref, double normy0,
                       const void *x, int64_t len, int64_t lenx, double normA)
{
    const tu_type_t *t = c->t;
    const double denom =
        (cabs(c->alpha) * normA * tu_vec_norm(t, x, lenx, c->inc.incx) + cabs(c->beta) * normy0) *
        (double)(c->m > c->n ? c->m : c->n) * t->eps;
    return tu_vec_diff(t, y, yref, len, c->inc.incy) / denom;
}

/* The case against the host table; returns the larger residual ratio. */
static double check_case(case_t c)
{
    const tu_type_t *t = c.t;
    if (!t->is_complex) {
        c.alpha = creal(c.alpha);
        c.beta = creal(c.beta);
    }
    inputs_t in = make_inputs(&c);
    void *y1, *y2;
    run_gpu(&c, &in, &y1, &y2);
    /* y's NaN entries (beta = 0) are not part of the problem: zeros for the
     * reference and the norms */
    void *r1 = tu_vec_nan_to_zero(t, in.y1, c.m, c.inc.incy);
    void *r2 = tu_vec_nan_to_zero(t, in.y2, c.n, c.inc.incy);
    const double normy1 = tu_vec_norm(t, r1, c.m, c.inc.incy);
    const double normy2 = tu_vec_norm(t, r2, c.n, c.inc.incy);
    unsigned char a_t[16], b_t[16];
    tu_scalar(t, c.alpha, a_t);
    tu_scalar(t, c.beta, b_t);
    assert_int_equal(kern_host_table[tu_kern(t)].gemv2(
                         NULL, part_of(c.mode), herm_of(t, c.mode), c.m, c.n, a_t, in.Aref, c.lda,
                         in.x1, c.inc.incx, in.x2, c.inc.incx, b_t, y1 ? r1 : NULL, c.inc.incy, b_t,
                         y2 ? r2 : NULL, c.inc.incy),
                     0);
    double ratio = 0;
    if (y1) {
        assert_true(tu_vec_gaps_intact(t, y1, c.m, c.inc.incy));
        ratio = ratio_of(&c, y1, r1, normy1, in.x2, c.m, c.n, in.normA);
    }
    if (y2) {
        assert_true(tu_vec_gaps_intact(t, y2, c.n, c.inc.incy));
        const double r = ratio_of(&c, y2, r2, normy2, in.x1, c.n, c.m, in.normA);
        ratio = r > ratio ? r : ratio;
    }
    if (!(ratio < BOUND))
        print_error("%sgemv2 %s m=%lld n=%lld lda=%lld inc=(%lld,%lld) beta=%g scratch=%zu: "
                    "ratio %g\n",
                    t->name, mode_name[c.mode], (long long)c.m, (long long)c.n, (long long)c.lda,
                    (long long)c.inc.incx, (long long)c.inc.incy, cabs(c.beta), c.scratch_bytes,
                    ratio);
    free(y1);
    free(y2);
    free(r1);
    free(r2);
    free_inputs(&in);
    return ratio;
}

static bool mode_applies(const tu_type_t *t, g2mode_t mode, int64_t m, int64_t n)
{
    if ((mode == M_LOWER || mode == M_UPPER) && m != n)
        return false;
    return t->is_complex || (mode != M_C && mode != M_NC);
}

/* Every mode; sizes around the 64-row sub-tiles, tall, wide and a full tile
 * of 4096; even (paired reads) and odd (single reads) ld; unit, negative and
 * strided increments; beta 0 over NaN, 1, and any other. */
static void gemv2_all_modes_match_the_host_kernel(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    static const int64_t mn[][2] = { { 1, 1 },      { 63, 65 },    { 64, 64 },     { 65, 63 },
                                     { 200, 130 },  { 130, 200 },  { 1000, 1000 }, { 4096, 100 },
                                     { 100, 4096 }, { 4096, 4096 } };
    static const double _Complex betas[] = { 0.25 + 0.5 * I, 0.0, 1.0 };
    tu_seed(11);
    for (size_t s = 0; s < sizeof mn / sizeof mn[0]; s++)
        for (int mode = 0; mode < M_COUNT; mode++)
            for (int odd = 0; odd < 2; odd++)
                for (size_t ii = 0; ii < sizeof incs / sizeof incs[0]; ii++) {
                    const int64_t m = mn[s][0], n = mn[s][1];
                    if (!mode_applies(t, (g2mode_t)mode, m, n) || (m == 4096 && n == 4096 && odd))
                        continue;
                    const int64_t lda = odd ? m + 1 + (m % 2 == 0) : m + (m % 2);
                    case_t c = { t,
                                 (g2mode_t)mode,
                                 m,
                                 n,
                                 lda,
                                 incs[ii],
                                 0.5 - 1.5 * I,
                                 betas[(ii + (size_t)odd) % 3],
                                 0 };
                    assert_true(check_case(c) < BOUND);
                }
}

/* Scratch for fewer partials than one a panel: panels go in groups, each
 * block adding its group's panels into one partial. */
static void gemv2_with_little_scratch_groups_panels(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    tu_seed(12);
    for (int mode = 0; mode < M_COUNT; mode++)
        for (int s = 0; s < 2; s++) {
            const int64_t n = s ? 1000 : 4096;
            if (!mode_applies(t, (g2mode_t)mode, n, n))
                continue;
            case_t c = { t, (g2mode_t)mode, n, n, n, incs[s], 0.75 + 0.25 * I, -0.5, 0 };
            c.scratch_bytes = (size_t)(3 * n) * t->es;
            assert_true(check_case(c) < BOUND);
        }
}

/* The same case twice, and with another scratch of the same geometry: the
 * same bits. */
static void gemv2_results_repeat_bit_for_bit(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    tu_seed(13);
    for (int mode = 0; mode < M_COUNT; mode++) {
        const int64_t n = 4096 - 3;
        if (!mode_applies(t, (g2mode_t)mode, n, n))
            continue;
        case_t c = { t, (g2mode_t)mode, n, n, n + 1, incs[1], 0.3 + 0.6 * I, 0.9, 0 };
        inputs_t in = make_inputs(&c);
        void *a1, *a2, *b1, *b2, *c1, *c2;
        run_gpu(&c, &in, &a1, &a2);
        run_gpu(&c, &in, &b1, &b2);
        c.scratch_bytes = 2 * cuda_scratch_bytes(n);
        run_gpu(&c, &in, &c1, &c2);
        const size_t b1bytes = (size_t)tu_vec_span(n, c.inc.incy) * t->es;
        if (a1) {
            assert_memory_equal(a1, b1, b1bytes);
            assert_memory_equal(a1, c1, b1bytes);
        }
        if (a2) {
            assert_memory_equal(a2, b2, b1bytes);
            assert_memory_equal(a2, c2, b1bytes);
        }
        free(a1), free(a2), free(b1), free(b2), free(c1), free(c2);
        free_inputs(&in);
    }
}

/* alpha = 0: y = beta y, A and x all NaN (neither may be read). */
static void gemv2_alpha_zero_only_scales(void **state)
{
    TU_REQUIRE_GPU();
    const tu_type_t *t = *state;
    tu_seed(14);
    case_t c = { t, M_NT, 100, 70, 100, incs[2], 0.0, 0.5, 0 };
    inputs_t in = make_inputs(&c);
    for (int64_t j = 0; j < c.n; j++)
        for (int64_t i = 0; i < c.m; i++)
            tu_set(t, in.A, i, j, c.lda, NAN);
    void *y1, *y2;
    run_gpu(&c, &in, &y1, &y2);
    for (int64_t i = 0; i < c.m; i++) {
        const int64_t k = i * llabs(c.inc.incy), s = tu_vec_span(c.m, c.inc.incy);
        assert_true(tu_get(t, y1, k, 0, s) == 0.5 * tu_get(t, in.y1, k, 0, s));
    }
    for (int64_t j = 0; j < c.n; j++) {
        const int64_t k = j * llabs(c.inc.incy), s = tu_vec_span(c.n, c.inc.incy);
        assert_true(tu_get(t, y2, k, 0, s) == 0.5 * tu_get(t, in.y2, k, 0, s));
    }
    free(y1);
    free(y2);
    free_inputs(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_PER_TYPE(gemv2_all_modes_match_the_host_kernel, "gemv2_all_modes_match_the_host_kernel"),
        TU_PER_TYPE(gemv2_with_little_scratch_groups_panels,
                    "gemv2_with_little_scratch_groups_panels"),
        TU_PER_TYPE(gemv2_results_repeat_bit_for_bit, "gemv2_results_repeat_bit_for_bit"),
        TU_PER_TYPE(gemv2_alpha_zero_only_scales, "gemv2_alpha_zero_only_scales"),
    };
    if (tu_cuda_start())
        return 1;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
