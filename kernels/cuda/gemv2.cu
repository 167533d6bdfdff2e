/* One tile's share of a GEMV or SYMV/HEMV through the runtime: both products
 * of an m x n tile from one read of it,
 *   y1 = alpha A x2 + beta1 y1   and   y2 = alpha op(A) x1 + beta2 y2,
 * either alone, or a diagonal tile's y = alpha A x + beta y with A symmetric
 * (Hermitian) and stored in one triangle.  The sums run in an order fixed by
 * the arguments and the device model, with no floating-point atomics, so
 * that a call repeats bit for bit: the runtime's fixed order of the tiles'
 * contributions then makes the whole product repeat.
 *
 * The tile is cut into 64 x 64 sub-tiles, read as symv.cu reads them: blocks
 * of TY warps, thread (tx, ty) holding rows 2tx and 2tx+1 of columns ty,
 * ty + TY, ... of a sub-tile, read in 16-byte pairs, the next sub-tile in
 * flight while the current one is used.  Block (g, s) takes the column panels
 * (64 columns) of group g and, in each, the sub-tiles of row segment s, top
 * to bottom.  A x2 goes to the rows: each sub-tile's row sums are reduced
 * across the block in shared memory and added, panel after panel, into
 * partial g of y1 (by the same thread each time, so no synchronisation).
 * op(A) x1 goes to the columns: each thread gathers its columns' sums over
 * the segment in registers, reduced across the warp into partial s of the
 * panel's piece of y2.  A second kernel adds the partials in index order and
 * applies alpha and beta.
 *
 * The partials live in the context's scratch: groups of panels are made
 * large enough that they fit.  The grid is sized to one wave of resident
 * blocks (four for a diagonal tile, where blocks above or below the stored
 * triangle have little or nothing to do). */
#include <type_traits>
#include "blas2_common.cuh"

