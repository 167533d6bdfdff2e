/* What the LAPACK drivers share: cuSOLVER's check, the LU and QR drivers' arguments, and
 * their ceiling. */
#ifndef BENCH_SOLVER_H
#define BENCH_SOLVER_H

#include <cusolverDn.h>
#include <stdbool.h>
#include "bench_cuda_check.h"

/* A failed cuSOLVER call ends the run, as CU and CB do. */
#define CS(call)                                                                                   \
    do {                                                                                           \
        cusolverStatus_t e_ = (call);                                                              \
        if (e_ != CUSOLVER_STATUS_SUCCESS) {                                                       \
            char m_[32];                                                                           \
            snprintf(m_, sizeof m_, "cuSOLVER status %d", (int)e_);                                \
            BENCH_FAIL(#call, m_);                                                                 \
        }                                                                                          \
    } while (0)

/* [--nrhs K] [--reps R (1-15)] CSV-DIR NGPUS SIZE...: the options into *nrhs and *reps, the
 * GPU counts (a comma list, each at most the *have GPUs present) into gpus[0..*ngpus) (at
 * most 16); returns CSV-DIR's index (the sizes follow NGPUS), or 0 after a usage message naming
 * sizes. */
int bench_solver_args(int argc, char **argv, const char *sizes, int *nrhs, int *reps, int *gpus,
                      int *ngpus, int *have);

/* TFLOP/s of an m x m x m DGEMM on device 0, the median of reps timed runs after an untimed
 * one, with A0's leading m x m block (leading dimension ld) as both operands: a GPU runs
 * DGEMM faster on zeros than on such data (it draws less power), which would raise the
 * ceiling above what any routine meets. */
double bench_device_dgemm(long m, const double *A0, long ld, int reps);

/* The n x cols M (ld n) to (in) or from the column blocks of T that cusolverMg deals to g
 * devices in turn on a 1 x g grid: block jb in dev[jb mod g] at column (jb / g) T (ld n). */
void bench_mg_copy(int g, long T, double *const *dev, double *M, long n, long cols, bool in);

#endif
