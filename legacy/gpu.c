/* Calls whose operands are in GPU memory (CUDA builds), served on that GPU
 * with the kernels the runtime runs there (cuBLAS, and Tessera's own TRSM,
 * TRMM and GEMMT; cuSOLVER's POTRF, TRTRI, GETRF, GEQRF and ORMQR, Tessera's
 * LAUUM and row swaps for LAPACK's), as NVBLAS serves BLAS with cuBLAS.  LU's
 * pivots are host memory, as LAPACK's are, copied to the device and back;
 * GELS, and LASWP with a stride through its pivots, run on the host LAPACK
 * through host copies of their operands.
 *
 * The call is made on the device of its output (else of its first operand in
 * GPU memory), on that device's legacy default stream, which waits for work
 * the caller queued on its blocking streams; the call returns once the
 * stream is done, as a BLAS call must.  Operands elsewhere (host memory,
 * another GPU) are copied to temporaries there first, and the outputs back. */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda.h>
#include "cuda_check.h"
#include "cuda_ctx.h"
#include "legacy.h"

/* GPU memory exists only once the process has initialised the CUDA driver
 * (cuInit, with which every use of CUDA begins); until then no pointer is
 * asked about, since asking would start CUDA (a context on the GPU) in every
 * process that calls BLAS, and costs more than a small call.
 *
 * First the driver (libcuda.so.1) must be loaded.  Whether it is is asked of
 * the dynamic loader (dlopen RTLD_NOLOAD, which searches the disk for a name
 * it has not loaded) once, and again only once a library has been loaded
 * since: the loader appends each one after the last of its list, which then
 * has a successor.  That last library is held open meanwhile, so that it
 * cannot be unloaded from under the test, and so is the one before it, which
 * a call that began before the change may still be reading.
 *
 * A loaded driver is not yet in use: cuBLAS loads it as it is loaded itself.
 * Before cuInit every driver call but two answers CUDA_ERROR_NOT_INITIALIZED
 * at once; cuDeviceGetCount is asked, and once it answers otherwise CUDA is
 * in use for the rest of the process. */
static struct {
    pthread_mutex_t lock;
    atomic_bool loaded, in_use;
    CUresult (*device_count)(int *); /* the driver's cuDeviceGetCount */
    struct link_map *_Atomic last;   /* the loader's last library when asked */
    void *held[2];                   /* its handle, and the previous last's */
} cuda = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int note_last(struct dl_phdr_info *info, size_t size, void *name)
{
    (void)size;
    snprintf(name, PATH_MAX, "%s", info->dlpi_name);
    return 0;
}

/* Under cuda.lock. */
static void hold_last_library(void)
{
    char name[PATH_MAX] = "";
    dl_iterate_phdr(note_last, name);
    void *h = *name ? dlopen(name, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    struct link_map *l = NULL;
    if (h && dlinfo(h, RTLD_DI_LINKMAP, &l)) {
        dlclose(h);
        h = NULL;
        l = NULL;
    }
    atomic_store_explicit(&cuda.last, l, memory_order_release);
    if (cuda.held[1])
        dlclose(cuda.held[1]);
    cuda.held[1] = cuda.held[0];
    cuda.held[0] = h;
}

static bool driver_loaded(void)
{
    if (atomic_load_explicit(&cuda.loaded, memory_order_acquire))
        return true;
    struct link_map *last = atomic_load_explicit(&cuda.last, memory_order_acquire);
    if (last && !__atomic_load_n(&last->l_next, __ATOMIC_ACQUIRE))
        return false;
    pthread_mutex_lock(&cuda.lock);
    if (!atomic_load(&cuda.loaded)) {
        void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            /* kept open: the driver is never unloaded from under the test */
            *(void **)&cuda.device_count = dlsym(h, "cuDeviceGetCount");
            atomic_store_explicit(&cuda.loaded, true, memory_order_release);
        } else {
            hold_last_library();
        }
    }
    pthread_mutex_unlock(&cuda.lock);
    return atomic_load(&cuda.loaded);
}

