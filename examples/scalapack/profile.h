/* Time spent inside MPI and inside the BLAS-3 routines, for the demo's
 * report: profile.c defines the MPI calls that BLACS makes and the double
 * precision BLAS-3 routines, each timing itself around the real one (PMPI_*,
 * and the next library's through dlsym(RTLD_NEXT), whichever BLAS the process
 * found: the system's, or one preloaded like libtessera_blas or NVBLAS). */
#ifndef PROFILE_H
#define PROFILE_H

/* Seconds on the clock the counts use. */
double profile_now(void);

/* Counts from zero until profile_stop. */
void profile_start(void);
void profile_stop(double *blas3_s, double *mpi_s);

/* The file of the library whose dgemm_ this process calls. */
const char *profile_blas_library(void);

#endif
