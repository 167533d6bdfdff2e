/* GEMV after KBLAS (Abdelfattah, Keyes, Ltaief): y = alpha op(A) x + beta y.
 *
 * A 2-D grid cuts A into block rows and column chunks (no transpose) or block
 * columns and row chunks (transpose), so that even a tall-skinny or
 * short-wide A fills the device.  Each block stages its piece of x in shared
 * memory, streams its part of A once in coalesced pair reads, prefetching
 * the next group of columns (rows) into registers while it multiplies the
 * current one, and adds alpha times its partial sums into y with atomics
 * after a separate pass has applied beta. */
#include "blas2_common.cuh"

namespace {

/* No transpose: 128 threads x 2 rows, a group of 8 columns in flight. */
constexpr int GN_THREADS = 128;
constexpr int GN_ROWS = 2 * GN_THREADS;
constexpr int GN_GROUP = 8;
/* Upper bound on the staged piece of x (32 KB for complex double). */
constexpr int64_t X_CHUNK_MAX = 2048;

/* Transpose: GT_WARPS warps x GT_COLS columns each, lanes down the rows in
 * pairs, GT_SEG segments of 64 rows of each column read per step (2 KB
 * contiguous per column for double), the registers capped for GT_MINB blocks
 * per multiprocessor (96 for double on sm_90, none spilled: 20 warps per
 * SM; complex double spills 256 bytes a thread).  On an H200 this measured 0.95x / 0.89x cuBLAS (DGEMV^T 32768 / 8192)
 * against 0.88x / 0.83x for the former shape, 8 columns x one segment with
 * no register cap (BENCHMARKS.md, sweep of 2026-11-23). */
constexpr int GT_WARPS = 4;
constexpr int GT_COLS = 2;
constexpr int GT_SEG = 4;
constexpr int GT_ROWS = 64 * GT_SEG; /* rows one warp reads per step */
constexpr int GT_MINB = 5;

/* Rows i, i+1 of alpha A x over the columns [j0, j0 + nj) staged in sx. */
template <class T, bool ALIGNED>
__device__ __forceinline__ void gemv_n_rows(int64_t m, int64_t i, int64_t nj, T alpha,
                                            const T *a, int64_t lda, const T *sx, T *y,
                                            int64_t incy)
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

/* Columns [c0, c0 + GT_COLS) of alpha op(A)^T x over the rows [0, ni) at a,
 * x staged in sx; one warp. */
template <class T, bool ALIGNED, bool CONJ>
__device__ __forceinline__ void gemv_t_cols(int64_t n, int64_t c0, int64_t ni, T alpha,
                                            const T *a, int64_t lda, const T *sx, T *y,
                                            int64_t incy)
{
    const int lane = threadIdx.x % 32;
    /* columns past n read column n-1 again and are dropped at the end */
    const T *col[GT_COLS];
#pragma unroll
    for (int c = 0; c < GT_COLS; c++)
        col[c] = a + kern_min64(c0 + c, n - 1) * lda;

    T acc[GT_COLS];
#pragma unroll
    for (int c = 0; c < GT_COLS; c++)
        acc[c] = kzero<T>();
    const int64_t full = ALIGNED ? ni / GT_ROWS * GT_ROWS : 0;
    if (full > 0) {
        kpair<T> cur[GT_COLS][GT_SEG], nxt[GT_COLS][GT_SEG];
#pragma unroll
        for (int c = 0; c < GT_COLS; c++)
#pragma unroll
            for (int g = 0; g < GT_SEG; g++)
                cur[c][g] = *reinterpret_cast<const kpair<T> *>(col[c] + 2 * lane + 64 * g);
        for (int64_t i = 2 * lane; i < full; i += GT_ROWS) {
            if (i + GT_ROWS < full) {
#pragma unroll
                for (int c = 0; c < GT_COLS; c++)
#pragma unroll
                    for (int g = 0; g < GT_SEG; g++)
                        nxt[c][g] =
                            *reinterpret_cast<const kpair<T> *>(col[c] + i + GT_ROWS + 64 * g);
            }
#pragma unroll
            for (int g = 0; g < GT_SEG; g++) {
                const T x0 = sx[i + 64 * g], x1 = sx[i + 64 * g + 1];
#pragma unroll
                for (int c = 0; c < GT_COLS; c++) {
                    acc[c] = kfma(CONJ ? kconj(cur[c][g].a) : cur[c][g].a, x0, acc[c]);
                    acc[c] = kfma(CONJ ? kconj(cur[c][g].b) : cur[c][g].b, x1, acc[c]);
                    cur[c][g] = nxt[c][g];
                }
            }
        }
    }
    for (int64_t i = full + lane; i < ni; i += 32) {
        const T xi = sx[i];
#pragma unroll
        for (int c = 0; c < GT_COLS; c++)
            acc[c] = kfma(CONJ ? kconj(col[c][i]) : col[c][i], xi, acc[c]);
    }
#pragma unroll
    for (int c = 0; c < GT_COLS; c++) {
        const T sum = kwarp_sum(acc[c]);
        if (lane == c && c0 + c < n)
            katomic_add(&y[(c0 + c) * incy], kmul(alpha, sum));
    }
}

/* Block (bx, by): warps take GT_COLS columns each, against row chunks by,
 * by + gridDim.y, ... */
template <class T, bool ALIGNED, bool CONJ>
__global__ void __launch_bounds__(GT_WARPS * 32, GT_MINB)
    gemv_t_kernel(int64_t m, int64_t n, int64_t chunk, T alpha, const T *__restrict__ A,
                  int64_t lda, const T *__restrict__ x, int64_t incx, T *y, int64_t incy)
{
    extern __shared__ unsigned char smem_raw[];
    T *sx = reinterpret_cast<T *>(smem_raw);
    const int64_t c0 = ((int64_t)blockIdx.x * GT_WARPS + threadIdx.x / 32) * GT_COLS;
    for (int64_t i0 = (int64_t)blockIdx.y * chunk; i0 < m; i0 += (int64_t)gridDim.y * chunk) {
        const int64_t ni = kern_min64(m - i0, chunk);
        __syncthreads(); /* the previous chunk's x is no longer read */
        for (int64_t i = threadIdx.x; i < ni; i += blockDim.x)
            sx[i] = x[(i0 + i) * incx];
        __syncthreads();
        if (c0 < n)
            gemv_t_cols<T, ALIGNED, CONJ>(n, c0, ni, alpha, A + i0, lda, sx, y, incy);
    }
}

/* Cut the other dimension into chunks so that about 32 blocks per
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
    int err = kern_scale_vec(s, leny, beta, y, incy);
    if (err || kis_zero(alpha))
        return err;
    int nsm;
    if ((err = kern_sm_count(&nsm)))
        return err;
    const bool aligned = kern_pairs_aligned(A, lda);

    if (notrans) {
        const int64_t rowblocks = kern_cdiv64(m, GN_ROWS);
        const int64_t chunk = chunk_length(n, rowblocks, nsm);
        const dim3 grid((unsigned)rowblocks, (unsigned)kern_min64(kern_cdiv64(n, chunk), 65535));
        const size_t smem = (size_t)chunk * sizeof(T);
        if (aligned)
            gemv_n_kernel<T, true><<<grid, GN_THREADS, smem, s>>>(m, n, chunk, alpha, A, lda, x,
                                                                 incx, y, incy);
        else
            gemv_n_kernel<T, false><<<grid, GN_THREADS, smem, s>>>(m, n, chunk, alpha, A, lda,
                                                                  x, incx, y, incy);
    } else {
        const int64_t colblocks = kern_cdiv64(n, GT_WARPS * GT_COLS);
        const int64_t chunk = chunk_length(m, colblocks, nsm);
        const dim3 grid((unsigned)colblocks, (unsigned)kern_min64(kern_cdiv64(m, chunk), 65535));
        const size_t smem = (size_t)chunk * sizeof(T);
        const bool cj = trans == TessConjTrans;
        if (aligned && cj)
            gemv_t_kernel<T, true, true><<<grid, GT_WARPS * 32, smem, s>>>(m, n, chunk, alpha, A,
                                                                          lda, x, incx, y, incy);
        else if (aligned)
            gemv_t_kernel<T, true, false><<<grid, GT_WARPS * 32, smem, s>>>(m, n, chunk, alpha,
                                                                           A, lda, x, incx, y,
                                                                           incy);
        else if (cj)
            gemv_t_kernel<T, false, true><<<grid, GT_WARPS * 32, smem, s>>>(m, n, chunk, alpha,
                                                                           A, lda, x, incx, y,
                                                                           incy);
        else
            gemv_t_kernel<T, false, false><<<grid, GT_WARPS * 32, smem, s>>>(m, n, chunk, alpha,
                                                                            A, lda, x, incx, y,
                                                                            incy);
    }
    KERN_LAUNCH_CHECK();
    return 0;
}

} // namespace

extern "C" int kern_cuda_gemv(kern_type_t t, cublasHandle_t h, cudaStream_t s,
                              tess_trans_t trans, int64_t m, int64_t n, const void *alpha,
                              const void *A, int64_t lda, const void *x, int64_t incx,
                              const void *beta, void *y, int64_t incy)
{
    (void)h;
    if (trans != TessNoTrans && trans != TessTrans && trans != TessConjTrans)
        return -1;
    if (m < 0)
        return -2;
    if (n < 0)
        return -3;
    if (lda < kern_max64(1, m))
        return -6;
    if (incx == 0)
        return -8;
    if (incy == 0)
        return -11;
    if (m == 0 || n == 0)
        return 0;
    switch (t) {
    case KERN_S:
        return gemv_typed(s, trans, m, n, alpha, (const float *)A, lda, (const float *)x, incx,
                          beta, (float *)y, incy);
    case KERN_D:
        return gemv_typed(s, trans, m, n, alpha, (const double *)A, lda, (const double *)x,
                          incx, beta, (double *)y, incy);
    case KERN_C:
        return gemv_typed(s, trans, m, n, alpha, (const cuComplex *)A, lda,
                          (const cuComplex *)x, incx, beta, (cuComplex *)y, incy);
    case KERN_Z:
        return gemv_typed(s, trans, m, n, alpha, (const cuDoubleComplex *)A, lda,
                          (const cuDoubleComplex *)x, incx, beta, (cuDoubleComplex *)y, incy);
    default:
        return TESS_EINTERNAL;
    }
}