bool lg_cuda_in_use(void)
{
    if (atomic_load_explicit(&cuda.in_use, memory_order_acquire))
        return true;
    if (!driver_loaded())
        return false;
    int count;
    if (cuda.device_count && cuda.device_count(&count) == CUDA_ERROR_NOT_INITIALIZED)
        return false;
    atomic_store_explicit(&cuda.in_use, true, memory_order_release);
    return true;
}

/* The device whose memory p is; -1 for host memory of any kind (pageable,
 * pinned, managed), which the runtime reads as it is. */
static int device_of(const lg_region_t *r)
{
    struct cudaPointerAttributes a;
    if (!r->p || r->m <= 0 || r->n <= 0)
        return -1;
    if (CUDA_OK(cudaPointerGetAttributes(&a, r->p))) {
        cudaGetLastError();
        return -1;
    }
    return a.type == cudaMemoryTypeDevice ? a.device : -1;
}

/* The kernels' scratch (cuda_ctx.h: GEMMT's leaves, and SYRK's and SYR2K's
 * diagonal blocks), per device, grown as calls need; held by one call at a
 * time, since a larger one frees it. */
static struct {
    pthread_mutex_t lock;
    void *p;
    size_t bytes;
} scratch[TESS_MAX_DEVICES];
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_init(void)
{
    for (int i = 0; i < TESS_MAX_DEVICES; i++)
        pthread_mutex_init(&scratch[i].lock, NULL);
}

/* With scratch[dev].lock held on success. */
static void *scratch_take(int dev, size_t bytes)
{
    pthread_once(&scratch_once, scratch_init);
    pthread_mutex_lock(&scratch[dev].lock);
    if (scratch[dev].bytes < bytes) {
        cudaFree(scratch[dev].p);
        scratch[dev].bytes = 0;
        if (CUDA_OK(cudaMalloc(&scratch[dev].p, bytes))) {
            cudaGetLastError();
            scratch[dev].p = NULL;
            pthread_mutex_unlock(&scratch[dev].lock);
            return NULL;
        }
        scratch[dev].bytes = bytes;
    }
    return scratch[dev].p;
}

typedef struct {
    const void *p;
    int64_t ld;
    void *tmp; /* a copy on the call's device, or NULL */
} operand_t;

/* The output is copied in too: a triangle-only routine leaves the rest of it
 * as it was. */
static int place(int dev, const lg_region_t *r, size_t es, operand_t *o)
{
    *o = (operand_t){ r->p, r->ld, NULL };
    if (!r->p || r->m <= 0 || r->n <= 0 || device_of(r) == dev)
        return 0;
    size_t pitch = (size_t)r->m * es;
    if (CUDA_OK(cudaMalloc(&o->tmp, pitch * (size_t)r->n))) {
        cudaGetLastError();
        o->tmp = NULL;
        return TESS_ENOMEM;
    }
    o->p = o->tmp;
    o->ld = r->m;
    return CUDA_OK(cudaMemcpy2D(o->tmp, pitch, r->p, (size_t)r->ld * es, pitch, (size_t)r->n,
                                cudaMemcpyDefault));
}

/* POTRS's two triangular solves on B: with L (Lower, A = L L^H) or U^H
 * (Upper, A = U^H U), then with its Hermitian transpose. */
static int potrs_on_device(const kern_table_t *k, const lg_call_t *c, kern_ctx_t *x)
{
    _Alignas(16) unsigned char alpha[16];
    kern_dtype_one(c->t, alpha);
    int err = 0;
    for (int second = 0; second < 2 && !err; second++)
        err = k->trsm(x, TessLeft, c->uplo, kern_potrs_trans(c->t, c->uplo, second), TessNonUnit,
                      c->n, c->k, alpha, c->A, c->lda, (void *)c->B, c->ldb);
    return err;
}

/* GETRS on getrf's factors, as LAPACK's: B's rows swapped, then L and U solved with;
 * transposed, U^T and L^T solved with, then the swaps undone from the last. */
