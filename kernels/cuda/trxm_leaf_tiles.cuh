/* Staging T: a block's tiles of T read from A into registers, then stored in
 * shared memory transposed, conjugated and cut to the triangle as the case
 * needs, so that the solve and the multiply read plain tiles down their
 * columns whatever the case.  Also where each tile sits among the block's.
 *
 * A block holds NBLK sub-blocks.  With few vectors the recursion's bottom
 * level is bound by launches, not by the device: each of cuBLAS's products
 * with k <= 256 takes longer for the host to launch than for the device to
 * run, the device idle in between, and the leaves as long again.  A block of
 * NBLK = 2 tiles finishes the bottom level in one launch: its three tiles
 * stay in shared memory, and for each sub-block c in dependency order, acc =
 * T(c,b) x_b for the sub-block b it depends on, then x_c := T(c,c)^-1 (x_c -
 * acc).  Against leaves of one tile this made DTRSM with few right-hand
 * sides faster and left 16384^2 unchanged.  Four tiles, restaged through
 * shared memory per group of vectors (ten tiles do not fit), ran slower than
 * cuBLAS: the restaging, not the launches, became the cost (BENCHMARKS.md). */
#ifndef KERN_CUDA_TRXM_LEAF_TILES_CUH
#define KERN_CUDA_TRXM_LEAF_TILES_CUH

#include "scalar.cuh"
#include "trxm_leaf_common.cuh"