namespace
{

constexpr int SB = 64; /* sub-tile side */

/* Warps a block and blocks a multiprocessor (the register cap), as symv.cu. */
template <class T>
struct g2_shape {
    static constexpr int TY = 8, MINB = 2;
};
template <>
struct g2_shape<cuDoubleComplex> {
    static constexpr int TY = 16, MINB = 1;
};

/* How the tile is read: whole, or a diagonal tile's stored triangle. */
enum { G2_FULL, G2_LOWER, G2_UPPER };

template <class T>
struct g2_args {
    const T *A;
    const T *x1, *x2; /* element i at x[i inc] (kern_vec_base) */
    T *p1, *p2;       /* partials: p1[g m + i] of y1, p2[s n + j] of y2 */
    int64_t m, n, lda, incx1, incx2;
    int mt, nt;     /* sub-tiles down and across */
    int group, seg; /* panels a block column group, sub-tiles a row segment */
};

/* The sub-tiles [lo, hi) of row segment s in panel cp that hold stored data. */
template <int DIAG>
__host__ __device__ __forceinline__ void g2_rows(int mt, int seg, int s, int cp, int &lo, int &hi)
{
    lo = s * seg;
    hi = lo + seg < mt ? lo + seg : mt;
    if (DIAG == G2_LOWER && lo < cp)
        lo = cp;
    if (DIAG == G2_UPPER && hi > cp + 1)
        hi = cp + 1;
}

/* Whether partial g of y1 holds anything for row sub-tile si: some panel of
 * group g has a stored sub-tile in that row. */
template <int DIAG>
__host__ __device__ __forceinline__ bool g2_p1_valid(int nt, int group, int g, int si)
{
    const int first = g * group, last = (first + group < nt ? first + group : nt) - 1;
    return DIAG == G2_FULL || (DIAG == G2_LOWER ? first <= si : last >= si);
}

/* Whether partial s of y2 holds anything for column sub-tile sj. */
template <int DIAG>
__host__ __device__ __forceinline__ bool g2_p2_valid(int mt, int seg, int s, int sj)
{
    int lo, hi;
    g2_rows<DIAG>(mt, seg, s, sj, lo, hi);
    return lo < hi;
}

/* The block's place in its list of sub-tiles: panel k of its group, row
 * sub-tile si; ok false past the end. */
struct g2_cursor {
    int k, si, lo, hi;
    bool ok;
};

template <int DIAG>
__device__ __forceinline__ void g2_seek(const int mt, const int nt, const int group, const int seg,
                                        g2_cursor &c)
{
    /* from panel k on, the first one with stored sub-tiles in the segment */
    for (; c.k < group && (int)blockIdx.x * group + c.k < nt; c.k++) {
        g2_rows<DIAG>(mt, seg, blockIdx.y, blockIdx.x * group + c.k, c.lo, c.hi);
        if (c.lo < c.hi) {
            c.si = c.lo;
            c.ok = true;
            return;
        }
    }
    c.ok = false;
}

/* One sub-tile in registers with the pieces of x1 its rows need. */
template <class T, int CPT>
struct g2_slot {
    kpair<T> t[CPT], xr;
    int si, k;
    bool ok;
};

/* Sub-tile (si, cp): pair reads when it lies inside the tile, guarded single
 * reads otherwise; a diagonal sub-tile's pairs wholly outside the stored
 * triangle are not read. */
template <class T, int TY, bool ALIGNED, bool COLS, int DIAG>
__device__ __forceinline__ void g2_load(const g2_args<T> &a, int si, int cp, int tx, int ty,
                                        g2_slot<T, SB / TY> &s)
{
    constexpr int CPT = SB / TY, LOG2_TY = TY == 8 ? 3 : 4;
    static_assert(TY == 1 << LOG2_TY, "TY is 8 or 16");
    const int64_t row = (int64_t)si * SB + 2 * tx, col0 = (int64_t)cp * SB;
    const bool full = ((int64_t)si + 1) * SB <= a.m && col0 + SB <= a.n;
    if (ALIGNED && full) {
        int qlo = 0, qhi = CPT - 1;
        if (DIAG != G2_FULL && si == cp) {
            if (DIAG == G2_LOWER)
                qhi = (2 * tx + 1 - ty) >> LOG2_TY; /* floor */
            else
                qlo = (2 * tx - ty + TY - 1) >> LOG2_TY; /* ceiling */
        }
#pragma unroll
        for (int q = 0; q < CPT; q++) {
            const T *p = a.A + row + (col0 + ty + TY * q) * a.lda;
            s.t[q] = q >= qlo && q <= qhi ? *reinterpret_cast<const kpair<T> *>(p)
                                          : kpair<T>{ kzero<T>(), kzero<T>() };
        }
        if (COLS) {
            s.xr.a = a.x1[row * a.incx1];
            s.xr.b = a.x1[(row + 1) * a.incx1];
        }
        return;
    }
    const bool r0 = row < a.m, r1 = row + 1 < a.m;
#pragma unroll
    for (int q = 0; q < CPT; q++) {
        const int64_t c = col0 + ty + TY * q;
        const T *p = a.A + kern_min64(row, a.m - 1) + kern_min64(c, a.n - 1) * a.lda;
        s.t[q].a = r0 && c < a.n ? p[0] : kzero<T>();
        s.t[q].b = r1 && c < a.n ? p[1] : kzero<T>();
    }
    if (COLS) {
        s.xr.a = r0 ? a.x1[row * a.incx1] : kzero<T>();
        s.xr.b = r1 ? a.x1[(row + 1) * a.incx1] : kzero<T>();
    }
}

/* Reads the cursor's sub-tile into s and steps the cursor. */
template <class T, int TY, bool ALIGNED, bool COLS, int DIAG>
__device__ __forceinline__ void g2_load_next(const g2_args<T> &a, g2_cursor &c, int tx, int ty,
                                             g2_slot<T, SB / TY> &s)
{
    s.ok = c.ok;
    if (!c.ok)
        return;
    s.si = c.si;
    s.k = c.k;
    g2_load<T, TY, ALIGNED, COLS, DIAG>(a, c.si, (int)blockIdx.x * a.group + c.k, tx, ty, s);
    if (++c.si == c.hi) {
        c.k++;
        g2_seek<DIAG>(a.mt, a.nt, a.group, a.seg, c);
    }
}

/* Partial s of y2 on panel cp: the warp's column sums. */
template <class T, int TY>
__device__ __forceinline__ void g2_flush_cols(const g2_args<T> &a, int cp, int tx, int ty,
                                              const T (&yc)[SB / TY])
{
#pragma unroll
    for (int q = 0; q < SB / TY; q++) {
        const T sum = kwarp_sum(yc[q]);
        const int64_t c = (int64_t)cp * SB + ty + TY * q;
        if (tx == 0 && c < a.n)
            a.p2[(int64_t)blockIdx.y * a.n + c] = sum;
    }
}

/* ROWS: A x2 into p1; COLS: op(A) x1 into p2 (conjugated when CONJ); DIAG: a
 * diagonal tile read through its stored triangle, both products of one x. */
template <class T, bool ALIGNED, bool ROWS, bool COLS, bool CONJ, int DIAG>
__global__ void __launch_bounds__(32 * g2_shape<T>::TY, g2_shape<T>::MINB)
    gemv2_kernel(g2_args<T> a)
{
    constexpr int TY = g2_shape<T>::TY, CPT = SB / TY;
    __shared__ T srow[ROWS ? 2 : 1][TY][SB]; /* row sums of a sub-tile by warp; two alternate */
    __shared__ T sx[SB];                     /* x2 of the current panel */
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;

    g2_cursor cur;
    cur.k = 0;
    g2_seek<DIAG>(a.mt, a.nt, a.group, a.seg, cur);
    g2_slot<T, CPT> slot[2];
    g2_load_next<T, TY, ALIGNED, COLS, DIAG>(a, cur, tx, ty, slot[0]);

    T yc[CPT];
#pragma unroll
    for (int q = 0; q < CPT; q++)
        yc[q] = kzero<T>();
    int k = -1, buf = 0;
    bool live = true;
    while (live) {
#pragma unroll
        for (int s = 0; s < 2; s++) {
            g2_slot<T, CPT> &cs = slot[s];
            if (!cs.ok) {
                live = false;
                break;
            }
            g2_load_next<T, TY, ALIGNED, COLS, DIAG>(a, cur, tx, ty, slot[s ^ 1]);
            const int cp = (int)blockIdx.x * a.group + cs.k;
            if (cs.k != k) {
                if (COLS && k >= 0)
                    g2_flush_cols<T, TY>(a, (int)blockIdx.x * a.group + k, tx, ty, yc);
                k = cs.k;
                if (ROWS) {
                    /* every thread is done with sx: the last sub-tile's barrier came
                     * after its products */
                    if (threadIdx.x < SB) {
                        const int64_t c = (int64_t)cp * SB + threadIdx.x;
                        sx[threadIdx.x] = c < a.n ? a.x2[c * a.incx2] : kzero<T>();
                    }
                    __syncthreads();
                }
#pragma unroll
                for (int q = 0; q < CPT; q++)
                    yc[q] = kzero<T>();
            }
            T rp0 = kzero<T>(), rp1 = kzero<T>();
            if (DIAG != G2_FULL && cs.si == cp) {
                /* Only the stored triangle counts: the rest is zeroed in place,
                 * and so is the diagonal, which serves its row once (by its real
                 * part when Hermitian) and not its column; x1 is x2 there. */
                const int dr = 2 * tx - ty;
#pragma unroll
                for (int q = 0; q < CPT; q++) {
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        const int d = dr + e - TY * q;
                        T &v = e ? cs.t[q].b : cs.t[q].a;
                        const T dv = d == 0 ? (CONJ ? kreal(v) : v) : kzero<T>();
                        if (e)
                            rp1 = kfma(dv, cs.xr.b, rp1);
                        else
                            rp0 = kfma(dv, cs.xr.a, rp0);
                        v = (DIAG == G2_LOWER ? d > 0 : d < 0) ? v : kzero<T>();
                    }
                }
            }
#pragma unroll
            for (int q = 0; q < CPT; q++) {
                if (ROWS) {
                    const T xq = sx[ty + TY * q];
                    rp0 = kfma(cs.t[q].a, xq, rp0);
                    rp1 = kfma(cs.t[q].b, xq, rp1);
                }
                if (COLS) {
                    yc[q] = kfma(CONJ ? kconj(cs.t[q].a) : cs.t[q].a, cs.xr.a, yc[q]);
                    yc[q] = kfma(CONJ ? kconj(cs.t[q].b) : cs.t[q].b, cs.xr.b, yc[q]);
                }
            }
            if (ROWS) {
                /* the sub-tile's rows summed across the block, warps in order, into
                 * partial g: stored by its group's first panel there, added after */
                srow[buf][ty][2 * tx] = rp0;
                srow[buf][ty][2 * tx + 1] = rp1;
                __syncthreads();
                const int64_t r = (int64_t)cs.si * SB + threadIdx.x;
                if (threadIdx.x < SB && r < a.m) {
                    T sum = kzero<T>();
#pragma unroll
                    for (int w = 0; w < TY; w++)
                        sum = kadd(sum, srow[buf][w][threadIdx.x]);
                    T *p = &a.p1[(int64_t)blockIdx.x * a.m + r];
                    const bool first =
                        DIAG == G2_UPPER
                            ? cs.k == kern_max64(0, cs.si - (int64_t)blockIdx.x * a.group)
                            : cs.k == 0;
                    *p = first ? sum : kadd(*p, sum);
                }
                buf ^= 1;
            }
        }
    }
    if (COLS && k >= 0)
        g2_flush_cols<T, TY>(a, (int)blockIdx.x * a.group + k, tx, ty, yc);
}