static int getrs_on_device(const kern_table_t *k, const lg_call_t *c, kern_ctx_t *x)
{
    _Alignas(16) unsigned char one[16];
    kern_dtype_one(c->t, one);
    void *B = (void *)c->B;
    int64_t n = c->n, nrhs = c->k, *piv = c->ipiv;
    if (c->ta == TessNoTrans) {
        int err = k->laswp(x, n, nrhs, B, c->ldb, 1, n, piv, true);
        err = err ? err
                  : k->trsm(x, TessLeft, TessLower, TessNoTrans, TessUnit, n, nrhs, one, c->A,
                            c->lda, B, c->ldb);
        return err ? err
                   : k->trsm(x, TessLeft, TessUpper, TessNoTrans, TessNonUnit, n, nrhs, one, c->A,
                             c->lda, B, c->ldb);
    }
    tess_trans_t tr = kern_trans(c->t, c->ta);
    int err =
        k->trsm(x, TessLeft, TessUpper, tr, TessNonUnit, n, nrhs, one, c->A, c->lda, B, c->ldb);
    err =
        err ? err
            : k->trsm(x, TessLeft, TessLower, tr, TessUnit, n, nrhs, one, c->A, c->lda, B, c->ldb);
    return err ? err : k->laswp(x, n, nrhs, B, c->ldb, 1, n, piv, false);
}

/* The kernels write INFO to *c->info once the stream has come to them; POSV
 * and TRTRI (POTRI) wait for it where LAPACK stops at a failure. */
static int lapack_on_device(const kern_table_t *k, const lg_call_t *c, kern_ctx_t *x)
{
    void *A = (void *)c->A;
    int64_t *piv = c->ipiv; /* LU's, on the device */
    int err;
    switch (c->r) {
    case LG_POTRF: return k->potrf(x, c->uplo, c->n, A, c->lda, c->info, 0);
    case LG_LAUUM: return k->lauum(x, c->uplo, c->n, A, c->lda);
    case LG_POSV:
        err = k->potrf(x, c->uplo, c->n, A, c->lda, c->info, 0);
        if (!err)
            err = CUDA_OK(cudaStreamSynchronize(x->stream));
        if (err || *c->info || c->k == 0)
            return err;
        return potrs_on_device(k, c, x);
    case LG_POTRS: return c->k ? potrs_on_device(k, c, x) : 0;
    case LG_GETRF: return k->getrf(x, c->m, c->n, A, c->lda, piv, c->info, 0);
    case LG_GESV:
        err = k->getrf(x, c->n, c->n, A, c->lda, piv, c->info, 0);
        if (!err)
            err = CUDA_OK(cudaStreamSynchronize(x->stream));
        if (err || *c->info || c->k == 0)
            return err;
        return getrs_on_device(k, c, x);
    case LG_GETRS: return c->k ? getrs_on_device(k, c, x) : 0;
    case LG_LASWP: /* |incx| = 1 (lg_gpu_run): the entries of rows k1 to k2 in order */
        return k->laswp(x, c->lda, c->n, A, c->lda, c->k1, c->k2, piv + c->k1 - 1, c->incx > 0);
    case LG_GEQRF: return k->geqrf(x, c->m, c->n, A, c->lda, (void *)c->B);
    case LG_ORMQR:
        return k->ormqr(x, c->side, c->ta, c->m, c->n, c->k, c->A, c->lda, c->B, c->C, c->ldc);
    default: /* TRTRI, POTRI: LAPACK's check of the diagonal first */
        if (kern_trtri_checks(c->r == LG_POTRI ? TessNonUnit : c->diag)) {
            err = k->diag_zero(x, c->n, A, c->lda, c->info, 0);
            if (!err)
                err = CUDA_OK(cudaStreamSynchronize(x->stream));
            if (err || *c->info)
                return err;
        }
        err = k->trtri(x, c->uplo, c->r == LG_POTRI ? TessNonUnit : c->diag, c->n, A, c->lda,
                       c->info, 0);
        return err || c->r == LG_TRTRI ? err : k->lauum(x, c->uplo, c->n, A, c->lda);
    }
}

