/* The symmetric routines composed with GEMM and with each other on host:2,
 * nb = 16, with no tess_sync between calls: views of one parent that overlap
 * off the tile grid, writes to one triangle of tiles whose other triangle
 * another call writes, a call overwriting what an earlier one reads; then
 * device memory of a few tiles, so that the same calls run out of core.
 * Bound: each call's error is bounded as in the single-call suites,
 * max(1,k) eps (|alpha| ||A||_F ||B||_F + |beta| ||C0||_F), plus, to first
 * order, the bounds of the earlier results it reads times the norms they are
 * multiplied by; every result's ||C - Cref||_F stays below 10 times its bound. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

#define NB TU_NB

static const tess_trans_t N = TessNoTrans, T = TessTrans;

/* One call's own error bound: max(1,k) eps (|alpha| nA nB + |beta| nC0). */
static double call_bound(const tu_type_t *t, int64_t k, double _Complex alpha, double nA, double nB,
                         double _Complex beta, double nC0)
{
    return (k > 1 ? (double)k : 1.0) * t->eps * (cabs(alpha) * nA * nB + cabs(beta) * nC0);
}

static void check_bound(const char *what, const tu_type_t *t, double diff, double bound)
{
    if (!(diff <= TU_GEMM_BOUND * bound))
        fail_msg("%s (%s): error %g, bound %g", what, t->name, diff, bound);
}

static void *at(const tu_type_t *t, void *base, int64_t i, int64_t j, int64_t ld)
{
    return (char *)base + (size_t)(i + j * ld) * t->es;
}

/* In a parent M: GEMM writes the panel P; SYRK reads its A, P one row down,
 * and writes the lower triangle of C; GEMMT writes the upper triangle of G, C
 * moved by (5, 2), which covers parts of both triangles of C and reads P and
 * A; a last GEMM reads R, C moved by (1, 1), into E. */
