/* The legacy bridge: what the legacy BLAS library (libtessera_blas) takes
 * from libtessera.  It sits above the routines: it checks a legacy call with
 * their checks and dispatches it to blas3/ and lapack/.
 *
 * libtessera_blas links libtessera and reaches it only through these
 * functions (besides the public API), so that a process has one runtime,
 * whose state stays its own, serving the application's calls and the legacy
 * library's alike.  They are exported under the tess_internal_ prefix and
 * are not part of the public API: the two libraries are built together.  The
 * legacy library compiles on this header's include path alone (the public
 * API, this folder, and kernels/ for the types it speaks in: kern.h, and
 * dtype.h, whose tables it compiles in). */
#ifndef LEGACY_IFACE_H
#define LEGACY_IFACE_H

#include <stdbool.h>
#include <stdint.h>
#include "build_config.h"
#include "dtype.h"
#include "kern.h"

#define TESS_INTERNAL __attribute__((visibility("default")))

/* The routines served through the runtime: BLAS-3, then LAPACK's Cholesky
 * family, LU and QR.  GEMMT stands for both of its names (?gemmt, ?gemmtr),
 * ORMQR for UNMQR too. */
typedef enum {
    LG_GEMM,
    LG_SYMM,
    LG_HEMM,
    LG_SYRK,
    LG_HERK,
    LG_SYR2K,
    LG_HER2K,
    LG_GEMMT,
    LG_TRSM,
    LG_TRMM,
    LG_POTRF,
    LG_POTRS,
    LG_POSV,
    LG_TRTRI,
    LG_LAUUM,
    LG_POTRI,
    LG_GETRF,
    LG_GETRS,
    LG_GESV,
    LG_LASWP,
    LG_GEQRF,
    LG_ORMQR,
    LG_GELS,
    LG_NROUT
} lg_rout_t;

/* One call, column-major.  Scalars are passed by address in the element
 * type, except the real alpha and beta of HERK and the real beta of HER2K.
 * TRSM and TRMM keep their transa in ta and their in-place B in C, ldc.
 * The Cholesky family keeps its A in A, lda and its B in B, ldb, each written
 * in place where the routine writes it (A but in POTRS, B in POTRS and
 * POSV), its order in m and n, nrhs in k, and its INFO in *info.  LU and QR
 * keep their sizes in m, n (an order in both), nrhs (ORMQR's k) in k, B (GELS,
 * GETRS, GESV) or tau (GEQRF, ORMQR: one row, ldb 1) in B, ORMQR's C in C,
 * trans in ta, and their pivots in ipiv, 64 bits wide unless ipiv32 (the
 * runtime takes them 64 bits wide); LASWP's rows are lda, as LAPACK's A has
 * them, and its k1, k2 and incx are its own.  work and lwork are LAPACK's
 * workspace, for the host LAPACK (NULL: it allocates its own). */
typedef struct {
    lg_rout_t r;
    kern_type_t t;
    tess_side_t side;
    tess_uplo_t uplo;
    tess_trans_t ta, tb;
    tess_diag_t diag;
    int64_t m, n, k;
    const void *alpha, *beta;
    const void *A;
    int64_t lda;
    const void *B;
    int64_t ldb;
    void *C;
    int64_t ldc;
    int64_t *info;
    void *ipiv;
    bool ipiv32;
    int64_t k1, k2, incx;
    void *work;
    int64_t lwork;
} lg_call_t;

/* 0, or -i for the first invalid argument i in reference BLAS's or
 * LAPACK's numbering (tile/check.h, lapack/lapack_check.h). */
TESS_INTERNAL int tess_internal_check(const lg_call_t *c);

/* Submits a valid call as the *_async routines do (0 or a TESS_E* code).
 * transient: its operands are given back to the caller when the call
 * returns, so that page-locking them on first use would be undone by the
 * call that paid for it; where copies are staged through pinned buffers
 * they are not page-locked.  The setting is this submission's only. */
TESS_INTERNAL int tess_internal_submit(const lg_call_t *c, bool transient);

/* A legacy call's own errors.  Between tess_internal_scope_begin and
 * tess_internal_scope_end, the tasks the calling thread submits (its call's,
 * and the write-backs it asks for) keep their errors in a scope of its own:
 * tess_internal_scope_sync waits for them and returns their first error,
 * while an application's failed task keeps its error for the application's
 * tess_sync, and does not hold the call's copies to the host back. */
TESS_INTERNAL void tess_internal_scope_begin(void);
TESS_INTERNAL int tess_internal_scope_sync(void);
TESS_INTERNAL void tess_internal_scope_end(void);

/* The runtime's write-back clock, and whether a copy to the host of the region (part, p,
 * m x n, ld, elements of es bytes) was written since it read tick: a failed call whose
 * outputs were not can be redone on the host. */
TESS_INTERNAL uint64_t tess_internal_writeback_tick(void);
TESS_INTERNAL bool tess_internal_written_since(tess_part_t part, const void *p, int64_t m,
                                               int64_t n, int64_t ld, size_t es, uint64_t tick);

/* Whether the calling thread is one of the runtime's workers (a host kernel
 * calling BLAS, which must not wait for the runtime). */
TESS_INTERNAL bool tess_internal_on_worker(void);

/* The GPUs this process can use (0 without CUDA); the first call in a
 * process initialises the CUDA driver, which takes a large part of the
 * runtime's start. */
TESS_INTERNAL int tess_internal_gpu_count(void);

/* How long a start of the runtime on the devices TESS_DEVICES names is
 * expected to take, in seconds: 0 for host devices that open at once. */
TESS_INTERNAL double tess_internal_start_expected_s(void);

/* The host BLAS library (kernels/host/host_blas.h: opened once with
 * RTLD_LOCAL, never a Tessera library), or NULL. */
TESS_INTERNAL void *tess_internal_host_blas(void);

/* The host LAPACK (kernels/host/host_lapack.h: the host BLAS when it holds
 * LAPACK, else liblapack.so.3, never a Tessera library), or NULL. */
TESS_INTERNAL void *tess_internal_host_lapack(void);

/* Whether the environment variable name is set to a true value, as the
 * runtime reads its own flags (TESS_VERBOSE). */
TESS_INTERNAL bool tess_internal_env_flag(const char *name);

/* The runtime's monotonic clock, in ns. */
TESS_INTERNAL int64_t tess_internal_now_ns(void);

#ifdef TESS_CUDA_BACKEND
#include <cublas_v2.h>
#include <cusolverDn.h>
/* The CUDA kernels of element type t, and the calling thread's cuBLAS and
 * cuSOLVER handles on the current device, the latter bound to stream s (0 or
 * TESS_EDEVICE). */
TESS_INTERNAL const kern_table_t *tess_internal_cuda_kernels(kern_type_t t);
TESS_INTERNAL int tess_internal_cuda_handle(cublasHandle_t *h);
TESS_INTERNAL int tess_internal_cuda_solver(cudaStream_t s, cusolverDnHandle_t *h);
#endif

#endif