/* The call on device pointers, queued on x's stream. */
static int run_on_device(const lg_call_t *c, kern_ctx_t *x)
{
    const kern_table_t *k = tess_internal_cuda_kernels(c->t);
    const lg_routine_t *rt = lg_routine(c);
    if (lg_is_lapack(rt->shape))
        return lapack_on_device(k, c, x);
    kern_type_t rt_real = kern_dtypes[c->t].real;
    bool herm = rt->herm, trxm = rt->shape == LG_SHAPE_TRSM || rt->shape == LG_SHAPE_TRMM;
    kern_type_t bt = rt->real_beta ? rt_real : c->t;
    if (kern_scalar_is_zero(rt->real_alpha ? rt_real : c->t, c->alpha) ||
        (lg_has_k(rt->shape) && c->k == 0)) {
        /* only the scaling is left, as reference BLAS does it */
        static const unsigned char zero[16];
        if (trxm)
            return k->scal(x, c->m, c->n, zero, c->C, c->ldc);
        if (kern_scalar_is_one(bt, c->beta))
            return 0;
        if (!rt->triangle)
            return k->scal(x, c->m, c->n, c->beta, c->C, c->ldc);
        return k->scal_tri(x, herm, c->uplo, c->n, c->beta, c->C, c->ldc);
    }
    switch (rt->shape) {
    case LG_SHAPE_GEMM:
        return k->gemm(x, c->ta, c->tb, c->m, c->n, c->k, c->alpha, c->A, c->lda, c->B, c->ldb,
                       c->beta, c->C, c->ldc);
    case LG_SHAPE_SYMM:
        return k->symm(x, herm, c->side, c->uplo, c->m, c->n, c->alpha, c->A, c->lda, c->B, c->ldb,
                       c->beta, c->C, c->ldc);
    case LG_SHAPE_SYRK:
        return k->syrk(x, herm, c->uplo, c->ta, c->n, c->k, c->alpha, c->A, c->lda, c->beta, c->C,
                       c->ldc);
    case LG_SHAPE_SYR2K:
        return k->syr2k(x, herm, c->uplo, c->ta, c->n, c->k, c->alpha, c->A, c->lda, c->B, c->ldb,
                        c->beta, c->C, c->ldc);
    case LG_SHAPE_GEMMT:
        return k->gemmt(x, c->uplo, c->ta, c->tb, c->n, c->k, c->alpha, c->A, c->lda, c->B, c->ldb,
                        c->beta, c->C, c->ldc);
    case LG_SHAPE_TRSM:
        return k->trsm(x, c->side, c->uplo, c->ta, c->diag, c->m, c->n, c->alpha, c->A, c->lda,
                       c->C, c->ldc);
    case LG_SHAPE_TRMM:
        return k->trmm(x, c->side, c->uplo, c->ta, c->diag, c->m, c->n, c->alpha, c->A, c->lda,
                       c->C, c->ldc);
    default: break; /* LAPACK's: lapack_on_device's */
    }
    return TESS_EINTERNAL;
}

/* The call with each region's pointer replaced by p[i] and its leading dimension by ld[i]. */
static lg_call_t moved(const lg_call_t *c, const lg_region_t *r, int n, const void *const *p,
                       const int64_t *ld)
{
    lg_call_t d = *c;
    for (int i = 0; i < n; i++)
        if (r[i].op == 'A')
            d.A = p[i], d.lda = ld[i];
        else if (r[i].op == 'B')
            d.B = p[i], d.ldb = ld[i];
        else
            d.C = (void *)p[i], d.ldc = ld[i];
    return d;
}

/* LU's pivots on the call's device, 64 bits wide as the kernels take them: those the call
 * reads copied there, those it writes brought back to the caller's, in its width. */
typedef struct {
    lg_call_t w; /* the call with 64-bit host pivots (tmp, or the caller's) */
    void *tmp;
    int64_t *dev, n;
} pivots_t;