template <class T>
struct g2_reduce_args {
    const T *p1, *p2;
    T *y1, *y2;
    int64_t m, n, incy1, incy2;
    int ncg, nseg, group, seg, mt, nt;
    T alpha, beta1, beta2;
};

/* y = alpha sum + beta y, beta 0 not reading y. */
template <class T>
__device__ __forceinline__ void g2_store(T alpha, T sum, T beta, T *y)
{
    const T v = kmul(alpha, sum);
    *y = kis_zero(beta) ? v : kfma(beta, *y, v);
}

/* Thread i < m (when y1 is asked for): y1[i] from p1 (and, diagonal, p2); the
 * next n threads (when y2 is): y2 from p2.  The partials are added in index
 * order, the invalid ones skipped. */
template <class T, int DIAG>
__global__ void gemv2_reduce(g2_reduce_args<T> r)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, m1 = r.y1 ? r.m : 0;
    if (i < m1) {
        const int si = (int)(i / SB);
        T sum = kzero<T>();
        for (int g = 0; g < r.ncg; g++)
            if (g2_p1_valid<DIAG>(r.nt, r.group, g, si))
                sum = kadd(sum, r.p1[(int64_t)g * r.m + i]);
        if (DIAG != G2_FULL)
            for (int s = 0; s < r.nseg; s++)
                if (g2_p2_valid<DIAG>(r.mt, r.seg, s, si))
                    sum = kadd(sum, r.p2[(int64_t)s * r.n + i]);
        g2_store(r.alpha, sum, r.beta1, &r.y1[i * r.incy1]);
    } else if (DIAG == G2_FULL && r.y2 && i - m1 < r.n) {
        const int64_t j = i - m1;
        T sum = kzero<T>();
        for (int s = 0; s < r.nseg; s++)
            sum = kadd(sum, r.p2[(int64_t)s * r.n + j]);
        g2_store(r.alpha, sum, r.beta2, &r.y2[j * r.incy2]);
    }
}