static void
gemm_writes_a_panel_that_syrk_reads_then_gemmt_updates_a_triangle_that_gemm_reads(void **state)
{
    (void)state;
    const int64_t ld = 6 * NB + 5, n = 2 * NB + 3, k = NB + 5, k1 = NB - 3;
    const int64_t ci = n + 8, cj = 3, gi = ci + 5, gj = cj + 2;
    const double _Complex a1 = 1.0, b1 = 0.5, a2 = 0.7 - 0.2 * I, b2 = -1.0;
    const double _Complex a3 = -0.5 + 0.25 * I, b3 = 1.0;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        void *M = tu_matrix(t, ld, ld, 1), *X = tu_matrix(t, n + 1, k1, 2);
        void *Y = tu_matrix(t, k1, k, 3), *Z = tu_matrix(t, n, n, 4), *E = tu_matrix(t, n, n, 5);
        void *Mr = tu_copy(t, M, ld, ld), *Er = tu_copy(t, E, n, n);

        assert_int_equal(
            tu_gemm_async(t, N, N, n + 1, k, k1, a1, X, n + 1, Y, k1, b1, at(t, M, 1, 1, ld), ld),
            0);
        assert_int_equal(tu_syrk_async(t, false, TessLower, N, n, k, a2, at(t, M, 2, 1, ld), ld, b2,
                                       at(t, M, ci, cj, ld), ld),
                         0);
        assert_int_equal(tu_gemmt_async(t, TessUpper, N, T, n, k, a3, at(t, M, 1, 1, ld), ld,
                                        at(t, M, 2, 1, ld), ld, b3, at(t, M, gi, gj, ld), ld),
                         0);
        assert_int_equal(
            tu_gemm_async(t, T, N, n, n, n, 1.0, at(t, M, ci + 1, cj + 1, ld), ld, Z, n, 0.0, E, n),
            0);
        assert_int_equal(tess_memory_coherent_async(TessAll, ld, ld, M, ld, t->es), 0);
        assert_int_equal(tess_memory_coherent_async(TessAll, n, n, E, n, t->es), 0);
        assert_int_equal(tess_sync(), 0);

        void *P = at(t, Mr, 1, 1, ld), *A = at(t, Mr, 2, 1, ld);
        void *C = at(t, Mr, ci, cj, ld), *G = at(t, Mr, gi, gj, ld);
        double e1 = call_bound(t, k1, a1, tu_norm(t, X, n + 1, k1, n + 1), tu_norm(t, Y, k1, k, k1),
                               b1, tu_norm(t, P, n + 1, k, ld));
        tu_gemm_ref(t, N, N, n + 1, k, k1, a1, X, n + 1, Y, k1, b1, P, ld);
        double nA = tu_norm(t, A, n, k, ld), nP = tu_norm(t, P, n, k, ld);
        double e2 = call_bound(t, k, a2, nA, nA, b2, tu_sym_norm(t, TessLower, n, C, ld)) +
                    2 * cabs(a2) * nA * e1;
        tu_syrk_ref(t, false, TessLower, N, n, k, a2, A, ld, b2, C, ld);
        double e3 = call_bound(t, k, a3, nP, nA, b3, tu_tri_norm(t, TessUpper, n, G, ld)) +
                    cabs(a3) * (nA + nP) * e1 + cabs(b3) * e2;
        tu_gemmt_ref(t, TessUpper, N, T, n, k, a3, P, ld, A, ld, b3, G, ld);
        void *R = at(t, Mr, ci + 1, cj + 1, ld);
        double nZ = tu_norm(t, Z, n, n, n);
        double eE = call_bound(t, n, 1.0, tu_norm(t, R, n, n, ld), nZ, 0, 0) + nZ * (e2 + e3);
        tu_gemm_ref(t, T, N, n, n, n, 1.0, R, ld, Z, n, 0.0, Er, n);

        check_bound("parent", t, tu_diff(t, M, Mr, ld, ld, ld), e1 + e2 + e3);
        check_bound("last gemm", t, tu_diff(t, E, Er, n, n, n), eE);
        /* what no call writes keeps its bits: outside P, C's lower and G's upper triangle */
        for (int64_t j = 0; j < ld; j++)
            for (int64_t i = 0; i < ld; i++) {
                bool in_p = i >= 1 && i < n + 2 && j >= 1 && j < k + 1;
                bool in_c = i >= ci && i < ci + n && j >= cj && j < cj + n && i - ci >= j - cj;
                bool in_g = i >= gi && i < gi + n && j >= gj && j < gj + n && i - gi <= j - gj;
                if (!in_p && !in_c && !in_g)
                    assert_memory_equal(at(t, M, i, j, ld), at(t, Mr, i, j, ld), t->es);
            }
        tu_release(t, M, ld, ld);
        tu_release(t, X, n + 1, k1);
        tu_release(t, Y, k1, k);
        tu_release(t, Z, n, n);
        tu_release(t, E, n, n);
        free(Mr);
        free(Er);
    }
}

/* SYMM reads A; GEMM then overwrites A whole (beta 0) and SYRK reads the new
 * A.  SYMM must have read the old A, and SYRK the new one. */
