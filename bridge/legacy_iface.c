/* The legacy library's way into libtessera (legacy_iface.h): checks and
 * dispatch to the routines, and what it asks of the runtime and kernels. */
#include "legacy_iface.h"
#include "scratch.h"
#include "blas3.h"
#include "host/host_blas.h"
#include "host/host_lapack.h"
#include "call.h"
#include "lapack.h"
#include "scope.h"
#ifdef TESS_CUDA_BACKEND
#include "cuda/kern_cuda.h"
#include "cuda_ctx.h"
#endif

int tess_internal_check(const lg_call_t *c)
{
    kern_type_t t = c->t;
    switch (c->r) {
    case LG_GEMM:
        return check_gemm(t, c->ta, c->tb, c->m, c->n, c->k, c->alpha, c->A, c->lda, c->B, c->ldb,
                          c->C, c->ldc);
    case LG_SYMM:
    case LG_HEMM:
        return check_symm(t, c->side, c->uplo, c->m, c->n, c->alpha, c->A, c->lda, c->B, c->ldb,
                          c->C, c->ldc);
    case LG_SYRK:
    case LG_HERK:
        return check_syrk(t, c->r == LG_HERK, c->uplo, c->ta, c->n, c->k, c->alpha, c->A, c->lda,
                          c->C, c->ldc);
    case LG_SYR2K:
    case LG_HER2K:
        return check_syr2k(t, c->r == LG_HER2K, c->uplo, c->ta, c->n, c->k, c->alpha, c->A, c->lda,
                           c->B, c->ldb, c->C, c->ldc);
    case LG_GEMMT:
        return check_gemmt(t, c->uplo, c->ta, c->tb, c->n, c->k, c->alpha, c->A, c->lda, c->B,
                           c->ldb, c->C, c->ldc);
    case LG_TRSM:
    case LG_TRMM:
        return check_trxm(t, c->side, c->uplo, c->ta, c->diag, c->m, c->n, c->alpha, c->A, c->lda,
                          c->C, c->ldc);
    /* LAUUM's INFO and POTRS's are where POTRF's and POSV's are */
    case LG_POTRF:
    case LG_LAUUM:
    case LG_POTRI: return check_potrf(c->uplo, c->n, c->A, c->lda, c->info);
    case LG_POTRS:
    case LG_POSV: return check_posv(c->uplo, c->n, c->k, c->A, c->lda, c->B, c->ldb, c->info);
    case LG_TRTRI: return check_trtri(c->uplo, c->diag, c->n, c->A, c->lda, c->info);
    /* the pivots' width is the legacy library's affair: only NULL is checked */
    case LG_GETRF: return check_getrf(c->m, c->n, c->A, c->lda, c->ipiv, c->info);
    case LG_GETRS: return check_getrs(c->ta, c->n, c->k, c->A, c->lda, c->ipiv, c->B, c->ldb);
    case LG_GESV: return check_gesv(c->n, c->k, c->A, c->lda, c->ipiv, c->B, c->ldb, c->info);
    case LG_LASWP: return check_laswp(c->n, c->A, c->lda, c->k1, c->k2, c->ipiv, c->incx);
    case LG_GEQRF: return check_geqrf(c->m, c->n, c->A, c->lda, c->B);
    case LG_ORMQR:
        return check_ormqr(kern_dtypes[t].is_complex, c->side, c->ta, c->m, c->n, c->k, c->A,
                           c->lda, c->B, c->C, c->ldc);
    default:
        return check_gels(kern_dtypes[t].is_complex, c->ta, c->m, c->n, c->k, c->A, c->lda, c->B,
                          c->ldb, c->info);
    }
}

