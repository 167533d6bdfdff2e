/* SYMV (real) and HEMV (complex) after KBLAS: y = alpha A x + beta y, with A
 * read once.
 *
 * A is cut into 64 x 64 tiles.  Thread block (bj, c) owns block column bj:
 * block 0 of the column takes its diagonal tile, and each block takes a run
 * of the stored off-diagonal tiles below (lower) or above (upper) it.  Every
 * off-diagonal tile A_ij serves both of its products: A_ij x_j goes to y_i
 * (summed across the block in shared memory, then added with atomics), and
 * A_ij^H x_i builds up in registers for y_j, reduced across the warp and
 * added once at the end.  The next tile is read into registers while the
 * current one is used (register double buffering).
 *
 * Thread (tx, ty) holds rows 2tx and 2tx+1 of columns ty, ty + TY, ... of a
 * tile: each warp reads whole 64-row column segments, in 16-byte pairs.
 *
 * Blocks of 16 warps (4 columns a thread) in every precision, registers
 * capped for one block per multiprocessor (128 a thread): a tile and its
 * prefetched successor fit without spills (complex double spills 48 bytes
 * a thread when aligned, as before).  Runs are long (up to 32 tiles):
 * fewer barriers and y_j atomics per tile, longer streams.  On an H200 this
 * measured 1.89x / 3.11x / 0.99x cuBLAS (DSYMV L 32768, U 32768, L 8192)
 * against 1.78x / 3.03x / 0.95x for the former design, 8 warps of 8 columns
 * (two blocks per multiprocessor) with runs of at most 16 tiles
 * (BENCHMARKS.md, sweep of 2026-11-23). */
#include "blas2_common.cuh"