/* The geometry of one launch: groups of panels and row segments. */
struct g2_geometry {
    int group, seg, ncg, nseg;
};

/* About waves x resident blocks, one panel a group when the partials fit,
 * else as few panels a group as make them fit (fewer segments first). */
template <class T>
int g2_plan(int64_t m, int64_t n, bool rows, bool cols, int64_t resident, int waves,
            size_t scratch_bytes, g2_geometry *g)
{
    const int mt = (int)kern_cdiv64(m, SB), nt = (int)kern_cdiv64(n, SB);
    auto bytes = [&](int ncg, int nseg) {
        return ((rows ? (size_t)ncg * (size_t)m : 0) + (cols ? (size_t)nseg * (size_t)n : 0)) *
               sizeof(T);
    };
    for (g->group = 1;; g->group *= 2) {
        g->ncg = (int)kern_cdiv64(nt, g->group);
        int64_t nseg = kern_max64(1, waves * resident / g->ncg);
        nseg = kern_min64(nseg, mt);
        while (nseg > 1 && bytes(g->ncg, (int)nseg) > scratch_bytes)
            nseg--;
        g->seg = (int)kern_cdiv64(mt, nseg);
        g->nseg = (int)kern_cdiv64(mt, g->seg);
        if (bytes(g->ncg, g->nseg) <= scratch_bytes)
            return 0;
        if (g->group >= nt)
            return TESS_EINTERNAL; /* scratch below m + n elements: not a tile's context */
    }
}

