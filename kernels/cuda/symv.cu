/* SYMV (real) and HEMV (complex) after KBLAS: y = alpha A x + beta y, with A
 * read once.
 *
 * A is cut into 64 x 64 tiles.  The stored tiles, diagonal ones included, form
 * one column-major list (block columns left to right, each column's tiles top
 * to bottom: lower from its diagonal tile down, upper down to its diagonal
 * tile).  A persistent grid of two blocks per multiprocessor cuts the list
 * into contiguous pieces of equal cost (symv_piece_start), one a block; a
 * piece may cross block columns.  Every off-diagonal tile A_ij serves both
 * of its products: A_ij x_j goes to y_i (summed across the block in shared
 * memory, then added with atomics), and A_ij^H x_i builds up in registers
 * for y_j, reduced across the warp and added when the piece leaves column j
 * (x_j is then reloaded for the next column).  A diagonal tile uses only its
 * stored triangle, and the real part of its diagonal; the pairs of it that
 * lie wholly outside that triangle are not read (0.75% of the bytes at
 * n = 8192).  The next tile is read into registers while the current one is
 * used.
 *
 * Blocks of 8 warps; thread (tx, ty) holds rows 2tx and 2tx+1 of columns ty,
 * ty + 8, ... of a tile (8 columns a thread): each warp reads whole 64-row
 * column segments, in 16-byte pairs.  Registers are capped for two blocks per
 * multiprocessor (128 a thread).  To fit a tile and its successor, x_j is kept
 * in shared memory, not registers, and a diagonal tile is masked in place and
 * then taken as any other: float, complex float and double (paired reads)
 * spill nothing, double with single reads 4 bytes a thread.  Complex double
 * has twice the bytes an element: there one block of 16 warps (4 columns a
 * thread) a multiprocessor keeps the registers a thread, the warps and the
 * bytes in flight a multiprocessor of the others (28-40 bytes a thread
 * spilled, 48 in the former design).
 *
 * y = beta y is done inside the kernel when beta is not one, which needs a
 * cooperative launch: each block scales its share of y and arrives at a grid
 * barrier, and waits at it only when it begins its first tile's products,
 * with two tiles requested by then, so that the wait is all but free.  A
 * separate scaling kernel costs a second launch, and waiting at the barrier
 * before the loop, or at the first tile's shared reduction, ran slower; so
 * did the other layouts and work splits tried (BENCHMARKS.md). */
#include <cooperative_groups.h>
#include <utility>
#include "blas2_common.cuh"