namespace {

constexpr int SB = 64;       /* tile size */
constexpr int TY = 16;       /* warps per block */
constexpr int CPT = SB / TY; /* columns of a tile per thread */
/* Runs of 2 to MAX_RUN tiles: as long as about RUN_BLOCKS_PER_SM blocks per
 * multiprocessor remain. */
constexpr int64_t MAX_RUN = 32;
constexpr int64_t RUN_BLOCKS_PER_SM = 4;

template <class T> struct symv_args {
    const T *A;
    const T *x;
    T *y;
    int64_t n, lda, incx, incy;
    int64_t tiles_per_block;
    T alpha;
};

/* The tile at block row bi of this block column, and the matching piece of x:
 * pair reads when the tile lies inside A, guarded single reads otherwise. */
template <class T, bool ALIGNED>
__device__ __forceinline__ void symv_load(const symv_args<T> &a, int64_t bi, int64_t col0,
                                          int tx, int ty, kpair<T> (&t)[CPT], kpair<T> &xr)
{
    const int64_t row = bi * SB + 2 * tx;
    const bool full = (bi + 1) * SB <= a.n && col0 + SB <= a.n;
    if (ALIGNED && full) {
#pragma unroll
        for (int q = 0; q < CPT; q++)
            t[q] = *reinterpret_cast<const kpair<T> *>(a.A + row + (col0 + ty + TY * q) * a.lda);
        xr.a = a.x[row * a.incx];
        xr.b = a.x[(row + 1) * a.incx];
        return;
    }
    const bool r0 = row < a.n, r1 = row + 1 < a.n;
#pragma unroll
    for (int q = 0; q < CPT; q++) {
        const int64_t c = col0 + ty + TY * q;
        const T *p = a.A + row + kern_min64(c, a.n - 1) * a.lda;
        t[q].a = r0 && c < a.n ? p[0] : kzero<T>();
        t[q].b = r1 && c < a.n ? p[1] : kzero<T>();
    }
    xr.a = r0 ? a.x[row * a.incx] : kzero<T>();
    xr.b = r1 ? a.x[(row + 1) * a.incx] : kzero<T>();
}

/* Sum the block's partial products for rows row0 .. row0+63 and add them to
 * y.  Two shared buffers alternate, so one barrier per tile suffices. */
template <class T>
__device__ __forceinline__ void symv_rows_to_y(const symv_args<T> &a, T (&srow)[2][TY][SB],
                                               int &buf, int tx, int ty, T rp0, T rp1,
                                               int64_t row0)
{
    srow[buf][ty][2 * tx] = rp0;
    srow[buf][ty][2 * tx + 1] = rp1;
    __syncthreads();
    if (threadIdx.x < SB && row0 + threadIdx.x < a.n) {
        T sum = kzero<T>();
#pragma unroll
        for (int w = 0; w < TY; w++)
            sum = kadd(sum, srow[buf][w][threadIdx.x]);
        katomic_add(&a.y[(row0 + threadIdx.x) * a.incy], kmul(a.alpha, sum));
    }
    buf ^= 1;
}

/* TY warps, registers capped for one block per multiprocessor. */
template <class T, bool ALIGNED, bool LOWER>
__global__ void __launch_bounds__(32 * TY, 1) symv_kernel(symv_args<T> a)
{
    __shared__ T srow[2][TY][SB];
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    const int64_t nbt = kern_cdiv64(a.n, SB), bj = blockIdx.x, col0 = bj * SB;
    const int64_t lo = (LOWER ? bj + 1 : 0) + blockIdx.y * a.tiles_per_block;
    const int64_t hi = kern_min64(LOWER ? nbt : bj, lo + a.tiles_per_block);
    const bool diag = blockIdx.y == 0;
    if (!diag && lo >= hi)
        return;

    T xc[CPT], yc[CPT];
#pragma unroll
    for (int q = 0; q < CPT; q++) {
        const int64_t c = col0 + ty + TY * q;
        xc[q] = c < a.n ? a.x[c * a.incx] : kzero<T>();
        yc[q] = kzero<T>();
    }
    int buf = 0;

    if (diag) {
        /* Only the stored triangle is read; the element (r, c) serves row r
         * and, mirrored, column c.  The diagonal serves its row once, by its
         * real part for a Hermitian matrix. */
        kpair<T> t[CPT], xr;
        symv_load<T, false>(a, bj, col0, tx, ty, t, xr);
        T rp0 = kzero<T>(), rp1 = kzero<T>();
#pragma unroll
        for (int q = 0; q < CPT; q++) {
            const int c = ty + TY * q;
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const int r = 2 * tx + e;
                const T v = e ? t[q].b : t[q].a;
                const bool stored = LOWER ? r > c : r < c;
                const T vrow = r == c ? kreal(v) : stored ? v : kzero<T>();
                const T vcol = stored ? v : kzero<T>();
                if (e)
                    rp1 = kfma(vrow, xc[q], rp1);
                else
                    rp0 = kfma(vrow, xc[q], rp0);
                yc[q] = kfma(kconj(vcol), e ? xr.b : xr.a, yc[q]);
            }
        }
        symv_rows_to_y<T>(a, srow, buf, tx, ty, rp0, rp1, col0);
    }

    if (lo < hi) {
        kpair<T> cur[CPT], nxt[CPT], xcur, xnxt;
        symv_load<T, ALIGNED>(a, lo, col0, tx, ty, cur, xcur);
        for (int64_t bi = lo; bi < hi; bi++) {
            if (bi + 1 < hi)
                symv_load<T, ALIGNED>(a, bi + 1, col0, tx, ty, nxt, xnxt);
            T rp0 = kzero<T>(), rp1 = kzero<T>();
#pragma unroll
            for (int q = 0; q < CPT; q++) {
                rp0 = kfma(cur[q].a, xc[q], rp0);
                rp1 = kfma(cur[q].b, xc[q], rp1);
                yc[q] = kfma(kconj(cur[q].a), xcur.a, yc[q]);
                yc[q] = kfma(kconj(cur[q].b), xcur.b, yc[q]);
                cur[q] = nxt[q];
            }
            xcur = xnxt;
            symv_rows_to_y<T>(a, srow, buf, tx, ty, rp0, rp1, bi * SB);
        }
    }

#pragma unroll
    for (int q = 0; q < CPT; q++) {
        const T sum = kwarp_sum(yc[q]);
        const int64_t c = col0 + ty + TY * q;
        if (tx == 0 && c < a.n)
            katomic_add(&a.y[c * a.incy], kmul(a.alpha, sum));
    }
}