static int pivots_place(const lg_call_t *c, pivots_t *p)
{
    *p = (pivots_t){ .n = lg_ipiv_count(c) };
    if (p->n <= 0)
        return 0;
    size_t bytes = (size_t)p->n * sizeof(int64_t);
    if (!lg_ipiv_as(c, true, &p->w, &p->tmp))
        return TESS_ENOMEM;
    if (CUDA_OK(cudaMalloc((void **)&p->dev, bytes))) {
        cudaGetLastError();
        p->dev = NULL;
        return TESS_ENOMEM;
    }
    return lg_ipiv_read(c) ? CUDA_OK(cudaMemcpy(p->dev, p->w.ipiv, bytes, cudaMemcpyHostToDevice))
                           : 0;
}

/* ran: the call succeeded, so that the pivots it wrote are to be the caller's. */
static int pivots_done(const lg_call_t *c, pivots_t *p, bool ran)
{
    int err = 0;
    if (ran && p->dev && !lg_ipiv_read(c))
        err = CUDA_OK(
            cudaMemcpy(p->w.ipiv, p->dev, (size_t)p->n * sizeof(int64_t), cudaMemcpyDeviceToHost));
    if (ran && !err)
        lg_ipiv_done(c, p->tmp);
    else
        free(p->tmp);
    cudaFree(p->dev);
    return err;
}

/* How far a call on the GPU got before it failed: whether the caller's outputs may have
 * been written. */
typedef enum { RAN, FAILED_UNTOUCHED, FAILED_TOUCHED } outcome_t;

static outcome_t run_on(int dev, const lg_call_t *c, const lg_region_t *r, int n, int *err_out)
{
    size_t es = kern_dtypes[c->t].size;
    int err = 0, late = 0;
    for (int i = 0; i < n; i++)
        if (r[i].m > INT_MAX || r[i].n > INT_MAX || r[i].ld > INT_MAX || c->k > INT_MAX)
            err = TESS_ENOMEM; /* beyond cuBLAS's 32-bit sizes */
    operand_t o[3] = { { 0 } };
    for (int i = 0; i < n && !err; i++)
        err = place(dev, &r[i], es, &o[i]);
    pivots_t pv = { .n = 0 };
    if (!err)
        err = pivots_place(c, &pv);
    struct kern_ctx x = { .stream = 0, .async_err = &late };
    if (!err && !(x.scratch = scratch_take(dev, cuda_scratch_bytes(c->m > c->n ? c->m : c->n))))
        err = TESS_ENOMEM;
    if (!err &&
        (tess_internal_cuda_handle(&x.blas) || CUBLAS_OK(cublasSetStream(x.blas, x.stream)) ||
         (lg_is_lapack(lg_routine(c)->shape) && tess_internal_cuda_solver(x.stream, &x.solver))))
        err = TESS_EDEVICE;
    outcome_t out = err ? FAILED_UNTOUCHED : FAILED_TOUCHED;
    if (!err) {
        const void *p[3];
        int64_t ld[3];
        for (int i = 0; i < n; i++)
            p[i] = o[i].p, ld[i] = o[i].ld;
        lg_call_t d = moved(c, r, n, p, ld);
        d.ipiv = pv.dev;
        err = run_on_device(&d, &x);
        int done = CUDA_OK(cudaStreamSynchronize(x.stream));
        err = err ? err : done ? done : __atomic_load_n(&late, __ATOMIC_ACQUIRE);
    }
    if (x.scratch)
        pthread_mutex_unlock(&scratch[dev].lock);
    for (int i = 0; i < n && !err; i++)
        if (r[i].out && o[i].tmp)
            err = CUDA_OK(cudaMemcpy2D((void *)r[i].p, (size_t)r[i].ld * es, o[i].tmp,
                                       (size_t)r[i].m * es, (size_t)r[i].m * es, (size_t)r[i].n,
                                       cudaMemcpyDefault));
    int piv_err = pivots_done(c, &pv, !err);
    err = err ? err : piv_err;
    for (int i = 0; i < n; i++)
        cudaFree(o[i].tmp);
    if (err)
        cudaGetLastError();
    *err_out = err;
    return err ? out : RAN;
}

/* Whether an operand of the call is copied to host memory to run it there: one in GPU
 * memory with elements. */
