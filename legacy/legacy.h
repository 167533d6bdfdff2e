/* The legacy BLAS library (libtessera_blas): Fortran 77 and CBLAS entry
 * points over the runtime, the rest of BLAS forwarded to the host BLAS, and
 * LAPACK's Fortran names of the Cholesky family, LU and QR.
 *
 * routines.c describes each routine served once (lg_routines); the other
 * files read its row and dispatch on its shape.  f77.c and cblas.c turn each
 * call into an lg_call_t with build.h's builders (column-major, integers
 * widened, character and enum arguments as tess_* enums), check it
 * (tess_internal_check, the bridge's: this library sees libtessera only
 * through bridge/legacy_iface.h and the public API) and report errors their
 * own way.  call.c decides where a valid call runs: on a GPU that holds its
 * operands (gpu.c), through the runtime when policy.c says it is worth it
 * (through.c; life.c starts and stops the runtime, fork and exit), else on
 * the host BLAS (host.c finds its symbols and calls them; gemmt_host.c
 * stands in for a GEMMT it lacks); small.c is the small calls' short path.
 * forward.c and trampoline.S serve every other BLAS symbol from the host
 * BLAS. */
#ifndef LEGACY_H
#define LEGACY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "legacy_iface.h"

/* Between what dlsym returns and the function it is: POSIX makes the
 * conversion exact, ISO C has no cast for it, so the bits are copied. */
typedef void (*lg_fn_t)(void);
static inline lg_fn_t lg_fn(void *p)
{
    lg_fn_t f;
    memcpy(&f, &p, sizeof f);
    return f;
}
static inline void *lg_sym(lg_fn_t f)
{
    void *p;
    memcpy(&p, &f, sizeof p);
    return p;
}

#define LG_EXPORT __attribute__((visibility("default")))

/* The argument lists the routines share: each shape has one way to build a
 * call (build.h), to find its operands, count its flops, call the host
 * routine, turn a row-major call around, and run it on a GPU; TRSM and TRMM
 * share a list but not a kernel.  From POTRF on they are LAPACK's (Fortran
 * only): POTRF's (uplo, n, A, lda, info) is LAUUM's and POTRI's too, POTRS's
 * (uplo, n, nrhs, A, lda, B, ldb, info) POSV's; LU's and QR's have one
 * routine each. */
typedef enum {
    LG_SHAPE_GEMM,
    LG_SHAPE_SYMM,
    LG_SHAPE_SYRK,
    LG_SHAPE_SYR2K,
    LG_SHAPE_GEMMT,
    LG_SHAPE_TRSM,
    LG_SHAPE_TRMM,
    LG_SHAPE_POTRF,
    LG_SHAPE_POTRS,
    LG_SHAPE_TRTRI,
    LG_SHAPE_GETRF,
    LG_SHAPE_GETRS,
    LG_SHAPE_GESV,
    LG_SHAPE_LASWP,
    LG_SHAPE_GEQRF,
    LG_SHAPE_ORMQR,
    LG_SHAPE_GELS,
} lg_shape_t;

/* One routine, as every file of this library sees it (routines.c). */
typedef struct {
    const char *name; /* in messages, after the type letter */
    lg_shape_t shape;
    bool herm;       /* Hermitian: its transposes are N and C */
    bool triangle;   /* writes one triangle of its output (uplo) */
    bool real_alpha; /* alpha, beta in the real type (HERK; HER2K's beta) */
    bool real_beta;
    /* the runtime's thresholds: real flops, and flops per byte of operands */
    double flops, per_byte;
    /* a LAPACK routine's real flops: n3 n^3 + n2k n^2 nrhs */
    double n3, n2k;
    /* the host BLAS's (LAPACK's) names after the type letter, the first
     * found taken */
    const char *host[2];
    /* two names (?gemmt, ?gemmtr): the host's routine, which has one of
     * them, would report the caller's errors by the other */
    bool two_names;
    /* m, n, k, lda, ldb, ldc as reference BLAS (LAPACK) numbers its
     * arguments; 0 where the routine has no such argument */
    signed char pos[6];
} lg_routine_t;

extern const lg_routine_t lg_routines[LG_NROUT];

static inline const lg_routine_t *lg_routine(const lg_call_t *c)
{
    return &lg_routines[c->r];
}

/* Whether the routine is LAPACK's, has a k (nrhs is no k: it may be 0 when
 * POSV has work), and has an operand B. */
static inline bool lg_is_lapack(lg_shape_t s)
{
    return s >= LG_SHAPE_POTRF;
}

/* The Cholesky family's shapes, whose host routines the small calls' path
 * calls (host_call.h); LU's and QR's take pivots or a workspace. */
static inline bool lg_is_cholesky(lg_shape_t s)
{
    return s == LG_SHAPE_POTRF || s == LG_SHAPE_POTRS || s == LG_SHAPE_TRTRI;
}

static inline bool lg_has_k(lg_shape_t s)
{
    return s != LG_SHAPE_SYMM && s != LG_SHAPE_TRSM && s != LG_SHAPE_TRMM && !lg_is_lapack(s);
}

static inline bool lg_has_b(lg_shape_t s)
{
    return s != LG_SHAPE_SYRK && s != LG_SHAPE_TRSM && s != LG_SHAPE_TRMM && s != LG_SHAPE_POTRF &&
           s != LG_SHAPE_TRTRI && s != LG_SHAPE_GETRF && s != LG_SHAPE_LASWP;
}

