/* GEMV after KBLAS (Abdelfattah, Keyes, Ltaief): y = alpha op(A) x + beta y.
 *
 * No transpose: a 2-D grid cuts A into block rows and column chunks, so that
 * even a short-wide A fills the device.  Each block stages its piece of x in
 * shared memory, streams its part of A once in coalesced pair reads,
 * prefetching the next group of columns into registers while it multiplies
 * the current one, and adds alpha times its partial sums into y with atomics
 * after a separate pass has applied beta.
 *
 * Transpose and conjugate transpose: one warp a column, reading it in
 * coalesced pairs, the next step of rows prefetched into registers while it
 * multiplies the current one; x is read from global memory through L1, which
 * the loads of A bypass.  When there are columns enough to fill the device,
 * a warp takes a whole column and writes y = alpha sum + beta y itself (no
 * beta pass, no atomics); otherwise a 2-D grid cuts the columns into row
 * chunks, as above, and the chunks add into y with atomics after the beta
 * pass. */
#include <atomic>
#include "blas2_common.cuh"

namespace
{

/* No transpose: 128 threads x 2 rows, a group of 8 columns in flight. */
constexpr int GN_THREADS = 128;
constexpr int GN_ROWS = 2 * GN_THREADS;
constexpr int GN_GROUP = 8;
/* Upper bound on the staged piece of x (32 KB for complex double). */
constexpr int64_t X_CHUNK_MAX = 2048;

/* Transpose: GT_WARPS warps a block, one column each, lanes down the rows
 * in pairs, GT_SEG segments of 64 rows read per step (4 KB contiguous for
 * double).  The registers are capped for gt_minb blocks per multiprocessor:
 * 4 for S, D, C (128 registers; double uses 119, none spilled), 3 for
 * complex double (168, none spilled).  x is not staged: it is read with
 * __ldg, and the loads of A are L1::no_allocate, so that the column stream
 * does not evict it.  When the blocks of whole columns fill GT_WAVES waves
 * of resident blocks, each warp takes its whole column and y is written
 * once, alpha sum + beta y, with no beta pass and no atomics.  With fewer registers the compiler's unrolled step loop issues the next
 * step's reads too late to overlap the current step; staging x in shared
 * memory and a beta pass with atomics ran slower (BENCHMARKS.md). */
constexpr int GT_WARPS = 4;
constexpr int GT_SEG = 8;
constexpr int GT_ROWS = 64 * GT_SEG; /* rows one warp reads per step */
constexpr int GT_WAVES = 4;
template <class T>
constexpr int gt_minb()
{
    return sizeof(T) == 16 ? 3 : 4;
}

/* Rows i, i+1 of alpha A x over the columns [j0, j0 + nj) staged in sx. */
template <class T, bool ALIGNED>
__device__ __forceinline__ void gemv_n_rows(int64_t m, int64_t i, int64_t nj, T alpha, const T *a,
                                            int64_t lda, const T *sx, T *y, int64_t incy)
{
    T acc0 = kzero<T>(), acc1 = kzero<T>();
    if (ALIGNED && i + 1 < m) {
        /* register double buffering: the next group's reads are issued
         * before the current group is multiplied */
        const int64_t ngroups = nj / GN_GROUP;
        kpair<T> cur[GN_GROUP], nxt[GN_GROUP];
        if (ngroups > 0) {
#pragma unroll
            for (int u = 0; u < GN_GROUP; u++)
                cur[u] = *reinterpret_cast<const kpair<T> *>(a + u * lda);
        }
        for (int64_t g = 0; g < ngroups; g++) {
            const int64_t j = g * GN_GROUP;
            if (g + 1 < ngroups) {
#pragma unroll
                for (int u = 0; u < GN_GROUP; u++)
                    nxt[u] = *reinterpret_cast<const kpair<T> *>(a + (j + GN_GROUP + u) * lda);
            }
#pragma unroll
            for (int u = 0; u < GN_GROUP; u++) {
                acc0 = kfma(cur[u].a, sx[j + u], acc0);
                acc1 = kfma(cur[u].b, sx[j + u], acc1);
                cur[u] = nxt[u];
            }
        }
        for (int64_t j = ngroups * GN_GROUP; j < nj; j++) {
            const kpair<T> v = *reinterpret_cast<const kpair<T> *>(a + j * lda);
            acc0 = kfma(v.a, sx[j], acc0);
            acc1 = kfma(v.b, sx[j], acc1);
        }
    } else {
        const bool two = i + 1 < m;
#pragma unroll 4
        for (int64_t j = 0; j < nj; j++) {
            acc0 = kfma(a[j * lda], sx[j], acc0);
            if (two)
                acc1 = kfma(a[j * lda + 1], sx[j], acc1);
        }
    }
    katomic_add(&y[i * incy], kmul(alpha, acc0));
    if (i + 1 < m)
        katomic_add(&y[(i + 1) * incy], kmul(alpha, acc1));
}

/* Block (bx, by) takes rows [bx GN_ROWS, +GN_ROWS) against column chunks by,
 * by + gridDim.y, ... (a loop only when n needs more than the grid allows). */
template <class T, bool ALIGNED>
__global__ void __launch_bounds__(GN_THREADS)
    gemv_n_kernel(int64_t m, int64_t n, int64_t chunk, T alpha, const T *__restrict__ A,
                  int64_t lda, const T *__restrict__ x, int64_t incx, T *y, int64_t incy)
{
    extern __shared__ unsigned char smem_raw[];
    T *sx = reinterpret_cast<T *>(smem_raw);
    const int64_t i = (int64_t)blockIdx.x * GN_ROWS + 2 * threadIdx.x;
    for (int64_t j0 = (int64_t)blockIdx.y * chunk; j0 < n; j0 += (int64_t)gridDim.y * chunk) {
        const int64_t nj = kern_min64(n - j0, chunk);
        __syncthreads(); /* the previous chunk's x is no longer read */
        for (int64_t j = threadIdx.x; j < nj; j += blockDim.x)
            sx[j] = x[(j0 + j) * incx];
        __syncthreads();
        if (i < m)
            gemv_n_rows<T, ALIGNED>(m, i, nj, alpha, A + i + j0 * lda, lda, sx, y, incy);
    }
}

/* Loads of A for the transpose: every element is read once, so they bypass
 * L1 (ld.global.nc.L1::no_allocate) and leave it to x, which every warp of
 * the block reads again.  kload_a: one element (the tail rows and the
 * unaligned fallback); kload_a_pair: rows i, i+1 of a column (i even, the
 * pointer aligned for kpair). */
__device__ __forceinline__ float kload_a(const float *p)
{
    float v;
    asm("ld.global.nc.L1::no_allocate.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ double kload_a(const double *p)
{
    double v;
    asm("ld.global.nc.L1::no_allocate.f64 %0, [%1];" : "=d"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ cuComplex kload_a(const cuComplex *p)
{
    cuComplex v;
    asm("ld.global.nc.L1::no_allocate.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(p));
    return v;
}
__device__ __forceinline__ cuDoubleComplex kload_a(const cuDoubleComplex *p)
{
    cuDoubleComplex v;
    asm("ld.global.nc.L1::no_allocate.v2.f64 {%0, %1}, [%2];" : "=d"(v.x), "=d"(v.y) : "l"(p));
    return v;
}
__device__ __forceinline__ kpair<float> kload_a_pair(const float *p)
{
    kpair<float> v;
    asm("ld.global.nc.L1::no_allocate.v2.f32 {%0, %1}, [%2];" : "=f"(v.a), "=f"(v.b) : "l"(p));
    return v;
}
__device__ __forceinline__ kpair<double> kload_a_pair(const double *p)
{
    kpair<double> v;
    asm("ld.global.nc.L1::no_allocate.v2.f64 {%0, %1}, [%2];" : "=d"(v.a), "=d"(v.b) : "l"(p));
    return v;
}
__device__ __forceinline__ kpair<cuComplex> kload_a_pair(const cuComplex *p)
{
    kpair<cuComplex> v;
    asm("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(v.a.x), "=f"(v.a.y), "=f"(v.b.x), "=f"(v.b.y)
        : "l"(p));
    return v;
}
__device__ __forceinline__ kpair<cuDoubleComplex> kload_a_pair(const cuDoubleComplex *p)
{
    return kpair<cuDoubleComplex>{ kload_a(p), kload_a(p + 1) };
}

/* Elements i, i+1 of x (i even), read from global memory through L1: one
 * access where x is contiguous (XPAIR: incx = 1 and x aligned for kpair),
 * two at x[i incx], x[(i+1) incx] otherwise (incx < 0 included: x is the base
 * kern_vec_base gives). */
__device__ __forceinline__ kpair<float> kload_x_pair(const float *p)
{
    const float2 v = __ldg(reinterpret_cast<const float2 *>(p));
    return kpair<float>{ v.x, v.y };
}
__device__ __forceinline__ kpair<double> kload_x_pair(const double *p)
{
    const double2 v = __ldg(reinterpret_cast<const double2 *>(p));
    return kpair<double>{ v.x, v.y };
}
__device__ __forceinline__ kpair<cuComplex> kload_x_pair(const cuComplex *p)
{
    const float4 v = __ldg(reinterpret_cast<const float4 *>(p));
    return kpair<cuComplex>{ make_cuComplex(v.x, v.y), make_cuComplex(v.z, v.w) };
}
__device__ __forceinline__ kpair<cuDoubleComplex> kload_x_pair(const cuDoubleComplex *p)
{
    return kpair<cuDoubleComplex>{ __ldg(p), __ldg(p + 1) };
}
template <class T, bool XPAIR>
__device__ __forceinline__ kpair<T> gemv_t_x_pair(const T *x, int64_t i, int64_t incx)
{
    if constexpr (XPAIR)
        return kload_x_pair(x + i);
    else
        return kpair<T>{ __ldg(x + i * incx), __ldg(x + (i + 1) * incx) };
}

/* sum_i op(a[i]) x[i incx] over the rows [0, ni) of one column, a partial
 * sum in each lane (the caller sums the warp).  APAIR: a is aligned for
 * kpair, whole steps of GT_ROWS rows are read in pairs and the rows past the
 * last one element by element; otherwise every row is read element by
 * element. */
template <class T, bool APAIR, bool XPAIR, bool CONJ>
__device__ __forceinline__ T gemv_t_col(int64_t ni, const T *a, const T *x, int64_t incx)
{
    const int lane = threadIdx.x % 32;
    T acc = kzero<T>();
    const int64_t steps = APAIR ? ni / GT_ROWS : 0, full = steps * GT_ROWS;
    if (steps > 0) {
        /* register double buffering: the next step's reads are issued before
         * the current step is multiplied */
        kpair<T> cur[GT_SEG], nxt[GT_SEG];
        const T *a2 = a + 2 * lane;
#pragma unroll
        for (int g = 0; g < GT_SEG; g++)
            cur[g] = kload_a_pair(a2 + 64 * g);
        for (int64_t t = 0; t < steps; t++) {
            if (t + 1 < steps) {
#pragma unroll
                for (int g = 0; g < GT_SEG; g++)
                    nxt[g] = kload_a_pair(a2 + (t + 1) * GT_ROWS + 64 * g);
            }
#pragma unroll
            for (int g = 0; g < GT_SEG; g++) {
                const kpair<T> xv =
                    gemv_t_x_pair<T, XPAIR>(x, t * GT_ROWS + 2 * lane + 64 * g, incx);
                acc = kfma(CONJ ? kconj(cur[g].a) : cur[g].a, xv.a, acc);
                acc = kfma(CONJ ? kconj(cur[g].b) : cur[g].b, xv.b, acc);
                cur[g] = nxt[g];
            }
        }
    }
#pragma unroll 4
    for (int64_t i = full + lane; i < ni; i += 32) {
        const T ai = kload_a(a + i);
        acc = kfma(CONJ ? kconj(ai) : ai, __ldg(x + i * incx), acc);
    }
    return acc;
}

/* Warp w of block (bx, by) takes column bx GT_WARPS + w against the row
 * chunks by, by + gridDim.y, ...  With one row of blocks the chunk is the
 * whole column, and y = alpha sum + beta y is written once (beta == 0 does
 * not read y); else alpha sum is added with atomics after the beta pass. */
template <class T, bool APAIR, bool XPAIR, bool CONJ>
__global__ void __launch_bounds__(GT_WARPS * 32, gt_minb<T>())
    gemv_t_kernel(int64_t m, int64_t n, int64_t chunk, T alpha, T beta, const T *__restrict__ A,
                  int64_t lda, const T *__restrict__ x, int64_t incx, T *y, int64_t incy)
{
    const int64_t j = (int64_t)blockIdx.x * GT_WARPS + threadIdx.x / 32;
    if (j >= n)
        return; /* a whole warp: nothing below synchronises the block */
    const T *col = A + j * lda;
    for (int64_t i0 = (int64_t)blockIdx.y * chunk; i0 < m; i0 += (int64_t)gridDim.y * chunk) {
        const int64_t ni = kern_min64(m - i0, chunk);
        const T sum =
            kwarp_sum(gemv_t_col<T, APAIR, XPAIR, CONJ>(ni, col + i0, x + i0 * incx, incx));
        if (threadIdx.x % 32 == 0) {
            const T v = kmul(alpha, sum);
            T *yj = &y[j * incy];
            if (gridDim.y > 1)
                katomic_add(yj, v);
            else if (kis_zero(beta))
                *yj = v;
            else if (kis_one(beta))
                *yj = kadd(*yj, v);
            else
                *yj = kfma(beta, *yj, v);
        }
    }
}

template <class T>
using gemv_t_fn = void (*)(int64_t, int64_t, int64_t, T, T, const T *, int64_t, const T *, int64_t,
                           T *, int64_t);

/* A transpose kernel and its resident blocks per multiprocessor. */
template <class T>
struct gemv_t_launch {
    gemv_t_fn<T> fn;
    int per_sm;
};

template <class T, bool APAIR, bool XPAIR, bool CONJ>
int gemv_t_instance(int dev, gemv_t_launch<T> *l)
{
    static std::atomic<int> per_sm_of[TESS_MAX_DEVICES];
    l->fn = gemv_t_kernel<T, APAIR, XPAIR, CONJ>;
    return kern_blocks_per_sm(l->fn, GT_WARPS * 32, 0, dev, per_sm_of, &l->per_sm);
}

/* The instantiation for A's and x's layout and for ^T / ^H. */
template <class T>
int gemv_t_pick(bool apair, bool xpair, bool cj, int dev, gemv_t_launch<T> *l)
{
    if (apair && xpair)
        return cj ? gemv_t_instance<T, true, true, true>(dev, l)
                  : gemv_t_instance<T, true, true, false>(dev, l);
    if (apair)
        return cj ? gemv_t_instance<T, true, false, true>(dev, l)
                  : gemv_t_instance<T, true, false, false>(dev, l);
    return cj ? gemv_t_instance<T, false, false, true>(dev, l)
              : gemv_t_instance<T, false, false, false>(dev, l);
}

/* No transpose: cut the columns into chunks so that about 32 blocks per
 * multiprocessor exist, with 256 to X_CHUNK_MAX elements of x each. */
int64_t chunk_length(int64_t len, int64_t blocks_across, int nsm)
{
    int64_t nchunks = kern_cdiv64(32 * (int64_t)nsm, blocks_across);
    nchunks = kern_min64(nchunks, kern_cdiv64(len, 256));
    nchunks = kern_max64(nchunks, kern_cdiv64(len, X_CHUNK_MAX));
    nchunks = kern_max64(nchunks, 1);
    return kern_cdiv64(kern_cdiv64(len, nchunks), 8) * 8;
}

template <class T>
int gemv_typed(cudaStream_t s, tess_trans_t trans, int64_t m, int64_t n, const void *alpha_p,
               const T *A, int64_t lda, const T *x, int64_t incx, const void *beta_p, T *y,
               int64_t incy)
{
    const T alpha = *static_cast<const T *>(alpha_p), beta = *static_cast<const T *>(beta_p);
    const bool notrans = trans == TessNoTrans;
    const int64_t lenx = notrans ? n : m, leny = notrans ? m : n;
    x = kern_vec_base(x, lenx, incx);
    y = kern_vec_base(y, leny, incy);
    if (kis_zero(alpha))
        return kern_scale_vec(s, leny, beta, y, incy);
    kern_device dev;
    int err;
    if ((err = kern_current_device(&dev)))
        return err;
    const bool aligned = kern_pairs_aligned(A, lda);

    if (notrans) {
        if ((err = kern_scale_vec(s, leny, beta, y, incy)))
            return err;
        const int64_t rowblocks = kern_cdiv64(m, GN_ROWS);
        const int64_t chunk = chunk_length(n, rowblocks, dev.nsm);
        const dim3 grid((unsigned)rowblocks, (unsigned)kern_min64(kern_cdiv64(n, chunk), 65535));
        const size_t smem = (size_t)chunk * sizeof(T);
        if (aligned)
            gemv_n_kernel<T, true>
                <<<grid, GN_THREADS, smem, s>>>(m, n, chunk, alpha, A, lda, x, incx, y, incy);
        else
            gemv_n_kernel<T, false>
                <<<grid, GN_THREADS, smem, s>>>(m, n, chunk, alpha, A, lda, x, incx, y, incy);
    } else {
        /* Whole columns (one chunk, y written directly) when the blocks of
         * GT_WARPS columns fill GT_WAVES waves of resident blocks; otherwise
         * row chunks of whole steps, about 8 waves of blocks in all. */
        const bool xpair = incx == 1 && (uintptr_t)x % alignof(kpair<T>) == 0;
        gemv_t_launch<T> kern;
        if ((err = gemv_t_pick<T>(aligned, xpair, trans == TessConjTrans, dev.id, &kern)))
            return err;
        const int64_t resident = (int64_t)kern.per_sm * dev.nsm;
        const int64_t colblocks = kern_cdiv64(n, GT_WARPS);
        int64_t nchunks = 1;
        if (colblocks < GT_WAVES * resident) {
            nchunks = kern_cdiv64(8 * resident, colblocks);
            nchunks = kern_min64(nchunks, kern_cdiv64(m, GT_ROWS));
        }
        const int64_t chunk = kern_cdiv64(kern_cdiv64(m, nchunks), GT_ROWS) * GT_ROWS;
        nchunks = kern_cdiv64(m, chunk);
        /* one row of blocks writes y itself; more add to it after the beta pass */
        if (nchunks > 1 && (err = kern_scale_vec(s, leny, beta, y, incy)))
            return err;
        const dim3 grid((unsigned)colblocks, (unsigned)kern_min64(nchunks, 65535));
        kern.fn<<<grid, GT_WARPS * 32, 0, s>>>(m, n, chunk, alpha, beta, A, lda, x, incx, y, incy);
    }
    KERN_LAUNCH_CHECK();
    return 0;
}

} // namespace

extern "C" int kern_cuda_gemv(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_trans_t trans,
                              int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
                              const void *x, int64_t incx, const void *beta, void *y, int64_t incy)
{
    (void)h;
    if (m == 0 || n == 0)
        return 0;
    return kern_by_type(t, [&](auto z) {
        using T = decltype(z);
        return gemv_typed(s, trans, m, n, alpha, static_cast<const T *>(A), lda,
                          static_cast<const T *>(x), incx, beta, static_cast<T *>(y), incy);
    });
}