static void a_gemm_overwriting_what_symm_reads_waits_and_syrk_reads_its_result(void **state)
{
    (void)state;
    const int64_t n = 2 * NB + 3;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        void *A = tu_matrix(t, n, n, 10), *B = tu_matrix(t, n, n, 11), *C = tu_matrix(t, n, n, 12);
        void *X = tu_matrix(t, n, n, 13), *Y = tu_matrix(t, n, n, 14), *D = tu_matrix(t, n, n, 15);
        tu_fill_other_triangle(t, TessLower, n, A, n, NAN);
        void *Ar = tu_copy(t, A, n, n), *Cr = tu_copy(t, C, n, n), *Dr = tu_copy(t, D, n, n);

        assert_int_equal(
            tu_symm_async(t, t->is_complex, TessLeft, TessLower, n, n, 1.0, A, n, B, n, 0.0, C, n),
            0);
        assert_int_equal(tu_gemm_async(t, N, N, n, n, n, 1.0, X, n, Y, n, 0.0, A, n), 0);
        assert_int_equal(tu_syrk_async(t, t->is_complex, TessUpper, N, n, n, 0.5, A, n, 0.0, D, n),
                         0);
        assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, n, t->es), 0);
        assert_int_equal(tess_memory_coherent_async(TessUpperPart, n, n, D, n, t->es), 0);
        assert_int_equal(tess_sync(), 0);

        double nB = tu_norm(t, B, n, n, n);
        double eC = call_bound(t, n, 1.0, tu_sym_norm(t, TessLower, n, Ar, n), nB, 0, 0);
        tu_symm_ref(t, t->is_complex, TessLeft, TessLower, n, n, 1.0, Ar, n, B, n, 0.0, Cr, n);
        double eA = call_bound(t, n, 1.0, tu_norm(t, X, n, n, n), tu_norm(t, Y, n, n, n), 0, 0);
        tu_gemm_ref(t, N, N, n, n, n, 1.0, X, n, Y, n, 0.0, Ar, n);
        double nA = tu_norm(t, Ar, n, n, n);
        double eD = call_bound(t, n, 0.5, nA, nA, 0, 0) + 2 * 0.5 * nA * eA;
        tu_syrk_ref(t, t->is_complex, TessUpper, N, n, n, 0.5, Ar, n, 0.0, Dr, n);

        check_bound("symm", t, tu_diff(t, C, Cr, n, n, n), eC);
        check_bound("syrk", t, tu_tri_diff(t, TessUpper, n, D, Dr, n), eD);
        tu_release(t, A, n, n);
        tu_release(t, B, n, n);
        tu_release(t, C, n, n);
        tu_release(t, X, n, n);
        tu_release(t, Y, n, n);
        tu_release(t, D, n, n);
        free(Ar);
        free(Cr);
        free(Dr);
    }
}

/* HERK, HER2K and GEMMT (SYRK and SYR2K for real types) update the lower
 * triangle of one C in turn, then HEMM (SYMM) reads that triangle as its A;
 * C's upper triangle is NaN throughout and only its lower part is made
 * coherent. */
static void updates_of_one_triangle_are_ordered_and_hemm_reads_the_result(void **state)
{
    (void)state;
    const int64_t n = 3 * NB + 1, k = NB + 3;
    const double _Complex a2 = 0.6 - 0.3 * I;
    for (int ti = 0; ti < 4; ti++) {
        const tu_type_t *t = &tu_types[ti];
        bool herm = t->is_complex;
        tess_trans_t h = herm ? TessConjTrans : TessTrans;
        void *A = tu_matrix(t, n, k, 20), *B = tu_matrix(t, n, k, 21), *C = tu_matrix(t, n, n, 22);
        void *F = tu_matrix(t, n, n, 23), *E = tu_matrix(t, n, n, 24);
        tu_fill_other_triangle(t, TessLower, n, C, n, NAN);
        void *C0 = tu_copy(t, C, n, n), *Cr = tu_copy(t, C, n, n), *Er = tu_copy(t, E, n, n);

        assert_int_equal(tu_syrk_async(t, herm, TessLower, N, n, k, 0.5, A, n, 2.0, C, n), 0);
        assert_int_equal(tu_syr2k_async(t, herm, TessLower, N, n, k, a2, A, n, B, n, -1.0, C, n),
                         0);
        assert_int_equal(tu_gemmt_async(t, TessLower, N, h, n, k, 0.25, A, n, B, n, 1.0, C, n), 0);
        assert_int_equal(
            tu_symm_async(t, herm, TessLeft, TessLower, n, n, 1.0, C, n, F, n, 0.0, E, n), 0);
        assert_int_equal(tess_memory_coherent_async(TessLowerPart, n, n, C, n, t->es), 0);
        assert_int_equal(tess_memory_coherent_async(TessAll, n, n, E, n, t->es), 0);
        assert_int_equal(tess_sync(), 0);

        double nA = tu_norm(t, A, n, k, n), nB = tu_norm(t, B, n, k, n);
        double nF = tu_norm(t, F, n, n, n);
        double e1 = call_bound(t, k, 0.5, nA, nA, 2.0, tu_sym_norm(t, TessLower, n, Cr, n));
        tu_syrk_ref(t, herm, TessLower, N, n, k, 0.5, A, n, 2.0, Cr, n);
        double e2 = call_bound(t, k, 2 * a2, nA, nB, 1.0, tu_sym_norm(t, TessLower, n, Cr, n)) + e1;
        tu_syr2k_ref(t, herm, TessLower, N, n, k, a2, A, n, B, n, -1.0, Cr, n);
        double e3 = call_bound(t, k, 0.25, nA, nB, 1.0, tu_tri_norm(t, TessLower, n, Cr, n)) + e2;
        tu_gemmt_ref(t, TessLower, N, h, n, k, 0.25, A, n, B, n, 1.0, Cr, n);
        /* E's A is C's triangle mirrored: its error counts twice off the diagonal */
        double eE = call_bound(t, n, 1.0, tu_sym_norm(t, TessLower, n, Cr, n), nF, 0, 0) +
                    sqrt(2.0) * e3 * nF;
        tu_symm_ref(t, herm, TessLeft, TessLower, n, n, 1.0, Cr, n, F, n, 0.0, Er, n);

        check_bound("triangle", t, tu_tri_diff(t, TessLower, n, C, Cr, n), e3);
        check_bound("hemm", t, tu_diff(t, E, Er, n, n, n), eE);
        assert_true(tu_other_triangle_same(t, TessLower, n, C, C0, n));
        tu_release(t, A, n, k);
        tu_release(t, B, n, k);
        tu_release(t, C, n, n);
        tu_release(t, F, n, n);
        tu_release(t, E, n, n);
        free(C0);
        free(Cr);
        free(Er);
    }
}