static int submit(const lg_call_t *c)
{
    kern_type_t t = c->t;
    switch (c->r) {
    case LG_GEMM:
        return blas_gemm(t, c->ta, c->tb, c->m, c->n, c->k, c->alpha, c->A, c->lda, c->B, c->ldb,
                         c->beta, c->C, c->ldc);
    case LG_SYMM:
    case LG_HEMM:
        return blas_symm(t, c->r == LG_HEMM, c->side, c->uplo, c->m, c->n, c->alpha, c->A, c->lda,
                         c->B, c->ldb, c->beta, c->C, c->ldc);
    case LG_SYRK:
    case LG_HERK:
        return blas_syrk(t, c->r == LG_HERK, c->uplo, c->ta, c->n, c->k, c->alpha, c->A, c->lda,
                         c->beta, c->C, c->ldc);
    case LG_SYR2K:
    case LG_HER2K:
        return blas_syr2k(t, c->r == LG_HER2K, c->uplo, c->ta, c->n, c->k, c->alpha, c->A, c->lda,
                          c->B, c->ldb, c->beta, c->C, c->ldc);
    case LG_GEMMT:
        return blas_gemmt(t, c->uplo, c->ta, c->tb, c->n, c->k, c->alpha, c->A, c->lda, c->B,
                          c->ldb, c->beta, c->C, c->ldc);
    case LG_TRSM:
        return blas_trsm(t, c->side, c->uplo, c->ta, c->diag, c->m, c->n, c->alpha, c->A, c->lda,
                         c->C, c->ldc);
    case LG_TRMM:
        return blas_trmm(t, c->side, c->uplo, c->ta, c->diag, c->m, c->n, c->alpha, c->A, c->lda,
                         c->C, c->ldc);
    /* routines without an INFO leave the caller's (0) as it is */
    case LG_POTRF: return lapack_potrf(t, c->uplo, c->n, (void *)c->A, c->lda, c->info);
    case LG_POTRS: return lapack_potrs(t, c->uplo, c->n, c->k, c->A, c->lda, (void *)c->B, c->ldb);
    case LG_POSV:
        return lapack_posv(t, c->uplo, c->n, c->k, (void *)c->A, c->lda, (void *)c->B, c->ldb,
                           c->info);
    case LG_TRTRI: return lapack_trtri(t, c->uplo, c->diag, c->n, (void *)c->A, c->lda, c->info);
    case LG_LAUUM: return lapack_lauum(t, c->uplo, c->n, (void *)c->A, c->lda);
    case LG_POTRI: return lapack_potri(t, c->uplo, c->n, (void *)c->A, c->lda, c->info);
    case LG_GETRF: return lapack_getrf(t, c->m, c->n, (void *)c->A, c->lda, c->ipiv, c->info);
    case LG_GETRS:
        return lapack_getrs(t, c->ta, c->n, c->k, c->A, c->lda, c->ipiv, (void *)c->B, c->ldb);
    case LG_GESV:
        return lapack_gesv(t, c->n, c->k, (void *)c->A, c->lda, c->ipiv, (void *)c->B, c->ldb,
                           c->info);
    case LG_LASWP:
        return lapack_laswp(t, c->n, (void *)c->A, c->lda, c->k1, c->k2, c->ipiv, c->incx);
    case LG_GEQRF: return lapack_geqrf(t, c->m, c->n, (void *)c->A, c->lda, (void *)c->B);
    case LG_ORMQR:
        return lapack_ormqr(t, c->side, c->ta, c->m, c->n, c->k, c->A, c->lda, c->B, c->C, c->ldc);
    default:
        return lapack_gels(t, c->ta, c->m, c->n, c->k, (void *)c->A, c->lda, (void *)c->B, c->ldb,
                           c->info);
    }
}

/* The runtime's pivots are 64 bits wide: the legacy library widens 32-bit
 * ones before it submits. */
int tess_internal_submit(const lg_call_t *c, bool transient)
{
    if (c->ipiv32)
        return TESS_EINTERNAL;
    rt_transient_operands(transient);
    /* a call that fails on a device is redone on the host from its operands (legacy/) */
    rt_hold_host_writes(true);
    int err = submit(c);
    rt_hold_host_writes(false);
    rt_transient_operands(false);
    return err;
}

static _Thread_local rt_scope_t legacy_scope;

void tess_internal_scope_begin(void)
{
    rt_scope_enter(&legacy_scope);
}

/* The call's scratch (GELS's) goes once its tasks are done: the legacy library never calls
 * tess_sync. */
int tess_internal_scope_sync(void)
{
    int err = rt_scope_sync(&legacy_scope);
    rt_scratch_free(rt_scratch_take(&legacy_scope));
    return err;
}

uint64_t tess_internal_writeback_tick(void)
{
    return rt_writeback_tick();
}

bool tess_internal_written_since(tess_part_t part, const void *p, int64_t m, int64_t n, int64_t ld,
                                 size_t es, uint64_t tick)
{
    return rt_region_written_since(part, p, m, n, ld, es, tick);
}

void tess_internal_scope_end(void)
{
    rt_scope_sync(&legacy_scope);
    rt_scope_enter(NULL);
}

bool tess_internal_on_worker(void)
{
    return rt_on_worker();
}

int tess_internal_gpu_count(void)
{
#ifdef TESS_CUDA_BACKEND
    return cuda_device_count();
#else
    return 0;
#endif
}

double tess_internal_start_expected_s(void)
{
    return rt_start_expected_s();
}

void *tess_internal_host_blas(void)
{
    return host_blas_library();
}

void *tess_internal_host_lapack(void)
{
    return host_lapack_library();
}

bool tess_internal_env_flag(const char *name)
{
    return rt_env_flag(name);
}

int64_t tess_internal_now_ns(void)
{
    return rt_now_ns();
}

#ifdef TESS_CUDA_BACKEND
const kern_table_t *tess_internal_cuda_kernels(kern_type_t t)
{
    return &kern_cuda_table[t];
}

int tess_internal_cuda_handle(cublasHandle_t *h)
{
    return kern_cuda_thread_handle(h);
}

int tess_internal_cuda_solver(cudaStream_t s, cusolverDnHandle_t *h)
{
    return kern_cuda_thread_solver(s, h);
}
#endif