template <class T>
int symv_typed(cudaStream_t s, tess_uplo_t uplo, int64_t n, const void *alpha_p, const T *A,
               int64_t lda, const T *x, int64_t incx, const void *beta_p, T *y, int64_t incy)
{
    symv_args<T> a;
    a.alpha = *static_cast<const T *>(alpha_p);
    const T beta = *static_cast<const T *>(beta_p);
    a.A = A;
    a.lda = lda;
    a.n = n;
    a.x = kern_vec_base(x, n, incx);
    a.incx = incx;
    a.y = kern_vec_base(y, n, incy);
    a.incy = incy;
    int err = kern_scale_vec(s, n, beta, a.y, incy);
    if (err || kis_zero(a.alpha))
        return err;
    int nsm;
    if ((err = kern_sm_count(&nsm)))
        return err;

    /* A longer run adds y_j fewer times and keeps more reads in flight
     * between barriers. */
    const int64_t nbt = kern_cdiv64(n, SB);
    const int64_t tiles = nbt * (nbt - 1) / 2;
    a.tiles_per_block =
        kern_max64(2, kern_min64(MAX_RUN, tiles / (RUN_BLOCKS_PER_SM * (int64_t)nsm)));
    const dim3 grid((unsigned)nbt, (unsigned)kern_max64(1, kern_cdiv64(nbt - 1, a.tiles_per_block)));
    const dim3 block(32 * TY);
    const bool aligned = kern_pairs_aligned(A, lda), lower = uplo == TessLower;
    if (aligned && lower)
        symv_kernel<T, true, true><<<grid, block, 0, s>>>(a);
    else if (aligned)
        symv_kernel<T, true, false><<<grid, block, 0, s>>>(a);
    else if (lower)
        symv_kernel<T, false, true><<<grid, block, 0, s>>>(a);
    else
        symv_kernel<T, false, false><<<grid, block, 0, s>>>(a);
    KERN_LAUNCH_CHECK();
    return 0;
}

} // namespace

extern "C" int kern_cuda_symv(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_uplo_t uplo,
                              int64_t n, const void *alpha, const void *A, int64_t lda,
                              const void *x, int64_t incx, const void *beta, void *y,
                              int64_t incy)
{
    (void)h;
    if (uplo != TessUpper && uplo != TessLower)
        return -1;
    if (n < 0)
        return -2;
    if (lda < kern_max64(1, n))
        return -5;
    if (incx == 0)
        return -7;
    if (incy == 0)
        return -10;
    if (n == 0)
        return 0;
    switch (t) {
    case KERN_S:
        return symv_typed(s, uplo, n, alpha, (const float *)A, lda, (const float *)x, incx, beta,
                          (float *)y, incy);
    case KERN_D:
        return symv_typed(s, uplo, n, alpha, (const double *)A, lda, (const double *)x, incx,
                          beta, (double *)y, incy);
    case KERN_C:
        return symv_typed(s, uplo, n, alpha, (const cuComplex *)A, lda, (const cuComplex *)x,
                          incx, beta, (cuComplex *)y, incy);
    case KERN_Z:
        return symv_typed(s, uplo, n, alpha, (const cuDoubleComplex *)A, lda,
                          (const cuDoubleComplex *)x, incx, beta, (cuDoubleComplex *)y, incy);
    default:
        return TESS_EINTERNAL;
    }
}