namespace
{

constexpr int SB = 64; /* tile size */

/* Warps a block and blocks a multiprocessor (the register cap). */
template <class T>
struct symv_shape {
    static constexpr int TY = 8, MINB = 2;
};
template <>
struct symv_shape<cuDoubleComplex> {
    static constexpr int TY = 16, MINB = 1;
};

template <class T>
struct symv_args {
    const T *A;
    const T *x;
    T *y;
    int64_t n, lda, incx, incy;
    int64_t ntiles; /* stored tiles, diagonal ones included */
    int nbt;        /* tiles a side */
    T alpha, beta;
};

/* Where block column j starts in the list. */
template <bool LOWER>
__device__ __forceinline__ int64_t symv_col_start(int64_t nbt, int64_t j)
{
    return LOWER ? j * nbt - j * (j - 1) / 2 : j * (j + 1) / 2;
}

/* Where block b of G starts in the list: the pieces are of equal cost, a
 * tile costing one and each block column begun COLW more (the column's sums
 * leave through warp reductions and atomics, and x_j is read again before
 * the first product), so that a piece crossing many short columns, as the
 * last ones of the lower triangle and the first ones of the upper are, is
 * shorter; pieces of equal tile counts ran slower at 8192. */
constexpr int64_t COLW = 2;

/* The first tile t of block b's piece: the smallest t whose cost, t plus
 * COLW for each column begun by tiles 0 .. t-1, reaches b / G of the whole.
 * Within block column j (tiles col_start(j) < t <= col_start(j+1)) that cost
 * is t + COLW (j+1), so a binary search over columns in integers finds t,
 * and col gets the column of tile t (j, or j + 1 when t starts it): cheap
 * enough that blocks start reading tiles at once, where a search over tiles
 * with a square root per tile delayed them by a sixth of a small call. */
template <bool LOWER>
__device__ int64_t symv_piece_start(int64_t nbt, int64_t ntiles, int64_t b, int64_t G, int &col)
{
    const int64_t target = b * (ntiles + COLW * nbt) / G;
    col = 0;
    if (target <= 0)
        return 0;
    int64_t lo = 0, hi = nbt - 1;
    while (lo < hi) {
        const int64_t mid = (lo + hi) / 2;
        if (symv_col_start<LOWER>(nbt, mid + 1) + COLW * (mid + 1) >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    const int64_t t = kern_max64(symv_col_start<LOWER>(nbt, lo) + 1, target - COLW * (lo + 1));
    col = (int)(t < symv_col_start<LOWER>(nbt, lo + 1) ? lo : lo + 1);
    return t;
}

/* The tile after (bi, bj) in the list. */
template <bool LOWER>
__device__ __forceinline__ void symv_tile_next(int nbt, int &bi, int &bj)
{
    if (LOWER) {
        if (++bi == nbt)
            bi = ++bj;
    } else if (++bi > bj) {
        ++bj;
        bi = 0;
    }
}

/* Tile (bi, bj) and the matching piece of x (rows): pair reads when the tile
 * lies inside A, guarded single reads otherwise. */
template <class T, int TY, bool ALIGNED, bool LOWER>
__device__ __forceinline__ void symv_load(const symv_args<T> &a, int bi, int bj, int tx, int ty,
                                          kpair<T> (&t)[SB / TY], kpair<T> &xr)
{
    constexpr int CPT = SB / TY, LOG2_TY = TY == 8 ? 3 : 4;
    static_assert(TY == 1 << LOG2_TY, "TY is 8 or 16");
    const int64_t row = (int64_t)bi * SB + 2 * tx, col0 = (int64_t)bj * SB;
    const bool full = ((int64_t)bi + 1) * SB <= a.n && col0 + SB <= a.n;
    if (ALIGNED && full) {
        /* A diagonal tile's pairs wholly outside the stored triangle are not
         * read: those of columns ty + TY q with q outside [qlo, qhi]. */
        int qlo = 0, qhi = CPT - 1;
        if (bi == bj) {
            if (LOWER)
                qhi = (2 * tx + 1 - ty) >> LOG2_TY; /* floor */
            else
                qlo = (2 * tx - ty + TY - 1) >> LOG2_TY; /* ceiling */
        }
#pragma unroll
        for (int q = 0; q < CPT; q++) {
            const T *p = a.A + row + (col0 + ty + TY * q) * a.lda;
            t[q] = q >= qlo && q <= qhi ? *reinterpret_cast<const kpair<T> *>(p)
                                        : kpair<T>{ kzero<T>(), kzero<T>() };
        }
        xr.a = a.x[row * a.incx];
        xr.b = a.x[(row + 1) * a.incx];
        return;
    }
    const bool r0 = row < a.n, r1 = row + 1 < a.n;
#pragma unroll
    for (int q = 0; q < CPT; q++) {
        const int64_t c = col0 + ty + TY * q;
        const T *p = a.A + kern_min64(row, a.n - 1) + kern_min64(c, a.n - 1) * a.lda;
        t[q].a = r0 && c < a.n ? p[0] : kzero<T>();
        t[q].b = r1 && c < a.n ? p[1] : kzero<T>();
    }
    xr.a = r0 ? a.x[row * a.incx] : kzero<T>();
    xr.b = r1 ? a.x[(row + 1) * a.incx] : kzero<T>();
}

/* The loader's place in the block's piece of the list: the next tile to read
 * and the tiles left to read from there on (a piece fits an int: a matrix in
 * device memory has fewer than 2^31 tiles). */
struct symv_cursor {
    int left, bi, bj;
};

/* One tile in registers, with its coordinates; ok is false past the piece. */
template <class T, int CPT>
struct symv_slot {
    kpair<T> t[CPT], xr;
    int bi, bj;
    bool ok;
};

/* Read the cursor's tile into s and step the cursor. */
template <class T, int TY, bool ALIGNED, bool LOWER>
__device__ __forceinline__ void symv_load_next(const symv_args<T> &a, symv_cursor &c, int tx,
                                               int ty, symv_slot<T, SB / TY> &s)
{
    s.ok = c.left > 0;
    if (!s.ok)
        return;
    s.bi = c.bi;
    s.bj = c.bj;
    symv_load<T, TY, ALIGNED, LOWER>(a, c.bi, c.bj, tx, ty, s.t, s.xr);
    if (--c.left > 0)
        symv_tile_next<LOWER>(a.nbt, c.bi, c.bj);
}

/* y_j += alpha (the column products gathered in yc), j the block column col. */
template <class T, int TY>
__device__ __forceinline__ void symv_flush_col(const symv_args<T> &a, int col, int tx, int ty,
                                               const T (&yc)[SB / TY])
{
#pragma unroll
    for (int q = 0; q < SB / TY; q++) {
        const T sum = kwarp_sum(yc[q]);
        const int64_t c = (int64_t)col * SB + ty + TY * q;
        if (tx == 0 && c < a.n)
            katomic_add(&a.y[c * a.incy], kmul(a.alpha, sum));
    }
}

using symv_token = cooperative_groups::grid_group::arrival_token;

/* y = beta y on this block's share of y, then arrival at the grid barrier
 * that every block passes before it adds to y. */
template <class T>
__device__ symv_token symv_scale_y(const symv_args<T> &a)
{
    const int64_t lo = (int64_t)blockIdx.x * a.n / gridDim.x;
    const int64_t hi = ((int64_t)blockIdx.x + 1) * a.n / gridDim.x;
    for (int64_t i = lo + threadIdx.x; i < hi; i += blockDim.x)
        kern_scale_elem(a.beta, &a.y[i * a.incy]);
    return cooperative_groups::this_grid().barrier_arrive();
}

/* SCALE: apply beta first (a cooperative launch), else beta is one. */
template <class T, bool ALIGNED, bool LOWER, bool SCALE>
__global__ void __launch_bounds__(32 * symv_shape<T>::TY, symv_shape<T>::MINB)
    symv_kernel(symv_args<T> a)
{
    constexpr int TY = symv_shape<T>::TY, CPT = SB / TY;
    __shared__ T srow[2][TY][SB]; /* row products of a tile, by warp; two alternate */
    __shared__ T sx[SB];          /* x_j of the current block column */
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;

    /* This block's piece of the list: its two ends, searched for by two
     * warps at once. */
    __shared__ int piece_end[2], piece_col;
    if (threadIdx.x % 32 == 0 && threadIdx.x < 64) {
        const int e = threadIdx.x / 32;
        int col;
        piece_end[e] =
            (int)symv_piece_start<LOWER>(a.nbt, a.ntiles, (int64_t)blockIdx.x + e, gridDim.x, col);
        if (e == 0)
            piece_col = col;
    }
    __syncthreads();
    const int first = piece_end[0];
    symv_cursor cur;
    cur.left = piece_end[1] - first;
    cur.bj = piece_col;
    cur.bi = (int)((LOWER ? cur.bj : 0) + (first - symv_col_start<LOWER>(a.nbt, cur.bj)));

    symv_slot<T, CPT> slot[2];
    symv_load_next<T, TY, ALIGNED, LOWER>(a, cur, tx, ty, slot[0]);
    /* The wait comes as late as it can, before the first tile's products,
     * with two tiles requested by then. */
    symv_token scaled = SCALE ? symv_scale_y(a) : symv_token();
    bool waited = !SCALE;

    T yc[CPT];
#pragma unroll
    for (int q = 0; q < CPT; q++)
        yc[q] = kzero<T>();
    int col = -1, buf = 0;
    bool live = true;
    while (live) {
        /* Two slots taken in turn, unrolled so that no register moves wait
         * on the loads. */
#pragma unroll
        for (int s = 0; s < 2; s++) {
            symv_slot<T, CPT> &cs = slot[s];
            if (!cs.ok) {
                live = false;
                break;
            }
            symv_load_next<T, TY, ALIGNED, LOWER>(a, cur, tx, ty, slot[s ^ 1]);
            if (cs.bj != col) {
                /* Every thread has finished with sx: the last tile's barrier
                 * came after its products. */
                if (col >= 0)
                    symv_flush_col<T, TY>(a, col, tx, ty, yc);
                col = cs.bj;
                if (threadIdx.x < SB) {
                    const int64_t c = (int64_t)col * SB + threadIdx.x;
                    sx[threadIdx.x] = c < a.n ? a.x[c * a.incx] : kzero<T>();
                }
#pragma unroll
                for (int q = 0; q < CPT; q++)
                    yc[q] = kzero<T>();
                if (SCALE && !waited) {
                    /* a block barrier too */
                    cooperative_groups::this_grid().barrier_wait(std::move(scaled));
                    waited = true;
                } else {
                    __syncthreads();
                }
            }
            T rp0 = kzero<T>(), rp1 = kzero<T>();
            if (cs.bi == cs.bj) {
                /* Only the stored triangle counts: the rest is zeroed in
                 * place, and so is the diagonal, which serves its row once
                 * (the row products start with it), by its real part for a
                 * Hermitian matrix, and not its column.  x_r is x_c there. */
                const int dr = 2 * tx - ty; /* row less column, plus TY q - e */
#pragma unroll
                for (int q = 0; q < CPT; q++) {
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        const int k = dr + e - TY * q;
                        T &v = e ? cs.t[q].b : cs.t[q].a;
                        const T dv = k == 0 ? kreal(v) : kzero<T>();
                        if (e)
                            rp1 = kfma(dv, cs.xr.b, rp1);
                        else
                            rp0 = kfma(dv, cs.xr.a, rp0);
                        v = (LOWER ? k > 0 : k < 0) ? v : kzero<T>();
                    }
                }
            }
            /* A_ij x_j to the rows, A_ij^H x_i to the columns. */
#pragma unroll
            for (int q = 0; q < CPT; q++) {
                const T xq = sx[ty + TY * q];
                rp0 = kfma(cs.t[q].a, xq, rp0);
                rp1 = kfma(cs.t[q].b, xq, rp1);
                yc[q] = kfma(kconj(cs.t[q].a), cs.xr.a, yc[q]);
                yc[q] = kfma(kconj(cs.t[q].b), cs.xr.b, yc[q]);
            }
            /* The tile's rows: summed across the block, added to y.  Two
             * shared buffers alternate, so one barrier a tile suffices. */
            const int64_t row0 = (int64_t)cs.bi * SB;
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
    }
    if (SCALE && !waited) /* a block with no tile */
        cooperative_groups::this_grid().barrier_wait(std::move(scaled));
    if (col >= 0)
        symv_flush_col<T, TY>(a, col, tx, ty, yc);
}

/* Two blocks a multiprocessor (one for complex double), fewer where the
 * device holds fewer (a cooperative grid must fit it), never more blocks
 * than tiles. */
template <class T, bool ALIGNED, bool LOWER, bool SCALE>
int symv_launch(cudaStream_t s, const symv_args<T> &a, const kern_device &dev)
{
    constexpr int TY = symv_shape<T>::TY, MINB = symv_shape<T>::MINB;
    auto *const kernel = symv_kernel<T, ALIGNED, LOWER, SCALE>;
    static std::atomic<int> per_sm_of[TESS_MAX_DEVICES];
    int per_sm;
    const int err = kern_blocks_per_sm(kernel, 32 * TY, 0, dev.id, per_sm_of, &per_sm);
    if (err)
        return err;
    const int64_t blocks = kern_min64((int64_t)dev.nsm * kern_min64(per_sm, MINB), a.ntiles);
    return kern_launch(kernel, dim3((unsigned)blocks), dim3(32 * TY), 0, s,
                       SCALE ? KERN_LAUNCH_COOPERATIVE : KERN_LAUNCH_PLAIN, a);
}

/* Devices found unable to hold a cooperative grid at once (shared under MPS
 * with fewer multiprocessors): they get y = beta y from a kernel of its own
 * and the plain launch after it, each of which the tests run on their own
 * (alpha = 0, beta = 1). */
std::atomic<bool> symv_no_cooperative[TESS_MAX_DEVICES];

template <class T, bool ALIGNED, bool LOWER>
int symv_launch_beta(cudaStream_t s, const symv_args<T> &a, const kern_device &dev)
{
    if (kis_one(a.beta))
        return symv_launch<T, ALIGNED, LOWER, false>(s, a, dev);
    if (!symv_no_cooperative[dev.id].load(std::memory_order_relaxed)) {
        if (symv_launch<T, ALIGNED, LOWER, true>(s, a, dev) == 0)
            return 0;
        symv_no_cooperative[dev.id].store(true, std::memory_order_relaxed);
    }
    const int err = kern_scale_vec(s, a.n, a.beta, a.y, a.incy);
    return err ? err : symv_launch<T, ALIGNED, LOWER, false>(s, a, dev);
}

template <class T>
int symv_typed(cudaStream_t s, tess_uplo_t uplo, int64_t n, const void *alpha_p, const T *A,
               int64_t lda, const T *x, int64_t incx, const void *beta_p, T *y, int64_t incy)
{
    symv_args<T> a;
    a.alpha = *static_cast<const T *>(alpha_p);
    a.beta = *static_cast<const T *>(beta_p);
    a.A = A;
    a.lda = lda;
    a.n = n;
    a.x = kern_vec_base(x, n, incx);
    a.incx = incx;
    a.y = kern_vec_base(y, n, incy);
    a.incy = incy;
    const int64_t nbt = kern_cdiv64(n, SB);
    a.nbt = (int)nbt;
    a.ntiles = nbt * (nbt + 1) / 2;

    if (kis_zero(a.alpha))
        return kern_scale_vec(s, n, a.beta, a.y, incy);
    kern_device dev;
    const int err = kern_current_device(&dev);
    if (err)
        return err;
    const bool aligned = kern_pairs_aligned(A, lda), lower = uplo == TessLower;
    if (aligned && lower)
        return symv_launch_beta<T, true, true>(s, a, dev);
    if (aligned)
        return symv_launch_beta<T, true, false>(s, a, dev);
    if (lower)
        return symv_launch_beta<T, false, true>(s, a, dev);
    return symv_launch_beta<T, false, false>(s, a, dev);
}

} // namespace

extern "C" int kern_cuda_symv(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_uplo_t uplo,
                              int64_t n, const void *alpha, const void *A, int64_t lda,
                              const void *x, int64_t incx, const void *beta, void *y, int64_t incy)
{
    (void)h;
    if (n == 0)
        return 0;
    return kern_by_type(t, [&](auto z) {
        using T = decltype(z);
        return symv_typed(s, uplo, n, alpha, static_cast<const T *>(A), lda,
                          static_cast<const T *>(x), incx, beta, static_cast<T *>(y), incy);
    });
}