static size_t tile_bytes(const tu_type_t *t)
{
    return (size_t)NB * NB * t->es;
}

/* The out-of-core tests' runtimes, given the element type in *state: device
 * memory of 8 tiles, or of 2, each finalised even when its test fails. */
static int eight_tiles_setup(void **state)
{
    return tu_init_host(2, NB, 8 * tile_bytes(*state));
}

static int two_tiles_setup(void **state)
{
    return tu_init_host(2, NB, 2 * tile_bytes(*state));
}

static int finalize_teardown(void **state)
{
    (void)state;
    return tess_finalize();
}

/* 8 tiles per device of the type in *state; the operands hold 5 x 36 + 18
 * tiles.  SYRK's result is read by SYMM, whose result SYR2K and GEMMT read. */
static void symmetric_routines_larger_than_device_memory_complete_out_of_core(void **state)
{
    const tu_type_t *t = *state;
    const int64_t n = 6 * NB, k = 3 * NB;
    void *A = tu_matrix(t, n, k, 30), *S = tu_matrix(t, n, n, 32);
    void *C = tu_matrix(t, n, n, 33), *E = tu_matrix(t, n, n, 34), *F = tu_matrix(t, n, n, 35);
    void *G = tu_matrix(t, n, n, 36);
    void *Cr = tu_copy(t, C, n, n), *Er = tu_copy(t, E, n, n), *Fr = tu_copy(t, F, n, n);
    void *Gr = tu_copy(t, G, n, n);

    assert_int_equal(tu_syrk_async(t, false, TessLower, N, n, k, 1.0, A, n, 1.0, C, n), 0);
    assert_int_equal(tu_symm_async(t, false, TessLeft, TessLower, n, n, 1.0, C, n, S, n, 0.5, E, n),
                     0);
    assert_int_equal(tu_syr2k_async(t, false, TessUpper, T, n, n, 1.0, S, n, E, n, 1.0, F, n), 0);
    assert_int_equal(tu_gemmt_async(t, TessLower, T, N, n, n, -1.0, E, n, S, n, 1.0, G, n), 0);
    assert_int_equal(tess_memory_coherent_async(TessLowerPart, n, n, C, n, t->es), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, E, n, t->es), 0);
    assert_int_equal(tess_memory_coherent_async(TessUpperPart, n, n, F, n, t->es), 0);
    assert_int_equal(tess_memory_coherent_async(TessLowerPart, n, n, G, n, t->es), 0);
    assert_int_equal(tess_sync(), 0);

    double nA = tu_norm(t, A, n, k, n), nS = tu_norm(t, S, n, n, n);
    double eC = call_bound(t, k, 1.0, nA, nA, 1.0, tu_sym_norm(t, TessLower, n, Cr, n));
    tu_syrk_ref(t, false, TessLower, N, n, k, 1.0, A, n, 1.0, Cr, n);
    double eE = call_bound(t, n, 1.0, tu_sym_norm(t, TessLower, n, Cr, n), nS, 0.5,
                           tu_norm(t, Er, n, n, n)) +
                sqrt(2.0) * eC * nS;
    tu_symm_ref(t, false, TessLeft, TessLower, n, n, 1.0, Cr, n, S, n, 0.5, Er, n);
    double nE = tu_norm(t, Er, n, n, n);
    double eF =
        call_bound(t, n, 2.0, nS, nE, 1.0, tu_sym_norm(t, TessUpper, n, Fr, n)) + 2 * nS * eE;
    tu_syr2k_ref(t, false, TessUpper, T, n, n, 1.0, S, n, Er, n, 1.0, Fr, n);
    double eG = call_bound(t, n, 1.0, nE, nS, 1.0, tu_tri_norm(t, TessLower, n, Gr, n)) + nS * eE;
    tu_gemmt_ref(t, TessLower, T, N, n, n, -1.0, Er, n, S, n, 1.0, Gr, n);

    check_bound("syrk", t, tu_tri_diff(t, TessLower, n, C, Cr, n), eC);
    check_bound("symm", t, tu_diff(t, E, Er, n, n, n), eE);
    check_bound("syr2k", t, tu_tri_diff(t, TessUpper, n, F, Fr, n), eF);
    check_bound("gemmt", t, tu_tri_diff(t, TessLower, n, G, Gr, n), eG);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), 0);
    assert_true(s.evictions > 0);
    assert_true(s.writebacks > 0);
    tu_release(t, A, n, k);
    tu_release(t, S, n, n);
    tu_release(t, C, n, n);
    tu_release(t, E, n, n);
    tu_release(t, F, n, n);
    tu_release(t, G, n, n);
    free(Cr);
    free(Er);
    free(Fr);
    free(Gr);
}