template <class T>
using g2_fn = void (*)(g2_args<T>);

template <class T, bool ALIGNED, bool ROWS, bool COLS, bool CONJ, int DIAG>
int g2_instance(int dev, g2_fn<T> *fn, int *per_sm)
{
    static std::atomic<int> per_sm_of[TESS_MAX_DEVICES];
    *fn = gemv2_kernel<T, ALIGNED, ROWS, COLS, CONJ, DIAG>;
    return kern_blocks_per_sm(*fn, 32 * g2_shape<T>::TY, 0, dev, per_sm_of, per_sm);
}

/* The instantiation for the products asked and the layout of A; CJ: ^H
 * rather than ^T (and a diagonal tile Hermitian), complex types only. */
template <class T, bool CJ>
int g2_pick_conj(bool aligned, bool rows, bool cols, int diag, int dev, g2_fn<T> *fn, int *per_sm)
{
#define G2_BY_ALIGN(R, C, D)                                                                       \
    (aligned ? g2_instance<T, true, R, C, CJ, D>(dev, fn, per_sm)                                  \
             : g2_instance<T, false, R, C, CJ, D>(dev, fn, per_sm))
    if (diag == G2_LOWER)
        return G2_BY_ALIGN(true, true, G2_LOWER);
    if (diag == G2_UPPER)
        return G2_BY_ALIGN(true, true, G2_UPPER);
    if (rows && cols)
        return G2_BY_ALIGN(true, true, G2_FULL);
    if (rows) {
        if constexpr (CJ)
            return TESS_EINTERNAL; /* g2_pick never asks: A x does not conjugate */
        else
            return G2_BY_ALIGN(true, false, G2_FULL);
    }
    return G2_BY_ALIGN(false, true, G2_FULL);
#undef G2_BY_ALIGN
}

/* Conjugation is the identity on real types: their one instantiation serves
 * both, and A x alone never conjugates. */
template <class T>
int g2_pick(bool aligned, bool rows, bool cols, bool cj, int diag, int dev, g2_fn<T> *fn,
            int *per_sm)
{
    constexpr bool cplx =
        std::is_same<T, cuComplex>::value || std::is_same<T, cuDoubleComplex>::value;
    if constexpr (cplx) {
        if (cj && (cols || diag != G2_FULL))
            return g2_pick_conj<T, true>(aligned, rows, cols, diag, dev, fn, per_sm);
    }
    return g2_pick_conj<T, false>(aligned, rows, cols, diag, dev, fn, per_sm);
}

