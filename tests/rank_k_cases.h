/* The cases the SYRK/HERK and SYR2K/HER2K suites share: C's uplo triangle
 * updated by one product of A (SYRK) or two of A and B (SYR2K, two set),
 * with lds larger than the rows and C's other triangle NaN, against OpenBLAS.
 * Bound, every product counted: ||C - Cref||_F over the triangle /
 * (max(1,k) eps (|alpha| (products) ||A||_F ||B||_F + |beta| ||C0||_F)) <
 * TU_GEMM_BOUND, B = A for SYRK and ||C0|| the norm of the symmetric
 * (Hermitian) matrix C stands for. */
#ifndef RANK_K_CASES_H
#define RANK_K_CASES_H

#include "testutil.h"

extern const tess_uplo_t rk_uplos[2];

/* One case: checks that the other triangle and the padding rows keep their
 * bits and that HERK and HER2K leave a real diagonal; returns the residual. */
double rk_run_case(bool two, const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans,
                   int64_t n, int64_t k, double _Complex alpha, double _Complex beta);

/* Every uplo, every trans each routine takes (N, T and C for real types;
 * N, T for complex SYRK and SYR2K; N, C for HERK and HER2K), the four
 * precisions, sizes on and off a tile grid of TU_NB; the Hermitian routines
 * take the real parts of their real scalars. */
void rk_check_all_cases(bool two, double _Complex alpha, double _Complex beta);

/* Every uplo and trans on tiles of nb rows beside an edge tile of 76. */
void rk_check_level_tiles(bool two, int64_t nb);

#endif