namespace
{

/* Tiles of a block of NBLK sub-blocks, its triangle of tiles, and where
 * tile (c, b) sits among them (b <= c when T is lower, b >= c when upper). */
template <int NBLK>
__host__ __device__ constexpr int block_tiles()
{
    return NBLK * (NBLK + 1) / 2;
}

template <int NBLK, bool LOWER>
__device__ __forceinline__ int tile_slot(int c, int b)
{
    if (!LOWER) {
        c = NBLK - 1 - c;
        b = NBLK - 1 - b;
    }
    return c * (c + 1) / 2 + b;
}

/* Is tile (c, b) in the triangle of tiles.  A block always has all NBLK
 * sub-blocks: the one-tile kernel takes k <= NB and the two-tile one
 * NB < k <= 2 NB (leaf_launch_case). */
template <bool LOWER>
__host__ __device__ constexpr bool tile_in_block(int c, int b)
{
    return LOWER ? b <= c : b >= c;
}

/* Where this thread's elements of tile (c, b) of T (rows c NB.., columns
 * b NB..) come from in A and go to in sT, T(i,j) at sT[i + j (NB+1)]: it
 * reads A(ar + p, ac + q0 + QSTEP e) through one pointer and one stride,
 * which keeps the compiler from holding an address per element. */
template <class T, int NB>
struct tile_map {
    static constexpr int LDS = NB + 1, STAGE = NB * NB / THREADS, QSTEP = THREADS / NB;
    bool tr;
    int ar, ac, p, q0;
    __device__ __forceinline__ tile_map(const leaf_args<T> &a, int c, int b)
        : tr(a.tr), ar(a.tr ? b * NB : c * NB), ac(a.tr ? c * NB : b * NB), p(threadIdx.x % NB),
          q0(threadIdx.x / NB)
    {
    }
    /* element e's row and column in the tile of T */
    __device__ __forceinline__ int row(int e) const
    {
        return tr ? q0 + QSTEP * e : p;
    }
    __device__ __forceinline__ int col(int e) const
    {
        return tr ? p : q0 + QSTEP * e;
    }
};

/* Issues this thread's reads of tile (c, b) of T into av, zeros outside
 * the matrix and, on a diagonal tile, outside the triangle and on a unit
 * diagonal or when solving. */
template <class T, int NB, leaf_op OP>
__device__ __forceinline__ void load_tile(const leaf_args<T> &a, int c, int b,
                                          T (&av)[tile_map<T, NB>::STAGE])
{
    using M = tile_map<T, NB>;
    constexpr bool LOWER = op_lower<OP>(), SOLVE = op_solve<OP>();
    const M t(a, c, b);
    const T *src = a.A + t.ar + t.p + (int64_t)(t.ac + t.q0) * a.lda;
    const int64_t src_step = (int64_t)M::QSTEP * a.lda;
#pragma unroll
    for (int e = 0; e < M::STAGE; e++) {
        const int i = t.row(e), j = t.col(e);
        const bool inside = t.ar + t.p < a.k && t.ac + t.q0 + M::QSTEP * e < a.k;
        /* a solve's diagonal comes from load_diagonal */
        const bool want = inside && (c != b || (i == j  ? !a.unit && !SOLVE
                                                : LOWER ? i > j
                                                        : i < j));
        av[e] = want ? src[e * src_step] : kzero<T>();
    }
}

/* When solving, 1 / T(i,i) for the block's rows i < NBLK NB into sdinv (1
 * on a unit diagonal and in the padding), read from A by the first threads
 * along with the tiles, so that staging waits for memory once. */
template <class T, int NB, int NBLK>
__device__ __forceinline__ void load_diagonal(const leaf_args<T> &a, T *sdinv)
{
    static_assert(NBLK * NB <= THREADS, "a thread for each diagonal element");
    const int i = threadIdx.x;
    if (i >= NBLK * NB)
        return;
    const T d = i < a.k && !a.unit ? a.A[i + (int64_t)i * a.lda] : kone<T>();
    sdinv[i] = kinv(a.cj ? kconj(d) : d);
}

/* The loaded tile (c, b) into shared memory, its element (i, j) at
 * dst[at(i, j)].  A diagonal tile keeps its triangle; when solving, its
 * columns are divided by their diagonal element (times sdinv, which must be
 * visible to this thread) and its diagonal is zero, for tile_vectors; when
 * multiplying, its padding diagonal is zero. */
template <class T, int NB, leaf_op OP, class At>
__device__ __forceinline__ void store_tile(const leaf_args<T> &a, int c, int b,
                                           const T (&av)[tile_map<T, NB>::STAGE], T *dst, At at,
                                           const T *sdinv)
{
    using M = tile_map<T, NB>;
    constexpr bool SOLVE = op_solve<OP>();
    const M t(a, c, b);
    const bool diag = c == b;
#pragma unroll
    for (int e = 0; e < M::STAGE; e++) {
        const int i = t.row(e), j = t.col(e);
        const T v = a.cj ? kconj(av[e]) : av[e];
        T out = v;
        if (diag && i == j) {
            const bool real = c * NB + i < a.k;
            out = SOLVE || !real ? kzero<T>() : a.unit ? kone<T>() : v;
        } else if (diag && SOLVE) {
            out = kmul(v, sdinv[c * NB + j]);
        }
        dst[at(i, j)] = out;
    }
}

/* f(c, b, slot) for each tile (c, b) of T that the block holds, slot its
 * place in av and in sT. */
template <int NBLK, bool LOWER, class F>
__device__ __forceinline__ void for_each_tile(F &&f)
{
#pragma unroll
    for (int c = 0; c < NBLK; c++)
#pragma unroll
        for (int b = 0; b < NBLK; b++)
            if (tile_in_block<LOWER>(c, b))
                f(c, b, tile_slot<NBLK, LOWER>(c, b));
}

/* This thread's elements of T's tiles into av (load_tile). */
template <class T, int NB, int NBLK, leaf_op OP>
__device__ __forceinline__ void load_tiles(const leaf_args<T> &a,
                                           T (&av)[block_tiles<NBLK>()][tile_map<T, NB>::STAGE])
{
    for_each_tile<NBLK, op_lower<OP>()>(
        [&](int c, int b, int slot) { load_tile<T, NB, OP>(a, c, b, av[slot]); });
}

/* T's tiles, loaded into av, into shared memory (store_tile). */
template <class T, int NB, int NBLK, leaf_op OP>
__device__ __forceinline__ void
stage_tiles(const leaf_args<T> &a, const T (&av)[block_tiles<NBLK>()][tile_map<T, NB>::STAGE],
            T *sT, const T *sdinv)
{
    for_each_tile<NBLK, op_lower<OP>()>([&](int c, int b, int slot) {
        store_tile<T, NB, OP>(
            a, c, b, av[slot], sT + slot * NB * (NB + 1),
            [](int i, int j) { return i + j * (NB + 1); }, sdinv);
    });
}

} // namespace

#endif