template <class T>
int gemv2_typed(cudaStream_t s, void *scratch, size_t scratch_bytes, tess_part_t part, bool herm,
                int64_t m, int64_t n, const void *alpha_p, const T *A, int64_t lda, const T *x1,
                int64_t incx1, const T *x2, int64_t incx2, const void *beta1_p, T *y1,
                int64_t incy1, const void *beta2_p, T *y2, int64_t incy2)
{
    const T alpha = *static_cast<const T *>(alpha_p);
    const T beta1 = y1 ? *static_cast<const T *>(beta1_p) : kzero<T>();
    const T beta2 = y2 ? *static_cast<const T *>(beta2_p) : kzero<T>();
    y1 = y1 ? kern_vec_base(y1, m, incy1) : nullptr;
    y2 = y2 ? kern_vec_base(y2, n, incy2) : nullptr;
    int err;
    if (m == 0 || n == 0 || kis_zero(alpha)) {
        if (y1 && (err = kern_scale_vec(s, m, beta1, y1, incy1)))
            return err;
        return y2 ? kern_scale_vec(s, n, beta2, y2, incy2) : 0;
    }
    const int diag = part == TessLowerPart ? G2_LOWER : part == TessUpperPart ? G2_UPPER : G2_FULL;
    g2_args<T> a;
    a.A = A;
    a.lda = lda;
    a.m = m;
    a.n = n;
    if (diag != G2_FULL) {
        /* both products of the one x into the one y */
        x1 = x2;
        incx1 = incx2;
        y2 = nullptr;
    }
    const bool rows = y1 != nullptr, cols = y2 != nullptr || diag != G2_FULL;
    a.x1 = cols ? kern_vec_base(x1, m, incx1) : nullptr;
    a.incx1 = incx1;
    a.x2 = rows ? kern_vec_base(x2, n, incx2) : nullptr;
    a.incx2 = incx2;
    a.mt = (int)kern_cdiv64(m, SB);
    a.nt = (int)kern_cdiv64(n, SB);

    kern_device dev;
    if ((err = kern_current_device(&dev)))
        return err;
    g2_fn<T> fn;
    int per_sm;
    if ((err =
             g2_pick<T>(kern_pairs_aligned(A, lda), rows, cols, herm, diag, dev.id, &fn, &per_sm)))
        return err;
    g2_geometry g;
    if ((err = g2_plan<T>(m, n, rows, cols, (int64_t)per_sm * dev.nsm, diag == G2_FULL ? 1 : 4,
                          scratch_bytes, &g)))
        return err;
    a.group = g.group;
    a.seg = g.seg;
    a.p1 = static_cast<T *>(scratch);
    a.p2 = a.p1 + (rows ? (int64_t)g.ncg * m : 0);
    fn<<<dim3((unsigned)g.ncg, (unsigned)g.nseg), 32 * g2_shape<T>::TY, 0, s>>>(a);
    KERN_LAUNCH_CHECK();

    g2_reduce_args<T> r;
    r.p1 = a.p1;
    r.p2 = a.p2;
    r.y1 = y1;
    r.y2 = y2;
    r.m = m;
    r.n = n;
    r.incy1 = incy1;
    r.incy2 = incy2;
    r.ncg = g.ncg;
    r.nseg = g.nseg;
    r.group = g.group;
    r.seg = g.seg;
    r.mt = a.mt;
    r.nt = a.nt;
    r.alpha = alpha;
    r.beta1 = beta1;
    r.beta2 = beta2;
    const int threads = 256;
    const unsigned blocks = (unsigned)kern_cdiv64((y1 ? m : 0) + (y2 ? n : 0), threads);
    if (diag == G2_LOWER)
        gemv2_reduce<T, G2_LOWER><<<blocks, threads, 0, s>>>(r);
    else if (diag == G2_UPPER)
        gemv2_reduce<T, G2_UPPER><<<blocks, threads, 0, s>>>(r);
    else
        gemv2_reduce<T, G2_FULL><<<blocks, threads, 0, s>>>(r);
    KERN_LAUNCH_CHECK();
    return 0;
}

} // namespace

extern "C" int kern_cuda_gemv2(kern_type_t t, cudaStream_t s, void *scratch, size_t scratch_bytes,
                               tess_part_t part, bool herm, int64_t m, int64_t n, const void *alpha,
                               const void *A, int64_t lda, const void *x1, int64_t incx1,
                               const void *x2, int64_t incx2, const void *beta1, void *y1,
                               int64_t incy1, const void *beta2, void *y2, int64_t incy2)
{
    return kern_by_type(t, [&](auto z) {
        using T = decltype(z);
        return gemv2_typed<T>(s, scratch, scratch_bytes, part, herm, m, n, alpha,
                              static_cast<const T *>(A), lda, static_cast<const T *>(x1), incx1,
                              static_cast<const T *>(x2), incx2, beta1, static_cast<T *>(y1), incy1,
                              beta2, static_cast<T *>(y2), incy2);
    });
}