static void a_symm_task_whose_tiles_exceed_device_memory_fails_at_sync_with_enomem(void **state)
{
    /* a SYMM tile task needs three tiles; each device holds two */
    const tu_type_t *t = *state;
    int64_t n = 2 * NB;
    void *A = tu_matrix(t, n, n, 40), *B = tu_matrix(t, n, n, 41), *C = tu_matrix(t, n, n, 42);
    void *C0 = tu_copy(t, C, n, n);
    assert_int_equal(
        tu_symm_async(t, false, TessRight, TessUpper, n, n, 1.0, A, n, B, n, 1.0, C, n), 0);
    assert_int_equal(tess_sync(), TESS_ENOMEM);
    assert_int_equal(tess_sync(), 0); /* reported once */
    /* the host copy of C was never overwritten by a failed task */
    assert_memory_equal(C, C0, (size_t)(n * n) * t->es);
    free(A);
    free(B);
    free(C);
    free(C0);
}

#define WITH_MEMORY(test, setup, type)                                                             \
    cmocka_unit_test_prestate_setup_teardown(test, setup, finalize_teardown,                       \
                                             (void *)&tu_types[type])

int main(void)
{
    const struct CMUnitTest compose[] = {
        cmocka_unit_test(
            gemm_writes_a_panel_that_syrk_reads_then_gemmt_updates_a_triangle_that_gemm_reads),
        cmocka_unit_test(a_gemm_overwriting_what_symm_reads_waits_and_syrk_reads_its_result),
        cmocka_unit_test(updates_of_one_triangle_are_ordered_and_hemm_reads_the_result),
    };
    /* each on a runtime of its own, with little device memory: d, then z */
    const struct CMUnitTest out_of_core[] = {
        WITH_MEMORY(symmetric_routines_larger_than_device_memory_complete_out_of_core,
                    eight_tiles_setup, 1),
        WITH_MEMORY(symmetric_routines_larger_than_device_memory_complete_out_of_core,
                    eight_tiles_setup, 3),
        WITH_MEMORY(a_symm_task_whose_tiles_exceed_device_memory_fails_at_sync_with_enomem,
                    two_tiles_setup, 1),
    };
    int failed = cmocka_run_group_tests(compose, tu_group_setup, tu_group_teardown);
    return failed + cmocka_run_group_tests(out_of_core, NULL, NULL);
}