static bool copied(const lg_region_t *r)
{
    return r->p && r->m > 0 && r->n > 0 && device_of(r) >= 0;
}

/* The call on the host BLAS (LAPACK), its operands in GPU memory copied to host memory
 * and its outputs back: where the data can be reached when the GPU could not take it.
 * LG_GPU_TOO_WIDE, before anything is copied, when the host BLAS does not take the
 * call's sizes either; LG_GPU_NOT_MINE when a copy or the call failed. */
static lg_gpu_t run_on_host(const lg_call_t *c, const lg_region_t *r, int n)
{
    size_t es = kern_dtypes[c->t].size;
    void *h[3] = { NULL };
    const void *p[3];
    int64_t ld[3];
    for (int i = 0; i < n; i++) /* the copies are packed: leading dimension m */
        p[i] = r[i].p, ld[i] = copied(&r[i]) ? r[i].m : r[i].ld;
    lg_call_t d = moved(c, r, n, p, ld);
    if (!lg_host_takes(&d))
        return LG_GPU_TOO_WIDE;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        if (!copied(&r[i]))
            continue;
        size_t pitch = (size_t)r[i].m * es;
        ok = (h[i] = malloc(pitch * (size_t)r[i].n)) &&
             !CUDA_OK(cudaMemcpy2D(h[i], pitch, r[i].p, (size_t)r[i].ld * es, pitch, (size_t)r[i].n,
                                   cudaMemcpyDefault));
        p[i] = h[i];
    }
    d = moved(c, r, n, p, ld);
    d.work = NULL; /* the caller's may be in GPU memory: the host LAPACK takes its own */
    ok = ok && lg_host_run(&d);
    for (int i = 0; i < n && ok; i++)
        if (r[i].out && h[i])
            ok = !CUDA_OK(cudaMemcpy2D((void *)r[i].p, (size_t)r[i].ld * es, h[i],
                                       (size_t)r[i].m * es, (size_t)r[i].m * es, (size_t)r[i].n,
                                       cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        free(h[i]);
    if (!ok)
        cudaGetLastError();
    return ok ? LG_GPU_RAN : LG_GPU_NOT_MINE;
}

/* A BLAS or LAPACK call has no error channel: one that failed is run again on the host
 * when nothing reached its outputs, and otherwise (or when that fails too) the program
 * stops with a message, as XERBLA stops it for an invalid argument. */
lg_gpu_t lg_gpu_run(const lg_call_t *c)
{
    if (!lg_cuda_in_use() || tess_internal_on_worker())
        return LG_GPU_NOT_MINE;
    lg_region_t r[3];
    int n = lg_regions(c, r);
    int dev = -1;
    for (int i = n - 1; i >= 0 && dev < 0; i--) /* the outputs, last first */
        if (r[i].out)
            dev = device_of(&r[i]);
    for (int i = 0; i < n && dev < 0; i++)
        dev = device_of(&r[i]);
    if (dev < 0)
        return LG_GPU_NOT_MINE;
    /* GELS, and LASWP with a stride through its pivots, run on the host through copies
     * of their operands */
    bool host = c->r == LG_GELS || (c->r == LG_LASWP && c->incx != 1 && c->incx != -1);
    int prev = -1, err = TESS_EDEVICE;
    cudaGetDevice(&prev);
    outcome_t out = !host && dev < TESS_MAX_DEVICES && !CUDA_OK(cudaSetDevice(dev))
                        ? run_on(dev, c, r, n, &err)
                        : FAILED_UNTOUCHED;
    if (prev >= 0)
        cudaSetDevice(prev);
    lg_gpu_t g = out == RAN                ? LG_GPU_RAN
                 : out == FAILED_UNTOUCHED ? run_on_host(c, r, n)
                                           : LG_GPU_NOT_MINE;
    if (g != LG_GPU_NOT_MINE)
        return g;
    fprintf(stderr,
            "tessera_blas: %c%s on GPU %d failed (%s) and its outputs cannot be restored: "
            "stopping\n",
            lg_type_letter(c->t), lg_routine(c)->name, dev, tess_strerror(err));
    exit(EXIT_FAILURE);
}