/* LU's pivots (ipiv.c).  The entries of ipiv the call reads or writes, and
 * whether it reads them (GETRS, LASWP) or writes them (GETRF, GESV). */
int64_t lg_ipiv_count(const lg_call_t *c);
bool lg_ipiv_read(const lg_call_t *c);

/* d: the call c with its pivots wide (64 bits) or not, in a temporary
 * (*tmp, to be given to lg_ipiv_done) when they are not already; false when
 * it cannot be allocated.  lg_ipiv_done copies pivots the call wrote back to
 * c's and frees the temporary. */
bool lg_ipiv_as(const lg_call_t *c, bool wide, lg_call_t *d, void **tmp);
void lg_ipiv_done(const lg_call_t *c, void *tmp);

/* Runs a valid call to completion: on the GPU that holds its operands, through
 * the runtime when it is large enough, else on the host BLAS (LAPACK), a
 * LAPACK call's INFO written.  0, or when
 * none of them can take its sizes (a 64-bit call without a 64-bit host BLAS
 * or the runtime), the position of the argument to report to XERBLA. */
int lg_run(const lg_call_t *c);

/* A call from a 32-bit Fortran entry that the host BLAS serves whatever its
 * numbers: too small for the runtime (or invalid), in a process that has
 * not initialised CUDA, every character argument valid and no operand (nor
 * LAPACK's INFO) NULL (this library's own check takes the others: reference
 * BLAS lets an unread operand be NULL).  The host BLAS (LAPACK) checks the
 * numbers itself and reports to the same XERBLA, by the same name and
 * numbering, so such a call is not checked twice.  False, with nothing done,
 * for any other call. */
bool lg_run_small32(const lg_call_t *c);

/* The call on the host BLAS (LAPACK), a LAPACK call's INFO written; false when no host
 * routine takes its sizes. */
bool lg_host_run(const lg_call_t *c);

/* Whether lg_host_run has a host routine for c's sizes. */
bool lg_host_takes(const lg_call_t *c);

/* The host LAPACK's answer to a workspace query (lwork = -1) of a valid
 * GEQRF, ORMQR or GELS call: its optimal lwork; false when no host LAPACK
 * has the routine. */
bool lg_host_lwork(const lg_call_t *c, int64_t *lwork);

/* The precision's letter in a routine's name (S, D, C, Z). */
static inline char lg_type_letter(kern_type_t t)
{
    return "SDCZ"[t];
}

/* Whether the process has initialised the CUDA driver (gpu.c; false without
 * the CUDA backend): operands can be in GPU memory only then. */
bool lg_cuda_in_use(void);

/* The host BLAS (TESS_BLAS_LIB, the system's OpenBLAS) and its 64-bit-integer
 * build (TESS_BLAS64_LIB, libopenblas64_.so.0, libopenblas64.so.0): the
 * address of symbol name there, or NULL. */
void *lg_host_symbol(const char *name, bool ilp64);

/* The same of the host LAPACK (the host BLAS when it holds dpotrf_, else
 * liblapack.so.3; the 64-bit host BLAS for 64-bit names). */
void *lg_host_lapack_symbol(const char *name, bool ilp64);

/* What lg_gpu_run did with a call: none of its operands were in GPU memory
 * (or CUDA is not in use), it ran (on their GPU, or on the host through
 * copies), or it is refused untouched since neither a GPU nor the host BLAS
 * takes its sizes (integers past 32 bits with no 64-bit host BLAS). */
typedef enum { LG_GPU_NOT_MINE, LG_GPU_RAN, LG_GPU_TOO_WIDE } lg_gpu_t;

/* Operands in GPU memory (CUDA builds). */
lg_gpu_t lg_gpu_run(const lg_call_t *c);

/* The error handlers a refused call reports to, with the argument's
 * position: XERBLA of each integer width (f77.c; the application's own when
 * it defines one) and CBLAS's, of the 64-bit entry points when wide
 * (cblas.c). */
LG_EXPORT void xerbla_(const char *srname, const int32_t *info, size_t len);
LG_EXPORT void xerbla_64_(const char *srname, const int64_t *info, size_t len);
void lg_cblas_xerbla(bool wide, int info, const char *rout);

/* A message on stderr, once per process, when TESS_VERBOSE is set. */
void lg_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* TESS_VERBOSE, read at the library's first call. */
extern bool lg_verbose;

/* The library's state (TESS_VERBOSE, the thresholds, the fork handlers),
 * made once, on its first call. */
extern atomic_bool lg_initialised;
void lg_init_once(void);
static inline void lg_init(void)
{
    if (!atomic_load_explicit(&lg_initialised, memory_order_acquire))
        lg_init_once();
}

/* Runs the call through the runtime, starting it if need be (through.c).
 * may_defer: the host BLAS may take the call while the runtime starts.  True
 * when the call is done (or cannot be redone); false when the host BLAS is
 * to run it. */
bool lg_runtime_call(const lg_call_t *c, bool may_defer);

/* The operand regions of a call: at most three, its outputs last (BLAS-3
 * has one, POSV two); part says which triangle of an output the call
 * writes, op which operand of the call the region is ('A', 'B' or 'C').
 * LU's pivots are not among them: they are host memory, as LAPACK's are. */
typedef struct {
    const void *p;
    int64_t m, n, ld;
    bool out;
    tess_part_t part;
    char op;
} lg_region_t;
int lg_regions(const lg_call_t *c, lg_region_t r[3]);

#endif
